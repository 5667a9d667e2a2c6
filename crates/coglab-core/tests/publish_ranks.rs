//! The bundle's rank files (issue 21: the rank groups of published rows in one request per
//! board): a small hand-made bundle's MM-IQ rank file holds each model's verdicts in key order,
//! is listed in the index with its SHA-256, and the rank groups over the rows filled from it
//! are the hand-worked ones.

use std::collections::BTreeMap;

use coglab_core::leaderboard::Detail;
use coglab_core::publish::build;
use coglab_core::publish::bundle::{sha256_hex, InputFile};
use coglab_core::publish::ranks::{fill, RankItems, RanksFile};
use coglab_core::publish::site::board_rows;
use coglab_core::publish::{check_ranks, Benchmark, Manifest};
use coglab_core::ranks::view::{rank_board, RankEntry, RankRequest, RankSource};
use coglab_core::ranks::Bench;

/// 20 MM-IQ items, all answered "A" in the key (ids 0-19); three models:
/// - a: items 0-17 right, 18-19 wrong (answered B);
/// - b: items 0-1 right, 2-19 wrong;
/// - c: items 0-16 right, 17-18 wrong, no prediction for item 19.
fn small_bundle() -> coglab_core::publish::Bundle {
    let mut files: BTreeMap<String, String> = BTreeMap::new();
    let key: String = (0..20)
        .map(|i| {
            format!("{{\"category\": \"Mathematical\", \"data_id\": {i}, \"answer\": \"A\"}}\n")
        })
        .collect();
    files.insert("key.jsonl".into(), key);
    let preds = |right: u32, last: u32| -> String {
        (0..last)
            .map(|i| {
                format!(
                    "{{\"data_id\": {i}, \"parsed_pred\": \"{}\"}}\n",
                    if i < right { "A" } else { "B" }
                )
            })
            .collect()
    };
    files.insert("a.jsonl".into(), preds(18, 20));
    files.insert("b.jsonl".into(), preds(2, 20));
    files.insert("c.jsonl".into(), preds(17, 19));
    let mut manifest = String::from("[keys]\nmmiq = \"key.jsonl\"\n");
    for m in ["a", "b", "c"] {
        manifest.push_str(&format!(
            "\n[[model]]\nname = \"{m}\"\n[[model.run]]\nbenchmark = \"mmiq\"\nfiles = [\"{m}.jsonl\"]\n"
        ));
    }
    let parsed = Manifest::parse("leaderboard.toml", &manifest).unwrap();
    build(
        &parsed,
        &manifest,
        |p| {
            files
                .get(&p.path)
                .map(|b| {
                    vec![InputFile {
                        path: p.path.clone(),
                        bytes: b.clone().into_bytes(),
                    }]
                })
                .ok_or_else(|| "absent".to_string())
        },
        &[],
    )
    .unwrap()
}

#[test]
fn the_mmiq_rank_file_holds_the_verdicts_in_key_order_and_is_listed_with_its_hash() {
    let bundle = small_bundle();
    assert_eq!(bundle.index.ranks.len(), 1);
    let r = &bundle.index.ranks[0];
    assert_eq!(
        (r.benchmark, r.path.as_str()),
        (Benchmark::Mmiq, "items/ranks-mmiq.json")
    );
    let bytes = &bundle.files.iter().find(|(p, _)| *p == r.path).unwrap().1;
    assert_eq!(r.sha256, sha256_hex(bytes));
    assert!(check_ranks(&bundle.index, &bundle.files).is_ok());
    // A changed byte is caught, naming the file.
    let mut tampered = bundle.files.clone();
    for (p, b) in &mut tampered {
        if *p == r.path {
            let at = b.iter().position(|c| *c == b'1').unwrap();
            b[at] = b'0';
        }
    }
    let e = check_ranks(&bundle.index, &tampered)
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("items/ranks-mmiq.json: SHA-256 "), "{e}");
    let file: RanksFile = serde_json::from_slice(bytes).unwrap();
    assert_eq!(file.ids, (0..20).collect::<Vec<u64>>());
    let verdicts: Vec<(usize, &str, &str)> = file
        .rows
        .iter()
        .map(|row| match &row.items {
            RankItems::Mmiq(v) => (row.model, row.name.as_str(), v.as_str()),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        verdicts,
        [
            (0, "a", "11111111111111111100"),
            (1, "b", "11000000000000000000"),
            (2, "c", "1111111111111111100-"),
        ]
    );
}

#[test]
fn rank_groups_of_rows_filled_from_the_rank_file_are_the_hand_worked_ones() {
    let bundle = small_bundle();
    let bytes = &bundle
        .files
        .iter()
        .find(|(p, _)| p == "items/ranks-mmiq.json")
        .unwrap()
        .1;
    let file: RanksFile = serde_json::from_slice(bytes).unwrap();
    // The site's rows: summaries from the index, items from the rank file.
    let (rows, sources) = board_rows(&bundle.index);
    let details: Vec<Detail> = rows
        .mmiq
        .iter()
        .zip(&sources)
        .map(|(r, s)| {
            let mut d = Detail::Mmiq(r.report.clone());
            fill(&mut d, &file, s.model).unwrap();
            d
        })
        .collect();
    let reports: Vec<_> = details
        .iter()
        .map(|d| match d {
            Detail::Mmiq(r) => r,
            _ => unreachable!(),
        })
        .collect();
    // c: 19 items scored (item 19 has no prediction), 17 right.
    assert_eq!(
        (reports[2].items.len(), reports[2].overall.correct),
        (19, 17)
    );
    let names = ["a", "b", "c"];
    let entries: Vec<RankEntry<'_>> = reports
        .iter()
        .zip(names)
        .enumerate()
        .map(|(i, (r, name))| RankEntry {
            id: coglab_core::leaderboard::RowId {
                generation: 1,
                n: i as u32 + 1,
            },
            name,
            source: RankSource::Mmiq(r),
        })
        .collect();
    let board = rank_board(&entries, &RankRequest::new(Bench::Mmiq));
    assert_eq!(board.error, None);
    // By hand (every key item counts, no answer wrong): a 18/20, c 17/20, b 2/20.
    // Exact McNemar on the discordant items: a vs b 16 vs 0, p = 2 * 0.5^16 = 3.05e-5;
    // c vs b 15 vs 0, p = 2 * 0.5^15 = 6.10e-5; a vs c 1 vs 0, p = 1. Holm over the 3 pairs:
    // 3 * 3.05e-5 = 9.2e-5 and 2 * 6.10e-5 = 1.2e-4 below 0.05, 1 not: a and c share a group
    // above b, and each of them may rank 1st or 2nd.
    let got: Vec<(&str, &str, &str)> = board
        .models
        .iter()
        .map(|m| (m.name.as_str(), m.rank_text.as_str(), m.group.as_str()))
        .collect();
    assert_eq!(got, [("a", "1–2", "a"), ("c", "1–2", "a"), ("b", "3", "b")]);
    let scores: Vec<f64> = board.models.iter().map(|m| m.score).collect();
    assert_eq!(scores, [0.9, 0.85, 0.1]);
}

#[test]
fn a_row_missing_from_the_rank_file_or_of_another_kind_is_an_error() {
    let bundle = small_bundle();
    let bytes = &bundle
        .files
        .iter()
        .find(|(p, _)| p == "items/ranks-mmiq.json")
        .unwrap()
        .1;
    let file: RanksFile = serde_json::from_slice(bytes).unwrap();
    let (rows, _) = board_rows(&bundle.index);
    let mut d = Detail::Mmiq(rows.mmiq[0].report.clone());
    assert_eq!(
        fill(&mut d, &file, 7).unwrap_err(),
        "items/ranks-mmiq.json: no row for model 7"
    );
    let mut bad = file.clone();
    bad.rows[0].items = RankItems::Mmiq("1x".into());
    assert!(fill(&mut d, &bad, 0)
        .unwrap_err()
        .contains("a's verdicts have 2 characters for 20 items"));
}
