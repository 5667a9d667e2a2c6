//! `coglab publish DIR --out OUT` and `coglab verify OUT`: the file-system side of
//! [`coglab_core::publish`]. Reads the manifest and the files it lists (a folder stands for
//! every file under it, hidden files skipped), builds the bundle with the core, and writes it
//! atomically: into a temporary folder beside `OUT`, then renamed into place, so a failed
//! publish leaves `OUT` as it was.
//!
//! `OUT/source.txt` records where the inputs are (the manifest's folder, relative to `OUT`
//! when it can be) for `coglab verify`; it is the only file of the bundle that depends on
//! where `OUT` is, and verify does not compare it.

use std::path::{Component, Path, PathBuf};

use coglab_core::publish::bundle::InputFile;
use coglab_core::publish::manifest::PathEntry;
use coglab_core::publish::{self, Bundle, Index, Manifest, PublishError};
use coglab_core::reported::ReportedBundle;

use crate::RunError;

/// The manifest's file name inside a leaderboard folder.
pub const MANIFEST: &str = "leaderboard.toml";

/// The file of a bundle recording where its inputs are.
pub const SOURCE: &str = "source.txt";

/// The papers' tables shipped with the site (`public/data/*.json`), for the audit and the
/// static boards.
pub fn reported() -> Vec<ReportedBundle> {
    [
        ("mmiq.json", include_str!("../../../public/data/mmiq.json")),
        (
            "mmopera.json",
            include_str!("../../../public/data/mmopera.json"),
        ),
        ("gold.json", include_str!("../../../public/data/gold.json")),
    ]
    .into_iter()
    .filter_map(|(name, text)| ReportedBundle::parse(name, text).ok())
    .collect()
}

impl From<PublishError> for RunError {
    fn from(e: PublishError) -> Self {
        let file = match &e {
            PublishError::File { file, .. }
            | PublishError::Tampered { file, .. }
            | PublishError::Missing { file, .. }
            | PublishError::Differs { file, .. }
            | PublishError::Index { file, .. } => Some(file.clone()),
            PublishError::Run { manifest, .. } => Some(manifest.clone()),
            PublishError::Manifest(m) => Some(match m.as_ref() {
                publish::ManifestError::Toml { file, .. }
                | publish::ManifestError::Encoding { file, .. }
                | publish::ManifestError::Benchmark { file, .. }
                | publish::ManifestError::DuplicateModel { file, .. }
                | publish::ManifestError::DuplicateRun { file, .. }
                | publish::ManifestError::Value { file, .. }
                | publish::ManifestError::NoKey { file, .. } => file.clone(),
                _ => String::new(),
            }),
            _ => None,
        };
        match file {
            Some(f) => RunError::in_file(&f, e.to_string()),
            None => RunError::input(e.to_string()),
        }
    }
}

/// The manifest path of `dir`: `dir/leaderboard.toml`, or `dir` itself when it is a file.
pub fn manifest_path(dir: &Path) -> PathBuf {
    if dir.is_file() {
        dir.to_path_buf()
    } else {
        dir.join(MANIFEST)
    }
}

/// Every file at `path` (relative to `root`): the file itself, or every non-hidden file under
/// the folder, in path order; paths as `rel/…` with `/` separators.
fn resolve(root: &Path, rel: &str) -> Result<Vec<InputFile>, String> {
    let full = root.join(rel);
    let meta = std::fs::metadata(&full).map_err(|e| format!("cannot read: {e}"))?;
    let rel = rel.trim_end_matches('/').replace('\\', "/");
    if meta.is_file() {
        let bytes = std::fs::read(&full).map_err(|e| format!("cannot read: {e}"))?;
        return Ok(vec![InputFile { path: rel, bytes }]);
    }
    let mut out = Vec::new();
    walk(&full, &rel, &mut out)?;
    Ok(out)
}

fn walk(dir: &Path, rel: &str, out: &mut Vec<InputFile>) -> Result<(), String> {
    let mut entries: Vec<(String, PathBuf)> = std::fs::read_dir(dir)
        .map_err(|e| format!("{rel}: cannot list the folder: {e}"))?
        .filter_map(Result::ok)
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .filter(|(n, _)| !n.starts_with('.'))
        .collect();
    entries.sort();
    for (name, path) in entries {
        let r = format!("{rel}/{name}");
        let meta = std::fs::metadata(&path).map_err(|e| format!("{r}: cannot read: {e}"))?;
        if meta.is_dir() {
            walk(&path, &r, out)?;
        } else {
            let bytes = std::fs::read(&path).map_err(|e| format!("{r}: cannot read: {e}"))?;
            out.push(InputFile { path: r, bytes });
        }
    }
    Ok(())
}

/// Reads the manifest at `manifest` and builds its bundle in memory (nothing is written).
///
/// # Errors
/// The manifest's or a file's located [`PublishError`], as a [`RunError::Input`].
pub fn build(manifest: &Path) -> Result<Bundle, RunError> {
    let name = manifest.display().to_string();
    let bytes = std::fs::read(manifest)
        .map_err(|e| RunError::in_file(&name, format!("{name}: cannot read the manifest: {e}")))?;
    let text = Manifest::text(&name, &bytes).map_err(PublishError::from)?;
    let m = Manifest::parse(&name, text).map_err(PublishError::from)?;
    let root = manifest.parent().unwrap_or(Path::new(".")).to_path_buf();
    let bundle = publish::build(
        &m,
        text,
        |p: &PathEntry| resolve(&root, &p.path),
        &reported(),
    )?;
    Ok(bundle)
}

/// `to` relative to `from` (both made absolute), when they share a root; else `to` absolute.
fn relative(from: &Path, to: &Path) -> PathBuf {
    let abs = |p: &Path| {
        std::fs::canonicalize(p).unwrap_or_else(|_| {
            std::env::current_dir()
                .map(|d| d.join(p))
                .unwrap_or(p.to_path_buf())
        })
    };
    let (from, to) = (abs(from), abs(to));
    let f: Vec<Component> = from.components().collect();
    let t: Vec<Component> = to.components().collect();
    let common = f.iter().zip(&t).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return to;
    }
    let mut out = PathBuf::new();
    for _ in common..f.len() {
        out.push("..");
    }
    for c in &t[common..] {
        out.push(c);
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

/// Builds the bundle of the leaderboard folder (or manifest) `dir` and writes it to `out`
/// atomically: every file is written into a temporary folder beside `out`, which then
/// replaces `out`. On any error `out` is left as it was and the temporary folder removed.
///
/// # Errors
/// A located [`RunError::Input`] for a bad manifest entry or file, or a write error.
pub fn publish(dir: &Path, out: &Path) -> Result<Index, RunError> {
    let manifest = manifest_path(dir);
    let bundle = build(&manifest)?;
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent)
        .map_err(|e| RunError::input(format!("{}: cannot create: {e}", parent.display())))?;
    let base = out
        .file_name()
        .map_or_else(|| "bundle".into(), |n| n.to_string_lossy().into_owned());
    let tmp = parent.join(format!(".{base}.tmp-{}", std::process::id()));
    let old = parent.join(format!(".{base}.old-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    // OUT does not exist yet: its path from its (now existing) parent's real path.
    let out_abs =
        std::fs::canonicalize(&parent).map_or_else(|_| out.to_path_buf(), |p| p.join(&base));
    let source = relative(&out_abs, manifest.parent().unwrap_or(Path::new(".")));
    let written = write_all(&tmp, &bundle, &source).and_then(|()| {
        if out.exists() {
            std::fs::rename(out, &old)?;
        }
        match std::fs::rename(&tmp, out) {
            Ok(()) => {
                let _ = std::fs::remove_dir_all(&old);
                Ok(())
            }
            Err(e) => {
                if old.exists() {
                    let _ = std::fs::rename(&old, out);
                }
                Err(e)
            }
        }
    });
    if let Err(e) = written {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(RunError::input(format!(
            "{}: cannot write the bundle: {e}",
            out.display()
        )));
    }
    Ok(bundle.index)
}

fn write_all(tmp: &Path, bundle: &Bundle, source: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(tmp)?;
    for (rel, bytes) in &bundle.files {
        let p = tmp.join(rel);
        if let Some(d) = p.parent() {
            std::fs::create_dir_all(d)?;
        }
        std::fs::write(p, bytes)?;
    }
    let mut s = source.to_string_lossy().replace('\\', "/");
    s.push('\n');
    std::fs::write(tmp.join(SOURCE), s)
}

/// Every file of a bundle folder but [`SOURCE`], paths relative to it with `/` separators.
fn read_bundle(out: &Path) -> Result<Vec<(String, Vec<u8>)>, RunError> {
    let mut files = Vec::new();
    walk(out, "", &mut files).map_err(|e| RunError::input(format!("{}: {e}", out.display())))?;
    Ok(files
        .into_iter()
        .map(|f| (f.path.trim_start_matches('/').to_string(), f.bytes))
        .filter(|(p, _)| p != SOURCE)
        .collect())
}

/// `coglab verify OUT`: checks that every input file still has its published SHA-256, then
/// rebuilds the bundle from the manifest, checks the rank files against the SHA-256 the index
/// gives them ([`publish::check_ranks`]) and compares every file byte for byte. `inputs` is
/// the leaderboard folder; by default the one `OUT/source.txt` names.
///
/// # Errors
/// A [`RunError::Input`] naming the changed input file, or the first bundle file that differs.
pub fn verify(out: &Path, inputs: Option<&Path>) -> Result<Index, RunError> {
    let index_path = out.join("index.json");
    let text = std::fs::read(&index_path).map_err(|e| {
        RunError::in_file(
            &index_path.display().to_string(),
            format!("{}: cannot read: {e}", index_path.display()),
        )
    })?;
    let index: Index = serde_json::from_slice(&text).map_err(|e| PublishError::Index {
        file: index_path.display().to_string(),
        message: e.to_string(),
    })?;
    let (root, manifest) = match inputs {
        Some(d) if d.is_file() => (
            d.parent().unwrap_or(Path::new(".")).to_path_buf(),
            d.to_path_buf(),
        ),
        Some(d) => (d.to_path_buf(), d.join(MANIFEST)),
        None => {
            let s = out.join(SOURCE);
            let rel = std::fs::read_to_string(&s).map_err(|e| {
                RunError::in_file(
                    &s.display().to_string(),
                    format!(
                        "{}: cannot read ({e}); give the leaderboard folder with --inputs",
                        s.display()
                    ),
                )
            })?;
            let root = out.join(rel.trim());
            let manifest = root.join(MANIFEST);
            (root, manifest)
        }
    };
    publish::check_inputs(&index, |rel| {
        std::fs::read(root.join(rel)).map_err(|e| e.to_string())
    })?;
    let rebuilt = build(&manifest)?;
    let published = read_bundle(out)?;
    publish::check_ranks(&index, &published)?;
    publish::compare(&rebuilt.files, &published)?;
    Ok(index)
}
