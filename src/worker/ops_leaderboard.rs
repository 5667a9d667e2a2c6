//! Worker operations of the leaderboard page (domain `lb`).
//!
//! The worker keeps the full reports (MM-IQ items with their responses, KiVA trials) in its own
//! memory, keyed by a row id, and sends the page only summaries, so nothing heavy is sent to or
//! parsed on the main thread.
//!
//! - `lb.score`: detects and scores a batch of dropped files with
//!   [`coglab_core::leaderboard::score_files_as`]. Arguments: `{"models": {"<path>": "<name>"},
//!   "kinds": {"<path>": "<FileKind key>"}}` (model names and formats the user set; others are
//!   guessed from the paths and detected from the content). Result: the
//!   [`coglab_core::leaderboard::Scored`] JSON with each row's `id` set and MM-IQ items and KiVA
//!   trials left out.
//! - `lb.items`: `{"id": <row id>, "wrong_only": bool, "category": "...", "offset": n,
//!   "limit": n}` → [`coglab_core::leaderboard::detail::ItemsPage`] (MM-IQ rows).
//! - `lb.trials`: `{"id": <row id>, "wrong_only": bool, "domain": "...", "joint": bool,
//!   "offset": n, "limit": n}` → [`coglab_core::leaderboard::detail::TrialsPage`] (KiVA rows).
//! - `lb.compare`: `{"first": id, "second": id, "resamples": n, "seed": n}` →
//!   `{"mmiq": MmiqCompareView}` or `{"kiva": KivaComparison}`.
//! - `lb.answers`: `{"id": <KiVA row id>, "subdomain": "...", "variation": n}` →
//!   [`coglab_core::kiva::RegenerationAnswers`] of that trial (the model's answers, read from
//!   the kept run file on demand).
//! - `lb.forget`: `{"ids": [..]}` drops kept reports.

use std::cell::RefCell;
use std::collections::HashMap;

use super::protocol::{self, wire, FileSource, InputFile, Output, RequestFile};
use coglab_core::leaderboard::detail::{
    compare_kiva, compare_mmiq, kiva_trials, mmiq_items, ItemsQuery, KivaComparison,
    MmiqCompareView, TrialsQuery,
};
use coglab_core::leaderboard::{score_files_with, Detail, FileKind, InputRef, Prepared};
use coglab_core::mmiq::{KeyReader, MmiqError, MmiqFormat, PredictionsReader};
use serde::{Deserialize, Serialize};

use super::host::{self, Progress};

/// A KiVA row's run files: (path, bytes).
type RunFiles = Vec<(String, Vec<u8>)>;

thread_local! {
    /// The full reports of scored rows, by row id.
    static STORE: RefCell<HashMap<u64, Detail>> = RefCell::new(HashMap::new());
    /// The run files (path, bytes) of KiVA model rows, by row id, for `lb.answers`.
    static KIVA_FILES: RefCell<HashMap<u64, RunFiles>> = RefCell::new(HashMap::new());
    /// The next row id (ids are never reused while this worker lives).
    static NEXT_ID: RefCell<u64> = const { RefCell::new(1) };
}

#[derive(Deserialize, Default)]
struct ScoreArgs {
    #[serde(default)]
    models: HashMap<String, String>,
    #[serde(default)]
    kinds: HashMap<String, FileKind>,
}

#[derive(Deserialize)]
struct ItemsArgs {
    id: u64,
    #[serde(flatten)]
    query: ItemsQuery,
}

#[derive(Deserialize)]
struct TrialsArgs {
    id: u64,
    #[serde(flatten)]
    query: TrialsQuery,
}

#[derive(Deserialize)]
struct CompareArgs {
    first: u64,
    second: u64,
    #[serde(default = "default_resamples")]
    resamples: usize,
    #[serde(default = "default_seed")]
    seed: u64,
}

/// `lb.compare`'s reply, `{"mmiq": ...}` or `{"kiva": ...}` (a typed value rather than
/// `json!`, which would compile each comparison's serializer a second time).
#[derive(Serialize)]
#[serde(rename_all = "lowercase")]
enum Compared<'a> {
    Mmiq(&'a MmiqCompareView),
    Kiva(&'a KivaComparison),
}

fn default_resamples() -> usize {
    2000
}

fn default_seed() -> u64 {
    1
}

#[derive(Deserialize)]
struct AnswersArgs {
    id: u64,
    subdomain: String,
    variation: u64,
}

/// Keeps the run files of the KiVA model rows among `details` (a few MB at most) for
/// `lb.answers`; the rest of `files` is dropped.
fn keep_kiva_files(details: &[(u64, Detail)], files: Vec<InputFile>) {
    let mut files: Vec<Option<InputFile>> = files.into_iter().map(Some).collect();
    KIVA_FILES.with_borrow_mut(|kept| {
        for (id, d) in details {
            let Detail::Kiva(r) = d else { continue };
            if r.source != coglab_core::kiva::Source::Model {
                continue;
            }
            let mine: RunFiles = files
                .iter_mut()
                .filter(|f| f.as_ref().is_some_and(|f| r.files.contains(&f.name)))
                .filter_map(Option::take)
                .map(|f| (f.name, f.bytes))
                .collect();
            kept.insert(*id, mine);
        }
    });
}

/// The subdomain a run file is named for (`.../output_Colour/ColourRed.csv` → `ColourRed`), as
/// [`coglab_core::kiva::RunFile::parse`] names it.
fn subdomain_of(path: &str) -> &str {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let stem = name
        .strip_suffix(".csv")
        .or_else(|| name.strip_suffix(".CSV"))
        .unwrap_or(name);
    stem.strip_prefix("output_").unwrap_or(stem)
}

#[derive(Deserialize)]
struct ForgetArgs {
    ids: Vec<u64>,
}

const GONE: &str = "this row's item data is no longer in the scoring worker (scoring was \
                    cancelled, which restarts the worker): drop its files again";

fn parse<'a, T: Deserialize<'a>>(op: &str, args: &'a str) -> Result<T, String> {
    serde_json::from_str(args).map_err(|e| format!("lb.{op} arguments: {e}"))
}

/// `lb.score`: reads the files as streams ([`protocol::read_files`]), parsing MM-IQ JSONL keys
/// and predictions piece by piece as they arrive ([`Parser`]; the browser reads ahead
/// meanwhile) and keeping the other files' bytes; then scores the batch with
/// [`score_files_with`], keeps the full reports and returns the summaries.
///
/// # Errors
/// A message for bad arguments, a file too large or one the browser cannot read.
pub async fn score(
    args: &str,
    files: Vec<RequestFile>,
    progress: &Progress,
) -> Result<Output, String> {
    let args: ScoreArgs = if args.trim().is_empty() || args.trim() == "null" {
        ScoreArgs::default()
    } else {
        parse("score", args)?
    };
    host::refuse_large(&files)?;
    let total = host::blob_bytes(&files);
    host::reserve_heap(total);
    // Transferred bytes are used as they are; `File`s are read as streams, each piece parsed
    // as it arrives when the file is an MM-IQ key or predictions JSONL ([`Parser`]), else kept.
    let mut read: Vec<InputFile> = Vec::with_capacity(files.len());
    let mut blobs = Vec::new();
    for f in files {
        match f.source {
            FileSource::Bytes(bytes) => read.push(InputFile {
                name: f.name,
                bytes,
            }),
            FileSource::Blob(blob) => {
                blobs.push((read.len(), f.name.clone(), blob));
                read.push(InputFile {
                    name: f.name,
                    bytes: Vec::new(),
                });
            }
        }
    }
    let named: Vec<(&str, &web_sys::Blob)> =
        blobs.iter().map(|(_, n, b)| (n.as_str(), b)).collect();
    // Where each file starts in the bytes of all of them (for the progress bar).
    let starts: Vec<f64> = blobs
        .iter()
        .scan(0.0, |at, (_, _, b)| {
            let start = *at;
            *at += b.size();
            Some(start)
        })
        .collect();
    let mut parsers: Vec<Option<Parser>> = read.iter().map(|_| None).collect();
    let mut no_memory = None;
    protocol::read_files(&named, |k, slice, done, size| {
        let (i, name) = (blobs[k].0, named[k].0);
        if done == slice.len() as f64 {
            // The first slice of this file: parse it as it arrives, or keep its bytes.
            let chosen = args.kinds.get(name).copied();
            parsers[i] = Parser::for_file(name, chosen, slice, size);
            if parsers[i].is_none() && read[i].bytes.try_reserve_exact(size as usize).is_err() {
                no_memory = Some(format!(
                    "{name}: not enough memory to read its {}",
                    protocol::megabytes(size)
                ));
            }
        }
        let go_on = match &mut parsers[i] {
            _ if no_memory.is_some() => false,
            Some(p) => p.push(slice),
            None => {
                read[i].bytes.extend_from_slice(slice);
                true
            }
        };
        progress.reading(name, starts[k] + done, total, done, size);
        go_on
    })
    .await?;
    if let Some(e) = no_memory {
        return Err(e);
    }
    let prepared: Vec<Option<Prepared>> =
        parsers.into_iter().map(|p| p.map(Parser::finish)).collect();
    let inputs: Vec<InputRef> = read
        .iter()
        .map(|f| InputRef {
            path: &f.name,
            bytes: &f.bytes,
            model: args.models.get(&f.name).map(String::as_str),
        })
        .collect();
    let chosen: Vec<Option<FileKind>> = read
        .iter()
        .map(|f| args.kinds.get(&f.name).copied())
        .collect();
    let mut scored = score_files_with(&inputs, &chosen, prepared, |done, total, label| {
        progress.report(done as f64, total as f64, label);
    });
    drop(inputs);
    let details = NEXT_ID.with_borrow_mut(|next| scored.split_details(next));
    keep_kiva_files(&details, read);
    STORE.with_borrow_mut(|s| s.extend(details));
    wire("lb.score", &scored)
}

/// An MM-IQ JSONL file parsed piece by piece as it is read.
enum Reader {
    Key(KeyReader),
    Predictions(PredictionsReader),
}

/// A [`Reader`] and the first error it gave (after which the rest of the file is not read).
struct Parser {
    reader: Reader,
    failed: Option<MmiqError>,
}

impl Parser {
    /// A parser for a file whose first piece is `head`, when it is an MM-IQ answer key or
    /// predictions JSONL (as chosen by the user, else detected, and by its content); `None`
    /// for any other file, which is read whole.
    fn for_file(name: &str, chosen: Option<FileKind>, head: &[u8], size: f64) -> Option<Self> {
        let kind = chosen.unwrap_or_else(|| coglab_core::leaderboard::detect(name, head));
        let reader = match (kind, coglab_core::mmiq::detect(name, head)?) {
            (FileKind::MmiqKey, MmiqFormat::AnswerKey) => Reader::Key(KeyReader::new(name)),
            (FileKind::MmiqPredictions, MmiqFormat::PredictionsJsonl) => {
                Reader::Predictions(PredictionsReader::new(name, size as usize))
            }
            _ => return None,
        };
        Some(Self {
            reader,
            failed: None,
        })
    }

    /// Parses the next piece; `false` once the file has failed (the rest need not be read).
    fn push(&mut self, slice: &[u8]) -> bool {
        if self.failed.is_some() {
            return false;
        }
        let result = match &mut self.reader {
            Reader::Key(r) => r.push(slice),
            Reader::Predictions(r) => r.push(slice),
        };
        self.failed = result.err();
        self.failed.is_none()
    }

    fn finish(self) -> Prepared {
        match (self.reader, self.failed) {
            (Reader::Key(_), Some(e)) => Prepared::MmiqKey(Err(e)),
            (Reader::Key(r), None) => Prepared::MmiqKey(r.finish()),
            (Reader::Predictions(_), Some(e)) => Prepared::MmiqPredictions(Err(e)),
            (Reader::Predictions(r), None) => Prepared::MmiqPredictions(r.finish()),
        }
    }
}

/// Runs operation `name` of this domain (all but `score`, see [`score`]).
pub fn run(name: &str, args: &str, files: &[InputFile]) -> Result<Output, String> {
    match name {
        "items" => {
            let a: ItemsArgs = parse("items", args)?;
            STORE.with_borrow(|s| match s.get(&a.id) {
                Some(Detail::Mmiq(r)) => wire("lb.items", &mmiq_items(r, &a.query)),
                Some(_) => Err("item pages are available for MM-IQ rows".into()),
                None => Err(GONE.into()),
            })
        }
        "trials" => {
            let a: TrialsArgs = parse("trials", args)?;
            STORE.with_borrow(|s| match s.get(&a.id) {
                Some(Detail::Kiva(r)) => wire("lb.trials", &kiva_trials(r, &a.query)),
                Some(_) => Err("trial pages are available for KiVA rows".into()),
                None => Err(GONE.into()),
            })
        }
        "compare" => {
            let a: CompareArgs = parse("compare", args)?;
            STORE.with_borrow(|s| match (s.get(&a.first), s.get(&a.second)) {
                (Some(Detail::Mmiq(x)), Some(Detail::Mmiq(y))) => {
                    let c = compare_mmiq(x, y, a.resamples, a.seed)?;
                    wire("lb.compare", &Compared::Mmiq(&c))
                }
                (Some(Detail::Kiva(x)), Some(Detail::Kiva(y))) => {
                    let c = compare_kiva(x, y, a.resamples, a.seed)?;
                    wire("lb.compare", &Compared::Kiva(&c))
                }
                (Some(_), Some(_)) => Err("the two rows are from different benchmarks".into()),
                _ => Err(GONE.into()),
            })
        }
        "answers" => {
            let a: AnswersArgs = parse("answers", args)?;
            KIVA_FILES.with_borrow(|k| {
                let files = k.get(&a.id).ok_or_else(|| {
                    STORE.with_borrow(|s| match s.get(&a.id) {
                        Some(_) => "answers are available for KiVA model runs".to_string(),
                        None => GONE.to_string(),
                    })
                })?;
                let (path, bytes) = files
                    .iter()
                    .find(|(p, _)| subdomain_of(p) == a.subdomain)
                    .ok_or_else(|| {
                        format!("no run file of subdomain {:?} in this row", a.subdomain)
                    })?;
                let answers = coglab_core::kiva::trial_answers(path, bytes, a.variation)
                    .map_err(|e| e.to_string())?;
                wire("lb.answers", &answers)
            })
        }
        "forget" => {
            let a: ForgetArgs = parse("forget", args)?;
            STORE.with_borrow_mut(|s| {
                for id in &a.ids {
                    s.remove(id);
                }
            });
            KIVA_FILES.with_borrow_mut(|k| {
                for id in &a.ids {
                    k.remove(id);
                }
            });
            Ok(Output::Json("null".into()))
        }
        "mmopera_compare" => {
            // The arguments come as a file in the binary form (see `CompareArgs`).
            let bytes = files.first().map_or(&[][..], |f| f.bytes.as_slice());
            let a: coglab_core::leaderboard::mmopera::CompareArgs =
                coglab_core::wire::from_bytes(bytes)
                    .map_err(|e| format!("lb.mmopera_compare arguments: {e}"))?;
            wire("lb.mmopera_compare", &a.compare()?)
        }
        "gold_analyze" => wire(
            "lb.gold_analyze",
            &coglab_core::leaderboard::gold::analyze_args(args)?,
        ),
        _ => Err(format!("unknown worker operation {name:?}")),
    }
}
