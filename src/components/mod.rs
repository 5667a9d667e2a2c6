//! Reusable components, one family per file.

pub mod error_panel;
pub mod reported_table;
