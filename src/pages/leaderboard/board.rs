//! Building the MM-IQ and KiVA leaderboard tables ([`Board`]) from the core's values: the
//! reported tables bundled from the papers, the rows computed from dropped files, and the
//! baselines (chance, humans); and the table's view state in the URL query string.

use coglab_core::kiva::{NullAnswers, StageStats, Variant};
use coglab_core::leaderboard::gold::{GoldResult, GoldRow, LAYERS};
use coglab_core::leaderboard::metrics::{
    definition, kiva_null_note, mmopera_reasoning_label, model_info, normal_interval,
    reported_mmiq_interval,
};
use coglab_core::leaderboard::mmopera::{ria_ica_gap, MmoperaRow};
use coglab_core::leaderboard::{HarnessSummaryRow, KivaChallengeRow, KivaRow, MmiqAccRow, MmiqRow};
use coglab_core::mmiq::{Accuracy, CATEGORIES, CHANCE};
use coglab_core::mmopera::score::{DecayExponent, IcaAverage};
use coglab_core::mmopera::Task;
use coglab_core::reported::ReportedBundle;
use coglab_core::selftest::baselines::Baselines;
use coglab_core::sem::suite::RankRow;
use coglab_core::stats::describe::MeanSe;

use crate::components::board_table::{Board, BoardCell, BoardColumn, BoardRow, RowKind, ViewState};

/// Short paradigm names used as MM-IQ column headers, in [`CATEGORIES`] order.
pub const PARADIGM_SHORT: [&str; 8] = ["LO", "Math", "2D-G", "3D-G", "VI", "TM", "SR", "CO"];

fn pct(x: f64) -> String {
    format!("{:.1}", x * 100.0)
}

fn acc_cell(a: &Accuracy, how: &str) -> BoardCell {
    BoardCell {
        value: a.accuracy,
        interval: Some((a.ci_low, a.ci_high)),
        n: Some(a.n),
        detail: format!(
            "{} of {} right; Wilson 95% interval {}–{}{how}",
            a.correct,
            a.n,
            pct(a.ci_low),
            pct(a.ci_high)
        ),
    }
}

fn row(model: &str, kind: RowKind, source: String, cells: Vec<Option<BoardCell>>) -> BoardRow {
    let info = model_info(model);
    let (family, size) = if kind == RowKind::Baseline {
        ("baseline".to_string(), "baseline".to_string())
    } else {
        (info.family.to_string(), info.size)
    };
    BoardRow {
        model: model.to_string(),
        kind,
        source,
        harness: None,
        summary: false,
        family,
        size,
        cells,
        cite: None,
        flag: None,
        published: false,
        row_id: None,
    }
}

/// Badges the rows of the published bundle (by worker row id) as "published" (their source
/// says so), with the family and parameters their manifest gives (`meta`, by row id) in place
/// of those guessed from the name, for the board's filters.
pub fn mark_published(
    board: &mut Board,
    published: &[u64],
    meta: &std::collections::HashMap<u64, coglab_core::publish::manifest::ModelMeta>,
) {
    for r in &mut board.rows {
        let Some(id) = r.row_id.filter(|id| published.contains(id)) else {
            continue;
        };
        if r.kind != RowKind::Computed {
            continue;
        }
        r.published = true;
        r.source = format!("published bundle (coglab publish); {}", r.source);
        if let Some(m) = meta.get(&id) {
            if let Some(f) = &m.family {
                r.family = f.clone();
            }
            if let Some(p) = &m.parameters {
                r.size = p.clone();
            }
        }
    }
}

/// Names the paper on the rows transcribed from `reported`'s tables (their `source` is
/// `"{table} — {title}"`): a short citation with a link on the row, and the full reference
/// (title, venue, year, table) for the hover and the exports.
fn cite_papers(rows: &mut [BoardRow], reported: Option<&ReportedBundle>) {
    let Some(b) = reported else { return };
    let Some(paper) = &b.paper else { return };
    for r in rows.iter_mut() {
        let Some(t) = b
            .tables
            .iter()
            .find(|t| r.source == format!("{} — {}", t.source, t.title))
        else {
            continue;
        };
        r.cite = Some((
            format!("{}, {} paper ({})", t.source, b.name, paper.venue_year()),
            paper.url.clone(),
        ));
        r.source = format!(
            "{} ({}), {}: {}",
            paper.title,
            paper.venue_year(),
            t.source,
            t.title
        );
    }
}

/// The MM-IQ table: mean and the eight paradigms; the paper's Table 2 rows (reported; its human
/// row as a baseline), the computed rows, the rows of VLMEvalKit `_acc.csv` summaries
/// (computed, marked as summaries, no interval: they have no items), the rows of harness
/// summary files of an MM-IQ task ([`summary_rows`]) and the 25% chance baseline.
pub fn mmiq_board(
    reported: Option<&ReportedBundle>,
    computed: &[MmiqRow],
    acc: &[MmiqAccRow],
    summaries: &[HarnessSummaryRow],
) -> Board {
    let mut columns = vec![BoardColumn {
        key: "mean".into(),
        title: "Mean".into(),
        definition: definition("mmiq", "mean").into(),
        unit: None,
    }];
    columns.extend(
        CATEGORIES
            .iter()
            .zip(PARADIGM_SHORT)
            .map(|(c, s)| BoardColumn {
                key: (*c).to_string(),
                title: s.to_string(),
                definition: definition("mmiq", c).into(),
                unit: None,
            }),
    );
    let mut rows = Vec::new();
    if let Some(t) = reported.and_then(|b| b.table("mmiq-table2")) {
        let source = format!("{} — {}", t.source, t.title);
        for r in &t.rows {
            let kind = if r.group.as_deref() == Some("Human") {
                RowKind::Baseline
            } else {
                RowKind::Reported
            };
            let cells = t
                .columns
                .iter()
                .enumerate()
                .map(|(i, _)| {
                    let v = r.values.get(i).copied().flatten()?;
                    if i == 0 && kind == RowKind::Reported {
                        if let Some(a) = reported_mmiq_interval(v) {
                            return Some(BoardCell {
                                value: v / 100.0,
                                interval: Some((a.ci_low, a.ci_high)),
                                // The paper gives no count: the interval assumes all items.
                                n: None,
                                detail: format!(
                                    "reported {v}%; Wilson 95% interval {}–{} assuming all {} items scored",
                                    pct(a.ci_low),
                                    pct(a.ci_high),
                                    a.n
                                ),
                            });
                        }
                    }
                    Some(BoardCell {
                        value: v / 100.0,
                        interval: None,
                        n: None,
                        detail: format!("reported {v}% (no interval: the paper gives no count)"),
                    })
                })
                .collect();
            let model = if kind == RowKind::Baseline {
                "Human"
            } else {
                r.label.as_str()
            };
            rows.push(row(model, kind, source.clone(), cells));
        }
    }
    for r in computed {
        let mut cells = vec![Some(acc_cell(&r.report.overall, ""))];
        cells.extend(
            CATEGORIES
                .iter()
                .map(|c| r.report.by_category.get(*c).map(|a| acc_cell(a, ""))),
        );
        let harness = r.report.harness.as_ref().map(|h| h.harness_label.clone());
        let mut computed_row = row(
            &r.model,
            RowKind::Computed,
            match &harness {
                Some(h) => format!("computed from {} ({h} output)", r.report.file),
                None => format!("computed from {}", r.report.file),
            },
            cells,
        );
        computed_row.row_id = Some(r.id);
        computed_row.harness = harness;
        rows.push(computed_row);
    }
    for a in acc {
        let many = a.summary.rows.len() > 1;
        for r in &a.summary.rows {
            let how = format!(
                "as given in the VLMEvalKit summary {} (no interval: the summary has no items)",
                a.summary.file
            );
            let cell = |v: f64| {
                Some(BoardCell {
                    value: v,
                    interval: None,
                    n: None,
                    detail: format!("{}% {how}", pct(v)),
                })
            };
            let mut cells = vec![cell(r.overall)];
            cells.extend(
                CATEGORIES
                    .iter()
                    .map(|c| r.by_category.get(*c).and_then(|v| cell(*v))),
            );
            let model = if many {
                format!("{} (VLMEvalKit summary, {})", a.model, r.split)
            } else {
                format!("{} (VLMEvalKit summary)", a.model)
            };
            rows.push(row(
                &model,
                RowKind::Computed,
                format!("VLMEvalKit summary: {}", a.summary.file),
                cells,
            ));
        }
    }
    rows.extend(summary_rows(summaries, CATEGORIES.len() + 1));
    let mut chance = vec![Some(BoardCell {
        value: CHANCE,
        interval: None,
        n: None,
        detail: "one of four options at random".into(),
    })];
    chance.extend(CATEGORIES.iter().map(|_| None));
    rows.push(row(
        "Chance",
        RowKind::Baseline,
        "chance: 25% (four options)".into(),
        chance,
    ));
    // Issue 23: the key's majority letter beside chance, from the key the computed rows used.
    if let Some(l) = computed.first().map(|r| &r.report.letters) {
        if l.key.n > 0 {
            let counts = |b: &coglab_core::mmiq::LetterBaseline| {
                b.counts
                    .iter()
                    .map(|(k, v)| format!("{k} {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let cell = |b: &coglab_core::mmiq::LetterBaseline| {
                Some(BoardCell {
                    value: b.majority_share,
                    interval: None,
                    n: Some(b.n),
                    detail: format!(
                        "always answering {} (the key's letters over {} items: {})",
                        b.majority,
                        b.n,
                        counts(b)
                    ),
                })
            };
            let mut cells = vec![cell(&l.key)];
            cells.extend(
                CATEGORIES
                    .iter()
                    .map(|c| l.by_category.get(*c).and_then(cell)),
            );
            rows.push(row(
                &format!("Majority letter ({})", l.key.majority),
                RowKind::Baseline,
                format!(
                    "the answer key's most common letter, from {}; each paradigm's own majority letter would score {}%",
                    computed[0].report.key_file,
                    pct(l.per_category_majority)
                ),
                cells,
            ));
        }
    }
    cite_papers(&mut rows, reported);
    Board {
        caption: "MM-IQ accuracy (%): reported in the paper, computed from your files, baselines"
            .into(),
        columns,
        rows,
        scale: 100.0,
        decimals: 2,
    }
}

/// Where the adults row comes from (issue 23): the released file, not the paper's sample.
use coglab_core::selftest::baselines::ADULTS_SOURCE;

/// The KiVA stages shown, as (report key, title).
pub fn kiva_stages(joint: bool) -> [(&'static str, &'static str); 3] {
    [
        ("cross", "What"),
        (
            if joint {
                "within_joint"
            } else {
                "within_conditional"
            },
            "How",
        ),
        ("extrapolation", "Apply"),
    ]
}

fn ms_cell(m: MeanSe) -> BoardCell {
    BoardCell {
        value: m.mean,
        interval: Some(normal_interval(m)),
        n: Some(m.n as u64),
        detail: format!(
            "{} ± {} (mean ± SE over {} trials); 95% interval mean ± 1.96 SE",
            pct(m.mean),
            pct(m.se),
            m.n
        ),
    }
}

/// The rows of harness summary files (lmms-eval `results.json`, Every Eval Ever aggregates)
/// whose task is MM-IQ ([`coglab_core::harness::is_mmiq_task`]): one computed row per figure
/// of the file (task, filter, metric), its value in the first column with the file's standard
/// error as the interval ([`coglab_core::harness::SummaryRow::interval`]), badged "summary:
/// <harness>"; a per-paradigm figure of an EEE aggregate (`MM-IQ: <paradigm>`) goes in its
/// paradigm's column of the file's row. `width` is the board's column count.
pub fn summary_rows(summaries: &[HarnessSummaryRow], width: usize) -> Vec<BoardRow> {
    let mut rows = Vec::new();
    for s in summaries {
        let figures: Vec<&coglab_core::harness::SummaryRow> = s
            .rows
            .iter()
            .filter(|r| coglab_core::harness::is_mmiq_task(&r.task))
            .collect();
        // Per-paradigm figures (an EEE aggregate's `MM-IQ: Mathematical`) join their file's
        // overall figure; every other figure is a row of its own.
        let paradigm = |task: &str| {
            CATEGORIES
                .iter()
                .position(|c| task.rsplit_once(": ").is_some_and(|(_, p)| p == *c))
        };
        let heads: Vec<&&coglab_core::harness::SummaryRow> = figures
            .iter()
            .filter(|r| paradigm(&r.task).is_none())
            .collect();
        let many = heads.len() > 1;
        let cell = |r: &coglab_core::harness::SummaryRow| {
            let se = r.stderr.map_or_else(
                || "; no interval: the file gives no standard error".to_string(),
                |e| {
                    format!(
                        "; 95% interval value ± 1.96 × its standard error {}",
                        pct(e)
                    )
                },
            );
            let clustered = r
                .stderr_clustered
                .map(|e| format!(" (clustered standard error {})", pct(e)))
                .unwrap_or_default();
            let n = r.n.map(|n| format!(", {n} samples")).unwrap_or_default();
            BoardCell {
                value: r.value,
                interval: r.interval(),
                n: r.n,
                detail: format!(
                    "{}% {} as given in the {} summary {}{n}{se}{clustered}",
                    pct(r.value),
                    r.metric,
                    s.harness,
                    s.file
                ),
            }
        };
        for h in &heads {
            let mut cells: Vec<Option<BoardCell>> = vec![None; width];
            cells[0] = Some(cell(h));
            if !many {
                for r in &figures {
                    if let Some(i) = paradigm(&r.task) {
                        cells[1 + i] = Some(cell(r));
                    }
                }
            }
            let what = match &h.filter {
                Some(f) => format!("{}, {f}", h.metric),
                None => h.metric.clone(),
            };
            let model = if many {
                format!("{} ({} summary, {what})", s.model, s.harness)
            } else {
                format!("{} ({} summary)", s.model, s.harness)
            };
            let mut r = row(
                &model,
                RowKind::Computed,
                format!("{} summary: {} ({what})", s.harness, s.file),
                cells,
            );
            r.harness = Some(s.harness.clone());
            r.summary = true;
            rows.push(r);
        }
    }
    rows
}

/// A KiVA challenge row's cells on the KiVA board: the challenge asks one choice among (A),
/// (B), (C) per trial, which is KiVA's third stage ("Apply": which option the transformation
/// gives), so its accuracy overall and per transformation domain (the core's, with their
/// Wilson 95% intervals) go in the `All/extrapolation` and `<domain>/extrapolation` columns;
/// the other stages are not asked. A domain the board has no column for (a composite such as
/// `Colour+Resize`) counts in `All` only.
fn challenge_cells(c: &KivaChallengeRow, columns: &[BoardColumn]) -> Vec<Option<BoardCell>> {
    let how = " (KiVA challenge: one choice per trial, counted as the Apply stage)";
    columns
        .iter()
        .map(|col| {
            let (d, stage) = col.key.split_once('/')?;
            if stage != "extrapolation" {
                return None;
            }
            let a = if d == "All" {
                &c.report.overall
            } else {
                c.report.by_domain.get(d)?
            };
            (a.n > 0).then(|| acc_cell(a, how))
        })
        .collect()
}

/// The KiVA table for one variant: overall and per-domain stage scores; computed rows (a
/// dropped human data file is a baseline), the bundled adults baseline and the bundled model
/// runs of the KiVA repository (reported: the paper gives figures only).
pub fn kiva_board(
    baselines: Option<&Baselines>,
    computed: &[KivaRow],
    challenge: &[KivaChallengeRow],
    variant: Variant,
    joint: bool,
    null: NullAnswers,
) -> Board {
    let stages = kiva_stages(joint);
    let bundled = baselines.and_then(|b| b.variant(variant));
    let mut domains: Vec<String> = computed
        .iter()
        .filter(|r| r.report.variant == variant)
        .flat_map(|r| r.report.by_domain.keys().cloned())
        .chain(
            bundled
                .into_iter()
                .flat_map(|v| v.adults.iter().chain(&v.models))
                .flat_map(|g| g.by_domain.keys().cloned()),
        )
        // A KiVA challenge's domains that are KiVA's (not composites such as Colour+Resize).
        .chain(
            challenge
                .iter()
                .filter(|_| variant == Variant::Kiva)
                .flat_map(|c| c.report.by_domain.keys())
                .filter(|d| coglab_core::kiva::DOMAINS.contains(&d.as_str()))
                .cloned(),
        )
        .collect();
    domains.sort();
    domains.dedup();
    let mut columns = Vec::new();
    for d in std::iter::once("All").chain(domains.iter().map(String::as_str)) {
        for (k, t) in stages {
            columns.push(BoardColumn {
                key: format!("{d}/{k}"),
                // The switch changes computed rows only (the reported rows and the adults keep
                // the repository's rule): the caption and each computed row's source say it,
                // not the headers over every row.
                title: format!("{d} {t}"),
                definition: format!(
                    "{}: {} {}",
                    if d == "All" { "all domains" } else { d },
                    definition("kiva", k),
                    kiva_null_note(null)
                ),
                unit: None,
            });
        }
    }
    let cells = |overall: &StageStats, by: &std::collections::BTreeMap<String, StageStats>| {
        let mut v = Vec::new();
        for d in std::iter::once(None).chain(domains.iter().map(Some)) {
            let s = match d {
                None => Some(overall),
                Some(d) => by.get(d),
            };
            for (k, _) in stages {
                v.push(s.and_then(|s| s.get(k)).map(ms_cell));
            }
        }
        v
    };
    let mut rows = Vec::new();
    for r in computed.iter().filter(|r| r.report.variant == variant) {
        // Dropped adult human data is a baseline; a self-test export (one participant,
        // labelled "<id> (self-test)" by the core) is that person's computed row.
        // A jsPsych run (a harness file) is likewise its participants' computed row.
        let kind = if r.report.source == coglab_core::kiva::Source::Human
            && !r.model.ends_with(" (self-test)")
            && r.report.harness.is_none()
        {
            RowKind::Baseline
        } else {
            RowKind::Computed
        };
        let mut row = row(
            &r.model,
            kind,
            match (null, kind) {
                (NullAnswers::Missing, RowKind::Computed) => format!(
                    "computed from {} files, Null answers left out",
                    r.report.files.len()
                ),
                _ => format!("computed from {} files", r.report.files.len()),
            },
            {
                let (overall, by) = r.stats(null);
                cells(overall, by)
            },
        );
        if kind == RowKind::Baseline {
            row.kind = RowKind::Baseline;
        }
        row.row_id = Some(r.id);
        row.harness = r.report.harness.as_ref().map(|h| h.harness_label.clone());
        rows.push(row);
    }
    // KiVA challenge results (their levels start from KiVA's 14 subdomains) on the KiVA tab.
    if variant == Variant::Kiva {
        for c in challenge {
            let levels = c
                .report
                .by_level
                .keys()
                .cloned()
                .collect::<Vec<_>>()
                .join(", ");
            let mut r = row(
                &c.model,
                RowKind::Computed,
                format!(
                    "computed from {} against {} (levels: {levels}; {} annotated trials not answered)",
                    c.report.file, c.report.annotation_file, c.report.not_answered
                ),
                challenge_cells(c, &columns),
            );
            r.harness = Some(c.harness.clone());
            r.row_id = Some(c.id);
            rows.push(r);
        }
    }
    if let Some(v) = bundled {
        let note = baselines.map(|b| b.note.clone()).unwrap_or_default();
        if let Some(a) = &v.adults {
            rows.push(row(
                &format!("{} (KiVA's released file, {} trials)", a.label, a.trials),
                RowKind::Baseline,
                format!("{ADULTS_SOURCE} {note}"),
                cells(&a.overall, &a.by_domain),
            ));
        }
        for m in &v.models {
            rows.push(row(
                &m.label,
                RowKind::Reported,
                format!("The KiVA repository's released run, scored by coglab. {note}"),
                cells(&m.overall, &m.by_domain),
            ));
        }
    }
    Board {
        caption: format!(
            "{} accuracy (%) by stage, mean over trials; {}",
            variant.name(),
            kiva_null_note(null)
        ),
        columns,
        rows,
        scale: 100.0,
        decimals: 1,
    }
}

/// The MM-OPERA metric columns, as (key, header); definitions from the core.
pub const MMOPERA_METRICS: [(&str, &str); 6] = [
    ("sr", "SR"),
    ("hr4", "HR-4"),
    ("hr3", "HR-3"),
    ("dhr", "ΔHR"),
    ("sr_proc", "Reasoning"),
    ("gap", "RIA − ICA"),
];

/// The MM-OPERA paper-fidelity switches of the board (issue 23), kept in the URL (`decay`,
/// `avg`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct OperaSettings {
    /// S_r decay: the released code's (default) or the paper's equation 2.
    pub decay: DecayExponent,
    /// ICA mean S_r over items (default) or over all paths.
    pub average: IcaAverage,
}

/// The reported table of a task: Table 2 (RIA or ICA) and Table 3's reasoning-score column.
fn mmopera_ids(task: Task) -> (&'static str, &'static str) {
    match task {
        Task::Ria => ("mmopera-table2-ria", "RIA Avg. Reasoning Score"),
        Task::Ica => ("mmopera-table2-ica", "ICA Avg. Reasoning Score"),
    }
}

/// The MM-OPERA table of one task (RIA or ICA): SR, HR-4, HR-3, ΔHR (percent) and the average
/// reasoning score; the paper's Table 2 rows (reported, its human row as a baseline) with the
/// reasoning score of Table 3 where the model is in it, and the rows computed from dropped
/// judge files (`coglab score mmopera`'s numbers, with the core's 95% intervals over items,
/// `coglab_core::leaderboard::mmopera::intervals`, computed in the worker at scoring).
pub fn mmopera_board(
    reported: Option<&ReportedBundle>,
    computed: &[MmoperaRow],
    task: Task,
    settings: OperaSettings,
) -> Board {
    let (sr_title, sr_definition) = mmopera_reasoning_label(settings.decay, settings.average);
    let columns = MMOPERA_METRICS
        .iter()
        .map(|(k, t)| match *k {
            "sr_proc" => BoardColumn {
                key: (*k).into(),
                title: sr_title.clone(),
                definition: sr_definition.clone(),
                unit: Some((1.0, 4)),
            },
            _ => BoardColumn {
                key: (*k).into(),
                title: (*t).into(),
                definition: definition("mmopera", k).into(),
                unit: None,
            },
        })
        .collect();
    let (t2, t3col) = mmopera_ids(task);
    // The reported SR of a model in the other task's Table 2, for the RIA − ICA column.
    let other_sr = |label: &str| -> Option<f64> {
        let other = mmopera_ids(match task {
            Task::Ria => Task::Ica,
            Task::Ica => Task::Ria,
        })
        .0;
        let t = reported?.table(other)?;
        t.rows
            .iter()
            .find(|r| r.label == label)?
            .values
            .first()
            .copied()
            .flatten()
    };
    let gap_cell = |ria: f64, ica: f64, how: &str| BoardCell {
        value: ria_ica_gap(ria, ica),
        interval: None,
        n: None,
        detail: format!(
            "SR RIA {} − SR ICA {} = {} points ({how})",
            pct(ria),
            pct(ica),
            pct(ria_ica_gap(ria, ica))
        ),
    };
    let mut rows = Vec::new();
    if let Some(t) = reported.and_then(|b| b.table(t2)) {
        let t3 = reported.and_then(|b| b.table("mmopera-table3"));
        let source = format!("{} — {}", t.source, t.title);
        for r in &t.rows {
            let kind = if r.group.as_deref() == Some("Human") {
                RowKind::Baseline
            } else {
                RowKind::Reported
            };
            let mut cells: Vec<Option<BoardCell>> = (0..4)
                .map(|i| {
                    let v = r.values.get(i).copied().flatten()?;
                    Some(BoardCell {
                        value: v / 100.0,
                        interval: None,
                        n: None,
                        detail: format!("reported {v}% (no interval: the paper gives no count)"),
                    })
                })
                .collect();
            let reasoning = t3.and_then(|t3| {
                let c = t3.columns.iter().position(|c| c == t3col)?;
                let row = t3.rows.iter().find(|x| x.label == r.label)?;
                let v = row.values.get(c).copied().flatten()?;
                Some(BoardCell {
                    value: v,
                    interval: None,
                    n: None,
                    detail: format!("reported {v} in {} — {}", t3.source, t3.title),
                })
            });
            cells.push(reasoning);
            let gap = r
                .values
                .first()
                .copied()
                .flatten()
                .zip(other_sr(&r.label))
                .map(|(here, there)| {
                    let (ria, ica) = match task {
                        Task::Ria => (here, there),
                        Task::Ica => (there, here),
                    };
                    gap_cell(ria / 100.0, ica / 100.0, "the paper's Table 2")
                });
            cells.push(gap);
            rows.push(row(&r.label, kind, source.clone(), cells));
        }
    }
    for m in computed {
        let Some(tr) = m.task(task) else { continue };
        let files = |f: &[String]| f.join(", ");
        let h = tr.holistic.as_ref();
        let iv = tr.intervals;
        let hcell = |v: Option<f64>, ci: Option<(f64, f64)>| {
            let h = h?;
            Some(BoardCell {
                value: v?,
                interval: ci,
                n: Some(h.n as u64),
                detail: format!(
                    "N = {} verdicts over {} items{}; {}",
                    h.n,
                    h.items,
                    ci.map_or(String::new(), |(lo, hi)| format!(
                        "; 95% interval {}–{} (items as clusters)",
                        pct(lo),
                        pct(hi)
                    )),
                    files(&tr.regular_files)
                ),
            })
        };
        let mut cells = vec![
            hcell(h.map(|h| h.score_rate), iv.map(|i| i.sr)),
            hcell(h.map(|h| h.hr4), iv.map(|i| i.hr4)),
            hcell(h.map(|h| h.hr3), iv.map(|i| i.hr3)),
            hcell(h.map(|h| h.delta_hr), iv.map(|i| i.delta_hr)),
        ];
        cells.push(
            tr.reasoning_under(settings.decay, settings.average)
                .map(|p| BoardCell {
                    value: p.mean_score,
                    interval: p.interval,
                    n: Some(p.n as u64),
                    detail: format!(
                        "{} over {} items ({} scored paths){}; {}",
                        sr_title,
                        p.n,
                        p.scored_paths,
                        p.interval.map_or(String::new(), |(lo, hi)| format!(
                            "; 95% interval {lo:.4}–{hi:.4} (mean ± 1.96 SE over items)"
                        )),
                        files(&tr.reasoning_files)
                    ),
                }),
        );
        // The gap needs both tasks' holistic scores (as `MmoperaRow::ria_ica_gap`).
        let sr = |t: Task| m.task(t)?.holistic.as_ref().map(|h| h.score_rate);
        cells.push(
            sr(Task::Ria)
                .zip(sr(Task::Ica))
                .map(|(ria, ica)| gap_cell(ria, ica, "computed")),
        );
        let mut all: Vec<String> = tr
            .regular_files
            .iter()
            .chain(&tr.reasoning_files)
            .cloned()
            .collect();
        all.dedup();
        let mut computed_row = row(
            &m.model,
            RowKind::Computed,
            format!("computed from {}", all.join(", ")),
            cells,
        );
        computed_row.row_id = Some(m.id);
        rows.push(computed_row);
    }
    cite_papers(&mut rows, reported);
    Board {
        caption: format!(
            "MM-OPERA {}: score rate and hit rates (%), average reasoning score ({}), RIA − ICA gap of SR (points); reported in the paper (Tables 2 and 3), computed from your files, human baseline",
            task.name(),
            sr_title
        ),
        columns,
        rows,
        scale: 100.0,
        decimals: 2,
    }
}

/// The worker request that scores Gold's Table 2 of `reported` (core
/// `leaderboard::gold::score_table`), if the bundle has the table.
pub fn gold_table_request(reported: &ReportedBundle) -> Option<crate::worker::api::GoldTable> {
    let t = reported.table("gold-table2")?;
    Some(crate::worker::api::GoldTable {
        labels: t.rows.iter().map(|r| r.label.clone()).collect(),
        columns: t.columns.clone(),
        values: t.rows.iter().map(|r| r.values.clone()).collect(),
    })
}

/// The Gold table: the loading-weighted overall score, the layer scores and the plain mean
/// (coglab-core's Gold analysis), and the Overall printed in the paper. Reported rows: Gold's
/// Table 2, with the weighted scores computed by the core from its task accuracies; computed
/// rows: every scored matrix dropped (one row per model and matrix).
///
/// `table_scores` are the core's scores of Table 2 ([`gold_table_request`], computed in the
/// worker), when they have arrived.
pub fn gold_board(
    reported: Option<&ReportedBundle>,
    table_scores: Option<&GoldResult>,
    computed: &[GoldRow],
) -> Board {
    let table = reported.and_then(|b| b.table("gold-table2"));
    let results: Vec<(&GoldResult, String, Option<u64>)> = table_scores
        .into_iter()
        .map(|r| (r, String::new(), None))
        .chain(
            computed
                .iter()
                .filter_map(|g| Some((g.result.as_ref()?, g.matrix.file.clone(), Some(g.id)))),
        )
        .collect();
    let mut layers: Vec<String> = LAYERS.iter().map(|s| s.to_string()).collect();
    for (r, _, _) in &results {
        for l in &r.layers {
            if !layers.contains(l) {
                layers.push(l.clone());
            }
        }
    }
    layers.retain(|l| results.iter().any(|(r, _, _)| r.layers.contains(l)));
    let col = |key: &str, title: &str| BoardColumn {
        key: key.into(),
        title: title.into(),
        definition: definition("gold", key).into(),
        unit: None,
    };
    let mut columns = vec![col("overall", "Overall")];
    columns.extend(layers.iter().map(|l| BoardColumn {
        definition: format!("{l}: {}", definition("gold", l)),
        ..col(l, l)
    }));
    columns.push(col("plain_mean", "Plain mean"));
    columns.push(col("paper_overall", "Overall (paper)"));
    let cells = |x: &RankRow, how: &str| {
        let c = |v: f64, what: &str| {
            Some(BoardCell {
                value: v,
                interval: None,
                n: None,
                detail: format!("{what}{how}"),
            })
        };
        let mut v = vec![c(
            x.overall,
            &format!(
                "weighted overall; rank {} weighted, {} by the plain mean",
                x.rank_weighted, x.rank_plain
            ),
        )];
        v.extend(
            layers
                .iter()
                .map(|l| x.by_construct.get(l).and_then(|s| c(*s, l))),
        );
        v.push(c(x.plain_mean, "plain mean"));
        v
    };
    let mut rows = Vec::new();
    if let Some(t) = table {
        let source = format!("{} — {}", t.source, t.title);
        let scored = table_scores;
        let paper = t.columns.iter().position(|c| c == "Overall");
        for r in &t.rows {
            // Issue 23: task cells outside Table 2's stated 0-100 % scale (the core's check),
            // flagged on the row and on every score they enter.
            let bad: Vec<String> = scored
                .map(|s| {
                    s.out_of_range
                        .iter()
                        .filter(|c| c.model == r.label)
                        .map(|c| c.to_string())
                        .collect()
                })
                .unwrap_or_default();
            let flag = (!bad.is_empty()).then(|| {
                format!(
                    "out of range: {}; the weighted scores include it as printed",
                    bad.join("; ")
                )
            });
            let how = match &flag {
                Some(f) => format!("; computed by coglab from the paper's task accuracies; {f}"),
                None => "; computed by coglab from the paper's task accuracies".to_string(),
            };
            let mut v = match scored.and_then(|s| s.rows.iter().find(|x| x.model == r.label)) {
                Some(x) => cells(x, &how),
                None => vec![None; layers.len() + 2],
            };
            v.push(
                paper
                    .and_then(|c| r.values.get(c).copied().flatten())
                    .map(|p| BoardCell {
                        value: p,
                        interval: None,
                        n: None,
                        detail: format!("reported {p} (the paper's Overall)"),
                    }),
            );
            let mut reported = row(&r.label, RowKind::Reported, source.clone(), v);
            reported.flag = flag;
            rows.push(reported);
        }
    }
    for (res, file, id) in results.iter().filter(|(_, f, _)| !f.is_empty()) {
        for x in &res.rows {
            let mut v = cells(x, &format!("; from {file}"));
            v.push(None);
            let mut computed_row = row(
                &x.model,
                RowKind::Computed,
                format!("computed from {file}"),
                v,
            );
            computed_row.row_id = *id;
            rows.push(computed_row);
        }
    }
    cite_papers(&mut rows, reported);
    Board {
        caption: "Gold: loading-weighted overall and layer scores (unit of the task scores), plain mean, and the paper's Overall"
            .into(),
        columns,
        rows,
        scale: 1.0,
        decimals: 2,
    }
}

/// The view state from URL query parameters (`s` sort, `a` ascending, `q` text, `k` kinds,
/// `fam`, `size`, `hide` hidden columns, `c` compact).
pub fn state_from_query(get: impl Fn(&str) -> Option<String>) -> ViewState {
    let list = |k: &str| -> Vec<String> {
        get(k)
            .map(|v| {
                v.split(',')
                    .filter(|s| !s.is_empty())
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default()
    };
    ViewState {
        sort: get("s").filter(|s| !s.is_empty()),
        asc: get("a").as_deref() == Some("1"),
        query: get("q").unwrap_or_default(),
        kinds: list("k").iter().filter_map(|k| RowKind::parse(k)).collect(),
        family: get("fam").unwrap_or_default(),
        size: get("size").unwrap_or_default(),
        hidden: list("hide"),
        compact: get("c").as_deref() == Some("1"),
    }
}

/// The URL query parameters of a view state (empty values remove the parameter).
pub fn state_to_query(s: &ViewState) -> Vec<(&'static str, String)> {
    vec![
        ("s", s.sort.clone().unwrap_or_default()),
        ("a", if s.asc { "1".into() } else { String::new() }),
        ("q", s.query.clone()),
        (
            "k",
            s.kinds
                .iter()
                .map(|k| k.label())
                .collect::<Vec<_>>()
                .join(","),
        ),
        ("fam", s.family.clone()),
        ("size", s.size.clone()),
        ("hide", s.hidden.join(",")),
        ("c", if s.compact { "1".into() } else { String::new() }),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::components::board_table::cell_text;

    #[test]
    fn url_state_round_trip() {
        let s = ViewState {
            sort: Some("Mathematical".into()),
            asc: true,
            query: "gpt".into(),
            kinds: vec![RowKind::Computed, RowKind::Baseline],
            family: "GPT".into(),
            size: String::new(),
            hidden: vec!["mean".into(), "2D-Geometry".into()],
            compact: true,
        };
        let q = state_to_query(&s);
        let back = state_from_query(|k| {
            q.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.clone())
                .filter(|v| !v.is_empty())
        });
        assert_eq!(back, s);
    }

    #[test]
    fn mmiq_board_rows() {
        let bundle =
            ReportedBundle::parse("mmiq.json", include_str!("../../../public/data/mmiq.json"))
                .unwrap();
        let b = mmiq_board(Some(&bundle), &[], &[], &[]);
        assert_eq!(b.columns.len(), 9);
        // 12 models reported, the paper's human row and chance as baselines.
        let kinds = |k| b.rows.iter().filter(|r| r.kind == k).count();
        assert_eq!(kinds(RowKind::Reported), 12);
        assert_eq!(kinds(RowKind::Baseline), 2);
        let gpt = b.rows.iter().find(|r| r.model == "GPT-4o").unwrap();
        assert_eq!(gpt.cells[0].as_ref().unwrap().value, 0.2687);
        // 26.87% of 2710 = 728 right: the Wilson interval of 728/2710.
        let (lo, hi) = gpt.cells[0].as_ref().unwrap().interval.unwrap();
        assert!(lo < 0.2687 && hi > 0.2687 && hi - lo < 0.04);
        assert_eq!(gpt.family, "GPT");
        // No key dropped: no majority-letter row.
        assert!(b.rows.iter().all(|r| !r.model.starts_with("Majority")));
        // With a key (the core's small fixture, keys B C A D E A): always A = 2/6; per
        // paradigm Mathematical (B C A, tie → A) 1/3, 2D-Geometry (D E → D) 1/2, Concrete
        // Object (A) 1/1; each paradigm's own letter 3/6 = 50.0% in the source text.
        let s = scored(&[
            (
                "key_small.jsonl",
                include_str!("../../../crates/coglab-core/tests/fixtures/mmiq/key_small.jsonl"),
            ),
            (
                "preds_small.jsonl",
                include_str!("../../../crates/coglab-core/tests/fixtures/mmiq/preds_small.jsonl"),
            ),
        ]);
        assert_eq!(s.mmiq.len(), 1, "{:?}", s.files);
        let b = mmiq_board(Some(&bundle), &s.mmiq, &[], &[]);
        let maj = b
            .rows
            .iter()
            .find(|r| r.model == "Majority letter (A)")
            .unwrap();
        assert_eq!(maj.kind, RowKind::Baseline);
        assert!((maj.cells[0].as_ref().unwrap().value - 2.0 / 6.0).abs() < 1e-12);
        assert!((maj.cells[2].as_ref().unwrap().value - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(maj.cells[3].as_ref().unwrap().value, 0.5);
        assert!(maj.source.contains("50.0%"), "{}", maj.source);
    }

    #[test]
    fn defect_11_reported_rows_name_the_paper_not_a_seed_file() {
        // Every reported row of every bundled board carries the paper's table, name and year
        // with a link, shown on the row; the hover text has the full title; no "seed" file.
        let mmiq =
            ReportedBundle::parse("mmiq.json", include_str!("../../../public/data/mmiq.json"))
                .unwrap();
        let b = mmiq_board(Some(&mmiq), &[], &[], &[]);
        let gpt = b.rows.iter().find(|r| r.model == "GPT-4o").unwrap();
        let (text, url) = gpt.cite.clone().unwrap();
        assert_eq!(text, "Table 2, MM-IQ paper (preprint, 2025)");
        assert_eq!(url, "https://github.com/AceCHQ/MMIQ");
        assert!(gpt.source.starts_with(
            "MM-IQ: Benchmarking Human-Like Abstraction and Reasoning in Multimodal Models (preprint, 2025), Table 2: "
        ));
        let human = b
            .rows
            .iter()
            .find(|r| r.kind == RowKind::Baseline && r.cite.is_some());
        assert!(human.is_some(), "the paper's human row is cited too");
        // Chance is not from a paper table: no citation.
        let chance = b.rows.iter().find(|r| r.model == "Chance").unwrap();
        assert!(chance.cite.is_none());
        let opera = ReportedBundle::parse(
            "mmopera.json",
            include_str!("../../../public/data/mmopera.json"),
        )
        .unwrap();
        let gold =
            ReportedBundle::parse("gold.json", include_str!("../../../public/data/gold.json"))
                .unwrap();
        for board in [
            b,
            mmopera_board(Some(&opera), &[], Task::Ria, OperaSettings::default()),
            gold_board(Some(&gold), None, &[]),
        ] {
            for r in board.rows.iter().filter(|r| r.kind == RowKind::Reported) {
                assert!(r.cite.is_some(), "{}: {}", board.caption, r.model);
                assert!(!r.source.contains("seed"), "{}", r.source);
            }
        }
    }

    /// Scores files with the core as the worker does (`score_files`).
    fn scored(files: &[(&str, &str)]) -> coglab_core::leaderboard::Scored {
        let inputs: Vec<coglab_core::leaderboard::InputRef> = files
            .iter()
            .map(|(path, text)| coglab_core::leaderboard::InputRef {
                path,
                bytes: text.as_bytes(),
                model: None,
            })
            .collect();
        coglab_core::leaderboard::score_files(&inputs, |_, _, _| {})
    }

    #[test]
    fn published_rows_are_badged_by_row_id() {
        // Two MM-IQ rows of one model: row 7 published, row 8 dropped by the visitor.
        let key = concat!(
            r#"{"category": "Mathematical", "data_id": 0, "answer": "A"}"#,
            "\n",
            r#"{"category": "Mathematical", "data_id": 1, "answer": "B"}"#
        );
        let preds =
            "{\"data_id\": 0, \"parsed_pred\": \"A\"}\n{\"data_id\": 1, \"parsed_pred\": \"C\"}";
        let s = scored(&[("k.jsonl", key), ("m.jsonl", preds)]);
        let mut a = s.mmiq[0].clone();
        let mut b = a.clone();
        a.id = 7;
        b.id = 8;
        let mut board = mmiq_board(None, &[a, b], &[], &[]);
        mark_published(&mut board, &[7], &Default::default());
        let computed: Vec<(bool, bool)> = board
            .rows
            .iter()
            .filter(|r| r.kind == RowKind::Computed)
            .map(|r| (r.published, r.source.starts_with("published bundle")))
            .collect();
        assert_eq!(computed, [(true, true), (false, false)]);
    }

    #[test]
    fn published_mmopera_and_gold_rows_are_badged_by_row_id() {
        // The tiny published board's index (coglab publish of
        // crates/coglab-core/tests/fixtures/publish/tiny): Model X's MM-OPERA RIA row and
        // GPT-4o's Gold row, as the worker keeps them (numbered 11 and 12).
        let mut s = scored(&[
            ("RIA_metadata.json", RIA_META),
            ("m_RIA_regular_scoring.json", RIA_REGULAR),
        ]);
        s.mmopera[0].id = 11;
        let opera = mmopera_board(None, &s.mmopera, Task::Ria, OperaSettings::default());
        let gold_row = coglab_core::leaderboard::gold::GoldRow {
            id: 12,
            matrix: coglab_core::leaderboard::gold::GoldMatrix {
                file: "gold-table2.csv".into(),
                models: vec!["GPT-4o".into()],
                tasks: vec![],
            },
            data: None,
            result: Some(coglab_core::leaderboard::gold::GoldResult {
                assignment: Default::default(),
                spec: String::new(),
                layers: vec!["Perception".into()],
                rows: vec![coglab_core::sem::suite::RankRow {
                    model: "GPT-4o".into(),
                    overall: 79.485041,
                    by_construct: [("Perception".to_string(), 93.490938)].into(),
                    plain_mean: 79.536364,
                    rank_weighted: 3,
                    rank_plain: 3,
                    change: 0,
                }],
                n_models: 10,
                dropped_models: vec![],
                out_of_range: vec![],
            }),
            message: None,
        };
        let gold = gold_board(None, None, &[gold_row]);
        for (mut board, id, model) in [(opera, 11, "m"), (gold, 12, "GPT-4o")] {
            // Another id published: the row stays computed.
            mark_published(&mut board, &[99], &Default::default());
            let r = board.rows.iter().find(|r| r.model == model).unwrap();
            assert!(!r.published, "{}", board.caption);
            // The manifest's family and parameters replace those guessed from the name.
            let meta = coglab_core::publish::manifest::ModelMeta {
                family: Some("test family".into()),
                parameters: Some("7B".into()),
                ..Default::default()
            };
            mark_published(&mut board, &[id], &[(id, meta)].into());
            let r = board.rows.iter().find(|r| r.model == model).unwrap();
            assert_eq!((r.published, r.badge()), (true, "published"));
            assert!(r.source.starts_with("published bundle"), "{}", r.source);
            assert_eq!((r.family.as_str(), r.size.as_str()), ("test family", "7B"));
        }
    }

    const RIA_META: &str = r#"[
        {"id": "r1", "foldername": "ria_0001", "domain": "Nature", "type": "Relation", "culture": "Global", "language": "English", "hop_count": 1, "perception": ["Visual Similarity"], "conception": ["Thematic Links"], "relation": "x"},
        {"id": "r2", "foldername": "ria_0002", "domain": "Art", "type": "Metaphor", "culture": "Global", "language": "English", "hop_count": 2, "perception": ["Semantic Object"], "conception": ["Causal Connections"], "relation": "x"},
        {"id": "r3", "foldername": "ria_0003", "domain": "Art", "type": "Relation", "culture": "Chinese", "language": "Chinese", "hop_count": 2, "perception": ["Semantic Object"], "conception": ["Thematic Links"], "relation": "x"},
        {"id": "r4", "foldername": "ria_0004", "domain": "Nature", "type": "Relation", "culture": "Global", "language": "English", "hop_count": 3, "perception": ["Visual Similarity"], "conception": ["Thematic Links"], "relation": "x"}]"#;
    const RIA_REGULAR: &str = r#"{"r1": {"score_judge": "4", "score_reason": "x"}, "r2": {"score_judge": "3", "score_reason": "x"},
        "r3": {"score_judge": "1", "score_reason": "x"}, "r4": {"score_judge": "0", "score_reason": "x"}}"#;
    const RIA_REASONING: &str = r#"{"r1": {"path": "S0 → S1", "hop_quality": {"S0 → S1": [1, 1, 1]}, "explanation": "ok"},
        "r2": {"path": "S0 → S1 → S2", "hop_quality": {"S0 → S1": [0.5, 1, 1], "S1 → S2": [1, 0.5, 0]}, "explanation": "ok"}}"#;

    #[test]
    fn mmopera_board_rows() {
        let bundle = ReportedBundle::parse(
            "mmopera.json",
            include_str!("../../../public/data/mmopera.json"),
        )
        .unwrap();
        let s = scored(&[
            ("RIA_metadata.json", RIA_META),
            ("m_RIA_regular_scoring.json", RIA_REGULAR),
            ("m_RIA_reasoning_scoring.json", RIA_REASONING),
        ]);
        assert_eq!(s.mmopera.len(), 1, "{:?}", s.files);
        let b = mmopera_board(
            Some(&bundle),
            &s.mmopera,
            Task::Ria,
            OperaSettings::default(),
        );
        assert_eq!(
            b.columns.iter().map(|c| c.key.as_str()).collect::<Vec<_>>(),
            ["sr", "hr4", "hr3", "dhr", "sr_proc", "gap"]
        );
        // Issue 23: the reasoning column names its setting; the default is the code's decay.
        assert_eq!(b.columns[4].title, "Reasoning (code decay)");
        assert!(b.columns[4]
            .definition
            .contains("(the released code; default)"));
        assert!(!b.columns[4].definition.contains("about 2.7"));
        let kinds = |k| b.rows.iter().filter(|r| r.kind == k).count();
        // Table 2 (RIA): 16 models reported, the human row a baseline; one computed row.
        assert_eq!(kinds(RowKind::Reported), 16);
        assert_eq!(kinds(RowKind::Baseline), 1);
        assert_eq!(kinds(RowKind::Computed), 1);
        let v = |model: &str, c: usize| {
            let r = b.rows.iter().find(|r| r.model == model).unwrap();
            r.cells[c].as_ref().map(|x| x.value)
        };
        // Paper Table 2 RIA: GPT-4o SR 59.72, ΔHR 17.94; Table 3 RIA reasoning 1.6068.
        assert_eq!(v("GPT-4o", 0), Some(0.5972));
        assert_eq!(v("GPT-4o", 3), Some(0.1794));
        assert_eq!(v("GPT-4o", 4), Some(1.6068));
        // GLM-4V is not in Table 3.
        assert_eq!(v("GLM-4V", 4), None);
        // RIA − ICA from the paper's two Table 2s: GPT-4o 59.72 − 58.26 = 1.46 points; the
        // human row 61.88 − 68.69 = −6.81.
        assert!((v("GPT-4o", 5).unwrap() - 0.0146).abs() < 1e-12);
        assert!((v("Human", 5).unwrap() + 0.0681).abs() < 1e-12);
        // The computed model has RIA files only: no gap.
        assert_eq!(v("m", 5), None);
        assert_eq!(v("Human", 0), Some(0.6188));
        // Computed: coglab score mmopera --task ria --metadata RIA_metadata.json --regular
        // m_RIA_regular_scoring.json --reasoning m_RIA_reasoning_scoring.json --json gives
        // score_rate 0.5 (= (4+3+1+0)/16 by hand), hr4 0.25, hr3 0.5, delta_hr 0.25,
        // reasoning mean_score 0.9775.
        assert_eq!(v("m", 0), Some(0.5));
        assert_eq!(v("m", 1), Some(0.25));
        assert_eq!(v("m", 2), Some(0.5));
        assert_eq!(v("m", 3), Some(0.25));
        assert!((v("m", 4).unwrap() - 0.9775).abs() < 1e-12);
        // The intervals' point estimates are the report's; SR's interval by hand: item
        // totals y = 1, 0.75, 0.25, 0 over x = 1 each, R = 0.5, Σ(y − R)² = 0.625,
        // SE = sqrt(4/3 · 0.625) / 4 = 0.22822, 0.5 ± 1.96 SE = [0.05269, 0.94731].
        let m = b.rows.iter().find(|r| r.model == "m").unwrap();
        let (lo, hi) = m.cells[0].as_ref().unwrap().interval.unwrap();
        let se = (4.0_f64 / 3.0 * 0.625).sqrt() / 4.0;
        assert!((lo - 0.05269).abs() < 1e-5, "{lo}");
        assert!((lo - (0.5 - 1.96 * se)).abs() < 1e-12 && (hi - (0.5 + 1.96 * se)).abs() < 1e-12);
        let (point, _) =
            coglab_core::leaderboard::mmopera::intervals(&s.mmopera[0].ria.as_ref().unwrap().items)
                .unwrap();
        for (c, p) in point.iter().enumerate() {
            assert!((v("m", c).unwrap() - p).abs() < 1e-12, "column {c}");
        }
        // Shown as percentages with two decimals, the reasoning score with four.
        let m = b.rows.iter().find(|r| r.model == "m").unwrap();
        assert_eq!(cell_text(&b, 0, m.cells[0].as_ref(), false), "50.00");
        assert_eq!(cell_text(&b, 4, m.cells[4].as_ref(), false), "0.9775");
        // The paper's equation 2 decays every hop: r1 s = 0.9·1·1 + 0.1·1 = 1 → 0.9; r2
        // s = 0.9·0.5·1 + 0.1 = 0.55 and 0.9·1·0.5 = 0.45 → 0.55·0.9 + 0.45·0.81 = 0.8595;
        // mean (0.9 + 0.8595)/2 = 0.87975 (= 0.9775 × γ). The title says so.
        let paper = OperaSettings {
            decay: DecayExponent::FromOne,
            ..OperaSettings::default()
        };
        let bp = mmopera_board(Some(&bundle), &s.mmopera, Task::Ria, paper);
        assert_eq!(bp.columns[4].title, "Reasoning (paper Eq. 2)");
        let mp = bp.rows.iter().find(|r| r.model == "m").unwrap();
        assert!((mp.cells[4].as_ref().unwrap().value - 0.87975).abs() < 1e-12);
        // Reported rows stay as printed.
        let gp = bp.rows.iter().find(|r| r.model == "GPT-4o").unwrap();
        assert_eq!(gp.cells[4].as_ref().unwrap().value, 1.6068);
        // Over paths: RIA items have one path, the same mean; the title names the setting.
        let paths = OperaSettings {
            average: IcaAverage::Paths,
            ..OperaSettings::default()
        };
        let bq = mmopera_board(Some(&bundle), &s.mmopera, Task::Ria, paths);
        assert_eq!(bq.columns[4].title, "Reasoning (code decay, ICA per path)");
        let mq = bq.rows.iter().find(|r| r.model == "m").unwrap();
        assert!((mq.cells[4].as_ref().unwrap().value - 0.9775).abs() < 1e-12);
        assert!(mq.cells[4].as_ref().unwrap().interval.is_none());
        // ICA: Table 2 ICA values, no computed row (no ICA files).
        let b = mmopera_board(
            Some(&bundle),
            &s.mmopera,
            Task::Ica,
            OperaSettings::default(),
        );
        let gpt = b.rows.iter().find(|r| r.model == "GPT-4o").unwrap();
        assert_eq!(gpt.cells[0].as_ref().unwrap().value, 0.5826);
        assert_eq!(gpt.cells[4].as_ref().unwrap().value, 0.6396);
        assert!(b.rows.iter().all(|r| r.kind != RowKind::Computed));
    }

    #[test]
    fn kiva_board_null_switch() {
        // Trial 0: regenerations (1, 1, 1) and (Null, empty, 0); trial 1: (1, Null, 1).
        // Null wrong (default): what = mean(0.5, 1) = 0.75, how (conditional) = mean(1, 0)
        // = 0.5. Null left out: what = mean(1, 1) = 1, how over trial 0 only = 1 (n 1).
        // Apply is 0.5 and 1 → 0.75 either way.
        let csv = "Variation,Regeneration,MCResponse#1,MCResponse#2,MCResponse#3\n\
                   0,0,1,1,1\n0,1,Null,,0\n1,0,1,Null,1\n";
        let s = scored(&[("m/output_Colour/ColourRed.csv", csv)]);
        assert_eq!(s.kiva.len(), 1, "{:?}", s.files);
        let cell = |b: &Board, c: usize| b.rows[0].cells[c].as_ref().map(|x| x.value);
        let w = kiva_board(None, &s.kiva, &[], Variant::Kiva, false, NullAnswers::Wrong);
        assert_eq!(w.columns[0].title, "All What");
        assert!(w.columns[0].definition.contains("count as wrong"));
        assert_eq!(cell(&w, 0), Some(0.75));
        assert_eq!(cell(&w, 1), Some(0.5));
        assert_eq!(cell(&w, 2), Some(0.75));
        let m = kiva_board(
            None,
            &s.kiva,
            &[],
            Variant::Kiva,
            false,
            NullAnswers::Missing,
        );
        // The headers stand over the reported rows too, which keep the repository's rule: the
        // caption and the computed row's source say what changed.
        assert_eq!(m.columns[0].title, "All What");
        assert!(m.caption.contains("left out"));
        assert!(m
            .caption
            .contains("Bundled rows and the adults keep the repository's rule"));
        assert!(m.rows[0].source.ends_with("Null answers left out"));
        assert!(!w.rows[0].source.contains("Null"));
        assert_eq!(cell(&m, 0), Some(1.0));
        assert_eq!(cell(&m, 1), Some(1.0));
        assert_eq!(cell(&m, 2), Some(0.75));
    }

    #[test]
    fn gold_board_rows() {
        let bundle =
            ReportedBundle::parse("gold.json", include_str!("../../../public/data/gold.json"))
                .unwrap();
        // Gold Table 2 without its Overall column, as a dropped matrix.
        let t = bundle.table("gold-table2").unwrap();
        let mut csv = String::from("model");
        for c in t.columns.iter().filter(|c| *c != "Overall") {
            csv.push(',');
            csv.push_str(c);
        }
        for r in &t.rows {
            csv.push('\n');
            csv.push_str(&r.label);
            for v in &r.values[1..] {
                csv.push_str(&format!(",{}", v.unwrap()));
            }
        }
        let s = scored(&[("gold-table2.csv", &csv)]);
        assert_eq!(s.gold.len(), 1, "{:?}", s.files);
        let table = gold_table_request(&bundle).unwrap();
        let table_scores = coglab_core::leaderboard::gold::score_table(
            &table.labels,
            &table.columns,
            &table.values,
        )
        .unwrap();
        let b = gold_board(Some(&bundle), Some(&table_scores), &s.gold);
        assert_eq!(
            b.columns.iter().map(|c| c.key.as_str()).collect::<Vec<_>>(),
            [
                "overall",
                "Perception",
                "Memory",
                "Reasoning",
                "plain_mean",
                "paper_overall"
            ]
        );
        // coglab sem --spec gold-spec.json gold-table2.csv --json (layers Perception = Color,
        // Count, OCR; Memory = Artwork, Landmark, BMK; Reasoning = the five subjects):
        // GPT-4o overall 79.48504056761112, Perception 93.4909375012403, Memory
        // 78.19034200958315, Reasoning 71.90448686163967.
        let want = [
            79.48504056761112,
            93.4909375012403,
            78.19034200958315,
            71.90448686163967,
        ];
        for kind in [RowKind::Reported, RowKind::Computed] {
            let r = b
                .rows
                .iter()
                .find(|r| r.model == "GPT-4o" && r.kind == kind)
                .unwrap();
            for (c, w) in want.iter().enumerate() {
                let got = r.cells[c].as_ref().unwrap().value;
                assert!((got - w).abs() < 1e-9, "{kind:?} column {c}: {got} vs {w}");
            }
            // Plain mean of GPT-4o's 11 task accuracies, by hand: 874.9 / 11.
            let mean = r.cells[4].as_ref().unwrap().value;
            assert!((mean - 874.9 / 11.0).abs() < 1e-9, "{mean}");
        }
        let gpt = |k| {
            b.rows
                .iter()
                .find(|r| r.model == "GPT-4o" && r.kind == k)
                .unwrap()
        };
        assert_eq!(
            gpt(RowKind::Reported).cells[5].as_ref().unwrap().value,
            165.7
        );
        assert!(gpt(RowKind::Computed).cells[5].is_none());
        assert_eq!(b.rows.len(), 20);
        // Issue 23: Table 2's Qwen2.5-VL 7B has Artwork = 147.5 on a 0-100 % scale; its row
        // is flagged (and its Memory score, 109.408 by hand in coglab-core's leaderboard::gold
        // test, says so), no other reported row is.
        let flagged: Vec<(&str, &str)> = b
            .rows
            .iter()
            .filter_map(|r| Some((r.model.as_str(), r.flag.as_deref()?)))
            .collect();
        assert_eq!(
            flagged,
            [(
                "Qwen2.5-VL 7B",
                "out of range: Qwen2.5-VL 7B Artwork = 147.5 (outside 0-100); the weighted scores include it as printed"
            )]
        );
        let qwen = b
            .rows
            .iter()
            .find(|r| r.model == "Qwen2.5-VL 7B" && r.kind == RowKind::Reported)
            .unwrap();
        let memory = qwen.cells[2].as_ref().unwrap();
        assert!((memory.value - 109.408).abs() < 1e-3, "{}", memory.value);
        assert!(
            memory.detail.contains("Artwork = 147.5"),
            "{}",
            memory.detail
        );
    }

    /// The harness fixtures (`crates/coglab-core/tests/fixtures/harness`).
    fn fixture(name: &str) -> String {
        let path = format!(
            "{}/crates/coglab-core/tests/fixtures/harness/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// Issue 24: an lmms-eval `results.json` is drawn on the MM-IQ board as summary rows, one
    /// per figure of its `mmiq` task, each with the file's standard error as the interval.
    #[test]
    fn lmms_results_are_summary_rows() {
        let s = scored(&[(
            "20240601_120000_results.json",
            &fixture("20240601_120000_results.json"),
        )]);
        assert_eq!(s.harness_summary.len(), 1, "{:?}", s.files);
        let b = mmiq_board(None, &[], &[], &s.harness_summary);
        let rows: Vec<&BoardRow> = b.rows.iter().filter(|r| r.summary).collect();
        assert_eq!(rows.len(), 2);
        // The file: "mmiq_accuracy,none": 0.2745, "mmiq_accuracy_stderr,none": 0.0086, and
        // "exact_match,flexible-extract": 0.281 with stderr "N/A"; config.model llava_onevision.
        let acc = rows
            .iter()
            .find(|r| r.model == "llava_onevision (lmms-eval summary, mmiq_accuracy, none)")
            .unwrap_or_else(|| panic!("{:?}", rows.iter().map(|r| &r.model).collect::<Vec<_>>()));
        assert_eq!(acc.harness.as_deref(), Some("lmms-eval"));
        assert_eq!(acc.kind, RowKind::Computed);
        assert_eq!(acc.row_id, None, "no items: no model page");
        let c = acc.cells[0].as_ref().unwrap();
        assert_eq!(c.value, 0.2745);
        // 0.2745 ± 1.96 × 0.0086 = 0.2745 ± 0.016856.
        let (lo, hi) = c.interval.unwrap();
        assert!((lo - 0.257644).abs() < 1e-12 && (hi - 0.291356).abs() < 1e-12);
        assert!(acc.cells[1..].iter().all(Option::is_none));
        let em = rows
            .iter()
            .find(|r| {
                r.model == "llava_onevision (lmms-eval summary, exact_match, flexible-extract)"
            })
            .unwrap();
        let c = em.cells[0].as_ref().unwrap();
        assert_eq!((c.value, c.interval, c.n), (0.281, None, Some(2710)));
    }

    /// Issue 24: an EEE aggregate's overall and per-paradigm figures make one summary row.
    #[test]
    fn eee_aggregate_is_one_summary_row_with_its_paradigms() {
        let doc = r#"{"schema_version": "0.2.1", "model_info": {"name": "m", "id": "org/m"},
          "evaluation_results": [
            {"evaluation_name": "MM-IQ", "score_details": {"score": 0.3, "uncertainty": {"standard_error": {"value": 0.01}, "num_samples": 100}}},
            {"evaluation_name": "MM-IQ: Mathematical", "score_details": {"score": 0.25}}]}"#;
        let s = scored(&[("agg.json", doc)]);
        assert_eq!(s.harness_summary.len(), 1, "{:?}", s.files);
        let b = mmiq_board(None, &[], &[], &s.harness_summary);
        let rows: Vec<&BoardRow> = b.rows.iter().filter(|r| r.summary).collect();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].model, "org/m (Every Eval Ever summary)");
        let v: Vec<Option<f64>> = rows[0]
            .cells
            .iter()
            .map(|c| c.as_ref().map(|c| c.value))
            .collect();
        // Mean, then LO, Math, ...: Mathematical is the second paradigm.
        assert_eq!(v[..3], [Some(0.3), None, Some(0.25)]);
        // 0.3 ± 1.96 × 0.01.
        let (lo, hi) = rows[0].cells[0].as_ref().unwrap().interval.unwrap();
        assert!((lo - 0.2804).abs() < 1e-12 && (hi - 0.3196).abs() < 1e-12);
    }

    /// Issue 24: a KiVA challenge result is a computed row of the KiVA table, its accuracy in
    /// the Apply columns. The fixture by hand: trial_001 (A) right, trial_002 (C) right,
    /// trial_003 "The answer is (A)" wrong (B), trial_004 (A) right, trial_099 not annotated,
    /// trial_005 not answered: 3 of 4 overall; Colour 1 of 1, Counting 1 of 2 (002, 003);
    /// Colour+Resize (trial_004) has no column of the board.
    #[test]
    fn kiva_challenge_is_a_computed_kiva_row() {
        let s = scored(&[
            (
                "kiva_challenge_annotations.json",
                &fixture("kiva_challenge_annotations.json"),
            ),
            (
                "kiva_challenge_results.json",
                &fixture("kiva_challenge_results.json"),
            ),
        ]);
        assert_eq!(s.kiva_challenge.len(), 1, "{:?}", s.files);
        let b = kiva_board(
            None,
            &[],
            &s.kiva_challenge,
            Variant::Kiva,
            false,
            NullAnswers::Wrong,
        );
        let r = b
            .rows
            .iter()
            .find(|r| r.harness.as_deref() == Some("KiVA challenge"))
            .unwrap();
        assert_eq!(r.kind, RowKind::Computed);
        assert!(!r.summary);
        let col = |k: &str| b.columns.iter().position(|c| c.key == k).unwrap();
        let all = r.cells[col("All/extrapolation")].as_ref().unwrap();
        assert_eq!((all.value, all.n), (0.75, Some(4)));
        assert!(r.cells[col("All/cross")].is_none());
        let colour = r.cells[col("Colour/extrapolation")].as_ref().unwrap();
        assert_eq!((colour.value, colour.n), (1.0, Some(1)));
        let counting = r.cells[col("Counting/extrapolation")].as_ref().unwrap();
        assert_eq!((counting.value, counting.n), (0.5, Some(2)));
        assert!(!b.columns.iter().any(|c| c.key.starts_with("Colour+Resize")));
        // On the KiVA-adults tab it is not drawn.
        let adults = kiva_board(
            None,
            &[],
            &s.kiva_challenge,
            Variant::KivaAdults,
            false,
            NullAnswers::Wrong,
        );
        assert!(adults.rows.iter().all(|r| r.harness.is_none()));
    }

    #[test]
    fn mmiq_acc_rows() {
        // A VLMEvalKit summary worked by hand: Overall 0.2654, two paradigms given.
        let s = scored(&[(
            "Qwen2-VL-7B_MMIQ_acc.csv",
            "\"split\",\"Overall\",\"Logical Operation\",\"Mathematical\"\n\"none\",\"0.2654\",\"0.3\",\"0.2125\"\n",
        )]);
        assert_eq!(s.mmiq_acc.len(), 1, "{:?}", s.files);
        let b = mmiq_board(None, &[], &s.mmiq_acc, &[]);
        let r = b.rows.iter().find(|r| r.kind == RowKind::Computed).unwrap();
        assert_eq!(
            r.model,
            format!("{} (VLMEvalKit summary)", s.mmiq_acc[0].model)
        );
        assert_eq!(r.source, "VLMEvalKit summary: Qwen2-VL-7B_MMIQ_acc.csv");
        assert_eq!(r.family, "Qwen");
        let v: Vec<Option<f64>> = r
            .cells
            .iter()
            .map(|c| c.as_ref().map(|c| c.value))
            .collect();
        assert_eq!(
            v,
            [
                Some(0.2654),
                Some(0.3),
                Some(0.2125),
                None,
                None,
                None,
                None,
                None,
                None
            ]
        );
        assert!(r.cells.iter().flatten().all(|c| c.interval.is_none()));
        assert_eq!(cell_text(&b, 0, r.cells[0].as_ref(), true), "26.54");
    }
}
