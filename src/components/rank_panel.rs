//! Paired ranks of a computed board (issue 20): the board header (tests and adjustment used,
//! the coverage convention, the minimum detectable difference) with switches for Holm /
//! Benjamini-Hochberg and for missing items counted wrong / answered only, and collapsible
//! panels for the rows' coverage and standard errors, the pairwise p-values, the extraction
//! robustness, the judge robustness and the glossary of the figures.
//!
//! Everything shown comes from the worker's [`api::Rank`] reply (the core's
//! [`coglab_core::ranks::view::RankBoard`]); this module only lays it out. The table's rank
//! column reads the [`RankMarks`] the panel writes ([`RankMarks::for_row`]).

use std::collections::HashMap;

use coglab_core::mmopera::Task;
use coglab_core::ranks::extraction::{ExtractionRobustness, KivaExtraction};
use coglab_core::ranks::inputs::KivaStage;
use coglab_core::ranks::judges::JudgeRobustness;
use coglab_core::ranks::view::{definition, RankBoard, RankRequest, GLOSSARY};
use coglab_core::ranks::{Adjust, Bench, Missing, PairRow};
use leptos::prelude::*;

use crate::components::board_table::{Board, RowKind};
use crate::components::error_panel::ErrorPanel;
use crate::worker::api::{self, RowId};
use crate::worker::client::use_worker;

/// What the rank column shows for one computed row.
#[derive(Debug, Clone, PartialEq)]
pub struct RankMark {
    /// The rank range (`2`, `1–3`).
    pub range: String,
    /// The compact letter display group.
    pub group: String,
    /// Not distinguishable from the leader.
    pub leader: bool,
    /// Below full coverage: `100 of 2,710 items (3.7%)`.
    pub coverage: Option<String>,
    /// Hover text.
    pub title: String,
}

/// The rank marks of a board's computed rows, by the rank board's row name (a repeated name is
/// `name (2)`, `name (3)` in table order).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RankMarks(pub HashMap<String, RankMark>);

impl RankMarks {
    /// The marks of a rank board's rows.
    pub fn of(board: &RankBoard) -> Self {
        Self(
            board
                .models
                .iter()
                .map(|m| {
                    (
                        m.row.name.clone(),
                        RankMark {
                            range: m.rank_text.clone(),
                            group: m.row.group.clone(),
                            leader: m.row.leader_group,
                            coverage: m.coverage_text.clone(),
                            title: m.title.clone(),
                        },
                    )
                })
                .collect(),
        )
    }

    /// The mark of row `i` of `table`, when it is a computed row the rank board ranked.
    pub fn for_row(&self, table: &Board, i: usize) -> Option<&RankMark> {
        let row = table.rows.get(i)?;
        if row.kind != RowKind::Computed {
            return None;
        }
        let k = 1 + table.rows[..i]
            .iter()
            .filter(|r| r.kind == RowKind::Computed && r.model == row.model)
            .count();
        let key = if k == 1 {
            row.model.clone()
        } else {
            format!("{} ({k})", row.model)
        };
        self.0.get(&key)
    }
}

/// Pairs drawn at most in the pairs table.
const MAX_PAIRS_SHOWN: usize = 500;

fn pct(x: f64) -> String {
    format!("{:.1}", 100.0 * x)
}

fn p_text(p: Option<f64>) -> String {
    match p {
        None => "–".into(),
        Some(p) if p < 0.0001 => "<0.0001".into(),
        Some(p) => format!("{p:.4}"),
    }
}

/// The paired ranks of one board's computed rows: header, switches and panels. Asks the worker
/// again whenever the rows or a switch change.
#[component]
pub fn RankPanel(
    /// The benchmark.
    bench: Bench,
    /// The computed rows to rank: (row id, name as the table shows it), in table order.
    #[prop(into)]
    rows: Signal<Vec<(RowId, String)>>,
    /// MM-OPERA: the task ranked (default RIA when a row has it).
    #[prop(optional, into)]
    task: MaybeProp<Task>,
    /// KiVA: the stage ranked (default stage 1).
    #[prop(optional, into)]
    stage: MaybeProp<KivaStage>,
    /// Where the table's rank marks go.
    marks: WriteSignal<RankMarks>,
    /// Test id prefix (`mmiq`, `kiva`, `mmopera`).
    stem: &'static str,
) -> impl IntoView {
    let client = StoredValue::new_local(use_worker());
    let adjust = RwSignal::new(Adjust::Holm);
    let missing = RwSignal::new(Missing::Wrong);
    let result = LocalResource::new(move || {
        let rows = rows.get();
        let mut request = RankRequest::new(bench);
        request.task = task.get();
        request.stage = stage.get().unwrap_or_default();
        request.options.adjust = adjust.get();
        request.options.missing = missing.get();
        let c = client.get_value();
        async move {
            if rows.is_empty() {
                return None;
            }
            Some(c.call(api::Rank { rows, request }).await)
        }
    });
    Effect::new(move || {
        let m = match result.get() {
            Some(Some(Ok(b))) => RankMarks::of(&b),
            _ => RankMarks::default(),
        };
        marks.set(m);
    });
    let radio = move |name: String,
                      testid: String,
                      label: &'static str,
                      checked: Signal<bool>,
                      on: Callback<()>| {
        view! {
            <label><input type="radio" name=name data-testid=testid
                prop:checked=move || checked.get()
                on:change=move |_| on.run(()) />{format!(" {label}")}</label>
        }
    };
    view! {
        <section class="rank-panel" data-testid=format!("{stem}-ranks") aria-label="Paired ranks of the computed rows">
            <Show when=move || !rows.read().is_empty()>
                <div class="lb-controls rank-switches" role="group" aria-label="Rank options">
                    <fieldset>
                        <legend title=definition("p_adjusted")>"p-value adjustment"</legend>
                        {radio(format!("{stem}-adjust"), format!("{stem}-adjust-holm"), "Holm (default)",
                            Signal::derive(move || adjust.get() == Adjust::Holm), Callback::new(move |_| adjust.set(Adjust::Holm)))}
                        {radio(format!("{stem}-adjust"), format!("{stem}-adjust-bh"), "Benjamini-Hochberg",
                            Signal::derive(move || adjust.get() == Adjust::Bh), Callback::new(move |_| adjust.set(Adjust::Bh)))}
                    </fieldset>
                    <fieldset>
                        <legend title=definition("missing")>"Missing items"</legend>
                        {radio(format!("{stem}-missing"), format!("{stem}-missing-wrong"), "counted as wrong (default)",
                            Signal::derive(move || missing.get() == Missing::Wrong), Callback::new(move |_| missing.set(Missing::Wrong)))}
                        {radio(format!("{stem}-missing"), format!("{stem}-missing-answered"), "answered items only",
                            Signal::derive(move || missing.get() == Missing::AnsweredOnly), Callback::new(move |_| missing.set(Missing::AnsweredOnly)))}
                    </fieldset>
                </div>
            </Show>
            {move || match result.get() {
                None => view! { <p class="loading" aria-busy="true">"Ranking the computed rows…"</p> }.into_any(),
                Some(None) => ().into_any(),
                Some(Some(Err(e))) => view! { <ErrorPanel title="Could not rank the computed rows" message=e /> }.into_any(),
                Some(Some(Ok(b))) => view! { <RankView board=b stem=stem /> }.into_any(),
            }}
        </section>
    }
}

/// A rank board laid out: header lines, notes and the collapsible panels.
#[component]
fn RankView(
    /// The worker's reply.
    board: RankBoard,
    /// Test id prefix.
    stem: &'static str,
) -> impl IntoView {
    let b = board;
    let pairs = b
        .board
        .as_ref()
        .map(|x| x.pairs.clone())
        .unwrap_or_default();
    let n_pairs = pairs.len();
    let rows = b.models.clone();
    // The pairs table is drawn when opened (a 50-row board has 1,225 pairs).
    let pairs_open = RwSignal::new(false);
    let pairs = StoredValue::new(pairs);
    view! {
        <div class="rank-header" data-testid=format!("{stem}-rank-header") data-worker-ms=b.worker_ms.to_string()>
            <p title=definition("test")><strong>"Paired ranks: "</strong>{b.header.clone()}</p>
            <p title=definition("missing") data-testid=format!("{stem}-rank-missing")>{b.missing_text.clone()}</p>
            {b.mdd_text.clone().map(|t| view! { <p class="rank-mdd" title=definition("mdd") data-testid=format!("{stem}-mdd")>{t}</p> })}
            {b.error.clone().map(|e| view! { <ErrorPanel title="No paired ranks for this board" message=e /> })}
        </div>
        {(!b.notes.is_empty()).then(|| view! {
            <ul class="rank-notes" data-testid=format!("{stem}-rank-notes")>
                {b.notes.iter().map(|n| view! { <li>{n.clone()}</li> }).collect_view()}
            </ul>
        })}
        <details class="rank-details" data-testid=format!("{stem}-rank-rows")>
            <summary title=definition("rank_range")>{format!("Ranked rows ({})", rows.len())}</summary>
            <div class="table-scroll"><table class="lb-table rank-table">
                <thead><tr>
                    <th scope="col" title=definition("rank_range")>"Rank"</th>
                    <th scope="col" title=definition("group")>"Group"</th>
                    <th scope="col">"Model"</th>
                    <th scope="col" title=definition("score")>"Score"</th>
                    <th scope="col" title=definition("coverage")>"Coverage"</th>
                    <th scope="col" title=definition("leader")>"Leader group"</th>
                    <th scope="col" title=definition("bootstrap")>"Bootstrap rank"</th>
                    <th scope="col" title=definition("clustered_se")>"SE"</th>
                </tr></thead>
                <tbody>
                    {rows.into_iter().map(|m| {
                        let boot = match (m.row.boot_rank_low, m.row.boot_rank_high) {
                            (Some(l), Some(h)) => coglab_core::ranks::view::rank_text(l, h),
                            _ => "–".into(),
                        };
                        view! {
                            <tr data-testid=format!("{stem}-rank-row") data-model=m.name.clone()
                                data-rank-range=m.rank_text.clone() data-group=m.row.group.clone()
                                data-leader=m.row.leader_group.to_string() data-score=m.row.score.to_string()>
                                <td class="num" title=m.title.clone()>{m.rank_text.clone()}</td>
                                <td>{m.row.group.clone()}</td>
                                <th scope="row">{m.name.clone()}</th>
                                <td class="num">{pct(m.row.score)}</td>
                                <td>{m.coverage_text.clone().unwrap_or_else(|| "full".into())}</td>
                                <td>{if m.row.leader_group { "yes" } else { "" }}</td>
                                <td class="num">{boot}</td>
                                <td>{m.se_text.clone().unwrap_or_else(|| "–".into())}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table></div>
        </details>
        <details class="rank-details" data-testid=format!("{stem}-pairs") on:toggle=move |_| pairs_open.update(|o| *o = !*o)>
            <summary title=definition("p_adjusted")>{format!("Pairwise tests ({n_pairs} pairs)")}</summary>
            <Show when=move || pairs_open.get()>
                <PairsTable pairs=pairs.get_value() stem=stem />
            </Show>
        </details>
        <details class="rank-details" data-testid=format!("{stem}-extraction")>
            <summary title=definition("extraction")>"Extraction robustness"</summary>
            {b.extraction.clone().map(|x| view! { <MmiqExtraction x=x /> })}
            {b.kiva_extraction.clone().map(|x| view! { <KivaExtractionView x=x /> })}
            {b.extraction_message.clone().map(|m| view! { <p class="notice" data-testid=format!("{stem}-extraction-message")>{m}</p> })}
        </details>
        <details class="rank-details" data-testid=format!("{stem}-judges")>
            <summary title=definition("judges")>"Judge robustness"</summary>
            {b.judges.clone().map(|j| view! { <JudgesView j=j /> })}
            {b.judges_message.clone().map(|m| view! { <p class="notice" data-testid=format!("{stem}-judges-message")>{m}</p> })}
        </details>
        <details class="rank-details" data-testid=format!("{stem}-rank-glossary")>
            <summary>"Glossary: ranks"</summary>
            <dl class="rank-glossary">
                {GLOSSARY.iter().map(|(k, term, text)| view! {
                    <dt data-term=*k>{*term}</dt><dd>{*text}</dd>
                }).collect_view()}
            </dl>
        </details>
    }
}

/// Every pair: shared items, test, difference with its bootstrap interval, raw and adjusted p.
#[component]
fn PairsTable(
    /// The pairs, in board order.
    pairs: Vec<PairRow>,
    /// Test id prefix.
    stem: &'static str,
) -> impl IntoView {
    let total = pairs.len();
    let shown: Vec<PairRow> = pairs.into_iter().take(MAX_PAIRS_SHOWN).collect();
    view! {
        {(total > MAX_PAIRS_SHOWN).then(|| view! {
            <p class="hint">{format!("The first {MAX_PAIRS_SHOWN} of {total} pairs in board order; `coglab rank ... --json` lists them all.")}</p>
        })}
        <div class="table-scroll"><table class="lb-table rank-table">
            <thead><tr>
                <th scope="col">"A"</th>
                <th scope="col">"B"</th>
                <th scope="col" title="Items compared: all benchmark items when missing items count as wrong, else the items both rows scored">"Shared"</th>
                <th scope="col" title=definition("test")>"Test"</th>
                <th scope="col" title="Score difference A − B on the compared items (points) and its paired bootstrap 95% interval">"A − B"</th>
                <th scope="col" title="Two-sided p-value of the paired test, unadjusted">"p"</th>
                <th scope="col" title=definition("p_adjusted")>"Adjusted p"</th>
            </tr></thead>
            <tbody>
                {shown.into_iter().map(|p| {
                    let ci = match (p.diff_low, p.diff_high) {
                        (Some(l), Some(h)) => format!(" [{}, {}]", pct(l), pct(h)),
                        _ => String::new(),
                    };
                    view! {
                        <tr data-testid=format!("{stem}-pair") data-a=p.a.clone() data-b=p.b.clone()
                            data-n-shared=p.n_shared.to_string() data-test=p.test.clone()
                            data-p=p.p.map(|x| x.to_string()) data-p-adjusted=p.p_adjusted.map(|x| x.to_string())
                            data-significant=p.significant.to_string()
                            class=if p.significant { "rank-sig" } else { "" }>
                            <td>{p.a.clone()}</td>
                            <td>{p.b.clone()}</td>
                            <td class="num">{p.n_shared}</td>
                            <td>{p.test.clone()}</td>
                            <td class="num">{format!("{}{ci}", pct(p.diff))}</td>
                            <td class="num">{p_text(p.p)}</td>
                            <td class="num">{p_text(p.p_adjusted)}{if p.significant { " *" } else { "" }}</td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table></div>
    }
}

/// MM-IQ under the official, strict and lenient extractors.
#[component]
fn MmiqExtraction(
    /// The table.
    x: ExtractionRobustness,
) -> impl IntoView {
    let heads = x.extractors.clone();
    view! {
        <div class="table-scroll"><table class="lb-table rank-table" data-testid="mmiq-extraction-table">
            <thead><tr>
                <th scope="col">"Model"</th>
                {heads.iter().map(|h| view! { <th scope="col" title=definition("extraction")>{h.clone()}</th> }).collect_view()}
                <th scope="col" title="Highest minus lowest score across the extractors (points)">"Range"</th>
                <th scope="col" title="Rank under each extractor (1 + rows strictly above)">"Ranks"</th>
                <th scope="col" title="Items whose verdict differs between extractors">"Flips"</th>
            </tr></thead>
            <tbody>
                {x.rows.iter().map(|r| view! {
                    <tr data-model=r.name.clone()>
                        <th scope="row">{r.name.clone()}</th>
                        {r.scores.iter().map(|s| view! { <td class="num">{pct(*s)}</td> }).collect_view()}
                        <td class="num">{pct(r.score_range)}</td>
                        <td>{r.ranks.iter().map(ToString::to_string).collect::<Vec<_>>().join(" / ")}</td>
                        <td class="num">{r.flip_count}</td>
                    </tr>
                }).collect_view()}
            </tbody>
        </table></div>
        {x.rows.iter().filter(|r| !r.flips.is_empty()).map(|r| view! {
            <p class="rank-flips-head">{format!("{}: {} flipped item(s){}", r.name, r.flip_count,
                if r.flips.len() < r.flip_count { format!(", first {} listed", r.flips.len()) } else { String::new() })}</p>
            <ul class="rank-flips">
                {r.flips.iter().map(|f| view! {
                    <li title=f.response.clone()>{format!("item {}: key {}, read {} → {}", f.data_id, f.key,
                        f.letters.iter().map(|c| if *c == 'Z' { "none".to_string() } else { c.to_string() }).collect::<Vec<_>>().join(" / "),
                        f.correct.iter().map(|c| if *c { "right" } else { "wrong" }).collect::<Vec<_>>().join(" / "))}</li>
                }).collect_view()}
            </ul>
        }).collect_view()}
        {x.notes.iter().map(|n| view! { <p class="hint">{n.clone()}</p> }).collect_view()}
    }
}

/// KiVA stage answers under the official, strict and lenient readings.
#[component]
fn KivaExtractionView(
    /// The table.
    x: KivaExtraction,
) -> impl IntoView {
    view! {
        <p class="hint">{format!("Stage {} answers, mean over trials (regenerations averaged in the trial).", x.stage)}</p>
        <div class="table-scroll"><table class="lb-table rank-table" data-testid="kiva-extraction-table">
            <thead><tr>
                <th scope="col">"Model"</th>
                {x.rules.iter().map(|h| view! { <th scope="col" title=definition("extraction")>{h.clone()}</th> }).collect_view()}
                <th scope="col" title="Lenient readings whose verdict the run files cannot tell (the option order is not recorded): counted wrong; the score with them right in brackets">"Undetermined"</th>
                <th scope="col" title="Highest minus lowest score across the rules (points)">"Range"</th>
                <th scope="col" title="Rank under each rule">"Ranks"</th>
                <th scope="col" title="Regenerations whose verdict differs between the rules">"Flips"</th>
            </tr></thead>
            <tbody>
                {x.rows.iter().map(|r| view! {
                    <tr data-model=r.name.clone()>
                        <th scope="row">{r.name.clone()}</th>
                        {r.scores.iter().map(|s| view! { <td class="num">{pct(*s)}</td> }).collect_view()}
                        <td class="num">{format!("{} ({})", r.lenient_undetermined, pct(r.lenient_high))}</td>
                        <td class="num">{pct(r.score_range)}</td>
                        <td>{r.ranks.iter().map(ToString::to_string).collect::<Vec<_>>().join(" / ")}</td>
                        <td class="num">{r.flip_count}</td>
                    </tr>
                }).collect_view()}
            </tbody>
        </table></div>
        {x.rows.iter().filter(|r| !r.flips.is_empty()).map(|r| view! {
            <p class="rank-flips-head">{format!("{}: {} regeneration(s) flip{}", r.name, r.flip_count,
                if r.flips.len() < r.flip_count { format!(", first {} listed", r.flips.len()) } else { String::new() })}</p>
            <ul class="rank-flips">
                {r.flips.iter().map(|f| view! {
                    <li title=f.answer.clone()>{format!("{} regeneration {} (line {}): official {} / strict {} / lenient {}; lenient read {}",
                        f.trial, f.regeneration, f.line, f.verdicts[0], f.verdicts[1],
                        if f.lenient_undetermined { "?".to_string() } else { f.verdicts[2].to_string() }, f.lenient)}</li>
                }).collect_view()}
            </ul>
        }).collect_view()}
        {x.notes.iter().map(|n| view! { <p class="hint">{n.clone()}</p> }).collect_view()}
    }
}

/// MM-OPERA scores per judge, agreement and the largest disagreements.
#[component]
fn JudgesView(
    /// The table.
    j: JudgeRobustness,
) -> impl IntoView {
    let judges = j.judges.clone();
    view! {
        <div class="table-scroll"><table class="lb-table rank-table" data-testid="mmopera-judges-table">
            <thead><tr>
                <th scope="col">"Model"</th>
                {judges.iter().map(|h| view! { <th scope="col" title="Score rate under this judge (%)">{h.clone()}</th> }).collect_view()}
                <th scope="col" title="Highest minus lowest judge score rate (points)">"Range"</th>
            </tr></thead>
            <tbody>
                {j.models.iter().zip(&j.sr).zip(&j.sr_range).map(|((m, row), range)| view! {
                    <tr data-model=m.clone()>
                        <th scope="row">{m.clone()}</th>
                        {row.iter().map(|v| view! { <td class="num">{v.map_or_else(|| "–".into(), pct)}</td> }).collect_view()}
                        <td class="num">{range.map_or_else(|| "–".into(), pct)}</td>
                    </tr>
                }).collect_view()}
            </tbody>
        </table></div>
        <p title="Krippendorff's α with the ordinal metric across judges, on the (model, item, rotation) verdicts at least two judges scored validly">
            {match j.alpha {
                Some(a) => format!("Krippendorff's α (ordinal): {a:.3} over {} shared verdicts", j.alpha_units),
                None => "Krippendorff's α: not defined (fewer than two judges on shared verdicts)".into(),
            }}
        </p>
        <ul title="Kendall's τ-b between two judges' rankings of the models (score rates)">
            {j.tau.iter().map(|t| view! {
                <li>{format!("Kendall's τ-b {} vs {}: {} ({} models)", t.a, t.b,
                    t.tau_b.map_or_else(|| "not defined".into(), |x| format!("{x:.3}")), t.models)}</li>
            }).collect_view()}
        </ul>
        {(!j.disagreements.is_empty()).then(|| view! {
            <p class="rank-flips-head">"Largest disagreements (each judge's mean score 0-4 on the item)"</p>
            <ul class="rank-flips">
                {j.disagreements.iter().map(|d| view! {
                    <li>{format!("{} / {}: {} (spread {:.2})", d.model, d.item,
                        d.means.iter().map(|m| m.map_or_else(|| "–".into(), |x| format!("{x:.2}"))).collect::<Vec<_>>().join(" / "),
                        d.spread)}</li>
                }).collect_view()}
            </ul>
        })}
        {j.notes.iter().map(|n| view! { <p class="hint">{n.clone()}</p> }).collect_view()}
    }
}

/// The table's rank cell. With paired ranks (`paired`): a ranked computed row shows its range
/// and group letter; a baseline is a reference row, not ranked; other rows (reported, or
/// computed without item data) keep the interval-overlap rank, labelled. Without: the
/// interval-overlap rank.
pub fn rank_cell(
    paired: bool,
    kind: RowKind,
    rank: Option<usize>,
    mark: Option<&RankMark>,
) -> AnyView {
    let interval = rank.map_or("–".to_string(), |k| k.to_string());
    match (paired, kind, mark) {
        (true, _, Some(m)) => view! {
            <td class="num lb-rank paired" data-rank=rank.map(|k| k.to_string())
                data-rank-range=m.range.clone() data-group=m.group.clone()
                data-leader=m.leader.to_string() title=m.title.clone()>
                {m.range.clone()}" "<span class="rank-group" title=definition("group")>{m.group.clone()}</span>
            </td>
        }
        .into_any(),
        (true, RowKind::Baseline, None) => view! {
            <td class="num lb-rank reference" title=definition("reference")>"ref"</td>
        }
        .into_any(),
        (true, _, None) => view! {
            <td class="num lb-rank" data-rank=rank.map(|k| k.to_string())
                title="No item data: ranked by 95% interval overlap only, not tested">{interval}</td>
        }
        .into_any(),
        (false, _, _) => view! {
            <td class="num" data-rank=rank.map(|k| k.to_string())>{interval}</td>
        }
        .into_any(),
    }
}

/// The coverage mark of a ranked row below full coverage (beside the model's name).
pub fn coverage_mark(mark: Option<&RankMark>) -> Option<AnyView> {
    let c = mark?.coverage.clone()?;
    Some(
        view! {
            <span class="coverage-mark" data-testid="coverage-mark" title=definition("coverage")>
                {format!("coverage {c}")}
            </span>
        }
        .into_any(),
    )
}
