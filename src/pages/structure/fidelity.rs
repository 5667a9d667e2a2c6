//! The paper-fidelity switches (issue 23): where Gold's paper and our choice differ, each
//! position labelled with its source, the default named, and the glossary sentences; the
//! stated scale and the cells outside it, flagged before any fit.

use coglab_core::sem::suite::{MeasurementPreset, FIDELITY_GLOSSARY};
use coglab_core::sem::{ArenaPlacement, HtmtVariant, PruneVariant, Scale};
use leptos::prelude::*;

use super::state::StructureState;
use crate::worker::api::{self, SemSwitches};
use crate::worker::client::latest_reply;

/// `LOW:HIGH` as a scale; `None` for an empty or unreadable text.
fn parse_scale(text: &str) -> Option<Scale> {
    let (a, b) = text.split_once(':')?;
    let (low, high) = (a.trim().parse::<f64>().ok()?, b.trim().parse::<f64>().ok()?);
    (low.is_finite() && high.is_finite() && low < high).then_some(Scale { low, high })
}

/// A scale as typed (`LOW:HIGH`); empty for none.
fn scale_text(s: Option<Scale>) -> String {
    s.map(|s| format!("{}:{}", s.low, s.high))
        .unwrap_or_default()
}

/// The paper-fidelity switches (issue 23): where Gold's paper and our choice differ, each
/// position labelled with its source, the default named, and the glossary sentences.
#[component]
pub fn Fidelity() -> impl IntoView {
    let state = expect_context::<StructureState>();
    let (draft, switches, data) = (state.draft, state.switches, state.data);
    let sel = move |f: fn(&SemSwitches) -> bool| move || f(&switches.read());
    let scale_error = RwSignal::new(None::<String>);
    // Issue 23: the cells outside the stated scale, flagged as soon as a matrix, a spec and a
    // scale are there, before any fit (the worker checks its kept matrix). `None` without a
    // matrix or a scale, and for a spec without tasks or a matrix the worker no longer keeps
    // (the fit reads it again): nothing to flag yet, so the worker's message is not shown.
    let worker = state.worker;
    let checked = latest_reply(
        move || {
            let matrix = data.read().as_ref().map(|d| d.matrix);
            let scale = switches.read().scale;
            matrix.zip(scale).map(|(matrix, scale)| api::SemRange {
                matrix,
                spec: draft.get(),
                scale,
            })
        },
        move |request| {
            let client = worker.try_get_value();
            async move { client?.call(request?).await.ok() }
        },
    );
    let before_fit = move || checked.get().flatten();
    view! {
        <h3>"Paper fidelity"</h3>
        <div class="st-options" data-testid="fidelity">
            <label>
                "HTMT "
                <select data-testid="htmt-variant" on:change=move |ev| {
                    let v = if event_target_value(&ev) == "eq1" { HtmtVariant::Eq1 } else { HtmtVariant::Standard };
                    switches.update(|s| s.htmt = v);
                }>
                    <option value="standard" selected=sel(|s| s.htmt == HtmtVariant::Standard)>{format!("{} (default)", HtmtVariant::Standard.label())}</option>
                    <option value="eq1" selected=sel(|s| s.htmt == HtmtVariant::Eq1)>{HtmtVariant::Eq1.label()}</option>
                </select>
            </label>
            <label>
                "Pruning "
                <select data-testid="prune-variant" on:change=move |ev| {
                    let v = if event_target_value(&ev) == "algorithm1" { PruneVariant::Algorithm1 } else { PruneVariant::Stepwise };
                    switches.update(|s| s.prune_variant = v);
                }>
                    <option value="stepwise" selected=sel(|s| s.prune_variant == PruneVariant::Stepwise)>{format!("{} (default)", PruneVariant::Stepwise.label())}</option>
                    <option value="algorithm1" selected=sel(|s| s.prune_variant == PruneVariant::Algorithm1)>{PruneVariant::Algorithm1.label()}</option>
                </select>
            </label>
            <label>
                "Human column enters as "
                <select data-testid="arena-placement" on:change=move |ev| {
                    let v = if event_target_value(&ev) == "top_indicator" { ArenaPlacement::TopIndicator } else { ArenaPlacement::Construct };
                    switches.update(|s| s.arena = v);
                }>
                    <option value="construct" selected=sel(|s| s.arena == ArenaPlacement::Construct)>{format!("{} (default)", ArenaPlacement::Construct.label())}</option>
                    <option value="top_indicator" selected=sel(|s| s.arena == ArenaPlacement::TopIndicator)>{ArenaPlacement::TopIndicator.label()}</option>
                </select>
            </label>
            <div class="st-row">
                "Measurement: "
                <button type="button" data-testid="preset-mode-a" on:click=move |_| draft.update(|d| d.apply_measurement(MeasurementPreset::ModeA))>
                    {format!("{} (default)", MeasurementPreset::ModeA.label())}
                </button>
                <button type="button" data-testid="preset-formative" on:click=move |_| draft.update(|d| d.apply_measurement(MeasurementPreset::PaperFormative))>
                    {MeasurementPreset::PaperFormative.label()}
                </button>
                <span class="muted" data-testid="measurement-current">
                    {move || match draft.read().measurement() {
                        Some(p) => format!("now: {}", p.label()),
                        None => "now: mixed modes".into(),
                    }}
                </span>
            </div>
            <p class="muted" data-testid="measurement-note">{MeasurementPreset::PAPER_NOTE}</p>
            <label>
                "Stated scale of the tasks (LOW:HIGH, empty = no check) "
                <input type="text" data-testid="scale" placeholder="e.g. 0:100" size="8"
                    prop:value=move || scale_text(switches.read().scale)
                    on:change=move |ev| {
                        let t = event_target_value(&ev);
                        if t.trim().is_empty() {
                            scale_error.set(None);
                            switches.update(|s| s.scale = None);
                        } else if let Some(sc) = parse_scale(&t) {
                            scale_error.set(None);
                            switches.update(|s| s.scale = Some(sc));
                        } else {
                            scale_error.set(Some(format!("scale: expected LOW:HIGH with LOW < HIGH (e.g. 0:100), found {t:?}")));
                        }
                    } />
            </label>
            <label class="check">
                <input type="checkbox" data-testid="exclude-out-of-range"
                    prop:checked=move || switches.read().exclude_out_of_range
                    on:change=move |ev| { let v = event_target_checked(&ev); switches.update(|s| s.exclude_out_of_range = v) } />
                " Exclude out-of-range cells (treat as missing; default: fit as given)"
            </label>
            {move || scale_error.get().map(|e| view! { <p class="error-panel" role="alert" data-testid="scale-error">{e}</p> })}
            {move || before_fit().map(|cells| {
                if cells.is_empty() {
                    view! { <p class="muted" data-testid="out-of-range-before" data-count="0">"No task cell outside the stated scale."</p> }.into_any()
                } else {
                    let list: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
                    let what = if switches.read().exclude_out_of_range {
                        "They will be treated as missing (the box is ticked)."
                    } else {
                        "The fit takes them as given (the default); tick the box to treat them as missing."
                    };
                    view! {
                        <p class="error-panel" role="alert" data-testid="out-of-range-before" data-count=cells.len().to_string()>
                            <strong>"Before fitting: "</strong>
                            {format!("{} task cell(s) outside the stated scale: {}. {what}", cells.len(), list.join("; "))}
                        </p>
                    }.into_any()
                }
            })}
        </div>
        <details data-testid="fidelity-glossary">
            <summary>"Which source each switch follows"</summary>
            <dl>
                {FIDELITY_GLOSSARY.iter().map(|(k, v)| view! { <dt>{*k}</dt><dd>{*v}</dd> }).collect::<Vec<_>>()}
            </dl>
        </details>
    }
}
