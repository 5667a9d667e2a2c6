//! The fuzz entry points, one function per target: bytes in, never a panic.
//!
//! Each `fuzz_targets/<name>.rs` calls [`run`] with its name. The functions only call the
//! public API of `coglab-core` and ignore its results: a target fails only when the library
//! panics (or overflows its stack, or loops: libFuzzer's `-timeout`).
//!
//! Entry points that take several files split the input at [`SEP`] (a line `#####`), so the
//! seed corpus (`scripts/fuzz.sh` builds it from the test fixtures) holds them as one blob.

use coglab_core::{kiva, leaderboard, mmiq, mmopera, review, selftest, sem};

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
    "mmiq_jsonl_vs_serde",
    "mmiq_sliced",
    "leaderboard_drop",
    "gold_matrix",
    "review_build",
    "review_import",
    "selftest_folder",
    "harness_lmms",
    "harness_vlmevalkit",
    "harness_inspect_json",
    "harness_inspect_eval",
    "harness_eee",
    "harness_jspsych",
    "harness_kiva_challenge",
    "publish_paths",
    "parquet",
];

/// The 4-item MM-IQ key the harness targets map records onto (ids 0-3, with MD5s).
const HARNESS_KEY: &str = concat!(
    r#"{"category": "Mathematical", "MD5": "5d41402abc4b2a76b9719d911017c592", "data_id": 0, "answer": "B"}"#,
    "\n",
    r#"{"category": "Mathematical", "MD5": "7d793037a0760186574b0282f2f435e7", "data_id": 1, "answer": "C"}"#,
    "\n",
    r#"{"category": "2D-Geometry", "MD5": "acbd18db4cc2f85cedef654fccc4a4d8", "data_id": 2, "answer": "A"}"#,
    "\n",
    r#"{"category": "2D-Geometry", "MD5": "37b51d194a7513e45b56f6524f2d51f2", "data_id": 3, "answer": "D"}"#,
    "\n",
);

/// A harness file read, then mapped onto [`HARNESS_KEY`] (or scored as a KiVA run).
fn harness_mapped(
    file: Result<coglab_core::harness::HarnessFile, coglab_core::harness::HarnessError>,
) {
    use coglab_core::harness::{map, HarnessFormat};
    let Ok(file) = file else { return };
    match file.format {
        HarnessFormat::JsPsychCsv | HarnessFormat::JsPsychJson => {
            let _ = map::score_kiva_human(&file);
        }
        _ => {
            if let Ok(key) = mmiq::AnswerKey::parse("key.jsonl", HARNESS_KEY) {
                let _ = map::score_mmiq(&file, &key, true)
                    .map(|r| coglab_core::harness::eee::write_mmiq(&r, "m", "0"));
            }
        }
    }
}

/// File names a dropped file may have: one per format the leaderboard and the Review page
/// detect (the name steers detection as a user's file name does).
const DROP_NAMES: &[&str] = &[
    "MMIQ_benchmark_answer_dict.jsonl",
    "model_output.jsonl",
    "m_MMIQ_acc.csv",
    "m_MMIQ.xlsx",
    "m_MMIQ.tsv",
    "m_MMIQ.csv",
    "gpt4/output_Colour/ColourRed.csv",
    "gpt4/output_Reflect/ReflectX.csv",
    "human_adults_KiVA.csv",
    "metadata.json",
    "metadata.csv",
    "m_RIA_results.json",
    "m_RIA_regular_scoring.json",
    "m_ICA_reasoning_scoring.json",
    "scores.csv",
    "scores.tsv",
    "openvlm.json",
    "notes.txt",
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
            // The .xlsx reader (its memory bounds, then calamine) and the MM-IQ table built on it.
            let _ = mmiq::xlsx::first_sheet_rows(data);
            let _ = mmiq::Predictions::parse("p.xlsx", data);
        }
        "mmiq_jsonl_vs_serde" => {
            // Differential: each line through the MM-IQ JSONL scanner and through serde_json.
            if let Ok(text) = std::str::from_utf8(data) {
                text.split('\n').for_each(jsonl_vs_serde);
            }
        }
        "mmiq_sliced" => mmiq_sliced(data),
        "harness_lmms" => {
            // lmms-eval samples (JSONL, three answer shapes) or results.json, by the first byte.
            use coglab_core::harness::lmms;
            let (path, bytes) = named(data, &["x_samples_mmiq.jsonl", "x_results.json"]);
            if path.ends_with(".jsonl") {
                harness_mapped(lmms::read_samples(path, bytes));
            } else {
                let _ = lmms::read_results(path, bytes);
            }
            let _ = coglab_core::harness::detect(path, bytes);
        }
        "harness_vlmevalkit" => {
            use coglab_core::harness::vlmevalkit;
            let (path, bytes) = named(data, &["m_MMIQ_j_result.tsv", "m_MMIQ.csv", "m_MMIQ.json"]);
            let kind = match path.rsplit('.').next() {
                Some("tsv") => mmiq::TableKind::Tsv,
                Some("csv") => mmiq::TableKind::Csv,
                _ => mmiq::TableKind::Json,
            };
            harness_mapped(vlmevalkit::read(path, kind, bytes));
        }
        "harness_inspect_json" => {
            harness_mapped(coglab_core::harness::inspect::read_json("log.json", data));
        }
        "harness_inspect_eval" => {
            // An .eval zip (deflate, stored or zstd members), read member by member.
            let cursor = std::io::Cursor::new(data);
            harness_mapped(coglab_core::harness::inspect::read_eval(
                "log.eval",
                cursor,
                |_, _| {},
            ));
        }
        "harness_eee" => {
            use coglab_core::harness::eee;
            let (path, bytes) = named(data, &["eee.jsonl", "eee_aggregate.json"]);
            if path.ends_with(".jsonl") {
                harness_mapped(eee::read_instances(path, bytes));
                // KiVA's records read back into a report, and that report written again.
                let _ = eee::is_kiva(bytes);
                if let Ok(report) = eee::read_kiva(path, bytes) {
                    let _ = eee::write_kiva(&report, "m", "0");
                }
            } else {
                let _ = eee::read_aggregate(path, bytes);
            }
        }
        "harness_jspsych" => {
            let (path, bytes) = named(data, &["run.csv", "run.json"]);
            harness_mapped(coglab_core::harness::jspsych::read(path, bytes));
        }
        "harness_kiva_challenge" => {
            let parts = split(data, 2);
            let _ = coglab_core::harness::kiva_challenge::score(
                ("ann.json", parts[0]),
                ("res.json", parts[1]),
            );
        }
        "leaderboard_drop" => {
            // Up to four dropped files, each named by its first byte: detection, every
            // parser and scorer the leaderboard reaches, as the page's drop runs them.
            let parts = split(data, 4);
            let files: Vec<(&str, &[u8])> = parts.iter().map(|p| named(p, DROP_NAMES)).collect();
            let inputs: Vec<leaderboard::InputRef<'_>> = files
                .iter()
                .map(|(path, bytes)| leaderboard::InputRef {
                    path,
                    bytes,
                    model: None,
                })
                .collect();
            let _ = leaderboard::score_files(&inputs, |_, _, _| {});
        }
        "gold_matrix" => {
            // A dropped score matrix (models x tasks) fitted with Gold's Table 2 layers.
            let (path, bytes) = named(data, &["scores.csv", "scores.tsv", "scores.json"]);
            let _ = leaderboard::gold::is_score_matrix(path, bytes);
            let _ = leaderboard::gold::score_matrix(path, bytes);
        }
        "review_build" => {
            // The Review page's files, up to three, each named by its first byte.
            let files: Vec<(String, Vec<u8>)> = split(data, 3)
                .into_iter()
                .map(|p| {
                    let (name, bytes) = named(p, DROP_NAMES);
                    (name.to_string(), bytes.to_vec())
                })
                .collect();
            let _ = review::build_sets(&files);
        }
        "review_import" => {
            let (file, bytes) = named(data, &["review.json", "review.csv"]);
            let _ = review::records::import(file, bytes);
        }
        "selftest_folder" => {
            // A picked folder: the first part lists the paths (one a line), the others are the
            // trackers' texts, named output_<Subdomain>.txt from their first byte.
            let parts = split(data, 3);
            let paths: Vec<String> = String::from_utf8_lossy(parts[0])
                .lines()
                .map(str::to_string)
                .collect();
            let texts: Vec<(String, String)> = parts[1..]
                .iter()
                .map(|p| {
                    let (name, bytes) = named(
                        p,
                        &[
                            "KiVA/output_ColourRed.txt",
                            "KiVA/output_Counting+1.txt",
                            "output_ReflectX.txt",
                            "output_Resize2XY.txt",
                        ],
                    );
                    (
                        name.to_string(),
                        String::from_utf8_lossy(bytes).into_owned(),
                    )
                })
                .collect();
            let _ = selftest::stimuli::session_from_folder(&paths, &texts, data.len() as u64);
        }
        "publish_paths" => publish_paths(data),
        "parquet" => parquet(data),
        other => panic!("unknown fuzz target {other}"),
    }
}

/// Issue 39: the bytes as a Parquet file, opened and written out whole as JSON lines and as
/// CSV (`columnar::ParquetFile`), then read by the readers that take Parquet (a KiVA run, a
/// lighteval details file, KiVA's EEE records); an error is fine, a panic is not.
fn parquet(data: &[u8]) {
    use coglab_core::columnar::{ColumnarError, ParquetFile, Projection};
    if let Ok(f) = ParquetFile::from_slice("f.parquet", data) {
        let _ = f.head_jsonl(4096);
        let _ = f.write_jsonl(Projection::All, |_| Ok::<(), ColumnarError>(()), |_| {});
        let _ = f.write_csv(Projection::Only(&["data_id", "Variation"]), |_| {
            Ok::<(), ColumnarError>(())
        });
    }
    let _ = kiva::RunFile::parse("m/output_Colour/ColourRed.parquet", data);
    let _ = coglab_core::harness::lighteval::read_details("details_mmiq_x.parquet", data);
    let _ = coglab_core::harness::eee::read_kiva("m.parquet", data);
}

/// Issue 37: the bytes as a leaderboard manifest and as a bundle index. Every path the
/// manifest accepts, and every path `check_inputs` asks to read, stays inside the folder it is
/// joined onto ([`stays_inside`], an independent lexical walk).
fn publish_paths(data: &[u8]) {
    use coglab_core::publish;
    let text = String::from_utf8_lossy(data);
    if let Ok(m) = publish::Manifest::parse("leaderboard.toml", &text) {
        let keys = m.keys.mmiq.iter().chain(&m.keys.mmopera_metadata);
        let runs = m.models.iter().flat_map(|m| m.runs.iter().flat_map(|r| &r.files));
        for p in keys.chain(runs) {
            assert!(stays_inside(&p.path), "manifest accepted {:?}", p.path);
        }
    }
    if let Ok(index) = serde_json::from_slice::<publish::Index>(data) {
        let _ = publish::check_inputs(&index, |p| {
            assert!(stays_inside(p), "check_inputs read {p:?}");
            Ok(Vec::new())
        });
    }
}

/// Whether `path`, joined onto a folder and resolved lexically (`/` and `\` both separators),
/// stays inside it: not absolute, no drive letter, no NUL, never more `..` than names so far.
fn stays_inside(path: &str) -> bool {
    let b = path.as_bytes();
    if path.contains('\0')
        || path.starts_with(['/', '\\'])
        || (b.len() >= 2 && b[1] == b':')
    {
        return false;
    }
    let mut depth = 0usize;
    for c in path.split(['/', '\\']) {
        match c {
            "" | "." => {}
            ".." => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return false,
            },
            _ => depth += 1,
        }
    }
    true
}

/// The MM-IQ JSONL readers fed in slices, as the web worker and the CLI feed a large file:
/// the first byte sets the slice length (1-256 bytes). Differential: the key and predictions
/// read in slices must equal (or fail as) the same bytes read whole.
fn mmiq_sliced(data: &[u8]) {
    let Some((n, bytes)) = data.split_first() else {
        return;
    };
    let n = usize::from(*n) + 1;
    let whole_key = format!("{:?}", mmiq::AnswerKey::parse_bytes("key.jsonl", bytes));
    let mut k = mmiq::KeyReader::new("key.jsonl");
    let sliced_key = format!(
        "{:?}",
        bytes
            .chunks(n)
            .try_for_each(|s| k.push(s))
            .and_then(|()| k.finish())
    );
    assert_eq!(sliced_key, whole_key, "key in slices of {n}");
    let mut whole = mmiq::PredictionsReader::new("p.jsonl", bytes.len());
    let whole = format!("{:?}", whole.push(bytes).and_then(|()| whole.finish()));
    let mut p = mmiq::PredictionsReader::new("p.jsonl", bytes.len());
    let sliced = format!(
        "{:?}",
        bytes
            .chunks(n)
            .try_for_each(|s| p.push(s))
            .and_then(|()| p.finish())
    );
    assert_eq!(sliced, whole, "predictions in slices of {n}");
    let mut lean = mmiq::PredictionsReader::new("p.jsonl", bytes.len()).letters_only();
    let _ = bytes
        .chunks(n)
        .try_for_each(|s| lean.push(s))
        .and_then(|()| lean.finish());
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

/// The MM-IQ JSONL scanner against serde_json on one line. Where the scanner reads the line,
/// serde_json must accept it and give the same six fields. Where serde_json accepts a line the
/// scanner is meant to read (an object of strings without escapes, integers, booleans and
/// nulls, each wanted key at most once), the scanner must read it too.
fn jsonl_vs_serde(line: &str) {
    let (scanned, serde) = mmiq::scanner_and_serde(line);
    match (&scanned, &serde) {
        (Some(ours), Ok(theirs)) => assert_eq!(ours, theirs, "different values for {line:?}"),
        (Some(ours), Err(e)) => {
            panic!("the scanner read {line:?} as {ours:?}, serde_json refused it: {e}")
        }
        (None, Ok(theirs)) => assert!(
            !simple_object(line),
            "the scanner declined {line:?}, which serde_json reads as {theirs:?}"
        ),
        (None, Err(_)) => {}
    }
}

/// The wanted keys of a line (as in `mmiq::jsonl`).
const WANTED: [&str; 6] = [
    "data_id",
    "category",
    "answer",
    "MD5",
    "response",
    "parsed_pred",
];

/// Whether `line` is a JSON object that the scanner promises to read: no backslash at all (so no
/// escaped key or string), every value a string, an integer that fits 64 bits (not `-0`), a
/// boolean or null, and no wanted key twice.
fn simple_object(line: &str) -> bool {
    use serde::de::{Deserializer, MapAccess, Visitor};
    struct Pairs(Vec<(String, serde_json::Value)>);
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = Pairs;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Pairs, A::Error> {
            let mut v = Vec::new();
            while let Some(kv) = map.next_entry()? {
                v.push(kv);
            }
            Ok(Pairs(v))
        }
    }
    if line.contains('\\') || line.contains("-0") {
        return false;
    }
    let mut de = serde_json::Deserializer::from_str(line);
    let Ok(Pairs(pairs)) = de.deserialize_map(V) else {
        return false;
    };
    if de.end().is_err() {
        return false;
    }
    let scalar = |v: &serde_json::Value| match v {
        serde_json::Value::Number(n) => n.is_i64() || n.is_u64(),
        serde_json::Value::Array(_) | serde_json::Value::Object(_) => false,
        _ => true,
    };
    pairs.iter().all(|(_, v)| scalar(v))
        && WANTED
            .iter()
            .all(|w| pairs.iter().filter(|(k, _)| k == w).count() <= 1)
}
