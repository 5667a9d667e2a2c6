//! The theme toggle: system / light / dark, stored in localStorage (`coglab-theme`), applied as
//! `data-theme` on `<html>` (the CSS variables honour it); charts read [`ThemeChoice`] and redraw.

use leptos::prelude::*;

use crate::charts::ChartTheme;

/// localStorage key of the choice.
const KEY: &str = "coglab-theme";

/// The theme in use, shared through a context: the choice (`system`, `light`, `dark`) and a
/// counter bumped when the system preference changes, so readers redraw.
#[derive(Clone, Copy)]
pub struct ThemeChoice {
    /// `system`, `light` or `dark`.
    pub choice: RwSignal<String>,
    /// Bumped when the system's colour scheme changes.
    pub system_changes: RwSignal<u32>,
}

impl ThemeChoice {
    /// Reads the stored choice, applies it and follows system changes.
    pub fn new() -> Self {
        let stored = storage()
            .and_then(|s| s.get_item(KEY).ok().flatten())
            .filter(|v| v == "light" || v == "dark")
            .unwrap_or_else(|| "system".into());
        apply(&stored);
        let t = Self {
            choice: RwSignal::new(stored),
            system_changes: RwSignal::new(0),
        };
        if let Some(mq) = web_sys::window()
            .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        {
            let changes = t.system_changes;
            // For the page's lifetime, like the theme itself.
            gloo_events::EventListener::new(&mq, "change", move |_| changes.update(|n| *n += 1))
                .forget();
        }
        t
    }

    /// Whether dark colours are in use now (tracks the choice and system changes).
    pub fn is_dark(&self) -> bool {
        self.system_changes.track();
        match self.choice.get().as_str() {
            "dark" => true,
            "light" => false,
            _ => web_sys::window()
                .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
                .is_some_and(|m| m.matches()),
        }
    }
}

impl Default for ThemeChoice {
    fn default() -> Self {
        Self::new()
    }
}

/// The chart colours for the theme in use: the toggle's choice when the app provides
/// [`ThemeChoice`] (read in a reactive scope, a chart then redraws when it changes), else the
/// `data-theme` attribute on `<html>`, else the system's preference.
pub fn chart_theme() -> ChartTheme {
    let dark = use_context::<ThemeChoice>().map_or_else(page_is_dark, |t| t.is_dark());
    if dark {
        ChartTheme::dark()
    } else {
        ChartTheme::light()
    }
}

/// Dark colours by the page alone: `data-theme` on `<html>`, else the system's preference.
fn page_is_dark() -> bool {
    let root_theme = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
        .and_then(|e| e.get_attribute("data-theme"));
    match root_theme.as_deref() {
        Some("dark") => true,
        Some("light") => false,
        _ => web_sys::window()
            .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
            .is_some_and(|m| m.matches()),
    }
}

/// The choice is kept as the plain string the app has always written (`gloo-storage`'s typed
/// `get`/`set` would read and write JSON), so a choice stored by an earlier version survives.
fn storage() -> Option<web_sys::Storage> {
    use gloo_storage::Storage as _;
    web_sys::window()?.local_storage().ok().flatten()?;
    Some(gloo_storage::LocalStorage::raw())
}

fn apply(choice: &str) {
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = match choice {
            "light" | "dark" => root.set_attribute("data-theme", choice),
            _ => root.remove_attribute("data-theme"),
        };
    }
}

/// The header's theme selector (system / light / dark).
#[component]
pub fn ThemeToggle() -> impl IntoView {
    let theme = use_context::<ThemeChoice>().unwrap_or_else(|| {
        let t = ThemeChoice::new();
        provide_context(t);
        t
    });
    view! {
        <label class="theme-toggle">
            <span class="visually-hidden">"Colour theme"</span>
            <select data-testid="theme-toggle" aria-label="Colour theme"
                on:change=move |ev| {
                    let v = event_target_value(&ev);
                    if let Some(s) = storage() {
                        let _ = if v == "system" { s.remove_item(KEY) } else { s.set_item(KEY, &v) };
                    }
                    apply(&v);
                    theme.choice.set(v);
                }>
                {["system", "light", "dark"].map(|v| view! {
                    <option value=v selected=move || *theme.choice.read() == v>{match v {
                        "system" => "Theme: system",
                        "light" => "Theme: light",
                        _ => "Theme: dark",
                    }}</option>
                }).collect_view()}
            </select>
        </label>
    }
}
