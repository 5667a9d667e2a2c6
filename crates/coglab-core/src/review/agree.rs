//! Agreement between the reviewer and the judge on the reviewed items of a sample, with the
//! library's statistics ([`crate::stats::agreement`], [`crate::stats::correlation::pearson`]),
//! and the items where they disagree most.

use serde::{Deserialize, Serialize};

use super::records::SetReview;
use super::{Judge, ReviewSet, SetKind};
use crate::stats::agreement::{cohen_kappa_with_labels, exact_match, mean_abs_diff, KappaWeights};
use crate::stats::correlation::pearson;

/// Agreement on one measure (the holistic score, right/wrong, or R, D, K of process hops).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Agreement {
    /// What is compared, e.g. `Score 0-4` or `R (per hop)`.
    pub label: String,
    /// Number of (judge, reviewer) pairs.
    pub n: usize,
    /// Share of equal pairs, in [0, 1].
    pub exact_match: Option<f64>,
    /// Mean absolute difference.
    pub mean_abs_diff: Option<f64>,
    /// Pearson's r.
    pub pearson_r: Option<f64>,
    /// Cohen's κ (unweighted), for whole-number scales.
    pub kappa: Option<f64>,
    /// Cohen's κ with quadratic weights over 0-4 (holistic only).
    pub weighted_kappa: Option<f64>,
    /// Why a statistic is missing (too few pairs, no variation, ...).
    pub notes: Vec<String>,
}

/// One item where reviewer and judge differ.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Disagreement {
    /// The item's key.
    pub key: String,
    /// The judge's scores, for people.
    pub judge: String,
    /// The reviewer's scores, for people.
    pub reviewer: String,
    /// How far apart: |judge − reviewer|, for process items the sum over hops of
    /// |ΔR| + |ΔD| + |ΔK|.
    pub difference: f64,
}

/// The live agreement panel's numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgreementReport {
    /// What was scored.
    pub kind: SetKind,
    /// Items of the sample with a reviewer score.
    pub reviewed: usize,
    /// Items in the sample.
    pub sampled: usize,
    /// One entry per measure.
    pub measures: Vec<Agreement>,
    /// The items that differ most, largest difference first (at most `top`).
    pub disagreements: Vec<Disagreement>,
}

fn measure(
    label: &str,
    judge: &[f64],
    reviewer: &[f64],
    labels: Option<&[i64]>,
    weighted: bool,
) -> Agreement {
    let mut notes = Vec::new();
    let mut keep = |name: &str, r: Result<f64, crate::stats::StatsError>| match r {
        Ok(v) => Some(v),
        Err(e) => {
            if !judge.is_empty() {
                notes.push(format!("{name}: {e}"));
            }
            None
        }
    };
    let exact = keep("exact match", exact_match(judge, reviewer));
    let mad = keep("mean absolute difference", mean_abs_diff(judge, reviewer));
    let r = keep("Pearson r", pearson(judge, reviewer).map(|c| c.r));
    let (kappa, weighted_kappa) = match labels {
        Some(labels) => {
            let a: Vec<i64> = judge.iter().map(|v| v.round() as i64).collect();
            let b: Vec<i64> = reviewer.iter().map(|v| v.round() as i64).collect();
            let k = keep(
                "Cohen's κ",
                cohen_kappa_with_labels(&a, &b, labels, KappaWeights::Unweighted),
            );
            let w = if weighted {
                keep(
                    "weighted κ",
                    cohen_kappa_with_labels(&a, &b, labels, KappaWeights::Quadratic),
                )
            } else {
                None
            };
            (k, w)
        }
        None => (None, None),
    };
    Agreement {
        label: label.to_string(),
        n: judge.len(),
        exact_match: exact,
        mean_abs_diff: mad,
        pearson_r: r,
        kappa,
        weighted_kappa,
        notes,
    }
}

fn fmt_unit(v: f64) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Agreement between the reviewer and the judge over the sampled items of `review` that the
/// reviewer scored, and the `top` items that differ most.
///
/// Holistic sets compare the 0-4 scores (κ over the labels 0-4, also quadratic-weighted);
/// binary sets compare 1/0 (κ over 0, 1); process sets compare R, D and K hop by hop over the
/// hops both scored (κ for K where the judge's K is 0 or 1). Items the judge left without a
/// usable score are not compared.
///
/// # Examples
/// ```
/// use coglab_core::review::{agreement, build_sets, records::SetReview, ReviewRecord};
/// let files = vec![("m_RIA_regular_scoring.json".to_string(), br#"{
///     "a": {"score_judge": "4"}, "b": {"score_judge": "2"}, "c": {"score_judge": "0"}}"#.to_vec())];
/// let set = &build_sets(&files).sets[0];
/// let mut review = SetReview { keys: vec!["a".into(), "b".into(), "c".into()], ..Default::default() };
/// for (k, s) in [("a", 4), ("b", 3), ("c", 0)] {
///     review.records.insert(k.into(), ReviewRecord { key: k.into(), score: Some(s), ..Default::default() });
/// }
/// let report = agreement(set, &review, 5);
/// let m = &report.measures[0];
/// assert_eq!(m.exact_match, Some(2.0 / 3.0));
/// assert_eq!(m.mean_abs_diff, Some(1.0 / 3.0));
/// assert_eq!(report.disagreements[0].key, "b");
/// ```
pub fn agreement(set: &ReviewSet, review: &SetReview, top: usize) -> AgreementReport {
    let mut reviewed = 0;
    let mut disagreements = Vec::new();
    let mut measures = Vec::new();
    let records = review
        .keys
        .iter()
        .enumerate()
        .filter_map(|(pos, key)| Some((pos, set.item(key)?, review.records.get(key)?)))
        .filter(|(_, _, rec)| rec.is_scored());
    match set.kind {
        SetKind::Holistic | SetKind::Binary => {
            let (mut judge, mut mine) = (Vec::new(), Vec::new());
            for (pos, item, rec) in records {
                reviewed += 1;
                let j = match &item.judge {
                    Judge::Holistic { score, .. } => score.map(f64::from),
                    Judge::Binary { correct, .. } => Some(f64::from(u8::from(*correct))),
                    Judge::Process { .. } => None,
                };
                let (Some(j), Some(m)) = (j, rec.score.map(f64::from)) else {
                    continue;
                };
                judge.push(j);
                mine.push(m);
                if j != m {
                    disagreements.push((
                        pos,
                        Disagreement {
                            key: item.key.clone(),
                            judge: fmt_unit(j),
                            reviewer: fmt_unit(m),
                            difference: (j - m).abs(),
                        },
                    ));
                }
            }
            if set.kind == SetKind::Holistic {
                measures.push(measure(
                    "Score 0-4",
                    &judge,
                    &mine,
                    Some(&[0, 1, 2, 3, 4]),
                    true,
                ));
            } else {
                measures.push(measure(
                    "Right (1) / wrong (0)",
                    &judge,
                    &mine,
                    Some(&[0, 1]),
                    false,
                ));
            }
        }
        SetKind::Process => {
            let mut pairs: [(Vec<f64>, Vec<f64>); 3] = Default::default();
            let (mut k_judge, mut k_mine) = (Vec::new(), Vec::new());
            for (pos, item, rec) in records {
                reviewed += 1;
                let Judge::Process { hops, .. } = &item.judge else {
                    continue;
                };
                let mut diff = 0.0;
                let (mut jd, mut md) = (Vec::new(), Vec::new());
                for (h, judge_hop) in hops.iter().enumerate() {
                    let Some(mine) = rec.hops.get(h) else {
                        continue;
                    };
                    let values = [
                        (judge_hop.r, mine.r),
                        (judge_hop.d, mine.d),
                        (judge_hop.k, mine.k.map(f64::from)),
                    ];
                    for (c, (j, m)) in values.into_iter().enumerate() {
                        if let Some(m) = m {
                            pairs[c].0.push(j);
                            pairs[c].1.push(m);
                            diff += (j - m).abs();
                            if c == 2 && (j == 0.0 || j == 1.0) {
                                k_judge.push(j);
                                k_mine.push(m);
                            }
                        }
                    }
                    if !mine.is_empty() {
                        jd.push(format!(
                            "R {} D {} K {}",
                            fmt_unit(judge_hop.r),
                            fmt_unit(judge_hop.d),
                            fmt_unit(judge_hop.k)
                        ));
                        let f = |v: Option<f64>| v.map_or("–".to_string(), fmt_unit);
                        md.push(format!(
                            "R {} D {} K {}",
                            f(mine.r),
                            f(mine.d),
                            f(mine.k.map(f64::from))
                        ));
                    }
                }
                if diff > 1e-12 {
                    disagreements.push((
                        pos,
                        Disagreement {
                            key: item.key.clone(),
                            judge: jd.join("; "),
                            reviewer: md.join("; "),
                            difference: diff,
                        },
                    ));
                }
            }
            let [(rj, rm), (dj, dm), (kj, km)] = pairs;
            measures.push(measure("R (per hop)", &rj, &rm, None, false));
            measures.push(measure("D (per hop)", &dj, &dm, None, false));
            let mut k = measure("K (per hop)", &kj, &km, None, false);
            let with_labels = measure("K", &k_judge, &k_mine, Some(&[0, 1]), false);
            k.kappa = with_labels.kappa;
            k.notes.extend(
                with_labels
                    .notes
                    .into_iter()
                    .filter(|n| n.starts_with("Cohen")),
            );
            if k_judge.len() < kj.len() {
                k.notes.push(format!(
                    "Cohen's κ: {} hops left out where the judge's K is not 0 or 1",
                    kj.len() - k_judge.len()
                ));
            }
            measures.push(k);
        }
    }
    disagreements
        .sort_by(|(pa, a), (pb, b)| b.difference.total_cmp(&a.difference).then(pa.cmp(pb)));
    AgreementReport {
        kind: set.kind,
        reviewed,
        sampled: review.keys.len(),
        measures,
        disagreements: disagreements
            .into_iter()
            .take(top)
            .map(|(_, d)| d)
            .collect(),
    }
}
