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

use super::manifest::{Benchmark, Entry, Manifest, ModelMeta, PathEntry};
use super::ranks::{RankItems, RanksFile, RanksRef, RanksRow};
use super::PublishError;
use crate::kiva::{StageStats, Variant};
use crate::leaderboard::mmopera::{ItemScores, MmoperaTaskRow, TaskIntervals};
use crate::leaderboard::{score_files_as, FileKind, InputRef, Scored};
use crate::mmiq::{Accuracy, AnswerKey, ItemResult, MmiqReport};
use crate::mmopera::Task;
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
    /// mean − 1.96 SE.
    pub lo: f64,
    /// mean + 1.96 SE.
    pub hi: f64,
}

impl From<crate::stats::describe::MeanSe> for Mean {
    fn from(m: crate::stats::describe::MeanSe) -> Self {
        let (lo, hi) = crate::stats::describe::normal_interval(m);
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
    fn new(v: f64, (lo, hi): (f64, f64)) -> Self {
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
    pub audit: Vec<super::audit::AuditRow>,
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

struct Ctx<'a, R> {
    manifest: &'a Manifest,
    resolve: R,
    keys: Vec<FileHash>,
}

impl<R: FnMut(&PathEntry) -> Result<Vec<InputFile>, String>> Ctx<'_, R> {
    fn read(&mut self, p: &PathEntry) -> Result<Vec<InputFile>, PublishError> {
        let files = (self.resolve)(p).map_err(|message| PublishError::File {
            manifest: self.manifest.file.clone(),
            entry: p.entry.clone(),
            file: p.path.clone(),
            message,
        })?;
        if files.is_empty() {
            return Err(PublishError::File {
                manifest: self.manifest.file.clone(),
                entry: p.entry.clone(),
                file: p.path.clone(),
                message: "a folder with no files".into(),
            });
        }
        Ok(files)
    }

    fn key(&mut self, p: &Option<PathEntry>) -> Result<Option<InputFile>, PublishError> {
        let Some(p) = p else { return Ok(None) };
        let mut files = self.read(p)?;
        if files.len() != 1 {
            return Err(PublishError::File {
                manifest: self.manifest.file.clone(),
                entry: p.entry.clone(),
                file: p.path.clone(),
                message: format!("expected one file, found a folder of {}", files.len()),
            });
        }
        let f = files.remove(0);
        self.keys.push(FileHash {
            path: f.path.clone(),
            sha256: sha256_hex(&f.bytes),
        });
        Ok(Some(f))
    }
}

/// Scores every run of a manifest with the leaderboard's own scorer
/// ([`crate::leaderboard::score_files_as`], as the site scores dropped files) and builds the
/// bundle. `resolve` turns a manifest path into its files (one, or every file under a folder),
/// paths relative to the manifest's folder; `manifest_text` is copied into the bundle;
/// `reported` are the papers' tables for the audit and the static boards.
///
/// # Errors
/// [`PublishError::File`] naming the manifest entry and the file for a file that cannot be
/// read or scored; [`PublishError::Run`] for a run whose files do not make one row of its
/// benchmark.
pub fn build<R>(
    manifest: &Manifest,
    manifest_text: &str,
    resolve: R,
    reported: &[crate::reported::ReportedBundle],
) -> Result<Bundle, PublishError>
where
    R: FnMut(&PathEntry) -> Result<Vec<InputFile>, String>,
{
    let mut ctx = Ctx {
        manifest,
        resolve,
        keys: Vec::new(),
    };
    let key_file = ctx.key(&manifest.keys.mmiq)?;
    let meta_file = ctx.key(&manifest.keys.mmopera_metadata)?;
    let mut key_chunk = None;
    if let (Some(k), Some(p)) = (&key_file, &manifest.keys.mmiq) {
        let key = AnswerKey::parse_bytes(&k.path, &k.bytes).map_err(|e| PublishError::File {
            manifest: manifest.file.clone(),
            entry: p.entry.clone(),
            file: k.path.clone(),
            message: e.to_string(),
        })?;
        key_chunk = Some(mmiq_key_chunk(&key));
    }
    let mut taken = Slugs::default();
    let mut models = Vec::new();
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut rank_files: BTreeMap<Benchmark, RanksFile> = BTreeMap::new();
    for m in &manifest.models {
        let slug = slug(&m.name, &mut taken);
        let mut runs = Vec::new();
        let mut chunk_runs = Vec::new();
        for run in &m.runs {
            let mut inputs: Vec<(InputFile, Entry)> = Vec::new();
            for p in &run.files {
                for f in ctx.read(p)? {
                    inputs.push((f, p.entry.clone()));
                }
            }
            let hashes: Vec<FileHash> = inputs
                .iter()
                .map(|(f, _)| FileHash {
                    path: f.path.clone(),
                    sha256: sha256_hex(&f.bytes),
                })
                .collect();
            let (index, items, rank_items) = score_run(
                manifest,
                &m.name,
                run,
                &inputs,
                key_file.as_ref(),
                meta_file.as_ref(),
                key_chunk.as_ref(),
            )?;
            runs.push(RunIndex {
                files: hashes,
                ..index
            });
            chunk_runs.push(ChunkRun {
                benchmark: run.benchmark,
                items,
            });
            if let Some(items) = rank_items {
                let file = rank_files
                    .entry(run.benchmark)
                    .or_insert_with(|| RanksFile {
                        benchmark: run.benchmark,
                        ids: if run.benchmark == Benchmark::Mmiq {
                            key_chunk
                                .as_ref()
                                .map(|k| k.ids.clone())
                                .unwrap_or_default()
                        } else {
                            Vec::new()
                        },
                        rows: Vec::new(),
                    });
                file.rows.push(RanksRow {
                    model: models.len(),
                    name: m.name.clone(),
                    items,
                });
            }
        }
        let chunk = ModelChunk {
            model: m.name.clone(),
            runs: chunk_runs,
        };
        let path = format!("items/{slug}.json");
        files.push((path.clone(), to_json(&chunk)));
        models.push(ModelIndex {
            name: m.name.clone(),
            meta: m.meta.clone(),
            chunk: path,
            runs,
        });
    }
    let has_mmiq = models
        .iter()
        .any(|m| m.runs.iter().any(|r| r.benchmark == Benchmark::Mmiq));
    let mut index = Index {
        format: FORMAT,
        coglab: COGLAB_VERSION.to_string(),
        title: manifest.title.clone(),
        manifest_sha256: sha256_hex(manifest_text.as_bytes()),
        keys: ctx.keys,
        mmiq_key_chunk: None,
        models,
        ranks: Vec::new(),
        audit: Vec::new(),
    };
    for (benchmark, file) in rank_files {
        let path = super::ranks::path(benchmark);
        let bytes = to_json(&file);
        index.ranks.push(RanksRef {
            benchmark,
            path: path.clone(),
            sha256: sha256_hex(&bytes),
        });
        files.push((path, bytes));
    }
    if let (true, Some(k)) = (has_mmiq, &key_chunk) {
        let path = "items/mmiq-key.json".to_string();
        files.push((path.clone(), to_json(k)));
        index.mmiq_key_chunk = Some(path);
    }
    index.audit = super::audit::audit(&index, reported);
    for b in Benchmark::ALL {
        let html = super::html::board(&index, b, reported);
        files.push((format!("boards/{}.html", b.key()), html.into_bytes()));
    }
    files.push(("index.json".into(), to_json(&index)));
    files.push(("leaderboard.toml".into(), manifest_text.as_bytes().to_vec()));
    files.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(Bundle { index, files })
}

fn to_json<T: Serialize>(v: &T) -> Vec<u8> {
    // Serializing these plain structs (string keys, finite or null numbers) cannot fail.
    serde_json::to_vec(v).unwrap_or_default()
}

fn score_run(
    manifest: &Manifest,
    model: &str,
    run: &super::manifest::Run,
    inputs: &[(InputFile, Entry)],
    key_file: Option<&InputFile>,
    meta_file: Option<&InputFile>,
    key_chunk: Option<&MmiqKeyChunk>,
) -> Result<(RunIndex, RunItems, Option<RankItems>), PublishError> {
    let run_err = |message: String| PublishError::Run {
        manifest: manifest.file.clone(),
        entry: run.entry.clone(),
        message,
    };
    let mut refs: Vec<InputRef<'_>> = Vec::new();
    let mut chosen: Vec<Option<FileKind>> = Vec::new();
    let mut entries: Vec<Option<&Entry>> = Vec::new();
    let extra = match run.benchmark {
        Benchmark::Mmiq => key_file.map(|k| (k, FileKind::MmiqKey)),
        Benchmark::MmoperaRia | Benchmark::MmoperaIca => meta_file.map(|k| (k, FileKind::Mmopera)),
        _ => None,
    };
    if let Some((k, kind)) = extra {
        refs.push(InputRef {
            path: &k.path,
            bytes: &k.bytes,
            model: Some(model),
        });
        chosen.push(Some(kind));
        entries.push(None);
    }
    for (f, e) in inputs {
        refs.push(InputRef {
            path: &f.path,
            bytes: &f.bytes,
            model: Some(model),
        });
        chosen.push(None);
        entries.push(Some(e));
    }
    let scored: Scored = score_files_as(&refs, &chosen, |_, _, _| {});
    for (i, st) in scored.files.iter().enumerate() {
        if st.status != "ok" {
            let entry = entries[i].cloned().unwrap_or_else(|| run.entry.clone());
            return Err(PublishError::File {
                manifest: manifest.file.clone(),
                entry,
                file: st.file.clone(),
                message: st.message.as_deref().map_or_else(
                    || format!("{} ({})", st.status, st.kind.label()),
                    // The parsers' messages start with the file: it is named once.
                    |m| {
                        m.strip_prefix(&format!("{}: ", st.file))
                            .unwrap_or(m)
                            .to_string()
                    },
                ),
            });
        }
    }
    let others = |want: &str| -> Vec<String> {
        let mut o = Vec::new();
        if !scored.mmiq.is_empty() && want != "mmiq" {
            o.push(format!("{} MM-IQ row(s)", scored.mmiq.len()));
        }
        if !scored.kiva.is_empty() && want != "kiva" {
            o.push(format!("{} KiVA row(s)", scored.kiva.len()));
        }
        if !scored.mmopera.is_empty() && want != "mmopera" {
            o.push(format!("{} MM-OPERA row(s)", scored.mmopera.len()));
        }
        if !scored.gold.is_empty() && want != "gold" {
            o.push(format!("{} score matrix(es)", scored.gold.len()));
        }
        if !scored.mmiq_acc.is_empty() {
            o.push(format!(
                "{} VLMEvalKit _acc.csv summary(ies), which have no items",
                scored.mmiq_acc.len()
            ));
        }
        o
    };
    let settings = run.settings.clone();
    let mismatch = |want: &str, found: usize| {
        let mut o = others(want);
        o.insert(0, format!("{found} {} row(s)", run.benchmark.label()));
        run_err(format!(
            "the files make {}; a {} run must make exactly one {} row",
            o.join(", "),
            run.benchmark,
            run.benchmark.label()
        ))
    };
    match run.benchmark {
        Benchmark::Mmiq => {
            if scored.mmiq.len() != 1 || !others("mmiq").is_empty() {
                return Err(mismatch("mmiq", scored.mmiq.len()));
            }
            let r = &scored.mmiq[0].report;
            let Some(kc) = key_chunk else {
                return Err(run_err("no MM-IQ answer key".into()));
            };
            let mut notes = Vec::new();
            if r.rows.key_items_without_prediction > 0 {
                notes.push(format!(
                    "{} key items have no prediction (not scored)",
                    r.rows.key_items_without_prediction
                ));
            }
            if r.rows.no_answer > 0 {
                notes.push(format!(
                    "{} predictions have no answer found (counted wrong)",
                    r.rows.no_answer
                ));
            }
            let mut settings = settings;
            settings
                .entry("null".into())
                .or_insert_with(|| "no answer counts as wrong".into());
            let index = RunIndex {
                benchmark: run.benchmark,
                figures: Figures::Mmiq {
                    overall: r.overall.into(),
                    by_category: r
                        .by_category
                        .iter()
                        .map(|(k, v)| (k.clone(), (*v).into()))
                        .collect(),
                },
                coverage: Coverage {
                    scored: r.rows.scored,
                    of: Some(kc.ids.len()),
                    notes,
                },
                settings,
                files: Vec::new(),
                mmopera_row: None,
            };
            let verdicts = super::ranks::mmiq_verdicts(&kc.ids, r);
            Ok((
                index,
                RunItems::Mmiq(mmiq_items_of(kc, r)),
                Some(RankItems::Mmiq(verdicts)),
            ))
        }
        Benchmark::Kiva | Benchmark::KivaAdults => {
            if scored.kiva.len() != 1 || !others("kiva").is_empty() {
                return Err(mismatch("kiva", scored.kiva.len()));
            }
            let r = &scored.kiva[0].report;
            let want = if run.benchmark == Benchmark::Kiva {
                Variant::Kiva
            } else {
                Variant::KivaAdults
            };
            if r.variant != want {
                return Err(run_err(format!(
                    "the files are a {} run, listed as benchmark \"{}\"",
                    r.variant.name(),
                    run.benchmark
                )));
            }
            let mut notes = Vec::new();
            if !r.missing_subdomains.is_empty() {
                notes.push(format!(
                    "missing subdomains: {}",
                    r.missing_subdomains.join(", ")
                ));
            }
            let nulls: usize = r.rows.null_answers.values().sum();
            if nulls > 0 {
                notes.push(format!("{nulls} Null answers (counted wrong)"));
            }
            let mut settings = settings;
            settings
                .entry("null".into())
                .or_insert_with(|| "Null counts as wrong".into());
            let index = RunIndex {
                benchmark: run.benchmark,
                figures: Figures::Kiva {
                    overall: (&r.overall).into(),
                    by_domain: r
                        .by_domain
                        .iter()
                        .map(|(k, v)| (k.clone(), v.into()))
                        .collect(),
                },
                coverage: Coverage {
                    scored: r.rows.trials,
                    of: None,
                    notes,
                },
                settings,
                files: Vec::new(),
                mmopera_row: None,
            };
            let trials = r
                .trials
                .iter()
                .map(|t| {
                    (
                        t.domain.clone(),
                        t.subdomain.clone(),
                        t.variation,
                        t.cross,
                        t.within_conditional,
                        t.within_joint,
                        t.extrapolation,
                    )
                })
                .collect();
            Ok((
                index,
                RunItems::Kiva(trials),
                Some(RankItems::Kiva(super::ranks::kiva_trials(r))),
            ))
        }
        Benchmark::MmoperaRia | Benchmark::MmoperaIca => {
            let (task, other) = if run.benchmark == Benchmark::MmoperaRia {
                (Task::Ria, Task::Ica)
            } else {
                (Task::Ica, Task::Ria)
            };
            if scored.mmopera.len() != 1 || !others("mmopera").is_empty() {
                return Err(mismatch("mmopera", scored.mmopera.len()));
            }
            let row = &scored.mmopera[0];
            if row.task(other).is_some() {
                return Err(run_err(format!(
                    "the files include {other:?} judge files; list them in an mmopera-{} run",
                    format!("{other:?}").to_ascii_lowercase()
                )));
            }
            let Some(t) = row.task(task) else {
                return Err(run_err(format!("no {task:?} judge files among the files")));
            };
            let iv: Option<&TaskIntervals> = t.intervals.as_ref();
            let h = t.holistic.as_ref();
            let p = t.reasoning.as_ref();
            let mut settings = settings;
            if let Some(p) = p {
                settings.insert(
                    "decay".into(),
                    format!(
                        "alpha {} gamma {} ({:?})",
                        p.alpha, p.gamma, p.decay_exponent
                    ),
                );
            }
            settings
                .entry("invalid".into())
                .or_insert_with(|| "an invalid holistic score counts as 0".into());
            let figures = Figures::Mmopera {
                sr: h.zip(iv).map(|(h, i)| Value::new(h.score_rate, i.sr)),
                hr4: h.zip(iv).map(|(h, i)| Value::new(h.hr4, i.hr4)),
                hr3: h.zip(iv).map(|(h, i)| Value::new(h.hr3, i.hr3)),
                dhr: h.zip(iv).map(|(h, i)| Value::new(h.delta_hr, i.delta_hr)),
                sr_proc: p.map(|p| {
                    let ci = iv.and_then(|i| i.reasoning).unwrap_or((f64::NAN, f64::NAN));
                    Value::new(p.mean_score, ci)
                }),
            };
            let index = RunIndex {
                benchmark: run.benchmark,
                figures,
                coverage: Coverage {
                    scored: t.items.len(),
                    of: None,
                    notes: t.notes.clone(),
                },
                settings,
                files: Vec::new(),
                mmopera_row: None,
            };
            let mut summary = t.clone();
            summary.items = Vec::new();
            let index = RunIndex {
                mmopera_row: Some(Box::new(summary)),
                ..index
            };
            Ok((
                index,
                RunItems::Mmopera(t.items.clone()),
                Some(RankItems::Mmopera(t.items.clone())),
            ))
        }
        Benchmark::Gold => {
            if scored.gold.len() != 1 || !others("gold").is_empty() {
                return Err(mismatch("gold", scored.gold.len()));
            }
            let g = &scored.gold[0];
            let Some(res) = &g.result else {
                return Err(run_err(format!(
                    "{}: {}",
                    g.matrix.file,
                    g.message.clone().unwrap_or_default()
                )));
            };
            let name = run.matrix_name.as_deref().unwrap_or(model);
            let Some(row) = res.rows.iter().find(|r| r.model == name) else {
                let names: Vec<&str> = res.rows.iter().take(8).map(|r| r.model.as_str()).collect();
                return Err(run_err(format!(
                    "{}: no model \"{name}\" in the matrix (it has {}{}); set matrix_name",
                    g.matrix.file,
                    names.join(", "),
                    if res.rows.len() > 8 { ", ..." } else { "" }
                )));
            };
            let mut settings = settings;
            settings
                .entry("assignment".into())
                .or_insert_with(|| "Gold Table 2 layers".into());
            let index = RunIndex {
                benchmark: run.benchmark,
                figures: Figures::Gold {
                    overall: round6(row.overall),
                    by_layer: row
                        .by_construct
                        .iter()
                        .map(|(k, v)| (k.clone(), round6(*v)))
                        .collect(),
                    plain_mean: round6(row.plain_mean),
                    rank_weighted: row.rank_weighted,
                    rank_plain: row.rank_plain,
                    n_models: res.n_models,
                },
                coverage: Coverage {
                    scored: g.matrix.tasks.len(),
                    of: None,
                    notes: if res.dropped_models.is_empty() {
                        Vec::new()
                    } else {
                        vec![format!(
                            "{} models dropped for missing values",
                            res.dropped_models.len()
                        )]
                    },
                },
                settings,
                files: Vec::new(),
                mmopera_row: None,
            };
            Ok((index, RunItems::Gold(row.clone()), None))
        }
    }
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
