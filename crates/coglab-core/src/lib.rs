//! `coglab-core`: parsers, scorers and statistics for cognitive benchmarks of multimodal models.
//!
//! Every metric shown by the coglab web app and printed by the `coglab` command-line tool is
//! computed here. The crate has no web or UI dependency, takes bytes and strings in and returns
//! plain values, so it compiles natively and to `wasm32-unknown-unknown`.
//!
//! Modules:
//! - [`stats`]: shared statistics (descriptives, distributions, correlation, intervals, paired tests).
//! - [`limits`]: the largest resample and iteration counts accepted.
//! - [`encoding`]: recognizing UTF-16, UTF-32 and zip input before parsing it.
//! - [`columnar`]: Parquet input (feature `parquet`), read row group by row group into the
//!   rows the text readers take; Arrow IPC recognized.
//! - [`location`]: where in an input file a problem was found, shared by every parser's errors.
//! - [`reported`]: the results reported in the benchmarks' papers, as bundled reference tables.
//! - [`mmiq`], [`kiva`], [`mmopera`]: each benchmark's parsers and scorers.
//! - [`provenance`]: which tool wrote a result file, in which format, and what its records
//!   contributed to a report (shared by the benchmarks' reports and [`harness`]).
//! - [`harness`]: files other harnesses write (lmms-eval, VLMEvalKit, Inspect, Every Eval Ever,
//!   jsPsych, the KiVA challenge), mapped onto benchmark items.
//! - [`selftest`]: the KiVA self-test's trial generator, scoring and export.
//! - [`ranks`]: leaderboard ranks that hold up: paired tests, adjusted p-values, rank groups,
//!   coverage, clustered errors, extraction and judge robustness.
//! - [`items`]: item analysis across models and humans (classical statistics, Rasch/2PL IRT,
//!   suspect-item flags, reduced subsets).
//! - [`publish`]: the published leaderboard: manifest, bundle (index, item chunks, static
//!   boards), reproducibility audit, verify.
//! - [`sem`]: the PLS-SEM engine behind Gold's benchmark-structure diagnostics, on [`linalg`].
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod columnar;
pub mod encoding;
pub mod harness;
pub mod items;
pub mod kiva;
pub mod leaderboard;
pub mod limits;
pub mod linalg;
pub mod location;
pub mod mmiq;
pub mod mmopera;
pub mod provenance;
pub mod publish;
pub mod ranks;
pub mod reported;
pub mod review;
pub mod selftest;
pub mod sem;
pub mod stats;
/// CSV text written by the `csv` crate's writer (fields quoted only where needed, records ended
/// by `\n`, records of any length): `fill` writes the records.
///
/// Writing into memory cannot fail (the writer's only errors are I/O errors and, when not
/// `flexible`, records of unequal length), so the text is returned as is; a debug build asserts
/// that `fill` succeeded.
pub(crate) fn csv_text(fill: impl FnOnce(&mut csv::Writer<Vec<u8>>) -> csv::Result<()>) -> String {
    let mut writer = csv::WriterBuilder::new()
        .flexible(true)
        .from_writer(Vec::new());
    let written = fill(&mut writer);
    debug_assert!(written.is_ok(), "writing CSV into memory: {written:?}");
    let bytes = writer.into_inner().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}
