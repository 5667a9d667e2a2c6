//! Local persistence in IndexedDB: the files a user loaded (by page "area") and small
//! key-value records (e.g. the review workspace), so closing the tab loses nothing.
//!
//! One database, `coglab`, with two object stores:
//! - `files`: key `[area, name]`, value `{ area, name, model, bytes: Uint8Array }` (from
//!   [`put_files`]) or `{ area, name, model, kind, blob: Blob }` (from [`put_blobs`]);
//! - `kv`: key a string, value a string (JSON written by the caller).
//!
//! The schema is the one the app has written since its first release (version 1), so a
//! browser keeps what it stored before (`tests/e2e/storage-upgrade.test.mjs` writes records
//! the old way, then opens the app).
//!
//! Requests and transactions go through the `idb` crate (futures over the browser's
//! IndexedDB): it is the thin layer `rexie` itself is built on, and two object stores need no
//! more than that. Every write waits for its transaction to commit, so when a function returns
//! `Ok` the data is on disk. Errors, including a full disk (`QuotaExceededError`, which shows as
//! an aborted transaction), come back as readable `Err` strings; nothing is swallowed.

use std::cell::RefCell;

use idb::{Database, Factory, KeyRange, ObjectStore, ObjectStoreParams, Query, TransactionMode};
use js_sys::{Array, Object, Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::IdbDatabase;

const DB_NAME: &str = "coglab";
const DB_VERSION: u32 = 1;
const FILES: &str = "files";
const KV: &str = "kv";

/// A file kept in the store: its name (unique within an area), an optional model name and
/// its raw bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredFile {
    /// The file's name as the user loaded it (the key within its area).
    pub name: String,
    /// The model the file belongs to, when known.
    pub model: Option<String>,
    /// The file's contents.
    pub bytes: Vec<u8>,
}

/// How much the browser lets this site store, from `navigator.storage.estimate()`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QuotaEstimate {
    /// Bytes in use by this origin.
    pub usage: f64,
    /// Bytes this origin may use in total.
    pub quota: f64,
    /// Bytes of IndexedDB (the user's files, answers and reviews), where the browser says
    /// (Chromium's `usageDetails`); `usage` also counts the app's own offline copy.
    pub indexed_db: Option<f64>,
    /// Bytes of Cache Storage (the service worker's offline copy of the app), where known.
    pub caches: Option<f64>,
}

thread_local! {
    static DB: RefCell<Option<IdbDatabase>> = const { RefCell::new(None) };
}

/// Adds `files` to `area`, replacing any file of the same name there. One transaction: either
/// all are stored or none.
///
/// # Errors
/// A readable message when IndexedDB is unavailable or refuses the write (e.g. quota exceeded).
pub async fn put_files(area: &str, files: Vec<StoredFile>) -> Result<(), String> {
    let mut records = Vec::with_capacity(files.len());
    for file in files {
        let value = Object::new();
        set(&value, "model", &opt(&file.model))?;
        set(&value, "bytes", &Uint8Array::from(file.bytes.as_slice()))?;
        records.push((file.name, value));
    }
    put_records(area, records).await
}

/// All files stored in `area`, in name order.
///
/// # Errors
/// A readable message when IndexedDB is unavailable or the read fails.
pub async fn get_files(area: &str) -> Result<Vec<StoredFile>, String> {
    let rows = area_records(area).await?;
    let mut files = Vec::with_capacity(rows.length() as usize);
    for row in rows.iter() {
        let name = get(&row, "name")
            .as_string()
            .ok_or("stored file without a name")?;
        let model = get(&row, "model").as_string();
        let bytes = get(&row, "bytes")
            .dyn_into::<Uint8Array>()
            .map_err(|_| format!("stored file {name}: no bytes"))?
            .to_vec();
        files.push(StoredFile { name, model, bytes });
    }
    Ok(files)
}

/// A file kept in the store as the browser's own `File`/`Blob` (structured clone: its bytes
/// are never copied through WebAssembly), with the model and format the user chose.
#[derive(Debug, Clone)]
pub struct StoredBlob {
    /// The file's name or folder-relative path (the key within its area).
    pub name: String,
    /// The model name the user set, when it differs from the guess.
    pub model: Option<String>,
    /// The format the user chose (a `FileKind` key), when it differs from the detected one.
    pub kind: Option<String>,
    /// The file itself.
    pub blob: web_sys::Blob,
}

/// Adds `files` to `area` as blobs, replacing any file of the same name there. One
/// transaction: either all are stored or none.
///
/// # Errors
/// A readable message when IndexedDB is unavailable or refuses the write (e.g. quota exceeded).
pub async fn put_blobs(area: &str, files: &[StoredBlob]) -> Result<(), String> {
    let mut records = Vec::with_capacity(files.len());
    for file in files {
        let value = Object::new();
        set(&value, "model", &opt(&file.model))?;
        set(&value, "kind", &opt(&file.kind))?;
        set(&value, "blob", &file.blob)?;
        records.push((file.name.clone(), value));
    }
    put_records(area, records).await
}

/// All files stored in `area` by [`put_blobs`], in name order (records without a blob, from
/// [`put_files`], are skipped).
///
/// # Errors
/// A readable message when IndexedDB is unavailable or the read fails.
pub async fn get_blobs(area: &str) -> Result<Vec<StoredBlob>, String> {
    let rows = area_records(area).await?;
    Ok(rows
        .iter()
        .filter_map(|row| {
            Some(StoredBlob {
                name: get(&row, "name").as_string()?,
                model: get(&row, "model").as_string(),
                kind: get(&row, "kind").as_string(),
                blob: get(&row, "blob").dyn_into().ok()?,
            })
        })
        .collect())
}

/// Removes one file from `area` (no error if it is not there).
///
/// # Errors
/// A readable message when IndexedDB is unavailable or refuses the change.
pub async fn delete_file(area: &str, name: &str) -> Result<(), String> {
    let what = format!("delete {name}");
    let (store, tx) = open_store(FILES, TransactionMode::ReadWrite).await?;
    store
        .delete(file_key(area, name))
        .map_err(|e| describe(&what, e))?;
    tx.done(&what).await
}

/// Removes every file of `area`.
///
/// # Errors
/// A readable message when IndexedDB is unavailable or refuses the change.
pub async fn clear_area(area: &str) -> Result<(), String> {
    let what = format!("clear {area}");
    let (store, tx) = open_store(FILES, TransactionMode::ReadWrite).await?;
    store
        .delete(area_range(area)?)
        .map_err(|e| describe(&what, e))?;
    tx.done(&what).await
}

/// Stores a string under `key`, replacing any previous value.
///
/// # Errors
/// A readable message when IndexedDB is unavailable or refuses the write (e.g. quota exceeded).
pub async fn put_kv(key: &str, value: &str) -> Result<(), String> {
    let what = format!("save {key}");
    let (store, tx) = open_store(KV, TransactionMode::ReadWrite).await?;
    store
        .put(&JsValue::from_str(value), Some(&JsValue::from_str(key)))
        .map_err(|e| describe(&what, e))?;
    tx.done(&what).await
}

/// The string stored under `key`, if any.
///
/// # Errors
/// A readable message when IndexedDB is unavailable or the read fails.
pub async fn get_kv(key: &str) -> Result<Option<String>, String> {
    let what = format!("read {key}");
    let (store, _tx) = open_store(KV, TransactionMode::ReadOnly).await?;
    let value = store
        .get(JsValue::from_str(key))
        .map_err(|e| describe(&what, e))?
        .await
        .map_err(|e| describe(&what, e))?;
    Ok(value.and_then(|v| v.as_string()))
}

/// Removes the record under `key` (no error if there is none).
///
/// # Errors
/// A readable message when IndexedDB is unavailable or refuses the change.
pub async fn delete_kv(key: &str) -> Result<(), String> {
    let what = format!("delete {key}");
    let (store, tx) = open_store(KV, TransactionMode::ReadWrite).await?;
    store
        .delete(JsValue::from_str(key))
        .map_err(|e| describe(&what, e))?;
    tx.done(&what).await
}

/// Deletes everything this app stored in IndexedDB: every file of every area and every
/// record. (The service worker's cache of the app itself is a separate thing and is kept, so
/// the app still opens offline.)
///
/// # Errors
/// A readable message when IndexedDB is unavailable or refuses the change.
pub async fn forget_all() -> Result<(), String> {
    let db = database().await?;
    let tx = db
        .transaction(&[FILES, KV], TransactionMode::ReadWrite)
        .map_err(|e| describe("start a transaction", e))?;
    for name in [FILES, KV] {
        let store = tx
            .object_store(name)
            .map_err(|e| describe("open a store", e))?;
        store
            .clear()
            .map_err(|e| describe(&format!("clear {name}"), e))?;
    }
    Commit(tx).done("forget the stored data").await
}

/// The browser's estimate of this site's storage use and quota, or `None` where the browser
/// has no `navigator.storage.estimate()`.
///
/// # Errors
/// A readable message when the estimate is refused.
pub async fn quota_estimate() -> Result<Option<QuotaEstimate>, String> {
    let Some(window) = web_sys::window() else {
        return Ok(None);
    };
    let navigator = window.navigator();
    if get(&navigator, "storage").is_undefined() {
        return Ok(None);
    }
    let promise = navigator
        .storage()
        .estimate()
        .map_err(|e| describe_js("estimate storage", &e))?;
    let estimate = JsFuture::from(promise)
        .await
        .map_err(|e| describe_js("estimate storage", &e))?;
    let usage = get(&estimate, "usage").as_f64().unwrap_or(0.0);
    let Some(quota) = get(&estimate, "quota").as_f64() else {
        return Ok(None);
    };
    let details = get(&estimate, "usageDetails");
    let (indexed_db, caches) = if details.is_undefined() || details.is_null() {
        (None, None)
    } else {
        (
            Some(get(&details, "indexedDB").as_f64().unwrap_or(0.0)),
            Some(get(&details, "caches").as_f64().unwrap_or(0.0)),
        )
    };
    Ok(Some(QuotaEstimate {
        usage,
        quota,
        indexed_db,
        caches,
    }))
}

/// Asks the browser to keep this site's storage under storage pressure
/// (`navigator.storage.persist()`); `Ok(true)` when granted.
///
/// # Errors
/// A readable message when the request fails.
pub async fn request_persistence() -> Result<bool, String> {
    let Some(window) = web_sys::window() else {
        return Ok(false);
    };
    let navigator = window.navigator();
    if get(&navigator, "storage").is_undefined() {
        return Ok(false);
    }
    let promise = navigator
        .storage()
        .persist()
        .map_err(|e| describe_js("request persistent storage", &e))?;
    let granted = JsFuture::from(promise)
        .await
        .map_err(|e| describe_js("request persistent storage", &e))?;
    Ok(granted.as_bool().unwrap_or(false))
}

/// Formats a byte count for people ("3.2 MB").
pub fn format_bytes(bytes: f64) -> String {
    const UNITS: [&str; 5] = ["B", "KB", "MB", "GB", "TB"];
    let mut value = bytes.max(0.0);
    let mut unit = 0;
    while value >= 1000.0 && unit + 1 < UNITS.len() {
        value /= 1000.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{value:.0} {}", UNITS[unit])
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// Stores `records` (name, the record's other fields) in `area`, replacing records of the same
/// names, in one transaction: either all are stored or none.
async fn put_records(area: &str, records: Vec<(String, Object)>) -> Result<(), String> {
    let (store, tx) = open_store(FILES, TransactionMode::ReadWrite).await?;
    for (name, value) in records {
        set(&value, "area", &JsValue::from_str(area))?;
        set(&value, "name", &JsValue::from_str(&name))?;
        store
            .put(&value, Some(&file_key(area, &name)))
            .map_err(|e| describe(&format!("save {name}"), e))?;
    }
    tx.done("save the files").await
}

/// Every record stored in `area`, in name order.
async fn area_records(area: &str) -> Result<Array, String> {
    let what = "read the stored files";
    let (store, _tx) = open_store(FILES, TransactionMode::ReadOnly).await?;
    let rows = store
        .get_all(Some(area_range(area)?), None)
        .map_err(|e| describe(what, e))?
        .await
        .map_err(|e| describe(what, e))?;
    Ok(rows.into_iter().collect())
}

/// A JS string, or null for `None`.
fn opt(v: &Option<String>) -> JsValue {
    v.as_deref().map_or(JsValue::NULL, JsValue::from_str)
}

fn file_key(area: &str, name: &str) -> JsValue {
    Array::of2(&JsValue::from_str(area), &JsValue::from_str(name)).into()
}

/// Every key `[area, <any string>]`: from `[area]` (shorter arrays sort first) to
/// `[area, []]` (arrays sort after strings).
fn area_range(area: &str) -> Result<Query, String> {
    let lower = Array::of1(&JsValue::from_str(area));
    let upper = Array::of2(&JsValue::from_str(area), &Array::new());
    KeyRange::bound(&lower, &upper, None, None)
        .map(Query::KeyRange)
        .map_err(|e| describe("build a key range", e))
}

/// A transaction to wait for: after a write, the change is stored once [`Commit::done`]
/// resolves.
struct Commit(idb::Transaction);

impl Commit {
    /// Waits until the transaction commits; an aborted transaction is an error with the
    /// browser's reason (a full disk shows up here as `QuotaExceededError`).
    async fn done(self, what: &str) -> Result<(), String> {
        let raw: web_sys::IdbTransaction = self.0.into();
        let outcome = idb::Transaction::from(raw.clone()).await;
        match outcome {
            Ok(idb::TransactionResult::Committed) => Ok(()),
            Ok(idb::TransactionResult::Aborted) => Err(match raw.error() {
                Some(error) => describe_js(what, &error.into()),
                None => format!("Could not {what}: the browser gave up on the change"),
            }),
            Err(e) => Err(describe(what, e)),
        }
    }
}

/// Opens store `name` in a transaction of `mode`: the store, and the transaction to wait for.
async fn open_store(name: &str, mode: TransactionMode) -> Result<(ObjectStore, Commit), String> {
    let db = database().await?;
    let tx = db
        .transaction(&[name], mode)
        .map_err(|e| describe("start a transaction", e))?;
    let what = if name == FILES {
        "open the file store"
    } else {
        "open the record store"
    };
    let store = tx.object_store(name).map_err(|e| describe(what, e))?;
    Ok((store, Commit(tx)))
}

/// The open database (opened once per page; reopened after another tab upgraded it).
async fn database() -> Result<Database, String> {
    if let Some(db) = DB.with(|cell| cell.borrow().clone()) {
        return Ok(db.into());
    }
    let mut db = open_database().await?;
    // Another tab upgrading the schema asks us to let go; forget the handle so the next call
    // reopens.
    db.on_version_change(|_| {
        DB.with(|cell| {
            if let Some(db) = cell.borrow_mut().take() {
                db.close();
            }
        });
    });
    db.forget_callbacks();
    let raw: IdbDatabase = db.into();
    DB.with(|cell| *cell.borrow_mut() = Some(raw.clone()));
    Ok(raw.into())
}

async fn open_database() -> Result<Database, String> {
    const WHAT: &str = "open local storage";
    if web_sys::window().is_none() {
        return Err("no window: storage needs a browser page".into());
    }
    let factory = Factory::new().map_err(|e| match e {
        idb::Error::IndexedDbNotFound(_) => {
            "this browser offers no local storage (IndexedDB); in a private window it may be off"
                .to_string()
        }
        e => describe(WHAT, e),
    })?;
    let mut request = factory
        .open(DB_NAME, Some(DB_VERSION))
        .map_err(|e| describe(WHAT, e))?;
    request.on_upgrade_needed(|event| {
        use idb::DatabaseEvent;
        let Ok(db) = event.database() else {
            return;
        };
        let names = db.store_names();
        for name in [FILES, KV] {
            if !names.iter().any(|n| n == name) {
                let _ = db.create_object_store(name, ObjectStoreParams::new());
            }
        }
    });
    request.await.map_err(|e| describe(WHAT, e))
}

fn set(target: &Object, key: &str, value: &JsValue) -> Result<(), String> {
    Reflect::set(target, &JsValue::from_str(key), value)
        .map(|_| ())
        .map_err(|e| describe_js("build a record", &e))
}

fn get(target: &JsValue, key: &str) -> JsValue {
    Reflect::get(target, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// A readable message for a failed storage operation.
fn describe(what: &str, error: idb::Error) -> String {
    use idb::Error as E;
    match error {
        E::DomException(e) => describe_js(what, &e.into()),
        E::AddFailed(v)
        | E::ClearFailed(v)
        | E::DeleteFailed(v)
        | E::GetFailed(v)
        | E::GetAllFailed(v)
        | E::GetAllKeysFailed(v)
        | E::IndexedDbOpenFailed(v)
        | E::KeyRangeCreateFailed(v)
        | E::ObjectStoreNotFound(v)
        | E::TransactionOpenFailed(v)
        | E::UpdateFailed(v) => describe_js(what, &v),
        e => format!("Could not {what}: {e}"),
    }
}

/// A readable message for a browser error value; quota errors say what to do.
fn describe_js(what: &str, error: &JsValue) -> String {
    let name = get(error, "name").as_string().unwrap_or_default();
    let message = get(error, "message")
        .as_string()
        .or_else(|| error.as_string())
        .unwrap_or_else(|| "unknown error".to_string());
    if name == "QuotaExceededError" {
        return format!(
            "Could not {what}: the browser's storage for this site is full \
             (QuotaExceededError: {message}). Remove files or forget the workspace, \
             then try again."
        );
    }
    if name.is_empty() {
        format!("Could not {what}: {message}")
    } else {
        format!("Could not {what}: {name}: {message}")
    }
}

#[cfg(test)]
mod tests {
    use super::format_bytes;

    #[test]
    fn bytes_are_formatted_for_people() {
        assert_eq!(format_bytes(0.0), "0 B");
        assert_eq!(format_bytes(999.0), "999 B");
        assert_eq!(format_bytes(1500.0), "1.5 KB");
        assert_eq!(format_bytes(3_200_000.0), "3.2 MB");
        assert_eq!(format_bytes(2.0e9), "2.0 GB");
    }
}
