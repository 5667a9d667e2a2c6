//! `coglab score kiva` run as a binary on the hand-made run of
//! `coglab-core/tests/fixtures/kiva/run_small/` (figures worked out in
//! `coglab-core/tests/kiva_small.rs`) and, when present, the real files in ../shared/data.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../coglab-core/tests/fixtures/kiva")
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

fn temp_file(name: &str, contents: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("coglab-kiva-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn score_folder_json_follows_the_contract() {
    let o = coglab(&["score", "kiva", &fixture("run_small"), "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["benchmark"], "kiva");
    assert_eq!(v["variant"], "KiVA");
    for stage in [
        "cross",
        "within_conditional",
        "within_joint",
        "extrapolation",
    ] {
        for key in ["mean", "se", "n"] {
            assert!(v["overall"][stage][key].is_number(), "{stage} {key}");
        }
    }
    // Overall cross: trials (2/3, 1, 0, 1) -> mean 2/3, SE sqrt(1/6)/2.
    assert!((v["overall"]["cross"]["mean"].as_f64().unwrap() - 2.0 / 3.0).abs() < 1e-15);
    assert!(
        (v["overall"]["cross"]["se"].as_f64().unwrap() - (1.0f64 / 6.0).sqrt() / 2.0).abs() < 1e-15
    );
    assert_eq!(v["overall"]["within_joint"]["n"], 4);
    assert!(
        (v["by_domain"]["Colour"]["within_conditional"]["mean"]
            .as_f64()
            .unwrap()
            - 0.75)
            .abs()
            < 1e-15
    );
    assert!(
        (v["by_subdomain"]["ReflectX"]["within_joint"]["mean"]
            .as_f64()
            .unwrap()
            - 1.0 / 6.0)
            .abs()
            < 1e-15
    );
    assert!(v.get("trials").is_none());
}

#[test]
fn single_files_and_the_table() {
    let o = coglab(&[
        "score",
        "kiva",
        &fixture("run_small/output_Colour/ColourRed.csv"),
    ]);
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    // ColourRed cross 5/6 = 0.833, SE (1/6)/sqrt(2) = 0.118, 2 trials.
    assert!(text.contains("0.833 ± 0.118 (   2)"), "{text}");
}

#[test]
fn human_file_alone_and_with_a_model() {
    let human = temp_file(
        "human.csv",
        b"ParticipantID,Transformation,Variation,Task,Score,Reaction Time\n\
          1,ColourRed,0,Cross Domain,1,1000\n1,ColourRed,0,Within Domain,1,1200\n1,ColourRed,0,Extrapolation,1,900\n\
          2,ReflectX,3,Cross Domain,1,3000\n2,ReflectX,3,Within Domain,0,5000\n2,ReflectX,3,Extrapolation,1,4000\n",
    );
    let o = coglab(&["score", "kiva", &human, "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["source"], "human");
    assert_eq!(v["reaction_time"]["ReflectX"]["all"]["median_ms"], 4000.0);
    // With two subdomains the correlation cannot be computed (n < 3): reported, not an error.
    let o = coglab(&[
        "score",
        "kiva",
        &fixture("run_small"),
        "--human",
        &human,
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let c = &v["rt_correlation"]["stages"]["extrapolation"];
    assert_eq!(c["n"], 2);
    assert!(c["r"].is_null());
    assert!(c["note"].as_str().unwrap().contains("at least 3"));
}

#[test]
fn bad_input_exits_1() {
    let bad = temp_file(
        "ColourRed.csv",
        b"Variation,Regeneration,MCResponse#1,MCResponse#2,MCResponse#3\n0,0,1,maybe,1\n",
    );
    let o = coglab(&["score", "kiva", &bad]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        err.contains("ColourRed.csv line 2: field \"MCResponse#2\": expected 1, 0, 1.0, 0.0, Null or empty, found \"maybe\""),
        "{err}"
    );
    let o = coglab(&["score", "kiva", "/no/such/folder"]);
    assert_eq!(o.status.code(), Some(1));
    let o = coglab(&["score", "kiva"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn real_gpt4v_folder_when_present() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/kiva");
    if !root.exists() {
        eprintln!("SKIP: {} not found", root.display());
        return;
    }
    let run = root.join("model_data/KiVA/gpt4_multi_image");
    let o = coglab(&["score", "kiva", &run.to_string_lossy(), "--json"]);
    assert!(o.status.success());
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    // pandas reference (coglab-core/tests/fixtures/kiva/reference.py): overall cross 0.8857
    // over 700 trials, within_conditional over 654.
    assert_eq!(v["overall"]["cross"]["n"], 700);
    assert_eq!(v["overall"]["within_conditional"]["n"], 654);
    assert_eq!(v["by_subdomain"].as_object().unwrap().len(), 14);
    assert_eq!(v["by_domain"].as_object().unwrap().len(), 5);
}

#[test]
fn null_switch_wrong_or_missing_when_present() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/kiva");
    if !root.exists() {
        eprintln!("SKIP: {} not found", root.display());
        return;
    }
    // GPT-4V KiVA-adults ColourYellow: 4 `Null` stage-2 answers (variation 16 once, variation
    // 44 three times). Plain-Python csv reference (see coglab-core/tests/kiva_real.rs):
    // within_conditional 131/150 over 50 trials counting them wrong, 0.8979591836734695 over
    // 49 leaving them out.
    let f = root.join("model_data/KiVA-adults/gpt4_multi_image/output_Colour/ColourYellow.csv");
    let f = f.to_string_lossy();
    let run = |extra: &[&str]| -> Value {
        let mut args = vec!["score", "kiva", &f, "--json"];
        args.extend_from_slice(extra);
        let o = coglab(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let w = run(&[]);
    assert_eq!(w["null"], "wrong");
    assert_eq!(w["overall"]["within_conditional"]["n"], 50);
    let x = w["overall"]["within_conditional"]["mean"].as_f64().unwrap();
    assert!((x - 131.0 / 150.0).abs() < 1e-12, "{x}");
    let m = run(&["--null", "missing"]);
    assert_eq!(m["null"], "missing");
    assert_eq!(m["overall"]["within_conditional"]["n"], 49);
    let x = m["overall"]["within_conditional"]["mean"].as_f64().unwrap();
    assert!((x - 0.8979591836734695).abs() < 1e-12, "{x}");
    let o = coglab(&["score", "kiva", &f, "--null", "zero"]);
    assert_eq!(o.status.code(), Some(2));
    let text = String::from_utf8_lossy(&o.stderr);
    assert!(text.contains("expected wrong or missing"), "{text}");
}
