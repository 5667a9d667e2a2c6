//! `coglab-core`: parsers, scorers and statistics for cognitive benchmarks of multimodal models.
//!
//! Every metric shown by the coglab web app and printed by the `coglab` command-line tool is
//! computed here. The crate has no web or UI dependency, takes bytes and strings in and returns
//! plain values, so it compiles natively and to `wasm32-unknown-unknown`.
//!
//! Modules:
//! - [`stats`]: shared statistics (descriptives, distributions, correlation, intervals, paired tests).
//! - [`location`]: where in an input file a problem was found, shared by every parser's errors.
//! - [`reported`]: the results reported in the benchmarks' papers, as bundled reference tables.
//! - [`mmiq`], [`kiva`], [`mmopera`]: each benchmark's parsers and scorers.
//! - [`selftest`]: the KiVA self-test's trial generator, scoring and export.
//! - [`items`]: item analysis across models and humans (classical statistics, Rasch/2PL IRT,
//!   suspect-item flags, reduced subsets).
//! - [`order`]: stable sorting and tree building through one shared sort instantiation (wasm code size).
//! - [`sem`]: the PLS-SEM engine behind Gold's benchmark-structure diagnostics, on [`linalg`].
//! - [`wire`]: the compact binary form in which the web app's worker hands results to the page.
//! - [`float`], [`csv_out`]: reading numbers and writing CSV without the standard library's
//!   float reader (wasm code size).
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod csv_out;
pub mod float;
pub mod items;
pub mod kiva;
pub mod leaderboard;
pub mod linalg;
pub mod location;
pub mod mmiq;
pub mod mmopera;
pub mod order;
pub mod reported;
pub mod review;
pub mod selftest;
pub mod sem;
pub mod stats;
pub mod wire;
