//! The leaderboard page's state, shared by its parts through one context ([`BoardState`]):
//! the view (from the address, [`super::url`]), the rows (published, computed in the worker),
//! the files staged, being scored, scored and kept, and the page's errors.

use crate::worker::api::RowId;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use coglab_core::leaderboard::gold::GoldRow;
use coglab_core::leaderboard::mmopera::MmoperaRow;
use coglab_core::leaderboard::{
    FileKind, FileStatus, HarnessSummaryRow, KivaChallengeRow, KivaRow, MmiqAccRow, MmiqRow, Scored,
};
use coglab_core::publish::manifest::ModelMeta;
use leptos::prelude::*;

use super::board;
use super::url::{self, LeaderboardQuery};
use crate::components::board_table::{Board, ViewState};
use crate::worker::client::{use_worker, WorkerClient};
use crate::worker::protocol::ProgressUpdate;

/// The leaderboard page's state, in the context of all its parts (tabs included):
/// `expect_context::<BoardState>()`, or [`BoardState::get`].
#[derive(Clone, Copy)]
pub struct BoardState {
    /// The page's view as the address gives it (the one source of truth).
    pub query: Memo<LeaderboardQuery>,
    /// The table view, edited by the board table and kept equal to the address.
    pub view: RwSignal<ViewState>,
    /// The rows of every benchmark (published and computed; kept across tab switches).
    pub rows: Rows,
    /// The status of every file scored.
    pub files: RwSignal<Vec<FileStatus>>,
    /// Files picked but not yet scored.
    pub staged: RwSignal<Vec<Staged>, LocalStorage>,
    /// Whether files are being scored, and how far.
    pub scoring: RwSignal<ScoreStatus>,
    /// Why detecting, scoring or loading the published rows failed (the "Scoring stopped"
    /// panel).
    pub error: RwSignal<Option<String>>,
    /// The files kept in this browser.
    pub kept: Kept,
    /// The site's published bundle.
    pub published: Published,
    /// The app's scoring worker.
    pub client: StoredValue<WorkerClient, LocalStorage>,
}

impl BoardState {
    /// Creates the page's state (the view from the address) and provides it as context.
    pub fn provide() -> Self {
        let query = url::use_leaderboard_query();
        let state = Self {
            query,
            view: url::bind_view_state(query),
            rows: Rows::default(),
            files: RwSignal::new(Vec::new()),
            staged: RwSignal::new_local(Vec::new()),
            scoring: RwSignal::new(ScoreStatus::Idle),
            error: RwSignal::new(None),
            kept: Kept::default(),
            published: Published::default(),
            client: StoredValue::new_local(use_worker()),
        };
        provide_context(state);
        state
    }

    /// The page's state from the context.
    pub fn get() -> Self {
        expect_context::<Self>()
    }

    /// Changes the page's view in the address ([`url::update`]).
    pub fn set_url(self, f: impl FnOnce(&mut LeaderboardQuery)) {
        url::update(self.query, f);
    }

    /// How many rows on the page went with an ended worker (tracked): their figures are
    /// shown, but their items, comparisons and ranks need [`super::actions::PageActions`]'s
    /// `restore_worker` first.
    pub fn stale_rows(self) -> usize {
        let generation = self.client.with_value(|c| c.generation());
        let stale = |id: &RowId| id.generation != generation;
        let r = self.rows;
        r.mmiq.with(|v| v.iter().filter(|x| stale(&x.id)).count())
            + r.kiva.with(|v| v.iter().filter(|x| stale(&x.id)).count())
            + r.kiva_challenge
                .with(|v| v.iter().filter(|x| stale(&x.id)).count())
            + r.mmopera
                .with(|v| v.iter().filter(|x| stale(&x.id)).count())
            + r.gold.with(|v| v.iter().filter(|x| stale(&x.id)).count())
    }

    /// The worker's ids of the published rows (tracked).
    pub fn published_ids(self) -> Vec<RowId> {
        self.published.rows.get()
    }

    /// Badges a board's published rows ([`board::mark_published`]).
    pub fn mark_published(self, b: &mut Board) {
        let ids = self.published.rows.get();
        self.published
            .meta
            .with(|meta| board::mark_published(b, &ids, meta));
    }
}

/// The rows of every benchmark, in the worker's order.
#[derive(Clone, Copy)]
pub struct Rows {
    /// MM-IQ rows with items.
    pub mmiq: RwSignal<Vec<MmiqRow>>,
    /// MM-IQ rows of VLMEvalKit `_acc.csv` summaries.
    pub mmiq_acc: RwSignal<Vec<MmiqAccRow>>,
    /// Rows of harness summary files (lmms-eval `results.json`, EEE aggregates).
    pub harness_summary: RwSignal<Vec<HarnessSummaryRow>>,
    /// KiVA rows.
    pub kiva: RwSignal<Vec<KivaRow>>,
    /// KiVA challenge results scored against their annotations.
    pub kiva_challenge: RwSignal<Vec<KivaChallengeRow>>,
    /// MM-OPERA rows.
    pub mmopera: RwSignal<Vec<MmoperaRow>>,
    /// Gold rows.
    pub gold: RwSignal<Vec<GoldRow>>,
}

impl Default for Rows {
    fn default() -> Self {
        Self {
            mmiq: RwSignal::new(Vec::new()),
            mmiq_acc: RwSignal::new(Vec::new()),
            harness_summary: RwSignal::new(Vec::new()),
            kiva: RwSignal::new(Vec::new()),
            kiva_challenge: RwSignal::new(Vec::new()),
            mmopera: RwSignal::new(Vec::new()),
            gold: RwSignal::new(Vec::new()),
        }
    }
}

impl Rows {
    /// Appends the rows the worker scored.
    pub fn extend(self, s: Scored) {
        self.mmiq.update(|v| v.extend(s.mmiq));
        self.mmiq_acc.update(|v| v.extend(s.mmiq_acc));
        self.harness_summary.update(|v| v.extend(s.harness_summary));
        self.kiva.update(|v| v.extend(s.kiva));
        self.kiva_challenge.update(|v| v.extend(s.kiva_challenge));
        self.mmopera.update(|v| v.extend(s.mmopera));
        self.gold.update(|v| v.extend(s.gold));
    }

    /// The worker's ids of every row with items (untracked).
    pub fn ids_untracked(self) -> Vec<RowId> {
        let mut ids: Vec<RowId> = self
            .mmiq
            .with_untracked(|r| r.iter().map(|r| r.id).collect());
        self.kiva
            .with_untracked(|r| ids.extend(r.iter().map(|r| r.id)));
        self.mmopera
            .with_untracked(|r| ids.extend(r.iter().map(|r| r.id)));
        self.gold
            .with_untracked(|r| ids.extend(r.iter().map(|r| r.id)));
        self.kiva_challenge
            .with_untracked(|r| ids.extend(r.iter().map(|r| r.id)));
        ids
    }

    /// Keeps only the rows whose id `keep` accepts (summaries have no id: they all go).
    pub fn retain(self, keep: impl Fn(RowId) -> bool) {
        self.kiva_challenge.update(|v| v.retain(|r| keep(r.id)));
        self.mmiq.update(|v| v.retain(|r| keep(r.id)));
        self.mmiq_acc.set(Vec::new());
        self.harness_summary.set(Vec::new());
        self.kiva.update(|v| v.retain(|r| keep(r.id)));
        self.mmopera.update(|v| v.retain(|r| keep(r.id)));
        self.gold.update(|v| v.retain(|r| keep(r.id)));
    }
}

/// A row kept by the worker under an id.
pub trait HasRowId {
    /// The row's id.
    fn row_id(&self) -> RowId;
}

macro_rules! has_row_id {
    ($($t:ty),*) => {$(impl HasRowId for $t {
        fn row_id(&self) -> RowId {
            self.id
        }
    })*};
}
has_row_id!(MmiqRow, KivaRow, MmoperaRow, GoldRow);

/// A file waiting to be scored: detected format and the model name, which the user can edit.
#[derive(Debug, Clone, PartialEq)]
pub struct Staged {
    /// Key of the entry in the list (unique in the page's life).
    pub id: u64,
    /// Path (folder-relative for a folder pick or drop).
    pub path: String,
    /// Format to read the file as (the detected one unless the user chose another).
    pub kind: FileKind,
    /// Format detected from the file's start.
    pub detected: FileKind,
    /// Model name (guessed from the path, editable).
    pub model: String,
    /// Whether to score it.
    pub include: bool,
    /// Why the file was not recognised, when the worker could tell (UTF-16 text).
    pub note: Option<String>,
    /// The file.
    pub file: web_sys::File,
}

impl Staged {
    /// A staged entry with a new id.
    pub fn new(
        path: String,
        file: web_sys::File,
        kind: FileKind,
        model: String,
        note: Option<String>,
    ) -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        Self {
            id: NEXT.fetch_add(1, Ordering::Relaxed),
            path,
            kind,
            detected: kind,
            model,
            include: kind != FileKind::Unknown,
            note,
            file,
        }
    }

    /// Size in bytes.
    pub fn size(&self) -> f64 {
        self.file.size()
    }
}

/// Whether files are being scored.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum ScoreStatus {
    /// Nothing is being scored.
    #[default]
    Idle,
    /// The worker is reading and scoring these files.
    Scoring(ScoringRun),
}

/// One run of the scoring worker over a set of files.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoringRun {
    /// The files, in the order they were sent.
    pub files: Vec<ScoringFile>,
    /// The worker's latest progress.
    pub progress: ProgressUpdate,
    /// Labels (paths) the worker has reported progress for, in order.
    pub seen: Vec<String>,
}

impl ScoringRun {
    /// A run over `files`, not started.
    pub fn new(files: Vec<ScoringFile>) -> Self {
        let total = files.len() as f64;
        Self {
            files,
            progress: ProgressUpdate {
                done: 0.0,
                total,
                label: String::new(),
            },
            seen: Vec::new(),
        }
    }

    /// Takes a progress update.
    pub fn advance(&mut self, p: ProgressUpdate) {
        if !p.label.is_empty() && self.seen.last() != Some(&p.label) {
            self.seen.push(p.label.clone());
        }
        self.progress = p;
    }
}

/// A file being scored.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoringFile {
    /// Its path.
    pub path: String,
    /// Its size in bytes.
    pub size: f64,
}

/// The files kept in this browser's store.
#[derive(Clone, Copy)]
pub struct Kept {
    /// Their paths.
    pub names: RwSignal<Vec<String>>,
    /// The kept files scored again when the page opened (or with new files).
    pub restored: RwSignal<Vec<String>>,
    /// Why the files could not be kept or read back (e.g. the storage quota is full).
    pub error: RwSignal<Option<String>>,
}

impl Default for Kept {
    fn default() -> Self {
        Self {
            names: RwSignal::new(Vec::new()),
            restored: RwSignal::new(Vec::new()),
            error: RwSignal::new(None),
        }
    }
}

/// The site's published bundle (`coglab publish`), when it has one.
#[derive(Clone, Copy)]
pub struct Published {
    /// Its index.
    pub index: RwSignal<Option<coglab_core::publish::Index>>,
    /// The worker's ids of the published rows.
    pub rows: RwSignal<Vec<RowId>>,
    /// The published rows' model metadata (family, parameters, ...) by row id.
    pub meta: RwSignal<HashMap<RowId, ModelMeta>>,
}

impl Default for Published {
    fn default() -> Self {
        Self {
            index: RwSignal::new(None),
            rows: RwSignal::new(Vec::new()),
            meta: RwSignal::new(HashMap::new()),
        }
    }
}
