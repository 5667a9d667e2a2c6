//! The worker side: runs `coglab-core` parsers and scorers off the main thread.
//!
//! Each request names an operation `"<domain>.<name>"`; the domain picks the module:
//! `sys` (built in), and one module per feature area, each owning its operations
//! ([`super::ops_leaderboard`], [`super::ops_structure`]).

use super::protocol::{self, FileSource, InputFile, RequestFile};
use super::{ops_leaderboard, ops_structure};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

/// Posts progress replies for one request.
pub struct Progress {
    id: u64,
    scope: DedicatedWorkerGlobalScope,
}

impl Progress {
    /// Reports `done` of `total` units for `label` (e.g. a file name).
    pub fn report(&self, done: f64, total: f64, label: &str) {
        let _ = self
            .scope
            .post_message(&protocol::progress(self.id, done, total, label));
    }
}

/// Runs one operation. Returns its result as JSON, or a readable error message.
fn dispatch(
    op: &str,
    args: &str,
    files: Vec<InputFile>,
    progress: &Progress,
) -> Result<String, String> {
    let (domain, name) = op.split_once('.').unwrap_or((op, ""));
    match domain {
        "sys" => sys(name, args, &files, progress),
        "lb" => ops_leaderboard::run(name, args, files, progress),
        "sem" => ops_structure::run(name, args, files, progress),
        _ => Err(format!("unknown worker operation {op:?}")),
    }
}

/// Built-in operations: `sys.ping` echoes its arguments; `sys.sizes` lists the files' sizes.
fn sys(name: &str, args: &str, files: &[InputFile], progress: &Progress) -> Result<String, String> {
    match name {
        "ping" => Ok(args.to_string()),
        "sizes" => {
            let total = files.len() as f64;
            let mut out = Vec::new();
            for (i, f) in files.iter().enumerate() {
                out.push(serde_json::json!({"name": f.name, "bytes": f.bytes.len()}));
                progress.report(i as f64 + 1.0, total, &f.name);
            }
            serde_json::to_string(&out).map_err(|e| e.to_string())
        }
        _ => Err(format!("unknown worker operation \"sys.{name}\"")),
    }
}

/// Reads a request's files: transferred bytes as they are, `File`s in chunks with a progress
/// reply per chunk ("reading NAME: N of M MB", done/total in bytes over all the files read).
fn load(files: Vec<RequestFile>, progress: &Progress) -> Result<Vec<InputFile>, String> {
    let total: f64 = files
        .iter()
        .map(|f| match &f.source {
            FileSource::Blob(b) => b.size(),
            FileSource::Bytes(_) => 0.0,
        })
        .sum();
    // Refuse before reading anything when one file is too large.
    for f in &files {
        if let FileSource::Blob(b) = &f.source {
            if b.size() > protocol::MAX_FILE_BYTES {
                return Err(protocol::too_large(&f.name, b.size()));
            }
        }
    }
    let mut before = 0.0;
    let mut out = Vec::with_capacity(files.len());
    for f in files {
        let bytes = match f.source {
            FileSource::Bytes(b) => b,
            FileSource::Blob(blob) => {
                let size = blob.size();
                let b = protocol::read_blob(&f.name, &blob, |done, _| {
                    progress.report(
                        before + done,
                        total,
                        &protocol::reading_label(&f.name, done, size),
                    )
                })?;
                before += size;
                b
            }
        };
        out.push(InputFile {
            name: f.name,
            bytes,
        });
    }
    Ok(out)
}

/// Whether this code runs inside a dedicated worker (rather than a page's window).
pub fn in_worker() -> bool {
    js_sys::global().is_instance_of::<DedicatedWorkerGlobalScope>()
}

/// Serves requests in this worker until it is terminated: installs the message handler and
/// posts "ready". Call once, from the app module's start when [`in_worker`] holds.
pub fn serve() {
    console_error_panic_hook::set_once();
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let reply_scope = scope.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let result = protocol::read_request(&event.data());
        let (id, result) = match result {
            Ok(req) => {
                let progress = Progress {
                    id: req.id,
                    scope: reply_scope.clone(),
                };
                let result = load(req.files, &progress)
                    .and_then(|files| dispatch(&req.op, &req.args, files, &progress));
                (req.id, result)
            }
            Err(e) => (0, Err(e)),
        };
        let _ = reply_scope.post_message(&protocol::finished(id, &result));
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let _ = scope.post_message(&protocol::ready());
}
