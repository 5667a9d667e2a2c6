//! Fast access to one long string field of a JSON line that `serde_json` has already validated.
//!
//! Prediction lines are dominated by the `response` text (hundreds of bytes with many `\n`
//! escapes). `serde_json` validates the line quickly when it may skip that value
//! (`IgnoredAny`), but unescaping it through its scratch buffer is the slowest part of reading a
//! file. So the line is validated by `serde_json` first, and the value of the top-level key is
//! then located and unescaped here with `memchr`. Both functions only read lines that already
//! passed `serde_json`, and return `None` rather than panic if that assumption is broken.

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
}
