//! The fuzz entry points, one function per target: bytes in, never a panic.
//!
//! Each `fuzz_targets/<name>.rs` calls [`run`] with its name. The functions only call the
//! public API of `coglab-core` and ignore its results: a target fails only when the library
//! panics (or overflows its stack, or loops: libFuzzer's `-timeout`).
//!
//! Entry points that take several files split the input at [`SEP`] (a line `#####`), so the
//! seed corpus (`scripts/fuzz.sh` builds it from the test fixtures) holds them as one blob.

use coglab_core::{kiva, mmiq, mmopera, sem};

/// The separator between the files of a multi-file input.
pub const SEP: &[u8] = b"\n#####\n";

/// Every target name, as in `fuzz_targets/`.
pub const TARGETS: &[&str] = &[
    "mmiq_key",
    "mmiq_preds",
    "mmiq_acc",
    "mmiq_extract",
    "mmiq_score",
    "kiva_run",
    "kiva_human",
    "kiva_score",
    "mmopera_detect",
    "mmopera_metadata",
    "mmopera_answers",
    "mmopera_regular",
    "mmopera_reasoning",
    "mmopera_score",
    "sem_matrix",
    "sem_spec",
    "sem_analyze",
    "xlsx",
    "float",
];

/// Splits `data` at [`SEP`] into at most `n` parts (missing parts are empty).
pub fn split(data: &[u8], n: usize) -> Vec<&[u8]> {
    let mut parts = Vec::with_capacity(n);
    let mut rest = data;
    while parts.len() + 1 < n {
        match rest.windows(SEP.len()).position(|w| w == SEP) {
            Some(i) => {
                parts.push(&rest[..i]);
                rest = &rest[i + SEP.len()..];
            }
            None => break,
        }
    }
    parts.push(rest);
    while parts.len() < n {
        parts.push(&[]);
    }
    parts
}

/// The first byte picks one of `names`; the rest is the content.
fn named<'a>(data: &'a [u8], names: &[&'static str]) -> (&'static str, &'a [u8]) {
    match data.split_first() {
        Some((b, rest)) => (names[*b as usize % names.len()], rest),
        None => (names[0], data),
    }
}

/// Runs the target `name` on `data`.
///
/// # Panics
/// On an unknown target name (and whenever the library panics, which is what is looked for).
pub fn run(name: &str, data: &[u8]) {
    match name {
        "mmiq_key" => {
            let _ = mmiq::AnswerKey::parse_bytes("key.jsonl", data);
        }
        "mmiq_preds" => {
            let (file, bytes) = named(
                data,
                &["p.jsonl", "p.csv", "p.tsv", "p.json", "p.xlsx", "p"],
            );
            let _ = mmiq::Predictions::parse(file, bytes);
            let _ = mmiq::detect(file, bytes);
        }
        "mmiq_acc" => {
            let _ = mmiq::AccSummary::parse("m_acc.csv", data);
        }
        "mmiq_extract" => {
            let text = String::from_utf8_lossy(data);
            let _ = mmiq::extract::extract(&text);
            let _ = mmiq::extract::extract_choice(&text);
        }
        "mmiq_score" => {
            let p = split(data, 3);
            let (Ok(key), Ok(a)) = (
                mmiq::AnswerKey::parse_bytes("key.jsonl", p[0]),
                mmiq::Predictions::parse("a.jsonl", p[1]),
            ) else {
                return;
            };
            let Ok(ra) = mmiq::score(&key, &a) else {
                return;
            };
            if let Ok(b) = mmiq::Predictions::parse("b.jsonl", p[2]) {
                if let Ok(rb) = mmiq::score(&key, &b) {
                    let _ = mmiq::compare(&ra, &rb, 50, 7);
                }
            }
        }
        "kiva_run" => {
            let (path, bytes) = named(
                data,
                &[
                    "output_Colour/ColourRed.csv",
                    "KiVA-adults/output_Reflect/ReflectX.csv",
                    "Counting+1.csv",
                    "output_X/Unknown.csv",
                ],
            );
            let _ = kiva::RunFile::parse(path, bytes);
        }
        "kiva_human" => {
            if let Ok(h) = kiva::HumanData::parse("human.csv", data) {
                let _ = kiva::score_human(&h);
            }
        }
        "kiva_score" => {
            let p = split(data, 3);
            let files = [
                ("output_Colour/ColourRed.csv", p[0]),
                ("output_Reflect/ReflectX.csv", p[1]),
            ];
            if let Ok(model) = kiva::score_model(files) {
                if let Ok(h) = kiva::HumanData::parse("human.csv", p[2]) {
                    if let Ok(human) = kiva::score_human(&h) {
                        let _ = kiva::rt_error_correlation(&model, &human);
                    }
                }
            }
        }
        "mmopera_detect" => {
            let (file, bytes) = named(
                data,
                &[
                    "m_RIA_results.json",
                    "m_ICA_regular_scoring.json",
                    "m_RIA_reasoning_scoring.json",
                    "metadata.csv",
                    "x.json",
                ],
            );
            let _ = mmopera::detect::detect(file, bytes);
        }
        "mmopera_metadata" => {
            let _ = mmopera::metadata::Metadata::parse("metadata.json", data);
        }
        "mmopera_answers" => {
            let _ = mmopera::files::Answers::parse("m_RIA_results.json", data);
        }
        "mmopera_regular" => {
            let _ = mmopera::files::RegularScores::parse("m_RIA_regular_scoring.json", data);
        }
        "mmopera_reasoning" => {
            let _ = mmopera::files::ReasoningScores::parse("m_RIA_reasoning_scoring.json", data);
        }
        "mmopera_score" => mmopera_score(data),
        "sem_matrix" => {
            let _ = sem::data::ScoreMatrix::parse(data, "scores.csv");
        }
        "sem_spec" => {
            let _ = sem::spec::ModelSpec::parse(&String::from_utf8_lossy(data), "spec.json");
        }
        "sem_analyze" => {
            let p = split(data, 2);
            let spec = String::from_utf8_lossy(p[0]);
            let opts = sem::SemOptions {
                prune: p[1].len() % 2 == 0,
                ..sem::SemOptions::default()
            };
            let _ = sem::analyze(&spec, "spec.json", p[1], "scores.csv", &opts);
        }
        "xlsx" => {
            // The .xlsx reader (ZIP, inflate, XML) and the MM-IQ table built on it.
            let _ = mmiq::xlsx::first_sheet_rows(data);
            let _ = mmiq::Predictions::parse("p.xlsx", data);
        }
        "float" => {
            // Differential: the core's float reader against the standard library's, which it
            // replaces in the web app. The same acceptance and the same bits (NaN as NaN).
            if let Ok(s) = std::str::from_utf8(data) {
                let ours = coglab_core::float::parse_f64(s);
                let std = s.parse::<f64>().ok();
                let same = match (ours, std) {
                    (Some(a), Some(b)) => a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                    (a, b) => a.is_none() && b.is_none(),
                };
                assert!(same, "{s:?}: ours {ours:?}, standard {std:?}");
            }
        }
        other => panic!("unknown fuzz target {other}"),
    }
}

fn mmopera_score(data: &[u8]) {
    use mmopera::files::{Answers, ReasoningScores, RegularScores};
    use mmopera::metadata::Metadata;
    use mmopera::score::{score, ScoreOptions};
    let p = split(data, 4);
    let Ok(meta) = Metadata::parse("metadata.json", p[0]) else {
        return;
    };
    let regular = RegularScores::parse("m_regular_scoring.json", p[1]).ok();
    let reasoning = ReasoningScores::parse("m_reasoning_scoring.json", p[2]).ok();
    let answers = Answers::parse("m_results.json", p[3]).ok();
    let task = match (&regular, &reasoning) {
        (Some(r), _) => r.task,
        (None, Some(r)) => r.task,
        (None, None) => return,
    };
    let input = mmopera::score::ScoreInput {
        task,
        metadata: &meta,
        regular: regular.iter().collect(),
        reasoning: reasoning.iter().collect(),
        answers: answers.as_ref(),
    };
    let mut options = ScoreOptions::default();
    if data.len() % 3 == 0 {
        options.gamma = 0.5;
    }
    let _ = score(&input, &options);
}
