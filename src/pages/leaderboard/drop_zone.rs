//! The drop zone: drag-drop (files and folders), a file picker and a folder picker. The picked
//! files go to the page's "stage" action; the lists below the zone (staged files, progress,
//! kept files, statuses) are in [`super::staged`] and [`super::files`].

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::actions::Picked;
use super::files::{FileStatuses, KeptFiles, ScoringProgress};
use super::staged::StagedFiles;
use super::state::BoardState;
use crate::components::error_panel::ErrorPanel;

/// The drop zone: drag-drop (files and folders), a file picker and a folder picker; the picked
/// files are listed with their detected format and guessed model (editable) until "Score";
/// then a progress bar per file and Cancel; the status of each scored file and the errors of
/// bad files.
#[component]
pub fn DropZone(
    /// Stages picked or dropped files (path, file).
    on_files: Callback<Picked>,
    /// Scores the staged files.
    on_score: Callback<()>,
    /// Stops scoring.
    on_cancel: Callback<()>,
    /// Forgets the files kept in this browser: all (`None`) or the one named.
    on_forget: Callback<Option<String>>,
) -> impl IntoView {
    let state = BoardState::get();
    let (over, set_over) = signal(false);
    let take_list = move |list: Option<web_sys::FileList>| {
        let Some(list) = list else { return };
        let files: Picked = (0..list.length())
            .filter_map(|i| list.get(i))
            .map(|f| (file_path(&f), f))
            .collect();
        if !files.is_empty() {
            on_files.run(files);
        }
    };
    let on_input = move |ev: leptos::ev::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        take_list(input.files());
        input.set_value("");
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        set_over.set(false);
        let Some(dt) = ev.data_transfer() else { return };
        let items = dt.items();
        let mut entries = Vec::new();
        for i in 0..items.length() {
            let Some(item) = items.get(i) else { continue };
            let entry = js_sys::Reflect::get(&item, &"webkitGetAsEntry".into())
                .ok()
                .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
                .and_then(|f| f.call0(&item).ok())
                .filter(|e| !e.is_null() && !e.is_undefined());
            match entry {
                Some(e) => entries.push(e),
                None => {
                    entries.clear();
                    break;
                }
            }
        }
        if entries.is_empty() {
            take_list(dt.files());
        } else {
            for e in entries {
                walk_entry(e, on_files);
            }
        }
    };
    // The lists below the zone change height as a run goes on (the staged table goes, the
    // progress comes and goes, the kept files and statuses come). Their height at "Score" is
    // held until the next click or key press, so what the run's end changes does not move the
    // tables under the zone: the Layout Instability API excuses only shifts within 500 ms of
    // an input, and a run often ends later (the layout-shift e2e test). Released as the click
    // starts its way to its target (capture phase), when the pointer has already come up on
    // it: released at the press, the page moved under the pointer before the button came up,
    // and the click landed on whatever had moved there.
    let lists_ref = NodeRef::<leptos::html::Div>::new();
    let held = RwSignal::new(None::<f64>);
    let score = move |()| {
        held.set(
            lists_ref
                .get_untracked()
                .map(|el| el.get_bounding_client_rect().height()),
        );
        on_score.run(());
    };
    let release = move |_: &web_sys::Event| {
        if held.get_untracked().is_some() {
            held.set(None);
        }
    };
    // Removed with the zone (a stored value is dropped when its owner is).
    StoredValue::new_local(web_sys::window().map(|w| {
        [
            gloo_events::EventListener::new_with_options(
                &w,
                "click",
                gloo_events::EventListenerOptions::run_in_capture_phase(),
                release,
            ),
            gloo_events::EventListener::new(&w, "keydown", release),
        ]
    }));
    let folder_ref = NodeRef::<leptos::html::Input>::new();
    Effect::new(move |_| {
        if let Some(el) = folder_ref.get() {
            let _ = el.set_attribute("webkitdirectory", "");
        }
    });
    view! {
        <div class="dropzone" class:over=move || over.get() data-testid="dropzone"
            on:dragover=move |ev: leptos::ev::DragEvent| { ev.prevent_default(); set_over.set(true); }
            on:dragleave=move |_| set_over.set(false)
            on:drop=on_drop>
            <p><strong>"Drop result files or folders here"</strong>" — MM-IQ predictions with the answer key \
                (JSONL or VLMEvalKit tables), KiVA run folders, the KiVA human data, MM-OPERA results. \
                Everything is scored in your browser."</p>
            <div class="dropzone-actions">
                <label class="button">
                    "Choose files…"
                    <input type="file" multiple class="visually-hidden" data-testid="file-input"
                        on:change=on_input />
                </label>
                <label class="button">
                    "Choose a folder…"
                    <input type="file" multiple class="visually-hidden" data-testid="folder-input"
                        node_ref=folder_ref on:change=on_input />
                </label>
            </div>
            <div class="dropzone-lists" node_ref=lists_ref
                style:min-height=move || held.get().map(|h| format!("{h}px"))>
                <StagedFiles on_score=Callback::new(score) />
                <ScoringProgress on_cancel=on_cancel />
                {move || state.error.get().map(|e| view! {
                    <ErrorPanel title="Scoring stopped" message=e />
                })}
                <KeptFiles on_forget=on_forget />
                <FileStatuses />
            </div>
        </div>
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

/// Stages each file of a dropped item with `on_files`, recursing into folders
/// (`DataTransferItem.webkitGetAsEntry`), with the path inside the dropped folder.
fn walk_entry(entry: wasm_bindgen::JsValue, on_files: Callback<Picked>) {
    use js_sys::Reflect;
    let get = |o: &wasm_bindgen::JsValue, k: &str| Reflect::get(o, &k.into()).ok();
    let is_file = get(&entry, "isFile")
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    let path = get(&entry, "fullPath")
        .and_then(|v| v.as_string())
        .unwrap_or_default()
        .trim_start_matches('/')
        .to_string();
    if is_file {
        let cb =
            wasm_bindgen::closure::Closure::once_into_js(move |file: wasm_bindgen::JsValue| {
                if let Ok(f) = file.dyn_into::<web_sys::File>() {
                    // The page may have gone meanwhile.
                    let _ = on_files.try_run(vec![(path, f)]);
                }
            });
        if let Some(func) = get(&entry, "file").and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        {
            let _ = func.call1(&entry, &cb);
        }
        return;
    }
    let Some(reader) = get(&entry, "createReader")
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| f.call0(&entry).ok())
    else {
        return;
    };
    read_dir(reader, on_files);
}

/// Reads a directory reader to the end (`readEntries` returns entries in batches).
fn read_dir(reader: wasm_bindgen::JsValue, on_files: Callback<Picked>) {
    let Some(read) = js_sys::Reflect::get(&reader, &"readEntries".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
    else {
        return;
    };
    let r2 = reader.clone();
    let cb = wasm_bindgen::closure::Closure::once_into_js(move |entries: wasm_bindgen::JsValue| {
        let entries = js_sys::Array::from(&entries);
        if entries.length() == 0 {
            return;
        }
        for e in entries.iter() {
            walk_entry(e, on_files);
        }
        read_dir(r2, on_files);
    });
    let _ = read.call1(&reader, &cb);
}
