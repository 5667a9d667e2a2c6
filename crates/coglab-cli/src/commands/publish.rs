//! `coglab publish DIR --out OUT` and `coglab verify OUT [--inputs DIR]` (issue 21), over
//! [`coglab_run::publish`].

use std::path::Path;

use coglab_core::publish::bundle::Figures;

use super::{emit, print_json, CliError};
use crate::cli::{PublishArgs, VerifyArgs};

fn summary(index: &coglab_core::publish::Index, out: &str, verb: &str) -> String {
    let mut s = String::new();
    let runs: usize = index.models.iter().map(|m| m.runs.len()).sum();
    outln!(
        s,
        "{verb} {out}: {} models, {runs} runs (coglab {})",
        index.models.len(),
        index.coglab
    );
    for m in &index.models {
        for r in &m.runs {
            let fig = match &r.figures {
                Figures::Mmiq { overall, .. } => format!(
                    "accuracy {:.2}% [{:.2}, {:.2}]",
                    overall.acc * 100.0,
                    overall.lo * 100.0,
                    overall.hi * 100.0
                ),
                Figures::Kiva { overall, .. } => overall.cross.map_or_else(
                    || "stage 1: none".into(),
                    |c| {
                        format!(
                            "stage 1 {:.2}% [{:.2}, {:.2}]",
                            c.mean * 100.0,
                            c.lo * 100.0,
                            c.hi * 100.0
                        )
                    },
                ),
                Figures::Mmopera { sr, .. } => sr.map_or_else(
                    || "SR: none".into(),
                    |v| {
                        format!(
                            "SR {:.2}% [{:.2}, {:.2}]",
                            v.v * 100.0,
                            v.lo * 100.0,
                            v.hi * 100.0
                        )
                    },
                ),
                Figures::Gold {
                    overall,
                    rank_weighted,
                    n_models,
                    ..
                } => format!("weighted overall {overall:.2} (rank {rank_weighted} of {n_models})"),
                _ => String::new(),
            };
            outln!(
                s,
                "  {:<28} {:<12} {fig}; {} file(s)",
                m.name,
                r.benchmark.key(),
                r.files.len()
            );
        }
    }
    let flagged: Vec<_> = index.audit.iter().filter(|a| a.flagged).collect();
    if !index.audit.is_empty() {
        outln!(
            s,
            "audit: {} figures with a reported twin, {} flagged",
            index.audit.len(),
            flagged.len()
        );
        for a in flagged {
            outln!(
                s,
                "  {} {} {}: computed {:.2} [{:.2}, {:.2}], reported {} ({}), gap {:+.2}",
                a.model,
                a.benchmark.key(),
                a.column,
                a.computed,
                a.interval.0,
                a.interval.1,
                a.reported,
                a.source,
                a.gap
            );
        }
    }
    s
}

/// `coglab publish`.
pub fn publish(args: &PublishArgs) -> Result<(), CliError> {
    let index = coglab_run::publish::publish(Path::new(&args.dir), Path::new(&args.out))?;
    if args.json {
        print_json(&index)
    } else {
        emit(&summary(&index, &args.out, "published"))
    }
}

/// `coglab verify`.
pub fn verify(args: &VerifyArgs) -> Result<(), CliError> {
    let index =
        coglab_run::publish::verify(Path::new(&args.out), args.inputs.as_deref().map(Path::new))?;
    emit(&format!(
        "verified {}: {} models, every input file and bundle file as published\n",
        args.out,
        index.models.len()
    ))
}
