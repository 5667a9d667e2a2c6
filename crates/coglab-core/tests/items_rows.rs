//! Response matrices from computed leaderboard rows (`items::rows`, what the web worker builds
//! from its kept rows): a hand-made MM-IQ batch, the real KiVA runs, and the refusals.

use crate::common;

use coglab_core::items::rows::{matrix_from_rows, RowsOptions};
use coglab_core::items::{analyse_report, AnalysisOptions, ItemsError, ReportOptions};
use coglab_core::leaderboard::{score_files, Detail, InputRef};

const KEY: &str = concat!(
    r#"{"category": "Mathematical", "MD5": "x", "data_id": 0, "answer": "A"}"#,
    "\n",
    r#"{"category": "Mathematical", "MD5": "x", "data_id": 1, "answer": "B"}"#,
    "\n",
    r#"{"category": "Concrete Object", "MD5": "x", "data_id": 2, "answer": "C"}"#,
    "\n",
    r#"{"category": "Concrete Object", "MD5": "x", "data_id": 3, "answer": "D"}"#,
    "\n"
);

/// Three models: a answers A B A D (right, right, wrong, right); b answers A A B A (right,
/// wrong, wrong, wrong); c answers B B C D (wrong, right, right, right).
fn details() -> Vec<(coglab_core::leaderboard::RowId, Detail)> {
    let files: [(&str, &[u8]); 4] = [
        ("MMIQ_benchmark_answer_dict.jsonl", KEY.as_bytes()),
        ("a_output.jsonl", b"{\"data_id\": 0, \"parsed_pred\": \"A\"}\n{\"data_id\": 1, \"parsed_pred\": \"B\"}\n{\"data_id\": 2, \"parsed_pred\": \"A\"}\n{\"data_id\": 3, \"parsed_pred\": \"D\"}\n"),
        ("b_output.jsonl", b"{\"data_id\": 0, \"parsed_pred\": \"A\"}\n{\"data_id\": 1, \"parsed_pred\": \"A\"}\n{\"data_id\": 2, \"parsed_pred\": \"B\"}\n{\"data_id\": 3, \"parsed_pred\": \"A\"}\n"),
        ("c_output.jsonl", b"{\"data_id\": 0, \"parsed_pred\": \"B\"}\n{\"data_id\": 1, \"parsed_pred\": \"B\"}\n{\"data_id\": 2, \"parsed_pred\": \"C\"}\n{\"data_id\": 3, \"parsed_pred\": \"D\"}\n"),
    ];
    let inputs: Vec<InputRef> = files
        .iter()
        .map(|(path, bytes)| InputRef {
            path,
            bytes,
            model: None,
        })
        .collect();
    let mut s = score_files(&inputs, |_, _, _| {});
    let mut next = coglab_core::leaderboard::RowId::first(1);
    s.split_details(&mut next)
}

#[test]
fn mmiq_rows_give_the_items_with_answers() {
    let d = details();
    let rows: Vec<(&str, &Detail)> = ["a", "b", "c"]
        .into_iter()
        .zip(d.iter().map(|(_, x)| x))
        .collect();
    let m = matrix_from_rows(&rows, &RowsOptions::default()).unwrap();
    assert_eq!((m.n_respondents(), m.n_items()), (3, 4));
    let row = |i: usize| (0..4).map(|j| m.get(i, j)).collect::<Vec<_>>();
    assert_eq!(
        row(0),
        vec![Some(true), Some(true), Some(false), Some(true)]
    );
    assert_eq!(
        row(1),
        vec![Some(true), Some(false), Some(false), Some(false)]
    );
    assert_eq!(
        row(2),
        vec![Some(false), Some(true), Some(true), Some(true)]
    );
    assert_eq!(m.answer(1, 1), Some("A"));
    assert_eq!(m.items[2].category.as_deref(), Some("Concrete Object"));
    // The report on it: item 0 is right for a and b, p = 2/3; item 2's wrong answers are A
    // (a) and B (b), one each, so the most frequent wrong answer is A (first in letter order).
    let r = analyse_report(&m, &AnalysisOptions::default(), &ReportOptions::default()).unwrap();
    assert!((r.items[0].p.unwrap() - 2.0 / 3.0).abs() < 1e-15);
    assert_eq!(r.items[2].most_frequent_wrong, Some(("A".to_string(), 1)));
    assert_eq!(r.respondents[0].id, "a");
    assert_eq!(r.respondents[0].group.as_deref(), Some("model"));
}

#[test]
fn refuses_mixed_and_empty_rows() {
    let d = details();
    assert!(matches!(
        matrix_from_rows(&[], &RowsOptions::default()),
        Err(ItemsError::Empty { .. })
    ));
    let kiva = coglab_core::leaderboard::Detail::Gold(
        coglab_core::sem::data::ScoreMatrix::parse(b"model,t1\nm1,1\nm2,2\n", "g.csv").unwrap(),
    );
    let rows = [("a", &d[0].1), ("g", &kiva)];
    let e = matrix_from_rows(&rows, &RowsOptions::default()).unwrap_err();
    assert!(e.to_string().contains("different benchmarks"), "{e}");
}

#[test]
fn kiva_runs_and_adults_from_rows() {
    // The three real KiVA model runs and the adults' file, scored as the leaderboard does.
    let Some(kiva) = common::shared_data("kiva") else {
        return;
    };
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for run in [
        "gpt4_multi_image",
        "gpt4_single_image",
        "mantis_multi_image",
    ] {
        let dir = kiva.join("model_data/KiVA").join(run);
        for f in walk(&dir) {
            let rel = f.strip_prefix(kiva.join("model_data/KiVA")).unwrap();
            files.push((
                rel.to_string_lossy().into_owned(),
                std::fs::read(&f).unwrap(),
            ));
        }
    }
    files.push((
        "human_adults_KiVA.csv".into(),
        std::fs::read(kiva.join("human_adults_KiVA.csv")).unwrap(),
    ));
    let inputs: Vec<InputRef> = files
        .iter()
        .map(|(p, b)| InputRef {
            path: p,
            bytes: b,
            model: None,
        })
        .collect();
    let mut s = score_files(&inputs, |_, _, _| {});
    let mut next = coglab_core::leaderboard::RowId::first(1);
    let d = s.split_details(&mut next);
    assert_eq!(d.len(), 4, "three runs and the adults");
    let rows: Vec<(&str, &Detail)> = d
        .iter()
        .enumerate()
        .map(|(i, (_, x))| (["r1", "r2", "r3", "adults"][i], x))
        .collect();
    let with = matrix_from_rows(&rows, &RowsOptions::default()).unwrap();
    let without = matrix_from_rows(
        &rows,
        &RowsOptions {
            include_humans: false,
            ..RowsOptions::default()
        },
    )
    .unwrap();
    assert_eq!(without.n_respondents(), 3);
    // human_adults_KiVA.csv has 250 participants (data/README.md).
    assert_eq!(with.n_respondents() - without.n_respondents(), 250);
    assert_eq!(with.groups(), vec!["model", "human"]);
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else if p.extension().is_some_and(|x| x == "csv") {
            out.push(p);
        }
    }
    out.sort();
    out
}
