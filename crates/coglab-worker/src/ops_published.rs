//! Worker operation [`api::Published`]: the published bundle of `coglab publish`
//! (`published/index.json` under the site root by default), its MM-IQ, KiVA, MM-OPERA and Gold
//! rows kept like scored rows, and their item-level data fetched from the model's chunk
//! (`items/<model>.json`, plus `items/mmiq-key.json` for MM-IQ) only when a row is first
//! opened or compared ([`ensure`]). The rank groups read the bundle's rank file of the board
//! instead (`items/ranks-<benchmark>.json`, one request for every published row of the
//! benchmark, fetched when a rank panel first asks and checked against the index's SHA-256;
//! [`rank_details`]). The core rebuilds the reports ([`coglab_core::publish::site`],
//! [`coglab_core::publish::ranks::fill`]); nothing is recomputed here.

use std::collections::HashMap;

use coglab_core::leaderboard::Detail;
use coglab_core::publish::bundle::{sha256_hex, MmiqKeyChunk, ModelChunk};
use coglab_core::publish::ranks::{fill, RanksFile};
use coglab_core::publish::site::{board_rows, details, row_benchmarks};
use coglab_core::publish::{Benchmark, Index};

use crate::api::{self, RowId, WorkerError};
use crate::io::get;
use crate::state::{Pending, RankSource, WorkerState};

/// [`api::Published`]: reads `{base}index.json`; `None` when there is none (a site without a
/// published bundle, or a server answering the app's page for unknown paths).
///
/// # Errors
/// A message naming the URL for a failed request or an index that does not parse.
pub async fn load(
    state: &mut WorkerState,
    base: &str,
) -> Result<Option<api::PublishedBoard>, WorkerError> {
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
    let ids = state.keep_scored(&mut rows, Vec::new());
    let kept: Vec<(RowId, Detail)> = ids
        .into_iter()
        .map(|id| Ok((id, state.row(id)?.clone())))
        .collect::<Result<_, WorkerError>>()?;
    let key = index.mmiq_key_chunk.as_ref().map(|k| format!("{base}{k}"));
    {
        let r = &mut state.published.rank_sources;
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
    }
    {
        let p = &mut state.published.pending;
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
    }
    Ok(Some(api::PublishedBoard { index, rows }))
}

/// Fetches the chunks of those of `rows` that are published and not yet fetched, and keeps
/// their full reports. Rows that are not published are left alone.
///
/// # Errors
/// A message naming the chunk's URL when it cannot be fetched or read.
pub async fn ensure(state: &mut WorkerState, rows: &[RowId]) -> Result<(), WorkerError> {
    let wanted: Vec<(RowId, Pending)> = rows
        .iter()
        .filter_map(|id| state.published.pending.get(id).map(|x| (*id, x.clone())))
        .collect();
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
        state.replace(id, full);
        state.published.pending.remove(&id);
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
    state: &mut WorkerState,
    rows: &[RowId],
    only: Option<Benchmark>,
) -> Result<HashMap<RowId, Detail>, WorkerError> {
    let wanted: Vec<(RowId, RankSource)> = rows
        .iter()
        .filter_map(|id| {
            state
                .published
                .rank_sources
                .get(id)
                .map(|x| (*id, x.clone()))
        })
        .collect();
    let mut out = HashMap::new();
    for (id, src) in wanted {
        let mut detail = src.summary.clone();
        for (_, url, sha) in src
            .files
            .iter()
            .filter(|(b, _, _)| only.is_none_or(|o| o == *b))
        {
            let file = match state.published.rank_files.get(url).cloned() {
                Some(f) => f,
                None => {
                    let text = get(url).await?.ok_or_else(|| format!("{url}: not found"))?;
                    let found = sha256_hex(text.as_bytes());
                    if found != *sha {
                        return Err(WorkerError::Input(format!(
                            "{url}: SHA-256 {found} differs from the index's {sha} (a stale or \
                             altered file: reload the page)"
                        )));
                    }
                    let f: RanksFile =
                        serde_json::from_str(&text).map_err(|e| format!("{url}: {e}"))?;
                    let f = std::rc::Rc::new(f);
                    state.published.rank_files.insert(url.clone(), f.clone());
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
/// The state's for a row not kept, or the core's.
pub fn reproduce(
    state: &WorkerState,
    a: &api::Reproduce,
) -> Result<coglab_core::publish::site::Reproduction, WorkerError> {
    use coglab_core::publish::site::{board_figure, reproduce};
    // The submission takes its published row's place on the board.
    let mut ids = vec![a.published, a.submitted];
    ids.extend(a.board.iter().filter(|id| **id != a.published));
    let d = state.rows(&ids)?;
    let board: Vec<f64> = d[2..]
        .iter()
        .filter_map(|x| board_figure(d[1], x))
        .collect();
    Ok(reproduce(d[0], d[1], &board)?)
}
