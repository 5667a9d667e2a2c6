//! MM-IQ answer extraction: the letter MM-IQ's released script (`utils/eval_utils.py`,
//! `extract_choice` / `parse_multi_choice_response`) takes from a free-form response.
//!
//! The rules, in order:
//! 1. `\boxed{X}` with X in A-E: the first such X.
//! 2. For each phrase of [`ANSWER_PHRASES`] in order, if it occurs in the current response,
//!    the response becomes the text after its **last** occurrence, stripped; the replacement
//!    is cumulative (later phrases are looked for in what earlier ones left).
//! 3. If any phrase matched: the first standalone letter A-E (`\b[A-E]\b`) in what is left,
//!    else no answer.
//! 4. If none matched: no answer when the response has more than 10 whitespace-separated words
//!    and no standalone A-E; otherwise the lines are scanned from last to first and the first
//!    standalone A-E of the first line that has one is the answer.
//! 5. No answer is recorded as `Z` (always wrong).
//!
//! # How this is made fast without changing the result
//! * Rule 2 only ever shortens the response to a suffix (`[start, end)` of the stripped text, with
//!   `end` fixed). A phrase occurs in the suffix iff its last occurrence in the whole stripped text
//!   starts at or after `start`, and no phrase overlaps itself (tested), so Python's
//!   `split(p)[-1]` is the text after that last occurrence. So one pass finds the last
//!   occurrence of every phrase, and the cumulative replacement is then replayed on offsets.
//! * Every phrase contains `answer`, `option` or `pattern is`: the pass looks for these three
//!   anchors with `memchr::memmem` and checks the phrases around each hit.
//! * In rule 4 the word-count test never changes the outcome: when there is no standalone letter
//!   the line scan finds none either. The scan itself is "the last standalone letter, then the
//!   first standalone letter of its line".
//!
//! `\b` follows Python's `re` on `str`: a word character is one for which Python 3.11's
//! `str.isalnum()` is true, or `_` (Rust's `char::is_alphanumeric` minus the characters listed in
//! `pyword.rs`, e.g. Ⓐ or combining vowel signs, which Python does not count); the start and end
//! of the (current) text count as boundaries. Whitespace is Python's: Unicode `White_Space` plus
//! U+001C-U+001F. A differential test against the released Python function on 50,000 random
//! responses built from the phrases, letters, punctuation and awkward Unicode agreed on every one.

use memchr::memmem;
use std::sync::OnceLock;

/// The answer phrases of MM-IQ's released script, in the order it applies them.
pub const ANSWER_PHRASES: [&str; 24] = [
    "The best answer is",
    "The correct answer is",
    "correct answer is",
    "The answer is",
    "The answer",
    "answer is",
    "The best option is",
    "best option is",
    "The correct option is",
    "correct option is",
    "Best answer:",
    "Best option:",
    "best answer:",
    "best option:",
    "question mark is option ",
    "Thus, the correct answer is option ",
    "Hence, the answer is option ",
    "So, the answer is option ",
    "Thus, the answer is option ",
    "Therefore, the answer is option ",
    "So, the correct answer is option ",
    "Hence, the correct answer is option ",
    "Therefore, the most appropriate answer to fill in the question mark is option ",
    "The different pattern is",
];

/// The letter recorded when no answer can be extracted (MM-IQ's script records `"Z"`).
pub const NO_ANSWER: char = 'Z';

/// Which rule produced an extraction result (for item-level views and debugging).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ExtractRule {
    /// Rule 1: `\boxed{X}`.
    Boxed,
    /// Rules 2-3: after an answer phrase (the index into [`ANSWER_PHRASES`] of the last phrase
    /// that matched is in [`Extraction::phrase`]).
    Phrase,
    /// Rule 4: line scan from the last line.
    LineScan,
}

/// The result of extracting an answer from one response.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Extraction {
    /// The extracted letter `A`-`E`, or `None` (recorded as `Z`).
    pub letter: Option<char>,
    /// The rule that decided.
    pub rule: ExtractRule,
    /// Index into [`ANSWER_PHRASES`] of the last phrase that matched, if any.
    pub phrase: Option<usize>,
}

impl Extraction {
    /// The letter as MM-IQ records it: `A`-`E`, or [`NO_ANSWER`] (`Z`).
    pub fn recorded(&self) -> char {
        self.letter.unwrap_or(NO_ANSWER)
    }
}

/// Extracts the answer letter from a free-form response exactly as MM-IQ's released script
/// does (rules in the [module docs](self)); `None` means no answer (recorded as `Z`).
///
/// # Examples
/// ```
/// use coglab_core::mmiq::extract::extract_choice;
/// assert_eq!(extract_choice("The correct answer is option B."), Some('B'));
/// assert_eq!(extract_choice("I think (C) fits.\nFinal: D"), Some('D'));
/// assert_eq!(extract_choice("The answer is unclear from the picture."), None);
/// ```
pub fn extract_choice(response: &str) -> Option<char> {
    extract(response).letter
}

/// [`extract_choice`] with the rule that decided.
///
/// # Examples
/// ```
/// use coglab_core::mmiq::extract::{extract, ExtractRule};
/// let e = extract("Hence \\boxed{E}");
/// assert_eq!((e.letter, e.rule), (Some('E'), ExtractRule::Boxed));
/// ```
pub fn extract(response: &str) -> Extraction {
    if let Some(letter) = boxed_letter(response) {
        return Extraction {
            letter: Some(letter),
            rule: ExtractRule::Boxed,
            phrase: None,
        };
    }
    let text = response.as_bytes();
    let (start0, end) = strip_range(response, 0, text.len());
    let last = last_phrase_occurrences(&text[..end], start0);
    // Replay the cumulative replacement on offsets.
    let mut start = start0;
    let mut phrase = None;
    for (i, p) in ANSWER_PHRASES.iter().enumerate() {
        if let Some(pos) = last[i] {
            if pos >= start {
                start = strip_range(response, pos + p.len(), end).0;
                phrase = Some(i);
            }
        }
    }
    if phrase.is_some() {
        return Extraction {
            letter: first_standalone(text, start, end, start, end),
            rule: ExtractRule::Phrase,
            phrase,
        };
    }
    // Rule 4. (The "> 10 words and no standalone letter" early exit gives the same `None` as the
    // scan below, which finds no letter in that case.)
    let letter = last_standalone(text, start, end, start, end).and_then(|pos| {
        let line_start = memchr::memrchr(b'\n', &text[start..pos]).map_or(start, |i| start + i + 1);
        first_standalone(text, line_start, pos + 1, start, end)
    });
    Extraction {
        letter,
        rule: ExtractRule::LineScan,
        phrase: None,
    }
}

/// Rule 1: the first `\boxed{X}` with X in A-E.
fn boxed_letter(response: &str) -> Option<char> {
    const OPEN: &[u8] = b"\\boxed{";
    static FINDER: OnceLock<memmem::Finder<'static>> = OnceLock::new();
    let finder = FINDER.get_or_init(|| memmem::Finder::new(OPEN));
    let text = response.as_bytes();
    finder.find_iter(text).find_map(|i| {
        let j = i + OPEN.len();
        match (text.get(j), text.get(j + 1)) {
            (Some(&c @ b'A'..=b'E'), Some(b'}')) => Some(char::from(c)),
            _ => None,
        }
    })
}

/// Whitespace as Python's `str.strip()` / `str.split()` see it: Unicode `White_Space` plus the
/// ASCII file, group, record and unit separators (U+001C-U+001F).
fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// A word character for Python's `re` `\b` on `str` patterns (see the module docs).
fn is_py_word(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || c == '_';
    }
    c.is_alphanumeric() && !super::pyword::rust_only_alnum(c)
}

/// The sub-range of `s[from..to]` without leading and trailing Python whitespace.
fn strip_range(s: &str, from: usize, to: usize) -> (usize, usize) {
    let Some(slice) = s.get(from..to) else {
        return (to, to);
    };
    let trimmed_start = slice.trim_start_matches(is_py_space);
    let start = to - trimmed_start.len();
    let trimmed = trimmed_start.trim_end_matches(is_py_space);
    (start, start + trimmed.len())
}

/// One anchor word and the phrases found through it, with the anchor's offset in each phrase.
struct Anchor {
    finder: memmem::Finder<'static>,
    phrases: Vec<(usize, usize)>,
}

fn anchors() -> &'static [Anchor] {
    static ANCHORS: OnceLock<Vec<Anchor>> = OnceLock::new();
    ANCHORS.get_or_init(|| {
        let words = ["answer", "option", "pattern is"];
        let mut out: Vec<Anchor> = words
            .iter()
            .map(|w| Anchor {
                finder: memmem::Finder::new(w.as_bytes()).into_owned(),
                phrases: Vec::new(),
            })
            .collect();
        for (i, p) in ANSWER_PHRASES.iter().enumerate() {
            // The first anchor word (in `words` order) the phrase contains; every phrase has one
            // (checked by a test).
            if let Some((a, off)) = words
                .iter()
                .enumerate()
                .find_map(|(a, w)| p.find(w).map(|off| (a, off)))
            {
                out[a].phrases.push((i, off));
            }
        }
        out
    })
}

/// For every phrase, the start of its last occurrence in `text` that begins at or after `from`.
fn last_phrase_occurrences(text: &[u8], from: usize) -> [Option<usize>; 24] {
    let mut last = [None; 24];
    let hay = &text[from.min(text.len())..];
    for anchor in anchors() {
        for hit in anchor.finder.find_iter(hay) {
            let hit = hit + from;
            for &(i, off) in &anchor.phrases {
                let p = ANSWER_PHRASES[i].as_bytes();
                if hit >= off + from && text.get(hit - off..hit - off + p.len()) == Some(p) {
                    last[i] = Some(hit - off);
                }
            }
        }
    }
    last
}

/// The character that ends just before byte `i` (which is on a char boundary), if any.
fn char_before(text: &[u8], i: usize) -> Option<char> {
    let b = *text.get(i.checked_sub(1)?)?;
    if b < 0x80 {
        return Some(char::from(b));
    }
    let lo = i.saturating_sub(4);
    (lo..i - 1)
        .rev()
        .find_map(|s| std::str::from_utf8(&text[s..i]).ok())
        .and_then(|s| s.chars().next_back())
}

/// The character that starts at byte `i` (a char boundary), if any.
fn char_at(text: &[u8], i: usize) -> Option<char> {
    let b = *text.get(i)?;
    if b < 0x80 {
        return Some(char::from(b));
    }
    let hi = (i + 4).min(text.len());
    (i + 2..=hi)
        .find_map(|e| std::str::from_utf8(&text[i..e]).ok())
        .and_then(|s| s.chars().next())
}

/// Whether the ASCII letter at `i` is standalone within the text `[lo, hi)`.
fn standalone_at(text: &[u8], i: usize, lo: usize, hi: usize) -> bool {
    let before_ok = i == lo || !char_before(text, i).is_some_and(is_py_word);
    let after_ok = i + 1 == hi || !char_at(text, i + 1).is_some_and(is_py_word);
    before_ok && after_ok
}

/// The first standalone A-E starting in `[from, to)`, with word boundaries judged within the
/// text `[lo, hi)` (`lo <= from`, `to <= hi`).
fn first_standalone(text: &[u8], from: usize, to: usize, lo: usize, hi: usize) -> Option<char> {
    (from..to)
        .filter(|&i| matches!(text[i], b'A'..=b'E'))
        .find(|&i| standalone_at(text, i, lo, hi))
        .map(|i| char::from(text[i]))
}

/// The byte offset of the last standalone A-E in `[from, to)`, boundaries judged in `[lo, hi)`.
fn last_standalone(text: &[u8], from: usize, to: usize, lo: usize, hi: usize) -> Option<usize> {
    (from..to)
        .rev()
        .filter(|&i| matches!(text[i], b'A'..=b'E'))
        .find(|&i| standalone_at(text, i, lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    // Every expected letter below was worked out by hand from the rules and also checked by
    // running MM-IQ's released `eval_utils.extract_choice` (AceCHQ/MMIQ, commit 5dd4bb0) on the
    // same string under Python 3.11.

    #[test]
    fn phrases_have_no_self_overlap_and_an_anchor() {
        for p in ANSWER_PHRASES {
            let b = p.as_bytes();
            for k in 1..b.len() {
                assert_ne!(&b[..k], &b[b.len() - k..], "{p:?} overlaps itself");
            }
            assert!(
                p.contains("answer") || p.contains("option") || p.contains("pattern is"),
                "{p:?}"
            );
        }
    }

    #[test]
    fn rule1_boxed() {
        assert_eq!(
            extract_choice("so \\boxed{C} is it; the answer is A"),
            Some('C')
        );
        // The first boxed letter wins; `\boxed{F}` and `\boxed{AB}` do not count.
        assert_eq!(
            extract_choice("\\boxed{F} then \\boxed{AB} then \\boxed{D} and \\boxed{B}"),
            Some('D')
        );
        assert_eq!(extract(r"\boxed{E}").rule, ExtractRule::Boxed);
    }

    #[test]
    fn rule2_takes_text_after_last_occurrence() {
        // Last "The answer is" is followed by " D."; the earlier one by " A".
        assert_eq!(
            extract_choice("The answer is A? No. The answer is D."),
            Some('D')
        );
        // The tail is stripped; the first standalone letter after the phrase.
        assert_eq!(
            extract_choice("Best option:\n\n  (B) because C is wrong"),
            Some('B')
        );
    }

    #[test]
    fn rule2_is_cumulative() {
        // "The correct answer is" matches first -> "C, since the answer is B"; there
        // "correct answer is", "The answer is" and "The answer" are absent (lower-case "the"),
        // but "answer is" matches -> "B". A non-cumulative reading would give C.
        assert_eq!(
            extract_choice("I pick A. The correct answer is C, since the answer is B"),
            Some('B')
        );
        // "The answer is" -> "E. The answer: A"; then "The answer" (phrase 4) -> ": A" -> A.
        assert_eq!(extract_choice("The answer is E. The answer: A"), Some('A'));
        let e = extract("The answer is E. The answer: A");
        assert_eq!(e.phrase, Some(4));
    }

    #[test]
    fn rule3_first_standalone_letter_or_none() {
        // Word boundaries: "Because" and "AB" are not standalone; "D" is.
        assert_eq!(extract_choice("The answer is: AB, Because D"), Some('D'));
        // A phrase matched but nothing standalone follows -> no answer (Z), even though the text
        // before the phrase has a letter.
        assert_eq!(extract_choice("Option A. The answer is unclear"), None);
        // The tail starts a new string: a letter right after the phrase is at a boundary.
        assert_eq!(extract_choice("The answerA"), Some('A'));
        // Underscore and digits are word characters.
        assert_eq!(
            extract_choice("The answer is _A or 2B or B2 or (C)"),
            Some('C')
        );
        // Empty tail.
        assert_eq!(extract_choice("A B C. The best answer is"), None);
        assert_eq!(extract("x The answer is unclear").recorded(), 'Z');
    }

    #[test]
    fn rule4_more_than_ten_words_without_letter() {
        // 12 words, no standalone letter ("I" is not A-E) -> no answer.
        let r = "I cannot determine which of the shapes fits the missing cell here";
        assert_eq!(r.split_whitespace().count(), 12);
        assert_eq!(extract_choice(r), None);
        // More than 10 words but with a standalone letter -> the line scan decides.
        assert_eq!(
            extract_choice("I looked at all the shapes in the grid and think B fits"),
            Some('B')
        );
        // Few words.
        assert_eq!(extract_choice("C"), Some('C'));
        assert_eq!(extract_choice("  (d) or e  "), None);
    }

    #[test]
    fn rule4_scans_lines_from_last() {
        // The last line with a standalone letter is "D or E?": its first letter is D.
        let r = "Option A is tempting.\nBut consider D or E?\nnothing here\n";
        assert_eq!(extract_choice(r), Some('D'));
        // Within the chosen line, the first standalone letter (not the last).
        assert_eq!(extract_choice("A\nB and C"), Some('B'));
        // Non-ASCII neighbours: "é" is a word character, "（" is not.
        assert_eq!(extract_choice("éA x\n（C）"), Some('C'));
        assert_eq!(extract_choice("（B）\néA"), Some('B'));
        // Python's isalnum() is false for "Ⓐ" (U+24B6) and "ः" (U+0903), though Rust's
        // is_alphanumeric() is true: the letters next to them are standalone.
        assert_eq!(extract_choice("ⒶC"), Some('C'));
        assert_eq!(extract_choice("The answer is ःD"), Some('D'));
        assert_eq!(extract("A").rule, ExtractRule::LineScan);
    }

    #[test]
    fn python_whitespace_is_stripped() {
        // U+001F (unit separator) is whitespace for Python's strip(), U+3000 for both.
        assert_eq!(extract_choice("The answer is\u{1f}\u{3000}B"), Some('B'));
        assert_eq!(extract_choice(""), None);
        assert_eq!(extract_choice(" \n\t "), None);
    }

    #[test]
    fn long_phrase_and_different_pattern() {
        let r = "Therefore, the most appropriate answer to fill in the question mark is option C.";
        assert_eq!(extract_choice(r), Some('C'));
        assert_eq!(
            extract_choice("A, B and C are alike. The different pattern is D"),
            Some('D')
        );
    }
}
