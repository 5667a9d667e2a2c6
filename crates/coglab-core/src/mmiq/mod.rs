//! MM-IQ: answer keys, prediction files, answer extraction and accuracy (issue 3).
//!
//! MM-IQ (seed paper 001) is a 2,710-item multiple-choice benchmark of abstract visual reasoning
//! in 8 paradigms. This module reads its real files and scores them the way the benchmark's
//! released script does:
//!
//! - [`AnswerKey::parse`]: `MMIQ_benchmark_answer_dict.jsonl` (`{"category", "MD5", "data_id",
//!   "answer"}` per line); [`CompactKey`], the same key as scoring needs it (a few bytes per
//!   item).
//! - [`Predictions::parse`]: predictions as MM-IQ JSONL (`{"data_id", "category"?, "response"}` or
//!   `{"data_id", "category"?, "parsed_pred"}`), or VLMEvalKit prediction tables (`.xlsx`,
//!   `.tsv`, `.csv`, `.json`; columns `index, question, A.., answer, category, prediction`).
//! - [`AccSummary::parse`]: VLMEvalKit `*_acc.csv` summaries (pre-computed accuracies).
//! - [`detect`]: guesses which of these a file is from its name and first bytes.
//! - [`extract::extract_choice`]: the released script's answer extraction, rule by rule.
//! - [`score`] → [`MmiqReport`]: accuracy overall (item-weighted) and per paradigm with Wilson
//!   95% intervals, the 25% chance line, the paper's human row, item-level results and counts of
//!   rows read, scored and skipped; [`StreamScorer`], the same report (without the item
//!   results) of a predictions file scored as it is read, against a [`CompactKey`].
//! - [`compare`] → [`MmiqComparison`]: two models on the same items (2x2 table, McNemar exact
//!   test, seeded paired bootstrap interval of the accuracy difference).
//!
//! Problems that make a file unreadable or ambiguous are errors ([`MmiqError`], naming file,
//! line, field, expected and found); problems the key can resolve are counted warnings in the
//! report (see `docs/glossary-mmiq-kiva.md`).

mod compact;
pub mod extract;
mod input;
mod jsonfast;
mod jsonl;
pub mod lean;
mod pyword;
mod read;
mod score;
mod stream;
pub(crate) mod table;
pub mod xlsx;

#[doc(hidden)]
pub use jsonl::{scanner_and_serde, LineFields};

/// The container of a VLMEvalKit table, as [`MmiqFormat::VlmEvalKit`] names it (defined with
/// the other harness formats in [`crate::provenance`]).
pub use crate::provenance::TableKind;
/// The accuracy every MM-IQ figure is (defined with the Wilson interval in [`crate::stats`]).
pub use crate::stats::interval::Accuracy;
pub use compact::{CompactKey, CompactKeyReader};
pub use input::{
    detect, AnswerKey, KeyItem, MmiqFormat, PredContent, PredRecord, Predictions, TextLength,
};
pub use jsonl::{KeyReader, PredictionsReader};
pub use lean::{LEAN_INPUT_BYTES, PREVIEW_CHARS};
pub use read::{check_columns, ParquetRole, PARQUET_COLUMNS};
#[cfg(feature = "parquet")]
pub use read::{columnar_table_rows, parquet_group_rows, parquet_rows};
pub use score::{
    compare, key_letters, score, score_owned, score_totals, HumanReference, ItemResult, KeyLetters,
    LetterBaseline, MmiqComparison, MmiqReport, PaperTokenLength, ResponseLength, RowCounts,
    SideSummary, Warnings, CHANCE, PAPER_TOKEN_LENGTHS,
};
pub use stream::StreamScorer;
pub use table::{AccRow, AccSummary};

use crate::location::Location;

/// The 8 reasoning paradigms of MM-IQ, as spelled in the answer key, in the paper's Table 2
/// order (LO, Math, 2D-G, 3D-G, VI, TM, SR, CO).
pub const CATEGORIES: [&str; 8] = [
    "Logical Operation",
    "Mathematical",
    "2D-Geometry",
    "3D-Geometry",
    "Visual Instruction",
    "Temporal Movement",
    "Spatial Relationship",
    "Concrete Object",
];

/// Why an MM-IQ file could not be read or scored.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum MmiqError {
    /// The file is not UTF-8 text (UTF-16, UTF-32, a zip archive).
    #[error(transparent)]
    NotText(#[from] crate::encoding::NotTextError),
    /// The file has no content (or only blank lines).
    #[error("{file}: the file is empty (expected {expected})")]
    Empty {
        /// File name.
        file: String,
        /// What the file should contain.
        expected: &'static str,
    },
    /// The bytes are not UTF-8.
    #[error("{location}: not valid UTF-8 (byte {byte} of the line cannot be decoded)")]
    NotUtf8 {
        /// File and line.
        location: Location,
        /// 1-based byte position within the line of the first invalid byte.
        byte: usize,
    },
    /// A line or document is not valid JSON.
    #[error("{location}: invalid JSON: {message}")]
    Json {
        /// File and line.
        location: Location,
        /// The parser's message (with the column).
        message: String,
    },
    /// A required field or key is absent.
    #[error("{location}: missing (expected {expected})")]
    MissingField {
        /// File, line and field.
        location: Location,
        /// What the field should hold.
        expected: &'static str,
    },
    /// A field holds a value of the wrong type or form.
    #[error("{location}: expected {expected}, found {found}")]
    BadValue {
        /// File, line and field.
        location: Location,
        /// What was expected.
        expected: String,
        /// What was found (quoted snippet).
        found: String,
    },
    /// The same `data_id` appears twice in one file.
    #[error("{location}: duplicate data_id {data_id} (first on line {first_line})")]
    DuplicateId {
        /// File, line and field of the second occurrence.
        location: Location,
        /// The repeated id.
        data_id: u64,
        /// Line of the first occurrence.
        first_line: usize,
    },
    /// A table lacks required columns.
    #[error("{file}: missing column(s) {}; the header has {}", .missing.join(", "), .found.join(", "))]
    MissingColumns {
        /// File name.
        file: String,
        /// The required columns that are absent.
        missing: Vec<String>,
        /// The columns present.
        found: Vec<String>,
    },
    /// A CSV/TSV record could not be read.
    #[error("{location}: {message}")]
    Csv {
        /// File and line.
        location: Location,
        /// What is wrong.
        message: String,
    },
    /// An `.xlsx` workbook could not be read.
    #[error("{file}: cannot read the workbook: {message}")]
    Spreadsheet {
        /// File name.
        file: String,
        /// The reader's message.
        message: String,
    },
    /// The file is none of the formats this module reads.
    #[error("{file}: not an MM-IQ answer key, prediction file or VLMEvalKit table ({reason})")]
    UnknownFormat {
        /// File name.
        file: String,
        /// What was seen.
        reason: String,
    },
    /// No prediction matched an item of the key, so there is nothing to score.
    #[error("{file}: none of the {read} predictions has a data_id in the answer key {key_file}")]
    NothingScored {
        /// Predictions file.
        file: String,
        /// Answer key file.
        key_file: String,
        /// Number of prediction rows read.
        read: usize,
    },
    /// Two prediction files share no scored item.
    #[error("{first} and {second} have no scored data_id in common")]
    NoCommonItems {
        /// First predictions file.
        first: String,
        /// Second predictions file.
        second: String,
    },
    /// A statistic could not be computed (e.g. bad bootstrap parameters).
    #[error("{0}")]
    Stats(#[from] crate::stats::StatsError),
    /// A Parquet file could not be read (or this build reads none).
    #[error(transparent)]
    Columnar(#[from] crate::columnar::ColumnarError),
}

impl MmiqError {
    /// The location the error names, when it names a line of a file.
    pub fn location_mut(&mut self) -> Option<&mut Location> {
        match self {
            MmiqError::NotUtf8 { location, .. }
            | MmiqError::Json { location, .. }
            | MmiqError::MissingField { location, .. }
            | MmiqError::BadValue { location, .. }
            | MmiqError::DuplicateId { location, .. }
            | MmiqError::Csv { location, .. } => Some(location),
            _ => None,
        }
    }
}
