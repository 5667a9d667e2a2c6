//! In-browser tests of the review page's persistence: the IndexedDB store (files by area,
//! key-value records, forget) in a real Chromium.
#![cfg(target_arch = "wasm32")]

use coglab::store::{self, StoredFile};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn file(name: &str, model: Option<&str>, bytes: &[u8]) -> StoredFile {
    StoredFile {
        name: name.to_string(),
        model: model.map(str::to_string),
        bytes: bytes.to_vec(),
    }
}

/// The store's round trips. The Review page restoring a saved workspace from it (position,
/// scores, notes, agreement) is tested end to end (`tests/e2e/review.test.mjs`, "keyboard
/// scoring survives reloads"): the page builds its sets in the scoring worker, whose module this
/// in-browser harness does not serve.
#[wasm_bindgen_test]
async fn store_round_trips_files_records_and_forget() {
    store_round_trips().await;
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
