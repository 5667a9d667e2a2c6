//! One leaderboard table per benchmark: reported, computed and baseline rows together, sortable
//! by any column (missing values last), filtered by text, row kind, model family and size, with
//! a column picker, tie-aware ranks from overlapping 95% intervals (`coglab_core` `tie_ranks`),
//! the interval on hover or as "± x" in compact mode, a definition on every metric header, and
//! CSV/JSON/LaTeX exports of the table as shown.
//!
//! The numbers come from the core (the page builds a [`Board`] from core reports); this module
//! only arranges them: [`arrange`] and [`export_table`] are plain functions, tested natively.
//!
//! - `arrange.rs`: sorting, filtering and ranking the rows as shown ([`arrange`], [`cell_text`]);
//! - `export.rs`: the table as shown for the CSV/JSON/LaTeX exports;
//! - `html.rs`: the table as static HTML, shown before the app has loaded;
//! - this file: the rows' types, the view state and the [`BoardTable`] component;
//! - `tests.rs`: the native tests of the plain functions.

use std::collections::HashMap;

use crate::worker::api::RowId;
use coglab_core::leaderboard::{board_ranks, to_csv, to_json, to_latex, Table};
use leptos::prelude::*;

mod arrange;
mod export;
mod html;
#[cfg(test)]
mod tests;

use crate::download::download_text;
pub use arrange::{arrange, cell_text, fold_case, RANK_RULE};
pub use export::{analysis_table, export_table};
pub use html::board_html;

/// What a row is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RowKind {
    /// Bundled from a paper.
    Reported,
    /// Computed in the browser from dropped files.
    Computed,
    /// A reference row: chance, humans.
    Baseline,
}

impl RowKind {
    /// All kinds, in display order.
    pub const ALL: [RowKind; 3] = [RowKind::Reported, RowKind::Computed, RowKind::Baseline];

    /// The badge text and URL value.
    pub fn label(self) -> &'static str {
        match self {
            RowKind::Reported => "reported",
            RowKind::Computed => "computed",
            RowKind::Baseline => "baseline",
        }
    }

    /// The kind named by [`RowKind::label`].
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.label() == s)
    }
}

/// One metric value with its 95% interval (fractions, shown times [`Board::scale`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BoardCell {
    /// The value.
    pub value: f64,
    /// The 95% interval, when known.
    pub interval: Option<(f64, f64)>,
    /// The number of observations behind the value (items, trials or verdicts), when known
    /// (the exports' `n` column).
    pub n: Option<u64>,
    /// Hover text (counts, SE, how the interval was made).
    pub detail: String,
}

/// One row.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardRow {
    /// Model (or baseline) name.
    pub model: String,
    /// Reported, computed or baseline.
    pub kind: RowKind,
    /// Where the row comes from (paper and table, or the file names).
    pub source: String,
    /// The harness that produced a computed row's file (`lmms-eval`, `Inspect`, ...), when it
    /// was not the benchmark's own format.
    pub harness: Option<String>,
    /// A row of a harness's summary file (lmms-eval `results.json`, an Every Eval Ever
    /// aggregate): its figures as the file gives them, with no items behind them (no model
    /// page, no paired rank). Shown as a "summary: <harness>" badge instead of "via <harness>".
    pub summary: bool,
    /// Model family, or `unknown`.
    pub family: String,
    /// Model size, `proprietary`, or `unknown`.
    pub size: String,
    /// One cell per column (`None`: not available).
    pub cells: Vec<Option<BoardCell>>,
    /// For rows transcribed from a paper: the short citation shown on the row (table, paper,
    /// year) and the link to the paper's project page (issue 26, defect 11: on the row, not
    /// only on hover, which phones lack).
    pub cite: Option<(String, String)>,
    /// A data-quality flag shown on the row (e.g. a score outside the column's stated scale).
    pub flag: Option<String>,
    /// A row of the site's published bundle (`coglab publish`): computed, badged "published".
    pub published: bool,
    /// The scoring worker's id of a computed row (to tell published rows from dropped ones of
    /// the same model).
    pub row_id: Option<RowId>,
}

impl BoardRow {
    /// The row's badge and export kind: its [`RowKind::label`], or `published` for a row of
    /// the site's published bundle.
    pub fn badge(&self) -> &'static str {
        if self.published {
            "published"
        } else {
            self.kind.label()
        }
    }
}

/// One metric column.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardColumn {
    /// Stable key (URL state, `data-col`).
    pub key: String,
    /// Header text.
    pub title: String,
    /// The metric's definition (header tooltip).
    pub definition: String,
    /// Display factor and decimals of this column when they differ from the board's (e.g. a
    /// score that is not a percentage).
    pub unit: Option<(f64, usize)>,
}

/// A benchmark's table.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Board {
    /// Caption.
    pub caption: String,
    /// Metric columns.
    pub columns: Vec<BoardColumn>,
    /// Rows in their natural order.
    pub rows: Vec<BoardRow>,
    /// Display factor (100 for percentages).
    pub scale: f64,
    /// Decimals shown.
    pub decimals: usize,
}

/// What the Model cell of a computed row below full coverage shows of its estimated
/// full-benchmark score (issue 40; the worker's `Estimates` reply, formatted by the page).
#[derive(Debug, Clone, PartialEq)]
pub struct EstimateMark {
    /// `est. 31.2% [27.0, 35.4]`, or why the estimate is withheld.
    pub text: String,
    /// The estimate and its interval (proportions), `None` when withheld.
    pub figures: Option<(f64, f64, f64)>,
    /// Where its definition and calibration are written (`#mmiq-estimates`): the mark is a
    /// link there, so a phone reaches them with a tap.
    pub href: String,
}

/// The estimate marks of a board's partial computed rows, by row id.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EstimateMarks(pub HashMap<RowId, EstimateMark>);

/// An estimate mark beside a row's coverage ([`EstimateMark`]).
fn estimate_mark(m: &EstimateMark) -> AnyView {
    let class = if m.figures.is_some() {
        "est-mark"
    } else {
        "est-mark withheld"
    };
    view! {
        <a class=class href=m.href.clone() data-testid="estimate-mark"
            data-estimate=m.figures.map(|f| f.0.to_string())
            data-ci-low=m.figures.map(|f| f.1.to_string())
            data-ci-high=m.figures.map(|f| f.2.to_string())>{m.text.clone()}</a>
    }
    .into_any()
}

/// How the table is shown (kept in the URL).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ViewState {
    /// Sort column key (`model`, or a metric key); `None`: the first visible metric column.
    pub sort: Option<String>,
    /// Ascending instead of the default descending (names: A→Z when false).
    pub asc: bool,
    /// Lower-case text a model name must contain.
    pub query: String,
    /// Kinds shown (empty: all).
    pub kinds: Vec<RowKind>,
    /// Family shown (empty: all).
    pub family: String,
    /// Size shown (empty: all).
    pub size: String,
    /// Hidden metric column keys.
    pub hidden: Vec<String>,
    /// Show "value ± half-width" instead of the value alone.
    pub compact: bool,
}

/// Rows drawn until "Show all" is pressed. The browser lays a table out whole, and a table's
/// layout costs per cell: in issue 22's item-analysis bench (300 computed rows), the frame in
/// which the Paired rank column appeared was a 210 ms layout with every row drawn, and 44 ms
/// of layout (63 ms CPU in all) with 100. The first rows of the order shown are what a reader
/// looks at; the filters and the sort reach the others, and the exports hold them all.
pub const FIRST_ROWS: usize = 50;

/// The table as shown: visible column indices and the rows (index, rank) in display order.
#[derive(Debug, Clone, PartialEq)]
pub struct Arranged {
    /// Indices into [`Board::columns`].
    pub columns: Vec<usize>,
    /// (row index, rank) in display order; the rank is `None` without a value in the rank
    /// column.
    pub rows: Vec<(usize, Option<usize>)>,
    /// The column the ranks are of.
    pub rank_column: Option<usize>,
    /// Whether a filter hides rows (the ranks are then among the rows shown).
    pub filtered: bool,
    /// The view's sort key when it names no column of this board (a link, or the sort of a
    /// tab with other columns): it is not applied, and the page says so.
    pub unknown_sort: Option<String>,
}

fn distinct(board: &Board, f: impl Fn(&BoardRow) -> &str) -> Vec<String> {
    let mut v: Vec<String> = board.rows.iter().map(|r| f(r).to_string()).collect();
    v.sort();
    v.dedup();
    v
}
/// What the table's expandable row shows: a column's definition (its header's ⓘ) or one
/// cell's figure in full (the cell tapped, clicked or given Enter). A phone has no hover, so
/// nothing here lives in a `title` alone (issue 42, defect 2).
#[derive(Debug, Clone, PartialEq)]
enum Shown {
    /// The definition of the column with this key (`model` for the Model column).
    Column(String),
    /// The cell of board row `.0` in board column `.1`.
    Cell(usize, usize),
}

/// The Model column's definition.
const MODEL_DEFINITION: &str = "Model or baseline; the badge says whether the row is reported in a paper, computed from your files, or a baseline";

/// The leaderboard table with its controls and export buttons.
#[component]
pub fn BoardTable(
    /// The rows and columns.
    #[prop(into)]
    board: Signal<Board>,
    /// How it is shown (the page keeps it in the URL).
    state: RwSignal<ViewState>,
    /// Test id prefix and export file stem (e.g. `mmiq`).
    stem: &'static str,
    /// Paired ranks of the computed rows ([`crate::components::rank_panel::RankPanel`]): when
    /// given, a ranked computed row shows its rank range and group (and its coverage when below
    /// full), baselines are not ranked, and other rows keep the interval-overlap rank, labelled.
    #[prop(optional, into)]
    ranks: Option<Signal<crate::components::rank_panel::RankMarks>>,
    /// Estimated full-benchmark scores of the partial computed rows, shown beside their
    /// coverage (MM-IQ and KiVA boards).
    #[prop(optional, into)]
    estimates: Option<Signal<EstimateMarks>>,
) -> impl IntoView {
    let arranged = Memo::new(move |_| arrange(&board.read(), &state.read()));
    let shown_detail = RwSignal::new(None::<Shown>);
    let toggle = move |what: Shown| {
        shown_detail.update(|d| {
            *d = if d.as_ref() == Some(&what) {
                None
            } else {
                Some(what)
            }
        });
    };
    // Whether every row is drawn, or the first [`FIRST_ROWS`].
    let all_rows = RwSignal::new(false);
    // Whether the Paired rank column is shown: the rank board ranked some computed rows.
    let paired = Memo::new(move |_| ranks.is_some_and(|m| !m.read().0.is_empty()));
    // The expandable rows span the whole table.
    let span = move || arranged.read().columns.len() + 2 + usize::from(paired.get());
    let export = move |analysis: bool| {
        crate::components::rank_panel::export_ranked(
            &board.read(),
            &state.read(),
            ranks.map(|m| m.get()).as_ref(),
            analysis,
        )
    };
    let sort_by = move |key: String| {
        state.update(|s| {
            if s.sort.as_deref() == Some(key.as_str()) {
                s.asc = !s.asc;
            } else {
                s.sort = Some(key);
                s.asc = false;
            }
        })
    };
    let header = move |key: String, title: String, definition: String| {
        let k2 = key.clone();
        let k3 = key.clone();
        let sorted = move || {
            let s = state.read();
            (s.sort.as_deref() == Some(k2.as_str())).then_some(if s.asc {
                if k2 == "model" {
                    "descending"
                } else {
                    "ascending"
                }
            } else if k2 == "model" {
                "ascending"
            } else {
                "descending"
            })
        };
        let sorted2 = sorted.clone();
        let arrow = move || match sorted2() {
            Some("ascending") => " ▲",
            Some(_) => " ▼",
            None => "",
        };
        let k4 = key.clone();
        let k5 = key.clone();
        view! {
            <th scope="col" aria-sort=move || sorted().unwrap_or("none") data-col=key.clone()>
                <button type="button" class="lb-sort" title=definition.clone()
                    aria-label=format!("{title}: sort. {definition}")
                    on:click=move |_| sort_by(k3.clone())>{title.clone()}{arrow}</button>
                <button type="button" class="lb-def-toggle" data-testid="def-toggle"
                    aria-label=format!("What is {title}?")
                    aria-expanded=move || (shown_detail.read().as_ref() == Some(&Shown::Column(k4.clone()))).to_string()
                    on:click=move |_| toggle(Shown::Column(k5.clone()))>"i"</button>
            </th>
        }
    };
    let kind_box = move |k: RowKind| {
        view! {
            <label><input type="checkbox" data-testid=format!("{stem}-kind-{}", k.label())
                prop:checked=move || { let s = state.read(); s.kinds.is_empty() || s.kinds.contains(&k) }
                on:change=move |ev| {
                    let on = event_target_checked(&ev);
                    state.update(|s| {
                        let mut ks: Vec<RowKind> = if s.kinds.is_empty() { RowKind::ALL.to_vec() } else { s.kinds.clone() };
                        ks.retain(|x| *x != k);
                        if on { ks.push(k); }
                        ks.sort_by_key(|x| RowKind::ALL.iter().position(|y| y == x));
                        s.kinds = if ks.len() == RowKind::ALL.len() { Vec::new() } else { ks };
                    });
                } />{format!(" {}", k.label())}</label>
        }
    };
    let select = move |what: &'static str,
                       get: fn(&ViewState) -> &String,
                       set: fn(&mut ViewState, String),
                       of: fn(&BoardRow) -> &str| {
        view! {
            <label>{format!("{what} ")}
                <select data-testid=format!("{stem}-{}", what.to_ascii_lowercase())
                    on:change=move |ev| { let v = event_target_value(&ev); state.update(|s| set(s, v)); }>
                    <option value="" selected=move || get(&state.read()).is_empty()>"all"</option>
                    {move || distinct(&board.read(), of).into_iter().map(|v| {
                        let v2 = v.clone();
                        let label = v.clone();
                        view! { <option value=v selected=move || *get(&state.read()) == v2>{label}</option> }
                    }).collect_view()}
                </select>
            </label>
        }
    };
    view! {
        <div class="lb-board" data-testid=format!("{stem}-board")>
            <div class="lb-controls lb-filters" role="group" aria-label="Filter the table">
                <label class="lb-search">"Model "
                    <input type="search" data-testid=format!("{stem}-filter") placeholder="e.g. gpt"
                        prop:value=move || state.read().query.clone()
                        on:input=move |ev| { let v = event_target_value(&ev); state.update(|s| s.query = v); } />
                </label>
                <fieldset class="lb-kinds"><legend class="visually-hidden">"Row kinds"</legend>
                    {RowKind::ALL.map(kind_box).collect_view()}
                </fieldset>
                {select("Family", |s| &s.family, |s, v| s.family = v, |r| r.family.as_str())}
                {select("Size", |s| &s.size, |s, v| s.size = v, |r| r.size.as_str())}
                <label><input type="checkbox" data-testid=format!("{stem}-compact")
                    prop:checked=move || state.read().compact
                    on:change=move |ev| { let on = event_target_checked(&ev); state.update(|s| s.compact = on); } />
                    " ± interval"</label>
                <details class="lb-columns" data-testid=format!("{stem}-columns")>
                    <summary>"Columns"</summary>
                    <div class="lb-columns-list">
                        {move || board.read().columns.iter().map(|c| {
                            let key = c.key.clone();
                            let k2 = key.clone();
                            view! {
                                <label><input type="checkbox" data-col=key.clone()
                                    prop:checked=move || !state.read().hidden.contains(&k2)
                                    on:change=move |ev| {
                                        let on = event_target_checked(&ev);
                                        let k = key.clone();
                                        state.update(|s| { s.hidden.retain(|h| *h != k); if !on { s.hidden.push(k); } });
                                    } />{format!(" {}", c.title)}</label>
                            }
                        }).collect_view()}
                    </div>
                </details>
            </div>
            <div class="table-scroll">
            <table class="lb-table" data-testid=format!("{stem}-table")>
                <caption>{move || board.read().caption.clone()}</caption>
                <thead><tr>
                    <th scope="col" title=RANK_RULE>
                        {move || if arranged.read().filtered { "Rank among shown" } else { "Rank" }}</th>
                    {move || paired.get().then(|| view! {
                        <th scope="col" data-testid=format!("{stem}-paired-header")
                            title="Computed rows with item data: the rank range consistent with the adjusted paired tests, and the group letter (see Paired ranks below the table). Rows without item data (reported, summaries) are not tested.">
                            "Paired rank"</th>
                    })}
                    {header("model".into(), "Model".into(), MODEL_DEFINITION.into())}
                    {move || {
                        let b = board.read();
                        arranged.read().columns.iter().map(|&c| {
                            let col = &b.columns[c];
                            header(col.key.clone(), col.title.clone(), col.definition.clone())
                        }).collect_view()
                    }}
                </tr>
                {move || match shown_detail.get() {
                    Some(Shown::Column(key)) => {
                        let (title, definition) = if key == "model" {
                            ("Model".to_string(), MODEL_DEFINITION.to_string())
                        } else {
                            board.with(|b| b.columns.iter().find(|c| c.key == key)
                                .map(|c| (c.title.clone(), c.definition.clone())))?
                        };
                        Some(view! {
                            <tr class="lb-detail-row"><td colspan=span data-testid=format!("{stem}-definition")>
                                <div><strong>{title}</strong>": "{definition}" "
                                    <button type="button" class="lb-close" on:click=move |_| shown_detail.set(None)>"Close"</button></div>
                            </td></tr>
                        })
                    }
                    _ => None,
                }}
                </thead>
                <tbody>
                    {move || {
                        let b = board.get();
                        let a = arranged.get();
                        let compact = state.read().compact;
                        // Neither the marks nor the Paired column's presence are read here:
                        // each row's paired cell and coverage mark follow them on their own, so
                        // a rank reply adds or redraws those cells, not the whole table (300
                        // rows were one 100 ms task, issue 22).
                        let keys = crate::components::rank_panel::mark_keys(&b);
                        let shown = if all_rows.get() { usize::MAX } else { FIRST_ROWS };
                        if a.rows.is_empty() {
                            let span = a.columns.len() + 2;
                            return view! { <tr><td colspan=move || span + usize::from(paired.get()) class="lb-empty">"No row matches the filters."</td></tr> }.into_any();
                        }
                        a.rows.iter().take(shown).map(|&(i, rank)| {
                            let r = &b.rows[i];
                            let cells = a.columns.iter().map(|&c| {
                                let cell = r.cells.get(c).and_then(Option::as_ref);
                                let text = cell_text(&b, c, cell, compact);
                                let title = cell.map(|x| x.detail.clone());
                                let has = cell.is_some();
                                view! {
                                    <td class="num" data-col=b.columns[c].key.clone()
                                        data-value=cell.map(|x| x.value.to_string())
                                        data-ci-low=cell.and_then(|x| x.interval).map(|x| x.0.to_string())
                                        data-ci-high=cell.and_then(|x| x.interval).map(|x| x.1.to_string())
                                        title=title tabindex=cell.map(|_| "0")
                                        aria-expanded=move || has.then(|| (shown_detail.read().as_ref() == Some(&Shown::Cell(i, c))).to_string())
                                        on:click=move |_| if has { toggle(Shown::Cell(i, c)) }
                                        on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                                            if has && (ev.key() == "Enter" || ev.key() == " ") {
                                                ev.prevent_default();
                                                toggle(Shown::Cell(i, c));
                                            }
                                        }>{text}</td>
                                }
                            }).collect_view();
                            let kind = r.kind.label();
                            let badge = r.badge();
                            let key = keys.get(i).cloned().flatten();
                            let kind_of = r.kind;
                            let row_id = r.row_id;
                            let mark = move || {
                                let key = key.as_ref()?;
                                ranks?.with(|m| m.0.get(key).cloned())
                            };
                            let rank_cell = crate::components::rank_panel::rank_cell(ranks.is_some(), r.kind, rank);
                            let paired_cell = {
                                let mark = mark.clone();
                                move || paired.get().then(|| crate::components::rank_panel::paired_cell(kind_of, mark().as_ref()))
                            };
                            view! {
                                <tr data-testid=format!("{stem}-{badge}-row") data-model=r.model.clone() data-kind=kind class=format!("kind-{kind}")
                                    data-harness=r.harness.clone()>
                                    {rank_cell}
                                    {paired_cell}
                                    <th scope="row">{r.model.clone()}" "
                                        <span class=format!("badge {badge}") title=r.source.clone()>{badge}</span>
                                        {r.harness.clone().map(|h| if r.summary {
                                            view! {
                                                <span class="badge harness summary" data-testid="row-summary"
                                                    title=format!("figures as given in a {h} summary file (its standard error as the interval); a summary has no items, so there is no model page or paired rank for this row")>
                                                    {format!("summary: {h}")}</span>
                                            }.into_any()
                                        } else {
                                            view! {
                                                <span class="badge harness" data-testid="row-harness"
                                                    title=format!("read from {h} output, mapped onto the benchmark's items and scored with its own rules")>
                                                    {format!("via {h}")}</span>
                                            }.into_any()
                                        })}
                                        {r.cite.clone().map(|(text, url)| view! {
                                            <a class="row-source" href=url target="_blank" rel="noopener"
                                                title=r.source.clone() data-testid="row-source">{text}</a>
                                        })}
                                        {r.flag.clone().map(|f| view! {
                                            " " <span class="badge flag" role="img" aria-label=f.clone() title=f.clone() data-testid="row-flag">{format!("⚠ {f}")}</span>
                                        })}
                                        {move || crate::components::rank_panel::coverage_mark(mark().as_ref())}
                                        {move || {
                                            let id = row_id?;
                                            estimates?.with(|e| e.0.get(&id).map(estimate_mark))
                                        }}</th>
                                    {cells}
                                </tr>
                                {move || match shown_detail.get() {
                                    Some(Shown::Cell(ri, ci)) if ri == i => board.with(|b| {
                                        let row = b.rows.get(ri)?;
                                        let col = b.columns.get(ci)?;
                                        let cell = row.cells.get(ci).and_then(Option::as_ref)?;
                                        let figure = cell_text(b, ci, Some(cell), true);
                                        let n = cell.n.map(|n| format!(" (n = {n})")).unwrap_or_default();
                                        let head = format!("{} · {}: {figure}{n}", row.model, col.title);
                                        let detail = cell.detail.clone();
                                        let definition = col.definition.clone();
                                        let source = row.source.clone();
                                        Some(view! {
                                            <tr class="lb-detail-row"><td colspan=span data-testid=format!("{stem}-cell-detail")>
                                                <div>
                                                    <strong>{head}</strong>
                                                    {(!detail.is_empty()).then(|| view! { <br />{detail} })}
                                                    <br /><span class="muted">{format!("{}: {definition}", col.title)}</span>
                                                    {(!source.is_empty()).then(|| view! { <br /><span class="muted">{format!("Source: {source}")}</span> })}
                                                    " " <button type="button" class="lb-close" on:click=move |_| shown_detail.set(None)>"Close"</button>
                                                </div>
                                            </td></tr>
                                        })
                                    }),
                                    _ => None,
                                }}
                            }
                        }).collect_view().into_any()
                    }}
                </tbody>
            </table>
            </div>
            {move || {
                let n = arranged.read().rows.len();
                (n > FIRST_ROWS).then(|| view! {
                    <p class="lb-more" data-testid=format!("{stem}-more")>
                        {move || if all_rows.get() {
                            format!("All {n} rows shown. ")
                        } else {
                            format!("The first {FIRST_ROWS} of {n} rows are shown (filter by model name to find others). ")
                        }}
                        <button type="button" data-testid=format!("{stem}-all-rows")
                            on:click=move |_| all_rows.update(|a| *a = !*a)>
                            {move || if all_rows.get() { format!("Show the first {FIRST_ROWS}") } else { format!("Show all {n}") }}
                        </button>
                    </p>
                })
            }}
            <p class="lb-rank-rule muted" data-testid=format!("{stem}-rank-rule")>
                {move || {
                    let a = arranged.read();
                    let col = a.rank_column.map(|c| board.read().columns[c].title.clone());
                    let shown = a.rows.len();
                    let mut t = format!("Ranks by {}: rows whose 95% intervals overlap share a rank, and a row never ranks above a row with a higher value; baselines are reference rows, not ranked.",
                        col.unwrap_or_else(|| "the first column".into()));
                    if paired.get() {
                        t.push_str(" Paired rank: the computed rows' ranks from paired tests on their items (see Paired ranks).");
                    }
                    if a.filtered {
                        t.push_str(&format!(" Filters are on: ranks among the {shown} rows shown."));
                    }
                    if let Some(key) = &a.unknown_sort {
                        t.push_str(&format!(" This board has no “{key}” column to sort by: rows are in rank order."));
                    }
                    t
                }}
            </p>
            <div class="lb-controls lb-export" role="group" aria-label="Export this table as shown">
                <span>"Export as shown: "</span>
                <button type="button" data-testid=format!("{stem}-csv")
                    on:click=move |_| download_text(&format!("{stem}.csv"), "text/csv", &to_csv(&export(true)))>"CSV"</button>
                <button type="button" data-testid=format!("{stem}-json")
                    on:click=move |_| download_text(&format!("{stem}.json"), "application/json", &to_json(&export(true)))>"JSON"</button>
                <button type="button" data-testid=format!("{stem}-latex")
                    on:click=move |_| download_text(&format!("{stem}.tex"), "application/x-tex", &to_latex(&export(false)))>"LaTeX"</button>
            </div>
        </div>
    }
}
