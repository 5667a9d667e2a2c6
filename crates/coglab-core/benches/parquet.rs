//! Parquet input against JSONL (issue 39): the 100,000-response MM-IQ corpus of
//! `benches/mmiq.rs` read and scored from its JSONL and from the same rows as Parquet (zstd,
//! written by the `parquet` crate's Arrow writer with its defaults: one row group of 100,000
//! rows, dictionary pages on), in the same run.
//!
//! Run: `cargo bench -p coglab-core --features parquet --bench parquet`.

#[path = "common/corpus.rs"]
mod corpus;
#[path = "../tests/common/parquet.rs"]
mod parquet_fixtures;

use coglab_core::mmiq::{score_owned, AnswerKey, Predictions};
use corpus::{corpus, N};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;

fn bench(c: &mut Criterion) {
    let (key_text, preds) = corpus();
    let key = AnswerKey::parse("key.jsonl", &key_text).unwrap();
    let pq = parquet_fixtures::to_parquet(&preds, parquet_fixtures::zstd(), N, true);
    eprintln!(
        "parquet bench corpus: {N} responses, JSONL {:.1} MB, Parquet (zstd) {:.1} MB",
        preds.len() as f64 / 1e6,
        pq.len() as f64 / 1e6
    );
    // One untimed run of each: both score the same.
    let a = score_owned(&key, Predictions::parse("p.jsonl", &preds).unwrap()).unwrap();
    let b = score_owned(&key, Predictions::parse("p.parquet", &pq).unwrap()).unwrap();
    assert_eq!((a.overall, a.by_category), (b.overall, b.by_category));

    let mut g = c.benchmark_group("parquet");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(20))
        .warm_up_time(Duration::from_secs(2))
        .throughput(Throughput::Elements(N as u64));
    g.bench_function("parse_and_score_100k_jsonl", |b| {
        b.iter(|| {
            let p = Predictions::parse("p.jsonl", black_box(&preds)).unwrap();
            black_box(score_owned(&key, p).unwrap())
        })
    });
    g.bench_function("parse_and_score_100k_parquet_zstd", |b| {
        b.iter(|| {
            let p = Predictions::parse("p.parquet", black_box(&pq)).unwrap();
            black_box(score_owned(&key, p).unwrap())
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
