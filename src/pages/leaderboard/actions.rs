//! The page's calls to the scoring worker and the browser's store, as Leptos [`Action`]s
//! (`Action::new_local`: the worker's futures and the picked `File`s are not `Send`): stage
//! picked files, score them, score the kept files again, forget kept files, load the published
//! bundle, warm the worker. Their failures go to the page's error panels
//! ([`BoardState::error`], [`super::state::Kept::error`]); the rows and statuses they compute go
//! to the [`BoardState`].
//!
//! The tabs' own calls (MM-OPERA comparison, Gold assignment, length bias) are actions of their
//! components, in their tabs' files: created here they would pull those tabs' code into the
//! first download (see [`crate::split`]).

use crate::worker::api::RowId;
use std::collections::HashMap;
use std::rc::Rc;

use coglab_core::leaderboard::{guess_model, FileKind, FileState, FileStatus};
use leptos::prelude::*;

use super::state::{BoardState, HasRowId, ScoreStatus, ScoringFile, ScoringRun, Staged};
use crate::data::base_path;
use crate::store::{self, StoredBlob};
use crate::worker::api::{self, FileRef, WorkerError};
use crate::worker::protocol::ProgressUpdate;

/// Area of this page's files in the browser's store.
const AREA: &str = "leaderboard";

/// Files picked or dropped, as (path, file).
pub type Picked = Vec<(String, web_sys::File)>;

/// The page's actions.
#[derive(Clone, Copy)]
pub struct PageActions {
    /// Gets back the rows of an ended worker ([`restore_worker_data`]).
    pub restore_worker: Action<(), ()>,
    /// Stages picked files ([`stage_files`]).
    pub stage: Action<Picked, ()>,
    /// Scores the staged files ([`score_staged`]).
    pub score: Action<(), ()>,
    /// Scores the kept files again ([`restore`]).
    pub restore: Action<(), ()>,
    /// Forgets the kept files: all (`None`) or the one named ([`forget_kept`]).
    pub forget: Action<Option<String>, ()>,
    /// Loads the site's published bundle ([`load_published`]).
    pub published: Action<(), ()>,
    /// Lets the worker warm up its MM-IQ scoring path ([`api::Warm`]).
    pub warm: Action<(), ()>,
}

impl PageActions {
    /// The actions over `state`.
    pub fn new(state: BoardState) -> Self {
        Self {
            restore_worker: Action::new_local(move |_: &()| restore_worker_data(state)),
            stage: Action::new_local(move |files: &Picked| stage_files(state, files.clone())),
            score: Action::new_local(move |_: &()| score_staged(state)),
            restore: Action::new_local(move |_: &()| restore(state, Vec::new())),
            forget: Action::new_local(move |one: &Option<String>| forget_kept(state, one.clone())),
            published: Action::new_local(move |_: &()| load_published(state, Vec::new())),
            warm: Action::new_local(move |_: &()| {
                let client = state.client.get_value();
                async move {
                    // A warm-up that fails costs nothing but speed: the "Score" call reads
                    // the files anyway, and reports its own errors.
                    if let Err(e) = client.call(api::Warm).await {
                        web_sys::console::warn_1(&format!("warming the worker: {e}").into());
                    }
                }
            }),
        }
    }

    /// Warms the worker once per page, when files are first staged (the worker has started
    /// to detect their formats), so that it is fast when "Score" is pressed.
    pub fn warm_when_staged(self, state: BoardState) {
        let warm = self.warm;
        Effect::new(move || {
            let started = warm.version().get_untracked() > 0 || warm.pending().get_untracked();
            if !state.staged.read().is_empty() && !started {
                warm.dispatch_local(());
            }
        });
    }
}

/// Stages picked or dropped files: the worker detects each format from the file's content
/// ([`api::Detect`]; the page reads nothing) and the model name is guessed from the path (core
/// `guess_model`); scoring waits for the "Score" button.
async fn stage_files(state: BoardState, files: Picked) {
    let client = state.client.get_value();
    let refs: Vec<FileRef> = files
        .iter()
        .map(|(path, f)| FileRef {
            name: path.clone(),
            blob: f.clone().into(),
        })
        .collect();
    let kinds = match client.call(api::Detect { files: refs }).await {
        Ok(k) => k,
        Err(e) => {
            state.error.set(Some(e.to_string()));
            vec![
                api::Detected {
                    kind: FileKind::Unknown,
                    note: None
                };
                files.len()
            ]
        }
    };
    // Files that give MM-IQ rows: fetch the code of the sections shown with them now, while
    // the person looks at the staged table, not when the scores arrive.
    if kinds.iter().any(|d| {
        matches!(
            d.kind,
            FileKind::MmiqPredictions | FileKind::MmiqTable | FileKind::Harness
        )
    }) {
        super::mmiq::preload_computed_sections();
    }
    let staged: Vec<Staged> = files
        .into_iter()
        .zip(kinds)
        .map(|((path, f), api::Detected { kind, note })| {
            let model = guess_model(&path);
            Staged::new(path, f, kind, model, note)
        })
        .collect();
    state.staged.update(|v| v.extend(staged));
}

/// What to score in one worker call: the files, and the user's model names and formats by
/// path.
#[derive(Default)]
struct Batch {
    inputs: Vec<(String, web_sys::Blob)>,
    models: HashMap<String, String>,
    kinds: HashMap<String, FileKind>,
    files: Vec<ScoringFile>,
}

impl Batch {
    /// The files kept in this browser's store, with the model names and formats they were
    /// kept with.
    fn of_kept(stored: Vec<StoredBlob>) -> Self {
        let mut batch = Batch::default();
        for b in stored {
            if let Some(m) = b.model {
                batch.models.insert(b.name.clone(), m);
            }
            if let Some(k) = b.kind.as_deref().and_then(FileKind::from_key) {
                batch.kinds.insert(b.name.clone(), k);
            }
            batch.files.push(ScoringFile {
                path: b.name.clone(),
                size: b.blob.size(),
            });
            batch.inputs.push((b.name, b.blob));
        }
        batch
    }

    /// `other`'s files after these.
    fn append(&mut self, other: Batch) {
        self.inputs.extend(other.inputs);
        self.models.extend(other.models);
        self.kinds.extend(other.kinds);
        self.files.extend(other.files);
    }
}

/// Posts the staged files to the worker, which reads and scores them (keeping the item-level
/// data), and appends the summaries to the state. Rows already loaded are kept whatever
/// happens.
async fn score_staged(state: BoardState) {
    state.error.set(None);
    let staged = state.staged.try_update(std::mem::take).unwrap_or_default();
    let mut batch = Batch::default();
    for s in staged.into_iter().filter(|s| s.include) {
        // Files above the worker's limit get their message here; the others are posted to the
        // worker as File objects, which reads them in chunks (nothing is copied on this thread).
        if s.size() > crate::worker::protocol::MAX_FILE_BYTES {
            let message = crate::worker::protocol::too_large(&s.path, s.size());
            state.files.update(|v| {
                v.push(FileStatus {
                    file: s.path.clone(),
                    kind: s.kind,
                    model: s.model.clone(),
                    status: FileState::Error,
                    message: Some(message),
                })
            });
            continue;
        }
        if s.model != guess_model(&s.path) {
            batch.models.insert(s.path.clone(), s.model.clone());
        }
        if s.kind != s.detected {
            batch.kinds.insert(s.path.clone(), s.kind);
        }
        batch.files.push(ScoringFile {
            path: s.path.clone(),
            size: s.size(),
        });
        batch.inputs.push((s.path, s.file.into()));
    }
    if batch.inputs.is_empty() {
        return;
    }
    // The files kept in this browser are scored again with the new ones, so that a kept answer
    // key or MM-OPERA metadata pairs with files dropped later, and kept files that wait for a
    // partner are scored when it comes (issue 26, defect 1). A file dropped again replaces its
    // kept copy.
    if !state.kept.names.with_untracked(Vec::is_empty) {
        match store::get_blobs(AREA).await {
            Ok(stored) => {
                let new: Vec<&String> = batch.inputs.iter().map(|(p, _)| p).collect();
                let stored: Vec<StoredBlob> = stored
                    .into_iter()
                    .filter(|b| !new.contains(&&b.name))
                    .collect();
                // The kept files come first, so the rows keep their order with the new ones
                // after them.
                let mut all = Batch::of_kept(stored);
                state
                    .kept
                    .restored
                    .set(all.files.iter().map(|f| f.path.clone()).collect());
                all.append(batch);
                batch = all;
                // The rows computed so far are replaced once the new ones are there; until
                // then (and if scoring fails or is cancelled) they stay on the page.
                let replace = computed_ids(state);
                score_batch(state, batch, Keep::Replacing(replace)).await;
                return;
            }
            Err(e) => state.kept.error.set(Some(e)),
        }
    }
    score_batch(state, batch, Keep::Adding).await;
}

/// The ids of the rows computed from the visitor's files (not the published ones).
fn computed_ids(state: BoardState) -> Vec<RowId> {
    let published = state.published.rows.get_untracked();
    let mut ids = state.rows.ids_untracked();
    ids.retain(|id| !published.contains(id));
    ids
}

/// What [`score_batch`] does with the scored files and the rows before.
enum Keep {
    /// Keeps the files scored without error in the store; the new rows join the others.
    Adding,
    /// As `Adding`, and once the new rows are there, drops these computed rows (the batch
    /// scored them again) with the file statuses before.
    Replacing(Vec<RowId>),
    /// The files come from the store: nothing to keep; once the new rows are there, these
    /// rows (of an ended worker) are dropped.
    Restoring(Vec<RowId>),
}

/// Scores a batch in the worker and appends the results to the state (see [`Keep`] for the
/// rows before); unless restoring, the files scored without error are then kept in this
/// browser's store (IndexedDB, area "leaderboard") with their model names and formats, to be
/// scored again on the next visit. A failed or cancelled scoring changes no row.
async fn score_batch(state: BoardState, batch: Batch, keep: Keep) {
    if batch.inputs.is_empty() {
        return;
    }
    let Batch {
        inputs,
        models,
        kinds,
        files,
    } = batch;
    state
        .scoring
        .set(ScoreStatus::Scoring(ScoringRun::new(files)));
    let on_progress = Rc::new(move |p: ProgressUpdate| {
        state.scoring.update(|s| {
            if let ScoreStatus::Scoring(run) = s {
                run.advance(p);
            }
        });
    });
    let request = api::Score {
        files: inputs
            .iter()
            .map(|(name, blob)| FileRef {
                name: name.clone(),
                blob: blob.clone(),
            })
            .collect(),
        models: models.clone(),
        kinds: kinds.clone(),
    };
    let result = state
        .client
        .get_value()
        .call_with(request, Some(on_progress))
        .await;
    state.scoring.set(ScoreStatus::Idle);
    let mut s = match result {
        Ok(s) => s,
        // The page's own Cancel: the rows stay, marked stale with the way back
        // ([`restore_worker_data`]).
        Err(WorkerError::Cancelled) => return,
        Err(e) => {
            state.error.set(Some(e.to_string()));
            return;
        }
    };
    match &keep {
        // The batch scored every kept file again: its statuses replace all those before, even
        // when no row was replaced (a file that waited for its partner).
        Keep::Replacing(old) => drop_rows(state, old.clone()).await,
        Keep::Restoring(old) if !old.is_empty() => drop_rows(state, old.clone()).await,
        _ => {}
    }
    let before = state.files.with_untracked(Vec::len);
    state.files.update(|v| v.append(&mut s.files));
    state.rows.extend(s);
    if matches!(keep, Keep::Restoring(_)) {
        return;
    }
    let ok: Vec<String> = state.files.with_untracked(|f| {
        f.iter()
            .skip(before)
            .filter(|f| matches!(f.status, FileState::Ok | FileState::Waiting))
            .map(|f| f.file.clone())
            .collect()
    });
    let blobs: Vec<StoredBlob> = inputs
        .into_iter()
        .filter(|(path, _)| ok.contains(path))
        .map(|(path, blob)| StoredBlob {
            model: models.get(&path).cloned(),
            kind: kinds.get(&path).map(|k| k.key().to_string()),
            name: path,
            blob,
        })
        .collect();
    if blobs.is_empty() {
        return;
    }
    match store::put_blobs(AREA, &blobs).await {
        Ok(()) => state.kept.names.update(|k| {
            for b in blobs {
                if !k.contains(&b.name) {
                    k.push(b.name);
                }
            }
        }),
        Err(e) => state.kept.error.set(Some(e)),
    }
}

/// Scores again, in the worker, the files kept in this browser's store (on page load, or after
/// one of them is removed).
async fn restore(state: BoardState, replacing: Vec<RowId>) {
    let stored = match store::get_blobs(AREA).await {
        Ok(s) => s,
        Err(e) => {
            state.kept.error.set(Some(e));
            return;
        }
    };
    if stored.is_empty() && !replacing.is_empty() {
        // Rows of an ended worker whose files this browser could not keep (a full storage):
        // nothing to score again, which the page says rather than leave the button inert.
        state.error.set(Some(format!(
            "{} rows cannot be restored: their files are not kept in this browser (see the \
             storage message above, if any); drop the files again to score them",
            replacing.len()
        )));
        return;
    }
    let names: Vec<String> = stored.iter().map(|b| b.name.clone()).collect();
    state.kept.names.set(names.clone());
    state.kept.restored.set(names);
    score_batch(state, Batch::of_kept(stored), Keep::Restoring(replacing)).await;
}

/// Removes every row computed from the visitor's files and every file status, and has the
/// worker drop those rows' item data; the published bundle's rows stay.
async fn clear_rows(state: BoardState) {
    drop_rows(state, computed_ids(state)).await;
}

/// Removes the rows `ids` (computed ones) and every file status, and has the worker drop
/// those rows' item data.
async fn drop_rows(state: BoardState, ids: Vec<RowId>) {
    state.rows.retain(|id| !ids.contains(&id));
    state.files.set(Vec::new());
    state.error.set(None);
    let client = state.client.get_value();
    // Rows of an ended worker went with it.
    let rows: Vec<RowId> = ids.into_iter().filter(|id| client.is_live(id)).collect();
    if rows.is_empty() {
        return;
    }
    // The rows are gone from the page whatever the worker answers; a failure only leaves
    // their items in the worker's memory until the tab closes, so it is not shown.
    if let Err(e) = client.call(api::Forget { rows }).await {
        web_sys::console::warn_1(&format!("dropping the rows' items in the worker: {e}").into());
    }
}

/// Gets back what an ended worker kept (after a Cancel, a crash, or the browser ending it):
/// the published bundle is read again and the kept files are scored again, in the running
/// worker, each replacing the rows of the ended one once its new rows are there (until then
/// they stay on the board). The model page and comparisons follow, since they pick their rows
/// by model name (the address's `model` and `cmp`).
async fn restore_worker_data(state: BoardState) {
    let client = state.client.get_value();
    let stale = |id: &RowId| !client.is_live(id);
    let published: Vec<RowId> = state
        .published
        .rows
        .with_untracked(|r| r.iter().copied().filter(stale).collect());
    let computed: Vec<RowId> = computed_ids(state).into_iter().filter(stale).collect();
    state.error.set(None);
    if !published.is_empty() {
        load_published(state, published).await;
    }
    if !computed.is_empty() {
        restore(state, computed).await;
    }
}

/// Forgets the kept files: all of them (`None`), or one, whose rows go and the others are
/// scored again.
async fn forget_kept(state: BoardState, one: Option<String>) {
    state.kept.error.set(None);
    let done = match &one {
        None => store::clear_area(AREA).await,
        Some(name) => store::delete_file(AREA, name).await,
    };
    if let Err(e) = done {
        state.kept.error.set(Some(e));
        return;
    }
    clear_rows(state).await;
    match one {
        None => {
            state.kept.names.set(Vec::new());
            state.kept.restored.set(Vec::new());
        }
        Some(_) => restore(state, Vec::new()).await,
    }
}

/// Shows the site's published bundle (`coglab publish`), when the build has one (its
/// `<meta name="coglab-published">`; without it nothing is fetched and the worker is not
/// started): the worker reads its index and keeps its MM-IQ, KiVA, MM-OPERA and Gold rows,
/// which join the boards badged "published"; their items are fetched when a row is opened or
/// compared, and the rank groups read one rank file per board.
async fn load_published(state: BoardState, replacing: Vec<RowId>) {
    let Some(rel) = crate::data::published_rel() else {
        return;
    };
    let base = format!("{}/{rel}", base_path());
    let board = match state.client.get_value().call(api::Published { base }).await {
        Ok(Some(b)) => b,
        Ok(None) => return,
        Err(e) => {
            state
                .error
                .set(Some(format!("the published leaderboard: {e}")));
            return;
        }
    };
    let rows = &board.rows;
    let ids: Vec<RowId> = (rows.mmiq.iter().map(|r| r.id))
        .chain(rows.kiva.iter().map(|r| r.id))
        .chain(rows.mmopera.iter().map(|r| r.id))
        .chain(rows.gold.iter().map(|r| r.id))
        .collect();
    // Each row's model metadata from the manifest (model names are unique in it).
    let meta_of = |name: &str| {
        board
            .index
            .models
            .iter()
            .find(|m| m.name == name)
            .map(|m| m.meta.clone())
    };
    let named = (rows.mmiq.iter().map(|r| (r.id, r.model.as_str())))
        .chain(rows.kiva.iter().map(|r| (r.id, r.model.as_str())))
        .chain(rows.mmopera.iter().map(|r| (r.id, r.model.as_str())))
        .chain(
            rows.gold
                .iter()
                .filter_map(|r| Some((r.id, r.matrix.models.first()?.as_str()))),
        );
    let meta: HashMap<RowId, _> = named
        .filter_map(|(id, name)| Some((id, meta_of(name)?)))
        .collect();
    state.published.meta.set(meta);
    state.published.rows.set(ids);
    // The published rows come first (they are read first when the page opens), in place of
    // those they replace.
    fn first<T: HasRowId>(v: &mut Vec<T>, new: Vec<T>, replacing: &[RowId]) {
        v.retain(|r| !replacing.contains(&r.row_id()));
        v.splice(0..0, new);
    }
    let r = &state.rows;
    r.mmiq.update(|v| first(v, board.rows.mmiq, &replacing));
    r.kiva.update(|v| first(v, board.rows.kiva, &replacing));
    r.mmopera
        .update(|v| first(v, board.rows.mmopera, &replacing));
    r.gold.update(|v| first(v, board.rows.gold, &replacing));
    state.published.index.set(Some(board.index));
}
