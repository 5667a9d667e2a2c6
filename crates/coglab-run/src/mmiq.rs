//! `coglab score mmiq`: an answer key and a predictions file in, MM-IQ's accuracy report out.
//!
//! JSONL keys and predictions are read in slices of [`SLICE`] bytes ([`KeyReader`],
//! [`PredictionsReader`]), so a file on disk is never in memory whole: a second thread reads
//! the next slice while this one parses, and the key is read on a thread of its own. Without
//! `--items`, JSONL predictions are scored as they are read ([`StreamScorer`]) against the key
//! in its compact form ([`CompactKey`]): nothing is kept per row or per key item beyond a few
//! bytes, so the memory is about two slices of each file whatever their size.

use coglab_core::mmiq::{
    columnar_table_rows, detect, parquet_rows, score_owned, score_totals, AccSummary, AnswerKey,
    CompactKey, CompactKeyReader, KeyReader, MmiqError, MmiqFormat, MmiqReport, ParquetRole,
    Predictions, PredictionsReader, StreamScorer,
};
use coglab_core::ranks::coverage::{mmiq_coverage, Coverage};
use serde::Serialize;
use std::fs::File;
use std::io::Read;

use crate::{file_name, special_kind, RunError, Source};

/// The size of the slices files are read in.
pub const SLICE: usize = 1 << 20;

/// Where an [`Input`]'s bytes come from.
enum Body {
    /// An open file.
    File(File),
    /// Bytes in memory, and how far the head already took.
    Bytes(Vec<u8>),
    /// A Parquet file: its rows are handed on as JSON lines (the head is its first rows'), a
    /// row group at a time ([`coglab_core::columnar`]).
    ParquetFile(coglab_core::columnar::ParquetFile<File>),
    /// A Parquet file in memory (the bytes are kept for the readers that take them whole).
    ParquetBytes(coglab_core::columnar::ParquetFile<coglab_core::columnar::Bytes>),
    /// An Arrow IPC file or stream, whole in memory (its reader borrows the bytes, so it is
    /// opened again where its rows are read; opening reads only the footer or the messages'
    /// headers).
    Arrow(Vec<u8>),
}

/// Makes an error of a reader's `finish` that names a line of a Parquet file's JSON lines
/// name its row group and row (the identity for other files).
pub type Relocate = Box<dyn Fn(MmiqError) -> MmiqError>;

/// An open input, its size, and its first bytes (up to [`SLICE`]), from which its format is
/// told.
pub struct Input {
    path: String,
    name: String,
    body: Body,
    size: u64,
    head: Vec<u8>,
}

impl Input {
    /// Opens a source. A path must be a regular file (a FIFO, a device or a folder is refused
    /// naming what it is, as [`crate::read_bytes`] does).
    ///
    /// # Errors
    /// [`RunError::Input`] naming the path.
    pub fn open(source: &Source) -> Result<Self, RunError> {
        let path = match source {
            Source::Path(p) => p,
            Source::Bytes { name, data } => {
                if is_arrow(data) {
                    return Self::arrow(name.clone(), file_name(name), data.clone());
                }
                if is_parquet(data) {
                    let name = file_name(name);
                    let file = coglab_core::columnar::ParquetFile::from_bytes(&name, data.clone())
                        .map_err(|e| RunError::from(MmiqError::from(e)))?;
                    let head = file.head_jsonl(SLICE).map_err(MmiqError::from)?;
                    return Ok(Self {
                        path: name.clone(),
                        name,
                        size: data.len() as u64,
                        body: Body::ParquetBytes(file),
                        head,
                    });
                }
                let head = data[..data.len().min(SLICE)].to_vec();
                return Ok(Self {
                    path: name.clone(),
                    name: file_name(name),
                    size: data.len() as u64,
                    body: Body::Bytes(data.clone()),
                    head,
                });
            }
        };
        let fail =
            |e: std::io::Error| RunError::in_file(path, format!("{path}: cannot read file: {e}"));
        let meta = std::fs::metadata(path).map_err(fail)?;
        if let Some(kind) = special_kind(&meta) {
            return Err(RunError::in_file(
                path,
                format!("{path}: is {kind}, not a regular file; save the data to a file first"),
            ));
        }
        if meta.is_dir() {
            return Err(RunError::in_file(
                path,
                format!("{path}: is a folder, expected a file"),
            ));
        }
        let mut file = File::open(path).map_err(fail)?;
        let size = file.metadata().map_err(fail)?.len();
        let mut head = Vec::with_capacity(SLICE);
        (&mut file)
            .take(SLICE as u64)
            .read_to_end(&mut head)
            .map_err(fail)?;
        if is_arrow(&head) {
            let mut bytes = std::mem::take(&mut head);
            bytes.reserve(
                usize::try_from(size)
                    .unwrap_or(0)
                    .saturating_sub(bytes.len()),
            );
            file.read_to_end(&mut bytes).map_err(fail)?;
            return Self::arrow(path.to_string(), file_name(path), bytes);
        }
        if is_parquet(&head) {
            let name = file_name(path);
            let file = coglab_core::columnar::ParquetFile::open(&name, file)
                .map_err(|e| RunError::from(MmiqError::from(e)))?;
            let head = file.head_jsonl(SLICE).map_err(MmiqError::from)?;
            return Ok(Self {
                path: path.to_string(),
                name,
                body: Body::ParquetFile(file),
                size,
                head,
            });
        }
        Ok(Self {
            path: path.to_string(),
            name: file_name(path),
            body: Body::File(file),
            size,
            head,
        })
    }

    /// An Arrow IPC input: opened (its footer or messages checked) and its first rows read as
    /// the head.
    fn arrow(path: String, name: String, bytes: Vec<u8>) -> Result<Self, RunError> {
        let head = coglab_core::columnar::ArrowIpc::from_slice(&name, &bytes)
            .and_then(|f| f.head_jsonl(SLICE))
            .map_err(|e| RunError::from(MmiqError::from(e)))?;
        Ok(Self {
            path,
            name,
            size: bytes.len() as u64,
            body: Body::Arrow(bytes),
            head,
        })
    }

    /// The file name (what the parsers name in their messages).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The format [`detect`] tells from the first bytes.
    pub fn format(&self) -> Option<MmiqFormat> {
        detect(&self.name, &self.head)
    }

    /// Hands the whole input to `push`, slice by slice (the first slice is the head). For a
    /// file, a second thread reads the next slice while `push` parses this one; two buffers go
    /// back and forth.
    ///
    /// # Errors
    /// `push`'s error, or a read error naming the path.
    pub fn stream(
        mut self,
        mut push: impl FnMut(&[u8]) -> Result<(), MmiqError>,
    ) -> Result<Relocate, RunError> {
        use std::sync::mpsc::sync_channel;
        let role = match self.format() {
            Some(MmiqFormat::AnswerKey) => ParquetRole::Key,
            _ => ParquetRole::Predictions,
        };
        match self.body {
            Body::ParquetFile(file) => {
                parquet_rows(&file, role, push, |_| {})?;
                return Ok(relocator(file));
            }
            Body::ParquetBytes(file) => {
                parquet_rows(&file, role, push, |_| {})?;
                return Ok(relocator(file));
            }
            Body::Arrow(bytes) => {
                let file = coglab_core::columnar::ArrowIpc::from_slice(&self.name, &bytes)
                    .map_err(MmiqError::from)?;
                let table = coglab_core::columnar::Columnar::Arrow(file);
                columnar_table_rows(&table, role, push, |_| {})?;
                let name = self.name;
                return Ok(Box::new(move |mut e| {
                    if let (Some(loc), Ok(file)) = (
                        e.location_mut(),
                        coglab_core::columnar::ArrowIpc::from_slice(&name, &bytes),
                    ) {
                        file.relocate(loc, 0);
                    }
                    e
                }));
            }
            _ => {}
        }
        push(&self.head)?;
        let mut file = match self.body {
            Body::Bytes(data) => {
                for slice in data.get(self.head.len()..).unwrap_or(&[]).chunks(SLICE) {
                    push(slice)?;
                }
                return Ok(Box::new(|e| e));
            }
            Body::File(file) => file,
            Body::ParquetFile(_) | Body::ParquetBytes(_) | Body::Arrow(_) => {
                return Ok(Box::new(|e| e))
            }
        };
        let (full_tx, full_rx) = sync_channel::<std::io::Result<Vec<u8>>>(1);
        let (empty_tx, empty_rx) = sync_channel::<Vec<u8>>(2);
        let _ = empty_tx.send(std::mem::take(&mut self.head));
        let _ = empty_tx.send(Vec::with_capacity(SLICE));
        let path = self.path;
        std::thread::scope(|scope| {
            scope.spawn(move || {
                // Ends when the file does, on an error, or when the parser stops taking slices.
                while let Ok(mut buf) = empty_rx.recv() {
                    buf.clear();
                    let read = (&mut file).take(SLICE as u64).read_to_end(&mut buf);
                    let done = !matches!(read, Ok(n) if n > 0);
                    if full_tx.send(read.map(|_| buf)).is_err() || done {
                        return;
                    }
                }
            });
            // Owned here, so that returning early (a bad line) hangs up on the reading thread
            // before the scope waits for it.
            let (full_rx, empty_tx) = (full_rx, empty_tx);
            while let Ok(slice) = full_rx.recv() {
                let buf = slice.map_err(|e| {
                    RunError::in_file(&path, format!("{path}: cannot read file: {e}"))
                })?;
                if buf.is_empty() {
                    return Ok::<(), RunError>(());
                }
                push(&buf)?;
                let _ = empty_tx.send(buf);
            }
            Ok(())
        })?;
        Ok(Box::new(|e| e))
    }

    /// Reads a harness file ([`coglab_core::harness`]): an Inspect `.eval` from the open file
    /// member by member (never whole in memory; unless `responses`, each response reduced to
    /// its MM-IQ letter as it is read), any other format whole.
    ///
    /// # Errors
    /// The harness reader's located error, or a read error naming the path.
    pub fn read_harness(
        self,
        format: coglab_core::harness::HarnessFormat,
        responses: bool,
    ) -> Result<coglab_core::harness::HarnessFile, RunError> {
        use coglab_core::harness::{inspect, read_as, HarnessFormat};
        if format == HarnessFormat::InspectEval {
            if let Body::File(file) = self.body {
                let reader = std::io::BufReader::new(file);
                // Without --items nothing per item is printed: each response is reduced to
                // its letter as it is read (the scores are the same).
                return Ok(if responses {
                    inspect::read_eval(&self.name, reader, |_, _| {})?
                } else {
                    inspect::read_eval_lean(&self.name, reader, |_, _| {})?
                });
            }
        }
        let name = self.name.clone();
        Ok(read_as(&name, &self.into_bytes()?, format)?)
    }

    /// The whole input in memory (for the formats read at once: tables, workbooks, summaries).
    ///
    /// # Errors
    /// A read error naming the path.
    pub fn into_bytes(mut self) -> Result<Vec<u8>, RunError> {
        match self.body {
            Body::Bytes(data) | Body::Arrow(data) => Ok(data),
            // The file itself: the core's readers take Parquet bytes.
            Body::ParquetBytes(file) => Ok(file.reader().to_vec()),
            Body::ParquetFile(_) => std::fs::read(&self.path).map_err(|e| {
                RunError::in_file(&self.path, format!("{}: cannot read file: {e}", self.path))
            }),
            Body::File(mut file) => {
                let mut bytes = std::mem::take(&mut self.head);
                bytes.reserve(
                    usize::try_from(self.size)
                        .unwrap_or(0)
                        .saturating_sub(bytes.len()),
                );
                file.read_to_end(&mut bytes).map_err(|e| {
                    RunError::in_file(&self.path, format!("{}: cannot read file: {e}", self.path))
                })?;
                Ok(bytes)
            }
        }
    }
}

/// Whether bytes start as a Parquet file does.
fn is_parquet(head: &[u8]) -> bool {
    coglab_core::columnar::detect(head) == Some(coglab_core::columnar::ColumnarKind::Parquet)
}

/// Whether bytes start as an Arrow IPC file or stream does.
fn is_arrow(head: &[u8]) -> bool {
    matches!(
        coglab_core::columnar::detect(head),
        Some(
            coglab_core::columnar::ColumnarKind::ArrowFile
                | coglab_core::columnar::ColumnarKind::ArrowStream
        )
    )
}

/// What makes a reader's `finish` error name the Parquet file's row group and row.
fn relocator<R: coglab_core::columnar::ChunkReader + 'static>(
    file: coglab_core::columnar::ParquetFile<R>,
) -> Relocate {
    Box::new(move |mut e| {
        if let Some(loc) = e.location_mut() {
            file.relocate(loc, 0);
        }
        e
    })
}

/// Reads an answer key (JSONL) slice by slice.
///
/// # Errors
/// [`RunError::Input`] for an unreadable or invalid key.
pub fn read_key(source: &Source) -> Result<AnswerKey, RunError> {
    let input = Input::open(source)?;
    let mut reader = KeyReader::new(&input.name);
    let relocate = input.stream(|b| reader.push(b))?;
    Ok(reader.finish().map_err(relocate)?)
}

/// Reads an answer key (JSONL) slice by slice into its compact form (no `MD5`s).
///
/// # Errors
/// [`RunError::Input`] for an unreadable or invalid key.
pub fn read_compact_key(source: &Source) -> Result<CompactKey, RunError> {
    let input = Input::open(source)?;
    let mut reader = CompactKeyReader::new(&input.name);
    let relocate = input.stream(|b| reader.push(b))?;
    Ok(reader.finish().map_err(relocate)?)
}

/// Scores MM-IQ predictions (JSONL, `input`) as they are read against the key, which is read
/// on a second thread into its compact form: the rows read before the key is ready are held in
/// a few bytes each, then each row is scored as its line completes. Returns the report
/// (without item results) and the number of key items. The key's error comes first when both
/// files fail.
///
/// # Errors
/// The key's error, else the predictions'.
pub fn score_streamed(key: &Source, input: Input) -> Result<(MmiqReport, usize), RunError> {
    let label = key.label();
    let key_failed = || RunError::in_file(label, format!("{label}: reading the key failed"));
    std::thread::scope(|scope| {
        let mut reading = Some(scope.spawn(|| read_compact_key(key)));
        let mut scorer = StreamScorer::new(&input.name);
        let mut key_items = 0;
        let mut key_error = None;
        // Takes the key once it is read (`wait`: however long that takes).
        let mut take_key = |scorer: &mut StreamScorer, wait: bool| -> Result<(), MmiqError> {
            let Some(handle) = reading.take_if(|h| wait || h.is_finished()) else {
                return Ok(());
            };
            match handle.join().map_err(|_| key_failed()).and_then(|k| k) {
                Ok(k) => {
                    key_items = k.len();
                    scorer.set_key(k);
                    Ok(())
                }
                Err(e) => {
                    key_error = Some(e);
                    // Stops reading the predictions: the key's error is the one reported.
                    Err(MmiqError::NothingScored {
                        file: String::new(),
                        key_file: String::new(),
                        read: 0,
                    })
                }
            }
        };
        let streamed = input.stream(|b| {
            take_key(&mut scorer, false)?;
            scorer.push(b)
        });
        let taken = take_key(&mut scorer, true);
        if let Some(e) = key_error {
            return Err(e);
        }
        let relocate = streamed?;
        taken?;
        Ok((scorer.finish().map_err(relocate)?, key_items))
    })
}

/// Reads the answer key on a second thread while `other` runs; the key's error comes first
/// when both fail.
///
/// # Errors
/// The key's error, else `other`'s.
pub fn with_key<T: Send>(
    key: &Source,
    other: impl FnOnce() -> Result<T, RunError>,
) -> Result<(AnswerKey, T), RunError> {
    let (read, value) = std::thread::scope(|scope| {
        let read = scope.spawn(|| read_key(key));
        let value = other();
        (read.join(), value)
    });
    let label = key.label();
    let key =
        read.map_err(|_| RunError::in_file(label, format!("{label}: reading the key failed")))??;
    Ok((key, value?))
}

/// Reads predictions: MM-IQ JSONL slice by slice, other formats whole. Unless `responses`, a
/// JSONL's responses are reduced to their extracted letters while reading
/// ([`PredictionsReader::letters_only`]): the scores are the same, the memory far less.
///
/// # Errors
/// [`RunError::Input`] for an unreadable or invalid file.
pub fn read_preds(input: Input, responses: bool) -> Result<Predictions, RunError> {
    if !is_streamed(&input) {
        let name = input.name.clone();
        return Ok(Predictions::parse(&name, &input.into_bytes()?)?);
    }
    let size = usize::try_from(input.size).unwrap_or(usize::MAX);
    let mut reader = PredictionsReader::new(&input.name, size);
    if !responses {
        reader = reader.letters_only();
    }
    let relocate = input.stream(|b| reader.push(b))?;
    Ok(reader.finish().map_err(relocate)?)
}

/// Whether `input` is MM-IQ predictions JSONL, read slice by slice (an input whose first slice
/// is blank is read whole, by the reader that tells its format).
fn is_streamed(input: &Input) -> bool {
    input.format() == Some(MmiqFormat::PredictionsJsonl)
        && !input.head.iter().all(u8::is_ascii_whitespace)
}

/// A VLMEvalKit `_acc.csv` printed as it is (pre-computed accuracies, no n or intervals).
#[derive(Serialize)]
struct Precomputed<'a> {
    benchmark: &'static str,
    precomputed: bool,
    #[serde(flatten)]
    summary: &'a AccSummary,
}

/// The result of `coglab score mmiq`. Serializes as its `--json` output.
#[derive(Debug)]
pub enum MmiqScore {
    /// A VLMEvalKit `_acc.csv`: its pre-computed accuracies, as they are.
    Precomputed(AccSummary),
    /// A harness summary file (lmms-eval `results.json`, an Every Eval Ever aggregate
    /// record): its figures, as they are.
    Summary(coglab_core::harness::HarnessFile),
    /// Predictions scored against the key.
    Scored {
        /// The report (per item rows only when asked for).
        report: Box<MmiqReport>,
        /// Items scored out of the key's items.
        coverage: Coverage,
    },
}

impl Serialize for MmiqScore {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            MmiqScore::Precomputed(summary) => Precomputed {
                benchmark: "mmiq",
                precomputed: true,
                summary,
            }
            .serialize(s),
            MmiqScore::Summary(file) => {
                #[derive(Serialize)]
                struct Summary<'a> {
                    benchmark: &'static str,
                    precomputed: bool,
                    harness: &'static str,
                    #[serde(flatten)]
                    file: &'a coglab_core::harness::HarnessFile,
                }
                Summary {
                    benchmark: "mmiq",
                    precomputed: true,
                    harness: file.format.harness().label(),
                    file,
                }
                .serialize(s)
            }
            // overall.accuracy stays MM-IQ's (over the items in the file); coverage and
            // accuracy_all_items (missing items counted wrong) are added beside it.
            MmiqScore::Scored { report, coverage } => {
                crate::with_coverage(report, "overall", coverage)
                    .map_err(serde::ser::Error::custom)?
                    .serialize(s)
            }
        }
    }
}

/// `coglab score mmiq --answers KEY PRED [--items]`. MM-IQ predictions JSONL without `items`
/// are scored as they are read ([`score_streamed`]). Otherwise the answer key is read whole and
/// handed to `dispose` when scoring is done: the CLI, about to exit, forgets it (the system takes the memory back at
/// once, where dropping frees its three allocations per item one by one, ~5% of the run on
/// 100,000 items); a library drops it, e.g. on another thread.
///
/// # Errors
/// [`RunError::Input`] for an unreadable or invalid key or predictions file.
pub fn score(
    key: &Source,
    pred: &Source,
    items: bool,
    dispose: impl FnOnce(AnswerKey),
) -> Result<MmiqScore, RunError> {
    let input = Input::open(pred)?;
    if input.format() == Some(MmiqFormat::VlmEvalKitAcc) {
        let name = input.name.clone();
        let summary = AccSummary::parse(&name, &input.into_bytes()?)?;
        return Ok(MmiqScore::Precomputed(summary));
    }
    if let Some(format) = coglab_core::harness::detect(&input.name, &input.head) {
        // A harness file: its records mapped onto the key's items (see coglab_core::harness).
        let (answer_key, file) = with_key(key, || input.read_harness(format, items))?;
        if format.is_summary() {
            coglab_core::harness::summary::check_mmiq_summary(&file)?;
            return Ok(MmiqScore::Summary(file));
        }
        let report = coglab_core::harness::map::score_mmiq(&file, &answer_key, items);
        let size = answer_key.items.len();
        dispose(answer_key);
        let report = report?;
        let coverage = mmiq_coverage(&report, size);
        return Ok(MmiqScore::Scored {
            report: Box::new(report),
            coverage,
        });
    }
    let table = match input.format() {
        Some(MmiqFormat::VlmEvalKit(kind)) => Some(kind),
        _ => None,
    };
    let (answer_key, preds) = match table {
        // A VLMEvalKit table: circular and judge tables are read as harness files.
        Some(kind) => {
            let name = input.name.clone();
            let bytes = input.into_bytes()?;
            let (answer_key, harness) = with_key(key, || {
                Ok(coglab_core::harness::vlmevalkit::read(&name, kind, &bytes)
                    .ok()
                    .filter(coglab_core::harness::vlmevalkit::needs_harness))
            })?;
            if let Some(file) = harness {
                let report = coglab_core::harness::map::score_mmiq(&file, &answer_key, items);
                let size = answer_key.items.len();
                dispose(answer_key);
                let report = report?;
                let coverage = mmiq_coverage(&report, size);
                return Ok(MmiqScore::Scored {
                    report: Box::new(report),
                    coverage,
                });
            }
            (answer_key, Predictions::parse(&name, &bytes)?)
        }
        None if !items && is_streamed(&input) => {
            let (report, size) = score_streamed(key, input)?;
            let coverage = mmiq_coverage(&report, size);
            return Ok(MmiqScore::Scored {
                report: Box::new(report),
                coverage,
            });
        }
        None => with_key(key, || read_preds(input, items))?,
    };
    // Without --items nothing is kept per item (the totals are the same).
    let report = if items {
        score_owned(&answer_key, preds)
    } else {
        score_totals(&answer_key, preds)
    };
    let size = answer_key.items.len();
    dispose(answer_key);
    let report = report?;
    let coverage = mmiq_coverage(&report, size);
    Ok(MmiqScore::Scored {
        report: Box::new(report),
        coverage,
    })
}
