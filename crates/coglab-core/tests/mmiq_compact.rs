//! The compact answer key (`CompactKey`) and predictions scored as they are read
//! (`StreamScorer`) give the report the full key and the read file give (`AnswerKey`,
//! `PredictionsReader::letters_only`, `score_totals`): on the real key and example predictions
//! of `../shared/data` (33 of 100, counted by hand in `mmiq_real.rs`), on rows made to raise
//! every warning, however the files are sliced and whenever the key arrives; with the same
//! errors naming file, line and field; and the key's `MD5`s map a hash to the item the full
//! key's `MD5` does.

use crate::common;

use coglab_core::mmiq::{
    score_totals, AnswerKey, CompactKey, CompactKeyReader, KeyReader, MmiqReport,
    PredictionsReader, StreamScorer,
};

/// The compact key of `bytes`, read in slices of `n` bytes.
fn compact_key(bytes: &[u8], n: usize, md5: bool) -> Result<CompactKey, String> {
    let mut r = CompactKeyReader::new("key.jsonl");
    if md5 {
        r = r.with_md5();
    }
    for s in bytes.chunks(n.max(1)) {
        r.push(s).map_err(|e| e.to_string())?;
    }
    r.finish().map_err(|e| e.to_string())
}

/// The full path: the key read whole, the predictions read letters only, then scored.
fn full_report(key: &[u8], preds: &[u8]) -> Result<MmiqReport, String> {
    let key = AnswerKey::parse_bytes("key.jsonl", key).map_err(|e| e.to_string())?;
    let mut r = PredictionsReader::new("p.jsonl", preds.len()).letters_only();
    r.push(preds).map_err(|e| e.to_string())?;
    let p = r.finish().map_err(|e| e.to_string())?;
    score_totals(&key, p).map_err(|e| e.to_string())
}

/// The streamed path: predictions in slices of `n` bytes, the key given after `key_after`
/// slices (or at the end).
fn streamed_report(
    key: &[u8],
    preds: &[u8],
    n: usize,
    key_after: usize,
) -> Result<MmiqReport, String> {
    let key = compact_key(key, n, false)?;
    let mut s = StreamScorer::new("p.jsonl");
    let mut key = Some(key);
    for (i, slice) in preds.chunks(n.max(1)).enumerate() {
        if i == key_after {
            s.set_key(key.take().unwrap());
        }
        s.push(slice).map_err(|e| e.to_string())?;
    }
    if let Some(k) = key {
        s.set_key(k);
    }
    s.finish().map_err(|e| e.to_string())
}

fn json(r: &MmiqReport) -> serde_json::Value {
    serde_json::to_value(r).unwrap()
}

#[test]
fn the_real_files_score_33_of_100_as_with_the_full_key() {
    let (Some(key), Some(preds)) = (
        common::shared_bytes("mmiq/MMIQ_benchmark_answer_dict.jsonl"),
        common::shared_bytes("mmiq/example_output_parsed.jsonl"),
    ) else {
        return;
    };
    let full = full_report(&key, &preds).unwrap();
    for (n, key_after) in [(1 << 22, 0), (4096, 1), (97, 30), (13, usize::MAX)] {
        let r = streamed_report(&key, &preds, n, key_after).unwrap();
        // Counted by hand (mmiq_real.rs): 33 of 100; 2,710 - 100 items without a prediction;
        // the key's letters A 640, B 690, C 696, D 684; Mathematical 11 of 37.
        assert_eq!((r.overall.correct, r.overall.n), (33, 100), "slices of {n}");
        assert_eq!(r.rows.key_items_without_prediction, 2610);
        let counts: Vec<(&str, u64)> = r
            .letters
            .key
            .counts
            .iter()
            .map(|(k, v)| (k.as_str(), *v))
            .collect();
        assert_eq!(counts, [("A", 640), ("B", 690), ("C", 696), ("D", 684)]);
        let m = &r.by_category["Mathematical"];
        assert_eq!((m.correct, m.n), (11, 37));
        assert_eq!(
            json(&r),
            json(&full),
            "slices of {n}, key after {key_after}"
        );
    }
}

/// Three items; rows that raise each warning the scorer counts.
const KEY: &str = concat!(
    r#"{"category": "Mathematical", "MD5": "0A1B2C3D4E5F60718293A4B5C6D7E8F9", "data_id": 0, "answer": "A"}"#,
    "\n",
    r#"{"category": "2D-Geometry", "MD5": "m5", "data_id": 1, "answer": "B"}"#,
    "\n\n",
    r#"{"category": "Logical Operation", "data_id": 2000000, "answer": "C"}"#,
    "\n",
);

const PREDS: &str = concat!(
    // 1: right (A), the key's category.
    r#"{"data_id": 0, "category": "Mathematical", "response": "Step one.\nThe answer is A."}"#,
    "\n",
    // 2: not in the key.
    r#"{"data_id": 5, "response": "B"}"#,
    "\n",
    // 3: another key category (a warning), parsed_pred and response both given (a warning),
    // parsed_pred "b" (not A-E or Z: a warning, wrong).
    r#"{"data_id": 1, "category": "Mathematical", "parsed_pred": "b", "response": "B"}"#,
    "\n",
    "   \n",
    // 5: an unknown, escaped category (a warning); no answer in the response (Z, wrong).
    r#"{"data_id": "2000000", "category": "Logic\u0061l", "response": "I cannot tell."}"#,
    "\n",
);

#[test]
fn every_warning_counts_as_with_the_full_key() {
    let full = full_report(KEY.as_bytes(), PREDS.as_bytes()).unwrap();
    // By hand: 4 rows read, 3 scored (1 right: row 1), 1 skipped, 1 blank line, 1 without an
    // answer, no key item without a prediction; warnings: category differs 1, unknown category
    // 1, both given 1, parsed_pred not A-E/Z 1, data_id not in the key 1.
    assert_eq!((full.overall.correct, full.overall.n), (1, 3));
    assert_eq!(
        (
            full.rows.read,
            full.rows.skipped,
            full.rows.blank_lines,
            full.rows.no_answer
        ),
        (4, 1, 1, 1)
    );
    assert_eq!(full.rows.key_items_without_prediction, 0);
    let kinds: Vec<(&str, usize)> = full
        .warnings
        .counts
        .iter()
        .map(|(k, v)| (k.as_str(), *v))
        .collect();
    assert_eq!(
        kinds,
        [
            ("both response and parsed_pred", 1),
            ("category differs from the key", 1),
            ("data_id not in the answer key", 1),
            ("parsed_pred not one of A-E or Z", 1),
            ("unknown category", 1),
        ]
    );
    assert_eq!(
        full.warnings.examples[1],
        "p.jsonl line 3: field \"category\": the key has \"2D-Geometry\" for data_id 1, found \"Mathematical\"; the key's category is used"
    );
    let lengths = full.response_length.unwrap();
    // "Step one.\nThe answer is A." 26 characters, 6 tokens; "I cannot tell." 14, 3.
    assert_eq!(
        (lengths.n, lengths.chars_mean, lengths.tokens_mean),
        (2, 20.0, 4.5)
    );
    for n in [1, 5, 64, 4096] {
        for key_after in [0, 1, 3, usize::MAX] {
            let r = streamed_report(KEY.as_bytes(), PREDS.as_bytes(), n, key_after).unwrap();
            assert_eq!(
                json(&r),
                json(&full),
                "slices of {n}, key after {key_after}"
            );
        }
    }
}

#[test]
fn errors_name_file_line_and_field_as_the_full_readers_do() {
    let keys: [(&str, &str); 4] = [
        (
            "{\"category\": \"M\", \"data_id\": 0, \"answer\": \"F\"}",
            "key.jsonl line 1: field \"answer\": expected one of A, B, C, D, E, found \"F\"",
        ),
        (
            "\n{\"category\": \"\", \"data_id\": 3, \"answer\": \"A\"}",
            "key.jsonl line 2: field \"category\": expected a non-empty string, found \"\"",
        ),
        // A duplicate is named only when no later line is bad, as the full reader does.
        (
            "{\"category\": \"M\", \"data_id\": 1, \"answer\": \"A\"}\n{\"category\": \"M\", \"data_id\": 1, \"answer\": \"B\"}\n{\"data_id\": 2, \"answer\": \"A\"}",
            "key.jsonl line 3: field \"category\": missing (expected the item's category (string))",
        ),
        (
            "{\"category\": \"M\", \"data_id\": 1, \"answer\": \"A\"}\n{\"category\": \"M\", \"data_id\": 1, \"answer\": \"B\"}",
            "key.jsonl line 2: field \"data_id\": duplicate data_id 1 (first on line 1)",
        ),
    ];
    for (text, msg) in keys {
        for n in [1, 7, 4096] {
            let mut full = KeyReader::new("key.jsonl");
            let full = text
                .as_bytes()
                .chunks(n)
                .try_for_each(|s| full.push(s))
                .and_then(|()| full.finish().map(|_| ()));
            assert_eq!(full.unwrap_err().to_string(), msg);
            assert_eq!(
                compact_key(text.as_bytes(), n, true).unwrap_err(),
                msg,
                "slices of {n}"
            );
        }
    }
    let preds: [(&[u8], &str); 5] = [
        (
            b"{\"data_id\": 1, \"response\": \"A\"}\n{\"data_id\": \"abc\", \"response\": \"B\"}",
            "p.jsonl line 2: field \"data_id\": expected a non-negative integer, found \"abc\"",
        ),
        (
            b"{\"data_id\": 1, \"category\": 3, \"response\": \"A\"}",
            "p.jsonl line 1: field \"category\": expected a string, found 3",
        ),
        (
            b"{\"data_id\": 1, \"response\": [1, 2]}",
            "p.jsonl line 1: field \"response\": expected a string, found an array",
        ),
        (
            b"{\"data_id\": 1, \"response\": \"A\"}\n\n{\"data_id\": 1, \"parsed_pred\": \"B\"}",
            "p.jsonl line 3: field \"data_id\": duplicate data_id 1 (first on line 1)",
        ),
        (
            b"  \n\n",
            "p.jsonl: the file is empty (expected one prediction object per line)",
        ),
    ];
    let key = "{\"category\": \"M\", \"data_id\": 1, \"answer\": \"A\"}";
    for (bytes, msg) in preds {
        assert_eq!(full_report(key.as_bytes(), bytes).unwrap_err(), msg);
        for n in [1, 9, 4096] {
            for key_after in [0, usize::MAX] {
                assert_eq!(
                    streamed_report(key.as_bytes(), bytes, n, key_after).unwrap_err(),
                    msg,
                    "slices of {n}"
                );
            }
        }
    }
    // No row in the key: the same message as the full path's.
    let none = b"{\"data_id\": 9, \"response\": \"A\"}";
    let msg = "p.jsonl: none of the 1 predictions has a data_id in the answer key key.jsonl";
    assert_eq!(full_report(key.as_bytes(), none).unwrap_err(), msg);
    assert_eq!(
        streamed_report(key.as_bytes(), none, 4, 0).unwrap_err(),
        msg
    );
}

#[test]
fn md5s_map_to_the_items_the_full_key_maps_them_to() {
    let key = compact_key(KEY.as_bytes(), 11, true).unwrap();
    let full = AnswerKey::parse("key.jsonl", KEY).unwrap();
    assert_eq!(
        full.get(0).unwrap().md5.as_deref(),
        Some("0A1B2C3D4E5F60718293A4B5C6D7E8F9")
    );
    // Without regard to case, as the harness mapping compares them.
    assert_eq!(key.md5_id("0a1b2c3d4e5f60718293a4b5c6d7e8f9"), Some(0));
    assert_eq!(key.md5_id("0A1B2C3D4E5F60718293A4B5C6D7E8F9"), Some(0));
    assert_eq!(key.md5_id("M5"), Some(1));
    assert_eq!(key.md5_id("0a1b2c3d4e5f60718293a4b5c6d7e8f8"), None);
    // Read without them, a key maps no hash.
    assert_eq!(
        compact_key(KEY.as_bytes(), 11, false).unwrap().md5_id("m5"),
        None
    );
    let Some(real) = common::shared_bytes("mmiq/MMIQ_benchmark_answer_dict.jsonl") else {
        return;
    };
    let compact = compact_key(&real, 65536, true).unwrap();
    let full = AnswerKey::parse_bytes("key.jsonl", &real).unwrap();
    assert_eq!(compact.len(), 2710);
    for item in &full.items {
        let md5 = item.md5.as_deref().unwrap();
        assert_eq!(
            compact.md5_id(&md5.to_ascii_uppercase()),
            Some(item.data_id)
        );
        assert_eq!(compact.answer(item.data_id), Some(item.answer));
        assert_eq!(compact.category(item.data_id), Some(item.category.as_str()));
    }
}
