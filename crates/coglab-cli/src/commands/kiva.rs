//! `coglab score kiva` (owned by the MM-IQ/KiVA scoring work, issue 3).

use super::CliError;

/// `coglab score kiva PATH... [--json]`.
pub fn score(_args: &[&str]) -> Result<(), CliError> {
    Err(CliError::Usage(
        "score kiva: not built yet (issue 3)".into(),
    ))
}
