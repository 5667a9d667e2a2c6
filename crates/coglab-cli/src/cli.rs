//! The command line, declared with `clap`'s derive API: one [`Command`] enum of subcommands
//! and one `Args` struct per command. Doc comments become the `--help` text.
//!
//! To add a command: add a variant to [`Command`] (or to a benchmark enum such as
//! [`ScoreCommand`]) holding a new `#[derive(Args)]` struct, and dispatch it in `main.rs`.

use clap::{ArgGroup, Args, Parser, Subcommand, ValueEnum};
use coglab_core::limits::{check, MAX_BOOTSTRAP, MAX_ITERATIONS, MAX_RESAMPLES, MIN_BOOTSTRAP};

/// Text shown after the option list of `coglab --help`.
const AFTER_HELP: &str = "\
Options and definitions: README.md and docs/glossary-*.md.
Exit status: 0 on success, 1 on bad input (the message names file, line and field),
2 on a usage error.";

/// coglab: score cognitive benchmarks of multimodal models (MM-IQ, KiVA, MM-OPERA, Gold).
#[derive(Debug, Parser)]
#[command(name = "coglab", version, after_help = AFTER_HELP, propagate_version = true)]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The top-level commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Score a benchmark's result files.
    #[command(subcommand)]
    Score(ScoreCommand),
    /// Extract the answers the scorer reads from a predictions file.
    #[command(subcommand)]
    Extract(ExtractCommand),
    /// Compare two models on the same items.
    #[command(subcommand)]
    Compare(CompareCommand),
    /// Agreement of two MM-OPERA judges' score files (holistic or process).
    Agree(AgreeArgs),
    /// Descriptive statistics of each column of a score matrix (CSV or JSON).
    Describe(DescribeArgs),
    /// PLS-SEM analysis of a score matrix (Gold's benchmark-structure diagnostics).
    Sem(SemArgs),
    /// A leaderboard with paired tests, adjusted p-values, rank ranges and groups, from one
    /// file or folder per model.
    Rank(RankArgs),
    /// The planner: items a board needs to detect a difference you type (Connor's formula on
    /// each pair's observed discordance), the board's current minimum detectable difference,
    /// and what regenerations per item buy.
    Plan(PlanArgs),
    /// The benchmark quality panel: per benchmark and per category, reliability (KR-20 or
    /// alpha), SEM, signal (SD of model scores), noise (bootstrap or regeneration SD), their
    /// ratio and the smallest difference told apart, with a warning for categories too small
    /// to separate the models given.
    Quality(QualityArgs),
    /// Item analysis across models and humans: classical statistics, Rasch/2PL, flags, a
    /// reduced subset.
    Items(ItemsArgs),
    /// Estimated full-benchmark accuracy of partial runs, from item parameters calibrated on
    /// complete runs (2PL with a fixed guessing floor), with a 95% interval.
    Estimate(EstimateArgs),
    /// Write scored sets in another harness's format.
    #[command(subcommand)]
    Export(ExportCommand),
    /// The KiVA self-test as a measuring instrument: its item bank and forms.
    #[command(subcommand)]
    Selftest(SelftestCommand),
    /// Score a leaderboard folder (its `leaderboard.toml` and the files it lists) into a
    /// static bundle for the site: index, item chunks, static boards, audit.
    Publish(PublishArgs),
    /// Recompute a published bundle from its inputs; fail on any difference.
    Verify(VerifyArgs),
}

/// Arguments of `coglab publish`.
#[derive(Debug, Args)]
pub struct PublishArgs {
    /// The leaderboard folder (holding `leaderboard.toml`), or the manifest file itself.
    #[arg(value_name = "DIR")]
    pub dir: String,
    /// The bundle folder to write (e.g. `public/published`): absent, empty, or a bundle an
    /// earlier publish wrote (its `.coglab-bundle` lists its files); never the leaderboard
    /// folder, a folder inside it or above it.
    #[arg(long, value_name = "OUT")]
    pub out: String,
    /// Print the index as JSON instead of the summary.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `coglab verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The published bundle folder.
    #[arg(value_name = "OUT")]
    pub out: String,
    /// The leaderboard folder (default: the one the bundle's `source.txt` names).
    #[arg(long, value_name = "DIR")]
    pub inputs: Option<String>,
}

/// `coglab export <format>`.
#[derive(Debug, Subcommand)]
pub enum ExportCommand {
    /// Every Eval Ever 0.3.0 records (an aggregate JSON, and instance JSONL where there are
    /// instances, per scored set) of MM-IQ, KiVA, MM-OPERA or Gold.
    Eee(ExportEeeArgs),
    /// Hugging Face Eval Results entries (`DIR/.eval_results/<benchmark>.yaml`) of one model's
    /// MM-IQ, KiVA or MM-OPERA results.
    Hf(ExportHfArgs),
}

/// MM-OPERA's inputs of `coglab export` (`--mmopera`), as `coglab score mmopera` takes them.
#[derive(Debug, Args)]
pub struct MmoperaExportArgs {
    /// MM-OPERA: the task, ria or ica.
    #[arg(long, value_name = "ria|ica", value_parser = task, requires = "mmopera")]
    pub task: Option<coglab_core::mmopera::Task>,
    /// MM-OPERA: the item metadata (JSON, JSONL or CSV).
    #[arg(long, value_name = "META", requires = "mmopera")]
    pub metadata: Option<String>,
    /// MM-OPERA: regular (holistic) scoring files, one per judge, comma-separated.
    #[arg(
        long,
        value_name = "REG[,REG2..]",
        value_delimiter = ',',
        requires = "mmopera"
    )]
    pub regular: Vec<String>,
    /// MM-OPERA: reasoning (process) scoring files, one per judge, comma-separated.
    #[arg(
        long,
        value_name = "REAS[,REAS2..]",
        value_delimiter = ',',
        requires = "mmopera"
    )]
    pub reasoning: Vec<String>,
    /// MM-OPERA: the model's answers (`<model>_<TASK>_results.json`), written in the instance
    /// records' `output.raw`.
    #[arg(long, value_name = "ANS", requires = "mmopera")]
    pub responses: Option<String>,
    /// MM-OPERA: the judge model (a model id) of every judge file, or one per judge file
    /// (regular files first), comma-separated (default: openai/gpt-4o-2024-08-06, the judge of
    /// MM-OPERA's released pipeline; the judge files do not name their judge).
    #[arg(
        long,
        value_name = "MODEL[,MODEL2..]",
        value_delimiter = ',',
        requires = "mmopera"
    )]
    pub judge: Vec<String>,
    /// MM-OPERA: leave invalid verdicts out of N (default: count them as 0).
    #[arg(long, requires = "mmopera")]
    pub exclude_invalid: bool,
}

/// Arguments of `coglab export eee`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("bench").args(["answers", "kiva", "mmopera", "gold"]).required(true)))]
pub struct ExportEeeArgs {
    /// MM-IQ: the answer key the SCORED files are scored with.
    #[arg(long, value_name = "KEY")]
    pub answers: Option<String>,
    /// KiVA: the SCORED paths are one run's files or folders (or people's data), as `coglab
    /// score kiva` takes them, written as one record set.
    #[arg(long)]
    pub kiva: bool,
    /// MM-OPERA: one model's judge files on one task (--task, --metadata, --regular, and
    /// optionally --reasoning, --responses, --judge), scored as `coglab score mmopera` scores
    /// them; no SCORED.
    #[arg(long, requires_all = ["task", "metadata", "regular"], conflicts_with = "scored")]
    pub mmopera: bool,
    /// Gold: SCORED is one score matrix (models x tasks) analysed with --spec as `coglab sem`
    /// does; each model's loading-weighted scores written as one aggregate record.
    #[arg(long, requires = "spec")]
    pub gold: bool,
    /// Scored sets: any predictions or harness file `coglab score mmiq` takes (with --kiva:
    /// one run's CSV files or folders; with --gold: the score matrix).
    #[arg(value_name = "SCORED", required_unless_present = "mmopera")]
    pub scored: Vec<String>,
    /// Folder the records are written to (`DIR/<model>/<id>.json` and `.jsonl`).
    #[arg(long, value_name = "DIR")]
    pub out: String,
    /// Model name (default: named by the file, else guessed from its path, as the leaderboard
    /// does); only with one SCORED file. With --gold: only this model's record.
    #[arg(long, value_name = "NAME")]
    pub model: Option<String>,
    /// `retrieved_timestamp` written (Unix seconds; default: now).
    #[arg(long, value_name = "SECONDS")]
    pub timestamp: Option<u64>,
    /// MM-OPERA's inputs.
    #[command(flatten)]
    pub opera: MmoperaExportArgs,
    /// Gold: the model specification (JSON or YAML), as `coglab sem --spec`.
    #[arg(long, value_name = "SPEC", requires = "gold")]
    pub spec: Option<String>,
    /// Gold: prune weak or redundant tasks first, as `coglab sem --prune` (`stepwise` or
    /// `algorithm1`).
    #[arg(long, value_enum, num_args = 0..=1, default_missing_value = "stepwise", value_name = "VARIANT", requires = "gold")]
    pub prune: Option<PruneArg>,
    /// Gold: missing cells, listwise deletion or the column mean (as `coglab sem`).
    #[arg(long, value_enum, default_value = "listwise", requires = "gold")]
    pub missing: MissingArg,
    /// Gold: the stated scale of the task columns, `LOW:HIGH`, written as the scores' bounds
    /// (`min_score`, `max_score`; without it they are not given).
    #[arg(long, value_name = "LOW:HIGH", value_parser = scale, requires = "gold")]
    pub scale: Option<(f64, f64)>,
}

/// Arguments of `coglab export hf`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("bench").args(["answers", "kiva", "mmopera", "bundle"]).required(true)))]
pub struct ExportHfArgs {
    /// MM-IQ: the answer key the SCORED file is scored with.
    #[arg(long, value_name = "KEY")]
    pub answers: Option<String>,
    /// KiVA: the SCORED paths are one run's files or folders (or people's data).
    #[arg(long)]
    pub kiva: bool,
    /// MM-OPERA: one model's judge files on one task (--task, --metadata, --regular, ...).
    #[arg(long, requires_all = ["task", "metadata", "regular"], conflicts_with = "scored")]
    pub mmopera: bool,
    /// The scored set: one predictions or harness file (MM-IQ), or one run's files or folders
    /// (KiVA).
    #[arg(value_name = "SCORED", required_unless_present_any = ["mmopera", "bundle"])]
    pub scored: Vec<String>,
    /// A bundle `coglab publish` wrote: the entries of the model's published MM-IQ and KiVA
    /// rows, one file per benchmark, equal to those its result files give.
    #[arg(long, value_name = "DIR", conflicts_with = "scored")]
    pub bundle: Option<String>,
    /// With --bundle: the model's name in the bundle (default: the one named ORG/NAME or NAME,
    /// or whose source is its Hub page).
    #[arg(long, value_name = "NAME", requires = "bundle")]
    pub bundle_model: Option<String>,
    /// The model repository's folder: the entries are written to
    /// `DIR/.eval_results/<benchmark>.yaml` (an existing file is not overwritten).
    #[arg(long, value_name = "DIR")]
    pub out: String,
    /// The model's Hub id, `ORG/NAME` (the default source link is its Hub page).
    #[arg(long, value_name = "ORG/NAME")]
    pub model: String,
    /// The Hub dataset id the entries name (defaults: huanqia/MM-IQ, titic/MM-OPERA, and for
    /// KiVA, which has no Hub dataset coglab knows of, ey242/KiVA, its GitHub repository's
    /// name: give the id of a Hub copy).
    #[arg(long, value_name = "ORG/NAME")]
    pub dataset_id: Option<String>,
    /// The entries' `date` (YYYY-MM-DD; default: today, UTC).
    #[arg(long, value_name = "YYYY-MM-DD")]
    pub date: Option<String>,
    /// The entries' `source.url` (default: https://huggingface.co/ORG/NAME).
    #[arg(long, value_name = "URL")]
    pub source_url: Option<String>,
    /// The entries' `source.name` (default: "coglab").
    #[arg(long, value_name = "NAME")]
    pub source_name: Option<String>,
    /// MM-OPERA's inputs.
    #[command(flatten)]
    pub opera: MmoperaExportArgs,
}

/// Arguments of `coglab items`.
#[derive(Debug, Args)]
pub struct ItemsArgs {
    /// One response-matrix CSV (respondent id, then 1/0/empty per item); KiVA run folders (one
    /// model each) and/or `human_adults_KiVA.csv`; or MM-IQ predictions files with --answers.
    #[arg(value_name = "INPUT", required = true)]
    pub inputs: Vec<String>,
    /// IRT model: rasch or 2pl (default 2pl).
    #[arg(long, value_name = "MODEL")]
    pub model: Option<String>,
    /// MM-IQ answer key: the inputs are MM-IQ predictions files, one respondent each.
    #[arg(long, value_name = "KEY")]
    pub answers: Option<String>,
    /// KiVA stages used as items: all (default), cross, within or extrapolation.
    #[arg(long, value_name = "STAGE")]
    pub stage: Option<String>,
    /// KiVA model runs: a trial stage is right when its mean over regenerations is at least
    /// this (default 0.5).
    #[arg(long, value_name = "T")]
    pub threshold: Option<f64>,
    /// KiVA: one item per subdomain and stage instead of per trial.
    #[arg(long)]
    pub per_subdomain: bool,
    /// Reduced-subset criterion: information (default), discrimination or none; or anchor:
    /// print the --k anchor items that estimate the full score best (chosen on a 2PL
    /// calibration with guessing 1/--options over every respondent given), one item id per
    /// line for a harness to run, or with --json their weights and parameters.
    #[arg(long, value_name = "CRITERION")]
    pub subset: Option<String>,
    /// With --subset anchor: how many anchor items.
    #[arg(long, value_name = "K")]
    pub k: Option<usize>,
    /// With --subset anchor: information (default; the items that tell most about the full
    /// score) or cluster (tinyBenchmarks' anchor points: k-means over the items' curves).
    #[arg(long, value_name = "METHOD")]
    pub anchor_method: Option<String>,
    /// With --subset anchor: answer options per item; the guessing floor is 1/options (0: no
    /// guessing; default 4).
    #[arg(long, value_name = "N")]
    pub options: Option<u32>,
    /// Kendall τ the reduced subset must keep with the full ranking (default 0.95).
    #[arg(long, value_name = "T")]
    pub tau: Option<f64>,
    /// Include each item's characteristic and information curves in the JSON.
    #[arg(long)]
    pub curves: bool,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
    /// With --json: print the page-sized report the web app shows (item table,
    /// respondents, 61-point test information, flagged items' curves, thinned tau curve)
    /// instead of the full analysis.
    #[arg(long, requires = "json")]
    pub report: bool,
}

/// `coglab selftest` subcommands.
#[derive(Debug, Subcommand)]
pub enum SelftestCommand {
    /// Simulated takers (abilities drawn from the adults' fitted abilities) through the
    /// adaptive or the fixed form: RMSE, mean SE and 95% coverage on the ability scale.
    Simulate(SimulateArgs),
}

/// The two self-test forms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormArg {
    /// The next trial for the most information at the current estimate (randomesque).
    Adaptive,
    /// The 14 subdomains once each, shuffled (another pass past 14).
    Fixed,
}

/// Arguments of `coglab selftest simulate`.
#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// The form.
    #[arg(long, value_enum, default_value_t = FormArg::Adaptive)]
    pub form: FormArg,
    /// Trials per taker (1 to 200).
    #[arg(long, value_name = "N", default_value_t = 14)]
    pub trials: usize,
    /// Simulated takers (1 to 1,000,000).
    #[arg(long, value_name = "M", default_value_t = 2000)]
    pub takers: usize,
    /// Seed.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Adaptive form: draw the next trial among this many most informative subdomains
    /// (1 to 14; default 3).
    #[arg(long, value_name = "K")]
    pub randomesque: Option<usize>,
    /// Adaptive form: most times one subdomain is given (default 2).
    #[arg(long, value_name = "N")]
    pub max_per_subdomain: Option<usize>,
    /// Stop a taker's session once the standard error is at most this (after 4 trials).
    #[arg(long, value_name = "SE")]
    pub target_se: Option<f64>,
    /// An item bank file (default: the bank the app ships, public/data/kiva-bank.json).
    #[arg(long, value_name = "BANK.json")]
    pub bank: Option<String>,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `coglab estimate`.
#[derive(Debug, Args)]
pub struct EstimateArgs {
    /// Partial runs: a response-matrix CSV (respondent id, then 1/0/empty per item; empty =
    /// not answered), its columns matched to the calibration's items by name; or MM-IQ
    /// predictions files (with --answers) or KiVA run folders, as `coglab items` takes them
    /// (items not in a file: not answered).
    #[arg(value_name = "PARTIAL", required = true)]
    pub partial: Vec<String>,
    /// Complete runs of the same board, in the same form (repeat the option for each file or
    /// folder): one response-matrix CSV whose every column is an item of the benchmark, MM-IQ
    /// predictions files or KiVA run folders.
    #[arg(long, value_name = "FULL", required = true)]
    pub calibration: Vec<String>,
    /// MM-IQ answer key: the partial and calibration inputs are MM-IQ predictions files, one
    /// respondent each.
    #[arg(long, value_name = "KEY")]
    pub answers: Option<String>,
    /// KiVA run folders: the stage whose trials are the items, cross (default) or
    /// extrapolation (stages every trial has).
    #[arg(long, value_name = "STAGE")]
    pub stage: Option<String>,
    /// Answer options per item: the guessing floor is 1/options (0: no guessing; default 4).
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub options: u32,
    /// Fewest calibration respondents for an estimate (default 20, the smallest calibration
    /// measured; see BENCHMARKS.md).
    #[arg(long, value_name = "N")]
    pub min_calibration: Option<usize>,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `coglab rank`.
#[derive(Debug, Args)]
pub struct RankArgs {
    /// The benchmark: mmiq, kiva or mmopera.
    #[arg(value_name = "BENCH")]
    pub bench: String,
    /// One entry per model: `PATH` or `NAME=PATH`, a file or a folder (a KiVA run folder, or a
    /// folder of one model's MM-OPERA judge files).
    #[arg(value_name = "[NAME=]PATH", required = true)]
    pub files: Vec<String>,
    /// MM-IQ answer key (required for MM-IQ).
    #[arg(long, value_name = "KEY")]
    pub answers: Option<String>,
    /// MM-OPERA metadata (its ids are the benchmark's items; without it, the judged items are).
    #[arg(long, value_name = "META")]
    pub metadata: Option<String>,
    /// Score over the answered items only (default: missing items count as wrong).
    #[arg(long)]
    pub answered_only: bool,
    /// Paired test: mcnemar (MM-IQ default), midp, or wilcoxon (KiVA and MM-OPERA default).
    #[arg(long, value_name = "TEST")]
    pub test: Option<String>,
    /// p-value adjustment over all pairs: holm (default), bh or none.
    #[arg(long, value_name = "METHOD")]
    pub adjust: Option<String>,
    /// Significance level of the tests (default 0.05).
    #[arg(long, value_name = "A")]
    pub alpha: Option<f64>,
    /// Paired bootstrap resamples (1 to 1,000,000; default 2,000).
    #[arg(long, value_name = "N", value_parser = resamples)]
    pub resamples: Option<usize>,
    /// Bootstrap seed.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Show bootstrap rank intervals instead of the ranges consistent with the tests.
    #[arg(long)]
    pub bootstrap_ranks: bool,
    /// KiVA stage ranked: cross (default), within_joint, within_conditional or extrapolation.
    #[arg(long, value_name = "STAGE")]
    pub stage: Option<String>,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `coglab plan`: the board's inputs as `coglab rank` takes them, and the
/// difference to plan for.
#[derive(Debug, Args)]
pub struct PlanArgs {
    /// The benchmark: mmiq, kiva or mmopera.
    #[arg(value_name = "BENCH")]
    pub bench: String,
    /// One entry per model: `PATH` or `NAME=PATH`, a file or a folder (a KiVA run folder, or a
    /// folder of one model's MM-OPERA judge files).
    #[arg(value_name = "[NAME=]PATH", required = true)]
    pub files: Vec<String>,
    /// The difference to detect, as a fraction of the score scale (0.03 = 3 points).
    #[arg(long, value_name = "D")]
    pub mde: f64,
    /// Power (default 0.8).
    #[arg(long, value_name = "P", default_value_t = 0.8)]
    pub power: f64,
    /// Significance level, two-sided (default 0.05).
    #[arg(long, value_name = "A", default_value_t = 0.05)]
    pub alpha: f64,
    /// MM-IQ answer key (required for MM-IQ).
    #[arg(long, value_name = "KEY")]
    pub answers: Option<String>,
    /// MM-OPERA metadata (its ids are the benchmark's items; without it, the judged items are).
    #[arg(long, value_name = "META")]
    pub metadata: Option<String>,
    /// Compare over the answered items only (default: missing items count as wrong).
    #[arg(long)]
    pub answered_only: bool,
    /// Paired test planned for: mcnemar (MM-IQ default), midp, or wilcoxon (KiVA and
    /// MM-OPERA default).
    #[arg(long, value_name = "TEST")]
    pub test: Option<String>,
    /// KiVA stage: cross (default), within_joint, within_conditional or extrapolation.
    #[arg(long, value_name = "STAGE")]
    pub stage: Option<String>,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `coglab quality`: the board's inputs as `coglab rank` takes them.
#[derive(Debug, Args)]
pub struct QualityArgs {
    /// The benchmark: mmiq, kiva or mmopera.
    #[arg(value_name = "BENCH")]
    pub bench: String,
    /// One entry per model: `PATH` or `NAME=PATH`, a file or a folder (a KiVA run folder, or a
    /// folder of one model's MM-OPERA judge files).
    #[arg(value_name = "[NAME=]PATH", required = true)]
    pub files: Vec<String>,
    /// Power of the smallest difference told apart (default 0.8).
    #[arg(long, value_name = "P", default_value_t = 0.8)]
    pub power: f64,
    /// Significance level, two-sided (default 0.05).
    #[arg(long, value_name = "A", default_value_t = 0.05)]
    pub alpha: f64,
    /// MM-IQ answer key (required for MM-IQ; its categories are the panel's).
    #[arg(long, value_name = "KEY")]
    pub answers: Option<String>,
    /// MM-OPERA metadata (its ids are the benchmark's items; without it, the judged items are).
    #[arg(long, value_name = "META")]
    pub metadata: Option<String>,
    /// KiVA stage: cross (default), within_joint, within_conditional or extrapolation.
    #[arg(long, value_name = "STAGE")]
    pub stage: Option<String>,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
}

/// `coglab score <benchmark>`.
#[derive(Debug, Subcommand)]
pub enum ScoreCommand {
    /// MM-IQ accuracy by category with Wilson 95% intervals (or a VLMEvalKit `_acc.csv`).
    Mmiq(ScoreMmiqArgs),
    /// KiVA scores from model-run CSVs (folders are searched for `*.csv`) and/or adults' data,
    /// or from KiVA's Every Eval Ever records (`coglab export eee --kiva`).
    Kiva(ScoreKivaArgs),
    /// MM-OPERA holistic (regular) and process-reward (reasoning) scores.
    Mmopera(ScoreMmoperaArgs),
}

/// `coglab extract <benchmark>`.
#[derive(Debug, Subcommand)]
pub enum ExtractCommand {
    /// One `{"data_id", "parsed"}` JSON line per prediction row.
    Mmiq(ExtractMmiqArgs),
}

/// `coglab compare <benchmark>`.
#[derive(Debug, Subcommand)]
pub enum CompareCommand {
    /// McNemar test and paired bootstrap of two MM-IQ prediction files.
    Mmiq(CompareMmiqArgs),
}

/// Arguments of `coglab score mmiq`.
#[derive(Debug, Args)]
pub struct ScoreMmiqArgs {
    /// The answer key (`MMIQ_benchmark_answer_dict.jsonl`).
    #[arg(long, value_name = "KEY")]
    pub answers: String,
    /// The predictions file (JSONL, VLMEvalKit CSV/TSV/JSON/xlsx, or an `_acc.csv` summary).
    #[arg(value_name = "PRED")]
    pub pred: String,
    /// Include one row per item.
    #[arg(long)]
    pub items: bool,
    /// Machine-readable output (the field names scripts rely on; see the README).
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `coglab extract mmiq`.
#[derive(Debug, Args)]
pub struct ExtractMmiqArgs {
    /// The predictions file.
    #[arg(value_name = "PRED")]
    pub pred: String,
}

/// Arguments of `coglab compare mmiq`.
#[derive(Debug, Args)]
pub struct CompareMmiqArgs {
    /// The answer key (`MMIQ_benchmark_answer_dict.jsonl`).
    #[arg(long, value_name = "KEY")]
    pub answers: String,
    /// The first model's predictions (A).
    #[arg(value_name = "PRED_A")]
    pub first: String,
    /// The second model's predictions (B).
    #[arg(value_name = "PRED_B")]
    pub second: String,
    /// Seed of the paired bootstrap.
    #[arg(long, value_name = "S", default_value_t = 42)]
    pub seed: u64,
    /// Paired bootstrap resamples (1 to 1,000,000).
    #[arg(long, value_name = "N", default_value_t = 10_000, value_parser = resamples)]
    pub resamples: usize,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `coglab score kiva`.
#[derive(Debug, Args)]
pub struct ScoreKivaArgs {
    /// Run CSV files or folders (searched recursively for `*.csv`), or one file of KiVA's
    /// Every Eval Ever instance records (`.jsonl`), read back into the same report.
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<String>,
    /// Adults' data (`human_adults_KiVA.csv`): adds their report and the RT-error correlation.
    #[arg(long, value_name = "ADULTS_CSV")]
    pub human: Option<String>,
    /// Answers that name no option (`Null`): counted `wrong` (the KiVA repository; default)
    /// or left out as `missing` (not in the stage's mean).
    #[arg(long, value_name = "wrong|missing", value_parser = null_answers, default_value = "wrong")]
    pub null: coglab_core::kiva::NullAnswers,
    /// Include one row per trial.
    #[arg(long)]
    pub trials: bool,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `coglab score mmopera`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("judges").args(["regular", "reasoning"]).required(true).multiple(true)))]
pub struct ScoreMmoperaArgs {
    /// The task: ria or ica.
    #[arg(long, value_name = "ria|ica", value_parser = task)]
    pub task: coglab_core::mmopera::Task,
    /// The item metadata (JSON, JSONL or CSV).
    #[arg(long, value_name = "META")]
    pub metadata: String,
    /// Regular (holistic) scoring files, one per judge, comma-separated.
    #[arg(long, value_name = "REG[,REG2..]", value_delimiter = ',')]
    pub regular: Vec<String>,
    /// Reasoning (process) scoring files, one per judge, comma-separated.
    #[arg(long, value_name = "REAS[,REAS2..]", value_delimiter = ',')]
    pub reasoning: Vec<String>,
    /// The model's answers (for the length-bias check).
    #[arg(long, value_name = "ANS")]
    pub answers: Option<String>,
    /// Weight α of the process reward (default 0.9).
    #[arg(long, value_name = "A")]
    pub alpha: Option<f64>,
    /// Decay γ of the process reward (default 0.9).
    #[arg(long, value_name = "G")]
    pub gamma: Option<f64>,
    /// One-point answers shorter than this many characters are left out of the length-bias
    /// correlations of both judges (default 50; the paper gives no length).
    #[arg(long, value_name = "CHARS")]
    pub min_length: Option<usize>,
    /// Decay of S_r: `code` = Σ s_i·γ^i from i = 0, first hop undecayed (the released code;
    /// default), or `paper` = Σ s_t·γ^t from t = 1 (the paper's equation 2 = code × γ).
    #[arg(long, value_name = "code|paper", value_parser = decay, default_value = "code")]
    pub decay: coglab_core::mmopera::score::DecayExponent,
    /// Same as `--decay paper` (the older spelling).
    #[arg(long)]
    pub paper_decay: bool,
    /// Mean S_r over `items` (each item the mean of its paths; ours, default) or over all
    /// scored `paths` of all items (the released ICA script). RIA items have one path.
    #[arg(long, value_name = "items|paths", value_parser = ica_average, default_value = "items")]
    pub ica_average: coglab_core::mmopera::score::IcaAverage,
    /// Leave invalid verdicts out (default: count them as 0).
    #[arg(long)]
    pub exclude_invalid: bool,
    /// Count labels once per label, not once per item.
    #[arg(long)]
    pub per_label: bool,
    /// Skip an item with a bad hop (default: drop only the hop).
    #[arg(long)]
    pub skip_bad_hop_items: bool,
    /// Include one row per item.
    #[arg(long)]
    pub items: bool,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `coglab agree`.
#[derive(Debug, Args)]
pub struct AgreeArgs {
    /// The first judge's score file.
    #[arg(value_name = "A")]
    pub a: String,
    /// The second judge's score file.
    #[arg(value_name = "B")]
    pub b: String,
    /// Seed of the paired permutation test.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Random sign patterns of the paired permutation test (1 to 1,000,000).
    #[arg(long, value_name = "N", default_value_t = 10_000, value_parser = resamples)]
    pub resamples: usize,
    /// Weight α of the process reward (default 0.9).
    #[arg(long, value_name = "A")]
    pub alpha: Option<f64>,
    /// Decay γ of the process reward (default 0.9).
    #[arg(long, value_name = "G")]
    pub gamma: Option<f64>,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `coglab describe`.
#[derive(Debug, Args)]
pub struct DescribeArgs {
    /// The score matrix (CSV or JSON).
    #[arg(value_name = "DATA")]
    pub data: String,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
}

/// How `coglab sem` treats missing cells.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum MissingArg {
    /// Drop every model with a missing cell.
    Listwise,
    /// Replace a missing cell by its column's mean.
    Mean,
}

/// `coglab sem --prune` variants.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum PruneArg {
    /// Ours: one task per refit, floor min_indicators.
    Stepwise,
    /// Gold's Algorithm 1 as printed: every offending task per pass, no floor.
    Algorithm1,
}

/// `coglab sem --htmt` variants.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum HtmtArg {
    /// Henseler, Ringle & Sarstedt (2015).
    Standard,
    /// Gold's Eq. 1 as printed.
    Eq1,
}

/// `coglab sem --arena` placements.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ArenaArg {
    /// A separate construct (ours).
    Construct,
    /// An indicator of the top-level construct (Gold §2.2).
    TopIndicator,
}

/// `--scale LOW:HIGH`: two finite numbers, LOW < HIGH.
fn scale(s: &str) -> Result<(f64, f64), String> {
    let (a, b) = s
        .split_once(':')
        .ok_or_else(|| format!("expected LOW:HIGH (e.g. 0:100), found {s:?}"))?;
    let num = |t: &str| {
        t.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("expected a finite number, found {t:?} in {s:?}"))
    };
    let (lo, hi) = (num(a)?, num(b)?);
    if lo >= hi {
        return Err(format!("expected LOW < HIGH, found {s:?}"));
    }
    Ok((lo, hi))
}

/// Arguments of `coglab sem`.
#[derive(Debug, Args)]
pub struct SemArgs {
    /// The model specification (JSON).
    #[arg(long, value_name = "SPEC")]
    pub spec: String,
    /// The score matrix (CSV or JSON).
    #[arg(value_name = "DATA")]
    pub data: String,
    /// Bootstrap resamples for standard errors and intervals (2 to 100,000).
    #[arg(long, value_name = "N", value_parser = bootstrap)]
    pub bootstrap: Option<usize>,
    /// Seed of the bootstrap (default 1).
    #[arg(long, value_name = "S", requires = "bootstrap")]
    pub seed: Option<u64>,
    /// Prune weak or redundant tasks: `stepwise` (ours, the default when `--prune` has no
    /// value: one task per refit, never below the spec's min_indicators) or `algorithm1`
    /// (Gold's Algorithm 1 as printed: every offending task per pass, no floor). Put DATA
    /// before a bare `--prune`, or give the value.
    #[arg(long, value_enum, num_args = 0..=1, default_missing_value = "stepwise", value_name = "VARIANT")]
    pub prune: Option<PruneArg>,
    /// HTMT formula: `standard` (Henseler 2015, the default) or `eq1` (Gold's Eq. 1 as
    /// printed: signed correlations, block i's within-block mean only).
    #[arg(long, value_enum, default_value = "standard", value_name = "VARIANT")]
    pub htmt: HtmtArg,
    /// Where the human column goes: `construct` (ours, the default: a separate construct the
    /// top-level constructs point to) or `top-indicator` (Gold §2.2: an indicator of the one
    /// second-order construct).
    #[arg(
        long,
        value_enum,
        default_value = "construct",
        value_name = "PLACEMENT"
    )]
    pub arena: ArenaArg,
    /// The stated scale of the task columns, `LOW:HIGH` (e.g. 0:100); cells outside it are
    /// listed in the report (`out_of_range`) and on stderr.
    #[arg(long, value_name = "LOW:HIGH", value_parser = scale)]
    pub scale: Option<(f64, f64)>,
    /// Treat the cells outside `--scale` as missing (then `--missing` decides).
    #[arg(long, requires = "scale")]
    pub exclude_out_of_range: bool,
    /// Missing cells: listwise deletion or the column mean.
    #[arg(long, value_enum, default_value = "listwise")]
    pub missing: MissingArg,
    /// Most PLS iterations (1 to 100,000; default: the spec's).
    #[arg(long, value_name = "N", value_parser = iterations)]
    pub max_iter: Option<usize>,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
}

/// Reads a count between `min` and `max`, naming the bound in the error.
fn count(s: &str, name: &'static str, min: usize, max: usize) -> Result<usize, String> {
    let t = s.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "expected a whole number from {min} to {max}, found {s:?}"
        ));
    }
    // All digits but beyond u64: too many all the same.
    let Ok(n) = t.parse::<u64>() else {
        return Err(format!("{name}: at most {max} allowed, found {t}"));
    };
    check(name, n, min, max).map_err(|e| e.to_string())
}

/// `--resamples`: 1 to [`MAX_RESAMPLES`].
fn resamples(s: &str) -> Result<usize, String> {
    count(s, "resamples", 1, MAX_RESAMPLES)
}

/// `--bootstrap`: [`MIN_BOOTSTRAP`] to [`MAX_BOOTSTRAP`].
fn bootstrap(s: &str) -> Result<usize, String> {
    count(s, "bootstrap", MIN_BOOTSTRAP, MAX_BOOTSTRAP)
}

/// `--max-iter`: 1 to [`MAX_ITERATIONS`].
fn iterations(s: &str) -> Result<usize, String> {
    count(s, "max-iter", 1, MAX_ITERATIONS)
}

/// `--task`: ria or ica.
fn task(s: &str) -> Result<coglab_core::mmopera::Task, String> {
    s.parse()
}

fn decay(s: &str) -> Result<coglab_core::mmopera::score::DecayExponent, String> {
    coglab_core::mmopera::score::DecayExponent::from_name(s)
        .ok_or_else(|| format!("expected code or paper, found {s:?}"))
}

fn ica_average(s: &str) -> Result<coglab_core::mmopera::score::IcaAverage, String> {
    coglab_core::mmopera::score::IcaAverage::from_name(s)
        .ok_or_else(|| format!("expected items or paths, found {s:?}"))
}

fn null_answers(s: &str) -> Result<coglab_core::kiva::NullAnswers, String> {
    coglab_core::kiva::NullAnswers::from_name(s)
        .ok_or_else(|| format!("expected wrong or missing, found {s:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn counts_are_bounded() {
        assert_eq!(resamples("1000000"), Ok(1_000_000));
        assert!(resamples("1000001")
            .unwrap_err()
            .contains("at most 1000000"));
        // Beyond u64: still named as too many, not as "not a number".
        assert!(resamples("18446744073709551615000000000000000000000")
            .unwrap_err()
            .contains("at most 1000000"));
        assert!(resamples("1e12").unwrap_err().contains("whole number"));
        assert!(resamples("0").unwrap_err().contains("at least 1"));
        assert!(bootstrap("1").unwrap_err().contains("at least 2"));
        assert!(bootstrap("1000000000000")
            .unwrap_err()
            .contains("at most 100000"));
        assert!(iterations("-3").unwrap_err().contains("whole number"));
    }
}
