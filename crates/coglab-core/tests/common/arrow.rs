//! Arrow IPC fixtures written from JSONL rows by arrow-rs's own IPC writer (its LZ4 frame and
//! C zstd codecs), so the files the core reads are written by independent code.
#![allow(dead_code)]

use arrow_ipc::writer::{FileWriter, IpcWriteOptions, StreamWriter};
use arrow_ipc::CompressionType;
use arrow_json::reader::{infer_json_schema_from_seekable, ReaderBuilder};
use std::io::Cursor;
use std::sync::Arc;

/// The container and codec of a fixture.
#[derive(Debug, Clone, Copy)]
pub struct Ipc {
    /// A stream (else a file).
    pub stream: bool,
    /// The buffers' codec.
    pub compression: Option<CompressionType>,
}

/// The fixtures every equality test reads: a file with each codec and an LZ4 stream.
pub const ALL: [Ipc; 4] = [
    Ipc {
        stream: false,
        compression: None,
    },
    Ipc {
        stream: false,
        compression: Some(CompressionType::LZ4_FRAME),
    },
    Ipc {
        stream: false,
        compression: Some(CompressionType::ZSTD),
    },
    Ipc {
        stream: true,
        compression: Some(CompressionType::LZ4_FRAME),
    },
];

/// JSONL rows as an Arrow IPC file or stream (schema inferred from the rows),
/// `rows_per_batch` rows per record batch.
pub fn to_arrow(jsonl: &[u8], ipc: Ipc, rows_per_batch: usize) -> Vec<u8> {
    let (schema, _) = infer_json_schema_from_seekable(Cursor::new(jsonl), None).unwrap();
    let schema = Arc::new(schema);
    let reader = ReaderBuilder::new(schema.clone())
        .with_batch_size(rows_per_batch)
        .build(Cursor::new(jsonl))
        .unwrap();
    let options = IpcWriteOptions::default()
        .try_with_compression(ipc.compression)
        .unwrap();
    let mut out = Vec::new();
    if ipc.stream {
        let mut w = StreamWriter::try_new_with_options(&mut out, &schema, options).unwrap();
        for batch in reader {
            w.write(&batch.unwrap()).unwrap();
        }
        w.finish().unwrap();
    } else {
        let mut w = FileWriter::try_new_with_options(&mut out, &schema, options).unwrap();
        for batch in reader {
            w.write(&batch.unwrap()).unwrap();
        }
        w.finish().unwrap();
    }
    out
}
