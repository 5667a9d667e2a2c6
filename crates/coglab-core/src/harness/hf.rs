//! Hugging Face Eval Results entries: what a model repository's `.eval_results/<benchmark>.yaml`
//! lists (huggingface.co/docs/hub/eval-results; the field list in the `hub-docs` repository's
//! `eval_results.yaml`): per headline metric `dataset: {id, task_id}` (the benchmark's Hub
//! dataset and the task its `eval.yaml` defines), `value`, `date`, `source: {url, name}` and
//! `notes`. This module builds the entries from scored reports and writes them as YAML
//! ([`to_yaml`]), for `coglab export hf` and the model page's download (the worker calls it).
//!
//! Values: a proportion is written as a percentage (× 100), as Every Eval Ever's own converter
//! to these entries writes proportions (`every_eval_ever/tools/hf_community_evals.py`,
//! `_community_eval_value`), and as the Hub's example (HLE `20.90`) shows; MM-OPERA's reasoning
//! score S_r, not a proportion, is written as it is. `notes` gives the 95% interval coglab
//! computes, its method and n, in the value's unit.
//!
//! Task ids are coglab's (the datasets have no `eval.yaml` yet; README.md shows the one a
//! maintainer would add): MM-IQ `mmiq`; KiVA `<variant>_<stage>` (`kiva_cross`,
//! `kiva_within_conditional`, `kiva_within_joint`, `kiva_extrapolation`, or `kiva-adults_...`);
//! MM-OPERA `<task>_<metric>` (`ria_score_rate`, `ria_hr3`, `ria_hr4`, `ria_delta_hr`,
//! `ria_reasoning_score`, the same with `ica_`).

use serde::{Deserialize, Serialize};

use crate::kiva::KivaReport;
use crate::mmiq::MmiqReport;

/// MM-IQ's Hub dataset.
pub const MMIQ_DATASET: &str = "huanqia/MM-IQ";
/// MM-OPERA's Hub dataset.
pub const MMOPERA_DATASET: &str = "titic/MM-OPERA";
/// KiVA's default dataset id: KiVA has no Hub dataset coglab knows of (its data is in the
/// GitHub repository `ey242/KiVA`), so the default is that repository's `owner/name`; an
/// entry naming it shows on the Hub only once a dataset of that id is a registered benchmark.
pub const KIVA_DATASET: &str = "ey242/KiVA";

/// The benchmark dataset and task an entry is for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HfDataset {
    /// The Hub dataset id (`org/name`).
    pub id: String,
    /// The task, as the dataset's `eval.yaml` defines it.
    pub task_id: String,
}

/// Where an entry comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HfSource {
    /// A link to the source.
    pub url: String,
    /// Its display name.
    pub name: String,
}

/// One entry of `.eval_results/<benchmark>.yaml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HfEntry {
    /// The benchmark dataset and task.
    pub dataset: HfDataset,
    /// The metric's value (a proportion as a percentage).
    pub value: f64,
    /// ISO-8601 date of the evaluation (`YYYY-MM-DD`).
    pub date: String,
    /// The source.
    pub source: HfSource,
    /// The interval, its method and n.
    pub notes: String,
}

/// What every entry of one export shares.
#[derive(Debug, Clone, PartialEq)]
pub struct HfCommon {
    /// The Hub dataset id (`None`: the benchmark's default).
    pub dataset_id: Option<String>,
    /// The date (`YYYY-MM-DD`, [`check_date`]).
    pub date: String,
    /// The source.
    pub source: HfSource,
}

/// A proportion as a percentage, to 10 decimals (as Every Eval Ever's converter rounds).
fn pct(x: f64) -> f64 {
    (x * 100.0 * 1e10).round() / 1e10
}

fn entry(c: &HfCommon, default_id: &str, task_id: String, value: f64, notes: String) -> HfEntry {
    HfEntry {
        dataset: HfDataset {
            id: c
                .dataset_id
                .clone()
                .unwrap_or_else(|| default_id.to_string()),
            task_id,
        },
        value,
        date: c.date.clone(),
        source: c.source.clone(),
        notes,
    }
}

/// The version note every entry ends with.
fn scored_by() -> String {
    format!("scored by coglab {}", env!("CARGO_PKG_VERSION"))
}

/// An export argument that cannot be used: which one (`model`, `dataset-id`, `date`,
/// `source-url`) and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadArgument {
    /// The argument.
    pub field: &'static str,
    /// What was expected and found.
    pub message: String,
}

/// What the entries of one export share, from the arguments `coglab export hf` and the model
/// page take: the model's Hub id (`org/name`; the default source link is its page), an optional
/// dataset id, the date (`YYYY-MM-DD`), and an optional source link (`http(s)://`, one line)
/// and name (default `coglab`).
///
/// # Errors
/// [`BadArgument`] naming the first argument that is not of its form.
pub fn common(
    model: &str,
    dataset_id: Option<&str>,
    date: &str,
    source_url: Option<&str>,
    source_name: Option<&str>,
) -> Result<HfCommon, BadArgument> {
    let bad = |field, message| Err(BadArgument { field, message });
    if !is_repo_id(model) {
        return bad(
            "model",
            format!("expected a Hub model id ORG/NAME (letters, digits, '-', '_', '.'; no '..'), found {model:?}"),
        );
    }
    if let Some(id) = dataset_id.filter(|d| !is_repo_id(d)) {
        return bad(
            "dataset-id",
            format!("expected a Hub dataset id ORG/NAME, found {id:?}"),
        );
    }
    if let Err(e) = check_date(date) {
        return bad("date", e);
    }
    let url = match source_url {
        Some(u) => {
            let ok = (u.starts_with("https://") || u.starts_with("http://"))
                && !u.chars().any(|c| c.is_whitespace() || c.is_control());
            if !ok {
                return bad(
                    "source-url",
                    format!("expected an http(s):// link without spaces, found {u:?}"),
                );
            }
            u.to_string()
        }
        None => format!("https://huggingface.co/{model}"),
    };
    Ok(HfCommon {
        dataset_id: dataset_id.map(str::to_string),
        date: date.to_string(),
        source: HfSource {
            url,
            name: source_name.unwrap_or("coglab").to_string(),
        },
    })
}

/// `entries` as the YAML of one `.eval_results/<benchmark>.yaml` file (a list of mappings),
/// written with `serde_norway`.
///
/// # Errors
/// The serializer's message (it does not fail on these plain values in practice).
pub fn to_yaml(entries: &[HfEntry]) -> Result<String, String> {
    serde_norway::to_string(entries).map_err(|e| e.to_string())
}

/// The file name of a KiVA variant's entries (`kiva.yaml`, `kiva-adults.yaml`).
pub fn kiva_file_name(variant: crate::kiva::Variant) -> String {
    format!("{}.yaml", variant.name().to_ascii_lowercase())
}

/// MM-IQ's entry: the accuracy over the scored items (task `mmiq`), with the Wilson 95%
/// interval the report gives.
///
/// # Examples
/// ```
/// use coglab_core::harness::hf::{mmiq_entries, HfCommon, HfSource};
/// use coglab_core::mmiq::{score, AnswerKey, Predictions};
/// let key = AnswerKey::parse("key.jsonl", concat!(
///     r#"{"category": "Mathematical", "data_id": 0, "answer": "A"}"#, "\n",
///     r#"{"category": "Mathematical", "data_id": 1, "answer": "B"}"#, "\n")).unwrap();
/// let preds = Predictions::parse("p.jsonl", concat!(
///     r#"{"data_id": 0, "response": "A"}"#, "\n", r#"{"data_id": 1, "response": "C"}"#).as_bytes()).unwrap();
/// let report = score(&key, &preds).unwrap();
/// let common = HfCommon { dataset_id: None, date: "2026-01-02".into(),
///     source: HfSource { url: "https://huggingface.co/o/m".into(), name: "coglab".into() } };
/// let e = &mmiq_entries(&report, &common)[0];
/// assert_eq!((e.dataset.id.as_str(), e.dataset.task_id.as_str(), e.value), ("huanqia/MM-IQ", "mmiq", 50.0));
/// ```
pub fn mmiq_entries(report: &MmiqReport, c: &HfCommon) -> Vec<HfEntry> {
    mmiq_accuracy_entries(&report.overall, c)
}

/// [`mmiq_entries`] of the overall accuracy alone (what a published bundle keeps of a run).
fn mmiq_accuracy_entries(a: &crate::stats::interval::Accuracy, c: &HfCommon) -> Vec<HfEntry> {
    vec![entry(
        c,
        MMIQ_DATASET,
        "mmiq".into(),
        pct(a.accuracy),
        format!(
            "accuracy over the items scored ({} of {} right, answers extracted with MM-IQ's rules); \
             95% Wilson score interval [{:.2}, {:.2}] %, n = {} items; {}",
            a.correct,
            a.n,
            100.0 * a.ci_low,
            100.0 * a.ci_high,
            a.n,
            scored_by()
        ),
    )]
}

/// KiVA's entries: each stage's mean over trials (the share of regenerations right, 0/1 for a
/// person), overall, with the 95% interval the leaderboard shows
/// ([`crate::leaderboard::metrics::kiva_stage_interval`]: Wilson's with the trials' effective
/// size and Student t on trials − 1 degrees of freedom, issue 40's coverage table).
pub fn kiva_entries(report: &KivaReport, c: &HfCommon) -> Vec<HfEntry> {
    kiva_stage_entries(report.variant, &report.overall, report.null, c)
}

/// [`kiva_entries`] of a variant's overall stage figures, their `Null` rule named in the notes.
fn kiva_stage_entries(
    variant: crate::kiva::Variant,
    overall: &crate::kiva::StageStats,
    null: crate::kiva::NullAnswers,
    c: &HfCommon,
) -> Vec<HfEntry> {
    let variant = variant.name();
    let mut out = Vec::new();
    for (key, what) in [
        ("cross", "stage 1, what changed (cross-domain)"),
        (
            "within_conditional",
            "stage 2, how it changed (within-domain), over the regenerations right at stage 1",
        ),
        (
            "within_joint",
            "stage 2, how it changed (within-domain), a regeneration wrong at stage 1 counted wrong",
        ),
        ("extrapolation", "stage 3, apply the change (extrapolation)"),
    ] {
        let Some(m) = overall.get(key) else {
            continue;
        };
        let (lo, hi) = crate::leaderboard::metrics::kiva_stage_interval(m);
        out.push(entry(
            c,
            KIVA_DATASET,
            format!("{}_{key}", variant.to_ascii_lowercase()),
            pct(m.mean),
            format!(
                "{variant} {what}: mean share right over trials; 95% interval (Wilson with the \
                 trials' effective size, Student t on n − 1 df) [{:.2}, {:.2}] %, n = {} trials; \
                 answers naming no option counted {}; {}",
                100.0 * lo,
                100.0 * hi,
                m.n,
                null.name(),
                scored_by()
            ),
        ));
    }
    out
}

/// MM-OPERA's entries for one task: SR, HR-3, HR-4 and ΔHR (percentages) with the 95%
/// interval of the ratio estimate over items ([`crate::leaderboard::mmopera::estimates`]), and
/// the mean reasoning score S_r (as it is) with mean ± t(0.975, n − 1) SE over items when it is a mean
/// over items. `items` are the report's items as SR counts them
/// ([`crate::leaderboard::mmopera::item_score`]); without an interval (fewer than two items)
/// the notes say so.
pub fn mmopera_entries(
    report: &crate::mmopera::score::Report,
    items: &[crate::leaderboard::mmopera::ItemScores],
    c: &HfCommon,
) -> Vec<HfEntry> {
    let task = report.task.name();
    let lower = task.to_ascii_lowercase();
    let est = crate::leaderboard::mmopera::estimates(items);
    let mut out = Vec::new();
    if let Some(h) = &report.holistic {
        type Of = fn(
            &crate::leaderboard::mmopera::TaskEstimates,
        ) -> crate::leaderboard::mmopera::RatioEstimate;
        let metrics: [(&str, &str, f64, Of); 4] = [
            (
                "score_rate",
                "SR, Σscore / 4N of the judge's 0-4 verdicts",
                h.score_rate,
                |e| e.sr,
            ),
            (
                "hr3",
                "HR-3, share of verdicts scoring 3 or 4",
                h.hr3,
                |e| e.hr3,
            ),
            ("hr4", "HR-4, share of verdicts scoring 4", h.hr4, |e| e.hr4),
            ("delta_hr", "ΔHR = HR-3 − HR-4", h.delta_hr, |e| {
                e.delta_hr
            }),
        ];
        for (key, what, value, of) in metrics {
            let interval = match &est {
                Some(e) => {
                    let r = of(e);
                    format!(
                        "95% interval (Wilson with the ratio estimate's effective size, items as \
                         clusters, Student t on items − 1 df) [{:.2}, {:.2}] %, n = {} items ({} verdicts)",
                        100.0 * r.lower,
                        100.0 * r.upper,
                        e.items,
                        e.verdicts
                    )
                }
                None => format!("no interval (fewer than two items), n = {} verdicts", h.n),
            };
            out.push(entry(
                c,
                MMOPERA_DATASET,
                format!("{lower}_{key}"),
                pct(value),
                format!("MM-OPERA {task} {what}; {interval}; {}", scored_by()),
            ));
        }
    }
    if let Some(r) = &report.reasoning {
        let interval = match (est.and_then(|e| e.reasoning), r.ica_average) {
            (Some(m), crate::mmopera::score::IcaAverage::Items) => {
                let (lo, hi) = crate::stats::describe::t_interval(m);
                format!(
                    "95% interval (mean ± t(0.975, n − 1) SE over items) [{lo:.4}, {hi:.4}], n = {} items",
                    m.n
                )
            }
            _ => format!("no interval, n = {} items", r.n),
        };
        out.push(entry(
            c,
            MMOPERA_DATASET,
            format!("{lower}_reasoning_score"),
            r.mean_score,
            format!(
                "MM-OPERA {task} mean process-reward score S_r (not a percentage; α = {}, γ = {}, \
                 decay {}); {interval}; {}",
                r.alpha,
                r.gamma,
                r.decay_exponent.name(),
                scored_by()
            ),
        ));
    }
    out
}

/// The entries of one run of a published bundle ([`crate::publish`]), the same as those of
/// the result files it was published from: `Some((file name, entries))` for an MM-IQ or KiVA
/// run, `None` for a run of another benchmark (MM-OPERA, Gold: not written from a bundle).
///
/// What the bundle keeps is enough to compute the entries again exactly: MM-IQ's right and
/// scored counts (the index rounds the accuracy and interval to 6 decimals, so they are
/// computed again from the counts), and KiVA's per-trial stage scores from the model's chunk
/// (`items`), each read back as the share of regenerations it stands for (a JSON float read by
/// serde_json may be a unit in the last place off it), aggregated as the scorer does. A
/// published KiVA run is scored with `Null` answers counted wrong, as the leaderboard scores it.
///
/// # Errors
/// A message when a KiVA run's items are missing from `items` or are not KiVA trials, or an
/// MM-IQ run has no item scored.
pub fn bundle_entries(
    run: &crate::publish::bundle::RunIndex,
    items: Option<&crate::publish::bundle::RunItems>,
    c: &HfCommon,
) -> Result<Option<(String, Vec<HfEntry>)>, String> {
    use crate::publish::bundle::{Figures, RunItems};
    use crate::publish::Benchmark;
    match (&run.figures, run.benchmark) {
        (Figures::Mmiq { overall, .. }, _) => {
            let a =
                crate::stats::interval::Accuracy::new(overall.k, overall.n).ok_or_else(|| {
                    format!(
                        "the MM-IQ run scores {} of {} items: nothing to export",
                        overall.k, overall.n
                    )
                })?;
            Ok(Some(("mmiq.yaml".into(), mmiq_accuracy_entries(&a, c))))
        }
        (Figures::Kiva { .. }, b @ (Benchmark::Kiva | Benchmark::KivaAdults)) => {
            let variant = if b == Benchmark::Kiva {
                crate::kiva::Variant::Kiva
            } else {
                crate::kiva::Variant::KivaAdults
            };
            let Some(RunItems::Kiva(trials)) = items else {
                return Err(format!(
                    "the model's chunk has no {} trials (the entries are computed from them)",
                    variant.name()
                ));
            };
            let share =
                |x: Option<f64>| x.map(|x| super::eee::share(x, super::eee::MOST_REGENERATIONS));
            let trials: Vec<crate::kiva::TrialResult> = trials
                .iter()
                .map(
                    |(domain, subdomain, variation, cross, wc, wj, ex)| crate::kiva::TrialResult {
                        domain: domain.clone(),
                        subdomain: subdomain.clone(),
                        variation: *variation,
                        participant: None,
                        rows: 0,
                        line: 0,
                        cross: share(*cross),
                        within_conditional: share(*wc),
                        within_joint: share(*wj),
                        extrapolation: share(*ex),
                    },
                )
                .collect();
            let overall = crate::kiva::StageStats::of(&trials);
            Ok(Some((
                kiva_file_name(variant),
                kiva_stage_entries(variant, &overall, crate::kiva::NullAnswers::Wrong, c),
            )))
        }
        _ => Ok(None),
    }
}

/// Whether `id` is a Hub repository id `org/name`: two parts of 1 to 96 characters, letters,
/// digits, `-`, `_` and `.`, neither starting nor ending with `-` or `.`, without `--` or `..`
/// (the Hub's rule for repository names).
///
/// # Examples
/// ```
/// use coglab_core::harness::hf::is_repo_id;
/// assert!(is_repo_id("huanqia/MM-IQ") && is_repo_id("openai/gpt-4o_2024.08"));
/// for bad in ["gpt-4o", "a/b/c", "../x", "a/..", "a/b\nc", "a/.b", "a/b-", "a/b--c", "/b", "a/"] {
///     assert!(!is_repo_id(bad), "{bad:?}");
/// }
/// ```
pub fn is_repo_id(id: &str) -> bool {
    let Some((org, name)) = id.split_once('/') else {
        return false;
    };
    [org, name].iter().all(|p| {
        (1..=96).contains(&p.len())
            && p.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
            && !p.starts_with(['-', '.'])
            && !p.ends_with(['-', '.'])
            && !p.contains("--")
            && !p.contains("..")
    })
}

/// Checks a `YYYY-MM-DD` date (a real day of the Gregorian calendar).
///
/// # Errors
/// What was expected, when `date` is not one.
///
/// # Examples
/// ```
/// use coglab_core::harness::hf::check_date;
/// assert!(check_date("2024-02-29").is_ok());
/// assert!(check_date("2023-02-29").is_err() && check_date("2024-1-5").is_err());
/// ```
pub fn check_date(date: &str) -> Result<(), String> {
    let bad = || format!("expected a date YYYY-MM-DD, found {date:?}");
    let b = date.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return Err(bad());
    }
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        let s = date.get(r)?;
        s.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| s.parse().ok())?
    };
    let (Some(y), Some(m), Some(d)) = (num(0..4), num(5..7), num(8..10)) else {
        return Err(bad());
    };
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return Err(bad()),
    };
    if d == 0 || d > days {
        return Err(bad());
    }
    Ok(())
}

/// The UTC date (`YYYY-MM-DD`) of a Unix time in seconds (Howard Hinnant's `civil_from_days`).
///
/// # Examples
/// ```
/// use coglab_core::harness::hf::utc_date;
/// assert_eq!(utc_date(0), "1970-01-01");
/// assert_eq!(utc_date(1_717_243_200), "2024-06-01"); // 2024-06-01 12:00:00 UTC
/// assert_eq!(utc_date(951_782_400), "2000-02-29");
/// ```
pub fn utc_date(unix_secs: u64) -> String {
    let z = (unix_secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}
