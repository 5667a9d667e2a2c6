//! Judge validation (paper section 5.5): agreement between two score sources over the same
//! items (judge vs judge, or judge vs a human re-score file), process-score agreement, length
//! (verbosity) bias and order (position) bias.
//!
//! - [`holistic_agreement`]: mean absolute difference, exact-match and within-1 shares,
//!   Pearson r, Cohen's κ (unweighted and quadratic-weighted over the scale 0-4) and a paired
//!   permutation test of the differences.
//! - [`process_agreement`]: per hop, Pearson r and MAD of R and of D, accuracy and κ of K; per
//!   item, agreement of S_r with a paired permutation test.
//! - [`length_bias`]: Pearson r between answer length (characters) and holistic score,
//!   leaving out 1-point answers shorter than a given length.
//! - [`order_bias`]: paired permutation test of score differences between two runs with the
//!   image order swapped.
//!
//! Verdicts are paired by item id and rotation; a verdict whose score is invalid on either
//! side is left out of the pairs (a missing score is not a rating of 0) and counted in
//! `unpaired`.

use serde::{Deserialize, Serialize};

use super::files::{Answers, ReasoningScores, RegularScores};
use super::length::length_samples;
use super::score::{normalize_hop, process_item_scores, ScoreOptions};
use super::MmoperaError;
use crate::stats::agreement::{
    cohen_kappa_with_labels, exact_match, mean_abs_diff, paired_permutation_test, within,
    KappaWeights, PermutationTest,
};
use crate::stats::correlation::{pearson, Correlation};
use crate::stats::StatsError;

/// What [`length_bias`] returns (defined with the samples it is computed from in
/// [`super::length`]).
pub use super::length::LengthBias;

/// Pearson r between the answer length in characters (Unicode scalar values) and the holistic
/// score, over every valid verdict whose answer text is present (ICA: rotation i's answer with
/// rotation i's verdict; several judges are pooled). 1-point answers shorter than `min_length`
/// characters are left out, as the paper's "excluding short 1-point responses".
///
/// # Examples
/// ```
/// use coglab_core::mmopera::files::{Answers, RegularScores};
/// use coglab_core::mmopera::validate::length_bias;
/// let answers = Answers::parse("a.json", br#"{"q1": "no", "q2": "a bit longer", "q3": "the longest answer here", "q4": "medium one"}"#).unwrap();
/// let judge = RegularScores::parse("j.json", br#"{"q1": 1, "q2": 2, "q3": 4, "q4": 2}"#).unwrap();
/// let bias = length_bias(&answers, &[&judge], 5);
/// assert_eq!((bias.n, bias.excluded), (3, 1)); // "no" (2 chars, 1 point) left out
/// assert!(bias.correlation.unwrap().r > 0.9);
/// ```
pub fn length_bias(answers: &Answers, judges: &[&RegularScores], min_length: usize) -> LengthBias {
    length_samples(answers, judges).bias(min_length)
}

/// Agreement of two holistic score sources.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HolisticAgreement {
    /// The two files (A, B).
    pub files: [String; 2],
    /// Paired verdicts.
    pub n: usize,
    /// Items with at least one pair.
    pub items: usize,
    /// Mean |A − B|.
    pub mean_abs_diff: f64,
    /// Share of pairs with A = B.
    pub exact_match: f64,
    /// Share of pairs with |A − B| ≤ 1.
    pub within_one: f64,
    /// Share of pairs with |A − B| > 1.
    pub beyond_one: f64,
    /// Pearson r (`None` when undefined, see `notes`).
    pub pearson: Option<Correlation>,
    /// Cohen's κ, unweighted.
    pub kappa: Option<f64>,
    /// Cohen's κ with quadratic weights over the scale 0-4.
    pub kappa_quadratic: Option<f64>,
    /// Paired permutation test of A − B (the order-bias test when A and B are two runs with
    /// the image order swapped).
    pub paired_test: PermutationTest,
    /// Ids only in A.
    pub only_in_a: Vec<String>,
    /// Ids only in B.
    pub only_in_b: Vec<String>,
    /// Verdicts of common items left unpaired (invalid on either side, or a rotation missing).
    pub unpaired: usize,
    /// Why a statistic is missing.
    pub notes: Vec<String>,
}

/// Agreement of two holistic score sources over their common items (paper 5.5: 300 GPT-4o
/// judgments vs 8 human raters, "average score difference 0.077, 78.33% perfect matches, no
/// discrepancies exceeding 1 point").
///
/// # Errors
/// [`MmoperaError::TaskMismatch`] when one file is RIA and the other ICA,
/// [`MmoperaError::NothingToScore`] when no verdict pairs, [`MmoperaError::Stats`] for a bad
/// `resamples`.
///
/// # Examples
/// ```
/// use coglab_core::mmopera::files::RegularScores;
/// use coglab_core::mmopera::validate::holistic_agreement;
/// let a = RegularScores::parse("judge.json", br#"{"q1": {"score_judge": "3"}, "q2": {"score_judge": "2"}}"#).unwrap();
/// let b = RegularScores::parse("human.json", br#"{"q1": 3, "q2": 4}"#).unwrap();
/// let agree = holistic_agreement(&a, &b, 1000, 0).unwrap();
/// assert_eq!((agree.n, agree.exact_match, agree.mean_abs_diff), (2, 0.5, 1.0));
/// ```
pub fn holistic_agreement(
    a: &RegularScores,
    b: &RegularScores,
    resamples: usize,
    seed: u64,
) -> Result<HolisticAgreement, MmoperaError> {
    same_task(&a.file, a.task, &b.file, b.task)?;
    let what = format!("agreement of {} and {}", a.file, b.file);
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    let (mut items, mut unpaired) = (0, 0);
    let mut only_in_a = Vec::new();
    for ea in &a.entries {
        let Some(eb) = b.get(&ea.id) else {
            only_in_a.push(ea.id.clone());
            continue;
        };
        unpaired += ea.verdicts.len().abs_diff(eb.verdicts.len());
        let before = xs.len();
        for (va, vb) in ea.verdicts.iter().zip(&eb.verdicts) {
            match (va.score, vb.score) {
                (Some(x), Some(y)) => {
                    xs.push(f64::from(x));
                    ys.push(f64::from(y));
                }
                _ => unpaired += 1,
            }
        }
        if xs.len() > before {
            items += 1;
        }
    }
    let only_in_b = b
        .entries
        .iter()
        .filter(|e| a.get(&e.id).is_none())
        .map(|e| e.id.clone())
        .collect();
    if xs.is_empty() {
        return Err(MmoperaError::NothingToScore { what });
    }
    let stats = |e: StatsError| MmoperaError::Stats {
        what: what.clone(),
        source: e,
    };
    let mut notes = Vec::new();
    let within_one = within(&xs, &ys, 1.0).map_err(stats)?;
    let ia: Vec<i64> = xs.iter().map(|&x| x as i64).collect();
    let ib: Vec<i64> = ys.iter().map(|&y| y as i64).collect();
    let scale = [0, 1, 2, 3, 4];
    Ok(HolisticAgreement {
        files: [a.file.clone(), b.file.clone()],
        n: xs.len(),
        items,
        mean_abs_diff: mean_abs_diff(&xs, &ys).map_err(stats)?,
        exact_match: exact_match(&xs, &ys).map_err(stats)?,
        within_one,
        beyond_one: 1.0 - within_one,
        pearson: noted(pearson(&xs, &ys), "Pearson r", &mut notes),
        kappa: noted(
            cohen_kappa_with_labels(&ia, &ib, &scale, KappaWeights::Unweighted),
            "Cohen's kappa",
            &mut notes,
        ),
        kappa_quadratic: noted(
            cohen_kappa_with_labels(&ia, &ib, &scale, KappaWeights::Quadratic),
            "quadratic-weighted kappa",
            &mut notes,
        ),
        paired_test: paired_permutation_test(&xs, &ys, resamples, seed).map_err(stats)?,
        only_in_a,
        only_in_b,
        unpaired,
        notes,
    })
}

/// Order (position) bias: a paired permutation test of holistic score differences between
/// two runs over the same items, the second with the image order swapped. The same test as
/// [`HolisticAgreement::paired_test`].
///
/// # Errors
/// As [`holistic_agreement`].
pub fn order_bias(
    original: &RegularScores,
    swapped: &RegularScores,
    resamples: usize,
    seed: u64,
) -> Result<PermutationTest, MmoperaError> {
    holistic_agreement(original, swapped, resamples, seed).map(|a| a.paired_test)
}

/// Per-hop agreement of two process-reward judgements.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HopAgreement {
    /// Paired hops.
    pub n: usize,
    /// Pearson r of R.
    pub pearson_r: Option<Correlation>,
    /// Pearson r of D.
    pub pearson_d: Option<Correlation>,
    /// Mean |R_A − R_B|.
    pub mad_r: f64,
    /// Mean |D_A − D_B|.
    pub mad_d: f64,
    /// Share of hops with equal K.
    pub k_accuracy: f64,
    /// Cohen's κ of K.
    pub k_kappa: Option<f64>,
}

/// Agreement of item scores S_r.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemScoreAgreement {
    /// Items scored by both.
    pub n: usize,
    /// Mean |S_A − S_B|.
    pub mean_abs_diff: f64,
    /// Pearson r.
    pub pearson: Option<Correlation>,
    /// Paired permutation test of S_A − S_B (the order-bias test for two swapped runs).
    pub paired_test: PermutationTest,
}

/// Agreement of two process-reward score sources.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProcessAgreement {
    /// The two files (A, B).
    pub files: [String; 2],
    /// Per-hop agreement, when hops pair up.
    pub hops: Option<HopAgreement>,
    /// Item S_r agreement, when items are scored by both.
    pub score: Option<ItemScoreAgreement>,
    /// Ids only in A.
    pub only_in_a: Vec<String>,
    /// Ids only in B.
    pub only_in_b: Vec<String>,
    /// Hops of common paths without a partner (different hop counts).
    pub unpaired_hops: usize,
    /// Why a statistic is missing.
    pub notes: Vec<String>,
}

/// Agreement of two process-reward files over their common items (paper 5.5: 200 paths,
/// "r = 0.72 for Reasonableness, r = 0.68 for Distinctiveness, 83.5% accuracy for
/// Knowledgeability (Cohen's Kappa = 0.65)"). Hops are paired by item, rotation, path key and
/// position in the path; R and D are clamped and K rounded first. Item S_r uses `options`.
///
/// # Errors
/// [`MmoperaError::TaskMismatch`], [`MmoperaError::BadOption`],
/// [`MmoperaError::NothingToScore`] when neither hops nor item scores pair up,
/// [`MmoperaError::Stats`] for a bad `resamples`.
pub fn process_agreement(
    a: &ReasoningScores,
    b: &ReasoningScores,
    options: &ScoreOptions,
    resamples: usize,
    seed: u64,
) -> Result<ProcessAgreement, MmoperaError> {
    same_task(&a.file, a.task, &b.file, b.task)?;
    options.validate()?;
    let what = format!("process agreement of {} and {}", a.file, b.file);
    let stats = |e: StatsError| MmoperaError::Stats {
        what: what.clone(),
        source: e,
    };
    let mut notes = Vec::new();
    let (mut ra, mut rb, mut da, mut db, mut ka, mut kb) =
        (vec![], vec![], vec![], vec![], vec![], vec![]);
    let mut unpaired_hops = 0;
    let mut only_in_a = Vec::new();
    for ea in &a.entries {
        let Some(eb) = b.get(&ea.id) else {
            only_in_a.push(ea.id.clone());
            continue;
        };
        for (ja, jb) in ea.rotations.iter().zip(&eb.rotations) {
            let (Some(ja), Some(jb)) = (ja, jb) else {
                continue;
            };
            for pa in &ja.paths {
                let Some(pb) = jb.paths.iter().find(|p| p.key == pa.key) else {
                    continue;
                };
                unpaired_hops += pa.hops.len().abs_diff(pb.hops.len());
                for (ha, hb) in pa.hops.iter().zip(&pb.hops) {
                    let (r1, d1, k1) = normalize_hop(ha.r, ha.d, ha.k);
                    let (r2, d2, k2) = normalize_hop(hb.r, hb.d, hb.k);
                    ra.push(r1);
                    rb.push(r2);
                    da.push(d1);
                    db.push(d2);
                    ka.push(k1 as i64);
                    kb.push(k2 as i64);
                }
            }
        }
    }
    let only_in_b = b
        .entries
        .iter()
        .filter(|e| a.get(&e.id).is_none())
        .map(|e| e.id.clone())
        .collect();
    let hops = if ra.is_empty() {
        notes.push("no hops pair up".to_owned());
        None
    } else {
        let kf: (Vec<f64>, Vec<f64>) = (
            ka.iter().map(|&k| k as f64).collect(),
            kb.iter().map(|&k| k as f64).collect(),
        );
        Some(HopAgreement {
            n: ra.len(),
            pearson_r: noted(pearson(&ra, &rb), "Pearson r of R", &mut notes),
            pearson_d: noted(pearson(&da, &db), "Pearson r of D", &mut notes),
            mad_r: mean_abs_diff(&ra, &rb).map_err(stats)?,
            mad_d: mean_abs_diff(&da, &db).map_err(stats)?,
            k_accuracy: exact_match(&kf.0, &kf.1).map_err(stats)?,
            k_kappa: noted(
                cohen_kappa_with_labels(&ka, &kb, &[0, 1], KappaWeights::Unweighted),
                "Cohen's kappa of K",
                &mut notes,
            ),
        })
    };
    let sa = process_item_scores(a, options);
    let sb: std::collections::HashMap<String, Option<f64>> =
        process_item_scores(b, options).into_iter().collect();
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    for (id, x) in sa {
        if let (Some(x), Some(Some(y))) = (x, sb.get(&id)) {
            xs.push(x);
            ys.push(*y);
        }
    }
    let score = if xs.is_empty() {
        notes.push("no item is scored by both".to_owned());
        None
    } else {
        Some(ItemScoreAgreement {
            n: xs.len(),
            mean_abs_diff: mean_abs_diff(&xs, &ys).map_err(stats)?,
            pearson: noted(pearson(&xs, &ys), "Pearson r of S_r", &mut notes),
            paired_test: paired_permutation_test(&xs, &ys, resamples, seed).map_err(stats)?,
        })
    };
    if hops.is_none() && score.is_none() {
        return Err(MmoperaError::NothingToScore { what });
    }
    Ok(ProcessAgreement {
        files: [a.file.clone(), b.file.clone()],
        hops,
        score,
        only_in_a,
        only_in_b,
        unpaired_hops,
        notes,
    })
}

fn same_task(
    file_a: &str,
    a: super::Task,
    file_b: &str,
    b: super::Task,
) -> Result<(), MmoperaError> {
    if a == b {
        return Ok(());
    }
    Err(MmoperaError::TaskMismatch {
        file: file_b.to_owned(),
        expected: a,
        found: b,
        why: format!("{file_a} is {a}, so both files must be"),
    })
}

/// A statistic, or `None` with a note saying why.
fn noted<T>(result: Result<T, StatsError>, what: &str, notes: &mut Vec<String>) -> Option<T> {
    match result {
        Ok(v) => Some(v),
        Err(e) => {
            notes.push(format!("{what}: {e}"));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    #[test]
    fn holistic_agreement_by_hand() {
        // Judge A vs human B on 5 RIA items (q5 only in A, q6 only in B, q4 invalid in A):
        // pairs (4,4), (3,2), (2,2), (0,1)
        let a = RegularScores::parse(
            "a.json",
            br#"{"q1": {"score_judge": "4"}, "q2": {"score_judge": "3"}, "q3": {"score_judge": "2"},
                 "q4": {"score_judge": "n/a"}, "q7": {"score_judge": "0"}, "q5": {"score_judge": "1"}}"#,
        )
        .unwrap();
        let b = RegularScores::parse(
            "b.json",
            br#"{"q1": 4, "q2": 2, "q3": "2", "q4": 3, "q7": 1, "q6": 0}"#,
        )
        .unwrap();
        let g = holistic_agreement(&a, &b, 10_000, 1).unwrap();
        assert_eq!(g.n, 4);
        assert_eq!(g.unpaired, 1);
        assert_eq!(g.only_in_a, ["q5"]);
        assert_eq!(g.only_in_b, ["q6"]);
        // |d| = 0, 1, 0, 1 → MAD 0.5, exact 2/4, within-1 4/4.
        assert_relative_eq!(g.mean_abs_diff, 0.5);
        assert_relative_eq!(g.exact_match, 0.5);
        assert_relative_eq!(g.within_one, 1.0);
        assert_relative_eq!(g.beyond_one, 0.0);
        // Pearson: x = 4,3,2,0 (mean 2.25), y = 4,2,2,1 (mean 2.25);
        // dx = 1.75, .75, −.25, −2.25; dy = 1.75, −.25, −.25, −1.25;
        // sxy = 3.0625 − .1875 + .0625 + 2.8125 = 5.75; sxx = 3.0625+.5625+.0625+5.0625 = 8.75;
        // syy = 3.0625+.0625+.0625+1.5625 = 4.75; r = 5.75/sqrt(8.75·4.75) = 0.89189...
        assert_relative_eq!(
            g.pearson.unwrap().r,
            5.75 / (8.75f64 * 4.75).sqrt(),
            max_relative = 1e-12
        );
        // scipy.stats.pearsonr([4,3,2,0], [4,2,2,1]) → r = 0.8919017444789036, p = 0.10809825552109631.
        assert_relative_eq!(
            g.pearson.unwrap().p,
            0.108_098_255_521_096_31,
            max_relative = 1e-9
        );
        // κ over labels 0..4: p_o = 2/4; A marginals (scores 0..4) 1,0,1,1,1; B marginals
        // 0,1,2,0,1; p_e = (0 + 0 + 2 + 0 + 1)/16 = 3/16; κ = (0.5 − 0.1875)/(1 − 0.1875)
        // = 0.3125/0.8125 = 0.384615... scikit-learn 1.9.1:
        //   cohen_kappa_score([4,3,2,0], [4,2,2,1], labels=[0,1,2,3,4]) = 0.3846153846153846
        //   cohen_kappa_score(..., labels=[0,1,2,3,4], weights="quadratic") = 0.8518518518518519
        assert_relative_eq!(g.kappa.unwrap(), 0.3125 / 0.8125, max_relative = 1e-12);
        assert_relative_eq!(
            g.kappa_quadratic.unwrap(),
            0.851_851_851_851_851_9,
            max_relative = 1e-12
        );
        // Differences d = 0, 1, 0, −1: |Σd| = 0, so every one of the 16 sign patterns reaches it.
        assert!(g.paired_test.exact);
        assert_relative_eq!(g.paired_test.p, 1.0);
        assert_relative_eq!(g.paired_test.mean_diff, 0.0);
    }

    #[test]
    fn ica_pairs_by_rotation_and_task_must_match() {
        let a = RegularScores::parse("a.json", br#"{"i1": [1, 2, 3, 4]}"#).unwrap();
        let b = RegularScores::parse("b.json", br#"{"i1": [1, 2, 4]}"#).unwrap();
        let g = holistic_agreement(&a, &b, 100, 1).unwrap();
        // Pairs (1,1), (2,2), (3,4); rotation 4 unpaired.
        assert_eq!((g.n, g.unpaired), (3, 1));
        assert_relative_eq!(g.exact_match, 2.0 / 3.0);
        let ria = RegularScores::parse("r.json", br#"{"i1": 3}"#).unwrap();
        assert!(matches!(
            holistic_agreement(&a, &ria, 100, 1),
            Err(MmoperaError::TaskMismatch { .. })
        ));
        let none = RegularScores::parse("n.json", br#"{"zz": 3}"#).unwrap();
        assert!(matches!(
            holistic_agreement(&ria, &none, 100, 1),
            Err(MmoperaError::NothingToScore { .. })
        ));
    }

    #[test]
    fn length_bias_by_hand() {
        // Lengths (chars): "ok"=2 (score 1, excluded below 5), "a bit"=5 (1, kept: not < 5),
        // "abcdefghij"=10 (3), "ééééééé"=7 chars (2): pairs (5,1), (10,3), (7,2).
        // x mean 22/3, y mean 2; dx = −7/3, 8/3, −1/3; dy = −1, 1, 0;
        // sxy = 7/3 + 8/3 = 5; sxx = (49+64+1)/9 = 114/9; syy = 2; r = 5/sqrt(228/9) = 0.99339...
        let answers = Answers::parse(
            "a.json",
            r#"{"q1": "ok", "q2": "a bit", "q3": "abcdefghij", "q4": "ééééééé", "q5": "no score"}"#
                .as_bytes(),
        )
        .unwrap();
        let judge = RegularScores::parse(
            "j.json",
            br#"{"q1": 1, "q2": 1, "q3": 3, "q4": 2, "q5": "?"}"#,
        )
        .unwrap();
        let bias = length_bias(&answers, &[&judge], 5);
        assert_eq!((bias.n, bias.excluded), (3, 1));
        assert_relative_eq!(
            bias.correlation.unwrap().r,
            5.0 / (228.0f64 / 9.0).sqrt(),
            max_relative = 1e-12
        );
        let too_few = length_bias(&answers, &[&judge], 100);
        assert!(too_few.correlation.is_none());
        assert!(too_few.note.unwrap().contains("needs at least 3"));
    }

    #[test]
    fn process_agreement_by_hand() {
        // Three items, one hop each (plus a second hop in p1 of A only → unpaired).
        // A: (R, D, K) = (1, 0.8, 1), (0.6, 0.4, 0), (0.2, 0.2, 0)
        // B: (0.8, 0.8, 1), (0.6, 0.6, 1), (0.4, 0.2, 0)
        let a = ReasoningScores::parse(
            "a.json",
            r#"{"p1": {"hop_quality": {"A → X": [1, 0.8, 1], "X → B": [1, 1, 1]}},
                "p2": {"hop_quality": {"A → B": [0.6, 0.4, 0]}},
                "p3": {"hop_quality": {"A → B": [0.2, 0.2, 0]}}}"#
                .as_bytes(),
        )
        .unwrap();
        let b = ReasoningScores::parse(
            "b.json",
            r#"{"p1": {"hop_quality": {"A → X": [0.8, 0.8, 1]}},
                "p2": {"hop_quality": {"A → B": [0.6, 0.6, 1]}},
                "p3": {"hop_quality": {"A → B": [0.4, 0.2, 0]}}}"#
                .as_bytes(),
        )
        .unwrap();
        let g = process_agreement(&a, &b, &ScoreOptions::default(), 1000, 3).unwrap();
        assert_eq!(g.unpaired_hops, 1);
        let h = g.hops.unwrap();
        assert_eq!(h.n, 3);
        // |ΔR| = 0.2, 0, 0.2 → 0.4/3; |ΔD| = 0, 0.2, 0 → 0.2/3.
        assert_relative_eq!(h.mad_r, 0.4 / 3.0, max_relative = 1e-12);
        assert_relative_eq!(h.mad_d, 0.2 / 3.0, max_relative = 1e-12);
        // K: (1,1), (0,1), (0,0) → accuracy 2/3; κ: p_o = 2/3, A marginals (0,1) = 2,1,
        // B = 1,2 → p_e = (2·1 + 1·2)/9 = 4/9; κ = (2/3 − 4/9)/(5/9) = 2/5
        // (sklearn 1.9.1: cohen_kappa_score([1,0,0], [1,1,0]) = 0.3999999999999999).
        assert_relative_eq!(h.k_accuracy, 2.0 / 3.0, max_relative = 1e-12);
        assert_relative_eq!(h.k_kappa.unwrap(), 0.4, max_relative = 1e-12);
        // Pearson of R: x = 1, 0.6, 0.2; y = 0.8, 0.6, 0.4 → perfectly linear, r = 1.
        assert_relative_eq!(h.pearson_r.unwrap().r, 1.0, max_relative = 1e-12);
        // Item S_r (α = γ = 0.9): A p1 = 0.82 + 1·0.9 = 1.72 (s0 = 0.9·0.8 + 0.1 = 0.82,
        // s1 = 1), p2 = 0.9·0.24 = 0.216, p3 = 0.9·0.04 = 0.036;
        // B p1 = 0.9·0.64 + 0.1 = 0.676, p2 = 0.9·0.36 + 0.1 = 0.424, p3 = 0.9·0.08 = 0.072.
        let s = g.score.unwrap();
        assert_eq!(s.n, 3);
        let d = [1.72 - 0.676, 0.216 - 0.424, 0.036 - 0.072];
        let mad = d.iter().map(|x: &f64| x.abs()).sum::<f64>() / 3.0;
        assert_relative_eq!(s.mean_abs_diff, mad, max_relative = 1e-12);
        assert_relative_eq!(
            s.paired_test.mean_diff,
            d.iter().sum::<f64>() / 3.0,
            max_relative = 1e-12
        );
        // d = 1.044, −0.208, −0.036, |Σd| = 0.8. Every sign pattern with +1.044 gives at least
        // 1.044 − 0.208 − 0.036 = 0.8, and its mirror image at most −0.8: all 8 reach it, p = 1.
        assert!(s.paired_test.exact);
        assert_relative_eq!(s.paired_test.p, 1.0);
    }
}
