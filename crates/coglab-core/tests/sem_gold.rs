//! Gold's benchmark diagnostics: Algorithm 1 pruning, the human anchor, weighted overall
//! scores, descriptives and located errors on bad input.

use crate::common;

use coglab_core::sem::data::Missing;
use coglab_core::sem::{analyze, SemError, SemOptions};

const PRUNE_CSV: &str = include_str!("fixtures/sem/prune.csv");

/// Fixture `prune.csv` (12 models, made with numpy: A = {a1, a2, a3, a4} where a3 is a1 plus
/// 5% noise and a4 is unrelated noise; B = {b1, b2}; `arena` is the human column).
const PRUNE_SPEC: &str = r#"{"constructs": {"A": ["a1", "a2", "a3", "a4"], "B": ["b1", "b2"]},
  "human_column": "arena",
  "thresholds": {"vif_max": 5.0, "loading_min": 0.75, "min_indicators": 2}}"#;

#[test]
fn algorithm1_removes_the_redundant_then_the_weak_task() {
    let opts = SemOptions {
        prune: true,
        ..SemOptions::default()
    };
    let r = analyze(
        PRUNE_SPEC,
        "prune.json",
        PRUNE_CSV.as_bytes(),
        "prune.csv",
        &opts,
    )
    .unwrap();
    // Expected steps, reference figures from numpy and plspm 0.5.7 on the same file:
    // 1. item VIFs of A = diag(inv(corrcoef(a1..a4))) = 300.249, 4.488, 314.337, 1.141
    //    -> remove a3 (largest above 5).
    // 2. after that all VIFs < 5 (4.096, 4.166, 1.127; B 2 items); plspm (path scheme, A and B
    //    -> arena, population-standardized data) gives loading(a4) = -0.0839011037 < 0.75
    //    -> remove a4 (smallest |loading|).
    // 3. A = {a1, a2} and B = {b1, b2} are at min_indicators = 2: stop.
    let steps: Vec<(&str, &str)> = r
        .pruning
        .iter()
        .map(|s| (s.removed.as_str(), s.reason.as_str()))
        .collect();
    assert_eq!(steps, vec![("a3", "vif"), ("a4", "loading")]);
    assert!(
        (r.pruning[0].value - 314.336_778_92).abs() < 1e-4,
        "{}",
        r.pruning[0].value
    );
    assert!(
        (r.pruning[1].value + 0.083_901_103_7).abs() < 1e-6,
        "{}",
        r.pruning[1].value
    );
    assert!((r.pruning[1].vif["a1"] - 4.096_289_71).abs() < 1e-6);
    // Final model equals plspm's fit of A = {a1, a2}, B = {b1, b2} -> arena.
    for (item, loading) in [
        ("a1", 0.962_777_334_484),
        ("a2", 0.963_021_102_127),
        ("b1", 0.925_215_439_105),
    ] {
        assert!((r.outer[item].loading - loading).abs() < 1e-6, "{item}");
    }
    assert!((r.paths["A -> arena"] - 0.661_916_808_772).abs() < 1e-6);
    assert!((r.paths["B -> arena"] - 0.490_182_664_726).abs() < 1e-6);
    // The human anchor is not a task: it is not pruned and not in TC / overall scores.
    assert_eq!(r.outer["arena"].construct, "arena");
    let by = &r.overall_scores["m1"].by_construct;
    assert_eq!(by.keys().collect::<Vec<_>>(), vec!["A", "B"]);
}

#[test]
fn weighted_overall_score_by_hand() {
    // Final loadings (plspm above): a1 0.9627773, a2 0.9630211, b1 0.9252154, b2 0.9138978.
    // Model m1: a1 44.0, a2 36.5, b1 38.0, b2 31.2 ->
    // A = (0.9627773·44 + 0.9630211·36.5) / (0.9627773 + 0.9630211) = 40.24948
    // overall = Σ|λ|s / Σ|λ| over the four = (42.36220 + 35.15027 + 35.15819 + 28.51361) / 3.7649116
    let opts = SemOptions {
        prune: true,
        ..SemOptions::default()
    };
    let r = analyze(
        PRUNE_SPEC,
        "prune.json",
        PRUNE_CSV.as_bytes(),
        "prune.csv",
        &opts,
    )
    .unwrap();
    let l = [
        0.962_777_334_484,
        0.963_021_102_127,
        0.925_215_439_105,
        0.913_897_819_470,
    ];
    let s = [44.0, 36.5, 38.0, 31.2];
    let overall: f64 = l.iter().zip(&s).map(|(a, b)| a * b).sum::<f64>() / l.iter().sum::<f64>();
    let a = (l[0] * s[0] + l[1] * s[1]) / (l[0] + l[1]);
    let m1 = &r.overall_scores["m1"];
    assert!(
        (m1.overall - overall).abs() < 1e-5,
        "{} vs {overall}",
        m1.overall
    );
    assert!((m1.by_construct["A"] - a).abs() < 1e-5);
    let h = r.human.as_ref().unwrap();
    assert_eq!(h.pearson.n, 12);
    assert!(h.pearson.r > 0.8 && h.spearman.r > 0.8, "{h:?}");
}

#[test]
fn seminr_loadings_weight_the_mobi_overall_score() {
    // Overall score of mobi's row "1" weighted by seminr's loadings (outer_model_path.csv):
    // CUEX1-3 = 7, 7, 6; CUSA1-3 = 6, 4, 7; IMAG1-5 = 7, 5, 5, 5, 4; PERV1-2 = 2, 3.
    let Some(data) = common::shared_bytes("sem/mobi.csv") else {
        return;
    };
    let r = analyze(
        common::MOBI_SPEC,
        "s.json",
        &data,
        "mobi.csv",
        &SemOptions::default(),
    )
    .unwrap();
    let pairs = [
        (0.761524665396, 7.0),
        (0.710214472519, 7.0),
        (0.597659373658, 6.0),
        (0.804053676875, 6.0),
        (0.842878555813, 4.0),
        (0.85037956092, 7.0),
        (0.763199100938, 7.0),
        (0.598825742061, 5.0),
        (0.561373435202, 5.0),
        (0.769170608201, 5.0),
        (0.736254357469, 4.0),
        (0.901400554963, 2.0),
        (0.940265063863, 3.0),
    ];
    let want =
        pairs.iter().map(|(l, s)| l * s).sum::<f64>() / pairs.iter().map(|p| p.0).sum::<f64>();
    assert!((r.overall_scores["1"].overall - want).abs() < 1e-6);
    let value = (0.901400554963 * 2.0 + 0.940265063863 * 3.0) / (0.901400554963 + 0.940265063863);
    assert!((r.overall_scores["1"].by_construct["Value"] - value).abs() < 1e-6);
    // Construct scores are standardized: mean 0, SD 1 (n - 1).
    let d = &r.descriptives.constructs["Satisfaction"];
    assert!(d.mean.abs() < 1e-12 && (d.sd.unwrap() - 1.0).abs() < 1e-12);
}

#[test]
fn openvlm_two_stage_with_pruning() {
    // The real 284 x 8 OpenVLM matrix, two layers under one second-order construct.
    let Some(data) = common::shared_bytes("openvlm/models.json") else {
        return;
    };
    let spec = r#"{"constructs": {"Perception": ["MMBench_V11", "MMStar", "AI2D", "OCRBench", "HallusionBench"],
                                  "Reasoning": ["MMMU_VAL", "MathVista", "MMVet"]},
                   "second_order": {"Overall": ["Perception", "Reasoning"]},
                   "thresholds": {"vif_max": 5.0, "loading_min": 0.75, "min_indicators": 2}}"#;
    let opts = SemOptions {
        prune: true,
        ..SemOptions::default()
    };
    let r = analyze(spec, "s.json", &data, "models.json", &opts).unwrap();
    assert_eq!(r.n_models, 284);
    assert!(r.dropped_models.is_empty());
    // Every removal was above δ_VIF or below λ_min when it was made, VIF removals first.
    for s in &r.pruning {
        match s.reason.as_str() {
            "vif" => assert!(s.value > 5.0),
            "loading" => assert!(s.value.abs() < 0.75),
            other => panic!("unknown reason {other}"),
        }
    }
    // After pruning no eligible task breaks a threshold.
    for (item, e) in r.outer.iter().filter(|(_, e)| e.construct != "Overall") {
        let size = r
            .outer
            .values()
            .filter(|x| x.construct == e.construct)
            .count();
        if size > 2 {
            assert!(
                r.vif[item] <= 5.0 && e.loading.abs() >= 0.75,
                "{item} should have been pruned"
            );
        }
    }
    assert_eq!(r.outer["Perception"].construct, "Overall");
    assert!(r.reliability.contains_key("Overall"));
}

#[test]
fn located_errors_on_bad_input() {
    let csv = "model,a,b,c,k\nm1,1,2,3,5\nm2,2,1,3,5\nm3,3,4,6,5\nm4,4,3,7,5\nm5,5,6,11,5\n";
    let run = |spec: &str| {
        analyze(
            spec,
            "spec.json",
            csv.as_bytes(),
            "d.csv",
            &SemOptions::default(),
        )
        .unwrap_err()
    };
    // Unknown indicator: spec line and construct named.
    let e = run("{\"constructs\": {\n \"A\": [\"a\", \"zz\"],\n \"B\": [\"b\"]}, \"paths\": [[\"A\", \"B\"]]}");
    assert!(e.to_string().starts_with("spec.json line 2: field \"constructs.A\": indicator \"zz\" is not a column of d.csv (columns: a, b, c, k)"), "{e}");
    // Constant indicator.
    let e = run(r#"{"constructs": {"A": ["a", "k"], "B": ["b"]}, "paths": [["A", "B"]]}"#);
    assert!(
        matches!(&e, SemError::ConstantIndicator { column, n: 5, .. } if column == "k"),
        "{e}"
    );
    // Perfectly collinear Mode B block: c = a + b.
    let csv2 =
        "model,a,b,c,y\nm1,1,2,3,1\nm2,2,1,3,3\nm3,3,4,7,2\nm4,4,3,7,5\nm5,5,6,11,4\nm6,6,5,11,6\n";
    let e = analyze(
        r#"{"constructs": {"A": {"indicators": ["a", "b", "c"], "mode": "B"}, "Y": ["y"]}, "paths": [["A", "Y"]]}"#,
        "spec.json",
        csv2.as_bytes(),
        "d2.csv",
        &SemOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "construct \"A\" (Mode B weights): indicators are perfectly collinear: \"c\" is a linear combination of \"a\", \"b\""
    );
    // Too few models.
    let e = analyze(
        r#"{"constructs": {"A": ["a"], "B": ["b"]}, "paths": [["A", "B"]]}"#,
        "s.json",
        b"m,a,b\nx,1,2\ny,2,1\n",
        "t.csv",
        &SemOptions::default(),
    )
    .unwrap_err();
    assert!(
        matches!(
            e,
            SemError::TooFewModels {
                needed: 3,
                found: 2,
                ..
            }
        ),
        "{e}"
    );
    // Listwise deletion counts, mean imputation keeps everyone.
    let gaps = "m,a,b\nx,1,2\ny,2,NA\nz,3,5\nw,4,3\nv,5,6\n";
    let spec = r#"{"constructs": {"A": ["a"], "B": ["b"]}, "paths": [["A", "B"]]}"#;
    let r = analyze(
        spec,
        "s.json",
        gaps.as_bytes(),
        "g.csv",
        &SemOptions::default(),
    )
    .unwrap();
    assert_eq!(
        (r.n_models, r.dropped_models.clone()),
        (4, vec!["y".to_string()])
    );
    let r = analyze(
        spec,
        "s.json",
        gaps.as_bytes(),
        "g.csv",
        &SemOptions {
            missing: Missing::Mean,
            ..SemOptions::default()
        },
    )
    .unwrap();
    assert_eq!((r.n_models, r.imputed_cells), (5, 1));
}
