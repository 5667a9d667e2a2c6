//! The Review page's state: the loaded files, the sets the worker built from them, the saved
//! workspace (chosen set, sample, position, scores, notes) and the store's status, shared with
//! the page's parts as one context ([`ReviewState`]).

use coglab_core::review::records::SetReview;
use coglab_core::review::{Loaded, ReviewSet, Workspace};
use leptos::prelude::*;

use super::actions::{Actions, Targets};

/// A file loaded on the page: its name (unique on the page) and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadedFile {
    /// The file's name as the user loaded it.
    pub name: String,
    /// Its contents.
    pub bytes: Vec<u8>,
}

/// The local store as the page sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreStatus {
    /// The saved files and workspace are being read (with the first storage error meanwhile).
    Reading {
        /// A storage error met while reading.
        error: Option<String>,
    },
    /// Read; the last write (if any) succeeded.
    Ready,
    /// The last storage operation failed (shown, never swallowed).
    Failed(String),
}

impl StoreStatus {
    /// The storage error to show, if any.
    pub fn error(&self) -> Option<&str> {
        match self {
            StoreStatus::Reading { error } => error.as_deref(),
            StoreStatus::Ready => None,
            StoreStatus::Failed(e) => Some(e),
        }
    }
}

/// The review page's shared state, provided as context to its parts.
#[derive(Clone, Copy)]
pub struct ReviewState {
    /// The loaded files.
    pub files: RwSignal<Vec<LoadedFile>>,
    /// The result sets built from the files (in the scoring worker).
    pub loaded: RwSignal<Loaded>,
    /// The saved workspace.
    pub ws: RwSignal<Workspace>,
    /// The set on screen.
    pub current: Memo<Option<ReviewSet>>,
    /// Its review (sample, position, records), if started.
    pub review: Memo<Option<SetReview>>,
    /// The local store's status.
    pub store: RwSignal<StoreStatus>,
    /// How much this browser stores for the page, as a sentence.
    pub quota: RwSignal<Option<String>>,
    /// Set once the workspace has been forgotten (until the next "Forget…").
    pub forgotten: RwSignal<bool>,
    /// The page's async work.
    pub actions: Actions,
}

impl ReviewState {
    /// Empty state (nothing read yet) with the page's actions.
    pub fn new() -> Self {
        let files = RwSignal::new(Vec::<LoadedFile>::new());
        let ws = RwSignal::new(Workspace::default());
        let loaded = RwSignal::new(Loaded::default());
        let store = RwSignal::new(StoreStatus::Reading { error: None });
        let quota = RwSignal::new(None);
        let forgotten = RwSignal::new(false);
        let current_name = Memo::new(move |_| ws.with(|w| w.current.clone()));
        let current = Memo::new(move |_| {
            let name = current_name.get()?;
            loaded.with(|l| l.sets.iter().find(|s| s.name == name).cloned())
        });
        let review = Memo::new(move |_| {
            let name = current_name.get()?;
            ws.with(|w| w.sets.get(&name).cloned())
        });
        Self {
            files,
            loaded,
            ws,
            current,
            review,
            store,
            quota,
            forgotten,
            actions: Actions::new(Targets {
                files,
                loaded,
                ws,
                store,
                quota,
                forgotten,
            }),
        }
    }

    /// The signals the page's actions write.
    pub fn targets(&self) -> Targets {
        Targets {
            files: self.files,
            loaded: self.loaded,
            ws: self.ws,
            store: self.store,
            quota: self.quota,
            forgotten: self.forgotten,
        }
    }

    /// Whether the stored workspace has been read (reactive).
    pub fn restored(&self) -> bool {
        self.store
            .with(|s| !matches!(s, StoreStatus::Reading { .. }))
    }

    /// The key of the item on screen, if a review is started (reactive).
    pub fn current_key(&self) -> Option<String> {
        self.review
            .with(|r| r.as_ref().and_then(|r| r.keys.get(r.position).cloned()))
    }

    /// Changes the workspace and writes it to the store at once.
    pub fn update(&self, f: impl FnOnce(&mut Workspace)) {
        self.ws.update(f);
        self.save();
    }

    /// Changes the review of the set on screen (if any) and saves.
    pub fn update_review(&self, f: impl FnOnce(&mut SetReview)) {
        self.update(|w| {
            if let Some(name) = w.current.clone() {
                if let Some(r) = w.sets.get_mut(&name) {
                    f(r);
                }
            }
        });
    }

    /// Writes the workspace to the store; errors are shown.
    pub fn save(&self) {
        let json = self.ws.with_untracked(Workspace::to_json);
        self.actions.save.dispatch_local(json);
    }

    /// Moves to the item at `position` of the sample.
    pub fn go(&self, position: usize) {
        self.update_review(|r| {
            if !r.keys.is_empty() {
                r.position = position.min(r.keys.len() - 1);
            }
        });
    }

    /// Moves by `delta` items.
    pub fn step(&self, delta: isize) {
        self.update_review(|r| {
            if !r.keys.is_empty() {
                let p = r.position as isize + delta;
                r.position = p.clamp(0, r.keys.len() as isize - 1) as usize;
            }
        });
    }
}

impl Default for ReviewState {
    fn default() -> Self {
        Self::new()
    }
}
