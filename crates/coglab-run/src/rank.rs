//! `coglab rank BENCH [--answers KEY | --metadata META] FILES...` (issue 20): a leaderboard
//! with paired tests, adjusted p-values, rank ranges and groups, from one file or folder per
//! model (`NAME=PATH` names it; otherwise the name is guessed from the path as the web
//! leaderboard does).

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
use coglab_core::ranks::inputs::{
    kiva_items, kiva_trial_id, mmiq_items, mmiq_key_items, KivaStage,
};
use coglab_core::ranks::judges::{judge_name, judge_robustness, JudgeFile, JudgeRobustness};
use coglab_core::ranks::{
    build_board, check_bootstrap_size, Bench, Board, BoardInput, BoardOptions, ModelScores,
    ReportedRow,
};
use serde::Serialize;

use crate::{csv_files, file_name, read_bytes, RunError, Source};

/// Usage line of `coglab rank`.
pub const USAGE: &str = "rank mmiq|kiva|mmopera [--answers KEY] [--metadata META] [NAME=]PATH...
              [--answered-only] [--test mcnemar|midp|wilcoxon] [--adjust holm|bh|none]
              [--alpha A] [--resamples N] [--seed S] [--bootstrap-ranks] [--stage STAGE] [--json]";

/// What `coglab rank --json` prints: the board, plus the robustness tables that apply.
#[derive(Debug, Serialize)]
pub struct RankOutput {
    /// The leaderboard.
    #[serde(flatten)]
    pub board: Board,
    /// MM-IQ: the board under the official, strict and lenient extractors.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extraction: Option<ExtractionRobustness>,
    /// KiVA: the stage's answers under the official, strict and lenient readings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kiva_extraction: Option<KivaExtraction>,
    /// MM-OPERA with several judges per model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub judges: Option<JudgeRobustness>,
}

/// One model's entry: an optional name and a file or folder (or bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RankEntry {
    /// The model's name (else guessed from the path as the web leaderboard does).
    pub name: Option<String>,
    /// The file or folder.
    pub source: Source,
}

impl RankEntry {
    /// `NAME=PATH` → (Some(NAME), PATH); `PATH` → (None, PATH). A path that exists as given is
    /// never split (it may contain `=`).
    pub fn parse(entry: &str) -> Self {
        let (name, path) = if Path::new(entry).exists() {
            (None, entry)
        } else {
            match entry.split_once('=') {
                Some((n, p)) if !n.is_empty() => (Some(n), p),
                _ => (None, entry),
            }
        };
        Self {
            name: name.map(str::to_string),
            source: Source::path(path),
        }
    }
}

/// What `coglab rank` reads.
#[derive(Debug, Clone)]
pub struct RankRequest {
    /// The benchmark.
    pub bench: Bench,
    /// MM-IQ answer key (required for MM-IQ).
    pub answers: Option<Source>,
    /// MM-OPERA metadata (its ids are the benchmark's items; without it the judged items are).
    pub metadata: Option<Source>,
    /// One entry per model.
    pub entries: Vec<RankEntry>,
    /// KiVA stage ranked.
    pub stage: KivaStage,
    /// Board options (missing items, test, adjustment, α, resamples, seed, rank range).
    pub board: BoardOptions,
}

/// Runs `coglab rank`.
///
/// Every model file must be read and scored: one that cannot be is an error naming it (it
/// was skipped with a note and exit status 0, so a board could silently lack a model: issue
/// 37). For MM-IQ and KiVA, where each entry is one model, the bootstrap's size
/// ([`check_bootstrap_size`]) is checked with the number of entries before any file is read.
///
/// # Errors
/// [`RunError::Usage`] for missing options, [`RunError::Input`] when a file cannot be read or
/// scored (naming it), or when the board would be too large.
pub fn rank(opts: &RankRequest) -> Result<RankOutput, RunError> {
    if matches!(opts.bench, Bench::Mmiq | Bench::Kiva) {
        check_bootstrap_size(opts.entries.len(), opts.board.resamples)?;
    }
    let (input, tables) = read(opts, true)?;
    let board = build_board(&input, &opts.board)?;
    Ok(RankOutput {
        board,
        extraction: tables.extraction,
        kiva_extraction: tables.kiva_extraction,
        judges: tables.judges,
    })
}

/// The board's input `coglab rank` reads (every model file read and scored as [`rank`] does),
/// without the robustness tables: what `coglab plan` plans from.
///
/// # Errors
/// As [`rank`].
pub fn board_input(opts: &RankRequest) -> Result<BoardInput, RunError> {
    Ok(read(opts, false)?.0)
}

/// `coglab plan`: the items the board needs to tell apart a difference `mde` at the request's
/// power and level ([`coglab_core::ranks::plan::plan`] on [`board_input`]).
///
/// # Errors
/// As [`board_input`], and [`RunError::Input`] when the board cannot be planned (one model,
/// options out of range).
pub fn plan(opts: &RankRequest, mde: f64) -> Result<coglab_core::ranks::plan::Plan, RunError> {
    let input = board_input(opts)?;
    Ok(coglab_core::ranks::plan::plan(&input, &opts.board, mde)?)
}

/// `coglab quality`: the benchmark quality panel of the board `coglab rank` would build from
/// the same inputs ([`coglab_core::ranks::quality::quality`]): per benchmark and per category
/// (MM-IQ: the key's categories; KiVA: the trials' domains) reliability, SEM, signal, noise,
/// their ratio and the smallest difference told apart at the request's α and power.
///
/// # Errors
/// As [`board_input`].
pub fn quality(opts: &RankRequest) -> Result<coglab_core::ranks::quality::QualityPanel, RunError> {
    use coglab_core::ranks::quality::{quality, QualityInput, QualityOptions};
    let (input, tables) = read(opts, false)?;
    let q = QualityInput {
        bench: input.bench,
        models: input.models,
        categories: tables.categories,
        benchmark_items: input.benchmark_items,
    };
    Ok(quality(
        &q,
        &QualityOptions {
            alpha: opts.board.alpha,
            power: opts.board.power,
        },
    ))
}

/// The robustness tables [`rank`] prints beside the board.
struct Tables {
    /// Item id -> category (MM-IQ: the key's; KiVA: the trial's domain).
    categories: BTreeMap<String, String>,
    extraction: Option<ExtractionRobustness>,
    kiva_extraction: Option<KivaExtraction>,
    judges: Option<JudgeRobustness>,
}

/// Reads and scores every entry into a board's input; with `tables`, also the robustness
/// tables.
fn read(opts: &RankRequest, tables: bool) -> Result<(BoardInput, Tables), RunError> {
    let mut extraction = None;
    let mut kiva_extraction = None;
    let mut judges = None;
    let mut categories = BTreeMap::new();
    let input = match opts.bench {
        Bench::Mmiq => {
            let key_source = opts.answers.as_ref().ok_or_else(|| {
                RunError::Usage(format!(
                    "rank mmiq: --answers KEY is required\n  usage: coglab {USAGE}"
                ))
            })?;
            let key = AnswerKey::parse_bytes(&key_source.file_name(), &key_source.bytes()?)?;
            categories.extend(
                key.items
                    .iter()
                    .map(|k| (k.data_id.to_string(), k.category.clone())),
            );
            let mut models = Vec::new();
            let mut reports = Vec::new();
            let mut reported = Vec::new();
            for entry in &opts.entries {
                let path = entry.source.label();
                let name = entry.name.clone().unwrap_or_else(|| guess_model(path));
                let bytes = entry.source.bytes()?;
                let fname = entry.source.file_name();
                if detect(&fname, &bytes) == Some(MmiqFormat::VlmEvalKitAcc) {
                    let s = AccSummary::parse(&fname, &bytes)?;
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
                    continue;
                }
                let report = score_owned(&key, Predictions::parse(&fname, &bytes)?)?;
                models.push(mmiq_items(&name, path, &report));
                reports.push((name, report));
            }
            let refs: Vec<(String, &coglab_core::mmiq::MmiqReport)> =
                reports.iter().map(|(n, r)| (n.clone(), r)).collect();
            if tables && !refs.is_empty() {
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
            for entry in &opts.entries {
                let (name, path) = (entry.name.as_deref(), entry.source.label());
                let mut files = Vec::new();
                let paths = match &entry.source {
                    Source::Path(path) => csv_files(path)?,
                    Source::Bytes { name, data } => {
                        files.push((name.clone(), data.clone()));
                        Vec::new()
                    }
                };
                for p in &paths {
                    files.push((p.clone(), read_bytes(p)?));
                }
                let name = name.map_or_else(
                    || {
                        paths
                            .first()
                            .map_or_else(|| guess_model(path), |p| guess_model(p))
                    },
                    str::to_string,
                );
                let report = score_model(files.iter().map(|(p, b)| (p.as_str(), b.as_slice())))?;
                for t in &report.trials {
                    categories
                        .entry(kiva_trial_id(t))
                        .or_insert_with(|| t.domain.clone());
                }
                models.push(kiva_items(&name, &report, opts.stage));
                runs.push((name, files));
            }
            if tables && !runs.is_empty() {
                kiva_extraction = Some(kiva_extraction_robustness(&runs, opts.stage.number()));
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
                Some(p) => Some(Metadata::parse(&p.file_name(), &p.bytes()?)?),
                None => None,
            };
            // (model, judge, scores)
            let mut judged: Vec<(String, String, RegularScores)> = Vec::new();
            for entry in &opts.entries {
                let name = entry.name.as_deref();
                let path = entry.source.label();
                let mut paths = Vec::new();
                if let Source::Bytes { name: label, data } = &entry.source {
                    let s = RegularScores::parse(&file_name(label), data)?;
                    let model = name.map_or_else(|| model_of(label), str::to_string);
                    judged.push((model, judge_name(label, 0), s));
                    continue;
                }
                if Path::new(path).is_dir() {
                    let rd = std::fs::read_dir(path).map_err(|e| {
                        RunError::in_file(path, format!("{path}: cannot read the folder: {e}"))
                    })?;
                    let mut v: Vec<String> = rd
                        .filter_map(Result::ok)
                        .map(|e| e.path().to_string_lossy().into_owned())
                        .filter(|p| p.to_ascii_lowercase().contains("regular_scoring"))
                        .collect();
                    v.sort();
                    paths.extend(v);
                    if paths.is_empty() {
                        return Err(RunError::in_file(
                            path,
                            format!("{path}: no *_regular_scoring*.json file in the folder"),
                        ));
                    }
                } else {
                    paths.push(path.to_string());
                }
                for (k, p) in paths.iter().enumerate() {
                    let s = RegularScores::parse(&file_name(p), &read_bytes(p)?)?;
                    let model = name.map_or_else(|| model_of(p), str::to_string);
                    let judge = judge_name(p, k);
                    judged.push((model, judge, s));
                }
            }
            let tasks: BTreeSet<&str> = judged.iter().map(|(_, _, s)| s.task.name()).collect();
            if tasks.len() > 1 {
                return Err(RunError::input(
                    "rank mmopera: the files mix RIA and ICA judge files; rank one task at a time",
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
            if tables && per_model_judges.values().any(|&n| n > 1) {
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
        return Err(RunError::input("rank: no model could be scored"));
    }
    Ok((
        input,
        Tables {
            categories,
            extraction,
            kiva_extraction,
            judges,
        },
    ))
}
