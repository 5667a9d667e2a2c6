//! The trial runner: one question at a time, answered by key or click, each answer timed from
//! the animation frame that drew the trial and saved as it is given; the results once the last
//! is answered.

use std::collections::BTreeMap;

use coglab_core::kiva::Stage;
use coglab_core::selftest::objects::render_svg;
use coglab_core::selftest::{Picture, Response, Session, SessionKind};
use leptos::prelude::*;
use leptos_router::components::A;

use super::{results, stimuli, store};
use crate::data::href;

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

/// Runs `f` at the first animation frame at which the trial's images are drawn.
fn when_drawn(f: impl FnOnce() + 'static) {
    request_animation_frame(move || {
        if images_drawn() {
            f();
        } else {
            when_drawn(f);
        }
    });
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

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Runs a session: one question at a time, answered by key or click, saved as given.
#[component]
pub(super) fn Runner(
    /// The session (generated, or built from KiVA's images).
    session: Session,
    /// Object URLs of the images by path, for a session of KiVA's images.
    urls: Option<BTreeMap<String, String>>,
) -> impl IntoView {
    let kind = session.kind.clone();
    let seed = session.seed;
    let session: StoredValue<Session> = StoredValue::new(session);
    let urls = StoredValue::new(urls.unwrap_or_default());
    let record = RwSignal::new(store::ensure(&kind, seed, "self"));
    let step = Memo::new(move |_| session.with_value(|s| s.next_step(&record.read().responses)));
    // Stimulus onset: the first animation frame after the question is drawn.
    let onset: RwSignal<Option<f64>> = RwSignal::new(None);
    Effect::new(move |_| {
        let now = step.get();
        if now.is_some() {
            onset.set(None);
            when_drawn(move || {
                if step.get_untracked() == now {
                    onset.set(Some(now_ms()));
                }
            });
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
                    >
                        <p class="kiva-progress" aria-live="polite">
                            {format!("Trial {} of {total} · question {n_stage} of 3", i + 1)}
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
                                                on:click=move |_| answer(k)
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
                                                    on:click=move |_| answer(k)
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
