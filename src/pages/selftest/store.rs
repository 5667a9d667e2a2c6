//! Saved sessions in localStorage (through `gloo-storage`): one JSON array under [`KEY`],
//! written after every answer.

use coglab_core::selftest::{Environment, SessionKind, TrialResponses};
use gloo_storage::{LocalStorage, Storage};
use serde::{Deserialize, Serialize};

/// The localStorage key.
pub const KEY: &str = "coglab.selftest.v1";

/// One saved session: what generates its trials, who took it and the answers so far.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Saved {
    /// `<kind>|<seed>`.
    pub id: String,
    /// Session kind, URL spelling.
    pub kind: String,
    /// Seed.
    pub seed: u64,
    /// Participant id written to the export.
    pub participant: String,
    /// When it was started (local date and time).
    pub created: String,
    /// When it was started, in ms since the epoch (`None` in sessions saved before it was
    /// recorded): the resume policy's age ([`coglab_core::selftest::Resume`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_ms: Option<f64>,
    /// Answers per trial.
    pub responses: Vec<TrialResponses>,
    /// Whether every trial is answered: set by the runner when the session ends (an adaptive
    /// session's length is not known before).
    #[serde(default)]
    pub finished: bool,
    /// What the session ran on, recorded when it was first shown (`None` in sessions saved
    /// before it was recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub environment: Option<Environment>,
}

impl Saved {
    /// Trials with the last stage answered.
    pub fn answered(&self) -> usize {
        self.responses
            .iter()
            .filter(|r| r.extrapolation.is_some())
            .count()
    }
}

/// All saved sessions, newest first; an unreadable store reads as empty.
pub fn load_all() -> Vec<Saved> {
    LocalStorage::get(KEY).unwrap_or_default()
}

fn write_all(all: &[Saved]) {
    let _ = LocalStorage::set(KEY, all);
}

/// Saves (replaces) one session.
pub fn save(rec: &Saved) {
    let mut all = load_all();
    match all.iter_mut().find(|s| s.id == rec.id) {
        Some(s) => *s = rec.clone(),
        None => all.insert(0, rec.clone()),
    }
    write_all(&all);
}

/// Deletes a session.
pub fn delete(id: &str) {
    let mut all = load_all();
    all.retain(|s| s.id != id);
    write_all(&all);
}

/// The saved session of a kind and seed, created (and saved) when absent.
pub fn ensure(kind: &SessionKind, seed: u64, participant: &str) -> Saved {
    let id = format!("{}|{seed}", kind.as_str());
    if let Some(s) = load_all().into_iter().find(|s| s.id == id) {
        return s;
    }
    let created = now_text();
    let participant = participant.trim();
    let rec = Saved {
        id,
        kind: kind.as_str(),
        seed,
        participant: if participant.is_empty() {
            "self".into()
        } else {
            participant.into()
        },
        created,
        started_ms: Some(js_sys::Date::now()),
        responses: Vec::new(),
        finished: false,
        environment: None,
    };
    save(&rec);
    rec
}

/// The local date and time, as `created` is written.
fn now_text() -> String {
    String::from(js_sys::Date::new_0().to_locale_string("en-GB", &js_sys::Object::new()))
}

/// The session started again: its answers and environment discarded, started now; saved.
pub fn restart(rec: &Saved) -> Saved {
    let fresh = Saved {
        created: now_text(),
        started_ms: Some(js_sys::Date::now()),
        responses: Vec::new(),
        finished: false,
        environment: None,
        ..rec.clone()
    };
    save(&fresh);
    fresh
}
