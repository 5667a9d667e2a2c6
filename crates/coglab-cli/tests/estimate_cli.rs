//! `coglab estimate` run as a binary (issue 40): the JSON contract, numbers that follow from
//! the data alone (an answered item is counted as it was; a complete run's estimate is its
//! observed proportion with no width; one unanswered item bounds the interval to one item),
//! the table, and messages naming file, line and column.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn fixture(rel: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../coglab-core/tests/fixtures/items")
        .join(rel)
        .to_string_lossy()
        .into_owned()
}

fn coglab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_coglab"))
        .args(args)
        .output()
        .unwrap()
}

fn json(o: &Output) -> Value {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    k.sort_unstable();
    k
}

#[test]
fn partial_runs_json_has_the_contract_and_the_numbers_the_data_fix() {
    let full = fixture("estimate_full.csv");
    let v = json(&coglab(&[
        "estimate",
        "--calibration",
        &full,
        &fixture("estimate_partial.csv"),
        "--json",
    ]));
    assert_eq!(keys(&v), ["calibration", "estimates"]);
    assert_eq!(keys(&v["calibration"]), ["items", "model", "respondents"]);
    assert_eq!(v["calibration"]["items"], 10);
    assert_eq!(v["calibration"]["respondents"], 120);
    assert_eq!(v["calibration"]["model"], "2pl+guess(0.25)");
    let est = v["estimates"].as_array().unwrap();
    let ids: Vec<&str> = est.iter().map(|e| e["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["strong", "weak", "none", "most"]);
    for e in est {
        assert_eq!(
            keys(e),
            ["answered", "ci_high", "ci_low", "estimate", "id", "observed"]
        );
        let (lo, x, hi) = (
            e["ci_low"].as_f64().unwrap(),
            e["estimate"].as_f64().unwrap(),
            e["ci_high"].as_f64().unwrap(),
        );
        assert!(0.0 <= lo && lo <= x && x <= hi && hi <= 1.0, "{e}");
    }
    // strong: 3 of 3 right, 7 items unanswered: at least 3 of 10, at most 10 of 10.
    assert_eq!(est[0]["answered"], 3);
    assert_eq!(est[0]["observed"].as_f64(), Some(1.0));
    assert!(est[0]["ci_low"].as_f64().unwrap() >= 0.3);
    // strong's estimate is above weak's (3 right against 2 right on the same items).
    assert!(est[0]["estimate"].as_f64() > est[1]["estimate"].as_f64());
    // none: no answer, no observed proportion.
    assert_eq!(est[2]["answered"], 0);
    assert!(est[2]["observed"].is_null());
    // most: 5 of q1-q9 right, q10 unanswered: the estimate lies between 5 and 6 right out of
    // 10, and the interval is [0.5, 0.6] (q10 wrong or right).
    assert_eq!(est[3]["answered"], 9);
    let x = est[3]["estimate"].as_f64().unwrap();
    assert!(0.5 < x && x < 0.6, "{x}");
    assert_eq!(est[3]["ci_low"].as_f64(), Some(0.5));
    assert_eq!(est[3]["ci_high"].as_f64(), Some(0.6));
}

#[test]
fn complete_runs_are_their_observed_proportion() {
    // The calibration file as the partial one: every item answered.
    let full = fixture("estimate_full.csv");
    let v = json(&coglab(&[
        "estimate",
        "--calibration",
        &full,
        &full,
        "--json",
    ]));
    // c1's row: 1,0,0,1,0,0,1,1,1,1 -> 6 of 10.
    let c1 = &v["estimates"][0];
    assert_eq!(c1["id"], "c1");
    for k in ["observed", "estimate", "ci_low", "ci_high"] {
        assert_eq!(c1[k].as_f64(), Some(0.6), "{k}");
    }
}

#[test]
fn table_output_lists_each_respondent() {
    let o = coglab(&[
        "estimate",
        "--calibration",
        &fixture("estimate_full.csv"),
        &fixture("estimate_partial.csv"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.contains("Estimated accuracy over all 10 items"),
        "{text}"
    );
    assert!(text.contains("95% interval"), "{text}");
    let most = text.lines().find(|l| l.starts_with("most")).unwrap();
    assert!(
        most.contains("0.556") && most.contains("0.500 - 0.600"),
        "{most}"
    );
}

#[test]
fn errors_name_the_file_line_and_column() {
    let dir = std::env::temp_dir().join(format!("coglab-estimate-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("partial_bad.csv");
    std::fs::write(&bad, "model,q1,q99\nm,1,0\n").unwrap();
    let bad = bad.to_string_lossy().into_owned();
    let full = fixture("estimate_full.csv");
    let o = coglab(&["estimate", "--calibration", &full, &bad]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("partial_bad.csv line 1: field \"q99\"")
            && err.contains("not an item of the calibration"),
        "{err}"
    );
    // A bad cell in the calibration names its line and column.
    let cal_bad = dir.join("full_bad.csv");
    std::fs::write(&cal_bad, "id,q1,q2\na,1,0\nb,1,x\n").unwrap();
    let o = coglab(&[
        "estimate",
        "--calibration",
        &cal_bad.to_string_lossy(),
        &fixture("estimate_partial.csv"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("full_bad.csv line 3") && err.contains("q2"),
        "{err}"
    );
    // Too small a calibration is refused unless the minimum is lowered.
    let small = dir.join("full_small.csv");
    std::fs::write(&small, "id,q1,q2\na,1,0\nb,0,1\nc,1,1\n").unwrap();
    let small = small.to_string_lossy().into_owned();
    let part = dir.join("part_small.csv");
    std::fs::write(&part, "id,q1\nm,1\n").unwrap();
    let part = part.to_string_lossy().into_owned();
    let o = coglab(&["estimate", "--calibration", &small, &part]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("3 calibration respondents"), "{err}");
    let v = json(&coglab(&[
        "estimate",
        "--calibration",
        &small,
        &part,
        "--min-calibration",
        "2",
        "--json",
    ]));
    assert_eq!(v["estimates"][0]["answered"], 1);
    // --options 1 is a usage of the model that cannot be (every answer right).
    let o = coglab(&["estimate", "--calibration", &full, &part, "--options", "1"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("options"));
}
