//! Length (verbosity) bias of a judge (MM-OPERA paper section 5.5): the (answer length, score)
//! pairs of every judged answer ([`LengthSamples`], [`length_samples`]) and the Pearson r
//! between them, leaving out short 1-point answers ([`LengthBias`]).
//!
//! The scorer reports a length bias with each holistic and process report
//! ([`super::score`]) and judge validation offers it on its own
//! ([`super::validate::length_bias`]), so it sits below both.

use serde::{Deserialize, Serialize};

use super::files::{Answers, RegularScores};
use crate::stats::correlation::{pearson, Correlation};

/// Length (verbosity) bias of a holistic judge.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LengthBias {
    /// (length, score) pairs used.
    pub n: usize,
    /// 1-point answers left out for being shorter than `min_length`.
    pub excluded: usize,
    /// The length threshold, in characters.
    pub min_length: usize,
    /// Pearson r between answer length and score, with its p-value.
    pub correlation: Option<Correlation>,
    /// Why there is no correlation, if so.
    pub note: Option<String>,
}

/// The (length, score) pairs of [`super::validate::length_bias`] before the short-answer threshold is applied:
/// every valid holistic verdict whose answer text is present.
pub fn length_samples(answers: &Answers, judges: &[&RegularScores]) -> LengthSamples {
    let mut samples = LengthSamples {
        score_name: "score".into(),
        ..LengthSamples::default()
    };
    for judge in judges {
        for entry in &judge.entries {
            let Some(texts) = answers.get(&entry.id) else {
                continue;
            };
            for (verdict, text) in entry.verdicts.iter().zip(&texts.texts) {
                let (Some(score), Some(text)) = (verdict.score, text) else {
                    continue;
                };
                samples.push(text.chars().count(), f64::from(score), score == 1);
            }
        }
    }
    samples
}

/// What a length bias is computed from: one (answer length, judge score) pair per judged
/// answer, and whether the holistic judge gave that answer 1 point. Kept so that the bias can
/// be computed again under another short-answer threshold without the files ([`Self::bias`]);
/// the web app's worker keeps these with a scored row.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LengthSamples {
    /// Answer lengths in characters (Unicode scalar values).
    pub lengths: Vec<usize>,
    /// The judge's score of each answer (holistic 0-4, or a process judge's S_r).
    pub scores: Vec<f64>,
    /// Whether the holistic judge gave the answer 1 point.
    pub one_point: Vec<bool>,
    /// The score's name in messages ("score", "S_r").
    pub score_name: String,
}

impl LengthSamples {
    /// Adds one answer.
    pub fn push(&mut self, length: usize, score: f64, one_point: bool) {
        self.lengths.push(length);
        self.scores.push(score);
        self.one_point.push(one_point);
    }

    /// Pearson r between length and score, leaving out 1-point answers shorter than
    /// `min_length` characters (the paper's "excluding short 1-point responses").
    ///
    /// # Examples
    /// ```
    /// use coglab_core::mmopera::length::LengthSamples;
    /// let mut s = LengthSamples::default();
    /// for (len, score, one) in [(2, 1.0, true), (12, 2.0, false), (23, 4.0, false), (10, 2.0, false)] {
    ///     s.push(len, score, one);
    /// }
    /// assert_eq!((s.bias(5).n, s.bias(5).excluded), (3, 1));
    /// assert_eq!((s.bias(0).n, s.bias(0).excluded), (4, 0));
    /// ```
    pub fn bias(&self, min_length: usize) -> LengthBias {
        let (mut lengths, mut scores) = (Vec::new(), Vec::new());
        let mut excluded = 0;
        for ((&len, &score), &one) in self.lengths.iter().zip(&self.scores).zip(&self.one_point) {
            if one && len < min_length {
                excluded += 1;
                continue;
            }
            lengths.push(len as f64);
            scores.push(score);
        }
        let (correlation, note) = match pearson(&lengths, &scores) {
            Ok(c) => (Some(c), None),
            Err(e) => (
                None,
                Some(format!("Pearson r of length and {}: {e}", self.score_name)),
            ),
        };
        LengthBias {
            n: lengths.len(),
            excluded,
            min_length,
            correlation,
            note,
        }
    }
}
