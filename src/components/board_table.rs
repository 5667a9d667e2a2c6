//! One leaderboard table per benchmark: reported, computed and baseline rows together, sortable
//! by any column (missing values last), filtered by text, row kind, model family and size, with
//! a column picker, tie-aware ranks from overlapping 95% intervals (`coglab_core` `tie_ranks`),
//! the interval on hover or as "± x" in compact mode, a definition on every metric header, and
//! CSV/JSON/LaTeX exports of the table as shown.
//!
//! The numbers come from the core (the page builds a [`Board`] from core reports); this module
//! only arranges them: [`arrange`] and [`export_table`] are plain functions, tested natively.

use coglab_core::leaderboard::{board_ranks, to_csv, to_json, to_latex, Table};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

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
    pub row_id: Option<u64>,
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
}

/// `s` in lower case, for searches that ignore case. In the browser this is JavaScript's
/// `toLowerCase` (full Unicode case mapping): the standard `str::to_lowercase` would bring its
/// Unicode case tables, 8 KB gzipped, into the download. Natively (unit tests) it is the
/// standard one, which maps the same.
pub fn fold_case(s: &str) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        String::from(js_sys::JsString::from(s).to_lower_case())
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        s.to_lowercase()
    }
}

/// The rank rule, said beside every board (one rule for every board; issue 26, defect 12).
pub const RANK_RULE: &str = "Rank: by the sorted column (else the first). Rows whose 95% \
    intervals overlap share a rank, and a row never ranks above a row with a higher value. \
    Baselines (chance, humans) are reference rows, not ranked.";

/// Filters, ranks and sorts the rows. Ranks are of the sorted metric column (else the first
/// visible one), over the model rows shown (baselines are not ranked), by the core's one rule
/// [`board_ranks`]: rows whose 95% intervals overlap share a rank, and no row ranks above a row
/// with a higher value (a value without an interval is a point). See [`RANK_RULE`].
pub fn arrange(board: &Board, state: &ViewState) -> Arranged {
    let columns: Vec<usize> = (0..board.columns.len())
        .filter(|&i| !state.hidden.contains(&board.columns[i].key))
        .collect();
    let q = fold_case(&state.query);
    let mut rows: Vec<usize> = (0..board.rows.len())
        .filter(|&i| {
            let r = &board.rows[i];
            (q.is_empty() || fold_case(&r.model).contains(&q))
                && (state.kinds.is_empty() || state.kinds.contains(&r.kind))
                && (state.family.is_empty() || r.family == state.family)
                && (state.size.is_empty() || r.size == state.size)
        })
        .collect();
    let sort_col = state
        .sort
        .as_deref()
        .and_then(|k| board.columns.iter().position(|c| c.key == k));
    let filtered = rows.len() < board.rows.len();
    let rank_column = sort_col.or_else(|| columns.first().copied());
    let mut ranks = vec![None; board.rows.len()];
    if let Some(c) = rank_column {
        // Models only: baselines (chance, humans) are reference rows, not ranked.
        let ranked: Vec<(usize, (f64, f64, f64))> = rows
            .iter()
            .filter(|&&i| board.rows[i].kind != RowKind::Baseline)
            .filter_map(|&i| {
                board.rows[i].cells.get(c).cloned().flatten().map(|cell| {
                    let (lo, hi) = cell.interval.unwrap_or((cell.value, cell.value));
                    (i, (cell.value, lo, hi))
                })
            })
            .collect();
        let r = board_ranks(&ranked.iter().map(|x| x.1).collect::<Vec<_>>());
        for ((i, _), rank) in ranked.iter().zip(r) {
            ranks[*i] = Some(rank);
        }
    }
    // Without a chosen sort, rows are in rank order of the first visible column.
    let sort_col = sort_col.or(if state.sort.is_none() {
        rank_column
    } else {
        None
    });
    match (state.sort.as_deref(), sort_col) {
        (Some("model"), _) => {
            let keys: Vec<String> = board.rows.iter().map(|r| fold_case(&r.model)).collect();
            rows.sort_by(|&a, &b| {
                let o = keys[a].cmp(&keys[b]);
                if state.asc {
                    o.reverse()
                } else {
                    o
                }
            })
        }
        (_, Some(c)) => {
            let value = |i: usize| {
                board.rows[i]
                    .cells
                    .get(c)
                    .cloned()
                    .flatten()
                    .map(|x| x.value)
            };
            rows.sort_by(|&a, &b| match (value(a), value(b)) {
                (Some(x), Some(y)) => {
                    let o = y.total_cmp(&x);
                    if state.asc {
                        o.reverse()
                    } else {
                        o
                    }
                }
                // Missing values last, whatever the direction.
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            });
        }
        _ => {}
    }
    Arranged {
        columns,
        rows: rows.into_iter().map(|i| (i, ranks[i])).collect(),
        rank_column,
        filtered,
    }
}

/// A cell's text as shown: the value, or "value ± half-width of the interval" in compact mode;
/// "–" when missing.
/// `column` is the cell's column index (for its [`BoardColumn::unit`]).
pub fn cell_text(board: &Board, column: usize, cell: Option<&BoardCell>, compact: bool) -> String {
    let Some(c) = cell else {
        return "–".into();
    };
    let (scale, d) = board
        .columns
        .get(column)
        .and_then(|c| c.unit)
        .unwrap_or((board.scale, board.decimals));
    let v = format!("{:.d$}", c.value * scale);
    match (compact, c.interval) {
        (true, Some((lo, hi))) => format!("{v} ± {:.d$}", (hi - lo) / 2.0 * scale),
        _ => v,
    }
}

/// The table as shown, for the LaTeX export: Rank, Model, Kind, then the visible columns, rows
/// in display order, cells as shown ("–" when missing, "± x" in compact mode).
pub fn export_table(board: &Board, state: &ViewState) -> Table {
    let a = arrange(board, state);
    let mut columns: Vec<String> = ["Rank", "Model", "Kind"].map(String::from).to_vec();
    columns.extend(a.columns.iter().map(|&c| board.columns[c].title.clone()));
    let rows = a
        .rows
        .iter()
        .map(|&(i, rank)| {
            let r = &board.rows[i];
            let mut row = vec![
                rank.map_or("–".into(), |k| k.to_string()),
                r.model.clone(),
                r.badge().to_string(),
            ];
            row.extend(a.columns.iter().map(|&c| {
                cell_text(
                    board,
                    c,
                    r.cells.get(c).and_then(Option::as_ref),
                    state.compact,
                )
            }));
            row
        })
        .collect();
    Table {
        columns,
        rows,
        numeric: Vec::new(),
    }
}

/// The table as shown, for analysis (the CSV and JSON exports; issue 26, defect 15): the rows
/// and visible columns of [`export_table`], but each metric as four columns (the value, its `n`,
/// `ci_low` and `ci_high`, in the shown unit and decimals) and a missing value as an empty
/// cell; the row's source is a column too.
pub fn analysis_table(board: &Board, state: &ViewState) -> Table {
    let a = arrange(board, state);
    let mut columns: Vec<String> = ["Rank", "Model", "Kind", "Source"]
        .map(String::from)
        .to_vec();
    let mut numeric = vec![false; columns.len()];
    for &c in &a.columns {
        let t = &board.columns[c].title;
        columns.extend([
            t.clone(),
            format!("{t} n"),
            format!("{t} ci_low"),
            format!("{t} ci_high"),
        ]);
        numeric.extend([true; 4]);
    }
    let rows = a
        .rows
        .iter()
        .map(|&(i, rank)| {
            let r = &board.rows[i];
            let mut row = vec![
                rank.map_or(String::new(), |k| k.to_string()),
                r.model.clone(),
                r.badge().to_string(),
                r.source.clone(),
            ];
            for &c in &a.columns {
                let (scale, d) = board
                    .columns
                    .get(c)
                    .and_then(|c| c.unit)
                    .unwrap_or((board.scale, board.decimals));
                let x = |v: f64| format!("{:.d$}", v * scale);
                match r.cells.get(c).and_then(Option::as_ref) {
                    Some(cell) => row.extend([
                        x(cell.value),
                        cell.n.map_or(String::new(), |n| n.to_string()),
                        cell.interval.map_or(String::new(), |(lo, _)| x(lo)),
                        cell.interval.map_or(String::new(), |(_, hi)| x(hi)),
                    ]),
                    None => {
                        row.extend([String::new(), String::new(), String::new(), String::new()])
                    }
                }
            }
            row
        })
        .collect();
    Table {
        columns,
        rows,
        numeric,
    }
}

/// Offers `text` as a downloaded file.
pub fn download_text(name: &str, mime: &str, text: &str) {
    let blob = gloo_file::Blob::new_with_options(text, Some(mime));
    let url = gloo_file::ObjectUrl::from(blob);
    if let Some(a) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.create_element("a").ok())
        .and_then(|a| a.dyn_into::<web_sys::HtmlAnchorElement>().ok())
    {
        a.set_href(&url);
        a.set_download(name);
        a.click();
    }
    // Revoking the URL right after the click can cancel the download: it is let go of a
    // minute later.
    gloo_timers::callback::Timeout::new(60_000, move || drop(url)).forget();
}

fn distinct(board: &Board, f: impl Fn(&BoardRow) -> &str) -> Vec<String> {
    let mut v: Vec<String> = board.rows.iter().map(|r| f(r).to_string()).collect();
    v.sort();
    v.dedup();
    v
}

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
) -> impl IntoView {
    let arranged = Memo::new(move |_| arrange(&board.read(), &state.read()));
    // Whether the Paired rank column is shown: the rank board ranked some computed rows.
    let paired = Memo::new(move |_| ranks.is_some_and(|m| !m.read().0.is_empty()));
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
        view! {
            <th scope="col" aria-sort=move || sorted().unwrap_or("none") data-col=key.clone()>
                <button type="button" class="lb-sort" title=definition.clone()
                    aria-label=format!("{title}: sort. {definition}")
                    on:click=move |_| sort_by(k3.clone())>{title.clone()}{arrow}</button>
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
                    {header("model".into(), "Model".into(), "Model or baseline; the badge says whether the row is reported in a paper, computed from your files, or a baseline".into())}
                    {move || {
                        let b = board.read();
                        arranged.read().columns.iter().map(|&c| {
                            let col = &b.columns[c];
                            header(col.key.clone(), col.title.clone(), col.definition.clone())
                        }).collect_view()
                    }}
                </tr></thead>
                <tbody>
                    {move || {
                        let b = board.get();
                        let a = arranged.get();
                        let compact = state.read().compact;
                        // The marks are not read here: each row's paired cell and coverage
                        // mark follow them on their own, so a rank reply redraws those cells,
                        // not the whole table (300 rows were one 100 ms task). The column
                        // itself comes and goes with `paired`.
                        let keys = crate::components::rank_panel::mark_keys(&b);
                        let with_paired = paired.get();
                        if a.rows.is_empty() {
                            return view! { <tr><td colspan=a.columns.len() + 2 + usize::from(with_paired) class="lb-empty">"No row matches the filters."</td></tr> }.into_any();
                        }
                        a.rows.iter().map(|&(i, rank)| {
                            let r = &b.rows[i];
                            let cells = a.columns.iter().map(|&c| {
                                let cell = r.cells.get(c).and_then(Option::as_ref);
                                let text = cell_text(&b, c, cell, compact);
                                let title = cell.map(|x| x.detail.clone());
                                view! {
                                    <td class="num" data-col=b.columns[c].key.clone()
                                        data-value=cell.map(|x| x.value.to_string())
                                        data-ci-low=cell.and_then(|x| x.interval).map(|x| x.0.to_string())
                                        data-ci-high=cell.and_then(|x| x.interval).map(|x| x.1.to_string())
                                        title=title tabindex=cell.map(|_| "0")>{text}</td>
                                }
                            }).collect_view();
                            let kind = r.kind.label();
                            let badge = r.badge();
                            let key = keys.get(i).cloned().flatten();
                            let kind_of = r.kind;
                            let mark = move || {
                                let key = key.as_ref()?;
                                ranks?.with(|m| m.0.get(key).cloned())
                            };
                            let rank_cell = crate::components::rank_panel::rank_cell(ranks.is_some(), r.kind, rank);
                            let paired_cell = with_paired.then(|| {
                                let mark = mark.clone();
                                move || crate::components::rank_panel::paired_cell(kind_of, mark().as_ref())
                            });
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
                                        {move || crate::components::rank_panel::coverage_mark(mark().as_ref())}</th>
                                    {cells}
                                </tr>
                            }
                        }).collect_view().into_any()
                    }}
                </tbody>
            </table>
            </div>
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows' order (indices into the board) after arranging.
    fn order(b: &Board, s: &ViewState) -> Vec<usize> {
        arrange(b, s).rows.iter().map(|r| r.0).collect()
    }

    fn cell(v: f64, lo: f64, hi: f64) -> Option<BoardCell> {
        Some(BoardCell {
            value: v,
            interval: Some((lo, hi)),
            n: None,
            detail: String::new(),
        })
    }

    fn row(model: &str, kind: RowKind, cells: Vec<Option<BoardCell>>) -> BoardRow {
        BoardRow {
            model: model.into(),
            kind,
            source: String::new(),
            harness: None,
            summary: false,
            family: if model.starts_with('g') {
                "GPT".into()
            } else {
                "unknown".into()
            },
            size: "unknown".into(),
            cells,
            cite: None,
            flag: None,
            published: false,
            row_id: None,
        }
    }

    fn board() -> Board {
        let col = |k: &str| BoardColumn {
            key: k.into(),
            title: k.to_ascii_uppercase(),
            definition: String::new(),
            unit: None,
        };
        Board {
            caption: String::new(),
            columns: vec![col("mean"), col("x")],
            rows: vec![
                row("a", RowKind::Reported, vec![cell(0.30, 0.28, 0.32), None]),
                row(
                    "gpt",
                    RowKind::Computed,
                    vec![cell(0.50, 0.45, 0.55), cell(0.1, 0.0, 0.2)],
                ),
                row(
                    "b",
                    RowKind::Computed,
                    vec![cell(0.31, 0.29, 0.33), cell(0.9, 0.8, 1.0)],
                ),
                row(
                    "chance",
                    RowKind::Baseline,
                    vec![
                        Some(BoardCell {
                            value: 0.25,
                            interval: None,
                            n: None,
                            detail: String::new(),
                        }),
                        None,
                    ],
                ),
            ],
            scale: 100.0,
            decimals: 1,
        }
    }

    #[test]
    fn sorts_with_missing_last_and_ties_overlaps() {
        let b = board();
        let s = ViewState {
            sort: Some("mean".into()),
            ..Default::default()
        };
        let a = arrange(&b, &s);
        // gpt 0.50 [0.45, 0.55]; b 0.31 and a 0.30 overlap: tied at 2; chance 0.25 is a
        // baseline: a reference row, not ranked.
        assert_eq!(
            a.rows,
            vec![(1, Some(1)), (2, Some(2)), (0, Some(2)), (3, None)]
        );
        assert!(!a.filtered);
        // Column x, ascending: missing values stay last.
        let s = ViewState {
            sort: Some("x".into()),
            asc: true,
            ..Default::default()
        };
        assert_eq!(order(&b, &s), vec![1, 2, 0, 3]);
        let s = ViewState {
            sort: Some("x".into()),
            ..Default::default()
        };
        let a = arrange(&b, &s);
        assert_eq!(
            a.rows,
            vec![(2, Some(1)), (1, Some(2)), (0, None), (3, None)]
        );
    }

    #[test]
    fn defect_12_one_monotone_rule_models_only_and_ranks_among_shown() {
        // A computed row with a very wide interval (few items): 0.29 [0.05, 0.60] overlaps
        // gpt's [0.45, 0.55], so the interval rule alone ranks it 1, above b and a (2) whose
        // values are higher. The board's rule keeps ranks monotone down the table: 2.
        let mut b = board();
        b.rows.push(row(
            "few",
            RowKind::Computed,
            vec![cell(0.29, 0.05, 0.60), None],
        ));
        let s = ViewState {
            sort: Some("mean".into()),
            ..Default::default()
        };
        let a = arrange(&b, &s);
        assert_eq!(
            a.rows,
            vec![
                (1, Some(1)),
                (2, Some(2)),
                (0, Some(2)),
                (4, Some(2)),
                (3, None)
            ]
        );
        let ranks: Vec<usize> = a.rows.iter().filter_map(|r| r.1).collect();
        assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{ranks:?}");
        // Filtered: the ranks are among the rows shown, and the board says so.
        let s = ViewState {
            sort: Some("mean".into()),
            kinds: vec![RowKind::Reported],
            ..Default::default()
        };
        let a = arrange(&b, &s);
        assert!(a.filtered);
        assert_eq!(a.rows, vec![(0, Some(1))]);
    }

    #[test]
    fn filters_hide_rows_and_columns() {
        let b = board();
        let s = ViewState {
            kinds: vec![RowKind::Computed],
            hidden: vec!["x".into()],
            ..Default::default()
        };
        let a = arrange(&b, &s);
        assert_eq!(a.columns, vec![0]);
        assert_eq!(order(&b, &s), vec![1, 2]);
        let s = ViewState {
            family: "GPT".into(),
            ..Default::default()
        };
        assert_eq!(arrange(&b, &s).rows.len(), 1);
        let s = ViewState {
            query: "CHA".into(),
            ..Default::default()
        };
        assert_eq!(arrange(&b, &s).rows[0].0, 3);
    }

    #[test]
    fn model_names_sort_and_match_ignoring_case() {
        let mut b = board();
        b.rows[0].model = "Émile".into();
        b.rows[1].model = "gpt".into();
        b.rows[2].model = "Beta".into();
        b.rows[3].model = "alpha".into();
        let s = ViewState {
            sort: Some("model".into()),
            ..Default::default()
        };
        // alpha, Beta, gpt, Émile: by the lower-cased names ("é" sorts after ASCII letters).
        assert_eq!(order(&b, &s), vec![3, 2, 1, 0]);
        let s = ViewState {
            sort: Some("model".into()),
            asc: true,
            ..Default::default()
        };
        assert_eq!(order(&b, &s), vec![0, 1, 2, 3]);
        // A search matches whatever the case, beyond ASCII too.
        let s = ViewState {
            query: "éMI".into(),
            ..Default::default()
        };
        assert_eq!(order(&b, &s), vec![0]);
    }

    #[test]
    fn export_is_the_table_as_shown() {
        let b = board();
        let s = ViewState {
            sort: Some("mean".into()),
            compact: true,
            hidden: vec!["x".into()],
            kinds: vec![RowKind::Computed, RowKind::Baseline],
            ..Default::default()
        };
        let t = export_table(&b, &s);
        assert_eq!(t.columns, ["Rank", "Model", "Kind", "MEAN"]);
        assert_eq!(
            t.rows,
            vec![
                vec!["1", "gpt", "computed", "50.0 ± 5.0"],
                vec!["2", "b", "computed", "31.0 ± 2.0"],
                // Baselines are reference rows, not ranked (issue 26, defect 12).
                vec!["–", "chance", "baseline", "25.0"],
            ]
        );
    }

    #[test]
    fn defect_15_analysis_export_has_empty_missing_cells_and_n_and_interval_columns() {
        let mut b = board();
        if let Some(Some(c)) = b.rows[1].cells.get_mut(0) {
            c.n = Some(200);
        }
        b.rows[1].source = "computed from gpt.jsonl".into();
        let s = ViewState {
            sort: Some("mean".into()),
            compact: true,
            kinds: vec![RowKind::Computed, RowKind::Baseline],
            ..Default::default()
        };
        let t = analysis_table(&b, &s);
        assert_eq!(
            t.columns,
            [
                "Rank",
                "Model",
                "Kind",
                "Source",
                "MEAN",
                "MEAN n",
                "MEAN ci_low",
                "MEAN ci_high",
                "X",
                "X n",
                "X ci_low",
                "X ci_high"
            ]
        );
        assert_eq!(t.numeric.iter().filter(|n| **n).count(), 8);
        // Values in the shown unit (percent, one decimal), compact mode notwithstanding.
        assert_eq!(
            t.rows[0],
            [
                "1",
                "gpt",
                "computed",
                "computed from gpt.jsonl",
                "50.0",
                "200",
                "45.0",
                "55.0",
                "10.0",
                "",
                "0.0",
                "20.0"
            ]
        );
        // The baseline is unranked, and its missing values are empty cells, not dashes.
        assert_eq!(
            t.rows[2],
            ["", "chance", "baseline", "", "25.0", "", "", "", "", "", "", ""]
        );
        let csv = coglab_core::leaderboard::to_csv(&t);
        assert!(csv.ends_with("\n,chance,baseline,,25.0,,,,,,,\n"), "{csv}");
        assert!(!csv.contains('–'));
    }

    #[test]
    fn a_column_unit_overrides_the_board_scale() {
        let mut b = board();
        b.columns[1].unit = Some((1.0, 4));
        let s = ViewState {
            sort: Some("mean".into()),
            compact: true,
            ..Default::default()
        };
        let t = export_table(&b, &s);
        // gpt: mean 0.50 ± 0.05 in percent (one decimal); x 0.1 [0.0, 0.2] as is, 4 decimals.
        assert_eq!(
            t.rows[0],
            ["1", "gpt", "computed", "50.0 ± 5.0", "0.1000 ± 0.1000"]
        );
    }
}
