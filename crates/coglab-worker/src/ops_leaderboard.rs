//! Worker operations of the leaderboard page ([`crate::api`]'s `Detect`, `Score`, `Items`,
//! `Trials`, `ItemsCsv`, `EeeExport`, `Compare`, `Answers`, `Forget`, `MmoperaCompare`,
//! `MmoperaLengthBias`, `GoldAnalyze`, `Rank`).
//!
//! The worker keeps the full reports (MM-IQ items with their responses, KiVA trials and run
//! files) in its [`WorkerState`], keyed by [`RowId`], and sends the page only summaries, so
//! nothing heavy is sent to or parsed on the main thread.

use std::collections::HashMap;

use crate::api::{self, Compared, FileRef, RowId, WorkerError};
use crate::io::{self, Progress};
use crate::protocol::{self, InputFile};
use crate::state::WorkerState;
use coglab_core::harness::eval_stream::EvalStream;
use coglab_core::kiva::RegenerationAnswers;
use coglab_core::leaderboard::detail::{
    compare_kiva, compare_mmiq, kiva_trials, mmiq_items, ItemsPage, TrialsPage,
};
use coglab_core::leaderboard::gold::GoldResult;
use coglab_core::leaderboard::mmopera::MmoperaComparison;
use coglab_core::leaderboard::{score_files_with, Detail, FileKind, InputRef, Prepared, Scored};
use coglab_core::mmiq::{KeyReader, MmiqError, MmiqFormat, PredictionsReader};

/// Bytes read from the start of a file to detect its format.
const DETECT_HEAD: f64 = 8192.0;
/// Files up to this size are read whole when their start alone is not recognised (JSON).
const WHOLE_FOR_DETECT: f64 = 4.0 * 1024.0 * 1024.0;

/// [`api::Detect`]: each file's format, from its first 8 KiB (core
/// [`coglab_core::leaderboard::detect`]), or from the whole file up to 4 MiB when its start
/// is not recognised (a JSON file's telling keys may come later). A file the browser cannot
/// read is [`FileKind::Unknown`]; one in UTF-16 or UTF-32 too, with a note naming its encoding.
///
/// # Errors
/// None today; the signature leaves room for a refusal of the whole request.
pub async fn detect(files: &[FileRef]) -> Result<Vec<api::Detected>, WorkerError> {
    let mut out = Vec::with_capacity(files.len());
    for f in files {
        let size = f.blob.size();
        let head = io::read_range(&f.blob, 0.0, DETECT_HEAD.min(size))
            .await
            .unwrap_or_default();
        // A Parquet file is told from its footer's column names: a few kilobytes at its end.
        #[cfg(feature = "parquet")]
        if coglab_core::columnar::detect(&head)
            == Some(coglab_core::columnar::ColumnarKind::Parquet)
        {
            out.push(match crate::parquet_input::open(&f.name, &f.blob).await {
                Ok(pq) => api::Detected {
                    kind: coglab_core::leaderboard::detect_parquet(&f.name, &pq).kind,
                    note: None,
                },
                Err(why) => api::Detected {
                    kind: FileKind::Unknown,
                    note: Some(why),
                },
            });
            continue;
        }
        // An Arrow IPC file or stream: read whole (as scoring does).
        let arrow = columnar_whole(&head);
        let mut kind = coglab_core::leaderboard::detect(&f.name, &head);
        let mut whole = None;
        if (kind == FileKind::Unknown && size > DETECT_HEAD && size <= WHOLE_FOR_DETECT)
            || (arrow && size > DETECT_HEAD)
        {
            if let Ok(all) = io::read_range(&f.blob, 0.0, size).await {
                kind = coglab_core::leaderboard::detect(&f.name, &all);
                whole = Some(all);
            }
        }
        let note = (kind == FileKind::Unknown)
            .then(|| {
                let bytes = if arrow {
                    whole.as_deref().unwrap_or(&head)
                } else {
                    &head
                };
                coglab_core::leaderboard::unreadable(&f.name, bytes)
            })
            .flatten();
        out.push(api::Detected { kind, note });
    }
    Ok(out)
}

/// Whether a file is columnar, when this build reads such files (feature `parquet`): never
/// handed to the piece-by-piece JSONL parsers. An Arrow IPC file (its footer at its end) or
/// stream (its first rows may lie past any first piece) is read whole, to be told and scored,
/// and its rows are read by the core from the whole bytes; an MM-IQ Parquet file is read a row
/// group at a time ([`crate::parquet_input`]), another Parquet file whole.
fn columnar_whole(head: &[u8]) -> bool {
    cfg!(feature = "parquet") && coglab_core::columnar::detect(head).is_some()
}

/// The subdomain a run file is named for (`.../output_Colour/ColourRed.csv` → `ColourRed`), as
/// [`coglab_core::kiva::RunFile::parse`] names it.
fn subdomain_of(path: &str) -> &str {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let stem = name
        .strip_suffix(".csv")
        .or_else(|| name.strip_suffix(".CSV"))
        .unwrap_or(name);
    stem.strip_prefix("output_").unwrap_or(stem)
}

/// One file of a [`score`] request while it is read: its handle, where it starts in the bytes
/// of all of them (for the progress bar), and what is made of it as it arrives (parsed piece
/// by piece, or its bytes kept).
struct Incoming {
    file: FileRef,
    start: f64,
    parser: Option<Parser>,
    bytes: Vec<u8>,
    /// An MM-IQ Parquet file, read and parsed a row group at a time before the others.
    parsed: Option<Prepared>,
}

/// [`api::Score`]: reads the files as streams ([`protocol::read_files`]), parsing MM-IQ JSONL keys
/// and predictions piece by piece as they arrive ([`Parser`]; the browser reads ahead
/// meanwhile) and keeping the other files' bytes; then scores the batch with
/// [`score_files_with`], keeps the full reports in `state` and returns the summaries.
///
/// # Errors
/// [`WorkerError::TooLarge`], or [`WorkerError::Browser`] for a file the browser cannot read or
/// memory that runs out (a file that does not parse gets its located error in its
/// [`coglab_core::leaderboard::FileStatus`] instead).
pub async fn score(
    state: &mut WorkerState,
    args: api::Score,
    progress: &Progress,
) -> Result<Scored, WorkerError> {
    io::refuse_large(&args.files)?;
    let total = io::blob_bytes(&args.files);
    // The heap is grown once for what is kept or parsed into records, not for Inspect `.eval`
    // logs: they are read one member at a time ([`EvalStream`]), and reserving their size
    // would grow the worker's memory (which never shrinks) by 256 MiB for a 500 MB log whose
    // largest sample is 250 KB (`tests/e2e/evalbench.test.mjs` measures it).
    let streamed: f64 = args
        .files
        .iter()
        .filter(|f| is_eval_log(&f.name))
        .map(|f| f.blob.size())
        .sum();
    io::reserve_heap(total - streamed);
    let mut at = 0.0;
    let mut incoming: Vec<Incoming> = args
        .files
        .into_iter()
        .map(|file| {
            let start = at;
            at += file.blob.size();
            Incoming {
                file,
                start,
                parser: None,
                bytes: Vec::new(),
                parsed: None,
            }
        })
        .collect();
    #[cfg(feature = "parquet")]
    for f in &mut incoming {
        if crate::parquet_input::is_parquet(&f.file.blob).await {
            let chosen = args.kinds.get(&f.file.name).copied();
            f.parsed = crate::parquet_input::mmiq(&f.file, chosen, f.start, total, progress).await;
        }
    }
    // The files still to read, by their index in `incoming`.
    let rest: Vec<usize> = (0..incoming.len())
        .filter(|&k| incoming[k].parsed.is_none())
        .collect();
    let handles: Vec<(String, web_sys::Blob)> = rest
        .iter()
        .map(|&k| (incoming[k].file.name.clone(), incoming[k].file.blob.clone()))
        .collect();
    let named: Vec<(&str, &web_sys::Blob)> = handles.iter().map(|(n, b)| (n.as_str(), b)).collect();
    let mut no_memory = None;
    protocol::read_files(&named, |k, slice, done, size| {
        let f = &mut incoming[rest[k]];
        let name = f.file.name.as_str();
        if done == slice.len() as f64 {
            // The first slice of this file: parse it as it arrives, or keep its bytes.
            let chosen = args.kinds.get(name).copied();
            f.parser = Parser::for_file(name, chosen, slice, size);
            if f.parser.is_none() && f.bytes.try_reserve_exact(size as usize).is_err() {
                no_memory = Some(format!(
                    "{name}: not enough memory to read its {}",
                    protocol::megabytes(size)
                ));
            }
        }
        let go_on = match &mut f.parser {
            _ if no_memory.is_some() => false,
            Some(p) => p.push(slice),
            None => {
                f.bytes.extend_from_slice(slice);
                true
            }
        };
        progress.reading(name, f.start + done, total, done, size);
        go_on
    })
    .await
    .map_err(WorkerError::Browser)?;
    if let Some(e) = no_memory {
        return Err(WorkerError::Browser(e));
    }
    let (mut prepared, mut read) = (Vec::new(), Vec::new());
    for f in incoming {
        prepared.push(f.parsed.or_else(|| f.parser.map(Parser::finish)));
        read.push(InputFile {
            name: f.file.name,
            bytes: f.bytes,
        });
    }
    let inputs: Vec<InputRef> = read
        .iter()
        .map(|f| InputRef {
            path: &f.name,
            bytes: &f.bytes,
            model: args.models.get(&f.name).map(String::as_str),
        })
        .collect();
    let chosen: Vec<Option<FileKind>> = read
        .iter()
        .map(|f| args.kinds.get(&f.name).copied())
        .collect();
    let mut scored = score_files_with(&inputs, &chosen, prepared, |done, total, label| {
        progress.report(done as f64, total as f64, label);
    });
    drop(inputs);
    state.keep_scored(&mut scored, read);
    Ok(scored)
}

/// Whether a file is named as an Inspect `.eval` log (the name [`Parser::for_file`]'s
/// detection goes by when a zip's first member does not tell).
fn is_eval_log(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with(".eval")
}

/// An MM-IQ JSONL file, or an Inspect `.eval` log, parsed piece by piece as it is read.
enum Reader {
    Key(KeyReader),
    Predictions(PredictionsReader),
    Eval(Box<EvalStream>),
}

/// Why a [`Reader`] stopped.
enum Failure {
    Mmiq(MmiqError),
    Harness(coglab_core::harness::HarnessError),
}

/// A [`Reader`] and the first error it gave (after which the rest of the file is not read).
struct Parser {
    reader: Reader,
    failed: Option<Failure>,
}

impl Parser {
    /// A parser for a file whose first piece is `head`, when it is an MM-IQ answer key or
    /// predictions JSONL (as chosen by the user, else detected, and by its content); `None`
    /// for any other file, which is read whole.
    fn for_file(name: &str, chosen: Option<FileKind>, head: &[u8], size: f64) -> Option<Self> {
        if columnar_whole(head) {
            return None;
        }
        // One detection gives the kind and the formats within it.
        let format = coglab_core::leaderboard::detect_format(name, head);
        let kind = chosen.unwrap_or(format.kind);
        if kind == FileKind::Harness
            && format.harness == Some(coglab_core::harness::HarnessFormat::InspectEval)
        {
            // An Inspect log: one member at a time (a large one with each response reduced
            // to its MM-IQ letter as it is read, as MM-IQ JSONL is read lean).
            let lean = size > coglab_core::mmiq::LEAN_INPUT_BYTES as f64;
            return Some(Self {
                reader: Reader::Eval(Box::new(EvalStream::new(name, lean))),
                failed: None,
            });
        }
        let reader = match (kind, format.mmiq?) {
            (FileKind::MmiqKey, MmiqFormat::AnswerKey) => Reader::Key(KeyReader::new(name)),
            (FileKind::MmiqPredictions, MmiqFormat::PredictionsJsonl) => {
                Reader::Predictions(PredictionsReader::new(name, size as usize))
            }
            _ => return None,
        };
        Some(Self {
            reader,
            failed: None,
        })
    }

    /// Parses the next piece; `false` once the file has failed (the rest need not be read).
    fn push(&mut self, slice: &[u8]) -> bool {
        if self.failed.is_some() {
            return false;
        }
        self.failed = match &mut self.reader {
            Reader::Key(r) => r.push(slice).err().map(Failure::Mmiq),
            Reader::Predictions(r) => r.push(slice).err().map(Failure::Mmiq),
            Reader::Eval(r) => r.push(slice).err().map(Failure::Harness),
        };
        self.failed.is_none()
    }

    fn finish(self) -> Prepared {
        match (self.reader, self.failed) {
            (Reader::Key(_), Some(Failure::Mmiq(e))) => Prepared::MmiqKey(Err(e)),
            (Reader::Key(r), _) => Prepared::MmiqKey(r.finish()),
            (Reader::Predictions(_), Some(Failure::Mmiq(e))) => Prepared::MmiqPredictions(Err(e)),
            (Reader::Predictions(r), _) => Prepared::MmiqPredictions(r.finish()),
            (Reader::Eval(_), Some(Failure::Harness(e))) => Prepared::Harness(Err(e)),
            (Reader::Eval(r), _) => Prepared::Harness(r.finish()),
        }
    }
}

/// The message for a row of another benchmark than an operation needs.
fn not_for(what: &str) -> WorkerError {
    WorkerError::NotApplicable(what.to_string())
}

/// [`api::Items`]: one page of an MM-IQ row's items.
///
/// # Errors
/// [`WorkerError::NotApplicable`] for a row of another benchmark; the state's for a row not
/// kept.
pub fn items(state: &WorkerState, a: &api::Items) -> Result<ItemsPage, WorkerError> {
    match state.row(a.row)? {
        Detail::Mmiq(r) => Ok(mmiq_items(r, &a.query)),
        _ => Err(not_for("item pages are available for MM-IQ rows")),
    }
}

/// [`api::ItemsCsv`]: all of an MM-IQ row's items or a KiVA row's trials as CSV.
///
/// # Errors
/// As [`items`].
pub fn items_csv(state: &WorkerState, a: &api::ItemsCsv) -> Result<String, WorkerError> {
    use coglab_core::leaderboard::detail::{kiva_trials_csv, mmiq_items_csv};
    match state.row(a.row)? {
        Detail::Mmiq(r) => Ok(mmiq_items_csv(&a.model, r)),
        Detail::Kiva(r) => Ok(kiva_trials_csv(&a.model, r)),
        _ => Err(not_for(
            "item downloads are available for MM-IQ and KiVA rows",
        )),
    }
}

/// [`api::EeeExport`]: a scored MM-IQ or KiVA row as Every Eval Ever records, written by
/// [`coglab_core::harness::eee::write_mmiq`] or [`coglab_core::harness::eee::write_kiva`], the
/// functions `coglab export eee` (`--kiva`) calls on the same report (so the download equals
/// the CLI's files for the same input, model name and timestamp).
///
/// # Errors
/// As [`items`], or the core's [`coglab_core::harness::HarnessError::Empty`] for a row without
/// items.
pub fn eee_export(
    state: &WorkerState,
    a: &api::EeeExport,
) -> Result<coglab_core::harness::eee::EeeRecords, WorkerError> {
    use coglab_core::harness::eee::{write_kiva, write_mmiq};
    let at = a.timestamp.to_string();
    match state.row(a.row)? {
        Detail::Mmiq(r) => write_mmiq(r, &a.model, &at).map_err(|e| e.to_string().into()),
        Detail::Kiva(r) => write_kiva(r, &a.model, &at).map_err(|e| e.to_string().into()),
        _ => Err(not_for(
            "Every Eval Ever records are written for scored MM-IQ and KiVA rows",
        )),
    }
}

/// [`api::HfExport`]: a scored MM-IQ or KiVA row's headline metrics as Hugging Face Eval
/// Results entries ([`coglab_core::harness::hf`]), the entries and YAML `coglab export hf`
/// writes for the same report, model id and date (the dataset the benchmark's default).
///
/// # Errors
/// [`WorkerError::Input`] for a model id that is not `org/name` or a date that is
/// not `YYYY-MM-DD`; as [`items`] for a row not kept or of another benchmark.
pub fn hf_export(state: &WorkerState, a: &api::HfExport) -> Result<api::HfYaml, WorkerError> {
    use coglab_core::harness::hf;
    // The checks and defaults of `coglab export hf` (the model's Hub page as the source).
    let common = hf::common(&a.model, None, &a.date, None, None).map_err(|e| {
        let field = if e.field == "model" {
            "Hub model id"
        } else {
            e.field
        };
        WorkerError::from(format!("{field}: {}", e.message))
    })?;
    let (file_name, entries) = match state.row(a.row)? {
        Detail::Mmiq(r) => ("mmiq.yaml".to_string(), hf::mmiq_entries(r, &common)),
        Detail::Kiva(r) => (hf::kiva_file_name(r.variant), hf::kiva_entries(r, &common)),
        _ => {
            return Err(not_for(
                "Hugging Face Eval Results are written for scored MM-IQ and KiVA rows",
            ))
        }
    };
    let yaml = hf::to_yaml(&entries).map_err(|e| WorkerError::from(format!("{file_name}: {e}")))?;
    Ok(api::HfYaml {
        file_name,
        yaml,
        entries: entries.len(),
    })
}

/// [`api::ChallengeItems`]: one page of a KiVA challenge row's trials.
///
/// # Errors
/// As [`items`].
pub fn challenge_items(
    state: &WorkerState,
    a: &api::ChallengeItems,
) -> Result<coglab_core::leaderboard::detail::ChallengePage, WorkerError> {
    match state.row(a.row)? {
        Detail::KivaChallenge(r) => Ok(coglab_core::leaderboard::detail::challenge_items(
            r, &a.query,
        )),
        _ => Err(not_for(
            "challenge trial pages are available for KiVA challenge rows",
        )),
    }
}

/// [`api::Trials`]: one page of a KiVA row's trials.
///
/// # Errors
/// As [`items`].
pub fn trials(state: &WorkerState, a: &api::Trials) -> Result<TrialsPage, WorkerError> {
    match state.row(a.row)? {
        Detail::Kiva(r) => Ok(kiva_trials(r, &a.query)),
        _ => Err(not_for("trial pages are available for KiVA rows")),
    }
}

/// [`api::Compare`]: two MM-IQ or two KiVA rows on their shared items.
///
/// # Errors
/// [`WorkerError::OverLimit`], the state's for a row not kept, rows of different benchmarks,
/// or the core's.
pub fn compare(state: &WorkerState, a: &api::Compare) -> Result<Compared, WorkerError> {
    let resamples = coglab_core::limits::check(
        "resamples",
        a.resamples,
        1,
        coglab_core::limits::MAX_RESAMPLES,
    )?;
    match (state.row(a.first)?, state.row(a.second)?) {
        (Detail::Mmiq(x), Detail::Mmiq(y)) => {
            Ok(compare_mmiq(x, y, resamples, a.seed).map(|c| Compared::Mmiq(Box::new(c)))?)
        }
        (Detail::Kiva(x), Detail::Kiva(y)) => {
            Ok(compare_kiva(x, y, resamples, a.seed).map(Compared::Kiva)?)
        }
        _ => Err(not_for("the two rows are from different benchmarks")),
    }
}

/// [`api::Answers`]: the model's answers to one KiVA trial, read from the kept run file.
///
/// # Errors
/// The state's for a row not kept, [`WorkerError::NotApplicable`] for a row that is not a
/// KiVA model run or has no run file of the subdomain, or the core's.
pub fn answers(
    state: &WorkerState,
    a: &api::Answers,
) -> Result<Vec<RegenerationAnswers>, WorkerError> {
    state.row(a.row)?;
    let files = state
        .run_files(a.row)
        .ok_or_else(|| not_for("answers are available for KiVA model runs"))?;
    let (path, bytes) = files
        .iter()
        .find(|(p, _)| subdomain_of(p) == a.subdomain)
        .ok_or_else(|| {
            WorkerError::NotApplicable(format!(
                "no run file of subdomain {:?} in this row",
                a.subdomain
            ))
        })?;
    coglab_core::kiva::trial_answers(path, bytes, a.variation).map_err(|e| e.to_string().into())
}

/// [`api::MmoperaLengthBias`]: a kept MM-OPERA row's length bias under another threshold.
///
/// # Errors
/// The state's for a row not kept, or [`WorkerError::NotApplicable`] for a row of another
/// benchmark, without the task, or published without its answers.
pub fn mmopera_length_bias(
    state: &WorkerState,
    a: &api::MmoperaLengthBias,
) -> Result<coglab_core::leaderboard::mmopera::LengthBiases, WorkerError> {
    let Detail::Mmopera(row) = state.row(a.row)? else {
        return Err(not_for("length bias is computed for MM-OPERA rows"));
    };
    let task = row.task(a.task).ok_or_else(|| {
        WorkerError::NotApplicable(format!("{} has no {} scores", row.model, a.task.name()))
    })?;
    let at = task.length_bias_at(a.min_length);
    let scored = task
        .holistic
        .as_ref()
        .is_some_and(|h| h.length_bias.is_some())
        || task
            .reasoning
            .as_ref()
            .is_some_and(|r| r.length_bias.is_some());
    if scored && at.holistic.is_none() && at.process.is_none() {
        // A published row: the bundle has its figures, not the answers behind them.
        return Err(WorkerError::NotApplicable(format!(
            "{}'s answers are not in the published bundle: its length bias is shown at the \
             threshold it was published with",
            row.model
        )));
    }
    Ok(at)
}

/// [`api::MmoperaCompare`]: two MM-OPERA rows on one task, on the items both were judged on.
///
/// # Errors
/// [`WorkerError::OverLimit`], the state's for a row not kept, [`WorkerError::NotApplicable`]
/// for rows without scores on the task, or the core's.
pub fn mmopera_compare(
    state: &WorkerState,
    a: &api::MmoperaCompare,
) -> Result<MmoperaComparison, WorkerError> {
    let resamples = coglab_core::limits::check(
        "resamples",
        a.resamples,
        1,
        coglab_core::limits::MAX_RESAMPLES,
    )?;
    let (Detail::Mmopera(x), Detail::Mmopera(y)) = (state.row(a.first)?, state.row(a.second)?)
    else {
        return Err(not_for("MM-OPERA comparisons are of two MM-OPERA rows"));
    };
    let on = |r: &coglab_core::leaderboard::mmopera::MmoperaRow| {
        r.task(a.task).cloned().ok_or_else(|| {
            WorkerError::NotApplicable(format!(
                "{} has no {} scores: pick two models scored on {}",
                r.model,
                a.task.name(),
                a.task.name()
            ))
        })
    };
    Ok(coglab_core::leaderboard::mmopera::CompareArgs {
        models: [x.model.clone(), y.model.clone()],
        a: on(x)?,
        b: on(y)?,
        resamples,
        seed: a.seed,
    }
    .compare()?)
}

/// [`api::GoldAnalyze`]: a kept Gold matrix under another task → layer assignment.
///
/// # Errors
/// The state's for a row not kept, [`WorkerError::NotApplicable`] for another benchmark's row,
/// or the core's message.
pub fn gold_analyze(state: &WorkerState, a: &api::GoldAnalyze) -> Result<GoldResult, WorkerError> {
    match state.row(a.row)? {
        Detail::Gold(m) => Ok(coglab_core::leaderboard::gold::analyze(m, &a.assignment)?),
        _ => Err(not_for("not a Gold row")),
    }
}

/// [`api::Rank`]: the kept rows ranked with paired tests
/// ([`coglab_core::ranks::view::rank_board`]); a row no longer kept or of another kind is left
/// off with a note, never an error. A row in `published` is ranked from that report (a
/// published row filled from its rank file, [`crate::ops_published::rank_details`]) rather
/// than the kept one.
pub fn rank(
    state: &WorkerState,
    a: &api::Rank,
    published: &HashMap<RowId, Detail>,
) -> coglab_core::ranks::view::RankBoard {
    use coglab_core::ranks::view::{rank_board, RankEntry, RankSource};
    let start = io::now_ms();
    let entries: Vec<RankEntry<'_>> = a
        .rows
        .iter()
        .map(|(id, name)| RankEntry {
            id: *id,
            name,
            source: match published.get(id).or_else(|| state.row_if_kept(*id)) {
                Some(Detail::Mmiq(r)) => RankSource::Mmiq(r),
                Some(Detail::Kiva(r)) => RankSource::Kiva {
                    report: r,
                    files: state.run_files(*id).map(Vec::as_slice),
                },
                Some(Detail::Mmopera(r)) => RankSource::Mmopera(r),
                Some(Detail::Gold(_) | Detail::KivaChallenge(_)) => RankSource::Other,
                None => RankSource::Gone,
            },
        })
        .collect();
    let mut board = rank_board(&entries, &a.request);
    board.worker_ms = io::now_ms() - start;
    board
}
