//! MM-IQ inputs over `LEAN_INPUT_BYTES` are read lean (answers extracted while reading, only a
//! preview of each response kept) and score exactly as the same rows read in full.
//!
//! The responses are the 400 cases of `fixtures/mmiq/extract_cases.jsonl`, each with the letter
//! MM-IQ's released Python parser extracted from it; the key gives every item the answer `A`,
//! so the expected number correct is the number of cases the Python parser read as `A`.

use coglab_core::mmiq::{
    score, AnswerKey, PredContent, Predictions, CATEGORIES, LEAN_INPUT_BYTES, PREVIEW_CHARS,
};

fn cases() -> Vec<(u64, String, String)> {
    include_str!("fixtures/mmiq/extract_cases.jsonl")
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (
                v["data_id"].as_u64().unwrap(),
                v["response"].as_str().unwrap().to_string(),
                v["expected"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn key(n: u64) -> AnswerKey {
    let text: String = (0..n)
        .map(|i| {
            format!(
                "{{\"category\": \"{}\", \"MD5\": \"m{i}\", \"data_id\": {i}, \"answer\": \"A\"}}\n",
                CATEGORIES[i as usize % 8]
            )
        })
        .collect();
    AnswerKey::parse("key.jsonl", &text).unwrap()
}

/// The predictions JSONL; with `pad > 0` each line is followed by a blank line of `pad` spaces
/// (skipped and counted as blank: the cheapest padding to read in a debug build).
fn preds(cases: &[(u64, String, String)], pad: usize) -> String {
    let filler = if pad > 0 {
        format!("{}\n", " ".repeat(pad))
    } else {
        String::new()
    };
    cases
        .iter()
        .map(|(id, r, _)| {
            let line = serde_json::json!({"data_id": id, "response": r});
            format!("{line}\n{filler}")
        })
        .collect()
}

#[test]
fn large_input_is_read_lean_and_scores_as_in_full() {
    let cases = cases();
    assert_eq!(cases.len(), 400);
    let key = key(cases.len() as u64);
    let small = preds(&cases, 0);
    let big = preds(&cases, LEAN_INPUT_BYTES / cases.len() + 16);
    assert!(small.len() < LEAN_INPUT_BYTES && big.len() > LEAN_INPUT_BYTES);

    let full = Predictions::parse("out.jsonl", small.as_bytes()).unwrap();
    let lean = Predictions::parse("out.jsonl", big.as_bytes()).unwrap();
    assert!(full
        .records
        .iter()
        .all(|r| r.response_preview.is_none() && matches!(r.content, PredContent::Response(_))));
    for (rec, (id, response, expected)) in lean.records.iter().zip(&cases) {
        assert_eq!(rec.data_id, *id);
        // The letter MM-IQ's Python parser extracted from the full response.
        assert_eq!(
            rec.content,
            PredContent::Parsed(expected.clone()),
            "case {id}"
        );
        let preview = rec.response_preview.as_deref().unwrap();
        if response.chars().count() > PREVIEW_CHARS {
            assert_eq!(preview.chars().count(), PREVIEW_CHARS + 1);
            assert!(preview.ends_with('…'));
            assert!(response.starts_with(preview.trim_end_matches('…')));
        } else {
            assert_eq!(preview, response);
        }
    }

    let a = score(&key, &full).unwrap();
    let b = score(&key, &lean).unwrap();
    let python_a = cases.iter().filter(|c| c.2 == "A").count() as u64;
    assert_eq!(a.overall.correct, python_a);
    assert_eq!(b.overall, a.overall);
    assert_eq!(b.by_category, a.by_category);
    let mut rows = b.rows.clone();
    assert_eq!(rows.blank_lines, 400);
    rows.blank_lines = 0;
    assert_eq!(rows, a.rows);
    assert_eq!(b.warnings, a.warnings);
    // A lean read measures each response while reading it: the same lengths as in full.
    assert_eq!(a.response_length.map(|l| l.n), Some(400));
    assert_eq!(b.response_length, a.response_length);
    assert_eq!(a.items.len(), 400);
    for (x, y) in a.items.iter().zip(&b.items) {
        assert_eq!(
            (x.data_id, &x.parsed, x.correct),
            (y.data_id, &y.parsed, y.correct)
        );
        let rec = lean
            .records
            .iter()
            .find(|r| r.data_id == y.data_id)
            .unwrap();
        assert_eq!(y.response.as_deref(), rec.response_preview.as_deref());
        assert_eq!(y.line, 2 * x.line - 1);
    }
}
