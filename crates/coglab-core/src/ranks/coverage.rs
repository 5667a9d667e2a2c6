//! Coverage of one scored result file: items scored out of the benchmark's items, and the
//! headline figure with unscored items counted as wrong (issue 20). The benchmarks' own
//! scripts score only the items in the file, so a 100-item MM-IQ file reports an accuracy over
//! 100 items; these two numbers put it beside full runs honestly.

use serde::{Deserialize, Serialize};

use crate::kiva::KivaReport;
use crate::mmiq::MmiqReport;
use crate::mmopera::score::HolisticReport;

/// Items scored out of the benchmark's items, and the headline figure over all of them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Coverage {
    /// Items scored (MM-IQ items, KiVA trials, MM-OPERA items).
    pub scored: usize,
    /// Items in the benchmark (key items, expected trials, metadata items).
    pub size: usize,
    /// `scored / size`.
    pub coverage: f64,
    /// The headline figure with unscored items counted as wrong (0).
    pub accuracy_all_items: f64,
}

impl Coverage {
    fn new(scored: usize, size: usize, total: f64) -> Self {
        let size = size.max(scored);
        let (coverage, all) = if size == 0 {
            (0.0, 0.0)
        } else {
            (scored as f64 / size as f64, total / size as f64)
        };
        Self {
            scored,
            size,
            coverage,
            accuracy_all_items: all,
        }
    }
}

/// MM-IQ: items scored / items in the key, and correct / items in the key.
///
/// # Examples
/// ```
/// use coglab_core::mmiq::{score, AnswerKey, Predictions};
/// use coglab_core::ranks::coverage::mmiq_coverage;
/// let key = AnswerKey::parse("k.jsonl", concat!(
///     r#"{"category": "Mathematical", "data_id": 0, "answer": "A"}"#, "\n",
///     r#"{"category": "Mathematical", "data_id": 1, "answer": "B"}"#, "\n",
///     r#"{"category": "Mathematical", "data_id": 2, "answer": "C"}"#, "\n",
///     r#"{"category": "Mathematical", "data_id": 3, "answer": "D"}"#)).unwrap();
/// let r = score(&key, &Predictions::parse("m.jsonl", b"{\"data_id\": 1, \"parsed_pred\": \"B\"}").unwrap()).unwrap();
/// let c = mmiq_coverage(&r, key.items.len());
/// assert_eq!((r.overall.accuracy, c.coverage, c.accuracy_all_items), (1.0, 0.25, 0.25));
/// ```
pub fn mmiq_coverage(report: &MmiqReport, key_items: usize) -> Coverage {
    Coverage::new(
        report.overall.n as usize,
        key_items,
        report.overall.correct as f64,
    )
}

/// The trials a KiVA run is expected to have: the variant's subdomains times the largest
/// number of trials any subdomain of the run has (the released runs have 50 per subdomain).
pub fn kiva_expected_trials(report: &KivaReport) -> usize {
    let mut per_sub: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for t in &report.trials {
        *per_sub.entry(t.subdomain.as_str()).or_default() += 1;
    }
    let most = per_sub.values().copied().max().unwrap_or(0);
    report.variant.subdomains().len().max(per_sub.len()) * most
}

/// KiVA stage 1: trials scored / expected trials ([`kiva_expected_trials`]), and the stage-1
/// mean with missing trials counted 0. Needs the report's trials.
///
/// # Examples
/// ```
/// use coglab_core::kiva::score_model;
/// use coglab_core::ranks::coverage::kiva_coverage;
/// let csv = "Variation,Regeneration,MCResponse#1,MCResponse#2,MCResponse#3\n0,0,1,1,1\n1,0,0,,0\n";
/// let r = score_model([("m/output_Colour/ColourRed.csv", csv.as_bytes())]).unwrap();
/// // KiVA has 14 subdomains; this run has 2 trials of one: 2 of 28 expected, 1 right.
/// let c = kiva_coverage(&r);
/// assert_eq!((c.scored, c.size), (2, 28));
/// assert!((c.accuracy_all_items - 1.0 / 28.0).abs() < 1e-15);
/// ```
pub fn kiva_coverage(report: &KivaReport) -> Coverage {
    let scored: Vec<f64> = report.trials.iter().filter_map(|t| t.cross).collect();
    Coverage::new(
        scored.len(),
        kiva_expected_trials(report),
        scored.iter().sum(),
    )
}

/// MM-OPERA holistic: items judged / items in the metadata, and SR with unjudged metadata items
/// counted 0 (each as `rotations` verdicts of 0).
///
/// # Examples
/// ```
/// use coglab_core::mmopera::{files::RegularScores, metadata::Metadata, score, Task};
/// use coglab_core::ranks::coverage::mmopera_coverage;
/// let meta = Metadata::parse("meta.json", br#"[{"id": "q1"}, {"id": "q2"}, {"id": "q3"}, {"id": "q4"}]"#).unwrap();
/// let judge = RegularScores::parse("m_RIA_regular_scoring.json",
///     br#"{"q1": {"score_judge": "4"}, "q2": {"score_judge": "2"}}"#).unwrap();
/// let input = score::ScoreInput { task: Task::Ria, metadata: &meta, regular: vec![&judge],
///                                 reasoning: vec![], answers: None };
/// let h = score::score(&input, &score::ScoreOptions::default()).unwrap().holistic.unwrap();
/// let c = mmopera_coverage(&h, 4, 1);
/// // SR 6/8 over the judged items; (4 + 2) / (4 · 4) over all four.
/// assert_eq!((c.coverage, c.accuracy_all_items), (0.5, 0.375));
/// ```
pub fn mmopera_coverage(
    report: &HolisticReport,
    metadata_items: usize,
    rotations: usize,
) -> Coverage {
    let total = report.score_rate * 4.0 * report.n as f64;
    let size = metadata_items.max(report.items);
    let judges_per_item = if report.items == 0 {
        1.0
    } else {
        report.n as f64 / (report.items * rotations.max(1)) as f64
    };
    let verdicts_all = size as f64 * rotations.max(1) as f64 * judges_per_item;
    Coverage {
        scored: report.items,
        size,
        coverage: if size == 0 {
            0.0
        } else {
            report.items as f64 / size as f64
        },
        accuracy_all_items: if verdicts_all > 0.0 {
            total / (4.0 * verdicts_all)
        } else {
            0.0
        },
    }
}
