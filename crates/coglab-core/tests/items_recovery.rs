//! IRT parameter recovery on simulated 2PL data with known parameters (issue 22).
//!
//! The data are drawn here with the crate's seeded generator, so the true parameters are
//! known independently of the estimator; the tolerances are the (correlation of true
//! and estimated parameters at least 0.95 for 2,000 respondents x 40 items) plus a bound on
//! the largest error that the sampling error at n = 2,000 comfortably meets.

use coglab_core::items::matrix::{ItemInfo, RespondentInfo};
use coglab_core::items::{fit, IrtModel, IrtOptions, ResponseMatrix};
use coglab_core::stats::rng::Rng;

/// A standard normal draw (Box-Muller).
fn normal(rng: &mut Rng) -> f64 {
    let u1 = rng.next_f64().max(1e-300);
    let u2 = rng.next_f64();
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

/// Simulates `n` respondents on items with discriminations `a` and difficulties `b`;
/// `missing` is the chance a cell is left empty.
pub fn simulate(
    seed: u64,
    n: usize,
    a: &[f64],
    b: &[f64],
    missing: f64,
) -> (ResponseMatrix, Vec<f64>) {
    let mut rng = Rng::new(seed);
    let thetas: Vec<f64> = (0..n).map(|_| normal(&mut rng)).collect();
    let mut cells = Vec::with_capacity(n * a.len());
    for t in &thetas {
        for (aj, bj) in a.iter().zip(b) {
            let p = 1.0 / (1.0 + (-aj * (t - bj)).exp());
            let u = rng.next_f64();
            let miss = rng.next_f64() < missing;
            cells.push((!miss).then_some(u < p));
        }
    }
    let items = (0..a.len())
        .map(|j| ItemInfo::new(format!("i{j}")))
        .collect();
    let resp = (0..n)
        .map(|i| RespondentInfo {
            id: format!("r{i}"),
            group: None,
        })
        .collect();
    (
        ResponseMatrix::new("sim", items, resp, &cells).unwrap(),
        thetas,
    )
}

fn corr(x: &[f64], y: &[f64]) -> f64 {
    coglab_core::stats::correlation::pearson(x, y).unwrap().r
}

fn true_params(seed: u64, k: usize) -> (Vec<f64>, Vec<f64>) {
    let mut rng = Rng::new(seed);
    let a = (0..k).map(|_| 0.5 + 2.0 * rng.next_f64()).collect();
    let b = (0..k).map(|_| -2.0 + 4.0 * rng.next_f64()).collect();
    (a, b)
}

#[test]
fn two_pl_recovers_known_parameters() {
    let (a, b) = true_params(11, 40);
    let (m, thetas) = simulate(12, 2000, &a, &b, 0.0);
    let f = fit(&m, &IrtOptions::default()).unwrap();
    assert!(f.converged, "{:?}", f.notes);
    let ea: Vec<f64> = f.items.iter().map(|i| i.a.unwrap()).collect();
    let eb: Vec<f64> = f.items.iter().map(|i| i.b.unwrap()).collect();
    let et: Vec<f64> = f.respondents.iter().map(|r| r.theta.unwrap()).collect();
    let (ra, rb, rt) = (corr(&a, &ea), corr(&b, &eb), corr(&thetas, &et));
    eprintln!(
        "2PL recovery: r(a) = {ra:.4}, r(b) = {rb:.4}, r(theta) = {rt:.4}, {} cycles",
        f.iterations
    );
    assert!(ra >= 0.95, "r(a) = {ra}");
    assert!(rb >= 0.95, "r(b) = {rb}");
    // 40 items give a reliability near 0.9: r(theta, EAP) about sqrt(0.9).
    assert!(rt >= 0.90, "r(theta) = {rt}");
    // SE of a at n = 2000 is about 0.05-0.15; of b about 0.05-0.2 (larger for extreme b, low a).
    for j in 0..40 {
        assert!(
            (ea[j] - a[j]).abs() < 0.5,
            "item {j}: a {} vs {}",
            ea[j],
            a[j]
        );
        assert!(
            (eb[j] - b[j]).abs() < 0.6,
            "item {j}: b {} vs {}",
            eb[j],
            b[j]
        );
    }
}

#[test]
fn two_pl_recovers_with_missing_cells() {
    let (a, b) = true_params(21, 40);
    let (m, _) = simulate(22, 2000, &a, &b, 0.3);
    let f = fit(&m, &IrtOptions::default()).unwrap();
    assert!(f.converged);
    let ea: Vec<f64> = f.items.iter().map(|i| i.a.unwrap()).collect();
    let eb: Vec<f64> = f.items.iter().map(|i| i.b.unwrap()).collect();
    let (ra, rb) = (corr(&a, &ea), corr(&b, &eb));
    eprintln!("2PL recovery, 30% missing: r(a) = {ra:.4}, r(b) = {rb:.4}");
    assert!(ra >= 0.9 && rb >= 0.95, "r(a) = {ra}, r(b) = {rb}");
}

#[test]
fn rasch_recovers_difficulties() {
    let a = vec![1.0; 30];
    let (_, b) = true_params(31, 30);
    let (m, _) = simulate(32, 1000, &a, &b, 0.0);
    let opts = IrtOptions {
        model: IrtModel::Rasch,
        ..IrtOptions::default()
    };
    let f = fit(&m, &opts).unwrap();
    assert!(f.converged);
    let eb: Vec<f64> = f.items.iter().map(|i| i.b.unwrap()).collect();
    assert!(f.items.iter().all(|i| i.a == Some(1.0)));
    let rb = corr(&b, &eb);
    assert!(rb >= 0.98, "r(b) = {rb}");
    // Infit and outfit are near 1 when the model holds.
    for it in &f.items {
        let (i, o) = (it.infit.unwrap(), it.outfit.unwrap());
        assert!(
            (0.8..1.2).contains(&i) && (0.7..1.3).contains(&o),
            "{}: infit {i}, outfit {o}",
            it.id
        );
    }
}
