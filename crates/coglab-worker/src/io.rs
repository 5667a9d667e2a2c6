//! The worker's dealings with the browser, apart from the state it keeps: progress replies,
//! reading the files a request names, fetching a published bundle's files, the heap, the
//! clock. The operations ([`crate::ops_leaderboard`] and the others) call these; the kept data
//! is [`crate::state::WorkerState`], which needs none of them and is tested natively.

use std::cell::Cell;

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::DedicatedWorkerGlobalScope;

use crate::api::{self, FileRef, Message, WorkerError};
use crate::protocol::{self, InputFile};

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
    /// Progress replies of request `id`, posted from `scope`.
    pub fn new(id: u64, scope: DedicatedWorkerGlobalScope) -> Self {
        Self {
            id,
            scope,
            last_reading: Cell::new(f64::NEG_INFINITY),
        }
    }

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

    /// Reports `done` of `total` with the label `label` makes, at most once per
    /// [`READING_EVERY_MS`] (a decoding step that runs hundreds of times).
    pub fn throttled(&self, done: f64, total: f64, label: impl FnOnce() -> String) {
        let now = js_sys::Date::now();
        if now - self.last_reading.get() >= READING_EVERY_MS {
            self.last_reading.set(now);
            self.report(done, total, &label());
        }
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

/// Posts `message` to the page. A reply that cannot be represented still ends its request,
/// with the reason.
pub fn post(scope: &DedicatedWorkerGlobalScope, message: &Message) {
    match api::to_js(message) {
        Ok(value) => {
            let _ = scope.post_message(&value);
        }
        Err(e) => {
            if let Message::Done { id, .. } = message {
                let fallback: Message = Message::Done {
                    id: *id,
                    result: Err(WorkerError::Browser(format!(
                        "the worker could not send its result: {e}"
                    ))),
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
pub async fn load_one(file: &FileRef, progress: &Progress) -> Result<InputFile, WorkerError> {
    let read = load(std::slice::from_ref(file), progress).await?;
    read.into_iter()
        .next()
        .ok_or_else(|| WorkerError::Input("no file given".into()))
}

/// Reads files whole, in slices, with a progress reply per slice ("reading NAME: N of M MB",
/// done/total in bytes over all the files read).
///
/// # Errors
/// [`WorkerError::TooLarge`] before anything is read, or [`WorkerError::Browser`] naming the
/// file the browser could not read.
pub async fn load(files: &[FileRef], progress: &Progress) -> Result<Vec<InputFile>, WorkerError> {
    refuse_large(files)?;
    let total = blob_bytes(files);
    let mut before = 0.0;
    let mut out = Vec::with_capacity(files.len());
    for f in files {
        let size = f.blob.size();
        let bytes = protocol::read_blob(&f.name, &f.blob, |done, _| {
            progress.reading(&f.name, before + done, total, done, size)
        })
        .await
        .map_err(WorkerError::Browser)?;
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

/// Refuses a request before reading anything when one of its files is too large.
///
/// # Errors
/// [`WorkerError::TooLarge`] for the first file above [`protocol::MAX_FILE_BYTES`].
pub fn refuse_large(files: &[FileRef]) -> Result<(), WorkerError> {
    match files
        .iter()
        .find(|f| f.blob.size() > protocol::MAX_FILE_BYTES)
    {
        Some(f) => Err(WorkerError::TooLarge {
            file: f.name.clone(),
            size: f.blob.size(),
        }),
        None => Ok(()),
    }
}

/// Reads `blob`'s bytes from `start` to `end`.
///
/// # Errors
/// The browser's message.
pub async fn read_range(blob: &web_sys::Blob, start: f64, end: f64) -> Result<Vec<u8>, String> {
    let part = blob
        .slice_with_f64_and_f64(start, end)
        .map_err(|e| format!("{e:?}"))?;
    let buf = JsFuture::from(part.array_buffer())
        .await
        .map_err(|e| format!("{e:?}"))?;
    Ok(js_sys::Uint8Array::new(&buf).to_vec())
}

/// `GET url` from the worker, as text; `Ok(None)` on HTTP 404 (no bundle published).
///
/// # Errors
/// [`WorkerError::Browser`] naming the URL.
pub async fn get(url: &str) -> Result<Option<String>, WorkerError> {
    let fail = |m: String| WorkerError::Browser(m);
    let scope: web_sys::WorkerGlobalScope = js_sys::global()
        .dyn_into()
        .map_err(|_| fail("not running in a worker".into()))?;
    let resp = JsFuture::from(scope.fetch_with_str(url))
        .await
        .map_err(|e| fail(format!("{url}: request failed: {e:?}")))?;
    let resp: web_sys::Response = resp
        .dyn_into()
        .map_err(|_| fail(format!("{url}: not an HTTP response")))?;
    if resp.status() == 404 {
        return Ok(None);
    }
    if !resp.ok() {
        return Err(fail(format!(
            "{url}: HTTP {} {}",
            resp.status(),
            resp.status_text()
        )));
    }
    let text = JsFuture::from(resp.text().map_err(|e| fail(format!("{url}: {e:?}")))?)
        .await
        .map_err(|e| fail(format!("{url}: {e:?}")))?;
    text.as_string()
        .map(Some)
        .ok_or_else(|| fail(format!("{url}: body is not text")))
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

/// The size in bytes of this worker's wasm linear memory (`WebAssembly.Memory`'s buffer), 0
/// when it cannot be read. It only grows, so it is the peak so far.
pub fn wasm_memory_bytes() -> f64 {
    wasm_bindgen::memory()
        .dyn_into::<js_sys::WebAssembly::Memory>()
        .ok()
        .and_then(|m| m.buffer().dyn_into::<js_sys::ArrayBuffer>().ok())
        .map_or(0.0, |b| f64::from(b.byte_length()))
}

/// `performance.now()` of the worker (sub-millisecond), or `Date.now()` without it.
pub fn now_ms() -> f64 {
    js_sys::Reflect::get(&js_sys::global(), &"performance".into())
        .ok()
        .and_then(|p| p.dyn_into::<web_sys::Performance>().ok())
        .map(|p| p.now())
        .unwrap_or_else(js_sys::Date::now)
}
