//! Review: read result files item by item and re-score judge outputs by hand, offline.
//!
//! Files are loaded here (drop zone or picker) and kept in the local store (area `review`);
//! the review workspace (chosen set, sample, position, every score and note) is written to the
//! store after every change, so a reload or a crash loses nothing. All numbers (sample,
//! agreement, exports, merges) come from `coglab_core::review`.

mod agreement;
mod item;

use coglab_core::review::records::{self, SetReview};
use coglab_core::review::Workspace;
use coglab_core::review::{self as core_review, Keep, Loaded, MergeReport, ReviewSet, SampleSpec};

use crate::worker::api::{self, FileRef};
use crate::worker::client::use_worker;
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen_futures::JsFuture;

use crate::components::board_table::download_text;
use crate::components::error_panel::ErrorPanel;
use crate::store::{self, StoredFile};

/// The store area holding the review page's files.
pub const AREA: &str = "review";
/// The store key of the saved workspace.
pub const WORKSPACE_KEY: &str = "review-workspace";

/// The review page's shared state, provided as context to its parts.
#[derive(Clone, Copy)]
pub struct ReviewState {
    /// The loaded files, as (name, bytes).
    pub files: RwSignal<Vec<(String, Vec<u8>)>>,
    /// The result sets built from the files (in the scoring worker).
    pub loaded: RwSignal<Loaded>,
    /// The saved workspace.
    pub ws: RwSignal<Workspace>,
    /// The set on screen.
    pub current: Memo<Option<ReviewSet>>,
    /// Its review (sample, position, records), if started.
    pub review: Memo<Option<SetReview>>,
    /// Whether the stored workspace has been read.
    pub restored: RwSignal<bool>,
    /// The last storage error (shown, never swallowed).
    pub storage_error: RwSignal<Option<String>>,
    /// Saves in flight.
    pub saving: RwSignal<u32>,
}

impl ReviewState {
    fn new() -> Self {
        let files = RwSignal::new(Vec::<(String, Vec<u8>)>::new());
        let ws = RwSignal::new(Workspace::default());
        let loaded = RwSignal::new(Loaded::default());
        let current_name = Memo::new(move |_| ws.with(|w| w.current.clone()));
        let current = Memo::new(move |_| {
            let name = current_name.get()?;
            loaded.with(|l| l.sets.iter().find(|s| s.name == name).cloned())
        });
        let review = Memo::new(move |_| {
            let name = current_name.get()?;
            ws.with(|w| w.sets.get(&name).cloned())
        });
        let state = Self {
            files,
            loaded,
            ws,
            current,
            review,
            restored: RwSignal::new(false),
            storage_error: RwSignal::new(None),
            saving: RwSignal::new(0),
        };
        state.build_in_worker();
        state
    }

    /// Whenever the files change, the worker reads them and builds the sets (a late answer for
    /// files that have changed since is dropped). Once the saved workspace has been read, a
    /// workspace with no set chosen opens the first one.
    fn build_in_worker(self) {
        let client = StoredValue::new_local(use_worker());
        let generation = StoredValue::new(0u64);
        Effect::new(move |_| {
            let refs: Vec<FileRef> = self.files.with(|f| {
                f.iter()
                    .map(|(name, bytes)| FileRef {
                        name: name.clone(),
                        blob: blob_of(bytes),
                    })
                    .collect()
            });
            let gen = generation.get_value() + 1;
            generation.set_value(gen);
            if refs.is_empty() {
                self.loaded.set(Loaded::default());
                return;
            }
            let client = client.get_value();
            spawn_local(async move {
                let built = client.call(api::ReviewBuild { files: refs }).await;
                if generation.try_get_value() != Some(gen) {
                    return;
                }
                let built = built.unwrap_or_else(|e| Loaded {
                    errors: vec![e],
                    ..Loaded::default()
                });
                let first = built.sets.first().map(|s| s.name.clone());
                self.loaded.set(built);
                let unchosen = self.ws.with_untracked(|w| w.current.is_none());
                if let (Some(name), true, true) = (first, unchosen, self.restored.get_untracked()) {
                    self.update(|w| w.current = Some(name));
                }
            });
        });
    }

    /// Changes the workspace and writes it to the store at once.
    pub fn update(&self, f: impl FnOnce(&mut Workspace)) {
        self.ws.update(f);
        self.save();
    }

    /// Changes the review of the set on screen (if any) and saves.
    pub fn update_review(&self, f: impl FnOnce(&mut SetReview)) {
        self.update(|w| {
            if let Some(name) = w.current.clone() {
                if let Some(r) = w.sets.get_mut(&name) {
                    f(r);
                }
            }
        });
    }

    /// Writes the workspace to the store; errors are shown.
    pub fn save(&self) {
        let json = self.ws.with_untracked(Workspace::to_json);
        let (saving, error) = (self.saving, self.storage_error);
        saving.update(|n| *n += 1);
        spawn_local(async move {
            let result = store::put_kv(WORKSPACE_KEY, &json).await;
            saving.update(|n| *n = n.saturating_sub(1));
            match result {
                Ok(()) => error.set(None),
                Err(e) => error.set(Some(e)),
            }
        });
    }

    /// Moves to the item at `position` of the sample.
    pub fn go(&self, position: usize) {
        self.update_review(|r| {
            if !r.keys.is_empty() {
                r.position = position.min(r.keys.len() - 1);
            }
        });
    }

    /// Moves by `delta` items.
    pub fn step(&self, delta: isize) {
        self.update_review(|r| {
            if !r.keys.is_empty() {
                let p = r.position as isize + delta;
                r.position = p.clamp(0, r.keys.len() as isize - 1) as usize;
            }
        });
    }
}

/// The files of a (live) file list, taken before the input is cleared.
/// A `Blob` holding `bytes` (for the worker, which reads files as blobs).
fn blob_of(bytes: &[u8]) -> web_sys::Blob {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    web_sys::Blob::new_with_u8_array_sequence(&parts).unwrap_or_else(|_| {
        // Making a blob of bytes cannot fail short of running out of memory; an empty blob
        // then reads as an empty file, which the worker reports.
        web_sys::Blob::new().expect("an empty Blob")
    })
}

fn files_of(list: Option<web_sys::FileList>) -> Vec<web_sys::File> {
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

fn slug(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let mut out = String::new();
    for part in s.split('-').filter(|p| !p.is_empty()) {
        if !out.is_empty() {
            out.push('-');
        }
        out.push_str(part);
    }
    out.chars().take(60).collect()
}

/// The review page: load files, pick a set and a sample, score item by item with the
/// keyboard, watch agreement with the judge, export/import, forget.
#[component]
pub fn Review() -> impl IntoView {
    let state = ReviewState::new();
    provide_context(state);
    let quota = RwSignal::new(None::<String>);
    let refresh_quota = move || {
        spawn_local(async move {
            if let Ok(Some(q)) = store::quota_estimate().await {
                // Your data is IndexedDB; the app's own offline copy (Cache Storage) is named
                // apart, not counted as "stored" review data (issue 26, defect 14).
                quota.set(Some(match (q.indexed_db, q.caches) {
                    (Some(db), caches) => format!(
                        "Your files, scores and notes: {} in this browser ({} available){}",
                        store::format_bytes(db),
                        store::format_bytes(q.quota),
                        caches
                            .filter(|c| *c > 0.0)
                            .map(|c| format!(
                                "; the app's offline copy: {}",
                                store::format_bytes(c)
                            ))
                            .unwrap_or_default()
                    ),
                    (None, _) => format!(
                        "{} stored in this browser, the app's offline copy included ({} available)",
                        store::format_bytes(q.usage),
                        store::format_bytes(q.quota)
                    ),
                }));
            }
        });
    };
    // Restore the workspace.
    spawn_local(async move {
        match store::get_files(AREA).await {
            Ok(files) => state
                .files
                .set(files.into_iter().map(|f| (f.name, f.bytes)).collect()),
            Err(e) => state.storage_error.set(Some(e)),
        }
        match store::get_kv(WORKSPACE_KEY).await {
            Ok(Some(json)) => match Workspace::from_json(&json) {
                Ok(w) => state.ws.set(w),
                Err(e) => state.storage_error.set(Some(e)),
            },
            Ok(None) => {}
            Err(e) => state.storage_error.set(Some(e)),
        }
        state.restored.set(true);
        refresh_quota();
    });

    let (over, set_over) = signal(false);
    let take = move |list: Vec<web_sys::File>| {
        if list.is_empty() {
            return;
        }
        spawn_local(async move {
            let files = match read_files(list).await {
                Ok(f) => f,
                Err(e) => {
                    state.storage_error.set(Some(e));
                    return;
                }
            };
            if files.is_empty() {
                return;
            }
            let _ = store::request_persistence().await;
            if let Err(e) = store::put_files(AREA, files.clone()).await {
                state.storage_error.set(Some(e));
            }
            // Shown even when storing failed (the error says it is not kept).
            state.files.update(|all| {
                for f in files {
                    all.retain(|(n, _)| *n != f.name);
                    all.push((f.name, f.bytes));
                }
                all.sort_by(|a, b| a.0.cmp(&b.0));
            });
            refresh_quota();
        });
    };
    let on_input = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        take(files_of(input.files()));
        input.set_value("");
    };

    // Forget.
    let (confirm_forget, set_confirm_forget) = signal(false);
    let forgotten = RwSignal::new(false);
    let forget = move |_| {
        spawn_local(async move {
            match store::forget_all().await {
                Ok(()) => {
                    state.files.set(Vec::new());
                    state.ws.set(Workspace::default());
                    state.storage_error.set(None);
                    forgotten.set(true);
                    set_confirm_forget.set(false);
                    refresh_quota();
                }
                Err(e) => state.storage_error.set(Some(e)),
            }
        });
    };

    view! {
        <section class="review" data-testid="page-review">
            <h1>"Review judge outputs"</h1>
            <p class="lede">
                "Re-score a sample of items by hand and compare with the judge. Everything stays \
                 in this browser and is saved as you type; after one visit the page also works \
                 offline."
            </p>
            {move || state.storage_error.get().map(|e| view! {
                <ErrorPanel title="Local storage problem" message=e />
            })}
            <div class="dropzone" class:over=move || over.get() data-testid="review-dropzone"
                on:dragover=move |ev: leptos::ev::DragEvent| { ev.prevent_default(); set_over.set(true); }
                on:dragleave=move |_| set_over.set(false)
                on:drop=move |ev: leptos::ev::DragEvent| {
                    ev.prevent_default();
                    set_over.set(false);
                    take(files_of(ev.data_transfer().and_then(|d| d.files())));
                }>
                <p><strong>"Drop result files here"</strong>" — MM-OPERA judge outputs \
                    (_regular_scoring.json, _reasoning_scoring.json) with the dataset metadata and \
                    the model's _results.json; MM-IQ predictions with the answer key; KiVA run CSVs."</p>
                <div class="dropzone-actions">
                    <label class="button">
                        "Choose files…"
                        <input type="file" multiple class="visually-hidden"
                            data-testid="review-file-input" on:change=on_input />
                    </label>
                </div>
                <FileList />
            </div>
            <Show when=move || forgotten.get()>
                <p class="notice" role="status" data-testid="forgotten">
                    "Workspace forgotten: the files and every score were deleted from this browser. \
                     The app itself stays cached, so it still opens offline."
                </p>
            </Show>
            <SetPicker />
            <Show when=move || state.current.with(Option::is_some)>
                <div class="review-layout">
                    <Show when=move || state.review.with(Option::is_some)
                        fallback=|| view! {
                            <p class="notice" data-testid="review-start-hint">
                                "Choose the items above and press Start review, or import a review you exported."
                            </p>
                        }>
                        <item::ItemPanel />
                    </Show>
                    <aside class="review-side">
                        <Show when=move || state.review.with(Option::is_some)>
                            <agreement::AgreementPanel />
                        </Show>
                        <ExportImport />
                    </aside>
                </div>
            </Show>
            <div class="review-footer">
                <p class="muted" data-testid="save-status" role="status">
                    {move || {
                        if !state.restored.get() {
                            "Reading the saved workspace…".to_string()
                        } else if state.saving.get() > 0 {
                            "Saving…".to_string()
                        } else if state.storage_error.with(Option::is_some) {
                            "Not saved: see the error above.".to_string()
                        } else {
                            "All changes saved in this browser.".to_string()
                        }
                    }}
                    {move || quota.get().map(|q| view! { " "<span data-testid="storage-line">{format!("{q}.")}</span> })}
                </p>
                <Show when=move || !confirm_forget.get()
                    fallback=move || view! {
                        <div class="forget-confirm" role="group" aria-label="Confirm forgetting">
                            <span>"Delete the loaded files and all scores and notes from this browser? \
                                   Export first if you want to keep them. The app's offline copy is kept."</span>
                            <button type="button" class="danger" data-testid="forget-confirm"
                                on:click=forget>"Forget"</button>
                            <button type="button" on:click=move |_| set_confirm_forget.set(false)>"Cancel"</button>
                        </div>
                    }>
                    <button type="button" data-testid="forget" on:click=move |_| {
                        forgotten.set(false);
                        set_confirm_forget.set(true);
                    }>"Forget this workspace…"</button>
                </Show>
            </div>
        </section>
    }
}

/// The loaded files and what each was used as, with read errors.
#[component]
fn FileList() -> impl IntoView {
    let state = expect_context::<ReviewState>();
    view! {
        <Show when=move || !state.files.with(Vec::is_empty)>
            <details class="review-files" data-testid="review-files">
                <summary>{move || {
                    let n = state.files.with(Vec::len);
                    let sets = state.loaded.with(|l| l.sets.len());
                    format!("{n} files loaded, {sets} reviewable sets")
                }}</summary>
                <ul>
                    {move || state.loaded.with(|l| {
                        let mut rows: Vec<String> = l.sets.iter().map(|s| format!("{}: {} items", s.name, s.items.len())).collect();
                        rows.extend(l.notes.iter().map(|(f, what)| format!("{f}: {what}")));
                        rows.into_iter().map(|r| view! { <li>{r}</li> }).collect_view()
                    })}
                </ul>
            </details>
            {move || state.loaded.with(|l| (!l.errors.is_empty()).then(|| view! {
                <ErrorPanel title="Some files could not be read" message=l.errors.join("\n") />
            }))}
        </Show>
    }
}

/// Choosing the result set and drawing the sample.
#[component]
fn SetPicker() -> impl IntoView {
    let state = expect_context::<ReviewState>();
    let n = RwSignal::new(String::new());
    let seed = RwSignal::new("1".to_string());
    let stratify = RwSignal::new(String::new());
    // Issue 23: the MM-IQ paper's fixed quotas instead of proportional allocation.
    let paper_quota = RwSignal::new(false);
    // Show the current review's sample settings.
    Effect::new(move |_| {
        if let Some(r) = state.review.get() {
            n.set(r.sample.n.map(|v| v.to_string()).unwrap_or_default());
            seed.set(r.sample.seed.to_string());
            stratify.set(r.sample.stratify.clone().unwrap_or_default());
            paper_quota.set(r.sample.quota.is_some());
        }
    });
    let sample_error = RwSignal::new(None::<String>);
    let draw = move |_| {
        let Some(set) = state.current.get_untracked() else {
            return;
        };
        let n_text = n.get_untracked();
        let n_val = if n_text.trim().is_empty() {
            None
        } else {
            match n_text.trim().parse::<usize>() {
                Ok(v) if v > 0 => Some(v),
                _ => {
                    sample_error.set(Some(format!(
                        "Sample size: expected a whole number above 0, found {n_text:?}"
                    )));
                    return;
                }
            }
        };
        let Ok(seed_val) = seed.get_untracked().trim().parse::<u64>() else {
            sample_error.set(Some(format!(
                "Seed: expected a whole number, found {:?}",
                seed.get_untracked()
            )));
            return;
        };
        sample_error.set(None);
        let strat = stratify.get_untracked();
        let spec = SampleSpec {
            n: n_val,
            seed: seed_val,
            quota: (paper_quota.get_untracked() && !strat.is_empty())
                .then(core_review::Quota::mmiq_paper),
            stratify: (!strat.is_empty()).then_some(strat),
        };
        let keys: Vec<String> = core_review::sample(&set.items, &spec)
            .into_iter()
            .map(|i| set.items[i].key.clone())
            .collect();
        state.update(|w| {
            let r = w.sets.entry(set.name.clone()).or_default();
            r.sample = spec;
            r.keys = keys;
            r.position = 0;
        });
    };
    view! {
        <Show when=move || state.loaded.with(|l| !l.sets.is_empty())>
            <div class="card review-setup" data-testid="review-setup">
                <label class="field">
                    <span>"Result set"</span>
                    <select data-testid="set-select"
                        on:change=move |ev| {
                            let name = event_target_value(&ev);
                            state.update(|w| w.current = Some(name));
                        }>
                        {move || {
                            let current = state.ws.with(|w| w.current.clone());
                            state.loaded.with(|l| l.sets.iter().map(|s| {
                                let selected = current.as_deref() == Some(s.name.as_str());
                                let label = format!("{} ({} items, {})", s.name, s.items.len(), s.kind.scale());
                                view! { <option value=s.name.clone() selected=selected>{label}</option> }
                            }).collect_view())
                        }}
                    </select>
                </label>
                <div class="review-sample">
                    <label class="field">
                        <span>"Items (empty: all)"</span>
                        <input type="number" min="1" inputmode="numeric" data-testid="sample-n"
                            prop:value=move || n.get() on:input=move |ev| n.set(event_target_value(&ev)) />
                    </label>
                    <label class="field">
                        <span>"Seed"</span>
                        <input type="number" min="0" inputmode="numeric" data-testid="sample-seed"
                            prop:value=move || seed.get() on:input=move |ev| seed.set(event_target_value(&ev)) />
                    </label>
                    <label class="field">
                        <span>"Stratify by"</span>
                        <select data-testid="sample-stratify" on:change=move |ev| stratify.set(event_target_value(&ev))>
                            <option value="" selected=move || stratify.get().is_empty()>"(no strata)"</option>
                            {move || state.current.with(|c| c.as_ref().map(|s| s.fields.clone()).unwrap_or_default())
                                .into_iter().map(|f| {
                                    let value = f.clone();
                                    view! { <option value=f.clone() selected=move || stratify.get() == value>{f.clone()}</option> }
                                }).collect_view()}
                        </select>
                    </label>
                    <label class="field" title="Proportional allocation (default, ours) gives each stratum a share of the items in proportion to its size. The MM-IQ paper's error analysis drew 10 items per paradigm and 20 Mathematical (90 per model); with this box and a stratum field, each stratum takes that many (all of a smaller one) and the item count is ignored.">
                        <span>"Allocation"</span>
                        <span><input type="checkbox" data-testid="sample-paper-quota"
                            prop:checked=move || paper_quota.get()
                            on:change=move |ev| paper_quota.set(event_target_checked(&ev)) />
                            " MM-IQ paper's quotas: 10 per stratum, 20 Mathematical (default: proportional)"</span>
                    </label>
                    <button type="button" class="primary" data-testid="draw-sample" on:click=draw>
                        {move || if state.review.with(Option::is_some) { "Redraw sample (scores kept)" } else { "Start review" }}
                    </button>
                </div>
                {move || sample_error.get().map(|e| view! { <ErrorPanel title="Cannot draw the sample" message=e /> })}
            </div>
        </Show>
    }
}

/// Export and import of the review, with the merge's conflict report.
#[component]
fn ExportImport() -> impl IntoView {
    let state = expect_context::<ReviewState>();
    let client = StoredValue::new_local(use_worker());
    let import_error = RwSignal::new(None::<String>);
    let merged = RwSignal::new(None::<(String, MergeReport)>);
    let export_json = move |_| {
        let (Some(set), Some(review)) =
            (state.current.get_untracked(), state.review.get_untracked())
        else {
            return;
        };
        let text = records::export_json(&set.name, set.kind, &review);
        download_text(
            &format!("review-{}.json", slug(&set.name)),
            "application/json",
            &text,
        );
    };
    let export_csv = move |_| {
        let (Some(set), Some(review)) =
            (state.current.get_untracked(), state.review.get_untracked())
        else {
            return;
        };
        let text = records::export_csv(&set, &review);
        download_text(
            &format!("review-{}.csv", slug(&set.name)),
            "text/csv",
            &text,
        );
    };
    let on_import = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        let list = files_of(input.files());
        input.set_value("");
        let Some(file) = list.into_iter().next() else {
            return;
        };
        // Read and parsed in the scoring worker (the page parses no file).
        let name = file.name();
        let request = api::ReviewImport {
            file: FileRef {
                name: name.clone(),
                blob: file.into(),
            },
        };
        spawn_local(async move {
            let Some(client) = client.try_get_value() else {
                return;
            };
            let imported = match client.call(request).await {
                Ok(i) => i,
                Err(e) => {
                    import_error.set(Some(e));
                    return;
                }
            };
            let Some(current) = state.current.get_untracked() else {
                return;
            };
            // The set the file names, when loaded; else the one on screen.
            let target = imported
                .set
                .as_ref()
                .and_then(|name| {
                    state
                        .loaded
                        .with_untracked(|l| l.sets.iter().find(|s| &s.name == name).cloned())
                })
                .unwrap_or(current);
            if let Some(kind) = imported.kind {
                if kind != target.kind {
                    import_error.set(Some(format!(
                        "{}: a {:?} review cannot be merged into \"{}\" ({})",
                        name,
                        kind,
                        target.name,
                        target.kind.scale()
                    )));
                    return;
                }
            }
            import_error.set(None);
            let mut report = MergeReport::default();
            state.update(|w| {
                w.current = Some(target.name.clone());
                let r = w.sets.entry(target.name.clone()).or_default();
                if r.keys.is_empty() {
                    if let Some(keys) = imported.keys.clone() {
                        r.keys = keys;
                    }
                    if let Some(sample) = imported.sample.clone() {
                        r.sample = sample;
                    }
                    if r.keys.is_empty() {
                        r.keys = target.items.iter().map(|i| i.key.clone()).collect();
                    }
                }
                report = core_review::merge(&mut r.records, imported.records.clone());
            });
            merged.set(Some((name, report)));
        });
    };
    let resolve = move |keep: Keep| {
        let Some((name, report)) = merged.get_untracked() else {
            return;
        };
        state.update_review(|r| core_review::resolve(&mut r.records, &report.conflicts, keep));
        let mut done = report;
        done.conflicts.clear();
        merged.set(Some((name, done)));
    };
    view! {
        <div class="card review-io" data-testid="review-io">
            <h2>"Export / import"</h2>
            <div class="review-buttons">
                <button type="button" data-testid="export-json" on:click=export_json
                    disabled=move || state.review.with(Option::is_none)>"Export JSON"</button>
                <button type="button" data-testid="export-csv" on:click=export_csv
                    disabled=move || state.review.with(Option::is_none)>"Export CSV"</button>
                <label class="button">
                    "Import…"
                    <input type="file" accept=".json,.csv,application/json,text/csv" class="visually-hidden"
                        data-testid="import-input" on:change=on_import />
                </label>
            </div>
            {move || import_error.get().map(|e| view! { <ErrorPanel title="Import failed" message=e /> })}
            {move || merged.get().map(|(name, report)| {
                let conflicts = report.conflicts.clone();
                let has_conflicts = !conflicts.is_empty();
                view! {
                    <div class="notice" role="status" data-testid="merge-report">
                        <p>{format!("Imported {name}: {}.", records::merge_summary(&report))}</p>
                        <Show when=move || has_conflicts>
                            <p>"Scored differently here and in the file (yours are kept until you choose):"</p>
                            <ul class="conflicts" data-testid="conflicts">
                                {conflicts.iter().map(|c| view! {
                                    <li><strong>{c.key.clone()}</strong>
                                        {format!(": yours {} · imported {}", c.mine.describe(), c.theirs.describe())}</li>
                                }).collect_view()}
                            </ul>
                            <div class="review-buttons">
                                <button type="button" data-testid="keep-mine" on:click=move |_| resolve(Keep::Mine)>"Keep mine"</button>
                                <button type="button" data-testid="take-theirs" on:click=move |_| resolve(Keep::Theirs)>"Take imported"</button>
                            </div>
                        </Show>
                    </div>
                }
            })}
        </div>
    }
}
