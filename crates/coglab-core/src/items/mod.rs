//! Item analysis across models and humans (issue 22): classical item statistics, Rasch and 2PL
//! item response theory, suspect-item flags and a reduced item subset that ranks models as the
//! full benchmark does.
//!
//! - [`matrix`]: the respondents x items response matrix (1/0/missing), read from a CSV or
//!   built from scored MM-IQ, KiVA (models and adults) and MM-OPERA results.
//! - [`classical`]: difficulty, corrected point-biserial, Cronbach's alpha and
//!   alpha-if-item-deleted, answer-letter distributions (position bias).
//! - [`irt`]: Rasch and 2PL fitted by marginal maximum likelihood (Bock-Aitkin EM over
//!   Gauss-Hermite quadrature), EAP abilities, infit/outfit, chart-ready curves.
//! - [`flags`]: items no one or everyone solves, negative or near-zero discrimination (with the
//!   most frequent wrong answer), and the largest gaps between two respondent groups.
//! - [`sx2`]: the S-X2 item fit test (Orlando and Thissen 2000) on summed scores.
//! - [`report`]: the page-sized summary the web app's worker sends ([`ItemsReport`]).
//! - [`rows`]: a matrix from computed leaderboard rows (what the web worker keeps).
//! - [`subset`]: the greedy, category-stratified item subset and its Kendall tau curve.
//! - [`estimate`]: a partial run's estimated accuracy over the whole benchmark, from item
//!   parameters calibrated on complete runs (2PL with fixed guessing), with an interval.
//! - [`partial`]: a board's partial rows estimated from a calibration on its complete rows.
//! - [`anchor`]: the `K` anchor items that estimate the full accuracy best, with weights.
//! - [`simulate`]: seeded simulated matrices with known parameters and partial runs cut from
//!   them, to measure [`estimate`].
//!
//! [`analyse`] runs all of them and returns one serialisable [`ItemAnalysis`] (what the CLI
//! prints and the web app's worker sends to the page).

pub mod anchor;
pub mod classical;
pub mod estimate;
pub mod flags;
pub mod irt;
pub mod matrix;
pub mod partial;
pub mod report;
pub mod rows;
pub mod simulate;
pub mod subset;
pub mod sx2;

use crate::location::Location;
use serde::{Deserialize, Serialize};

pub use classical::{classical, ClassicalStats, ItemClassical, LetterCounts};
pub use flags::{flag_items, Flag, Flagged, GroupGap, GroupGaps, ItemFlags};
pub use irt::{fit, Curves, IrtFit, IrtItem, IrtModel, IrtOptions, RespondentAbility};
pub use matrix::{ItemInfo, KivaItemOptions, KivaStages, RespondentInfo, ResponseMatrix};
pub use report::{analyse_report, item_curves, report, ItemsReport, ReportCurve, ReportOptions};
pub use subset::{reduced_subset, SubsetCriterion, SubsetOptions, SubsetResult, TauPoint};
pub use sx2::{s_x2, ItemSx2, Sx2Options, Sx2Result};

/// Why an item analysis could not be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ItemsError {
    /// The bytes are not UTF-8.
    #[error("{location}: not valid UTF-8 (byte {byte} of the line cannot be decoded)")]
    NotUtf8 {
        /// File and line.
        location: Location,
        /// 1-based byte within the line.
        byte: usize,
    },
    /// A CSV record could not be read, or has the wrong number of fields.
    #[error("{location}: {message}")]
    Csv {
        /// File and line.
        location: Location,
        /// What went wrong.
        message: String,
    },
    /// A cell is not 1, 0 or empty.
    #[error("{location}: expected 1, 0 or an empty cell (missing), found {found}")]
    BadCell {
        /// File, line and item column.
        location: Location,
        /// The cell as found.
        found: String,
    },
    /// An item or respondent id is empty or given twice.
    #[error("{location}: {message}")]
    BadId {
        /// File, line and field.
        location: Location,
        /// Which id and what is wrong (`item id "q3" appears twice (first in column 4)`).
        message: String,
    },
    /// Nothing to analyse.
    #[error("{source_name}: the response matrix is empty (expected {expected})")]
    Empty {
        /// The matrix's source (file name or label).
        source_name: String,
        /// What it should contain.
        expected: String,
    },
    /// The matrix cannot be analysed (one respondent, all cells missing, no item with both
    /// right and wrong answers, ...).
    #[error("{source_name}: cannot analyse the items: {reason}")]
    Degenerate {
        /// The matrix's source.
        source_name: String,
        /// Why, in words.
        reason: String,
    },
    /// The matrix is larger than [`crate::limits::MAX_ITEM_CELLS`] (issue 37).
    #[error(
        "{source_name}: {respondents} respondents x {items} items make {cells} cells, more than \
         the {max} an item analysis takes; analyse a sample of the respondents or fewer items"
    )]
    TooLarge {
        /// The matrix's source.
        source_name: String,
        /// Respondents (for a CSV checked before reading: its non-blank lines after the
        /// header).
        respondents: usize,
        /// Items.
        items: usize,
        /// Their product.
        cells: u64,
        /// [`crate::limits::MAX_ITEM_CELLS`].
        max: usize,
    },
    /// An option is out of range.
    #[error("option {name}: expected {expected}, found {found}")]
    BadOption {
        /// Option name.
        name: &'static str,
        /// What is allowed.
        expected: &'static str,
        /// What was given.
        found: String,
    },
}

/// What [`analyse`] computes, beyond the classical statistics (always computed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnalysisOptions {
    /// IRT model and estimation settings.
    pub irt: IrtOptions,
    /// Flag thresholds.
    pub flags: flags::FlagOptions,
    /// The reduced subset, if wanted (`None`: skipped).
    pub subset: Option<SubsetOptions>,
    /// The S-X2 item fit test, if wanted (`None`: skipped).
    #[serde(default = "default_sx2")]
    pub sx2: Option<Sx2Options>,
}

fn default_sx2() -> Option<Sx2Options> {
    Some(Sx2Options::default())
}

impl Default for AnalysisOptions {
    fn default() -> Self {
        Self {
            irt: IrtOptions::default(),
            flags: flags::FlagOptions::default(),
            subset: Some(SubsetOptions::default()),
            sx2: default_sx2(),
        }
    }
}

/// One item's row: the classical statistics, the IRT parameters and the flags.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemRow {
    /// Item id.
    pub id: String,
    /// Category (MM-IQ paradigm, KiVA subdomain, ...), if known.
    pub category: Option<String>,
    /// Answer key letter, if known.
    pub key: Option<String>,
    /// Respondents who answered the item.
    pub n: usize,
    /// Of them, how many were right.
    pub right: usize,
    /// Difficulty: the proportion right (`None` when no one answered).
    pub p: Option<f64>,
    /// Corrected point-biserial discrimination (see [`classical`]).
    pub point_biserial: Option<f64>,
    /// Cronbach's alpha without this item.
    pub alpha_if_deleted: Option<f64>,
    /// IRT discrimination (1 for Rasch; `None` when the item was not fitted).
    pub a: Option<f64>,
    /// IRT difficulty (`None` when the item was not fitted).
    pub b: Option<f64>,
    /// Infit mean square.
    pub infit: Option<f64>,
    /// Outfit mean square.
    pub outfit: Option<f64>,
    /// S-X2 item fit (`None`: not fitted, not computed, or too few score groups; see
    /// [`sx2`]).
    pub sx2: Option<ItemSx2>,
    /// Flags (see [`Flag`]).
    pub flags: Vec<Flag>,
    /// The most frequent wrong answer and how often it was given, when answers are known.
    pub most_frequent_wrong: Option<(String, usize)>,
    /// How often each answer letter was given to this item (position bias per item; empty
    /// when answers are not known).
    pub answers: std::collections::BTreeMap<String, usize>,
}

/// One respondent's row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RespondentRow {
    /// Respondent id.
    pub id: String,
    /// Group (`model`, `human`, ...), if known.
    pub group: Option<String>,
    /// Items answered.
    pub n: usize,
    /// Proportion right among them.
    pub score: Option<f64>,
    /// EAP ability.
    pub theta: Option<f64>,
    /// Posterior standard deviation of the ability.
    pub se: Option<f64>,
}

impl RespondentRow {
    /// The 95% normal interval of the ability, `theta -+ 1.96 se`.
    pub fn interval(&self) -> Option<(f64, f64)> {
        let (t, s) = (self.theta?, self.se?);
        Some((t - 1.96 * s, t + 1.96 * s))
    }
}

/// The whole item analysis of one response matrix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemAnalysis {
    /// Where the matrix came from.
    pub source: String,
    /// The IRT model fitted.
    pub model: IrtModel,
    /// Items, in matrix order.
    pub items: Vec<ItemRow>,
    /// Respondents, in matrix order.
    pub respondents: Vec<RespondentRow>,
    /// Whether the EM converged.
    pub converged: bool,
    /// EM iterations run.
    pub iterations: usize,
    /// Matrix-level classical statistics (alpha, letter distributions).
    pub classical: ClassicalStats,
    /// The IRT fit (log-likelihood, curves, notes).
    pub irt: IrtFit,
    /// Group gaps (`None` when the matrix has fewer than two groups).
    pub gaps: Option<GroupGaps>,
    /// The reduced subset (`None` when not asked for or not computable; see `notes`).
    pub subset: Option<SubsetResult>,
    /// Things the reader should know (skipped parts, items left out of the fit).
    pub notes: Vec<String>,
}

/// Fewer respondents than this and the item flags that rest on how respondents differ
/// (point-biserial, 2PL slope, infit/outfit, S-X2) are withheld, with a note: with 3
/// respondents a 2PL fit put every slope at its bound and 82 items were flagged with no
/// warning (issue 42, defect 12). Ours: a point-biserial over 10 people has a standard error
/// of about 0.3, the size of the flag thresholds themselves.
pub const MIN_FLAG_RESPONDENTS: usize = 10;

/// Withholds the flags that compare respondents when there are fewer than
/// [`MIN_FLAG_RESPONDENTS`], and says so in `notes`.
fn few_respondents(n: usize, flagged: &mut Flagged, notes: &mut Vec<String>) {
    if n >= MIN_FLAG_RESPONDENTS {
        return;
    }
    let mut withheld = 0;
    for f in &mut flagged.items {
        let before = f.flags.len();
        f.flags
            .retain(|x| matches!(x, Flag::NoneRight | Flag::AllRight | Flag::GroupGap));
        withheld += before - f.flags.len();
    }
    notes.push(format!(
        "Only {n} respondents: the discriminations, slopes and fit statistics rest on too few \
         people to flag items ({withheld} such flags withheld; {MIN_FLAG_RESPONDENTS} \
         respondents or more are needed). Items no one or everyone answered right are still \
         flagged. Read the IRT slopes as unidentified: with so few respondents they run to \
         their bounds."
    ));
}

/// Runs the classical statistics, the IRT fit, the flags and (if asked) the reduced subset.
///
/// # Errors
/// [`ItemsError::Degenerate`] for a matrix that cannot be analysed (fewer than two
/// respondents, every cell missing, no item with both a right and a wrong answer),
/// [`ItemsError::BadOption`] for invalid options.
///
/// # Examples
/// ```
/// use coglab_core::items::{analyse, AnalysisOptions, ResponseMatrix};
/// let csv = "id,i1,i2,i3\nr1,1,1,0\nr2,1,0,0\nr3,0,1,1\nr4,1,1,1\n";
/// let m = ResponseMatrix::parse_csv("m.csv", csv.as_bytes()).unwrap();
/// let a = analyse(&m, &AnalysisOptions::default()).unwrap();
/// assert_eq!(a.items[0].p, Some(0.75));
/// ```
pub fn analyse(m: &ResponseMatrix, opts: &AnalysisOptions) -> Result<ItemAnalysis, ItemsError> {
    m.check_analysable()?;
    let cls = classical(m);
    let irt = fit(m, &opts.irt)?;
    let mut flagged = flag_items(m, &cls, Some(&irt), &opts.flags);
    let mut notes = irt.notes.clone();
    let fit_test = opts.sx2.as_ref().map(|o| s_x2(m, &irt, o));
    if let Some(t) = &fit_test {
        notes.extend(t.note.clone());
        flags::flag_sx2(&mut flagged, t, &opts.flags);
    }
    few_respondents(m.respondents.len(), &mut flagged, &mut notes);
    let subset = match &opts.subset {
        None => None,
        Some(so) => match reduced_subset(m, &cls, Some(&irt), so) {
            Ok(s) => Some(s),
            Err(e) => {
                notes.push(format!("reduced subset not computed: {e}"));
                None
            }
        },
    };
    let items = m
        .items
        .iter()
        .enumerate()
        .map(|(j, info)| {
            let c = &cls.items[j];
            let f = &flagged.items[j];
            let it = &irt.items[j];
            ItemRow {
                id: info.id.clone(),
                category: info.category.clone(),
                key: info.key.clone(),
                n: c.n,
                right: c.right,
                p: c.p,
                point_biserial: c.point_biserial,
                alpha_if_deleted: c.alpha_if_deleted,
                a: it.a,
                b: it.b,
                infit: it.infit,
                outfit: it.outfit,
                sx2: fit_test.as_ref().and_then(|t| t.items[j].clone()),
                flags: f.flags.clone(),
                most_frequent_wrong: f.most_frequent_wrong.clone(),
                answers: f.answers.clone(),
            }
        })
        .collect();
    let respondents = m
        .respondents
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let (n, right) = m.respondent_counts(i);
            let ab = &irt.respondents[i];
            RespondentRow {
                id: r.id.clone(),
                group: r.group.clone(),
                n,
                score: (n > 0).then(|| right as f64 / n as f64),
                theta: ab.theta,
                se: ab.se,
            }
        })
        .collect();
    Ok(ItemAnalysis {
        source: m.source.clone(),
        model: irt.model,
        items,
        respondents,
        converged: irt.converged,
        iterations: irt.iterations,
        classical: cls,
        irt,
        gaps: flagged.gaps,
        subset,
        notes,
    })
}
