//! The start screen: choose a session kind, a seed and a participant id, or KiVA's own
//! images; the sessions kept in this browser below, to resume, see or delete.

use coglab_core::selftest::{generate, SessionKind};
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;

use super::stimuli;
use super::store::{self, Saved};
use super::url::session_href;
use crate::data::href;

/// The session kinds offered on the start screen, in URL spelling.
const KINDS: [&str; 9] = [
    "kiva",
    "adaptive",
    "kiva-adults",
    "short",
    "domain:Colour",
    "domain:Resize",
    "domain:2DRotation",
    "domain:Reflect",
    "domain:Counting",
];

/// The start screen: choose a session kind, seed and participant id; past sessions below.
#[component]
pub(super) fn Start() -> impl IntoView {
    let kind = RwSignal::new("kiva".to_string());
    let seed = RwSignal::new(((js_sys::Math::random() * 1_000_000.0) as u64).to_string());
    let participant = RwSignal::new("self".to_string());
    let saved = RwSignal::new(store::load_all());
    let navigate = use_navigate();
    let start_href = Memo::new(move |_| {
        let k = SessionKind::parse(&kind.get()).unwrap_or(SessionKind::Kiva);
        let s = seed.get().trim().parse::<u64>().unwrap_or(0);
        session_href(&k, s)
    });
    let seed_ok = Memo::new(move |_| seed.get().trim().parse::<u64>().is_ok());
    let on_start = move |_| {
        let k = SessionKind::parse(&kind.get_untracked()).unwrap_or(SessionKind::Kiva);
        let s = seed.get_untracked().trim().parse::<u64>().unwrap_or(0);
        store::ensure(&k, s, &participant.get_untracked());
    };
    view! {
        <h1>"Self-test: KiVA visual analogies"</h1>
        <p class="lede">
            "Each trial shows an object changing (before → after). Say what changed, how it \
             changed, then pick the picture where a new object changes the same way. Answer with \
             the number or letter keys, or click. There is no feedback until the end; your answers \
             stay in this browser."
        </p>
        <details class="card" data-testid="selftest-paper-prompts">
            <summary>"The paper's instructions (KiVA appendix A.2) and what differs here"</summary>
            <p>{coglab_core::selftest::paper_prompts::SYSTEM}</p>
            <p>{coglab_core::selftest::paper_prompts::INSTRUCTION}</p>
            <p data-testid="selftest-differences">{coglab_core::selftest::paper_prompts::DIFFERENCES}</p>
        </details>
        <form class="card selftest-start" on:submit=|ev| ev.prevent_default()>
            <label>
                "Session "
                <select
                    data-testid="kind"
                    prop:value=move || kind.get()
                    on:change=move |ev| kind.set(event_target_value(&ev))
                >
                    {KINDS
                        .iter()
                        .map(|k| {
                            let label = SessionKind::parse(k).map(|s| s.label()).unwrap_or_default();
                            view! { <option value=*k>{label}</option> }
                        })
                        .collect_view()}
                </select>
            </label>
            <label>
                "Seed "
                <input
                    data-testid="seed"
                    inputmode="numeric"
                    prop:value=move || seed.get()
                    on:input=move |ev| seed.set(event_target_value(&ev))
                    aria-describedby="seed-help"
                />
            </label>
            <label>
                "Participant id "
                <input
                    data-testid="participant"
                    prop:value=move || participant.get()
                    on:input=move |ev| participant.set(event_target_value(&ev))
                />
            </label>
            <p id="seed-help" class="hint">
                "The same kind and seed give the same trials: share the link to compare."
            </p>
            <Show
                when=move || seed_ok.get()
                fallback=|| view! { <p class="notice" role="alert">"The seed must be a whole number."</p> }
            >
                <A href=move || href(&start_href.get()) attr:class="button primary" attr:data-testid="start" on:click=on_start>
                    "Start"
                </A>
            </Show>
        </form>
        <stimuli::StimuliPicker
            seed=Signal::derive(move || seed.get().trim().parse::<u64>().unwrap_or(0))
            on_loaded=Callback::new(move |_| {
                let s = seed.get_untracked().trim().parse::<u64>().unwrap_or(0);
                store::ensure(&SessionKind::Stimuli, s, &participant.get_untracked());
                navigate(&session_href(&SessionKind::Stimuli, s), NavigateOptions::default());
            })
        />
        <h2>"Your sessions"</h2>
        <Show
            when=move || !saved.read().is_empty()
            fallback=|| view! { <p class="hint">"No sessions yet."</p> }
        >
            <ul class="selftest-sessions" data-testid="sessions">
                <For
                    each=move || saved.get()
                    key=|s: &Saved| (s.id.clone(), s.answered())
                    children=move |s: Saved| {
                        let id = s.id.clone();
                        let kind = SessionKind::parse(&s.kind).unwrap_or(SessionKind::Kiva);
                        // An adaptive session's length is known when it stops: its record
                        // says so ([`Saved::finished`]).
                        let total = generate(&kind, s.seed).trials.len();
                        let done = s.answered();
                        let finished = if kind == SessionKind::Adaptive {
                            s.finished
                        } else {
                            done >= total
                        };
                        let count = if kind == SessionKind::Adaptive {
                            format!("{done} trials")
                        } else {
                            format!("{done} of {total} trials")
                        };
                        let link = href(&session_href(&kind, s.seed));
                        view! {
                            <li>
                                <span>
                                    <strong>{kind.label()}</strong>
                                    {format!(" · seed {} · {} · {}", s.seed, s.participant, s.created)}
                                </span>
                                <span class="badge">{count}</span>
                                <A href=link>{if finished { "Results" } else { "Resume" }}</A>
                                <button
                                    type="button"
                                    class="link-button"
                                    data-testid="delete-session"
                                    on:click=move |_| {
                                        store::delete(&id);
                                        saved.set(store::load_all());
                                    }
                                >
                                    "Delete"
                                </button>
                            </li>
                        }
                    }
                />
            </ul>
        </Show>
    }
}
