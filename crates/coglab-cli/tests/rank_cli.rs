//! `coglab rank` and the coverage fields of `coglab score ... --json` (issue 20), run as a
//! binary on small fixtures whose numbers are worked out by hand below.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn fixture(dir: &str, name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../coglab-core/tests/fixtures")
        .join(dir)
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn coglab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_coglab"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

fn temp_file(name: &str, contents: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("coglab-rank-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path.to_string_lossy().into_owned()
}

/// Key A B C D E A (extraction_key.jsonl). Official extractor: model one right on items
/// 0, 2, 3, 4 (4/6), model two on 0, 2, 3 (3/6) (see coglab-core/tests/ranks.rs); "partial"
/// answers items 0-2 only, right on 0 and 2: 2 of 6 with missing counted wrong, coverage 3/6.
/// Pairs (exact McNemar): one-two a_only 1 (item 4), b_only 0: p = min(1, 2 · 1/2) = 1;
/// one-partial a_only 2 (items 3, 4): p = 2 · 1/4 = 0.5; two-partial a_only 1: p = 1.
/// Holm: 3 · 0.5 = 1.5 -> 1, so every adjusted p is 1 and all three share group a, ranks 1-3.
#[test]
fn rank_mmiq_json_follows_the_contract() {
    let partial = temp_file(
        "partial.jsonl",
        b"{\"data_id\": 0, \"parsed_pred\": \"A\"}\n{\"data_id\": 1, \"parsed_pred\": \"C\"}\n{\"data_id\": 2, \"parsed_pred\": \"C\"}\n",
    );
    let one = format!("one={}", fixture("ranks", "extraction_model1.jsonl"));
    let two = format!("two={}", fixture("ranks", "extraction_model2.jsonl"));
    let acc = fixture("mmiq", "small_MMIQ_acc.csv");
    let o = coglab(&[
        "rank",
        "mmiq",
        "--answers",
        &fixture("ranks", "extraction_key.jsonl"),
        &one,
        &two,
        &partial,
        &acc,
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["adjust"], "holm");
    assert!(v.get("mdd").is_some());
    let models = v["models"].as_array().unwrap();
    let row = |i: usize| {
        let m = &models[i];
        (
            m["name"].as_str().unwrap().to_string(),
            m["n"].as_u64().unwrap(),
            m["coverage"].as_f64().unwrap(),
            m["score"].as_f64().unwrap(),
            m["rank_low"].as_u64().unwrap(),
            m["rank_high"].as_u64().unwrap(),
            m["group"].as_str().unwrap().to_string(),
        )
    };
    assert_eq!(row(0), ("one".into(), 6, 1.0, 4.0 / 6.0, 1, 3, "a".into()));
    assert_eq!(row(1), ("two".into(), 6, 1.0, 0.5, 1, 3, "a".into()));
    assert_eq!(
        row(2),
        ("partial".into(), 3, 0.5, 2.0 / 6.0, 1, 3, "a".into())
    );
    let pairs = v["pairs"].as_array().unwrap();
    let p = |i: usize| {
        let q = &pairs[i];
        (
            q["a"].as_str().unwrap().to_string(),
            q["b"].as_str().unwrap().to_string(),
            q["n_shared"].as_u64().unwrap(),
            q["test"].as_str().unwrap().to_string(),
            // p-values to 12 decimals (the binomial sum is exact to rounding).
            (q["p"].as_f64().unwrap() * 1e12).round() / 1e12,
            (q["p_adjusted"].as_f64().unwrap() * 1e12).round() / 1e12,
        )
    };
    assert_eq!(
        p(0),
        (
            "one".into(),
            "two".into(),
            6,
            "mcnemar_exact".into(),
            1.0,
            1.0
        )
    );
    assert_eq!(
        p(1),
        (
            "one".into(),
            "partial".into(),
            6,
            "mcnemar_exact".into(),
            0.5,
            1.0
        )
    );
    assert_eq!(
        p(2),
        (
            "two".into(),
            "partial".into(),
            6,
            "mcnemar_exact".into(),
            1.0,
            1.0
        )
    );
    // The _acc.csv row is reported, not tested (overall 0.6666666666666666 as given).
    assert_eq!(v["reported"][0]["name"], "small");
    assert!((v["reported"][0]["score"].as_f64().unwrap() - 2.0 / 3.0).abs() < 1e-15);
    // Extraction table: one 4/3/3 right, two 3/2/6 (hand counts in coglab-core/tests/ranks.rs).
    let ex = &v["extraction"]["rows"];
    assert_eq!(ex[0]["name"], "one");
    assert_eq!(ex[0]["correct"], serde_json::json!([4, 3, 3]));
    assert_eq!(ex[1]["correct"], serde_json::json!([3, 2, 6]));
}

#[test]
fn rank_table_and_bad_input() {
    let key = fixture("ranks", "extraction_key.jsonl");
    let one = format!("one={}", fixture("ranks", "extraction_model1.jsonl"));
    // One model only: the board still shows, with a note.
    let o = coglab(&["rank", "mmiq", "--answers", &key, &one]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("MM-IQ board: 1 computed rows, 6 items"),
        "{text}"
    );
    assert!(text.contains("one model only (one)"), "{text}");
    // A missing file is an error naming it (issue 37: it was skipped with exit status 0).
    let o = coglab(&[
        "rank",
        "mmiq",
        "--answers",
        &key,
        &one,
        "/no/such/file.jsonl",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).is_empty());
    assert!(
        stderr(&o).contains("/no/such/file.jsonl: cannot read file"),
        "{}",
        stderr(&o)
    );
    // Usage errors exit 2.
    assert_eq!(coglab(&["rank"]).status.code(), Some(2));
    let o = coglab(&["rank", "mmiq", &one]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--answers KEY is required"));
    assert_eq!(coglab(&["rank", "gold", &one]).status.code(), Some(2));
    let o = coglab(&["rank", "mmiq", "--answers", &key, "--test", "t", &one]);
    assert_eq!(o.status.code(), Some(2));
}

/// `score mmiq --json` keeps MM-IQ's accuracy (over the items in the file) and adds
/// `overall.coverage` and `overall.accuracy_all_items`: 2 of the key's 6 items answered, both
/// right -> accuracy 1, coverage 2/6, accuracy over all items 2/6.
#[test]
fn score_mmiq_json_has_coverage() {
    let preds = temp_file(
        "two_items.jsonl",
        b"{\"data_id\": 0, \"parsed_pred\": \"B\"}\n{\"data_id\": 1, \"parsed_pred\": \"C\"}\n",
    );
    let o = coglab(&[
        "score",
        "mmiq",
        "--answers",
        &fixture("mmiq", "key_small.jsonl"),
        &preds,
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let overall = &v["overall"];
    assert_eq!(overall["accuracy"].as_f64(), Some(1.0));
    assert!((overall["coverage"].as_f64().unwrap() - 2.0 / 6.0).abs() < 1e-15);
    assert!((overall["accuracy_all_items"].as_f64().unwrap() - 2.0 / 6.0).abs() < 1e-15);
    assert_eq!(overall["items_in_benchmark"], 6);
}

/// `score kiva --json`: one subdomain of KiVA's 14 with 2 trials (stage 1: right, wrong):
/// expected trials 14 · 2 = 28, coverage 2/28, stage-1 mean over all trials 1/28.
#[test]
fn score_kiva_json_has_coverage() {
    let dir = std::env::temp_dir().join(format!("coglab-rank-kiva-{}", std::process::id()));
    let sub = dir.join("m").join("output_Colour");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(
        sub.join("ColourRed.csv"),
        "Variation,Regeneration,MCResponse#1,MCResponse#2,MCResponse#3\n0,0,1,1,1\n1,0,0,,0\n",
    )
    .unwrap();
    let o = coglab(&["score", "kiva", &dir.join("m").to_string_lossy(), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!((v["overall"]["coverage"].as_f64().unwrap() - 2.0 / 28.0).abs() < 1e-15);
    assert!((v["overall"]["accuracy_all_items"].as_f64().unwrap() - 1.0 / 28.0).abs() < 1e-15);
    assert_eq!(v["overall"]["items_in_benchmark"], 28);
}

/// `score mmopera --json`: 2 of the metadata's 15 items judged, scores 4 and 2: SR
/// (4 + 2) / 8 = 0.75 as released; coverage 2/15; SR over all items (4 + 2) / (4 · 15) = 0.1.
#[test]
fn score_mmopera_json_has_coverage() {
    let reg = temp_file(
        "m_RIA_regular_scoring.json",
        br#"{"r00": {"score_judge": "4"}, "r01": {"score_judge": "2"}}"#,
    );
    let o = coglab(&[
        "score",
        "mmopera",
        "--task",
        "ria",
        "--metadata",
        &fixture("ranks", "judges/metadata.json"),
        "--regular",
        &reg,
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let h = &v["holistic"];
    assert_eq!(h["score_rate"].as_f64(), Some(0.75));
    assert!((h["coverage"].as_f64().unwrap() - 2.0 / 15.0).abs() < 1e-15);
    assert!((h["accuracy_all_items"].as_f64().unwrap() - 0.1).abs() < 1e-15);
    assert_eq!(h["items_in_benchmark"], 15);
}

/// `rank mmopera` with two judges per model: the judge table is in the JSON, and the harsh
/// judge's file for m1 scores an item outside the metadata (named in a note); the board shows.
#[test]
fn rank_mmopera_with_judges() {
    let f = |n: &str| fixture("ranks", &format!("judges/{n}"));
    let o = coglab(&[
        "rank",
        "mmopera",
        "--metadata",
        &f("metadata.json"),
        &f("m1_RIA_regular_scoring_base.json"),
        &f("m1_RIA_regular_scoring_harsh.json"),
        &f("m2_RIA_regular_scoring_base.json"),
        &f("m2_RIA_regular_scoring_harsh.json"),
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["test"], "wilcoxon");
    assert_eq!(v["models"].as_array().unwrap().len(), 2);
    assert_eq!(v["judges"]["judges"], serde_json::json!(["base", "harsh"]));
    assert!(v["judges"]["notes"][0]
        .as_str()
        .unwrap()
        .contains("1 item(s) are not in the metadata"));
    assert_eq!(v["benchmark_size"], 15);
}

/// Issue 37: a model file that cannot be read or scored fails the command naming it (it was
/// skipped with exit status 0), for every benchmark.
#[test]
fn rank_fails_on_an_unreadable_or_unscorable_model_file() {
    let key = fixture("ranks", "extraction_key.jsonl");
    let one = format!("one={}", fixture("ranks", "extraction_model1.jsonl"));
    let broken = temp_file(
        "broken.jsonl",
        b"{\"data_id\": 0, \"parsed_pred\": \"A\"}\n{oops\n",
    );
    let o = coglab(&["rank", "mmiq", "--answers", &key, &one, &broken]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("broken.jsonl line 2"), "{err}");
    let o = coglab(&["rank", "kiva", "/no/such/kiva/run"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("/no/such/kiva/run"), "{}", stderr(&o));
    let o = coglab(&["rank", "mmopera", "/no/such/judge_regular_scoring.json"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("/no/such/judge_regular_scoring.json"),
        "{}",
        stderr(&o)
    );
}

/// Issue 37: 10,000 models at the default 2,000 resamples are refused before any file is read
/// (the paths do not exist: the refusal comes first), and the advice names the models to
/// drop, never "use at most 0 resamples" (even one resample of 10,000 models keeps 50,005,000
/// values: 10,000 models + 49,995,000 pairs; 7,070 models keep 7,070 · 7,071 / 2 = 24,995,985,
/// 7,071 would keep 25,003,056, over 25,000,000).
#[test]
fn rank_of_10000_models_is_refused_before_reading_with_advice_on_models() {
    let key = fixture("ranks", "extraction_key.jsonl");
    let files: Vec<String> = (0..10_000)
        .map(|i| format!("/no/such/m{i}.jsonl"))
        .collect();
    let mut args = vec!["rank", "mmiq", "--answers", key.as_str()];
    args.extend(files.iter().map(String::as_str));
    let o = coglab(&args);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains(
            "resamples: 2000 resamples of 10000 models keep 100010000000 bootstrap values"
        ) && err
            .contains("even 1 resample keeps 50005000 values: rank at most 7070 models at a time"),
        "{err}"
    );
    assert!(!err.contains("at most 0 resamples"), "{err}");
    // 100 models fit 2,000 resamples (100 + 4,950 values each) but not 10,000: the advice is
    // then resamples, 25,000,000 / 5,050 = 4,950.
    let mut args = vec![
        "rank",
        "mmiq",
        "--answers",
        key.as_str(),
        "--resamples",
        "10000",
    ];
    args.extend(files[..100].iter().map(String::as_str));
    let err = stderr(&coglab(&args));
    assert!(err.contains("use at most 4950 resamples"), "{err}");
}
