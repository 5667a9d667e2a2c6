//! The self-test's view in the address: the session a link opens (`?kind=kiva&seed=42`).

use coglab_core::selftest::SessionKind;

/// The page's view in the address: the session a link opens (`?kind=kiva&seed=42`), as
/// written; the runner checks both. Read here, written by [`session_href`] alone.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct SessionQuery {
    /// `kind`: the session kind's URL spelling.
    pub kind: Option<String>,
    /// `seed`: the seed, as written.
    pub seed: Option<String>,
}

impl SessionQuery {
    pub(super) fn from_query(q: &leptos_router::params::ParamsMap) -> Self {
        Self {
            kind: q.get("kind"),
            seed: q.get("seed"),
        }
    }
}

/// The link that opens a session (the one writer of [`SessionQuery`]).
pub(super) fn session_href(kind: &SessionKind, seed: u64) -> String {
    format!("/self-test?kind={}&seed={seed}", kind.as_str())
}
