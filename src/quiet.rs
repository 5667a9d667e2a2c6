//! Whether the page is still loading what its first view needs: split-point chunks
//! ([`crate::split`]) and bundled data ([`crate::data::fetch_text`]) each hold a [`Loading`]
//! while they are fetched, and [`settled`] waits until none has been held for a while.
//!
//! The service worker's install (it caches the app shell: the page, styles, every bundled data
//! file, icons, about 150 KB on a plain host) waits for this (issue 42): started as soon as
//! the page module ran, it shared a slow link with the leaderboard tab's chunks and data and
//! put off the tab's table by about a second on Fast 3G.

use std::cell::Cell;

use gloo_timers::future::TimeoutFuture;

thread_local! {
    static HELD: Cell<u32> = const { Cell::new(0) };
    /// Bumped on every release, so a wait sees a load that started and ended while it slept.
    static RELEASES: Cell<u64> = const { Cell::new(0) };
}

/// How long nothing may have been loading before the page counts as settled.
pub const QUIET_MS: u32 = 500;

/// Held while one load of the first view runs; dropped when it ends (or is cancelled).
pub struct Loading(());

impl Loading {
    /// Marks a load as running.
    pub fn start() -> Self {
        HELD.with(|h| h.set(h.get() + 1));
        Self(())
    }
}

impl Drop for Loading {
    fn drop(&mut self) {
        HELD.with(|h| h.set(h.get().saturating_sub(1)));
        RELEASES.with(|r| r.set(r.get() + 1));
    }
}

/// Resolves once no [`Loading`] has been held for [`QUIET_MS`] in a row (checked every
/// [`QUIET_MS`]; a load that started and ended between two checks restarts the wait).
pub async fn settled() {
    loop {
        let before = RELEASES.with(Cell::get);
        TimeoutFuture::new(QUIET_MS).await;
        if HELD.with(Cell::get) == 0 && RELEASES.with(Cell::get) == before {
            return;
        }
    }
}
