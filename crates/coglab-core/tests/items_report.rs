//! The page-sized item report (issue 22): its size on an MM-IQ-sized matrix (2,710 items x 300
//! respondents, simulated from a seeded 2PL as in `benches/items.rs`) and what it keeps.

use coglab_core::items::matrix::{ItemInfo, RespondentInfo};
use coglab_core::items::{
    analyse, report, AnalysisOptions, IrtOptions, ReportOptions, ResponseMatrix,
};
use coglab_core::stats::rng::Rng;

fn normal(rng: &mut Rng) -> f64 {
    let u1 = rng.next_f64().max(1e-300);
    let u2 = rng.next_f64();
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

/// 2,710 items in 8 categories x 300 model respondents, 2PL, no missing cells.
fn mmiq_sized() -> ResponseMatrix {
    let (items, resp) = (2710, 300);
    let mut rng = Rng::new(2710);
    let a: Vec<f64> = (0..items).map(|_| 0.5 + 2.0 * rng.next_f64()).collect();
    let b: Vec<f64> = (0..items).map(|_| -2.0 + 4.0 * rng.next_f64()).collect();
    let mut cells = Vec::with_capacity(items * resp);
    for _ in 0..resp {
        let t = normal(&mut rng);
        for (aj, bj) in a.iter().zip(&b) {
            cells.push(Some(rng.next_f64() < 1.0 / (1.0 + (-aj * (t - bj)).exp())));
        }
    }
    let info = (0..items)
        .map(|j| ItemInfo {
            id: format!("{j}"),
            category: Some(format!("paradigm {}", j % 8)),
            key: Some("ABCD"[j % 4..j % 4 + 1].to_string()),
        })
        .collect();
    let respondents = (0..resp)
        .map(|i| RespondentInfo {
            id: format!("model-{i:03}"),
            group: Some("model".into()),
        })
        .collect();
    ResponseMatrix::new("sim", info, respondents, &cells).unwrap()
}

#[test]
fn the_report_of_2710_items_by_300_respondents_is_page_sized() {
    let m = mmiq_sized();
    let aopts = AnalysisOptions {
        irt: IrtOptions {
            item_curves: true,
            ..IrtOptions::default()
        },
        ..AnalysisOptions::default()
    };
    let full = analyse(&m, &aopts).unwrap();
    let r = report(&full, &ReportOptions::default());
    let full_json = serde_json::to_string(&full).unwrap();
    let json = serde_json::to_string(&r).unwrap();
    eprintln!(
        "full analysis {} KB, report {} KB",
        full_json.len() / 1024,
        json.len() / 1024
    );
    // The bound: the item table is 2,710 rows of about 360 bytes of JSON at full precision
    // (963 KB measured); the rest (300 respondents, 61-point curves, <= 200 tau points, the
    // subset's ids, the group gaps) adds about 110 KB. The full analysis with every curve
    // was 10.5 MB.
    assert!(json.len() <= 1_200 * 1024, "report is {} bytes", json.len());
    assert!(
        json.len() * 8 < full_json.len(),
        "{} vs {}",
        json.len(),
        full_json.len()
    );
    let items_only = serde_json::to_string(&r.items).unwrap().len();
    eprintln!("item table {} KB", items_only / 1024);
    assert_eq!(r.items.len(), 2710);
    assert_eq!(r.respondents.len(), 300);
    assert_eq!(r.theta.len(), 61);
    assert_eq!(r.test_information.len(), 61);
    // Grid -4 to 4 in 60 steps: the middle point is theta = 0.
    assert!(r.theta[30].abs() < 1e-12 && (r.theta[60] - 4.0).abs() < 1e-12);
    let s = r.subset.as_ref().unwrap();
    assert!(s.curve.len() <= 200);
    assert_eq!(s.total, 2710);
    assert_eq!(s.curve.first().unwrap().size, 1);
    assert_eq!(s.curve.last().unwrap().size, 2710);
    if let Some(k) = s.size {
        assert!(s.curve.iter().any(|p| p.size == k), "chosen size {k} kept");
        assert_eq!(s.items.len(), k);
    }
    assert!(r.curves.len() <= 24);
    // The test information on the grid is the sum over fitted items of a^2 P (1 - P): at the
    // grid point theta = 0, recomputed here from the table's a and b.
    let at0: f64 = r
        .items
        .iter()
        .filter_map(|i| {
            let (a, b) = (i.a?, i.b?);
            let p = 1.0 / (1.0 + (a * b).exp());
            Some(a * a * p * (1.0 - p))
        })
        .sum();
    assert!((r.test_information[30] - at0).abs() < 1e-9 * at0);
}

#[test]
fn curves_follow_the_request() {
    let m = mmiq_sized();
    let full = analyse(
        &m,
        &AnalysisOptions {
            subset: None,
            sx2: None,
            ..AnalysisOptions::default()
        },
    )
    .unwrap();
    let opts = ReportOptions {
        curves_for: vec!["17".into(), "no such item".into(), "2000".into()],
        ..ReportOptions::default()
    };
    let r = report(&full, &opts);
    let ids: Vec<&str> = r.curves.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, vec!["17", "2000"]);
    // Item 17's curve at theta = b is 1/2 (the 2PL's inflection point); the grid does not hit
    // b exactly, so check monotonicity and the ends instead: P rises from near 0 to near 1
    // when a > 0.
    let c = &r.curves[0];
    assert_eq!(c.p.len(), 61);
    let a = r.items[17].a.unwrap();
    if a > 0.0 {
        assert!(c.p.windows(2).all(|w| w[1] >= w[0]));
    }
    let capped = report(
        &full,
        &ReportOptions {
            curves_for: (0..100).map(|j| j.to_string()).collect(),
            max_curves: 5,
            ..ReportOptions::default()
        },
    );
    assert_eq!(capped.curves.len(), 5);
    assert!(capped.curves_capped);
}

/// Issue 42, defect 12: with 3 respondents the 2PL slopes ran to their bound and dozens of
/// items were flagged with no warning. The flags that compare respondents are withheld and a
/// note says why; items no one or everyone answered right are still flagged.
#[test]
fn three_respondents_withhold_discrimination_flags_and_say_so() {
    use coglab_core::items::{Flag, MIN_FLAG_RESPONDENTS};
    // Three respondents, six items: item i6 right for all, i5 for none.
    let csv = "id,i1,i2,i3,i4,i5,i6\na,1,0,1,0,0,1\nb,0,1,1,1,0,1\nc,1,1,0,0,0,1\n";
    let m = ResponseMatrix::parse_csv("three.csv", csv.as_bytes()).unwrap();
    let a = analyse(&m, &AnalysisOptions::default()).unwrap();
    let flags: Vec<&Vec<Flag>> = a.items.iter().map(|i| &i.flags).collect();
    assert_eq!(flags[4], &vec![Flag::NoneRight]);
    assert_eq!(flags[5], &vec![Flag::AllRight]);
    for f in &flags[..4] {
        assert!(f.is_empty(), "{f:?}");
    }
    let note = a
        .notes
        .iter()
        .find(|n| n.starts_with("Only 3 respondents"))
        .expect("a note on the few respondents");
    assert!(
        note.contains(&format!("{MIN_FLAG_RESPONDENTS} respondents or more")),
        "{note}"
    );
}
