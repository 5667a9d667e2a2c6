//! In-browser test of the self-test's resume policy (issue 41, item 4), each branch: sessions
//! saved in this browser are opened from the start page's list. An unfinished session within a
//! day resumes and says so; one older than a day (or saved before its start was recorded)
//! asks first, and its two answers work (resume: the next question; start again: the first
//! question with the answers gone); a finished one shows its results and says it is finished.
//! One app per test page (a file of its own).
#![cfg(target_arch = "wasm32")]

use coglab_core::kiva::Stage;
use coglab_core::selftest::{generate, Response, SessionKind, TrialResponses};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

mod support;
use support::{find as query, host};

const KEY: &str = "coglab.selftest.v1";
const DAY: f64 = 86_400_000.0;

async fn settle() {
    support::settle_after(60).await;
}

/// The first `n` trials of a KiVA session of `seed`, answered right at every stage.
fn answers(seed: u64, n: usize) -> Vec<TrialResponses> {
    let s = generate(&SessionKind::Kiva, seed);
    let right = |t: &coglab_core::selftest::Trial, st| {
        Some(Response {
            choice: t.correct(st),
            rt_ms: 1500.0,
            ..Default::default()
        })
    };
    s.trials[..n]
        .iter()
        .map(|t| TrialResponses {
            cross: right(t, Stage::Cross),
            within: right(t, Stage::Within),
            extrapolation: right(t, Stage::Extrapolation),
        })
        .collect()
}

fn session(seed: u64, answered: usize, started_ms: Option<f64>) -> serde_json::Value {
    let mut v = serde_json::json!({
        "id": format!("kiva|{seed}"), "kind": "kiva", "seed": seed, "participant": "p",
        "created": "earlier", "responses": answers(seed, answered),
    });
    if let Some(t) = started_ms {
        v["started_ms"] = t.into();
    }
    v
}

fn saved(seed: u64) -> serde_json::Value {
    let text = web_sys::window()
        .unwrap()
        .local_storage()
        .unwrap()
        .unwrap()
        .get_item(KEY)
        .unwrap()
        .unwrap();
    let all: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    all.into_iter()
        .find(|s| s["seed"] == seed)
        .expect("the session is saved")
}

/// Opens the session of `seed` from the start page's list.
async fn open(root: &web_sys::HtmlElement, seed: u64) {
    query(root, "a[href$='/self-test']").unwrap().click();
    settle().await;
    query(
        root,
        &format!("[data-testid=sessions] a[href$='seed={seed}']"),
    )
    .unwrap_or_else(|| panic!("session {seed} listed"))
    .click();
    settle().await;
}

fn trial_number(root: &web_sys::HtmlElement) -> Option<String> {
    query(root, "[data-testid=trial]").and_then(|t| t.get_attribute("data-trial"))
}

#[wasm_bindgen_test]
async fn each_resume_branch() {
    let storage = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    let now = js_sys::Date::now();
    let all = serde_json::json!([
        session(201, 5, Some(now - 3_600_000.0)),
        session(202, 5, Some(now - 3.0 * DAY)),
        session(203, 3, None),
        session(204, 14, Some(now - 30.0 * DAY)),
        session(205, 2, Some(now - 2.0 * DAY)),
    ]);
    storage.set_item(KEY, &all.to_string()).unwrap();
    let root = host();
    let _handle = leptos::mount::mount_to(root.clone(), coglab::App);
    settle().await;

    // Within a day: resumes at trial 6 and says so.
    open(&root, 201).await;
    let note = query(&root, "[data-testid=session-resumed]").expect("the resume is stated");
    assert!(note
        .text_content()
        .unwrap()
        .contains("5 of 14 trials answered"));
    assert_eq!(trial_number(&root).as_deref(), Some("6"));
    assert!(query(&root, "[data-testid=resume-offer]").is_none());

    // Three days old: asks first, with its age; no question until the choice. Resume: trial 6.
    open(&root, 202).await;
    let offer = query(&root, "[data-testid=resume-offer]").expect("the choice is offered");
    assert!(
        offer.text_content().unwrap().contains("3 days ago"),
        "{:?}",
        offer.text_content()
    );
    assert_eq!(trial_number(&root), None);
    query(&root, "[data-testid=resume]").unwrap().click();
    settle().await;
    assert_eq!(trial_number(&root).as_deref(), Some("6"));
    assert_eq!(saved(202)["responses"].as_array().unwrap().len(), 5);

    // Saved before its start was recorded: asks too.
    open(&root, 203).await;
    let offer = query(&root, "[data-testid=resume-offer]").expect("the choice is offered");
    assert!(offer.text_content().unwrap().contains("some time ago"));

    // Finished, a month old: its results, said to be finished, no question and no choice.
    open(&root, 204).await;
    assert!(query(&root, "[data-testid=session-finished]").is_some());
    assert_eq!(trial_number(&root), None);
    assert!(query(&root, "[data-testid=resume-offer]").is_none());

    // Two days old, start again: the first question, the answers discarded, started now.
    open(&root, 205).await;
    query(&root, "[data-testid=restart]")
        .expect("the choice")
        .click();
    settle().await;
    assert_eq!(trial_number(&root).as_deref(), Some("1"));
    let s = saved(205);
    assert_eq!(s["responses"].as_array().unwrap().len(), 0);
    assert!(js_sys::Date::now() - s["started_ms"].as_f64().unwrap() < 60_000.0);
    storage.remove_item(KEY).unwrap();
}
