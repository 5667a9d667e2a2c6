//! The app's pages, one per route.

pub mod home;
pub mod items;
pub mod leaderboard;
pub mod not_found;
pub mod review;
pub mod selftest;
pub mod structure;
