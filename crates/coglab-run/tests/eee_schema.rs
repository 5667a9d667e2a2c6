//! The records `coglab export eee` writes ([`coglab_run::export::eee`], the code the CLI and
//! the Python package call), validated against Every Eval Ever's own 0.3.0 JSON Schemas
//! (`tests/fixtures/eee-0.3.0`, vendored unchanged; its README names the repository, paths and
//! commit), so a field 0.3.0 requires and the writer leaves out fails here.
//!
//! Inputs: the core's harness fixtures (an Inspect log scored with its key, the jsPsych KiVA
//! run of one person) and the KiVA model run `fixtures/kiva/run_small`.

use coglab_run::export::{eee, EeeRequest, EeeSet};
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
}
