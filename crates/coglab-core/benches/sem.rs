//! PLS-SEM performance targets (issue 5), single-threaded:
//! one fit on mobi (250 x 24, the seminr model) <= 2 ms; 5,000 bootstrap resamples <= 1 s;
//! Algorithm 1 pruning on the 284 x 8 OpenVLM matrix <= 20 ms.
//! Needs ../shared/data; prints a notice and does nothing when it is absent.

use coglab_core::sem::bootstrap::BootstrapOptions;
use coglab_core::sem::data::ScoreMatrix;
use coglab_core::sem::spec::ModelSpec;
use coglab_core::sem::{analyze_parsed, SemOptions};
use criterion::{black_box, Criterion};
use std::path::PathBuf;
use std::time::Duration;

const MOBI_SPEC: &str = r#"{"constructs": {"Image": ["IMAG1", "IMAG2", "IMAG3", "IMAG4", "IMAG5"],
  "Expectation": ["CUEX1", "CUEX2", "CUEX3"], "Value": ["PERV1", "PERV2"],
  "Satisfaction": ["CUSA1", "CUSA2", "CUSA3"]},
  "paths": [["Image", "Satisfaction"], ["Expectation", "Satisfaction"], ["Value", "Satisfaction"]]}"#;

const VLM_SPEC: &str = r#"{"constructs": {"Perception": ["MMBench_V11", "MMStar", "AI2D", "OCRBench", "HallusionBench"],
  "Reasoning": ["MMMU_VAL", "MathVista", "MMVet"]},
  "second_order": {"Overall": ["Perception", "Reasoning"]},
  "human_column": "score"}"#;

fn shared(rel: &str) -> Option<Vec<u8>> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data")
        .join(rel);
    std::fs::read(&p).ok()
}

fn main() {
    let (Some(mobi), Some(vlm)) = (shared("sem/mobi.csv"), shared("openvlm/models.json")) else {
        eprintln!("SKIP: ../shared/data not found; sem benchmarks need sem/mobi.csv and openvlm/models.json");
        return;
    };
    let mobi = ScoreMatrix::parse(&mobi, "mobi.csv").expect("mobi parses");
    let mobi_spec = ModelSpec::parse(MOBI_SPEC, "mobi.json").expect("spec parses");
    let vlm = ScoreMatrix::parse(&vlm, "models.json").expect("models.json parses");
    let vlm_spec = ModelSpec::parse(VLM_SPEC, "vlm.json").expect("spec parses");
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    c.bench_function("sem fit mobi (full report)", |b| {
        b.iter(|| {
            analyze_parsed(
                black_box(&mobi_spec),
                black_box(&mobi),
                &SemOptions::default(),
            )
            .expect("fit")
        })
    });
    let boot = SemOptions {
        bootstrap: Some(BootstrapOptions {
            resamples: 5000,
            seed: 1,
        }),
        ..SemOptions::default()
    };
    let mut g = c.benchmark_group("sem bootstrap");
    g.sample_size(10);
    g.bench_function("mobi 5000 resamples", |b| {
        b.iter(|| {
            analyze_parsed(black_box(&mobi_spec), black_box(&mobi), &boot).expect("bootstrap")
        })
    });
    g.finish();
    let prune = SemOptions {
        prune: true,
        ..SemOptions::default()
    };
    c.bench_function("sem prune openvlm 284x8 (two-stage, human anchor)", |b| {
        b.iter(|| analyze_parsed(black_box(&vlm_spec), black_box(&vlm), &prune).expect("prune"))
    });
    c.final_summary();
}
