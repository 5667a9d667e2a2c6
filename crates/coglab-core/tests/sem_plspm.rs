//! The PLS engine against an independent implementation: Python `plspm` 0.5.7 from PyPI
//! (pandas < 2.3, numpy < 2.3), run by `scripts/plspm-reference.sh` on the same shared data.
//!
//! Provenance: the script fits, for each case, `Plspm(data, Config(path, scaled=False),
//! Scheme.<PATH|CENTROID|FACTORIAL>, iterations=1000, tolerance=1e-18)` on the data
//! standardized per column with the population SD (ddof = 0), and writes
//! `target/plspm-reference/<case>.json` holding the model in coglab's spec format, plspm's
//! outer weights, loadings, path coefficients and R², and the exact call and versions. Cases:
//! mobi (the seminr model) and plspm's ECSI `satisfaction` model (6 constructs, 10 paths)
//! under the three schemes, mobi with Image in Mode B under the three schemes, satisfaction
//! with QUAL and VAL in Mode B, and a two-stage second-order model on mobi
//! (Brand = Image + Expectation, Brand -> Satisfaction, Value -> Satisfaction) run as plspm's
//! own `Estimator` does (its `add_higher_order` crashes in stage 2 in 0.5.7, see the script).
//!
//! Transformations: plspm's `scaled=True` divides all columns by one pooled SD, hence the
//! manual per-column standardization; with population-standardized indicators plspm's
//! weights equal seminr-convention weights (the two scalings differ by the same factor
//! sqrt(n / (n − 1)) on indicators and composites). Loadings, paths and R² are scale-free.
//! plspm's stop rule (sum of squared changes of unnormalized weights) differs from ours, so
//! the script runs it to 1e-18 and both sit on the same fixed point; we compare to 1e-6.
//! plspm's Dillon-Goldstein ρ (principal-component loadings) is not comparable and not used.
//!
//! The directory is `$COGLAB_PLSPM_REF` or `<repo>/target/plspm-reference`; when it is absent
//! the test prints SKIP, unless CI=true (then it fails).

use crate::common;

use coglab_core::sem::{analyze, SemOptions};
use serde_json::Value;
use std::path::PathBuf;

const TOL: f64 = 1e-6;

fn reference_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("COGLAB_PLSPM_REF")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/plspm-reference")
        });
    if dir.join("mobi_modeA_path.json").exists() {
        return Some(dir);
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!(
            "CI=true but {} has no plspm reference figures: run scripts/plspm-reference.sh",
            dir.display()
        );
    }
    eprintln!(
        "SKIP: {} not found; run scripts/plspm-reference.sh to create the plspm reference figures",
        dir.display()
    );
    None
}

fn compare_map(case: &str, what: &str, want: &Value, got: &dyn Fn(&str) -> Option<f64>) -> usize {
    let mut n = 0;
    for (k, v) in want
        .as_object()
        .unwrap_or_else(|| panic!("{case}: {what} is not an object"))
    {
        let w = v
            .as_f64()
            .unwrap_or_else(|| panic!("{case}: {what}.{k} is not a number"));
        let g =
            got(k).unwrap_or_else(|| panic!("{case}: {what} {k} missing from the coglab report"));
        assert!(
            (g - w).abs() < TOL,
            "{case}: {what} {k}: coglab {g}, plspm {w} (diff {:e})",
            (g - w).abs()
        );
        n += 1;
    }
    n
}

#[test]
fn all_plspm_cases_match() {
    let Some(dir) = reference_dir() else { return };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 11,
        "expected the 11 plspm cases, found {}",
        files.len()
    );
    let mut checked = 0;
    for path in files {
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let case: Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = case["case"].as_str().unwrap_or("?").to_string();
        assert_eq!(
            case["provenance"]["plspm_version"], "0.5.7",
            "{name}: unexpected plspm version"
        );
        let data_name = case["data"]
            .as_str()
            .unwrap_or_else(|| panic!("{name}: no data"));
        let Some(data) = common::shared_bytes(&format!("sem/{data_name}")) else {
            return;
        };
        let spec = case["spec"].to_string();
        let report = analyze(&spec, "spec.json", &data, data_name, &SemOptions::default())
            .unwrap_or_else(|e| panic!("{name}: coglab failed: {e}"));
        checked += compare_map(&name, "weight", &case["weights"], &|k| {
            report.outer.get(k).map(|e| e.weight)
        });
        checked += compare_map(&name, "loading", &case["loadings"], &|k| {
            report.outer.get(k).map(|e| e.loading)
        });
        checked += compare_map(&name, "path", &case["paths"], &|k| {
            report.paths.get(k).copied()
        });
        checked += compare_map(&name, "R²", &case["r2"], &|k| report.r2.get(k).copied());
        assert_eq!(
            report.paths.len(),
            case["paths"].as_object().map_or(0, |m| m.len()),
            "{name}: path count"
        );
        if let Some(first) = case.get("first_stage") {
            let fs = report
                .first_stage
                .as_ref()
                .unwrap_or_else(|| panic!("{name}: no first stage"));
            checked += compare_map(&name, "stage-1 path", &first["paths"], &|k| {
                fs.paths.get(k).copied()
            });
        }
    }
    assert!(checked > 300, "only {checked} figures compared");
}
