//! Item analysis on the real KiVA files in `../shared/data/kiva/` (skipped with a notice when
//! absent): the three KiVA model runs (GPT-4V multi- and single-image, MANTIS multi-image) and
//! the 250 adults of `human_adults_KiVA.csv`, one item per trial and stage.
//!
//! The builder is checked against the raw CSVs read here with the `csv` crate (independent of
//! `coglab_core::kiva`): the adults' proportion right per subdomain is a plain count of `Score`
//! over that subdomain's rows, and a model's stage-1 item is right when at least two of its
//! three regenerations have `MCResponse#1` = 1. The flags are then checked for what they claim.
//! The flagged items are printed (`--nocapture`) for the report.

use crate::common;

use coglab_core::items::{
    analyse, AnalysisOptions, Flag, IrtOptions, KivaItemOptions, ResponseMatrix, SubsetOptions,
};
use coglab_core::kiva::{score_human, score_model, HumanData, KivaReport};
use std::collections::BTreeMap;
use std::path::Path;

const MODELS: [&str; 3] = [
    "gpt4_multi_image",
    "gpt4_single_image",
    "mantis_multi_image",
];

fn run_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for domain in std::fs::read_dir(dir).unwrap() {
        let domain = domain.unwrap().path();
        for f in std::fs::read_dir(&domain).unwrap() {
            let f = f.unwrap().path();
            out.push((f.to_string_lossy().into_owned(), std::fs::read(&f).unwrap()));
        }
    }
    out.sort();
    out
}

fn model_report(kiva: &Path, model: &str) -> KivaReport {
    let files = run_files(&kiva.join("model_data/KiVA").join(model));
    score_model(files.iter().map(|(p, b)| (p.as_str(), b.as_slice()))).unwrap()
}

fn matrix(kiva: &Path) -> ResponseMatrix {
    let reports: Vec<KivaReport> = MODELS.iter().map(|m| model_report(kiva, m)).collect();
    let human_bytes = std::fs::read(kiva.join("human_adults_KiVA.csv")).unwrap();
    let human =
        score_human(&HumanData::parse("human_adults_KiVA.csv", &human_bytes).unwrap()).unwrap();
    let refs: Vec<(&str, &KivaReport)> = MODELS.iter().copied().zip(reports.iter()).collect();
    ResponseMatrix::from_kiva(&refs, Some(&human), &KivaItemOptions::default()).unwrap()
}

#[test]
fn kiva_models_and_adults_items_and_flags() {
    let Some(kiva) = common::shared_data("kiva") else {
        return;
    };
    let m = matrix(&kiva);
    // 14 subdomains x 50 variations x 3 stages; 3 models + 250 adults.
    assert_eq!(m.n_items(), 2100);
    assert_eq!(m.n_respondents(), 253);
    assert_eq!(m.groups(), vec!["model", "human"]);

    // Independent: the adults' proportion right per subdomain from the raw rows.
    let mut rdr = csv::Reader::from_path(kiva.join("human_adults_KiVA.csv")).unwrap();
    let mut by_sub: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for rec in rdr.records() {
        let rec = rec.unwrap();
        let e = by_sub.entry(rec[1].to_string()).or_default();
        e.0 += 1;
        e.1 += usize::from(rec[4].trim().parse::<f64>().unwrap() == 1.0);
    }
    // Independent: GPT-4V multi-image stage 1 by majority of the three regenerations.
    let mut rdr = csv::Reader::from_path(
        kiva.join("model_data/KiVA/gpt4_multi_image/output_Reflect/ReflectY.csv"),
    )
    .unwrap();
    let mut votes: BTreeMap<u64, usize> = BTreeMap::new();
    for rec in rdr.records() {
        let rec = rec.unwrap();
        let v: u64 = rec[0].parse().unwrap();
        let right = matches!(rec[11].trim(), "1" | "1.0");
        *votes.entry(v).or_default() += usize::from(right);
    }
    let gpt = m
        .respondents
        .iter()
        .position(|r| r.id == "gpt4_multi_image")
        .unwrap();
    for (v, n) in &votes {
        let j = m
            .items
            .iter()
            .position(|it| it.id == format!("ReflectY/{v}/cross"))
            .unwrap();
        assert_eq!(m.get(gpt, j), Some(*n >= 2), "ReflectY variation {v}");
    }

    let opts = AnalysisOptions {
        // The per-trial matrix is sparse (each item has about 6 adults and 3 models): the 2PL
        // cannot be pinned down and does not converge; this test is about the builder, the
        // classical statistics and the flags, so it caps the EM cycles.
        irt: IrtOptions {
            max_iterations: 50,
            item_curves: false,
            ..IrtOptions::default()
        },
        subset: Some(SubsetOptions::default()),
        ..AnalysisOptions::default()
    };
    let a = analyse(&m, &opts).unwrap();
    let gaps = a.gaps.as_ref().unwrap();
    assert_eq!(
        (gaps.first.as_str(), gaps.second.as_str()),
        ("human", "model")
    );
    for g in &gaps.categories {
        let (n, r) = by_sub[&g.id];
        assert_eq!(g.n_first, n, "{}", g.id);
        assert!((g.p_first - r as f64 / n as f64).abs() < 1e-12, "{}", g.id);
    }
    // Every flag says what it claims.
    for it in &a.items {
        let has = |f| it.flags.contains(&f);
        assert_eq!(
            has(Flag::AllRight),
            it.n > 0 && it.right == it.n,
            "{}",
            it.id
        );
        assert_eq!(has(Flag::NoneRight), it.n > 0 && it.right == 0, "{}", it.id);
        assert_eq!(
            has(Flag::NegativeDiscrimination),
            it.point_biserial.is_some_and(|r| r < 0.0)
        );
        if has(Flag::AllRight) || has(Flag::NoneRight) {
            assert_eq!(
                it.a, None,
                "{}: an item without variance is not fitted",
                it.id
            );
        }
    }
    // The report's figures.
    let count = |f: Flag| a.items.iter().filter(|i| i.flags.contains(&f)).count();
    eprintln!(
        "KiVA items: {} all right, {} none right, {} negative r_pb, {} low r_pb, of {}",
        count(Flag::AllRight),
        count(Flag::NoneRight),
        count(Flag::NegativeDiscrimination),
        count(Flag::LowDiscrimination),
        a.items.len()
    );
    let mut stage_all_right: BTreeMap<&str, usize> = BTreeMap::new();
    for it in a.items.iter().filter(|i| i.flags.contains(&Flag::AllRight)) {
        *stage_all_right
            .entry(it.id.rsplit('/').next().unwrap())
            .or_default() += 1;
    }
    eprintln!("all-right items per stage: {stage_all_right:?}");
    for g in &gaps.categories {
        eprintln!(
            "gap {:<14} adults {:.3} (n {}) models {:.3} (n {}) gap {:+.3}",
            g.id, g.p_first, g.n_first, g.p_second, g.n_second, g.gap
        );
    }
    for it in a
        .items
        .iter()
        .filter(|i| i.flags.contains(&Flag::NegativeDiscrimination))
        .take(10)
    {
        eprintln!(
            "negative r_pb: {} n {} p {:.3} r_pb {:.3}",
            it.id,
            it.n,
            it.p.unwrap(),
            it.point_biserial.unwrap()
        );
    }
    if let Some(s) = &a.subset {
        eprintln!(
            "subset: {:?} of {} items for {:?}",
            s.size,
            s.order.len(),
            s.ranked
        );
    }
    // Adults beat the models in every subdomain.
    assert!(gaps.categories.iter().all(|g| g.gap > 0.0));
}

#[test]
fn kiva_per_subdomain_items_give_a_complete_matrix_that_fits() {
    let Some(kiva) = common::shared_data("kiva") else {
        return;
    };
    let reports: Vec<KivaReport> = MODELS.iter().map(|m| model_report(&kiva, m)).collect();
    let human_bytes = std::fs::read(kiva.join("human_adults_KiVA.csv")).unwrap();
    let human = score_human(&HumanData::parse("h.csv", &human_bytes).unwrap()).unwrap();
    let refs: Vec<(&str, &KivaReport)> = MODELS.iter().copied().zip(reports.iter()).collect();
    let opts = KivaItemOptions {
        per_subdomain: true,
        ..KivaItemOptions::default()
    };
    let m = ResponseMatrix::from_kiva(&refs, Some(&human), &opts).unwrap();
    // 14 subdomains x 3 stages.
    assert_eq!(m.n_items(), 42);
    // Independent: adults with one row per subdomain and task answer every item; their cell
    // is that row's Score. Count the participants with exactly 42 rows in the raw file.
    let mut rdr = csv::Reader::from_path(kiva.join("human_adults_KiVA.csv")).unwrap();
    let mut rows: BTreeMap<String, BTreeMap<(String, String), f64>> = BTreeMap::new();
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    for rec in rdr.records() {
        let rec = rec.unwrap();
        let stage = match rec[3].trim() {
            "Cross Domain" => "cross",
            "Within Domain" => "within",
            _ => "extrapolation",
        };
        *count.entry(rec[0].to_string()).or_default() += 1;
        rows.entry(rec[0].to_string()).or_default().insert(
            (rec[1].to_string(), stage.to_string()),
            rec[4].trim().parse().unwrap(),
        );
    }
    let mut checked = 0;
    for (pid, cells) in &rows {
        if count[pid] != 42 || cells.len() != 42 {
            continue;
        }
        let i = m.respondents.iter().position(|r| &r.id == pid).unwrap();
        for ((sub, stage), score) in cells {
            let j = m
                .items
                .iter()
                .position(|it| it.id == format!("{sub}/{stage}"))
                .unwrap();
            assert_eq!(m.get(i, j), Some(*score == 1.0), "{pid} {sub} {stage}");
        }
        checked += 1;
    }
    assert!(
        checked >= 200,
        "only {checked} participants with one trial per subdomain"
    );
    let a = analyse(&m, &AnalysisOptions::default()).unwrap();
    // With the monotone M-step the 2PL converges on this (ceiling-heavy) matrix.
    assert!(a.converged, "{:?}", a.notes);
    eprintln!(
        "per subdomain: alpha {:?} on {} complete rows, {} cycles, subset {:?}",
        a.classical.alpha,
        a.classical.alpha_n,
        a.iterations,
        a.subset.as_ref().map(|s| s.size)
    );
    for it in a.items.iter().filter(|i| !i.flags.is_empty()) {
        eprintln!(
            "{:<28} p {:.3} r_pb {:>6} a {:>6} b {:>7} {:?}",
            it.id,
            it.p.unwrap_or(f64::NAN),
            it.point_biserial.map_or("-".into(), |v| format!("{v:.3}")),
            it.a.map_or("-".into(), |v| format!("{v:.2}")),
            it.b.map_or("-".into(), |v| format!("{v:.2}")),
            it.flags
        );
    }
}
