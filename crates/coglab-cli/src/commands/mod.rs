//! The subcommands, one module per benchmark, plus shared helpers for reading files.

pub mod kiva;
pub mod mmiq;
pub mod mmopera;
pub mod rank;
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
