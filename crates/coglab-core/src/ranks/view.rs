//! The leaderboard's rank board: from the scored rows the web worker keeps (MM-IQ reports, KiVA
//! reports with their run files, MM-OPERA rows), everything a computed board shows beside its
//! table, in one reply ([`rank_board`] → [`RankBoard`]): the [`Board`] (coverage, scores with
//! the coverage convention named, rank ranges, groups, the leader's group, clustered SEs, every
//! pair with its raw and adjusted p), the texts the page prints (rank range, coverage mark, SE
//! line, the header's test and adjustment, the MDD sentence), the extraction robustness (MM-IQ
//! and KiVA; flips listed up to a cap) and the judge robustness (MM-OPERA with several judges'
//! files for one model), with a message for each part that cannot be shown.
//!
//! Bad input never fails the reply: a row the worker no longer keeps, a row of another
//! benchmark, a human-data row (a reference row, not ranked), one model only or models without
//! shared items each give a note, and the board shows what it can. Two rows of one name are
//! told apart as `name (2)`, `name (3)` in input order.
//!
//! Definitions of every figure, for hover texts and the glossary: [`GLOSSARY`],
//! [`definition`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::extraction::{
    extraction_robustness, kiva_extraction_robustness, ExtractionRobustness, KivaExtraction,
    KivaRunFiles,
};
use super::inputs::{
    kiva_items, kiva_run_items, mmiq_benchmark_items, mmiq_items, mmopera_items, KivaStage,
};
use super::judges::{judge_robustness_rows, JudgeRobustness};
use super::{build_board, Adjust, Bench, Board, BoardInput, BoardOptions, ModelRow, PairTest};
use crate::kiva::{KivaReport, NullAnswers, RunFile};
use crate::leaderboard::mmopera::MmoperaRow;
use crate::mmiq::MmiqReport;
use crate::mmopera::Task;

/// The fewest bootstrap resamples a board is ranked with when the requested count would keep
/// too many values ([`rank_board`]).
pub const MIN_FITTED_RESAMPLES: usize = 200;

/// What the page asks for.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RankRequest {
    /// The benchmark of the board.
    pub bench: Bench,
    /// MM-OPERA: the task ranked (`None`: RIA when a row has RIA scores, else ICA).
    #[serde(default)]
    pub task: Option<Task>,
    /// KiVA: the stage ranked.
    #[serde(default)]
    pub stage: KivaStage,
    /// KiVA: how `Null` answers count, the board's switch (issue 23). Left out, each model
    /// run is read again from its run files ([`kiva_run_items`]); a row without them is ranked
    /// with `Null` counted wrong, and a note says so.
    #[serde(default)]
    pub null: NullAnswers,
    /// Test, adjustment, missing items, resamples, seed...
    pub options: BoardOptions,
    /// Flipped items listed per row at most in the extraction table (the count stays exact).
    pub flips_cap: usize,
}

impl RankRequest {
    /// The defaults for a benchmark: its default test, Holm, missing items counted wrong, 2,000
    /// resamples, seed 42, 20 flips listed per row.
    pub fn new(bench: Bench) -> Self {
        Self {
            bench,
            task: None,
            stage: KivaStage::Cross,
            null: NullAnswers::Wrong,
            options: BoardOptions::default(),
            flips_cap: 20,
        }
    }
}

/// One row's data as the worker keeps it.
#[derive(Debug, Clone, Copy)]
pub enum RankSource<'a> {
    /// An MM-IQ report with its items.
    Mmiq(&'a MmiqReport),
    /// A KiVA report and, for model runs, the run files (for the extraction table).
    Kiva {
        /// The report.
        report: &'a KivaReport,
        /// The run files `(path, bytes)`, when kept.
        files: Option<&'a [(String, Vec<u8>)]>,
    },
    /// An MM-OPERA row with its item scores.
    Mmopera(&'a MmoperaRow),
    /// The worker no longer keeps the row.
    Gone,
    /// A row of another kind (e.g. a Gold matrix): left off with a note.
    Other,
}

/// One row of the request: the page's id and name for it, and its data.
#[derive(Debug, Clone, Copy)]
pub struct RankEntry<'a> {
    /// The page's row id (echoed in [`RankedModel::id`]).
    pub id: crate::leaderboard::RowId,
    /// The name the table shows.
    pub name: &'a str,
    /// The data.
    pub source: RankSource<'a>,
}

/// One ranked row with the texts the page prints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RankedModel {
    /// The page's row id.
    pub id: crate::leaderboard::RowId,
    /// The name the table shows for the row.
    pub name: String,
    /// The board's name for the row (a repeated name carries ` (2)`, ` (3)`).
    pub board_name: String,
    /// The rank range: `2`, or `1–3`.
    pub rank_text: String,
    /// The compact letter display group.
    pub group: String,
    /// Not distinguishable from the leader.
    pub leader: bool,
    /// The board score.
    pub score: f64,
    /// Below full coverage: `100 of 2,710 items (3.7%)`; `None` at full coverage.
    pub coverage_text: Option<String>,
    /// The naive and clustered SE (points) when they differ by more than 1%.
    pub se_text: Option<String>,
    /// The hover text of the rank cell: range, group, leader, coverage, bootstrap interval.
    pub title: String,
}

/// One cell of a [`Panel`]: the text shown and, for tests and exports, the exact value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PanelCell {
    /// Shown.
    pub text: String,
    /// The exact value (full-precision number or plain text), as `data-value`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

/// One row of a [`Panel`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PanelRow {
    /// The row's key (the model's name; `a|b` for a pair), as `data-key`.
    pub key: String,
    /// Hover text of the row, if any.
    #[serde(default)]
    pub title: String,
    /// Emphasised (a significant pair).
    #[serde(default)]
    pub strong: bool,
    /// The cells, one per column.
    pub cells: Vec<PanelCell>,
}

/// A titled list under a [`Panel`]'s table (flipped items, disagreements...).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PanelList {
    /// Heading.
    pub head: String,
    /// Items: (text, hover text).
    pub items: Vec<(String, String)>,
}

/// One collapsible panel of the rank board, ready to show: a table with column definitions,
/// lists and notes, or a message saying why there is nothing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Panel {
    /// Stable key (`rank-rows`, `pairs`, `extraction`, `judges`), for test ids.
    pub key: String,
    /// The summary line.
    pub summary: String,
    /// The summary's hover text ([`definition`]).
    pub definition: String,
    /// Column headers: (title, hover text).
    pub columns: Vec<(String, String)>,
    /// Rows.
    pub rows: Vec<PanelRow>,
    /// Lists under the table.
    pub lists: Vec<PanelList>,
    /// Lines under the table.
    pub notes: Vec<String>,
    /// Why the panel is empty, when it is.
    pub message: Option<String>,
}

impl Panel {
    fn new(key: &str, summary: String, def: &str) -> Self {
        Self {
            key: key.into(),
            summary,
            definition: definition(def).into(),
            columns: Vec::new(),
            rows: Vec::new(),
            lists: Vec::new(),
            notes: Vec::new(),
            message: None,
        }
    }

    fn columns(mut self, cols: &[(&str, &str)]) -> Self {
        self.columns = cols
            .iter()
            .map(|(t, d)| ((*t).to_string(), (*d).to_string()))
            .collect();
        self
    }
}

fn cell(text: impl Into<String>) -> PanelCell {
    PanelCell {
        text: text.into(),
        value: None,
    }
}

fn num(text: String, value: f64) -> PanelCell {
    PanelCell {
        text,
        value: Some(value.to_string()),
    }
}

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

/// Pairs listed at most in the pairs panel (a 50-row board has 1,225).
pub const MAX_PAIRS_SHOWN: usize = 500;

/// Everything a computed board shows beside its table. The page gets the texts and
/// [`Panel`]s; the full results (`board`, `extraction`, `kiva_extraction`, `judges`) stay on
/// the native side (not serialized: the page needs only what it shows).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct RankBoard {
    /// The ranked rows in board order.
    pub models: Vec<RankedModel>,
    /// The tests and adjustment, in words, for the board header.
    pub header: String,
    /// The coverage convention, in words (names the default).
    pub missing_text: String,
    /// "differences below x points cannot be told apart here (...)", when there is a pair.
    pub mdd_text: Option<String>,
    /// The panels: ranked rows, pairs, extraction robustness, judge robustness.
    pub panels: Vec<Panel>,
    /// What the board could not use, and what the reader should know (the board's notes
    /// included).
    pub notes: Vec<String>,
    /// Why no board could be built (the other parts may still be there).
    pub error: Option<String>,
    /// Wall time of the computation in the web worker (ms), set by the worker; 0 elsewhere.
    #[serde(default)]
    pub worker_ms: f64,
    /// The board, when it could be built.
    #[serde(skip)]
    pub board: Option<Board>,
    /// MM-IQ: the board under three answer extractors (flips capped).
    #[serde(skip)]
    pub extraction: Option<ExtractionRobustness>,
    /// KiVA: the stage's answers under three readings (flips capped).
    #[serde(skip)]
    pub kiva_extraction: Option<KivaExtraction>,
    /// MM-OPERA: the judge table.
    #[serde(skip)]
    pub judges: Option<JudgeRobustness>,
}

/// The glossary of the rank figures: (key, term, definition). [`definition`] looks one up.
pub const GLOSSARY: [(&str, &str, &str); 14] = [
    ("rank_range", "Rank range", "The best and worst rank a row can have given the paired tests: best = 1 + rows that score higher and differ significantly from it; worst = rows − rows that score lower and differ from it. One number when the tests separate the row from every other."),
    ("group", "Group letters", "Compact letter display: two rows share a letter exactly when their paired test does not separate them (adjusted p ≥ α); the letter a holds the leader."),
    ("leader", "Leader group", "The rows not distinguishable from the top row by the adjusted paired tests (the top row included)."),
    ("coverage", "Coverage", "Items a row scored / items in the benchmark. A row below full coverage is marked with its coverage; by default its missing items count as wrong."),
    ("missing", "Missing items", "How items a row did not score count: as wrong (default: every row is scored over the whole benchmark and pairs compare all items) or left out (answered only: each row over its own items, each pair over the items both scored)."),
    ("score", "Board score", "The row's score with the board's coverage convention: accuracy (MM-IQ), mean trial score (KiVA, regenerations averaged in the trial) or score rate (MM-OPERA, rotations and judges averaged per item)."),
    ("test", "Paired test", "Each pair of rows is tested on its shared items: MM-IQ the exact two-sided McNemar test on the items only one row got right (mid-p as an option); KiVA and MM-OPERA the Wilcoxon signed-rank test on the item score differences."),
    ("p_adjusted", "Adjusted p", "The pair's p-value adjusted with all pairs of the board: Holm's step-down method by default (family-wise error), Benjamini-Hochberg as an option (false discovery rate). A pair differs when its adjusted p is below α = 0.05."),
    ("bootstrap", "Bootstrap rank interval", "The 2.5%-97.5% range of the row's rank over paired bootstrap resamples of the items (all rows resampled on the same draws), as LMArena shows; and the interval of each pair's difference."),
    ("mdd", "Minimum detectable difference", "The true difference between two rows that a paired test on this board finds with 80% power at α = 0.05, from the median items per pair and the median discordance (McNemar) or SD of item differences (scores): smaller differences cannot be told apart here."),
    ("clustered_se", "Clustered SE", "The standard error of a row's mean allowing repeated measures of one item to be correlated (KiVA: a trial's regenerations; MM-OPERA: an ICA item's rotations and several judges' verdicts), beside the naive SE that treats them as independent."),
    ("extraction", "Extraction robustness", "The board under other answer-reading rules: official (the benchmark's own), strict (only an explicit answer) and lenient (the first option label or text anywhere); each row's score range across them, its rank changes, and the items whose verdict flips."),
    ("judges", "Judge robustness", "With several LLM judges' files for one model (MM-OPERA): each model's score rate per judge, Krippendorff's α (ordinal) across judges on shared verdicts, Kendall's τ-b between the judges' model rankings, and the items the judges disagree on most."),
    ("reference", "Reference rows", "Reported rows (no item data) keep the interval-overlap rank, labelled as such; baselines (chance, humans) are references and are not ranked."),
];

/// The definition of a rank figure ([`GLOSSARY`] key), or "" for an unknown key.
///
/// # Examples
/// ```
/// use coglab_core::ranks::view::definition;
/// assert!(definition("mdd").contains("80% power"));
/// assert_eq!(definition("nope"), "");
/// ```
pub fn definition(key: &str) -> &'static str {
    GLOSSARY
        .iter()
        .find(|(k, _, _)| *k == key)
        .map_or("", |(_, _, d)| d)
}

/// `1,234` (thousands with commas).
fn thousands(n: usize) -> String {
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

/// The rank range as shown: `2`, or `1–3` (an en dash).
///
/// # Examples
/// ```
/// use coglab_core::ranks::view::rank_text;
/// assert_eq!(rank_text(2, 2), "2");
/// assert_eq!(rank_text(1, 3), "1–3");
/// ```
pub fn rank_text(low: usize, high: usize) -> String {
    if low == high {
        low.to_string()
    } else {
        format!("{low}–{high}")
    }
}

fn test_words(bench: Bench, test: &str) -> String {
    let unit = match bench {
        Bench::Mmiq => "items",
        Bench::Kiva => "trials (regenerations averaged in the trial)",
        Bench::Mmopera => "items (rotations and judges averaged in the item)",
    };
    let t = match PairTest::parse(test) {
        Some(PairTest::McNemarExact) => "exact two-sided McNemar test",
        Some(PairTest::McNemarMidP) => "mid-p McNemar test",
        Some(PairTest::Wilcoxon) => "Wilcoxon signed-rank test",
        None => "paired test",
    };
    format!("{t} on shared {unit}")
}

fn adjust_words(adjust: &str) -> &'static str {
    match Adjust::parse(adjust) {
        Some(Adjust::Holm) => "Holm (default)",
        Some(Adjust::Bh) => "Benjamini-Hochberg",
        _ => "no adjustment",
    }
}

fn ranked(
    row: &ModelRow,
    id: crate::leaderboard::RowId,
    name: &str,
    clusters: &str,
) -> RankedModel {
    let coverage_text = (!row.full_coverage).then(|| {
        format!(
            "{} of {} items ({:.1}%)",
            thousands(row.n),
            thousands(row.benchmark_size),
            100.0 * row.coverage
        )
    });
    let se_text = row
        .clustered
        .filter(|c| (c.ratio - 1.0).abs() > 0.01)
        .map(|c| {
            format!(
                "SE {:.2} naive, {:.2} clustered by {clusters} ({} {clusters}s)",
                100.0 * c.se_naive,
                100.0 * c.se_clustered,
                c.clusters
            )
        });
    let mut title = format!(
        "rank {} (best–worst rank consistent with the adjusted paired tests)",
        rank_text(row.tests_rank_low, row.tests_rank_high)
    );
    if let (Some(l), Some(h)) = (row.boot_rank_low, row.boot_rank_high) {
        title.push_str(&format!(
            "; bootstrap 95% rank interval {}",
            rank_text(l, h)
        ));
    }
    if !row.group.is_empty() {
        title.push_str(&format!(
            "; group {} (rows sharing a letter are not significantly different)",
            row.group
        ));
    }
    if row.leader_group {
        title.push_str("; not distinguishable from the leader");
    }
    title.push_str(&format!(
        "; coverage {} of {} items",
        thousands(row.n),
        thousands(row.benchmark_size)
    ));
    RankedModel {
        id,
        name: name.to_string(),
        board_name: row.name.clone(),
        rank_text: rank_text(row.rank_low, row.rank_high),
        group: row.group.clone(),
        leader: row.leader_group,
        score: row.score,
        coverage_text,
        se_text,
        title,
    }
}

fn rows_panel(models: &[RankedModel], board: &Board) -> Panel {
    let mut p = Panel::new(
        "rank-rows",
        format!("Ranked rows ({})", models.len()),
        "rank_range",
    )
    .columns(&[
        ("Rank", definition("rank_range")),
        ("Group", definition("group")),
        ("Model", ""),
        // The unit said beside the figure (issue 42, defect 9: "Score 1.0" beside the table's
        // 27.00 read as a different scale).
        ("Score (%)", definition("score")),
        ("Coverage", definition("coverage")),
        ("Leader group", definition("leader")),
        ("Bootstrap rank", definition("bootstrap")),
        ("SE", definition("clustered_se")),
    ]);
    for (m, row) in models.iter().zip(&board.models) {
        let boot = match (row.boot_rank_low, row.boot_rank_high) {
            (Some(l), Some(h)) => rank_text(l, h),
            _ => "–".into(),
        };
        p.rows.push(PanelRow {
            key: m.name.clone(),
            title: m.title.clone(),
            strong: false,
            cells: vec![
                PanelCell {
                    text: m.rank_text.clone(),
                    value: Some(m.rank_text.clone()),
                },
                PanelCell {
                    text: m.group.clone(),
                    value: Some(m.group.clone()),
                },
                cell(m.name.clone()),
                num(pct(m.score), m.score),
                cell(m.coverage_text.clone().unwrap_or_else(|| "full".into())),
                PanelCell {
                    text: if m.leader { "yes" } else { "" }.into(),
                    value: Some(m.leader.to_string()),
                },
                cell(boot),
                cell(m.se_text.clone().unwrap_or_else(|| "–".into())),
            ],
        });
    }
    p
}

fn pairs_panel(board: &Board) -> Panel {
    let mut p = Panel::new(
        "pairs",
        format!("Pairwise tests ({} pairs)", board.pairs.len()),
        "p_adjusted",
    )
    .columns(&[
        ("A", "The higher-scoring row"),
        ("B", "The other row"),
        ("Shared", "Items compared: all benchmark items when missing items count as wrong, else the items both rows scored"),
        ("Test", definition("test")),
        ("A − B", "Score difference A − B on the compared items (points) and its paired bootstrap 95% interval"),
        ("p", "Two-sided p-value of the paired test, unadjusted"),
        ("Adjusted p", definition("p_adjusted")),
    ]);
    if board.pairs.len() > MAX_PAIRS_SHOWN {
        p.notes.push(format!(
            "The first {MAX_PAIRS_SHOWN} of {} pairs in board order; `coglab rank ... --json` lists them all.",
            board.pairs.len()
        ));
    }
    for q in board.pairs.iter().take(MAX_PAIRS_SHOWN) {
        let ci = match (q.diff_low, q.diff_high) {
            (Some(l), Some(h)) => format!(" [{}, {}]", pct(l), pct(h)),
            _ => String::new(),
        };
        let opt = |x: Option<f64>| x.map(|v| v.to_string());
        p.rows.push(PanelRow {
            key: format!("{}|{}", q.a, q.b),
            title: String::new(),
            strong: q.significant,
            cells: vec![
                cell(q.a.clone()),
                cell(q.b.clone()),
                num(q.n_shared.to_string(), q.n_shared as f64),
                cell(q.test.clone()),
                num(format!("{}{ci}", pct(q.diff)), q.diff),
                PanelCell {
                    text: p_text(q.p),
                    value: opt(q.p),
                },
                PanelCell {
                    text: format!(
                        "{}{}",
                        p_text(q.p_adjusted),
                        if q.significant { " *" } else { "" }
                    ),
                    value: opt(q.p_adjusted),
                },
            ],
        });
    }
    p
}

fn ranks_cell(r: &[usize]) -> PanelCell {
    cell(
        r.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" / "),
    )
}

fn flips_head(name: &str, count: usize, listed: usize, what: &str) -> String {
    format!(
        "{name}: {count} {what}{}",
        if listed < count {
            format!(", first {listed} listed")
        } else {
            String::new()
        }
    )
}

fn mmiq_extraction_panel(x: &ExtractionRobustness) -> Panel {
    let mut p = Panel::new(
        "extraction",
        "Extraction robustness (MM-IQ answer extractors; scores in %)".into(),
        "extraction",
    );
    let mut cols: Vec<(&str, &str)> = vec![("Model", "")];
    cols.extend(
        x.extractors
            .iter()
            .map(|e| (e.as_str(), definition("extraction"))),
    );
    cols.extend([
        (
            "Range",
            "Highest minus lowest score across the extractors (points)",
        ),
        (
            "Ranks",
            "Rank under each extractor (1 + rows strictly above)",
        ),
        ("Flips", "Items whose verdict differs between extractors"),
    ]);
    p = p.columns(&cols);
    for r in &x.rows {
        let mut cells = vec![cell(r.name.clone())];
        cells.extend(r.scores.iter().map(|&s| num(pct(s), s)));
        cells.push(num(pct(r.score_range), r.score_range));
        cells.push(ranks_cell(&r.ranks));
        cells.push(num(r.flip_count.to_string(), r.flip_count as f64));
        p.rows.push(PanelRow {
            key: r.name.clone(),
            title: format!("{} items with a free-form response", r.responses),
            strong: false,
            cells,
        });
        if !r.flips.is_empty() {
            let letter = |c: char| {
                if c == 'Z' {
                    "none".to_string()
                } else {
                    c.to_string()
                }
            };
            p.lists.push(PanelList {
                head: flips_head(&r.name, r.flip_count, r.flips.len(), "flipped item(s)"),
                items: r
                    .flips
                    .iter()
                    .map(|f| {
                        (
                            format!(
                                "item {}: key {}, read {} → {}",
                                f.data_id,
                                f.key,
                                f.letters.map(letter).join(" / "),
                                f.correct
                                    .map(|c| if c { "right" } else { "wrong" })
                                    .join(" / ")
                            ),
                            f.response.clone(),
                        )
                    })
                    .collect(),
            });
        }
    }
    p.notes.extend(x.notes.iter().cloned());
    p
}

fn kiva_extraction_panel(x: &KivaExtraction) -> Panel {
    let mut p = Panel::new(
        "extraction",
        format!(
            "Extraction robustness (KiVA stage {} answers; scores in %)",
            x.stage
        ),
        "extraction",
    );
    let mut cols: Vec<(&str, &str)> = vec![("Model", "")];
    cols.extend(
        x.rules
            .iter()
            .map(|e| (e.as_str(), definition("extraction"))),
    );
    cols.extend([
        ("Undetermined", "Lenient readings whose verdict the run files cannot tell (the option order is not recorded): counted wrong; in brackets the lenient score with them right"),
        ("Range", "Highest minus lowest score across the rules (points)"),
        ("Ranks", "Rank under each rule"),
        ("Flips", "Regenerations whose verdict differs between the rules"),
    ]);
    p = p.columns(&cols);
    for r in &x.rows {
        let mut cells = vec![cell(r.name.clone())];
        cells.extend(r.scores.iter().map(|&s| num(pct(s), s)));
        cells.push(num(
            format!("{} ({})", r.lenient_undetermined, pct(r.lenient_high)),
            r.lenient_undetermined as f64,
        ));
        cells.push(num(pct(r.score_range), r.score_range));
        cells.push(ranks_cell(&r.ranks));
        cells.push(num(r.flip_count.to_string(), r.flip_count as f64));
        p.rows.push(PanelRow {
            key: r.name.clone(),
            title: format!(
                "{} trials; {} regenerations with an answer text",
                r.trials, r.with_text
            ),
            strong: false,
            cells,
        });
        if !r.flips.is_empty() {
            p.lists.push(PanelList {
                head: flips_head(&r.name, r.flip_count, r.flips.len(), "regeneration(s) flip"),
                items: r
                    .flips
                    .iter()
                    .map(|f| {
                        (
                            format!(
                                "{} regeneration {} (line {}): official {} / strict {} / lenient {}; lenient read {}",
                                f.trial,
                                f.regeneration,
                                f.line,
                                f.verdicts[0],
                                f.verdicts[1],
                                if f.lenient_undetermined {
                                    "?".to_string()
                                } else {
                                    f.verdicts[2].to_string()
                                },
                                f.lenient
                            ),
                            f.answer.clone(),
                        )
                    })
                    .collect(),
            });
        }
    }
    p.notes.push(format!(
        "Stage {} answers, mean over trials (regenerations averaged in the trial).",
        x.stage
    ));
    p.notes.extend(x.notes.iter().cloned());
    p
}

fn judges_panel(j: &JudgeRobustness) -> Panel {
    let mut p = Panel::new("judges", "Judge robustness".into(), "judges");
    let mut cols: Vec<(&str, &str)> = vec![("Model", "")];
    cols.extend(
        j.judges
            .iter()
            .map(|x| (x.as_str(), "Score rate under this judge (%)")),
    );
    cols.push(("Range", "Highest minus lowest judge score rate (points)"));
    p = p.columns(&cols);
    for ((m, row), range) in j.models.iter().zip(&j.sr).zip(&j.sr_range) {
        let mut cells = vec![cell(m.clone())];
        cells.extend(row.iter().map(|v| match v {
            Some(x) => num(pct(*x), *x),
            None => cell("–"),
        }));
        cells.push(match range {
            Some(x) => num(pct(*x), *x),
            None => cell("–"),
        });
        p.rows.push(PanelRow {
            key: m.clone(),
            title: String::new(),
            strong: false,
            cells,
        });
    }
    let mut agreement = vec![(
        match j.alpha {
            Some(a) => format!(
                "Krippendorff's α (ordinal): {a:.3} over {} shared verdicts",
                j.alpha_units
            ),
            None => "Krippendorff's α: not defined (fewer than two judges on shared verdicts)"
                .into(),
        },
        "Krippendorff's α with the ordinal metric across judges, on the (model, item, rotation) verdicts at least two judges scored validly".to_string(),
    )];
    agreement.extend(j.tau.iter().map(|t| {
        (
            format!(
                "Kendall's τ-b {} vs {}: {} ({} models)",
                t.a,
                t.b,
                t.tau_b
                    .map_or_else(|| "not defined".into(), |x| format!("{x:.3}")),
                t.models
            ),
            "Kendall's τ-b between two judges' rankings of the models (score rates)".to_string(),
        )
    }));
    p.lists.push(PanelList {
        head: "Agreement".into(),
        items: agreement,
    });
    if !j.disagreements.is_empty() {
        p.lists.push(PanelList {
            head: "Largest disagreements (each judge's mean score 0-4 on the item)".into(),
            items: j
                .disagreements
                .iter()
                .map(|d| {
                    (
                        format!(
                            "{} / {}: {} (spread {:.2})",
                            d.model,
                            d.item,
                            d.means
                                .iter()
                                .map(|m| m.map_or_else(|| "–".into(), |x| format!("{x:.2}")))
                                .collect::<Vec<_>>()
                                .join(" / "),
                            d.spread
                        ),
                        String::new(),
                    )
                })
                .collect(),
        });
    }
    p.notes.extend(j.notes.iter().cloned());
    p
}

/// Builds the rank board of `entries` (see the [module docs](self)).
///
/// # Examples
/// ```
/// use coglab_core::mmiq::{score, AnswerKey, Predictions};
/// use coglab_core::ranks::view::{rank_board, RankEntry, RankRequest, RankSource};
/// use coglab_core::ranks::Bench;
/// let key: String = (0..20).map(|i| format!("{{\"category\": \"Mathematical\", \"data_id\": {i}, \"answer\": \"A\"}}\n")).collect();
/// let key = AnswerKey::parse("k.jsonl", &key).unwrap();
/// let preds = |right: u32| -> String { (0..20).map(|i| format!("{{\"data_id\": {i}, \"parsed_pred\": \"{}\"}}\n", if i < right { "A" } else { "B" })).collect() };
/// let a = score(&key, &Predictions::parse("a.jsonl", preds(18).as_bytes()).unwrap()).unwrap();
/// let b = score(&key, &Predictions::parse("b.jsonl", preds(2).as_bytes()).unwrap()).unwrap();
/// let id = |n| coglab_core::leaderboard::RowId { generation: 1, n };
/// let board = rank_board(&[
///     RankEntry { id: id(7), name: "b", source: RankSource::Mmiq(&b) },
///     RankEntry { id: id(3), name: "a", source: RankSource::Mmiq(&a) },
///     RankEntry { id: id(9), name: "gone", source: RankSource::Gone },
/// ], &RankRequest::new(Bench::Mmiq));
/// // a: 18 right, b: 2, b only right where a is: McNemar b = 16, c = 0, p = 2 · 0.5^16.
/// assert_eq!((board.models[0].id, board.models[0].rank_text.as_str()), (id(3), "1"));
/// assert_eq!(board.models[1].group, "b");
/// assert!(board.notes.iter().any(|n| n.contains("no longer")));
/// ```
pub fn rank_board(entries: &[RankEntry<'_>], req: &RankRequest) -> RankBoard {
    let mut notes = Vec::new();
    let mut out = RankBoard {
        missing_text: format!(
            "scores and ranks with {}{}{}",
            req.options.missing.label(),
            if req.options.missing == super::Missing::Wrong {
                " (default)"
            } else {
                ""
            },
            match req.bench {
                Bench::Kiva if req.null == NullAnswers::Missing => {
                    "; Null answers left out (the board's switch; default: counted wrong)"
                }
                Bench::Mmopera => {
                    "; on the holistic score rate (SR), which the reasoning score's decay and \
                     average switches do not change"
                }
                _ => "",
            }
        ),
        ..RankBoard::default()
    };
    let mut extraction_message: Option<String> = None;
    let mut judges_message: Option<String> = None;
    // Names told apart, in input order.
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    let mut names: Vec<String> = Vec::with_capacity(entries.len());
    for e in entries {
        let k = seen.entry(e.name).or_default();
        *k += 1;
        names.push(if *k == 1 {
            e.name.to_string()
        } else {
            notes.push(format!(
                "two rows are named {:?}: the board calls the later one \"{} ({k})\"",
                e.name, e.name
            ));
            format!("{} ({k})", e.name)
        });
    }
    // Board name -> page id and page name.
    let mut ids: BTreeMap<String, (crate::leaderboard::RowId, &str)> = BTreeMap::new();
    let mut models = Vec::new();
    let mut benchmark_items = None;
    let wrong_bench = |e: &RankEntry<'_>| {
        format!(
            "{}: not a {} row; left off this board",
            e.name,
            match req.bench {
                Bench::Mmiq => "MM-IQ",
                Bench::Kiva => "KiVA",
                Bench::Mmopera => "MM-OPERA",
            }
        )
    };
    let opera_task = req.task.unwrap_or_else(|| {
        if entries
            .iter()
            .any(|e| matches!(e.source, RankSource::Mmopera(r) if r.ria.is_some()))
        {
            Task::Ria
        } else {
            Task::Ica
        }
    });
    match req.bench {
        Bench::Mmiq => {
            let mut reports: Vec<(String, &MmiqReport)> = Vec::new();
            for (e, name) in entries.iter().zip(&names) {
                match e.source {
                    RankSource::Mmiq(r) => {
                        models.push(mmiq_items(name, &r.file, r));
                        reports.push((name.clone(), r));
                        ids.insert(name.clone(), (e.id, e.name));
                    }
                    RankSource::Gone => notes.push(gone(e)),
                    _ => notes.push(wrong_bench(e)),
                }
            }
            let refs: Vec<&MmiqReport> = reports.iter().map(|r| r.1).collect();
            let items = mmiq_benchmark_items(&refs);
            if !reports.is_empty() {
                let mut x = extraction_robustness(&reports, items.len());
                x.cap_flips(req.flips_cap);
                out.extraction = Some(x);
            } else {
                extraction_message = Some("no MM-IQ row with items to read again".into());
            }
            benchmark_items = Some(items);
        }
        Bench::Kiva => {
            let mut runs: Vec<KivaRunFiles> = Vec::new();
            let mut without_files = Vec::new();
            for (e, name) in entries.iter().zip(&names) {
                match e.source {
                    RankSource::Kiva { report, files } => {
                        if report.source != crate::kiva::Source::Model {
                            notes.push(format!(
                                "{}: human data, a reference row: not ranked",
                                e.name
                            ));
                            continue;
                        }
                        models.push(match (req.null, files) {
                            (NullAnswers::Missing, Some(f)) if !f.is_empty() => {
                                match f
                                    .iter()
                                    .map(|(path, bytes)| RunFile::parse(path, bytes))
                                    .collect::<Result<Vec<_>, _>>()
                                {
                                    Ok(runs) => kiva_run_items(name, &runs, req.stage, req.null),
                                    Err(err) => {
                                        notes.push(format!(
                                            "{}: its run files could not be read again ({err}): ranked with Null answers counted wrong",
                                            e.name
                                        ));
                                        kiva_items(name, report, req.stage)
                                    }
                                }
                            }
                            (NullAnswers::Missing, _) => {
                                notes.push(format!(
                                    "{}: no run files kept (a published row): ranked with Null answers counted wrong",
                                    e.name
                                ));
                                kiva_items(name, report, req.stage)
                            }
                            _ => kiva_items(name, report, req.stage),
                        });
                        ids.insert(name.clone(), (e.id, e.name));
                        match files {
                            Some(f) if !f.is_empty() => runs.push((name.clone(), f.to_vec())),
                            _ => without_files.push(e.name),
                        }
                    }
                    RankSource::Gone => notes.push(gone(e)),
                    _ => notes.push(wrong_bench(e)),
                }
            }
            if !runs.is_empty() {
                let mut x = kiva_extraction_robustness(&runs, req.stage.number());
                x.cap_flips(req.flips_cap);
                if !without_files.is_empty() {
                    x.notes.push(format!(
                        "no run files kept for {}: not in this table",
                        without_files.join(", ")
                    ));
                }
                out.kiva_extraction = Some(x);
            } else {
                extraction_message =
                    Some("no KiVA model run with its run files to read again".into());
            }
        }
        Bench::Mmopera => {
            let task = opera_task;
            let mut task_rows = Vec::new();
            for (e, name) in entries.iter().zip(&names) {
                match e.source {
                    RankSource::Mmopera(r) => match r.task(task) {
                        Some(t) => {
                            models.push(mmopera_items(name, &t.regular_files.join(", "), &t.items));
                            ids.insert(name.clone(), (e.id, e.name));
                            task_rows.push((name.as_str(), t));
                        }
                        None => notes.push(format!(
                            "{}: no {} scores; left off the {} board",
                            e.name,
                            task.name(),
                            task.name()
                        )),
                    },
                    RankSource::Gone => notes.push(gone(e)),
                    _ => notes.push(wrong_bench(e)),
                }
            }
            extraction_message = Some(
                "MM-OPERA is scored by LLM judges, not by reading an answer letter: see judge robustness"
                    .into(),
            );
            match judge_robustness_rows(&task_rows) {
                Some(j) => out.judges = Some(j),
                None => {
                    judges_message = Some(format!(
                        "judge robustness needs several judges' {} files for one model (e.g. m_{}_regular_scoring_judgeA.json and m_{}_regular_scoring_judgeB.json)",
                        task.name(),
                        task.name(),
                        task.name()
                    ))
                }
            }
        }
    }
    if !matches!(req.bench, Bench::Mmopera) {
        judges_message = Some("judge robustness applies to MM-OPERA (LLM-judged)".into());
    }
    let input = BoardInput {
        bench: req.bench,
        benchmark_items,
        models,
        reported: Vec::new(),
    };
    let clusters = match req.bench {
        Bench::Kiva => "trial",
        _ => "item",
    };
    // The page asks with its default resamples, which a board of many models cannot keep
    // (300 models: 2,000 resamples x 45,150 models and pairs = 90 million values, over
    // `limits::MAX_BOOTSTRAP_VALUES`): it is then ranked with as many resamples as fit, at
    // least MIN_FITTED_RESAMPLES, and a note says so (the command line refuses instead, as
    // there the count is the user's own option).
    let built = match build_board(&input, &req.options) {
        Err(super::RanksError::TooManyBootstrapValues {
            resamples,
            models,
            fit,
            ..
        }) if fit >= MIN_FITTED_RESAMPLES => {
            notes.push(format!(
                "{models} models: ranked with {fit} bootstrap resamples instead of {} (the most that keep at most {} values for the models and their pairs)",
                thousands(resamples),
                thousands(crate::limits::MAX_BOOTSTRAP_VALUES)
            ));
            let options = BoardOptions {
                resamples: fit,
                ..req.options
            };
            build_board(&input, &options)
        }
        other => other,
    };
    match built {
        Ok(board) => {
            let scope = match req.bench {
                Bench::Kiva => format!("stage {} ({}): ", req.stage.number(), req.stage.key()),
                Bench::Mmopera => format!("{}: ", opera_task.name()),
                Bench::Mmiq => String::new(),
            };
            out.header = format!(
                "{scope}{}; p-values adjusted by {} across all {} pairs (α = {})",
                test_words(req.bench, &board.test),
                adjust_words(&board.adjust),
                board.pairs.len(),
                board.alpha
            );
            out.mdd_text = board.mdd.as_ref().map(|m| m.text.clone());
            out.models = board
                .models
                .iter()
                .map(|m| {
                    let (id, name) = ids
                        .get(&m.name)
                        .copied()
                        .unwrap_or((Default::default(), m.name.as_str()));
                    ranked(m, id, name, clusters)
                })
                .collect();
            notes.extend(board.notes.iter().cloned());
            out.panels.push(rows_panel(&out.models, &board));
            out.panels.push(pairs_panel(&board));
            out.board = Some(board);
        }
        Err(e) => {
            out.error = Some(e.to_string());
        }
    }
    let mut extraction = match (&out.extraction, &out.kiva_extraction) {
        (Some(x), _) => mmiq_extraction_panel(x),
        (None, Some(x)) => kiva_extraction_panel(x),
        (None, None) => Panel::new("extraction", "Extraction robustness".into(), "extraction"),
    };
    extraction.message = extraction_message;
    out.panels.push(extraction);
    let mut judges = match &out.judges {
        Some(j) => judges_panel(j),
        None => Panel::new("judges", "Judge robustness".into(), "judges"),
    };
    judges.message = judges_message;
    out.panels.push(judges);
    out.notes = notes;
    out
}

impl RankBoard {
    /// The panel of a key (`rank-rows`, `pairs`, `extraction`, `judges`).
    pub fn panel(&self, key: &str) -> Option<&Panel> {
        self.panels.iter().find(|p| p.key == key)
    }
}

fn gone(e: &RankEntry<'_>) -> String {
    format!(
        "{}: its item data is no longer in the scoring worker (drop its files again); left off the board",
        e.name
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leaderboard::mmopera::{ItemScores, MmoperaTaskRow};

    fn mmopera_row(model: &str, files: &[&str], items: Vec<ItemScores>) -> MmoperaRow {
        MmoperaRow {
            id: Default::default(),
            model: model.into(),
            ria: Some(MmoperaTaskRow {
                task: Task::Ria,
                regular_files: files.iter().map(|f| f.to_string()).collect(),
                reasoning_files: vec![],
                answers_file: None,
                metadata_file: None,
                holistic: None,
                reasoning: None,
                warning_count: 0,
                intervals: None,
                reasoning_settings: vec![],
                items,
                notes: vec![],
            }),
            ica: None,
        }
    }

    fn item(id: &str, judges: &[Option<u8>]) -> ItemScores {
        ItemScores {
            id: id.into(),
            scores: judges.iter().map(|s| s.unwrap_or(0)).collect(),
            s_r: None,
            judges: if judges.len() > 1 {
                judges.iter().map(|s| vec![*s]).collect()
            } else {
                vec![]
            },
        }
    }

    #[test]
    fn one_model_and_no_shared_items_give_messages_and_a_board() {
        // One MM-OPERA model judged by two judges on two items: one row, rank 1, a note; the
        // judge table: SR per judge (4+2)/8 = 0.75 and (3+2)/8 = 0.625.
        let m = mmopera_row(
            "m",
            &[
                "m_RIA_regular_scoring_j1.json",
                "m_RIA_regular_scoring_j2.json",
            ],
            vec![
                item("q1", &[Some(4), Some(3)]),
                item("q2", &[Some(2), Some(2)]),
            ],
        );
        let b = rank_board(
            &[RankEntry {
                id: crate::leaderboard::RowId {
                    generation: 1,
                    n: 1,
                },
                name: "m",
                source: RankSource::Mmopera(&m),
            }],
            &RankRequest::new(Bench::Mmopera),
        );
        assert_eq!(b.models.len(), 1);
        assert_eq!(b.models[0].rank_text, "1");
        assert!(b.notes.iter().any(|n| n.contains("one model only")));
        let j = b.judges.unwrap();
        assert_eq!(j.sr[0], vec![Some(0.75), Some(0.625)]);
        // Two models on disjoint items (answered only): no shared item, a note, both rows kept.
        let x = mmopera_row(
            "x",
            &["x_RIA_regular_scoring.json"],
            vec![item("q1", &[Some(4)])],
        );
        let y = mmopera_row(
            "y",
            &["y_RIA_regular_scoring.json"],
            vec![item("q2", &[Some(0)])],
        );
        let mut req = RankRequest::new(Bench::Mmopera);
        req.options.missing = super::super::Missing::AnsweredOnly;
        let b = rank_board(
            &[
                RankEntry {
                    id: crate::leaderboard::RowId {
                        generation: 1,
                        n: 1,
                    },
                    name: "x",
                    source: RankSource::Mmopera(&x),
                },
                RankEntry {
                    id: crate::leaderboard::RowId {
                        generation: 1,
                        n: 2,
                    },
                    name: "y",
                    source: RankSource::Mmopera(&y),
                },
            ],
            &req,
        );
        assert_eq!(b.models.len(), 2);
        assert!(
            b.notes.iter().any(|n| n.contains("share no scored item")),
            "{:?}",
            b.notes
        );
        assert_eq!(b.board.as_ref().unwrap().pairs[0].test, "none");
        // Both share rank 1-2 (nothing separates them) and the group a.
        assert!(b
            .models
            .iter()
            .all(|m| m.rank_text == "1–2" && m.group == "a"));
        // One judge file per model: the judge table is not shown, with the reason.
        assert!(b.judges.is_none());
        assert!(b
            .panel("judges")
            .unwrap()
            .message
            .as_deref()
            .unwrap()
            .contains("several judges"));
    }

    #[test]
    fn kiva_null_answers_left_out_reads_the_run_files_again() {
        // Model a answered stage 1 with Null in two regenerations. Stage 1, Null wrong: trial
        // 0 (1, 0, 0) → 1/3, trial 1 (1, 1, 0) → 2/3, score 0.5. Null left out: trial 0
        // (1, 0) → 0.5, trial 1 (1, 1) → 1, score 0.75. Model b has no Null: 0.5 either way.
        let head = "Variation,Regeneration,MCResponse#1,MCResponse#2,MCResponse#3\n";
        let a =
            format!("{head}0,0,1,1,1\n0,1,Null,,0\n0,2,0,,1\n1,0,1,0,1\n1,1,1,1,1\n1,2,Null,,1\n");
        let b = format!("{head}0,0,1,1,1\n0,1,0,,0\n0,2,0,,1\n1,0,1,0,1\n1,1,0,,1\n1,2,1,1,1\n");
        let files = |csv: &str| {
            vec![(
                "m/output_Colour/ColourRed.csv".to_string(),
                csv.as_bytes().to_vec(),
            )]
        };
        let (fa, fb) = (files(&a), files(&b));
        let score = |f: &[(String, Vec<u8>)]| {
            crate::kiva::score_model(f.iter().map(|(p, b)| (p.as_str(), b.as_slice()))).unwrap()
        };
        let (ra, rb) = (score(&fa), score(&fb));
        let entries = |with_files: bool| {
            vec![
                RankEntry {
                    id: crate::leaderboard::RowId {
                        generation: 1,
                        n: 1,
                    },
                    name: "a",
                    source: RankSource::Kiva {
                        report: &ra,
                        files: with_files.then_some(fa.as_slice()),
                    },
                },
                RankEntry {
                    id: crate::leaderboard::RowId {
                        generation: 1,
                        n: 2,
                    },
                    name: "b",
                    source: RankSource::Kiva {
                        report: &rb,
                        files: with_files.then_some(fb.as_slice()),
                    },
                },
            ]
        };
        let scores = |b: &RankBoard| {
            let mut v: Vec<(String, f64)> =
                b.models.iter().map(|m| (m.name.clone(), m.score)).collect();
            v.sort_by(|x, y| x.0.cmp(&y.0));
            v
        };
        let mut req = RankRequest::new(Bench::Kiva);
        let wrong = rank_board(&entries(true), &req);
        assert_eq!(scores(&wrong), vec![("a".into(), 0.5), ("b".into(), 0.5)]);
        assert!(!wrong.missing_text.contains("Null"));
        req.null = NullAnswers::Missing;
        let left_out = rank_board(&entries(true), &req);
        assert_eq!(
            scores(&left_out),
            vec![("a".into(), 0.75), ("b".into(), 0.5)]
        );
        assert!(left_out.missing_text.contains("Null answers left out"));
        // Published rows keep no run files: ranked with Null counted wrong, and said so.
        let published = rank_board(&entries(false), &req);
        assert_eq!(
            scores(&published),
            vec![("a".into(), 0.5), ("b".into(), 0.5)]
        );
        assert!(published
            .notes
            .iter()
            .any(|n| n.contains("a: no run files kept")));
    }

    #[test]
    fn a_board_of_300_models_is_ranked_with_the_resamples_that_fit() {
        // 300 models: 44,850 pairs + 300 models = 45,150 values per resample; 2,000 resamples
        // would keep 90,300,000 (over 25,000,000), so floor(25,000,000 / 45,150) = 553 are used.
        let rows: Vec<MmoperaRow> = (0..300)
            .map(|k| {
                let s = (k % 5) as u8;
                mmopera_row(
                    &format!("m{k}"),
                    &["x_RIA_regular_scoring.json"],
                    vec![item("q1", &[Some(s)]), item("q2", &[Some(4 - s)])],
                )
            })
            .collect();
        let names: Vec<String> = (0..300).map(|k| format!("m{k}")).collect();
        let entries: Vec<RankEntry<'_>> = rows
            .iter()
            .zip(&names)
            .enumerate()
            .map(|(k, (r, n))| RankEntry {
                id: crate::leaderboard::RowId {
                    generation: 1,
                    n: k as u32,
                },
                name: n,
                source: RankSource::Mmopera(r),
            })
            .collect();
        let b = rank_board(&entries, &RankRequest::new(Bench::Mmopera));
        assert!(b.error.is_none(), "{:?}", b.error);
        assert_eq!(b.models.len(), 300);
        assert_eq!(b.board.as_ref().unwrap().resamples, 553);
        assert!(
            b.notes
                .iter()
                .any(|n| n == "300 models: ranked with 553 bootstrap resamples instead of 2,000 (the most that keep at most 25,000,000 values for the models and their pairs)"),
            "{:?}",
            b.notes
        );
    }

    #[test]
    fn no_usable_row_gives_an_error_not_a_panic() {
        let b = rank_board(
            &[RankEntry {
                id: crate::leaderboard::RowId {
                    generation: 1,
                    n: 4,
                },
                name: "old",
                source: RankSource::Gone,
            }],
            &RankRequest::new(Bench::Kiva),
        );
        assert!(b.board.is_none());
        assert!(b.error.as_deref().unwrap().contains("no model"));
        assert!(b.notes[0].contains("no longer"));
        assert!(b.panel("extraction").unwrap().message.is_some());
    }

    #[test]
    fn texts() {
        assert_eq!(thousands(2710), "2,710");
        assert_eq!(thousands(100), "100");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert!(GLOSSARY
            .iter()
            .all(|(k, _, d)| definition(k) == *d && !d.is_empty()));
    }
}
