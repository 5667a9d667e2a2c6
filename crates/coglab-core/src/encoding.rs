//! Recognizing input that is not UTF-8 text before parsing it, so the message names what the
//! file is (UTF-16 or UTF-32 text, a zip archive such as an `.xlsx` workbook) instead of a
//! puzzling "the first line is \"\"" or "invalid byte at offset 10" (issue 27, defect 10).
//!
//! UTF-16 without a byte-order mark is valid UTF-8 when its text is ASCII (every other byte
//! is NUL), so it is recognized by the NULs: in the first [`SNIFF_BYTES`] bytes, at least
//! half of the bytes at odd (LE) or even (BE) offsets are NUL, and almost none at the others.

/// How many leading bytes are examined.
pub const SNIFF_BYTES: usize = 1024;

/// What a file is when it is not UTF-8 text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotText {
    /// UTF-16 little-endian text; `bom` tells whether it starts with a byte-order mark.
    Utf16Le {
        /// Whether the file starts with the byte-order mark FF FE.
        bom: bool,
    },
    /// UTF-16 big-endian text.
    Utf16Be {
        /// Whether the file starts with the byte-order mark FE FF.
        bom: bool,
    },
    /// UTF-32 text (little- or big-endian, with a byte-order mark).
    Utf32,
    /// A zip archive (an `.xlsx` workbook, an `.ods` sheet, a `.zip`).
    Zip,
    /// Binary data that is not text at all: what it looks like (`"a PNG image"`, or
    /// `"binary data"` when no signature is known). Issue 26, defect 9.
    Binary(&'static str),
}

impl std::fmt::Display for NotText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let bom = |b: bool| if b { "with" } else { "without" };
        match self {
            NotText::Utf16Le { bom: b } => write!(
                f,
                "UTF-16 LE text ({} a byte-order mark), not UTF-8: save it as UTF-8",
                bom(*b)
            ),
            NotText::Utf16Be { bom: b } => write!(
                f,
                "UTF-16 BE text ({} a byte-order mark), not UTF-8: save it as UTF-8",
                bom(*b)
            ),
            NotText::Utf32 => write!(f, "UTF-32 text, not UTF-8: save it as UTF-8"),
            NotText::Zip => write!(
                f,
                "a zip archive (e.g. an .xlsx workbook), not text: export the sheet as CSV"
            ),
            NotText::Binary(what) => write!(
                f,
                "{what}, not text: choose the result file itself (.jsonl, .json, .csv, .tsv)"
            ),
        }
    }
}

/// Recognizes UTF-16, UTF-32 and zip input from its first bytes.
///
/// # Examples
/// ```
/// use coglab_core::encoding::{sniff, NotText};
/// assert_eq!(sniff(b"\xFF\xFEa\0b\0"), Some(NotText::Utf16Le { bom: true }));
/// assert_eq!(sniff(b"{\0\"\0a\0\"\0:\0 \x001\0}\0"), Some(NotText::Utf16Le { bom: false }));
/// assert_eq!(sniff(b"PK\x03\x04rest"), Some(NotText::Zip));
/// assert_eq!(sniff(b"model,a\nx,1\n"), None);
/// ```
pub fn sniff(bytes: &[u8]) -> Option<NotText> {
    if bytes.starts_with(b"\xFF\xFE\0\0") || bytes.starts_with(b"\0\0\xFE\xFF") {
        return Some(NotText::Utf32);
    }
    if bytes.starts_with(b"\xFF\xFE") {
        return Some(NotText::Utf16Le { bom: true });
    }
    if bytes.starts_with(b"\xFE\xFF") {
        return Some(NotText::Utf16Be { bom: true });
    }
    if bytes.starts_with(b"PK\x03\x04") {
        return Some(NotText::Zip);
    }
    let head = &bytes[..bytes.len().min(SNIFF_BYTES)];
    let pairs = head.len() / 2;
    if pairs < 2 {
        return None;
    }
    let (mut even, mut odd) = (0usize, 0usize);
    for pair in head.chunks_exact(2) {
        even += usize::from(pair[0] == 0);
        odd += usize::from(pair[1] == 0);
    }
    if odd * 2 >= pairs && even * 10 <= pairs {
        Some(NotText::Utf16Le { bom: false })
    } else if even * 2 >= pairs && odd * 10 <= pairs {
        Some(NotText::Utf16Be { bom: false })
    } else {
        binary(head)
    }
}

/// Signatures of common binary files a user may pick by mistake.
const SIGNATURES: [(&[u8], &str); 11] = [
    // Read by the readers that take columnar input (crate::columnar) before they sniff.
    (b"PAR1", "a Parquet file"),
    (b"ARROW1", "an Arrow IPC file"),
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xFF\xD8\xFF", "a JPEG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"%PDF-", "a PDF document"),
    (b"\x1F\x8B", "gzip-compressed data"),
    (b"7z\xBC\xAF\x27\x1C", "a 7-Zip archive"),
    (b"\x7FELF", "a program (ELF)"),
    (b"SQLite format 3\0", "an SQLite database"),
];

/// Recognizes binary data: a known signature, or a head where at least one byte in ten is a
/// NUL, a control character other than tab, line feed, carriage return, form feed and escape,
/// or not part of valid UTF-8 (text with a few stray control bytes stays text, so the
/// parsers can locate them).
fn binary(head: &[u8]) -> Option<NotText> {
    if let Some((_, what)) = SIGNATURES.iter().find(|(sig, _)| head.starts_with(sig)) {
        return Some(NotText::Binary(what));
    }
    if head.len() < 8 {
        return None;
    }
    if head.len() >= 12 && head.starts_with(b"RIFF") && &head[8..12] == b"WEBP" {
        return Some(NotText::Binary("a WebP image"));
    }
    let controls = head
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0C | 0x1B))
        .count();
    // Invalid UTF-8: one replacement character per invalid sequence of a lossy decoding (a
    // character cut by the end of the window counts once, which the threshold absorbs).
    let invalid = match std::str::from_utf8(head) {
        Ok(_) => 0,
        Err(_) => String::from_utf8_lossy(head).matches('\u{FFFD}').count(),
    };
    ((controls + invalid) * 10 >= head.len()).then_some(NotText::Binary("binary data"))
}

/// The first byte of a text that is not UTF-8, located by line and column, with what it would
/// be in the usual legacy encoding (issue 37: a Latin-1 byte was reported as "invalid byte at
/// offset 18", and a Latin-1 manifest as "stream did not contain valid UTF-8").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BadUtf8 {
    /// 1-based line (lines end at LF, CRLF or a CR alone).
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// Byte offset of the start of the line.
    pub line_start: usize,
    /// Byte offset of the bad byte.
    pub offset: usize,
    /// The bad byte.
    pub byte: u8,
}

impl BadUtf8 {
    /// The first byte that is not UTF-8, or `None` for UTF-8 text.
    ///
    /// # Examples
    /// ```
    /// use coglab_core::encoding::BadUtf8;
    /// let b = BadUtf8::find(b"model,a\rgpt,1\rcaf\xe9,2\r").unwrap();
    /// assert_eq!((b.line, b.column, b.byte), (3, 4, 0xE9));
    /// assert_eq!(b.to_string(), "byte 0xE9 at line 3, column 4 is not UTF-8 (in Latin-1 or \
    ///     Windows-1252 it is \"é\": the file looks saved in one of them; save it as UTF-8)");
    /// assert_eq!(BadUtf8::find("café".as_bytes()), None);
    /// ```
    pub fn find(bytes: &[u8]) -> Option<BadUtf8> {
        let offset = std::str::from_utf8(bytes).err()?.valid_up_to();
        let (line, line_start) = crate::location::line_and_start(bytes, offset);
        // The bytes before it on its line are valid UTF-8.
        let column = std::str::from_utf8(&bytes[line_start..offset])
            .map_or(offset - line_start, |s| s.chars().count())
            + 1;
        Some(BadUtf8 {
            line,
            column,
            line_start,
            offset,
            byte: bytes[offset],
        })
    }

    /// The byte as a Latin-1 or Windows-1252 character, when it is one.
    /// (Decoded by `encoding_rs`, which calamine already brings in; its Windows-1252 is
    /// Latin-1 above 0x9F and maps 0x80-0x9F as the WHATWG encoding standard does.)
    pub fn legacy_char(&self) -> Option<char> {
        if self.byte < 0x80 {
            return None;
        }
        let byte = [self.byte];
        let (text, _, _) = encoding_rs::WINDOWS_1252.decode(&byte);
        text.chars().next().filter(|c| !c.is_control())
    }
}

impl std::fmt::Display for BadUtf8 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "byte 0x{:02X} at line {}, column {} is not UTF-8",
            self.byte, self.line, self.column
        )?;
        match self.legacy_char() {
            Some(c) => write!(
                f,
                " (in Latin-1 or Windows-1252 it is \"{c}\": the file looks saved in one of them; \
                 save it as UTF-8)"
            ),
            None => write!(f, " (save the file as UTF-8)"),
        }
    }
}

/// A file that is not UTF-8 text, with what it is instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}: the file is {what}")]
pub struct NotTextError {
    /// The file name.
    pub file: String,
    /// What it is.
    pub what: NotText,
}

/// [`sniff`] as an error naming the file.
///
/// # Errors
/// [`NotTextError`] when the bytes are UTF-16, UTF-32 or a zip archive.
pub fn check_text(file: &str, bytes: &[u8]) -> Result<(), NotTextError> {
    match sniff(bytes) {
        Some(what) => Err(NotTextError {
            file: file.to_string(),
            what,
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defect_9_binary_files_are_named_not_read_as_empty_text() {
        // Issue 26, defect 9: an image given as a result file said "the first line is \"\"".
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x01\0";
        assert_eq!(sniff(png), Some(NotText::Binary("a PNG image")));
        assert_eq!(
            check_text("chart.png", png).unwrap_err().to_string(),
            "chart.png: the file is a PNG image, not text: choose the result file itself (.jsonl, .json, .csv, .tsv)"
        );
        assert_eq!(
            sniff(b"%PDF-1.7\n%\xE2\xE3"),
            Some(NotText::Binary("a PDF document"))
        );
        assert_eq!(
            sniff(b"\x1F\x8B\x08\0\0\0\0\0"),
            Some(NotText::Binary("gzip-compressed data"))
        );
        // No signature: one byte in ten or more is a control byte or invalid UTF-8.
        let mut noise = Vec::new();
        let mut x: u32 = 12345;
        for _ in 0..1024 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            noise.push((x >> 16) as u8);
        }
        assert_eq!(sniff(&noise), Some(NotText::Binary("binary data")));
    }

    #[test]
    fn recognizes_encodings_and_leaves_text_alone() {
        let le: Vec<u8> = "data_id,prediction\n"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        let be: Vec<u8> = "data_id,prediction\n"
            .encode_utf16()
            .flat_map(u16::to_be_bytes)
            .collect();
        assert_eq!(sniff(&le), Some(NotText::Utf16Le { bom: false }));
        assert_eq!(sniff(&be), Some(NotText::Utf16Be { bom: false }));
        assert_eq!(sniff(b"\xFE\xFF\0a"), Some(NotText::Utf16Be { bom: true }));
        assert_eq!(sniff(b"\xFF\xFE\0\0a\0\0\0"), Some(NotText::Utf32));
        // A NUL or two inside ordinary text is not UTF-16.
        assert_eq!(sniff(b"model,a\0,b\nx,1,2\n"), None);
        assert_eq!(sniff(b""), None);
        // Text with a stray escape sequence (a colour code in a label) is still text.
        assert_eq!(
            sniff(b"{\"category\": \"\x1b[31mMath\x1b[0m\", \"data_id\": 1}\n"),
            None
        );
        assert_eq!(sniff("données,é\n".as_bytes()), None);
        assert_eq!(
            check_text("s.csv", &le).unwrap_err().to_string(),
            "s.csv: the file is UTF-16 LE text (without a byte-order mark), not UTF-8: save it as UTF-8"
        );
    }
}
