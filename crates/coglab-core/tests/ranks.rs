//! Leaderboard ranks (issue 20) against independent implementations and real files.
//!
//! Reference figures come from `scripts/ranks-reference.sh` (statsmodels, scipy, krippendorff;
//! see `scripts/ranks_reference.py` for every call), written to `target/ranks-reference/`. A
//! test whose reference file is absent is skipped with a notice, and fails under `CI=true`.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use approx::assert_relative_eq;
use coglab_core::kiva::score_model;
use coglab_core::mmiq::{score as score_mmiq, AnswerKey, Predictions};
use coglab_core::mmopera::files::RegularScores;
use coglab_core::ranks::extraction::{extraction_robustness, kiva_extraction_robustness};
use coglab_core::ranks::inputs::{kiva_items, mmiq_items, mmiq_key_items, KivaStage};
use coglab_core::ranks::judges::{judge_robustness, JudgeFile};
use coglab_core::ranks::{
    build_board, Adjust, Bench, Board, BoardInput, BoardOptions, Missing, ModelScores, PairTest,
    RanksError,
};
use serde_json::Value;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/ranks");

/// A reference file of `scripts/ranks-reference.sh`, or `None` (skip) when absent.
fn reference(name: &str) -> Option<Value> {
    let dir = std::env::var("COGLAB_RANKS_REF").map_or_else(
        |_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/ranks-reference"),
        PathBuf::from,
    );
    let path = dir.join(name);
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(serde_json::from_str(&text).expect("reference JSON")),
        Err(_) => {
            if std::env::var("CI").is_ok_and(|v| v == "true") {
                panic!(
                    "CI=true but {} is missing: run scripts/ranks-reference.sh",
                    path.display()
                );
            }
            eprintln!(
                "SKIP: {} not found; run scripts/ranks-reference.sh first",
                path.display()
            );
            None
        }
    }
}

fn fixture(name: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(format!("{FIXTURES}/{name}")).unwrap()).unwrap()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

/// The binary fixture as a board input (0/1 per item, null = not answered).
fn binary_input() -> BoardInput {
    let fx = fixture("binary.json");
    let items: Vec<String> = fx["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    let models = fx["models"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(name, row)| ModelScores {
            name: name.clone(),
            source: "binary.json".into(),
            items: row
                .as_array()
                .unwrap()
                .iter()
                .zip(&items)
                .filter_map(|(v, id)| v.as_f64().map(|x| (id.clone(), vec![x])))
                .collect(),
        })
        .collect();
    BoardInput {
        bench: Bench::Mmiq,
        benchmark_items: Some(items),
        models,
        reported: vec![],
    }
}

fn opts(missing: Missing) -> BoardOptions {
    BoardOptions {
        missing,
        resamples: 200,
        seed: 7,
        ..BoardOptions::default()
    }
}

fn find<'a>(board: &'a Board, name: &str) -> &'a coglab_core::ranks::ModelRow {
    board.models.iter().find(|m| m.name == name).unwrap()
}

/// McNemar (exact and mid-p), Holm and BH, the Holm rank ranges, Connor's MDD and the paired
/// bootstrap against statsmodels 0.14.4 / scipy 1.14.1 / the Python port of `Rng`
/// (`scripts/ranks_reference.py`, function `binary`).
#[test]
fn binary_board_matches_statsmodels() {
    let Some(r) = reference("binary.json") else {
        return;
    };
    let input = binary_input();
    for (mode, missing) in [
        ("wrong", Missing::Wrong),
        ("answered_only", Missing::AnsweredOnly),
    ] {
        let want = &r[mode];
        let board = build_board(&input, &opts(missing)).unwrap();
        let order: Vec<&str> = board.models.iter().map(|m| m.name.as_str()).collect();
        let want_order: Vec<&str> = want["order"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(order, want_order, "{mode}");
        for m in &board.models {
            assert_relative_eq!(m.score, f(&want["scores"][&m.name]), max_relative = 1e-12);
            let range = &want["holm_ranges"][&m.name];
            assert_eq!(
                (m.tests_rank_low, m.tests_rank_high),
                (
                    range[0].as_u64().unwrap() as usize,
                    range[1].as_u64().unwrap() as usize
                ),
                "{mode} {}",
                m.name
            );
            let boot = &want["boot_ranks"][&m.name];
            assert_eq!(
                (m.boot_rank_low, m.boot_rank_high),
                (
                    Some(boot[0].as_u64().unwrap() as usize),
                    Some(boot[1].as_u64().unwrap() as usize)
                ),
                "{mode} {}",
                m.name
            );
        }
        let pairs = want["pairs"].as_array().unwrap();
        assert_eq!(board.pairs.len(), pairs.len());
        for (got, want) in board.pairs.iter().zip(pairs) {
            assert_eq!(
                (got.a.as_str(), got.b.as_str()),
                (want["a"].as_str().unwrap(), want["b"].as_str().unwrap())
            );
            assert_eq!(got.n_shared as u64, want["n"].as_u64().unwrap());
            assert_eq!(got.a_only, want["a_only"].as_u64());
            assert_eq!(got.b_only, want["b_only"].as_u64());
            assert_relative_eq!(got.p.unwrap(), f(&want["p"]), max_relative = 1e-10);
            assert_relative_eq!(
                got.p_adjusted.unwrap(),
                f(&want["holm"]),
                max_relative = 1e-10
            );
            assert_relative_eq!(got.diff, f(&want["diff"]), epsilon = 1e-12);
            assert_relative_eq!(got.diff_low.unwrap(), f(&want["diff_low"]), epsilon = 1e-12);
            assert_relative_eq!(
                got.diff_high.unwrap(),
                f(&want["diff_high"]),
                epsilon = 1e-12
            );
        }
        let mdd = board.mdd.as_ref().unwrap();
        assert_relative_eq!(mdd.difference, f(&want["mdd"]), max_relative = 1e-9);
        // Benjamini-Hochberg and mid-p.
        let bh = build_board(
            &input,
            &BoardOptions {
                adjust: Adjust::Bh,
                ..opts(missing)
            },
        )
        .unwrap();
        let midp = build_board(
            &input,
            &BoardOptions {
                test: Some(PairTest::McNemarMidP),
                ..opts(missing)
            },
        )
        .unwrap();
        for ((b, m), want) in bh.pairs.iter().zip(&midp.pairs).zip(pairs) {
            assert_relative_eq!(b.p_adjusted.unwrap(), f(&want["bh"]), max_relative = 1e-10);
            assert_relative_eq!(m.p.unwrap(), f(&want["midp"]), max_relative = 1e-9);
        }
    }
}

/// The coverage of the binary fixture by hand: E answered items 0-49 of 80.
#[test]
fn binary_board_coverage_and_leader_group() {
    let board = build_board(&binary_input(), &opts(Missing::Wrong)).unwrap();
    let e = find(&board, "E");
    assert_eq!((e.n, e.benchmark_size, e.full_coverage), (50, 80, false));
    assert_relative_eq!(e.coverage, 0.625, epsilon = 1e-15);
    // Missing counted wrong: E's score is its right answers over 80, its answered-only score
    // the same count over 50.
    assert_relative_eq!(e.score * 80.0, e.score_answered * 50.0, epsilon = 1e-12);
    assert!(board
        .notes
        .iter()
        .any(|n| n.contains("below full coverage") && n.contains('E')));
    // The leader is in its own group; every model sharing its letter `a` is in the leader group.
    assert!(board.models[0].leader_group);
    for m in &board.models {
        assert_eq!(m.leader_group, m.group.contains('a'), "{}", m.name);
        assert!(m.rank_low <= m.rank_high);
        assert_eq!(
            (m.rank_low, m.rank_high),
            (m.tests_rank_low, m.tests_rank_high)
        );
    }
    // --bootstrap-ranks: the rank column shows the bootstrap interval instead.
    let boot = build_board(
        &binary_input(),
        &BoardOptions {
            range: coglab_core::ranks::RankRange::Bootstrap,
            ..opts(Missing::Wrong)
        },
    )
    .unwrap();
    for m in &boot.models {
        assert_eq!(
            (Some(m.rank_low), Some(m.rank_high)),
            (m.boot_rank_low, m.boot_rank_high)
        );
    }
}

/// Wilcoxon signed-rank on item means, Holm, the paired-normal MDD and clustered SEs against
/// scipy 1.14.1 and statsmodels 0.14.4 (`scores_board` in the reference script).
#[test]
fn score_board_matches_scipy_and_statsmodels() {
    let Some(r) = reference("scores.json") else {
        return;
    };
    let fx = fixture("scores.json");
    let items: Vec<String> = fx["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    let models = fx["models"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(name, rows)| ModelScores {
            name: name.clone(),
            source: String::new(),
            items: rows
                .as_array()
                .unwrap()
                .iter()
                .zip(&items)
                .filter(|(v, _)| !v.is_null())
                .map(|(v, id)| {
                    (
                        id.clone(),
                        v.as_array()
                            .unwrap()
                            .iter()
                            .map(|s| s.as_f64().unwrap() / 4.0)
                            .collect(),
                    )
                })
                .collect(),
        })
        .collect();
    let input = BoardInput {
        bench: Bench::Mmopera,
        benchmark_items: Some(items),
        models,
        reported: vec![],
    };
    let board = build_board(&input, &opts(Missing::Wrong)).unwrap();
    assert_eq!(board.test, "wilcoxon");
    let order: Vec<&str> = board.models.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(
        order,
        r["order"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect::<Vec<_>>()
    );
    for (got, want) in board.pairs.iter().zip(r["pairs"].as_array().unwrap()) {
        assert_eq!(got.a, want["a"].as_str().unwrap());
        assert_relative_eq!(got.p.unwrap(), f(&want["p"]), max_relative = 1e-9);
        assert_relative_eq!(
            got.p_adjusted.unwrap(),
            f(&want["holm"]),
            max_relative = 1e-9
        );
    }
    assert_relative_eq!(
        board.mdd.as_ref().unwrap().difference,
        f(&r["mdd"]),
        max_relative = 1e-9
    );
    for m in &board.models {
        let c = m.clustered.unwrap();
        let want = &r["se"][&m.name];
        assert_relative_eq!(c.mean, f(&want["mean"]), max_relative = 1e-12);
        assert_relative_eq!(c.se_naive, f(&want["naive"]), max_relative = 1e-9);
        assert_relative_eq!(c.se_clustered, f(&want["clustered"]), max_relative = 1e-9);
    }
}

fn kiva_files(model: &str) -> Option<Vec<(String, Vec<u8>)>> {
    let dir = common::shared_data(&format!("kiva/model_data/KiVA/{model}"))?;
    let mut files = Vec::new();
    for d in std::fs::read_dir(&dir).unwrap().flatten() {
        for file in std::fs::read_dir(d.path()).unwrap().flatten() {
            files.push((
                file.path().to_string_lossy().to_string(),
                std::fs::read(file.path()).unwrap(),
            ));
        }
    }
    Some(files)
}

fn kiva_run(model: &str) -> Option<coglab_core::kiva::KivaReport> {
    let files = kiva_files(model)?;
    Some(score_model(files.iter().map(|(p, b)| (p.as_str(), b.as_slice()))).unwrap())
}

/// The strict reading of the real KiVA stage-1 answers (a regeneration stays right only when
/// the answer's first two non-empty lines name exactly one option token) against the reference
/// script's own reading of the CSVs with Python's `re` (`kiva` in ranks_reference.py).
#[test]
fn kiva_strict_extraction_on_real_runs() {
    let Some(r) = reference("kiva.json") else {
        return;
    };
    let mut models = Vec::new();
    for name in [
        "gpt4_multi_image",
        "gpt4_single_image",
        "mantis_multi_image",
    ] {
        let Some(files) = kiva_files(name) else {
            return;
        };
        models.push((name.to_string(), files));
    }
    let t = kiva_extraction_robustness(&models, 1);
    for row in &t.rows {
        assert_eq!(row.trials, 700);
        assert_relative_eq!(
            row.scores[0],
            f(&r["scores"][&row.name]),
            max_relative = 1e-12
        );
        assert_relative_eq!(
            row.scores[1],
            f(&r["strict_scores"][&row.name]),
            max_relative = 1e-12
        );
        let strict_flips = row
            .flips
            .iter()
            .filter(|f| f.verdicts[1] != f.verdicts[0])
            .count();
        assert_eq!(
            strict_flips as u64,
            r["strict_flips"][&row.name].as_u64().unwrap(),
            "{}",
            row.name
        );
    }
    // MANTIS answers with the option first every time, so nothing flips under strict.
    let mantis = t
        .rows
        .iter()
        .find(|r| r.name == "mantis_multi_image")
        .unwrap();
    assert!(mantis.flips.iter().all(|f| f.verdicts[1] == f.verdicts[0]));
}

/// The real KiVA runs (GPT-4V multi- and single-image, MANTIS): stage-1 trial means paired over
/// trials (Wilcoxon, Holm) and SEs clustered by trial, against scipy / statsmodels reading the
/// CSVs on their own (`kiva` in the reference script).
#[test]
fn kiva_real_runs_match_scipy_and_statsmodels() {
    let Some(r) = reference("kiva.json") else {
        return;
    };
    let mut models = Vec::new();
    for name in [
        "gpt4_multi_image",
        "gpt4_single_image",
        "mantis_multi_image",
    ] {
        let Some(report) = kiva_run(name) else {
            return;
        };
        models.push(kiva_items(name, &report, KivaStage::Cross));
    }
    let input = BoardInput {
        bench: Bench::Kiva,
        benchmark_items: None,
        models,
        reported: vec![],
    };
    let board = build_board(&input, &opts(Missing::Wrong)).unwrap();
    assert_eq!(board.benchmark_size, 700);
    assert_eq!(board.benchmark_size as u64, r["trials"].as_u64().unwrap());
    for m in &board.models {
        assert_relative_eq!(m.score, f(&r["scores"][&m.name]), max_relative = 1e-12);
        let c = m.clustered.unwrap();
        let want = &r["se"][&m.name];
        assert_relative_eq!(c.mean, f(&want["mean"]), max_relative = 1e-12);
        assert_relative_eq!(c.se_naive, f(&want["naive"]), max_relative = 1e-9);
        assert_relative_eq!(c.se_clustered, f(&want["clustered"]), max_relative = 1e-9);
        // Regenerations of a trial are correlated: the clustered SE is larger.
        assert!(c.se_clustered > c.se_naive, "{}", m.name);
    }
    for (got, want) in board.pairs.iter().zip(r["pairs"].as_array().unwrap()) {
        assert_eq!(
            (got.a.as_str(), got.b.as_str()),
            (want["a"].as_str().unwrap(), want["b"].as_str().unwrap())
        );
        assert_relative_eq!(got.p.unwrap(), f(&want["p"]), max_relative = 1e-8);
        assert_relative_eq!(
            got.p_adjusted.unwrap(),
            f(&want["holm"]),
            max_relative = 1e-8
        );
    }
    // GPT-4V single-image 0.9471, multi-image 0.8857, MANTIS 0.8314: all three pairs differ
    // (Holm p < 0.001 each), so the ranks are 1, 2, 3 with one letter each.
    let shown: Vec<(usize, usize, &str)> = board
        .models
        .iter()
        .map(|m| (m.rank_low, m.rank_high, m.group.as_str()))
        .collect();
    assert_eq!(shown, vec![(1, 1, "a"), (2, 2, "b"), (3, 3, "c")]);
}

/// Krippendorff's α (ordinal) and Kendall's τ-b between judges against the `krippendorff`
/// package 0.8.1 and scipy 1.14.1 `kendalltau` (`judges` in the reference script).
#[test]
fn judges_match_krippendorff_and_kendalltau() {
    let Some(r) = reference("judges.json") else {
        return;
    };
    let mut parsed = Vec::new();
    for m in ["m1", "m2", "m3", "m4"] {
        for j in ["base", "harsh", "lenient"] {
            let name = format!("{m}_RIA_regular_scoring_{j}.json");
            let bytes = std::fs::read(format!("{FIXTURES}/judges/{name}")).unwrap();
            parsed.push((m, j, RegularScores::parse(&name, &bytes).unwrap()));
        }
    }
    let files: Vec<JudgeFile<'_>> = parsed
        .iter()
        .map(|(m, j, s)| JudgeFile {
            model: m,
            judge: j,
            scores: s,
        })
        .collect();
    let known: BTreeSet<String> = (0..15).map(|k| format!("r{k:02}")).collect();
    let out = judge_robustness(&files, Some(&known));
    assert_eq!(out.judges, vec!["base", "harsh", "lenient"]);
    for (mi, m) in out.models.iter().enumerate() {
        for (ji, j) in out.judges.iter().enumerate() {
            assert_relative_eq!(
                out.sr[mi][ji].unwrap(),
                f(&r["sr"][format!("{m}|{j}")]),
                max_relative = 1e-12
            );
        }
    }
    assert_relative_eq!(out.alpha.unwrap(), f(&r["alpha"]), max_relative = 1e-9);
    for (got, want) in out.tau.iter().zip(r["tau"].as_array().unwrap()) {
        assert_eq!(got.a, want["a"].as_str().unwrap());
        assert_relative_eq!(got.tau_b.unwrap(), f(&want["tau_b"]), max_relative = 1e-12);
    }
    // The harsh judge's file for m1 scores "zz_unknown", which the metadata lacks.
    assert!(out
        .notes
        .iter()
        .any(|n| n.contains("m1_RIA_regular_scoring_harsh.json") && n.contains("1 item(s)")));
    // The lenient judge adds a point: its mean is above the base judge's on the top item.
    let top = &out.disagreements[0];
    assert!(top.spread >= 1.0);
}

/// The real MM-IQ example predictions (100 items, 33 right) beside synthetic models made by
/// flipping known items; counts by hand.
#[test]
fn mmiq_example_with_flipped_models() {
    let (Some(key_text), Some(pred_bytes)) = (
        common::shared_text("mmiq/MMIQ_benchmark_answer_dict.jsonl"),
        common::shared_bytes("mmiq/example_output_parsed.jsonl"),
    ) else {
        return;
    };
    let key = AnswerKey::parse("MMIQ_benchmark_answer_dict.jsonl", &key_text).unwrap();
    let preds = Predictions::parse("example_output_parsed.jsonl", &pred_bytes).unwrap();
    let report = score_mmiq(&key, &preds).unwrap();
    assert_eq!((report.overall.correct, report.overall.n), (33, 100));
    let a = mmiq_items("example", "example_output_parsed.jsonl", &report);
    // B: the first 10 right items in file order made wrong, the first 3 wrong ones made right.
    let mut b = a.clone();
    b.name = "flipped".into();
    let (mut to_wrong, mut to_right) = (10, 3);
    for item in &report.items {
        let v = b.items.get_mut(&item.data_id.to_string()).unwrap();
        if item.correct && to_wrong > 0 {
            v[0] = 0.0;
            to_wrong -= 1;
        } else if !item.correct && to_right > 0 {
            v[0] = 1.0;
            to_right -= 1;
        }
    }
    // C: every key item answered, right exactly on the even ids (0, 2, ..., 2708: 1355 items).
    let c = ModelScores {
        name: "even".into(),
        source: String::new(),
        items: key
            .items
            .iter()
            .map(|k| {
                (
                    k.data_id.to_string(),
                    vec![f64::from(u8::from(k.data_id % 2 == 0))],
                )
            })
            .collect(),
    };
    let input = BoardInput {
        bench: Bench::Mmiq,
        benchmark_items: Some(mmiq_key_items(&key)),
        models: vec![a, b, c],
        reported: vec![],
    };
    let board = build_board(&input, &BoardOptions::default()).unwrap();
    let names: Vec<&str> = board.models.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, vec!["even", "example", "flipped"]);
    let ex = find(&board, "example");
    // 33 of 2710 with missing items counted wrong; coverage 100 / 2710.
    assert_relative_eq!(ex.score, 33.0 / 2710.0, epsilon = 1e-15);
    assert_relative_eq!(ex.score_answered, 0.33, epsilon = 1e-15);
    assert_relative_eq!(ex.coverage, 100.0 / 2710.0, epsilon = 1e-15);
    assert!(!ex.full_coverage && find(&board, "even").full_coverage);
    assert_relative_eq!(find(&board, "even").score, 0.5, epsilon = 1e-15);
    let pair = board
        .pairs
        .iter()
        .find(|p| p.a == "example" && p.b == "flipped")
        .unwrap();
    // a_only = 10, b_only = 3, n = 13: p = 2 · (1 + 13 + 78 + 286) / 8192 = 756 / 8192.
    assert_eq!(
        (pair.a_only, pair.b_only, pair.n_shared),
        (Some(10), Some(3), 2710)
    );
    assert_eq!(pair.test, "mcnemar_exact");
    assert_relative_eq!(pair.p.unwrap(), 756.0 / 8192.0, max_relative = 1e-12);
    // Answered only: example 0.33 and flipped 0.26 over their 100 items; compared on those.
    let answered = build_board(
        &input,
        &BoardOptions {
            missing: Missing::AnsweredOnly,
            ..BoardOptions::default()
        },
    )
    .unwrap();
    assert_relative_eq!(find(&answered, "example").score, 0.33, epsilon = 1e-15);
    assert_relative_eq!(find(&answered, "flipped").score, 0.26, epsilon = 1e-15);
    let pair = answered
        .pairs
        .iter()
        .find(|p| p.a == "example" && p.b == "flipped")
        .unwrap();
    assert_eq!((pair.n_shared, pair.n_both_answered), (100, 100));
    assert_relative_eq!(pair.p.unwrap(), 756.0 / 8192.0, max_relative = 1e-12);
}

#[test]
fn board_does_not_depend_on_input_order() {
    let input = binary_input();
    let mut reversed = input.clone();
    reversed.models.reverse();
    let a = build_board(&input, &opts(Missing::Wrong)).unwrap();
    let b = build_board(&reversed, &opts(Missing::Wrong)).unwrap();
    assert_eq!(
        serde_json::to_string(&a).unwrap(),
        serde_json::to_string(&b).unwrap()
    );
}

fn tiny(name: &str, items: &[(&str, f64)]) -> ModelScores {
    ModelScores {
        name: name.into(),
        source: format!("{name}.jsonl"),
        items: items
            .iter()
            .map(|(i, v)| ((*i).to_string(), vec![*v]))
            .collect::<BTreeMap<_, _>>(),
    }
}

#[test]
fn bad_inputs_give_messages_not_panics() {
    // Two models with no shared item, answered only: the pair is untested, the board shows.
    let input = BoardInput {
        bench: Bench::Mmiq,
        benchmark_items: None,
        models: vec![
            tiny("x", &[("1", 1.0), ("2", 0.0)]),
            tiny("y", &[("3", 1.0), ("4", 1.0)]),
        ],
        reported: vec![],
    };
    let board = build_board(
        &input,
        &BoardOptions {
            missing: Missing::AnsweredOnly,
            ..BoardOptions::default()
        },
    )
    .unwrap();
    assert_eq!(board.pairs[0].test, "none");
    assert_eq!(board.pairs[0].p, None);
    assert!(board
        .notes
        .iter()
        .any(|n| n.contains("share no scored item")));
    assert_eq!(
        board
            .models
            .iter()
            .map(|m| (m.rank_low, m.rank_high))
            .collect::<Vec<_>>(),
        vec![(1, 2), (1, 2)]
    );
    // One model only.
    let one = BoardInput {
        models: vec![tiny("x", &[("1", 1.0)])],
        ..input.clone()
    };
    let board = build_board(&one, &BoardOptions::default()).unwrap();
    assert!(board.pairs.is_empty() && board.mdd.is_none());
    assert_eq!(
        (board.models[0].rank_low, board.models[0].rank_high),
        (1, 1)
    );
    assert!(board.notes.iter().any(|n| n.contains("one model only")));
    // Two models of one name; no models at all.
    let dup = BoardInput {
        models: vec![tiny("x", &[("1", 1.0)]), tiny("x", &[("1", 0.0)])],
        ..input.clone()
    };
    let err = build_board(&dup, &BoardOptions::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "two models are named \"x\" (x.jsonl and x.jsonl); give one a name with NAME=PATH"
    );
    let none = BoardInput {
        models: vec![],
        ..input.clone()
    };
    assert!(matches!(
        build_board(&none, &BoardOptions::default()),
        Err(RanksError::NoModels { .. })
    ));
    // Items outside the key are left out with a note.
    let keyed = BoardInput {
        benchmark_items: Some(vec!["1".into(), "2".into()]),
        models: vec![
            tiny("x", &[("1", 1.0), ("9", 1.0)]),
            tiny("y", &[("2", 1.0)]),
        ],
        ..input
    };
    let board = build_board(&keyed, &BoardOptions::default()).unwrap();
    assert!(board.notes.iter().any(|n| n.contains("x: 1 scored item")));
}

/// Extraction robustness on a small fixture of free-form responses, counted by hand.
#[test]
fn extraction_variants_on_responses() {
    let key = AnswerKey::parse(
        "k.jsonl",
        &std::fs::read_to_string(format!("{FIXTURES}/extraction_key.jsonl")).unwrap(),
    )
    .unwrap();
    let preds = |name: &str| {
        let bytes = std::fs::read(format!("{FIXTURES}/{name}")).unwrap();
        score_mmiq(&key, &Predictions::parse(name, &bytes).unwrap()).unwrap()
    };
    let (one, two) = (
        preds("extraction_model1.jsonl"),
        preds("extraction_model2.jsonl"),
    );
    let t = extraction_robustness(&[("one".into(), &one), ("two".into(), &two)], 6);
    // model 1 (key A B C D E A):               official / strict / lenient
    //   0 "The answer is A."                     A / A / A       all right
    //   1 "(C) looks close, but B"               C / - / C       all wrong (official: the last
    //                                            standalone letter's line, its first letter)
    //   2 "\boxed{C}"                            C / C / C       all right
    //   3 "Answer: (D)"                          D / D / D       all right
    //   4 "I think (A) or E.\nE"                 E / - / A       right, wrong, wrong
    //   5 "The answer is C." (key A)             C / C / C       all wrong
    // right: official 4 (0, 2, 3, 4), strict 3 (0, 2, 3), lenient 3 (0, 2, 3).
    let r1 = t.rows.iter().find(|r| r.name == "one").unwrap();
    assert_eq!(r1.correct, [4, 3, 3]);
    assert_eq!(
        r1.flips.iter().map(|f| f.data_id).collect::<Vec<_>>(),
        vec![4]
    );
    // model 2:
    //   0 "A"                                    A / - / A
    //   1 "B is my pick, not C.\nFinal answer: C" C / C / B       (key B)
    //   2 "Option C fits.\nAnswer: C"            C / C / C
    //   3 "The answer is D"                      D / D / D
    //   4 "E. Hence the answer is A"             A / A / E       (key E)
    //   5 "A. The answer is B"                   B / B / A       (key A)
    // right: official 3 (0, 2, 3), strict 2 (2, 3), lenient 6.
    let r2 = t.rows.iter().find(|r| r.name == "two").unwrap();
    assert_eq!(r2.correct, [3, 2, 6]);
    assert_eq!(
        r2.flips.iter().map(|f| f.data_id).collect::<Vec<_>>(),
        vec![0, 1, 4, 5]
    );
    // Official: one 4/6 above two 3/6; lenient: two 6/6 above one 3/6 -> both change rank.
    assert_eq!((r1.ranks, r2.ranks), ([1, 1, 2], [2, 2, 1]));
    assert_eq!((r1.rank_change, r2.rank_change), (1, 1));
    assert_relative_eq!(r2.score_range, 4.0 / 6.0, epsilon = 1e-15);
}

/// Issue 27 (no input of 10 MB may take more than 1 GB): `coglab rank mmiq` on 50 models of
/// 2,710 items (5 MB of JSONL) with `--resamples 1000000` aborted allocating its bootstrap
/// values (one per resample for each model and each of the 1,225 pairs: 10 GB). The board now
/// refuses more than `limits::MAX_BOOTSTRAP_VALUES` values, saying how many resamples fit,
/// and refuses resamples above `limits::MAX_RESAMPLES` itself (the CLI did, the core did not).
#[test]
fn a_bootstrap_too_large_to_keep_is_refused_with_the_resamples_that_fit() {
    let models: Vec<ModelScores> = (0..10)
        .map(|m| ModelScores {
            name: format!("m{m}"),
            source: format!("m{m}.jsonl"),
            items: (0..20)
                .map(|i| (format!("{i}"), vec![f64::from(u8::from((i + m) % 3 == 0))]))
                .collect(),
        })
        .collect();
    let input = BoardInput {
        bench: Bench::Mmiq,
        benchmark_items: None,
        models,
        reported: vec![],
    };
    let with = |resamples| BoardOptions {
        resamples,
        seed: 1,
        ..BoardOptions::default()
    };
    // 10 models: 45 pairs + 10 models = 55 values per resample; 55 x 1,000,000 = 55,000,000
    // > 25,000,000; 25,000,000 / 55 = 454,545 resamples fit.
    let e = build_board(&input, &with(1_000_000)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "resamples: 1000000 resamples of 10 models keep 55000000 bootstrap values (one per \
         resample for each model and each of the 45 pairs of models), more than the 25000000 \
         allowed; use at most 454545 resamples"
    );
    let e = build_board(&input, &with(2_000_001)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "resamples: at most 1000000 allowed, found 2000001"
    );
    // A board within the bound is built (200 resamples: 11,000 values).
    let b = build_board(&input, &with(200)).unwrap();
    assert_eq!(b.models.len(), 10);
}

/// One regeneration of a real KiVA run: its stage answer and released outcome.
fn kiva_row(
    model: &str,
    file: &str,
    variation: u64,
    regeneration: u64,
    stage: usize,
) -> Option<(String, coglab_core::kiva::Outcome)> {
    let rel = format!("kiva/model_data/KiVA/{model}/{file}");
    let bytes = common::shared_bytes(&rel)?;
    let rows = coglab_core::kiva::trial_answers(&rel, &bytes, variation).unwrap();
    let r = rows
        .into_iter()
        .find(|r| r.regeneration == regeneration)
        .unwrap();
    Some((r.answers[stage - 1].clone().unwrap(), r.outcomes[stage - 1]))
}

/// The lenient reading of single real KiVA answers, worked by hand from the CSV text.
#[test]
fn kiva_lenient_on_real_rows() {
    use coglab_core::kiva::Outcome;
    use coglab_core::ranks::extraction::{kiva_lenient, LenientReading};
    // GPT-4V multi-image, ColourRed variation 0 regeneration 0, stage 1: "(3) Color of
    // objects ..." with MCResponse#1 = 1. The first reference is the label 3 of "(3)", the
    // token the repository read, so the released verdict (right) stands.
    let Some((a, o)) = kiva_row("gpt4_multi_image", "output_Colour/ColourRed.csv", 0, 0, 1) else {
        return;
    };
    assert_eq!(o, Outcome::Correct);
    let r = kiva_lenient(&a, "ColourRed", 1, o);
    assert!(
        matches!(
            r,
            LenientReading::Label {
                label: '3',
                verdict: Some(true),
                ..
            }
        ),
        "{r:?}"
    );
    // GPT-4V single-image, Resize2XY variation 21 regeneration 1, stage 1 (MCResponse#1 = 0):
    // "...\n\n1. The color changes from brown to red ... rule (4) doesn't apply ... (1) Color of
    // objects". The repository read "(4)" (earliest token): wrong. The lenient rule reads the
    // list's "1" first; the answer ties 1 to "Color of objects", not Resize's "Size of
    // objects": wrong too.
    let Some((a, o)) = kiva_row("gpt4_single_image", "output_Resize/Resize2XY.csv", 21, 1, 1)
    else {
        return;
    };
    assert_eq!(o, Outcome::Wrong);
    let r = kiva_lenient(&a, "Resize2XY", 1, o);
    assert_eq!(r.verdict(), Some(false));
    assert!(
        r.describe().contains("Color of objects"),
        "{}",
        r.describe()
    );
    // MANTIS, 2DRotation180 variation 15 regeneration 0, stage 1: the answer is "C" (a stage-3
    // letter), MCResponse#1 = Null. No stage-1 label (1-6) and no option text: nothing, wrong.
    let Some((a, o)) = kiva_row(
        "mantis_multi_image",
        "output_2DRotation/2DRotation180.csv",
        15,
        0,
        1,
    ) else {
        return;
    };
    assert_eq!((a.as_str(), o), ("C", Outcome::Null));
    assert_eq!(
        kiva_lenient(&a, "2DRotation180", 1, o),
        LenientReading::Nothing
    );
    // GPT-4V multi-image, Counting+2 variation 38 regeneration 1, stage 2 (MCResponse#2 = 0):
    // "... (such as things going down by 2 or up by 2) ... (4) Doesn't apply". The first
    // reference is the "2" of "down by 2" (standalone), not the repository's "(4)", tied to no
    // text, on a wrong regeneration: undetermined.
    let Some((a, o)) = kiva_row(
        "gpt4_multi_image",
        "output_Counting/Counting+2.csv",
        38,
        1,
        2,
    ) else {
        return;
    };
    assert_eq!(o, Outcome::Wrong);
    let r = kiva_lenient(&a, "Counting+2", 2, o);
    assert!(
        matches!(
            r,
            LenientReading::Label {
                label: '2',
                verdict: None,
                ..
            }
        ),
        "{r:?}"
    );
    // Same run, Counting+2 variation 3 regeneration 2, stage 2 (MCResponse#2 = 1): the reasoning
    // names a bare "2" before the repository's right token "(1)": another label than the
    // right one, so wrong.
    let Some((a, o)) = kiva_row(
        "gpt4_multi_image",
        "output_Counting/Counting+2.csv",
        3,
        2,
        2,
    ) else {
        return;
    };
    assert_eq!(o, Outcome::Correct);
    let r = kiva_lenient(&a, "Counting+2", 2, o);
    assert!(
        matches!(
            r,
            LenientReading::Label {
                label: '2',
                verdict: Some(false),
                ..
            }
        ),
        "{r:?}"
    );
    // Counting-2 variation 16 regeneration 2, stage 2 (MCResponse#2 = Null, no token): the
    // answer says "things go down by 1" (any case): the option text of Counting-1, wrong here.
    let Some((a, o)) = kiva_row(
        "gpt4_multi_image",
        "output_Counting/Counting-2.csv",
        16,
        2,
        2,
    ) else {
        return;
    };
    assert_eq!(o, Outcome::Null);
    assert_eq!(
        kiva_lenient(&a, "Counting-2", 2, o),
        LenientReading::Text {
            text: "Things go down by 1".into(),
            right: false
        }
    );
}

/// The lenient reading of every real KiVA run, stages 1-3, against the reference script's own
/// reading of the CSVs with Python's `re` (`kiva_lenient` in ranks_reference.py).
#[test]
fn kiva_lenient_extraction_matches_the_reference() {
    let Some(r) = reference("kiva.json") else {
        return;
    };
    let mut models = Vec::new();
    for name in [
        "gpt4_multi_image",
        "gpt4_single_image",
        "mantis_multi_image",
    ] {
        let Some(files) = kiva_files(name) else {
            return;
        };
        models.push((name.to_string(), files));
    }
    for stage in 1..=3 {
        let t = kiva_extraction_robustness(&models, stage);
        for row in &t.rows {
            let want = &r["lenient"][&row.name][stage.to_string()];
            assert_relative_eq!(row.scores[2], f(&want["score"]), max_relative = 1e-12);
            assert_relative_eq!(row.lenient_high, f(&want["high"]), max_relative = 1e-12);
            assert_eq!(
                row.lenient_undetermined as u64,
                want["undetermined"].as_u64().unwrap(),
                "{} stage {stage}",
                row.name
            );
            assert_eq!(row.flip_count as u64, want["flips"].as_u64().unwrap());
            assert_eq!(row.flips.len(), row.flip_count);
        }
    }
}

/// The web worker's rank board on the real KiVA runs (the rows as the leaderboard scores them,
/// with their run files): the board's figures are the reference script's (scipy / statsmodels
/// reading the CSVs), ids come back on their rows, and the extraction table lists at most 20
/// flips per row while counting them all (GPT-4V single-image: 54 on stage 1, the reference's
/// count).
#[test]
fn rank_board_on_real_kiva_runs() {
    use coglab_core::ranks::view::{rank_board, RankEntry, RankRequest, RankSource};
    let Some(r) = reference("kiva.json") else {
        return;
    };
    let mut runs = Vec::new();
    for name in [
        "gpt4_multi_image",
        "gpt4_single_image",
        "mantis_multi_image",
    ] {
        let Some(files) = kiva_files(name) else {
            return;
        };
        let report = score_model(files.iter().map(|(p, b)| (p.as_str(), b.as_slice()))).unwrap();
        runs.push((name, report, files));
    }
    let entries: Vec<RankEntry<'_>> = runs
        .iter()
        .enumerate()
        .map(|(k, (name, report, files))| RankEntry {
            id: coglab_core::leaderboard::RowId {
                generation: 1,
                n: 10 + k as u32,
            },
            name,
            source: RankSource::Kiva {
                report,
                files: Some(files),
            },
        })
        .collect();
    let b = rank_board(&entries, &RankRequest::new(Bench::Kiva));
    let board = b.board.as_ref().unwrap();
    let order: Vec<&str> = r["order"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let got: Vec<&str> = b.models.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(got, order);
    for m in &b.models {
        let k = [
            "gpt4_multi_image",
            "gpt4_single_image",
            "mantis_multi_image",
        ]
        .iter()
        .position(|n| *n == m.name)
        .unwrap();
        assert_eq!(m.id.n, 10 + k as u32);
        assert_relative_eq!(m.score, f(&r["scores"][&m.name]), max_relative = 1e-12);
        // Clustered by trial, 1.2-1.5 times the naive SE: shown.
        assert!(m.se_text.as_deref().unwrap().contains("clustered by trial"));
        assert!(m.coverage_text.is_none());
    }
    for (got, want) in board.pairs.iter().zip(r["pairs"].as_array().unwrap()) {
        assert_relative_eq!(
            got.p_adjusted.unwrap(),
            f(&want["holm"]),
            max_relative = 1e-9
        );
    }
    // Ranks 1, 2, 3 with letters a, b, c (every Holm-adjusted p below 0.05).
    let shown: Vec<(&str, &str)> = b
        .models
        .iter()
        .map(|m| (m.rank_text.as_str(), m.group.as_str()))
        .collect();
    assert_eq!(shown, [("1", "a"), ("2", "b"), ("3", "c")]);
    assert!(b.header.contains("Wilcoxon") && b.header.contains("Holm"));
    assert!(b
        .mdd_text
        .as_deref()
        .unwrap()
        .starts_with("differences below"));
    let x = b.kiva_extraction.as_ref().unwrap();
    assert_eq!(x.rules, ["official", "strict", "lenient"]);
    let single = x
        .rows
        .iter()
        .find(|r| r.name == "gpt4_single_image")
        .unwrap();
    assert_eq!(single.flip_count, 54);
    assert_eq!(single.flips.len(), 20);
    // The panels the page shows carry the same figures: the pairs' adjusted p as exact values,
    // the extraction table's flips column, 20 listed flips of 54.
    let pairs = b.panel("pairs").unwrap();
    assert_eq!(pairs.rows.len(), 3);
    for (row, want) in pairs.rows.iter().zip(&board.pairs) {
        assert_eq!(row.key, format!("{}|{}", want.a, want.b));
        let q: f64 = row.cells[6].value.as_deref().unwrap().parse().unwrap();
        assert_eq!(q, want.p_adjusted.unwrap());
    }
    let xp = b.panel("extraction").unwrap();
    let heads: Vec<&str> = xp.columns.iter().map(|c| c.0.as_str()).collect();
    assert_eq!(heads[1..4], ["official", "strict", "lenient"]);
    let srow = xp
        .rows
        .iter()
        .find(|r| r.key == "gpt4_single_image")
        .unwrap();
    assert_eq!(srow.cells.last().unwrap().value.as_deref(), Some("54"));
    let list = xp
        .lists
        .iter()
        .find(|l| l.head.starts_with("gpt4_single_image"))
        .unwrap();
    assert_eq!(list.items.len(), 20);
    assert!(list.head.contains("54") && list.head.contains("first 20 listed"));
    let rows = b.panel("rank-rows").unwrap();
    assert_eq!(rows.rows[0].cells[1].value.as_deref(), Some("a"));
}

/// The judge table of the rank board from MM-OPERA rows as the leaderboard scores them (three
/// judges' files per model pooled into one row): the same figures as from the judge files
/// themselves, which `judges_match_krippendorff_and_kendalltau` checks against krippendorff and
/// scipy.
#[test]
fn rank_board_judges_from_leaderboard_rows() {
    use coglab_core::leaderboard::{score_files, InputRef};
    use coglab_core::ranks::view::{rank_board, RankEntry, RankRequest, RankSource};
    let Some(r) = reference("judges.json") else {
        return;
    };
    let mut files = Vec::new();
    for m in ["m1", "m2", "m3", "m4"] {
        for j in ["base", "harsh", "lenient"] {
            let name = format!("{m}_RIA_regular_scoring_{j}.json");
            let bytes = std::fs::read(format!("{FIXTURES}/judges/{name}")).unwrap();
            files.push((name, bytes));
        }
    }
    let inputs: Vec<InputRef<'_>> = files
        .iter()
        .map(|(p, b)| InputRef {
            path: p,
            bytes: b,
            model: None,
        })
        .collect();
    let scored = score_files(&inputs, |_, _, _| {});
    assert_eq!(scored.mmopera.len(), 4);
    let entries: Vec<RankEntry<'_>> = scored
        .mmopera
        .iter()
        .enumerate()
        .map(|(k, row)| RankEntry {
            id: coglab_core::leaderboard::RowId {
                generation: 1,
                n: k as u32,
            },
            name: &row.model,
            source: RankSource::Mmopera(row),
        })
        .collect();
    let b = rank_board(&entries, &RankRequest::new(Bench::Mmopera));
    let j = b.judges.as_ref().unwrap();
    assert_eq!(j.judges, vec!["base", "harsh", "lenient"]);
    for (mi, m) in j.models.iter().enumerate() {
        for (ji, judge) in j.judges.iter().enumerate() {
            assert_relative_eq!(
                j.sr[mi][ji].unwrap(),
                f(&r["sr"][format!("{m}|{judge}")]),
                max_relative = 1e-12
            );
        }
    }
    assert_relative_eq!(j.alpha.unwrap(), f(&r["alpha"]), max_relative = 1e-9);
    assert_eq!(b.models.len(), 4);
    assert!(b.panel("extraction").unwrap().message.is_some());
}

/// Issue 27 (no input of 10 MB may run more than 20 s): `coglab rank mmiq` of two models on
/// MM-IQ's 2,710 items with `--resamples 1000000` drew 2.71 billion items (88 s in a release
/// build at load 12). The board refuses more than `limits::MAX_RESAMPLED_DRAWS` draws:
/// 200,000,000 / 2,710 = 73,800 resamples fit.
#[test]
fn a_bootstrap_of_too_many_draws_is_refused_with_the_resamples_that_fit() {
    let models: Vec<ModelScores> = (0..2)
        .map(|m| ModelScores {
            name: format!("m{m}"),
            source: format!("m{m}.jsonl"),
            items: (0..2710)
                .map(|i| (format!("{i}"), vec![f64::from(u8::from((i + m) % 3 == 0))]))
                .collect(),
        })
        .collect();
    let input = BoardInput {
        bench: Bench::Mmiq,
        benchmark_items: None,
        models,
        reported: vec![],
    };
    let opts = BoardOptions {
        resamples: 1_000_000,
        seed: 1,
        ..BoardOptions::default()
    };
    let e = build_board(&input, &opts).unwrap_err();
    assert_eq!(
        e.to_string(),
        "resamples: 1000000 resamples of 2710 items make 2710000000 draws, more than the \
         200000000 allowed; use at most 73800 resamples"
    );
}
