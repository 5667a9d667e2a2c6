//! The scoring worker: its typed API, the worker side that runs it, and the client the pages
//! use to call it.
//!
//! - [`api`]: every operation, its arguments and its result, declared once for both sides.
//! - [`host`] (with [`ops_leaderboard`], [`ops_published`], [`ops_structure`], [`ops_items`]): runs in the worker module
//!   (`src/bin/worker.rs`, built by Trunk as `coglab-worker`, a second wasm module that only
//!   the worker loads, so the page's first download holds no parser or scorer).
//! - [`client`]: the page's side; one worker per tab, started on the first request.
//! - [`protocol`]: reading the user's files as streams in the worker, limits and progress.
//!
//! Cancelling terminates the worker (the only way to stop a synchronous computation) and a
//! fresh one starts on the next call.

pub mod api;
pub mod client;
pub mod host;
pub mod ops_items;
pub mod ops_leaderboard;
pub mod ops_published;
pub mod ops_structure;
pub mod protocol;
