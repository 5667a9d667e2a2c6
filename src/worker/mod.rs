//! The Web Worker that parses and scores files off the main thread, and the client the pages
//! use to call it.
//!
//! Protocol (plain JS objects, so file bytes travel as transferred `ArrayBuffer`s, never copied
//! through JSON):
//! - request `{id, op, args, files: [{name, data: Uint8Array}]}`: `op` names the operation
//!   (`"<domain>.<name>"`, e.g. `"lb.score"`), `args` is a JSON string;
//! - replies `{id, kind: "progress", done, total, label}`, then `{id, kind: "ok", result}` or
//!   `{id, kind: "err", error}` (a readable message naming file, line, field). `result` is a
//!   JSON string for small results (`sys.*`, `sem.columns`), and a `Uint8Array` holding the
//!   value in the binary form of `coglab_core::wire` for the large typed ones (`lb.score`,
//!   item and trial pages, comparisons, `sem.analyze`): see [`protocol::Output`].
//!
//! Cancelling terminates the worker (the only way to stop a synchronous computation) and a fresh
//! one starts on the next call.
//!
//! One WebAssembly module: the worker runs the app's own module, so no code is downloaded
//! twice. The page starts `worker.js` (a module worker, `public/worker.js`) and posts it the URL
//! of the app's wasm-bindgen glue and the compiled `WebAssembly.Module` (no second download or
//! compile); the glue instantiates it, the app's start sees it is in a worker
//! ([`host::in_worker`]) and calls [`host::serve`] instead of mounting the app.

pub mod client;
pub mod host;
pub mod ops_leaderboard;
pub mod ops_structure;
pub mod protocol;
