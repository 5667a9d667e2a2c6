//! Parquet input (issue 39): files written here from the JSONL fixtures by the `parquet` crate's
//! own Arrow writer and codecs (Snappy, the C zstd), read by `coglab_core::columnar`, must score
//! exactly as the JSONL of the same rows; hostile files must get a located error quickly.

use crate::common;
use crate::common::parquet::{to_parquet, zstd};

use coglab_core::columnar::{ColumnarError, ParquetFile, Projection};
use coglab_core::harness::{self, map, HarnessFormat};
use coglab_core::mmiq::{score, AnswerKey, MmiqError, MmiqReport, Predictions};
use parquet::basic::Compression;
use parquet::file::metadata::{
    FileMetaData, ParquetMetaData, ParquetMetaDataReader, ParquetMetaDataWriter,
};
use std::path::PathBuf;
use std::time::Instant;

fn fixture(rel: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The figures two reports must share.
fn figures(r: &MmiqReport) -> String {
    format!(
        "{:?} {:?} {:?} {:?}",
        r.overall, r.by_category, r.rows, r.warnings
    )
}

/// The 100 real parsed predictions of MM-IQ's repository, as Parquet (Snappy and zstd, in row
/// groups of 30 rows), score as their JSONL does: 33 of 100, per category as counted in
/// `mmiq_real::example_output_parsed_scores_33_of_100` (Mathematical 11/37, Temporal Movement
/// 4/17, Logical Operation 8/16, 2D-Geometry 5/14, 3D-Geometry 4/10, Spatial Relationship 1/5,
/// Concrete Object 0/1). The key as Parquet (the dataset's columns, with an image column that
/// is never read) reads to the same 2,710 items.
#[test]
fn real_mmiq_parquet_scores_as_jsonl() {
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
    for compression in [Compression::SNAPPY, zstd()] {
        let pq = to_parquet(&pred_bytes, compression, 30, true);
        assert_eq!(&pq[..4], b"PAR1");
        let preds = Predictions::parse("example_output_parsed.parquet", &pq).unwrap();
        assert_eq!(preds.records.len(), 100);
        let report = score(&key, &preds).unwrap();
        assert_eq!(figures(&report), figures(&jsonl), "{compression:?}");
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
    }
    // The key as the dataset has it: question text and an image struct beside the key's
    // columns (the image bytes are not UTF-8 and are never read).
    let mut dataset = String::new();
    for line in String::from_utf8(key_bytes.clone()).unwrap().lines() {
        let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
        let o = v.as_object_mut().unwrap();
        o.insert(
            "question".into(),
            "Which option completes the figure?".into(),
        );
        o.insert(
            "image".into(),
            serde_json::json!({"bytes": "iVBORw0KGgo=", "path": "x.png"}),
        );
        dataset.push_str(&v.to_string());
        dataset.push('\n');
    }
    let pq_key = to_parquet(dataset.as_bytes(), zstd(), 1000, true);
    let key_pq = AnswerKey::parse_bytes("test-00000-of-00001.parquet", &pq_key).unwrap();
    assert_eq!(key_pq.items, key.items);
    let report = score(
        &key_pq,
        &Predictions::parse("p.parquet", &to_parquet(&pred_bytes, zstd(), 30, true)).unwrap(),
    )
    .unwrap();
    assert_eq!((report.overall.correct, report.overall.n), (33, 100));
}

/// Free-text responses (the extraction path) score as their JSONL does, with the same
/// warnings; the repository's small fixture, with dictionary pages and without.
#[test]
fn small_mmiq_responses_parquet_scores_as_jsonl() {
    let key = AnswerKey::parse_bytes("key_small.jsonl", &fixture("mmiq/key_small.jsonl")).unwrap();
    let preds = fixture("mmiq/preds_small.jsonl");
    let jsonl = score(
        &key,
        &Predictions::parse("preds_small.jsonl", &preds).unwrap(),
    )
    .unwrap();
    for (compression, dict) in [
        (Compression::SNAPPY, true),
        (zstd(), false),
        (Compression::UNCOMPRESSED, false),
    ] {
        let pq = to_parquet(&preds, compression, 4, dict);
        let p = Predictions::parse("preds_small.parquet", &pq).unwrap();
        let report = score(&key, &p).unwrap();
        assert_eq!(figures(&report), figures(&jsonl));
        let items = |r: &MmiqReport| -> Vec<(u64, String, bool)> {
            r.items
                .iter()
                .map(|i| (i.data_id, i.parsed.to_string(), i.correct))
                .collect()
        };
        assert_eq!(items(&report), items(&jsonl));
    }
}

/// EEE instance records (nested structs and lists) stored as Parquet read as their JSONL
/// does: same format, model, records, and the same scores against the key.
#[test]
fn eee_instances_parquet_score_as_jsonl() {
    let k = AnswerKey::parse_bytes("key.jsonl", &fixture("harness/key.jsonl")).unwrap();
    let name = "20240601_120000_samples_mmiq.jsonl";
    let f = harness::read(name, &fixture(&format!("harness/{name}"))).unwrap();
    let before = map::score_mmiq(&f, &k, true).unwrap();
    let out = harness::eee::write_mmiq(&before, "llava", "1717243200").unwrap();
    let jsonl = harness::read("llava.jsonl", out.instances.as_bytes()).unwrap();
    for compression in [Compression::SNAPPY, zstd()] {
        let pq = to_parquet(out.instances.as_bytes(), compression, 3, true);
        let inst = harness::read("llava_instances.parquet", &pq).unwrap();
        assert_eq!(inst.format, HarnessFormat::EeeInstances);
        assert_eq!(inst.model.as_deref(), Some("llava"));
        assert_eq!(inst.records.len(), jsonl.records.len());
        let after = map::score_mmiq(&inst, &k, true).unwrap();
        assert_eq!(after.overall, before.overall);
        assert_eq!(after.by_category, before.by_category);
        assert_eq!(
            after
                .items
                .iter()
                .map(|i| (i.data_id, i.correct))
                .collect::<Vec<_>>(),
            before
                .items
                .iter()
                .map(|i| (i.data_id, i.correct))
                .collect::<Vec<_>>()
        );
    }
}

/// A synthetic predictions file of `n` rows (for the hostile cases: big enough for a page of
/// a kilobyte and more).
fn synthetic(n: usize) -> Vec<u8> {
    let mut s = String::new();
    for i in 0..n {
        s.push_str(&format!(
            "{{\"data_id\": {i}, \"category\": \"Mathematical\", \"response\": \"Row {i}: counting the dots gives {}, so the answer is {}.\"}}\n",
            i * 7919 % 1000,
            ["A", "B", "C", "D"][i % 4]
        ));
    }
    s.into_bytes()
}

/// The footer of a file, and the offset where it starts.
fn footer(pq: &[u8]) -> (ParquetMetaData, usize) {
    let n = pq.len();
    let len = u32::from_le_bytes(pq[n - 8..n - 4].try_into().unwrap()) as usize;
    let meta = ParquetMetaDataReader::new()
        .parse_and_finish(&bytes::Bytes::copy_from_slice(pq))
        .unwrap();
    (meta, n - 8 - len)
}

/// The file's data with `meta` written as its footer.
fn with_footer(pq: &[u8], meta: &ParquetMetaData) -> Vec<u8> {
    let (_, start) = footer(pq);
    let mut out = pq[..start].to_vec();
    ParquetMetaDataWriter::new(&mut out, meta).finish().unwrap();
    out
}

/// The same metadata claiming `rows` rows in the file and in its one row group.
fn claiming_rows(meta: &ParquetMetaData, rows: i64) -> ParquetMetaData {
    let f = meta.file_metadata();
    let file = FileMetaData::new(
        f.version(),
        rows,
        f.created_by().map(str::to_string),
        f.key_value_metadata().cloned(),
        f.schema_descr_ptr(),
        f.column_orders().cloned(),
    );
    let groups = meta
        .row_groups()
        .iter()
        .map(|g| g.clone().into_builder().set_num_rows(rows).build().unwrap())
        .collect();
    ParquetMetaData::new(file, groups)
}

fn err(pq: &[u8]) -> String {
    let t = Instant::now();
    let e = Predictions::parse("h.parquet", pq).unwrap_err().to_string();
    assert!(t.elapsed().as_secs() < 20, "{e}: {:?}", t.elapsed());
    e
}

#[test]
fn hostile_truncated_footers_are_located() {
    let pq = to_parquet(&synthetic(200), zstd(), 100, true);
    let cut = &pq[..pq.len() - 5];
    let e = err(cut);
    assert!(
        e.starts_with("h.parquet: the file is cut short: the last 4 bytes are "),
        "{e}"
    );
    assert!(e.ends_with("(expected a footer ending in PAR1)"), "{e}");
    // The footer's length runs past the start of the file.
    let mut long = pq.clone();
    let n = long.len();
    long[n - 8..n - 4].copy_from_slice(&(n as u32).to_le_bytes());
    assert_eq!(
        err(&long),
        format!("h.parquet: the file is cut short: a {n}-byte footer in a {n}-byte file (expected the footer within the file)")
    );
    // Bytes cut out of the middle of the footer, its length and PAR1 kept.
    let (_, start) = footer(&pq);
    let mut holed = pq[..start + 10].to_vec();
    holed.extend_from_slice(&pq[start + 30..]);
    let len = (holed.len() - 8 - start) as u32;
    let m = holed.len();
    holed[m - 8..m - 4].copy_from_slice(&len.to_le_bytes());
    let e = err(&holed);
    assert!(
        e.starts_with("h.parquet: the footer cannot be read: "),
        "{e}"
    );
}

#[test]
fn hostile_row_counts_are_located() {
    let pq = to_parquet(&synthetic(200), zstd(), 200, true);
    let (meta, _) = footer(&pq);
    // 10^12 rows: refused from the footer, before any page is read.
    let e = err(&with_footer(&pq, &claiming_rows(&meta, 1_000_000_000_000)));
    assert_eq!(
        e,
        "h.parquet: the footer's row count declares 1000000000000, more than the 50000000 allowed (limits::MAX_PARQUET_ROWS)"
    );
    // A million rows (within the limit) over pages holding 200 values: the row group and the
    // first column read are named (the writer orders the columns by name).
    let e = err(&with_footer(&pq, &claiming_rows(&meta, 1_000_000)));
    assert_eq!(
        e,
        "h.parquet row group 1, column \"category\": pages declaring 200 values, expected one value or null per row for the row group's 1000000 rows"
    );
}

/// A data page header written by hand (Thrift compact protocol): a data page declaring
/// `uncompressed` and `compressed` bytes and `values` values.
fn page_header(uncompressed: u64, compressed: u64, values: u64) -> Vec<u8> {
    fn varint(mut v: u64, out: &mut Vec<u8>) {
        while v >= 0x80 {
            out.push((v as u8) | 0x80);
            v >>= 7;
        }
        out.push(v as u8);
    }
    let mut h = vec![0x15, 0x00, 0x15];
    varint(uncompressed << 1, &mut h);
    h.push(0x15);
    varint(compressed << 1, &mut h);
    h.extend([0x2C, 0x15]);
    varint(values << 1, &mut h);
    h.extend([0x15, 0x00, 0x15, 0x00, 0x15, 0x00, 0x00, 0x00]);
    h
}

/// The offset of a column chunk's first page (columns in the writer's order: category,
/// data_id, response).
fn chunk_start(pq: &[u8], column: usize) -> usize {
    let (meta, _) = footer(pq);
    let c = meta.row_group(0).column(column);
    c.dictionary_page_offset().unwrap_or(c.data_page_offset()) as usize
}

#[test]
fn hostile_pages_are_refused_before_they_are_inflated() {
    let pq = to_parquet(&synthetic(2000), zstd(), 2000, false);
    let at = chunk_start(&pq, 2);
    // A page declaring 10 GB (more than an i32 holds: the varint is read whole) and 2 GB.
    for declared in [10u64 << 30, (1u64 << 31) - 1] {
        let mut bad = pq.clone();
        let h = page_header(declared, 1000, 1);
        bad[at..at + h.len()].copy_from_slice(&h);
        assert_eq!(
            err(&bad),
            format!("h.parquet row group 1, column \"response\", page 1: the page's uncompressed size declares {declared}, more than the 67108864 allowed (limits::MAX_PARQUET_PAGE_BYTES)")
        );
    }
    // A page of about a kilobyte that inflates to 10 MB while declaring 1 KB: decompression
    // stops one byte past the declared size.
    let bomb = zstd_crate_compress(&vec![0u8; 10 << 20]);
    assert!(bomb.len() < 2048, "{}", bomb.len());
    // The page takes the whole chunk (the bytes after the frame are never read), and declares
    // the chunk's 2,000 values, so the checks made before decompressing pass.
    let (meta, _) = footer(&pq);
    let chunk_len = meta.row_group(0).column(2).compressed_size() as usize;
    let mut h = page_header(1024, 0, 2000);
    for _ in 0..3 {
        h = page_header(1024, (chunk_len - h.len()) as u64, 2000);
    }
    let mut bad = pq.clone();
    bad[at..at + h.len()].copy_from_slice(&h);
    bad[at + h.len()..at + h.len() + bomb.len()].copy_from_slice(&bomb);
    assert_eq!(
        err(&bad),
        "h.parquet row group 1, column \"response\", page 1: the page decompresses to more than the 1024 bytes its header declares"
    );
}

fn zstd_crate_compress(data: &[u8]) -> Vec<u8> {
    zstd::bulk::compress(data, 19).unwrap()
}

#[test]
fn mismatched_schemas_are_located() {
    // The key's columns given as predictions.
    let key = to_parquet(
        &fixture("mmiq/key_small.jsonl"),
        Compression::SNAPPY,
        10,
        true,
    );
    assert!(err(&key).contains("this looks like an answer key"));
    // Predictions without a data_id column.
    let no_id = to_parquet(
        b"{\"id\": 1, \"response\": \"B\"}\n",
        Compression::SNAPPY,
        10,
        true,
    );
    assert_eq!(
        err(&no_id),
        "h.parquet: missing column(s) data_id; the header has id, response"
    );
    // data_id as text that is not a number, in the second row group: located by row group
    // and row within it.
    let mut rows = String::new();
    for i in 0..5 {
        let id = if i == 3 {
            "\"x3\"".to_string()
        } else {
            format!("\"{i}\"")
        };
        rows.push_str(&format!("{{\"data_id\": {id}, \"response\": \"B\"}}\n"));
    }
    let text_ids = to_parquet(rows.as_bytes(), zstd(), 2, true);
    assert_eq!(
        err(&text_ids),
        "h.parquet row group 2, row 2: field \"data_id\": expected a non-negative integer, found \"x3\""
    );
    // A footer from a file of another schema (data_id as text) over this file's pages.
    let ints = to_parquet(&synthetic(100), Compression::SNAPPY, 100, false);
    let mut texts = String::new();
    for i in 0..100 {
        texts.push_str(&format!(
            "{{\"data_id\": \"{i}\", \"category\": \"Mathematical\", \"response\": \"B\"}}\n"
        ));
    }
    let other = to_parquet(texts.as_bytes(), Compression::SNAPPY, 100, false);
    let (other_meta, _) = footer(&other);
    let spliced = with_footer(&ints, &other_meta);
    let e = err(&spliced);
    assert!(e.starts_with("h.parquet row group 1"), "{e}");
    assert!(e.contains("column \""), "{e}");
}

/// The reader's own API: row groups, locating rows, projection, CSV.
#[test]
fn parquet_file_api() {
    let pq = to_parquet(
        &fixture("mmiq/preds_small.jsonl"),
        Compression::SNAPPY,
        4,
        true,
    );
    let f = ParquetFile::from_bytes("p.parquet", pq).unwrap();
    assert_eq!((f.num_rows(), f.num_row_groups()), (6, 2));
    assert_eq!(f.columns(), ["category", "data_id", "response"]);
    assert_eq!(f.locate(5), Some((2, 1)));
    assert_eq!(f.locate(7), None);
    let mut csv = Vec::new();
    f.write_csv(Projection::Only(&["response", "data_id"]), |b| {
        csv.extend_from_slice(b);
        Ok::<(), ColumnarError>(())
    })
    .unwrap();
    let csv = String::from_utf8(csv).unwrap();
    assert!(csv.starts_with("data_id,response\r\n0,\"Looking at the grid, the count rises by two.\nThe correct answer is option B.\"\r\n"), "{csv}");
    let mut progress = Vec::new();
    let mut lines = 0;
    f.write_jsonl(
        Projection::All,
        |b| {
            lines += b.iter().filter(|&&c| c == b'\n').count();
            Ok::<(), ColumnarError>(())
        },
        |done| progress.push(done),
    )
    .unwrap();
    assert_eq!((lines, progress), (6, vec![4, 6]));
    // An MM-IQ error type carries a columnar one.
    let e: MmiqError =
        ColumnarError::unsupported("t.arrow", coglab_core::columnar::ColumnarKind::ArrowFile)
            .into();
    assert!(e
        .to_string()
        .contains("an Arrow IPC file is not read; this build has no"));
}

/// A dropped Parquet file, as the worker detects it (the whole file: its footer is at the
/// end): its kind from its first rows; a file cut short is Unknown with the located reason.
#[test]
fn leaderboard_detects_a_dropped_parquet_file() {
    use coglab_core::leaderboard::{detect, unreadable, FileKind};
    let preds = to_parquet(&fixture("mmiq/preds_small.jsonl"), zstd(), 4, true);
    assert_eq!(detect("run.parquet", &preds), FileKind::MmiqPredictions);
    assert_eq!(unreadable("run.parquet", &preds), None);
    let key = to_parquet(
        &fixture("mmiq/key_small.jsonl"),
        Compression::SNAPPY,
        4,
        true,
    );
    assert_eq!(detect("test.parquet", &key), FileKind::MmiqKey);
    // The first 100 bytes alone (the worker's first look) tell nothing yet.
    assert_eq!(detect("run.parquet", &preds[..100]), FileKind::Unknown);
    let cut = &preds[..preds.len() - 5];
    assert_eq!(detect("cut.parquet", cut), FileKind::Unknown);
    let why = unreadable("cut.parquet", cut).unwrap();
    assert!(
        why.starts_with("cut.parquet: the file is cut short"),
        "{why}"
    );
}

/// Loads `ranges` of `bytes` into `r`, returning their starts.
fn load(r: &coglab_core::columnar::Ranges, bytes: &[u8], ranges: &[(u64, u64)]) -> Vec<u64> {
    for &(s, l) in ranges {
        r.load(s, bytes[s as usize..(s + l) as usize].to_vec().into());
    }
    ranges.iter().map(|&(s, _)| s).collect()
}

/// The browser worker's way (issue 39): only the footer loaded to open the file and tell its
/// format from its column names, then one row group's MM-IQ columns at a time, fed to one
/// predictions reader: the same scores as the JSONL, and an error in a later row group names
/// that row group and its row. Bytes not loaded are a read error, not a wait.
#[test]
fn a_parquet_file_read_a_row_group_at_a_time_scores_as_jsonl() {
    use coglab_core::columnar::Ranges;
    use coglab_core::leaderboard::{detect_parquet, FileKind};
    use coglab_core::mmiq::{parquet_group_rows, PredictionsReader};
    let key = AnswerKey::parse_bytes("key_small.jsonl", &fixture("mmiq/key_small.jsonl")).unwrap();
    let preds = fixture("mmiq/preds_small.jsonl");
    let jsonl = score(
        &key,
        &Predictions::parse("preds_small.jsonl", &preds).unwrap(),
    )
    .unwrap();
    let read = |pq: &[u8]| -> Result<Predictions, MmiqError> {
        let len = pq.len() as u64;
        let ranges = Ranges::new(len);
        let tail = Ranges::tail_bytes(len, &pq[pq.len() - 8..]);
        load(&ranges, pq, &[(len - tail, tail)]);
        let file = ParquetFile::open("preds_small.parquet", ranges).unwrap();
        assert_eq!(
            detect_parquet("preds_small.parquet", &file).kind,
            FileKind::MmiqPredictions
        );
        let mut reader = PredictionsReader::new("preds_small.parquet", pq.len());
        for g in 0..file.num_row_groups() {
            let wanted = file
                .group_ranges(g, Projection::Only(&coglab_core::mmiq::PARQUET_COLUMNS))
                .unwrap();
            let starts = load(file.reader(), pq, &wanted);
            parquet_group_rows(&file, g, |b| reader.push(b))?;
            file.reader().release(&starts);
        }
        // The reader's own last error (at its end) is relocated as the CLI does.
        reader.finish().map_err(|mut e| {
            if let Some(loc) = e.location_mut() {
                file.relocate(loc, 0);
            }
            e
        })
    };
    let pq = to_parquet(&preds, zstd(), 4, true);
    let report = score(&key, &read(&pq).unwrap()).unwrap();
    assert_eq!(figures(&report), figures(&jsonl));
    // A row without its data_id in the second row group (rows 5-8): named by row group and row.
    let mut lines: Vec<String> = String::from_utf8(preds.clone())
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let mut v: serde_json::Value = serde_json::from_str(&lines[5]).unwrap();
    v.as_object_mut().unwrap().remove("data_id");
    lines[5] = v.to_string();
    let bad = to_parquet((lines.join("\n") + "\n").as_bytes(), zstd(), 4, true);
    let e = read(&bad).unwrap_err().to_string();
    assert!(
        e.starts_with("preds_small.parquet row group 2, row 2"),
        "{e}"
    );
    // A row group read without loading it: the file's bytes are named, nothing waits.
    let len = pq.len() as u64;
    let ranges = Ranges::new(len);
    let tail = Ranges::tail_bytes(len, &pq[pq.len() - 8..]);
    load(&ranges, &pq, &[(len - tail, tail)]);
    let file = ParquetFile::open("preds_small.parquet", ranges).unwrap();
    let e = parquet_group_rows(&file, 0, |_| Ok(()))
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("preds_small.parquet row group 1, column ") && e.contains("not loaded"),
        "{e}"
    );
}
