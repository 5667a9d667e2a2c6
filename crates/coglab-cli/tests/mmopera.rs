//! `coglab score mmopera` and `coglab agree` run as a binary on the hand-made fixture sets in
//! `crates/coglab-core/tests/fixtures/mmopera/`. The expected numbers are worked out by hand
//! in `crates/coglab-core/tests/mmopera.rs`; the arithmetic is repeated briefly here.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

fn fixture(rel: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../coglab-core/tests/fixtures/mmopera")
        .join(rel)
        .to_string_lossy()
        .into_owned()
}

fn coglab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_coglab"))
        .args(args)
        .output()
        .expect("run coglab")
}

fn json(args: &[&str]) -> Value {
    let out = coglab(args);
    assert!(
        out.status.success(),
        "coglab {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

fn close(v: &Value, expected: f64) {
    let x = v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"));
    assert!(
        (x - expected).abs() <= 1e-12 * expected.abs().max(1.0),
        "{x} != {expected}"
    );
}

#[test]
fn score_ria_json_follows_the_contract() {
    let (meta, reg, reas, ans) = (
        fixture("ria/metadata.json"),
        fixture("ria/modelx_RIA_regular_scoring.json"),
        fixture("ria/modelx_RIA_reasoning_scoring.json"),
        fixture("ria/modelx_RIA_results.json"),
    );
    let v = json(&[
        "score",
        "mmopera",
        "--task",
        "ria",
        "--metadata",
        &meta,
        "--regular",
        &reg,
        "--reasoning",
        &reas,
        "--answers",
        &ans,
        "--json",
    ]);
    assert_eq!(v["benchmark"], "mmopera");
    assert_eq!(v["task"], "ria");
    let h = &v["holistic"];
    // N 7, Σ 17: SR 17/28; HR-3 4/7; HR-4 2/7.
    assert_eq!(h["n"], 7);
    close(&h["score_rate"], 17.0 / 28.0);
    close(&h["hr3"], 4.0 / 7.0);
    close(&h["hr4"], 2.0 / 7.0);
    close(&h["delta_hr"], 2.0 / 7.0);
    assert_eq!(h["distribution"]["3"], 2);
    close(&h["by"]["domain"]["Nature"]["score_rate"], 0.875);
    assert_eq!(h["by"]["domain"]["Nature"]["n"], 2);
    close(&h["by"]["type"]["Relation"]["score_rate"], 0.75);
    close(&h["by"]["l2"]["semantic"]["score_rate"], 0.375);
    close(&h["by"]["l1"]["Conception"]["score_rate"], 0.625);
    assert_eq!(h["missing_metadata"][0], "r7");
    assert_eq!(h["warnings"].as_array().unwrap().len(), 1);
    close(
        &h["length_bias"]["correlation"]["r"],
        62.2 / (1932.8f64 * 2.8).sqrt(),
    );
    let r = &v["reasoning"];
    // (1.8748 + 0.37 + 1.2925 + 0.018 + 1.0)/5 = 0.91106; R/D/K 0.75, 0.6625, 0.75.
    assert_eq!(r["n"], 5);
    close(&r["mean_score"], 0.911_06);
    close(&r["mean_r"], 0.75);
    close(&r["mean_d"], 0.6625);
    close(&r["mean_k"], 0.75);
    assert_eq!(r["distribution"]["score"]["1-2"], 3);
    let skipped: Vec<&str> = r["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(skipped, ["r4", "r6"]);
    // Item rows only with --items.
    assert!(v.get("items").is_none());
    let v = json(&[
        "score",
        "mmopera",
        "--task",
        "ria",
        "--metadata",
        &meta,
        "--regular",
        &reg,
        "--items",
        "--json",
    ]);
    assert_eq!(v["items"].as_array().unwrap().len(), 7);
    assert_eq!(v["items"][0]["holistic"][0]["verdicts"][0]["score"], 4);
}

#[test]
fn score_options_and_several_judges() {
    let meta = fixture("ria/metadata.json");
    let reas = fixture("ria/modelx_RIA_reasoning_scoring.json");
    // α 0.5, γ 0.8, paper exponents (γ^1..γ^n):
    // r1 s = 0.95, 0.86, 0.2 → 0.95·0.8 + 0.86·0.64 + 0.2·0.512 = 1.4128; r2 0.65·0.8 = 0.52;
    // r3 1·0.8 + 0.625·0.64 = 1.2; r5 0.01·0.8 = 0.008; r7 0.8 → mean 3.9408/5 = 0.78816.
    let v = json(&[
        "score",
        "mmopera",
        "--task",
        "ria",
        "--metadata",
        &meta,
        "--reasoning",
        &reas,
        "--alpha",
        "0.5",
        "--gamma",
        "0.8",
        "--paper-decay",
        "--json",
    ]);
    close(&v["reasoning"]["mean_score"], 0.788_16);
    assert_eq!(v["reasoning"]["decay_exponent"], "from_one");
    assert!(v["holistic"].is_null());

    // Two holistic judges pooled: (17 + 16)/(4·13); each reported alone.
    let two = format!(
        "{},{}",
        fixture("ria/modelx_RIA_regular_scoring.json"),
        fixture("ria/modelx_RIA_regular_scoring_deepseek.json")
    );
    let v = json(&[
        "score",
        "mmopera",
        "--task",
        "ria",
        "--metadata",
        &meta,
        "--regular",
        &two,
        "--json",
    ]);
    close(&v["holistic"]["score_rate"], 33.0 / 52.0);
    let each = v["per_judge"]["holistic"].as_array().unwrap();
    assert_eq!(each.len(), 2);
    close(&each[1]["score_rate"], 16.0 / 24.0);
}

#[test]
fn decay_and_ica_average_switches() {
    let meta = fixture("ria/metadata.json");
    let reas = fixture("ria/modelx_RIA_reasoning_scoring.json");
    let base = |extra: &[&str]| -> Value {
        let mut args = vec![
            "score",
            "mmopera",
            "--task",
            "ria",
            "--metadata",
            &meta,
            "--reasoning",
            &reas,
            "--alpha",
            "0.5",
            "--gamma",
            "0.8",
            "--json",
        ];
        args.extend_from_slice(extra);
        json(&args)
    };
    // `--decay paper` is `--paper-decay` (0.78816, worked in score_options_and_several_judges);
    // `--decay code` (default) is that / γ = 0.78816 / 0.8 = 0.9852.
    let paper = base(&["--decay", "paper"]);
    close(&paper["reasoning"]["mean_score"], 0.788_16);
    assert_eq!(paper["reasoning"]["decay_exponent"], "from_one");
    let code = base(&[]);
    close(&code["reasoning"]["mean_score"], 0.9852);
    assert_eq!(code["reasoning"]["decay_exponent"], "from_zero");
    assert_eq!(code["reasoning"]["ica_average"], "items");
    let bad = coglab(&["score", "mmopera", "--decay", "gamma"]);
    assert_eq!(bad.status.code(), Some(2));

    // ICA: items (2.099/3 + 0.185)/2 = 0.4423333; paths (released ICA_stat.py)
    // (1 + 0.874 + 0.225 + 0.09 + 0.28)/5 = 0.4938 (worked in coglab-core/tests/mmopera.rs).
    let meta = fixture("ica/metadata.csv");
    let reas = fixture("ica/modelx_ICA_reasoning_scoring.json");
    let ica = |avg: &str| -> Value {
        json(&[
            "score",
            "mmopera",
            "--task",
            "ica",
            "--metadata",
            &meta,
            "--reasoning",
            &reas,
            "--ica-average",
            avg,
            "--json",
        ])
    };
    let items = ica("items");
    close(
        &items["reasoning"]["mean_score"],
        (2.099 / 3.0 + 0.185) / 2.0,
    );
    let paths = ica("paths");
    close(&paths["reasoning"]["mean_score"], 0.4938);
    assert_eq!(paths["reasoning"]["ica_average"], "paths");
    assert_eq!(paths["reasoning"]["scored_paths"], 5);
}

#[test]
fn process_judge_shares_and_length_bias() {
    // The RIA fixture's process judge scores r1, r2, r3, r5, r7 on one path each (worked in
    // coglab-core/tests/mmopera.rs); the shares above 0.75 are over those 5 paths, and the
    // length bias of both judges uses the --min-length given.
    let m = fixture("ria");
    let v = json(&[
        "score",
        "mmopera",
        "--task",
        "ria",
        "--metadata",
        &format!("{m}/metadata.json"),
        "--regular",
        &format!("{m}/modelx_RIA_regular_scoring.json"),
        "--reasoning",
        &format!("{m}/modelx_RIA_reasoning_scoring.json"),
        "--answers",
        &format!("{m}/modelx_RIA_results.json"),
        "--min-length",
        "10",
        "--json",
    ]);
    assert_eq!(v["reasoning"]["distribution"]["above"]["paths"], 5);
    assert_eq!(v["reasoning"]["length_bias"]["min_length"], 10);
    assert_eq!(v["holistic"]["length_bias"]["min_length"], 10);
    assert!(v["reasoning"]["length_bias"]["correlation"]["r"].is_f64());
}

#[test]
fn score_ica_with_released_ica_option() {
    let meta = fixture("ica/metadata.csv");
    let reg = fixture("ica/modelx_ICA_regular_scoring.json");
    // 15 verdicts, Σ 34; without the invalid one N = 14.
    let v = json(&[
        "score",
        "mmopera",
        "--task",
        "ica",
        "--metadata",
        &meta,
        "--regular",
        &reg,
        "--json",
    ]);
    assert_eq!(v["holistic"]["n"], 15);
    close(&v["holistic"]["score_rate"], 34.0 / 60.0);
    close(
        &v["holistic"]["by"]["domain"]["History"]["score_rate"],
        0.75,
    );
    let v = json(&[
        "score",
        "mmopera",
        "--task",
        "ica",
        "--metadata",
        &meta,
        "--regular",
        &reg,
        "--exclude-invalid",
        "--json",
    ]);
    assert_eq!(v["holistic"]["n"], 14);
    close(&v["holistic"]["score_rate"], 34.0 / 56.0);
    // Text output names the metrics.
    let out = coglab(&[
        "score",
        "mmopera",
        "--task",
        "ica",
        "--metadata",
        &meta,
        "--regular",
        &reg,
    ]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("SR 56.67%"), "{text}");
    assert!(text.contains("HR-4 20.00%"), "{text}");
}

#[test]
fn agree_holistic_and_process() {
    let v = json(&[
        "agree",
        &fixture("ria/modelx_RIA_regular_scoring.json"),
        &fixture("ria/human_RIA_rescore.json"),
        "--json",
    ]);
    // Pairs (4,4) (3,2) (2,2) (1,1) (4,3): MAD 0.4, exact 0.6, κ = 0.36/0.76, p = 16/32.
    assert_eq!(v["kind"], "holistic");
    assert_eq!(v["n"], 5);
    close(&v["mean_abs_diff"], 0.4);
    close(&v["exact_match"], 0.6);
    close(&v["kappa"], 0.36 / 0.76);
    close(&v["paired_test"]["p"], 0.5);
    let v = json(&[
        "agree",
        &fixture("ria/modelx_RIA_reasoning_scoring.json"),
        &fixture("ria/modelx_RIA_reasoning_scoring_deepseek.json"),
        "--json",
    ]);
    // K accuracy 5/7, κ 0.3 over 7 paired hops.
    assert_eq!(v["kind"], "process");
    assert_eq!(v["hops"]["n"], 7);
    close(&v["hops"]["k_accuracy"], 5.0 / 7.0);
    close(&v["hops"]["k_kappa"], 0.3);
    // Two regular-scoring judge files work too (DeepSeek vs GPT-4o on r1..r6, r5 invalid in
    // GPT-4o): pairs (4,4) (3,4) (2,3) (1,1) (4,3) → MAD 3/5, exact 2/5.
    let v = json(&[
        "agree",
        &fixture("ria/modelx_RIA_regular_scoring.json"),
        &fixture("ria/modelx_RIA_regular_scoring_deepseek.json"),
        "--json",
    ]);
    close(&v["mean_abs_diff"], 0.6);
    close(&v["exact_match"], 0.4);
}

#[test]
fn bad_input_and_usage_errors() {
    let meta = fixture("ria/metadata.json");
    let reg = fixture("ria/modelx_RIA_regular_scoring.json");
    // Wrong task: exit 1 naming the file.
    let out = coglab(&[
        "score",
        "mmopera",
        "--task",
        "ica",
        "--metadata",
        &meta,
        "--regular",
        &reg,
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("modelx_RIA_regular_scoring.json: expected an ICA file"),
        "{err}"
    );
    // Usage errors: exit 2.
    for args in [
        vec![
            "score",
            "mmopera",
            "--task",
            "both",
            "--metadata",
            &meta,
            "--regular",
            &reg,
        ],
        vec!["score", "mmopera", "--task", "ria", "--metadata", &meta],
        vec![
            "score",
            "mmopera",
            "--task",
            "ria",
            "--metadata",
            &meta,
            "--regular",
            &reg,
            "--alpha",
            "2",
        ],
        vec!["agree", &reg],
    ] {
        assert_eq!(coglab(&args).status.code(), Some(2), "{args:?}");
    }
    // A missing file and a broken JSON file: exit 1, message names the file (and line).
    let out = coglab(&[
        "score",
        "mmopera",
        "--task",
        "ria",
        "--metadata",
        "/nonexistent/meta.json",
        "--regular",
        &reg,
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/meta.json"));
    let broken = std::env::temp_dir().join(format!("mmopera-broken-{}.json", std::process::id()));
    std::fs::write(
        &broken,
        "{\n  \"r1\": {\"score_judge\": \"4\"},\n  \"r2\": \n}\n",
    )
    .unwrap();
    let out = coglab(&[
        "score",
        "mmopera",
        "--task",
        "ria",
        "--metadata",
        &meta,
        "--regular",
        broken.to_str().unwrap(),
    ]);
    std::fs::remove_file(&broken).ok();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("mmopera-broken-") && err.contains(" line 4"),
        "{err}"
    );
    // A metadata file is not a score file.
    let out = coglab(&["agree", &meta, &reg]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("found a metadata file"));
}
