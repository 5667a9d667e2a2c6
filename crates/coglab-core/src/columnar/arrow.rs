//! Arrow IPC files (`ARROW1`, Feather v2) and streams read record batch by record batch into
//! JSON object lines, as [`super::ParquetFile`] writes Parquet rows: the same table written
//! as Parquet and as Arrow IPC gives the same lines (timestamps, dates and times as the
//! `parquet` crate prints what pyarrow writes to Parquet for them).
//!
//! Written here rather than taken from arrow-rs's `arrow-ipc` (what the style guide prefers),
//! because that crate does not fit the scoring worker. Measured on this repository's
//! `wasm-worker` profile (`cargo build --profile wasm-worker --target wasm32-unknown-unknown`,
//! the `.wasm` through `wasm-opt --strip-debug`, then `gzip -9`), 2026-11-29:
//! - a wasm module holding only `arrow-ipc` 60.1's file and stream readers (feature `lz4`) and
//!   a JSON writer over the arrays they return is 345,486 bytes gzipped larger than the same
//!   module writing JSON without them (349,434 after `wasm-opt -O3`, as Trunk builds it): more
//!   than the 400 KiB issue 39 allows for all columnar input less the 215 KiB Parquet takes;
//! - its zstd codec is the C `zstd` crate, which does not build for the browser without a C
//!   compiler, so an Arrow file compressed with zstd (pyarrow's `compression="zstd"`) could
//!   not have been read in the worker at all;
//! - this reader (with `lz4_flex`) adds 43,065 bytes gzipped to the scoring worker (1,734,255
//!   to 1,777,320; 47,176 without stripping).
//!
//! It reads the messages' FlatBuffers by hand ([`super::flatbuf`]: the Schema, RecordBatch,
//! DictionaryBatch and Footer tables), and decodes the buffers of the columns it is asked for
//! in place (or after LZ4-frame or zstd decompression, by `lz4_flex` and `ruzstd`, both pure
//! Rust). Types read: null, bool, signed and unsigned integers, floats (16, 32, 64 bits),
//! decimals (up to 128 bits), dates, times, timestamps, durations, UTF-8 and binary (also large and
//! fixed-size), lists (also large and fixed-size), structs, maps, and dictionary-encoded
//! columns (pandas categoricals). Unions, run-end encoding, views and intervals are skipped
//! when not asked for and refused with a located error when they are.
//!
//! Hostile files are refused with a located [`ColumnarError`] (file, record batch, column,
//! row) before anything large is allocated: each batch's row count and their sum against
//! [`MAX_PARQUET_ROWS`], every buffer's range against its message body, every array's
//! declared length against the bytes of its buffers (a batch claiming 10^12 rows with a few
//! bytes of data is refused before a row is read), offsets against the data they index, and
//! each compressed buffer's declared size against [`MAX_ARROW_BATCH_BYTES`] (for the sum of
//! a batch's decompressed buffers too) before it is decompressed, decompression held to it.

use super::flatbuf::{Fb, Table};
use super::{At, ColumnarError, ColumnarKind, Projection};
use crate::limits::{MAX_ARROW_BATCH_BYTES, MAX_PARQUET_ROWS};
use std::borrow::Cow;
use std::collections::HashMap;
use std::io::{Read, Write};
use std::rc::Rc;

/// How much output is gathered before it is handed on (as for Parquet).
const SLICE: usize = 1 << 20;

/// Deepest nesting of a schema's fields (a hostile schema nested deeper is refused rather
/// than overflowing the stack).
const MAX_DEPTH: usize = 64;

/// What to do about a type this reader does not decode.
const CAST_ADVICE: &str = "cast the column to a plain type (pyarrow: table.cast(schema)) or \
                           leave it out";

/// A column's type, as far as this reader needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ty {
    Null,
    Int {
        bits: u8,
        signed: bool,
    },
    Float(u8),
    Binary,
    LargeBinary,
    Utf8,
    LargeUtf8,
    Bool,
    Decimal {
        bytes: u8,
        scale: i32,
    },
    /// Days (`false`) or milliseconds (`true`).
    Date {
        ms: bool,
    },
    /// Time of day: unit (0 s, 1 ms, 2 µs, 3 ns) and width.
    Time {
        unit: u8,
        bits: u8,
    },
    /// Timestamp unit (0 s, 1 ms, 2 µs, 3 ns).
    Timestamp(u8),
    Duration,
    List,
    LargeList,
    FixedSizeList(usize),
    Struct,
    Map,
    FixedSizeBinary(usize),
    /// Skipped, never decoded: their buffer counts.
    Interval(u8),
    Union {
        dense: bool,
    },
    RunEndEncoded,
    View,
    ListView,
}

impl Ty {
    /// The type's name in messages.
    fn name(self) -> &'static str {
        match self {
            Ty::Interval(_) => "interval",
            Ty::Decimal { .. } => "256-bit decimal",
            Ty::Union { .. } => "union",
            Ty::RunEndEncoded => "run-end encoded",
            Ty::View => "string or binary view",
            Ty::ListView => "list view",
            _ => "this",
        }
    }

    /// The buffers one array of the type has in a record batch (views add their variadic
    /// buffers).
    fn buffers(self) -> usize {
        match self {
            Ty::Null | Ty::RunEndEncoded => 0,
            Ty::Struct | Ty::FixedSizeList(_) | Ty::Union { dense: false } => 1,
            Ty::Binary | Ty::LargeBinary | Ty::Utf8 | Ty::LargeUtf8 | Ty::ListView => 3,
            _ => 2,
        }
    }
}

/// A schema field.
#[derive(Debug, Clone)]
struct Field {
    name: String,
    ty: Ty,
    /// Dictionary id and index type, for a dictionary-encoded field.
    dict: Option<(i64, Ty)>,
    children: Vec<Field>,
}

impl Field {
    /// The field as its dictionary's values are (not dictionary-encoded).
    fn values(&self) -> Field {
        Field {
            dict: None,
            ..self.clone()
        }
    }
}

/// Where a message's metadata and body are in the file.
#[derive(Debug, Clone, Copy)]
struct Msg {
    /// The FlatBuffer `Message`.
    meta: (usize, usize),
    /// The body.
    body: (usize, usize),
    dictionary: bool,
}

/// An open Arrow IPC file or stream, in borrowed memory: its schema read and its messages
/// found and checked (the record batches' row counts).
pub struct ArrowIpc<'a> {
    file: String,
    bytes: &'a [u8],
    kind: ColumnarKind,
    fields: Vec<Field>,
    /// Dictionary and record batch messages, in the order they are read.
    messages: Vec<Msg>,
    /// Each record batch's first row (0-based, in the file) and rows.
    batches: Vec<(u64, u64)>,
}

impl std::fmt::Debug for ArrowIpc<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ArrowIpc")
            .field("file", &self.file)
            .field("kind", &self.kind)
            .field("batches", &self.batches.len())
            .finish_non_exhaustive()
    }
}

fn at(file: &str) -> At {
    At {
        file: file.to_string(),
        ..At::default()
    }
}

fn corrupt(at: At, message: impl Into<String>) -> ColumnarError {
    ColumnarError::Corrupt {
        at: Box::new(at),
        message: message.into(),
    }
}

fn i32_at(b: &[u8], p: usize) -> Option<i32> {
    Some(i32::from_le_bytes(
        b.get(p..p.checked_add(4)?)?.try_into().ok()?,
    ))
}

fn i64_at(b: &[u8], p: usize) -> Option<i64> {
    Some(i64::from_le_bytes(
        b.get(p..p.checked_add(8)?)?.try_into().ok()?,
    ))
}

/// The Arrow type union's member `tag` (Schema.fbs `Type`) with its table.
fn ty_of(tag: u8, t: Option<Table<'_>>) -> Fb<Option<Ty>> {
    let int = |i, d| t.map_or(Ok(d), |t| t.i32(i, d));
    let short = |i, d| t.map_or(Ok(d), |t| t.i16(i, d));
    let unit = |d| short(0, d).map(|u| u.clamp(0, 3) as u8);
    Ok(Some(match tag {
        1 => Ty::Null,
        2 => {
            let bits = int(0, 0)?;
            if !matches!(bits, 8 | 16 | 32 | 64) {
                return Err("an integer type of another width than 8, 16, 32 or 64 bits");
            }
            Ty::Int {
                bits: bits as u8,
                signed: t.map_or(Ok(0), |t| t.u8(1, 0))? != 0,
            }
        }
        3 => Ty::Float(match short(0, 0)? {
            0 => 16,
            1 => 32,
            _ => 64,
        }),
        4 => Ty::Binary,
        5 => Ty::Utf8,
        6 => Ty::Bool,
        7 => {
            let bits = int(2, 128)?;
            if !matches!(bits, 32 | 64 | 128 | 256) {
                return Err("a decimal of another width than 32, 64, 128 or 256 bits");
            }
            Ty::Decimal {
                bytes: (bits / 8) as u8,
                scale: int(1, 0)?,
            }
        }
        8 => Ty::Date {
            ms: short(0, 1)? != 0,
        },
        9 => {
            let bits = int(1, 32)?;
            Ty::Time {
                unit: unit(1)?,
                bits: if bits == 64 { 64 } else { 32 },
            }
        }
        10 => Ty::Timestamp(unit(0)?),
        11 => Ty::Interval(match short(0, 0)? {
            0 => 4,
            1 => 8,
            _ => 16,
        }),
        12 => Ty::List,
        13 => Ty::Struct,
        14 => Ty::Union {
            dense: short(0, 0)? == 1,
        },
        15 => Ty::FixedSizeBinary(usize::try_from(int(0, 0)?).map_err(|_| "a negative width")?),
        16 => Ty::FixedSizeList(usize::try_from(int(0, 0)?).map_err(|_| "a negative size")?),
        17 => Ty::Map,
        18 => Ty::Duration,
        19 => Ty::LargeBinary,
        20 => Ty::LargeUtf8,
        21 => Ty::LargeList,
        22 => Ty::RunEndEncoded,
        23 | 24 => Ty::View,
        25 | 26 => Ty::ListView,
        _ => return Ok(None),
    }))
}

/// A schema's fields (Schema.fbs `Field`), `depth` levels down.
fn read_field(t: Table<'_>, depth: usize, at: &At) -> Result<Field, ColumnarError> {
    let bad = |m: &str| corrupt(at.clone(), format!("the schema cannot be read: {m}"));
    if depth > MAX_DEPTH {
        return Err(bad("fields nested more than 64 deep"));
    }
    let name = t.string(0).map_err(bad)?.unwrap_or_default().to_string();
    let tag = t.u8(2, 0).map_err(bad)?;
    let ty = ty_of(tag, t.table(3).map_err(bad)?)
        .map_err(bad)?
        .ok_or_else(|| ColumnarError::Unsupported {
            at: Box::new(At {
                column: Some(name.clone()),
                ..at.clone()
            }),
            what: format!("the Arrow type numbered {tag}"),
            advice: CAST_ADVICE,
        })?;
    let dict = match t.table(4).map_err(bad)? {
        None => None,
        Some(d) => {
            let index = match d.table(1).map_err(bad)? {
                Some(i) => ty_of(2, Some(i)).map_err(bad)?,
                None => Some(Ty::Int {
                    bits: 32,
                    signed: true,
                }),
            };
            Some((d.i64(0, 0).map_err(bad)?, index.unwrap_or(Ty::Null)))
        }
    };
    let children = t
        .tables(5)
        .map_err(bad)?
        .into_iter()
        .map(|c| read_field(c, depth + 1, at))
        .collect::<Result<Vec<_>, _>>()?;
    let want = match ty {
        Ty::List | Ty::LargeList | Ty::FixedSizeList(_) | Ty::Map | Ty::ListView => Some(1),
        Ty::RunEndEncoded => Some(2),
        _ => None,
    };
    if want.is_some_and(|w| children.len() != w) {
        return Err(bad(&format!(
            "field {name:?} is a list, map or run-end encoded type with {} child fields",
            children.len()
        )));
    }
    Ok(Field {
        name,
        ty,
        dict,
        children,
    })
}

/// A message's FlatBuffer root (Message.fbs `Message`): its header type and table and its
/// body length.
fn message<'m>(meta: &'m [u8], at: &At) -> Result<(u8, Table<'m>, i64), ColumnarError> {
    let bad = |m: &str| corrupt(at.clone(), format!("a message cannot be read: {m}"));
    let m = Table::root(meta).map_err(bad)?;
    let tag = m.u8(1, 0).map_err(bad)?;
    let header = m.table(2).map_err(bad)?.ok_or_else(|| bad("no header"))?;
    Ok((tag, header, m.i64(3, 0).map_err(bad)?))
}

impl<'a> ArrowIpc<'a> {
    /// Opens an Arrow IPC file (`ARROW1` ... footer ... `ARROW1`) or stream held in memory, as
    /// [`super::detect`] tells them: reads the schema, finds every dictionary and record
    /// batch (from the file's footer; a stream is scanned message by message, skipping the
    /// bodies) and checks each batch's row count and their sum against [`MAX_PARQUET_ROWS`].
    ///
    /// # Errors
    /// [`ColumnarError::Truncated`] (no trailing `ARROW1`, a message or body past the end),
    /// [`ColumnarError::Corrupt`] (the metadata), [`ColumnarError::TooLarge`],
    /// [`ColumnarError::Unsupported`] (a big-endian file, a type of a newer format), naming
    /// the file and the record batch.
    ///
    /// # Examples
    /// ```
    /// use coglab_core::columnar::ArrowIpc;
    /// let e = ArrowIpc::from_slice("t.arrow", b"ARROW1\0\0\xFF\xFF\xFF\xFF").unwrap_err();
    /// assert_eq!(e.to_string(), "t.arrow: the file is cut short: 12 bytes in all \
    ///     (expected a footer ending in ARROW1)");
    /// ```
    pub fn from_slice(file: &str, bytes: &'a [u8]) -> Result<Self, ColumnarError> {
        let kind = if bytes.starts_with(b"ARROW1") {
            ColumnarKind::ArrowFile
        } else {
            ColumnarKind::ArrowStream
        };
        let mut me = Self {
            file: file.to_string(),
            bytes,
            kind,
            fields: Vec::new(),
            messages: Vec::new(),
            batches: Vec::new(),
        };
        if kind == ColumnarKind::ArrowFile {
            me.read_footer()?;
        } else {
            me.scan_stream()?;
        }
        let mut sum = 0u64;
        let mut b = 0;
        for m in &me.messages {
            if m.dictionary {
                continue;
            }
            b += 1;
            let bat = At {
                batch: Some(b),
                ..at(file)
            };
            let (_, header, _) = message(&bytes[m.meta.0..m.meta.0 + m.meta.1], &bat)?;
            let rows = header
                .i64(0, 0)
                .map_err(|e| corrupt(bat.clone(), format!("a message cannot be read: {e}")))?;
            if rows < 0 || rows as u64 > MAX_PARQUET_ROWS {
                return Err(ColumnarError::TooLarge {
                    at: Box::new(bat),
                    what: "the record batch's row count",
                    found: rows.max(0) as u64,
                    max: MAX_PARQUET_ROWS,
                    limit: "limits::MAX_PARQUET_ROWS",
                });
            }
            me.batches.push((sum, rows as u64));
            sum += rows as u64;
            if sum > MAX_PARQUET_ROWS {
                return Err(ColumnarError::TooLarge {
                    at: Box::new(at(file)),
                    what: "the record batches' row counts",
                    found: sum,
                    max: MAX_PARQUET_ROWS,
                    limit: "limits::MAX_PARQUET_ROWS",
                });
            }
        }
        Ok(me)
    }

    fn at(&self) -> At {
        at(&self.file)
    }

    /// Reads the schema from a `Schema` table.
    fn read_schema(&mut self, s: Table<'_>) -> Result<(), ColumnarError> {
        let bad = |m: &str| corrupt(self.at(), format!("the schema cannot be read: {m}"));
        if s.i16(0, 0).map_err(bad)? != 0 {
            return Err(ColumnarError::Unsupported {
                at: Box::new(self.at()),
                what: "a big-endian Arrow file".to_string(),
                advice: "write it on a little-endian machine (any PC) or as Parquet",
            });
        }
        let at = self.at();
        self.fields = s
            .tables(1)
            .map_err(bad)?
            .into_iter()
            .map(|f| read_field(f, 0, &at))
            .collect::<Result<_, _>>()?;
        Ok(())
    }

    /// The encapsulated message at `pos` (continuation marker, length, FlatBuffer, body):
    /// `None` at the end-of-stream marker, else the message and where the next one starts.
    fn message_at(&self, pos: usize) -> Result<Option<(Msg, u8, usize)>, ColumnarError> {
        let b = self.bytes;
        let cut = |found: String| ColumnarError::Truncated {
            at: Box::new(self.at()),
            expected: "a whole message",
            found,
        };
        let Some(first) = i32_at(b, pos) else {
            return Err(cut(format!(
                "{} bytes after the last message",
                b.len() - pos
            )));
        };
        let (len, start) = if first == -1 {
            (
                i32_at(b, pos + 4).ok_or_else(|| cut("a message without its length".into()))?,
                pos + 8,
            )
        } else {
            (first, pos + 4)
        };
        if len == 0 {
            return Ok(None);
        }
        let len = usize::try_from(len).map_err(|_| {
            corrupt(
                self.at(),
                format!("a message at byte {pos} declares a negative length ({len})"),
            )
        })?;
        if start + len > b.len() {
            return Err(cut(format!(
                "a {len}-byte message at byte {pos} of a {}-byte file",
                b.len()
            )));
        }
        let (tag, _, body) = message(&b[start..start + len], &self.at())?;
        let body_start = start + len;
        let body_len = usize::try_from(body)
            .ok()
            .filter(|&l| body_start.checked_add(l).is_some_and(|e| e <= b.len()))
            .ok_or_else(|| {
                cut(format!(
                    "a {body}-byte message body at byte {body_start} of a {}-byte file",
                    b.len()
                ))
            })?;
        Ok(Some((
            Msg {
                meta: (start, len),
                body: (body_start, body_len),
                dictionary: tag == 2,
            },
            tag,
            body_start + body_len,
        )))
    }

    /// A stream: the schema message, then dictionaries and record batches up to the
    /// end-of-stream marker (or the end of the bytes).
    fn scan_stream(&mut self) -> Result<(), ColumnarError> {
        let Some((schema, tag, mut pos)) = self.message_at(0)? else {
            return Err(corrupt(self.at(), "the stream ends before its schema"));
        };
        if tag != 1 {
            return Err(corrupt(
                self.at(),
                format!("the stream starts with a message of type {tag}, not a schema"),
            ));
        }
        let meta = &self.bytes[schema.meta.0..schema.meta.0 + schema.meta.1];
        let (_, header, _) = message(meta, &self.at())?;
        self.read_schema(header)?;
        while pos < self.bytes.len() {
            let Some((m, tag, next)) = self.message_at(pos)? else {
                break;
            };
            if matches!(tag, 2 | 3) {
                self.messages.push(m);
            } else {
                return Err(corrupt(
                    self.at(),
                    format!("a message of type {tag} at byte {pos}, where a dictionary or record batch was expected"),
                ));
            }
            pos = next;
        }
        Ok(())
    }

    /// A file: the footer's schema, dictionaries and record batches (File.fbs `Footer`).
    fn read_footer(&mut self) -> Result<(), ColumnarError> {
        let b = self.bytes;
        let n = b.len();
        if n < 18 || !b.ends_with(b"ARROW1") {
            return Err(ColumnarError::Truncated {
                at: Box::new(self.at()),
                expected: "a footer ending in ARROW1",
                found: if n < 18 {
                    format!("{n} bytes in all")
                } else {
                    format!(
                        "the last 6 bytes are {:?}",
                        String::from_utf8_lossy(&b[n - 6..])
                    )
                },
            });
        }
        let len = i32_at(b, n - 10).unwrap_or(-1);
        let start = usize::try_from(len)
            .ok()
            .and_then(|l| (n - 10).checked_sub(l))
            .filter(|&s| s >= 8)
            .ok_or_else(|| ColumnarError::Truncated {
                at: Box::new(self.at()),
                expected: "the footer within the file",
                found: format!("a {len}-byte footer in a {n}-byte file"),
            })?;
        let here = self.at();
        let bad = |m: &str| corrupt(here.clone(), format!("the footer cannot be read: {m}"));
        let footer = Table::root(&b[start..n - 10]).map_err(bad)?;
        let schema = footer
            .table(1)
            .map_err(bad)?
            .ok_or_else(|| bad("no schema"))?;
        self.read_schema(schema)?;
        for (i, dictionary) in [(2, true), (3, false)] {
            let blocks = footer.structs(i, 24).map_err(bad)?;
            for block in blocks.chunks_exact(24) {
                let offset = i64_at(block, 0).unwrap_or(-1);
                let pos = usize::try_from(offset)
                    .ok()
                    .filter(|&p| p < start)
                    .ok_or_else(|| ColumnarError::Truncated {
                        at: Box::new(self.at()),
                        expected: "the footer's blocks within the file",
                        found: format!("a block at byte {offset} of a {n}-byte file"),
                    })?;
                match self.message_at(pos)? {
                    Some((m, tag, _)) if tag == if dictionary { 2 } else { 3 } => {
                        self.messages.push(m)
                    }
                    _ => {
                        return Err(corrupt(
                            self.at(),
                            format!(
                                "the footer's block at byte {pos} is no {}",
                                if dictionary {
                                    "dictionary"
                                } else {
                                    "record batch"
                                }
                            ),
                        ))
                    }
                }
            }
        }
        Ok(())
    }

    /// The file name (what messages name).
    pub fn name(&self) -> &str {
        &self.file
    }

    /// Whether it is a file or a stream.
    pub fn kind(&self) -> ColumnarKind {
        self.kind
    }

    /// The number of rows.
    pub fn num_rows(&self) -> u64 {
        self.batches.last().map_or(0, |(s, n)| s + n)
    }

    /// The number of record batches.
    pub fn num_batches(&self) -> usize {
        self.batches.len()
    }

    /// The names of the top-level columns, in order.
    pub fn columns(&self) -> Vec<String> {
        self.fields.iter().map(|f| f.name.clone()).collect()
    }

    /// The 1-based record batch and row within it of the file's 1-based row `row`.
    pub fn locate(&self, row: u64) -> Option<(usize, u64)> {
        let zero = row.checked_sub(1)?;
        if zero >= self.num_rows() {
            return None;
        }
        let g = self.batches.partition_point(|&(s, _)| s <= zero);
        Some((g, zero - self.batches[g - 1].0 + 1))
    }

    /// Makes a location that names a line of this file's rows as written by
    /// [`ArrowIpc::write_jsonl`] (line n is row n, after `header_lines`) name its record batch
    /// and the row within it instead: `file record batch B, row R`, with no line.
    pub fn relocate(&self, loc: &mut crate::location::Location, header_lines: usize) {
        if loc.file != self.file {
            return;
        }
        let Some(row) = loc.line.and_then(|l| l.checked_sub(header_lines)) else {
            return;
        };
        if let Some((g, r)) = self.locate(row as u64) {
            loc.file = format!("{} record batch {g}, row {r}", self.file);
            loc.line = None;
        }
    }

    /// The first rows' JSON lines, up to about `max` bytes (and at least one row).
    ///
    /// # Errors
    /// As [`ArrowIpc::write_jsonl`].
    pub fn head_jsonl(&self, max: usize) -> Result<Vec<u8>, ColumnarError> {
        let mut head = Vec::new();
        self.rows(Projection::All, max, &mut |out, _| {
            head.extend_from_slice(out);
            Ok::<bool, ColumnarError>(head.len() < max)
        })?;
        Ok(head)
    }

    /// Writes every row as one JSON object line (columns as keys in the file's order, structs
    /// as objects, lists as arrays, maps as objects, dictionary-encoded values as their
    /// values; binary values as strings when they are UTF-8, else `null`), handing the lines
    /// to `push` in slices of about 1 MiB that end at a line's end, and at each record batch's
    /// end. `progress` is told the rows done after each batch.
    ///
    /// # Errors
    /// `push`'s error, or a [`ColumnarError`] naming the record batch, column and row.
    pub fn write_jsonl<E: From<ColumnarError>>(
        &self,
        projection: Projection<'_>,
        mut push: impl FnMut(&[u8]) -> Result<(), E>,
        mut progress: impl FnMut(u64),
    ) -> Result<(), E> {
        self.rows(projection, SLICE, &mut |out, done| {
            if !out.is_empty() {
                push(out)?;
            }
            if let Some(rows) = done {
                progress(rows);
            }
            Ok(true)
        })
    }

    /// Writes the rows as JSON lines, handing `each` slices of about `slice` bytes (and the
    /// rows done at a batch's end) until it returns `false`.
    fn rows<E: From<ColumnarError>>(
        &self,
        projection: Projection<'_>,
        slice: usize,
        each: &mut Each<'_, E>,
    ) -> Result<(), E> {
        let wanted: Vec<bool> = self
            .fields
            .iter()
            .map(|f| match projection {
                Projection::All => true,
                Projection::Only(names) => names.contains(&f.name.as_str()),
            })
            .collect();
        let mut dictionaries: HashMap<i64, Rc<Col<'a>>> = HashMap::new();
        let mut out = Vec::with_capacity(slice.min(SLICE) + slice.min(SLICE) / 4);
        let mut b = 0;
        for m in &self.messages {
            if m.dictionary {
                self.read_dictionary(m, b + 1, &mut dictionaries)?;
                continue;
            }
            b += 1;
            let bat = At {
                batch: Some(b),
                ..self.at()
            };
            let (_, header, _) = message(&self.bytes[m.meta.0..m.meta.0 + m.meta.1], &bat)?;
            let rows = self.batches[b - 1].1 as usize;
            let mut batch = Batch::new(self, header, m, &bat)?;
            let mut cols = Vec::with_capacity(self.fields.len());
            for (f, &want) in self.fields.iter().zip(&wanted) {
                let at = At {
                    column: Some(f.name.clone()),
                    ..bat.clone()
                };
                if want {
                    let c = batch.decode(f, &dictionaries, &at)?;
                    if c.len() != rows {
                        return Err(ColumnarError::Mismatch {
                            at: Box::new(at),
                            expected: format!("the record batch's {rows} rows"),
                            found: format!("a column of {} values", c.len()),
                        }
                        .into());
                    }
                    cols.push((f, c));
                } else {
                    batch.skip(f, &at)?;
                }
            }
            for r in 0..rows {
                out.push(b'{');
                for (k, (f, c)) in cols.iter().enumerate() {
                    if k > 0 {
                        out.push(b',');
                    }
                    write_str(&mut out, &f.name);
                    out.push(b':');
                    write_value(&mut out, f, c, r).map_err(|(column, message)| {
                        corrupt(
                            At {
                                row: Some(r as u64 + 1),
                                column: Some(column.unwrap_or_else(|| f.name.clone())),
                                ..bat.clone()
                            },
                            message,
                        )
                    })?;
                }
                out.extend_from_slice(b"}\n");
                if out.len() >= slice {
                    if !each(&out, None)? {
                        return Ok(());
                    }
                    out.clear();
                }
            }
            let done = self.batches[b - 1].0 + rows as u64;
            if !each(&out, Some(done))? {
                return Ok(());
            }
            out.clear();
        }
        Ok(())
    }

    /// Decodes a dictionary batch into `dictionaries` (replacing one of the same id, as a
    /// stream may).
    fn read_dictionary(
        &self,
        m: &Msg,
        next_batch: usize,
        dictionaries: &mut HashMap<i64, Rc<Col<'a>>>,
    ) -> Result<(), ColumnarError> {
        let at = At {
            batch: Some(next_batch),
            ..self.at()
        };
        let bad = |e: &str| corrupt(at.clone(), format!("a dictionary cannot be read: {e}"));
        let (_, header, _) = message(&self.bytes[m.meta.0..m.meta.0 + m.meta.1], &at)?;
        let id = header.i64(0, 0).map_err(bad)?;
        if header.u8(2, 0).map_err(bad)? != 0 {
            return Err(ColumnarError::Unsupported {
                at: Box::new(at),
                what: "a delta dictionary".to_string(),
                advice: "write the table again in one piece (pyarrow: table.combine_chunks())",
            });
        }
        let Some(field) = find_dictionary(&self.fields, id) else {
            return Err(bad(&format!("no field has dictionary {id}")));
        };
        let data = header
            .table(1)
            .map_err(bad)?
            .ok_or_else(|| bad("no data"))?;
        let rows = data.i64(0, 0).map_err(bad)?;
        let at = At {
            column: Some(field.name.clone()),
            ..at
        };
        let mut batch = Batch::new(self, data, m, &at)?;
        let values = batch.decode(&field.values(), dictionaries, &at)?;
        if values.len() as i64 != rows {
            return Err(ColumnarError::Mismatch {
                at: Box::new(at),
                expected: format!("the dictionary's {rows} values"),
                found: format!("an array of {}", values.len()),
            });
        }
        dictionaries.insert(id, Rc::new(values));
        Ok(())
    }
}

/// What takes a slice of JSON lines (and the rows done at a batch's end), saying whether to go
/// on.
type Each<'e, E> = dyn FnMut(&[u8], Option<u64>) -> Result<bool, E> + 'e;

/// The field (anywhere in the schema) encoded with dictionary `id`.
fn find_dictionary(fields: &[Field], id: i64) -> Option<&Field> {
    fields.iter().find_map(|f| match f.dict {
        Some((d, _)) if d == id => Some(f),
        _ => find_dictionary(&f.children, id),
    })
}

/// A validity bitmap (`None`: no nulls).
type Valid<'a> = Option<Cow<'a, [u8]>>;

fn is_null(valid: &Valid<'_>, i: usize) -> bool {
    valid
        .as_ref()
        .is_some_and(|v| v.get(i / 8).is_some_and(|b| b & (1 << (i % 8)) == 0))
}

/// Offsets into values: 32 bits (`wide` false) or 64 bits.
struct Offsets<'a> {
    data: Cow<'a, [u8]>,
    wide: bool,
}

impl Offsets<'_> {
    /// Offset `i` (checked against the data when decoded).
    fn get(&self, i: usize) -> usize {
        if self.wide {
            i64_at(&self.data, 8 * i).unwrap_or(0) as usize
        } else {
            i32_at(&self.data, 4 * i).unwrap_or(0) as usize
        }
    }

    fn range(&self, i: usize) -> std::ops::Range<usize> {
        self.get(i)..self.get(i + 1)
    }
}

/// A decoded array of a record batch, over its buffers (borrowed from the file, or
/// decompressed).
enum Col<'a> {
    Null(usize),
    /// Fixed-width values: numbers, dates, times, timestamps, fixed-size binary.
    Fixed {
        valid: Valid<'a>,
        data: Cow<'a, [u8]>,
        width: usize,
        len: usize,
    },
    Bool {
        valid: Valid<'a>,
        bits: Cow<'a, [u8]>,
        len: usize,
    },
    Bytes {
        valid: Valid<'a>,
        offsets: Offsets<'a>,
        data: Cow<'a, [u8]>,
        len: usize,
    },
    List {
        valid: Valid<'a>,
        offsets: Offsets<'a>,
        child: Box<Col<'a>>,
        len: usize,
    },
    FixedList {
        valid: Valid<'a>,
        size: usize,
        child: Box<Col<'a>>,
        len: usize,
    },
    Struct {
        valid: Valid<'a>,
        children: Vec<Col<'a>>,
        len: usize,
    },
    Dict {
        valid: Valid<'a>,
        indices: Cow<'a, [u8]>,
        index: (usize, bool),
        values: Rc<Col<'a>>,
        len: usize,
    },
}

impl Col<'_> {
    fn len(&self) -> usize {
        match self {
            Col::Null(len)
            | Col::Fixed { len, .. }
            | Col::Bool { len, .. }
            | Col::Bytes { len, .. }
            | Col::List { len, .. }
            | Col::FixedList { len, .. }
            | Col::Struct { len, .. }
            | Col::Dict { len, .. } => *len,
        }
    }
}

/// A record batch's nodes and buffers, taken in order as the schema's fields are decoded.
struct Batch<'a, 'm> {
    /// The schema's fields (for the dictionaries' types).
    fields: &'m [Field],
    body: &'a [u8],
    nodes: &'m [u8],
    buffers: &'m [u8],
    variadic: Vec<i64>,
    node: usize,
    buffer: usize,
    /// LZ4 frame (0) or zstd (1), when the buffers are compressed.
    codec: Option<u8>,
    /// Bytes decompressed so far in this batch.
    inflated: u64,
}

impl<'a, 'm> Batch<'a, 'm> {
    fn new(
        file: &'m ArrowIpc<'a>,
        header: Table<'m>,
        m: &Msg,
        at: &At,
    ) -> Result<Self, ColumnarError> {
        let bad = |e: &str| corrupt(at.clone(), format!("the record batch cannot be read: {e}"));
        let codec = match header.table(3).map_err(bad)? {
            None => None,
            Some(c) => match c.u8(0, 0).map_err(bad)? {
                c @ (0 | 1) => Some(c),
                other => {
                    return Err(ColumnarError::Unsupported {
                        at: Box::new(at.clone()),
                        what: format!("the compression codec numbered {other}"),
                        advice: "write it with compression \"lz4\", \"zstd\" or none",
                    })
                }
            },
        };
        let variadic = header
            .structs(4, 8)
            .map_err(bad)?
            .chunks_exact(8)
            .map(|c| i64_at(c, 0).unwrap_or(0))
            .collect();
        Ok(Self {
            fields: &file.fields,
            body: &file.bytes[m.body.0..m.body.0 + m.body.1],
            nodes: header.structs(1, 16).map_err(bad)?,
            buffers: header.structs(2, 16).map_err(bad)?,
            variadic,
            node: 0,
            buffer: 0,
            codec,
            inflated: 0,
        })
    }

    /// The next node's length and null count.
    fn next_node(&mut self, at: &At) -> Result<(usize, i64), ColumnarError> {
        let p = 16 * self.node;
        let (Some(len), Some(nulls)) = (i64_at(self.nodes, p), i64_at(self.nodes, p + 8)) else {
            return Err(ColumnarError::Mismatch {
                at: Box::new(at.clone()),
                expected: "an array node for each field of the schema".into(),
                found: format!("{} nodes", self.nodes.len() / 16),
            });
        };
        self.node += 1;
        // Every buffer is checked against the length, so a long one allocates nothing.
        let len = usize::try_from(len)
            .map_err(|_| corrupt(at.clone(), format!("an array of length {len}")))?;
        Ok((len, nulls))
    }

    /// The next buffer's bytes in the body.
    fn next_raw(&mut self, at: &At) -> Result<&'a [u8], ColumnarError> {
        let p = 16 * self.buffer;
        let (Some(off), Some(len)) = (i64_at(self.buffers, p), i64_at(self.buffers, p + 8)) else {
            return Err(ColumnarError::Mismatch {
                at: Box::new(at.clone()),
                expected: "the buffers each field's type has".into(),
                found: format!("{} buffers", self.buffers.len() / 16),
            });
        };
        self.buffer += 1;
        let range = usize::try_from(off)
            .ok()
            .zip(usize::try_from(len).ok())
            .and_then(|(o, l)| Some(o..o.checked_add(l)?))
            .filter(|r| r.end <= self.body.len());
        range
            .map(|r| &self.body[r])
            .ok_or_else(|| ColumnarError::Truncated {
                at: Box::new(at.clone()),
                expected: "each buffer within its message's body",
                found: format!(
                    "buffer {} of {len} bytes at offset {off} of a {}-byte body",
                    self.buffer,
                    self.body.len()
                ),
            })
    }

    /// The next buffer, decompressed when the batch is compressed.
    fn next_buffer(&mut self, at: &At) -> Result<Cow<'a, [u8]>, ColumnarError> {
        let raw = self.next_raw(at)?;
        let Some(codec) = self.codec else {
            return Ok(Cow::Borrowed(raw));
        };
        if raw.is_empty() {
            return Ok(Cow::Borrowed(raw));
        }
        let size = i64_at(raw, 0).ok_or_else(|| {
            corrupt(
                at.clone(),
                format!(
                    "a compressed buffer of {} bytes, without its size",
                    raw.len()
                ),
            )
        })?;
        if size == -1 {
            return Ok(Cow::Borrowed(&raw[8..]));
        }
        let total = (size.max(0) as u64).saturating_add(self.inflated);
        if size < 0 || total > MAX_ARROW_BATCH_BYTES {
            return Err(ColumnarError::TooLarge {
                at: Box::new(at.clone()),
                what: "a compressed buffer (with the batch's others so far)",
                found: if size < 0 { size.unsigned_abs() } else { total },
                max: MAX_ARROW_BATCH_BYTES,
                limit: "limits::MAX_ARROW_BATCH_BYTES",
            });
        }
        self.inflated = total;
        let size = size as usize;
        let input = &raw[8..];
        let read = |r: &mut dyn Read| {
            // Never more than declared (one byte more tells a buffer that inflates past it),
            // and no more reserved than the input could plausibly give at first.
            let mut out = Vec::with_capacity(size.min(input.len().saturating_mul(16)));
            r.take(size as u64 + 1)
                .read_to_end(&mut out)
                .map(|_| out)
                .map_err(|e| e.to_string())
        };
        let out = if codec == 0 {
            read(&mut lz4_flex::frame::FrameDecoder::new(input)).map_err(|e| format!("LZ4: {e}"))
        } else {
            ruzstd::decoding::StreamingDecoder::new(input)
                .map_err(|e| e.to_string())
                .and_then(|mut d| read(&mut d))
                .map_err(|e| format!("zstd: {e}"))
        }
        .map_err(|e| corrupt(at.clone(), format!("a buffer cannot be decompressed: {e}")))?;
        if out.len() != size {
            return Err(corrupt(
                at.clone(),
                format!(
                    "a compressed buffer declares {size} bytes and decompresses to {}{}",
                    out.len().min(size),
                    if out.len() > size { " and more" } else { "" }
                ),
            ));
        }
        Ok(Cow::Owned(out))
    }

    /// The next validity bitmap, for `len` values with `nulls` nulls.
    fn validity(&mut self, len: usize, nulls: i64, at: &At) -> Result<Valid<'a>, ColumnarError> {
        let v = self.next_buffer(at)?;
        if nulls == 0 {
            return Ok(None);
        }
        need(&v, len.div_ceil(8), "validity bitmap", len, at)?;
        Ok(Some(v))
    }

    /// The next offsets buffer for `len` values, checked to rise and end within `within`.
    fn offsets(
        &mut self,
        len: usize,
        wide: bool,
        at: &At,
    ) -> Result<(Offsets<'a>, usize), ColumnarError> {
        let data = self.next_buffer(at)?;
        let w = if wide { 8 } else { 4 };
        if len == 0 && data.is_empty() {
            return Ok((Offsets { data, wide }, 0));
        }
        need(
            &data,
            (len + 1).saturating_mul(w),
            "offsets buffer",
            len,
            at,
        )?;
        let o = Offsets { data, wide };
        let mut last = 0i128;
        for i in 0..=len {
            let x = if wide {
                i128::from(i64_at(&o.data, 8 * i).unwrap_or(-1))
            } else {
                i128::from(i32_at(&o.data, 4 * i).unwrap_or(-1))
            };
            if x < 0 || (i > 0 && x < last) {
                return Err(corrupt(
                    at.clone(),
                    format!("offset {i} is {x}, after {last}: offsets must not fall"),
                ));
            }
            last = x;
        }
        let end = usize::try_from(last).map_err(|_| corrupt(at.clone(), "an offset too large"))?;
        Ok((o, end))
    }

    /// Decodes field `f`'s array (and its children's; the schema's depth is bounded).
    fn decode(
        &mut self,
        f: &Field,
        dictionaries: &HashMap<i64, Rc<Col<'a>>>,
        at: &At,
    ) -> Result<Col<'a>, ColumnarError> {
        let (len, nulls) = self.next_node(at)?;
        if let Some((id, index)) = f.dict {
            let valid = self.validity(len, nulls, at)?;
            let indices = self.next_buffer(at)?;
            let Ty::Int { bits, signed } = index else {
                return Err(corrupt(
                    at.clone(),
                    "a dictionary whose index is no integer",
                ));
            };
            let width = usize::from(bits / 8);
            need(&indices, len.saturating_mul(width), "index buffer", len, at)?;
            let values = dictionaries.get(&id).cloned().ok_or_else(|| {
                corrupt(
                    at.clone(),
                    format!("dictionary {id} is used before it is given"),
                )
            })?;
            // The dictionary was decoded as the first field using its id: another field
            // sharing the id must have the same type.
            if find_dictionary(self.fields, id).is_some_and(|d| d.ty != f.ty) {
                return Err(corrupt(
                    at.clone(),
                    format!("dictionary {id} is shared by fields of different types"),
                ));
            }
            return Ok(Col::Dict {
                valid,
                indices,
                index: (width, signed),
                values,
                len,
            });
        }
        let child_at = |c: &Field| At {
            column: Some(format!("{}.{}", at.column.as_deref().unwrap_or(""), c.name)),
            ..at.clone()
        };
        let unsupported = |ty: Ty| ColumnarError::Unsupported {
            at: Box::new(at.clone()),
            what: format!("the Arrow {} type", ty.name()),
            advice: CAST_ADVICE,
        };
        let width = match f.ty {
            Ty::Null => return Ok(Col::Null(len)),
            Ty::Int { bits, .. } => usize::from(bits / 8),
            Ty::Float(bits) => usize::from(bits / 8),
            Ty::Decimal { bytes, .. } if bytes <= 16 => usize::from(bytes),
            Ty::Date { ms } => {
                if ms {
                    8
                } else {
                    4
                }
            }
            Ty::Time { bits, .. } => usize::from(bits / 8),
            Ty::Timestamp(_) | Ty::Duration => 8,
            Ty::FixedSizeBinary(w) => w,
            Ty::Bool => {
                let valid = self.validity(len, nulls, at)?;
                let bits = self.next_buffer(at)?;
                need(&bits, len.div_ceil(8), "value bitmap", len, at)?;
                return Ok(Col::Bool { valid, bits, len });
            }
            Ty::Binary | Ty::Utf8 | Ty::LargeBinary | Ty::LargeUtf8 => {
                let valid = self.validity(len, nulls, at)?;
                let wide = matches!(f.ty, Ty::LargeBinary | Ty::LargeUtf8);
                let (offsets, end) = self.offsets(len, wide, at)?;
                let data = self.next_buffer(at)?;
                need(&data, end, "data buffer", len, at)?;
                return Ok(Col::Bytes {
                    valid,
                    offsets,
                    data,
                    len,
                });
            }
            Ty::List | Ty::LargeList | Ty::Map => {
                let valid = self.validity(len, nulls, at)?;
                let (offsets, end) = self.offsets(len, f.ty == Ty::LargeList, at)?;
                let c = &f.children[0];
                let child = self.decode(c, dictionaries, &child_at(c))?;
                if child.len() < end {
                    return Err(short_child(at, end, child.len()));
                }
                if f.ty == Ty::Map
                    && !matches!(&child, Col::Struct { children, .. } if children.len() == 2)
                {
                    return Err(corrupt(
                        at.clone(),
                        "a map whose entries are no key-value pairs",
                    ));
                }
                return Ok(Col::List {
                    valid,
                    offsets,
                    child: Box::new(child),
                    len,
                });
            }
            Ty::FixedSizeList(size) => {
                let valid = self.validity(len, nulls, at)?;
                let c = &f.children[0];
                let child = self.decode(c, dictionaries, &child_at(c))?;
                let end = len.saturating_mul(size);
                if child.len() < end {
                    return Err(short_child(at, end, child.len()));
                }
                return Ok(Col::FixedList {
                    valid,
                    size,
                    child: Box::new(child),
                    len,
                });
            }
            Ty::Struct => {
                let valid = self.validity(len, nulls, at)?;
                let mut children = Vec::with_capacity(f.children.len());
                for c in &f.children {
                    let col = self.decode(c, dictionaries, &child_at(c))?;
                    if col.len() < len {
                        return Err(short_child(at, len, col.len()));
                    }
                    children.push(col);
                }
                return Ok(Col::Struct {
                    valid,
                    children,
                    len,
                });
            }
            ty @ (Ty::Interval(_)
            | Ty::Decimal { .. }
            | Ty::Union { .. }
            | Ty::RunEndEncoded
            | Ty::View
            | Ty::ListView) => return Err(unsupported(ty)),
        };
        let valid = self.validity(len, nulls, at)?;
        let data = self.next_buffer(at)?;
        need(&data, len.saturating_mul(width), "data buffer", len, at)?;
        Ok(Col::Fixed {
            valid,
            data,
            width,
            len,
        })
    }

    /// Passes over field `f`'s nodes and buffers without reading them.
    fn skip(&mut self, f: &Field, at: &At) -> Result<(), ColumnarError> {
        self.next_node(at)?;
        let n = if f.dict.is_some() {
            return self
                .next_raw(at)
                .and_then(|_| self.next_raw(at))
                .map(|_| ());
        } else if f.ty == Ty::View {
            let extra = self.variadic.first().copied().unwrap_or(0);
            if !self.variadic.is_empty() {
                self.variadic.remove(0);
            }
            usize::try_from(extra)
                .unwrap_or(usize::MAX)
                .saturating_add(2)
        } else {
            f.ty.buffers()
        };
        if n > self.buffers.len() / 16 {
            return Err(ColumnarError::Mismatch {
                at: Box::new(at.clone()),
                expected: format!("{n} more buffers"),
                found: format!("{} buffers in all", self.buffers.len() / 16),
            });
        }
        for _ in 0..n {
            self.next_raw(at)?;
        }
        for c in &f.children {
            self.skip(c, at)?;
        }
        Ok(())
    }
}

/// A buffer must hold `bytes` bytes for `len` values.
fn need(buf: &[u8], bytes: usize, what: &str, len: usize, at: &At) -> Result<(), ColumnarError> {
    if buf.len() < bytes {
        return Err(ColumnarError::Mismatch {
            at: Box::new(at.clone()),
            expected: format!("a {what} of at least {bytes} bytes for the array's {len} values"),
            found: format!("{} bytes", buf.len()),
        });
    }
    Ok(())
}

fn short_child(at: &At, want: usize, found: usize) -> ColumnarError {
    ColumnarError::Mismatch {
        at: Box::new(at.clone()),
        expected: format!("a child array of at least {want} values"),
        found: format!("{found} values"),
    }
}

fn write_str(out: &mut Vec<u8>, s: &str) {
    // Writing to a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, s);
}

/// What went wrong writing a value: the nested column's path when it is not the top-level
/// one, and the message.
type WriteError = (Option<String>, String);

/// Writes value `i` of `c` (of field `f`) as JSON, as the Parquet reader writes the same
/// value read from the Parquet file pyarrow writes for it.
fn write_value(out: &mut Vec<u8>, f: &Field, c: &Col<'_>, i: usize) -> Result<(), WriteError> {
    let _ = match c {
        Col::Null(_) => out.write_all(b"null"),
        Col::Fixed { valid, .. }
        | Col::Bool { valid, .. }
        | Col::Bytes { valid, .. }
        | Col::List { valid, .. }
        | Col::FixedList { valid, .. }
        | Col::Struct { valid, .. }
        | Col::Dict { valid, .. }
            if is_null(valid, i) =>
        {
            out.write_all(b"null")
        }
        Col::Bool { bits, .. } => out.write_all(if bits[i / 8] & (1 << (i % 8)) != 0 {
            b"true"
        } else {
            b"false"
        }),
        Col::Fixed { data, width, .. } => {
            write_fixed(out, f.ty, &data[i * width..(i + 1) * width]);
            Ok(())
        }
        Col::Bytes { offsets, data, .. } => {
            let b = &data[offsets.range(i)];
            match (std::str::from_utf8(b), f.ty) {
                (Ok(s), _) => write_str(out, s),
                (Err(e), Ty::Utf8 | Ty::LargeUtf8) => {
                    return Err((None, format!("a string that is not UTF-8 ({e})")))
                }
                (Err(_), _) => out.extend_from_slice(b"null"),
            }
            Ok(())
        }
        Col::List { offsets, child, .. } if f.ty == Ty::Map => {
            let (Col::Struct { children, .. }, Some([kf, vf])) =
                (&**child, f.children.first().map(|e| e.children.as_slice()))
            else {
                return Err((None, "a map whose entries are no key-value pairs".into()));
            };
            let [kc, vc] = children.as_slice() else {
                return Err((None, "a map whose entries are no key-value pairs".into()));
            };
            out.push(b'{');
            for (k, j) in offsets.range(i).enumerate() {
                if k > 0 {
                    out.push(b',');
                }
                let mut key = Vec::new();
                write_value(&mut key, kf, kc, j)?;
                // A string key as it is, any other as its JSON text.
                match serde_json::from_slice::<String>(&key) {
                    Ok(s) => write_str(out, &s),
                    Err(_) => write_str(out, &String::from_utf8_lossy(&key)),
                }
                out.push(b':');
                write_value(out, vf, vc, j)?;
            }
            out.push(b'}');
            Ok(())
        }
        Col::List { offsets, child, .. } => {
            write_list(out, item(f)?, child, offsets.range(i))?;
            Ok(())
        }
        Col::FixedList { size, child, .. } => {
            write_list(out, item(f)?, child, i * size..(i + 1) * size)?;
            Ok(())
        }
        Col::Struct { children, .. } => {
            out.push(b'{');
            for (k, (cf, cc)) in f.children.iter().zip(children).enumerate() {
                if k > 0 {
                    out.push(b',');
                }
                write_str(out, &cf.name);
                out.push(b':');
                write_value(out, cf, cc, i).map_err(|(p, m)| {
                    (
                        Some(format!(
                            "{}.{}",
                            f.name,
                            p.unwrap_or_else(|| cf.name.clone())
                        )),
                        m,
                    )
                })?;
            }
            out.push(b'}');
            Ok(())
        }
        Col::Dict {
            indices,
            index: (width, signed),
            values,
            ..
        } => {
            let b = &indices[i * width..(i + 1) * width];
            let mut le = [0u8; 8];
            le[..*width].copy_from_slice(b);
            let k = if *signed && b[width - 1] & 0x80 != 0 {
                -1
            } else {
                u64::from_le_bytes(le) as i128
            };
            match usize::try_from(k).ok().filter(|&k| k < values.len()) {
                Some(k) => write_value(out, &f.values(), values, k)?,
                None => {
                    return Err((
                        None,
                        format!(
                            "dictionary index {k} of a dictionary of {} values",
                            values.len()
                        ),
                    ))
                }
            }
            Ok(())
        }
    };
    Ok(())
}

/// A list field's item field (a dictionary shared by fields of other types could give a list
/// to a field that has none).
fn item(f: &Field) -> Result<&Field, WriteError> {
    f.children
        .first()
        .ok_or_else(|| (None, "a list where the schema has no list".to_string()))
}

fn write_list(
    out: &mut Vec<u8>,
    f: &Field,
    c: &Col<'_>,
    range: std::ops::Range<usize>,
) -> Result<(), WriteError> {
    out.push(b'[');
    for (k, j) in range.enumerate() {
        if k > 0 {
            out.push(b',');
        }
        write_value(out, f, c, j)?;
    }
    out.push(b']');
    Ok(())
}

/// Writes one fixed-width value.
fn write_fixed(out: &mut Vec<u8>, ty: Ty, b: &[u8]) {
    let mut le = [0u8; 16];
    let n = b.len().min(16);
    le[..n].copy_from_slice(&b[..n]);
    let negative = b.last().is_some_and(|x| x & 0x80 != 0);
    // Sign-extended little-endian value of up to 16 bytes.
    let unsigned = u128::from_le_bytes(le);
    let mut ext = le;
    if negative {
        ext[n..].fill(0xFF);
    }
    let signed = i128::from_le_bytes(ext);
    let _ = match ty {
        Ty::Int { signed: true, .. } | Ty::Duration => write!(out, "{}", signed),
        Ty::Int { signed: false, .. } => write!(out, "{unsigned}"),
        Ty::Float(16) => write_f64(out, f16_to_f64(u16::from_le_bytes([le[0], le[1]]))),
        Ty::Float(32) => write_f64(
            out,
            f64::from(f32::from_le_bytes([le[0], le[1], le[2], le[3]])),
        ),
        Ty::Float(_) => write_f64(
            out,
            f64::from_le_bytes([le[0], le[1], le[2], le[3], le[4], le[5], le[6], le[7]]),
        ),
        Ty::Decimal { scale, .. } => {
            write_str(out, &decimal(signed, scale));
            Ok(())
        }
        Ty::Date { ms } => {
            let v = signed as i64;
            let days = if ms { v.div_euclid(86_400_000) } else { v };
            write_str(out, &date(days));
            Ok(())
        }
        // Parquet has no seconds: pyarrow writes them as milliseconds.
        Ty::Time { unit: 0 | 1, .. } => {
            let ms = signed as i64
                * if matches!(ty, Ty::Time { unit: 0, .. }) {
                    1000
                } else {
                    1
                };
            let ms = ms as u64;
            write_str(
                out,
                &format!(
                    "{:02}:{:02}:{:02}.{:03}",
                    ms / 3_600_000,
                    ms % 3_600_000 / 60_000,
                    ms % 60_000 / 1000,
                    ms % 1000
                ),
            );
            Ok(())
        }
        Ty::Time { unit: 2, .. } => {
            let us = signed as u64;
            write_str(
                out,
                &format!(
                    "{:02}:{:02}:{:02}.{:06}",
                    us / 3_600_000_000,
                    us % 3_600_000_000 / 60_000_000,
                    us % 60_000_000 / 1_000_000,
                    us % 1_000_000
                ),
            );
            Ok(())
        }
        Ty::Timestamp(unit @ 0..=2) => {
            let v = signed as i64;
            let (per, digits) = if unit == 2 { (1_000_000, 6) } else { (1000, 3) };
            let v = if unit == 0 { v.saturating_mul(1000) } else { v };
            let secs = v.div_euclid(per);
            let frac = v.rem_euclid(per);
            let (days, s) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
            write_str(
                out,
                &format!(
                    "{} {:02}:{:02}:{:02}.{frac:0digits$} +00:00",
                    date(days),
                    s / 3600,
                    s % 3600 / 60,
                    s % 60
                ),
            );
            Ok(())
        }
        // Nanosecond times and timestamps: Parquet's reader gives their integers.
        Ty::Time { .. } | Ty::Timestamp(_) => write!(out, "{}", signed),
        // Fixed-size binary, and decimals wider than 128 bits.
        _ => {
            match std::str::from_utf8(b) {
                Ok(s) => write_str(out, s),
                Err(_) => out.extend_from_slice(b"null"),
            }
            Ok(())
        }
    };
}

fn write_f64(out: &mut Vec<u8>, x: f64) -> std::io::Result<()> {
    // serde_json writes a non-finite number as null.
    serde_json::to_writer(out, &x).map_err(Into::into)
}

/// An IEEE half-precision float.
fn f16_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1F);
    let frac = f64::from(h & 0x3FF);
    sign * match exp {
        0 => frac * 2f64.powi(-24),
        31 if frac == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        e => (1.0 + frac / 1024.0) * 2f64.powi(e - 15),
    }
}

/// A decimal's digits with its scale's point, as the `parquet` crate prints one (a scale of
/// 0 leaves a trailing point).
fn decimal(v: i128, scale: i32) -> String {
    let negative = usize::from(v < 0);
    let mut s = v.to_string();
    let mut point = s.len() as i64 - i64::from(scale) - negative as i64;
    if point <= 0 {
        while point < 0 {
            s.insert(negative, '0');
            point += 1;
        }
        s.insert_str(negative, "0.");
    } else {
        s.insert(point as usize + negative, '.');
    }
    s
}

/// `YYYY-MM-DD` of a day counted from 1970-01-01 (proleptic Gregorian; H. Hinnant's
/// `civil_from_days`).
fn date(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Dates against `date -u -d @<seconds> +%F` (GNU coreutils): 0 is 1970-01-01, 11016
    /// is 2000-02-29, 19723 is 2024-01-01, -1 is 1969-12-31.
    #[test]
    fn dates_as_coreutils_prints_them() {
        assert_eq!(date(0), "1970-01-01");
        assert_eq!(date(11_016), "2000-02-29");
        assert_eq!(date(19_723), "2024-01-01");
        assert_eq!(date(-1), "1969-12-31");
    }

    /// Decimals as the `parquet` crate's `convert_decimal_to_string` prints them (its tests:
    /// 12345 at scale 2 is "123.45", -5 at scale 3 is "-0.005").
    #[test]
    fn decimals_as_parquet_prints_them() {
        assert_eq!(decimal(12_345, 2), "123.45");
        assert_eq!(decimal(-5, 3), "-0.005");
        assert_eq!(decimal(7, 0), "7.");
    }

    /// Half floats from their bit patterns (IEEE 754: 0x3C00 is 1, 0xC000 is -2, 0x3555 is
    /// 0.333251953125, 0x7C00 is infinity).
    #[test]
    fn half_floats() {
        assert_eq!(f16_to_f64(0x3C00), 1.0);
        assert_eq!(f16_to_f64(0xC000), -2.0);
        assert_eq!(f16_to_f64(0x3555), 0.333_251_953_125);
        assert_eq!(f16_to_f64(0x7C00), f64::INFINITY);
    }
}
