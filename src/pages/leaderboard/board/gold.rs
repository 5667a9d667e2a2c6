//! The Gold board: loading-weighted overall and layer scores, the plain mean and the paper's
//! Overall, for Gold's Table 2 and every dropped score matrix.

use crate::worker::api::RowId;
use coglab_core::leaderboard::gold::{GoldResult, GoldRow, LAYERS};
use coglab_core::leaderboard::metrics::definition;
use coglab_core::reported::ReportedBundle;
use coglab_core::sem::suite::RankRow;

use super::{cite_papers, row};
use crate::components::board_table::{Board, BoardCell, BoardColumn, RowKind};

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
    let results: Vec<(&GoldResult, String, Option<RowId>)> = table_scores
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
#[cfg(test)]
mod tests {
    use super::*;
    use crate::pages::leaderboard::board::test_support::*;

    #[test]
    fn gold_board_rows() {
        let bundle = ReportedBundle::parse(
            "gold.json",
            include_str!("../../../../public/data/gold.json"),
        )
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
}
