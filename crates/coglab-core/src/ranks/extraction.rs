//! Extraction robustness (MM-IQ): how much a board moves when the answer letter is taken from
//! the free-form response by another rule.
//!
//! Three extractors ([`Extractor`]):
//! - `official`: MM-IQ's released script ([`crate::mmiq::extract::extract_choice`]), the default;
//! - `strict`: only an explicit final answer counts: the last `\boxed{X}`, or the last
//!   "answer is / answer: / option is / option: / choice is / choice:" (any case) followed by the
//!   letter (optionally after `option`, `(`, `[`, `*` or spaces); anything else is no answer;
//! - `lenient`: the first standalone letter A-E anywhere in the response (`\b[A-E]\b`), the
//!   reading of a naive harness port.
//!
//! Rows whose file gives extracted letters only (`parsed_pred`, no `response`) are the same
//! under every extractor; the table says how many responses each row had.

use serde::{Deserialize, Serialize};

use crate::mmiq::extract::extract_choice;
use crate::mmiq::MmiqReport;

/// An answer extractor for MM-IQ responses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Extractor {
    /// MM-IQ's released script.
    Official,
    /// Only an explicit final answer.
    Strict,
    /// The first standalone option letter anywhere.
    Lenient,
}

/// The three extractors, in table order.
pub const EXTRACTORS: [Extractor; 3] = [Extractor::Official, Extractor::Strict, Extractor::Lenient];

impl Extractor {
    /// The letter this extractor takes from `response` (`None`: no answer).
    ///
    /// # Examples
    /// ```
    /// use coglab_core::ranks::extraction::Extractor;
    /// let r = "I first thought (B), but the pattern rotates.\nThe answer is C.";
    /// assert_eq!(Extractor::Official.extract(r), Some('C'));
    /// assert_eq!(Extractor::Strict.extract(r), Some('C'));
    /// assert_eq!(Extractor::Lenient.extract(r), Some('B'));
    /// assert_eq!(Extractor::Strict.extract("C"), None);
    /// ```
    pub fn extract(self, response: &str) -> Option<char> {
        match self {
            Extractor::Official => extract_choice(response),
            Extractor::Strict => strict_choice(response),
            Extractor::Lenient => lenient_choice(response),
        }
    }

    /// `official`, `strict`, `lenient`.
    pub fn name(self) -> &'static str {
        match self {
            Extractor::Official => "official",
            Extractor::Strict => "strict",
            Extractor::Lenient => "lenient",
        }
    }
}

fn is_word(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || c == '_')
}

/// The first standalone letter A-E of `response`.
pub fn lenient_choice(response: &str) -> Option<char> {
    let chars: Vec<char> = response.chars().collect();
    (0..chars.len()).find_map(|i| {
        let c = chars[i];
        let standalone = ('A'..='E').contains(&c)
            && !is_word(i.checked_sub(1).map(|j| chars[j]))
            && !is_word(chars.get(i + 1).copied());
        standalone.then_some(c)
    })
}

/// The letter of the last explicit final answer of `response`, if any.
pub fn strict_choice(response: &str) -> Option<char> {
    const PHRASES: [&str; 6] = [
        "answer is",
        "answer:",
        "option is",
        "option:",
        "choice is",
        "choice:",
    ];
    let lower = response.to_lowercase();
    // Byte offsets in `lower` equal those in `response` only for ASCII; work on `lower` and
    // read letters from it case-insensitively, uppercasing them.
    let mut best: Option<(usize, char)> = None;
    let mut consider = |pos: usize, letter: Option<char>| {
        if let Some(l) = letter {
            if best.is_none_or(|(p, _)| pos >= p) {
                best = Some((pos, l));
            }
        }
    };
    for (pos, _) in lower.match_indices("\\boxed{") {
        let rest = &lower[pos + 7..];
        let mut it = rest.chars();
        if let (Some(c), Some('}')) = (it.next(), it.next()) {
            consider(pos, letter_of(c));
        }
    }
    for p in PHRASES {
        for (pos, _) in lower.match_indices(p) {
            consider(pos, letter_after(&lower[pos + p.len()..]));
        }
    }
    best.map(|(_, l)| l)
}

fn letter_of(c: char) -> Option<char> {
    let u = c.to_ascii_uppercase();
    ('A'..='E').contains(&u).then_some(u)
}

/// The option letter right after a phrase: spaces, `*`, `(`, `[` and a word `option` may come
/// first; the letter must stand alone.
fn letter_after(rest: &str) -> Option<char> {
    let mut s = rest.trim_start_matches([' ', '*', '(', '[', '\t']);
    if let Some(t) = s.strip_prefix("option") {
        s = t.trim_start_matches([' ', '*', '(', '[', '\t']);
    }
    let mut it = s.chars();
    let c = it.next()?;
    if is_word(it.next()) {
        return None;
    }
    letter_of(c)
}

/// One item whose verdict differs between extractors.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Flip {
    /// Item id.
    pub data_id: u64,
    /// The key's answer.
    pub key: char,
    /// The letter each extractor took (`Z`: none), in [`EXTRACTORS`] order.
    pub letters: [char; 3],
    /// Whether each was right.
    pub correct: [bool; 3],
    /// The response (cut to 300 characters).
    pub response: String,
}

/// One model under the three extractors.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExtractionRow {
    /// Model name.
    pub name: String,
    /// Items with a free-form response (only these can move).
    pub responses: usize,
    /// Items right under each extractor.
    pub correct: [usize; 3],
    /// Accuracy under each extractor: right / benchmark items (missing counted wrong).
    pub scores: [f64; 3],
    /// Rank under each extractor (1 + models strictly above).
    pub ranks: [usize; 3],
    /// Highest minus lowest score.
    pub score_range: f64,
    /// Worst minus best rank.
    pub rank_change: usize,
    /// Items whose verdict differs between extractors (all of them).
    pub flips: Vec<Flip>,
}

/// A board under the three extractors.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExtractionRobustness {
    /// Extractor names, in column order.
    pub extractors: Vec<String>,
    /// Items in the benchmark (the denominator of the scores).
    pub benchmark_size: usize,
    /// The models, in the official extractor's order.
    pub rows: Vec<ExtractionRow>,
    /// Things the reader should know.
    pub notes: Vec<String>,
}

/// Scores every model's MM-IQ items under the three extractors. `benchmark_size` is the key's
/// item count (missing items count wrong).
///
/// # Examples
/// ```
/// use coglab_core::mmiq::{score, AnswerKey, Predictions};
/// use coglab_core::ranks::extraction::extraction_robustness;
/// let key = AnswerKey::parse("k.jsonl", concat!(
///     r#"{"category": "Mathematical", "data_id": 0, "answer": "C"}"#, "\n",
///     r#"{"category": "Mathematical", "data_id": 1, "answer": "B"}"#)).unwrap();
/// let p = Predictions::parse("m.jsonl", concat!(
///     r#"{"data_id": 0, "response": "The answer is C."}"#, "\n",
///     r#"{"data_id": 1, "response": "A or B?\nB"}"#).as_bytes()).unwrap();
/// let r = score(&key, &p).unwrap();
/// let t = extraction_robustness(&[("m".into(), &r)], 2);
/// // official: C (phrase), B (last line) -> 2; strict: C, none -> 1; lenient: C, A -> 1.
/// assert_eq!(t.rows[0].correct, [2, 1, 1]);
/// assert_eq!(t.rows[0].flips.len(), 1);
/// ```
pub fn extraction_robustness(
    models: &[(String, &MmiqReport)],
    benchmark_size: usize,
) -> ExtractionRobustness {
    let mut rows: Vec<ExtractionRow> = models
        .iter()
        .map(|(name, report)| {
            let mut correct = [0usize; 3];
            let mut responses = 0;
            let mut flips = Vec::new();
            for item in &report.items {
                let (letters, ok) = match &item.response {
                    Some(r) => {
                        responses += 1;
                        let letters = EXTRACTORS.map(|e| e.extract(r).unwrap_or('Z'));
                        (letters, letters.map(|l| l == item.key))
                    }
                    None => {
                        let l = item.parsed.chars().next().unwrap_or('Z');
                        ([l; 3], [item.correct; 3])
                    }
                };
                for (c, o) in correct.iter_mut().zip(ok) {
                    *c += usize::from(o);
                }
                if ok.iter().any(|&o| o != ok[0]) {
                    flips.push(Flip {
                        data_id: item.data_id,
                        key: item.key,
                        letters,
                        correct: ok,
                        response: item
                            .response
                            .as_deref()
                            .unwrap_or_default()
                            .chars()
                            .take(300)
                            .collect(),
                    });
                }
            }
            flips.sort_by_key(|f| f.data_id);
            let denom = benchmark_size.max(report.items.len()).max(1) as f64;
            let scores = correct.map(|c| c as f64 / denom);
            let (lo, hi) = scores
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &s| {
                    (l.min(s), h.max(s))
                });
            ExtractionRow {
                name: name.clone(),
                responses,
                correct,
                scores,
                ranks: [0; 3],
                score_range: hi - lo,
                rank_change: 0,
                flips,
            }
        })
        .collect();
    for v in 0..3 {
        let s: Vec<f64> = rows.iter().map(|r| r.scores[v]).collect();
        for (i, r) in rows.iter_mut().enumerate() {
            r.ranks[v] = 1 + s.iter().filter(|&&x| x > s[i]).count();
        }
    }
    for r in &mut rows {
        r.rank_change = r.ranks.iter().max().unwrap_or(&0) - r.ranks.iter().min().unwrap_or(&0);
    }
    rows.sort_by(|a, b| {
        b.scores[0]
            .total_cmp(&a.scores[0])
            .then_with(|| a.name.cmp(&b.name))
    });
    let mut notes = Vec::new();
    for r in &rows {
        if r.responses == 0 {
            notes.push(format!(
                "{}: the file gives extracted letters only (no responses), so every extractor gives the same score",
                r.name
            ));
        }
    }
    ExtractionRobustness {
        extractors: EXTRACTORS.iter().map(|e| e.name().to_string()).collect(),
        benchmark_size,
        rows,
        notes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_takes_the_last_explicit_answer_only() {
        assert_eq!(strict_choice("Answer: (D)"), Some('D'));
        assert_eq!(strict_choice("The answer is option b."), Some('B'));
        assert_eq!(
            strict_choice("answer is A. On reflection the correct answer is E"),
            Some('E')
        );
        assert_eq!(strict_choice("\\boxed{C}"), Some('C'));
        // "answer is Blue": B is not standalone.
        assert_eq!(strict_choice("The answer is Blue"), None);
        assert_eq!(strict_choice("C"), None);
        assert_eq!(strict_choice("I pick (A)"), None);
    }

    #[test]
    fn lenient_takes_the_first_standalone_letter() {
        // "The answer is C." -> C (the letters of words are not standalone).
        assert_eq!(lenient_choice("The answer is C."), Some('C'));
        assert_eq!(lenient_choice("(B) or (C)? C."), Some('B'));
        assert_eq!(lenient_choice("A cube"), Some('A'));
        assert_eq!(lenient_choice("none fits"), None);
    }
}
