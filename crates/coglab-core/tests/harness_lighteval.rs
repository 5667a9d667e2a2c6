//! lighteval details files (`details_<task>_<date>.parquet`) read as a harness format and
//! mapped onto MM-IQ items (issue 39). The files in `fixtures/harness/lighteval/` are written
//! by pyarrow 26.0.1 (`make.py` there) in the shapes lighteval writes: `asdict` of
//! `DetailsLogger.Detail` (`src/lighteval/logging/info_loggers.py`) with the columns sorted
//! and `id` dropped (`src/lighteval/logging/evaluation_tracker.py`), as of lighteval
//! 0.13.1.dev0 (commit 3fd15266: `doc` / `model_response` / `metric` struct columns) and of
//! lighteval 0.9.2 (the flat columns). Their responses are `mmiq/preds_small.jsonl`'s, which
//! MM-IQ's extractor scores 4 of 6 against `mmiq/key_small.jsonl` (worked out by hand in
//! `mmiq_small.rs`: items 0, 2, 3 and 5 right).

use coglab_core::harness::{self, lighteval, map, HarnessError, HarnessFormat};
use coglab_core::leaderboard::{self, FileKind, FileState, InputRef};
use coglab_core::mmiq::AnswerKey;
use std::path::PathBuf;

const NEW: &str = "details_mmiq_2025-11-05T10-00-00.000000.parquet";
const OLD: &str = "details_mmiq_2025-03-01T09-30-00.000000.parquet";
const GSM8K: &str = "details_gsm8k_2025-11-05T10-00-00.000000.parquet";

fn fixture(rel: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn details(name: &str) -> Vec<u8> {
    fixture(&format!("harness/lighteval/{name}"))
}

fn key() -> AnswerKey {
    AnswerKey::parse_bytes("key_small.jsonl", &fixture("mmiq/key_small.jsonl")).unwrap()
}

#[test]
fn new_shape_maps_by_id_specific_and_md5_and_scores_4_of_6() {
    let bytes = details(NEW);
    assert_eq!(
        harness::detect_file(NEW, &bytes),
        Some(HarnessFormat::LightevalDetails)
    );
    let f = harness::read(NEW, &bytes).unwrap();
    assert_eq!(f.format, HarnessFormat::LightevalDetails);
    assert_eq!(f.task.as_deref(), Some("lighteval|mmiq|0"));
    assert_eq!(f.records.len(), 6);
    // text_post_processed is scored, not the raw text with its reasoning block.
    assert!(f.records[0]
        .response
        .as_deref()
        .unwrap()
        .starts_with("Looking at the grid"));
    assert_eq!(f.records[0].target.as_deref(), Some("B"));
    assert_eq!(f.records[1].data_id, Some(1));
    assert_eq!(f.records[2].data_id, None);
    assert_eq!(
        f.records[2].hash.as_deref(),
        Some("00000000000000000000000000000002")
    );
    let r = map::score_mmiq(&f, &key(), true).unwrap();
    assert_eq!((r.overall.correct, r.overall.n), (4, 6));
    let parsed: Vec<&str> = r.items.iter().map(|i| i.parsed.as_ref()).collect();
    assert_eq!(parsed, ["B", "D", "A", "D", "Z", "A"]);
    let h = r.harness.as_ref().unwrap();
    assert_eq!(h.harness_label, "lighteval");
    assert_eq!(h.mapped_by["data_id"], 5);
    assert_eq!(h.mapped_by["md5"], 1);
    assert!(h.unmapped.is_empty());
    assert_eq!(h.verdicts, 6);
    // lighteval's own verdict differs on item 5 only ("Answer: (A)", which it scored 0).
    assert_eq!(h.disagreements.len(), 1, "{:?}", h.disagreements);
}

#[test]
fn old_flat_shape_scores_the_same() {
    let f = harness::read(OLD, &details(OLD)).unwrap();
    assert_eq!(f.format, HarnessFormat::LightevalDetails);
    // No task column in the old shape: the file name's.
    assert_eq!(f.task.as_deref(), Some("mmiq"));
    assert_eq!(f.records[4].target.as_deref(), Some("E"));
    let r = map::score_mmiq(&f, &key(), false).unwrap();
    assert_eq!((r.overall.correct, r.overall.n), (4, 6));
    assert_eq!(r.harness.as_ref().unwrap().mapped_by["data_id"], 6);
}

#[test]
fn another_task_is_refused_naming_it() {
    let f = harness::read(GSM8K, &details(GSM8K)).unwrap();
    assert_eq!(f.task.as_deref(), Some("lighteval|gsm8k|0"));
    let e = map::score_mmiq(&f, &key(), false).unwrap_err();
    assert!(matches!(e, HarnessError::WrongTask { .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        format!(
            "{GSM8K}: this is lighteval output for task \"lighteval|gsm8k|0\", expected an \
             MM-IQ task (a task name containing \"mmiq\", e.g. mmiq, mm_iq)"
        )
    );
}

#[test]
fn the_leaderboard_scores_a_details_file_with_the_key() {
    let key = fixture("mmiq/key_small.jsonl");
    let (new, gsm) = (details(NEW), details(GSM8K));
    let inputs = [
        InputRef {
            path: NEW,
            bytes: &new,
            model: Some("m"),
        },
        InputRef {
            path: GSM8K,
            bytes: &gsm,
            model: Some("m2"),
        },
        InputRef {
            path: "MMIQ_benchmark_answer_dict.jsonl",
            bytes: &key,
            model: None,
        },
    ];
    assert_eq!(leaderboard::detect(NEW, &new), FileKind::Harness);
    let s = leaderboard::score_files(&inputs, |_, _, _| {});
    assert_eq!(s.files[0].status, FileState::Ok, "{:?}", s.files[0]);
    assert_eq!(s.mmiq.len(), 1);
    assert_eq!(
        (s.mmiq[0].report.overall.correct, s.mmiq[0].report.overall.n),
        (4, 6)
    );
    assert_eq!(s.files[1].status, FileState::Error);
    assert!(s.files[1]
        .message
        .as_deref()
        .unwrap()
        .contains("for task \"lighteval|gsm8k|0\", expected an MM-IQ task"));
}

/// A row whose `doc.specific.data_id` is not an integer: the error names the row group, the
/// row and the column.
#[test]
fn a_bad_row_names_its_row_group_row_and_column() {
    use crate::common::parquet::to_parquet;
    let good = r#"{"doc": {"query": "q", "choices": ["A", "B"], "gold_index": 0, "specific": {"data_id": "0"}, "task_name": "lighteval|mmiq|0"}, "metric": {"acc": 1.0}, "model_response": {"text": ["A"]}}"#;
    let bad = good.replace("\"data_id\": \"0\"", "\"data_id\": \"zero\"");
    let jsonl = format!("{good}\n{good}\n{good}\n{bad}\n");
    let pq = to_parquet(
        jsonl.as_bytes(),
        parquet::basic::Compression::SNAPPY,
        2,
        true,
    );
    let e = lighteval::read_details("details_mmiq_x.parquet", &pq).unwrap_err();
    assert_eq!(
        e.to_string(),
        "details_mmiq_x.parquet row group 2, row 2: field \"doc.specific.data_id\": expected a \
         non-negative integer (the MM-IQ item's data_id), found \"zero\""
    );
    let cut = lighteval::read_details("details_mmiq_x.parquet", &pq[..pq.len() / 2]).unwrap_err();
    assert!(
        cut.to_string()
            .starts_with("details_mmiq_x.parquet: the file is cut short"),
        "{cut}"
    );
}
