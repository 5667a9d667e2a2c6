//! `coglab score|extract|compare mmiq` (owned by the MM-IQ/KiVA scoring work, issue 3).

use super::CliError;

/// `coglab score mmiq --answers KEY PRED [--json]`.
pub fn score(_args: &[&str]) -> Result<(), CliError> {
    Err(CliError::Usage(
        "score mmiq: not built yet (issue 3)".into(),
    ))
}

/// `coglab extract mmiq PRED`.
pub fn extract(_args: &[&str]) -> Result<(), CliError> {
    Err(CliError::Usage(
        "extract mmiq: not built yet (issue 3)".into(),
    ))
}

/// `coglab compare mmiq --answers KEY PRED_A PRED_B [--json]`.
pub fn compare(_args: &[&str]) -> Result<(), CliError> {
    Err(CliError::Usage(
        "compare mmiq: not built yet (issue 3)".into(),
    ))
}
