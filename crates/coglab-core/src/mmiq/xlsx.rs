//! The first worksheet of an `.xlsx` workbook as text rows, read with `calamine` within stated
//! memory bounds.
//!
//! A workbook is small on disk and can be huge in memory in two ways, and [`first_sheet_rows`]
//! refuses both before the memory is taken (issue #27, defect 1):
//!
//! - **Inflation.** A ZIP member can inflate to far more than the file (a 1 MB member of zeros
//!   inflates to 1 GiB). Before calamine opens the workbook, the sizes the members declare,
//!   summed, must stay within the [`Limit`] for the file; and a member that inflates past its
//!   declared size is stopped by the `zip` crate while it is read.
//! - **Parts read whole.** calamine opens a workbook by reading its shared strings (a `String`
//!   per `<si>`, 24 bytes even for an empty `<si/>` of 5) and its styles (a `Style` per `<xf>`,
//!   font, fill, border or number format). These elements are counted, inflating the two parts
//!   into a counter, and their memory joins the declared sizes against the limit.
//! - **Expansion.** A cell that refers to a shared string becomes a copy of that string: 2,710
//!   rows that refer to one 1 MB string are 2.7 GB of text. The sheet is read one cell at a
//!   time with calamine's streaming cell reader, whose shared-string cells borrow the string
//!   ([`calamine::DataRef::SharedString`]), and each cell's text is counted against the same
//!   [`Limit`] before it is copied; so is the row-by-column grid the rows are laid out in.
//!
//! The limit is [`RATIO`] times the file's size, at least [`FLOOR`], and never more than
//! [`CEILING`]; an error says which of these bounds was met, the file's size and the figure.
//!
//! Cell values as text: strings as written, whole numbers without a decimal point, other
//! numbers, booleans, error codes and dates as calamine prints them (a date-formatted cell is its
//! serial number, an ISO date cell its text). A limit error names the member or the cell where
//! the limit was passed, a cell error the sheet and the cell read before it; no input panics
//! (fuzzed by `fuzz/fuzz_targets/xlsx.rs`).

use calamine::{DataRef, Reader, Xlsx};
use std::fmt;
use std::io::Cursor;

/// How many times its own size a workbook may inflate to, or expand to as text.
pub const RATIO: u64 = 100;
/// The limit for small files: a workbook may always take this much (16 MiB).
pub const FLOOR: u64 = 16 << 20;
/// The absolute ceiling, whatever the file's size (256 MiB).
pub const CEILING: u64 = 256 << 20;

/// Bytes counted for each cell kept (its position and its `String`), besides its text.
const CELL_COST: u64 = std::mem::size_of::<(u32, u32, String)>() as u64;
/// Bytes counted for each slot of the row-by-column grid.
const SLOT_COST: u64 = std::mem::size_of::<String>() as u64;

/// Which bound set a [`Limit`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitBy {
    /// [`RATIO`] times the file's size.
    FileSize,
    /// [`FLOOR`], for a file whose [`RATIO`] multiple is smaller.
    Floor,
    /// [`CEILING`], for a file whose [`RATIO`] multiple is larger.
    Ceiling,
}

/// The most bytes a workbook may inflate to (summed over its ZIP members) or expand to as cell
/// text: [`RATIO`] times its size, at least [`FLOOR`], at most [`CEILING`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    /// The limit in bytes.
    pub bytes: u64,
    /// The workbook's size in bytes.
    pub file_bytes: u64,
    /// Which bound it is.
    pub by: LimitBy,
}

impl Limit {
    /// The limit for a workbook of `file_bytes` bytes.
    ///
    /// ```
    /// use coglab_core::mmiq::xlsx::{Limit, LimitBy, CEILING, FLOOR};
    /// // 30 KB x 100 = 3 MB is under the 16 MiB floor.
    /// assert_eq!(Limit::for_file(30_000).by, LimitBy::Floor);
    /// assert_eq!(Limit::for_file(30_000).bytes, FLOOR);
    /// // 1 MB x 100 = 100 MB.
    /// assert_eq!(Limit::for_file(1_000_000).bytes, 100_000_000);
    /// // 10 MB x 100 = 1 GB is over the 256 MiB ceiling.
    /// assert_eq!(Limit::for_file(10_000_000).bytes, CEILING);
    /// ```
    #[must_use]
    pub fn for_file(file_bytes: u64) -> Self {
        let by_size = file_bytes.saturating_mul(RATIO);
        let (bytes, by) = if by_size > CEILING {
            (CEILING, LimitBy::Ceiling)
        } else if by_size < FLOOR {
            (FLOOR, LimitBy::Floor)
        } else {
            (by_size, LimitBy::FileSize)
        };
        Self {
            bytes,
            file_bytes,
            by,
        }
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (bytes, file) = (human(self.bytes), human(self.file_bytes));
        match self.by {
            LimitBy::FileSize => write!(f, "{bytes} ({RATIO} times the file's {file})"),
            LimitBy::Floor => write!(
                f,
                "{bytes} (the limit for any file; {RATIO} times this file's {file} is less)"
            ),
            LimitBy::Ceiling => write!(
                f,
                "{bytes} (the absolute ceiling; {RATIO} times the file's {file} is more)"
            ),
        }
    }
}

/// `n` bytes for a person: bytes, KiB, MiB or GiB with one decimal.
fn human(n: u64) -> String {
    let x = n as f64;
    if n >= 1 << 30 {
        format!("{:.1} GiB", x / f64::from(1u32 << 30))
    } else if n >= 1 << 20 {
        format!("{:.1} MiB", x / f64::from(1u32 << 20))
    } else if n >= 1 << 10 {
        format!("{:.1} KiB", x / 1024.0)
    } else {
        format!("{n} bytes")
    }
}

/// Why a workbook could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum XlsxError {
    /// The bytes do not start as a ZIP archive does, so they are no `.xlsx` workbook (a text
    /// file given the workbook format, or an old `.xls`): what they start with instead.
    #[error("this is not an .xlsx workbook (one is a ZIP archive, starting with \"PK\"): {0}")]
    NotWorkbook(String),
    /// The bytes are not a ZIP archive (or its directory is unreadable): the `zip` crate's
    /// message.
    #[error("not a readable ZIP archive: {0}")]
    Zip(String),
    /// The members declare that they inflate to more than the limit.
    #[error(
        "the ZIP members inflate to {} or more, more than {limit} (their declared sizes, summed \
         up to member {member})",
        human(*.declared)
    )]
    Inflates {
        /// The member at which the running total passed the limit.
        member: String,
        /// The declared sizes summed up to that member, in bytes.
        declared: u64,
        /// The limit.
        limit: Limit,
    },
    /// The shared strings and styles calamine builds when it opens the workbook would take more
    /// than the limit (with the members' declared sizes).
    #[error(
        "the workbook's {strings} shared strings and {styles} style elements would take {} in \
         memory with its parts, more than {limit}",
        human(*.bytes)
    )]
    Parts {
        /// `<si>` elements in the shared strings.
        strings: u64,
        /// `<xf>`, `<font>`, `<fill>`, `<border>` and `<numFmt>` elements in the styles.
        styles: u64,
        /// The members' declared sizes plus the elements' memory, in bytes.
        bytes: u64,
        /// The limit.
        limit: Limit,
    },
    /// The sheet's cells expand to more text than the limit.
    #[error(
        "sheet '{sheet}' would expand to {} of cell text and layout, more than {limit} \
         (passed at {at}, after {cells} cells)",
        human(*.bytes)
    )]
    Expands {
        /// The sheet.
        sheet: String,
        /// What the sheet would take, in bytes: its cells' text and the bytes counted per cell
        /// (and per grid slot, when the grid passed the limit).
        bytes: u64,
        /// Where the total passed the limit: a cell such as `A17`, or the grid.
        at: String,
        /// The cells kept before it.
        cells: usize,
        /// The limit.
        limit: Limit,
    },
    /// calamine could not open the workbook (its parts, shared strings, styles).
    #[error("{0}")]
    Workbook(String),
    /// The workbook lists no worksheet.
    #[error("the workbook has no worksheet")]
    NoSheet,
    /// A cell of the sheet could not be read.
    #[error("sheet '{sheet}', {at}: {message}")]
    Cell {
        /// The sheet.
        sheet: String,
        /// Where: `the cell after B4` (the last cell read) or `the first cell`.
        at: String,
        /// calamine's message.
        message: String,
    },
}

/// A row of [`first_sheet_rows`]: its 1-based spreadsheet row number and its cells as text.
pub type Row = (usize, Vec<String>);

/// The spreadsheet name of a 0-based cell position (`(0, 0)` is `A1`).
///
/// ```
/// assert_eq!(coglab_core::mmiq::xlsx::cell_name(4, 27), "AB5");
/// ```
#[must_use]
pub fn cell_name(row: u32, col: u32) -> String {
    let mut letters = Vec::new();
    let mut c = u64::from(col) + 1;
    while c > 0 {
        let d = ((c - 1) % 26) as u8;
        letters.push(char::from(b'A' + d));
        c = (c - 1) / 26;
    }
    letters.iter().rev().collect::<String>() + &(u64::from(row) + 1).to_string()
}

/// Checks the members' declared sizes, summed, against `limit`, then adds the memory of the
/// elements calamine builds a value for when it opens the workbook (see the module doc). A
/// member cannot hide its size: the `zip` crate (which calamine reads with) stops with an error
/// as soon as a member inflates past the size it declares (`tests/xlsx_limits.rs` checks this).
fn check_inflation(bytes: &[u8], limit: Limit) -> Result<(), XlsxError> {
    let zip_error = |e: zip::result::ZipError| XlsxError::Zip(e.to_string());
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).map_err(zip_error)?;
    let mut declared: u64 = 0;
    let mut parts = Vec::new();
    for i in 0..zip.len() {
        let member = zip.by_index_raw(i).map_err(zip_error)?;
        let name = member
            .name()
            .map_or_else(|_| String::new(), |n| n.to_ascii_lowercase());
        declared = declared.saturating_add(member.size());
        if declared > limit.bytes {
            return Err(XlsxError::Inflates {
                member: member
                    .name()
                    .map_or_else(|_| format!("#{i}"), |n| n.to_string()),
                declared,
                limit,
            });
        }
        if name.ends_with("sharedstrings.xml") {
            parts.push((i, &["si"][..]));
        } else if name.ends_with("styles.xml") {
            parts.push((i, &["xf", "font", "fill", "border", "numFmt"][..]));
        }
    }
    let (mut strings, mut styles) = (0u64, 0u64);
    for (i, names) in parts {
        // Within the declared size (the zip crate stops a member that passes it).
        let member = zip.by_index(i).map_err(zip_error)?;
        let n = count_elements(member, names).map_err(|e| XlsxError::Zip(e.to_string()))?;
        if names == ["si"] {
            strings += n;
        } else {
            styles += n;
        }
    }
    let total = declared
        .saturating_add(strings.saturating_mul(SLOT_COST))
        .saturating_add(styles.saturating_mul(STYLE_COST));
    if total > limit.bytes {
        return Err(XlsxError::Parts {
            strings,
            styles,
            bytes: total,
            limit,
        });
    }
    Ok(())
}

/// Bytes counted for each style element calamine builds a value for.
const STYLE_COST: u64 = std::mem::size_of::<calamine::Style>() as u64;

/// How many start (or empty) tags of XML read from `r` have one of the local `names`
/// (namespace prefixes ignored), reading 64 KiB at a time.
fn count_elements(mut r: impl std::io::Read, names: &[&str]) -> std::io::Result<u64> {
    let mut buf = vec![0u8; 64 << 10];
    let mut name = Vec::with_capacity(16);
    // Collecting a tag's name: after `<`, until a space, `>` or `/`.
    let mut in_name = false;
    let mut count = 0;
    loop {
        let n = match r.read(&mut buf) {
            Ok(0) => return Ok(count),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        for &b in &buf[..n] {
            if b == b'<' {
                in_name = true;
                name.clear();
            } else if in_name {
                match b {
                    b':' => name.clear(),
                    b' ' | b'\t' | b'\r' | b'\n' | b'>' | b'/' => {
                        in_name = false;
                        if names.iter().any(|w| w.as_bytes() == name.as_slice()) {
                            count += 1;
                        }
                    }
                    _ if name.len() < 16 => name.push(b),
                    _ => in_name = false,
                }
            }
        }
    }
}

/// The text of a cell value; `None` for an empty cell.
fn cell_text(value: &DataRef<'_>) -> Option<String> {
    Some(match value {
        DataRef::Empty => return None,
        DataRef::String(s) | DataRef::DateTimeIso(s) | DataRef::DurationIso(s) => s.clone(),
        DataRef::SharedString(s) => (*s).to_string(),
        DataRef::Int(i) => i.to_string(),
        DataRef::Float(f) => number_text(*f),
        DataRef::Bool(b) => b.to_string(),
        DataRef::DateTime(d) => number_text(d.as_f64()),
        DataRef::Error(e) => e.to_string(),
    })
}

/// A number as text: whole numbers without a decimal point (as `i64` prints them), others as
/// `f64` prints them (shortest round trip).
fn number_text(f: f64) -> String {
    if f.fract() == 0.0 && f.abs() < 9.0e15 {
        (f as i64).to_string()
    } else {
        f.to_string()
    }
}

/// The length of a cell's text, known before it is copied.
fn text_len(value: &DataRef<'_>) -> u64 {
    match value {
        DataRef::String(s) | DataRef::DateTimeIso(s) | DataRef::DurationIso(s) => s.len() as u64,
        DataRef::SharedString(s) => s.len() as u64,
        // Numbers, booleans and error codes print in at most a few dozen bytes.
        _ => 32,
    }
}

/// What bytes that are no ZIP archive start with, for [`XlsxError::NotWorkbook`] (issue 42,
/// defect 16: a JSONL file given the workbook format read "File not found '_rels/.rels'").
fn not_workbook(bytes: &[u8]) -> String {
    if bytes.starts_with(&[0xD0, 0xCF, 0x11, 0xE0]) {
        return "it is an old .xls (Excel 97-2003) workbook: save it as .xlsx".into();
    }
    if bytes.is_empty() {
        return "the file is empty".into();
    }
    let head = &bytes[..bytes.len().min(200)];
    let text = match std::str::from_utf8(head) {
        Ok(t) => Some(t),
        // A character cut at the end of the 200 bytes: the text before it.
        Err(e) if e.error_len().is_none() => std::str::from_utf8(&head[..e.valid_up_to()]).ok(),
        Err(_) => None,
    };
    match text {
        Some(t) => {
            let first: String = t
                .trim_start_matches('\u{feff}')
                .lines()
                .next()
                .unwrap_or_default()
                .chars()
                .take(40)
                .collect();
            let kind = if first.trim_start().starts_with(['{', '[']) {
                "JSON or JSONL text"
            } else {
                "text"
            };
            format!("it is {kind}, starting {first:?}: choose the format it is in")
        }
        None => format!(
            "it starts with the bytes {}",
            head.iter()
                .take(4)
                .map(|b| format!("{b:02X}"))
                .collect::<Vec<_>>()
                .join(" ")
        ),
    }
}

/// The first sheet of an `.xlsx` workbook as text rows: each row's 1-based spreadsheet row
/// number and its cells as text (empty cells as `""`). The rows span the non-empty cells'
/// bounding box (they start at its first column); rows without a non-empty cell are left out.
///
/// # Errors
/// [`XlsxError::Zip`] or [`XlsxError::Workbook`] when the bytes are not a readable workbook,
/// [`XlsxError::NoSheet`] when it lists no sheet, [`XlsxError::Cell`] for an unreadable cell,
/// and [`XlsxError::Inflates`] / [`XlsxError::Expands`] when the workbook would take more memory
/// than its [`Limit`].
pub fn first_sheet_rows(bytes: &[u8]) -> Result<Vec<Row>, XlsxError> {
    if !bytes.starts_with(b"PK") {
        return Err(XlsxError::NotWorkbook(not_workbook(bytes)));
    }
    let limit = Limit::for_file(bytes.len() as u64);
    check_inflation(bytes, limit)?;
    let mut book: Xlsx<_> =
        Xlsx::new(Cursor::new(bytes)).map_err(|e| XlsxError::Workbook(e.to_string()))?;
    let sheet = book
        .sheet_names()
        .first()
        .cloned()
        .ok_or(XlsxError::NoSheet)?;
    let cell_error = |last: Option<(u32, u32)>, e: calamine::XlsxError| XlsxError::Cell {
        sheet: sheet.clone(),
        at: last.map_or_else(
            || "the first cell".to_string(),
            |(r, c)| format!("the cell after {}", cell_name(r, c)),
        ),
        message: e.to_string(),
    };
    let mut reader = book
        .worksheet_cells_reader(&sheet)
        .map_err(|e| cell_error(None, e))?;
    let mut cells: Vec<(u32, u32, String)> = Vec::new();
    let mut used: u64 = 0;
    let mut last = None;
    // Past the limit, cells are counted (to report the figure) but no longer copied.
    let mut over: Option<String> = None;
    while let Some(cell) = reader.next_cell().map_err(|e| cell_error(last, e))? {
        let (row, col) = cell.get_position();
        last = Some((row, col));
        let value = cell.get_value();
        if matches!(value, DataRef::Empty) {
            continue;
        }
        used = used.saturating_add(text_len(value) + CELL_COST);
        if over.is_none() && used > limit.bytes {
            over = Some(cell_name(row, col));
        }
        if over.is_none() {
            if let Some(text) = cell_text(value) {
                cells.push((row, col, text));
            }
        }
    }
    drop(reader);
    if let Some(at) = over {
        return Err(XlsxError::Expands {
            sheet,
            bytes: used,
            at,
            cells: cells.len(),
            limit,
        });
    }
    lay_out(cells, used, &sheet, limit)
}

/// Lays `cells` out in rows over their bounding box, after checking that the grid fits in what
/// `limit` leaves beside the `used` bytes of text.
fn lay_out(
    mut cells: Vec<(u32, u32, String)>,
    used: u64,
    sheet: &str,
    limit: Limit,
) -> Result<Vec<Row>, XlsxError> {
    let Some(first_col) = cells.iter().map(|c| c.1).min() else {
        return Ok(Vec::new());
    };
    // In u64: a malformed reference can put a cell at any u32 column (calamine wraps), and
    // `usize` is 32 bits in the web app.
    let width = u64::from(cells.iter().map(|c| c.1 - first_col).max().unwrap_or(0)) + 1;
    // Stable: a later cell at the same place replaces an earlier one below.
    cells.sort_by_key(|c| c.0);
    let mut rows = 0u64;
    let mut prev = None;
    for c in &cells {
        if prev != Some(c.0) {
            rows += 1;
            prev = Some(c.0);
        }
    }
    let grid = rows.saturating_mul(width).saturating_mul(SLOT_COST);
    if used.saturating_add(grid) > limit.bytes {
        return Err(XlsxError::Expands {
            sheet: sheet.to_string(),
            bytes: used.saturating_add(grid),
            at: format!("the layout of {rows} rows by {width} columns"),
            cells: cells.len(),
            limit,
        });
    }
    // Within the limit, so it fits in usize.
    let width = usize::try_from(width).unwrap_or(usize::MAX);
    let mut out: Vec<Row> = Vec::new();
    for (row, col, text) in cells {
        let number = usize::try_from(u64::from(row) + 1).unwrap_or(usize::MAX);
        if out.last().map(|r| r.0) != Some(number) {
            out.push((number, vec![String::new(); width]));
        }
        if let Some(last) = out.last_mut() {
            last.1[(col - first_col) as usize] = text;
        }
    }
    Ok(out)
}
