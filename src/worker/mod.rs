//! The Web Worker that parses and scores files off the main thread, and the client the pages
//! use to call it.
//!
//! Protocol (plain JS objects, so file bytes travel as transferred `ArrayBuffer`s, never copied
//! through JSON):
//! - request `{id, op, args, files: [{name, data: Uint8Array}]}`: `op` names the operation
//!   (`"<domain>.<name>"`, e.g. `"lb.score"`), `args` is a JSON string;
//! - replies `{id, kind: "progress", done, total, label}`, then `{id, kind: "ok", result}` (a
//!   JSON string) or `{id, kind: "err", error}` (a readable message naming file, line, field).
//!
//! Cancelling terminates the worker (the only way to stop a synchronous computation) and a fresh
//! one starts on the next call. The worker binary is `src/bin/worker/main.rs`, built by Trunk
//! (`data-type="worker"`).

pub mod client;
pub mod protocol;
