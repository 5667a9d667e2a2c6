//! `coglab describe` and `coglab sem` (owned by the Gold/PLS-SEM work, issue 5).

use super::CliError;

/// `coglab describe DATA [--json]`.
pub fn describe(_args: &[&str]) -> Result<(), CliError> {
    Err(CliError::Usage("describe: not built yet (issue 5)".into()))
}

/// `coglab sem --spec SPEC DATA ...`.
pub fn sem(_args: &[&str]) -> Result<(), CliError> {
    Err(CliError::Usage("sem: not built yet (issue 5)".into()))
}
