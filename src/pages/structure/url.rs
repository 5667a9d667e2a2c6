//! The Structure page's view state in the address: the order of the weighted-scores table
//! (`/structure?sort=overall&desc=1`), so a link shows the ranking as the sender saw it. The
//! rest of the page (matrix, model, switches) is the workspace, kept in this browser.
//!
//! The only file of the page that reads or writes the address.

use leptos::prelude::*;

use leptos_router::hooks::use_query_map;
use leptos_router::params::ParamsMap as Query;

use crate::pages::set_view;

/// The scores table's default sort key: the weighted rank.
pub const DEFAULT_SORT: &str = "rank";

/// The page's query parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructureQuery {
    /// The scores table's sort key (`rank`, `model`, `overall`, `mean`, `change` or a
    /// construct's name).
    pub sort: String,
    /// Whether it sorts descending.
    pub desc: bool,
}

impl Default for StructureQuery {
    fn default() -> Self {
        Self {
            sort: DEFAULT_SORT.into(),
            desc: false,
        }
    }
}

impl StructureQuery {
    /// Reads `sort` and `desc` (`1` or `true`); absent or empty ones take the defaults.
    pub fn from_query(q: &Query) -> Self {
        Self {
            sort: q
                .get("sort")
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| DEFAULT_SORT.into()),
            desc: q.get("desc").is_some_and(|d| d == "1" || d == "true"),
        }
    }

    /// The query string (without `?`; empty for the defaults).
    pub fn to_search(&self) -> String {
        let mut parts = Vec::new();
        if self.sort != DEFAULT_SORT {
            parts.push(format!(
                "sort={}",
                String::from(js_sys::encode_uri_component(&self.sort))
            ));
        }
        if self.desc {
            parts.push("desc=1".to_string());
        }
        parts.join("&")
    }
}

/// The page's query, following the address.
pub fn use_structure_query() -> Memo<StructureQuery> {
    let query = use_query_map();
    Memo::new(move |_| query.with(StructureQuery::from_query))
}

/// Writes `q` into the address (replacing the history entry: a view setting).
pub fn set_structure_query(q: &StructureQuery) {
    let search = q.to_search();
    let to = if search.is_empty() {
        "/structure".to_string()
    } else {
        format!("/structure?{search}")
    };
    set_view(&to);
}
