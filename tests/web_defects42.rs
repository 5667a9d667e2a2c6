//! In-browser tests of the defects of issue 42 ("What users hit, round two"), each named after
//! its defect; each failed on main before its fix.
#![cfg(target_arch = "wasm32")]

use coglab::components::audit_panel::AuditPanel;
use coglab::components::board_table::{
    Board, BoardCell, BoardColumn, BoardRow, BoardTable, RowKind, ViewState,
};
use coglab_core::publish::bundle::AuditRow;
use coglab_core::publish::Benchmark;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

mod support;
use support::{el, host, settle, texts};

/// The `data-model` of each body row, top to bottom.
fn models(root: &web_sys::HtmlElement) -> Vec<String> {
    let l = root.query_selector_all("tbody tr").unwrap();
    (0..l.length())
        .map(|i| {
            l.item(i)
                .unwrap()
                .unchecked_into::<web_sys::HtmlElement>()
                .dataset()
                .get("model")
                .unwrap_or_default()
        })
        .collect()
}

/// A board whose rows are not in rank order: A 0.35, B 0.40, C 0.65, and the chance baseline.
fn board() -> Board {
    let row = |m: &str, kind, v: Option<f64>| BoardRow {
        model: m.into(),
        kind,
        source: "fixture".into(),
        harness: None,
        summary: false,
        family: "unknown".into(),
        size: "unknown".into(),
        cells: vec![v.map(|v| BoardCell {
            value: v,
            interval: (kind != RowKind::Baseline).then_some((v - 0.02, v + 0.02)),
            n: None,
            detail: String::new(),
        })],
        cite: None,
        flag: None,
        published: false,
        row_id: None,
    };
    Board {
        caption: "fixture".into(),
        columns: vec![BoardColumn {
            key: "overall".into(),
            title: "Overall".into(),
            definition: "the weighted score".into(),
            unit: None,
        }],
        rows: vec![
            row("A", RowKind::Reported, Some(0.35)),
            row("B", RowKind::Reported, Some(0.40)),
            row("C", RowKind::Reported, Some(0.65)),
            row("chance", RowKind::Baseline, Some(0.25)),
        ],
        scale: 100.0,
        decimals: 1,
    }
}

/// Defect 1: MM-IQ's sort (`s=mean`, ascending) carried to a tab without that column left the
/// rows in paper order while the Rank column ranked by the first column (Gold read 3, 10, 7,
/// …). Now the rows are in rank order, the ranks read down the table, and the page says why.
#[wasm_bindgen_test]
async fn defect_1_a_sort_of_another_tab_leaves_the_rows_in_rank_order() {
    let root = host();
    let state = RwSignal::new(ViewState {
        sort: Some("mean".into()),
        asc: true,
        ..Default::default()
    });
    let _h = leptos::mount::mount_to(root.clone(), move || {
        view! { <BoardTable board=Signal::stored(board()) state=state stem="gold" /> }
    });
    settle().await;
    assert_eq!(models(&root), ["C", "B", "A", "chance"]);
    assert_eq!(texts(&root, "td[data-rank]"), ["1", "2", "3"]);
    let rule = el(&root, "[data-testid=gold-rank-rule]")
        .text_content()
        .unwrap_or_default();
    assert!(
        rule.contains("no “mean” column"),
        "the rank rule says the sort does not apply: {rule}"
    );
}

fn audit_row(model: &str, flagged: bool) -> AuditRow {
    AuditRow {
        model: model.into(),
        benchmark: Benchmark::Mmiq,
        column: "Overall".into(),
        source: "MM-IQ Table 2".into(),
        reported: 27.0,
        decimals: 2,
        computed: if flagged { 35.0 } else { 27.5 },
        interval: (25.0, 30.0),
        gap: if flagged { 8.0 } else { 0.5 },
        flagged,
        explain: Vec::new(),
    }
}

/// The text directly inside the audit panel's `<details>` (not its summary or table).
fn stray_text(root: &web_sys::HtmlElement) -> String {
    let details = el(root, "[data-testid=audit-panel]");
    let nodes = details.child_nodes();
    (0..nodes.length())
        .filter_map(|i| nodes.item(i))
        .filter(|n| n.node_type() == web_sys::Node::TEXT_NODE)
        .map(|n| n.text_content().unwrap_or_default())
        .collect::<String>()
        .trim()
        .to_string()
}

/// Defect 7: the audit panel printed a stray "0 >" under its summary and opened with 0
/// flagged figures. Closed with none flagged, open with one, and no stray text either way.
#[wasm_bindgen_test]
async fn defect_7_the_audit_panel_opens_only_on_a_flag_and_prints_no_stray_text() {
    for (rows, open) in [
        (vec![audit_row("A", false), audit_row("B", false)], false),
        (vec![audit_row("A", false), audit_row("B", true)], true),
    ] {
        let root = host();
        let _h = leptos::mount::mount_to(root.clone(), move || {
            view! { <AuditPanel rows=Signal::stored(rows.clone()) /> }
        });
        settle().await;
        let details = el(&root, "[data-testid=audit-panel]");
        assert_eq!(details.has_attribute("open"), open);
        assert_eq!(stray_text(&root), "");
    }
}

/// Defect 16 (the table's JSON export): the rank was written as a string (`"Rank": "4"`); it
/// is a number, and `null` for an unranked baseline.
#[wasm_bindgen_test]
fn defect_16_the_json_export_writes_the_rank_as_a_number() {
    use coglab::components::board_table::analysis_table;
    use coglab_core::leaderboard::to_json;
    let json = to_json(&analysis_table(&board(), &ViewState::default()));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let ranks: Vec<&serde_json::Value> = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["Rank"])
        .collect();
    assert_eq!(
        ranks,
        [
            &serde_json::json!(1),
            &serde_json::json!(2),
            &serde_json::json!(3),
            &serde_json::Value::Null
        ]
    );
}

/// Defect 2: definitions and intervals lived in `title` attributes only, which a phone cannot
/// reach. A header's ⓘ opens its definition in a row under the header; a tapped (or Enter-ed)
/// cell opens its full figure in a row under its row; again closes it.
#[wasm_bindgen_test]
async fn defect_2_definitions_and_figures_open_by_tap_and_keyboard() {
    let root = host();
    let state = RwSignal::new(ViewState::default());
    let _h = leptos::mount::mount_to(root.clone(), move || {
        view! { <BoardTable board=Signal::stored(board()) state=state stem="gold" /> }
    });
    settle().await;
    assert!(support::find(&root, "[data-testid=gold-definition]").is_none());
    let toggle = el(&root, "th[data-col=overall] [data-testid=def-toggle]");
    assert_eq!(
        toggle.get_attribute("aria-expanded").as_deref(),
        Some("false")
    );
    toggle.click();
    settle().await;
    let def = el(&root, "[data-testid=gold-definition]")
        .text_content()
        .unwrap_or_default();
    assert!(def.starts_with("Overall: the weighted score"), "{def}");
    assert_eq!(
        toggle.get_attribute("aria-expanded").as_deref(),
        Some("true")
    );
    // A cell: C's Overall, 65.0 with its interval.
    let cell = el(&root, "tr[data-model=C] td[data-col=overall]");
    cell.click();
    settle().await;
    assert!(
        support::find(&root, "[data-testid=gold-definition]").is_none(),
        "one at a time"
    );
    let detail = el(&root, "[data-testid=gold-cell-detail]")
        .text_content()
        .unwrap_or_default();
    assert!(detail.starts_with("C · Overall: 65.0 ±"), "{detail}");
    assert!(detail.contains("Overall: the weighted score"), "{detail}");
    // The detail row sits right under C's row.
    let next = el(&root, "tr[data-model=C]")
        .next_element_sibling()
        .map(|e| e.class_name())
        .unwrap_or_default();
    assert_eq!(next, "lb-detail-row");
    // Enter on the focused cell closes it.
    let init = web_sys::KeyboardEventInit::new();
    init.set_key("Enter");
    init.set_bubbles(true);
    let enter =
        web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    cell.dispatch_event(&enter).unwrap();
    settle().await;
    assert!(support::find(&root, "[data-testid=gold-cell-detail]").is_none());
}
