//! KiVA reading and scoring throughput (issue 10).
//!
//! Generated in-process with a seeded generator: one run CSV per subdomain of KiVA-adults
//! (29 files, 100 variations x 3 regenerations each, 8,700 rows, the repository's column
//! layout with `MCResponse#k` present) and an adults' file of 100 participants x 29
//! subdomains x 10 variations x 3 tasks (87,000 rows).
//!
//! Run: `cargo bench -p coglab-core --bench kiva`.

use coglab_core::kiva::{
    domain_of, rt_error_correlation, score_human, score_model, HumanData, RunFile, Variant,
};
use coglab_core::stats::rng::Rng;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;

const VARIATIONS: u64 = 100;
const PARTICIPANTS: u64 = 100;

fn run_csv(rng: &mut Rng) -> String {
    let mut s = String::from(
        "Variation,Regeneration,Train_input,Train_output,Test_input,Test_output,Test_wrong1,\
         Test_wrong2,Full#1,Full#2,Full#3,MCResponse#1,MCResponse#2,MCResponse#3\n",
    );
    for v in 0..VARIATIONS {
        for g in 0..3 {
            let c = |rng: &mut Rng| if rng.below(3) == 0 { "0" } else { "1" };
            let (a, b, d) = (c(rng), c(rng), c(rng));
            s.push_str(&format!(
                "{v},{g},0,Red,0,Red,Green,0,(3) Color of objects,(2) Objects turn Red,(C),{a},{b},{d}\n"
            ));
        }
    }
    s
}

fn runs(rng: &mut Rng) -> Vec<(String, String)> {
    Variant::KivaAdults
        .subdomains()
        .iter()
        .map(|sub| {
            let domain = domain_of(sub).unwrap_or("Colour");
            (
                format!("KiVA-adults/output_{domain}/{sub}.csv"),
                run_csv(rng),
            )
        })
        .collect()
}

fn human(rng: &mut Rng) -> String {
    let mut s = String::from("ParticipantID,Transformation,Variation,Task,Score,Reaction Time\n");
    for p in 0..PARTICIPANTS {
        for sub in Variant::KivaAdults.subdomains() {
            for v in 0..10 {
                for task in ["Cross Domain", "Within Domain", "Extrapolation"] {
                    let score = u64::from(rng.below(4) != 0);
                    let rt = 1000 + rng.below(20_000);
                    s.push_str(&format!("{p},{sub},{v},{task},{score},{rt}\n"));
                }
            }
        }
    }
    s
}

fn bench(c: &mut Criterion) {
    let mut rng = Rng::new(10);
    let files = runs(&mut rng);
    let human_csv = human(&mut rng);
    let run_bytes: usize = files.iter().map(|(_, t)| t.len()).sum();

    let mut g = c.benchmark_group("kiva");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    g.throughput(Throughput::Bytes(run_bytes as u64));
    g.bench_function("parse_29_run_files_8700_rows", |b| {
        b.iter(|| {
            files
                .iter()
                .map(|(p, t)| RunFile::parse(p, t.as_bytes()).expect("generated run"))
                .collect::<Vec<_>>()
        })
    });
    g.bench_function("parse_and_score_29_run_files", |b| {
        b.iter(|| {
            score_model(
                files
                    .iter()
                    .map(|(p, t)| (p.as_str(), black_box(t.as_bytes()))),
            )
            .expect("score")
        })
    });
    g.throughput(Throughput::Bytes(human_csv.len() as u64));
    g.bench_function("parse_human_87000_rows", |b| {
        b.iter(|| HumanData::parse("human.csv", black_box(human_csv.as_bytes())).expect("human"))
    });
    let h = HumanData::parse("human.csv", human_csv.as_bytes()).expect("human");
    g.bench_function("score_human_87000_rows", |b| {
        b.iter(|| score_human(black_box(&h)).expect("score human"))
    });
    let model = score_model(files.iter().map(|(p, t)| (p.as_str(), t.as_bytes()))).expect("score");
    let people = score_human(&h).expect("score human");
    g.bench_function("rt_error_correlation", |b| {
        b.iter(|| rt_error_correlation(black_box(&model), black_box(&people)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
