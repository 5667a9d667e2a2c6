//! Service-worker registration (`sw.js`, which keeps the app usable offline) and the
//! "update ready" banner shown when a new deploy's worker is installed and waiting.
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

/// How long after loading the page asks the service worker to cache the scoring worker's
/// module (ms): late enough not to compete with the page's own first download.
const PRECACHE_LATER_MS: u32 = 3_000;

/// Once the service worker is active and the page has been idle a while, asks it to cache the
/// files it left for later (the scoring worker's module), so that they are there offline even
/// if this visit never started the worker.
async fn precache_later() {
    let Some(c) = container() else { return };
    let Ok(ready) = c.ready() else { return };
    let Ok(reg) = JsFuture::from(ready).await else {
        return;
    };
    gloo_timers::future::TimeoutFuture::new(PRECACHE_LATER_MS).await;
    let active = reg
        .dyn_into::<ServiceWorkerRegistration>()
        .ok()
        .and_then(|r| r.active());
    if let Some(sw) = active {
        let _ = sw.post_message(&JsValue::from_str("precache-later"));
    }
}

/// Registers the service worker and shows a banner when an update is ready; its button
/// switches to the new version and reloads.
#[component]
pub fn UpdateBanner() -> impl IntoView {
    let (ready, set_ready) = signal(false);
    let registration = StoredValue::new_local(None::<ServiceWorkerRegistration>);
    {
        leptos::task::spawn_local(async move {
            match register(move || set_ready.set(true)).await {
                Ok(reg) => {
                    registration.set_value(Some(reg));
                    leptos::task::spawn_local(precache_later());
                }
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
