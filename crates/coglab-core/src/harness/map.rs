//! Mapping harness records onto benchmark items and scoring them with the benchmark's own
//! rules.
//!
//! MM-IQ ([`score_mmiq`]): a record maps to the key item whose `data_id` it carries; a record
//! without one maps by its hash (lmms-eval `doc_hash`, an image `MD5` in its metadata) to the
//! key item with that `MD5`. Each mapped record's response is scored with MM-IQ's extractor
//! ([`crate::mmiq::score`]); the harness's verdict is kept and every item where it differs
//! from ours is listed ([`HarnessInfo::disagreements`]). A record that does not map (no id, an
//! id or hash not in the key, a second record for an item: a second Inspect epoch or lmms-eval
//! filter, a VLMEvalKit rotation) is counted and listed with the reason
//! ([`HarnessInfo::unmapped`]); none is dropped silently. For a circular VLMEvalKit file,
//! rotation 0 is scored against the key and [`HarnessInfo::circular`] gives the circular
//! score (an item counts when every rotation's answer matches that row's own `answer`).
//!
//! KiVA ([`score_kiva_human`]): jsPsych trials become rows of the KiVA human format and are
//! scored as the self-test export is.

use super::{HarnessError, HarnessFile};
use crate::kiva::{HumanData, HumanRow, KivaReport};
use crate::mmiq::{AnswerKey, MmiqReport, PredContent, PredRecord, Predictions};
use crate::provenance::{CircularScore, Disagreement, HarnessInfo, Unmapped};
use std::collections::{BTreeMap, HashMap};

/// A file's [`HarnessInfo`] before any record is mapped: its format, task, model, records
/// read and summary rows.
fn info_of(file: &HarnessFile) -> HarnessInfo {
    HarnessInfo {
        summary: file.summary.clone(),
        ..HarnessInfo::of(
            file.format,
            file.task.clone(),
            file.model.clone(),
            file.records.len(),
        )
    }
}

/// A harness file mapped onto MM-IQ items ([`mmiq_predictions`]).
#[derive(Debug)]
pub struct Mapped {
    /// The mapped records as MM-IQ predictions (responses, in record order).
    pub predictions: Predictions,
    /// The mapping so far (no disagreements yet: they need the scores).
    pub info: HarnessInfo,
    /// The harness's verdict per mapped item: (position, correct).
    pub verdicts: HashMap<u64, (usize, bool)>,
    /// Circular items: (rotations beyond the first, of which right).
    pub rotations: BTreeMap<u64, (usize, usize)>,
}

/// Maps a harness file's records onto MM-IQ items: the predictions to score (in record
/// order) and the mapping so far (verdicts are compared by [`score_mmiq`]).
///
/// # Errors
/// [`HarnessError::WrongTask`] when the file names a task that is not MM-IQ;
/// [`HarnessError::Empty`] for a summary-only file; [`HarnessError::NothingMapped`] when no
/// record maps.
pub fn mmiq_predictions(file: &HarnessFile, key: &AnswerKey) -> Result<Mapped, HarnessError> {
    super::expect_mmiq_task(file)?;
    if file.records.is_empty() {
        return Err(HarnessError::Empty {
            file: file.file.clone(),
            expected: "per-item records (a summary file has none to score)",
        });
    }
    let mut info = info_of(file);
    let md5: HashMap<String, u64> = key
        .items
        .iter()
        .filter_map(|k| k.md5.as_ref().map(|m| (m.to_ascii_lowercase(), k.data_id)))
        .collect();
    let mut first: HashMap<u64, usize> = HashMap::new();
    let mut verdicts: HashMap<u64, (usize, bool)> = HashMap::new();
    let mut records = Vec::new();
    let mut rotations: BTreeMap<u64, (usize, usize)> = BTreeMap::new();
    let mut unmapped = |r: &super::Record, reason: String| {
        info.unmapped.push(Unmapped {
            position: r.position,
            record: r.label.clone(),
            reason,
        });
    };
    for r in &file.records {
        if let Some(rot) = r.rotation.filter(|k| *k > 0) {
            // A circular rotation: scored against its own row's answer for the circular score.
            if let Some(id) = r.data_id {
                let ok = match (&r.target, &r.response) {
                    (Some(t), Some(resp)) => t.trim().chars().next().is_some_and(|c| {
                        crate::mmiq::extract::extract_choice(resp) == Some(c.to_ascii_uppercase())
                    }),
                    _ => false,
                };
                let e = rotations.entry(id).or_default();
                e.0 += 1;
                e.1 += usize::from(ok);
            }
            unmapped(
                r,
                format!("rotation {rot} of a circular item (counted in the circular score, not in the accuracy)"),
            );
            continue;
        }
        let (data_id, by) = match (r.data_id, &r.hash) {
            (Some(id), _) => {
                if key.get(id).is_none() {
                    unmapped(
                        r,
                        format!("data_id {id} is not in the answer key {}", key.file),
                    );
                    continue;
                }
                (id, "data_id")
            }
            (None, Some(h)) => match md5.get(&h.to_ascii_lowercase()) {
                Some(&id) => (id, "md5"),
                None => {
                    unmapped(
                        r,
                        format!(
                            "no data_id, and its hash {} is no MD5 of the answer key",
                            crate::location::snippet(h)
                        ),
                    );
                    continue;
                }
            },
            (None, None) => {
                unmapped(
                    r,
                    "carries no data_id and no hash to match the key's MD5".into(),
                );
                continue;
            }
        };
        if let Some(p) = first.get(&data_id) {
            let what = match r.epoch {
                Some(e) if e > 1 => format!("epoch {e} of data_id {data_id}"),
                _ => format!("a second record for data_id {data_id}"),
            };
            unmapped(r, format!("{what} (the record at {p} is scored)"));
            continue;
        }
        first.insert(data_id, r.position);
        *info.mapped_by.entry(by.to_string()).or_default() += 1;
        if let Some(v) = r.verdict {
            verdicts.insert(data_id, (r.position, v));
        }
        records.push(PredRecord {
            line: r.position,
            data_id,
            category: None,
            content: PredContent::Response(r.response.clone().unwrap_or_default()),
            file_answer: None,
            had_both: false,
            response_preview: None,
            // Measured by the scorer from the response text.
            response_length: None,
        });
    }
    info.verdicts = verdicts.len();
    if !rotations.is_empty() {
        // Completed by `score_mmiq` once rotation 0 is scored against the key.
        info.circular = Some(CircularScore {
            items: rotations.len(),
            all_correct: 0,
            accuracy: None,
        });
    }
    if records.is_empty() {
        return Err(HarnessError::NothingMapped {
            file: file.file.clone(),
            records: file.records.len(),
            against: key.file.clone(),
            example: info
                .unmapped
                .first()
                .map(|u| format!("{}: {}", u.record, u.reason))
                .unwrap_or_default(),
        });
    }
    let preds = Predictions {
        file: file.file.clone(),
        format: crate::mmiq::MmiqFormat::PredictionsJsonl,
        records,
        blank_lines: 0,
    };
    Ok(Mapped {
        predictions: preds,
        info,
        verdicts,
        rotations,
    })
}

/// Scores a harness file against the MM-IQ key: the report MM-IQ's scorer gives for the
/// mapped records, with [`MmiqReport::harness`] saying which harness produced it, what did
/// not map and where the harness's verdicts differ from ours. Unless `keep_items`, the item
/// results are dropped after the comparison.
///
/// # Errors
/// As [`mmiq_predictions`], and MM-IQ scoring's errors.
///
/// # Examples
/// ```
/// use coglab_core::harness::{lmms, map::score_mmiq};
/// use coglab_core::mmiq::AnswerKey;
/// let key = AnswerKey::parse("key.jsonl", concat!(
///     r#"{"category": "Mathematical", "MD5": "aa", "data_id": 0, "answer": "B"}"#, "\n",
///     r#"{"category": "Mathematical", "MD5": "bb", "data_id": 1, "answer": "C"}"#, "\n")).unwrap();
/// let f = lmms::read_samples("x_samples_mmiq.jsonl", concat!(
///     r#"{"doc_id": 0, "doc": {"data_id": 0}, "resps": [["The answer is B"]], "exact_match": 0.0}"#, "\n",
///     r#"{"doc_id": 1, "doc_hash": "BB", "resps": [["C"]], "exact_match": 1.0}"#, "\n",
///     r#"{"doc_id": 2, "resps": [["A"]]}"#, "\n").as_bytes()).unwrap();
/// let r = score_mmiq(&f, &key, true).unwrap();
/// let h = r.harness.as_ref().unwrap();
/// assert_eq!((r.overall.correct, r.overall.n), (2, 2));
/// assert_eq!((h.mapped_by["data_id"], h.mapped_by["md5"], h.unmapped.len()), (1, 1, 1));
/// assert_eq!(h.disagreements.len(), 1); // lmms-eval said item 0 was wrong; we read "B".
/// ```
pub fn score_mmiq(
    file: &HarnessFile,
    key: &AnswerKey,
    keep_items: bool,
) -> Result<MmiqReport, HarnessError> {
    let Mapped {
        predictions,
        mut info,
        verdicts,
        rotations,
    } = mmiq_predictions(file, key)?;
    let mut report = crate::mmiq::score_owned(key, predictions)?;
    for item in &report.items {
        if let Some(&(position, harness_correct)) = verdicts.get(&item.data_id) {
            if harness_correct != item.correct {
                info.disagreements.push(Disagreement {
                    data_id: item.data_id,
                    position,
                    harness_correct,
                    ours_correct: item.correct,
                    parsed: item.parsed.to_string(),
                    key: item.key,
                });
            }
        }
    }
    if let Some(c) = &mut info.circular {
        // Items whose rotations were all right and whose rotation 0 is right against the key.
        let mut scored = 0usize;
        let mut all = 0usize;
        for item in &report.items {
            if let Some((n, ok)) = rotations.get(&item.data_id) {
                scored += 1;
                all += usize::from(item.correct && n == ok);
            }
        }
        c.items = scored;
        c.all_correct = all;
        c.accuracy = crate::mmiq::Accuracy::new(all as u64, scored as u64);
    }
    if !keep_items {
        report.items.clear();
    }
    report.harness = Some(Box::new(info));
    Ok(report)
}

/// Scores a jsPsych KiVA run: the mapped trials as KiVA human rows, scored as the self-test
/// export ([`crate::kiva::score_human`]), with [`KivaReport::harness`] set.
///
/// # Errors
/// [`HarnessError::NothingMapped`] when no trial maps; the KiVA scorer's errors (e.g. the
/// same participant, trial and stage twice).
pub fn score_kiva_human(file: &HarnessFile) -> Result<KivaReport, HarnessError> {
    let mut info = info_of(file);
    let mut rows = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for r in &file.records {
        let Some(id) = r.sample_id.as_deref() else {
            info.unmapped.push(Unmapped {
                position: r.position,
                record: r.label.clone(),
                reason: r
                    .problem
                    .clone()
                    .unwrap_or_else(|| "not a KiVA item trial".into()),
            });
            continue;
        };
        let parts: Vec<&str> = id.split('|').collect();
        let (Some(participant), Some(sub), Some(var), Some(stage)) = (
            parts.first(),
            parts.get(1),
            parts.get(2).and_then(|v| v.parse::<u64>().ok()),
            parts.get(3).and_then(|s| super::jspsych::stage_of(s)),
        ) else {
            continue;
        };
        if let Some(p) = seen.get(id) {
            info.unmapped.push(Unmapped {
                position: r.position,
                record: r.label.clone(),
                reason: format!(
                    "the same participant, trial and stage again (the trial at {p} is scored)"
                ),
            });
            continue;
        }
        seen.insert(id.to_string(), r.position);
        *info.mapped_by.entry("trial".into()).or_default() += 1;
        if r.verdict.is_some() {
            info.verdicts += 1;
        }
        rows.push(HumanRow {
            line: r.position,
            participant: (*participant).to_string(),
            subdomain: (*sub).to_string(),
            variation: var,
            stage,
            score: if r.verdict == Some(true) { 1.0 } else { 0.0 },
            rt_ms: r.rt_ms.unwrap_or(0.0),
        });
    }
    if rows.is_empty() {
        return Err(HarnessError::NothingMapped {
            file: file.file.clone(),
            records: file.records.len(),
            against: "the KiVA subdomains".into(),
            example: info
                .unmapped
                .first()
                .map(|u| format!("{}: {}", u.record, u.reason))
                .unwrap_or_default(),
        });
    }
    let data = HumanData {
        file: file.file.clone(),
        rows,
    };
    let mut report = crate::kiva::score_human(&data)?;
    report.harness = Some(Box::new(info));
    Ok(report)
}
