//! `coglab score|extract|compare mmiq` (owned by the MM-IQ/KiVA scoring work, issue 3).
//!
//! Thin wrappers over `coglab_core::mmiq`: read the files, call the library, print JSON or a
//! table. Every number printed comes from the library.

use super::{file_name, read_bytes, CliError};
use crate::args::Args;
use coglab_core::mmiq::{
    compare as compare_reports, detect, score_owned as score_report, AccSummary, Accuracy,
    AnswerKey, MmiqComparison, MmiqFormat, MmiqReport, PredContent, Predictions, CATEGORIES,
};
use serde::Serialize;
use std::io::Write;

/// `writeln!` into a `String` (formatting into a `String` cannot fail).
macro_rules! outln {
    ($out:expr, $($arg:tt)*) => {{
        use std::fmt::Write as _;
        let _ = writeln!($out, $($arg)*);
    }};
}

/// Default number of bootstrap resamples for `compare`.
const DEFAULT_RESAMPLES: usize = 10_000;
/// Default bootstrap seed for `compare`.
const DEFAULT_SEED: u64 = 42;

fn read_key(path: &str) -> Result<AnswerKey, CliError> {
    Ok(AnswerKey::parse_bytes(
        &file_name(path),
        &read_bytes(path)?,
    )?)
}

fn read_preds(path: &str) -> Result<Predictions, CliError> {
    Ok(Predictions::parse(&file_name(path), &read_bytes(path)?)?)
}

fn one_positional<'a>(a: &'a Args, what: &str) -> Result<&'a str, CliError> {
    match a.positional.as_slice() {
        [one] => Ok(one),
        [] => Err(CliError::Usage(format!(
            "{what}: missing the predictions file"
        ))),
        more => Err(CliError::Usage(format!(
            "{what}: expected one predictions file, found {}",
            more.len()
        ))),
    }
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
pub fn score(args: &[&str]) -> Result<(), CliError> {
    let a = Args::parse(args, &["json", "items"], &["answers"])?;
    let pred_path = one_positional(&a, "score mmiq")?;
    let key_path = a.required("answers")?;
    let bytes = read_bytes(pred_path)?;
    let name = file_name(pred_path);
    if detect(&name, &bytes) == Some(MmiqFormat::VlmEvalKitAcc) {
        let summary = AccSummary::parse(&name, &bytes)?;
        if a.flag("json") {
            return emit_json(&Precomputed {
                benchmark: "mmiq",
                precomputed: true,
                summary: &summary,
            });
        }
        let mut out = String::new();
        print_acc_summary(&mut out, &summary);
        return emit(&out);
    }
    let key = read_key(key_path)?;
    let preds = Predictions::parse(&name, &bytes)?;
    let mut report = score_report(&key, preds)?;
    if !a.flag("items") {
        report.items.clear();
    }
    if a.flag("json") {
        // overall.accuracy stays MM-IQ's (over the items in the file); coverage and
        // accuracy_all_items (missing items counted wrong) are added beside it.
        let cov = coglab_core::ranks::coverage::mmiq_coverage(&report, key.items.len());
        emit_json(&super::with_coverage(&report, "overall", &cov)?)
    } else {
        let mut out = String::new();
        print_report(&mut out, &report);
        emit(&out)
    }
}

/// `coglab extract mmiq PRED`: one `{"data_id", "parsed"}` JSON line per prediction row.
pub fn extract(args: &[&str]) -> Result<(), CliError> {
    let a = Args::parse(args, &[], &[])?;
    let preds = read_preds(one_positional(&a, "extract mmiq")?)?;
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
    emit(&out)
}

/// `coglab compare mmiq --answers KEY PRED_A PRED_B [--json] [--seed S] [--resamples N]`.
pub fn compare(args: &[&str]) -> Result<(), CliError> {
    let a = Args::parse(args, &["json"], &["answers", "seed", "resamples"])?;
    let [first, second] = a.positional.as_slice() else {
        return Err(CliError::Usage(format!(
            "compare mmiq: expected two predictions files, found {}",
            a.positional.len()
        )));
    };
    let key = read_key(a.required("answers")?)?;
    let seed = a.parsed::<u64>("seed")?.unwrap_or(DEFAULT_SEED);
    let resamples = a.parsed::<usize>("resamples")?.unwrap_or(DEFAULT_RESAMPLES);
    if resamples == 0 {
        return Err(CliError::Usage("--resamples must be at least 1".into()));
    }
    let ra = score_report(&key, read_preds(first)?)?;
    let rb = score_report(&key, read_preds(second)?)?;
    let c = compare_reports(&ra, &rb, resamples, seed)?;
    if a.flag("json") {
        emit_json(&c)
    } else {
        let mut out = String::new();
        print_comparison(&mut out, &c);
        emit(&out)
    }
}

/// Writes text to stdout; a closed pipe (e.g. `| head`) ends the output quietly.
pub(crate) fn emit(text: &str) -> Result<(), CliError> {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(CliError::Input(format!("writing output: {e}")))
        }
        _ => Ok(()),
    }
}

/// Pretty JSON on stdout, as [`emit`].
pub(crate) fn emit_json<T: Serialize>(value: &T) -> Result<(), CliError> {
    let mut text =
        serde_json::to_string_pretty(value).map_err(|e| CliError::Input(e.to_string()))?;
    text.push('\n');
    emit(&text)
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
        "McNemar exact test (two-sided): p = {:.4}",
        c.mcnemar_p
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
