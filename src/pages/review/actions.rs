//! The Review page's async work, as Leptos actions that apply their results to the page (see
//! [`crate::pages`]): reading the saved files and workspace, adding files, building the sets
//! in the scoring worker, saving, forgetting and the storage estimate. Importing a review is
//! the export/import panel's own action (`io.rs`).
//!
//! Each action applies only its latest dispatch's result (a late answer to an earlier request
//! is dropped: right for building, saving and reading, whose latest request is the one that
//! counts); adding files accumulates instead, so each batch is applied.

use coglab_core::review::{Loaded, Workspace};
use leptos::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::state::{LoadedFile, StoreStatus};
use crate::pages::applying;
use crate::store::{self, QuotaEstimate, StoredFile};
use crate::worker::api::{self, FileRef};
use crate::worker::client::use_worker;

/// The store area holding the review page's files.
pub const AREA: &str = "review";
/// The store key of the saved workspace.
pub const WORKSPACE_KEY: &str = "review-workspace";

/// What the store held on opening the page.
#[derive(Clone, Debug)]
pub struct Restored {
    /// The saved files.
    pub files: Result<Vec<StoredFile>, String>,
    /// The saved workspace's JSON text, if any.
    pub workspace: Result<Option<String>, String>,
}

/// The page's signals its actions write (the [`ReviewState`](super::state::ReviewState)
/// without its actions and the views derived from these).
#[derive(Clone, Copy)]
pub struct Targets {
    /// The loaded files.
    pub files: RwSignal<Vec<LoadedFile>>,
    /// The result sets built from the files.
    pub loaded: RwSignal<Loaded>,
    /// The saved workspace.
    pub ws: RwSignal<Workspace>,
    /// The local store's status.
    pub store: RwSignal<StoreStatus>,
    /// The storage line.
    pub quota: RwSignal<Option<String>>,
    /// Whether the workspace has been forgotten.
    pub forgotten: RwSignal<bool>,
}

/// The page's actions, each applying its result to the page (see [`crate::pages`]).
#[derive(Clone, Copy)]
pub struct Actions {
    /// Reads the saved files and workspace.
    restore: Action<(), ()>,
    /// Reads picked or dropped files, stores them and adds them to the page.
    pub add_files: Action<Vec<web_sys::File>, ()>,
    /// Builds the result sets from the files in the worker.
    build: Action<Vec<FileRef>, ()>,
    /// Writes the workspace (its JSON text) to the store.
    pub save: Action<String, ()>,
    /// Deletes the files and the workspace from this browser.
    pub forget: Action<(), ()>,
}

impl Actions {
    /// The page's actions over `t`.
    pub fn new(t: Targets) -> Self {
        let client = StoredValue::new_local(use_worker());
        let quota = applying(
            |_: &()| store::quota_estimate(),
            move |out| match out {
                Ok(Some(q)) => t.quota.set(Some(quota_line(q))),
                Ok(None) => {}
                // The estimate is a courtesy: said in the console, the page goes on without it.
                Err(e) => web_sys::console::warn_1(&format!("storage estimate: {e}").into()),
            },
        );
        // Adding files accumulates (each batch is added, none replaces another), so every
        // dispatch's batch is applied, not only the latest.
        let add_files = Action::new_local(move |list: &Vec<web_sys::File>| {
            let list = list.clone();
            async move {
                let read = match read_files(list).await {
                    Ok(f) if f.is_empty() => return,
                    Ok(f) => f,
                    Err(e) => return fail(t.store, e),
                };
                let _ = store::request_persistence().await;
                if let Err(e) = store::put_files(AREA, read.clone()).await {
                    fail(t.store, e);
                }
                // Shown even when storing failed (the error says it is not kept).
                t.files.try_update(|all| {
                    for f in read {
                        all.retain(|x| x.name != f.name);
                        all.push(LoadedFile {
                            name: f.name,
                            bytes: f.bytes,
                        });
                    }
                    all.sort_by(|a, b| a.name.cmp(&b.name));
                });
                // (The page may have been left meanwhile: its actions are then gone.)
                if !t.files.is_disposed() {
                    quota.dispatch_local(());
                }
            }
        });
        let save = applying(
            |json: &String| {
                let json = json.clone();
                async move { store::put_kv(WORKSPACE_KEY, &json).await }
            },
            move |out| match out {
                Ok(()) => t.store.update(|st| {
                    if matches!(st, StoreStatus::Failed(_)) {
                        *st = StoreStatus::Ready;
                    }
                }),
                Err(e) => fail(t.store, e),
            },
        );
        let restore = applying(
            |_: &()| async {
                Restored {
                    files: store::get_files(AREA).await,
                    workspace: store::get_kv(WORKSPACE_KEY).await,
                }
            },
            move |r| {
                apply_restored(t, r);
                quota.dispatch_local(());
            },
        );
        // Once the saved workspace has been read, a workspace with no set chosen opens the
        // first.
        let build = applying(
            move |refs: &Vec<FileRef>| {
                let refs = refs.clone();
                async move {
                    if refs.is_empty() {
                        return Loaded::default();
                    }
                    let Some(client) = client.try_get_value() else {
                        return Loaded::default();
                    };
                    client
                        .call(api::ReviewBuild { files: refs })
                        .await
                        .unwrap_or_else(|e| Loaded {
                            errors: vec![e.to_string()],
                            ..Loaded::default()
                        })
                }
            },
            move |built| {
                let first = built.sets.first().map(|set| set.name.clone());
                t.loaded.set(built);
                let unchosen = t.ws.with_untracked(|w| w.current.is_none());
                let restored = t
                    .store
                    .with_untracked(|st| !matches!(st, StoreStatus::Reading { .. }));
                if let (Some(name), true, true) = (first, unchosen, restored) {
                    t.ws.update(|w| w.current = Some(name));
                    save.dispatch_local(t.ws.with_untracked(Workspace::to_json));
                }
            },
        );
        let forget = applying(
            |_: &()| store::forget_all(),
            move |out| match out {
                Ok(()) => {
                    t.files.set(Vec::new());
                    t.ws.set(Workspace::default());
                    t.store.set(StoreStatus::Ready);
                    t.forgotten.set(true);
                    quota.dispatch_local(());
                }
                Err(e) => fail(t.store, e),
            },
        );
        Self {
            restore,
            add_files,
            build,
            save,
            forget,
        }
    }

    /// Builds the sets whenever the files change, and reads the saved files and workspace.
    pub fn wire(self, t: Targets) {
        // Whenever the files change, the worker reads them and builds the sets (a late answer
        // for files that have changed since is dropped).
        Effect::new(move |_| {
            let refs: Vec<FileRef> = t.files.with(|f| {
                f.iter()
                    .map(|f| FileRef {
                        name: f.name.clone(),
                        blob: blob_of(&f.bytes),
                    })
                    .collect()
            });
            self.build.dispatch_local(refs);
        });
        self.restore.dispatch_local(());
    }
}

/// Puts what the store held on the page, with the first storage error (or one met while
/// reading).
fn apply_restored(t: Targets, r: Restored) {
    let mut first_error = None;
    match r.files {
        Ok(files) => t.files.set(
            files
                .into_iter()
                .map(|f| LoadedFile {
                    name: f.name,
                    bytes: f.bytes,
                })
                .collect(),
        ),
        Err(e) => first_error = Some(e),
    }
    match r
        .workspace
        .and_then(|json| json.map(|j| Workspace::from_json(&j)).transpose())
    {
        Ok(Some(w)) => t.ws.set(w),
        Ok(None) => {}
        Err(e) => first_error = first_error.or(Some(e)),
    }
    let earlier = t.store.with_untracked(|st| st.error().map(str::to_string));
    t.store.set(match first_error.or(earlier) {
        Some(e) => StoreStatus::Failed(e),
        None => StoreStatus::Ready,
    });
}

/// Shows a storage error: the first one while the saved workspace is read, else the latest.
pub fn fail(store: RwSignal<StoreStatus>, e: String) {
    store.try_update(|s| {
        *s = match s {
            StoreStatus::Reading { error } => StoreStatus::Reading {
                error: error.take().or(Some(e)),
            },
            _ => StoreStatus::Failed(e),
        }
    });
}

/// The storage line: the user's data (IndexedDB) apart from the app's own offline copy
/// (Cache Storage), which is not counted as stored review data (issue 26, defect 14).
fn quota_line(q: QuotaEstimate) -> String {
    match (q.indexed_db, q.caches) {
        (Some(db), caches) => format!(
            "Your files, scores and notes: {} in this browser ({} available){}",
            store::format_bytes(db),
            store::format_bytes(q.quota),
            caches
                .filter(|c| *c > 0.0)
                .map(|c| format!("; the app's offline copy: {}", store::format_bytes(c)))
                .unwrap_or_default()
        ),
        (None, _) => format!(
            "{} stored in this browser, the app's offline copy included ({} available)",
            store::format_bytes(q.usage),
            store::format_bytes(q.quota)
        ),
    }
}

/// A `Blob` holding `bytes` (for the worker, which reads files as blobs).
fn blob_of(bytes: &[u8]) -> web_sys::Blob {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    web_sys::Blob::new_with_u8_array_sequence(&parts).unwrap_or_else(|_| {
        // Making a blob of bytes cannot fail short of running out of memory; an empty blob
        // then reads as an empty file, which the worker reports.
        web_sys::Blob::new().expect("an empty Blob")
    })
}

/// The files of a (live) file list, taken before the input is cleared.
pub fn files_of(list: Option<web_sys::FileList>) -> Vec<web_sys::File> {
    list.map(|l| (0..l.length()).filter_map(|i| l.item(i)).collect())
        .unwrap_or_default()
}

/// Reads the bytes of picked or dropped files.
async fn read_files(list: Vec<web_sys::File>) -> Result<Vec<StoredFile>, String> {
    let mut out = Vec::new();
    for file in list {
        let buffer = JsFuture::from(file.array_buffer())
            .await
            .map_err(|_| format!("{}: could not be read", file.name()))?;
        out.push(StoredFile {
            name: file.name(),
            model: None,
            bytes: js_sys::Uint8Array::new(&buffer).to_vec(),
        });
    }
    Ok(out)
}
