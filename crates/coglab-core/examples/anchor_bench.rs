//! Issue 40's anchor-item figures (BENCHMARKS.md, "Anchor items (issue 40)"): simulated
//! 2PL-with-guessing data (4 options) on 2,710 items; a calibration of 300 complete runs (and
//! of 50 and 20 other complete runs on the same items); 200 test respondents per seed. For
//! K = 100 and K = 500: the IRT estimate ([`estimate_with`]) when each test respondent answers K
//! random items, and when all answer the K anchors chosen on the calibration
//! ([`anchor_items`], information and cluster methods), and tinyBenchmarks' weighted estimate on
//! the anchors. Mean absolute error (accuracy points) against each respondent's own full-run
//! accuracy, coverage of the 95% interval (%), mean width (points).
//!
//! Run: `cargo run -p coglab-core --release --example anchor_bench` (optionally seeds as
//! arguments; default 40 to 43). Exits with status 1 when an acceptance check fails (K = 100,
//! 300 calibration respondents: anchors' MAE at least 20% below random items', coverage in
//! [92%, 98%]).

use coglab_core::items::anchor::{anchor_items, weighted_estimate, AnchorMethod, AnchorOptions};
use coglab_core::items::estimate::{
    estimate_with, Calibration, CalibrationOptions, EstimateOptions,
};
use coglab_core::items::simulate::{keep_items, keep_random, respond, simulate, SimOptions};
use coglab_core::items::ResponseMatrix;
use std::collections::BTreeMap;
use std::time::Instant;

#[derive(Default, Clone, Copy)]
struct Sums {
    mae: f64,
    cover: f64,
    width: f64,
    bias: f64,
    n: f64,
}

fn add(s: &mut Sums, est: f64, lo: f64, hi: f64, truth: f64) {
    s.mae += (est - truth).abs();
    s.bias += est - truth;
    s.cover += f64::from(u8::from(lo <= truth && truth <= hi));
    s.width += hi - lo;
    s.n += 1.0;
}

fn irt(cal: &Calibration, p: &ResponseMatrix, truth: &[f64], s: &mut Sums) {
    let opts = EstimateOptions {
        min_calibration: 0,
        ..EstimateOptions::default()
    };
    for (e, t) in estimate_with(cal, p, &opts)
        .expect("estimate")
        .iter()
        .zip(truth)
    {
        add(s, e.estimate, e.ci_low, e.ci_high, *t);
    }
}

fn main() {
    let mut seeds: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|s| s.parse().ok())
        .collect();
    if seeds.is_empty() {
        seeds = vec![40, 41, 42, 43];
    }
    let cal_sizes = [300usize, 50, 20];
    let ks = [100usize, 500];
    // (calibration, K, row label) -> sums.
    let mut rows: BTreeMap<(usize, usize, &str), Sums> = BTreeMap::new();
    let mut pick_secs: BTreeMap<(usize, &str), f64> = BTreeMap::new();
    let mut predicted: BTreeMap<(usize, usize), f64> = BTreeMap::new();
    for &seed in &seeds {
        let sim = simulate(&SimOptions {
            respondents: 300,
            items: 2710,
            options: 4,
            seed,
            ..SimOptions::default()
        })
        .expect("simulate");
        let g = sim.guess;
        let test = respond(&sim.items, g, 200, seed + 1, "t").expect("test respondents");
        let truth: Vec<f64> = test.respondents.iter().map(|r| r.accuracy).collect();
        let oracle = Calibration::from_params(&sim.items, g, 0).expect("oracle");
        for &n_cal in &cal_sizes {
            let cal_m = if n_cal == 300 {
                sim.matrix.clone()
            } else {
                respond(&sim.items, g, n_cal, seed + 10 + n_cal as u64, "c")
                    .expect("calibration")
                    .matrix
            };
            let cal = Calibration::fit(&cal_m, &CalibrationOptions::default()).expect("fit");
            for &k in &ks {
                let random = keep_random(&test.matrix, k, seed + 3 + k as u64).expect("partial");
                irt(
                    &cal,
                    &random,
                    &truth,
                    rows.entry((n_cal, k, "random, IRT")).or_default(),
                );
                if n_cal == 300 {
                    irt(
                        &oracle,
                        &random,
                        &truth,
                        rows.entry((n_cal, k, "random, IRT oracle")).or_default(),
                    );
                }
                let methods: &[AnchorMethod] = if k == 100 {
                    &[AnchorMethod::Information, AnchorMethod::Cluster]
                } else {
                    &[AnchorMethod::Information]
                };
                for &method in methods {
                    let t0 = Instant::now();
                    let set = anchor_items(
                        &cal,
                        &AnchorOptions {
                            k,
                            method,
                            seed,
                            ..AnchorOptions::default()
                        },
                    )
                    .expect("anchors");
                    let name = match method {
                        AnchorMethod::Information => "information",
                        AnchorMethod::Cluster => "cluster",
                    };
                    *pick_secs.entry((k, name)).or_default() += t0.elapsed().as_secs_f64();
                    if method == AnchorMethod::Information {
                        *predicted.entry((n_cal, k)).or_default() += set.predicted_sd;
                    }
                    let idx: Vec<usize> = set.anchors.iter().map(|a| a.index).collect();
                    let partial = keep_items(&test.matrix, &idx).expect("partial");
                    let (irt_label, w_label) = match method {
                        AnchorMethod::Information => (
                            "anchors (information), IRT",
                            "anchors (information), weighted",
                        ),
                        AnchorMethod::Cluster => {
                            ("anchors (cluster), IRT", "anchors (cluster), weighted")
                        }
                    };
                    irt(
                        &cal,
                        &partial,
                        &truth,
                        rows.entry((n_cal, k, irt_label)).or_default(),
                    );
                    if n_cal == 300 && method == AnchorMethod::Information {
                        irt(
                            &oracle,
                            &partial,
                            &truth,
                            rows.entry((n_cal, k, "anchors (information), IRT oracle"))
                                .or_default(),
                        );
                    }
                    let w = weighted_estimate(&set, &partial);
                    let s = rows.entry((n_cal, k, w_label)).or_default();
                    for (e, t) in w.iter().zip(&truth) {
                        let x = e.estimate.unwrap_or(0.0);
                        add(s, x, x, x, *t);
                    }
                }
            }
        }
        eprintln!("seed {seed} done");
    }
    println!(
        "seeds {seeds:?}: 2,710 items, 4 options (g = 0.25), 200 test respondents per seed; \
         MAE and bias in accuracy points, coverage of the 95% interval in %, width in points"
    );
    println!(
        "{:>5} {:>4} {:<36} {:>6} {:>9} {:>9} {:>7} {:>7}",
        "calib", "K", "items, estimator", "MAE", "vs random", "coverage", "width", "bias"
    );
    let mut ok = true;
    for &n_cal in &cal_sizes {
        for &k in &ks {
            let base = rows[&(n_cal, k, "random, IRT")].mae;
            for ((c, kk, label), s) in &rows {
                if *c != n_cal || *kk != k {
                    continue;
                }
                let weighted = label.ends_with("weighted");
                println!(
                    "{:>5} {:>4} {:<36} {:>6.2} {:>9.3} {:>9} {:>7} {:>7.2}",
                    n_cal,
                    k,
                    label,
                    100.0 * s.mae / s.n,
                    s.mae / base,
                    if weighted {
                        "-".into()
                    } else {
                        format!("{:.1}", 100.0 * s.cover / s.n)
                    },
                    if weighted {
                        "-".into()
                    } else {
                        format!("{:.2}", 100.0 * s.width / s.n)
                    },
                    100.0 * s.bias / s.n
                );
            }
            println!(
                "{:>5} {:>4} predicted SD of the anchors' IRT estimate: {:.2} points",
                n_cal,
                k,
                100.0 * predicted[&(n_cal, k)] / seeds.len() as f64
            );
        }
    }
    for ((k, name), t) in &pick_secs {
        println!(
            "choosing {k} anchors ({name}): mean {:.3} s",
            t / (seeds.len() * cal_sizes.len()) as f64
        );
    }
    let a = rows[&(300, 100, "anchors (information), IRT")];
    let r = rows[&(300, 100, "random, IRT")];
    let ratio = a.mae / r.mae;
    let cov = 100.0 * a.cover / a.n;
    println!(
        "acceptance (300 calibration, K = 100): anchors/random MAE {ratio:.3} (goal <= 0.80), \
         coverage {cov:.1}% (goal 92-98%)"
    );
    if ratio > 0.8 || !(92.0..=98.0).contains(&cov) {
        ok = false;
    }
    if !ok {
        std::process::exit(1);
    }
}
