//! MM-OPERA: judge results, holistic and process-reward scores, judge validation (issue 4).
//!
//! MM-OPERA (Remote-Item Association, RIA, and In-Context Association, ICA) scores open-ended
//! answers with LLM judges. This module reads the files the released evaluation code writes
//! and computes every metric of the paper's section 4, its breakdowns, and the judge checks of
//! section 5.5:
//!
//! - [`metadata`]: the dataset's columns (JSON array / object, JSONL or CSV).
//! - [`files`]: model answers (`<model>_RIA_results.json`), holistic judge scores
//!   (`_regular_scoring.json`, also plain `{id: score}` re-scores) and process-reward judge
//!   scores (`_reasoning_scoring.json`).
//! - [`detect`]: tells these files (and RIA from ICA) apart from name and content.
//! - [`score`]: SR, HR-3, HR-4, ΔHR, score distribution, process-reward S_r with R/D/K, every
//!   breakdown (domain, culture, type, language, hop count, L-1/L-2/L-3), per-item rows, and
//!   several judges averaged.
//! - [`length`]: length (verbosity) bias, the Pearson r between answer length and score, which
//!   the scorer reports and judge validation offers on its own.
//! - [`validate`]: agreement between two score sources (MAD, exact / within-1 shares,
//!   Pearson r, Cohen's κ), process-score agreement, length bias and order bias.
//! - [`taxonomy`]: the L-1 / L-2 / L-3 ability taxonomy.
//!
//! Entry points take `(file name, bytes)` so the web worker and the CLI share them; every
//! report is `Serialize + Deserialize`. Where the released code and the paper differ, the
//! released code is the default and the paper's variant an option (see [`score::ScoreOptions`]).
//!
//! # Examples
//! ```
//! use coglab_core::mmopera::{files::RegularScores, metadata::Metadata, score, Task};
//! let meta = Metadata::parse("meta.json", br#"[{"id": "q1", "domain": "Art", "hop_count": 2},
//!                                              {"id": "q2", "domain": "Art", "hop_count": 1}]"#).unwrap();
//! let judge = RegularScores::parse("m_RIA_regular_scoring.json",
//!     br#"{"q1": {"score_judge": "4", "score_reason": "ok"}, "q2": {"score_judge": "2"}}"#).unwrap();
//! let input = score::ScoreInput { task: Task::Ria, metadata: &meta, regular: vec![&judge],
//!                                 reasoning: vec![], answers: None };
//! let report = score::score(&input, &score::ScoreOptions::default()).unwrap();
//! let h = report.holistic.unwrap();
//! assert_eq!(h.score_rate, 0.75); // (4 + 2) / (4·2)
//! assert_eq!(h.hr3, 0.5);
//! ```

pub mod detect;
pub mod files;
mod json;
pub mod length;
pub mod metadata;
pub mod score;
pub mod taxonomy;
pub mod validate;

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::location::Location;
use crate::stats::StatsError;

/// The two MM-OPERA tasks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Task {
    /// Remote-Item Association: one answer per item.
    Ria,
    /// In-Context Association: each item asked 4 times (rotations), two reasoning paths each.
    Ica,
}

impl Task {
    /// `RIA` or `ICA`.
    pub fn name(self) -> &'static str {
        match self {
            Task::Ria => "RIA",
            Task::Ica => "ICA",
        }
    }

    /// Answers (and judge verdicts) per item: 1 for RIA, 4 rotations for ICA.
    pub fn rotations(self) -> usize {
        match self {
            Task::Ria => 1,
            Task::Ica => 4,
        }
    }
}

impl fmt::Display for Task {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Task {
    type Err = String;

    /// `ria` or `ica`, any case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "ria" => Ok(Task::Ria),
            "ica" => Ok(Task::Ica),
            _ => Err(format!("expected ria or ica, found {s:?}")),
        }
    }
}

/// A problem in the input that did not stop scoring (a score counted as 0, a hop left out,
/// a value clamped, an item skipped). Listed in the reports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Warning {
    /// The file.
    pub file: String,
    /// The item id, when the problem is in one item.
    pub id: Option<String>,
    /// Where inside the item (e.g. `q12[2].score_judge`).
    pub field: Option<String>,
    /// What was expected, what was found and what was done.
    pub message: String,
}

impl fmt::Display for Warning {
    /// `judge.json: field "q3.score_judge": expected ..., found ...; counted as 0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        match (&self.field, &self.id) {
            (Some(field), _) => write!(f, ": field \"{field}\"")?,
            (None, Some(id)) => write!(f, ": item \"{id}\"")?,
            (None, None) => {}
        }
        write!(f, ": {}", self.message)
    }
}

/// Why an MM-OPERA file could not be read or scored. Every variant names where.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum MmoperaError {
    /// The file is not UTF-8 text (UTF-16, UTF-32, a zip archive).
    #[error(transparent)]
    NotText(#[from] crate::encoding::NotTextError),
    /// The file is not valid JSON.
    #[error("{location}: invalid JSON: {message}")]
    Json {
        /// Where (file and line).
        location: Location,
        /// The parser's message.
        message: String,
    },
    /// The file is not valid CSV.
    #[error("{location}: invalid CSV: {message}")]
    Csv {
        /// Where (file and line).
        location: Location,
        /// The parser's message.
        message: String,
    },
    /// A value has the wrong shape or content.
    #[error("{location}: expected {expected}, found {found}")]
    Unexpected {
        /// Where.
        location: Location,
        /// What was expected.
        expected: String,
        /// What was found.
        found: String,
    },
    /// A required field is missing.
    #[error("{location}: missing: expected {expected}")]
    MissingField {
        /// Where (the field names what is missing).
        location: Location,
        /// What was expected there.
        expected: String,
    },
    /// An item id occurs twice in the metadata.
    #[error("{location}: duplicate id {id:?} (first at {first})")]
    DuplicateId {
        /// Where the second occurrence is.
        location: Location,
        /// The id.
        id: String,
        /// Where the first occurrence is.
        first: String,
    },
    /// The file has no entries.
    #[error("{file}: expected at least one entry, found none")]
    Empty {
        /// The file.
        file: String,
    },
    /// A file belongs to the other task.
    #[error("{file}: expected an {expected} file, found an {found} file ({why})")]
    TaskMismatch {
        /// The file.
        file: String,
        /// The task asked for.
        expected: Task,
        /// The task the file's shape shows.
        found: Task,
        /// What in the file shows it.
        why: String,
    },
    /// The file is not one of the MM-OPERA formats.
    #[error("{file}: expected an MM-OPERA metadata, answers, regular-scoring or reasoning-scoring file, found {found}")]
    UnknownFormat {
        /// The file.
        file: String,
        /// What the content looks like.
        found: String,
    },
    /// An option is outside its domain.
    #[error("option {name}: expected {expected}, found {value}")]
    BadOption {
        /// Option name (`alpha`, `gamma`, ...).
        name: &'static str,
        /// The value given.
        value: f64,
        /// The accepted range, in words.
        expected: &'static str,
    },
    /// Nothing to score or compare.
    #[error("{what}: expected at least one scored item, found none")]
    NothingToScore {
        /// What was being computed (names the files).
        what: String,
    },
    /// A statistic could not be computed.
    #[error("{what}: {source}")]
    Stats {
        /// What was being computed (names the files).
        what: String,
        /// The statistics error.
        source: StatsError,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_parsing_and_display() {
        assert_eq!("ICA".parse::<Task>(), Ok(Task::Ica));
        assert_eq!(" ria".parse::<Task>(), Ok(Task::Ria));
        assert!("both".parse::<Task>().is_err());
        assert_eq!(Task::Ica.to_string(), "ICA");
        assert_eq!(serde_json::to_string(&Task::Ria).unwrap(), "\"ria\"");
    }

    #[test]
    fn warning_display_names_file_and_field() {
        let w = Warning {
            file: "j.json".into(),
            id: Some("q3".into()),
            field: Some("q3.score_judge".into()),
            message: "expected an integer 0-4, found \"x\"; counted as 0".into(),
        };
        assert_eq!(
            w.to_string(),
            "j.json: field \"q3.score_judge\": expected an integer 0-4, found \"x\"; counted as 0"
        );
    }
}
