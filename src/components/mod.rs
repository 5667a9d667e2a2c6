//! Reusable components, one family per file.

pub mod audit_panel;
pub mod board_table;
pub mod error_panel;
pub mod model_items;
pub mod rank_panel;
pub mod reported_table;
pub mod theme_toggle;

/// Runs `f` in a task of its own after the next frame is painted: a part of a page drawn this
/// way is laid out in the following frame, not with what was drawn before it (issue 22: the
/// item report's tables, the rank panel after the board's marks; each together was a main-thread
/// task over 50 ms).
pub fn after_next_frame(f: impl FnOnce() + 'static) {
    leptos::prelude::request_animation_frame(move || {
        gloo_timers::callback::Timeout::new(0, f).forget();
    });
}
