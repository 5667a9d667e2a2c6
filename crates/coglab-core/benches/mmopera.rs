//! MM-OPERA reading and scoring throughput (issue 10).
//!
//! Generated in-process with a seeded generator: RIA metadata for 10,000 items (JSON records
//! with the released fields and ability labels), a model's answers, a holistic judge file
//! (`score_judge` 0-4, with 1 % invalid scores) and a process-reward judge file (1-4 hops
//! per item, R/D/K triples); ICA is not separately generated (same readers).
//!
//! Run: `cargo bench -p coglab-core --bench mmopera`.

use coglab_core::mmopera::files::{Answers, ReasoningScores, RegularScores};
use coglab_core::mmopera::metadata::Metadata;
use coglab_core::mmopera::score::{score, ScoreInput, ScoreOptions};
use coglab_core::mmopera::Task;
use coglab_core::stats::rng::Rng;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::fmt::Write;
use std::hint::black_box;
use std::time::Duration;

const N: usize = 10_000;
const PERCEPTION: [&str; 4] = [
    "Visual Similarity",
    "Semantic Object",
    "Scene Contextualization",
    "Abstract Interpretation",
];
const CONCEPTION: [&str; 4] = [
    "Functional Links",
    "Causal Connections",
    "Cultural Reference",
    "Analogical Reasoning",
];
const DOMAINS: [&str; 4] = ["Nature", "Culture", "Science", "Daily Life"];

struct Files {
    metadata: String,
    answers: String,
    regular: String,
    reasoning: String,
}

fn files(rng: &mut Rng) -> Files {
    let (mut m, mut a, mut r, mut p) = (
        String::from("[\n"),
        String::from("{\n"),
        String::from("{\n"),
        String::from("{\n"),
    );
    for i in 0..N {
        let sep = if i + 1 == N { "\n" } else { ",\n" };
        let hops = 1 + rng.below(4);
        let _ = write!(
            m,
            "  {{\"id\": \"r{i}\", \"foldername\": \"ria_{i:05}\", \"domain\": \"{}\", \"type\": \"Relation\", \
             \"culture\": \"Global\", \"language\": \"English\", \"hop_count\": {hops}, \
             \"perception\": [\"{}\"], \"conception\": [\"{}\", \"{}\"], \"relation\": \"Protection\"}}{sep}",
            DOMAINS[rng.below(4)],
            PERCEPTION[rng.below(4)],
            CONCEPTION[rng.below(4)],
            CONCEPTION[rng.below(4)],
        );
        let _ = write!(
            a,
            "  \"r{i}\": \"Both share a protective function: the shell shields the animal as the fabric shields the wearer; answer {i}.\"{sep}"
        );
        let score = if rng.below(100) == 0 {
            "\"N/A\"".to_string()
        } else {
            format!("\"{}\"", rng.below(5))
        };
        let _ = write!(
            r,
            "  \"r{i}\": {{\"score_judge\": {score}, \"score_reason\": \"Relevant and mostly sound.\"}}{sep}"
        );
        let names: Vec<String> = (0..=hops).map(|h| format!("N{h}")).collect();
        let mut quality = String::new();
        for h in 0..hops {
            let _ = write!(
                quality,
                "{}\"{} → {}\": [{:.2}, {:.2}, {}]",
                if h == 0 { "" } else { ", " },
                names[h],
                names[h + 1],
                rng.next_f64(),
                rng.next_f64(),
                rng.below(2)
            );
        }
        let _ = write!(
            p,
            "  \"r{i}\": {{\"path\": \"{}\", \"hop_quality\": {{{quality}}}, \"explanation\": \"ok\"}}{sep}",
            names.join(" → ")
        );
    }
    m.push_str("]\n");
    a.push_str("}\n");
    r.push_str("}\n");
    p.push_str("}\n");
    Files {
        metadata: m,
        answers: a,
        regular: r,
        reasoning: p,
    }
}

fn bench(c: &mut Criterion) {
    let f = files(&mut Rng::new(10));
    let mut g = c.benchmark_group("mmopera");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    for (name, text) in [
        ("parse_metadata_10k", &f.metadata),
        ("parse_answers_10k", &f.answers),
        ("parse_regular_10k", &f.regular),
        ("parse_reasoning_10k", &f.reasoning),
    ] {
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_function(name, |b| {
            b.iter(|| match name {
                "parse_metadata_10k" => {
                    Metadata::parse("metadata.json", black_box(text.as_bytes())).map(|_| ())
                }
                "parse_answers_10k" => {
                    Answers::parse("m_RIA_results.json", black_box(text.as_bytes())).map(|_| ())
                }
                "parse_regular_10k" => {
                    RegularScores::parse("m_RIA_regular_scoring.json", black_box(text.as_bytes()))
                        .map(|_| ())
                }
                _ => ReasoningScores::parse(
                    "m_RIA_reasoning_scoring.json",
                    black_box(text.as_bytes()),
                )
                .map(|_| ()),
            })
        });
    }
    let meta = Metadata::parse("metadata.json", f.metadata.as_bytes()).expect("metadata");
    let answers = Answers::parse("m_RIA_results.json", f.answers.as_bytes()).expect("answers");
    let regular =
        RegularScores::parse("m_RIA_regular_scoring.json", f.regular.as_bytes()).expect("regular");
    let reasoning = ReasoningScores::parse("m_RIA_reasoning_scoring.json", f.reasoning.as_bytes())
        .expect("reasoning");
    let input = ScoreInput {
        task: Task::Ria,
        metadata: &meta,
        regular: vec![&regular],
        reasoning: vec![&reasoning],
        answers: Some(&answers),
    };
    let options = ScoreOptions::default();
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("score_10k_items_holistic_and_process", |b| {
        b.iter(|| score(black_box(&input), &options).expect("score"))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
