//! The scoring worker as the pages see it: its typed API and file limits (from the
//! `coglab-worker` crate, which also holds the worker's side and builds the worker module), and
//! the client the pages use to call it.
//!
//! - [`api`]: every operation, its arguments and its result, declared once for both sides.
//! - [`client`]: the page's side; one worker per tab, started on the first request.
//! - [`codec`]: requests and replies as JavaScript values, in a chunk of their own.
//! - [`protocol`]: file limits and progress updates.
//!
//! Cancelling terminates the worker (the only way to stop a synchronous computation) and a
//! fresh one starts on the next call.

pub use coglab_worker::{api, protocol};
pub mod client;
pub mod codec;
