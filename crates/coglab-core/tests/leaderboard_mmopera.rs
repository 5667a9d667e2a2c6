//! MM-OPERA files dropped on the leaderboard: detection, grouping by model and task, scores
//! equal to the hand-worked values of tests/mmopera.rs, located errors, the two-model
//! comparison (5×5 table, paired bootstrap of the SR difference).

use approx::assert_relative_eq;
use coglab_core::leaderboard::mmopera::{
    compare, paired_bootstrap_mean_diff, CompareArgs, MmoperaRow,
};
use coglab_core::leaderboard::{detect, score_files, FileKind, FileState, InputRef, Scored};
use coglab_core::mmopera::Task;
use coglab_core::stats::paired::paired_bootstrap_diff;

fn fixture(rel: &str) -> (String, Vec<u8>) {
    let path = format!(
        "{}/tests/fixtures/mmopera/{rel}",
        env!("CARGO_MANIFEST_DIR")
    );
    (rel.to_string(), std::fs::read(&path).unwrap())
}

fn run(files: &[(String, Vec<u8>)]) -> Scored {
    let inputs: Vec<InputRef> = files
        .iter()
        .map(|(p, b)| InputRef {
            path: p,
            bytes: b,
            model: None,
        })
        .collect();
    score_files(&inputs, |_, _, _| {})
}

fn row<'a>(s: &'a Scored, model: &str) -> &'a MmoperaRow {
    s.mmopera.iter().find(|r| r.model == model).unwrap()
}

#[test]
fn detects_every_fixture_including_csv_metadata() {
    for rel in [
        "ria/metadata.csv",
        "ria/metadata.json",
        "ria/modelx_RIA_results.json",
        "ria/modelx_RIA_regular_scoring.json",
        "ria/modelx_RIA_reasoning_scoring.json",
        "ica/metadata.csv",
        "ica/modelx_ICA_regular_scoring.json",
        "ica/human_ICA_rescore.json",
    ] {
        let (p, b) = fixture(rel);
        assert_eq!(detect(&p, &b), FileKind::Mmopera, "{rel}");
    }
}

#[test]
fn ria_and_ica_of_one_model_form_one_row() {
    let s = run(&[
        fixture("ria/metadata.csv"),
        fixture("ria/modelx_RIA_results.json"),
        fixture("ria/modelx_RIA_regular_scoring.json"),
        fixture("ria/modelx_RIA_reasoning_scoring.json"),
        fixture("ica/metadata.csv"),
        fixture("ica/modelx_ICA_results.json"),
        fixture("ica/modelx_ICA_regular_scoring.json"),
    ]);
    assert!(
        s.files.iter().all(|f| f.status == FileState::Ok),
        "{:?}",
        s.files
    );
    assert_eq!(s.mmopera.len(), 1);
    let r = row(&s, "modelx");
    // RIA, hand-worked in tests/mmopera.rs: SR 17/28, HR-3 4/7, HR-4 2/7, ΔHR 2/7; S_r 0.91106.
    let ria = r.ria.as_ref().unwrap();
    assert_eq!(ria.metadata_file.as_deref(), Some("ria/metadata.csv"));
    let h = ria.holistic.as_ref().unwrap();
    assert_relative_eq!(h.score_rate, 17.0 / 28.0, max_relative = 1e-12);
    assert_relative_eq!(h.hr3, 4.0 / 7.0, max_relative = 1e-12);
    assert_relative_eq!(h.hr4, 2.0 / 7.0, max_relative = 1e-12);
    assert_relative_eq!(h.delta_hr, 2.0 / 7.0, max_relative = 1e-12);
    assert_relative_eq!(h.by.domain["Nature"].score_rate, 0.875);
    assert_relative_eq!(h.by.hop_count["2"].score_rate, 0.75);
    assert_relative_eq!(h.by.l1["Conception"].score_rate, 0.625);
    let p = ria.reasoning.as_ref().unwrap();
    assert_eq!(p.n, 5);
    assert_relative_eq!(p.mean_score, 0.911_06, max_relative = 1e-12);
    // Items: r1..r7 with their counted scores (r5 "N/A" counts 0); S_r of r1 1.8748.
    let ids: Vec<&str> = ria.items.iter().map(|i| i.id.as_str()).collect();
    assert_eq!(ids, ["r1", "r2", "r3", "r4", "r5", "r6", "r7"]);
    let scores: Vec<u8> = ria.items.iter().flat_map(|i| i.scores.clone()).collect();
    assert_eq!(scores, [4, 3, 2, 1, 0, 4, 3]);
    assert_relative_eq!(ria.items[0].s_r.unwrap(), 1.8748, max_relative = 1e-12);
    // ICA: SR 34/60, HR-3 7/15, HR-4 0.2, ΔHR 4/15 (tests/mmopera.rs, ica_holistic).
    let ica = r.ica.as_ref().unwrap();
    assert_eq!(ica.metadata_file.as_deref(), Some("ica/metadata.csv"));
    let h = ica.holistic.as_ref().unwrap();
    assert_relative_eq!(h.score_rate, 34.0 / 60.0, max_relative = 1e-12);
    assert_relative_eq!(h.hr3, 7.0 / 15.0, max_relative = 1e-12);
    assert_relative_eq!(h.hr4, 0.2, max_relative = 1e-12);
    assert_relative_eq!(h.delta_hr, 4.0 / 15.0, max_relative = 1e-12);
    assert!(ica.reasoning.is_none());
    // Metadata files are attributed to no model.
    assert_eq!(s.files[0].model, "");
    assert_eq!(s.files[2].model, "modelx");
}

#[test]
fn several_judges_of_a_model_are_pooled_as_the_cli_does() {
    let s = run(&[
        fixture("ria/metadata.json"),
        fixture("ria/modelx_RIA_regular_scoring.json"),
        fixture("ria/modelx_RIA_regular_scoring_deepseek.json"),
        fixture("ria/modelx_RIA_reasoning_scoring.json"),
        fixture("ria/modelx_RIA_reasoning_scoring_deepseek.json"),
    ]);
    let ria = row(&s, "modelx").ria.as_ref().unwrap();
    // tests/mmopera.rs: pooled N 13, SR 33/52, HR-3 8/13, HR-4 4/13; S_r 5.0634/6.
    let h = ria.holistic.as_ref().unwrap();
    assert_eq!(h.n, 13);
    assert_relative_eq!(h.score_rate, 33.0 / 52.0, max_relative = 1e-12);
    assert_relative_eq!(h.hr3, 8.0 / 13.0, max_relative = 1e-12);
    assert_relative_eq!(h.hr4, 4.0 / 13.0, max_relative = 1e-12);
    assert_relative_eq!(
        ria.reasoning.as_ref().unwrap().mean_score,
        5.0634 / 6.0,
        max_relative = 1e-12
    );
    assert_eq!(ria.regular_files.len(), 2);
    // r1: GPT-4o 4, DeepSeek 4.
    assert_eq!(ria.items[0].scores, [4, 4]);
}

#[test]
fn without_metadata_scores_without_breakdowns() {
    let s = run(&[fixture("ria/modelx_RIA_regular_scoring.json")]);
    let ria = row(&s, "modelx").ria.as_ref().unwrap();
    assert!(ria.metadata_file.is_none());
    let h = ria.holistic.as_ref().unwrap();
    assert_relative_eq!(h.score_rate, 17.0 / 28.0, max_relative = 1e-12);
    assert!(h.by.domain.is_empty());
    assert!(ria.notes[0].contains("no MM-OPERA metadata"));
}

#[test]
fn a_bad_file_gets_a_located_error_and_the_others_are_scored() {
    let bad = (
        "broken_RIA_regular_scoring.json".to_string(),
        b"{\"r1\": {\"score_judge\": \"4\"},\n  \"r2\": }".to_vec(),
    );
    let s = run(&[
        fixture("ria/metadata.csv"),
        bad,
        fixture("ria/modelx_RIA_regular_scoring.json"),
    ]);
    assert_eq!(s.files[1].status, FileState::Error);
    let msg = s.files[1].message.as_deref().unwrap();
    assert!(
        msg.contains("broken_RIA_regular_scoring.json") && msg.contains("line 2"),
        "{msg}"
    );
    assert_eq!(s.files[2].status, FileState::Ok);
    assert_eq!(s.mmopera.len(), 1);
    // Answers alone are not scored: the error says what is missing.
    let s = run(&[fixture("ria/modelx_RIA_results.json")]);
    assert_eq!(s.files[0].status, FileState::Error);
    assert!(s.files[0]
        .message
        .as_deref()
        .unwrap()
        .contains("no judge file"));
}

#[test]
fn user_model_names_regroup_files() {
    let (p1, b1) = fixture("ria/modelx_RIA_regular_scoring.json");
    let (p2, b2) = fixture("ria/modelx_RIA_regular_scoring_deepseek.json");
    let inputs = [
        InputRef {
            path: &p1,
            bytes: &b1,
            model: Some("judged by GPT-4o"),
        },
        InputRef {
            path: &p2,
            bytes: &b2,
            model: Some("judged by DeepSeek"),
        },
    ];
    let s = score_files(&inputs, |_, _, _| {});
    assert_eq!(s.mmopera.len(), 2);
    let a = row(&s, "judged by GPT-4o").ria.as_ref().unwrap();
    let b = row(&s, "judged by DeepSeek").ria.as_ref().unwrap();
    assert_relative_eq!(
        b.holistic.as_ref().unwrap().score_rate,
        16.0 / 24.0,
        max_relative = 1e-12
    );
    // Common items r1..r6: GPT-4o 4 3 2 1 0 4, DeepSeek 4 4 3 1 1 3.
    let c = compare(["A", "B"], a, b, 2000, 7).unwrap();
    // The worker's entry point gives the same comparison.
    let args = CompareArgs {
        models: ["A".into(), "B".into()],
        a: a.clone(),
        b: b.clone(),
        resamples: 2000,
        seed: 7,
    };
    assert_eq!(args.compare().unwrap(), c);
    assert_eq!((c.items, c.pairs, c.only_a, c.only_b), (6, 6, 1, 0));
    let mut expected = [[0usize; 5]; 5];
    for (x, y) in [(4, 4), (3, 4), (2, 3), (1, 1), (0, 1), (4, 3)] {
        expected[x][y] += 1;
    }
    assert_eq!(c.table, expected);
    assert_relative_eq!(c.exact_match, 2.0 / 6.0);
    // SR on the common items: A 14/24, B 16/24; difference −2/24.
    assert_relative_eq!(c.sr_a, 14.0 / 24.0, max_relative = 1e-12);
    assert_relative_eq!(c.sr_b, 16.0 / 24.0, max_relative = 1e-12);
    assert_relative_eq!(c.diff.estimate, -2.0 / 24.0, max_relative = 1e-12);
    assert!(c.diff.low <= c.diff.estimate && c.diff.estimate <= c.diff.high);
    // Per-item differences are 0, −1/4, −1/4, 0, −1/4, +1/4: the interval lies in [−1/4, 1/4].
    assert!(c.diff.low >= -0.25 && c.diff.high <= 0.25);
    // Different tasks cannot be compared.
    let s2 = run(&[fixture("ica/modelx_ICA_regular_scoring.json")]);
    let ica = row(&s2, "modelx").ica.as_ref().unwrap();
    assert!(compare(["A", "B"], a, ica, 100, 0).is_err());
}

#[test]
fn real_valued_bootstrap_matches_the_accuracy_bootstrap_on_0_1_values() {
    let a = [true, true, false, true, false, true, true, false];
    let b = [false, true, false, false, false, true, false, true];
    let fa: Vec<f64> = a.iter().map(|&x| f64::from(u8::from(x))).collect();
    let fb: Vec<f64> = b.iter().map(|&x| f64::from(u8::from(x))).collect();
    let want = paired_bootstrap_diff(&a, &b, 3000, 11, 0.95).unwrap();
    let got = paired_bootstrap_mean_diff(&fa, &fb, 3000, 11, 0.95).unwrap();
    assert_relative_eq!(got.estimate, 0.25);
    assert_relative_eq!(got.estimate, want.estimate);
    assert_relative_eq!(got.low, want.low, epsilon = 1e-12);
    assert_relative_eq!(got.high, want.high, epsilon = 1e-12);
    assert!(paired_bootstrap_mean_diff(&[], &[], 10, 0, 0.95).is_err());
    assert!(paired_bootstrap_mean_diff(&[1.0], &[1.0, 2.0], 10, 0, 0.95).is_err());
}

#[test]
fn task_of_metadata_from_its_folder() {
    // Both metadata files are named metadata.json under RIA/ and ICA/ folders: each group
    // takes the one sharing its ids.
    let (_, ria_meta) = fixture("ria/metadata.json");
    let (_, ica_meta) = fixture("ica/metadata.csv");
    let s = run(&[
        ("data/ICA/metadata.csv".to_string(), ica_meta),
        ("data/RIA/metadata.json".to_string(), ria_meta),
        fixture("ria/modelx_RIA_regular_scoring.json"),
        fixture("ica/modelx_ICA_regular_scoring.json"),
    ]);
    let r = row(&s, "modelx");
    assert_eq!(
        r.ria.as_ref().unwrap().metadata_file.as_deref(),
        Some("data/RIA/metadata.json")
    );
    assert_eq!(
        r.ica.as_ref().unwrap().metadata_file.as_deref(),
        Some("data/ICA/metadata.csv")
    );
    assert_eq!(r.task(Task::Ica).unwrap().task, Task::Ica);
}
