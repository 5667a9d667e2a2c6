//! The benchmark quality panel (issue 40, item 3) on the real KiVA model runs in
//! `../shared/data/kiva/` (skipped with a notice when absent, a failure under `CI=true`): the
//! signal of every row is the sample SD of the three runs' stage-1 means, which the independent
//! pandas script `fixtures/kiva/reference.py` wrote into `fixtures/kiva/reference_figures.json`
//! (overall and per domain).

use crate::common;

use coglab_core::kiva::score_model;
use coglab_core::leaderboard::RowId;
use coglab_core::ranks::quality::{quality, quality_input, NoiseKind, QualityOptions};
use coglab_core::ranks::view::{RankEntry, RankRequest, RankSource};
use coglab_core::ranks::Bench;
use serde_json::Value;

const RUNS: [&str; 3] = [
    "KiVA/gpt4_multi_image",
    "KiVA/gpt4_single_image",
    "KiVA/mantis_multi_image",
];

fn sample_sd(xs: &[f64]) -> f64 {
    let m = xs.iter().sum::<f64>() / xs.len() as f64;
    (xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (xs.len() as f64 - 1.0)).sqrt()
}

#[test]
fn kiva_runs_signal_matches_the_pandas_means() {
    let Some(kiva) = common::shared_data("kiva") else {
        return;
    };
    let fig: Value =
        serde_json::from_str(include_str!("fixtures/kiva/reference_figures.json")).unwrap();
    let reports: Vec<_> = RUNS
        .iter()
        .map(|run| {
            let mut files = Vec::new();
            let mut stack = vec![kiva.join("model_data").join(run)];
            while let Some(dir) = stack.pop() {
                for e in std::fs::read_dir(&dir).unwrap() {
                    let p = e.unwrap().path();
                    if p.is_dir() {
                        stack.push(p);
                    } else if p.extension().is_some_and(|x| x == "csv") {
                        files.push((p.to_string_lossy().into_owned(), std::fs::read(&p).unwrap()));
                    }
                }
            }
            files.sort();
            score_model(files.iter().map(|(p, b)| (p.as_str(), b.as_slice()))).unwrap()
        })
        .collect();
    let entries: Vec<RankEntry<'_>> = reports
        .iter()
        .zip(RUNS)
        .enumerate()
        .map(|(k, (r, name))| RankEntry {
            id: RowId {
                generation: 1,
                n: k as u32 + 1,
            },
            name,
            source: RankSource::Kiva {
                report: r,
                files: None,
            },
        })
        .collect();
    let (input, notes) = quality_input(&entries, &RankRequest::new(Bench::Kiva));
    assert!(notes.is_empty(), "{notes:?}");
    let p = quality(&input, &QualityOptions::default());
    let mean = |run: &str, domain: Option<&str>| -> f64 {
        let r = &fig["models"][run];
        let v = match domain {
            None => &r["overall"]["cross"]["mean"],
            Some(d) => &r["by_domain"][d]["cross"]["mean"],
        };
        v.as_f64().unwrap()
    };
    let want = sample_sd(&RUNS.map(|r| mean(r, None)));
    assert!((p.overall.signal.unwrap() - want).abs() < 1e-9);
    // 14 subdomains x 50 variations; every run has every trial with 3 regenerations.
    assert_eq!((p.overall.items, p.overall.models), (700, 3));
    assert_eq!(p.overall.reliability_models, 3);
    assert_eq!(p.overall.noise_kind, NoiseKind::Regeneration);
    assert_eq!(p.method, "paired_normal");
    let domains: Vec<&str> = p.categories.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(
        domains,
        ["2DRotation", "Colour", "Counting", "Reflect", "Resize"]
    );
    assert_eq!(p.categories.iter().map(|c| c.items).sum::<usize>(), 700);
    for c in &p.categories {
        let want = sample_sd(&RUNS.map(|r| mean(r, Some(&c.label))));
        assert!(
            (c.signal.unwrap() - want).abs() < 1e-9,
            "{}: {:?} vs {want}",
            c.label,
            c.signal
        );
        // The regeneration SD of a mean over 100-200 trials is a point or two.
        let noise = c.noise.unwrap();
        assert!(noise > 0.0 && noise < 0.03, "{}: {noise}", c.label);
        assert!(c.mdd.is_some(), "{}", c.label);
    }
    eprintln!(
        "KiVA quality: overall alpha {:.3}, signal {:.4}, noise {:.4}, MDD {:.4}; warnings {:?}",
        p.overall.reliability.unwrap(),
        p.overall.signal.unwrap(),
        p.overall.noise.unwrap(),
        p.overall.mdd.unwrap(),
        p.warnings
    );
}
