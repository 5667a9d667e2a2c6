//! `coglab score|extract|compare mmiq` (owned by the MM-IQ/KiVA scoring work, issue 3).
//!
//! Thin wrappers over `coglab_run::mmiq` (reading the files, shared with the Python package)
//! and `coglab_core::mmiq`: print JSON or a table. Every number printed comes from the library.

use super::{emit, emit_raw, print_json, CliError};
use crate::cli::{CompareMmiqArgs, ExtractMmiqArgs, ScoreMmiqArgs};
use coglab_core::mmiq::{
    compare as compare_reports, score_owned as score_report, AccSummary, Accuracy, MmiqComparison,
    MmiqReport, PredContent, CATEGORIES,
};
use coglab_run::mmiq::{read_key, read_preds, Input, MmiqScore};
use coglab_run::Source;
use serde::Serialize;

/// `coglab score mmiq --answers KEY PRED [--json] [--items]`.
pub fn score(a: &ScoreMmiqArgs) -> Result<(), CliError> {
    // The process ends next: the system takes the key's memory back at once, where dropping
    // it would free its three allocations per item one by one (~5% of the run on 100,000).
    let scored = coglab_run::mmiq::score(
        &Source::path(&a.answers),
        &Source::path(&a.pred),
        a.items,
        std::mem::forget,
    )?;
    if a.json {
        return print_json(&scored);
    }
    let mut out = String::new();
    match &scored {
        MmiqScore::Precomputed(summary) => print_acc_summary(&mut out, summary),
        MmiqScore::Summary(file) => print_harness_summary(&mut out, file),
        MmiqScore::Scored { report, .. } => print_report(&mut out, report),
    }
    emit(&out)
}

/// A harness summary file's figures, as the file gives them.
fn print_harness_summary(out: &mut String, file: &coglab_core::harness::HarnessFile) {
    outln!(
        out,
        "{} ({}, figures as given: not recomputed)",
        file.file,
        file.format.label()
    );
    for r in &file.summary {
        let se = r
            .stderr
            .map_or_else(|| "-".to_string(), |v| format!("{v:.4}"));
        let n = r.n.map_or_else(|| "-".to_string(), |v| v.to_string());
        outln!(
            out,
            "  {:<24} {:<18} {:<20} {:>8.4}  SE {:>8}  n {:>6}",
            r.task,
            r.filter.as_deref().unwrap_or(""),
            r.metric,
            r.value,
            se,
            n
        );
    }
}

/// `coglab extract mmiq PRED`: one `{"data_id", "parsed"}` JSON line per prediction row.
pub fn extract(a: &ExtractMmiqArgs) -> Result<(), CliError> {
    let preds = read_preds(Input::open(&Source::path(&a.pred))?, true)?;
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
        })?;
        out.push_str(&line);
        out.push('\n');
    }
    emit_raw(&out)
}

/// `coglab compare mmiq --answers KEY PRED_A PRED_B [--json] [--seed S] [--resamples N]`.
pub fn compare(a: &CompareMmiqArgs) -> Result<(), CliError> {
    let key = read_key(&Source::path(&a.answers))?;
    let ra = score_report(
        &key,
        read_preds(Input::open(&Source::path(&a.first))?, false)?,
    )?;
    let rb = score_report(
        &key,
        read_preds(Input::open(&Source::path(&a.second))?, false)?,
    )?;
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
    let l = &r.letters;
    let counts: Vec<String> = l
        .key
        .counts
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    outln!(
        out,
        "key letters ({} items): {}; always {} = {}; each paradigm's own majority letter = {}; on the {} scored items always {} = {}",
        l.key.n,
        counts.join(", "),
        l.key.majority,
        pct(l.key.majority_share),
        pct(l.per_category_majority),
        l.scored.n,
        l.scored.majority,
        pct(l.scored.majority_share)
    );
    match &r.response_length {
        Some(len) => {
            let paper: Vec<String> = coglab_core::mmiq::PAPER_TOKEN_LENGTHS
                .iter()
                .map(|p| format!("{} {}", p.model, p.tokens))
                .collect();
            outln!(
                out,
                "response length ({} responses): characters mean {:.1} median {:.1}; whitespace tokens mean {:.1} median {:.1} (paper Table 3, its own tokenizer: {})",
                len.n,
                len.chars_mean,
                len.chars_median,
                len.tokens_mean,
                len.tokens_median,
                paper.join(", ")
            );
        }
        None => outln!(
            out,
            "response length: no free-form responses in the file (parsed letters only)"
        ),
    }
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
    if let Some(h) = &r.harness {
        print_harness(out, h);
    }
}

/// Which harness produced the file, what did not map, where its verdicts differ from ours
/// (also under a KiVA report read from a harness file).
pub(super) fn print_harness(out: &mut String, h: &coglab_core::provenance::HarnessInfo) {
    let by: Vec<String> = h
        .mapped_by
        .iter()
        .map(|(k, n)| format!("{n} by {k}"))
        .collect();
    outln!(
        out,
        "harness: {} ({}{}): {} records, {} mapped ({}), {} not mapped",
        h.harness_label,
        h.format.label(),
        h.task
            .as_deref()
            .map(|t| format!(", task {t}"))
            .unwrap_or_default(),
        h.records,
        h.mapped(),
        by.join(", "),
        h.unmapped.len()
    );
    for u in &h.unmapped {
        outln!(
            out,
            "  not mapped: {} (at {}): {}",
            u.record,
            u.position,
            u.reason
        );
    }
    outln!(
        out,
        "harness verdicts: {} given, {} differ from ours",
        h.verdicts,
        h.disagreements.len()
    );
    for d in &h.disagreements {
        outln!(
            out,
            "  data_id {} (at {}): harness {}, ours {} (read {}, key {})",
            d.data_id,
            d.position,
            if d.harness_correct { "right" } else { "wrong" },
            if d.ours_correct { "right" } else { "wrong" },
            d.parsed,
            d.key
        );
    }
    if let Some(c) = &h.circular {
        outln!(
            out,
            "circular: {} of {} items right in every rotation",
            c.all_correct,
            c.items
        );
    }
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
