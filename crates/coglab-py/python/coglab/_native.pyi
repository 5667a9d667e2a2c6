"""Type stubs of coglab's native module (re-exported by ``coglab``)."""

import os
from typing import Any, Dict, Iterable, List, Mapping, Optional, Tuple, Union

Content = Union[bytes, bytearray, memoryview]
#: A pyarrow Table / RecordBatch / RecordBatchReader, a pandas DataFrame, or any object with
#: ``__arrow_c_stream__``, with the file's columns (converted by the ``coglab`` wrappers).
Table = Any
#: A path, content named ``<bytes>``, ``(name, content)``, a table or ``(name, table)``.
Input = Union[str, "os.PathLike[str]", Content, Tuple[str, Content], Table, Tuple[str, Table]]
Inputs = Union[Input, Iterable[Input]]
#: A ``coglab.Result``: a dict with ``to_arrow()``, ``to_frame()`` and ``tables()``.
Result = Dict[str, Any]

__version__: str

def score_mmiq(answers: Input, predictions: Input, *, items: bool = ...) -> Result:
    """MM-IQ accuracy by category, as ``coglab score mmiq --answers KEY PRED --json``.

    ``predictions``: MM-IQ JSONL, a VLMEvalKit table or ``_acc.csv``, an lmms-eval samples JSONL
    or ``results.json``, an Inspect log (``.eval`` or ``.json``), or Every Eval Ever instance
    records (JSONL or Parquet) or an aggregate record (JSON); MM-IQ's own columns as Parquet
    (predictions and the answer key); told from the name and the first bytes."""

def score_kiva(
    paths: Inputs, *, human: Optional[Input] = ..., trials: bool = ..., null: str = ...
) -> Result:
    """KiVA scores, as ``coglab score kiva PATH... --json``: model-run CSVs or folders, the
    adults' file, a jsPsych export (CSV or JSON), KiVA's Every Eval Ever instance records
    (JSONL, as ``export_eee(..., kiva=True)`` writes them; read back, ``null`` not used), or a
    KiVA challenge annotation JSON with its result file (JSON or CSV)."""

def export_eee(
    scored: Inputs,
    *,
    answers: Optional[Input] = ...,
    kiva: bool = ...,
    out: Optional[Union[str, "os.PathLike[str]"]] = ...,
    model: Optional[str] = ...,
    timestamp: Optional[int] = ...,
) -> List[Result]:
    """Every Eval Ever 0.3.0 records, as ``coglab export eee (--answers KEY | --kiva) SCORED...
    [--out DIR]``: one dict per set (``benchmark``, ``file``, ``model``, ``evaluation_id``,
    ``count``, ``aggregate``, ``instances``, ``paths``). With ``out``, each set is also written
    as the CLI writes it: ``out/<model>/<stem>.json`` and ``.jsonl``, the same bytes (``<model>``
    one safe folder name inside ``out``; a name taken suffixed ``_2``, said in
    ``paths["notes"]``)."""

def score_mmopera(
    task: str,
    metadata: Input,
    regular: Optional[Inputs] = ...,
    reasoning: Optional[Inputs] = ...,
    *,
    answers: Optional[Input] = ...,
    alpha: Optional[float] = ...,
    gamma: Optional[float] = ...,
    min_length: Optional[int] = ...,
    decay: str = ...,
    paper_decay: bool = ...,
    ica_average: str = ...,
    exclude_invalid: bool = ...,
    per_label: bool = ...,
    skip_bad_hop_items: bool = ...,
    items: bool = ...,
) -> Result:
    """MM-OPERA holistic and process-reward scores, as ``coglab score mmopera ... --json``."""

def sem(
    spec: Input,
    data: Input,
    *,
    bootstrap: Optional[int] = ...,
    seed: Optional[int] = ...,
    prune: bool = ...,
    missing: str = ...,
    max_iter: Optional[int] = ...,
) -> Result:
    """PLS-SEM analysis, as ``coglab sem --spec SPEC DATA --json``."""

def describe(data: Input) -> Result:
    """Descriptive statistics per column, as ``coglab describe DATA --json``."""

def rank(
    bench: str,
    files: Union[Iterable[Input], Mapping[str, Input]],
    *,
    answers: Optional[Input] = ...,
    metadata: Optional[Input] = ...,
    answered_only: bool = ...,
    test: Optional[str] = ...,
    adjust: Optional[str] = ...,
    alpha: Optional[float] = ...,
    resamples: Optional[int] = ...,
    seed: Optional[int] = ...,
    bootstrap_ranks: bool = ...,
    stage: Optional[str] = ...,
) -> Result:
    """A leaderboard with paired tests and rank ranges, as ``coglab rank BENCH FILES... --json``."""

def items(
    inputs: Inputs,
    *,
    answers: Optional[Input] = ...,
    model: Optional[str] = ...,
    stage: Optional[str] = ...,
    threshold: Optional[float] = ...,
    per_subdomain: bool = ...,
    subset: Optional[str] = ...,
    tau: Optional[float] = ...,
    curves: bool = ...,
    report: bool = ...,
) -> Result:
    """Item analysis (classical, Rasch/2PL, flags, reduced subset), as ``coglab items ... --json``
    (``report=True``: the page-sized summary, as ``--json --report``)."""

def estimate(
    partial: Input,
    *,
    calibration: Input,
    options: Optional[int] = ...,
    min_calibration: Optional[int] = ...,
) -> Result:
    """A partial run's estimated accuracy over every item of the benchmark, as
    ``coglab estimate --calibration FULL.csv PARTIAL.csv --json``."""

def plan(
    bench: str,
    files: Inputs,
    *,
    mde: float,
    answers: Optional[Input] = ...,
    metadata: Optional[Input] = ...,
    power: Optional[float] = ...,
    alpha: Optional[float] = ...,
    answered_only: bool = ...,
    test: Optional[str] = ...,
    stage: Optional[str] = ...,
) -> Result:
    """Items needed to tell apart a difference ``mde``, as ``coglab plan ... --json``."""

def anchors(
    inputs: Inputs,
    *,
    k: int,
    method: Optional[str] = ...,
    options: Optional[int] = ...,
    answers: Optional[Input] = ...,
    stage: Optional[str] = ...,
    threshold: Optional[float] = ...,
    per_subdomain: bool = ...,
) -> Result:
    """The ``k`` anchor items that estimate the full score best, as
    ``coglab items ... --subset anchor --k K --json``."""

def selftest_simulate(
    *,
    form: str = ...,
    trials: Optional[int] = ...,
    takers: Optional[int] = ...,
    seed: Optional[int] = ...,
    randomesque: Optional[int] = ...,
    max_per_subdomain: Optional[int] = ...,
    target_se: Optional[float] = ...,
    bank: Optional[Input] = ...,
) -> Result:
    """The KiVA self-test's ``"adaptive"`` or ``"fixed"`` form on simulated takers, as ``coglab
    selftest simulate --json``: ``form``, ``trials``, ``takers``, ``rmse``, ``mean_se``,
    ``coverage`` (ability scale)."""

def selftest_bank(bank: Optional[Input] = ...) -> Result:
    """The KiVA self-test's item bank (the app's ``kiva-bank.json``, or ``bank``) as a dict."""
