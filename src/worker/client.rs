//! The main-thread side: starts the worker, sends requests, routes replies to their callers.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use js_sys::{Function, Promise, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{MessageEvent, Worker};

use super::protocol::{self, ProgressUpdate, Reply};

/// Called with each progress update of one request.
pub type OnProgress = Rc<dyn Fn(ProgressUpdate)>;

struct Pending {
    resolve: Function,
    reject: Function,
    on_progress: Option<OnProgress>,
}

#[derive(Default)]
struct Inner {
    worker: Option<Worker>,
    /// Whether the worker has said it is ready; requests wait in `queue` until then.
    ready: bool,
    queue: Vec<(js_sys::Object, js_sys::Array)>,
    next_id: u64,
    pending: HashMap<u64, Pending>,
    // Kept alive while the worker runs.
    on_message: Option<Closure<dyn FnMut(MessageEvent)>>,
    on_error: Option<Closure<dyn FnMut(web_sys::ErrorEvent)>>,
}

/// A handle to the scoring worker. Cheap to clone; all clones share one worker.
#[derive(Clone)]
pub struct WorkerClient {
    url: Rc<str>,
    inner: Rc<RefCell<Inner>>,
}

impl WorkerClient {
    /// A client for the worker script at `url` (started on the first call).
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into().into(),
            inner: Rc::new(RefCell::new(Inner::default())),
        }
    }

    /// The client for the app's own worker (`worker.js` beside `index.html`, running this
    /// app's module: see [`super`]).
    pub fn for_app() -> Self {
        Self::new(format!("{}/worker.js", crate::data::base_path()))
    }

    fn worker(&self) -> Result<Worker, String> {
        if let Some(w) = &self.inner.borrow().worker {
            return Ok(w.clone());
        }
        let start =
            |e: JsValue| format!("could not start the scoring worker ({}): {e:?}", self.url);
        let glue = app_glue_url().ok_or_else(|| {
            start(JsValue::from_str(
                "the page does not name the app's script (<link rel=modulepreload>)",
            ))
        })?;
        let options = web_sys::WorkerOptions::new();
        options.set_type(web_sys::WorkerType::Module);
        let worker = Worker::new_with_options(&self.url, &options).map_err(start)?;
        let boot = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&boot, &"glue".into(), &JsValue::from_str(&glue));
        let _ = js_sys::Reflect::set(&boot, &"module".into(), &wasm_bindgen::module());
        worker.post_message(&boot).map_err(start)?;
        let inner = Rc::downgrade(&self.inner);
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let Some(inner) = inner.upgrade() else { return };
            let Some(reply) = protocol::read_reply(&event.data()) else {
                return;
            };
            match reply {
                Reply::Ready => {
                    let (worker, queue) = {
                        let mut i = inner.borrow_mut();
                        i.ready = true;
                        (i.worker.clone(), std::mem::take(&mut i.queue))
                    };
                    if let Some(worker) = worker {
                        for (msg, transfer) in queue {
                            let _ = worker.post_message_with_transfer(&msg, &transfer);
                        }
                    }
                }
                Reply::Progress(id, update) => {
                    let cb = inner
                        .borrow()
                        .pending
                        .get(&id)
                        .and_then(|p| p.on_progress.clone());
                    if let Some(cb) = cb {
                        cb(update);
                    }
                }
                Reply::Ok(id, result) => {
                    let p = inner.borrow_mut().pending.remove(&id);
                    if let Some(p) = p {
                        let _ = p.resolve.call1(&JsValue::NULL, &result);
                    }
                }
                Reply::Err(id, message) => {
                    let p = inner.borrow_mut().pending.remove(&id);
                    if let Some(p) = p {
                        let _ = p.reject.call1(&JsValue::NULL, &JsValue::from_str(&message));
                    }
                }
            }
        });
        let weak = Rc::downgrade(&self.inner);
        let on_error =
            Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(move |e: web_sys::ErrorEvent| {
                // A crash inside the worker: fail every pending request with the message and
                // start a fresh worker next time.
                if let Some(inner) = weak.upgrade() {
                    fail_all(
                        &inner,
                        &format!("the scoring worker stopped: {}", e.message()),
                    );
                }
            });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        let mut inner = self.inner.borrow_mut();
        inner.on_message = Some(on_message);
        inner.on_error = Some(on_error);
        inner.worker = Some(worker.clone());
        Ok(worker)
    }

    /// Runs operation `op` with JSON `args` on `files` in the worker. The files' buffers are
    /// transferred to the worker (the arrays are empty afterwards).
    ///
    /// # Errors
    /// The operation's error message, "cancelled" after [`WorkerClient::cancel`], or a message
    /// when the worker cannot start or crashes.
    pub async fn call(
        &self,
        op: &str,
        args: &str,
        files: &[(String, Uint8Array)],
        on_progress: Option<OnProgress>,
    ) -> Result<String, String> {
        text(self.call_value(op, args, files, on_progress).await?)
    }

    /// [`WorkerClient::call`] for an operation whose result is a `T` in the binary form of
    /// [`coglab_core::wire`] ([`protocol::Output::Wire`]).
    ///
    /// # Errors
    /// As [`WorkerClient::call`], or a message naming `op` when the result cannot be read.
    pub async fn call_wire<T: serde::de::DeserializeOwned>(
        &self,
        op: &str,
        args: &str,
        files: &[(String, Uint8Array)],
        on_progress: Option<OnProgress>,
    ) -> Result<T, String> {
        decode(op, self.call_value(op, args, files, on_progress).await?)
    }

    /// Sends a request with `files` as transferred bytes and waits for its result as sent.
    async fn call_value(
        &self,
        op: &str,
        args: &str,
        files: &[(String, Uint8Array)],
        on_progress: Option<OnProgress>,
    ) -> Result<JsValue, String> {
        let id = self.next_id();
        let (msg, transfer) = protocol::request(id, op, args, files);
        self.send(id, msg, transfer, on_progress).await
    }

    /// Runs operation `op` with JSON `args` on `files` given as `File`s (as picked or dropped):
    /// the main thread reads nothing; the `File` objects are posted to the worker (a structured
    /// clone refers to the same data, no copy), which reads them in 4 MiB slices and reports
    /// "reading NAME: N of M MB" progress (done/total in bytes) before the operation's own.
    /// Use this for anything the user drops: the page stays responsive whatever the size.
    /// The result is a `T` in the binary form of [`coglab_core::wire`].
    ///
    /// # Errors
    /// For a file above [`protocol::MAX_FILE_BYTES`] (1 GiB), at once and before anything is
    /// sent, a message naming the file, its size, the limit and the command-line alternative;
    /// otherwise as [`WorkerClient::call_wire`].
    pub async fn call_files_wire<T: serde::de::DeserializeOwned>(
        &self,
        op: &str,
        args: &str,
        files: &[(String, web_sys::File)],
        on_progress: Option<OnProgress>,
    ) -> Result<T, String> {
        if let Some((name, f)) = files
            .iter()
            .find(|(_, f)| f.size() > protocol::MAX_FILE_BYTES)
        {
            return Err(protocol::too_large(name, f.size()));
        }
        let id = self.next_id();
        let msg = protocol::request_files(id, op, args, files);
        decode(
            op,
            self.send(id, msg, js_sys::Array::new(), on_progress)
                .await?,
        )
    }

    fn next_id(&self) -> u64 {
        let mut inner = self.inner.borrow_mut();
        inner.next_id += 1;
        inner.next_id
    }

    /// Posts request `id` (queued until the worker is ready) and waits for its result.
    async fn send(
        &self,
        id: u64,
        msg: js_sys::Object,
        transfer: js_sys::Array,
        on_progress: Option<OnProgress>,
    ) -> Result<JsValue, String> {
        let worker = self.worker()?;
        let mut slot = None;
        let promise = Promise::new(&mut |resolve, reject| slot = Some((resolve, reject)));
        let (resolve, reject) = slot.ok_or("promise executor did not run")?;
        self.inner.borrow_mut().pending.insert(
            id,
            Pending {
                resolve,
                reject,
                on_progress,
            },
        );
        if !self.inner.borrow().ready {
            self.inner.borrow_mut().queue.push((msg, transfer));
        } else if let Err(e) = worker.post_message_with_transfer(&msg, &transfer) {
            self.inner.borrow_mut().pending.remove(&id);
            return Err(format!(
                "could not send the files to the scoring worker: {e:?}"
            ));
        }
        JsFuture::from(promise)
            .await
            .map_err(|e| e.as_string().unwrap_or_else(|| format!("{e:?}")))
    }

    /// Stops all running operations: terminates the worker and fails their calls with
    /// "cancelled". The next call starts a fresh worker.
    pub fn cancel(&self) {
        fail_all(&self.inner, "cancelled");
    }

    /// Number of calls still running.
    pub fn running(&self) -> usize {
        self.inner.borrow().pending.len()
    }
}

/// A result that is JSON text.
fn text(result: JsValue) -> Result<String, String> {
    result
        .as_string()
        .ok_or_else(|| "worker result is not text".to_string())
}

/// A result in the binary form, read as a `T`.
fn decode<T: serde::de::DeserializeOwned>(op: &str, result: JsValue) -> Result<T, String> {
    let bytes = result
        .dyn_into::<Uint8Array>()
        .map_err(|_| format!("{op} result: expected bytes"))?
        .to_vec();
    coglab_core::wire::from_bytes(&bytes).map_err(|e| format!("{op} result: {e}"))
}

/// The absolute URL of the app's wasm-bindgen glue script: the `<link rel="modulepreload">`
/// Trunk writes into `index.html` for it.
fn app_glue_url() -> Option<String> {
    let document = web_sys::window()?.document()?;
    let links = document
        .query_selector_all("link[rel=modulepreload][href*='coglab-app']")
        .ok()?;
    let link: web_sys::HtmlLinkElement = links.get(0)?.dyn_into().ok()?;
    Some(link.href())
}

fn fail_all(inner: &Rc<RefCell<Inner>>, message: &str) {
    let (worker, pending) = {
        let mut i = inner.borrow_mut();
        i.ready = false;
        i.queue.clear();
        (i.worker.take(), std::mem::take(&mut i.pending))
    };
    if let Some(w) = worker {
        w.terminate();
    }
    for (_, p) in pending {
        let _ = p.reject.call1(&JsValue::NULL, &JsValue::from_str(message));
    }
}
