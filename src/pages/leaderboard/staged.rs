//! The files picked but not yet scored: one row per file with its format (detected from the
//! content, changeable) and model name (guessed from the path, editable), and "Score".

use coglab_core::leaderboard::FileKind;
use leptos::prelude::*;

use super::state::{BoardState, Staged};

/// The staged files' table, shown while files are staged, with "Score" and "Clear".
#[component]
pub fn StagedFiles(
    /// Scores the staged files.
    on_score: Callback<()>,
) -> impl IntoView {
    let state = BoardState::get();
    let staged = state.staged;
    let ids = move || staged.read().iter().map(|s| s.id).collect::<Vec<_>>();
    view! {
        <Show when=move || !staged.read().is_empty()>
            <div class="lb-staged" data-testid="lb-staged">
                <p class="lb-note">"Files to score: check the format (detected from the content) and the model name."</p>
                <div class="table-scroll">
                <table class="lb-table">
                    <thead><tr><th scope="col">"Score"</th><th scope="col">"File"</th>
                        <th scope="col">"Format"</th><th scope="col">"Model"</th></tr></thead>
                    <tbody>
                        <For each=ids key=|id| *id let:id>
                            {staged.with_untracked(|v| v.iter().find(|s| s.id == id).cloned())
                                .map(|s| view! { <StagedRow entry=s /> })}
                        </For>
                    </tbody>
                </table>
                </div>
                <div class="lb-controls">
                    <button type="button" class="primary" data-testid="lb-score" on:click=move |_| on_score.run(())>
                        {move || format!("Score {} files", staged.read().iter().filter(|s| s.include).count())}</button>
                    <button type="button" data-testid="lb-unstage" on:click=move |_| staged.set(Vec::new())>"Clear"</button>
                </div>
            </div>
        </Show>
    }
}

/// One staged file's row; its edits go to the staged list.
#[component]
fn StagedRow(
    /// The entry as it was staged.
    entry: Staged,
) -> impl IntoView {
    let staged = BoardState::get().staged;
    let id = entry.id;
    let edit = move |f: &mut dyn FnMut(&mut Staged)| {
        staged.update(|v| v.iter_mut().filter(|s| s.id == id).for_each(&mut *f));
    };
    let include = move || staged.with(|v| v.iter().any(|s| s.id == id && s.include));
    let kind_now = move || {
        staged.with(|v| {
            v.iter()
                .find(|s| s.id == id)
                .map(|s| format!("{:?}", s.kind))
        })
    };
    let Staged {
        path,
        kind,
        detected,
        model,
        note,
        file,
        ..
    } = entry;
    view! {
        <tr data-testid="staged-row" data-path=path.clone() data-kind=kind_now>
            <td><input type="checkbox" prop:checked=include
                aria-label=format!("score {path}")
                on:change=move |ev| { let on = event_target_checked(&ev); edit(&mut |s| s.include = on); } /></td>
            <td><code>{path.clone()}</code>" "<span class="lb-size">{size_text(file.size())}</span></td>
            <td>
                <select data-testid="staged-kind" aria-label=format!("format of {path}")
                    title="Detected from the file's content; choose another format to read the file as that"
                    on:change=move |ev| {
                        let k = FileKind::from_key(&event_target_value(&ev)).unwrap_or(FileKind::Unknown);
                        edit(&mut |s| { s.kind = k; s.include = k != FileKind::Unknown; });
                    }>
                    {(detected == FileKind::Unknown).then(|| view! { <option value="unknown" selected=kind == FileKind::Unknown>"not recognised: choose a format"</option> })}
                    // The formats: a static list.
                    {FileKind::CHOOSABLE.map(|k| view! {
                        <option value=k.key() selected=k == kind>
                            {k.label()}{(k == detected).then_some(" (detected)")}</option>
                    }).collect_view()}
                </select>
                {note.map(|n| view! { <p class="lb-note" role="alert" data-testid="staged-note">{n}</p> })}
            </td>
            <td><input type="text" data-testid="staged-model" prop:value=model
                aria-label=format!("model name for {path}")
                on:input=move |ev| {
                    let v = event_target_value(&ev);
                    // Untracked: typing does not redraw the list.
                    staged.update_untracked(|x| x.iter_mut().filter(|s| s.id == id).for_each(|s| s.model = v.clone()));
                } /></td>
        </tr>
    }
}

/// A file size in kB or MB.
fn size_text(bytes: f64) -> String {
    if bytes >= 1e6 {
        format!("{:.1} MB", bytes / 1e6)
    } else {
        format!("{:.1} kB", bytes / 1e3)
    }
}
