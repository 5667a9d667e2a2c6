//! The records `coglab export eee` writes ([`coglab_run::export::eee`], the code the CLI and
//! the Python package call), validated against Every Eval Ever's own 0.3.0 JSON Schemas
//! (`tests/fixtures/eee-0.3.0`, vendored unchanged; its README names the repository, paths and
//! commit), so a field 0.3.0 requires and the writer leaves out fails here.
//!
//! Inputs: the core's harness fixtures (an Inspect log scored with its key, the jsPsych KiVA
//! run of one person), the KiVA model run `fixtures/kiva/run_small`, the MM-OPERA judge files
//! `fixtures/mmopera/{ria,ica}` and the Gold score matrix `fixtures/sem/prune.csv`.

use coglab_run::export::{
    eee, eee_gold, eee_mmopera, EeeRequest, EeeSet, GoldEeeRequest, MmoperaEeeRequest,
};
use coglab_run::mmopera::MmoperaInputs;
use coglab_run::Source;
use serde_json::Value;

const CORE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../coglab-core/tests/fixtures/"
);

fn schema(name: &str) -> jsonschema::Validator {
    let path = format!(
        "{}/tests/fixtures/eee-0.3.0/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(doc["version"], "0.3.0", "{path}");
    assert_eq!(doc["$schema"], "http://json-schema.org/draft-07/schema#");
    jsonschema::draft7::new(&doc).unwrap()
}

/// Every error the schema finds in `record`, with where (empty when it is valid).
fn errors(v: &jsonschema::Validator, record: &Value) -> Vec<String> {
    v.iter_errors(record)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

fn export(answers: Option<&str>, scored: &[&str], model: &str) -> Vec<EeeSet> {
    let request = EeeRequest {
        answers: answers.map(Source::path),
        scored: scored.iter().map(|s| Source::path(*s)).collect(),
        model: Some(model.to_string()),
        timestamp: 1_717_243_200,
    };
    let mut sets = Vec::new();
    eee(&request, |set| {
        sets.push(set);
        Ok(())
    })
    .unwrap();
    sets
}

/// The set's aggregate and every instance record valid under the 0.3.0 schemas; returns them.
fn assert_valid(set: &EeeSet) -> (Value, Vec<Value>) {
    let aggregate: Value = serde_json::from_str(&set.records.aggregate).unwrap();
    let found = errors(&schema("eval.schema.json"), &aggregate);
    assert!(found.is_empty(), "{}: aggregate: {found:#?}", set.source);
    let instance = schema("instance_level_eval.schema.json");
    let mut lines = Vec::new();
    for (i, line) in set.records.instances.lines().enumerate() {
        let record: Value = serde_json::from_str(line).unwrap();
        let found = errors(&instance, &record);
        assert!(
            found.is_empty(),
            "{}: instance line {}: {found:#?}",
            set.source,
            i + 1
        );
        lines.push(record);
    }
    assert!(!lines.is_empty());
    let detailed = &aggregate["detailed_evaluation_results"];
    assert_eq!(detailed["total_rows"], lines.len());
    // Every instance record points at a result of the aggregate.
    let ids: Vec<&Value> = aggregate["evaluation_results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["evaluation_result_id"])
        .collect();
    for l in &lines {
        assert!(ids.contains(&&l["evaluation_result_id"]), "{l}");
    }
    (aggregate, lines)
}

#[test]
fn the_schemas_reject_what_they_require() {
    // The validator reads the vendored schema: a record without model_info.additional_details
    // (the field 0.2.1 records lack) is refused.
    let v = schema("eval.schema.json");
    let record = serde_json::json!({
        "schema_version": "0.2.1", "evaluation_id": "e", "retrieved_timestamp": "1",
        "source_metadata": {"source_type": "evaluation_run", "source_organization_name": "o",
            "evaluator_relationship": "third_party"},
        "model_info": {"name": "m", "id": "m"},
        "eval_library": {"name": "coglab", "version": "0"},
        "evaluation_results": [],
    });
    let found = errors(&v, &record);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].contains("additional_details"), "{found:#?}");
}

#[test]
fn mmiq_export_is_valid_eee_0_3_0() {
    let key = format!("{CORE}harness/key.jsonl");
    let log = format!("{CORE}harness/inspect_log.json");
    let sets = export(Some(&key), &[&log], "openai/gpt-4o");
    assert_eq!(sets.len(), 1);
    let (aggregate, lines) = assert_valid(&sets[0]);
    assert_eq!(aggregate["schema_version"], "0.3.0");
    // 3 of 4 right (harness_cli.rs's export_eee_round_trips). Wilson 95% interval by hand,
    // z = 1.959964, z² = 3.841459: centre (0.75 + z²/8) / (1 + z²/4) = 1.230182 / 1.960365
    // = 0.627530; half-width z·sqrt(0.75·0.25/4 + z²/64) / (1 + z²/4) = 1.959964 · 0.326953
    // / 1.960365 = 0.326886; so [0.300644, 0.954416].
    let overall = &aggregate["evaluation_results"][0];
    let u = &overall["score_details"]["uncertainty"];
    assert_eq!(overall["score_details"]["score"], 0.75);
    assert_eq!(u["num_samples"], 4);
    assert_eq!(u["confidence_interval"]["method"], "wilson");
    assert_eq!(u["confidence_interval"]["confidence_level"], 0.95);
    let lo = u["confidence_interval"]["lower"].as_f64().unwrap();
    let hi = u["confidence_interval"]["upper"].as_f64().unwrap();
    assert!(
        (lo - 0.300_64).abs() < 1e-4 && (hi - 0.954_41).abs() < 1e-4,
        "{lo} {hi}"
    );
    assert_eq!(lines.len(), 4);
}

#[test]
fn kiva_exports_are_valid_eee_0_3_0() {
    let run = format!("{CORE}kiva/run_small");
    let person = format!("{CORE}harness/kiva_run_jspsych.csv");
    for (input, model, rows) in [(run.as_str(), "gpt4", 16), (person.as_str(), "p07", 8)] {
        let sets = export(None, &[input], model);
        assert_eq!(sets.len(), 1);
        let (aggregate, lines) = assert_valid(&sets[0]);
        assert_eq!(aggregate["schema_version"], "0.3.0");
        assert_eq!(lines.len(), rows, "{input}");
    }
}

fn opera(task: &str, file: &str) -> String {
    format!("{CORE}mmopera/{task}/{file}")
}

/// The RIA fixture's inputs: metadata, one holistic and one process judge, the answers.
fn ria_inputs() -> MmoperaInputs {
    MmoperaInputs {
        task: coglab_core::mmopera::Task::Ria,
        metadata: Source::path(opera("ria", "metadata.json")),
        regular: vec![Source::path(opera(
            "ria",
            "modelx_RIA_regular_scoring.json",
        ))],
        reasoning: vec![Source::path(opera(
            "ria",
            "modelx_RIA_reasoning_scoring.json",
        ))],
        answers: Some(Source::path(opera("ria", "modelx_RIA_results.json"))),
    }
}

fn export_mmopera(inputs: MmoperaInputs, judges: &[&str]) -> Result<EeeSet, coglab_run::RunError> {
    eee_mmopera(&MmoperaEeeRequest {
        inputs,
        options: Default::default(),
        judges: judges.iter().map(|j| j.to_string()).collect(),
        model: None,
        timestamp: 1_717_243_200,
    })
}

fn close(a: f64, b: f64, what: &str) {
    assert!((a - b).abs() < 1e-12, "{what}: {a} vs {b}");
}

/// The MM-OPERA RIA export: valid under 0.3.0; read back with coglab's EEE readers, its figures
/// are the scorer's (`coglab score mmopera`), and by hand from the judge file
/// (`fixtures/mmopera/ria/modelx_RIA_regular_scoring.json`): scores 4, 3, 2, 1, "N/A" (counted
/// 0), 4, 3 on seven items, one verdict each, so SR = 17 / 28, HR-3 = 4 / 7, HR-4 = 2 / 7,
/// ΔHR = 2 / 7 (paper §4.1). With one verdict per item the ratio estimator's SE is the sample
/// SD over sqrt(n): for SR the per-item y = score / 4 deviate from 17/28 by 11/28, 4/28, −3/28,
/// −10/28, −17/28, 11/28, 4/28, whose squares sum to 672 / 784 = 6/7, so SE =
/// sqrt(7/6 · 6/7) / 7 = 1/7; for HR-4, Σ(y − 2/7)² = 2·(5/7)² + 5·(2/7)² = 10/7 and SE =
/// sqrt(7/6 · 10/7) / 7 = sqrt(5/3) / 7.
#[test]
fn mmopera_export_is_valid_eee_0_3_0_and_reads_back() {
    use coglab_core::harness::eee;
    let set = export_mmopera(ria_inputs(), &[]).unwrap();
    assert_eq!(set.model, "modelx");
    let (aggregate, lines) = assert_valid(&set);
    assert_eq!(lines.len(), 7);
    // The judge named where 0.3.0 has room for it.
    let judge = &aggregate["evaluation_results"][0]["metric_config"]["llm_scoring"]["judges"][0];
    assert_eq!(judge["model_info"]["id"], "openai/gpt-4o-2024-08-06");

    let scored = coglab_run::mmopera::score(&ria_inputs(), &Default::default(), false).unwrap();
    let h = scored.report.holistic.unwrap();
    let r = scored.report.reasoning.unwrap();
    let back = eee::read_aggregate("a.json", set.records.aggregate.as_bytes()).unwrap();
    let got: Vec<(&str, f64, Option<f64>, Option<u64>)> = back
        .summary
        .iter()
        .map(|s| (s.task.as_str(), s.value, s.stderr, s.n))
        .collect();
    let names = [
        "MM-OPERA RIA: SR",
        "MM-OPERA RIA: HR-3",
        "MM-OPERA RIA: HR-4",
        "MM-OPERA RIA: ΔHR",
        "MM-OPERA RIA: reasoning score",
    ];
    assert_eq!(got.iter().map(|g| g.0).collect::<Vec<_>>(), names);
    // The scorer's figures.
    for (g, want) in got
        .iter()
        .zip([h.score_rate, h.hr3, h.hr4, h.delta_hr, r.mean_score])
    {
        assert_eq!(g.1, want, "{}", g.0);
    }
    // By hand.
    close(got[0].1, 17.0 / 28.0, "SR");
    close(got[1].1, 4.0 / 7.0, "HR-3");
    close(got[2].1, 2.0 / 7.0, "HR-4");
    close(got[3].1, 2.0 / 7.0, "ΔHR");
    close(got[0].2.unwrap(), 1.0 / 7.0, "SE of SR");
    close(got[2].2.unwrap(), (5.0f64 / 3.0).sqrt() / 7.0, "SE of HR-4");
    assert_eq!(got[0].3, Some(7));
    // The leaderboard's interval (issue 40): Wilson's with the effective size
    // R(1 − R)/SE² = (17/28)(11/28)·49 = 11.69, kept at the 7 verdicts, and t(0.975, 6) =
    // 2.446911851144969 (by hand in Python): [0.2224852998, 0.8930114575].
    let u = &aggregate["evaluation_results"][0]["score_details"]["uncertainty"];
    let ci = |end: &str| u["confidence_interval"][end].as_f64().unwrap();
    assert!(
        (ci("lower") - 0.222_485_299_797_377_8).abs() < 1e-9,
        "SR low {}",
        ci("lower")
    );
    assert!(
        (ci("upper") - 0.893_011_457_543_373_6).abs() < 1e-9,
        "SR high {}",
        ci("upper")
    );
    assert_eq!(u["confidence_interval"]["confidence_level"], 0.95);
    // The process-reward score: the scorer's mean over items (the CLI test's 0.91106), with
    // parameters α = γ = 0.9.
    assert!((got[4].1 - 0.911_06).abs() < 1e-5, "{}", got[4].1);
    let params = &aggregate["evaluation_results"][4]["metric_config"]["metric_parameters"];
    assert_eq!(
        (params["alpha"].as_f64(), params["gamma"].as_f64()),
        (Some(0.9), Some(0.9))
    );

    // The instance records: the judge's 0-4 scores give SR again, and the verdicts of 4 are
    // the ones right (HR-4).
    let inst = eee::read_instances("i.jsonl", set.records.instances.as_bytes()).unwrap();
    assert_eq!(inst.task.as_deref(), Some("MM-OPERA RIA"));
    let scores: Vec<f64> = lines
        .iter()
        .map(|l| l["evaluation"]["score"].as_f64().unwrap())
        .collect();
    assert_eq!(scores, [4.0, 3.0, 2.0, 1.0, 0.0, 4.0, 3.0]);
    let extracted: Vec<&str> = inst
        .records
        .iter()
        .map(|r| r.extracted.as_deref().unwrap())
        .collect();
    assert_eq!(extracted, ["4", "3", "2", "1", "N/A", "4", "3"]);
    let right = inst
        .records
        .iter()
        .filter(|r| r.verdict == Some(true))
        .count();
    assert_eq!(right, 2);
    assert_eq!(lines[4]["metadata"]["invalid_score"], "N/A");
    assert!(lines[0]["output"]["raw"][0]
        .as_str()
        .unwrap()
        .starts_with("Both protect"));
    // Not an MM-IQ file, said so.
    let key = format!("{CORE}harness/key.jsonl");
    let dir = std::env::temp_dir().join(format!("coglab-eee-opera-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("opera.jsonl");
    std::fs::write(&path, &set.records.instances).unwrap();
    let e = coglab_run::mmiq::score(
        &Source::path(&key),
        &Source::path(path.to_str().unwrap()),
        false,
        drop,
    )
    .err()
    .unwrap();
    assert!(
        e.to_string()
            .contains("for task \"MM-OPERA RIA\", expected an MM-IQ task"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// ICA: four rotations a verdict each (one instance record per rotation), and two judges named
/// one per judge file.
#[test]
fn mmopera_ica_and_two_judges() {
    let inputs = MmoperaInputs {
        task: coglab_core::mmopera::Task::Ica,
        metadata: Source::path(opera("ica", "metadata.csv")),
        regular: vec![Source::path(opera(
            "ica",
            "modelx_ICA_regular_scoring.json",
        ))],
        reasoning: vec![Source::path(opera(
            "ica",
            "modelx_ICA_reasoning_scoring.json",
        ))],
        answers: None,
    };
    let set = export_mmopera(inputs, &["org/judge-a", "org/judge-b"]).unwrap();
    let (aggregate, lines) = assert_valid(&set);
    let scored = coglab_run::mmopera::score(
        &MmoperaInputs {
            task: coglab_core::mmopera::Task::Ica,
            metadata: Source::path(opera("ica", "metadata.csv")),
            regular: vec![Source::path(opera(
                "ica",
                "modelx_ICA_regular_scoring.json",
            ))],
            reasoning: vec![Source::path(opera(
                "ica",
                "modelx_ICA_reasoning_scoring.json",
            ))],
            answers: None,
        },
        &Default::default(),
        false,
    )
    .unwrap();
    let h = scored.report.holistic.unwrap();
    assert_eq!(lines.len(), h.n);
    assert!(lines.iter().all(|l| l["metadata"]["rotation"].is_string()));
    assert_eq!(
        aggregate["evaluation_results"][0]["score_details"]["score"],
        h.score_rate
    );
    let judge = |i: usize| {
        aggregate["evaluation_results"][i]["metric_config"]["llm_scoring"]["judges"][0]
            ["model_info"]["id"]
            .clone()
    };
    assert_eq!(
        (judge(0), judge(4)),
        ("org/judge-a".into(), "org/judge-b".into())
    );
    // Three names for two files: refused, naming the counts.
    let e = export_mmopera(ria_inputs(), &["a/x", "b/y", "c/z"]).unwrap_err();
    assert!(
        e.to_string()
            .contains("1 regular + 1 reasoning = 2), found 3"),
        "{e}"
    );
}

/// Gold: one aggregate record per model, valid under 0.3.0, no instance records; read back, the
/// scores are `coglab sem`'s weighted overall and layer scores, and m1's overall is Gold's
/// definition (appendix A.5, Σ |λ_i| s_i / Σ |λ_i|) worked from the raw row of prune.csv and
/// the loadings the record lists.
#[test]
fn gold_export_is_valid_eee_0_3_0_and_reads_back() {
    use coglab_core::harness::eee;
    let dir = std::env::temp_dir().join(format!("coglab-eee-gold-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let spec = dir.join("spec.json");
    std::fs::write(
        &spec,
        r#"{"constructs": {"A": ["a1", "a2", "a3", "a4"], "B": ["b1", "b2"]}, "paths": [["A", "B"]]}"#,
    )
    .unwrap();
    let data = format!("{CORE}sem/prune.csv");
    let options = coglab_core::sem::SemOptions {
        scale: Some(coglab_core::sem::analysis::Scale {
            low: 0.0,
            high: 100.0,
        }),
        ..Default::default()
    };
    let request = GoldEeeRequest {
        spec: Source::path(spec.to_str().unwrap()),
        data: Source::path(&data),
        options: options.clone(),
        model: None,
        timestamp: 1_717_243_200,
    };
    let mut sets = Vec::new();
    eee_gold(&request, |s| {
        sets.push(s);
        Ok(())
    })
    .unwrap();
    assert_eq!(sets.len(), 12);
    let report = coglab_run::sem::sem(
        &Source::path(spec.to_str().unwrap()),
        &Source::path(&data),
        &options,
    )
    .unwrap();
    let v = schema("eval.schema.json");
    for set in &sets {
        let doc: Value = serde_json::from_str(&set.records.aggregate).unwrap();
        let found = errors(&v, &doc);
        assert!(found.is_empty(), "{}: {found:#?}", set.model);
        assert!(set.records.instances.is_empty());
        assert!(doc.get("detailed_evaluation_results").is_none());
        assert_eq!(
            doc["evaluation_results"][0]["metric_config"]["max_score"],
            100.0
        );
        let back = eee::read_aggregate("g.json", set.records.aggregate.as_bytes()).unwrap();
        let want = &report.overall_scores[&set.model];
        assert_eq!(back.summary[0].task, "Gold: weighted overall");
        assert_eq!(back.summary[0].value, want.overall, "{}", set.model);
        assert_eq!(back.summary[1].value, want.by_construct["A"]);
        assert_eq!(back.summary[2].value, want.by_construct["B"]);
        assert_eq!(back.model.as_deref(), Some(set.model.as_str()));
    }
    // m1 by the definition: its row and the listed |λ|.
    let m1 = sets.iter().find(|s| s.model == "m1").unwrap();
    let doc: Value = serde_json::from_str(&m1.records.aggregate).unwrap();
    let loadings = doc["evaluation_results"][0]["metric_config"]["additional_details"]
        ["abs_loadings"]
        .as_str()
        .unwrap();
    let row = [
        ("a1", 44.0),
        ("a2", 36.5),
        ("a3", 43.9),
        ("a4", 58.4),
        ("b1", 38.0),
        ("b2", 31.2),
    ];
    let (mut num, mut den) = (0.0, 0.0);
    for part in loadings.split(", ") {
        let (task, l) = part.split_once(' ').unwrap();
        let l: f64 = l.parse().unwrap();
        let s = row.iter().find(|(t, _)| *t == task).unwrap().1;
        num += l * s;
        den += l;
    }
    assert_eq!(loadings.split(", ").count(), 6);
    let score = doc["evaluation_results"][0]["score_details"]["score"]
        .as_f64()
        .unwrap();
    assert!((score - num / den).abs() < 1e-9, "{score} vs {}", num / den);
    // One model only, and a model not in the matrix named with the ones that are.
    let mut one = Vec::new();
    let only = GoldEeeRequest {
        model: Some("m7".into()),
        ..request.clone()
    };
    eee_gold(&only, |s| {
        one.push(s.model);
        Ok(())
    })
    .unwrap();
    assert_eq!(one, ["m7"]);
    let missing = GoldEeeRequest {
        model: Some("gpt-9".into()),
        ..request
    };
    let e = eee_gold(&missing, |_| Ok(())).unwrap_err();
    assert!(
        e.to_string()
            .contains("no model \"gpt-9\" among the 12 models analysed (m1,"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every Eval Ever's own records (`fixtures/eee-0.3.0/examples`, upstream files, not
/// coglab's): the 0.3.0 demo is valid under the vendored schemas, and the reader takes it and
/// the 0.2.0 aggregate, the figures as the files give them.
mod reader {
    use super::{errors, schema};
    use coglab_core::harness::{self, eee, HarnessFormat};
    use serde_json::Value;

    fn example(name: &str) -> Vec<u8> {
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/eee-0.3.0/examples/"
        );
        std::fs::read(format!("{dir}{name}")).unwrap()
    }

    #[test]
    fn upstream_0_3_0_demo_is_valid_and_read() {
        let agg = example("demo_0.3.0.json");
        let samples = example("demo_0.3.0_samples.jsonl");
        let doc: Value = serde_json::from_slice(&agg).unwrap();
        assert!(errors(&schema("eval.schema.json"), &doc).is_empty());
        let line: Value = serde_json::from_slice(&samples).unwrap();
        assert!(errors(&schema("instance_level_eval.schema.json"), &line).is_empty());

        assert_eq!(
            harness::detect("a.json", &agg),
            Some(HarnessFormat::EeeAggregate)
        );
        let a = eee::read_aggregate("a.json", &agg).unwrap();
        assert_eq!(a.summary.len(), 1);
        assert_eq!(
            (a.summary[0].task.as_str(), a.summary[0].value),
            ("demo-source.demo_bench", 0.75)
        );
        assert_eq!(a.model.as_deref(), Some("demo-org/demo-model"));

        // JSONL, and the same record as a JSON array.
        let array = format!("[{}]", String::from_utf8(samples.clone()).unwrap().trim());
        for (name, bytes) in [("s.jsonl", samples), ("s.json", array.into_bytes())] {
            assert_eq!(
                harness::detect(name, &bytes),
                Some(HarnessFormat::EeeInstances),
                "{name}"
            );
            let f = eee::read_instances(name, &bytes).unwrap();
            let r = &f.records[0];
            assert_eq!(r.sample_id.as_deref(), Some("demo_0001"), "{name}");
            assert_eq!(
                (r.target.as_deref(), r.extracted.as_deref(), r.verdict),
                (Some("4"), Some("4"), Some(true)),
                "{name}"
            );
            assert_eq!(r.response.as_deref(), Some("The answer is 4."), "{name}");
            assert_eq!(f.model.as_deref(), Some("demo-org/demo-model"), "{name}");
        }
    }

    #[test]
    fn upstream_0_2_0_aggregate_is_read() {
        let agg = example("hfopenllm_0.2.0.json");
        // 0.2.0 lacks what 0.3.0 requires (model_info.additional_details's deployment fields).
        let doc: Value = serde_json::from_slice(&agg).unwrap();
        assert!(!errors(&schema("eval.schema.json"), &doc).is_empty());
        let a = eee::read_aggregate("a.json", &agg).unwrap();
        let got: Vec<(&str, f64)> = a
            .summary
            .iter()
            .map(|s| (s.task.as_str(), s.value))
            .collect();
        assert_eq!(got.len(), 6);
        assert_eq!(got[0], ("IFEval", 0.4486));
        assert_eq!(got[1], ("BBH", 0.4224));
        assert_eq!(a.model.as_deref(), Some("TencentARC/LLaMA-Pro-8B-Instruct"));
    }

    /// An instance record as coglab 0.2.1 wrote it (`instance_level_eval_0.2.1`, no
    /// `evaluation_result_id`), JSONL: still detected and read.
    #[test]
    fn coglab_0_2_1_instance_record_is_read() {
        let line = br#"{"schema_version":"instance_level_eval_0.2.1","answer_attribution":[{"extracted_value":"C","extraction_method":"mmiq_rules (coglab mmiq::extract)","is_terminal":true,"source":"output.raw","turn_idx":0}],"evaluation":{"is_correct":false,"score":0.0},"evaluation_id":"MM-IQ/m/1717243200","evaluation_name":"MM-IQ","input":{"raw":"MM-IQ item 17","reference":["B"]},"interaction_type":"single_turn","metadata":{"category":"Logical Operation","data_id":"17"},"model_id":"m","output":{"raw":["I pick C."]},"sample_id":"17"}
"#;
        assert_eq!(
            harness::detect("x.jsonl", line),
            Some(HarnessFormat::EeeInstances)
        );
        let f = eee::read_instances("x.jsonl", line).unwrap();
        let r = &f.records[0];
        assert_eq!(
            (r.data_id, r.extracted.as_deref(), r.verdict),
            (Some(17), Some("C"), Some(false))
        );
    }

    /// Another benchmark's records, written as EEE's MMLU-Pro adapter writes them (hand-made,
    /// valid under 0.3.0): both read, and scoring them as MM-IQ (or KiVA) says which task they
    /// are for instead of failing on their shape.
    #[test]
    fn another_benchmarks_records_are_not_an_mmiq_task() {
        let agg = example("mmlu_pro_0.3.0.json");
        let samples = example("mmlu_pro_0.3.0_samples.jsonl");
        let doc: Value = serde_json::from_slice(&agg).unwrap();
        let found = errors(&schema("eval.schema.json"), &doc);
        assert!(found.is_empty(), "{found:#?}");
        let line: Value = serde_json::from_slice(&samples).unwrap();
        let found = errors(&schema("instance_level_eval.schema.json"), &line);
        assert!(found.is_empty(), "{found:#?}");

        let a = eee::read_aggregate("mmlu_pro.json", &agg).unwrap();
        assert_eq!(
            (a.summary[0].task.as_str(), a.summary[0].value),
            ("MMLU-Pro (overall)", 0.7255)
        );
        let i = eee::read_instances("mmlu_pro.jsonl", &samples).unwrap();
        assert_eq!(i.task.as_deref(), Some("MMLU-Pro (overall)"));
        assert_eq!(i.records[0].extracted.as_deref(), Some("C"));
        assert!(!eee::is_kiva(&samples));

        let dir = std::env::temp_dir().join(format!("coglab-eee-other-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let key = format!("{}harness/key.jsonl", super::CORE);
        for (name, bytes) in [
            ("mmlu_pro.json", &agg),
            ("mmlu_pro_samples.jsonl", &samples),
        ] {
            let path = dir.join(name);
            std::fs::write(&path, bytes).unwrap();
            let e = coglab_run::mmiq::score(
                &coglab_run::Source::path(&key),
                &coglab_run::Source::path(path.to_str().unwrap()),
                false,
                drop,
            )
            .err()
            .unwrap();
            let said = e.to_string();
            assert!(
                said.ends_with(&format!(
                    "{name}: this is Every Eval Ever output for task \"MMLU-Pro (overall)\", \
                     expected an MM-IQ task (a task name containing \"mmiq\", e.g. mmiq, mm_iq)"
                )),
                "{said}"
            );
        }
        let e = eee::read_kiva("mmlu_pro.jsonl", &samples).unwrap_err();
        assert!(
            e.to_string()
                .contains("task \"MMLU-Pro (overall)\", expected KiVA"),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A 0.1.0 aggregate record (upstream, `global_mmlu_lite_0.1.0.json`: `source_data` at the
    /// top, no `eval_library`, `details` with numbers) is read; 0.3.0's schema refuses it.
    #[test]
    fn upstream_0_1_0_aggregate_is_read() {
        let agg = example("global_mmlu_lite_0.1.0.json");
        let doc: Value = serde_json::from_slice(&agg).unwrap();
        assert_eq!(doc["schema_version"], "0.1.0");
        assert!(!errors(&schema("eval.schema.json"), &doc).is_empty());
        assert_eq!(
            harness::detect("a.json", &agg),
            Some(HarnessFormat::EeeAggregate)
        );
        let a = eee::read_aggregate("a.json", &agg).unwrap();
        assert_eq!(a.summary.len(), 19);
        assert_eq!(
            (a.summary[0].task.as_str(), a.summary[0].value),
            ("Global MMLU Lite", 0.8754687499999999)
        );
        // "Arabic": score 0.88; its 0.1.0 details (numbers) are not read as a standard error.
        let arabic = a.summary.iter().find(|s| s.task == "Arabic").unwrap();
        assert_eq!((arabic.value, arabic.stderr), (0.88, None));
        assert_eq!(a.model.as_deref(), Some("openai/gpt-41"));
    }
}
