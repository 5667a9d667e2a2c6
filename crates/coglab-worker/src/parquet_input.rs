//! Parquet files in the worker, read from their `Blob` a piece at a time (issue 39).
//!
//! A file's format is told from its footer alone ([`open`] loads the last bytes, then
//! [`coglab_core::leaderboard::detect_parquet`] reads the columns' names), so staging a 100 MB
//! file reads a few kilobytes of it. An MM-IQ answer key or predictions file is then scored
//! from one row group at a time ([`mmiq`]): the row group's MM-IQ columns are read
//! ("reading … of … MB"; an image column is never read; a row group up to 32 MiB is asked of
//! the browser whole, the next one asked before this one is decoded; a larger one is read as
//! a stream with its progress), loaded into the core's
//! [`Ranges`], written as JSON lines by the core and parsed by the same reader a JSONL file
//! goes through ("reading …: decoding, N%"), and released. So the file is read once, memory
//! holds at most two row groups' chunks, and errors name the row group and row, as the CLI's
//! do. Other Parquet files (harness rows) are read whole by the core.

use coglab_core::columnar::{ParquetFile, Projection, Ranges};
use coglab_core::leaderboard::{FileKind, Prepared};
use coglab_core::mmiq::{
    check_columns, parquet_group_rows, KeyReader, MmiqError, MmiqFormat, ParquetRole,
    PredictionsReader, PARQUET_COLUMNS,
};

use crate::api::FileRef;
use crate::io::{self, Progress};
use crate::protocol;

/// Whether a file starts with Parquet's magic (read from its first 4 bytes).
pub async fn is_parquet(blob: &web_sys::Blob) -> bool {
    blob.size() >= 12.0
        && io::read_range(blob, 0.0, 4.0)
            .await
            .is_ok_and(|head| head == b"PAR1")
}

/// Opens a Parquet `Blob` from its footer: the last 8 bytes, then the footer they declare.
///
/// # Errors
/// The browser's message, or the core's located reason the file cannot be opened (a file cut
/// short, a footer over the limits).
pub async fn open(name: &str, blob: &web_sys::Blob) -> Result<ParquetFile<Ranges>, String> {
    let size = blob.size();
    let len = size as u64;
    let last8 = io::read_range(blob, (size - 8.0).max(0.0), size).await?;
    let tail = Ranges::tail_bytes(len, &last8);
    let ranges = Ranges::new(len);
    let start = len.saturating_sub(tail);
    ranges.load(
        start,
        io::read_range(blob, start as f64, size).await?.into(),
    );
    ParquetFile::open(name, ranges).map_err(|e| e.to_string())
}

/// An MM-IQ reader being fed a Parquet file's rows.
enum Reader {
    Key(KeyReader),
    Predictions(PredictionsReader),
}

impl Reader {
    fn push(&mut self, b: &[u8]) -> Result<(), MmiqError> {
        match self {
            Reader::Key(r) => r.push(b),
            Reader::Predictions(r) => r.push(b),
        }
    }
}

/// An MM-IQ answer key or predictions file (as `chosen` by the user, else as detected) read a
/// row group at a time and parsed; `None` for a Parquet file that is neither, or cannot be
/// opened (the core then reads it whole and names the problem). `base` and `total` place the
/// file in the request's progress bar (bytes): reading a row group and decoding it each move
/// the bar by half of the row group's share of the file.
pub async fn mmiq(
    file: &FileRef,
    chosen: Option<FileKind>,
    base: f64,
    total: f64,
    progress: &Progress,
) -> Option<Prepared> {
    let name = file.name.as_str();
    let pq = open(name, &file.blob).await.ok()?;
    let format = coglab_core::leaderboard::detect_parquet(name, &pq);
    let (role, mut reader) = match (chosen.unwrap_or(format.kind), format.mmiq?) {
        (FileKind::MmiqKey, MmiqFormat::AnswerKey) => {
            (ParquetRole::Key, Reader::Key(KeyReader::new(name)))
        }
        (FileKind::MmiqPredictions, MmiqFormat::PredictionsJsonl) => (
            ParquetRole::Predictions,
            Reader::Predictions(PredictionsReader::new(name, file.blob.size() as usize)),
        ),
        _ => return None,
    };
    let read = Groups {
        pq: &pq,
        blob: &file.blob,
        base,
        total,
        progress,
    }
    .read(role, &mut reader)
    .await;
    Some(match (reader, read) {
        (Reader::Key(_), Err(e)) => Prepared::MmiqKey(Err(e)),
        (Reader::Key(k), Ok(())) => Prepared::MmiqKey(relocated(&pq, k.finish())),
        (Reader::Predictions(_), Err(e)) => Prepared::MmiqPredictions(Err(e)),
        (Reader::Predictions(p), Ok(())) => Prepared::MmiqPredictions(relocated(&pq, p.finish())),
    })
}

/// A reader's own last error (at its end) naming the row group and row, as the CLI's does.
fn relocated<T>(pq: &ParquetFile<Ranges>, r: Result<T, MmiqError>) -> Result<T, MmiqError> {
    r.map_err(|mut e| {
        if let Some(loc) = e.location_mut() {
            pq.relocate(loc, 0);
        }
        e
    })
}

/// A Parquet file being read a row group at a time, and where it sits in the progress bar.
struct Groups<'a> {
    pq: &'a ParquetFile<Ranges>,
    blob: &'a web_sys::Blob,
    base: f64,
    total: f64,
    progress: &'a Progress,
}

/// Row groups at most this large are asked of the browser whole, the next one before this one
/// is decoded (the browser reads it meanwhile); a larger one is read as a stream, for its
/// "reading" progress.
const PREFETCH_BYTES: f64 = 32.0 * 1024.0 * 1024.0;

/// A row group's ranges being read: asked whole (a promise each), or to be read as a stream.
enum Pending {
    Asked(Vec<(u64, wasm_bindgen_futures::JsFuture)>),
    Stream(Vec<(u64, u64)>),
}

impl Groups<'_> {
    /// The error for row group `g` (0-based) that the browser could not read.
    fn fail(&self, g: usize, message: String) -> MmiqError {
        MmiqError::from(coglab_core::columnar::ColumnarError::Corrupt {
            at: Box::new(coglab_core::columnar::At {
                file: self.pq.name().to_string(),
                row_group: Some(g + 1),
                ..Default::default()
            }),
            message: format!("the browser could not read it ({message})"),
        })
    }

    /// Asks the browser for row group `g`'s ranges (`ranges`), or leaves a large one to be
    /// streamed.
    fn ask(&self, g: usize, ranges: &[(u64, u64)]) -> Result<Pending, MmiqError> {
        let wanted: f64 = ranges.iter().map(|r| r.1 as f64).sum();
        if wanted > PREFETCH_BYTES {
            return Ok(Pending::Stream(ranges.to_vec()));
        }
        let mut asked = Vec::with_capacity(ranges.len());
        for &(start, len) in ranges {
            let part = self
                .blob
                .slice_with_f64_and_f64(start as f64, (start + len) as f64)
                .map_err(|e| self.fail(g, format!("{e:?}")))?;
            asked.push((
                start,
                wasm_bindgen_futures::JsFuture::from(part.array_buffer()),
            ));
        }
        Ok(Pending::Asked(asked))
    }

    /// Checks the columns for `role`, then reads, decodes and releases each row group in turn.
    async fn read(&self, role: ParquetRole, reader: &mut Reader) -> Result<(), MmiqError> {
        let (pq, name) = (self.pq, self.pq.name());
        check_columns(name, &pq.columns(), role)?;
        let size = self.blob.size();
        let groups = pq.num_row_groups();
        let projection = Projection::Only(&PARQUET_COLUMNS);
        let plan = (0..groups)
            .map(|g| pq.group_ranges(g, projection))
            .collect::<Result<Vec<_>, _>>()?;
        let share = size / groups.max(1) as f64;
        let mut read = 0.0;
        let mut next = match plan.first() {
            Some(ranges) => Some(self.ask(0, ranges)?),
            None => None,
        };
        for g in 0..groups {
            let at = self.base + share * g as f64;
            let wanted: f64 = plan[g].iter().map(|r| r.1 as f64).sum();
            let mut starts = Vec::with_capacity(plan[g].len());
            match next.take() {
                Some(Pending::Asked(asked)) => {
                    for (start, promise) in asked {
                        let buf = promise.await.map_err(|e| self.fail(g, format!("{e:?}")))?;
                        let bytes = js_sys::Uint8Array::new(&buf).to_vec();
                        pq.reader().load(start, bytes.into());
                        starts.push(start);
                    }
                }
                Some(Pending::Stream(ranges)) => {
                    let mut got = 0.0;
                    for (start, len) in ranges {
                        let part = self
                            .blob
                            .slice_with_f64_and_f64(start as f64, (start + len) as f64)
                            .map_err(|e| self.fail(g, format!("{e:?}")))?;
                        let bytes = protocol::read_blob(name, &part, |done, _| {
                            let bar = at + share / 2.0 * ((got + done) / wanted.max(1.0));
                            self.progress
                                .reading(name, bar, self.total, read + got + done, size);
                        })
                        .await
                        .map_err(|m| self.fail(g, m))?;
                        got += len as f64;
                        pq.reader().load(start, bytes.into());
                        starts.push(start);
                    }
                }
                None => {}
            }
            read += wanted;
            self.progress
                .reading(name, at + share / 2.0, self.total, read, size);
            if let Some(ranges) = plan.get(g + 1) {
                next = Some(self.ask(g + 1, ranges)?);
            }
            let text = pq.group_uncompressed(g, projection).max(1) as f64;
            let mut pushed = 0.0;
            let decoded = parquet_group_rows(pq, g, |b| {
                reader.push(b)?;
                pushed += b.len() as f64;
                let part = (pushed / text).min(1.0);
                let bar = at + share / 2.0 * (1.0 + part);
                // "reading …": the page counts this file's bytes as read (the bar's units).
                self.progress.throttled(bar, self.total, || {
                    let whole = (g as f64 + part) / groups as f64;
                    format!("reading {name}: decoding, {:.0}%", whole * 100.0)
                });
                Ok(())
            });
            pq.reader().release(&starts);
            decoded?;
        }
        Ok(())
    }
}
