//! Building a bundle from a manifest: every run scored with the leaderboard's own scorer, its
//! figures and item chunks written in the bundle's formats ([`super::bundle`]), then the rank
//! files, the reproducibility audit ([`super::audit`]) and the static boards ([`super::html`]),
//! which read the finished index.

use std::collections::BTreeMap;

use serde::Serialize;

use super::bundle::{
    mmiq_items_of, mmiq_key_chunk, round6, sha256_hex, slug, Bundle, ChunkRun, Coverage, Figures,
    FileHash, Index, InputFile, MmiqKeyChunk, ModelChunk, ModelIndex, RunIndex, RunItems, Slugs,
    Value, COGLAB_VERSION, FORMAT,
};
use super::manifest::{Benchmark, Entry, Manifest, PathEntry};
use super::ranks::{RankItems, RanksFile, RanksRef, RanksRow};
use super::PublishError;
use crate::kiva::Variant;
use crate::leaderboard::mmopera::TaskIntervals;
use crate::leaderboard::{score_files_as, FileKind, FileState, InputRef, Scored};
use crate::mmiq::AnswerKey;
use crate::mmopera::Task;

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
        if st.status != FileState::Ok {
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
