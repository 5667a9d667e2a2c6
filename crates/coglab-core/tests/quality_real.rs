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

/// The leaderboard's estimates on the real KiVA runs: two complete runs calibrate (the
/// minimum lowered to 2 for the test) and a third cut to its Colour files (150 of 700 trials)
/// is estimated; its `observed` is its own stage-1 count over the trials it has (the core's
/// matrix, right when the trial's mean over regenerations is at least 0.5), and with the
/// default minimum of 20 the estimate is withheld naming the 2 complete runs.
#[test]
fn kiva_partial_run_estimated_from_the_complete_runs() {
    use coglab_core::items::estimate::{CalibrationOptions, EstimateOptions};
    use coglab_core::items::partial::estimate_rows;
    use coglab_core::items::KivaStages;
    use coglab_core::leaderboard::Detail;
    let Some(kiva) = common::shared_data("kiva") else {
        return;
    };
    let read = |run: &str, only: Option<&str>| {
        let mut files = Vec::new();
        let mut stack = vec![kiva.join("model_data").join(run)];
        while let Some(dir) = stack.pop() {
            for e in std::fs::read_dir(&dir).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "csv")
                    && only.is_none_or(|o| p.to_string_lossy().contains(o))
                {
                    files.push((p.to_string_lossy().into_owned(), std::fs::read(&p).unwrap()));
                }
            }
        }
        files.sort();
        Detail::Kiva(score_model(files.iter().map(|(p, b)| (p.as_str(), b.as_slice()))).unwrap())
    };
    let details = [
        read(RUNS[0], None),
        read(RUNS[2], None),
        read(RUNS[1], Some("output_Colour")),
    ];
    let Detail::Kiva(part) = &details[2] else {
        unreachable!()
    };
    let right = part
        .trials
        .iter()
        .filter(|t| t.cross.is_some_and(|c| c >= 0.5))
        .count();
    let rows: Vec<(&str, &Detail)> = ["multi", "mantis", "single"]
        .into_iter()
        .zip(details.iter())
        .collect();
    let est = EstimateOptions {
        min_calibration: 2,
        ..EstimateOptions::default()
    };
    let e = estimate_rows(
        &rows,
        KivaStages::Cross,
        &CalibrationOptions::default(),
        &est,
    )
    .unwrap();
    assert_eq!(e.calibration_rows, ["multi", "mantis"]);
    assert_eq!(
        e.calibration.as_ref().map(|c| (c.items, c.respondents)),
        Some((700, 2))
    );
    let r = &e.rows[0];
    assert_eq!((r.id.as_str(), r.answered, r.items), ("single", 150, 700));
    let x = r.estimate.as_ref().unwrap();
    assert_eq!(x.observed, Some(right as f64 / 150.0));
    assert!(x.ci_low <= x.estimate && x.estimate <= x.ci_high);
    // The default minimum: withheld, with the count.
    let e = estimate_rows(
        &rows,
        KivaStages::Cross,
        &CalibrationOptions::default(),
        &EstimateOptions::default(),
    )
    .unwrap();
    assert!(e.rows[0]
        .withheld
        .as_deref()
        .unwrap()
        .contains("2 calibration respondents, fewer than the 20"));
    // The within-domain stage is asked only after a right first stage: refused.
    assert!(estimate_rows(
        &rows,
        KivaStages::Within,
        &CalibrationOptions::default(),
        &EstimateOptions::default()
    )
    .is_err());
}
