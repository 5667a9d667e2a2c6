//! `coglab plan BENCH [--answers KEY | --metadata META] FILES... --mde D` (issue 40, item 2):
//! the items a board needs to detect a difference the user types, from each pair's observed
//! discordance (Connor's formula), beside the board's current minimum detectable difference,
//! and, where items have regenerations, what K regenerations per item buy.
//!
//! A thin wrapper over `coglab_core::ranks::plan`: the board's files are read as `coglab rank`
//! reads them (`coglab_run::rank::board_input`), then planned and printed as a table or JSON.

use coglab_core::ranks::inputs::KivaStage;
use coglab_core::ranks::plan::{plan, Plan};
use coglab_core::ranks::{Bench, BoardOptions, Missing, PairTest};
use coglab_run::rank::{board_input, RankEntry, RankRequest};
use coglab_run::Source;

use super::{emit, print_json, CliError};
use crate::cli::PlanArgs;

/// Usage line of `coglab plan`.
pub const USAGE: &str = "plan mmiq|kiva|mmopera [--answers KEY] [--metadata META] [NAME=]PATH...
              --mde D [--power P] [--alpha A] [--answered-only] [--test mcnemar|midp|wilcoxon]
              [--stage STAGE] [--json]";

/// Everything `coglab plan` needs.
#[derive(Debug, Clone)]
pub struct PlanOptions {
    /// The board's inputs, as `coglab rank` reads them (no bootstrap).
    pub request: RankRequest,
    /// The difference to detect (fraction of the score scale).
    pub mde: f64,
    /// JSON output.
    pub json: bool,
}

impl PlanOptions {
    /// Reads the options from `coglab plan`'s arguments.
    ///
    /// # Errors
    /// [`CliError::Usage`] for an unknown benchmark, test or stage, and for `--mde`,
    /// `--power` or `--alpha` outside (0, 1).
    pub fn from_cli(a: &PlanArgs) -> Result<Self, CliError> {
        let usage = |m: String| CliError::Usage(format!("{m}\n  usage: coglab {USAGE}"));
        let bench = Bench::parse(&a.bench).ok_or_else(|| {
            usage(format!(
                "plan: unknown benchmark {:?} (mmiq, kiva or mmopera)",
                a.bench
            ))
        })?;
        if bench == Bench::Mmiq && a.answers.is_none() {
            return Err(usage("plan mmiq: --answers KEY is required".into()));
        }
        for (name, v, hint) in [
            ("--mde", a.mde, " (a fraction: 0.03 = 3 points)"),
            ("--power", a.power, ""),
            ("--alpha", a.alpha, ""),
        ] {
            if !(v > 0.0 && v < 1.0) {
                return Err(usage(format!("{name}: {v} is not between 0 and 1{hint}")));
            }
        }
        let test =
            match &a.test {
                Some(t) => Some(PairTest::parse(t).ok_or_else(|| {
                    usage(format!("--test: {t:?} is not mcnemar, midp or wilcoxon"))
                })?),
                None => None,
            };
        let stage = match &a.stage {
            Some(s) => KivaStage::parse(s).ok_or_else(|| {
                usage(format!(
                    "--stage: {s:?} is not cross, within_joint, within_conditional or extrapolation"
                ))
            })?,
            None => KivaStage::Cross,
        };
        let board = BoardOptions {
            missing: if a.answered_only {
                Missing::AnsweredOnly
            } else {
                Missing::Wrong
            },
            test,
            alpha: a.alpha,
            power: a.power,
            resamples: 0,
            ..BoardOptions::default()
        };
        Ok(Self {
            request: RankRequest {
                bench,
                answers: a.answers.as_ref().map(Source::path),
                metadata: a.metadata.as_ref().map(Source::path),
                entries: a.files.iter().map(|f| RankEntry::parse(f)).collect(),
                stage,
                board,
            },
            mde: a.mde,
            json: a.json,
        })
    }
}

/// Runs `coglab plan`.
///
/// # Errors
/// [`CliError::Usage`] for missing options, [`CliError::Input`] when a file cannot be read or
/// scored (naming it), or fewer than two models could be scored.
pub fn run(opts: &PlanOptions) -> Result<(), CliError> {
    let input = board_input(&opts.request)?;
    let p = plan(&input, &opts.request.board, opts.mde)?;
    if opts.json {
        print_json(&p)
    } else {
        emit(&render(&p))
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}", 100.0 * x)
}

fn count(n: Option<u64>) -> String {
    n.map_or_else(|| "-".into(), |n| n.to_string())
}

fn render(p: &Plan) -> String {
    let mut out = String::new();
    let bench = match p.bench {
        Bench::Mmiq => "MM-IQ",
        Bench::Kiva => "KiVA",
        Bench::Mmopera => "MM-OPERA",
    };
    let mcnemar = p.method == "mcnemar";
    let spread_name = if mcnemar {
        "discordant share ψ"
    } else {
        "SD of item differences"
    };
    outln!(
        out,
        "{bench} plan: {} pair(s) over {} items, {} ({}; α = {}, power {:.0}%)",
        p.pairs.len(),
        p.benchmark_size,
        p.test,
        if mcnemar {
            "Connor's formula on each pair's discordant share ψ"
        } else {
            "normal approximation on each pair's SD of item differences"
        },
        p.alpha,
        100.0 * p.power
    );
    match &p.mdd {
        Some(m) => outln!(out, "now: {}", m.text),
        None if p.summary.is_some() => outln!(
            out,
            "now: too few items to detect any difference at this power (α = {})",
            p.alpha
        ),
        None => {}
    }
    if let Some(s) = &p.summary {
        match s.items {
            Some(n) => outln!(
                out,
                "to detect {} points: {n} items per pair at the median {spread_name} {:.3} (pairs need {} to {})",
                pct(p.mde),
                s.spread,
                count(s.min_items),
                count(s.max_items)
            ),
            None => outln!(
                out,
                "to detect {} points: not reachable at the median {spread_name} {:.3}",
                pct(p.mde),
                s.spread
            ),
        }
        if let (Some(e), Some(n)) = (s.exact_power, s.items) {
            outln!(
                out,
                "  (Connor's count is for the asymptotic McNemar test; the exact test has power {:.1}% at {n} items)",
                100.0 * e
            );
        }
    }
    if !p.pairs.is_empty() {
        outln!(out, "\npairs (a above b):");
        outln!(
            out,
            "  {:<24} {:<24} {:>6} {:>7} {:>10} {:>8}",
            "a",
            "b",
            "n now",
            if mcnemar { "ψ" } else { "sd" },
            "items",
            "x now"
        );
        for r in &p.pairs {
            let ratio = match (r.items, r.n) {
                (Some(i), n) if n > 0 => format!("{:.1}", i as f64 / n as f64),
                _ => "-".into(),
            };
            outln!(
                out,
                "  {:<24} {:<24} {:>6} {:>7} {:>10} {:>8}",
                r.a,
                r.b,
                r.n,
                r.spread.map_or_else(|| "-".into(), |s| format!("{s:.3}")),
                count(r.items),
                ratio
            );
        }
    }
    if !p.replicates.is_empty() {
        outln!(
            out,
            "\nregenerations: variance of a model's replicate scores between and within items, and the SE of its score (points) at {} items with K per item:",
            p.benchmark_size
        );
        let ks: Vec<String> = p
            .replicates
            .first()
            .map(|r| r.se.iter().map(|(k, _)| format!("K={k}")).collect())
            .unwrap_or_default();
        outln!(
            out,
            "  {:<28} {:>6} {:>5} {:>9} {:>9}  {}",
            "model",
            "items",
            "reps",
            "between",
            "within",
            ks.iter()
                .map(|k| format!("{k:>6}"))
                .collect::<Vec<_>>()
                .join(" ")
        );
        for r in &p.replicates {
            outln!(
                out,
                "  {:<28} {:>6} {:>5.1} {:>9.4} {:>9.4}  {}",
                r.model,
                r.split.items,
                r.split.mean_replicates,
                r.split.between,
                r.split.within,
                r.se.iter()
                    .map(|(_, se)| format!("{:>6.2}", 100.0 * se))
                    .collect::<Vec<_>>()
                    .join(" ")
            );
        }
        outln!(
            out,
            "  more regenerations shrink only the within part: the SE stays above √(between / items)"
        );
    }
    for n in &p.notes {
        outln!(out, "note: {n}");
    }
    out
}
