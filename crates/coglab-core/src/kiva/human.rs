//! The KiVA adult human data (`human_adults_KiVA.csv`): one row per participant, trial and stage.

use super::report::{
    build_report, variant_of_subdomains, ReactionTime, RowCounts, Source, SubdomainRt, TrialResult,
};
use super::{domain_of, int_field, Csv, KivaError, KivaReport, Stage};
use crate::location::{snippet, Location};
use crate::mmiq::Warnings;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// One response of one participant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HumanRow {
    /// 1-based line in the CSV.
    pub line: usize,
    /// `ParticipantID`.
    pub participant: String,
    /// `Transformation`: the subdomain.
    pub subdomain: String,
    /// `Variation`.
    pub variation: u64,
    /// `Task`: Cross Domain, Within Domain or Extrapolation.
    pub stage: Stage,
    /// `Score`: 1 or 0.
    pub score: f64,
    /// `Reaction Time` in milliseconds.
    pub rt_ms: f64,
}

/// The parsed human data file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HumanData {
    /// File name.
    pub file: String,
    /// The rows, in file order.
    pub rows: Vec<HumanRow>,
}

impl HumanData {
    /// Parses `human_adults_KiVA.csv`: columns `ParticipantID, Transformation, Variation, Task,
    /// Score, Reaction Time`. `Task` is `Cross Domain`, `Within Domain` or `Extrapolation`
    /// (case and spaces ignored); `Score` is 1 or 0 (`1.0`, `0.0` accepted); the reaction time
    /// is a non-negative number of milliseconds.
    ///
    /// # Errors
    /// [`KivaError::NotUtf8`], [`KivaError::Empty`], [`KivaError::Csv`],
    /// [`KivaError::MissingColumns`], [`KivaError::BadValue`] naming line and column,
    /// [`KivaError::UnknownDomain`] for a transformation of no known domain, and
    /// [`KivaError::DuplicateHumanRow`] when a participant's trial has the same task twice.
    ///
    /// # Examples
    /// ```
    /// use coglab_core::kiva::{HumanData, Stage};
    /// let h = HumanData::parse("h.csv", b"ParticipantID,Transformation,Variation,Task,Score,Reaction Time\n\
    ///     7,ReflectX,26,Within Domain,1,4674\n").unwrap();
    /// assert_eq!(h.rows[0].stage, Stage::Within);
    /// assert_eq!(h.rows[0].rt_ms, 4674.0);
    /// ```
    pub fn parse(file_name: &str, bytes: &[u8]) -> Result<Self, KivaError> {
        const COLUMNS: [&str; 6] = [
            "ParticipantID",
            "Transformation",
            "Variation",
            "Task",
            "Score",
            "Reaction Time",
        ];
        let csv = Csv::parse(
            file_name,
            bytes,
            "a header and one row per participant, trial and task",
        )?;
        let c = csv.require(file_name, &COLUMNS)?;
        let mut rows = Vec::with_capacity(csv.rows.len());
        let mut seen: HashMap<(String, String, u64, u8), usize> = HashMap::new();
        for (line, rec) in &csv.rows {
            let loc = Location::file(file_name).at_line(*line);
            let bad = |col: usize, expected: &str, found: &str| KivaError::BadValue {
                location: loc.clone().in_field(COLUMNS[col]),
                expected: expected.to_string(),
                found: snippet(found),
            };
            let participant = rec[c[0]].trim().to_string();
            if participant.is_empty() {
                return Err(bad(0, "a participant id", &rec[c[0]]));
            }
            let subdomain = rec[c[1]].trim().to_string();
            if domain_of(&subdomain).is_none() {
                return Err(KivaError::UnknownDomain {
                    file: format!("{file_name} line {line}"),
                    subdomain,
                });
            }
            let variation = int_field(&loc, COLUMNS[2], &rec[c[2]])?;
            let task: String = rec[c[3]]
                .chars()
                .filter(|ch| !ch.is_whitespace())
                .collect::<String>()
                .to_ascii_lowercase();
            let stage = match task.as_str() {
                "crossdomain" => Stage::Cross,
                "withindomain" => Stage::Within,
                "extrapolation" => Stage::Extrapolation,
                _ => {
                    return Err(bad(
                        3,
                        "Cross Domain, Within Domain or Extrapolation",
                        &rec[c[3]],
                    ))
                }
            };
            let score = match rec[c[4]].trim() {
                "1" | "1.0" => 1.0,
                "0" | "0.0" => 0.0,
                other => return Err(bad(4, "1 or 0", other)),
            };
            let rt_ms = rec[c[5]]
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
                .ok_or_else(|| bad(5, "a non-negative number of milliseconds", &rec[c[5]]))?;
            let key = (
                participant.clone(),
                subdomain.clone(),
                variation,
                stage as u8,
            );
            if let Some(first_line) = seen.insert(key, *line) {
                return Err(KivaError::DuplicateHumanRow {
                    location: loc,
                    trial: format!(
                        "participant {participant}, {subdomain} variation {variation}, {}",
                        rec[c[3]].trim()
                    ),
                    first_line,
                });
            }
            rows.push(HumanRow {
                line: *line,
                participant,
                subdomain,
                variation,
                stage,
                score,
                rt_ms,
            });
        }
        Ok(Self {
            file: file_name.to_string(),
            rows,
        })
    }
}

/// Scores the human data into the report shape of the model runs.
///
/// A trial is one participant's variation of one subdomain; its stage scores are that
/// participant's 0/1 answers. `cross` and `extrapolation` average the trials that have the
/// stage's row; `within_conditional` averages the trials that have a within-domain row (in the
/// released file adults answered stage 2 even after a wrong stage 1, so this is every trial with
/// the row); `within_joint` counts a missing within-domain row as 0. Reaction times are
/// summarised per subdomain (median and mean, over all stages and per stage).
///
/// # Errors
/// [`KivaError::Empty`] when there are no rows.
pub fn score_human(data: &HumanData) -> Result<KivaReport, KivaError> {
    if data.rows.is_empty() {
        return Err(KivaError::Empty {
            file: data.file.clone(),
            expected: "one row per participant, trial and task",
        });
    }
    let mut order: Vec<(String, String, u64)> = Vec::new();
    let mut by_trial: HashMap<(String, String, u64), Vec<&HumanRow>> = HashMap::new();
    for row in &data.rows {
        let key = (
            row.participant.clone(),
            row.subdomain.clone(),
            row.variation,
        );
        by_trial
            .entry(key.clone())
            .or_insert_with(|| {
                order.push(key);
                Vec::new()
            })
            .push(row);
    }
    let mut counts = RowCounts {
        files: 1,
        rows: data.rows.len(),
        ..RowCounts::default()
    };
    for name in ["cross", "within", "extrapolation"] {
        counts.null_answers.insert(name.into(), 0);
        counts.empty_answers.insert(name.into(), 0);
    }
    let mut warnings = Warnings::default();
    let mut trials = Vec::with_capacity(order.len());
    for key in &order {
        let rows = &by_trial[key];
        let get = |s: Stage| rows.iter().find(|r| r.stage == s).map(|r| r.score);
        let (cross, within, extrapolation) = (
            get(Stage::Cross),
            get(Stage::Within),
            get(Stage::Extrapolation),
        );
        for (name, v) in [
            ("cross", cross),
            ("within", within),
            ("extrapolation", extrapolation),
        ] {
            if v.is_none() {
                *counts.empty_answers.entry(name.into()).or_default() += 1;
                warnings.add("trial without a row for a stage", || {
                    format!(
                        "{} line {}: participant {} {} variation {} has no {name} row",
                        data.file, rows[0].line, key.0, key.1, key.2
                    )
                });
            }
        }
        trials.push(TrialResult {
            domain: domain_of(&key.1).unwrap_or("").to_string(),
            subdomain: key.1.clone(),
            variation: key.2,
            participant: Some(key.0.clone()),
            rows: rows.len(),
            line: rows[0].line,
            cross,
            within_conditional: within,
            within_joint: Some(within.unwrap_or(0.0)),
            extrapolation,
        });
    }
    let mut rt: BTreeMap<&str, [Vec<f64>; 4]> = BTreeMap::new();
    for row in &data.rows {
        let e = rt.entry(&row.subdomain).or_default();
        e[0].push(row.rt_ms);
        e[1 + row.stage as usize].push(row.rt_ms);
    }
    let reaction_time = rt
        .iter()
        .filter_map(|(s, v)| {
            Some((
                (*s).to_string(),
                SubdomainRt {
                    all: ReactionTime::of(&v[0])?,
                    cross: ReactionTime::of(&v[1]),
                    within: ReactionTime::of(&v[2]),
                    extrapolation: ReactionTime::of(&v[3]),
                },
            ))
        })
        .collect();
    let variant = variant_of_subdomains(data.rows.iter().map(|r| r.subdomain.as_str()));
    let mut report = build_report(
        variant,
        Source::Human,
        vec![data.file.clone()],
        trials,
        counts,
        warnings,
    );
    report.reaction_time = Some(reaction_time);
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "ParticipantID,Transformation,Variation,Task,Score,Reaction Time\n";

    #[test]
    fn trials_stages_and_reaction_times() {
        // Participant 1: ColourRed v3 all three stages (1, 0, 1).
        // Participant 2: ColourRed v5 cross 0, within 1, no extrapolation row.
        // Participant 2: ReflectX v1 cross 1, within 1, extrapolation 0.
        let text = format!(
            "{HEADER}1,ColourRed,3,Cross Domain,1,1000\n1,ColourRed,3,Within Domain,0,2000\n\
             1,ColourRed,3,Extrapolation,1,4000\n2,ColourRed,5,Cross Domain,0,3000\n\
             2,ColourRed,5,Within Domain,1,500\n2,ReflectX,1,cross domain,1,100\n\
             2,ReflectX,1,Within Domain,1.0,200\n2,ReflectX,1,Extrapolation,0.0,300\n"
        );
        let r = score_human(&HumanData::parse("h.csv", text.as_bytes()).unwrap()).unwrap();
        assert_eq!(r.rows.trials, 3);
        assert_eq!(r.rows.empty_answers["extrapolation"], 1);
        assert_eq!(r.warnings.counts["trial without a row for a stage"], 1);
        let red = r.by_subdomain["ColourRed"];
        // cross (1, 0): mean 0.5, population SD 0.5, SE 0.5 / sqrt(2) = 0.35355.
        assert!((red.cross.unwrap().mean - 0.5).abs() < 1e-15);
        assert!((red.cross.unwrap().se - 0.5 / 2f64.sqrt()).abs() < 1e-15);
        // within (0, 1) -> 0.5; extrapolation only trial 1 -> 1.0 with n = 1.
        assert_eq!(red.extrapolation.unwrap().n, 1);
        // Overall cross: (1, 0, 1) -> 2/3.
        assert!((r.overall.cross.unwrap().mean - 2.0 / 3.0).abs() < 1e-15);
        let rt = &r.reaction_time.as_ref().unwrap()["ColourRed"];
        // All five ColourRed times: 500, 1000, 2000, 3000, 4000 -> median 2000, mean 2100.
        assert_eq!(rt.all.median_ms, 2000.0);
        assert_eq!(rt.all.mean_ms, 2100.0);
        // Within: 2000 and 500 -> median 1250.
        assert_eq!(rt.within.unwrap().median_ms, 1250.0);
        assert_eq!(r.by_domain["Reflect"].extrapolation.unwrap().mean, 0.0);
    }

    #[test]
    fn errors_name_line_and_column() {
        let cases = [
            (
                format!("{HEADER}1,ColourRed,3,Middle,1,100\n"),
                "h.csv line 2: field \"Task\": expected Cross Domain, Within Domain or Extrapolation, found \"Middle\"",
            ),
            (
                format!("{HEADER}1,ColourRed,3,Extrapolation,2,100\n"),
                "h.csv line 2: field \"Score\": expected 1 or 0, found \"2\"",
            ),
            (
                format!("{HEADER}1,ColourRed,3,Extrapolation,1,fast\n"),
                "h.csv line 2: field \"Reaction Time\": expected a non-negative number of milliseconds, found \"fast\"",
            ),
            (
                format!("{HEADER}1,ColourRed,3,Extrapolation,1,10\n1,ColourRed,3,Extrapolation,0,20\n"),
                "h.csv line 3: participant 1, ColourRed variation 3, Extrapolation already on line 2",
            ),
            (
                "ParticipantID,Transformation,Task\n1,ColourRed,Extrapolation\n".to_string(),
                "h.csv: missing column(s) Variation, Score, Reaction Time; the header has ParticipantID, Transformation, Task",
            ),
        ];
        for (text, msg) in cases {
            assert_eq!(
                HumanData::parse("h.csv", text.as_bytes())
                    .unwrap_err()
                    .to_string(),
                msg
            );
        }
    }
}
