//! Item analysis speed (issue 22): the Rasch and 2PL fits, S-X2 and the full analysis on an
//! MM-IQ-sized matrix.
//!
//! 2,710 items x 300 respondents (the size of MM-IQ answered by 300 models), simulated
//! in-process from a 2PL with a seeded generator (a in [0.5, 2.5], b in [-2, 2],
//! theta ~ N(0, 1)), no missing cells. The acceptance figure is 0.5 s natively for each fit and
//! for the full analysis (matrix statistics, fit, S-X2, flags, subset, page report).
//!
//! Run: `cargo bench -p coglab-core --bench items`.

use coglab_core::items::matrix::{ItemInfo, RespondentInfo};
use coglab_core::items::{
    analyse, analyse_report, fit, s_x2, AnalysisOptions, IrtModel, IrtOptions, ReportOptions,
    ResponseMatrix, Sx2Options,
};
use coglab_core::stats::rng::Rng;
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::time::Duration;

const ITEMS: usize = 2710;
const RESPONDENTS: usize = 300;

fn normal(rng: &mut Rng) -> f64 {
    let u1 = rng.next_f64().max(1e-300);
    let u2 = rng.next_f64();
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

fn matrix() -> ResponseMatrix {
    let mut rng = Rng::new(2710);
    let a: Vec<f64> = (0..ITEMS).map(|_| 0.5 + 2.0 * rng.next_f64()).collect();
    let b: Vec<f64> = (0..ITEMS).map(|_| -2.0 + 4.0 * rng.next_f64()).collect();
    let mut cells = Vec::with_capacity(ITEMS * RESPONDENTS);
    for _ in 0..RESPONDENTS {
        let t = normal(&mut rng);
        for (aj, bj) in a.iter().zip(&b) {
            let p = 1.0 / (1.0 + (-aj * (t - bj)).exp());
            cells.push(Some(rng.next_f64() < p));
        }
    }
    let items = (0..ITEMS).map(|j| ItemInfo::new(format!("{j}"))).collect();
    let resp = (0..RESPONDENTS)
        .map(|i| RespondentInfo {
            id: format!("model{i}"),
            group: Some("model".into()),
        })
        .collect();
    ResponseMatrix::new("bench", items, resp, &cells).expect("a valid simulated matrix")
}

/// `tests/e2e/bench-items.mjs`'s matrix, the same cells natively: item i has a in [0.5, 2.5]
/// and b in [-2, 2] from a fixed hash of (i, 100003) and (i, 100019); respondent j's theta is
/// the normal quantile of (j + 0.5) / 300; right when the hash of (i, j) is below P(right).
/// EM needs 69 cycles here (15 on [`matrix`]).
fn grid_matrix() -> ResponseMatrix {
    fn u(i: u64, j: u64) -> f64 {
        let mut h = i
            .wrapping_mul(2_654_435_761)
            .wrapping_add(j * 40_503)
            .wrapping_add(12_345) as u32;
        h ^= h >> 15;
        h = h.wrapping_mul(2_246_822_519);
        h ^= h >> 13;
        f64::from(h) / 4_294_967_296.0
    }
    let mut cells = Vec::with_capacity(ITEMS * RESPONDENTS);
    for j in 0..RESPONDENTS {
        let p = (j as f64 + 0.5) / RESPONDENTS as f64;
        let theta = coglab_core::stats::dist::normal_quantile(p).expect("p in (0, 1)");
        for i in 0..ITEMS as u64 {
            let a = 0.5 + 2.0 * u(i, 100_003);
            let b = -2.0 + 4.0 * u(i, 100_019);
            cells.push(Some(
                u(i, j as u64) < 1.0 / (1.0 + (-a * (theta - b)).exp()),
            ));
        }
    }
    let items = (0..ITEMS).map(|j| ItemInfo::new(format!("{j}"))).collect();
    let resp = (0..RESPONDENTS)
        .map(|i| RespondentInfo {
            id: format!("irt_model_{i:03}"),
            group: Some("model".into()),
        })
        .collect();
    ResponseMatrix::new("grid", items, resp, &cells).expect("a valid simulated matrix")
}

fn bench(c: &mut Criterion) {
    let m = matrix();
    let grid = grid_matrix();
    let mut g = c.benchmark_group("items");
    g.sample_size(10).measurement_time(Duration::from_secs(15));
    let two_pl = IrtOptions {
        item_curves: false,
        ..IrtOptions::default()
    };
    g.bench_function("fit_2pl_2710x300", |b| {
        b.iter(|| fit(black_box(&m), &two_pl).expect("fits"))
    });
    g.bench_function("fit_2pl_2710x300_browser_bench_matrix", |b| {
        b.iter(|| fit(black_box(&grid), &two_pl).expect("fits"))
    });
    let rasch = IrtOptions {
        model: IrtModel::Rasch,
        ..two_pl.clone()
    };
    g.bench_function("fit_rasch_2710x300", |b| {
        b.iter(|| fit(black_box(&m), &rasch).expect("fits"))
    });
    let all = AnalysisOptions {
        irt: two_pl.clone(),
        ..AnalysisOptions::default()
    };
    g.bench_function("analyse_2pl_2710x300_with_subset", |b| {
        b.iter(|| analyse(black_box(&m), &all).expect("analyses"))
    });
    let all_rasch = AnalysisOptions {
        irt: rasch.clone(),
        ..AnalysisOptions::default()
    };
    g.bench_function("analyse_rasch_2710x300_with_subset", |b| {
        b.iter(|| analyse(black_box(&m), &all_rasch).expect("analyses"))
    });
    g.bench_function("report_rasch_2710x300", |b| {
        b.iter(|| {
            analyse_report(black_box(&m), &all_rasch, &ReportOptions::default()).expect("reports")
        })
    });
    let fitted = fit(&m, &two_pl).expect("fits");
    g.bench_function("sx2_2pl_2710x300", |b| {
        b.iter(|| s_x2(black_box(&m), &fitted, &Sx2Options::default()))
    });
    g.finish();
    let f = fit(&m, &two_pl).expect("fits");
    let r = fit(&m, &rasch).expect("fits");
    eprintln!(
        "2710 x 300: 2PL converged {} in {} EM cycles; Rasch converged {} in {} EM cycles",
        f.converged, f.iterations, r.converged, r.iterations
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
