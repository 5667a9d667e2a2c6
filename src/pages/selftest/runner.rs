//! The trial runner: one question at a time, answered by key or click, each answer timed from
//! the animation frame that drew the trial to the answering event's own timestamp and saved as
//! it is given, with the input used and any loss of focus or visibility meanwhile; the
//! session's environment (window, pixel ratio, refresh rate, browser) recorded once; the
//! results once the last is answered.

use std::collections::BTreeMap;

use coglab_core::kiva::Stage;
use coglab_core::selftest::adaptive::adaptive_session;
use coglab_core::selftest::bank::ItemBank;
use coglab_core::selftest::objects::render_svg;
use coglab_core::selftest::{
    adaptive_options, Environment, Input, Picture, Response, Resume, Session, SessionKind,
    MAX_RESUME_AGE_MS,
};
use leptos::prelude::*;
use leptos_router::components::A;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::store::Saved;
use super::{results, stimuli, store};
use crate::components::error_panel::ErrorPanel;
use crate::data::{fetch_text, href};

/// One picture of a trial: a drawing, or one of KiVA's images (an object URL).
#[derive(Clone)]
enum Pic {
    /// A generated picture, drawn as SVG.
    Drawn(Picture),
    /// An image URL.
    Image(String),
}

impl Pic {
    fn view(self, label: &'static str) -> AnyView {
        match self {
            Pic::Drawn(p) => {
                let svg = render_svg(&p, label);
                view! { <div class="kiva-pic" inner_html=svg></div> }.into_any()
            }
            Pic::Image(url) => view! {
                <div class="kiva-pic kiva-img"><img src=url alt=label /></div>
            }
            .into_any(),
        }
    }
}

/// The pictures of one transformation: before → after.
#[component]
fn Pair(
    /// Label before the pair, e.g. "(A)".
    #[prop(into)]
    label: String,
    /// The picture before.
    before: Pic,
    /// The picture after.
    after: Pic,
) -> impl IntoView {
    view! {
        <div class="kiva-pair">
            <span class="kiva-label">{label}</span>
            {before.view("before")}
            <span class="kiva-arrow" aria-hidden="true">"→"</span>
            {after.view("after")}
        </div>
    }
}

/// Whether every image of the trial on screen has loaded.
fn images_drawn() -> bool {
    let Some(list) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector_all(".kiva-trial img").ok())
    else {
        return true;
    };
    (0..list.length()).filter_map(|i| list.get(i)).all(|n| {
        js_sys::Reflect::get(&n, &"complete".into())
            .ok()
            .and_then(|v| v.as_bool())
            .unwrap_or(true)
    })
}

/// Calls `f` with the timestamp of the next animation frame (the time the frame's rendering
/// began, on the clock of `performance.now()` and of events' `timeStamp`).
fn next_frame(f: impl FnOnce(f64) + 'static) {
    let cb = Closure::once_into_js(f);
    if let Some(w) = web_sys::window() {
        let _ = w.request_animation_frame(cb.unchecked_ref());
    }
}

/// Runs `f` with the timestamp of the first animation frame at which the trial's images are
/// drawn: the stimulus onset.
fn when_drawn(f: impl FnOnce(f64) + 'static) {
    next_frame(move |t| {
        if images_drawn() {
            f(t);
        } else {
            when_drawn(f);
        }
    });
}

/// The session's environment: window size, pixel ratio, user agent and pointer now, and the
/// refresh rate from the timestamps of the next 61 animation frames, given to `done`.
fn measure_environment(done: impl FnOnce(Environment) + 'static) {
    let Some(w) = web_sys::window() else { return };
    let px = |v: Result<JsValue, JsValue>| v.ok().and_then(|v| v.as_f64()).unwrap_or(0.0) as u32;
    let matches = |q: &str| w.match_media(q).ok().flatten().is_some_and(|m| m.matches());
    let env = Environment {
        width: px(w.inner_width()),
        height: px(w.inner_height()),
        pixel_ratio: w.device_pixel_ratio(),
        refresh_hz: None,
        user_agent: w.navigator().user_agent().unwrap_or_default(),
        pointer: if matches("(pointer: fine)") {
            "fine"
        } else if matches("(pointer: coarse)") {
            "coarse"
        } else {
            "none"
        }
        .into(),
    };
    fn frames(mut got: Vec<f64>, env: Environment, done: impl FnOnce(Environment) + 'static) {
        next_frame(move |t| {
            got.push(t);
            if got.len() < 61 {
                frames(got, env, done);
            } else {
                done(Environment {
                    refresh_hz: Environment::refresh_rate(&got),
                    ..env
                });
            }
        });
    }
    frames(Vec::with_capacity(61), env, done);
}

/// An age in words: "2 days ago", "30 hours ago".
fn age_text(ms: f64) -> String {
    let hours = (ms / 3_600_000.0).floor() as i64;
    if hours >= 48 {
        format!("{} days ago", hours / 24)
    } else {
        format!("{hours} hours ago")
    }
}

/// Losses of focus or visibility since the trial's onset: how many, how long, and since when
/// the page has been away (if it is).
#[derive(Debug, Clone, Copy, Default)]
struct Away {
    count: u32,
    ms: f64,
    since: Option<f64>,
}

impl Away {
    fn leave(&mut self, t: f64) {
        if self.since.is_none() {
            self.count += 1;
            self.since = Some(t);
        }
    }

    fn back(&mut self, t: f64) {
        if let Some(s) = self.since.take() {
            self.ms += (t - s).max(0.0);
        }
    }
}

/// A session of KiVA's images whose folder is not loaded (e.g. after a reload): the answers
/// are kept; picking the folder again resumes it.
#[component]
pub(super) fn StimuliResume(
    /// The session's seed.
    seed: u64,
) -> impl IntoView {
    let saved = store::load_all()
        .into_iter()
        .find(|s| s.id == format!("{}|{seed}", SessionKind::Stimuli.as_str()))
        .map_or(0, |s| s.answered());
    view! {
        <h1>"Self-test: " {SessionKind::Stimuli.label()}</h1>
        <p class="notice" data-testid="stimuli-needed">
            {format!(
                "This session shows KiVA's images from your disk. Pick the folder and trial files \
                 again to continue ({saved} of 14 trials answered are kept)."
            )}
        </p>
        <stimuli::StimuliPicker seed=Signal::stored(seed) on_loaded=Callback::new(|_| {}) />
        <p><A href=href("/self-test")>"All sessions"</A></p>
    }
}

/// The KiVA item bank the adaptive form and the ability scale use (`data/kiva-bank.json`).
pub(super) async fn load_bank() -> Result<ItemBank, String> {
    let text = fetch_text("data/kiva-bank.json").await?;
    ItemBank::from_json(&text).map_err(|e| format!("data/kiva-bank.json: {e}"))
}

/// An adaptive session (issue 41): the item bank loaded, the trials so far rebuilt from the
/// seed and the saved answers ([`adaptive_session`]), then the runner, which asks for the next
/// trial after each one.
#[component]
pub(super) fn AdaptiveRunner(
    /// The session's seed.
    seed: u64,
) -> impl IntoView {
    let bank = LocalResource::new(load_bank);
    move || {
        bank.get().map(|b| {
            let built = b.and_then(|bank| {
                let saved = store::ensure(&SessionKind::Adaptive, seed, "self");
                adaptive_session(&bank, adaptive_options(), seed, &saved.responses)
                    .map(|(session, _)| (session, bank))
                    .map_err(|e| e.to_string())
            });
            match built {
                Ok((session, bank)) => {
                    view! { <Runner session=session urls=None bank=Some(bank) /> }.into_any()
                }
                Err(e) => view! {
                    <ErrorPanel title="Could not start the adaptive session" message=e />
                    <p><A href=href("/self-test")>"All sessions"</A></p>
                }
                .into_any(),
            }
        })
    }
}

/// Runs a session: one question at a time, answered by key or click, saved as given.
#[component]
pub(super) fn Runner(
    /// The session (generated, or built from KiVA's images; an adaptive session's trials so
    /// far and the next one).
    session: Session,
    /// Object URLs of the images by path, for a session of KiVA's images.
    urls: Option<BTreeMap<String, String>>,
    /// The item bank, for an adaptive session: after each trial the runner asks the form for
    /// the next one.
    bank: Option<ItemBank>,
) -> impl IntoView {
    let bank = StoredValue::new(bank);
    let kind = session.kind.clone();
    let seed = session.seed;
    let session: StoredValue<Session> = StoredValue::new(session);
    let urls = StoredValue::new(urls.unwrap_or_default());
    let record = RwSignal::new(store::ensure(&kind, seed, "self"));
    if record.with_untracked(|r| r.environment.is_none()) {
        measure_environment(move |env| {
            let Some(mut rec) = record.try_get_untracked() else {
                return;
            };
            rec.environment = Some(env);
            store::save(&rec);
            record.set(rec);
        });
    }
    // The resume policy, decided once when the session is opened (issue 41, item 4).
    let total = session.with_value(|s| s.trials.len());
    let adaptive = kind == SessionKind::Adaptive;
    let policy = record.with_untracked(|r| {
        let any = r.responses.iter().any(|t| t.cross.is_some());
        let done = session.with_value(|s| s.next_step(&r.responses)).is_none();
        let answered = r.answered();
        Resume::of(
            any,
            answered,
            if done { answered } else { answered + 1 },
            r.started_ms,
            js_sys::Date::now(),
            MAX_RESUME_AGE_MS,
        )
    });
    // The adaptive form's error, should the saved answers not be the trials it asks.
    let failed = RwSignal::new(None::<String>);
    // Until the participant chooses, an old unfinished session shows the choice, not a trial.
    let choosing = RwSignal::new(matches!(policy, Resume::Offer { .. }));
    let step = Memo::new(move |_| {
        if choosing.get() {
            return None;
        }
        session.with_value(|s| s.next_step(&record.read().responses))
    });
    // Stimulus onset: the timestamp of the first animation frame that drew the question.
    let onset: RwSignal<Option<f64>> = RwSignal::new(None);
    let away = StoredValue::new(Away::default());
    Effect::new(move |_| {
        let now = step.get();
        if now.is_some() {
            onset.set(None);
            when_drawn(move |t| {
                if step.get_untracked() == now {
                    away.set_value(Away::default());
                    onset.set(Some(t));
                }
            });
        }
    });
    // Losses of attention while a question is shown (jsPsych's browser interactions).
    let leave = move |t: f64| {
        if onset.get_untracked().is_some() {
            away.update_value(|a| a.leave(t));
        }
    };
    let back = move |t: f64| away.update_value(|a| a.back(t));
    let blur = window_event_listener(leptos::ev::blur, move |ev| leave(ev.time_stamp()));
    let focus = window_event_listener(leptos::ev::focus, move |ev| back(ev.time_stamp()));
    // Removed when dropped, with the runner's owner.
    let _visibility = StoredValue::new_local(gloo_events::EventListener::new(
        &document(),
        "visibilitychange",
        move |ev| {
            if document().hidden() {
                leave(ev.time_stamp());
            } else {
                back(ev.time_stamp());
            }
        },
    ));
    // `at`: the answering event's own timestamp, not the time its handler ran.
    let answer = move |choice: usize, at: f64, input: Input| {
        let Some((i, stage)) = step.get_untracked() else {
            return;
        };
        let Some(t0) = onset.get_untracked() else {
            return;
        };
        onset.set(None);
        let mut a = away.get_value();
        a.back(at);
        let response = Response {
            choice,
            rt_ms: (at - t0).max(0.0),
            input,
            interruptions: a.count,
            away_ms: a.ms,
        };
        let mut rec = record.get_untracked();
        let ok = session.with_value(|s| s.answer(&mut rec.responses, i, stage, response));
        if ok.is_err() {
            return;
        }
        // A trial done in an adaptive session: the form names the next one, or stops.
        let trial_done = rec
            .responses
            .get(i)
            .is_some_and(|r| r.extrapolation.is_some());
        if trial_done {
            if let Some(b) = bank.get_value() {
                match adaptive_session(&b, adaptive_options(), seed, &rec.responses) {
                    Ok((next, _)) => session.set_value(next),
                    Err(e) => failed.set(Some(e.to_string())),
                }
            }
        }
        rec.finished = session
            .with_value(|s| s.next_step(&rec.responses))
            .is_none();
        store::save(&rec);
        record.set(rec);
    };
    let click = move |k: usize, ev: web_sys::MouseEvent| {
        let kind = ev
            .dyn_ref::<web_sys::PointerEvent>()
            .map(|p| p.pointer_type())
            .unwrap_or_default();
        answer(k, ev.time_stamp(), Input::of_pointer(&kind));
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
            answer(c, ev.time_stamp(), Input::Key);
        }
    });
    on_cleanup(move || {
        handle.remove();
        blur.remove();
        focus.remove();
    });
    let kind_label = kind.label();
    let answered = move || record.with(Saved::answered);
    // "5 of 14 trials"; an adaptive session's length is not known before it stops.
    let trials_text = move |n: usize| {
        if adaptive {
            format!("{n} trials")
        } else {
            format!("{n} of {total} trials")
        }
    };
    let restart = move |_| {
        let fresh = store::restart(&record.get_untracked());
        record.set(fresh);
        choosing.set(false);
    };
    view! {
        <h1>"Self-test: " {kind_label}</h1>
        {match policy {
            Resume::Continue => Some(view! {
                <p class="notice" data-testid="session-resumed">
                    {format!(
                        "Resuming this session where you left off: {} answered. Unfinished \
                         sessions resume for a day; after that you are asked first.",
                        trials_text(answered())
                    )}
                </p>
            }.into_any()),
            Resume::Finished => Some(view! {
                <p class="notice" data-testid="session-finished">
                    "This session is finished: its results are below, and its answers cannot be \
                     changed. To take the test again, start a new session."
                </p>
            }.into_any()),
            _ => None,
        }}
        {move || match (choosing.get(), policy) {
            (true, Resume::Offer { age_ms }) => Some(view! {
                <section class="notice resume-offer" data-testid="resume-offer" aria-labelledby="resume-title">
                    <h2 id="resume-title">"Resume or start again?"</h2>
                    <p>{format!(
                        "You started this session {} and answered {}. Sessions left unfinished \
                         for more than a day are not resumed without asking: a long pause \
                         changes what the remaining answers measure.",
                        age_ms.map_or_else(|| "some time ago".to_string(), age_text),
                        trials_text(answered())
                    )}</p>
                    <button type="button" class="button primary" data-testid="resume" on:click=move |_| choosing.set(false)>
                        "Resume where I left off"
                    </button>
                    " "
                    <button type="button" class="button" data-testid="restart" on:click=restart>
                        "Start again (discard these answers)"
                    </button>
                </section>
            }),
            _ => None,
        }}
        {move || failed.get().map(|e| view! { <ErrorPanel title="The adaptive form stopped" message=e /> })}
        {move || match step.get() {
            None if choosing.get() => ().into_any(),
            None => view! {
                <results::Results session=session.get_value() record=record.get() />
            }
                .into_any(),
            Some((i, stage)) => {
                let t = session.with_value(|s| s.trials[i].clone());
                let pic = |p: &Picture, img: Option<&String>| match img {
                    Some(path) => Pic::Image(urls.with_value(|u| u.get(path).cloned().unwrap_or_default())),
                    None => Pic::Drawn(p.clone()),
                };
                let imgs = t.images.clone();
                let before = pic(&t.train_input, imgs.as_ref().map(|m| &m.train_input));
                let after = pic(&t.train_output, imgs.as_ref().map(|m| &m.train_output));
                let test_before = pic(&t.test_input, imgs.as_ref().map(|m| &m.test_input));
                let test_after: Vec<Pic> = t
                    .test_options
                    .iter()
                    .enumerate()
                    .map(|(k, p)| pic(p, imgs.as_ref().and_then(|m| m.test_options.get(k))))
                    .collect();
                // The paper's own question texts (KiVA appendix A.2), not paraphrases.
                let n_stage = match stage {
                    Stage::Cross => 1,
                    Stage::Within => 2,
                    Stage::Extrapolation => 3,
                };
                let question = coglab_core::selftest::paper_prompts::question(stage);
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
                        data-onset=move || onset.get().map(|t| t.to_string())
                    >
                        <p class="kiva-progress" aria-live="polite">
                            {if adaptive {
                                format!(
                                    "Trial {} · question {n_stage} of 3 · the session ends once \
                                     your ability is measured precisely (at most 20 trials)",
                                    i + 1
                                )
                            } else {
                                format!("Trial {} of {total} · question {n_stage} of 3", i + 1)
                            }}
                        </p>
                        <div class="kiva-given" aria-label="Given change">
                            <Pair label="" before=before after=after />
                        </div>
                        <h2 class="kiva-question" id="kiva-question">{question}</h2>
                        // On phones the new object is shown once here and each answer shows
                        // only its result (style/selftest.css); on wider screens each answer is
                        // the whole pair.
                        {(stage == Stage::Extrapolation).then(|| view! {
                            <div class="kiva-test-input" aria-hidden="true">
                                <span class="hint">"New object:"</span>
                                {test_before.clone().view("new object")}
                            </div>
                        })}
                        // Stage 3: the pictures themselves are the answers (A)-(C); (D) is the
                        // one text button. Stages 1 and 2: text options.
                        <div class="kiva-options" class:kiva-picks=stage == Stage::Extrapolation
                            role="group" aria-labelledby="kiva-question">
                            {options
                                .into_iter()
                                .enumerate()
                                .map(|(k, text)| {
                                    let key = keys[k].clone();
                                    match (stage, test_after.get(k)) {
                                        (Stage::Extrapolation, Some(p)) => view! {
                                            <button
                                                type="button"
                                                class="kiva-option kiva-pick"
                                                data-testid="option"
                                                aria-keyshortcuts=key.clone()
                                                aria-label=format!("Answer ({key})")
                                                on:click=move |ev| click(k, ev)
                                            >
                                                <Pair
                                                    label=format!("({key})")
                                                    before=test_before.clone()
                                                    after=p.clone()
                                                />
                                            </button>
                                        }
                                        .into_any(),
                                        _ => {
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
                                                    on:click=move |ev| click(k, ev)
                                                >
                                                    {shown}
                                                </button>
                                            }
                                            .into_any()
                                        }
                                    }
                                })
                                .collect_view()}
                        </div>
                        <p class="hint">
                            {match stage {
                                Stage::Extrapolation => {
                                    "Click a picture, or press A–C; D: none of these.".to_string()
                                }
                                _ => format!("Keys 1–{} answer.", keys.len()),
                            }}
                            " Progress is saved after every answer."
                        </p>
                    </div>
                }
                    .into_any()
            }
        }}
        <p><A href=href("/self-test")>"All sessions"</A></p>
    }
}
