//! Message shapes shared by the worker and its client, built and read with `js_sys::Reflect`.

use js_sys::{Array, Object, Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};

/// A progress update from a running operation.
#[derive(Debug, Clone, PartialEq)]
pub struct ProgressUpdate {
    /// Units done (bytes, rows, resamples).
    pub done: f64,
    /// Units in all (0 when unknown).
    pub total: f64,
    /// What is being worked on, e.g. a file name.
    pub label: String,
}

impl ProgressUpdate {
    /// Done as a fraction in [0, 1] (0 when the total is unknown).
    pub fn fraction(&self) -> f64 {
        if self.total > 0.0 {
            (self.done / self.total).clamp(0.0, 1.0)
        } else {
            0.0
        }
    }
}

/// A reply read from a message event's data.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// The worker has started and handles requests from now on.
    Ready,
    /// Progress of request `id`.
    Progress(u64, ProgressUpdate),
    /// Request `id` finished with a JSON result.
    Ok(u64, String),
    /// Request `id` failed with a message.
    Err(u64, String),
}

fn set(obj: &Object, key: &str, value: &JsValue) {
    // Setting a property on a plain object we created cannot fail.
    let _ = Reflect::set(obj, &JsValue::from_str(key), value);
}

fn get_f64(obj: &JsValue, key: &str) -> Option<f64> {
    Reflect::get(obj, &JsValue::from_str(key)).ok()?.as_f64()
}

fn get_string(obj: &JsValue, key: &str) -> Option<String> {
    Reflect::get(obj, &JsValue::from_str(key)).ok()?.as_string()
}

/// Builds a request object. Returns it with the list of buffers to transfer.
pub fn request(id: u64, op: &str, args: &str, files: &[(String, Uint8Array)]) -> (Object, Array) {
    let obj = Object::new();
    set(&obj, "id", &JsValue::from_f64(id as f64));
    set(&obj, "op", &JsValue::from_str(op));
    set(&obj, "args", &JsValue::from_str(args));
    let list = Array::new();
    let transfer = Array::new();
    for (name, data) in files {
        let f = Object::new();
        set(&f, "name", &JsValue::from_str(name));
        set(&f, "data", data);
        list.push(&f);
        transfer.push(&data.buffer());
    }
    set(&obj, "files", &list);
    (obj, transfer)
}

/// A request as the worker reads it.
#[derive(Debug)]
pub struct Request {
    /// Request id, echoed in every reply.
    pub id: u64,
    /// Operation name, `"<domain>.<name>"`.
    pub op: String,
    /// JSON arguments.
    pub args: String,
    /// Input files: name and bytes.
    pub files: Vec<InputFile>,
}

/// One input file given to a worker operation.
#[derive(Debug, Clone)]
pub struct InputFile {
    /// The file name as the user chose it (used in error messages).
    pub name: String,
    /// The file's bytes.
    pub bytes: Vec<u8>,
}

/// Reads a request from a message's data.
///
/// # Errors
/// A message naming the missing or mistyped field.
pub fn read_request(data: &JsValue) -> Result<Request, String> {
    let id = get_f64(data, "id").ok_or("worker request: field \"id\": expected a number")? as u64;
    let op = get_string(data, "op").ok_or("worker request: field \"op\": expected a string")?;
    let args = get_string(data, "args").unwrap_or_else(|| "null".to_string());
    let list: Array = Reflect::get(data, &JsValue::from_str("files"))
        .ok()
        .and_then(|v| v.dyn_into().ok())
        .unwrap_or_default();
    let mut files = Vec::with_capacity(list.length() as usize);
    for (i, f) in list.iter().enumerate() {
        let name = get_string(&f, "name").unwrap_or_else(|| format!("file {}", i + 1));
        let data: Uint8Array = Reflect::get(&f, &JsValue::from_str("data"))
            .ok()
            .and_then(|v| v.dyn_into().ok())
            .ok_or_else(|| format!("worker request: file {name}: expected bytes"))?;
        files.push(InputFile {
            name,
            bytes: data.to_vec(),
        });
    }
    Ok(Request {
        id,
        op,
        args,
        files,
    })
}

/// The message a worker posts once it can handle requests (messages sent to a worker before
/// its wasm has started are lost, so the client waits for this).
pub fn ready() -> Object {
    let obj = Object::new();
    set(&obj, "kind", &JsValue::from_str("ready"));
    obj
}

/// Builds a progress reply.
pub fn progress(id: u64, done: f64, total: f64, label: &str) -> Object {
    let obj = Object::new();
    set(&obj, "id", &JsValue::from_f64(id as f64));
    set(&obj, "kind", &JsValue::from_str("progress"));
    set(&obj, "done", &JsValue::from_f64(done));
    set(&obj, "total", &JsValue::from_f64(total));
    set(&obj, "label", &JsValue::from_str(label));
    obj
}

/// Builds a final reply: the JSON result, or an error message.
pub fn finished(id: u64, result: &Result<String, String>) -> Object {
    let obj = Object::new();
    set(&obj, "id", &JsValue::from_f64(id as f64));
    match result {
        Ok(json) => {
            set(&obj, "kind", &JsValue::from_str("ok"));
            set(&obj, "result", &JsValue::from_str(json));
        }
        Err(e) => {
            set(&obj, "kind", &JsValue::from_str("err"));
            set(&obj, "error", &JsValue::from_str(e));
        }
    }
    obj
}

/// Reads a reply from a message's data (`None` for a malformed message).
pub fn read_reply(data: &JsValue) -> Option<Reply> {
    let kind = get_string(data, "kind")?;
    if kind == "ready" {
        return Some(Reply::Ready);
    }
    let id = get_f64(data, "id")? as u64;
    match kind.as_str() {
        "progress" => Some(Reply::Progress(
            id,
            ProgressUpdate {
                done: get_f64(data, "done").unwrap_or(0.0),
                total: get_f64(data, "total").unwrap_or(0.0),
                label: get_string(data, "label").unwrap_or_default(),
            },
        )),
        "ok" => Some(Reply::Ok(id, get_string(data, "result")?)),
        "err" => Some(Reply::Err(id, get_string(data, "error")?)),
        _ => None,
    }
}
