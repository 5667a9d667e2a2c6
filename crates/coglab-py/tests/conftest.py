"""Shared helpers of the Python tests: where the fixtures, the shared data and the `coglab`
binary are, running the CLI, and comparing results with float tolerances.

The shared data (`<repo>/../shared/data`, or $COGLAB_SHARED_DATA) is optional: a test that needs it is skipped with a
printed notice when it is absent, and FAILS when the environment has CI=true (as the Rust
tests' `shared_data`).
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, List, Optional

import pytest

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "crates" / "coglab-core" / "tests" / "fixtures"
SHARED = Path(os.environ.get("COGLAB_SHARED_DATA") or ROOT.parent / "shared" / "data")

# Tolerances of the comparisons: the core tests compare derived figures to 1e-12.
REL_TOL = 1e-12
ABS_TOL = 1e-12


def coglab_bin() -> str:
    """The `coglab` binary: $COGLAB_BIN, else the debug or release build under the target dir."""
    env = os.environ.get("COGLAB_BIN")
    if env:
        return env
    targets = [Path(os.environ["CARGO_TARGET_DIR"])] if os.environ.get("CARGO_TARGET_DIR") else []
    targets.append(ROOT / "target")
    for t in targets:
        for profile in ("debug", "release"):
            p = t / profile / "coglab"
            if p.exists():
                return str(p)
    pytest.fail("no coglab binary: build it (cargo build -p coglab-cli) or set COGLAB_BIN")
    raise AssertionError  # unreachable


def shared(rel: str) -> Path:
    """A file or folder in ../shared/data, or skip (fail under CI=true) when it is absent."""
    p = SHARED / rel
    if p.exists():
        return p
    msg = f"SKIP: {p} not found; this test needs ../shared/data beside the project"
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true but the shared data file {p} is missing")
    print(msg, file=sys.stderr)
    pytest.skip(msg)
    raise AssertionError  # unreachable


def fixture(rel: str) -> str:
    return str(FIXTURES / rel)


class CliResult:
    def __init__(self, code: int, stdout: str, stderr: str) -> None:
        self.code = code
        self.stdout = stdout
        self.stderr = stderr

    @property
    def json(self) -> Any:
        assert self.code == 0, f"coglab failed ({self.code}): {self.stderr}"
        return json.loads(self.stdout)

    @property
    def error(self) -> str:
        """The message after `coglab: error: ` (bad input, exit 1)."""
        assert self.code == 1, f"expected exit 1, got {self.code}: {self.stderr}"
        prefix = "coglab: error: "
        line = self.stderr
        assert line.startswith(prefix), self.stderr
        return line[len(prefix):].rstrip("\n")


def cli(*args: str) -> CliResult:
    out = subprocess.run([coglab_bin(), *map(str, args)], capture_output=True, timeout=600)
    return CliResult(out.returncode, out.stdout.decode("utf-8", "replace"),
                     out.stderr.decode("utf-8", "replace"))


def cli_json(*args: str) -> Any:
    return cli(*args, "--json").json


def escape_controls(text: str) -> str:
    """What the CLI does to a message before printing it (commands::escape_controls)."""
    out = []
    for c in text:
        o = ord(c)
        bad = ((o < 0x20 or 0x7F <= o <= 0x9F) and c not in "\n\t") or (
            0x202A <= o <= 0x202E or 0x2066 <= o <= 0x2069)
        out.append("\\u{%x}" % o if bad else c)
    return "".join(out)


def diff(a: Any, b: Any, path: str = "$") -> List[str]:
    """Where two JSON values differ (floats within REL_TOL / ABS_TOL)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return [] if a is b or a == b and type(a) is type(b) else [f"{path}: {a!r} != {b!r}"]
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if isinstance(a, float) or isinstance(b, float):
            if math.isnan(a) and math.isnan(b):
                return []
            ok = math.isclose(a, b, rel_tol=REL_TOL, abs_tol=ABS_TOL)
        else:
            ok = a == b
        return [] if ok else [f"{path}: {a!r} != {b!r}"]
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            if k not in a:
                out.append(f"{path}.{k}: missing on the left")
            elif k not in b:
                out.append(f"{path}.{k}: missing on the right")
            else:
                out.extend(diff(a[k], b[k], f"{path}.{k}"))
        return out
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{path}: {len(a)} items != {len(b)} items"]
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            out.extend(diff(x, y, f"{path}[{i}]"))
        return out
    return [] if a == b and type(a) is type(b) else [f"{path}: {a!r} != {b!r}"]


def assert_same(python: Any, cli_value: Any, what: Optional[str] = None) -> None:
    d = diff(python, cli_value)
    assert not d, f"{what or 'result'}: Python and CLI differ at {len(d)} places: {d[:10]}"
