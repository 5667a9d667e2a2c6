"""Parquet input (issue 39): MM-IQ predictions and an answer key written as Parquet by pyarrow
from the repository's JSONL fixtures (and given as a pyarrow.Table or a pandas DataFrame)
score exactly as the JSONL does, as the CLI scores the same Parquet files.

The fixtures' figures are worked out in coglab-core/tests/mmiq_small.rs: 4 of 6 correct.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import coglab
from conftest import assert_same, cli_json, fixture

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def _table(path: str) -> "pa.Table":
    rows = [json.loads(l) for l in Path(path).read_text().splitlines() if l.strip()]
    return pa.Table.from_pylist(rows)


@pytest.mark.parametrize("compression", ["snappy", "zstd"])
@pytest.mark.parametrize("items", [False, True])
def test_mmiq_parquet_files_score_as_jsonl(tmp_path: Path, compression: str, items: bool) -> None:
    key, pred = fixture("mmiq/key_small.jsonl"), fixture("mmiq/preds_small.jsonl")
    want = coglab.score_mmiq(key, pred, items=items)
    assert want["overall"]["n"] == 6 and want["overall"]["correct"] == 4
    pkey, ppred = tmp_path / "key_small.parquet", tmp_path / "preds_small.parquet"
    pq.write_table(_table(key), pkey, compression=compression, row_group_size=4)
    pq.write_table(_table(pred), ppred, compression=compression, row_group_size=4)
    got = coglab.score_mmiq(pkey, ppred, items=items)
    flags = ["--items"] if items else []
    assert_same(got, cli_json("score", "mmiq", "--answers", str(pkey), str(ppred), *flags))
    for g in (got,):
        g["file"], g["key_file"] = want["file"], want["key_file"]
    assert_same(got, want)


def test_mmiq_tables_score_as_jsonl() -> None:
    key, pred = fixture("mmiq/key_small.jsonl"), fixture("mmiq/preds_small.jsonl")
    want = coglab.score_mmiq(key, pred)
    got = coglab.score_mmiq(_table(key), _table(pred))
    # Named as every table input is (coglab._inputs), not as a file.
    assert (got["key_file"], got["file"]) == ("<pyarrow.Table: answers>",
                                              "<pyarrow.Table: predictions>")
    got["file"], got["key_file"] = want["file"], want["key_file"]
    assert_same(got, want)
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame([json.loads(l) for l in Path(pred).read_text().splitlines() if l.strip()])
    got = coglab.score_mmiq(key, frame)
    got["file"], got["key_file"] = want["file"], want["key_file"]
    assert_same(got, want)


def test_mmiq_bad_parquet_row_is_located(tmp_path: Path) -> None:
    rows = [{"data_id": str(i) if i != 4 else "x4", "response": "B"} for i in range(6)]
    p = tmp_path / "bad.parquet"
    pq.write_table(pa.Table.from_pylist(rows), p, row_group_size=4)
    with pytest.raises(coglab.InputError) as e:
        coglab.score_mmiq(fixture("mmiq/key_small.jsonl"), p)
    assert "bad.parquet row group 2, row 1: field \"data_id\"" in str(e.value)
