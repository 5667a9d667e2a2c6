//! Every Eval Ever (EvalEval Coalition) records: written at schema 0.3.0 (MM-IQ, KiVA,
//! MM-OPERA, Gold), read at 0.1 through 0.3.0 (the fields read are in all of them;
//! `schema_version` is not checked; a 0.1.0 aggregate is tested).
//!
//! - Instance records (`instance_level_eval.schema.json`, one JSON object per line): the
//!   fields read are `sample_id`, `evaluation_name`, `model_id`, `input.raw`,
//!   `input.reference[0]`, `output.raw` (the last response), `answer_attribution[0]
//!   .extracted_value` (the harness's extraction), `evaluation.is_correct` (its verdict) and
//!   `metadata` (`data_id`, `MD5`). A numeric `sample_id` is the item's `data_id`.
//! - Aggregate records (`eval.schema.json`): `evaluation_results[]` become summary rows
//!   (`score_details.score`, `uncertainty.standard_error.value`, `uncertainty.num_samples`).
//!
//! What 0.3.0 asks of the writers, and where it comes from: `model_info.additional_details`
//! with `deployment_type` and `model_availability` both `unknown` (coglab scores files and
//! knows neither); each result its `evaluation_result_id` (`MM-IQ/accuracy`,
//! `MM-IQ/<paradigm>/accuracy`, `<variant>/<stage>`, `<variant>/<domain>/<stage>`, which the
//! instance records name too), its own `source_data`, a metric id, name, kind and unit, and the
//! bounds 0 and 1 of a continuous score; an uncertainty block with the standard error and its
//! method, the interval with its level and method, the per-sample standard deviation and
//! `num_samples` (no `num_bootstrap_samples`: neither writer bootstraps);
//! `detailed_evaluation_results.file_path`, the place of the instance records in the EEE
//! datastore (`data/<benchmark>/<developer>/<model>/<uuid>_samples.jsonl`), with their SHA-256
//! and row count. Instance records carry `answer_attribution` (KiVA's empty, see below).
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
//! trials with its standard error and 95% interval (the leaderboard's:
//! [`crate::leaderboard::metrics::kiva_stage_interval`]), overall and per domain; each instance's metadata carries the trial's domain, subdomain,
//! variation, regenerations, first line and the `null_answers` rule. The KiVA report keeps
//! scores, not answers, so `output.raw` and `answer_attribution` are empty arrays (0.3.0
//! requires both fields; an answer is not made up).
//!
//! [`write_mmopera`] writes one MM-OPERA task (RIA or ICA) from a scored report with its item
//! rows: SR, HR-3, HR-4 and ΔHR with the leaderboard's ratio-estimate SE and interval
//! (items as clusters, [`crate::leaderboard::mmopera::estimates`]), the mean process-reward score S_r, the judges in each metric's
//! `llm_scoring.judges` ([`MmoperaJudges`]), and one instance record per holistic verdict
//! with the judge's 0-4 score. [`write_gold`] writes one aggregate record per model of a Gold
//! (PLS-SEM) report: its loading-weighted overall and per-layer scores, no instance records.
//! `docs/results-export.md` lists what every writer puts where.
//!
//! [`read_kiva`] reads KiVA instance records back into the report the KiVA scorer gives (the
//! same trials, so the same means, SEs and counts per stage, subdomain, domain and overall;
//! tested on the real runs and the adults' data); [`is_kiva`] tells KiVA's records from
//! MM-IQ's. [`read_instances`] reads any instance records into [`Record`]s, which
//! [`super::map::score_mmiq`] maps onto MM-IQ items.

use super::{
    id_of, scalar_text, type_of, HarnessError, HarnessFile, HarnessFormat, Record, SummaryRow,
};
use crate::kiva::{NullAnswers, TrialResult, Variant};
use crate::location::{snippet, Location};
use crate::mmiq::{Accuracy, MmiqReport};
use serde_json::{json, Value};

/// The aggregate schema version written.
pub const SCHEMA_VERSION: &str = "0.3.0";
/// The instance schema version written (0.3.0 names both records' version alike; 0.2.1 wrote
/// `instance_level_eval_0.2.1`).
pub const INSTANCE_SCHEMA_VERSION: &str = "0.3.0";

/// `model_info` as written: the name given as name and id, and the deployment fields 0.3.0
/// requires as `unknown` (coglab scores files; it does not know how the model was served or
/// whether its weights are open).
fn model_info(model: &str) -> Value {
    json!({
        "name": model,
        "id": model,
        "additional_details": {"deployment_type": "unknown", "model_availability": "unknown"},
    })
}

/// `source_metadata` as written: coglab scored the files (`evaluation_run`), as a third party
/// to the model, with `details` (string values: the files read, the options that change a
/// score) as its `additional_details`.
fn source_metadata(details: Value) -> Value {
    json!({
        "source_name": "coglab",
        "source_type": "evaluation_run",
        "source_organization_name": "coglab",
        "evaluator_relationship": "third_party",
        "additional_details": details,
    })
}

/// One path component of an EEE datastore path: letters, digits, `-`, `_`, `.` kept, any
/// other character `_`, `unknown` when empty.
fn path_part(s: &str) -> String {
    let out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    match out.as_str() {
        "" | "." | ".." => "unknown".into(),
        _ => out,
    }
}

/// The SHA-256 of `bytes` in lower-case hex.
fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The record pair's UUID: version-4 form (the datastore accepts no other), its 122 free bits
/// taken from the SHA-256 of the evaluation id rather than drawn at random, so the same export
/// names the same file (the id already holds the model and the time).
fn record_uuid(evaluation_id: &str) -> String {
    use sha2::Digest;
    let d = sha2::Sha256::digest(evaluation_id.as_bytes());
    let mut b = [0u8; 16];
    b.copy_from_slice(&d[..16]);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &h[..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..]
    )
}

/// `detailed_evaluation_results` for the instance records `instances`: `file_path` is where
/// the pair belongs in the Every Eval Ever datastore, `data/<benchmark>/<developer>/<model>/
/// <uuid>_samples.jsonl` (the developer the part of the model's id before its first `/`,
/// `unknown` without one; [`record_uuid`]); coglab writes the files under its own names, and
/// a submission renames them. The checksum is the SHA-256 of the instance records as written.
fn detailed(bench: &str, model: &str, evaluation_id: &str, instances: &str) -> Value {
    let (developer, name) = model.split_once('/').unwrap_or(("unknown", model));
    json!({
        "format": "jsonl",
        "file_path": format!(
            "data/{}/{}/{}/{}_samples.jsonl",
            path_part(bench),
            path_part(developer),
            path_part(name),
            record_uuid(evaluation_id)
        ),
        "hash_algorithm": "sha256",
        "checksum": sha256_hex(instances.as_bytes()),
        "total_rows": instances.lines().count(),
    })
}

/// An instance record as a JSON object, or a located error.
fn object<'v>(
    file: &str,
    line: usize,
    v: &'v Value,
) -> Result<&'v serde_json::Map<String, Value>, HarnessError> {
    match v {
        Value::Object(obj) => Ok(obj),
        _ => Err(HarnessError::BadValue {
            location: Location::file(file).at_line(line),
            expected: "an instance record object".into(),
            found: type_of(v),
        }),
    }
}

/// A record's `sample_id` (a string, or a number printed), with its JSON value.
fn sample_id<'v>(
    file: &str,
    line: usize,
    obj: &'v serde_json::Map<String, Value>,
) -> Result<(&'v Value, String), HarnessError> {
    let loc = || Location::file(file).at_line(line).in_field("sample_id");
    let sid = obj.get("sample_id").ok_or_else(|| HarnessError::Missing {
        location: loc(),
        expected: "the sample's id (a string)",
    })?;
    let text = scalar_text(sid).ok_or_else(|| HarnessError::BadValue {
        location: loc(),
        expected: "a string".into(),
        found: type_of(sid),
    })?;
    Ok((sid, text))
}

/// A record's `evaluation` object (its presence; the fields are read by the caller).
fn evaluation<'v>(
    file: &str,
    line: usize,
    obj: &'v serde_json::Map<String, Value>,
) -> Result<&'v Value, HarnessError> {
    obj.get("evaluation").ok_or_else(|| HarnessError::Missing {
        location: Location::file(file).at_line(line).in_field("evaluation"),
        expected: "the evaluation object (score, is_correct)",
    })
}

/// A record's `evaluation.is_correct`: `None` when absent or null.
fn is_correct(file: &str, line: usize, evaluation: &Value) -> Result<Option<bool>, HarnessError> {
    match evaluation.get("is_correct") {
        Some(Value::Bool(b)) => Ok(Some(*b)),
        None | Some(Value::Null) => Ok(None),
        Some(other) => Err(HarnessError::BadValue {
            location: Location::file(file)
                .at_line(line)
                .in_field("evaluation.is_correct"),
            expected: "true or false".into(),
            found: type_of(other),
        }),
    }
}

fn record(
    file: &str,
    line: usize,
    v: &Value,
) -> Result<(Record, Option<String>, Option<String>), HarnessError> {
    let loc = || Location::file(file).at_line(line);
    let obj = object(file, line, v)?;
    let (sid, sample_id) = sample_id(file, line, obj)?;
    let evaluation = evaluation(file, line, obj)?;
    let verdict = is_correct(file, line, evaluation)?;
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

/// Calls `f` with each instance record of a file and its 1-based line (JSONL, blank lines
/// skipped) or position (a JSON array of records).
fn each_record(
    file: &str,
    bytes: &[u8],
    mut f: impl FnMut(usize, &Value) -> Result<(), HarnessError>,
) -> Result<(), HarnessError> {
    let text = super::text(file, bytes)?;
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
            f(i + 1, item)?;
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
            f(i + 1, &v)?;
        }
    }
    Ok(())
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
    let mut records = Vec::new();
    let (mut task, mut model) = (None, None);
    each_record(file, bytes, |line, v| {
        let (r, t, m) = record(file, line, v)?;
        if task.is_none() {
            task = t;
        }
        if model.is_none() {
            model = m;
        }
        records.push(r);
        Ok(())
    })?;
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

fn result(id: &str, name: &str, a: &Accuracy, description: &str) -> Value {
    let p = a.accuracy;
    let sd = (p * (1.0 - p)).sqrt();
    let se = if a.n > 0 {
        sd / (a.n as f64).sqrt()
    } else {
        0.0
    };
    json!({
        "evaluation_result_id": id,
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
            "metric_id": "accuracy",
            "metric_name": "Accuracy",
            "metric_kind": "accuracy",
            "metric_unit": "proportion",
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
                "standard_deviation": sd,
                "num_samples": a.n,
            },
        },
    })
}

/// An instance record (a JSON object without `schema_version`) as one line of JSON with
/// `"schema_version": schema` and then its `sample_id` as its first keys: the marker
/// [`super::detect`] reads, so that coglab's own records are told from their first bytes
/// whatever their responses' length (serde_json writes the other keys in sorted order, which
/// put `sample_id` after `output.raw`; 0.3.0 names an instance record's version as an
/// aggregate's, so the version alone no longer tells them apart).
fn marker_first(schema: &str, record: &Value) -> String {
    let mut rest = record.clone();
    let sample = rest
        .as_object_mut()
        .and_then(|o| o.remove("sample_id"))
        .map(|v| format!(",\"sample_id\":{v}"))
        .unwrap_or_default();
    let rest = rest.to_string();
    let body = rest.strip_prefix('{').unwrap_or(&rest);
    let comma = if body == "}" { "" } else { "," };
    format!(
        "{{\"schema_version\":{}{sample}{comma}{body}",
        Value::from(schema)
    )
}

/// [`marker_first`] for the pretty-printed aggregate record.
fn pretty_marker_first(schema: &str, record: &Value) -> String {
    let rest = serde_json::to_string_pretty(record).unwrap_or_default();
    let body = rest.strip_prefix('{').unwrap_or(&rest);
    let comma = if body == "}" { "" } else { "," };
    format!(
        "{{\n  \"schema_version\": {}{comma}{body}",
        Value::from(schema)
    )
}

/// Writes a scored MM-IQ report as EEE 0.3.0 records. `timestamp` is the record's
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
        "MM-IQ/accuracy",
        "MM-IQ",
        &report.overall,
        "MM-IQ accuracy over the scored items (item-weighted), answers extracted with MM-IQ's rules",
    )];
    for (cat, a) in &report.by_category {
        results.push(result(
            &format!("MM-IQ/{cat}/accuracy"),
            &format!("MM-IQ: {cat}"),
            a,
            "MM-IQ accuracy on one reasoning paradigm",
        ));
    }
    let mut instances = String::new();
    for item in &report.items {
        let raw = match &item.response {
            Some(r) => r.clone(),
            None if item.parsed == "Z" => String::new(),
            None => item.parsed.to_string(),
        };
        let line = json!({
            "evaluation_id": evaluation_id,
            "evaluation_result_id": "MM-IQ/accuracy",
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
        instances.push_str(&marker_first(INSTANCE_SCHEMA_VERSION, &line));
        instances.push('\n');
    }
    let aggregate = json!({
        "evaluation_id": evaluation_id,
        "retrieved_timestamp": timestamp,
        "source_metadata": source_metadata(json!({
            "predictions_file": report.file, "key_file": report.key_file,
        })),
        "model_info": model_info(model),
        "eval_library": {"name": "coglab", "version": env!("CARGO_PKG_VERSION")},
        "evaluation_results": results,
        "detailed_evaluation_results": detailed("MM-IQ", model, &evaluation_id, &instances),
    });
    Ok(EeeRecords {
        evaluation_id,
        aggregate: pretty_marker_first(SCHEMA_VERSION, &aggregate),
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

fn kiva_result(
    id: &str,
    name: &str,
    stage: &str,
    m: &crate::stats::describe::MeanSe,
    description: &str,
) -> Value {
    let (lo, hi) = crate::leaderboard::metrics::kiva_stage_interval(*m);
    // The report's SE is the population SD (ddof 0) over sqrt(n), so SD = SE * sqrt(n).
    let sd = m.se * (m.n as f64).sqrt();
    json!({
        "evaluation_result_id": id,
        "evaluation_name": name,
        "source_data": {
            "dataset_name": "KiVA",
            "source_type": "url",
            "url": ["https://github.com/ey242/KiVA"],
            "samples_number": m.n,
        },
        "metric_config": {
            "evaluation_description": description,
            "metric_id": format!("kiva.{stage}"),
            "metric_name": "Mean share right",
            "metric_kind": "accuracy",
            "metric_unit": "proportion",
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
                    "lower": lo, "upper": hi, "confidence_level": 0.95,
                    "method": "Wilson with the trials' effective size, Student t on n − 1 df",
                },
                "standard_deviation": sd,
                "num_samples": m.n,
            },
        },
    })
}

/// Writes a scored KiVA report as EEE 0.3.0 records (see the module's notes). `timestamp` is
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
            results.push(kiva_result(
                &format!("{variant}/{key}"),
                &format!("{variant}: {name}"),
                key,
                &m,
                description,
            ));
        }
    }
    for (domain, stats) in &report.by_domain {
        for (key, name, description) in KIVA_STAGES {
            if let Some(m) = stats.get(key) {
                results.push(kiva_result(
                    &format!("{variant}/{domain}/{key}"),
                    &format!("{variant}: {domain}: {name}"),
                    key,
                    &m,
                    description,
                ));
            }
        }
    }
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
        for ((key, name, _), score) in KIVA_STAGES.iter().zip(scores) {
            let Some(score) = score else { continue };
            let line = json!({
                "evaluation_id": evaluation_id,
                "evaluation_result_id": format!("{variant}/{key}"),
                "model_id": model,
                "evaluation_name": format!("{variant}: {name}"),
                "sample_id": sample_id,
                "interaction_type": "single_turn",
                "input": {"raw": format!("KiVA trial {trial}"), "reference": []},
                // The report keeps each trial's stage scores, not the answers they came from.
                "output": {"raw": []},
                "answer_attribution": [],
                "evaluation": {"score": score, "is_correct": score > 0.5},
                "metadata": {
                    "domain": t.domain, "subdomain": t.subdomain,
                    "variation": t.variation.to_string(), "regenerations": t.rows.to_string(),
                    "line": t.line.to_string(), "null_answers": report.null.name(),
                },
            });
            instances.push_str(&marker_first(INSTANCE_SCHEMA_VERSION, &line));
            instances.push('\n');
        }
    }
    let aggregate = json!({
        "evaluation_id": evaluation_id,
        "retrieved_timestamp": timestamp,
        "source_metadata": source_metadata(json!({
            "files": report.files.join(", "), "null_answers": report.null.name(),
        })),
        "model_info": model_info(model),
        "eval_library": {"name": "coglab", "version": env!("CARGO_PKG_VERSION")},
        "evaluation_results": results,
        "detailed_evaluation_results": detailed(variant, model, &evaluation_id, &instances),
    });
    Ok(EeeRecords {
        evaluation_id,
        aggregate: pretty_marker_first(SCHEMA_VERSION, &aggregate),
        instances,
    })
}

/// The KiVA stage an `evaluation_name` names (`KiVA: What (cross-domain)`): its variant, and
/// the index of the stage in [`KIVA_STAGES`] or the stage name that is none of them. `None`
/// when the name is not of a KiVA variant.
fn kiva_stage(name: &str) -> Option<(Variant, Result<usize, &str>)> {
    let (prefix, stage) = name.split_once(": ")?;
    let variant = [Variant::Kiva, Variant::KivaAdults]
        .into_iter()
        .find(|v| v.name() == prefix)?;
    Some((
        variant,
        KIVA_STAGES
            .iter()
            .position(|(_, n, _)| *n == stage)
            .ok_or(stage),
    ))
}

/// Whether `bytes` are EEE instance records of KiVA: their first record's `evaluation_name`
/// names a KiVA variant (`KiVA: ...`, `KiVA-adults: ...`), as [`write_kiva`] writes them. A
/// first record that cannot be read says no (the MM-IQ reader then names what is wrong).
/// Records stored as Parquet are told from their first row.
///
/// # Examples
/// ```
/// use coglab_core::harness::eee::is_kiva;
/// assert!(is_kiva(br#"{"sample_id": "ColourRed#0", "evaluation_name": "KiVA: Apply (extrapolation)", "evaluation": {"score": 1}}"#));
/// assert!(!is_kiva(br#"{"sample_id": "17", "evaluation_name": "MM-IQ", "evaluation": {"score": 1}}"#));
/// ```
pub fn is_kiva(bytes: &[u8]) -> bool {
    #[cfg(feature = "parquet")]
    if crate::columnar::detect(bytes) == Some(crate::columnar::ColumnarKind::Parquet) {
        // Records stored as Parquet: their first row.
        return crate::columnar::ParquetFile::from_slice("", bytes)
            .and_then(|f| f.head_jsonl(1))
            .is_ok_and(|rows| is_kiva(&rows));
    }
    let Ok(text) = super::text("", bytes) else {
        return false;
    };
    let first = if text.trim_start().starts_with('[') {
        serde_json::from_str::<Value>(text)
            .ok()
            .and_then(|d| d.get(0).cloned())
    } else {
        text.lines()
            .find(|l| !l.trim().is_empty())
            .and_then(|l| serde_json::from_str::<Value>(l).ok())
    };
    first
        .as_ref()
        .and_then(|r| r.get("evaluation_name"))
        .and_then(Value::as_str)
        .is_some_and(|n| kiva_stage(n).is_some())
}

/// Trial scores above this many regenerations are read as written (see [`share`]).
pub(crate) const MOST_REGENERATIONS: u64 = 1000;

/// A stage score read back as the share it stands for. A trial's stage score is `k / m`, the
/// right answers among the `m ≤ regenerations` that count (0 or 1 for a person), and
/// serde_json's default float parsing can be a unit in the last place off that value when its
/// shortest decimal has 17 digits (1/11 reads as 0.09090909090909093): the fraction within
/// 1e-9 of `x` (shares of at most [`MOST_REGENERATIONS`] differ by more than 1e-6) is computed
/// again, as the scorer computes it. `x` as read when no such fraction is near.
pub(crate) fn share(x: f64, regenerations: u64) -> f64 {
    for m in 1..=regenerations.min(MOST_REGENERATIONS) {
        let m = m as f64;
        let k = (x * m).round();
        if (k / m - x).abs() < 1e-9 {
            return k / m;
        }
    }
    x
}

/// One KiVA instance record as read.
struct KivaRecord {
    variant: Variant,
    stage: usize,
    participant: Option<String>,
    subdomain: String,
    domain: &'static str,
    variation: u64,
    score: f64,
    verdict: Option<bool>,
    regenerations: Option<u64>,
    trial_line: Option<u64>,
    null: Option<NullAnswers>,
    model: Option<String>,
    label: String,
}

/// The stage names [`KIVA_STAGES`] writes, for messages.
fn stage_names() -> String {
    KIVA_STAGES
        .iter()
        .map(|(_, n, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Reads one KiVA instance record; `first` is the variant of the file's first record (`None`
/// for the first record itself, whose task decides whether the file is KiVA's).
fn kiva_record(
    file: &str,
    line: usize,
    v: &Value,
    first: Option<Variant>,
) -> Result<KivaRecord, HarnessError> {
    let at = |field: &str| Location::file(file).at_line(line).in_field(field);
    let bad = |field: &str, expected: String, found: String| HarnessError::BadValue {
        location: at(field),
        expected,
        found,
    };
    let obj = object(file, line, v)?;
    let name = match obj.get("evaluation_name") {
        Some(Value::String(n)) => n.as_str(),
        None => {
            return Err(HarnessError::Missing {
                location: at("evaluation_name"),
                expected: "the stage (a string \"KiVA: <stage>\")",
            })
        }
        Some(other) => return Err(bad("evaluation_name", "a string".into(), type_of(other))),
    };
    let (variant, stage) = match (kiva_stage(name), first) {
        (Some((variant, Ok(stage))), _) => (variant, stage),
        (Some((variant, Err(stage))), _) => {
            return Err(bad(
                "evaluation_name",
                format!(
                    "a KiVA stage after \"{}: \" ({})",
                    variant.name(),
                    stage_names()
                ),
                snippet(stage),
            ))
        }
        (None, None) => {
            return Err(HarnessError::WrongTask {
                file: file.to_string(),
                harness: super::Harness::EveryEvalEver.label(),
                found: name.to_string(),
                expected: "KiVA (an evaluation_name \"KiVA: <stage>\" or \"KiVA-adults: <stage>\")",
            })
        }
        (None, Some(v)) => {
            return Err(bad(
                "evaluation_name",
                format!(
                    "a {} stage, as the records before (one benchmark a file)",
                    v.name()
                ),
                snippet(name),
            ))
        }
    };
    if let Some(v) = first.filter(|v| *v != variant) {
        return Err(bad(
            "evaluation_name",
            format!(
                "a {} stage, as the records before (one variant a file)",
                v.name()
            ),
            snippet(name),
        ));
    }
    let (_, sid) = sample_id(file, line, obj)?;
    let shape = || {
        bad(
            "sample_id",
            "\"<subdomain>#<variation>\" or \"<participant>/<subdomain>#<variation>\"".into(),
            snippet(&sid),
        )
    };
    let (head, variation) = sid.rsplit_once('#').ok_or_else(shape)?;
    let variation = variation.parse::<u64>().map_err(|_| shape())?;
    let (participant, subdomain) = match head.rsplit_once('/') {
        Some((p, s)) => (Some(p), s),
        None => (None, head),
    };
    if subdomain.is_empty() || participant.is_some_and(str::is_empty) {
        return Err(shape());
    }
    let domain = crate::kiva::domain_of(subdomain).ok_or_else(|| {
        bad(
            "sample_id",
            format!(
                "a KiVA subdomain (a name starting with one of {})",
                crate::kiva::DOMAINS.join(", ")
            ),
            snippet(subdomain),
        )
    })?;
    let evaluation = evaluation(file, line, obj)?;
    let score = evaluation
        .get("score")
        .ok_or_else(|| HarnessError::Missing {
            location: at("evaluation.score"),
            expected: "the stage score (a number from 0 to 1)",
        })?;
    let score = score
        .as_f64()
        .filter(|s| (0.0..=1.0).contains(s))
        .ok_or_else(|| {
            bad(
                "evaluation.score",
                "a number from 0 to 1 (the share of regenerations right)".into(),
                type_of(score),
            )
        })?;
    let verdict = is_correct(file, line, evaluation)?;
    if let Some(b) = verdict.filter(|b| *b != (score > 0.5)) {
        return Err(bad(
            "evaluation.is_correct",
            format!(
                "{} (a score is right when above 0.5, and the score is {score})",
                !b
            ),
            b.to_string(),
        ));
    }
    let metadata = match obj.get("metadata") {
        None | Some(Value::Null) => None,
        Some(Value::Object(m)) => Some(m),
        Some(other) => return Err(bad("metadata", "an object".into(), type_of(other))),
    };
    let meta = |key: &str| metadata.and_then(|m| m.get(key)).filter(|v| !v.is_null());
    let whole = |key: &str, least: u64, what: &str| -> Result<Option<u64>, HarnessError> {
        meta(key)
            .map(|v| {
                super::id_of(v)
                    .filter(|n| *n >= least)
                    .ok_or_else(|| bad(&format!("metadata.{key}"), what.into(), type_of(v)))
            })
            .transpose()
    };
    let regenerations = whole(
        "regenerations",
        1,
        "a whole number from 1 (the trial's regenerations, or a person's stage rows)",
    )?;
    let trial_line = whole(
        "line",
        0,
        "a whole number (the trial's first line in its file)",
    )?;
    for (key, want) in [("domain", domain), ("subdomain", subdomain)] {
        if let Some(v) = meta(key).filter(|v| v.as_str() != Some(want)) {
            return Err(bad(
                &format!("metadata.{key}"),
                format!("\"{want}\", as sample_id {} says", snippet(&sid)),
                type_of(v),
            ));
        }
    }
    if let Some(v) = meta("variation").filter(|v| super::id_of(v) != Some(variation)) {
        return Err(bad(
            "metadata.variation",
            format!("{variation}, as sample_id {} says", snippet(&sid)),
            type_of(v),
        ));
    }
    let null = meta("null_answers")
        .map(|v| {
            v.as_str().and_then(NullAnswers::from_name).ok_or_else(|| {
                bad(
                    "metadata.null_answers",
                    "wrong or missing".into(),
                    type_of(v),
                )
            })
        })
        .transpose()?;
    Ok(KivaRecord {
        variant,
        stage,
        participant: participant.map(str::to_string),
        subdomain: subdomain.to_string(),
        domain,
        variation,
        score: share(score, regenerations.unwrap_or(1)),
        verdict,
        regenerations,
        trial_line,
        null,
        model: obj
            .get("model_id")
            .and_then(Value::as_str)
            .map(str::to_string),
        label: format!("sample_id {sid}, {name}"),
    })
}

/// One trial being rebuilt: its result, the line of its first record, and the line of the
/// record scored for each stage.
struct TrialSlot {
    result: TrialResult,
    first_line: usize,
    regenerations: Option<u64>,
    trial_line: Option<u64>,
    stage_lines: [Option<usize>; 4],
}

/// Reads EEE instance records of KiVA (as [`write_kiva`] writes them) back into the report the
/// KiVA scorer gives: each `sample_id` (`<subdomain>#<variation>`, or
/// `<participant>/<subdomain>#<variation>` for people) is a trial, each record one of its four
/// stage scores (`evaluation_name` `"<variant>: <stage>"`, the score `evaluation.score`), and
/// the trials are aggregated as the scorer aggregates them (per subdomain, domain and overall:
/// the mean over trials and SE = population SD / sqrt(n)). `metadata.regenerations` gives each
/// trial's rows (1 when absent), `metadata.line` its line in the scored file (else the
/// record's line) and `metadata.null_answers` how `Null` answers were counted (else the
/// repository's rule, `wrong`). What the records do not carry is not in the report: the
/// counts of `Null` and empty answers, the warnings about the original rows and, for people,
/// reaction times.
///
/// A second record for a trial's stage is not scored: it is counted and listed in
/// [`KivaReport::harness`] with the line of the one that is, as the MM-IQ records that map to
/// no item are.
///
/// # Errors
/// [`HarnessError::Empty`] without records; [`HarnessError::Json`] for a line that is not
/// JSON; [`HarnessError::WrongTask`] when the first record is not KiVA's (naming its
/// `evaluation_name`); [`HarnessError::Missing`] and [`HarnessError::BadValue`] naming line and
/// field for a record without `evaluation_name`, `sample_id` or `evaluation.score`, a stage
/// that is none of KiVA's, a record of another benchmark or variant than the first, a
/// `sample_id` not of the shape above or of no KiVA domain, a score outside 0..1, an
/// `is_correct` that contradicts the score, metadata that contradicts the `sample_id` or
/// another record of the trial, and people's records mixed with a model's.
///
/// # Examples
/// ```
/// use coglab_core::harness::eee::{read_kiva, write_kiva};
/// use coglab_core::kiva::score_model;
/// let run = "Variation,Regeneration,MCResponse#1,MCResponse#2,MCResponse#3\n0,0,1,0,1\n0,1,1,1,1\n0,2,0,,1\n";
/// let scored = score_model([("m/output_Colour/ColourRed.csv", run.as_bytes())]).unwrap();
/// let eee = write_kiva(&scored, "m", "1717243200").unwrap();
/// let back = read_kiva("m.jsonl", eee.instances.as_bytes()).unwrap();
/// // Cross 2/3, stage 2 over the two regenerations that reached it 1/2, joint 1/3.
/// assert_eq!(back.overall, scored.overall);
/// assert_eq!(back.trials, scored.trials);
/// assert_eq!(back.overall.within_conditional.unwrap().mean, 0.5);
/// ```
pub fn read_kiva(file: &str, bytes: &[u8]) -> Result<crate::kiva::KivaReport, HarnessError> {
    if let Some(kind) = crate::columnar::detect(bytes) {
        // The records stored as Parquet (one record per row, nested fields as structs).
        return super::via_jsonl(file, bytes, kind, |rows, _, _| read_kiva(file, rows));
    }
    use std::collections::HashMap;
    let mut first: Option<(Variant, bool, usize)> = None;
    let mut null: Option<(NullAnswers, usize)> = None;
    let mut model = None;
    let mut slots: Vec<TrialSlot> = Vec::new();
    let mut index: HashMap<(Option<String>, String, u64), usize> = HashMap::new();
    let mut unmapped = Vec::new();
    let (mut records, mut verdicts) = (0usize, 0usize);
    each_record(file, bytes, |line, v| {
        records += 1;
        let r = kiva_record(file, line, v, first.map(|f| f.0))?;
        let at = |field: &str| Location::file(file).at_line(line).in_field(field);
        let person = r.participant.is_some();
        match first {
            None => first = Some((r.variant, person, line)),
            Some((_, p, l)) if p != person => {
                return Err(HarnessError::BadValue {
                    location: at("sample_id"),
                    expected: format!(
                        "a sample id {} a participant (\"{}<subdomain>#<variation>\"), as on line {l}",
                        if p { "with" } else { "without" },
                        if p { "<participant>/" } else { "" },
                    ),
                    found: snippet(&r.label),
                });
            }
            Some(_) => {}
        }
        match (null, r.null) {
            (None, Some(n)) => null = Some((n, line)),
            (Some((n, l)), Some(m)) if n != m => {
                return Err(HarnessError::BadValue {
                    location: at("metadata.null_answers"),
                    expected: format!("{}, as on line {l}", n.name()),
                    found: format!("{:?}", m.name()),
                })
            }
            _ => {}
        }
        if model.is_none() {
            model = r.model.clone();
        }
        let key = (r.participant.clone(), r.subdomain.clone(), r.variation);
        let i = *index.entry(key).or_insert_with(|| {
            slots.push(TrialSlot {
                result: TrialResult {
                    domain: r.domain.to_string(),
                    subdomain: r.subdomain.clone(),
                    variation: r.variation,
                    participant: r.participant.clone(),
                    rows: 0,
                    line: 0,
                    cross: None,
                    within_conditional: None,
                    within_joint: None,
                    extrapolation: None,
                },
                first_line: line,
                regenerations: r.regenerations,
                trial_line: r.trial_line,
                stage_lines: [None; 4],
            });
            slots.len() - 1
        });
        let slot = &mut slots[i];
        for (field, ours, theirs) in [
            (
                "metadata.regenerations",
                slot.regenerations,
                r.regenerations,
            ),
            ("metadata.line", slot.trial_line, r.trial_line),
        ] {
            if ours != theirs {
                let say = |n: Option<u64>| n.map_or_else(|| "none".to_string(), |n| n.to_string());
                return Err(HarnessError::BadValue {
                    location: at(field),
                    expected: format!(
                        "{}, as line {} of the same trial says",
                        say(ours),
                        slot.first_line
                    ),
                    found: say(theirs),
                });
            }
        }
        if let Some(p) = slot.stage_lines[r.stage] {
            unmapped.push(crate::provenance::Unmapped {
                position: line,
                record: r.label,
                reason: format!(
                    "a second record for this trial and stage (the record on line {p} is scored)"
                ),
            });
            return Ok(());
        }
        slot.stage_lines[r.stage] = Some(line);
        verdicts += usize::from(r.verdict.is_some());
        let t = &mut slot.result;
        let stage = match r.stage {
            0 => &mut t.cross,
            1 => &mut t.within_conditional,
            2 => &mut t.within_joint,
            _ => &mut t.extrapolation,
        };
        *stage = Some(r.score);
        Ok(())
    })?;
    let Some((variant, person, _)) = first else {
        return Err(HarnessError::Empty {
            file: file.to_string(),
            expected: "Every Eval Ever instance records of KiVA",
        });
    };
    let mapped = records - unmapped.len();
    let trials: Vec<TrialResult> = slots
        .into_iter()
        .map(|s| TrialResult {
            rows: usize::try_from(s.regenerations.unwrap_or(1)).unwrap_or(usize::MAX),
            line: s
                .trial_line
                .and_then(|l| usize::try_from(l).ok())
                .unwrap_or(s.first_line),
            ..s.result
        })
        .collect();
    let rows = crate::kiva::RowCounts {
        files: 1,
        rows: trials.iter().map(|t| t.rows).fold(0, usize::saturating_add),
        ..crate::kiva::RowCounts::default()
    };
    let source = if person {
        crate::kiva::Source::Human
    } else {
        crate::kiva::Source::Model
    };
    let mut report = crate::kiva::build_report(
        variant,
        source,
        vec![file.to_string()],
        trials,
        rows,
        crate::mmiq::Warnings::default(),
    );
    report.null = null.map_or_else(NullAnswers::default, |n| n.0);
    let mut info = crate::provenance::HarnessInfo::of(
        HarnessFormat::EeeInstances,
        Some(variant.name().to_string()),
        model,
        records,
    );
    info.mapped_by.insert("sample_id".into(), mapped);
    info.unmapped = unmapped;
    info.verdicts = verdicts;
    report.harness = Some(Box::new(info));
    Ok(report)
}

/// The judge models of an MM-OPERA report's judge files, in the order of the report's files
/// (`holistic.files`, `reasoning.files`): EEE's `metric_config.llm_scoring.judges` and each
/// instance's `extraction_method` name them. The judge files do not name their judge; the
/// released pipeline's is `gpt-4o-2024-08-06` (MM-OPERA's `evaluation/model_config.yaml`),
/// [`MMOPERA_JUDGE`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MmoperaJudges {
    /// One model id per holistic (regular) judge file.
    pub regular: Vec<String>,
    /// One model id per process-reward (reasoning) judge file.
    pub reasoning: Vec<String>,
}

/// The judge of MM-OPERA's released pipeline (`evaluation/model_config.yaml`), as a model id.
pub const MMOPERA_JUDGE: &str = "openai/gpt-4o-2024-08-06";

/// MM-OPERA's holistic metrics as written: the [`TaskEstimates`] field, the result id's last
/// part, the evaluation name's, the metric id, name and description.
type HolisticMetric = (
    fn(&TaskEstimates) -> RatioEstimate,
    fn(&crate::mmopera::score::HolisticReport) -> f64,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
);

const MMOPERA_HOLISTIC: [HolisticMetric; 4] = [
    (
        |e| e.sr,
        |h| h.score_rate,
        "score_rate",
        "SR",
        "Score rate",
        "SR = Σscore / 4N over the judge's 0-4 holistic verdicts (paper §4.1)",
    ),
    (
        |e| e.hr3,
        |h| h.hr3,
        "hr3",
        "HR-3",
        "High score rate HR-3",
        "share of verdicts scoring 3 or 4 (paper §4.1)",
    ),
    (
        |e| e.hr4,
        |h| h.hr4,
        "hr4",
        "HR-4",
        "High score rate HR-4",
        "share of verdicts scoring 4, consistent with the reference answer (paper §4.1)",
    ),
    (
        |e| e.delta_hr,
        |h| h.delta_hr,
        "delta_hr",
        "ΔHR",
        "ΔHR = HR-3 − HR-4",
        "share of verdicts scoring 3: sensible but not the reference (paper §4.1)",
    ),
];

use crate::leaderboard::mmopera::{RatioEstimate, TaskEstimates};

/// `llm_scoring` of a metric judged by `judges` (model ids, one per judge file), following
/// `prompt` (a description of the prompt: the judge files do not carry it).
fn llm_scoring(judges: &[String], prompt: &str) -> Value {
    let mut v = json!({
        "judges": judges.iter().map(|j| json!({"model_info": model_info(j)})).collect::<Vec<_>>(),
        "input_prompt": prompt,
    });
    if judges.len() > 1 {
        v["aggregation_method"] = json!("average");
    }
    v
}

/// `source_data` of an MM-OPERA result: the Hub dataset `titic/MM-OPERA`.
fn mmopera_source(task: &str, samples: usize) -> Value {
    json!({
        "dataset_name": format!("MM-OPERA {task}"),
        "source_type": "hf_dataset",
        "hf_repo": "titic/MM-OPERA",
        "samples_number": samples,
        "additional_details": {"repository": "https://github.com/MM-OPERA-Bench/MM-OPERA"},
    })
}

/// Writes a scored MM-OPERA report (one task, RIA or ICA, with its item rows) as EEE 0.3.0
/// records: in the aggregate SR, HR-3, HR-4 and ΔHR of the holistic judges (the report's
/// figures; their SE and 95% interval from
/// [`crate::leaderboard::mmopera::estimates`], ratio estimates with the items as clusters, as
/// the leaderboard ranks them; `num_samples` the items) and the mean process-reward score S_r
/// (its SE and interval over items when it is a mean over items,
/// [`crate::mmopera::score::IcaAverage::Items`]); the judges in each metric's
/// `llm_scoring.judges`. One instance record per holistic verdict counted in SR (ICA: one per
/// rotation; several judges: one per judge), its score the judge's 0-4 score, `is_correct` a
/// 4 ("consistent with the reference answer", the paper's HR-4), the judge's verdict in
/// `answer_attribution` (`extraction_method` `llm_judge` and the judge), the model's answer in
/// `output.raw` when the report has it, the item's metadata, rotation, judge file and S_r in
/// `metadata`. `invalid` is how the report counted invalid verdicts (the option it was scored
/// with): under [`crate::mmopera::score::InvalidScores::Exclude`] they are not in N and get
/// no record; by default they count 0 and their record says what the judge wrote.
///
/// # Errors
/// [`HarnessError::Empty`] when the report has no item rows (score with items kept) or no
/// holistic report; [`HarnessError::BadValue`] when `judges` does not name one judge per
/// judge file.
pub fn write_mmopera(
    report: &crate::mmopera::score::Report,
    model: &str,
    timestamp: &str,
    judges: &MmoperaJudges,
    invalid: crate::mmopera::score::InvalidScores,
) -> Result<EeeRecords, HarnessError> {
    use crate::mmopera::score::{IcaAverage, InvalidScores};
    let (Some(h), false) = (&report.holistic, report.items.is_empty()) else {
        return Err(HarnessError::Empty {
            file: report
                .holistic
                .as_ref()
                .and_then(|h| h.files.first().cloned())
                .unwrap_or_default(),
            expected: "holistic verdicts with their item rows (score with --regular, items kept)",
        });
    };
    let reasoning_files = report.reasoning.as_ref().map_or(&[][..], |r| &r.files[..]);
    for (what, files, names) in [
        ("regular", &h.files[..], &judges.regular),
        ("reasoning", reasoning_files, &judges.reasoning),
    ] {
        if files.len() != names.len() {
            return Err(HarnessError::BadValue {
                location: Location::file(files.first().map_or("", String::as_str)),
                expected: format!(
                    "one judge model per {what} judge file ({} files: {})",
                    files.len(),
                    files.join(", ")
                ),
                found: format!("{} judge names", names.len()),
            });
        }
    }
    let task = report.task.name();
    let bench = format!("MM-OPERA {task}");
    let evaluation_id = format!("MM-OPERA-{task}/{model}/{timestamp}");
    let files: Vec<&str> = h.files.iter().map(String::as_str).collect();
    let items: Vec<crate::leaderboard::mmopera::ItemScores> = report
        .items
        .iter()
        .map(|it| crate::leaderboard::mmopera::item_score(it, &files, invalid))
        .collect();
    let est = crate::leaderboard::mmopera::estimates(&items);
    let holistic_prompt = format!(
        "MM-OPERA's {task} holistic judge prompt (evaluation/{task}/{task}_regular_judge.py in \
         MM-OPERA-Bench/MM-OPERA): the answer against the reference, scored 0-4 by the paper's \
         §4.1 rubric"
    );
    let mut results = Vec::new();
    for (of_est, of_report, key, short, name, description) in MMOPERA_HOLISTIC {
        let mut details = json!({
            "score": of_report(h),
            "details": {"verdicts": h.n.to_string(), "items": h.items.to_string(),
                        "invalid_verdicts": h.invalid.to_string()},
        });
        if let Some(e) = &est {
            let r = of_est(e);
            details["uncertainty"] = json!({
                "standard_error": {"value": r.se, "method": "linearised ratio estimator, items as clusters"},
                "confidence_interval": {
                    "lower": r.lower, "upper": r.upper, "confidence_level": 0.95,
                    "method": "Wilson with the ratio estimate's effective size, items as clusters, Student t on items − 1 df",
                },
                "num_samples": e.items,
            });
        }
        results.push(json!({
            "evaluation_result_id": format!("MM-OPERA/{task}/{key}"),
            "evaluation_name": format!("{bench}: {short}"),
            "source_data": mmopera_source(task, h.items),
            "metric_config": {
                "evaluation_description": description,
                "metric_id": format!("mmopera.{key}"),
                "metric_name": name,
                "metric_kind": "score_rate",
                "metric_unit": "proportion",
                "lower_is_better": false,
                "score_type": "continuous",
                "min_score": 0.0,
                "max_score": 1.0,
                "llm_scoring": llm_scoring(&judges.regular, &holistic_prompt),
                "additional_details": {
                    "invalid_verdicts": match invalid {
                        InvalidScores::Exclude => "left out of N",
                        _ => "counted 0, kept in N",
                    },
                },
            },
            "score_details": details,
        }));
    }
    if let Some(r) = &report.reasoning {
        // S_r = Σ s_i·γ^(i+e) with s ≤ 1: at most Σ γ^(i+e) over any number of hops.
        let max = if r.gamma < 1.0 {
            json!(match r.decay_exponent {
                crate::mmopera::score::DecayExponent::FromOne => r.gamma / (1.0 - r.gamma),
                _ => 1.0 / (1.0 - r.gamma),
            })
        } else {
            json!("Infinity")
        };
        let mut details = json!({
            "score": r.mean_score,
            "details": {"items": r.n.to_string(), "scored_paths": r.scored_paths.to_string(),
                        "mean_r": r.mean_r.to_string(), "mean_d": r.mean_d.to_string(),
                        "mean_k": r.mean_k.to_string()},
        });
        if let (Some(m), IcaAverage::Items) = (est.and_then(|e| e.reasoning), r.ica_average) {
            let (lo, hi) = crate::stats::describe::t_interval(m);
            details["uncertainty"] = json!({
                "standard_error": {"value": m.se, "method": "analytic (SD with n − 1 over sqrt(n))"},
                "confidence_interval": {
                    "lower": lo, "upper": hi, "confidence_level": 0.95,
                    "method": "mean ± t(0.975, n − 1) SE",
                },
                "standard_deviation": m.se * (m.n as f64).sqrt(),
                "num_samples": m.n,
            });
        }
        results.push(json!({
            "evaluation_result_id": format!("MM-OPERA/{task}/reasoning_score"),
            "evaluation_name": format!("{bench}: reasoning score"),
            "source_data": mmopera_source(task, r.n),
            "metric_config": {
                "evaluation_description": "process-reward score S_r = Σ s_t·γ^t of the judge's \
                    association path, hop score s = min(1, α·R·D + (1 − α)·K) (paper §4.2); mean over items",
                "metric_id": "mmopera.reasoning_score",
                "metric_name": "Reasoning score S_r",
                "metric_kind": "process_reward",
                "metric_unit": "points",
                "lower_is_better": false,
                "score_type": "continuous",
                "min_score": 0.0,
                "max_score": max,
                "metric_parameters": {
                    "alpha": r.alpha, "gamma": r.gamma,
                    "decay": r.decay_exponent.name(), "average": r.ica_average.name(),
                },
                "llm_scoring": llm_scoring(&judges.reasoning, &format!(
                    "MM-OPERA's {task} process-reward judge prompt (evaluation/{task}/{task}_reasoning_judge.py \
                     in MM-OPERA-Bench/MM-OPERA): the answer as association paths, each hop scored R, D, K"
                )),
            },
            "score_details": details,
        }));
    }
    let judge_of: std::collections::HashMap<&str, &str> = h
        .files
        .iter()
        .map(String::as_str)
        .zip(judges.regular.iter().map(String::as_str))
        .collect();
    let mut instances = String::new();
    for it in &report.items {
        for jv in &it.holistic {
            let judge = judge_of.get(jv.file.as_str()).copied().unwrap_or("unknown");
            for (rotation, v) in jv.verdicts.iter().enumerate() {
                if v.score.is_none() && invalid == InvalidScores::Exclude {
                    continue;
                }
                let score = v.counted();
                let mut metadata = serde_json::Map::new();
                let mut put = |k: &str, v: String| {
                    metadata.insert(k.to_string(), Value::String(v));
                };
                put("judge_file", jv.file.clone());
                if report.task.rotations() > 1 {
                    put("rotation", (rotation + 1).to_string());
                }
                if let Some(found) = &v.found {
                    put("invalid_score", found.clone());
                }
                if let Some(reason) = &v.reason {
                    put("score_reason", reason.clone());
                }
                if let Some(s_r) = it.s_r {
                    put("reasoning_score", s_r.to_string());
                }
                if let Some(m) = &it.meta {
                    put("domain", m.domain.clone());
                    put("type", m.kind.clone());
                    put("culture", m.culture.clone());
                    put("language", m.language.clone());
                    put("hop_count", m.hop_count.clone());
                }
                let reference: Vec<&str> = it
                    .meta
                    .as_ref()
                    .and_then(|m| m.relation.as_deref().or(m.explanation.as_deref()))
                    .into_iter()
                    .collect();
                let answer = it.answers.get(rotation).cloned().flatten();
                let line = json!({
                    "evaluation_id": evaluation_id,
                    "evaluation_result_id": format!("MM-OPERA/{task}/score_rate"),
                    "model_id": model,
                    "evaluation_name": bench,
                    "sample_id": it.id,
                    "interaction_type": "single_turn",
                    "input": {"raw": format!("MM-OPERA {task} item {}", it.id), "reference": reference},
                    "output": {"raw": answer.into_iter().collect::<Vec<_>>()},
                    "answer_attribution": [{
                        "turn_idx": 0, "source": "output.raw",
                        "extracted_value": v.score.map_or_else(
                            || v.found.clone().unwrap_or_default(),
                            |s| s.to_string(),
                        ),
                        "extraction_method": format!("llm_judge ({judge}; MM-OPERA holistic 0-4 rubric)"),
                        "is_terminal": true,
                    }],
                    "evaluation": {"score": f64::from(score), "is_correct": score == 4},
                    "metadata": metadata,
                });
                instances.push_str(&marker_first(INSTANCE_SCHEMA_VERSION, &line));
                instances.push('\n');
            }
        }
    }
    let mut details = json!({"task": task, "judge_files": h.files.join(", ")});
    if let Some(r) = &report.reasoning {
        details["reasoning_judge_files"] = json!(r.files.join(", "));
    }
    let aggregate = json!({
        "evaluation_id": evaluation_id,
        "retrieved_timestamp": timestamp,
        "source_metadata": source_metadata(details),
        "model_info": model_info(model),
        "eval_library": {"name": "coglab", "version": env!("CARGO_PKG_VERSION")},
        "evaluation_results": results,
        "detailed_evaluation_results": detailed(&format!("MM-OPERA-{task}"), model, &evaluation_id, &instances),
    });
    Ok(EeeRecords {
        evaluation_id,
        aggregate: pretty_marker_first(SCHEMA_VERSION, &aggregate),
        instances,
    })
}

/// Writes Gold's weighted overall and per-layer scores of a PLS-SEM report as EEE 0.3.0
/// aggregate records, one per model of the score matrix (in the report's order, by name;
/// `data_file` and `spec_file` are the names the records give the inputs):
/// `Gold/overall` is the model's Σ |λ_i| s_i / Σ |λ_i| over the retained task indicators (seed
/// 003, appendix A.5, [`crate::sem::analysis::OverallScore`]) and `Gold/<layer>` the same over
/// one first-order construct's tasks, the loadings |λ_i| listed in the metric's
/// `additional_details`. The scores are on the score matrix's scale: its bounds are
/// `min_score`/`max_score` when the analysis was given one (`--scale`), else `null` (not
/// provided). No instance records (a model's score is one row of the matrix, not a set of
/// samples) and no uncertainty block: coglab computes no interval for a model's weighted
/// score (its bootstrap resamples models to bound the PLS estimates, not one model's score).
///
/// # Errors
/// [`HarnessError::Empty`] when the report has no model scores.
pub fn write_gold(
    report: &crate::sem::SemReport,
    data_file: &str,
    spec_file: &str,
    timestamp: &str,
) -> Result<Vec<(String, EeeRecords)>, HarnessError> {
    if report.overall_scores.is_empty() {
        return Err(HarnessError::Empty {
            file: data_file.to_string(),
            expected: "models with a weighted overall score",
        });
    }
    let layers: Vec<&crate::sem::analysis::ConstructInfo> = report
        .constructs
        .iter()
        .filter(|c| c.order == 1 && !c.human)
        .collect();
    let loadings = |tasks: &[&String]| -> String {
        tasks
            .iter()
            .filter_map(|t| {
                report
                    .outer
                    .get(*t)
                    .map(|o| format!("{t} {}", o.loading.abs()))
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let all_tasks: Vec<&String> = layers.iter().flat_map(|c| c.indicators.iter()).collect();
    let (min, max) = report.scale.map_or((Value::Null, Value::Null), |s| {
        (json!(s.low), json!(s.high))
    });
    let source = json!({
        "dataset_name": format!("Gold score matrix {data_file}"),
        "source_type": "other",
        "additional_details": {
            "score_matrix": data_file, "spec": spec_file,
            "method": "https://github.com/tianyu-zou/GoldBench",
        },
    });
    let result = |id: &str, name: &str, description: &str, tasks: &[&String], score: f64| {
        json!({
            "evaluation_result_id": id,
            "evaluation_name": name,
            "source_data": source,
            "metric_config": {
                "evaluation_description": description,
                "metric_id": "gold.weighted_score",
                "metric_name": "Loading-weighted score",
                "metric_kind": "weighted_mean",
                "metric_unit": "points",
                "lower_is_better": false,
                "score_type": "continuous",
                "min_score": min,
                "max_score": max,
                "additional_details": {"abs_loadings": loadings(tasks)},
            },
            "score_details": {
                "score": score,
                "details": {"tasks": tasks.len().to_string(), "models_analysed": report.n_models.to_string()},
            },
        })
    };
    let mut out = Vec::new();
    for (model, scores) in &report.overall_scores {
        let mut results = vec![result(
            "Gold/overall",
            "Gold: weighted overall",
            "Σ |λ_i| s_i / Σ |λ_i| over the retained tasks, λ the PLS-SEM outer loadings (Gold, appendix A.5)",
            &all_tasks,
            scores.overall,
        )];
        for c in &layers {
            let Some(score) = scores.by_construct.get(&c.name) else {
                continue;
            };
            let tasks: Vec<&String> = c.indicators.iter().collect();
            results.push(result(
                &format!("Gold/{}", c.name),
                &format!("Gold: {}", c.name),
                "the loading-weighted score over one layer's (first-order construct's) tasks",
                &tasks,
                *score,
            ));
        }
        let evaluation_id = format!("Gold/{model}/{timestamp}");
        let aggregate = json!({
            "evaluation_id": evaluation_id,
            "retrieved_timestamp": timestamp,
            "source_metadata": source_metadata(json!({
                "score_matrix": data_file, "spec": spec_file,
                "pruning": report.prune_variant.map_or("none", |p| match p {
                    crate::sem::PruneVariant::Algorithm1 => "algorithm1",
                    _ => "stepwise",
                }),
            })),
            "model_info": model_info(model),
            "eval_library": {"name": "coglab", "version": env!("CARGO_PKG_VERSION")},
            "evaluation_results": results,
        });
        out.push((
            model.clone(),
            EeeRecords {
                evaluation_id,
                aggregate: pretty_marker_first(SCHEMA_VERSION, &aggregate),
                instances: String::new(),
            },
        ));
    }
    Ok(out)
}
