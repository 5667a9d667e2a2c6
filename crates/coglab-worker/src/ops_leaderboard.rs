//! Worker operations of the leaderboard page ([`crate::api`]'s `Detect`, `Score`, `Items`,
//! `Trials`, `ItemsCsv`, `EeeExport`, `Compare`, `Answers`, `Forget`, `MmoperaCompare`,
//! `MmoperaLengthBias`, `GoldAnalyze`, `Rank`).
//!
//! The worker keeps the full reports (MM-IQ items with their responses, KiVA trials and run
//! files) in its own memory, keyed by [`RowId`], and sends the page only summaries, so nothing
//! heavy is sent to or parsed on the main thread.

use std::cell::RefCell;
use std::collections::HashMap;

use crate::api::{self, Compared, FileRef, RowId};
use crate::host::{self, Progress};
use crate::protocol::{self, InputFile};
use coglab_core::harness::eval_stream::EvalStream;
use coglab_core::kiva::RegenerationAnswers;
use coglab_core::leaderboard::detail::{
    compare_kiva, compare_mmiq, kiva_trials, mmiq_items, ItemsPage, TrialsPage,
};
use coglab_core::leaderboard::gold::GoldResult;
use coglab_core::leaderboard::mmopera::MmoperaComparison;
use coglab_core::leaderboard::{score_files_with, Detail, FileKind, InputRef, Prepared, Scored};
use coglab_core::mmiq::{KeyReader, MmiqError, MmiqFormat, PredictionsReader};

/// A KiVA row's run files: (path, bytes).
type RunFiles = Vec<(String, Vec<u8>)>;

thread_local! {
    /// The full reports of scored rows, by row id.
    static STORE: RefCell<HashMap<RowId, Detail>> = RefCell::new(HashMap::new());
    /// The run files (path, bytes) of KiVA model rows, by row id, for [`answers`].
    static KIVA_FILES: RefCell<HashMap<RowId, RunFiles>> = RefCell::new(HashMap::new());
    /// The next row id (ids are never reused while this worker lives).
    static NEXT_ID: RefCell<u64> = const { RefCell::new(1) };
}

const GONE: &str = "this row's item data is no longer in the scoring worker (scoring was \
                    cancelled, which restarts the worker): drop its files again";

/// Bytes read from the start of a file to detect its format.
const DETECT_HEAD: f64 = 8192.0;
/// Files up to this size are read whole when their start alone is not recognised (JSON).
const WHOLE_FOR_DETECT: f64 = 4.0 * 1024.0 * 1024.0;

/// Reads `blob`'s bytes from `start` to `end`.
async fn read_range(blob: &web_sys::Blob, start: f64, end: f64) -> Result<Vec<u8>, String> {
    let part = blob
        .slice_with_f64_and_f64(start, end)
        .map_err(|e| format!("{e:?}"))?;
    let buf = wasm_bindgen_futures::JsFuture::from(part.array_buffer())
        .await
        .map_err(|e| format!("{e:?}"))?;
    Ok(js_sys::Uint8Array::new(&buf).to_vec())
}

/// [`api::Detect`]: each file's format, from its first 8 KiB (core
/// [`coglab_core::leaderboard::detect`]), or from the whole file up to 4 MiB when its start
/// is not recognised (a JSON file's telling keys may come later). A file the browser cannot
/// read is [`FileKind::Unknown`]; one in UTF-16 or UTF-32 too, with a note naming its encoding.
///
/// # Errors
/// None today; the signature leaves room for a refusal of the whole request.
pub async fn detect(files: &[FileRef]) -> Result<Vec<api::Detected>, String> {
    let mut out = Vec::with_capacity(files.len());
    for f in files {
        let size = f.blob.size();
        let head = read_range(&f.blob, 0.0, DETECT_HEAD.min(size))
            .await
            .unwrap_or_default();
        let mut kind = coglab_core::leaderboard::detect(&f.name, &head);
        if kind == FileKind::Unknown && size > DETECT_HEAD && size <= WHOLE_FOR_DETECT {
            if let Ok(all) = read_range(&f.blob, 0.0, size).await {
                kind = coglab_core::leaderboard::detect(&f.name, &all);
            }
        }
        let note = (kind == FileKind::Unknown)
            .then(|| coglab_core::leaderboard::unreadable(&f.name, &head))
            .flatten();
        out.push(api::Detected { kind, note });
    }
    Ok(out)
}

/// Keeps the run files of the KiVA model rows among `details` (a few MB at most) for
/// [`answers`]; the rest of `files` is dropped.
fn keep_kiva_files(details: &[(RowId, Detail)], files: Vec<InputFile>) {
    let mut files: Vec<Option<InputFile>> = files.into_iter().map(Some).collect();
    KIVA_FILES.with_borrow_mut(|kept| {
        for (id, d) in details {
            let Detail::Kiva(r) = d else { continue };
            if r.source != coglab_core::kiva::Source::Model {
                continue;
            }
            let mine: RunFiles = files
                .iter_mut()
                .filter(|f| f.as_ref().is_some_and(|f| r.files.contains(&f.name)))
                .filter_map(Option::take)
                .map(|f| (f.name, f.bytes))
                .collect();
            kept.insert(*id, mine);
        }
    });
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

/// [`api::Score`]: reads the files as streams ([`protocol::read_files`]), parsing MM-IQ JSONL keys
/// and predictions piece by piece as they arrive ([`Parser`]; the browser reads ahead
/// meanwhile) and keeping the other files' bytes; then scores the batch with
/// [`score_files_with`], keeps the full reports and returns the summaries.
///
/// # Errors
/// A message for a file too large or one the browser cannot read (a file that does not parse
/// gets its located error in its [`coglab_core::leaderboard::FileStatus`] instead).
pub async fn score(args: api::Score, progress: &Progress) -> Result<Scored, String> {
    let files = args.files;
    host::refuse_large(&files)?;
    let total = host::blob_bytes(&files);
    // The heap is grown once for what is kept or parsed into records, not for Inspect `.eval`
    // logs: they are read one member at a time ([`EvalStream`]), and reserving their size
    // would grow the worker's memory (which never shrinks) by 256 MiB for a 500 MB log whose
    // largest sample is 250 KB (`tests/e2e/evalbench.test.mjs` measures it).
    let streamed: f64 = files
        .iter()
        .filter(|f| is_eval_log(&f.name))
        .map(|f| f.blob.size())
        .sum();
    host::reserve_heap(total - streamed);
    // Files are read as streams, each piece parsed as it arrives when the file is an MM-IQ
    // key or predictions JSONL ([`Parser`]), else kept.
    let mut read: Vec<InputFile> = files
        .iter()
        .map(|f| InputFile {
            name: f.name.clone(),
            bytes: Vec::new(),
        })
        .collect();
    let blobs: Vec<(usize, String, web_sys::Blob)> = files
        .into_iter()
        .enumerate()
        .map(|(i, f)| (i, f.name, f.blob))
        .collect();
    let named: Vec<(&str, &web_sys::Blob)> =
        blobs.iter().map(|(_, n, b)| (n.as_str(), b)).collect();
    // Where each file starts in the bytes of all of them (for the progress bar).
    let starts: Vec<f64> = blobs
        .iter()
        .scan(0.0, |at, (_, _, b)| {
            let start = *at;
            *at += b.size();
            Some(start)
        })
        .collect();
    let mut parsers: Vec<Option<Parser>> = read.iter().map(|_| None).collect();
    let mut no_memory = None;
    protocol::read_files(&named, |k, slice, done, size| {
        let (i, name) = (blobs[k].0, named[k].0);
        if done == slice.len() as f64 {
            // The first slice of this file: parse it as it arrives, or keep its bytes.
            let chosen = args.kinds.get(name).copied();
            parsers[i] = Parser::for_file(name, chosen, slice, size);
            if parsers[i].is_none() && read[i].bytes.try_reserve_exact(size as usize).is_err() {
                no_memory = Some(format!(
                    "{name}: not enough memory to read its {}",
                    protocol::megabytes(size)
                ));
            }
        }
        let go_on = match &mut parsers[i] {
            _ if no_memory.is_some() => false,
            Some(p) => p.push(slice),
            None => {
                read[i].bytes.extend_from_slice(slice);
                true
            }
        };
        progress.reading(name, starts[k] + done, total, done, size);
        go_on
    })
    .await?;
    if let Some(e) = no_memory {
        return Err(e);
    }
    let prepared: Vec<Option<Prepared>> =
        parsers.into_iter().map(|p| p.map(Parser::finish)).collect();
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
    let details = NEXT_ID.with_borrow_mut(|next| scored.split_details(next));
    keep_kiva_files(&details, read);
    STORE.with_borrow_mut(|s| s.extend(details));
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
        let kind = chosen.unwrap_or_else(|| coglab_core::leaderboard::detect(name, head));
        if kind == FileKind::Harness
            && coglab_core::harness::detect(name, head)
                == Some(coglab_core::harness::HarnessFormat::InspectEval)
        {
            // An Inspect log: one member at a time (a large one with each response reduced
            // to its MM-IQ letter as it is read, as MM-IQ JSONL is read lean).
            let lean = size > coglab_core::mmiq::LEAN_INPUT_BYTES as f64;
            return Some(Self {
                reader: Reader::Eval(Box::new(EvalStream::new(name, lean))),
                failed: None,
            });
        }
        let reader = match (kind, coglab_core::mmiq::detect(name, head)?) {
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

/// Runs `f` on the kept details of `rows` (in order), or says which row is gone.
///
/// # Errors
/// [`GONE`]'s message when a row is no longer kept.
pub fn with_details<R>(
    rows: &[RowId],
    f: impl FnOnce(&[&Detail]) -> Result<R, String>,
) -> Result<R, String> {
    STORE.with_borrow(|s| {
        let details = rows
            .iter()
            .map(|id| s.get(id).ok_or_else(|| GONE.to_string()))
            .collect::<Result<Vec<&Detail>, String>>()?;
        f(&details)
    })
}

/// [`api::Items`]: one page of an MM-IQ row's items.
///
/// # Errors
/// A message when the row is not an MM-IQ row or is no longer kept.
pub fn items(a: &api::Items) -> Result<ItemsPage, String> {
    STORE.with_borrow(|s| match s.get(&a.row) {
        Some(Detail::Mmiq(r)) => Ok(mmiq_items(r, &a.query)),
        Some(_) => Err("item pages are available for MM-IQ rows".into()),
        None => Err(GONE.into()),
    })
}

/// [`api::ItemsCsv`]: all of an MM-IQ row's items or a KiVA row's trials as CSV.
///
/// # Errors
/// A message when the row is of another benchmark or is no longer kept.
pub fn items_csv(a: &api::ItemsCsv) -> Result<String, String> {
    STORE.with_borrow(|s| match s.get(&a.row) {
        Some(Detail::Mmiq(r)) => Ok(coglab_core::leaderboard::detail::mmiq_items_csv(
            &a.model, r,
        )),
        Some(Detail::Kiva(r)) => Ok(coglab_core::leaderboard::detail::kiva_trials_csv(
            &a.model, r,
        )),
        Some(_) => Err("item downloads are available for MM-IQ and KiVA rows".into()),
        None => Err(GONE.into()),
    })
}

/// [`api::EeeExport`]: a scored MM-IQ or KiVA row as Every Eval Ever records, written by
/// [`coglab_core::harness::eee::write_mmiq`] or [`coglab_core::harness::eee::write_kiva`], the
/// functions `coglab export eee` (`--kiva`) calls on the same report (so the download equals the CLI's files for the same input, model name and
/// timestamp).
///
/// # Errors
/// A message when the row is of another benchmark, is no longer kept, or has no items (the
/// core's [`coglab_core::harness::HarnessError::Empty`]).
pub fn eee_export(a: &api::EeeExport) -> Result<coglab_core::harness::eee::EeeRecords, String> {
    STORE.with_borrow(|s| match s.get(&a.row) {
        Some(Detail::Mmiq(r)) => {
            coglab_core::harness::eee::write_mmiq(r, &a.model, &a.timestamp.to_string())
                .map_err(|e| e.to_string())
        }
        Some(Detail::Kiva(r)) => {
            coglab_core::harness::eee::write_kiva(r, &a.model, &a.timestamp.to_string())
                .map_err(|e| e.to_string())
        }
        Some(_) => Err("Every Eval Ever records are written for scored MM-IQ and KiVA rows".into()),
        None => Err(GONE.into()),
    })
}

/// [`api::ChallengeItems`]: one page of a KiVA challenge row's trials.
///
/// # Errors
/// A message when the row is not a KiVA challenge row or is no longer kept.
pub fn challenge_items(
    a: &api::ChallengeItems,
) -> Result<coglab_core::leaderboard::detail::ChallengePage, String> {
    STORE.with_borrow(|s| match s.get(&a.row) {
        Some(Detail::KivaChallenge(r)) => Ok(coglab_core::leaderboard::detail::challenge_items(
            r, &a.query,
        )),
        Some(_) => Err("challenge trial pages are available for KiVA challenge rows".into()),
        None => Err(GONE.into()),
    })
}

/// [`api::Trials`]: one page of a KiVA row's trials.
///
/// # Errors
/// A message when the row is not a KiVA row or is no longer kept.
pub fn trials(a: &api::Trials) -> Result<TrialsPage, String> {
    STORE.with_borrow(|s| match s.get(&a.row) {
        Some(Detail::Kiva(r)) => Ok(kiva_trials(r, &a.query)),
        Some(_) => Err("trial pages are available for KiVA rows".into()),
        None => Err(GONE.into()),
    })
}

/// [`api::Compare`]: two MM-IQ or two KiVA rows on their shared items.
///
/// # Errors
/// A message for rows of different benchmarks, rows no longer kept, or the core's.
pub fn compare(a: &api::Compare) -> Result<Compared, String> {
    let resamples = coglab_core::limits::check(
        "resamples",
        a.resamples,
        1,
        coglab_core::limits::MAX_RESAMPLES,
    )
    .map_err(|e| e.to_string())?;
    STORE.with_borrow(|s| match (s.get(&a.first), s.get(&a.second)) {
        (Some(Detail::Mmiq(x)), Some(Detail::Mmiq(y))) => {
            compare_mmiq(x, y, resamples, a.seed).map(|c| Compared::Mmiq(Box::new(c)))
        }
        (Some(Detail::Kiva(x)), Some(Detail::Kiva(y))) => {
            compare_kiva(x, y, resamples, a.seed).map(Compared::Kiva)
        }
        (Some(_), Some(_)) => Err("the two rows are from different benchmarks".into()),
        _ => Err(GONE.into()),
    })
}

/// [`api::Answers`]: the model's answers to one KiVA trial, read from the kept run file.
///
/// # Errors
/// A message when the row is not a KiVA model row, the subdomain has no run file, or the core's.
pub fn answers(a: &api::Answers) -> Result<Vec<RegenerationAnswers>, String> {
    KIVA_FILES.with_borrow(|k| {
        let files = k.get(&a.row).ok_or_else(|| {
            STORE.with_borrow(|s| match s.get(&a.row) {
                Some(_) => "answers are available for KiVA model runs".to_string(),
                None => GONE.to_string(),
            })
        })?;
        let (path, bytes) = files
            .iter()
            .find(|(p, _)| subdomain_of(p) == a.subdomain)
            .ok_or_else(|| format!("no run file of subdomain {:?} in this row", a.subdomain))?;
        coglab_core::kiva::trial_answers(path, bytes, a.variation).map_err(|e| e.to_string())
    })
}

/// [`api::Forget`]: drops kept rows.
pub fn forget(rows: &[RowId]) {
    STORE.with_borrow_mut(|s| {
        for id in rows {
            s.remove(id);
        }
    });
    KIVA_FILES.with_borrow_mut(|k| {
        for id in rows {
            k.remove(id);
        }
    });
}

/// Numbers `scored`'s rows (as [`score`] does) and keeps their reports; returns the ids of
/// the kept reports with a copy of each (for [`crate::ops_published`], whose rows get their
/// items later).
pub fn keep(scored: &mut Scored) -> Vec<(RowId, Detail)> {
    let details = NEXT_ID.with_borrow_mut(|next| scored.split_details(next));
    STORE.with_borrow_mut(|s| s.extend(details.iter().cloned()));
    details
}

/// Replaces the kept report of a row (a published row once its items are fetched).
pub fn replace(id: RowId, detail: Detail) {
    STORE.with_borrow_mut(|s| {
        s.insert(id, detail);
    });
}

/// [`api::MmoperaLengthBias`]: a kept MM-OPERA row's length bias under another threshold.
pub fn mmopera_length_bias(
    a: api::MmoperaLengthBias,
) -> Result<coglab_core::leaderboard::mmopera::LengthBiases, String> {
    STORE.with_borrow(|s| {
        let Some(Detail::Mmopera(row)) = s.get(&a.row) else {
            return Err(GONE.to_string());
        };
        let task = row
            .task(a.task)
            .ok_or_else(|| format!("{} has no {} scores", row.model, a.task.name()))?;
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
            return Err(format!(
                "{}'s answers are not in the published bundle: its length bias is shown at the \
                 threshold it was published with",
                row.model
            ));
        }
        Ok(at)
    })
}

/// [`api::MmoperaCompare`]: two MM-OPERA rows on one task, on the items both were judged on.
///
/// # Errors
/// A message for rows no longer kept or without scores on the task, or the core's.
pub fn mmopera_compare(a: api::MmoperaCompare) -> Result<MmoperaComparison, String> {
    let resamples = coglab_core::limits::check(
        "resamples",
        a.resamples,
        1,
        coglab_core::limits::MAX_RESAMPLES,
    )
    .map_err(|e| e.to_string())?;
    STORE.with_borrow(|s| {
        let (Some(Detail::Mmopera(x)), Some(Detail::Mmopera(y))) =
            (s.get(&a.first), s.get(&a.second))
        else {
            return Err(GONE.to_string());
        };
        let on = |r: &coglab_core::leaderboard::mmopera::MmoperaRow| {
            r.task(a.task).cloned().ok_or_else(|| {
                format!(
                    "{} has no {} scores: pick two models scored on {}",
                    r.model,
                    a.task.name(),
                    a.task.name()
                )
            })
        };
        coglab_core::leaderboard::mmopera::CompareArgs {
            models: [x.model.clone(), y.model.clone()],
            a: on(x)?,
            b: on(y)?,
            resamples,
            seed: a.seed,
        }
        .compare()
    })
}

/// [`api::GoldAnalyze`]: a kept Gold matrix under another task → layer assignment.
///
/// # Errors
/// The core's message.
pub fn gold_analyze(a: &api::GoldAnalyze) -> Result<GoldResult, String> {
    STORE.with_borrow(|s| match s.get(&a.row) {
        Some(Detail::Gold(m)) => coglab_core::leaderboard::gold::analyze(m, &a.assignment),
        Some(_) => Err("not a Gold row".into()),
        None => Err(GONE.into()),
    })
}

/// [`api::Rank`]: the kept rows ranked with paired tests ([`coglab_core::ranks::view::rank_board`]);
/// a row no longer kept or of another kind is left off with a note, never an error. A row in
/// `published` is ranked from that report (a published row filled from its rank file,
/// [`crate::ops_published::rank_details`]) rather than the kept one.
pub fn rank(
    a: &api::Rank,
    published: &HashMap<RowId, Detail>,
) -> coglab_core::ranks::view::RankBoard {
    use coglab_core::ranks::view::{rank_board, RankEntry, RankSource};
    let start = crate::ops_structure::now_ms();
    let mut board = STORE.with_borrow(|s| {
        KIVA_FILES.with_borrow(|k| {
            let entries: Vec<RankEntry<'_>> = a
                .rows
                .iter()
                .map(|(id, name)| RankEntry {
                    id: *id,
                    name,
                    source: match published.get(id).or_else(|| s.get(id)) {
                        Some(Detail::Mmiq(r)) => RankSource::Mmiq(r),
                        Some(Detail::Kiva(r)) => RankSource::Kiva {
                            report: r,
                            files: k.get(id).map(Vec::as_slice),
                        },
                        Some(Detail::Mmopera(r)) => RankSource::Mmopera(r),
                        Some(Detail::Gold(_) | Detail::KivaChallenge(_)) => RankSource::Other,
                        None => RankSource::Gone,
                    },
                })
                .collect();
            rank_board(&entries, &a.request)
        })
    });
    board.worker_ms = crate::ops_structure::now_ms() - start;
    board
}
