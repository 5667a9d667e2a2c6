//! The Review page's async work, as Leptos actions: reading the saved files and workspace,
//! adding files, building the sets in the scoring worker, saving, forgetting, the storage
//! estimate and importing a review. [`wire`] applies their results to the state.
//!
//! An action keeps only its latest dispatch's result (a late answer to an earlier request is
//! dropped: right for building, saving and reading, whose latest request is the one that
//! counts). Adding files accumulates instead, so its future applies each batch itself.
//! Futures holding a browser `File` or `Blob` are `new_local`; the others are `new_unsync`.

use coglab_core::review::records::ImportedReview;
use coglab_core::review::{Loaded, Workspace};
use leptos::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::state::{LoadedFile, ReviewState, StoreStatus};
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

/// The page's actions.
#[derive(Clone, Copy)]
pub struct Actions {
    /// Reads the saved files and workspace.
    pub restore: Action<(), Restored>,
    /// Reads picked or dropped files, stores them and adds them to the page.
    pub add_files: Action<Vec<web_sys::File>, ()>,
    /// Builds the result sets from the files in the worker.
    pub build: Action<Vec<FileRef>, Loaded>,
    /// Writes the workspace (its JSON text) to the store.
    pub save: Action<String, Result<(), String>>,
    /// Deletes the files and the workspace from this browser.
    pub forget: Action<(), Result<(), String>>,
    /// How much this browser stores.
    pub quota: Action<(), Result<Option<QuotaEstimate>, String>>,
    /// Reads an exported review in the worker: the file's name and what it holds.
    pub import: Action<FileRef, Result<(String, ImportedReview), String>>,
}

impl Actions {
    /// The page's actions. `files` and `store`: where [`Actions::add_files`] puts each batch
    /// and its storage error.
    pub fn new(files: RwSignal<Vec<LoadedFile>>, store_status: RwSignal<StoreStatus>) -> Self {
        let client = StoredValue::new_local(use_worker());
        let quota = Action::new_unsync(|_: &()| store::quota_estimate());
        let add_files = Action::new_local(move |list: &Vec<web_sys::File>| {
            let list = list.clone();
            async move {
                let fail = |e: String| {
                    store_status.try_update(|s| match s {
                        StoreStatus::Reading { error } => {
                            error.get_or_insert(e);
                        }
                        _ => *s = StoreStatus::Failed(e),
                    });
                };
                let read = match read_files(list).await {
                    Ok(f) if f.is_empty() => return,
                    Ok(f) => f,
                    Err(e) => return fail(e),
                };
                let _ = store::request_persistence().await;
                if let Err(e) = store::put_files(AREA, read.clone()).await {
                    fail(e);
                }
                // Shown even when storing failed (the error says it is not kept).
                files.try_update(|all| {
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
                if !files.is_disposed() {
                    quota.dispatch(());
                }
            }
        });
        Self {
            restore: Action::new_unsync(|_: &()| async {
                Restored {
                    files: store::get_files(AREA).await,
                    workspace: store::get_kv(WORKSPACE_KEY).await,
                }
            }),
            add_files,
            build: Action::new_local(move |refs: &Vec<FileRef>| {
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
            }),
            save: Action::new_unsync(|json: &String| {
                let json = json.clone();
                async move { store::put_kv(WORKSPACE_KEY, &json).await }
            }),
            forget: Action::new_unsync(|_: &()| store::forget_all()),
            quota,
            import: Action::new_local(move |file: &FileRef| {
                let file = file.clone();
                async move {
                    let client = client.try_get_value().ok_or("the page was left")?;
                    let name = file.name.clone();
                    // Read and parsed in the scoring worker (the page parses no file).
                    let imported = client
                        .call(api::ReviewImport { file })
                        .await
                        .map_err(|e| e.to_string())?;
                    Ok((name, imported))
                }
            }),
        }
    }
}

/// Runs `apply` on each new result of `action` (untracked: only the result is tracked).
pub fn on_result<I: 'static, O: Clone + 'static>(
    action: Action<I, O>,
    apply: impl Fn(O) + 'static,
) {
    let value = action.value();
    Effect::new(move || {
        if let Some(out) = value.get() {
            untrack(|| apply(out));
        }
    });
}

/// Applies the actions' results to the state, builds the sets whenever the files change, and
/// reads the saved workspace.
pub fn wire(s: ReviewState) {
    let a = s.actions;
    on_result(a.restore, move |r| {
        let mut first_error = None;
        match r.files {
            Ok(files) => s.files.set(
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
            Ok(Some(w)) => s.ws.set(w),
            Ok(None) => {}
            Err(e) => first_error = first_error.or(Some(e)),
        }
        let earlier = s.store.with_untracked(|st| st.error().map(str::to_string));
        s.store.set(match first_error.or(earlier) {
            Some(e) => StoreStatus::Failed(e),
            None => StoreStatus::Ready,
        });
        a.quota.dispatch(());
    });
    // Once the saved workspace has been read, a workspace with no set chosen opens the first.
    on_result(a.build, move |built| {
        let first = built.sets.first().map(|set| set.name.clone());
        s.loaded.set(built);
        let unchosen = s.ws.with_untracked(|w| w.current.is_none());
        let restored = s
            .store
            .with_untracked(|st| !matches!(st, StoreStatus::Reading { .. }));
        if let (Some(name), true, true) = (first, unchosen, restored) {
            s.update(|w| w.current = Some(name));
        }
    });
    on_result(a.save, move |out| match out {
        Ok(()) => s.store.update(|st| {
            if matches!(st, StoreStatus::Failed(_)) {
                *st = StoreStatus::Ready;
            }
        }),
        Err(e) => s.fail(e),
    });
    on_result(a.forget, move |out| match out {
        Ok(()) => {
            s.files.set(Vec::new());
            s.ws.set(Workspace::default());
            s.store.set(StoreStatus::Ready);
            s.forgotten.set(true);
            a.quota.dispatch(());
        }
        Err(e) => s.fail(e),
    });
    on_result(a.quota, move |out| match out {
        Ok(Some(q)) => s.quota.set(Some(quota_line(q))),
        Ok(None) => {}
        // The estimate is a courtesy: said in the console, the page goes on without it.
        Err(e) => web_sys::console::warn_1(&format!("storage estimate: {e}").into()),
    });
    // Whenever the files change, the worker reads them and builds the sets (a late answer for
    // files that have changed since is dropped).
    Effect::new(move |_| {
        let refs: Vec<FileRef> = s.files.with(|f| {
            f.iter()
                .map(|f| FileRef {
                    name: f.name.clone(),
                    blob: blob_of(&f.bytes),
                })
                .collect()
        });
        a.build.dispatch_local(refs);
    });
    a.restore.dispatch(());
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
