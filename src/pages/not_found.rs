//! The page shown for an unknown route.

use crate::data::href;
use leptos::prelude::*;
use leptos_router::components::A;

/// Not found: says so and links home.
#[component]
pub fn NotFound() -> impl IntoView {
    view! {
        <section data-testid="page-not-found">
            <h1>"Page not found"</h1>
            <p>"There is no page at this address. "<A href=href("/")>"Go to the home page"</A>"."</p>
        </section>
    }
}
