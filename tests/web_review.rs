//! In-browser tests of the review page's persistence: the IndexedDB store (files by area,
//! key-value records, forget) in a real Chromium.
#![cfg(target_arch = "wasm32")]

use coglab::store::{self, StoredFile};
use coglab_core::review::records::SetReview;
use coglab_core::review::{build_sets, ReviewRecord, Workspace};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

mod support;
use support::el as query;

fn file(name: &str, model: Option<&str>, bytes: &[u8]) -> StoredFile {
    StoredFile {
        name: name.to_string(),
        model: model.map(str::to_string),
        bytes: bytes.to_vec(),
    }
}

/// One test: `forget_all` would race with a concurrently running test.
#[wasm_bindgen_test]
async fn store_round_trips_then_review_page_restores_the_workspace() {
    store_round_trips().await;
    review_page_restores_and_saves().await;
}

async fn store_round_trips() {
    store::clear_area("t-a").await.unwrap();
    store::clear_area("t-b").await.unwrap();
    store::put_files(
        "t-a",
        vec![
            file("b.jsonl", Some("GPT-4o"), b"{\"x\":1}\n"),
            file("a.json", None, &[0, 255, 10]),
        ],
    )
    .await
    .unwrap();
    store::put_files("t-b", vec![file("a.json", None, b"other area")])
        .await
        .unwrap();
    // Same name in the same area replaces.
    store::put_files("t-a", vec![file("b.jsonl", None, b"new")])
        .await
        .unwrap();
    let got = store::get_files("t-a").await.unwrap();
    assert_eq!(
        got,
        vec![
            file("a.json", None, &[0, 255, 10]),
            file("b.jsonl", None, b"new")
        ]
    );
    // An area whose name is a prefix of another's does not see its files.
    store::put_files("t-", vec![file("z", None, b"z")])
        .await
        .unwrap();
    assert_eq!(store::get_files("t-").await.unwrap().len(), 1);
    store::delete_file("t-a", "a.json").await.unwrap();
    assert_eq!(store::get_files("t-a").await.unwrap().len(), 1);
    store::clear_area("t-a").await.unwrap();
    assert!(store::get_files("t-a").await.unwrap().is_empty());
    assert_eq!(
        store::get_files("t-b").await.unwrap(),
        vec![file("a.json", None, b"other area")]
    );
    store::clear_area("t-b").await.unwrap();
    store::clear_area("t-").await.unwrap();

    // Records round trip; forget_all clears files and records. (One test: forget_all would
    // race with a concurrently running test.)
    store::put_kv("t-key", "{\"pos\":3}").await.unwrap();
    assert_eq!(
        store::get_kv("t-key").await.unwrap().as_deref(),
        Some("{\"pos\":3}")
    );
    store::put_kv("t-key", "second").await.unwrap();
    assert_eq!(
        store::get_kv("t-key").await.unwrap().as_deref(),
        Some("second")
    );
    assert_eq!(store::get_kv("t-missing").await.unwrap(), None);
    store::delete_kv("t-key").await.unwrap();
    assert_eq!(store::get_kv("t-key").await.unwrap(), None);

    store::put_kv("t-key2", "x").await.unwrap();
    store::put_files("t-f", vec![file("f", None, b"f")])
        .await
        .unwrap();
    store::forget_all().await.unwrap();
    assert_eq!(store::get_kv("t-key2").await.unwrap(), None);
    assert!(store::get_files("t-f").await.unwrap().is_empty());
    let estimate = store::quota_estimate().await.unwrap();
    if let Some(q) = estimate {
        assert!(q.quota > 0.0 && q.usage >= 0.0);
    }
}

const META: &[u8] = include_bytes!("../crates/coglab-core/tests/fixtures/mmopera/ria/metadata.csv");
const JUDGE: &[u8] = include_bytes!(
    "../crates/coglab-core/tests/fixtures/mmopera/ria/modelx_RIA_regular_scoring.json"
);

async fn settle() {
    for _ in 0..10 {
        let promise = js_sys::Promise::new(&mut |resolve, _| {
            web_sys::window()
                .unwrap()
                .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 30)
                .unwrap();
        });
        wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
        leptos::task::tick().await;
    }
}

/// A workspace saved by an earlier visit (second item on screen, scored 2 with a note) comes
/// back when the page mounts; a click is saved to the store at once.
async fn review_page_restores_and_saves() {
    store::forget_all().await.unwrap();
    let files = vec![
        ("metadata.csv".to_string(), META.to_vec()),
        (
            "modelx_RIA_regular_scoring.json".to_string(),
            JUDGE.to_vec(),
        ),
    ];
    let set_name = build_sets(&files).sets[0].name.clone();
    store::put_files(
        coglab::pages::review::AREA,
        files
            .into_iter()
            .map(|(name, bytes)| file(&name, None, &bytes))
            .collect(),
    )
    .await
    .unwrap();
    let mut review = SetReview {
        keys: vec!["r1".into(), "r2".into(), "r3".into()],
        position: 1,
        ..Default::default()
    };
    review.records.insert(
        "r2".into(),
        ReviewRecord {
            key: "r2".into(),
            score: Some(2),
            note: "misses the metaphor".into(),
            ..Default::default()
        },
    );
    let mut ws = Workspace {
        current: Some(set_name.clone()),
        ..Default::default()
    };
    ws.sets.insert(set_name.clone(), review);
    store::put_kv(coglab::pages::review::WORKSPACE_KEY, &ws.to_json())
        .await
        .unwrap();

    let document = web_sys::window().unwrap().document().unwrap();
    let root: web_sys::HtmlElement = document.create_element("div").unwrap().unchecked_into();
    document.body().unwrap().append_child(&root).unwrap();
    let _handle = leptos::mount::mount_to(root.clone(), coglab::pages::review::Review);
    settle().await;
    assert_eq!(
        query(&root, "[data-testid=item-key]")
            .text_content()
            .unwrap(),
        "Item r2"
    );
    assert_eq!(
        query(&root, "[data-testid=review-pos]")
            .text_content()
            .unwrap(),
        "Item 2 of 3"
    );
    assert_eq!(
        query(&root, "[data-testid=score-2]")
            .get_attribute("aria-pressed")
            .as_deref(),
        Some("true")
    );
    let note = query(&root, "[data-testid=note]");
    let value = js_sys::Reflect::get(&note, &"value".into()).unwrap();
    assert_eq!(value.as_string().as_deref(), Some("misses the metaphor"));
    // The judge said 3 for r2 (fixture): one pair, no exact match.
    assert_eq!(
        query(&root, "[data-testid=agree-score-exact]")
            .text_content()
            .unwrap(),
        "0.0%"
    );
    query(&root, "[data-testid=score-3]").click();
    settle().await;
    let saved = Workspace::from_json(
        &store::get_kv(coglab::pages::review::WORKSPACE_KEY)
            .await
            .unwrap()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(saved.sets[&set_name].records["r2"].score, Some(3));
    assert_eq!(
        query(&root, "[data-testid=agree-score-exact]")
            .text_content()
            .unwrap(),
        "100.0%"
    );
    store::forget_all().await.unwrap();
}
