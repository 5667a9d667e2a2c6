//! Reusable components, one family per file.

pub mod audit_panel;
pub mod board_table;
pub mod error_panel;
pub mod model_items;
pub mod rank_panel;
pub mod reported_table;
pub mod theme_toggle;
