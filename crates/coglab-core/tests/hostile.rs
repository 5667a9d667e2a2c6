//! Issue 27 ("Hostile input"), core side: bounded counts (defect 2), stable standardization
//! of extreme magnitudes (7), silently accepted mistakes (9) and order-independent seeded
//! resampling (11). Each test reproduced its defect before the fix.

use coglab_core::limits::{LimitError, MAX_BOOTSTRAP, MAX_RESAMPLES};
use coglab_core::mmiq::{compare, score, AnswerKey, Predictions};
use coglab_core::sem::bootstrap::BootstrapOptions;
use coglab_core::sem::data::Missing;
use coglab_core::sem::{analyze, SemError, SemOptions};
use coglab_core::stats::agreement::paired_permutation_test;
use coglab_core::stats::paired::{paired_bootstrap_diff, paired_bootstrap_mean_diff};
use coglab_core::stats::StatsError;

const PRUNE_CSV: &str = include_str!("fixtures/sem/prune.csv");
const SPEC: &str = r#"{"constructs": {"A": ["a1", "a2", "a3"], "B": ["b1", "b2"]},
    "paths": [["A", "B"]]}"#;

fn limit(name: &'static str, found: u64, min: usize, max: usize) -> LimitError {
    LimitError {
        name,
        found,
        min,
        max,
    }
}

/// Defect 2: the core refuses counts above the stated maxima itself, so the web app (which
/// calls the core, not the CLI) gets the same limit and message. `usize::MAX` used to panic
/// with a capacity overflow.
#[test]
fn counts_above_the_maxima_are_errors_in_the_core() {
    let (a, b) = ([true, false, true], [false, false, true]);
    let e = paired_bootstrap_diff(&a, &b, usize::MAX, 1, 0.95).unwrap_err();
    assert_eq!(
        e,
        StatsError::Limit(limit("resamples", usize::MAX as u64, 1, MAX_RESAMPLES))
    );
    assert_eq!(
        e.to_string(),
        format!("resamples: at most 1000000 allowed, found {}", usize::MAX)
    );
    let (x, y) = ([1.0, 2.0, 3.0], [0.5, 2.5, 1.0]);
    assert!(matches!(
        paired_bootstrap_mean_diff(&x, &y, MAX_RESAMPLES + 1, 1, 0.95),
        Err(StatsError::Limit(_))
    ));
    // 70 pairs so the test samples (2^70 patterns > resamples) rather than enumerates.
    let xs: Vec<f64> = (0..70).map(f64::from).collect();
    let ys: Vec<f64> = (0..70).map(|i| f64::from(i) * 0.5).collect();
    assert!(matches!(
        paired_permutation_test(&xs, &ys, 1_000_000_000_000, 1),
        Err(StatsError::Limit(_))
    ));
    assert!(matches!(
        paired_permutation_test(&xs, &ys, 0, 1),
        Err(StatsError::Limit(_))
    ));
    for (resamples, min) in [(1_000_000_000_000usize, 2), (1, 2)] {
        let opts = SemOptions {
            bootstrap: Some(BootstrapOptions { resamples, seed: 1 }),
            ..SemOptions::default()
        };
        let e = analyze(SPEC, "s.json", PRUNE_CSV.as_bytes(), "prune.csv", &opts).unwrap_err();
        assert_eq!(
            e,
            SemError::Limit(limit("bootstrap", resamples as u64, min, MAX_BOOTSTRAP))
        );
    }
}

/// The streamed (binned) bootstrap of a 0/1 difference gives what the list of resampled
/// means gave. The reference is the same draws done by hand: `Rng::new(7)` drawing indices,
/// means listed, sorted and interpolated (numpy's linear rule) in this test.
#[test]
fn binned_bootstrap_equals_the_listed_one() {
    use coglab_core::stats::rng::Rng;
    let a = [
        true, true, false, true, false, true, true, false, true, true,
    ];
    let b = [
        false, true, false, false, false, true, false, true, true, false,
    ];
    let d: Vec<f64> = a
        .iter()
        .zip(&b)
        .map(|(&x, &y)| f64::from(u8::from(x)) - f64::from(u8::from(y)))
        .collect();
    let (resamples, n) = (999, d.len());
    let mut rng = Rng::new(7);
    let mut means: Vec<f64> = (0..resamples)
        .map(|_| (0..n).map(|_| d[rng.below(n)]).sum::<f64>() / n as f64)
        .collect();
    means.sort_by(f64::total_cmp);
    let q = |p: f64| {
        let h = (resamples - 1) as f64 * p;
        let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
        means[lo] + (h - lo as f64) * (means[hi] - means[lo])
    };
    let got = paired_bootstrap_diff(&a, &b, resamples, 7, 0.9).unwrap();
    assert_eq!(got.low, q(0.05));
    assert_eq!(got.high, q(0.95));
    // 4 more correct in A than in B over 10 items.
    assert_eq!(got.estimate, 0.3);
}

fn mmiq_files(n: u64, reverse_a: bool) -> (AnswerKey, Predictions, Predictions) {
    let cats = ["Mathematical", "Logical Operation", "2D-Geometry"];
    let key: String = (0..n)
        .map(|i| {
            format!(
                "{{\"category\": \"{}\", \"data_id\": {i}, \"answer\": \"A\"}}\n",
                cats[(i % 3) as usize]
            )
        })
        .collect();
    // A is right on items where i % 3 != 0, B where i % 4 != 0.
    let mut rows_a: Vec<String> = (0..n)
        .map(|i| {
            let p = if i % 3 != 0 { "A" } else { "B" };
            format!("{{\"data_id\": {i}, \"parsed_pred\": \"{p}\"}}\n")
        })
        .collect();
    if reverse_a {
        rows_a.reverse();
    }
    let rows_b: String = (0..n)
        .map(|i| {
            let p = if i % 4 != 0 { "A" } else { "C" };
            format!("{{\"data_id\": {i}, \"parsed_pred\": \"{p}\"}}\n")
        })
        .collect();
    (
        AnswerKey::parse("key.jsonl", &key).unwrap(),
        Predictions::parse("a.jsonl", rows_a.concat().as_bytes()).unwrap(),
        Predictions::parse("b.jsonl", rows_b.as_bytes()).unwrap(),
    )
}

/// Defect 11: with a seed, the MM-IQ paired bootstrap depends on the items and the seed
/// only, not on the order of the rows in the files.
#[test]
fn mmiq_paired_bootstrap_ignores_row_order() {
    let run = |reverse| {
        let (key, a, b) = mmiq_files(60, reverse);
        let ra = score(&key, &a).unwrap();
        let rb = score(&key, &b).unwrap();
        compare(&ra, &rb, 2000, 11).unwrap().difference
    };
    let (fwd, rev) = (run(false), run(true));
    // 40 of 60 right in A, 45 of 60 in B: estimate -5/60.
    assert!((fwd.estimate - (-5.0 / 60.0)).abs() < 1e-15);
    assert_eq!((fwd.low, fwd.high), (rev.low, rev.high));
}

/// Defect 11: the SEM bootstrap of the same rows in another order gives the same intervals
/// (up to the last bits of the standardization, which sums in file order).
#[test]
fn sem_bootstrap_ignores_row_order() {
    let mut lines: Vec<&str> = PRUNE_CSV.lines().collect();
    let reversed = {
        let mut body = lines.split_off(1);
        body.reverse();
        lines.extend(body);
        lines.join("\n")
    };
    let opts = SemOptions {
        bootstrap: Some(BootstrapOptions {
            resamples: 300,
            seed: 5,
        }),
        missing: Missing::Listwise,
        ..SemOptions::default()
    };
    let a = analyze(SPEC, "s.json", PRUNE_CSV.as_bytes(), "prune.csv", &opts).unwrap();
    let b = analyze(SPEC, "s.json", reversed.as_bytes(), "rev.csv", &opts).unwrap();
    let (ba, bb) = (a.bootstrap.unwrap(), b.bootstrap.unwrap());
    assert_eq!(ba.failed, bb.failed);
    for (k, x) in &ba.paths {
        let y = &bb.paths[k];
        for (u, v) in [(x.ci_low, y.ci_low), (x.ci_high, y.ci_high), (x.se, y.se)] {
            assert!((u - v).abs() < 1e-12, "{k}: {u} vs {v}");
        }
    }
}

/// prune.csv with column `a1` multiplied by `factor` (written with `{:e}`, which reads back
/// to the same f64).
fn prune_scaled(factor: f64) -> String {
    PRUNE_CSV
        .lines()
        .enumerate()
        .map(|(i, line)| {
            if i == 0 {
                return line.to_string();
            }
            let mut cells: Vec<String> = line.split(',').map(str::to_string).collect();
            let v: f64 = cells[1].parse().unwrap();
            cells[1] = format!("{:e}", v * factor);
            cells.join(",")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Defect 7: an indicator of ±1e308-scale or 1e-310-scale values was called "constant (zero
/// variance)" because its squares overflowed or underflowed. Standardized figures do not
/// depend on an indicator's scale, so they must equal those of the unscaled file.
#[test]
fn sem_standardizes_extreme_magnitudes() {
    let opts = SemOptions::default();
    let base = analyze(SPEC, "s.json", PRUNE_CSV.as_bytes(), "prune.csv", &opts).unwrap();
    for factor in [1e306, -1e306, 1e-310] {
        let data = prune_scaled(factor);
        let r = analyze(SPEC, "s.json", data.as_bytes(), "scaled.csv", &opts)
            .unwrap_or_else(|e| panic!("x{factor:e}: {e}"));
        for (k, v) in &base.paths {
            assert!((r.paths[k] - v).abs() < 1e-9, "x{factor:e} path {k}");
        }
        for (k, e) in &base.outer {
            // A negative factor flips the indicator's sign, and with it its loading.
            let sign = if k == "a1" { factor.signum() } else { 1.0 };
            let got = r.outer[k].loading;
            assert!(
                (got - sign * e.loading).abs() < 1e-9,
                "x{factor:e} {k}: {got} vs {}",
                e.loading
            );
        }
    }
}

/// Defect 7, `describe`: the median of -1e308, ..., 1e308 was reported as inf (the true
/// median is 0) and the Cramér-von Mises test ran on inf/NaN.
#[test]
fn describe_handles_extreme_magnitudes() {
    use coglab_core::sem::describe::describe_values;
    // Symmetric around 0: mean 0, median (0 + 0)/2 = 0 by hand.
    let unit = [-3.0, -2.0, -1.0, 0.0, 0.0, 1.0, 2.0, 3.0];
    let reference = describe_values(&unit).unwrap();
    // sd of the unit values: Σx² = 28, /7 -> sqrt(4) = 2.
    assert!((reference.sd.unwrap() - 2.0).abs() < 1e-15);
    for c in [1e308 / 3.0, 1e-310] {
        let xs: Vec<f64> = unit.iter().map(|x| x * c).collect();
        let d = describe_values(&xs).unwrap();
        assert_eq!(d.median, 0.0, "x{c:e}");
        assert_eq!(d.mean, 0.0, "x{c:e}");
        let sd = d.sd.expect("sd computed");
        assert!((sd / c - 2.0).abs() < 1e-9, "x{c:e}: sd {sd:e}");
        // Scale-free figures equal those of the unit values.
        let (w, w0) = (d.cvm_w.expect("W computed"), reference.cvm_w.unwrap());
        assert!((w - w0).abs() < 1e-12, "x{c:e}: W {w} vs {w0}");
        assert!(d.skewness.unwrap().abs() < 1e-12);
        assert!((d.excess_kurtosis.unwrap() - reference.excess_kurtosis.unwrap()).abs() < 1e-12);
    }
    // A standard deviation beyond f64 is refused, not reported as inf: ±1.7e308 has
    // sd = 1.7e308 · sqrt(8/7) > f64::MAX.
    let huge = [
        -1.7e308, 1.7e308, -1.7e308, 1.7e308, -1.7e308, 1.7e308, -1.7e308, 1.7e308,
    ];
    let d = describe_values(&huge).unwrap();
    assert_eq!(d.sd, None);
    assert_eq!(d.median, 0.0);
}

/// The score matrix of `listwise_deletion_of_most_models_warns` (coglab-cli's hostile_cli.rs):
/// 30 models, a1 missing for models 0..`a1_missing`, b2 for the next two.
fn sparse_csv(a1_missing: u32) -> String {
    let mut csv = String::from("model,a1,a2,b1,b2\n");
    for i in 0..30u32 {
        let x = f64::from(i * 7 % 11);
        let y = f64::from(i * 5 % 13);
        let a1 = if i < a1_missing {
            "NA".to_string()
        } else {
            format!("{}", x + 1.0)
        };
        let b2 = if (a1_missing..a1_missing + 2).contains(&i) {
            "NA".to_string()
        } else {
            format!("{}", y - x / 2.0)
        };
        csv.push_str(&format!("m{i},{a1},{},{y},{b2}\n", x * 2.0 - y / 3.0));
    }
    csv
}

/// Defect 9, in the core: listwise deletion above `limits::LISTWISE_WARN_SHARE` is a warning
/// value in the report (so the web worker hands it to the Structure page, and the CLI prints
/// it from the same value), with the rows dropped and each analysed column's missing cells.
/// 30 models, a1 missing in 20 and b2 in 2 others: 22 of 30 dropped (22/30 = 73.3%), 8 used.
/// With a1 missing in 13: 15 of 30 dropped, exactly one half, which is not above the share.
#[test]
fn listwise_deletion_of_most_models_is_a_warning_in_the_report() {
    use coglab_core::sem::analysis::{ColumnCost, ListwiseWarning};
    let spec = r#"{"constructs": {"A": ["a1", "a2"], "B": ["b1", "b2"]}, "paths": [["A", "B"]]}"#;
    let opts = SemOptions::default();
    let r = analyze(
        spec,
        "spec.json",
        sparse_csv(20).as_bytes(),
        "sparse.csv",
        &opts,
    )
    .unwrap();
    let w = r
        .listwise_warning
        .clone()
        .expect("a warning above one half");
    assert_eq!(
        w,
        ListwiseWarning {
            dropped: 22,
            total: 30,
            used: 8,
            warn_share: 0.5,
            missing_by_column: vec![
                ColumnCost {
                    column: "a1".into(),
                    missing: 20
                },
                ColumnCost {
                    column: "b2".into(),
                    missing: 2
                },
            ],
        }
    );
    assert_eq!(
        w.to_string(),
        "listwise deletion dropped 22 of 30 models (73.3%), above the 50% warning share; the \
         analysis uses 8 models. Missing cells by column: a1 20, b2 2"
    );
    // The JSON report carries it under `listwise_warning`.
    let json = serde_json::to_value(r).unwrap();
    assert_eq!(json["listwise_warning"]["dropped"], 22);
    assert_eq!(
        json["listwise_warning"]["missing_by_column"][0]["column"],
        "a1"
    );

    let half = analyze(
        spec,
        "spec.json",
        sparse_csv(13).as_bytes(),
        "sparse.csv",
        &opts,
    )
    .unwrap();
    assert_eq!((half.dropped_models.len(), half.n_models), (15, 15));
    assert_eq!(half.listwise_warning, None);
    // Mean imputation drops nothing.
    let mean = SemOptions {
        missing: Missing::Mean,
        ..SemOptions::default()
    };
    let r = analyze(
        spec,
        "spec.json",
        sparse_csv(20).as_bytes(),
        "sparse.csv",
        &mean,
    )
    .unwrap();
    assert_eq!(r.listwise_warning, None);
}

/// Issue 27 (no input of 10 MB may run more than 20 s): `coglab agree` on two judges' files of
/// 90,000 items (10 MB) drew 10,000 x 90,000 = 900 million signs (38 s in a debug build, 10.6 s
/// in release at load 12; at --resamples 1000000, a hundred times that). The permutation test
/// refuses more than `limits::MAX_RESAMPLED_DRAWS` draws: 200,000,000 / 90,000 = 2,222 fit.
/// An exact test (2^n patterns for few pairs) is not limited by it.
#[test]
fn a_permutation_test_of_too_many_draws_is_refused() {
    let a: Vec<f64> = (0..90_000).map(|i| f64::from(i % 5)).collect();
    let b: Vec<f64> = (0..90_000).map(|i| f64::from((i + 1) % 5)).collect();
    let e = paired_permutation_test(&a, &b, 10_000, 1).unwrap_err();
    assert_eq!(
        e.to_string(),
        "resamples: 10000 resamples of 90000 items make 900000000 draws, more than the \
         200000000 allowed; use at most 2222 resamples"
    );
    // 2,222 x 90,000 = 199,980,000 draws: allowed (not run here: a debug build takes seconds).
    assert!(coglab_core::limits::check_draws("resamples", 2222, 90_000, "items").is_ok());
    // Ten pairs, exact: 2^10 = 1,024 sign patterns.
    let t = paired_permutation_test(&a[..10], &b[..10], 1_000_000, 1).unwrap();
    assert!(t.exact && t.p > 0.0);
}

/// Issue 27 (no input of 10 MB may run more than 20 s): `coglab sem --bootstrap 100000` on a
/// 20,000-model matrix refits the model 100,000 times on 20,000 x 4 cells (500 resamples took
/// 0.59 s in a release build at load 12, so 100,000 would take about 2 minutes). The bootstrap
/// refuses more than `limits::MAX_RESAMPLED_DRAWS` resampled cells: the default 5,000
/// resamples x 80,000 cells = 400,000,000; 200,000,000 / 80,000 = 2,500 fit.
#[test]
fn a_sem_bootstrap_of_too_many_cells_is_refused() {
    let mut csv = String::from("model,a1,a2,b1,b2\n");
    for i in 0..20_000u64 {
        let x = (i * 7919 % 1000) as f64;
        let y = (i * 104_729 % 997) as f64;
        csv.push_str(&format!("m{i},{x},{},{y},{}\n", x + y / 3.0, y - x / 5.0));
    }
    let spec = r#"{"constructs": {"A": ["a1", "a2"], "B": ["b1", "b2"]}, "paths": [["A", "B"]]}"#;
    let opts = |resamples| SemOptions {
        bootstrap: Some(BootstrapOptions { resamples, seed: 1 }),
        ..SemOptions::default()
    };
    let e = analyze(spec, "s.json", csv.as_bytes(), "tall.csv", &opts(5000)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "bootstrap: 5000 resamples of 80000 cells (models x columns) make 400000000 draws, more \
         than the 200000000 allowed; use at most 2500 resamples"
    );
    // Within the bound the bootstrap runs (20 resamples).
    let r = analyze(spec, "s.json", csv.as_bytes(), "tall.csv", &opts(20)).unwrap();
    assert_eq!(r.bootstrap.unwrap().resamples, 20);
}
