//! `coglab sem` and `coglab describe`: a model specification and a score matrix in, the
//! PLS-SEM report (or each column's descriptive statistics) out.

use coglab_core::sem::data::ScoreMatrix;
use coglab_core::sem::describe::describe_matrix;
use coglab_core::sem::spec::ModelSpec;
use coglab_core::sem::{analyze_parsed, SemOptions, SemReport};

use crate::{RunError, Source};

/// `coglab sem --spec SPEC DATA [options]`: the report (serialized as `--json`). When
/// listwise deletion dropped more than [`coglab_core::limits::LISTWISE_WARN_SHARE`] of the
/// models, the report carries the warning (`SemReport::listwise_warning`; the CLI prints it
/// on stderr).
///
/// # Errors
/// [`RunError::Input`] for unreadable or invalid files, or a model that cannot be estimated.
pub fn sem(spec: &Source, data: &Source, opts: &SemOptions) -> Result<SemReport, RunError> {
    let spec_name = spec.file_name();
    let spec_bytes = spec.read()?;
    coglab_core::encoding::check_text(&spec_name, &spec_bytes)?;
    let spec_text = String::from_utf8(spec_bytes).map_err(|_| {
        RunError::Input(Box::new(crate::Located {
            message: format!("{spec_name}: expected UTF-8 text"),
            file: Some(spec_name.clone()),
            expected: Some("UTF-8 text".into()),
            ..crate::Located::default()
        }))
    })?;
    let spec = ModelSpec::parse(&spec_text, &spec_name)?;
    let matrix = ScoreMatrix::parse(&data.bytes()?, &data.file_name())?;
    Ok(analyze_parsed(&spec, &matrix, opts)?)
}

/// `coglab describe DATA`: descriptive statistics of each column (serialized as `--json`).
///
/// # Errors
/// [`RunError::Input`] for an unreadable or invalid file.
pub fn describe(
    data: &Source,
) -> Result<std::collections::BTreeMap<String, coglab_core::sem::describe::Descriptive>, RunError> {
    Ok(describe_with_notes(data)?.0)
}

/// [`describe`], with a note for each column left out although it holds numbers (a
/// non-numeric cell makes it a text column: [`coglab_core::sem::describe::left_out`]).
///
/// # Errors
/// [`RunError::Input`] for an unreadable or invalid file.
pub fn describe_with_notes(
    data: &Source,
) -> Result<
    (
        std::collections::BTreeMap<String, coglab_core::sem::describe::Descriptive>,
        Vec<String>,
    ),
    RunError,
> {
    let matrix = ScoreMatrix::parse(&data.bytes()?, &data.file_name())?;
    let notes = coglab_core::sem::describe::left_out(&matrix);
    Ok((describe_matrix(&matrix), notes))
}
