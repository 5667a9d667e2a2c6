//! Tells the MM-OPERA files apart from file name and content: dataset metadata, model
//! answers, holistic (regular) judge scores, process-reward (reasoning) judge scores and plain
//! re-score files, and RIA from ICA.
//!
//! The content decides; the released file names (`<model>_RIA_results.json`,
//! `_regular_scoring.json`, `_reasoning_scoring.json`) only settle what the content leaves
//! open (e.g. a file whose entries are all judge errors, or the task of a metadata file).

use serde::{Deserialize, Serialize};

use super::json::{self, Node};
use super::{MmoperaError, Task};

/// What kind of MM-OPERA file this is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum FileKind {
    /// Dataset metadata (JSON array / object of records, JSONL or CSV).
    Metadata,
    /// Model answers `{id: text}` / `{id: [texts]}`.
    Answers,
    /// Holistic judge output `{id: {"score_judge": ..}}` / `{id: [..]}`.
    RegularScoring,
    /// Process-reward judge output `{id: {"hop_quality": ..}}` / `{id: [..]}`.
    ReasoningScoring,
    /// Plain scores `{id: score}` / `{id: [scores]}` (e.g. a human re-score).
    Scores,
}

/// The result of [`detect`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Detected {
    /// The kind of file.
    pub kind: FileKind,
    /// RIA or ICA, when the file shows it (metadata only through its name).
    pub task: Option<Task>,
}

/// Detects the kind of an MM-OPERA file.
///
/// # Errors
/// [`MmoperaError::Json`] for a file that starts like JSON but is not,
/// [`MmoperaError::UnknownFormat`] when the content matches no MM-OPERA format.
///
/// # Examples
/// ```
/// use coglab_core::mmopera::detect::{detect, FileKind};
/// use coglab_core::mmopera::Task;
/// let d = detect("x.json", br#"{"i1": [{"score_judge": "2", "score_reason": "r"}]}"#).unwrap();
/// assert_eq!((d.kind, d.task), (FileKind::RegularScoring, Some(Task::Ica)));
/// let d = detect("gpt-4o_RIA_results.json", br#"{"q1": "Both protect."}"#).unwrap();
/// assert_eq!((d.kind, d.task), (FileKind::Answers, Some(Task::Ria)));
/// ```
pub fn detect(file: &str, bytes: &[u8]) -> Result<Detected, MmoperaError> {
    let name = file.to_ascii_lowercase();
    let name_task = if name.contains("_ica") || name.starts_with("ica") {
        Some(Task::Ica)
    } else if name.contains("_ria") || name.starts_with("ria") {
        Some(Task::Ria)
    } else {
        None
    };
    let name_kind = if name.contains("reasoning_scoring") {
        Some(FileKind::ReasoningScoring)
    } else if name.contains("regular_scoring") {
        Some(FileKind::RegularScoring)
    } else if name.contains("_results") {
        Some(FileKind::Answers)
    } else {
        None
    };
    let text = json::text(file, bytes)?;
    let trimmed = text.trim_start();
    let metadata = Detected {
        kind: FileKind::Metadata,
        task: name_task,
    };
    if trimmed.starts_with('[') {
        json::parse_at(file, text, 1)?;
        return Ok(metadata);
    }
    if !trimmed.starts_with('{') {
        let header = trimmed.lines().next().unwrap_or("").to_ascii_lowercase();
        if header
            .split(',')
            .any(|h| h.trim().trim_matches('"') == "id")
        {
            return Ok(metadata);
        }
        return Err(MmoperaError::UnknownFormat {
            file: file.to_owned(),
            found: "text that is neither JSON nor CSV with an id column".into(),
        });
    }
    let node = match json::parse_at(file, text, 1) {
        Ok(node) => node,
        Err(e) => {
            // Several JSON records, one per line.
            let first = trimmed.lines().next().unwrap_or("");
            return match serde_json::from_str::<Node>(first) {
                Ok(Node::Object(_)) => Ok(metadata),
                _ => Err(e),
            };
        }
    };
    if node.get("id").is_some_and(|v| v.as_text().is_some()) {
        return Ok(metadata);
    }
    let Node::Object(pairs) = &node else {
        return Err(MmoperaError::UnknownFormat {
            file: file.to_owned(),
            found: node.describe(),
        });
    };
    let mut numeric_strings = true;
    let mut decided: Option<(FileKind, Task)> = None;
    let mut saw_text = false;
    for (_, value) in pairs {
        let (task, inner): (Task, Vec<&Node>) = match value {
            Node::Array(items) => (Task::Ica, items.iter().collect()),
            other => (Task::Ria, vec![other]),
        };
        for v in inner {
            match classify(v) {
                Class::Skip => {}
                Class::Number => {
                    decided.get_or_insert((FileKind::Scores, task));
                }
                Class::Text(numeric) => {
                    saw_text = true;
                    numeric_strings &= numeric;
                    decided.get_or_insert((FileKind::Scores, task));
                }
                Class::Kind(kind) => {
                    if decided.is_none_or(|(k, _)| k == FileKind::Scores) {
                        decided = Some((kind, task));
                    }
                }
            }
        }
        if matches!(decided, Some((k, _)) if k != FileKind::Scores) {
            break;
        }
    }
    let decided = decided.map(|(kind, task)| {
        if kind == FileKind::Scores && saw_text && !numeric_strings {
            (FileKind::Answers, task)
        } else {
            (kind, task)
        }
    });
    match (decided, name_kind) {
        (Some((FileKind::Metadata, _)), _) => Ok(metadata),
        (Some((kind, task)), _) => Ok(Detected {
            kind,
            task: Some(task),
        }),
        (None, Some(kind)) => Ok(Detected {
            kind,
            task: name_task,
        }),
        (None, None) => Err(MmoperaError::UnknownFormat {
            file: file.to_owned(),
            found: format!(
                "{} whose entries show no score, answer or hop_quality",
                node.describe()
            ),
        }),
    }
}

enum Class {
    /// Null or a judge error entry: says nothing.
    Skip,
    /// A plain number.
    Number,
    /// A string; whether it holds an integer.
    Text(bool),
    /// An object that shows the kind.
    Kind(FileKind),
}

fn classify(node: &Node) -> Class {
    match node {
        Node::Number { .. } => Class::Number,
        Node::Str(s) => Class::Text(s.trim().parse::<i64>().is_ok()),
        Node::Object(pairs) => {
            let has = |k: &str| pairs.iter().any(|(key, _)| key == k);
            if pairs.iter().any(|(k, _)| k.starts_with("hop_quality")) {
                Class::Kind(FileKind::ReasoningScoring)
            } else if has("score_judge") || has("score_4o") || has("score_reason") {
                Class::Kind(FileKind::RegularScoring)
            } else if has("domain") || has("hop_count") || has("perception") || has("conception") {
                Class::Kind(FileKind::Metadata)
            } else {
                Class::Skip
            }
        }
        _ => Class::Skip,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(file: &str, text: &str) -> (FileKind, Option<Task>) {
        let d = detect(file, text.as_bytes()).unwrap();
        (d.kind, d.task)
    }

    #[test]
    fn tells_every_format_apart() {
        use FileKind::*;
        assert_eq!(kind("meta.json", r#"[{"id": "a"}]"#), (Metadata, None));
        assert_eq!(
            kind("ria_meta.jsonl", "{\"id\": \"a\"}\n{\"id\": \"b\"}\n"),
            (Metadata, Some(Task::Ria))
        );
        assert_eq!(kind("m.jsonl", "{\"id\": \"a\"}\n"), (Metadata, None));
        assert_eq!(kind("meta.csv", "id,domain\na,Art\n"), (Metadata, None));
        assert_eq!(
            kind("m.json", r#"{"a": {"domain": "Art", "hop_count": 2}}"#),
            (Metadata, None)
        );
        assert_eq!(
            kind("x.json", r#"{"q1": "It is a pun."}"#),
            (Answers, Some(Task::Ria))
        );
        assert_eq!(
            kind("x.json", r#"{"q1": ["a", "b", "c", "d"]}"#),
            (Answers, Some(Task::Ica))
        );
        assert_eq!(
            kind(
                "x.json",
                r#"{"q1": {"error": "x"}, "q2": {"score_judge": "1"}}"#
            ),
            (RegularScoring, Some(Task::Ria))
        );
        assert_eq!(
            kind("x.json", r#"{"q1": {"path": "a", "hop_quality": {}}}"#),
            (ReasoningScoring, Some(Task::Ria))
        );
        assert_eq!(
            kind(
                "x.json",
                r#"{"q1": [null, {"hop_quality_path1": {}, "hop_quality_path2": {}}]}"#
            ),
            (ReasoningScoring, Some(Task::Ica))
        );
        assert_eq!(
            kind("h.json", r#"{"q1": 3, "q2": "4"}"#),
            (Scores, Some(Task::Ria))
        );
        assert_eq!(
            kind("h.json", r#"{"q1": [3, 2, 4, 4]}"#),
            (Scores, Some(Task::Ica))
        );
        // "3" then text: answers.
        assert_eq!(
            kind("x.json", r#"{"q1": "3", "q2": "A pun on bat."}"#),
            (Answers, Some(Task::Ria))
        );
    }

    #[test]
    fn name_settles_what_content_leaves_open() {
        assert_eq!(
            kind(
                "gpt_ICA_reasoning_scoring.json",
                r#"{"q1": {"error": "no content"}}"#
            ),
            (FileKind::ReasoningScoring, Some(Task::Ica))
        );
        let err = detect("x.json", br#"{"q1": {"error": "no content"}}"#).unwrap_err();
        assert!(matches!(err, MmoperaError::UnknownFormat { .. }), "{err}");
        let err = detect("notes.txt", b"hello world").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("notes.txt: expected an MM-OPERA"),
            "{err}"
        );
        assert!(matches!(
            detect("bad.json", b"{\"q1\": [1, 2"),
            Err(MmoperaError::Json { .. })
        ));
    }
}
