//! Leaderboard ranks that hold up (issue 20): coverage, paired tests among computed rows,
//! adjusted p-values, rank groups and ranges, the board's minimum detectable difference,
//! clustered standard errors, and the robustness of a board to answer extraction and to the
//! LLM judge.
//!
//! - [`board`]: a [`Board`] from per-item scores of several models ([`BoardInput`]): coverage,
//!   scores (missing items counted wrong by default, [`Missing`]), every pair's test on its
//!   shared items ([`PairTest`]: exact McNemar, mid-p McNemar, Wilcoxon signed-rank) with a
//!   seeded paired bootstrap interval of the difference, p-values adjusted ([`Adjust`]), rank
//!   ranges from the tests and from the bootstrap, the leader's group, a compact letter display.
//! - [`inputs`]: [`BoardInput`]s from the scorers' reports (MM-IQ items, KiVA trials with their
//!   regenerations, MM-OPERA item verdicts with their ICA rotations).
//! - [`groups`]: rank ranges and the compact letter display from pairwise decisions.
//! - [`adjust`]: Holm and Benjamini-Hochberg adjustment.
//! - [`power`]: minimum detectable difference.
//! - [`plan`]: the planner: items needed for a difference the user types, from the board's
//!   observed discordance, and what regenerations per item buy.
//! - [`coverage`]: items scored / benchmark size and the headline figure over all items.
//! - [`interval_coverage`]: how often each interval the app shows contains the truth, by
//!   exact sums and seeded simulation (the table of `docs/coverage.md`).
//! - [`cluster`]: naive and clustered standard errors of a mean over repeated measures.
//! - [`extraction`]: MM-IQ scores under the official, a strict and a lenient answer extractor;
//!   KiVA stage answers under the official verdicts, a strict and a lenient reading.
//! - [`view`]: the web leaderboard's rank board from the rows its worker keeps ([`view::rank_board`]),
//!   with the texts the page prints and the glossary of the figures.
//! - [`judges`]: MM-OPERA scores per judge, Krippendorff's α, Kendall's τ-b between judges'
//!   rankings, the items judges disagree on most.
//!
//! Every result is `Serialize + Deserialize` (the web worker sends them to the page). With a
//! seed, results depend on the content and the seed only: items are taken in one canonical
//! order (sorted ids) and models sorted by score then name, whatever the input order.
//! Definitions: `docs/glossary-mmiq-kiva.md` (section "Leaderboard ranks") and
//! `docs/glossary-mmopera.md` (section "Judge robustness and ranks").

pub mod adjust;
pub mod board;
pub mod cluster;
pub mod coverage;
pub mod extraction;
pub mod groups;
pub mod inputs;
pub mod interval_coverage;
pub mod judges;
pub mod plan;
pub mod power;
pub mod quality;
pub mod view;

pub use adjust::Adjust;
pub use board::{
    build_board, check_bootstrap_size, Bench, Board, BoardInput, BoardOptions, Missing, ModelRow,
    ModelScores, PairRow, PairTest, RankRange, ReportedRow,
};

/// Why a board or robustness table could not be built.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum RanksError {
    /// No model has any scored item.
    #[error("no model with scored items: {what}")]
    NoModels {
        /// What was given.
        what: String,
    },
    /// The planner needs at least two models to compare.
    #[error("plan: {found} model(s) with scored items; the planner compares pairs of models, so it needs at least 2")]
    TooFewModels {
        /// Models with scored items.
        found: usize,
    },
    /// Two models have the same name.
    #[error(
        "two models are named {name:?} ({first} and {second}); give one a name with NAME=PATH"
    )]
    DuplicateModel {
        /// The name.
        name: String,
        /// Where the first came from.
        first: String,
        /// Where the second came from.
        second: String,
    },
    /// An option is outside its range.
    #[error("option {name} = {value}: expected {expected}")]
    BadOption {
        /// Option name.
        name: &'static str,
        /// The value given.
        value: String,
        /// The accepted range.
        expected: &'static str,
    },
    /// A count outside [`crate::limits`] (the resamples).
    #[error(transparent)]
    Limit(#[from] crate::limits::LimitError),
    /// The bootstrap would make more than [`crate::limits::MAX_RESAMPLED_DRAWS`] draws.
    #[error(transparent)]
    Draws(#[from] crate::limits::DrawsError),
    /// The bootstrap would keep more than [`crate::limits::MAX_BOOTSTRAP_VALUES`] values.
    #[error(
        "resamples: {resamples} resamples of {models} models keep {values} bootstrap values (one \
         per resample for each model and each of the {pairs} pairs of models), more than the \
         {max} allowed; {}",
        if *fit > 0 {
            format!("use at most {fit} resamples")
        } else {
            format!("even 1 resample keeps {} values: rank at most {max_models} models at a time", models + pairs)
        }
    )]
    TooManyBootstrapValues {
        /// Resamples asked for.
        resamples: usize,
        /// Models on the board.
        models: usize,
        /// Pairs of models.
        pairs: usize,
        /// Values the bootstrap would keep.
        values: u64,
        /// [`crate::limits::MAX_BOOTSTRAP_VALUES`].
        max: usize,
        /// The most resamples that fit (0 when even one resample keeps too many values).
        fit: usize,
        /// The most models whose bootstrap fits with one resample (what to reduce when `fit`
        /// is 0: issue 37, the advice was "use at most 0 resamples").
        max_models: usize,
    },
    /// A statistic failed.
    #[error("{context}: {source}")]
    Stats {
        /// What was being computed.
        context: String,
        /// The statistic's error.
        source: crate::stats::StatsError,
    },
}
