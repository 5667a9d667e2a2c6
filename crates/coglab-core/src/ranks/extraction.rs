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

/// KiVA stage answers under two reading rules.
///
/// - `official`: the released verdicts (`MCResponse#k`, or the repository's earliest-token rule
///   on raw answers, [`crate::kiva::score_response`]);
/// - `strict`: only an explicit answer counts: the verdict stands when the answer's first two
///   non-empty lines (where the chosen option is stated, before the reasoning) name exactly one
///   option token (`(3)`, `(B)`: one digit or capital letter in parentheses); otherwise the
///   regeneration counts wrong ([`states_one_option`]).
///
/// A lenient variant cannot be scored on the released runs: they record the verdict but not the
/// option order, so a different token than the one the repository read has no known verdict.
/// Rows without an answer column (`Full#k`) keep their official verdict under both rules.
pub const KIVA_RULES: [&str; 2] = ["official", "strict"];

/// Whether a KiVA answer states one option up front: its first two non-empty lines name
/// exactly one distinct option token `(X)`, X a digit or a capital letter.
///
/// # Examples
/// ```
/// use coglab_core::ranks::extraction::states_one_option;
/// assert!(states_one_option("(3) Color of objects\n\nStep-by-step reasoning:\n- rule (2) does not apply"));
/// // A second option named in the first two lines: not one explicit answer.
/// assert!(!states_one_option("(3) Color of objects\nRule (2) does not apply"));
/// assert!(states_one_option("The rule is:\n\n(1) Orientation of objects\n\nReasoning..."));
/// assert!(!states_one_option("Either (1) or (3) could fit."));
/// assert!(!states_one_option("Let me think.\nThe objects rotate.\nSo (3)."));
/// ```
pub fn states_one_option(answer: &str) -> bool {
    let head: Vec<&str> = answer
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take(2)
        .collect();
    let mut found: Option<char> = None;
    for line in head {
        let chars: Vec<char> = line.chars().collect();
        for w in chars.windows(3) {
            if w[0] == '(' && w[2] == ')' && (w[1].is_ascii_digit() || w[1].is_ascii_uppercase()) {
                match found {
                    None => found = Some(w[1]),
                    Some(c) if c == w[1] => {}
                    Some(_) => return false,
                }
            }
        }
    }
    found.is_some()
}

/// One regeneration whose verdict differs between the rules.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KivaFlip {
    /// Trial (`Subdomain#variation`).
    pub trial: String,
    /// Regeneration number.
    pub regeneration: u64,
    /// Line in the run file.
    pub line: usize,
    /// The answer (cut to 300 characters).
    pub answer: String,
}

/// One KiVA run under the two rules.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KivaExtractionRow {
    /// Model name.
    pub name: String,
    /// Trials of the stage.
    pub trials: usize,
    /// Regenerations with an answer text.
    pub with_text: usize,
    /// Stage mean over trials (regenerations averaged in the trial) under each rule.
    pub scores: [f64; 2],
    /// Rank under each rule.
    pub ranks: [usize; 2],
    /// Official minus strict.
    pub score_range: f64,
    /// Worst minus best rank.
    pub rank_change: usize,
    /// Regenerations right under the official rule and wrong under the strict one.
    pub flips: Vec<KivaFlip>,
}

/// KiVA runs under the official and the strict rule ([`KIVA_RULES`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KivaExtraction {
    /// The rules, in column order.
    pub rules: Vec<String>,
    /// The stage (1, 2 or 3; stage 2 counts a skipped stage as 0).
    pub stage: usize,
    /// The runs, in the official rule's order.
    pub rows: Vec<KivaExtractionRow>,
    /// Files that could not be read, and other things to know.
    pub notes: Vec<String>,
}

/// One model's run files: its name and `(path, bytes)` of each CSV.
pub type KivaRunFiles = (String, Vec<(String, Vec<u8>)>);

/// Reads each model's run files (`(path, bytes)`) and scores `stage` (1-3) under the two rules.
/// A file that cannot be read is named in the notes and left out.
///
/// # Examples
/// ```
/// use coglab_core::ranks::extraction::kiva_extraction_robustness;
/// let csv = "Variation,Regeneration,Full#1,MCResponse#1,MCResponse#2,MCResponse#3\n\
///            0,0,(2) Colour,1,1,1\n0,1,(2) or (3),1,1,1\n";
/// let t = kiva_extraction_robustness(
///     &[("m".into(), vec![("m/output_Colour/ColourRed.csv".into(), csv.as_bytes().to_vec())])], 1);
/// // One trial, two regenerations right; the second names two options up front.
/// assert_eq!(t.rows[0].scores, [1.0, 0.5]);
/// assert_eq!(t.rows[0].flips[0].regeneration, 1);
/// ```
pub fn kiva_extraction_robustness(models: &[KivaRunFiles], stage: usize) -> KivaExtraction {
    let stage = stage.clamp(1, 3);
    let kind = [
        crate::kiva::Stage::Cross,
        crate::kiva::Stage::Within,
        crate::kiva::Stage::Extrapolation,
    ][stage - 1];
    let mut notes = Vec::new();
    let mut rows: Vec<KivaExtractionRow> = models
        .iter()
        .map(|(name, files)| {
            // trial -> per regeneration (official, strict)
            let mut trials: std::collections::BTreeMap<String, Vec<(f64, f64)>> =
                std::collections::BTreeMap::new();
            let mut flips = Vec::new();
            let mut with_text = 0;
            for (path, bytes) in files {
                let (file, answers) = match crate::kiva::run_with_answers(path, bytes) {
                    Ok(x) => x,
                    Err(e) => {
                        notes.push(format!("{name}: {e}"));
                        continue;
                    }
                };
                for (row, text) in file.rows.iter().zip(&answers) {
                    let official = row.outcomes[stage - 1].score(kind).unwrap_or(0.0);
                    let text = text[stage - 1].as_deref();
                    let strict = match text {
                        Some(t) => {
                            with_text += 1;
                            if states_one_option(t) {
                                official
                            } else {
                                0.0
                            }
                        }
                        None => official,
                    };
                    let trial = format!("{}#{}", file.subdomain, row.variation);
                    if strict != official {
                        flips.push(KivaFlip {
                            trial: trial.clone(),
                            regeneration: row.regeneration,
                            line: row.line,
                            answer: text.unwrap_or_default().chars().take(300).collect(),
                        });
                    }
                    trials.entry(trial).or_default().push((official, strict));
                }
            }
            let n = trials.len().max(1) as f64;
            let mean = |pick: fn(&(f64, f64)) -> f64| {
                trials
                    .values()
                    .map(|r| r.iter().map(pick).sum::<f64>() / r.len() as f64)
                    .sum::<f64>()
                    / n
            };
            let scores = [mean(|r| r.0), mean(|r| r.1)];
            KivaExtractionRow {
                name: name.clone(),
                trials: trials.len(),
                with_text,
                scores,
                ranks: [0; 2],
                score_range: (scores[0] - scores[1]).abs(),
                rank_change: 0,
                flips,
            }
        })
        .collect();
    for v in 0..2 {
        let s: Vec<f64> = rows.iter().map(|r| r.scores[v]).collect();
        for (i, r) in rows.iter_mut().enumerate() {
            r.ranks[v] = 1 + s.iter().filter(|&&x| x > s[i]).count();
        }
    }
    for r in &mut rows {
        r.rank_change = r.ranks[0].abs_diff(r.ranks[1]);
        if r.with_text == 0 {
            notes.push(format!(
                "{}: no answer texts (Full#{stage}) in the files: both rules give the released verdicts",
                r.name
            ));
        }
    }
    rows.sort_by(|a, b| {
        b.scores[0]
            .total_cmp(&a.scores[0])
            .then_with(|| a.name.cmp(&b.name))
    });
    KivaExtraction {
        rules: KIVA_RULES.iter().map(|s| (*s).to_string()).collect(),
        stage,
        rows,
        notes,
    }
}
