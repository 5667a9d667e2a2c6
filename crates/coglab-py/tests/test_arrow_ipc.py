"""Arrow IPC input (issue 39): MM-IQ predictions and an answer key written by pyarrow as Arrow
IPC files (uncompressed, LZ4, zstd; Feather v2) and streams from the repository's JSONL
fixtures score exactly as the JSONL does, as the CLI scores the same files.

The fixtures' figures are worked out in coglab-core/tests/mmiq_small.rs: 4 of 6 correct.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import coglab
from conftest import assert_same, cli_json, fixture

pa = pytest.importorskip("pyarrow")
feather = pytest.importorskip("pyarrow.feather")


def _table(path: str) -> "pa.Table":
    rows = [json.loads(l) for l in Path(path).read_text().splitlines() if l.strip()]
    return pa.Table.from_pylist(rows)


def _write(table: "pa.Table", path: Path, stream: bool, compression) -> None:
    opts = pa.ipc.IpcWriteOptions(compression=compression)
    new = pa.ipc.new_stream if stream else pa.ipc.new_file
    with new(path, table.schema, options=opts) as w:
        w.write_table(table, max_chunksize=4)


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("compression", [None, "lz4", "zstd"])
def test_mmiq_arrow_files_score_as_jsonl(tmp_path: Path, stream: bool, compression) -> None:
    key, pred = fixture("mmiq/key_small.jsonl"), fixture("mmiq/preds_small.jsonl")
    want = coglab.score_mmiq(key, pred, items=True)
    assert want["overall"]["n"] == 6 and want["overall"]["correct"] == 4
    akey, apred = tmp_path / "key_small.arrow", tmp_path / "preds_small.arrow"
    _write(_table(key), akey, stream, compression)
    _write(_table(pred), apred, stream, compression)
    got = coglab.score_mmiq(akey, apred, items=True)
    assert_same(got, cli_json("score", "mmiq", "--answers", str(akey), str(apred), "--items"))
    got["file"], got["key_file"] = want["file"], want["key_file"]
    assert_same(got, want)


def test_feather_categorical_predictions_score_as_jsonl(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    key, pred = fixture("mmiq/key_small.jsonl"), fixture("mmiq/preds_small.jsonl")
    want = coglab.score_mmiq(key, pred)
    frame = pd.DataFrame([json.loads(l) for l in Path(pred).read_text().splitlines() if l.strip()])
    frame["category"] = frame["category"].astype("category")
    p = tmp_path / "preds.feather"
    feather.write_feather(frame, p)
    got = coglab.score_mmiq(key, p)
    got["file"], got["key_file"] = want["file"], want["key_file"]
    assert_same(got, want)


def test_mmiq_bad_arrow_row_is_located(tmp_path: Path) -> None:
    rows = [{"data_id": str(i) if i != 4 else "x4", "response": "B"} for i in range(6)]
    p = tmp_path / "bad.arrow"
    _write(pa.Table.from_pylist(rows), p, False, None)
    with pytest.raises(coglab.InputError) as e:
        coglab.score_mmiq(fixture("mmiq/key_small.jsonl"), p)
    assert "bad.arrow record batch 2, row 1: field \"data_id\"" in str(e.value)
