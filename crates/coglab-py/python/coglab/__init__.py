"""coglab: score cognitive benchmarks of multimodal models (MM-IQ, KiVA, MM-OPERA, Gold).

The same scorers as the coglab site and the ``coglab`` command, from Python. Each function
returns a dict (a ``coglab.Result``) with the same fields as the matching command's ``--json``
output:

- ``score_mmiq(answers, predictions)``            ``coglab score mmiq``
- ``score_kiva(paths, human=None)``                ``coglab score kiva``
- ``score_mmopera(task, metadata, regular, reasoning=None)``  ``coglab score mmopera``
- ``sem(spec, data)`` and ``describe(data)``       ``coglab sem`` / ``coglab describe``
- ``rank(bench, files, ...)``                      ``coglab rank``
- ``items(inputs, ...)``                           ``coglab items``
- ``anchors(inputs, k=, ...)``                     ``coglab items --subset anchor --k K``
- ``estimate(partial, calibration=, ...)``         ``coglab estimate``
- ``plan(bench, files, mde=, ...)``                ``coglab plan``
- ``export_eee(scored, answers=KEY or kiva=True, out=None)``  ``coglab export eee``
- ``selftest_simulate(form=, trials=, takers=, seed=)``   ``coglab selftest simulate``
- ``selftest_bank(bank=None)``                     the KiVA self-test's item bank

``score_mmiq`` also reads other harnesses' files (lmms-eval samples and ``results.json``,
Inspect ``.eval`` / ``.json`` logs, VLMEvalKit tables, Every Eval Ever records), and
``score_kiva`` jsPsych exports, KiVA's Every Eval Ever instance records (read back into the
report of the set they were written from) and KiVA challenge results with their annotations.
``export_eee`` returns each scored set's Every Eval Ever records as Python data and, with
``out=DIR``, writes them as the CLI does.

Inputs are paths (``str`` or ``os.PathLike``), ``bytes`` (named ``<bytes>`` in messages), or
``(name, bytes)`` tuples; a Parquet file or an Arrow IPC file or stream (told from their
content, as the CLI tells them) is read as the JSONL of the same rows: MM-IQ answer keys and predictions, Every Eval Ever instance
records, lmms-eval samples.
Tables with the file's columns are taken too: a ``pyarrow.Table``, ``pyarrow.RecordBatch`` or
``pyarrow.RecordBatchReader``, a pandas DataFrame, any object with ``__arrow_c_stream__``, or
``(name, table)`` (a KiVA run file's name tells its domain: ``("output_Colour/ColourRed.csv",
df)``). A table's rows are the rows of a JSONL file (MM-IQ answer keys and predictions, harness
records: handed to the core as a Parquet file written in memory) or of a CSV file (KiVA runs,
response and score matrices); MM-OPERA metadata is a table of its records and a judge file a
table with an ``id`` column (see ``coglab._inputs``). Table inputs need pyarrow
(``pip install 'coglab[arrow]'``).
The GIL is released while files are read, parsed and scored, so threads scale. Errors are
``coglab.InputError`` / ``coglab.UsageError`` (both ``coglab.CoglabError``, a ``ValueError``)
with ``file``, ``line``, ``field``, ``expected`` and ``found``; on a table, ``file`` is
``<pyarrow.Table: PARAM>`` (or the name given) and ``row`` its 0-based row, and a column the
format needs and the table lacks is named with the table's columns.

Each result is a ``coglab.Result``, a ``dict`` with its tables as frames:
``result.to_arrow(table=None)`` gives one table as a ``pyarrow.Table`` (typed columns: ``int64``
counts, ``float64`` figures, ``string`` names, nullable; built without pandas; needs
``coglab[arrow]``), ``result.to_frame(table=None)`` as a pandas DataFrame (through Arrow when
pyarrow is installed), ``result.tables()`` lists them; ``coglab.to_arrow(result, table)``,
``coglab.to_frame(result, table)`` and ``coglab.tables(result)`` do the same for any dict.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, TypeVar

from . import _native
from ._errors import CoglabError, InputError, UsageError
from ._inputs import Tables
from ._native import __version__
from ._tables import Result, tables, to_arrow, to_frame

__all__ = [
    "CoglabError",
    "InputError",
    "Result",
    "UsageError",
    "anchors",
    "describe",
    "estimate",
    "export_eee",
    "items",
    "plan",
    "rank",
    "score_kiva",
    "score_mmiq",
    "score_mmopera",
    "selftest_bank",
    "selftest_simulate",
    "sem",
    "tables",
    "to_arrow",
    "to_frame",
    "__version__",
]

F = TypeVar("F", bound=Callable[..., Any])

# The format of a table given as one model's file to `rank` and `plan`, by benchmark (MM-IQ:
# predictions, as Parquet).
_BOARD_FORMAT = {"kiva": "csv", "mmopera": "keyed"}


def _result(value: Any) -> Any:
    if isinstance(value, dict):
        return Result(value)
    if isinstance(value, list):
        return [Result(v) if isinstance(v, dict) else v for v in value]
    return value


def _call(native: Callable[..., Any], convert: Callable[[Tables], tuple]) -> Any:
    """Converts the table inputs, calls the native function, wraps its result, and says an
    error on a table in the table's terms."""
    t = Tables()
    try:
        args, kwargs = convert(t)
        return _result(native(*args, **kwargs))
    except CoglabError as e:
        translated = t.translate(e)
        if translated is e:
            raise
        raise translated.with_traceback(e.__traceback__) from None


def _wraps(native: Callable[..., Any]) -> Callable[[F], F]:
    """The native function's name and docstring, with a line on table inputs and results."""

    def deco(f: F) -> F:
        f = functools.wraps(native)(f)
        f.__doc__ = (native.__doc__ or "") + (
            "\n\nEach input may also be a table (pyarrow Table / RecordBatchReader, pandas "
            "DataFrame) with the file's columns; the result is a ``coglab.Result`` (a dict with "
            "``to_arrow()`` and ``to_frame()``)."
        )
        return f

    return deco


@_wraps(_native.score_mmiq)
def score_mmiq(answers: Any, predictions: Any, *, items: bool = False) -> Any:
    return _call(_native.score_mmiq, lambda t: (
        (t.one(answers, "answers", "parquet"), t.one(predictions, "predictions", "parquet")),
        {"items": items}))


@_wraps(_native.score_kiva)
def score_kiva(paths: Any, *, human: Any = None, **options: Any) -> Any:
    return _call(_native.score_kiva, lambda t: (
        (t.many(paths, "paths", "csv"),), {"human": t.one(human, "human", "csv"), **options}))


@_wraps(_native.score_mmopera)
def score_mmopera(task: str, metadata: Any, regular: Any = None, reasoning: Any = None,
                  **options: Any) -> Any:
    judge = "keyed-list" if str(task).lower() == "ica" else "keyed"
    return _call(_native.score_mmopera, lambda t: (
        (task, t.one(metadata, "metadata", "json"), t.many(regular, "regular", judge),
         t.many(reasoning, "reasoning", "keyed")), options))


@_wraps(_native.sem)
def sem(spec: Any, data: Any, **options: Any) -> Any:
    return _call(_native.sem, lambda t: ((spec, t.one(data, "data", "csv")), options))


@_wraps(_native.describe)
def describe(data: Any) -> Any:
    return _call(_native.describe, lambda t: ((t.one(data, "data", "csv"),), {}))


@_wraps(_native.rank)
def rank(bench: str, files: Any, *, answers: Any = None, metadata: Any = None,
         **options: Any) -> Any:
    fmt = _BOARD_FORMAT.get(str(bench).lower(), "parquet")
    return _call(_native.rank, lambda t: (
        (bench, t.many(files, "files", fmt)),
        {"answers": t.one(answers, "answers", "parquet"),
         "metadata": t.one(metadata, "metadata", "json"), **options}))


@_wraps(_native.items)
def items(inputs: Any, *, answers: Any = None, **options: Any) -> Any:
    fmt = "csv" if answers is None else "parquet"
    return _call(_native.items, lambda t: (
        (t.many(inputs, "inputs", fmt),), {"answers": t.one(answers, "answers", "parquet"),
                                           **options}))


@_wraps(_native.anchors)
def anchors(inputs: Any, *, k: Any, answers: Any = None, **options: Any) -> Any:
    fmt = "csv" if answers is None else "parquet"
    return _call(_native.anchors, lambda t: (
        (t.many(inputs, "inputs", fmt),),
        {"k": k, "answers": t.one(answers, "answers", "parquet"), **options}))


@_wraps(_native.estimate)
def estimate(partial: Any, *, calibration: Any, **options: Any) -> Any:
    return _call(_native.estimate, lambda t: (
        (t.one(partial, "partial", "csv"),),
        {"calibration": t.one(calibration, "calibration", "csv"), **options}))


@_wraps(_native.plan)
def plan(bench: str, files: Any, *, mde: Any, answers: Any = None, metadata: Any = None,
         **options: Any) -> Any:
    fmt = _BOARD_FORMAT.get(str(bench).lower(), "parquet")
    return _call(_native.plan, lambda t: (
        (bench, t.many(files, "files", fmt)),
        {"mde": mde, "answers": t.one(answers, "answers", "parquet"),
         "metadata": t.one(metadata, "metadata", "json"), **options}))


@_wraps(_native.export_eee)
def export_eee(scored: Any, *, answers: Any = None, kiva: bool = False, **options: Any) -> Any:
    fmt = "csv" if kiva else "parquet"
    return _call(_native.export_eee, lambda t: (
        (t.many(scored, "scored", fmt),),
        {"answers": t.one(answers, "answers", "parquet"), "kiva": kiva, **options}))


@_wraps(_native.selftest_simulate)
def selftest_simulate(**options: Any) -> Any:
    return _result(_native.selftest_simulate(**options))


@_wraps(_native.selftest_bank)
def selftest_bank(bank: Any = None) -> Any:
    return _result(_native.selftest_bank(bank))
