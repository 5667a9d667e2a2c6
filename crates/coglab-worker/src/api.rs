//! The one API between the pages and the scoring worker, declared once for both sides.
//! (Longer than the app's other files by design: every operation's request and result types
//! are declared here, in one place, so that neither side declares its own copy.)
//!
//! Every operation is a request type (its arguments) paired with the type of its result in
//! [`operations!`]. From that one list the macro makes the [`Request`] enum the worker matches
//! on (a missing operation is a compile error in [`crate::host`]), the [`Reply`] enum, and an
//! [`Operation`] impl per request type, so the page calls
//! `client.call(Items { row, query }).await` and gets an `ItemsPage` back, typed.
//!
//! **Encoding**: messages are JavaScript values made by `serde-wasm-bindgen` and posted with
//! `postMessage` (structured clone). Chosen over a byte format such as postcard because:
//! - it is self-describing, so every core type goes as it is, including those whose JSON shape
//!   uses `skip_serializing_if`, `flatten` or tagged enums (a positional byte format silently
//!   mis-reads those, or needs the attributes removed from the CLI's JSON types);
//! - `File` handles ride inside the typed request ([`FileRef`], via
//!   `serde_wasm_bindgen::preserve`): the browser clones the handle, never the bytes, and the
//!   worker reads them as streams;
//! - numbers stay exact (JavaScript numbers are `f64`; 64-bit integers go as `BigInt`), NaN
//!   and infinities included.
//!
//! Files are never read on the page: staging sends the handles ([`Detect`]) and gets formats
//! back; scoring sends them again ([`Score`]) and gets summaries; everything item-level stays
//! in the worker under a typed handle ([`RowId`], [`MatrixId`]) and comes back a page at a time.

use std::collections::{BTreeMap, HashMap};

use coglab_core::kiva::RegenerationAnswers;
use coglab_core::leaderboard::detail::{
    ItemsPage, ItemsQuery, KivaComparison, MmiqCompareView, TrialsPage, TrialsQuery,
};
use coglab_core::leaderboard::gold::GoldResult;
use coglab_core::leaderboard::mmopera::MmoperaComparison;
use coglab_core::leaderboard::{FileKind, Scored};
use coglab_core::sem::bootstrap::BootstrapOptions;
use coglab_core::sem::suite::RankRow;
use coglab_core::sem::{ArenaPlacement, HtmtVariant, PruneVariant, Scale, SemReport};
use serde::{Deserialize, Serialize};

/// A scored row whose item-level data the worker keeps (MM-IQ items, KiVA trials and run
/// files): the worker's generation and the row's number. The core's type, since the rows the
/// worker sends carry it ([`coglab_core::leaderboard::MmiqRow::id`]).
pub use coglab_core::leaderboard::RowId;

/// A score matrix the worker has read and keeps (Structure page): the worker's generation and
/// the matrix's number in it.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
pub struct MatrixId {
    /// The worker that keeps it.
    pub generation: u32,
    /// Its number among the matrices that worker has read (from 1).
    pub n: u32,
}

/// An item analysis the worker keeps for more item curves ([`ItemCurves`]): the worker's
/// generation and the analysis's number in it.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
pub struct AnalysisId {
    /// The worker that keeps it.
    pub generation: u32,
    /// Its number among the analyses that worker has made (from 1).
    pub n: u32,
}

/// A handle to something the worker keeps: which worker (generation) keeps it. A handle of
/// another generation than the running worker's names something that went with an earlier
/// worker (a Cancel, a crash, or the browser ending it).
pub trait Handle {
    /// The generation of the worker that made it.
    fn generation(&self) -> u32;
    /// What it names, for messages ("row", "matrix", "item analysis").
    const WHAT: Kept;
}

impl Handle for RowId {
    fn generation(&self) -> u32 {
        self.generation
    }
    const WHAT: Kept = Kept::Row;
}

impl Handle for MatrixId {
    fn generation(&self) -> u32 {
        self.generation
    }
    const WHAT: Kept = Kept::Matrix;
}

impl Handle for AnalysisId {
    fn generation(&self) -> u32 {
        self.generation
    }
    const WHAT: Kept = Kept::Analysis;
}

/// What kind of kept data a handle names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kept {
    /// A scored or published row ([`RowId`]).
    Row,
    /// A score matrix ([`MatrixId`]).
    Matrix,
    /// An item analysis ([`AnalysisId`]).
    Analysis,
}

impl Kept {
    /// Its name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Kept::Row => "row",
            Kept::Matrix => "score matrix",
            Kept::Analysis => "item analysis",
        }
    }
}

/// Why a request to the worker failed: what the pages match on (they never read the text).
/// Its [`Display`](std::fmt::Display) is the sentence shown to the user.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum WorkerError {
    /// The page cancelled the request ([`Cancel`](crate::api) terminates the worker).
    Cancelled,
    /// The worker stopped before it answered: it crashed, could not start, or was ended from
    /// outside (the reason, as the browser gave it).
    Stopped(String),
    /// The handle names data of an earlier worker, gone with it: the page sends its files
    /// again (or offers to).
    Stale {
        /// What the handle names.
        what: Kept,
        /// The handle's generation.
        generation: u32,
        /// The running worker's generation.
        current: u32,
    },
    /// The handle is of this worker but names nothing kept (dropped with Forget, or a matrix
    /// among the oldest, dropped to make room).
    Gone {
        /// What the handle names.
        what: Kept,
    },
    /// The request does not apply to what the handle names (items of a KiVA row, two rows of
    /// different benchmarks, a task the row has no scores of).
    NotApplicable(String),
    /// A file above the size the browser reads ([`crate::protocol::MAX_FILE_BYTES`]).
    TooLarge {
        /// The file.
        file: String,
        /// Its size in bytes.
        size: f64,
    },
    /// A count over its limit (resamples, bootstrap): the command line's message.
    OverLimit(String),
    /// Bad input: the located message naming file, line or record, field and what was
    /// expected.
    Input(String),
    /// The browser failed at something (reading a file, a request, memory).
    Browser(String),
}

impl std::fmt::Display for WorkerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WorkerError::Cancelled => write!(f, "cancelled"),
            WorkerError::Stopped(reason) => write!(f, "the scoring worker stopped: {reason}"),
            WorkerError::Stale { what, .. } => write!(
                f,
                "this {}'s data was in the scoring worker that was stopped (a Cancel, or the \
                 browser ended it); restore it to go on",
                what.name()
            ),
            WorkerError::Gone { what } => write!(
                f,
                "this {} is no longer kept in the scoring worker; load it again",
                what.name()
            ),
            WorkerError::TooLarge { file, size } => {
                write!(f, "{}", crate::protocol::too_large(file, *size))
            }
            WorkerError::NotApplicable(m)
            | WorkerError::OverLimit(m)
            | WorkerError::Input(m)
            | WorkerError::Browser(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for WorkerError {}

/// A core or reader message: bad input (the core's errors name the file, line and field).
impl From<String> for WorkerError {
    fn from(message: String) -> Self {
        WorkerError::Input(message)
    }
}

impl From<&str> for WorkerError {
    fn from(message: &str) -> Self {
        WorkerError::Input(message.to_string())
    }
}

impl From<coglab_core::limits::LimitError> for WorkerError {
    fn from(e: coglab_core::limits::LimitError) -> Self {
        WorkerError::OverLimit(e.to_string())
    }
}

/// A file the user picked or dropped, as the page holds it: its path (folder-relative for
/// folders) and the browser's `File` handle, which the worker reads itself.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FileRef {
    /// The path as chosen (`output_Colour/ColourRed.csv`), used in messages and to group runs.
    pub name: String,
    /// The file's handle (a `File` or any `Blob`).
    #[serde(with = "serde_wasm_bindgen::preserve")]
    pub blob: web_sys::Blob,
}

/// Declares the operations: `Request type => result type`, each with a doc line. Makes the
/// [`Request`] and [`Reply`] enums (one variant per operation, named after its request type)
/// and the [`Operation`] impls.
macro_rules! operations {
    ($($(#[doc = $doc:literal])* $name:ident => $out:ty;)*) => {
        /// A request to the worker: one variant per operation.
        #[derive(Debug, Serialize, Deserialize)]
        pub enum Request {
            $($(#[doc = $doc])* $name($name),)*
        }

        /// A worker's result: one variant per operation, holding that operation's result.
        // One reply exists at a time, only while it is posted or read: its size does not matter.
        #[allow(clippy::large_enum_variant)]
        #[derive(Debug, Serialize, Deserialize)]
        pub enum Reply {
            $($(#[doc = $doc])* $name($out),)*
        }

        $(impl Operation for $name {
            type Output = $out;
            const NAME: &'static str = stringify!($name);
            fn into_request(self) -> Request {
                Request::$name(self)
            }
            fn from_reply(reply: Reply) -> Option<$out> {
                match reply {
                    Reply::$name(out) => Some(out),
                    #[allow(unreachable_patterns)]
                    _ => None,
                }
            }
        })*
    };
}

/// An operation: a request type and its result type.
pub trait Operation {
    /// What the worker answers.
    type Output;
    /// The operation's name, for messages.
    const NAME: &'static str;
    /// This request in the [`Request`] enum.
    fn into_request(self) -> Request;
    /// The result out of a [`Reply`], `None` when the reply is another operation's.
    fn from_reply(reply: Reply) -> Option<Self::Output>;
}

operations! {
    /// Runs the MM-IQ reader and scorer once on made-up lines, so that the browser has
    /// optimised them before the user's files arrive.
    Warm => ();
    /// Detects the format of each file from its content (read in the worker).
    Detect => Vec<Detected>;
    /// Reads, detects and scores a batch of files; keeps their item-level data.
    Score => Scored;
    /// One page of an MM-IQ row's items.
    Items => ItemsPage;
    /// One page of a KiVA row's trials.
    Trials => TrialsPage;
    /// One page of a KiVA challenge row's trials (answer, option read, right or wrong).
    ChallengeItems => coglab_core::leaderboard::detail::ChallengePage;
    /// All of an MM-IQ row's items or a KiVA row's trials as CSV, for a download.
    ItemsCsv => String;
    /// A scored MM-IQ or KiVA row as Every Eval Ever 0.3.0 records (aggregate JSON and
    /// instance JSONL), written by the core function `coglab export eee` uses, for a download.
    EeeExport => coglab_core::harness::eee::EeeRecords;
    /// A scored MM-IQ or KiVA row's headline metrics as Hugging Face Eval Results entries
    /// (`.eval_results/<benchmark>.yaml`), written by the core function `coglab export hf` uses.
    HfExport => HfYaml;
    /// Two MM-IQ rows or two KiVA rows compared on their shared items.
    Compare => Compared;
    /// The model's answers to one KiVA trial, read from the kept run file.
    Answers => Vec<RegenerationAnswers>;
    /// Drops kept rows.
    Forget => ();
    /// Two MM-OPERA models compared on one task.
    MmoperaCompare => MmoperaComparison;
    /// An MM-OPERA row's length bias (both judges) under another short-answer threshold.
    MmoperaLengthBias => coglab_core::leaderboard::mmopera::LengthBiases;
    /// A kept Gold matrix scored with the paper's layer weights under another assignment.
    GoldAnalyze => GoldResult;
    /// Reads a score matrix from a file, keeps it, and names its models and numeric columns;
    /// gives back the file's text, which the page keeps for the saved report and workspace.
    SemLoad => SemLoaded;
    /// Reads a model spec file (the format `coglab sem --spec` reads) into an editable draft.
    SemSpec => coglab_core::sem::suite::SpecDraft;
    /// Reads a saved Structure report or workspace (`structure-report.json`, or the text kept in
    /// this browser), keeps its matrix and gives back its inputs, from which the page fits again.
    SemSaved => SemRestored;
    /// Reads a score matrix from text the page made (the bundled Gold table), keeps it.
    SemLoadText => SemColumns;
    /// Fits a PLS-SEM spec to a kept matrix.
    SemAnalyze => SemAnalyzed;
    /// The task cells of a kept matrix outside a stated scale, before any fit.
    SemRange => Vec<coglab_core::sem::analysis::OutOfRange>;
    /// Builds a self-test session from a folder of KiVA's images and trial-tracker files.
    SelftestFolder => coglab_core::selftest::Session;
    /// Reads the Review page's files and builds its reviewable sets.
    ReviewBuild => coglab_core::review::Loaded;
    /// Reads a review exported from the Review page (JSON or CSV), to merge into the current one.
    ReviewImport => coglab_core::review::records::ImportedReview;
    /// Gold's weighted scores of a printed table of task scores (the bundled Table 2).
    GoldTable => GoldResult;
    /// Item analysis (classical statistics, Rasch/2PL, S-X2, flags, reduced subset) of kept
    /// rows of one benchmark, as a page-sized report; the analysis is kept for more curves.
    ItemAnalysis => ItemAnalyzed;
    /// Characteristic curves of some items of a kept item analysis (no new fit).
    ItemCurves => Vec<coglab_core::items::ReportCurve>;
    /// Ranks kept rows of one benchmark with paired tests: coverage, rank ranges, groups,
    /// adjusted p-values, MDD, clustered SEs, extraction and judge robustness.
    Rank => coglab_core::ranks::view::RankBoard;
    /// Reads a published bundle's index (`coglab publish`), when the site has one, and keeps
    /// its rows; their items come from the model's chunk, fetched when a row is first opened
    /// or compared, and the rank groups from the board's rank file, fetched once.
    Published => Option<PublishedBoard>;
    /// Checks a visitor's scored files against a published row of the same model: the same
    /// item verdicts or which differ, and the rank among the published rows.
    Reproduce => coglab_core::publish::site::Reproduction;
    /// Estimated full-benchmark accuracy of the kept rows (one benchmark, MM-IQ or KiVA) with
    /// coverage below 100%, calibrated on the complete rows among them; each estimate withheld
    /// with the core's reason when the complete rows are too few (fewer than 20) or cannot be
    /// calibrated.
    Estimates => coglab_core::items::partial::BoardEstimates;
    /// The planner for kept rows of one benchmark: the items needed to tell apart a typed
    /// difference at the board's power, from each pair's observed discordance, and the board's
    /// current minimum detectable difference (`Plan::mdd`).
    Planner => coglab_core::ranks::plan::Plan;
    /// The benchmark quality panel of kept rows of one benchmark: per benchmark and per
    /// category, reliability, SEM, signal, noise, their ratio, the smallest difference told
    /// apart and a warning for categories too small to separate the rows shown.
    Quality => coglab_core::ranks::quality::QualityPanel;
    /// Diagnostics: the size in bytes of the worker's wasm linear memory. Linear memory never
    /// shrinks, so asked after a request it is the most that request (and the ones before)
    /// needed at once (the streamed `.eval` benchmark, `tests/e2e/evalbench.test.mjs`).
    WorkerMemory => f64;
}

/// [`Estimates`]'s arguments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Estimates {
    /// The kept rows of the board (one benchmark), each with the name the table shows; the
    /// complete ones calibrate, the others are estimated.
    pub rows: Vec<(RowId, String)>,
    /// KiVA: the stage whose trials are the items, `cross` or `extrapolation` (every trial
    /// has them); ignored for MM-IQ.
    #[serde(default = "cross")]
    pub stage: coglab_core::items::KivaStages,
    /// Answer options per item: the guessing floor is `1 / options` (MM-IQ 4; 0: none).
    pub options: u32,
}

fn cross() -> coglab_core::items::KivaStages {
    coglab_core::items::KivaStages::Cross
}

/// [`Planner`]'s arguments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Planner {
    /// The kept rows of the board, with the names the table shows.
    pub rows: Vec<(RowId, String)>,
    /// Benchmark, stage or task, and the board options (test, missing items, α, power; the
    /// bootstrap is not run), as for [`Rank`].
    pub request: coglab_core::ranks::view::RankRequest,
    /// The difference to tell apart, as a fraction of the score scale (0.03 = 3 points).
    pub mde: f64,
}

/// [`Quality`]'s arguments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Quality {
    /// The kept rows of the board, with the names the table shows.
    pub rows: Vec<(RowId, String)>,
    /// Benchmark, stage or task, and α and power for the smallest difference, as for
    /// [`Rank`].
    pub request: coglab_core::ranks::view::RankRequest,
}

/// [`WorkerMemory`]'s arguments: none.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
pub struct WorkerMemory;

/// [`Reproduce`]'s arguments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Reproduce {
    /// The published row.
    pub published: RowId,
    /// The row scored from the visitor's files.
    pub submitted: RowId,
    /// The published rows of the benchmark, for the rank (the submission takes the place of
    /// `published` among them).
    pub board: Vec<RowId>,
}

/// [`Published`]'s arguments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Published {
    /// The bundle's URL, ending in `/` (e.g. `/published/`).
    pub base: String,
}

/// A published bundle: its index (figures, settings, input hashes, audit) and the board rows
/// the worker keeps, with their ids.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PublishedBoard {
    /// The index as published.
    pub index: coglab_core::publish::Index,
    /// The MM-IQ, KiVA, MM-OPERA and Gold rows, numbered; their items are fetched when first
    /// needed.
    pub rows: Scored,
}

/// [`Warm`]'s arguments: none.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
pub struct Warm;

/// [`Detect`]'s arguments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Detect {
    /// The files, in order; the reply has one format per file.
    pub files: Vec<FileRef>,
}

/// [`Detect`]'s result for one file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Detected {
    /// The format detected ([`FileKind::Unknown`] when none).
    pub kind: FileKind,
    /// Why the file is of no format when it is text in another encoding (UTF-16, UTF-32),
    /// naming the file and the encoding ([`coglab_core::leaderboard::unreadable`]).
    pub note: Option<String>,
}

/// [`Score`]'s arguments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Score {
    /// The files to read and score together.
    pub files: Vec<FileRef>,
    /// Model names the user set, by file name (others are guessed from the paths).
    pub models: HashMap<String, String>,
    /// Formats the user chose, by file name (others are detected from the content).
    pub kinds: HashMap<String, FileKind>,
}

/// [`Items`]'s arguments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Items {
    /// The MM-IQ row.
    pub row: RowId,
    /// Filters and the page wanted.
    pub query: ItemsQuery,
}

/// [`ItemsCsv`]'s arguments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ItemsCsv {
    /// The MM-IQ or KiVA row.
    pub row: RowId,
    /// The model name written on each line.
    pub model: String,
}

/// [`EeeExport`]'s arguments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EeeExport {
    /// The MM-IQ or KiVA row.
    pub row: RowId,
    /// The model name the records carry (`model_info`, `model_id`, the evaluation id).
    pub model: String,
    /// `retrieved_timestamp` written (Unix seconds; the page sends the time of the click, as
    /// `coglab export eee` writes the time of the run unless given `--timestamp`).
    pub timestamp: u64,
}

/// [`HfExport`]'s arguments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HfExport {
    /// The MM-IQ or KiVA row.
    pub row: RowId,
    /// The Hub model id (`org/name`) whose repository takes the file: the entries' source
    /// links to its page, as `coglab export hf --model` does.
    pub model: String,
    /// The evaluation date (`YYYY-MM-DD`; the page sends the day of the click).
    pub date: String,
}

/// [`HfExport`]'s reply.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HfYaml {
    /// `mmiq.yaml`, `kiva.yaml` or `kiva-adults.yaml`: the file's name in `.eval_results/`.
    pub file_name: String,
    /// The entries as YAML.
    pub yaml: String,
    /// The entries' count.
    pub entries: usize,
}

/// [`ChallengeItems`]'s arguments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ChallengeItems {
    /// The KiVA challenge row.
    pub row: RowId,
    /// Filter and the page wanted.
    pub query: coglab_core::leaderboard::detail::ChallengeQuery,
}

/// [`Trials`]'s arguments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Trials {
    /// The KiVA row.
    pub row: RowId,
    /// Filters and the page wanted.
    pub query: TrialsQuery,
}

/// [`Compare`]'s arguments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Compare {
    /// The first row (A).
    pub first: RowId,
    /// The second row (B).
    pub second: RowId,
    /// Paired-bootstrap resamples (at most [`coglab_core::limits::MAX_RESAMPLES`]; 64 bits,
    /// so that any count a message carries reaches [`check_limits`] on wasm32).
    pub resamples: u64,
    /// Bootstrap seed.
    pub seed: u64,
}

/// [`Compare`]'s result.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Compared {
    /// Two MM-IQ rows.
    Mmiq(Box<MmiqCompareView>),
    /// Two KiVA rows.
    Kiva(KivaComparison),
}

/// [`Answers`]'s arguments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Answers {
    /// The KiVA model row.
    pub row: RowId,
    /// The trial's subdomain (`ColourRed`).
    pub subdomain: String,
    /// The trial's variation number.
    pub variation: u64,
}

/// [`Forget`]'s arguments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Forget {
    /// The rows to drop.
    pub rows: Vec<RowId>,
}

/// [`MmoperaCompare`]'s arguments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MmoperaCompare {
    /// The first row (A).
    pub first: RowId,
    /// The second row (B).
    pub second: RowId,
    /// The task both are compared on.
    pub task: coglab_core::mmopera::Task,
    /// Bootstrap resamples (at most [`coglab_core::limits::MAX_RESAMPLES`]).
    pub resamples: u64,
    /// Bootstrap seed.
    pub seed: u64,
}

/// [`MmoperaLengthBias`]'s arguments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MmoperaLengthBias {
    /// The MM-OPERA row.
    pub row: RowId,
    /// The task.
    pub task: coglab_core::mmopera::Task,
    /// 1-point answers shorter than this many characters are left out.
    pub min_length: usize,
}

/// [`GoldAnalyze`]'s arguments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GoldAnalyze {
    /// The Gold row (from [`Score`]), whose matrix the worker keeps.
    pub row: RowId,
    /// Task → layer.
    pub assignment: BTreeMap<String, String>,
}

/// [`SemLoad`]'s arguments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SemLoad {
    /// The matrix file (CSV).
    pub file: FileRef,
}

/// [`SemLoad`]'s result: the kept matrix and the file's text (UTF-8, as the parser read it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SemLoaded {
    /// The kept matrix and what it holds.
    pub columns: SemColumns,
    /// The file's text, which the page keeps (never parses) for the saved report.
    pub text: String,
}

/// [`SemSpec`]'s arguments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SemSpec {
    /// The spec file (JSON).
    pub file: FileRef,
}

/// [`SemSaved`]'s arguments: where the saved report is.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum SemSaved {
    /// A report file the user picked.
    File(FileRef),
    /// The workspace text kept in this browser (IndexedDB), named for messages.
    Kept {
        /// A name for messages.
        name: String,
        /// The kept JSON text.
        text: String,
    },
}

/// [`SemSaved`]'s result: a saved report's inputs, its matrix kept in the worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SemRestored {
    /// The matrix's file name.
    pub name: String,
    /// The matrix's text (kept by the page for the next save).
    pub text: String,
    /// The kept matrix and what it holds.
    pub columns: SemColumns,
    /// The model.
    pub draft: coglab_core::sem::suite::SpecDraft,
    /// Whether pruning was on.
    pub prune: bool,
    /// The paper-fidelity switches.
    pub switches: SemSwitches,
    /// The saved bootstrap's resamples and seed, if the report had one (not yet checked
    /// against the limits: the page says why it does not run one out of bounds).
    pub bootstrap: Option<(u64, u64)>,
}

/// [`SemLoadText`]'s arguments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SemLoadText {
    /// A name for messages.
    pub name: String,
    /// The matrix as CSV text.
    pub text: String,
}

/// The reply to [`SemLoadText`] (and part of [`SemLoad`]'s and [`SemSaved`]'s).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SemColumns {
    /// The kept matrix.
    pub matrix: MatrixId,
    /// Its file name.
    pub file: String,
    /// Its models (rows).
    pub models: Vec<String>,
    /// Its numeric columns.
    pub columns: Vec<String>,
}

/// [`SemRange`]'s arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SemRange {
    /// The kept matrix.
    pub matrix: MatrixId,
    /// The model as the page edits it (its indicator columns are the task cells checked).
    pub spec: coglab_core::sem::suite::SpecDraft,
    /// The stated scale.
    pub scale: coglab_core::sem::analysis::Scale,
}

/// [`SemAnalyze`]'s arguments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SemAnalyze {
    /// The kept matrix.
    pub matrix: MatrixId,
    /// The model as the page edits it; the worker checks it as `coglab sem --spec` checks a
    /// spec file ([`coglab_core::sem::suite::SpecDraft::to_spec`]).
    pub spec: coglab_core::sem::suite::SpecDraft,
    /// Run Algorithm 1.
    pub prune: bool,
    /// Bootstrap resamples and seed, if wanted.
    pub bootstrap: Option<BootstrapOptions>,
    /// Missing values: mean-imputed (true) or listwise deletion (false).
    pub mean_impute: bool,
    /// The paper-fidelity switches (issue 23).
    #[serde(default)]
    pub switches: SemSwitches,
}

/// The paper-fidelity switches of one fit (issue 23; `coglab sem --htmt`, `--prune VARIANT`,
/// `--arena`, `--scale`, `--exclude-out-of-range`). Defaults are ours, as the CLI's.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct SemSwitches {
    /// HTMT formula.
    pub htmt: HtmtVariant,
    /// Pruning procedure (when pruning is on).
    pub prune_variant: PruneVariant,
    /// Where the human column enters.
    pub arena: ArenaPlacement,
    /// The stated scale of the task columns, if any.
    pub scale: Option<Scale>,
    /// Treat cells outside `scale` as missing.
    pub exclude_out_of_range: bool,
}

/// [`SemAnalyze`]'s result.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SemAnalyzed {
    /// The report.
    pub report: SemReport,
    /// The ranks by the weighted score against the plain mean.
    pub ranks: Vec<RankRow>,
    /// The fit's wall time in milliseconds.
    pub ms: f64,
}

/// [`SelftestFolder`]'s arguments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SelftestFolder {
    /// Every picked path (images and trackers), folder-relative.
    pub paths: Vec<String>,
    /// The trial-tracker files among them, which the worker reads.
    pub trackers: Vec<FileRef>,
    /// The session's seed (which trials, in which order).
    pub seed: u64,
}

/// [`ReviewBuild`]'s arguments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReviewBuild {
    /// Every file loaded on the Review page.
    pub files: Vec<FileRef>,
}

/// [`ReviewImport`]'s arguments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReviewImport {
    /// The exported review (JSON or CSV).
    pub file: FileRef,
}

/// [`GoldTable`]'s arguments: a printed table, one row per model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GoldTable {
    /// Model names.
    pub labels: Vec<String>,
    /// Column names (tasks; a printed `Overall` is left out by the scorer).
    pub columns: Vec<String>,
    /// One value per column, per model.
    pub values: Vec<Vec<Option<f64>>>,
}

/// Checks the counts a request carries against [`coglab_core::limits`], as the command line
/// checks its options: paired-bootstrap resamples (`Compare`, `MmoperaCompare`: 1 to
/// [`MAX_RESAMPLES`](coglab_core::limits::MAX_RESAMPLES)) and SEM bootstrap resamples
/// (`SemAnalyze`: [`MIN_BOOTSTRAP`](coglab_core::limits::MIN_BOOTSTRAP) to
/// [`MAX_BOOTSTRAP`](coglab_core::limits::MAX_BOOTSTRAP)). The worker calls it before any
/// work, so a count out of bounds is refused at once, whatever the page or a message sent it.
/// (File sizes are checked when a file is read: [`crate::protocol::MAX_FILE_BYTES`].)
///
/// # Errors
/// [`WorkerError::OverLimit`] with [`coglab_core::limits::LimitError`]'s message, the one
/// `coglab` prints for the same count, e.g. `resamples: at most 1000000 allowed, found 2000000`.
pub fn check_limits(request: &Request) -> Result<(), WorkerError> {
    use coglab_core::limits::{check, MAX_BOOTSTRAP, MAX_RESAMPLES, MIN_BOOTSTRAP};
    let result = match request {
        Request::Compare(r) => check("resamples", r.resamples, 1, MAX_RESAMPLES).map(drop),
        Request::MmoperaCompare(r) => check("resamples", r.resamples, 1, MAX_RESAMPLES).map(drop),
        Request::SemAnalyze(SemAnalyze {
            bootstrap: Some(b), ..
        }) => check(
            "bootstrap",
            b.resamples as u64,
            MIN_BOOTSTRAP,
            MAX_BOOTSTRAP,
        )
        .map(drop),
        _ => Ok(()),
    };
    result.map_err(WorkerError::from)
}

/// [`ItemAnalysis`]'s arguments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ItemAnalysis {
    /// The kept rows (one benchmark), each with the name its respondent gets.
    pub rows: Vec<(RowId, String)>,
    /// The IRT model.
    pub model: coglab_core::items::IrtModel,
    /// KiVA: include the participants of a dropped adults file.
    pub include_humans: bool,
    /// MM-OPERA: an item is right when its mean holistic score is at least this.
    pub threshold: f64,
    /// Items whose characteristic curves are wanted (empty: the flagged ones).
    pub curves_for: Vec<String>,
}

/// [`ItemAnalysis`]'s result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemAnalyzed {
    /// The kept analysis, for [`ItemCurves`].
    pub analysis: AnalysisId,
    /// The page-sized report.
    pub report: Packed<coglab_core::items::ItemsReport>,
}

/// [`ItemCurves`]'s arguments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ItemCurves {
    /// The kept analysis.
    pub analysis: AnalysisId,
    /// Item ids, in the order wanted (at most 24 are returned).
    pub ids: Vec<String>,
}

/// [`Rank`]'s arguments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Rank {
    /// The rows to rank, with the names the table shows for them, in the table's order.
    pub rows: Vec<(RowId, String)>,
    /// Benchmark, task or stage, and the board options (test, adjustment, missing items,
    /// resamples, seed).
    pub request: coglab_core::ranks::view::RankRequest,
}

/// A message from the page to the worker.
#[derive(Debug, Serialize, Deserialize)]
pub struct Envelope {
    /// Echoed in every reply to it.
    pub id: u64,
    /// The operation and its arguments.
    pub request: Request,
}

/// A message from the worker to the page. `R` is what a finished request carries: the worker
/// posts the typed result; the page reads a message with the result left as it came
/// ([`RawResult`]) and decodes it where the request is awaited, so the code that decodes every
/// reply type is fetched with the first reply, not with the page (src/worker/codec.rs).
// A message exists only while it is posted or read, one at a time: its size does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Serialize, Deserialize)]
pub enum Message<R = Result<Reply, WorkerError>> {
    /// The worker has started; requests sent before this are queued by the page.
    Ready,
    /// Progress of request `id`.
    Progress {
        /// The request.
        id: u64,
        /// Units done (bytes, rows, resamples).
        done: f64,
        /// Units in all (0 when unknown).
        total: f64,
        /// What is being worked on, e.g. a file name.
        label: String,
    },
    /// Request `id` finished: its reply, or why it failed.
    Done {
        /// The request.
        id: u64,
        /// The reply or the error.
        result: R,
    },
}

/// A finished request's result as the JavaScript value it was posted as: a [`Message`] read
/// with it ([`Message<RawResult>`]) is decoded as far as its id, and [`from_js`] reads the
/// result (`Result<Reply, WorkerError>`) later.
#[derive(Debug, Serialize, Deserialize)]
pub struct RawResult(#[serde(with = "serde_wasm_bindgen::preserve")] pub wasm_bindgen::JsValue);

/// A result posted as postcard bytes (one `Uint8Array`) inside the typed reply, for a result
/// of thousands of records: structured clone then copies one buffer instead of building a
/// JavaScript object per record, and the page reads the records in wasm instead of through a
/// JavaScript call per field. An item analysis of 2,710 items was one page-thread task of 45-48
/// ms CPU (a third of it V8's minor GC of the clone) when posted as JavaScript values (issue
/// 22). Only for types without `skip_serializing_if`, `flatten` or untagged enums, which a
/// positional format mis-reads: `tests::packed_item_report_round_trips` checks the one used.
#[derive(Debug, Clone, PartialEq)]
pub struct Packed<T>(pub T);

impl<T: Serialize> Serialize for Packed<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let bytes = postcard::to_allocvec(&self.0).map_err(serde::ser::Error::custom)?;
        serializer.serialize_bytes(&bytes)
    }
}

impl<'de, T: serde::de::DeserializeOwned> Deserialize<'de> for Packed<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let bytes = serde_bytes::ByteBuf::deserialize(deserializer)?;
        postcard::from_bytes(&bytes)
            .map(Packed)
            .map_err(serde::de::Error::custom)
    }
}

/// A value as a JavaScript value for `postMessage` (64-bit integers as `BigInt`, so that ids
/// and seeds stay exact).
///
/// # Errors
/// A message when the value cannot be represented (it names the serde error).
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<wasm_bindgen::JsValue, String> {
    let ser = serde_wasm_bindgen::Serializer::new().serialize_large_number_types_as_bigints(true);
    value.serialize(&ser).map_err(|e| e.to_string())
}

/// A JavaScript value (a message's data) read as a `T`.
///
/// # Errors
/// A message naming what did not match.
pub fn from_js<T: serde::de::DeserializeOwned>(value: wasm_bindgen::JsValue) -> Result<T, String> {
    serde_wasm_bindgen::from_value(value).map_err(|e| {
        // The error is a JavaScript `Error`, whose text starts with "Error: ".
        let text = e.to_string();
        text.strip_prefix("Error: ").unwrap_or(&text).to_string()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The item report goes as postcard bytes ([`Packed`]): a real report, with an item no one
    /// got right, one everyone got right, a missing cell and the reduced subset, reads back
    /// equal (a field that postcard mis-read would shift every value after it).
    #[test]
    fn packed_item_report_round_trips() {
        use coglab_core::items::{analyse, report, AnalysisOptions, ReportOptions, ResponseMatrix};
        let csv = "id,i1,i2,i3,i4,i5,i6,i7\n\
                   r1,1,0,1,1,0,1,1\n\
                   r2,1,0,0,1,1,,0\n\
                   r3,1,0,1,0,1,1,1\n\
                   r4,1,0,0,0,0,1,0\n\
                   r5,1,0,1,1,1,0,1\n\
                   r6,1,0,0,1,0,0,0\n\
                   r7,1,0,1,1,1,1,1\n";
        let m = ResponseMatrix::parse_csv("m.csv", csv.as_bytes()).unwrap();
        let r = report(
            &analyse(&m, &AnalysisOptions::default()).unwrap(),
            &ReportOptions::default(),
        );
        assert_eq!(r.items.len(), 7);
        assert!(r.items[0]
            .flags
            .contains(&coglab_core::items::Flag::AllRight));
        assert!(r.items[1]
            .flags
            .contains(&coglab_core::items::Flag::NoneRight));
        let text = serde_json::to_string(&Packed(r.clone())).unwrap();
        let back: Packed<coglab_core::items::ItemsReport> = serde_json::from_str(&text).unwrap();
        assert_eq!(back.0, r);
        // Not a JSON object: the bytes, as one array of numbers in JSON.
        assert!(text.starts_with('['));
    }

    fn compare(resamples: u64) -> Request {
        Request::Compare(Compare {
            first: RowId::first(1),
            second: RowId {
                generation: 1,
                n: 2,
            },
            resamples,
            seed: 1,
        })
    }

    fn sem(resamples: usize) -> Request {
        Request::SemAnalyze(SemAnalyze {
            matrix: MatrixId {
                generation: 1,
                n: 1,
            },
            spec: Default::default(),
            prune: false,
            bootstrap: Some(BootstrapOptions { resamples, seed: 1 }),
            mean_impute: false,
            switches: SemSwitches::default(),
        })
    }

    /// Issue 27 defect 2 in the browser: the worker refuses the counts the command line
    /// refuses, with the command line's message (`coglab compare mmiq --resamples 2000000`
    /// says the same), before it looks the rows up or fits anything.
    #[test]
    fn counts_beyond_the_limits_are_refused_with_the_cli_message() {
        assert_eq!(
            check_limits(&compare(2_000_000)),
            Err(WorkerError::OverLimit(
                "resamples: at most 1000000 allowed, found 2000000".into()
            ))
        );
        assert_eq!(
            check_limits(&compare(1_000_000_000_000)),
            Err(WorkerError::OverLimit(
                "resamples: at most 1000000 allowed, found 1000000000000".into()
            ))
        );
        assert_eq!(
            check_limits(&compare(0)),
            Err(WorkerError::OverLimit(
                "resamples: at least 1 needed, found 0".into()
            ))
        );
        assert_eq!(check_limits(&compare(1_000_000)), Ok(()));
        let opera = Request::MmoperaCompare(MmoperaCompare {
            first: RowId::first(1),
            second: RowId {
                generation: 1,
                n: 2,
            },
            task: coglab_core::mmopera::Task::Ria,
            resamples: u64::MAX,
            seed: 1,
        });
        assert_eq!(
            check_limits(&opera),
            Err(WorkerError::OverLimit(format!(
                "resamples: at most 1000000 allowed, found {}",
                u64::MAX
            )))
        );
        assert_eq!(
            check_limits(&sem(100_001)),
            Err(WorkerError::OverLimit(
                "bootstrap: at most 100000 allowed, found 100001".into()
            ))
        );
        assert_eq!(
            check_limits(&sem(1)),
            Err(WorkerError::OverLimit(
                "bootstrap: at least 2 needed, found 1".into()
            ))
        );
        assert_eq!(check_limits(&sem(100_000)), Ok(()));
        assert_eq!(check_limits(&Request::Warm(Warm)), Ok(()));
    }
}
