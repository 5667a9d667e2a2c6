//! `coglab score mmopera` and `coglab agree` (owned by the MM-OPERA work, issue 4).

use super::CliError;

/// `coglab score mmopera ...`.
pub fn score(_args: &[&str]) -> Result<(), CliError> {
    Err(CliError::Usage(
        "score mmopera: not built yet (issue 4)".into(),
    ))
}

/// `coglab agree A B [--json]`.
pub fn agree(_args: &[&str]) -> Result<(), CliError> {
    Err(CliError::Usage("agree: not built yet (issue 4)".into()))
}
