"""DataFrame helpers (pandas): the frame holds the result's rows as they are."""

from __future__ import annotations

import pytest

import coglab
from conftest import fixture

pd = pytest.importorskip("pandas")


def test_mmiq_by_category_frame() -> None:
    r = coglab.score_mmiq(fixture("mmiq/key_small.jsonl"), fixture("mmiq/preds_small.jsonl"),
                          items=True)
    df = coglab.to_frame(r)
    assert set(df.index) == set(r["by_category"])
    for cat, row in r["by_category"].items():
        assert df.loc[cat, "correct"] == row["correct"]
        assert df.loc[cat, "accuracy"] == row["accuracy"]
    items = coglab.to_frame(r, "items")
    assert len(items) == len(r["items"])
    assert "by_category" in coglab.tables(r) and "items" in coglab.tables(r)


def test_rank_models_frame() -> None:
    key = fixture("ranks/extraction_key.jsonl")
    r = coglab.rank("mmiq", {"one": fixture("ranks/extraction_model1.jsonl"),
                             "two": fixture("ranks/extraction_model2.jsonl")}, answers=key)
    df = coglab.to_frame(r)
    assert list(df["name"]) == [m["name"] for m in r["models"]]
    assert list(df["score"]) == [m["score"] for m in r["models"]]
    pairs = coglab.to_frame(r, "pairs")
    assert len(pairs) == len(r["pairs"]) == 1


def test_items_frame_and_unknown_table() -> None:
    r = coglab.items(fixture("items/small_6x4.csv"), model="rasch", subset="none")
    df = coglab.to_frame(r)
    assert len(df) == len(r["items"])
    with pytest.raises(coglab.UsageError) as e:
        coglab.to_frame(r, "nope")
    assert e.value.field == "nope"
