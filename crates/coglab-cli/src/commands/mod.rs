//! The subcommands, one module per benchmark, plus shared helpers for reading files.

/// `writeln!` into a `String` (formatting into a `String` cannot fail).
macro_rules! outln {
    ($out:expr, $($arg:tt)*) => {{
        use std::fmt::Write as _;
        let _ = writeln!($out, $($arg)*);
    }};
}

pub mod kiva;
pub mod mmiq;
pub mod mmopera;
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

/// Reads a whole file as bytes, with an error naming the path.
pub fn read_bytes(path: &str) -> Result<Vec<u8>, CliError> {
    std::fs::read(path).map_err(|e| CliError::Input(format!("{path}: cannot read file: {e}")))
}

/// The file name part of a path, as shown in error messages.
pub fn file_name(path: &str) -> String {
    Path::new(path)
        .file_name()
        .map_or_else(|| path.to_string(), |n| n.to_string_lossy().into_owned())
}

/// Writes text to stdout; a closed pipe (e.g. `| head`) ends the output quietly (exit 0).
pub fn emit(text: &str) -> Result<(), CliError> {
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

/// Prints a value as pretty JSON on stdout, as [`emit`].
pub fn print_json<T: serde::Serialize>(value: &T) -> Result<(), CliError> {
    let mut text =
        serde_json::to_string_pretty(value).map_err(|e| CliError::Input(e.to_string()))?;
    text.push('\n');
    emit(&text)
}
