//! `coglab export eee`: scored sets written as Every Eval Ever 0.3.0 records, and `coglab
//! export hf`: one model's headline metrics as Hugging Face Eval Results entries
//! (`coglab_run::export`, shared with the Python package; it calls the core's writers,
//! [`coglab_core::harness::eee`] and [`coglab_core::harness::hf`], the EEE ones also the web
//! app's download).

use super::{emit, CliError};
use crate::cli::{ExportEeeArgs, ExportHfArgs, MissingArg, MmoperaExportArgs, PruneArg};
use coglab_core::mmopera::score::{InvalidScores, ScoreOptions};
use coglab_run::export::{
    EeeRequest, EeeSet, GoldEeeRequest, HfInput, HfRequest, MmoperaEeeRequest,
};
use coglab_run::mmopera::MmoperaInputs;
use coglab_run::{RunError, Source};

/// Now, in Unix seconds (0 before 1970).
fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// MM-OPERA's inputs and scoring options from the flags (the other options at their defaults,
/// the released code's).
fn opera(a: &MmoperaExportArgs) -> Result<(MmoperaInputs, ScoreOptions), CliError> {
    let (Some(task), Some(metadata)) = (a.task, &a.metadata) else {
        return Err(RunError::Usage(
            "--mmopera needs --task and --metadata".into(),
        ));
    };
    let list = |l: &[String]| -> Vec<Source> {
        l.iter()
            .map(|p| p.trim())
            .filter(|p| !p.is_empty())
            .map(Source::path)
            .collect()
    };
    let options = ScoreOptions {
        invalid_scores: if a.exclude_invalid {
            InvalidScores::Exclude
        } else {
            InvalidScores::CountAsZero
        },
        ..ScoreOptions::default()
    };
    Ok((
        MmoperaInputs {
            task,
            metadata: Source::path(metadata),
            regular: list(&a.regular),
            reasoning: list(&a.reasoning),
            answers: a.responses.as_ref().map(Source::path),
        },
        options,
    ))
}

/// `coglab export eee --answers KEY SCORED... --out DIR [--model NAME] [--timestamp S]`;
/// `--kiva RUN...` for a KiVA run (or people's data) scored as `coglab score kiva` scores it;
/// `--mmopera --task T --metadata META --regular REG [--reasoning REAS] [--responses ANS]
/// [--judge MODEL]` for one model's MM-OPERA task; `--gold --spec SPEC DATA [--prune]
/// [--missing M] [--scale LOW:HIGH]` for each model of a Gold score matrix. Each set written
/// as `DIR/<model>/<stem>.json` (and `.jsonl` where there are instance records), one line
/// printed per set. The model's folder is one safe path component inside `DIR`, and a file
/// name taken (by another set of this export, or already there) is suffixed (`_2`), the line
/// saying so.
pub fn eee(a: &ExportEeeArgs) -> Result<(), CliError> {
    let timestamp = a.timestamp.unwrap_or_else(now);
    let out = std::path::Path::new(&a.out);
    let mut lines = String::new();
    let mut writer = coglab_run::export::SetWriter::new(out);
    let mut each = |set: EeeSet| -> Result<(), RunError> {
        let written = writer.write(&set)?;
        let notes = if written.notes.is_empty() {
            String::new()
        } else {
            format!(" ({})", written.notes.join("; "))
        };
        let files = match &written.instances {
            Some(i) => format!("{} and {}", written.aggregate.display(), i.display()),
            None => written.aggregate.display().to_string(),
        };
        outln!(
            lines,
            "{}: {} ({} {}) -> {files}{notes}",
            set.source,
            set.records.evaluation_id,
            set.count,
            set.bench.counted(),
        );
        Ok(())
    };
    if a.mmopera {
        let (inputs, options) = opera(&a.opera)?;
        let set = coglab_run::export::eee_mmopera(&MmoperaEeeRequest {
            inputs,
            options,
            judges: a.opera.judge.iter().map(|j| j.trim().to_string()).collect(),
            model: a.model.clone(),
            timestamp,
        })?;
        each(set)?;
    } else if a.gold {
        let (Some(spec), [data]) = (&a.spec, &a.scored[..]) else {
            return Err(RunError::Usage(
                "--gold takes --spec SPEC and one score matrix DATA".into(),
            ));
        };
        let options = coglab_core::sem::SemOptions {
            missing: match a.missing {
                MissingArg::Listwise => coglab_core::sem::data::Missing::Listwise,
                MissingArg::Mean => coglab_core::sem::data::Missing::Mean,
            },
            prune: a.prune.is_some(),
            prune_variant: match a.prune {
                Some(PruneArg::Algorithm1) => coglab_core::sem::PruneVariant::Algorithm1,
                _ => coglab_core::sem::PruneVariant::Stepwise,
            },
            scale: a
                .scale
                .map(|(low, high)| coglab_core::sem::analysis::Scale { low, high }),
            ..coglab_core::sem::SemOptions::default()
        };
        coglab_run::export::eee_gold(
            &GoldEeeRequest {
                spec: Source::path(spec),
                data: Source::path(data),
                options,
                model: a.model.clone(),
                timestamp,
            },
            &mut each,
        )?;
    } else {
        let request = EeeRequest {
            answers: a.answers.as_deref().filter(|_| !a.kiva).map(Source::path),
            scored: a.scored.iter().map(Source::path).collect(),
            model: a.model.clone(),
            timestamp,
        };
        coglab_run::export::eee(&request, &mut each)?;
    }
    emit(&lines)
}

/// `coglab export hf (--answers KEY PRED | --kiva RUN... | --mmopera ...) --out DIR --model
/// ORG/NAME [--dataset-id ID] [--date YYYY-MM-DD] [--source-url URL] [--source-name NAME]`:
/// writes `DIR/.eval_results/<benchmark>.yaml` (never over an existing file) and prints its
/// path and entries.
pub fn hf(a: &ExportHfArgs) -> Result<(), CliError> {
    let date = || {
        a.date
            .clone()
            .unwrap_or_else(|| coglab_core::harness::hf::utc_date(now()))
    };
    if let Some(bundle) = &a.bundle {
        let exports = coglab_run::export::hf_bundle(&coglab_run::export::HfBundleRequest {
            bundle: bundle.into(),
            model: a.model.clone(),
            bundle_model: a.bundle_model.clone(),
            dataset_id: a.dataset_id.clone(),
            date: date(),
            source_url: a.source_url.clone(),
            source_name: a.source_name.clone(),
        })?;
        for n in exports.iter().flat_map(|e| &e.notes) {
            eprintln!("coglab: note: {}", super::escape_controls(n));
        }
        let paths = coglab_run::export::write_hf_all(std::path::Path::new(&a.out), &exports)?;
        let mut lines = String::new();
        for (export, path) in exports.iter().zip(&paths) {
            entry_lines(&mut lines, export, path);
        }
        return emit(&lines);
    }
    let input = if a.mmopera {
        let (inputs, options) = opera(&a.opera)?;
        HfInput::Mmopera { inputs, options }
    } else if a.kiva {
        HfInput::Kiva {
            scored: a.scored.iter().map(Source::path).collect(),
        }
    } else {
        let (Some(answers), [pred]) = (&a.answers, &a.scored[..]) else {
            return Err(RunError::Usage(
                "export hf --answers KEY takes one predictions file (one model's results)".into(),
            ));
        };
        HfInput::Mmiq {
            answers: Source::path(answers),
            scored: Source::path(pred),
        }
    };
    let export = coglab_run::export::hf(&HfRequest {
        input,
        model: a.model.clone(),
        dataset_id: a.dataset_id.clone(),
        date: date(),
        source_url: a.source_url.clone(),
        source_name: a.source_name.clone(),
    })?;
    for n in &export.notes {
        eprintln!("coglab: note: {}", super::escape_controls(n));
    }
    let path = coglab_run::export::write_hf(std::path::Path::new(&a.out), &export)?;
    let mut lines = String::new();
    entry_lines(&mut lines, &export, &path);
    emit(&lines)
}

/// The lines `export hf` prints for one written file.
fn entry_lines(lines: &mut String, export: &coglab_run::export::HfExport, path: &std::path::Path) {
    outln!(
        lines,
        "{} entries -> {}",
        export.entries.len(),
        path.display()
    );
    for e in &export.entries {
        outln!(
            lines,
            "  {} {}: {}",
            e.dataset.id,
            e.dataset.task_id,
            e.value
        );
    }
}
