//! Building reviewable result sets from loaded files.
//!
//! Files are told apart with [`crate::leaderboard::detect`]. Each MM-OPERA judge file
//! (holistic `_regular_scoring.json` or plain re-scores, process `_reasoning_scoring.json`)
//! becomes a set, joined with the metadata file sharing most of its ids (relation,
//! explanation, reference path, image descriptions) and the answers file of the same model
//! and task. Each MM-IQ predictions file becomes a set with the answer key; each KiVA run CSV
//! one set (a row per regeneration and stage; stage 2 left out where it was skipped).

use std::collections::HashSet;

use super::{Judge, JudgeHop, ReviewItem, ReviewSet, SetKind};
use crate::kiva::{self, Outcome, RunFile, Stage};
use crate::leaderboard::{self, mmopera::model_of, FileKind};
use crate::mmiq::{self, AnswerKey, Predictions};
use crate::mmopera::detect::{detect as opera_detect, FileKind as OperaKind};
use crate::mmopera::files::{Answers, ReasoningScores, RegularScores};
use crate::mmopera::metadata::{ItemMeta, Metadata};
use crate::mmopera::Task;

/// What [`build_sets`] made of the files.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Loaded {
    /// The reviewable sets, in file order.
    pub sets: Vec<ReviewSet>,
    /// Files that could not be read, as located messages (file, line, field).
    pub errors: Vec<String>,
    /// Files read but not reviewable on their own (metadata, answers, keys), or not recognised,
    /// as (file, what it was used as).
    pub notes: Vec<(String, String)>,
}

/// Builds the reviewable sets from `(file name, bytes)` pairs. Never fails as a whole: a
/// file that cannot be read is reported in [`Loaded::errors`] and the others are used.
///
/// # Examples
/// ```
/// use coglab_core::review::{build_sets, SetKind};
/// let files = vec![
///     ("m_RIA_regular_scoring.json".to_string(),
///      br#"{"q1": {"score_judge": "3", "score_reason": "fine"}}"#.to_vec()),
/// ];
/// let loaded = build_sets(&files);
/// assert_eq!(loaded.sets[0].kind, SetKind::Holistic);
/// assert_eq!(loaded.sets[0].items[0].key, "q1");
/// ```
pub fn build_sets(files: &[(String, Vec<u8>)]) -> Loaded {
    let mut out = Loaded::default();
    let mut metadata: Vec<(Option<Task>, Metadata)> = Vec::new();
    let mut answers: Vec<Answers> = Vec::new();
    let mut regular: Vec<RegularScores> = Vec::new();
    let mut reasoning: Vec<ReasoningScores> = Vec::new();
    let mut keys: Vec<AnswerKey> = Vec::new();
    let mut predictions: Vec<(String, Vec<u8>)> = Vec::new();

    for (name, bytes) in files {
        if let Some(what) = leaderboard::not_text(bytes) {
            // UTF-16/UTF-32 text: named, rather than left as a file of no known format.
            out.errors.push(
                crate::encoding::NotTextError {
                    file: name.clone(),
                    what,
                }
                .to_string(),
            );
            continue;
        }
        match leaderboard::detect(name, bytes) {
            FileKind::Mmopera => {
                let detected = match opera_detect(name, bytes) {
                    Ok(d) => d,
                    Err(e) => {
                        out.errors.push(e.to_string());
                        continue;
                    }
                };
                let result = match detected.kind {
                    OperaKind::Metadata => {
                        Metadata::parse(name, bytes).map(|m| metadata.push((detected.task, m)))
                    }
                    OperaKind::Answers => Answers::parse(name, bytes).map(|a| answers.push(a)),
                    OperaKind::RegularScoring | OperaKind::Scores => {
                        RegularScores::parse(name, bytes).map(|r| regular.push(r))
                    }
                    OperaKind::ReasoningScoring => {
                        ReasoningScores::parse(name, bytes).map(|r| reasoning.push(r))
                    }
                };
                if let Err(e) = result {
                    out.errors.push(e.to_string());
                }
            }
            FileKind::MmiqKey => match AnswerKey::parse_bytes(name, bytes) {
                Ok(k) => keys.push(k),
                Err(e) => out.errors.push(e.to_string()),
            },
            FileKind::MmiqPredictions | FileKind::MmiqTable => {
                predictions.push((name.clone(), bytes.clone()));
            }
            FileKind::KivaRun => match kiva_set(name, bytes) {
                Ok(set) => out.sets.push(set),
                Err(e) => out.errors.push(e),
            },
            other => out.notes.push((
                name.clone(),
                format!("{}: not reviewable here", other.label()),
            )),
        }
    }

    for judge in &regular {
        let meta = best_metadata(&metadata, judge.task, judge.entries.iter().map(|e| &e.id));
        let ans = matching_answers(&answers, &judge.file, judge.task);
        out.sets.push(holistic_set(judge, meta, ans));
    }
    for judge in &reasoning {
        let meta = best_metadata(&metadata, judge.task, judge.entries.iter().map(|e| &e.id));
        let ans = matching_answers(&answers, &judge.file, judge.task);
        out.sets.push(process_set(judge, meta, ans));
    }
    for (_, m) in &metadata {
        out.notes
            .push((m.file.clone(), "MM-OPERA metadata (question data)".into()));
    }
    for a in &answers {
        out.notes
            .push((a.file.clone(), "MM-OPERA model answers".into()));
    }
    for k in &keys {
        out.notes.push((k.file.clone(), "MM-IQ answer key".into()));
    }
    for (name, bytes) in &predictions {
        let Some(key) = keys.first() else {
            out.errors.push(format!(
                "{name}: MM-IQ predictions need the answer key \
                 (MMIQ_benchmark_answer_dict.jsonl); load it too"
            ));
            continue;
        };
        match mmiq_set(key, name, bytes) {
            Ok(set) => out.sets.push(set),
            Err(e) => out.errors.push(e),
        }
    }
    // Names must be unique: the workspace remembers the set by name.
    let mut seen = HashSet::new();
    for set in &mut out.sets {
        let base = set.name.clone();
        let mut n = 2;
        while !seen.insert(set.name.clone()) {
            set.name = format!("{base} ({n})");
            n += 1;
        }
    }
    out
}

/// The metadata file that shares most ids with the judge file (ties: one whose name shows the
/// same task).
fn best_metadata<'a, 'b>(
    metadata: &'a [(Option<Task>, Metadata)],
    task: Task,
    ids: impl Iterator<Item = &'b String> + Clone,
) -> Option<&'a Metadata> {
    metadata
        .iter()
        .map(|(t, m)| {
            let shared = ids.clone().filter(|id| m.get(id).is_some()).count();
            (shared, *t == Some(task), m)
        })
        .filter(|(shared, _, _)| *shared > 0)
        .max_by_key(|(shared, same_task, _)| (*shared, *same_task))
        .map(|(_, _, m)| m)
}

fn matching_answers<'a>(
    answers: &'a [Answers],
    judge_file: &str,
    task: Task,
) -> Option<&'a Answers> {
    let model = model_of(judge_file);
    answers
        .iter()
        .find(|a| a.task == task && model_of(&a.file) == model)
}

fn base_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

const OPERA_FIELDS: [&str; 5] = ["domain", "type", "culture", "language", "hop_count"];

fn opera_strata(meta: Option<&ItemMeta>) -> Vec<(String, String)> {
    let Some(m) = meta else {
        return Vec::new();
    };
    vec![
        ("domain".into(), m.domain.clone()),
        ("type".into(), m.kind.clone()),
        ("culture".into(), m.culture.clone()),
        ("language".into(), m.language.clone()),
        ("hop_count".into(), m.hop_count.clone()),
    ]
}

fn opera_context(
    meta: Option<&ItemMeta>,
    task: Task,
    rotation: Option<usize>,
) -> Vec<(String, String)> {
    let mut ctx = Vec::new();
    if let Some(r) = rotation {
        ctx.push((
            "Rotation".to_string(),
            format!("{} of {}", r + 1, task.rotations()),
        ));
    }
    let Some(m) = meta else {
        ctx.push((
            "Question data".to_string(),
            "not available: load the dataset's metadata file to see the relation, \
             explanation and reference path"
                .to_string(),
        ));
        return ctx;
    };
    if let Some(v) = &m.relation {
        ctx.push(("Relation".into(), v.clone()));
    }
    if let Some(v) = &m.explanation {
        ctx.push(("Explanation".into(), v.clone()));
    }
    if let Some(v) = &m.reasoning {
        ctx.push(("Reference path".into(), v.clone()));
    }
    for (i, d) in m.descriptions.iter().enumerate() {
        ctx.push((format!("Image {} description", i + 1), d.clone()));
    }
    ctx
}

fn answer_text(answers: Option<&Answers>, id: &str, rotation: usize) -> Option<String> {
    answers?.get(id)?.texts.get(rotation).cloned().flatten()
}

fn set_name(file: &str, benchmark: &str, what: &str) -> String {
    let model = model_of(file);
    format!("{model} · {benchmark} {what} · {}", base_name(file))
}

fn files_of(judge: &str, meta: Option<&Metadata>, ans: Option<&Answers>) -> Vec<String> {
    let mut files = vec![judge.to_string()];
    files.extend(meta.map(|m| m.file.clone()));
    files.extend(ans.map(|a| a.file.clone()));
    files
}

fn holistic_set(
    judge: &RegularScores,
    meta: Option<&Metadata>,
    ans: Option<&Answers>,
) -> ReviewSet {
    let benchmark = format!("MM-OPERA {}", judge.task.name());
    let mut items = Vec::new();
    for entry in &judge.entries {
        let m = meta.and_then(|m| m.get(&entry.id));
        let rotated = judge.task == Task::Ica || entry.verdicts.len() > 1;
        for (r, verdict) in entry.verdicts.iter().enumerate() {
            let key = if rotated {
                format!("{}#{}", entry.id, r + 1)
            } else {
                entry.id.clone()
            };
            items.push(ReviewItem {
                key,
                id: entry.id.clone(),
                strata: opera_strata(m),
                context: opera_context(m, judge.task, rotated.then_some(r)),
                answer: answer_text(ans, &entry.id, r),
                judge: Judge::Holistic {
                    score: verdict.score,
                    reason: match (&verdict.reason, verdict.score, &verdict.found) {
                        (Some(reason), _, _) => Some(reason.clone()),
                        (None, None, Some(found)) => Some(format!("unusable verdict: {found}")),
                        _ => None,
                    },
                },
            });
        }
    }
    ReviewSet {
        name: set_name(&judge.file, &benchmark, "holistic"),
        benchmark,
        kind: SetKind::Holistic,
        files: files_of(&judge.file, meta, ans),
        fields: if meta.is_some() {
            OPERA_FIELDS.iter().map(|f| f.to_string()).collect()
        } else {
            Vec::new()
        },
        items,
    }
}

fn process_set(
    judge: &ReasoningScores,
    meta: Option<&Metadata>,
    ans: Option<&Answers>,
) -> ReviewSet {
    let benchmark = format!("MM-OPERA {}", judge.task.name());
    let mut items = Vec::new();
    for entry in &judge.entries {
        let m = meta.and_then(|m| m.get(&entry.id));
        let rotated = judge.task == Task::Ica || entry.rotations.len() > 1;
        for (r, rotation) in entry.rotations.iter().enumerate() {
            let key = if rotated {
                format!("{}#{}", entry.id, r + 1)
            } else {
                entry.id.clone()
            };
            let (path, hops, explanation) = match rotation {
                None => (
                    None,
                    Vec::new(),
                    Some("no judgement for this rotation".to_string()),
                ),
                Some(j) => {
                    let several = j.paths.len() > 1;
                    let mut hops = Vec::new();
                    let mut paths = Vec::new();
                    for p in &j.paths {
                        if let Some(text) = p.path.as_deref().filter(|t| !t.is_empty()) {
                            paths.push(if several {
                                format!("{}: {text}", p.key)
                            } else {
                                text.to_string()
                            });
                        }
                        for h in &p.hops {
                            hops.push(JudgeHop {
                                name: if several {
                                    format!("{}: {}", p.key, h.name)
                                } else {
                                    h.name.clone()
                                },
                                r: h.r,
                                d: h.d,
                                k: h.k,
                            });
                        }
                    }
                    let explanation = match (&j.error, &j.explanation) {
                        (Some(e), _) => Some(format!("judge error: {e}")),
                        (None, e) => e.clone(),
                    };
                    let path = (!paths.is_empty()).then(|| paths.join("; "));
                    (path, hops, explanation)
                }
            };
            items.push(ReviewItem {
                key,
                id: entry.id.clone(),
                strata: opera_strata(m),
                context: opera_context(m, judge.task, rotated.then_some(r)),
                answer: answer_text(ans, &entry.id, r),
                judge: Judge::Process {
                    path,
                    hops,
                    explanation,
                },
            });
        }
    }
    ReviewSet {
        name: set_name(&judge.file, &benchmark, "process"),
        benchmark,
        kind: SetKind::Process,
        files: files_of(&judge.file, meta, ans),
        fields: if meta.is_some() {
            OPERA_FIELDS.iter().map(|f| f.to_string()).collect()
        } else {
            Vec::new()
        },
        items,
    }
}

fn mmiq_set(key: &AnswerKey, name: &str, bytes: &[u8]) -> Result<ReviewSet, String> {
    let preds = Predictions::parse(name, bytes).map_err(|e| e.to_string())?;
    let report = mmiq::score(key, &preds).map_err(|e| e.to_string())?;
    let items = report
        .items
        .iter()
        .map(|it| ReviewItem {
            key: it.data_id.to_string(),
            id: it.data_id.to_string(),
            strata: vec![("category".into(), it.category.clone())],
            context: vec![
                ("Category".into(), it.category.clone()),
                ("Key".into(), it.key.to_string()),
                ("Extracted answer".into(), it.parsed.to_string()),
                ("Line".into(), it.line.to_string()),
            ],
            answer: it.response.clone().or_else(|| Some(it.parsed.to_string())),
            judge: Judge::Binary {
                correct: it.correct,
                reason: format!("extracted {}, key {}", it.parsed, it.key),
            },
        })
        .collect();
    Ok(ReviewSet {
        name: format!(
            "{} · MM-IQ · {}",
            leaderboard::guess_model(name),
            base_name(name)
        ),
        benchmark: "MM-IQ".into(),
        kind: SetKind::Binary,
        files: vec![name.to_string(), key.file.clone()],
        fields: vec!["category".into()],
        items,
    })
}

const KIVA_CONTEXT: [(&str, &str); 6] = [
    ("Train_input", "Train input"),
    ("Train_output", "Train output"),
    ("Test_input", "Test input"),
    ("Test_output", "Test output (right)"),
    ("Test_wrong1", "Wrong option 1"),
    ("Test_wrong2", "Wrong option 2"),
];

fn kiva_set(name: &str, bytes: &[u8]) -> Result<ReviewSet, String> {
    let run = RunFile::parse(name, bytes).map_err(|e| e.to_string())?;
    let csv = kiva::Csv::parse(name, bytes, "a KiVA run").map_err(|e| e.to_string())?;
    let context_cols: Vec<(usize, &str)> = KIVA_CONTEXT
        .iter()
        .filter_map(|(col, label)| csv.column(col).map(|c| (c, *label)))
        .collect();
    let full_cols: Vec<Option<usize>> = (1..=3).map(|k| csv.column(&format!("Full#{k}"))).collect();
    let mut items = Vec::new();
    for (row, (line, record)) in run.rows.iter().zip(&csv.rows) {
        for (s, stage) in Stage::ALL.iter().enumerate() {
            let outcome = row.outcomes[s];
            let Some(score) = outcome.score(*stage) else {
                continue;
            };
            let stage_name = match stage {
                Stage::Cross => "1 (what changed)",
                Stage::Within => "2 (how it changed)",
                Stage::Extrapolation => "3 (apply the rule)",
            };
            let mut context = vec![
                ("Subdomain".to_string(), run.subdomain.clone()),
                ("Stage".to_string(), stage_name.to_string()),
                (
                    "Trial".to_string(),
                    format!(
                        "variation {}, regeneration {}",
                        row.variation, row.regeneration
                    ),
                ),
            ];
            for (c, label) in &context_cols {
                if let Some(v) = record.get(*c).filter(|v| !v.trim().is_empty()) {
                    context.push((label.to_string(), v.to_string()));
                }
            }
            let outcome_name = match outcome {
                Outcome::Correct => "right (1)",
                Outcome::Wrong => "wrong (0)",
                Outcome::Null => "no option named (Null, wrong)",
                Outcome::Empty => "empty (wrong)",
            };
            items.push(ReviewItem {
                key: format!("v{}r{}s{}", row.variation, row.regeneration, s + 1),
                id: format!("{}/{}", run.subdomain, row.variation),
                strata: vec![
                    ("stage".into(), (s + 1).to_string()),
                    ("variation".into(), row.variation.to_string()),
                ],
                context,
                answer: full_cols[s]
                    .and_then(|c| record.get(c))
                    .map(|t| t.trim().to_string())
                    .filter(|t| !t.is_empty()),
                judge: Judge::Binary {
                    correct: score >= 1.0,
                    reason: format!("repository score: {outcome_name} (line {line})"),
                },
            });
        }
    }
    Ok(ReviewSet {
        name: format!(
            "{} · KiVA {} · {}",
            leaderboard::guess_model(name),
            run.subdomain,
            base_name(name)
        ),
        benchmark: "KiVA".into(),
        kind: SetKind::Binary,
        files: vec![name.to_string()],
        fields: vec!["stage".into(), "variation".into()],
        items,
    })
}
