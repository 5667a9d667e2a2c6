//! The MM-IQ board: the paper's Table 2, computed rows, VLMEvalKit and harness summaries,
//! chance and the key's majority letter.

use coglab_core::leaderboard::metrics::{definition, reported_mmiq_interval};
use coglab_core::leaderboard::{HarnessSummaryRow, MmiqAccRow, MmiqRow};
use coglab_core::mmiq::{CATEGORIES, CHANCE};
use coglab_core::reported::ReportedBundle;

use super::{acc_cell, cite_papers, pct, row};
use crate::components::board_table::{Board, BoardCell, BoardColumn, BoardRow, RowKind};

/// Short paradigm names used as MM-IQ column headers, in [`CATEGORIES`] order.
pub const PARADIGM_SHORT: [&str; 8] = ["LO", "Math", "2D-G", "3D-G", "VI", "TM", "SR", "CO"];

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
#[cfg(test)]
mod tests {
    use super::*;
    use crate::components::board_table::cell_text;
    use crate::pages::leaderboard::board::test_support::*;

    #[test]
    fn mmiq_board_rows() {
        let bundle = ReportedBundle::parse(
            "mmiq.json",
            include_str!("../../../../public/data/mmiq.json"),
        )
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
                include_str!("../../../../crates/coglab-core/tests/fixtures/mmiq/key_small.jsonl"),
            ),
            (
                "preds_small.jsonl",
                include_str!(
                    "../../../../crates/coglab-core/tests/fixtures/mmiq/preds_small.jsonl"
                ),
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
