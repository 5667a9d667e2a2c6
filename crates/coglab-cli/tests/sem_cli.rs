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

/// Issue 23: `--htmt standard|eq1`, `--prune stepwise|algorithm1` (bare `--prune` = stepwise),
/// `--arena`, `--scale` / `--exclude-out-of-range`, and the JSON's `htmt_variant` /
/// `prune_variant`. Figures: coglab-core/tests/sem_fidelity.rs (numpy / plspm reference
/// `scripts/gold_fidelity_reference.py`).
#[test]
fn fidelity_switches_in_the_json() {
    let spec = write_temp(
        "fid.json",
        r#"{"constructs": {"A": ["a1", "a2", "a3", "a4"], "B": ["b1", "b2"]}, "human_column": "arena"}"#,
    );
    let data = fixture("prune.csv");
    let json = |extra: &[&str]| -> Value {
        let mut args = vec!["sem", "--spec", spec.as_str(), data.as_str(), "--json"];
        args.extend_from_slice(extra);
        let out = coglab(&args);
        assert!(
            out.status.success(),
            "{extra:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).expect("JSON")
    };
    let plain = json(&[]);
    assert_eq!(plain["htmt_variant"], "standard");
    assert_eq!(plain["prune_variant"], Value::Null);
    assert_eq!(plain["arena_placement"], "construct");
    // Bare --prune is today's stepwise pruning.
    let bare = json(&["--prune"]);
    assert_eq!(bare["prune_variant"], "stepwise");
    let removed = |v: &Value| -> Vec<String> {
        v["pruning"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["removed"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(removed(&bare), ["a3", "a4"]);
    // Algorithm 1 as printed: a1 and a3 (VIF 300.2, 314.3) and a4 (loading -0.040) in one pass.
    let alg = json(&["--prune", "algorithm1"]);
    assert_eq!(alg["prune_variant"], "algorithm1");
    assert_eq!(removed(&alg), ["a1", "a3", "a4"]);
    // The HTMT figures of both variants are checked in coglab-core; here the flag must reach
    // the fit (A|B differs: Eq. 1 divides by block A's within mean only).
    let eq1 = json(&["--htmt", "eq1"]);
    assert_eq!(eq1["htmt_variant"], "eq1");
    assert_ne!(eq1["htmt"]["A|B"], plain["htmt"]["A|B"]);
    let flagged = json(&["--scale", "0:86"]);
    let cells = flagged["out_of_range"].as_array().unwrap();
    // Only task cells count: arena's 86.3 (m10) is the human column, not a task. Tasks above
    // 86: none (largest task value 67.2), so nothing is flagged.
    assert!(cells.is_empty(), "{cells:?}");
    let flagged = json(&["--scale", "0:65"]);
    let cells: Vec<(String, String)> = flagged["out_of_range"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["model"].as_str().unwrap().to_string(),
                c["column"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    // Task cells above 65 in prune.csv: m5 a2 67.2, m10 a2 66.5, m10 a3 65.1.
    assert_eq!(
        cells,
        [
            ("m5".to_string(), "a2".to_string()),
            ("m10".to_string(), "a2".to_string()),
            ("m10".to_string(), "a3".to_string())
        ]
    );
    assert_eq!(flagged["n_models"], 12);
    let dropped = json(&["--scale", "0:65", "--exclude-out-of-range"]);
    assert_eq!(dropped["n_models"], 10);
    assert_eq!(dropped["out_of_range_excluded"], true);
    let text = coglab(&[
        "sem",
        "--spec",
        &spec,
        &data,
        "--htmt",
        "eq1",
        "--prune",
        "algorithm1",
    ]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("HTMT (paper Eq. 1"), "{text}");
    assert!(text.contains("Pruning: Algorithm 1 as printed"), "{text}");
    assert!(
        text.contains("Human column arena: separate construct (ours)"),
        "{text}"
    );
    let bad = coglab(&["sem", "--spec", &spec, &data, "--scale", "100:0"]);
    assert_eq!(bad.status.code(), Some(2));
}
