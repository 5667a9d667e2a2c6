//! In-browser tests of the leaderboard table (wasm-bindgen-test in headless Chromium): mount
//! `BoardTable` with a fixture, click a header, check the order; toggle the compact mode and a
//! kind filter; check the ranks tie overlapping intervals.
#![cfg(target_arch = "wasm32")]

use coglab::components::board_table::{
    fold_case, Board, BoardCell, BoardColumn, BoardRow, BoardTable, RowKind, ViewState,
};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

mod support;
use support::{el, host, settle, texts};

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

fn cell(v: f64, lo: f64, hi: f64) -> Option<BoardCell> {
    Some(BoardCell {
        value: v,
        interval: Some((lo, hi)),
        n: None,
        detail: format!("{lo}–{hi}"),
    })
}

/// Three models and a baseline; A [0.30, 0.40], B [0.35, 0.45] overlap; C [0.60, 0.70] is
/// above both; chance 0.25 is a point below all. Column 2 is missing for C.
fn fixture() -> Board {
    let row = |m: &str, kind, cells| BoardRow {
        model: m.into(),
        kind,
        source: "fixture".into(),
        harness: None,
        summary: false,
        family: "unknown".into(),
        size: "unknown".into(),
        cells,
        cite: None,
        flag: None,
        published: false,
        row_id: None,
    };
    let col = |k: &str| BoardColumn {
        key: k.into(),
        title: k.to_uppercase(),
        definition: format!("definition of {k}"),
        unit: None,
    };
    Board {
        caption: "fixture".into(),
        columns: vec![col("mean"), col("two")],
        rows: vec![
            row(
                "A",
                RowKind::Reported,
                vec![cell(0.35, 0.30, 0.40), cell(0.9, 0.85, 0.95)],
            ),
            row(
                "B",
                RowKind::Computed,
                vec![cell(0.40, 0.35, 0.45), cell(0.1, 0.05, 0.15)],
            ),
            row("C", RowKind::Computed, vec![cell(0.65, 0.60, 0.70), None]),
            row(
                "chance",
                RowKind::Baseline,
                vec![
                    Some(BoardCell {
                        value: 0.25,
                        interval: None,
                        n: None,
                        detail: String::new(),
                    }),
                    None,
                ],
            ),
        ],
        scale: 100.0,
        decimals: 1,
    }
}

#[wasm_bindgen_test]
async fn header_click_sorts_and_compact_mode_shows_the_interval() {
    let root = host();
    let state = RwSignal::new(ViewState::default());
    let _h = leptos::mount::mount_to(root.clone(), move || {
        view! { <BoardTable board=Signal::stored(fixture()) state=state stem="t" /> }
    });
    settle().await;
    // Without a chosen sort: rank order of the first column; the metric definition is the
    // header's tooltip.
    assert_eq!(models(&root), ["C", "B", "A", "chance"]);
    let mean = el(&root, "th[data-col=mean] button");
    assert_eq!(mean.title(), "definition of mean");
    // Click "MEAN": descending; ranks tie A and B (overlapping intervals).
    mean.click();
    settle().await;
    assert_eq!(models(&root), ["C", "B", "A", "chance"]);
    // The baseline is a reference row, not ranked (issue 26, defect 12).
    assert_eq!(texts(&root, "td[data-rank]"), ["1", "2", "2"]);
    assert_eq!(
        el(&root, "th[data-col=mean]")
            .get_attribute("aria-sort")
            .as_deref(),
        Some("descending")
    );
    // Again: ascending.
    mean.click();
    settle().await;
    assert_eq!(models(&root), ["chance", "A", "B", "C"]);
    // Column "two", descending: C has no value and stays last, also ascending.
    el(&root, "th[data-col=two] button").click();
    settle().await;
    assert_eq!(models(&root), ["A", "B", "C", "chance"]);
    el(&root, "th[data-col=two] button").click();
    settle().await;
    assert_eq!(models(&root), ["B", "A", "C", "chance"]);
    // Values alone, the interval on hover; compact mode: "value ± half-width".
    let a_mean = el(&root, "tr[data-model=A] td[data-col=mean]");
    assert_eq!(a_mean.text_content().unwrap(), "35.0");
    assert_eq!(a_mean.title(), "0.3–0.4");
    el(&root, "[data-testid=t-compact]").click();
    settle().await;
    assert!(state.get_untracked().compact);
    let a_mean = el(&root, "tr[data-model=A] td[data-col=mean]");
    assert_eq!(a_mean.text_content().unwrap(), "35.0 ± 5.0");
    // Kind filter: without baselines, the chance row goes.
    el(&root, "[data-testid=t-kind-baseline]").click();
    settle().await;
    assert_eq!(models(&root), ["B", "A", "C"]);
    assert_eq!(
        state.get_untracked().kinds,
        [RowKind::Reported, RowKind::Computed]
    );
}

/// In the browser, searches fold case with JavaScript's `toLowerCase`: the same mapping as
/// `str::to_lowercase`, beyond ASCII too (final sigma included).
#[wasm_bindgen_test]
fn fold_case_is_full_unicode_lower_case() {
    for s in [
        "GPT-4o",
        "ÉMILE",
        "ΟΔΟΣ",
        "İstanbul",
        "Straße",
        "数学 Qwen2-VL",
    ] {
        assert_eq!(fold_case(s), s.to_lowercase(), "{s}");
    }
    assert_eq!(fold_case("ΟΔΟΣ"), "οδος");
}

#[wasm_bindgen_test]
async fn a_harness_row_says_which_harness_produced_it() {
    let root = host();
    let state = RwSignal::new(ViewState::default());
    let mut board = fixture();
    board.rows[1].harness = Some("lmms-eval".into());
    let _h = leptos::mount::mount_to(root.clone(), move || {
        view! { <BoardTable board=Signal::stored(board.clone()) state=state stem="t" /> }
    });
    settle().await;
    // Only row B came from a harness file: its badge names the harness, and so does the row.
    assert_eq!(texts(&root, "[data-testid=row-harness]"), ["via lmms-eval"]);
    let b = el(&root, "tr[data-model=B]");
    assert_eq!(
        b.get_attribute("data-harness").as_deref(),
        Some("lmms-eval")
    );
    assert_eq!(
        el(&root, "tr[data-model=C]").get_attribute("data-harness"),
        None
    );
}

/// A board of 130 rows draws the first 50 of the order shown (issue 22: with all 300 rows of
/// the item-analysis bench drawn, its longest main-thread task was a 210 ms layout);
/// "Show all" draws the rest, and a filter reaches a row beyond the first 50.
#[wasm_bindgen_test]
async fn a_long_board_draws_its_first_50_rows_until_show_all() {
    let root = host();
    let state = RwSignal::new(ViewState::default());
    let mut board = fixture();
    let template = board.rows[1].clone();
    board.rows = (0..130)
        .map(|k| {
            let v = 0.001 * f64::from(k);
            BoardRow {
                model: format!("m{k:03}"),
                // m000 lowest, m129 highest: the rank order is m129, m128, ...
                cells: vec![cell(v, v, v), None],
                ..template.clone()
            }
        })
        .collect();
    let _h = leptos::mount::mount_to(root.clone(), move || {
        view! { <BoardTable board=Signal::stored(board.clone()) state=state stem="t" /> }
    });
    settle().await;
    let shown = models(&root);
    assert_eq!(shown.len(), 50);
    assert_eq!((shown[0].as_str(), shown[49].as_str()), ("m129", "m080"));
    assert_eq!(
        el(&root, "[data-testid=t-more]").text_content().unwrap(),
        "The first 50 of 130 rows are shown (filter by model name to find others). Show all 130"
    );
    // A filter reaches a row beyond the first 50.
    state.update(|s| s.query = "m005".into());
    settle().await;
    assert_eq!(models(&root), ["m005"]);
    assert!(root
        .query_selector("[data-testid=t-more]")
        .unwrap()
        .is_none());
    state.update(|s| s.query.clear());
    settle().await;
    el(&root, "[data-testid=t-all-rows]").click();
    settle().await;
    let shown = models(&root);
    assert_eq!(shown.len(), 130);
    assert_eq!(shown[129], "m000");
    el(&root, "[data-testid=t-all-rows]").click();
    settle().await;
    assert_eq!(models(&root).len(), 50);
}
