"""coglab: score cognitive benchmarks of multimodal models (MM-IQ, KiVA, MM-OPERA, Gold).

The same scorers as the coglab site and the ``coglab`` command, from Python. Each function
returns a plain dict with the same fields as the matching command's ``--json`` output:

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
``(name, bytes)`` tuples; a Parquet file (``.parquet``) or an Arrow IPC file or stream
(``.arrow``, ``.feather``; all told from their content) is read as the JSONL of the same rows. ``score_mmiq`` also takes a ``pyarrow.Table`` or a pandas DataFrame
with the file's columns (written to Parquet in memory with pyarrow, then read as a file). The GIL is released while files are read, parsed and scored, so
threads scale. Errors are ``coglab.InputError`` / ``coglab.UsageError`` (both
``coglab.CoglabError``, a ``ValueError``) with ``file``, ``line``, ``field``, ``expected`` and
``found``.

With pandas installed, ``to_frame(result, table)`` turns one table of a result into a
DataFrame (``tables(result)`` lists them).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from ._errors import CoglabError, InputError, UsageError
from . import _native
from ._native import (
    __version__,
    anchors,
    describe,
    estimate,
    export_eee,
    items,
    plan,
    rank,
    score_kiva,
    score_mmopera,
    selftest_bank,
    selftest_simulate,
    sem,
)

__all__ = [
    "CoglabError",
    "InputError",
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
    "to_frame",
    "__version__",
]

# The table a result is shown as when none is named, by the key that tells the result's kind.
_DEFAULT_TABLE = [
    ("models", "models"),  # rank
    ("respondents", "items"),  # items
    ("by_category", "by_category"),  # score_mmiq
    ("by_subdomain", "by_subdomain"),  # score_kiva
    ("outer", "outer"),  # sem
    ("items", "items"),  # score_mmopera
]


def _columnar(value: Any, name: str) -> Any:
    """A ``pyarrow.Table`` or a pandas DataFrame as ``(name, Parquet bytes)``; other inputs as
    they are."""
    module = type(value).__module__
    if not (module.startswith("pyarrow") or module.startswith("pandas")):
        return value
    try:
        import io

        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("a table input needs pyarrow (pip install pyarrow)") from e
    if module.startswith("pandas"):
        value = pa.Table.from_pandas(value, preserve_index=False)
    if not isinstance(value, pa.Table):
        return value
    buf = io.BytesIO()
    pq.write_table(value, buf, compression="none")
    return (name, buf.getvalue())


def score_mmiq(answers: Any, predictions: Any, *, items: bool = False) -> Dict[str, Any]:
    """MM-IQ accuracy by category, as ``coglab score mmiq --answers KEY PRED --json``; each of
    ``answers`` and ``predictions`` may also be a ``pyarrow.Table`` or a pandas DataFrame with
    the file's columns (named ``<table>.parquet`` in messages)."""
    return _native.score_mmiq(
        _columnar(answers, "<key table>.parquet"),
        _columnar(predictions, "<table>.parquet"),
        items=items,
    )


def _is_table(value: Any) -> bool:
    if isinstance(value, list):
        return bool(value) and all(isinstance(v, dict) for v in value)
    if isinstance(value, dict):
        return bool(value) and all(isinstance(v, dict) for v in value.values())
    return False


def tables(result: Dict[str, Any]) -> List[str]:
    """The names of the tables in a result: keys (dotted for nested ones, e.g.
    ``"holistic.by.domain"``) whose value is a list of records or a mapping of records."""
    out: List[str] = []

    def walk(prefix: str, value: Any, depth: int) -> None:
        if not isinstance(value, dict) or depth > 3:
            return
        for key, sub in value.items():
            name = f"{prefix}{key}"
            if _is_table(sub):
                out.append(name)
            elif isinstance(sub, dict):
                walk(name + ".", sub, depth + 1)

    walk("", result, 0)
    return out


def to_frame(result: Dict[str, Any], table: Optional[str] = None) -> "Any":
    """One table of a result as a pandas DataFrame (pandas must be installed).

    ``table`` names it (see ``tables(result)``; dotted for nested tables); by default the
    result's main table: a ranking's ``models``, an item analysis' ``items``, MM-IQ's
    ``by_category``, KiVA's ``by_subdomain``, PLS-SEM's ``outer``, MM-OPERA's ``items``.
    A list of records becomes one row per record; a mapping of records one row per key (the
    key is the index).

    >>> df = coglab.to_frame(coglab.rank("mmiq", files, answers=key))   # doctest: +SKIP
    """
    try:
        import pandas as pd
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("coglab.to_frame needs pandas (pip install pandas)") from e
    if table is None:
        for key, name in _DEFAULT_TABLE:
            if key in result and _is_table(result.get(name)):
                table = name
                break
        else:
            found = tables(result)
            if not found:
                raise UsageError("to_frame: the result has no table", expected="a table")
            table = found[0]
    value: Any = result
    for part in table.split("."):
        if not isinstance(value, dict) or part not in value:
            raise UsageError(
                f"to_frame: no table {table!r} in the result (tables: {', '.join(tables(result))})",
                field=table,
                expected="one of " + ", ".join(tables(result)),
            )
        value = value[part]
    if isinstance(value, dict):
        return pd.DataFrame.from_dict(value, orient="index")
    return pd.DataFrame.from_records(value)
