//! `coglab rank BENCH [--answers KEY | --metadata META] FILES...` (issue 20): a leaderboard
//! with paired tests, adjusted p-values, rank ranges and groups, from one file or folder per
//! model (`NAME=PATH` names it; otherwise the name is guessed from the path as the web
//! leaderboard does).
//!
//! A thin wrapper over `coglab_core::ranks`: read the files, call the library, print a table
//! or JSON. The options are a plain struct ([`RankOptions`]), read from the clap arguments
//! ([`RankArgs`]).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use coglab_core::kiva::score_model;
use coglab_core::leaderboard::guess_model;
use coglab_core::leaderboard::mmopera::model_of;
use coglab_core::mmiq::{detect, score_owned, AccSummary, AnswerKey, MmiqFormat, Predictions};
use coglab_core::mmopera::files::RegularScores;
use coglab_core::mmopera::metadata::Metadata;
use coglab_core::ranks::extraction::{
    extraction_robustness, kiva_extraction_robustness, ExtractionRobustness, KivaExtraction,
};
use coglab_core::ranks::inputs::{kiva_items, mmiq_items, mmiq_key_items, KivaStage};
use coglab_core::ranks::judges::{judge_name, judge_robustness, JudgeFile, JudgeRobustness};
use coglab_core::ranks::{
    build_board, Adjust, Bench, Board, BoardInput, BoardOptions, Missing, ModelScores, PairTest,
    RankRange, ReportedRow,
};
use serde::Serialize;

use super::kiva::csv_files;
use super::{emit, file_name, print_json as emit_json, read_bytes, CliError};
use crate::cli::RankArgs;

/// Usage line of `coglab rank`.
pub const USAGE: &str = "rank mmiq|kiva|mmopera [--answers KEY] [--metadata META] [NAME=]PATH...
              [--answered-only] [--test mcnemar|midp|wilcoxon] [--adjust holm|bh|none]
              [--alpha A] [--resamples N] [--seed S] [--bootstrap-ranks] [--stage STAGE] [--json]";

/// Everything `coglab rank` needs.
#[derive(Debug, Clone, PartialEq)]
pub struct RankOptions {
    /// The benchmark.
    pub bench: Bench,
    /// MM-IQ answer key (required for MM-IQ).
    pub answers: Option<String>,
    /// MM-OPERA metadata (its ids are the benchmark's items; without it the judged items are).
    pub metadata: Option<String>,
    /// One entry per model: `PATH` or `NAME=PATH`; a file or a folder (KiVA run folder, or a
    /// folder of one model's MM-OPERA judge files). MM-OPERA files of one model name from
    /// several judges are pooled on the board and compared in the judge table.
    pub files: Vec<String>,
    /// KiVA stage ranked.
    pub stage: KivaStage,
    /// Board options (missing items, test, adjustment, α, resamples, seed, rank range).
    pub board: BoardOptions,
    /// JSON output.
    pub json: bool,
}

impl RankOptions {
    /// Reads the options from `coglab rank`'s arguments.
    ///
    /// # Errors
    /// [`CliError::Usage`] for an unknown benchmark or value.
    pub fn from_cli(a: &RankArgs) -> Result<Self, CliError> {
        let usage = |m: String| CliError::Usage(format!("{m}\n  usage: coglab {USAGE}"));
        let bench = Bench::parse(&a.bench).ok_or_else(|| {
            usage(format!(
                "rank: unknown benchmark {:?} (mmiq, kiva or mmopera)",
                a.bench
            ))
        })?;
        let defaults = BoardOptions::default();
        let board = BoardOptions {
            missing: if a.answered_only {
                Missing::AnsweredOnly
            } else {
                Missing::Wrong
            },
            test: match &a.test {
                Some(t) => Some(PairTest::parse(t).ok_or_else(|| {
                    usage(format!("--test: {t:?} is not mcnemar, midp or wilcoxon"))
                })?),
                None => None,
            },
            adjust: match &a.adjust {
                Some(s) => Adjust::parse(s)
                    .ok_or_else(|| usage(format!("--adjust: {s:?} is not holm, bh or none")))?,
                None => defaults.adjust,
            },
            alpha: a.alpha.unwrap_or(defaults.alpha),
            resamples: a.resamples.unwrap_or(defaults.resamples),
            seed: a.seed.unwrap_or(defaults.seed),
            range: if a.bootstrap_ranks {
                RankRange::Bootstrap
            } else {
                RankRange::Tests
            },
            ..defaults
        };
        if !(board.alpha > 0.0 && board.alpha < 1.0) {
            return Err(usage(format!(
                "--alpha: {} is not between 0 and 1",
                board.alpha
            )));
        }
        let stage = match &a.stage {
            Some(s) => KivaStage::parse(s).ok_or_else(|| {
                usage(format!(
                    "--stage: {s:?} is not cross, within_joint, within_conditional or extrapolation"
                ))
            })?,
            None => KivaStage::Cross,
        };
        Ok(Self {
            bench,
            answers: a.answers.clone(),
            metadata: a.metadata.clone(),
            files: a.files.clone(),
            stage,
            board,
            json: a.json,
        })
    }
}

/// What `coglab rank --json` prints: the board, plus the robustness tables that apply.
#[derive(Serialize)]
struct RankOutput {
    #[serde(flatten)]
    board: Board,
    /// MM-IQ: the board under the official, strict and lenient extractors.
    #[serde(skip_serializing_if = "Option::is_none")]
    extraction: Option<ExtractionRobustness>,
    /// KiVA: the stage's answers under the official, strict and lenient readings.
    #[serde(skip_serializing_if = "Option::is_none")]
    kiva_extraction: Option<KivaExtraction>,
    /// MM-OPERA with several judges per model.
    #[serde(skip_serializing_if = "Option::is_none")]
    judges: Option<JudgeRobustness>,
    /// Files that could not be read (the board is built from the others).
    skipped: Vec<String>,
}

/// `NAME=PATH` → (Some(NAME), PATH); `PATH` → (None, PATH). A path that exists as given is
/// never split (it may contain `=`).
fn split_name(entry: &str) -> (Option<&str>, &str) {
    if Path::new(entry).exists() {
        return (None, entry);
    }
    match entry.split_once('=') {
        Some((n, p)) if !n.is_empty() => (Some(n), p),
        _ => (None, entry),
    }
}

/// Runs `coglab rank`.
///
/// # Errors
/// [`CliError::Usage`] for missing options, [`CliError::Input`] when a required file cannot be
/// read or no model could be scored; a model file that cannot be read is skipped with a note.
pub fn run(opts: &RankOptions) -> Result<(), CliError> {
    let mut skipped = Vec::new();
    let mut extraction = None;
    let mut kiva_extraction = None;
    let mut judges = None;
    let input = match opts.bench {
        Bench::Mmiq => {
            let key_path = opts.answers.as_deref().ok_or_else(|| {
                CliError::Usage(format!(
                    "rank mmiq: --answers KEY is required\n  usage: coglab {USAGE}"
                ))
            })?;
            let key = AnswerKey::parse_bytes(&file_name(key_path), &read_bytes(key_path)?)?;
            let mut models = Vec::new();
            let mut reports = Vec::new();
            let mut reported = Vec::new();
            for entry in &opts.files {
                let (name, path) = split_name(entry);
                let name = name.map_or_else(|| guess_model(path), str::to_string);
                let bytes = match read_bytes(path) {
                    Ok(b) => b,
                    Err(CliError::Input(m) | CliError::Usage(m)) => {
                        skipped.push(m);
                        continue;
                    }
                };
                let fname = file_name(path);
                if detect(&fname, &bytes) == Some(MmiqFormat::VlmEvalKitAcc) {
                    match AccSummary::parse(&fname, &bytes) {
                        Ok(s) => {
                            if let Some(row) = s.rows.first() {
                                reported.push(ReportedRow {
                                    name,
                                    score: row.overall,
                                    low: None,
                                    high: None,
                                    interval_rank: 0,
                                    label: String::new(),
                                });
                            }
                        }
                        Err(e) => skipped.push(e.to_string()),
                    }
                    continue;
                }
                match Predictions::parse(&fname, &bytes).and_then(|p| score_owned(&key, p)) {
                    Ok(report) => {
                        models.push(mmiq_items(&name, path, &report));
                        reports.push((name, report));
                    }
                    Err(e) => skipped.push(e.to_string()),
                }
            }
            let refs: Vec<(String, &coglab_core::mmiq::MmiqReport)> =
                reports.iter().map(|(n, r)| (n.clone(), r)).collect();
            if !refs.is_empty() {
                extraction = Some(extraction_robustness(&refs, key.items.len()));
            }
            BoardInput {
                bench: Bench::Mmiq,
                benchmark_items: Some(mmiq_key_items(&key)),
                models,
                reported,
            }
        }
        Bench::Kiva => {
            let mut models = Vec::new();
            let mut runs = Vec::new();
            for entry in &opts.files {
                let (name, path) = split_name(entry);
                let paths = match csv_files(path) {
                    Ok(p) => p,
                    Err(CliError::Input(m) | CliError::Usage(m)) => {
                        skipped.push(m);
                        continue;
                    }
                };
                let mut files = Vec::new();
                for p in &paths {
                    match read_bytes(p) {
                        Ok(b) => files.push((p.clone(), b)),
                        Err(CliError::Input(m) | CliError::Usage(m)) => skipped.push(m),
                    }
                }
                let name = name.map_or_else(
                    || {
                        paths
                            .first()
                            .map_or_else(|| guess_model(path), |p| guess_model(p))
                    },
                    str::to_string,
                );
                match score_model(files.iter().map(|(p, b)| (p.as_str(), b.as_slice()))) {
                    Ok(report) => {
                        models.push(kiva_items(&name, &report, opts.stage));
                        runs.push((name, files));
                    }
                    Err(e) => skipped.push(format!("{name}: {e}")),
                }
            }
            let stage = match opts.stage {
                KivaStage::Cross => 1,
                KivaStage::WithinJoint | KivaStage::WithinConditional => 2,
                KivaStage::Extrapolation => 3,
            };
            if !runs.is_empty() {
                kiva_extraction = Some(kiva_extraction_robustness(&runs, stage));
            }
            BoardInput {
                bench: Bench::Kiva,
                benchmark_items: None,
                models,
                reported: vec![],
            }
        }
        Bench::Mmopera => {
            let metadata = match &opts.metadata {
                Some(p) => Some(Metadata::parse(&file_name(p), &read_bytes(p)?)?),
                None => None,
            };
            // (model, judge, scores)
            let mut judged: Vec<(String, String, RegularScores)> = Vec::new();
            for entry in &opts.files {
                let (name, path) = split_name(entry);
                let mut paths = Vec::new();
                if Path::new(path).is_dir() {
                    if let Ok(rd) = std::fs::read_dir(path) {
                        let mut v: Vec<String> = rd
                            .filter_map(Result::ok)
                            .map(|e| e.path().to_string_lossy().into_owned())
                            .filter(|p| p.to_ascii_lowercase().contains("regular_scoring"))
                            .collect();
                        v.sort();
                        paths.extend(v);
                    }
                    if paths.is_empty() {
                        skipped.push(format!(
                            "{path}: no *_regular_scoring*.json file in the folder"
                        ));
                    }
                } else {
                    paths.push(path.to_string());
                }
                for (k, p) in paths.iter().enumerate() {
                    let parsed = read_bytes(p).and_then(|b| {
                        RegularScores::parse(&file_name(p), &b)
                            .map_err(|e| CliError::Input(e.to_string()))
                    });
                    match parsed {
                        Ok(s) => {
                            let model = name.map_or_else(|| model_of(p), str::to_string);
                            let judge = judge_name(p, k);
                            judged.push((model, judge, s));
                        }
                        Err(CliError::Input(m) | CliError::Usage(m)) => skipped.push(m),
                    }
                }
            }
            let tasks: BTreeSet<&str> = judged.iter().map(|(_, _, s)| s.task.name()).collect();
            if tasks.len() > 1 {
                return Err(CliError::Input(
                    "rank mmopera: the files mix RIA and ICA judge files; rank one task at a time"
                        .into(),
                ));
            }
            let mut per_model: BTreeMap<&str, BTreeMap<String, Vec<f64>>> = BTreeMap::new();
            let mut per_model_judges: BTreeMap<&str, usize> = BTreeMap::new();
            for (m, _, s) in &judged {
                *per_model_judges.entry(m).or_default() += 1;
                let items = per_model.entry(m).or_default();
                for e in &s.entries {
                    items
                        .entry(e.id.clone())
                        .or_default()
                        .extend(e.verdicts.iter().map(|v| f64::from(v.counted()) / 4.0));
                }
            }
            if per_model_judges.values().any(|&n| n > 1) {
                let files: Vec<JudgeFile<'_>> = judged
                    .iter()
                    .map(|(m, j, s)| JudgeFile {
                        model: m,
                        judge: j,
                        scores: s,
                    })
                    .collect();
                let known: Option<BTreeSet<String>> = metadata
                    .as_ref()
                    .map(|m| m.items.iter().map(|i| i.id.clone()).collect());
                judges = Some(judge_robustness(&files, known.as_ref()));
            }
            BoardInput {
                bench: Bench::Mmopera,
                benchmark_items: metadata
                    .as_ref()
                    .map(|m| m.items.iter().map(|i| i.id.clone()).collect()),
                models: per_model
                    .into_iter()
                    .map(|(name, items)| ModelScores {
                        name: name.to_string(),
                        source: String::new(),
                        items,
                    })
                    .collect(),
                reported: vec![],
            }
        }
    };
    if input.models.is_empty() {
        return Err(CliError::Input(format!(
            "rank: no model could be scored{}",
            if skipped.is_empty() {
                String::new()
            } else {
                format!(":\n  {}", skipped.join("\n  "))
            }
        )));
    }
    let board = build_board(&input, &opts.board)?;
    let out = RankOutput {
        board,
        extraction,
        kiva_extraction,
        judges,
        skipped,
    };
    if opts.json {
        emit_json(&out)
    } else {
        emit(&render(&out))
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}", 100.0 * x)
}

fn p_text(p: Option<f64>) -> String {
    match p {
        None => "-".into(),
        Some(p) => coglab_core::stats::format_p(p),
    }
}

fn render(o: &RankOutput) -> String {
    let b = &o.board;
    let mut out = String::new();
    let bench = match b.bench {
        Bench::Mmiq => "MM-IQ",
        Bench::Kiva => "KiVA",
        Bench::Mmopera => "MM-OPERA",
    };
    outln!(
        out,
        "{bench} board: {} computed rows, {} items; scores with {}",
        b.models.len(),
        b.benchmark_size,
        b.missing_label
    );
    outln!(
        out,
        "pairs: {} on shared items, p adjusted by {}, α = {}; rank = {}",
        b.test,
        b.adjust,
        b.alpha,
        match b.range {
            RankRange::Tests => "best-worst rank consistent with the tests",
            RankRange::Bootstrap => "95% bootstrap rank interval",
        }
    );
    if let Some(m) = &b.mdd {
        outln!(out, "{}", m.text);
    }
    outln!(out, "");
    outln!(
        out,
        "{:<7} {:<28} {:>7} {:>15} {:>6} {:>9} {:>7}",
        "rank",
        "model",
        "score",
        "coverage",
        "group",
        "boot rank",
        "leader"
    );
    for m in &b.models {
        let rank = if m.rank_low == m.rank_high {
            m.rank_low.to_string()
        } else {
            format!("{}-{}", m.rank_low, m.rank_high)
        };
        let cov = format!(
            "{}/{}{}",
            m.n,
            m.benchmark_size,
            if m.full_coverage { "" } else { " (!)" }
        );
        let boot = match (m.boot_rank_low, m.boot_rank_high) {
            (Some(l), Some(h)) => format!("{l}-{h}"),
            _ => "-".into(),
        };
        outln!(
            out,
            "{:<7} {:<28} {:>7} {:>15} {:>6} {:>9} {:>7}",
            rank,
            m.name,
            pct(m.score),
            cov,
            m.group,
            boot,
            if m.leader_group { "yes" } else { "" }
        );
        if let Some(c) = &m.clustered {
            if (c.ratio - 1.0).abs() > 0.01 {
                outln!(
                    out,
                    "        SE {:.2} points naive (replicates independent), {:.2} clustered by item ({} items; KiVA: trials)",
                    100.0 * c.se_naive,
                    100.0 * c.se_clustered,
                    c.clusters
                );
            }
        }
    }
    if b.models.iter().any(|m| !m.full_coverage) {
        outln!(out, "(!) below full coverage: {}", b.missing_label);
    }
    if !b.reported.is_empty() {
        outln!(
            out,
            "\nreported rows (no item data: interval display only, not tested):"
        );
        for r in &b.reported {
            outln!(
                out,
                "  {:<28} {:>7}  interval rank {}",
                r.name,
                pct(r.score),
                r.interval_rank
            );
        }
    }
    if !b.pairs.is_empty() {
        outln!(out, "\npairs (a above b):");
        outln!(
            out,
            "  {:<24} {:<24} {:>6} {:>7} {:>17} {:>9} {:>9}",
            "a",
            "b",
            "n",
            "diff",
            "95% bootstrap",
            "p",
            "p adj"
        );
        for p in &b.pairs {
            let ci = match (p.diff_low, p.diff_high) {
                (Some(l), Some(h)) => format!("[{}, {}]", pct(l), pct(h)),
                _ => "-".into(),
            };
            outln!(
                out,
                "  {:<24} {:<24} {:>6} {:>7} {:>17} {:>9} {:>9}{}",
                p.a,
                p.b,
                p.n_shared,
                pct(p.diff),
                ci,
                p_text(p.p),
                p_text(p.p_adjusted),
                if p.significant { " *" } else { "" }
            );
        }
    }
    if let Some(e) = &o.extraction {
        outln!(
            out,
            "\nanswer extraction (scores over {} items):",
            e.benchmark_size
        );
        outln!(
            out,
            "  {:<28} {:>9} {:>9} {:>9} {:>7} {:>8} {:>6}",
            "model",
            "official",
            "strict",
            "lenient",
            "range",
            "ranks",
            "flips"
        );
        for r in &e.rows {
            outln!(
                out,
                "  {:<28} {:>9} {:>9} {:>9} {:>7} {:>8} {:>6}",
                r.name,
                pct(r.scores[0]),
                pct(r.scores[1]),
                pct(r.scores[2]),
                pct(r.score_range),
                format!("{}/{}/{}", r.ranks[0], r.ranks[1], r.ranks[2]),
                r.flips.len()
            );
        }
        for n in &e.notes {
            outln!(out, "  note: {n}");
        }
    }
    if let Some(e) = &o.kiva_extraction {
        outln!(
            out,
            "\nstage {} answers: official verdicts, strict (the option stated up front), lenient (the first option label or text anywhere):",
            e.stage
        );
        for r in &e.rows {
            outln!(
                out,
                "  {:<28} official {:>6}  strict {:>6}  lenient {:>6} (undetermined {}, up to {})  ranks {}/{}/{}  flips {}",
                r.name,
                pct(r.scores[0]),
                pct(r.scores[1]),
                pct(r.scores[2]),
                r.lenient_undetermined,
                pct(r.lenient_high),
                r.ranks[0],
                r.ranks[1],
                r.ranks[2],
                r.flip_count
            );
        }
        for n in &e.notes {
            outln!(out, "  note: {n}");
        }
    }
    if let Some(j) = &o.judges {
        outln!(out, "\njudges: {}", j.judges.join(", "));
        for (m, row) in j.models.iter().zip(&j.sr) {
            let cells: Vec<String> = row
                .iter()
                .map(|v| v.map_or_else(|| "-".into(), pct))
                .collect();
            outln!(out, "  {:<28} SR {}", m, cells.join(" / "));
        }
        if let Some(a) = j.alpha {
            outln!(
                out,
                "  Krippendorff's α (ordinal) {a:.3} over {} shared units",
                j.alpha_units
            );
        }
        for t in &j.tau {
            outln!(
                out,
                "  Kendall's τ-b {} vs {}: {} ({} models)",
                t.a,
                t.b,
                t.tau_b.map_or_else(|| "-".into(), |x| format!("{x:.3}")),
                t.models
            );
        }
        for d in j.disagreements.iter().take(5) {
            outln!(
                out,
                "  largest disagreement: {} {} (spread {:.2} points of 4)",
                d.model,
                d.item,
                d.spread
            );
        }
        for n in &j.notes {
            outln!(out, "  note: {n}");
        }
    }
    for n in &b.notes {
        outln!(out, "note: {n}");
    }
    for s in &o.skipped {
        outln!(out, "skipped: {s}");
    }
    out
}
