//! The published bundle: a small index (per model and benchmark the headline figures,
//! intervals, coverage, settings and the SHA-256 of every input file) and one item chunk per
//! model, fetched only when a visitor opens that model, a comparison or the rank groups.
//!
//! Layout of a bundle folder:
//! - `index.json`: [`Index`];
//! - `items/<slug>.json`: [`ModelChunk`], one per model;
//! - `items/mmiq-key.json`: [`MmiqKeyChunk`], the MM-IQ items' ids and categories, shared by
//!   every model's MM-IQ verdicts;
//! - `items/ranks-<benchmark>.json`: [`super::ranks::RanksFile`], what the paired rank groups
//!   read of every published row of a benchmark, in one file;
//! - `boards/<benchmark>.html`: the static board fragments ([`super::html`]);
//! - `leaderboard.toml`: a copy of the manifest, for `coglab verify`.
//!
//! The index stays compact: figures are rounded to 6 decimals ([`round6`]) and item verdicts
//! are in the chunks, as bit strings in the MM-IQ key's order (hex, most significant bit
//! first).

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::manifest::{Benchmark, ModelMeta};
use crate::kiva::StageStats;
use crate::leaderboard::mmopera::{ItemScores, MmoperaTaskRow};
use crate::mmiq::{Accuracy, AnswerKey, ItemResult, MmiqReport};
use crate::sem::suite::RankRow;

/// The bundle format's version, in [`Index::format`].
pub const FORMAT: u32 = 1;

/// The coglab version that wrote a bundle.
pub const COGLAB_VERSION: &str = env!("CARGO_PKG_VERSION");

/// A figure rounded to 6 decimals, as the index stores it (enough for a percentage shown with
/// 4 decimals, and shorter text).
///
/// # Examples
/// ```
/// use coglab_core::publish::bundle::round6;
/// assert_eq!(round6(0.268_726_937_269), 0.268727);
/// ```
pub fn round6(x: f64) -> f64 {
    if x.is_finite() {
        (x * 1e6).round() / 1e6
    } else {
        x
    }
}

/// Lower-case hex SHA-256 of some bytes.
///
/// # Examples
/// ```
/// use coglab_core::publish::bundle::sha256_hex;
/// // FIPS 180-2, appendix B.1: SHA-256("abc").
/// assert_eq!(sha256_hex(b"abc"),
///     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
/// ```
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut out = String::with_capacity(64);
    for b in digest {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// One input file of the bundle: its path relative to the manifest's folder and its SHA-256.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileHash {
    /// Path relative to the manifest's folder (`/` separators).
    pub path: String,
    /// Lower-case hex SHA-256 of its bytes.
    pub sha256: String,
}

/// A resolved input file (a manifest path, or one file under a manifest folder).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputFile {
    /// Path relative to the manifest's folder (`/` separators).
    pub path: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// An accuracy with its Wilson 95% interval, rounded for the index.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Acc {
    /// Right.
    pub k: u64,
    /// Scored.
    pub n: u64,
    /// Accuracy k / n.
    pub acc: f64,
    /// Interval low end.
    pub lo: f64,
    /// Interval high end.
    pub hi: f64,
}

impl From<Accuracy> for Acc {
    fn from(a: Accuracy) -> Self {
        Acc {
            k: a.correct,
            n: a.n,
            acc: round6(a.accuracy),
            lo: round6(a.ci_low),
            hi: round6(a.ci_high),
        }
    }
}

/// A mean with its standard error and its normal 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Mean {
    /// Mean.
    pub mean: f64,
    /// Standard error.
    pub se: f64,
    /// Count.
    pub n: usize,
    /// Low end of the 95% interval
    /// ([`crate::leaderboard::metrics::kiva_stage_interval`]).
    pub lo: f64,
    /// High end.
    pub hi: f64,
}

impl From<crate::stats::describe::MeanSe> for Mean {
    fn from(m: crate::stats::describe::MeanSe) -> Self {
        let (lo, hi) = crate::leaderboard::metrics::kiva_stage_interval(m);
        Mean {
            mean: round6(m.mean),
            se: round6(m.se),
            n: m.n,
            lo: round6(lo),
            hi: round6(hi),
        }
    }
}

/// KiVA stage figures.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Stages {
    /// Stage 1 (cross-domain).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cross: Option<Mean>,
    /// Stage 2, conditional.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub within_conditional: Option<Mean>,
    /// Stage 2, joint.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub within_joint: Option<Mean>,
    /// Stage 3 (extrapolation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extrapolation: Option<Mean>,
}

impl From<&StageStats> for Stages {
    fn from(s: &StageStats) -> Self {
        Stages {
            cross: s.cross.map(Mean::from),
            within_conditional: s.within_conditional.map(Mean::from),
            within_joint: s.within_joint.map(Mean::from),
            extrapolation: s.extrapolation.map(Mean::from),
        }
    }
}

/// A proportion-like figure with its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Value {
    /// The figure.
    pub v: f64,
    /// Interval low end.
    pub lo: f64,
    /// Interval high end.
    pub hi: f64,
}

impl Value {
    /// A figure and its interval, each rounded to 6 decimals ([`round6`]).
    pub(super) fn new(v: f64, (lo, hi): (f64, f64)) -> Self {
        Value {
            v: round6(v),
            lo: round6(lo),
            hi: round6(hi),
        }
    }
}

/// The headline figures of one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Figures {
    /// MM-IQ: accuracy overall and per category, with Wilson intervals.
    Mmiq {
        /// Over all scored items.
        overall: Acc,
        /// Per reasoning paradigm.
        by_category: BTreeMap<String, Acc>,
    },
    /// KiVA / KiVA-adults: stage means ± SE, overall and per domain.
    Kiva {
        /// Overall.
        overall: Stages,
        /// Per domain.
        by_domain: BTreeMap<String, Stages>,
    },
    /// MM-OPERA (one task): SR, HR-4, HR-3, ΔHR with intervals over items, and the mean
    /// process score.
    Mmopera {
        /// Score rate.
        sr: Option<Value>,
        /// HR-4.
        hr4: Option<Value>,
        /// HR-3.
        hr3: Option<Value>,
        /// ΔHR.
        dhr: Option<Value>,
        /// Mean reasoning score S_r (interval when two or more items have one).
        sr_proc: Option<Value>,
    },
    /// Gold: the loading-weighted overall score, layer scores, plain mean and ranks within
    /// the matrix.
    Gold {
        /// Weighted overall.
        overall: f64,
        /// Per layer.
        by_layer: BTreeMap<String, f64>,
        /// Unweighted mean.
        plain_mean: f64,
        /// Rank by the weighted overall among the matrix's models.
        rank_weighted: usize,
        /// Rank by the plain mean.
        rank_plain: usize,
        /// Models in the matrix.
        n_models: usize,
    },
}

/// How much of the benchmark a run covers.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Coverage {
    /// Units scored (MM-IQ items, KiVA trials, MM-OPERA judged items, Gold tasks).
    pub scored: usize,
    /// Units the benchmark has, when known (MM-IQ: the key's items).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub of: Option<usize>,
    /// What a reader should know (items without an answer, missing subdomains, ...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// One published run in the index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunIndex {
    /// The benchmark.
    pub benchmark: Benchmark,
    /// Headline figures.
    pub figures: Figures,
    /// Coverage.
    pub coverage: Coverage,
    /// Settings (judge, extractor, decay, ... as given in the manifest, plus the scorer's).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
    /// The run's input files (not the shared keys: see [`Index::keys`]).
    pub files: Vec<FileHash>,
    /// MM-OPERA runs: the scorer's task row without its items (breakdowns, distribution,
    /// reasoning under each decay and average setting, notes), what the interactive MM-OPERA
    /// board shows of a computed row; the items are in the model's chunk.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mmopera_row: Option<Box<MmoperaTaskRow>>,
}

/// One published model in the index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelIndex {
    /// Name.
    pub name: String,
    /// Metadata.
    #[serde(default)]
    pub meta: ModelMeta,
    /// Its item chunk, relative to the bundle root (`items/<slug>.json`).
    pub chunk: String,
    /// Its runs.
    pub runs: Vec<RunIndex>,
}

/// The bundle's index (`index.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Index {
    /// [`FORMAT`].
    pub format: u32,
    /// The coglab version that wrote it.
    pub coglab: String,
    /// The board title, if the manifest gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// SHA-256 of the manifest's text.
    pub manifest_sha256: String,
    /// Shared files (answer keys, metadata), with their hashes.
    pub keys: Vec<FileHash>,
    /// The MM-IQ key chunk (`items/mmiq-key.json`), when a model has an MM-IQ run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mmiq_key_chunk: Option<String>,
    /// Models, in manifest order.
    pub models: Vec<ModelIndex>,
    /// The rank files ([`super::ranks`]): per benchmark with published rows that the rank
    /// groups read (MM-IQ, KiVA, KiVA-adults, MM-OPERA RIA and ICA), one file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ranks: Vec<super::ranks::RanksRef>,
    /// The reproducibility audit: every published figure that has a reported twin.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub audit: Vec<AuditRow>,
}

/// One audited figure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditRow {
    /// The published model.
    pub model: String,
    /// The benchmark.
    pub benchmark: Benchmark,
    /// The column (`Mean`, `Logical Operation`, `SR`, ...).
    pub column: String,
    /// Where the reported figure is (`MM-IQ Table 2`, row label).
    pub source: String,
    /// The paper's figure, in the paper's unit.
    pub reported: f64,
    /// The decimals the paper prints.
    pub decimals: u8,
    /// The computed figure, in the paper's unit.
    pub computed: f64,
    /// The computed figure's 95% interval, in the paper's unit.
    pub interval: (f64, f64),
    /// computed − reported.
    pub gap: f64,
    /// The reported figure lies outside the interval widened by half the paper's last digit.
    pub flagged: bool,
    /// Settings that could explain a gap (extractor, judge, decay, Null convention, coverage).
    pub explain: Vec<String>,
}

/// The MM-IQ items in the key's order, shared by the MM-IQ verdicts of every chunk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MmiqKeyChunk {
    /// The key's file name.
    pub file: String,
    /// Item ids, in key order.
    pub ids: Vec<u64>,
    /// The categories, in order of first appearance.
    pub categories: Vec<String>,
    /// One character per item: `a` + the index of its category.
    pub category: String,
    /// One character per item: the right letter.
    pub answers: String,
}

/// A model's MM-IQ items: verdicts and parsed answers in the key's order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MmiqItems {
    /// The predictions file.
    pub file: String,
    /// Bit per key item, 1 = answered right (hex, most significant bit first).
    pub correct: String,
    /// Bit per key item, 1 = the file has a scored prediction for it.
    pub scored: String,
    /// One character per key item: the parsed answer when it is one character, `-` when none
    /// was found or the item is not scored, `?` for a longer answer (see `other`).
    pub parsed: String,
    /// Longer parsed answers, by key position.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub other: BTreeMap<usize, String>,
}

/// One KiVA trial: domain, subdomain, variation and its four stage scores.
pub type Trial = (
    String,
    String,
    u64,
    Option<f64>,
    Option<f64>,
    Option<f64>,
    Option<f64>,
);

/// The item-level data of one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum RunItems {
    /// MM-IQ verdicts.
    Mmiq(MmiqItems),
    /// KiVA trials `[domain, subdomain, variation, cross, within_conditional, within_joint,
    /// extrapolation]`.
    Kiva(Vec<Trial>),
    /// MM-OPERA items' holistic scores and S_r.
    Mmopera(Vec<ItemScores>),
    /// Gold: the model's row.
    Gold(RankRow),
}

/// One run's items in a chunk.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChunkRun {
    /// The benchmark.
    pub benchmark: Benchmark,
    /// Its items.
    pub items: RunItems,
}

/// A model's item chunk (`items/<slug>.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelChunk {
    /// The model.
    pub model: String,
    /// Its runs' items.
    pub runs: Vec<ChunkRun>,
}

/// A built bundle, not yet written: its files as relative paths and bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct Bundle {
    /// The index.
    pub index: Index,
    /// Every file of the bundle (index included), path relative to the bundle root, in a
    /// stable order.
    pub files: Vec<(String, Vec<u8>)>,
}

/// The slugs given so far ([`slug`]): the set of taken slugs and, per base, the suffix to try
/// next. Every suffix below it is taken (the set only grows), so a name resumes the search
/// where the last name of its base stopped: n names sharing a base cost O(n) in all, where a
/// list searched from `-2` each time cost O(n³) (issue 37: 10,000 models whose names share a
/// slug ran past 30 s).
#[derive(Debug, Clone, Default)]
pub struct Slugs {
    taken: HashSet<String>,
    next: HashMap<String, usize>,
}

/// The file name part of a model's chunk: lower-case ASCII letters, digits and `-`, other
/// characters as `-`, made unique with `-2`, `-3`, ... against the slugs `taken` so far.
///
/// # Examples
/// ```
/// use coglab_core::publish::bundle::{slug, Slugs};
/// let mut taken = Slugs::default();
/// assert_eq!(slug("GPT-4V (multi image)", &mut taken), "gpt-4v-multi-image");
/// assert_eq!(slug("gpt-4v multi.image", &mut taken), "gpt-4v-multi-image-2");
/// // A name whose own slug is a suffixed one is kept clear of later suffixes.
/// assert_eq!(slug("a 3", &mut taken), "a-3");
/// assert_eq!(slug("a", &mut taken), "a");
/// assert_eq!(slug("a!", &mut taken), "a-2");
/// assert_eq!(slug("a?", &mut taken), "a-4");
/// ```
pub fn slug(name: &str, taken: &mut Slugs) -> String {
    let mut s = String::new();
    for c in name.chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_alphanumeric() {
            s.push(c);
        } else if !s.ends_with('-') {
            s.push('-');
        }
    }
    let base = s.trim_matches('-').to_string();
    let base = if base.is_empty() {
        "model".to_string()
    } else {
        base
    };
    // The key chunk's and the rank files' names are taken.
    let reserved = |s: &str| {
        s == "mmiq-key"
            || Benchmark::ALL
                .iter()
                .any(|b| s.strip_prefix("ranks-") == Some(b.key()))
    };
    let mut k = taken.next.get(&base).copied().unwrap_or(1);
    let mut out = if k == 1 {
        base.clone()
    } else {
        format!("{base}-{k}")
    };
    while taken.taken.contains(&out) || reserved(&out) {
        k += 1;
        out = format!("{base}-{k}");
    }
    taken.next.insert(base, k + 1);
    taken.taken.insert(out.clone());
    out
}

/// Bits as hex, most significant bit first, 8 items per byte (the last byte padded with 0).
///
/// # Examples
/// ```
/// use coglab_core::publish::bundle::{bits_hex, hex_bit};
/// // 1,0,1,1, 0,0,0,0, 1 -> 1011 0000 | 1000 0000 -> "b080".
/// let bits = [true, false, true, true, false, false, false, false, true];
/// assert_eq!(bits_hex(&bits), "b080");
/// assert_eq!(hex_bit("b080", 8), Some(true));
/// assert_eq!(hex_bit("b080", 1), Some(false));
/// ```
pub fn bits_hex(bits: &[bool]) -> String {
    let mut out = String::with_capacity(bits.len().div_ceil(8) * 2);
    for chunk in bits.chunks(8) {
        let mut byte = 0u8;
        for (i, b) in chunk.iter().enumerate() {
            if *b {
                byte |= 0x80 >> i;
            }
        }
        out.push_str(&format!("{byte:02x}"));
    }
    out
}

/// Bit `i` of a [`bits_hex`] string; `None` past its end or on a non-hex character.
pub fn hex_bit(hex: &str, i: usize) -> Option<bool> {
    let byte = hex.get(i / 8 * 2..i / 8 * 2 + 2)?;
    let byte = u8::from_str_radix(byte, 16).ok()?;
    Some(byte & (0x80 >> (i % 8)) != 0)
}

/// The MM-IQ key chunk of a key.
pub fn mmiq_key_chunk(key: &AnswerKey) -> MmiqKeyChunk {
    MmiqKeyChunk {
        file: key.file.clone(),
        ids: key.items.iter().map(|i| i.data_id).collect(),
        categories: key.categories.clone(),
        category: key
            .items
            .iter()
            .map(|i| {
                let c = key
                    .categories
                    .iter()
                    .position(|c| *c == i.category)
                    .unwrap_or(0);
                char::from_u32('a' as u32 + c as u32).unwrap_or('?')
            })
            .collect(),
        answers: key.items.iter().map(|i| i.answer).collect(),
    }
}

/// A model's MM-IQ items in the key's order.
pub fn mmiq_items_of(key: &MmiqKeyChunk, report: &MmiqReport) -> MmiqItems {
    let pos: BTreeMap<u64, usize> = key.ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
    let n = key.ids.len();
    let mut correct = vec![false; n];
    let mut scored = vec![false; n];
    let mut parsed = vec!['-'; n];
    let mut other = BTreeMap::new();
    for item in &report.items {
        let Some(&i) = pos.get(&item.data_id) else {
            continue;
        };
        correct[i] = item.correct;
        scored[i] = true;
        let mut chars = item.parsed.chars();
        parsed[i] = match (chars.next(), chars.next()) {
            (None, _) => '-',
            (Some(c), None) if c != '-' && c != '?' => c,
            _ => {
                other.insert(i, item.parsed.to_string());
                '?'
            }
        };
    }
    MmiqItems {
        file: report.file.clone(),
        correct: bits_hex(&correct),
        scored: bits_hex(&scored),
        parsed: parsed.into_iter().collect(),
        other,
    }
}

/// The scored items of a chunk's MM-IQ run, as [`ItemResult`]s in key order (without the
/// responses' text, which the bundle does not keep; `line` is the key position + 1): what the
/// drill-down and the comparisons read.
pub fn mmiq_item_results(key: &MmiqKeyChunk, items: &MmiqItems) -> Vec<ItemResult> {
    let parsed: Vec<char> = items.parsed.chars().collect();
    let answers: Vec<char> = key.answers.chars().collect();
    let cats: Vec<char> = key.category.chars().collect();
    let mut out = Vec::new();
    for (i, id) in key.ids.iter().enumerate() {
        if hex_bit(&items.scored, i) != Some(true) {
            continue;
        }
        let p = match (items.other.get(&i), parsed.get(i)) {
            (Some(o), _) => o.clone(),
            (None, Some('-')) | (None, None) => String::new(),
            (None, Some(c)) => c.to_string(),
        };
        let cat = cats
            .get(i)
            .and_then(|c| key.categories.get((*c as usize).wrapping_sub('a' as usize)))
            .cloned()
            .unwrap_or_default();
        out.push(ItemResult {
            data_id: *id,
            category: cat,
            response: None,
            parsed: p.into(),
            key: answers.get(i).copied().unwrap_or('?'),
            correct: hex_bit(&items.correct, i) == Some(true),
            line: i + 1,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issue_37_many_names_sharing_a_slug_get_every_suffix_in_order() {
        // 20,000 names whose slug is "m-x": the first keeps it, the others take -2, -3, ...
        // in order (the list this replaced searched from -2 for each name: O(n³), which did
        // not finish here). A name that is itself "m-x-5" takes its slug first, so the
        // 5th name sharing the base skips it.
        let mut taken = Slugs::default();
        assert_eq!(slug("M x 5", &mut taken), "m-x-5");
        let got: Vec<String> = (0..20_000)
            .map(|i| {
                slug(
                    &format!("m{}x{}", "-".repeat(i % 3 + 1), ".".repeat(i / 3)),
                    &mut taken,
                )
            })
            .collect();
        assert_eq!(got[0], "m-x");
        assert_eq!(got[1], "m-x-2");
        assert_eq!(got[3], "m-x-4");
        assert_eq!(got[4], "m-x-6");
        assert_eq!(got[19_999], "m-x-20001");
        let unique: HashSet<&String> = got.iter().collect();
        assert_eq!(unique.len(), got.len());
        // Reserved names are skipped as before.
        assert_eq!(slug("MMIQ key", &mut taken), "mmiq-key-2");
        assert_eq!(slug("ranks: mmiq", &mut taken), "ranks-mmiq-2");
    }
}
