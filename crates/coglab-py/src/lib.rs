//! `coglab._native`: the Python extension module behind the `coglab` package (issue 25).
//!
//! Every function reads its inputs with `coglab-run` (the same code the `coglab` command runs),
//! with the GIL released while files are read, parsed and scored, and returns the command's
//! `--json` output as plain Python objects: the result is serialized to a `serde_json::Value`
//! exactly as the CLI serializes it (NaN becomes `None` as it becomes `null`), then converted.
//!
//! Errors are raised as the exceptions of `coglab._errors` (`InputError`, `UsageError`, both
//! `CoglabError`, a `ValueError`) carrying `file`, `line`, `field`, `expected` and `found`.
//! Nothing here unwraps on user data; a panic would surface as `pyo3`'s `PanicException`,
//! which no input is known to reach.
#![cfg(not(target_arch = "wasm32"))]
#![deny(missing_docs)]

use coglab_core::items::{IrtModel, KivaStages, SubsetCriterion};
use coglab_core::limits::{check, MAX_BOOTSTRAP, MAX_ITERATIONS, MAX_RESAMPLES, MIN_BOOTSTRAP};
use coglab_core::mmopera::score::{
    DecayExponent, InvalidHops, InvalidScores, LabelCounting, ScoreOptions,
};
use coglab_core::mmopera::Task;
use coglab_core::ranks::inputs::KivaStage;
use coglab_core::ranks::{Adjust, Bench, BoardOptions, Missing, PairTest, RankRange};
use coglab_core::sem::bootstrap::BootstrapOptions;
use coglab_core::sem::SemOptions;
use coglab_run::items::ItemsRequest;
use coglab_run::mmopera::MmoperaInputs;
use coglab_run::rank::{RankEntry, RankRequest};
use coglab_run::{RunError, Source};
use pyo3::prelude::*;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyInt, PyList, PyMapping, PyMemoryView,
    PyString, PyTuple,
};

/// The name given to bytes passed without one.
const BYTES_NAME: &str = "<bytes>";

/// A [`RunError`] as the matching exception of `coglab._errors`.
fn raise(py: Python<'_>, e: RunError) -> PyErr {
    let build = || -> PyResult<PyErr> {
        let errors = py.import("coglab._errors")?;
        let kwargs = PyDict::new(py);
        let (class, message) = match &e {
            RunError::Usage(m) => ("UsageError", m.clone()),
            RunError::Input(l) => {
                kwargs.set_item("file", l.file.as_deref())?;
                kwargs.set_item("line", l.line)?;
                kwargs.set_item("field", l.field.as_deref())?;
                kwargs.set_item("expected", l.expected.as_deref())?;
                kwargs.set_item("found", l.found.as_deref())?;
                ("InputError", l.message.clone())
            }
        };
        let exc = errors.getattr(class)?.call((message,), Some(&kwargs))?;
        Ok(PyErr::from_value(exc))
    };
    // Importing the error module can only fail if the package is broken; the message survives.
    build().unwrap_or_else(|err| err)
}

/// A usage error (a bad option value) as `coglab.UsageError`.
fn usage(py: Python<'_>, message: impl Into<String>) -> PyErr {
    raise(py, RunError::Usage(message.into()))
}

/// One input: `str` or `os.PathLike` → a path; `bytes`, `bytearray` or `memoryview` → content
/// named `<bytes>`; a `(name, content)` tuple → content with that name.
fn source(obj: &Bound<'_, PyAny>) -> PyResult<Source> {
    let py = obj.py();
    if let Ok(t) = obj.cast::<PyTuple>() {
        if t.len() == 2 {
            let name: String = t.get_item(0)?.extract()?;
            let data = content(&t.get_item(1)?)?.ok_or_else(|| {
                usage(
                    py,
                    format!("input ({name:?}, ...): expected bytes as the second item"),
                )
            })?;
            return Ok(Source::Bytes { name, data });
        }
    }
    if let Some(data) = content(obj)? {
        return Ok(Source::Bytes {
            name: BYTES_NAME.into(),
            data,
        });
    }
    let os = py.import("os")?;
    let path = os.call_method1("fspath", (obj,)).map_err(|_| {
        usage(
            py,
            format!(
                "expected a path (str or os.PathLike), bytes, or a (name, bytes) tuple, found {}",
                obj.get_type()
                    .name()
                    .map_or_else(|_| "an object".into(), |n| n.to_string())
            ),
        )
    })?;
    let path = os.call_method1("fsdecode", (path,))?;
    Ok(Source::Path(path.extract()?))
}

/// The bytes of a `bytes`, `bytearray` or `memoryview`, else `None`.
fn content(obj: &Bound<'_, PyAny>) -> PyResult<Option<Vec<u8>>> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(Some(b.as_bytes().to_vec()));
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok(Some(b.to_vec()));
    }
    if obj.is_instance_of::<PyMemoryView>() {
        let b = obj.call_method0("tobytes")?;
        return Ok(Some(b.cast::<PyBytes>()?.as_bytes().to_vec()));
    }
    Ok(None)
}

/// One input or a list of them (a single path, bytes or tuple is a list of one).
fn sources(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Source>> {
    if obj.is_instance_of::<PyString>()
        || obj.is_instance_of::<PyBytes>()
        || obj.is_instance_of::<PyByteArray>()
        || obj.is_instance_of::<PyTuple>()
        || obj.hasattr("__fspath__")?
    {
        return Ok(vec![source(obj)?]);
    }
    let mut out = Vec::new();
    for item in obj.try_iter()? {
        out.push(source(&item?)?);
    }
    Ok(out)
}

/// Optional input.
fn opt_source(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Source>> {
    match obj {
        Some(o) if !o.is_none() => Ok(Some(source(o)?)),
        _ => Ok(None),
    }
}

/// A `serde_json::Value` as Python objects (`null` → `None`, objects → `dict`, arrays → `list`).
fn to_python<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value;
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(a) => {
            let list = PyList::empty(py);
            for x in a {
                list.append(to_python(py, x)?)?;
            }
            list.into_any()
        }
        Value::Object(o) => {
            let dict = PyDict::new(py);
            for (k, x) in o {
                dict.set_item(k, to_python(py, x)?)?;
            }
            dict.into_any()
        }
    })
}

/// Runs `work` without the GIL, then returns its value as the CLI's JSON, as Python objects.
fn run<'py, T: serde::Serialize + Send>(
    py: Python<'py>,
    work: impl FnOnce() -> Result<T, RunError> + Send,
) -> PyResult<Bound<'py, PyAny>> {
    let value = py
        .detach(|| work().and_then(|out| Ok(serde_json::to_value(&out)?)))
        .map_err(|e| raise(py, e))?;
    to_python(py, &value)
}

/// A Python value for a message: its `repr`, cut at 40 characters.
fn shown(obj: &Bound<'_, PyAny>) -> String {
    let r = obj
        .repr()
        .map_or_else(|_| "an object".to_string(), |r| r.to_string());
    let type_name = obj
        .get_type()
        .name()
        .map_or_else(|_| "object".into(), |n| n.to_string());
    let mut cut: String = r.chars().take(40).collect();
    if r.chars().count() > 40 {
        cut.push('…');
    }
    format!("{cut} ({type_name})")
}

/// A whole-number option (`int`, not `bool`) from `min` to `max`, converted here: a huge or
/// negative `int`, a `float` or a `str` raises `coglab.UsageError` naming the option, where
/// pyo3's conversion raised `OverflowError` or `TypeError` (issue 37).
fn whole(
    py: Python<'_>,
    value: Option<&Bound<'_, PyAny>>,
    name: &'static str,
    min: u64,
    max: u64,
) -> PyResult<Option<u64>> {
    let Some(v) = value.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    let expected = || {
        format!(
            "{name}: expected a whole number from {min} to {max}, found {}",
            shown(v)
        )
    };
    if v.is_instance_of::<PyBool>() || !v.is_instance_of::<PyInt>() {
        return Err(usage(py, expected()));
    }
    match v.extract::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(Some(n)),
        _ => Err(usage(py, expected())),
    }
}

/// A count option checked as the CLI checks it ([`check`]'s message for a count out of range).
fn count(
    py: Python<'_>,
    value: Option<&Bound<'_, PyAny>>,
    name: &'static str,
    min: usize,
    max: usize,
) -> PyResult<Option<usize>> {
    let Some(n) = whole(py, value, name, 0, u64::MAX)? else {
        return Ok(None);
    };
    check(name, n, min, max)
        .map(Some)
        .map_err(|e| usage(py, e.to_string()))
}

/// A number option (`int` or `float`, not `bool` or `str`), converted here: another type, or
/// an `int` too large for a float, raises `coglab.UsageError` naming the option (issue 37).
fn number(
    py: Python<'_>,
    value: Option<&Bound<'_, PyAny>>,
    name: &'static str,
) -> PyResult<Option<f64>> {
    let Some(v) = value.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    let numeric = !v.is_instance_of::<PyBool>()
        && (v.is_instance_of::<PyInt>() || v.is_instance_of::<PyFloat>());
    match v.extract::<f64>() {
        Ok(x) if numeric && x.is_finite() => Ok(Some(x)),
        _ => Err(usage(
            py,
            format!("{name}: expected a finite number, found {}", shown(v)),
        )),
    }
}

/// Score MM-IQ predictions against the answer key, as `coglab score mmiq --answers KEY PRED
/// --json` (with `items=True`, as `--items`: one row per item).
///
/// `answers` and `predictions` are each a path (`str` or `os.PathLike`), `bytes`, or a
/// `(name, bytes)` tuple. The predictions may be MM-IQ's JSONL, a VLMEvalKit table or
/// `_acc.csv`, or another harness's file: lmms-eval samples JSONL (or its `results.json`
/// summary), an Inspect log (`.eval` or `.json`), Every Eval Ever instance records (JSONL) or an
/// aggregate record (JSON); the format is told from the name and the first bytes. Returns the
/// CLI's JSON as a dict. Raises `coglab.InputError` for a file that cannot be read or parsed.
#[pyfunction]
#[pyo3(signature = (answers, predictions, *, items = false))]
fn score_mmiq<'py>(
    py: Python<'py>,
    answers: &Bound<'py, PyAny>,
    predictions: &Bound<'py, PyAny>,
    items: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let key = source(answers)?;
    let pred = source(predictions)?;
    run(py, move || {
        // The key is freed on a thread of its own: freeing 100,000 items one by one takes
        // about 5% of the run, and the caller need not wait for it.
        coglab_run::mmiq::score(&key, &pred, items, |k| {
            std::thread::spawn(move || drop(k));
        })
    })
}

/// Score KiVA model runs and/or the adults' data, or a KiVA challenge result, as
/// `coglab score kiva PATH... --json`.
///
/// `paths`: one path or a list of them (CSV files, or folders searched recursively for
/// `*.csv`; a jsPsych export, CSV or JSON, is read as one person's run; a file of KiVA's
/// Every Eval Ever instance records, as `export_eee(..., kiva=True)` writes them, is read back
/// into the report of the set it was written from, `null` not used), or bytes /
/// `(name, bytes)` tuples (the name is the path, whose folder `output_<Domain>` names the
/// domain). A KiVA challenge annotation JSON with its result file (JSON or CSV), in any order,
/// is scored as the challenge (`human` and `null` are not used). `human`: the adults'
/// `human_adults_KiVA.csv`. `trials=True` keeps one row per trial (`--trials`). `null`:
/// `"wrong"` (default, the KiVA repository's rule) or `"missing"` (`--null`).
#[pyfunction]
#[pyo3(signature = (paths, *, human = None, trials = false, null = "wrong"))]
fn score_kiva<'py>(
    py: Python<'py>,
    paths: &Bound<'py, PyAny>,
    human: Option<&Bound<'py, PyAny>>,
    trials: bool,
    null: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let paths = sources(paths)?;
    let human = opt_source(human)?;
    let null = coglab_core::kiva::NullAnswers::from_name(null).ok_or_else(|| {
        usage(
            py,
            format!("null: expected wrong or missing, found {null:?}"),
        )
    })?;
    run(py, move || {
        coglab_run::kiva::score_any(&paths, human.as_ref(), trials, null)
    })
}

/// Score MM-OPERA judge files, as `coglab score mmopera --task T --metadata META --regular ...
/// --reasoning ... --json`.
///
/// `task`: `"ria"` or `"ica"`. `regular` / `reasoning`: one file or a list (one per judge);
/// at least one of them. The keyword options are the CLI's (`alpha`, `gamma`, `min_length`,
/// `decay` = `"code"` / `"paper"`, `paper_decay` (= `decay="paper"`), `ica_average` = `"items"` /
/// `"paths"`, `exclude_invalid`, `per_label`, `skip_bad_hop_items`, `items`).
#[pyfunction]
#[pyo3(signature = (task, metadata, regular = None, reasoning = None, *, answers = None,
    alpha = None, gamma = None, min_length = None, decay = "code", paper_decay = false,
    ica_average = "items", exclude_invalid = false, per_label = false, skip_bad_hop_items = false,
    items = false))]
#[allow(clippy::too_many_arguments)]
fn score_mmopera<'py>(
    py: Python<'py>,
    task: &str,
    metadata: &Bound<'py, PyAny>,
    regular: Option<&Bound<'py, PyAny>>,
    reasoning: Option<&Bound<'py, PyAny>>,
    answers: Option<&Bound<'py, PyAny>>,
    alpha: Option<&Bound<'py, PyAny>>,
    gamma: Option<&Bound<'py, PyAny>>,
    min_length: Option<&Bound<'py, PyAny>>,
    decay: &str,
    paper_decay: bool,
    ica_average: &str,
    exclude_invalid: bool,
    per_label: bool,
    skip_bad_hop_items: bool,
    items: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let task: Task = task.parse().map_err(|e: String| usage(py, e))?;
    let list = |o: Option<&Bound<'py, PyAny>>| match o {
        Some(o) if !o.is_none() => sources(o),
        _ => Ok(Vec::new()),
    };
    let inputs = MmoperaInputs {
        task,
        metadata: source(metadata)?,
        regular: list(regular)?,
        reasoning: list(reasoning)?,
        answers: opt_source(answers)?,
    };
    let decay = DecayExponent::from_name(decay).ok_or_else(|| {
        usage(
            py,
            format!("decay: expected code or paper, found {decay:?}"),
        )
    })?;
    let ica_average =
        coglab_core::mmopera::score::IcaAverage::from_name(ica_average).ok_or_else(|| {
            usage(
                py,
                format!("ica_average: expected items or paths, found {ica_average:?}"),
            )
        })?;
    let defaults = ScoreOptions::default();
    let options = ScoreOptions {
        alpha: number(py, alpha, "alpha")?.unwrap_or(defaults.alpha),
        gamma: number(py, gamma, "gamma")?.unwrap_or(defaults.gamma),
        decay_exponent: if paper_decay {
            DecayExponent::FromOne
        } else {
            decay
        },
        ica_average,
        invalid_scores: if exclude_invalid {
            InvalidScores::Exclude
        } else {
            InvalidScores::CountAsZero
        },
        invalid_hops: if skip_bad_hop_items {
            InvalidHops::SkipItem
        } else {
            InvalidHops::DropHop
        },
        label_counting: if per_label {
            LabelCounting::PerLabel
        } else {
            LabelCounting::PerItem
        },
        min_answer_length: count(py, min_length, "min_length", 0, usize::MAX)?
            .unwrap_or(defaults.min_answer_length),
    };
    run(py, move || {
        coglab_run::mmopera::score(&inputs, &options, items)
    })
}

/// PLS-SEM analysis of a score matrix (Gold's benchmark-structure diagnostics), as
/// `coglab sem --spec SPEC DATA --json`.
///
/// `spec`: the model specification (JSON); `data`: the score matrix (CSV or JSON). Options as
/// the CLI's: `bootstrap` (2 to 100,000 resamples), `seed` (with `bootstrap`; default 1),
/// `prune`, `missing` (`"listwise"` or `"mean"`), `max_iter` (1 to 100,000).
#[pyfunction]
#[pyo3(signature = (spec, data, *, bootstrap = None, seed = None, prune = false,
    missing = "listwise", max_iter = None))]
#[allow(clippy::too_many_arguments)]
fn sem<'py>(
    py: Python<'py>,
    spec: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    bootstrap: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    prune: bool,
    missing: &str,
    max_iter: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let bootstrap = count(py, bootstrap, "bootstrap", MIN_BOOTSTRAP, MAX_BOOTSTRAP)?;
    let max_iter = count(py, max_iter, "max-iter", 1, MAX_ITERATIONS)?;
    let seed = whole(py, seed, "seed", 0, u64::MAX)?;
    if seed.is_some() && bootstrap.is_none() {
        return Err(usage(py, "sem: seed is used only with bootstrap"));
    }
    let missing = match missing {
        "listwise" => coglab_core::sem::data::Missing::Listwise,
        "mean" => coglab_core::sem::data::Missing::Mean,
        other => {
            return Err(usage(
                py,
                format!("missing: expected \"listwise\" or \"mean\", found {other:?}"),
            ))
        }
    };
    let opts = SemOptions {
        missing,
        bootstrap: bootstrap.map(|resamples| BootstrapOptions {
            resamples,
            seed: seed.unwrap_or(1),
        }),
        prune,
        max_iterations: max_iter,
        ..SemOptions::default()
    };
    let (spec, data) = (source(spec)?, source(data)?);
    run(py, move || coglab_run::sem::sem(&spec, &data, &opts))
}

/// Descriptive statistics of each column of a score matrix, as `coglab describe DATA --json`.
///
/// A column left out although it holds numbers (one non-numeric cell makes it a text column)
/// is named in a `UserWarning`, as the CLI names it on stderr (issue 37).
#[pyfunction]
fn describe<'py>(py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let data = source(data)?;
    let (table, notes) = py
        .detach(|| coglab_run::sem::describe_with_notes(&data))
        .map_err(|e| raise(py, e))?;
    for note in &notes {
        let text = std::ffi::CString::new(note.replace('\0', "\\0")).unwrap_or_default();
        // Level 3: the caller of `coglab.describe` (this is called by its wrapper's `_call`).
        PyErr::warn(
            py,
            &py.get_type::<pyo3::exceptions::PyUserWarning>(),
            &text,
            3,
        )?;
    }
    let value = serde_json::to_value(&table).map_err(|e| raise(py, e.into()))?;
    to_python(py, &value)
}

/// The models of a board (`rank`'s and `plan`'s `files`): a list of entries, each a path
/// (`"NAME=PATH"` names the model, as on the command line), bytes or a `(name, bytes)` tuple;
/// or a mapping `{model name: path or bytes}`.
fn board_entries(files: &Bound<'_, PyAny>) -> PyResult<Vec<RankEntry>> {
    let mut entries = Vec::new();
    if let Ok(map) = files.cast::<PyMapping>() {
        for item in map.items()?.iter() {
            let (name, value): (String, Bound<'_, PyAny>) = item.extract()?;
            entries.push(RankEntry {
                name: Some(name),
                source: source(&value)?,
            });
        }
    } else {
        for item in files.try_iter()? {
            let item = item?;
            if let Ok(s) = item.extract::<String>() {
                entries.push(RankEntry::parse(&s));
            } else {
                // Bytes, or a (file name, bytes) tuple: the model's name is guessed from the
                // file name, as from a path.
                entries.push(RankEntry {
                    name: None,
                    source: source(&item)?,
                });
            }
        }
    }
    Ok(entries)
}

/// A leaderboard with paired tests, adjusted p-values, rank ranges and groups, as
/// `coglab rank BENCH FILES... --json`.
///
/// `bench`: `"mmiq"`, `"kiva"` or `"mmopera"`. `files`: a list of entries, one per model: a
/// path (`"NAME=PATH"` names the model, as on the command line), bytes or a `(name, bytes)`
/// tuple; or a mapping `{model name: path or bytes}`. Options as the CLI's.
#[pyfunction]
#[pyo3(signature = (bench, files, *, answers = None, metadata = None, answered_only = false,
    test = None, adjust = None, alpha = None, resamples = None, seed = None,
    bootstrap_ranks = false, stage = None))]
#[allow(clippy::too_many_arguments)]
fn rank<'py>(
    py: Python<'py>,
    bench: &str,
    files: &Bound<'py, PyAny>,
    answers: Option<&Bound<'py, PyAny>>,
    metadata: Option<&Bound<'py, PyAny>>,
    answered_only: bool,
    test: Option<&str>,
    adjust: Option<&str>,
    alpha: Option<&Bound<'py, PyAny>>,
    resamples: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    bootstrap_ranks: bool,
    stage: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let bench_kind = Bench::parse(bench).ok_or_else(|| {
        usage(
            py,
            format!("rank: unknown benchmark {bench:?} (mmiq, kiva or mmopera)"),
        )
    })?;
    let defaults = BoardOptions::default();
    let board = BoardOptions {
        missing: if answered_only {
            Missing::AnsweredOnly
        } else {
            Missing::Wrong
        },
        test: match test {
            Some(t) => Some(PairTest::parse(t).ok_or_else(|| {
                usage(py, format!("test: {t:?} is not mcnemar, midp or wilcoxon"))
            })?),
            None => None,
        },
        adjust: match adjust {
            Some(s) => Adjust::parse(s)
                .ok_or_else(|| usage(py, format!("adjust: {s:?} is not holm, bh or none")))?,
            None => defaults.adjust,
        },
        alpha: number(py, alpha, "alpha")?.unwrap_or(defaults.alpha),
        resamples: count(py, resamples, "resamples", 1, MAX_RESAMPLES)?
            .unwrap_or(defaults.resamples),
        seed: whole(py, seed, "seed", 0, u64::MAX)?.unwrap_or(defaults.seed),
        range: if bootstrap_ranks {
            RankRange::Bootstrap
        } else {
            RankRange::Tests
        },
        ..defaults
    };
    if !(board.alpha > 0.0 && board.alpha < 1.0) {
        return Err(usage(
            py,
            format!("alpha: {} is not between 0 and 1", board.alpha),
        ));
    }
    let stage = match stage {
        Some(s) => KivaStage::parse(s).ok_or_else(|| {
            usage(
                py,
                format!(
                    "stage: {s:?} is not cross, within_joint, within_conditional or extrapolation"
                ),
            )
        })?,
        None => KivaStage::Cross,
    };
    let entries = board_entries(files)?;
    let request = RankRequest {
        bench: bench_kind,
        answers: opt_source(answers)?,
        metadata: opt_source(metadata)?,
        entries,
        stage,
        board,
    };
    run(py, move || coglab_run::rank::rank(&request))
}

/// Item analysis across models and humans (classical statistics, Rasch/2PL, flags, a reduced
/// subset), as `coglab items INPUT... --json`.
///
/// `inputs`: one response-matrix CSV; KiVA run folders and/or `human_adults_KiVA.csv`; or MM-IQ
/// predictions files with `answers=KEY`. Options as the CLI's: `model` (`"rasch"` or `"2pl"`),
/// `stage` (`"all"`, `"cross"`, `"within"`, `"extrapolation"`), `threshold`, `per_subdomain`,
/// `subset` (`"information"`, `"discrimination"`, `"none"`), `tau`, `curves`; `report=True`
/// gives the page-sized summary instead, as `coglab items INPUT... --json --report`.
#[pyfunction]
#[pyo3(signature = (inputs, *, answers = None, model = None, stage = None, threshold = None,
    per_subdomain = false, subset = None, tau = None, curves = false, report = false))]
#[allow(clippy::too_many_arguments)]
fn items<'py>(
    py: Python<'py>,
    inputs: &Bound<'py, PyAny>,
    answers: Option<&Bound<'py, PyAny>>,
    model: Option<&str>,
    stage: Option<&str>,
    threshold: Option<&Bound<'py, PyAny>>,
    per_subdomain: bool,
    subset: Option<&str>,
    tau: Option<&Bound<'py, PyAny>>,
    curves: bool,
    report: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let mut request = ItemsRequest {
        answers: opt_source(answers)?,
        inputs: sources(inputs)?,
        curves,
        per_subdomain,
        ..ItemsRequest::default()
    };
    if let Some(m) = model {
        request.model = IrtModel::parse(m).map_err(|e| usage(py, e.to_string()))?;
    }
    if let Some(s) = stage {
        request.stage = match s {
            "all" => KivaStages::All,
            "cross" => KivaStages::Cross,
            "within" => KivaStages::Within,
            "extrapolation" => KivaStages::Extrapolation,
            _ => {
                return Err(usage(
                    py,
                    format!("stage: expected all, cross, within or extrapolation, found {s:?}"),
                ))
            }
        };
    }
    if let Some(t) = number(py, threshold, "threshold")? {
        request.threshold = t;
    }
    if let Some(t) = number(py, tau, "tau")? {
        request.target_tau = t;
    }
    if let Some(s) = subset {
        request.subset = match s {
            "information" => Some(SubsetCriterion::Information),
            "discrimination" => Some(SubsetCriterion::Discrimination),
            "none" => None,
            _ => {
                return Err(usage(
                    py,
                    format!("subset: expected information, discrimination or none, found {s:?}"),
                ))
            }
        };
    }
    if request.inputs.is_empty() {
        return Err(usage(
            py,
            "items: give a response-matrix CSV, KiVA run folders and/or the adults' CSV, \
             or MM-IQ predictions files with answers=KEY",
        ));
    }
    if report {
        return run(py, move || coglab_run::items::report(&request));
    }
    run(py, move || coglab_run::items::items(&request))
}

/// A partial run's estimated accuracy over the whole benchmark, as `coglab estimate
/// --calibration FULL.csv PARTIAL.csv --json` (issue 40): `{"estimates": [{"id", "answered",
/// "observed", "estimate", "ci_low", "ci_high"}], "calibration": {"items", "respondents",
/// "model"}}`. `options`: answer options per item (the guessing floor is 1/options; 0: none;
/// default 4); `min_calibration`: fewest calibration respondents (default 20).
#[pyfunction]
#[pyo3(signature = (partial, *, calibration, options = None, min_calibration = None))]
fn estimate<'py>(
    py: Python<'py>,
    partial: &Bound<'py, PyAny>,
    calibration: &Bound<'py, PyAny>,
    options: Option<&Bound<'py, PyAny>>,
    min_calibration: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let request = coglab_run::estimate::EstimateRequest {
        calibration: vec![source(calibration)?],
        partial: vec![source(partial)?],
        answers: None,
        stage: KivaStages::Cross,
        options: whole(py, options, "options", 0, u64::from(u32::MAX))?.unwrap_or(4) as u32,
        min_calibration: whole(py, min_calibration, "min_calibration", 0, u64::MAX)?
            .map(|n| n as usize),
    };
    if request.options == 1 {
        return Err(usage(
            py,
            "options: expected 0 (no guessing) or at least 2, found 1",
        ));
    }
    run(py, move || coglab_run::estimate::estimate(&request))
}

/// The items a board needs to tell apart a difference `mde`, as `coglab plan BENCH FILES...
/// --mde D --json` (issue 40): Connor's items per pair from the observed discordance (McNemar
/// boards) or the paired normal formula (score boards), the exact test's power at that count,
/// and the regenerations' variance split. `files` as `rank`'s; `power` (default 0.8), `alpha`
/// (default 0.05), `answered_only`, `test`, `stage` as the CLI's.
#[pyfunction]
#[pyo3(signature = (bench, files, *, mde, answers = None, metadata = None, power = None,
    alpha = None, answered_only = false, test = None, stage = None))]
#[allow(clippy::too_many_arguments)]
fn plan<'py>(
    py: Python<'py>,
    bench: &str,
    files: &Bound<'py, PyAny>,
    mde: &Bound<'py, PyAny>,
    answers: Option<&Bound<'py, PyAny>>,
    metadata: Option<&Bound<'py, PyAny>>,
    power: Option<&Bound<'py, PyAny>>,
    alpha: Option<&Bound<'py, PyAny>>,
    answered_only: bool,
    test: Option<&str>,
    stage: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let bench_kind = Bench::parse(bench).ok_or_else(|| {
        usage(
            py,
            format!("plan: unknown benchmark {bench:?} (mmiq, kiva or mmopera)"),
        )
    })?;
    if bench_kind == Bench::Mmiq && answers.is_none_or(|a| a.is_none()) {
        return Err(usage(py, "plan mmiq: answers=KEY is required"));
    }
    let defaults = BoardOptions::default();
    let mde = number(py, Some(mde), "mde")?.unwrap_or(f64::NAN);
    let power = number(py, power, "power")?.unwrap_or(defaults.power);
    let alpha = number(py, alpha, "alpha")?.unwrap_or(defaults.alpha);
    for (name, v) in [("mde", mde), ("power", power), ("alpha", alpha)] {
        if !(v > 0.0 && v < 1.0) {
            return Err(usage(py, format!("{name}: {v} is not between 0 and 1")));
        }
    }
    let test =
        match test {
            Some(t) => Some(PairTest::parse(t).ok_or_else(|| {
                usage(py, format!("test: {t:?} is not mcnemar, midp or wilcoxon"))
            })?),
            None => None,
        };
    let stage = match stage {
        Some(s) => KivaStage::parse(s).ok_or_else(|| {
            usage(
                py,
                format!(
                    "stage: {s:?} is not cross, within_joint, within_conditional or extrapolation"
                ),
            )
        })?,
        None => KivaStage::Cross,
    };
    let entries = board_entries(files)?;
    let request = RankRequest {
        bench: bench_kind,
        answers: opt_source(answers)?,
        metadata: opt_source(metadata)?,
        entries,
        stage,
        board: BoardOptions {
            missing: if answered_only {
                Missing::AnsweredOnly
            } else {
                Missing::Wrong
            },
            test,
            alpha,
            power,
            resamples: 0,
            ..defaults
        },
    };
    run(py, move || coglab_run::rank::plan(&request, mde))
}

/// The `k` anchor items that estimate the full score best, as `coglab items INPUT... --subset
/// anchor --k K --json` (issue 40): `{"anchors": [{"id", "index", "weight", "a", "b"}],
/// "method", "predicted_sd", "calibration", "notes"}`. `method`: `"information"` (default) or
/// `"cluster"`; `options` (default 4); inputs and `answers`, `stage`, `threshold`,
/// `per_subdomain` as `items`'.
#[pyfunction]
#[pyo3(signature = (inputs, *, k, method = None, options = None, answers = None, stage = None,
    threshold = None, per_subdomain = false))]
#[allow(clippy::too_many_arguments)]
fn anchors<'py>(
    py: Python<'py>,
    inputs: &Bound<'py, PyAny>,
    k: &Bound<'py, PyAny>,
    method: Option<&str>,
    options: Option<&Bound<'py, PyAny>>,
    answers: Option<&Bound<'py, PyAny>>,
    stage: Option<&str>,
    threshold: Option<&Bound<'py, PyAny>>,
    per_subdomain: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let mut request = ItemsRequest {
        answers: opt_source(answers)?,
        inputs: sources(inputs)?,
        per_subdomain,
        ..ItemsRequest::default()
    };
    if let Some(s) = stage {
        request.stage = match s {
            "all" => KivaStages::All,
            "cross" => KivaStages::Cross,
            "within" => KivaStages::Within,
            "extrapolation" => KivaStages::Extrapolation,
            _ => {
                return Err(usage(
                    py,
                    format!("stage: expected all, cross, within or extrapolation, found {s:?}"),
                ))
            }
        };
    }
    if let Some(t) = number(py, threshold, "threshold")? {
        request.threshold = t;
    }
    let anchor = coglab_run::items::AnchorRequest {
        k: whole(py, Some(k), "k", 1, u64::MAX)?.unwrap_or(1) as usize,
        method: match method {
            None => coglab_core::items::anchor::AnchorMethod::Information,
            Some(m) => coglab_core::items::anchor::AnchorMethod::parse(m)
                .map_err(|e| usage(py, e.to_string()))?,
        },
        options: whole(py, options, "options", 0, u64::from(u32::MAX))?.unwrap_or(4) as u32,
    };
    if request.inputs.is_empty() {
        return Err(usage(
            py,
            "anchors: give a response-matrix CSV or result files",
        ));
    }
    run(py, move || coglab_run::items::anchors(&request, &anchor))
}

/// Score sets and write them as Every Eval Ever 0.3.0 records, as `coglab export eee
/// --answers KEY SCORED... [--out DIR]` (MM-IQ) or `coglab export eee --kiva RUN... [--out
/// DIR]` (KiVA).
///
/// MM-IQ (`answers=KEY`): each of `scored` (one input or a list: any predictions or harness
/// file `score_mmiq` takes, except a summary) is one set. KiVA (`kiva=True`, no `answers`): the
/// inputs are one run's CSV files or folders, or one person's data, scored as `score_kiva`
/// scores them, and make one set. `model` names the model (one set only; default: named by the
/// file, else guessed from its path); `timestamp` is the `retrieved_timestamp` written (Unix
/// seconds; default: now). With `out`, each set is also written as the CLI writes it:
/// `out/<model>/<stem>.json` (aggregate) and `.jsonl` (instances), byte for byte the same.
///
/// Returns one dict per set: `benchmark` (`"mmiq"` or `"kiva"`), `file` (the input), `model`,
/// `evaluation_id`, `count` (items or trials scored), `aggregate` (the aggregate record),
/// `instances` (the instance records, a list), and `paths` (`{"aggregate": ..., "instances":
/// ..., "notes": [...]}` with `out`, else `None`). As the CLI, `<model>` is one safe folder
/// name inside `out` and a file name taken is suffixed (`_2`), never overwritten; `notes` says
/// what was renamed and why.
#[pyfunction]
#[pyo3(signature = (scored, *, answers = None, kiva = false, out = None, model = None,
    timestamp = None))]
fn export_eee<'py>(
    py: Python<'py>,
    scored: &Bound<'py, PyAny>,
    answers: Option<&Bound<'py, PyAny>>,
    kiva: bool,
    out: Option<&Bound<'py, PyAny>>,
    model: Option<String>,
    timestamp: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    use coglab_run::export::{EeeBench, EeeRequest};
    let answers = opt_source(answers)?;
    match (&answers, kiva) {
        (Some(_), true) => {
            return Err(usage(
                py,
                "export_eee: answers is for MM-IQ and kiva for KiVA; give one",
            ))
        }
        (None, false) => {
            return Err(usage(
                py,
                "export_eee: give answers=KEY (MM-IQ) or kiva=True (a KiVA run)",
            ))
        }
        _ => {}
    }
    let out = match out {
        Some(o) if !o.is_none() => {
            let path = py.import("os")?.call_method1("fsdecode", (o,))?;
            Some(std::path::PathBuf::from(path.extract::<String>()?))
        }
        _ => None,
    };
    let request = EeeRequest {
        answers,
        scored: sources(scored)?,
        model,
        timestamp: whole(py, timestamp, "timestamp", 0, u64::MAX)?.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
        }),
    };
    let sets = py
        .detach(|| {
            let mut sets = Vec::new();
            let mut writer = out.as_deref().map(coglab_run::export::SetWriter::new);
            coglab_run::export::eee(&request, |set| {
                let paths = match &mut writer {
                    Some(w) => Some(w.write(&set)?),
                    None => None,
                };
                sets.push((set, paths));
                Ok(())
            })
            .map(|()| sets)
        })
        .map_err(|e| raise(py, e))?;
    // The records are parsed by Python's `json` (serde_json's default float parsing may be one
    // unit in the last place off, and the records must equal the files read back).
    let loads = py.import("json")?.getattr("loads")?;
    let list = PyList::empty(py);
    for (set, paths) in sets {
        let dict = PyDict::new(py);
        let bench = match set.bench {
            EeeBench::Mmiq => "mmiq",
            EeeBench::Kiva => "kiva",
            EeeBench::Mmopera => "mmopera",
            EeeBench::Gold => "gold",
        };
        dict.set_item("benchmark", bench)?;
        dict.set_item("file", &set.source)?;
        dict.set_item("model", &set.model)?;
        dict.set_item("evaluation_id", &set.records.evaluation_id)?;
        dict.set_item("count", set.count)?;
        dict.set_item("aggregate", loads.call1((&set.records.aggregate,))?)?;
        let instances = PyList::empty(py);
        for line in set.records.instances.lines() {
            instances.append(loads.call1((line,))?)?;
        }
        dict.set_item("instances", instances)?;
        match paths {
            Some(written) => {
                let p = PyDict::new(py);
                p.set_item("aggregate", written.aggregate.to_string_lossy())?;
                p.set_item(
                    "instances",
                    written.instances.as_ref().map(|i| i.to_string_lossy()),
                )?;
                p.set_item("notes", written.notes)?;
                dict.set_item("paths", p)?;
            }
            None => dict.set_item("paths", py.None())?,
        }
        list.append(dict)?;
    }
    Ok(list.into_any())
}

/// The KiVA self-test's adaptive or fixed form on simulated takers, as `coglab selftest
/// simulate --json`: `{"form", "trials", "takers", "rmse", "mean_se", "coverage"}` on the
/// ability scale. `form`: `"adaptive"` or `"fixed"`; `bank`: a bank file (path, bytes or
/// `(name, bytes)`; default the bank the app ships). Options as the CLI's.
#[pyfunction]
#[pyo3(signature = (*, form = "adaptive", trials = None, takers = None, seed = None,
    randomesque = None, max_per_subdomain = None, target_se = None, bank = None))]
#[allow(clippy::too_many_arguments)]
fn selftest_simulate<'py>(
    py: Python<'py>,
    form: &str,
    trials: Option<&Bound<'py, PyAny>>,
    takers: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    randomesque: Option<&Bound<'py, PyAny>>,
    max_per_subdomain: Option<&Bound<'py, PyAny>>,
    target_se: Option<&Bound<'py, PyAny>>,
    bank: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    use coglab_core::selftest::adaptive::{
        FormKind, FormOptions, SimulateOptions, MAX_TAKERS, MAX_TRIALS,
    };
    let kind = FormKind::parse(form).map_err(|e| usage(py, e.to_string()))?;
    let trials = whole(py, trials, "trials", 1, MAX_TRIALS as u64)?.unwrap_or(14);
    let mut opts = FormOptions::of(kind, trials as usize);
    if let Some(k) = whole(py, randomesque, "randomesque", 1, 14)? {
        opts.randomesque = k as usize;
    }
    if let Some(m) = whole(
        py,
        max_per_subdomain,
        "max_per_subdomain",
        1,
        MAX_TRIALS as u64,
    )? {
        opts.max_per_subdomain = m as usize;
    }
    opts.target_se = number(py, target_se, "target_se")?;
    let request = SimulateOptions {
        form: opts,
        takers: whole(py, takers, "takers", 1, MAX_TAKERS as u64)?.unwrap_or(2000) as usize,
        seed: whole(py, seed, "seed", 0, u64::MAX)?.unwrap_or(1),
    };
    let bank = opt_source(bank)?;
    run(py, move || {
        coglab_run::selftest::simulate(bank.as_ref(), &request)
    })
}

/// The KiVA self-test's item bank as a dict (`public/data/kiva-bank.json`: source, method,
/// the 42 items' `a` and `b`, the adults' abilities, the model runs on the same scale), or a
/// bank file given as `bank`, checked as `selftest_simulate` checks it.
#[pyfunction]
#[pyo3(signature = (bank = None))]
fn selftest_bank<'py>(
    py: Python<'py>,
    bank: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let bank = opt_source(bank)?;
    run(py, move || coglab_run::selftest::bank(bank.as_ref()))
}

/// The native part of the `coglab` package (import `coglab`, not this module).
#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(score_mmiq, m)?)?;
    m.add_function(wrap_pyfunction!(score_kiva, m)?)?;
    m.add_function(wrap_pyfunction!(score_mmopera, m)?)?;
    m.add_function(wrap_pyfunction!(sem, m)?)?;
    m.add_function(wrap_pyfunction!(describe, m)?)?;
    m.add_function(wrap_pyfunction!(rank, m)?)?;
    m.add_function(wrap_pyfunction!(items, m)?)?;
    m.add_function(wrap_pyfunction!(estimate, m)?)?;
    m.add_function(wrap_pyfunction!(plan, m)?)?;
    m.add_function(wrap_pyfunction!(anchors, m)?)?;
    m.add_function(wrap_pyfunction!(export_eee, m)?)?;
    m.add_function(wrap_pyfunction!(selftest_simulate, m)?)?;
    m.add_function(wrap_pyfunction!(selftest_bank, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
