//! `coglab describe` and `coglab sem` (Gold / PLS-SEM, issue 5). Every number printed here
//! comes from `coglab_core::sem`; the files are read by `coglab_run::sem` (shared with the
//! Python package).

use super::{emit, print_json, CliError};
use crate::cli::{ArenaArg, DescribeArgs, HtmtArg, MissingArg, PruneArg, SemArgs};
use coglab_core::sem::bootstrap::BootstrapOptions;
use coglab_core::sem::data::Missing;
use coglab_core::sem::{ArenaPlacement, HtmtVariant, PruneVariant, Scale, SemOptions, SemReport};
use coglab_core::stats::p_phrase;
use coglab_run::Source;

fn opt(v: Option<f64>) -> String {
    v.map_or_else(|| "-".to_string(), |x| format!("{x:.3}"))
}

/// `coglab describe DATA [--json]`.
pub fn describe(a: &DescribeArgs) -> Result<(), CliError> {
    let (d, notes) = coglab_run::sem::describe_with_notes(&Source::path(&a.data))?;
    for n in &notes {
        eprintln!("coglab: note: {}", super::escape_controls(n));
    }
    if a.json {
        return print_json(&d);
    }
    let mut out = String::new();
    outln!(
        out,
        "{:<24} {:>5} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>7} {:>7} {:>7}",
        "column",
        "n",
        "mean",
        "median",
        "min",
        "max",
        "sd",
        "skew(g1)",
        "exkurt",
        "cvm_W",
        "cvm_W*",
        "cvm_p"
    );
    for (name, s) in &d {
        outln!(
            out,
            "{:<24} {:>5} {:>9.3} {:>9.3} {:>9.3} {:>9.3} {:>9} {:>9} {:>9} {:>7} {:>7} {:>7}",
            name,
            s.n,
            s.mean,
            s.median,
            s.min,
            s.max,
            opt(s.sd),
            opt(s.skewness),
            opt(s.excess_kurtosis),
            opt(s.cvm_w),
            opt(s.cvm_w_star),
            opt(s.cvm_p)
        );
    }
    outln!(out, "(excess kurtosis = b2 - 3; Cramér-von Mises with estimated mean and SD, Stephens' W* and p)");
    emit(&out)
}

/// `coglab sem --spec SPEC DATA [--bootstrap N --seed S] [--prune] [--missing listwise|mean]
/// [--max-iter N] [--json]`.
pub fn sem(a: &SemArgs) -> Result<(), CliError> {
    let opts = SemOptions {
        missing: match a.missing {
            MissingArg::Listwise => Missing::Listwise,
            MissingArg::Mean => Missing::Mean,
        },
        bootstrap: a.bootstrap.map(|resamples| BootstrapOptions {
            resamples,
            seed: a.seed.unwrap_or(1),
        }),
        prune: a.prune.is_some(),
        max_iterations: a.max_iter,
        prune_variant: match a.prune {
            Some(PruneArg::Algorithm1) => PruneVariant::Algorithm1,
            _ => PruneVariant::Stepwise,
        },
        htmt: match a.htmt {
            HtmtArg::Standard => HtmtVariant::Standard,
            HtmtArg::Eq1 => HtmtVariant::Eq1,
        },
        arena: match a.arena {
            ArenaArg::Construct => ArenaPlacement::Construct,
            ArenaArg::TopIndicator => ArenaPlacement::TopIndicator,
        },
        scale: a.scale.map(|(low, high)| Scale { low, high }),
        exclude_out_of_range: a.exclude_out_of_range,
    };
    let report = coglab_run::sem::sem(&Source::path(&a.spec), &Source::path(&a.data), &opts)?;
    warn_listwise(&report);
    warn_out_of_range(&report);
    if a.json {
        return print_json(&report);
    }
    let mut out = String::new();
    print_report(&mut out, &report);
    emit(&out)
}

/// Prints the report's listwise-deletion warning (`SemReport::listwise_warning`, given when
/// more than [`coglab_core::limits::LISTWISE_WARN_SHARE`] of the models were dropped) on
/// stderr, with the command-line advice (issue 27, defect 9: 4,974 of 5,000 models went
/// without a word).
fn warn_listwise(report: &SemReport) {
    if let Some(w) = &report.listwise_warning {
        eprintln!(
            "coglab: WARNING: {}. Consider --missing mean or leaving out the sparsest columns.",
            crate::commands::escape_controls(&w.to_string())
        );
    }
}

/// Lists the task cells outside `--scale` on stderr, saying whether they were fitted or
/// treated as missing.
fn warn_out_of_range(report: &SemReport) {
    if report.out_of_range.is_empty() {
        return;
    }
    let cells: Vec<String> = report.out_of_range.iter().map(|c| c.to_string()).collect();
    eprintln!(
        "coglab: WARNING: {} task cell(s) outside the stated scale: {}; {}.",
        cells.len(),
        crate::commands::escape_controls(&cells.join("; ")),
        if report.out_of_range_excluded {
            "treated as missing (--exclude-out-of-range)"
        } else {
            "fitted as given (add --exclude-out-of-range to treat them as missing)"
        }
    );
}

fn print_report(out: &mut String, r: &SemReport) {
    outln!(
        out,
        "PLS-SEM: {} models ({} dropped, {} cells imputed), scheme {:?}, {} iterations",
        r.n_models,
        r.dropped_models.len(),
        r.imputed_cells,
        r.scheme,
        r.iterations
    );
    if let Some(h) = &r.human {
        outln!(
            out,
            "Human column {}: {}",
            h.column,
            r.arena_placement.label()
        );
    }
    outln!(out, "\nOuter model");
    outln!(
        out,
        "  {:<24} {:<16} {:>8} {:>8} {:>8}",
        "indicator",
        "construct",
        "weight",
        "loading",
        "VIF"
    );
    for (item, e) in &r.outer {
        outln!(
            out,
            "  {:<24} {:<16} {:>8.3} {:>8.3} {:>8}",
            item,
            e.construct,
            e.weight,
            e.loading,
            opt(r.vif.get(item).copied())
        );
    }
    outln!(out, "\nPaths");
    for (k, v) in &r.paths {
        let boot = r.bootstrap.as_ref().and_then(|b| b.paths.get(k));
        match boot {
            Some(b) => outln!(
                out,
                "  {k:<40} {v:>8.3}  (SE {:.3}, t {}, 95% CI [{:.3}, {:.3}])",
                b.se,
                opt(b.t),
                b.ci_low,
                b.ci_high
            ),
            None => outln!(out, "  {k:<40} {v:>8.3}"),
        }
    }
    for (k, v) in &r.r2 {
        outln!(
            out,
            "  R² {k:<37} {v:>8.3}  (adjusted {:.3})",
            r.r2_adj.get(k).copied().unwrap_or(*v)
        );
    }
    outln!(out, "\nReliability");
    outln!(
        out,
        "  {:<24} {:>8} {:>8} {:>8} {:>8}",
        "construct",
        "alpha",
        "rho_C",
        "rho_A",
        "AVE"
    );
    for (k, v) in &r.reliability {
        outln!(
            out,
            "  {k:<24} {:>8.3} {:>8.3} {:>8.3} {:>8.3}",
            v.alpha,
            v.rho_c,
            v.rho_a,
            v.ave
        );
    }
    outln!(out, "\nHTMT ({})", r.htmt_variant.label());
    for (k, v) in &r.htmt {
        outln!(out, "  {k:<40} {v:>8.3}");
    }
    let d = &r.diagnostics;
    outln!(
        out,
        "\nGold diagnostics: D_div {}  TC {:.3}  D_valid {:.3}  mean {:.3}",
        opt(d.d_div),
        d.tc,
        d.d_valid,
        d.mean
    );
    if !r.pruning.is_empty() {
        outln!(
            out,
            "\nPruning: {}",
            r.prune_variant.unwrap_or_default().label()
        );
        for (i, s) in r.pruning.iter().enumerate() {
            outln!(
                out,
                "  {}. removed {} ({}): {} = {:.3}",
                i + 1,
                s.removed,
                s.construct,
                s.reason,
                s.value
            );
        }
    }
    if let Some(h) = &r.human {
        outln!(
            out,
            "\nOverall score vs {}: Pearson r {:.4} ({}), Spearman rho {:.4} ({}), n {}",
            h.column,
            h.pearson.r,
            p_phrase(h.pearson.p),
            h.spearman.r,
            p_phrase(h.spearman.p),
            h.pearson.n
        );
    }
    if let Some(b) = &r.bootstrap {
        outln!(
            out,
            "\nBootstrap: {} resamples (seed {}), {} failed",
            b.resamples,
            b.seed,
            b.failed
        );
    }
}
