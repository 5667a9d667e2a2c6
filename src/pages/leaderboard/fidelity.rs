//! Paper-fidelity panels of the leaderboard (issue 23): MM-IQ response length beside the
//! paper's Table 3, the key's answer letters, and MM-OPERA's process-judge analyses. Every
//! figure comes from the core's report (`coglab_core::mmiq::MmiqReport::response_length`,
//! `letters`) or from the worker; this file only formats.

use coglab_core::leaderboard::MmiqRow;
use coglab_core::mmiq::PAPER_TOKEN_LENGTHS;
use leptos::prelude::*;

use crate::worker::api::{self, RowId};
use crate::worker::client::use_worker;

/// Response length per computed MM-IQ row (characters and whitespace tokens, mean and median),
/// beside the paper's Table 3 token lengths, and the key's answer-letter distribution.
#[component]
pub fn MmiqLengths(
    /// The computed MM-IQ rows.
    rows: RwSignal<Vec<MmiqRow>>,
) -> impl IntoView {
    let body = view! {
        <For each=move || rows.get() key=|r| r.id children=|r| {
            let cells = match &r.report.response_length {
                Some(l) => view! {
                    <td>{l.n}</td>
                    <td>{format!("{:.1}", l.chars_mean)}</td>
                    <td>{format!("{:.1}", l.chars_median)}</td>
                    <td>{format!("{:.1}", l.tokens_mean)}</td>
                    <td>{format!("{:.1}", l.tokens_median)}</td>
                }
                .into_any(),
                None => view! {
                    <td colspan="5">"no free-form responses (parsed letters only)"</td>
                }
                .into_any(),
            };
            view! {
                <tr data-testid="mmiq-length-row" data-model=r.model.clone()>
                    <th scope="row">{r.model.clone()}</th>
                    {cells}
                </tr>
            }
        } />
    };
    let letters = move || {
        let rows = rows.read();
        let l = &rows.first()?.report.letters;
        (l.key.n > 0).then(|| {
            let counts = l
                .key
                .counts
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ");
            view! {
                <p data-testid="mmiq-key-letters">
                    {format!(
                        "Answer key letters ({} items): {counts}. Always answering {} scores {:.2}% (the 25% chance row assumes even letters); each paradigm's own most common letter would score {:.2}%.",
                        l.key.n,
                        l.key.majority,
                        l.key.majority_share * 100.0,
                        l.per_category_majority * 100.0
                    )}
                </p>
            }
        })
    };
    view! {
        <details class="lb-files-box" data-testid="mmiq-lengths">
            <summary>"Response length and the key's answer letters"</summary>
            {letters}
            // Scrolls on its own at phone width instead of panning the page (issue 42,
            // defect 5).
            <div class="table-scroll">
            <table class="lb-table">
                <caption>"Response length per model (scored rows with a free-form response): characters and whitespace-separated tokens"</caption>
                <thead><tr>
                    <th scope="col">"Model"</th><th scope="col">"Responses"</th>
                    <th scope="col">"Characters, mean"</th><th scope="col">"Characters, median"</th>
                    <th scope="col">"Tokens, mean"</th><th scope="col">"Tokens, median"</th>
                </tr></thead>
                <tbody>
                    {body}
                    // The paper's rows: a static list.
                    {PAPER_TOKEN_LENGTHS.iter().map(|p| view! {
                        <tr data-testid="mmiq-length-paper">
                            <th scope="row">{format!("{} — MM-IQ paper, Table 3", p.model)}</th>
                            <td>"–"</td><td>"–"</td><td>"–"</td>
                            <td title="average token length as printed; the paper does not name its tokenizer, so whitespace tokens compare only roughly">{format!("{}", p.tokens)}</td>
                            <td>"–"</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
            </div>
        </details>
    }
}

/// The process judge's analyses of the MM-OPERA paper's §5.3 and Figure 3 for one model and
/// task: the distributions of S_r, R, D, K and hops per path (counts, from the core's report),
/// the shares above 0.75 the paper quotes, and the length bias of both judges (§5.5: 0.376 for
/// the regular judge, 0.291 for the PR-judge in the paper) under a short-answer threshold the
/// reader sets (the worker computes it again from the kept row: [`api::MmoperaLengthBias`]).
#[component]
pub fn OperaProcessAnalysis(
    /// The row's id in the worker.
    id: RowId,
    /// The model's task row.
    row: coglab_core::leaderboard::mmopera::MmoperaTaskRow,
) -> impl IntoView {
    use coglab_core::leaderboard::mmopera::LengthBiases;
    use coglab_core::mmopera::validate::LengthBias;
    let scored = LengthBiases {
        holistic: row.holistic.as_ref().and_then(|h| h.length_bias.clone()),
        process: row.reasoning.as_ref().and_then(|r| r.length_bias.clone()),
    };
    let default_length = scored
        .holistic
        .as_ref()
        .or(scored.process.as_ref())
        .map_or(50, |b| b.min_length);
    let biases = RwSignal::new(scored);
    // Why the threshold could not be applied (not a number, a published row): the figures
    // shown stay those of the last threshold that was.
    let refused = RwSignal::new(None::<String>);
    let task = row.task;
    let client = StoredValue::new_local(use_worker());
    // Each threshold's figures, computed again in the worker from the kept row.
    let recompute = Action::new_local(move |min_length: &usize| {
        let c = client.get_value();
        let request = api::MmoperaLengthBias {
            row: id,
            task,
            min_length: *min_length,
        };
        async move {
            match c.call(request).await {
                Ok(b) => {
                    biases.try_set(b);
                    refused.try_set(None);
                }
                Err(e) => {
                    refused.try_set(Some(e.to_string()));
                }
            }
        }
    });
    let set_threshold = move |ev: leptos::ev::Event| {
        let Ok(min_length) = event_target_value(&ev).trim().parse::<usize>() else {
            refused.set(Some(
                "the short-answer threshold is a whole number of characters, 0 or more (0 keeps every answer)".into(),
            ));
            return;
        };
        recompute.dispatch_local(min_length);
    };
    let bias = move |what: &'static str, paper: &'static str, process: bool| {
        let text = move || {
            let b = biases.get();
            let lb: Option<LengthBias> = if process { b.process } else { b.holistic };
            match lb {
                None => "no answers file among your files: not computed".to_string(),
                Some(lb) => match &lb.correlation {
                    Some(c) => format!(
                        "Pearson r {:.3} over {} answers ({} one-point answers shorter than {} characters left out)",
                        c.r, lb.n, lb.excluded, lb.min_length
                    ),
                    None => lb.note.clone().unwrap_or_default(),
                },
            }
        };
        view! { <li data-testid="mmopera-length-bias" data-judge=what>{move || format!("{what}: {}; the paper: {paper}", text())}</li> }
    };
    let threshold = view! {
        <label class="lb-inline" title="The paper leaves out \"short 1-point responses\" without giving a length; coglab's default is 50 characters (coglab score mmopera --min-length N sets it in the command line)">
            "Short-answer threshold (characters; the paper gives none, default 50): "
            <input type="number" min="0" step="1" inputmode="numeric" data-testid="mmopera-min-length"
                value=default_length.to_string() on:change=set_threshold />
        </label>
        {move || refused.get().map(|e| view! { <p class="error-panel" role="alert" data-testid="mmopera-min-length-error">{e}</p> })}
    };
    // The paper's §5.4 multi-image substitution test, or why the input cannot give it.
    let substitution = row.holistic.as_ref().map(|h| {
        let s = &h.substitution;
        let text = match (s.mean_sd, s.mean_range) {
            (Some(sd), Some(range)) => format!(
                "Multi-image substitution (paper §5.4): {} groups of concept-identical variants ({} items): mean within-group SD of the items' score rates {:.4}, mean range {:.4}.",
                s.groups, s.items, sd, range
            ),
            _ => format!(
                "Multi-image substitution (paper §5.4): {}.",
                s.note.clone().unwrap_or_default()
            ),
        };
        view! { <p data-testid="mmopera-substitution">{text}</p> }
    });
    let Some(r) = row.reasoning.clone() else {
        return view! {
            <ul class="lb-notes">{bias("holistic judge", "0.376", false)}</ul>
            {threshold}
            {substitution}
        }
        .into_any();
    };
    let d = r.distribution.clone();
    let line = |name: &'static str, m: Vec<(String, usize)>| {
        let cells = m
            .into_iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect::<Vec<_>>()
            .join(" · ");
        view! { <tr data-testid="mmopera-process-dist" data-dist=name><th scope="row">{name}</th><td>{cells}</td></tr> }
    };
    let a = d.above;
    let pct = |x: f64| format!("{:.1}%", x * 100.0);
    view! {
        <div data-testid="mmopera-process">
            <div class="table-scroll">
            <table class="lb-table">
                <caption>{format!(
                    "Process judge (paper §5.3, Figure 3): counts over {} items, {} paths, {} valid hops",
                    r.n, r.paths, r.hops
                )}</caption>
                <tbody>
                    {line("S_r per item", d.score.into_iter().collect())}
                    {line("R per hop", d.r.into_iter().collect())}
                    {line("D per hop", d.d.into_iter().collect())}
                    {line("K per hop", d.k.into_iter().collect())}
                    {line("hops per path", d.hops.into_iter().map(|(k, v)| (k.to_string(), v)).collect())}
                </tbody>
            </table>
            </div>
            <p data-testid="mmopera-above" data-path-r=a.path_r.to_string() data-path-d=a.path_d.to_string()>
                {format!(
                    "Above 0.75 (the paper's \"scoring above 75%\"): of {} paths (mean of their hops) R {}, D {}, K {}; of the hops R {}, D {}.",
                    a.paths, pct(a.path_r), pct(a.path_d), pct(a.path_k), pct(a.hop_r), pct(a.hop_d)
                )}
            </p>
            <ul class="lb-notes">
                {bias("holistic judge", "0.376", false)}
                {bias("process judge", "0.291", true)}
            </ul>
            {threshold}
            {substitution}
        </div>
    }
    .into_any()
}
