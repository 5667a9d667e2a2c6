//! A Parquet file read row group by row group into JSON object lines or CSV rows.
//!
//! The footer, schema and value decoding are the `parquet` crate's (arrow-rs, without Arrow
//! and without its codecs); the pages are read by [`super::pages`], which checks every declared
//! size first. Rows are assembled by the crate's record reader (nested groups, lists and maps)
//! and written out here, a slice at a time, so memory holds the file's bytes (or, read from a
//! file on disk, one column chunk at a time), one page per column and one slice of output.

use super::pages::{check_header, external, ChunkPages, Codec};
use super::{At, ColumnarError};
use crate::limits::{MAX_PARQUET_PAGE_BYTES, MAX_PARQUET_ROWS};
use bytes::Bytes;
use parquet::bloom_filter::Sbbf;
use parquet::column::page::PageReader;
use parquet::errors::ParquetError;
use parquet::file::metadata::{ParquetMetaData, ParquetMetaDataReader, RowGroupMetaData};
use parquet::file::reader::{ChunkReader, Length, RowGroupReader};
use parquet::record::reader::RowIter;
use parquet::record::Field;
use parquet::schema::types::Type;
use std::io::Write;
use std::sync::Arc;

/// How much output is gathered before it is handed on.
const SLICE: usize = 1 << 20;

/// Which top-level columns are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Projection<'a> {
    /// Every column.
    All,
    /// Only the named top-level columns that the file has (others are never read: an MM-IQ
    /// dataset's `image` column is skipped whole).
    Only(&'a [&'a str]),
}

/// An open Parquet file: its footer read and checked.
pub struct ParquetFile<R: ChunkReader> {
    file: String,
    reader: Arc<R>,
    meta: ParquetMetaData,
    /// The first row (0-based, in the file) of each row group.
    starts: Vec<u64>,
}

impl<R: ChunkReader> std::fmt::Debug for ParquetFile<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParquetFile")
            .field("file", &self.file)
            .field("row_groups", &self.starts.len())
            .finish_non_exhaustive()
    }
}

fn at(file: &str) -> At {
    At {
        file: file.to_string(),
        ..At::default()
    }
}

/// A `parquet` crate error as a located one (a [`ColumnarError`] carried through the crate
/// comes back as it was).
fn from_parquet(e: ParquetError, at: At) -> ColumnarError {
    if let ParquetError::External(inner) = &e {
        if let Some(c) = inner.downcast_ref::<ColumnarError>() {
            return c.clone();
        }
    }
    let message = match e {
        ParquetError::EOF(m) => format!("the data end early: {m}"),
        ParquetError::General(m) | ParquetError::NYI(m) => m,
        other => other.to_string(),
    };
    ColumnarError::Corrupt {
        at: Box::new(at),
        message,
    }
}

impl ParquetFile<Bytes> {
    /// Opens a Parquet file held in memory.
    ///
    /// # Errors
    /// As [`ParquetFile::open`].
    pub fn from_bytes(file: &str, bytes: impl Into<Bytes>) -> Result<Self, ColumnarError> {
        Self::open(file, bytes.into())
    }
}

/// A Parquet file's bytes borrowed (each column chunk is copied when it is read, so the
/// whole file is never copied).
#[derive(Debug, Clone, Copy)]
pub struct SliceReader<'a>(pub &'a [u8]);

impl Length for SliceReader<'_> {
    fn len(&self) -> u64 {
        self.0.len() as u64
    }
}

impl ChunkReader for SliceReader<'_> {
    type T = std::io::Cursor<Bytes>;

    fn get_read(&self, start: u64) -> parquet::errors::Result<Self::T> {
        let bytes = self.get_bytes(start, self.0.len().saturating_sub(start as usize))?;
        Ok(std::io::Cursor::new(bytes))
    }

    fn get_bytes(&self, start: u64, length: usize) -> parquet::errors::Result<Bytes> {
        usize::try_from(start)
            .ok()
            .and_then(|s| Some(s..s.checked_add(length)?))
            .and_then(|r| self.0.get(r))
            .map(Bytes::copy_from_slice)
            .ok_or_else(|| {
                ParquetError::EOF(format!(
                    "{length} bytes at offset {start} of a {}-byte file",
                    self.0.len()
                ))
            })
    }
}

/// A file read in pieces: its length and the byte ranges loaded so far (the browser worker
/// loads a `Blob`'s footer, then one row group's column chunks at a time, asynchronously, and
/// opens the file on this). Asking for bytes outside what is loaded is a read error naming the
/// range, never a wait.
#[derive(Debug, Default)]
pub struct Ranges {
    len: u64,
    loaded: std::sync::Mutex<Vec<(u64, Bytes)>>,
}

impl Ranges {
    /// A file of `len` bytes, nothing loaded yet.
    pub fn new(len: u64) -> Self {
        Self {
            len,
            loaded: std::sync::Mutex::new(Vec::new()),
        }
    }

    /// Adds the bytes at `start`.
    pub fn load(&self, start: u64, bytes: Bytes) {
        if let Ok(mut l) = self.loaded.lock() {
            l.push((start, bytes));
        }
    }

    /// Drops the pieces loaded at the `starts` given (a row group's, once it is read).
    pub fn release(&self, starts: &[u64]) {
        if let Ok(mut l) = self.loaded.lock() {
            l.retain(|(s, _)| !starts.contains(s));
        }
    }

    /// The trailing bytes to load before [`ParquetFile::open`]: the footer and its 8-byte
    /// tail, told from the file's last 8 bytes (`last8`); 8 when they do not end in `PAR1`
    /// or declare a footer longer than the file (opening then names the problem).
    ///
    /// ```
    /// use coglab_core::columnar::Ranges;
    /// assert_eq!(Ranges::tail_bytes(1000, b"\x64\0\0\0PAR1"), 108);
    /// assert_eq!(Ranges::tail_bytes(50, b"\x64\0\0\0PAR1"), 8);
    /// assert_eq!(Ranges::tail_bytes(1000, b"\x64\0\0\0PAR2"), 8);
    /// ```
    pub fn tail_bytes(len: u64, last8: &[u8]) -> u64 {
        match last8 {
            [a, b, c, d, b'P', b'A', b'R', b'1'] => {
                let footer = u64::from(u32::from_le_bytes([*a, *b, *c, *d]));
                if footer + 12 <= len && footer <= MAX_PARQUET_PAGE_BYTES {
                    footer + 8
                } else {
                    8
                }
            }
            _ => 8,
        }
    }
}

impl Length for Ranges {
    fn len(&self) -> u64 {
        self.len
    }
}

impl ChunkReader for Ranges {
    type T = std::io::Cursor<Bytes>;

    fn get_read(&self, start: u64) -> parquet::errors::Result<Self::T> {
        let rest = self.len.saturating_sub(start) as usize;
        let loaded = self
            .loaded
            .lock()
            .map_err(|_| ParquetError::General("poisoned".into()))?;
        let piece = loaded
            .iter()
            .find(|(s, b)| *s <= start && start < s + b.len() as u64)
            .map(|(s, b)| b.slice((start - s) as usize..));
        piece.map(std::io::Cursor::new).ok_or_else(|| {
            ParquetError::EOF(format!("{rest} bytes at offset {start} are not loaded"))
        })
    }

    fn get_bytes(&self, start: u64, length: usize) -> parquet::errors::Result<Bytes> {
        let loaded = self
            .loaded
            .lock()
            .map_err(|_| ParquetError::General("poisoned".into()))?;
        let end = start.saturating_add(length as u64);
        loaded
            .iter()
            .find(|(s, b)| *s <= start && end <= s + b.len() as u64)
            .map(|(s, b)| b.slice((start - s) as usize..(end - s) as usize))
            .ok_or_else(|| {
                ParquetError::EOF(format!(
                    "{length} bytes at offset {start} of a {}-byte file are not loaded",
                    self.len
                ))
            })
    }
}

impl<'a> ParquetFile<SliceReader<'a>> {
    /// Opens a Parquet file in borrowed memory.
    ///
    /// # Errors
    /// As [`ParquetFile::open`].
    pub fn from_slice(file: &str, bytes: &'a [u8]) -> Result<Self, ColumnarError> {
        Self::open(file, SliceReader(bytes))
    }
}

impl<R: ChunkReader> ParquetFile<R> {
    /// Opens a Parquet file: reads its footer and checks it (the magic at both ends, the row
    /// count against [`MAX_PARQUET_ROWS`] and the row groups', the column chunks' types
    /// against the schema and their byte ranges against the file).
    ///
    /// # Errors
    /// [`ColumnarError::Truncated`], [`ColumnarError::Corrupt`] (the footer),
    /// [`ColumnarError::TooLarge`], [`ColumnarError::Mismatch`], each naming the file and the
    /// row group and column when it is one.
    pub fn open(file: &str, reader: R) -> Result<Self, ColumnarError> {
        let len = reader.len();
        let tail = if len >= 8 {
            reader
                .get_bytes(len - 8, 8)
                .map_err(|e| from_parquet(e, at(file)))?
        } else {
            Bytes::new()
        };
        if len < 12 || &tail[4..] != b"PAR1" {
            return Err(ColumnarError::Truncated {
                at: Box::new(at(file)),
                expected: "a footer ending in PAR1",
                found: if len < 12 {
                    format!("{len} bytes in all")
                } else {
                    format!(
                        "the last 4 bytes are {:?}",
                        String::from_utf8_lossy(&tail[4..])
                    )
                },
            });
        }
        let footer = u64::from(u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]));
        if footer + 12 > len {
            return Err(ColumnarError::Truncated {
                at: Box::new(at(file)),
                expected: "the footer within the file",
                found: format!("a {footer}-byte footer in a {len}-byte file"),
            });
        }
        if footer > MAX_PARQUET_PAGE_BYTES {
            return Err(ColumnarError::TooLarge {
                at: Box::new(at(file)),
                what: "the footer's length",
                found: footer,
                max: MAX_PARQUET_PAGE_BYTES,
                limit: "limits::MAX_PARQUET_PAGE_BYTES",
            });
        }
        let meta = ParquetMetaDataReader::new()
            .parse_and_finish(&reader)
            .map_err(|e| match from_parquet(e, at(file)) {
                ColumnarError::Corrupt { at, message } => ColumnarError::Corrupt {
                    at,
                    message: format!("the footer cannot be read: {message}"),
                },
                other => other,
            })?;
        let total = meta.file_metadata().num_rows();
        if total < 0 || total as u64 > MAX_PARQUET_ROWS {
            return Err(ColumnarError::TooLarge {
                at: Box::new(at(file)),
                what: "the footer's row count",
                found: total.max(0) as u64,
                max: MAX_PARQUET_ROWS,
                limit: "limits::MAX_PARQUET_ROWS",
            });
        }
        for f in meta.file_metadata().schema().get_fields() {
            check_shape(f, &mut f.name().to_string()).map_err(|(column, found)| {
                ColumnarError::Mismatch {
                    at: Box::new(At {
                        column: Some(column),
                        ..at(file)
                    }),
                    expected: "a LIST of one repeated field, a MAP of one repeated group of a key \
                               and a value, a group of at least one field"
                        .into(),
                    found,
                }
            })?;
        }
        let schema = meta.file_metadata().schema_descr();
        let mut starts = Vec::with_capacity(meta.num_row_groups());
        let mut sum = 0u64;
        for (g, rg) in meta.row_groups().iter().enumerate() {
            let rg_at = At {
                row_group: Some(g + 1),
                ..at(file)
            };
            let rows = rg.num_rows();
            if rows < 0 || rows as u64 > MAX_PARQUET_ROWS {
                return Err(ColumnarError::TooLarge {
                    at: Box::new(rg_at),
                    what: "the row group's row count",
                    found: rows.max(0) as u64,
                    max: MAX_PARQUET_ROWS,
                    limit: "limits::MAX_PARQUET_ROWS",
                });
            }
            starts.push(sum);
            sum += rows as u64;
            if rg.num_columns() != schema.num_columns() {
                return Err(ColumnarError::Mismatch {
                    at: Box::new(rg_at),
                    expected: format!(
                        "{} column chunks, one per column of the schema",
                        schema.num_columns()
                    ),
                    found: format!("{} column chunks", rg.num_columns()),
                });
            }
            for (i, chunk) in rg.columns().iter().enumerate() {
                let descr = schema.column(i);
                let col_at = At {
                    column: Some(descr.path().string()),
                    ..rg_at.clone()
                };
                if chunk.column_type() != descr.physical_type() {
                    return Err(ColumnarError::Mismatch {
                        at: Box::new(col_at),
                        expected: format!("{} values, as the schema says", descr.physical_type()),
                        found: format!("a column chunk of {} values", chunk.column_type()),
                    });
                }
                chunk_range(chunk, len, &col_at)?;
            }
        }
        if sum != total as u64 {
            return Err(ColumnarError::Mismatch {
                at: Box::new(at(file)),
                expected: format!("the {total} rows the footer declares"),
                found: format!("row groups of {sum} rows in all"),
            });
        }
        Ok(Self {
            file: file.to_string(),
            reader: Arc::new(reader),
            meta,
            starts,
        })
    }

    /// The reader the file was opened on.
    pub fn reader(&self) -> &R {
        &self.reader
    }

    /// The file name (what messages name).
    pub fn name(&self) -> &str {
        &self.file
    }

    /// The number of rows.
    pub fn num_rows(&self) -> u64 {
        self.meta.file_metadata().num_rows().max(0) as u64
    }

    /// The number of row groups.
    pub fn num_row_groups(&self) -> usize {
        self.starts.len()
    }

    /// The names of the top-level columns, in order.
    pub fn columns(&self) -> Vec<String> {
        self.meta
            .file_metadata()
            .schema()
            .get_fields()
            .iter()
            .map(|f| f.name().to_string())
            .collect()
    }

    /// The byte ranges (start, length) of row group `g`'s (0-based) column chunks that
    /// `projection` reads, adjacent ones joined: what must be loaded into a [`Ranges`] before
    /// the row group is read.
    ///
    /// # Errors
    /// [`ColumnarError::Truncated`] for a chunk outside the file.
    pub fn group_ranges(
        &self,
        g: usize,
        projection: Projection<'_>,
    ) -> Result<Vec<(u64, u64)>, ColumnarError> {
        let mut out: Vec<(u64, u64)> = Vec::new();
        let Some(rg) = self.meta.row_groups().get(g) else {
            return Ok(out);
        };
        let mut spans = Vec::new();
        for i in self.wanted(projection) {
            let chunk = rg.column(i);
            let at = At {
                file: self.file.clone(),
                row_group: Some(g + 1),
                column: Some(chunk.column_descr().path().string()),
                ..At::default()
            };
            spans.push(chunk_range(chunk, self.reader.len(), &at)?);
        }
        spans.sort_unstable();
        for (s, l) in spans {
            match out.last_mut() {
                Some((ps, pl)) if *ps + *pl == s => *pl += l,
                _ => out.push((s, l)),
            }
        }
        Ok(out)
    }

    /// The uncompressed size the footer declares for row group `g`'s (0-based) column chunks
    /// that `projection` reads: about the size of their values as text, for a progress bar.
    pub fn group_uncompressed(&self, g: usize, projection: Projection<'_>) -> u64 {
        self.meta.row_groups().get(g).map_or(0, |rg| {
            self.wanted(projection)
                .into_iter()
                .map(|i| rg.column(i).uncompressed_size().max(0) as u64)
                .sum()
        })
    }

    /// The rows of row group `g` (0-based) as [`ParquetFile::write_jsonl`] writes them, for a
    /// reader that loads one row group at a time ([`Ranges`]).
    ///
    /// # Errors
    /// As [`ParquetFile::write_jsonl`].
    pub fn write_group_jsonl<E: From<ColumnarError>>(
        &self,
        g: usize,
        projection: Projection<'_>,
        mut push: impl FnMut(&[u8]) -> Result<(), E>,
    ) -> Result<(), E> {
        if let Some(flat) = self.flat(projection) {
            return self.write_flat_group(g, &flat, push);
        }
        let mut out = Vec::with_capacity(SLICE + SLICE / 4);
        self.rows_of::<E>(g, projection, &mut |fields| {
            write_object(&mut out, fields);
            out.push(b'\n');
            if out.len() >= SLICE {
                push(&out)?;
                out.clear();
            }
            Ok(())
        })?;
        if !out.is_empty() {
            push(&out)?;
        }
        Ok(())
    }

    /// The 1-based row group and row within it of the file's 1-based row `row`.
    ///
    /// # Examples
    /// (With row groups of 100 rows, row 250 is row 50 of row group 3.)
    pub fn locate(&self, row: u64) -> Option<(usize, u64)> {
        let zero = row.checked_sub(1)?;
        if zero >= self.num_rows() {
            return None;
        }
        let g = self.starts.partition_point(|&s| s <= zero);
        Some((g, zero - self.starts[g - 1] + 1))
    }

    /// Makes a location that names a line of this file's rows as written by
    /// [`ParquetFile::write_jsonl`] (line n is row n; `header_lines` 1 for
    /// [`ParquetFile::write_csv`]) name its row group and the row within it instead: the
    /// location's label becomes `file row group G, row R` and it names no line.
    ///
    /// ```
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let bytes: &[u8] = b"";
    /// // With row groups of 100 rows, line 250 is row 50 of row group 3:
    /// // "preds.parquet line 250: field \"data_id\"" reads
    /// // "preds.parquet row group 3, row 50: field \"data_id\"".
    /// # Ok(()) }
    /// ```
    pub fn relocate(&self, loc: &mut crate::location::Location, header_lines: usize) {
        if loc.file != self.file {
            return;
        }
        let Some(row) = loc.line.and_then(|l| l.checked_sub(header_lines)) else {
            return;
        };
        self.relocate_row(loc, row as u64);
    }

    /// Makes a location in this file name the row group and row of the file's 1-based row
    /// `row` instead of a line (as [`ParquetFile::relocate`] does, for a caller that knows the
    /// row: a CSV whose cells span lines).
    pub fn relocate_row(&self, loc: &mut crate::location::Location, row: u64) {
        if loc.file != self.file {
            return;
        }
        if let Some((g, r)) = self.locate(row) {
            loc.file = format!("{} row group {g}, row {r}", self.file);
            loc.line = None;
        }
    }

    /// The first rows' JSON lines, up to about `max` bytes (and at least one row), for
    /// telling a file's format from its columns and first values.
    ///
    /// # Errors
    /// As [`ParquetFile::write_jsonl`].
    pub fn head_jsonl(&self, max: usize) -> Result<Vec<u8>, ColumnarError> {
        let mut head = Vec::new();
        let mut out = Vec::new();
        let stop = ColumnarError::Corrupt {
            at: Box::new(at(&self.file)),
            message: String::new(),
        };
        let r = self.each_row(Projection::All, |fields, _| {
            if let Some(fields) = fields {
                out.clear();
                write_object(&mut out, fields);
                out.push(b'\n');
                head.extend_from_slice(&out);
                if head.len() >= max {
                    return Err(stop.clone());
                }
            }
            Ok(())
        });
        match r {
            Err(e) if e != stop => Err(e),
            _ => Ok(head),
        }
    }

    /// The projected schema: the top-level fields named (in the file's order).
    fn projection(&self, p: Projection<'_>) -> Option<Type> {
        let Projection::Only(names) = p else {
            return None;
        };
        let root = self.meta.file_metadata().schema();
        let fields: Vec<_> = root
            .get_fields()
            .iter()
            .filter(|f| names.contains(&f.name()))
            .cloned()
            .collect();
        Type::group_type_builder(root.name())
            .with_fields(fields)
            .build()
            .ok()
    }

    /// Checks a row group's pages before any is decompressed: each header against the limits
    /// and the chunk, and the values of a column that is not repeated against the row count
    /// (one value or null per row), so a footer claiming more rows than the pages hold is a
    /// located error rather than rows read past the data.
    fn check_row_group(&self, g: usize, columns: &[usize]) -> Result<(), ColumnarError> {
        let rg = self.meta.row_group(g);
        for &i in columns {
            let pages = self.chunk_pages(g, i)?;
            let (mut pos, mut page, mut values) = (0usize, 1usize, 0i64);
            while pos < pages.chunk.len() {
                let at = At {
                    page: Some(page),
                    ..pages.at.clone()
                };
                let c = check_header(&pages.chunk, pos, &at)?;
                if matches!(c.header.page_type, 0 | 3) {
                    values = values.saturating_add(c.header.num_values);
                }
                pos = c.end;
                page += 1;
            }
            let descr = rg.column(i).column_descr();
            let rows = rg.num_rows();
            if descr.max_rep_level() > 0 {
                // A repeated column's pages must start one record per row: the crate's record
                // reader indexes past the levels of a column that runs out of records before the
                // others (found by kiva_parquet::mutated_pyarrow_files_never_panic).
                let mut all = self.chunk_pages(g, i)?;
                while all.page()?.is_some() {}
                if let Some(records) = all.records.filter(|&r| r != rows as u64) {
                    return Err(ColumnarError::Mismatch {
                        at: Box::new(all.at),
                        expected: format!("one record per row of the row group's {rows} rows"),
                        found: format!("repetition levels starting {records} records"),
                    });
                }
            }
            let short = if descr.max_rep_level() == 0 {
                values != rows
            } else {
                values < rows
            };
            if short {
                return Err(ColumnarError::Mismatch {
                    at: Box::new(pages.at),
                    expected: format!(
                        "{} for the row group's {rows} rows",
                        if descr.max_rep_level() == 0 {
                            "one value or null per row"
                        } else {
                            "at least one value or null per row"
                        }
                    ),
                    found: format!("pages declaring {values} values"),
                });
            }
        }
        Ok(())
    }

    /// The pages of column chunk `i` of row group `g` (0-based).
    fn chunk_pages(&self, g: usize, i: usize) -> Result<ChunkPages, ColumnarError> {
        let rg = self.meta.row_group(g);
        let chunk = rg.column(i);
        let descr = chunk.column_descr();
        let at = At {
            file: self.file.clone(),
            row_group: Some(g + 1),
            column: Some(descr.path().string()),
            ..At::default()
        };
        let (start, len) = chunk_range(chunk, self.reader.len(), &at)?;
        let bytes = self
            .reader
            .get_bytes(start, len as usize)
            .map_err(|e| from_parquet(e, at.clone()))?;
        let type_len = match descr.self_type() {
            Type::PrimitiveType { type_length, .. } => *type_length,
            Type::GroupType { .. } => 0,
        };
        Ok(ChunkPages {
            chunk: bytes,
            pos: 0,
            page: 1,
            codec: Codec::of(chunk.compression(), &at)?,
            physical: descr.physical_type(),
            type_len,
            max_def: descr.max_def_level(),
            max_rep: descr.max_rep_level(),
            dictionary: false,
            data_page: false,
            records: Some(0),
            at,
        })
    }

    /// Writes every row as one JSON object line (columns as keys in the file's order, nested
    /// groups as objects, lists as arrays, maps as objects; binary values as strings when they
    /// are UTF-8, else `null`), handing the lines to `push` in slices of about 1 MiB that end
    /// at a line's end, and at each row group's end. `progress` is told the rows done after
    /// each row group.
    ///
    /// # Errors
    /// `push`'s error, or a [`ColumnarError`] naming the row group, column, page or row.
    pub fn write_jsonl<E: From<ColumnarError>>(
        &self,
        projection: Projection<'_>,
        mut push: impl FnMut(&[u8]) -> Result<(), E>,
        mut progress: impl FnMut(u64),
    ) -> Result<(), E> {
        if let Some(flat) = self.flat(projection) {
            let mut done = 0;
            for g in 0..self.num_row_groups() {
                self.write_flat_group(g, &flat, &mut push)?;
                done += self.meta.row_group(g).num_rows().max(0) as u64;
                progress(done);
            }
            return Ok(());
        }
        let mut out = Vec::with_capacity(SLICE + SLICE / 4);
        self.each_row(projection, |fields, done| {
            if let Some(fields) = fields {
                write_object(&mut out, fields);
                out.push(b'\n');
            }
            if out.len() >= SLICE || (done.is_some() && !out.is_empty()) {
                push(&out)?;
                out.clear();
            }
            if let Some(rows) = done {
                progress(rows);
            }
            Ok(())
        })
    }

    /// Writes a header line of the projected top-level column names and every row as a CSV
    /// record (RFC 4180 quoting; strings as they are, numbers as JSON writes them, null as an
    /// empty field, nested values as JSON), slices handed to `push` as
    /// [`ParquetFile::write_jsonl`] does.
    ///
    /// # Errors
    /// As [`ParquetFile::write_jsonl`].
    pub fn write_csv<E: From<ColumnarError>>(
        &self,
        projection: Projection<'_>,
        mut push: impl FnMut(&[u8]) -> Result<(), E>,
    ) -> Result<(), E> {
        let names: Vec<String> = match projection {
            Projection::All => self.columns(),
            Projection::Only(only) => self
                .columns()
                .into_iter()
                .filter(|c| only.contains(&c.as_str()))
                .collect(),
        };
        let mut out = Vec::with_capacity(SLICE + SLICE / 4);
        let mut cell = Vec::new();
        for (k, name) in names.iter().enumerate() {
            if k > 0 {
                out.push(b',');
            }
            csv_cell(&mut out, name.as_bytes());
        }
        out.extend_from_slice(b"\r\n");
        self.each_row(projection, |fields, done| {
            if let Some(fields) = fields {
                for (k, (_, f)) in fields.iter().enumerate() {
                    if k > 0 {
                        out.push(b',');
                    }
                    cell.clear();
                    match f {
                        Field::Null => {}
                        Field::Str(s) => cell.extend_from_slice(s.as_bytes()),
                        other => write_json(&mut cell, other),
                    }
                    csv_cell(&mut out, &cell);
                }
                out.extend_from_slice(b"\r\n");
            }
            if out.len() >= SLICE || (done.is_some() && !out.is_empty()) {
                push(&out)?;
                out.clear();
            }
            Ok(())
        })
    }

    /// Runs `each` on every row's fields (`Some`), and after each row group (`None`, with the
    /// rows done so far).
    fn each_row<E: From<ColumnarError>>(
        &self,
        projection: Projection<'_>,
        mut each: impl FnMut(Option<&[(String, Field)]>, Option<u64>) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut done = 0u64;
        for g in 0..self.num_row_groups() {
            self.rows_of(g, projection, &mut |fields| each(Some(fields), None))?;
            done += self.meta.row_group(g).num_rows() as u64;
            each(None, Some(done))?;
        }
        Ok(())
    }

    /// The projected columns as `(name, leaf index, kind)` when every one is a top-level
    /// value that is not repeated and that the fast path writes as the record reader would
    /// (whole numbers, floats, booleans, strings and plain binary); `None` otherwise.
    fn flat(&self, projection: Projection<'_>) -> Option<Vec<(String, usize, Flat)>> {
        use parquet::basic::{ConvertedType as C, Type as P};
        let schema = self.meta.file_metadata().schema_descr();
        let wanted = self.wanted(projection);
        let mut out = Vec::with_capacity(wanted.len());
        for i in wanted {
            let d = schema.column(i);
            if d.path().parts().len() != 1 || d.max_rep_level() != 0 || d.max_def_level() > 1 {
                return None;
            }
            let kind = match (d.physical_type(), d.converted_type()) {
                (P::INT32, C::NONE | C::INT_32) => Flat::Int32,
                (P::INT64, C::NONE | C::INT_64) => Flat::Int64,
                (P::BOOLEAN, C::NONE) => Flat::Bool,
                (P::FLOAT, C::NONE) => Flat::Float,
                (P::DOUBLE, C::NONE) => Flat::Double,
                (P::BYTE_ARRAY, C::UTF8 | C::ENUM | C::JSON) => Flat::Str,
                (P::BYTE_ARRAY, C::NONE) => Flat::Bytes,
                _ => return None,
            };
            out.push((d.name().to_string(), i, kind));
        }
        Some(out)
    }

    /// [`ParquetFile::write_group_jsonl`] for flat columns ([`ParquetFile::flat`]): each
    /// column's values read a batch of rows at a time by the crate's typed column readers and
    /// written straight into the JSON lines, without assembling a record per row (the record
    /// reader's owned fields made reading a file of long responses several times slower than
    /// its JSONL). The lines are the record reader's, value for value (tested).
    fn write_flat_group<E: From<ColumnarError>>(
        &self,
        g: usize,
        flat: &[(String, usize, Flat)],
        mut push: impl FnMut(&[u8]) -> Result<(), E>,
    ) -> Result<(), E> {
        use parquet::column::reader::{get_column_reader, ColumnReader};
        const BATCH: usize = 4096;
        let indexes: Vec<usize> = flat.iter().map(|c| c.1).collect();
        self.check_row_group(g, &indexes)?;
        let rg = self.meta.row_group(g);
        let rows = rg.num_rows().max(0) as usize;
        let rg_at = |column: &str, row: Option<u64>| At {
            file: self.file.clone(),
            row_group: Some(g + 1),
            column: Some(column.to_string()),
            row,
            ..At::default()
        };
        let mut readers = Vec::with_capacity(flat.len());
        for (_, i, _) in flat {
            let pages = self.chunk_pages(g, *i)?;
            let descr = rg.column(*i).column_descr_ptr();
            readers.push(get_column_reader(descr, Box::new(pages)));
        }
        let mut cols: Vec<Batch> = flat.iter().map(|c| Batch::new(c.2)).collect();
        let mut names: Vec<Vec<u8>> = Vec::with_capacity(flat.len());
        for (k, (name, _, _)) in flat.iter().enumerate() {
            let mut n = Vec::new();
            n.push(if k == 0 { b'{' } else { b',' });
            write_str(&mut n, name);
            n.push(b':');
            names.push(n);
        }
        let mut out = Vec::with_capacity(SLICE + SLICE / 4);
        let mut done = 0usize;
        while done < rows {
            let want = BATCH.min(rows - done);
            for (k, reader) in readers.iter_mut().enumerate() {
                let col = &mut cols[k];
                col.clear();
                let (n, _, _) = match (reader, &mut col.values) {
                    (ColumnReader::Int32ColumnReader(r), Values::Int32(v)) => {
                        r.read_records(want, Some(&mut col.def), None, v)
                    }
                    (ColumnReader::Int64ColumnReader(r), Values::Int64(v)) => {
                        r.read_records(want, Some(&mut col.def), None, v)
                    }
                    (ColumnReader::BoolColumnReader(r), Values::Bool(v)) => {
                        r.read_records(want, Some(&mut col.def), None, v)
                    }
                    (ColumnReader::FloatColumnReader(r), Values::Float(v)) => {
                        r.read_records(want, Some(&mut col.def), None, v)
                    }
                    (ColumnReader::DoubleColumnReader(r), Values::Double(v)) => {
                        r.read_records(want, Some(&mut col.def), None, v)
                    }
                    (ColumnReader::ByteArrayColumnReader(r), Values::Bytes(v)) => {
                        r.read_records(want, Some(&mut col.def), None, v)
                    }
                    _ => {
                        return Err(ColumnarError::Mismatch {
                            at: Box::new(rg_at(&flat[k].0, None)),
                            expected: "a column reader of the schema's type".into(),
                            found: "another".into(),
                        }
                        .into())
                    }
                }
                // A page's own errors name its column and page (a batch spans many rows).
                .map_err(|e| from_parquet(e, rg_at(&flat[k].0, None)))?;
                if n != want {
                    return Err(ColumnarError::Mismatch {
                        at: Box::new(rg_at(&flat[k].0, Some(done as u64 + n as u64 + 1))),
                        expected: format!("the row group's {rows} rows"),
                        found: format!("values for {} rows", done + n),
                    }
                    .into());
                }
                col.required = flat_required(self, flat[k].1);
            }
            for r in 0..want {
                for (k, col) in cols.iter_mut().enumerate() {
                    out.extend_from_slice(&names[k]);
                    if let Err(message) = col.write_next(&mut out, r, flat[k].2) {
                        return Err(ColumnarError::Corrupt {
                            at: Box::new(rg_at(&flat[k].0, Some((done + r) as u64 + 1))),
                            message,
                        }
                        .into());
                    }
                }
                if flat.is_empty() {
                    out.push(b'{');
                }
                out.extend_from_slice(b"}\n");
                if out.len() >= SLICE {
                    push(&out)?;
                    out.clear();
                }
            }
            done += want;
        }
        if !out.is_empty() {
            push(&out)?;
        }
        Ok(())
    }

    /// The leaf columns `projection` reads (indexes in the schema).
    fn wanted(&self, projection: Projection<'_>) -> Vec<usize> {
        let schema = self.meta.file_metadata().schema_descr();
        (0..schema.num_columns())
            .filter(|&i| match projection {
                Projection::All => true,
                Projection::Only(names) => {
                    names.contains(&schema.column(i).path().parts()[0].as_str())
                }
            })
            .collect()
    }

    /// Runs `each` on every row of row group `g` (0-based), after checking its pages.
    fn rows_of<E: From<ColumnarError>>(
        &self,
        g: usize,
        projection: Projection<'_>,
        each: &mut EachRow<'_, E>,
    ) -> Result<(), E> {
        let proj = self.projection(projection);
        self.check_row_group(g, &self.wanted(projection))?;
        let group = Group {
            file: self,
            g,
            meta: self.meta.row_group(g),
        };
        let rg_at = At {
            file: self.file.clone(),
            row_group: Some(g + 1),
            ..At::default()
        };
        let rows =
            RowIter::from_row_group(proj, &group).map_err(|e| from_parquet(e, rg_at.clone()))?;
        for (r, row) in rows.enumerate() {
            let row = row.map_err(|e| {
                let mut c = from_parquet(e, rg_at.clone());
                // The row the error came up in (the column and page come with a page's
                // own errors).
                set_row(&mut c, r as u64 + 1);
                c
            })?;
            let fields: Vec<(String, Field)> = row.into_columns();
            each(&fields)?;
        }
        Ok(())
    }
}

/// How a flat column's values are written ([`ParquetFile::flat`]), as the record reader's
/// fields are ([`write_json`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flat {
    Int32,
    Int64,
    Bool,
    Float,
    Double,
    /// UTF-8 text (`Field::Str`): a value that is not UTF-8 is an error, as there.
    Str,
    /// Plain binary (`Field::Bytes`): written as a string when it is UTF-8, else `null`.
    Bytes,
}

/// A batch of one flat column's values.
enum Values {
    Int32(Vec<i32>),
    Int64(Vec<i64>),
    Bool(Vec<bool>),
    Float(Vec<f32>),
    Double(Vec<f64>),
    Bytes(Vec<parquet::data_type::ByteArray>),
}

/// A batch of one flat column: its definition levels (1: a value, 0: null), its values, and
/// the next value to write.
struct Batch {
    def: Vec<i16>,
    values: Values,
    next: usize,
    /// The column is required (no definition levels are read: every row has a value).
    required: bool,
}

impl Batch {
    fn new(kind: Flat) -> Self {
        Self {
            def: Vec::new(),
            values: match kind {
                Flat::Int32 => Values::Int32(Vec::new()),
                Flat::Int64 => Values::Int64(Vec::new()),
                Flat::Bool => Values::Bool(Vec::new()),
                Flat::Float => Values::Float(Vec::new()),
                Flat::Double => Values::Double(Vec::new()),
                Flat::Str | Flat::Bytes => Values::Bytes(Vec::new()),
            },
            next: 0,
            required: false,
        }
    }

    fn clear(&mut self) {
        self.def.clear();
        self.next = 0;
        match &mut self.values {
            Values::Int32(v) => v.clear(),
            Values::Int64(v) => v.clear(),
            Values::Bool(v) => v.clear(),
            Values::Float(v) => v.clear(),
            Values::Double(v) => v.clear(),
            Values::Bytes(v) => v.clear(),
        }
    }

    /// Writes row `r`'s value (or `null`) as JSON; the error message for UTF-8 text that is not.
    fn write_next(&mut self, out: &mut Vec<u8>, r: usize, kind: Flat) -> Result<(), String> {
        if !self.required && self.def.get(r).is_some_and(|&d| d == 0) {
            out.extend_from_slice(b"null");
            return Ok(());
        }
        let i = self.next;
        self.next += 1;
        let _ = match &self.values {
            Values::Int32(v) => write!(out, "{}", v[i]),
            Values::Int64(v) => write!(out, "{}", v[i]),
            Values::Bool(v) => write!(out, "{}", v[i]),
            Values::Float(v) => {
                serde_json::to_writer(&mut *out, &f64::from(v[i])).map_err(Into::into)
            }
            Values::Double(v) => serde_json::to_writer(&mut *out, &v[i]).map_err(Into::into),
            Values::Bytes(v) => {
                match (std::str::from_utf8(v[i].data()), kind) {
                    (Ok(s), _) => write_str(out, s),
                    (Err(e), Flat::Str) => {
                        return Err(format!("a value of this text column is not UTF-8 ({e})"))
                    }
                    (Err(_), _) => out.extend_from_slice(b"null"),
                }
                Ok(())
            }
        };
        Ok(())
    }
}

/// Whether leaf column `i` is required (its values have no definition levels).
fn flat_required<R: ChunkReader>(file: &ParquetFile<R>, i: usize) -> bool {
    file.meta
        .file_metadata()
        .schema_descr()
        .column(i)
        .max_def_level()
        == 0
}

/// What [`ParquetFile::rows_of`] runs on each row's fields.
type EachRow<'a, E> = dyn FnMut(&[(String, Field)]) -> Result<(), E> + 'a;

/// Checks the shapes of the schema's nested types that the `parquet` crate's record reader
/// asserts on (`record::reader::TreeBuilder`; found by
/// `kiva_parquet::mutated_pyarrow_files_never_panic`): a group of no field, a LIST whose one
/// child is not repeated, a MAP whose child is not one repeated group of one or two fields.
/// The error is the column's dotted path and what it is.
fn check_shape(t: &Type, path: &mut String) -> Result<(), (String, String)> {
    use parquet::basic::{ConvertedType, Repetition};
    let Type::GroupType { fields, .. } = t else {
        return Ok(());
    };
    let bad = |path: &str, what: String| Err((path.to_string(), what));
    if fields.is_empty() {
        return bad(path, "a group of no field".into());
    }
    let repeated = |f: &Type| {
        f.get_basic_info().has_repetition()
            && f.get_basic_info().repetition() == Repetition::REPEATED
    };
    match t.get_basic_info().converted_type() {
        ConvertedType::LIST if fields.len() != 1 || !repeated(&fields[0]) => {
            return bad(
                path,
                format!(
                    "a LIST of {} field(s), the first {}",
                    fields.len(),
                    if repeated(&fields[0]) {
                        "repeated"
                    } else {
                        "not repeated"
                    }
                ),
            );
        }
        ConvertedType::MAP | ConvertedType::MAP_KEY_VALUE => {
            let ok = fields.len() == 1
                && !fields[0].is_primitive()
                && repeated(&fields[0])
                && matches!(fields[0].get_fields().len(), 1 | 2);
            if !ok {
                return bad(
                    path,
                    "a MAP not of one repeated group of a key and a value".into(),
                );
            }
        }
        _ => {}
    }
    for f in fields {
        let len = path.len();
        path.push('.');
        path.push_str(f.name());
        check_shape(f, path)?;
        path.truncate(len);
    }
    Ok(())
}

/// Sets the row of an error that has a row group but no row yet.
fn set_row(e: &mut ColumnarError, row: u64) {
    let at = match e {
        ColumnarError::Truncated { at, .. }
        | ColumnarError::TooLarge { at, .. }
        | ColumnarError::Mismatch { at, .. }
        | ColumnarError::Corrupt { at, .. }
        | ColumnarError::Unsupported { at, .. } => at,
    };
    if at.row.is_none() {
        at.row = Some(row);
    }
}

/// A column chunk's byte range, checked against the file.
fn chunk_range(
    chunk: &parquet::file::metadata::ColumnChunkMetaData,
    file_len: u64,
    at: &At,
) -> Result<(u64, u64), ColumnarError> {
    let start = chunk
        .dictionary_page_offset()
        .filter(|&d| d > 0)
        .unwrap_or_else(|| chunk.data_page_offset());
    let len = chunk.compressed_size();
    let fits = start >= 0 && len >= 0 && (start as u64).saturating_add(len as u64) <= file_len;
    if !fits {
        return Err(ColumnarError::Truncated {
            at: Box::new(at.clone()),
            expected: "the column chunk within the file",
            found: format!("{len} bytes at offset {start} of a {file_len}-byte file"),
        });
    }
    Ok((start as u64, len as u64))
}

/// One row group, as the crate's record reader asks for it.
struct Group<'a, R: ChunkReader> {
    file: &'a ParquetFile<R>,
    g: usize,
    meta: &'a RowGroupMetaData,
}

impl<R: ChunkReader> RowGroupReader for Group<'_, R> {
    fn metadata(&self) -> &RowGroupMetaData {
        self.meta
    }

    fn num_columns(&self) -> usize {
        self.meta.num_columns()
    }

    fn get_column_page_reader(&self, i: usize) -> parquet::errors::Result<Box<dyn PageReader>> {
        Ok(Box::new(
            self.file.chunk_pages(self.g, i).map_err(external)?,
        ))
    }

    fn get_column_bloom_filter(&self, _i: usize) -> Option<&Sbbf> {
        None
    }

    fn get_row_iter(&self, projection: Option<Type>) -> parquet::errors::Result<RowIter<'_>> {
        RowIter::from_row_group(projection, self)
    }
}

/// Writes a row's fields as a JSON object.
fn write_object(out: &mut Vec<u8>, fields: &[(String, Field)]) {
    out.push(b'{');
    for (k, (name, f)) in fields.iter().enumerate() {
        if k > 0 {
            out.push(b',');
        }
        write_str(out, name);
        out.push(b':');
        write_json(out, f);
    }
    out.push(b'}');
}

fn write_str(out: &mut Vec<u8>, s: &str) {
    // Writing to a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, s);
}

/// Writes one field as JSON.
fn write_json(out: &mut Vec<u8>, f: &Field) {
    let _ = match f {
        Field::Null => out.write_all(b"null"),
        Field::Bool(b) => write!(out, "{b}"),
        Field::Byte(n) => write!(out, "{n}"),
        Field::Short(n) => write!(out, "{n}"),
        Field::Int(n) => write!(out, "{n}"),
        Field::Long(n) => write!(out, "{n}"),
        Field::UByte(n) => write!(out, "{n}"),
        Field::UShort(n) => write!(out, "{n}"),
        Field::UInt(n) => write!(out, "{n}"),
        Field::ULong(n) => write!(out, "{n}"),
        // serde_json writes a non-finite number as null.
        Field::Float16(x) => serde_json::to_writer(&mut *out, &f64::from(*x)).map_err(Into::into),
        Field::Float(x) => serde_json::to_writer(&mut *out, &f64::from(*x)).map_err(Into::into),
        Field::Double(x) => serde_json::to_writer(&mut *out, x).map_err(Into::into),
        Field::Str(s) => {
            write_str(out, s);
            Ok(())
        }
        Field::Bytes(b) => {
            match std::str::from_utf8(b.data()) {
                Ok(s) => write_str(out, s),
                Err(_) => out.extend_from_slice(b"null"),
            }
            Ok(())
        }
        Field::Group(row) => {
            let fields: Vec<(String, Field)> = row
                .get_column_iter()
                .map(|(n, f)| (n.clone(), f.clone()))
                .collect();
            write_object(out, &fields);
            Ok(())
        }
        Field::ListInternal(list) => {
            out.push(b'[');
            for (k, e) in list.elements().iter().enumerate() {
                if k > 0 {
                    out.push(b',');
                }
                write_json(out, e);
            }
            out.push(b']');
            Ok(())
        }
        Field::MapInternal(map) => {
            out.push(b'{');
            for (k, (key, value)) in map.entries().iter().enumerate() {
                if k > 0 {
                    out.push(b',');
                }
                match key {
                    Field::Str(s) => write_str(out, s),
                    other => write_str(out, &other.to_string()),
                }
                out.push(b':');
                write_json(out, value);
            }
            out.push(b'}');
            Ok(())
        }
        // Decimals, dates, times and timestamps as the crate prints them.
        other => {
            write_str(out, other.to_string().trim_matches('"'));
            Ok(())
        }
    };
}

/// Writes one CSV cell, quoted when it holds a comma, a quote or a line end.
fn csv_cell(out: &mut Vec<u8>, cell: &[u8]) {
    if cell
        .iter()
        .any(|&b| matches!(b, b',' | b'"' | b'\n' | b'\r'))
    {
        out.push(b'"');
        for &b in cell {
            if b == b'"' {
                out.push(b'"');
            }
            out.push(b);
        }
        out.push(b'"');
    } else {
        out.extend_from_slice(cell);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::{
        ArrayRef, BinaryArray, BooleanArray, Float32Array, Float64Array, Int32Array, Int64Array,
        RecordBatch, StringArray,
    };
    use parquet::arrow::ArrowWriter;
    use parquet::file::properties::WriterProperties;

    /// The flat columns' fast path writes the lines the crate's record reader gives, value for
    /// value: whole numbers, floats (NaN as null), booleans, text with quotes and line breaks,
    /// binary that is UTF-8 and binary that is not, nulls in every column; rows across row
    /// groups and across the 4,096-row batches.
    #[test]
    fn flat_columns_write_what_the_record_reader_gives() {
        let n = 9_000;
        let pick = |i: usize| i % 7 != 3;
        let cols: Vec<(&str, ArrayRef)> = vec![
            (
                "i32",
                Arc::new(Int32Array::from_iter(
                    (0..n).map(|i| pick(i).then_some(i as i32 - 4_000)),
                )),
            ),
            (
                "i64",
                Arc::new(Int64Array::from_iter_values(
                    (0..n).map(|i| (i as i64) << 33),
                )),
            ),
            (
                "b",
                Arc::new(BooleanArray::from_iter(
                    (0..n).map(|i| (i % 5 != 0).then_some(i % 2 == 0)),
                )),
            ),
            (
                "f32",
                Arc::new(Float32Array::from_iter(
                    (0..n).map(|i| pick(i + 1).then_some(i as f32 / 3.0)),
                )),
            ),
            (
                "f64",
                Arc::new(Float64Array::from_iter((0..n).map(|i| {
                    Some(if i % 11 == 0 {
                        f64::NAN
                    } else {
                        i as f64 * 0.1
                    })
                }))),
            ),
            (
                "s",
                Arc::new(StringArray::from_iter(
                    (0..n).map(|i| pick(i + 2).then(|| format!("row {i}: \"q\"\nline é"))),
                )),
            ),
            (
                "bin",
                Arc::new(BinaryArray::from_iter((0..n).map(|i| match i % 3 {
                    0 => None,
                    1 => Some(b"plain".to_vec()),
                    _ => Some(vec![0xff, 0xfe, i as u8]),
                }))),
            ),
        ];
        let batch = RecordBatch::try_from_iter(cols).unwrap();
        let mut buf = Vec::new();
        let props = WriterProperties::builder()
            .set_max_row_group_row_count(Some(5_000))
            .build();
        let mut w = ArrowWriter::try_new(&mut buf, batch.schema(), Some(props)).unwrap();
        w.write(&batch).unwrap();
        w.close().unwrap();
        let file = ParquetFile::from_slice("t.parquet", &buf).unwrap();
        assert_eq!(file.num_row_groups(), 2);
        assert!(file.flat(Projection::All).is_some());
        for g in 0..2 {
            let mut fast = Vec::new();
            file.write_group_jsonl::<ColumnarError>(g, Projection::All, |b| {
                fast.extend_from_slice(b);
                Ok(())
            })
            .unwrap();
            let mut slow = Vec::new();
            file.rows_of::<ColumnarError>(g, Projection::All, &mut |fields| {
                write_object(&mut slow, fields);
                slow.push(b'\n');
                Ok(())
            })
            .unwrap();
            assert_eq!(
                String::from_utf8(fast).unwrap(),
                String::from_utf8(slow).unwrap()
            );
        }
        // A line written by hand: row 3 (i32 and bin null; in the file's column order).
        let mut first = Vec::new();
        file.write_group_jsonl::<ColumnarError>(
            0,
            Projection::Only(&["i32", "s", "bin", "f64"]),
            |b| {
                first.extend_from_slice(b);
                Ok(())
            },
        )
        .unwrap();
        let line = String::from_utf8(first)
            .unwrap()
            .lines()
            .nth(3)
            .unwrap()
            .to_string();
        assert_eq!(
            line,
            r#"{"i32":null,"f64":0.30000000000000004,"s":"row 3: \"q\"\nline é","bin":null}"#
        );
    }
}
