//! The main-thread side: starts the worker module on the first request, sends typed requests
//! ([`super::api`]) and routes the replies to their callers.
//!
//! One worker per tab: the app provides one [`WorkerClient`] in a context ([`use_worker`]), and
//! every page asks through it.
//!
//! **Generations.** Each worker the client starts has the next generation (1, 2, …), in its
//! name and in every handle it gives ([`api::Handle`]). When a worker ends (the page's Cancel
//! terminates it, it crashes, or it is ended from outside, which [`lifeline`] reports) every
//! call waiting on it fails ([`WorkerError::Cancelled`], [`WorkerError::Stopped`]) and
//! [`WorkerClient::generation`] moves on, so a page tells data of the ended worker by its
//! handles' generation ([`WorkerClient::is_live`]) in one place, before it asks for it.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use js_sys::{Function, Promise};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{MessageEvent, Worker};

use super::api::{self, Envelope, Handle, Message, Operation, RawResult, Reply, WorkerError};
use super::codec;
use super::protocol::ProgressUpdate;
use coglab_worker::lifeline;

/// Called with each progress update of one request.
pub type OnProgress = Rc<dyn Fn(ProgressUpdate)>;

/// The file Trunk writes to start the worker module (`data-loader-shim` in `index.html`): it
/// loads `coglab-worker.js` and its wasm, whose start serves requests.
pub const LOADER: &str = "coglab-worker_loader.js";

/// What a request's promise settles with: the worker's result as it came (decoded by
/// [`codec::decode`] where the request is awaited) or the page's own error, put here by the
/// message handler or [`fail_all`] before it resolves the promise.
type Slot = Rc<RefCell<Option<Result<JsValue, WorkerError>>>>;

struct Pending {
    resolve: Function,
    slot: Slot,
    on_progress: Option<OnProgress>,
}

struct Inner {
    worker: Option<Worker>,
    /// The generation of the running worker, or of the next one started.
    generation: u32,
    /// Whether the worker has said it is ready; requests wait in `queue` until then.
    ready: bool,
    queue: Vec<JsValue>,
    next_id: u64,
    pending: HashMap<u64, Pending>,
    // Kept alive while the worker runs.
    on_message: Option<Closure<dyn FnMut(MessageEvent)>>,
    on_error: Option<Closure<dyn FnMut(web_sys::Event)>>,
}

impl Default for Inner {
    fn default() -> Self {
        Self {
            worker: None,
            generation: 1,
            ready: false,
            queue: Vec::new(),
            next_id: 0,
            pending: HashMap::new(),
            on_message: None,
            on_error: None,
        }
    }
}

/// A handle to the scoring worker. Cheap to clone; all clones share one worker.
#[derive(Clone)]
pub struct WorkerClient {
    url: Rc<str>,
    /// This tab's token in its workers' names ([`lifeline::worker_name`]).
    tab: Rc<str>,
    inner: Rc<RefCell<Inner>>,
    /// The generation, for pages to track.
    generation: ArcRwSignal<u32>,
}

/// The app's one [`WorkerClient`], in a context (a stored value, as the client is not `Send`).
#[derive(Clone, Copy)]
pub struct AppWorker(pub StoredValue<WorkerClient, LocalStorage>);

/// The app's worker client: the one in context, or a new one provided here (when a component
/// is mounted on its own, as in the browser tests).
pub fn use_worker() -> WorkerClient {
    match use_context::<AppWorker>() {
        Some(w) => w.0.get_value(),
        None => {
            let client = WorkerClient::for_app();
            provide_context(AppWorker(StoredValue::new_local(client.clone())));
            client
        }
    }
}

/// The reply to the latest of a series of worker requests, each made from reactive state
/// (a model page's row, filter and offset; a comparison's pair), kept with the key it was
/// made for. See [`latest_reply`].
pub struct LatestReply<K: 'static, V: 'static> {
    reply: RwSignal<Option<(K, V)>, LocalStorage>,
}

impl<K, V> Clone for LatestReply<K, V> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<K, V> Copy for LatestReply<K, V> {}

impl<K: Clone + PartialEq + 'static, V: Clone + 'static> LatestReply<K, V> {
    /// The latest reply that has come (tracked); while a newer request is out, the one before
    /// it, as a `LocalResource` would. `None` before the first reply.
    pub fn get(&self) -> Option<V> {
        self.reply.with(|r| r.as_ref().map(|(_, v)| v.clone()))
    }

    /// The reply made for `key` (tracked), or `None` while that request is still out.
    pub fn get_for(&self, key: &K) -> Option<V> {
        self.reply
            .with(|r| r.as_ref().filter(|(k, _)| k == key).map(|(_, v)| v.clone()))
    }
}

/// Makes the request `fetch(key())` now and again whenever what `key` reads changes, and keeps
/// the reply to the latest one: a reply that comes after a newer request was made is dropped.
///
/// Written here rather than taken from Leptos's `LocalResource` because that one missed
/// changes (reactive_graph 0.2.16): an async derived signal awaits its pending future before
/// it looks at its sources again, and if a render effect has checked it in between, the change
/// is lost. A comparison whose second model was picked while the first pair was still being
/// compared then stayed at "Comparing…" for good (the CI run of be0b9d3, reproduced 1 in 4
/// runs of the defect 8 test with a logging build). An effect is rerun on every change.
pub fn latest_reply<K, V, Fut>(
    key: impl Fn() -> K + 'static,
    fetch: impl Fn(K) -> Fut + 'static,
) -> LatestReply<K, V>
where
    K: Clone + PartialEq + 'static,
    V: 'static,
    Fut: std::future::Future<Output = V> + 'static,
{
    let reply = RwSignal::new_local(None);
    let latest = Latest::new();
    Effect::new(move |_| {
        let k = key();
        let ticket = latest.next();
        let request = fetch(k.clone());
        leptos::task::spawn_local(async move {
            let v = request.await;
            if latest.is_current(ticket) {
                let _ = reply.try_set(Some((k, v)));
            }
        });
    });
    LatestReply { reply }
}

/// Tickets for work started again and again (a refit on every change of the model, a rebuild
/// on every new file, a second file picked before the first is read): a future applies its
/// result to the page only while its ticket is the latest, so a late answer to an earlier
/// request never overwrites a newer one. This is what an [`Action`]'s own `value()` does; the
/// pages' actions apply their results in their futures instead (see [`crate::pages`]).
#[derive(Clone, Copy)]
pub struct Latest(StoredValue<u64>);

/// One start of the work ([`Latest::next`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ticket(u64);

impl Latest {
    /// No work started yet.
    pub fn new() -> Self {
        Self(StoredValue::new(0))
    }

    /// The ticket of a new start; every earlier one stops being current.
    pub fn next(self) -> Ticket {
        let n = self.0.try_get_value().unwrap_or_default() + 1;
        self.0.try_set_value(n);
        Ticket(n)
    }

    /// Whether `ticket` is still the latest start (never once the page that owns this has
    /// gone: then there is nothing to apply to).
    pub fn is_current(self, ticket: Ticket) -> bool {
        self.0.try_get_value() == Some(ticket.0)
    }
}

impl Default for Latest {
    fn default() -> Self {
        Self::new()
    }
}

impl WorkerClient {
    /// A client for the worker script at `url` (started on the first call).
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into().into(),
            tab: lifeline::tab_token().into(),
            inner: Rc::new(RefCell::new(Inner::default())),
            generation: ArcRwSignal::new(1),
        }
    }

    /// The generation of the running worker, or of the next one (tracked): handles of another
    /// generation name data that went with an ended worker.
    pub fn generation(&self) -> u32 {
        self.generation.get()
    }

    /// Whether `handle` names data of the running (or next) worker (untracked: for a request
    /// about to be made).
    pub fn is_live<H: Handle>(&self, handle: &H) -> bool {
        handle.generation() == self.generation.get_untracked()
    }

    /// The client for the app's worker module ([`LOADER`] beside `index.html`).
    pub fn for_app() -> Self {
        Self::new(format!("{}/{LOADER}", crate::data::base_path()))
    }

    fn worker(&self) -> Result<Worker, WorkerError> {
        if let Some(w) = &self.inner.borrow().worker {
            return Ok(w.clone());
        }
        let start = |e: JsValue| {
            WorkerError::Stopped(format!(
                "could not start the scoring worker ({}): {e:?}",
                self.url
            ))
        };
        let generation = self.inner.borrow().generation;
        let name = lifeline::worker_name(&self.tab, generation);
        let options = web_sys::WorkerOptions::new();
        options.set_name(&name);
        let worker = Worker::new_with_options(&self.url, &options).map_err(start)?;
        let inner = Rc::downgrade(&self.inner);
        let (lifeline_inner, lifeline_signal) =
            (Rc::downgrade(&self.inner), self.generation.clone());
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let Some(inner) = inner.upgrade() else { return };
            let Ok(message) = api::from_js::<Message<RawResult>>(event.data()) else {
                return;
            };
            match message {
                Message::Ready => {
                    let (worker, queue) = {
                        let mut i = inner.borrow_mut();
                        i.ready = true;
                        (i.worker.clone(), std::mem::take(&mut i.queue))
                    };
                    // The worker holds its lock now: the lock comes free when it ends.
                    let (weak, signal) = (lifeline_inner.clone(), lifeline_signal.clone());
                    lifeline::when_released(&name, move || {
                        let Some(inner) = weak.upgrade() else { return };
                        // Ended by the page itself (Cancel), the generation has moved on.
                        if inner.borrow().generation == generation {
                            fail_all(
                                &inner,
                                &signal,
                                WorkerError::Stopped("it was ended from outside the page".into()),
                            );
                        }
                    });
                    if let Some(worker) = worker {
                        for msg in queue {
                            let _ = worker.post_message(&msg);
                        }
                    }
                }
                Message::Progress {
                    id,
                    done,
                    total,
                    label,
                } => {
                    let cb = inner
                        .borrow()
                        .pending
                        .get(&id)
                        .and_then(|p| p.on_progress.clone());
                    if let Some(cb) = cb {
                        cb(ProgressUpdate { done, total, label });
                    }
                }
                Message::Done { id, result } => {
                    let p = inner.borrow_mut().pending.remove(&id);
                    if let Some(p) = p {
                        *p.slot.borrow_mut() = Some(Ok(result.0));
                        // The caller decodes the result and continues in a task of its own (see
                        // `send`), not in this one.
                        let _ = p.resolve.call0(&JsValue::NULL);
                    }
                }
            }
        });
        let weak = Rc::downgrade(&self.inner);
        let (url, signal) = (self.url.clone(), self.generation.clone());
        let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
            // A crash inside the worker (an ErrorEvent with a message), or its script could not
            // be loaded (a plain Event, e.g. offline before it was cached): fail every pending
            // request with the reason and start a fresh worker next time.
            let message = js_sys::Reflect::get(&e, &JsValue::from_str("message"))
                .ok()
                .and_then(|m| m.as_string())
                .filter(|m| !m.is_empty())
                .unwrap_or_else(|| {
                    format!(
                        "its script {url} could not be loaded (offline before the app had \
                         cached it?)"
                    )
                });
            if let Some(inner) = weak.upgrade() {
                fail_all(&inner, &signal, WorkerError::Stopped(message));
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

    /// Runs operation `op` in the worker and returns its typed result.
    ///
    /// # Errors
    /// The operation's error ([`WorkerError::Input`] naming file, line and field for bad
    /// input), [`WorkerError::Cancelled`] after [`WorkerClient::cancel`], or
    /// [`WorkerError::Stopped`] when the worker cannot start or ends.
    pub async fn call<O: Operation>(&self, op: O) -> Result<O::Output, WorkerError> {
        self.call_with(op, None).await
    }

    /// [`WorkerClient::call`] with a progress callback.
    ///
    /// # Errors
    /// As [`WorkerClient::call`].
    pub async fn call_with<O: Operation>(
        &self,
        op: O,
        on_progress: Option<OnProgress>,
    ) -> Result<O::Output, WorkerError> {
        let id = self.next_id();
        let message = codec::encode(Envelope {
            id,
            request: op.into_request(),
        })
        .await
        .map_err(|e| {
            WorkerError::Browser(format!(
                "{}: the request could not be sent: {}",
                O::NAME,
                e.0
            ))
        })?;
        let reply = self.send(id, message, on_progress).await?;
        O::from_reply(reply).ok_or_else(|| {
            WorkerError::Browser(format!("{}: the worker answered another request", O::NAME))
        })
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
        msg: JsValue,
        on_progress: Option<OnProgress>,
    ) -> Result<Reply, WorkerError> {
        let worker = self.worker()?;
        let mut resolver = None;
        let promise = Promise::new(&mut |resolve, _reject| resolver = Some(resolve));
        let resolve =
            resolver.ok_or_else(|| WorkerError::Browser("promise executor did not run".into()))?;
        let slot: Slot = Rc::default();
        self.inner.borrow_mut().pending.insert(
            id,
            Pending {
                resolve,
                slot: slot.clone(),
                on_progress,
            },
        );
        if !self.inner.borrow().ready {
            self.inner.borrow_mut().queue.push(msg);
        } else if let Err(e) = worker.post_message(&msg) {
            self.inner.borrow_mut().pending.remove(&id);
            return Err(WorkerError::Browser(format!(
                "could not send the request to the scoring worker: {e:?}"
            )));
        }
        let _ = JsFuture::from(promise).await;
        let raw = slot.borrow_mut().take().unwrap_or_else(|| {
            Err(WorkerError::Browser(
                "the scoring worker's reply was lost".into(),
            ))
        })?;
        let result = codec::decode(raw)
            .await
            .map_err(|e| WorkerError::Browser(format!("the worker's reply: {}", e.0)))?;
        // The caller continues (and the page renders the result) in a task of its own, not in
        // this one, which has just decoded the reply: a large reply's decoding and its
        // rendering are then two main-thread tasks, not one long one (issue 22: an item
        // analysis of 2,710 items).
        gloo_timers::future::TimeoutFuture::new(0).await;
        result
    }

    /// Stops all running operations: terminates the worker and fails their calls with
    /// [`WorkerError::Cancelled`]. The next call starts a worker of the next generation (what
    /// the ended one kept is gone).
    pub fn cancel(&self) {
        fail_all(&self.inner, &self.generation, WorkerError::Cancelled);
    }
}

/// Ends the running worker, if any: terminates it, fails every call waiting on it with
/// `error`, and moves the generation on (the next call starts the next worker).
fn fail_all(inner: &Rc<RefCell<Inner>>, generation: &ArcRwSignal<u32>, error: WorkerError) {
    let (worker, pending, next) = {
        let mut i = inner.borrow_mut();
        i.ready = false;
        i.queue.clear();
        let worker = i.worker.take();
        if worker.is_some() {
            i.generation += 1;
        }
        (worker, std::mem::take(&mut i.pending), i.generation)
    };
    if let Some(w) = worker {
        w.terminate();
        // Untracked readers see it next time; tracked ones now. The page may be gone.
        let _ = generation.try_set(next);
    }
    for (_, p) in pending {
        *p.slot.borrow_mut() = Some(Err(error.clone()));
        let _ = p.resolve.call0(&JsValue::NULL);
    }
}
