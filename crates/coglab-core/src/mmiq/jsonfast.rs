//! Fast reading of JSON lines, for MM-IQ files of 100,000 lines and more.
//!
//! - [`scan_object`] reads the wanted top-level keys of a line in one strict pass: strings are
//!   only located and checked ([`JsonStr`], decoded on demand), numbers and literals read,
//!   other values skipped. It declines (returns `None`) whatever it does not read exactly as
//!   serde_json would, and the caller then uses serde_json, so values and error messages are
//!   serde_json's.
//! - [`find_top_level_value`] and [`decode_string_at`] take one long string out of a line that
//!   serde_json has already validated (the fallback path), with `memchr`; they return `None`
//!   rather than panic if that assumption is broken.

use super::input::Scalar;
use memchr::memchr2;

/// The start of the value of top-level key `key` in a valid JSON object `line` (the scan stops
/// there, so a long value is not read).
pub(super) fn find_top_level_value(line: &str, key: &str) -> Option<usize> {
    let b = line.as_bytes();
    let mut i = skip_ws(b, 0);
    if b.get(i) != Some(&b'{') {
        return None;
    }
    i += 1;
    loop {
        i = skip_ws(b, i);
        match b.get(i)? {
            b'}' => return None,
            b',' => {
                i += 1;
                continue;
            }
            b'"' => {}
            _ => return None,
        }
        let key_end = string_end(b, i)?;
        let matches = if b[i + 1..key_end - 1].contains(&b'\\') {
            decode_string(&line[i..key_end]).as_deref() == Some(key)
        } else {
            &line[i + 1..key_end - 1] == key
        };
        i = skip_ws(b, key_end);
        if b.get(i) != Some(&b':') {
            return None;
        }
        i = skip_ws(b, i + 1);
        if matches {
            return Some(i);
        }
        i = value_end(b, i)?;
    }
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// The index just past the closing quote of the string starting at `start` (a `"`).
fn string_end(b: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    loop {
        let j = i + memchr2(b'"', b'\\', b.get(i..)?)?;
        if b[j] == b'"' {
            return Some(j + 1);
        }
        i = j + 2;
    }
}

/// The index just past the JSON value starting at `start`.
pub(super) fn value_end(b: &[u8], start: usize) -> Option<usize> {
    match b.get(start)? {
        b'"' => string_end(b, start),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut i = start;
            while i < b.len() {
                match b[i] {
                    b'"' => {
                        i = string_end(b, i)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth = depth.checked_sub(1)?;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            None
        }
        _ => {
            let mut i = start;
            while i < b.len() && !matches!(b[i], b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
            {
                i += 1;
            }
            Some(i)
        }
    }
}

/// Unescapes a JSON string literal (with its quotes). A lone UTF-16 surrogate in a `\u`
/// escape, which a Rust string cannot hold, becomes U+FFFD.
pub(super) fn decode_string(lit: &str) -> Option<String> {
    let (s, end) = decode_string_at(lit, 0)?;
    (end == lit.len()).then_some(s)
}

/// Decodes the JSON string starting at byte `start` of `text` (an opening quote), returning
/// the string and the index just past its closing quote. One pass: the text is scanned for
/// quotes and backslashes only.
pub(super) fn decode_string_at(text: &str, start: usize) -> Option<(String, usize)> {
    if text.as_bytes().get(start) != Some(&b'"') {
        return None;
    }
    let mut out = String::new();
    let mut escaped = false;
    let mut pos = start + 1;
    loop {
        let rest = text.get(pos..)?;
        let i = memchr2(b'"', b'\\', rest.as_bytes())?;
        if !escaped {
            if rest.as_bytes()[i] == b'"' {
                // No escape at all: one copy.
                return Some((rest[..i].to_string(), pos + i + 1));
            }
            escaped = true;
            out.reserve(rest.len().min(4096));
        }
        out.push_str(&rest[..i]);
        if rest.as_bytes()[i] == b'"' {
            return Some((out, pos + i + 1));
        }
        let consumed = push_escape(&mut out, &rest[i..])?;
        pos += i + consumed;
    }
}

/// Appends the character of the escape at the start of `esc` (`\n`, `\u00e9`, a surrogate
/// pair...) and returns how many bytes it took.
fn push_escape(out: &mut String, esc: &str) -> Option<usize> {
    let mut consumed = 2;
    match *esc.as_bytes().get(1)? {
        b'"' => out.push('"'),
        b'\\' => out.push('\\'),
        b'/' => out.push('/'),
        b'b' => out.push('\u{8}'),
        b'f' => out.push('\u{c}'),
        b'n' => out.push('\n'),
        b'r' => out.push('\r'),
        b't' => out.push('\t'),
        b'u' => {
            let hi = hex4(esc.get(2..6)?)?;
            consumed = 6;
            let c = if (0xD800..0xDC00).contains(&hi) {
                let lo = esc
                    .get(6..8)
                    .filter(|s| *s == "\\u")
                    .and_then(|_| esc.get(8..12))
                    .and_then(hex4)
                    .filter(|lo| (0xDC00..0xE000).contains(lo));
                lo.and_then(|lo| {
                    consumed = 12;
                    char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                })
            } else {
                char::from_u32(hi)
            };
            out.push(c.unwrap_or('\u{FFFD}'));
        }
        _ => return None,
    }
    Some(consumed)
}

fn hex4(s: &str) -> Option<u32> {
    if s.len() == 4 && s.bytes().all(|b| b.is_ascii_hexdigit()) {
        u32::from_str_radix(s, 16).ok()
    } else {
        None
    }
}

/// The values of the `wanted` top-level keys of the JSON object `line`, read in one strict
/// pass without serde: strings are located and checked (decoded on demand), integers read,
/// `null` gives `None` (as serde's `Option` does) and other keys' values are checked and
/// skipped.
///
/// Returns `None` when the line is outside what this scanner reads: a key with an escape, a
/// nested object or array, a number that is not an integer (or does not fit 64 bits), a wanted
/// key given twice, or anything serde_json would reject (a control character in a string, a
/// bad escape, a lone surrogate, trailing characters...). The caller then reads the line with
/// serde_json, which gives the same values or the located error: this is only a faster path.
pub(super) fn scan_object<'a, const N: usize>(
    line: &'a str,
    wanted: [&str; N],
) -> Option<[Option<Value<'a>>; N]> {
    let b = line.as_bytes();
    let mut out: [Option<Value<'a>>; N] = std::array::from_fn(|_| None);
    let mut seen = [false; N];
    let mut i = skip_ws(b, 0);
    if b.get(i) != Some(&b'{') {
        return None;
    }
    i = skip_ws(b, i + 1);
    if b.get(i) == Some(&b'}') {
        return (skip_ws(b, i + 1) == b.len()).then_some(out);
    }
    loop {
        if b.get(i) != Some(&b'"') {
            return None;
        }
        let key_end = special_byte(b, i + 1)?;
        if b[key_end] != b'"' {
            return None;
        }
        let slot = wanted
            .iter()
            .position(|w| w.as_bytes() == &b[i + 1..key_end]);
        i = skip_ws(b, key_end + 1);
        if b.get(i) != Some(&b':') {
            return None;
        }
        i = skip_ws(b, i + 1);
        let (value, end) = scan_value(line, i)?;
        if let Some(s) = slot {
            if std::mem::replace(&mut seen[s], true) {
                return None;
            }
            out[s] = value;
        }
        i = skip_ws(b, end);
        match *b.get(i)? {
            b',' => i = skip_ws(b, i + 1),
            b'}' => return (skip_ws(b, i + 1) == b.len()).then_some(out),
            _ => return None,
        }
    }
}

/// A value read by [`scan_object`]: a string as it is in the line (decoded on demand, so a
/// long text that is only looked at need not be copied), or any other scalar.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Value<'a> {
    /// A string; its escapes were checked.
    Str(JsonStr<'a>),
    /// A number, a boolean, or (from the serde_json fallback) any value.
    Other(Scalar),
}

/// A JSON string as it stands between its quotes, with its escapes checked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct JsonStr<'a> {
    /// The text between the quotes.
    raw: &'a str,
    /// Whether it has a backslash escape (else it is its own value).
    escaped: bool,
}

impl JsonStr<'_> {
    /// Appends the decoded string to `out`.
    pub(super) fn decode_into(&self, out: &mut String) {
        if !self.escaped {
            out.push_str(self.raw);
            return;
        }
        let mut rest = self.raw;
        while let Some(i) = memchr::memchr(b'\\', rest.as_bytes()) {
            out.push_str(&rest[..i]);
            // Checked by the scan: this cannot fail; stop rather than loop if it did.
            let Some(n) = strict_escape(out, &rest.as_bytes()[i..], true) else {
                return;
            };
            rest = &rest[i + n..];
        }
        out.push_str(rest);
    }
}

impl Value<'_> {
    /// The value as a [`Scalar`] (a string decoded into a new `String`).
    pub(super) fn into_scalar(self) -> Scalar {
        match self {
            Value::Str(s) if !s.escaped => Scalar::Str(s.raw.to_string()),
            Value::Str(s) => {
                let mut out = String::with_capacity(s.raw.len());
                s.decode_into(&mut out);
                Scalar::Str(out)
            }
            Value::Other(v) => v,
        }
    }

    /// Calls `f` with the string this value is, decoding it into `scratch` when it has
    /// escapes (no allocation once `scratch` is large enough); `None` for another value.
    pub(super) fn with_str<R>(&self, scratch: &mut String, f: impl FnOnce(&str) -> R) -> Option<R> {
        match self {
            Value::Str(s) if !s.escaped => Some(f(s.raw)),
            Value::Str(s) => {
                scratch.clear();
                s.decode_into(scratch);
                Some(f(scratch))
            }
            Value::Other(Scalar::Str(s)) => Some(f(s)),
            Value::Other(_) => None,
        }
    }
}

/// The scalar JSON value at `start` (`null` is `None`) and the index just past it; `None` for
/// a nested value, a non-integer number or invalid JSON.
fn scan_value(text: &str, start: usize) -> Option<(Option<Value<'_>>, usize)> {
    let b = text.as_bytes();
    let literal = |word: &[u8], value: Option<Value<'static>>| {
        b.get(start..start + word.len())
            .filter(|s| *s == word)
            .map(|_| (value, start + word.len()))
    };
    match *b.get(start)? {
        b'"' => {
            let (s, end) = strict_string(text, start)?;
            Some((Some(Value::Str(s)), end))
        }
        b'n' => literal(b"null", None),
        b't' => literal(b"true", Some(Value::Other(Scalar::Bool(true)))),
        b'f' => literal(b"false", Some(Value::Other(Scalar::Bool(false)))),
        b'-' | b'0'..=b'9' => {
            let digits = start + usize::from(b[start] == b'-');
            let end = digits
                + b[digits..]
                    .iter()
                    .take_while(|c| c.is_ascii_digit())
                    .count();
            let n = end - digits;
            // JSON has no leading zeros; "-0" and fractions/exponents are left to serde_json.
            if n == 0
                || (b[digits] == b'0' && (n > 1 || digits > start))
                || matches!(b.get(end), Some(b'.' | b'e' | b'E'))
            {
                return None;
            }
            let v = if digits > start {
                Scalar::Int(text[start..end].parse().ok()?)
            } else {
                Scalar::UInt(text[start..end].parse().ok()?)
            };
            Some((Some(Value::Other(v)), end))
        }
        _ => None,
    }
}

/// The strict JSON string at `start` (a quote), its escapes checked, and the index just past
/// its closing quote. `None` for a control character, a bad escape or a lone surrogate (which
/// serde_json rejects; the caller falls back to it for the message).
fn strict_string(text: &str, start: usize) -> Option<(JsonStr<'_>, usize)> {
    let b = text.as_bytes();
    let mut escaped = false;
    let mut i = start + 1;
    loop {
        // Plain bytes in one run; stop at a quote, a backslash or a control character.
        i = special_byte(b, i)?;
        match b[i] {
            b'"' => {
                let raw = &text[start + 1..i];
                return Some((JsonStr { raw, escaped }, i + 1));
            }
            b'\\' => {
                escaped = true;
                i += strict_escape(&mut String::new(), b.get(i..)?, false)?;
            }
            _ => return None,
        }
    }
}

/// The index of the first byte at or after `from` that is a quote, a backslash or a control
/// character (below 0x20). This scan is most of the time of reading a predictions file.
///
/// Natively, 32 bytes at a time in a loop that LLVM turns into vector compares; in the
/// worker's wasm, eight at a time with word arithmetic. Measured on the 100k benchmark's 72 MB
/// in V8 with the worker's profile (opt-level 3, `simd128`), interleaved: the 32-byte loop was
/// about 20 ms slower than the words, and `memchr2` for the quote and backslash followed by a
/// check of the run for control characters no faster.
#[cfg(not(target_arch = "wasm32"))]
fn special_byte(b: &[u8], mut i: usize) -> Option<usize> {
    while let Some(chunk) = b.get(i..i + 32) {
        let hit = chunk.iter().fold(false, |hit, &c| {
            hit | (c == b'"') | (c == b'\\') | (c < 0x20)
        });
        if hit {
            break;
        }
        i += 32;
    }
    b.get(i..)?
        .iter()
        .position(|&c| c == b'"' || c == b'\\' || c < 0x20)
        .map(|p| i + p)
}

/// See the native `special_byte`: eight bytes at a time with word arithmetic (SWAR).
#[cfg(target_arch = "wasm32")]
fn special_byte(b: &[u8], mut i: usize) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Nonzero iff some byte of `x` is below `n` (n <= 0x80): the classic SWAR test.
    let below = |x: u64, n: u64| x.wrapping_sub(ONES * n) & !x & HIGH;
    while let Some(word) = b.get(i..i + 8) {
        let x = u64::from_le_bytes(word.try_into().ok()?);
        let quote = below(x ^ (ONES * u64::from(b'"')), 1);
        let backslash = below(x ^ (ONES * u64::from(b'\\')), 1);
        if below(x, 0x20) | quote | backslash != 0 {
            break;
        }
        i += 8;
    }
    b.get(i..)?
        .iter()
        .position(|&c| c == b'"' || c == b'\\' || c < 0x20)
        .map(|p| i + p)
}

/// The escape at the start of `esc` (a backslash): appends its character when `keep` and
/// returns its length; `None` for an unknown escape or a lone surrogate.
fn strict_escape(out: &mut String, esc: &[u8], keep: bool) -> Option<usize> {
    let c = match *esc.get(1)? {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => {
            let hex = |at: usize| {
                esc.get(at..at + 4)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(hex4)
            };
            let hi = hex(2)?;
            let (c, len) = match hi {
                0xD800..=0xDBFF => {
                    if esc.get(6..8)? != b"\\u" {
                        return None;
                    }
                    let lo = hex(8).filter(|lo| (0xDC00..0xE000).contains(lo))?;
                    (
                        char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))?,
                        12,
                    )
                }
                0xDC00..=0xDFFF => return None,
                _ => (char::from_u32(hi)?, 6),
            };
            if keep {
                out.push(c);
            }
            return Some(len);
        }
        _ => return None,
    };
    if keep {
        out.push(c);
    }
    Some(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_like_serde_json() {
        let cases = [
            r#""plain""#,
            r#""line\nbreak \"quoted\" back\\slash \/ \t\r\b\f""#,
            r#""\u00e9\u4e00 \ud83d\ude00 end""#,
            r#""""#,
            r#""ünïcode ✓ \n""#,
        ];
        for lit in cases {
            let expected: String = serde_json::from_str(lit).unwrap();
            assert_eq!(decode_string(lit).unwrap(), expected, "{lit}");
        }
        assert_eq!(decode_string(r#""a\ud800b""#).unwrap(), "a\u{FFFD}b");
        assert_eq!(decode_string(r#""bad \x""#), None);
    }

    #[test]
    fn finds_top_level_values_only() {
        let line = r#" { "meta": {"response": "nested", "x": [1, {"y": "]"}]}, "k\u0065y": 5, "response" : "top\" level" , "z": null } "#;
        let value = |k: &str| {
            let s = find_top_level_value(line, k).unwrap();
            &line[s..value_end(line.as_bytes(), s).unwrap()]
        };
        assert_eq!(value("response"), r#""top\" level""#);
        assert_eq!(value("key"), "5");
        assert_eq!(value("z"), "null");
        let s = find_top_level_value(line, "response").unwrap();
        assert_eq!(
            decode_string_at(line, s).unwrap(),
            ("top\" level".to_string(), s + 13)
        );
        assert_eq!(find_top_level_value(line, "y"), None);
        assert_eq!(find_top_level_value("[1, 2]", "y"), None);
    }

    #[test]
    fn scans_flat_lines_and_declines_the_rest() {
        const KEYS: [&str; 3] = ["data_id", "category", "response"];
        // A nested value anywhere: left to serde_json.
        let nested = r#" {"data_id": 12, "x": [1], "response": "a"} "#;
        assert_eq!(scan_object(nested, KEYS), None);
        let line = r#" {"data_id": 12, "x": -3, "ok": false, "n": null, "response": "a\nb \u00e9\ud83d\ude00"} "#;
        let [id, cat, resp] = scan_object(line, KEYS).unwrap();
        assert_eq!(id, Some(Value::Other(Scalar::UInt(12))));
        assert_eq!(cat, None);
        let resp = resp.unwrap();
        let expected: serde_json::Value = serde_json::from_str(line).unwrap();
        let text = expected["response"].as_str().unwrap();
        assert_eq!(resp.clone().into_scalar(), Scalar::Str(text.into()));
        let mut scratch = String::new();
        assert_eq!(
            resp.with_str(&mut scratch, str::to_string).as_deref(),
            Some(text)
        );
        // Plain strings are borrowed; `null` is absent, as for serde's Option.
        let [id, cat, resp] =
            scan_object(r#"{"data_id":"7","category":null,"response":"B"}"#, KEYS).unwrap();
        assert_eq!(id.unwrap().into_scalar(), Scalar::Str("7".into()));
        assert_eq!(
            (cat, resp.unwrap().into_scalar()),
            (None, Scalar::Str("B".into()))
        );
        // Declined: what serde_json rejects (a duplicate field, a trailing comma, a leading
        // zero, a lone surrogate, a raw control character, trailing text, a bad literal) and
        // what it reads otherwise (floats, -0, big integers, escaped keys, an array as a struct).
        for line in [
            r#"{"data_id": 1, "data_id": 2}"#,
            r#"{"data_id": 1,}"#,
            r#"{"data_id": 01}"#,
            r#"{"data_id": 1.0}"#,
            r#"{"data_id": -0}"#,
            r#"{"data_id": 18446744073709551616}"#,
            r#"{"d\u0061ta_id": 1}"#,
            r#"{"response": "lone \ud800 surrogate"}"#,
            "{\"response\": \"tab\tinside\"}",
            r#"{"response": "x"} trailing"#,
            r#"{"response": tru}"#,
            "[1, 2]",
        ] {
            assert_eq!(scan_object(line, KEYS), None, "{line}");
        }
    }
}
