//! Service-worker registration (`sw.js`, which keeps the app usable offline), the "update
//! ready" banner shown when a new deploy's worker is installed and waiting, and the footer's
//! offer to keep all of coglab for offline use ([`OfflineOffer`]).
//!
//! Registered from Rust (no inline script, so it works under the app's Content-Security-Policy).
//! The banner's button tells the waiting worker to take over; when it has, the page reloads
//! into the new version. The user's stored workspace (IndexedDB) is not touched by updates.

use std::cell::Cell;

use gloo_events::EventListener;
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{ServiceWorkerContainer, ServiceWorkerRegistration, ServiceWorkerState};

thread_local! {
    /// Set when the user asked for the update: the next controller change reloads the page.
    static UPDATING: Cell<bool> = const { Cell::new(false) };
    /// Set once the page has asked to reload, so the two signals below reload it once.
    static RELOADING: Cell<bool> = const { Cell::new(false) };
}

/// Reloads the page into the new version, once, if the user asked for the update. Called on
/// `controllerchange` and when the waiting worker reports `activated`: Chromium usually sends
/// the first, but a page whose controller changed while it was busy can miss it, and the
/// worker's own state change is the second, independent sign that the switch is done.
fn reload_after_update() {
    if !UPDATING.with(Cell::get) || RELOADING.with(|r| r.replace(true)) {
        return;
    }
    if let Some(w) = web_sys::window() {
        let _ = w.location().reload();
    }
}

/// The browser's service-worker container, where there is one (secure contexts only).
fn container() -> Option<ServiceWorkerContainer> {
    let navigator = web_sys::window()?.navigator();
    let has = js_sys::Reflect::get(&navigator, &JsValue::from_str("serviceWorker"))
        .ok()
        .is_some_and(|v| !v.is_undefined());
    has.then(|| navigator.service_worker())
}

/// Registers `sw.js` under the app's base path and calls `on_update` when a newer worker is
/// installed and waiting (not on the first install, when nothing was cached before).
async fn register(
    on_update: impl Fn() + Clone + 'static,
) -> Result<ServiceWorkerRegistration, String> {
    let sw_container = container().ok_or("no service workers in this browser or context")?;
    let url = format!("{}/sw.js", crate::data::base_path());
    let registration: ServiceWorkerRegistration = JsFuture::from(sw_container.register(&url))
        .await
        .map_err(|e| format!("service worker registration failed: {e:?}"))?
        .dyn_into()
        .map_err(|_| "service worker registration gave no registration (blocked?)".to_string())?;
    if registration.waiting().is_some() && sw_container.controller().is_some() {
        on_update();
    }
    // The listeners live as long as the page (as the registration does).
    let reg = registration.clone();
    EventListener::new(&registration, "updatefound", move |_| {
        let Some(installing) = reg.installing() else {
            return;
        };
        let worker = installing.clone();
        let on_update = on_update.clone();
        EventListener::new(&installing, "statechange", move |_| {
            let controlled = container().and_then(|c| c.controller()).is_some();
            if worker.state() == ServiceWorkerState::Installed && controlled {
                on_update();
            }
        })
        .forget();
    })
    .forget();
    Ok(registration)
}

/// Asks the active service worker `what` (`offline-status`, `precache-later`) over a message
/// channel and returns its reply.
async fn ask(what: &str) -> Result<JsValue, String> {
    let c = container().ok_or("no service workers in this browser or context")?;
    let ready = c.ready().map_err(|e| format!("{e:?}"))?;
    let reg: ServiceWorkerRegistration = JsFuture::from(ready)
        .await
        .map_err(|e| format!("{e:?}"))?
        .dyn_into()
        .map_err(|_| "no service worker registration".to_string())?;
    let sw = reg.active().ok_or("no active service worker")?;
    let channel = web_sys::MessageChannel::new().map_err(|e| format!("{e:?}"))?;
    let port = channel.port1();
    let reply = js_sys::Promise::new(&mut |resolve, _reject| {
        let on_message =
            wasm_bindgen::closure::Closure::once_into_js(move |e: web_sys::MessageEvent| {
                let _ = resolve.call1(&JsValue::NULL, &e.data());
            });
        port.set_onmessage(Some(on_message.unchecked_ref()));
    });
    sw.post_message_with_transferable(
        &JsValue::from_str(what),
        &js_sys::Array::of1(&channel.port2()),
    )
    .map_err(|e| format!("{e:?}"))?;
    let v = JsFuture::from(reply).await.map_err(|e| format!("{e:?}"))?;
    if let Some(e) = js_sys::Reflect::get(&v, &"error".into())
        .ok()
        .and_then(|e| e.as_string())
    {
        return Err(e);
    }
    Ok(v)
}

/// What the service worker keeps of the files left for later (the scoring worker's module, the
/// pages' chunks): how many are not kept yet and their size.
#[derive(Debug, Clone, Copy, PartialEq)]
struct OfflineStatus {
    missing: u32,
    bytes: f64,
}

impl OfflineStatus {
    fn of(v: &JsValue) -> Option<Self> {
        let num = |k: &str| js_sys::Reflect::get(v, &k.into()).ok()?.as_f64();
        Some(Self {
            missing: num("missing")? as u32,
            bytes: num("bytes")?,
        })
    }
}

/// The footer's offer to keep all of coglab for offline use: the pages a visitor opens are
/// kept as they are used; the rest (the scoring worker's module and every page's code, its
/// size stated as built) only when asked here, or when the app is installed. Nothing is
/// fetched for offline use by itself (issue 42, defect 4: a phone on mobile data paid for
/// 6.2 MB it did not ask for).
#[component]
pub fn OfflineOffer() -> impl IntoView {
    let status = RwSignal::new(None::<OfflineStatus>);
    let busy = RwSignal::new(false);
    let error = RwSignal::new(None::<String>);
    let refresh = move || {
        leptos::task::spawn_local(async move {
            if let Ok(v) = ask("offline-status").await {
                status.try_set(OfflineStatus::of(&v));
            }
        });
    };
    refresh();
    let keep_all = move || {
        if busy.get_untracked() {
            return;
        }
        busy.set(true);
        error.set(None);
        leptos::task::spawn_local(async move {
            match ask("precache-later").await {
                Ok(v) => {
                    status.try_set(OfflineStatus::of(&v));
                }
                Err(e) => {
                    error.try_set(Some(e));
                }
            }
            busy.try_set(false);
        });
    };
    // Installing the app asks for it offline.
    let installed = window_event_listener_untyped("appinstalled", move |_| keep_all());
    on_cleanup(move || installed.remove());
    // A page opened since may have fetched some of the files: the offer says what is left.
    let visible = window_event_listener_untyped("visibilitychange", move |_| refresh());
    on_cleanup(move || visible.remove());
    view! {
        {move || status.get().map(|s| if s.missing == 0 {
            view! {
                <p class="offline-offer" data-testid="offline-ready">
                    "All of coglab works offline in this browser."
                </p>
            }.into_any()
        } else {
            view! {
                <p class="offline-offer" data-testid="offline-offer">
                    "The pages you open keep working offline. "
                    <button type="button" class="offline-all" data-testid="offline-all"
                        disabled=move || busy.get() on:click=move |_| keep_all()>
                        {move || if busy.get() {
                            "Saving coglab for offline use…".to_string()
                        } else {
                            format!(
                                "Make all of coglab available offline ({} more)",
                                crate::store::format_bytes(s.bytes)
                            )
                        }}
                    </button>
                    {move || error.get().map(|e| view! { " " <span class="error-text">{format!("Not saved: {e}")}</span> })}
                </p>
            }.into_any()
        })}
    }
}

/// Registers the service worker once the first view has loaded ([`crate::quiet::settled`])
/// and shows a banner when an update is ready; its button switches to the new version and
/// reloads.
#[component]
pub fn UpdateBanner() -> impl IntoView {
    let (ready, set_ready) = signal(false);
    let registration = StoredValue::new_local(None::<ServiceWorkerRegistration>);
    {
        leptos::task::spawn_local(async move {
            // After the first view's chunks and data: the install's downloads would share
            // the link with them (see crate::quiet).
            crate::quiet::settled().await;
            match register(move || set_ready.set(true)).await {
                Ok(reg) => registration.set_value(Some(reg)),
                Err(e) => web_sys::console::warn_1(&JsValue::from_str(&e)),
            }
            if let Some(container) = container() {
                EventListener::new(&container, "controllerchange", |_| reload_after_update())
                    .forget();
            }
        });
    }
    let apply = move |_| {
        let waiting = registration.with_value(|r| r.as_ref().and_then(|r| r.waiting()));
        match waiting {
            Some(worker) => {
                UPDATING.with(|u| u.set(true));
                let watched = worker.clone();
                EventListener::new(&worker, "statechange", move |_| {
                    if watched.state() == ServiceWorkerState::Activated {
                        reload_after_update();
                    }
                })
                .forget();
                let _ = worker.post_message(&JsValue::from_str("skip-waiting"));
            }
            None => {
                if let Some(w) = web_sys::window() {
                    let _ = w.location().reload();
                }
            }
        }
    };
    view! {
        <Show when=move || ready.get()>
            <div class="update-banner" role="status" data-testid="update-ready">
                <span>"Update ready: a new version of coglab has been downloaded."</span>
                <button type="button" on:click=apply data-testid="update-apply">
                    "Reload to update"
                </button>
                <button type="button" class="secondary" on:click=move |_| set_ready.set(false)>
                    "Later"
                </button>
            </div>
        </Show>
    }
}
