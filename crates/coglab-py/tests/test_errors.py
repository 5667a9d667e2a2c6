"""Bad input raises coglab.InputError with its location, the same message as the CLI's, and
never crashes the interpreter.

The hostile files of `crates/coglab-core/tests/fixtures/bad/` (listed with what each must give
in `cases.tsv`: `ok N` or `err Variant | location | text`) go through the Python function and
the CLI: where the CLI scores, Python returns the same JSON; where the CLI fails with exit 1,
Python raises InputError whose message is the CLI's and whose `file` / `line` attributes are
the location `cases.tsv` names.
"""

from __future__ import annotations

import pickle
import re
import threading
import time
from pathlib import Path

import pytest

import coglab
from conftest import FIXTURES, assert_same, cli, escape_controls, fixture

BAD = FIXTURES / "bad"
KEY = fixture("mmiq/key_small.jsonl")
PREDS = fixture("mmiq/preds_small.jsonl")
RIA = FIXTURES / "mmopera" / "ria"
PRUNE = fixture("sem/prune.csv")


def call(kind: str, path: str):
    """The Python call and the CLI arguments for one hostile file of a kind."""
    reg = str(RIA / "modelx_RIA_regular_scoring.json")
    meta = str(RIA / "metadata.json")
    table = {
        "mmiq_key": (lambda: coglab.score_mmiq(path, PREDS), ["score", "mmiq", "--answers", path, PREDS]),
        "kiva_run": (lambda: coglab.score_kiva(path), ["score", "kiva", path]),
        # The adults' file is told by its header, as `coglab score kiva` tells it.
        "kiva_human": (lambda: coglab.score_kiva(path), ["score", "kiva", path]),
        "sem_matrix_csv": (lambda: coglab.describe(path), ["describe", path]),
        "sem_matrix_json": (lambda: coglab.describe(path), ["describe", path]),
        "sem_spec": (lambda: coglab.sem(path, PRUNE), ["sem", "--spec", path, PRUNE]),
        "mmopera_metadata": (lambda: coglab.score_mmopera("ria", path, reg),
                             ["score", "mmopera", "--task", "ria", "--metadata", path, "--regular", reg]),
        "mmopera_regular": (lambda: coglab.score_mmopera("ria", meta, path),
                            ["score", "mmopera", "--task", "ria", "--metadata", meta, "--regular", path]),
        "mmopera_reasoning": (lambda: coglab.score_mmopera("ria", meta, reasoning=path),
                              ["score", "mmopera", "--task", "ria", "--metadata", meta, "--reasoning", path]),
        "mmopera_answers": (lambda: coglab.score_mmopera("ria", meta, reg, answers=path),
                            ["score", "mmopera", "--task", "ria", "--metadata", meta, "--regular", reg,
                             "--answers", path]),
    }
    if kind in table:
        return table[kind]
    # mmiq_preds and the VLMEvalKit tables are predictions files.
    return (lambda: coglab.score_mmiq(KEY, path), ["score", "mmiq", "--answers", KEY, path])


def cases():
    for line in (BAD / "cases.tsv").read_text().splitlines():
        if line.strip():
            rel, want = line.split("\t", 1)
            yield pytest.param(rel, want, id=rel)


@pytest.mark.parametrize("rel,want", list(cases()))
def test_hostile_file(rel: str, want: str) -> None:
    kind = rel.split("/", 1)[0]
    path = str(BAD / rel)
    run, args = call(kind, path)
    res = cli(*args, "--json")
    if res.code == 0:
        assert_same(run(), res.json, rel)
        return
    assert res.code == 1, f"{rel}: CLI exit {res.code}: {res.stderr}"
    with pytest.raises(coglab.InputError) as info:
        run()
    e = info.value
    assert isinstance(e, coglab.CoglabError) and isinstance(e, ValueError)
    assert escape_controls(str(e)) == res.error, rel
    if want.startswith("err "):
        parts = [p.strip() for p in want[4:].split("|")]
        loc = parts[1] if len(parts) > 1 else ""
        m = re.match(r"^(\S+)(?: (?:line|record) (\d+))?", loc)
        if m and str(e).startswith(m.group(1)):
            # The error names the file it is about: the attribute carries it.
            assert e.file is not None and Path(e.file).name == m.group(1), (rel, e.file)
            if m.group(2) and f"line {m.group(2)}" in str(e):
                assert e.line == int(m.group(2)), (rel, e.line, str(e))


def test_location_attributes_of_a_bad_prediction_line(tmp_path: Path) -> None:
    pred = tmp_path / "preds.jsonl"
    good = Path(PREDS).read_text().splitlines()
    good[2] = '{"data_id": "abc", "response": "A"}'
    pred.write_text("\n".join(good) + "\n")
    with pytest.raises(coglab.InputError) as info:
        coglab.score_mmiq(KEY, pred)
    e = info.value
    assert (e.file, e.line, e.field) == ("preds.jsonl", 3, "data_id")
    assert e.expected is not None and "integer" in e.expected
    assert e.found == '"abc"'
    assert str(e).startswith('preds.jsonl line 3: field "data_id": expected')
    # The attributes survive pickling (an error raised in a worker process reaches the caller).
    again = pickle.loads(pickle.dumps(e))
    assert type(again) is coglab.InputError
    assert (again.file, again.line, again.field, again.expected, again.found, str(again)) == (
        e.file, e.line, e.field, e.expected, e.found, str(e))


def test_missing_file_and_folder() -> None:
    with pytest.raises(coglab.InputError) as info:
        coglab.score_mmiq(KEY, "/nonexistent/preds.jsonl")
    assert info.value.file == "/nonexistent/preds.jsonl"
    assert str(info.value) == cli("score", "mmiq", "--answers", KEY, "/nonexistent/preds.jsonl").error
    with pytest.raises(coglab.InputError, match="is a folder, expected a file"):
        coglab.score_mmiq(KEY, str(FIXTURES))


def test_usage_errors() -> None:
    with pytest.raises(coglab.UsageError, match="unknown benchmark"):
        coglab.rank("gold", [PREDS])
    with pytest.raises(coglab.UsageError, match="at most 100000"):
        coglab.sem(PRUNE, PRUNE, bootstrap=10**12)
    with pytest.raises(coglab.UsageError, match="--regular"):
        coglab.score_mmopera("ria", str(RIA / "metadata.json"))
    with pytest.raises(coglab.UsageError):
        coglab.score_mmopera("xyz", str(RIA / "metadata.json"), str(RIA / "modelx_RIA_regular_scoring.json"))
    with pytest.raises(coglab.UsageError, match="expected a path"):
        coglab.score_mmiq(KEY, 12345)
    with pytest.raises(coglab.UsageError, match="two human data files"):
        human = str(BAD / "kiva_human" / "bom.csv")
        coglab.score_kiva([human, str(BAD / "kiva_human" / "crlf.csv")])


def test_the_gil_is_released_while_scoring(tmp_path: Path) -> None:
    # While one thread runs a PLS-SEM bootstrap (20,000 resamples, about 0.3 s on the release
    # build), the main thread keeps running Python. Were the GIL held for the whole call, the
    # main thread could not run a single iteration until it ended.
    spec = tmp_path / "s.json"
    spec.write_text('{"constructs": {"A": ["a1", "a2", "a3", "a4"], "B": ["b1", "b2"]}, '
                    '"paths": [["A", "B"]]}')
    done = threading.Event()
    started = threading.Event()

    def work() -> None:
        started.set()
        try:
            coglab.sem(spec, PRUNE, bootstrap=20000)
        finally:
            done.set()

    t = threading.Thread(target=work)
    t.start()
    started.wait()
    count, gap = 0, 0.0
    t0 = last = time.perf_counter()
    while not done.is_set():
        now = time.perf_counter()
        gap = max(gap, now - last)
        last = now
        count += 1
    elapsed = time.perf_counter() - t0
    t.join()
    assert elapsed > 0.1, f"the call took {elapsed:.3f} s: too short to tell"
    # Released: the main thread loops all along (its longest pause is a scheduling blip).
    # Held: it stops for the whole native call, one pause of nearly `elapsed`.
    assert gap < 0.5 * elapsed, f"main thread paused {gap:.3f} s of {elapsed:.3f} s ({count} iterations)"


ONE = fixture("ranks/extraction_model1.jsonl")
RANK_KEY = fixture("ranks/extraction_key.jsonl")


@pytest.mark.parametrize("call", [
    # Huge and negative whole numbers raised OverflowError (issue 37).
    lambda: coglab.sem(PRUNE, PRUNE, bootstrap=10**30),
    lambda: coglab.sem(PRUNE, PRUNE, bootstrap=-5),
    lambda: coglab.sem(PRUNE, PRUNE, bootstrap=100, seed=-1),
    lambda: coglab.sem(PRUNE, PRUNE, bootstrap=100, seed=2**64),
    lambda: coglab.sem(PRUNE, PRUNE, max_iter=10**40),
    lambda: coglab.rank("mmiq", [ONE], answers=RANK_KEY, resamples=-3),
    lambda: coglab.rank("mmiq", [ONE], answers=RANK_KEY, seed=-7),
    lambda: coglab.score_mmopera("ria", str(RIA / "metadata.json"),
                                 str(RIA / "modelx_RIA_regular_scoring.json"), min_length=-1),
    lambda: coglab.rank("mmiq", [ONE], answers=RANK_KEY, alpha=10**400),
    # Wrong types raised TypeError.
    lambda: coglab.sem(PRUNE, PRUNE, bootstrap="100"),
    lambda: coglab.sem(PRUNE, PRUNE, bootstrap=100.0),
    lambda: coglab.sem(PRUNE, PRUNE, bootstrap=True),
    lambda: coglab.rank("mmiq", [ONE], answers=RANK_KEY, alpha="0.05"),
    lambda: coglab.rank("mmiq", [ONE], answers=RANK_KEY, resamples=[1]),
    lambda: coglab.items([ONE], answers=RANK_KEY, tau="high"),
    lambda: coglab.items([ONE], answers=RANK_KEY, threshold=[0.5]),
    lambda: coglab.score_mmopera("ria", str(RIA / "metadata.json"),
                                 str(RIA / "modelx_RIA_regular_scoring.json"), gamma="1"),
    lambda: coglab.export_eee(PREDS, answers=KEY, timestamp="now"),
    lambda: coglab.export_eee(PREDS, answers=KEY, timestamp=-1),
])
def test_bad_numeric_options_raise_usage_error(call) -> None:
    # Converted at the boundary: never OverflowError or TypeError, and the message names the
    # option.
    with pytest.raises(coglab.UsageError) as info:
        call()
    assert isinstance(info.value, coglab.CoglabError)
    assert re.match(r"^[a-z_-]+: ", str(info.value)), str(info.value)


def test_rank_raises_on_a_missing_model_file() -> None:
    # Issue 37: a missing rank file was skipped (the board built from the others).
    with pytest.raises(coglab.InputError) as info:
        coglab.rank("mmiq", [ONE, "/nonexistent/two.jsonl"], answers=RANK_KEY)
    assert info.value.file == "/nonexistent/two.jsonl"
    assert "/nonexistent/two.jsonl: cannot read file" in str(info.value)


def test_describe_warns_of_a_column_left_out_for_one_text_cell(tmp_path: Path) -> None:
    # Issue 37: the column was left out without a word; the CLI names it on stderr.
    data = tmp_path / "d.csv"
    data.write_text("model,a,b\nm1,1,2\nm2,x,3\nm3,2,4\n")
    with pytest.warns(UserWarning, match=r'column "a" is left out: d.csv line 3: field "a" holds "x"') as w:
        table = coglab.describe(data)
    assert sorted(table) == ["b"]
    # The warning points at the caller's line, not inside the package's wrapper.
    assert [Path(x.filename).name for x in w] == ["test_errors.py"]
