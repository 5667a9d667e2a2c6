"""The exceptions coglab raises: every one a ``CoglabError`` (a ``ValueError``).

``InputError`` is bad input (a file that cannot be read or parsed, data that cannot be
analysed); ``UsageError`` a bad argument. Each carries the core's message (``str(e)``, the same
text the ``coglab`` command prints after ``coglab: error:``) and, where known, where and what:
``file``, ``line`` (1-based line or record), ``field`` (column or key), ``expected`` and
``found``; and for an input given as a table (a ``pyarrow.Table`` or a DataFrame) ``row``, the
table's 0-based row (``line`` is then None). The attributes survive pickling, so an error
raised in a Dask or multiprocessing worker reaches the caller whole.
"""

from __future__ import annotations

from typing import Optional

__all__ = ["CoglabError", "InputError", "UsageError"]


class CoglabError(ValueError):
    """Base class of coglab's errors: a message and its location."""

    file: Optional[str]
    line: Optional[int]
    field: Optional[str]
    expected: Optional[str]
    found: Optional[str]
    row: Optional[int]

    def __init__(
        self,
        message: str,
        file: Optional[str] = None,
        line: Optional[int] = None,
        field: Optional[str] = None,
        expected: Optional[str] = None,
        found: Optional[str] = None,
        row: Optional[int] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.field = field
        self.expected = expected
        self.found = found
        self.row = row

    def __reduce__(self):  # type: ignore[override]
        return (
            type(self),
            (self.message, self.file, self.line, self.field, self.expected, self.found,
             self.row),
        )


class InputError(CoglabError):
    """A file could not be read or parsed, or its data cannot be analysed."""


class UsageError(CoglabError):
    """A bad argument (an unknown benchmark, an option out of range, no scoring file)."""
