//! Issue 40's estimate on the real KiVA runs by leave-one-out (BENCHMARKS.md, "Estimated full
//! score on KiVA by leave-one-out"): the three model runs in `../shared/data/kiva/model_data/KiVA`
//! and the 250 adults of `human_adults_KiVA.csv`, one item per trial, stage 1 (cross-domain:
//! 700 trials; a model's trial is right when at least half its regenerations are).
//!
//! - Models: each model left out in turn; the calibration is the other 252 respondents (2PL
//!   with the guessing floor 1/3); the model's run is cut to K random trials (K = 100 and 500,
//!   50 draws each) and to the K = 100 anchors chosen on that calibration; truth: its own
//!   accuracy over the 700 trials.
//! - Adults (each answered 14 trials): each adult left out in turn; the calibration is the
//!   other 252; the estimate of their accuracy over their own 14 trials from a random 7 of
//!   them (the calibration restricted to those 14 items); truth: their proportion right on the
//!   14.
//!
//! Mean absolute error in accuracy points, coverage of the 95% interval. Run:
//! `cargo run -p coglab-core --release --example estimate_kiva_loo`. Without the shared data it
//! prints a notice and exits 0 (1 under CI=true).

use coglab_core::items::anchor::{anchor_items, AnchorOptions};
use coglab_core::items::estimate::{
    estimate_with, Calibration, CalibrationOptions, EstimateOptions, ItemParams,
};
use coglab_core::items::simulate::keep_items;
use coglab_core::items::{KivaItemOptions, KivaStages, RespondentInfo, ResponseMatrix};
use coglab_core::kiva::{score_human, score_model, HumanData, KivaReport};
use coglab_core::stats::rng::Rng;
use std::path::{Path, PathBuf};

const MODELS: [&str; 3] = [
    "gpt4_multi_image",
    "gpt4_single_image",
    "mantis_multi_image",
];

fn run_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for domain in std::fs::read_dir(dir).expect("run folder") {
        let domain = domain.expect("entry").path();
        for f in std::fs::read_dir(&domain).expect("domain folder") {
            let f = f.expect("entry").path();
            out.push((
                f.to_string_lossy().into_owned(),
                std::fs::read(&f).expect("csv"),
            ));
        }
    }
    out.sort();
    out
}

/// The rows of `m` except `skip`.
fn without(m: &ResponseMatrix, skip: usize) -> ResponseMatrix {
    let rows: Vec<usize> = (0..m.n_respondents()).filter(|&i| i != skip).collect();
    let cells: Vec<Option<bool>> = rows
        .iter()
        .flat_map(|&i| (0..m.n_items()).map(move |j| m.get(i, j)))
        .collect();
    let resp: Vec<RespondentInfo> = rows.iter().map(|&i| m.respondents[i].clone()).collect();
    ResponseMatrix::new("kiva-loo", m.items.clone(), resp, &cells).expect("matrix")
}

/// Row `i` of `m` alone, keeping the columns `keep`.
fn one_row(m: &ResponseMatrix, i: usize, keep: &[usize]) -> ResponseMatrix {
    let cells: Vec<Option<bool>> = (0..m.n_items())
        .map(|j| if keep.contains(&j) { m.get(i, j) } else { None })
        .collect();
    ResponseMatrix::new(
        "partial",
        m.items.clone(),
        vec![m.respondents[i].clone()],
        &cells,
    )
    .expect("matrix")
}

#[derive(Default)]
struct Acc {
    err: f64,
    cover: f64,
    width: f64,
    n: f64,
}

impl Acc {
    fn add(&mut self, est: f64, lo: f64, hi: f64, truth: f64) {
        self.err += (est - truth).abs();
        self.cover += f64::from(u8::from(lo - 1e-12 <= truth && truth <= hi + 1e-12));
        self.width += hi - lo;
        self.n += 1.0;
    }
    fn line(&self, what: &str) {
        println!(
            "{what:<58} n {:>4}  MAE {:>5.2}  coverage {:>5.1}%  width {:>5.2}",
            self.n,
            100.0 * self.err / self.n,
            100.0 * self.cover / self.n,
            100.0 * self.width / self.n
        );
    }
}

fn main() {
    let kiva = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/kiva");
    if !kiva.exists() {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            eprintln!("CI=true but {} is missing", kiva.display());
            std::process::exit(1);
        }
        eprintln!("SKIP: {} not found", kiva.display());
        return;
    }
    let reports: Vec<KivaReport> = MODELS
        .iter()
        .map(|m| {
            let files = run_files(&kiva.join("model_data/KiVA").join(m));
            score_model(files.iter().map(|(p, b)| (p.as_str(), b.as_slice()))).expect("run")
        })
        .collect();
    let human_bytes = std::fs::read(kiva.join("human_adults_KiVA.csv")).expect("adults");
    let human =
        score_human(&HumanData::parse("human_adults_KiVA.csv", &human_bytes).expect("parse"))
            .expect("score");
    let refs: Vec<(&str, &KivaReport)> = MODELS.iter().copied().zip(reports.iter()).collect();
    let m = ResponseMatrix::from_kiva(
        &refs,
        Some(&human),
        &KivaItemOptions {
            stages: KivaStages::Cross,
            ..KivaItemOptions::default()
        },
    )
    .expect("matrix");
    println!(
        "KiVA stage 1: {} respondents x {} items",
        m.n_respondents(),
        m.n_items()
    );
    let copts = CalibrationOptions {
        options: 3,
        ..CalibrationOptions::default()
    };
    let eopts = EstimateOptions {
        min_calibration: 0,
        ..EstimateOptions::default()
    };
    let mut rng = Rng::new(40);
    // Models.
    let (mut r100, mut r500, mut anchors, mut plain100) = (
        Acc::default(),
        Acc::default(),
        Acc::default(),
        Acc::default(),
    );
    for (i, name) in MODELS.iter().enumerate() {
        let cal = Calibration::fit(&without(&m, i), &copts).expect("fit");
        let answered: Vec<usize> = (0..m.n_items())
            .filter(|&j| m.get(i, j).is_some())
            .collect();
        let (n, right) = m.respondent_counts(i);
        let truth = right as f64 / n as f64;
        let mut per = Acc::default();
        for (k, acc) in [(100usize, &mut r100), (500, &mut r500)] {
            for _ in 0..50 {
                let mut pick = answered.clone();
                rng.shuffle(&mut pick);
                pick.truncate(k);
                let p = one_row(&m, i, &pick);
                let e = &estimate_with(&cal, &p, &eopts).expect("estimate")[0];
                acc.add(e.estimate, e.ci_low, e.ci_high, truth);
                if k == 100 {
                    per.add(e.estimate, e.ci_low, e.ci_high, truth);
                    let o = e.observed.unwrap_or(0.0);
                    plain100.add(o, o, o, truth);
                }
            }
        }
        let set = anchor_items(
            &cal,
            &AnchorOptions {
                k: 100,
                ..AnchorOptions::default()
            },
        )
        .expect("anchors");
        let idx: Vec<usize> = set.anchors.iter().map(|a| a.index).collect();
        let p = keep_items(&one_row(&m, i, &answered), &idx).expect("partial");
        let e = &estimate_with(&cal, &p, &eopts).expect("estimate")[0];
        anchors.add(e.estimate, e.ci_low, e.ci_high, truth);
        println!(
            "{name}: full accuracy {:.2}%; random 100: MAE {:.2}, coverage {:.0}%; 100 anchors: \
             estimate {:.2}% [{:.2}, {:.2}]",
            100.0 * truth,
            100.0 * per.err / per.n,
            100.0 * per.cover / per.n,
            100.0 * e.estimate,
            100.0 * e.ci_low,
            100.0 * e.ci_high
        );
    }
    r100.line("models, random 100 of 700 trials (3 x 50 draws)");
    plain100.line("models, random 100, plain proportion (no interval)");
    r500.line("models, random 500 of 700 trials (3 x 50 draws)");
    anchors.line("models, 100 anchors chosen on the other 252");
    // Adults.
    let mut adults = Acc::default();
    let mut adults_plain = Acc::default();
    for i in MODELS.len()..m.n_respondents() {
        let own: Vec<usize> = (0..m.n_items())
            .filter(|&j| m.get(i, j).is_some())
            .collect();
        if own.len() < 2 {
            continue;
        }
        let cal = Calibration::fit(&without(&m, i), &copts).expect("fit");
        let items: Vec<ItemParams> = own
            .iter()
            .map(|&j| {
                let p = &cal.params[j];
                ItemParams::new(p.id.clone(), p.a.unwrap_or(1.0), p.b.unwrap_or(0.0))
            })
            .collect();
        let sub = Calibration::from_params(&items, cal.guess, cal.respondents).expect("sub");
        let mut pick = own.clone();
        rng.shuffle(&mut pick);
        pick.truncate(own.len() / 2);
        let ids: Vec<String> = own.iter().map(|&j| m.items[j].id.clone()).collect();
        let answered: Vec<&str> = pick.iter().map(|&j| m.items[j].id.as_str()).collect();
        let mut csv = format!("id,{}\n{}", ids.join(","), m.respondents[i].id);
        for (&j, id) in own.iter().zip(&ids) {
            csv.push(',');
            if answered.contains(&id.as_str()) {
                csv.push_str(if m.get(i, j) == Some(true) { "1" } else { "0" });
            }
        }
        csv.push('\n');
        let p = ResponseMatrix::parse_csv("adult.csv", csv.as_bytes()).expect("partial");
        let e = &estimate_with(&sub, &p, &eopts).expect("estimate")[0];
        let (n, right) = m.respondent_counts(i);
        let truth = right as f64 / n as f64;
        adults.add(e.estimate, e.ci_low, e.ci_high, truth);
        let o = e.observed.unwrap_or(0.0);
        adults_plain.add(o, o, o, truth);
    }
    adults.line("adults, half their 14 trials -> the 14 (250 left out)");
    adults_plain.line("adults, plain proportion on the half (no interval)");
}
