//! `coglab describe` and `coglab sem` end to end: JSON contract, exit codes, located errors.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn coglab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_coglab"))
        .args(args)
        .output()
        .expect("coglab runs")
}

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../coglab-core/tests/fixtures/sem")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn shared(rel: &str) -> Option<String> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data")
        .join(rel);
    if p.exists() {
        return Some(p.to_string_lossy().into_owned());
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("CI=true but {} is missing", p.display());
    }
    eprintln!("SKIP: {} not found", p.display());
    None
}

fn write_temp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("coglab-sem-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write temp file");
    p.to_string_lossy().into_owned()
}

#[test]
fn describe_json_contract() {
    let out = coglab(&["describe", &fixture("prune.csv"), "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let a1 = &v["a1"];
    for key in [
        "n",
        "mean",
        "median",
        "min",
        "max",
        "sd",
        "skewness",
        "excess_kurtosis",
        "cvm_w",
        "cvm_w_star",
        "cvm_p",
    ] {
        assert!(a1.get(key).is_some(), "describe a1 lacks {key}");
    }
    // a1 column of prune.csv: 44.0 40.9 39.3 52.9 56.5 50.2 38.0 42.3 57.3 64.8 47.5 35.7,
    // sum 569.4 -> mean 47.45; sorted middle pair 44.0, 47.5 -> median 45.75.
    assert_eq!(a1["n"], 12);
    assert!((a1["mean"].as_f64().unwrap() - 47.45).abs() < 1e-12);
    assert!((a1["median"].as_f64().unwrap() - 45.75).abs() < 1e-12);
    assert_eq!(a1["min"], 35.7);
    assert_eq!(v.as_object().unwrap().len(), 7);
}

#[test]
fn sem_json_contract_on_mobi() {
    let Some(mobi) = shared("sem/mobi.csv") else {
        return;
    };
    let spec = write_temp(
        "mobi.json",
        r#"{"constructs": {"Image": ["IMAG1", "IMAG2", "IMAG3", "IMAG4", "IMAG5"],
            "Expectation": ["CUEX1", "CUEX2", "CUEX3"], "Value": ["PERV1", "PERV2"],
            "Satisfaction": ["CUSA1", "CUSA2", "CUSA3"]},
            "paths": [["Image", "Satisfaction"], ["Expectation", "Satisfaction"], ["Value", "Satisfaction"]]}"#,
    );
    let out = coglab(&[
        "sem",
        "--spec",
        &spec,
        &mobi,
        "--bootstrap",
        "200",
        "--seed",
        "7",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    for key in [
        "n_models",
        "outer",
        "paths",
        "r2",
        "reliability",
        "htmt",
        "vif",
        "diagnostics",
        "pruning",
        "overall_scores",
        "bootstrap",
        "descriptives",
    ] {
        assert!(v.get(key).is_some(), "sem JSON lacks {key}");
    }
    assert_eq!(v["n_models"], 250);
    // seminr (../shared/data/sem/mobi_modeA_path): Image -> Satisfaction 0.447003896753,
    // IMAG1 weight 0.331565496837, HTMT Image|Satisfaction 0.910100923783.
    assert!(
        (v["paths"]["Image -> Satisfaction"].as_f64().unwrap() - 0.447_003_896_753).abs() < 1e-6
    );
    assert!((v["outer"]["IMAG1"]["weight"].as_f64().unwrap() - 0.331_565_496_837).abs() < 1e-6);
    assert_eq!(v["outer"]["IMAG1"]["construct"], "Image");
    assert!((v["htmt"]["Image|Satisfaction"].as_f64().unwrap() - 0.910_100_923_783).abs() < 1e-6);
    for key in ["alpha", "rho_c", "rho_a", "ave"] {
        assert!(v["reliability"]["Value"][key].is_number());
    }
    for key in ["d_div", "tc", "d_valid"] {
        assert!(v["diagnostics"][key].is_number());
    }
    assert!(v["overall_scores"]["1"]["by_construct"]["Image"].is_number());
    let b = &v["bootstrap"];
    assert_eq!(b["resamples"], 200);
    let p = &b["paths"]["Image -> Satisfaction"];
    assert!(p["ci_low"].as_f64().unwrap() < 0.447 && 0.447 < p["ci_high"].as_f64().unwrap());
    // Same seed, same numbers.
    let again = coglab(&[
        "sem",
        "--spec",
        &spec,
        &mobi,
        "--bootstrap",
        "200",
        "--seed",
        "7",
        "--json",
    ]);
    assert_eq!(out.stdout, again.stdout);
}

#[test]
fn prune_and_text_output() {
    let spec = write_temp(
        "prune.json",
        r#"{"constructs": {"A": ["a1", "a2", "a3", "a4"], "B": ["b1", "b2"]}, "human_column": "arena"}"#,
    );
    let out = coglab(&[
        "sem",
        "--spec",
        &spec,
        &fixture("prune.csv"),
        "--prune",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let removed: Vec<&str> = v["pruning"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["removed"].as_str().unwrap())
        .collect();
    assert_eq!(removed, vec!["a3", "a4"]); // worked out in coglab-core/tests/sem_gold.rs
    assert_eq!(v["pruning"][0]["reason"], "vif");
    let text = coglab(&["sem", "--spec", &spec, &fixture("prune.csv"), "--prune"]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("removed a3 (A): vif"), "{text}");
    assert!(text.contains("Gold diagnostics"), "{text}");
}

#[test]
fn bad_input_exit_codes() {
    let spec = write_temp(
        "bad.json",
        "{\"constructs\": {\n  \"A\": [\"a1\", \"nope\"]}}",
    );
    let out = coglab(&["sem", "--spec", &spec, &fixture("prune.csv")]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.json line 2: field \"constructs.A\": indicator \"nope\""),
        "{err}"
    );
    let out = coglab(&["sem", &fixture("prune.csv")]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "missing --spec is a usage error"
    );
    let out = coglab(&["describe", "--nope"]);
    assert_eq!(out.status.code(), Some(2));
    let out = coglab(&[
        "sem",
        "--spec",
        &spec,
        &fixture("prune.csv"),
        "--missing",
        "zero",
    ]);
    assert_eq!(out.status.code(), Some(2));
}
