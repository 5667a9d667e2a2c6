//! Entry point of the coglab web app's page module: installs the panic hook and mounts
//! [`coglab::App`]. The scoring worker is a module of its own (`crates/coglab-worker`).

fn main() {
    coglab::install_panic_hook();
    leptos::mount::mount_to_body(coglab::App);
    // index.html's loading placeholder (and page for readers without JavaScript) is done.
    if let Some(boot) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("boot"))
    {
        boot.remove();
    }
}
