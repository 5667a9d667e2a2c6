//! KiVA: model-run CSVs, the adult human data, three-stage scoring and aggregation (issue 3).
//!
//! KiVA (seed paper 002) asks, per trial, three questions about a visual transformation:
//! what changed (stage 1, *cross-domain*), how it changed (stage 2, *within-domain*, asked only
//! when stage 1 was not answered wrongly) and which new picture follows the same rule
//! (stage 3, *extrapolation*). This module reads the KiVA repository's files and aggregates
//! them as the paper's section 4 does:
//!
//! - [`RunFile::parse`]: one model-run CSV (`output_<Domain>/<Subdomain>.csv`, columns
//!   `Variation, Regeneration, ..., Full#1..3, MCResponse#1..3`), scored from `MCResponse#k`, or
//!   from the raw answers `Full#k` and the option order `Options#k` when there are no scores
//!   (the repository's rule, [`score_response`]).
//! - [`score_model`]: a set of run files (a folder or single files) → [`KivaReport`].
//! - [`HumanData::parse`] / [`score_human`]: `human_adults_KiVA.csv` → the same report shape plus
//!   reaction times.
//! - [`rt_error_correlation`]: Pearson correlation between a model's mean error and adults'
//!   mean reaction time across subdomains, per stage (the paper's Figure 6).
//!
//! A trial is one variation; its stage score is the mean over its regenerations. Per subdomain,
//! domain and overall: the mean over trials and SE = population SD / sqrt(n trials) (numpy's
//! default ddof 0, as the repository). The "how" stage is reported two ways:
//! `within_conditional` (only trials where at least one regeneration reached stage 2, averaged
//! over those regenerations) and `within_joint` (a skipped stage 2 counts as 0).

mod human;
mod report;
mod run;

pub use human::{score_human, HumanData, HumanRow};
pub(crate) use report::build_report;
pub use report::{
    aggregate_runs, aggregate_runs_with, rt_error_correlation, score_model, score_model_with,
    KivaReport, ReactionTime, RowCounts, RtCorrelation, RtPoint, Source, StageCorrelation,
    StageStats, SubdomainRt, TrialResult,
};
pub use run::{
    run_with_answers, score_response, trial_answers, RegenerationAnswers, RunFile, RunRow,
    StageAnswers,
};

use crate::location::Location;
use serde::{Deserialize, Serialize};

/// The two versions of the benchmark.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Variant {
    /// KiVA: 14 subdomains.
    #[serde(rename = "KiVA")]
    Kiva,
    /// KiVA-adults: 29 subdomains.
    #[serde(rename = "KiVA-adults")]
    KivaAdults,
}

impl Variant {
    /// The name used by the repository and the report (`KiVA`, `KiVA-adults`).
    pub fn name(self) -> &'static str {
        match self {
            Variant::Kiva => "KiVA",
            Variant::KivaAdults => "KiVA-adults",
        }
    }

    /// The variant's subdomains, in the repository's spelling.
    pub fn subdomains(self) -> &'static [&'static str] {
        match self {
            Variant::Kiva => &KIVA_SUBDOMAINS,
            Variant::KivaAdults => &KIVA_ADULTS_SUBDOMAINS,
        }
    }
}

/// The five transformation domains, as the repository names its `output_<Domain>` folders.
pub const DOMAINS: [&str; 5] = ["2DRotation", "Colour", "Counting", "Reflect", "Resize"];

/// The 14 subdomains of KiVA.
pub const KIVA_SUBDOMAINS: [&str; 14] = [
    "2DRotation+90",
    "2DRotation-90",
    "2DRotation180",
    "ColourBlue",
    "ColourGreen",
    "ColourRed",
    "Counting+1",
    "Counting+2",
    "Counting-1",
    "Counting-2",
    "ReflectX",
    "ReflectY",
    "Resize0.5XY",
    "Resize2XY",
];

/// The 29 subdomains of KiVA-adults (paper appendix C, Table 3).
pub const KIVA_ADULTS_SUBDOMAINS: [&str; 29] = [
    "2DRotation+135",
    "2DRotation+45",
    "2DRotation+90",
    "2DRotation-135",
    "2DRotation-45",
    "2DRotation-90",
    "2DRotation180",
    "ColourBlue",
    "ColourGreen",
    "ColourGrey",
    "ColourRed",
    "ColourYellow",
    "Counting+1",
    "Counting+2",
    "Counting-1",
    "Counting-2",
    "Countingd2",
    "Countingd3",
    "Countingx2",
    "Countingx3",
    "ReflectX",
    "ReflectXY",
    "ReflectY",
    "Resize0.5X",
    "Resize0.5XY",
    "Resize0.5Y",
    "Resize2X",
    "Resize2XY",
    "Resize2Y",
];

/// The domain a subdomain name starts with (`ColourRed` → `Colour`).
///
/// # Examples
/// ```
/// assert_eq!(coglab_core::kiva::domain_of("2DRotation-135"), Some("2DRotation"));
/// assert_eq!(coglab_core::kiva::domain_of("Shear"), None);
/// ```
pub fn domain_of(subdomain: &str) -> Option<&'static str> {
    DOMAINS.iter().copied().find(|d| subdomain.starts_with(d))
}

/// The three stages of a trial.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Stage 1: what changed (cross-domain).
    Cross,
    /// Stage 2: how it changed (within-domain).
    Within,
    /// Stage 3: apply the rule to a new object (extrapolation).
    Extrapolation,
}

impl Stage {
    /// All stages in order.
    pub const ALL: [Stage; 3] = [Stage::Cross, Stage::Within, Stage::Extrapolation];
}

/// The outcome of one stage in one model run (one regeneration).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Scored 1.
    Correct,
    /// Scored 0.
    Wrong,
    /// `Null`: the answer named no option (wrong).
    Null,
    /// Empty: stage 2 was not asked; in stage 1 or 3, a missing answer (wrong).
    Empty,
}

impl Outcome {
    /// The stage's score: 1 for correct, 0 for wrong, `Null` or (stages 1 and 3) empty;
    /// `None` for an empty stage 2 (not asked).
    pub fn score(self, stage: Stage) -> Option<f64> {
        self.score_with(stage, NullAnswers::Wrong)
    }

    /// [`Outcome::score`] with `Null` counted as `null` says: 0 ([`NullAnswers::Wrong`]) or
    /// `None` ([`NullAnswers::Missing`]).
    ///
    /// # Examples
    /// ```
    /// use coglab_core::kiva::{NullAnswers, Outcome, Stage};
    /// assert_eq!(Outcome::Null.score_with(Stage::Cross, NullAnswers::Wrong), Some(0.0));
    /// assert_eq!(Outcome::Null.score_with(Stage::Cross, NullAnswers::Missing), None);
    /// ```
    pub fn score_with(self, stage: Stage, null: NullAnswers) -> Option<f64> {
        match (self, stage) {
            (Outcome::Correct, _) => Some(1.0),
            (Outcome::Empty, Stage::Within) => None,
            (Outcome::Null, _) if null == NullAnswers::Missing => None,
            _ => Some(0.0),
        }
    }
}

/// How an answer that names no option (`Null`) is counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum NullAnswers {
    /// As a wrong answer, 0 (the KiVA repository's scripts; default).
    #[default]
    Wrong,
    /// Left out: the regeneration has no score for that stage and is not in its mean (ours, an
    /// option: a `Null` is a failure to answer in the format, not a choice of a wrong option).
    Missing,
}

impl NullAnswers {
    /// The CLI / URL name: `wrong` or `missing`.
    pub fn name(self) -> &'static str {
        match self {
            NullAnswers::Wrong => "wrong",
            NullAnswers::Missing => "missing",
        }
    }

    /// The setting named `wrong` or `missing`, if it is one.
    ///
    /// # Examples
    /// ```
    /// use coglab_core::kiva::NullAnswers;
    /// assert_eq!(NullAnswers::from_name("missing"), Some(NullAnswers::Missing));
    /// assert_eq!(NullAnswers::from_name("0"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "wrong" => Some(NullAnswers::Wrong),
            "missing" => Some(NullAnswers::Missing),
            _ => None,
        }
    }
}

/// Why a KiVA file could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum KivaError {
    /// The file is not UTF-8 text (UTF-16, UTF-32, a zip archive).
    #[error(transparent)]
    NotText(#[from] crate::encoding::NotTextError),
    /// No files, or a file without rows.
    #[error("{file}: the file is empty (expected {expected})")]
    Empty {
        /// File name.
        file: String,
        /// What it should contain.
        expected: &'static str,
    },
    /// The bytes are not UTF-8.
    #[error("{location}: not valid UTF-8 (byte {byte} of the line cannot be decoded)")]
    NotUtf8 {
        /// File and line.
        location: Location,
        /// 1-based byte within the line.
        byte: usize,
    },
    /// A CSV record could not be read.
    #[error("{location}: {message}")]
    Csv {
        /// File and line.
        location: Location,
        /// What is wrong.
        message: String,
    },
    /// Required columns are absent.
    #[error("{file}: missing column(s) {}; the header has {}", .missing.join(", "), .found.join(", "))]
    MissingColumns {
        /// File name.
        file: String,
        /// Required columns not found.
        missing: Vec<String>,
        /// Columns present.
        found: Vec<String>,
    },
    /// A value has the wrong form.
    #[error("{location}: expected {expected}, found {found}")]
    BadValue {
        /// File, line and field.
        location: Location,
        /// What was expected.
        expected: String,
        /// What was found (quoted snippet).
        found: String,
    },
    /// The domain of a file cannot be told from its folder or its name.
    #[error("{file}: cannot tell the domain of subdomain {subdomain:?} (expected a folder output_<Domain> or a name starting with one of {})", DOMAINS.join(", "))]
    UnknownDomain {
        /// File name.
        file: String,
        /// The subdomain taken from the file name.
        subdomain: String,
    },
    /// Two files are for the same subdomain.
    #[error("{second}: subdomain {subdomain} is already given by {first}")]
    DuplicateSubdomain {
        /// The subdomain.
        subdomain: String,
        /// The first file.
        first: String,
        /// The second file.
        second: String,
    },
    /// Files of KiVA and KiVA-adults were mixed.
    #[error(
        "{second} is {second_variant} but {first} is {first_variant}: score one variant at a time"
    )]
    MixedVariants {
        /// A file of the first variant.
        first: String,
        /// Its variant.
        first_variant: String,
        /// A file of the other variant.
        second: String,
        /// Its variant.
        second_variant: String,
    },
    /// A Parquet file could not be read (or this build reads none).
    #[error(transparent)]
    Columnar(#[from] crate::columnar::ColumnarError),
    /// The same participant, transformation, variation and task appear twice.
    #[error("{location}: {trial} already on line {first_line}")]
    DuplicateHumanRow {
        /// File and line of the repeat.
        location: Location,
        /// Participant, transformation, variation and task, in words.
        trial: String,
        /// Line of the first occurrence.
        first_line: usize,
    },
}

impl KivaError {
    /// The location the error names, when it names a line of a file.
    pub fn location_mut(&mut self) -> Option<&mut Location> {
        match self {
            KivaError::NotUtf8 { location, .. }
            | KivaError::Csv { location, .. }
            | KivaError::BadValue { location, .. }
            | KivaError::DuplicateHumanRow { location, .. } => Some(location),
            _ => None,
        }
    }
}

/// Checks UTF-8 (dropping a BOM), naming the line and byte of the first invalid byte.
pub(crate) fn utf8<'a>(file: &str, bytes: &'a [u8]) -> Result<&'a str, KivaError> {
    crate::encoding::check_text(file, bytes)?;
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    std::str::from_utf8(bytes).map_err(|e| {
        let (line, start) = crate::location::line_and_start(bytes, e.valid_up_to());
        KivaError::NotUtf8 {
            location: Location::file(file).at_line(line),
            byte: e.valid_up_to() - start + 1,
        }
    })
}

/// A parsed CSV: header and data records with their 1-based line numbers.
pub(crate) struct Csv {
    pub columns: Vec<String>,
    pub rows: Vec<(usize, csv::StringRecord)>,
}

impl Csv {
    pub(crate) fn parse(
        file: &str,
        bytes: &[u8],
        expected: &'static str,
    ) -> Result<Self, KivaError> {
        let text = utf8(file, bytes)?;
        if let Some(line) = crate::location::unterminated_quote(text.as_bytes(), b',') {
            return Err(KivaError::Csv {
                location: Location::file(file).at_line(line),
                message:
                    "a quoted field opens here and is never closed (the file may be cut short)"
                        .into(),
            });
        }
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(text.as_bytes());
        let err = |e: csv::Error| KivaError::Csv {
            location: Location::file(file)
                .at_line(crate::location::LineIndex::new(text.as_bytes()).csv_line(e.position())),
            message: e.to_string(),
        };
        let mut records = reader.records();
        let columns: Vec<String> = match records.next() {
            None => {
                return Err(KivaError::Empty {
                    file: file.to_string(),
                    expected,
                })
            }
            Some(r) => r
                .map_err(err)?
                .iter()
                .map(|s| s.trim().to_string())
                .collect(),
        };
        let mut rows = Vec::new();
        let mut lines = crate::location::LineIndex::new(text.as_bytes());
        for rec in records {
            let rec = rec.map_err(err)?;
            if rec.iter().all(|f| f.trim().is_empty()) {
                continue;
            }
            let line = lines.csv_line(rec.position());
            if rec.len() != columns.len() {
                return Err(KivaError::Csv {
                    location: Location::file(file).at_line(line),
                    message: format!(
                        "expected {} fields as in the header, found {}",
                        columns.len(),
                        rec.len()
                    ),
                });
            }
            rows.push((line, rec));
        }
        if rows.is_empty() {
            return Err(KivaError::Empty {
                file: file.to_string(),
                expected,
            });
        }
        Ok(Self { columns, rows })
    }

    pub(crate) fn column(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == name)
    }

    pub(crate) fn require(&self, file: &str, names: &[&str]) -> Result<Vec<usize>, KivaError> {
        let missing: Vec<String> = names
            .iter()
            .filter(|n| self.column(n).is_none())
            .map(|n| (*n).to_string())
            .collect();
        if !missing.is_empty() {
            return Err(KivaError::MissingColumns {
                file: file.to_string(),
                missing,
                found: self.columns.clone(),
            });
        }
        Ok(names.iter().filter_map(|n| self.column(n)).collect())
    }
}

/// Reads a non-negative integer field (`"3"`, `"3.0"`).
pub(crate) fn int_field(loc: &Location, field: &str, text: &str) -> Result<u64, KivaError> {
    let t = text.trim();
    t.parse::<u64>()
        .ok()
        .or_else(|| {
            t.parse::<f64>()
                .ok()
                .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f < 9.0e15)
                .map(|f| f as u64)
        })
        .ok_or_else(|| KivaError::BadValue {
            location: loc.clone().in_field(field),
            expected: "a non-negative integer".into(),
            found: crate::location::snippet(text),
        })
}
