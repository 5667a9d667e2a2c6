//! One MM-OPERA model-task's breakdowns: a table per dimension (ability levels, relation
//! type, hop count, language, culture, domain) with the holistic SR and the mean reasoning
//! score per group, and the process judge's analyses ([`super::super::fidelity`]).

use std::collections::BTreeMap;

use coglab_core::leaderboard::mmopera::MmoperaTaskRow;
use coglab_core::mmopera::score::{Breakdowns, Group, ProcessGroup};
use leptos::prelude::*;

use super::task_key;
use crate::pages::leaderboard::fidelity::OperaProcessAnalysis;
use crate::worker::api;

/// The breakdown dimensions, as (key, title).
const DIMENSIONS: [(&str, &str); 8] = [
    ("l1", "Ability level L-1"),
    ("l2", "Ability level L-2"),
    ("l3", "Ability level L-3"),
    ("type", "Relation type"),
    ("hop_count", "Hop count"),
    ("language", "Language"),
    ("culture", "Culture"),
    ("domain", "Domain"),
];

fn dim<'a, G>(b: &'a Breakdowns<G>, key: &str) -> Option<&'a BTreeMap<String, G>> {
    Some(match key {
        "l1" => &b.l1,
        "l2" => &b.l2,
        "l3" => &b.l3,
        "type" => &b.kind,
        "hop_count" => &b.hop_count,
        "language" => &b.language,
        "culture" => &b.culture,
        "domain" => &b.domain,
        _ => return None,
    })
}

/// Keys of a breakdown sorted for display: hop counts numerically, others by name.
pub(super) fn sorted_keys(key: &str, keys: impl Iterator<Item = String>) -> Vec<String> {
    let mut k: Vec<String> = keys.collect();
    k.sort();
    k.dedup();
    if key == "hop_count" {
        k.sort_by(|a, b| {
            let (x, y) = (a.parse::<f64>().ok(), b.parse::<f64>().ok());
            match (x, y) {
                (Some(x), Some(y)) => x.total_cmp(&y),
                _ => a.cmp(b),
            }
        });
    }
    k
}

/// One model-task's breakdowns, collapsed: a table per dimension with the holistic SR and
/// the mean reasoning score per group.
#[component]
pub(super) fn Breakdown(
    /// The row's id in the worker.
    id: api::RowId,
    /// Model name.
    model: String,
    /// Its scores on one task.
    row: MmoperaTaskRow,
) -> impl IntoView {
    let task = row.task;
    let empty_h = Breakdowns::<Group>::default();
    let empty_p = Breakdowns::<ProcessGroup>::default();
    let hb = row.holistic.as_ref().map_or(&empty_h, |h| &h.by);
    let pb = row.reasoning.as_ref().map_or(&empty_p, |p| &p.by);
    let tables = DIMENSIONS
        .iter()
        .filter_map(|(key, title)| {
            let h = dim(hb, key)?;
            let p = dim(pb, key)?;
            let keys = sorted_keys(key, h.keys().chain(p.keys()).cloned());
            if keys.is_empty() {
                return None;
            }
            // A finished row's groups: a static list.
            let body = keys
                .into_iter()
                .map(|k| {
                    let g = h.get(&k);
                    let q = p.get(&k);
                    view! {
                        <tr data-group=k.clone()>
                            <th scope="row">{k.clone()}</th>
                            <td class="num" data-key="sr" data-value=g.map(|g| g.score_rate.to_string())>
                                {g.map_or("–".into(), |g| format!("{:.2}", g.score_rate * 100.0))}</td>
                            <td class="num">{g.map_or("–".into(), |g| g.n.to_string())}</td>
                            <td class="num" data-key="sr_proc" data-value=q.map(|q| q.mean_score.to_string())>
                                {q.map_or("–".into(), |q| format!("{:.4}", q.mean_score))}</td>
                            <td class="num">{q.map_or("–".into(), |q| q.n.to_string())}</td>
                        </tr>
                    }
                })
                .collect_view();
            Some(view! {
                <div class="table-scroll">
                <table class="lb-table" data-dimension=*key>
                    <caption>{*title}</caption>
                    <thead><tr>
                        <th scope="col">"Group"</th>
                        <th scope="col" title="Score rate over the group's valid verdicts">"SR (%)"</th>
                        <th scope="col" title="Verdicts counted">"n"</th>
                        <th scope="col" title="Mean process-reward score S_r">"Reasoning"</th>
                        <th scope="col" title="Items with a process score">"n"</th>
                    </tr></thead>
                    <tbody>{body}</tbody>
                </table>
                </div>
            })
        })
        .collect_view();
    let none = row.metadata_file.is_none();
    view! {
        <details class="lb-files-box" data-testid="mmopera-breakdown" data-model=model.clone() data-task=task_key(task)>
            <summary>{format!("{model} · {} breakdowns", task.name())}
                {row.metadata_file.clone().map(|m| format!(" (metadata {m})"))}</summary>
            {none.then(|| view! { <p class="notice">"No metadata for these items among your files: drop the dataset's metadata (JSON or CSV) to see the breakdowns."</p> })}
            {tables}
            <OperaProcessAnalysis id=id row=row.clone() />
        </details>
    }
}
