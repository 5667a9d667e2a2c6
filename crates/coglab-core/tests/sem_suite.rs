//! Structure-page helpers of `coglab_core::sem::suite`: spec drafts (JSON round trip, presets,
//! editing), Gold's Table 2 as a matrix, rank changes against the plain mean (hand-worked),
//! CSV exports.

use coglab_core::reported::ReportedBundle;
use coglab_core::sem::data::ScoreMatrix;
use coglab_core::sem::engine::Mode;
use coglab_core::sem::spec::ModelSpec;
use coglab_core::sem::suite::*;
use coglab_core::sem::{analyze_parsed, analyze_parsed_with_progress, SemOptions};

const GOLD: &str = include_str!("../../../public/data/gold.json");

fn gold_matrix() -> ScoreMatrix {
    let b = ReportedBundle::parse("gold.json", GOLD).unwrap();
    let csv = matrix_csv_from_reported(b.table("gold-table2").unwrap(), &["Overall"]);
    ScoreMatrix::parse(csv.as_bytes(), "gold-table2.csv").unwrap()
}

#[test]
fn gold_table2_matrix_has_the_papers_values() {
    let m = gold_matrix();
    assert_eq!(m.models.len(), 10);
    assert_eq!(m.columns.len(), 11);
    assert_eq!(m.models[0], "GPT-4o");
    // Table 2: GPT-4o's Color 92.5 and Math 70.0; Gemma3 4B's OCR 81.3.
    assert_eq!(m.column("Color").unwrap().values[0], Some(92.5));
    assert_eq!(m.column("Math").unwrap().values[0], Some(70.0));
    assert_eq!(m.column("OCR").unwrap().values[1], Some(81.3));
    assert!(m.column("Overall").is_none());
}

#[test]
fn draft_json_round_trips_in_order_and_is_a_valid_spec() {
    let d = gold_table2_draft();
    let text = d.to_json();
    let spec = ModelSpec::parse(&text, "spec.json").unwrap();
    let names: Vec<&str> = spec.constructs.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["Perception", "Memory", "Reasoning"]);
    assert_eq!(spec.second_order[0].name, "Overall");
    assert_eq!(SpecDraft::parse(&text, "spec.json").unwrap(), d);
}

#[test]
fn editing_renames_deletes_assigns_and_presets() {
    let mut d = gold_table2_draft();
    d.apply_preset(Preset::Chain);
    assert!(d.second_order.is_empty());
    assert_eq!(
        d.paths,
        vec![
            ("Perception".to_string(), "Memory".to_string()),
            ("Memory".to_string(), "Reasoning".to_string())
        ]
    );
    assert!(d.rename("Memory", "Knowledge"));
    assert!(!d.rename("Knowledge", "Reasoning"), "name taken");
    assert_eq!(d.paths[0].1, "Knowledge");
    d.assign("OCR", Some("Knowledge"));
    assert_eq!(d.construct_of("OCR"), Some("Knowledge"));
    d.delete("Knowledge");
    assert!(d.paths.is_empty());
    assert_eq!(d.construct_of("OCR"), None);
    assert_eq!(d.fresh_name("Perception"), "Perception 2");
    d.constructs[0].mode = Mode::B;
    assert_eq!(SpecDraft::parse(&d.to_json(), "s.json").unwrap(), d);
}

#[test]
fn rank_changes_by_hand() {
    // Two tasks per construct would be needed for a fit; use one construct of three tasks.
    // Rows chosen so the weighted and plain orders differ.
    let data = "model,t1,t2,t3\n\
                a,10,10,90\nb,20,22,10\nc,30,28,35\nd,40,41,30\ne,50,52,45\nf,60,57,60\n";
    let m = ScoreMatrix::parse(data.as_bytes(), "s.csv").unwrap();
    let spec = ModelSpec::parse(r#"{"constructs": {"A": ["t1", "t2", "t3"]}}"#, "s.json").unwrap();
    let r = analyze_parsed(&spec, &m, &SemOptions::default()).unwrap();
    let rows = rank_changes(&m, &r).unwrap();
    assert_eq!(rows.len(), 6);
    // Plain means: a 36.667, b 17.333, c 31, d 37, e 49, f 59 -> ranks f1 e2 d3 a4 c5 b6.
    let get = |n: &str| rows.iter().find(|x| x.model == n).unwrap();
    assert!((get("a").plain_mean - 110.0 / 3.0).abs() < 1e-12);
    assert_eq!(get("f").rank_plain, 1);
    assert_eq!(get("a").rank_plain, 4);
    assert_eq!(get("b").rank_plain, 6);
    // t3 barely loads, so the weighted score follows t1/t2: a (10, 10) falls to last.
    assert_eq!(get("a").rank_weighted, 6);
    assert_eq!(get("a").change, 4 - 6);
    // Rows come in weighted-rank order and every change is plain minus weighted rank.
    for w in rows.windows(2) {
        assert!(w[0].rank_weighted <= w[1].rank_weighted);
    }
    for x in &rows {
        assert_eq!(x.change, x.rank_plain as i64 - x.rank_weighted as i64);
    }
}

#[test]
fn bootstrap_progress_is_reported_and_csv_has_every_row() {
    let m = gold_matrix();
    let spec = ModelSpec::parse(&gold_table2_draft().to_json(), "s.json").unwrap();
    let opts = SemOptions {
        bootstrap: Some(coglab_core::sem::bootstrap::BootstrapOptions {
            resamples: 250,
            seed: 7,
        }),
        ..SemOptions::default()
    };
    let mut seen = Vec::new();
    let r = analyze_parsed_with_progress(&spec, &m, &opts, &mut |d, t| seen.push((d, t))).unwrap();
    assert_eq!(seen, vec![(0, 250), (100, 250), (200, 250), (250, 250)]);
    // Same numbers as without the callback.
    let plain = analyze_parsed(&spec, &m, &opts).unwrap();
    assert_eq!(plain, r);
    let outer = report_csv(&r, ReportTable::Outer);
    assert_eq!(outer.lines().count(), 1 + r.outer.len());
    assert!(outer.starts_with("item,construct,weight,loading,vif\n"));
    // Color's VIF on Table 2 is 10.523 (coglab sem on the same matrix, see docs).
    let color = outer.lines().find(|l| l.starts_with("Color,")).unwrap();
    let vif: f64 = color.rsplit(',').next().unwrap().parse().unwrap();
    assert!((vif - 10.523).abs() < 5e-4);
    let boot = report_csv(&r, ReportTable::Bootstrap);
    let b = r.bootstrap.as_ref().unwrap();
    assert_eq!(
        boot.lines().count(),
        1 + b.weights.len() + b.loadings.len() + b.paths.len()
    );
    let ranks = ranks_csv(&rank_changes(&m, &r).unwrap());
    assert_eq!(ranks.lines().count(), 11);
    assert!(ranks.starts_with(
        "model,overall,plain_mean,rank_weighted,rank_plain,change,Memory,Perception,Reasoning\n"
    ));
}
