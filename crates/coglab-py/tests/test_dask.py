"""200 MM-IQ prediction files fanned out over a Dask local cluster (two worker processes, one
thread each), combined into one table, and checked against the CLI's JSON for every file; one
bad file in the batch raises coglab.InputError in its own task and no worker process dies.

The files are variants of the fixture `mmiq/preds_small.jsonl`: file k answers item
(k mod n) with a letter other than its own, and for k >= n also item ((k // n) mod n), so
the accuracies differ from file to file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import coglab
from conftest import assert_same, cli_json, fixture

distributed = pytest.importorskip("dask.distributed")
pd = pytest.importorskip("pandas")

KEY = fixture("mmiq/key_small.jsonl")
N_FILES = 200
BAD_INDEX = 137


def flip(letter: str) -> str:
    return "B" if letter != "B" else "C"


def make_files(folder: Path) -> list:
    rows = [json.loads(l) for l in Path(fixture("mmiq/preds_small.jsonl")).read_text().splitlines() if l.strip()]
    n = len(rows)
    paths = []
    for k in range(N_FILES):
        variant = [dict(r) for r in rows]
        for i in {k % n, (k // n) % n} if k >= n else {k % n}:
            r = variant[i]
            key = "response" if "response" in r else "parsed_pred"
            # A short answer the extractor reads as one letter.
            r[key] = f"The answer is {flip(str(r.get(key, 'A'))[-1:])}."
        p = folder / f"model_{k:03d}.jsonl"
        p.write_text("".join(json.dumps(r) + "\n" for r in variant))
        paths.append(str(p))
    return paths


def row(path: str, result: dict) -> dict:
    o = result["overall"]
    return {"file": Path(path).name, "n": o["n"], "correct": o["correct"],
            "accuracy": o["accuracy"], "ci_low": o["ci_low"], "ci_high": o["ci_high"],
            "coverage": o["coverage"]}


def test_two_hundred_files_over_a_local_cluster(tmp_path: Path) -> None:
    paths = make_files(tmp_path)
    bad = tmp_path / "model_bad.jsonl"
    bad.write_text('{"data_id": 0, "response": "A"}\n{"data_id": "x", "response": "B"}\n')
    batch = paths[:BAD_INDEX] + [str(bad)] + paths[BAD_INDEX:]

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        pids_before = client.run(lambda: __import__("os").getpid())
        futures = client.map(coglab.score_mmiq, [KEY] * len(batch), batch, pure=False)
        distributed.wait(futures)
        results, errors = {}, {}
        for path, fut in zip(batch, futures):
            if fut.status == "error":
                errors[path] = fut.exception()
            else:
                results[path] = fut.result()
        pids_after = client.run(lambda: __import__("os").getpid())
        # The cluster still works after the bad task.
        again = client.submit(coglab.score_mmiq, KEY, paths[0], pure=False).result()

    # The bad file raised in its task, with its location; no worker process was replaced.
    assert list(errors) == [str(bad)]
    e = errors[str(bad)]
    assert isinstance(e, coglab.InputError)
    assert (e.file, e.line, e.field) == ("model_bad.jsonl", 2, "data_id")
    assert pids_before == pids_after and len(pids_after) == 2

    # The combined table: one row per file, equal to the CLI's JSON for every file.
    table = pd.DataFrame([row(p, results[p]) for p in paths])
    assert len(table) == N_FILES and table["file"].is_unique
    assert table["accuracy"].nunique() > 1
    for p, (_, r) in zip(paths, table.iterrows()):
        want = cli_json("score", "mmiq", "--answers", KEY, p)
        assert_same(results[p], want, Path(p).name)
        assert_same(dict(r), row(p, want), Path(p).name)
    assert_same(again, results[paths[0]])
