//! `coglab score kiva` (owned by the MM-IQ/KiVA scoring work, issue 3).
//!
//! Reads model-run CSVs (folders are searched recursively for `*.csv`) and/or the adult human
//! file, calls `coglab_core::kiva` and prints JSON or a table.

use super::mmiq::{emit, emit_json};
use super::{read_bytes, CliError};
use crate::args::Args;
use coglab_core::kiva::{
    rt_error_correlation, score_human, score_model, HumanData, KivaReport, Source, StageStats,
};
use coglab_core::stats::describe::MeanSe;
use std::path::Path;

/// `writeln!` into a `String` (formatting into a `String` cannot fail).
macro_rules! outln {
    ($out:expr, $($arg:tt)*) => {{
        use std::fmt::Write as _;
        let _ = writeln!($out, $($arg)*);
    }};
}

/// Collects the CSV files under a path (the path itself if it is a file), sorted.
pub(crate) fn collect_csv(path: &str, out: &mut Vec<String>) -> Result<(), CliError> {
    let p = Path::new(path);
    if p.is_dir() {
        let entries = std::fs::read_dir(p)
            .map_err(|e| CliError::Input(format!("{path}: cannot read folder: {e}")))?;
        let mut children: Vec<String> = entries
            .filter_map(Result::ok)
            .map(|e| e.path().to_string_lossy().into_owned())
            .collect();
        children.sort();
        for child in children {
            let cp = Path::new(&child);
            if cp.is_dir()
                || cp
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("csv"))
            {
                collect_csv(&child, out)?;
            }
        }
        Ok(())
    } else if p.is_file() {
        out.push(path.to_string());
        Ok(())
    } else {
        Err(CliError::Input(format!("{path}: no such file or folder")))
    }
}

/// Whether a CSV is the human data file (its header starts with `ParticipantID`).
pub(crate) fn is_human(bytes: &[u8]) -> bool {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    bytes.starts_with(b"ParticipantID") || bytes.starts_with(b"\"ParticipantID\"")
}

/// `coglab score kiva PATH... [--json] [--human HUMAN_CSV] [--trials]`.
pub fn score(args: &[&str]) -> Result<(), CliError> {
    let a = Args::parse(args, &["json", "trials"], &["human"])?;
    if a.positional.is_empty() {
        return Err(CliError::Usage(
            "score kiva: give at least one run folder or CSV file".into(),
        ));
    }
    let mut paths = Vec::new();
    for p in &a.positional {
        collect_csv(p, &mut paths)?;
    }
    if let Some(h) = a.option("human") {
        paths.push(h.to_string());
    }
    let mut runs: Vec<(String, Vec<u8>)> = Vec::new();
    let mut human: Option<(String, Vec<u8>)> = None;
    for p in paths {
        let bytes = read_bytes(&p)?;
        if is_human(&bytes) {
            if let Some((first, _)) = &human {
                return Err(CliError::Usage(format!(
                    "score kiva: two human data files given ({first} and {p}); give one"
                )));
            }
            human = Some((p, bytes));
        } else {
            runs.push((p, bytes));
        }
    }
    let human_report = match &human {
        Some((p, b)) => Some(score_human(&HumanData::parse(p, b)?)?),
        None => None,
    };
    let mut report = if runs.is_empty() {
        match human_report.clone() {
            Some(r) => r,
            None => {
                return Err(CliError::Input(
                    "score kiva: no CSV files found in the given paths".into(),
                ))
            }
        }
    } else {
        let mut r = score_model(runs.iter().map(|(p, b)| (p.as_str(), b.as_slice())))?;
        if let Some(h) = &human_report {
            r.rt_correlation = Some(rt_error_correlation(&r, h));
        }
        r
    };
    if !a.flag("trials") {
        report.trials.clear();
    }
    if a.flag("json") {
        emit_json(&report)
    } else {
        let mut out = String::new();
        print_report(&mut out, &report);
        emit(&out)
    }
}

fn cell(m: Option<MeanSe>) -> String {
    match m {
        Some(m) => format!("{:.3} ± {:.3} ({:>4})", m.mean, m.se, m.n),
        None => format!("{:^20}", "-"),
    }
}

fn stats_line(label: &str, s: &StageStats) -> String {
    format!(
        "{label:<17} {:<20}  {:<20}  {:<20}  {:<20}",
        cell(s.cross),
        cell(s.within_conditional),
        cell(s.within_joint),
        cell(s.extrapolation)
    )
}

fn print_report(out: &mut String, r: &KivaReport) {
    let source = match r.source {
        Source::Model => "model runs",
        Source::Human => "human data",
    };
    outln!(
        out,
        "KiVA scores ({}, {source}): {} files, {} rows, {} trials; mean ± SE (n trials)",
        r.variant.name(),
        r.rows.files,
        r.rows.rows,
        r.rows.trials
    );
    outln!(
        out,
        "{:<17} {:<20}  {:<20}  {:<20}  {:<20}",
        "",
        "cross",
        "within_conditional",
        "within_joint",
        "extrapolation"
    );
    outln!(out, "{}", stats_line("Overall", &r.overall));
    let mut listed = std::collections::BTreeSet::new();
    for (d, s) in &r.by_domain {
        outln!(out, "{}", stats_line(d, s));
        for (sub, ss) in r
            .by_subdomain
            .iter()
            .filter(|(k, _)| k.starts_with(d.as_str()))
        {
            outln!(out, "{}", stats_line(&format!("  {sub}"), ss));
            listed.insert(sub);
        }
    }
    for (sub, ss) in r.by_subdomain.iter().filter(|(k, _)| !listed.contains(k)) {
        outln!(out, "{}", stats_line(&format!("  {sub}"), ss));
    }
    if !r.missing_subdomains.is_empty() {
        outln!(out, "no data for: {}", r.missing_subdomains.join(", "));
    }
    let nulls: Vec<String> = r
        .rows
        .null_answers
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    let empties: Vec<String> = r
        .rows
        .empty_answers
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    outln!(out, "Null answers (wrong): {}", nulls.join(", "));
    match r.source {
        Source::Model => outln!(
            out,
            "empty answers: {} (stage 2 empty = not asked; empty stage 1/3 = wrong)",
            empties.join(", ")
        ),
        Source::Human => outln!(out, "trials without a row: {}", empties.join(", ")),
    }
    if r.rows.scored_from_raw_answers > 0 {
        outln!(
            out,
            "{} rows scored from raw answers and option order",
            r.rows.scored_from_raw_answers
        );
    }
    if let Some(rt) = &r.reaction_time {
        outln!(out, "reaction time (ms): median / mean (n)");
        for (sub, t) in rt {
            outln!(
                out,
                "  {sub:<17} all {:>8.0} / {:>8.0} ({:>4})",
                t.all.median_ms,
                t.all.mean_ms,
                t.all.n
            );
        }
    }
    if let Some(c) = &r.rt_correlation {
        outln!(
            out,
            "model mean error vs adults' mean reaction time across subdomains (Pearson):"
        );
        for (stage, sc) in &c.stages {
            match (sc.r, sc.p) {
                (Some(rr), Some(p)) => {
                    outln!(out, "  {stage:<20} r = {rr:+.3}, p = {p:.4} (n = {})", sc.n)
                }
                _ => outln!(
                    out,
                    "  {stage:<20} not computable: {}",
                    sc.note.as_deref().unwrap_or("-")
                ),
            }
        }
    }
    if !r.warnings.counts.is_empty() {
        outln!(out, "warnings ({}):", r.warnings.total());
        for (kind, n) in &r.warnings.counts {
            outln!(out, "  {n} x {kind}");
        }
        for e in &r.warnings.examples {
            outln!(out, "    e.g. {e}");
        }
    }
}
