//! KiVA's own images as the self-test's stimuli: a folder picker (the repository's
//! `transformed objects/KiVA` layout) and a picker for its trial files. The core
//! (`selftest::stimuli::session_from_folder`, run in the scoring worker) builds the trials from the listing; the images
//! are shown through object URLs of the picked files, so nothing is uploaded. Object URLs do
//! not survive a reload: the answers do (saved as for drawn sessions), and picking the folder
//! again resumes the session.

use std::collections::BTreeMap;

use coglab_core::selftest::stimuli::tracker_subdomain;

use crate::worker::api::{self, FileRef};
use crate::worker::client::{use_worker, WorkerClient};
use coglab_core::selftest::Session;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::components::error_panel::ErrorPanel;

/// A session built from picked images, with the object URL of each image it uses.
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    /// The seed it was built with.
    pub seed: u64,
    /// The session (its trials name images by their path in the folder).
    pub session: Session,
    /// Image path → object URL.
    pub urls: BTreeMap<String, String>,
}

impl Loaded {
    fn revoke(&self) {
        for u in self.urls.values() {
            let _ = web_sys::Url::revoke_object_url(u);
        }
    }
}

/// The page's loaded stimuli (provided by the self-test page, read by the runner).
#[derive(Clone, Copy)]
pub struct LoadedStimuli(pub RwSignal<Option<Loaded>>);

impl LoadedStimuli {
    /// Provides an empty store; revokes its object URLs when the page goes away.
    pub fn provide() -> Self {
        let s = LoadedStimuli(RwSignal::new(None));
        provide_context(s);
        on_cleanup(move || {
            if let Some(l) = s.0.try_get_untracked().flatten() {
                l.revoke();
            }
        });
        s
    }
}

/// Path of a picked file: its folder-relative path for a folder pick, else its name.
fn file_path(f: &web_sys::File) -> String {
    js_sys::Reflect::get(f, &"webkitRelativePath".into())
        .ok()
        .and_then(|v| v.as_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| f.name())
}

fn files_of(ev: &leptos::ev::Event) -> Vec<web_sys::File> {
    let Some(input) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
    else {
        return Vec::new();
    };
    input
        .files()
        .map(|l| (0..l.length()).filter_map(|i| l.get(i)).collect())
        .unwrap_or_default()
}

/// Reads the trial files among `files`, builds the session and makes the object URLs.
async fn load(
    client: WorkerClient,
    files: Vec<web_sys::File>,
    seed: u64,
) -> Result<Loaded, String> {
    let paths: Vec<String> = files.iter().map(file_path).collect();
    let trackers = files
        .iter()
        .zip(&paths)
        .filter(|(_, p)| tracker_subdomain(p).is_some())
        .map(|(f, p)| FileRef {
            name: p.clone(),
            blob: f.clone().into(),
        })
        .collect();
    let request = api::SelftestFolder {
        paths: paths.clone(),
        trackers,
        seed,
    };
    let session = client.call(request).await.map_err(|e| e.to_string())?;
    let used: std::collections::BTreeSet<&str> = session
        .trials
        .iter()
        .filter_map(|t| t.images.as_ref())
        .flat_map(|i| {
            [&i.train_input, &i.train_output, &i.test_input]
                .into_iter()
                .chain(i.test_options.iter())
                .map(String::as_str)
        })
        .collect();
    let mut urls = BTreeMap::new();
    for (f, p) in files.iter().zip(&paths) {
        if used.contains(p.as_str()) && !urls.contains_key(p) {
            let url = web_sys::Url::create_object_url_with_blob(f)
                .map_err(|_| format!("{p}: the browser could not show this image"))?;
            urls.insert(p.clone(), url);
        }
    }
    Ok(Loaded {
        seed,
        session,
        urls,
    })
}

/// The pickers for KiVA's images and trial files; on success the session is put in the
/// page's [`LoadedStimuli`] and `on_loaded` runs.
#[component]
pub fn StimuliPicker(
    /// The seed that picks the variations and orders the trials.
    #[prop(into)]
    seed: Signal<u64>,
    /// Called once the session is built.
    on_loaded: Callback<()>,
) -> impl IntoView {
    let store = expect_context::<LoadedStimuli>();
    let client = StoredValue::new_local(use_worker());
    let folder: StoredValue<Vec<web_sys::File>, LocalStorage> = StoredValue::new_local(Vec::new());
    let trials: StoredValue<Vec<web_sys::File>, LocalStorage> = StoredValue::new_local(Vec::new());
    let counts = RwSignal::new((0usize, 0usize));
    let error = RwSignal::new(None::<String>);
    let busy = RwSignal::new(false);
    let folder_ref = NodeRef::<leptos::html::Input>::new();
    Effect::new(move |_| {
        if let Some(el) = folder_ref.get() {
            let _ = el.set_attribute("webkitdirectory", "");
        }
    });
    let build = move || {
        let files: Vec<web_sys::File> = folder.with_value(|f| {
            f.iter()
                .cloned()
                .chain(trials.with_value(|t| t.clone()))
                .collect()
        });
        if files.is_empty() {
            return;
        }
        busy.set(true);
        let seed = seed.get_untracked();
        let client = client.get_value();
        wasm_bindgen_futures::spawn_local(async move {
            let r = load(client, files, seed).await;
            busy.set(false);
            match r {
                Ok(l) => {
                    error.set(None);
                    if let Some(old) = store.0.get_untracked() {
                        old.revoke();
                    }
                    store.0.set(Some(l));
                    on_loaded.run(());
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    view! {
        <fieldset class="card selftest-stimuli" data-testid="stimuli">
            <legend>"Or use KiVA's own images"</legend>
            <p class="hint">
                "Pick the folder "<code>"transformed objects/KiVA"</code>" of the KiVA repository \
                 (or a folder containing it) and its trial files "
                <code>"trial_tracker/KiVA/output_*.txt"</code>
                ". 14 trials, one per subdomain, with the same three questions. The images are \
                 shown from your disk: nothing is uploaded."
            </p>
            <div class="selftest-stimuli-inputs">
                <label>
                    "Image folder "
                    <input
                        type="file"
                        multiple
                        node_ref=folder_ref
                        data-testid="stimuli-folder"
                        on:change=move |ev| {
                            let f = files_of(&ev);
                            counts.update(|c| c.0 = f.len());
                            folder.set_value(f);
                        }
                    />
                </label>
                <label>
                    "Trial files "
                    <input
                        type="file"
                        multiple
                        accept=".txt"
                        data-testid="stimuli-trials"
                        on:change=move |ev| {
                            let f = files_of(&ev);
                            counts.update(|c| c.1 = f.len());
                            trials.set_value(f);
                        }
                    />
                </label>
            </div>
            <p class="hint" aria-live="polite" data-testid="stimuli-status">
                {move || {
                    let (a, b) = counts.get();
                    if busy.get() {
                        "Reading…".to_string()
                    } else if a + b == 0 {
                        "Nothing picked yet.".to_string()
                    } else {
                        format!("{a} files in the folder, {b} trial files picked.")
                    }
                }}
            </p>
            {move || error.get().map(|e| view! { <ErrorPanel title="These images cannot be used" message=e /> })}
            <button
                type="button"
                class="button"
                data-testid="stimuli-start"
                disabled=move || counts.get().0 == 0 || busy.get()
                on:click=move |_| build()
            >
                "Start with these images"
            </button>
        </fieldset>
    }
}
