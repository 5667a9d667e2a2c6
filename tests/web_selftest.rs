//! In-browser tests of the KiVA self-test page: start a session from the form, answer by
//! click, and check that each answer is saved to localStorage at once (so a reload resumes).
#![cfg(target_arch = "wasm32")]

use coglab_core::kiva::Stage;
use coglab_core::selftest::{generate, SessionKind};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

mod support;
use support::{find as query, host};

async fn settle() {
    support::settle_after(60).await;
}

fn saved() -> serde_json::Value {
    let text = web_sys::window()
        .unwrap()
        .local_storage()
        .unwrap()
        .unwrap()
        .get_item("coglab.selftest.v1")
        .unwrap()
        .unwrap_or_else(|| "[]".into());
    serde_json::from_str(&text).unwrap()
}

#[wasm_bindgen_test]
async fn start_answer_and_save_each_answer() {
    let storage = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    storage.remove_item("coglab.selftest.v1").unwrap();
    let root = host();
    let _handle = leptos::mount::mount_to(root.clone(), coglab::App);
    settle().await;
    let link: web_sys::HtmlElement = query(&root, "a[href$='/self-test']").unwrap();
    link.click();
    settle().await;
    let seed: web_sys::HtmlInputElement =
        query(&root, "[data-testid=seed]").unwrap().unchecked_into();
    seed.set_value("31");
    seed.dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    settle().await;
    query(&root, "[data-testid=start]")
        .expect("start link")
        .click();
    settle().await;
    let trial = query(&root, "[data-testid=trial]").expect("a trial is shown");
    assert_eq!(trial.get_attribute("data-stage").as_deref(), Some("1"));
    assert_eq!(trial.get_attribute("data-ready").as_deref(), Some("true"));
    let session = generate(&SessionKind::Kiva, 31);
    let first = &session.trials[0];
    assert_eq!(
        trial.get_attribute("data-subdomain").as_deref(),
        Some(first.subdomain.as_str())
    );
    let options = root.query_selector_all("[data-testid=option]").unwrap();
    assert_eq!(options.length(), 5);
    // Click the right stage-1 option: it is saved at once and stage 2 follows.
    let right = first.correct(Stage::Cross);
    options
        .item(right as u32)
        .unwrap()
        .unchecked_into::<web_sys::HtmlElement>()
        .click();
    settle().await;
    let s = saved();
    let rec = &s[0];
    assert_eq!(rec["id"], "kiva|31");
    assert_eq!(rec["responses"][0]["cross"]["choice"], right);
    assert!(rec["responses"][0]["cross"]["rt_ms"].as_f64().unwrap() >= 0.0);
    assert!(rec["responses"][0]["within"].is_null());
    let trial = query(&root, "[data-testid=trial]").unwrap();
    assert_eq!(trial.get_attribute("data-stage").as_deref(), Some("2"));
    assert_eq!(
        root.query_selector_all("[data-testid=option]")
            .unwrap()
            .length(),
        4
    );
    storage.remove_item("coglab.selftest.v1").unwrap();
}
