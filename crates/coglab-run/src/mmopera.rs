//! `coglab score mmopera`: the item metadata and the judges' scoring files in, MM-OPERA's
//! holistic (regular) and process-reward (reasoning) report out.

use coglab_core::mmopera::files::{Answers, ReasoningScores, RegularScores};
use coglab_core::mmopera::metadata::Metadata;
use coglab_core::mmopera::score::{score as score_mmopera, ScoreInput, ScoreOptions};
use coglab_core::mmopera::{MmoperaError, Task};
use coglab_core::ranks::coverage::{mmopera_coverage, Coverage};
use serde::Serialize;

use crate::{RunError, Source};

/// The result of `coglab score mmopera`. Serializes as its `--json` output.
#[derive(Debug)]
pub struct MmoperaScore {
    /// The report (per-item rows only when asked for).
    pub report: coglab_core::mmopera::score::Report,
    /// With regular scores: items judged out of the metadata's items.
    pub coverage: Option<Coverage>,
}

impl Serialize for MmoperaScore {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // holistic.coverage (items judged / metadata items) and holistic.accuracy_all_items (SR
        // with unjudged metadata items counted 0) beside the released SR.
        match &self.coverage {
            Some(cov) => crate::with_coverage(&self.report, "holistic", cov)
                .map_err(serde::ser::Error::custom)?
                .serialize(s),
            None => self.report.serialize(s),
        }
    }
}

/// Reads and parses one input with a core parser, naming the file in errors.
fn load<T>(
    source: &Source,
    parse: impl Fn(&str, &[u8]) -> Result<T, MmoperaError>,
) -> Result<T, RunError> {
    let bytes = source.bytes()?;
    Ok(parse(&source.file_name(), &bytes)?)
}

/// The inputs of `coglab score mmopera`.
#[derive(Debug, Clone)]
pub struct MmoperaInputs {
    /// RIA or ICA.
    pub task: Task,
    /// The item metadata (JSON, JSONL or CSV).
    pub metadata: Source,
    /// Regular (holistic) scoring files, one per judge.
    pub regular: Vec<Source>,
    /// Reasoning (process) scoring files, one per judge.
    pub reasoning: Vec<Source>,
    /// The model's answers (for the length-bias check).
    pub answers: Option<Source>,
}

/// `coglab score mmopera --task T --metadata META --regular ... --reasoning ... [--items]`.
///
/// # Errors
/// [`RunError::Usage`] without scoring files or for options out of range;
/// [`RunError::Input`] for unreadable or invalid files.
pub fn score(
    inputs: &MmoperaInputs,
    options: &ScoreOptions,
    items: bool,
) -> Result<MmoperaScore, RunError> {
    if inputs.regular.is_empty() && inputs.reasoning.is_empty() {
        return Err(RunError::Usage(
            "score mmopera: --regular (or --reasoning) is required".into(),
        ));
    }
    options
        .validate()
        .map_err(|e| RunError::Usage(e.to_string()))?;
    let metadata = load(&inputs.metadata, Metadata::parse)?;
    let regular = inputs
        .regular
        .iter()
        .map(|p| load(p, RegularScores::parse))
        .collect::<Result<Vec<_>, _>>()?;
    let reasoning = inputs
        .reasoning
        .iter()
        .map(|p| load(p, ReasoningScores::parse))
        .collect::<Result<Vec<_>, _>>()?;
    let answers = match &inputs.answers {
        Some(p) => Some(load(p, Answers::parse)?),
        None => None,
    };
    let input = ScoreInput {
        task: inputs.task,
        metadata: &metadata,
        regular: regular.iter().collect(),
        reasoning: reasoning.iter().collect(),
        answers: answers.as_ref(),
    };
    let mut report = score_mmopera(&input, options)?;
    if !items {
        report.items.clear();
    }
    let coverage = report
        .holistic
        .as_ref()
        .map(|h| mmopera_coverage(h, metadata.items.len(), inputs.task.rotations()));
    Ok(MmoperaScore { report, coverage })
}
