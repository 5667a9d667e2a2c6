//! Helpers for front ends that edit and present a Gold analysis (the web app's Structure page):
//! an editable spec draft that writes and reads the spec JSON format, the two structural
//! presets, a score matrix from a bundled reported table (Gold's Table 2), rank changes of the
//! loading-weighted overall score against the plain mean, and CSV versions of a report's
//! tables.

use super::analysis::SemReport;
use super::data::ScoreMatrix;
use super::engine::{Mode, Scheme};
use super::spec::{ModelSpec, Thresholds};
use super::SemError;
use crate::reported::ReportedTable;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One first-order construct of a draft.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DraftConstruct {
    /// Construct name.
    pub name: String,
    /// Indicator (task) column names.
    pub indicators: Vec<String>,
    /// Mode A or B.
    pub mode: Mode,
}

/// One second-order construct of a draft.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DraftSecondOrder {
    /// Construct name.
    pub name: String,
    /// Its lower-order constructs.
    pub constructs: Vec<String>,
    /// Mode of the stage-2 composite.
    pub mode: Mode,
}

/// An editable model: the same content as a [`ModelSpec`] without validation, so a user can
/// pass through invalid states while editing. [`SpecDraft::to_json`] writes the spec format
/// that [`ModelSpec::parse`] (and `coglab sem --spec`) reads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SpecDraft {
    /// First-order constructs in order.
    pub constructs: Vec<DraftConstruct>,
    /// Structural paths `(from, to)`.
    pub paths: Vec<(String, String)>,
    /// Inner weighting scheme.
    pub scheme: Scheme,
    /// Second-order constructs.
    pub second_order: Vec<DraftSecondOrder>,
    /// Optional human column.
    pub human_column: Option<String>,
    /// Pruning thresholds.
    pub thresholds: Thresholds,
}

impl Default for SpecDraft {
    fn default() -> Self {
        Self {
            constructs: Vec::new(),
            paths: Vec::new(),
            scheme: Scheme::Path,
            second_order: Vec::new(),
            human_column: None,
            thresholds: Thresholds::default(),
        }
    }
}

/// A structural preset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Preset {
    /// Every first-order construct feeds one second-order construct `Overall` (no paths).
    LayersToOverall,
    /// A chain through the first-order constructs in order (e.g. Perception -> Memory ->
    /// Reasoning), no second-order construct.
    Chain,
}

/// A measurement-mode preset (issue 23): the paper calls every construct formative.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum MeasurementPreset {
    /// Every construct Mode A (correlation weights). Our default: the figures the paper
    /// reports (outer loadings, Cronbach's α, ρ_C, AVE, item VIF) are the reflective-model
    /// checks, and a Mode A fit is what they describe.
    #[default]
    ModeA,
    /// The paper's setting: Mode B (regression weights) wherever it says formative — seed
    /// 003 §2.1 and appendix A.2 call the measurement model formative for every ability
    /// dimension and the overall second-order construct, so every first- and second-order
    /// construct.
    PaperFormative,
}

impl MeasurementPreset {
    /// The label shown beside the preset.
    pub fn label(self) -> &'static str {
        match self {
            MeasurementPreset::ModeA => "Mode A everywhere (ours)",
            MeasurementPreset::PaperFormative => "paper: formative = Mode B everywhere",
        }
    }

    /// What the paper says about the mode behind its reported figures (shown with the preset).
    pub const PAPER_NOTE: &'static str = "The paper calls its measurement model formative         (section 2.1, appendix A.2) but does not say which estimation mode produced Table 1 or         Table 3; the figures it reports (outer loadings, Cronbach's α, composite reliability,         AVE, item VIF below 5) are reflective-model checks, so as far as the paper tells Table 3         may have been computed either way.";
}

/// The glossary sentences of the paper-fidelity switches (issue 23): for each switch, which
/// source each position follows and which is the default. The Structure page shows them;
/// `docs/glossary-gold.md` has the same text.
pub const FIDELITY_GLOSSARY: [(&str, &str); 5] = [
    (
        "HTMT",
        "Standard (the default) follows Henseler, Ringle & Sarstedt (2015) as seminr and          SmartPLS compute it: mean |r| between the blocks over the geometric mean of both          blocks' mean |r| within. Paper Eq. 1 follows Gold's formula as printed: signed r,          divided by block i's within-block mean only (i = the first construct of the pair in          spec order), so it is not symmetric and can be negative or huge when block i's          indicators disagree. D_div uses whichever is chosen.",
    ),
    (
        "Pruning",
        "Stepwise (the default, ours) refits after each removal, removes the single worst task          and never takes a construct below min_indicators. Algorithm 1 follows Gold's          Algorithm 1 as printed: each pass removes every task with VIF above δ_VIF and every          task with loading below λ_min at once, with no floor.",
    ),
    (
        "Measurement mode",
        "Mode A everywhere (the default, ours) matches the reflective checks the paper reports          (loadings, α, ρ_C, AVE). The formative preset follows the paper's own description          (section 2.1, appendix A.2: every construct formative) as Mode B for every first- and          second-order construct. The paper does not say which mode produced Table 1 or Table 3.",
    ),
    (
        "Human column (Chatbot Arena)",
        "Separate construct (the default, ours): a single-indicator construct the top-level          construct points to. Indicator of the top construct follows Gold section 2.2 (\"an          external observed indicator of the top-level latent variable\"): one more indicator          of the single second-order construct in stage 2.",
    ),
    (
        "Out-of-range scores",
        "Cells outside the column's stated scale (Gold Table 2: % accuracy, 0-100) are flagged          before the results; by default (ours) they are fitted as printed and the fit says so;          excluding them treats them as missing (listwise deletion drops the model). Gold's          Table 2 prints Qwen2.5-VL 7B's Artwork as 147.5.",
    ),
];

fn mode_str(m: Mode) -> &'static str {
    match m {
        Mode::A => "A",
        Mode::B => "B",
    }
}

fn scheme_str(s: Scheme) -> &'static str {
    match s {
        Scheme::Path => "path",
        Scheme::Factorial => "factorial",
        Scheme::Centroid => "centroid",
    }
}

impl SpecDraft {
    /// The draft as spec JSON (pretty-printed, constructs in draft order).
    ///
    /// # Examples
    /// ```
    /// use coglab_core::sem::suite::{SpecDraft, DraftConstruct};
    /// use coglab_core::sem::engine::Mode;
    /// let mut d = SpecDraft::default();
    /// d.constructs.push(DraftConstruct { name: "A".into(), indicators: vec!["a1".into(), "a2".into()], mode: Mode::A });
    /// let back = SpecDraft::parse(&d.to_json(), "spec.json").unwrap();
    /// assert_eq!(back, d);
    /// ```
    pub fn to_json(&self) -> String {
        self.json()
    }

    /// The draft checked as a spec: what [`ModelSpec::parse`] makes of [`SpecDraft::to_json`]
    /// (the web app's worker fits the model the page edits with it).
    ///
    /// # Errors
    /// [`ModelSpec::parse`]'s, naming the construct or path at fault.
    ///
    /// # Examples
    /// ```
    /// use coglab_core::sem::suite::{SpecDraft, DraftConstruct};
    /// use coglab_core::sem::engine::Mode;
    /// let mut d = SpecDraft::default();
    /// d.constructs.push(DraftConstruct { name: "A".into(), indicators: vec!["a1".into(), "a2".into()], mode: Mode::A });
    /// d.constructs.push(DraftConstruct { name: "B".into(), indicators: vec!["b1".into()], mode: Mode::A });
    /// d.paths.push(("A".into(), "B".into()));
    /// let spec = d.to_spec().unwrap();
    /// assert_eq!(spec.constructs.len(), 2);
    /// d.paths.push(("A".into(), "C".into()));
    /// assert!(d.to_spec().unwrap_err().to_string().contains("C"));
    /// ```
    pub fn to_spec(&self) -> Result<ModelSpec, SemError> {
        ModelSpec::parse(&self.json(), "the model")
    }

    fn json(&self) -> String {
        // Objects are written by hand: construct order is meaningful (HTMT keys, layout) and
        // serde_json's map would sort the keys.
        let q = |v: &str| serde_json::to_string(v).unwrap_or_default();
        let list = |v: &[String]| serde_json::to_string(v).unwrap_or_default();
        let mut out = String::from("{\n  \"constructs\": {");
        for (k, c) in self.constructs.iter().enumerate() {
            out.push_str(if k == 0 { "\n" } else { ",\n" });
            out.push_str(&format!(
                "    {}: {{\"indicators\": {}, \"mode\": \"{}\"}}",
                q(&c.name),
                list(&c.indicators),
                mode_str(c.mode)
            ));
        }
        out.push_str(if self.constructs.is_empty() {
            "},\n"
        } else {
            "\n  },\n"
        });
        out.push_str(&format!(
            "  \"paths\": {},\n  \"scheme\": \"{}\",\n",
            serde_json::to_string(&self.paths).unwrap_or_default(),
            scheme_str(self.scheme)
        ));
        if !self.second_order.is_empty() {
            out.push_str("  \"second_order\": {");
            for (k, h) in self.second_order.iter().enumerate() {
                out.push_str(if k == 0 { "\n" } else { ",\n" });
                out.push_str(&format!(
                    "    {}: {{\"constructs\": {}, \"mode\": \"{}\"}}",
                    q(&h.name),
                    list(&h.constructs),
                    mode_str(h.mode)
                ));
            }
            out.push_str("\n  },\n");
        }
        if let Some(h) = &self.human_column {
            out.push_str(&format!("  \"human_column\": {},\n", q(h)));
        }
        // Keys in alphabetical order, as the file has always had them.
        #[derive(Serialize)]
        struct Written {
            loading_min: f64,
            min_indicators: usize,
            vif_max: f64,
        }
        let t = serde_json::to_string(&Written {
            loading_min: self.thresholds.loading_min,
            min_indicators: self.thresholds.min_indicators,
            vif_max: self.thresholds.vif_max,
        })
        .unwrap_or_default();
        out.push_str(&format!("  \"thresholds\": {t}\n}}\n"));
        out
    }

    /// The draft of a validated spec.
    pub fn from_spec(spec: &ModelSpec) -> Self {
        Self {
            constructs: spec
                .constructs
                .iter()
                .map(|c| DraftConstruct {
                    name: c.name.clone(),
                    indicators: c.indicators.clone(),
                    mode: c.mode,
                })
                .collect(),
            paths: spec.paths.clone(),
            scheme: spec.scheme,
            second_order: spec
                .second_order
                .iter()
                .map(|h| DraftSecondOrder {
                    name: h.name.clone(),
                    constructs: h.constructs.clone(),
                    mode: h.mode,
                })
                .collect(),
            human_column: spec.human_column.clone(),
            thresholds: spec.thresholds,
        }
    }

    /// Reads spec JSON (validated by [`ModelSpec::parse`]).
    ///
    /// # Errors
    /// The spec's [`SemError`] (file, line, field).
    pub fn parse(text: &str, file: &str) -> Result<Self, SemError> {
        Ok(Self::from_spec(&ModelSpec::parse(text, file)?))
    }

    /// Replaces the structural model by a preset (first-order constructs are kept).
    pub fn apply_preset(&mut self, preset: Preset) {
        let names: Vec<String> = self.constructs.iter().map(|c| c.name.clone()).collect();
        match preset {
            Preset::LayersToOverall => {
                self.paths.clear();
                self.second_order = vec![DraftSecondOrder {
                    name: unique_name(&names, "Overall"),
                    constructs: names,
                    mode: Mode::A,
                }];
            }
            Preset::Chain => {
                self.second_order.clear();
                self.paths = names
                    .windows(2)
                    .map(|w| (w[0].clone(), w[1].clone()))
                    .collect();
            }
        }
    }

    /// Sets the mode of every first- and second-order construct by a [`MeasurementPreset`].
    ///
    /// # Examples
    /// ```
    /// use coglab_core::sem::suite::{gold_table2_draft, MeasurementPreset};
    /// use coglab_core::sem::engine::Mode;
    /// let mut d = gold_table2_draft();
    /// d.apply_measurement(MeasurementPreset::PaperFormative);
    /// assert!(d.constructs.iter().all(|c| c.mode == Mode::B));
    /// assert_eq!(d.second_order[0].mode, Mode::B);
    /// assert_eq!(d.measurement(), Some(MeasurementPreset::PaperFormative));
    /// ```
    pub fn apply_measurement(&mut self, preset: MeasurementPreset) {
        let mode = match preset {
            MeasurementPreset::ModeA => Mode::A,
            MeasurementPreset::PaperFormative => Mode::B,
        };
        for c in &mut self.constructs {
            c.mode = mode;
        }
        for h in &mut self.second_order {
            h.mode = mode;
        }
    }

    /// The preset the draft's modes match, if any (`None` for a mix).
    pub fn measurement(&self) -> Option<MeasurementPreset> {
        let modes: Vec<Mode> = self
            .constructs
            .iter()
            .map(|c| c.mode)
            .chain(self.second_order.iter().map(|h| h.mode))
            .collect();
        if modes.iter().all(|m| *m == Mode::A) {
            Some(MeasurementPreset::ModeA)
        } else if modes.iter().all(|m| *m == Mode::B) {
            Some(MeasurementPreset::PaperFormative)
        } else {
            None
        }
    }

    /// Renames a construct everywhere (paths, second-order lists). Returns false (and changes
    /// nothing) when `new` is empty or already names another construct.
    pub fn rename(&mut self, old: &str, new: &str) -> bool {
        let new = new.trim();
        let taken = self.constructs.iter().any(|c| c.name == new)
            || self.second_order.iter().any(|h| h.name == new);
        if new.is_empty() || (taken && new != old) {
            return false;
        }
        for c in &mut self.constructs {
            if c.name == old {
                c.name = new.to_string();
            }
        }
        for h in &mut self.second_order {
            if h.name == old {
                h.name = new.to_string();
            }
            for c in &mut h.constructs {
                if c == old {
                    *c = new.to_string();
                }
            }
        }
        for (a, b) in &mut self.paths {
            if a == old {
                *a = new.to_string();
            }
            if b == old {
                *b = new.to_string();
            }
        }
        true
    }

    /// Deletes a construct (its tasks become unassigned) and every path and second-order
    /// membership naming it; a second-order construct left without members is deleted too.
    pub fn delete(&mut self, name: &str) {
        self.constructs.retain(|c| c.name != name);
        self.second_order.retain(|h| h.name != name);
        for h in &mut self.second_order {
            h.constructs.retain(|c| c != name);
        }
        let gone: Vec<String> = self
            .second_order
            .iter()
            .filter(|h| h.constructs.is_empty())
            .map(|h| h.name.clone())
            .collect();
        self.second_order.retain(|h| !h.constructs.is_empty());
        self.paths
            .retain(|(a, b)| a != name && b != name && !gone.contains(a) && !gone.contains(b));
    }

    /// Puts `task` in construct `to` (removing it from any other), or leaves it unassigned
    /// when `to` is `None`.
    pub fn assign(&mut self, task: &str, to: Option<&str>) {
        for c in &mut self.constructs {
            c.indicators.retain(|i| i != task);
        }
        if let Some(to) = to {
            if let Some(c) = self.constructs.iter_mut().find(|c| c.name == to) {
                c.indicators.push(task.to_string());
            }
        }
    }

    /// The construct a task is assigned to.
    pub fn construct_of(&self, task: &str) -> Option<&str> {
        self.constructs
            .iter()
            .find(|c| c.indicators.iter().any(|i| i == task))
            .map(|c| c.name.as_str())
    }

    /// A construct name not used yet: `base`, else `base 2`, `base 3`, ...
    pub fn fresh_name(&self, base: &str) -> String {
        let mut names: Vec<String> = self.constructs.iter().map(|c| c.name.clone()).collect();
        names.extend(self.second_order.iter().map(|h| h.name.clone()));
        unique_name(&names, base)
    }
}

fn unique_name(names: &[String], base: &str) -> String {
    if !names.iter().any(|n| n == base) {
        return base.to_string();
    }
    (2..)
        .map(|k| format!("{base} {k}"))
        .find(|c| !names.contains(c))
        .unwrap_or_else(|| base.to_string())
}

/// CSV text (`model,<columns>`) of a reported table's rows, leaving out the columns named in
/// `skip` (e.g. Gold Table 2's printed `Overall`). Missing values are written `NA`. The text
/// reads back with [`ScoreMatrix::parse`].
pub fn matrix_csv_from_reported(table: &ReportedTable, skip: &[&str]) -> String {
    let keep: Vec<usize> = (0..table.columns.len())
        .filter(|&j| !skip.contains(&table.columns[j].as_str()))
        .collect();
    crate::csv_text(|w| {
        let mut header = vec!["model".to_string()];
        header.extend(keep.iter().map(|&j| table.columns[j].clone()));
        w.write_record(&header)?;
        for r in &table.rows {
            let mut rec = vec![r.label.clone()];
            rec.extend(
                keep.iter()
                    .map(|&j| match r.values.get(j).copied().flatten() {
                        Some(v) => v.to_string(),
                        None => "NA".to_string(),
                    }),
            );
            w.write_record(&rec)?;
        }
        Ok(())
    })
}

/// The Gold paper's layers of its Table 2 tasks (from the bundled table's notes and the
/// authors' repository), with the three layers feeding one `Overall` construct.
pub fn gold_table2_draft() -> SpecDraft {
    let layer = |name: &str, tasks: &[&str]| DraftConstruct {
        name: name.into(),
        indicators: tasks.iter().map(|t| t.to_string()).collect(),
        mode: Mode::A,
    };
    let mut d = SpecDraft {
        constructs: vec![
            layer("Perception", &["Color", "Count", "OCR"]),
            layer("Memory", &["Artwork", "Landmark", "BMK"]),
            layer(
                "Reasoning",
                &["Biology", "CS", "Economics", "Electronics", "Math"],
            ),
        ],
        ..SpecDraft::default()
    };
    d.apply_preset(Preset::LayersToOverall);
    d
}

/// One model's weighted overall score and plain mean, with both ranks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RankRow {
    /// Model name.
    pub model: String,
    /// Loading-weighted overall score (the report's `overall_scores`).
    pub overall: f64,
    /// Loading-weighted score of each first-order construct (layer).
    pub by_construct: BTreeMap<String, f64>,
    /// Plain mean of the model's raw scores on the tasks of the fitted model.
    pub plain_mean: f64,
    /// Rank by the weighted overall score (1 = best; ties share the best rank).
    pub rank_weighted: usize,
    /// Rank by the plain mean.
    pub rank_plain: usize,
    /// `rank_plain - rank_weighted`: positive when weighting moves the model up.
    pub change: i64,
}

fn competition_ranks(values: &[f64]) -> Vec<usize> {
    values
        .iter()
        .map(|v| 1 + values.iter().filter(|w| w.total_cmp(v).is_gt()).count())
        .collect()
}

/// Weighted overall scores against the plain mean of the same tasks (the task indicators of
/// the report's first-order constructs, human column excluded), with ranks and rank changes,
/// ordered by weighted rank then name.
///
/// # Errors
/// [`SemError::UnknownColumn`] when a task of the report is not a column of `matrix`.
pub fn rank_changes(matrix: &ScoreMatrix, report: &SemReport) -> Result<Vec<RankRow>, SemError> {
    let tasks: Vec<&String> = report
        .constructs
        .iter()
        .filter(|c| c.order == 1 && !c.human)
        .flat_map(|c| c.indicators.iter())
        .collect();
    let mut cols = Vec::new();
    for t in &tasks {
        let col = matrix.column(t).ok_or_else(|| SemError::UnknownColumn {
            file: matrix.file.clone(),
            column: t.to_string(),
            available: matrix
                .columns
                .iter()
                .map(|c| c.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        })?;
        cols.push(col);
    }
    let mut rows: Vec<RankRow> = Vec::new();
    for (model, s) in &report.overall_scores {
        let Some(i) = matrix.models.iter().position(|m| m == model) else {
            continue;
        };
        let vals: Vec<f64> = cols.iter().filter_map(|c| c.values[i]).collect();
        if vals.is_empty() {
            continue;
        }
        rows.push(RankRow {
            model: model.clone(),
            overall: s.overall,
            by_construct: s.by_construct.clone(),
            plain_mean: vals.iter().sum::<f64>() / vals.len() as f64,
            rank_weighted: 0,
            rank_plain: 0,
            change: 0,
        });
    }
    let rw = competition_ranks(&rows.iter().map(|r| r.overall).collect::<Vec<_>>());
    let rp = competition_ranks(&rows.iter().map(|r| r.plain_mean).collect::<Vec<_>>());
    for (k, r) in rows.iter_mut().enumerate() {
        r.rank_weighted = rw[k];
        r.rank_plain = rp[k];
        r.change = rp[k] as i64 - rw[k] as i64;
    }
    rows.sort_by(|a, b| {
        a.rank_weighted
            .cmp(&b.rank_weighted)
            .then_with(|| a.model.cmp(&b.model))
    });
    Ok(rows)
}

/// A table of a report that can be written as CSV.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReportTable {
    /// item, construct, weight, loading, vif.
    Outer,
    /// construct, alpha, rho_a, rho_c, ave.
    Reliability,
    /// pair, htmt.
    Htmt,
    /// path, coefficient.
    Paths,
    /// d_div, tc, d_valid, mean, max_htmt.
    Diagnostics,
    /// step, removed, construct, reason, value, d_div, tc, d_valid, mean.
    Pruning,
    /// kind, name, n, mean, median, min, max, sd, skewness, excess_kurtosis, cvm_w, cvm_w_star, cvm_p.
    Descriptives,
    /// kind, name, original, mean, se, t, ci_low, ci_high.
    Bootstrap,
}

fn num(v: f64) -> String {
    v.to_string()
}

fn opt(v: Option<f64>) -> String {
    v.map(num).unwrap_or_default()
}

/// A report table as CSV text (header line first; empty cells for missing values).
pub fn report_csv(report: &SemReport, table: ReportTable) -> String {
    let mut rows: Vec<Vec<String>> = Vec::new();
    let s = |x: &str| x.to_string();
    match table {
        ReportTable::Outer => {
            rows.push(
                ["item", "construct", "weight", "loading", "vif"]
                    .map(s)
                    .to_vec(),
            );
            for (item, o) in &report.outer {
                rows.push(vec![
                    item.clone(),
                    o.construct.clone(),
                    num(o.weight),
                    num(o.loading),
                    opt(report.vif.get(item).copied()),
                ]);
            }
        }
        ReportTable::Reliability => {
            rows.push(
                ["construct", "alpha", "rho_a", "rho_c", "ave"]
                    .map(s)
                    .to_vec(),
            );
            for (c, r) in &report.reliability {
                rows.push(vec![
                    c.clone(),
                    num(r.alpha),
                    num(r.rho_a),
                    num(r.rho_c),
                    num(r.ave),
                ]);
            }
        }
        ReportTable::Htmt => {
            // The variant on every row: the export says which formula made the figure.
            rows.push(["pair", "htmt", "htmt_variant"].map(s).to_vec());
            for (k, v) in &report.htmt {
                rows.push(vec![
                    k.clone(),
                    num(*v),
                    report.htmt_variant.as_str().to_string(),
                ]);
            }
        }
        ReportTable::Paths => {
            rows.push(["path", "coefficient"].map(s).to_vec());
            for (k, v) in &report.paths {
                rows.push(vec![k.clone(), num(*v)]);
            }
        }
        ReportTable::Diagnostics => {
            let d = &report.diagnostics;
            rows.push(
                ["d_div", "tc", "d_valid", "mean", "max_htmt", "htmt_variant"]
                    .map(s)
                    .to_vec(),
            );
            rows.push(vec![
                opt(d.d_div),
                num(d.tc),
                num(d.d_valid),
                num(d.mean),
                opt(d.max_htmt),
                report.htmt_variant.as_str().to_string(),
            ]);
        }
        ReportTable::Pruning => {
            rows.push(
                [
                    "step",
                    "removed",
                    "construct",
                    "reason",
                    "value",
                    "d_div",
                    "tc",
                    "d_valid",
                    "mean",
                    "prune_variant",
                ]
                .map(s)
                .to_vec(),
            );
            let variant = report.prune_variant.map_or("", |v| v.as_str());
            for (k, p) in report.pruning.iter().enumerate() {
                rows.push(vec![
                    (k + 1).to_string(),
                    p.removed.clone(),
                    p.construct.clone(),
                    p.reason.clone(),
                    num(p.value),
                    opt(p.diagnostics.d_div),
                    num(p.diagnostics.tc),
                    num(p.diagnostics.d_valid),
                    num(p.diagnostics.mean),
                    variant.to_string(),
                ]);
            }
        }
        ReportTable::Descriptives => {
            rows.push(
                [
                    "kind",
                    "name",
                    "n",
                    "mean",
                    "median",
                    "min",
                    "max",
                    "sd",
                    "skewness",
                    "excess_kurtosis",
                    "cvm_w",
                    "cvm_w_star",
                    "cvm_p",
                ]
                .map(s)
                .to_vec(),
            );
            let d = &report.descriptives;
            for (kind, map) in [("indicator", &d.indicators), ("construct", &d.constructs)] {
                for (name, x) in map {
                    rows.push(vec![
                        kind.to_string(),
                        name.clone(),
                        x.n.to_string(),
                        num(x.mean),
                        num(x.median),
                        num(x.min),
                        num(x.max),
                        opt(x.sd),
                        opt(x.skewness),
                        opt(x.excess_kurtosis),
                        opt(x.cvm_w),
                        opt(x.cvm_w_star),
                        opt(x.cvm_p),
                    ]);
                }
            }
        }
        ReportTable::Bootstrap => {
            rows.push(
                [
                    "kind", "name", "original", "mean", "se", "t", "ci_low", "ci_high",
                ]
                .map(s)
                .to_vec(),
            );
            if let Some(b) = &report.bootstrap {
                for (kind, map) in [
                    ("weight", &b.weights),
                    ("loading", &b.loadings),
                    ("path", &b.paths),
                ] {
                    for (name, x) in map {
                        rows.push(vec![
                            kind.to_string(),
                            name.clone(),
                            num(x.original),
                            num(x.mean),
                            num(x.se),
                            opt(x.t),
                            num(x.ci_low),
                            num(x.ci_high),
                        ]);
                    }
                }
            }
        }
    }
    write_csv(&rows)
}

/// Rank rows as CSV: model, overall, plain_mean, rank_weighted, rank_plain, change, then one
/// column per construct.
pub fn ranks_csv(rows: &[RankRow]) -> String {
    let constructs: Vec<String> = rows
        .first()
        .map(|r| r.by_construct.keys().cloned().collect())
        .unwrap_or_default();
    let mut out = vec![{
        let mut h: Vec<String> = [
            "model",
            "overall",
            "plain_mean",
            "rank_weighted",
            "rank_plain",
            "change",
        ]
        .map(str::to_string)
        .to_vec();
        h.extend(constructs.iter().cloned());
        h
    }];
    for r in rows {
        let mut v = vec![
            r.model.clone(),
            num(r.overall),
            num(r.plain_mean),
            r.rank_weighted.to_string(),
            r.rank_plain.to_string(),
            r.change.to_string(),
        ];
        v.extend(
            constructs
                .iter()
                .map(|c| opt(r.by_construct.get(c).copied())),
        );
        out.push(v);
    }
    write_csv(&out)
}

fn write_csv(rows: &[Vec<String>]) -> String {
    crate::csv_text(|w| rows.iter().try_for_each(|r| w.write_record(r)))
}
