//! The integration tests of the `coglab` command, one module per file beside this one, built as one
//! test binary: every binary links the whole library, and one binary per file (47 in the core
//! and the CLI, with full debug info) once filled a CI machine's disk.

mod arrow_cli;
mod cli_args;
mod estimate_cli;
#[path = "../../coglab-core/tests/common/evalzip.rs"]
mod evalzip;
mod harness_cli;
mod hostile_cli;
mod items_cli;
mod kiva_cli;
mod mmiq_cli;
mod mmopera;
mod parquet_cli;
#[path = "../../coglab-core/tests/common/parquet.rs"]
mod parquet_fixtures;
mod plan_cli;
mod publish_cli;
mod publish_hostile;
mod quality_cli;
mod rank_cli;
mod resources;
mod selftest_cli;
mod sem_cli;
