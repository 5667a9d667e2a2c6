//! `coglab-run`: one coglab command's run over files, shared by the `coglab` command line and
//! the Python package (`crates/coglab-py`).
//!
//! Each module reads its inputs (paths, or bytes already in memory: [`Source`]), calls
//! `coglab-core` and returns the command's result as a typed value whose `Serialize` impl is
//! exactly what `coglab <command> --json` prints. The CLI prints that value; the Python package
//! turns the same value into a dict. So the two give the same JSON by construction.
//!
//! Modules: [`mmiq`] (`score mmiq`), [`kiva`] (`score kiva`), [`mmopera`] (`score mmopera`),
//! [`sem`] (`sem`, `describe`), [`rank`] (`rank`), [`items`] (`items`), [`publish`]
//! (`publish`, `verify`), [`export`] (`export eee`, `export hf`), [`selftest`] (`selftest simulate`). Errors are
//! [`RunError`]: a usage error, or bad input with its location split into fields
//! ([`Located`]: file, line or record, field, expected, found).
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod error;
pub mod estimate;
pub mod export;
pub mod items;
pub mod kiva;
pub mod mmiq;
pub mod mmopera;
pub mod publish;
pub mod rank;
pub mod selftest;
pub mod sem;

pub use error::{Located, RunError};

use std::path::Path;

/// One input: a path on disk, or bytes already in memory with the name they are known by
/// (the name is what error messages show and what format detection reads, e.g. `.jsonl`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A path (a file, or a folder where the command walks folders).
    Path(String),
    /// Bytes with a name.
    Bytes {
        /// The name shown in messages (a file name such as `preds.jsonl`, or a path such as
        /// `output_Numerical/Counting.csv` for KiVA, whose folder names the domain).
        name: String,
        /// The content.
        data: Vec<u8>,
    },
}

impl Source {
    /// A path.
    pub fn path(p: impl Into<String>) -> Self {
        Source::Path(p.into())
    }

    /// The path as given, or the bytes' name.
    pub fn label(&self) -> &str {
        match self {
            Source::Path(p) => p,
            Source::Bytes { name, .. } => name,
        }
    }

    /// The file name part (what parsers name in their messages).
    pub fn file_name(&self) -> String {
        file_name(self.label())
    }

    /// The whole content: a regular file read ([`read_bytes`]), or a copy of the bytes.
    ///
    /// # Errors
    /// [`RunError::Input`] when the path cannot be read or is not a regular file.
    pub fn read(&self) -> Result<Vec<u8>, RunError> {
        match self {
            Source::Path(p) => read_bytes(p),
            Source::Bytes { data, .. } => Ok(data.clone()),
        }
    }

    /// The first `n` bytes (fewer when the content is shorter), to tell a format from.
    ///
    /// # Errors
    /// [`RunError::Input`] when the path cannot be opened or read.
    pub fn head(&self, n: usize) -> Result<Vec<u8>, RunError> {
        use std::io::Read;
        match self {
            Source::Path(p) => {
                let cant =
                    |e: std::io::Error| RunError::in_file(p, format!("{p}: cannot read file: {e}"));
                let mut head = Vec::with_capacity(n);
                std::fs::File::open(p)
                    .map_err(cant)?
                    .take(n as u64)
                    .read_to_end(&mut head)
                    .map_err(cant)?;
                Ok(head)
            }
            Source::Bytes { data, .. } => Ok(data[..data.len().min(n)].to_vec()),
        }
    }

    /// The content, borrowed when it is already in memory.
    ///
    /// # Errors
    /// As [`Source::read`].
    pub fn bytes(&self) -> Result<std::borrow::Cow<'_, [u8]>, RunError> {
        match self {
            Source::Path(p) => read_bytes(p).map(std::borrow::Cow::Owned),
            Source::Bytes { data, .. } => Ok(std::borrow::Cow::Borrowed(data)),
        }
    }
}

/// What a path is when it is not a regular file or folder (a FIFO, a device, a socket).
pub fn special_kind(meta: &std::fs::Metadata) -> Option<&'static str> {
    let t = meta.file_type();
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("a FIFO (named pipe)");
        }
        if t.is_char_device() {
            return Some("a character device");
        }
        if t.is_block_device() {
            return Some("a block device");
        }
        if t.is_socket() {
            return Some("a socket");
        }
    }
    if t.is_file() || t.is_dir() {
        None
    } else {
        Some("not a regular file")
    }
}

/// Reads a whole file as bytes, with an error naming the path. Only regular files are read:
/// a FIFO, a device (`/dev/zero`) or a socket is refused naming what it is (a FIFO without a
/// writer would block, `/dev/zero` never ends), and so is a folder.
///
/// # Errors
/// [`RunError::Input`] naming the path.
pub fn read_bytes(path: &str) -> Result<Vec<u8>, RunError> {
    let meta = std::fs::metadata(path)
        .map_err(|e| RunError::in_file(path, format!("{path}: cannot read file: {e}")))?;
    if let Some(kind) = special_kind(&meta) {
        return Err(RunError::in_file(
            path,
            format!("{path}: is {kind}, not a regular file; save the data to a file first"),
        ));
    }
    if meta.is_dir() {
        return Err(RunError::in_file(
            path,
            format!("{path}: is a folder, expected a file"),
        ));
    }
    std::fs::read(path)
        .map_err(|e| RunError::in_file(path, format!("{path}: cannot read file: {e}")))
}

/// The file name part of a path, as shown in error messages.
pub fn file_name(path: &str) -> String {
    Path::new(path)
        .file_name()
        .map_or_else(|| path.to_string(), |n| n.to_string_lossy().into_owned())
}

/// `value` as JSON with the coverage pair of issue 20 added to its object `under`:
/// `coverage` (items scored / benchmark items) and `accuracy_all_items` (the headline figure with
/// unscored items counted wrong), plus `items_in_benchmark`. The numbers come from
/// `coglab_core::ranks::coverage`.
///
/// # Errors
/// When `value` cannot be represented as JSON (not for the reports of this crate).
pub fn with_coverage<T: serde::Serialize>(
    value: &T,
    under: &str,
    cov: &coglab_core::ranks::coverage::Coverage,
) -> Result<serde_json::Value, serde_json::Error> {
    let mut v = serde_json::to_value(value)?;
    if let Some(obj) = v.get_mut(under).and_then(serde_json::Value::as_object_mut) {
        obj.insert("coverage".into(), cov.coverage.into());
        obj.insert("accuracy_all_items".into(), cov.accuracy_all_items.into());
        obj.insert("items_in_benchmark".into(), cov.size.into());
    }
    Ok(v)
}

/// The CSV files found under some paths, and the links skipped on the way.
#[derive(Debug, Default)]
pub struct Found {
    /// The CSV files, in the order found (each folder's entries sorted).
    pub files: Vec<String>,
    /// Real folders already walked (canonical paths), so each is read once.
    seen: std::collections::HashSet<std::path::PathBuf>,
    /// Links (or paths) to a folder already read, skipped.
    pub skipped: Vec<String>,
}

/// The CSV files under `path` ([`collect_csv`]).
///
/// # Errors
/// As [`collect_csv`].
pub fn csv_files(path: &str) -> Result<Vec<String>, RunError> {
    let mut found = Found::default();
    collect_csv(path, &mut found)?;
    Ok(found.files)
}

/// Collects the CSV files (and Parquet files, read as the CSV of their rows) under a path (the
/// path itself if it is a file), sorted. Each real
/// folder is walked once: a link to a folder already read (e.g. a link to `.`) is skipped
/// and listed, so a link loop cannot make the walk endless (issue 27, defect 5). FIFOs,
/// devices and sockets are refused naming what they are (defect 6).
///
/// # Errors
/// [`RunError::Input`] for a path that does not exist, cannot be followed or is not a regular
/// file or folder.
pub fn collect_csv(path: &str, found: &mut Found) -> Result<(), RunError> {
    let p = Path::new(path);
    let meta = std::fs::metadata(p).map_err(|e| {
        if std::fs::symlink_metadata(p).is_ok() {
            RunError::in_file(path, format!("{path}: cannot follow the link: {e}"))
        } else {
            RunError::in_file(path, format!("{path}: no such file or folder"))
        }
    })?;
    if let Some(kind) = special_kind(&meta) {
        return Err(RunError::in_file(
            path,
            format!("{path}: is {kind}, not a regular file or folder"),
        ));
    }
    if meta.is_dir() {
        let real = std::fs::canonicalize(p)
            .map_err(|e| RunError::in_file(path, format!("{path}: cannot resolve folder: {e}")))?;
        if !found.seen.insert(real) {
            found.skipped.push(path.to_string());
            return Ok(());
        }
        let entries = std::fs::read_dir(p)
            .map_err(|e| RunError::in_file(path, format!("{path}: cannot read folder: {e}")))?;
        let mut children: Vec<String> = entries
            .filter_map(Result::ok)
            .map(|e| e.path().to_string_lossy().into_owned())
            .collect();
        children.sort();
        for child in children {
            let cp = Path::new(&child);
            if cp.is_dir()
                || cp.extension().is_some_and(|e| {
                    e.eq_ignore_ascii_case("csv") || e.eq_ignore_ascii_case("parquet")
                })
            {
                collect_csv(&child, found)?;
            }
        }
    } else {
        found.files.push(path.to_string());
    }
    Ok(())
}

/// Whether a CSV is KiVA's human data file (its header starts with `ParticipantID`).
pub fn is_human(bytes: &[u8]) -> bool {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    bytes.starts_with(b"ParticipantID") || bytes.starts_with(b"\"ParticipantID\"")
}

/// The CSV files behind some sources, listed before any is read: each path's CSV files
/// ([`collect_csv`]; a file is itself) and each in-memory source as it is.
#[derive(Debug)]
pub struct CsvList<'a> {
    entries: Vec<Result<String, &'a Source>>,
    /// Links (or paths) to a folder already read, skipped.
    pub skipped: Vec<String>,
}

impl<'a> CsvList<'a> {
    /// Walks the paths among `sources`.
    ///
    /// # Errors
    /// As [`collect_csv`].
    pub fn walk(sources: &'a [Source]) -> Result<Self, RunError> {
        let mut found = Found::default();
        let mut entries = Vec::new();
        for s in sources {
            match s {
                Source::Path(p) => {
                    let before = found.files.len();
                    collect_csv(p, &mut found)?;
                    entries.extend(found.files[before..].iter().cloned().map(Ok));
                }
                Source::Bytes { .. } => entries.push(Err(s)),
            }
        }
        Ok(Self {
            entries,
            skipped: found.skipped,
        })
    }

    /// Reads every file: (path or name, content), in order.
    ///
    /// # Errors
    /// As [`read_bytes`].
    pub fn read(&self) -> Result<Vec<(String, Vec<u8>)>, RunError> {
        let mut out = Vec::with_capacity(self.entries.len());
        for entry in &self.entries {
            match entry {
                Ok(path) => out.push((path.clone(), read_bytes(path)?)),
                Err(s) => out.push((s.label().to_string(), s.read()?)),
            }
        }
        Ok(out)
    }
}
