//! `coglab score kiva` (owned by the MM-IQ/KiVA scoring work, issue 3).
//!
//! Reads model-run CSVs (folders are searched recursively for `*.csv`) and/or the adult human
//! file, or KiVA's Every Eval Ever instance records (read back into the same report), with
//! `coglab_run::kiva` (shared with the Python package) and prints JSON or a table.

use super::{emit, escape_controls, print_json, CliError};
use crate::cli::ScoreKivaArgs;
use coglab_core::kiva::{KivaReport, Source, StageStats};
use coglab_core::stats::describe::MeanSe;
use coglab_core::stats::p_phrase;
use coglab_run::kiva::KivaOutput;
use coglab_run::Source as Input;

/// `coglab score kiva PATH... [--json] [--human HUMAN_CSV] [--trials]`, or
/// `coglab score kiva ANNOTATIONS.json RESULTS.{json,csv}` for a KiVA challenge result
/// (`coglab_run::kiva::score_any`, shared with the Python package; it calls
/// [`coglab_core::harness::kiva_challenge::score`], the function the web app's worker calls).
pub fn score(a: &ScoreKivaArgs) -> Result<(), CliError> {
    let paths: Vec<Input> = a.paths.iter().map(Input::path).collect();
    let human = a.human.as_ref().map(Input::path);
    let scored = match coglab_run::kiva::score_any(&paths, human.as_ref(), a.trials, a.null)? {
        KivaOutput::Challenge(report) => {
            return if a.json {
                print_json(&report)
            } else {
                let mut out = String::new();
                print_challenge(&mut out, &report);
                emit(&out)
            };
        }
        KivaOutput::Runs(scored) => scored,
    };
    for link in &scored.skipped_links {
        eprintln!(
            "coglab: note: skipped {}: a folder already read (a link loop or a second link)",
            escape_controls(link)
        );
    }
    if a.json {
        print_json(&scored)
    } else {
        let mut out = String::new();
        print_report(&mut out, &scored.report);
        emit(&out)
    }
}

fn print_challenge(out: &mut String, r: &coglab_core::harness::kiva_challenge::ChallengeReport) {
    let acc = |a: &coglab_core::mmiq::Accuracy| {
        format!(
            "{:.3} ({} of {}; Wilson 95% {:.3}-{:.3})",
            a.accuracy, a.correct, a.n, a.ci_low, a.ci_high
        )
    };
    outln!(
        out,
        "KiVA challenge: {} against {}; {} annotated trials not answered, {} results not mapped",
        r.file,
        r.annotation_file,
        r.not_answered,
        r.unmapped.len()
    );
    outln!(out, "{:<32} {}", "Overall", acc(&r.overall));
    for (what, map) in [
        ("level", &r.by_level),
        ("domain", &r.by_domain),
        ("concept", &r.by_concept),
    ] {
        for (k, a) in map {
            outln!(out, "{:<32} {}", format!("{what} {k}"), acc(a));
        }
    }
    for u in &r.unmapped {
        outln!(
            out,
            "not mapped: record {} ({}): {}",
            u.position,
            escape_controls(&u.record),
            escape_controls(&u.reason)
        );
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
    let counted = match r.null {
        coglab_core::kiva::NullAnswers::Wrong => {
            "counted wrong (--null wrong, the repository's rule)"
        }
        _ => "left out (--null missing)",
    };
    if nulls.is_empty() && empties.is_empty() {
        // Read back from stage scores (Every Eval Ever records): no answers to count.
        outln!(
            out,
            "Null answers {counted}; the answers behind the stage scores are not in the file"
        );
    } else {
        outln!(out, "Null answers, {counted}: {}", nulls.join(", "));
        match r.source {
            Source::Model => outln!(
                out,
                "empty answers: {} (stage 2 empty = not asked; empty stage 1/3 = wrong)",
                empties.join(", ")
            ),
            Source::Human => outln!(out, "trials without a row: {}", empties.join(", ")),
        }
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
    if let Some(h) = &r.harness {
        super::mmiq::print_harness(out, h);
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
