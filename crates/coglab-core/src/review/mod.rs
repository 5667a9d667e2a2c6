//! Human review of judge outputs (issue 9): a reviewer re-scores a sample of items by hand and
//! compares their scores with the judge's.
//!
//! - [`build`]: turns loaded files into reviewable result sets: MM-OPERA holistic judge
//!   outputs (score 0-4 and reason) and process judge outputs (per hop R, D in [0, 1], K 0/1),
//!   MM-IQ predictions with their key and KiVA model runs (the automatic right/wrong as the
//!   "judge", re-scored 0/1).
//! - [`sample`]: all items, or N drawn with a seed, stratified by a chosen field.
//! - [`records`]: the reviewer's records, the saved workspace, JSON and CSV export/import and
//!   the import merge with its conflict report.
//! - [`agree`]: agreement between reviewer and judge, from [`crate::stats::agreement`] and
//!   [`crate::stats::correlation::pearson`], and the items where they disagree most.

pub mod agree;
pub mod build;
pub mod records;
pub mod sample;

use serde::{Deserialize, Serialize};

pub use agree::{agreement, Agreement, AgreementReport, Disagreement};
pub use build::{build_sets, Loaded};
pub use records::{
    error_tally, merge, resolve, Conflict, ErrorTally, ErrorType, HopScore, ImportedReview, Keep,
    MergeReport, ReviewExport, ReviewRecord, SetReview, Workspace,
};
pub use sample::{sample, Quota, SampleSpec};

/// What the judge scored, and so what the reviewer scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SetKind {
    /// One holistic score 0-4 per item (MM-OPERA regular scoring).
    Holistic,
    /// Per hop of the reasoning path: R and D in [0, 1], K 0 or 1 (MM-OPERA reasoning scoring).
    Process,
    /// Right (1) or wrong (0) (MM-IQ extraction, KiVA repository scores).
    Binary,
}

impl SetKind {
    /// The reviewer's score scale, for people.
    pub fn scale(self) -> &'static str {
        match self {
            SetKind::Holistic => "score 0-4",
            SetKind::Process => "per hop: R and D in [0, 1], K 0 or 1",
            SetKind::Binary => "1 right / 0 wrong",
        }
    }

    /// The highest whole-number score (4 holistic, 1 binary and K).
    pub fn max_score(self) -> u8 {
        match self {
            SetKind::Holistic => 4,
            SetKind::Process | SetKind::Binary => 1,
        }
    }
}

/// One hop as the process judge scored it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgeHop {
    /// The hop, e.g. `Shell → Protection` (ICA: prefixed by the path, `path2: A → B`).
    pub name: String,
    /// Reasonableness in [0, 1].
    pub r: f64,
    /// Distinctiveness in [0, 1].
    pub d: f64,
    /// Knowledgeability, 0 or 1.
    pub k: f64,
}

/// The judge's verdict on one item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Judge {
    /// Holistic score (absent when the judge's output was unusable) and reason.
    Holistic {
        /// 0-4, or `None` for an invalid verdict.
        score: Option<u8>,
        /// The judge's reason.
        reason: Option<String>,
    },
    /// Process judgement: the hops with their R, D, K.
    Process {
        /// The path(s) the judge read from the answer.
        path: Option<String>,
        /// The scored hops, in order.
        hops: Vec<JudgeHop>,
        /// The judge's explanation or error.
        explanation: Option<String>,
    },
    /// Automatic right/wrong.
    Binary {
        /// Whether it was scored right.
        correct: bool,
        /// How (e.g. `extracted B, key B`).
        reason: String,
    },
}

/// One reviewable item of a result set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReviewItem {
    /// Unique key within the set (the item id, `id#2` for an ICA rotation, `file:line:stage`
    /// for a KiVA run).
    pub key: String,
    /// The dataset's item id.
    pub id: String,
    /// Fields a sample can be stratified by (domain, type, category, ...), as (name, value).
    pub strata: Vec<(String, String)>,
    /// The question data available, as (label, text): relation, explanation, reference path,
    /// image descriptions, key, ...
    pub context: Vec<(String, String)>,
    /// The model's answer, when a file gave it.
    pub answer: Option<String>,
    /// The judge's verdict.
    pub judge: Judge,
}

impl ReviewItem {
    /// The value of a stratification field, if the item has it.
    pub fn stratum(&self, field: &str) -> Option<&str> {
        self.strata
            .iter()
            .find(|(name, _)| name == field)
            .map(|(_, value)| value.as_str())
    }
}

/// A reviewable result set: one judge (or predictions) file with what it needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReviewSet {
    /// A unique, readable name (`gpt-4o · MM-OPERA RIA holistic · gpt-4o_RIA_regular_scoring.json`).
    pub name: String,
    /// The benchmark, e.g. `MM-OPERA RIA`, `MM-IQ`, `KiVA`.
    pub benchmark: String,
    /// What is scored.
    pub kind: SetKind,
    /// The files the set was built from.
    pub files: Vec<String>,
    /// Stratification fields every item may have, in display order.
    pub fields: Vec<String>,
    /// The items, in file order.
    pub items: Vec<ReviewItem>,
}

impl ReviewSet {
    /// The item with this key.
    pub fn item(&self, key: &str) -> Option<&ReviewItem> {
        self.items.iter().find(|i| i.key == key)
    }
}
