//! The submission check: for files a visitor dropped under the name of a published model,
//! whether they reproduce the published row and where they would rank among the published
//! rows (computed by the core in the worker, [`api::Reproduce`]).

use crate::worker::api::RowId;
use leptos::prelude::*;

use super::state::BoardState;
use crate::components::error_panel::WorkerErrorPanel;
use crate::worker::api;
use crate::worker::client::latest_reply;

/// One submission to check.
#[derive(Debug, Clone, PartialEq)]
struct Submission {
    /// The benchmark's label (`MM-IQ`, `KiVA`, ...).
    bench: &'static str,
    /// The model's name.
    model: String,
    /// The published row.
    published: RowId,
    /// The row scored from the visitor's files.
    submitted: RowId,
    /// The benchmark's published rows.
    board: Vec<RowId>,
    /// The file the submitted row was scored from (first of its files).
    source: String,
    /// This row's place among the dropped rows of this benchmark under this model's name, and
    /// their count: several rows may share a published row's name (issue 42, defect 10), and
    /// each is checked and told apart by its file.
    namesake: (usize, usize),
}

/// The submissions among the rows: every dropped (not published) MM-IQ, KiVA or MM-OPERA row
/// whose model has a published row of the same benchmark.
fn submissions(state: BoardState) -> Vec<Submission> {
    let published = state.published_ids();
    let rows = state.rows;
    if published.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    // A dropped row against the published row of its model name, ranked among all published.
    let mut pair_up = |bench: &'static str, rows: Vec<(RowId, String, String)>| {
        let board: Vec<RowId> = rows
            .iter()
            .map(|r| r.0)
            .filter(|id| published.contains(id))
            .collect();
        for (id, model, source) in rows.iter().filter(|r| !published.contains(&r.0)) {
            if let Some(p) = rows
                .iter()
                .find(|p| published.contains(&p.0) && p.1 == *model)
            {
                out.push(Submission {
                    bench,
                    model: model.clone(),
                    published: p.0,
                    submitted: *id,
                    board: board.clone(),
                    source: source.clone(),
                    namesake: (0, 0),
                });
            }
        }
    };
    pair_up(
        "MM-IQ",
        rows.mmiq.with(|rows| {
            rows.iter()
                .map(|r| (r.id, r.model.clone(), r.report.file.clone()))
                .collect()
        }),
    );
    pair_up(
        "MM-OPERA",
        rows.mmopera.with(|rows| {
            rows.iter()
                .map(|r| {
                    let files = r.ria.as_ref().or(r.ica.as_ref());
                    let source = files
                        .and_then(|t| t.regular_files.first().cloned())
                        .unwrap_or_default();
                    (r.id, r.model.clone(), source)
                })
                .collect()
        }),
    );
    rows.kiva.with(|rows| {
        for r in rows.iter().filter(|r| !published.contains(&r.id)) {
            let variant = r.report.variant;
            let board: Vec<RowId> = rows
                .iter()
                .filter(|p| published.contains(&p.id) && p.report.variant == variant)
                .map(|p| p.id)
                .collect();
            if let Some(p) = rows.iter().find(|p| {
                published.contains(&p.id) && p.model == r.model && p.report.variant == variant
            }) {
                out.push(Submission {
                    bench: variant.name(),
                    model: r.model.clone(),
                    published: p.id,
                    submitted: r.id,
                    board,
                    source: r.report.files.first().cloned().unwrap_or_default(),
                    namesake: (0, 0),
                });
            }
        }
    });
    number_namesakes(&mut out);
    out
}

/// Numbers the submissions that share a benchmark and a model name (1 of 3, 2 of 3, ...);
/// a submission alone under its name is 1 of 1.
fn number_namesakes(out: &mut [Submission]) {
    for i in 0..out.len() {
        let same = |s: &Submission| s.bench == out[i].bench && s.model == out[i].model;
        let before = out[..i].iter().filter(|s| same(s)).count();
        let all = out.iter().filter(|s| same(s)).count();
        out[i].namesake = (before + 1, all);
    }
}

/// The submission check: for files a visitor dropped under the name of a published model,
/// whether they reproduce the published row (the same item verdicts, or which items differ)
/// and where they would rank among the published rows; computed by the core in the worker.
#[component]
pub fn SubmissionCheck() -> impl IntoView {
    let state = BoardState::get();
    let pairs = Memo::new(move |_| submissions(state));
    let checks = latest_reply(
        move || pairs.get(),
        move |pairs| {
            let client = state.client.get_value();
            async move {
                let mut out = Vec::new();
                for s in pairs {
                    let request = api::Reproduce {
                        published: s.published,
                        submitted: s.submitted,
                        board: s.board.clone(),
                    };
                    let r = client.call(request).await;
                    out.push((s, r));
                }
                out
            }
        },
    );
    let list = move || checks.get().unwrap_or_default();
    view! {
        <Show when=move || !list().is_empty()>
            <section class="submission-checks" data-testid="submission-checks">
                <h2 class="lb-subhead">"Submission check against the published leaderboard"</h2>
                <ul>
                    <For each=list key=|(s, _)| (s.bench, s.submitted, s.published)
                        children=|(s, r)| check_item(s, r) />
                </ul>
            </section>
        </Show>
    }
}

/// One submission's line: the verdict, or why it could not be checked.
fn check_item(
    s: Submission,
    r: Result<coglab_core::publish::site::Reproduction, api::WorkerError>,
) -> AnyView {
    let Submission {
        bench,
        model,
        source,
        namesake: (nth, of),
        ..
    } = s;
    // Rows dropped under one name are told apart by their files.
    let who = if of > 1 {
        format!("{model} (your row {nth} of {of} under this name, from {source})")
    } else {
        model.clone()
    };
    match r {
        Ok(r) => {
            let verdict = if r.reproduces {
                format!(
                    "reproduce the published row: all {} verdicts are the same.",
                    r.compared
                )
            } else {
                let mut s = format!(
                    "do not reproduce the published row: {} of {} verdicts differ",
                    r.n_differing, r.compared
                );
                if !r.differing.is_empty() {
                    s.push_str(&format!(
                        " ({}{})",
                        r.differing.join(", "),
                        if r.n_differing > r.differing.len() {
                            ", …"
                        } else {
                            ""
                        }
                    ));
                }
                if r.only_published + r.only_submitted > 0 {
                    s.push_str(&format!(
                        "; {} only in the published row, {} only in your files",
                        r.only_published, r.only_submitted
                    ));
                }
                s.push('.');
                s
            };
            view! {
                <li data-testid="submission-check" data-model=model.clone()
                    data-file=source.clone() data-reproduces=r.reproduces.to_string()>
                    {format!(
                        "{bench}, {who}: your files {verdict} Your figure {:.2}% \
                         (published {:.2}%) would rank {} of {} published rows.",
                        100.0 * r.figure, 100.0 * r.published_figure, r.rank, r.of
                    )}
                </li>
            }
            .into_any()
        }
        Err(e) => view! {
            <li data-testid="submission-check" data-model=model.clone() data-file=source.clone()>
                <WorkerErrorPanel title=format!("Checking {who} ({bench})") error=e />
            </li>
        }
        .into_any(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sub(bench: &'static str, model: &str, n: u32) -> Submission {
        Submission {
            bench,
            model: model.into(),
            published: RowId::first(1),
            submitted: RowId {
                generation: 1,
                n: n + 1,
            },
            board: vec![RowId::first(1)],
            source: format!("run{n}.jsonl"),
            namesake: (0, 0),
        }
    }

    /// Three dropped rows under one published name are 1, 2 and 3 of 3; a row of the same
    /// name on another benchmark, and a row of another name, are 1 of 1.
    #[test]
    fn namesakes_are_numbered_per_benchmark_and_name() {
        let mut out = vec![
            sub("MM-IQ", "X", 1),
            sub("MM-IQ", "X", 2),
            sub("MM-OPERA", "X", 3),
            sub("MM-IQ", "Y", 4),
            sub("MM-IQ", "X", 5),
        ];
        number_namesakes(&mut out);
        let got: Vec<(usize, usize)> = out.iter().map(|s| s.namesake).collect();
        assert_eq!(got, [(1, 3), (2, 3), (1, 1), (1, 1), (3, 3)]);
    }
}
