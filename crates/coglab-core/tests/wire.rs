//! The binary form the web worker sends results in (`coglab_core::wire`): bytes worked by hand,
//! every kind of value round-tripped, malformed input refused without a panic, and the real
//! results the worker sends (scored MM-IQ and KiVA files, item and trial pages, comparisons, a
//! PLS-SEM report) read back equal to what was written.

mod common;

use coglab_core::kiva::score_model;
use coglab_core::leaderboard::detail::{
    compare_kiva, compare_mmiq, kiva_trials, mmiq_items, ItemsQuery, TrialsQuery,
};
use coglab_core::leaderboard::{score_files, Detail, InputRef};
use coglab_core::sem::{analyze, SemOptions};
use coglab_core::wire::{from_bytes, to_bytes};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Small {
    a: u32,
    b: Option<i32>,
    s: String,
}

#[test]
fn bytes_worked_by_hand() {
    // 300 = 0b10_0101100: low seven bits 0x2C with the continuation bit, then 0x02.
    // -2 zigzag-encodes to 3. "hé" is 3 bytes of UTF-8.
    let v = Small {
        a: 300,
        b: Some(-2),
        s: "hé".into(),
    };
    let bytes = to_bytes(&v).unwrap();
    assert_eq!(bytes, [0xAC, 0x02, 1, 3, 3, b'h', 0xC3, 0xA9]);
    assert_eq!(from_bytes::<Small>(&bytes).unwrap(), v);
    // f64: its 8 little-endian bytes; a unit variant: its index.
    assert_eq!(to_bytes(&1.5f64).unwrap(), 1.5f64.to_le_bytes());
    assert_eq!(to_bytes(&Shape::Empty).unwrap(), [0]);
    assert_eq!(to_bytes(&vec![true, false]).unwrap(), [2, 1, 0]);
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Shape {
    Empty,
    Circle(f64),
    Rect(f64, f64),
    Named { name: String, sides: u8 },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Everything {
    small: u8,
    wide: u64,
    neg: i64,
    flag: bool,
    letter: char,
    text: String,
    maybe: Option<Box<Small>>,
    list: Vec<Shape>,
    map: BTreeMap<String, (u16, i8)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    tags: Vec<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    label: String,
    #[serde(skip)]
    cache: usize,
    last: f32,
}

fn everything() -> Everything {
    Everything {
        small: 255,
        wide: u64::MAX,
        neg: i64::MIN,
        flag: true,
        letter: '∑',
        text: "line\nbreak \"quoted\" ✓".into(),
        maybe: Some(Box::new(Small {
            a: 0,
            b: None,
            s: String::new(),
        })),
        list: vec![
            Shape::Empty,
            Shape::Circle(-0.0),
            Shape::Rect(f64::MAX, f64::MIN_POSITIVE),
            Shape::Named {
                name: "hexagon".into(),
                sides: 6,
            },
        ],
        map: [("x".to_string(), (65535, -128)), ("".to_string(), (0, 0))]
            .into_iter()
            .collect(),
        note: Some("kept".into()),
        tags: vec!["a".into()],
        label: "l".into(),
        cache: 0,
        last: 0.1,
    }
}

#[test]
fn every_kind_of_value_round_trips() {
    let v = everything();
    assert_eq!(from_bytes::<Everything>(&to_bytes(&v).unwrap()).unwrap(), v);
    // The fields left out by skip_serializing_if read back as their empty values.
    let bare = Everything {
        note: None,
        tags: vec![],
        label: String::new(),
        ..everything()
    };
    let bytes = to_bytes(&bare).unwrap();
    assert_eq!(from_bytes::<Everything>(&bytes).unwrap(), bare);
    // ... each written as one zero byte instead of Some + "kept" (1+1+4), ["a"] (1+1+1) and
    // "l" (1+1).
    assert_eq!(
        to_bytes(&everything()).unwrap().len() - bytes.len(),
        (6 - 1) + (3 - 1) + (2 - 1)
    );
}

#[test]
fn numbers_keep_every_bit() {
    for x in [
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        -0.0,
        5e-324,
        0.1 + 0.2,
    ] {
        let back: f64 = from_bytes(&to_bytes(&x).unwrap()).unwrap();
        assert_eq!(back.to_bits(), x.to_bits(), "{x}");
    }
    for n in [0i64, -1, 1, 63, -64, 64, i64::MAX, i64::MIN] {
        assert_eq!(from_bytes::<i64>(&to_bytes(&n).unwrap()).unwrap(), n);
    }
}

#[test]
fn malformed_bytes_are_refused_with_a_message_never_a_panic() {
    let good = to_bytes(&everything()).unwrap();
    // Every truncation fails.
    for n in 0..good.len() {
        let e = from_bytes::<Everything>(&good[..n]).unwrap_err();
        assert!(!e.to_string().is_empty());
    }
    // Extra bytes after the value.
    let mut long = good.clone();
    long.push(0);
    assert_eq!(
        from_bytes::<Everything>(&long).unwrap_err().to_string(),
        format!("1 bytes left over after the value (at byte {})", good.len())
    );
    // A bool that is neither 0 nor 1, a variant index out of range, invalid UTF-8, a length
    // beyond the value (refused before allocating), an integer out of range.
    assert!(from_bytes::<bool>(&[2])
        .unwrap_err()
        .to_string()
        .contains("expected 0 or 1, found 2"));
    assert!(from_bytes::<Shape>(&[9]).is_err());
    assert!(from_bytes::<String>(&[2, 0xC3, 0x28])
        .unwrap_err()
        .to_string()
        .contains("not UTF-8"));
    assert!(from_bytes::<Vec<u8>>(&[0xFF, 0xFF, 0xFF, 0xFF, 0x0F])
        .unwrap_err()
        .to_string()
        .contains("longer than the value"));
    // 0xFF 0xFF 0x03 is 65,535; 0x80 0x80 0x04 is 65,536.
    assert_eq!(from_bytes::<u16>(&[0xFF, 0xFF, 0x03]).unwrap(), u16::MAX);
    assert!(from_bytes::<u16>(&[0x80, 0x80, 0x04])
        .unwrap_err()
        .to_string()
        .contains("65536 is out of range"));
    // Random bytes: an error or a value, never a panic.
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..2000 {
        let len = (x % 40) as usize;
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        let _ = from_bytes::<Everything>(&bytes);
    }
}

#[test]
fn self_describing_types_are_an_error_not_a_wrong_value() {
    #[derive(Debug, Serialize, Deserialize)]
    #[serde(untagged)]
    enum Either {
        N(u8),
        S(String),
    }
    let e = from_bytes::<Either>(&to_bytes(&Either::N(1)).unwrap()).unwrap_err();
    assert!(e.to_string().contains("send this type as JSON"), "{e}");
    struct UnknownLength;
    impl Serialize for UnknownLength {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeSeq;
            s.serialize_seq(None)?.end()
        }
    }
    let e = to_bytes(&UnknownLength).unwrap_err();
    assert!(
        e.to_string().contains("a sequence of unknown length"),
        "{e}"
    );
}

/// `value` written and read back as a `T`, compared through its JSON (every type sent has a
/// JSON form; NaN shows as null on both sides).
fn round_trips<T: Serialize + DeserializeOwned>(value: &T) {
    let bytes = to_bytes(value).unwrap();
    let back: T = from_bytes(&bytes).unwrap();
    assert_eq!(
        serde_json::to_value(&back).unwrap(),
        serde_json::to_value(value).unwrap()
    );
}

fn kiva_run(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for d in std::fs::read_dir(dir).unwrap() {
        let d = d.unwrap().path();
        for f in std::fs::read_dir(&d).unwrap() {
            let f = f.unwrap().path();
            out.push((f.to_string_lossy().to_string(), std::fs::read(&f).unwrap()));
        }
    }
    out
}

#[test]
fn the_worker_results_on_real_files_read_back_equal() {
    let (Some(key), Some(preds), Some(human), Some(kiva)) = (
        common::shared_bytes("mmiq/MMIQ_benchmark_answer_dict.jsonl"),
        common::shared_bytes("mmiq/example_output_parsed.jsonl"),
        common::shared_bytes("kiva/human_adults_KiVA.csv"),
        common::shared_data("kiva/model_data/KiVA"),
    ) else {
        return;
    };
    let runs = [
        kiva_run(&kiva.join("gpt4_multi_image")),
        kiva_run(&kiva.join("mantis_multi_image")),
    ];
    let mut inputs = vec![
        InputRef {
            path: "MMIQ_benchmark_answer_dict.jsonl",
            bytes: &key,
            model: None,
        },
        InputRef {
            path: "example_output_parsed.jsonl",
            bytes: &preds,
            model: None,
        },
        InputRef {
            path: "human_adults_KiVA.csv",
            bytes: &human,
            model: None,
        },
    ];
    for run in &runs {
        for (p, b) in run {
            inputs.push(InputRef {
                path: p,
                bytes: b,
                model: None,
            });
        }
    }
    let mut scored = score_files(&inputs, |_, _, _| {});
    assert_eq!(scored.mmiq.len(), 1);
    assert!(scored.kiva.len() >= 2, "{:?}", scored.files);
    // The full reports (items and trials) first, then the summaries lb.score sends.
    round_trips(&scored);
    assert_eq!(
        from_bytes::<coglab_core::leaderboard::Scored>(&to_bytes(&scored).unwrap()).unwrap(),
        scored
    );
    let mut next = 1;
    let details = scored.split_details(&mut next);
    round_trips(&scored);

    let Detail::Mmiq(mmiq) = &details[0].1 else {
        panic!("the first row is MM-IQ")
    };
    round_trips(&mmiq_items(mmiq, &ItemsQuery::default()));
    round_trips(&compare_mmiq(mmiq, mmiq, 200, 1).unwrap());
    // The two model runs (the human data is a KiVA-adults row).
    let kiva: Vec<_> = scored
        .kiva
        .iter()
        .filter(|row| row.model.contains("multi_image"))
        .filter_map(|row| match details.iter().find(|(id, _)| *id == row.id) {
            Some((_, Detail::Kiva(k))) => Some(k),
            _ => None,
        })
        .collect();
    assert_eq!(kiva.len(), 2);
    round_trips(&kiva_trials(kiva[0], &TrialsQuery::default()));
    round_trips(&compare_kiva(kiva[0], kiva[1], 200, 1).unwrap());
    let direct = score_model(runs[0].iter().map(|(p, b)| (p.as_str(), b.as_slice()))).unwrap();
    round_trips(&direct);
}

#[test]
fn a_pls_sem_report_reads_back_equal() {
    let Some(data) = common::shared_bytes("sem/mobi.csv") else {
        return;
    };
    let options = SemOptions {
        bootstrap: Some(coglab_core::sem::bootstrap::BootstrapOptions {
            resamples: 50,
            seed: 3,
        }),
        prune: true,
        ..SemOptions::default()
    };
    let r = analyze(common::MOBI_SPEC, "s.json", &data, "mobi.csv", &options).unwrap();
    round_trips(&r);
}
