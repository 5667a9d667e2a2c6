//! `coglab items`: item analysis across models and humans (issue 22).
//!
//! Reads scored results and prints the item analysis of `coglab_core::items` (classical
//! statistics, Rasch/2PL fit, flags, group gaps, reduced subset) as a table or JSON. Inputs:
//! - `--answers KEY` and MM-IQ predictions files: one respondent per file;
//! - KiVA: model-run folders (each folder one model, its CSVs found recursively) and/or the
//!   adults' `human_adults_KiVA.csv` (one respondent per participant);
//! - otherwise one response-matrix CSV (respondent id, then 1/0/empty per item).
//!
//! The options live in [`ItemsOptions`] so the argument parser can change without touching
//! [`run`].

use super::kiva::{csv_files, is_human};
use super::{emit, file_name, print_json as emit_json, read_bytes, CliError};
use crate::cli::ItemsArgs;
use coglab_core::items::{
    analyse, AnalysisOptions, IrtModel, IrtOptions, ItemAnalysis, KivaItemOptions, KivaStages,
    ResponseMatrix, SubsetCriterion, SubsetOptions,
};
use coglab_core::kiva::{score_human, score_model, HumanData, KivaReport};
use coglab_core::mmiq::{score_owned, AnswerKey, Predictions};
use std::path::Path;

/// The options of `coglab items`.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemsOptions {
    /// IRT model (default 2PL).
    pub model: IrtModel,
    /// Print JSON instead of a table.
    pub json: bool,
    /// MM-IQ answer key: the inputs are MM-IQ predictions files.
    pub answers: Option<String>,
    /// Input files or folders.
    pub inputs: Vec<String>,
    /// KiVA stages used as items (default all three).
    pub stage: KivaStages,
    /// KiVA model runs: a trial stage is right when its mean over regenerations is at least
    /// this (default 0.5).
    pub threshold: f64,
    /// Reduced-subset criterion (`None`: no subset).
    pub subset: Option<SubsetCriterion>,
    /// Kendall tau the subset must keep (default 0.95).
    pub target_tau: f64,
    /// Include each item's ICC and information curve in the JSON.
    pub curves: bool,
    /// KiVA: one item per subdomain and stage instead of per trial.
    pub per_subdomain: bool,
    /// With `json`: print the page-sized [`coglab_core::items::ItemsReport`].
    pub report: bool,
}

impl Default for ItemsOptions {
    fn default() -> Self {
        Self {
            model: IrtModel::TwoPl,
            json: false,
            answers: None,
            inputs: Vec::new(),
            stage: KivaStages::All,
            threshold: 0.5,
            subset: Some(SubsetCriterion::Information),
            target_tau: 0.95,
            curves: false,
            per_subdomain: false,
            report: false,
        }
    }
}

impl ItemsOptions {
    /// Reads the options from `coglab items`' arguments.
    ///
    /// # Errors
    /// [`CliError::Usage`] for bad values or no input.
    pub fn from_cli(a: &ItemsArgs) -> Result<Self, CliError> {
        let mut o = Self {
            json: a.json,
            curves: a.curves,
            report: a.report,
            per_subdomain: a.per_subdomain,
            answers: a.answers.clone(),
            inputs: a.inputs.clone(),
            ..Self::default()
        };
        if let Some(m) = a.model.as_deref() {
            o.model = IrtModel::parse(m).map_err(|e| CliError::Usage(e.to_string()))?;
        }
        if let Some(s) = a.stage.as_deref() {
            o.stage = match s {
                "all" => KivaStages::All,
                "cross" => KivaStages::Cross,
                "within" => KivaStages::Within,
                "extrapolation" => KivaStages::Extrapolation,
                _ => {
                    return Err(CliError::Usage(format!(
                        "--stage: expected all, cross, within or extrapolation, found {s:?}"
                    )))
                }
            };
        }
        if let Some(t) = a.threshold {
            o.threshold = t;
        }
        if let Some(t) = a.tau {
            o.target_tau = t;
        }
        if let Some(s) = a.subset.as_deref() {
            o.subset = match s {
                "information" => Some(SubsetCriterion::Information),
                "discrimination" => Some(SubsetCriterion::Discrimination),
                "none" => None,
                _ => {
                    return Err(CliError::Usage(format!(
                        "--subset: expected information, discrimination or none, found {s:?}"
                    )))
                }
            };
        }
        if o.inputs.is_empty() {
            return Err(CliError::Usage(
                "items: give a response-matrix CSV, KiVA run folders and/or the adults' CSV, \
                 or MM-IQ predictions files with --answers KEY"
                    .into(),
            ));
        }
        Ok(o)
    }
}

/// The file stem of a path (a model's name from its predictions file or run folder).
fn stem(path: &str) -> String {
    let p = Path::new(path.trim_end_matches('/'));
    p.file_stem()
        .map_or_else(|| path.to_string(), |s| s.to_string_lossy().into_owned())
}

fn mmiq_matrix(key_path: &str, inputs: &[String]) -> Result<ResponseMatrix, CliError> {
    let key = AnswerKey::parse_bytes(&file_name(key_path), &read_bytes(key_path)?)?;
    let mut reports = Vec::with_capacity(inputs.len());
    for p in inputs {
        let preds = Predictions::parse(&file_name(p), &read_bytes(p)?)?;
        reports.push((stem(p), score_owned(&key, preds)?));
    }
    let refs: Vec<(&str, &_)> = reports.iter().map(|(n, r)| (n.as_str(), r)).collect();
    Ok(ResponseMatrix::from_mmiq(&key, &refs)?)
}

/// KiVA inputs, or `None` when the inputs are not KiVA files.
fn kiva_matrix(opts: &ItemsOptions) -> Result<Option<ResponseMatrix>, CliError> {
    let mut models: Vec<(String, KivaReport)> = Vec::new();
    let mut human: Option<(String, KivaReport)> = None;
    for input in &opts.inputs {
        let files = csv_files(input)?;
        let mut runs: Vec<(String, Vec<u8>)> = Vec::new();
        for f in files {
            let bytes = read_bytes(&f)?;
            if is_human(&bytes) {
                if let Some((first, _)) = &human {
                    return Err(CliError::Usage(format!(
                        "items: two human data files given ({first} and {f}); give one"
                    )));
                }
                let report = score_human(&HumanData::parse(&file_name(&f), &bytes)?)?;
                human = Some((f, report));
            } else if bytes.starts_with(b"Variation,")
                || bytes.starts_with(b"\xEF\xBB\xBFVariation,")
            {
                runs.push((f, bytes));
            } else if Path::new(input).is_dir() {
                continue;
            } else {
                return Ok(None);
            }
        }
        if !runs.is_empty() {
            let report = score_model(runs.iter().map(|(p, b)| (p.as_str(), b.as_slice())))?;
            models.push((stem(input), report));
        }
    }
    if models.is_empty() && human.is_none() {
        return Ok(None);
    }
    let refs: Vec<(&str, &KivaReport)> = models.iter().map(|(n, r)| (n.as_str(), r)).collect();
    let kopts = KivaItemOptions {
        stages: opts.stage,
        threshold: opts.threshold,
        per_subdomain: opts.per_subdomain,
    };
    Ok(Some(ResponseMatrix::from_kiva(
        &refs,
        human.as_ref().map(|(_, r)| r),
        &kopts,
    )?))
}

/// Builds the response matrix the options describe.
///
/// # Errors
/// [`CliError::Input`] for unreadable or invalid files, [`CliError::Usage`] for a combination
/// that makes no matrix (e.g. two response-matrix CSVs).
pub fn matrix(opts: &ItemsOptions) -> Result<ResponseMatrix, CliError> {
    if let Some(key) = &opts.answers {
        return mmiq_matrix(key, &opts.inputs);
    }
    if let Some(m) = kiva_matrix(opts)? {
        return Ok(m);
    }
    match opts.inputs.as_slice() {
        [one] => Ok(ResponseMatrix::parse_csv(
            &file_name(one),
            &read_bytes(one)?,
        )?),
        more => Err(CliError::Usage(format!(
            "items: expected one response-matrix CSV, found {} inputs (KiVA run folders and the \
             adults' CSV may be combined; MM-IQ predictions need --answers KEY)",
            more.len()
        ))),
    }
}

/// `coglab items`: builds the matrix, runs the analysis and prints it.
///
/// # Errors
/// As [`matrix`], and [`CliError::Input`] when the matrix cannot be analysed (the message
/// says why: one respondent, everything missing, no item with both right and wrong answers).
pub fn run(opts: &ItemsOptions) -> Result<(), CliError> {
    let m = matrix(opts)?;
    let aopts = AnalysisOptions {
        irt: IrtOptions {
            model: opts.model,
            item_curves: opts.curves,
            ..IrtOptions::default()
        },
        subset: opts.subset.map(|criterion| SubsetOptions {
            criterion,
            target_tau: opts.target_tau,
            ..SubsetOptions::default()
        }),
        ..AnalysisOptions::default()
    };
    let a = analyse(&m, &aopts)?;
    if opts.json && opts.report {
        return emit_json(&coglab_core::items::report(
            &a,
            &coglab_core::items::ReportOptions::default(),
        ));
    }
    if opts.json {
        emit_json(&a)
    } else {
        let mut out = String::new();
        print_analysis(&mut out, &a);
        emit(&out)
    }
}

fn num(v: Option<f64>, digits: usize) -> String {
    v.map_or_else(|| "-".into(), |x| format!("{x:.digits$}"))
}

fn print_analysis(out: &mut String, a: &ItemAnalysis) {
    let model = match a.model {
        IrtModel::Rasch => "Rasch",
        IrtModel::TwoPl => "2PL",
    };
    outln!(
        out,
        "Item analysis of {}: {} respondents x {} items; {model} {} after {} EM cycles (log-likelihood {:.2})",
        a.source,
        a.respondents.len(),
        a.items.len(),
        if a.converged { "converged" } else { "did NOT converge" },
        a.iterations,
        a.irt.log_likelihood
    );
    let c = &a.classical;
    outln!(
        out,
        "Cronbach's alpha {} on {} complete respondents",
        num(c.alpha, 3),
        c.alpha_n
    );
    if let Some((letter, share)) = &c.key_letters.majority {
        outln!(
            out,
            "answer keys: {} (majority-class baseline: always {letter} = {:.1}%)",
            c.key_letters
                .counts
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", "),
            100.0 * share
        );
    }
    if let Some((letter, share)) = &c.response_letters.majority {
        outln!(
            out,
            "answers given: most common {letter} ({:.1}% of {})",
            100.0 * share,
            c.response_letters.total
        );
    }
    let count =
        |f: coglab_core::items::Flag| a.items.iter().filter(|i| i.flags.contains(&f)).count();
    use coglab_core::items::Flag;
    outln!(
        out,
        "flags: {} no one right, {} everyone right, {} negative discrimination, {} low discrimination, {} negative 2PL slope, {} poor fit, {} S-X2 misfit",
        count(Flag::NoneRight),
        count(Flag::AllRight),
        count(Flag::NegativeDiscrimination),
        count(Flag::LowDiscrimination),
        count(Flag::NegativeSlope),
        count(Flag::PoorFit),
        count(Flag::Sx2Misfit)
    );
    let suspects: Vec<_> = a
        .items
        .iter()
        .filter(|i| {
            i.flags.iter().any(|f| {
                matches!(
                    f,
                    Flag::NegativeDiscrimination
                        | Flag::NegativeSlope
                        | Flag::PoorFit
                        | Flag::Sx2Misfit
                )
            })
        })
        .collect();
    if !suspects.is_empty() {
        outln!(
            out,
            "\nsuspect items (up to 30):\n{:<28} {:>5} {:>6} {:>7} {:>7} {:>7} {:>7} {:>9}  flags / most frequent wrong answer",
            "item",
            "n",
            "p",
            "r_pb",
            "a",
            "b",
            "outfit",
            "S-X2 p"
        );
        for i in suspects.iter().take(30) {
            let flags: Vec<String> = i
                .flags
                .iter()
                .map(|f| {
                    serde_json::to_value(f)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_string))
                        .unwrap_or_default()
                })
                .collect();
            let wrong = i
                .most_frequent_wrong
                .as_ref()
                .map_or(String::new(), |(k, n)| format!(" / {k} x{n}"));
            outln!(
                out,
                "{:<28} {:>5} {:>6} {:>7} {:>7} {:>7} {:>7} {:>9}  {}{wrong}",
                i.id,
                i.n,
                num(i.p, 3),
                num(i.point_biserial, 3),
                num(i.a, 2),
                num(i.b, 2),
                num(i.outfit, 2),
                i.sx2
                    .as_ref()
                    .map_or("-".into(), |t| format!("{:.2e}", t.p)),
                flags.join(",")
            );
        }
    }
    if let Some(g) = &a.gaps {
        outln!(
            out,
            "\nlargest gaps, {} minus {} (proportion right):",
            g.first,
            g.second
        );
        for x in g.categories.iter().take(5) {
            outln!(
                out,
                "  category {:<22} {:+.3}  ({:.3} of {} vs {:.3} of {})",
                x.id,
                x.gap,
                x.p_first,
                x.n_first,
                x.p_second,
                x.n_second
            );
        }
        for x in g.items.iter().take(10) {
            outln!(
                out,
                "  item     {:<22} {:+.3}  ({:.3} of {} vs {:.3} of {})",
                x.id,
                x.gap,
                x.p_first,
                x.n_first,
                x.p_second,
                x.n_second
            );
        }
    }
    if let Some(s) = &a.subset {
        match s.size {
            Some(k) => outln!(
                out,
                "\nreduced subset: {k} of {} items keep Kendall tau >= {} for the {} ranked respondents ({:?})",
                s.order.len(),
                s.target_tau,
                s.ranked.len(),
                s.criterion
            ),
            None => outln!(
                out,
                "\nreduced subset: no subset keeps tau >= {} (the full scores may be tied)",
                s.target_tau
            ),
        }
    }
    for n in &a.notes {
        outln!(out, "note: {n}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ItemsOptions` from the words after `coglab items`, through the clap declaration.
    fn parse(words: &[&str]) -> Result<ItemsOptions, CliError> {
        use clap::Parser;
        let mut argv = vec!["coglab", "items"];
        argv.extend_from_slice(words);
        let cli =
            crate::cli::Cli::try_parse_from(argv).map_err(|e| CliError::Usage(e.to_string()))?;
        match cli.command {
            crate::cli::Command::Items(a) => ItemsOptions::from_cli(&a),
            _ => unreachable!("the words were given to `items`"),
        }
    }

    #[test]
    fn parses_options() {
        let o = parse(&["--model", "rasch", "m.csv", "--json", "--subset", "none"]).unwrap();
        assert_eq!(o.model, IrtModel::Rasch);
        assert!(o.json);
        assert_eq!(o.subset, None);
        assert_eq!(o.inputs, vec!["m.csv"]);
        assert!(matches!(
            parse(&["--model", "3pl", "m.csv"]),
            Err(CliError::Usage(_))
        ));
        assert!(matches!(parse(&[]), Err(CliError::Usage(_))));
    }
}
