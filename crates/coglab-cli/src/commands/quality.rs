//! `coglab quality BENCH [--answers KEY | --metadata META] FILES...` (issue 40, item 3): the
//! benchmark quality panel of a board, per benchmark and per category: reliability (KR-20 on
//! 0/1 items, else Cronbach's alpha), standard error of measurement, signal (SD of the model
//! scores), noise (bootstrap SD of a model's score, or regeneration SD for KiVA), their ratio,
//! and the smallest difference the items tell apart, with a warning for categories too small
//! to separate the models given.
//!
//! A thin wrapper over `coglab_core::ranks::quality`: the board's files are read as `coglab
//! rank` reads them (`coglab_run::rank::quality`), then printed as a table or JSON.

use coglab_core::ranks::inputs::KivaStage;
use coglab_core::ranks::quality::{NoiseKind, QualityPanel, QualityRow};
use coglab_core::ranks::{Bench, BoardOptions};
use coglab_run::rank::{RankEntry, RankRequest};
use coglab_run::Source;

use super::{emit, print_json, CliError};
use crate::cli::QualityArgs;

/// Usage line of `coglab quality`.
pub const USAGE: &str = "quality mmiq|kiva|mmopera [--answers KEY] [--metadata META] [NAME=]PATH...
              [--power P] [--alpha A] [--stage STAGE] [--json]";

/// Runs `coglab quality`.
///
/// # Errors
/// [`CliError::Usage`] for an unknown benchmark or stage, a missing key, `--power` or
/// `--alpha` outside (0, 1); [`CliError::Input`] when a file cannot be read or scored.
pub fn run(a: &QualityArgs) -> Result<(), CliError> {
    let usage = |m: String| CliError::Usage(format!("{m}\n  usage: coglab {USAGE}"));
    let bench = Bench::parse(&a.bench).ok_or_else(|| {
        usage(format!(
            "quality: unknown benchmark {:?} (mmiq, kiva or mmopera)",
            a.bench
        ))
    })?;
    if bench == Bench::Mmiq && a.answers.is_none() {
        return Err(usage("quality mmiq: --answers KEY is required".into()));
    }
    for (name, v) in [("--power", a.power), ("--alpha", a.alpha)] {
        if !(v > 0.0 && v < 1.0) {
            return Err(usage(format!("{name}: {v} is not between 0 and 1")));
        }
    }
    let stage = match &a.stage {
        Some(s) => KivaStage::parse(s).ok_or_else(|| {
            usage(format!(
                "--stage: {s:?} is not cross, within_joint, within_conditional or extrapolation"
            ))
        })?,
        None => KivaStage::Cross,
    };
    let request = RankRequest {
        bench,
        answers: a.answers.as_ref().map(Source::path),
        metadata: a.metadata.as_ref().map(Source::path),
        entries: a.files.iter().map(|f| RankEntry::parse(f)).collect(),
        stage,
        board: BoardOptions {
            alpha: a.alpha,
            power: a.power,
            resamples: 0,
            ..BoardOptions::default()
        },
    };
    let panel = coglab_run::rank::quality(&request)?;
    if a.json {
        print_json(&panel)
    } else {
        emit(&render(&panel))
    }
}

fn num(x: Option<f64>, digits: usize) -> String {
    x.map_or_else(|| "-".into(), |v| format!("{v:.digits$}"))
}

fn pts(x: Option<f64>) -> String {
    x.map_or_else(|| "-".into(), |v| format!("{:.1}", 100.0 * v))
}

fn line(out: &mut String, r: &QualityRow) {
    outln!(
        out,
        "{:<24} {:>6} {:>6} {:>7} {:>6} {:>7} {:>7} {:>6} {:>6}",
        r.label,
        r.items,
        r.models,
        num(r.reliability, 3),
        pts(r.sem),
        pts(r.signal),
        pts(r.noise),
        num(r.ratio, 1),
        pts(r.mdd)
    );
}

fn render(p: &QualityPanel) -> String {
    let mut out = String::new();
    let bench = match p.bench {
        Bench::Mmiq => "MM-IQ",
        Bench::Kiva => "KiVA",
        Bench::Mmopera => "MM-OPERA",
    };
    let noise = match p.overall.noise_kind {
        NoiseKind::Bootstrap => "bootstrap SD of a model's score over items",
        NoiseKind::Regeneration => "SD of a model's score over regenerations, items fixed",
    };
    outln!(
        out,
        "{bench} quality: {} models, {} items (α = {}, power {:.0}%)",
        p.overall.models,
        p.overall.items,
        p.alpha,
        p.power * 100.0
    );
    outln!(
        out,
        "{:<24} {:>6} {:>6} {:>7} {:>6} {:>7} {:>7} {:>6} {:>6}",
        "set",
        "items",
        "models",
        p.overall.reliability_kind,
        "SEM",
        "signal",
        "noise",
        "ratio",
        "MDD"
    );
    line(&mut out, &p.overall);
    for r in &p.categories {
        line(&mut out, r);
    }
    outln!(
        out,
        "\nSEM, signal, noise and MDD in points (percent). signal: SD of the model scores; \
         noise: {noise}; ratio: signal / noise; MDD: the smallest difference the set's items \
         tell apart ({}).",
        if p.method == "mcnemar" {
            "Connor's formula on the median discordant share"
        } else {
            "paired normal formula on the median SD of item differences"
        }
    );
    for w in &p.warnings {
        outln!(out, "warning: {w}");
    }
    for n in &p.notes {
        outln!(out, "note: {n}");
    }
    out
}
