//! In-browser test of the Structure page's model builder: mounted with Gold's Table 2 spec
//! (the page's default), the chain preset and Mode B are applied through the UI, and the
//! rendered paths, second-order line and spec JSON show them.
#![cfg(target_arch = "wasm32")]

use coglab::pages::structure::{Actions, DataSet, Editor, StructureState};
use coglab::worker::api::SemSwitches;
use coglab_core::sem::engine::Mode;
use coglab_core::sem::suite::gold_table2_draft;
use coglab_core::sem::{HtmtVariant, PruneVariant};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

mod support;
use support::{el as query, host, texts};

async fn settle() {
    support::settle_after(60).await;
}

/// Gold Table 2's 11 tasks (the columns of the bundled matrix).
const TASKS: [&str; 11] = [
    "Color",
    "Count",
    "OCR",
    "Artwork",
    "Landmark",
    "BMK",
    "Biology",
    "CS",
    "Economics",
    "Electronics",
    "Math",
];

#[wasm_bindgen_test]
async fn chain_preset_and_mode_b_through_the_model_builder() {
    let root = host();
    // The page's state as the page provides it (without the page's reactions: nothing is
    // fitted or saved here).
    let state = StructureState::new();
    state.data.set(Some(DataSet {
        name: "gold-table2.csv".into(),
        text: String::new(),
        matrix: Default::default(),
        models: Vec::new(),
        columns: TASKS.iter().map(|t| t.to_string()).collect(),
    }));
    state.draft.set(gold_table2_draft());
    let (draft, switches) = (state.draft, state.switches);
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        provide_context(state);
        provide_context(Actions::new(state));
        view! { <Editor /> }
    });
    settle().await;
    // The default: the three layers feed the second-order Overall; no first-order paths.
    assert_eq!(
        query(&root, "[data-testid=second-order]")
            .text_content()
            .unwrap(),
        "Overall (second order) ← Perception, Memory, Reasoning"
    );
    assert!(texts(&root, "[data-testid=paths] li").is_empty());
    assert_eq!(texts(&root, "[data-testid=assign] tbody tr").len(), 11);

    // Chain preset: Perception → Memory → Reasoning, the second-order construct gone.
    query(&root, "[data-testid=preset-chain]").click();
    settle().await;
    assert_eq!(
        texts(&root, "[data-testid=paths] li"),
        ["Perception → Memory Remove", "Memory → Reasoning Remove"]
    );
    assert_eq!(
        query(&root, "[data-testid=second-order]")
            .text_content()
            .unwrap(),
        ""
    );
    let spec: serde_json::Value = serde_json::from_str(
        &query(&root, "[data-testid=spec-json]")
            .text_content()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(
        spec["paths"],
        serde_json::json!([["Perception", "Memory"], ["Memory", "Reasoning"]])
    );
    assert!(spec.get("second_order").is_none());

    // Mode B on the first construct, chosen in its select.
    let select: web_sys::HtmlSelectElement = query(&root, "[data-testid=mode-0]").unchecked_into();
    select.set_value("B");
    select
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    settle().await;
    assert_eq!(draft.get_untracked().constructs[0].mode, Mode::B);
    let spec: serde_json::Value = serde_json::from_str(
        &query(&root, "[data-testid=spec-json]")
            .text_content()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(spec["constructs"]["Perception"]["mode"], "B");
    assert_eq!(spec["constructs"]["Memory"]["mode"], "A");
    // The rebuilt row still offers Mode B as selected.
    let select: web_sys::HtmlSelectElement = query(&root, "[data-testid=mode-0]").unchecked_into();
    assert_eq!(select.value(), "B");

    // Issue 23: the paper's formative preset sets every construct (and Overall) to Mode B in
    // one click, and says so; Mode A everywhere puts them back.
    query(&root, "[data-testid=preset-formative]").click();
    settle().await;
    let d = draft.get_untracked();
    assert!(d.constructs.iter().all(|c| c.mode == Mode::B));
    assert_eq!(
        query(&root, "[data-testid=measurement-current]")
            .text_content()
            .unwrap(),
        "now: paper: formative = Mode B everywhere"
    );
    query(&root, "[data-testid=preset-mode-a]").click();
    settle().await;
    assert!(draft
        .get_untracked()
        .constructs
        .iter()
        .all(|c| c.mode == Mode::A));
    assert_eq!(
        query(&root, "[data-testid=measurement-current]")
            .text_content()
            .unwrap(),
        "now: Mode A everywhere (ours)"
    );
    // The HTMT and pruning selects set the switches the page sends to the worker.
    assert_eq!(switches.get_untracked(), SemSwitches::default());
    for (id, value) in [("htmt-variant", "eq1"), ("prune-variant", "algorithm1")] {
        let select: web_sys::HtmlSelectElement =
            query(&root, &format!("[data-testid={id}]")).unchecked_into();
        select.set_value(value);
        select
            .dispatch_event(&web_sys::Event::new("change").unwrap())
            .unwrap();
    }
    settle().await;
    let sw = switches.get_untracked();
    assert_eq!(
        (sw.htmt, sw.prune_variant),
        (HtmtVariant::Eq1, PruneVariant::Algorithm1)
    );
}
