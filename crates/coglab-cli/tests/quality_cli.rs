//! `coglab quality` (issue 40, item 3) and `coglab estimate --answers` run as a binary on the
//! rank fixtures, with the numbers worked out by hand below.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../coglab-core/tests/fixtures/ranks")
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

fn json(o: &Output) -> Value {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn close(v: &Value, want: f64) {
    let got = v.as_f64().unwrap_or(f64::NAN);
    assert!((got - want).abs() < 1e-12, "{got} != {want}");
}

/// Key A B C D E A; model one right on items 0, 2, 3, 4 (score 4/6), two on 0, 2, 3 (3/6),
/// both in the one category Mathematical. KR-20: only item 4 varies (1, 0: sample variance
/// 1/2); totals 4, 3 (variance 1/2): 6/5 (1 - (1/2)/(1/2)) = 0, so SEM = SD of the proportion
/// scores (1/6 / √2) · 1. Signal: the SD of 4/6 and 3/6, (1/6) / √2. Bootstrap SD: one has
/// item scores 1,0,1,1,1,0 (sum of squares about the mean 4/3), two 1,0,1,1,0,0 (3/2); each
/// √(SS) / 6; RMS √((4/3 + 3/2) / 36 / 2) = √(17/432). ψ = 1/6 over 6 items: nothing can be
/// told apart, so both rows warn.
#[test]
fn quality_json_by_hand() {
    let key = fixture("extraction_key.jsonl");
    let one = format!("one={}", fixture("extraction_model1.jsonl"));
    let two = format!("two={}", fixture("extraction_model2.jsonl"));
    let v = json(&coglab(&[
        "quality",
        "mmiq",
        "--answers",
        &key,
        &one,
        &two,
        "--json",
    ]));
    let o = &v["overall"];
    assert_eq!(
        (o["items"].as_u64(), o["models"].as_u64()),
        (Some(6), Some(2))
    );
    assert_eq!(o["reliability_kind"], "kr20");
    close(&o["reliability"], 0.0);
    let signal = (1.0 / 6.0) / 2f64.sqrt();
    close(&o["signal"], signal);
    close(&o["sem"], signal);
    close(&o["bootstrap_sd"], (17.0f64 / 432.0).sqrt());
    assert_eq!(o["noise_kind"], "bootstrap");
    close(&o["ratio"], signal / (17.0f64 / 432.0).sqrt());
    close(&o["spread"], 1.0 / 6.0);
    assert!(o["mdd"].is_null());
    assert_eq!(v["categories"][0]["label"], "Mathematical");
    assert_eq!(
        v["warnings"],
        serde_json::json!([
            "all items: 6 items, cannot tell apart any difference at 80% power",
            "Mathematical: 6 items, cannot tell apart any difference at 80% power"
        ])
    );
    // The table prints the same rows and the warnings.
    let o = coglab(&["quality", "mmiq", "--answers", &key, &one, &two]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("MM-IQ quality: 2 models, 6 items"), "{text}");
    assert!(text.contains("warning: Mathematical: 6 items"), "{text}");
    // MM-IQ without the key is a usage error.
    let o = coglab(&["quality", "mmiq", &one]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--answers KEY is required"));
}

/// `coglab estimate --answers KEY --calibration PRED --calibration PRED PARTIAL...`: the two rank fixtures
/// calibrate (a minimum of 2 set), and a partial run that predicted items 0-2 (A, B, D: two
/// right) is estimated over all 6: answered 3, observed 2/3 (counted by hand).
#[test]
fn estimate_from_predictions_files() {
    let dir = std::env::temp_dir().join(format!("coglab-quality-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let part = dir.join("part.jsonl");
    std::fs::write(
        &part,
        "{\"data_id\": 0, \"parsed_pred\": \"A\"}\n{\"data_id\": 1, \"parsed_pred\": \"B\"}\n\
         {\"data_id\": 2, \"parsed_pred\": \"D\"}\n",
    )
    .unwrap();
    let v = json(&coglab(&[
        "estimate",
        "--answers",
        &fixture("extraction_key.jsonl"),
        "--calibration",
        &fixture("extraction_model1.jsonl"),
        "--calibration",
        &fixture("extraction_model2.jsonl"),
        "--min-calibration",
        "2",
        "--json",
        part.to_str().unwrap(),
    ]));
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(v["calibration"]["items"], 6);
    assert_eq!(v["calibration"]["respondents"], 2);
    let e = &v["estimates"][0];
    assert_eq!(
        (e["id"].as_str(), e["answered"].as_u64()),
        (Some("part"), Some(3))
    );
    close(&e["observed"], 2.0 / 3.0);
    let (lo, x, hi) = (
        e["ci_low"].as_f64().unwrap(),
        e["estimate"].as_f64().unwrap(),
        e["ci_high"].as_f64().unwrap(),
    );
    // 2 right for sure, 3 unanswered: the estimate lies in [2/6, 5/6].
    assert!(
        2.0 / 6.0 <= lo && lo <= x && x <= hi && hi <= 5.0 / 6.0,
        "{lo} {x} {hi}"
    );
}
