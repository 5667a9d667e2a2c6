//! Checks of a harness summary file (lmms-eval `results.json`, an Every Eval Ever aggregate)
//! given as MM-IQ results (issue 37): `coglab score mmiq` printed a summary of another task
//! (`mmmu_val`) and impossible figures (an accuracy of 7.0, a standard error of −1) as given.

use super::{is_mmiq_task, HarnessError, HarnessFile, HarnessFormat, SummaryRow};
use crate::location::Location;

/// Whether a metric is a proportion (an accuracy): its name holds `acc`, `exact_match` or
/// `correct`.
fn is_proportion(metric: &str) -> bool {
    let m = metric.to_ascii_lowercase();
    m.contains("acc") || m.contains("exact_match") || m.contains("correct")
}

/// Where a row's figure is in the file: lmms-eval's key path, else `task: metric`.
fn field(file: &HarnessFile, r: &SummaryRow, suffix: &str) -> String {
    match (file.format, &r.filter) {
        (HarnessFormat::LmmsResults, Some(f)) => {
            format!("results.{}.{}{suffix},{f}", r.task, r.metric)
        }
        (HarnessFormat::LmmsResults, None) => format!("results.{}.{}{suffix}", r.task, r.metric),
        _ => format!("{}: {}{suffix}", r.task, r.metric),
    }
}

/// Checks that a summary file holds MM-IQ figures and that they are possible: at least one
/// row of an MM-IQ task ([`is_mmiq_task`]); in those rows an accuracy (a metric named `acc`,
/// `exact_match`, `correct`...) between 0 and 1, and a standard error between 0 and 0.5 (the
/// largest a proportion can have) for an accuracy, at least 0 otherwise.
///
/// # Errors
/// [`HarnessError::WrongTask`] naming the tasks the file is for when none is MM-IQ;
/// [`HarnessError::BadValue`] naming the figure (its key in the file) for an impossible one.
///
/// # Examples
/// ```
/// use coglab_core::harness::{lmms::read_results, summary::check_mmiq_summary};
/// let ok = br#"{"results": {"mmiq": {"acc,none": 0.25, "acc_stderr,none": 0.0083}}}"#;
/// assert!(check_mmiq_summary(&read_results("r.json", ok).unwrap()).is_ok());
/// let bad = br#"{"results": {"mmiq": {"acc,none": 7.0, "acc_stderr,none": 0.01}}}"#;
/// let e = check_mmiq_summary(&read_results("r.json", bad).unwrap()).unwrap_err();
/// assert_eq!(e.to_string(), "r.json: field \"results.mmiq.acc,none\": expected an accuracy \
///     between 0 and 1, found 7");
/// let other = br#"{"results": {"mmmu_val": {"mmmu_acc,none": 0.41}}}"#;
/// let e = check_mmiq_summary(&read_results("r.json", other).unwrap()).unwrap_err();
/// assert!(e.to_string().starts_with("r.json: this is lmms-eval output for task \"mmmu_val\""));
/// ```
pub fn check_mmiq_summary(file: &HarnessFile) -> Result<(), HarnessError> {
    super::expect_mmiq_task(file)?;
    let rows: Vec<&SummaryRow> = file
        .summary
        .iter()
        .filter(|r| is_mmiq_task(&r.task))
        .collect();
    if rows.is_empty() {
        let mut tasks: Vec<&str> = file.summary.iter().map(|r| r.task.as_str()).collect();
        tasks.dedup();
        return Err(HarnessError::WrongTask {
            file: file.file.clone(),
            harness: file.format.harness().label(),
            found: tasks.join(", "),
            expected: "an MM-IQ task (a task name containing \"mmiq\", e.g. mmiq, mm_iq)",
        });
    }
    let bad = |r: &SummaryRow, suffix: &str, expected: &str, v: f64| HarnessError::BadValue {
        location: Location::file(&file.file).in_field(field(file, r, suffix)),
        expected: expected.to_string(),
        found: v.to_string(),
    };
    for r in rows {
        let proportion = is_proportion(&r.metric);
        if proportion && !(0.0..=1.0).contains(&r.value) {
            return Err(bad(r, "", "an accuracy between 0 and 1", r.value));
        }
        for (suffix, se) in [
            ("_stderr", r.stderr),
            ("_stderr_clustered", r.stderr_clustered),
        ] {
            let Some(se) = se else { continue };
            if se < 0.0 {
                return Err(bad(r, suffix, "a standard error of at least 0", se));
            }
            if proportion && se > 0.5 {
                return Err(bad(
                    r,
                    suffix,
                    "a standard error of at most 0.5 (the largest a proportion has)",
                    se,
                ));
            }
        }
    }
    Ok(())
}
