//! S-X2 item fit (issue 22) on simulated data: p-values under the model that generated the
//! data are roughly uniform, and items drawn from an ICC the model cannot take are flagged.
//!
//! No installable reference computes S-X2 (girth, py-irt, pyirt and catsim on PyPI do not;
//! `mirt`, `CDM` and `irtQ` are R packages), so the reference for the arithmetic is the
//! hand-worked case in `items::sx2`'s unit tests and the brute-force enumeration there; these
//! tests check the statistic's behaviour.

use coglab_core::items::matrix::{ItemInfo, RespondentInfo};
use coglab_core::items::{
    analyse, fit, s_x2, AnalysisOptions, Flag, IrtModel, IrtOptions, ResponseMatrix, Sx2Options,
};
use coglab_core::stats::rng::Rng;

fn normal(rng: &mut Rng) -> f64 {
    let u1 = rng.next_f64().max(1e-300);
    let u2 = rng.next_f64();
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

fn logistic(a: f64, b: f64, t: f64) -> f64 {
    1.0 / (1.0 + (-a * (t - b)).exp())
}

/// `n` respondents with theta ~ N(0, 1); item `j` right with probability `icc[j](theta)`.
fn simulate(seed: u64, n: usize, icc: &[Box<dyn Fn(f64) -> f64>], missing: f64) -> ResponseMatrix {
    let mut rng = Rng::new(seed);
    let mut cells = Vec::with_capacity(n * icc.len());
    for _ in 0..n {
        let t = normal(&mut rng);
        for f in icc {
            let right = rng.next_f64() < f(t);
            let miss = rng.next_f64() < missing;
            cells.push((!miss).then_some(right));
        }
    }
    let items = (0..icc.len())
        .map(|j| ItemInfo::new(format!("i{j}")))
        .collect();
    let resp = (0..n)
        .map(|i| RespondentInfo {
            id: format!("r{i}"),
            group: None,
        })
        .collect();
    ResponseMatrix::new("sim", items, resp, &cells).expect("valid simulated matrix")
}

fn two_pl_items(seed: u64, k: usize) -> Vec<Box<dyn Fn(f64) -> f64>> {
    let mut rng = Rng::new(seed);
    (0..k)
        .map(|_| {
            let a = 0.6 + 1.6 * rng.next_f64();
            let b = -1.8 + 3.6 * rng.next_f64();
            Box::new(move |t| logistic(a, b, t)) as Box<dyn Fn(f64) -> f64>
        })
        .collect()
}

fn opts(model: IrtModel) -> IrtOptions {
    IrtOptions {
        model,
        item_curves: false,
        ..IrtOptions::default()
    }
}

/// Kolmogorov-Smirnov distance of a sample from U(0, 1).
fn ks_uniform(p: &mut [f64]) -> f64 {
    p.sort_by(f64::total_cmp);
    let n = p.len() as f64;
    p.iter()
        .enumerate()
        .map(|(i, &x)| (x - i as f64 / n).abs().max(((i + 1) as f64 / n - x).abs()))
        .fold(0.0, f64::max)
}

#[test]
fn p_values_under_the_2pl_are_roughly_uniform() {
    // 8 data sets of 1,000 respondents x 15 2PL items: 120 p-values. Under the model the
    // statistic is approximately chi-square (Orlando and Thissen 2000 report type I error
    // rates near the nominal level for 2PL data), so about 5% fall below 0.05 and the KS
    // distance from uniform is small. The bounds allow for sampling error (the 95% KS critical
    // value for n = 120 is 0.124; the p-values of one data set are not independent).
    let mut ps = Vec::new();
    for seed in 1..=8u64 {
        let m = simulate(100 + seed, 1000, &two_pl_items(seed, 15), 0.0);
        let f = fit(&m, &opts(IrtModel::TwoPl)).unwrap();
        let r = s_x2(&m, &f, &Sx2Options::default());
        assert_eq!((r.complete_rows, r.incomplete_rows), (1000, 0));
        for t in r.items.iter() {
            let t = t.as_ref().expect("every item tested");
            assert!(t.df >= 5, "df {} for 15 items and 1,000 respondents", t.df);
            ps.push(t.p);
        }
    }
    let below = ps.iter().filter(|&&p| p < 0.05).count() as f64 / ps.len() as f64;
    let mean = ps.iter().sum::<f64>() / ps.len() as f64;
    let ks = ks_uniform(&mut ps);
    eprintln!(
        "2PL null: {} p-values, {below:.3} below 0.05, mean {mean:.3}, KS {ks:.3}",
        ps.len()
    );
    assert!(below <= 0.12, "share below 0.05: {below}");
    assert!((0.38..=0.62).contains(&mean), "mean p {mean}");
    assert!(ks < 0.16, "KS distance {ks}");
}

#[test]
fn a_non_monotone_item_is_flagged_under_the_2pl() {
    // Item 0 is right with probability 0.85 at |theta| > 1 and 0.15 in between: no 2PL curve
    // follows that, and among the middle summed scores it is right far less often than at
    // the extremes. The other 14 items are 2PL.
    let mut icc = two_pl_items(42, 15);
    icc[0] = Box::new(|t: f64| if t.abs() > 1.0 { 0.85 } else { 0.15 });
    let m = simulate(7, 1500, &icc, 0.0);
    let a = analyse(
        &m,
        &AnalysisOptions {
            irt: opts(IrtModel::TwoPl),
            subset: None,
            ..AnalysisOptions::default()
        },
    )
    .unwrap();
    let bad = a.items[0].sx2.as_ref().unwrap();
    eprintln!(
        "non-monotone item: S-X2 {:.1} on {} df, p {:.2e}",
        bad.chi2, bad.df, bad.p
    );
    assert!(bad.p < 1e-8, "p {}", bad.p);
    assert!(a.items[0].flags.contains(&Flag::Sx2Misfit));
    // Bonferroni at 0.05 over 15 items: the 2PL items are rarely flagged (each has a 0.0033
    // chance under the model; allow one).
    let others = a.items[1..]
        .iter()
        .filter(|i| i.flags.contains(&Flag::Sx2Misfit))
        .count();
    assert!(others <= 1, "{others} 2PL items flagged");
}

#[test]
fn rasch_flags_an_item_steeper_than_the_rest() {
    // Rasch data (a = 1) with b spread over [-1.5, 1.5], except item 0 whose slope is 4: the
    // Rasch model forces its slope to 1, so its observed proportions rise far faster with the
    // summed score than expected. Rasch null p-values stay roughly uniform.
    let mut icc: Vec<Box<dyn Fn(f64) -> f64>> = (0..12)
        .map(|j| {
            let b = -1.5 + 3.0 * j as f64 / 11.0;
            Box::new(move |t| logistic(1.0, b, t)) as Box<dyn Fn(f64) -> f64>
        })
        .collect();
    let null = simulate(11, 1500, &icc, 0.0);
    let f = fit(&null, &opts(IrtModel::Rasch)).unwrap();
    let r = s_x2(&null, &f, &Sx2Options::default());
    let ps: Vec<f64> = r.items.iter().map(|t| t.as_ref().unwrap().p).collect();
    assert!(ps.iter().all(|&p| p > 0.001), "Rasch null p-values {ps:?}");
    icc[0] = Box::new(|t| logistic(4.0, 0.0, t));
    let m = simulate(12, 1500, &icc, 0.0);
    let f = fit(&m, &opts(IrtModel::Rasch)).unwrap();
    let r = s_x2(&m, &f, &Sx2Options::default());
    let t = r.items[0].as_ref().unwrap();
    eprintln!(
        "steep item under Rasch: S-X2 {:.1} on {} df, p {:.2e}",
        t.chi2, t.df, t.p
    );
    // Rasch has one parameter: df = groups - 1.
    assert_eq!(t.df, t.groups - 1);
    assert!(t.p < 1e-8, "p {}", t.p);
}

#[test]
fn missing_cells_leave_rows_out_and_sparse_matrices_get_a_note() {
    // 5% of cells missing on 10 items: a row is complete with probability 0.95^10 = 0.599,
    // so about 600 of 1,000 rows are used and the rest counted as incomplete.
    let m = simulate(3, 1000, &two_pl_items(3, 10), 0.05);
    let f = fit(&m, &opts(IrtModel::TwoPl)).unwrap();
    let r = s_x2(&m, &f, &Sx2Options::default());
    assert_eq!(r.complete_rows + r.incomplete_rows, 1000);
    assert!(
        (540..=660).contains(&r.complete_rows),
        "{}",
        r.complete_rows
    );
    assert!(r.note.as_deref().unwrap().contains("left out"));
    assert!(r.items.iter().all(Option::is_some));
    // 80% missing: almost no complete rows (0.2^10), nothing is tested, and the note says why.
    let m = simulate(4, 300, &two_pl_items(4, 10), 0.8);
    let f = fit(&m, &opts(IrtModel::TwoPl)).unwrap();
    let r = s_x2(&m, &f, &Sx2Options::default());
    assert!(r.items.iter().all(Option::is_none));
    assert!(r
        .note
        .as_deref()
        .unwrap()
        .contains("answered every fitted item"));
}
