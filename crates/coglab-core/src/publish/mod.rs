//! Publishing a leaderboard (issue 21): a maintainer keeps a folder with a manifest,
//! `leaderboard.toml` ([`manifest`]), and the result files it lists; `coglab publish` scores
//! every run with the leaderboard's scorer and writes a static bundle ([`bundle`]): a compact
//! index, per-model item chunks, static HTML boards ([`html`]) and the reproducibility audit
//! ([`audit`]); `coglab verify` recomputes a bundle from its inputs ([`check_inputs`],
//! [`compare`]) and fails on any difference.
//!
//! This module is pure (bytes in, bytes out); reading folders and writing the bundle
//! atomically is `coglab_run::publish`.

pub mod audit;
mod build;
pub mod bundle;
pub mod html;
pub mod manifest;
pub mod ranks;
pub mod site;

pub use build::build;
pub use bundle::{Bundle, Index, InputFile};
pub use manifest::{Benchmark, Entry, Manifest, ManifestError};

/// Why a publish or a verify failed. Each variant names the manifest entry (line, model, run)
/// and the file.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PublishError {
    /// The manifest itself is refused.
    #[error(transparent)]
    Manifest(Box<ManifestError>),
    /// A listed file cannot be read or scored.
    #[error("{manifest}: {entry}: {file}: {message}")]
    File {
        /// Manifest file.
        manifest: String,
        /// The entry listing the file.
        entry: Entry,
        /// The file (relative to the manifest's folder).
        file: String,
        /// What is wrong (the parser's located error, or the read error).
        message: String,
    },
    /// A run's files do not make one row of its benchmark.
    #[error("{manifest}: {entry}: {message}")]
    Run {
        /// Manifest file.
        manifest: String,
        /// The run.
        entry: Entry,
        /// What is wrong.
        message: String,
    },
    /// An input file's bytes are not those the bundle was made from.
    #[error("{file}: SHA-256 {found} differs from the published {recorded}: the file changed since it was published")]
    Tampered {
        /// The file (relative to the manifest's folder).
        file: String,
        /// SHA-256 in the bundle's index.
        recorded: String,
        /// SHA-256 now.
        found: String,
    },
    /// A published input file cannot be read.
    #[error("{file}: cannot read the published input: {message}")]
    Missing {
        /// The file.
        file: String,
        /// The read error.
        message: String,
    },
    /// A recomputed bundle file differs from the published one.
    #[error("{file}: {what}")]
    Differs {
        /// The bundle file (relative to the bundle root).
        file: String,
        /// How it differs.
        what: String,
    },
    /// The bundle's index cannot be read.
    #[error("{file}: {message}")]
    Index {
        /// The index file.
        file: String,
        /// The JSON error.
        message: String,
    },
    /// The bundle's index names an input file by a path that could leave the leaderboard
    /// folder ([`check_relative`]); nothing was read.
    #[error("index.json: {field}: {path:?} is refused: {message}; a bundle names only files inside its leaderboard folder")]
    IndexPath {
        /// The index field (`keys[0].path`, `models[2].runs[0].files[1].path`).
        field: String,
        /// The path as the index gives it.
        path: String,
        /// Why it is refused.
        message: String,
    },
}

impl From<ManifestError> for PublishError {
    fn from(e: ManifestError) -> Self {
        PublishError::Manifest(Box::new(e))
    }
}

/// Why `path`, as a manifest or a bundle index names an input file, could leave the
/// leaderboard folder: an absolute path (`/…`, `\\…`, `C:…`), a `..` component, or a NUL.
/// Only the text is checked here; `coglab_run::publish` also resolves symbolic links and
/// keeps the real path inside the folder.
///
/// # Errors
/// What is wrong with the path, for a message.
///
/// # Examples
/// ```
/// use coglab_core::publish::check_relative;
/// assert!(check_relative("runs/gpt-4o/preds.jsonl").is_ok());
/// assert!(check_relative("./key.jsonl").is_ok());
/// assert!(check_relative("../../etc/passwd").is_err());
/// assert!(check_relative("runs/../../x").is_err());
/// assert!(check_relative("/etc/passwd").is_err());
/// assert!(check_relative("C:\\x").is_err());
/// ```
pub fn check_relative(path: &str) -> Result<(), &'static str> {
    if path.contains('\0') {
        return Err("a NUL character");
    }
    if path.starts_with('/') || path.starts_with('\\') {
        return Err("an absolute path");
    }
    let b = path.as_bytes();
    if b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':' {
        return Err("a drive-letter path");
    }
    if path.split(['/', '\\']).any(|c| c == "..") {
        return Err("a `..` component leaves the folder");
    }
    Ok(())
}

/// Checks that every input file a bundle lists (keys and runs) still has its published
/// SHA-256; `read` gives a file's bytes by its path relative to the manifest's folder. Every
/// path is first held to [`check_relative`], so an index naming `../../etc/passwd` is refused
/// before anything is read.
///
/// # Errors
/// [`PublishError::IndexPath`] for a path that could leave the folder (naming the index
/// field), [`PublishError::Tampered`] naming the first changed file, [`PublishError::Missing`]
/// for one that cannot be read.
///
/// # Examples
/// ```
/// use coglab_core::publish::{check_inputs, bundle::{sha256_hex, FileHash, Index}};
/// let mut index = Index { format: 1, coglab: "0.1.0".into(), title: None,
///     manifest_sha256: String::new(),
///     keys: vec![FileHash { path: "key.jsonl".into(), sha256: sha256_hex(b"abc") }],
///     mmiq_key_chunk: None, ranks: vec![], models: vec![], audit: vec![] };
/// assert!(check_inputs(&index, |_| Ok(b"abc".to_vec())).is_ok());
/// let e = check_inputs(&index, |_| Ok(b"abd".to_vec())).unwrap_err().to_string();
/// assert!(e.starts_with("key.jsonl: SHA-256 "), "{e}");
/// index.keys[0].path = "../../etc/passwd".into();
/// let e = check_inputs(&index, |_| panic!("nothing is read")).unwrap_err().to_string();
/// assert!(e.starts_with("index.json: keys[0].path: \"../../etc/passwd\""), "{e}");
/// ```
pub fn check_inputs(
    index: &Index,
    mut read: impl FnMut(&str) -> Result<Vec<u8>, String>,
) -> Result<(), PublishError> {
    let keys = index
        .keys
        .iter()
        .enumerate()
        .map(|(k, f)| (format!("keys[{k}].path"), f));
    let runs = index.models.iter().enumerate().flat_map(|(m, model)| {
        model.runs.iter().enumerate().flat_map(move |(r, run)| {
            run.files
                .iter()
                .enumerate()
                .map(move |(k, f)| (format!("models[{m}].runs[{r}].files[{k}].path"), f))
        })
    });
    let all: Vec<_> = keys.chain(runs).collect();
    // Every path is checked before any is read.
    for (field, f) in &all {
        check_relative(&f.path).map_err(|why| PublishError::IndexPath {
            field: field.clone(),
            path: f.path.clone(),
            message: why.to_string(),
        })?;
    }
    let mut seen = std::collections::BTreeSet::new();
    for (field, f) in all {
        if !seen.insert(&f.path) {
            continue;
        }
        let bytes = read(&f.path).map_err(|message| PublishError::Missing {
            file: f.path.clone(),
            message: format!("{message} (index.json: {field})"),
        })?;
        let found = bundle::sha256_hex(&bytes);
        if found != f.sha256 {
            return Err(PublishError::Tampered {
                file: f.path.clone(),
                recorded: f.sha256.clone(),
                found,
            });
        }
    }
    Ok(())
}

/// Checks that every rank file the index lists ([`Index::ranks`]) is among the bundle's
/// `files` with the SHA-256 the index gives it (what the site relies on when it fetches one).
///
/// # Errors
/// [`PublishError::Differs`] naming the first rank file missing or with another SHA-256.
///
/// # Examples
/// ```
/// use coglab_core::publish::{check_ranks, bundle::{sha256_hex, Index}, ranks::RanksRef, Benchmark};
/// let index = Index { format: 1, coglab: "0.1.0".into(), title: None,
///     manifest_sha256: String::new(), keys: vec![], mmiq_key_chunk: None, models: vec![],
///     ranks: vec![RanksRef { benchmark: Benchmark::Mmiq, path: "items/ranks-mmiq.json".into(),
///         sha256: sha256_hex(b"abc") }], audit: vec![] };
/// let files = vec![("items/ranks-mmiq.json".to_string(), b"abc".to_vec())];
/// assert!(check_ranks(&index, &files).is_ok());
/// let files = vec![("items/ranks-mmiq.json".to_string(), b"abd".to_vec())];
/// assert!(check_ranks(&index, &files).unwrap_err().to_string()
///     .starts_with("items/ranks-mmiq.json: SHA-256 "));
/// ```
pub fn check_ranks(index: &Index, files: &[(String, Vec<u8>)]) -> Result<(), PublishError> {
    for r in &index.ranks {
        let Some((_, bytes)) = files.iter().find(|(p, _)| *p == r.path) else {
            return Err(PublishError::Differs {
                file: r.path.clone(),
                what: "listed in index.json but missing from the bundle".into(),
            });
        };
        let found = bundle::sha256_hex(bytes);
        if found != r.sha256 {
            return Err(PublishError::Differs {
                file: r.path.clone(),
                what: format!("SHA-256 {found} differs from index.json's {}", r.sha256),
            });
        }
    }
    Ok(())
}

/// Compares a recomputed bundle with the published files (path and bytes each).
///
/// # Errors
/// [`PublishError::Differs`] naming the first file that is missing, extra or different (for
/// a differing file, the first differing byte offset).
///
/// # Examples
/// ```
/// use coglab_core::publish::compare;
/// let a = vec![("index.json".to_string(), b"{\"a\":1}".to_vec())];
/// assert!(compare(&a, &a).is_ok());
/// let b = vec![("index.json".to_string(), b"{\"a\":2}".to_vec())];
/// assert_eq!(compare(&a, &b).unwrap_err().to_string(),
///     "index.json: differs from the recomputed file at byte 5");
/// ```
pub fn compare(
    recomputed: &[(String, Vec<u8>)],
    published: &[(String, Vec<u8>)],
) -> Result<(), PublishError> {
    for (path, bytes) in recomputed {
        let Some((_, found)) = published.iter().find(|(p, _)| p == path) else {
            return Err(PublishError::Differs {
                file: path.clone(),
                what: "missing from the published bundle".into(),
            });
        };
        if found != bytes {
            let at = bytes
                .iter()
                .zip(found)
                .position(|(a, b)| a != b)
                .unwrap_or(bytes.len().min(found.len()));
            return Err(PublishError::Differs {
                file: path.clone(),
                what: format!("differs from the recomputed file at byte {at}"),
            });
        }
    }
    for (path, _) in published {
        if !recomputed.iter().any(|(p, _)| p == path) {
            return Err(PublishError::Differs {
                file: path.clone(),
                what: "in the published bundle but not recomputed from the manifest".into(),
            });
        }
    }
    Ok(())
}
