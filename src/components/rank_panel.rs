//! Paired ranks of a computed board (issue 20), shown under the table (so that its arrival from
//! the worker does not shift the table; see the layout-shift e2e test): the board header (tests
//! and adjustment used, the coverage convention, the minimum detectable difference) with
//! switches for Holm / Benjamini-Hochberg and for missing items counted wrong / answered only,
//! and collapsible panels for the ranked rows (coverage, standard errors), the pairwise
//! p-values, the extraction robustness, the judge robustness and the glossary of the figures.
//!
//! Everything shown comes from the worker's [`api::Rank`] reply (the core's
//! [`coglab_core::ranks::view::RankBoard`]); this module only lays it out. The table's rank
//! column reads the [`RankMarks`] the panel writes (keyed by [`mark_keys`], [`paired_text`]).

use std::collections::HashMap;

use coglab_core::mmopera::Task;
use coglab_core::ranks::inputs::KivaStage;
use coglab_core::ranks::view::{definition, Panel, RankBoard, RankRequest, GLOSSARY};
use coglab_core::ranks::{Adjust, Bench, Missing};
use leptos::prelude::*;

use crate::components::board_table::{Board, RowKind};
use crate::components::error_panel::{ErrorPanel, WorkerErrorPanel};
use crate::worker::api::{self, RowId};
use crate::worker::client::{latest_reply, use_worker};

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
                        m.board_name.clone(),
                        RankMark {
                            range: m.rank_text.clone(),
                            group: m.group.clone(),
                            leader: m.leader,
                            coverage: m.coverage_text.clone(),
                            title: m.title.clone(),
                        },
                    )
                })
                .collect(),
        )
    }
}

/// The name each row of `table` has on the rank board (what [`RankMarks`] are keyed by): a
/// computed row's model, the k-th computed row of the same model named "model (k)"; `None` for
/// the other rows, which are not ranked. One pass over the table, so that the board table can
/// key its rows' paired cells once and redraw only those cells when the marks change.
pub fn mark_keys(table: &Board) -> Vec<Option<String>> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    table
        .rows
        .iter()
        .map(|row| {
            if row.kind != RowKind::Computed {
                return None;
            }
            let k = seen.entry(row.model.as_str()).or_insert(0);
            *k += 1;
            Some(if *k == 1 {
                row.model.clone()
            } else {
                format!("{} ({k})", row.model)
            })
        })
        .collect()
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
    /// KiVA: the board's `Null` switch (default: counted wrong).
    #[prop(optional, into)]
    null: MaybeProp<coglab_core::kiva::NullAnswers>,
    /// Where the table's rank marks go.
    marks: WriteSignal<RankMarks>,
    /// Test id prefix (`mmiq`, `kiva`, `mmopera`).
    stem: &'static str,
) -> impl IntoView {
    let client = StoredValue::new_local(use_worker());
    let adjust = RwSignal::new(Adjust::Holm);
    let missing = RwSignal::new(Missing::Wrong);
    // The panels the user opened stay open when a new reply redraws them (another
    // adjustment, a new row).
    let opened = RwSignal::new(vec!["rank-rows".to_string()]);
    // The reply to the latest request (`None` inside: no computed row); a late reply to an
    // older request is dropped ([`latest_reply`], as every keyed worker read on the pages).
    let reply = latest_reply(
        move || {
            let mut request = RankRequest::new(bench);
            request.task = task.get();
            request.stage = stage.get().unwrap_or_default();
            request.null = null.get().unwrap_or_default();
            request.options.adjust = adjust.get();
            request.options.missing = missing.get();
            (rows.get(), request)
        },
        move |(rows, request)| {
            let c = client.get_value();
            async move {
                if rows.is_empty() {
                    return None;
                }
                Some(c.call(api::Rank { rows, request }).await)
            }
        },
    );
    // The board's marks follow the reply at once; the panel is drawn a frame after them, in a
    // task of its own: with both in one frame (a Paired column of 50 rows and the ranked-rows
    // table of 50), that frame's layout was 50-55 ms CPU in issue 22's item-analysis bench.
    let state = RwSignal::new(None::<Result<RankBoard, api::WorkerError>>);
    Effect::new(move || {
        let Some(r) = reply.get() else { return };
        marks.set(match &r {
            Some(Ok(b)) => RankMarks::of(b),
            _ => RankMarks::default(),
        });
        crate::components::after_next_frame(move || {
            let _ = state.try_set(r);
        });
    });
    view! {
        <section class="rank-panel" data-testid=format!("{stem}-ranks") aria-label="Paired ranks of the computed rows">
            {move || (!rows.read().is_empty()).then(|| view! {
                <div class="lb-controls rank-switches" role="group" aria-label="Rank options">
                    <label title=definition("p_adjusted")>"p-value adjustment "
                        <select data-testid=format!("{stem}-adjust") on:change=move |ev| {
                            adjust.set(if event_target_value(&ev) == "bh" { Adjust::Bh } else { Adjust::Holm })
                        }>
                            <option value="holm" selected=move || adjust.get() == Adjust::Holm>"Holm (default)"</option>
                            <option value="bh" selected=move || adjust.get() == Adjust::Bh>"Benjamini-Hochberg"</option>
                        </select>
                    </label>
                    <label title=definition("missing")>"Missing items "
                        <select data-testid=format!("{stem}-missing") on:change=move |ev| {
                            missing.set(if event_target_value(&ev) == "answered" { Missing::AnsweredOnly } else { Missing::Wrong })
                        }>
                            <option value="wrong" selected=move || missing.get() == Missing::Wrong>"counted as wrong (default)"</option>
                            <option value="answered" selected=move || missing.get() == Missing::AnsweredOnly>"answered items only"</option>
                        </select>
                    </label>
                </div>
            })}
            {move || match state.get() {
                None => (!rows.read().is_empty()).then(|| view! { <p class="loading" aria-busy="true">"Ranking the computed rows…"</p> }.into_any()),
                Some(Err(e)) => Some(view! { <WorkerErrorPanel title="Could not rank the computed rows" error=e /> }.into_any()),
                Some(Ok(b)) => Some(view! { <RankView board=b stem=stem opened=opened /> }.into_any()),
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
    /// The keys of the panels open.
    opened: RwSignal<Vec<String>>,
) -> impl IntoView {
    let b = board;
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
        {b.panels.into_iter().map(|p| view! { <PanelView panel=p stem=stem opened=opened /> }).collect_view()}
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

/// One collapsible panel: its table (drawn when opened, except the ranked rows), lists, notes
/// or the message saying why it is empty.
#[component]
fn PanelView(
    /// The panel.
    panel: Panel,
    /// Test id prefix.
    stem: &'static str,
    /// The keys of the panels open (kept by the rank panel across replies).
    opened: RwSignal<Vec<String>>,
) -> impl IntoView {
    let key = panel.key.clone();
    let is_open = {
        let key = key.clone();
        Memo::new(move |_| opened.read().contains(&key))
    };
    let summary = panel.summary.clone();
    let definition = panel.definition.clone();
    let message = panel.message.clone();
    let panel = StoredValue::new(panel);
    let testid = format!("{stem}-{key}");
    view! {
        <details class="rank-details" data-testid=testid prop:open=move || is_open.get()
            on:toggle=move |ev| {
                // The element's own state after the toggle, so a redraw cannot invert it.
                let now = event_target::<web_sys::HtmlDetailsElement>(&ev).open();
                let key = key.clone();
                opened.update(|o| {
                    o.retain(|k| *k != key);
                    if now {
                        o.push(key);
                    }
                });
            }>
            <summary title=definition>{summary}</summary>
            {message.map(|m| view! { <p class="notice" data-testid=format!("{stem}-{}-message", panel.with_value(|p| p.key.clone()))>{m}</p> })}
            {move || is_open.get().then(|| panel.with_value(|p| panel_body(p, stem)))}
        </details>
    }
}

/// Rows of a panel's table drawn at first; a button draws the rest (a 300-model board's ranked
/// rows drawn at once took one 165 ms main-thread task; the first 100 with the board's Paired
/// column, one frame of 54-63 ms CPU in issue 22's item-analysis bench). As many as the board
/// draws at first ([`crate::components::board_table::FIRST_ROWS`]).
const SHOWN_ROWS: usize = crate::components::board_table::FIRST_ROWS;

/// A panel's table, lists and notes.
fn panel_body(p: &Panel, stem: &'static str) -> AnyView {
    let key = p.key.clone();
    let all = p.rows.len();
    let shown = RwSignal::new(SHOWN_ROWS.min(all));
    let rows = StoredValue::new(p.rows.clone());
    let row_id = format!("{stem}-{key}-row");
    view! {
        {(!p.columns.is_empty() && !p.rows.is_empty()).then(|| view! {
            <div class="table-scroll"><table class="lb-table rank-table" data-testid=format!("{stem}-{key}-table")>
                <thead><tr>
                    {p.columns.iter().map(|(t, d)| view! { <th scope="col" title=d.clone()>{t.clone()}</th> }).collect_view()}
                </tr></thead>
                <tbody>
                    {move || rows.with_value(|rs| rs.iter().take(shown.get()).map(|r| view! {
                        <tr data-testid=row_id.clone() data-key=r.key.clone()
                            title=(!r.title.is_empty()).then(|| r.title.clone())
                            class=if r.strong { "rank-sig" } else { "" }>
                            {r.cells.iter().map(|c| view! { <td data-value=c.value.clone()>{c.text.clone()}</td> }).collect_view()}
                        </tr>
                    }).collect_view())}
                </tbody>
            </table></div>
        })}
        {move || (shown.get() < all).then(|| view! {
            <button type="button" data-testid=format!("{stem}-{key}-more") on:click=move |_| shown.set(all)>
                {format!("Show all {all} rows (the first {SHOWN_ROWS} are shown)")}
            </button>
        })}
        {p.lists.iter().map(|l| view! {
            <p class="rank-flips-head">{l.head.clone()}</p>
            <ul class="rank-flips">
                {l.items.iter().map(|(t, h)| view! { <li title=(!h.is_empty()).then(|| h.clone())>{t.clone()}</li> }).collect_view()}
            </ul>
        }).collect_view()}
        {p.notes.iter().map(|n| view! { <p class="hint">{n.clone()}</p> }).collect_view()}
    }
    .into_any()
}

/// The Rank column's text: the interval-overlap rank of a model row (the board's one rule,
/// [`crate::components::board_table::RANK_RULE`], for every kind of row), `ref` for a baseline
/// when the board has paired ranks, else `–` for an unranked row.
pub fn rank_text(paired: bool, kind: RowKind, rank: Option<usize>) -> String {
    match (paired, kind, rank) {
        (true, RowKind::Baseline, _) => "ref".into(),
        (_, _, Some(k)) => k.to_string(),
        (_, _, None) => "–".into(),
    }
}

/// The Paired rank column's text and hover text: the rank range and group letter of a
/// computed row the rank board ranked (`1–3 a`); empty for other rows, which have no item data
/// to test (issue 20: one rule per column, so reported and computed ranks are not mixed).
pub fn paired_text(kind: RowKind, mark: Option<&RankMark>) -> (String, String) {
    match (kind, mark) {
        (_, Some(m)) => (
            format!("{} {}", m.range, m.group).trim().to_string(),
            m.title.clone(),
        ),
        (RowKind::Baseline, None) => (String::new(), definition("reference").to_string()),
        (_, None) => (
            String::new(),
            "No item data: not tested (see Rank for its 95% interval overlap rank)".to_string(),
        ),
    }
}

/// The table's Rank cell ([`rank_text`]).
pub fn rank_cell(paired: bool, kind: RowKind, rank: Option<usize>) -> impl IntoView {
    let class = if paired && kind == RowKind::Baseline {
        "num reference"
    } else {
        "num"
    };
    let title = (paired && kind == RowKind::Baseline).then(|| definition("reference"));
    view! {
        <td class=class data-rank=rank.map(|k| k.to_string()) title=title>{rank_text(paired, kind, rank)}</td>
    }
}

/// The table's Paired rank cell ([`paired_text`]), with the range, group and leader flag as
/// data attributes.
pub fn paired_cell(kind: RowKind, mark: Option<&RankMark>) -> impl IntoView {
    let (text, title) = paired_text(kind, mark);
    let class = if mark.is_some() {
        "num lb-rank paired"
    } else {
        "num lb-rank"
    };
    view! {
        <td class=class data-rank-range=mark.map(|m| m.range.clone()) data-group=mark.map(|m| m.group.clone())
            data-leader=mark.map(|m| m.leader.to_string()) title=title>{text}</td>
    }
}

/// The table's export ([`crate::components::board_table::analysis_table`] for CSV and JSON,
/// [`crate::components::board_table::export_table`] for LaTeX) with a Paired rank column after
/// Rank when the board has paired ranks ([`paired_text`]), as the table shows them.
pub fn export_ranked(
    board: &Board,
    state: &crate::components::board_table::ViewState,
    marks: Option<&RankMarks>,
    analysis: bool,
) -> coglab_core::leaderboard::Table {
    use crate::components::board_table::{analysis_table, arrange, export_table};
    let mut t = if analysis {
        analysis_table(board, state)
    } else {
        export_table(board, state)
    };
    let Some(m) = marks.filter(|m| !m.0.is_empty()) else {
        return t;
    };
    let a = arrange(board, state);
    t.columns.insert(1, "Paired rank".into());
    if !t.numeric.is_empty() {
        t.numeric.insert(1, false);
    }
    let keys = mark_keys(board);
    for (&(i, _), row) in a.rows.iter().zip(&mut t.rows) {
        let Some(r) = board.rows.get(i) else { continue };
        let mark = keys
            .get(i)
            .and_then(Option::as_ref)
            .and_then(|k| m.0.get(k));
        let (text, _) = paired_text(r.kind, mark);
        row.insert(
            1,
            if text.is_empty() && !analysis {
                "–".into()
            } else {
                text
            },
        );
    }
    t
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::components::board_table::BoardRow;

    fn row(model: &str, kind: RowKind) -> BoardRow {
        BoardRow {
            model: model.into(),
            kind,
            source: String::new(),
            family: "unknown".into(),
            size: "unknown".into(),
            cells: vec![],
            harness: None,
            summary: false,
            cite: None,
            flag: None,
            published: false,
            row_id: None,
        }
    }

    fn mark(range: &str) -> RankMark {
        RankMark {
            range: range.into(),
            group: "a".into(),
            leader: true,
            coverage: None,
            title: String::new(),
        }
    }

    #[test]
    fn repeated_names_take_the_boards_numbered_marks() {
        // The core names the second computed row "a" as "a (2)"; a reported "a" in between
        // is not counted, and reported rows and baselines get no mark.
        let table = Board {
            rows: vec![
                row("a", RowKind::Computed),
                row("a", RowKind::Reported),
                row("a", RowKind::Computed),
                row("b", RowKind::Computed),
                row("Human", RowKind::Baseline),
            ],
            ..Default::default()
        };
        let marks = RankMarks(
            [("a", "1"), ("a (2)", "2–3"), ("b", "4")]
                .into_iter()
                .map(|(k, r)| (k.to_string(), mark(r)))
                .collect(),
        );
        let got: Vec<Option<&str>> = mark_keys(&table)
            .iter()
            .map(|k| {
                k.as_ref()
                    .and_then(|k| marks.0.get(k))
                    .map(|m| m.range.as_str())
            })
            .collect();
        assert_eq!(got, [Some("1"), None, Some("2–3"), Some("4"), None]);
    }
}
