//! The results of the last fit: fit summary, path diagram, outer model, reliability, HTMT,
//! suite diagnostics beside Gold's Table 3, weighted scores, pruning steps, descriptives and
//! the bootstrap, each with its exports; and the bootstrap's controls.
//!
//! The report's tables are rebuilt whole on each fit (one report, read once), so their rows
//! are plain lists; the scores table, whose rows move when sorted, is keyed (`scores.rs`).

use coglab_core::limits::{MAX_BOOTSTRAP, MIN_BOOTSTRAP};
use coglab_core::reported::ReportedTable;
use coglab_core::sem::bootstrap::BootstrapOptions;
use coglab_core::sem::engine::Mode;
use coglab_core::sem::suite::{ranks_csv, report_csv, ReportTable};
use coglab_core::sem::SemReport;
use coglab_core::stats::{format_p, p_phrase};
use leptos::prelude::*;

use super::actions::{bootstrap_count, Actions};
use super::diagram::PathDiagram;
use super::export::{ExportButtons, PngButton};
use super::heatmap::HtmtHeatmap;
use super::scores::ScoresTable;
use super::state::{FitStatus, StructureState};
use super::{f3, opt3};
use crate::components::reported_table::ReportedTableView;

/// A results table's CSV and JSON buttons.
fn export_buttons(
    label: &'static str,
    id: &'static str,
    csv: Callback<(), Option<String>>,
    json: Callback<(), Option<String>>,
) -> impl IntoView {
    view! { <ExportButtons label id csv json /> }
}

/// A chart's PNG button.
fn png_button(label: &'static str, testid: &'static str, file: &'static str) -> impl IntoView {
    view! { <PngButton label testid file /> }
}

/// The results of the last fit.
#[component]
pub fn Results() -> impl IntoView {
    let state = expect_context::<StructureState>();
    let actions = expect_context::<Actions>();
    let (analysis, draft, gold) = (state.analysis, state.draft, state.gold);
    let (boot_n, boot_seed) = (state.boot_n, state.boot_seed);
    // Why the typed resamples were refused (out of the command line's bounds), if they were.
    let boot_error = RwSignal::new(None::<String>);
    let rep = move |f: fn(&SemReport) -> String| {
        Callback::new(move |()| analysis.read().as_ref().map(|a| f(&a.report)))
    };
    view! {
        <div class="card st-results" data-testid="results" aria-busy=move || (actions.status() != FitStatus::Idle).to_string()>
            <h2>"3. Results"</h2>
            <Show
                when=move || analysis.read().is_some()
                fallback=move || view! { <p class="muted">"Assign tasks to at least one construct to fit a model."</p> }
            >
                {move || {
                    let Some(a) = analysis.get() else { return ().into_any() };
                    let r = a.report.clone();
                    let th = draft.read_untracked().thresholds;
                    let task_constructs: Vec<String> = r
                        .constructs
                        .iter()
                        .filter(|c| c.order == 1 && !c.human)
                        .map(|c| c.name.clone())
                        .collect();
                    let outer_rows = r.outer.iter().map(|(item, o)| {
                        let vif = r.vif.get(item).copied();
                        // Thresholds apply to tasks, not to the stage-2 indicators (lower-order
                        // construct scores) of a second-order construct.
                        let is_task = task_constructs.contains(&o.construct);
                        let weak = is_task && o.loading.abs() < th.loading_min;
                        let redundant = is_task && vif.is_some_and(|v| v > th.vif_max);
                        view! {
                            <tr class:weak=weak class:redundant=redundant data-item=item.clone()>
                                <th scope="row">{item.clone()}</th>
                                <td>{o.construct.clone()}</td>
                                <td class="num">{f3(o.weight)}</td>
                                <td class="num" class:flag=weak>{f3(o.loading)}</td>
                                <td class="num" class:flag=redundant>{opt3(vif)}</td>
                                <td>{match (weak, redundant) { (true, true) => "weak, redundant", (true, false) => "weak (λ < λ_min)", (false, true) => "redundant (VIF > δ_VIF)", _ => "" }}</td>
                            </tr>
                        }
                    }).collect::<Vec<_>>();
                    let rel_rows = r.reliability.iter().map(|(c, x)| view! {
                        <tr><th scope="row">{c.clone()}</th><td class="num">{f3(x.alpha)}</td><td class="num">{f3(x.rho_a)}</td><td class="num">{f3(x.rho_c)}</td><td class="num">{f3(x.ave)}</td></tr>
                    }).collect::<Vec<_>>();
                    let d = r.diagnostics;
                    let t3: Option<ReportedTable> = gold.read().as_ref().and_then(|g| g.table("gold-table3").cloned());
                    let t3_rows = t3.map(|t| t.rows.iter().map(|row| {
                        let cell = |k: usize| row.values.get(k).copied().flatten().map(f3).unwrap_or_else(|| "–".into());
                        view! { <tr class="paper"><th scope="row">{row.label.clone()}" (paper)"</th><td class="num">{cell(0)}</td><td class="num">{cell(1)}</td><td class="num">{cell(2)}</td><td class="num">{cell(3)}</td></tr> }
                    }).collect::<Vec<_>>());
                    let steps = r.pruning.iter().enumerate().map(|(k, p)| view! {
                        <li data-testid=format!("prune-step-{}", k + 1)>
                            <strong>{format!("Step {}: removed {}", k + 1, p.removed)}</strong>
                            {format!(" ({}), {} = {} ", p.construct, if p.reason == "vif" { "VIF" } else { "loading" }, f3(p.value))}
                            <span class="muted">{format!("before removal: D_div {}, TC {}, D_valid {}, mean {}", opt3(p.diagnostics.d_div), f3(p.diagnostics.tc), f3(p.diagnostics.d_valid), f3(p.diagnostics.mean))}</span>
                        </li>
                    }).collect::<Vec<_>>();
                    let n_steps = steps.len();
                    let desc_rows = r.descriptives.indicators.iter().map(|(n, x)| ("task", n, x))
                        .chain(r.descriptives.constructs.iter().map(|(n, x)| ("construct", n, x)))
                        .map(|(kind, n, x)| view! {
                            <tr><th scope="row">{n.clone()}</th><td>{kind}</td><td class="num">{x.n}</td><td class="num">{f3(x.mean)}</td><td class="num">{opt3(x.sd)}</td>
                            <td class="num">{opt3(x.skewness)}</td><td class="num">{opt3(x.excess_kurtosis)}</td><td class="num">{opt3(x.cvm_w_star)}</td><td class="num">{x.cvm_p.map_or_else(|| "–".to_string(), format_p)}</td></tr>
                        }).collect::<Vec<_>>();
                    let boot_rows = r.bootstrap.as_ref().map(|b| {
                        let rows = [("loading", &b.loadings), ("path", &b.paths), ("weight", &b.weights)].into_iter()
                            .flat_map(|(kind, m)| m.iter().map(move |(n, s)| (kind, n.clone(), *s)))
                            .map(|(kind, n, s)| view! {
                                <tr><th scope="row">{n}</th><td>{kind}</td><td class="num">{f3(s.original)}</td><td class="num">{f3(s.mean)}</td><td class="num">{f3(s.se)}</td><td class="num">{opt3(s.t)}</td><td class="num">{format!("[{}, {}]", f3(s.ci_low), f3(s.ci_high))}</td></tr>
                            }).collect::<Vec<_>>();
                        view! {
                            <p data-testid="boot-summary">{format!("{} resamples (seed {}): {} succeeded, {} failed; {:.0} ms in the worker.", b.resamples, b.seed, b.succeeded, b.failed, a.ms)}</p>
                            <div class="table-scroll"><table data-testid="table-bootstrap"><thead><tr><th scope="col">"Estimate"</th><th scope="col">"Kind"</th><th scope="col">"Original"</th><th scope="col">"Mean"</th><th scope="col">"SE"</th><th scope="col">"t"</th><th scope="col">"95% interval"</th></tr></thead><tbody>{rows}</tbody></table></div>
                        }
                    });
                    // The paper's own tables beside the figures they correspond to (issue 23).
                    let paper = |ids: &[&'static str], what: &'static str| {
                        let g = gold.read();
                        let tables: Vec<ReportedTable> = ids.iter().filter_map(|id| g.as_ref()?.table(id).cloned()).collect();
                        (!tables.is_empty()).then(|| {
                            let testid = format!("paper-{}", ids.join("-"));
                            let names = tables.iter().map(|t| t.source.clone()).collect::<Vec<_>>().join(", ");
                            view! {
                                <details class="paper-tables" data-testid=testid>
                                    <summary>{format!("The paper's {names}: {what}")}</summary>
                                    {tables.into_iter().map(|t| view! { <ReportedTableView table=t /> }).collect_view()}
                                </details>
                            }
                        })
                    };
                    let paper_rel = paper(&["gold-table1"], "Gold's reliability on its 190-model data (its “Reliability” column is presumably ρ_A)");
                    let paper_outer = paper(&["gold-table6", "gold-table7"], "outer loadings and VIFs of MMEBench's tasks");
                    let paper_htmt = paper(&["gold-table8"], "MMEBench's HTMT matrix (formula not stated); its 0.910 gives Table 3's D_div 0.549");
                    let paper_desc = paper(&["gold-table4", "gold-table5"], "descriptives of the GoldBench (190 models) and MMEBench (191 models) construct scores");
                    let r2 = r.clone();
                    view! {
                        <p data-testid="fit-summary" class="muted">
                            {format!("{} models ({} dropped), {} iterations, scheme {:?}; ", r.n_models, r.dropped_models.len(), r.iterations, r.scheme)}
                            <span data-testid="fit-ms">{format!("{:.1}", a.ms)}</span>" ms in the worker."
                        </p>
                        <p data-testid="fit-switches" class="muted">
                            {format!(
                                "HTMT: {}; pruning: {}; human column: {}; measurement: {}.",
                                r.htmt_variant.label(),
                                r.prune_variant.map_or("off", |v| v.label()),
                                if r.human.is_some() { r.arena_placement.label() } else { "none" },
                                if r.constructs.iter().all(|c| c.mode == Mode::A) { "Mode A everywhere" }
                                else if r.constructs.iter().all(|c| c.mode == Mode::B) { "Mode B everywhere (the paper's formative)" }
                                else { "mixed modes" },
                            )}
                        </p>
                        {(!r.out_of_range.is_empty()).then(|| {
                            let cells: Vec<String> = r.out_of_range.iter().map(|c| c.to_string()).collect();
                            let what = if r.out_of_range_excluded {
                                format!("Excluded: treated as missing, so listwise deletion dropped {} model(s).", r.dropped_models.len())
                            } else {
                                "Fitted as given (the default); tick “Exclude out-of-range cells” above to treat them as missing.".to_string()
                            };
                            view! {
                                <p class="error-panel" role="alert" data-testid="out-of-range">
                                    <strong>"Out of range: "</strong>
                                    {format!("{} task cell(s) outside the stated scale: {}. {what}", cells.len(), cells.join("; "))}
                                </p>
                            }
                        })}
                        {r.listwise_warning.as_ref().map(|w| view! {
                            <p class="error-panel" role="alert" data-testid="listwise-warning">
                                <strong>"Warning: "</strong>
                                {format!("{w}. Each missing cell drops its model; leave out the sparsest columns or fill their cells to keep more models.")}
                            </p>
                        })}
                        {r.human.as_ref().map(|h| view! {
                            <p data-testid="human-alignment">
                                {format!(
                                    "Weighted overall score against the human column {}: Pearson r = {:.3} ({}), Spearman ρ = {:.3} ({}), {} models.",
                                    h.column, h.pearson.r, p_phrase(h.pearson.p), h.spearman.r, p_phrase(h.spearman.p), h.pearson.n
                                )}
                            </p>
                        })}
                        <h3>"Path diagram " {png_button("path diagram", "sem-diagram", "path-diagram.png")}</h3>
                        <PathDiagram report=r2 />
                        <h3>"Loadings, weights and VIF " {export_buttons("outer model", "outer", rep(|r| report_csv(r, ReportTable::Outer)), rep(|r| serde_json::to_string_pretty(&(&r.outer, &r.vif)).unwrap_or_default()))}</h3>
                        <p class="muted">{format!("Highlighted: loading below λ_min = {} (weak) or VIF above δ_VIF = {} (redundant).", th.loading_min, th.vif_max)}</p>
                        <div class="table-scroll"><table data-testid="table-outer">
                            <thead><tr><th scope="col">"Task"</th><th scope="col">"Construct"</th><th scope="col">"Weight"</th><th scope="col">"Loading"</th><th scope="col">"VIF"</th><th scope="col">"Flag"</th></tr></thead>
                            <tbody>{outer_rows}</tbody>
                        </table></div>
                        {paper_outer}
                        <h3>"Reliability " {export_buttons("reliability", "reliability", rep(|r| report_csv(r, ReportTable::Reliability)), rep(|r| serde_json::to_string_pretty(&r.reliability).unwrap_or_default()))}</h3>
                        <div class="table-scroll"><table data-testid="table-reliability">
                            <thead><tr><th scope="col">"Construct"</th><th scope="col">"α"</th><th scope="col">"ρ_A"</th><th scope="col">"ρ_C"</th><th scope="col">"AVE"</th></tr></thead>
                            <tbody>{rel_rows}</tbody>
                        </table></div>
                        {paper_rel}
                        <h3>"HTMT " <span class="muted" data-testid="htmt-label">{format!("({})", r.htmt_variant.label())}</span> " " {png_button("HTMT heatmap", "htmt-heatmap", "htmt-heatmap.png")} {export_buttons("HTMT", "htmt", rep(|r| report_csv(r, ReportTable::Htmt)), rep(|r| serde_json::to_string_pretty(&serde_json::json!({"htmt_variant": r.htmt_variant, "htmt": r.htmt})).unwrap_or_default()))}</h3>
                        <HtmtHeatmap constructs=task_constructs htmt=r.htmt.clone() />
                        {paper_htmt}
                        <h3>"Suite diagnostics " {export_buttons("diagnostics", "diagnostics", rep(|r| report_csv(r, ReportTable::Diagnostics)), rep(|r| serde_json::to_string_pretty(&r.diagnostics).unwrap_or_default()))}</h3>
                        <div class="table-scroll"><table data-testid="table-diagnostics">
                            <thead><tr><th scope="col">"Suite"</th><th scope="col" data-testid="ddiv-head" title=format!("D_div = min(1, 1/(2·max HTMT)) with HTMT: {}", r.htmt_variant.label())>{format!("D_div (HTMT {})", r.htmt_variant.as_str())}</th><th scope="col">"TC"</th><th scope="col">"D_valid"</th><th scope="col">"Mean"</th></tr></thead>
                            <tbody>
                                <tr class="ours" data-testid="diag-ours"><th scope="row">"This model"</th><td class="num">{opt3(d.d_div)}</td><td class="num">{f3(d.tc)}</td><td class="num">{f3(d.d_valid)}</td><td class="num">{f3(d.mean)}</td></tr>
                                {t3_rows}
                            </tbody>
                        </table></div>
                        <h3>"Weighted scores " {export_buttons("scores", "scores", Callback::new(move |()| analysis.read().as_ref().map(|a| ranks_csv(&a.ranks))), Callback::new(move |()| analysis.read().as_ref().map(|a| serde_json::to_string_pretty(&a.ranks).unwrap_or_default())))}</h3>
                        <ScoresTable ranks=a.ranks.clone() constructs=task_constructs_clone(&r) />
                        <h3>"Pruning steps " <span class="muted" data-testid="prune-label">{match r.prune_variant { Some(v) => format!("({})", v.label()), None => "(pruning off)".to_string() }}</span> " " {export_buttons("pruning steps", "pruning", rep(|r| report_csv(r, ReportTable::Pruning)), rep(|r| serde_json::to_string_pretty(&serde_json::json!({"prune_variant": r.prune_variant, "pruning": r.pruning})).unwrap_or_default()))}</h3>
                        {if n_steps == 0 {
                            view! { <p class="muted" data-testid="prune-none">"No task removed (turn on “Prune” above, or every task passes the thresholds)."</p> }.into_any()
                        } else {
                            view! { <ol class="timeline" data-testid="prune-steps">{steps}</ol> }.into_any()
                        }}
                        <h3>"Descriptives and Cramér-von Mises " {export_buttons("descriptives", "descriptives", rep(|r| report_csv(r, ReportTable::Descriptives)), rep(|r| serde_json::to_string_pretty(&r.descriptives).unwrap_or_default()))}</h3>
                        <div class="table-scroll"><table data-testid="table-descriptives">
                            <thead><tr><th scope="col">"Name"</th><th scope="col">"Kind"</th><th scope="col">"n"</th><th scope="col">"Mean"</th><th scope="col">"SD"</th><th scope="col">"Skewness"</th><th scope="col">"Excess kurtosis"</th><th scope="col">"CvM W*"</th><th scope="col">"CvM p"</th></tr></thead>
                            <tbody>{desc_rows}</tbody>
                        </table></div>
                        {paper_desc}
                        <h3>"Bootstrap " {export_buttons("bootstrap", "bootstrap", rep(|r| report_csv(r, ReportTable::Bootstrap)), rep(|r| serde_json::to_string_pretty(&r.bootstrap).unwrap_or_default()))}</h3>
                        {boot_rows}
                    }.into_any()
                }}
            </Show>
            <div class="st-row st-boot">
                <label>"Resamples " <input type="number" min=MIN_BOOTSTRAP max=MAX_BOOTSTRAP step="100" data-testid="boot-n" prop:value=move || boot_n.get().to_string()
                    on:change=move |ev| { if let Ok(v) = event_target_value(&ev).trim().parse::<u64>() { boot_n.set(v); boot_error.set(None) } } /></label>
                <label>"Seed " <input type="number" min="0" data-testid="boot-seed" prop:value=move || boot_seed.get().to_string()
                    on:change=move |ev| { if let Ok(v) = event_target_value(&ev).trim().parse::<u64>() { boot_seed.set(v) } } /></label>
                <button type="button" data-testid="run-bootstrap" disabled=move || analysis.read().is_none()
                    on:click=move |_| match bootstrap_count(boot_n.get_untracked()) {
                        Ok(resamples) => {
                            boot_error.set(None);
                            actions.fit(Some(BootstrapOptions { resamples, seed: boot_seed.get_untracked() }))
                        }
                        Err(e) => boot_error.set(Some(e)),
                    }>
                    "Run bootstrap"
                </button>
                {move || boot_error.get().map(|e| view! {
                    <p class="error-panel" role="alert" data-testid="boot-n-error">{e}</p>
                })}
                <Show when=move || matches!(actions.status(), FitStatus::Bootstrapping(_))>
                    <progress data-testid="boot-progress" max="1" aria-label="Bootstrap progress"
                        value=move || match actions.status() { FitStatus::Bootstrapping(p) => p, _ => 0.0 }.to_string()></progress>
                    <button type="button" on:click=move |_| state.worker.get_value().cancel()>"Cancel"</button>
                </Show>
            </div>
        </div>
    }
}

/// The first-order task constructs of a report (the scores table's layer columns).
fn task_constructs_clone(r: &SemReport) -> Vec<String> {
    r.constructs
        .iter()
        .filter(|c| c.order == 1 && !c.human)
        .map(|c| c.name.clone())
        .collect()
}
