//! Parquet fixtures written from JSONL rows by the `parquet` crate's Arrow writer (its own
//! Snappy and C zstd codecs), shared by the core's and the CLI's tests.
#![allow(dead_code)]

use arrow_json::reader::{infer_json_schema_from_seekable, ReaderBuilder};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::WriterProperties;
use std::io::Cursor;
use std::sync::Arc;

/// zstd at level 3 (pyarrow's default level).
pub fn zstd() -> Compression {
    Compression::ZSTD(ZstdLevel::try_new(3).unwrap())
}

/// JSONL rows as a Parquet file (schema inferred from the rows, as `pyarrow.json` would; the
/// writer orders the columns by name), `rows_per_group` rows per row group, with dictionary
/// pages or without.
pub fn to_parquet(
    jsonl: &[u8],
    compression: Compression,
    rows_per_group: usize,
    dict: bool,
) -> Vec<u8> {
    let (schema, _) = infer_json_schema_from_seekable(Cursor::new(jsonl), None).unwrap();
    let schema = Arc::new(schema);
    let reader = ReaderBuilder::new(schema.clone())
        .with_batch_size(rows_per_group)
        .build(Cursor::new(jsonl))
        .unwrap();
    let props = WriterProperties::builder()
        .set_compression(compression)
        .set_max_row_group_row_count(Some(rows_per_group))
        .set_dictionary_enabled(dict)
        .build();
    let mut out = Vec::new();
    let mut w = ArrowWriter::try_new(&mut out, schema, Some(props)).unwrap();
    for batch in reader {
        w.write(&batch.unwrap()).unwrap();
    }
    w.close().unwrap();
    out
}
