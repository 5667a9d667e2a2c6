//! Hostile workbooks (issue #27, defect 1): `mmiq::xlsx` refuses a workbook whose members
//! inflate, or whose cells expand, past its limit, and the memory it takes meanwhile stays
//! bounded. The workbooks are built here byte by byte (a small ZIP writer and a fixed-Huffman
//! DEFLATE writer, so a run of one byte compresses about 159 to 1), and the integration test
//! binary counts allocations (a counting global allocator) to measure the peak: per thread,
//! while a measurement is armed on it, since the other modules' tests run on other threads of
//! the same process.

use coglab_core::mmiq::xlsx::{first_sheet_rows, Limit, LimitBy, XlsxError, FLOOR};
use coglab_core::mmiq::Predictions;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Mutex;

// ---------------------------------------------------------------------------------------------
// Peak memory

struct Counting;

thread_local! {
    /// Whether this thread's allocations are being counted.
    static ARMED: Cell<bool> = const { Cell::new(false) };
    /// Bytes allocated and not freed on this thread since it was armed.
    static LIVE: Cell<isize> = const { Cell::new(0) };
    /// The most of `LIVE` since it was armed.
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

/// Adds `delta` bytes to this thread's count when it is armed (never allocates; a thread
/// being torn down is not counted).
fn count(delta: isize) {
    let armed = ARMED.try_with(Cell::get).unwrap_or(false);
    if armed {
        let _ = LIVE.try_with(|l| {
            let now = l.get() + delta;
            l.set(now);
            let _ = PEAK.try_with(|p| p.set(p.get().max(now)));
        });
    }
}

// SAFETY: every call is forwarded to `System` with the same arguments; the counters are only
// bookkeeping.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            count(layout.size() as isize);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        count(-(layout.size() as isize));
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            count(new_size as isize - layout.size() as isize);
        }
        p
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn the_counter_sees_this_threads_allocations() {
    let _g = serial();
    // 3 MiB allocated and held at once, then freed: a peak of at least 3 MiB, and none of the
    // other threads' allocations (tests of other modules run beside this one) counted here.
    let (len, peak) = peak_during(|| {
        let v = vec![1u8; 3 << 20];
        std::hint::black_box(&v).len()
    });
    assert_eq!(len, 3 << 20);
    assert!((3 << 20..(3 << 20) + 4096).contains(&peak), "peak {peak}");
}

/// One test of this module at a time (the counters are per thread, so this only keeps the
/// measured reads of the hostile workbooks apart in time, as they were when the module was its
/// own test binary).
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `f` on this thread and returns its result and the most bytes it had allocated at once
/// during it (beyond what was allocated before; `f` reads on this thread).
fn peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    LIVE.with(|l| l.set(0));
    PEAK.with(|p| p.set(0));
    ARMED.with(|a| a.set(true));
    let out = f();
    ARMED.with(|a| a.set(false));
    (out, PEAK.with(Cell::get).max(0) as usize)
}

const MIB: usize = 1 << 20;

// ---------------------------------------------------------------------------------------------
// DEFLATE with the fixed Huffman code (RFC 1951, 3.2.6)

enum Part<'a> {
    /// Bytes written as literals.
    Lit(&'a [u8]),
    /// `n` copies of one byte: a literal, then matches of length 258 at distance 1.
    Run(u8, usize),
    /// `n` copies of a pattern of at most 8 bytes: the pattern as literals, then matches at a
    /// distance of its length.
    Repeat(&'a [u8], usize),
}

#[derive(Default)]
struct Bits {
    out: Vec<u8>,
    acc: u64,
    n: u32,
}

impl Bits {
    /// `len` bits of `v`, least significant first (header fields, extra bits).
    fn put(&mut self, v: u32, len: u32) {
        self.acc |= u64::from(v) << self.n;
        self.n += len;
        while self.n >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.n -= 8;
        }
    }
    /// A Huffman code of `len` bits, most significant first.
    fn code(&mut self, code: u32, len: u32) {
        let mut rev = 0;
        for i in 0..len {
            rev |= ((code >> i) & 1) << (len - 1 - i);
        }
        self.put(rev, len);
    }
    fn literal(&mut self, b: u8) {
        match b {
            0..=143 => self.code(0x30 + u32::from(b), 8),
            _ => self.code(0x190 + u32::from(b) - 144, 9),
        }
    }
    /// A match of length 3..=258 at distance 1.
    fn run(&mut self, len: usize) {
        self.run_at(len, 1);
    }
    /// A match of length 3..=258 at distance 1..=8.
    fn run_at(&mut self, len: usize, dist: u32) {
        let len = len as u32;
        let (code, base, extra) = match len {
            258 => (285, 258, 0),
            3..=10 => (257 + len - 3, len, 0),
            11..=18 => (265 + (len - 11) / 2, 11 + (len - 11) / 2 * 2, 1),
            19..=34 => (269 + (len - 19) / 4, 19 + (len - 19) / 4 * 4, 2),
            35..=66 => (273 + (len - 35) / 8, 35 + (len - 35) / 8 * 8, 3),
            67..=130 => (277 + (len - 67) / 16, 67 + (len - 67) / 16 * 16, 4),
            _ => (281 + (len - 131) / 32, 131 + (len - 131) / 32 * 32, 5),
        };
        match code {
            256..=279 => self.code(code - 256, 7),
            _ => self.code(0xC0 + code - 280, 8),
        }
        self.put(len - base, extra);
        match dist {
            1..=4 => self.code(dist - 1, 5),
            5..=6 => {
                self.code(4, 5);
                self.put(dist - 5, 1);
            }
            _ => {
                self.code(5, 5);
                self.put(dist - 7, 1);
            }
        }
    }
}

fn deflate(parts: &[Part]) -> Vec<u8> {
    let mut w = Bits::default();
    w.put(1, 1); // last block
    w.put(1, 2); // fixed Huffman codes
    for p in parts {
        match *p {
            Part::Lit(bytes) => bytes.iter().for_each(|&b| w.literal(b)),
            Part::Run(_, 0) => {}
            Part::Run(b, n) => {
                w.literal(b);
                let mut left = n - 1;
                while left >= 3 {
                    // Never leave 1 or 2 bytes, which no match can cover.
                    let take = if left > 260 {
                        258
                    } else if left > 258 {
                        left - 3
                    } else {
                        left
                    };
                    w.run(take);
                    left -= take;
                }
                (0..left).for_each(|_| w.literal(b));
            }
            Part::Repeat(_, 0) => {}
            Part::Repeat(pat, n) => {
                pat.iter().for_each(|&b| w.literal(b));
                let mut left = (n - 1) * pat.len();
                while left >= 3 {
                    let take = if left > 260 {
                        258
                    } else if left > 258 {
                        left - 3
                    } else {
                        left
                    };
                    w.run_at(take, pat.len() as u32);
                    left -= take;
                }
                // Never reached for whole copies of patterns of 3 bytes or more.
                let done = n * pat.len() - left;
                (done..n * pat.len()).for_each(|k| w.literal(pat[k % pat.len()]));
            }
        }
    }
    w.code(0, 7); // end of block
    w.put(0, 7); // flush the last byte
    w.out
}

/// The bytes the parts stand for (to check the writer on small inputs).
fn plain(parts: &[Part]) -> Vec<u8> {
    let mut v = Vec::new();
    for p in parts {
        match *p {
            Part::Lit(b) => v.extend_from_slice(b),
            Part::Run(b, n) => v.extend(std::iter::repeat_n(b, n)),
            Part::Repeat(p, n) => (0..n).for_each(|_| v.extend_from_slice(p)),
        }
    }
    v
}

// ---------------------------------------------------------------------------------------------
// ZIP

fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

struct Member {
    name: &'static str,
    /// 0 stored, 8 deflated.
    method: u16,
    data: Vec<u8>,
    crc: u32,
    /// The uncompressed size written in the headers.
    declared: u32,
}

/// A member stored as is.
fn stored(name: &'static str, text: &str) -> Member {
    Member {
        name,
        method: 0,
        data: text.as_bytes().to_vec(),
        crc: crc32(text.as_bytes()),
        declared: text.len() as u32,
    }
}

/// A member deflated from `parts`; its CRC is computed only when `check` (it is the CRC of up
/// to gigabytes otherwise, never reached by a reader that refuses the member first).
fn deflated(name: &'static str, parts: &[Part], check: bool) -> Member {
    let size: usize = parts
        .iter()
        .map(|p| match p {
            Part::Lit(b) => b.len(),
            Part::Run(_, n) => *n,
            Part::Repeat(p, n) => p.len() * n,
        })
        .sum();
    Member {
        name,
        method: 8,
        data: deflate(parts),
        crc: if check { crc32(&plain(parts)) } else { 0 },
        declared: u32::try_from(size).unwrap_or(u32::MAX),
    }
}

fn zip(members: &[Member]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    let le16 = |v: &mut Vec<u8>, x: u16| v.extend_from_slice(&x.to_le_bytes());
    let le32 = |v: &mut Vec<u8>, x: u32| v.extend_from_slice(&x.to_le_bytes());
    for m in members {
        let offset = out.len() as u32;
        le32(&mut out, 0x0403_4b50);
        for v in [20, 0, m.method, 0, 0x21] {
            le16(&mut out, v); // version, flags, method, time, date
        }
        for v in [m.crc, m.data.len() as u32, m.declared] {
            le32(&mut out, v);
        }
        le16(&mut out, m.name.len() as u16);
        le16(&mut out, 0);
        out.extend_from_slice(m.name.as_bytes());
        out.extend_from_slice(&m.data);

        le32(&mut central, 0x0201_4b50);
        for v in [20, 20, 0, m.method, 0, 0x21] {
            le16(&mut central, v); // made by, needed, flags, method, time, date
        }
        for v in [m.crc, m.data.len() as u32, m.declared] {
            le32(&mut central, v);
        }
        for v in [m.name.len() as u16, 0, 0, 0, 0] {
            le16(&mut central, v); // name, extra, comment, disk, internal attributes
        }
        le32(&mut central, 0);
        le32(&mut central, offset);
        central.extend_from_slice(m.name.as_bytes());
    }
    let cd_offset = out.len() as u32;
    out.extend_from_slice(&central);
    le32(&mut out, 0x0605_4b50);
    for v in [0, 0, members.len() as u16, members.len() as u16] {
        le16(&mut out, v);
    }
    le32(&mut out, central.len() as u32);
    le32(&mut out, cd_offset);
    le16(&mut out, 0);
    out
}

const NS: &str = r#"xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main""#;
const REL: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/// A workbook of one sheet `Sheet1` from its shared strings and sheet members.
fn workbook(sst: Member, sheet: Member) -> Vec<u8> {
    zip(&[
        stored(
            "[Content_Types].xml",
            r#"<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>"#,
        ),
        stored(
            "_rels/.rels",
            &format!(
                r#"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="{REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>"#
            ),
        ),
        stored(
            "xl/workbook.xml",
            &format!(
                r#"<?xml version="1.0"?><workbook {NS} xmlns:r="{REL}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>"#
            ),
        ),
        stored(
            "xl/_rels/workbook.xml.rels",
            &format!(
                r#"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="{REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>"#
            ),
        ),
        sst,
        sheet,
    ])
}

/// Shared strings: `<si>`s of `n` copies of `b` each (one per entry of `runs`).
fn sst_parts(runs: &[(u8, usize)]) -> (String, Vec<(u8, usize)>) {
    (format!(r#"<?xml version="1.0"?><sst {NS}>"#), runs.to_vec())
}

fn sst_member(runs: &[(u8, usize)]) -> Member {
    let (head, runs) = sst_parts(runs);
    let mut parts = vec![Part::Lit(head.as_bytes())];
    for &(b, n) in &runs {
        parts.push(Part::Lit(b"<si><t>"));
        parts.push(Part::Run(b, n));
        parts.push(Part::Lit(b"</t></si>"));
    }
    parts.push(Part::Lit(b"</sst>"));
    deflated("xl/sharedStrings.xml", &parts, true)
}

fn sheet_member(rows: &str) -> Member {
    let xml = format!(
        r#"<?xml version="1.0"?><worksheet {NS}><sheetData>{rows}</sheetData></worksheet>"#
    );
    deflated(
        "xl/worksheets/sheet1.xml",
        &[Part::Lit(xml.as_bytes())],
        true,
    )
}

// ---------------------------------------------------------------------------------------------
// Tests

#[test]
fn the_hand_built_workbook_reads() {
    let _one = serial();
    // The writers above are right: a 600-byte run string and a header row read back as written,
    // and a repeated pattern inflates to its copies.
    let sst = sst_member(&[(b'x', 600), (b'i', 1), (b'p', 1)]);

    let sheet = sheet_member(
        r#"<row r="1"><c r="A1" t="s"><v>1</v></c><c r="B1" t="s"><v>2</v></c></row><row r="2"><c r="A2"><v>7</v></c><c r="B2" t="s"><v>0</v></c></row>"#,
    );
    let rows = first_sheet_rows(&workbook(sst, sheet)).unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0], (1, vec!["i".to_string(), "p".to_string()]));
    assert_eq!(rows[1].0, 2);
    assert_eq!(rows[1].1[0], "7");
    assert_eq!(rows[1].1[1], "x".repeat(600));

    // 1,000 empty strings written as a repeated pattern, then "x": string 1000 is "x".
    let head = format!(r#"<?xml version="1.0"?><sst {NS}>"#);
    let sst = deflated(
        "xl/sharedStrings.xml",
        &[
            Part::Lit(head.as_bytes()),
            Part::Repeat(b"<si/>", 1000),
            Part::Lit(b"<si><t>x</t></si></sst>"),
        ],
        true,
    );
    let sheet = sheet_member(r#"<row r="1"><c r="A1" t="s"><v>1000</v></c></row>"#);
    let rows = first_sheet_rows(&workbook(sst, sheet)).unwrap();
    assert_eq!(rows, [(1, vec!["x".to_string()])]);
}

#[test]
fn millions_of_empty_shared_strings_are_refused_before_calamine_builds_them() {
    let _one = serial();
    // 3,000,000 `<si/>` (5 bytes each, 15,000,000 bytes: under the 16 MiB floor as declared)
    // would be 3,000,000 Strings of 24 bytes = 72,000,000 bytes in calamine's table.
    let head = format!(r#"<?xml version="1.0"?><sst {NS}>"#);
    let sst = deflated(
        "xl/sharedStrings.xml",
        &[
            Part::Lit(head.as_bytes()),
            Part::Repeat(b"<si/>", 3_000_000),
            Part::Lit(b"</sst>"),
        ],
        true,
    );
    let book = workbook(
        sst,
        sheet_member(r#"<row r="1"><c r="A1"><v>1</v></c></row>"#),
    );
    let limit = Limit::for_file(book.len() as u64);
    assert_eq!(limit.by, LimitBy::Floor);
    let (err, peak) = peak_during(|| first_sheet_rows(&book).unwrap_err());
    match &err {
        XlsxError::Parts {
            strings,
            styles,
            bytes,
            limit: l,
        } => {
            assert_eq!((*strings, *styles), (3_000_000, 0));
            // The declared sizes (15,000,000 bytes of `<si/>`, the rest of the strings' XML and
            // the other members: about 1,140 bytes) plus 72,000,000.
            assert!(*bytes > 87_000_000 && *bytes < 87_002_000, "{bytes}");
            assert_eq!(*l, limit);
        }
        other => panic!("{other:?}"),
    }
    assert!(peak < MIB, "peak {peak} bytes");
}

#[test]
fn one_shared_string_in_every_row_is_refused_before_it_is_copied() {
    let _one = serial();
    // The issue's workbook: 2,710 rows whose cell A refers to one 1 MiB shared string.
    let rows: String = (1..=2710)
        .map(|r| format!(r#"<row r="{r}"><c r="A{r}" t="s"><v>0</v></c></row>"#))
        .collect();
    let book = workbook(sst_member(&[(b'a', MIB)]), sheet_member(&rows));
    // The sheet is written as literals (about 130 KB); the 1 MiB string in about 6.6 KB.
    assert!(book.len() < 200_000, "{}", book.len());
    let limit = Limit::for_file(book.len() as u64);
    // 100 times under 200 KB is under 20 MB, so the 16 MiB floor is the limit.
    assert_eq!((limit.bytes, limit.by), (FLOOR, LimitBy::Floor));

    let (err, peak) = peak_during(|| first_sheet_rows(&book).unwrap_err());
    // Each cell counts 1,048,576 bytes of text + 32 bytes (position and String) = 1,048,608.
    // 15 cells: 15,729,120 <= 16,777,216; the 16th (A16) makes 16,777,728, past the limit.
    // The whole sheet would take 2,710 x 1,048,608 = 2,841,727,680 bytes (2.6 GiB).
    match &err {
        XlsxError::Expands {
            sheet,
            bytes,
            at,
            cells,
            limit: l,
        } => {
            assert_eq!(sheet, "Sheet1");
            assert_eq!(*bytes, 2_841_727_680);
            assert_eq!(at, "A16");
            assert_eq!(*cells, 15);
            assert_eq!(*l, limit);
        }
        other => panic!("{other:?}"),
    }
    // Bounded: the 15 kept copies (15.0 MiB), the 1 MiB shared string, the file and buffers.
    assert!(peak < 24 * MIB, "peak {peak} bytes");

    // Through the MM-IQ reader, the message names the file, the figure and the limit.
    let (err, peak) = peak_during(|| Predictions::parse("hostile_MMIQ.xlsx", &book).unwrap_err());
    assert!(peak < 24 * MIB, "peak {peak} bytes");
    let kib = book.len() as f64 / 1024.0;
    assert_eq!(
        err.to_string(),
        format!(
            "hostile_MMIQ.xlsx: cannot read the workbook: sheet 'Sheet1' would expand to 2.6 GiB \
             of cell text and layout, more than 16.0 MiB (the limit for any file; 100 times this \
             file's {kib:.1} KiB is less) (passed at A16, after 15 cells)"
        )
    );
}

#[test]
fn a_wide_sparse_sheet_is_refused_before_its_grid_is_laid_out() {
    let _one = serial();
    // 1,000 rows with a number in A and in XFD (the last column): the rows' grid would be
    // 1,000 x 16,384 slots of 24 bytes = 393,216,000 bytes, plus 2,000 cells x (32 + 32) =
    // 128,000 bytes counted for the cells = 393,344,000 bytes (375.1 MiB).
    let rows: String = (1..=1000)
        .map(|r| {
            format!(r#"<row r="{r}"><c r="A{r}"><v>1</v></c><c r="XFD{r}"><v>2</v></c></row>"#)
        })
        .collect();
    let book = workbook(sst_member(&[]), sheet_member(&rows));
    let (err, peak) = peak_during(|| first_sheet_rows(&book).unwrap_err());
    match &err {
        XlsxError::Expands {
            bytes, at, cells, ..
        } => {
            assert_eq!(*bytes, 393_344_000);
            assert_eq!(at, "the layout of 1000 rows by 16384 columns");
            assert_eq!(*cells, 2000);
        }
        other => panic!("{other:?}"),
    }
    assert!(peak < 8 * MIB, "peak {peak} bytes");
}

/// A workbook whose sheet is `n` bytes of `0` (not XML: it is never meant to be read), with the
/// size in the ZIP headers set to `declared` (the true size when `None`).
fn bomb(n: usize, declared: Option<u32>) -> Vec<u8> {
    let mut sheet = deflated("xl/worksheets/sheet1.xml", &[Part::Run(b'0', n)], false);
    if let Some(d) = declared {
        sheet.declared = d;
    }
    workbook(sst_member(&[(b'a', 1)]), sheet)
}

#[test]
fn a_member_that_declares_a_huge_size_is_refused_at_once() {
    let _one = serial();
    // 1 GiB of one byte: 4,161,601 matches of 13 bits, about 6.6 MB of DEFLATE.
    let book = bomb(1 << 30, None);
    let limit = Limit::for_file(book.len() as u64);
    // 100 x 6.6 MB = 660 MB, over the 256 MiB ceiling.
    assert_eq!(limit.by, LimitBy::Ceiling);
    let (err, peak) = peak_during(|| first_sheet_rows(&book).unwrap_err());
    // The sheet declares 1,073,741,824 bytes; the five members before it a few hundred more.
    match &err {
        XlsxError::Inflates {
            member,
            declared,
            limit: l,
        } => {
            assert_eq!(member, "xl/worksheets/sheet1.xml");
            assert!(
                *declared > 1 << 30 && *declared < (1 << 30) + 1000,
                "{declared}"
            );
            assert_eq!(*l, limit);
        }
        other => panic!("{other:?}"),
    }
    assert!(peak < MIB, "peak {peak} bytes");
    let mib = book.len() as f64 / f64::from(1u32 << 20);
    assert_eq!(
        err.to_string(),
        format!(
            "the ZIP members inflate to 1.0 GiB or more, more than 256.0 MiB (the absolute \
             ceiling; 100 times the file's {mib:.1} MiB is more) (their declared sizes, summed up \
             to member xl/worksheets/sheet1.xml)"
        )
    );
}

#[test]
fn a_member_that_hides_its_size_is_refused_while_inflating() {
    let _one = serial();
    // 64 MiB of one byte in about 413 KiB, declared as 1,000 bytes: the declared sizes pass,
    // and the zip crate stops the member once it inflates past 1,000 bytes.
    let book = bomb(64 * MIB, Some(1000));
    let (err, peak) = peak_during(|| first_sheet_rows(&book).unwrap_err());
    assert!(
        err.to_string()
            .contains("larger than its declared uncompressed size"),
        "{err}"
    );
    assert!(peak < 2 * MIB, "peak {peak} bytes");
}
