//! Where in an input a problem was found: file, line (or record) and field.
//!
//! Every parser error in this crate carries a [`Location`], so a message reads like
//! `preds.jsonl line 17: field "data_id": expected an integer, found "abc"`.

use std::fmt;

/// A position in a user-supplied input: the file name, an optional 1-based line or record
/// number, and an optional field (column or key) name.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Location {
    /// The file name as the user gave it (or a label such as `<stdin>`).
    pub file: String,
    /// 1-based line number (JSONL, CSV line) or record number, when known.
    pub line: Option<usize>,
    /// Field, column or key name, when the problem is in one field.
    pub field: Option<String>,
}

impl Location {
    /// A location naming only a file.
    pub fn file(file: impl Into<String>) -> Self {
        Self {
            file: file.into(),
            line: None,
            field: None,
        }
    }

    /// The same location at a 1-based line.
    #[must_use]
    pub fn at_line(mut self, line: usize) -> Self {
        self.line = Some(line);
        self
    }

    /// The same location in a named field.
    #[must_use]
    pub fn in_field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }
}

impl fmt::Display for Location {
    /// ```
    /// use coglab_core::location::Location;
    /// let loc = Location::file("preds.jsonl").at_line(17).in_field("data_id");
    /// assert_eq!(loc.to_string(), "preds.jsonl line 17: field \"data_id\"");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if let Some(line) = self.line {
            write!(f, " line {line}")?;
        }
        if let Some(field) = &self.field {
            write!(f, ": field \"{field}\"")?;
        }
        Ok(())
    }
}

/// A short, printable rendering of a found value for error messages (at most 40 characters).
pub fn snippet(found: &str) -> String {
    const MAX: usize = 40;
    let mut out: String = found.chars().take(MAX).collect();
    if found.chars().count() > MAX {
        out.push('…');
    }
    format!("{out:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_without_line_or_field() {
        assert_eq!(Location::file("key.jsonl").to_string(), "key.jsonl");
        assert_eq!(
            Location::file("a.csv").at_line(3).to_string(),
            "a.csv line 3"
        );
    }

    #[test]
    fn snippet_truncates_long_values() {
        let long = "x".repeat(100);
        let s = snippet(&long);
        assert_eq!(s.chars().count(), 40 + 1 + 2);
        assert_eq!(snippet("abc"), "\"abc\"");
    }
}
