//! The leaderboard's view in the address: the one source of truth for what the page shows
//! (benchmark tab, table view, KiVA and MM-OPERA switches, selected models), so that a reload
//! restores it and a link shares it.
//!
//! [`LeaderboardQuery`] is the typed query string ([`LeaderboardQuery::from_query`],
//! [`LeaderboardQuery::to_search`]) and [`update`] the one function that writes it. This is the
//! only file of the page that reads or writes the address (through `leptos_router`). The parameter names and values are
//! those of published links and tests: `b` benchmark; `s` sort, `a` ascending, `q` text, `k`
//! kinds, `fam`, `size`, `hide` hidden columns, `c` compact; `model` and `cmp` (by model
//! name); KiVA `v=adults`, `j=1`, `null=missing`; MM-OPERA `t=ica`, `decay=paper`,
//! `avg=paths`; `est=1` (MM-IQ and KiVA: rank by estimated scores). A default value is left out of the address.

use crate::worker::api::RowId;
use coglab_core::kiva::NullAnswers;
use coglab_core::mmopera::score::{DecayExponent, IcaAverage};
use coglab_core::mmopera::Task;
use leptos::prelude::*;

use super::board::OperaSettings;
use crate::components::board_table::{RowKind, ViewState};
use crate::data::BENCHMARKS;
use crate::pages::set_view;
use leptos_router::params::ParamsMap as Query;

/// The page's query string, typed.
#[derive(Debug, Clone, PartialEq)]
pub struct LeaderboardQuery {
    /// `b`: the benchmark tab, a key of [`BENCHMARKS`] (`None`: absent or unknown, MM-IQ).
    pub bench: Option<&'static str>,
    /// The table's view (`s`, `a`, `q`, `k`, `fam`, `size`, `hide`, `c`).
    pub view: ViewState,
    /// `model`: the model page's model, by name.
    pub model: Option<String>,
    /// `cmp`: the two compared models, by name (`<a>,<b>`).
    pub cmp: Option<(String, String)>,
    /// `v=adults`: the KiVA-adults variant.
    pub adults: bool,
    /// `j=1`: KiVA's joint "how" stage.
    pub joint: bool,
    /// `null`: how KiVA's Null answers count.
    pub null: NullAnswers,
    /// `t=ica`: the MM-OPERA task (default RIA).
    pub task: Task,
    /// `decay=paper`, `avg=paths`: MM-OPERA's paper-fidelity settings.
    pub opera: OperaSettings,
    /// `est=1`: the table ranks partial computed rows by their estimated full-benchmark
    /// scores (issue 40; default off: observed scores, missing items counted wrong).
    pub estimated: bool,
}

impl Default for LeaderboardQuery {
    fn default() -> Self {
        Self {
            bench: None,
            view: ViewState::default(),
            model: None,
            cmp: None,
            adults: false,
            joint: false,
            null: NullAnswers::default(),
            task: Task::Ria,
            opera: OperaSettings::default(),
            estimated: false,
        }
    }
}

impl LeaderboardQuery {
    /// The page's view from the address's query parameters.
    pub fn from_query(q: &Query) -> Self {
        Self::from_get(|k| q.get(k))
    }

    /// The page's view from a lookup of query parameters by name.
    pub fn from_get(get: impl Fn(&str) -> Option<String>) -> Self {
        let list = |k: &str| -> Vec<String> {
            get(k)
                .map(|v| {
                    v.split(',')
                        .filter(|s| !s.is_empty())
                        .map(String::from)
                        .collect()
                })
                .unwrap_or_default()
        };
        let b = get("b").unwrap_or_default();
        Self {
            bench: BENCHMARKS.iter().find(|(k, _)| *k == b).map(|(k, _)| *k),
            view: ViewState {
                sort: get("s").filter(|s| !s.is_empty()),
                asc: get("a").as_deref() == Some("1"),
                query: get("q").unwrap_or_default(),
                kinds: list("k").iter().filter_map(|k| RowKind::parse(k)).collect(),
                family: get("fam").unwrap_or_default(),
                size: get("size").unwrap_or_default(),
                hidden: list("hide"),
                compact: get("c").as_deref() == Some("1"),
            },
            model: get("model").filter(|m| !m.is_empty()),
            cmp: get("cmp").and_then(|c| {
                let (a, b) = c.split_once(',')?;
                Some((a.to_string(), b.to_string()))
            }),
            adults: get("v").as_deref() == Some("adults"),
            joint: get("j").as_deref() == Some("1"),
            null: get("null")
                .and_then(|n| NullAnswers::from_name(&n))
                .unwrap_or_default(),
            task: if get("t").as_deref() == Some("ica") {
                Task::Ica
            } else {
                Task::Ria
            },
            opera: OperaSettings {
                decay: get("decay")
                    .and_then(|d| DecayExponent::from_name(&d))
                    .unwrap_or_default(),
                average: get("avg")
                    .and_then(|a| IcaAverage::from_name(&a))
                    .unwrap_or_default(),
            },
            estimated: get("est").as_deref() == Some("1"),
        }
    }

    /// The benchmark shown (`mmiq` by default).
    pub fn bench(&self) -> &'static str {
        self.bench.unwrap_or("mmiq")
    }

    /// The parameters that differ from the defaults, as (name, value), in a fixed order.
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        let flag = |on: bool, v: &str| if on { v.to_string() } else { String::new() };
        let v = &self.view;
        let pairs = [
            ("b", self.bench.unwrap_or_default().to_string()),
            ("v", flag(self.adults, "adults")),
            ("j", flag(self.joint, "1")),
            ("null", flag(self.null == NullAnswers::Missing, "missing")),
            ("t", flag(self.task == Task::Ica, "ica")),
            (
                "decay",
                flag(self.opera.decay == DecayExponent::FromOne, "paper"),
            ),
            (
                "avg",
                flag(self.opera.average == IcaAverage::Paths, "paths"),
            ),
            ("est", flag(self.estimated, "1")),
            ("s", v.sort.clone().unwrap_or_default()),
            ("a", flag(v.asc, "1")),
            ("q", v.query.clone()),
            (
                "k",
                v.kinds
                    .iter()
                    .map(|k| k.label())
                    .collect::<Vec<_>>()
                    .join(","),
            ),
            ("fam", v.family.clone()),
            ("size", v.size.clone()),
            ("hide", v.hidden.join(",")),
            ("c", flag(v.compact, "1")),
            ("model", self.model.clone().unwrap_or_default()),
            (
                "cmp",
                self.cmp
                    .as_ref()
                    .map(|(a, b)| format!("{a},{b}"))
                    .unwrap_or_default(),
            ),
        ];
        pairs.into_iter().filter(|(_, v)| !v.is_empty()).collect()
    }

    /// The query string (`?b=kiva&j=1`; empty when everything is at its default), encoded as
    /// the browser's `URLSearchParams` does (`,` as `%2C`, a space as `+`).
    pub fn to_search(&self) -> String {
        let pairs = self.to_pairs();
        if pairs.is_empty() {
            return String::new();
        }
        let encoded: Vec<String> = pairs
            .iter()
            .map(|(k, v)| format!("{}={}", form_encode(k), form_encode(v)))
            .collect();
        format!("?{}", encoded.join("&"))
    }
}

/// `application/x-www-form-urlencoded` serialization of one name or value (the URL
/// standard's, which `URLSearchParams.toString` uses): `*-._`, digits and ASCII letters as
/// they are, a space as `+`, every other byte of the UTF-8 as `%XX`.
fn form_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'*' | b'-' | b'.' | b'_' | b'0'..=b'9' | b'A'..=b'Z' | b'a'..=b'z' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The page's view, following the address.
pub fn use_leaderboard_query() -> Memo<LeaderboardQuery> {
    let query = leptos_router::hooks::use_query_map();
    Memo::new(move |_| query.with(LeaderboardQuery::from_query))
}

/// Changes the page's view: `f` edits the current one, and the address is replaced with the
/// result (the current history entry: Back leaves the page rather than undoing each setting).
/// Nothing is written when nothing changed.
pub fn update(query: Memo<LeaderboardQuery>, f: impl FnOnce(&mut LeaderboardQuery)) {
    let current = query.get_untracked();
    let mut next = current.clone();
    f(&mut next);
    if next == current {
        return;
    }
    set_view(&format!("/leaderboard{}", next.to_search()));
}

/// The table view as a signal the board table edits, kept equal to the address both ways:
/// an edit is written to the address, and an address change (Back, a link) is shown.
pub fn bind_view_state(query: Memo<LeaderboardQuery>) -> RwSignal<ViewState> {
    let state = RwSignal::new(query.with_untracked(|q| q.view.clone()));
    Effect::new(move |_| {
        let view = query.with(|q| q.view.clone());
        if state.with_untracked(|s| *s != view) {
            state.set(view);
        }
    });
    Effect::new(move |_| {
        let view = state.get();
        update(query, |q| q.view = view);
    });
    state
}

/// Keeps the selected model (`model`) and the two compared models (`cmp`) in the address,
/// by model name (row ids are not kept across visits): a name in the address selects its row
/// as soon as a row of that name is computed (e.g. once the kept files are scored again after
/// a reload), and a user's choice is written back.
pub fn bind_selection(
    query: Memo<LeaderboardQuery>,
    rows: Signal<Vec<(RowId, String)>>,
    pick: RwSignal<Option<RowId>>,
    pair: RwSignal<(Option<RowId>, Option<RowId>)>,
) {
    let id_of =
        move |name: &str| rows.with(|r| r.iter().find(|(_, m)| m == name).map(|(id, _)| *id));
    let name_of = move |id: Option<RowId>| {
        rows.with_untracked(|r| {
            r.iter()
                .find(|(i, _)| Some(*i) == id)
                .map(|(_, m)| m.clone())
        })
    };
    // Address → selection.
    Effect::new(move |_| {
        let (model, cmp) = query.with(|q| (q.model.clone(), q.cmp.clone()));
        if let Some(id) = model.and_then(|m| id_of(&m)) {
            if pick.get_untracked() != Some(id) {
                pick.set(Some(id));
            }
        }
        if let Some((a, b)) = cmp {
            let (a, b) = (id_of(&a), id_of(&b));
            if a.is_some() && b.is_some() && pair.get_untracked() != (a, b) {
                pair.set((a, b));
            }
        }
    });
    // Selection → address (only once the user or the address has chosen).
    Effect::new(move |_| {
        let model = name_of(pick.get());
        let (a, b) = pair.get();
        let cmp = name_of(a).zip(name_of(b));
        if model.is_none() && cmp.is_none() {
            return;
        }
        update(query, |q| {
            if model.is_some() {
                q.model = model;
            }
            if cmp.is_some() {
                q.cmp = cmp;
            }
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(q: &LeaderboardQuery) -> LeaderboardQuery {
        let pairs = q.to_pairs();
        LeaderboardQuery::from_get(|k| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone()))
    }

    #[test]
    fn url_state_round_trip() {
        let q = LeaderboardQuery {
            bench: Some("kiva"),
            view: ViewState {
                sort: Some("Mathematical".into()),
                asc: true,
                query: "gpt".into(),
                kinds: vec![RowKind::Computed, RowKind::Baseline],
                family: "GPT".into(),
                size: String::new(),
                hidden: vec!["mean".into(), "2D-Geometry".into()],
                compact: true,
            },
            model: Some("allA".into()),
            cmp: Some(("allA".into(), "example".into())),
            adults: true,
            joint: true,
            null: NullAnswers::Missing,
            task: Task::Ica,
            opera: OperaSettings {
                decay: DecayExponent::FromOne,
                average: IcaAverage::Paths,
            },
            estimated: true,
        };
        assert_eq!(parse(&q), q);
        assert_eq!(
            parse(&LeaderboardQuery::default()),
            LeaderboardQuery::default()
        );
    }

    #[test]
    fn defaults_leave_the_address_empty_and_names_are_kept() {
        assert_eq!(LeaderboardQuery::default().to_search(), "");
        // An unknown benchmark is MM-IQ, and is not written back.
        let q = LeaderboardQuery::from_get(|k| (k == "b").then(|| "nope".to_string()));
        assert_eq!((q.bench, q.bench()), (None, "mmiq"));
        let q = LeaderboardQuery {
            bench: Some("mmiq"),
            cmp: Some(("allA".into(), "example".into())),
            view: ViewState {
                query: "gpt 4o/é".into(),
                ..ViewState::default()
            },
            ..LeaderboardQuery::default()
        };
        // As URLSearchParams writes them: "," is %2C, " " is +, "/" and "é" (C3 A9) escaped.
        assert_eq!(
            q.to_search(),
            "?b=mmiq&q=gpt+4o%2F%C3%A9&cmp=allA%2Cexample"
        );
    }
}
