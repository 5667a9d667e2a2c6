//! Simulated response matrices with known item parameters and abilities, and partial runs cut
//! from them (issue 40, item 5): the harness that measures how well [`super::estimate`]
//! recovers a respondent's full-benchmark accuracy from a partial run.
//!
//! Model: two-parameter logistic with a fixed lower asymptote (guessing),
//! `P(right | theta) = g + (1 - g) / (1 + exp(-a (theta - b)))`, `g = 1 / options` (`options`
//! 0: no guessing, `g = 0`), as [`super::estimate::ItemParams::probability`].
//!
//! Distributions (the usual ones of IRT simulation studies, chosen to look like a
//! multiple-choice benchmark of mixed difficulty):
//! - abilities `theta ~ N(0, 1)`, the scale the calibration fixes;
//! - discriminations `a = exp(N(0, s^2))`, log-normal, `s = 0.3` by default (`a` mostly between
//!   0.55 and 1.8, median 1);
//! - difficulties `b ~ N(0, 1)`.
//!
//! Each respondent's full-run accuracy is the proportion right over every simulated item of
//! their own simulated responses (what a partial run's estimate is compared with), not the
//! model's expectation. Everything is drawn from the crate's seeded generator
//! ([`crate::stats::rng::Rng`]): the same options and seed give the same matrix on every
//! platform.

use super::estimate::ItemParams;
use super::matrix::{ItemInfo, RespondentInfo, ResponseMatrix};
use super::ItemsError;
use crate::stats::rng::Rng;
use serde::{Deserialize, Serialize};

/// What to simulate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SimOptions {
    /// Respondents (rows).
    pub respondents: usize,
    /// Items (columns).
    pub items: usize,
    /// Answer options per item: guessing probability `1 / options` (0: no guessing).
    pub options: u32,
    /// Standard deviation of `ln a` (default 0.3).
    pub log_a_sd: f64,
    /// Standard deviation of `b` (default 1).
    pub b_sd: f64,
    /// Seed of the generator.
    pub seed: u64,
}

impl Default for SimOptions {
    fn default() -> Self {
        Self {
            respondents: 300,
            items: 2710,
            options: 4,
            log_a_sd: 0.3,
            b_sd: 1.0,
            seed: 1,
        }
    }
}

/// One simulated respondent's truth.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SimRespondent {
    /// Respondent id (`r0`, `r1`, ...; or the given prefix).
    pub id: String,
    /// True ability.
    pub theta: f64,
    /// Proportion right over all items of their simulated full run.
    pub accuracy: f64,
}

/// A simulated matrix with its true parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Simulated {
    /// The complete responses (no missing cell).
    pub matrix: ResponseMatrix,
    /// Guessing probability `g` used.
    pub guess: f64,
    /// True item parameters, in column order (ids `i0`, `i1`, ...).
    pub items: Vec<ItemParams>,
    /// True abilities and full-run accuracies, in row order.
    pub respondents: Vec<SimRespondent>,
}

/// A standard normal draw (Box-Muller, one deviate per two uniforms).
pub fn normal(rng: &mut Rng) -> f64 {
    let u1 = 1.0 - rng.next_f64(); // in (0, 1]
    let u2 = rng.next_f64();
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

/// The guessing probability of `options` answer options: `1 / options`, 0 for 0 options.
///
/// # Errors
/// [`ItemsError::BadOption`] for one option (every answer right).
///
/// # Examples
/// ```
/// use coglab_core::items::simulate::guess_of;
/// assert_eq!(guess_of(4).unwrap(), 0.25);
/// assert_eq!(guess_of(0).unwrap(), 0.0);
/// assert!(guess_of(1).is_err());
/// ```
pub fn guess_of(options: u32) -> Result<f64, ItemsError> {
    match options {
        0 => Ok(0.0),
        1 => Err(ItemsError::BadOption {
            name: "options",
            expected: "0 (no guessing) or at least 2",
            found: "1".into(),
        }),
        n => Ok(1.0 / f64::from(n)),
    }
}

/// Draws the items and respondents of `opts` (see the module documentation).
///
/// # Errors
/// [`ItemsError::BadOption`] for no items or respondents, one option, a negative or
/// non-finite spread; [`ItemsError::TooLarge`] beyond [`crate::limits::MAX_ITEM_CELLS`].
///
/// # Examples
/// ```
/// use coglab_core::items::simulate::{simulate, SimOptions};
/// let s = simulate(&SimOptions { respondents: 5, items: 20, seed: 3, ..SimOptions::default() })
///     .unwrap();
/// assert_eq!((s.matrix.n_respondents(), s.matrix.n_items()), (5, 20));
/// assert_eq!(s, simulate(&SimOptions { respondents: 5, items: 20, seed: 3,
///     ..SimOptions::default() }).unwrap());
/// ```
pub fn simulate(opts: &SimOptions) -> Result<Simulated, ItemsError> {
    let bad = |name, expected, found: String| ItemsError::BadOption {
        name,
        expected,
        found,
    };
    if opts.items == 0 {
        return Err(bad("items", "at least 1", "0".into()));
    }
    if !(opts.log_a_sd >= 0.0 && opts.log_a_sd.is_finite()) {
        return Err(bad("log_a_sd", "finite, >= 0", opts.log_a_sd.to_string()));
    }
    if !(opts.b_sd >= 0.0 && opts.b_sd.is_finite()) {
        return Err(bad("b_sd", "finite, >= 0", opts.b_sd.to_string()));
    }
    let guess = guess_of(opts.options)?;
    let mut rng = Rng::new(opts.seed);
    let items: Vec<ItemParams> = (0..opts.items)
        .map(|j| {
            let a = (opts.log_a_sd * normal(&mut rng)).exp();
            let b = opts.b_sd * normal(&mut rng);
            ItemParams::new(format!("i{j}"), a, b)
        })
        .collect();
    // The respondents from a stream of their own, so that a different number of items does
    // not change who is drawn.
    respond(
        &items,
        guess,
        opts.respondents,
        opts.seed ^ 0x005E_ED0F_7E57,
        "r",
    )
}

/// Simulates `n` new respondents (abilities `N(0, 1)`) on the given items, with ids
/// `{prefix}0`, `{prefix}1`, ...: test respondents for the same benchmark as a calibration.
///
/// # Errors
/// [`ItemsError::BadOption`] for no items or respondents or `guess` outside [0, 1);
/// [`ItemsError::TooLarge`] beyond [`crate::limits::MAX_ITEM_CELLS`].
///
/// # Examples
/// ```
/// use coglab_core::items::estimate::ItemParams;
/// use coglab_core::items::simulate::respond;
/// let items = vec![ItemParams::new("easy", 1.0, -3.0), ItemParams::new("hard", 1.0, 3.0)];
/// let s = respond(&items, 0.0, 100, 7, "t").unwrap();
/// assert_eq!(s.respondents[0].id, "t0");
/// let easy_right = (0..100).filter(|&i| s.matrix.get(i, 0) == Some(true)).count();
/// assert!(easy_right > 80);
/// ```
pub fn respond(
    items: &[ItemParams],
    guess: f64,
    n: usize,
    seed: u64,
    prefix: &str,
) -> Result<Simulated, ItemsError> {
    if items.is_empty() {
        return Err(ItemsError::BadOption {
            name: "items",
            expected: "at least 1",
            found: "0".into(),
        });
    }
    if n == 0 {
        return Err(ItemsError::BadOption {
            name: "respondents",
            expected: "at least 1",
            found: "0".into(),
        });
    }
    if !(0.0..1.0).contains(&guess) {
        return Err(ItemsError::BadOption {
            name: "guess",
            expected: "0 <= g < 1",
            found: guess.to_string(),
        });
    }
    super::matrix::check_size("simulated", n, items.len())?;
    let mut rng = Rng::new(seed);
    let mut cells = Vec::with_capacity(n * items.len());
    let mut respondents = Vec::with_capacity(n);
    for i in 0..n {
        let theta = normal(&mut rng);
        let mut right = 0usize;
        for it in items {
            let x = rng.next_f64() < it.probability(theta, guess);
            right += usize::from(x);
            cells.push(Some(x));
        }
        respondents.push(SimRespondent {
            id: format!("{prefix}{i}"),
            theta,
            accuracy: right as f64 / items.len() as f64,
        });
    }
    let matrix = ResponseMatrix::new(
        "simulated",
        items
            .iter()
            .map(|it| ItemInfo::new(it.id.clone()))
            .collect(),
        respondents
            .iter()
            .map(|r| RespondentInfo {
                id: r.id.clone(),
                group: None,
            })
            .collect(),
        &cells,
    )?;
    Ok(Simulated {
        matrix,
        guess,
        items: items.to_vec(),
        respondents,
    })
}

/// A partial run: each respondent keeps `k` of their answered items, chosen at random for
/// each respondent separately (a run cut short at random places); every other cell becomes
/// missing. A respondent with `k` or fewer answered items keeps them all.
///
/// # Errors
/// None in practice (the matrix is rebuilt from a valid one); the `Result` is
/// [`ResponseMatrix::new`]'s.
///
/// # Examples
/// ```
/// use coglab_core::items::simulate::{keep_random, simulate, SimOptions};
/// let s = simulate(&SimOptions { respondents: 3, items: 50, ..SimOptions::default() }).unwrap();
/// let p = keep_random(&s.matrix, 10, 9).unwrap();
/// assert!((0..3).all(|i| p.respondent_counts(i).0 == 10));
/// ```
pub fn keep_random(m: &ResponseMatrix, k: usize, seed: u64) -> Result<ResponseMatrix, ItemsError> {
    let mut rng = Rng::new(seed);
    let nj = m.n_items();
    let mut cells = Vec::with_capacity(m.n_respondents() * nj);
    for i in 0..m.n_respondents() {
        let mut answered: Vec<usize> = (0..nj).filter(|&j| m.get(i, j).is_some()).collect();
        rng.shuffle(&mut answered);
        let mut keep = vec![false; nj];
        for &j in answered.iter().take(k) {
            keep[j] = true;
        }
        cells.extend((0..nj).map(|j| if keep[j] { m.get(i, j) } else { None }));
    }
    rebuild(m, &cells)
}

/// A partial run on a fixed item list (a subset every respondent took, like a 500-item
/// subset of MM-IQ): the cells of the listed item columns are kept, all others become
/// missing. Indices out of range are ignored.
///
/// # Errors
/// As [`keep_random`].
///
/// # Examples
/// ```
/// use coglab_core::items::simulate::{keep_items, simulate, SimOptions};
/// let s = simulate(&SimOptions { respondents: 2, items: 5, ..SimOptions::default() }).unwrap();
/// let p = keep_items(&s.matrix, &[0, 3]).unwrap();
/// assert_eq!(p.get(1, 3), s.matrix.get(1, 3));
/// assert_eq!(p.get(1, 2), None);
/// ```
pub fn keep_items(m: &ResponseMatrix, items: &[usize]) -> Result<ResponseMatrix, ItemsError> {
    let nj = m.n_items();
    let mut keep = vec![false; nj];
    for &j in items.iter().filter(|&&j| j < nj) {
        keep[j] = true;
    }
    let mut cells = Vec::with_capacity(m.n_respondents() * nj);
    for i in 0..m.n_respondents() {
        cells.extend((0..nj).map(|j| if keep[j] { m.get(i, j) } else { None }));
    }
    rebuild(m, &cells)
}

fn rebuild(m: &ResponseMatrix, cells: &[Option<bool>]) -> Result<ResponseMatrix, ItemsError> {
    ResponseMatrix::new(
        m.source.clone(),
        m.items.clone(),
        m.respondents.clone(),
        cells,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_matrix_other_seed_other_matrix() {
        let o = SimOptions {
            respondents: 20,
            items: 30,
            ..SimOptions::default()
        };
        let (x, y) = (simulate(&o).unwrap(), simulate(&o).unwrap());
        assert_eq!(x, y);
        let z = simulate(&SimOptions { seed: 2, ..o }).unwrap();
        assert_ne!(x.matrix, z.matrix);
    }

    #[test]
    fn draws_follow_the_documented_distributions() {
        // 2,000 items: mean of ln a near 0 with sd 0.3, b near N(0, 1); 5,000 abilities near
        // N(0, 1). Standard errors: sd / sqrt(n), so 5-sigma bands are about 0.034 (ln a
        // mean), 0.112 (b mean) and 0.071 (theta mean).
        let s = simulate(&SimOptions {
            respondents: 5000,
            items: 2000,
            seed: 11,
            ..SimOptions::default()
        })
        .unwrap();
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        let sd = |v: &[f64]| {
            let m = mean(v);
            (v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (v.len() - 1) as f64).sqrt()
        };
        let la: Vec<f64> = s.items.iter().map(|i| i.a.ln()).collect();
        let b: Vec<f64> = s.items.iter().map(|i| i.b).collect();
        let th: Vec<f64> = s.respondents.iter().map(|r| r.theta).collect();
        assert!(mean(&la).abs() < 0.034, "{}", mean(&la));
        assert!((sd(&la) - 0.3).abs() < 0.03, "{}", sd(&la));
        assert!(mean(&b).abs() < 0.12, "{}", mean(&b));
        assert!((sd(&b) - 1.0).abs() < 0.08, "{}", sd(&b));
        assert!(mean(&th).abs() < 0.071, "{}", mean(&th));
        assert!((sd(&th) - 1.0).abs() < 0.05, "{}", sd(&th));
    }

    #[test]
    fn accuracy_is_the_rows_proportion_right_and_guessing_sets_the_floor() {
        let s = simulate(&SimOptions {
            respondents: 400,
            items: 200,
            ..SimOptions::default()
        })
        .unwrap();
        for (i, r) in s.respondents.iter().enumerate() {
            let (n, right) = s.matrix.respondent_counts(i);
            assert_eq!(n, 200);
            assert_eq!(r.accuracy, right as f64 / 200.0);
        }
        // With g = 1/4, the mean accuracy is 1/4 + 3/4 E[logistic(a(theta - b))], where the
        // expectation is 1/2 by symmetry (theta and b both centred normals): 0.625.
        let mean = s.respondents.iter().map(|r| r.accuracy).sum::<f64>() / 400.0;
        assert!((mean - 0.625).abs() < 0.03, "{mean}");
        // The weakest respondents stay near the guessing floor, not at 0.
        let low = s.respondents.iter().map(|r| r.accuracy).fold(1.0, f64::min);
        assert!(low > 0.2, "{low}");
    }

    #[test]
    fn partial_runs_keep_exactly_the_asked_cells() {
        let s = simulate(&SimOptions {
            respondents: 4,
            items: 40,
            ..SimOptions::default()
        })
        .unwrap();
        let p = keep_random(&s.matrix, 7, 5).unwrap();
        for i in 0..4 {
            assert_eq!(p.respondent_counts(i).0, 7);
            for j in 0..40 {
                if let Some(x) = p.get(i, j) {
                    assert_eq!(Some(x), s.matrix.get(i, j));
                }
            }
        }
        // Different respondents get different subsets; the same seed the same ones.
        let kept = |i| {
            (0..40)
                .filter(|&j| p.get(i, j).is_some())
                .collect::<Vec<_>>()
        };
        assert_ne!(kept(0), kept(1));
        assert_eq!(p, keep_random(&s.matrix, 7, 5).unwrap());
        // Asking for more than there is keeps everything.
        assert_eq!(keep_random(&s.matrix, 100, 1).unwrap(), s.matrix);
        let q = keep_items(&s.matrix, &[2, 39, 400]).unwrap();
        assert!((0..4).all(|i| q.respondent_counts(i).0 == 2));
    }

    #[test]
    fn bad_options_are_refused() {
        let o = SimOptions::default();
        assert!(simulate(&SimOptions {
            items: 0,
            ..o.clone()
        })
        .is_err());
        assert!(simulate(&SimOptions {
            options: 1,
            ..o.clone()
        })
        .is_err());
        assert!(simulate(&SimOptions {
            log_a_sd: f64::NAN,
            ..o.clone()
        })
        .is_err());
        assert!(simulate(&SimOptions {
            respondents: 0,
            ..o
        })
        .is_err());
    }
}
