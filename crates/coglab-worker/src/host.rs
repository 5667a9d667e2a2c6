//! The worker side: runs `coglab-core` parsers and scorers off the main thread.
//!
//! Reads each [`Envelope`] posted by the page, runs its [`Request`] (the match in [`handle`] is
//! exhaustive, so every operation declared in [`crate::api`] has a handler) and posts
//! [`Message::Progress`] updates and one [`Message::Done`]. Requests run one after the other;
//! data they keep (scored rows, matrices) lives in this worker's memory under typed handles.

use crate::api::{self, Envelope, FileRef, Message, Reply, Request};
use crate::protocol::{self, InputFile};
use crate::{ops_items, ops_leaderboard, ops_published, ops_structure};
use coglab_core::leaderboard::{score_files_with, FileKind, InputRef, Prepared};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

/// Posts progress replies for one request.
pub struct Progress {
    id: u64,
    scope: DedicatedWorkerGlobalScope,
    /// When the last "reading" reply was posted (ms since the epoch).
    last_reading: Cell<f64>,
}

/// The least time between two "reading" progress replies (ms): a file arrives in hundreds of
/// pieces, and each reply redraws the page's progress bar.
const READING_EVERY_MS: f64 = 100.0;

impl Progress {
    /// Reports `done` of `total` units for `label` (e.g. a file name).
    pub fn report(&self, done: f64, total: f64, label: &str) {
        post(
            &self.scope,
            &Message::Progress {
                id: self.id,
                done,
                total,
                label: label.to_string(),
            },
        );
    }

    /// Reports reading `name`: `done` of `total` bytes over all the files read, `file_done` of
    /// its `file_size` bytes in the label.
    /// At most one reply per [`READING_EVERY_MS`], and always the end of each file.
    pub fn reading(&self, name: &str, done: f64, total: f64, file_done: f64, file_size: f64) {
        let now = js_sys::Date::now();
        if file_done >= file_size || now - self.last_reading.get() >= READING_EVERY_MS {
            self.last_reading.set(now);
            self.report(
                done,
                total,
                &protocol::reading_label(name, file_done, file_size),
            );
        }
    }
}

fn post(scope: &DedicatedWorkerGlobalScope, message: &Message) {
    match api::to_js(message) {
        Ok(value) => {
            let _ = scope.post_message(&value);
        }
        Err(e) => {
            // A reply that cannot be represented still ends its request, with the reason.
            if let Message::Done { id, .. } = message {
                let fallback = Message::Done {
                    id: *id,
                    result: Err(format!("the worker could not send its result: {e}")),
                };
                if let Ok(value) = api::to_js(&fallback) {
                    let _ = scope.post_message(&value);
                }
            }
        }
    }
}

/// Reads the one file a request names ([`load`] of one).
///
/// # Errors
/// As [`load`].
pub async fn load_one(file: &FileRef, progress: &Progress) -> Result<InputFile, String> {
    let read = load(std::slice::from_ref(file), progress).await?;
    read.into_iter()
        .next()
        .ok_or_else(|| "no file given".to_string())
}

/// Reads files whole, in slices, with a progress reply per slice ("reading NAME: N of M MB",
/// done/total in bytes over all the files read).
///
/// # Errors
/// [`protocol::too_large`]'s message before anything is read, or a message naming the file
/// the browser could not read.
pub async fn load(files: &[FileRef], progress: &Progress) -> Result<Vec<InputFile>, String> {
    refuse_large(files)?;
    let total = blob_bytes(files);
    let mut before = 0.0;
    let mut out = Vec::with_capacity(files.len());
    for f in files {
        let size = f.blob.size();
        let bytes = protocol::read_blob(&f.name, &f.blob, |done, _| {
            progress.reading(&f.name, before + done, total, done, size)
        })
        .await?;
        before += size;
        out.push(InputFile {
            name: f.name.clone(),
            bytes,
        });
    }
    Ok(out)
}

/// The bytes of all the files of a request.
pub fn blob_bytes(files: &[FileRef]) -> f64 {
    files.iter().map(|f| f.blob.size()).sum()
}

/// Grows the heap once by `bytes` (at most [`RESERVE_MAX`]) before a large parse, so that the
/// allocator does not grow the wasm memory in 64 KiB steps while the parse runs: in the
/// browser each `memory.grow` is costly, and with them reading a 100,000-response MM-IQ file
/// took about 1.6 times as long. The memory stays with the allocator for the parse to use
/// (wasm memory never shrinks). Does nothing when the memory cannot be had.
pub fn reserve_heap(bytes: f64) {
    let mut room = Vec::<u8>::new();
    let _ = room.try_reserve_exact(bytes.min(RESERVE_MAX) as usize);
}

/// The size in bytes of this worker's wasm linear memory (`WebAssembly.Memory`'s buffer), 0
/// when it cannot be read. It only grows, so it is the peak so far.
pub fn wasm_memory_bytes() -> f64 {
    wasm_bindgen::memory()
        .dyn_into::<js_sys::WebAssembly::Memory>()
        .ok()
        .and_then(|m| m.buffer().dyn_into::<js_sys::ArrayBuffer>().ok())
        .map_or(0.0, |b| f64::from(b.byte_length()))
}

/// The most [`reserve_heap`] reserves (256 MiB).
const RESERVE_MAX: f64 = (256u64 << 20) as f64;

/// Refuses a request before reading anything when one of its files is too large.
///
/// # Errors
/// [`protocol::too_large`]'s message.
pub fn refuse_large(files: &[FileRef]) -> Result<(), String> {
    for f in files {
        if f.blob.size() > protocol::MAX_FILE_BYTES {
            return Err(protocol::too_large(&f.name, f.blob.size()));
        }
    }
    Ok(())
}

/// Runs one request.
async fn handle(request: Request, progress: &Progress) -> Result<Reply, String> {
    api::check_limits(&request)?;
    Ok(match request {
        Request::Warm(_) => {
            warm_up();
            Reply::Warm(())
        }
        Request::Detect(r) => Reply::Detect(ops_leaderboard::detect(&r.files).await?),
        Request::Score(r) => Reply::Score(ops_leaderboard::score(r, progress).await?),
        Request::Items(r) => {
            ops_published::ensure(&[r.row]).await?;
            Reply::Items(ops_leaderboard::items(&r)?)
        }
        Request::ChallengeItems(r) => Reply::ChallengeItems(ops_leaderboard::challenge_items(&r)?),
        Request::Trials(r) => {
            ops_published::ensure(&[r.row]).await?;
            Reply::Trials(ops_leaderboard::trials(&r)?)
        }
        Request::ItemsCsv(r) => {
            ops_published::ensure(&[r.row]).await?;
            Reply::ItemsCsv(ops_leaderboard::items_csv(&r)?)
        }
        Request::EeeExport(r) => {
            ops_published::ensure(&[r.row]).await?;
            Reply::EeeExport(ops_leaderboard::eee_export(&r)?)
        }
        Request::Compare(r) => {
            ops_published::ensure(&[r.first, r.second]).await?;
            Reply::Compare(ops_leaderboard::compare(&r)?)
        }
        Request::Answers(r) => Reply::Answers(ops_leaderboard::answers(&r)?),
        Request::Forget(r) => {
            ops_leaderboard::forget(&r.rows);
            Reply::Forget(())
        }
        Request::MmoperaCompare(r) => {
            ops_published::ensure(&[r.first, r.second]).await?;
            Reply::MmoperaCompare(ops_leaderboard::mmopera_compare(r)?)
        }
        Request::MmoperaLengthBias(r) => {
            Reply::MmoperaLengthBias(ops_leaderboard::mmopera_length_bias(r)?)
        }
        Request::GoldAnalyze(r) => Reply::GoldAnalyze(ops_leaderboard::gold_analyze(&r)?),
        Request::SemLoad(r) => Reply::SemLoad(ops_structure::load(&r.file, progress).await?),
        Request::SemSpec(r) => Reply::SemSpec(ops_structure::spec(&r.file, progress).await?),
        Request::SemSaved(r) => Reply::SemSaved(ops_structure::saved(&r, progress).await?),
        Request::SemLoadText(r) => Reply::SemLoadText(ops_structure::load_text(&r.name, &r.text)?),
        Request::SemAnalyze(r) => Reply::SemAnalyze(ops_structure::analyze(&r, progress)?),
        Request::SemRange(r) => Reply::SemRange(ops_structure::range(&r)?),
        Request::SelftestFolder(r) => Reply::SelftestFolder(selftest_folder(&r, progress).await?),
        Request::ReviewBuild(r) => {
            let files: Vec<(String, Vec<u8>)> = load(&r.files, progress)
                .await?
                .into_iter()
                .map(|f| (f.name, f.bytes))
                .collect();
            Reply::ReviewBuild(coglab_core::review::build_sets(&files))
        }
        Request::ReviewImport(r) => {
            let f = load_one(&r.file, progress).await?;
            Reply::ReviewImport(coglab_core::review::records::import(&f.name, &f.bytes)?)
        }
        Request::ItemAnalysis(r) => Reply::ItemAnalysis(api::Packed(ops_items::item_analysis(&r)?)),
        Request::ItemCurves(r) => Reply::ItemCurves(ops_items::curves(&r)?),
        Request::GoldTable(r) => Reply::GoldTable(coglab_core::leaderboard::gold::score_table(
            &r.labels, &r.columns, &r.values,
        )?),
        Request::Rank(r) => {
            let ids: Vec<u64> = r.rows.iter().map(|(id, _)| *id).collect();
            // Published rows from their benchmark's rank file (one request for all of them);
            // the others from their kept reports (chunks fetched for a bundle without one).
            let only = match (r.request.bench, r.request.task) {
                (coglab_core::ranks::Bench::Mmopera, Some(coglab_core::mmopera::Task::Ria)) => {
                    Some(coglab_core::publish::Benchmark::MmoperaRia)
                }
                (coglab_core::ranks::Bench::Mmopera, Some(coglab_core::mmopera::Task::Ica)) => {
                    Some(coglab_core::publish::Benchmark::MmoperaIca)
                }
                _ => None,
            };
            let published = ops_published::rank_details(&ids, only).await?;
            let rest: Vec<u64> = ids
                .into_iter()
                .filter(|id| !published.contains_key(id))
                .collect();
            ops_published::ensure(&rest).await?;
            Reply::Rank(ops_leaderboard::rank(&r, &published))
        }
        Request::Published(r) => Reply::Published(ops_published::load(&r.base).await?),
        Request::WorkerMemory(_) => Reply::WorkerMemory(wasm_memory_bytes()),
        Request::Reproduce(r) => {
            ops_published::ensure(&[r.published]).await?;
            Reply::Reproduce(ops_published::reproduce(&r)?)
        }
    })
}

/// [`api::SelftestFolder`]: reads the trial-tracker files and builds the session
/// (`coglab_core::selftest::stimuli::session_from_folder`).
///
/// # Errors
/// The browser's message for an unreadable file, or the core's located message.
async fn selftest_folder(
    r: &api::SelftestFolder,
    progress: &Progress,
) -> Result<coglab_core::selftest::Session, String> {
    let read = load(&r.trackers, progress).await?;
    let mut texts = Vec::with_capacity(read.len());
    for f in read {
        let text = String::from_utf8(f.bytes).map_err(|e| {
            format!(
                "{}: not UTF-8 text (byte {})",
                f.name,
                e.utf8_error().valid_up_to()
            )
        })?;
        texts.push((f.name, text));
    }
    coglab_core::selftest::stimuli::session_from_folder(&r.paths, &texts, r.seed)
        .map_err(|e| e.to_string())
}

thread_local! {
    /// Requests received while another one runs (reading a file awaits the browser), handled
    /// in order once it has finished.
    static QUEUE: RefCell<VecDeque<JsValue>> = const { RefCell::new(VecDeque::new()) };
    /// Whether a request is being handled.
    static RUNNING: Cell<bool> = const { Cell::new(false) };
}

/// Handles the queued requests one after the other, posting each one's final reply.
async fn drain(scope: DedicatedWorkerGlobalScope) {
    while let Some(data) = QUEUE.with_borrow_mut(VecDeque::pop_front) {
        let (id, result) = match api::from_js::<Envelope>(data) {
            Ok(envelope) => {
                let progress = Progress {
                    id: envelope.id,
                    scope: scope.clone(),
                    last_reading: Cell::new(f64::NEG_INFINITY),
                };
                (envelope.id, handle(envelope.request, &progress).await)
            }
            Err(e) => (0, Err(format!("worker request: {e}"))),
        };
        post(&scope, &Message::Done { id, result });
    }
    RUNNING.set(false);
}

/// Serves requests in this worker until it is terminated: installs the message handler and
/// posts [`Message::Ready`]. Called once, by the worker module's start.
pub fn serve() {
    console_error_panic_hook::set_once();
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let reply_scope = scope.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        QUEUE.with_borrow_mut(|q| q.push_back(event.data()));
        if !RUNNING.replace(true) {
            wasm_bindgen_futures::spawn_local(drain(reply_scope.clone()));
        }
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post(&scope, &Message::Ready);
}

/// [`api::Warm`]: runs the path of an MM-IQ "Score" request ([`ops_leaderboard::score`] after
/// the reading: line readers, `score_files_with`, the kept details, the reply's conversion)
/// [`WARM_ROUNDS`] times on a few thousand made-up lines, so that the browser has compiled
/// their optimised code before the user's files arrive (the leaderboard asks for it when files
/// are staged). Takes a few tens of milliseconds, off the page's thread.
///
/// Why rounds: WebAssembly functions start in V8's baseline compiler and are optimised once
/// they have run for a while, and a call already running keeps its code. A function called once
/// per request with a loop over every row (scoring, the key's index, the reply's conversion)
/// therefore ran the user's whole file in baseline code unless earlier calls had used up its
/// budget: one round of 3,000 lines did not. With every function compiled optimised up front
/// (Chromium's `--no-wasm-dynamic-tiering`, for comparison only) the worker spent about 65 ms
/// less on the 100k benchmark (`tests/e2e/leaderboard.test.mjs`); BENCHMARKS.md has what the
/// rounds give.
fn warm_up() {
    const LINES: u64 = 3000;
    let mut key = String::new();
    let mut preds = String::new();
    for id in 0..LINES {
        let letter = ["A", "B", "C", "D"][(id % 4) as usize];
        key.push_str(&format!(
            "{{\"category\": \"Mathematical\", \"MD5\": \"{id:032x}\", \"data_id\": {id}, \"answer\": \"{letter}\"}}\n"
        ));
        preds.push_str(&format!(
            "{{\"data_id\": {id}, \"category\": \"Mathematical\", \"response\": \"{}\\n\\nTherefore, the answer is {letter}.\"}}\n",
            "Each row applies the same rule to the shapes; the count grows by one. ".repeat(4)
        ));
    }
    let inputs = [
        InputRef {
            path: "warm-up key",
            bytes: &[],
            model: None,
        },
        InputRef {
            path: "warm-up",
            bytes: &[],
            model: Some("warm-up"),
        },
    ];
    let chosen = [Some(FileKind::MmiqKey), Some(FileKind::MmiqPredictions)];
    for _ in 0..WARM_ROUNDS {
        let mut k = coglab_core::mmiq::KeyReader::new("warm-up key");
        // Read lean, as a large file is.
        let mut p = coglab_core::mmiq::PredictionsReader::new("warm-up", usize::MAX);
        if k.push(key.as_bytes()).is_err() || p.push(preds.as_bytes()).is_err() {
            return;
        }
        let prepared = vec![
            Some(Prepared::MmiqKey(k.finish())),
            Some(Prepared::MmiqPredictions(p.finish())),
        ];
        let mut scored = score_files_with(&inputs, &chosen, prepared, |_, _, _| {});
        let mut next = 0;
        drop(scored.split_details(&mut next));
        let _ = api::to_js(&Message::Done {
            id: 0,
            result: Ok(Reply::Score(scored)),
        });
    }
}

/// How many times [`warm_up`] runs the scoring path.
const WARM_ROUNDS: usize = 5;
