//! `coglab selftest simulate` run as a binary (issue 41): the JSON contract, the acceptance
//! relation of the adaptive form against the fixed one on a fixed seed, determinism, the table,
//! and errors.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn coglab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_coglab"))
        .args(args)
        .output()
        .unwrap()
}

fn simulate(form: &str, trials: usize, takers: usize, seed: u64) -> Value {
    let o = coglab(&[
        "selftest",
        "simulate",
        "--form",
        form,
        "--trials",
        &trials.to_string(),
        "--takers",
        &takers.to_string(),
        "--seed",
        &seed.to_string(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn json_has_the_six_fields() {
    let v = simulate("fixed", 5, 40, 7);
    let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        ["coverage", "form", "mean_se", "rmse", "takers", "trials"]
    );
    assert_eq!(
        (v["form"].as_str(), v["trials"].as_u64()),
        (Some("fixed"), Some(5))
    );
    assert_eq!(v["takers"], 40);
    let (rmse, se, cov) = (
        v["rmse"].as_f64().unwrap(),
        v["mean_se"].as_f64().unwrap(),
        v["coverage"].as_f64().unwrap(),
    );
    // On the ability scale with an N(0, 1) prior a posterior SD is below 1; coverage is a
    // share of 40 takers.
    assert!(rmse > 0.0 && se > 0.0 && se < 1.0, "{v}");
    assert!((cov * 40.0 - (cov * 40.0).round()).abs() < 1e-9 && cov <= 1.0);
}

#[test]
fn adaptive_ten_trials_measure_at_least_as_well_as_fixed_fourteen() {
    // Issue 41's acceptance, on seed 41 with 1,000 takers each: the adaptive form's mean SE
    // with 10 trials is no larger than the fixed form's with 14, and both forms' 95%
    // intervals cover 92-98% of the takers.
    let adaptive = simulate("adaptive", 10, 1000, 41);
    let fixed = simulate("fixed", 14, 1000, 41);
    let se = |v: &Value| v["mean_se"].as_f64().unwrap();
    assert!(se(&adaptive) <= se(&fixed), "{adaptive} vs {fixed}");
    for v in [&adaptive, &fixed] {
        let c = v["coverage"].as_f64().unwrap();
        assert!((0.92..=0.98).contains(&c), "{v}");
    }
}

#[test]
fn the_same_seed_gives_the_same_figures() {
    assert_eq!(
        simulate("adaptive", 6, 50, 3),
        simulate("adaptive", 6, 50, 3)
    );
    assert_ne!(
        simulate("adaptive", 6, 50, 3),
        simulate("adaptive", 6, 50, 4)
    );
}

#[test]
fn table_names_the_figures() {
    let o = coglab(&["selftest", "simulate", "--trials", "4", "--takers", "20"]);
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.starts_with("adaptive form, 4 trials, 20 simulated takers"),
        "{text}"
    );
    assert!(
        text.contains("RMSE ") && text.contains("95% interval coverage"),
        "{text}"
    );
}

#[test]
fn bad_options_and_bank_files_are_refused() {
    let o = coglab(&["selftest", "simulate", "--trials", "0", "--json"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr).trim(),
        "coglab: error: option trials: expected 1 to 200, found 0"
    );
    let o = coglab(&["selftest", "simulate", "--form", "random"]);
    assert_eq!(o.status.code(), Some(2));
    // A bank file with one item: refused, naming the file and what is wrong.
    let dir = std::env::temp_dir().join(format!("coglab-bank-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bundled =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../public/data/kiva-bank.json");
    let mut bank: Value =
        serde_json::from_str(&std::fs::read_to_string(&bundled).unwrap()).unwrap();
    bank["items"].as_array_mut().unwrap().truncate(1);
    let path = dir.join("short.json");
    std::fs::write(&path, bank.to_string()).unwrap();
    let p = path.to_string_lossy().into_owned();
    let o = coglab(&["selftest", "simulate", "--bank", &p]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr).trim(),
        format!("coglab: error: {p}: item bank: 1 items, expected 42")
    );
    // The bundled file given by path gives the built-in bank's figures.
    let o = coglab(&[
        "selftest",
        "simulate",
        "--bank",
        &bundled.to_string_lossy(),
        "--takers",
        "30",
        "--json",
    ]);
    let given: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(given, simulate("adaptive", 14, 30, 1));
    std::fs::remove_dir_all(&dir).unwrap();
}
