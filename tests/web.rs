//! In-browser tests (wasm-bindgen-test in headless Chromium): mount the app and its components
//! in a real DOM, click, and check what a user would see.
#![cfg(target_arch = "wasm32")]

use coglab::components::reported_table::ReportedTableView;
use coglab_core::reported::ReportedBundle;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

mod support;
use support::{find as query, host, settle};

fn row_labels(root: &web_sys::HtmlElement) -> Vec<String> {
    let rows = root.query_selector_all("tbody th[scope=row]").unwrap();
    (0..rows.length())
        .map(|i| {
            rows.item(i)
                .unwrap()
                .first_child()
                .unwrap()
                .text_content()
                .unwrap()
        })
        .collect()
}

#[wasm_bindgen_test]
async fn app_mounts_navigates_between_pages_and_goes_back() {
    let root = host();
    let _handle = leptos::mount::mount_to(root.clone(), coglab::App);
    leptos::task::tick().await;
    let nav = query(&root, "[data-testid=main-nav]").expect("navigation is rendered");
    let a = nav.query_selector_all("a").unwrap();
    let links: Vec<String> = (0..a.length())
        .map(|i| a.item(i).unwrap().text_content().unwrap())
        .collect();
    assert_eq!(
        links,
        [
            "Home",
            "Leaderboard",
            "Self-test (KiVA)",
            "Review",
            "Structure (Gold)"
        ]
    );

    for (href, testid) in [
        ("leaderboard", "page-leaderboard"),
        ("self-test", "page-self-test"),
        ("review", "page-review"),
        ("structure", "page-structure"),
    ] {
        let link: web_sys::HtmlElement = nav
            .query_selector(&format!("a[href$='/{href}']"))
            .unwrap()
            .unwrap_or_else(|| panic!("nav link to {href}"))
            .unchecked_into();
        link.click();
        settle().await;
        assert!(
            query(&root, &format!("[data-testid={testid}]")).is_some(),
            "{testid} shown after clicking {href}"
        );
        assert_eq!(
            link.get_attribute("aria-current").as_deref(),
            Some("page"),
            "{href} marked current"
        );
    }

    // Back returns to the previous page, and the skip link stays on the page. (One app per
    // test page: the router's window listeners live as long as the app.)
    settle().await;
    let click = |href: &str| {
        let link: web_sys::HtmlElement = nav
            .query_selector(&format!("a[href$='/{href}']"))
            .unwrap()
            .unwrap()
            .unchecked_into();
        link.click();
    };
    click("review");
    settle().await;
    click("structure");
    settle().await;
    assert!(query(&root, "[data-testid=page-structure]").is_some());
    let window = web_sys::window().unwrap();
    assert!(window
        .location()
        .pathname()
        .unwrap()
        .ends_with("/structure"));

    window.history().unwrap().back().unwrap();
    let mut shown = false;
    for _ in 0..50 {
        settle().await;
        if query(&root, "[data-testid=page-review]").is_some() {
            shown = true;
            break;
        }
    }
    assert!(shown, "Back shows the review page again");
    assert!(window.location().pathname().unwrap().ends_with("/review"));

    // "#main" resolves against the document's <base>: followed by the browser it would load
    // the home page. It moves the focus to the main region and stays on the page.
    let skip: web_sys::HtmlElement = query(&root, ".skip-link").unwrap();
    skip.click();
    settle().await;
    assert!(query(&root, "[data-testid=page-review]").is_some());
    assert!(window.location().pathname().unwrap().ends_with("/review"));
    let active = window.document().unwrap().active_element().unwrap();
    assert_eq!(active.id(), "main");
}

#[wasm_bindgen_test]
async fn reported_mmiq_table_sorts_by_clicked_column() {
    let bundle =
        ReportedBundle::parse("mmiq.json", include_str!("../public/data/mmiq.json")).unwrap();
    let table = bundle.table("mmiq-table2").unwrap().clone();
    let root = host();
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <ReportedTableView table=table /> }
    });
    leptos::task::tick().await;
    // Paper order first: LLaVA-1.6-7B is the first row of MM-IQ Table 2.
    assert_eq!(row_labels(&root)[0], "LLaVA-1.6-7B");
    assert!(
        root.text_content().unwrap().contains("33.17"),
        "o3's mean accuracy from Table 2 is shown"
    );

    let mean = query(&root, "[data-testid=sort-0]").unwrap();
    mean.click();
    leptos::task::tick().await;
    // Highest mean first: humans 51.27, then OpenAI-o3 33.17 (MM-IQ Table 2).
    assert_eq!(&row_labels(&root)[..2], ["Human Performance", "OpenAI-o3"]);
    let th = mean.parent_element().unwrap();
    assert_eq!(th.get_attribute("aria-sort").as_deref(), Some("descending"));

    mean.click();
    leptos::task::tick().await;
    // Lowest mean first: LLaVA-1.6-7B (19.45), then Deepseek-vl-7b-chat (22.17).
    assert_eq!(
        &row_labels(&root)[..2],
        ["LLaVA-1.6-7B", "Deepseek-vl-7b-chat"]
    );
    assert_eq!(th.get_attribute("aria-sort").as_deref(), Some("ascending"));

    mean.click();
    leptos::task::tick().await;
    // Third click restores the paper's order.
    assert_eq!(row_labels(&root)[1], "Deepseek-vl-7b-chat");
    assert_eq!(th.get_attribute("aria-sort").as_deref(), Some("none"));
}

/// `latest_reply` makes a new request when its key changes while the previous one is still
/// out, shows the new reply, and drops the older one when it comes later (the comparison that
/// stayed at "Comparing…" with `LocalResource`, CI run of be0b9d3).
#[wasm_bindgen_test]
async fn latest_reply_follows_a_change_made_while_a_request_is_out() {
    use coglab::worker::client::latest_reply;
    use gloo_timers::future::TimeoutFuture;
    let root = host();
    let pair = RwSignal::new(1u32);
    let chosen = Memo::new(move |_| pair.get() * 10);
    let made = StoredValue::new(Vec::<u32>::new());
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        // Key 10 answers after 300 ms, key 20 after 50 ms.
        let reply = latest_reply(
            move || chosen.get(),
            move |k| {
                made.update_value(|m| m.push(k));
                async move {
                    TimeoutFuture::new(if k == 10 { 300 } else { 50 }).await;
                    format!("reply {k}")
                }
            },
        );
        view! {
            <p id="shown">{move || format!("{} {}", chosen.get(), reply.get_for(&chosen.get()).unwrap_or_else(|| "waiting".into()))}</p>
            <p id="latest">{move || reply.get().unwrap_or_default()}</p>
        }
    });
    settle().await;
    assert_eq!(
        query(&root, "#shown").unwrap().text_content().unwrap(),
        "10 waiting"
    );
    pair.set(2);
    support::settle_after(150).await;
    assert_eq!(
        query(&root, "#shown").unwrap().text_content().unwrap(),
        "20 reply 20"
    );
    // Key 10's reply comes after key 20's and is dropped.
    support::settle_after(300).await;
    assert_eq!(
        query(&root, "#latest").unwrap().text_content().unwrap(),
        "reply 20"
    );
    assert_eq!(made.get_value(), vec![10, 20]);
    // Back to key 10: asked again, and shown once it comes.
    pair.set(1);
    support::settle_after(400).await;
    assert_eq!(
        query(&root, "#shown").unwrap().text_content().unwrap(),
        "10 reply 10"
    );
    assert_eq!(made.get_value(), vec![10, 20, 10]);
}
