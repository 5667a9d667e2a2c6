//! Where a scored report came from when another tool wrote its file: the harness
//! ([`Harness`]), the file's format ([`HarnessFormat`], with the container of a VLMEvalKit
//! table, [`TableKind`]), the summary figures it gave ([`SummaryRow`]), and what it contributed
//! to the report ([`HarnessInfo`]: how its records mapped onto the benchmark's items and where
//! its verdicts differ from ours).
//!
//! An MM-IQ or KiVA report carries a [`HarnessInfo`] when [`crate::harness`] read its file, so
//! these types sit below the benchmarks, which name them, and below the harness readers, which
//! fill them in; they only describe, and know neither how a file is read nor how it is scored.

use crate::stats::interval::Accuracy;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The harness that wrote a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Harness {
    /// EvolvingLMMs-Lab's lmms-eval.
    LmmsEval,
    /// open-compass's VLMEvalKit.
    VlmEvalKit,
    /// UK AISI's Inspect.
    Inspect,
    /// EvalEval's Every Eval Ever schema (0.2.1).
    EveryEvalEver,
    /// jsPsych (a human run in the browser).
    JsPsych,
    /// The KiVA challenge's annotation and result files.
    KivaChallenge,
    /// Hugging Face's lighteval.
    Lighteval,
}

impl Harness {
    /// The harness's name as its authors write it.
    pub fn label(self) -> &'static str {
        match self {
            Harness::LmmsEval => "lmms-eval",
            Harness::VlmEvalKit => "VLMEvalKit",
            Harness::Inspect => "Inspect",
            Harness::EveryEvalEver => "Every Eval Ever",
            Harness::JsPsych => "jsPsych",
            Harness::KivaChallenge => "KiVA challenge",
            Harness::Lighteval => "lighteval",
        }
    }
}

/// The harness file formats read here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum HarnessFormat {
    /// lmms-eval per-sample JSONL (`*_samples_<task>.jsonl`).
    LmmsSamples,
    /// lmms-eval `*_results.json` (summary rows only).
    LmmsResults,
    /// A VLMEvalKit per-item table (plain, judge `_result`, or circular).
    VlmEvalKit(TableKind),
    /// An Inspect `.eval` log (zip).
    InspectEval,
    /// An Inspect `.json` log.
    InspectJson,
    /// Every Eval Ever instance records (JSONL, or a JSON array).
    EeeInstances,
    /// An Every Eval Ever aggregate record (summary rows only).
    EeeAggregate,
    /// jsPsych data as CSV.
    JsPsychCsv,
    /// jsPsych data as JSON (an array of trials).
    JsPsychJson,
    /// KiVA challenge annotations (`{trial_id: {level, transformation_domain, ...}}`).
    KivaAnnotations,
    /// KiVA challenge results (`[{"id", "answer"}]` JSON or `id,answer` CSV).
    KivaResults,
    /// lighteval per-sample details (`details_<task>_<date>.parquet`).
    LightevalDetails,
}

impl HarnessFormat {
    /// The harness that writes this format.
    pub fn harness(self) -> Harness {
        match self {
            HarnessFormat::LmmsSamples | HarnessFormat::LmmsResults => Harness::LmmsEval,
            HarnessFormat::VlmEvalKit(_) => Harness::VlmEvalKit,
            HarnessFormat::InspectEval | HarnessFormat::InspectJson => Harness::Inspect,
            HarnessFormat::EeeInstances | HarnessFormat::EeeAggregate => Harness::EveryEvalEver,
            HarnessFormat::JsPsychCsv | HarnessFormat::JsPsychJson => Harness::JsPsych,
            HarnessFormat::KivaAnnotations | HarnessFormat::KivaResults => Harness::KivaChallenge,
            HarnessFormat::LightevalDetails => Harness::Lighteval,
        }
    }

    /// Whether the format holds only summary rows (no per-item records).
    pub fn is_summary(self) -> bool {
        matches!(
            self,
            HarnessFormat::LmmsResults | HarnessFormat::EeeAggregate
        )
    }

    /// A short human-readable name.
    pub fn label(self) -> &'static str {
        match self {
            HarnessFormat::LmmsSamples => "lmms-eval samples (JSONL)",
            HarnessFormat::LmmsResults => "lmms-eval results (JSON)",
            HarnessFormat::VlmEvalKit(_) => "VLMEvalKit per-item table",
            HarnessFormat::InspectEval => "Inspect log (.eval)",
            HarnessFormat::InspectJson => "Inspect log (.json)",
            HarnessFormat::EeeInstances => "Every Eval Ever instance records",
            HarnessFormat::EeeAggregate => "Every Eval Ever aggregate record",
            HarnessFormat::JsPsychCsv => "jsPsych data (CSV)",
            HarnessFormat::JsPsychJson => "jsPsych data (JSON)",
            HarnessFormat::KivaAnnotations => "KiVA challenge annotations",
            HarnessFormat::KivaResults => "KiVA challenge results",
            HarnessFormat::LightevalDetails => "lighteval details (Parquet)",
        }
    }
}

/// The container of a VLMEvalKit prediction table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum TableKind {
    /// Excel workbook (first sheet).
    Xlsx,
    /// Tab-separated values.
    Tsv,
    /// Comma-separated values.
    Csv,
    /// JSON: an array of row objects, or pandas' column-oriented object.
    Json,
}

/// One summary figure of a harness file (lmms-eval results, EEE aggregate, Inspect header).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SummaryRow {
    /// Task (evaluation) name.
    pub task: String,
    /// lmms-eval filter (`none`, `flexible-extract`, ...), when the harness has filters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filter: Option<String>,
    /// Metric name (`acc`, `exact_match`, `accuracy`, ...).
    pub metric: String,
    /// The value as given.
    pub value: f64,
    /// Its standard error, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr: Option<f64>,
    /// Its clustered standard error, when given (lmms-eval `_stderr_clustered`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr_clustered: Option<f64>,
    /// Number of samples, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n: Option<u64>,
}

impl SummaryRow {
    /// The normal 95% interval `value ± 1.96 · stderr` from the file's standard error, when it
    /// gives one (the clustered one is not used: it is shown beside it).
    ///
    /// # Examples
    /// ```
    /// use coglab_core::provenance::SummaryRow;
    /// let r = SummaryRow { task: "mmiq".into(), filter: None, metric: "acc".into(), value: 0.2745,
    ///     stderr: Some(0.0086), stderr_clustered: None, n: None };
    /// // 0.2745 ± 1.96 × 0.0086 = 0.2745 ± 0.016856
    /// let (lo, hi) = r.interval().unwrap();
    /// assert!((lo - 0.257644).abs() < 1e-12 && (hi - 0.291356).abs() < 1e-12);
    /// ```
    pub fn interval(&self) -> Option<(f64, f64)> {
        let se = self.stderr.filter(|s| s.is_finite() && *s >= 0.0)?;
        Some((self.value - 1.96 * se, self.value + 1.96 * se))
    }
}

/// A record that could not be mapped to an item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unmapped {
    /// Its line, row or sample number in the file.
    pub position: usize,
    /// How the record names itself.
    pub record: String,
    /// Why it was not mapped.
    pub reason: String,
}

/// An item where the harness's verdict differs from ours.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Disagreement {
    /// The item.
    pub data_id: u64,
    /// Line, row or sample number of the record.
    pub position: usize,
    /// The harness's verdict.
    pub harness_correct: bool,
    /// Ours (MM-IQ's extractor against the key).
    pub ours_correct: bool,
    /// The letter we extracted (`Z`: none).
    pub parsed: String,
    /// The key's letter.
    pub key: char,
}

/// The circular score of a VLMEvalKit circular file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CircularScore {
    /// Items with at least one rotation beyond the first.
    pub items: usize,
    /// Of those, items whose every rotation was answered right (against its row's `answer`).
    pub all_correct: usize,
    /// The circular accuracy, `all_correct / items`, with its Wilson interval.
    pub accuracy: Option<Accuracy>,
}

/// What a harness file contributed to a scored row: which harness, how its records mapped,
/// and where its verdicts differ from ours.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HarnessInfo {
    /// The harness that produced the file.
    pub harness: Harness,
    /// Its name, for display (`lmms-eval`, `Inspect`, ...).
    pub harness_label: String,
    /// The file's format.
    pub format: HarnessFormat,
    /// The task the file names, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    /// The model the file names, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Records read.
    pub records: usize,
    /// Records mapped to an item, by what mapped them (`data_id`, `md5`, `trial`).
    pub mapped_by: BTreeMap<String, usize>,
    /// Records that could not be mapped (all of them, in file order).
    pub unmapped: Vec<Unmapped>,
    /// Mapped records that carry a harness verdict.
    pub verdicts: usize,
    /// Items where the harness's verdict differs from ours.
    pub disagreements: Vec<Disagreement>,
    /// The file's summary rows (e.g. an Inspect header's metrics), as given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub summary: Vec<SummaryRow>,
    /// The circular score (VLMEvalKit circular files only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub circular: Option<CircularScore>,
}

impl HarnessInfo {
    /// The information of a file of `format` naming `task` and `model`, with `records` read
    /// and none mapped yet.
    pub(crate) fn of(
        format: HarnessFormat,
        task: Option<String>,
        model: Option<String>,
        records: usize,
    ) -> Self {
        let harness = format.harness();
        Self {
            harness,
            harness_label: harness.label().to_string(),
            format,
            task,
            model,
            records,
            mapped_by: BTreeMap::new(),
            unmapped: Vec::new(),
            verdicts: 0,
            disagreements: Vec::new(),
            summary: Vec::new(),
            circular: None,
        }
    }

    /// Records mapped to an item.
    pub fn mapped(&self) -> usize {
        self.mapped_by.values().sum()
    }
}
