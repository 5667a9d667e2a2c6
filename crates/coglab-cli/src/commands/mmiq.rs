//! `coglab score|extract|compare mmiq` (owned by the MM-IQ/KiVA scoring work, issue 3).
//!
//! Thin wrappers over `coglab_core::mmiq`: read the files, call the library, print JSON or a
//! table. Every number printed comes from the library.

use super::{emit, emit_raw, file_name, print_json, special_kind, CliError};
use crate::cli::{CompareMmiqArgs, ExtractMmiqArgs, ScoreMmiqArgs};
use coglab_core::mmiq::{
    compare as compare_reports, detect, score_owned as score_report, score_totals, AccSummary,
    Accuracy, AnswerKey, KeyReader, MmiqComparison, MmiqError, MmiqFormat, MmiqReport, PredContent,
    Predictions, PredictionsReader, CATEGORIES,
};
use serde::Serialize;
use std::fs::File;
use std::io::Read;

/// The size of the slices files are read in: JSONL keys and predictions are parsed slice by
/// slice ([`KeyReader`], [`PredictionsReader`]), so the file is never in memory whole.
const SLICE: usize = 1 << 20;

/// An open input file, its size, and its first bytes (up to [`SLICE`]), from which its format is
/// told.
struct Input {
    path: String,
    name: String,
    file: File,
    size: u64,
    head: Vec<u8>,
}

impl Input {
    /// Opens a regular file (a FIFO, a device or a folder is refused naming what it is, as
    /// [`super::read_bytes`] does).
    fn open(path: &str) -> Result<Self, CliError> {
        let fail = |e: std::io::Error| CliError::Input(format!("{path}: cannot read file: {e}"));
        let meta = std::fs::metadata(path).map_err(fail)?;
        if let Some(kind) = special_kind(&meta) {
            return Err(CliError::Input(format!(
                "{path}: is {kind}, not a regular file; save the data to a file first"
            )));
        }
        if meta.is_dir() {
            return Err(CliError::Input(format!(
                "{path}: is a folder, expected a file"
            )));
        }
        let mut file = File::open(path).map_err(fail)?;
        let size = file.metadata().map_err(fail)?.len();
        let mut head = Vec::with_capacity(SLICE);
        (&mut file)
            .take(SLICE as u64)
            .read_to_end(&mut head)
            .map_err(fail)?;
        Ok(Self {
            path: path.to_string(),
            name: file_name(path),
            file,
            size,
            head,
        })
    }

    /// The format [`detect`] tells from the first bytes.
    fn format(&self) -> Option<MmiqFormat> {
        detect(&self.name, &self.head)
    }

    /// Hands the whole file to `push`, slice by slice (the first slice is the head). A second
    /// thread reads the next slice while `push` parses this one; two buffers go back and forth.
    fn stream(
        mut self,
        mut push: impl FnMut(&[u8]) -> Result<(), MmiqError>,
    ) -> Result<(), CliError> {
        use std::sync::mpsc::sync_channel;
        push(&self.head)?;
        let (full_tx, full_rx) = sync_channel::<std::io::Result<Vec<u8>>>(1);
        let (empty_tx, empty_rx) = sync_channel::<Vec<u8>>(2);
        let _ = empty_tx.send(std::mem::take(&mut self.head));
        let _ = empty_tx.send(Vec::with_capacity(SLICE));
        let mut file = self.file;
        std::thread::scope(|scope| {
            scope.spawn(move || {
                // Ends when the file does, on an error, or when the parser stops taking slices.
                while let Ok(mut buf) = empty_rx.recv() {
                    buf.clear();
                    let read = (&mut file).take(SLICE as u64).read_to_end(&mut buf);
                    let done = !matches!(read, Ok(n) if n > 0);
                    if full_tx.send(read.map(|_| buf)).is_err() || done {
                        return;
                    }
                }
            });
            // Owned here, so that returning early (a bad line) hangs up on the reading thread
            // before the scope waits for it.
            let (full_rx, empty_tx) = (full_rx, empty_tx);
            while let Ok(slice) = full_rx.recv() {
                let buf = slice.map_err(|e| {
                    CliError::Input(format!("{}: cannot read file: {e}", self.path))
                })?;
                if buf.is_empty() {
                    return Ok(());
                }
                push(&buf)?;
                let _ = empty_tx.send(buf);
            }
            Ok(())
        })
    }

    /// The whole file in memory (for the formats read at once: tables, workbooks, summaries).
    fn into_bytes(mut self) -> Result<Vec<u8>, CliError> {
        let mut bytes = std::mem::take(&mut self.head);
        bytes.reserve(
            usize::try_from(self.size)
                .unwrap_or(0)
                .saturating_sub(bytes.len()),
        );
        self.file
            .read_to_end(&mut bytes)
            .map_err(|e| CliError::Input(format!("{}: cannot read file: {e}", self.path)))?;
        Ok(bytes)
    }
}

/// Reads an answer key (JSONL) slice by slice.
fn read_key(path: &str) -> Result<AnswerKey, CliError> {
    let input = Input::open(path)?;
    let mut reader = KeyReader::new(&input.name);
    input.stream(|b| reader.push(b))?;
    Ok(reader.finish()?)
}

/// Reads the answer key at `key_path` on a second thread while `other` runs; the key's error
/// comes first when both fail.
fn with_key<T: Send>(
    key_path: &str,
    other: impl FnOnce() -> Result<T, CliError>,
) -> Result<(AnswerKey, T), CliError> {
    let (key, value) = std::thread::scope(|scope| {
        let key = scope.spawn(|| read_key(key_path));
        let value = other();
        (key.join(), value)
    });
    let key = key.map_err(|_| CliError::Input(format!("{key_path}: reading the key failed")))??;
    Ok((key, value?))
}

/// Reads predictions: MM-IQ JSONL slice by slice, other formats whole. Unless `responses`, a
/// JSONL's responses are reduced to their extracted letters while reading
/// ([`PredictionsReader::letters_only`]): the scores are the same, the memory far less.
fn read_preds(input: Input, responses: bool) -> Result<Predictions, CliError> {
    let streamed = input.format() == Some(MmiqFormat::PredictionsJsonl)
        && !input.head.iter().all(u8::is_ascii_whitespace);
    if !streamed {
        let name = input.name.clone();
        return Ok(Predictions::parse(&name, &input.into_bytes()?)?);
    }
    let size = usize::try_from(input.size).unwrap_or(usize::MAX);
    let mut reader = PredictionsReader::new(&input.name, size);
    if !responses {
        reader = reader.letters_only();
    }
    input.stream(|b| reader.push(b))?;
    Ok(reader.finish()?)
}

/// A VLMEvalKit `_acc.csv` printed as it is (pre-computed accuracies, no n or intervals).
#[derive(Serialize)]
struct Precomputed<'a> {
    benchmark: &'static str,
    precomputed: bool,
    #[serde(flatten)]
    summary: &'a AccSummary,
}

/// `coglab score mmiq --answers KEY PRED [--json] [--items]`.
pub fn score(a: &ScoreMmiqArgs) -> Result<(), CliError> {
    let key_path = &a.answers;
    let input = Input::open(&a.pred)?;
    if input.format() == Some(MmiqFormat::VlmEvalKitAcc) {
        let name = input.name.clone();
        let summary = AccSummary::parse(&name, &input.into_bytes()?)?;
        if a.json {
            return print_json(&Precomputed {
                benchmark: "mmiq",
                precomputed: true,
                summary: &summary,
            });
        }
        let mut out = String::new();
        print_acc_summary(&mut out, &summary);
        return emit(&out);
    }
    let (key, preds) = with_key(key_path, || read_preds(input, a.items))?;
    // Without --items nothing is kept per item (the totals are the same).
    let report = if a.items {
        score_report(&key, preds)?
    } else {
        score_totals(&key, preds)?
    };
    let printed = if a.json {
        // overall.accuracy stays MM-IQ's (over the items in the file); coverage and
        // accuracy_all_items (missing items counted wrong) are added beside it.
        let cov = coglab_core::ranks::coverage::mmiq_coverage(&report, key.items.len());
        print_json(&super::with_coverage(&report, "overall", &cov)?)
    } else {
        let mut out = String::new();
        print_report(&mut out, &report);
        emit(&out)
    };
    // The process ends next: the system takes the key's memory back at once, where dropping
    // it would free its three allocations per item one by one (~5% of the run on 100,000).
    std::mem::forget(key);
    printed
}

/// `coglab extract mmiq PRED`: one `{"data_id", "parsed"}` JSON line per prediction row.
pub fn extract(a: &ExtractMmiqArgs) -> Result<(), CliError> {
    let preds = read_preds(Input::open(&a.pred)?, true)?;
    #[derive(Serialize)]
    struct Line<'a> {
        data_id: u64,
        parsed: &'a str,
    }
    let mut out = String::with_capacity(preds.records.len() * 32);
    for rec in &preds.records {
        let letter;
        let parsed = match &rec.content {
            PredContent::Response(r) => {
                letter = coglab_core::mmiq::extract::extract(r)
                    .recorded()
                    .to_string();
                letter.as_str()
            }
            PredContent::Parsed(p) => p.as_str(),
        };
        let line = serde_json::to_string(&Line {
            data_id: rec.data_id,
            parsed,
        })
        .map_err(|e| CliError::Input(e.to_string()))?;
        out.push_str(&line);
        out.push('\n');
    }
    emit_raw(&out)
}

/// `coglab compare mmiq --answers KEY PRED_A PRED_B [--json] [--seed S] [--resamples N]`.
pub fn compare(a: &CompareMmiqArgs) -> Result<(), CliError> {
    let key = read_key(&a.answers)?;
    let ra = score_report(&key, read_preds(Input::open(&a.first)?, false)?)?;
    let rb = score_report(&key, read_preds(Input::open(&a.second)?, false)?)?;
    let c = compare_reports(&ra, &rb, a.resamples, a.seed)?;
    if a.json {
        print_json(&c)
    } else {
        let mut out = String::new();
        print_comparison(&mut out, &c);
        emit(&out)
    }
}

fn pct(x: f64) -> String {
    format!("{:.2}%", 100.0 * x)
}

fn acc_line(label: &str, acc: &Accuracy, human: Option<f64>) -> String {
    format!(
        "{label:<22} {:>6} {:>8} {:>9}  [{:>6}, {:>6}]  {:>7}",
        acc.n,
        acc.correct,
        pct(acc.accuracy),
        pct(acc.ci_low),
        pct(acc.ci_high),
        human.map_or_else(|| "-".to_string(), pct)
    )
}

fn print_report(out: &mut String, r: &MmiqReport) {
    outln!(
        out,
        "MM-IQ accuracy: {} (answer key {})",
        r.file,
        r.key_file
    );
    outln!(
        out,
        "{:<22} {:>6} {:>8} {:>9}  {:<18}  {:>7}",
        "category",
        "n",
        "correct",
        "accuracy",
        "Wilson 95% CI",
        "human"
    );
    let mut cats: Vec<&String> = r.by_category.keys().collect();
    cats.sort_by_key(|c| CATEGORIES.iter().position(|k| k == c).unwrap_or(usize::MAX));
    for c in cats {
        outln!(
            out,
            "{}",
            acc_line(c, &r.by_category[c], r.human.by_category.get(c).copied())
        );
    }
    outln!(
        out,
        "{}",
        acc_line("Overall", &r.overall, Some(r.human.overall))
    );
    outln!(
        out,
        "chance baseline {}; human row: {}",
        pct(r.chance),
        r.human.source
    );
    let rows = &r.rows;
    outln!(
            out,
        "rows: {} read, {} scored, {} skipped, {} blank lines; {} scored without an answer (Z); {} key items have no prediction",
        rows.read, rows.scored, rows.skipped, rows.blank_lines, rows.no_answer, rows.key_items_without_prediction
    );
    for (reason, n) in &rows.skipped_by_reason {
        outln!(out, "  skipped {n}: {reason}");
    }
    print_warnings(out, &r.warnings);
}

fn print_warnings(out: &mut String, w: &coglab_core::mmiq::Warnings) {
    if w.counts.is_empty() {
        return;
    }
    outln!(out, "warnings ({}):", w.total());
    for (kind, n) in &w.counts {
        outln!(out, "  {n} x {kind}");
    }
    for e in &w.examples {
        outln!(out, "    e.g. {e}");
    }
}

fn print_acc_summary(out: &mut String, s: &AccSummary) {
    outln!(
        out,
        "MM-IQ pre-computed accuracies from {} (VLMEvalKit summary: no n, no intervals)",
        s.file
    );
    for row in &s.rows {
        outln!(out, "split {}: overall {}", row.split, pct(row.overall));
        for (c, v) in &row.by_category {
            outln!(out, "  {c:<22} {}", pct(*v));
        }
    }
}

fn print_comparison(out: &mut String, c: &MmiqComparison) {
    outln!(out, "MM-IQ comparison on {} paired items", c.n_paired);
    for (label, s) in [("A", &c.first), ("B", &c.second)] {
        outln!(
            out,
            "  {label}: {:<40} accuracy {} [{}, {}] on paired items; {} on all {} of its items ({} unpaired)",
            s.file,
            pct(s.paired.accuracy),
            pct(s.paired.ci_low),
            pct(s.paired.ci_high),
            pct(s.all.accuracy),
            s.all.n,
            s.unpaired_items
        );
    }
    let t = &c.table;
    outln!(out, "               B correct  B wrong");
    outln!(
        out,
        "  A correct   {:>9}  {:>7}",
        t.both_correct,
        t.first_only
    );
    outln!(
        out,
        "  A wrong     {:>9}  {:>7}",
        t.second_only,
        t.both_wrong
    );
    outln!(
        out,
        "McNemar exact test (two-sided): {}",
        coglab_core::stats::p_phrase(c.mcnemar_p)
    );
    let d = &c.difference;
    outln!(
            out,
        "accuracy difference A - B: {:+.2} points, paired bootstrap {:.0}% interval [{:+.2}, {:+.2}] ({} resamples, seed {})",
        100.0 * d.estimate,
        100.0 * d.confidence,
        100.0 * d.low,
        100.0 * d.high,
        d.resamples,
        d.seed
    );
}
