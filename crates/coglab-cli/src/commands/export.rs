//! `coglab export eee`: scored sets written as Every Eval Ever 0.3.0 records
//! (`coglab_run::export`, shared with the Python package; it calls
//! [`coglab_core::harness::eee::write_mmiq`] and [`coglab_core::harness::eee::write_kiva`], the
//! functions the web app's download calls).

use super::{emit, CliError};
use crate::cli::ExportEeeArgs;
use coglab_run::export::{EeeBench, EeeRequest};
use coglab_run::Source;

/// `coglab export eee --answers KEY SCORED... --out DIR [--model NAME] [--timestamp S]`, or
/// `--kiva RUN...` for a KiVA run (or people's data) scored as `coglab score kiva` scores it:
/// each set written as `DIR/<model>/<stem>.json` and `.jsonl` (`MM-IQ_<timestamp>`, KiVA's
/// `<variant>_<timestamp>`), one line printed per set. The model's folder is one safe path
/// component inside `DIR`, and a file name taken (by another set of this export, or already
/// there) is suffixed (`_2`), the line saying so.
pub fn eee(a: &ExportEeeArgs) -> Result<(), CliError> {
    let timestamp = a.timestamp.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    });
    let request = EeeRequest {
        answers: a.answers.as_deref().filter(|_| !a.kiva).map(Source::path),
        scored: a.scored.iter().map(Source::path).collect(),
        model: a.model.clone(),
        timestamp,
    };
    let out = std::path::Path::new(&a.out);
    let mut lines = String::new();
    let mut writer = coglab_run::export::SetWriter::new(out);
    coglab_run::export::eee(&request, |set| {
        let written = writer.write(&set)?;
        let what = match set.bench {
            EeeBench::Mmiq => "items",
            EeeBench::Kiva => "trials",
        };
        let notes = if written.notes.is_empty() {
            String::new()
        } else {
            format!(" ({})", written.notes.join("; "))
        };
        outln!(
            lines,
            "{}: {} ({} {what}) -> {} and {}{notes}",
            set.source,
            set.records.evaluation_id,
            set.count,
            written.aggregate.display(),
            written.instances.display()
        );
        Ok(())
    })?;
    emit(&lines)
}
