"""The tables of a result: ``tables``, ``to_arrow`` (a ``pyarrow.Table``) and ``to_frame``
(a pandas DataFrame), and ``Result``, the dict every scorer returns.

A table is a key of the result (dotted for a nested one, e.g. ``"holistic.by.domain"``) whose
value is a list of records (one row per record) or a mapping of records (one row per key, the
key in a first column named after the table: ``category`` for ``by_category``, else ``key``),
or the result itself when it is one table (``describe``'s: one row per column, ``column``).

``to_arrow`` builds the ``pyarrow.Table`` from the records without pandas, one column per field
(in the order the fields first appear), typed from the values: whole numbers (counts, ids,
ranks) ``int64``, figures ``float64`` (a column mixing whole numbers and figures is
``float64``), names and texts ``string``, flags ``bool``; nested records become ``struct``
columns and lists ``list`` columns. Every column is nullable: a figure that could not be
computed (``None`` in the dict, ``null`` in the CLI's JSON) is a null. A column with no value
in any row is ``string`` when the field is one of coglab's text fields (``category``, ``key``,
``group``, ...) and ``float64`` otherwise (the fields that go missing are figures). The schema's
metadata holds the table's name under ``coglab.table``.

pyarrow is optional (``pip install 'coglab[arrow]'``) and imported only when needed.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Tuple

from ._errors import UsageError

__all__ = ["Result", "tables", "to_arrow", "to_frame", "require_pyarrow"]

# The table a result is shown as when none is named, by the key that tells the result's kind.
_DEFAULT_TABLE = [
    ("models", "models"),  # rank
    ("respondents", "items"),  # items
    ("by_category", "by_category"),  # score_mmiq
    ("by_subdomain", "by_subdomain"),  # score_kiva
    ("outer", "outer"),  # sem
    ("items", "items"),  # score_mmopera
    ("estimates", "estimates"),  # estimate
    ("anchors", "anchors"),  # anchors
    ("pairs", "pairs"),  # plan
]

# The name of the key column of a mapping table, by the table's last name part ("" is a result
# that is one table, as `describe`'s).
_KEY_COLUMN = {
    "": "column",
    "by_category": "category",
    "by_subdomain": "subdomain",
    "by_domain": "domain",
    "by_model": "model",
    "by_judge": "judge",
}

# Fields the core writes as optional text (`Option<String>`); a column of them with no value
# is typed `string`, any other empty column `float64`.
_TEXT_FIELDS = frozenset(
    """category model note group message key field explanation error title task response path
    participant human_column found dataset_id venue variant_group target stratify source_url
    source_name source set se_text sample_id response_preview reported_as release_date relation
    reasoning reason problem parameters name mmiq_key_chunk metadata_file mdd_text md5
    matrix_name letter kind input id hash foldername filter file_answer file family extracted
    expected excluded domain current coverage_text chosen most_frequent_wrong parsed majority
    answer subdomain judge""".split()
)


def require_pyarrow(what: str) -> Any:
    """``import pyarrow``, or an ImportError naming the extra that installs it."""
    try:
        import pyarrow
    except ImportError as e:
        raise ImportError(
            f"{what} needs pyarrow: pip install 'coglab[arrow]' (or pip install pyarrow)"
        ) from e
    return pyarrow


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


def _find(
    result: Dict[str, Any], table: Optional[str], caller: str, strict: bool = True
) -> Tuple[str, Any]:
    """The table's name and value (the default table when ``table`` is None); with
    ``strict``, a value that is not a table is refused."""
    if table in (None, "") and _is_table(result) and not tables(result):
        return "", result  # the result is one table (`describe`: one row per column)
    if table is None:
        for key, name in _DEFAULT_TABLE:
            if key in result and _is_table(result.get(name)):
                table = name
                break
        else:
            found = tables(result)
            if not found:
                raise UsageError(f"{caller}: the result has no table", expected="a table")
            table = found[0]
    value: Any = result
    for part in table.split("."):
        if not isinstance(value, dict) or part not in value:
            raise UsageError(
                f"{caller}: no table {table!r} in the result (tables: {', '.join(tables(result))})",
                field=table,
                expected="one of " + ", ".join(tables(result)),
            )
        value = value[part]
    if strict and not _is_table(value):
        raise UsageError(
            f"{caller}: {table!r} is not a table (tables: {', '.join(tables(result))})",
            field=table,
            expected="a list or a mapping of records",
        )
    return table, value


def _key_column(table: str, records: List[Dict[str, Any]]) -> str:
    name = _KEY_COLUMN.get(table.rsplit(".", 1)[-1], "key")
    if any(name in r for r in records):
        name = "key" if all("key" not in r for r in records) else "_key"
    return name


def _column(pa: Any, name: str, values: List[Any]) -> Any:
    """One column as a pyarrow array, typed as the module doc says."""
    present = [v for v in values if v is not None]
    if not present:
        return pa.nulls(len(values), pa.string() if name in _TEXT_FIELDS else pa.float64())
    if all(isinstance(v, bool) for v in present):
        return pa.array(values, pa.bool_())
    if all(isinstance(v, int) and not isinstance(v, bool) for v in present):
        try:
            return pa.array(values, pa.int64())
        except (OverflowError, pa.ArrowInvalid):
            return pa.array([None if v is None else float(v) for v in values], pa.float64())
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
        return pa.array([None if v is None else float(v) for v in values], pa.float64())
    if all(isinstance(v, str) for v in present):
        return pa.array(values, pa.string())
    try:
        return pa.array(values)
    except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError):
        # Values of mixed kinds (a record here, a number there): kept as their JSON text.
        return pa.array(
            [None if v is None else json.dumps(v, ensure_ascii=False) for v in values],
            pa.string(),
        )


def to_arrow(result: Dict[str, Any], table: Optional[str] = None) -> Any:
    """One table of a result as a ``pyarrow.Table`` (needs pyarrow: ``coglab[arrow]``).

    ``table`` names it (see ``tables(result)``; dotted for nested tables); by default the
    result's main table, as ``to_frame``'s. Columns are typed from the values (``int64``
    counts, ``float64`` figures, ``string`` names, ``bool`` flags, ``struct`` / ``list`` for
    nested values), all nullable, a missing figure a null; a mapping of records gets its key
    as a first ``string`` column (``category`` for ``by_category``, ``subdomain``,
    ``domain``, else ``key``). pandas is not used.

    >>> t = coglab.score_mmiq(key, preds).to_arrow()            # doctest: +SKIP
    >>> t.schema.field("accuracy").type                         # doctest: +SKIP
    DataType(double)
    """
    pa = require_pyarrow("coglab.to_arrow")
    name, value = _find(result, table, "to_arrow")
    if isinstance(value, dict):
        records = list(value.values())
        key = _key_column(name, records)
        rows: List[Dict[str, Any]] = [{key: str(k), **v} for k, v in value.items()]
    else:
        key = None
        rows = value
    columns: Dict[str, None] = {}
    for r in rows:
        for k in r:
            columns.setdefault(k, None)
    arrays = [_column(pa, c, [r.get(c) for r in rows]) for c in columns]
    meta = {b"coglab.table": name.encode()}
    if key is not None:
        meta[b"coglab.key"] = key.encode()
    out = pa.Table.from_arrays(arrays, names=list(columns))
    return out.replace_schema_metadata(meta)


def to_frame(result: Dict[str, Any], table: Optional[str] = None) -> Any:
    """One table of a result as a pandas DataFrame (pandas must be installed).

    ``table`` names it (see ``tables(result)``; dotted for nested tables); by default the
    result's main table: a ranking's ``models``, an item analysis' ``items``, MM-IQ's
    ``by_category``, KiVA's ``by_subdomain``, PLS-SEM's ``outer``, MM-OPERA's ``items``,
    an estimate's ``estimates``, the anchors' ``anchors``, a plan's ``pairs``.
    A list of records becomes one row per record; a mapping of records one row per key (the
    key is the index). With pyarrow installed the frame is ``to_arrow(result,
    table).to_pandas()`` (with the mapping's key as the index), else it is built by pandas
    from the records; the values are the same either way.

    >>> df = coglab.to_frame(coglab.rank("mmiq", files, answers=key))   # doctest: +SKIP
    """
    try:
        import pandas as pd
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("coglab.to_frame needs pandas (pip install pandas)") from e
    name, value = _find(result, table, "to_frame", strict=False)
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        pyarrow = None
    if pyarrow is None or not _is_table(value):
        # The pandas path (also for a value `to_arrow` does not take, as before pyarrow).
        if isinstance(value, dict):
            return pd.DataFrame.from_dict(value, orient="index")
        return pd.DataFrame.from_records(value)
    t = to_arrow(result, name)
    df = t.to_pandas()
    key = (t.schema.metadata or {}).get(b"coglab.key")
    if key is not None:
        df = df.set_index(key.decode())
        df.index.name = None
    return df


class Result(dict):
    """A result: the dict of the CLI's ``--json`` output, with its tables as frames.

    ``r.tables()``, ``r.to_arrow(table=None)`` (a ``pyarrow.Table``) and
    ``r.to_frame(table=None)`` (a pandas DataFrame) are ``coglab.tables(r)``,
    ``coglab.to_arrow(r, table)`` and ``coglab.to_frame(r, table)``. It is a plain ``dict``
    otherwise (``json.dumps``, pickling and ``==`` work as on one).
    """

    __slots__ = ()

    def tables(self) -> List[str]:
        """The names of the result's tables (see ``coglab.tables``)."""
        return tables(self)

    def to_arrow(self, table: Optional[str] = None) -> Any:
        """One table as a ``pyarrow.Table`` (see ``coglab.to_arrow``)."""
        return to_arrow(self, table)

    def to_frame(self, table: Optional[str] = None) -> Any:
        """One table as a pandas DataFrame (see ``coglab.to_frame``)."""
        return to_frame(self, table)

    def __reduce__(self):  # type: ignore[override]
        return (Result, (dict(self),))
