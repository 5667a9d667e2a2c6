//! Writing CSV: fields separated by commas, records ended by `\n`, a field quoted only when it
//! holds a comma, a quote or a line break (quotes doubled inside), and a record of one empty
//! field written as `""` so that it is not read as a blank line. This is the output of the
//! `csv` crate's default writer (`tests/csv_out.rs` compares the two).
//!
//! The `csv` crate's writer is not used because its quoting code can test whether a field is a
//! number with the standard library's float reader, whose tables would then be in the web app's
//! download (see [`crate::float`]). The crate still reads CSV.

/// A CSV text being written.
///
/// # Examples
/// ```
/// use coglab_core::csv_out::CsvWriter;
/// let mut w = CsvWriter::new();
/// w.record(["model", "score"]);
/// w.record(["GPT-4o, May", "0.5"]);
/// w.record([""]);
/// assert_eq!(w.finish(), "model,score\n\"GPT-4o, May\",0.5\n\"\"\n");
/// ```
#[derive(Debug, Default)]
pub struct CsvWriter {
    out: String,
}

impl CsvWriter {
    /// An empty text.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends one record.
    pub fn record<I, S>(&mut self, fields: I)
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let start = self.out.len();
        for (i, field) in fields.into_iter().enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            let f = field.as_ref();
            if f.contains([',', '"', '\n', '\r']) {
                self.out.push('"');
                self.out.push_str(&f.replace('"', "\"\""));
                self.out.push('"');
            } else {
                self.out.push_str(f);
            }
        }
        if self.out.len() == start {
            self.out.push_str("\"\"");
        }
        self.out.push('\n');
    }

    /// The text written.
    pub fn finish(self) -> String {
        self.out
    }
}
