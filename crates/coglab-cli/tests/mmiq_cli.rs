//! `coglab score|extract|compare mmiq` run as a binary on the hand-made fixtures of
//! `coglab-core/tests/fixtures/mmiq/` (expected numbers worked out in `coglab-core/tests/mmiq_small.rs`).

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../coglab-core/tests/fixtures/mmiq")
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
    let dir = std::env::temp_dir().join(format!("coglab-mmiq-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn score_json_follows_the_contract() {
    let o = coglab(&[
        "score",
        "mmiq",
        "--answers",
        &fixture("key_small.jsonl"),
        &fixture("preds_small.jsonl"),
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["benchmark"], "mmiq");
    // 4 of 6 correct; Wilson 95% (statsmodels) 0.29999331513839184 .. 0.9032285888942195.
    let overall = &v["overall"];
    assert_eq!(overall["n"], 6);
    assert!((overall["accuracy"].as_f64().unwrap() - 4.0 / 6.0).abs() < 1e-12);
    assert!((overall["ci_low"].as_f64().unwrap() - 0.29999331513839184).abs() < 1e-12);
    assert!((overall["ci_high"].as_f64().unwrap() - 0.9032285888942195).abs() < 1e-12);
    let math = &v["by_category"]["Mathematical"];
    assert_eq!(math["n"], 3);
    assert!((math["accuracy"].as_f64().unwrap() - 2.0 / 3.0).abs() < 1e-12);
    assert!(math["ci_low"].is_f64() && math["ci_high"].is_f64());
    assert_eq!(v["by_category"]["Concrete Object"]["n"], 1);
    assert_eq!(v["rows"]["scored"], 6);
    // Item-level results only with --items.
    assert!(v.get("items").is_none());
    // Issue 23 (worked in coglab-core/tests/mmiq_small.rs): key letters B C A D E A → always A
    // = 2/6; each paradigm's own majority letter 3/6; response characters mean 254/6, median
    // 41.5; whitespace tokens mean 49/6, median 9.
    assert_eq!(v["letters"]["key"]["majority"], "A");
    assert!((v["letters"]["key"]["majority_share"].as_f64().unwrap() - 2.0 / 6.0).abs() < 1e-12);
    assert_eq!(v["letters"]["per_category_majority"], 0.5);
    assert_eq!(v["response_length"]["n"], 6);
    assert!((v["response_length"]["chars_mean"].as_f64().unwrap() - 254.0 / 6.0).abs() < 1e-12);
    assert_eq!(v["response_length"]["chars_median"], 41.5);
    assert_eq!(v["response_length"]["tokens_median"], 9.0);
}

#[test]
fn score_table_and_items_flag() {
    let o = coglab(&[
        "score",
        "mmiq",
        "--answers",
        &fixture("key_small.jsonl"),
        &fixture("preds_small.xlsx"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("Overall"), "{text}");
    assert!(text.contains("66.67%"), "{text}");
    assert!(text.contains("51.27%"), "{text}");
    assert!(text.contains("always A = 33.33%"), "{text}");
    assert!(text.contains("characters mean 42.3 median 41.5"), "{text}");
    assert!(text.contains("Gemini-2.5-Pro (Long CoT) 2130"), "{text}");
    let o = coglab(&[
        "score",
        "mmiq",
        "--answers",
        &fixture("key_small.jsonl"),
        &fixture("preds_small.tsv"),
        "--json",
        "--items",
    ]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let parsed: Vec<&str> = v["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["parsed"].as_str().unwrap())
        .collect();
    assert_eq!(parsed, ["B", "D", "A", "D", "Z", "A"]);
}

#[test]
fn acc_summary_is_printed_as_precomputed() {
    let o = coglab(&[
        "score",
        "mmiq",
        "--answers",
        &fixture("key_small.jsonl"),
        &fixture("small_MMIQ_acc.csv"),
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["precomputed"], true);
    assert!((v["rows"][0]["overall"].as_f64().unwrap() - 4.0 / 6.0).abs() < 1e-15);
}

#[test]
fn extract_prints_one_line_per_prediction() {
    let o = coglab(&["extract", "mmiq", &fixture("preds_small.jsonl")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 6);
    let parsed: Vec<&str> = lines
        .iter()
        .map(|l| l["parsed"].as_str().unwrap())
        .collect();
    assert_eq!(parsed, ["B", "D", "A", "D", "Z", "A"]);
    assert_eq!(lines[4]["data_id"], 4);
}

#[test]
fn compare_identical_predictions() {
    // The JSONL and the TSV hold the same six responses: the table is 4 both-correct and
    // 2 both-wrong, no discordant pair, so McNemar's p is 1 and every bootstrap difference is 0.
    let o = coglab(&[
        "compare",
        "mmiq",
        "--answers",
        &fixture("key_small.jsonl"),
        &fixture("preds_small.jsonl"),
        &fixture("preds_small.tsv"),
        "--json",
        "--resamples",
        "200",
        "--seed",
        "5",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["n_paired"], 6);
    assert_eq!(v["table"]["both_correct"], 4);
    assert_eq!(v["table"]["both_wrong"], 2);
    assert_eq!(v["table"]["first_only"], 0);
    assert_eq!(v["mcnemar_p"], 1.0);
    assert_eq!(v["difference"]["estimate"], 0.0);
    assert_eq!(v["difference"]["low"], 0.0);
    assert_eq!(v["difference"]["high"], 0.0);
    assert_eq!(v["difference"]["resamples"], 200);
    assert!((v["first"]["paired"]["accuracy"].as_f64().unwrap() - 4.0 / 6.0).abs() < 1e-12);
    let o = coglab(&[
        "compare",
        "mmiq",
        "--answers",
        &fixture("key_small.jsonl"),
        &fixture("preds_small.jsonl"),
        &fixture("preds_small.tsv"),
    ]);
    assert!(stdout(&o).contains("McNemar exact test (two-sided): p = 1.0000"));
}

#[test]
fn bad_input_exits_1_with_file_line_and_field() {
    let bad = temp_file(
        "preds.jsonl",
        b"{\"data_id\": 0, \"response\": \"B\"}\n{\"data_id\": \"abc\", \"response\": \"B\"}\n",
    );
    let o = coglab(&[
        "score",
        "mmiq",
        "--answers",
        &fixture("key_small.jsonl"),
        &bad,
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o).trim(),
        "coglab: error: preds.jsonl line 2: field \"data_id\": expected a non-negative integer, found \"abc\""
    );
    let empty = temp_file("empty.jsonl", b"");
    let o = coglab(&["extract", "mmiq", &empty]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("empty.jsonl: the file is empty"),
        "{}",
        stderr(&o)
    );
    let latin1 = temp_file(
        "latin1.jsonl",
        b"{\"data_id\": 0, \"response\": \"caf\xe9\"}\n",
    );
    let o = coglab(&["extract", "mmiq", &latin1]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("latin1.jsonl line 1: not valid UTF-8"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn usage_errors_exit_2() {
    let o = coglab(&["score", "mmiq", &fixture("preds_small.jsonl")]);
    assert_eq!(o.status.code(), Some(2));
    // clap's message for a missing required option names it.
    assert!(
        stderr(&o).contains("required arguments were not provided")
            && stderr(&o).contains("--answers <KEY>"),
        "{}",
        stderr(&o)
    );
    let o = coglab(&[
        "compare",
        "mmiq",
        "--answers",
        &fixture("key_small.jsonl"),
        "a",
    ]);
    assert_eq!(o.status.code(), Some(2));
}

/// The fixture's six predictions followed by `extra` rows (ids 1,000 and up, not in the key,
/// ~110 bytes each), so the file spans several of the CLI's 1 MiB reading slices.
fn long_predictions(extra: usize) -> Vec<u8> {
    let mut text = std::fs::read(fixture("preds_small.jsonl")).unwrap();
    if !text.ends_with(b"\n") {
        text.push(b'\n');
    }
    for i in 0..extra {
        text.extend_from_slice(
            format!(
                "{{\"data_id\": {}, \"category\": \"Mathematical\", \"response\": \"Filler reasoning over the panel. The answer is C.\"}}\n",
                1000 + i
            )
            .as_bytes(),
        );
    }
    text
}

#[test]
fn a_file_of_several_slices_scores_as_its_six_key_rows() {
    // 40,000 extra rows of ~110 bytes: ~4.4 MB, five slices. The six fixture rows score 4 of 6
    // (mmiq_small.rs); the 40,000 others are skipped as not in the key.
    let path = temp_file("long_preds.jsonl", &long_predictions(40_000));
    let o = coglab(&[
        "score",
        "mmiq",
        "--answers",
        &fixture("key_small.jsonl"),
        &path,
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["overall"]["n"], 6);
    assert_eq!(v["overall"]["correct"], 4);
    assert_eq!(v["rows"]["read"], 40_006);
    assert_eq!(v["rows"]["skipped"], 40_000);
}

#[test]
fn a_bad_line_in_a_later_slice_is_located_and_ends_the_run() {
    // The bad line comes after 6 + 40,000 good ones (line 40,007), in the fifth slice: the error
    // names it, and the reading thread is let go (the command ends).
    let mut text = long_predictions(40_000);
    text.extend_from_slice(b"{\"data_id\": 99999, \"response\": \n");
    text.extend_from_slice(&long_predictions(1000)[..]);
    let path = temp_file("long_bad_preds.jsonl", &text);
    let o = coglab(&[
        "score",
        "mmiq",
        "--answers",
        &fixture("key_small.jsonl"),
        &path,
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(
        err.contains("long_bad_preds.jsonl") && err.contains("line 40007"),
        "{err}"
    );
}

#[test]
fn defect_8_a_tiny_p_value_prints_as_below_0_0001() {
    // 20 items, the first model right on all and the second wrong on all: 20 discordant pairs
    // one way, so McNemar's exact p = 2 x 0.5^20 = 1.9e-6, printed "p < 0.0001", not "0.0000".
    let key: String = (0..20)
        .map(|i| {
            format!("{{\"data_id\": {i}, \"category\": \"Mathematical\", \"answer\": \"A\"}}\n")
        })
        .collect();
    let preds = |letter: &str| -> String {
        (0..20)
            .map(|i| format!("{{\"data_id\": {i}, \"response\": \"The answer is {letter}.\"}}\n"))
            .collect()
    };
    let key = temp_file("p_key.jsonl", key.as_bytes());
    let right = temp_file("p_right.jsonl", preds("A").as_bytes());
    let wrong = temp_file("p_wrong.jsonl", preds("B").as_bytes());
    let o = coglab(&["compare", "mmiq", "--answers", &key, &right, &wrong]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("McNemar exact test (two-sided): p < 0.0001"),
        "{out}"
    );
    assert!(!out.contains("0.0000"), "{out}");
}
