//! Item pages and comparisons behind the leaderboard (`leaderboard::detail`), and the split of
//! scored rows into summaries and details: hand-worked small cases, and the real KiVA runs.

use coglab_core::kiva::score_model;
use coglab_core::leaderboard::detail::{compare_kiva, compare_mmiq, mmiq_items, ItemsQuery};
use coglab_core::leaderboard::{score_files, Detail, InputRef};
use std::path::Path;

const KEY: &str = concat!(
    r#"{"category": "Mathematical", "MD5": "x", "data_id": 0, "answer": "A"}"#,
    "\n",
    r#"{"category": "Mathematical", "MD5": "x", "data_id": 1, "answer": "B"}"#,
    "\n",
    r#"{"category": "Concrete Object", "MD5": "x", "data_id": 2, "answer": "C"}"#,
    "\n",
    r#"{"category": "Concrete Object", "MD5": "x", "data_id": 3, "answer": "D"}"#,
    "\n"
);

fn batch() -> coglab_core::leaderboard::Scored {
    // a: 0 right, 1 right, 2 wrong, 3 right. b: 0 right, 1 wrong, 2 wrong, 3 wrong.
    let a = b"{\"data_id\": 0, \"parsed_pred\": \"A\"}\n{\"data_id\": 1, \"parsed_pred\": \"B\"}\n{\"data_id\": 2, \"parsed_pred\": \"A\"}\n{\"data_id\": 3, \"parsed_pred\": \"D\"}\n";
    let b = b"{\"data_id\": 3, \"parsed_pred\": \"A\"}\n{\"data_id\": 2, \"parsed_pred\": \"B\"}\n{\"data_id\": 1, \"parsed_pred\": \"A\"}\n{\"data_id\": 0, \"parsed_pred\": \"A\"}\n";
    let inputs = [
        InputRef {
            path: "MMIQ_benchmark_answer_dict.jsonl",
            bytes: KEY.as_bytes(),
            model: None,
        },
        InputRef {
            path: "a_output.jsonl",
            bytes: a,
            model: None,
        },
        InputRef {
            path: "b_output.jsonl",
            bytes: b,
            model: None,
        },
    ];
    score_files(&inputs, |_, _, _| {})
}

#[test]
fn split_details_numbers_rows_and_strips_items() {
    let mut s = batch();
    assert_eq!(s.mmiq.len(), 2);
    let id = |n| coglab_core::leaderboard::RowId { generation: 3, n };
    let mut next = id(7);
    let details = s.split_details(&mut next);
    assert_eq!(next, id(9));
    assert_eq!((s.mmiq[0].id, s.mmiq[1].id), (id(7), id(8)));
    // The form a page's option value carries, and back.
    assert_eq!(id(8).to_string(), "3.8");
    assert_eq!("3.8".parse(), Ok(id(8)));
    assert!("8".parse::<coglab_core::leaderboard::RowId>().is_err());
    assert!("3.x".parse::<coglab_core::leaderboard::RowId>().is_err());
    assert!(s.mmiq.iter().all(|r| r.report.items.is_empty()));
    // The summary keeps the numbers: a is 3 of 4.
    assert_eq!(
        (s.mmiq[0].report.overall.correct, s.mmiq[0].report.overall.n),
        (3, 4)
    );
    let Detail::Mmiq(full) = &details[0].1 else {
        panic!("not MM-IQ")
    };
    assert_eq!(details[0].0, id(7));
    assert_eq!(full.items.len(), 4);
    // The summary JSON has no items.
    let json = serde_json::to_string(&s).unwrap();
    assert!(!json.contains("\"items\""));
}

#[test]
fn items_pages_and_filters() {
    let mut s = batch();
    let details = s.split_details(&mut coglab_core::leaderboard::RowId::first(1));
    let Detail::Mmiq(a) = &details[0].1 else {
        panic!()
    };
    let all = mmiq_items(a, &ItemsQuery::default());
    assert_eq!(all.total, 4);
    assert_eq!(all.items.len(), 4);
    assert_eq!(all.by_category["Mathematical"].correct, 2);
    assert_eq!(all.by_category["Concrete Object"].correct, 1);
    let wrong = mmiq_items(
        a,
        &ItemsQuery {
            wrong_only: true,
            ..Default::default()
        },
    );
    assert_eq!(wrong.total, 1);
    assert_eq!(wrong.items[0].data_id, 2);
    assert_eq!(wrong.items[0].parsed, "A");
    assert_eq!(wrong.items[0].key, 'C');
    let page = mmiq_items(
        a,
        &ItemsQuery {
            category: Some("Concrete Object".into()),
            offset: 1,
            limit: 5,
            ..Default::default()
        },
    );
    assert_eq!(page.total, 2);
    assert_eq!(page.items.len(), 1);
    assert_eq!(page.items[0].data_id, 3);
}

#[test]
fn mmiq_comparison_cells_by_hand() {
    let mut s = batch();
    let details = s.split_details(&mut coglab_core::leaderboard::RowId::first(1));
    let (Detail::Mmiq(a), Detail::Mmiq(b)) = (&details[0].1, &details[1].1) else {
        panic!()
    };
    let c = compare_mmiq(a, b, 1000, 1).unwrap();
    // Pairs (a, b): 0 (R, R), 1 (R, W), 2 (W, W), 3 (R, W).
    assert_eq!(c.cells.both_correct, ["0"]);
    assert_eq!(c.cells.first_only, ["1", "3"]);
    assert!(c.cells.second_only.is_empty());
    assert_eq!(c.cells.both_wrong, ["2"]);
    assert_eq!(c.comparison.table.first_only, 2);
    // McNemar exact with b = 2, c = 0: p = 2 * 0.5^2 = 0.5.
    assert!((c.comparison.mcnemar_p - 0.5).abs() < 1e-12);
    assert_eq!(c.comparison.difference.estimate, 0.5);
}

#[test]
fn kiva_comparison_by_stage_by_hand() {
    // Two trials; a: both all right; b: trial 0 cross 2/3 right, trial 1 cross wrong.
    let a = "Variation,Regeneration,MCResponse#1,MCResponse#2,MCResponse#3\n0,0,1,1,1\n0,1,1,1,1\n0,2,1,1,1\n1,0,1,1,1\n1,1,1,1,1\n1,2,1,1,1\n";
    let b = "Variation,Regeneration,MCResponse#1,MCResponse#2,MCResponse#3\n0,0,1,1,0\n0,1,1,0,0\n0,2,0,,0\n1,0,0,,1\n1,1,0,,1\n1,2,0,,1\n";
    let ra = score_model([("a/output_Colour/ColourRed.csv", a.as_bytes())]).unwrap();
    let rb = score_model([("b/output_Colour/ColourRed.csv", b.as_bytes())]).unwrap();
    let c = compare_kiva(&ra, &rb, 1000, 1).unwrap();
    let cross = &c.stages[0];
    assert_eq!(cross.stage, "cross");
    assert_eq!(cross.n_paired, 2);
    // b's trial 0 cross = 2/3 > 0.5: right; trial 1 = 0: wrong.
    assert_eq!(cross.cells.both_correct, ["ColourRed #0"]);
    assert_eq!(cross.cells.first_only, ["ColourRed #1"]);
    assert!((cross.second_mean - 1.0 / 3.0).abs() < 1e-12);
    assert_eq!(cross.first_mean, 1.0);
    // Conditional stage 2: b trial 0 reached it twice (1, 0) = 0.5, not above one half;
    // trial 1 never reached it: only trial 0 is paired.
    let cond = c
        .stages
        .iter()
        .find(|s| s.stage == "within_conditional")
        .unwrap();
    assert_eq!(cond.n_paired, 1);
    assert_eq!(cond.table.first_only, 1);
    // Stage 3: b trial 0 = 0, trial 1 = 1.
    let ex = c
        .stages
        .iter()
        .find(|s| s.stage == "extrapolation")
        .unwrap();
    assert_eq!(ex.cells.first_only, ["ColourRed #0"]);
    assert_eq!(ex.cells.both_correct, ["ColourRed #1"]);
    assert_eq!(ex.mcnemar_p, 1.0);
}

fn kiva_run(dir: &Path) -> Option<Vec<(String, Vec<u8>)>> {
    let mut out = Vec::new();
    for d in std::fs::read_dir(dir).ok()? {
        let d = d.ok()?.path();
        for f in std::fs::read_dir(&d).ok()? {
            let f = f.ok()?.path();
            out.push((f.to_string_lossy().to_string(), std::fs::read(&f).ok()?));
        }
    }
    Some(out)
}

#[test]
fn kiva_real_runs_compare_on_all_trials() {
    let root = Path::new("/work/shared/data/kiva/model_data/KiVA");
    let (Some(g), Some(m)) = (
        kiva_run(&root.join("gpt4_multi_image")),
        kiva_run(&root.join("mantis_multi_image")),
    ) else {
        eprintln!("skipped: KiVA data absent");
        return;
    };
    let rg = score_model(g.iter().map(|(p, b)| (p.as_str(), b.as_slice()))).unwrap();
    let rm = score_model(m.iter().map(|(p, b)| (p.as_str(), b.as_slice()))).unwrap();
    let c = compare_kiva(&rg, &rm, 2000, 1).unwrap();
    let cross = &c.stages[0];
    // 14 subdomains x 50 variations.
    assert_eq!(cross.n_paired, 700);
    assert_eq!(cross.table.n(), 700);
    // The paired means over all trials equal the reports' overall stage-1 means.
    assert!((cross.first_mean - rg.overall.cross.unwrap().mean).abs() < 1e-12);
    assert!((cross.second_mean - rm.overall.cross.unwrap().mean).abs() < 1e-12);
    let cells = &cross.cells;
    assert_eq!(
        cells.both_correct.len()
            + cells.first_only.len()
            + cells.second_only.len()
            + cells.both_wrong.len(),
        700
    );
    assert!(cross.difference.low <= cross.difference.estimate);
    assert!(cross.difference.estimate <= cross.difference.high);
}

/// Issue 42, defect 9: the comparison of two MM-IQ rows gives the rank board's interval for
/// the same pair. 100 items with ids 1..=100 (text order 1, 10, 100, 11, ..., 2, 20, ...
/// differs from number order), a right on every item but the multiples of 3, b on every item
/// but the multiples of 7 and of 11.
#[test]
fn mmiq_comparison_interval_is_the_rank_boards() {
    use coglab_core::mmiq::{compare, score, AnswerKey, Predictions};
    use coglab_core::ranks::board::{
        build_board, Bench, BoardInput, BoardOptions, BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED,
    };
    use coglab_core::ranks::inputs::mmiq_items;
    let ids = 1..=100u64;
    let key: String = ids
        .clone()
        .map(|i| {
            format!("{{\"category\": \"Mathematical\", \"data_id\": {i}, \"answer\": \"A\"}}\n")
        })
        .collect();
    let key = AnswerKey::parse("k.jsonl", &key).unwrap();
    let preds = |right: &dyn Fn(u64) -> bool| -> String {
        ids.clone()
            .map(|i| {
                let p = if right(i) { "A" } else { "B" };
                format!("{{\"data_id\": {i}, \"parsed_pred\": \"{p}\"}}\n")
            })
            .collect()
    };
    let a = score(
        &key,
        &Predictions::parse("a.jsonl", preds(&|i| i % 3 != 0).as_bytes()).unwrap(),
    )
    .unwrap();
    let b = score(
        &key,
        &Predictions::parse("b.jsonl", preds(&|i| i % 7 != 0 && i % 11 != 0).as_bytes()).unwrap(),
    )
    .unwrap();
    // The board lists a pair better-first: b (100 - 14 - 9 + 1 = 78 right) before a (67).
    let c = compare(&b, &a, BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED).unwrap();
    let board = build_board(
        &BoardInput {
            bench: Bench::Mmiq,
            benchmark_items: None,
            models: vec![
                mmiq_items("a", "a.jsonl", &a),
                mmiq_items("b", "b.jsonl", &b),
            ],
            reported: vec![],
        },
        &BoardOptions::default(),
    )
    .unwrap();
    let pair = &board.pairs[0];
    assert_eq!((pair.a.as_str(), pair.b.as_str()), ("b", "a"));
    // b is right on 78 items, a on 67: the difference is 11/100 by hand.
    assert!((c.difference.estimate - 0.11).abs() < 1e-12);
    assert!((pair.diff - 0.11).abs() < 1e-12);
    assert_eq!(
        (pair.diff_low, pair.diff_high),
        (Some(c.difference.low), Some(c.difference.high)),
        "the board's pair interval and the comparison's"
    );
}
