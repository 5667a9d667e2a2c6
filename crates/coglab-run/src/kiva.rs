//! `coglab score kiva`: model-run CSVs (folders searched recursively for `*.csv`) and/or the
//! adults' file in, KiVA's report out; or KiVA's Every Eval Ever instance records (as
//! `coglab export eee --kiva` writes them) read back into that report; or a KiVA challenge
//! result with its annotations ([`score_any`], [`challenge`]).

use coglab_core::harness::kiva_challenge::ChallengeReport;
use coglab_core::kiva::{
    rt_error_correlation, score_human, score_model_with, HumanData, KivaReport, NullAnswers,
    Source as KivaSource,
};
use coglab_core::ranks::coverage::{kiva_coverage, Coverage};
use serde::Serialize;

use crate::{is_human, CsvList, RunError, Source};

/// The result of `coglab score kiva`. Serializes as its `--json` output.
#[derive(Debug)]
pub struct KivaScore {
    /// The report (per-trial rows only when asked for).
    pub report: KivaReport,
    /// For model runs: stage-1 trials scored out of those expected.
    pub coverage: Option<Coverage>,
    /// Links to a folder already read, skipped (the CLI notes them on stderr).
    pub skipped_links: Vec<String>,
}

impl Serialize for KivaScore {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // For model runs: overall.coverage (stage-1 trials scored / expected trials) and
        // overall.accuracy_all_items (stage-1 mean with missing trials counted 0).
        match &self.coverage {
            Some(cov) => crate::with_coverage(&self.report, "overall", cov)
                .map_err(serde::ser::Error::custom)?
                .serialize(s),
            None => self.report.serialize(s),
        }
    }
}

/// Whether a file is jsPsych data ([`coglab_core::harness::jspsych`]).
fn is_jspsych(path: &str, bytes: &[u8]) -> bool {
    use coglab_core::harness::{detect_file, HarnessFormat};
    matches!(
        detect_file(path, bytes),
        Some(HarnessFormat::JsPsychCsv | HarnessFormat::JsPsychJson)
    )
}

/// Whether a file is Every Eval Ever instance records (KiVA's are read back by
/// [`coglab_core::harness::eee::read_kiva`], which names the task of any other benchmark's).
fn is_eee(path: &str, bytes: &[u8]) -> bool {
    coglab_core::harness::detect_file(path, bytes)
        == Some(coglab_core::harness::HarnessFormat::EeeInstances)
}

/// `coglab score kiva PATH... [--human HUMAN_CSV] [--trials]`. A file given as `human` is read
/// as the adults' data whatever its header; among the other files, one whose header starts with
/// `ParticipantID` is, and so is jsPsych data of a KiVA run (`trial_type`, `trial_index`).
/// `null` says how model answers naming no option are counted (the adults' file has none).
///
/// A file of Every Eval Ever instance records is a scored set of its own, given without run
/// CSVs: its trials are read back ([`coglab_core::harness::eee::read_kiva`]) and aggregated as
/// the runs they were written from; `null` is not used (the records name the rule they were
/// scored with). With the adults' data beside a model's records, the RT-error correlation is
/// computed as for runs.
///
/// # Errors
/// [`RunError::Usage`] for two human files, two EEE files, or an EEE file with run CSVs;
/// [`RunError::Input`] for unreadable or invalid files (an EEE file of another benchmark names
/// its task), or no CSV at all.
pub fn score(
    paths: &[Source],
    human: Option<&Source>,
    trials: bool,
    null: NullAnswers,
) -> Result<KivaScore, RunError> {
    // Walk the paths first (a missing path is named before any file is read).
    let list = CsvList::walk(paths)?;
    let mut human: Option<(String, Vec<u8>)> = match human {
        Some(h) => Some((h.label().to_string(), h.read()?)),
        None => None,
    };
    let files = list.read()?;
    let skipped_links = list.skipped.clone();
    let mut runs: Vec<(String, Vec<u8>)> = Vec::new();
    let mut eee: Option<(String, Vec<u8>)> = None;
    for (p, bytes) in files {
        if is_eee(&p, &bytes) {
            if let Some((first, _)) = &eee {
                return Err(RunError::Usage(format!(
                    "score kiva: two Every Eval Ever files given ({first} and {p}); each is a scored set, give one"
                )));
            }
            eee = Some((p, bytes));
        } else if is_human(&bytes) || is_jspsych(&p, &bytes) {
            if let Some((first, _)) = &human {
                return Err(RunError::Usage(format!(
                    "score kiva: two human data files given ({first} and {p}); give one"
                )));
            }
            human = Some((p, bytes));
        } else {
            runs.push((p, bytes));
        }
    }
    let human_report = match &human {
        // A jsPsych run: its KiVA trials scored as the self-test export is.
        Some((p, b)) if is_jspsych(p, b) => Some(coglab_core::harness::map::score_kiva_human(
            &coglab_core::harness::jspsych::read(p, b)?,
        )?),
        Some((p, b)) => Some(score_human(&HumanData::parse(p, b)?)?),
        None => None,
    };
    let mut report = if let Some((p, b)) = &eee {
        if let Some((run, _)) = runs.first() {
            return Err(RunError::Usage(format!(
                "score kiva: {p} holds Every Eval Ever records, a scored set of its own; give it without run CSVs (found {run})"
            )));
        }
        let mut r = coglab_core::harness::eee::read_kiva(p, b)?;
        match (&human_report, r.source) {
            (Some(_), KivaSource::Human) => {
                return Err(RunError::Usage(format!(
                "score kiva: two human data files given ({} and {p}, people's records); give one",
                human.as_ref().map_or("", |h| h.0.as_str())
            )))
            }
            (Some(h), KivaSource::Model) => r.rt_correlation = Some(rt_error_correlation(&r, h)),
            (None, _) => {}
        }
        r
    } else if runs.is_empty() {
        match human_report.clone() {
            Some(r) => r,
            None => {
                return Err(RunError::input(
                    "score kiva: no CSV files found in the given paths",
                ))
            }
        }
    } else {
        let mut r = score_model_with(runs.iter().map(|(p, b)| (p.as_str(), b.as_slice())), null)?;
        if let Some(h) = &human_report {
            r.rt_correlation = Some(rt_error_correlation(&r, h));
        }
        r
    };
    let coverage = (report.source == KivaSource::Model).then(|| kiva_coverage(&report));
    if !trials {
        report.trials.clear();
    }
    Ok(KivaScore {
        report,
        coverage,
        skipped_links,
    })
}

/// A file's name (its path, or the bytes' name) and content.
type Named = (String, Vec<u8>);

/// What [`coglab_core::harness::detect`] reads of a file at most: 16 KiB after a UTF-8
/// byte-order mark.
const HARNESS_HEAD: usize = (16 << 10) + 3;

/// The KiVA challenge's files among `paths` (issue 24): `Some((annotations, results))` when
/// every path is a file and they are one annotation JSON and one result file (JSON or CSV),
/// in any order, as [`coglab_core::harness::detect`] tells them; `None` when no path is a
/// challenge file (the paths are KiVA runs). Bytes count as files.
///
/// # Errors
/// [`RunError::Usage`] when challenge files come with other files, or not as one annotation
/// file and one result file; [`RunError::Input`] for a file that cannot be read.
pub fn challenge_files(paths: &[Source]) -> Result<Option<(Named, Named)>, RunError> {
    use coglab_core::harness::{detect, HarnessFormat};
    let mut ann = Vec::new();
    let mut res = Vec::new();
    let mut other = 0;
    for p in paths {
        if let Source::Path(path) = p {
            if !std::path::Path::new(path).is_file() {
                other += 1;
                continue;
            }
        }
        // Told from the head detection reads: a run CSV or the adults' file (read whole by
        // `score` afterwards) is not read twice.
        let label = p.label().to_string();
        match detect(&label, &p.head(HARNESS_HEAD)?) {
            Some(HarnessFormat::KivaAnnotations) => ann.push((label, p.read()?)),
            Some(HarnessFormat::KivaResults) => res.push((label, p.read()?)),
            _ => other += 1,
        }
    }
    if ann.is_empty() && res.is_empty() {
        return Ok(None);
    }
    if ann.len() != 1 || res.len() != 1 || other > 0 {
        return Err(RunError::Usage(format!(
            "a KiVA challenge result is scored with its annotations: give one annotation JSON and \
             one result file (found {} annotation, {} result and {other} other files)",
            ann.len(),
            res.len()
        )));
    }
    Ok(ann.pop().zip(res.pop()))
}

/// `coglab score kiva ANNOTATIONS.json RESULTS.{json,csv} [--trials]`: a KiVA challenge result
/// scored against its annotations ([`coglab_core::harness::kiva_challenge::score`], the
/// function the web app's worker calls), or `None` when `paths` hold no challenge file.
/// Without `trials` the per-trial rows are left out.
///
/// # Errors
/// As [`challenge_files`], and the challenge reader's located error.
pub fn challenge(paths: &[Source], trials: bool) -> Result<Option<ChallengeReport>, RunError> {
    let Some(((ap, ab), (rp, rb))) = challenge_files(paths)? else {
        return Ok(None);
    };
    let mut report = coglab_core::harness::kiva_challenge::score((&ap, &ab), (&rp, &rb))?;
    if !trials {
        report.items.clear();
    }
    Ok(Some(report))
}

/// The result of `coglab score kiva` on any of its inputs. Serializes as its `--json` output.
#[derive(Debug)]
pub enum KivaOutput {
    /// Model runs and/or people's data ([`score`]).
    Runs(Box<KivaScore>),
    /// A KiVA challenge result ([`challenge`]).
    Challenge(Box<ChallengeReport>),
}

impl Serialize for KivaOutput {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            KivaOutput::Runs(r) => r.serialize(s),
            KivaOutput::Challenge(c) => c.serialize(s),
        }
    }
}

/// `coglab score kiva PATH...`: a KiVA challenge result with its annotations when `paths` are
/// those two files ([`challenge`]; `human` and `null` are not used), else runs, people's
/// data or KiVA's Every Eval Ever records ([`score`]).
///
/// # Errors
/// As [`challenge`] and [`score`].
pub fn score_any(
    paths: &[Source],
    human: Option<&Source>,
    trials: bool,
    null: NullAnswers,
) -> Result<KivaOutput, RunError> {
    if let Some(report) = challenge(paths, trials)? {
        return Ok(KivaOutput::Challenge(Box::new(report)));
    }
    score(paths, human, trials, null).map(|r| KivaOutput::Runs(Box::new(r)))
}
