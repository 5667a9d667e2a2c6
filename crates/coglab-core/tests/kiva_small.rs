//! KiVA aggregation on the small hand-made run in `fixtures/kiva/run_small/` (two subdomains,
//! two variations x three regenerations each), with every figure worked out by hand.

use approx::assert_relative_eq;
use coglab_core::kiva::{score_model, KivaError, KivaReport, Variant};

const RED: &[u8] = include_bytes!("fixtures/kiva/run_small/output_Colour/ColourRed.csv");
const REFLECT: &[u8] = include_bytes!("fixtures/kiva/run_small/output_Reflect/ReflectX.csv");

fn report() -> KivaReport {
    score_model([
        ("run_small/output_Colour/ColourRed.csv", RED),
        ("run_small/output_Reflect/ReflectX.csv", REFLECT),
    ])
    .unwrap()
}

fn check(m: Option<coglab_core::stats::describe::MeanSe>, mean: f64, se: f64, n: usize) {
    let m = m.unwrap();
    assert_eq!(m.n, n);
    assert_relative_eq!(m.mean, mean, epsilon = 1e-15);
    assert_relative_eq!(m.se, se, epsilon = 1e-15);
}

/// MCResponse#1/#2/#3 per regeneration:
///   ColourRed v0: (1,1,1) (1,0,0) (0,-,1)   v1: (1,1,1) (1,1,0) (1,1,0)
///   ReflectX  v0: (0,-,0) (0,-,0) (Null,1,0) v1: (1,0,1) (1,0,1) (1,Null,1)
/// Trials (cross, within_conditional, within_joint, extrapolation):
///   ColourRed v0: (2/3, 1/2, 1/3, 2/3)   v1: (1, 1, 1, 1/3)
///   ReflectX  v0: (0, 1, 1/3, 0)         v1: (1, 0, 0, 1)
/// (Null counts 0; stage 2 empty = not asked: left out of within_conditional, 0 in within_joint.)
/// With two trials a and b: mean (a+b)/2, population SD |a-b|/2, SE = SD/sqrt(2):
///   ColourRed cross 5/6, SE (1/6)/√2 = 0.11785113019775792; within_cond 3/4, SE 0.25/√2;
///             joint 2/3, SE (1/3)/√2; extrapolation 1/2, SE (1/6)/√2.
///   ReflectX  cross 1/2, SE 0.5/√2 = 0.35355339059327373; within_cond 1/2, SE 0.5/√2;
///             joint 1/6, SE (1/6)/√2; extrapolation 1/2, SE 0.5/√2.
#[test]
fn subdomains_and_domains() {
    let r = report();
    let s2 = 2f64.sqrt();
    let red = r.by_subdomain["ColourRed"];
    check(red.cross, 5.0 / 6.0, 1.0 / 6.0 / s2, 2);
    check(red.within_conditional, 0.75, 0.25 / s2, 2);
    check(red.within_joint, 2.0 / 3.0, 1.0 / 3.0 / s2, 2);
    check(red.extrapolation, 0.5, 1.0 / 6.0 / s2, 2);
    let refl = r.by_subdomain["ReflectX"];
    check(refl.cross, 0.5, 0.5 / s2, 2);
    check(refl.within_conditional, 0.5, 0.5 / s2, 2);
    check(refl.within_joint, 1.0 / 6.0, 1.0 / 6.0 / s2, 2);
    check(refl.extrapolation, 0.5, 0.5 / s2, 2);
    // One subdomain per domain: the domain rows equal the subdomain rows.
    assert_eq!(r.by_domain["Colour"], red);
    assert_eq!(r.by_domain["Reflect"], refl);
}

/// Overall, four trials:
///   cross (2/3, 1, 0, 1): mean 2/3; deviations (0, 1/3, -2/3, 1/3), variance (6/9)/4 = 1/6,
///     SE = sqrt(1/6)/2 = 0.2041241452319315.
///   within_conditional (1/2, 1, 1, 0): mean 5/8; squared deviations sum 0.6875, variance
///     0.171875, SE = sqrt(0.171875)/2 = 0.2072890493972125.
///   within_joint (1/3, 1, 1/3, 0): mean 5/12; squared deviations (1+49+1+25)/144, variance
///     76/576, SE = sqrt(76/576)/2 = 0.18162078931419473.
///   extrapolation (2/3, 1/3, 0, 1): mean 1/2; variance (1/36+1/36+1/4+1/4)/4 = 5/36,
///     SE = sqrt(5/36)/2 = 0.18633899812498247.
#[test]
fn overall_and_counts() {
    let r = report();
    check(r.overall.cross, 2.0 / 3.0, (1.0f64 / 6.0).sqrt() / 2.0, 4);
    check(
        r.overall.within_conditional,
        0.625,
        0.171875f64.sqrt() / 2.0,
        4,
    );
    check(
        r.overall.within_joint,
        5.0 / 12.0,
        (76.0f64 / 576.0).sqrt() / 2.0,
        4,
    );
    check(
        r.overall.extrapolation,
        0.5,
        (5.0f64 / 36.0).sqrt() / 2.0,
        4,
    );
    assert_eq!(r.variant, Variant::Kiva);
    assert_eq!(r.rows.files, 2);
    assert_eq!(r.rows.rows, 12);
    assert_eq!(r.rows.trials, 4);
    assert_eq!(r.rows.null_answers["cross"], 1);
    assert_eq!(r.rows.null_answers["within"], 1);
    assert_eq!(r.rows.null_answers["extrapolation"], 0);
    assert_eq!(r.rows.empty_answers["within"], 3);
    assert_eq!(r.missing_subdomains.len(), 12);
    assert_eq!(r.warnings.total(), 0);
    assert_eq!(r.trials.len(), 4);
}

#[test]
fn report_round_trips_through_json() {
    let r = report();
    // serde_json (without its float_roundtrip feature) may read a float back 1 ulp off, so the
    // numbers are compared with a tolerance and everything else exactly.
    let back: KivaReport = serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
    assert_eq!(back.by_subdomain.len(), r.by_subdomain.len());
    assert_eq!(back.rows, r.rows);
    assert_eq!(back.trials.len(), r.trials.len());
    for (a, b) in [
        (back.overall, r.overall),
        (back.by_domain["Colour"], r.by_domain["Colour"]),
    ] {
        for s in [
            "cross",
            "within_conditional",
            "within_joint",
            "extrapolation",
        ] {
            let (a, b) = (a.get(s).unwrap(), b.get(s).unwrap());
            assert_eq!(a.n, b.n);
            assert_relative_eq!(a.mean, b.mean, max_relative = 1e-15);
            assert_relative_eq!(a.se, b.se, max_relative = 1e-15);
        }
    }
}

#[test]
fn the_same_subdomain_twice_is_an_error() {
    let err = score_model([
        ("a/output_Colour/ColourRed.csv", RED),
        ("b/output_Colour/ColourRed.csv", RED),
    ])
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "b/output_Colour/ColourRed.csv: subdomain ColourRed is already given by a/output_Colour/ColourRed.csv"
    );
    let err = score_model([
        ("KiVA/m/output_Colour/ColourRed.csv", RED),
        ("KiVA-adults/m/output_Reflect/ReflectX.csv", REFLECT),
    ])
    .unwrap_err();
    assert!(matches!(err, KivaError::MixedVariants { .. }), "{err}");
}
