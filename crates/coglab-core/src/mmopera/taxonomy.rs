//! MM-OPERA's hierarchical ability taxonomy (paper appendix A.2, Table 4): 2 L-1 levels,
//! 6 L-2 dimensions and 13 L-3 labels.

use serde::{Deserialize, Serialize};

/// Level-1 ability: perception or conception.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum L1 {
    /// Immediate sensory input.
    Perception,
    /// Abstract, knowledge-driven association.
    Conception,
}

impl L1 {
    /// The name used in reports: `Perception` or `Conception`.
    pub fn name(self) -> &'static str {
        match self {
            L1::Perception => "Perception",
            L1::Conception => "Conception",
        }
    }
}

/// Level-2 ability dimension, named as in the released statistics scripts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum L2 {
    /// Recognition (perception).
    Recognition,
    /// Context (perception).
    Context,
    /// Interaction (perception).
    Interaction,
    /// Logic (conception).
    Logic,
    /// Semantic (conception).
    Semantic,
    /// Reasoning (conception).
    Reasoning,
}

impl L2 {
    /// The name used in reports (`recognition`, `context`, ...), as in the released code.
    pub fn name(self) -> &'static str {
        match self {
            L2::Recognition => "recognition",
            L2::Context => "context",
            L2::Interaction => "interaction",
            L2::Logic => "logic",
            L2::Semantic => "semantic",
            L2::Reasoning => "reasoning",
        }
    }

    /// The L-1 level this dimension belongs to.
    pub fn l1(self) -> L1 {
        match self {
            L2::Recognition | L2::Context | L2::Interaction => L1::Perception,
            L2::Logic | L2::Semantic | L2::Reasoning => L1::Conception,
        }
    }
}

/// Level-3 ability label (13 labels).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[allow(missing_docs)]
pub enum L3 {
    #[serde(rename = "Visual Similarity")]
    VisualSimilarity,
    #[serde(rename = "Semantic Object")]
    SemanticObject,
    #[serde(rename = "Contextual Sensory Cues")]
    ContextualSensoryCues,
    #[serde(rename = "Scene Contextualization")]
    SceneContextualization,
    #[serde(rename = "Abstract Interpretation")]
    AbstractInterpretation,
    #[serde(rename = "Social Insight")]
    SocialInsight,
    #[serde(rename = "Relational Perception")]
    RelationalPerception,
    #[serde(rename = "Functional Links")]
    FunctionalLinks,
    #[serde(rename = "Causal Connections")]
    CausalConnections,
    #[serde(rename = "Thematic Links")]
    ThematicLinks,
    #[serde(rename = "Cultural Reference")]
    CulturalReference,
    #[serde(rename = "Hierarchical Association")]
    HierarchicalAssociation,
    #[serde(rename = "Analogical Reasoning")]
    AnalogicalReasoning,
}

impl L3 {
    /// All 13 labels, perception first, in Table 4's order.
    pub const ALL: [L3; 13] = [
        L3::VisualSimilarity,
        L3::SemanticObject,
        L3::ContextualSensoryCues,
        L3::SceneContextualization,
        L3::AbstractInterpretation,
        L3::SocialInsight,
        L3::RelationalPerception,
        L3::FunctionalLinks,
        L3::CausalConnections,
        L3::ThematicLinks,
        L3::CulturalReference,
        L3::HierarchicalAssociation,
        L3::AnalogicalReasoning,
    ];

    /// The label as written in the dataset, e.g. `Visual Similarity`.
    pub fn name(self) -> &'static str {
        match self {
            L3::VisualSimilarity => "Visual Similarity",
            L3::SemanticObject => "Semantic Object",
            L3::ContextualSensoryCues => "Contextual Sensory Cues",
            L3::SceneContextualization => "Scene Contextualization",
            L3::AbstractInterpretation => "Abstract Interpretation",
            L3::SocialInsight => "Social Insight",
            L3::RelationalPerception => "Relational Perception",
            L3::FunctionalLinks => "Functional Links",
            L3::CausalConnections => "Causal Connections",
            L3::ThematicLinks => "Thematic Links",
            L3::CulturalReference => "Cultural Reference",
            L3::HierarchicalAssociation => "Hierarchical Association",
            L3::AnalogicalReasoning => "Analogical Reasoning",
        }
    }

    /// The L-2 dimension of this label (recognition = {Visual Similarity, Semantic Object}, ...).
    ///
    /// # Examples
    /// ```
    /// use coglab_core::mmopera::taxonomy::{L1, L2, L3};
    /// assert_eq!(L3::SocialInsight.l2(), L2::Interaction);
    /// assert_eq!(L3::CulturalReference.l2().l1(), L1::Conception);
    /// ```
    pub fn l2(self) -> L2 {
        match self {
            L3::VisualSimilarity | L3::SemanticObject => L2::Recognition,
            L3::ContextualSensoryCues | L3::SceneContextualization | L3::AbstractInterpretation => {
                L2::Context
            }
            L3::SocialInsight | L3::RelationalPerception => L2::Interaction,
            L3::FunctionalLinks | L3::CausalConnections => L2::Logic,
            L3::ThematicLinks | L3::CulturalReference => L2::Semantic,
            L3::HierarchicalAssociation | L3::AnalogicalReasoning => L2::Reasoning,
        }
    }

    /// The label with this exact name, ignoring case and surrounding blanks.
    pub fn from_name(name: &str) -> Option<L3> {
        let name = name.trim();
        L3::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(name))
    }
}

/// Every L-3 label whose name occurs in `text` (case-insensitive substring search, as the
/// released script's `"Visual Similarity" in perception`), in [`L3::ALL`] order, each once.
///
/// # Examples
/// ```
/// use coglab_core::mmopera::taxonomy::{find_labels, L3};
/// let found = find_labels("['Social Insight', 'visual similarity']");
/// assert_eq!(found, vec![L3::VisualSimilarity, L3::SocialInsight]);
/// ```
pub fn find_labels(text: &str) -> Vec<L3> {
    // The names of L3::ALL, lower-cased once.
    const LOWER: [&str; 13] = [
        "visual similarity",
        "semantic object",
        "contextual sensory cues",
        "scene contextualization",
        "abstract interpretation",
        "social insight",
        "relational perception",
        "functional links",
        "causal connections",
        "thematic links",
        "cultural reference",
        "hierarchical association",
        "analogical reasoning",
    ];
    let lower = text.to_ascii_lowercase();
    L3::ALL
        .into_iter()
        .zip(LOWER)
        .filter(|(_, name)| lower.contains(name))
        .map(|(l, _)| l)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mapping_matches_the_issue_and_table_4() {
        use L2::*;
        let expected = [
            Recognition,
            Recognition,
            Context,
            Context,
            Context,
            Interaction,
            Interaction,
            Logic,
            Logic,
            Semantic,
            Semantic,
            Reasoning,
            Reasoning,
        ];
        for (label, l2) in L3::ALL.into_iter().zip(expected) {
            assert_eq!(label.l2(), l2, "{}", label.name());
        }
        let perception = L3::ALL
            .iter()
            .filter(|l| l.l2().l1() == L1::Perception)
            .count();
        assert_eq!(perception, 7);
    }

    #[test]
    fn names_round_trip_and_serialize_as_written() {
        for label in L3::ALL {
            assert_eq!(L3::from_name(&label.name().to_uppercase()), Some(label));
            assert_eq!(
                serde_json::to_string(&label).unwrap(),
                format!("\"{}\"", label.name())
            );
        }
        assert_eq!(serde_json::to_string(&L2::Logic).unwrap(), "\"logic\"");
        assert_eq!(L3::from_name("Telepathy"), None);
    }
}
