//! Self-test trials built from KiVA's own images instead of the generated drawings.
//!
//! The KiVA repository keeps its stimuli as `transformed objects/KiVA/<Domain>/
//! <Subdomain>_<variation>_<role>.png` with five roles per variation: `train_0_input` and
//! `train_0_output` (the given change), `test_0_input` (the new object, also the "no change"
//! option), `test_mc_0_input` (the new object changed by the rule: the right option) and
//! `test_mc_1_input` (changed by a wrong value of the same domain). Its trial files
//! `trial_tracker/KiVA/output_<Subdomain>.txt` give the values of each variation in four lines
//! (`train_0_input`, `train_0_output`, `test_input`, `mc`); `mc` is the wrong option's value,
//! which is also the wrong stage-2 rule (`ColourRed`, mc `Green` → "Objects turn Green"),
//! except in Counting where the repository offers the opposite sign with the same value.
//!
//! [`scan`] reads a folder listing (paths only: nothing is read from the images),
//! [`parse_tracker`] one trial file, and [`build_session`] a 14-trial KiVA session (one
//! variation per subdomain, chosen by the seed) with the same three-stage options as the
//! generated trials.

use super::{
    cross_options, within_options, Picture, Rule, Session, SessionKind, TestOption, Trial,
    TrialImages,
};
use crate::kiva::{domain_of, Variant, KIVA_SUBDOMAINS};
use crate::location::{snippet, Location};
use crate::stats::rng::Rng;
use std::collections::BTreeMap;

/// The five images of a variation, in the order of [`ImageSet`]'s fields.
pub const ROLES: [&str; 5] = [
    "train_0_input",
    "train_0_output",
    "test_0_input",
    "test_mc_0_input",
    "test_mc_1_input",
];

/// The paths (as given in the listing) of one variation's five images.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ImageSet {
    /// Given change, before.
    pub train_input: String,
    /// Given change, after.
    pub train_output: String,
    /// The new object unchanged (the "no change" option).
    pub test_input: String,
    /// The new object changed by the rule (the right option).
    pub correct: String,
    /// The new object changed by a wrong value of the domain.
    pub wrong: String,
}

impl ImageSet {
    fn slot(&mut self, role: usize) -> &mut String {
        match role {
            0 => &mut self.train_input,
            1 => &mut self.train_output,
            2 => &mut self.test_input,
            3 => &mut self.correct,
            _ => &mut self.wrong,
        }
    }

    /// The roles still missing.
    pub fn missing(&self) -> Vec<&'static str> {
        [
            &self.train_input,
            &self.train_output,
            &self.test_input,
            &self.correct,
            &self.wrong,
        ]
        .iter()
        .zip(ROLES)
        .filter(|(p, _)| p.is_empty())
        .map(|(_, r)| r)
        .collect()
    }
}

/// The KiVA images found in a folder listing: per subdomain, per variation number.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StimulusSet {
    /// Subdomain → variation → images (complete or not).
    pub images: BTreeMap<String, BTreeMap<u32, ImageSet>>,
}

impl StimulusSet {
    /// The variations of a subdomain with all five images, ascending.
    pub fn complete(&self, subdomain: &str) -> Vec<u32> {
        self.images
            .get(subdomain)
            .map(|m| {
                m.iter()
                    .filter(|(_, s)| s.missing().is_empty())
                    .map(|(v, _)| *v)
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// One variation of a trial file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrackerEntry {
    /// The given object's value before the change.
    pub train_input: String,
    /// Its value after.
    pub train_output: String,
    /// The new object's value.
    pub test_input: String,
    /// The wrong option's value.
    pub mc: String,
    /// 1-based line of the `mc` line (for error messages).
    pub mc_line: usize,
}

/// Why a folder of KiVA images or a trial file cannot be used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum StimuliError {
    /// None of the files is a KiVA stimulus image.
    #[error(
        "none of the {files} picked files is a KiVA stimulus image: expected \
         <Domain>/<Subdomain>_<variation>_<role>.png (roles {}), as in the repository's \
         `transformed objects/KiVA` folder",
        ROLES.join(", ")
    )]
    NoImages {
        /// How many files were picked.
        files: usize,
    },
    /// An image lies in another domain's folder.
    #[error("{path}: a {subdomain} image must be in a folder named {domain}, not {folder:?}")]
    WrongFolder {
        /// The image's path.
        path: String,
        /// Its subdomain.
        subdomain: String,
        /// The folder it should be in.
        domain: String,
        /// The folder it is in.
        folder: String,
    },
    /// Subdomains without one complete variation.
    #[error(
        "no complete variation (all five images {}) of {}{}",
        ROLES.join(", "),
        .missing.join(", "),
        .example.as_ref().map(|e| format!("; e.g. {e}")).unwrap_or_default()
    )]
    MissingSubdomains {
        /// The subdomains.
        missing: Vec<String>,
        /// One incomplete variation and what it lacks, when there is one.
        example: Option<String>,
    },
    /// A trial file's name is not `output_<Subdomain>.txt` of a KiVA subdomain.
    #[error("{file}: expected a KiVA trial file named output_<Subdomain>.txt (one of {})", KIVA_SUBDOMAINS.join(", "))]
    TrackerName {
        /// File name.
        file: String,
    },
    /// A trial file line is not what was expected.
    #[error("{location}: expected {expected}, found {found}")]
    TrackerLine {
        /// File and line.
        location: Location,
        /// What was expected.
        expected: String,
        /// What was found (snippet).
        found: String,
    },
    /// No trial file for a subdomain, or too few variations in it.
    #[error("no trial values for {subdomain} variation {variation}: {reason}")]
    NoTrackerEntry {
        /// Subdomain.
        subdomain: String,
        /// Variation number of the images.
        variation: u32,
        /// Why (file absent, too short).
        reason: String,
    },
}

fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

fn parent_name(path: &str) -> &str {
    let mut parts = path.rsplit(['/', '\\']);
    parts.next();
    parts.next().unwrap_or("")
}

/// Splits `<Subdomain>_<variation>_<role>.png` into its parts; `None` for other names.
pub fn parse_image_name(name: &str) -> Option<(&str, u32, usize)> {
    let stem = name
        .strip_suffix(".png")
        .or_else(|| name.strip_suffix(".PNG"))?;
    let (role, rest) = ROLES.iter().enumerate().find_map(|(i, r)| {
        stem.strip_suffix(r)
            .and_then(|s| s.strip_suffix('_'))
            .map(|s| (i, s))
    })?;
    let (sub, v) = rest.rsplit_once('_')?;
    let v: u32 = v.parse().ok()?;
    KIVA_SUBDOMAINS.contains(&sub).then_some((sub, v, role))
}

/// Reads a folder listing (relative paths, `/` or `\` separated) and collects the KiVA images
/// by subdomain and variation; other files are ignored.
///
/// # Errors
/// [`StimuliError::NoImages`] when no file is a KiVA image; [`StimuliError::WrongFolder`] when
/// an image lies outside its domain's folder.
///
/// # Examples
/// ```
/// use coglab_core::selftest::stimuli::scan;
/// let set = scan(&["KiVA/Colour/ColourRed_3_train_0_input.png", "KiVA/notes.txt"]).unwrap();
/// assert_eq!(set.images["ColourRed"][&3].train_input, "KiVA/Colour/ColourRed_3_train_0_input.png");
/// assert!(scan(&["a/b.txt"]).is_err());
/// ```
pub fn scan<S: AsRef<str>>(paths: &[S]) -> Result<StimulusSet, StimuliError> {
    let mut set = StimulusSet::default();
    for p in paths {
        let path = p.as_ref();
        let Some((sub, v, role)) = parse_image_name(file_name(path)) else {
            continue;
        };
        let domain = domain_of(sub).unwrap_or_default();
        let folder = parent_name(path);
        if folder != domain {
            return Err(StimuliError::WrongFolder {
                path: path.to_string(),
                subdomain: sub.to_string(),
                domain: domain.to_string(),
                folder: folder.to_string(),
            });
        }
        *set.images
            .entry(sub.to_string())
            .or_default()
            .entry(v)
            .or_default()
            .slot(role) = path.to_string();
    }
    if set.images.is_empty() {
        return Err(StimuliError::NoImages { files: paths.len() });
    }
    Ok(set)
}

/// The subdomain a trial file is for (`.../output_ColourRed.txt` → `ColourRed`); `None` when
/// the name is not one of a KiVA subdomain.
pub fn tracker_subdomain(path: &str) -> Option<&'static str> {
    let name = file_name(path);
    let sub = name.strip_prefix("output_")?.strip_suffix(".txt")?;
    KIVA_SUBDOMAINS.iter().copied().find(|s| *s == sub)
}

/// Reads one trial file (`output_<Subdomain>.txt`): four lines per variation.
///
/// # Errors
/// [`StimuliError::TrackerName`] for another file name; [`StimuliError::TrackerLine`] with
/// the file and line of the first line that is not `<key>: <value>` with the expected key.
///
/// # Examples
/// ```
/// use coglab_core::selftest::stimuli::parse_tracker;
/// let text = "train_0_input: 0\ntrain_0_output: Red\ntest_input: 0\nmc: Green\n";
/// let (sub, entries) = parse_tracker("output_ColourRed.txt", text).unwrap();
/// assert_eq!((sub, entries[0].mc.as_str()), ("ColourRed", "Green"));
/// let err = parse_tracker("output_ColourRed.txt", "train_0_input: 0\nmc: 1\n").unwrap_err();
/// assert!(err.to_string().starts_with("output_ColourRed.txt line 2: expected \"train_0_output"));
/// ```
pub fn parse_tracker(
    file: &str,
    text: &str,
) -> Result<(&'static str, Vec<TrackerEntry>), StimuliError> {
    const KEYS: [&str; 4] = ["train_0_input", "train_0_output", "test_input", "mc"];
    let sub = tracker_subdomain(file).ok_or_else(|| StimuliError::TrackerName {
        file: file.to_string(),
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut values: Vec<String> = Vec::with_capacity(4);
    let mut out = Vec::new();
    let mut last = 0;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() {
            continue;
        }
        let key = KEYS[values.len()];
        let value = line
            .strip_prefix(key)
            .and_then(|r| r.strip_prefix(':'))
            .map(str::trim)
            .filter(|v| !v.is_empty());
        let Some(value) = value else {
            return Err(StimuliError::TrackerLine {
                location: Location::file(file).at_line(i + 1),
                expected: format!("\"{key}: <value>\""),
                found: snippet(line),
            });
        };
        values.push(value.to_string());
        last = i + 1;
        if values.len() == 4 {
            let v = std::mem::take(&mut values);
            let [a, b, c, d]: [String; 4] = v.try_into().unwrap_or_default();
            out.push(TrackerEntry {
                train_input: a,
                train_output: b,
                test_input: c,
                mc: d,
                mc_line: i + 1,
            });
        }
    }
    if !values.is_empty() || out.is_empty() {
        return Err(StimuliError::TrackerLine {
            location: Location::file(file).at_line(last + 1),
            expected: format!("\"{}: <value>\"", KEYS[values.len()]),
            found: "the end of the file".into(),
        });
    }
    Ok((sub, out))
}

/// The wrong stage-2 rule of a trial: the `mc` value's rule of the same domain, or in
/// Counting the opposite sign with the same value (the repository's wording).
///
/// # Errors
/// [`StimuliError::TrackerLine`] when `mc` names no other rule of the domain.
pub fn wrong_rule(
    subdomain: &str,
    entry: &TrackerEntry,
    file: &str,
) -> Result<&'static str, StimuliError> {
    let domain = domain_of(subdomain).unwrap_or_default();
    let want = if domain == "Counting" {
        let v = &subdomain[domain.len()..];
        let flipped = match v.as_bytes().first() {
            Some(b'+') => format!("-{}", &v[1..]),
            _ => format!("+{}", v.trim_start_matches('-')),
        };
        format!("{domain}{flipped}")
    } else {
        format!("{domain}{}", entry.mc)
    };
    KIVA_SUBDOMAINS
        .iter()
        .copied()
        .find(|s| *s == want && *s != subdomain)
        .ok_or_else(|| StimuliError::TrackerLine {
            location: Location::file(file).at_line(entry.mc_line),
            expected: format!("a wrong value of {domain} other than {subdomain}"),
            found: snippet(&entry.mc),
        })
}

fn placeholder() -> Picture {
    Picture {
        object: 0,
        colour: String::new(),
        scale_x: 1.0,
        scale_y: 1.0,
        rotation: 0,
        mirrored: false,
        count: 1,
    }
}

/// Builds a KiVA session (one trial per subdomain, 14, in a seeded order) from KiVA's images:
/// each trial uses one complete variation of its subdomain, chosen by the seed, with the
/// three-stage options of the generated trials; the export's Variation is the images'
/// variation number. `trackers` maps a subdomain to its trial file's name and entries.
///
/// # Errors
/// [`StimuliError::MissingSubdomains`] when a KiVA subdomain has no complete variation;
/// [`StimuliError::NoTrackerEntry`] when its trial file is absent or shorter than the
/// variation; [`StimuliError::TrackerLine`] when its `mc` is not a wrong value of the domain.
pub fn build_session(
    set: &StimulusSet,
    trackers: &BTreeMap<String, (String, Vec<TrackerEntry>)>,
    seed: u64,
) -> Result<Session, StimuliError> {
    let missing: Vec<String> = KIVA_SUBDOMAINS
        .iter()
        .filter(|s| set.complete(s).is_empty())
        .map(|s| s.to_string())
        .collect();
    if !missing.is_empty() {
        let example = missing.iter().find_map(|s| {
            let (v, imgs) = set.images.get(s)?.iter().next()?;
            Some(format!(
                "{s} variation {v} lacks {}",
                imgs.missing().join(", ")
            ))
        });
        return Err(StimuliError::MissingSubdomains { missing, example });
    }
    let mut rng = Rng::new(seed);
    let mut subs = KIVA_SUBDOMAINS.to_vec();
    rng.shuffle(&mut subs);
    let mut trials = Vec::with_capacity(subs.len());
    for sub in subs {
        let variations = set.complete(sub);
        let v = variations[rng.below(variations.len())];
        let imgs = &set.images[sub][&v];
        let (file, entries) = trackers
            .get(sub)
            .ok_or_else(|| StimuliError::NoTrackerEntry {
                subdomain: sub.to_string(),
                variation: v,
                reason: format!(
                    "pick its trial file output_{sub}.txt (trial_tracker/KiVA) with the images"
                ),
            })?;
        let entry = entries
            .get(v as usize)
            .ok_or_else(|| StimuliError::NoTrackerEntry {
                subdomain: sub.to_string(),
                variation: v,
                reason: format!(
                    "{file} has {} variations (0 to {})",
                    entries.len(),
                    entries.len().saturating_sub(1)
                ),
            })?;
        let wrong = wrong_rule(sub, entry, file)?;
        let domain = domain_of(sub).unwrap_or_default();
        // Both are KiVA subdomains (from KIVA_SUBDOMAINS), whose rules always parse.
        let rule = Rule::of(sub).unwrap_or(Rule::Colour("Red"));
        let wrong_rule = Rule::of(wrong).unwrap_or(Rule::Colour("Red"));
        let mut order = [TestOption::Correct, TestOption::Wrong, TestOption::NoChange];
        rng.shuffle(&mut order);
        let options = order
            .iter()
            .map(|k| match k {
                TestOption::Correct => imgs.correct.clone(),
                TestOption::Wrong => imgs.wrong.clone(),
                TestOption::NoChange => imgs.test_input.clone(),
            })
            .collect();
        let (cross, cross_correct) = cross_options(&mut rng, domain);
        let (within, within_correct) = within_options(
            &mut rng,
            rule.text(Variant::Kiva),
            wrong_rule.text(Variant::Kiva),
        );
        trials.push(Trial {
            subdomain: sub.to_string(),
            domain: domain.to_string(),
            variation: u64::from(v),
            train_input: placeholder(),
            train_output: placeholder(),
            test_input: placeholder(),
            test_options: vec![placeholder(); 3],
            test_kinds: order.to_vec(),
            test_wrong_subdomain: wrong.to_string(),
            cross_options: cross,
            cross_correct,
            within_options: within,
            within_correct,
            images: Some(TrialImages {
                train_input: imgs.train_input.clone(),
                train_output: imgs.train_output.clone(),
                test_input: imgs.test_input.clone(),
                test_options: options,
            }),
        });
    }
    Ok(Session {
        kind: SessionKind::Stimuli,
        seed,
        variant: Variant::Kiva,
        trials,
    })
}

/// [`scan`], [`parse_tracker`] on every `output_<Subdomain>.txt` among `texts` (file path,
/// text), then [`build_session`]: everything the page needs from one folder pick.
///
/// # Errors
/// As the three functions.
pub fn session_from_folder<S: AsRef<str>>(
    paths: &[S],
    texts: &[(String, String)],
    seed: u64,
) -> Result<Session, StimuliError> {
    let set = scan(paths)?;
    let mut trackers = BTreeMap::new();
    for (path, text) in texts {
        if tracker_subdomain(path).is_none() {
            continue;
        }
        let (sub, entries) = parse_tracker(path, text)?;
        trackers.insert(sub.to_string(), (file_name(path).to_string(), entries));
    }
    build_session(&set, &trackers, seed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing(variations: u32) -> Vec<String> {
        let mut out = Vec::new();
        for s in KIVA_SUBDOMAINS {
            let d = domain_of(s).unwrap();
            for v in 0..variations {
                for r in ROLES {
                    out.push(format!("transformed objects/KiVA/{d}/{s}_{v}_{r}.png"));
                }
            }
        }
        out
    }

    fn trackers() -> Vec<(String, String)> {
        KIVA_SUBDOMAINS
            .iter()
            .map(|s| {
                let mc = match domain_of(s).unwrap() {
                    "Colour" if *s == "ColourRed" => "Green",
                    "Colour" => "Red",
                    "2DRotation" if *s == "2DRotation180" => "+90",
                    "2DRotation" => "180",
                    "Reflect" if *s == "ReflectX" => "Y",
                    "Reflect" => "X",
                    "Resize" if *s == "Resize2XY" => "0.5XY",
                    "Resize" => "2XY",
                    _ => "3",
                };
                let block =
                    format!("train_0_input: 0\ntrain_0_output: x\ntest_input: 0\nmc: {mc}\n");
                (
                    format!("trial_tracker/KiVA/output_{s}.txt"),
                    block.repeat(3),
                )
            })
            .collect()
    }

    #[test]
    fn image_names() {
        assert_eq!(
            parse_image_name("2DRotation+90_7_test_mc_1_input.png"),
            Some(("2DRotation+90", 7, 4))
        );
        assert_eq!(parse_image_name("ColourRed_x_train_0_input.png"), None);
        assert_eq!(parse_image_name("ColourPink_1_train_0_input.png"), None);
        assert_eq!(parse_image_name("ColourRed_1_train_0_input.jpg"), None);
    }

    #[test]
    fn a_session_from_a_complete_listing() {
        let s = session_from_folder(&listing(2), &trackers(), 9).unwrap();
        assert_eq!(s.trials.len(), 14);
        for t in &s.trials {
            let imgs = t.images.as_ref().unwrap();
            let c = &imgs.test_options[t.test_correct()];
            assert!(c.ends_with(&format!(
                "{}_{}_test_mc_0_input.png",
                t.subdomain, t.variation
            )));
            assert!(t.variation < 2);
            assert_eq!(t.cross_options.len(), 5);
            assert_eq!(t.within_options.len(), 4);
            assert_ne!(t.within_options[0], t.within_options[1]);
        }
        assert_eq!(s, session_from_folder(&listing(2), &trackers(), 9).unwrap());
    }

    #[test]
    fn located_errors() {
        let mut l = listing(1);
        l.retain(|p| !p.contains("ReflectY_0_test_mc_1"));
        let e = session_from_folder(&l, &trackers(), 1).unwrap_err();
        assert_eq!(
            e.to_string(),
            "no complete variation (all five images train_0_input, train_0_output, test_0_input, \
             test_mc_0_input, test_mc_1_input) of ReflectY; e.g. ReflectY variation 0 lacks test_mc_1_input"
        );
        let e = scan(&["KiVA/Colour/ReflectX_0_train_0_input.png"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "KiVA/Colour/ReflectX_0_train_0_input.png: a ReflectX image must be in a folder named Reflect, not \"Colour\""
        );
        let mut t = trackers();
        t.retain(|(p, _)| !p.ends_with("output_Counting-2.txt"));
        let e = session_from_folder(&listing(1), &t, 1).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("no trial values for Counting-2 variation 0: pick its trial file"),
            "{e}"
        );
        let mut t = trackers();
        t[0].1 = "train_0_input: 0\ntrain_0_output: x\ntest_input: 0\nmc: Purple\n".into();
        let e = session_from_folder(&listing(1), &t, 1).unwrap_err();
        assert!(
            e.to_string().starts_with(&format!(
                "output_{}.txt line 4: expected a wrong value",
                KIVA_SUBDOMAINS[0]
            )),
            "{e}"
        );
        let e = parse_tracker(
            "output_ColourRed.txt",
            "train_0_input: 0\ntrain_0_output: Red\n",
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "output_ColourRed.txt line 3: expected \"test_input: <value>\", found the end of the file"
        );
    }
}
