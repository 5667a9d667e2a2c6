//! `coglab rank BENCH [--answers KEY | --metadata META] FILES...` (issue 20): a leaderboard
//! with paired tests, adjusted p-values, rank ranges and groups, from one file or folder per
//! model (`NAME=PATH` names it; otherwise the name is guessed from the path as the web
//! leaderboard does).
//!
//! A thin wrapper over `coglab_core::ranks`: read the files, call the library, print a table
//! or JSON. The options are a plain struct ([`RankOptions`]), read from the clap arguments
//! ([`RankArgs`]).

use coglab_core::ranks::inputs::KivaStage;
use coglab_core::ranks::{Adjust, Bench, BoardOptions, Missing, PairTest, RankRange};
use coglab_run::rank::{rank, RankEntry, RankOutput, RankRequest};
use coglab_run::Source;

use super::{emit, print_json as emit_json, CliError};
use crate::cli::RankArgs;

pub use coglab_run::rank::USAGE;

/// Everything `coglab rank` needs.
#[derive(Debug, Clone, PartialEq)]
pub struct RankOptions {
    /// The benchmark.
    pub bench: Bench,
    /// MM-IQ answer key (required for MM-IQ).
    pub answers: Option<String>,
    /// MM-OPERA metadata (its ids are the benchmark's items; without it the judged items are).
    pub metadata: Option<String>,
    /// One entry per model: `PATH` or `NAME=PATH`; a file or a folder (KiVA run folder, or a
    /// folder of one model's MM-OPERA judge files). MM-OPERA files of one model name from
    /// several judges are pooled on the board and compared in the judge table.
    pub files: Vec<String>,
    /// KiVA stage ranked.
    pub stage: KivaStage,
    /// Board options (missing items, test, adjustment, α, resamples, seed, rank range).
    pub board: BoardOptions,
    /// JSON output.
    pub json: bool,
}

impl RankOptions {
    /// Reads the options from `coglab rank`'s arguments.
    ///
    /// # Errors
    /// [`CliError::Usage`] for an unknown benchmark or value.
    pub fn from_cli(a: &RankArgs) -> Result<Self, CliError> {
        let usage = |m: String| CliError::Usage(format!("{m}\n  usage: coglab {USAGE}"));
        let bench = Bench::parse(&a.bench).ok_or_else(|| {
            usage(format!(
                "rank: unknown benchmark {:?} (mmiq, kiva or mmopera)",
                a.bench
            ))
        })?;
        let defaults = BoardOptions::default();
        let board = BoardOptions {
            missing: if a.answered_only {
                Missing::AnsweredOnly
            } else {
                Missing::Wrong
            },
            test: match &a.test {
                Some(t) => Some(PairTest::parse(t).ok_or_else(|| {
                    usage(format!("--test: {t:?} is not mcnemar, midp or wilcoxon"))
                })?),
                None => None,
            },
            adjust: match &a.adjust {
                Some(s) => Adjust::parse(s)
                    .ok_or_else(|| usage(format!("--adjust: {s:?} is not holm, bh or none")))?,
                None => defaults.adjust,
            },
            alpha: a.alpha.unwrap_or(defaults.alpha),
            resamples: a.resamples.unwrap_or(defaults.resamples),
            seed: a.seed.unwrap_or(defaults.seed),
            range: if a.bootstrap_ranks {
                RankRange::Bootstrap
            } else {
                RankRange::Tests
            },
            ..defaults
        };
        if !(board.alpha > 0.0 && board.alpha < 1.0) {
            return Err(usage(format!(
                "--alpha: {} is not between 0 and 1",
                board.alpha
            )));
        }
        let stage = match &a.stage {
            Some(s) => KivaStage::parse(s).ok_or_else(|| {
                usage(format!(
                    "--stage: {s:?} is not cross, within_joint, within_conditional or extrapolation"
                ))
            })?,
            None => KivaStage::Cross,
        };
        Ok(Self {
            bench,
            answers: a.answers.clone(),
            metadata: a.metadata.clone(),
            files: a.files.clone(),
            stage,
            board,
            json: a.json,
        })
    }
}

impl RankOptions {
    /// The request `coglab_run::rank` reads (`NAME=PATH` entries split).
    pub fn request(&self) -> RankRequest {
        RankRequest {
            bench: self.bench,
            answers: self.answers.as_ref().map(Source::path),
            metadata: self.metadata.as_ref().map(Source::path),
            entries: self.files.iter().map(|f| RankEntry::parse(f)).collect(),
            stage: self.stage,
            board: self.board,
        }
    }
}

/// Runs `coglab rank` (`coglab_run::rank`, shared with the Python package) and prints the
/// board.
///
/// # Errors
/// [`CliError::Usage`] for missing options, [`CliError::Input`] when a required file cannot be
/// read or scored (naming it), or no model could be scored.
pub fn run(opts: &RankOptions) -> Result<(), CliError> {
    let out = rank(&opts.request())?;
    if opts.json {
        emit_json(&out)
    } else {
        emit(&render(&out))
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}", 100.0 * x)
}

fn p_text(p: Option<f64>) -> String {
    match p {
        None => "-".into(),
        Some(p) => coglab_core::stats::format_p(p),
    }
}

fn render(o: &RankOutput) -> String {
    let b = &o.board;
    let mut out = String::new();
    let bench = match b.bench {
        Bench::Mmiq => "MM-IQ",
        Bench::Kiva => "KiVA",
        Bench::Mmopera => "MM-OPERA",
    };
    outln!(
        out,
        "{bench} board: {} computed rows, {} items; scores with {}",
        b.models.len(),
        b.benchmark_size,
        b.missing_label
    );
    outln!(
        out,
        "pairs: {} on shared items, p adjusted by {}, α = {}; rank = {}",
        b.test,
        b.adjust,
        b.alpha,
        match b.range {
            RankRange::Tests => "best-worst rank consistent with the tests",
            RankRange::Bootstrap => "95% bootstrap rank interval",
        }
    );
    if let Some(m) = &b.mdd {
        outln!(out, "{}", m.text);
    }
    outln!(out, "");
    outln!(
        out,
        "{:<7} {:<28} {:>7} {:>15} {:>6} {:>9} {:>7}",
        "rank",
        "model",
        "score",
        "coverage",
        "group",
        "boot rank",
        "leader"
    );
    for m in &b.models {
        let rank = if m.rank_low == m.rank_high {
            m.rank_low.to_string()
        } else {
            format!("{}-{}", m.rank_low, m.rank_high)
        };
        let cov = format!(
            "{}/{}{}",
            m.n,
            m.benchmark_size,
            if m.full_coverage { "" } else { " (!)" }
        );
        let boot = match (m.boot_rank_low, m.boot_rank_high) {
            (Some(l), Some(h)) => format!("{l}-{h}"),
            _ => "-".into(),
        };
        outln!(
            out,
            "{:<7} {:<28} {:>7} {:>15} {:>6} {:>9} {:>7}",
            rank,
            m.name,
            pct(m.score),
            cov,
            m.group,
            boot,
            if m.leader_group { "yes" } else { "" }
        );
        if let Some(c) = &m.clustered {
            if (c.ratio - 1.0).abs() > 0.01 {
                outln!(
                    out,
                    "        SE {:.2} points naive (replicates independent), {:.2} clustered by item ({} items; KiVA: trials)",
                    100.0 * c.se_naive,
                    100.0 * c.se_clustered,
                    c.clusters
                );
            }
        }
    }
    if b.models.iter().any(|m| !m.full_coverage) {
        outln!(out, "(!) below full coverage: {}", b.missing_label);
    }
    if !b.reported.is_empty() {
        outln!(
            out,
            "\nreported rows (no item data: interval display only, not tested):"
        );
        for r in &b.reported {
            outln!(
                out,
                "  {:<28} {:>7}  interval rank {}",
                r.name,
                pct(r.score),
                r.interval_rank
            );
        }
    }
    if !b.pairs.is_empty() {
        outln!(out, "\npairs (a above b):");
        outln!(
            out,
            "  {:<24} {:<24} {:>6} {:>7} {:>17} {:>9} {:>9}",
            "a",
            "b",
            "n",
            "diff",
            "95% bootstrap",
            "p",
            "p adj"
        );
        for p in &b.pairs {
            let ci = match (p.diff_low, p.diff_high) {
                (Some(l), Some(h)) => format!("[{}, {}]", pct(l), pct(h)),
                _ => "-".into(),
            };
            outln!(
                out,
                "  {:<24} {:<24} {:>6} {:>7} {:>17} {:>9} {:>9}{}",
                p.a,
                p.b,
                p.n_shared,
                pct(p.diff),
                ci,
                p_text(p.p),
                p_text(p.p_adjusted),
                if p.significant { " *" } else { "" }
            );
        }
    }
    if let Some(e) = &o.extraction {
        outln!(
            out,
            "\nanswer extraction (scores over {} items):",
            e.benchmark_size
        );
        outln!(
            out,
            "  {:<28} {:>9} {:>9} {:>9} {:>7} {:>8} {:>6}",
            "model",
            "official",
            "strict",
            "lenient",
            "range",
            "ranks",
            "flips"
        );
        for r in &e.rows {
            outln!(
                out,
                "  {:<28} {:>9} {:>9} {:>9} {:>7} {:>8} {:>6}",
                r.name,
                pct(r.scores[0]),
                pct(r.scores[1]),
                pct(r.scores[2]),
                pct(r.score_range),
                format!("{}/{}/{}", r.ranks[0], r.ranks[1], r.ranks[2]),
                r.flips.len()
            );
        }
        for n in &e.notes {
            outln!(out, "  note: {n}");
        }
    }
    if let Some(e) = &o.kiva_extraction {
        outln!(
            out,
            "\nstage {} answers: official verdicts, strict (the option stated up front), lenient (the first option label or text anywhere):",
            e.stage
        );
        for r in &e.rows {
            outln!(
                out,
                "  {:<28} official {:>6}  strict {:>6}  lenient {:>6} (undetermined {}, up to {})  ranks {}/{}/{}  flips {}",
                r.name,
                pct(r.scores[0]),
                pct(r.scores[1]),
                pct(r.scores[2]),
                r.lenient_undetermined,
                pct(r.lenient_high),
                r.ranks[0],
                r.ranks[1],
                r.ranks[2],
                r.flip_count
            );
        }
        for n in &e.notes {
            outln!(out, "  note: {n}");
        }
    }
    if let Some(j) = &o.judges {
        outln!(out, "\njudges: {}", j.judges.join(", "));
        for (m, row) in j.models.iter().zip(&j.sr) {
            let cells: Vec<String> = row
                .iter()
                .map(|v| v.map_or_else(|| "-".into(), pct))
                .collect();
            outln!(out, "  {:<28} SR {}", m, cells.join(" / "));
        }
        if let Some(a) = j.alpha {
            outln!(
                out,
                "  Krippendorff's α (ordinal) {a:.3} over {} shared units",
                j.alpha_units
            );
        }
        for t in &j.tau {
            outln!(
                out,
                "  Kendall's τ-b {} vs {}: {} ({} models)",
                t.a,
                t.b,
                t.tau_b.map_or_else(|| "-".into(), |x| format!("{x:.3}")),
                t.models
            );
        }
        for d in j.disagreements.iter().take(5) {
            outln!(
                out,
                "  largest disagreement: {} {} (spread {:.2} points of 4)",
                d.model,
                d.item,
                d.spread
            );
        }
        for n in &j.notes {
            outln!(out, "  note: {n}");
        }
    }
    for n in &b.notes {
        outln!(out, "note: {n}");
    }
    out
}
