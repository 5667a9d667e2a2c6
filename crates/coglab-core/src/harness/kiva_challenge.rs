//! The KiVA challenge's files: the annotation JSON (`{trial_id: {level,
//! transformation_domain, concept, correct, incorrect1, incorrect2, ...}}`) and a model's
//! result file, JSON (`[{"id": trial_id, "answer": "(A)"}]`) or CSV (`id,answer`).
//!
//! Our reading of the annotation: `correct` names the option that is right, as an option label
//! (`(A)`, `A`, ...) in the same lettering as the result's `answer`; `incorrect1` and
//! `incorrect2` name the others (not needed to score). An answer is the first `(X)` token in
//! the result's text, else the text itself when it is a single letter. A result whose id is
//! not in the annotations is counted and listed; an annotated trial without a result is
//! counted as not answered (it does not enter the accuracy, as a missing MM-IQ prediction).
//! Accuracy overall and per level, domain and concept carries the Wilson 95% interval.

use super::{scalar_text, type_of, HarnessError};
use crate::location::{snippet, Location};
use crate::mmiq::Accuracy;
use crate::provenance::Unmapped;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// One annotated trial.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Annotation {
    /// Trial id.
    pub id: String,
    /// `level` (e.g. `kiva`, `kiva-functions`, `kiva-functions-compositionality`).
    pub level: String,
    /// `transformation_domain`.
    pub domain: String,
    /// `concept`.
    pub concept: String,
    /// The correct option's letter.
    pub correct: char,
}

/// One scored trial.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChallengeItem {
    /// The trial's annotation.
    #[serde(flatten)]
    pub annotation: Annotation,
    /// The result's answer as given.
    pub answer: String,
    /// The option letter read from it (`None`: no option named, counted wrong).
    pub chosen: Option<char>,
    /// Whether `chosen` is the correct option.
    pub is_correct: bool,
}

/// A model's KiVA challenge result scored against the annotations.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChallengeReport {
    /// Always `"kiva_challenge"`.
    pub benchmark: String,
    /// Result file.
    pub file: String,
    /// Annotation file.
    pub annotation_file: String,
    /// Accuracy over the answered, annotated trials.
    pub overall: Accuracy,
    /// Accuracy per level.
    pub by_level: BTreeMap<String, Accuracy>,
    /// Accuracy per transformation domain.
    pub by_domain: BTreeMap<String, Accuracy>,
    /// Accuracy per concept.
    pub by_concept: BTreeMap<String, Accuracy>,
    /// Annotated trials without a result.
    pub not_answered: usize,
    /// Results that could not be mapped to an annotated trial.
    pub unmapped: Vec<Unmapped>,
    /// Per-trial results, in result-file order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<ChallengeItem>,
}

/// An option letter in an answer: the first `(X)` token, else a lone letter.
///
/// # Examples
/// ```
/// use coglab_core::harness::kiva_challenge::option_letter;
/// assert_eq!(option_letter("(B)"), Some('B'));
/// assert_eq!(option_letter("I think (C) because (A) is rotated"), Some('C'));
/// assert_eq!(option_letter(" a "), Some('A'));
/// assert_eq!(option_letter("none"), None);
/// ```
pub fn option_letter(text: &str) -> Option<char> {
    let b = text.as_bytes();
    for i in 0..b.len().saturating_sub(2) {
        if b[i] == b'(' && b[i + 1].is_ascii_alphabetic() && b[i + 2] == b')' {
            return Some(b[i + 1].to_ascii_uppercase() as char);
        }
    }
    let t = text.trim();
    let mut chars = t.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => Some(c.to_ascii_uppercase()),
        _ => None,
    }
}

/// Reads the annotation JSON.
///
/// # Errors
/// [`HarnessError::Json`], [`HarnessError::BadValue`] when the document or a trial is not an
/// object or `correct` names no option, [`HarnessError::Missing`] for a trial without
/// `level`, `transformation_domain`, `concept` or `correct`, [`HarnessError::Empty`].
pub fn read_annotations(file: &str, bytes: &[u8]) -> Result<Vec<Annotation>, HarnessError> {
    let text = super::text(file, bytes)?;
    if text.trim().is_empty() {
        return Err(HarnessError::Empty {
            file: file.to_string(),
            expected: "the annotation object {trial_id: {...}}",
        });
    }
    let doc = super::json_doc(file, text)?;
    let Value::Object(trials) = doc else {
        return Err(HarnessError::BadValue {
            location: Location::file(file),
            expected: "an object of trial_id -> annotation".into(),
            found: type_of(&doc),
        });
    };
    let mut out = Vec::with_capacity(trials.len());
    for (id, t) in &trials {
        let at = |f: &str| Location::file(file).in_field(format!("{id}.{f}"));
        let Value::Object(t) = t else {
            return Err(HarnessError::BadValue {
                location: Location::file(file).in_field(id.clone()),
                expected: "an annotation object".into(),
                found: type_of(t),
            });
        };
        let field = |name: &'static str| -> Result<String, HarnessError> {
            let v = t.get(name).ok_or_else(|| HarnessError::Missing {
                location: at(name),
                expected: "a string",
            })?;
            scalar_text(v).ok_or_else(|| HarnessError::BadValue {
                location: at(name),
                expected: "a string".into(),
                found: type_of(v),
            })
        };
        let correct_text = field("correct")?;
        let correct = option_letter(&correct_text).ok_or_else(|| HarnessError::BadValue {
            location: at("correct"),
            expected: "the correct option's label, e.g. (A)".into(),
            found: snippet(&correct_text),
        })?;
        out.push(Annotation {
            id: id.clone(),
            level: field("level")?,
            domain: field("transformation_domain")?,
            concept: field("concept")?,
            correct,
        });
    }
    if out.is_empty() {
        return Err(HarnessError::Empty {
            file: file.to_string(),
            expected: "at least one annotated trial",
        });
    }
    Ok(out)
}

/// Reads a result file: a JSON array of `{"id", "answer"}` or a CSV with `id,answer`.
/// Returns `(position, id, answer)` in file order.
///
/// # Errors
/// [`HarnessError::Json`], [`HarnessError::Csv`], [`HarnessError::Missing`] for an entry
/// without `id` or `answer`, [`HarnessError::BadValue`], [`HarnessError::Empty`].
pub fn read_results(
    file: &str,
    bytes: &[u8],
) -> Result<Vec<(usize, String, String)>, HarnessError> {
    let text = super::text(file, bytes)?;
    if text.trim().is_empty() {
        return Err(HarnessError::Empty {
            file: file.to_string(),
            expected: "results ([{\"id\", \"answer\"}] or id,answer CSV)",
        });
    }
    let mut out = Vec::new();
    if text.trim_start().starts_with('[') {
        let doc = super::json_doc(file, text)?;
        let Value::Array(items) = doc else {
            return Err(HarnessError::BadValue {
                location: Location::file(file),
                expected: "an array of results".into(),
                found: type_of(&doc),
            });
        };
        for (i, item) in items.iter().enumerate() {
            let loc = || Location::file(file).at_line(i + 1);
            let get = |name: &'static str| -> Result<String, HarnessError> {
                let v = item.get(name).ok_or_else(|| HarnessError::Missing {
                    location: loc().in_field(name),
                    expected: "a string",
                })?;
                scalar_text(v).ok_or_else(|| HarnessError::BadValue {
                    location: loc().in_field(name),
                    expected: "a string".into(),
                    found: type_of(v),
                })
            };
            if !item.is_object() {
                return Err(HarnessError::BadValue {
                    location: loc(),
                    expected: "a result object".into(),
                    found: type_of(item),
                });
            }
            out.push((i + 1, get("id")?, get("answer")?));
        }
    } else {
        let mut reader = csv::ReaderBuilder::new().from_reader(text.as_bytes());
        let err = |e: &csv::Error| HarnessError::Csv {
            location: match e.position() {
                Some(p) => Location::file(file).at_line(p.line() as usize),
                None => Location::file(file),
            },
            message: e.to_string(),
        };
        let header: Vec<String> = reader
            .headers()
            .map_err(|e| err(&e))?
            .iter()
            .map(|h| h.trim().to_ascii_lowercase())
            .collect();
        let (Some(id), Some(ans)) = (
            header.iter().position(|h| h == "id"),
            header.iter().position(|h| h == "answer"),
        ) else {
            return Err(HarnessError::Missing {
                location: Location::file(file).at_line(1).in_field("id, answer"),
                expected: "a header with id and answer columns",
            });
        };
        for rec in reader.records() {
            let rec = rec.map_err(|e| err(&e))?;
            let line = rec.position().map_or(0, |p| p.line() as usize);
            out.push((
                line,
                rec.get(id).unwrap_or("").trim().to_string(),
                rec.get(ans).unwrap_or("").to_string(),
            ));
        }
    }
    if out.is_empty() {
        return Err(HarnessError::Empty {
            file: file.to_string(),
            expected: "at least one result",
        });
    }
    Ok(out)
}

/// Scores a result file against the annotations.
///
/// # Errors
/// The readers' errors; [`HarnessError::NothingMapped`] when no result names an annotated
/// trial.
///
/// # Examples
/// ```
/// use coglab_core::harness::kiva_challenge::score;
/// let ann = br#"{"t1": {"level": "kiva", "transformation_domain": "Colour", "concept": "Red", "correct": "(A)", "incorrect1": "(B)", "incorrect2": "(C)"},
///               "t2": {"level": "kiva", "transformation_domain": "Counting", "concept": "+1", "correct": "(C)", "incorrect1": "(A)", "incorrect2": "(B)"}}"#;
/// let res = br#"[{"id": "t1", "answer": "(A)"}, {"id": "t2", "answer": "(B)"}, {"id": "t9", "answer": "(A)"}]"#;
/// let r = score(("ann.json", ann), ("res.json", res)).unwrap();
/// assert_eq!((r.overall.correct, r.overall.n), (1, 2));
/// assert_eq!(r.unmapped.len(), 1);
/// ```
pub fn score(
    annotations: (&str, &[u8]),
    results: (&str, &[u8]),
) -> Result<ChallengeReport, HarnessError> {
    let ann = read_annotations(annotations.0, annotations.1)?;
    let res = read_results(results.0, results.1)?;
    let by_id: BTreeMap<&str, &Annotation> = ann.iter().map(|a| (a.id.as_str(), a)).collect();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut items = Vec::new();
    let mut unmapped = Vec::new();
    for (pos, id, answer) in res {
        let Some(a) = by_id.get(id.as_str()) else {
            unmapped.push(Unmapped {
                position: pos,
                record: format!("id {id}"),
                reason: format!("{} is not a trial of the annotations", snippet(&id)),
            });
            continue;
        };
        if let Some(first) = seen.insert(id.clone(), pos) {
            unmapped.push(Unmapped {
                position: pos,
                record: format!("id {id}"),
                reason: format!("a second result for the trial (the first, at {first}, is scored)"),
            });
            seen.insert(id.clone(), first);
            continue;
        }
        let chosen = option_letter(&answer);
        items.push(ChallengeItem {
            annotation: (*a).clone(),
            is_correct: chosen == Some(a.correct),
            chosen,
            answer,
        });
    }
    if items.is_empty() {
        return Err(HarnessError::NothingMapped {
            file: results.0.to_string(),
            records: unmapped.len(),
            against: annotations.0.to_string(),
            example: unmapped
                .first()
                .map(|u| u.reason.clone())
                .unwrap_or_default(),
        });
    }
    let acc = |pick: &dyn Fn(&ChallengeItem) -> &str| {
        let mut m: BTreeMap<String, (u64, u64)> = BTreeMap::new();
        for it in &items {
            let e = m.entry(pick(it).to_string()).or_default();
            e.0 += u64::from(it.is_correct);
            e.1 += 1;
        }
        m.into_iter()
            .filter_map(|(k, (c, n))| Accuracy::new(c, n).map(|a| (k, a)))
            .collect::<BTreeMap<_, _>>()
    };
    let correct = items.iter().filter(|i| i.is_correct).count() as u64;
    let overall =
        Accuracy::new(correct, items.len() as u64).ok_or_else(|| HarnessError::Empty {
            file: results.0.to_string(),
            expected: "at least one result",
        })?;
    Ok(ChallengeReport {
        benchmark: "kiva_challenge".into(),
        file: results.0.to_string(),
        annotation_file: annotations.0.to_string(),
        overall,
        by_level: acc(&|i| &i.annotation.level),
        by_domain: acc(&|i| &i.annotation.domain),
        by_concept: acc(&|i| &i.annotation.concept),
        not_answered: ann.len() - seen.len(),
        unmapped,
        items,
    })
}
