//! Worker operation [`api::Published`]: the published bundle of `coglab publish`
//! (`published/index.json` under the site root by default), its MM-IQ, KiVA, MM-OPERA and Gold
//! rows kept like scored rows, and their item-level data fetched from the model's chunk
//! (`items/<model>.json`, plus `items/mmiq-key.json` for MM-IQ) only when a row is first
//! opened or compared ([`ensure`]). The rank groups read the bundle's rank file of the board
//! instead (`items/ranks-<benchmark>.json`, one request for every published row of the
//! benchmark, fetched when a rank panel first asks and checked against the index's SHA-256;
//! [`rank_details`]). The core rebuilds the reports ([`coglab_core::publish::site`],
//! [`coglab_core::publish::ranks::fill`]); nothing is recomputed here.

use std::cell::RefCell;
use std::collections::HashMap;

use coglab_core::leaderboard::Detail;
use coglab_core::publish::bundle::{sha256_hex, MmiqKeyChunk, ModelChunk};
use coglab_core::publish::ranks::{fill, RanksFile};
use coglab_core::publish::site::{board_rows, details, row_benchmarks};
use coglab_core::publish::{Benchmark, Index};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::api::{self, RowId};
use crate::ops_leaderboard;

/// A published row whose items are not fetched yet.
#[derive(Clone)]
struct Pending {
    /// The chunk's URL.
    chunk: String,
    /// The key chunk's URL, for MM-IQ rows.
    key: Option<String>,
    /// The row's benchmark.
    benchmark: Benchmark,
    /// The row's summary report.
    summary: Detail,
}

/// What the rank groups of a published row read: its summary and, per benchmark of the row,
/// the rank file's URL and SHA-256 and the model's position in it.
#[derive(Clone)]
struct RankSource {
    /// The row's summary report (from the index).
    summary: Detail,
    /// The rank files of the row's benchmarks: (benchmark, URL, SHA-256).
    files: Vec<(Benchmark, String, String)>,
    /// The model's position in the index (the rank files' `model`).
    model: usize,
}

thread_local! {
    /// Published rows waiting for their chunk, by row id.
    static PENDING: RefCell<HashMap<RowId, Pending>> = RefCell::new(HashMap::new());
    /// Published rows with a rank file, by row id.
    static RANK_SOURCES: RefCell<HashMap<RowId, RankSource>> = RefCell::new(HashMap::new());
    /// The rank files fetched, by URL.
    static RANK_FILES: RefCell<HashMap<String, std::rc::Rc<RanksFile>>> =
        RefCell::new(HashMap::new());
}

/// `GET url` from the worker, as text; `Ok(None)` on HTTP 404 (no bundle published).
async fn get(url: &str) -> Result<Option<String>, String> {
    let scope: web_sys::WorkerGlobalScope = js_sys::global()
        .dyn_into()
        .map_err(|_| "not running in a worker".to_string())?;
    let resp = JsFuture::from(scope.fetch_with_str(url))
        .await
        .map_err(|e| format!("{url}: request failed: {e:?}"))?;
    let resp: web_sys::Response = resp
        .dyn_into()
        .map_err(|_| format!("{url}: not an HTTP response"))?;
    if resp.status() == 404 {
        return Ok(None);
    }
    if !resp.ok() {
        return Err(format!(
            "{url}: HTTP {} {}",
            resp.status(),
            resp.status_text()
        ));
    }
    let text = JsFuture::from(resp.text().map_err(|e| format!("{url}: {e:?}"))?)
        .await
        .map_err(|e| format!("{url}: {e:?}"))?;
    text.as_string()
        .map(Some)
        .ok_or_else(|| format!("{url}: body is not text"))
}

/// [`api::Published`]: reads `{base}index.json`; `None` when there is none (a site without a
/// published bundle, or a server answering the app's page for unknown paths).
///
/// # Errors
/// A message naming the URL for a failed request or an index that does not parse.
pub async fn load(base: &str) -> Result<Option<api::PublishedBoard>, String> {
    let url = format!("{base}index.json");
    let Some(text) = get(&url).await? else {
        return Ok(None);
    };
    if text.trim_start().starts_with('<') {
        // The host answered with the app's HTML: no bundle.
        return Ok(None);
    }
    let index: Index = serde_json::from_str(&text).map_err(|e| format!("{url}: {e}"))?;
    let (mut rows, sources) = board_rows(&index);
    let kept = ops_leaderboard::keep(&mut rows);
    let key = index.mmiq_key_chunk.as_ref().map(|k| format!("{base}{k}"));
    RANK_SOURCES.with_borrow_mut(|r| {
        for ((id, summary), src) in kept.iter().zip(&sources) {
            let benchmarks = row_benchmarks(&index, src);
            let files: Vec<(Benchmark, String, String)> = index
                .ranks
                .iter()
                .filter(|f| benchmarks.contains(&f.benchmark))
                .map(|f| (f.benchmark, format!("{base}{}", f.path), f.sha256.clone()))
                .collect();
            if !files.is_empty() {
                r.insert(
                    *id,
                    RankSource {
                        summary: summary.clone(),
                        files,
                        model: src.model,
                    },
                );
            }
        }
    });
    PENDING.with_borrow_mut(|p| {
        for ((id, summary), src) in kept.into_iter().zip(sources) {
            let Some(model) = index.models.get(src.model) else {
                continue;
            };
            p.insert(
                id,
                Pending {
                    chunk: format!("{base}{}", model.chunk),
                    key: (src.benchmark == Benchmark::Mmiq)
                        .then(|| key.clone())
                        .flatten(),
                    benchmark: src.benchmark,
                    summary,
                },
            );
        }
    });
    Ok(Some(api::PublishedBoard { index, rows }))
}

/// Fetches the chunks of those of `rows` that are published and not yet fetched, and keeps
/// their full reports. Rows that are not published are left alone.
///
/// # Errors
/// A message naming the chunk's URL when it cannot be fetched or read.
pub async fn ensure(rows: &[RowId]) -> Result<(), String> {
    let wanted: Vec<(RowId, Pending)> = PENDING.with_borrow(|p| {
        rows.iter()
            .filter_map(|id| p.get(id).map(|x| (*id, x.clone())))
            .collect()
    });
    let mut chunks: HashMap<String, ModelChunk> = HashMap::new();
    let mut keys: HashMap<String, MmiqKeyChunk> = HashMap::new();
    for (id, p) in wanted {
        if !chunks.contains_key(&p.chunk) {
            let text = get(&p.chunk)
                .await?
                .ok_or_else(|| format!("{}: not found", p.chunk))?;
            let c: ModelChunk =
                serde_json::from_str(&text).map_err(|e| format!("{}: {e}", p.chunk))?;
            chunks.insert(p.chunk.clone(), c);
        }
        if let Some(k) = &p.key {
            if !keys.contains_key(k) {
                let text = get(k).await?.ok_or_else(|| format!("{k}: not found"))?;
                let c: MmiqKeyChunk =
                    serde_json::from_str(&text).map_err(|e| format!("{k}: {e}"))?;
                keys.insert(k.clone(), c);
            }
        }
        let chunk = &chunks[&p.chunk];
        let key = p.key.as_ref().and_then(|k| keys.get(k));
        let full = details(&p.summary, p.benchmark, chunk, key)?;
        ops_leaderboard::replace(id, full);
        PENDING.with_borrow_mut(|m| {
            m.remove(&id);
        });
    }
    Ok(())
}

/// The reports the rank groups read for those of `rows` that are published with a rank file:
/// each row's summary filled from its benchmark's rank file
/// ([`coglab_core::publish::ranks::fill`]; from `only`'s alone when given, as an MM-OPERA
/// board ranks one task), the file fetched once (the first time a rank panel asks) and
/// checked against the SHA-256 the index gives it. Rows not in the returned
/// map are ranked from their kept report (dropped rows, or published rows of a bundle without
/// rank files, whose chunks the caller fetches with [`ensure`]).
///
/// # Errors
/// A message naming the rank file's URL when it cannot be fetched, differs from the index's
/// SHA-256 or does not parse, or [`fill`]'s.
pub async fn rank_details(
    rows: &[RowId],
    only: Option<Benchmark>,
) -> Result<HashMap<RowId, Detail>, String> {
    let wanted: Vec<(RowId, RankSource)> = RANK_SOURCES.with_borrow(|r| {
        rows.iter()
            .filter_map(|id| r.get(id).map(|x| (*id, x.clone())))
            .collect()
    });
    let mut out = HashMap::new();
    for (id, src) in wanted {
        let mut detail = src.summary.clone();
        for (_, url, sha) in src
            .files
            .iter()
            .filter(|(b, _, _)| only.is_none_or(|o| o == *b))
        {
            let file = match RANK_FILES.with_borrow(|f| f.get(url).cloned()) {
                Some(f) => f,
                None => {
                    let text = get(url).await?.ok_or_else(|| format!("{url}: not found"))?;
                    let found = sha256_hex(text.as_bytes());
                    if found != *sha {
                        return Err(format!(
                            "{url}: SHA-256 {found} differs from the index's {sha} (a stale or \
                             altered file: reload the page)"
                        ));
                    }
                    let f: RanksFile =
                        serde_json::from_str(&text).map_err(|e| format!("{url}: {e}"))?;
                    let f = std::rc::Rc::new(f);
                    RANK_FILES.with_borrow_mut(|m| m.insert(url.clone(), f.clone()));
                    f
                }
            };
            fill(&mut detail, &file, src.model)?;
        }
        out.insert(id, detail);
    }
    Ok(out)
}

/// [`api::Reproduce`]: the core's [`coglab_core::publish::site::reproduce`] on kept rows (the
/// published row's chunk fetched first by the caller, [`ensure`]).
///
/// # Errors
/// A message when a row is no longer kept, or the core's.
pub fn reproduce(a: &api::Reproduce) -> Result<coglab_core::publish::site::Reproduction, String> {
    use coglab_core::publish::site::{board_figure, reproduce};
    let mut ids = vec![a.published, a.submitted];
    ids.extend(&a.board);
    ops_leaderboard::with_details(&ids, |d| {
        let board: Vec<f64> = d[2..]
            .iter()
            .filter_map(|x| board_figure(d[1], x))
            .collect();
        reproduce(d[0], d[1], &board)
    })
}
