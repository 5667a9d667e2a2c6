//! Leaderboard ranks throughput (issue 20): a full MM-IQ board of 50 models x 2,710 items,
//! every pair tested (1,225 exact McNemar tests, Holm), 2,000 paired bootstrap resamples
//! shared by all pairs, bootstrap rank intervals, the letter display and the MDD. The issue's
//! budget is 2 s in the web worker.
//!
//! Generated in-process with a seeded generator: model m answers each item right with
//! probability 0.3 + 0.4 · m / 49, and item difficulty shifts all models alike (so pairs are
//! correlated, as real models are).
//!
//! Run: `cargo bench -p coglab-core --bench ranks`.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Duration;

use coglab_core::ranks::{build_board, Bench, BoardInput, BoardOptions, ModelScores};
use coglab_core::stats::rng::Rng;
use criterion::{criterion_group, criterion_main, Criterion};

const MODELS: usize = 50;
const ITEMS: usize = 2710;

fn input() -> BoardInput {
    let mut rng = Rng::new(20);
    let ease: Vec<f64> = (0..ITEMS).map(|_| rng.next_f64() - 0.5).collect();
    let models = (0..MODELS)
        .map(|m| {
            let p = 0.3 + 0.4 * m as f64 / (MODELS - 1) as f64;
            let items: BTreeMap<String, Vec<f64>> = (0..ITEMS)
                .map(|i| {
                    let right = rng.next_f64() < (p + 0.4 * ease[i]).clamp(0.0, 1.0);
                    (i.to_string(), vec![f64::from(u8::from(right))])
                })
                .collect();
            ModelScores {
                name: format!("model-{m:02}"),
                source: String::new(),
                items,
            }
        })
        .collect();
    BoardInput {
        bench: Bench::Mmiq,
        benchmark_items: Some((0..ITEMS).map(|i| i.to_string()).collect()),
        models,
        reported: vec![],
    }
}

fn bench(c: &mut Criterion) {
    let input = input();
    let opts = BoardOptions {
        resamples: 2000,
        ..BoardOptions::default()
    };
    let mut g = c.benchmark_group("ranks");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    g.bench_function("board_50_models_2710_items_2000_resamples", |b| {
        b.iter(|| build_board(black_box(&input), black_box(&opts)).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
