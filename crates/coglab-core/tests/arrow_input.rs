//! Arrow IPC input (issue 39): files and streams written by pyarrow
//! (`tests/fixtures/arrow/make.py`) and by arrow-rs's own IPC writer (with its LZ4 and C zstd
//! codecs), read by `coglab_core::columnar::ArrowIpc`, must give the JSON lines the Parquet
//! file of the same table gives and score exactly as the JSONL of the same rows; hostile
//! files must get a located error quickly.

use crate::common;
use crate::common::arrow::{to_arrow, Ipc, ALL};
use crate::common::parquet::{to_parquet, zstd};

use arrow_ipc::CompressionType;
use coglab_core::columnar::{ArrowIpc, Columnar, ColumnarError, Projection};
use coglab_core::harness::{self, map, HarnessFormat};
use coglab_core::mmiq::{score, AnswerKey, MmiqReport, Predictions};
use std::path::PathBuf;
use std::time::Instant;

fn fixture(rel: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn jsonl_of(c: &Columnar<'_>) -> String {
    let mut out = Vec::new();
    c.write_jsonl(
        Projection::All,
        |b| {
            out.extend_from_slice(b);
            Ok::<(), ColumnarError>(())
        },
        |_| {},
    )
    .unwrap();
    String::from_utf8(out).unwrap()
}

/// One table of every type the reader takes, written by pyarrow as Parquet (read by the
/// Parquet reader) and as Arrow IPC files (uncompressed, LZ4 frame, zstd) and a stream, in
/// batches of 3 rows: the same JSON lines, line for line.
#[test]
fn pyarrow_types_read_as_their_parquet() {
    let pq = fixture("arrow/types.parquet");
    let expected = jsonl_of(&Columnar::open("types.parquet", &pq).unwrap());
    assert_eq!(expected.lines().count(), 7);
    for name in [
        "types.arrow",
        "types.lz4.arrow",
        "types.zstd.arrow",
        "types.arrows",
    ] {
        let bytes = fixture(&format!("arrow/{name}"));
        let c = Columnar::open(name, &bytes).unwrap();
        let Columnar::Arrow(a) = &c else {
            panic!("{name}: not Arrow")
        };
        assert_eq!(a.num_batches(), 3, "{name}");
        let got = jsonl_of(&c);
        for (k, (g, e)) in got.lines().zip(expected.lines()).enumerate() {
            assert_eq!(g, e, "{name} row {}", k + 1);
        }
        assert_eq!(got, expected, "{name}");
    }
}

/// The figures two reports must share.
fn figures(r: &MmiqReport) -> String {
    format!(
        "{:?} {:?} {:?} {:?}",
        r.overall, r.by_category, r.rows, r.warnings
    )
}

/// The 100 real parsed predictions of MM-IQ's repository, as Arrow IPC (a file uncompressed,
/// with LZ4 frames and with zstd, and a stream; record batches of 30 rows), score as their
/// JSONL does: 33 of 100, per category as counted in
/// `mmiq_real::example_output_parsed_scores_33_of_100` (Mathematical 11/37, Temporal Movement
/// 4/17, Logical Operation 8/16, 2D-Geometry 5/14, 3D-Geometry 4/10, Spatial Relationship 1/5,
/// Concrete Object 0/1). The answer key as Arrow reads to the same 2,710 items.
#[test]
fn real_mmiq_arrow_scores_as_jsonl() {
    let (Some(key_bytes), Some(pred_bytes)) = (
        common::shared_bytes("mmiq/MMIQ_benchmark_answer_dict.jsonl"),
        common::shared_bytes("mmiq/example_output_parsed.jsonl"),
    ) else {
        return;
    };
    let key = AnswerKey::parse_bytes("key.jsonl", &key_bytes).unwrap();
    let jsonl = score(
        &key,
        &Predictions::parse("example_output_parsed.jsonl", &pred_bytes).unwrap(),
    )
    .unwrap();
    assert_eq!((jsonl.overall.correct, jsonl.overall.n), (33, 100));
    for ipc in ALL {
        let bytes = to_arrow(&pred_bytes, ipc, 30);
        let preds = Predictions::parse("example_output_parsed.arrow", &bytes).unwrap();
        assert_eq!(preds.records.len(), 100, "{ipc:?}");
        let report = score(&key, &preds).unwrap();
        assert_eq!(figures(&report), figures(&jsonl), "{ipc:?}");
        let count = |c: &str| {
            let a = &report.by_category[c];
            (a.correct, a.n)
        };
        assert_eq!(count("Mathematical"), (11, 37));
        assert_eq!(count("Temporal Movement"), (4, 17));
        assert_eq!(count("Logical Operation"), (8, 16));
        assert_eq!(count("2D-Geometry"), (5, 14));
        assert_eq!(count("3D-Geometry"), (4, 10));
        assert_eq!(count("Spatial Relationship"), (1, 5));
        assert_eq!(count("Concrete Object"), (0, 1));
        let key_arrow = to_arrow(&key_bytes, ipc, 1000);
        let k = AnswerKey::parse_bytes("MMIQ_benchmark_answer_dict.arrow", &key_arrow).unwrap();
        assert_eq!(k.items, key.items, "{ipc:?}");
        assert_eq!(k.items.len(), 2710);
    }
}

/// Free-text responses (the extraction path) score as their JSONL does, item by item and with
/// the same warnings, and the same table as Parquet gives the same JSON lines.
#[test]
fn small_mmiq_responses_arrow_score_as_jsonl() {
    let key = AnswerKey::parse_bytes("key_small.jsonl", &fixture("mmiq/key_small.jsonl")).unwrap();
    let preds = fixture("mmiq/preds_small.jsonl");
    let jsonl = score(
        &key,
        &Predictions::parse("preds_small.jsonl", &preds).unwrap(),
    )
    .unwrap();
    let items = |r: &MmiqReport| -> Vec<(u64, String, bool)> {
        r.items
            .iter()
            .map(|i| (i.data_id, i.parsed.to_string(), i.correct))
            .collect()
    };
    let pq = to_parquet(&preds, zstd(), 4, true);
    let from_pq = jsonl_of(&Columnar::open("p.parquet", &pq).unwrap());
    for ipc in ALL {
        let bytes = to_arrow(&preds, ipc, 4);
        let report = score(
            &key,
            &Predictions::parse("preds_small.arrow", &bytes).unwrap(),
        )
        .unwrap();
        assert_eq!(figures(&report), figures(&jsonl), "{ipc:?}");
        assert_eq!(items(&report), items(&jsonl), "{ipc:?}");
        // Both writers order the columns by name, so the lines are the same.
        assert_eq!(
            jsonl_of(&Columnar::open("p.arrow", &bytes).unwrap()),
            from_pq
        );
    }
}

/// Harness rows stored as Arrow read as their JSONL does: lmms-eval samples and EEE instance
/// records (nested structs and lists), with the same records and scores against the key.
#[test]
fn harness_rows_arrow_read_as_jsonl() {
    let k = AnswerKey::parse_bytes("key.jsonl", &fixture("harness/key.jsonl")).unwrap();
    let name = "20240601_120000_samples_mmiq.jsonl";
    // Without `arguments` (a list mixing strings and objects, which arrow-json's schema
    // inference cannot type), a field the reader does not use.
    let samples: Vec<u8> = String::from_utf8(fixture(&format!("harness/{name}")))
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            v.as_object_mut().unwrap().remove("arguments");
            format!("{v}\n")
        })
        .collect::<String>()
        .into_bytes();
    let f = harness::read(name, &samples).unwrap();
    assert_eq!(f.format, HarnessFormat::LmmsSamples);
    let before = map::score_mmiq(&f, &k, true).unwrap();
    let out = harness::eee::write_mmiq(&before, "llava", "1717243200").unwrap();
    let eee = harness::read("llava.jsonl", out.instances.as_bytes()).unwrap();
    let per_item = |r: &coglab_core::mmiq::MmiqReport| -> Vec<(u64, bool)> {
        r.items.iter().map(|i| (i.data_id, i.correct)).collect()
    };
    for ipc in ALL {
        let lmms = harness::read("samples_mmiq.arrow", &to_arrow(&samples, ipc, 2)).unwrap();
        assert_eq!(lmms.format, HarnessFormat::LmmsSamples, "{ipc:?}");
        assert_eq!(lmms.records.len(), f.records.len());
        let r = map::score_mmiq(&lmms, &k, true).unwrap();
        assert_eq!(per_item(&r), per_item(&before));
        let inst = harness::read(
            "llava_instances.arrow",
            &to_arrow(out.instances.as_bytes(), ipc, 3),
        )
        .unwrap();
        assert_eq!(inst.format, HarnessFormat::EeeInstances, "{ipc:?}");
        assert_eq!(inst.model.as_deref(), Some("llava"));
        assert_eq!(inst.records.len(), eee.records.len());
        let after = map::score_mmiq(&inst, &k, true).unwrap();
        assert_eq!(after.overall, before.overall);
        assert_eq!(after.by_category, before.by_category);
        assert_eq!(per_item(&after), per_item(&before));
    }
}

/// A dropped Arrow file or stream, as the worker detects it (whole): its kind from its first
/// rows; a file cut short is Unknown with the located reason.
#[test]
fn leaderboard_detects_a_dropped_arrow_file() {
    use coglab_core::leaderboard::{detect, unreadable, FileKind};
    for ipc in ALL {
        let preds = to_arrow(&fixture("mmiq/preds_small.jsonl"), ipc, 4);
        assert_eq!(
            detect("run.arrow", &preds),
            FileKind::MmiqPredictions,
            "{ipc:?}"
        );
        assert_eq!(unreadable("run.arrow", &preds), None);
        let key = to_arrow(&fixture("mmiq/key_small.jsonl"), ipc, 4);
        assert_eq!(detect("test.arrow", &key), FileKind::MmiqKey);
        let cut = &preds[..preds.len() - 5];
        assert_eq!(detect("cut.arrow", cut), FileKind::Unknown, "{ipc:?}");
        let why = unreadable("cut.arrow", cut).unwrap();
        assert!(why.starts_with("cut.arrow: the file is cut short"), "{why}");
    }
}

/// A bad value in a row is named by its record batch and row: row 6 of preds_small (its
/// `data_id` made "x") is row 2 of record batch 2 in batches of 4 rows.
#[test]
fn errors_name_the_record_batch_and_row() {
    let text = String::from_utf8(fixture("mmiq/preds_small.jsonl")).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    // Every data_id a string (the reader takes "7" as 7), so the column is one of strings.
    for (k, line) in lines.iter_mut().enumerate() {
        let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
        v["data_id"] = if k == 5 {
            "x".into()
        } else {
            v["data_id"].to_string().into()
        };
        *line = v.to_string();
    }
    let bad = lines.join("\n");
    for ipc in ALL {
        let e = Predictions::parse("bad.arrow", &to_arrow(bad.as_bytes(), ipc, 4)).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("bad.arrow record batch 2, row 2: field \"data_id\""),
            "{e}"
        );
    }
}

/// A synthetic predictions file of `n` rows.
fn synthetic(n: usize) -> Vec<u8> {
    let mut s = String::new();
    for i in 0..n {
        s.push_str(&format!(
            "{{\"data_id\": {i}, \"response\": \"Row {i}: the answer is option B.\"}}\n"
        ));
    }
    s.into_bytes()
}

/// Where the first record batch's metadata is in a stream (`start` bytes in): after the
/// schema message (continuation marker, length, FlatBuffer, no body).
fn batch_meta(bytes: &[u8], start: usize) -> std::ops::Range<usize> {
    let len = |p: usize| i32::from_le_bytes(bytes[p..p + 4].try_into().unwrap()) as usize;
    let batch = start + 8 + len(start + 4);
    batch + 8..batch + 8 + len(batch + 4)
}

/// Replaces the little-endian `from` by `to` in `range` (every time, or the first only).
fn patch(bytes: &mut [u8], range: std::ops::Range<usize>, from: i64, to: i64, all: bool) {
    let mut n = 0;
    let mut p = range.start;
    while p + 8 <= range.end {
        if bytes[p..p + 8] == from.to_le_bytes() {
            bytes[p..p + 8].copy_from_slice(&to.to_le_bytes());
            n += 1;
            if !all {
                break;
            }
            p += 8;
        } else {
            p += 1;
        }
    }
    assert!(n > 0, "{from} not found");
}

/// The error reading `bytes` as predictions (and as an open [`ArrowIpc`] then rows), which
/// must come within a second.
fn err(name: &str, bytes: &[u8]) -> String {
    let t = Instant::now();
    let e = Predictions::parse(name, bytes).unwrap_err().to_string();
    assert!(t.elapsed().as_secs_f64() < 1.0, "{e}: {:?}", t.elapsed());
    e
}

const PLAIN: Ipc = Ipc {
    stream: true,
    compression: None,
};

/// A file cut short or with a footer length past its start names the file and what a whole
/// file has there.
#[test]
fn hostile_truncated_footers_are_located() {
    let file = to_arrow(
        &synthetic(50),
        Ipc {
            stream: false,
            compression: None,
        },
        20,
    );
    assert!(ArrowIpc::from_slice("ok.arrow", &file).is_ok());
    let e = err("cut.arrow", &file[..file.len() - 3]);
    assert!(
        e.starts_with("cut.arrow: the file is cut short: the last 6 bytes are")
            && e.ends_with("(expected a footer ending in ARROW1)"),
        "{e}"
    );
    let mut long = file.clone();
    let n = long.len();
    long[n - 10..n - 6].copy_from_slice(&(n as i32).to_le_bytes());
    let e = err("long.arrow", &long);
    assert!(
        e.starts_with(&format!(
            "long.arrow: the file is cut short: a {n}-byte footer in a {}-byte file",
            n
        )),
        "{e}"
    );
    // A stream cut inside its second record batch: the first batch's rows are not enough.
    let stream = to_arrow(&synthetic(50), PLAIN, 20);
    let e = err("cut.arrows", &stream[..stream.len() * 2 / 3]);
    assert!(
        e.starts_with("cut.arrows: the file is cut short: a "),
        "{e}"
    );
}

/// A record batch claiming 10^12 rows (its nodes too) is refused when the file is opened,
/// before any row is read; one claiming a row more than its buffers hold is refused naming
/// the record batch and column.
#[test]
fn hostile_row_counts_are_located() {
    for (name, stream) in [("big.arrows", true), ("big.arrow", false)] {
        let mut bytes = to_arrow(
            &synthetic(1234),
            Ipc {
                stream,
                compression: None,
            },
            5000,
        );
        // The batch's and its nodes' lengths (no value of the body is 1234).
        let all = 0..bytes.len();
        patch(&mut bytes, all, 1234, 1_000_000_000_000, true);
        let e = err(name, &bytes);
        assert_eq!(
            e,
            format!(
                "{name} record batch 1: the record batch's row count declares 1000000000000, \
                 more than the 50000000 allowed (limits::MAX_PARQUET_ROWS)"
            )
        );
    }
    let mut bytes = to_arrow(&synthetic(1234), PLAIN, 5000);
    let meta = batch_meta(&bytes, 0);
    patch(&mut bytes, meta, 1234, 1235, true);
    assert_eq!(
        err("more.arrows", &bytes),
        "more.arrows record batch 1, column \"data_id\": 9872 bytes, expected a data buffer of \
         at least 9880 bytes for the array's 1235 values"
    );
}

/// A buffer claiming 2^40 bytes past its message's body is refused naming the record batch
/// and column.
#[test]
fn hostile_buffer_lengths_are_located() {
    let mut bytes = to_arrow(&synthetic(1234), PLAIN, 5000);
    let meta = batch_meta(&bytes, 0);
    // The data_id column's values: 1234 × 8 bytes.
    patch(&mut bytes, meta, 9872, 1 << 40, false);
    let e = err("huge.arrows", &bytes);
    assert!(
        e.starts_with("huge.arrows record batch 1, column \"data_id\": the file is cut short: buffer 2 of 1099511627776 bytes"),
        "{e}"
    );
}

/// A compressed buffer declaring 2^50 bytes is refused before it is decompressed; one
/// declaring 200 MiB (under the limit) that holds 9,872 bytes is refused after those are read,
/// without 200 MiB being reserved (in well under a second).
#[test]
fn hostile_compressed_sizes_are_refused_before_they_are_inflated() {
    for (to, want) in [
        (
            1i64 << 50,
            "zstd.arrows record batch 1, column \"data_id\": a compressed buffer (with the \
             batch's others so far) declares 1125899906842624, more than the 268435456 allowed \
             (limits::MAX_ARROW_BATCH_BYTES)",
        ),
        (
            200 << 20,
            "zstd.arrows record batch 1, column \"data_id\": a compressed buffer declares \
             209715200 bytes and decompresses to 9872",
        ),
    ] {
        let mut bytes = to_arrow(
            &synthetic(1234),
            Ipc {
                stream: true,
                compression: Some(CompressionType::ZSTD),
            },
            5000,
        );
        let body = batch_meta(&bytes, 0).end..bytes.len();
        patch(&mut bytes, body, 9872, to, false);
        let e = err("zstd.arrows", &bytes);
        assert!(e.starts_with(want), "{e}");
    }
}

/// A stream whose record batch was written for another schema (its `data_id` integers where
/// the schema has strings, and a column fewer) is refused naming the record batch and the
/// column, not read as garbage.
#[test]
fn mismatched_schemas_are_located() {
    let strings: Vec<u8> = String::from_utf8(synthetic(40))
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["data_id"] = v["data_id"].to_string().into();
            v["extra"] = "x".into();
            format!("{v}\n")
        })
        .collect::<String>()
        .into_bytes();
    let a = to_arrow(&strings, PLAIN, 100);
    let b = to_arrow(&synthetic(40), PLAIN, 100);
    let schema_end = |s: &[u8]| 8 + i32::from_le_bytes(s[4..8].try_into().unwrap()) as usize;
    let mut spliced = a[..schema_end(&a)].to_vec();
    spliced.extend_from_slice(&b[schema_end(&b)..]);
    let e = err("mixed.arrows", &spliced);
    assert!(
        e.starts_with("mixed.arrows record batch 1, column \"data_id\""),
        "{e}"
    );
}
