//! Loading files: the drop zone and picker, and the list of loaded files with what each was
//! used as and its read errors.

use leptos::prelude::*;

use super::actions::files_of;
use super::state::ReviewState;
use crate::components::error_panel::ErrorPanel;

/// The drop zone and file picker; the files are read, kept in the store and built into sets.
#[component]
pub fn DropZone() -> impl IntoView {
    let state = expect_context::<ReviewState>();
    let (over, set_over) = signal(false);
    let take = move |list: Vec<web_sys::File>| {
        if !list.is_empty() {
            state.actions.add_files.dispatch_local(list);
        }
    };
    let on_input = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        take(files_of(input.files()));
        input.set_value("");
    };
    view! {
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
    }
}

/// The loaded files and what each was used as, with read errors.
#[component]
fn FileList() -> impl IntoView {
    let state = expect_context::<ReviewState>();
    // One line per set and per note, keyed by place and text.
    let rows = move || {
        state.loaded.with(|l| {
            let mut rows: Vec<String> = l
                .sets
                .iter()
                .map(|s| format!("{}: {} items", s.name, s.items.len()))
                .collect();
            rows.extend(l.notes.iter().map(|(f, what)| format!("{f}: {what}")));
            rows.into_iter().enumerate().collect::<Vec<_>>()
        })
    };
    view! {
        <Show when=move || !state.files.with(Vec::is_empty)>
            <details class="review-files" data-testid="review-files">
                <summary>{move || {
                    let n = state.files.with(Vec::len);
                    let sets = state.loaded.with(|l| l.sets.len());
                    format!("{n} files loaded, {sets} reviewable sets")
                }}</summary>
                <ul>
                    <For each=rows key=|r| r.clone() let((_, r))>
                        <li>{r}</li>
                    </For>
                </ul>
            </details>
            {move || state.loaded.with(|l| (!l.errors.is_empty()).then(|| view! {
                <ErrorPanel title="Some files could not be read" message=l.errors.join("\n") />
            }))}
        </Show>
    }
}
