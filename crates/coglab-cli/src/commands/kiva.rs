//! `coglab score kiva` (owned by the MM-IQ/KiVA scoring work, issue 3).
//!
//! Reads model-run CSVs (folders are searched recursively for `*.csv`) and/or the adult human
//! file, calls `coglab_core::kiva` and prints JSON or a table.

use super::{emit, escape_controls, print_json, read_bytes, special_kind, CliError};
use crate::cli::ScoreKivaArgs;
use coglab_core::kiva::{
    rt_error_correlation, score_human, score_model, HumanData, KivaReport, Source, StageStats,
};
use coglab_core::stats::describe::MeanSe;
use coglab_core::stats::p_phrase;
use std::path::Path;

/// The CSV files found under the given paths, and the links skipped on the way.
#[derive(Default)]
struct Found {
    files: Vec<String>,
    /// Real folders already walked (canonical paths), so each is read once.
    seen: std::collections::HashSet<std::path::PathBuf>,
    /// Links (or paths) to a folder already read, skipped.
    skipped: Vec<String>,
}

/// The CSV files under `path` ([`collect_csv`]), for other commands (`coglab rank`).
pub(crate) fn csv_files(path: &str) -> Result<Vec<String>, CliError> {
    let mut found = Found {
        files: Vec::new(),
        seen: std::collections::HashSet::new(),
        skipped: Vec::new(),
    };
    collect_csv(path, &mut found)?;
    Ok(found.files)
}

/// Collects the CSV files under a path (the path itself if it is a file), sorted. Each real
/// folder is walked once: a link to a folder already read (e.g. a link to `.`) is skipped
/// and listed, so a link loop cannot make the walk endless (issue 27, defect 5). FIFOs,
/// devices and sockets are refused naming what they are (defect 6).
fn collect_csv(path: &str, found: &mut Found) -> Result<(), CliError> {
    let p = Path::new(path);
    let meta = std::fs::metadata(p).map_err(|e| {
        if std::fs::symlink_metadata(p).is_ok() {
            CliError::Input(format!("{path}: cannot follow the link: {e}"))
        } else {
            CliError::Input(format!("{path}: no such file or folder"))
        }
    })?;
    if let Some(kind) = special_kind(&meta) {
        return Err(CliError::Input(format!(
            "{path}: is {kind}, not a regular file or folder"
        )));
    }
    if meta.is_dir() {
        let real = std::fs::canonicalize(p)
            .map_err(|e| CliError::Input(format!("{path}: cannot resolve folder: {e}")))?;
        if !found.seen.insert(real) {
            found.skipped.push(path.to_string());
            return Ok(());
        }
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
                collect_csv(&child, found)?;
            }
        }
    } else {
        found.files.push(path.to_string());
    }
    Ok(())
}

/// Whether a CSV is the human data file (its header starts with `ParticipantID`).
pub(crate) fn is_human(bytes: &[u8]) -> bool {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    bytes.starts_with(b"ParticipantID") || bytes.starts_with(b"\"ParticipantID\"")
}

/// `coglab score kiva PATH... [--json] [--human HUMAN_CSV] [--trials]`.
pub fn score(a: &ScoreKivaArgs) -> Result<(), CliError> {
    let mut found = Found::default();
    for p in &a.paths {
        collect_csv(p, &mut found)?;
    }
    for link in &found.skipped {
        eprintln!(
            "coglab: note: skipped {}: a folder already read (a link loop or a second link)",
            escape_controls(link)
        );
    }
    let paths = found.files;
    let mut runs: Vec<(String, Vec<u8>)> = Vec::new();
    // A file given with --human is read as the adults' data whatever its header, so a file
    // without `ParticipantID` is refused as such rather than scored as a model run.
    let mut human: Option<(String, Vec<u8>)> = match &a.human {
        Some(h) => Some((h.clone(), read_bytes(h)?)),
        None => None,
    };
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
    let coverage = (report.source == coglab_core::kiva::Source::Model)
        .then(|| coglab_core::ranks::coverage::kiva_coverage(&report));
    if !a.trials {
        report.trials.clear();
    }
    if a.json {
        // For model runs: overall.coverage (stage-1 trials scored / expected trials) and
        // overall.accuracy_all_items (stage-1 mean with missing trials counted 0).
        match &coverage {
            Some(cov) => print_json(&super::with_coverage(&report, "overall", cov)?),
            None => print_json(&report),
        }
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
                    outln!(
                        out,
                        "  {stage:<20} r = {rr:+.3}, {} (n = {})",
                        p_phrase(p),
                        sc.n
                    )
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
