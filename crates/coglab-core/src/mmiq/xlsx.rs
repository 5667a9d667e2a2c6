//! A small reader for the first worksheet of an `.xlsx` workbook (Office Open XML), enough for
//! VLMEvalKit prediction sheets, in place of the `calamine` crate (whose ZIP, XML and encoding
//! dependencies more than doubled the scoring worker's size).
//!
//! It reads the ZIP central directory, inflates the few entries it needs (stored or deflated,
//! with `miniz_oxide`), follows the package and workbook relationships to the first sheet, and
//! scans `xl/sharedStrings.xml` and that sheet with a small XML tokenizer. Cell values follow
//! calamine 0.38's rules (shared, inline and formula strings, numbers, booleans, error codes,
//! ISO dates, `_xHHHH_` escapes, rich text without phonetic runs), so the table built from them
//! is the one calamine gave. Number formats are not read: a date-formatted cell gives its serial
//! number, as calamine prints it.
//!
//! Every error names the ZIP entry and, inside a sheet, the cell; no input panics (fuzzed by
//! `fuzz/fuzz_targets/xlsx.rs`).

use std::collections::HashMap;

/// A non-empty cell value of a worksheet.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A string: shared, inline or a formula's string result.
    Str(String),
    /// A number.
    Number(f64),
    /// A boolean.
    Bool(bool),
    /// An error code such as `#DIV/0!`.
    Error(String),
    /// An ISO 8601 date (`t="d"` cells), as written.
    DateIso(String),
}

impl Value {
    /// The cell as text: whole numbers without a decimal point, other values as calamine's
    /// `Display` prints them.
    #[must_use]
    pub fn text(&self) -> String {
        match self {
            Value::Str(s) | Value::Error(s) | Value::DateIso(s) => s.clone(),
            Value::Number(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => (*f as i64).to_string(),
            Value::Number(f) => f.to_string(),
            Value::Bool(b) => b.to_string(),
        }
    }
}

/// A non-empty cell: 0-based row and column, and value.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// 0-based row (row 1 of the spreadsheet is 0).
    pub row: u32,
    /// 0-based column (column A is 0).
    pub col: u32,
    /// The value.
    pub value: Value,
}

/// Reads the non-empty cells of the first sheet of an `.xlsx` workbook, in document order.
/// `Ok(None)` if the workbook lists no sheet.
///
/// # Errors
/// A message naming the ZIP entry (and the cell, in a sheet) when the bytes are not a readable
/// workbook.
pub fn first_sheet_cells(bytes: &[u8]) -> Result<Option<Vec<Cell>>, String> {
    let zip = Zip::open(bytes)?;
    // The package relationships name the workbook part.
    let rels = zip.text("_rels/.rels")?.ok_or("no _rels/.rels entry")?;
    let mut target = None;
    for_each_relationship(&rels, "_rels/.rels", |_, typ, t| {
        if typ.ends_with("/relationships/officeDocument") {
            target = Some(t.to_string());
        }
    })?;
    let target = target.ok_or("_rels/.rels: no officeDocument relationship")?;
    let (dir, name) = target.split_at(target.rfind('/').map_or(0, |i| i + 1));
    let dir = dir.strip_prefix('/').unwrap_or(dir);
    let name = if name.is_empty() {
        "workbook.xml"
    } else {
        name
    };

    let sst_name = format!("{dir}sharedStrings.xml");
    let strings = match zip.text(&sst_name)? {
        Some(x) => shared_strings(&x, &sst_name)?,
        None => Vec::new(),
    };
    let wb_rels_name = format!("{dir}_rels/{name}.rels");
    let wb_rels = zip
        .text(&wb_rels_name)?
        .ok_or_else(|| format!("no {wb_rels_name} entry"))?;
    let mut rel_targets = HashMap::new();
    for_each_relationship(&wb_rels, &wb_rels_name, |id, _, t| {
        rel_targets.insert(id.to_string(), t.to_string());
    })?;
    let wb_name = format!("{dir}{name}");
    let Some(wb) = zip.text(&wb_name)? else {
        return Ok(None);
    };
    let Some(rel_id) = first_sheet_rel(&wb, &wb_name)? else {
        return Ok(None);
    };
    let sheet_target = rel_targets
        .get(&rel_id)
        .ok_or_else(|| format!("{wb_rels_name}: no relationship {rel_id} for the first sheet"))?;
    let sheet_name = match sheet_target.strip_prefix('/') {
        Some(abs) => abs.to_string(),
        None => format!("{dir}{sheet_target}"),
    };
    let sheet = zip
        .text(&sheet_name)?
        .ok_or_else(|| format!("no {sheet_name} entry for the first sheet"))?;
    sheet_cells(&sheet, &sheet_name, &strings).map(Some)
}

/// A row of [`first_sheet_rows`]: its 1-based spreadsheet row number and its cells as text.
pub type Row = (usize, Vec<String>);

/// The most cells (rows times columns of the bounding box) [`first_sheet_rows`] lays out.
pub const MAX_GRID_CELLS: usize = 1 << 24;

/// The first sheet of an `.xlsx` workbook as text rows: each row's 1-based spreadsheet row
/// number and its cells as text ([`Value::text`], empty cells as `""`). As calamine's range
/// did, the rows span the non-empty cells' bounding box (they start at its first column) and
/// rows without a non-empty cell are left out. `Ok(None)` if the workbook lists no sheet.
///
/// # Errors
/// As [`first_sheet_cells`], and when the box holds more than [`MAX_GRID_CELLS`] cells.
pub fn first_sheet_rows(bytes: &[u8]) -> Result<Option<Vec<Row>>, String> {
    let Some(cells) = first_sheet_cells(bytes)? else {
        return Ok(None);
    };
    let first_col = cells.iter().map(|c| c.col).min().unwrap_or(0);
    let width = cells.iter().map(|c| c.col - first_col).max().unwrap_or(0) as usize + 1;
    let mut row_ids: Vec<u32> = cells.iter().map(|c| c.row).collect();
    crate::order::sort_dedup(&mut row_ids);
    if row_ids.len().saturating_mul(width) > MAX_GRID_CELLS {
        return Err(format!(
            "the first sheet spans {} rows by {width} columns, more cells than this reader holds ({MAX_GRID_CELLS})",
            row_ids.len()
        ));
    }
    // Row -> cells; a later cell at the same place replaces an earlier one.
    let mut grid: std::collections::BTreeMap<u32, Vec<String>> = std::collections::BTreeMap::new();
    for c in cells {
        grid.entry(c.row)
            .or_insert_with(|| vec![String::new(); width])[(c.col - first_col) as usize] =
            c.value.text();
    }
    Ok(Some(
        grid.into_iter()
            .map(|(r, cells)| (r as usize + 1, cells))
            .collect(),
    ))
}

// ---------------------------------------------------------------------------------------------
// ZIP

struct Entry<'a> {
    name: String,
    method: u16,
    flags: u16,
    crc: u32,
    size: u64,
    data: &'a [u8],
}

struct Zip<'a> {
    entries: Vec<Entry<'a>>,
}

/// The `N` bytes at `at` (`None` past the end, offsets that overflow included).
fn bytes_at<const N: usize>(b: &[u8], at: usize) -> Option<[u8; N]> {
    b.get(at..at.checked_add(N)?)?.try_into().ok()
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    bytes_at(b, at).map(u16::from_le_bytes)
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    bytes_at(b, at).map(u32::from_le_bytes)
}

fn u64_at(b: &[u8], at: usize) -> Option<u64> {
    bytes_at(b, at).map(u64::from_le_bytes)
}

fn usize_of(v: u64) -> usize {
    usize::try_from(v).unwrap_or(usize::MAX)
}

const NOT_ZIP: &str = "not a ZIP archive (no end of central directory record)";

impl<'a> Zip<'a> {
    fn open(b: &'a [u8]) -> Result<Self, String> {
        // End of central directory: 22 bytes plus a comment of at most 65,535.
        let lo = b.len().saturating_sub(22 + 65_535);
        let eocd = (lo..=b.len().saturating_sub(22))
            .rev()
            .find(|&i| b.len() >= 22 && u32_at(b, i) == Some(0x0605_4b50))
            .ok_or(NOT_ZIP)?;
        let bad = || "corrupt ZIP central directory".to_string();
        let mut count = u64::from(u16_at(b, eocd + 10).ok_or_else(bad)?);
        let mut cd_offset = u64::from(u32_at(b, eocd + 16).ok_or_else(bad)?);
        if count == 0xFFFF || cd_offset == 0xFFFF_FFFF {
            // ZIP64: the locator just before the record points at the ZIP64 record.
            let loc = eocd.checked_sub(20).ok_or_else(bad)?;
            if u32_at(b, loc) == Some(0x0706_4b50) {
                let rec = usize_of(u64_at(b, loc + 8).ok_or_else(bad)?);
                if u32_at(b, rec) != Some(0x0606_4b50) {
                    return Err(bad());
                }
                count = u64_at(b, rec.saturating_add(32)).ok_or_else(bad)?;
                cd_offset = u64_at(b, rec.saturating_add(48)).ok_or_else(bad)?;
            }
        }
        let mut at = usize_of(cd_offset);
        let mut entries = Vec::new();
        for _ in 0..count {
            if u32_at(b, at) != Some(0x0201_4b50) {
                return Err(bad());
            }
            let flags = u16_at(b, at.saturating_add(8)).ok_or_else(bad)?;
            let method = u16_at(b, at.saturating_add(10)).ok_or_else(bad)?;
            let crc = u32_at(b, at.saturating_add(16)).ok_or_else(bad)?;
            let mut csize = u64::from(u32_at(b, at.saturating_add(20)).ok_or_else(bad)?);
            let mut size = u64::from(u32_at(b, at.saturating_add(24)).ok_or_else(bad)?);
            let name_len = usize::from(u16_at(b, at.saturating_add(28)).ok_or_else(bad)?);
            let extra_len = usize::from(u16_at(b, at.saturating_add(30)).ok_or_else(bad)?);
            let comment_len = usize::from(u16_at(b, at.saturating_add(32)).ok_or_else(bad)?);
            let mut local = u64::from(u32_at(b, at.saturating_add(42)).ok_or_else(bad)?);
            let name_at = at.saturating_add(46);
            let name_bytes = b
                .get(name_at..name_at.saturating_add(name_len))
                .ok_or_else(bad)?;
            let name = String::from_utf8_lossy(name_bytes).into_owned();
            let extra_at = name_at + name_len;
            let extra = b
                .get(extra_at..extra_at.saturating_add(extra_len))
                .ok_or_else(bad)?;
            // ZIP64 extended information: the 0xFFFFFFFF fields, in this order.
            let mut x = 0;
            while x + 4 <= extra.len() {
                let id = u16_at(extra, x).unwrap_or(0);
                let len = usize::from(u16_at(extra, x + 2).unwrap_or(0));
                if id == 1 {
                    let mut f = x + 4;
                    for v in [&mut size, &mut csize, &mut local] {
                        if *v == 0xFFFF_FFFF {
                            *v = u64_at(extra, f).ok_or_else(bad)?;
                            f += 8;
                        }
                    }
                }
                x += 4 + len;
            }
            at = extra_at + extra_len + comment_len;
            let lh = usize_of(local);
            let corrupt = || format!("{name}: corrupt ZIP local header");
            if u32_at(b, lh) != Some(0x0403_4b50) {
                return Err(corrupt());
            }
            let start = usize::from(u16_at(b, lh.saturating_add(26)).ok_or_else(corrupt)?)
                + usize::from(u16_at(b, lh.saturating_add(28)).ok_or_else(corrupt)?)
                + lh
                + 30;
            let data = start
                .checked_add(usize_of(csize))
                .and_then(|end| b.get(start..end))
                .ok_or_else(|| format!("{name}: the ZIP entry runs past the end of the file"))?;
            entries.push(Entry {
                name,
                method,
                flags,
                crc,
                size,
                data,
            });
        }
        Ok(Zip { entries })
    }

    /// The entry's text, `None` if the archive has no such entry (names compared without case,
    /// `\` read as `/`, as calamine does).
    fn text(&self, name: &str) -> Result<Option<String>, String> {
        let e = self.entries.iter().find(|e| e.name == name).or_else(|| {
            self.entries
                .iter()
                .find(|e| e.name.replace('\\', "/").eq_ignore_ascii_case(name))
        });
        let Some(e) = e else { return Ok(None) };
        if e.flags & 1 != 0 {
            return Err(format!("{}: the entry is encrypted", e.name));
        }
        let bytes = match e.method {
            0 => e.data.to_vec(),
            8 => miniz_oxide::inflate::decompress_to_vec_with_limit(e.data, usize_of(e.size))
                .map_err(|err| {
                    format!("{}: cannot inflate the entry ({:?})", e.name, err.status)
                })?,
            m => {
                return Err(format!(
                    "{}: unsupported ZIP compression method {m}",
                    e.name
                ))
            }
        };
        if bytes.len() as u64 != e.size || crc32(&bytes) != e.crc {
            return Err(format!("{}: the entry is corrupt (size or CRC-32)", e.name));
        }
        let text = String::from_utf8(bytes).map_err(|err| {
            format!(
                "{}: not UTF-8 (byte {})",
                e.name,
                err.utf8_error().valid_up_to()
            )
        })?;
        Ok(Some(
            text.strip_prefix('\u{feff}')
                .map(str::to_string)
                .unwrap_or(text),
        ))
    }
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut table = [0u32; 256];
    for (i, t) in (0u32..).zip(table.iter_mut()) {
        let mut c = i;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
        *t = c;
    }
    !bytes
        .iter()
        .fold(!0u32, |c, &b| table[usize::from((c as u8) ^ b)] ^ (c >> 8))
}

// ---------------------------------------------------------------------------------------------
// XML tokenizer

#[derive(Debug)]
enum Ev<'a> {
    /// A start tag (self-closing tags give a `Start` then an `End`, as calamine reads them).
    Start {
        name: &'a str,
        attrs: &'a str,
    },
    End {
        name: &'a str,
    },
    /// Raw character data (entities undecoded), up to the next `<`.
    Text(&'a str),
    /// The content of a CDATA section.
    CData(&'a str),
}

struct Xml<'a> {
    s: &'a str,
    pos: usize,
    pending_end: Option<&'a str>,
    entry: &'a str,
}

impl<'a> Xml<'a> {
    fn new(s: &'a str, entry: &'a str) -> Self {
        Xml {
            s,
            pos: 0,
            pending_end: None,
            entry,
        }
    }

    fn err(&self, what: &str) -> String {
        let line = self.s[..self.pos.min(self.s.len())].matches('\n').count() + 1;
        format!("{}, line {line}: {what}", self.entry)
    }

    /// The next event, `None` at the end of the text.
    fn next(&mut self) -> Result<Option<Ev<'a>>, String> {
        if let Some(name) = self.pending_end.take() {
            return Ok(Some(Ev::End { name }));
        }
        loop {
            let rest = &self.s[self.pos..];
            if rest.is_empty() {
                return Ok(None);
            }
            if !rest.starts_with('<') {
                let n = rest.find('<').unwrap_or(rest.len());
                self.pos += n;
                return Ok(Some(Ev::Text(&rest[..n])));
            }
            let (skip_to, close) = if rest.starts_with("<?") {
                (rest.find("?>"), 2)
            } else if rest.starts_with("<!--") {
                (rest.find("-->"), 3)
            } else if let Some(body) = rest.strip_prefix("<![CDATA[") {
                let end = body
                    .find("]]>")
                    .ok_or_else(|| self.err("unclosed CDATA section"))?;
                self.pos += 9 + end + 3;
                return Ok(Some(Ev::CData(&body[..end])));
            } else if rest.starts_with("<!") {
                (rest.find('>'), 1)
            } else {
                (None, 0)
            };
            if close > 0 {
                let end = skip_to.ok_or_else(|| self.err("unclosed markup"))?;
                self.pos += end + close;
                continue;
            }
            // A tag: find its '>' outside quoted attribute values.
            let bytes = rest.as_bytes();
            let mut quote = 0u8;
            let mut end = None;
            for (i, &c) in bytes.iter().enumerate().skip(1) {
                if quote != 0 {
                    if c == quote {
                        quote = 0;
                    }
                } else if c == b'"' || c == b'\'' {
                    quote = c;
                } else if c == b'>' {
                    end = Some(i);
                    break;
                }
            }
            let end = end.ok_or_else(|| self.err("unclosed tag"))?;
            self.pos += end + 1;
            if let Some(name) = rest[..end].strip_prefix("</") {
                return Ok(Some(Ev::End {
                    name: name.trim_end(),
                }));
            }
            let mut inner = &rest[1..end];
            let self_closing = inner.ends_with('/');
            if self_closing {
                inner = &inner[..inner.len() - 1];
            }
            let n = inner
                .find(|c: char| c.is_ascii_whitespace())
                .unwrap_or(inner.len());
            let (name, attrs) = inner.split_at(n);
            if name.is_empty() {
                return Err(self.err("a tag without a name"));
            }
            if self_closing {
                self.pending_end = Some(name);
            }
            return Ok(Some(Ev::Start { name, attrs }));
        }
    }

    /// Skips events up to and including the end tag named `name`.
    fn skip_to_end(&mut self, name: &str) -> Result<(), String> {
        loop {
            match self.next()? {
                Some(Ev::End { name: n }) if n == name => return Ok(()),
                Some(_) => {}
                None => return Err(self.err(&format!("no closing </{name}>"))),
            }
        }
    }
}

/// The local part of a qualified name (`x:c` is `c`).
fn local(name: &str) -> &str {
    name.rsplit(':').next().unwrap_or(name)
}

/// The raw value of the attribute whose qualified name is `key` (or, with `any_prefix`, whose
/// local name is `key`).
fn attr<'a>(attrs: &'a str, key: &str, any_prefix: bool) -> Option<&'a str> {
    let mut rest = attrs;
    loop {
        rest = rest.trim_start();
        let eq = rest.find('=')?;
        let k = rest[..eq].trim();
        let after = rest[eq + 1..].trim_start();
        let q = after.chars().next()?;
        if q != '"' && q != '\'' {
            return None;
        }
        let close = after[1..].find(q)?;
        let v = &after[1..1 + close];
        if k == key || (any_prefix && local(k) == key) {
            return Some(v);
        }
        rest = &after[close + 2..];
    }
}

/// Decodes the five predefined entities and character references; XML 1.0 line ends become `\n`.
fn decode(raw: &str, out: &mut String) -> Result<(), String> {
    let mut rest = raw;
    while let Some(i) = rest.find(['&', '\r']) {
        out.push_str(&rest[..i]);
        if rest.as_bytes()[i] == b'\r' {
            out.push('\n');
            rest = rest[i + 1..].strip_prefix('\n').unwrap_or(&rest[i + 1..]);
            continue;
        }
        let semi = rest[i..]
            .find(';')
            .ok_or_else(|| format!("an unterminated entity in {:?}", snip(&rest[i..])))?;
        let ent = &rest[i + 1..i + semi];
        let c = match ent {
            "lt" => Some('<'),
            "gt" => Some('>'),
            "amp" => Some('&'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ => ent
                .strip_prefix("#x")
                .map(|h| u32::from_str_radix(h, 16))
                .or_else(|| ent.strip_prefix('#').map(str::parse::<u32>))
                .and_then(Result::ok)
                .and_then(char::from_u32),
        };
        out.push(c.ok_or_else(|| format!("an unknown entity &{};", snip(ent)))?);
        rest = &rest[i + semi + 1..];
    }
    out.push_str(rest);
    Ok(())
}

fn snip(s: &str) -> String {
    s.chars().take(20).collect()
}

/// Excel's `_xHHHH_` escapes (UTF-16 code units) in strings.
fn unescape_excel(s: String) -> String {
    fn unit(b: &[u8]) -> Option<u16> {
        let b = b.get(..7)?;
        if b[0] != b'_'
            || b[1] != b'x'
            || b[6] != b'_'
            || !b[2..6].iter().all(u8::is_ascii_hexdigit)
        {
            return None;
        }
        u16::from_str_radix(std::str::from_utf8(&b[2..6]).ok()?, 16).ok()
    }
    if !s.contains("_x") {
        return s;
    }
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let (mut i, mut copied) = (0, 0);
    while i < b.len() {
        let Some(u) = (b[i] == b'_').then(|| unit(&b[i..])).flatten() else {
            i += 1;
            continue;
        };
        out.push_str(&s[copied..i]);
        i += 7;
        let c = match u {
            0xD800..=0xDBFF => match unit(&b[i..]) {
                Some(lo @ 0xDC00..=0xDFFF) => {
                    i += 7;
                    char::from_u32(
                        0x10000 + ((u32::from(u) - 0xD800) << 10) + (u32::from(lo) - 0xDC00),
                    )
                }
                _ => None,
            },
            _ => char::from_u32(u32::from(u)),
        };
        out.push(c.unwrap_or(char::REPLACEMENT_CHARACTER));
        copied = i;
    }
    out.push_str(&s[copied..]);
    out
}

// ---------------------------------------------------------------------------------------------
// Workbook parts

fn for_each_relationship(
    xml: &str,
    entry: &str,
    mut f: impl FnMut(&str, &str, &str),
) -> Result<(), String> {
    let mut x = Xml::new(xml, entry);
    while let Some(ev) = x.next()? {
        if let Ev::Start { name, attrs } = ev {
            if local(name) == "Relationship" {
                let mut target = String::new();
                decode(attr(attrs, "Target", false).unwrap_or(""), &mut target)
                    .map_err(|e| x.err(&e))?;
                f(
                    attr(attrs, "Id", false).unwrap_or(""),
                    attr(attrs, "Type", false).unwrap_or(""),
                    &target,
                );
            }
        }
    }
    Ok(())
}

/// The relationship id of the workbook's first `<sheet>`.
fn first_sheet_rel(xml: &str, entry: &str) -> Result<Option<String>, String> {
    let mut x = Xml::new(xml, entry);
    while let Some(ev) = x.next()? {
        if let Ev::Start { name, attrs } = ev {
            if local(name) == "sheet" {
                return Ok(Some(attr(attrs, "id", true).unwrap_or("").to_string()));
            }
        }
    }
    Ok(None)
}

/// Reads a string item (`<si>`, `<is>`) up to its closing tag `closing`: the `<t>` texts, rich
/// text runs concatenated, phonetic runs (`<rPh>`) left out.
fn read_string(x: &mut Xml<'_>, closing: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut phonetic = false;
    loop {
        match x.next()? {
            Some(Ev::End { name }) if name == closing => return Ok(out),
            Some(Ev::Start { name, .. }) if local(name) == "rPh" => phonetic = true,
            Some(Ev::End { name }) if local(name) == "rPh" => phonetic = false,
            Some(Ev::Start { name, attrs }) if local(name) == "t" && !phonetic => {
                let preserve = attr(attrs, "xml:space", false) == Some("preserve");
                let mut value = String::new();
                loop {
                    match x.next()? {
                        Some(Ev::Text(t)) => decode(t, &mut value).map_err(|e| x.err(&e))?,
                        Some(Ev::CData(t)) => {
                            value.push_str(&t.replace("\r\n", "\n").replace('\r', "\n"))
                        }
                        Some(Ev::End { name: n }) if n == name => break,
                        Some(_) => {}
                        None => return Err(x.err("no closing </t>")),
                    }
                }
                let value = if preserve {
                    value
                } else {
                    value.trim_matches([' ', '\t', '\r', '\n']).to_string()
                };
                out.push_str(&unescape_excel(value));
            }
            Some(_) => {}
            None => return Err(x.err(&format!("no closing </{closing}>"))),
        }
    }
}

fn shared_strings(xml: &str, entry: &str) -> Result<Vec<String>, String> {
    let mut x = Xml::new(xml, entry);
    loop {
        match x.next()? {
            Some(Ev::Start { name, .. }) if local(name) == "sst" => break,
            Some(_) => {}
            None => return Err(x.err("no <sst> element")),
        }
    }
    let mut strings = Vec::new();
    loop {
        match x.next()? {
            Some(Ev::Start { name, .. }) if local(name) == "si" => {
                strings.push(read_string(&mut x, name)?);
            }
            Some(Ev::End { name }) if local(name) == "sst" => return Ok(strings),
            Some(_) => {}
            None => return Err(x.err("no closing </sst>")),
        }
    }
}

/// `A1`-style reference to 0-based (row, column); the column is `None` when absent.
fn parse_ref(r: &str) -> Option<(u32, Option<u32>)> {
    let b = r.as_bytes();
    let letters = b.iter().take_while(|c| c.is_ascii_alphabetic()).count();
    let mut col: u32 = 0;
    for &c in &b[..letters] {
        col = col
            .checked_mul(26)?
            .checked_add(u32::from(c.to_ascii_uppercase() - b'A') + 1)?;
    }
    let digits = &r[letters..];
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let row: u32 = digits.parse().ok()?;
    Some((row.checked_sub(1)?, col.checked_sub(1)))
}

/// A1-style name of a 0-based position, for messages.
fn cell_name(row: u32, col: u32) -> String {
    let mut letters = Vec::new();
    let mut c = col + 1;
    while c > 0 {
        letters.push(b'A' + ((c - 1) % 26) as u8);
        c = (c - 1) / 26;
    }
    letters.reverse();
    format!(
        "{}{}",
        String::from_utf8_lossy(&letters),
        u64::from(row) + 1
    )
}

fn sheet_cells(xml: &str, entry: &str, strings: &[String]) -> Result<Vec<Cell>, String> {
    let mut x = Xml::new(xml, entry);
    loop {
        match x.next()? {
            Some(Ev::Start { name, .. }) if local(name) == "sheetData" => break,
            Some(_) => {}
            // Not a worksheet (a chart sheet, say): no cells.
            None => return Ok(Vec::new()),
        }
    }
    let mut cells = Vec::new();
    let (mut row, mut col) = (0u32, 0u32);
    loop {
        match x.next()? {
            Some(Ev::Start { name, attrs }) if local(name) == "row" => {
                if let Some(r) = attr(attrs, "r", false) {
                    row = parse_ref(r)
                        .ok_or_else(|| x.err(&format!("a bad row number r=\"{}\"", snip(r))))?
                        .0;
                }
            }
            Some(Ev::End { name }) if local(name) == "row" => {
                row = row.saturating_add(1);
                col = 0;
            }
            Some(Ev::Start { name, attrs }) if local(name) == "c" => {
                let (r, c) = match attr(attrs, "r", false) {
                    Some(r) => match parse_ref(r) {
                        Some((r, Some(c))) => (r, c),
                        _ => return Err(x.err(&format!("a bad cell reference r=\"{}\"", snip(r)))),
                    },
                    None => (row, col),
                };
                col = c;
                let at = cell_name(r, c);
                let typ = attr(attrs, "t", false);
                let mut value = None;
                loop {
                    match x.next()? {
                        Some(Ev::Start { name: child, .. }) => {
                            value = read_value(&mut x, child, typ, strings)
                                .map_err(|e| format!("{entry}, cell {at}: {e}"))?;
                        }
                        Some(Ev::End { name: n }) if local(n) == "c" => break,
                        Some(_) => {}
                        None => return Err(format!("{entry}, cell {at}: no closing </c>")),
                    }
                }
                col = col.saturating_add(1);
                if let Some(value) = value {
                    cells.push(Cell {
                        row: r,
                        col: c,
                        value,
                    });
                }
            }
            Some(Ev::End { name }) if local(name) == "sheetData" => return Ok(cells),
            Some(_) => {}
            None => return Err(x.err("no closing </sheetData>")),
        }
    }
}

/// The value of a cell's child element `child` (`<v>`, `<is>` or `<f>`); `None` when empty.
fn read_value(
    x: &mut Xml<'_>,
    child: &str,
    typ: Option<&str>,
    strings: &[String],
) -> Result<Option<Value>, String> {
    match local(child) {
        "is" => Ok(Some(Value::Str(read_string(x, child)?))),
        "f" => x.skip_to_end(child).map(|()| None),
        "v" if matches!(typ, Some("inlineStr" | "is")) => x.skip_to_end(child).map(|()| None),
        "v" if matches!(typ, None | Some("n" | "s" | "b" | "e")) => {
            // Plain ASCII values: the first text run, undecoded (as calamine reads them).
            let v = match x.next()? {
                Some(Ev::Text(t)) => t.split('&').next().unwrap_or(""),
                Some(Ev::End { name }) if name == child => return Ok(None),
                None => return Err("no closing </v>".into()),
                Some(_) => return x.skip_to_end(child).map(|()| None),
            };
            x.skip_to_end(child)?;
            read_v(v, typ, strings)
        }
        "v" => {
            let mut v = String::new();
            loop {
                match x.next()? {
                    Some(Ev::Text(t)) => decode(t, &mut v)?,
                    Some(Ev::End { name }) if name == child => break,
                    Some(_) => {}
                    None => return Err("no closing </v>".into()),
                }
            }
            read_v(&v, typ, strings)
        }
        other => Err(format!(
            "unexpected element <{}> (expected v, f or is)",
            snip(other)
        )),
    }
}

fn read_v(v: &str, typ: Option<&str>, strings: &[String]) -> Result<Option<Value>, String> {
    Ok(Some(match typ {
        Some("s") => {
            if v.is_empty() {
                return Ok(None);
            }
            let i: usize = v.parse().unwrap_or(0);
            let s = strings.get(i).ok_or_else(|| {
                format!(
                    "shared string {} does not exist (the workbook has {})",
                    snip(v),
                    strings.len()
                )
            })?;
            Value::Str(s.clone())
        }
        Some("b") => match v.trim() {
            "" => return Ok(None),
            t if t == "0" || t.eq_ignore_ascii_case("false") => Value::Bool(false),
            t if t == "1" || t.eq_ignore_ascii_case("true") => Value::Bool(true),
            _ => return Err(format!("a bad boolean {:?}", snip(v))),
        },
        Some("d") => Value::DateIso(v.to_string()),
        Some("e") => Value::Error(
            match v {
                "#DIV/0!" | "#N/A" | "#NAME?" | "#NULL!" | "#NUM!" | "#REF!" | "#VALUE!" => v,
                "#DATA!" | "#GETTING_DATA" => "#DATA!",
                _ => return Err(format!("an unknown error code {:?}", snip(v))),
            }
            .to_string(),
        ),
        Some("str") => Value::Str(unescape_excel(v.to_string())),
        Some("n") | None => {
            if v.is_empty() {
                return Ok(None);
            }
            match crate::float::parse_f64(v) {
                Some(f) => Value::Number(f),
                None if typ.is_none() => Value::Str(v.to_string()),
                None => return Err(format!("a bad number {:?}", snip(v))),
            }
        }
        Some(t) => return Err(format!("an unknown cell type t=\"{}\"", snip(t))),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references() {
        assert_eq!(parse_ref("A1"), Some((0, Some(0))));
        assert_eq!(parse_ref("AB12"), Some((11, Some(27))));
        assert_eq!(parse_ref("7"), Some((6, None)));
        assert_eq!(parse_ref("A0"), None);
        assert_eq!(parse_ref("A"), None);
        assert_eq!(parse_ref("ZZZZZZZZZZ1"), None);
        assert_eq!(cell_name(11, 27), "AB12");
        assert_eq!(cell_name(0, 25), "Z1");
        assert_eq!(cell_name(0, 26), "AA1");
    }

    #[test]
    fn crc_of_a_known_string() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn entities_line_ends_and_excel_escapes() {
        let mut s = String::new();
        decode("a&lt;b&amp;&#65;&#x42;\r\nc\rd", &mut s).unwrap();
        assert_eq!(s, "a<b&AB\nc\nd");
        assert!(decode("&bogus;", &mut String::new()).is_err());
        assert_eq!(
            unescape_excel("x_x000D_y_x00e9__xD83D__xDE00_".into()),
            "x\ry\u{e9}\u{1F600}"
        );
        assert_eq!(unescape_excel("_x12_".into()), "_x12_");
    }

    #[test]
    fn numbers_print_like_calamine() {
        assert_eq!(Value::Number(3.0).text(), "3");
        assert_eq!(Value::Number(-0.5).text(), "-0.5");
        assert_eq!(Value::Number(1e16).text(), "10000000000000000");
        assert_eq!(Value::Bool(true).text(), "true");
    }

    #[test]
    fn garbage_is_an_error() {
        assert!(first_sheet_cells(b"").is_err());
        assert!(first_sheet_cells(b"PK\x05\x06").is_err());
        assert!(first_sheet_cells(b"PK\x03\x04 not really a zip").is_err());
    }
}
