//! coglab's scoring worker: the typed API between the pages and the worker, and the worker's
//! side of it. The app's page module uses [`api`] and [`protocol`] to call it (its
//! `worker::client`); the worker module (`src/main.rs`, built by Trunk as `coglab-worker`, a
//! second wasm module that only the worker loads) runs [`host::serve`].
//!
//! - [`api`]: every operation, its arguments and its result, declared once for both sides.
//! - [`host`]: the worker's serving loop; it owns the one [`state::WorkerState`] (what the
//!   worker keeps between requests) and hands it to the operations, [`ops_leaderboard`],
//!   [`ops_published`], [`ops_structure`], [`ops_items`], [`ops_quality`], which run over
//!   [`coglab_core`].
//! - [`io`]: the worker's side of the browser: progress replies, reading files, fetching, the
//!   heap and the clock.
//! - [`protocol`]: reading the user's files as streams in the worker, limits and progress.
//! - [`lifeline`]: how the page learns that its worker has ended, whatever ended it.
//!
//! A crate of its own, without Leptos or any page code, so that the worker module is built
//! with its own cargo profile (`wasm-worker`, optimized for speed: it is fetched only when a
//! page first asks it for something, so it is not part of the first-load budget) without
//! compiling the UI's dependencies a second time.
#![forbid(unsafe_code)]

pub mod api;
pub mod host;
pub mod io;
pub mod lifeline;
pub mod ops_items;
pub mod ops_leaderboard;
pub mod ops_published;
pub mod ops_quality;
pub mod ops_structure;
#[cfg(feature = "parquet")]
pub mod parquet_input;
pub mod protocol;
pub mod state;
