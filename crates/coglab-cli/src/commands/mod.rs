//! The subcommands, one module per benchmark, plus shared helpers for reading files.

/// `writeln!` into a `String` (formatting into a `String` cannot fail).
macro_rules! outln {
    ($out:expr, $($arg:tt)*) => {{
        use std::fmt::Write as _;
        let _ = writeln!($out, $($arg)*);
    }};
}

pub mod items;
pub mod kiva;
pub mod mmiq;
pub mod mmopera;
pub mod rank;
pub mod sem;

use std::io::Write;
use std::path::Path;

/// Why a command failed: a usage error (exit 2) or bad input (exit 1).
#[derive(Debug)]
pub enum CliError {
    /// Wrong arguments.
    Usage(String),
    /// A file could not be read or parsed; the message names where.
    Input(String),
}

impl<E: std::error::Error> From<E> for CliError {
    fn from(e: E) -> Self {
        CliError::Input(e.to_string())
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
pub fn read_bytes(path: &str) -> Result<Vec<u8>, CliError> {
    let meta = std::fs::metadata(path)
        .map_err(|e| CliError::Input(format!("{path}: cannot read file: {e}")))?;
    if let Some(kind) = special_kind(&meta) {
        return Err(CliError::Input(format!(
            "{path}: is {kind}, not a regular file; save the data to a file first"
        )));
    }
    if meta.is_dir() {
        return Err(CliError::Input(format!(
            "{path}: is a folder, expected a file"
        )));
    }
    std::fs::read(path).map_err(|e| CliError::Input(format!("{path}: cannot read file: {e}")))
}

/// Escapes what a terminal would act on: control characters other than newline and tab,
/// and the bidirectional overrides. Table output shows labels, ids and file names taken from
/// the input, so an escape sequence in a category name is shown as `\u{1b}` rather than
/// sent to the terminal (issue 27, defect 8). Error messages quote values the same way.
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    let bad = |c: char| {
        (c.is_control() && c != '\n' && c != '\t')
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    if !text.chars().any(bad) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if bad(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The file name part of a path, as shown in error messages.
pub fn file_name(path: &str) -> String {
    Path::new(path)
        .file_name()
        .map_or_else(|| path.to_string(), |n| n.to_string_lossy().into_owned())
}

/// Writes table text to stdout, control characters escaped ([`escape_controls`]); a closed
/// pipe (e.g. `| head`) ends the output quietly (exit 0).
pub fn emit(text: &str) -> Result<(), CliError> {
    emit_raw(&escape_controls(text))
}

/// Writes text to stdout as it is (JSON, whose strings serde_json escapes itself); a closed
/// pipe ends the output quietly (exit 0).
pub fn emit_raw(text: &str) -> Result<(), CliError> {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(CliError::Input(format!("writing output: {e}")))
        }
        _ => Ok(()),
    }
}

/// Prints a value as pretty JSON on stdout, as [`emit_raw`].
pub fn print_json<T: serde::Serialize>(value: &T) -> Result<(), CliError> {
    let mut text =
        serde_json::to_string_pretty(value).map_err(|e| CliError::Input(e.to_string()))?;
    text.push('\n');
    emit_raw(&text)
}

/// `value` as JSON with the coverage pair of issue 20 added to its object `under`:
/// `coverage` (items scored / benchmark items) and `accuracy_all_items` (the headline figure with
/// unscored items counted wrong), plus `items_in_benchmark`. The numbers come from
/// `coglab_core::ranks::coverage`.
pub fn with_coverage<T: serde::Serialize>(
    value: &T,
    under: &str,
    cov: &coglab_core::ranks::coverage::Coverage,
) -> Result<serde_json::Value, CliError> {
    let mut v = serde_json::to_value(value).map_err(|e| CliError::Input(e.to_string()))?;
    if let Some(obj) = v.get_mut(under).and_then(serde_json::Value::as_object_mut) {
        obj.insert("coverage".into(), cov.coverage.into());
        obj.insert("accuracy_all_items".into(), cov.accuracy_all_items.into());
        obj.insert("items_in_benchmark".into(), cov.size.into());
    }
    Ok(v)
}
