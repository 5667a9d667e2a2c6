//! `coglab items`: item analysis across models and humans (issue 22).
//!
//! Reads scored results and prints the item analysis of `coglab_core::items` (classical
//! statistics, Rasch/2PL fit, flags, group gaps, reduced subset) as a table or JSON. Inputs:
//! - `--answers KEY` and MM-IQ predictions files: one respondent per file;
//! - KiVA: model-run folders (each folder one model, its CSVs found recursively) and/or the
//!   adults' `human_adults_KiVA.csv` (one respondent per participant);
//! - otherwise one response-matrix CSV (respondent id, then 1/0/empty per item).
//!
//! The options live in [`ItemsOptions`] so the argument parser can change without touching
//! [`run`].

use super::{emit, print_json as emit_json, CliError};
use crate::cli::ItemsArgs;
use coglab_core::items::anchor::AnchorMethod;
use coglab_core::items::{IrtModel, ItemAnalysis, KivaStages, SubsetCriterion};
use coglab_run::items::{AnchorRequest, ItemsRequest};
use coglab_run::Source;

/// The options of `coglab items`: what `coglab_run::items` reads (shared with the Python
/// package), and how the CLI prints it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ItemsOptions {
    /// The inputs and the analysis options.
    pub request: ItemsRequest,
    /// Print JSON instead of a table.
    pub json: bool,
    /// With `json`: print the page-sized [`coglab_core::items::ItemsReport`].
    pub report: bool,
    /// `--subset anchor`: choose anchor items instead of the analysis.
    pub anchor: Option<AnchorRequest>,
}

impl ItemsOptions {
    /// Reads the options from `coglab items`' arguments.
    ///
    /// # Errors
    /// [`CliError::Usage`] for bad values or no input.
    pub fn from_cli(a: &ItemsArgs) -> Result<Self, CliError> {
        let mut r = ItemsRequest {
            curves: a.curves,
            per_subdomain: a.per_subdomain,
            answers: a.answers.as_ref().map(Source::path),
            inputs: a.inputs.iter().map(Source::path).collect(),
            ..ItemsRequest::default()
        };
        if let Some(m) = a.model.as_deref() {
            r.model = IrtModel::parse(m).map_err(|e| CliError::Usage(e.to_string()))?;
        }
        if let Some(s) = a.stage.as_deref() {
            r.stage = match s {
                "all" => KivaStages::All,
                "cross" => KivaStages::Cross,
                "within" => KivaStages::Within,
                "extrapolation" => KivaStages::Extrapolation,
                _ => {
                    return Err(CliError::Usage(format!(
                        "--stage: expected all, cross, within or extrapolation, found {s:?}"
                    )))
                }
            };
        }
        if let Some(t) = a.threshold {
            r.threshold = t;
        }
        if let Some(t) = a.tau {
            r.target_tau = t;
        }
        let anchor_only = |name: &str, given: bool| {
            if given && a.subset.as_deref() != Some("anchor") {
                Err(CliError::Usage(format!(
                    "{name} is for --subset anchor; add --subset anchor --k K"
                )))
            } else {
                Ok(())
            }
        };
        anchor_only("--k", a.k.is_some())?;
        anchor_only("--anchor-method", a.anchor_method.is_some())?;
        anchor_only("--options", a.options.is_some())?;
        let mut anchor = None;
        if a.subset.as_deref() == Some("anchor") {
            let Some(k) = a.k else {
                return Err(CliError::Usage(
                    "--subset anchor needs --k K (how many anchor items)".into(),
                ));
            };
            let method = match a.anchor_method.as_deref() {
                None => AnchorMethod::Information,
                Some(m) => AnchorMethod::parse(m).map_err(|e| CliError::Usage(e.to_string()))?,
            };
            if a.report {
                return Err(CliError::Usage(
                    "--report is for the item analysis, not --subset anchor".into(),
                ));
            }
            anchor = Some(AnchorRequest {
                k,
                method,
                options: a.options.unwrap_or(4),
            });
        } else if let Some(s) = a.subset.as_deref() {
            r.subset = match s {
                "information" => Some(SubsetCriterion::Information),
                "discrimination" => Some(SubsetCriterion::Discrimination),
                "none" => None,
                _ => {
                    return Err(CliError::Usage(format!(
                    "--subset: expected information, discrimination, none or anchor, found {s:?}"
                )))
                }
            };
        }
        if r.inputs.is_empty() {
            return Err(CliError::Usage(
                "items: give a response-matrix CSV, KiVA run folders and/or the adults' CSV, \
                 or MM-IQ predictions files with --answers KEY"
                    .into(),
            ));
        }
        Ok(Self {
            request: r,
            json: a.json,
            report: a.report,
            anchor,
        })
    }
}

/// `coglab items`: builds the matrix, runs the analysis (`coglab_run::items`, shared with the
/// Python package) and prints it.
///
/// # Errors
/// [`CliError::Input`] for unreadable or invalid files or a matrix that cannot be analysed
/// (the message says why), [`CliError::Usage`] for a combination that makes no matrix.
pub fn run(opts: &ItemsOptions) -> Result<(), CliError> {
    let request = &opts.request;
    if let Some(req) = &opts.anchor {
        let out = coglab_run::items::anchors(request, req)?;
        if opts.json {
            return emit_json(&out);
        }
        // One id per line, nothing else: a harness reads the list as it is.
        let mut text = String::new();
        for a in &out.anchors {
            outln!(text, "{}", a.id);
        }
        return emit(&text);
    }
    if opts.json && opts.report {
        return emit_json(&coglab_run::items::report(request)?);
    }
    let a = coglab_run::items::items(request)?;
    if opts.json {
        emit_json(&a)
    } else {
        let mut out = String::new();
        print_analysis(&mut out, &a);
        emit(&out)
    }
}

fn num(v: Option<f64>, digits: usize) -> String {
    v.map_or_else(|| "-".into(), |x| format!("{x:.digits$}"))
}

fn print_analysis(out: &mut String, a: &ItemAnalysis) {
    let model = match a.model {
        IrtModel::Rasch => "Rasch",
        IrtModel::TwoPl => "2PL",
    };
    outln!(
        out,
        "Item analysis of {}: {} respondents x {} items; {model} {} after {} EM cycles (log-likelihood {:.2})",
        a.source,
        a.respondents.len(),
        a.items.len(),
        if a.converged { "converged" } else { "did NOT converge" },
        a.iterations,
        a.irt.log_likelihood
    );
    let c = &a.classical;
    outln!(
        out,
        "Cronbach's alpha {} on {} complete respondents",
        num(c.alpha, 3),
        c.alpha_n
    );
    if let Some((letter, share)) = &c.key_letters.majority {
        outln!(
            out,
            "answer keys: {} (majority-class baseline: always {letter} = {:.1}%)",
            c.key_letters
                .counts
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", "),
            100.0 * share
        );
    }
    if let Some((letter, share)) = &c.response_letters.majority {
        outln!(
            out,
            "answers given: most common {letter} ({:.1}% of {})",
            100.0 * share,
            c.response_letters.total
        );
    }
    let count =
        |f: coglab_core::items::Flag| a.items.iter().filter(|i| i.flags.contains(&f)).count();
    use coglab_core::items::Flag;
    outln!(
        out,
        "flags: {} no one right, {} everyone right, {} negative discrimination, {} low discrimination, {} negative 2PL slope, {} poor fit, {} S-X2 misfit",
        count(Flag::NoneRight),
        count(Flag::AllRight),
        count(Flag::NegativeDiscrimination),
        count(Flag::LowDiscrimination),
        count(Flag::NegativeSlope),
        count(Flag::PoorFit),
        count(Flag::Sx2Misfit)
    );
    let suspects: Vec<_> = a
        .items
        .iter()
        .filter(|i| {
            i.flags.iter().any(|f| {
                matches!(
                    f,
                    Flag::NegativeDiscrimination
                        | Flag::NegativeSlope
                        | Flag::PoorFit
                        | Flag::Sx2Misfit
                )
            })
        })
        .collect();
    if !suspects.is_empty() {
        outln!(
            out,
            "\nsuspect items (up to 30):\n{:<28} {:>5} {:>6} {:>7} {:>7} {:>7} {:>7} {:>9}  flags / most frequent wrong answer",
            "item",
            "n",
            "p",
            "r_pb",
            "a",
            "b",
            "outfit",
            "S-X2 p"
        );
        for i in suspects.iter().take(30) {
            let flags: Vec<String> = i
                .flags
                .iter()
                .map(|f| {
                    serde_json::to_value(f)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_string))
                        .unwrap_or_default()
                })
                .collect();
            let wrong = i
                .most_frequent_wrong
                .as_ref()
                .map_or(String::new(), |(k, n)| format!(" / {k} x{n}"));
            outln!(
                out,
                "{:<28} {:>5} {:>6} {:>7} {:>7} {:>7} {:>7} {:>9}  {}{wrong}",
                i.id,
                i.n,
                num(i.p, 3),
                num(i.point_biserial, 3),
                num(i.a, 2),
                num(i.b, 2),
                num(i.outfit, 2),
                i.sx2
                    .as_ref()
                    .map_or("-".into(), |t| format!("{:.2e}", t.p)),
                flags.join(",")
            );
        }
    }
    if let Some(g) = &a.gaps {
        outln!(
            out,
            "\nlargest gaps, {} minus {} (proportion right):",
            g.first,
            g.second
        );
        for x in g.categories.iter().take(5) {
            outln!(
                out,
                "  category {:<22} {:+.3}  ({:.3} of {} vs {:.3} of {})",
                x.id,
                x.gap,
                x.p_first,
                x.n_first,
                x.p_second,
                x.n_second
            );
        }
        for x in g.items.iter().take(10) {
            outln!(
                out,
                "  item     {:<22} {:+.3}  ({:.3} of {} vs {:.3} of {})",
                x.id,
                x.gap,
                x.p_first,
                x.n_first,
                x.p_second,
                x.n_second
            );
        }
    }
    if let Some(s) = &a.subset {
        match s.size {
            Some(k) => outln!(
                out,
                "\nreduced subset: {k} of {} items keep Kendall tau >= {} for the {} ranked respondents ({:?})",
                s.order.len(),
                s.target_tau,
                s.ranked.len(),
                s.criterion
            ),
            None => outln!(
                out,
                "\nreduced subset: no subset keeps tau >= {} (the full scores may be tied)",
                s.target_tau
            ),
        }
    }
    for n in &a.notes {
        outln!(out, "note: {n}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ItemsOptions` from the words after `coglab items`, through the clap declaration.
    fn parse(words: &[&str]) -> Result<ItemsOptions, CliError> {
        use clap::Parser;
        let mut argv = vec!["coglab", "items"];
        argv.extend_from_slice(words);
        let cli =
            crate::cli::Cli::try_parse_from(argv).map_err(|e| CliError::Usage(e.to_string()))?;
        match cli.command {
            crate::cli::Command::Items(a) => ItemsOptions::from_cli(&a),
            _ => unreachable!("the words were given to `items`"),
        }
    }

    #[test]
    fn parses_options() {
        let o = parse(&["--model", "rasch", "m.csv", "--json", "--subset", "none"]).unwrap();
        assert_eq!(o.request.model, IrtModel::Rasch);
        assert!(o.json);
        assert_eq!(o.request.subset, None);
        assert_eq!(o.request.inputs, vec![Source::path("m.csv")]);
        assert!(matches!(
            parse(&["--model", "3pl", "m.csv"]),
            Err(CliError::Usage(_))
        ));
        assert!(matches!(parse(&[]), Err(CliError::Usage(_))));
    }

    #[test]
    fn parses_anchor_options() {
        let o = parse(&["m.csv", "--subset", "anchor", "--k", "7", "--options", "3"]).unwrap();
        assert_eq!(
            o.anchor,
            Some(AnchorRequest {
                k: 7,
                method: AnchorMethod::Information,
                options: 3
            })
        );
        let o = parse(&[
            "m.csv",
            "--subset",
            "anchor",
            "--k",
            "2",
            "--anchor-method",
            "cluster",
        ])
        .unwrap();
        assert_eq!(
            o.anchor.map(|a| (a.method, a.options)),
            Some((AnchorMethod::Cluster, 4))
        );
        for bad in [
            vec!["m.csv", "--subset", "anchor"],
            vec!["m.csv", "--k", "3"],
            vec![
                "m.csv",
                "--subset",
                "anchor",
                "--k",
                "3",
                "--anchor-method",
                "random",
            ],
            vec!["m.csv", "--subset", "information", "--options", "4"],
        ] {
            assert!(matches!(parse(&bad), Err(CliError::Usage(_))), "{bad:?}");
        }
    }
}
