//! Every Eval Ever (EvalEval Coalition) records, schema 0.2.1: read and written.
//!
//! - Instance records (`instance_level_eval.schema.json`, one JSON object per line): the
//!   fields read are `sample_id`, `evaluation_name`, `model_id`, `input.raw`,
//!   `input.reference[0]`, `output.raw` (the last response), `answer_attribution[0]
//!   .extracted_value` (the harness's extraction), `evaluation.is_correct` (its verdict) and
//!   `metadata` (`data_id`, `MD5`). A numeric `sample_id` is the item's `data_id`.
//! - Aggregate records (`eval.schema.json`): `evaluation_results[]` become summary rows
//!   (`score_details.score`, `uncertainty.standard_error.value`, `uncertainty.num_samples`).
//!
//! [`write_mmiq`] writes both from a scored MM-IQ report: per item the response, our
//! extracted letter (`extraction_method` names MM-IQ's rules), the key's letter as reference
//! and the verdict; in the aggregate the accuracy overall and per paradigm with its analytic
//! standard error `sqrt(p(1-p)/n)` and the Wilson 95% interval. Reading the instance records
//! back and scoring them with the same key gives the same report (tested).
//!
//! [`write_kiva`] writes both from a scored KiVA report (model runs or people): one instance
//! record per trial and stage reached, its score the share of regenerations right (0/1 for a
//! person) and `is_correct` when that share is above 0.5
//! ([`crate::leaderboard::detail::KIVA_RIGHT_RULE`]); in the aggregate each stage's mean over
//! trials with its standard error and normal 95% interval, overall and per domain, as the
//! report gives them. Our reader maps instance records onto MM-IQ items only, so KiVA records
//! are written, not read back.

use super::{
    id_of, scalar_text, type_of, HarnessError, HarnessFile, HarnessFormat, Record, SummaryRow,
};
use crate::location::Location;
use crate::mmiq::{Accuracy, MmiqReport};
use serde_json::{json, Value};

/// The aggregate schema version written.
pub const SCHEMA_VERSION: &str = "0.2.1";
/// The instance schema version written.
pub const INSTANCE_SCHEMA_VERSION: &str = "instance_level_eval_0.2.1";

fn record(
    file: &str,
    line: usize,
    v: &Value,
) -> Result<(Record, Option<String>, Option<String>), HarnessError> {
    let loc = || Location::file(file).at_line(line);
    let Value::Object(obj) = v else {
        return Err(HarnessError::BadValue {
            location: loc(),
            expected: "an instance record object".into(),
            found: type_of(v),
        });
    };
    let sid = obj.get("sample_id").ok_or_else(|| HarnessError::Missing {
        location: loc().in_field("sample_id"),
        expected: "the sample's id (a string)",
    })?;
    let sample_id = scalar_text(sid).ok_or_else(|| HarnessError::BadValue {
        location: loc().in_field("sample_id"),
        expected: "a string".into(),
        found: type_of(sid),
    })?;
    let evaluation = obj.get("evaluation").ok_or_else(|| HarnessError::Missing {
        location: loc().in_field("evaluation"),
        expected: "the evaluation object (score, is_correct)",
    })?;
    let verdict = match evaluation.get("is_correct") {
        Some(Value::Bool(b)) => Some(*b),
        None | Some(Value::Null) => None,
        Some(other) => {
            return Err(HarnessError::BadValue {
                location: loc().in_field("evaluation.is_correct"),
                expected: "true or false".into(),
                found: type_of(other),
            })
        }
    };
    let response = match obj.get("output") {
        None | Some(Value::Null) => None,
        Some(out) => match out.get("raw") {
            Some(Value::Array(raw)) => {
                Some(raw.iter().rev().find_map(scalar_text).unwrap_or_default())
            }
            Some(Value::String(s)) => Some(s.clone()),
            Some(other) => {
                return Err(HarnessError::BadValue {
                    location: loc().in_field("output.raw"),
                    expected: "an array of response strings".into(),
                    found: type_of(other),
                })
            }
            None => {
                return Err(HarnessError::Missing {
                    location: loc().in_field("output.raw"),
                    expected: "the model's responses",
                })
            }
        },
    };
    let response = match response {
        Some(r) => r,
        // multi_turn / agentic: the last assistant message.
        None => obj
            .get("messages")
            .and_then(Value::as_array)
            .and_then(|m| {
                m.iter()
                    .rev()
                    .find(|m| m.get("role").and_then(Value::as_str) == Some("assistant"))
            })
            .and_then(|m| m.get("content"))
            .and_then(scalar_text)
            .unwrap_or_default(),
    };
    let extracted = match obj.get("answer_attribution") {
        Some(Value::Array(a)) => a
            .iter()
            .rev()
            .find(|x| x.get("is_terminal").and_then(Value::as_bool) != Some(false))
            .and_then(|x| x.get("extracted_value"))
            .and_then(scalar_text),
        None | Some(Value::Null) => None,
        Some(other) => {
            return Err(HarnessError::BadValue {
                location: loc().in_field("answer_attribution"),
                expected: "an array".into(),
                found: type_of(other),
            })
        }
    };
    let input = obj.get("input");
    let metadata = obj.get("metadata").and_then(Value::as_object);
    let data_id = id_of(sid).or_else(|| metadata.and_then(|m| m.get("data_id")).and_then(id_of));
    Ok((
        Record {
            position: line,
            label: format!("sample_id {sample_id}"),
            data_id,
            hash: metadata
                .and_then(|m| m.get("MD5").or_else(|| m.get("md5")))
                .and_then(Value::as_str)
                .map(str::to_string),
            sample_id: Some(sample_id),
            input: input.and_then(|i| i.get("raw")).and_then(scalar_text),
            target: input
                .and_then(|i| i.get("reference"))
                .and_then(Value::as_array)
                .and_then(|r| r.first())
                .and_then(scalar_text),
            response: Some(response),
            extracted,
            verdict,
            ..Record::default()
        },
        obj.get("evaluation_name")
            .and_then(Value::as_str)
            .map(str::to_string),
        obj.get("model_id")
            .and_then(Value::as_str)
            .map(str::to_string),
    ))
}

/// Reads EEE instance records: JSONL (one record per line, blank lines skipped) or a JSON
/// array of records.
///
/// # Errors
/// [`HarnessError::Empty`], [`HarnessError::Json`], [`HarnessError::Missing`] without
/// `sample_id`, `evaluation` or `output.raw`, [`HarnessError::BadValue`] naming line and field.
///
/// # Examples
/// ```
/// use coglab_core::harness::eee::read_instances;
/// // A JSON array of records (JSONL has one record per line).
/// let line = br#"[{"schema_version": "instance_level_eval_0.2.1", "evaluation_id": "e", "model_id": "m",
///   "evaluation_name": "MM-IQ", "sample_id": "17", "interaction_type": "single_turn",
///   "input": {"raw": "q", "reference": ["B"]}, "output": {"raw": ["It is B."]},
///   "answer_attribution": [{"turn_idx": 0, "source": "output.raw", "extracted_value": "B",
///     "extraction_method": "regex", "is_terminal": true}],
///   "evaluation": {"score": 1.0, "is_correct": true}}]"#;
/// let f = read_instances("m.jsonl", line).unwrap();
/// assert_eq!((f.records[0].data_id, f.records[0].verdict), (Some(17), Some(true)));
/// assert_eq!(f.task.as_deref(), Some("MM-IQ"));
/// ```
pub fn read_instances(file: &str, bytes: &[u8]) -> Result<HarnessFile, HarnessError> {
    let text = super::text(file, bytes)?;
    let mut records = Vec::new();
    let (mut task, mut model) = (None, None);
    let mut push = |r: (Record, Option<String>, Option<String>)| {
        if task.is_none() {
            task = r.1;
        }
        if model.is_none() {
            model = r.2;
        }
        records.push(r.0);
    };
    if text.trim_start().starts_with('[') {
        let doc = super::json_doc(file, text)?;
        let Value::Array(items) = doc else {
            return Err(HarnessError::BadValue {
                location: Location::file(file),
                expected: "an array of instance records".into(),
                found: type_of(&doc),
            });
        };
        for (i, item) in items.iter().enumerate() {
            push(record(file, i + 1, item)?);
        }
    } else {
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let v: Value = serde_json::from_str(line).map_err(|e| HarnessError::Json {
                location: Location::file(file).at_line(i + 1),
                message: e.to_string(),
            })?;
            push(record(file, i + 1, &v)?);
        }
    }
    if records.is_empty() {
        return Err(HarnessError::Empty {
            file: file.to_string(),
            expected: "Every Eval Ever instance records",
        });
    }
    Ok(HarnessFile {
        file: file.to_string(),
        format: HarnessFormat::EeeInstances,
        task,
        model,
        records,
        summary: Vec::new(),
    })
}

/// Reads an EEE aggregate record into summary rows.
///
/// # Errors
/// [`HarnessError::Json`], [`HarnessError::Missing`] without `evaluation_results` or a
/// result's `evaluation_name` / `score_details.score`, [`HarnessError::BadValue`] naming the
/// result and field.
///
/// # Examples
/// ```
/// use coglab_core::harness::eee::read_aggregate;
/// let doc = br#"{"schema_version": "0.2.1", "model_info": {"name": "m", "id": "org/m"},
///   "evaluation_results": [{"evaluation_name": "MM-IQ", "metric_config": {"lower_is_better": false},
///     "score_details": {"score": 0.3, "uncertainty": {"standard_error": {"value": 0.01}, "num_samples": 2710}}}]}"#;
/// let f = read_aggregate("agg.json", doc).unwrap();
/// assert_eq!((f.summary[0].value, f.summary[0].stderr, f.summary[0].n), (0.3, Some(0.01), Some(2710)));
/// ```
pub fn read_aggregate(file: &str, bytes: &[u8]) -> Result<HarnessFile, HarnessError> {
    let text = super::text(file, bytes)?;
    if text.trim().is_empty() {
        return Err(HarnessError::Empty {
            file: file.to_string(),
            expected: "an Every Eval Ever aggregate record",
        });
    }
    let doc = super::json_doc(file, text)?;
    let results = doc
        .get("evaluation_results")
        .ok_or_else(|| HarnessError::Missing {
            location: Location::file(file).in_field("evaluation_results"),
            expected: "the array of evaluation results",
        })?;
    let Value::Array(results) = results else {
        return Err(HarnessError::BadValue {
            location: Location::file(file).in_field("evaluation_results"),
            expected: "an array".into(),
            found: type_of(results),
        });
    };
    let mut summary = Vec::new();
    for (i, r) in results.iter().enumerate() {
        let at = |f: &str| Location::file(file).in_field(format!("evaluation_results[{i}].{f}"));
        let name = r
            .get("evaluation_name")
            .and_then(Value::as_str)
            .ok_or_else(|| HarnessError::Missing {
                location: at("evaluation_name"),
                expected: "the evaluation's name (a string)",
            })?;
        let details = r.get("score_details");
        let score = details
            .and_then(|d| d.get("score"))
            .ok_or_else(|| HarnessError::Missing {
                location: at("score_details.score"),
                expected: "the score (a number)",
            })?;
        let value =
            score
                .as_f64()
                .filter(|v| v.is_finite())
                .ok_or_else(|| HarnessError::BadValue {
                    location: at("score_details.score"),
                    expected: "a number".into(),
                    found: type_of(score),
                })?;
        let uncertainty = details.and_then(|d| d.get("uncertainty"));
        summary.push(SummaryRow {
            task: name.to_string(),
            filter: None,
            metric: r
                .get("metric_config")
                .and_then(|m| m.get("metric_name").or_else(|| m.get("score_type")))
                .and_then(Value::as_str)
                .unwrap_or("score")
                .to_string(),
            value,
            stderr: uncertainty
                .and_then(|u| u.get("standard_error"))
                .and_then(|s| s.get("value"))
                .and_then(Value::as_f64),
            stderr_clustered: None,
            n: uncertainty
                .and_then(|u| u.get("num_samples"))
                .and_then(Value::as_u64),
        });
    }
    if summary.is_empty() {
        return Err(HarnessError::Empty {
            file: file.to_string(),
            expected: "at least one evaluation result",
        });
    }
    let model = doc
        .get("model_info")
        .and_then(|m| m.get("id").or_else(|| m.get("name")))
        .and_then(Value::as_str)
        .map(str::to_string);
    Ok(HarnessFile {
        file: file.to_string(),
        format: HarnessFormat::EeeAggregate,
        task: summary.first().map(|s| s.task.clone()),
        model,
        records: Vec::new(),
        summary,
    })
}

/// The two EEE records of one scored set (the CLI writes them to files; the web app's worker
/// sends them to the page for a download, hence `Serialize`).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EeeRecords {
    /// The evaluation id both records carry (`MM-IQ/<model>/<timestamp>`).
    pub evaluation_id: String,
    /// The aggregate record (pretty JSON).
    pub aggregate: String,
    /// The instance records (JSONL, one per scored item).
    pub instances: String,
}

fn result(name: &str, a: &Accuracy, description: &str) -> Value {
    let p = a.accuracy;
    let se = if a.n > 0 {
        (p * (1.0 - p) / a.n as f64).sqrt()
    } else {
        0.0
    };
    json!({
        "evaluation_name": name,
        "source_data": {
            "dataset_name": "MM-IQ",
            "source_type": "hf_dataset",
            "hf_repo": "huanqia/MM-IQ",
            "hf_split": "test",
            "samples_number": a.n,
        },
        "metric_config": {
            "evaluation_description": description,
            "lower_is_better": false,
            "score_type": "continuous",
            "min_score": 0.0,
            "max_score": 1.0,
        },
        "score_details": {
            "score": p,
            "details": {"correct": a.correct.to_string(), "n": a.n.to_string()},
            "uncertainty": {
                "standard_error": {"value": se, "method": "analytic"},
                "confidence_interval": {
                    "lower": a.ci_low, "upper": a.ci_high,
                    "confidence_level": 0.95, "method": "wilson",
                },
                "num_samples": a.n,
            },
        },
    })
}

/// Writes a scored MM-IQ report as EEE 0.2.1 records. `timestamp` is the record's
/// `retrieved_timestamp` (Unix seconds as text, as the schema asks).
///
/// # Errors
/// [`HarnessError::Empty`] when the report has no item results (score with items kept).
pub fn write_mmiq(
    report: &MmiqReport,
    model: &str,
    timestamp: &str,
) -> Result<EeeRecords, HarnessError> {
    if report.items.is_empty() {
        return Err(HarnessError::Empty {
            file: report.file.clone(),
            expected: "item results (the report was scored without its items)",
        });
    }
    let evaluation_id = format!("MM-IQ/{model}/{timestamp}");
    let mut results = vec![result(
        "MM-IQ",
        &report.overall,
        "MM-IQ accuracy over the scored items (item-weighted), answers extracted with MM-IQ's rules",
    )];
    for (cat, a) in &report.by_category {
        results.push(result(
            &format!("MM-IQ: {cat}"),
            a,
            "MM-IQ accuracy on one reasoning paradigm",
        ));
    }
    let aggregate = json!({
        "schema_version": SCHEMA_VERSION,
        "evaluation_id": evaluation_id,
        "retrieved_timestamp": timestamp,
        "source_metadata": {
            "source_name": "coglab",
            "source_type": "evaluation_run",
            "source_organization_name": "coglab",
            "evaluator_relationship": "third_party",
            "additional_details": {"predictions_file": report.file, "key_file": report.key_file},
        },
        "model_info": {"name": model, "id": model},
        "eval_library": {"name": "coglab", "version": env!("CARGO_PKG_VERSION")},
        "evaluation_results": results,
        "detailed_evaluation_results": {"format": "jsonl", "total_rows": report.items.len()},
    });
    let mut instances = String::new();
    for item in &report.items {
        let raw = match &item.response {
            Some(r) => r.clone(),
            None if item.parsed == "Z" => String::new(),
            None => item.parsed.to_string(),
        };
        let line = json!({
            "schema_version": INSTANCE_SCHEMA_VERSION,
            "evaluation_id": evaluation_id,
            "model_id": model,
            "evaluation_name": "MM-IQ",
            "sample_id": item.data_id.to_string(),
            "interaction_type": "single_turn",
            "input": {"raw": format!("MM-IQ item {}", item.data_id), "reference": [item.key.to_string()]},
            "output": {"raw": [raw]},
            "answer_attribution": [{
                "turn_idx": 0, "source": "output.raw", "extracted_value": item.parsed,
                "extraction_method": "mmiq_rules (coglab mmiq::extract)", "is_terminal": true,
            }],
            "evaluation": {"score": if item.correct { 1.0 } else { 0.0 }, "is_correct": item.correct},
            "metadata": {"data_id": item.data_id.to_string(), "category": item.category},
        });
        instances.push_str(&line.to_string());
        instances.push('\n');
    }
    Ok(EeeRecords {
        evaluation_id,
        aggregate: serde_json::to_string_pretty(&aggregate).unwrap_or_default(),
        instances,
    })
}

/// KiVA's stages as written: the report's key, the evaluation name, its description.
const KIVA_STAGES: [(&str, &str, &str); 4] = [
    (
        "cross",
        "What (cross-domain)",
        "stage 1: which transformation happened (mean over trials of the share of regenerations right)",
    ),
    (
        "within_conditional",
        "How (within-domain, conditional)",
        "stage 2: how it happened, over the regenerations that reached it (right at stage 1)",
    ),
    (
        "within_joint",
        "How (within-domain, joint)",
        "stage 2: how it happened, a regeneration that did not reach it counted as wrong",
    ),
    (
        "extrapolation",
        "Apply (extrapolation)",
        "stage 3: which option the transformation gives",
    ),
];

fn kiva_result(name: &str, m: &crate::stats::describe::MeanSe, description: &str) -> Value {
    let (lo, hi) = crate::leaderboard::metrics::normal_interval(*m);
    json!({
        "evaluation_name": name,
        "source_data": {
            "dataset_name": "KiVA",
            "source_type": "url",
            "url": ["https://github.com/ey242/KiVA"],
            "samples_number": m.n,
        },
        "metric_config": {
            "evaluation_description": description,
            "lower_is_better": false,
            "score_type": "continuous",
            "min_score": 0.0,
            "max_score": 1.0,
        },
        "score_details": {
            "score": m.mean,
            "uncertainty": {
                "standard_error": {"value": m.se, "method": "analytic"},
                "confidence_interval": {
                    "lower": lo, "upper": hi, "confidence_level": 0.95, "method": "normal",
                },
                "num_samples": m.n,
            },
        },
    })
}

/// Writes a scored KiVA report as EEE 0.2.1 records (see the module's notes). `timestamp` is
/// the record's `retrieved_timestamp` (Unix seconds as text).
///
/// # Errors
/// [`HarnessError::Empty`] when the report has no trials (score with its trials kept).
///
/// # Examples
/// ```
/// use coglab_core::harness::eee::write_kiva;
/// use coglab_core::kiva::score_model;
/// // Variation 0: stages 1 and 3 right, stage 2 wrong, in one regeneration.
/// let run = "Variation,Regeneration,MCResponse#1,MCResponse#2,MCResponse#3\n0,0,1,0,1\n";
/// let r = score_model([("m/output_Colour/ColourRed.csv", run.as_bytes())]).unwrap();
/// let eee = write_kiva(&r, "m", "1717243200").unwrap();
/// let lines: Vec<&str> = eee.instances.lines().collect();
/// // Stage 1, stage 2 conditional and joint, stage 3.
/// assert_eq!(lines.len(), 4);
/// assert!(lines[0].contains(r#""sample_id":"ColourRed#0""#) && lines[0].contains(r#""is_correct":true"#));
/// assert!(lines[1].contains(r#""evaluation_name":"KiVA: How (within-domain, conditional)""#));
/// assert!(lines[1].contains(r#""is_correct":false"#));
/// ```
pub fn write_kiva(
    report: &crate::kiva::KivaReport,
    model: &str,
    timestamp: &str,
) -> Result<EeeRecords, HarnessError> {
    if report.trials.is_empty() {
        return Err(HarnessError::Empty {
            file: report.files.first().cloned().unwrap_or_default(),
            expected: "trial results (the report was scored without its trials)",
        });
    }
    let variant = report.variant.name();
    let evaluation_id = format!("{variant}/{model}/{timestamp}");
    let mut results = Vec::new();
    for (key, name, description) in KIVA_STAGES {
        if let Some(m) = report.overall.get(key) {
            results.push(kiva_result(&format!("{variant}: {name}"), &m, description));
        }
    }
    for (domain, stats) in &report.by_domain {
        for (key, name, description) in KIVA_STAGES {
            if let Some(m) = stats.get(key) {
                results.push(kiva_result(
                    &format!("{variant}: {domain}: {name}"),
                    &m,
                    description,
                ));
            }
        }
    }
    let aggregate = json!({
        "schema_version": SCHEMA_VERSION,
        "evaluation_id": evaluation_id,
        "retrieved_timestamp": timestamp,
        "source_metadata": {
            "source_name": "coglab",
            "source_type": "evaluation_run",
            "source_organization_name": "coglab",
            "evaluator_relationship": "third_party",
            "additional_details": {"files": report.files.join(", "), "null_answers": report.null.name()},
        },
        "model_info": {"name": model, "id": model},
        "eval_library": {"name": "coglab", "version": env!("CARGO_PKG_VERSION")},
        "evaluation_results": results,
        "detailed_evaluation_results": {"format": "jsonl", "total_rows": report.trials.len()},
    });
    let mut instances = String::new();
    for t in &report.trials {
        let trial = format!("{}#{}", t.subdomain, t.variation);
        let sample_id = match &t.participant {
            Some(p) => format!("{p}/{trial}"),
            None => trial.clone(),
        };
        let scores = [
            t.cross,
            t.within_conditional,
            t.within_joint,
            t.extrapolation,
        ];
        for ((_, name, _), score) in KIVA_STAGES.iter().zip(scores) {
            let Some(score) = score else { continue };
            let line = json!({
                "schema_version": INSTANCE_SCHEMA_VERSION,
                "evaluation_id": evaluation_id,
                "model_id": model,
                "evaluation_name": format!("{variant}: {name}"),
                "sample_id": sample_id,
                "interaction_type": "single_turn",
                "input": {"raw": format!("KiVA trial {trial}"), "reference": []},
                "evaluation": {"score": score, "is_correct": score > 0.5},
                "metadata": {
                    "domain": t.domain, "subdomain": t.subdomain,
                    "variation": t.variation.to_string(), "regenerations": t.rows.to_string(),
                    "line": t.line.to_string(),
                },
            });
            instances.push_str(&line.to_string());
            instances.push('\n');
        }
    }
    Ok(EeeRecords {
        evaluation_id,
        aggregate: serde_json::to_string_pretty(&aggregate).unwrap_or_default(),
        instances,
    })
}
