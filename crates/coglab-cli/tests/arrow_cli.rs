//! `coglab score mmiq` on Arrow IPC predictions (a zstd file) and an Arrow IPC key (an LZ4
//! stream), written by pyarrow from the hand-made JSONL fixtures of
//! `coglab-core/tests/fixtures/mmiq/` (`coglab-core/tests/fixtures/arrow/make.py`): the report
//! equals the JSONL's (expected numbers worked out in `coglab-core/tests/mmiq_small.rs`: 4 of
//! 6).

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../coglab-core/tests/fixtures")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// The `--json` report without the file names.
fn report(args: &[&str]) -> Value {
    let o = Command::new(env!("CARGO_BIN_EXE_coglab"))
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let o = v.as_object_mut().unwrap();
    o.remove("file");
    o.remove("key_file");
    v
}

#[test]
fn score_mmiq_reads_arrow_predictions_and_key() {
    let (jk, jp) = (
        fixture("mmiq/key_small.jsonl"),
        fixture("mmiq/preds_small.jsonl"),
    );
    let (ak, ap) = (
        fixture("arrow/key_small.arrows"),
        fixture("arrow/preds_small.arrow"),
    );
    for items in [false, true] {
        let run = |k: &str, p: &str| {
            let mut a = vec!["score", "mmiq", "--answers", k, p, "--json"];
            if items {
                a.push("--items");
            }
            report(&a)
        };
        let jsonl = run(&jk, &jp);
        assert_eq!(jsonl["overall"]["n"], 6);
        assert!((jsonl["overall"]["accuracy"].as_f64().unwrap() - 4.0 / 6.0).abs() < 1e-12);
        assert_eq!(run(&jk, &ap), jsonl, "items {items}");
        assert_eq!(run(&ak, &ap), jsonl, "items {items}");
        assert_eq!(run(&ak, &jp), jsonl, "items {items}");
    }
}
