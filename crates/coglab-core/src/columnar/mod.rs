//! Columnar input: Parquet files and Arrow IPC files and streams, told from their content
//! and read into the rows the text readers already take (issue 39).
//!
//! Benchmark datasets and detailed results are published as Parquet (MM-IQ's own dataset,
//! lighteval's `details_<task>_<time>.parquet`, the Every Eval Ever datastore's Parquet views),
//! and pandas and pyarrow users hold them as Arrow tables (`feather.write_feather`,
//! `pa.ipc.new_file`). A Parquet file is read one row group at a time ([`ParquetFile`]), an
//! Arrow IPC file or stream one record batch at a time ([`ArrowIpc`]), each row written as one
//! JSON object line (nested structs as objects, lists as arrays; the same line for the same
//! table in either container) and handed in slices to the same readers a JSONL file goes
//! through, so a columnar file scores exactly as the JSONL of the same rows does, with the
//! same checks and warnings. [`Columnar`] opens whichever [`detect`] tells a file to be. A
//! KiVA run's Parquet columns are written as CSV rows instead ([`ParquetFile::write_csv`]).
//! Both readers are behind the feature `parquet`.
//!
//! Hostile files are refused with a located [`ColumnarError`] (file, row group or record
//! batch, column, row when known, what was expected) before anything large is allocated: the
//! footer's or the record batches' row counts against [`crate::limits::MAX_PARQUET_ROWS`] and
//! against the values their pages or buffers hold, each Parquet page's declared size against
//! [`crate::limits::MAX_PARQUET_PAGE_BYTES`] and each compressed Arrow buffer's against
//! [`crate::limits::MAX_ARROW_BATCH_BYTES`] before it is decompressed, decompression held to
//! the declared size, and the column chunks' or buffers' types and byte ranges against the
//! schema and the file.
//!
//! Row groups and record batches are numbered from 1 in messages, as lines and rows are.

#[cfg(feature = "parquet")]
mod arrow;
#[cfg(feature = "parquet")]
mod flatbuf;
#[cfg(feature = "parquet")]
mod pages;
#[cfg(feature = "parquet")]
mod parquet;
#[cfg(feature = "parquet")]
mod thrift;

#[cfg(feature = "parquet")]
pub use self::arrow::ArrowIpc;
#[cfg(feature = "parquet")]
pub use self::parquet::{ParquetFile, Projection, Ranges, SliceReader};
/// The bytes and reader traits a [`ParquetFile`] is opened on (from the `bytes` and `parquet`
/// crates).
#[cfg(feature = "parquet")]
pub use ::bytes::Bytes;
#[cfg(feature = "parquet")]
pub use ::parquet::file::reader::ChunkReader;

use std::fmt;

/// A columnar file held in memory, whichever container it is: what the readers that take
/// Parquet take Arrow IPC through.
#[cfg(feature = "parquet")]
#[derive(Debug)]
#[non_exhaustive]
pub enum Columnar<'a> {
    /// A Parquet file.
    Parquet(ParquetFile<SliceReader<'a>>),
    /// An Arrow IPC file or stream.
    Arrow(ArrowIpc<'a>),
}

#[cfg(feature = "parquet")]
impl<'a> Columnar<'a> {
    /// Opens the columnar file [`detect`] tells `bytes` to be.
    ///
    /// # Errors
    /// [`ParquetFile::open`]'s or [`ArrowIpc::from_slice`]'s; [`ColumnarError::Corrupt`] for
    /// bytes that are no columnar file.
    pub fn open(file: &str, bytes: &'a [u8]) -> Result<Self, ColumnarError> {
        match detect(bytes) {
            Some(ColumnarKind::Parquet) => ParquetFile::from_slice(file, bytes).map(Self::Parquet),
            Some(_) => ArrowIpc::from_slice(file, bytes).map(Self::Arrow),
            None => Err(ColumnarError::Corrupt {
                at: Box::new(At {
                    file: file.to_string(),
                    ..At::default()
                }),
                message: "no Parquet or Arrow IPC file".to_string(),
            }),
        }
    }

    /// The file name.
    pub fn name(&self) -> &str {
        match self {
            Self::Parquet(f) => f.name(),
            Self::Arrow(f) => f.name(),
        }
    }

    /// The container's name in messages (`a Parquet file`).
    pub fn label(&self) -> &'static str {
        match self {
            Self::Parquet(_) => ColumnarKind::Parquet.label(),
            Self::Arrow(f) => f.kind().label(),
        }
    }

    /// The names of the top-level columns, in order.
    pub fn columns(&self) -> Vec<String> {
        match self {
            Self::Parquet(f) => f.columns(),
            Self::Arrow(f) => f.columns(),
        }
    }

    /// The number of rows.
    pub fn num_rows(&self) -> u64 {
        match self {
            Self::Parquet(f) => f.num_rows(),
            Self::Arrow(f) => f.num_rows(),
        }
    }

    /// [`ParquetFile::head_jsonl`] or [`ArrowIpc::head_jsonl`].
    ///
    /// # Errors
    /// As theirs.
    pub fn head_jsonl(&self, max: usize) -> Result<Vec<u8>, ColumnarError> {
        match self {
            Self::Parquet(f) => f.head_jsonl(max),
            Self::Arrow(f) => f.head_jsonl(max),
        }
    }

    /// [`ParquetFile::write_jsonl`] or [`ArrowIpc::write_jsonl`]: the same JSON lines for the
    /// same table.
    ///
    /// # Errors
    /// As theirs.
    pub fn write_jsonl<E: From<ColumnarError>>(
        &self,
        projection: Projection<'_>,
        push: impl FnMut(&[u8]) -> Result<(), E>,
        progress: impl FnMut(u64),
    ) -> Result<(), E> {
        match self {
            Self::Parquet(f) => f.write_jsonl(projection, push, progress),
            Self::Arrow(f) => f.write_jsonl(projection, push, progress),
        }
    }

    /// [`ParquetFile::relocate`] or [`ArrowIpc::relocate`]: a line of the JSON lines named as
    /// the row group (record batch) and row it came from.
    pub fn relocate(&self, loc: &mut crate::location::Location, header_lines: usize) {
        match self {
            Self::Parquet(f) => f.relocate(loc, header_lines),
            Self::Arrow(f) => f.relocate(loc, header_lines),
        }
    }
}

/// A columnar container told from its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ColumnarKind {
    /// Apache Parquet (`PAR1` at the start and at the end).
    Parquet,
    /// An Arrow IPC file (Feather v2): `ARROW1` at the start.
    ArrowFile,
    /// An Arrow IPC stream: a message starting with the continuation marker `FF FF FF FF`.
    ArrowStream,
}

impl ColumnarKind {
    /// The container's name in messages.
    pub fn label(self) -> &'static str {
        match self {
            ColumnarKind::Parquet => "a Parquet file",
            ColumnarKind::ArrowFile => "an Arrow IPC file",
            ColumnarKind::ArrowStream => "an Arrow IPC stream",
        }
    }
}

/// Tells a columnar container from a file's first bytes (`PAR1`; `ARROW1`; an IPC stream's
/// continuation marker followed by a plausible message length). A Parquet file's trailing
/// `PAR1` is checked when it is opened, so a file cut short is named as such.
///
/// # Examples
/// ```
/// use coglab_core::columnar::{detect, ColumnarKind};
/// assert_eq!(detect(b"PAR1\x15\x04..."), Some(ColumnarKind::Parquet));
/// assert_eq!(detect(b"ARROW1\0\0"), Some(ColumnarKind::ArrowFile));
/// assert_eq!(detect(b"\xFF\xFF\xFF\xFF\x78\0\0\0\x10\0"), Some(ColumnarKind::ArrowStream));
/// assert_eq!(detect(b"{\"data_id\": 1}"), None);
/// ```
pub fn detect(head: &[u8]) -> Option<ColumnarKind> {
    if head.starts_with(b"PAR1") {
        return Some(ColumnarKind::Parquet);
    }
    if head.starts_with(b"ARROW1") {
        return Some(ColumnarKind::ArrowFile);
    }
    if head.len() >= 8 && head.starts_with(b"\xFF\xFF\xFF\xFF") {
        let len = i32::from_le_bytes([head[4], head[5], head[6], head[7]]);
        if len > 0 && len < (1 << 24) {
            return Some(ColumnarKind::ArrowStream);
        }
    }
    None
}

/// One JSON object line naming each of `columns`, every one `null`: what a columnar file's
/// format is told from ([`crate::leaderboard::detect_format`] reads a first line's keys), from
/// its schema alone, so telling a large file's format reads none of its rows.
///
/// ```
/// use coglab_core::columnar::schema_jsonl;
/// let line = schema_jsonl(&["data_id".into(), "response".into()]);
/// assert_eq!(line, b"{\"data_id\":null,\"response\":null}\n");
/// ```
pub fn schema_jsonl(columns: &[String]) -> Vec<u8> {
    let mut out = vec![b'{'];
    for (k, name) in columns.iter().enumerate() {
        if k > 0 {
            out.push(b',');
        }
        // Writing to a Vec cannot fail.
        let _ = serde_json::to_writer(&mut out, name);
        out.extend_from_slice(b":null");
    }
    out.extend_from_slice(b"}\n");
    out
}

/// Where in a columnar file a problem was found.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct At {
    /// The file name.
    pub file: String,
    /// 1-based row group (Parquet).
    pub row_group: Option<usize>,
    /// 1-based record batch (Arrow IPC).
    pub batch: Option<usize>,
    /// The column (its dotted path for a nested one).
    pub column: Option<String>,
    /// 1-based page within the column chunk.
    pub page: Option<usize>,
    /// 1-based row within the row group.
    pub row: Option<u64>,
}

impl fmt::Display for At {
    /// ```
    /// use coglab_core::columnar::At;
    /// let at = At { file: "p.parquet".into(), row_group: Some(2), column: Some("response".into()),
    ///     page: Some(3), ..At::default() };
    /// assert_eq!(at.to_string(), "p.parquet row group 2, column \"response\", page 3");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        let mut sep = " ";
        if let Some(g) = self.row_group {
            write!(f, "{sep}row group {g}")?;
            sep = ", ";
        }
        if let Some(b) = self.batch {
            write!(f, "{sep}record batch {b}")?;
            sep = ", ";
        }
        if let Some(r) = self.row {
            write!(f, "{sep}row {r}")?;
            sep = ", ";
        }
        if let Some(c) = &self.column {
            write!(f, "{sep}column {c:?}")?;
            sep = ", ";
        }
        if let Some(p) = self.page {
            write!(f, "{sep}page {p}")?;
        }
        Ok(())
    }
}

/// Why a columnar file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ColumnarError {
    /// The file ends before its footer does (no trailing `PAR1` or `ARROW1`, or a footer
    /// length past the start of the file), or a part of it past its end.
    #[error("{at}: the file is cut short: {found} (expected {expected})")]
    Truncated {
        /// Where.
        at: Box<At>,
        /// What a whole file has there.
        expected: &'static str,
        /// What was found.
        found: String,
    },
    /// The file declares more than the limits allow (rows, page or buffer sizes), checked before
    /// anything is allocated for it.
    #[error("{at}: {what} declares {found}, more than the {max} allowed ({limit})")]
    TooLarge {
        /// Where.
        at: Box<At>,
        /// What declares it (`the footer's row count`, `the page's uncompressed size`).
        what: &'static str,
        /// The declared count.
        found: u64,
        /// The bound.
        max: u64,
        /// The bound's name in [`crate::limits`].
        limit: &'static str,
    },
    /// The metadata disagree with themselves or with the schema (a column chunk of another
    /// type, a row group whose pages hold fewer values than its rows).
    #[error("{at}: {found}, expected {expected}")]
    Mismatch {
        /// Where.
        at: Box<At>,
        /// What the schema or the footer says.
        expected: String,
        /// What was found.
        found: String,
    },
    /// A part of the file could not be decoded (the footer, a page header, a page).
    #[error("{at}: {message}")]
    Corrupt {
        /// Where.
        at: Box<At>,
        /// What is wrong.
        message: String,
    },
    /// The file uses what this reader does not read (a codec, an Arrow type), or this build
    /// reads no columnar file.
    #[error("{at}: {what} is not read; {advice}")]
    Unsupported {
        /// Where.
        at: Box<At>,
        /// What (`the LZ4 codec`).
        what: String,
        /// What to do instead.
        advice: &'static str,
    },
}

impl ColumnarError {
    /// Where the problem is.
    pub fn at(&self) -> &At {
        match self {
            ColumnarError::Truncated { at, .. }
            | ColumnarError::TooLarge { at, .. }
            | ColumnarError::Mismatch { at, .. }
            | ColumnarError::Corrupt { at, .. }
            | ColumnarError::Unsupported { at, .. } => at,
        }
    }

    /// The error for a columnar file this build does not read: one built without the
    /// `parquet` feature reads no Parquet or Arrow IPC.
    ///
    /// ```
    /// use coglab_core::columnar::{ColumnarError, ColumnarKind};
    /// let e = ColumnarError::unsupported("t.arrow", ColumnarKind::ArrowFile);
    /// assert_eq!(e.to_string(), "t.arrow: an Arrow IPC file is not read; this build has no \
    ///     Parquet or Arrow IPC reader (coglab-core's `parquet` feature)");
    /// ```
    pub fn unsupported(file: &str, kind: ColumnarKind) -> Self {
        ColumnarError::Unsupported {
            at: Box::new(At {
                file: file.to_string(),
                ..At::default()
            }),
            what: kind.label().to_string(),
            advice: "this build has no Parquet or Arrow IPC reader (coglab-core's `parquet` \
                     feature)",
        }
    }
}
