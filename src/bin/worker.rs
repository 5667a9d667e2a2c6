//! Entry point of coglab's scoring worker module (`coglab-worker`): serves the typed requests of
//! [`coglab::worker::api`] in a Web Worker. Trunk builds it as a second wasm module, loaded only
//! by the worker ([`coglab::worker::client::LOADER`]), so the page's own module carries no parser,
//! scorer or statistic.

fn main() {
    coglab::worker::host::serve();
}
