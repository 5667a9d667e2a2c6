//! What the leaderboard columns mean, the model families and sizes known from the papers, and
//! the 95% intervals used to rank rows.

use crate::mmiq::Accuracy;

/// Number of MM-IQ test items (all of them are scored in the paper's Table 2).
pub const MMIQ_ITEMS: u64 = 2710;

/// The short definition of a leaderboard column, by benchmark and column key (an MM-IQ
/// paradigm name, `mean`, or a KiVA stage key `cross`, `within_conditional`, `within_joint`,
/// `extrapolation`, optionally after `<Domain> `).
///
/// # Examples
/// ```
/// use coglab_core::leaderboard::metrics::definition;
/// assert!(definition("mmiq", "mean").contains("Wilson"));
/// assert!(definition("kiva", "Colour cross").contains("Stage 1"));
/// assert!(definition("mmopera", "dhr").contains("HR-3"));
/// assert!(definition("gold", "Memory").contains("loading"));
/// assert_eq!(definition("mmiq", "no such column"), "");
/// ```
pub fn definition(benchmark: &str, column: &str) -> &'static str {
    let stage = column.rsplit(' ').next().unwrap_or(column);
    match (benchmark, column) {
        ("mmiq", "mean") => "Accuracy over all scored items (item-weighted, as MM-IQ's script); the interval is the Wilson 95% score interval. For a reported row it assumes all 2,710 items were scored.",
        ("mmiq", "Logical Operation") => "Logical Operation: AND/OR/XOR-style combinations of shapes across panels.",
        ("mmiq", "Mathematical") => "Mathematical: counts, sums and numeric progressions of elements.",
        ("mmiq", "2D-Geometry") => "2D-Geometry: plane-figure properties (symmetry, angles, enclosed regions).",
        ("mmiq", "3D-Geometry") => "3D-Geometry: solids, views and nets.",
        ("mmiq", "Visual Instruction") => "Visual Instruction: arrows or marks in the figure say what to do.",
        ("mmiq", "Temporal Movement") => "Temporal Movement: positions or rotations that change step by step.",
        ("mmiq", "Spatial Relationship") => "Spatial Relationship: relative positions of objects.",
        ("mmiq", "Concrete Object") => "Concrete Object: real-world objects grouped by a shared property.",
        ("mmopera", "sr") => "Score rate (SR): Σ holistic score / (4 × verdicts), the judges of a model pooled; an invalid score counts as 0.",
        ("mmopera", "hr4") => "HR-4: share of verdicts scoring 4 (right and insightful).",
        ("mmopera", "hr3") => "HR-3: share of verdicts scoring 3 or 4 (right).",
        ("mmopera", "dhr") => "ΔHR = HR-3 − HR-4: right but not insightful.",
        ("mmopera", "sr_proc") => "Average reasoning score: mean process-reward score S_r per item (α = γ = 0.9). A path of n hops scores at most 1 + γ + … + γ^(n−1) with the released code's decay (1.9 for 2 hops, 2.71 for 3, 3.44 for 4, below 10 for any n) and γ times that with the paper's equation 2. Reported rows: the paper's Table 3 (process evaluation), as printed.",
        ("mmopera", "gap") => "RIA − ICA: score rate of the RIA task minus that of the ICA task, in points (both reported or both computed for the row's model). Positive: the model associates two items better than it completes an in-context analogy.",
        ("gold", "overall") => "Gold's weighted overall score: each task's score weighted by its PLS-SEM loading (Σ|λ|·s / Σ|λ|), layers feeding one Overall construct, as coglab sem computes it; same unit as the tasks. Reported rows: computed by coglab from the paper's Table 2 task accuracies.",
        ("gold", "plain_mean") => "Unweighted mean of the same tasks.",
        ("gold", "paper_overall") => "The Overall score printed in Gold's Table 2 (the paper's own scale).",
        ("gold", _) => "Layer score: loading-weighted score over the tasks of this layer (Σ|λ|·s / Σ|λ|).",
        ("kiva", _) => match stage {
            "cross" => "Stage 1 (what): which kind of change happened (cross-domain). Trial score = mean over its regenerations; mean ± SE over trials, 95% interval: Wilson's with the trials' effective size p(1 − p)/SE² and Student t on trials − 1 degrees of freedom (docs/coverage.md).",
            "within_conditional" => "Stage 2 (how), conditional: only trials that reached stage 2 (stage 1 right).",
            "within_joint" => "Stage 2 (how), joint: a skipped stage 2 counts as 0.",
            "extrapolation" => "Stage 3 (apply): apply the rule to a new object.",
            _ => "",
        },
        _ => "",
    }
}

/// The reasoning-score column's title and definition under the decay and ICA-average switches
/// (issue 23), naming the setting and which source it follows, and the default.
///
/// # Examples
/// ```
/// use coglab_core::leaderboard::metrics::mmopera_reasoning_label;
/// use coglab_core::mmopera::score::{DecayExponent, IcaAverage};
/// let (title, def) = mmopera_reasoning_label(DecayExponent::FromZero, IcaAverage::Items);
/// assert_eq!(title, "Reasoning (code decay)");
/// assert!(def.contains("default"));
/// let (title, _) = mmopera_reasoning_label(DecayExponent::FromOne, IcaAverage::Paths);
/// assert_eq!(title, "Reasoning (paper Eq. 2, ICA per path)");
/// ```
pub fn mmopera_reasoning_label(
    decay: crate::mmopera::score::DecayExponent,
    average: crate::mmopera::score::IcaAverage,
) -> (String, String) {
    use crate::mmopera::score::{DecayExponent, IcaAverage};
    let (d_title, d_def) = match decay {
        DecayExponent::FromZero => (
            "code decay",
            "Decay: Σ s_i·γ^i from i = 0, the first hop undecayed (the released code; default).",
        ),
        _ => (
            "paper Eq. 2",
            "Decay: Σ s_t·γ^t from t = 1, every hop decayed (the paper's equation 2; = the code's value × γ; default: the released code).",
        ),
    };
    let (a_title, a_def) = match average {
        IcaAverage::Items => (
            "",
            " ICA: each item's S_r is the mean of its 8 paths, then the mean over items (ours; default).",
        ),
        _ => (
            ", ICA per path",
            " ICA: the mean over all scored paths of all items (the released ICA_stat.py; default: over items). RIA items have one path, so RIA is the same either way.",
        ),
    };
    (
        format!("Reasoning ({d_title}{a_title})"),
        format!("{} {d_def}{a_def}", definition("mmopera", "sr_proc")),
    )
}

/// The KiVA columns' note on `Null` answers (no option named) under the switch (issue 23).
///
/// # Examples
/// ```
/// use coglab_core::kiva::NullAnswers;
/// let n = coglab_core::leaderboard::metrics::kiva_null_note(NullAnswers::Wrong);
/// assert!(n.contains("repository"));
/// ```
pub fn kiva_null_note(null: crate::kiva::NullAnswers) -> &'static str {
    match null {
        crate::kiva::NullAnswers::Wrong => "Null answers (no option named) count as wrong: the KiVA repository's rule (default).",
        _ => "Null answers (no option named) are left out of the stage's mean (default: counted wrong, the KiVA repository's rule). Bundled rows and the adults keep the repository's rule.",
    }
}

/// A model family and size, as far as the papers say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelInfo {
    /// Family (`GPT`, `Claude`, `Gemini`, `Qwen`, ...) or `unknown`.
    pub family: &'static str,
    /// Parameter count (e.g. `7B`), `proprietary` for closed models, or `unknown`.
    pub size: String,
}

/// Known families: (name fragment, lower case; family; size of closed models).
const FAMILIES: [(&str, &str, bool); 17] = [
    ("gpt", "GPT", true),
    ("openai", "GPT", true),
    ("o3", "GPT", true),
    ("o4", "GPT", true),
    ("claude", "Claude", true),
    ("gemini", "Gemini", true),
    ("qvq", "Qwen", false),
    ("qwen", "Qwen", false),
    ("llava", "LLaVA", false),
    ("deepseek", "DeepSeek", false),
    ("mantis", "Mantis", false),
    ("internvl", "InternVL", false),
    ("internlm", "InternLM", false),
    ("gemma", "Gemma", false),
    ("glm", "GLM", false),
    ("yi-vl", "Yi", false),
    ("kimi", "Kimi", false),
];

/// Sizes of open models whose name does not say it (from the papers).
const KNOWN_SIZES: [(&str, &str); 3] = [("mantis", "8B"), ("glm-4v", "9B"), ("vila1.5", "unknown")];

/// The family and size of a model name: the family from a table of the families in the papers,
/// the size from a `<number>B` part of the name (e.g. `Qwen2-VL-72B`), closed models as
/// `proprietary`; `unknown` otherwise.
///
/// # Examples
/// ```
/// use coglab_core::leaderboard::metrics::model_info;
/// let q = model_info("Qwen2-VL-72B-Instruct");
/// assert_eq!((q.family, q.size.as_str()), ("Qwen", "72B"));
/// assert_eq!(model_info("gpt4_multi_image").size, "proprietary");
/// assert_eq!(model_info("mantis_multi_image").size, "8B");
/// assert_eq!(model_info("my-model").family, "unknown");
/// ```
pub fn model_info(name: &str) -> ModelInfo {
    let lower = name.to_ascii_lowercase();
    let known = FAMILIES
        .iter()
        .find(|(frag, _, _)| lower.starts_with(frag) || lower.contains(&format!("-{frag}")));
    let size = size_in_name(&lower)
        .or_else(|| {
            KNOWN_SIZES
                .iter()
                .find(|(f, _)| lower.contains(f))
                .map(|(_, s)| (*s).to_string())
        })
        .or_else(|| known.filter(|k| k.2).map(|_| "proprietary".to_string()))
        .unwrap_or_else(|| "unknown".into());
    ModelInfo {
        family: known.map_or("unknown", |k| k.1),
        size,
    }
}

/// A `<digits>[.<digits>]b` token of a lower-case name, as `<digits>B`.
fn size_in_name(lower: &str) -> Option<String> {
    lower
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '.'))
        .find_map(|tok| {
            let num = tok.strip_suffix('b')?;
            (!num.is_empty()
                && num.chars().all(|c| c.is_ascii_digit() || c == '.')
                && num.chars().next().is_some_and(|c| c.is_ascii_digit()))
            .then(|| format!("{num}B"))
        })
}

/// The Wilson 95% interval of a reported MM-IQ accuracy (a percentage), taking the paper's
/// count of scored items as all [`MMIQ_ITEMS`] items and the count right as the nearest whole
/// number; `None` for a value outside 0-100.
///
/// # Examples
/// ```
/// use coglab_core::leaderboard::metrics::reported_mmiq_interval;
/// let a = reported_mmiq_interval(26.87).unwrap();
/// assert_eq!((a.correct, a.n), (728, 2710));
/// assert!(a.ci_low < 0.2687 && 0.2687 < a.ci_high);
/// ```
pub fn reported_mmiq_interval(percent: f64) -> Option<Accuracy> {
    if !(0.0..=100.0).contains(&percent) {
        return None;
    }
    let correct = (percent / 100.0 * MMIQ_ITEMS as f64).round() as u64;
    Accuracy::new(correct, MMIQ_ITEMS)
}

/// The normal 95% interval of a mean, the one KiVA stage scores are ranked by (a statistic of
/// [`crate::stats::describe::MeanSe`], defined beside it: the harness export and the published
/// bundle compute it too).
pub use crate::stats::describe::normal_interval;

/// The 95% interval of a KiVA stage score (a mean over `n` trials of their regeneration means,
/// with the report's SE, ddof 0): the clustered Wilson interval
/// ([`crate::stats::interval::wilson_clustered`], trials as clusters, Student t on trials − 1
/// degrees of freedom), the one the published bundle and the harness export give. Issue 40:
/// `mean ± 1.96 SE` and `mean ± t SE` covered 88% on average over n in [10, 300] and p in
/// [0.02, 0.98], 28% at 10 trials and p = 0.02; this one 9x% (`docs/coverage.md`).
///
/// # Examples
/// ```
/// use coglab_core::leaderboard::metrics::kiva_stage_interval;
/// use coglab_core::stats::describe::MeanSe;
/// // No trial right out of 10: [0, t^2 / (10 + t^2)] with t(0.975, 9) = 2.262157.
/// let (lo, hi) = kiva_stage_interval(MeanSe { mean: 0.0, se: 0.0, n: 10 });
/// assert!(lo == 0.0 && (hi - 0.338_508_623).abs() < 1e-9);
/// ```
pub fn kiva_stage_interval(m: crate::stats::describe::MeanSe) -> (f64, f64) {
    // The report's SE has ddof 0; the clustered SE of a mean over trials has n − 1.
    let se = if m.n > 1 {
        m.se * (m.n as f64 / (m.n as f64 - 1.0)).sqrt()
    } else {
        m.se
    };
    match crate::stats::interval::wilson_clustered(
        m.mean.clamp(0.0, 1.0),
        se,
        m.n,
        usize::MAX,
        true,
    ) {
        Some(i) => (i.low, i.high),
        None => crate::stats::describe::t_interval(m),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_and_sizes_of_the_papers_models() {
        for (name, family, size) in [
            ("LLaVA-1.6-7B", "LLaVA", "7B"),
            ("Deepseek-vl-7b-chat", "DeepSeek", "7B"),
            ("QVQ-72B-Preview", "Qwen", "72B"),
            ("Qwen2.5-VL-7B-Instruct (RL)", "Qwen", "7B"),
            ("GPT-4o", "GPT", "proprietary"),
            ("Gemini-1.5-Pro-002", "Gemini", "proprietary"),
            ("Claude-3-7-Sonnet-Thinking", "Claude", "proprietary"),
            ("OpenAI-o3", "GPT", "proprietary"),
            ("o4-mini", "GPT", "proprietary"),
            ("InternVL3 38B", "InternVL", "38B"),
            ("Gemma3 4B", "Gemma", "4B"),
            ("Yi-VL-34B", "Yi", "34B"),
            ("Kimi-VL-A3B-Instruct", "Kimi", "unknown"),
            ("gpt4_single_image", "GPT", "proprietary"),
            ("Human Performance", "unknown", "unknown"),
        ] {
            let m = model_info(name);
            assert_eq!((m.family, m.size.as_str()), (family, size), "{name}");
        }
    }

    #[test]
    fn reported_interval_by_hand() {
        // 26.87% of 2710 = 728.18 → 728 right.
        let a = reported_mmiq_interval(26.87).unwrap();
        assert_eq!(a.correct, 728);
        assert!(reported_mmiq_interval(101.0).is_none());
        assert!(reported_mmiq_interval(f64::NAN).is_none());
    }
}
