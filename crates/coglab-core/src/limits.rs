//! Upper bounds on the counts a user may ask for (resamples, bootstrap draws, iterations).
//!
//! The CLI checks them when it reads its options, and the core functions that take these
//! counts return an error above them, so the web app (which calls the core directly) refuses
//! the same values with the same message. Without a bound, `--resamples 18446744073709551615`
//! overflowed a capacity computation and `--bootstrap 1000000000000` tried to allocate 8 TB
//! (issue 27, defect 2).

/// Most resamples for a paired bootstrap or a paired permutation test (`compare mmiq
/// --resamples`, `agree --resamples`, the leaderboard's paired comparisons). One million takes
/// a few seconds on the largest real inputs (2,710 MM-IQ items).
pub const MAX_RESAMPLES: usize = 1_000_000;

/// Most SEM bootstrap resamples (`sem --bootstrap`). Each resample refits the PLS model.
pub const MAX_BOOTSTRAP: usize = 100_000;

/// Fewest SEM bootstrap resamples: a standard error needs two successful resamples.
pub const MIN_BOOTSTRAP: usize = 2;

/// Most PLS iterations (`sem --max-iter`, the spec's `max_iterations`).
pub const MAX_ITERATIONS: usize = 100_000;

/// The message shared by the CLI and the core when a count is above its bound.
///
/// # Examples
///
/// ```
/// use coglab_core::limits::{too_many, MAX_RESAMPLES};
/// assert_eq!(
///     too_many("resamples", 2_000_000, MAX_RESAMPLES),
///     "resamples: at most 1000000 allowed, found 2000000"
/// );
/// ```
pub fn too_many(name: &str, found: u128, max: usize) -> String {
    format!("{name}: at most {max} allowed, found {found}")
}
