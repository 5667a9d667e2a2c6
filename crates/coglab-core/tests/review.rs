//! Review mode (issue 9): result sets built from the MM-OPERA fixtures and the real MM-IQ and
//! KiVA files, seeded stratified sampling, agreement against hand-worked values, JSON/CSV
//! export and import, merge conflicts.

use std::collections::BTreeMap;
use std::path::Path;

use coglab_core::review::records::{export_csv, export_json, import, SetReview};
use coglab_core::review::{
    agreement, build_sets, error_tally, merge, resolve, sample, ErrorType, HopScore, Judge, Keep,
    ReviewRecord, SampleSpec, SetKind,
};

fn fixture(task: &str, name: &str) -> (String, Vec<u8>) {
    let path = format!(
        "{}/tests/fixtures/mmopera/{task}/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    (name.to_string(), std::fs::read(path).unwrap())
}

fn ria_files() -> Vec<(String, Vec<u8>)> {
    vec![
        fixture("ria", "metadata.csv"),
        fixture("ria", "modelx_RIA_regular_scoring.json"),
        fixture("ria", "modelx_RIA_reasoning_scoring.json"),
        fixture("ria", "modelx_RIA_results.json"),
    ]
}

fn rec(key: &str, score: u8) -> ReviewRecord {
    ReviewRecord {
        key: key.into(),
        score: Some(score),
        ..Default::default()
    }
}

fn review_of(keys: &[&str], records: Vec<ReviewRecord>) -> SetReview {
    SetReview {
        keys: keys.iter().map(|k| k.to_string()).collect(),
        records: records.into_iter().map(|r| (r.key.clone(), r)).collect(),
        ..Default::default()
    }
}

#[test]
fn mmopera_sets_carry_question_answer_and_judge() {
    let loaded = build_sets(&ria_files());
    assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
    assert_eq!(loaded.sets.len(), 2);
    let holistic = &loaded.sets[0];
    assert_eq!(holistic.kind, SetKind::Holistic);
    assert_eq!(holistic.benchmark, "MM-OPERA RIA");
    assert_eq!(holistic.items.len(), 7);
    let r1 = holistic.item("r1").unwrap();
    assert!(r1
        .context
        .contains(&("Relation".to_string(), "Protection".to_string())));
    assert_eq!(r1.stratum("domain"), Some("Nature"));
    assert!(r1.answer.as_deref().unwrap().starts_with("Both protect"));
    assert!(
        matches!(&r1.judge, Judge::Holistic { score: Some(4), reason: Some(r) } if r.starts_with("Matches"))
    );
    // r5's verdict is "N/A": no usable score.
    assert!(matches!(
        holistic.item("r5").unwrap().judge,
        Judge::Holistic { score: None, .. }
    ));
    let process = &loaded.sets[1];
    assert_eq!(process.kind, SetKind::Process);
    let Judge::Process { path, hops, .. } = &process.item("r1").unwrap().judge else {
        panic!("process judgement expected");
    };
    assert_eq!(
        path.as_deref(),
        Some("Armadillo → Shell → Protection → Kevlar")
    );
    assert_eq!(hops.len(), 3);
    assert_eq!((hops[1].r, hops[1].d, hops[1].k), (0.9, 0.8, 1.0));
}

#[test]
fn ica_items_are_one_per_rotation() {
    let files = vec![
        fixture("ica", "metadata.csv"),
        fixture("ica", "modelx_ICA_regular_scoring.json"),
    ];
    let loaded = build_sets(&files);
    assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
    let set = &loaded.sets[0];
    assert_eq!(set.benchmark, "MM-OPERA ICA");
    let i2: Vec<&str> = set
        .items
        .iter()
        .filter(|i| i.id == "i2")
        .map(|i| i.key.as_str())
        .collect();
    assert_eq!(i2, ["i2#1", "i2#2", "i2#3", "i2#4"]);
    assert!(matches!(
        set.item("i2#2").unwrap().judge,
        Judge::Holistic { score: Some(1), .. }
    ));
}

#[test]
fn holistic_agreement_matches_hand_worked_values() {
    let loaded = build_sets(&ria_files());
    let set = &loaded.sets[0];
    // Judge r1..r7 = 4, 3, 2, 1, N/A, 4, 3; reviewer 4, 2, 2, 1, 0, 3, 3. r5 is not compared
    // (no judge score): pairs (4,4) (3,2) (2,2) (1,1) (4,3) (3,3).
    let keys = ["r1", "r2", "r3", "r4", "r5", "r6", "r7"];
    let mine = [4, 2, 2, 1, 0, 3, 3];
    let review = review_of(
        &keys,
        keys.iter().zip(mine).map(|(k, s)| rec(k, s)).collect(),
    );
    let report = agreement(set, &review, 10);
    assert_eq!((report.reviewed, report.sampled), (7, 7));
    let m = &report.measures[0];
    assert_eq!(m.n, 6);
    assert!((m.exact_match.unwrap() - 4.0 / 6.0).abs() < 1e-12);
    assert!((m.mean_abs_diff.unwrap() - 2.0 / 6.0).abs() < 1e-12);
    // Pearson: Sxy = 5.5, Sxx = 41/6, Syy = 5.5 -> r = 5.5 / sqrt(41/6 · 5.5) = 0.8971499589.
    assert!((m.pearson_r.unwrap() - 0.897_149_958_914_610_7).abs() < 1e-12);
    // κ: p_o = 4/6; marginals judge (1:1, 2:1, 3:2, 4:2), reviewer (1:1, 2:2, 3:2, 4:1):
    // p_e = (1 + 2 + 4 + 2)/36 = 1/4; κ = (2/3 − 1/4)/(3/4) = 5/9.
    assert!((m.kappa.unwrap() - 5.0 / 9.0).abs() < 1e-12);
    // Quadratic weights over 0-4: Σw·O = 1 + 1 = 2, Σw·E = 13 -> 1 − 2/13 = 11/13.
    assert!((m.weighted_kappa.unwrap() - 11.0 / 13.0).abs() < 1e-12);
    let worst: Vec<&str> = report
        .disagreements
        .iter()
        .map(|d| d.key.as_str())
        .collect();
    assert_eq!(worst, ["r2", "r6"]);
    assert_eq!(report.disagreements[0].judge, "3");
    assert_eq!(report.disagreements[0].reviewer, "2");
}

#[test]
fn process_agreement_matches_hand_worked_values() {
    let loaded = build_sets(&ria_files());
    let set = &loaded.sets[1];
    let hop = |r: f64, d: f64, k: u8| HopScore {
        r: Some(r),
        d: Some(d),
        k: Some(k),
    };
    // Judge r1 (1,.9,1) (.9,.8,1) (.8,.5,0); r2 (.6,.5,1); r7 (1,1,1).
    let records = vec![
        ReviewRecord {
            key: "r1".into(),
            hops: vec![hop(1.0, 0.9, 1), hop(0.5, 0.8, 1), hop(0.8, 0.5, 1)],
            ..Default::default()
        },
        ReviewRecord {
            key: "r2".into(),
            hops: vec![hop(0.6, 0.5, 0)],
            ..Default::default()
        },
        ReviewRecord {
            key: "r7".into(),
            hops: vec![hop(1.0, 1.0, 1)],
            ..Default::default()
        },
    ];
    let review = review_of(&["r1", "r2", "r7"], records);
    let report = agreement(set, &review, 10);
    let [r, d, k] = &report.measures[..] else {
        panic!("three measures expected");
    };
    // R: 1 .9 .8 .6 1 vs 1 .5 .8 .6 1 -> 4 of 5 equal, MAD 0.4/5.
    assert_eq!(r.n, 5);
    assert!((r.exact_match.unwrap() - 0.8).abs() < 1e-12);
    assert!((r.mean_abs_diff.unwrap() - 0.08).abs() < 1e-12);
    // D: identical.
    assert_eq!(d.exact_match, Some(1.0));
    assert_eq!(d.mean_abs_diff, Some(0.0));
    assert!((d.pearson_r.unwrap() - 1.0).abs() < 1e-12);
    // K: judge 1 1 0 1 1, reviewer 1 1 1 0 1: p_o = 3/5, p_e = (1·1 + 4·4)/25 = 17/25,
    // κ = (0.6 − 0.68)/0.32 = −0.25.
    assert!((k.exact_match.unwrap() - 0.6).abs() < 1e-12);
    assert!((k.kappa.unwrap() + 0.25).abs() < 1e-12);
    // r1 differs by 0.4 (R) + 1 (K) = 1.4, r2 by 1 (K).
    let worst: Vec<(&str, f64)> = report
        .disagreements
        .iter()
        .map(|d| (d.key.as_str(), d.difference))
        .collect();
    assert_eq!(worst.len(), 2);
    assert_eq!(worst[0].0, "r1");
    assert!((worst[0].1 - 1.4).abs() < 1e-12);
    assert_eq!(worst[1].0, "r2");
}

fn shared(rel: &str) -> Option<Vec<u8>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data")
        .join(rel);
    std::fs::read(path).ok()
}

#[test]
fn mmiq_set_from_real_files_and_stratified_sample() {
    let (Some(key), Some(preds)) = (
        shared("mmiq/MMIQ_benchmark_answer_dict.jsonl"),
        shared("mmiq/example_output_parsed.jsonl"),
    ) else {
        eprintln!("real MM-IQ data not present; skipped");
        return;
    };
    let files = vec![
        ("MMIQ_benchmark_answer_dict.jsonl".to_string(), key),
        ("example_output_parsed.jsonl".to_string(), preds.clone()),
    ];
    let loaded = build_sets(&files);
    assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
    let set = &loaded.sets[0];
    assert_eq!(set.kind, SetKind::Binary);
    assert_eq!(set.items.len(), 100);
    // Category sizes counted straight from the predictions file.
    let mut sizes: BTreeMap<String, usize> = BTreeMap::new();
    for line in String::from_utf8(preds)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
    {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        *sizes
            .entry(v["category"].as_str().unwrap().to_string())
            .or_default() += 1;
    }
    let spec = SampleSpec {
        n: Some(20),
        seed: 42,
        stratify: Some("category".into()),
        quota: None,
    };
    let picked = sample(&set.items, &spec);
    assert_eq!(picked.len(), 20);
    assert!(picked.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(picked, sample(&set.items, &spec), "same seed, same sample");
    let other = sample(
        &set.items,
        &SampleSpec {
            seed: 43,
            ..spec.clone()
        },
    );
    assert_ne!(picked, other, "another seed draws another sample");
    let mut got: BTreeMap<String, usize> = BTreeMap::new();
    for &i in &picked {
        *got.entry(set.items[i].stratum("category").unwrap().to_string())
            .or_default() += 1;
    }
    for (cat, size) in &sizes {
        let exact = 20.0 * *size as f64 / 100.0;
        let n = *got.get(cat).unwrap_or(&0) as f64;
        assert!(
            n == exact.floor() || n == exact.ceil(),
            "{cat}: {n} for {exact}"
        );
    }
    // Issue 23: the MM-IQ paper's fixed quotas (10 per paradigm, 20 Mathematical) instead of
    // proportional allocation. The file has Mathematical 37, Temporal Movement 17, Logical
    // Operation 16, 2D-Geometry 14, 3D-Geometry 10, Spatial Relationship 5, Concrete Object 1
    // (counted above): 20 + 10 + 10 + 10 + 10 + 5 + 1 = 66 items, smaller strata whole.
    let quota = SampleSpec {
        quota: Some(coglab_core::review::Quota::mmiq_paper()),
        ..spec.clone()
    };
    let q = sample(&set.items, &quota);
    assert_eq!(q.len(), 66);
    let mut qgot: BTreeMap<String, usize> = BTreeMap::new();
    for &i in &q {
        *qgot
            .entry(set.items[i].stratum("category").unwrap().to_string())
            .or_default() += 1;
    }
    assert_eq!(qgot["Mathematical"], 20);
    assert_eq!(qgot["Temporal Movement"], 10);
    assert_eq!(qgot["Spatial Relationship"], 5);
    assert_eq!(qgot["Concrete Object"], 1);
    assert_eq!(q, sample(&set.items, &quota), "same seed, same sample");
    // A reviewer who agrees with the extraction everywhere: exact match 1.
    let review = SetReview {
        keys: picked.iter().map(|&i| set.items[i].key.clone()).collect(),
        records: picked
            .iter()
            .map(|&i| {
                let item = &set.items[i];
                let Judge::Binary { correct, .. } = item.judge else {
                    panic!()
                };
                (item.key.clone(), rec(&item.key, u8::from(correct)))
            })
            .collect(),
        ..Default::default()
    };
    let report = agreement(set, &review, 5);
    assert_eq!(report.measures[0].exact_match, Some(1.0));
    assert!(report.disagreements.is_empty());
}

#[test]
fn kiva_set_from_a_real_run_skips_unasked_stage_two() {
    let rel = "kiva/model_data/KiVA/gpt4_multi_image/output_Colour/ColourRed.csv";
    let Some(bytes) = shared(rel) else {
        eprintln!("real KiVA data not present; skipped");
        return;
    };
    // Rows and empty MCResponse#2 cells counted with the csv reader directly.
    let mut reader = csv::Reader::from_reader(bytes.as_slice());
    let headers = reader.headers().unwrap().clone();
    let col = headers.iter().position(|h| h == "MCResponse#2").unwrap();
    let (mut rows, mut skipped) = (0, 0);
    for r in reader.records() {
        let r = r.unwrap();
        rows += 1;
        if r.get(col).unwrap().trim().is_empty() {
            skipped += 1;
        }
    }
    let loaded = build_sets(&[(rel.to_string(), bytes)]);
    assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
    let set = &loaded.sets[0];
    assert_eq!(set.benchmark, "KiVA");
    assert_eq!(set.items.len(), rows * 3 - skipped);
    let first = &set.items[0];
    assert_eq!(first.key, "v0r0s1");
    assert!(first.answer.as_deref().unwrap().starts_with("(3)"));
}

#[test]
fn json_export_import_round_trip_and_merge_conflicts() {
    let loaded = build_sets(&ria_files());
    let set = &loaded.sets[0];
    let mut review = review_of(
        &["r1", "r2", "r3"],
        vec![
            rec("r1", 4),
            ReviewRecord {
                key: "r2".into(),
                score: Some(2),
                note: "misses \"resilience\", too literal".into(),
                ..Default::default()
            },
            ReviewRecord::new("r3"),
        ],
    );
    review.sample = SampleSpec {
        n: Some(3),
        seed: 9,
        stratify: Some("domain".into()),
        quota: None,
    };
    let json = export_json(&set.name, set.kind, &review);
    let back = import("review.json", json.as_bytes()).unwrap();
    assert_eq!(back.set.as_deref(), Some(set.name.as_str()));
    assert_eq!(back.sample.as_ref(), Some(&review.sample));
    assert_eq!(back.records.len(), 2, "empty records are not exported");
    // Into an empty review: everything added, and the export is identical.
    let mut fresh = SetReview {
        keys: back.keys.clone().unwrap(),
        sample: back.sample.clone().unwrap(),
        ..Default::default()
    };
    let report = merge(&mut fresh.records, back.records.clone());
    assert_eq!(
        (report.added, report.same, report.conflicts.len()),
        (2, 0, 0)
    );
    assert_eq!(export_json(&set.name, set.kind, &fresh), json);
    // Into a review that scored r1 differently: one conflict, kept until resolved.
    let mut other = review_of(&["r1", "r2", "r3"], vec![rec("r1", 1), rec("r3", 2)]);
    let report = merge(&mut other.records, back.records.clone());
    assert_eq!(
        (report.added, report.same, report.conflicts.len()),
        (1, 0, 1)
    );
    assert_eq!(report.conflicts[0].key, "r1");
    assert_eq!(other.records["r1"].score, Some(1));
    resolve(&mut other.records, &report.conflicts, Keep::Theirs);
    assert_eq!(other.records["r1"].score, Some(4));
    assert_eq!(other.records["r3"].score, Some(2));
}

#[test]
fn csv_export_import_round_trip_with_hops() {
    let loaded = build_sets(&ria_files());
    let set = &loaded.sets[1];
    let review = review_of(
        &["r1", "r2"],
        vec![
            ReviewRecord {
                key: "r1".into(),
                hops: vec![
                    HopScore {
                        r: Some(0.75),
                        d: Some(0.5),
                        k: Some(1),
                    },
                    HopScore::default(),
                    HopScore {
                        r: Some(0.25),
                        d: None,
                        k: Some(0),
                    },
                ],
                note: "last hop, \"Kevlar\", is a stretch".into(),
                ..Default::default()
            },
            ReviewRecord {
                key: "r2".into(),
                note: "unsure".into(),
                ..Default::default()
            },
        ],
    );
    let csv = export_csv(set, &review);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "set,key,id,hop,hop_name,judge,judge_r,judge_d,judge_k,score,r,d,k,note,error_type"
    );
    // r1: three judge hops, one row each; r2: one judge hop.
    assert_eq!(lines.len(), 1 + 3 + 1);
    assert!(lines[1].contains(",r1,r1,1,Armadillo → Shell,,1,0.9,1,,0.75,0.5,1,"));
    let back = import("review.csv", csv.as_bytes()).unwrap();
    assert_eq!(back.set.as_deref(), Some(set.name.as_str()));
    let mut fresh = SetReview {
        keys: vec!["r1".into(), "r2".into()],
        ..Default::default()
    };
    merge(&mut fresh.records, back.records);
    assert_eq!(export_csv(set, &fresh), csv);
    assert!(fresh.records["r1"].same_as(&review.records["r1"]));
}

#[test]
fn bad_imports_are_located() {
    let err = import(
        "mine.csv",
        b"set,key,hop,r,d,k,score,note\ns,r1,1,1.5,,,,\n",
    )
    .unwrap_err();
    assert_eq!(
        err,
        "mine.csv: line 2, field \"r\": expected a number in [0, 1], found \"1.5\""
    );
    let err = import("mine.csv", b"set,id\ns,r1\n").unwrap_err();
    assert!(
        err.starts_with("mine.csv: line 1: expected a \"key\" column"),
        "{err}"
    );
    let err = import(
        "mine.json",
        b"{\"format\": \"coglab-review\",\n \"version\": 1,,}",
    )
    .unwrap_err();
    assert!(
        err.starts_with("mine.json: ") && err.contains("line 2"),
        "{err}"
    );
    let json = br#"{"format":"coglab-review","version":1,"set":"s","kind":"holistic",
        "sample":{"n":null,"seed":1,"stratify":null},"keys":["a"],"records":[{"key":"a","score":9}]}"#;
    let err = import("mine.json", json).unwrap_err();
    assert_eq!(
        err,
        "mine.json: record 1 (key a), field \"score\": expected a whole number 0-4, found 9"
    );
}

#[test]
fn error_typology_tallied_per_paradigm_and_exported() {
    // Issue 23: the MM-IQ paper's error types on the real example predictions. data_ids 563
    // (Spatial Relationship), 1831 and 1711 (Mathematical) are the file's first three rows.
    let (Some(key), Some(preds)) = (
        shared("mmiq/MMIQ_benchmark_answer_dict.jsonl"),
        shared("mmiq/example_output_parsed.jsonl"),
    ) else {
        eprintln!("real MM-IQ data not present; skipped");
        return;
    };
    let loaded = build_sets(&[
        ("MMIQ_benchmark_answer_dict.jsonl".to_string(), key),
        ("example_output_parsed.jsonl".to_string(), preds),
    ]);
    let set = &loaded.sets[0];
    let keys: Vec<String> = set.items.iter().take(3).map(|i| i.key.clone()).collect();
    let cats: Vec<&str> = set.items[..3]
        .iter()
        .map(|i| i.stratum("category").unwrap())
        .collect();
    assert_eq!(
        cats,
        ["Spatial Relationship", "Mathematical", "Mathematical"]
    );
    let mut review = SetReview {
        keys: keys.clone(),
        ..SetReview::default()
    };
    for (k, t) in keys.iter().zip([
        ErrorType::WrongVisualUnderstanding,
        ErrorType::WrongParadigm,
        ErrorType::WrongParadigm,
    ]) {
        review.records.insert(
            k.clone(),
            ReviewRecord {
                key: k.clone(),
                score: Some(0),
                error_type: Some(t),
                ..Default::default()
            },
        );
    }
    let t = error_tally(set, &review, "category");
    assert_eq!(t.typed, 3);
    assert_eq!(t.by_stratum["Mathematical"]["wrong_paradigm"], 2);
    assert_eq!(
        t.by_stratum["Spatial Relationship"]["wrong_visual_understanding"],
        1
    );
    assert_eq!(t.total["wrong_paradigm"], 2);
    // The type survives the CSV export and import.
    let csv = coglab_core::review::records::export_csv(set, &review);
    assert!(
        csv.lines().nth(2).unwrap().ends_with(",wrong_paradigm"),
        "{csv}"
    );
    let back = coglab_core::review::records::import("r.csv", csv.as_bytes()).unwrap();
    let types: Vec<Option<ErrorType>> = back.records.iter().map(|r| r.error_type).collect();
    assert_eq!(
        types,
        [
            Some(ErrorType::WrongVisualUnderstanding),
            Some(ErrorType::WrongParadigm),
            Some(ErrorType::WrongParadigm)
        ]
    );
    let bad = csv.replace(",wrong_paradigm", ",typo");
    let err = coglab_core::review::records::import("r.csv", bad.as_bytes()).unwrap_err();
    assert!(err.contains("field \"error_type\""), "{err}");
}
