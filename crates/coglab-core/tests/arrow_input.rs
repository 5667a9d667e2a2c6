//! Arrow IPC input (issue 39): files and streams written by pyarrow
//! (`tests/fixtures/arrow/make.py`) and by arrow-rs's own IPC writer (with its LZ4 and C zstd
//! codecs), read by `coglab_core::columnar::ArrowIpc`, must give the JSON lines the Parquet
//! file of the same table gives and score exactly as the JSONL of the same rows; hostile
//! files must get a located error quickly.

use coglab_core::columnar::{Columnar, Projection};
use std::path::PathBuf;

fn fixture(rel: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn jsonl(c: &Columnar<'_>) -> String {
    let mut out = Vec::new();
    c.write_jsonl(
        Projection::All,
        |b| {
            out.extend_from_slice(b);
            Ok::<(), coglab_core::columnar::ColumnarError>(())
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
    let expected = jsonl(&Columnar::open("types.parquet", &pq).unwrap());
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
        let got = jsonl(&c);
        for (k, (g, e)) in got.lines().zip(expected.lines()).enumerate() {
            assert_eq!(g, e, "{name} row {}", k + 1);
        }
        assert_eq!(got, expected, "{name}");
    }
}
