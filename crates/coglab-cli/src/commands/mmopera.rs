//! `coglab score mmopera` and `coglab agree` (owned by the MM-OPERA work, issue 4).
//!
//! Thin wrappers: files are read by `coglab_run::mmopera` (shared with the Python package), every
//! number comes from `coglab_core::mmopera`.

use std::collections::BTreeMap;

use coglab_core::mmopera::detect::{detect, FileKind};
use coglab_core::mmopera::files::{ReasoningScores, RegularScores};
use coglab_core::mmopera::score::{
    DecayExponent, Group, HolisticReport, InvalidHops, InvalidScores, LabelCounting, ProcessGroup,
    ReasoningReport, ScoreOptions,
};
use coglab_core::mmopera::validate::{
    holistic_agreement, process_agreement, HolisticAgreement, ProcessAgreement,
};
use coglab_core::mmopera::Warning;
use coglab_core::stats::correlation::Correlation;
use coglab_core::stats::p_phrase;
use coglab_run::mmopera::MmoperaInputs;
use coglab_run::Source;

use super::{emit, file_name, print_json, read_bytes, CliError};
use crate::cli::{AgreeArgs, ScoreMmoperaArgs};

/// The paths of a comma-separated list, trimmed, without empty entries.
fn paths(list: &[String]) -> Vec<&str> {
    list.iter()
        .map(|p| p.trim())
        .filter(|p| !p.is_empty())
        .collect()
}

/// `coglab score mmopera ...`.
pub fn score(a: &ScoreMmoperaArgs) -> Result<(), CliError> {
    let task = a.task;
    let defaults = ScoreOptions::default();
    let options = ScoreOptions {
        alpha: a.alpha.unwrap_or(defaults.alpha),
        gamma: a.gamma.unwrap_or(defaults.gamma),
        decay_exponent: if a.paper_decay {
            DecayExponent::FromOne
        } else {
            a.decay
        },
        ica_average: a.ica_average,
        invalid_scores: if a.exclude_invalid {
            InvalidScores::Exclude
        } else {
            InvalidScores::CountAsZero
        },
        invalid_hops: if a.skip_bad_hop_items {
            InvalidHops::SkipItem
        } else {
            InvalidHops::DropHop
        },
        label_counting: if a.per_label {
            LabelCounting::PerLabel
        } else {
            LabelCounting::PerItem
        },
        min_answer_length: a.min_length.unwrap_or(defaults.min_answer_length),
    };
    let inputs = MmoperaInputs {
        task,
        metadata: Source::path(&a.metadata),
        regular: paths(&a.regular).into_iter().map(Source::path).collect(),
        reasoning: paths(&a.reasoning).into_iter().map(Source::path).collect(),
        answers: a.answers.as_ref().map(Source::path),
    };
    let scored = coglab_run::mmopera::score(&inputs, &options, a.items)?;
    if a.json {
        return print_json(&scored);
    }
    let report = scored.report;
    let mut out = String::new();
    outln!(out, "MM-OPERA {task}");
    if let Some(h) = &report.holistic {
        print_holistic(&mut out, h);
    }
    if let Some(r) = &report.reasoning {
        print_reasoning(&mut out, r);
    }
    for h in &report.per_judge.holistic {
        outln!(
            out,
            "  judge {}: SR {} HR-3 {} HR-4 {} (N = {})",
            h.files.join(", "),
            pct(h.score_rate),
            pct(h.hr3),
            pct(h.hr4),
            h.n
        );
    }
    for r in &report.per_judge.reasoning {
        outln!(
            out,
            "  judge {}: mean S_r {:.4} over {} items",
            r.files.join(", "),
            r.mean_score,
            r.n
        );
    }
    print_warnings(&mut out, "metadata warnings", &report.metadata_warnings);
    print_warnings(
        &mut out,
        "answers file warnings (entries read as missing)",
        &report.answers_warnings,
    );
    if a.items {
        for item in &report.items {
            let mean = item.mean_score.map_or("-".into(), |m| format!("{m:.2}"));
            let s_r = item.s_r.map_or("-".into(), |s| format!("{s:.4}"));
            outln!(out, "  item {}: holistic {mean}  S_r {s_r}", item.id);
        }
    }
    emit(&out)
}

fn pct(x: f64) -> String {
    format!("{:.2}%", 100.0 * x)
}

fn print_holistic(out: &mut String, h: &HolisticReport) {
    outln!(
        out,
        "Holistic ({}): N = {} verdicts over {} items",
        h.files.join(", "),
        h.n,
        h.items
    );
    outln!(
        out,
        "  SR {}  HR-3 {}  HR-4 {}  ΔHR {}",
        pct(h.score_rate),
        pct(h.hr3),
        pct(h.hr4),
        pct(h.delta_hr)
    );
    let dist: Vec<String> = h
        .distribution
        .iter()
        .map(|(k, v)| format!("{k}: {v}"))
        .collect();
    outln!(
        out,
        "  scores  {}  (invalid, counted as 0: {})",
        dist.join("  "),
        h.invalid
    );
    let by = &h.by;
    for (name, groups) in [
        ("domain", &by.domain),
        ("culture", &by.culture),
        ("type", &by.kind),
        ("language", &by.language),
        ("hop_count", &by.hop_count),
        ("L-1", &by.l1),
        ("L-2", &by.l2),
        ("L-3", &by.l3),
    ] {
        print_groups(out, name, groups, |g: &Group| {
            format!("{} (n {})", pct(g.score_rate), g.n)
        });
    }
    if !h.missing_metadata.is_empty() {
        outln!(
            out,
            "  {} judged id(s) missing from the metadata: {}",
            h.missing_metadata.len(),
            h.missing_metadata.join(", ")
        );
    }
    if let Some(lb) = &h.length_bias {
        print_length_bias(out, "length bias (holistic judge)", lb);
    }
    let sub = &h.substitution;
    match (sub.mean_sd, sub.mean_range) {
        (Some(sd), Some(range)) => outln!(
            out,
            "  multi-image substitution (paper §5.4): {} groups of concept-identical variants ({} items): mean within-group SD of SR {:.4}, mean range {:.4}",
            sub.groups,
            sub.items,
            sd,
            range
        ),
        _ => outln!(
            out,
            "  multi-image substitution (paper §5.4): {}",
            sub.note.as_deref().unwrap_or("not computed")
        ),
    }
    print_warnings(out, "warnings", &h.warnings);
}

fn print_reasoning(out: &mut String, r: &ReasoningReport) {
    let exponent = match r.decay_exponent {
        DecayExponent::FromZero => "γ^0..γ^(n-1)",
        _ => "γ^1..γ^n",
    };
    outln!(
        out,
        "Process reward ({}): α {} γ {} (--decay {}: {exponent}; --ica-average {})",
        r.files.join(", "),
        r.alpha,
        r.gamma,
        r.decay_exponent.name(),
        r.ica_average.name()
    );
    outln!(
        out,
        "  mean S_r {:.4} over {} items; R {:.3}  D {:.3}  K {:.3} over {} hops in {} paths",
        r.mean_score,
        r.n,
        r.mean_r,
        r.mean_d,
        r.mean_k,
        r.hops,
        r.paths
    );
    let fmt = |m: &BTreeMap<String, usize>| {
        m.iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect::<Vec<_>>()
            .join("  ")
    };
    outln!(out, "  S_r bins  {}", fmt(&r.distribution.score));
    outln!(out, "  R bins    {}", fmt(&r.distribution.r));
    outln!(out, "  D bins    {}", fmt(&r.distribution.d));
    outln!(out, "  K         {}", fmt(&r.distribution.k));
    let hops: Vec<String> = r
        .distribution
        .hops
        .iter()
        .map(|(k, v)| format!("{k}: {v}"))
        .collect();
    outln!(out, "  hops/path {}", hops.join("  "));
    let a = &r.distribution.above;
    outln!(
        out,
        "  above 0.75 (paper §5.3): paths (mean of hops, {} paths) R {}  D {}  K {}; hops R {}  D {}",
        a.paths,
        pct(a.path_r),
        pct(a.path_d),
        pct(a.path_k),
        pct(a.hop_r),
        pct(a.hop_d)
    );
    if let Some(lb) = &r.length_bias {
        print_length_bias(out, "length bias (process judge, S_r per rotation)", lb);
    }
    let by = &r.by;
    for (name, groups) in [
        ("domain", &by.domain),
        ("type", &by.kind),
        ("hop_count", &by.hop_count),
        ("L-1", &by.l1),
        ("L-2", &by.l2),
        ("L-3", &by.l3),
    ] {
        print_groups(out, name, groups, |g: &ProcessGroup| {
            format!("{:.4} (n {})", g.mean_score, g.n)
        });
    }
    if !r.skipped.is_empty() {
        outln!(out, "  skipped {} item(s):", r.skipped.len());
        for s in r.skipped.iter().take(20) {
            outln!(out, "    {} {}: {}", s.file, s.id, s.reason);
        }
        if r.skipped.len() > 20 {
            outln!(out, "    ... and {} more", r.skipped.len() - 20);
        }
    }
    if !r.missing_metadata.is_empty() {
        outln!(
            out,
            "  {} judged id(s) missing from the metadata: {}",
            r.missing_metadata.len(),
            r.missing_metadata.join(", ")
        );
    }
    print_warnings(out, "warnings", &r.warnings);
}

fn print_length_bias(
    out: &mut String,
    what: &str,
    lb: &coglab_core::mmopera::validate::LengthBias,
) {
    match &lb.correlation {
        Some(c) => outln!(
            out,
            "  {what}: Pearson r {:.3} ({}, n {}; {} one-point answers under {} chars left out, --min-length)",
            c.r,
            p_phrase(c.p),
            lb.n,
            lb.excluded,
            lb.min_length
        ),
        None => outln!(
            out,
            "  {what}: {}",
            lb.note.as_deref().unwrap_or("not computed")
        ),
    }
}

fn print_groups<G>(
    out: &mut String,
    name: &str,
    groups: &BTreeMap<String, G>,
    show: impl Fn(&G) -> String,
) {
    if groups.is_empty() {
        return;
    }
    let parts: Vec<String> = groups
        .iter()
        .map(|(k, g)| format!("{k} {}", show(g)))
        .collect();
    outln!(out, "  by {name}: {}", parts.join("; "));
}

fn print_warnings(out: &mut String, title: &str, warnings: &[Warning]) {
    if warnings.is_empty() {
        return;
    }
    outln!(out, "  {title} ({}):", warnings.len());
    for w in warnings.iter().take(20) {
        outln!(out, "    {w}");
    }
    if warnings.len() > 20 {
        outln!(out, "    ... and {} more", warnings.len() - 20);
    }
}

/// What `coglab agree` prints as JSON.
#[derive(serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Agreement {
    Holistic(HolisticAgreement),
    Process(ProcessAgreement),
}

/// `coglab agree A B [--json] [--seed S] [--resamples N] [--alpha A --gamma G]`.
pub fn agree(a: &AgreeArgs) -> Result<(), CliError> {
    let (path_a, path_b) = (&a.a, &a.b);
    let (seed, resamples) = (a.seed, a.resamples);
    let defaults = ScoreOptions::default();
    let options = ScoreOptions::new(
        a.alpha.unwrap_or(defaults.alpha),
        a.gamma.unwrap_or(defaults.gamma),
    )
    .map_err(|e| CliError::Usage(e.to_string()))?;
    let (bytes_a, bytes_b) = (read_bytes(path_a)?, read_bytes(path_b)?);
    let (name_a, name_b) = (file_name(path_a), file_name(path_b));
    let kind_a = detect(&name_a, &bytes_a)?.kind;
    let kind_b = detect(&name_b, &bytes_b)?.kind;
    for (name, kind) in [(&name_a, kind_a), (&name_b, kind_b)] {
        if matches!(kind, FileKind::Metadata | FileKind::Answers) {
            return Err(CliError::in_file(
                name,
                format!(
                    "{name}: expected a score file ({{id: score}}, a regular-scoring or a \
                 reasoning-scoring file), found a {} file",
                    if kind == FileKind::Metadata {
                        "metadata"
                    } else {
                        "model answers"
                    }
                ),
            ));
        }
    }
    let reasoning_a = kind_a == FileKind::ReasoningScoring;
    let reasoning_b = kind_b == FileKind::ReasoningScoring;
    let result = if reasoning_a && reasoning_b {
        let ra = ReasoningScores::parse(&name_a, &bytes_a)?;
        let rb = ReasoningScores::parse(&name_b, &bytes_b)?;
        Agreement::Process(process_agreement(&ra, &rb, &options, resamples, seed)?)
    } else if reasoning_a || reasoning_b {
        let (r, other) = if reasoning_a {
            (&name_a, &name_b)
        } else {
            (&name_b, &name_a)
        };
        return Err(CliError::in_file(
            other,
            format!("{other}: expected a reasoning-scoring file like {r}, found holistic scores"),
        ));
    } else {
        let ra = RegularScores::parse(&name_a, &bytes_a)?;
        let rb = RegularScores::parse(&name_b, &bytes_b)?;
        Agreement::Holistic(holistic_agreement(&ra, &rb, resamples, seed)?)
    };
    if a.json {
        return print_json(&result);
    }
    let mut out = String::new();
    match &result {
        Agreement::Holistic(g) => print_holistic_agreement(&mut out, g),
        Agreement::Process(p) => print_process_agreement(&mut out, p),
    }
    emit(&out)
}

fn corr(c: &Option<Correlation>) -> String {
    c.map_or("-".into(), |c| format!("{:.3} ({})", c.r, p_phrase(c.p)))
}

fn opt(x: Option<f64>) -> String {
    x.map_or("-".into(), |x| format!("{x:.3}"))
}

fn print_ids(out: &mut String, which: &str, ids: &[String]) {
    if !ids.is_empty() {
        outln!(
            out,
            "  {} id(s) only in {which}: {}",
            ids.len(),
            ids.join(", ")
        );
    }
}

fn print_holistic_agreement(out: &mut String, g: &HolisticAgreement) {
    outln!(
        out,
        "Holistic agreement: A = {}, B = {}",
        g.files[0],
        g.files[1]
    );
    outln!(
        out,
        "  {} paired verdicts over {} items ({} unpaired)",
        g.n,
        g.items,
        g.unpaired
    );
    outln!(
        out,
        "  mean |A−B| {:.4}  exact {}  within 1 {}  beyond 1 {}",
        g.mean_abs_diff,
        pct(g.exact_match),
        pct(g.within_one),
        pct(g.beyond_one)
    );
    outln!(
        out,
        "  Pearson r {}  Cohen's κ {}  quadratic κ {}",
        corr(&g.pearson),
        opt(g.kappa),
        opt(g.kappa_quadratic)
    );
    let t = &g.paired_test;
    outln!(
        out,
        "  paired permutation test of A−B: mean {:.4}, {} ({})",
        t.mean_diff,
        p_phrase(t.p),
        if t.exact {
            format!("exact over {} sign patterns", t.resamples)
        } else {
            format!("{} random sign patterns", t.resamples)
        }
    );
    print_ids(out, "A", &g.only_in_a);
    print_ids(out, "B", &g.only_in_b);
    for note in &g.notes {
        outln!(out, "  note: {note}");
    }
}

fn print_process_agreement(out: &mut String, p: &ProcessAgreement) {
    outln!(
        out,
        "Process agreement: A = {}, B = {}",
        p.files[0],
        p.files[1]
    );
    if let Some(h) = &p.hops {
        outln!(
            out,
            "  {} paired hops ({} unpaired): R r {} MAD {:.4}; D r {} MAD {:.4}; K accuracy {} κ {}",
            h.n,
            p.unpaired_hops,
            corr(&h.pearson_r),
            h.mad_r,
            corr(&h.pearson_d),
            h.mad_d,
            pct(h.k_accuracy),
            opt(h.k_kappa)
        );
    }
    if let Some(s) = &p.score {
        let t = &s.paired_test;
        outln!(
            out,
            "  item S_r over {} items: mean |A−B| {:.4}, Pearson r {}, paired test mean {:.4} {}",
            s.n,
            s.mean_abs_diff,
            corr(&s.pearson),
            t.mean_diff,
            p_phrase(t.p)
        );
    }
    print_ids(out, "A", &p.only_in_a);
    print_ids(out, "B", &p.only_in_b);
    for note in &p.notes {
        outln!(out, "  note: {note}");
    }
}
