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
//!
//! KiVA stage answers ([`kiva_extraction_robustness`]): the released verdicts, a strict reading
//! (one option stated up front) and a lenient one (the first option label or option text
//! anywhere, [`kiva_lenient`]); see [`KIVA_RULES`] for what the released files allow.

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
    /// Items whose verdict differs between extractors (all of them;
    /// [`ExtractionRobustness::cap_flips`] cuts the list for display).
    pub flips: Vec<Flip>,
    /// Flips before any cut.
    #[serde(default)]
    pub flip_count: usize,
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

impl ExtractionRobustness {
    /// Keeps at most `cap` flips per row (the count stays in `flip_count`).
    pub fn cap_flips(&mut self, cap: usize) {
        for r in &mut self.rows {
            r.flips.truncate(cap);
        }
    }
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
                flip_count: flips.len(),
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

/// KiVA stage answers under three reading rules.
///
/// - `official`: the released verdicts (`MCResponse#k`, or the repository's earliest-token rule
///   on raw answers, [`crate::kiva::score_response`]);
/// - `strict`: only an explicit answer counts: the verdict stands when the answer's first two
///   non-empty lines (where the chosen option is stated, before the reasoning) name exactly one
///   option token (`(3)`, `(B)`: one digit or capital letter in parentheses); otherwise the
///   regeneration counts wrong ([`states_one_option`]);
/// - `lenient`: the first option reference anywhere in the answer, a bare option label (`3`,
///   `(3)`, `C`) or an option text (`Color of objects`), as a naive harness would read it
///   ([`kiva_lenient`]).
///
/// The released runs record each regeneration's verdict but not the order in which its options
/// were shown (it is shuffled per regeneration), so a lenient reading that lands on another
/// label than the repository's has a known verdict only in some cases (see [`kiva_lenient`]);
/// the others are *undetermined*, counted wrong in the lenient score (named default), and the
/// score with them counted right is given beside it (`lenient_high`).
/// Rows without an answer column (`Full#k`) keep their official verdict under every rule.
pub const KIVA_RULES: [&str; 3] = ["official", "strict", "lenient"];

/// The stage-1 option texts (data README: the right domain plus two others, shuffled, then the
/// two fixed options).
const KIVA_STAGE1_TEXTS: [&str; 6] = [
    "Orientation of objects",
    "Number of objects",
    "Color of objects",
    "Size of objects",
    crate::selftest::NO_CHANGE,
    crate::selftest::DOESNT_APPLY,
];

/// The option texts a KiVA stage can show for `subdomain`, each with whether it is the right
/// one; empty for stage 3 (its options are pictures) and for an unknown subdomain.
///
/// Stage 1: the four domain texts and the two fixed options; the right one is the subdomain's
/// domain (rotation and reflection are both "Orientation of objects"). Stage 2: every rule text
/// of the subdomain's domain in either variant's wording (the released KiVA runs word rotations
/// "Objects turn 90 degrees", the self-test "Objects rotate by 90 degrees"; both are read) and
/// the two fixed options; the right one is the subdomain's rule.
///
/// # Examples
/// ```
/// use coglab_core::ranks::extraction::kiva_option_texts;
/// let t = kiva_option_texts("ColourRed", 2);
/// assert!(t.contains(&("Objects turn Red".to_string(), true)));
/// assert!(t.contains(&("Objects turn Green".to_string(), false)));
/// assert!(kiva_option_texts("ColourRed", 3).is_empty());
/// ```
pub fn kiva_option_texts(subdomain: &str, stage: usize) -> Vec<(String, bool)> {
    use crate::kiva::{domain_of, Variant};
    use crate::selftest::{domain_text, Rule, DOESNT_APPLY, NO_CHANGE};
    let Some(domain) = domain_of(subdomain) else {
        return Vec::new();
    };
    match stage {
        1 => KIVA_STAGE1_TEXTS
            .iter()
            .map(|t| ((*t).to_string(), *t == domain_text(domain)))
            .collect(),
        2 => {
            let Some(rule) = Rule::of(subdomain) else {
                return Vec::new();
            };
            let variants = [Variant::Kiva, Variant::KivaAdults];
            let right: Vec<String> = variants.iter().map(|&v| rule.text(v)).collect();
            let mut out: Vec<(String, bool)> = Vec::new();
            for v in variants {
                for s in v
                    .subdomains()
                    .iter()
                    .filter(|s| domain_of(s) == Some(domain))
                {
                    if let Some(r) = Rule::of(s) {
                        for w in variants {
                            let t = r.text(w);
                            if !out.iter().any(|(x, _)| *x == t) {
                                let ok = right.contains(&t);
                                out.push((t, ok));
                            }
                        }
                    }
                }
            }
            out.push((NO_CHANGE.to_string(), false));
            out.push((DOESNT_APPLY.to_string(), false));
            out
        }
        _ => Vec::new(),
    }
}

/// The option labels of a KiVA stage: `1`-`6` (stage 1), `1`-`4` (stage 2), `A`-`D` (stage 3).
fn kiva_labels(stage: usize) -> &'static [char] {
    match stage {
        1 => &['1', '2', '3', '4', '5', '6'],
        2 => &['1', '2', '3', '4'],
        _ => &['A', 'B', 'C', 'D'],
    }
}

/// What the lenient rule read in one KiVA answer, and its verdict when it is known.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum LenientReading {
    /// No option label or option text anywhere: wrong (as the repository's `Null`).
    Nothing,
    /// An option text came first; right when it is the subdomain's.
    Text {
        /// The option text, as listed by [`kiva_option_texts`].
        text: String,
        /// Whether it is the right option.
        right: bool,
    },
    /// A bare option label came first.
    Label {
        /// The label (`3`, `C`).
        label: char,
        /// Its verdict, when the file lets one know it.
        verdict: Option<bool>,
        /// How the verdict was known, or why not.
        how: String,
    },
}

impl LenientReading {
    /// The verdict (`None`: undetermined).
    pub fn verdict(&self) -> Option<bool> {
        match self {
            LenientReading::Nothing => Some(false),
            LenientReading::Text { right, .. } => Some(*right),
            LenientReading::Label { verdict, .. } => *verdict,
        }
    }

    /// A short description for the flips list.
    pub fn describe(&self) -> String {
        match self {
            LenientReading::Nothing => "no option named".into(),
            LenientReading::Text { text, .. } => format!("text \"{text}\""),
            LenientReading::Label { label, how, .. } => format!("{label}: {how}"),
        }
    }
}

/// Whether byte `i` of `s` starts a standalone label: the character before is not a letter,
/// digit, `_` or `.`, and the one after is not a letter, digit or `_`, nor a `.` followed by a
/// digit (so `0.5` and `90` hold no label, `(3)` and `1.` do).
fn standalone_at(b: &[u8], i: usize) -> bool {
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let before_ok = i == 0 || !(word(b[i - 1]) || b[i - 1] == b'.' || b[i - 1] >= 0x80);
    let after_ok = match b.get(i + 1) {
        None => true,
        Some(&c) if word(c) || c >= 0x80 => false,
        Some(b'.') => !b.get(i + 2).is_some_and(u8::is_ascii_digit),
        Some(_) => true,
    };
    before_ok && after_ok
}

/// The lenient reading of a KiVA stage answer ([`KIVA_RULES`]): the earliest option reference
/// in `answer`, either a standalone option label of the stage (`3`, `(3)`, `C`; [`kiva_labels`])
/// or an option text ([`kiva_option_texts`], any case; at one position the longest text). Its
/// verdict:
///
/// - an option text: right when it is the subdomain's option (known without the option order);
/// - the label the repository read (its earliest `(X)` token): the released verdict `official`;
/// - another label the answer itself ties to a text (`(2) Objects turn Red` anywhere in it):
///   that text's verdict;
/// - another label when the released verdict is right: wrong (one option is right, and it is
///   the repository's);
/// - stage 3's `D` ("none of the options apply"): wrong (a right picture is always shown);
/// - else undetermined (`None`): which option a label stood for is not in the file.
///
/// # Examples
/// ```
/// use coglab_core::kiva::Outcome;
/// use coglab_core::ranks::extraction::{kiva_lenient, LenientReading};
/// // The text comes before any label: right for a colour trial.
/// let r = kiva_lenient("The color of objects changed. (2)", "ColourRed", 1, Outcome::Wrong);
/// assert_eq!(r.verdict(), Some(true));
/// // "1." heads a list before the repository's "(4)"; the answer itself says "(1) Color of objects".
/// let r = kiva_lenient("1. The color changes.\n(4) does not apply.\n(1) Color of objects", "Resize2XY", 1, Outcome::Wrong);
/// assert_eq!(r.verdict(), Some(false));
/// // A label other than the repository's wrong one, tied to nothing: undetermined.
/// let r = kiva_lenient("down by 2, so (4) Doesn't apply", "Counting+2", 2, Outcome::Wrong);
/// assert_eq!(r.verdict(), None);
/// ```
pub fn kiva_lenient(
    answer: &str,
    subdomain: &str,
    stage: usize,
    official: crate::kiva::Outcome,
) -> LenientReading {
    let labels = kiva_labels(stage);
    let texts = kiva_option_texts(subdomain, stage);
    let lower = answer.to_ascii_lowercase();
    let b = answer.as_bytes();
    let lowered: Vec<(String, bool)> = texts
        .iter()
        .map(|(t, r)| (t.to_ascii_lowercase(), *r))
        .collect();
    // The longest option text starting at byte i.
    let text_at = |i: usize| -> Option<usize> {
        lowered
            .iter()
            .enumerate()
            .filter(|(_, (t, _))| lower[i..].starts_with(t.as_str()))
            .max_by_key(|(_, (t, _))| t.len())
            .map(|(k, _)| k)
    };
    let is_label = |i: usize| labels.contains(&char::from(b[i])) && standalone_at(b, i);
    // The repository's token: the earliest "(X)".
    let official_label = labels
        .iter()
        .filter_map(|&l| answer.find(&format!("({l})")).map(|i| (i, l)))
        .min()
        .map(|(_, l)| l);
    let first = (0..b.len()).find_map(|i| {
        if !lower.is_char_boundary(i) {
            return None;
        }
        if let Some(k) = text_at(i) {
            return Some(Err(k));
        }
        is_label(i).then(|| Ok(char::from(b[i])))
    });
    let label = match first {
        None => return LenientReading::Nothing,
        Some(Err(k)) => {
            return LenientReading::Text {
                text: texts[k].0.clone(),
                right: texts[k].1,
            }
        }
        Some(Ok(l)) => l,
    };
    let right = official == crate::kiva::Outcome::Correct;
    let (verdict, how) = if Some(label) == official_label {
        (Some(right), "the option the repository read".to_string())
    } else if let Some(k) = (0..b.len())
        .filter(|&i| b[i] == label as u8 && is_label(i))
        .find_map(|i| {
            let mut j = i + 1;
            while j < b.len()
                && matches!(
                    b[j],
                    b')' | b' ' | b':' | b'-' | b'*' | b'"' | b'\'' | b'\t'
                )
            {
                j += 1;
            }
            (j < b.len() && lower.is_char_boundary(j))
                .then(|| text_at(j))
                .flatten()
        })
    {
        (
            Some(texts[k].1),
            format!("the answer ties it to \"{}\"", texts[k].0),
        )
    } else if right {
        (
            Some(false),
            "another option than the repository's right one".to_string(),
        )
    } else if stage == 3 && label == 'D' {
        (Some(false), "\"none of the options apply\"".to_string())
    } else {
        (
            None,
            "undetermined: the file does not record which option this label stood for".to_string(),
        )
    };
    LenientReading::Label {
        label,
        verdict,
        how,
    }
}

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
    /// The verdict under each rule ([`KIVA_RULES`] order; an undetermined lenient reading
    /// counts 0 here, see `lenient_undetermined`).
    pub verdicts: [f64; 3],
    /// The lenient reading is undetermined.
    #[serde(default)]
    pub lenient_undetermined: bool,
    /// What the lenient rule read ([`LenientReading::describe`]).
    #[serde(default)]
    pub lenient: String,
    /// The answer (cut to 300 characters).
    pub answer: String,
}

/// One KiVA run under the three rules.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KivaExtractionRow {
    /// Model name.
    pub name: String,
    /// Trials of the stage.
    pub trials: usize,
    /// Regenerations with an answer text.
    pub with_text: usize,
    /// Stage mean over trials (regenerations averaged in the trial) under each rule
    /// ([`KIVA_RULES`] order; lenient with undetermined readings counted wrong).
    pub scores: [f64; 3],
    /// The lenient score with the undetermined readings counted right (the upper end of what
    /// the lenient rule could give).
    pub lenient_high: f64,
    /// Regenerations whose lenient reading is undetermined.
    pub lenient_undetermined: usize,
    /// Rank under each rule.
    pub ranks: [usize; 3],
    /// Highest minus lowest score over the rules.
    pub score_range: f64,
    /// Worst minus best rank.
    pub rank_change: usize,
    /// Regenerations whose verdict differs between the rules (or whose lenient reading is
    /// undetermined), all of them; [`KivaExtraction::cap_flips`] cuts the list for display.
    pub flips: Vec<KivaFlip>,
    /// Flips before any cut.
    #[serde(default)]
    pub flip_count: usize,
}

/// KiVA runs under the official, strict and lenient rules ([`KIVA_RULES`]).
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

impl KivaExtraction {
    /// Keeps at most `cap` flips per row (the count stays in `flip_count`).
    pub fn cap_flips(&mut self, cap: usize) {
        for r in &mut self.rows {
            r.flips.truncate(cap);
        }
    }
}

/// One model's run files: its name and `(path, bytes)` of each CSV.
pub type KivaRunFiles = (String, Vec<(String, Vec<u8>)>);

/// Reads each model's run files (`(path, bytes)`) and scores `stage` (1-3) under the three
/// rules. A file that cannot be read is named in the notes and left out.
///
/// # Examples
/// ```
/// use coglab_core::ranks::extraction::kiva_extraction_robustness;
/// let csv = "Variation,Regeneration,Full#1,MCResponse#1,MCResponse#2,MCResponse#3\n\
///            0,0,(2) Colour,1,1,1\n0,1,(2) or (3),1,1,1\n0,2,Color of objects,Null,,0\n";
/// let t = kiva_extraction_robustness(
///     &[("m".into(), vec![("m/output_Colour/ColourRed.csv".into(), csv.as_bytes().to_vec())])], 1);
/// // One trial of three regenerations: official 1, 1, 0; strict 1, 0 (two options up front),
/// // 0; lenient 1, 1 (the repository's "(2)"), 1 (the right option's text).
/// let s = t.rows[0].scores;
/// assert_eq!(s.map(|x| (x * 3.0).round()), [2.0, 1.0, 3.0]);
/// assert_eq!(t.rows[0].flips.len(), 2);
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
            // trial -> per regeneration [official, strict, lenient, lenient_high]
            let mut trials: std::collections::BTreeMap<String, Vec<[f64; 4]>> =
                std::collections::BTreeMap::new();
            let mut flips = Vec::new();
            let mut with_text = 0;
            let mut undetermined = 0;
            for (path, bytes) in files {
                let (file, answers) = match crate::kiva::run_with_answers(path, bytes) {
                    Ok(x) => x,
                    Err(e) => {
                        notes.push(format!("{name}: {e}"));
                        continue;
                    }
                };
                for (row, text) in file.rows.iter().zip(&answers) {
                    let outcome = row.outcomes[stage - 1];
                    let official = outcome.score(kind).unwrap_or(0.0);
                    let text = text[stage - 1].as_deref();
                    // A skipped stage 2 ("[Skipped ...]", empty verdict) is 0 under every rule.
                    let answered =
                        text.filter(|_| !(stage == 2 && outcome == crate::kiva::Outcome::Empty));
                    let (strict, lenient) = match answered {
                        Some(t) => {
                            with_text += 1;
                            let strict = if states_one_option(t) { official } else { 0.0 };
                            (
                                strict,
                                Some(kiva_lenient(t, &file.subdomain, stage, outcome)),
                            )
                        }
                        None => (official, None),
                    };
                    let (len_low, len_high, undet) = match lenient.as_ref().map(|l| l.verdict()) {
                        None => (official, official, false),
                        Some(Some(v)) => {
                            let x = f64::from(u8::from(v));
                            (x, x, false)
                        }
                        Some(None) => (0.0, 1.0, true),
                    };
                    undetermined += usize::from(undet);
                    let trial = format!("{}#{}", file.subdomain, row.variation);
                    if strict != official || len_low != official || undet {
                        flips.push(KivaFlip {
                            trial: trial.clone(),
                            regeneration: row.regeneration,
                            line: row.line,
                            verdicts: [official, strict, len_low],
                            lenient_undetermined: undet,
                            lenient: lenient
                                .as_ref()
                                .map(LenientReading::describe)
                                .unwrap_or_default(),
                            answer: text.unwrap_or_default().chars().take(300).collect(),
                        });
                    }
                    trials
                        .entry(trial)
                        .or_default()
                        .push([official, strict, len_low, len_high]);
                }
            }
            let n = trials.len().max(1) as f64;
            let mean = |k: usize| {
                trials
                    .values()
                    .map(|r| r.iter().map(|x| x[k]).sum::<f64>() / r.len() as f64)
                    .sum::<f64>()
                    / n
            };
            let scores = [mean(0), mean(1), mean(2)];
            let (lo, hi) = scores
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &s| {
                    (l.min(s), h.max(s))
                });
            let flip_count = flips.len();
            KivaExtractionRow {
                name: name.clone(),
                trials: trials.len(),
                with_text,
                scores,
                lenient_high: mean(3),
                lenient_undetermined: undetermined,
                ranks: [0; 3],
                score_range: hi - lo,
                rank_change: 0,
                flips,
                flip_count,
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
        if r.with_text == 0 {
            notes.push(format!(
                "{}: no answer texts (Full#{stage}) in the files: every rule gives the released verdicts",
                r.name
            ));
        }
        if r.lenient_undetermined > 0 {
            notes.push(format!(
                "{}: {} lenient reading(s) undetermined (a label other than the repository's, on a \
                 regeneration it scored wrong, which the answer ties to no option text: the run \
                 files do not record the option order); counted wrong, lenient {:.1} with them right",
                r.name,
                r.lenient_undetermined,
                100.0 * r.lenient_high
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
