//! Below the drop zone: the scoring progress (overall and per file, with Cancel), the files
//! kept in this browser (with "Forget"), and the status of every file scored (a notice for a
//! file waiting for its partner, an error panel for a file that failed).

use coglab_core::leaderboard::{FileState, FileStatus};
use leptos::prelude::*;

use super::state::{BoardState, ScoreStatus, ScoringRun};
use crate::components::error_panel::ErrorPanel;

/// One file's line of the progress.
#[derive(Debug, Clone, PartialEq)]
struct FileProgress {
    /// Its path.
    path: String,
    /// Done, 0 to 1 (`None`: under way, unknown).
    value: Option<f64>,
    /// What is happening to it.
    state: &'static str,
}

/// Each file's progress in a run. While the worker reads (and parses) the files, `done` counts
/// bytes over all of them, in the order they were sent: each file's share is known from its
/// size. Then the worker names the file it scores.
fn file_progress(run: &ScoringRun) -> Vec<FileProgress> {
    let p = &run.progress;
    let reading = p.label.starts_with("reading ");
    let mut before = 0.0;
    run.files
        .iter()
        .map(|s| {
            let (value, state) = if reading {
                let f = ((p.done - before) / s.size.max(1.0)).clamp(0.0, 1.0);
                before += s.size;
                match f {
                    f if f >= 1.0 => (Some(1.0), "read"),
                    f if f > 0.0 => (Some(f), "reading…"),
                    _ => (Some(0.0), "waiting"),
                }
            } else {
                match run.seen.iter().position(|l| *l == s.path) {
                    Some(k) if k + 1 < run.seen.len() || p.done >= p.total => (Some(1.0), "scored"),
                    Some(_) => (None, "scoring…"),
                    None => (Some(0.0), "waiting"),
                }
            };
            FileProgress {
                path: s.path.clone(),
                value,
                state,
            }
        })
        .collect()
}

/// The progress of the files being scored, overall and per file, with Cancel.
#[component]
pub fn ScoringProgress(
    /// Stops scoring.
    on_cancel: Callback<()>,
) -> impl IntoView {
    let scoring = BoardState::get().scoring;
    let run = Memo::new(move |_| match scoring.get() {
        ScoreStatus::Scoring(run) => Some(run),
        ScoreStatus::Idle => None,
    });
    let files = Memo::new(move |_| run.with(|r| r.as_ref().map(file_progress).unwrap_or_default()));
    let line = move |path: &str| files.with(|f| f.iter().find(|x| x.path == path).cloned());
    let heading = move || {
        run.with(|r| {
            let p = &r.as_ref()?.progress;
            Some(match p.label.strip_prefix("reading ") {
                Some(what) => format!("Reading {what}"),
                None if p.label.is_empty() => "Starting…".to_string(),
                None => format!("Scoring {} ({} of {} files)", p.label, p.done, p.total),
            })
        })
    };
    view! {
        <Show when=move || run.with(Option::is_some)>
            <div class="lb-progress" role="status" data-testid="lb-progress">
                <progress max="1" value=move || run.with(|r| r.as_ref().map(|r| r.progress.fraction()))
                    aria-label="all files"></progress>
                <span>{heading}</span>
                <button type="button" on:click=move |_| on_cancel.run(()) data-testid="lb-cancel">"Cancel"</button>
                <ul class="lb-file-progress">
                    <For each=move || files.get() key=|f| f.path.clone() let:f>
                        {
                            let path = f.path.clone();
                            let (p1, p2, p3) = (path.clone(), path.clone(), path.clone());
                            view! {
                                <li><code>{path}</code>
                                    <progress max="1" value=move || line(&p1).and_then(|l| l.value)
                                        aria-label=move || line(&p2).map(|l| format!("{} {}", l.path, l.state))></progress>
                                    <span>{move || line(&p3).map(|l| l.state)}</span></li>
                            }
                        }
                    </For>
                </ul>
            </div>
        </Show>
    }
}

/// The files kept in this browser: how many, "Forget these files" (which asks first: issue 26,
/// defect 13) and the list, each with "Remove"; and why they could not be kept.
#[component]
pub fn KeptFiles(
    /// Forgets the kept files: all (`None`) or the one named.
    on_forget: Callback<Option<String>>,
) -> impl IntoView {
    let kept = BoardState::get().kept;
    let confirm_forget = RwSignal::new(false);
    let files = move |n: usize| if n == 1 { "file" } else { "files" };
    view! {
        <Show when=move || !kept.names.read().is_empty()>
            <div class="lb-kept" data-testid="lb-kept" role="group" aria-label="Files kept in this browser">
                <p>
                    <span data-testid="lb-kept-count">{move || {
                        let n = kept.names.read().len();
                        let r = kept.restored.read().len();
                        let again = if r > 0 { format!(" ({r} scored again from this browser's storage)") } else { String::new() };
                        format!("{n} {} kept in this browser{again}: they are scored again each time you open the leaderboard, and never leave this machine.",
                            files(n))
                    }}</span>" "
                    <Show when=move || !confirm_forget.get()>
                        <button type="button" data-testid="lb-forget" on:click=move |_| confirm_forget.set(true)>"Forget these files"</button>
                    </Show>
                </p>
                <Show when=move || confirm_forget.get()>
                    <p class="lb-confirm" role="alert" data-testid="lb-forget-ask">
                        {move || {
                            let n = kept.names.read().len();
                            format!("Forget all {n} kept {}? Their rows leave the table and the files leave this browser's storage; the originals on your disk are not touched.",
                                files(n))
                        }}" "
                        <button type="button" class="danger" data-testid="lb-forget-confirm"
                            on:click=move |_| { confirm_forget.set(false); on_forget.run(None); }>"Forget them"</button>" "
                        <button type="button" class="secondary" data-testid="lb-forget-keep"
                            on:click=move |_| confirm_forget.set(false)>"Keep them"</button>
                    </p>
                </Show>
                <details>
                    <summary>"Kept files"</summary>
                    <ul class="lb-kept-list">
                        <For each=move || kept.names.get() key=|name| name.clone() let:name>
                            {
                                let n2 = name.clone();
                                view! {
                                    <li data-testid="kept-file" data-path=name.clone()><code>{name.clone()}</code>" "
                                        <button type="button" class="lb-remove" aria-label=format!("Forget {name}")
                                            on:click=move |_| on_forget.run(Some(n2.clone()))>"Remove"</button></li>
                                }
                            }
                        </For>
                    </ul>
                </details>
            </div>
        </Show>
        {move || kept.error.get().map(|e| view! {
            <ErrorPanel title="Could not keep the files in this browser" message=e />
        })}
    }
}

/// The status of every file scored: a summary box with one line per file, then a notice for
/// each file waiting for a partner and an error panel for each file that failed.
#[component]
pub fn FileStatuses() -> impl IntoView {
    let state = BoardState::get();
    let (files, restored) = (state.files, state.kept.restored);
    // Keyed by position, path and status: a file scored twice (not kept) is listed twice, and a
    // file scored again with another outcome is drawn again.
    let with_status = move |status: Option<FileState>| {
        files
            .get()
            .into_iter()
            .enumerate()
            .filter(|(_, f)| status.is_none_or(|s| f.status == s))
            .collect::<Vec<_>>()
    };
    let key = |(i, f): &(usize, FileStatus)| (*i, f.file.clone(), f.status, f.message.clone());
    view! {
        <Show when=move || !files.read().is_empty()>
            <details class="lb-files-box" data-testid="lb-files-box">
                <summary>{move || {
                    let f = files.read();
                    let count = |s: FileState| f.iter().filter(|f| f.status == s).count();
                    let waiting = count(FileState::Waiting);
                    format!("{} files loaded: {} scored, {} with errors, {} not scored here{}",
                        f.len(), count(FileState::Ok), count(FileState::Error), count(FileState::Unsupported),
                        if waiting > 0 { format!(", {waiting} waiting for a partner file") } else { String::new() })
                }}</summary>
                <ul class="lb-files" data-testid="lb-files">
                    <For each=move || with_status(None) key=key children=move |(_, f)| view! {
                        <li class=format!("lb-file status-{}", f.status) data-status=f.status.as_str()>
                            <span class="badge">{f.status.as_str()}</span>
                            " "<code>{f.file.clone()}</code>" · "{f.kind.label()}
                            {(!f.model.is_empty()).then(|| format!(" · model {}", f.model))}
                            {f.message.clone().filter(|_| matches!(f.status, FileState::Unsupported | FileState::Waiting)).map(|m| format!(" · {m}"))}
                            {
                                let file = f.file.clone();
                                move || restored.with(|r| r.contains(&file)).then_some(" · from this browser's storage")
                            }
                        </li>
                    } />
                </ul>
            </details>
        </Show>
        // Files waiting for a partner (kept; scored when it comes): a notice, not an error.
        <For each=move || with_status(Some(FileState::Waiting)) key=key children=|(_, f)| view! {
            <p class="notice lb-waiting" role="status" data-testid="lb-waiting" data-path=f.file.clone()>
                <code>{f.file.clone()}</code>" "{f.message.unwrap_or_default()}
                ". It is kept in this browser meanwhile."
            </p>
        } />
        <For each=move || with_status(Some(FileState::Error)) key=key children=|(_, f)| view! {
            <ErrorPanel title=format!("Could not score {}", f.file) message=f.message.unwrap_or_default() />
        } />
    }
}
