//! MM-IQ on the real files in `../shared/data/mmiq/` (skipped with a notice when absent).

use crate::common;

use approx::assert_relative_eq;
use coglab_core::mmiq::{detect, score, AnswerKey, MmiqFormat, Predictions};

#[test]
fn answer_key_has_2710_items_in_8_categories() {
    let Some(text) = common::shared_text("mmiq/MMIQ_benchmark_answer_dict.jsonl") else {
        return;
    };
    assert_eq!(
        detect("MMIQ_benchmark_answer_dict.jsonl", text.as_bytes()),
        Some(MmiqFormat::AnswerKey)
    );
    let key = AnswerKey::parse("MMIQ_benchmark_answer_dict.jsonl", &text).unwrap();
    assert_eq!(key.len(), 2710);
    let mut cats = key.categories.clone();
    cats.sort();
    let mut expected: Vec<String> = coglab_core::mmiq::CATEGORIES
        .iter()
        .map(|c| c.to_string())
        .collect();
    expected.sort();
    assert_eq!(cats, expected);
    // Category sizes, counted with: python3 -c "import json,collections;
    // print(collections.Counter(json.loads(l)['category'] for l in open('MMIQ_benchmark_answer_dict.jsonl')))"
    let count = |c: &str| key.items.iter().filter(|i| i.category == c).count();
    assert_eq!(count("Mathematical"), 936);
    assert_eq!(count("Temporal Movement"), 415);
    assert_eq!(count("3D-Geometry"), 398);
    assert_eq!(count("Logical Operation"), 393);
    assert_eq!(count("2D-Geometry"), 365);
    assert_eq!(count("Spatial Relationship"), 118);
    assert_eq!(count("Visual Instruction"), 47);
    assert_eq!(count("Concrete Object"), 38);
}

/// `example_output_parsed.jsonl` (100 parsed predictions) against the key.
///
/// Counted by hand with a one-off Python check (join on data_id, compare parsed_pred with the
/// key's answer):
///   python3 -c "import json; k={d['data_id']:d for d in map(json.loads, open('MMIQ_benchmark_answer_dict.jsonl'))};
///   p=[json.loads(l) for l in open('example_output_parsed.jsonl')];
///   print(sum(x['parsed_pred']==k[x['data_id']]['answer'] for x in p))"
/// gives 33 correct of 100; per category (correct/n): Mathematical 11/37, Temporal Movement 4/17,
/// Logical Operation 8/16, 2D-Geometry 5/14, 3D-Geometry 4/10, Spatial Relationship 1/5,
/// Concrete Object 0/1; no Visual Instruction item. Every prediction's category equals the key's.
/// Wilson 95% for 33/100 (statsmodels): (0.2456312273412803, 0.42694656204909476).
#[test]
fn example_output_parsed_scores_33_of_100() {
    let (Some(key_text), Some(pred_bytes)) = (
        common::shared_text("mmiq/MMIQ_benchmark_answer_dict.jsonl"),
        common::shared_bytes("mmiq/example_output_parsed.jsonl"),
    ) else {
        return;
    };
    let key = AnswerKey::parse("MMIQ_benchmark_answer_dict.jsonl", &key_text).unwrap();
    let preds = Predictions::parse("example_output_parsed.jsonl", &pred_bytes).unwrap();
    let r = score(&key, &preds).unwrap();
    assert_eq!((r.overall.correct, r.overall.n), (33, 100));
    assert_relative_eq!(r.overall.accuracy, 0.33);
    assert_relative_eq!(r.overall.ci_low, 0.2456312273412803, epsilon = 1e-12);
    assert_relative_eq!(r.overall.ci_high, 0.42694656204909476, epsilon = 1e-12);
    let expected = [
        ("Mathematical", 11, 37),
        ("Temporal Movement", 4, 17),
        ("Logical Operation", 8, 16),
        ("2D-Geometry", 5, 14),
        ("3D-Geometry", 4, 10),
        ("Spatial Relationship", 1, 5),
        ("Concrete Object", 0, 1),
    ];
    assert_eq!(r.by_category.len(), expected.len());
    for (cat, correct, n) in expected {
        let a = &r.by_category[cat];
        assert_eq!((a.correct, a.n), (correct, n), "{cat}");
    }
    assert_eq!(r.rows.read, 100);
    assert_eq!(r.rows.scored, 100);
    assert_eq!(r.rows.skipped, 0);
    assert_eq!(r.rows.key_items_without_prediction, 2610);
    assert_eq!(r.warnings.total(), 0);
    assert_eq!(r.human.overall, 0.5127);
    assert_eq!(r.chance, 0.25);
}

/// Issue 23: the real key's letters. Counted with
///   python3 -c "import json,collections; rows=[json.loads(l) for l in
///   open('MMIQ_benchmark_answer_dict.jsonl')]; print(collections.Counter(r['answer'] for r in rows))"
/// A 640, B 690, C 696, D 684 → majority C, 696/2710 = 25.68% (above the 25% chance line).
/// Per category the most common letter (ties: first in A-D): TM A 113, SR A 38, 2D-G C 100,
/// LO C 108, Math C 250, VI B 12 (B, C, D tie at 12), CO C 12, 3D-G B 109 → 742/2710 = 27.38%.
/// The 100 items of `example_output_parsed.jsonl` have A 25, B 22, C 23, D 30 → D, 0.30.
#[test]
fn key_letters_and_majority_baseline() {
    let (Some(key_text), Some(pred_bytes)) = (
        common::shared_text("mmiq/MMIQ_benchmark_answer_dict.jsonl"),
        common::shared_bytes("mmiq/example_output_parsed.jsonl"),
    ) else {
        return;
    };
    let key = AnswerKey::parse("MMIQ_benchmark_answer_dict.jsonl", &key_text).unwrap();
    let l = coglab_core::mmiq::key_letters(&key);
    let counts: Vec<(&str, u64)> = l.key.counts.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    assert_eq!(counts, [("A", 640), ("B", 690), ("C", 696), ("D", 684)]);
    assert_eq!(l.key.majority, "C");
    assert_relative_eq!(l.key.majority_share, 696.0 / 2710.0, epsilon = 1e-15);
    assert_relative_eq!(l.per_category_majority, 742.0 / 2710.0, epsilon = 1e-15);
    assert_eq!(l.by_category["Visual Instruction"].majority, "B");
    assert_eq!(l.by_category["3D-Geometry"].majority, "B");
    assert_eq!(l.by_category["Temporal Movement"].counts["A"], 113);
    let preds = Predictions::parse("example_output_parsed.jsonl", &pred_bytes).unwrap();
    let r = score(&key, &preds).unwrap();
    assert_eq!(r.letters.key, l.key);
    assert_eq!(r.letters.scored.n, 100);
    assert_eq!(r.letters.scored.majority, "D");
    assert_relative_eq!(r.letters.scored.majority_share, 0.30);
    // Parsed letters only: no response to measure.
    assert!(r.response_length.is_none());
}
