//! Times the Rasch and 2PL fits of the items bench (2,710 items x 300 respondents, the same
//! seeded matrix as `crates/coglab-core/benches/items.rs`) in V8's WebAssembly engine, built
//! with the app's size profile (opt-level "z", LTO) and, being inside the repository, the app's
//! wasm32 flags from `.cargo/config.toml` (`+simd128`, `-inline-threshold=0`), as the scoring
//! worker runs it.
//!
//! ```sh
//! cd tools/items-wasm-timing
//! CARGO_TARGET_DIR=/tmp/items-wasm-target cargo build --release --target wasm32-unknown-unknown
//! node run.mjs /tmp/items-wasm-target/wasm32-unknown-unknown/release/items_wasm_timing.wasm
//! ```
use coglab_core::items::matrix::{ItemInfo, RespondentInfo};
use coglab_core::items::{fit, IrtModel, IrtOptions, ResponseMatrix};
use coglab_core::stats::rng::Rng;
use std::cell::RefCell;

thread_local! { static M: RefCell<Option<ResponseMatrix>> = const { RefCell::new(None) }; }

fn normal(rng: &mut Rng) -> f64 {
    let u1 = rng.next_f64().max(1e-300);
    let u2 = rng.next_f64();
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

/// Builds the matrix (kept for the timed calls).
#[no_mangle]
pub extern "C" fn make() {
    const ITEMS: usize = 2710;
    const RESPONDENTS: usize = 300;
    let mut rng = Rng::new(2710);
    let a: Vec<f64> = (0..ITEMS).map(|_| 0.5 + 2.0 * rng.next_f64()).collect();
    let b: Vec<f64> = (0..ITEMS).map(|_| -2.0 + 4.0 * rng.next_f64()).collect();
    let mut cells = Vec::with_capacity(ITEMS * RESPONDENTS);
    for _ in 0..RESPONDENTS {
        let t = normal(&mut rng);
        for (aj, bj) in a.iter().zip(&b) {
            let p = 1.0 / (1.0 + (-aj * (t - bj)).exp());
            cells.push(Some(rng.next_f64() < p));
        }
    }
    let items = (0..ITEMS).map(|j| ItemInfo::new(format!("{j}"))).collect();
    let resp = (0..RESPONDENTS)
        .map(|i| RespondentInfo {
            id: format!("model{i}"),
            group: Some("model".into()),
        })
        .collect();
    let m = ResponseMatrix::new("bench", items, resp, &cells).unwrap();
    M.with(|c| *c.borrow_mut() = Some(m));
}

/// Fits Rasch (`rasch` = 1) or 2PL; returns the EM cycles, plus 100,000 when converged.
#[no_mangle]
pub extern "C" fn fit_model(rasch: u32) -> u32 {
    M.with(|c| {
        let b = c.borrow();
        let m = b.as_ref().unwrap();
        let opts = IrtOptions {
            model: if rasch == 1 {
                IrtModel::Rasch
            } else {
                IrtModel::TwoPl
            },
            item_curves: false,
            ..IrtOptions::default()
        };
        let f = fit(m, &opts).unwrap();
        f.iterations as u32 + if f.converged { 100_000 } else { 0 }
    })
}
