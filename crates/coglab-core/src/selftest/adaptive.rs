//! The self-test as a measuring instrument (issue 41): a form that picks the next KiVA trial
//! from the item bank ([`super::bank`]) for the most information at the current ability
//! estimate, or gives the fixed 14-trial form, through one interface; and the simulation that
//! compares the two.
//!
//! # A session ([`FormSession`])
//! [`FormSession::next_subdomain`] names the subdomain of the next trial (the page draws a
//! fresh variation of it, [`super::trial_for`]); [`FormSession::record`] takes the trial's
//! answers ([`TrialOutcome`]: stage 1, stage 2 only after a right stage 1, stage 3), updates
//! the ability posterior and so the estimate; [`FormSession::result`] gives the ability with its
//! interval, the percentile among the adults with its interval, the per-domain profile and the
//! model runs on the same scale. Everything is deterministic given the seed, so a session is
//! replayed from its seed and answers ([`FormSession::replay`]).
//!
//! - **Fixed** ([`FormKind::Fixed`]): the 14 subdomains once each in an order shuffled by the
//!   seed (today's self-test); past 14 trials, another shuffled pass.
//! - **Adaptive** ([`FormKind::Adaptive`]): at the current EAP `t`, each subdomain's expected
//!   trial information is `I_1(t) + P_1(t) I_2(t) + I_3(t)` (stage `k`'s 2PL information
//!   `a^2 P (1 - P)`; stage 2 counts only as often as it is asked, after a right stage 1).
//!   Exposure control is randomesque (Kingsbury and Zara 1989): the next subdomain is drawn at
//!   random among the [`FormOptions::randomesque`] most informative, so sessions differ and
//!   no subdomain is always first; and a subdomain is given at most
//!   [`FormOptions::max_per_subdomain`] times (each time a new variation, which the bank takes
//!   as exchangeable).
//!
//! The session stops after [`FormOptions::max_trials`] trials, or earlier once the standard
//! error is at most [`FormOptions::target_se`] (after [`FormOptions::min_trials`]), or when no
//! subdomain is left.
//!
//! # Simulation ([`simulate`])
//! Takers are drawn from the adults' fitted abilities: an adult at random, then an ability
//! from a normal with that adult's EAP and posterior SD (a plausible value, normal
//! approximation of the adult's posterior), so the takers spread as the adults do, including
//! the uncertainty of each adult's ability. Each taker answers by the 2PL of the bank (stage 2
//! only after a right stage 1). Reported on the ability scale: RMSE of the EAP, mean posterior
//! SD and the share of 95% intervals that hold the taker's ability.

use super::bank::{
    BankError, DomainAbility, ItemBank, ModelAbility, Percentile, TrialOutcome, LEVEL,
};
use crate::items::estimate::{AbilityPosterior, AbilitySummary};
use crate::items::simulate::normal;
use crate::kiva::{Stage, KIVA_SUBDOMAINS};
use crate::stats::rng::Rng;
use serde::{Deserialize, Serialize};

/// The two forms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FormKind {
    /// Most information at the current estimate, randomesque.
    Adaptive,
    /// The 14 subdomains once each, shuffled.
    Fixed,
}

impl FormKind {
    /// Reads `adaptive` or `fixed`.
    ///
    /// # Errors
    /// [`BankError::BadOption`] for anything else.
    pub fn parse(s: &str) -> Result<Self, BankError> {
        match s {
            "adaptive" => Ok(Self::Adaptive),
            "fixed" => Ok(Self::Fixed),
            _ => Err(BankError::BadOption {
                name: "form",
                expected: "adaptive or fixed",
                found: s.to_string(),
            }),
        }
    }

    /// `adaptive` or `fixed`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Adaptive => "adaptive",
            Self::Fixed => "fixed",
        }
    }
}

/// Most trials a session takes.
pub const MAX_TRIALS: usize = 200;

/// The form and its stopping rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FormOptions {
    /// Adaptive or fixed.
    pub kind: FormKind,
    /// Stop after this many trials (default 14, 1 to [`MAX_TRIALS`]).
    pub max_trials: usize,
    /// Stop earlier once the standard error is at most this (default none).
    pub target_se: Option<f64>,
    /// Fewest trials before `target_se` may stop the session (default 4).
    pub min_trials: usize,
    /// Adaptive: draw among this many most informative subdomains (default 3; 1 = always
    /// the most informative).
    pub randomesque: usize,
    /// Adaptive: most times one subdomain is given (default 2).
    pub max_per_subdomain: usize,
}

impl Default for FormOptions {
    fn default() -> Self {
        Self {
            kind: FormKind::Adaptive,
            max_trials: 14,
            target_se: None,
            min_trials: 4,
            randomesque: 3,
            max_per_subdomain: 2,
        }
    }
}

impl FormOptions {
    /// The options of a form with its defaults.
    pub fn of(kind: FormKind, max_trials: usize) -> Self {
        Self {
            kind,
            max_trials,
            ..Self::default()
        }
    }

    /// Checks the options.
    ///
    /// # Errors
    /// [`BankError::BadOption`] naming the option.
    pub fn validate(&self) -> Result<(), BankError> {
        let bad = |name, expected, found: String| {
            Err(BankError::BadOption {
                name,
                expected,
                found,
            })
        };
        if !(1..=MAX_TRIALS).contains(&self.max_trials) {
            return bad("trials", "1 to 200", self.max_trials.to_string());
        }
        if let Some(t) = self.target_se {
            if !(t > 0.0 && t.is_finite()) {
                return bad("target_se", "a positive number", t.to_string());
            }
        }
        if !(1..=KIVA_SUBDOMAINS.len()).contains(&self.randomesque) {
            return bad("randomesque", "1 to 14", self.randomesque.to_string());
        }
        if self.max_per_subdomain == 0 {
            return bad("max_per_subdomain", "at least 1", "0".into());
        }
        Ok(())
    }
}

/// A subdomain's expected information for one trial at `theta`:
/// `I_cross + P_cross I_within + I_extrapolation` (stage 2 is asked only after a right
/// stage 1); 0 for a subdomain index the bank has no items for.
///
/// # Examples
/// ```
/// use coglab_core::selftest::adaptive::trial_information;
/// # let bank: coglab_core::selftest::bank::ItemBank = serde_json::from_str(include_str!("../../../../public/data/kiva-bank.json")).unwrap();
/// let i = trial_information(&bank, 0, 0.0);
/// assert!(i > 0.0);
/// assert_eq!(trial_information(&bank, 14, 0.0), 0.0); // no 15th subdomain
/// ```
pub fn trial_information(bank: &ItemBank, subdomain: usize, theta: f64) -> f64 {
    let Some([cross, within, extrapolation]) = bank.items.get(3 * subdomain..3 * subdomain + 3)
    else {
        return 0.0;
    };
    cross.information(theta)
        + cross.probability(theta) * within.information(theta)
        + extrapolation.information(theta)
}

/// One session of a form (see the module documentation).
#[derive(Debug, Clone)]
pub struct FormSession {
    bank: ItemBank,
    options: FormOptions,
    rng: Rng,
    posterior: AbilityPosterior,
    trials: Vec<TrialOutcome>,
    given: [usize; 14],
    order: Vec<usize>,
    pending: Option<usize>,
}

/// What a session measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FormResult {
    /// The form.
    pub form: FormKind,
    /// Trials given.
    pub trials: usize,
    /// Item responses (two or three per trial).
    pub responses: usize,
    /// Ability: EAP, SE and 95% interval.
    pub ability: AbilitySummary,
    /// Percentile among the adults of the bank, with its interval.
    pub percentile: Percentile,
    /// Per domain, the ability from that domain's trials.
    pub profile: Vec<DomainAbility>,
    /// Model runs on the same scale (labelled as models).
    pub models: Vec<ModelAbility>,
}

impl FormSession {
    /// A new session.
    ///
    /// # Errors
    /// [`BankError::BadOption`] for invalid options; [`BankError::BadBank`] for a bank that
    /// fails [`ItemBank::validate`].
    pub fn new(bank: &ItemBank, options: FormOptions, seed: u64) -> Result<Self, BankError> {
        options.validate()?;
        bank.validate()?;
        Ok(Self {
            posterior: bank.prior()?,
            bank: bank.clone(),
            options,
            rng: Rng::new(seed),
            trials: Vec::new(),
            given: [0; 14],
            order: Vec::new(),
            pending: None,
        })
    }

    /// A session rebuilt from its seed and the answers given so far (each must be the trial
    /// the session asked at that point).
    ///
    /// # Errors
    /// As [`FormSession::new`] and [`FormSession::record`].
    pub fn replay(
        bank: &ItemBank,
        options: FormOptions,
        seed: u64,
        answers: &[TrialOutcome],
    ) -> Result<Self, BankError> {
        let mut s = Self::new(bank, options, seed)?;
        for a in answers {
            s.next_subdomain();
            s.record(a.clone())?;
        }
        Ok(s)
    }

    /// The current estimate.
    pub fn estimate(&self) -> AbilitySummary {
        self.posterior.summary(LEVEL)
    }

    /// The session's form and stopping rule.
    pub fn options(&self) -> &FormOptions {
        &self.options
    }

    /// The trials answered so far.
    pub fn trials(&self) -> &[TrialOutcome] {
        &self.trials
    }

    /// Whether the stopping rule has been met (see the module documentation).
    pub fn is_done(&self) -> bool {
        let n = self.trials.len();
        if n >= self.options.max_trials {
            return true;
        }
        if let Some(t) = self.options.target_se {
            if n >= self.options.min_trials && self.estimate().se <= t {
                return true;
            }
        }
        self.options.kind == FormKind::Adaptive
            && self
                .given
                .iter()
                .all(|&g| g >= self.options.max_per_subdomain)
    }

    /// The subdomain of the next trial, or `None` when the session is done. Asking again
    /// before [`FormSession::record`] names the same subdomain.
    pub fn next_subdomain(&mut self) -> Option<&'static str> {
        if let Some(s) = self.pending {
            return Some(KIVA_SUBDOMAINS[s]);
        }
        if self.is_done() {
            return None;
        }
        let s = match self.options.kind {
            FormKind::Fixed => {
                if self.order.is_empty() {
                    let mut pass: Vec<usize> = (0..KIVA_SUBDOMAINS.len()).collect();
                    self.rng.shuffle(&mut pass);
                    pass.reverse();
                    self.order = pass;
                }
                self.order.pop()?
            }
            FormKind::Adaptive => {
                let theta = self.estimate().theta;
                let mut open: Vec<(usize, f64)> = (0..KIVA_SUBDOMAINS.len())
                    .filter(|&s| self.given[s] < self.options.max_per_subdomain)
                    .map(|s| (s, trial_information(&self.bank, s, theta)))
                    .collect();
                open.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(&y.0)));
                open.truncate(self.options.randomesque);
                if open.is_empty() {
                    return None;
                }
                open[self.rng.below(open.len())].0
            }
        };
        self.pending = Some(s);
        Some(KIVA_SUBDOMAINS[s])
    }

    /// Records the answers to the trial [`FormSession::next_subdomain`] named.
    ///
    /// # Errors
    /// [`BankError::BadTrial`] when no trial is pending, the outcome is of another subdomain,
    /// or its stages break the procedure (see [`TrialOutcome::new`]).
    pub fn record(&mut self, outcome: TrialOutcome) -> Result<(), BankError> {
        let trial = self.trials.len() + 1;
        let Some(s) = self.pending else {
            return Err(BankError::BadTrial {
                trial,
                subdomain: outcome.subdomain,
                message: "no trial was asked (call next_subdomain first)".into(),
            });
        };
        if outcome.subdomain != KIVA_SUBDOMAINS[s] {
            return Err(BankError::BadTrial {
                trial,
                subdomain: outcome.subdomain,
                message: format!("the session asked {}", KIVA_SUBDOMAINS[s]),
            });
        }
        let checked = TrialOutcome::new(
            &outcome.subdomain,
            outcome.cross,
            outcome.within,
            outcome.extrapolation,
        )
        .map_err(|e| match e {
            BankError::BadTrial {
                subdomain, message, ..
            } => BankError::BadTrial {
                trial,
                subdomain,
                message,
            },
            other => other,
        })?;
        self.bank.update(&mut self.posterior, &checked.responses());
        self.given[s] += 1;
        self.trials.push(checked);
        self.pending = None;
        Ok(())
    }

    /// The result so far.
    ///
    /// # Errors
    /// [`BankError::Items`] for an invalid grid (a validated bank has none).
    pub fn result(&self) -> Result<FormResult, BankError> {
        let ability = self.estimate();
        Ok(FormResult {
            form: self.options.kind,
            trials: self.trials.len(),
            responses: ability.answered,
            percentile: self.bank.percentile_of(&ability),
            ability,
            profile: self.bank.profile(&self.trials)?,
            models: self.bank.models.clone(),
        })
    }
}

/// What the trials of any session measured, on the bank's scale: the ability from every
/// outcome, as a [`FormSession`] would have it after them (the page's fixed 14-trial session
/// asks the subdomains in its own order, so it is scored here rather than replayed).
///
/// # Errors
/// [`BankError::BadTrial`] for an outcome that breaks the procedure or is of a subdomain not in
/// the bank; [`BankError::BadBank`] for a bank that fails [`ItemBank::validate`].
pub fn score_outcomes(
    bank: &ItemBank,
    form: FormKind,
    outcomes: &[TrialOutcome],
) -> Result<FormResult, BankError> {
    bank.validate()?;
    let mut posterior = bank.prior()?;
    for (i, o) in outcomes.iter().enumerate() {
        let checked = TrialOutcome::new(&o.subdomain, o.cross, o.within, o.extrapolation).map_err(
            |e| match e {
                BankError::BadTrial {
                    subdomain, message, ..
                } => BankError::BadTrial {
                    trial: i + 1,
                    subdomain,
                    message,
                },
                other => other,
            },
        )?;
        bank.update(&mut posterior, &checked.responses());
    }
    let ability = posterior.summary(LEVEL);
    Ok(FormResult {
        form,
        trials: outcomes.len(),
        responses: ability.answered,
        percentile: bank.percentile_of(&ability),
        ability,
        profile: bank.profile(outcomes)?,
        models: bank.models.clone(),
    })
}

/// An adaptive self-test session as the page runs it, rebuilt from its seed and the answers so
/// far: the trials answered (each the one the form asked, drawn by [`crate::selftest::trial_for`]
/// with the trial's number as its variation) and, unless the form has stopped, the next one.
/// The page calls this again after each trial; the same seed and answers give the same trials.
///
/// # Errors
/// As [`FormSession::new`] and [`FormSession::record`] (answers that are not the trials this
/// seed asks).
pub fn adaptive_session(
    bank: &ItemBank,
    options: FormOptions,
    seed: u64,
    responses: &[super::TrialResponses],
) -> Result<(super::Session, FormSession), BankError> {
    let mut form = FormSession::new(bank, options, seed)?;
    let mut trials = Vec::new();
    for r in responses.iter().filter(|r| r.extrapolation.is_some()) {
        let Some(sub) = form.next_subdomain() else {
            break;
        };
        let trial = next_trial(sub, seed, trials.len())?;
        form.record(TrialOutcome::of_trial(&trial, r)?)?;
        trials.push(trial);
    }
    if let Some(sub) = form.next_subdomain() {
        trials.push(next_trial(sub, seed, trials.len())?);
    }
    let session = super::Session {
        kind: super::SessionKind::Adaptive,
        seed,
        variant: crate::kiva::Variant::Kiva,
        trials,
    };
    Ok((session, form))
}

/// The trial of `subdomain` at position `before` (0-based) of an adaptive session.
fn next_trial(subdomain: &str, seed: u64, before: usize) -> Result<super::Trial, BankError> {
    super::trial_for(
        crate::kiva::Variant::Kiva,
        subdomain,
        seed,
        before as u64 + 1,
    )
    .ok_or_else(|| BankError::BadTrial {
        trial: before + 1,
        subdomain: subdomain.to_string(),
        message: "not a KiVA subdomain".into(),
    })
}

/// Settings of [`simulate`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SimulateOptions {
    /// The form (its `max_trials` is the number of trials).
    pub form: FormOptions,
    /// Simulated takers (1 to [`MAX_TAKERS`]).
    pub takers: usize,
    /// Seed.
    pub seed: u64,
}

/// Most takers a simulation takes.
pub const MAX_TAKERS: usize = 1_000_000;

/// What `coglab selftest simulate --json` prints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SimulationSummary {
    /// `adaptive` or `fixed`.
    pub form: FormKind,
    /// Trials per taker (the most; a target SE can stop earlier).
    pub trials: usize,
    /// Takers.
    pub takers: usize,
    /// Root mean square error of the EAP against the taker's ability.
    pub rmse: f64,
    /// Mean posterior SD.
    pub mean_se: f64,
    /// Share of 95% intervals holding the taker's ability.
    pub coverage: f64,
}

/// Simulates takers through a form (see the module documentation).
///
/// # Errors
/// [`BankError::BadOption`] for invalid options or a taker count outside 1 to
/// [`MAX_TAKERS`]; [`BankError::BadBank`] for an invalid bank.
///
/// # Examples
/// ```
/// use coglab_core::selftest::adaptive::{simulate, FormKind, FormOptions, SimulateOptions};
/// # let bank: coglab_core::selftest::bank::ItemBank = serde_json::from_str(include_str!("../../../../public/data/kiva-bank.json")).unwrap();
/// let opts = SimulateOptions { form: FormOptions::of(FormKind::Fixed, 14), takers: 50, seed: 1 };
/// let s = simulate(&bank, &opts).unwrap();
/// assert_eq!((s.trials, s.takers), (14, 50));
/// assert!(s.mean_se > 0.0 && s.coverage <= 1.0);
/// ```
pub fn simulate(bank: &ItemBank, opts: &SimulateOptions) -> Result<SimulationSummary, BankError> {
    if !(1..=MAX_TAKERS).contains(&opts.takers) {
        return Err(BankError::BadOption {
            name: "takers",
            expected: "1 to 1000000",
            found: opts.takers.to_string(),
        });
    }
    opts.form.validate()?;
    bank.validate()?;
    let mut rng = Rng::new(opts.seed);
    let (mut sq, mut se, mut covered) = (0.0, 0.0, 0usize);
    for _ in 0..opts.takers {
        let adult = bank.adults[rng.below(bank.adults.len())];
        let theta = adult.theta + adult.se * normal(&mut rng);
        let mut session = FormSession::new(bank, opts.form.clone(), rng.next_u64())?;
        while let Some(sub) = session.next_subdomain() {
            let base = 3 * KIVA_SUBDOMAINS.iter().position(|s| *s == sub).unwrap_or(0);
            let mut answer = |k: usize| rng.next_f64() < bank.items[base + k].probability(theta);
            let cross = answer(Stage::Cross as usize);
            let within = cross.then(|| answer(Stage::Within as usize));
            let extrapolation = answer(Stage::Extrapolation as usize);
            session.record(TrialOutcome {
                subdomain: sub.to_string(),
                cross,
                within,
                extrapolation,
            })?;
        }
        let est = session.estimate();
        sq += (est.theta - theta).powi(2);
        se += est.se;
        covered += usize::from(est.low <= theta && theta <= est.high);
    }
    let n = opts.takers as f64;
    Ok(SimulationSummary {
        form: opts.form.kind,
        trials: opts.form.max_trials,
        takers: opts.takers,
        rmse: (sq / n).sqrt(),
        mean_se: se / n,
        coverage: covered as f64 / n,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selftest::bank::test_bank;
    use approx::assert_abs_diff_eq;

    fn answer(sub: &str, cross: bool, within: Option<bool>, extrapolation: bool) -> TrialOutcome {
        TrialOutcome::new(sub, cross, within, extrapolation).unwrap()
    }

    #[test]
    fn trial_information_counts_stage_2_as_often_as_it_is_asked() {
        // a = 1, b = 0 at theta = 0: P = 1/2, each item's information 1/4; the trial's
        // 1/4 + 1/2 x 1/4 + 1/4 = 0.625.
        let bank = test_bank(|_| (1.0, 0.0));
        assert_abs_diff_eq!(trial_information(&bank, 4, 0.0), 0.625, epsilon = 1e-15);
        // Stage 1 at b = -ln 3 (P = 3/4 at 0, information 3/16), stages 2 and 3 as above:
        // 3/16 + 3/4 x 1/4 + 1/4 = 0.625 as well; at theta = ln 3 stage 1 has P = 9/10
        // (information 9/100), stage 2 and 3 P = 3/4 (3/16): 0.09 + 0.9 x 0.1875 + 0.1875.
        let l3 = 3f64.ln();
        let bank = test_bank(|j| (1.0, if j % 3 == 0 { -l3 } else { 0.0 }));
        assert_abs_diff_eq!(trial_information(&bank, 0, 0.0), 0.625, epsilon = 1e-15);
        assert_abs_diff_eq!(
            trial_information(&bank, 0, l3),
            0.09 + 0.9 * 0.1875 + 0.1875,
            epsilon = 1e-15
        );
    }

    #[test]
    fn adaptive_takes_the_most_informative_subdomain_then_respects_the_exposure_cap() {
        // ColourRed's items (15-17) have a = 2, b = 0: at the prior mean 0 the trial's
        // information is 1 + 1/2 x 1 + 1 = 2.5; every other item a = 1, b = 3:
        // information 0.0452 each. With randomesque 1 the first trial is ColourRed; with
        // at most one per subdomain, the second is not.
        let bank = test_bank(|j| if j / 3 == 5 { (2.0, 0.0) } else { (1.0, 3.0) });
        let opts = FormOptions {
            randomesque: 1,
            max_per_subdomain: 1,
            ..FormOptions::default()
        };
        let mut s = FormSession::new(&bank, opts, 9).unwrap();
        assert_eq!(s.next_subdomain(), Some("ColourRed"));
        assert_eq!(
            s.next_subdomain(),
            Some("ColourRed"),
            "asked again: same trial"
        );
        s.record(answer("ColourRed", true, Some(true), true))
            .unwrap();
        let second = s.next_subdomain().unwrap();
        assert_ne!(second, "ColourRed");
        // All other subdomains are alike; ties go to the first in KIVA_SUBDOMAINS order.
        assert_eq!(second, "2DRotation+90");
    }

    #[test]
    fn fixed_form_gives_each_subdomain_once_then_another_pass() {
        let bank = test_bank(|_| (1.0, 0.0));
        let mut s = FormSession::new(&bank, FormOptions::of(FormKind::Fixed, 20), 3).unwrap();
        let mut seen = Vec::new();
        while let Some(sub) = s.next_subdomain() {
            seen.push(sub);
            s.record(answer(sub, true, Some(true), true)).unwrap();
        }
        assert_eq!(seen.len(), 20);
        let mut first: Vec<&str> = seen[..14].to_vec();
        first.sort_unstable();
        let mut all = KIVA_SUBDOMAINS.to_vec();
        all.sort_unstable();
        assert_eq!(first, all);
        let mut second: Vec<&str> = seen[14..].to_vec();
        second.sort_unstable();
        second.dedup();
        assert_eq!(second.len(), 6);
        assert!(s.is_done() && s.next_subdomain().is_none());
    }

    #[test]
    fn sessions_are_deterministic_by_seed_and_differ_across_seeds() {
        let bank = test_bank(|j| (1.0 + 0.02 * j as f64, -1.0 + 0.05 * j as f64));
        let run = |seed: u64| {
            let mut s = FormSession::new(&bank, FormOptions::default(), seed).unwrap();
            let mut seq = Vec::new();
            while let Some(sub) = s.next_subdomain() {
                seq.push(sub);
                let right = seq.len() % 4 != 0;
                s.record(answer(sub, right, right.then_some(true), right))
                    .unwrap();
            }
            (seq, s)
        };
        let (a, sa) = run(5);
        let (b, _) = run(5);
        assert_eq!(a, b);
        assert_eq!(a.len(), 14);
        let firsts: std::collections::BTreeSet<&str> = (0..20).map(|s| run(s).0[0]).collect();
        assert!(firsts.len() >= 2 && firsts.len() <= 3, "{firsts:?}");
        // No subdomain more than twice (the default cap).
        for sub in KIVA_SUBDOMAINS {
            assert!(a.iter().filter(|s| **s == sub).count() <= 2);
        }
        // Replay from the answers gives the same state.
        let again = FormSession::replay(&bank, FormOptions::default(), 5, sa.trials()).unwrap();
        assert_eq!(again.estimate(), sa.estimate());
        assert_eq!(again.result().unwrap(), sa.result().unwrap());
    }

    #[test]
    fn target_se_stops_early_but_not_before_the_minimum() {
        let bank = test_bank(|_| (1.0, 0.0));
        let opts = FormOptions {
            target_se: Some(0.99),
            ..FormOptions::default()
        };
        let mut s = FormSession::new(&bank, opts, 1).unwrap();
        let mut n = 0;
        while let Some(sub) = s.next_subdomain() {
            s.record(answer(sub, true, Some(false), true)).unwrap();
            n += 1;
        }
        assert_eq!(n, 4);
    }

    #[test]
    fn records_that_break_the_procedure_are_refused_with_the_trial_number() {
        let bank = test_bank(|_| (1.0, 0.0));
        let mut s = FormSession::new(&bank, FormOptions::of(FormKind::Fixed, 14), 2).unwrap();
        assert!(matches!(
            s.record(answer("ColourRed", true, Some(true), true)),
            Err(BankError::BadTrial { trial: 1, .. })
        ));
        let sub = s.next_subdomain().unwrap();
        let other = KIVA_SUBDOMAINS.iter().find(|x| **x != sub).unwrap();
        let e = s.record(answer(other, true, Some(true), true)).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("trial 1 ({other}): the session asked {sub}")
        );
        let bad = TrialOutcome {
            subdomain: sub.to_string(),
            cross: false,
            within: Some(true),
            extrapolation: true,
        };
        assert_eq!(
            s.record(bad).unwrap_err().to_string(),
            format!(
                "trial 1 ({sub}): a stage-2 answer after a wrong stage 1 (stage 2 is not asked)"
            )
        );
        s.record(answer(sub, true, Some(true), true)).unwrap();
        assert_eq!(s.trials().len(), 1);
        for (o, want) in [
            (FormOptions::of(FormKind::Fixed, 0), "trials"),
            (
                FormOptions {
                    randomesque: 0,
                    ..FormOptions::default()
                },
                "randomesque",
            ),
            (
                FormOptions {
                    target_se: Some(-1.0),
                    ..FormOptions::default()
                },
                "target_se",
            ),
        ] {
            match FormSession::new(&bank, o, 1) {
                Err(BankError::BadOption { name, .. }) => assert_eq!(name, want),
                other => panic!("{want}: {other:?}"),
            }
        }
        assert!(FormKind::parse("random").is_err());
    }

    #[test]
    fn result_places_the_ability_among_the_adults() {
        // Adults of the test bank at -1, 0, 0, 1. All items a = 1, b = 0; 14 trials all
        // right give an ability above 1: percentile 100.
        let bank = test_bank(|_| (1.0, 0.0));
        let mut s = FormSession::new(&bank, FormOptions::of(FormKind::Fixed, 14), 4).unwrap();
        while let Some(sub) = s.next_subdomain() {
            s.record(answer(sub, true, Some(true), true)).unwrap();
        }
        let r = s.result().unwrap();
        assert_eq!((r.trials, r.responses), (14, 42));
        assert!(r.ability.theta > 1.0 && r.ability.low < r.ability.theta);
        assert_eq!(r.percentile.value, 100.0);
        assert_eq!(r.profile.iter().map(|d| d.trials).sum::<usize>(), 14);
    }

    #[test]
    fn simulation_is_seeded_and_more_trials_measure_better() {
        let bank = test_bank(|j| (1.5, -1.5 + 0.07 * j as f64));
        let sim = |kind, trials, seed| {
            simulate(
                &bank,
                &SimulateOptions {
                    form: FormOptions::of(kind, trials),
                    takers: 300,
                    seed,
                },
            )
            .unwrap()
        };
        assert_eq!(sim(FormKind::Adaptive, 6, 2), sim(FormKind::Adaptive, 6, 2));
        let (short, long) = (sim(FormKind::Fixed, 3, 2), sim(FormKind::Fixed, 14, 2));
        assert!(long.mean_se < short.mean_se && long.rmse < short.rmse);
        assert!(matches!(
            simulate(
                &bank,
                &SimulateOptions {
                    form: FormOptions::default(),
                    takers: 0,
                    seed: 1
                }
            ),
            Err(BankError::BadOption { name: "takers", .. })
        ));
    }
}
