//! Self-test (KiVA): take visual-analogy trials in three stages (what changed, how, apply it)
//! and compare with adults and models. Trials come from `coglab_core::selftest::generate`
//! (seeded: the kind and seed are in the URL); every answer is saved to localStorage as it is
//! given, so a reload resumes at the same question; results and exports come from the core.
//! A session can also use KiVA's own images from a picked folder (`stimuli`).
//!
//! - `url.rs`: the session a link opens (`?kind=…&seed=…`), read and written;
//! - `start.rs`: the start screen (kind, seed, participant, past sessions);
//! - `runner.rs`: the trials, one question at a time, timed from the frame that drew them;
//! - `results.rs`: the scores beside the adults and the models, and the exports;
//! - `stimuli.rs`: a session of KiVA's own images from a picked folder;
//! - `store.rs`: the answers kept in this browser.
//!
//! The page's state is the session in the address and the answers in the store; each part
//! holds its own signals, so there is no page-wide state or context.

mod results;
mod runner;
mod start;
mod stimuli;
mod store;
mod url;

use coglab_core::selftest::{generate, SessionKind};
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_query_map;

use crate::components::error_panel::ErrorPanel;
use crate::data::href;
use runner::{AdaptiveRunner, Runner, StimuliResume};
use start::Start;
use url::SessionQuery;

/// The self-test page in a WebAssembly chunk of its own, fetched when the page is first shown
/// (the route's view; [`crate::split::page`] shows a loading line until then).
pub fn lazy_page() -> AnyView {
    #[cfg_attr(feature = "split", leptos::lazy)]
    async fn self_test() -> AnyView {
        view! { <SelfTest /> }.into_any()
    }
    crate::split::page(self_test())
}

/// The self-test page: a start screen with past sessions, or the trial runner when the URL
/// names a session (`?kind=kiva&seed=42`), or its results when it is complete.
#[component]
pub fn SelfTest() -> impl IntoView {
    let query = use_query_map();
    let loaded = stimuli::LoadedStimuli::provide();
    let params = Memo::new(move |_| {
        let q = query.with(SessionQuery::from_query);
        (q.kind, q.seed)
    });
    view! {
        <section data-testid="page-self-test" class="selftest">
            {move || match params.get() {
                (Some(k), Some(s)) => {
                    match (SessionKind::parse(&k), s.trim().parse::<u64>()) {
                        (Ok(SessionKind::Stimuli), Ok(seed)) => {
                            let l = loaded.0.get().filter(|l| l.seed == seed);
                            match l {
                                Some(l) => view! {
                                    <Runner session=l.session.clone() urls=Some(l.urls.clone()) bank=None />
                                }
                                    .into_any(),
                                None => view! { <StimuliResume seed=seed /> }.into_any(),
                            }
                        }
                        (Ok(SessionKind::Adaptive), Ok(seed)) => {
                            view! { <AdaptiveRunner seed=seed /> }.into_any()
                        }
                        (Ok(kind), Ok(seed)) => {
                            view! { <Runner session=generate(&kind, seed) urls=None bank=None /> }.into_any()
                        }
                        (Err(e), _) => view! {
                            <ErrorPanel title="This session link is not valid" message=e />
                            <p><A href=href("/self-test")>"Start a new session"</A></p>
                        }
                            .into_any(),
                        (_, Err(_)) => view! {
                            <ErrorPanel
                                title="This session link is not valid"
                                message=format!("seed {s:?}: expected a whole number")
                            />
                            <p><A href=href("/self-test")>"Start a new session"</A></p>
                        }
                            .into_any(),
                    }
                }
                _ => view! { <Start /> }.into_any(),
            }}
        </section>
    }
}
