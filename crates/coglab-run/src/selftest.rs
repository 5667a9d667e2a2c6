//! `coglab selftest simulate`: simulated takers through the KiVA self-test's adaptive or fixed
//! form over the item bank (`coglab_core::selftest::adaptive::simulate`), summarised as
//! `{form, trials, takers, rmse, mean_se, coverage}` on the ability scale.
//!
//! The bank is the app's `public/data/kiva-bank.json`, built into the binary, or a bank file
//! given by path or bytes.

use coglab_core::selftest::adaptive::{
    simulate as run_simulation, SimulateOptions, SimulationSummary,
};
use coglab_core::selftest::bank::ItemBank;

use crate::{RunError, Source};

/// The bank the app ships (`public/data/kiva-bank.json`), built in.
pub const BUNDLED_BANK: &str = include_str!("../../../public/data/kiva-bank.json");

/// The bank: `bank` when given, else the bundled one.
///
/// # Errors
/// [`RunError::Input`] for an unreadable file or one that is not a valid bank (naming it, in
/// the message and as its `file`).
pub fn bank(bank: Option<&Source>) -> Result<ItemBank, RunError> {
    match bank {
        None => Ok(ItemBank::from_json(BUNDLED_BANK)?),
        Some(src) => {
            let bytes = src.bytes()?;
            let text = std::str::from_utf8(&bytes).map_err(|e| {
                RunError::in_file(src.label(), format!("{}: not UTF-8 text: {e}", src.label()))
            })?;
            ItemBank::from_json(text).map_err(|e| {
                let mut err = RunError::from(e).prefixed(src.label());
                if let RunError::Input(l) = &mut err {
                    l.file.get_or_insert_with(|| src.label().to_string());
                }
                err
            })
        }
    }
}

/// Runs the simulation.
///
/// # Errors
/// As [`bank`]; [`RunError::Input`] for options out of range (naming the option).
pub fn simulate(
    bank_file: Option<&Source>,
    opts: &SimulateOptions,
) -> Result<SimulationSummary, RunError> {
    let b = bank(bank_file)?;
    Ok(run_simulation(&b, opts)?)
}
