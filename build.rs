//! With the `split` feature, the app's page module (`coglab-app`) is linked with its relocations
//! kept (`--emit-relocs`): `wasm-split-cli` needs them to move the code of each split point
//! (src/split.rs) into a chunk of its own, before wasm-bindgen (scripts/wasm-split.sh). Only
//! that binary on wasm32; the worker module and native builds are linked as before.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|a| a == "wasm32");
    if wasm && std::env::var_os("CARGO_FEATURE_SPLIT").is_some() {
        println!("cargo:rustc-link-arg-bin=coglab-app=--emit-relocs");
    }
}
