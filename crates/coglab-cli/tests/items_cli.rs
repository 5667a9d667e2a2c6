//! `coglab items` run as a binary: the JSON contract, numbers worked out by hand on the
//! 6 x 4 fixture, MM-IQ predictions with letters, and the messages for degenerate matrices.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn fixture(rel: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../coglab-core/tests/fixtures")
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

fn temp_file(name: &str, contents: &str) -> String {
    let dir = std::env::temp_dir().join(format!("coglab-items-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path.to_string_lossy().into_owned()
}

fn json(o: &Output) -> Value {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn close(v: &Value, want: f64) {
    let got = v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"));
    assert!((got - want).abs() < 1e-12, "{got} vs {want}");
}

#[test]
fn small_matrix_json_has_the_contract_fields_and_hand_worked_numbers() {
    let v = json(&coglab(&[
        "items",
        &fixture("items/small_6x4.csv"),
        "--json",
    ]));
    // Contract: items[{id, p, point_biserial, a, b, flags}], respondents[{id, theta, se}],
    // converged, iterations.
    let items = v["items"].as_array().unwrap();
    assert_eq!(items.len(), 4);
    for it in items {
        for k in ["id", "p", "point_biserial", "a", "b", "flags"] {
            assert!(it.get(k).is_some(), "item field {k} missing");
        }
    }
    let resp = v["respondents"].as_array().unwrap();
    assert_eq!(resp.len(), 6);
    for r in resp {
        assert!(r["theta"].is_number() && r["se"].is_number());
    }
    assert!(v["converged"].is_boolean());
    assert!(v["iterations"].as_u64().unwrap() >= 1);
    // p: a 4/6, b 3/6, c 2/6, d 2/5 (m5 left d empty).
    close(&items[0]["p"], 4.0 / 6.0);
    close(&items[1]["p"], 0.5);
    close(&items[2]["p"], 2.0 / 6.0);
    close(&items[3]["p"], 0.4);
    // Point-biserial of a: x = (1,1,1,0,1,0); rest = proportion right on the other answered
    // items = (2/3, 2/3, 1/3, 1/3, 0/2, 1/3), mean 7/18. sxy = 1/9, sxx = 4/3, syy = 17/54:
    // r = (1/9) / sqrt(68/162) = 1/sqrt(34).
    close(&items[0]["point_biserial"], 1.0 / 34f64.sqrt());
    // Alpha on the 5 complete rows (m5 dropped): item variances 0.3 each (sum 1.2), totals
    // 3,3,2,1,1 with variance 1: alpha = 4/3 (1 - 1.2) = -4/15.
    close(&v["classical"]["alpha"], -4.0 / 15.0);
    assert_eq!(v["classical"]["alpha_n"], 5);
    assert_eq!(v["model"], "2pl");
}

#[test]
fn rasch_model_fixes_discrimination_at_one() {
    let v = json(&coglab(&[
        "items",
        "--model",
        "rasch",
        "--json",
        &fixture("items/rasch_300x12.csv"),
    ]));
    assert_eq!(v["model"], "rasch");
    assert_eq!(v["converged"], true);
    for it in v["items"].as_array().unwrap() {
        assert_eq!(it["a"], 1.0);
    }
}

#[test]
fn mmiq_predictions_give_letters_flags_and_the_key_bias() {
    // Key (key_small.jsonl): B C A D E A. Parsed answers of four models:
    let preds = [
        ("all_right", "B C A D E A"),
        ("model_b", "B D A D A A"),
        ("model_c", "A D C D A B"),
        ("model_d", "C C A D E C"),
    ];
    let cats = [
        "Mathematical",
        "Mathematical",
        "Mathematical",
        "2D-Geometry",
        "2D-Geometry",
        "Concrete Object",
    ];
    let mut paths = Vec::new();
    for (name, letters) in preds {
        let body: String = letters
            .split(' ')
            .enumerate()
            .map(|(i, l)| {
                format!(
                    "{{\"category\": \"{}\", \"data_id\": {i}, \"parsed_pred\": \"{l}\"}}\n",
                    cats[i]
                )
            })
            .collect();
        paths.push(temp_file(&format!("{name}.jsonl"), &body));
    }
    let key = fixture("mmiq/key_small.jsonl");
    let mut args = vec!["items", "--answers", key.as_str(), "--json"];
    args.extend(paths.iter().map(String::as_str));
    let v = json(&coglab(&args));
    let items = v["items"].as_array().unwrap();
    // Item 1 (key C): right by all_right and model_d, wrong by model_b and model_c, both "D".
    close(&items[1]["p"], 0.5);
    assert_eq!(items[1]["most_frequent_wrong"], serde_json::json!(["D", 2]));
    assert_eq!(items[1]["answers"], serde_json::json!({"C": 2, "D": 2}));
    // Item 3 (key D): everyone right.
    assert!(items[3]["flags"]
        .as_array()
        .unwrap()
        .contains(&Value::from("all_right")));
    // Keys: A twice out of six: the majority-class baseline is 1/3.
    let maj = &v["classical"]["key_letters"]["majority"];
    assert_eq!(maj[0], "A");
    close(&maj[1], 1.0 / 3.0);
    // Respondent ids are the file stems; groups are "model".
    assert_eq!(v["respondents"][0]["id"], "all_right");
}

#[test]
fn degenerate_matrices_are_clear_errors() {
    let all_right = temp_file("all_right.csv", "id,a,b\nr1,1,1\nr2,1,1\n");
    let o = coglab(&["items", &all_right]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("everyone solves every item"), "{err}");
    let one = temp_file("one.csv", "id,a,b\nr1,1,0\n");
    let err = String::from_utf8_lossy(&coglab(&["items", &one]).stderr).into_owned();
    assert!(err.contains("only 1 respondent"), "{err}");
    let missing = temp_file("missing.csv", "id,a,b\nr1,,\nr2,,\n");
    let err = String::from_utf8_lossy(&coglab(&["items", &missing]).stderr).into_owned();
    assert!(err.contains("all 4 cells are missing"), "{err}");
    let bad = temp_file("bad.csv", "id,a,b\nr1,1,0\nr2,1,yes\n");
    let err = String::from_utf8_lossy(&coglab(&["items", &bad]).stderr).into_owned();
    assert!(
        err.contains("bad.csv line 3: field \"b\": expected 1, 0 or an empty cell"),
        "{err}"
    );
    let o = coglab(&["items", "--model", "3pl", &bad]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn table_output_names_the_model_and_alpha() {
    let o = coglab(&["items", &fixture("items/twopl_500x20.csv")]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("500 respondents x 20 items; 2PL converged"),
        "{text}"
    );
    assert!(
        text.contains("Cronbach's alpha 0.873 on 500 complete respondents"),
        "{text}"
    );
}

#[test]
fn report_json_is_the_page_summary() {
    let v = json(&coglab(&[
        "items",
        &fixture("items/small_6x4.csv"),
        "--json",
        "--report",
    ]));
    // Item a: m1, m2, m3, m5 right, m4, m6 wrong: p = 4/6.
    close(&v["items"][0]["p"], 4.0 / 6.0);
    assert_eq!(v["respondents"].as_array().unwrap().len(), 6);
    // 61-point grid from -4 to 4: the middle point is 0.
    let theta = v["theta"].as_array().unwrap();
    assert_eq!(theta.len(), 61);
    close(&theta[30], 0.0);
    assert_eq!(v["test_information"].as_array().unwrap().len(), 61);
    // m5 has a missing cell, so S-X2 sees 5 complete rows (< 10): no item is tested.
    assert!(v["items"][0]["sx2"].is_null());
    assert!(v["notes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|n| n.as_str().unwrap().contains("S-X2 not computed")));
    // --report needs --json.
    assert!(
        !coglab(&["items", &fixture("items/small_6x4.csv"), "--report"])
            .status
            .success()
    );
}

/// Issue 37: an item analysis larger than `limits::MAX_ITEM_CELLS` (10,000,000 cells) is
/// refused before the rows are read, naming the size and the limit (100,000 × 1,000 ran past
/// 30 s). The rows here hold only an id: read, the first would be a ragged row; the size is
/// refused first. 10,001 × 1,000 is one respondent over; 10,000 × 1,000 is not refused for
/// its size (it reaches the ragged row).
#[test]
fn items_refuses_a_matrix_over_the_cell_limit_before_reading_rows() {
    let header: Vec<String> = (0..1000).map(|i| format!("i{i}")).collect();
    let make = |rows: usize| {
        let mut text = format!("id,{}\n", header.join(","));
        for r in 0..rows {
            text.push_str(&format!("r{r}\n"));
        }
        text
    };
    let big = temp_file("too_big.csv", &make(10_001));
    let o = coglab(&["items", &big]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(
            "too_big.csv: 10001 respondents x 1000 items make 10001000 cells, more than the \
             10000000 an item analysis takes"
        ),
        "{err}"
    );
    let fits = temp_file("fits.csv", &make(10_000));
    let err = String::from_utf8_lossy(&coglab(&["items", &fits]).stderr).into_owned();
    assert!(err.contains("fits.csv line 2"), "{err}");
    assert!(!err.contains("cells"), "{err}");
}

/// `--subset anchor --k K` (issue 40): K item ids, one per line, that a harness can run; the
/// same ids with weights summing to 1 in `--json`; the same list on every run; a K beyond the
/// calibrated items refused with the count.
#[test]
fn anchor_items_list_and_json() {
    let full = fixture("items/estimate_full.csv");
    let o = coglab(&["items", &full, "--subset", "anchor", "--k", "4"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    let ids: Vec<&str> = text.lines().collect();
    assert_eq!(ids.len(), 4);
    let columns: Vec<String> = (1..=10).map(|j| format!("q{j}")).collect();
    assert!(
        ids.iter().all(|id| columns.iter().any(|c| c == id)),
        "{ids:?}"
    );
    let mut distinct = ids.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 4);
    let again = coglab(&["items", &full, "--subset", "anchor", "--k", "4"]);
    assert_eq!(String::from_utf8(again.stdout).unwrap(), text);

    let v = json(&coglab(&[
        "items", &full, "--subset", "anchor", "--k", "4", "--json",
    ]));
    let anchors = v["anchors"].as_array().unwrap();
    let json_ids: Vec<&str> = anchors.iter().map(|a| a["id"].as_str().unwrap()).collect();
    assert_eq!(json_ids, ids);
    let total: f64 = anchors.iter().map(|a| a["weight"].as_f64().unwrap()).sum();
    // Ten items shared among four anchors: each weight is a count over 10.
    assert!((total - 1.0).abs() < 1e-12, "{total}");
    for a in anchors {
        let tenths = a["weight"].as_f64().unwrap() * 10.0;
        assert!(
            (tenths - tenths.round()).abs() < 1e-9 && tenths >= 1.0,
            "{a}"
        );
    }
    assert_eq!(v["method"], "information");
    assert_eq!(v["calibration"]["respondents"], 120);
    assert_eq!(v["calibration"]["model"], "2pl+guess(0.25)");

    let o = coglab(&["items", &full, "--subset", "anchor", "--k", "11"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("11 (10 calibrated items)"), "{err}");
    let o = coglab(&["items", &full, "--subset", "anchor"]);
    assert_eq!(o.status.code(), Some(2));
}
