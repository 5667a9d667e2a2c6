//! The leaderboard's "scores from few items" parts (issue 40), over a board's computed rows:
//! - the estimated full-benchmark score of each computed row below full coverage (MM-IQ, KiVA),
//!   beside its coverage in the table ([`estimate_marks`]) and in a footnote under the table
//!   that names the calibration, defines the figure and holds the "Rank by estimated scores"
//!   switch ([`EstimatesNote`]; `est=1` in the address, [`rank_by_estimates`]);
//! - the planner beside the paired ranks ([`PlannerPanel`]): the board's minimum detectable
//!   difference now, and the items a typed difference needs at the board's power;
//! - the benchmark quality panel ([`QualityPanel`]): per benchmark and category, items,
//!   reliability, SEM, signal, noise, their ratio, MDD and the warnings.
//!
//! Every figure comes from the worker's replies ([`api::Estimates`], [`api::Planner`],
//! [`api::Quality`]; the core's `items::partial`, `ranks::plan`, `ranks::quality`); this
//! module only formats them (proportions as points or percentages).

use std::collections::HashMap;

use coglab_core::items::partial::{BoardEstimates, RowEstimate};
use coglab_core::items::KivaStages;
use coglab_core::ranks::plan::Plan;
use coglab_core::ranks::quality::{NoiseKind, QualityPanel as Panel, QualityRow};
use coglab_core::ranks::view::{definition, RankRequest};
use leptos::prelude::*;

use super::state::BoardState;
use crate::components::board_table::{Board, BoardCell, EstimateMark, EstimateMarks};
use crate::components::error_panel::WorkerErrorPanel;
use crate::worker::api::{self, RowId, WorkerError};
use crate::worker::client::{latest_reply, LatestReply};

/// The latest [`api::Estimates`] reply of a board (`None` inside: no computed row).
pub type EstimatesReply =
    LatestReply<(Vec<(RowId, String)>, KivaStages), Option<Result<BoardEstimates, WorkerError>>>;

/// What an estimated score is, shown under the table (a phone has no hover).
pub const ESTIMATE_DEFINITION: &str = "Estimated score: the expected proportion right over \
    every item of the benchmark, from the items a run answered and item parameters fitted on \
    the complete runs of this board (2PL; MM-IQ with a guessing floor of 1/4 for its four \
    options). Its 95% interval covers both the uncertainty of the model's ability and the \
    items it did not answer. It is withheld, with the reason, when the board has fewer than \
    20 complete runs or they cannot be calibrated. The table's own figure counts unanswered \
    items as wrong.";

/// The quality panel's definitions, in its glossary (from docs/glossary-mmiq-kiva.md).
const QUALITY_GLOSSARY: [(&str, &str); 7] = [
    ("Reliability", "KR-20 on 0/1 items, Cronbach's alpha on trial means, over the models that answered every item of the set (the models are the respondents, so on a few models it is itself uncertain)."),
    ("SEM", "Standard error of measurement, SD · √(1 − reliability), in points, with SD the spread of those models' scores."),
    ("Signal", "The standard deviation of the models' scores, in points: how far apart the models are."),
    ("Noise", "How far a model's score would move if measured again, in points: the bootstrap SD over items, or for runs with regenerations (KiVA, marked regen.) the SD over regenerations with the items fixed; the root mean square over models."),
    ("Ratio", "Signal / noise (Heineman et al. 2025): the higher, the more often the set picks the better model."),
    ("MDD", "The smallest difference, in points, the set's items tell apart at the panel's α and power (as the board's minimum detectable difference, with n the set's items)."),
    ("Warning", "Shown when a set's MDD is above the spread of the models' scores: it cannot separate the models shown."),
];

/// A proportion as points with one decimal (`0.3124` → `31.2`).
fn points(x: f64) -> String {
    format!("{:.1}", 100.0 * x)
}

/// An optional proportion as points, `–` when absent.
fn opt_points(x: Option<f64>) -> String {
    x.map(points).unwrap_or_else(|| "–".into())
}

/// A count with thousands separators (`2710` → `2,710`).
fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The rows with the names they have on the rank board: the k-th row of a repeated name is
/// `name (k)` (as [`crate::components::rank_panel::mark_keys`]), so that each estimate's
/// respondent id names one row.
pub fn board_names(rows: &[(RowId, String)]) -> Vec<(RowId, String)> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    rows.iter()
        .map(|(id, name)| {
            let k = seen.entry(name.as_str()).or_insert(0);
            *k += 1;
            let shown = if *k == 1 {
                name.clone()
            } else {
                format!("{name} ({k})")
            };
            (*id, shown)
        })
        .collect()
}

/// The calibration model's name as a reader says it (`2pl+guess(0.25)` → `2PL, guessing floor
/// 0.25`).
fn model_label(model: &str) -> String {
    match model
        .strip_prefix("2pl+guess(")
        .and_then(|g| g.strip_suffix(')'))
    {
        Some(g) => format!("2PL, guessing floor {g}"),
        None if model == "2pl" => "2PL".into(),
        None => model.to_string(),
    }
}

fn runs(n: usize) -> &'static str {
    if n == 1 {
        "row"
    } else {
        "rows"
    }
}

/// The calibration named: `calibrated on 24 complete rows (2,710 items), 2PL, guessing floor
/// 0.25`, or why there is none.
pub fn calibration_text(e: &BoardEstimates) -> String {
    match &e.calibration {
        Some(c) => format!(
            "calibrated on {} complete {} ({} items), {}",
            c.respondents,
            runs(c.respondents),
            thousands(c.items as u64),
            model_label(&c.model)
        ),
        None => format!(
            "not calibrated: {} complete {} on this board",
            e.calibration_rows.len(),
            runs(e.calibration_rows.len())
        ),
    }
}

/// A row's mark: `est. 31.2% [27.0, 35.4]`, or `est. withheld: <the core's reason>`.
pub fn estimate_text(r: &RowEstimate) -> String {
    match (&r.estimate, &r.withheld) {
        (Some(e), _) => format!(
            "est. {}% [{}, {}]",
            points(e.estimate),
            points(e.ci_low),
            points(e.ci_high)
        ),
        (None, Some(why)) => format!("est. withheld: {why}"),
        (None, None) => "est. withheld".into(),
    }
}

/// The row ids of the names [`board_names`] gives.
fn ids_by_name(rows: &[(RowId, String)]) -> HashMap<String, RowId> {
    board_names(rows)
        .into_iter()
        .map(|(id, name)| (name, id))
        .collect()
}

/// A row's mark in the table: [`estimate_text`], but only `est. withheld` when it is withheld
/// (the reason, a sentence or two, is in the footnote the mark links to).
fn mark_text(r: &RowEstimate) -> String {
    match r.estimate {
        Some(_) => estimate_text(r),
        None => "est. withheld (why?)".into(),
    }
}

/// The table's estimate marks of a reply, each a link to `href` (the footnote).
pub fn estimate_marks(e: &BoardEstimates, rows: &[(RowId, String)], href: &str) -> EstimateMarks {
    let ids = ids_by_name(rows);
    EstimateMarks(
        e.rows
            .iter()
            .filter_map(|r| {
                let id = *ids.get(&r.id)?;
                let mark = EstimateMark {
                    text: mark_text(r),
                    figures: r
                        .estimate
                        .as_ref()
                        .map(|x| (x.estimate, x.ci_low, x.ci_high)),
                    href: href.to_string(),
                };
                Some((id, mark))
            })
            .collect(),
    )
}

/// With "Rank by estimated scores" on: the cell in column `key` of each partial row that has an
/// estimate becomes the estimate with its interval, so the table's rank (by the sorted column,
/// intervals overlapping share a rank) orders those rows by it. Complete rows keep their
/// observed score, which is their full-benchmark score. Paired ranks are not changed: their
/// tests need observed items.
pub fn rank_by_estimates(
    board: &mut Board,
    key: &str,
    e: &BoardEstimates,
    rows: &[(RowId, String)],
) {
    let Some(c) = board.columns.iter().position(|col| col.key == key) else {
        return;
    };
    let ids = ids_by_name(rows);
    let cal = calibration_text(e);
    for r in &e.rows {
        let (Some(est), Some(id)) = (&r.estimate, ids.get(&r.id)) else {
            continue;
        };
        for row in board.rows.iter_mut().filter(|b| b.row_id == Some(*id)) {
            let Some(slot) = row.cells.get_mut(c) else {
                continue;
            };
            let observed = slot
                .as_ref()
                .map(|x| {
                    format!(
                        "; observed {}% with unanswered items counted wrong",
                        points(x.value)
                    )
                })
                .unwrap_or_default();
            *slot = Some(BoardCell {
                value: est.estimate,
                interval: Some((est.ci_low, est.ci_high)),
                n: None,
                detail: format!(
                    "estimated full-benchmark accuracy {}% [{}, {}] from {} of {} items answered, {cal}{observed} (Rank by estimated scores is on)",
                    points(est.estimate),
                    points(est.ci_low),
                    points(est.ci_high),
                    thousands(r.answered as u64),
                    thousands(r.items as u64),
                ),
            });
        }
    }
}

/// The rows of `ids` computed here, without the site's published rows: the estimates, planner
/// and quality panel are over the rows computed from dropped files, whose items the worker
/// holds (a published board's 300 rows would otherwise have every row's items fetched, where
/// its ranks read one published file).
pub fn computed_only(ids: Signal<Vec<(RowId, String)>>) -> Signal<Vec<(RowId, String)>> {
    let state = BoardState::get();
    Signal::derive(move || {
        let published = state.published_ids();
        ids.read()
            .iter()
            .filter(|(id, _)| !published.contains(id))
            .cloned()
            .collect()
    })
}

/// Asks the worker for the estimates of a board's partial rows whenever its rows or the KiVA
/// stage change.
pub fn use_estimates(
    rows: Signal<Vec<(RowId, String)>>,
    stage: Signal<KivaStages>,
    options: u32,
) -> EstimatesReply {
    let client = BoardState::get().client;
    latest_reply(
        move || (board_names(&rows.read()), stage.get()),
        move |(rows, stage)| {
            let c = client.get_value();
            async move {
                if rows.is_empty() {
                    return None;
                }
                Some(
                    c.call(api::Estimates {
                        rows,
                        stage,
                        options,
                    })
                    .await,
                )
            }
        },
    )
}

/// The estimates' footnote under a board: the calibration, the switch, each partial row's
/// estimate or why it is withheld, and the definition. Nothing while the board has no partial
/// row; the worker's error in an error panel.
#[component]
pub fn EstimatesNote(
    /// The worker's reply ([`use_estimates`]).
    reply: EstimatesReply,
    /// Test id prefix and anchor (`mmiq` → `#mmiq-estimates`).
    stem: &'static str,
) -> impl IntoView {
    let state = BoardState::get();
    let on = Memo::new(move |_| state.query.with(|q| q.estimated));
    move || {
        match reply.get().flatten() {
        None => None,
        Some(Err(e)) => Some(
            view! {
                <section class="few-items estimates" id=format!("{stem}-estimates") data-testid=format!("{stem}-estimates")>
                    <WorkerErrorPanel title="Could not estimate the partial rows" error=e />
                </section>
            }
            .into_any(),
        ),
        Some(Ok(e)) if e.rows.is_empty() => None,
        Some(Ok(e)) => {
            let calibration = calibration_text(&e);
            let rows = e
                .rows
                .iter()
                .map(|r| {
                    view! {
                        <li data-testid=format!("{stem}-estimate-row") data-row=r.id.clone()>
                            <strong>{r.id.clone()}</strong>
                            {format!(
                                ": {} of {} items answered ({:.1}%); {}",
                                thousands(r.answered as u64),
                                thousands(r.items as u64),
                                100.0 * r.coverage,
                                estimate_text(r)
                            )}
                        </li>
                    }
                })
                .collect_view();
            let notes = e
                .notes
                .iter()
                .map(|n| view! { <li>{n.clone()}</li> })
                .collect_view();
            Some(
                view! {
                    <section class="few-items estimates" id=format!("{stem}-estimates") data-testid=format!("{stem}-estimates")
                        aria-label="Estimated full-benchmark scores of the partial rows">
                        <h3>"Estimated full-benchmark scores"</h3>
                        <p data-testid=format!("{stem}-calibration")>{format!("Rows below full coverage, {calibration}.")}</p>
                        <ul class="est-rows">{rows}</ul>
                        <label class="est-switch">
                            <input type="checkbox" data-testid=format!("{stem}-rank-estimated")
                                prop:checked=move || on.get()
                                on:change=move |ev| {
                                    let v = event_target_checked(&ev);
                                    state.set_url(|q| q.estimated = v);
                                } />
                            " Rank by estimated scores"
                        </label>
                        <p class="hint" data-testid=format!("{stem}-rank-basis")>{move || if on.get() {
                            "On: the table shows and ranks the partial rows by their estimates (default off: observed scores, unanswered items counted wrong). Paired ranks stay on the observed items."
                        } else {
                            "Off (the default): the table ranks by observed scores, unanswered items counted wrong; the estimates are shown beside the rows' coverage."
                        }}</p>
                        <p class="hint est-definition" data-testid=format!("{stem}-estimate-definition")>{ESTIMATE_DEFINITION}</p>
                        {(!e.notes.is_empty()).then(|| view! { <ul class="hint">{notes}</ul> })}
                    </section>
                }
                .into_any(),
            )
        }
    }
    }
}

/// The planner beside a board's paired ranks: its minimum detectable difference now and the
/// items a typed difference needs, per pair when the board has more than one.
#[component]
pub fn PlannerPanel(
    /// The computed rows, as (row id, name in the table), in table order.
    #[prop(into)]
    rows: Signal<Vec<(RowId, String)>>,
    /// Benchmark, stage or task and the board options, as the paired ranks.
    #[prop(into)]
    request: Signal<RankRequest>,
    /// Test id prefix (`mmiq`, `kiva`, `mmopera`).
    stem: &'static str,
) -> impl IntoView {
    let client = BoardState::get().client;
    // The difference typed, in points (default 3); `None` while the field does not hold a
    // number.
    let typed = RwSignal::new(Some(3.0f64));
    let reply = latest_reply(
        move || (board_names(&rows.read()), request.get(), typed.get()),
        move |(rows, mut request, typed)| {
            let c = client.get_value();
            async move {
                let mde = typed?;
                if rows.len() < 2 {
                    return None;
                }
                // The planner runs no bootstrap.
                request.options.resamples = 0;
                Some(
                    c.call(api::Planner {
                        rows,
                        request,
                        mde: mde / 100.0,
                    })
                    .await,
                )
            }
        },
    );
    view! {
        <section class="few-items planner" data-testid=format!("{stem}-planner") aria-label="Study planner">
            <h3>"Planner: how many items"</h3>
            <label class="plan-input">"Difference to tell apart (points) "
                <input type="number" inputmode="decimal" min="0.1" max="99" step="0.5" value="3"
                    data-testid=format!("{stem}-plan-mde")
                    on:input=move |ev| {
                        let v = event_target_value(&ev).trim().parse::<f64>().ok().filter(|x| x.is_finite());
                        typed.set(v);
                    } />
            </label>
            {move || match (typed.get(), reply.get().flatten()) {
                (None, _) => Some(view! { <p class="hint">"Type a difference in points, e.g. 3."</p> }.into_any()),
                (_, None) => (rows.read().len() >= 2).then(|| view! { <p class="loading" aria-busy="true">"Planning…"</p> }.into_any()),
                (_, Some(Err(e))) => Some(view! { <WorkerErrorPanel title="Could not plan for this board" error=e /> }.into_any()),
                (_, Some(Ok(p))) => Some(plan_view(p, stem)),
            }}
        </section>
    }
}

/// Pairs drawn at first in the planner's per-pair table (as the rank panel's tables).
const SHOWN_PAIRS: usize = crate::components::board_table::FIRST_ROWS;

/// A plan laid out.
fn plan_view(p: Plan, stem: &'static str) -> AnyView {
    let now = match &p.mdd {
        Some(m) => m.text.clone(),
        None => "The board's items cannot detect a difference now (too few items, or no pair shares one).".into(),
    };
    let at = format!(
        "{} points at {:.0}% power (α = {}, {})",
        points(p.mde),
        100.0 * p.power,
        p.alpha,
        p.method
    );
    let summary = match &p.summary {
        Some(s) => {
            let mut t = match s.items {
                Some(n) => format!(
                    "To tell apart {at}: {} items per pair (the median pair)",
                    thousands(n)
                ),
                None => {
                    format!("To tell apart {at}: not reachable at the median pair's discordance")
                }
            };
            if let (Some(lo), Some(hi)) = (s.min_items, s.max_items) {
                if lo != hi {
                    t.push_str(&format!(
                        ", from {} to {} over the pairs",
                        thousands(lo),
                        thousands(hi)
                    ));
                }
            }
            t.push('.');
            if s.unreachable > 0 {
                t.push_str(&format!(
                    " {} {} cannot reach it (the difference is above their discordance, or they answer alike).",
                    s.unreachable,
                    if s.unreachable == 1 { "pair" } else { "pairs" }
                ));
            }
            if let Some(x) = s.exact_power {
                t.push_str(&format!(
                    " The exact McNemar test has {:.1}% power at that count.",
                    100.0 * x
                ));
            }
            t
        }
        None => {
            format!("To tell apart {at}: no pair shares an item, so there is nothing to plan from.")
        }
    };
    let items = p.summary.as_ref().and_then(|s| s.items);
    let spread_head = if p.method == "mcnemar" {
        "Discordance ψ"
    } else {
        "SD of differences"
    };
    let pairs = (p.pairs.len() > 1).then(|| {
        let n = p.pairs.len();
        // Drawn when opened, the first [`SHOWN_PAIRS`] at first: a board of 300 rows has 44,850
        // pairs.
        let open = RwSignal::new(false);
        let shown = RwSignal::new(SHOWN_PAIRS.min(n));
        let all = StoredValue::new(p.pairs.clone());
        let rows = move || {
            all.with_value(|ps| {
                ps.iter()
                    .take(shown.get())
                    .map(|x| {
                        view! {
                            <tr data-testid=format!("{stem}-plan-pair") data-a=x.a.clone() data-b=x.b.clone()
                                data-items=x.items.map(|v| v.to_string())>
                                <th scope="row">{format!("{} vs {}", x.a, x.b)}</th>
                                <td class="num">{thousands(x.n as u64)}</td>
                                <td class="num">{x.spread.map(|s| format!("{s:.3}")).unwrap_or_else(|| "–".into())}</td>
                                <td class="num">{x.items.map(thousands).unwrap_or_else(|| "not reachable".into())}</td>
                            </tr>
                        }
                    })
                    .collect_view()
            })
        };
        view! {
            <details class="rank-details" data-testid=format!("{stem}-plan-pairs")
                on:toggle=move |ev| open.set(event_target::<web_sys::HtmlDetailsElement>(&ev).open())>
                <summary>{format!("Per pair ({n} pairs)")}</summary>
                {move || open.get().then(|| view! {
                    <div class="table-scroll"><table class="lb-table rank-table">
                        <thead><tr>
                            <th scope="col">"Pair"</th><th scope="col">"Items now"</th>
                            <th scope="col">{spread_head}</th><th scope="col">"Items needed"</th>
                        </tr></thead>
                        <tbody>{rows}</tbody>
                    </table></div>
                    {move || (shown.get() < n).then(|| view! {
                        <button type="button" data-testid=format!("{stem}-plan-pairs-more") on:click=move |_| shown.set(n)>
                            {format!("Show all {n} pairs (the first {SHOWN_PAIRS} are shown)")}
                        </button>
                    })}
                })}
            </details>
        }
    });
    let replicates = (!p.replicates.is_empty()).then(|| {
        let list = p
            .replicates
            .iter()
            .map(|r| {
                let se = r
                    .se
                    .iter()
                    .map(|(k, se)| format!("K = {k}: {}", points(*se)))
                    .collect::<Vec<_>>()
                    .join(", ");
                view! {
                    <li data-testid=format!("{stem}-plan-replicates")>
                        <strong>{r.model.clone()}</strong>
                        {format!(
                            ": between-item variance {:.3}, within-item {:.3}; SE in points with K regenerations per item: {se}",
                            r.split.between, r.split.within
                        )}
                    </li>
                }
            })
            .collect_view();
        view! {
            <details class="rank-details">
                <summary>"What regenerations buy"</summary>
                <ul class="rank-notes">{list}</ul>
            </details>
        }
    });
    view! {
        <p class="rank-mdd" data-testid=format!("{stem}-plan-mdd")><strong>"Now: "</strong>{now}</p>
        <p data-testid=format!("{stem}-plan-items") data-items=items.map(|n| n.to_string())>{summary}</p>
        <p class="hint">{format!(
            "The board has {} items now; the counts come from each pair's observed discordance (how often the two disagree), not an assumed correlation. MDD: {}",
            thousands(p.benchmark_size as u64),
            definition("mdd")
        )}</p>
        {pairs}
        {replicates}
        {(!p.notes.is_empty()).then(|| view! {
            <ul class="rank-notes">{p.notes.iter().map(|n| view! { <li>{n.clone()}</li> }).collect_view()}</ul>
        })}
    }
    .into_any()
}

/// The benchmark quality panel of a board's computed rows.
#[component]
pub fn QualityPanel(
    /// The computed rows, as (row id, name in the table), in table order.
    #[prop(into)]
    rows: Signal<Vec<(RowId, String)>>,
    /// Benchmark, stage or task and α and power, as the paired ranks.
    #[prop(into)]
    request: Signal<RankRequest>,
    /// Test id prefix (`mmiq`, `kiva`, `mmopera`).
    stem: &'static str,
) -> impl IntoView {
    let client = BoardState::get().client;
    let reply = latest_reply(
        move || (board_names(&rows.read()), request.get()),
        move |(rows, request)| {
            let c = client.get_value();
            async move {
                if rows.is_empty() {
                    return None;
                }
                Some(c.call(api::Quality { rows, request }).await)
            }
        },
    );
    view! {
        <section class="few-items quality" data-testid=format!("{stem}-quality") aria-label="Benchmark quality">
            <h3>"Benchmark quality"</h3>
            {move || match reply.get().flatten() {
                None => (!rows.read().is_empty()).then(|| view! { <p class="loading" aria-busy="true">"Measuring the benchmark…"</p> }.into_any()),
                Some(Err(e)) => Some(view! { <WorkerErrorPanel title="Could not measure the benchmark's quality" error=e /> }.into_any()),
                Some(Ok(p)) => Some(quality_view(p, stem)),
            }}
        </section>
    }
}

/// One row of the quality table.
fn quality_row(r: &QualityRow, stem: &'static str) -> impl IntoView {
    let reliability = match r.reliability {
        Some(x) => format!(
            "{x:.3} ({})",
            if r.reliability_kind == "kr20" {
                "KR-20"
            } else {
                "alpha"
            }
        ),
        None => "–".into(),
    };
    let noise = match (r.noise, r.noise_kind) {
        (Some(x), NoiseKind::Regeneration) => format!("{} (regen.)", points(x)),
        (x, _) => opt_points(x),
    };
    let class = if r.warning.is_some() {
        "quality-warn"
    } else {
        ""
    };
    view! {
        <tr data-testid=format!("{stem}-quality-row") data-label=r.label.clone() class=class
            data-items=r.items.to_string()
            data-reliability=r.reliability.map(|x| x.to_string())
            data-sem=r.sem.map(|x| x.to_string())
            data-signal=r.signal.map(|x| x.to_string())
            data-noise=r.noise.map(|x| x.to_string())
            data-ratio=r.ratio.map(|x| x.to_string())
            data-mdd=r.mdd.map(|x| x.to_string())>
            <th scope="row">{r.label.clone()}</th>
            <td class="num">{thousands(r.items as u64)}</td>
            <td class="num">{r.models}</td>
            <td class="num">{reliability}</td>
            <td class="num">{opt_points(r.sem)}</td>
            <td class="num">{opt_points(r.signal)}</td>
            <td class="num">{noise}</td>
            <td class="num">{r.ratio.map(|x| format!("{x:.1}")).unwrap_or_else(|| "–".into())}</td>
            <td class="num">{r.mdd.map(points).unwrap_or_else(|| "none".into())}</td>
        </tr>
    }
}

/// A quality panel laid out: warnings, the table, notes and the glossary.
fn quality_view(p: Panel, stem: &'static str) -> AnyView {
    let rows = std::iter::once(&p.overall)
        .chain(&p.categories)
        .map(|r| quality_row(r, stem))
        .collect_view();
    view! {
        {(!p.warnings.is_empty()).then(|| view! {
            <ul class="quality-warnings" data-testid=format!("{stem}-quality-warnings")>
                {p.warnings.iter().map(|w| view! { <li>{w.clone()}</li> }).collect_view()}
            </ul>
        })}
        <p class="hint">{format!(
            "Per benchmark and category, over the computed rows; SEM, signal, noise and MDD in points, MDD at α = {} and {:.0}% power ({}).",
            p.alpha,
            100.0 * p.power,
            p.method
        )}</p>
        <div class="table-scroll"><table class="lb-table rank-table quality-table" data-testid=format!("{stem}-quality-table")>
            <thead><tr>
                <th scope="col">"Set"</th><th scope="col">"Items"</th><th scope="col">"Models"</th>
                <th scope="col">"Reliability"</th><th scope="col">"SEM"</th><th scope="col">"Signal"</th>
                <th scope="col">"Noise"</th><th scope="col">"Ratio"</th><th scope="col">"MDD"</th>
            </tr></thead>
            <tbody>{rows}</tbody>
        </table></div>
        {(!p.notes.is_empty()).then(|| view! {
            <ul class="rank-notes">{p.notes.iter().map(|n| view! { <li>{n.clone()}</li> }).collect_view()}</ul>
        })}
        <details class="rank-details" data-testid=format!("{stem}-quality-glossary")>
            <summary>"Glossary: benchmark quality"</summary>
            <dl class="rank-glossary">
                {QUALITY_GLOSSARY.iter().map(|(term, text)| view! { <dt>{*term}</dt><dd>{*text}</dd> }).collect_view()}
            </dl>
        </details>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: u32) -> RowId {
        RowId { generation: 1, n }
    }

    #[test]
    fn repeated_names_are_numbered_as_on_the_rank_board() {
        let rows = vec![
            (id(1), "a".to_string()),
            (id(2), "b".to_string()),
            (id(3), "a".to_string()),
        ];
        let got: Vec<String> = board_names(&rows).into_iter().map(|(_, n)| n).collect();
        assert_eq!(got, ["a", "b", "a (2)"]);
    }

    #[test]
    fn figures_are_formatted_not_computed() {
        assert_eq!(points(0.31249), "31.2");
        assert_eq!(thousands(2710), "2,710");
        assert_eq!(thousands(100), "100");
        assert_eq!(thousands(1_000_000), "1,000,000");
        assert_eq!(model_label("2pl+guess(0.25)"), "2PL, guessing floor 0.25");
        assert_eq!(model_label("2pl"), "2PL");
    }
}
