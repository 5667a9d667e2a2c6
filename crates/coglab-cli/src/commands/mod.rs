//! The subcommands, one module per benchmark, plus shared helpers for reading files.

pub mod items;
pub mod kiva;
pub mod mmiq;
pub mod mmopera;
pub mod sem;

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

/// Prints a value as pretty JSON on stdout.
pub fn print_json<T: serde::Serialize>(value: &T) -> Result<(), CliError> {
    let text = serde_json::to_string_pretty(value).map_err(|e| CliError::Input(e.to_string()))?;
    println!("{text}");
    Ok(())
}
