//! Gold on the leaderboard: a dropped score matrix (models × tasks as CSV/TSV, a JSON list of
//! `{"name", "benchmarks"}` records, or the OpenVLM leaderboard JSON) scored with Gold's
//! loading-weighted PLS-SEM scores: each task assigned to a layer (Perception, Memory,
//! Reasoning; Gold's Table 2 assignment when the task names match), the layers feeding one
//! `Overall` construct, fitted with [`crate::sem::analyze_parsed`] as `coglab sem` does, and
//! the per-model overall, layer scores and plain mean from [`crate::sem::suite::rank_changes`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::sem::analysis::{OutOfRange, Scale, SemOptions};
use crate::sem::data::ScoreMatrix;
use crate::sem::engine::Mode;
use crate::sem::spec::ModelSpec;
use crate::sem::suite::{
    gold_table2_draft, rank_changes, DraftConstruct, Preset, RankRow, SpecDraft,
};

/// The layers a task can be assigned to, in Gold's order.
pub const LAYERS: [&str; 3] = ["Perception", "Memory", "Reasoning"];

/// Whether a file is a score matrix for the Gold analysis: a CSV/TSV without the columns of
/// a VLMEvalKit prediction table (`prediction`, `answer`) or a JSON list with `benchmarks` /
/// an OpenVLM JSON with `results`, that [`ScoreMatrix::parse`] reads with at least two
/// numeric columns and two models.
///
/// # Examples
/// ```
/// use coglab_core::leaderboard::gold::is_score_matrix;
/// assert!(is_score_matrix("m.csv", b"model,Color,Count\nA,1,2\nB,3,4\n"));
/// assert!(!is_score_matrix("p.csv", b"index,question,answer,prediction\n1,q,A,B\n"));
/// assert!(is_score_matrix("m.json", br#"[{"name": "A", "benchmarks": {"x": 1, "y": 2}},
///                                       {"name": "B", "benchmarks": {"x": 3, "y": 5}}]"#));
/// ```
pub fn is_score_matrix(path: &str, bytes: &[u8]) -> bool {
    let lower = path.to_ascii_lowercase();
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]).to_ascii_lowercase();
    let start = head.trim_start_matches('\u{feff}').trim_start();
    let json = start.starts_with('[') || start.starts_with('{');
    if json {
        if !(lower.ends_with(".json")
            && (head.contains("\"benchmarks\"") || head.contains("\"results\"")))
        {
            return false;
        }
    } else {
        if !(lower.ends_with(".csv") || lower.ends_with(".tsv") || lower.ends_with(".txt")) {
            return false;
        }
        let header = start.lines().next().unwrap_or("");
        let cols: Vec<&str> = header
            .split([',', '\t', ';'])
            .map(|c| c.trim().trim_matches('"'))
            .collect();
        if [
            "prediction",
            "answer",
            "variation",
            "split",
            "participantid",
            "id",
        ]
        .iter()
        .any(|c| cols.contains(c))
        {
            return false;
        }
    }
    ScoreMatrix::parse(bytes, path).is_ok_and(|m| {
        m.models.len() >= 2 && m.columns.iter().filter(|c| c.is_numeric()).count() >= 2
    })
}

/// A score matrix as the page needs it: its models and numeric task columns (the numbers stay
/// with the scorer: [`GoldRow::data`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GoldMatrix {
    /// The file name.
    pub file: String,
    /// Model names.
    pub models: Vec<String>,
    /// Numeric columns (tasks), in file order.
    pub tasks: Vec<String>,
}

impl GoldMatrix {
    /// The summary of a parsed matrix.
    pub fn of(m: &ScoreMatrix) -> Self {
        Self {
            file: m.file.clone(),
            models: m.models.clone(),
            tasks: m
                .columns
                .iter()
                .filter(|c| c.is_numeric())
                .map(|c| c.name.clone())
                .collect(),
        }
    }
}

/// Gold's Table 2 assignment of the tasks the matrix has, when it has every Table 2 task;
/// else `None` (the user assigns).
///
/// # Examples
/// ```
/// use coglab_core::leaderboard::gold::table2_assignment;
/// let t: Vec<String> = ["Color", "Count", "OCR", "Artwork", "Landmark", "BMK", "Biology", "CS",
///     "Economics", "Electronics", "Math"].map(String::from).to_vec();
/// assert_eq!(table2_assignment(&t).unwrap()["OCR"], "Perception");
/// assert!(table2_assignment(&t[..5]).is_none());
/// ```
pub fn table2_assignment(tasks: &[String]) -> Option<BTreeMap<String, String>> {
    let draft = gold_table2_draft();
    let mut out = BTreeMap::new();
    for c in &draft.constructs {
        for t in &c.indicators {
            if !tasks.contains(t) {
                return None;
            }
            out.insert(t.clone(), c.name.clone());
        }
    }
    Some(out)
}

/// The spec of an assignment: one Mode A construct per used layer (in [`LAYERS`] order, then
/// any other construct names in order of appearance), all feeding `Overall`.
///
/// # Errors
/// A message when fewer than two layers have tasks (the overall construct needs two).
pub fn spec_of(assignment: &BTreeMap<String, String>, tasks: &[String]) -> Result<String, String> {
    let mut names: Vec<String> = LAYERS.iter().map(|s| s.to_string()).collect();
    for t in tasks {
        if let Some(c) = assignment.get(t) {
            if !c.is_empty() && !names.contains(c) {
                names.push(c.clone());
            }
        }
    }
    let constructs: Vec<DraftConstruct> = names
        .iter()
        .map(|n| DraftConstruct {
            name: n.clone(),
            indicators: tasks
                .iter()
                .filter(|t| assignment.get(*t) == Some(n))
                .cloned()
                .collect(),
            mode: Mode::A,
        })
        .filter(|c| !c.indicators.is_empty())
        .collect();
    if constructs.len() < 2 {
        return Err(format!(
            "assign tasks to at least two layers (now {}): the overall score weighs layers",
            constructs.len()
        ));
    }
    let mut d = SpecDraft {
        constructs,
        ..SpecDraft::default()
    };
    d.apply_preset(Preset::LayersToOverall);
    Ok(d.to_json())
}

/// The result of one Gold analysis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GoldResult {
    /// The task → layer assignment used.
    pub assignment: BTreeMap<String, String>,
    /// The spec JSON fitted (as `coglab sem --spec` reads it).
    pub spec: String,
    /// The layers (first-order constructs) in spec order.
    pub layers: Vec<String>,
    /// Per model: weighted overall, layer scores, plain mean, both ranks.
    pub rows: Vec<RankRow>,
    /// Models analysed.
    pub n_models: usize,
    /// Models dropped for missing values (listwise).
    pub dropped_models: Vec<String>,
    /// Task cells outside the table's stated scale (fitted as given, flagged on the board):
    /// Gold's Table 2 gives Qwen2.5-VL 7B's Artwork as 147.5 on a 0-100 % accuracy scale.
    #[serde(default)]
    pub out_of_range: Vec<OutOfRange>,
}

/// The stated scale of Gold's Table 2 task columns (`unit`: % accuracy).
pub const TABLE2_SCALE: Scale = Scale {
    low: 0.0,
    high: 100.0,
};

/// Fits Gold's layers → overall model with this assignment (default [`SemOptions`], as
/// `coglab sem --spec SPEC DATA`).
///
/// # Errors
/// A message from [`spec_of`], the spec reader or the analysis (too few models, ...).
pub fn analyze(
    matrix: &ScoreMatrix,
    assignment: &BTreeMap<String, String>,
) -> Result<GoldResult, String> {
    analyze_with_scale(matrix, assignment, None)
}

/// As [`analyze`], checking the task cells against a stated `scale` (reported in
/// [`GoldResult::out_of_range`]; the fit uses them as given, as the paper's table prints them).
///
/// # Errors
/// As [`analyze`].
pub fn analyze_with_scale(
    matrix: &ScoreMatrix,
    assignment: &BTreeMap<String, String>,
    scale: Option<Scale>,
) -> Result<GoldResult, String> {
    let tasks: Vec<String> = matrix
        .columns
        .iter()
        .filter(|c| c.is_numeric())
        .map(|c| c.name.clone())
        .collect();
    let spec_text = spec_of(assignment, &tasks)?;
    let spec = ModelSpec::parse(&spec_text, "spec.json").map_err(|e| e.to_string())?;
    let opts = SemOptions {
        scale,
        ..SemOptions::default()
    };
    let report = crate::sem::analyze_parsed(&spec, matrix, &opts).map_err(|e| e.to_string())?;
    let rows = rank_changes(matrix, &report).map_err(|e| e.to_string())?;
    Ok(GoldResult {
        assignment: assignment
            .iter()
            .filter(|(t, c)| !c.is_empty() && tasks.contains(t))
            .map(|(t, c)| (t.clone(), c.clone()))
            .collect(),
        spec: spec_text,
        layers: report
            .constructs
            .iter()
            .filter(|c| c.order == 1 && !c.human)
            .map(|c| c.name.clone())
            .collect(),
        rows,
        n_models: report.n_models,
        dropped_models: report.dropped_models,
        out_of_range: report.out_of_range,
    })
}

/// Gold's weighted scores of a printed table of task scores (e.g. the paper's Table 2): one
/// row per model (`labels`), one value per column of `columns` (columns not in Gold's Table 2
/// assignment, such as a printed `Overall`, are left out; a missing value drops the model), fitted
/// with [`table2_assignment`] as [`score_matrix`] fits a dropped matrix with the same tasks.
///
/// # Errors
/// A message when the columns lack a Table 2 task, or from [`analyze`].
pub fn score_table(
    labels: &[String],
    columns: &[String],
    values: &[Vec<Option<f64>>],
) -> Result<GoldResult, String> {
    let tasks: Vec<usize> = (0..columns.len())
        .filter(|&c| columns[c] != "Overall")
        .collect();
    let names: Vec<String> = tasks.iter().map(|&c| columns[c].clone()).collect();
    let assignment =
        table2_assignment(&names).ok_or("the table lacks some of Gold's Table 2 tasks")?;
    let text = crate::csv_text(|w| {
        let mut header = vec!["model".to_string()];
        header.extend(names);
        w.write_record(&header)?;
        for (label, row) in labels.iter().zip(values) {
            let mut rec = vec![label.clone()];
            rec.extend(tasks.iter().map(|&c| match row.get(c).copied().flatten() {
                Some(v) => v.to_string(),
                None => "NA".into(),
            }));
            w.write_record(&rec)?;
        }
        Ok(())
    });
    let bytes = text.into_bytes();
    let m = ScoreMatrix::parse(&bytes, "table.csv").map_err(|e| e.to_string())?;
    analyze_with_scale(&m, &assignment, Some(TABLE2_SCALE))
}

/// A dropped score matrix and its Gold scores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GoldRow {
    /// Row id, set by [`crate::leaderboard::Scored::split_details`] (the default until then).
    #[serde(default)]
    pub id: crate::leaderboard::RowId,
    /// The matrix.
    pub matrix: GoldMatrix,
    /// The parsed matrix, for scoring it again under another assignment ([`analyze`]); not
    /// serialized (the web app's worker keeps it by [`GoldRow::id`]).
    #[serde(skip)]
    pub data: Option<ScoreMatrix>,
    /// Scores with Gold's Table 2 assignment when the task names match.
    pub result: Option<GoldResult>,
    /// Why there is no result (the user assigns the tasks, or the fit failed).
    pub message: Option<String>,
}

/// Reads a score matrix and scores it with Gold's Table 2 assignment when its tasks match.
///
/// # Errors
/// The matrix's located [`crate::sem::SemError`] text.
pub fn score_matrix(path: &str, bytes: &[u8]) -> Result<GoldRow, String> {
    let m = ScoreMatrix::parse(bytes, path).map_err(|e| e.to_string())?;
    let matrix = GoldMatrix::of(&m);
    let (result, message) = match table2_assignment(&matrix.tasks) {
        Some(a) => match analyze(&m, &a) {
            Ok(r) => (Some(r), None),
            Err(e) => (None, Some(e)),
        },
        None => (
            None,
            Some(
                "The task names are not Gold's Table 2 tasks: assign each task to a layer \
                 below (at least two layers), then score."
                    .into(),
            ),
        ),
    };
    Ok(GoldRow {
        id: Default::default(),
        matrix,
        data: Some(m),
        result,
        message,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reported::ReportedBundle;

    #[test]
    fn score_table_of_gold_table2_equals_coglab_sem() {
        let b = ReportedBundle::parse(
            "gold.json",
            include_str!("../../../../public/data/gold.json"),
        )
        .unwrap();
        let t = b.table("gold-table2").unwrap();
        let labels: Vec<String> = t.rows.iter().map(|r| r.label.clone()).collect();
        let values: Vec<Vec<Option<f64>>> = t.rows.iter().map(|r| r.values.clone()).collect();
        let r = score_table(&labels, &t.columns, &values).unwrap();
        assert_eq!(r.n_models, 10);
        assert_eq!(r.layers, ["Perception", "Memory", "Reasoning"]);
        // coglab sem --spec (Table 2's layers → Overall) on Table 2 as a CSV without Overall:
        // GPT-4o overall 79.48504056761112, Memory 78.19034200958315.
        let gpt = r.rows.iter().find(|x| x.model == "GPT-4o").unwrap();
        assert!(
            (gpt.overall - 79.48504056761112).abs() < 1e-9,
            "{}",
            gpt.overall
        );
        assert!((gpt.by_construct["Memory"] - 78.19034200958315).abs() < 1e-9);
        // Issue 23: Table 2's one cell outside its 0-100 % accuracy scale is flagged, and it
        // is why Qwen2.5-VL 7B's Memory score exceeds 100: with the Memory loadings of
        // scripts/gold_fidelity_reference.py ("mode" A: Artwork 0.930988, Landmark -0.661553,
        // BMK 0.668610), (0.930988·147.5 + 0.661553·73.8 + 0.668610·91.6) / 2.261151 = 109.408.
        let flagged: Vec<String> = r.out_of_range.iter().map(|c| c.to_string()).collect();
        assert_eq!(flagged, ["Qwen2.5-VL 7B Artwork = 147.5 (outside 0-100)"]);
        let qwen = r.rows.iter().find(|x| x.model == "Qwen2.5-VL 7B").unwrap();
        assert!((qwen.by_construct["Memory"] - 109.408).abs() < 1e-3);
        // Without a Table 2 task: a message.
        assert!(score_table(&labels, &t.columns[..5], &values).is_err());
    }
}
