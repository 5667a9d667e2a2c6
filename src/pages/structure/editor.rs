//! The model editor: constructs, task assignment, structure, scheme, human column,
//! thresholds, the paper-fidelity switches and spec import/export.
//!
//! The options of its selects are re-rendered whole when the model changes (not keyed), so
//! each option's `selected` is set afresh and agrees with the model.

use coglab_core::sem::engine::{Mode, Scheme};
use coglab_core::sem::suite::{DraftConstruct, Preset, SpecDraft};
use leptos::prelude::*;

use super::actions::{picked_file, Actions};
use super::fidelity::Fidelity;
use super::state::StructureState;
use crate::download::download_text;

/// The model editor: constructs, task assignment, structure, scheme, human column,
/// thresholds and spec import/export.
#[component]
pub fn Editor() -> impl IntoView {
    let state = expect_context::<StructureState>();
    let actions = expect_context::<Actions>();
    let (data, draft, prune) = (state.data, state.draft, state.prune);
    let on_spec_file = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        state.act();
        match picked_file(&input) {
            Some(Ok(file)) => {
                actions.import_spec.dispatch_local(file);
            }
            Some(Err(e)) => state.fail("Could not import the spec", e),
            None => {}
        }
    };
    let names = move || {
        draft
            .read()
            .constructs
            .iter()
            .map(|c| c.name.clone())
            .collect::<Vec<_>>()
    };
    let structural = move || {
        let d = draft.read();
        let mut v: Vec<String> = d.constructs.iter().map(|c| c.name.clone()).collect();
        v.extend(d.second_order.iter().map(|h| h.name.clone()));
        if let Some(h) = &d.human_column {
            if d.construct_of(h).is_none() {
                v.push(h.clone());
            }
        }
        v
    };
    let columns = move || {
        data.read()
            .as_ref()
            .map(|d| d.columns.clone())
            .unwrap_or_default()
    };
    let path_from = RwSignal::new(String::new());
    let path_to = RwSignal::new(String::new());
    let num_input = move |get: fn(&SpecDraft) -> f64,
                          set: fn(&mut SpecDraft, f64),
                          label: &'static str,
                          id: &'static str,
                          step: &'static str| {
        view! {
            <label>
                {label}
                <input
                    type="number"
                    step=step
                    data-testid=id
                    prop:value=move || get(&draft.read()).to_string()
                    on:change=move |ev| {
                        if let Ok(v) = event_target_value(&ev).trim().parse::<f64>() {
                            if v.is_finite() && v >= 0.0 {
                                draft.update(|d| set(d, v));
                            }
                        }
                    }
                />
            </label>
        }
    };
    view! {
        <div class="card st-editor" data-testid="editor">
            <h2>"2. Model"</h2>
            <div class="st-grid">
                <div>
                    <h3>"Constructs"</h3>
                    <ul class="st-constructs" data-testid="constructs">
                        <For
                            each=move || draft.read().constructs.clone().into_iter().enumerate()
                            key=|(i, c)| format!("{i}|{}|{:?}|{}", c.name, c.mode, c.indicators.len())
                            let((i, c))
                        >
                            {
                                let name = c.name.clone();
                                let name2 = c.name.clone();
                                let name3 = c.name.clone();
                                let n_ind = c.indicators.len();
                                view! {
                                    <li data-testid=format!("construct-{i}")>
                                        <input
                                            type="text"
                                            aria-label=format!("Name of construct {}", i + 1)
                                            value=name.clone()
                                            on:change=move |ev| {
                                                let new = event_target_value(&ev);
                                                let old = name.clone();
                                                draft.update(|d| { d.rename(&old, &new); });
                                            }
                                        />
                                        <select
                                            data-testid=format!("mode-{i}")
                                            aria-label=format!("Mode of {}", c.name)
                                            on:change=move |ev| {
                                                let m = if event_target_value(&ev) == "B" { Mode::B } else { Mode::A };
                                                let n = name2.clone();
                                                draft.update(|d| {
                                                    if let Some(c) = d.constructs.iter_mut().find(|c| c.name == n) {
                                                        c.mode = m;
                                                    }
                                                });
                                            }
                                        >
                                            <option value="A" selected=c.mode == Mode::A>"Mode A"</option>
                                            <option value="B" selected=c.mode == Mode::B>"Mode B"</option>
                                        </select>
                                        <span class="muted">{format!("{n_ind} tasks")}</span>
                                        <button
                                            type="button"
                                            class="danger-link"
                                            aria-label=format!("Delete construct {}", c.name)
                                            on:click=move |_| { let n = name3.clone(); draft.update(|d| d.delete(&n)); }
                                        >
                                            "Delete"
                                        </button>
                                    </li>
                                }
                            }
                        </For>
                    </ul>
                    <button
                        type="button"
                        data-testid="add-construct"
                        on:click=move |_| draft.update(|d| {
                            let name = d.fresh_name("Construct");
                            d.constructs.push(DraftConstruct { name, indicators: vec![], mode: Mode::A });
                        })
                    >
                        "Add construct"
                    </button>
                </div>
                <div>
                    <h3>"Tasks"</h3>
                    <table class="st-assign" data-testid="assign">
                        <thead><tr><th scope="col">"Task (column)"</th><th scope="col">"Construct"</th></tr></thead>
                        <tbody>
                            <For each=columns key=|c| c.clone() let(col)>
                                {
                                    let col2 = col.clone();
                                    let col3 = col.clone();
                                    view! {
                                        <tr>
                                            <th scope="row">{col.clone()}</th>
                                            <td>
                                                <select
                                                    data-testid=format!("assign-{col}")
                                                    aria-label=format!("Construct of {col}")
                                                    on:change=move |ev| {
                                                        let v = event_target_value(&ev);
                                                        let c = col2.clone();
                                                        draft.update(|d| d.assign(&c, if v.is_empty() { None } else { Some(v.as_str()) }));
                                                    }
                                                >
                                                    <option value="" selected=move || draft.read().construct_of(&col3).is_none()>"— not used —"</option>
                                                    {
                                                        let col4 = col.clone();
                                                        move || {
                                                            let cur = draft.read().construct_of(&col4).map(str::to_string);
                                                            names()
                                                                .into_iter()
                                                                .map(|n| {
                                                                    let sel = cur.as_deref() == Some(n.as_str());
                                                                    view! { <option value=n.clone() selected=sel>{n.clone()}</option> }
                                                                })
                                                                .collect::<Vec<_>>()
                                                        }
                                                    }
                                                </select>
                                            </td>
                                        </tr>
                                    }
                                }
                            </For>
                        </tbody>
                    </table>
                </div>
                <div>
                    <h3>"Structure"</h3>
                    <div class="st-row">
                        <button type="button" data-testid="preset-overall" on:click=move |_| draft.update(|d| d.apply_preset(Preset::LayersToOverall))>
                            "Preset: constructs → Overall"
                        </button>
                        <button type="button" data-testid="preset-chain" on:click=move |_| draft.update(|d| d.apply_preset(Preset::Chain))>
                            "Preset: chain"
                        </button>
                        <button type="button" on:click=move |_| draft.update(|d| { d.paths.clear(); d.second_order.clear(); })>
                            "Clear"
                        </button>
                    </div>
                    <p class="muted" data-testid="second-order">
                        {move || {
                            let d = draft.read();
                            d.second_order
                                .iter()
                                .map(|h| format!("{} (second order) ← {}", h.name, h.constructs.join(", ")))
                                .collect::<Vec<_>>()
                                .join("; ")
                        }}
                    </p>
                    <ul class="st-paths" data-testid="paths">
                        <For
                            each=move || draft.read().paths.clone().into_iter().enumerate()
                            key=|(k, (a, b))| format!("{k}|{a}|{b}")
                            let((k, (a, b)))
                        >
                            <li>
                                {format!("{a} → {b}")}
                                " "
                                <button type="button" class="danger-link" data-testid=format!("remove-path-{k}") aria-label=format!("Remove path {a} to {b}")
                                    on:click=move |_| draft.update(|d| { if k < d.paths.len() { d.paths.remove(k); } })>
                                    "Remove"
                                </button>
                            </li>
                        </For>
                    </ul>
                    <div class="st-row">
                        <select aria-label="Path from" data-testid="path-from" on:change=move |ev| path_from.set(event_target_value(&ev))>
                            <option value="">"from…"</option>
                            {move || structural().into_iter().map(|n| view! { <option value=n.clone()>{n.clone()}</option> }).collect::<Vec<_>>()}
                        </select>
                        <select aria-label="Path to" data-testid="path-to" on:change=move |ev| path_to.set(event_target_value(&ev))>
                            <option value="">"to…"</option>
                            {move || structural().into_iter().map(|n| view! { <option value=n.clone()>{n.clone()}</option> }).collect::<Vec<_>>()}
                        </select>
                        <button
                            type="button"
                            data-testid="add-path"
                            on:click=move |_| {
                                let (a, b) = (path_from.get_untracked(), path_to.get_untracked());
                                if !a.is_empty() && !b.is_empty() {
                                    draft.update(|d| d.paths.push((a, b)));
                                }
                            }
                        >
                            "Add path"
                        </button>
                    </div>
                    <h3>"Options"</h3>
                    <div class="st-options">
                        <label>
                            "Inner scheme "
                            <select data-testid="scheme" on:change=move |ev| {
                                let s = match event_target_value(&ev).as_str() {
                                    "factorial" => Scheme::Factorial,
                                    "centroid" => Scheme::Centroid,
                                    _ => Scheme::Path,
                                };
                                draft.update(|d| d.scheme = s);
                            }>
                                <option value="path" selected=move || draft.read().scheme == Scheme::Path>"path"</option>
                                <option value="factorial" selected=move || draft.read().scheme == Scheme::Factorial>"factorial"</option>
                                <option value="centroid" selected=move || draft.read().scheme == Scheme::Centroid>"centroid"</option>
                            </select>
                        </label>
                        <label>
                            "Human column "
                            <select data-testid="human" on:change=move |ev| {
                                let v = event_target_value(&ev);
                                draft.update(|d| d.human_column = (!v.is_empty()).then_some(v));
                            }>
                                <option value="">"none"</option>
                                {move || {
                                    let cur = draft.read().human_column.clone();
                                    columns().into_iter().map(|c| {
                                        let sel = cur.as_deref() == Some(c.as_str());
                                        view! { <option value=c.clone() selected=sel>{c.clone()}</option> }
                                    }).collect::<Vec<_>>()
                                }}
                            </select>
                        </label>
                        {num_input(|d| d.thresholds.vif_max, |d, v| d.thresholds.vif_max = v, "δ_VIF (max VIF) ", "vif-max", "0.1")}
                        {num_input(|d| d.thresholds.loading_min, |d, v| d.thresholds.loading_min = v, "λ_min (min loading) ", "loading-min", "0.05")}
                        {num_input(|d| d.thresholds.min_indicators as f64, |d, v| d.thresholds.min_indicators = v.round().max(1.0) as usize, "min tasks per construct ", "min-ind", "1")}
                        <label class="check">
                            <input type="checkbox" data-testid="prune" prop:checked=move || prune.get() on:change=move |ev| prune.set(event_target_checked(&ev)) />
                            " Prune"
                        </label>
                    </div>
                    <Fidelity />
                    <h3>"Spec"</h3>
                    <div class="st-row">
                        <button type="button" data-testid="export-spec" on:click=move |_| download_text("spec.json", "application/json", &draft.get_untracked().to_json())>
                            "Export spec JSON"
                        </button>
                        <label class="file-label">
                            "Import spec: "
                            <input type="file" data-testid="spec-file" accept=".json" on:change=on_spec_file />
                        </label>
                        <button type="button" data-testid="export-report" on:click=move |_| state.export_report()>
                            "Export whole report"
                        </button>
                    </div>
                    <details>
                        <summary>"Spec JSON"</summary>
                        <pre data-testid="spec-json" class="spec-json">{move || draft.read().to_json()}</pre>
                    </details>
                </div>
            </div>
        </div>
    }
}
