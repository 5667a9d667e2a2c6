//! Export and import of the review (JSON, CSV), with the merge's conflict report.

use coglab_core::review::records::{self, ImportedReview};
use coglab_core::review::{self as core_review, Keep, MergeReport};
use leptos::prelude::*;

use super::actions::files_of;
use super::state::ReviewState;
use crate::components::error_panel::ErrorPanel;
use crate::download::download_text;
use crate::pages::applying;
use crate::worker::api::{self, FileRef};
use crate::worker::client::use_worker;

/// Export and import of the review, with the merge's conflict report.
#[component]
pub fn ExportImport() -> impl IntoView {
    let state = expect_context::<ReviewState>();
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
    // One import at a time (one file picker): a second import picked before the worker has
    // read the first replaces it.
    let client = StoredValue::new_local(use_worker());
    let import = applying(
        move |file: &FileRef| {
            let file = file.clone();
            async move {
                let client = client.try_get_value().ok_or("the page was left")?;
                let name = file.name.clone();
                // Read and parsed in the scoring worker (the page parses no file).
                let imported = client
                    .call(api::ReviewImport { file })
                    .await
                    .map_err(|e| e.to_string())?;
                Ok::<_, String>((name, imported))
            }
        },
        move |out| match out
            .and_then(|(name, imported)| merge(state, &name, imported).map(|report| (name, report)))
        {
            Ok(merge) => {
                import_error.set(None);
                merged.set(Some(merge));
            }
            Err(e) => import_error.set(Some(e)),
        },
    );
    let on_import = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        let list = files_of(input.files());
        input.set_value("");
        let Some(file) = list.into_iter().next() else {
            return;
        };
        import.dispatch_local(FileRef {
            name: file.name(),
            blob: file.into(),
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

/// Merges an imported review into the set its file names (when loaded; else the one on
/// screen), and returns the merge's report; an error when nothing is on screen to merge into
/// or the kinds differ.
fn merge(state: ReviewState, name: &str, imported: ImportedReview) -> Result<MergeReport, String> {
    let current = state
        .current
        .get_untracked()
        .ok_or_else(|| format!("{name}: no result set is open to import the review into"))?;
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
            return Err(format!(
                "{}: a {:?} review cannot be merged into \"{}\" ({})",
                name,
                kind,
                target.name,
                target.kind.scale()
            ));
        }
    }
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
    Ok(report)
}

/// A file name's stem for the exports (`review-{slug}.json`).
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
