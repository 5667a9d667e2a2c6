//! The worker side: runs `coglab-core` parsers and scorers off the main thread.
//!
//! [`serve`] reads each [`Envelope`] posted by the page and runs its [`Request`] (the match in
//! [`handle`] is exhaustive, so every operation declared in [`crate::api`] has a handler),
//! posting [`Message::Progress`] updates and one [`Message::Done`]. Requests run one after the
//! other, each handed the one [`WorkerState`] the serving loop owns: the data kept between
//! requests (scored rows, matrices, the published bundle's sources, the item analysis) has that
//! one owner, and the operations are functions over it.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;

use crate::api::{self, Envelope, Message, Reply, Request, RowId, WorkerError};
use crate::io::{self, Progress};
use crate::state::WorkerState;
use crate::{lifeline, ops_items, ops_leaderboard, ops_published, ops_quality, ops_structure};
use coglab_core::leaderboard::{score_files_with, FileKind, InputRef, Prepared};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

/// Runs one request over the worker's state.
async fn handle(
    state: &mut WorkerState,
    request: Request,
    progress: &Progress,
) -> Result<Reply, WorkerError> {
    use ops_leaderboard as lb;
    api::check_limits(&request)?;
    Ok(match request {
        Request::Warm(_) => {
            warm_up();
            Reply::Warm(())
        }
        Request::Detect(r) => Reply::Detect(lb::detect(&r.files).await?),
        Request::Score(r) => Reply::Score(lb::score(state, r, progress).await?),
        Request::Items(r) => {
            ops_published::ensure(state, &[r.row]).await?;
            Reply::Items(lb::items(state, &r)?)
        }
        Request::ChallengeItems(r) => Reply::ChallengeItems(lb::challenge_items(state, &r)?),
        Request::Trials(r) => {
            ops_published::ensure(state, &[r.row]).await?;
            Reply::Trials(lb::trials(state, &r)?)
        }
        Request::ItemsCsv(r) => {
            ops_published::ensure(state, &[r.row]).await?;
            Reply::ItemsCsv(lb::items_csv(state, &r)?)
        }
        Request::EeeExport(r) => {
            ops_published::ensure(state, &[r.row]).await?;
            Reply::EeeExport(lb::eee_export(state, &r)?)
        }
        Request::HfExport(r) => {
            ops_published::ensure(state, &[r.row]).await?;
            Reply::HfExport(lb::hf_export(state, &r)?)
        }
        Request::Compare(r) => {
            ops_published::ensure(state, &[r.first, r.second]).await?;
            Reply::Compare(lb::compare(state, &r)?)
        }
        Request::Answers(r) => Reply::Answers(lb::answers(state, &r)?),
        Request::Forget(r) => {
            state.forget(&r.rows);
            Reply::Forget(())
        }
        Request::MmoperaCompare(r) => {
            ops_published::ensure(state, &[r.first, r.second]).await?;
            Reply::MmoperaCompare(lb::mmopera_compare(state, &r)?)
        }
        Request::MmoperaLengthBias(r) => {
            Reply::MmoperaLengthBias(lb::mmopera_length_bias(state, &r)?)
        }
        Request::GoldAnalyze(r) => Reply::GoldAnalyze(lb::gold_analyze(state, &r)?),
        Request::SemLoad(r) => Reply::SemLoad(ops_structure::load(state, &r.file, progress).await?),
        Request::SemSpec(r) => Reply::SemSpec(ops_structure::spec(&r.file, progress).await?),
        Request::SemSaved(r) => Reply::SemSaved(ops_structure::saved(state, &r, progress).await?),
        Request::SemLoadText(r) => {
            Reply::SemLoadText(ops_structure::load_text(state, &r.name, &r.text)?)
        }
        Request::SemAnalyze(r) => Reply::SemAnalyze(ops_structure::analyze(state, &r, progress)?),
        Request::SemRange(r) => Reply::SemRange(ops_structure::range(state, &r)?),
        Request::SelftestFolder(r) => Reply::SelftestFolder(selftest_folder(&r, progress).await?),
        Request::ReviewBuild(r) => {
            let files: Vec<(String, Vec<u8>)> = io::load(&r.files, progress)
                .await?
                .into_iter()
                .map(|f| (f.name, f.bytes))
                .collect();
            Reply::ReviewBuild(coglab_core::review::build_sets(&files))
        }
        Request::ReviewImport(r) => {
            let f = io::load_one(&r.file, progress).await?;
            Reply::ReviewImport(coglab_core::review::records::import(&f.name, &f.bytes)?)
        }
        Request::ItemAnalysis(r) => Reply::ItemAnalysis(ops_items::item_analysis(state, &r)?),
        Request::ItemCurves(r) => Reply::ItemCurves(ops_items::curves(state, &r)?),
        Request::GoldTable(r) => Reply::GoldTable(coglab_core::leaderboard::gold::score_table(
            &r.labels, &r.columns, &r.values,
        )?),
        Request::Rank(r) => {
            let ids: Vec<RowId> = r.rows.iter().map(|(id, _)| *id).collect();
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
            let published = ops_published::rank_details(state, &ids, only).await?;
            let rest: Vec<RowId> = ids
                .into_iter()
                .filter(|id| !published.contains_key(id))
                .collect();
            ops_published::ensure(state, &rest).await?;
            Reply::Rank(lb::rank(state, &r, &published))
        }
        Request::Estimates(r) => {
            ops_published::ensure(state, &ops_quality::ids(&r.rows)).await?;
            Reply::Estimates(ops_quality::estimates(state, &r)?)
        }
        Request::Planner(r) => {
            ops_published::ensure(state, &ops_quality::ids(&r.rows)).await?;
            Reply::Planner(ops_quality::planner(state, &r)?)
        }
        Request::Quality(r) => {
            ops_published::ensure(state, &ops_quality::ids(&r.rows)).await?;
            Reply::Quality(ops_quality::quality(state, &r)?)
        }
        Request::Published(r) => Reply::Published(ops_published::load(state, &r.base).await?),
        Request::WorkerMemory(_) => Reply::WorkerMemory(io::wasm_memory_bytes()),
        Request::Reproduce(r) => {
            ops_published::ensure(state, &[r.published]).await?;
            Reply::Reproduce(ops_published::reproduce(state, &r)?)
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
) -> Result<coglab_core::selftest::Session, WorkerError> {
    let read = io::load(&r.trackers, progress).await?;
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
    Ok(
        coglab_core::selftest::stimuli::session_from_folder(&r.paths, &texts, r.seed)
            .map_err(|e| e.to_string())?,
    )
}

/// The serving loop's own data: the requests waiting, whether one runs, and the worker's state.
struct Server {
    scope: DedicatedWorkerGlobalScope,
    /// Requests received while another one runs (reading a file awaits the browser), handled
    /// in order once it has finished.
    queue: RefCell<VecDeque<JsValue>>,
    /// Whether a request is being handled.
    running: Cell<bool>,
    /// What this worker keeps; taken out while a request runs, which has it alone.
    state: RefCell<WorkerState>,
}

impl Server {
    /// Handles the queued requests one after the other, posting each one's final reply.
    async fn drain(self: Rc<Self>) {
        loop {
            // Taken out before the request runs: a message that comes meanwhile is queued.
            let next = self.queue.borrow_mut().pop_front();
            let Some(data) = next else { break };
            let (id, result) = match api::from_js::<Envelope>(data) {
                Ok(envelope) => {
                    let progress = Progress::new(envelope.id, self.scope.clone());
                    let mut state = self.state.take();
                    let result = handle(&mut state, envelope.request, &progress).await;
                    self.state.replace(state);
                    (envelope.id, result)
                }
                Err(e) => (0, Err(WorkerError::Browser(format!("worker request: {e}")))),
            };
            io::post(&self.scope, &Message::Done { id, result });
        }
        self.running.set(false);
    }
}

/// Serves requests in this worker until it is terminated: its generation from its name
/// ([`lifeline::generation_of`]; 1 without one), the message handler installed, and
/// [`Message::Ready`] posted once it holds its lifeline lock ([`lifeline::hold`]). Called
/// once, by the worker module's start.
pub fn serve() {
    console_error_panic_hook::set_once();
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let name = scope.name();
    let generation = lifeline::generation_of(&name).unwrap_or(1);
    let server = Rc::new(Server {
        scope: scope.clone(),
        queue: RefCell::default(),
        running: Cell::new(false),
        state: RefCell::new(WorkerState::new(generation)),
    });
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        server.queue.borrow_mut().push_back(event.data());
        if !server.running.replace(true) {
            wasm_bindgen_futures::spawn_local(server.clone().drain());
        }
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    lifeline::hold(&name, move || io::post(&scope, &Message::Ready));
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
        drop(scored.split_details(&mut RowId::default()));
        let _ = api::to_js(&Message::Done {
            id: 0,
            result: Ok::<_, WorkerError>(Reply::Score(scored)),
        });
    }
}

/// How many times [`warm_up`] runs the scoring path.
const WARM_ROUNDS: usize = 5;
