//! The model specification (JSON, compatible in spirit with GoldBench's):
//!
//! ```json
//! {"constructs": {"Image": ["IMAG1", "IMAG2"], "Quality": {"indicators": ["PERQ1", "PERQ2"], "mode": "B"}},
//!  "paths": [["Image", "Satisfaction"], ["Quality", "Satisfaction"]],
//!  "scheme": "path",
//!  "second_order": {"Overall": ["Image", "Quality"]},
//!  "human_column": "arena_elo",
//!  "thresholds": {"vif_max": 5.0, "loading_min": 0.75, "min_indicators": 2}}
//! ```
//!
//! A construct given as a list is Mode A. `scheme` is `path` (default), `factorial` or
//! `centroid`. `second_order` maps a higher-order construct to its lower-order constructs (a
//! list, Mode A, or `{"constructs": [..], "mode": "B"}`), estimated by the two-stage approach.
//! Optional extra keys: `max_iterations` (300) and `tolerance` (1e-7). Unknown keys are ignored.
//!
//! Validation here covers the spec alone (duplicates, unknown constructs in paths, cycles,
//! modes, thresholds); indicators are checked against the data by [`super::analyze`].

use super::engine::{Mode, Scheme};
use super::SemError;
use crate::location::{snippet, Location};
use serde::de::{Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Pruning thresholds of Algorithm 1 (seed 003): δ_VIF, λ_min and the minimum number of
/// indicators a construct keeps.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Thresholds {
    /// Remove indicators whose item VIF exceeds this (default 5).
    pub vif_max: f64,
    /// Remove indicators whose |outer loading| is below this (default 0.75).
    pub loading_min: f64,
    /// Never prune a construct below this many indicators (default 2).
    pub min_indicators: usize,
}

impl Default for Thresholds {
    fn default() -> Self {
        Self {
            vif_max: 5.0,
            loading_min: 0.75,
            min_indicators: 2,
        }
    }
}

/// One first-order construct (composite) and its indicators.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConstructSpec {
    /// Construct name.
    pub name: String,
    /// Indicator column names.
    pub indicators: Vec<String>,
    /// Mode A (correlation weights) or B (regression weights).
    pub mode: Mode,
}

/// A second-order construct built from first-order constructs (two-stage approach).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SecondOrderSpec {
    /// Name of the higher-order construct.
    pub name: String,
    /// Its lower-order constructs.
    pub constructs: Vec<String>,
    /// Mode of the stage-2 composite (default A).
    pub mode: Mode,
}

/// A validated model specification.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelSpec {
    /// First-order constructs in spec order.
    pub constructs: Vec<ConstructSpec>,
    /// Structural paths `(from, to)`; may name second-order constructs and the human column.
    pub paths: Vec<(String, String)>,
    /// Inner weighting scheme.
    pub scheme: Scheme,
    /// Second-order constructs.
    pub second_order: Vec<SecondOrderSpec>,
    /// Optional human column (e.g. an arena score) anchoring the top-level construct(s).
    pub human_column: Option<String>,
    /// Pruning thresholds.
    pub thresholds: Thresholds,
    /// Maximum number of outer-weight updates before non-convergence is an error.
    pub max_iterations: usize,
    /// Stop when the sum of |Δw| falls below this.
    pub tolerance: f64,
    /// The spec's file name, for error locations.
    pub file: String,
    /// The spec's text, to find the line of a name in error messages.
    #[serde(skip)]
    pub source: String,
}

/// Map entries in document order, duplicates kept (serde_json's map would drop them).
struct Entries<T>(Vec<(String, T)>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Entries<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Entries<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, T>()? {
                    out.push((k, v));
                }
                Ok(Entries(out))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawConstruct {
    List(Vec<String>),
    Full {
        indicators: Vec<String>,
        #[serde(default)]
        mode: Option<String>,
    },
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawHoc {
    List(Vec<String>),
    Full {
        constructs: Vec<String>,
        #[serde(default)]
        mode: Option<String>,
    },
}

#[derive(Deserialize, Default)]
struct RawThresholds {
    vif_max: Option<f64>,
    loading_min: Option<f64>,
    min_indicators: Option<usize>,
}

#[derive(Deserialize)]
struct RawSpec {
    constructs: Entries<RawConstruct>,
    #[serde(default)]
    paths: Vec<(String, String)>,
    #[serde(default)]
    scheme: Option<String>,
    #[serde(default)]
    second_order: Option<Entries<RawHoc>>,
    #[serde(default)]
    human_column: Option<String>,
    #[serde(default)]
    thresholds: Option<RawThresholds>,
    #[serde(default)]
    max_iterations: Option<usize>,
    #[serde(default)]
    tolerance: Option<f64>,
}

/// The keys a spec may use, by where they appear.
const TOP_KEYS: &[&str] = &[
    "constructs",
    "paths",
    "scheme",
    "second_order",
    "human_column",
    "thresholds",
    "max_iterations",
    "tolerance",
];
/// Keys of a construct given as an object.
const CONSTRUCT_KEYS: &[&str] = &["indicators", "mode"];
/// Keys of a second-order construct given as an object.
const HOC_KEYS: &[&str] = &["constructs", "mode"];
/// Keys of `thresholds`.
const THRESHOLD_KEYS: &[&str] = &["vif_max", "loading_min", "min_indicators"];

/// The known key nearest to `key` (optimal string alignment distance, so a swap of two
/// letters counts once), if it is close enough to be a likely misspelling.
pub(crate) fn nearest<'a>(key: &str, known: &[&'a str]) -> Option<&'a str> {
    let key = key.to_ascii_lowercase();
    known
        .iter()
        .map(|k| (strsim::osa_distance(&key, k), *k))
        .min()
        .filter(|(d, k)| *d <= 2.max(k.len() / 3))
        .map(|(_, k)| k)
}

/// 1-based line of the `nth` (0-based) occurrence of `"name"` in `text`, if any.
pub(crate) fn line_of(text: &str, name: &str, nth: usize) -> Option<usize> {
    let quoted = format!("\"{name}\"");
    let (pos, _) = text.match_indices(&quoted).nth(nth)?;
    Some(text[..pos].matches('\n').count() + 1)
}

/// Refuses keys a spec does not know (a misspelled `"shceme"` or `"mdoe"` used to be ignored,
/// so the default applied without a word), naming the nearest known key (issue 27, defect 9).
fn check_keys(text: &str, file: &str) -> Result<(), SemError> {
    use serde_json::Value;
    let Ok(Value::Object(top)) = serde_json::from_str::<Value>(text) else {
        return Ok(()); // the typed parse has already reported what is wrong
    };
    let check = |map: &serde_json::Map<String, Value>, known: &[&str], path: &str| {
        for key in map.keys() {
            if known.contains(&key.as_str()) {
                continue;
            }
            let field = if path.is_empty() {
                key.clone()
            } else {
                format!("{path}.{key}")
            };
            let hint = match nearest(key, known) {
                Some(k) => format!("did you mean \"{k}\"? "),
                None => String::new(),
            };
            let mut at = Location::file(file).in_field(field);
            if let Some(line) = line_of(text, key, 0) {
                at = at.at_line(line);
            }
            return Err(SemError::Spec {
                at,
                message: format!(
                    "unknown key {}; {hint}(known here: {})",
                    snippet(key),
                    known.join(", ")
                ),
            });
        }
        Ok(())
    };
    check(&top, TOP_KEYS, "")?;
    for (section, known) in [("constructs", CONSTRUCT_KEYS), ("second_order", HOC_KEYS)] {
        if let Some(Value::Object(items)) = top.get(section) {
            for (name, item) in items {
                if let Value::Object(fields) = item {
                    check(fields, known, &format!("{section}.{name}"))?;
                }
            }
        }
    }
    if let Some(Value::Object(t)) = top.get("thresholds") {
        check(t, THRESHOLD_KEYS, "thresholds")?;
    }
    Ok(())
}

impl ModelSpec {
    /// The location of a name in the spec (its `nth` occurrence), with a field path.
    pub(crate) fn at(&self, name: &str, nth: usize, field: &str) -> Location {
        let loc = Location::file(&self.file).in_field(field);
        match line_of(&self.source, name, nth) {
            Some(line) => loc.at_line(line),
            None => loc,
        }
    }

    fn err(&self, name: &str, nth: usize, field: &str, message: String) -> SemError {
        SemError::Spec {
            at: self.at(name, nth, field),
            message,
        }
    }

    /// Parses and validates a spec.
    ///
    /// # Errors
    /// [`SemError::Spec`] with the spec's file, line and field for malformed JSON, an empty
    /// or duplicated construct, an indicator listed twice, an unknown mode or scheme, a path
    /// naming an unknown construct, a self-loop, a duplicated path, a cycle, a bad
    /// second-order definition or a bad threshold.
    ///
    /// # Examples
    /// ```
    /// use coglab_core::sem::spec::ModelSpec;
    /// let s = ModelSpec::parse(r#"{"constructs": {"A": ["a1", "a2"], "B": ["b1"]},
    ///                              "paths": [["A", "B"]]}"#, "spec.json").unwrap();
    /// assert_eq!(s.constructs.len(), 2);
    /// let e = ModelSpec::parse(r#"{"constructs": {"A": ["a1"]}, "paths": [["A", "Z"]]}"#, "s.json");
    /// assert!(e.unwrap_err().to_string().contains("unknown construct \"Z\""));
    /// ```
    pub fn parse(text: &str, file: &str) -> Result<Self, SemError> {
        // A byte-order mark (editors on Windows write one) is not part of the JSON.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let raw: RawSpec = serde_json::from_str(text).map_err(|e| SemError::Spec {
            at: Location::file(file).at_line(e.line().max(1)),
            message: format!("expected a model spec {{\"constructs\", \"paths\", ...}}: {e}"),
        })?;
        check_keys(text, file)?;
        let mut spec = ModelSpec {
            constructs: Vec::new(),
            paths: raw.paths,
            scheme: Scheme::Path,
            second_order: Vec::new(),
            human_column: raw.human_column,
            thresholds: Thresholds::default(),
            max_iterations: raw.max_iterations.unwrap_or(300),
            tolerance: raw.tolerance.unwrap_or(1e-7),
            file: file.to_string(),
            source: text.to_string(),
        };
        if let Some(s) = &raw.scheme {
            spec.scheme = match s.to_ascii_lowercase().as_str() {
                "path" => Scheme::Path,
                "factorial" => Scheme::Factorial,
                "centroid" => Scheme::Centroid,
                _ => {
                    return Err(spec.err(
                        s,
                        0,
                        "scheme",
                        format!(
                            "expected \"path\", \"factorial\" or \"centroid\", found {}",
                            snippet(s)
                        ),
                    ))
                }
            };
        }
        let mode_of =
            |spec: &ModelSpec, m: &Option<String>, field: &str| -> Result<Mode, SemError> {
                match m.as_deref().map(str::to_ascii_uppercase).as_deref() {
                    None | Some("A") => Ok(Mode::A),
                    Some("B") => Ok(Mode::B),
                    Some(_) => {
                        let found = m.clone().unwrap_or_default();
                        Err(spec.err(
                            &found,
                            0,
                            field,
                            format!("expected mode \"A\" or \"B\", found {}", snippet(&found)),
                        ))
                    }
                }
            };
        if raw.constructs.0.is_empty() {
            return Err(SemError::Spec {
                at: Location::file(file).in_field("constructs"),
                message: "expected at least one construct, found none".into(),
            });
        }
        for (name, rc) in raw.constructs.0 {
            let field = format!("constructs.{name}");
            // An empty name was accepted and then named nothing in paths or reports (issue 37).
            if name.trim().is_empty() {
                return Err(spec.err(
                    &name,
                    0,
                    "constructs",
                    format!("expected a construct name, found {}", snippet(&name)),
                ));
            }
            if let Some(k) = spec.constructs.iter().position(|c| c.name == name) {
                let _ = k;
                return Err(spec.err(
                    &name,
                    1,
                    &field,
                    format!("construct {} is defined twice", snippet(&name)),
                ));
            }
            let (indicators, mode) = match rc {
                RawConstruct::List(v) => (v, Mode::A),
                RawConstruct::Full { indicators, mode } => {
                    let m = mode_of(&spec, &mode, &format!("{field}.mode"))?;
                    (indicators, m)
                }
            };
            if indicators.is_empty() {
                return Err(spec.err(
                    &name,
                    0,
                    &field,
                    "expected at least one indicator, found none".into(),
                ));
            }
            for (k, ind) in indicators.iter().enumerate() {
                if ind.trim().is_empty() {
                    return Err(spec.err(
                        &name,
                        0,
                        &field,
                        format!(
                            "indicator {} of {}: expected a column name, found {}",
                            k + 1,
                            snippet(&name),
                            snippet(ind)
                        ),
                    ));
                }
                let earlier = spec
                    .constructs
                    .iter()
                    .find(|c| c.indicators.contains(ind))
                    .map(|c| c.name.clone())
                    .or_else(|| indicators[..k].contains(ind).then(|| name.clone()));
                if let Some(other) = earlier {
                    return Err(spec.err(
                        ind,
                        1,
                        &field,
                        format!(
                            "indicator {} is listed twice (already in {})",
                            snippet(ind),
                            snippet(&other)
                        ),
                    ));
                }
            }
            spec.constructs.push(ConstructSpec {
                name,
                indicators,
                mode,
            });
        }
        if let Some(hocs) = raw.second_order {
            for (name, rh) in hocs.0 {
                let field = format!("second_order.{name}");
                if name.trim().is_empty() {
                    return Err(spec.err(
                        &name,
                        0,
                        "second_order",
                        format!("expected a construct name, found {}", snippet(&name)),
                    ));
                }
                let (constructs, mode) = match rh {
                    RawHoc::List(v) => (v, Mode::A),
                    RawHoc::Full { constructs, mode } => {
                        let m = mode_of(&spec, &mode, &format!("{field}.mode"))?;
                        (constructs, m)
                    }
                };
                if spec.constructs.iter().any(|c| c.name == name)
                    || spec.second_order.iter().any(|h| h.name == name)
                {
                    return Err(spec.err(
                        &name,
                        1,
                        &field,
                        format!("construct {} is defined twice", snippet(&name)),
                    ));
                }
                if constructs.is_empty() {
                    return Err(spec.err(
                        &name,
                        0,
                        &field,
                        "expected at least one lower-order construct, found none".into(),
                    ));
                }
                for (k, loc) in constructs.iter().enumerate() {
                    if !spec.constructs.iter().any(|c| &c.name == loc) {
                        return Err(spec.err(
                            loc,
                            0,
                            &field,
                            format!("unknown construct {} (second-order constructs are built from first-order constructs)", snippet(loc)),
                        ));
                    }
                    let twice = constructs[..k].contains(loc)
                        || spec.second_order.iter().any(|h| h.constructs.contains(loc));
                    if twice {
                        return Err(spec.err(
                            loc,
                            0,
                            &field,
                            format!(
                                "construct {} belongs to two second-order constructs",
                                snippet(loc)
                            ),
                        ));
                    }
                }
                spec.second_order.push(SecondOrderSpec {
                    name,
                    constructs,
                    mode,
                });
            }
        }
        if let Some(t) = raw.thresholds {
            let d = Thresholds::default();
            spec.thresholds = Thresholds {
                vif_max: t.vif_max.unwrap_or(d.vif_max),
                loading_min: t.loading_min.unwrap_or(d.loading_min),
                min_indicators: t.min_indicators.unwrap_or(d.min_indicators),
            };
            let th = spec.thresholds;
            if !(th.vif_max.is_finite() && th.vif_max >= 1.0) {
                return Err(spec.err(
                    "vif_max",
                    0,
                    "thresholds.vif_max",
                    format!("expected a number >= 1, found {}", th.vif_max),
                ));
            }
            if !(th.loading_min.is_finite() && (0.0..=1.0).contains(&th.loading_min)) {
                return Err(spec.err(
                    "loading_min",
                    0,
                    "thresholds.loading_min",
                    format!("expected a number in [0, 1], found {}", th.loading_min),
                ));
            }
            if th.min_indicators == 0 {
                return Err(spec.err(
                    "min_indicators",
                    0,
                    "thresholds.min_indicators",
                    "expected at least 1, found 0".into(),
                ));
            }
        }
        if spec.max_iterations == 0 {
            return Err(spec.err(
                "max_iterations",
                0,
                "max_iterations",
                "expected at least 1, found 0".into(),
            ));
        }
        if !(spec.tolerance.is_finite() && spec.tolerance > 0.0) {
            return Err(spec.err(
                "tolerance",
                0,
                "tolerance",
                format!("expected a positive number, found {}", spec.tolerance),
            ));
        }
        spec.validate_paths()?;
        Ok(spec)
    }

    /// All construct names the structural model may use: first-order, second-order and the
    /// human anchor (when it is not itself an indicator).
    pub fn structural_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.constructs.iter().map(|c| c.name.clone()).collect();
        names.extend(self.second_order.iter().map(|h| h.name.clone()));
        if let Some(h) = self.human_anchor() {
            names.push(h.to_string());
        }
        names
    }

    /// The human column when it anchors the structure as a single-indicator construct (i.e.
    /// it is not already an indicator of a construct).
    pub fn human_anchor(&self) -> Option<&str> {
        let h = self.human_column.as_deref()?;
        let is_indicator = self
            .constructs
            .iter()
            .any(|c| c.indicators.iter().any(|i| i == h));
        (!is_indicator).then_some(h)
    }

    /// Whether a construct is a lower-order construct of some second-order construct.
    pub fn is_lower_order(&self, name: &str) -> bool {
        self.second_order
            .iter()
            .any(|h| h.constructs.iter().any(|c| c == name))
    }

    fn validate_paths(&self) -> Result<(), SemError> {
        let names = self.structural_names();
        if let Some(h) = self.human_anchor() {
            if self.constructs.iter().any(|c| c.name == h)
                || self.second_order.iter().any(|c| c.name == h)
            {
                return Err(self.err(
                    h,
                    0,
                    "human_column",
                    format!("human column {} has the name of a construct", snippet(h)),
                ));
            }
        }
        for (k, (from, to)) in self.paths.iter().enumerate() {
            let field = format!("paths[{k}]");
            for end in [from, to] {
                if !names.contains(end) {
                    return Err(self.err(
                        end,
                        0,
                        &field,
                        format!(
                            "unknown construct {} (known: {})",
                            snippet(end),
                            names.join(", ")
                        ),
                    ));
                }
                if self.is_lower_order(end) {
                    return Err(self.err(
                        end,
                        0,
                        &field,
                        format!("{} is a lower-order construct of a second-order construct; draw the path from or to the second-order construct", snippet(end)),
                    ));
                }
            }
            if from == to {
                return Err(self.err(
                    from,
                    0,
                    &field,
                    format!("path from {} to itself", snippet(from)),
                ));
            }
            if self.paths[..k].iter().any(|p| p == &self.paths[k]) {
                return Err(self.err(
                    from,
                    0,
                    &field,
                    format!("path {from} -> {to} is listed twice"),
                ));
            }
        }
        // Cycle check by repeatedly removing constructs without incoming paths.
        let mut indeg: Vec<usize> = names
            .iter()
            .map(|n| self.paths.iter().filter(|(_, t)| t == n).count())
            .collect();
        let mut done = vec![false; names.len()];
        while let Some(i) = (0..names.len()).find(|&i| !done[i] && indeg[i] == 0) {
            done[i] = true;
            for (f, t) in &self.paths {
                if *f == names[i] {
                    if let Some(j) = names.iter().position(|n| n == t) {
                        indeg[j] -= 1;
                    }
                }
            }
        }
        if let Some(i) = (0..names.len()).find(|&i| !done[i]) {
            return Err(self.err(
                &names[i],
                0,
                "paths",
                format!(
                    "the structural model has a cycle through {}",
                    snippet(&names[i])
                ),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_example_from_the_issue() {
        let s = ModelSpec::parse(
            r#"{"constructs": {"Image": ["IMAG1", "IMAG2"], "Quality": {"indicators": ["PERQ1", "PERQ2"], "mode": "B"},
                "Satisfaction": ["CUSA1"]},
              "paths": [["Overall", "Satisfaction"]],
              "scheme": "centroid",
              "second_order": {"Overall": ["Image", "Quality"]},
              "human_column": "arena_elo",
              "thresholds": {"vif_max": 5.0, "loading_min": 0.75, "min_indicators": 2}}"#,
            "spec.json",
        )
        .unwrap();
        assert_eq!(s.constructs[1].mode, Mode::B);
        assert_eq!(s.scheme, Scheme::Centroid);
        assert_eq!(s.second_order[0].constructs, vec!["Image", "Quality"]);
        assert_eq!(s.human_anchor(), Some("arena_elo"));
        assert_eq!(s.thresholds.min_indicators, 2);
    }

    #[test]
    fn located_spec_errors() {
        let dup = "{\"constructs\": {\n \"A\": [\"a1\"],\n \"A\": [\"a2\"]}}";
        let e = ModelSpec::parse(dup, "s.json").unwrap_err().to_string();
        assert_eq!(
            e,
            "s.json line 3: field \"constructs.A\": construct \"A\" is defined twice"
        );
        let dup_ind = "{\"constructs\": {\n \"A\": [\"a1\"],\n \"B\": [\"b1\", \"a1\"]}}";
        let e = ModelSpec::parse(dup_ind, "s.json").unwrap_err().to_string();
        assert_eq!(e, "s.json line 3: field \"constructs.B\": indicator \"a1\" is listed twice (already in \"A\")");
        let cyc = r#"{"constructs": {"A": ["a"], "B": ["b"]}, "paths": [["A", "B"], ["B", "A"]]}"#;
        assert!(ModelSpec::parse(cyc, "s.json")
            .unwrap_err()
            .to_string()
            .contains("cycle"));
        let mode = r#"{"constructs": {"A": {"indicators": ["a"], "mode": "C"}}}"#;
        assert!(ModelSpec::parse(mode, "s.json")
            .unwrap_err()
            .to_string()
            .contains("expected mode \"A\" or \"B\", found \"C\""));
        let scheme = r#"{"constructs": {"A": ["a"]}, "scheme": "magic"}"#;
        assert!(ModelSpec::parse(scheme, "s.json")
            .unwrap_err()
            .to_string()
            .contains("found \"magic\""));
        let loc_path = r#"{"constructs": {"A": ["a"], "B": ["b"]}, "second_order": {"H": ["A"]}, "paths": [["A", "B"]]}"#;
        assert!(ModelSpec::parse(loc_path, "s.json")
            .unwrap_err()
            .to_string()
            .contains("lower-order construct"));
        let bad_json = "{\"constructs\": [1, 2]}";
        assert!(ModelSpec::parse(bad_json, "s.json")
            .unwrap_err()
            .to_string()
            .starts_with("s.json line 1"));
    }
}
