//! What the worker keeps between requests, with one owner: [`WorkerState`], made by the
//! serving loop ([`crate::host::serve`]) and handed to each request's handler. Rows, KiVA run
//! files, score matrices, the published bundle's sources and the item analysis all live here,
//! under handles that carry the worker's generation ([`RowId`], [`MatrixId`],
//! [`AnalysisId`]): a handle from an earlier worker is answered [`WorkerError::Stale`], one
//! this worker dropped [`WorkerError::Gone`], never mistaken for other data of the same number.
//!
//! Nothing here touches the browser, so it is tested natively; reading files and fetching are
//! [`crate::io`]'s.

use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

use coglab_core::items::ItemAnalysis;
use coglab_core::leaderboard::{Detail, Scored};
use coglab_core::publish::ranks::RanksFile;
use coglab_core::publish::Benchmark;
use coglab_core::sem::data::ScoreMatrix;

use crate::api::{AnalysisId, Handle, MatrixId, RowId, SemColumns, WorkerError};
use crate::protocol::InputFile;

/// A KiVA row's run files: (path, bytes).
pub type RunFiles = Vec<(String, Vec<u8>)>;

/// The most matrices kept at once (the oldest are dropped): a page loads one at a time, and a
/// matrix of a few thousand models is a few MB.
const KEEP_MATRICES: usize = 8;

/// Everything one worker keeps. Made once per worker; a worker started again (after a Cancel
/// or a crash) has a new one with the next generation.
#[derive(Default)]
pub struct WorkerState {
    /// This worker's generation, in every handle it gives.
    generation: u32,
    /// The next row id.
    next_row: RowId,
    /// The full reports of scored and published rows.
    rows: HashMap<RowId, Detail>,
    /// The run files of KiVA model rows, for a trial's answers.
    run_files: HashMap<RowId, RunFiles>,
    /// The matrices read (Structure page), oldest first.
    matrices: BTreeMap<MatrixId, ScoreMatrix>,
    /// The number of the next matrix.
    next_matrix: u32,
    /// The last item analysis.
    analysis: Option<(AnalysisId, ItemAnalysis)>,
    /// The number of the next analysis.
    next_analysis: u32,
    /// Where the published rows' data comes from.
    pub published: PublishedSources,
}

/// Where the published bundle's rows get their data: the chunks not fetched yet, the rank
/// files and the rows they rank.
#[derive(Default)]
pub struct PublishedSources {
    /// Published rows waiting for their chunk.
    pub pending: HashMap<RowId, Pending>,
    /// Published rows with a rank file.
    pub rank_sources: HashMap<RowId, RankSource>,
    /// The rank files fetched, by URL.
    pub rank_files: HashMap<String, Rc<RanksFile>>,
}

/// A published row whose items are not fetched yet.
#[derive(Debug, Clone)]
pub struct Pending {
    /// The chunk's URL.
    pub chunk: String,
    /// The key chunk's URL, for MM-IQ rows.
    pub key: Option<String>,
    /// The row's benchmark.
    pub benchmark: Benchmark,
    /// The row's summary report.
    pub summary: Detail,
}

/// What the rank groups of a published row read: its summary and, per benchmark of the row,
/// the rank file's URL and SHA-256 and the model's position in it.
#[derive(Debug, Clone)]
pub struct RankSource {
    /// The row's summary report (from the index).
    pub summary: Detail,
    /// The rank files of the row's benchmarks: (benchmark, URL, SHA-256).
    pub files: Vec<(Benchmark, String, String)>,
    /// The model's position in the index (the rank files' `model`).
    pub model: usize,
}

impl WorkerState {
    /// The state of a new worker of `generation` (from 1; the page numbers its workers).
    pub fn new(generation: u32) -> Self {
        Self {
            generation,
            next_row: RowId::first(generation),
            next_matrix: 1,
            next_analysis: 1,
            ..Self::default()
        }
    }

    /// This worker's generation.
    pub fn generation(&self) -> u32 {
        self.generation
    }

    /// Whether `handle` is of this worker.
    ///
    /// # Errors
    /// [`WorkerError::Stale`] when it is of another generation.
    pub fn check<H: Handle>(&self, handle: &H) -> Result<(), WorkerError> {
        if handle.generation() == self.generation {
            Ok(())
        } else {
            Err(WorkerError::Stale {
                what: H::WHAT,
                generation: handle.generation(),
                current: self.generation,
            })
        }
    }

    /// Numbers `scored`'s rows and keeps their full reports, and the run files of its KiVA
    /// model rows among `files` (a few MB at most); the rest of `files` is dropped. Returns
    /// the ids with a copy of each report (published rows keep their summaries for later).
    pub fn keep_scored(&mut self, scored: &mut Scored, files: Vec<InputFile>) -> Vec<RowId> {
        let details = scored.split_details(&mut self.next_row);
        let mut files: Vec<Option<InputFile>> = files.into_iter().map(Some).collect();
        for (id, d) in &details {
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
            self.run_files.insert(*id, mine);
        }
        let ids = details.iter().map(|(id, _)| *id).collect();
        self.rows.extend(details);
        ids
    }

    /// The kept report of `id`.
    ///
    /// # Errors
    /// [`WorkerError::Stale`] for a row of an earlier worker, [`WorkerError::Gone`] for one
    /// this worker no longer keeps.
    pub fn row(&self, id: RowId) -> Result<&Detail, WorkerError> {
        self.check(&id)?;
        self.rows
            .get(&id)
            .ok_or(WorkerError::Gone { what: RowId::WHAT })
    }

    /// The kept reports of `ids`, in order.
    ///
    /// # Errors
    /// As [`WorkerState::row`], for the first row not kept.
    pub fn rows(&self, ids: &[RowId]) -> Result<Vec<&Detail>, WorkerError> {
        ids.iter().map(|id| self.row(*id)).collect()
    }

    /// The kept report of `id`, when this worker keeps it (no error: the rank board leaves a
    /// row it cannot find off with a note).
    pub fn row_if_kept(&self, id: RowId) -> Option<&Detail> {
        self.rows
            .get(&id)
            .filter(|_| id.generation == self.generation)
    }

    /// The run files of a KiVA model row.
    pub fn run_files(&self, id: RowId) -> Option<&RunFiles> {
        self.run_files.get(&id)
    }

    /// Replaces the kept report of a row (a published row once its items are fetched).
    pub fn replace(&mut self, id: RowId, detail: Detail) {
        self.rows.insert(id, detail);
    }

    /// Drops rows (their reports, run files and published sources); ids of an earlier worker
    /// are ignored.
    pub fn forget(&mut self, ids: &[RowId]) {
        for id in ids {
            self.rows.remove(id);
            self.run_files.remove(id);
            self.published.pending.remove(id);
            self.published.rank_sources.remove(id);
        }
    }

    /// Keeps a matrix and describes it; the oldest are dropped beyond [`KEEP_MATRICES`].
    pub fn keep_matrix(&mut self, m: ScoreMatrix) -> SemColumns {
        let id = MatrixId {
            generation: self.generation,
            n: self.next_matrix,
        };
        self.next_matrix += 1;
        let columns = SemColumns {
            matrix: id,
            file: m.file.clone(),
            models: m.models.clone(),
            columns: m
                .columns
                .iter()
                .filter(|c| c.is_numeric())
                .map(|c| c.name.clone())
                .collect(),
        };
        self.matrices.insert(id, m);
        while self.matrices.len() > KEEP_MATRICES {
            self.matrices.pop_first();
        }
        columns
    }

    /// A kept matrix.
    ///
    /// # Errors
    /// [`WorkerError::Stale`] or [`WorkerError::Gone`], as [`WorkerState::row`].
    pub fn matrix(&self, id: MatrixId) -> Result<&ScoreMatrix, WorkerError> {
        self.check(&id)?;
        self.matrices.get(&id).ok_or(WorkerError::Gone {
            what: MatrixId::WHAT,
        })
    }

    /// Keeps an item analysis in place of the one before.
    pub fn keep_analysis(&mut self, analysis: ItemAnalysis) -> AnalysisId {
        let id = AnalysisId {
            generation: self.generation,
            n: self.next_analysis,
        };
        self.next_analysis += 1;
        self.analysis = Some((id, analysis));
        id
    }

    /// A kept item analysis (only the last one is kept).
    ///
    /// # Errors
    /// [`WorkerError::Stale`] or [`WorkerError::Gone`], as [`WorkerState::row`].
    pub fn analysis(&self, id: AnalysisId) -> Result<&ItemAnalysis, WorkerError> {
        self.check(&id)?;
        match &self.analysis {
            Some((kept, a)) if *kept == id => Ok(a),
            _ => Err(WorkerError::Gone {
                what: AnalysisId::WHAT,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use coglab_core::leaderboard::{score_files, InputRef};

    const KEY: &str = "{\"category\": \"Logical\", \"data_id\": 1, \"answer\": \"A\"}\n\
                       {\"category\": \"Logical\", \"data_id\": 2, \"answer\": \"B\"}\n";
    const PREDS: &str = "{\"data_id\": 1, \"parsed_pred\": \"A\"}\n\
                         {\"data_id\": 2, \"parsed_pred\": \"C\"}\n";

    /// Two MM-IQ files scored as the worker scores a batch: one row, 1 of 2 right.
    fn scored() -> Scored {
        let inputs = [
            InputRef {
                path: "MMIQ_benchmark_answer_dict.jsonl",
                bytes: KEY.as_bytes(),
                model: None,
            },
            InputRef {
                path: "m_output.jsonl",
                bytes: PREDS.as_bytes(),
                model: Some("m"),
            },
        ];
        score_files(&inputs, |_, _, _| {})
    }

    /// Rows are numbered from 1 in the worker's generation; a row of another generation is
    /// stale (named with both generations), a forgotten one gone, and the kept one has its
    /// items.
    #[test]
    fn rows_know_their_generation() {
        let mut state = WorkerState::new(3);
        let mut s = scored();
        assert_eq!(s.mmiq.len(), 1, "{:?}", s.files);
        let ids = state.keep_scored(&mut s, Vec::new());
        assert_eq!(
            ids,
            vec![RowId {
                generation: 3,
                n: 1
            }]
        );
        assert_eq!(s.mmiq[0].id, ids[0]);
        // The page's summary has no items; the kept report has both.
        assert!(s.mmiq[0].report.items.is_empty());
        let Ok(Detail::Mmiq(full)) = state.row(ids[0]) else {
            panic!("not kept")
        };
        assert_eq!((full.items.len(), full.overall.correct), (2, 1));
        // The same number from the worker before this one.
        let old = RowId {
            generation: 2,
            n: 1,
        };
        assert_eq!(
            state.row(old).err(),
            Some(WorkerError::Stale {
                what: crate::api::Kept::Row,
                generation: 2,
                current: 3
            })
        );
        assert!(state.row_if_kept(old).is_none());
        // A second batch gets the next number.
        let mut again = scored();
        assert_eq!(
            state.keep_scored(&mut again, Vec::new()),
            vec![RowId {
                generation: 3,
                n: 2
            }]
        );
        state.forget(&ids);
        assert_eq!(
            state
                .rows(&[
                    RowId {
                        generation: 3,
                        n: 2
                    },
                    ids[0]
                ])
                .err(),
            Some(WorkerError::Gone {
                what: crate::api::Kept::Row
            })
        );
    }

    fn matrix(name: &str) -> ScoreMatrix {
        ScoreMatrix::parse(b"model,t1,t2\na,1,2\nb,3,4\nc,5,7\n", name).unwrap()
    }

    /// Matrices beyond the eighth push out the oldest; each keeps its number.
    #[test]
    fn matrices_keep_the_last_eight() {
        let mut state = WorkerState::new(1);
        let first = state.keep_matrix(matrix("m1.csv"));
        assert_eq!(
            first.matrix,
            MatrixId {
                generation: 1,
                n: 1
            }
        );
        assert_eq!(first.models, ["a", "b", "c"]);
        assert_eq!(first.columns, ["t1", "t2"]);
        let ids: Vec<MatrixId> = (2..=9)
            .map(|k| state.keep_matrix(matrix(&format!("m{k}.csv"))).matrix)
            .collect();
        assert_eq!(
            state.matrix(first.matrix).err(),
            Some(WorkerError::Gone {
                what: crate::api::Kept::Matrix
            })
        );
        assert_eq!(state.matrix(ids[0]).unwrap().file, "m2.csv");
        assert_eq!(state.matrix(ids[7]).unwrap().file, "m9.csv");
        let stale = MatrixId {
            generation: 2,
            ..ids[7]
        };
        assert!(matches!(
            state.matrix(stale),
            Err(WorkerError::Stale {
                generation: 2,
                current: 1,
                ..
            })
        ));
    }
}
