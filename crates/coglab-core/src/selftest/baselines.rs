//! Adult and model aggregates to compare a self-test session with, per domain and stage,
//! and median reaction times per domain.
//!
//! The bundled `public/data/kiva-baselines.json` and `kiva-adults-baselines.json` are
//! [`Baselines`] values built by [`Baselines::build`] from the KiVA repository's files
//! (`scripts/kiva-baselines.sh`), one file per variant ([`Baselines::file_name`]): a view shows
//! one variant, and on a slow link each half was 0.06 s of the KiVA tab's first view (issue
//! 42). A native test checks the bundled figures against this function on the real files.

use crate::kiva::{domain_of, HumanData, KivaReport, ReactionTime, StageStats, Variant};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Where the adults' figures come from (issue 23), for labels and tooltips: the released file,
/// not the paper's sample; no child data are released.
pub const ADULTS_SOURCE: &str = "Adults: computed from the KiVA repository's released file human_adults_KiVA.csv (250 participants, 3,576 KiVA trials), not the paper's sample of 40 adults (560 responses), whose per-trial data are not released. No child data are released, so there is no children's row.";

/// One group's figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupBaseline {
    /// Label, e.g. `Adults` or `GPT-4V (multi-image)`.
    pub label: String,
    /// Source files (relative to the KiVA repository's data folder).
    pub files: Vec<String>,
    /// Number of trials aggregated.
    pub trials: usize,
    /// Per domain: mean and SE of each stage over trials.
    pub by_domain: BTreeMap<String, StageStats>,
    /// All trials.
    pub overall: StageStats,
    /// Per domain: reaction times over all stages (people only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rt_by_domain: Option<BTreeMap<String, ReactionTime>>,
}

impl GroupBaseline {
    /// The figures of a scored report; `human` adds reaction times per domain.
    pub fn of(label: &str, report: &KivaReport, human: Option<&HumanData>) -> Self {
        Self {
            label: label.to_string(),
            files: report.files.clone(),
            trials: report.rows.trials,
            by_domain: report.by_domain.clone(),
            overall: report.overall,
            rt_by_domain: human.map(rt_by_domain),
        }
    }
}

/// Reaction times per domain over all answered stages (median, mean, n).
pub fn rt_by_domain(data: &HumanData) -> BTreeMap<String, ReactionTime> {
    let mut by: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    for row in &data.rows {
        if let Some(d) = domain_of(&row.subdomain) {
            by.entry(d).or_default().push(row.rt_ms);
        }
    }
    by.into_iter()
        .filter_map(|(d, v)| Some((d.to_string(), ReactionTime::of(&v)?)))
        .collect()
}

/// The bundled comparison figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Baselines {
    /// What the figures are and where they come from.
    pub note: String,
    /// Per variant (`KiVA`, `KiVA-adults`): adults (when there are human data) and models.
    pub variants: BTreeMap<String, VariantBaselines>,
}

/// The figures of one variant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VariantBaselines {
    /// Adults, when human data exist for the variant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adults: Option<GroupBaseline>,
    /// Model runs.
    pub models: Vec<GroupBaseline>,
}

impl Baselines {
    /// Assembles the figures of each variant.
    pub fn build(note: &str, variants: Vec<(Variant, VariantBaselines)>) -> Self {
        Self {
            note: note.to_string(),
            variants: variants
                .into_iter()
                .map(|(v, b)| (v.name().to_string(), b))
                .collect(),
        }
    }

    /// The figures for a variant.
    pub fn variant(&self, variant: Variant) -> Option<&VariantBaselines> {
        self.variants.get(variant.name())
    }

    /// The bundled file (in `data/`) that holds a variant's figures.
    pub fn file_name(variant: Variant) -> &'static str {
        match variant {
            Variant::Kiva => "kiva-baselines.json",
            Variant::KivaAdults => "kiva-adults-baselines.json",
        }
    }

    /// These figures with one variant's only (the others left out): a bundled file's content.
    pub fn only(&self, variant: Variant) -> Self {
        Self {
            note: self.note.clone(),
            variants: self
                .variants
                .iter()
                .filter(|(name, _)| name.as_str() == variant.name())
                .map(|(name, b)| (name.clone(), b.clone()))
                .collect(),
        }
    }
}

/// A readable label for a model-run folder (`gpt4_multi_image` → `GPT-4V (multi-image)`).
pub fn model_label(run: &str) -> String {
    let (model, setting) = run.split_once('_').unwrap_or((run, ""));
    let model = match model {
        "gpt4" => "GPT-4V".to_string(),
        "mantis" => "MANTIS".to_string(),
        "llava" => "LLaVA-1.5".to_string(),
        m => m.to_string(),
    };
    if setting.is_empty() {
        model
    } else {
        format!("{model} ({})", setting.replace('_', "-"))
    }
}
