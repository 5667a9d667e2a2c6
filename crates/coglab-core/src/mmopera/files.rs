//! Readers for the per-model files of the released MM-OPERA evaluation code:
//!
//! - answers `<model>_RIA_results.json` `{id: text}` / ICA `{id: [4 texts]}` → [`Answers`];
//! - holistic judge `<model>_RIA_regular_scoring.json`
//!   `{id: {"score_judge": "3", "score_reason": "..."}}` / ICA `{id: [4 such objects]}`, and
//!   plain re-score files `{id: score}` / `{id: [scores]}` → [`RegularScores`];
//! - process-reward judge `<model>_RIA_reasoning_scoring.json`
//!   `{id: {"path": "A → X → B", "hop_quality": {"A → X": [R, D, K], ...}, "explanation": ...}}`
//!   / ICA `{id: [4 objects with hop_quality_path1 and hop_quality_path2]}` → [`ReasoningScores`].
//!
//! The task (RIA or ICA) is read from the shape: ICA entries are lists. A file that is not a
//! JSON object is an error; a bad entry inside it is a [`Warning`] and is handled as the
//! released code does (a bad holistic score counts as 0, a bad hop is left out).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::json::{self, Node};
use super::{MmoperaError, Task, Warning};
use crate::location::{snippet, Location};

/// Parses an id-keyed JSON object; repeated ids keep their first position and last value
/// (as Python's `json.load`), with a warning.
fn id_object(
    file: &str,
    bytes: &[u8],
    warnings: &mut Vec<Warning>,
) -> Result<Vec<(String, Node)>, MmoperaError> {
    let node = json::parse(file, bytes)?;
    let Node::Object(pairs) = node else {
        return Err(MmoperaError::Unexpected {
            location: Location::file(file),
            expected: "a JSON object keyed by item id".into(),
            found: node.describe(),
        });
    };
    if pairs.is_empty() {
        return Err(MmoperaError::Empty {
            file: file.to_owned(),
        });
    }
    let mut out: Vec<(String, Node)> = Vec::with_capacity(pairs.len());
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (id, value) in pairs {
        if let Some(&i) = seen.get(&id) {
            warnings.push(warn(
                file,
                &id,
                None,
                "the id occurs twice; the last entry is used",
            ));
            out[i].1 = value;
        } else {
            seen.insert(id.clone(), out.len());
            out.push((id, value));
        }
    }
    Ok(out)
}

fn warn(file: &str, id: &str, field: Option<String>, message: &str) -> Warning {
    Warning {
        file: file.to_owned(),
        id: Some(id.to_owned()),
        field,
        message: message.to_owned(),
    }
}

/// The task shown by the first entry that is not null: a list means ICA.
fn task_of(pairs: &[(String, Node)]) -> Task {
    match pairs
        .iter()
        .map(|(_, v)| v)
        .find(|v| !matches!(v, Node::Null))
    {
        Some(Node::Array(_)) => Task::Ica,
        _ => Task::Ria,
    }
}

fn build_index<T>(entries: &[T], id: impl Fn(&T) -> &str) -> HashMap<String, usize> {
    entries
        .iter()
        .enumerate()
        .map(|(i, e)| (id(e).to_owned(), i))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Answers

/// One item's answer texts: one for RIA, one per rotation (4) for ICA. `None` where the
/// file has no usable text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnswerEntry {
    /// Item id.
    pub id: String,
    /// The answers, in rotation order.
    pub texts: Vec<Option<String>>,
}

/// A model's answers file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(from = "AnswersRaw")]
pub struct Answers {
    /// The file name.
    pub file: String,
    /// RIA (`{id: text}`) or ICA (`{id: [texts]}`).
    pub task: Task,
    /// The entries, in file order.
    pub entries: Vec<AnswerEntry>,
    /// Entries that could not be read.
    pub warnings: Vec<Warning>,
    #[serde(skip)]
    index: HashMap<String, usize>,
}

impl Answers {
    /// Parses `{id: text}` (RIA) or `{id: [texts]}` (ICA).
    ///
    /// # Errors
    /// [`MmoperaError::Json`], [`MmoperaError::Unexpected`] when the file is not a JSON
    /// object, [`MmoperaError::Empty`].
    ///
    /// # Examples
    /// ```
    /// use coglab_core::mmopera::{files::Answers, Task};
    /// let a = Answers::parse("m_ICA_results.json", br#"{"i1": ["a", "b", "c", "d"]}"#).unwrap();
    /// assert_eq!(a.task, Task::Ica);
    /// assert_eq!(a.get("i1").unwrap().texts[3].as_deref(), Some("d"));
    /// ```
    pub fn parse(file: &str, bytes: &[u8]) -> Result<Self, MmoperaError> {
        let mut warnings = Vec::new();
        let pairs = id_object(file, bytes, &mut warnings)?;
        let task = task_of(&pairs);
        let mut entries = Vec::with_capacity(pairs.len());
        for (id, value) in pairs {
            let texts = match (task, &value) {
                (Task::Ria, Node::Str(s)) => vec![Some(s.clone())],
                (Task::Ica, Node::Array(items)) => items
                    .iter()
                    .enumerate()
                    .map(|(r, item)| match item {
                        Node::Str(s) => Some(s.clone()),
                        other => {
                            warnings.push(warn(
                                file,
                                &id,
                                Some(json::path(&id, Some(r), None)),
                                &format!("expected an answer text, found {}", other.describe()),
                            ));
                            None
                        }
                    })
                    .collect(),
                (_, other) => {
                    let expected = match task {
                        Task::Ria => "an answer text",
                        Task::Ica => "a list of answer texts",
                    };
                    warnings.push(warn(
                        file,
                        &id,
                        Some(id.clone()),
                        &format!("expected {expected}, found {}", other.describe()),
                    ));
                    vec![None]
                }
            };
            entries.push(AnswerEntry { id, texts });
        }
        let index = build_index(&entries, |e| &e.id);
        Ok(Self {
            file: file.to_owned(),
            task,
            entries,
            warnings,
            index,
        })
    }

    /// The entry for an item.
    pub fn get(&self, id: &str) -> Option<&AnswerEntry> {
        self.index.get(id).and_then(|&i| self.entries.get(i))
    }
}

// ---------------------------------------------------------------------------------------------
// Holistic (regular) scores

/// One holistic judgement of one answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    /// The score, when it is an integer 0-4.
    pub score: Option<u8>,
    /// The value found when it is not a valid score (missing, non-integer, out of range,
    /// an `error` entry); such a verdict counts as 0 by default.
    pub found: Option<String>,
    /// The judge's `score_reason`, if given.
    pub reason: Option<String>,
}

impl Verdict {
    /// The score as counted by the released code: the score, or 0 when invalid.
    pub fn counted(&self) -> u8 {
        self.score.unwrap_or(0)
    }
}

/// One item's holistic verdicts: one for RIA, one per rotation for ICA.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegularEntry {
    /// Item id.
    pub id: String,
    /// The verdicts, in rotation order.
    pub verdicts: Vec<Verdict>,
}

/// A holistic (regular) judge file, or a plain re-score file `{id: score}` /
/// `{id: [scores]}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(from = "RegularScoresRaw")]
pub struct RegularScores {
    /// The file name.
    pub file: String,
    /// RIA or ICA (lists of verdicts).
    pub task: Task,
    /// The entries, in file order.
    pub entries: Vec<RegularEntry>,
    /// Invalid scores (each counted as 0) and other problems.
    pub warnings: Vec<Warning>,
    #[serde(skip)]
    index: HashMap<String, usize>,
}

impl RegularScores {
    /// Parses a regular-scoring file or a plain score file. A score is valid when it is an
    /// integer 0-4, written as a number (`3`, `3.0`) or a string (`"3"`, `" 3 "`), as Python's
    /// `int()` in the released code. The key `score_4o` (older judge output) is read when
    /// `score_judge` is absent.
    ///
    /// # Errors
    /// [`MmoperaError::Json`], [`MmoperaError::Unexpected`] when the file is not a JSON
    /// object, [`MmoperaError::Empty`].
    ///
    /// # Examples
    /// ```
    /// use coglab_core::mmopera::files::RegularScores;
    /// let r = RegularScores::parse("j.json", br#"{"q1": {"score_judge": "3"}, "q2": "five", "q3": 4}"#)
    ///     .unwrap();
    /// assert_eq!(r.get("q1").unwrap().verdicts[0].score, Some(3));
    /// assert_eq!(r.get("q2").unwrap().verdicts[0].counted(), 0);
    /// assert_eq!(r.warnings.len(), 1);
    /// ```
    pub fn parse(file: &str, bytes: &[u8]) -> Result<Self, MmoperaError> {
        let mut warnings = Vec::new();
        let pairs = id_object(file, bytes, &mut warnings)?;
        let task = task_of(&pairs);
        let mut entries = Vec::with_capacity(pairs.len());
        for (id, value) in pairs {
            let verdicts = match (task, &value) {
                (Task::Ica, Node::Array(items)) => {
                    if items.len() != 4 {
                        warnings.push(warn(
                            file,
                            &id,
                            Some(id.clone()),
                            &format!(
                                "expected 4 rotations, found {}; the verdicts present are used",
                                items.len()
                            ),
                        ));
                    }
                    items
                        .iter()
                        .enumerate()
                        .map(|(r, item)| verdict(file, &id, Some(r), item, &mut warnings))
                        .collect()
                }
                (Task::Ica, other) => {
                    warnings.push(warn(
                        file,
                        &id,
                        Some(id.clone()),
                        &format!(
                            "expected a list of 4 judgements, found {}; counted as one verdict of 0",
                            other.describe()
                        ),
                    ));
                    vec![Verdict {
                        score: None,
                        found: Some(other.to_string()),
                        reason: None,
                    }]
                }
                (Task::Ria, item) => vec![verdict(file, &id, None, item, &mut warnings)],
            };
            entries.push(RegularEntry { id, verdicts });
        }
        let index = build_index(&entries, |e| &e.id);
        Ok(Self {
            file: file.to_owned(),
            task,
            entries,
            warnings,
            index,
        })
    }

    /// The entry for an item.
    pub fn get(&self, id: &str) -> Option<&RegularEntry> {
        self.index.get(id).and_then(|&i| self.entries.get(i))
    }
}

/// Reads one verdict (a judge object or a plain score).
fn verdict(
    file: &str,
    id: &str,
    rotation: Option<usize>,
    node: &Node,
    warnings: &mut Vec<Warning>,
) -> Verdict {
    let (score_node, key, reason) = match node {
        Node::Object(_) => {
            let reason = node.get("score_reason").and_then(Node::as_text);
            match (node.get("score_judge"), node.get("score_4o")) {
                (Some(s), _) => (Some(s), "score_judge", reason),
                (None, Some(s)) => (Some(s), "score_4o", reason),
                (None, None) => {
                    let (found, message) = match node.get("error").and_then(Node::as_text) {
                        Some(e) => (
                            e.clone(),
                            format!(
                                "expected score_judge, found a judge error {}; counted as 0",
                                snippet(&e)
                            ),
                        ),
                        None => (
                            node.to_string(),
                            format!(
                                "expected score_judge, found {}; counted as 0",
                                node.describe()
                            ),
                        ),
                    };
                    warnings.push(warn(
                        file,
                        id,
                        Some(json::path(id, rotation, None)),
                        &message,
                    ));
                    return Verdict {
                        score: None,
                        found: Some(found),
                        reason,
                    };
                }
            }
        }
        other => (Some(other), "", None),
    };
    let field = json::path(id, rotation, (!key.is_empty()).then_some(key));
    let node = score_node.unwrap_or(&Node::Null);
    match parse_score(node) {
        Ok(score) => Verdict {
            score: Some(score),
            found: None,
            reason,
        },
        Err(why) => {
            warnings.push(warn(
                file,
                id,
                Some(field),
                &format!("expected an integer score 0-4, found {why}; counted as 0"),
            ));
            Verdict {
                score: None,
                found: Some(match node {
                    Node::Str(s) => s.clone(),
                    other => other.to_string(),
                }),
                reason,
            }
        }
    }
}

/// An integer score 0-4 from a number or a string; otherwise a description of what was found.
fn parse_score(node: &Node) -> Result<u8, String> {
    let value = match node {
        Node::Number { value, .. } => *value,
        Node::Str(s) => match s.trim().parse::<i64>() {
            Ok(v) => v as f64,
            Err(_) => return Err(node.describe()),
        },
        other => return Err(other.describe()),
    };
    if value.fract() != 0.0 || !(0.0..=4.0).contains(&value) {
        return Err(node.describe());
    }
    Ok(value as u8)
}

// ---------------------------------------------------------------------------------------------
// Process-reward (reasoning) scores

/// One hop as the judge scored it: reasonableness R, distinctiveness D, knowledgeability K,
/// as written in the file (clamping and rounding happen when scoring).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hop {
    /// The hop's label, e.g. `A → X`.
    pub name: String,
    /// Reasonableness as written.
    pub r: f64,
    /// Distinctiveness as written.
    pub d: f64,
    /// Knowledgeability as written.
    pub k: f64,
}

/// One reasoning path of one judgement, with its valid hops in file order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PathJudgement {
    /// The key in the file: `hop_quality` (RIA), `hop_quality_path1` / `_path2` (ICA).
    pub key: String,
    /// The judge's path text (`path`, `path1`, `path2`), if given.
    pub path: Option<String>,
    /// The valid hops, in file order (hop i is weighted γ^i).
    pub hops: Vec<Hop>,
    /// Hops left out because their value is not a list of three numbers.
    pub invalid_hops: usize,
}

/// One process-reward judgement of one answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReasoningJudgement {
    /// The paths (one for RIA, two for ICA).
    pub paths: Vec<PathJudgement>,
    /// The judge's explanation, if given.
    pub explanation: Option<String>,
    /// Why there is no usable path (an `error` entry, no `hop_quality`), if so.
    pub error: Option<String>,
}

/// One item's process-reward judgements: one for RIA, one per rotation for ICA (`None` for
/// a rotation without a judgement object).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReasoningEntry {
    /// Item id.
    pub id: String,
    /// The judgements, in rotation order.
    pub rotations: Vec<Option<ReasoningJudgement>>,
}

/// A process-reward (reasoning) judge file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(from = "ReasoningScoresRaw")]
pub struct ReasoningScores {
    /// The file name.
    pub file: String,
    /// RIA or ICA.
    pub task: Task,
    /// The entries, in file order.
    pub entries: Vec<ReasoningEntry>,
    /// Hops left out, values clamped or rounded, entries without a path.
    pub warnings: Vec<Warning>,
    #[serde(skip)]
    index: HashMap<String, usize>,
}

impl ReasoningScores {
    /// Parses a reasoning-scoring file. Hops keep their file order. A hop whose value is not a
    /// list of three numbers (numeric strings are read, as Python's `float()`) is left out with
    /// a warning; R or D outside [0, 1] and K other than 0 or 1 are reported here and clamped /
    /// rounded when scoring.
    ///
    /// # Errors
    /// [`MmoperaError::Json`], [`MmoperaError::Unexpected`] when the file is not a JSON
    /// object, [`MmoperaError::Empty`].
    ///
    /// # Examples
    /// ```
    /// use coglab_core::mmopera::files::ReasoningScores;
    /// let r = ReasoningScores::parse("m_RIA_reasoning_scoring.json",
    ///     r#"{"q1": {"path": "A → X → B", "hop_quality": {"A → X": [1, 0.5, 1], "X → B": [0.8, 1, 0]}}}"#
    ///         .as_bytes()).unwrap();
    /// let hops = &r.get("q1").unwrap().rotations[0].as_ref().unwrap().paths[0].hops;
    /// assert_eq!(hops[1].name, "X → B");
    /// ```
    pub fn parse(file: &str, bytes: &[u8]) -> Result<Self, MmoperaError> {
        let mut warnings = Vec::new();
        let pairs = id_object(file, bytes, &mut warnings)?;
        let task = task_of(&pairs);
        let mut entries = Vec::with_capacity(pairs.len());
        for (id, value) in pairs {
            let rotations = match (task, &value) {
                (Task::Ica, Node::Array(items)) => {
                    if items.len() != 4 {
                        warnings.push(warn(
                            file,
                            &id,
                            Some(id.clone()),
                            &format!("expected 4 rotations, found {}", items.len()),
                        ));
                    }
                    items
                        .iter()
                        .enumerate()
                        .map(|(r, item)| judgement(file, &id, Some(r), item, &mut warnings))
                        .collect()
                }
                (Task::Ria, item @ Node::Object(_)) => {
                    vec![judgement(file, &id, None, item, &mut warnings)]
                }
                (_, other) => {
                    let expected = match task {
                        Task::Ria => "a judgement object",
                        Task::Ica => "a list of 4 judgement objects",
                    };
                    warnings.push(warn(
                        file,
                        &id,
                        Some(id.clone()),
                        &format!(
                            "expected {expected}, found {}; item skipped",
                            other.describe()
                        ),
                    ));
                    vec![None]
                }
            };
            entries.push(ReasoningEntry { id, rotations });
        }
        let index = build_index(&entries, |e| &e.id);
        Ok(Self {
            file: file.to_owned(),
            task,
            entries,
            warnings,
            index,
        })
    }

    /// The entry for an item.
    pub fn get(&self, id: &str) -> Option<&ReasoningEntry> {
        self.index.get(id).and_then(|&i| self.entries.get(i))
    }
}

fn judgement(
    file: &str,
    id: &str,
    rotation: Option<usize>,
    node: &Node,
    warnings: &mut Vec<Warning>,
) -> Option<ReasoningJudgement> {
    let Node::Object(pairs) = node else {
        warnings.push(warn(
            file,
            id,
            Some(json::path(id, rotation, None)),
            &format!("expected a judgement object, found {}", node.describe()),
        ));
        return None;
    };
    let mut paths = Vec::new();
    let mut seen_keys: Vec<&str> = Vec::new();
    for (key, value) in pairs {
        if !key.starts_with("hop_quality") || seen_keys.contains(&key.as_str()) {
            continue;
        }
        seen_keys.push(key);
        // A repeated key keeps its last value, as Python's json.
        let value = node.get(key).unwrap_or(value);
        let field = json::path(id, rotation, Some(key));
        let Node::Object(hop_pairs) = value else {
            warnings.push(warn(
                file,
                id,
                Some(field),
                &format!(
                    "expected an object of hops, found {}; path left out",
                    value.describe()
                ),
            ));
            continue;
        };
        let suffix = key["hop_quality".len()..].trim_start_matches('_');
        let path_key = if suffix.is_empty() {
            "path".to_owned()
        } else {
            suffix.to_owned()
        };
        let mut hops = Vec::with_capacity(hop_pairs.len());
        let mut invalid_hops = 0;
        for (name, hop) in hop_pairs {
            let hop_field = format!("{field}[{name}]");
            let values: Option<Vec<f64>> = match hop {
                Node::Array(v) if v.len() == 3 => v.iter().map(Node::as_f64).collect(),
                _ => None,
            };
            let Some(v) = values else {
                invalid_hops += 1;
                warnings.push(warn(
                    file,
                    id,
                    Some(hop_field),
                    &format!(
                        "expected [R, D, K] (three numbers), found {}; hop left out",
                        hop.describe()
                    ),
                ));
                continue;
            };
            let (r, d, k) = (v[0], v[1], v[2]);
            for (label, x) in [("R", r), ("D", d)] {
                if !(0.0..=1.0).contains(&x) {
                    warnings.push(warn(
                        file,
                        id,
                        Some(hop_field.clone()),
                        &format!("expected {label} in [0, 1], found {x}; clamped"),
                    ));
                }
            }
            if k != 0.0 && k != 1.0 {
                warnings.push(warn(
                    file,
                    id,
                    Some(hop_field.clone()),
                    &format!("expected K = 0 or 1, found {k}; rounded (K < 0.5 → 0, else 1)"),
                ));
            }
            hops.push(Hop {
                name: name.clone(),
                r,
                d,
                k,
            });
        }
        paths.push(PathJudgement {
            key: key.clone(),
            path: node.get(&path_key).and_then(Node::as_text),
            hops,
            invalid_hops,
        });
    }
    let explanation = node.get("explanation").and_then(Node::as_text);
    let error = if paths.is_empty() {
        let why = match node.get("error").and_then(Node::as_text) {
            Some(e) => format!("judge error {}", snippet(&e)),
            None => "no hop_quality".to_owned(),
        };
        warnings.push(warn(
            file,
            id,
            Some(json::path(id, rotation, None)),
            &format!("expected hop_quality, found {why}"),
        ));
        Some(why)
    } else {
        None
    };
    Some(ReasoningJudgement {
        paths,
        explanation,
        error,
    })
}

/// [`Answers`] as serialized; the id index is rebuilt on deserialization.
#[derive(Deserialize)]
struct AnswersRaw {
    file: String,
    task: Task,
    entries: Vec<AnswerEntry>,
    warnings: Vec<Warning>,
}

impl From<AnswersRaw> for Answers {
    fn from(raw: AnswersRaw) -> Self {
        let index = build_index(&raw.entries, |e| &e.id);
        Self {
            file: raw.file,
            task: raw.task,
            entries: raw.entries,
            warnings: raw.warnings,
            index,
        }
    }
}

/// [`RegularScores`] as serialized; the id index is rebuilt on deserialization.
#[derive(Deserialize)]
struct RegularScoresRaw {
    file: String,
    task: Task,
    entries: Vec<RegularEntry>,
    warnings: Vec<Warning>,
}

impl From<RegularScoresRaw> for RegularScores {
    fn from(raw: RegularScoresRaw) -> Self {
        let index = build_index(&raw.entries, |e| &e.id);
        Self {
            file: raw.file,
            task: raw.task,
            entries: raw.entries,
            warnings: raw.warnings,
            index,
        }
    }
}

/// [`ReasoningScores`] as serialized; the id index is rebuilt on deserialization.
#[derive(Deserialize)]
struct ReasoningScoresRaw {
    file: String,
    task: Task,
    entries: Vec<ReasoningEntry>,
    warnings: Vec<Warning>,
}

impl From<ReasoningScoresRaw> for ReasoningScores {
    fn from(raw: ReasoningScoresRaw) -> Self {
        let index = build_index(&raw.entries, |e| &e.id);
        Self {
            file: raw.file,
            task: raw.task,
            entries: raw.entries,
            warnings: raw.warnings,
            index,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regular_ria_scores_and_warnings() {
        let text = br#"{
            "q1": {"score_judge": "4", "score_reason": "matches"},
            "q2": {"score_judge": " 2 "},
            "q3": {"score_judge": "3.5"},
            "q4": {"score_judge": "7"},
            "q5": {"score_reason": "no score"},
            "q6": {"error": "Invalid or error MLLM output"},
            "q7": {"score_4o": 1},
            "q8": {"score_judge": 3.0}
        }"#;
        let r = RegularScores::parse("m_RIA_regular_scoring.json", text).unwrap();
        assert_eq!(r.task, Task::Ria);
        let scores: Vec<Option<u8>> = r.entries.iter().map(|e| e.verdicts[0].score).collect();
        assert_eq!(
            scores,
            [Some(4), Some(2), None, None, None, None, Some(1), Some(3)]
        );
        assert_eq!(
            r.get("q1").unwrap().verdicts[0].reason.as_deref(),
            Some("matches")
        );
        assert_eq!(r.warnings.len(), 4);
        assert_eq!(
            r.warnings[0].to_string(),
            "m_RIA_regular_scoring.json: field \"q3.score_judge\": expected an integer score 0-4, \
             found the string \"3.5\"; counted as 0"
        );
        assert_eq!(r.get("q4").unwrap().verdicts[0].found.as_deref(), Some("7"));
        assert!(
            r.warnings[3].message.contains("judge error"),
            "{}",
            r.warnings[3]
        );
    }

    #[test]
    fn regular_ica_and_plain_scores() {
        let text =
            br#"{"i1": [{"score_judge": "1"}, {"score_judge": "2"}, null, {"score_judge": "4"}],
                         "i2": [3, "2", 0]}"#;
        let r = RegularScores::parse("j.json", text).unwrap();
        assert_eq!(r.task, Task::Ica);
        let i1: Vec<u8> = r
            .get("i1")
            .unwrap()
            .verdicts
            .iter()
            .map(Verdict::counted)
            .collect();
        assert_eq!(i1, [1, 2, 0, 4]);
        let i2: Vec<Option<u8>> = r
            .get("i2")
            .unwrap()
            .verdicts
            .iter()
            .map(|v| v.score)
            .collect();
        assert_eq!(i2, [Some(3), Some(2), Some(0)]);
        // null rotation and the 3-element list are reported.
        assert_eq!(r.warnings.len(), 2, "{:?}", r.warnings);
        assert_eq!(r.warnings[0].field.as_deref(), Some("i1[2]"));
    }

    #[test]
    fn not_an_object_is_an_error() {
        let err = RegularScores::parse("j.json", b"[1, 2]").unwrap_err();
        assert_eq!(
            err.to_string(),
            "j.json: expected a JSON object keyed by item id, found an array of 2 elements"
        );
        assert!(matches!(
            Answers::parse("a.json", b"{}"),
            Err(MmoperaError::Empty { .. })
        ));
    }

    #[test]
    fn json_round_trip_rebuilds_the_index() {
        let r = RegularScores::parse("j.json", br#"{"a": 1, "b": [2]}"#).unwrap();
        let back: RegularScores =
            serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
        assert_eq!(back, r);
        assert_eq!(back.get("a").unwrap().verdicts[0].score, Some(1));
        let a = Answers::parse("a.json", br#"{"q": "t"}"#).unwrap();
        let back: Answers = serde_json::from_str(&serde_json::to_string(&a).unwrap()).unwrap();
        assert!(back.get("q").is_some());
        let x = ReasoningScores::parse("x.json", br#"{"q": {"hop_quality": {}}}"#).unwrap();
        let back: ReasoningScores =
            serde_json::from_str(&serde_json::to_string(&x).unwrap()).unwrap();
        assert!(back.get("q").is_some());
    }

    #[test]
    fn duplicate_ids_keep_last_value_first_position() {
        let r = RegularScores::parse("j.json", br#"{"a": 1, "b": 2, "a": 3}"#).unwrap();
        let ids: Vec<&str> = r.entries.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["a", "b"]);
        assert_eq!(r.get("a").unwrap().verdicts[0].score, Some(3));
        assert_eq!(r.warnings.len(), 1);
    }

    #[test]
    fn reasoning_keeps_hop_order_and_reports_bad_hops() {
        let text = r#"{"q1": {"path": "Z → Y → A", "hop_quality": {
                "Z → Y": [0.9, 0.8, 1], "Y → A": [1.2, "0.5", 0.7], "A → B": [1, 1]},
              "explanation": "e"},
              "q2": {"error": "Judge model returned no content."}}"#;
        let r = ReasoningScores::parse("m_RIA_reasoning_scoring.json", text.as_bytes()).unwrap();
        assert_eq!(r.task, Task::Ria);
        let j = r.get("q1").unwrap().rotations[0].as_ref().unwrap();
        let p = &j.paths[0];
        assert_eq!(p.key, "hop_quality");
        assert_eq!(p.path.as_deref(), Some("Z → Y → A"));
        let names: Vec<&str> = p.hops.iter().map(|h| h.name.as_str()).collect();
        assert_eq!(names, ["Z → Y", "Y → A"]); // file order, not sorted
        assert_eq!(p.hops[1].d, 0.5);
        assert_eq!(p.invalid_hops, 1);
        // R = 1.2 clamped, K = 0.7 rounded, [1, 1] left out, q2 has no hop_quality.
        assert_eq!(r.warnings.len(), 4, "{:?}", r.warnings);
        let q2 = r.get("q2").unwrap().rotations[0].as_ref().unwrap();
        assert!(q2.paths.is_empty());
        assert!(q2.error.as_deref().unwrap().contains("judge error"));
    }

    #[test]
    fn reasoning_ica_paths() {
        let text = r#"{"i1": [{"path1": "A → B", "path2": "C → D",
            "hop_quality_path1": {"A → B": [1, 1, 1]}, "hop_quality_path2": {}}, null]}"#;
        let r = ReasoningScores::parse("m_ICA_reasoning_scoring.json", text.as_bytes()).unwrap();
        assert_eq!(r.task, Task::Ica);
        let e = r.get("i1").unwrap();
        assert_eq!(e.rotations.len(), 2);
        let j = e.rotations[0].as_ref().unwrap();
        assert_eq!(j.paths.len(), 2);
        assert_eq!(j.paths[1].path.as_deref(), Some("C → D"));
        assert!(j.paths[1].hops.is_empty());
        assert!(e.rotations[1].is_none());
    }
}
