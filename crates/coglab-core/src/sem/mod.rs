//! Gold: PLS-SEM engine and benchmark-structure diagnostics (issue 5).
