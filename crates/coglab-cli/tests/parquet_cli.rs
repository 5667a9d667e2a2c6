//! `coglab score mmiq` on Parquet predictions and a Parquet key (issue 39), written in the test
//! from the hand-made JSONL fixtures of `coglab-core/tests/fixtures/mmiq/`: the report equals
//! the JSONL's (expected numbers worked out in `coglab-core/tests/mmiq_small.rs`: 4 of 6).

use crate::parquet_fixtures::{to_parquet, zstd};
use parquet::basic::Compression;
use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../coglab-core/tests/fixtures/mmiq")
        .join(name)
}

fn coglab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_coglab"))
        .args(args)
        .output()
        .unwrap()
}

fn temp_file(name: &str, contents: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("coglab-parquet-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path.to_string_lossy().into_owned()
}

/// The `--json` report without the file names.
fn report(args: &[&str]) -> Value {
    let o = coglab(args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let o = v.as_object_mut().unwrap();
    o.remove("file");
    o.remove("key_file");
    v
}

#[test]
fn score_mmiq_reads_parquet_predictions_and_key() {
    let preds = std::fs::read(fixture("preds_small.jsonl")).unwrap();
    let key = std::fs::read(fixture("key_small.jsonl")).unwrap();
    let pq_preds = temp_file("preds_small.parquet", &to_parquet(&preds, zstd(), 4, true));
    let pq_key = temp_file(
        "key_small.parquet",
        &to_parquet(&key, Compression::SNAPPY, 4, true),
    );
    let (jk, jp) = (
        fixture("key_small.jsonl").to_string_lossy().into_owned(),
        fixture("preds_small.jsonl").to_string_lossy().into_owned(),
    );
    for items in [false, true] {
        let extra: &[&str] = if items { &["--items"] } else { &[] };
        let args = |k: &str, p: &str| -> Vec<String> {
            let mut a = vec!["score", "mmiq", "--answers", k, p, "--json"];
            a.extend(extra);
            a.into_iter().map(String::from).collect()
        };
        let run = |a: Vec<String>| report(&a.iter().map(String::as_str).collect::<Vec<_>>());
        let jsonl = run(args(&jk, &jp));
        assert_eq!(jsonl["overall"]["n"], 6);
        assert!((jsonl["overall"]["accuracy"].as_f64().unwrap() - 4.0 / 6.0).abs() < 1e-12);
        assert_eq!(run(args(&jk, &pq_preds)), jsonl, "items {items}");
        assert_eq!(run(args(&pq_key, &pq_preds)), jsonl, "items {items}");
        assert_eq!(run(args(&pq_key, &jp)), jsonl, "items {items}");
    }
}

#[test]
fn score_mmiq_locates_a_bad_parquet_row() {
    let mut rows = String::new();
    for i in 0..6 {
        let id = if i == 4 {
            "\"x4\"".to_string()
        } else {
            format!("\"{i}\"")
        };
        rows.push_str(&format!("{{\"data_id\": {id}, \"response\": \"B\"}}\n"));
    }
    let bad = temp_file("bad.parquet", &to_parquet(rows.as_bytes(), zstd(), 4, true));
    let key = fixture("key_small.jsonl").to_string_lossy().into_owned();
    for items in [&[][..], &["--items"][..]] {
        let mut args = vec!["score", "mmiq", "--answers", &key, &bad];
        args.extend(items);
        let o = coglab(&args);
        assert!(!o.status.success());
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("bad.parquet row group 2, row 1: field \"data_id\": expected a non-negative integer, found \"x4\""),
            "{err}"
        );
    }
    // A file cut short.
    let pq = to_parquet(rows.as_bytes(), zstd(), 4, true);
    let cut = temp_file("cut.parquet", &pq[..pq.len() - 3]);
    let o = coglab(&["score", "mmiq", "--answers", &key, &cut]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("cut.parquet: the file is cut short"), "{err}");
}

/// `coglab score kiva` on a folder of KiVA runs stored as Parquet (written by pyarrow from
/// `run_small`'s CSVs, `coglab-core/tests/fixtures/kiva/run_small_parquet/make.py`): the
/// folder walk finds the `.parquet` files and the report equals the CSV folder's (per-trial
/// rows included), but for the file names.
#[test]
fn score_kiva_reads_a_folder_of_parquet_runs() {
    let kiva = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../coglab-core/tests/fixtures/kiva");
    let run = |folder: &str| -> String {
        let dir = kiva.join(folder).to_string_lossy().into_owned();
        let o = coglab(&["score", "kiva", &dir, "--trials", "--json"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout)
            .unwrap()
            .replace("run_small_parquet", "run_small")
            .replace(".parquet", ".csv")
    };
    let pq = run("run_small_parquet");
    assert!(pq.contains("ColourRed.csv"), "{pq}");
    assert_eq!(pq, run("run_small"));
}

/// `coglab score mmiq` on a lighteval details file (pyarrow, in lighteval 0.13's shape:
/// `coglab-core/tests/fixtures/harness/lighteval/make.py`): 4 of 6, as worked out by hand in
/// `coglab-core/tests/mmiq_small.rs`; a details file of another task is refused naming it.
#[test]
fn score_mmiq_reads_lighteval_details() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../coglab-core/tests/fixtures/harness/lighteval");
    let key = fixture("key_small.jsonl").to_string_lossy().into_owned();
    let details = dir
        .join("details_mmiq_2025-11-05T10-00-00.000000.parquet")
        .to_string_lossy()
        .into_owned();
    let v = report(&["score", "mmiq", "--answers", &key, &details, "--json"]);
    assert_eq!(v["overall"]["correct"], 4, "{v}");
    assert_eq!(v["overall"]["n"], 6, "{v}");
    let other = dir
        .join("details_gsm8k_2025-11-05T10-00-00.000000.parquet")
        .to_string_lossy()
        .into_owned();
    let o = coglab(&["score", "mmiq", "--answers", &key, &other, "--json"]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(
            "this is lighteval output for task \"lighteval|gsm8k|0\", expected an MM-IQ task"
        ),
        "{err}"
    );
}
