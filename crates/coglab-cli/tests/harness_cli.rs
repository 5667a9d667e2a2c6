//! `coglab score mmiq` on harness files and `coglab export eee` (issue 24), on the core's
//! hand-made fixtures (`crates/coglab-core/tests/fixtures/harness`, figures worked out in
//! `crates/coglab-core/tests/harness.rs`).

use std::process::{Command, Output};

const DIR: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../coglab-core/tests/fixtures/harness/"
);

fn coglab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_coglab"))
        .args(args)
        .output()
        .expect("run coglab")
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = coglab(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn score_mmiq_takes_harness_files() {
    let key = format!("{DIR}key.jsonl");
    for (file, correct, n, harness) in [
        ("20240601_120000_samples_mmiq.jsonl", 2, 4, "lmms-eval"),
        ("20231105_samples_mmiq_test.jsonl", 2, 3, "lmms-eval"),
        ("20240110_samples_mm_iq.jsonl", 2, 2, "lmms-eval"),
        ("inspect_log.json", 3, 4, "Inspect"),
        ("GPT4o_MMIQ_CIRC_gpt-4o-mini_result.tsv", 2, 3, "VLMEvalKit"),
    ] {
        let v = json(&[
            "score",
            "mmiq",
            "--answers",
            &key,
            &format!("{DIR}{file}"),
            "--json",
        ]);
        assert_eq!(v["overall"]["correct"], correct, "{file}");
        assert_eq!(v["overall"]["n"], n, "{file}");
        assert_eq!(v["harness"]["harness_label"], harness, "{file}");
    }
    // The summary file's figures, as given.
    let v = json(&[
        "score",
        "mmiq",
        "--answers",
        &key,
        &format!("{DIR}20240601_120000_results.json"),
        "--json",
    ]);
    assert_eq!(v["precomputed"], true);
    assert_eq!(v["harness"], "lmms-eval");
    assert_eq!(v["summary"].as_array().unwrap().len(), 2);
}

#[test]
fn export_eee_round_trips() {
    let key = format!("{DIR}key.jsonl");
    let out = std::env::temp_dir().join(format!("coglab-eee-{}", std::process::id()));
    let o = coglab(&[
        "export",
        "eee",
        "--answers",
        &key,
        &format!("{DIR}inspect_log.json"),
        "--out",
        out.to_str().unwrap(),
        "--timestamp",
        "1717243200",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let inst = out.join("openai_gpt-4o/MM-IQ_1717243200.jsonl");
    let agg = out.join("openai_gpt-4o/MM-IQ_1717243200.json");
    // Read back: 3 of 4 as scored from the Inspect log; the aggregate says 0.75, SE
    // sqrt(0.75 * 0.25 / 4) = 0.21650635094610965.
    let v = json(&[
        "score",
        "mmiq",
        "--answers",
        &key,
        inst.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(
        (v["overall"]["correct"].as_u64(), v["overall"]["n"].as_u64()),
        (Some(3), Some(4))
    );
    assert_eq!(v["harness"]["harness_label"], "Every Eval Ever");
    let a = json(&[
        "score",
        "mmiq",
        "--answers",
        &key,
        agg.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(a["summary"][0]["value"], 0.75);
    let se = a["summary"][0]["stderr"].as_f64().unwrap();
    assert!((se - 0.216_506_350_946_109_65).abs() < 1e-15, "{se}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn harness_file_for_another_task_is_refused() {
    let key = format!("{DIR}key.jsonl");
    let tmp = std::env::temp_dir().join(format!("x{}_samples_mmmu_val.jsonl", std::process::id()));
    std::fs::copy(format!("{DIR}20231105_samples_mmiq_test.jsonl"), &tmp).unwrap();
    let o = coglab(&["score", "mmiq", "--answers", &key, tmp.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("this is lmms-eval output for task \"mmmu_val\", expected an MM-IQ task"),
        "{err}"
    );
    let _ = std::fs::remove_file(tmp);
}

#[test]
fn score_kiva_takes_a_jspsych_run() {
    // ColourRed v3: cross 1, within 1, extrapolation 0; Counting+1 v0: 0, 1, 1 (the core's
    // test works it out); the Shear trial is listed as not mapped.
    let v = json(&[
        "score",
        "kiva",
        &format!("{DIR}kiva_run_jspsych.csv"),
        "--json",
    ]);
    assert_eq!(v["overall"]["cross"]["mean"], 0.5);
    assert_eq!(v["overall"]["extrapolation"]["mean"], 0.5);
    assert_eq!(v["overall"]["within_conditional"]["mean"], 1.0);
    assert_eq!(v["harness"]["harness_label"], "jsPsych");
    assert_eq!(v["harness"]["unmapped"].as_array().unwrap().len(), 1);
}

#[test]
fn score_mmiq_reads_committed_eval_logs() {
    // The .eval fixtures (written by the core's tests from inspect_log.json: zstd and deflate
    // members) score as the .json log: 3 of 4.
    let key = format!("{DIR}key.jsonl");
    for f in ["inspect_log_zstd.eval", "inspect_log_deflate.eval"] {
        let v = json(&[
            "score",
            "mmiq",
            "--answers",
            &key,
            &format!("{DIR}{f}"),
            "--json",
        ]);
        assert_eq!(
            (v["overall"]["correct"].as_u64(), v["overall"]["n"].as_u64()),
            (Some(3), Some(4)),
            "{f}"
        );
        assert_eq!(v["harness"]["format"], "inspect_eval");
    }
}

/// `coglab score kiva ANNOTATIONS RESULTS` scores a KiVA challenge result (the function the
/// web worker calls). By hand from the fixtures: results.json answers trial_001 (A) right,
/// trial_002 (C) right, trial_003 "The answer is (A)" wrong (B is correct), trial_004 (A)
/// right, trial_099 not annotated (unmapped); trial_005 not answered: 3 of 4. The CSV answers
/// trial_001 (B) wrong, trial_002 (C) right, trial_005 B right and trial_005 again (unmapped:
/// the first is scored): 2 of 3, with trial_003 and trial_004 not answered.
#[test]
fn score_kiva_takes_a_kiva_challenge_result() {
    let ann = format!("{DIR}kiva_challenge_annotations.json");
    let v = json(&[
        "score",
        "kiva",
        &format!("{DIR}kiva_challenge_results.json"),
        &ann,
        "--json",
    ]);
    assert_eq!(v["benchmark"], "kiva_challenge");
    assert_eq!(
        (v["overall"]["correct"].as_u64(), v["overall"]["n"].as_u64()),
        (Some(3), Some(4))
    );
    assert_eq!(v["by_domain"]["Counting"]["correct"], 1);
    assert_eq!(v["by_domain"]["Counting"]["n"], 2);
    assert_eq!(v["not_answered"], 1);
    assert_eq!(v["unmapped"].as_array().map(Vec::len), Some(1));
    assert!(v.get("items").is_none(), "items only with --trials");
    let v = json(&[
        "score",
        "kiva",
        &ann,
        &format!("{DIR}kiva_challenge_results.csv"),
        "--json",
        "--trials",
    ]);
    assert_eq!(
        (v["overall"]["correct"].as_u64(), v["overall"]["n"].as_u64()),
        (Some(2), Some(3))
    );
    assert_eq!(v["not_answered"], 2);
    assert_eq!(v["items"].as_array().map(Vec::len), Some(3));
    // A result without its annotations, or with a run CSV, is a usage error naming both.
    let out = coglab(&["score", "kiva", &format!("{DIR}kiva_challenge_results.csv")]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("give one annotation JSON and one result file (found 0 annotation, 1 result and 0 other files)"),
        "{err}"
    );
}

/// The web app's EEE download (`api::EeeExport`: the leaderboard's scoring of the dropped
/// files, `leaderboard::score_files`, then `eee::write_mmiq` on the kept report) gives the
/// same bytes as `coglab export eee` on the same files (the browser names a file by its base
/// name, so the command is run in the fixtures folder on base names). The browser-side check
/// of the same is `tests/e2e/harness.test.mjs`.
#[test]
fn the_leaderboards_eee_records_equal_export_eee() {
    use coglab_core::leaderboard::{score_files, Detail, InputRef};
    let name = "20240601_120000_samples_mmiq.jsonl";
    let (model, stamp) = ("20240601_120000", "1717243200");
    let out = std::env::temp_dir().join(format!("coglab-eee-web-{}", std::process::id()));
    let o = Command::new(env!("CARGO_BIN_EXE_coglab"))
        .current_dir(DIR)
        .args([
            "export",
            "eee",
            "--answers",
            "key.jsonl",
            name,
            "--model",
            model,
        ])
        .args(["--timestamp", stamp, "--out", out.to_str().unwrap()])
        .output()
        .expect("run coglab");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let read = |f: &str| std::fs::read(format!("{DIR}{f}")).unwrap();
    let (key, file) = (read("key.jsonl"), read(name));
    let inputs = [
        InputRef {
            path: "key.jsonl",
            bytes: &key,
            model: None,
        },
        InputRef {
            path: name,
            bytes: &file,
            model: None,
        },
    ];
    let mut scored = score_files(&inputs, |_, _, _| {});
    assert_eq!(scored.mmiq.len(), 1, "{:?}", scored.files);
    assert_eq!(scored.mmiq[0].model, model);
    let mut next = coglab_core::leaderboard::RowId::first(1);
    let details = scored.split_details(&mut next);
    let Some((_, Detail::Mmiq(report))) = details.first() else {
        panic!("no MM-IQ detail")
    };
    let web = coglab_core::harness::eee::write_mmiq(report, model, stamp).unwrap();
    let dir = out.join(model);
    let cli =
        |ext: &str| std::fs::read_to_string(dir.join(format!("MM-IQ_{stamp}.{ext}"))).unwrap();
    assert_eq!(web.instances, cli("jsonl"));
    assert_eq!(web.aggregate, cli("json"));
    // Four items, two right (the fixture's figures, crates/coglab-core/tests/harness.rs).
    assert_eq!(web.instances.lines().count(), 4);
    let _ = std::fs::remove_dir_all(&out);
}

/// The KiVA model page's EEE download (the leaderboard's scoring of a jsPsych run, then
/// `eee::write_kiva`) equals `coglab export eee --kiva` on the same file, byte for byte. By
/// hand from the fixture (p07): ColourRed#3 cross right, within right, extrapolation wrong;
/// Counting+1#0 cross wrong, within right, extrapolation right (Shear#1 has no response and
/// is not a KiVA subdomain). One record per trial and stage score (conditional and joint stage
/// 2 both): scores 1, 1, 1, 0 then 0, 1, 1, 1; stage 1 overall (1 + 0) / 2 = 0.5.
#[test]
fn the_leaderboards_kiva_eee_records_equal_export_eee_kiva() {
    use coglab_core::leaderboard::{score_files, Detail, InputRef};
    let name = "kiva_run_jspsych.csv";
    let (model, stamp) = ("p07 (jsPsych)", "1717243200");
    let out = std::env::temp_dir().join(format!("coglab-eee-kiva-{}", std::process::id()));
    let o = Command::new(env!("CARGO_BIN_EXE_coglab"))
        .current_dir(DIR)
        .args(["export", "eee", "--kiva", name, "--model", model])
        .args(["--timestamp", stamp, "--out", out.to_str().unwrap()])
        .output()
        .expect("run coglab");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let file = std::fs::read(format!("{DIR}{name}")).unwrap();
    let inputs = [InputRef {
        path: name,
        bytes: &file,
        model: None,
    }];
    let mut scored = score_files(&inputs, |_, _, _| {});
    assert_eq!(scored.kiva.len(), 1, "{:?}", scored.files);
    assert_eq!(scored.kiva[0].model, model);
    let mut next = coglab_core::leaderboard::RowId::first(1);
    let details = scored.split_details(&mut next);
    let Some((_, Detail::Kiva(report))) = details.first() else {
        panic!("no KiVA detail")
    };
    let web = coglab_core::harness::eee::write_kiva(report, model, stamp).unwrap();
    let dir = out.join("p07__jsPsych_");
    let cli = |ext: &str| std::fs::read_to_string(dir.join(format!("KiVA_{stamp}.{ext}"))).unwrap();
    assert_eq!(web.instances, cli("jsonl"));
    assert_eq!(web.aggregate, cli("json"));
    let lines: Vec<serde_json::Value> = web
        .instances
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let scores: Vec<f64> = lines
        .iter()
        .map(|l| l["evaluation"]["score"].as_f64().unwrap())
        .collect();
    assert_eq!(scores, [1.0, 1.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0]);
    assert!(lines
        .iter()
        .all(|l| l["evaluation"]["is_correct"] == (l["evaluation"]["score"] == 1.0)));
    assert_eq!(lines[0]["sample_id"], "p07/ColourRed#3");
    let agg: serde_json::Value = serde_json::from_str(&web.aggregate).unwrap();
    assert_eq!(
        agg["evaluation_results"][0]["evaluation_name"],
        "KiVA: What (cross-domain)"
    );
    assert_eq!(agg["evaluation_results"][0]["score_details"]["score"], 0.5);
    let _ = std::fs::remove_dir_all(&out);
}

/// The keys of `coglab score kiva --json` that Every Eval Ever records do not carry: the files
/// read, the counts of the original answers (`rows` but its `rows` and `trials`), the warnings
/// about them, people's reaction times, and the harness information the read-back adds.
fn scored_part(mut v: serde_json::Value) -> serde_json::Value {
    let obj = v.as_object_mut().unwrap();
    for key in ["files", "warnings", "reaction_time", "harness"] {
        obj.remove(key);
    }
    let rows = &obj["rows"];
    let kept = serde_json::json!({"rows": rows["rows"], "trials": rows["trials"]});
    obj.insert("rows".into(), kept);
    v
}

/// `coglab export eee --kiva` of a scored set, then `coglab score kiva` of the instance records
/// it wrote: the same JSON as scoring the set itself, but for what the records do not carry
/// ([`scored_part`]). For model runs (the fixture run, the real GPT-4 run when
/// `../shared/data` is there) and a person (the jsPsych fixture, sample ids
/// `p07/<subdomain>#<variation>`).
#[test]
fn score_kiva_reads_back_export_eee_kiva() {
    let run_small = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../coglab-core/tests/fixtures/kiva/run_small"
    );
    let real = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/kiva/model_data/KiVA/gpt4_multi_image");
    let mut sets = vec![
        (run_small.to_string(), "gpt4", 4),
        (format!("{DIR}kiva_run_jspsych.csv"), "p07", 2),
    ];
    if real.is_dir() {
        sets.push((real.to_string_lossy().into_owned(), "gpt4_multi_image", 0));
    }
    let stamp = "1717243200";
    for (i, (set, model, trials)) in sets.iter().enumerate() {
        let out = std::env::temp_dir().join(format!("coglab-eee-back-{}-{i}", std::process::id()));
        let o = coglab(&[
            "export",
            "eee",
            "--kiva",
            set,
            "--model",
            model,
            "--timestamp",
            stamp,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let jsonl = out.join(model).join(format!("KiVA_{stamp}.jsonl"));
        let jsonl = jsonl.to_str().unwrap();
        let original = json(&["score", "kiva", set, "--json", "--trials"]);
        let back = json(&["score", "kiva", jsonl, "--json", "--trials"]);
        if *trials > 0 {
            assert_eq!(back["rows"]["trials"], *trials, "{set}");
        }
        assert_eq!(
            scored_part(back.clone()),
            scored_part(original.clone()),
            "{set}"
        );
        assert_eq!(back["files"], serde_json::json!([jsonl]));
        assert_eq!(back["harness"]["harness_label"], "Every Eval Ever");
        assert_eq!(back["harness"]["model"], *model);
        assert_eq!(back["harness"]["unmapped"], serde_json::json!([]));
        // The table names the harness and the records read.
        let text = coglab(&["score", "kiva", jsonl]);
        assert!(text.status.success());
        let text = String::from_utf8_lossy(&text.stdout);
        assert!(
            text.contains("harness: Every Eval Ever (Every Eval Ever instance records, task KiVA)"),
            "{text}"
        );
        let _ = std::fs::remove_dir_all(&out);
    }
    // The fixture run's stage-1 figure by hand (crates/coglab-core/tests/eee_kiva.rs): trials
    // (2/3, 1, 0, 1), mean 2/3, SE sqrt(1/6) / 2.
    let out = std::env::temp_dir().join(format!("coglab-eee-back-{}-x", std::process::id()));
    let o = coglab(&[
        "export",
        "eee",
        "--kiva",
        run_small,
        "--model",
        "gpt4",
        "--timestamp",
        stamp,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let jsonl = out.join("gpt4").join(format!("KiVA_{stamp}.jsonl"));
    let jsonl = jsonl.to_str().unwrap();
    let v = json(&["score", "kiva", jsonl, "--json"]);
    let cross = &v["overall"]["cross"];
    assert!((cross["mean"].as_f64().unwrap() - 2.0 / 3.0).abs() < 1e-15);
    assert!((cross["se"].as_f64().unwrap() - (1.0f64 / 6.0).sqrt() / 2.0).abs() < 1e-15);
    // The coverage pair (stage-1 trials scored of those expected) is the runs'.
    assert_eq!(
        v["overall"]["coverage"],
        json(&["score", "kiva", run_small, "--json"])["overall"]["coverage"]
    );
    // The records are a scored set of their own: not with run CSVs.
    let o = coglab(&["score", "kiva", jsonl, run_small]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(
            "holds Every Eval Ever records, a scored set of its own; give it without run CSVs"
        ),
        "{err}"
    );
    // KiVA's records given to score mmiq, and MM-IQ's to score kiva, name the task found.
    let key = format!("{DIR}key.jsonl");
    let o = coglab(&["score", "mmiq", "--answers", &key, jsonl]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("this is Every Eval Ever output for task \"KiVA: What (cross-domain)\", expected an MM-IQ task"),
        "{err}"
    );
    let mmiq = out.join("mmiq.jsonl");
    std::fs::write(
        &mmiq,
        r#"{"evaluation_name": "MM-IQ", "sample_id": "0", "answer_attribution": [], "evaluation": {"score": 1.0}}"#,
    )
    .unwrap();
    let o = coglab(&["score", "kiva", mmiq.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(
            "mmiq.jsonl: this is Every Eval Ever output for task \"MM-IQ\", expected KiVA"
        ),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&out);
}

// ---------------------------------------------------------------------------------------
// Issue 37, finding 5: `export eee` output names and reading its own records back.

/// A fresh temporary folder.
fn temp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("coglab-eee37-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// An Inspect `.json` log for `model` whose item 0 answers B after `pad` characters and item 1
/// answers A (key: 0 = B, 1 = C): 1 of 2.
fn inspect_log(model: &str, pad: usize) -> String {
    let model = serde_json::Value::String(model.into());
    let first = format!("{} ANSWER: B", "z".repeat(pad));
    format!(
        r#"{{"eval": {{"task": "mmiq", "model": {model}}}, "samples": [
            {{"id": 0, "epoch": 1, "output": {{"completion": "{first}"}}}},
            {{"id": 1, "epoch": 1, "output": {{"completion": "ANSWER: A"}}}}]}}"#
    )
}

/// Every file below `dir`, relative, sorted.
fn files_below(dir: &std::path::Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p.strip_prefix(dir).unwrap().to_string_lossy().into_owned());
            }
        }
    }
    out.sort();
    out
}

/// coglab reads back its own export of a set whose first response is 20,000 characters (past
/// the 16 KB detection window), with the scores it exported.
#[test]
fn export_eee_reads_back_a_20000_character_response() {
    let key = format!("{DIR}key.jsonl");
    let dir = temp("long");
    let log = dir.join("log.json");
    std::fs::write(&log, inspect_log("m", 20_000)).unwrap();
    let before = json(&[
        "score",
        "mmiq",
        "--answers",
        &key,
        log.to_str().unwrap(),
        "--json",
    ]);
    let out = dir.join("out");
    let o = coglab(&[
        "export",
        "eee",
        "--answers",
        &key,
        log.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--timestamp",
        "1717243200",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let inst = out.join("m/MM-IQ_1717243200.jsonl");
    let after = json(&[
        "score",
        "mmiq",
        "--answers",
        &key,
        inst.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(after["harness"]["harness_label"], "Every Eval Ever");
    assert_eq!(
        (&after["overall"]["correct"], &after["overall"]["n"]),
        (&before["overall"]["correct"], &before["overall"]["n"])
    );
    assert_eq!(
        (
            after["overall"]["correct"].as_u64(),
            after["overall"]["n"].as_u64()
        ),
        (Some(1), Some(2))
    );
    let agg = out.join("m/MM-IQ_1717243200.json");
    let a = json(&[
        "score",
        "mmiq",
        "--answers",
        &key,
        agg.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(a["summary"][0]["value"], 0.5);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A model named `..` (from the log, or `--model`), `.`, `/`, a leading dot or control
/// characters writes one folder inside `--out`, never beside or above it.
#[test]
fn export_eee_model_names_stay_inside_out() {
    let key = format!("{DIR}key.jsonl");
    for (i, (model, from_flag, folder)) in [
        ("..", false, "_."),
        ("..", true, "_."),
        (".", true, "_"),
        ("../../etc", true, "_._.._etc"),
        ("/", false, "_"),
        (".hidden", true, "_hidden"),
        ("a\u{0}b\nc", false, "a_b_c"),
        ("", true, "model"),
    ]
    .into_iter()
    .enumerate()
    {
        let dir = temp(&format!("name{i}"));
        let log = dir.join("log.json");
        std::fs::write(&log, inspect_log(if from_flag { "m" } else { model }, 0)).unwrap();
        let out = dir.join("out");
        let mut args = vec![
            "export",
            "eee",
            "--answers",
            &key,
            log.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--timestamp",
            "7",
        ];
        if from_flag {
            args.extend(["--model", model]);
        }
        let o = coglab(&args);
        assert!(
            o.status.success(),
            "{model:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(
            files_below(&dir),
            [
                "log.json".to_string(),
                format!("out/{folder}/MM-IQ_7.json"),
                format!("out/{folder}/MM-IQ_7.jsonl"),
            ],
            "{model:?}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Two inputs with the same model and time are both kept (the second one's files suffixed
/// `_2`), and the output says so.
#[test]
fn export_eee_same_model_and_time_keeps_both() {
    let key = format!("{DIR}key.jsonl");
    let dir = temp("twice");
    let (a, b) = (dir.join("a.json"), dir.join("b.json"));
    std::fs::write(&a, inspect_log("m", 0)).unwrap();
    // b: item 0 wrong too (0 of 2), so the two files differ.
    std::fs::write(&b, inspect_log("m", 0).replace("ANSWER: B", "ANSWER: D")).unwrap();
    let out = dir.join("out");
    let o = coglab(&[
        "export",
        "eee",
        "--answers",
        &key,
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--timestamp",
        "7",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        said.contains(
            "MM-IQ_7.json was written for another input in this export: written as MM-IQ_7_2.json"
        ),
        "{said}"
    );
    let got: Vec<String> = files_below(&out);
    assert_eq!(
        got,
        [
            "m/MM-IQ_7.json",
            "m/MM-IQ_7.jsonl",
            "m/MM-IQ_7_2.json",
            "m/MM-IQ_7_2.jsonl"
        ]
    );
    let first = json(&[
        "score",
        "mmiq",
        "--answers",
        &key,
        out.join("m/MM-IQ_7.jsonl").to_str().unwrap(),
        "--json",
    ]);
    let second = json(&[
        "score",
        "mmiq",
        "--answers",
        &key,
        out.join("m/MM-IQ_7_2.jsonl").to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(first["overall"]["correct"], 1);
    assert_eq!(second["overall"]["correct"], 0);
    // Run again into the same folder: the files there are not overwritten either.
    let o = coglab(&[
        "export",
        "eee",
        "--answers",
        &key,
        a.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--timestamp",
        "7",
    ]);
    assert!(o.status.success());
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        said.contains("MM-IQ_7.json already exists: written as MM-IQ_7_3.json"),
        "{said}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// Issue 39: `export eee` for MM-OPERA and Gold, and `export hf`, through the command line.

/// `export eee --mmopera` and `--gold` write where `--out` says: MM-OPERA's pair in the
/// model's folder (the model from the judge file's name), Gold one aggregate per model and no
/// instance file; the lines printed name what was written.
#[test]
fn export_eee_mmopera_and_gold_write_inside_out() {
    let dir = temp("opera-gold");
    let ria = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../coglab-core/tests/fixtures/mmopera/ria/"
    );
    let out = dir.join("out");
    let o = coglab(&[
        "export",
        "eee",
        "--mmopera",
        "--task",
        "ria",
        "--metadata",
        &format!("{ria}metadata.json"),
        "--regular",
        &format!("{ria}modelx_RIA_regular_scoring.json"),
        "--out",
        out.to_str().unwrap(),
        "--timestamp",
        "7",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("MM-OPERA-RIA/modelx/7 (7 verdicts)"));
    let spec = dir.join("spec.json");
    std::fs::write(
        &spec,
        r#"{"constructs": {"A": ["a1", "a2", "a3", "a4"], "B": ["b1", "b2"]}, "paths": [["A", "B"]]}"#,
    )
    .unwrap();
    let data = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../coglab-core/tests/fixtures/sem/prune.csv"
    );
    let o = coglab(&[
        "export",
        "eee",
        "--gold",
        "--spec",
        spec.to_str().unwrap(),
        data,
        "--model",
        "m3",
        "--out",
        out.to_str().unwrap(),
        "--timestamp",
        "7",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("Gold/m3/7 (3 results)"));
    assert_eq!(
        files_below(&out),
        [
            "m3/Gold_7.json",
            "modelx/MM-OPERA-RIA_7.json",
            "modelx/MM-OPERA-RIA_7.jsonl"
        ]
    );
    // --gold without a matrix, --mmopera without its files: usage errors (exit 2).
    let o = coglab(&["export", "eee", "--mmopera", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `export hf` writes one file, `DIR/.eval_results/mmiq.yaml`, refuses to write it again, and
/// writes nothing for a model name that is no Hub id.
#[test]
fn export_hf_writes_one_file_inside_out() {
    let key = format!("{DIR}key.jsonl");
    let dir = temp("hf");
    let log = dir.join("log.json");
    std::fs::write(&log, inspect_log("m", 0)).unwrap();
    let out = dir.join("repo");
    let args = |model: &'static str| {
        vec![
            "export".to_string(),
            "hf".into(),
            "--answers".into(),
            key.clone(),
            log.to_str().unwrap().into(),
            "--out".into(),
            out.to_str().unwrap().into(),
            "--model".into(),
            model.into(),
            "--date".into(),
            "2024-06-01".into(),
        ]
    };
    let run = |a: Vec<String>| coglab(&a.iter().map(String::as_str).collect::<Vec<_>>());
    for bad in ["..", "../../etc/x", "org/a\nb", "a/b/c"] {
        let o = run(args(bad));
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        assert!(!out.exists(), "{bad:?}");
    }
    let o = run(args("org/m"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        files_below(&dir),
        ["log.json", "repo/.eval_results/mmiq.yaml"]
    );
    let text = std::fs::read_to_string(out.join(".eval_results/mmiq.yaml")).unwrap();
    // 1 of 2 right.
    assert!(text.contains("value: 50.0"), "{text}");
    let o = run(args("org/m"));
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("already exists"));
    assert_eq!(
        std::fs::read_to_string(out.join(".eval_results/mmiq.yaml")).unwrap(),
        text
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `export hf --bundle`: `coglab publish` on the core's `publish/tiny` board, then model
/// `alpha`'s MM-IQ row exported from the bundle equals the file exported from its key and
/// predictions; the bundle and the board are not written to, and a second export is refused.
#[test]
fn export_hf_from_a_bundle_equals_from_the_files() {
    let tiny = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../coglab-core/tests/fixtures/publish/tiny"
    );
    let dir = temp("hf-bundle");
    let bundle = dir.join("bundle");
    let o = coglab(&["publish", tiny, "--out", bundle.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let before = files_below(&bundle);
    let (from_bundle, from_files) = (dir.join("a"), dir.join("b"));
    let common = ["--model", "org/alpha", "--date", "2024-06-01", "--out"];
    let mut args = vec!["export", "hf", "--bundle", bundle.to_str().unwrap()];
    args.extend(common);
    args.push(from_bundle.to_str().unwrap());
    let o = coglab(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (key, preds) = (
        format!("{tiny}/keys/key.jsonl"),
        format!("{tiny}/runs/alpha.jsonl"),
    );
    let mut files_args = vec!["export", "hf", "--answers", &key, &preds];
    files_args.extend(common);
    files_args.push(from_files.to_str().unwrap());
    let o = coglab(&files_args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let read =
        |d: &std::path::Path| std::fs::read_to_string(d.join(".eval_results/mmiq.yaml")).unwrap();
    assert_eq!(read(&from_bundle), read(&from_files));
    assert_eq!(files_below(&from_bundle), [".eval_results/mmiq.yaml"]);
    assert_eq!(files_below(&bundle), before);
    let o = coglab(&args);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("already exists"));
    let _ = std::fs::remove_dir_all(&dir);
}
