//! `coglab publish DIR --out OUT` and `coglab verify OUT`: the file-system side of
//! [`coglab_core::publish`]. Reads the manifest and the files it lists (a folder stands for
//! every file under it, hidden files skipped), builds the bundle with the core, and writes it
//! into a temporary folder beside `OUT`, then swaps it into place, so a failed publish leaves
//! `OUT` as it was.
//!
//! What it promises a maintainer (issue 37, `docs/hardening.md`):
//! - **It removes only what it wrote.** `OUT` must be absent, an empty folder, or a bundle an
//!   earlier publish wrote, recognised by its marker file [`MARKER`], which lists every file
//!   that publish wrote; a folder holding anything else is refused, naming the first foreign
//!   file. `OUT` may not be the leaderboard folder, inside it or above it (real paths, after
//!   symbolic links). The replaced bundle's files are removed one by one, as its marker lists
//!   them, and a folder is removed only once it is empty.
//! - **`OUT` is present at every moment**: on Linux and macOS the new folder and the old one
//!   are exchanged in one `renameat2(RENAME_EXCHANGE)` / `renameatx_np(RENAME_SWAP)` call,
//!   atomic on one file system; elsewhere (or where the file system refuses the exchange) the
//!   old folder is renamed away and the new one into place, two renames apart.
//! - **Concurrent publishes to one place are serialised**: each holds an exclusive lock on
//!   `OUT`'s parent folder (an advisory `flock`, released when the process ends however it
//!   ends) from its check of `OUT` to the end of its swap.
//! - **It reads only inside the leaderboard folder**: every manifest path is relative without
//!   `..` ([`coglab_core::publish::check_relative`]), and its real path (symbolic links
//!   resolved) must be inside the folder and a regular file or a folder; `verify` holds the
//!   paths `index.json` names to the same rules before reading any, and never follows a link
//!   inside the bundle.
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

/// The marker of a bundle folder `coglab publish` wrote: its first line is [`MARKER_HEAD`],
/// then every file of the bundle (relative, `/` separators), the marker last. Hidden, so the
/// site copy and `verify`'s comparison skip it.
pub const MARKER: &str = ".coglab-bundle";

/// The first line of [`MARKER`].
pub const MARKER_HEAD: &str = "coglab bundle 1: files written by `coglab publish`";

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

/// A folder as a real, absolute path (symbolic links resolved).
fn real(p: &Path) -> Result<PathBuf, String> {
    let p = if p.as_os_str().is_empty() {
        Path::new(".")
    } else {
        p
    };
    std::fs::canonicalize(p).map_err(|e| format!("{}: cannot resolve: {e}", p.display()))
}

/// Why `rel` (a manifest or index path, relative to the leaderboard folder whose real path is
/// `root`) is refused, or its real path: [`coglab_core::publish::check_relative`], then the
/// real path (symbolic links resolved) must lie inside `root`.
fn inside(root: &Path, rel: &str) -> Result<PathBuf, String> {
    publish::check_relative(rel).map_err(|why| format!("refused: {why}"))?;
    let full = std::fs::canonicalize(root.join(rel)).map_err(|e| format!("cannot read: {e}"))?;
    if !full.starts_with(root) {
        return Err(format!(
            "refused: it resolves to {}, outside the leaderboard folder {} (a symbolic link out)",
            full.display(),
            root.display()
        ));
    }
    Ok(full)
}

/// A regular file's bytes; anything else (a FIFO, a device, a socket) is refused unread.
fn read_regular(path: &Path) -> Result<Vec<u8>, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read: {e}"))?;
    if !meta.is_file() {
        return Err("not a regular file (a FIFO, a device or a socket is not read)".into());
    }
    std::fs::read(path).map_err(|e| format!("cannot read: {e}"))
}

/// Every file at `path` (relative to `root`, the folder's real path): the file itself, or every
/// non-hidden file under the folder, in path order; paths as `rel/…` with `/` separators.
/// Nothing outside `root` is read ([`inside`]).
fn resolve(root: &Path, rel: &str) -> Result<Vec<InputFile>, String> {
    let full = inside(root, rel)?;
    let meta = std::fs::metadata(&full).map_err(|e| format!("cannot read: {e}"))?;
    let rel = rel.trim_end_matches('/').replace('\\', "/");
    if meta.is_file() {
        let bytes = read_regular(&full)?;
        return Ok(vec![InputFile { path: rel, bytes }]);
    }
    if !meta.is_dir() {
        return Err(
            "not a regular file or a folder (a FIFO, a device or a socket is not read)".into(),
        );
    }
    let mut out = Vec::new();
    let mut seen = vec![full.clone()];
    walk(&full, &rel, &mut out, &mut |p| {
        let real = std::fs::canonicalize(p).map_err(|e| format!("cannot read: {e}"))?;
        if !real.starts_with(root) {
            return Err(format!(
                "refused: a symbolic link to {}, outside the leaderboard folder",
                real.display()
            ));
        }
        if real.is_dir() {
            if seen.contains(&real) {
                return Err(format!(
                    "refused: a symbolic link back to {}",
                    real.display()
                ));
            }
            seen.push(real);
        }
        Ok(true)
    })?;
    Ok(out)
}

/// Walks `dir` (hidden names skipped, path order), pushing every regular file. A symbolic
/// link is passed to `link`, which refuses it (an error) or says whether to follow it.
fn walk(
    dir: &Path,
    rel: &str,
    out: &mut Vec<InputFile>,
    link: &mut dyn FnMut(&Path) -> Result<bool, String>,
) -> Result<(), String> {
    let mut entries: Vec<(String, PathBuf)> = std::fs::read_dir(dir)
        .map_err(|e| format!("{rel}: cannot list the folder: {e}"))?
        .filter_map(Result::ok)
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .filter(|(n, _)| !n.starts_with('.'))
        .collect();
    entries.sort();
    for (name, path) in entries {
        let r = format!("{rel}/{name}");
        let lmeta =
            std::fs::symlink_metadata(&path).map_err(|e| format!("{r}: cannot read: {e}"))?;
        if lmeta.file_type().is_symlink() && !link(&path).map_err(|e| format!("{r}: {e}"))? {
            continue;
        }
        let meta = std::fs::metadata(&path).map_err(|e| format!("{r}: cannot read: {e}"))?;
        if meta.is_dir() {
            walk(&path, &r, out, link)?;
        } else {
            let bytes = read_regular(&path).map_err(|e| format!("{r}: {e}"))?;
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
    let bytes = read_regular(manifest)
        .map_err(|e| RunError::in_file(&name, format!("{name}: the manifest: {e}")))?;
    let text = Manifest::text(&name, &bytes).map_err(PublishError::from)?;
    let m = Manifest::parse(&name, text).map_err(PublishError::from)?;
    let root = real(manifest.parent().unwrap_or(Path::new(".")))
        .map_err(|e| RunError::in_file(&name, format!("{name}: {e}")))?;
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

/// `path` as a real path when part of it does not exist yet: its nearest existing ancestor
/// resolved, the rest appended (`..` in the rest is refused by the caller's checks).
fn real_to_be(path: &Path) -> Result<PathBuf, String> {
    let abs = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .map_err(|e| format!("cannot read the current folder: {e}"))?
            .join(path)
    };
    let mut rest = Vec::new();
    let mut at = abs.as_path();
    loop {
        if std::fs::symlink_metadata(at).is_ok() {
            let mut p = std::fs::canonicalize(at)
                .map_err(|e| format!("{}: cannot resolve: {e}", at.display()))?;
            for c in rest.iter().rev() {
                p.push(c);
            }
            return Ok(p);
        }
        match (at.parent(), at.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                at = parent;
            }
            _ => return Err(format!("{}: no folder of it exists", path.display())),
        }
    }
}

/// Refuses an `OUT` that is the leaderboard folder `root` (a real path), inside it or above
/// it, or whose last component is `..`/`.`/missing.
fn check_place(root: &Path, out: &Path) -> Result<PathBuf, RunError> {
    let shown = out.display();
    let refuse =
        |why: String| RunError::Usage(format!("--out {shown}: {why}; nothing was written"));
    if matches!(
        out.components().next_back(),
        None | Some(Component::ParentDir | Component::CurDir | Component::RootDir)
    ) {
        return Err(refuse("give the bundle folder by its own name".into()));
    }
    let out_real = real_to_be(out).map_err(refuse)?;
    if out_real == root {
        return Err(refuse(format!(
            "this is the leaderboard folder itself ({}); give a folder outside it",
            root.display()
        )));
    }
    if out_real.starts_with(root) {
        return Err(refuse(format!(
            "this is inside the leaderboard folder {} (a bundle there would be read as input \
             and its files replaced); give a folder outside it",
            root.display()
        )));
    }
    if root.starts_with(&out_real) {
        return Err(refuse(format!(
            "the leaderboard folder {} is inside it; give a folder beside it",
            root.display()
        )));
    }
    Ok(out_real)
}

/// The files of the bundle at `out` that a publish may replace: none when `out` is absent or
/// an empty folder; the files its [`MARKER`] lists when every file and folder in it is one of
/// those (or holds some). Anything else is refused, naming what is there.
fn previous_bundle(out: &Path) -> Result<Option<Vec<String>>, RunError> {
    let shown = out.display();
    let refuse = |why: String| {
        RunError::Usage(format!(
            "--out {shown}: {why}; coglab publish replaces only an empty folder or a bundle it \
             wrote (with its {MARKER} file); choose another --out or move those files away"
        ))
    };
    let Ok(meta) = std::fs::symlink_metadata(out) else {
        return Ok(None);
    };
    if meta.file_type().is_symlink() {
        return Err(refuse("a symbolic link".into()));
    }
    if !meta.is_dir() {
        return Err(refuse("a file, not a folder".into()));
    }
    let mut found = Vec::new();
    list_all(out, "", &mut found).map_err(|e| refuse(format!("cannot list it ({e})")))?;
    if found.is_empty() {
        return Ok(Some(Vec::new()));
    }
    let marker = std::fs::read_to_string(out.join(MARKER))
        .ok()
        .filter(|t| t.lines().next() == Some(MARKER_HEAD));
    let Some(marker) = marker else {
        let first = found
            .iter()
            .find(|(_, dir)| !dir)
            .map_or(&found[0].0, |f| &f.0);
        return Err(refuse(format!(
            "a folder that is not a coglab bundle (no {MARKER}; it holds {first})"
        )));
    };
    let listed: std::collections::BTreeSet<&str> = marker.lines().skip(1).collect();
    for (path, is_dir) in &found {
        let ok = if *is_dir {
            let prefix = format!("{path}/");
            listed.iter().any(|l| l.starts_with(&prefix))
        } else {
            listed.contains(path.as_str())
        };
        if !ok {
            return Err(refuse(format!(
                "{path} is not a file the earlier publish wrote"
            )));
        }
    }
    Ok(Some(listed.into_iter().map(str::to_string).collect()))
}

/// Every entry under `dir`, hidden ones too, as (relative path, is a folder); links are
/// listed, not followed.
fn list_all(dir: &Path, rel: &str, out: &mut Vec<(String, bool)>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for e in entries {
        let name = e.file_name().to_string_lossy().into_owned();
        let r = if rel.is_empty() {
            name
        } else {
            format!("{rel}/{name}")
        };
        let is_dir = e.file_type()?.is_dir();
        out.push((r.clone(), is_dir));
        if is_dir {
            list_all(&e.path(), &r, out)?;
        }
    }
    Ok(())
}

/// Holds an exclusive advisory lock on `dir` (Unix: `flock` on the folder itself, released
/// when the handle is dropped or the process ends), waiting for any other publish to it.
#[cfg(unix)]
fn lock(dir: &Path) -> Result<std::fs::File, RunError> {
    let f = std::fs::File::open(dir)
        .map_err(|e| RunError::input(format!("{}: cannot open to lock: {e}", dir.display())))?;
    if let Err(std::fs::TryLockError::WouldBlock) = f.try_lock() {
        eprintln!(
            "waiting for another coglab publish into {} to finish…",
            dir.display()
        );
    }
    f.lock()
        .map_err(|e| RunError::input(format!("{}: cannot lock: {e}", dir.display())))?;
    Ok(f)
}

#[cfg(not(unix))]
fn lock(_dir: &Path) -> Result<(), RunError> {
    Ok(())
}

/// Puts the folder `new` at `out` and returns where the previous `out` now is, if there was
/// one: exchanged in one call where the system has one (module doc), so the previous bundle
/// is then at `new`'s path; else renamed aside (`new` with `.old`) before `new` is renamed in.
fn swap(new: &Path, out: &Path, had: bool) -> std::io::Result<Option<PathBuf>> {
    if !had {
        return std::fs::rename(new, out).map(|()| None);
    }
    #[cfg(any(target_os = "linux", target_os = "macos"))]
    {
        use rustix::fs::{renameat_with, RenameFlags, CWD};
        match renameat_with(CWD, new, CWD, out, RenameFlags::EXCHANGE) {
            Ok(()) => return Ok(Some(new.to_path_buf())),
            // A file system without the exchange: the two renames below.
            Err(e) if e == rustix::io::Errno::INVAL || e == rustix::io::Errno::NOSYS => {}
            Err(e) => return Err(e.into()),
        }
    }
    let aside = new.with_extension("old");
    std::fs::rename(out, &aside)?;
    if let Err(e) = std::fs::rename(new, out) {
        let _ = std::fs::rename(&aside, out);
        return Err(e);
    }
    Ok(Some(aside))
}

/// Removes the files `listed` under `dir` (relative paths), then every folder left empty, then
/// `dir` itself if empty. What a marker does not list stays where it is.
fn remove_listed(dir: &Path, listed: &[String]) {
    let mut folders = std::collections::BTreeSet::new();
    for rel in listed {
        let p = dir.join(rel);
        if std::fs::symlink_metadata(&p).is_ok_and(|m| m.is_file()) {
            let _ = std::fs::remove_file(&p);
        }
        let mut at = Path::new(rel.as_str()).parent();
        while let Some(d) = at.filter(|d| !d.as_os_str().is_empty()) {
            folders.insert(d.to_path_buf());
            at = d.parent();
        }
    }
    // Deepest first; `remove_dir` removes only an empty folder.
    for d in folders.iter().rev() {
        let _ = std::fs::remove_dir(dir.join(d));
    }
    let _ = std::fs::remove_dir(dir);
}

/// Builds the bundle of the leaderboard folder (or manifest) `dir` and writes it to `out`,
/// removing nothing it did not write (module doc): `out` is checked first (not the
/// leaderboard folder, not inside or above it; absent, empty or an earlier bundle), the bundle
/// is written into a temporary folder beside `out` and swapped into place under a lock on
/// `out`'s parent. On any error `out` is left as it was and the temporary folder removed.
///
/// # Errors
/// A [`RunError::Usage`] for a refused `out`, a located [`RunError::Input`] for a bad
/// manifest entry or file, or a write error.
pub fn publish(dir: &Path, out: &Path) -> Result<Index, RunError> {
    let manifest = manifest_path(dir);
    let root = real(manifest.parent().unwrap_or(Path::new("."))).map_err(RunError::input)?;
    let out_real = check_place(&root, out)?;
    previous_bundle(out)?;
    let bundle = build(&manifest)?;
    let parent = out_real.parent().unwrap_or(Path::new("/")).to_path_buf();
    std::fs::create_dir_all(&parent)
        .map_err(|e| RunError::input(format!("{}: cannot create: {e}", parent.display())))?;
    let base = out_real
        .file_name()
        .map_or_else(|| "bundle".into(), |n| n.to_string_lossy().into_owned());
    let tmp = parent.join(format!(".{base}.tmp-{}", std::process::id()));
    let source = relative(&out_real, &root);
    if std::fs::symlink_metadata(&tmp).is_ok() {
        return Err(RunError::input(format!(
            "{}: a leftover of an earlier publish by a process of this number; remove it",
            tmp.display()
        )));
    }
    let written = write_all(&tmp, &bundle, &source)
        .map_err(|e| RunError::input(format!("{}: cannot write the bundle: {e}", tmp.display())))
        .and_then(|()| {
            let _guard = lock(&parent)?;
            // Checked again under the lock: another publish may have written in the meantime.
            let previous = previous_bundle(&out_real)?;
            let old = swap(&tmp, &out_real, previous.is_some()).map_err(|e| {
                RunError::input(format!("{}: cannot write the bundle: {e}", out.display()))
            })?;
            if let (Some(old), Some(files)) = (old, previous) {
                remove_listed(&old, &files);
            }
            Ok(())
        });
    if written.is_err() {
        // Nothing was swapped: the temporary folder holds only what this publish wrote.
        let _ = std::fs::remove_dir_all(&tmp);
    }
    written.map(|()| bundle.index)
}

fn write_all(tmp: &Path, bundle: &Bundle, source: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(tmp)?;
    let mut marker = format!("{MARKER_HEAD}\n");
    for (rel, bytes) in &bundle.files {
        let p = tmp.join(rel);
        if let Some(d) = p.parent() {
            std::fs::create_dir_all(d)?;
        }
        std::fs::write(p, bytes)?;
        marker.push_str(rel);
        marker.push('\n');
    }
    let mut s = source.to_string_lossy().replace('\\', "/");
    s.push('\n');
    std::fs::write(tmp.join(SOURCE), s)?;
    marker.push_str(SOURCE);
    marker.push('\n');
    marker.push_str(MARKER);
    marker.push('\n');
    std::fs::write(tmp.join(MARKER), marker)
}

/// Every file of a bundle folder but [`SOURCE`], paths relative to it with `/` separators.
fn read_bundle(out: &Path) -> Result<Vec<(String, Vec<u8>)>, RunError> {
    let mut files = Vec::new();
    // `coglab publish` writes no link: one in a bundle is refused, not followed.
    walk(out, "", &mut files, &mut |_| {
        Err(
            "a symbolic link; a bundle coglab publish wrote has none, and verify follows none"
                .into(),
        )
    })
    .map_err(|e| RunError::input(format!("{}: {e}", out.display())))?;
    Ok(files
        .into_iter()
        .map(|f| (f.path.trim_start_matches('/').to_string(), f.bytes))
        .filter(|(p, _)| p != SOURCE)
        .collect())
}

/// A published bundle's index (`out/index.json`), read and parsed.
///
/// # Errors
/// [`RunError::Input`] naming the file when it cannot be read or is no bundle index.
pub fn read_index(out: &Path) -> Result<Index, RunError> {
    let index_path = out.join("index.json");
    let text = read_regular(&index_path).map_err(|e| {
        RunError::in_file(
            &index_path.display().to_string(),
            format!("{}: cannot read: {e}", index_path.display()),
        )
    })?;
    let index: Index = serde_json::from_slice(&text).map_err(|e| PublishError::Index {
        file: index_path.display().to_string(),
        message: e.to_string(),
    })?;
    if index.format != coglab_core::publish::bundle::FORMAT {
        return Err(PublishError::Index {
            file: index_path.display().to_string(),
            message: format!(
                "bundle format {}, expected {} (publish it again with this coglab)",
                index.format,
                coglab_core::publish::bundle::FORMAT
            ),
        }
        .into());
    }
    Ok(index)
}

/// A file the index of the bundle at `out` names (`rel`, relative), read only when it is a
/// regular file inside the bundle reached without a link ([`publish::check_relative`]).
///
/// # Errors
/// [`RunError::Input`] naming the path when it is refused or cannot be read.
pub fn read_in_bundle(out: &Path, rel: &str) -> Result<Vec<u8>, RunError> {
    let shown = out.join(rel).display().to_string();
    let fail = |why: String| RunError::in_file(&shown, format!("{shown}: {why}"));
    publish::check_relative(rel).map_err(|why| fail(format!("refused: {why}")))?;
    let root = real(out).map_err(fail)?;
    let mut at = root.clone();
    for part in rel.split('/') {
        at.push(part);
        let meta = std::fs::symlink_metadata(&at).map_err(|e| fail(format!("cannot read: {e}")))?;
        if meta.file_type().is_symlink() {
            return Err(fail("refused: a symbolic link inside the bundle".into()));
        }
    }
    read_regular(&at).map_err(fail)
}

/// `coglab verify OUT`: checks that every input file still has its published SHA-256, then
/// rebuilds the bundle from the manifest, checks the rank files against the SHA-256 the index
/// gives them ([`publish::check_ranks`]) and compares every file byte for byte. `inputs` is
/// the leaderboard folder; by default the one `OUT/source.txt` names.
///
/// # Errors
/// A [`RunError::Input`] naming the changed input file, a path `index.json` names that leaves
/// the leaderboard folder (nothing is read then), a link in the bundle, or the first bundle
/// file that differs.
pub fn verify(out: &Path, inputs: Option<&Path>) -> Result<Index, RunError> {
    let index_path = out.join("index.json");
    let text = read_regular(&index_path).map_err(|e| {
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
    let root = real(&root).map_err(RunError::input)?;
    // Only files inside the leaderboard folder are read ([`inside`]); the core has already
    // refused any path that names its way out.
    publish::check_inputs(&index, |rel| read_regular(&inside(&root, rel)?))?;
    let rebuilt = build(&manifest)?;
    let published = read_bundle(out)?;
    publish::check_ranks(&index, &published)?;
    publish::compare(&rebuilt.files, &published)?;
    Ok(index)
}
