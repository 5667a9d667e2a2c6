//! jsPsych data (`jsPsych.data.get().csv()` / `.json()`) of a KiVA human run.
//!
//! jsPsych writes one row per trial with its own columns (`trial_type`, `trial_index`,
//! `time_elapsed`, `rt`, `response`, `stimulus`, ...) plus whatever the experiment added with
//! `data: {...}`. **Mapping of trials to KiVA items** (what a KiVA experiment in jsPsych
//! should add to each question trial's `data`):
//!
//! | KiVA field  | jsPsych data column (first present)               | values                     |
//! |-------------|---------------------------------------------------|----------------------------|
//! | subdomain   | `kiva_subdomain`, `subdomain`, `transformation`   | `ColourRed`, `Counting+1`… |
//! | variation   | `kiva_variation`, `variation`                     | non-negative integer       |
//! | stage       | `kiva_stage`, `stage`, `task`                     | `cross`/`within`/`extrapolation` (or `Cross Domain`, `Within Domain`, `Extrapolation`, 1/2/3) |
//! | score       | `correct`; else `response` = `correct_response`   | `true`/`false`, 1/0        |
//! | participant | `participant_id`, `subject`, `subject_id`, `run_id` | any text (else the file name) |
//! | reaction time | `rt`                                            | milliseconds               |
//!
//! A trial with none of the three item columns (instructions, fixation, a survey) is not an
//! item and is only counted; a trial with some of them but not all, an unknown subdomain or
//! stage, or no `rt` cannot be mapped and is listed. Mapped trials become the rows of the
//! KiVA human format and are scored exactly as the self-test's export is
//! ([`crate::kiva::score_human`]).

use super::{type_of, HarnessError, HarnessFile, HarnessFormat, Record};
use crate::kiva::Stage;
use crate::location::{snippet, Location};
use serde_json::Value;
use std::collections::BTreeMap;

const SUBDOMAIN: [&str; 3] = ["kiva_subdomain", "subdomain", "transformation"];
const VARIATION: [&str; 2] = ["kiva_variation", "variation"];
const STAGE: [&str; 3] = ["kiva_stage", "stage", "task"];
const PARTICIPANT: [&str; 4] = ["participant_id", "subject", "subject_id", "run_id"];

/// A stage name in any of the spellings the mapping accepts.
pub fn stage_of(text: &str) -> Option<Stage> {
    let t: String = text
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    match t.as_str() {
        "cross" | "crossdomain" | "1" => Some(Stage::Cross),
        "within" | "withindomain" | "2" => Some(Stage::Within),
        "extrapolation" | "3" => Some(Stage::Extrapolation),
        _ => None,
    }
}

fn stage_name(s: Stage) -> &'static str {
    match s {
        Stage::Cross => "cross",
        Stage::Within => "within",
        Stage::Extrapolation => "extrapolation",
    }
}

/// One trial as text cells.
type Trial = BTreeMap<String, String>;

fn cell<'a>(t: &'a Trial, names: &[&str]) -> Option<&'a str> {
    names.iter().find_map(|n| {
        t.get(*n)
            .map(String::as_str)
            .filter(|v| !v.trim().is_empty())
    })
}

fn trials(file: &str, bytes: &[u8]) -> Result<(HarnessFormat, Vec<(usize, Trial)>), HarnessError> {
    let text = super::text(file, bytes)?;
    if text.trim().is_empty() {
        return Err(HarnessError::Empty {
            file: file.to_string(),
            expected: "jsPsych trial data (CSV with a header, or a JSON array)",
        });
    }
    if text.trim_start().starts_with('{') {
        return Err(HarnessError::BadValue {
            location: Location::file(file).at_line(1),
            expected: "jsPsych data: a JSON array of trials (data.get().json()) or CSV".into(),
            found: "a JSON object".into(),
        });
    }
    if text.trim_start().starts_with('[') {
        let doc = super::json_doc(file, text)?;
        let Value::Array(items) = doc else {
            return Err(HarnessError::BadValue {
                location: Location::file(file),
                expected: "an array of trials".into(),
                found: type_of(&doc),
            });
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let Value::Object(map) = item else {
                return Err(HarnessError::BadValue {
                    location: Location::file(file).at_line(i + 1),
                    expected: "a trial object".into(),
                    found: type_of(item),
                });
            };
            let trial = map
                .iter()
                .filter_map(|(k, v)| {
                    let t = match v {
                        Value::Null => return None,
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    };
                    Some((k.clone(), t))
                })
                .collect();
            out.push((i + 1, trial));
        }
        return Ok((HarnessFormat::JsPsychJson, out));
    }
    if let Some(line) = crate::location::unterminated_quote(text.as_bytes(), b',') {
        return Err(HarnessError::Csv {
            location: Location::file(file).at_line(line),
            message: "a quoted field opens here and is never closed (the file may be cut short)"
                .into(),
        });
    }
    let mut reader = csv::ReaderBuilder::new()
        .flexible(false)
        .from_reader(text.as_bytes());
    let csv_err = |e: &csv::Error| HarnessError::Csv {
        location: match e.position() {
            Some(p) => Location::file(file).at_line(p.line() as usize),
            None => Location::file(file),
        },
        message: e.to_string(),
    };
    let header: Vec<String> = reader
        .headers()
        .map_err(|e| csv_err(&e))?
        .iter()
        .map(|h| h.trim().to_string())
        .collect();
    let mut out = Vec::new();
    for rec in reader.records() {
        let rec = rec.map_err(|e| csv_err(&e))?;
        let line = rec.position().map_or(0, |p| p.line() as usize);
        out.push((
            line,
            header
                .iter()
                .cloned()
                .zip(rec.iter().map(str::to_string))
                .collect(),
        ));
    }
    Ok((HarnessFormat::JsPsychCsv, out))
}

/// Reads jsPsych data (CSV or JSON) into records: one per trial that carries KiVA item
/// columns, with `sample_id` = `participant|subdomain|variation|stage` for a mapped trial;
/// a trial that cannot be mapped keeps `sample_id` `None` and says why in `problem`.
///
/// # Errors
/// [`HarnessError::Empty`], [`HarnessError::Csv`], [`HarnessError::Json`],
/// [`HarnessError::BadValue`] for a JSON value that is not an array of trial objects,
/// [`HarnessError::Missing`] when no trial has the jsPsych columns `trial_type` and
/// `trial_index`.
///
/// # Examples
/// ```
/// use coglab_core::harness::jspsych::read;
/// let csv = "trial_type,trial_index,time_elapsed,rt,response,correct_response,kiva_subdomain,kiva_variation,kiva_stage,subject\n\
///            html-keyboard-response,0,500,,,,,,,p1\n\
///            image-button-response,1,2400,1850,2,2,ColourRed,3,cross,p1\n";
/// let f = read("run.csv", csv.as_bytes()).unwrap();
/// assert_eq!(f.records.len(), 1);
/// assert_eq!(f.records[0].sample_id.as_deref(), Some("p1|ColourRed|3|cross"));
/// assert_eq!(f.records[0].verdict, Some(true));
/// ```
pub fn read(file: &str, bytes: &[u8]) -> Result<HarnessFile, HarnessError> {
    let (format, rows) = trials(file, bytes)?;
    if !rows
        .iter()
        .any(|(_, t)| t.contains_key("trial_type") && t.contains_key("trial_index"))
    {
        return Err(HarnessError::Missing {
            location: Location::file(file).in_field("trial_type"),
            expected: "jsPsych trial data (columns trial_type and trial_index)",
        });
    }
    let stem = file.rsplit(['/', '\\']).next().unwrap_or(file);
    let stem = stem.rsplit_once('.').map_or(stem, |(s, _)| s).to_string();
    let mut records = Vec::new();
    for (line, t) in &rows {
        let sub = cell(t, &SUBDOMAIN);
        let var = cell(t, &VARIATION);
        let stage = cell(t, &STAGE);
        if sub.is_none() && var.is_none() && stage.is_none() {
            continue;
        }
        let index = t.get("trial_index").cloned().unwrap_or_default();
        let mut rec = Record {
            position: *line,
            label: format!("trial_index {index}"),
            response: t.get("response").cloned(),
            target: t.get("correct_response").cloned(),
            ..Record::default()
        };
        let mut rec_rt = None;
        let why = (|| -> Result<String, String> {
            let sub =
                sub.ok_or("no subdomain column (kiva_subdomain, subdomain, transformation)")?;
            if crate::kiva::domain_of(sub).is_none()
                || !crate::kiva::KIVA_ADULTS_SUBDOMAINS.contains(&sub)
                    && !crate::kiva::KIVA_SUBDOMAINS.contains(&sub)
            {
                return Err(format!(
                    "subdomain {} is not a KiVA subdomain",
                    snippet(sub)
                ));
            }
            let var = var.ok_or("no variation column (kiva_variation, variation)")?;
            let v = var
                .trim()
                .parse::<u64>()
                .map_err(|_| format!("variation {} is not a non-negative integer", snippet(var)))?;
            let stage = stage.ok_or("no stage column (kiva_stage, stage, task)")?;
            let s = stage_of(stage).ok_or_else(|| {
                format!(
                    "stage {} is not cross, within or extrapolation",
                    snippet(stage)
                )
            })?;
            let rt = t.get("rt").map(|r| r.trim()).unwrap_or("");
            let rt_ok = rt
                .parse::<f64>()
                .ok()
                .filter(|r| r.is_finite() && *r >= 0.0);
            let Some(rt_ms) = rt_ok else {
                return Err(format!(
                    "rt {} is not a reaction time in ms (no response?)",
                    snippet(rt)
                ));
            };
            rec_rt = Some(rt_ms);
            let participant = cell(t, &PARTICIPANT).unwrap_or(&stem);
            Ok(format!("{participant}|{sub}|{v}|{}", stage_name(s)))
        })();
        rec.verdict = match t.get("correct").map(|c| c.trim()).filter(|c| !c.is_empty()) {
            Some(c) => super::verdict_text(c),
            None => match (&rec.response, &rec.target) {
                (Some(r), Some(k)) if !k.trim().is_empty() => Some(r.trim() == k.trim()),
                _ => None,
            },
        };
        match why {
            Ok(id) if rec.verdict.is_some() => rec.sample_id = Some(id),
            Ok(_) => {
                rec.problem =
                    Some("no score: neither correct nor response with correct_response".into())
            }
            Err(reason) => rec.problem = Some(reason),
        }
        rec.rt_ms = rec_rt;
        records.push(rec);
    }
    if records.is_empty() {
        return Err(HarnessError::Empty {
            file: file.to_string(),
            expected:
                "trials carrying KiVA item columns (kiva_subdomain, kiva_variation, kiva_stage)",
        });
    }
    Ok(HarnessFile {
        file: file.to_string(),
        format,
        task: Some("KiVA".into()),
        model: None,
        records,
        summary: Vec::new(),
    })
}
