//! MM-IQ scoring on the small hand-made fixtures in `tests/fixtures/mmiq/` (see `make_small.py`),
//! read from every supported format; all must give the same hand-worked numbers.

use approx::assert_relative_eq;
use coglab_core::mmiq::{
    detect, score, score_totals, AccSummary, AnswerKey, MmiqFormat, MmiqReport, Predictions,
    PredictionsReader, TableKind,
};

const KEY: &str = include_str!("fixtures/mmiq/key_small.jsonl");

fn report(name: &str, bytes: &[u8]) -> MmiqReport {
    let key = AnswerKey::parse("key_small.jsonl", KEY).unwrap();
    score(&key, &Predictions::parse(name, bytes).unwrap()).unwrap()
}

/// Item by item (keys B C A D E A):
///   0 "...The correct answer is option B."  -> phrase "The correct answer is" -> "option B." -> B ✓
///   1 "Both C and D look plausible.\nI choose D" -> no phrase; last line "I choose D" -> D ✗
///   2 "\boxed{A}" -> rule 1 -> A ✓
///   3 "The different pattern is the third one, so D" -> phrase -> first standalone D ✓
///   4 13 words, no standalone A-E -> Z ✗
///   5 "Answer: (A)" -> no phrase ("Answer" is capitalised) -> line scan -> A ✓
/// Overall 4/6; Mathematical 2/3 (0, 2 of 0-2); 2D-Geometry 1/2; Concrete Object 1/1.
/// Wilson 95% (statsmodels proportion_confint, method="wilson"):
///   4/6 (0.29999331513839184, 0.9032285888942195), 2/3 (0.2076596008020477, 0.9385080552796037),
///   1/2 (0.09453120573423068, 0.9054687942657693), 1/1 (0.2065493143772374, 1.0).
fn check(r: &MmiqReport) {
    let parsed: Vec<&str> = r.items.iter().map(|i| i.parsed.as_ref()).collect();
    assert_eq!(parsed, ["B", "D", "A", "D", "Z", "A"]);
    assert_eq!((r.overall.correct, r.overall.n), (4, 6));
    assert_relative_eq!(r.overall.accuracy, 4.0 / 6.0);
    assert_relative_eq!(r.overall.ci_low, 0.29999331513839184, epsilon = 1e-12);
    assert_relative_eq!(r.overall.ci_high, 0.9032285888942195, epsilon = 1e-12);
    let m = &r.by_category["Mathematical"];
    assert_eq!((m.correct, m.n), (2, 3));
    assert_relative_eq!(m.ci_low, 0.2076596008020477, epsilon = 1e-12);
    let g = &r.by_category["2D-Geometry"];
    assert_eq!((g.correct, g.n), (1, 2));
    assert_relative_eq!(g.ci_high, 0.9054687942657693, epsilon = 1e-12);
    let c = &r.by_category["Concrete Object"];
    assert_eq!((c.correct, c.n), (1, 1));
    assert_relative_eq!(c.ci_low, 0.2065493143772374, epsilon = 1e-12);
    assert_eq!(r.by_category.len(), 3);
    assert_eq!(r.rows.read, 6);
    assert_eq!(r.rows.scored, 6);
    assert_eq!(r.rows.skipped, 0);
    assert_eq!(r.rows.no_answer, 1);
    assert_eq!(r.warnings.total(), 0, "{:?}", r.warnings);
}

#[test]
fn jsonl_responses() {
    let r = report(
        "preds_small.jsonl",
        include_bytes!("fixtures/mmiq/preds_small.jsonl"),
    );
    check(&r);
    assert_eq!(
        r.items[0].response.as_deref(),
        Some("Looking at the grid, the count rises by two.\nThe correct answer is option B.")
    );
}

#[test]
fn jsonl_read_as_letters_only_scores_the_same() {
    // PredictionsReader::letters_only (the CLI without --items): the same hand-worked numbers,
    // and no response text kept.
    let key = AnswerKey::parse("key_small.jsonl", KEY).unwrap();
    let mut reader = PredictionsReader::new("preds_small.jsonl", 0).letters_only();
    reader
        .push(include_bytes!("fixtures/mmiq/preds_small.jsonl"))
        .unwrap();
    let r = score(&key, &reader.finish().unwrap()).unwrap();
    check(&r);
    assert!(r.items.iter().all(|i| i.response.is_none()));
}

#[test]
fn totals_without_items_are_the_same() {
    // score_totals (the CLI without --items): everything of check() but the items.
    let key = AnswerKey::parse("key_small.jsonl", KEY).unwrap();
    let preds = Predictions::parse(
        "preds_small.jsonl",
        include_bytes!("fixtures/mmiq/preds_small.jsonl"),
    )
    .unwrap();
    let mut full = score(&key, &preds).unwrap();
    let totals = score_totals(&key, preds).unwrap();
    assert!(totals.items.is_empty());
    check(&full);
    full.items.clear();
    assert_eq!(totals, full);
}

#[test]
fn report_round_trips_through_json() {
    let r = report(
        "preds_small.jsonl",
        include_bytes!("fixtures/mmiq/preds_small.jsonl"),
    );
    // serde_json (without its float_roundtrip feature) may read a float back 1 ulp off: the
    // numbers are compared with a tolerance, everything else exactly.
    let text = serde_json::to_string(&r).unwrap();
    let back: MmiqReport = serde_json::from_str(&text).unwrap();
    assert_eq!(back.items, r.items);
    assert_eq!(back.rows, r.rows);
    assert_eq!(back.by_category.len(), r.by_category.len());
    assert_eq!(back.overall.n, r.overall.n);
    assert_relative_eq!(back.overall.ci_low, r.overall.ci_low, max_relative = 1e-15);
    assert_relative_eq!(
        back.overall.ci_high,
        r.overall.ci_high,
        max_relative = 1e-15
    );
}

#[test]
fn vlmevalkit_tsv() {
    let bytes = include_bytes!("fixtures/mmiq/preds_small.tsv");
    assert_eq!(
        detect("preds_small.tsv", bytes),
        Some(MmiqFormat::VlmEvalKit(TableKind::Tsv))
    );
    let r = report("preds_small.tsv", bytes);
    check(&r);
    // Rows are numbered by the line they start on: item 1 starts on line 4 because the
    // prediction of item 0 spans lines 2-3.
    assert_eq!(r.items[1].line, 4);
}

#[test]
fn vlmevalkit_xlsx() {
    let bytes = include_bytes!("fixtures/mmiq/preds_small.xlsx");
    assert_eq!(
        detect("preds_small.xlsx", bytes),
        Some(MmiqFormat::VlmEvalKit(TableKind::Xlsx))
    );
    let r = report("preds_small.xlsx", bytes);
    check(&r);
    // Spreadsheet rows: header on row 1, item 0 on row 2.
    assert_eq!(r.items[0].line, 2);
}

#[test]
fn vlmevalkit_acc_summary_matches_the_per_item_score() {
    let bytes = include_bytes!("fixtures/mmiq/small_MMIQ_acc.csv");
    assert_eq!(
        detect("small_MMIQ_acc.csv", bytes),
        Some(MmiqFormat::VlmEvalKitAcc)
    );
    let s = AccSummary::parse("small_MMIQ_acc.csv", bytes).unwrap();
    assert_eq!(s.rows.len(), 1);
    assert_relative_eq!(s.rows[0].overall, 4.0 / 6.0, epsilon = 1e-15);
    assert_relative_eq!(
        s.rows[0].by_category["Mathematical"],
        2.0 / 3.0,
        epsilon = 1e-15
    );
    assert_relative_eq!(s.rows[0].by_category["2D-Geometry"], 0.5);
    // Read as predictions it is refused with a reason.
    let err = Predictions::parse("small_MMIQ_acc.csv", bytes).unwrap_err();
    assert!(err.to_string().contains("accuracy summary"), "{err}");
}

#[test]
fn a_broken_workbook_is_an_error_not_a_panic() {
    let err = Predictions::parse("x.xlsx", b"PK\x03\x04 not really a zip").unwrap_err();
    assert!(
        err.to_string()
            .starts_with("x.xlsx: cannot read the workbook"),
        "{err}"
    );
}

/// Issue 23: response length and the key's letters, on `preds_small.jsonl` / `key_small.jsonl`.
/// Reference (Python on the same file):
///   python3 -c "import json,statistics as st; rs=[json.loads(l)['response'] for l in
///   open('preds_small.jsonl')]; c=[len(r) for r in rs]; t=[len(r.split()) for r in rs];
///   print(st.mean(c), st.median(c), st.mean(t), st.median(t))"
/// gives chars [76, 39, 9, 44, 75, 11] → mean 42.333333333333336, median 41.5; tokens
/// [15, 9, 1, 9, 13, 2] → mean 8.166666666666666, median 9.
/// Key letters B C A D E A: A 2, B 1, C 1, D 1, E 1 → majority A, 2/6. Per category:
/// Mathematical B C A (a tie, A first), 2D-Geometry D E (D), Concrete Object A: each category's
/// own letter gets 1 + 1 + 1 = 3 of 6 = 0.5.
#[test]
fn response_length_and_key_letters() {
    let r = report(
        "preds_small.jsonl",
        include_bytes!("fixtures/mmiq/preds_small.jsonl"),
    );
    let l = r.response_length.unwrap();
    assert_eq!(l.n, 6);
    assert_relative_eq!(l.chars_mean, 42.333333333333336, epsilon = 1e-12);
    assert_relative_eq!(l.chars_median, 41.5);
    assert_relative_eq!(l.tokens_mean, 8.166666666666666, epsilon = 1e-12);
    assert_relative_eq!(l.tokens_median, 9.0);
    let k = &r.letters;
    assert_eq!(k.key.n, 6);
    assert_eq!(k.key.counts["A"], 2);
    assert_eq!(k.key.majority, "A");
    assert_relative_eq!(k.key.majority_share, 2.0 / 6.0);
    assert_eq!(k.by_category["Mathematical"].majority, "A");
    assert_eq!(k.by_category["2D-Geometry"].majority, "D");
    assert_relative_eq!(k.per_category_majority, 0.5);
    assert_eq!(k.scored, k.key);
    // A table gives the same lengths (its `prediction` column holds the same texts).
    let t = report(
        "preds_small.tsv",
        include_bytes!("fixtures/mmiq/preds_small.tsv"),
    );
    assert_eq!(t.response_length, r.response_length);
}
