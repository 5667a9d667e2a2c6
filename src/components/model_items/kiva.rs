//! A KiVA model's trials (answers per regeneration and stage) and a KiVA challenge run's.

use super::*;

/// Stage names of the KiVA model page's columns.
const KIVA_STAGES: [&str; 3] = ["What (1)", "How (2)", "Apply (3)"];

/// A KiVA run's page: every trial with its domain and subdomain, the three stages' scores (the
/// share of regenerations right; stage 2 conditional or joint as the tab's switch says),
/// right/wrong per stage, a wrong-only and a domain filter, pages, and the per-domain summary.
/// Trials come from the worker ([`api::Trials`]).
#[component]
pub fn KivaTrials(
    /// The computed KiVA rows to choose from, as (row id, model name).
    #[prop(into)]
    rows: Signal<Vec<(RowId, String)>>,
    /// The selected row id (shared with the URL); `None` picks the first row.
    selected: RwSignal<Option<RowId>>,
    /// Stage 2 as the joint score (skipped counted as 0).
    #[prop(into)]
    joint: Signal<bool>,
) -> impl IntoView {
    let client = StoredValue::new_local(use_worker());
    let (wrong_only, set_wrong_only) = signal(false);
    let (domain, set_domain) = signal(String::new());
    let (offset, set_offset) = signal(0usize);
    let pick = picked(rows, selected);
    let page = latest_reply(
        move || {
            let id = pick.get();
            let query = TrialsQuery {
                wrong_only: wrong_only.get(),
                domain: Some(domain.get()).filter(|d| !d.is_empty()),
                joint: joint.get(),
                offset: offset.get(),
                limit: PAGE,
            };
            (id, query)
        },
        move |(id, query)| {
            let client = client.get_value();
            async move { Some(client.call(api::Trials { row: id?, query }).await) }
        },
    );
    let options = model_options(rows, pick);
    view! {
        <section class="lb-model" data-testid="kiva-trials" aria-labelledby="lb-kiva-model-h">
            <h2 class="lb-subhead" id="lb-kiva-model-h">"Model page"</h2>
            <div class="lb-controls">
                <label>"Model "
                    <select data-testid="kiva-model-pick" on:change=move |ev| {
                        set_offset.set(0);
                        selected.set(event_target_value(&ev).parse().ok());
                    }>{options}</select>
                </label>
                <label>"Domain "
                    <select data-testid="trial-domain" on:change=move |ev| {
                        set_offset.set(0);
                        set_domain.set(event_target_value(&ev));
                    }>
                        <option value="">"All"</option>
                        {coglab_core::kiva::DOMAINS.iter().map(|d| view! { <option value=*d>{*d}</option> }).collect_view()}
                    </select>
                </label>
                <label><input type="checkbox" data-testid="trial-wrong-only"
                    on:change=move |ev| { set_offset.set(0); set_wrong_only.set(event_target_checked(&ev)); } />
                    " Trials with a stage wrong only"</label>
                {download_items(client, rows, pick, "trials", "trials-csv")}
                {download_eee(client, rows, pick)}
                {download_hf(client, rows, pick)}
            </div>
            {move || match page.get() {
                None => view! { <p class="loading" aria-busy="true">"Loading trials…"</p> }.into_any(),
                Some(None) => ().into_any(),
                Some(Some(Err(e))) => view! { <WorkerErrorPanel title="Could not load the trials" error=e /> }.into_any(),
                Some(Some(Ok(p))) => {
                    let id = pick.get_untracked().unwrap_or_default();
                    trials_view(p, joint.get_untracked(), offset, set_offset, (client, id)).into_any()
                }
            }}
        </section>
    }
}

/// The model's answers to one trial: per regeneration, each stage's outcome and whole answer
/// (long answers collapsed).
fn answers_view(trial: &str, regs: Vec<RegenerationAnswers>) -> impl IntoView {
    let stages = ["What (1)", "How (2)", "Apply (3)"];
    let rows = regs
        .into_iter()
        .map(|r| {
            let cells = stages
                .iter()
                .zip(r.outcomes)
                .zip(r.answers)
                .map(|((stage, outcome), answer)| {
                    let (mark, class) = match outcome {
                        Outcome::Correct => ("✓ right", "ok"),
                        Outcome::Empty => ("not asked", "lb-muted"),
                        Outcome::Wrong => ("✗ wrong", "bad"),
                        Outcome::Null => ("✗ no option named", "bad"),
                    };
                    let text = answer.unwrap_or_default();
                    let body = if text.chars().count() > 160 {
                        let short: String = text.chars().take(160).collect();
                        view! { <details><summary>{format!("{short}…")}</summary><p class="lb-response">{text}</p></details> }.into_any()
                    } else {
                        view! { <span class="lb-response">{text}</span> }.into_any()
                    };
                    view! {
                        <li><strong>{*stage}</strong>" "<span class=class>{mark}</span>" "{body}</li>
                    }
                })
                .collect_view();
            view! {
                <li data-testid="answer-regeneration">
                    {format!("Regeneration {} (line {})", r.regeneration, r.line)}
                    <ul>{cells}</ul>
                </li>
            }
        })
        .collect_view();
    view! {
        <p class="lb-note">{format!("{trial}: the model's answers, from its run file.")}</p>
        <ul class="lb-answers">{rows}</ul>
    }
}

fn trials_view(
    p: TrialsPage,
    joint: bool,
    offset: ReadSignal<usize>,
    set_offset: WriteSignal<usize>,
    (client, id): (
        StoredValue<crate::worker::client::WorkerClient, LocalStorage>,
        RowId,
    ),
) -> impl IntoView {
    let how = if joint {
        "How (2, joint)"
    } else {
        "How (2, conditional)"
    };
    let mean = |m: Option<coglab_core::stats::describe::MeanSe>| {
        m.map_or_else(
            || "–".to_string(),
            |m| format!("{} ± {}", pct(m.mean), pct(m.se)),
        )
    };
    let stage2 = |s: &coglab_core::kiva::StageStats| {
        if joint {
            s.within_joint
        } else {
            s.within_conditional
        }
    };
    let summary = p
        .by_domain
        .iter()
        .map(|(d, s)| {
            let right = p.right_by_domain.get(d).copied().unwrap_or_default();
            let counts = right.map(|(r, n)| format!("{r} of {n}"));
            view! {
                <tr data-domain=d.clone()><th scope="row">{d.clone()}</th>
                    <td class="num">{mean(s.cross)}</td><td class="num">{mean(stage2(s))}</td>
                    <td class="num">{mean(s.extrapolation)}</td>
                    <td class="num">{counts.join(" · ")}</td></tr>
            }
        })
        .collect_view();
    let total = p.total;
    let first = p.offset;
    let shown = p.trials.len();
    let body = p
        .trials
        .into_iter()
        .map(|t| {
            let person = t.participant.is_some();
            let who = t.participant.map(|x| format!(" ({x})")).unwrap_or_default();
            let wrong = t.right.contains(&Some(false));
            let domain = t.domain.clone();
            let trial = format!("{} #{}{who}", t.subdomain, t.variation);
            let label = StoredValue::new(trial.clone());
            let open = RwSignal::new(false);
            let answers = RwSignal::new(None::<Result<Vec<RegenerationAnswers>, api::WorkerError>>);
            let (subdomain, variation) = (t.subdomain.clone(), t.variation);
            let toggle = move |_| {
                open.update(|o| *o = !*o);
                if open.get_untracked() && answers.get_untracked().is_none() {
                    let client = client.get_value();
                    let request = api::Answers {
                        row: id,
                        subdomain: subdomain.clone(),
                        variation,
                    };
                    leptos::task::spawn_local(async move {
                        answers.set(Some(client.call(request).await));
                    });
                }
            };
            view! {
                <tr data-testid="trial-row" data-wrong=wrong.to_string() data-domain=domain
                    data-trial=format!("{}#{}", t.subdomain, t.variation)>
                    <td>{t.domain}</td>
                    <td>{trial.clone()}</td>
                    <td class="num">{t.rows}</td>
                    {score_cell(t.scores[0], t.right[0])}
                    {score_cell(t.scores[1], t.right[1])}
                    {score_cell(t.scores[2], t.right[2])}
                    <td class="num">{t.line}</td>
                    <td>{(!person).then(|| view! {
                        <button type="button" class="lb-linkish" data-testid="trial-answers-toggle"
                            aria-expanded=move || open.get().to_string() on:click=toggle>
                            {move || if open.get() { "Hide" } else { "Show" }}
                        </button>
                    })}</td>
                </tr>
                <Show when=move || open.get()>
                    <tr class="lb-answers-row" data-testid="trial-answers">
                        <td colspan="8">{move || match answers.get() {
                            None => view! { <p class="loading" aria-busy="true">"Reading the run file…"</p> }.into_any(),
                            Some(Err(e)) => view! { <WorkerErrorPanel title="Could not read the answers" error=e /> }.into_any(),
                            Some(Ok(regs)) => label.with_value(|l| answers_view(l, regs)).into_any(),
                        }}</td>
                    </tr>
                </Show>
            }
        })
        .collect_view();
    view! {
        <p class="lb-note">{format!("Per domain, over all trials: mean % ± SE of each stage, and the trials counted right ({}).", p.rule)}</p>
        <div class="table-scroll">
        <table class="lb-table lb-summary-table" data-testid="trial-summary">
            <thead><tr><th scope="col">"Domain"</th><th scope="col">{KIVA_STAGES[0]}</th>
                <th scope="col">{how}</th><th scope="col">{KIVA_STAGES[2]}</th>
                <th scope="col">"Trials right (what · how · apply)"</th></tr></thead>
            <tbody>{summary}
                <tr data-domain="All"><th scope="row">"All"</th>
                    <td class="num">{mean(p.overall.cross)}</td><td class="num">{mean(stage2(&p.overall))}</td>
                    <td class="num">{mean(p.overall.extrapolation)}</td><td></td></tr>
            </tbody>
        </table>
        </div>
        <div class="lb-controls lb-pager" role="group" aria-label="Trial pages">
            <span role="status" data-testid="trial-count">{if total == 0 {
                "No trial matches.".to_string()
            } else {
                format!("Trials {}–{} of {total}", first + 1, first + shown)
            }}</span>
            <button type="button" disabled=move || offset.get() == 0
                on:click=move |_| set_offset.update(|o| *o = o.saturating_sub(PAGE))>"Previous"</button>
            <button type="button" disabled={first + shown >= total} data-testid="trial-next"
                on:click=move |_| set_offset.update(|o| *o += PAGE)>"Next"</button>
        </div>
        <div class="table-scroll">
            <table class="lb-table lb-items">
                <thead><tr>
                    <th scope="col">"Domain"</th><th scope="col">"Trial"</th>
                    <th scope="col" title="Regenerations of the trial (rows of a person)">"Runs"</th>
                    <th scope="col" title="Share of regenerations right">{KIVA_STAGES[0]}</th>
                    <th scope="col" title="Share of regenerations right">{how}</th>
                    <th scope="col" title="Share of regenerations right">{KIVA_STAGES[2]}</th>
                    <th scope="col">"Line"</th>
                    <th scope="col">"Answers"</th>
                </tr></thead>
                <tbody>{body}</tbody>
            </table>
        </div>
    }
}

/// A KiVA challenge result's trials (the drill-down of its row on the KiVA table): trial id,
/// level, domain, concept, the answer as given, the option read from it, the correct option
/// and right/wrong, a wrong-only filter and pages; the trials not answered and the results not
/// mapped are counted. Trials come from the worker ([`api::ChallengeItems`]).
#[component]
pub fn ChallengeTrials(
    /// The KiVA challenge rows to choose from, as (row id, model name).
    #[prop(into)]
    rows: Signal<Vec<(RowId, String)>>,
) -> impl IntoView {
    let client = StoredValue::new_local(use_worker());
    let selected = RwSignal::new(None::<RowId>);
    let (wrong_only, set_wrong_only) = signal(false);
    let (offset, set_offset) = signal(0usize);
    let pick = picked(rows, selected);
    let page = latest_reply(
        move || {
            let id = pick.get();
            let query = coglab_core::leaderboard::detail::ChallengeQuery {
                wrong_only: wrong_only.get(),
                offset: offset.get(),
                limit: PAGE,
            };
            (id, query)
        },
        move |(id, query)| {
            let client = client.get_value();
            async move { Some(client.call(api::ChallengeItems { row: id?, query }).await) }
        },
    );
    let options = model_options(rows, pick);
    view! {
        <section class="lb-model" data-testid="challenge-trials" aria-labelledby="lb-challenge-h">
            <h2 class="lb-subhead" id="lb-challenge-h">"KiVA challenge trials"</h2>
            <div class="lb-controls">
                <label>"Result "
                    <select data-testid="challenge-pick" on:change=move |ev| {
                        set_offset.set(0);
                        selected.set(event_target_value(&ev).parse().ok());
                    }>{options}</select>
                </label>
                <label><input type="checkbox" data-testid="challenge-wrong-only"
                    on:change=move |ev| { set_offset.set(0); set_wrong_only.set(event_target_checked(&ev)); } />
                    " Wrong answers only"</label>
            </div>
            {move || match page.get() {
                None => view! { <p class="loading" aria-busy="true">"Loading trials…"</p> }.into_any(),
                Some(None) => ().into_any(),
                Some(Some(Err(e))) => view! { <WorkerErrorPanel title="Could not load the trials" error=e /> }.into_any(),
                Some(Some(Ok(p))) => challenge_view(p, offset, set_offset).into_any(),
            }}
        </section>
    }
}

fn challenge_view(
    p: coglab_core::leaderboard::detail::ChallengePage,
    offset: ReadSignal<usize>,
    set_offset: WriteSignal<usize>,
) -> impl IntoView {
    let (total, first, shown) = (p.total, p.offset, p.items.len());
    let body = p
        .items
        .into_iter()
        .map(|i| {
            let cls = if i.is_correct { "ok" } else { "bad" };
            let mut answer: String = i.answer.chars().take(MAX_RESPONSE).collect();
            if i.answer.chars().count() > MAX_RESPONSE {
                answer.push('…');
            }
            view! {
                <tr data-testid="challenge-row" data-trial=i.annotation.id.clone() data-correct=i.is_correct.to_string()>
                    <td>{i.annotation.id.clone()}</td>
                    <td>{i.annotation.level.clone()}</td>
                    <td>{i.annotation.domain.clone()}</td>
                    <td>{i.annotation.concept.clone()}</td>
                    <td class="lb-response-cell"><span class="lb-response">{answer}</span></td>
                    <td><mark>{i.chosen.map_or_else(|| "none".to_string(), |c| format!("({c})"))}</mark></td>
                    <td>{format!("({})", i.annotation.correct)}</td>
                    <td class=cls>{if i.is_correct { "✓ right" } else { "✗ wrong" }}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <p class="lb-note" data-testid="challenge-note">{format!(
            "{} annotated trials without a result (not counted); {} results not mapped to an annotated trial.",
            p.not_answered,
            p.unmapped.len()
        )}</p>
        <div class="lb-controls lb-pager" role="group" aria-label="Challenge trial pages">
            <span role="status" data-testid="challenge-count">{if total == 0 {
                "No trial matches.".to_string()
            } else {
                format!("Trials {}–{} of {total}", first + 1, first + shown)
            }}</span>
            <button type="button" disabled=move || offset.get() == 0
                on:click=move |_| set_offset.update(|o| *o = o.saturating_sub(PAGE))>"Previous"</button>
            <button type="button" disabled={first + shown >= total}
                on:click=move |_| set_offset.update(|o| *o += PAGE)>"Next"</button>
        </div>
        <div class="table-scroll">
            <table class="lb-table lb-items">
                <thead><tr>
                    <th scope="col">"Trial"</th><th scope="col">"Level"</th>
                    <th scope="col">"Domain"</th><th scope="col">"Concept"</th>
                    <th scope="col">"Answer"</th>
                    <th scope="col" title="The first (X) in the answer, else a lone letter">"Read as"</th>
                    <th scope="col">"Correct"</th><th scope="col">"Result"</th>
                </tr></thead>
                <tbody>{body}</tbody>
            </table>
        </div>
    }
}
