//! Entry point of the coglab web app, run in the page and in the scoring worker (one module):
//! in a worker it serves requests ([`coglab::worker::host::serve`]); in the page it installs the
//! panic hook and mounts [`coglab::App`].

fn main() {
    if coglab::worker::host::in_worker() {
        coglab::worker::host::serve();
        return;
    }
    coglab::install_panic_hook();
    leptos::mount::mount_to_body(coglab::App);
}
