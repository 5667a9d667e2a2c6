//! Worker operations of the structure page (domain `sem`).

use coglab::worker::protocol::InputFile;

use crate::Progress;

/// Runs operation `name` of this domain.
pub fn run(
    name: &str,
    _args: &str,
    _files: Vec<InputFile>,
    _progress: &Progress,
) -> Result<String, String> {
    Err(format!("unknown worker operation {name:?}"))
}
