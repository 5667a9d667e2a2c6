//! A finished session: accuracy and SE per domain and stage beside adults and models, median
//! reaction times beside adults', and the CSV/JSON exports. Every figure comes from the core
//! (`selftest::score_session`, `selftest::baselines`); this file only formats.

use coglab_core::kiva::Stage;
use coglab_core::kiva::StageStats;
use coglab_core::selftest::adaptive::{score_outcomes, FormKind};
use coglab_core::selftest::bank::TrialOutcome;
use coglab_core::selftest::baselines::{rt_by_domain, Baselines, GroupBaseline};
use coglab_core::selftest::{score_session, to_human_csv, to_json, Session, SessionKind};
use coglab_core::stats::describe::MeanSe;
use leptos::prelude::*;

use super::store::Saved;
use crate::charts::bars::{draw_grouped_bars, BarSeries, GroupedBars};
use crate::components::error_panel::ErrorPanel;
use crate::components::theme_toggle::chart_theme;
use crate::data::fetch_text;

/// The stage scores shown, with their labels.
const STAGES: [(&str, &str); 3] = [
    ("cross", "What changed"),
    ("within_conditional", "How (when asked)"),
    ("extrapolation", "Apply to a new object"),
];

fn pct(m: Option<MeanSe>) -> String {
    match m {
        Some(m) => format!("{:.1}% ± {:.1}", m.mean * 100.0, m.se * 100.0),
        None => "–".into(),
    }
}

fn domain_name(d: &str) -> &str {
    match d {
        "2DRotation" => "Rotation",
        "Colour" => "Colour",
        "Counting" => "Number",
        "Reflect" => "Reflection",
        "Resize" => "Size",
        other => other,
    }
}

fn data_url(mime: &str, text: &str) -> String {
    format!(
        "data:{mime};charset=utf-8,{}",
        String::from(js_sys::encode_uri_component(text))
    )
}

/// Results of a complete session.
#[component]
pub fn Results(
    /// The generated session.
    session: Session,
    /// Its saved answers.
    record: Saved,
) -> impl IntoView {
    let scored = score_session(&session, &record.participant, &record.responses);
    // The session's variant's figures (one bundled file per variant).
    let file = format!("data/{}", Baselines::file_name(session.variant));
    let baselines = LocalResource::new(move || {
        let file = file.clone();
        async move {
            let text = fetch_text(&file).await?;
            serde_json::from_str::<Baselines>(&text).map_err(|e| format!("{file}: {e}"))
        }
    });
    let (report, human) = match scored {
        Ok(x) => x,
        Err(e) => {
            return view! { <ErrorPanel title="Could not score this session" message=e.to_string() /> }
                .into_any()
        }
    };
    let csv = to_human_csv(&session, &record.participant, &record.responses);
    let json = to_json(
        &session,
        &record.participant,
        &record.responses,
        record.environment.as_ref(),
    );
    let file = format!(
        "kiva-selftest-{}-{}",
        session.kind.as_str().replace(':', "-"),
        session.seed
    );
    let variant = session.variant;
    let my_rt = rt_by_domain(&human);
    let domains: Vec<String> = report.by_domain.keys().cloned().collect();
    let report_view = report.clone();
    view! {
        <div class="selftest-results" data-testid="results">
            <h2>"Your results"</h2>
            <p>
                {format!(
                    "{} trials. Accuracy per domain and stage, mean ± SE over trials (population SD / √n, \
                     as the KiVA paper); stage 2 is asked only after a right stage 1.",
                    report.rows.trials
                )}
            </p>
            <AbilityPanel session=session.clone() record=record.clone() />
            <Suspense fallback=|| view! { <p class="hint">"Loading adult and model figures…"</p> }>
                {move || {
                    let domains = domains.clone();
                    let report = report_view.clone();
                    let my_rt = my_rt.clone();
                    baselines
                        .get()
                        .map(|b| match b {
                            Err(e) => view! {
                                <ErrorPanel title="Could not load the adult and model figures" message=e />
                                <ComparisonTable
                                    domains=domains
                                    you=report.by_domain.clone()
                                    overall=report.overall
                                    groups=Vec::new()
                                />
                            }
                                .into_any(),
                            Ok(b) => {
                                let vb = b.variant(variant).cloned();
                                let mut groups: Vec<GroupBaseline> = Vec::new();
                                // Issue 23: the adults' true source in the label.
                                let adults = vb.as_ref().and_then(|v| v.adults.clone()).map(|mut a| {
                                    a.label = format!("Adults (KiVA's released file, {} trials)", a.trials);
                                    a
                                });
                                if let Some(a) = &adults {
                                    groups.push(a.clone());
                                }
                                if let Some(v) = &vb {
                                    groups.extend(v.models.iter().cloned());
                                }
                                let no_adults = adults.is_none();
                                let rt_rows: Vec<(String, String, String)> = domains
                                    .iter()
                                    .map(|d| {
                                        let mine = my_rt
                                            .get(d)
                                            .map_or("–".into(), |r| format!("{:.0} ms", r.median_ms));
                                        let theirs = adults
                                            .as_ref()
                                            .and_then(|a| a.rt_by_domain.as_ref())
                                            .and_then(|m| m.get(d))
                                            .map_or("–".into(), |r| format!("{:.0} ms", r.median_ms));
                                        (domain_name(d).to_string(), mine, theirs)
                                    })
                                    .collect();
                                view! {
                                    <ComparisonTable
                                        domains=domains.clone()
                                        you=report.by_domain.clone()
                                        overall=report.overall
                                        groups=groups.clone()
                                    />
                                    <ResultsChart
                                        domains=domains.clone()
                                        you=report.by_domain.clone()
                                        overall=report.overall
                                        groups=groups
                                    />
                                    {(!no_adults).then(|| view! {
                                        <p class="hint" data-testid="selftest-adults-source">
                                            {coglab_core::selftest::baselines::ADULTS_SOURCE}
                                        </p>
                                    })}
                                    {no_adults
                                        .then(|| {
                                            view! {
                                                <p class="hint">
                                                    "The KiVA repository has no adult data for KiVA-adults: \
                                                     models only."
                                                </p>
                                            }
                                        })}
                                    <h3>"Reaction time"</h3>
                                    <div class="table-scroll" tabindex="0" role="region" aria-label="Median reaction times">
                                        <table data-testid="rt-table">
                                            <caption>"Median reaction time per domain, all stages"</caption>
                                            <thead>
                                                <tr>
                                                    <th scope="col">"Domain"</th>
                                                    <th scope="col" class="num">"You"</th>
                                                    <th scope="col" class="num" title=coglab_core::selftest::baselines::ADULTS_SOURCE>"Adults (KiVA's released file)"</th>
                                                </tr>
                                            </thead>
                                            <tbody>
                                                {rt_rows
                                                    .into_iter()
                                                    .map(|(d, a, b)| {
                                                        view! {
                                                            <tr>
                                                                <th scope="row">{d}</th>
                                                                <td class="num">{a}</td>
                                                                <td class="num">{b}</td>
                                                            </tr>
                                                        }
                                                    })
                                                    .collect_view()}
                                            </tbody>
                                        </table>
                                    </div>
                                    <p class="hint source">{b.note.clone()}</p>
                                }
                                    .into_any()
                            }
                        })
                }}
            </Suspense>
            <TrialReview session=session.clone() record=record.clone() />
            <h3>"Export"</h3>
            <p>
                "CSV in the layout of KiVA's human data (ParticipantID, Transformation, Variation, \
                 Task, Score, Reaction Time), readable by "<code>"coglab score kiva"</code>
                "; JSON with every trial, option and answer."
            </p>
            <p class="selftest-export">
                <a
                    class="button"
                    data-testid="export-csv"
                    download=format!("{file}.csv")
                    href=data_url("text/csv", &csv)
                >
                    "Download CSV"
                </a>
                <a
                    class="button"
                    data-testid="export-json"
                    download=format!("{file}.json")
                    href=data_url("application/json", &json)
                >
                    "Download JSON"
                </a>
            </p>
        </div>
    }
    .into_any()
}

/// The accuracy table: one row per domain and stage (and overall), one column per group.
#[component]
fn ComparisonTable(
    /// Domains in the session.
    domains: Vec<String>,
    /// This person's figures per domain.
    you: std::collections::BTreeMap<String, StageStats>,
    /// This person's figures over all trials.
    overall: StageStats,
    /// Adults and models.
    groups: Vec<GroupBaseline>,
) -> impl IntoView {
    let headers: Vec<String> = groups.iter().map(|g| g.label.clone()).collect();
    // (domain shown, domain key, stage label, stage key, your mean, your text, others' texts)
    #[allow(clippy::type_complexity)]
    let mut rows: Vec<(
        String,
        String,
        &'static str,
        &'static str,
        Option<f64>,
        String,
        Vec<String>,
    )> = Vec::new();
    for d in domains.iter().map(String::as_str).chain(["All"]) {
        for (key, label) in STAGES {
            let mine = if d == "All" {
                Some(&overall)
            } else {
                you.get(d)
            };
            let them: Vec<String> = groups
                .iter()
                .map(|g| {
                    let s = if d == "All" {
                        Some(&g.overall)
                    } else {
                        g.by_domain.get(d)
                    };
                    pct(s.and_then(|s| s.get(key)))
                })
                .collect();
            let name = if d == "All" {
                "All domains".to_string()
            } else {
                domain_name(d).to_string()
            };
            let m = mine.and_then(|s| s.get(key));
            rows.push((
                name,
                d.to_string(),
                label,
                key,
                m.map(|m| m.mean),
                pct(m),
                them,
            ));
        }
    }
    view! {
        <div class="table-scroll" tabindex="0" role="region" aria-label="Accuracy per domain and stage">
            <table data-testid="results-table" class="selftest-table">
                <caption>"Accuracy, % ± SE"</caption>
                <thead>
                    <tr>
                        <th scope="col">"Domain"</th>
                        <th scope="col">"Question"</th>
                        <th scope="col" class="num you">"You"</th>
                        {headers.into_iter().map(|h| view! { <th scope="col" class="num">{h}</th> }).collect_view()}
                    </tr>
                </thead>
                <tbody>
                    {rows
                        .into_iter()
                        .enumerate()
                        .map(|(i, (d, dkey, stage, skey, mean, mine, them))| {
                            view! {
                                <tr class:group-start=i % 3 == 0>
                                    <th scope="row">{if i % 3 == 0 { d } else { String::new() }}</th>
                                    <td>{stage}</td>
                                    <td
                                        class="num you"
                                        data-domain=dkey
                                        data-stage=skey
                                        data-value=mean.map(|m| m.to_string())
                                    >
                                        {mine}
                                    </td>
                                    {them.into_iter().map(|t| view! { <td class="num">{t}</td> }).collect_view()}
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
        </div>
    }
}

/// The accuracy of one stage per domain as grouped bars (you, adults, models) with ±1 SE,
/// drawn by the shared `draw_grouped_bars` on a canvas; a radio group picks the stage.
#[component]
fn ResultsChart(
    /// Domains in the session.
    domains: Vec<String>,
    /// This person's figures per domain.
    you: std::collections::BTreeMap<String, StageStats>,
    /// This person's figures over all trials.
    overall: StageStats,
    /// Adults and models.
    groups: Vec<GroupBaseline>,
) -> impl IntoView {
    let stage = RwSignal::new(0usize);
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let (err, set_err) = signal(None::<String>);
    let data = StoredValue::new((domains, you, overall, groups));
    let chart = Memo::new(move |_| {
        let (key, label) = STAGES[stage.get()];
        data.with_value(|(domains, you, overall, groups)| {
            let names: Vec<&str> = domains.iter().map(String::as_str).chain(["All"]).collect();
            let series_of = |name: &str, by: &dyn Fn(&str) -> Option<StageStats>| BarSeries {
                name: name.to_string(),
                values: names
                    .iter()
                    .map(|d| by(d).and_then(|s| s.get(key)).map(|m| m.mean))
                    .collect(),
                se: names
                    .iter()
                    .map(|d| by(d).and_then(|s| s.get(key)).map(|m| m.se))
                    .collect(),
            };
            let mut series = vec![series_of("You", &|d: &str| {
                if d == "All" {
                    Some(*overall)
                } else {
                    you.get(d).copied()
                }
            })];
            for g in groups {
                series.push(series_of(&g.label, &|d: &str| {
                    if d == "All" {
                        Some(g.overall)
                    } else {
                        g.by_domain.get(d).copied()
                    }
                }));
            }
            GroupedBars {
                title: format!("{label}: accuracy per domain (±1 SE)"),
                y_label: "Accuracy".into(),
                groups: names
                    .iter()
                    .map(|d| {
                        if *d == "All" {
                            "All domains".to_string()
                        } else {
                            domain_name(d).to_string()
                        }
                    })
                    .collect(),
                series,
                y_max: Some(1.0),
                reference: None,
                theme: chart_theme(),
            }
        })
    });
    let resized = crate::charts::resize_counter();
    Effect::new(move |_| {
        resized.track();
        let d = chart.get();
        let Some(c) = canvas.get() else { return };
        crate::charts::fit_to_shown_width(&c, 400);
        set_err.set(crate::charts::draw_on_canvas(c, |area| {
            draw_grouped_bars(area, &d)
        }));
    });
    view! {
        <figure class="selftest-chart">
            <div class="selftest-stage-pick" role="radiogroup" aria-label="Question shown in the chart">
                {STAGES
                    .iter()
                    .enumerate()
                    .map(|(i, (_, label))| {
                        view! {
                            <label>
                                <input
                                    type="radio"
                                    name="selftest-stage"
                                    prop:checked=move || stage.get() == i
                                    on:change=move |_| stage.set(i)
                                />
                                {format!(" {label}")}
                            </label>
                        }
                    })
                    .collect_view()}
            </div>
            <canvas
                node_ref=canvas
                width="900"
                height="400"
                role="img"
                aria-label="Grouped bars: your accuracy per domain beside adults and models, with ±1 SE"
                data-testid="selftest-chart"
            ></canvas>
            {move || err.get().map(|e| view! { <ErrorPanel title="Could not draw the chart" message=e /> })}
        </figure>
    }
}

/// Every trial of the finished session, question by question: your answer, the right one, and
/// your reaction time (no feedback is given during the run, so this is where it is shown).
#[component]
fn TrialReview(
    /// The generated session.
    session: Session,
    /// Its saved answers.
    record: Saved,
) -> impl IntoView {
    const QUESTIONS: [(Stage, &str); 3] = [
        (Stage::Cross, "1 What changed"),
        (Stage::Within, "2 How"),
        (Stage::Extrapolation, "3 New object"),
    ];
    let rows = session
        .trials
        .iter()
        .enumerate()
        .flat_map(|(i, t)| {
            let answers = record.responses.get(i).copied().unwrap_or_default();
            let session = &session;
            QUESTIONS.iter().filter_map(move |&(stage, label)| {
                let options = t.options(stage);
                let right = options.get(t.correct(stage)).cloned().unwrap_or_default();
                // Stage 2 is asked only after a right stage 1.
                let r = answers.get(stage)?;
                let yours = options.get(r.choice).cloned().unwrap_or_default();
                let ok = session.is_correct(i, stage, r.choice);
                Some((i + 1, t.subdomain.clone(), label, yours, right, ok, r.rt_ms))
            })
        })
        .collect::<Vec<_>>();
    view! {
        <details class="selftest-review" data-testid="trial-review">
            <summary>
                <h3>"Your answers, trial by trial"</h3>
            </summary>
            <div class="table-scroll" tabindex="0" role="region" aria-label="Each question answered">
                <table>
                    <caption>
                        "Each question you answered, the right answer and your reaction time \
                         (from the pictures on screen to your answer). Question 2 is asked only \
                         after a right question 1."
                    </caption>
                    <thead>
                        <tr>
                            <th scope="col">"Trial"</th>
                            <th scope="col">"Transformation"</th>
                            <th scope="col">"Question"</th>
                            <th scope="col">"Your answer"</th>
                            <th scope="col">"Right answer"</th>
                            <th scope="col" class="num">"Time"</th>
                        </tr>
                    </thead>
                    <tbody>
                        {rows
                            .into_iter()
                            .map(|(n, sub, q, yours, right, ok, rt)| {
                                view! {
                                    <tr data-testid="review-answer" data-correct=ok.to_string()
                                        class=if ok { "right" } else { "wrong" }>
                                        <th scope="row">{n}</th>
                                        <td>{sub}</td>
                                        <td>{q}</td>
                                        <td>
                                            <span class="mark" aria-hidden="true">{if ok { "✓ " } else { "✗ " }}</span>
                                            <span class="visually-hidden">{if ok { "right: " } else { "wrong: " }}</span>
                                            {yours}
                                        </td>
                                        <td>{right}</td>
                                        <td class="num">{format!("{:.1} s", rt / 1000.0)}</td>
                                    </tr>
                                }
                            })
                            .collect_view()}
                    </tbody>
                </table>
            </div>
        </details>
    }
}

/// Format of an ability or its interval's end (logits).
fn logit(x: f64) -> String {
    format!("{x:.2}")
}

/// The session on the KiVA item bank's ability scale (issue 41): the ability with its 95%
/// interval, the percentile among KiVA's adults with its interval, the ability per domain, and
/// the model runs on the same scale; all from `selftest::adaptive::score_outcomes`. Sessions of
/// KiVA-adults subdomains are not on the scale (the bank covers KiVA's 14) and say so.
#[component]
fn AbilityPanel(
    /// The session.
    session: Session,
    /// Its saved answers.
    record: Saved,
) -> impl IntoView {
    let bank = LocalResource::new(super::runner::load_bank);
    let form = if session.kind == SessionKind::Adaptive {
        FormKind::Adaptive
    } else {
        FormKind::Fixed
    };
    let outcomes: Result<Vec<TrialOutcome>, String> = session
        .trials
        .iter()
        .zip(&record.responses)
        .filter(|(_, r)| r.extrapolation.is_some())
        .map(|(t, r)| TrialOutcome::of_trial(t, r).map_err(|e| e.to_string()))
        .collect();
    move || {
        let outcomes = outcomes.clone();
        bank.get().map(|b| {
            let result = b.and_then(|bank| {
                outcomes.and_then(|o| score_outcomes(&bank, form, &o).map_err(|e| e.to_string()))
            });
            match result {
                Err(e) => view! {
                    <section class="card" data-testid="ability">
                        <h3>"Ability on KiVA's scale"</h3>
                        <p class="hint">{format!("Not shown for this session: {e}")}</p>
                    </section>
                }
                .into_any(),
                Ok(r) => {
                    let a = r.ability;
                    let p = r.percentile;
                    view! {
                        <section class="card" data-testid="ability">
                            <h3>"Ability on KiVA's scale"</h3>
                            <p data-testid="ability-summary">
                                {format!(
                                    "Ability {} (95% interval {} to {}, SE {:.2}) from {} trials \
                                     ({} answers). Percentile among KiVA's 250 adults: {:.0} \
                                     ({:.0} to {:.0}).",
                                    logit(a.theta), logit(a.low), logit(a.high), a.se, r.trials,
                                    r.responses, p.value, p.low, p.high
                                )}
                            </p>
                            <div class="table-scroll" tabindex="0" role="region" aria-label="Ability by domain">
                                <table class="lb-table" data-testid="ability-profile">
                                    <caption>"By domain: the ability from that domain's trials"</caption>
                                    <thead><tr>
                                        <th scope="col">"Domain"</th>
                                        <th scope="col" class="num">"Trials"</th>
                                        <th scope="col" class="num">"Right"</th>
                                        <th scope="col" class="num">"Ability [95% interval]"</th>
                                    </tr></thead>
                                    <tbody>
                                        {r.profile.into_iter().map(|d| view! {
                                            <tr>
                                                <th scope="row">{d.domain.clone()}</th>
                                                <td class="num">{d.trials}</td>
                                                <td class="num">{format!("{} of {}", d.right, d.answered)}</td>
                                                <td class="num">{d.ability.map_or_else(|| "–".to_string(), |x| format!("{} [{}, {}]", logit(x.theta), logit(x.low), logit(x.high)))}</td>
                                            </tr>
                                        }).collect_view()}
                                    </tbody>
                                </table>
                            </div>
                            <div class="table-scroll" tabindex="0" role="region" aria-label="Models on the same scale">
                                <table class="lb-table" data-testid="ability-models">
                                    <caption>"Models on the same scale (the KiVA repository's runs, every trial)"</caption>
                                    <thead><tr>
                                        <th scope="col">"Model"</th>
                                        <th scope="col" class="num">"Trials"</th>
                                        <th scope="col" class="num">"Ability [95% interval]"</th>
                                        <th scope="col" class="num">"Adults' percentile"</th>
                                    </tr></thead>
                                    <tbody>
                                        <tr class="kind-computed">
                                            <th scope="row">"You"</th>
                                            <td class="num">{r.trials}</td>
                                            <td class="num">{format!("{} [{}, {}]", logit(a.theta), logit(a.low), logit(a.high))}</td>
                                            <td class="num">{format!("{:.0}", p.value)}</td>
                                        </tr>
                                        {r.models.into_iter().map(|m| view! {
                                            <tr>
                                                <th scope="row">{m.label.clone()}</th>
                                                <td class="num">{m.trials}</td>
                                                <td class="num">{format!("{} [{}, {}]", logit(m.ability.theta), logit(m.ability.low), logit(m.ability.high))}</td>
                                                <td class="num">{format!("{:.0}", m.percentile.value)}</td>
                                            </tr>
                                        }).collect_view()}
                                    </tbody>
                                </table>
                            </div>
                            <p class="hint">
                                "The scale: a 2PL item bank of KiVA's 14 subdomains × 3 stages fitted to \
                                 the 250 adults of KiVA's released file (public/data/kiva-bank.json). \
                                 The adults are near the ceiling, so intervals are wide: an ability is \
                                 known to about ±1.4 after 14 trials."
                            </p>
                        </section>
                    }
                    .into_any()
                }
            }
        })
    }
}
