//! The item on screen: question data, the model's answer, the judge's verdict, and the
//! reviewer's inputs (score buttons or per-hop R/D/K, a note). Keyboard: digits score, A takes
//! the judge's hop scores on the process set, ←/→ or J/K move; "advance after a key score"
//! (on by default, kept in this browser) moves to the next item after each.

use coglab_core::review::{ErrorType, HopScore, Judge, ReviewItem, ReviewRecord, SetKind};
use gloo_storage::{LocalStorage, Storage};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::state::ReviewState;

/// Sets one field of the record of `key` (created if absent) and saves.
fn edit(state: ReviewState, key: &str, f: impl FnOnce(&mut ReviewRecord)) {
    let key = key.to_string();
    state.update_review(move |r| {
        let rec = r
            .records
            .entry(key.clone())
            .or_insert_with(|| ReviewRecord::new(&key));
        f(rec);
    });
}

/// Where the "advance after a key score" choice is kept (localStorage).
const ADVANCE_KEY: &str = "coglab.review.advance";

/// The kept "advance after a key score" choice (on unless turned off). Kept as the plain
/// `"1"`/`"0"` the page has always written (`gloo-storage`'s typed `get` reads JSON, which
/// `"0"` also is).
fn load_advance() -> bool {
    LocalStorage::get::<u8>(ADVANCE_KEY).map_or(true, |v| v != 0)
}

fn typing_in_field(ev: &web_sys::KeyboardEvent) -> bool {
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"))
}

/// The current item with its editor, navigation and keyboard shortcuts.
#[component]
pub fn ItemPanel() -> impl IntoView {
    let state = expect_context::<ReviewState>();
    let position = Memo::new(move |_| state.review.with(|r| r.as_ref().map_or(0, |r| r.position)));
    let total = Memo::new(move |_| {
        state
            .review
            .with(|r| r.as_ref().map_or(0, |r| r.keys.len()))
    });
    let key = Memo::new(move |_| {
        state
            .review
            .with(|r| r.as_ref().and_then(|r| r.keys.get(r.position).cloned()))
    });
    let item = Memo::new(move |_| {
        let key = key.get()?;
        state
            .current
            .with(|s| s.as_ref().and_then(|s| s.item(&key).cloned()))
    });
    let kind = Memo::new(move |_| state.current.with(|s| s.as_ref().map(|s| s.kind)));
    let scored = Memo::new(move |_| {
        state.review.with(|r| {
            r.as_ref().map_or(0, |r| {
                r.keys
                    .iter()
                    .filter(|k| r.records.get(*k).is_some_and(ReviewRecord::is_scored))
                    .count()
            })
        })
    });

    // Score and advance (issue 26, defect 14): a key score moves on to the next item.
    let advance = RwSignal::new(load_advance());
    // Bumped when a key fills the editor's fields, so they show the new values.
    let body_version = RwSignal::new(0u32);
    let scored_by_key = move || {
        if advance.get_untracked() {
            state.step(1);
        }
    };
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.ctrl_key() || ev.meta_key() || ev.alt_key() || typing_in_field(&ev) {
            return;
        }
        let k = ev.key();
        match k.as_str() {
            "ArrowRight" | "j" | "J" => {
                ev.prevent_default();
                state.step(1);
            }
            "ArrowLeft" | "k" | "K" => {
                ev.prevent_default();
                state.step(-1);
            }
            d if d.len() == 1 && d.as_bytes()[0].is_ascii_digit() => {
                let digit = d.as_bytes()[0] - b'0';
                let Some(kind) = kind.get_untracked() else {
                    return;
                };
                if kind == SetKind::Process || digit > kind.max_score() {
                    return;
                }
                if let Some(key) = key.get_untracked() {
                    ev.prevent_default();
                    edit(state, &key, |rec| rec.score = Some(digit));
                    scored_by_key();
                }
            }
            "a" | "A" if kind.get_untracked() == Some(SetKind::Process) => {
                // The judge's R, D and K for every hop become yours (then edit where you
                // disagree).
                let (Some(key), Some(item)) = (key.get_untracked(), item.get_untracked()) else {
                    return;
                };
                let Judge::Process { hops, .. } = &item.judge else {
                    return;
                };
                ev.prevent_default();
                let scores: Vec<HopScore> = hops
                    .iter()
                    .map(|h| HopScore {
                        r: Some(h.r),
                        d: Some(h.d),
                        k: Some(u8::from(h.k >= 0.5)),
                    })
                    .collect();
                edit(state, &key, move |rec| rec.hops = scores);
                body_version.update(|v| *v += 1);
                scored_by_key();
            }
            _ => {}
        }
    });
    on_cleanup(move || handle.remove());

    let next_unscored = move |_| {
        let target = state.review.with_untracked(|r| {
            let r = r.as_ref()?;
            let n = r.keys.len();
            (1..=n).map(|d| (r.position + d) % n).find(|&i| {
                !r.records
                    .get(&r.keys[i])
                    .is_some_and(ReviewRecord::is_scored)
            })
        });
        if let Some(i) = target {
            state.go(i);
        }
    };

    view! {
        <article class="card review-item" data-testid="review-item" aria-live="polite">
            <nav class="review-nav" aria-label="Items">
                <button type="button" data-testid="prev" on:click=move |_| state.step(-1)
                    disabled=move || position.get() == 0>"← Previous"</button>
                <span class="review-pos" data-testid="review-pos">
                    {move || format!("Item {} of {}", position.get() + 1, total.get())}
                </span>
                <button type="button" data-testid="next" on:click=move |_| state.step(1)
                    disabled=move || { position.get() + 1 >= total.get() }>"Next →"</button>
                <button type="button" on:click=next_unscored>"Next unscored"</button>
                <span class="muted" data-testid="review-progress">
                    {move || format!("{} of {} scored", scored.get(), total.get())}
                </span>
                <label class="review-advance">
                    <input type="checkbox" data-testid="auto-advance" prop:checked=move || advance.get()
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            advance.set(on);
                            let _ = LocalStorage::set(ADVANCE_KEY, u8::from(on));
                        } />
                    " Advance after a key score"
                </label>
            </nav>
            <p class="muted review-keys">
                {move || match kind.get() {
                    Some(SetKind::Holistic) => "Keys: 0-4 score · ←/→ or J/K move",
                    Some(SetKind::Binary) => "Keys: 1 right, 0 wrong · ←/→ or J/K move",
                    _ => "Keys: A takes the judge's R / D / K for every hop (then edit where you disagree) · ←/→ or J/K move",
                }}
            </p>
            {move || { body_version.track(); match item.get() {
                None => view! { <p class="notice">"This item is not in the loaded files (was a file removed?)."</p> }.into_any(),
                Some(item) => view! { <ItemBody item=item /> }.into_any(),
            }}}
        </article>
    }
}

/// The question, the answer, the judge and the reviewer's editor for one item.
#[component]
fn ItemBody(
    /// The item shown.
    item: ReviewItem,
) -> impl IntoView {
    let state = expect_context::<ReviewState>();
    let key = item.key.clone();
    let record = {
        let key = key.clone();
        Memo::new(move |_| {
            state.review.with(|r| {
                r.as_ref()
                    .and_then(|r| r.records.get(&key).cloned())
                    .unwrap_or_else(|| ReviewRecord::new(&key))
            })
        })
    };
    let initial_note = record.get_untracked().note;
    let strata = item
        .strata
        .iter()
        .map(|(k, v)| view! { <span class="badge">{format!("{k}: {v}")}</span> })
        .collect_view();
    let context = item
        .context
        .iter()
        .map(|(label, text)| view! { <dt>{label.clone()}</dt><dd>{text.clone()}</dd> })
        .collect_view();
    let judge = match &item.judge {
        Judge::Holistic { score, reason } => view! {
            <p><strong>"Judge score: "</strong>
                <span data-testid="judge-score">{score.map_or("none (unusable verdict)".to_string(), |s| s.to_string())}</span></p>
            <p class="judge-reason">{reason.clone().unwrap_or_default()}</p>
        }
        .into_any(),
        Judge::Binary { correct, reason } => view! {
            <p><strong>"Scored: "</strong>
                <span data-testid="judge-score">{if *correct { "1 (right)" } else { "0 (wrong)" }}</span></p>
            <p class="judge-reason">{reason.clone()}</p>
        }
        .into_any(),
        Judge::Process { path, explanation, .. } => view! {
            <p><strong>"Path read by the judge: "</strong>{path.clone().unwrap_or_else(|| "none".into())}</p>
            <p class="judge-reason">{explanation.clone().unwrap_or_default()}</p>
        }
        .into_any(),
    };
    let editor = match &item.judge {
        Judge::Process { hops, .. } => {
            let rows = hops
                .iter()
                .enumerate()
                .map(|(h, hop)| {
                    let initial = record.get_untracked().hops.get(h).copied().unwrap_or_default();
                    let key_r = key.clone();
                    let key_d = key.clone();
                    let key_k = key.clone();
                    let unit = move |field: char, key: String| {
                        move |ev: leptos::ev::Event| {
                            let text = event_target_value(&ev);
                            let value = if text.trim().is_empty() {
                                Some(None)
                            } else {
                                text.trim().parse::<f64>().ok().filter(|v| (0.0..=1.0).contains(v)).map(Some)
                            };
                            let input: web_sys::HtmlInputElement = event_target(&ev);
                            let _ = input.set_attribute("aria-invalid", if value.is_none() { "true" } else { "false" });
                            if let Some(v) = value {
                                edit(state, &key, |rec| {
                                    if rec.hops.len() <= h {
                                        rec.hops.resize(h + 1, HopScore::default());
                                    }
                                    if field == 'r' { rec.hops[h].r = v } else { rec.hops[h].d = v }
                                });
                            }
                        }
                    };
                    let fmt = |v: Option<f64>| v.map(|v| format!("{v}")).unwrap_or_default();
                    let k_value = initial.k.map(|k| k.to_string()).unwrap_or_default();
                    view! {
                        <tr>
                            <th scope="row">{hop.name.clone()}</th>
                            <td class="num">{format!("{} / {} / {}", hop.r, hop.d, hop.k)}</td>
                            <td><input type="number" min="0" max="1" step="0.1" inputmode="decimal"
                                aria-label=format!("R for {}", hop.name) data-testid=format!("hop-{h}-r")
                                prop:value=fmt(initial.r) on:input=unit('r', key_r) /></td>
                            <td><input type="number" min="0" max="1" step="0.1" inputmode="decimal"
                                aria-label=format!("D for {}", hop.name) data-testid=format!("hop-{h}-d")
                                prop:value=fmt(initial.d) on:input=unit('d', key_d) /></td>
                            <td><select aria-label=format!("K for {}", hop.name) data-testid=format!("hop-{h}-k")
                                on:change=move |ev| {
                                    let v = event_target_value(&ev).parse::<u8>().ok();
                                    edit(state, &key_k, |rec| {
                                        if rec.hops.len() <= h {
                                            rec.hops.resize(h + 1, HopScore::default());
                                        }
                                        rec.hops[h].k = v;
                                    });
                                }>
                                <option value="" prop:selected=k_value.is_empty()>"–"</option>
                                <option value="0" prop:selected=k_value == "0">"0"</option>
                                <option value="1" prop:selected=k_value == "1">"1"</option>
                            </select></td>
                        </tr>
                    }
                })
                .collect_view();
            view! {
                <div class="table-scroll">
                    <table class="hops" data-testid="hops">
                        <caption>"Your scores per hop (R, D in [0, 1]; K 0 or 1)"</caption>
                        <thead><tr><th scope="col">"Hop"</th><th scope="col">"Judge R / D / K"</th>
                            <th scope="col">"R"</th><th scope="col">"D"</th><th scope="col">"K"</th></tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
                {hops.is_empty().then(|| view! { <p class="muted">"The judge scored no hop for this item; add a note."</p> })}
            }
            .into_any()
        }
        judge => {
            let max = if matches!(judge, Judge::Holistic { .. }) {
                4
            } else {
                1
            };
            let buttons = (0..=max)
                .map(|s: u8| {
                    let key = key.clone();
                    let pressed = move || record.with(|r| r.score == Some(s));
                    view! {
                        <button type="button" class="score" class:selected=pressed
                            aria-pressed=move || if pressed() { "true" } else { "false" }
                            data-testid=format!("score-{s}")
                            on:click=move |_| edit(state, &key, |rec| rec.score = Some(s))>{s.to_string()}</button>
                    }
                })
                .collect_view();
            let key_clear = key.clone();
            view! {
                <div class="score-row" role="group" aria-label="Your score">
                    <span>"Your score: "</span>{buttons}
                    <button type="button" class="link" on:click=move |_| edit(state, &key_clear, |rec| rec.score = None)>"clear"</button>
                </div>
            }
            .into_any()
        }
    };
    let key_note = key.clone();
    // Issue 23: the MM-IQ paper's error typology, for a right/wrong set (an MM-IQ answer).
    let key_error = key.clone();
    let typology = matches!(item.judge, Judge::Binary { .. }).then(|| {
        view! {
            <label class="field" title="The MM-IQ paper's error typology (§5.3, Figure 4), tallied per paradigm under Agreement">
                <span>"Error type"</span>
                <select data-testid="error-type"
                    prop:value=move || record.get().error_type.map_or("", ErrorType::name)
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        edit(state, &key_error, move |rec| rec.error_type = ErrorType::from_name(&v));
                    }>
                    <option value="">"(none)"</option>
                    {ErrorType::ALL.map(|t| view! { <option value=t.name()>{t.label()}</option> }).collect_view()}
                </select>
            </label>
        }
    });
    view! {
        <header class="item-head">
            <h2 data-testid="item-key">{format!("Item {}", item.key)}</h2>
            <div class="badges">{strata}</div>
        </header>
        <dl class="item-context">{context}</dl>
        <section class="item-answer">
            <h3>"Model's answer"</h3>
            <p class="answer" data-testid="answer">{item.answer.clone().unwrap_or_else(|| "(no answer file loaded for this item)".into())}</p>
        </section>
        <section class="item-judge">
            <h3>"Judge"</h3>
            {judge}
        </section>
        <section class="item-mine">
            <h3>"Your review"</h3>
            {editor}
            {typology}
            <label class="field note">
                <span>"Note"</span>
                <textarea rows="3" data-testid="note"
                    on:input=move |ev| {
                        let text = event_target_value(&ev);
                        edit(state, &key_note, move |rec| rec.note = text);
                    } prop:value=initial_note></textarea>
            </label>
        </section>
    }
}
