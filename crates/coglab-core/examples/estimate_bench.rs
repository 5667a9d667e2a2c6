//! The acceptance figures of issue 40's estimated full score (BENCHMARKS.md, "Estimated full
//! score (issue 40)"): simulated 2PL-with-guessing data (4 options) on 2,710 items, a
//! calibration of 300 (and 50, 20) complete runs, 200 test respondents each answering a random
//! 100 or 500 items. For each: the mean absolute error (in accuracy points) of the estimate
//! against the respondent's own full-run accuracy, for the estimator with the fitted
//! calibration, with the true item parameters (the oracle), and the plain proportion right on
//! the answered items; and the 95% interval's coverage and mean width.
//!
//! Run: `cargo run -p coglab-core --release --example estimate_bench` (optionally seeds as
//! arguments; default 40 to 43).

use coglab_core::items::estimate::{
    estimate_with, Calibration, CalibrationOptions, EstimateOptions,
};
use coglab_core::items::simulate::{
    keep_items, keep_random, respond, simulate, SimOptions, Simulated,
};
use coglab_core::items::ResponseMatrix;
use coglab_core::stats::rng::Rng;
use std::time::Instant;

struct Row {
    mae: f64,
    /// Mean signed error (estimate - truth), points.
    bias: f64,
    coverage: f64,
    width: f64,
}

fn score(cal: &Calibration, partial: &ResponseMatrix, truth: &Simulated) -> Row {
    let opts = EstimateOptions {
        min_calibration: 0,
        ..EstimateOptions::default()
    };
    let est = estimate_with(cal, partial, &opts).expect("estimate");
    let n = est.len() as f64;
    let (mut mae, mut cov, mut width, mut bias) = (0.0, 0.0, 0.0, 0.0);
    for (e, r) in est.iter().zip(&truth.respondents) {
        mae += (e.estimate - r.accuracy).abs();
        bias += e.estimate - r.accuracy;
        cov += f64::from(u8::from(e.ci_low <= r.accuracy && r.accuracy <= e.ci_high));
        width += e.ci_high - e.ci_low;
    }
    Row {
        mae: 100.0 * mae / n,
        bias: 100.0 * bias / n,
        coverage: 100.0 * cov / n,
        width: 100.0 * width / n,
    }
}

fn plain(partial: &ResponseMatrix, truth: &Simulated) -> f64 {
    let n = truth.respondents.len() as f64;
    truth
        .respondents
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let (k, right) = partial.respondent_counts(i);
            (right as f64 / k as f64 - r.accuracy).abs()
        })
        .sum::<f64>()
        * 100.0
        / n
}

/// Sums of one (calibration size, partial kind) cell over the seeds.
#[derive(Default, Clone)]
struct Cell {
    ours: [f64; 3],
    /// Mean signed error of ours, summed over the seeds.
    bias: f64,
    oracle: [f64; 3],
    plain: f64,
    runs: f64,
}

const CAL_SIZES: [usize; 5] = [300, 150, 100, 50, 20];
const KINDS: [&str; 3] = ["random 100 each", "random 500 each", "same 500 for all"];

fn main() {
    // Seeds: the arguments, else 40 to 43 (four replications of 200 test respondents).
    let mut seeds: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|s| s.parse().ok())
        .collect();
    if seeds.is_empty() {
        seeds = vec![40, 41, 42, 43];
    }
    let mut cells = vec![vec![Cell::default(); KINDS.len()]; CAL_SIZES.len()];
    let mut fit_secs = vec![Vec::new(); CAL_SIZES.len()];
    let mut est_secs: Vec<f64> = Vec::new();
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
        let oracle = Calibration::from_params(&sim.items, g, 0).expect("oracle");
        // A fixed 500-item subset shared by every test respondent (as MM-IQ's subset).
        let mut order: Vec<usize> = (0..2710).collect();
        Rng::new(seed + 2).shuffle(&mut order);
        let partials = [
            keep_random(&test.matrix, 100, seed + 3).expect("partial"),
            keep_random(&test.matrix, 500, seed + 4).expect("partial"),
            keep_items(&test.matrix, &order[..500]).expect("partial"),
        ];
        let orc: Vec<Row> = partials.iter().map(|p| score(&oracle, p, &test)).collect();
        for (c, &n_cal) in CAL_SIZES.iter().enumerate() {
            let cal_m = if n_cal == 300 {
                sim.matrix.clone()
            } else {
                respond(&sim.items, g, n_cal, seed + 10 + n_cal as u64, "c")
                    .expect("calibration")
                    .matrix
            };
            let t0 = Instant::now();
            let cal = Calibration::fit(&cal_m, &CalibrationOptions::default()).expect("fit");
            fit_secs[c].push((t0.elapsed().as_secs_f64(), cal.iterations, cal.converged));
            for (k, partial) in partials.iter().enumerate() {
                let t1 = Instant::now();
                let ours = score(&cal, partial, &test);
                est_secs.push(t1.elapsed().as_secs_f64());
                let cell = &mut cells[c][k];
                cell.ours[0] += ours.mae;
                cell.bias += ours.bias;
                cell.ours[1] += ours.coverage;
                cell.ours[2] += ours.width;
                cell.oracle[0] += orc[k].mae;
                cell.oracle[1] += orc[k].coverage;
                cell.oracle[2] += orc[k].width;
                cell.plain += plain(partial, &test);
                cell.runs += 1.0;
            }
        }
    }
    println!(
        "seeds {seeds:?}: 2,710 items, 4 options (g = 0.25), 200 test respondents per seed; \
         means over the seeds"
    );
    println!(
        "MAE and bias (mean of estimate - truth) in accuracy points; coverage of the 95% \
         interval (%); mean width (points)"
    );
    println!(
        "{:>5} {:<17} {:>9} {:>10} {:>9} {:>12} {:>14} {:>10} {:>12} {:>10}",
        "calib",
        "partial",
        "MAE ours",
        "MAE oracle",
        "MAE plain",
        "ours/oracle",
        "coverage ours",
        "cov oracle",
        "width ours",
        "bias ours"
    );
    for (c, &n_cal) in CAL_SIZES.iter().enumerate() {
        for (k, kind) in KINDS.iter().enumerate() {
            let x = &cells[c][k];
            let n = x.runs;
            println!(
                "{:>5} {:<17} {:>9.2} {:>10.2} {:>9.2} {:>12.3} {:>14.1} {:>10.1} {:>12.2} {:>10.2}",
                n_cal,
                kind,
                x.ours[0] / n,
                x.oracle[0] / n,
                x.plain / n,
                x.ours[0] / x.oracle[0],
                x.ours[1] / n,
                x.oracle[1] / n,
                x.ours[2] / n,
                x.bias / n
            );
        }
    }
    for (c, &n_cal) in CAL_SIZES.iter().enumerate() {
        let f = &fit_secs[c];
        let mean = f.iter().map(|x| x.0).sum::<f64>() / f.len() as f64;
        let max = f.iter().map(|x| x.0).fold(0.0, f64::max);
        let cycles: Vec<usize> = f.iter().map(|x| x.1).collect();
        let all = f.iter().all(|x| x.2);
        println!(
            "fit {n_cal} x 2,710: mean {mean:.2} s, max {max:.2} s, EM cycles {cycles:?}, all converged {all}"
        );
    }
    let mean_est = est_secs.iter().sum::<f64>() / est_secs.len() as f64;
    println!("estimate, 200 partial respondents: mean {mean_est:.2} s");
}
