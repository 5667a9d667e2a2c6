//! Score matrices dropped on the leaderboard: detection, Gold's weighted scores with the
//! Table 2 assignment (figures from `coglab sem --json` run on the same CSV with a spec
//! written by hand), a user assignment on the real OpenVLM matrix (same), plain means worked by
//! hand, located errors, and MM-IQ `_acc.csv` summaries taken as given.

use std::collections::BTreeMap;

use approx::assert_relative_eq;
use coglab_core::leaderboard::gold::{analyze, is_score_matrix, GoldResult};
use coglab_core::leaderboard::{detect, score_files, FileKind, FileState, InputRef, Scored};
use coglab_core::reported::ReportedBundle;
use coglab_core::sem::suite::matrix_csv_from_reported;

const GOLD: &str = include_str!("../../../public/data/gold.json");
const OPENVLM: &str = "../../../shared/data/openvlm/models.json";

fn gold_csv() -> String {
    let b = ReportedBundle::parse("gold.json", GOLD).unwrap();
    matrix_csv_from_reported(b.table("gold-table2").unwrap(), &["Overall"])
}

fn run(files: &[(&str, &[u8])]) -> Scored {
    let inputs: Vec<InputRef> = files
        .iter()
        .map(|(p, b)| InputRef {
            path: p,
            bytes: b,
            model: None,
        })
        .collect();
    score_files(&inputs, |_, _, _| {})
}

#[test]
fn gold_table2_matrix_is_scored_with_the_papers_layers() {
    let csv = gold_csv();
    assert_eq!(
        detect("gold-table2.csv", csv.as_bytes()),
        FileKind::ScoreMatrix
    );
    let s = run(&[("gold-table2.csv", csv.as_bytes())]);
    assert_eq!(s.files[0].status, FileState::Ok, "{:?}", s.files[0]);
    assert_eq!(s.files[0].model, "");
    let g = &s.gold[0];
    assert_eq!(g.matrix.models.len(), 10);
    assert_eq!(g.matrix.tasks.len(), 11);
    let r = g.result.as_ref().unwrap();
    assert_eq!(r.layers, ["Perception", "Memory", "Reasoning"]);
    assert_eq!(r.assignment["Landmark"], "Memory");
    assert_eq!(r.n_models, 10);
    let row = |m: &str| r.rows.iter().find(|x| x.model == m).unwrap();
    // `coglab sem --spec gold-spec.json gold-table2.csv --json` (spec written by hand: the
    // three layers of Table 2 as Mode A constructs feeding Overall).
    let gpt = row("GPT-4o");
    assert_relative_eq!(gpt.overall, 79.48504056761112, max_relative = 1e-9);
    assert_relative_eq!(
        gpt.by_construct["Perception"],
        93.4909375012403,
        max_relative = 1e-9
    );
    assert_relative_eq!(
        gpt.by_construct["Memory"],
        78.19034200958315,
        max_relative = 1e-9
    );
    assert_relative_eq!(
        gpt.by_construct["Reasoning"],
        71.90448686163967,
        max_relative = 1e-9
    );
    let q = row("Qwen2.5-VL 7B");
    assert_relative_eq!(q.overall, 81.12145023119626, max_relative = 1e-9);
    assert_relative_eq!(
        q.by_construct["Memory"],
        109.40799203556607,
        max_relative = 1e-9
    );
    // Plain mean by hand: GPT-4o's 11 scores sum to 874.9.
    assert_relative_eq!(gpt.plain_mean, 874.9 / 11.0, max_relative = 1e-12);
    // InternVL3 78B has the best weighted score (81.657). Plain means by hand: InternVL3 78B
    // 901.4/11, Qwen2.5-VL 7B 887.5/11 (its Artwork 147.5), GPT-4o 874.9/11: GPT-4o is third.
    assert_eq!(r.rows[0].model, "InternVL3 78B");
    assert_eq!(gpt.rank_plain, 3);
    assert_relative_eq!(
        row("InternVL3 78B").plain_mean,
        901.4 / 11.0,
        max_relative = 1e-12
    );
}

#[test]
fn another_assignment_of_the_kept_matrix() {
    let csv = gold_csv();
    let s = run(&[("gold-table2.csv", csv.as_bytes())]);
    let m = s.gold[0].data.as_ref().unwrap();
    // Two layers only: the kept matrix scored again with another assignment.
    let mut a: BTreeMap<String, String> = BTreeMap::new();
    for t in ["Color", "Count", "OCR", "Artwork", "Landmark"] {
        a.insert(t.into(), "Perception".into());
    }
    for t in ["Biology", "CS", "Economics", "Electronics", "Math"] {
        a.insert(t.into(), "Reasoning".into());
    }
    a.insert("BMK".into(), String::new());
    let r: GoldResult = analyze(m, &a).unwrap();
    assert_eq!(r.layers, ["Perception", "Reasoning"]);
    assert!(!r.assignment.contains_key("BMK"));
    assert!(r.spec.contains("\"Overall\""));
    // Plain mean over the 10 used tasks (BMK left out): GPT-4o 874.9 − 73.3 = 801.6.
    let gpt = r.rows.iter().find(|x| x.model == "GPT-4o").unwrap();
    assert_relative_eq!(gpt.plain_mean, 801.6 / 10.0, max_relative = 1e-12);
    // One layer is not enough; unreadable arguments are an error.
    let mut one = a.clone();
    for v in one.values_mut() {
        if v == "Reasoning" {
            *v = "Perception".into();
        }
    }
    assert!(analyze(m, &one)
        .unwrap_err()
        .contains("at least two layers"));
}

#[test]
fn openvlm_json_needs_an_assignment_and_matches_the_cli() {
    let path = format!("{}/{OPENVLM}", env!("CARGO_MANIFEST_DIR"));
    let Ok(bytes) = std::fs::read(&path) else {
        eprintln!("{path} absent: skipped");
        return;
    };
    assert_eq!(detect("models.json", &bytes), FileKind::ScoreMatrix);
    let s = run(&[("models.json", &bytes)]);
    let g = &s.gold[0];
    assert!(g.result.is_none());
    assert!(g.message.as_deref().unwrap().contains("assign each task"));
    assert_eq!(g.matrix.models.len(), 284);
    for t in ["MMBench_V11", "OCRBench", "MMVet", "score", "params"] {
        assert!(g.matrix.tasks.iter().any(|x| x == t), "{t}");
    }
    let mut a = BTreeMap::new();
    for t in ["MMBench_V11", "MMStar", "OCRBench", "HallusionBench"] {
        a.insert(t.to_string(), "Perception".to_string());
    }
    for t in ["MMMU_VAL", "MathVista", "AI2D", "MMVet"] {
        a.insert(t.to_string(), "Reasoning".to_string());
    }
    let r: GoldResult = analyze(g.data.as_ref().unwrap(), &a).unwrap();
    assert_eq!(r.n_models, 284);
    // `coglab sem --spec openvlm-spec.json models.json --json` with the same two layers.
    let l = r.rows.iter().find(|x| x.model == "LLaVA-v1-7B").unwrap();
    assert_relative_eq!(l.overall, 31.249897294830593, max_relative = 1e-9);
    assert_relative_eq!(
        l.by_construct["Perception"],
        28.50115281298809,
        max_relative = 1e-9
    );
    assert_relative_eq!(
        l.by_construct["Reasoning"],
        33.98077503399629,
        max_relative = 1e-9
    );
    // LLaVA-v1-7B's 8 benchmarks: 38.7 27.1 34.1 25.4 26.9 48.3 21.6 28.3, sum 250.4.
    assert_relative_eq!(l.plain_mean, 250.4 / 8.0, max_relative = 1e-12);
}

#[test]
fn detection_keeps_other_formats_and_bad_matrices_are_located() {
    assert!(!is_score_matrix(
        "pred.csv",
        b"index,question,answer,prediction\n1,q,A,B\n"
    ));
    assert!(!is_score_matrix("notes.txt", b"hello\nworld\n"));
    assert!(!is_score_matrix(
        "m_RIA_regular_scoring.json",
        br#"{"r1": {"score_judge": "3"}}"#
    ));
    // A ragged matrix with a benchmarks JSON name is still a score matrix candidate only when
    // it parses; a CSV with one numeric column is not one.
    assert!(!is_score_matrix("m.csv", b"model,A\nx,1\ny,2\n"));
    let s = run(&[
        ("m.json", br#"[{"name": "A", "benchmarks": {"x": 1, "y": 2}}, {"name": "B", "benchmarks": {"x": 3, "y": 5}}]"#),
    ]);
    assert_eq!(s.files[0].kind, FileKind::ScoreMatrix);
    // Too few models for the fit: the row is kept with the reason.
    assert!(s.gold[0].result.is_none());
}

#[test]
fn mmiq_acc_summary_rows_are_taken_as_given() {
    let acc = b"\"split\",\"Overall\",\"Logical Operation\",\"Mathematical\"\n\"none\",\"0.2675\",\"0.25\",\"0.3\"\n";
    let s = run(&[("GPT4o_MMIQ_acc.csv", acc)]);
    assert_eq!(s.files[0].kind, FileKind::MmiqAcc);
    assert_eq!(s.files[0].status, FileState::Ok);
    let r = &s.mmiq_acc[0];
    assert_eq!(r.model, "GPT4o");
    assert_eq!(r.summary.rows[0].overall, 0.2675);
    assert_eq!(r.summary.rows[0].by_category["Mathematical"], 0.3);
    let s = run(&[("bad_acc.csv", b"split,Overall\nnone,1.7\n")]);
    assert_eq!(s.files[0].status, FileState::Error);
    assert!(s.files[0]
        .message
        .as_deref()
        .unwrap()
        .contains("bad_acc.csv"));
}
