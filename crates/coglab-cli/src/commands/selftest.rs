//! `coglab selftest simulate`: the KiVA self-test's adaptive or fixed form run on simulated
//! takers (`coglab_run::selftest::simulate`), printed as a line of figures or as JSON
//! `{"form", "trials", "takers", "rmse", "mean_se", "coverage"}`.

use super::{emit, print_json, CliError};
use crate::cli::{FormArg, SimulateArgs};
use coglab_core::selftest::adaptive::{FormKind, FormOptions, SimulateOptions};
use coglab_run::Source;

/// `coglab selftest simulate`.
///
/// # Errors
/// [`CliError::Input`] for an unreadable or invalid bank file, or options out of range.
pub fn simulate(a: &SimulateArgs) -> Result<(), CliError> {
    let kind = match a.form {
        FormArg::Adaptive => FormKind::Adaptive,
        FormArg::Fixed => FormKind::Fixed,
    };
    let mut form = FormOptions::of(kind, a.trials);
    if let Some(k) = a.randomesque {
        form.randomesque = k;
    }
    if let Some(m) = a.max_per_subdomain {
        form.max_per_subdomain = m;
    }
    form.target_se = a.target_se;
    let opts = SimulateOptions {
        form,
        takers: a.takers,
        seed: a.seed,
    };
    let bank = a.bank.as_ref().map(Source::path);
    let s = coglab_run::selftest::simulate(bank.as_ref(), &opts)?;
    if a.json {
        return print_json(&s);
    }
    let mut out = String::new();
    outln!(
        out,
        "{} form, {} trials, {} simulated takers (abilities drawn from the adults' fitted abilities)",
        s.form.as_str(),
        s.trials,
        s.takers
    );
    outln!(
        out,
        "RMSE {:.3}   mean SE {:.3}   95% interval coverage {:.1}%",
        s.rmse,
        s.mean_se,
        100.0 * s.coverage
    );
    emit(&out)
}
