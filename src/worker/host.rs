//! The worker side: runs `coglab-core` parsers and scorers off the main thread.
//!
//! Each request names an operation `"<domain>.<name>"`; the domain picks the module:
//! `sys` (built in), and one module per feature area, each owning its operations
//! ([`super::ops_leaderboard`], [`super::ops_structure`]).

use super::protocol::{self, FileSource, InputFile, Output, RequestFile};
use super::{ops_leaderboard, ops_structure};
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
        let _ = self
            .scope
            .post_message(&protocol::progress(self.id, done, total, label));
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

/// Runs one operation. Returns its result, or a readable error message.
fn dispatch(
    op: &str,
    args: &str,
    files: Vec<InputFile>,
    progress: &Progress,
) -> Result<Output, String> {
    let (domain, name) = op.split_once('.').unwrap_or((op, ""));
    match domain {
        "sys" => sys(name, args, &files, progress).map(Output::Json),
        "lb" => ops_leaderboard::run(name, args, &files),
        "sem" => ops_structure::run(name, args, files, progress),
        _ => Err(format!("unknown worker operation {op:?}")),
    }
}

/// Built-in operations: `sys.ping` echoes its arguments; `sys.sizes` lists the files' sizes;
/// `sys.warm` warms up the MM-IQ reader ([`warm_up`]).
fn sys(name: &str, args: &str, files: &[InputFile], progress: &Progress) -> Result<String, String> {
    match name {
        "ping" => Ok(args.to_string()),
        "warm" => {
            warm_up();
            Ok("null".into())
        }
        "sizes" => {
            let total = files.len() as f64;
            #[derive(serde::Serialize)]
            struct Size<'a> {
                name: &'a str,
                bytes: usize,
            }
            let mut out = Vec::new();
            for (i, f) in files.iter().enumerate() {
                out.push(Size {
                    name: &f.name,
                    bytes: f.bytes.len(),
                });
                progress.report(i as f64 + 1.0, total, &f.name);
            }
            serde_json::to_string(&out).map_err(|e| e.to_string())
        }
        _ => Err(format!("unknown worker operation \"sys.{name}\"")),
    }
}

/// Reads a request's files: transferred bytes as they are, `File`s in slices with a progress
/// reply per slice ("reading NAME: N of M MB", done/total in bytes over all the files read).
async fn load(files: Vec<RequestFile>, progress: &Progress) -> Result<Vec<InputFile>, String> {
    refuse_large(&files)?;
    let total = blob_bytes(&files);
    let mut before = 0.0;
    let mut out = Vec::with_capacity(files.len());
    for f in files {
        let bytes = match f.source {
            FileSource::Bytes(b) => b,
            FileSource::Blob(blob) => {
                let size = blob.size();
                let b = protocol::read_blob(&f.name, &blob, |done, _| {
                    progress.reading(&f.name, before + done, total, done, size)
                })
                .await?;
                before += size;
                b
            }
        };
        out.push(InputFile {
            name: f.name,
            bytes,
        });
    }
    Ok(out)
}

/// The bytes of all the `File`s of a request (transferred bytes count 0: they are read).
pub fn blob_bytes(files: &[RequestFile]) -> f64 {
    files
        .iter()
        .map(|f| match &f.source {
            FileSource::Blob(b) => b.size(),
            FileSource::Bytes(_) => 0.0,
        })
        .sum()
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

/// The most [`reserve_heap`] reserves (256 MiB).
const RESERVE_MAX: f64 = (256u64 << 20) as f64;

/// Refuses a request before reading anything when one of its files is too large.
///
/// # Errors
/// [`protocol::too_large`]'s message.
pub fn refuse_large(files: &[RequestFile]) -> Result<(), String> {
    for f in files {
        if let FileSource::Blob(b) = &f.source {
            if b.size() > protocol::MAX_FILE_BYTES {
                return Err(protocol::too_large(&f.name, b.size()));
            }
        }
    }
    Ok(())
}

/// Runs one request: `lb.score` reads its own files (parsing them as they arrive); other
/// operations get their files read first.
async fn handle(req: protocol::Request, progress: &Progress) -> Result<Output, String> {
    if req.op == "lb.score" {
        return ops_leaderboard::score(&req.args, req.files, progress).await;
    }
    let files = load(req.files, progress).await?;
    dispatch(&req.op, &req.args, files, progress)
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
        let (id, result) = match protocol::read_request(&data) {
            Ok(req) => {
                let progress = Progress {
                    id: req.id,
                    scope: scope.clone(),
                    last_reading: Cell::new(f64::NEG_INFINITY),
                };
                (req.id, handle(req, &progress).await)
            }
            Err(e) => (0, Err(e)),
        };
        let _ = scope.post_message(&protocol::finished(id, &result));
    }
    RUNNING.set(false);
}

/// Whether this code runs inside a dedicated worker (rather than a page's window).
pub fn in_worker() -> bool {
    js_sys::global().is_instance_of::<DedicatedWorkerGlobalScope>()
}

/// Serves requests in this worker until it is terminated: installs the message handler and
/// posts "ready". Call once, from the app module's start when [`in_worker`] holds.
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
    let _ = scope.post_message(&protocol::ready());
}

/// `sys.warm`: runs the MM-IQ line reader and scorer once on a few thousand made-up lines, so
/// that the browser has compiled their optimised code before the user's files arrive (the
/// leaderboard asks for it when files are staged). WebAssembly functions start in a quick
/// baseline compiler and are optimised only once they have run for a while: without this the
/// first large file was read by the baseline code, about 30% slower. Takes a few
/// milliseconds, off the page's thread.
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
    let mut k = coglab_core::mmiq::KeyReader::new("warm-up key");
    // Read lean, as a large file is.
    let mut p = coglab_core::mmiq::PredictionsReader::new("warm-up", usize::MAX);
    if k.push(key.as_bytes()).is_ok() && p.push(preds.as_bytes()).is_ok() {
        if let (Ok(k), Ok(p)) = (k.finish(), p.finish()) {
            let _ = coglab_core::mmiq::score_owned(&k, p);
        }
    }
}
