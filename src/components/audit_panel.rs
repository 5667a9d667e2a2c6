//! The reproducibility audit of the site's published leaderboard: every published figure that
//! has a reported twin in the papers' tables, both figures, the gap, the computed 95% interval,
//! and a flag when the paper's figure lies outside that interval widened by its rounding, with
//! the settings that could explain a gap. Flagged figures first. The rows are the core's
//! ([`coglab_core::publish::audit`]), computed at publish time; nothing is recomputed here.

use coglab_core::publish::audit::AuditRow;
use leptos::prelude::*;

/// The audit panel; nothing when there is no published bundle or no figure to audit.
#[component]
pub fn AuditPanel(
    /// The published index's audit rows.
    #[prop(into)]
    rows: Signal<Vec<AuditRow>>,
) -> impl IntoView {
    move || {
        let mut rows = rows.get();
        if rows.is_empty() {
            return ().into_any();
        }
        rows.sort_by_key(|r| !r.flagged);
        let flagged = rows.iter().filter(|r| r.flagged).count();
        // Open only when something is flagged (issue 42, defect 7: `open=flagged > 0` inside
        // the view macro set `open` to the count and printed the rest as text).
        let open = flagged > 0;
        let body = rows
            .into_iter()
            .map(|r| {
                let d = usize::from(r.decimals);
                view! {
                    <tr data-testid="audit-row" data-flagged=r.flagged.to_string()
                        data-model=r.model.clone() class=if r.flagged { "flagged" } else { "" }>
                        <th scope="row">{r.model.clone()}</th>
                        <td>{r.benchmark.label()}</td>
                        <td>{r.column.clone()}</td>
                        <td class="num">{format!("{:.*}", d, r.reported)}</td>
                        <td class="num">{format!("{:.*}", d, r.computed)}</td>
                        <td class="num">{format!("[{:.*}, {:.*}]", d, r.interval.0, d, r.interval.1)}</td>
                        <td class="num">{format!("{:+.*}", d, r.gap)}</td>
                        <td>{if r.flagged { "outside the interval" } else { "within" }}</td>
                        <td class="audit-explain">{r.explain.join("; ")}</td>
                        <td class="source">{r.source.clone()}</td>
                    </tr>
                }
            })
            .collect_view();
        view! {
            <details class="audit-panel" data-testid="audit-panel" open=open>
                <summary>{format!(
                    "Reproducibility audit of the published rows: {flagged} flagged figure{} \
                     (reported figure outside the computed 95% interval, beyond the paper's rounding)",
                    if flagged == 1 { "" } else { "s" }
                )}</summary>
                <div class="table-scroll">
                <table class="lb-table audit">
                    <thead><tr>
                        <th scope="col">"Model"</th><th scope="col">"Benchmark"</th>
                        <th scope="col">"Figure"</th><th scope="col">"Reported"</th>
                        <th scope="col">"Computed"</th><th scope="col">"95% interval"</th>
                        <th scope="col">"Gap"</th><th scope="col">"Flag"</th>
                        <th scope="col">"Settings that could explain it"</th>
                        <th scope="col">"Source"</th>
                    </tr></thead>
                    <tbody>{body}</tbody>
                </table>
                </div>
            </details>
        }
        .into_any()
    }
}
