"""Tables as inputs: a ``pyarrow.Table``, ``pyarrow.RecordBatch``, ``pyarrow.RecordBatchReader``,
a pandas DataFrame, or any object with ``__arrow_c_stream__`` (polars, DuckDB, ...) is taken
wherever a file is, with the file's columns, and turned here into the bytes of the file format
the core reads, one record batch at a time:

- ``"parquet"`` (MM-IQ answer keys and predictions): a Parquet file written in memory by
  pyarrow (uncompressed, one row group per batch), which the core reads as it reads a Parquet
  file, as the JSONL of the same rows (nulls absent). Columns keep their Arrow types, and it is
  faster than writing JSON lines here (a 100,000-item key and 100,000 predictions scored in
  0.3-0.4 s against 2.5 s on the 2-core dev machine).
- ``"jsonl"`` (harness records; MM-IQ keys and predictions named ``.jsonl``): each row one JSON
  line; a null (or NaN) cell is left out of its row, as an absent key of a JSONL line.
- ``"csv"`` (KiVA runs and the adults' file, response matrices, score matrices): the columns
  as CSV columns, a null an empty cell, ``true`` / ``false`` written ``1`` / ``0``.
- ``"json"`` (MM-OPERA metadata): a JSON array of the rows (nulls left out, as in JSONL).
- ``"keyed"`` / ``"keyed-list"`` (MM-OPERA judge files): a JSON object keyed by the ``id``
  column, each value the row's other non-null cells (for ICA a list of them, one per row, in
  order).

A table is named ``<pyarrow.Table: PARAM>`` (``<pandas.DataFrame: PARAM>``, ...) in results and
errors, or by the name given as ``(name, table)``, whose extension (``.csv``, ``.jsonl``,
``.parquet``) chooses the format. Errors on a table name its 0-based row (``row``, as ``table.slice(row, 1)``
or ``df.iloc[row]``) rather than a line of the converted text or a row group of the Parquet
file, and a column the format needs and the table lacks is named as such, with the table's
columns.

pyarrow is needed for table inputs (``pip install 'coglab[arrow]'``), and imported lazily.
"""

from __future__ import annotations

import datetime
import decimal
import io
import json
import math
import re
from typing import Any, Dict, Iterator, List, Mapping, Optional

from ._errors import CoglabError, InputError, UsageError
from ._tables import require_pyarrow

__all__ = ["Tables", "is_tabular"]

# Rows per record batch when a table or DataFrame is cut for conversion.
BATCH_ROWS = 65_536

_FORMATS = ("parquet", "jsonl", "csv", "json", "keyed", "keyed-list")

# How the core names a row of a Parquet file: "NAME row group G, row R" (both 1-based).
_ROW_GROUP = re.compile(r"^(?P<name>.*) row group (?P<group>\d+), row (?P<row>\d+)$")


def is_tabular(obj: Any) -> bool:
    """Whether ``obj`` is a table this module converts (without importing pyarrow or pandas)."""
    t = type(obj)
    mod = getattr(t, "__module__", "") or ""
    if mod.startswith("pyarrow") and t.__name__ in ("Table", "RecordBatch", "RecordBatchReader"):
        return True
    if mod.startswith("pandas") and t.__name__ == "DataFrame":
        return True
    return hasattr(obj, "__arrow_c_stream__") and not isinstance(obj, (str, bytes))


def _kind(obj: Any) -> str:
    t = type(obj)
    top = (getattr(t, "__module__", "") or "").split(".")[0]
    return f"{top}.{t.__name__}" if top else t.__name__


def _default(v: Any) -> Any:
    """JSON for the values of Arrow types JSON has no word for."""
    if isinstance(v, (datetime.datetime, datetime.date, datetime.time)):
        return v.isoformat()
    if isinstance(v, datetime.timedelta):
        return v.total_seconds()
    if isinstance(v, decimal.Decimal):
        return float(v)
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).decode("utf-8", "replace")
    return str(v)


def _clean(v: Any) -> Any:
    """A cell for JSON: NaN is null."""
    if isinstance(v, float) and math.isnan(v):
        return None
    return v


def _rows(batch: Any) -> List[Dict[str, Any]]:
    try:
        return batch.to_pylist(maps_as_pydicts="strict")
    except TypeError:  # pyarrow before 13: maps as lists of pairs
        return batch.to_pylist()


class _Info:
    """What is needed to translate an error on a converted table."""

    def __init__(self, name: str, fmt: str, columns: List[str]) -> None:
        self.name = name
        self.fmt = fmt
        self.columns = columns
        # CSV only: whether line k of the text is row k-2 (no cell held a line break).
        self.lines_are_rows = True
        # keyed only: the row of each id.
        self.id_rows: Dict[str, int] = {}
        # parquet only: the table's row at the start of each row group.
        self.group_starts: List[int] = []


class Tables:
    """The tables of one call: converts them, and translates the errors that name them."""

    def __init__(self) -> None:
        self._infos: Dict[str, _Info] = {}
        self._naming = ""  # the table being converted

    # ------------------------------------------------------------------ conversion

    def one(self, obj: Any, param: str, fmt: str) -> Any:
        """One input: a table as ``(name, bytes)``; anything else as it is."""
        if obj is None:
            return obj
        if is_tabular(obj):
            return self._convert(obj, f"<{_kind(obj)}: {param}>", fmt)
        if isinstance(obj, tuple) and len(obj) == 2 and is_tabular(obj[1]):
            name = obj[0]
            if not isinstance(name, str):
                raise UsageError(
                    f"{param}: expected a name (str) as the first item of (name, table), "
                    f"found {type(name).__name__}",
                    field=param,
                )
            lower = name.lower()
            if lower.endswith(".csv"):
                fmt = "csv"
            elif lower.endswith(".jsonl"):
                fmt = "jsonl"
            elif lower.endswith(".parquet"):
                fmt = "parquet"
            return self._convert(obj[1], name, fmt)
        return obj

    def many(self, obj: Any, param: str, fmt: str) -> Any:
        """One input or a list of them (or a mapping of them, as ``rank`` takes)."""
        if obj is None or isinstance(obj, (str, bytes, bytearray, memoryview)):
            return obj
        if is_tabular(obj) or isinstance(obj, tuple) or hasattr(obj, "__fspath__"):
            return self.one(obj, param, fmt)
        if isinstance(obj, Mapping):
            return {k: self.one(v, f"{param}[{k!r}]", fmt) for k, v in obj.items()}
        try:
            items = list(obj)
        except TypeError:
            return obj
        return [self.one(x, f"{param}[{i}]", fmt) for i, x in enumerate(items)]

    def _batches(self, obj: Any) -> "tuple[List[str], Iterator[Any]]":
        pa = require_pyarrow(f"a {_kind(obj)} as input")
        t = type(obj)
        mod = getattr(t, "__module__", "") or ""
        if mod.startswith("pandas"):
            df = obj
            if any(n is not None for n in df.index.names):
                df = df.reset_index()  # a named index is a column (first, as in a file)
            columns = [str(c) for c in df.columns]
            if list(df.columns) != columns:
                df = df.set_axis(columns, axis=1)

            def frames() -> Iterator[Any]:
                for start in range(0, len(df), BATCH_ROWS):
                    part = df.iloc[start : start + BATCH_ROWS]
                    try:
                        yield pa.RecordBatch.from_pandas(part, preserve_index=False)
                    except (pa.ArrowInvalid, pa.ArrowTypeError) as e:
                        # pyarrow's message names the column ("Conversion failed for column b
                        # with type object"); a column of mixed kinds has no Arrow type.
                        text = str(e.args[0]) if e.args else str(e)
                        col = next((str(c) for c in columns if f"column {c} " in str(e)), None)
                        raise InputError(
                            f"{self._naming}: column {col or '?'} (rows {start} to "
                            f"{start + len(part) - 1}): {text} (expected one type per column)",
                            file=self._naming, field=col, expected="one type per column",
                            found=text,
                        ) from None

            return columns, frames()
        if t.__name__ == "Table" and mod.startswith("pyarrow"):
            return list(obj.schema.names), iter(obj.to_batches(max_chunksize=BATCH_ROWS))
        if t.__name__ == "RecordBatch" and mod.startswith("pyarrow"):
            return list(obj.schema.names), iter([obj])
        if not (t.__name__ == "RecordBatchReader" and mod.startswith("pyarrow")):
            obj = pa.RecordBatchReader.from_stream(obj)
        return list(obj.schema.names), iter(obj)

    def _convert(self, obj: Any, name: str, fmt: str) -> Any:
        assert fmt in _FORMATS, fmt
        self._naming = name
        columns, batches = self._batches(obj)
        info = _Info(name, fmt, columns)
        if name in self._infos:
            raise UsageError(f"two inputs named {name!r}: name them apart", field=name)
        self._infos[name] = info
        if fmt in ("keyed", "keyed-list") and "id" not in columns:
            raise InputError(
                f'{name}: no column "id" (expected the item id of each row, the keys of the '
                f"judge file); the table's columns: {', '.join(columns) or 'none'}",
                file=name,
                field="id",
                expected="a column id",
                found="columns " + ", ".join(columns),
            )
        out = io.BytesIO()
        if fmt == "parquet":
            self._parquet(info, batches, out)
        elif fmt == "jsonl":
            for batch in batches:
                for row in _rows(batch):
                    row = {k: v for k, v in row.items() if _clean(v) is not None}
                    out.write(json.dumps(row, ensure_ascii=False, default=_default).encode())
                    out.write(b"\n")
        elif fmt == "csv":
            self._csv(info, batches, out)
        elif fmt == "json":
            out.write(b"[")
            first = True
            for batch in batches:
                for row in _rows(batch):
                    row = {k: v for k, v in row.items() if _clean(v) is not None}
                    out.write(b"\n" if first else b",\n")
                    out.write(json.dumps(row, ensure_ascii=False, default=_default).encode())
                    first = False
            out.write(b"\n]\n")
        else:
            keyed: Dict[str, Any] = {}
            i = 0
            for batch in batches:
                for row in _rows(batch):
                    key = row.pop("id")
                    if key is None:
                        raise InputError(
                            f'{name} row {i}: field "id": expected the item id, found null',
                            file=name, field="id", expected="the item id", found="null", row=i,
                        )
                    key = str(key)
                    rest = {k: v for k, v in row.items() if _clean(v) is not None}
                    if fmt == "keyed-list":
                        keyed.setdefault(key, []).append(rest or None)
                        info.id_rows.setdefault(key, i)
                    elif key in keyed:
                        raise InputError(
                            f'{name} row {i}: field "id": expected each id once, found {key!r} '
                            f"again (first at row {info.id_rows[key]})",
                            file=name, field="id", expected="each id once", found=key, row=i,
                        )
                    else:
                        keyed[key] = rest
                        info.id_rows[key] = i
                    i += 1
            out.write(json.dumps(keyed, ensure_ascii=False, default=_default).encode())
        return (name, out.getvalue())

    def _parquet(self, info: _Info, batches: Iterator[Any], out: io.BytesIO) -> None:
        pa = require_pyarrow("a table as input")
        import pyarrow.parquet as pq

        writer = None
        schema = None
        rows = 0
        try:
            for batch in batches:
                if writer is None:
                    schema = batch.schema
                    writer = pq.ParquetWriter(out, schema, compression="none")
                elif batch.schema != schema:
                    # A DataFrame's later rows typed otherwise (a column of nulls, then text).
                    try:
                        batch = batch.cast(schema)
                    except (pa.ArrowInvalid, pa.ArrowTypeError, ValueError) as e:
                        raise InputError(
                            f"{info.name}: rows {rows} to {rows + batch.num_rows - 1}: {e} "
                            "(expected one type per column)",
                            file=info.name, expected="one type per column", found=str(e),
                        ) from None
                info.group_starts.append(rows)
                writer.write_batch(batch, row_group_size=max(batch.num_rows, 1))
                rows += batch.num_rows
            if writer is None:  # no batch: the columns alone
                empty = pa.schema([(c, pa.string()) for c in info.columns])
                writer = pq.ParquetWriter(out, empty, compression="none")
        finally:
            if writer is not None:
                writer.close()

    def _csv(self, info: _Info, batches: Iterator[Any], out: io.BytesIO) -> None:
        pa = require_pyarrow("a table as input")
        import pyarrow.compute as pc
        import pyarrow.csv as pcsv

        first = True
        for batch in batches:
            arrays = []
            for col in batch.columns:
                if pa.types.is_boolean(col.type):
                    col = pc.cast(col, pa.int8())
                elif pa.types.is_floating(col.type):
                    col = pc.if_else(pc.is_nan(col), pa.scalar(None, col.type), col)
                arrays.append(col)
            batch = pa.RecordBatch.from_arrays(arrays, names=batch.schema.names)
            buf = io.BytesIO()
            pcsv.write_csv(batch, buf, write_options=pcsv.WriteOptions(include_header=first))
            text = buf.getvalue()
            if text.count(b"\n") != batch.num_rows + (1 if first else 0):
                info.lines_are_rows = False
            out.write(text)
            first = False
        if first:  # no batch: the header alone
            empty = pa.table({c: pa.array([], pa.string()) for c in info.columns})
            pcsv.write_csv(empty, out)

    # ------------------------------------------------------------------ errors

    def translate(self, e: CoglabError) -> CoglabError:
        """The error with its place in a table's terms (row, column), or ``e`` itself."""
        at = _ROW_GROUP.match(e.file or "")
        if at and at.group("name") in self._infos:
            info = self._infos[at.group("name")]
            group, within = int(at.group("group")), int(at.group("row"))
            if info.fmt != "parquet" or not 1 <= group <= len(info.group_starts):
                return e
            row = info.group_starts[group - 1] + within - 1
            message = e.message
            if message.startswith(f"{e.file}"):
                message = f"{info.name} row {row}" + message[len(e.file or ""):]
            return type(e)(message, file=info.name, line=None, field=e.field,
                           expected=e.expected, found=e.found, row=row)
        info = self._infos.get(e.file or "")
        if info is not None and info.fmt == "parquet":
            missing = (e.expected or "").startswith("column(s) ")
            if not missing:
                return e
            # The core's "missing column(s) X; the header has ...", in a table's terms.
            what = (e.expected or "")[len("column(s) "):]
            cols = ", ".join(info.columns) or "none"
            return type(e)(
                f"{info.name}: no column(s) {what}; the table's columns: {cols}",
                file=info.name,
                field=what.split(",")[0].split(" (")[0].strip(),
                expected=e.expected,
                found="columns " + ", ".join(info.columns),
            )
        if info is None and e.file:
            for n, i in self._infos.items():
                if n.replace("\\", "/").rsplit("/", 1)[-1] == e.file:
                    info = i
                    break
        if info is None:
            return e
        message, field, row = e.message, e.field, None
        if info.fmt == "jsonl" and e.line:
            row = e.line - 1
        elif info.fmt == "csv" and e.line and e.line >= 2 and info.lines_are_rows:
            row = e.line - 2
        elif info.fmt == "json" and field:
            m = re.match(r"\[(\d+)\]\.?(.*)", field)
            if m:
                row, field = int(m.group(1)), m.group(2) or None
                message = message.replace(f'field "{e.field}"', f'field "{field}"', 1)
        elif info.fmt.startswith("keyed") and field:
            key = field.split(".", 1)[0].split("[", 1)[0]
            if key in info.id_rows:
                row = info.id_rows[key]
        plain = field is not None and not re.search(r"[.\[]", field)
        if plain and field not in info.columns and info.fmt in ("jsonl", "csv", "json"):
            what = e.expected or "a column this input needs"
            cols = ", ".join(info.columns) or "none"
            return type(e)(
                f"{info.name}: no column \"{field}\" (expected {what}); the table's columns: {cols}",
                file=info.name,
                field=field,
                expected=e.expected,
                found="columns " + ", ".join(info.columns),
            )
        if row is None:
            return e
        if e.line:
            message = message.replace(f"line {e.line}", f"row {row}", 1)
        elif message.startswith(f"{e.file}:"):
            message = f"{e.file} row {row}:" + message[len(e.file) + 1 :]
        return type(e)(message, file=e.file, line=None, field=field, expected=e.expected,
                       found=e.found, row=row)

