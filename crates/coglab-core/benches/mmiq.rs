//! Scoring throughput on a 100,000-response MM-IQ predictions file (issue 3, target ≥ 300 MB/s).
//!
//! The JSONL is generated here: realistic free-form responses of about 700 bytes (a step-by-step
//! reasoning over the panel, a look at the options, and an ending that is one of MM-IQ's answer
//! phrases, a bare option mention, a `\boxed{}` answer or no answer at all), assembled from
//! varied sentences with a seeded generator, JSON-escaped (newlines become `\n`). The answer key
//! has one item per response.
//!
//! Run: `cargo bench -p coglab-core --bench mmiq` (criterion prints the throughput).

use coglab_core::mmiq::extract::extract;
use coglab_core::mmiq::{score_owned, AnswerKey, PredContent, Predictions, PredictionsReader};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;

#[path = "common/corpus.rs"]
mod corpus;
use corpus::{corpus, N};

fn bench(c: &mut Criterion) {
    let (key_text, preds) = corpus();
    let key = AnswerKey::parse("key.jsonl", &key_text).unwrap();
    let mb = preds.len() as f64 / 1e6;
    eprintln!(
        "mmiq bench corpus: {N} responses, {:.1} MB, {:.0} bytes per line",
        mb,
        preds.len() as f64 / N as f64
    );
    // One untimed run: a sanity check that the corpus scores as expected.
    let report = score_owned(&key, Predictions::parse("preds.jsonl", &preds).unwrap()).unwrap();
    eprintln!(
        "accuracy {:.4} over {} items, {} without an answer",
        report.overall.accuracy, report.overall.n, report.rows.no_answer
    );

    let mut g = c.benchmark_group("mmiq");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(20))
        .warm_up_time(Duration::from_secs(2))
        .throughput(Throughput::Bytes(preds.len() as u64));
    g.bench_function("parse_and_score_100k_jsonl", |b| {
        b.iter(|| {
            let p = Predictions::parse("preds.jsonl", black_box(&preds)).unwrap();
            black_box(score_owned(&key, p).unwrap())
        })
    });
    // The responses in full (a file this large is otherwise read lean, keeping only the
    // extracted letters): a reader told the size 0 keeps them.
    let mut reader = PredictionsReader::new("preds.jsonl", 0);
    reader.push(&preds).unwrap();
    let parsed = reader.finish().unwrap();
    let responses: Vec<&str> = parsed
        .records
        .iter()
        .filter_map(|r| match &r.content {
            PredContent::Response(s) => Some(s.as_str()),
            PredContent::Parsed(_) => None,
        })
        .collect();
    assert_eq!(
        responses.len(),
        N,
        "the extract bench needs every response in full"
    );
    let text_bytes: usize = responses.iter().map(|r| r.len()).sum();
    g.throughput(Throughput::Bytes(text_bytes as u64));
    g.bench_function("extract_only_100k_responses", |b| {
        b.iter(|| {
            responses
                .iter()
                .filter(|r| extract(black_box(r)).letter.is_some())
                .count()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
