//! Entry point of coglab's scoring worker module (`coglab-worker`): serves the typed requests of
//! [`coglab_worker::api`] in a Web Worker. Trunk builds it as the app's second wasm module
//! (`index.html`), loaded only by the worker (the app's `worker::client::LOADER`), so the
//! page's own module carries no parser, scorer or statistic, and this one carries no page.

fn main() {
    coglab_worker::host::serve();
}
