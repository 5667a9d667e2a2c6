//! The Review page's view state in the address: the result set and the item on screen
//! (`/review?set=MMIQ%20GPT-4o&item=1043`), so a link or a bookmark opens that item. The
//! workspace (sample, scores, notes) stays in this browser; the address only picks within it.
//!
//! The only file of the page that reads or writes the address.

use leptos::prelude::*;

use super::state::ReviewState;
use leptos_router::hooks::use_query_map;
use leptos_router::params::ParamsMap as Query;

use crate::pages::set_view;

/// The page's query parameters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReviewQuery {
    /// The result set on screen.
    pub set: Option<String>,
    /// The key of the item on screen (within the set's sample).
    pub item: Option<String>,
}

impl ReviewQuery {
    /// Reads `set` and `item`; empty ones count as absent.
    pub fn from_query(q: &Query) -> Self {
        let get = |k: &str| q.get(k).filter(|v| !v.is_empty());
        Self {
            set: get("set"),
            item: get("item"),
        }
    }

    /// The query string (without `?`; empty when nothing is on screen).
    pub fn to_search(&self) -> String {
        let enc = |v: &str| String::from(js_sys::encode_uri_component(v));
        [("set", &self.set), ("item", &self.item)]
            .into_iter()
            .filter_map(|(k, v)| v.as_deref().map(|v| format!("{k}={}", enc(v))))
            .collect::<Vec<_>>()
            .join("&")
    }

    /// What the page shows (reactive).
    fn of(state: ReviewState) -> Self {
        Self {
            set: state.current.with(|c| c.as_ref().map(|s| s.name.clone())),
            item: state.current_key(),
        }
    }
}

/// Keeps the address and the page in step: once the saved workspace and the sets are there,
/// the address's set and item are opened (if loaded and in the sample); from then on, what
/// the page shows is written to the address (replacing the history entry: a view setting).
pub fn sync(state: ReviewState) {
    let query = use_query_map();
    let wanted = Memo::new(move |_| query.with(ReviewQuery::from_query));
    // Whether the address has been read into the page (it is written only after).
    let read = RwSignal::new(false);
    // The last query this page applied or wrote: applied once (a later rerun, e.g. when the
    // sets are rebuilt, does not undo the user's moves), and the page's own write coming back
    // is not applied again.
    let seen = StoredValue::new(None::<ReviewQuery>);
    Effect::new(move |_| {
        let q = wanted.get();
        let ready = state.restored() && state.loaded.with(|l| !l.sets.is_empty());
        if !ready || seen.with_value(|w| w.as_ref() == Some(&q)) {
            return;
        }
        untrack(|| open(state, &q));
        seen.set_value(Some(q));
        read.set(true);
    });
    Effect::new(move |_| {
        let shown = ReviewQuery::of(state);
        if !read.get() || wanted.with_untracked(|w| *w == shown) {
            return;
        }
        let search = shown.to_search();
        seen.set_value(Some(shown));
        let to = if search.is_empty() {
            "/review".to_string()
        } else {
            format!("/review?{search}")
        };
        set_view(&to);
    });
}

/// Opens the set and the item `q` names, where they are loaded.
fn open(state: ReviewState, q: &ReviewQuery) {
    let set = q
        .set
        .clone()
        .filter(|name| {
            state
                .loaded
                .with(|l| l.sets.iter().any(|s| &s.name == name))
        })
        .or_else(|| state.ws.with(|w| w.current.clone()));
    let Some(set) = set else { return };
    let position = q.item.as_ref().and_then(|item| {
        state
            .ws
            .with(|w| w.sets.get(&set)?.keys.iter().position(|k| k == item))
    });
    let changes_set = state
        .ws
        .with(|w| w.current.as_deref() != Some(set.as_str()));
    let changes_item = position.is_some_and(|p| {
        state
            .ws
            .with(|w| w.sets.get(&set).is_some_and(|r| r.position != p))
    });
    if changes_set || changes_item {
        state.update(|w| {
            w.current = Some(set.clone());
            if let (Some(p), Some(r)) = (position, w.sets.get_mut(&set)) {
                r.position = p;
            }
        });
    }
}
