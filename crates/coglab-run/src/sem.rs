//! `coglab sem` and `coglab describe`: a model specification and a score matrix in, the
//! PLS-SEM report (or each column's descriptive statistics) out.

use coglab_core::sem::data::ScoreMatrix;
use coglab_core::sem::describe::describe_matrix;
use coglab_core::sem::spec::ModelSpec;
use coglab_core::sem::{analyze_parsed, SemOptions, SemReport};

use crate::{RunError, Source};

/// The result of `coglab sem`: the report (serialized as `--json`) and the listwise-deletion
/// warning, if any.
#[derive(Debug)]
pub struct SemRun {
    /// The analysis.
    pub report: SemReport,
    /// Set when listwise deletion dropped more than
    /// [`coglab_core::limits::LISTWISE_WARN_SHARE`] of the models (the CLI prints it on stderr).
    pub warning: Option<String>,
}

/// `coglab sem --spec SPEC DATA [options]`.
///
/// # Errors
/// [`RunError::Input`] for unreadable or invalid files, or a model that cannot be estimated.
pub fn sem(spec: &Source, data: &Source, opts: &SemOptions) -> Result<SemRun, RunError> {
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
    let report = analyze_parsed(&spec, &matrix, opts)?;
    let warning = listwise_warning(&report, &matrix);
    Ok(SemRun { report, warning })
}

/// `coglab describe DATA`: descriptive statistics of each column (serialized as `--json`).
///
/// # Errors
/// [`RunError::Input`] for an unreadable or invalid file.
pub fn describe(
    data: &Source,
) -> Result<std::collections::BTreeMap<String, coglab_core::sem::describe::Descriptive>, RunError> {
    let matrix = ScoreMatrix::parse(&data.bytes()?, &data.file_name())?;
    Ok(describe_matrix(&matrix))
}

/// A warning when listwise deletion dropped more than
/// [`coglab_core::limits::LISTWISE_WARN_SHARE`] of the models, with the missing cells of each
/// analysed column (issue 27, defect 9: 4,974 of 5,000 models went without a word).
pub fn listwise_warning(report: &SemReport, matrix: &ScoreMatrix) -> Option<String> {
    let dropped = report.dropped_models.len();
    let total = dropped + report.n_models;
    if total == 0 || (dropped as f64) <= coglab_core::limits::LISTWISE_WARN_SHARE * total as f64 {
        return None;
    }
    let mut costs: Vec<(usize, &str)> = matrix
        .columns
        .iter()
        .filter(|c| report.outer.contains_key(&c.name))
        .map(|c| {
            (
                c.values.iter().filter(|v| v.is_none()).count(),
                c.name.as_str(),
            )
        })
        .filter(|(n, _)| *n > 0)
        .collect();
    costs.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    let listed: Vec<String> = costs.iter().map(|(n, c)| format!("{c} {n}")).collect();
    Some(format!(
        "listwise deletion dropped {dropped} of {total} models ({:.1}%), above \
         the {:.0}% warning share; the analysis uses {} models. Missing cells by column: {}. \
         Consider --missing mean or leaving out the sparsest columns.",
        100.0 * dropped as f64 / total as f64,
        100.0 * coglab_core::limits::LISTWISE_WARN_SHARE,
        report.n_models,
        listed.join(", ")
    ))
}
