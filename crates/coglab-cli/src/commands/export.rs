//! `coglab export eee`: scored sets written as Every Eval Ever 0.2.1 records
//! ([`coglab_core::harness::eee::write_mmiq`]).

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

/// `coglab export eee --answers KEY SCORED... --out DIR [--model NAME] [--timestamp S]`.
pub fn eee(a: &ExportEeeArgs) -> Result<(), CliError> {
    if a.model.is_some() && a.scored.len() > 1 {
        return Err(CliError::Usage(
            "--model names one scored set; give one SCORED file with it".into(),
        ));
    }
    let timestamp = a.timestamp.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    });
    let mut lines = String::new();
    for path in &a.scored {
        let scored =
            coglab_run::mmiq::score(&Source::path(&a.answers), &Source::path(path), true, drop)?;
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
        let dir = std::path::Path::new(&a.out).join(safe(&model));
        let fail =
            |e: std::io::Error| CliError::input(format!("{}: cannot write: {e}", dir.display()));
        std::fs::create_dir_all(&dir).map_err(fail)?;
        let stem = format!("MM-IQ_{}", timestamp);
        let aggregate = dir.join(format!("{stem}.json"));
        let instances = dir.join(format!("{stem}.jsonl"));
        std::fs::write(&aggregate, &records.aggregate).map_err(fail)?;
        std::fs::write(&instances, &records.instances).map_err(fail)?;
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
