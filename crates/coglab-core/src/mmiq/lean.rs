//! Keeping less per prediction row when reading large inputs (issue 10, memory).
//!
//! A predictions file is read whole, so the peak memory of reading and scoring it is the file
//! plus what the parsed rows keep. Kept in full, the responses alone are about as large as the
//! file (peak ≈ 2x the file). Above [`LEAN_INPUT_BYTES`], [`Predictions::parse_jsonl`]
//! therefore extracts each response's answer while reading (the released script's rules, as
//! [`super::score`] would) and keeps only that letter plus the response's first
//! [`PREVIEW_CHARS`] characters for display: peak ≈ the file plus a few hundred bytes per row.
//! Scores, counts and warnings are the same as for full responses; only the response text shown
//! with each item ([`super::ItemResult::response`]) is cut (ending in "…").
//!
//! [`Predictions::parse_jsonl`]: super::Predictions::parse_jsonl

use super::extract::extract;
use super::input::PredContent;

/// Inputs larger than this (bytes) are read lean: answers extracted while reading, responses
/// kept as previews. Below it every response is kept in full.
pub const LEAN_INPUT_BYTES: usize = 64 << 20;

/// Characters of a response kept as its preview in a lean read.
pub const PREVIEW_CHARS: usize = 240;

/// The lean form of a free-form response: the extracted letter as the row's content
/// ([`PredContent::Parsed`], always one of `A`-`E` or `Z`), and the response's preview.
pub(super) fn lean_response(response: &str) -> (PredContent, String) {
    let letter = extract(response).recorded();
    let preview = match preview_cut(response) {
        Some(cut) => {
            let mut p = String::with_capacity(cut + '…'.len_utf8());
            p.push_str(&response[..cut]);
            p.push('…');
            p
        }
        None => response.to_string(),
    };
    (PredContent::Parsed(letter.to_string()), preview)
}

/// The extracted letter of a free-form response as a row's content ([`PredContent::Parsed`],
/// one of `A`-`E` or `Z`), without a preview.
pub(super) fn lean_letter(response: &str) -> PredContent {
    PredContent::Parsed(extract(response).recorded().to_string())
}

/// The first [`PREVIEW_CHARS`] characters of `s`, with "…" when cut (reusing its buffer).
pub fn preview(mut s: String) -> String {
    if let Some(cut) = preview_cut(&s) {
        s.truncate(cut);
        s.push('…');
        s.shrink_to_fit();
    }
    s
}

/// Where a preview of `s` is cut (the byte offset of character number [`PREVIEW_CHARS`]), or
/// `None` when `s` is not longer than that.
fn preview_cut(s: &str) -> Option<usize> {
    // At most as many characters as bytes: short texts are kept without looking at them.
    if s.len() <= PREVIEW_CHARS {
        return None;
    }
    // When the first PREVIEW_CHARS bytes are ASCII, that is where the cut is (a word-wise check).
    if s.as_bytes()[..PREVIEW_CHARS].is_ascii() {
        return Some(PREVIEW_CHARS);
    }
    // Count the bytes that start a character (UTF-8 continuation bytes are 0x80..=0xBF, i.e.
    // below -0x40 as i8). A byte loop: `char_indices().nth(..)` decoded every character and
    // took a sixth of the time of reading a 100,000-response file.
    let mut starts = 0;
    s.bytes().position(|b| {
        let start = (b as i8) >= -0x40;
        starts += usize::from(start);
        start && starts > PREVIEW_CHARS
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preview_cuts_at_a_char_boundary() {
        assert_eq!(preview("short".into()), "short");
        let long = "é".repeat(PREVIEW_CHARS + 5);
        let p = preview(long);
        assert_eq!(p.chars().count(), PREVIEW_CHARS + 1);
        assert!(p.ends_with('…'));
        assert_eq!(preview("x".repeat(PREVIEW_CHARS)).len(), PREVIEW_CHARS);
        // Exactly PREVIEW_CHARS multi-byte characters: more bytes than the limit, not cut.
        let exact = "é".repeat(PREVIEW_CHARS);
        assert_eq!(preview(exact.clone()), exact);
        // Mixed widths: cut after the 240th character, whatever its width.
        let mixed: String = "aé€😀".repeat(PREVIEW_CHARS);
        let p = preview(mixed.clone());
        let want: String = mixed.chars().take(PREVIEW_CHARS).collect();
        assert_eq!(p, format!("{want}…"));
    }

    #[test]
    fn lean_response_keeps_the_extracted_letter() {
        let (c, p) = lean_response(&format!("{} so the answer is C.", "blah ".repeat(100)));
        assert_eq!(c, PredContent::Parsed("C".into()));
        assert!(p.starts_with("blah blah") && p.ends_with('…'));
        let (c, p) = lean_response("I cannot tell.");
        assert_eq!(p, "I cannot tell.");
        assert_eq!(c, PredContent::Parsed("Z".into()));
    }
}
