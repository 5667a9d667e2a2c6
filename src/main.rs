//! Entry point of the coglab web app: installs the panic hook and mounts [`coglab::App`].

fn main() {
    coglab::install_panic_hook();
    leptos::mount::mount_to_body(coglab::App);
}
