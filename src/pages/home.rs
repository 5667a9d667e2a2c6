//! Home: what coglab does, with a link to each part.

use crate::data::href;
use leptos::prelude::*;
use leptos_router::components::A;

/// The home page.
#[component]
pub fn Home() -> impl IntoView {
    view! {
        <section class="hero" data-testid="page-home">
            <h1>"Cognitive benchmarks of multimodal models, scored in your browser"</h1>
            <p class="lede">
                "coglab reads, scores and lets you take four cognitive benchmarks of multimodal AI \
                 models. Every number is computed on this page by the same Rust library as the \
                 "<code>"coglab"</code>" command-line tool; there is no server."
            </p>
        </section>
        <div class="cards">
            <article class="card">
                <h2><A href=href("/leaderboard")>"Leaderboard"</A></h2>
                <p>"The results reported in the MM-IQ, KiVA, MM-OPERA and Gold papers as sortable \
                    tables, with the source of every number."</p>
            </article>
            <article class="card">
                <h2><A href=href("/self-test")>"Self-test (KiVA)"</A></h2>
                <p>"Take kid-inspired visual-analogy trials (what changed, how, and apply it) and \
                    see how you compare with children, adults and models."</p>
            </article>
            <article class="card">
                <h2><A href=href("/review")>"Review"</A></h2>
                <p>"Open result files offline, read them item by item and re-score an LLM judge's \
                    outputs by hand, without losing your work."</p>
            </article>
            <article class="card">
                <h2><A href=href("/structure")>"Structure (Gold)"</A></h2>
                <p>"Analyse a benchmark suite's structure with PLS-SEM: which tasks are redundant \
                    or weak, whether abilities separate, and a weighted overall score."</p>
            </article>
        </div>
        <section class="benchmarks">
            <h2>"The benchmarks"</h2>
            <dl>
                <dt>"MM-IQ"</dt>
                <dd>"2,710 multiple-choice visual IQ items in 8 reasoning paradigms; answers are \
                     extracted from free-form responses; accuracy against a 25% chance baseline \
                     and a 51.27% human mean."</dd>
                <dt>"KiVA"</dt>
                <dd>"Visual analogies in 5 domains (14 subdomains; KiVA-adults: 29), each trial in \
                     three stages: what changed, how it changed, and applying the rule to a new \
                     object."</dd>
                <dt>"MM-OPERA"</dt>
                <dd>"Open-ended association (RIA, ICA) judged 0-4 by an LLM: score rate, high-score \
                     rates and a process-reward reasoning score."</dd>
                <dt>"Gold"</dt>
                <dd>"PLS-SEM analysis of a benchmark suite from a model × task score matrix: \
                     loadings, VIF, HTMT, reliability, pruning and weighted overall scores."</dd>
            </dl>
        </section>
    }
}
