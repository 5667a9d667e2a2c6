//! Choosing the result set and drawing the sample (size, seed, strata, the MM-IQ paper's
//! quotas).
//!
//! The select's options are re-rendered whole when the sets change (not keyed), so each
//! option's `selected` is set afresh.

use coglab_core::review::{self as core_review, SampleSpec};
use leptos::prelude::*;

use super::state::ReviewState;
use crate::components::error_panel::ErrorPanel;

/// Choosing the result set and drawing the sample.
#[component]
pub fn SetPicker() -> impl IntoView {
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
            quota: (paper_quota.get_untracked() && !strat.is_empty() && set.benchmark == "MM-IQ")
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
                    // The quotas are the MM-IQ paper's: offered for MM-IQ sets only (issue 42,
                    // defect 16: the box showed for MM-OPERA sets too).
                    <Show when=move || state.current.with(|c| c.as_ref().is_some_and(|s| s.benchmark == "MM-IQ"))>
                    <label class="field" title="Proportional allocation (default, ours) gives each stratum a share of the items in proportion to its size. The MM-IQ paper's error analysis drew 10 items per paradigm and 20 Mathematical (90 per model); with this box and a stratum field, each stratum takes that many (all of a smaller one) and the item count is ignored.">
                        <span>"Allocation"</span>
                        <span><input type="checkbox" data-testid="sample-paper-quota"
                            prop:checked=move || paper_quota.get()
                            on:change=move |ev| paper_quota.set(event_target_checked(&ev)) />
                            " MM-IQ paper's quotas: 10 per stratum, 20 Mathematical (default: proportional)"</span>
                    </label>
                    </Show>
                    <button type="button" class="primary" data-testid="draw-sample" on:click=draw>
                        {move || if state.review.with(Option::is_some) { "Redraw sample (scores kept)" } else { "Start review" }}
                    </button>
                </div>
                {move || sample_error.get().map(|e| view! { <ErrorPanel title="Cannot draw the sample" message=e /> })}
            </div>
        </Show>
    }
}
