//! The KiVA item bank (issue 41): item parameters for the self-test, calibrated on the adults'
//! data, so that a session is scored as an ability on one scale with the adults and the model
//! runs.
//!
//! # Items
//! An item is one KiVA subdomain at one stage: `ColourRed/cross`, `ColourRed/within`,
//! `ColourRed/extrapolation`, 14 x 3 = 42 items ([`crate::kiva::KIVA_SUBDOMAINS`] x
//! [`Stage::ALL`]). That is the finest level the data support: in `human_adults_KiVA.csv` each
//! of the 250 adults met each subdomain once, in one of many variations, so a variation has
//! one or two answers and no parameter of its own; a subdomain has about 250 per stage.
//! Variations of a subdomain are taken as exchangeable (the self-test's generator draws a new
//! one every time), so a subdomain can be given again with a fresh variation.
//!
//! # Data
//! One respondent per participant, one answer per item. A participant's first trial of a
//! subdomain (in file order) is used and later ones are left out (in the released file 6
//! participants met some subdomains 2 to 8 times, 93 trials in all; the count is in
//! [`ItemBank::repeats_left_out`]): a response matrix has one cell per respondent and item.
//!
//! Stage 2 is asked only after a right stage 1 (the self-test's and the model runs'
//! procedure). The adults of the released file answered it after a wrong stage 1 as well;
//! those answers are set to missing ([`ItemBank::within_after_wrong_cross`]), so the item
//! `…/within` means what the self-test asks: "how did it change, given you saw what changed".
//! A stage-2 answer that is missing because stage 1 was wrong is missing by design, not wrong:
//! the missingness depends only on an observed answer, so the likelihood that skips missing
//! cells is the right one (missing at random) and no imputation is needed.
//!
//! # Model and pooling
//! 2PL, `P(right | theta) = 1 / (1 + exp(-a (theta - b)))`, abilities `N(0, 1)`, fitted by
//! [`crate::items::estimate::Calibration::fit`] (marginal maximum a posteriori, Bock-Aitkin EM)
//! with item priors that pool the items partially: `ln a ~ N(0, 0.5^2)` shrinks every
//! discrimination towards a common 1, and `b ~ N(0, 3^2)` keeps the difficulties finite. The
//! difficulty prior is what gives the six items no adult got wrong (`ColourBlue/extrapolation`,
//! `Resize2XY/cross`, ...) a finite difficulty, easy but not infinitely (-4.6 to -5.0, with a
//! standard error of about 1.5). No guessing floor: the adults are near the ceiling (94% of trials all
//! right), so their data say nothing about a lower asymptote, and the three stages have
//! different numbers of options (5, 4 and 4).
//!
//! The difficulty prior is fixed, not floated (the calibration's empirical-Bayes option): on
//! these data the floated prior collapsed (its mean went to its bound, -3, and its spread to its
//! floor, 0.2, or to 0.25 with the bound widened), every difficulty was pulled to the same
//! value and the items' differences were pushed into the discriminations (an item 225 of 249
//! right got `a` 0.6, one 249 of 249 right `a` 1.8). Near the ceiling a lower `b` and a higher
//! `a` explain the data almost equally well; the fixed, wide prior lets the difficulties carry
//! the differences, as the proportions right say they should. A standard deviation of 3
//! rather than 2: with 2 the pull towards 0 made the model under-predict every item's
//! proportion right (by 0.7 to 1.6 binomial standard errors); with 3 by at most 0.84 (a native
//! test checks every item within 2).
//!
//! Not modelled: the three stages of a trial share a picture, so their answers are not
//! independent given ability (a testlet); the standard errors treat them as independent.
//!
//! # Ability
//! EAP with the posterior SD as standard error and an equal-tailed 95% interval, on a uniform
//! grid (-6 to 6, 241 nodes) with the same `N(0, 1)` prior
//! ([`crate::items::estimate::AbilityPosterior`]). The adults' own EAPs (from their first
//! trial of each subdomain) are kept in the bank; a percentile is the share of adults below an
//! ability (ties counted half). Model runs are scored the same way from all their trials
//! ([`ItemBank::score_runs`]): every variation and regeneration is one trial, so their
//! intervals are narrow, and they are labelled as models.
//!
//! The bank is written to `public/data/kiva-bank.json` by `scripts/kiva-bank.sh`; a native test
//! recomputes it from the CSV and fails when the shipped file differs.

use super::{Trial, TrialResponses};
use crate::items::estimate::{
    AbilityPosterior, AbilitySummary, Calibration, CalibrationOptions, ItemPriors,
};
use crate::items::{ItemInfo, ItemsError, RespondentInfo, ResponseMatrix};
use crate::kiva::{domain_of, HumanData, Outcome, RunFile, Stage, DOMAINS, KIVA_SUBDOMAINS};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// The ability grid: from, to, nodes.
pub const ABILITY_GRID: (f64, f64, usize) = (-6.0, 6.0, 241);

/// The interval level of abilities and percentiles.
pub const LEVEL: f64 = 0.95;

/// Why a bank could not be built or used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum BankError {
    /// The calibration failed.
    #[error(transparent)]
    Items(#[from] ItemsError),
    /// A subdomain that is not one of KiVA's 14.
    #[error("{context}: subdomain {subdomain:?} is not one of the 14 KiVA subdomains")]
    UnknownSubdomain {
        /// Where it was found.
        context: String,
        /// The name as found.
        subdomain: String,
    },
    /// A trial's stage answers that the procedure cannot give.
    #[error("trial {trial} ({subdomain}): {message}")]
    BadTrial {
        /// 1-based trial number.
        trial: usize,
        /// Its subdomain.
        subdomain: String,
        /// What is wrong.
        message: String,
    },
    /// A bank file that does not hold the 42 items in order.
    #[error("item bank: {0}")]
    BadBank(String),
    /// An option is out of range.
    #[error("option {name}: expected {expected}, found {found}")]
    BadOption {
        /// Option name.
        name: &'static str,
        /// What is allowed.
        expected: &'static str,
        /// What was given.
        found: String,
    },
}

/// The stage's name in item ids (`cross`, `within`, `extrapolation`).
pub fn stage_name(stage: Stage) -> &'static str {
    match stage {
        Stage::Cross => "cross",
        Stage::Within => "within",
        Stage::Extrapolation => "extrapolation",
    }
}

/// The id of an item: `<subdomain>/<stage>`, e.g. `ColourRed/within`.
pub fn item_id(subdomain: &str, stage: Stage) -> String {
    format!("{subdomain}/{}", stage_name(stage))
}

/// The bank's index of an item: subdomains in [`KIVA_SUBDOMAINS`] order, stages in
/// [`Stage::ALL`] order; `None` for a subdomain not of KiVA.
///
/// # Examples
/// ```
/// use coglab_core::kiva::Stage;
/// use coglab_core::selftest::bank::item_index;
/// assert_eq!(item_index("2DRotation+90", Stage::Cross), Some(0));
/// assert_eq!(item_index("ColourBlue", Stage::Extrapolation), Some(3 * 3 + 2));
/// assert_eq!(item_index("ReflectXY", Stage::Cross), None);
/// ```
pub fn item_index(subdomain: &str, stage: Stage) -> Option<usize> {
    let s = KIVA_SUBDOMAINS.iter().position(|x| *x == subdomain)?;
    Some(3 * s + stage as usize)
}

/// One item of the bank.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BankItem {
    /// `<subdomain>/<stage>`.
    pub id: String,
    /// The subdomain.
    pub subdomain: String,
    /// Its domain ([`domain_of`]).
    pub domain: String,
    /// The stage.
    pub stage: Stage,
    /// Discrimination.
    pub a: f64,
    /// Difficulty.
    pub b: f64,
    /// Approximate standard error of `ln a`.
    pub se_log_a: Option<f64>,
    /// Approximate standard error of `b`.
    pub se_b: Option<f64>,
    /// Adults who answered it (in the calibration).
    pub answered: usize,
    /// Of them, right.
    pub right: usize,
}

impl BankItem {
    /// `P(right | theta) = 1 / (1 + exp(-a (theta - b)))`.
    pub fn probability(&self, theta: f64) -> f64 {
        logistic(self.a * (theta - self.b))
    }

    /// Fisher information `a^2 P (1 - P)` at `theta`.
    ///
    /// # Examples
    /// ```
    /// use coglab_core::kiva::Stage;
    /// use coglab_core::selftest::bank::BankItem;
    /// // a = 2 at theta = b: P = 1/2, information 4 x 1/4 = 1.
    /// let it = BankItem { id: "x/cross".into(), subdomain: "x".into(), domain: "x".into(),
    ///     stage: Stage::Cross, a: 2.0, b: 0.5, se_log_a: None, se_b: None, answered: 0, right: 0 };
    /// assert_eq!(it.information(0.5), 1.0);
    /// ```
    pub fn information(&self, theta: f64) -> f64 {
        let p = self.probability(theta);
        self.a * self.a * p * (1.0 - p)
    }
}

fn logistic(z: f64) -> f64 {
    if z >= 0.0 {
        1.0 / (1.0 + (-z).exp())
    } else {
        let e = z.exp();
        e / (1.0 + e)
    }
}

/// One adult's ability as the bank scores them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AdultAbility {
    /// EAP.
    pub theta: f64,
    /// Posterior SD.
    pub se: f64,
}

/// A percentile among the adults, with the percentiles of the ability interval's ends.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Percentile {
    /// Percent of adults below the ability (ties half), 0-100.
    pub value: f64,
    /// At the interval's lower end.
    pub low: f64,
    /// At the interval's upper end.
    pub high: f64,
}

/// A model run placed on the adults' scale.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelAbility {
    /// Readable label, e.g. `GPT-4V (multi-image)`.
    pub label: String,
    /// The run folder, e.g. `model_data/KiVA/gpt4_multi_image`.
    pub run: String,
    /// Trials scored (variations x regenerations of the 14 subdomains).
    pub trials: usize,
    /// The ability from all of them.
    pub ability: AbilitySummary,
    /// Its percentile among the adults.
    pub percentile: Percentile,
    /// Proportion right over the item responses.
    pub proportion_right: f64,
}

/// One trial's answers as the procedure gives them: stage 2 only after a right stage 1.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrialOutcome {
    /// The subdomain asked.
    pub subdomain: String,
    /// Stage 1 right.
    pub cross: bool,
    /// Stage 2 right (`None`: not asked, after a wrong stage 1).
    pub within: Option<bool>,
    /// Stage 3 right.
    pub extrapolation: bool,
}

impl TrialOutcome {
    /// A trial's answers, checked against the procedure.
    ///
    /// # Errors
    /// [`BankError::UnknownSubdomain`] for a subdomain not of KiVA; [`BankError::BadTrial`]
    /// for a stage-2 answer after a wrong stage 1, or none after a right one.
    ///
    /// # Examples
    /// ```
    /// use coglab_core::selftest::bank::TrialOutcome;
    /// assert!(TrialOutcome::new("ColourRed", false, None, true).is_ok());
    /// assert!(TrialOutcome::new("ColourRed", false, Some(true), true).is_err());
    /// ```
    pub fn new(
        subdomain: &str,
        cross: bool,
        within: Option<bool>,
        extrapolation: bool,
    ) -> Result<Self, BankError> {
        let t = Self {
            subdomain: subdomain.to_string(),
            cross,
            within,
            extrapolation,
        };
        t.check(1)?;
        Ok(t)
    }

    /// The outcome of a trial as the self-test page holds it: the generated [`Trial`] and the
    /// chosen options ([`TrialResponses`]), scored against the trial's right options.
    ///
    /// # Errors
    /// [`BankError::BadTrial`] when stage 1 or 3 has no answer, or stage 2 breaks the procedure
    /// (see [`TrialOutcome::new`]); [`BankError::UnknownSubdomain`] for a trial of a subdomain
    /// not of KiVA (a KiVA-adults session).
    ///
    /// # Examples
    /// ```
    /// use coglab_core::kiva::{Stage, Variant};
    /// use coglab_core::selftest::{bank::TrialOutcome, trial_for, Response, TrialResponses};
    /// let t = trial_for(Variant::Kiva, "ReflectX", 1, 1).unwrap();
    /// let pick = |stage, right: bool| {
    ///     let c = t.correct(stage);
    ///     let choice = if right { c } else { (c + 1) % 3 };
    ///     Some(Response { choice, rt_ms: 900.0, ..Default::default() })
    /// };
    /// let r = TrialResponses { cross: pick(Stage::Cross, true), within: pick(Stage::Within, false),
    ///     extrapolation: pick(Stage::Extrapolation, true) };
    /// let o = TrialOutcome::of_trial(&t, &r).unwrap();
    /// assert_eq!((o.cross, o.within, o.extrapolation), (true, Some(false), true));
    /// ```
    pub fn of_trial(trial: &Trial, responses: &TrialResponses) -> Result<Self, BankError> {
        let right = |stage: Stage| {
            responses
                .get(stage)
                .map(|r| r.choice == trial.correct(stage))
        };
        let missing = |what: &str| BankError::BadTrial {
            trial: 1,
            subdomain: trial.subdomain.clone(),
            message: format!("no {what} answer"),
        };
        let cross = right(Stage::Cross).ok_or_else(|| missing("stage-1"))?;
        let extrapolation = right(Stage::Extrapolation).ok_or_else(|| missing("stage-3"))?;
        Self::new(&trial.subdomain, cross, right(Stage::Within), extrapolation)
    }

    fn check(&self, trial: usize) -> Result<(), BankError> {
        if item_index(&self.subdomain, Stage::Cross).is_none() {
            return Err(BankError::UnknownSubdomain {
                context: format!("trial {trial}"),
                subdomain: self.subdomain.clone(),
            });
        }
        let message = match (self.cross, self.within) {
            (false, Some(_)) => "a stage-2 answer after a wrong stage 1 (stage 2 is not asked)",
            (true, None) => "no stage-2 answer after a right stage 1",
            _ => return Ok(()),
        };
        Err(BankError::BadTrial {
            trial,
            subdomain: self.subdomain.clone(),
            message: message.into(),
        })
    }

    /// The item responses: `(bank index, right)`, two or three of them.
    pub fn responses(&self) -> Vec<(usize, bool)> {
        let Some(base) = item_index(&self.subdomain, Stage::Cross) else {
            return Vec::new();
        };
        let mut out = vec![(base, self.cross)];
        if let (true, Some(w)) = (self.cross, self.within) {
            out.push((base + 1, w));
        }
        out.push((base + 2, self.extrapolation));
        out
    }
}

/// The ability from one domain's items.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DomainAbility {
    /// The domain ([`DOMAINS`]).
    pub domain: String,
    /// Trials of the domain.
    pub trials: usize,
    /// Item responses right / given.
    pub right: usize,
    /// Item responses given.
    pub answered: usize,
    /// Ability from the domain's responses alone (`None`: no trial of the domain).
    pub ability: Option<AbilitySummary>,
}

/// The calibrated bank (see the module documentation); `public/data/kiva-bank.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemBank {
    /// Where the parameters come from.
    pub source: String,
    /// How they were fitted.
    pub method: String,
    /// The model (`2pl`).
    pub model: String,
    /// Adults in the calibration.
    pub respondents: usize,
    /// Trials used (one per adult and subdomain).
    pub trials: usize,
    /// Later trials of a subdomain an adult had already met, left out.
    pub repeats_left_out: usize,
    /// Stage-2 answers after a wrong (or absent) stage 1, set to missing.
    pub within_after_wrong_cross: usize,
    /// The item priors at the end of the fit (`b`'s floated).
    pub priors: ItemPriors,
    /// Whether EM converged.
    pub converged: bool,
    /// EM cycles.
    pub iterations: usize,
    /// The ability grid: from, to, nodes.
    pub grid: (f64, f64, usize),
    /// The 42 items, in [`item_index`] order.
    pub items: Vec<BankItem>,
    /// The adults' abilities, sorted by `theta`.
    pub adults: Vec<AdultAbility>,
    /// Model runs on the same scale.
    pub models: Vec<ModelAbility>,
}

/// What [`ItemBank::source`] says.
pub const SOURCE: &str = "human_adults_KiVA.csv from the KiVA repository (ey242/KiVA, \
    Apache-2.0): the adults' answers to the 14 KiVA subdomains; model runs from \
    model_data/KiVA/<run>/output_<Domain>/<Subdomain>.csv of the same repository.";

/// What [`ItemBank::method`] says.
pub const METHOD: &str = "Item = subdomain x stage (42). 2PL without a guessing floor, \
    abilities N(0, 1), marginal MAP by Bock-Aitkin EM (coglab_core::items::estimate::\
    Calibration::fit) with item priors ln a ~ N(0, 0.5^2) (discriminations shrunk towards a \
    common 1) and b ~ N(0, 3^2). One trial per adult and subdomain (the first); a stage-2 \
    answer after a wrong stage 1 is missing by design (the procedure does not ask it). \
    Abilities: EAP and posterior SD on a uniform grid (-6 to 6, 241 nodes), N(0, 1) prior; \
    95% equal-tailed intervals. Written by scripts/kiva-bank.sh (coglab_core::selftest::bank).";

impl ItemBank {
    /// Calibrates the bank on the adults' data (see the module documentation).
    ///
    /// # Errors
    /// [`BankError::UnknownSubdomain`] for a row whose subdomain is not of KiVA (a
    /// KiVA-adults file); [`BankError::Items`] when the calibration fails (too few adults).
    pub fn calibrate(data: &HumanData) -> Result<Self, BankError> {
        let (matrix, repeats, within_dropped) = calibration_matrix(data)?;
        let cal = Calibration::fit(
            &matrix,
            &CalibrationOptions {
                options: 0,
                float_priors: false,
                prior_b_sd: 3.0,
                ..CalibrationOptions::default()
            },
        )?;
        let priors = cal
            .priors
            .ok_or_else(|| BankError::BadBank("the calibration returned no priors".into()))?;
        let mut items = Vec::with_capacity(cal.params.len());
        for (j, p) in cal.params.iter().enumerate() {
            let (Some(a), Some(b)) = (p.a, p.b) else {
                return Err(BankError::BadBank(format!(
                    "item {} was answered by no adult",
                    p.id
                )));
            };
            let right = (0..matrix.n_respondents())
                .filter(|&i| matrix.get(i, j) == Some(true))
                .count();
            let sub = KIVA_SUBDOMAINS[j / 3];
            items.push(BankItem {
                id: p.id.clone(),
                subdomain: sub.to_string(),
                domain: domain_of(sub).unwrap_or("").to_string(),
                stage: Stage::ALL[j % 3],
                a,
                b,
                se_log_a: p.se_log_a,
                se_b: p.se_b,
                answered: p.answered,
                right,
            });
        }
        let mut bank = Self {
            source: SOURCE.into(),
            method: METHOD.into(),
            model: "2pl".into(),
            respondents: matrix.n_respondents(),
            trials: 0,
            repeats_left_out: repeats,
            within_after_wrong_cross: within_dropped,
            priors,
            converged: cal.converged,
            iterations: cal.iterations,
            grid: ABILITY_GRID,
            items,
            adults: Vec::new(),
            models: Vec::new(),
        };
        let mut adults = Vec::with_capacity(matrix.n_respondents());
        let mut trials = 0;
        for i in 0..matrix.n_respondents() {
            let responses: Vec<(usize, bool)> = (0..matrix.n_items())
                .filter_map(|j| Some((j, matrix.get(i, j)?)))
                .collect();
            trials += (0..14)
                .filter(|s| (0..3).any(|k| matrix.get(i, 3 * s + k).is_some()))
                .count();
            let a = bank.ability(&responses)?;
            adults.push(AdultAbility {
                theta: a.theta,
                se: a.se,
            });
        }
        adults.sort_by(|x, y| x.theta.total_cmp(&y.theta));
        bank.adults = adults;
        bank.trials = trials;
        Ok(bank)
    }

    /// Checks a bank read from a file: the 42 items in [`item_index`] order, finite
    /// parameters with `a > 0`, a valid grid and at least one adult, the adults sorted by
    /// ability.
    ///
    /// # Errors
    /// [`BankError::BadBank`] naming what is wrong.
    pub fn validate(&self) -> Result<(), BankError> {
        if self.items.len() != 3 * KIVA_SUBDOMAINS.len() {
            return Err(BankError::BadBank(format!(
                "{} items, expected {}",
                self.items.len(),
                3 * KIVA_SUBDOMAINS.len()
            )));
        }
        for (j, it) in self.items.iter().enumerate() {
            let want = item_id(KIVA_SUBDOMAINS[j / 3], Stage::ALL[j % 3]);
            if it.id != want || it.subdomain != KIVA_SUBDOMAINS[j / 3] {
                return Err(BankError::BadBank(format!(
                    "item {} is {:?}, expected {want:?}",
                    j + 1,
                    it.id
                )));
            }
            if !(it.a.is_finite() && it.a > 0.0 && it.b.is_finite()) {
                return Err(BankError::BadBank(format!(
                    "item {}: a = {}, b = {} (expected finite, a > 0)",
                    it.id, it.a, it.b
                )));
            }
        }
        AbilityPosterior::new(self.grid)?;
        if self.adults.is_empty()
            || self
                .adults
                .iter()
                .any(|a| !(a.theta.is_finite() && a.se.is_finite() && a.se >= 0.0))
        {
            return Err(BankError::BadBank(
                "no adults' abilities, or one that is not finite".into(),
            ));
        }
        if self.adults.windows(2).any(|w| w[0].theta > w[1].theta) {
            return Err(BankError::BadBank(
                "the adults' abilities are not sorted by theta".into(),
            ));
        }
        Ok(())
    }

    /// Reads and checks a bank from its JSON.
    ///
    /// # Errors
    /// [`BankError::BadBank`] for invalid JSON or a bank that fails [`ItemBank::validate`].
    pub fn from_json(text: &str) -> Result<Self, BankError> {
        let bank: Self = serde_json::from_str(text)
            .map_err(|e| BankError::BadBank(format!("not a bank file: {e}")))?;
        bank.validate()?;
        Ok(bank)
    }

    /// The prior posterior on the bank's grid.
    ///
    /// # Errors
    /// [`BankError::Items`] for an invalid grid.
    pub fn prior(&self) -> Result<AbilityPosterior, BankError> {
        Ok(AbilityPosterior::new(self.grid)?)
    }

    /// Adds item responses `(bank index, right)` to a posterior; indices outside the bank are
    /// ignored.
    pub fn update(&self, post: &mut AbilityPosterior, responses: &[(usize, bool)]) {
        for &(j, right) in responses {
            if let Some(it) = self.items.get(j) {
                post.add(it.a, it.b, 0.0, right);
            }
        }
    }

    /// The ability from item responses `(bank index, right)`.
    ///
    /// # Errors
    /// [`BankError::Items`] for an invalid grid.
    pub fn ability(&self, responses: &[(usize, bool)]) -> Result<AbilitySummary, BankError> {
        let mut post = self.prior()?;
        self.update(&mut post, responses);
        Ok(post.summary(LEVEL))
    }

    /// Percent of the adults whose ability is below `theta` (ties counted half), 0-100
    /// ([`percentile_in`] over [`ItemBank::adults`]).
    pub fn percentile(&self, theta: f64) -> f64 {
        percentile_in(&self.adults, theta)
    }

    /// The percentile of an ability and of its interval's ends.
    pub fn percentile_of(&self, a: &AbilitySummary) -> Percentile {
        Percentile {
            value: self.percentile(a.theta),
            low: self.percentile(a.low),
            high: self.percentile(a.high),
        }
    }

    /// Per domain ([`DOMAINS`]): the ability from that domain's trials alone, with the same
    /// prior (so a domain with few trials stays near the middle, with a wide interval).
    ///
    /// # Errors
    /// [`BankError::Items`] for an invalid grid.
    pub fn profile(&self, trials: &[TrialOutcome]) -> Result<Vec<DomainAbility>, BankError> {
        DOMAINS
            .iter()
            .map(|d| {
                let of: Vec<&TrialOutcome> = trials
                    .iter()
                    .filter(|t| domain_of(&t.subdomain) == Some(d))
                    .collect();
                let responses: Vec<(usize, bool)> = of.iter().flat_map(|t| t.responses()).collect();
                Ok(DomainAbility {
                    domain: d.to_string(),
                    trials: of.len(),
                    right: responses.iter().filter(|r| r.1).count(),
                    answered: responses.len(),
                    ability: if of.is_empty() {
                        None
                    } else {
                        Some(self.ability(&responses)?)
                    },
                })
            })
            .collect()
    }

    /// Scores model runs on the bank's scale: each run is a label, its folder and its 14
    /// subdomain files; every row (variation x regeneration) is one trial. Stage 1 and 3 count
    /// right only when scored right (`Null` and empty answers are wrong, as the repository
    /// scores them); stage 2 is used only after a right stage 1 and when it was answered.
    ///
    /// # Errors
    /// [`BankError::UnknownSubdomain`] for a file of a subdomain not of KiVA;
    /// [`BankError::Items`] for an invalid grid.
    pub fn score_runs(
        &self,
        runs: &[(String, String, Vec<RunFile>)],
    ) -> Result<Vec<ModelAbility>, BankError> {
        let mut out = Vec::with_capacity(runs.len());
        for (label, run, files) in runs {
            let mut responses = Vec::new();
            let mut trials = 0;
            for f in files {
                let Some(base) = item_index(&f.subdomain, Stage::Cross) else {
                    return Err(BankError::UnknownSubdomain {
                        context: f.file.clone(),
                        subdomain: f.subdomain.clone(),
                    });
                };
                for row in &f.rows {
                    trials += 1;
                    let [c, w, e] = row.outcomes;
                    let cross = c == Outcome::Correct;
                    responses.push((base, cross));
                    if cross && w != Outcome::Empty {
                        responses.push((base + 1, w == Outcome::Correct));
                    }
                    responses.push((base + 2, e == Outcome::Correct));
                }
            }
            let ability = self.ability(&responses)?;
            let right = responses.iter().filter(|r| r.1).count();
            out.push(ModelAbility {
                label: label.clone(),
                run: run.clone(),
                trials,
                percentile: self.percentile_of(&ability),
                proportion_right: if responses.is_empty() {
                    0.0
                } else {
                    right as f64 / responses.len() as f64
                },
                ability,
            });
        }
        Ok(out)
    }
}

/// Percent of `sorted` (ascending by `theta`) below `theta`, ties counted half, 0-100; NaN
/// for no abilities.
///
/// # Examples
/// ```
/// use coglab_core::selftest::bank::{percentile_in, AdultAbility};
/// let adults: Vec<_> = [-1.0, 0.0, 0.0, 2.0].iter().map(|&t| AdultAbility { theta: t, se: 0.5 }).collect();
/// assert_eq!(percentile_in(&adults, 0.0), 50.0); // 1 below, 2 tied: (1 + 2/2) / 4
/// assert_eq!(percentile_in(&adults, 1.0), 75.0);
/// assert_eq!(percentile_in(&adults, 3.0), 100.0);
/// ```
pub fn percentile_in(sorted: &[AdultAbility], theta: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let below = sorted.partition_point(|a| a.theta < theta);
    let not_above = sorted.partition_point(|a| a.theta <= theta);
    100.0 * (below as f64 + 0.5 * (not_above - below) as f64) / sorted.len() as f64
}

/// The calibration matrix: one row per participant (first-seen order), the 42 items as
/// columns; returns it with the number of repeated trials left out and of stage-2 answers set
/// to missing after a wrong or absent stage 1.
///
/// # Errors
/// [`BankError::UnknownSubdomain`] for a subdomain not of KiVA; [`BankError::Items`] for an
/// empty file.
pub fn calibration_matrix(data: &HumanData) -> Result<(ResponseMatrix, usize, usize), BankError> {
    let mut people: Vec<&str> = Vec::new();
    let mut person_ix: HashMap<&str, usize> = HashMap::new();
    // (person, subdomain index) -> the variation of the first trial used.
    let mut first: HashMap<(usize, usize), u64> = HashMap::new();
    let mut repeats: std::collections::HashSet<(usize, usize, u64)> = Default::default();
    let mut cells: Vec<[Option<bool>; 42]> = Vec::new();
    for row in &data.rows {
        let Some(base) = item_index(&row.subdomain, Stage::Cross) else {
            return Err(BankError::UnknownSubdomain {
                context: format!("{} line {}", data.file, row.line),
                subdomain: row.subdomain.clone(),
            });
        };
        let p = *person_ix
            .entry(row.participant.as_str())
            .or_insert_with(|| {
                people.push(row.participant.as_str());
                cells.push([None; 42]);
                people.len() - 1
            });
        let s = base / 3;
        let v = *first.entry((p, s)).or_insert(row.variation);
        if v != row.variation {
            repeats.insert((p, s, row.variation));
            continue;
        }
        cells[p][base + row.stage as usize] = Some(row.score == 1.0);
    }
    let mut within_dropped = 0;
    for row in cells.iter_mut() {
        for s in 0..KIVA_SUBDOMAINS.len() {
            if row[3 * s + 1].is_some() && row[3 * s] != Some(true) {
                row[3 * s + 1] = None;
                within_dropped += 1;
            }
        }
    }
    let items = KIVA_SUBDOMAINS
        .iter()
        .flat_map(|s| {
            Stage::ALL
                .iter()
                .map(move |st| ItemInfo::new(item_id(s, *st)))
        })
        .collect();
    let respondents = people
        .iter()
        .map(|p| RespondentInfo {
            id: (*p).to_string(),
            group: None,
        })
        .collect();
    let flat: Vec<Option<bool>> = cells.iter().flat_map(|r| r.iter().copied()).collect();
    let m = ResponseMatrix::new(data.file.clone(), items, respondents, &flat)?;
    Ok((m, repeats.len(), within_dropped))
}

/// A bank with the given `(a, b)` per item index and adults at -1, 0, 0, 1 (SE 0.5), for tests.
#[cfg(test)]
pub(crate) fn test_bank(params: impl Fn(usize) -> (f64, f64)) -> ItemBank {
    let items = (0..42)
        .map(|j| {
            let (a, b) = params(j);
            let sub = KIVA_SUBDOMAINS[j / 3];
            BankItem {
                id: item_id(sub, Stage::ALL[j % 3]),
                subdomain: sub.into(),
                domain: domain_of(sub).unwrap_or("").into(),
                stage: Stage::ALL[j % 3],
                a,
                b,
                se_log_a: None,
                se_b: None,
                answered: 0,
                right: 0,
            }
        })
        .collect();
    ItemBank {
        source: "test".into(),
        method: "test".into(),
        model: "2pl".into(),
        respondents: 4,
        trials: 0,
        repeats_left_out: 0,
        within_after_wrong_cross: 0,
        priors: ItemPriors {
            log_a_mean: 0.0,
            log_a_sd: 0.5,
            b_mean: 0.0,
            b_sd: 2.0,
        },
        converged: true,
        iterations: 0,
        grid: ABILITY_GRID,
        items,
        adults: [-1.0, 0.0, 0.0, 1.0]
            .iter()
            .map(|&theta| AdultAbility { theta, se: 0.5 })
            .collect(),
        models: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;

    const FIXTURE: &[u8] = include_bytes!("../../tests/fixtures/kiva-bank/adults-small.csv");

    fn fixture() -> HumanData {
        HumanData::parse("adults-small.csv", FIXTURE).unwrap()
    }

    #[test]
    fn information_of_a_2pl_item_by_hand() {
        // a = 1.5, b = -1 at theta = 0: P = 1 / (1 + e^-1.5) = 0.817574476,
        // I = 1.5^2 x 0.817574476 x 0.182425524 = 0.335579517.
        let bank = test_bank(|_| (1.5, -1.0));
        assert_abs_diff_eq!(
            bank.items[0].probability(0.0),
            0.817_574_476,
            epsilon = 1e-9
        );
        assert_abs_diff_eq!(
            bank.items[0].information(0.0),
            0.335_579_517,
            epsilon = 1e-9
        );
    }

    #[test]
    fn matrix_of_the_fixture_keeps_first_trials_and_drops_stage_2_after_a_wrong_stage_1() {
        // Counts worked out in tests/fixtures/kiva-bank/README.md.
        let (m, repeats, dropped) = calibration_matrix(&fixture()).unwrap();
        assert_eq!((m.n_respondents(), m.n_items()), (30, 42));
        assert_eq!((repeats, dropped), (1, 10));
        let count = |sub: &str, st: Stage| {
            let j = item_index(sub, st).unwrap();
            let answered = (0..30).filter(|&i| m.get(i, j).is_some()).count();
            let right = (0..30).filter(|&i| m.get(i, j) == Some(true)).count();
            (right, answered)
        };
        assert_eq!(count("ColourRed", Stage::Cross), (20, 30));
        assert_eq!(count("ColourRed", Stage::Within), (20, 20));
        assert_eq!(count("ReflectX", Stage::Extrapolation), (25, 30));
        assert_eq!(count("Counting-2", Stage::Within), (27, 30));
        assert_eq!(count("ColourBlue", Stage::Cross), (30, 30));
    }

    #[test]
    fn fit_of_the_fixture_orders_items_and_people_by_their_errors() {
        let bank = ItemBank::calibrate(&fixture()).unwrap();
        bank.validate().unwrap();
        assert_eq!(
            (bank.respondents, bank.trials, bank.repeats_left_out),
            (30, 420, 1)
        );
        let b = |sub: &str, st: Stage| bank.items[item_index(sub, st).unwrap()].b;
        let (red, refl, count2) = (
            b("ColourRed", Stage::Cross),
            b("ReflectX", Stage::Extrapolation),
            b("Counting-2", Stage::Within),
        );
        // 10, 5 and 3 wrong of 30: harder in that order, all harder than any item nobody got
        // wrong.
        let easiest_wrong = count2;
        let hardest_perfect = bank
            .items
            .iter()
            .filter(|it| it.right == it.answered)
            .map(|it| it.b)
            .fold(f64::NEG_INFINITY, f64::max);
        assert!(red > refl && refl > count2, "{red} {refl} {count2}");
        assert!(
            easiest_wrong > hardest_perfect,
            "{easiest_wrong} {hardest_perfect}"
        );
        // People: the four groups by errors have increasing abilities; P30's repeat (all
        // wrong) is left out, so P30 is scored as the other error-free participants.
        let (m, _, _) = calibration_matrix(&fixture()).unwrap();
        let theta = |i: usize| {
            let r: Vec<(usize, bool)> = (0..42).filter_map(|j| Some((j, m.get(i, j)?))).collect();
            bank.ability(&r).unwrap().theta
        };
        assert!(theta(0) < theta(3) && theta(3) < theta(5) && theta(5) < theta(10));
        assert_abs_diff_eq!(theta(10), theta(29), epsilon = 1e-12);
        assert_eq!(bank.adults.len(), 30);
        // 20 of 30 adults are error-free and tied at the top: a perfect score is at the
        // percentile (10 + 20 / 2) / 30 = 66.7.
        assert_abs_diff_eq!(bank.percentile(theta(10)), 200.0 / 3.0, epsilon = 1e-9);
    }

    #[test]
    fn a_kiva_adults_subdomain_is_refused_with_its_line() {
        let csv = "ParticipantID,Transformation,Variation,Task,Score,Reaction Time\n\
                   1,ReflectXY,3,Cross Domain,1,100\n";
        let data = HumanData::parse("h.csv", csv.as_bytes()).unwrap();
        assert_eq!(
            ItemBank::calibrate(&data).unwrap_err().to_string(),
            "h.csv line 2: subdomain \"ReflectXY\" is not one of the 14 KiVA subdomains"
        );
    }

    #[test]
    fn invalid_bank_files_are_refused_with_what_is_wrong() {
        let good = serde_json::to_string(&test_bank(|_| (1.0, 0.0))).unwrap();
        assert!(ItemBank::from_json(&good).is_ok());
        let mut v: serde_json::Value = serde_json::from_str(&good).unwrap();
        v["items"][3]["a"] = serde_json::json!(-0.5);
        assert_eq!(
            ItemBank::from_json(&v.to_string()).unwrap_err().to_string(),
            "item bank: item 2DRotation-90/cross: a = -0.5, b = 0 (expected finite, a > 0)"
        );
        let mut v: serde_json::Value = serde_json::from_str(&good).unwrap();
        v["adults"][0]["theta"] = serde_json::json!(5.0);
        assert_eq!(
            ItemBank::from_json(&v.to_string()).unwrap_err().to_string(),
            "item bank: the adults' abilities are not sorted by theta"
        );
        assert!(ItemBank::from_json("[1, 2]")
            .unwrap_err()
            .to_string()
            .starts_with("item bank: not a bank file: "));
    }

    #[test]
    fn trial_outcomes_follow_the_procedure() {
        let t = TrialOutcome::new("ColourRed", true, Some(false), true).unwrap();
        // ColourRed is the 6th subdomain: items 15, 16, 17.
        assert_eq!(t.responses(), vec![(15, true), (16, false), (17, true)]);
        let t = TrialOutcome::new("ColourRed", false, None, false).unwrap();
        assert_eq!(t.responses(), vec![(15, false), (17, false)]);
        assert_eq!(
            TrialOutcome::new("ColourRed", true, None, true)
                .unwrap_err()
                .to_string(),
            "trial 1 (ColourRed): no stage-2 answer after a right stage 1"
        );
        assert!(matches!(
            TrialOutcome::new("Colour", true, Some(true), true),
            Err(BankError::UnknownSubdomain { .. })
        ));
    }

    #[test]
    fn model_rows_are_trials_with_stage_2_only_after_a_right_stage_1() {
        // Row 1: right, right, wrong; row 2: wrong, skipped, right; row 3: Null, skipped,
        // right (Null is wrong). Items of ColourRed: 15, 16, 17.
        let csv =
            "Variation,Regeneration,Full#1,Full#2,Full#3,MCResponse#1,MCResponse#2,MCResponse#3\n\
                   0,0,(1),(2),(A),1,1,0\n\
                   0,1,(2),[Skipped mcq#2],(B),0,,1\n\
                   1,0,none,[Skipped mcq#2],(B),Null,,1\n";
        let f = RunFile::parse("output_Colour/ColourRed.csv", csv.as_bytes()).unwrap();
        let bank = test_bank(|_| (1.0, 0.0));
        let out = bank
            .score_runs(&[("m".into(), "run".into(), vec![f])])
            .unwrap();
        assert_eq!(out[0].trials, 3);
        let expected = [
            (15, true),
            (16, true),
            (17, false),
            (15, false),
            (17, true),
            (15, false),
            (17, true),
        ];
        assert_eq!(out[0].ability, bank.ability(&expected).unwrap());
        assert_eq!(out[0].ability.answered, 7);
        assert_abs_diff_eq!(out[0].proportion_right, 4.0 / 7.0, epsilon = 1e-15);
    }

    #[test]
    fn profile_scores_each_domain_alone() {
        let bank = test_bank(|_| (1.0, 0.0));
        let trials = [
            TrialOutcome::new("ColourRed", true, Some(true), true).unwrap(),
            TrialOutcome::new("ColourBlue", false, None, true).unwrap(),
            TrialOutcome::new("ReflectX", true, Some(false), false).unwrap(),
        ];
        let p = bank.profile(&trials).unwrap();
        assert_eq!(p.len(), 5);
        let colour = p.iter().find(|d| d.domain == "Colour").unwrap();
        assert_eq!((colour.trials, colour.right, colour.answered), (2, 4, 5));
        // With identical items, the Colour ability rests on 4 right of 5 and Reflect's on 1
        // of 3; the other domains have none.
        let reflect = p.iter().find(|d| d.domain == "Reflect").unwrap();
        assert!(colour.ability.unwrap().theta > 0.0 && reflect.ability.unwrap().theta < 0.0);
        assert!(p
            .iter()
            .find(|d| d.domain == "Resize")
            .unwrap()
            .ability
            .is_none());
    }
}
