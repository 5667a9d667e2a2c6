//! The KiVA self-test (issue 7): a seeded generator of KiVA-style trials drawn with this
//! project's object drawings, the three-stage procedure's options and answer keys, and the
//! scoring and export of a session in the layout of KiVA's human data.
//!
//! - [`generate`]: a [`SessionKind`] and a seed → a [`Session`] of [`Trial`]s (deterministic).
//! - [`Session::next_step`] / [`Session::is_correct`]: the procedure (stage 2 only after a right
//!   stage 1; stage 3 always).
//! - [`to_human_csv`] / [`score_session`]: the answers as `ParticipantID, Transformation,
//!   Variation, Task, Score, Reaction Time` rows, scored by [`crate::kiva::score_human`] (so a
//!   session is read exactly as an adult participant of the paper).
//! - [`baselines`]: adult and model aggregates per domain and stage, and median reaction times
//!   per domain.
//! - [`bank`]: the item bank (subdomain x stage, 2PL calibrated on the adults' data) that
//!   scores a session as an ability on one scale with the adults and the model runs.
//! - [`adaptive`]: the adaptive and fixed forms over the bank (next trial, stopping rule,
//!   result), and their simulation.
//! - [`objects`]: the drawings and their SVG rendering.
//! - [`stimuli`]: sessions built from KiVA's own images (a picked folder) instead.

pub mod adaptive;
pub mod bank;
pub mod baselines;
pub mod objects;
pub mod stimuli;

use crate::kiva::{domain_of, score_human, HumanData, KivaError, KivaReport, Stage, Variant};
use crate::stats::rng::Rng;
use serde::{Deserialize, Serialize};

/// The stage-1 option text of a domain (rotation and reflection are both "orientation").
pub fn domain_text(domain: &str) -> &'static str {
    match domain {
        "Colour" => "Color of objects",
        "Resize" => "Size of objects",
        "Counting" => "Number of objects",
        _ => "Orientation of objects",
    }
}

/// The KiVA paper's appendix A.2 prompts, verbatim (the paper's §4: "Human participants
/// received the same text and image prompts as the models without feedback"). The self-test
/// shows these texts; the only difference is how the answer is given (a click or a key
/// instead of a typed "(n)" and written reasoning, which a person's click replaces).
pub mod paper_prompts {
    /// The system prompt given to the models.
    pub const SYSTEM: &str = "You are an excellent visual puzzle solver! You will be given a visual puzzle that requires using visual analogical reasoning. You will think \"step-by-step\" and carefully examine the visual evidence before providing an answer.";
    /// The initial instruction prompt.
    pub const INSTRUCTION: &str = "You are given a visual puzzle. The puzzle features a left-to-right transformation of an object on top and three left-to-right transformations of a different object on the bottom marked by (A) or (B) or (C). The transformations involve a change of either the size, orientation, number, or color of an object.";
    /// Stage 1, cross-domain change detection (the paper's punctuation kept).
    pub const CROSS: &str = "Which one of the following rules best describes the left-to-right transformation on top of the puzzle where the picture on the left transforms to the picture on the right? Answer with the correct rule number. Surrounded by parentheses, then provide a \"step-by-step\" reasoning for your choice.";
    /// Stage 2, within-domain change detection.
    pub const WITHIN: &str = "Which one of the following rules best describes the left-to-right transformation in the top of the puzzle where the picture on the left transforms to the picture on the right?. Answer with the correct rule number surrounded by parentheses. Then provide a \"step-by-step\" reasoning for your choice.";
    /// Stage 3, visual extrapolation.
    pub const EXTRAPOLATION: &str = "Which one of the three left-to-right object transformations (marked by either (A), (B) or (C) ) on the bottom of the puzzle is the same as the left-to-right transformation on the top of the puzzle? Answer with the correct letter surrounded by parentheses (or (D) if none of the options apply), then provide a a \"step-by-step\" reasoning for your choice.";

    /// The question of a stage.
    ///
    /// # Examples
    /// ```
    /// use coglab_core::kiva::Stage;
    /// use coglab_core::selftest::paper_prompts::question;
    /// assert!(question(Stage::Cross).starts_with("Which one of the following rules"));
    /// ```
    pub fn question(stage: crate::kiva::Stage) -> &'static str {
        match stage {
            crate::kiva::Stage::Cross => CROSS,
            crate::kiva::Stage::Within => WITHIN,
            crate::kiva::Stage::Extrapolation => EXTRAPOLATION,
        }
    }

    /// What the self-test does differently from the paper's procedure, and why.
    pub const DIFFERENCES: &str = "The questions are the paper's prompts word for word (appendix A.2), as its participants got them. You answer by clicking an option or pressing its key rather than typing the number in parentheses with written reasoning. As in the paper (§4), the trials are a random subset (one per subdomain; the short session two per domain, as the children had), and there is no feedback until the end.";
}

/// The two options that end the stage-1 and stage-2 lists.
pub const NO_CHANGE: &str = "No change between pictures";
/// See [`NO_CHANGE`].
pub const DOESNT_APPLY: &str = "Doesn't apply";

const DOMAIN_TEXTS: [&str; 4] = [
    "Orientation of objects",
    "Number of objects",
    "Color of objects",
    "Size of objects",
];

/// Colours objects start in: never one of the target colours.
const BASE_COLOURS: [&str; 5] = ["Orange", "Purple", "Brown", "Pink", "Teal"];

/// The fill colour of a colour name used by the generator.
pub fn colour_hex(name: &str) -> &'static str {
    match name {
        "Red" => "#d62728",
        "Green" => "#2ca02c",
        "Blue" => "#1f5fd6",
        "Yellow" => "#f2d024",
        "Grey" => "#8c8c8c",
        "Orange" => "#f08a24",
        "Purple" => "#8e44ad",
        "Brown" => "#8b5a2b",
        "Pink" => "#f48fb1",
        _ => "#1a9e9e",
    }
}

/// One picture: which drawing, its colour, size, orientation and number of copies.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Picture {
    /// Index into [`objects::DRAWINGS`].
    pub object: usize,
    /// Colour name (see [`colour_hex`]).
    pub colour: String,
    /// Horizontal scale (1 = normal size).
    pub scale_x: f64,
    /// Vertical scale.
    pub scale_y: f64,
    /// Counter-clockwise rotation in degrees, 0..360, applied after the mirroring.
    pub rotation: i32,
    /// Mirrored upside down (about the x axis) before the rotation.
    pub mirrored: bool,
    /// Number of copies, 1..=7.
    pub count: u8,
}

/// A transformation rule: one subdomain.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Rule {
    /// Turn the objects this colour.
    Colour(&'static str),
    /// Multiply width and height.
    Resize(f64, f64),
    /// Rotate counter-clockwise by degrees.
    Rotate(i32),
    /// Reflect about the x axis (upside down), the y axis (sideways) or both.
    Reflect(bool, bool),
    /// `+`, `-`, `x` or `d` (divide) the number of objects by a value.
    Count(char, u8),
}

impl Rule {
    /// The rule of a subdomain in the repository's spelling (`ColourRed`, `2DRotation-90`,
    /// `Countingd3`, `Resize0.5X`, `ReflectXY`); `None` for an unknown name.
    pub fn of(subdomain: &str) -> Option<Rule> {
        let domain = domain_of(subdomain)?;
        let v = &subdomain[domain.len()..];
        Some(match domain {
            "Colour" => Rule::Colour(
                ["Red", "Green", "Blue", "Yellow", "Grey"]
                    .into_iter()
                    .find(|c| *c == v)?,
            ),
            "Resize" => {
                let (f, axes) = v.split_at(v.find('X').or_else(|| v.find('Y'))?);
                let f = f.parse::<f64>().ok()?;
                match axes {
                    "XY" => Rule::Resize(f, f),
                    "X" => Rule::Resize(f, 1.0),
                    "Y" => Rule::Resize(1.0, f),
                    _ => return None,
                }
            }
            "2DRotation" => Rule::Rotate(v.trim_start_matches('+').parse().ok()?),
            "Reflect" => match v {
                "X" => Rule::Reflect(true, false),
                "Y" => Rule::Reflect(false, true),
                "XY" => Rule::Reflect(true, true),
                _ => return None,
            },
            _ => {
                let mut ch = v.chars();
                let op = ch.next()?;
                let k: u8 = ch.as_str().parse().ok()?;
                if !matches!(op, '+' | '-' | 'x' | 'd') {
                    return None;
                }
                Rule::Count(op, k)
            }
        })
    }

    /// The stage-2 option text, as the repository words it for the variant.
    pub fn text(self, variant: Variant) -> String {
        match self {
            Rule::Colour(c) => format!("Objects turn {c}"),
            Rule::Resize(x, y) => match (x == y, x > 1.0 || y > 1.0, x != 1.0) {
                (true, true, _) => "Objects become bigger".into(),
                (true, false, _) => "Objects become smaller".into(),
                (false, true, true) => "Objects become wider only".into(),
                (false, true, false) => "Objects become taller only".into(),
                (false, false, true) => "Objects become thinner only".into(),
                (false, false, false) => "Objects become shorter only".into(),
            },
            Rule::Rotate(a) => match variant {
                Variant::Kiva => format!("Objects rotate by {} degrees", a.abs()),
                Variant::KivaAdults => format!("Objects turn {} degrees", a.abs()),
            },
            Rule::Reflect(true, false) => "Objects flip upside down".into(),
            Rule::Reflect(false, true) => "Objects flip sideways".into(),
            Rule::Reflect(..) => "Objects flip sideways and upside down".into(),
            Rule::Count(op, k) => match op {
                '+' => format!("Things go up by {k}"),
                '-' => format!("Things go down by {k}"),
                'x' => format!("Things multiply by {k}"),
                _ => format!("Things divide by {k}"),
            },
        }
    }

    /// The picture with the rule applied; `None` when the result is impossible (a count
    /// outside 1..=7 or a division that is not exact).
    pub fn apply(self, p: &Picture) -> Option<Picture> {
        let mut q = p.clone();
        match self {
            Rule::Colour(c) => q.colour = c.to_string(),
            Rule::Resize(x, y) => {
                q.scale_x *= x;
                q.scale_y *= y;
            }
            Rule::Rotate(a) => q.rotation = (p.rotation + a).rem_euclid(360),
            Rule::Reflect(x, y) => {
                // Upside down: R(r)·V^m → R(−r)·V^(m+1); sideways = R(180)·upside down; both = R(180).
                let (mut r, mut m) = (p.rotation, p.mirrored);
                if x {
                    r = -r;
                    m = !m;
                }
                if y {
                    r = 180 - r;
                    m = !m;
                }
                q.rotation = r.rem_euclid(360);
                q.mirrored = m;
            }
            Rule::Count(op, k) => {
                let n = p.count;
                let out = match op {
                    '+' => n.checked_add(k)?,
                    '-' => n.checked_sub(k)?,
                    'x' => n.checked_mul(k)?,
                    _ => {
                        if k == 0 || !n.is_multiple_of(k) {
                            return None;
                        }
                        n / k
                    }
                };
                if !(1..=7).contains(&out) {
                    return None;
                }
                q.count = out;
            }
        }
        Some(q)
    }
}

/// The kinds of session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum SessionKind {
    /// KiVA: one trial per subdomain (14), as the adults of the paper.
    Kiva,
    /// KiVA-adults: 19 of the 29 subdomains, as the paper's adults.
    KivaAdults,
    /// A short child-style session: 2 KiVA trials per domain (10).
    Short,
    /// One domain: each of its KiVA subdomains twice.
    Domain(String),
    /// KiVA's own images (a picked folder, see [`stimuli`]): one trial per subdomain (14).
    /// [`generate`] gives the drawn KiVA session for it; the page builds the real trials with
    /// [`stimuli::build_session`].
    Stimuli,
    /// The adaptive form (issue 41): each next KiVA trial where it tells most about the
    /// participant's ability, until the ability is known to [`ADAPTIVE_TARGET_SE`] or after
    /// [`ADAPTIVE_MAX_TRIALS`] trials. [`generate`] gives no trials for it; the page builds
    /// them one at a time with [`adaptive::adaptive_session`].
    Adaptive,
}

/// The adaptive session's stopping rule: a standard error of the ability (logits) at most
/// this, which the fixed 14 trials reach on average (BENCHMARKS.md, "KiVA self-test forms"),
/// after at least the form's minimum of trials...
pub const ADAPTIVE_TARGET_SE: f64 = 0.70;
/// ... or this many trials.
pub const ADAPTIVE_MAX_TRIALS: usize = 20;

/// The options of the page's adaptive session.
pub fn adaptive_options() -> adaptive::FormOptions {
    adaptive::FormOptions {
        target_se: Some(ADAPTIVE_TARGET_SE),
        ..adaptive::FormOptions::of(adaptive::FormKind::Adaptive, ADAPTIVE_MAX_TRIALS)
    }
}

impl SessionKind {
    /// The URL spelling: `kiva`, `kiva-adults`, `short`, `domain:<Domain>`.
    pub fn as_str(&self) -> String {
        match self {
            SessionKind::Kiva => "kiva".into(),
            SessionKind::KivaAdults => "kiva-adults".into(),
            SessionKind::Short => "short".into(),
            SessionKind::Domain(d) => format!("domain:{d}"),
            SessionKind::Stimuli => "stimuli".into(),
            SessionKind::Adaptive => "adaptive".into(),
        }
    }

    /// Reads the URL spelling.
    ///
    /// # Errors
    /// A message naming the accepted values.
    pub fn parse(s: &str) -> Result<Self, String> {
        match s {
            "kiva" => Ok(SessionKind::Kiva),
            "kiva-adults" => Ok(SessionKind::KivaAdults),
            "short" => Ok(SessionKind::Short),
            "stimuli" => Ok(SessionKind::Stimuli),
            "adaptive" => Ok(SessionKind::Adaptive),
            _ => match s.strip_prefix("domain:") {
                Some(d) if crate::kiva::DOMAINS.contains(&d) => Ok(SessionKind::Domain(d.into())),
                _ => Err(format!(
                    "unknown session kind {s:?}: expected kiva, kiva-adults, short, stimuli, adaptive or domain:<{}>",
                    crate::kiva::DOMAINS.join("|")
                )),
            },
        }
    }

    /// The benchmark variant the session's trials follow.
    pub fn variant(&self) -> Variant {
        match self {
            SessionKind::KivaAdults => Variant::KivaAdults,
            _ => Variant::Kiva,
        }
    }

    /// A human name.
    pub fn label(&self) -> String {
        match self {
            SessionKind::Kiva => "KiVA (14 trials)".into(),
            SessionKind::KivaAdults => "KiVA-adults (19 of 29)".into(),
            SessionKind::Short => "Short, child-style (10 trials)".into(),
            SessionKind::Domain(d) => format!("One domain: {d}"),
            SessionKind::Stimuli => "KiVA's own images (14 trials)".into(),
            SessionKind::Adaptive => "KiVA, adaptive (at most 20 trials)".into(),
        }
    }
}

impl From<SessionKind> for String {
    fn from(k: SessionKind) -> String {
        k.as_str()
    }
}

impl TryFrom<String> for SessionKind {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        SessionKind::parse(&s)
    }
}

/// What a stage-3 option shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TestOption {
    /// The rule applied to the test object.
    Correct,
    /// A wrong value of the same domain applied.
    Wrong,
    /// The test object unchanged.
    NoChange,
}

/// One trial: the given transformation, the test object and the options of the three stages.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Trial {
    /// Subdomain (repository spelling).
    pub subdomain: String,
    /// Domain.
    pub domain: String,
    /// Variation number written to the export (1-based trial number).
    pub variation: u64,
    /// Given transformation: before.
    pub train_input: Picture,
    /// Given transformation: after.
    pub train_output: Picture,
    /// The new object before the change.
    pub test_input: Picture,
    /// Stage-3 pictures (A), (B), (C).
    pub test_options: Vec<Picture>,
    /// What each stage-3 picture is.
    pub test_kinds: Vec<TestOption>,
    /// The wrong rule's subdomain used for the wrong stage-3 picture.
    pub test_wrong_subdomain: String,
    /// Stage-1 options (1)-(5).
    pub cross_options: Vec<String>,
    /// Index of the right stage-1 option.
    pub cross_correct: usize,
    /// Stage-2 options (1)-(4).
    pub within_options: Vec<String>,
    /// Index of the right stage-2 option.
    pub within_correct: usize,
    /// KiVA's own images (paths in the picked folder), when the trial is built from them; the
    /// pictures above are then unused placeholders.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub images: Option<TrialImages>,
}

/// The images of a trial built from KiVA's stimuli: paths as listed in the picked folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrialImages {
    /// Given change, before.
    pub train_input: String,
    /// Given change, after.
    pub train_output: String,
    /// The new object before the change.
    pub test_input: String,
    /// Stage-3 pictures (A), (B), (C), in the order of [`Trial::test_kinds`].
    pub test_options: Vec<String>,
}

impl Trial {
    /// Index (0..3) of the right stage-3 picture; (D), index 3, never applies.
    pub fn test_correct(&self) -> usize {
        self.test_kinds
            .iter()
            .position(|k| *k == TestOption::Correct)
            .unwrap_or(0)
    }

    /// The options of a stage, as shown (stage 3: `(A)`..`(C)` picture labels and
    /// "None of these" for (D)).
    pub fn options(&self, stage: Stage) -> Vec<String> {
        match stage {
            Stage::Cross => self.cross_options.clone(),
            Stage::Within => self.within_options.clone(),
            Stage::Extrapolation => vec![
                "(A)".into(),
                "(B)".into(),
                "(C)".into(),
                "(D) None of these apply".into(),
            ],
        }
    }

    /// Index of the right option of a stage.
    pub fn correct(&self, stage: Stage) -> usize {
        match stage {
            Stage::Cross => self.cross_correct,
            Stage::Within => self.within_correct,
            Stage::Extrapolation => self.test_correct(),
        }
    }
}

/// A generated session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Session {
    /// Kind.
    pub kind: SessionKind,
    /// Seed.
    pub seed: u64,
    /// Variant whose subdomains and option texts are used.
    pub variant: Variant,
    /// The trials in order.
    pub trials: Vec<Trial>,
}

/// One answer: the chosen option index and the reaction time, and what a lab package records
/// around it (issue 41: jsPsych's browser-interaction data): the input used and whether the
/// page lost the participant's attention meanwhile. Sessions saved before these were recorded
/// read with their defaults.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Response {
    /// 0-based option index.
    pub choice: usize,
    /// Milliseconds from stimulus onset (the animation frame that drew the trial) to the
    /// answering event's own timestamp.
    pub rt_ms: f64,
    /// How the answer was given.
    #[serde(default)]
    pub input: Input,
    /// Times the page lost focus or was hidden between the onset and the answer.
    #[serde(default)]
    pub interruptions: u32,
    /// Milliseconds of that time the page was unfocused or hidden.
    #[serde(default)]
    pub away_ms: f64,
}

/// How long an unfinished session may rest before it is offered a fresh start instead of
/// resuming (issue 41, item 4; jsPsych's `max_age`): one day.
pub const MAX_RESUME_AGE_MS: f64 = 24.0 * 60.0 * 60.0 * 1000.0;

/// What opening a saved session does (the page states each).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Resume {
    /// No answer yet: the first question.
    Fresh,
    /// Unfinished and younger than the limit: the next question, said on the page.
    Continue,
    /// Unfinished and older than the limit (or of unknown age): the participant chooses to
    /// resume or to start again (the earlier answers are then discarded).
    Offer {
        /// How old it is, when known (ms).
        age_ms: Option<f64>,
    },
    /// Every trial answered: the results, never the questions again.
    Finished,
}

impl Resume {
    /// The policy for a session with `answered` of `total` trials done (`any` when at least one
    /// question was answered), started at `started_ms` (ms since the epoch, `None` for a
    /// session saved before its start was recorded), opened at `now_ms`, with `max_age_ms`.
    pub fn of(
        any: bool,
        answered: usize,
        total: usize,
        started_ms: Option<f64>,
        now_ms: f64,
        max_age_ms: f64,
    ) -> Self {
        if total > 0 && answered >= total {
            return Self::Finished;
        }
        if !any {
            return Self::Fresh;
        }
        match started_ms {
            Some(t) if now_ms - t <= max_age_ms => Self::Continue,
            Some(t) => Self::Offer {
                age_ms: Some(now_ms - t),
            },
            None => Self::Offer { age_ms: None },
        }
    }
}

/// The input an answer came from (a pointer event's `pointerType`, or a key).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Input {
    /// Not recorded (sessions saved before it was), or a pointer of another type.
    #[default]
    Unknown,
    /// A mouse click.
    Mouse,
    /// A touch.
    Touch,
    /// A pen.
    Pen,
    /// A key press (the option's number or letter), or Enter/Space on a focused option.
    Key,
}

impl Input {
    /// The input of a pointer event's `pointerType` (`""` for a click without a pointer, such
    /// as Enter on a focused button, which browsers report as a click).
    pub fn of_pointer(pointer_type: &str) -> Self {
        match pointer_type {
            "mouse" => Self::Mouse,
            "touch" => Self::Touch,
            "pen" => Self::Pen,
            "" => Self::Key,
            _ => Self::Unknown,
        }
    }
}

/// What the session ran on, recorded once when it starts (jsPsych's browser-check data): the
/// window's size in CSS pixels, the device pixel ratio, the display's refresh rate estimated
/// from 60 animation frames, the browser's user agent, and whether the main pointer is fine
/// (mouse), coarse (touch) or absent.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Environment {
    /// Window width (CSS pixels).
    pub width: u32,
    /// Window height (CSS pixels).
    pub height: u32,
    /// Device pixel ratio.
    pub pixel_ratio: f64,
    /// Refresh rate estimated from the median interval of 60 animation frames (Hz), if
    /// measured.
    pub refresh_hz: Option<f64>,
    /// `navigator.userAgent`.
    pub user_agent: String,
    /// `fine`, `coarse` or `none` (the `pointer` media feature).
    pub pointer: String,
}

impl Environment {
    /// The refresh rate of a display from animation-frame timestamps (ms): 1000 over the median
    /// interval between consecutive frames; `None` with fewer than two frames or a zero median.
    pub fn refresh_rate(frames: &[f64]) -> Option<f64> {
        let mut gaps: Vec<f64> = frames.windows(2).map(|w| w[1] - w[0]).collect();
        if gaps.is_empty() {
            return None;
        }
        gaps.sort_by(f64::total_cmp);
        let n = gaps.len();
        let median = if n % 2 == 1 {
            gaps[n / 2]
        } else {
            (gaps[n / 2 - 1] + gaps[n / 2]) / 2.0
        };
        (median > 0.0).then(|| 1000.0 / median)
    }
}

/// The answers of one trial.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct TrialResponses {
    /// Stage 1.
    pub cross: Option<Response>,
    /// Stage 2 (asked only after a right stage 1).
    pub within: Option<Response>,
    /// Stage 3.
    pub extrapolation: Option<Response>,
}

impl TrialResponses {
    /// The answer of a stage.
    pub fn get(&self, stage: Stage) -> Option<Response> {
        match stage {
            Stage::Cross => self.cross,
            Stage::Within => self.within,
            Stage::Extrapolation => self.extrapolation,
        }
    }
}

impl Session {
    /// Whether an option index is the right answer of a stage.
    pub fn is_correct(&self, trial: usize, stage: Stage, choice: usize) -> bool {
        self.trials
            .get(trial)
            .is_some_and(|t| t.correct(stage) == choice)
    }

    /// The next question: (trial index, stage), or `None` when the session is complete.
    /// Stage 2 follows only a right stage 1; stage 3 is always asked.
    pub fn next_step(&self, responses: &[TrialResponses]) -> Option<(usize, Stage)> {
        for (i, t) in self.trials.iter().enumerate() {
            let r = responses.get(i).copied().unwrap_or_default();
            let Some(cross) = r.cross else {
                return Some((i, Stage::Cross));
            };
            if cross.choice == t.cross_correct && r.within.is_none() {
                return Some((i, Stage::Within));
            }
            if r.extrapolation.is_none() {
                return Some((i, Stage::Extrapolation));
            }
        }
        None
    }

    /// Records an answer to the current question.
    ///
    /// # Errors
    /// A message when the session is complete or `(trial, stage)` is not the current question.
    pub fn answer(
        &self,
        responses: &mut Vec<TrialResponses>,
        trial: usize,
        stage: Stage,
        response: Response,
    ) -> Result<(), String> {
        if self.next_step(responses) != Some((trial, stage)) {
            return Err(format!(
                "trial {} stage {stage:?} is not the current question",
                trial + 1
            ));
        }
        let n = self.trials[trial].options(stage).len();
        if response.choice >= n || !response.rt_ms.is_finite() || response.rt_ms < 0.0 {
            return Err(format!(
                "answer out of range: option {}",
                response.choice + 1
            ));
        }
        if responses.len() < self.trials.len() {
            responses.resize(self.trials.len(), TrialResponses::default());
        }
        let r = &mut responses[trial];
        match stage {
            Stage::Cross => r.cross = Some(response),
            Stage::Within => r.within = Some(response),
            Stage::Extrapolation => r.extrapolation = Some(response),
        }
        Ok(())
    }
}

/// The answers as CSV in the layout of KiVA's human data
/// (`ParticipantID,Transformation,Variation,Task,Score,Reaction Time`), one row per answered
/// stage, reaction times rounded to whole milliseconds.
pub fn to_human_csv(session: &Session, participant: &str, responses: &[TrialResponses]) -> String {
    let mut out = String::from("ParticipantID,Transformation,Variation,Task,Score,Reaction Time\n");
    let pid = participant.replace([',', '"', '\n', '\r'], " ");
    let pid = if pid.trim().is_empty() {
        "self".to_string()
    } else {
        pid.trim().to_string()
    };
    for (i, t) in session.trials.iter().enumerate() {
        let Some(r) = responses.get(i) else { break };
        for (stage, task) in [
            (Stage::Cross, "Cross Domain"),
            (Stage::Within, "Within Domain"),
            (Stage::Extrapolation, "Extrapolation"),
        ] {
            if let Some(a) = r.get(stage) {
                let score = u8::from(t.correct(stage) == a.choice);
                out.push_str(&format!(
                    "{pid},{},{},{task},{score},{}\n",
                    t.subdomain,
                    t.variation,
                    a.rt_ms.round()
                ));
            }
        }
    }
    out
}

/// Scores a session as the paper's adults are scored: the CSV of [`to_human_csv`] read by
/// [`HumanData::parse`] and aggregated by [`score_human`] (per subdomain, domain and overall,
/// mean and SE over trials; a skipped stage 2 counts 0 in `within_joint`).
///
/// # Errors
/// [`KivaError::Empty`] when nothing has been answered yet.
pub fn score_session(
    session: &Session,
    participant: &str,
    responses: &[TrialResponses],
) -> Result<(KivaReport, HumanData), KivaError> {
    let csv = to_human_csv(session, participant, responses);
    let data = HumanData::parse("self-test.csv", csv.as_bytes())?;
    Ok((score_human(&data)?, data))
}

/// The row label of a human-data file that holds one participant only, as a self-test export
/// does: `<participant id> (self-test)`; `None` for a file of several participants (e.g. the
/// KiVA adults).
///
/// # Examples
/// ```
/// use coglab_core::kiva::HumanData;
/// use coglab_core::selftest::participant_label;
/// let one = HumanData::parse("s.csv", b"ParticipantID,Transformation,Variation,Task,Score,Reaction Time\n\
///     ana,ColourRed,1,Cross Domain,1,900\nana,ColourRed,1,Extrapolation,0,800\n").unwrap();
/// assert_eq!(participant_label(&one).as_deref(), Some("ana (self-test)"));
/// ```
pub fn participant_label(data: &HumanData) -> Option<String> {
    let first = &data.rows.first()?.participant;
    data.rows
        .iter()
        .all(|r| r.participant == *first)
        .then(|| format!("{first} (self-test)"))
}

/// The whole session as JSON: kind, seed, participant, every trial with its options and right
/// answers, and the answers with their scores.
pub fn to_json(
    session: &Session,
    participant: &str,
    responses: &[TrialResponses],
    environment: Option<&Environment>,
) -> String {
    #[derive(Serialize)]
    struct Export<'a> {
        benchmark: &'static str,
        participant: &'a str,
        kind: String,
        seed: u64,
        variant: Variant,
        #[serde(skip_serializing_if = "Option::is_none")]
        environment: Option<&'a Environment>,
        trials: Vec<ExportTrial<'a>>,
    }
    #[derive(Serialize)]
    struct ExportTrial<'a> {
        trial: &'a Trial,
        responses: TrialResponses,
        scores: [Option<u8>; 3],
    }
    let trials = session
        .trials
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let r = responses.get(i).copied().unwrap_or_default();
            let s = |st: Stage| r.get(st).map(|a| u8::from(a.choice == t.correct(st)));
            ExportTrial {
                trial: t,
                responses: r,
                scores: [s(Stage::Cross), s(Stage::Within), s(Stage::Extrapolation)],
            }
        })
        .collect();
    serde_json::to_string_pretty(&Export {
        benchmark: "kiva-self-test",
        participant,
        kind: session.kind.as_str(),
        seed: session.seed,
        variant: session.variant,
        environment,
        trials,
    })
    .unwrap_or_default()
}

/// Generates a session: the subdomains of the kind (shuffled), one trial each.
///
/// The same kind and seed always give the same session.
///
/// # Examples
/// ```
/// use coglab_core::selftest::{generate, SessionKind};
/// let a = generate(&SessionKind::Kiva, 42);
/// assert_eq!(a.trials.len(), 14);
/// assert_eq!(a, generate(&SessionKind::Kiva, 42));
/// ```
pub fn generate(kind: &SessionKind, seed: u64) -> Session {
    let mut rng = Rng::new(seed);
    let variant = kind.variant();
    let mut subs: Vec<&'static str> = match kind {
        SessionKind::Kiva | SessionKind::Stimuli => crate::kiva::KIVA_SUBDOMAINS.to_vec(),
        // Built one trial at a time (adaptive::adaptive_session).
        SessionKind::Adaptive => Vec::new(),
        SessionKind::KivaAdults => {
            let mut all = crate::kiva::KIVA_ADULTS_SUBDOMAINS.to_vec();
            rng.shuffle(&mut all);
            all.truncate(19);
            all
        }
        SessionKind::Short => {
            let mut out = Vec::new();
            for d in crate::kiva::DOMAINS {
                let mut of: Vec<&str> = crate::kiva::KIVA_SUBDOMAINS
                    .iter()
                    .copied()
                    .filter(|s| domain_of(s) == Some(d))
                    .collect();
                rng.shuffle(&mut of);
                out.extend(of.into_iter().take(2));
            }
            out
        }
        SessionKind::Domain(d) => {
            let of: Vec<&str> = crate::kiva::KIVA_SUBDOMAINS
                .iter()
                .copied()
                .filter(|s| domain_of(s) == Some(d.as_str()))
                .collect();
            of.iter().chain(of.iter()).copied().collect()
        }
    };
    rng.shuffle(&mut subs);
    let trials = subs
        .iter()
        .enumerate()
        .map(|(i, s)| make_trial(&mut rng, variant, s, i as u64 + 1))
        .collect();
    Session {
        kind: kind.clone(),
        seed,
        variant,
        trials,
    }
}

/// One trial of a subdomain, drawn as [`generate`] draws it (the adaptive form names the
/// subdomain, see [`adaptive::FormSession::next_subdomain`]); `None` for a subdomain not of the
/// variant. The same arguments give the same trial.
///
/// # Examples
/// ```
/// use coglab_core::kiva::Variant;
/// use coglab_core::selftest::trial_for;
/// let t = trial_for(Variant::Kiva, "ColourRed", 7, 3).unwrap();
/// assert_eq!((t.subdomain.as_str(), t.domain.as_str(), t.variation), ("ColourRed", "Colour", 3));
/// assert_eq!(Some(t), trial_for(Variant::Kiva, "ColourRed", 7, 3));
/// assert!(trial_for(Variant::Kiva, "ReflectXY", 7, 3).is_none());
/// ```
pub fn trial_for(variant: Variant, subdomain: &str, seed: u64, variation: u64) -> Option<Trial> {
    if !variant.subdomains().contains(&subdomain) {
        return None;
    }
    Some(make_trial(
        &mut Rng::new(seed),
        variant,
        subdomain,
        variation,
    ))
}

fn pick<T: Copy>(rng: &mut Rng, items: &[T]) -> T {
    items[rng.below(items.len())]
}

/// The rules of the variant's subdomains of a domain.
fn domain_rules(variant: Variant, domain: &str) -> Vec<(&'static str, Rule)> {
    variant
        .subdomains()
        .iter()
        .filter(|s| domain_of(s) == Some(domain))
        .filter_map(|s| Some((*s, Rule::of(s)?)))
        .collect()
}

fn make_trial(rng: &mut Rng, variant: Variant, subdomain: &str, variation: u64) -> Trial {
    let domain = domain_of(subdomain).unwrap_or("Colour");
    let rule = Rule::of(subdomain).unwrap_or(Rule::Colour("Red"));
    let rules = domain_rules(variant, domain);
    let adults = variant == Variant::KivaAdults;
    let train_object = rng.below(objects::DRAWINGS.len());
    let mut test_object = rng.below(objects::DRAWINGS.len() - 1);
    if test_object >= train_object {
        test_object += 1;
    }
    let base = |object: usize, colour: &str| Picture {
        object,
        colour: colour.to_string(),
        scale_x: 1.0,
        scale_y: 1.0,
        rotation: 0,
        mirrored: false,
        count: 1,
    };
    let c1 = pick(rng, &BASE_COLOURS);
    let mut train_input = base(train_object, c1);
    let mut test_input = base(test_object, c1);
    if adults {
        // KiVA-adults: the test input value differs from the given one.
        match domain {
            "Colour" => {
                let others: Vec<&str> = BASE_COLOURS.iter().copied().filter(|c| *c != c1).collect();
                test_input.colour = pick(rng, &others).to_string();
            }
            "Resize" => {
                if rng.below(2) == 0 {
                    test_input.scale_x = 0.7;
                    test_input.scale_y = 0.7;
                } else {
                    train_input.scale_x = 0.7;
                    train_input.scale_y = 0.7;
                }
            }
            "2DRotation" | "Reflect" => test_input.rotation = pick(rng, &[90, 180, 270]),
            _ => {}
        }
    }
    if domain == "Counting" {
        // Counts whose given change only one counting rule explains (the paper's constraint
        // against e.g. 2 → 4 being both +2 and ×2).
        let unique = |n: u8| {
            let Some(out) = rule.apply(&Picture {
                count: n,
                ..train_input.clone()
            }) else {
                return false;
            };
            rules
                .iter()
                .filter(|(_, r)| {
                    r.apply(&Picture {
                        count: n,
                        ..train_input.clone()
                    })
                    .is_some_and(|p| p.count == out.count)
                })
                .count()
                == 1
        };
        let ok: Vec<u8> = (1..=7).filter(|n| unique(*n)).collect();
        let n = pick(rng, &ok);
        train_input.count = n;
        test_input.count = n;
        if adults {
            let valid: Vec<u8> = (1..=7)
                .filter(|m| {
                    *m != n
                        && rule
                            .apply(&Picture {
                                count: *m,
                                ..test_input.clone()
                            })
                            .is_some()
                })
                .collect();
            if !valid.is_empty() {
                test_input.count = pick(rng, &valid);
            }
        }
    }
    let train_output = rule
        .apply(&train_input)
        .unwrap_or_else(|| train_input.clone());
    let correct = rule
        .apply(&test_input)
        .unwrap_or_else(|| test_input.clone());
    // Stage 3 wrong option: another rule of the domain giving a different, valid picture.
    let wrongs: Vec<(&str, Picture)> = rules
        .iter()
        .filter(|(s, _)| *s != subdomain)
        .filter_map(|(s, r)| Some((*s, r.apply(&test_input)?)))
        .filter(|(_, p)| *p != correct && *p != test_input)
        .collect();
    let (wrong_sub, wrong_pic) = if wrongs.is_empty() {
        (subdomain, test_input.clone())
    } else {
        let (s, p) = &wrongs[rng.below(wrongs.len())];
        (*s, p.clone())
    };
    let mut order = [TestOption::Correct, TestOption::Wrong, TestOption::NoChange];
    rng.shuffle(&mut order);
    let test_options = order
        .iter()
        .map(|k| match k {
            TestOption::Correct => correct.clone(),
            TestOption::Wrong => wrong_pic.clone(),
            TestOption::NoChange => test_input.clone(),
        })
        .collect();
    let (cross, cross_correct) = cross_options(rng, domain);
    // Stage 2: the right rule and a wrong rule of the domain with a different wording.
    let right_rule = rule.text(variant);
    let wrong_rule = if let (Rule::Count(op, k), Variant::Kiva) = (rule, variant) {
        // The repository's KiVA rule: the opposite sign with the same value.
        Rule::Count(if op == '+' { '-' } else { '+' }, k).text(variant)
    } else {
        let texts: Vec<String> = rules
            .iter()
            .map(|(_, r)| r.text(variant))
            .filter(|t| *t != right_rule)
            .collect();
        texts
            .get(rng.below(texts.len().max(1)))
            .cloned()
            .unwrap_or_else(|| DOESNT_APPLY.into())
    };
    let (within, within_correct) = within_options(rng, right_rule, wrong_rule);
    Trial {
        subdomain: subdomain.to_string(),
        domain: domain.to_string(),
        variation,
        train_input,
        train_output,
        test_input,
        test_options,
        test_kinds: order.to_vec(),
        test_wrong_subdomain: wrong_sub.to_string(),
        cross_options: cross,
        cross_correct,
        within_options: within,
        within_correct,
        images: None,
    }
}

/// Stage 1's options: the right domain and two others, shuffled, then the two fixed options;
/// and the right one's index.
pub(crate) fn cross_options(rng: &mut Rng, domain: &str) -> (Vec<String>, usize) {
    let right_text = domain_text(domain);
    let mut others: Vec<&str> = DOMAIN_TEXTS
        .iter()
        .copied()
        .filter(|t| *t != right_text)
        .collect();
    rng.shuffle(&mut others);
    let mut cross: Vec<String> = vec![right_text.to_string(), others[0].into(), others[1].into()];
    rng.shuffle(&mut cross);
    let cross_correct = cross.iter().position(|t| t == right_text).unwrap_or(0);
    cross.push(NO_CHANGE.into());
    cross.push(DOESNT_APPLY.into());
    (cross, cross_correct)
}

/// Stage 2's options: the right and the wrong rule, shuffled, then the two fixed options; and
/// the right one's index.
pub(crate) fn within_options(
    rng: &mut Rng,
    right_rule: String,
    wrong_rule: String,
) -> (Vec<String>, usize) {
    let mut within = vec![right_rule.clone(), wrong_rule];
    rng.shuffle(&mut within);
    let within_correct = within.iter().position(|t| *t == right_rule).unwrap_or(0);
    within.push(NO_CHANGE.into());
    within.push(DOESNT_APPLY.into());
    (within, within_correct)
}
