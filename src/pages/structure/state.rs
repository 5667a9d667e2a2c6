//! The Structure page's state: the loaded matrix, the model being edited, the fit's results,
//! and the page's one error, shared with its parts as one context ([`StructureState`]).

use coglab_core::reported::ReportedBundle;
use coglab_core::sem::suite::{RankRow, SpecDraft};
use coglab_core::sem::SemReport;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::download::download_text;
use crate::worker::api::{self, MatrixId, SemSwitches};
use crate::worker::client::{use_worker, WorkerClient};

/// A loaded score matrix: its text (kept for the saved report), the worker's handle to the
/// parsed matrix, and what it holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DataSet {
    /// File name (used in error messages).
    pub name: String,
    /// The file's text.
    pub text: String,
    /// The matrix as the worker keeps it (not saved: a loaded report is read again).
    #[serde(skip)]
    pub matrix: MatrixId,
    /// Model names.
    pub models: Vec<String>,
    /// Numeric columns (candidate tasks).
    pub columns: Vec<String>,
}

impl DataSet {
    /// The data set of a matrix the worker has read from `text`.
    pub fn read(name: String, text: String, columns: api::SemColumns) -> Self {
        Self {
            name,
            text,
            matrix: columns.matrix,
            models: columns.models,
            columns: columns.columns,
        }
    }
}

/// The worker's answer to `sem.analyze`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    /// The core's report.
    pub report: SemReport,
    /// Weighted vs plain-mean ranks (from the core).
    pub ranks: Vec<RankRow>,
    /// Worker time of the analysis in milliseconds.
    pub ms: f64,
}

/// The whole-analysis export (`structure-report.json`): the inputs and the analysis.
#[derive(Clone, Debug, Serialize)]
pub struct ExportedReport {
    /// Always `"coglab-structure-report"`.
    pub kind: String,
    /// The spec JSON (the format `coglab sem --spec` reads), as [`SpecDraft::to_json`] writes
    /// it: constructs in the model's order.
    pub spec: Box<RawValue>,
    /// Whether pruning was on.
    pub prune: bool,
    /// The paper-fidelity switches (HTMT formula, pruning procedure, Arena placement, stated
    /// scale and whether out-of-range cells were excluded).
    pub switches: SemSwitches,
    /// The data set.
    pub data: DataSet,
    /// The analysis.
    pub analysis: Analysis,
}

/// The page's error panel: what failed and the error's text.
#[derive(Clone, Debug, PartialEq)]
pub struct PageError {
    /// Short heading ("Could not read the score matrix").
    pub title: String,
    /// The error's `Display` text.
    pub message: String,
}

/// How far the page's opening has come: what a default or a saved workspace arriving late
/// may still overwrite, and whether changes are saved yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opening {
    /// The workspace of the last visit is being read.
    Reading,
    /// It has been read: it (or Gold's Table 2) applies, and every change is saved.
    Read,
    /// The user has loaded a matrix, a spec, a report or the default: nothing that arrives
    /// later overwrites it (issue 26, defect 6: a report opened within 200 ms of loading was
    /// half replaced by the default table). `read`: the saved workspace has been read.
    UserActed {
        /// Whether the saved workspace has been read (saving starts then).
        read: bool,
    },
}

/// Whether a fit is running, and a bootstrap's progress.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FitStatus {
    /// No fit running.
    Idle,
    /// A fit without bootstrap is running.
    Fitting,
    /// A bootstrap is running; the fraction done in [0, 1].
    Bootstrapping(f64),
}

/// The Structure page's state, provided as context to its parts.
#[derive(Clone, Copy)]
pub struct StructureState {
    /// The loaded matrix.
    pub data: RwSignal<Option<DataSet>>,
    /// The spec being edited.
    pub draft: RwSignal<SpecDraft>,
    /// Whether pruning runs.
    pub prune: RwSignal<bool>,
    /// The paper-fidelity switches.
    pub switches: RwSignal<SemSwitches>,
    /// The last analysis.
    pub analysis: RwSignal<Option<Analysis>>,
    /// Gold's bundled tables (Table 2 is the default matrix, the others are shown beside ours).
    pub gold: RwSignal<Option<ReportedBundle>>,
    /// The error panel's content.
    pub error: RwSignal<Option<PageError>>,
    /// Bootstrap resamples as typed (checked against the limits when the bootstrap is run).
    pub boot_n: RwSignal<u64>,
    /// Bootstrap seed.
    pub boot_seed: RwSignal<u64>,
    /// A running bootstrap's progress in [0, 1].
    pub progress: RwSignal<Option<f64>>,
    /// How far the opening has come.
    pub opening: StoredValue<Opening>,
    /// Set when a saved report is applied: it starts its own fit (with its bootstrap), so the
    /// refit on the change of data, model and pruning is skipped once.
    pub hold: StoredValue<bool>,
    /// The scoring worker.
    pub worker: StoredValue<WorkerClient, LocalStorage>,
}

impl StructureState {
    /// Empty state: no matrix, an empty model.
    pub fn new() -> Self {
        Self {
            data: RwSignal::new(None),
            draft: RwSignal::new(SpecDraft::default()),
            prune: RwSignal::new(false),
            switches: RwSignal::new(SemSwitches::default()),
            analysis: RwSignal::new(None),
            gold: RwSignal::new(None),
            error: RwSignal::new(None),
            boot_n: RwSignal::new(5000),
            boot_seed: RwSignal::new(1),
            progress: RwSignal::new(None),
            opening: StoredValue::new(Opening::Reading),
            hold: StoredValue::new(false),
            worker: StoredValue::new_local(use_worker()),
        }
    }

    /// Shows `message` in the error panel under `title`.
    pub fn fail(&self, title: &str, message: String) {
        self.error.try_set(Some(PageError {
            title: title.into(),
            message,
        }));
    }

    /// Whether the user has loaded something (true once the page is gone: nothing late
    /// applies then).
    pub fn user_acted(&self) -> bool {
        self.opening
            .try_get_value()
            .is_none_or(|o| matches!(o, Opening::UserActed { .. }))
    }

    /// Notes that the user loaded something.
    pub fn act(&self) {
        self.opening.try_update_value(|o| {
            let read = !matches!(o, Opening::Reading | Opening::UserActed { read: false });
            *o = Opening::UserActed { read };
        });
    }

    /// Notes that the saved workspace has been read (saving starts).
    pub fn read_done(&self) {
        self.opening.try_update_value(|o| {
            *o = match o {
                Opening::UserActed { .. } => Opening::UserActed { read: true },
                _ => Opening::Read,
            }
        });
    }

    /// Whether changes are saved (the saved workspace has been read).
    pub fn saving(&self) -> bool {
        self.opening
            .try_get_value()
            .is_some_and(|o| !matches!(o, Opening::Reading | Opening::UserActed { read: false }))
    }

    /// The spec as JSON, constructs in the model's order (issue 42, defect 14: through a
    /// `serde_json::Value` they came back sorted by name).
    pub fn spec_json(&self) -> Option<Box<RawValue>> {
        RawValue::from_string(self.draft.get_untracked().to_json()).ok()
    }

    /// Downloads the whole analysis (`structure-report.json`), when there is one.
    pub fn export_report(&self) {
        let (Some(d), Some(a), Some(spec)) = (
            self.data.get_untracked(),
            self.analysis.get_untracked(),
            self.spec_json(),
        ) else {
            return;
        };
        let r = ExportedReport {
            kind: "coglab-structure-report".into(),
            spec,
            prune: self.prune.get_untracked(),
            switches: self.switches.get_untracked(),
            data: d,
            analysis: a,
        };
        if let Ok(text) = serde_json::to_string_pretty(&r) {
            download_text("structure-report.json", "application/json", &text);
        }
    }
}

impl Default for StructureState {
    fn default() -> Self {
        Self::new()
    }
}
