//! Building the leaderboard tables ([`Board`]) from the core's values: the reported tables
//! bundled from the papers, the rows computed from dropped files, and the baselines (chance,
//! humans). One file per benchmark; this one holds what they share (cells, rows, citations,
//! the "published" badge). Pure functions, tested natively; the tabs only render them.

use crate::worker::api::RowId;
use coglab_core::leaderboard::metrics::model_info;
use coglab_core::mmiq::Accuracy;
use coglab_core::reported::ReportedBundle;

use crate::components::board_table::{Board, BoardCell, BoardRow, RowKind};

mod gold;
mod kiva;
mod mmiq;
mod mmopera;
pub mod static_html;

pub use gold::{gold_board, gold_table_request};
pub use kiva::{kiva_board, kiva_stages};
pub use mmiq::{mmiq_board, PARADIGM_SHORT};
pub use mmopera::{mmopera_board, OperaSettings};

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
    published: &[RowId],
    meta: &std::collections::HashMap<RowId, coglab_core::publish::manifest::ModelMeta>,
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

#[cfg(test)]
mod test_support {
    /// Scores files with the core as the worker does (`score_files`).
    pub(crate) fn scored(files: &[(&str, &str)]) -> coglab_core::leaderboard::Scored {
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

    pub(crate) const RIA_META: &str = r#"[
        {"id": "r1", "foldername": "ria_0001", "domain": "Nature", "type": "Relation", "culture": "Global", "language": "English", "hop_count": 1, "perception": ["Visual Similarity"], "conception": ["Thematic Links"], "relation": "x"},
        {"id": "r2", "foldername": "ria_0002", "domain": "Art", "type": "Metaphor", "culture": "Global", "language": "English", "hop_count": 2, "perception": ["Semantic Object"], "conception": ["Causal Connections"], "relation": "x"},
        {"id": "r3", "foldername": "ria_0003", "domain": "Art", "type": "Relation", "culture": "Chinese", "language": "Chinese", "hop_count": 2, "perception": ["Semantic Object"], "conception": ["Thematic Links"], "relation": "x"},
        {"id": "r4", "foldername": "ria_0004", "domain": "Nature", "type": "Relation", "culture": "Global", "language": "English", "hop_count": 3, "perception": ["Visual Similarity"], "conception": ["Thematic Links"], "relation": "x"}]"#;
    pub(crate) const RIA_REGULAR: &str = r#"{"r1": {"score_judge": "4", "score_reason": "x"}, "r2": {"score_judge": "3", "score_reason": "x"},
        "r3": {"score_judge": "1", "score_reason": "x"}, "r4": {"score_judge": "0", "score_reason": "x"}}"#;
    pub(crate) const RIA_REASONING: &str = r#"{"r1": {"path": "S0 → S1", "hop_quality": {"S0 → S1": [1, 1, 1]}, "explanation": "ok"},
        "r2": {"path": "S0 → S1 → S2", "hop_quality": {"S0 → S1": [0.5, 1, 1], "S1 → S2": [1, 0.5, 0]}, "explanation": "ok"}}"#;

    /// The harness fixtures (`crates/coglab-core/tests/fixtures/harness`).
    pub(crate) fn fixture(name: &str) -> String {
        let path = format!(
            "{}/crates/coglab-core/tests/fixtures/harness/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::*;
    use super::*;
    use coglab_core::mmopera::Task;

    #[test]
    fn defect_11_reported_rows_name_the_paper_not_a_seed_file() {
        // Every reported row of every bundled board carries the paper's table, name and year
        // with a link, shown on the row; the hover text has the full title; no "seed" file.
        let mmiq = ReportedBundle::parse(
            "mmiq.json",
            include_str!("../../../../public/data/mmiq.json"),
        )
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
            include_str!("../../../../public/data/mmopera.json"),
        )
        .unwrap();
        let gold = ReportedBundle::parse(
            "gold.json",
            include_str!("../../../../public/data/gold.json"),
        )
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

    /// A row id of the first worker.
    fn id(n: u32) -> RowId {
        RowId { generation: 1, n }
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
        a.id = id(7);
        b.id = id(8);
        let mut board = mmiq_board(None, &[a, b], &[], &[]);
        mark_published(&mut board, &[id(7)], &Default::default());
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
        s.mmopera[0].id = id(11);
        let opera = mmopera_board(None, &s.mmopera, Task::Ria, OperaSettings::default());
        let gold_row = coglab_core::leaderboard::gold::GoldRow {
            id: id(12),
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
        for (mut board, row, model) in [(opera, id(11), "m"), (gold, id(12), "GPT-4o")] {
            // Another id published: the row stays computed.
            mark_published(&mut board, &[id(99)], &Default::default());
            let r = board.rows.iter().find(|r| r.model == model).unwrap();
            assert!(!r.published, "{}", board.caption);
            // The manifest's family and parameters replace those guessed from the name.
            let meta = coglab_core::publish::manifest::ModelMeta {
                family: Some("test family".into()),
                parameters: Some("7B".into()),
                ..Default::default()
            };
            mark_published(&mut board, &[row], &[(row, meta)].into());
            let r = board.rows.iter().find(|r| r.model == model).unwrap();
            assert_eq!((r.published, r.badge()), (true, "published"));
            assert!(r.source.starts_with("published bundle"), "{}", r.source);
            assert_eq!((r.family.as_str(), r.size.as_str()), ("test family", "7B"));
        }
    }
}
