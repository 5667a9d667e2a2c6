//! Batch scoring of dropped files on the real MM-IQ and KiVA data (skipped when absent).

use coglab_core::leaderboard::{score_files, FileKind, FileState, InputRef};
use std::path::Path;

const DATA: &str = "/work/shared/data";

fn read(rel: &str) -> Option<Vec<u8>> {
    std::fs::read(Path::new(DATA).join(rel)).ok()
}

#[test]
fn mmiq_key_predictions_and_a_bad_file() {
    let (Some(key), Some(preds)) = (
        read("mmiq/MMIQ_benchmark_answer_dict.jsonl"),
        read("mmiq/example_output_parsed.jsonl"),
    ) else {
        eprintln!("skipped: {DATA} absent");
        return;
    };
    let bad = b"{\"data_id\": 1, \"response\": \"A\"}\n{not json\n".to_vec();
    let inputs = [
        InputRef {
            path: "example_output_parsed.jsonl",
            bytes: &preds,
            model: None,
        },
        InputRef {
            path: "broken_output.jsonl",
            bytes: &bad,
            model: Some("Broken"),
        },
        InputRef {
            path: "MMIQ_benchmark_answer_dict.jsonl",
            bytes: &key,
            model: None,
        },
    ];
    let mut calls = 0;
    let s = score_files(&inputs, |_, _, _| calls += 1);
    assert!(calls >= 3);
    assert_eq!(s.files[0].kind, FileKind::MmiqPredictions);
    assert_eq!(s.files[2].kind, FileKind::MmiqKey);
    assert_eq!(s.files[0].status, FileState::Ok);
    assert_eq!(s.files[0].model, "example");
    // The bad file fails with its line number; the good one is still scored.
    assert_eq!(s.files[1].status, FileState::Error);
    let msg = s.files[1].message.as_deref().unwrap();
    assert!(
        msg.contains("broken_output.jsonl") && msg.contains('2'),
        "{msg}"
    );
    assert_eq!(s.mmiq.len(), 1);
    let r = &s.mmiq[0].report;
    assert_eq!(r.overall.n as usize, r.rows.scored);
    // The released example covers 7 of the 8 paradigms.
    assert_eq!(r.by_category.len(), 7);
    assert!(r
        .by_category
        .keys()
        .all(|c| coglab_core::mmiq::CATEGORIES.contains(&c.as_str())));
}

#[test]
fn defect_1_predictions_without_a_key_wait_for_it() {
    // Issue 26, defect 1: predictions dropped without the key are not an error but wait for
    // it (the page keeps them and scores them when the key arrives), and say what they wait for.
    let Some(preds) = read("mmiq/example_output_parsed.jsonl") else {
        return;
    };
    let s = score_files(
        &[InputRef {
            path: "p.jsonl",
            bytes: &preds,
            model: None,
        }],
        |_, _, _| {},
    );
    assert_eq!(s.files[0].status, FileState::Waiting);
    assert!(s.files[0]
        .message
        .as_deref()
        .unwrap()
        .starts_with("waits for the MM-IQ answer key"));
    assert!(s.mmiq.is_empty());
}

#[test]
fn kiva_folders_group_by_model() {
    let root = Path::new(DATA).join("kiva/model_data/KiVA");
    if !root.exists() {
        return;
    }
    let mut files = Vec::new();
    for model in ["gpt4_multi_image", "mantis_multi_image"] {
        for d in std::fs::read_dir(root.join(model)).unwrap() {
            let d = d.unwrap().path();
            for f in std::fs::read_dir(&d).unwrap() {
                let f = f.unwrap().path();
                let rel = f.strip_prefix(root.parent().unwrap()).unwrap();
                files.push((
                    rel.to_string_lossy().to_string(),
                    std::fs::read(&f).unwrap(),
                ));
            }
        }
    }
    let inputs: Vec<InputRef> = files
        .iter()
        .map(|(p, b)| InputRef {
            path: p,
            bytes: b,
            model: None,
        })
        .collect();
    let s = score_files(&inputs, |_, _, _| {});
    assert!(s
        .files
        .iter()
        .all(|f| f.kind == FileKind::KivaRun && f.status == FileState::Ok));
    let models: Vec<&str> = s.kiva.iter().map(|r| r.model.as_str()).collect();
    assert_eq!(models, ["gpt4_multi_image", "mantis_multi_image"]);
    // Each is the same report as scoring that folder alone.
    let alone: Vec<(&str, &[u8])> = files
        .iter()
        .filter(|(p, _)| p.contains("gpt4_multi_image"))
        .map(|(p, b)| (p.as_str(), b.as_slice()))
        .collect();
    let want = coglab_core::kiva::score_model(alone).unwrap();
    assert_eq!(s.kiva[0].report, want);
    assert_eq!(s.kiva[0].report.by_domain.len(), 5);
}

/// A UTF-16 (or UTF-32) file dropped on the leaderboard or the Review page is not recognised
/// as any format, since its bytes are not the text the detectors look for. Its message says
/// what it is (issue 27 defect 10) instead of "not a recognised ... result file"; a file that
/// is text but of no known format keeps the old message.
#[test]
fn a_dropped_utf16_file_is_named_as_utf16() {
    let text = "{\"data_id\": 0, \"response\": \"The answer is B\"}\n";
    let mut le = vec![0xFF, 0xFE];
    le.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    let mut be = vec![0xFE, 0xFF];
    be.extend(text.encode_utf16().flat_map(u16::to_be_bytes));
    let inputs = [
        InputRef {
            path: "model_output.jsonl",
            bytes: &le,
            model: None,
        },
        InputRef {
            path: "ColourRed.csv",
            bytes: &be,
            model: None,
        },
        InputRef {
            path: "notes.txt",
            bytes: b"hello",
            model: None,
        },
    ];
    let s = score_files(&inputs, |_, _, _| {});
    let messages: Vec<&str> = s
        .files
        .iter()
        .map(|f| f.message.as_deref().unwrap())
        .collect();
    assert_eq!(
        messages,
        [
            "model_output.jsonl: the file is UTF-16 LE text (with a byte-order mark), not UTF-8: save it as UTF-8",
            "ColourRed.csv: the file is UTF-16 BE text (with a byte-order mark), not UTF-8: save it as UTF-8",
            "notes.txt: not a recognised MM-IQ, KiVA or MM-OPERA result file",
        ]
    );
    assert!(s.files.iter().all(|f| f.status == FileState::Error));
    // The Review page: the UTF-16 file is an error naming its encoding, not a note.
    let loaded = coglab_core::review::build_sets(&[("model_output.jsonl".to_string(), le)]);
    assert_eq!(
        loaded.errors,
        ["model_output.jsonl: the file is UTF-16 LE text (with a byte-order mark), not UTF-8: save it as UTF-8"]
    );
    assert!(loaded.notes.is_empty(), "{:?}", loaded.notes);
}

/// Issue 42, defect 8: an lm-eval results file of another task was listed "OK" and added
/// nothing; a samples file of another task failed without naming it.
#[test]
fn harness_files_of_another_task_say_so() {
    let results = br#"{"results": {"mmmu_val": {"alias": "mmmu_val", "mmmu_acc,none": 0.41}},
        "n-samples": {"mmmu_val": {"original": 900, "effective": 900}},
        "config": {"model": "m"}, "lmms_eval_version": "0.3.0"}"#;
    let key = br#"{"category": "Mathematical", "MD5": "x", "data_id": 0, "answer": "B"}"#;
    let samples = br#"{"doc_id": 0, "doc": {"id": "validation_Art_0"}, "target": "A", "resps": [["A"]], "filtered_resps": ["A"]}"#;
    let s = score_files(
        &[
            InputRef {
                path: "20240601_results.json",
                bytes: results,
                model: None,
            },
            InputRef {
                path: "key.jsonl",
                bytes: key,
                model: None,
            },
            InputRef {
                path: "samples_mmmu_val_2024-06-01T12-00-00.123456.jsonl",
                bytes: samples,
                model: None,
            },
        ],
        |_, _, _| {},
    );
    assert!(s.harness_summary.is_empty());
    assert_eq!(s.files[0].kind, FileKind::Harness);
    assert_eq!(s.files[0].status, FileState::Error);
    assert_eq!(
        s.files[0].message.as_deref(),
        Some(
            "20240601_results.json: no MM-IQ task among its results (its tasks: mmmu_val); the \
             boards show the MM-IQ figures of a harness summary"
        )
    );
    assert_eq!(s.files[2].status, FileState::Error);
    assert_eq!(
        s.files[2].message.as_deref(),
        Some(
            "samples_mmmu_val_2024-06-01T12-00-00.123456.jsonl: this is lmms-eval output for task \
             \"mmmu_val\", expected an MM-IQ task (a task name containing \"mmiq\", e.g. mmiq, mm_iq)"
        )
    );
}
