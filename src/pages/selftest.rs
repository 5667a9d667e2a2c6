//! Self-test (KiVA): take visual-analogy trials in three stages (what changed, how, apply it)
//! and compare with adults and models. Trials come from `coglab_core::selftest::generate`
//! (seeded: the kind and seed are in the URL); every answer is saved to localStorage as it is
//! given, so a reload resumes at the same question; results and exports come from the core.

mod results;
mod store;

use coglab_core::kiva::Stage;
use coglab_core::selftest::objects::render_svg;
use coglab_core::selftest::{generate, Picture, Response, Session, SessionKind};
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_query_map;

use crate::components::error_panel::ErrorPanel;
use store::Saved;

/// The session kinds offered on the start screen, in URL spelling.
const KINDS: [&str; 8] = [
    "kiva",
    "kiva-adults",
    "short",
    "domain:Colour",
    "domain:Resize",
    "domain:2DRotation",
    "domain:Reflect",
    "domain:Counting",
];

/// The link that opens a session.
pub(crate) fn session_href(kind: &SessionKind, seed: u64) -> String {
    format!("/self-test?kind={}&seed={seed}", kind.as_str())
}

/// The self-test page: a start screen with past sessions, or the trial runner when the URL
/// names a session (`?kind=kiva&seed=42`), or its results when it is complete.
#[component]
pub fn SelfTest() -> impl IntoView {
    let query = use_query_map();
    let params = Memo::new(move |_| {
        let q = query.read();
        (q.get("kind"), q.get("seed"))
    });
    view! {
        <section data-testid="page-self-test" class="selftest">
            {move || match params.get() {
                (Some(k), Some(s)) => {
                    match (SessionKind::parse(&k), s.trim().parse::<u64>()) {
                        (Ok(kind), Ok(seed)) => view! { <Runner kind=kind seed=seed /> }.into_any(),
                        (Err(e), _) => view! {
                            <ErrorPanel title="This session link is not valid" message=e />
                            <p><A href="/self-test">"Start a new session"</A></p>
                        }
                            .into_any(),
                        (_, Err(_)) => view! {
                            <ErrorPanel
                                title="This session link is not valid"
                                message=format!("seed {s:?}: expected a whole number")
                            />
                            <p><A href="/self-test">"Start a new session"</A></p>
                        }
                            .into_any(),
                    }
                }
                _ => view! { <Start /> }.into_any(),
            }}
        </section>
    }
}

/// The start screen: choose a session kind, seed and participant id; past sessions below.
#[component]
fn Start() -> impl IntoView {
    let kind = RwSignal::new("kiva".to_string());
    let seed = RwSignal::new(((js_sys::Math::random() * 1_000_000.0) as u64).to_string());
    let participant = RwSignal::new("self".to_string());
    let saved = RwSignal::new(store::load_all());
    let href = Memo::new(move |_| {
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
                <A href=move || href.get() attr:class="button primary" attr:data-testid="start" on:click=on_start>
                    "Start"
                </A>
            </Show>
        </form>
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
                        let total = generate(&kind, s.seed).trials.len();
                        let done = s.answered();
                        let href = session_href(&kind, s.seed);
                        view! {
                            <li>
                                <span>
                                    <strong>{kind.label()}</strong>
                                    {format!(" · seed {} · {} · {}", s.seed, s.participant, s.created)}
                                </span>
                                <span class="badge">{format!("{done} of {total} trials")}</span>
                                <A href=href>{if done >= total { "Results" } else { "Resume" }}</A>
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

/// The pictures of one transformation: before → after.
#[component]
fn Pair(
    /// Label before the pair, e.g. "(A)".
    #[prop(into)]
    label: String,
    /// The picture before.
    before: Picture,
    /// The picture after (`None`: a question mark).
    after: Option<Picture>,
) -> impl IntoView {
    let b = render_svg(&before, "before");
    let a = after.map(|p| render_svg(&p, "after"));
    view! {
        <div class="kiva-pair">
            <span class="kiva-label">{label}</span>
            <div class="kiva-pic" inner_html=b></div>
            <span class="kiva-arrow" aria-hidden="true">"→"</span>
            {match a {
                Some(a) => view! { <div class="kiva-pic" inner_html=a></div> }.into_any(),
                None => view! { <div class="kiva-pic kiva-unknown">"?"</div> }.into_any(),
            }}
        </div>
    }
}

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Runs a session: one question at a time, answered by key or click, saved as given.
#[component]
fn Runner(
    /// The session kind.
    kind: SessionKind,
    /// The seed.
    seed: u64,
) -> impl IntoView {
    let session: StoredValue<Session> = StoredValue::new(generate(&kind, seed));
    let record = RwSignal::new(store::ensure(&kind, seed, "self"));
    let step = Memo::new(move |_| session.with_value(|s| s.next_step(&record.read().responses)));
    // Stimulus onset: the first animation frame after the question is drawn.
    let onset: RwSignal<Option<f64>> = RwSignal::new(None);
    Effect::new(move |_| {
        if step.get().is_some() {
            onset.set(None);
            request_animation_frame(move || onset.set(Some(now_ms())));
        }
    });
    let answer = move |choice: usize| {
        let Some((i, stage)) = step.get_untracked() else {
            return;
        };
        let Some(t0) = onset.get_untracked() else {
            return;
        };
        onset.set(None);
        let rt = (now_ms() - t0).max(0.0);
        let mut rec = record.get_untracked();
        let ok = session
            .with_value(|s| s.answer(&mut rec.responses, i, stage, Response { choice, rt_ms: rt }));
        if ok.is_ok() {
            store::save(&rec);
            record.set(rec);
        }
    };
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
            return;
        }
        let Some((i, stage)) = step.get_untracked() else {
            return;
        };
        let n = session.with_value(|s| s.trials[i].options(stage).len());
        let key = ev.key().to_ascii_lowercase();
        let choice = match (stage, key.as_str()) {
            (Stage::Extrapolation, k) if k.len() == 1 => {
                let c = k.as_bytes()[0];
                (b'a'..=b'd').contains(&c).then(|| (c - b'a') as usize)
            }
            (_, k) if k.len() == 1 => {
                let c = k.as_bytes()[0];
                (b'1'..=b'9').contains(&c).then(|| (c - b'1') as usize)
            }
            _ => None,
        };
        if let Some(c) = choice.filter(|c| *c < n) {
            ev.prevent_default();
            answer(c);
        }
    });
    on_cleanup(move || handle.remove());
    let total = session.with_value(|s| s.trials.len());
    let kind_label = kind.label();
    view! {
        <h1>"Self-test: " {kind_label}</h1>
        {move || match step.get() {
            None => view! {
                <results::Results session=session.get_value() record=record.get() />
            }
                .into_any(),
            Some((i, stage)) => {
                let t = session.with_value(|s| s.trials[i].clone());
                let (n_stage, question) = match stage {
                    Stage::Cross => (1, "What changed between the two pictures on top?"),
                    Stage::Within => (2, "How did it change?"),
                    Stage::Extrapolation => (
                        3,
                        "Which new picture changes the same way as the pictures on top?",
                    ),
                };
                let options = t.options(stage);
                let keys: Vec<String> = (0..options.len())
                    .map(|k| match stage {
                        Stage::Extrapolation => ((b'A' + k as u8) as char).to_string(),
                        _ => (k + 1).to_string(),
                    })
                    .collect();
                view! {
                    <div
                        class="kiva-trial"
                        data-testid="trial"
                        data-stage=n_stage
                        data-trial=i + 1
                        data-subdomain=t.subdomain.clone()
                        data-ready=move || onset.get().is_some().to_string()
                    >
                        <p class="kiva-progress" aria-live="polite">
                            {format!("Trial {} of {total} · question {n_stage} of 3", i + 1)}
                        </p>
                        <div class="kiva-given" aria-label="Given change">
                            <Pair label="" before=t.train_input.clone() after=Some(t.train_output.clone()) />
                        </div>
                        {(stage == Stage::Extrapolation)
                            .then(|| {
                                view! {
                                    <div class="kiva-tests">
                                        {t
                                            .test_options
                                            .iter()
                                            .enumerate()
                                            .map(|(k, p)| {
                                                view! {
                                                    <Pair
                                                        label=format!("({})", (b'A' + k as u8) as char)
                                                        before=t.test_input.clone()
                                                        after=Some(p.clone())
                                                    />
                                                }
                                            })
                                            .collect_view()}
                                    </div>
                                }
                            })}
                        <h2 class="kiva-question" id="kiva-question">{question}</h2>
                        <div class="kiva-options" role="group" aria-labelledby="kiva-question">
                            {options
                                .into_iter()
                                .enumerate()
                                .map(|(k, text)| {
                                    let key = keys[k].clone();
                                    let shown = if stage == Stage::Extrapolation {
                                        text
                                    } else {
                                        format!("({key}) {text}")
                                    };
                                    view! {
                                        <button
                                            type="button"
                                            class="kiva-option"
                                            data-testid="option"
                                            aria-keyshortcuts=key.clone()
                                            on:click=move |_| answer(k)
                                        >
                                            {shown}
                                        </button>
                                    }
                                })
                                .collect_view()}
                        </div>
                        <p class="hint">
                            {match stage {
                                Stage::Extrapolation => "Keys A–D answer.".to_string(),
                                _ => format!("Keys 1–{} answer.", keys.len()),
                            }}
                            " Progress is saved after every answer."
                        </p>
                    </div>
                }
                    .into_any()
            }
        }}
        <p><A href="/self-test">"All sessions"</A></p>
    }
}
