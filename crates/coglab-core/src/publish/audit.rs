//! The reproducibility audit: wherever a published model also has a figure in the papers'
//! tables (the bundled [`crate::reported`] tables), both figures, the gap, and a flag when the
//! paper's figure lies outside the computed 95% interval widened by the paper's rounding,
//! with the settings that could explain a gap.
//!
//! Covered: MM-IQ (Table 2: Mean and the eight paradigms, Wilson intervals) and MM-OPERA
//! (Table 2 RIA and ICA: SR, HR-4, HR-3, ΔHR; Table 3: average reasoning score). KiVA's and
//! Gold's bundled figures are on other scales (per-stage baselines, the paper's own Overall),
//! so they are not audited.

use super::bundle::{Acc, Figures, Index, RunIndex, Value};

/// One audited figure, as [`audit`] returns it (defined with the index that keeps the
/// audit, [`Index::audit`]).
pub use super::bundle::AuditRow;
use super::manifest::Benchmark;
use crate::reported::{ReportedBundle, ReportedTable};

/// Case-, space- and punctuation-blind model name, for matching paper rows.
fn norm(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

fn row_of<'a>(t: &'a ReportedTable, name: &str) -> Option<&'a crate::reported::ReportedRow> {
    let n = norm(name);
    t.rows.iter().find(|r| norm(&r.label) == n)
}

/// Whether `reported` (printed with `decimals`) is outside `[lo, hi]` widened by half its last
/// digit.
///
/// # Examples
/// ```
/// use coglab_core::publish::audit::outside;
/// // 26.87 printed with 2 decimals stands for [26.865, 26.875]: touches [25.2, 26.866].
/// assert!(!outside(26.87, 2, (25.2, 26.866)));
/// assert!(outside(26.87, 2, (25.2, 26.86)));
/// ```
pub fn outside(reported: f64, decimals: u8, (lo, hi): (f64, f64)) -> bool {
    let half = 0.5 * 10f64.powi(-i32::from(decimals));
    !(lo.is_finite() && hi.is_finite()) || reported + half < lo || reported - half > hi
}

fn explain(run: &RunIndex) -> Vec<String> {
    let mut out: Vec<String> = run
        .settings
        .iter()
        .map(|(k, v)| format!("{k}: {v}"))
        .collect();
    if let Some(of) = run.coverage.of {
        if run.coverage.scored < of {
            out.push(format!("coverage: {} of {of} items", run.coverage.scored));
        }
    } else {
        out.push(format!("coverage: {} scored", run.coverage.scored));
    }
    out.extend(run.coverage.notes.iter().cloned());
    out
}

/// Audits every published figure that has a reported twin in `reported`.
///
/// # Examples
/// See `tests` in this module: a worked MM-IQ case.
pub fn audit(index: &Index, reported: &[ReportedBundle]) -> Vec<AuditRow> {
    let mut out = Vec::new();
    let table = |id: &str| reported.iter().flat_map(|b| &b.tables).find(|t| t.id == id);
    for m in &index.models {
        let label = m.meta.reported_as.as_deref().unwrap_or(&m.name);
        for run in &m.runs {
            let mut push = |t: &ReportedTable, col: &str, v: Option<(f64, (f64, f64))>, scale| {
                let (Some(row), Some(ci), Some((value, iv))) =
                    (row_of(t, label), t.columns.iter().position(|c| c == col), v)
                else {
                    return;
                };
                let Some(Some(rep)) = row.values.get(ci).copied() else {
                    return;
                };
                let decimals = t.decimals.get(ci).copied().unwrap_or(2);
                let computed = value * scale;
                let interval = (iv.0 * scale, iv.1 * scale);
                out.push(AuditRow {
                    model: m.name.clone(),
                    benchmark: run.benchmark,
                    column: col.to_string(),
                    source: format!("{}, row \"{}\"", t.source, row.label),
                    reported: rep,
                    decimals,
                    computed,
                    interval,
                    gap: computed - rep,
                    flagged: outside(rep, decimals, interval),
                    explain: explain(run),
                });
            };
            let acc = |a: &Acc| Some((a.acc, (a.lo, a.hi)));
            let val = |v: &Option<Value>| v.map(|v| (v.v, (v.lo, v.hi)));
            match (&run.figures, run.benchmark) {
                (
                    Figures::Mmiq {
                        overall,
                        by_category,
                    },
                    _,
                ) => {
                    if let Some(t) = table("mmiq-table2") {
                        push(t, "Mean", acc(overall), 100.0);
                        for (cat, a) in by_category {
                            push(t, cat, acc(a), 100.0);
                        }
                    }
                }
                (
                    Figures::Mmopera {
                        sr,
                        hr4,
                        hr3,
                        dhr,
                        sr_proc,
                    },
                    b,
                ) => {
                    let (t2, proc_col) = if b == Benchmark::MmoperaRia {
                        ("mmopera-table2-ria", "RIA Avg. Reasoning Score")
                    } else {
                        ("mmopera-table2-ica", "ICA Avg. Reasoning Score")
                    };
                    if let Some(t) = table(t2) {
                        push(t, "SR", val(sr), 100.0);
                        push(t, "HR-4", val(hr4), 100.0);
                        push(t, "HR-3", val(hr3), 100.0);
                        push(t, "ΔHR", val(dhr), 100.0);
                    }
                    if let Some(t) = table("mmopera-table3") {
                        push(t, proc_col, val(sr_proc), 1.0);
                    }
                }
                _ => {}
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::publish::bundle::{Coverage, ModelIndex};
    use std::collections::BTreeMap;

    #[test]
    fn mmiq_mean_is_flagged_outside_the_interval() {
        // MM-IQ Table 2 reports GPT-4o's Mean as 26.87 (2 decimals, public/data/mmiq.json).
        let b = ReportedBundle::parse(
            "mmiq.json",
            include_str!("../../../../public/data/mmiq.json"),
        )
        .unwrap();
        let run = |k: u64, n: u64| {
            let a = crate::mmiq::Accuracy::new(k, n).unwrap();
            RunIndex {
                benchmark: Benchmark::Mmiq,
                figures: Figures::Mmiq {
                    overall: a.into(),
                    by_category: BTreeMap::new(),
                },
                coverage: Coverage {
                    scored: n as usize,
                    of: Some(2710),
                    notes: vec![],
                },
                settings: BTreeMap::from([("extractor".into(), "regex".into())]),
                files: vec![],
                mmopera_row: None,
            }
        };
        let index = |r: RunIndex, name: &str| Index {
            format: 1,
            coglab: "t".into(),
            title: None,
            manifest_sha256: String::new(),
            keys: vec![],
            mmiq_key_chunk: None,
            ranks: vec![],
            models: vec![ModelIndex {
                name: name.into(),
                meta: Default::default(),
                chunk: String::new(),
                runs: vec![r],
            }],
            audit: vec![],
        };
        // 728 / 2710 = 26.863%: Wilson interval about [25.2, 28.6] holds 26.87: not flagged.
        let a = audit(&index(run(728, 2710), "gpt-4o"), std::slice::from_ref(&b));
        assert_eq!(a.len(), 1);
        assert_eq!(a[0].reported, 26.87);
        assert!((a[0].computed - 26.863_468_634_686_35).abs() < 1e-3);
        assert!((a[0].gap - (26.8635 - 26.87)).abs() < 1e-3);
        assert!(!a[0].flagged);
        assert!(a[0].explain.contains(&"extractor: regex".to_string()));
        // 600 / 2710 = 22.14%: Wilson upper bound 23.76% < 26.87: flagged.
        // (Wilson: p = 0.2214, z = 1.96, centre (p + z²/2n)/(1 + z²/n) = 0.22179,
        // half-width z·sqrt(p(1−p)/n + z²/4n²)/(1 + z²/n) = 0.01563 → [20.62, 23.74].)
        let a = audit(&index(run(600, 2710), "GPT-4o"), &[b]);
        assert!(a[0].flagged);
        assert!(
            a[0].interval.1 < 23.8 && a[0].interval.1 > 23.7,
            "{:?}",
            a[0].interval
        );
    }
}
