//! Reusable components, one family per file.

pub mod error_panel;
pub mod model_items;
pub mod reported_table;
