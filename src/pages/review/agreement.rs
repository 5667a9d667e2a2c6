//! The live agreement panel: reviewer vs judge on the reviewed items, from
//! `coglab_core::review::agreement`, and the items where they disagree most.

use coglab_core::review::{agreement, error_tally, Agreement, AgreementReport, ErrorType, SetKind};
use leptos::prelude::*;

use super::state::ReviewState;

fn pct(v: Option<f64>) -> String {
    v.map_or("–".into(), |v| format!("{:.1}%", v * 100.0))
}

fn num(v: Option<f64>) -> String {
    v.map_or("–".into(), |v| format!("{v:.3}"))
}

/// Agreement between the reviewer and the judge, updated on every score.
#[component]
pub fn AgreementPanel() -> impl IntoView {
    let state = expect_context::<ReviewState>();
    let report = Memo::new(move |_| -> Option<AgreementReport> {
        let set = state.current.get()?;
        let review = state.review.get()?;
        Some(agreement(&set, &review, 5))
    });
    // Issue 23: the MM-IQ paper's error types tallied per paradigm (`category`).
    let tally = Memo::new(move |_| {
        let set = state.current.get()?;
        let review = state.review.get()?;
        let t = error_tally(&set, &review, "category");
        (t.typed > 0).then_some(t)
    });
    view! {
        <div class="card review-agreement" data-testid="agreement">
            <h2>"Agreement with the judge"</h2>
            {move || report.get().map(|r| {
                let ids: Vec<String> = r.measures.iter()
                    .map(|m| m.label.split_whitespace().next().unwrap_or("").to_ascii_lowercase())
                    .collect();
                let head = r.measures.iter().map(|m| view! { <th scope="col">{m.label.clone()}</th> }).collect_view();
                type Stat = fn(&Agreement) -> String;
                let stats: [(&str, &str, Stat); 6] = [
                    ("n", "Pairs", |m| m.n.to_string()),
                    ("exact", "Exact match", |m| pct(m.exact_match)),
                    ("mad", "Mean abs. difference", |m| num(m.mean_abs_diff)),
                    ("r", "Pearson r", |m| num(m.pearson_r)),
                    ("kappa", "Cohen's κ", |m| num(m.kappa)),
                    ("wkappa", "Weighted κ (quadratic)", |m| num(m.weighted_kappa)),
                ];
                let rows = stats.iter().filter(|(id, _, _)| *id != "wkappa" || r.kind == SetKind::Holistic)
                    .map(|(id, label, f)| {
                        let cells = r.measures.iter().zip(&ids).map(|(m, mid)| view! {
                            <td class="num" data-testid=format!("agree-{mid}-{id}")>{f(m)}</td>
                        }).collect_view();
                        view! { <tr><th scope="row">{*label}</th>{cells}</tr> }
                    }).collect_view();
                let notes: Vec<String> = r.measures.iter().flat_map(|m| m.notes.iter().map(move |n| format!("{}: {n}", m.label))).collect();
                // Why "Pairs" can be fewer than the items reviewed (issue 26, defect 14).
                let unpaired: Vec<String> = r.measures.iter().filter(|m| m.n < r.reviewed).map(|m| {
                    let k = r.reviewed - m.n;
                    format!("{k} reviewed {} no usable judge verdict for {} (the judge's output could not be read as a score), so {} not in its pairs",
                        if k == 1 { "item has" } else { "items have" }, m.label, if k == 1 { "it is" } else { "they are" })
                }).collect();
                let worst = r.disagreements.clone();
                let typology = tally.get().map(|t| {
                    let head = ErrorType::ALL.map(|e| view! { <th scope="col">{e.label()}</th> }).collect_view();
                    let line = |name: String, m: &std::collections::BTreeMap<String, usize>| {
                        let cells = ErrorType::ALL.map(|e| view! {
                            <td class="num">{m.get(e.name()).copied().unwrap_or(0)}</td>
                        }).collect_view();
                        let label = name.clone();
                        view! { <tr data-testid="error-tally-row" data-stratum=name><th scope="row">{label}</th>{cells}</tr> }
                    };
                    let rows = t.by_stratum.iter().map(|(k, m)| line(k.clone(), m)).collect_view();
                    view! {
                        <h3>"Error types per paradigm (the MM-IQ paper's typology)"</h3>
                        <div class="table-scroll">
                            <table class="agree-table" data-testid="error-tally">
                                <thead><tr><th scope="col">"Paradigm"</th>{head}</tr></thead>
                                <tbody>{rows}{line("All".into(), &t.total)}</tbody>
                            </table>
                        </div>
                    }
                });
                view! {
                    {typology}
                    <p class="muted" data-testid="agree-reviewed">{format!("{} of {} sampled items reviewed", r.reviewed, r.sampled)}</p>
                    {(!unpaired.is_empty()).then(|| view! {
                        <p class="muted" data-testid="agree-unpaired">
                            "Pairs are the reviewed items that also have a usable judge score: "
                            {unpaired.join("; ")}"."
                        </p>
                    })}
                    <div class="table-scroll">
                        <table class="agree-table">
                            <thead><tr><th scope="col">"Statistic"</th>{head}</tr></thead>
                            <tbody>{rows}</tbody>
                        </table>
                    </div>
                    {(!notes.is_empty()).then(|| view! {
                        <details class="agree-notes"><summary>"Why some values are missing"</summary>
                            <ul>{notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
                        </details>
                    })}
                    <h3>"Largest disagreements"</h3>
                    {if worst.is_empty() {
                        view! { <p class="muted">"None yet."</p> }.into_any()
                    } else {
                        view! {
                            <ol class="disagreements" data-testid="disagreements">
                                {worst.into_iter().map(|d| {
                                    let key = d.key.clone();
                                    view! {
                                        <li>
                                            <button type="button" class="link" on:click=move |_| {
                                                let pos = state.review.with_untracked(|r| r.as_ref().and_then(|r| r.keys.iter().position(|k| *k == key)));
                                                if let Some(p) = pos { state.go(p); }
                                            }>{d.key.clone()}</button>
                                            {format!(": judge {} · you {} (off by {})", d.judge, d.reviewer,
                                                format!("{:.2}", d.difference).trim_end_matches('0').trim_end_matches('.'))}
                                        </li>
                                    }
                                }).collect_view()}
                            </ol>
                        }.into_any()
                    }}
                }
            })}
        </div>
    }
}
