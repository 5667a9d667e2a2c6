//! The integration tests of the core library, one module per file beside this one, built as one
//! test binary: every binary links the whole library, and one binary per file (47 in the core
//! and the CLI, with full debug info) once filled a CI machine's disk.

#[cfg(feature = "parquet")]
mod arrow_input;
mod bad_inputs;
mod common;
mod eee_kiva;
mod gold_appendix_tables;
mod harness;
#[cfg(feature = "parquet")]
mod harness_lighteval;
mod hostile;
mod hostile_eval;
mod items_real;
mod items_recovery;
mod items_reference;
mod items_report;
mod items_rows;
mod items_sx2;
#[cfg(feature = "parquet")]
mod kiva_parquet;
mod kiva_real;
mod kiva_small;
mod leaderboard;
mod leaderboard_detail;
mod leaderboard_gold;
mod leaderboard_mmopera;
mod leaderboard_selftest;
mod mmiq_compact;
mod mmiq_extract;
mod mmiq_lean;
mod mmiq_real;
mod mmiq_sliced;
mod mmiq_small;
mod mmopera;
#[cfg(feature = "parquet")]
mod parquet_input;
mod publish_ranks;
mod publish_size;
mod quality_real;
mod ranks;
mod reported_bundles;
mod review;
mod selftest;
mod selftest_bank;
mod selftest_stimuli;
mod sem_fidelity;
mod sem_gold;
mod sem_plspm;
mod sem_seminr;
mod sem_suite;
mod xlsx;
mod xlsx_limits;
