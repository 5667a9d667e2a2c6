//! Where in an input a problem was found: file, line (or record) and field.
//!
//! Every parser error in this crate carries a [`Location`], so a message reads like
//! `preds.jsonl line 17: field "data_id": expected an integer, found "abc"`.

use std::fmt;

/// A position in a user-supplied input: the file name, an optional 1-based line or record
/// number, and an optional field (column or key) name.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Location {
    /// The file name as the user gave it (or a label such as `<stdin>`).
    pub file: String,
    /// 1-based line number (JSONL, CSV line) or record number, when known.
    pub line: Option<usize>,
    /// Field, column or key name, when the problem is in one field.
    pub field: Option<String>,
}

impl Location {
    /// A location naming only a file.
    pub fn file(file: impl Into<String>) -> Self {
        Self {
            file: file.into(),
            line: None,
            field: None,
        }
    }

    /// The same location at a 1-based line.
    #[must_use]
    pub fn at_line(mut self, line: usize) -> Self {
        self.line = Some(line);
        self
    }

    /// The same location in a named field.
    #[must_use]
    pub fn in_field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }
}

impl fmt::Display for Location {
    /// ```
    /// use coglab_core::location::Location;
    /// let loc = Location::file("preds.jsonl").at_line(17).in_field("data_id");
    /// assert_eq!(loc.to_string(), "preds.jsonl line 17: field \"data_id\"");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if let Some(line) = self.line {
            write!(f, " line {line}")?;
        }
        if let Some(field) = &self.field {
            write!(f, ": field \"{field}\"")?;
        }
        Ok(())
    }
}

/// A short, printable rendering of a found value for error messages (at most 40 characters).
pub fn snippet(found: &str) -> String {
    const MAX: usize = 40;
    let mut out: String = found.chars().take(MAX).collect();
    if found.chars().count() > MAX {
        out.push('…');
    }
    format!("{out:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_without_line_or_field() {
        assert_eq!(Location::file("key.jsonl").to_string(), "key.jsonl");
        assert_eq!(
            Location::file("a.csv").at_line(3).to_string(),
            "a.csv line 3"
        );
    }

    #[test]
    fn snippet_truncates_long_values() {
        let long = "x".repeat(100);
        let s = snippet(&long);
        assert_eq!(s.chars().count(), 40 + 1 + 2);
        assert_eq!(snippet("abc"), "\"abc\"");
    }
}

/// The 1-based line where a quoted CSV field opens and is never closed, if any.
///
/// The `csv` crate reads an unterminated quote at the end of a file as a field running to the
/// end, so a file cut in the middle of a quoted field was read without a word (issue 27,
/// defect 9). A quote opens a field only at its start (after a delimiter or a line end); `""`
/// inside a quoted field is an escaped quote.
///
/// # Examples
/// ```
/// use coglab_core::location::unterminated_quote;
/// assert_eq!(unterminated_quote(b"a,b\n1,\"x\n", b','), Some(2));
/// assert_eq!(unterminated_quote(b"a,b\n1,\"x\"\"y\"\n2,z\"\n", b','), None);
/// ```
pub fn unterminated_quote(text: &[u8], delimiter: u8) -> Option<usize> {
    let (mut line, mut opened_at) = (1usize, 0usize);
    let (mut in_quote, mut at_start) = (false, true);
    let mut i = 0;
    while i < text.len() {
        let b = text[i];
        if in_quote {
            if b == b'"' {
                if text.get(i + 1) == Some(&b'"') {
                    i += 1;
                } else {
                    in_quote = false;
                }
            }
        } else if b == b'"' && at_start {
            in_quote = true;
            opened_at = line;
        }
        if b == b'\n' || (b == b'\r' && text.get(i + 1) != Some(&b'\n')) {
            line += 1;
        }
        at_start = !in_quote && (b == delimiter || b == b'\n' || (b == b'\r'));
        i += 1;
    }
    in_quote.then_some(opened_at)
}

/// The 0-based record of a comma-separated text that holds 1-based line `line` (record 0 is
/// the header): records end at a line end outside quotes, so a quoted cell with line breaks
/// spans lines of one record. For naming the row of a CSV written from a table.
///
/// # Examples
/// ```
/// use coglab_core::location::csv_record_of_line;
/// let text = b"a,b\r\n1,\"x\r\ny\"\r\n2,\"\"\"z\"\r\n";
/// assert_eq!(csv_record_of_line(text, 1), 0);
/// assert_eq!(csv_record_of_line(text, 2), 1);
/// assert_eq!(csv_record_of_line(text, 3), 1);
/// assert_eq!(csv_record_of_line(text, 4), 2);
/// ```
pub fn csv_record_of_line(text: &[u8], line: usize) -> usize {
    let (mut at, mut record) = (1usize, 0usize);
    let (mut in_quote, mut at_start) = (false, true);
    let mut i = 0;
    while i < text.len() && at < line {
        let b = text[i];
        if in_quote {
            if b == b'"' {
                if text.get(i + 1) == Some(&b'"') {
                    i += 1;
                } else {
                    in_quote = false;
                }
            }
        } else if b == b'"' && at_start {
            in_quote = true;
        }
        if b == b'\n' || (b == b'\r' && text.get(i + 1) != Some(&b'\n')) {
            at += 1;
            if !in_quote {
                record += 1;
            }
        }
        at_start = !in_quote && matches!(b, b',' | b'\n' | b'\r');
        i += 1;
    }
    record
}

/// The line ends in `text[from..to]`: a LF, a CRLF (counted once, at its LF) or a CR alone
/// (old Mac line ends, which the `csv` crate reads as record ends: issue 37, every error of
/// such a file was on line 1).
fn line_ends(text: &[u8], from: usize, to: usize) -> usize {
    memchr::memchr2_iter(b'\n', b'\r', &text[from..to])
        .filter(|&i| text[from + i] == b'\n' || text.get(from + i + 1) != Some(&b'\n'))
        .count()
}

/// The 1-based line holding byte `offset` of `text` and the offset where that line starts;
/// lines end at LF, CRLF or a CR alone.
///
/// # Examples
/// ```
/// use coglab_core::location::line_and_start;
/// // a \n b \r \n c \r d: "c" at byte 5 on line 3, "d" at byte 7 on line 4.
/// assert_eq!(line_and_start(b"a\nb\r\nc\rd", 7), (4, 7));
/// assert_eq!(line_and_start(b"a\nb\r\nc\rd", 5), (3, 5));
/// assert_eq!(line_and_start(b"abc", 2), (1, 0));
/// ```
pub fn line_and_start(text: &[u8], offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let line = 1 + line_ends(text, 0, offset);
    let start = memchr::memrchr2(b'\n', b'\r', &text[..offset]).map_or(0, |i| i + 1);
    (line, start)
}

/// The 0-based field of a delimited line holding the byte at `offset` (`line` is the line's
/// bytes up to that byte): delimiters inside a quoted field do not count.
///
/// # Examples
/// ```
/// use coglab_core::location::field_index;
/// assert_eq!(field_index(b"a,\"b,c\",d", b','), 2);
/// assert_eq!(field_index(b"x", b','), 0);
/// ```
pub fn field_index(line: &[u8], delimiter: u8) -> usize {
    let (mut field, mut quoted) = (0, false);
    for &b in line {
        if b == b'"' {
            quoted = !quoted;
        } else if b == delimiter && !quoted {
            field += 1;
        }
    }
    field
}

/// Physical 1-based line numbers of byte offsets in a text, counted incrementally.
///
/// The `csv` crate's `Position::line` counts a CRLF-ended record's line one too low (rust-csv
/// issue 395), so errors in CRLF files named the line before the broken one; the byte offset
/// it reports is right, and this turns it into the line (issue 27, defect 4).
///
/// # Examples
/// ```
/// use coglab_core::location::LineIndex;
/// let text = b"a,b\r\n1,2\r\n3,4\r\n";
/// let mut lines = LineIndex::new(text);
/// assert_eq!(lines.line_at(0), 1);
/// assert_eq!(lines.line_at(10), 3); // "3,4" starts at byte 10
/// assert_eq!(lines.line_at(5), 2); // going back restarts the count
/// let mut reader = csv::ReaderBuilder::new().from_reader(&text[..]);
/// let second = reader.records().nth(1).unwrap().unwrap();
/// // csv's own count says line 2 for the record "3,4" on line 3.
/// assert_eq!(second.position().unwrap().line(), 2);
/// assert_eq!(lines.csv_line(second.position()), 3);
/// ```
#[derive(Debug, Clone)]
pub struct LineIndex<'a> {
    text: &'a [u8],
    pos: usize,
    line: usize,
}

impl<'a> LineIndex<'a> {
    /// An index over `text` (the bytes the CSV reader reads).
    pub fn new(text: &'a [u8]) -> Self {
        Self {
            text,
            pos: 0,
            line: 1,
        }
    }

    /// The line holding byte `byte` (offsets past the end count to the last line). Linear in
    /// the distance from the previous call, so increasing offsets cost O(text) in all.
    pub fn line_at(&mut self, byte: u64) -> usize {
        let byte = usize::try_from(byte).map_or(self.text.len(), |b| b.min(self.text.len()));
        if byte < self.pos {
            self.pos = 0;
            self.line = 1;
        }
        self.line += line_ends(self.text, self.pos, byte);
        self.pos = byte;
        self.line
    }

    /// The line of a `csv` record or error position (`0` when there is none). After a CRLF
    /// the reader's record start points at the `\n` still to be skipped; a record never starts
    /// with a line end (blank lines are skipped), so line ends at the offset are stepped over.
    pub fn csv_line(&mut self, pos: Option<&csv::Position>) -> usize {
        pos.map_or(0, |p| {
            let mut byte = usize::try_from(p.byte()).unwrap_or(usize::MAX);
            while matches!(self.text.get(byte), Some(b'\r' | b'\n')) {
                byte += 1;
            }
            self.line_at(byte as u64)
        })
    }
}
