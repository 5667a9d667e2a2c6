//! Why a run failed: a usage error, or bad input whose location is split into fields.
//!
//! The core's errors name file, line (or record) and field in their message; [`Located`] keeps
//! that message as it is and adds the parts as separate fields, taken from the error's variant
//! (never parsed back from the text), so the Python package can raise an exception carrying
//! `file`, `line`, `field`, `expected` and `found`.

use coglab_core::encoding::NotTextError;
use coglab_core::harness::HarnessError;
use coglab_core::items::ItemsError;
use coglab_core::kiva::KivaError;
use coglab_core::location::Location;
use coglab_core::mmiq::MmiqError;
use coglab_core::mmopera::MmoperaError;
use coglab_core::ranks::RanksError;
use coglab_core::selftest::bank::BankError;
use coglab_core::sem::SemError;
use std::fmt;

/// Bad input: the core's message and, where the error says so, where and what.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Located {
    /// The whole message, as the CLI prints it after `coglab: error: `.
    pub message: String,
    /// The file (or the name given to in-memory bytes).
    pub file: Option<String>,
    /// 1-based line or record number.
    pub line: Option<usize>,
    /// The field, column or key.
    pub field: Option<String>,
    /// What was expected there.
    pub expected: Option<String>,
    /// What was found (a quoted snippet).
    pub found: Option<String>,
}

impl Located {
    /// A message with no location.
    pub fn message(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            ..Self::default()
        }
    }

    /// The message with a core [`Location`]'s parts.
    fn at(mut self, l: &Location) -> Self {
        self.file = Some(l.file.clone());
        self.line = l.line;
        self.field.clone_from(&l.field);
        self
    }

    /// The message with a file.
    fn file(mut self, file: &str) -> Self {
        self.file = Some(file.to_string());
        self
    }

    /// The message with a field.
    fn field(mut self, field: &str) -> Self {
        self.field = Some(field.to_string());
        self
    }

    /// The message with what was expected.
    fn expected(mut self, expected: impl ToString) -> Self {
        self.expected = Some(expected.to_string());
        self
    }

    /// The message with what was found.
    fn found(mut self, found: impl ToString) -> Self {
        self.found = Some(found.to_string());
        self
    }
}

/// Why a run failed.
///
/// Not a `std::error::Error` on purpose: the CLI turns every `std::error::Error` into bad input
/// (exit 1), and a [`RunError::Usage`] must stay a usage error (exit 2); the CLI converts this
/// type with its own `From` impl.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunError {
    /// Wrong arguments (the CLI exits 2).
    Usage(String),
    /// A file could not be read or parsed, or the data cannot be analysed (the CLI exits 1).
    Input(Box<Located>),
}

impl RunError {
    /// Bad input with only a message.
    pub fn input(message: impl Into<String>) -> Self {
        RunError::Input(Box::new(Located::message(message)))
    }

    /// Bad input in a named file.
    pub fn in_file(file: &str, message: impl Into<String>) -> Self {
        RunError::Input(Box::new(Located::message(message).file(file)))
    }

    /// The message (as the CLI prints it).
    pub fn message(&self) -> &str {
        match self {
            RunError::Usage(m) => m,
            RunError::Input(l) => &l.message,
        }
    }

    /// The same error with the message prefixed (`"{prefix}: {message}"`), location kept.
    #[must_use]
    pub fn prefixed(self, prefix: &str) -> Self {
        match self {
            RunError::Usage(m) => RunError::Usage(format!("{prefix}: {m}")),
            RunError::Input(mut l) => {
                l.message = format!("{prefix}: {}", l.message);
                RunError::Input(l)
            }
        }
    }
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl From<serde_json::Error> for RunError {
    fn from(e: serde_json::Error) -> Self {
        RunError::input(e.to_string())
    }
}

impl From<Located> for RunError {
    fn from(l: Located) -> Self {
        RunError::Input(Box::new(l))
    }
}

impl From<NotTextError> for Located {
    fn from(e: NotTextError) -> Self {
        Located::message(e.to_string())
            .file(&e.file)
            .expected("UTF-8 text")
            .found(e.what.to_string())
    }
}

impl From<MmiqError> for Located {
    fn from(e: MmiqError) -> Self {
        let l = Located::message(e.to_string());
        match e {
            MmiqError::NotText(n) => n.into(),
            MmiqError::Empty { file, expected } => l.file(&file).expected(expected),
            MmiqError::NotUtf8 { location, .. } => l.at(&location).expected("UTF-8 text"),
            MmiqError::Json { location, .. } => l.at(&location).expected("valid JSON"),
            MmiqError::MissingField { location, expected } => l.at(&location).expected(expected),
            MmiqError::BadValue {
                location,
                expected,
                found,
            } => l.at(&location).expected(expected).found(found),
            MmiqError::DuplicateId { location, .. } => l.at(&location).expected("a unique data_id"),
            MmiqError::MissingColumns { file, missing, .. } => l
                .file(&file)
                .expected(format!("column(s) {}", missing.join(", "))),
            MmiqError::Csv { location, .. } => l.at(&location),
            MmiqError::Spreadsheet { file, .. }
            | MmiqError::UnknownFormat { file, .. }
            | MmiqError::NothingScored { file, .. } => l.file(&file),
            _ => l,
        }
    }
}

impl From<HarnessError> for Located {
    fn from(e: HarnessError) -> Self {
        let l = Located::message(e.to_string());
        match e {
            HarnessError::NotText(n) => n.into(),
            HarnessError::Mmiq(m) => m.into(),
            HarnessError::Kiva(k) => k.into(),
            HarnessError::Empty { file, expected } => l.file(&file).expected(expected),
            HarnessError::NotUtf8 { location, .. } => l.at(&location).expected("UTF-8 text"),
            HarnessError::Json { location, .. } => l.at(&location).expected("valid JSON"),
            HarnessError::Csv { location, .. } => l.at(&location).expected("valid CSV"),
            HarnessError::Missing { location, expected } => l.at(&location).expected(expected),
            HarnessError::BadValue {
                location,
                expected,
                found,
            } => l.at(&location).expected(expected).found(found),
            HarnessError::WrongTask {
                file,
                expected,
                found,
                ..
            } => l.file(&file).expected(expected).found(found),
            HarnessError::Zip { file, .. }
            | HarnessError::Unknown { file, .. }
            | HarnessError::NothingMapped { file, .. } => l.file(&file),
            _ => l,
        }
    }
}

impl From<KivaError> for Located {
    fn from(e: KivaError) -> Self {
        let l = Located::message(e.to_string());
        match e {
            KivaError::NotText(n) => n.into(),
            KivaError::Empty { file, expected } => l.file(&file).expected(expected),
            KivaError::NotUtf8 { location, .. } => l.at(&location).expected("UTF-8 text"),
            KivaError::Csv { location, .. } | KivaError::DuplicateHumanRow { location, .. } => {
                l.at(&location)
            }
            KivaError::MissingColumns { file, missing, .. } => l
                .file(&file)
                .expected(format!("column(s) {}", missing.join(", "))),
            KivaError::BadValue {
                location,
                expected,
                found,
            } => l.at(&location).expected(expected).found(found),
            KivaError::UnknownDomain { file, .. } => l.file(&file),
            KivaError::DuplicateSubdomain { second, .. }
            | KivaError::MixedVariants { second, .. } => l.file(&second),
            _ => l,
        }
    }
}

impl From<MmoperaError> for Located {
    fn from(e: MmoperaError) -> Self {
        let l = Located::message(e.to_string());
        match e {
            MmoperaError::NotText(n) => n.into(),
            MmoperaError::Json { location, .. } => l.at(&location).expected("valid JSON"),
            MmoperaError::Csv { location, .. } => l.at(&location).expected("valid CSV"),
            MmoperaError::Unexpected {
                location,
                expected,
                found,
            } => l.at(&location).expected(expected).found(found),
            MmoperaError::MissingField { location, expected } => l.at(&location).expected(expected),
            MmoperaError::DuplicateId { location, .. } => l.at(&location).expected("a unique id"),
            MmoperaError::Empty { file } => l.file(&file).expected("at least one entry"),
            MmoperaError::TaskMismatch {
                file,
                expected,
                found,
                ..
            } => l
                .file(&file)
                .expected(format!("an {expected} file"))
                .found(format!("an {found} file")),
            MmoperaError::UnknownFormat { file, found } => l
                .file(&file)
                .expected(
                    "an MM-OPERA metadata, answers, regular-scoring or reasoning-scoring file",
                )
                .found(found),
            MmoperaError::BadOption { expected, .. } => l.expected(expected),
            _ => l,
        }
    }
}

impl From<SemError> for Located {
    fn from(e: SemError) -> Self {
        let l = Located::message(e.to_string());
        match e {
            SemError::NotText(n) => n.into(),
            SemError::Data {
                at,
                expected,
                found,
            } => l.at(&at).expected(expected).found(found),
            SemError::Spec { at, .. } | SemError::UnknownIndicator { at, .. } => l.at(&at),
            SemError::UnknownColumn { file, column, .. } => l.file(&file).field(&column),
            SemError::EmptyColumn { file, column } => {
                l.file(&file).field(&column).expected("at least one value")
            }
            SemError::ConstantIndicator { file, column, .. } => l
                .file(&file)
                .field(&column)
                .expected("an indicator that varies over the models"),
            SemError::TooFewModels { file, found, .. } => l.file(&file).found(found),
            _ => l,
        }
    }
}

impl From<ItemsError> for Located {
    fn from(e: ItemsError) -> Self {
        let l = Located::message(e.to_string());
        match e {
            ItemsError::NotUtf8 { location, .. } => l.at(&location).expected("UTF-8 text"),
            ItemsError::Csv { location, .. } | ItemsError::BadId { location, .. } => {
                l.at(&location)
            }
            ItemsError::BadCell { location, found } => l
                .at(&location)
                .expected("1, 0 or an empty cell (missing)")
                .found(found),
            ItemsError::Empty {
                source_name,
                expected,
            } => l.file(&source_name).expected(expected),
            ItemsError::Degenerate { source_name, .. } => l.file(&source_name),
            ItemsError::TooLarge {
                source_name,
                cells,
                max,
                ..
            } => l
                .file(&source_name)
                .expected(format!("at most {max} cells"))
                .found(format!("{cells} cells")),
            ItemsError::BadOption {
                expected, found, ..
            } => l.expected(expected).found(found),
            _ => l,
        }
    }
}

impl From<RanksError> for Located {
    fn from(e: RanksError) -> Self {
        let l = Located::message(e.to_string());
        match e {
            RanksError::BadOption { expected, .. } => l.expected(expected),
            _ => l,
        }
    }
}

impl From<BankError> for Located {
    fn from(e: BankError) -> Self {
        let l = Located::message(e.to_string());
        match e {
            BankError::Items(e) => Located::from(e),
            BankError::UnknownSubdomain { subdomain, .. } => l
                .expected("one of the 14 KiVA subdomains")
                .found(format!("{subdomain:?}")),
            BankError::BadOption {
                expected, found, ..
            } => l.expected(expected).found(found),
            _ => l,
        }
    }
}

/// `From<core error> for RunError` through [`Located`].
macro_rules! input_from {
    ($($t:ty),*) => {$(
        impl From<$t> for RunError {
            fn from(e: $t) -> Self {
                RunError::Input(Box::new(Located::from(e)))
            }
        }
    )*};
}
input_from!(
    NotTextError,
    HarnessError,
    MmiqError,
    KivaError,
    MmoperaError,
    SemError,
    ItemsError,
    RanksError,
    BankError
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_value_keeps_its_parts_and_its_message() {
        let e = MmiqError::BadValue {
            location: Location::file("preds.jsonl")
                .at_line(17)
                .in_field("data_id"),
            expected: "an integer".into(),
            found: "\"abc\"".into(),
        };
        let text = e.to_string();
        let l = Located::from(e);
        assert_eq!(
            text,
            "preds.jsonl line 17: field \"data_id\": expected an integer, found \"abc\""
        );
        assert_eq!(l.message, text);
        assert_eq!(l.file.as_deref(), Some("preds.jsonl"));
        assert_eq!(l.line, Some(17));
        assert_eq!(l.field.as_deref(), Some("data_id"));
        assert_eq!(l.expected.as_deref(), Some("an integer"));
        assert_eq!(l.found.as_deref(), Some("\"abc\""));
    }

    #[test]
    fn a_prefix_keeps_the_location() {
        let e = RunError::in_file("a.csv", "a.csv: bad").prefixed("model x");
        assert_eq!(e.message(), "model x: a.csv: bad");
        let RunError::Input(l) = e else {
            panic!("expected bad input")
        };
        assert_eq!(l.file.as_deref(), Some("a.csv"));
    }
}
