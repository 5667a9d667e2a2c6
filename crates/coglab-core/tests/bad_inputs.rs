//! The bad-input corpus (issue 10): every file under `tests/fixtures/bad/<format>/` is fed to
//! the parser of its format, and the outcome is checked against `tests/fixtures/bad/cases.tsv`.
//!
//! The corpus and `cases.tsv` are written by `tests/fixtures/bad/make.py`; each expectation
//! there is derived from how the file was damaged (which line, which field, which value), so
//! a test fails when a parser panics, accepts what it should refuse, refuses what the format
//! allows (BOM, CRLF, blank lines), or reports the wrong error kind or location.
//!
//! An expectation `err <Variant> | s1 | s2` asks for that error variant (the name of the enum
//! variant in the error's `Debug` output) and a message (`Display`) containing every `s_i`;
//! `ok <n> | s1` asks for `n` records/entries read and every `s_i` in the joined warnings.
//!
//! Crashes found by the fuzzers (`fuzz/`, `scripts/fuzz.sh`) are kept as regression cases at
//! the end of this file.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use coglab_core::kiva::{HumanData, RunFile};
use coglab_core::mmiq::{AccSummary, AnswerKey, Predictions};
use coglab_core::mmopera::files::{Answers, ReasoningScores, RegularScores};
use coglab_core::mmopera::metadata::Metadata;
use coglab_core::publish::Manifest;
use coglab_core::sem::data::ScoreMatrix;
use coglab_core::sem::spec::ModelSpec;

/// What a parser made of a file: records read and warnings, or the error's variant and message.
#[derive(Debug)]
enum Outcome {
    Ok { n: usize, warnings: String },
    Err { variant: String, message: String },
}

fn err<E: std::fmt::Debug + std::fmt::Display>(e: E) -> Outcome {
    let debug = format!("{e:?}");
    let variant = debug
        .split(|c: char| !c.is_alphanumeric() && c != '_')
        .next()
        .unwrap_or("")
        .to_string();
    Outcome::Err {
        variant,
        message: e.to_string(),
    }
}

fn joined<T: std::fmt::Display>(w: &[T]) -> String {
    w.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs the parser of `format` on `bytes`, named `name`.
fn parse(format: &str, name: &str, bytes: &[u8]) -> Outcome {
    match format {
        "mmiq_key" => match AnswerKey::parse_bytes(name, bytes) {
            Ok(k) => Outcome::Ok {
                n: k.len(),
                warnings: String::new(),
            },
            Err(e) => err(e),
        },
        "mmiq_preds" | "vlmeval_csv" | "vlmeval_tsv" | "vlmeval_json" => {
            match Predictions::parse(name, bytes) {
                Ok(p) => Outcome::Ok {
                    n: p.records.len(),
                    warnings: String::new(),
                },
                Err(e) => err(e),
            }
        }
        "vlmeval_acc" => match AccSummary::parse(name, bytes) {
            Ok(s) => Outcome::Ok {
                n: s.rows.len(),
                warnings: String::new(),
            },
            Err(e) => err(e),
        },
        // The run reader takes the domain from the folder and the subdomain from the name.
        "kiva_run" => match RunFile::parse("output_Colour/ColourRed.csv", bytes) {
            Ok(r) => Outcome::Ok {
                n: r.rows.len(),
                warnings: String::new(),
            },
            Err(e) => err(e),
        },
        "kiva_human" => match HumanData::parse(name, bytes) {
            Ok(h) => Outcome::Ok {
                n: h.rows.len(),
                warnings: String::new(),
            },
            Err(e) => err(e),
        },
        "mmopera_metadata" => match Metadata::parse(name, bytes) {
            Ok(m) => Outcome::Ok {
                n: m.items.len(),
                warnings: joined(&m.warnings),
            },
            Err(e) => err(e),
        },
        "mmopera_answers" => match Answers::parse(name, bytes) {
            Ok(a) => Outcome::Ok {
                n: a.entries.len(),
                warnings: joined(&a.warnings),
            },
            Err(e) => err(e),
        },
        "mmopera_regular" => match RegularScores::parse(name, bytes) {
            Ok(r) => Outcome::Ok {
                n: r.entries.len(),
                warnings: joined(&r.warnings),
            },
            Err(e) => err(e),
        },
        "mmopera_reasoning" => match ReasoningScores::parse(name, bytes) {
            Ok(r) => Outcome::Ok {
                n: r.entries.len(),
                warnings: joined(&r.warnings),
            },
            Err(e) => err(e),
        },
        "sem_matrix_csv" | "sem_matrix_json" => match ScoreMatrix::parse(bytes, name) {
            Ok(m) => Outcome::Ok {
                n: m.models.len(),
                warnings: String::new(),
            },
            Err(e) => err(e),
        },
        // The spec reader takes text; the CLI and the app decode the file as UTF-8 first
        // (lossily, so that the spec parser names the place of a bad byte).
        "sem_spec" => match ModelSpec::parse(&String::from_utf8_lossy(bytes), name) {
            Ok(s) => Outcome::Ok {
                n: s.constructs.len(),
                warnings: String::new(),
            },
            Err(e) => err(e),
        },
        // As `coglab publish` reads it: the bytes as UTF-8 text, then the TOML.
        "publish_manifest" => {
            match Manifest::text(name, bytes).and_then(|t| Manifest::parse(name, t)) {
                Ok(m) => Outcome::Ok {
                    n: m.models.len(),
                    warnings: String::new(),
                },
                Err(e) => err(e),
            }
        }
        other => panic!("cases.tsv names an unknown format {other:?}"),
    }
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bad")
}

/// Checks one case; returns a description of the mismatch, if any.
fn check(path: &str, expect: &str) -> Option<String> {
    let (format, name) = path.split_once('/')?;
    let bytes = std::fs::read(corpus_dir().join(path)).ok()?;
    let outcome = match catch_unwind(AssertUnwindSafe(|| parse(format, name, &bytes))) {
        Ok(o) => o,
        Err(_) => return Some(format!("{path}: PANIC (expected {expect})")),
    };
    let mut parts = expect.split('|').map(str::trim);
    let head = parts.next().unwrap_or("");
    let subs: Vec<&str> = parts.filter(|s| !s.is_empty()).collect();
    let (kind, value) = head.split_once(' ').unwrap_or((head, ""));
    match (kind, &outcome) {
        ("err", Outcome::Err { variant, message }) => {
            if variant != value {
                return Some(format!(
                    "{path}: expected {value}, found {variant}: {message}"
                ));
            }
            let missing: Vec<&&str> = subs.iter().filter(|s| !message.contains(**s)).collect();
            if !missing.is_empty() {
                return Some(format!("{path}: message lacks {missing:?}: {message}"));
            }
            None
        }
        ("ok", Outcome::Ok { n, warnings }) => {
            if value.parse::<usize>().ok() != Some(*n) {
                return Some(format!("{path}: expected ok {value}, read {n}"));
            }
            let missing: Vec<&&str> = subs.iter().filter(|s| !warnings.contains(**s)).collect();
            if !missing.is_empty() {
                return Some(format!("{path}: warnings lack {missing:?}: {warnings}"));
            }
            None
        }
        _ => Some(format!("{path}: expected {expect}, found {outcome:?}")),
    }
}

#[test]
fn every_corpus_file_has_its_expected_outcome() {
    let cases = std::fs::read_to_string(corpus_dir().join("cases.tsv"))
        .expect("tests/fixtures/bad/cases.tsv (run make.py)");
    let mut failures = Vec::new();
    let mut per_format = std::collections::BTreeMap::<&str, usize>::new();
    for line in cases.lines().filter(|l| !l.trim().is_empty()) {
        let (path, expect) = line.split_once('\t').expect("path<TAB>expectation");
        *per_format
            .entry(path.split('/').next().unwrap_or(""))
            .or_default() += 1;
        if !corpus_dir().join(path).exists() {
            failures.push(format!("{path}: file missing"));
            continue;
        }
        if let Some(f) = check(path, expect) {
            failures.push(f);
        }
    }
    for (format, n) in &per_format {
        if *n < 30 {
            failures.push(format!(
                "{format}: only {n} corpus files (issue 10 asks for 30)"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of the corpus cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_corpus_file_is_listed() {
    let cases = std::fs::read_to_string(corpus_dir().join("cases.tsv")).expect("cases.tsv");
    let listed: std::collections::BTreeSet<&str> = cases
        .lines()
        .filter_map(|l| l.split_once('\t').map(|(p, _)| p))
        .collect();
    for dir in std::fs::read_dir(corpus_dir()).expect("corpus dir") {
        let dir = dir.expect("entry").path();
        if !dir.is_dir() {
            continue;
        }
        let format = dir
            .file_name()
            .and_then(|s| s.to_str())
            .unwrap_or("")
            .to_string();
        for f in std::fs::read_dir(&dir).expect("format dir") {
            let name = f.expect("entry").file_name().to_string_lossy().to_string();
            let path = format!("{format}/{name}");
            assert!(
                listed.contains(path.as_str()),
                "{path} has no expectation in cases.tsv"
            );
        }
    }
}
