//! `coglab export eee`: scored sets written as Every Eval Ever 0.2.1 records
//! ([`coglab_core::harness::eee::write_mmiq`], [`coglab_core::harness::eee::write_kiva`]; the
//! web app's download calls the same functions).

use super::{emit, CliError};
use crate::cli::ExportEeeArgs;
use coglab_run::mmiq::MmiqScore;
use coglab_run::Source;

/// A file-system-safe name part (letters, digits, `-`, `_`, `.`; others become `_`).
fn safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Writes one set's two records as `DIR/<model>/<stem>.json` and `.jsonl`; their paths.
fn write_records(
    out: &str,
    model: &str,
    stem: &str,
    records: &coglab_core::harness::eee::EeeRecords,
) -> Result<(std::path::PathBuf, std::path::PathBuf), CliError> {
    let dir = std::path::Path::new(out).join(safe(model));
    let fail = |e: std::io::Error| CliError::input(format!("{}: cannot write: {e}", dir.display()));
    std::fs::create_dir_all(&dir).map_err(fail)?;
    let aggregate = dir.join(format!("{stem}.json"));
    let instances = dir.join(format!("{stem}.jsonl"));
    std::fs::write(&aggregate, &records.aggregate).map_err(fail)?;
    std::fs::write(&instances, &records.instances).map_err(fail)?;
    Ok((aggregate, instances))
}

/// `coglab export eee --kiva RUN... --out DIR [--model NAME] [--timestamp S]`: one KiVA run
/// (or people's data) scored as `coglab score kiva` scores it, written with
/// [`coglab_core::harness::eee::write_kiva`] as `DIR/<model>/<variant>_<timestamp>.json(l)`.
fn eee_kiva(a: &ExportEeeArgs, timestamp: u64) -> Result<(), CliError> {
    let paths: Vec<Source> = a.scored.iter().map(Source::path).collect();
    let scored = coglab_run::kiva::score(
        &paths,
        None,
        true,
        coglab_core::kiva::NullAnswers::default(),
    )?;
    let report = scored.report;
    let model = a
        .model
        .clone()
        .unwrap_or_else(|| coglab_core::leaderboard::guess_model(&a.scored[0]));
    let records = coglab_core::harness::eee::write_kiva(&report, &model, &timestamp.to_string())?;
    let stem = format!("{}_{timestamp}", report.variant.name());
    let (aggregate, instances) = write_records(&a.out, &model, &stem, &records)?;
    emit(&format!(
        "{}: {} ({} trials) -> {} and {}\n",
        a.scored.join(" "),
        records.evaluation_id,
        report.trials.len(),
        aggregate.display(),
        instances.display()
    ))
}

/// `coglab export eee --answers KEY SCORED... --out DIR [--model NAME] [--timestamp S]`, or
/// `--kiva RUN...` for a KiVA run.
pub fn eee(a: &ExportEeeArgs) -> Result<(), CliError> {
    let timestamp = a.timestamp.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    });
    let Some(answers) = a.answers.as_deref().filter(|_| !a.kiva) else {
        return eee_kiva(a, timestamp);
    };
    if a.model.is_some() && a.scored.len() > 1 {
        return Err(CliError::Usage(
            "--model names one scored set; give one SCORED file with it".into(),
        ));
    }
    let mut lines = String::new();
    for path in &a.scored {
        let scored =
            coglab_run::mmiq::score(&Source::path(answers), &Source::path(path), true, drop)?;
        let report = match scored {
            MmiqScore::Scored { report, .. } => report,
            _ => {
                return Err(CliError::in_file(
                    path,
                    format!("{path}: a summary without items; EEE instance records need a scored predictions file"),
                ))
            }
        };
        let model = a
            .model
            .clone()
            .or_else(|| report.harness.as_ref().and_then(|h| h.model.clone()))
            .unwrap_or_else(|| coglab_core::leaderboard::guess_model(path));
        let records =
            coglab_core::harness::eee::write_mmiq(&report, &model, &timestamp.to_string())?;
        let stem = format!("MM-IQ_{timestamp}");
        let (aggregate, instances) = write_records(&a.out, &model, &stem, &records)?;
        lines.push_str(&format!(
            "{path}: {} ({} items) -> {} and {}\n",
            records.evaluation_id,
            report.items.len(),
            aggregate.display(),
            instances.display()
        ));
    }
    emit(&lines)
}
