//! MM-IQ answer extraction against the released parser on 400 random responses.
//!
//! `fixtures/mmiq/extract_cases.jsonl` holds responses built from the answer phrases, letters,
//! lookalikes, punctuation and awkward Unicode, each with the letter that MM-IQ's released
//! `parse_multi_choice_response` (AceCHQ/MMIQ `utils/eval_utils.py`, commit 5dd4bb0, Python
//! 3.11.7) returned for it; `fixtures/mmiq/extract_cases.py` is the generator.

use coglab_core::mmiq::extract::extract;

#[test]
fn matches_the_released_parser_case_by_case() {
    let text = include_str!("fixtures/mmiq/extract_cases.jsonl");
    let mut n = 0;
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let response = v["response"].as_str().unwrap();
        let expected = v["expected"].as_str().unwrap();
        let got = extract(response).recorded().to_string();
        assert_eq!(got, expected, "case {}: {response:?}", v["data_id"]);
        n += 1;
    }
    assert_eq!(n, 400);
}
