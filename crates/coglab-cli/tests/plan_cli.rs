//! `coglab plan` (issue 40, item 2), run as a binary on small fixtures whose numbers are
//! worked out by hand below.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn fixture(dir: &str, name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../coglab-core/tests/fixtures")
        .join(dir)
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn coglab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_coglab"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

const Z975: f64 = 1.959963984540054;
const Z80: f64 = 0.8416212335729143;

/// Key A B C D E A: model one is right on items 0, 2, 3, 4, model two on 0, 2, 3 (see
/// rank_cli.rs), so the pair disagrees on 1 of 6 items: ψ = 1/6. For 3 points at 80% power,
/// Connor: n = [1.959964 √(1/6) + 0.841621 √(1/6 - 0.0009)]² / 0.0009 = 1451.14 (Python:
/// 1451.1361405726225), so 1452 items. Six items cannot detect any difference: no MDD.
#[test]
fn plan_mmiq_json_gives_connors_count() {
    let key = fixture("ranks", "extraction_key.jsonl");
    let one = format!("one={}", fixture("ranks", "extraction_model1.jsonl"));
    let two = format!("two={}", fixture("ranks", "extraction_model2.jsonl"));
    let o = coglab(&[
        "plan",
        "mmiq",
        "--answers",
        &key,
        &one,
        &two,
        "--mde",
        "0.03",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["method"], "mcnemar");
    assert_eq!(v["benchmark_size"], 6);
    assert!(v["mdd"].is_null());
    let pair = &v["pairs"][0];
    assert_eq!(
        (pair["a"].as_str(), pair["b"].as_str()),
        (Some("one"), Some("two"))
    );
    let psi = 1.0 / 6.0;
    assert!((pair["spread"].as_f64().unwrap() - psi).abs() < 1e-15);
    let want = (Z975 * f64::sqrt(psi) + Z80 * f64::sqrt(psi - 0.0009)).powi(2) / 0.0009;
    assert!((pair["items_exact"].as_f64().unwrap() - want).abs() < 1e-9);
    assert!((want - 1451.1361405726225).abs() < 1e-9);
    assert_eq!(pair["items"], 1452);
    let s = &v["summary"];
    assert_eq!(
        (s["items"].as_u64(), s["min_items"].as_u64()),
        (Some(1452), Some(1452))
    );
    // The exact test is conservative: below 80% at Connor's count.
    let exact = s["exact_power"].as_f64().unwrap();
    assert!(exact > 0.75 && exact < 0.8, "{exact}");
    assert!(v["replicates"].as_array().unwrap().is_empty());

    let o = coglab(&[
        "plan",
        "mmiq",
        "--answers",
        &key,
        &one,
        &two,
        "--mde",
        "0.03",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("to detect 3.0 points: 1452 items per pair"),
        "{text}"
    );
    assert!(text.contains("now: too few items"), "{text}");
}

/// A KiVA board of two runs, one subdomain, 3 trials x 3 regenerations (stage 1):
/// A: {1,1,1}, {1,0,0}, {0,0,0}; B: {1,1,1}, {0,0,0}, {0,0,0}.
/// Trial means A 1, 1/3, 0 and B 1, 0, 0: differences 0, 1/3, 0, SD √3 / 9 = 0.19245;
/// for 10 points: ((1.959964 + 0.841621) · 0.19245 / 0.1)² = 29.07, so 30 items.
/// A's variance split: MSW = (6/9) / 6 = 1/9, MSB = (14/9) / 2 = 7/9, n₀ = 3, so
/// σ²_b = 2/9, σ²_w = 1/9, and at 3 items SE_1 = √((2/9 + 1/9) / 3) = 1/3,
/// SE_3 = √((2/9 + 1/27) / 3) = √7 / 9.
#[test]
fn plan_kiva_splits_the_regenerations() {
    let dir = std::env::temp_dir().join(format!("coglab-plan-kiva-{}", std::process::id()));
    let run = |name: &str, rows: &str| {
        let sub = dir.join(name).join("output_Colour");
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::write(
            sub.join("ColourRed.csv"),
            format!("Variation,Regeneration,MCResponse#1,MCResponse#2,MCResponse#3\n{rows}"),
        )
        .unwrap();
        format!("{name}={}", dir.join(name).to_string_lossy())
    };
    let a = run(
        "A",
        "0,0,1,,\n0,1,1,,\n0,2,1,,\n1,0,1,,\n1,1,0,,\n1,2,0,,\n2,0,0,,\n2,1,0,,\n2,2,0,,\n",
    );
    let b = run(
        "B",
        "0,0,1,,\n0,1,1,,\n0,2,1,,\n1,0,0,,\n1,1,0,,\n1,2,0,,\n2,0,0,,\n2,1,0,,\n2,2,0,,\n",
    );
    let o = coglab(&["plan", "kiva", &a, &b, "--mde", "0.1", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["method"], "paired_normal");
    let sd = 3f64.sqrt() / 9.0;
    let pair = &v["pairs"][0];
    assert!((pair["spread"].as_f64().unwrap() - sd).abs() < 1e-12);
    let want = ((Z975 + Z80) * sd / 0.1).powi(2);
    assert!((pair["items_exact"].as_f64().unwrap() - want).abs() < 1e-9);
    assert_eq!(pair["items"], 30);
    let reps = v["replicates"].as_array().unwrap();
    let ra = reps.iter().find(|r| r["model"] == "A").unwrap();
    assert!((ra["split"]["between"].as_f64().unwrap() - 2.0 / 9.0).abs() < 1e-12);
    assert!((ra["split"]["within"].as_f64().unwrap() - 1.0 / 9.0).abs() < 1e-12);
    let se = ra["se"].as_array().unwrap();
    assert_eq!(se[0][0], 1);
    assert!((se[0][1].as_f64().unwrap() - 1.0 / 3.0).abs() < 1e-12);
    assert_eq!(se[2][0], 3);
    assert!((se[2][1].as_f64().unwrap() - 7f64.sqrt() / 9.0).abs() < 1e-12);

    let o = coglab(&["plan", "kiva", &a, &b, "--mde", "0.1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("regenerations:"), "{}", stdout(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn plan_refuses_bad_options_and_a_single_model() {
    let key = fixture("ranks", "extraction_key.jsonl");
    let one = format!("one={}", fixture("ranks", "extraction_model1.jsonl"));
    let o = coglab(&["plan", "mmiq", "--answers", &key, &one, "--mde", "3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--mde: 3 is not between 0 and 1 (a fraction: 0.03 = 3 points)"),
        "{}",
        stderr(&o)
    );
    let o = coglab(&[
        "plan",
        "mmiq",
        "--answers",
        &key,
        &one,
        "--mde",
        "0.03",
        "--power",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--power: 1 is not between 0 and 1"),
        "{}",
        stderr(&o)
    );
    let o = coglab(&["plan", "mmiq", "--answers", &key, &one, "--mde", "0.03"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("needs at least 2"), "{}", stderr(&o));
    let o = coglab(&["plan", "mmiq", &one, "--mde", "0.03"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("plan mmiq: --answers KEY is required"),
        "{}",
        stderr(&o)
    );
}
