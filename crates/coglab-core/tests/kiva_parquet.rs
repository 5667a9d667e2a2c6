//! KiVA runs stored as Parquet (issue 39): a file with a run CSV's columns scores as the CSV of
//! the same rows does, in `kiva::score_model` and in the leaderboard (detected as a KiVA run,
//! its subdomain from the file name); its errors name the row group and row; KiVA's Every Eval
//! Ever instance records stored as Parquet read back as their JSONL does.
//!
//! Files: `fixtures/kiva/run_small_parquet/` written by pyarrow 26.0.1 from `run_small`'s CSVs
//! (`make.py` there: types inferred, so numbers, a double column with a null and a string
//! column holding `Null`); the real runs of `../shared/data` written in the test by the
//! `parquet` crate's Arrow writer, every column a string.

use crate::common;
use crate::common::parquet::to_parquet;

use coglab_core::harness::{self, eee, HarnessFormat};
use coglab_core::kiva::{score_model, KivaError, KivaReport};
use coglab_core::leaderboard::{self, FileKind, FileState, InputRef};
use parquet::basic::Compression;
use std::path::PathBuf;

const SUBDOMAINS: [&str; 2] = ["output_Colour/ColourRed", "output_Reflect/ReflectX"];

fn fixture(rel: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/kiva")
        .join(rel);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The fixture run as (path, bytes): `ext` "csv" from `run_small`, "parquet" from
/// `run_small_parquet`.
fn run_small(ext: &str) -> Vec<(String, Vec<u8>)> {
    let folder = if ext == "csv" {
        "run_small"
    } else {
        "run_small_parquet"
    };
    SUBDOMAINS
        .iter()
        .map(|s| {
            (
                format!("gpt4/{s}.{ext}"),
                fixture(&format!("{folder}/{s}.{ext}")),
            )
        })
        .collect()
}

fn score(files: &[(String, Vec<u8>)]) -> KivaReport {
    score_model(files.iter().map(|(p, b)| (p.as_str(), b.as_slice()))).unwrap()
}

/// A report as JSON with its file names' `.parquet` read as `.csv`, so two reports of the
/// same rows compare whole (figures, trials with their lines, warnings).
fn as_csv_json(r: &KivaReport) -> String {
    serde_json::to_string(r)
        .unwrap()
        .replace(".parquet", ".csv")
}

/// A CSV's records as JSON lines of strings (the header's names as keys), for the `parquet`
/// crate's writer.
fn csv_to_jsonl(csv: &[u8]) -> Vec<u8> {
    let mut reader = csv::ReaderBuilder::new().from_reader(csv);
    let header = reader.headers().unwrap().clone();
    let mut out = Vec::new();
    for rec in reader.records() {
        let rec = rec.unwrap();
        let obj: serde_json::Map<String, serde_json::Value> = header
            .iter()
            .zip(rec.iter())
            .map(|(k, v)| (k.to_string(), serde_json::Value::String(v.to_string())))
            .collect();
        serde_json::to_writer(&mut out, &obj).unwrap();
        out.push(b'\n');
    }
    out
}

#[test]
fn pyarrow_run_scores_as_its_csv() {
    let csv = score(&run_small("csv"));
    let pq = score(&run_small("parquet"));
    assert_eq!(pq.files[0], "gpt4/output_Colour/ColourRed.parquet");
    assert_eq!(as_csv_json(&pq), as_csv_json(&csv));
    // The figures kiva_small.rs works out by hand: ColourRed cross (2/3 + 1) / 2.
    let red = pq.by_subdomain["ColourRed"].cross.unwrap();
    assert!((red.mean - 5.0 / 6.0).abs() < 1e-15);
    assert_eq!(pq.rows.trials, 4);
}

#[test]
fn real_runs_as_parquet_score_as_their_csvs() {
    let Some(dir) = common::shared_data("kiva/model_data/KiVA/gpt4_multi_image") else {
        return;
    };
    let mut csvs = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let domain = entry.unwrap().path();
        for f in std::fs::read_dir(&domain).unwrap() {
            let f = f.unwrap().path();
            if f.extension().is_some_and(|e| e == "csv") {
                let rel = f.strip_prefix(dir.parent().unwrap()).unwrap();
                csvs.push((rel.display().to_string(), std::fs::read(&f).unwrap()));
            }
        }
    }
    csvs.sort();
    assert!(csvs.len() >= 14, "{} run CSVs", csvs.len());
    let pqs: Vec<(String, Vec<u8>)> = csvs
        .iter()
        .map(|(p, b)| {
            let pq = to_parquet(&csv_to_jsonl(b), Compression::SNAPPY, 40, true);
            (p.replace(".csv", ".parquet"), pq)
        })
        .collect();
    let csv = score(&csvs);
    let pq = score(&pqs);
    assert_eq!(pq.rows.trials, csv.rows.trials);
    assert_eq!(as_csv_json(&pq), as_csv_json(&csv));
}

/// A bad score in row 100 of a real run whose answers span lines (so row 100 is not line
/// 101 of the CSV written from it): row group 3 (rows of 40), row 20, column MCResponse#3.
#[test]
fn a_bad_value_names_its_row_group_row_and_column() {
    let Some(path) =
        common::shared_data("kiva/model_data/KiVA/gpt4_multi_image/output_Colour/ColourRed.csv")
    else {
        return;
    };
    let jsonl = csv_to_jsonl(&std::fs::read(path).unwrap());
    let mut lines: Vec<serde_json::Value> = jsonl
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    assert!(lines[..99]
        .iter()
        .any(|l| l["Full#1"].as_str().unwrap().contains('\n')));
    lines[99]["MCResponse#3"] = "maybe".into();
    let mut bad = Vec::new();
    for l in &lines {
        serde_json::to_writer(&mut bad, l).unwrap();
        bad.push(b'\n');
    }
    let pq = to_parquet(&bad, Compression::SNAPPY, 40, true);
    let e = score_model([("m/output_Colour/ColourRed.parquet", pq.as_slice())]).unwrap_err();
    assert!(matches!(e, KivaError::BadValue { .. }), "{e:?}");
    let msg = e.to_string();
    assert!(
        msg.starts_with(
            "m/output_Colour/ColourRed.parquet row group 3, row 20: field \"MCResponse#3\": expected"
        ),
        "{msg}"
    );
    assert!(msg.contains("\"maybe\""), "{msg}");
}

#[test]
fn a_file_cut_short_and_missing_columns_are_named() {
    let pq = fixture("run_small_parquet/output_Colour/ColourRed.parquet");
    let e = score_model([("m/output_Colour/ColourRed.parquet", &pq[..pq.len() - 3])]).unwrap_err();
    assert!(matches!(e, KivaError::Columnar(_)), "{e:?}");
    assert!(
        e.to_string()
            .starts_with("m/output_Colour/ColourRed.parquet: the file is cut short"),
        "{e}"
    );
    let only = to_parquet(
        b"{\"Variation\": 0, \"Regeneration\": 0}\n",
        Compression::SNAPPY,
        10,
        false,
    );
    let e = score_model([("m/output_Colour/ColourRed.parquet", only.as_slice())]).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("m/output_Colour/ColourRed.parquet: missing column(s) MCResponse#1"),
        "{e}"
    );
}

#[test]
fn the_leaderboard_detects_and_scores_a_parquet_run_as_its_csv() {
    let score_board = |files: &[(String, Vec<u8>)]| {
        let inputs: Vec<InputRef<'_>> = files
            .iter()
            .map(|(p, b)| InputRef {
                path: p,
                bytes: b,
                model: None,
            })
            .collect();
        leaderboard::score_files(&inputs, |_, _, _| {})
    };
    let pq_files = run_small("parquet");
    for (p, b) in &pq_files {
        assert_eq!(leaderboard::detect(p, b), FileKind::KivaRun, "{p}");
    }
    let csv = score_board(&run_small("csv"));
    let pq = score_board(&pq_files);
    assert!(
        pq.files.iter().all(|f| f.status == FileState::Ok),
        "{:?}",
        pq.files
    );
    assert_eq!((pq.kiva.len(), csv.kiva.len()), (1, 1));
    assert_eq!(pq.kiva[0].model, "gpt4");
    assert_eq!(
        as_csv_json(&pq.kiva[0].report),
        as_csv_json(&csv.kiva[0].report)
    );
}

#[test]
fn kiva_eee_records_as_parquet_read_back_as_their_jsonl() {
    let scored = score(&run_small("csv"));
    let written = eee::write_kiva(&scored, "gpt4", "1717243200").unwrap();
    let jsonl = written.instances.as_bytes();
    let pq = to_parquet(jsonl, Compression::SNAPPY, 5, true);
    assert_eq!(
        harness::detect_file("gpt4.parquet", &pq),
        Some(HarnessFormat::EeeInstances)
    );
    let from_jsonl = eee::read_kiva("gpt4.jsonl", jsonl).unwrap();
    let from_pq = eee::read_kiva("gpt4.parquet", &pq).unwrap();
    assert_eq!(
        serde_json::to_string(&from_pq)
            .unwrap()
            .replace("gpt4.parquet", "gpt4.jsonl"),
        serde_json::to_string(&from_jsonl).unwrap()
    );
    assert_eq!(from_pq.overall, scored.overall);
    assert_eq!(from_pq.trials, scored.trials);
    // Dropped on the leaderboard: a KiVA row, as the JSONL gives.
    let board = leaderboard::score_files(
        &[InputRef {
            path: "gpt4.parquet",
            bytes: &pq,
            model: None,
        }],
        |_, _, _| {},
    );
    assert_eq!(board.files[0].status, FileState::Ok, "{:?}", board.files[0]);
    assert_eq!(board.kiva.len(), 1);
    assert_eq!(board.kiva[0].report.overall, scored.overall);
}

/// A deterministic sweep in the spirit of the `parquet` fuzz target (`fuzz/src/lib.rs`), run
/// on stable with every test, over a KiVA run and a lighteval details file written by pyarrow
/// (dictionary and plain pages, nested lists and structs): each byte set to 0xFF (and every
/// third byte to 0x00), and the file cut every 16 bytes (every fifth byte and cut only, unless
/// `COGLAB_FULL_SWEEP=1`), must give a result or an error from
/// the Parquet reader and the KiVA and lighteval readers, never a panic. The full sweep found
/// six panics of the `parquet` crate that `columnar` now refuses first with a located error: a
/// PLAIN byte-array page shorter than its values, a dictionary-encoded page without a
/// dictionary, levels in an encoding other than RLE or BIT_PACKED, levels fewer than the
/// page's values or above the column's highest, a repeated column whose pages start another
/// number of records than the row group's rows, and a LIST / MAP / group of a shape the
/// record reader asserts on.
#[test]
fn mutated_pyarrow_files_never_panic() {
    use coglab_core::columnar::{ColumnarError, ParquetFile, Projection};
    // Every byte with COGLAB_FULL_SWEEP=1 (about 90 s in a debug build), else every fifth.
    let full = std::env::var("COGLAB_FULL_SWEEP").is_ok_and(|v| v == "1");
    let check = |bytes: &[u8]| {
        if let Ok(f) = ParquetFile::from_slice("f.parquet", bytes) {
            let _ = f.write_jsonl(Projection::All, |_| Ok::<(), ColumnarError>(()), |_| {});
        }
        let _ = score_model([("m/output_Reflect/ReflectX.parquet", bytes)]);
        let _ = harness::lighteval::read_details("details_mmiq_x.parquet", bytes);
    };
    for good in [
        fixture("run_small_parquet/output_Reflect/ReflectX.parquet"),
        std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(
            "tests/fixtures/harness/lighteval/details_mmiq_2025-11-05T10-00-00.000000.parquet",
        ))
        .unwrap(),
    ] {
        let mut bytes = good.clone();
        for i in (0..good.len()).filter(|i| full || i % 5 == 0) {
            for b in [0xFF, 0x00] {
                if b == 0x00 && i % 3 != 0 {
                    continue;
                }
                bytes[i] = b;
                check(&bytes);
            }
            bytes[i] = good[i];
            if i % 16 == 0 || full {
                check(&good[..i]);
            }
        }
    }
}
