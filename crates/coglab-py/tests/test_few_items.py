"""Issue 40 from Python: ``estimate``, ``plan`` and ``anchors`` give the CLI's ``--json`` and
numbers fixed by the data or worked out by hand (the same cases as the Rust CLI tests)."""

from __future__ import annotations

import math

import pytest

import coglab
from conftest import assert_same, cli_json, fixture

Z975 = 1.959963984540054
Z80 = 0.8416212335729143


def test_estimate_numbers_and_cli() -> None:
    full, part = fixture("items/estimate_full.csv"), fixture("items/estimate_partial.csv")
    py = coglab.estimate(part, calibration=full)
    assert_same(py, cli_json("estimate", "--calibration", full, part))
    assert py["calibration"] == {"items": 10, "respondents": 120, "model": "2pl+guess(0.25)"}
    est = {e["id"]: e for e in py["estimates"]}
    # strong: 3 of 3 right, 7 unanswered: at least 3 of 10.
    assert est["strong"]["answered"] == 3 and est["strong"]["observed"] == 1.0
    assert est["strong"]["ci_low"] >= 0.3
    # most: 5 of q1-q9 right, q10 unanswered: the interval is [0.5, 0.6] (q10 wrong or right).
    assert est["most"]["ci_low"] == 0.5 and est["most"]["ci_high"] == 0.6
    assert 0.5 < est["most"]["estimate"] < 0.6
    assert est["none"]["observed"] is None
    with pytest.raises(coglab.InputError, match="calibration respondents"):
        coglab.estimate(part, calibration=full, min_calibration=121)
    with pytest.raises(coglab.UsageError):
        coglab.estimate(part, calibration=full, options=1)


def test_plan_connors_count() -> None:
    # Key A B C D E A; the two models disagree on 1 of 6 items: psi = 1/6. For 3 points at 80%
    # power, Connor: [1.959964 sqrt(1/6) + 0.841621 sqrt(1/6 - 0.0009)]^2 / 0.0009 = 1451.136.
    key = fixture("ranks/extraction_key.jsonl")
    one = "one=" + fixture("ranks/extraction_model1.jsonl")
    two = "two=" + fixture("ranks/extraction_model2.jsonl")
    py = coglab.plan("mmiq", [one, two], mde=0.03, answers=key)
    assert_same(py, cli_json("plan", "mmiq", "--answers", key, one, two, "--mde", "0.03"))
    psi = 1.0 / 6.0
    want = (Z975 * math.sqrt(psi) + Z80 * math.sqrt(psi - 0.0009)) ** 2 / 0.0009
    pair = py["pairs"][0]
    assert abs(pair["items_exact"] - want) < 1e-9
    assert abs(want - 1451.1361405726225) < 1e-9
    assert pair["items"] == 1452
    with pytest.raises(coglab.UsageError, match="mde"):
        coglab.plan("mmiq", [one, two], mde=3, answers=key)


def test_anchors_list_and_weights() -> None:
    full = fixture("items/estimate_full.csv")
    py = coglab.anchors(full, k=4)
    assert_same(py, cli_json("items", full, "--subset", "anchor", "--k", "4"))
    ids = [a["id"] for a in py["anchors"]]
    assert len(set(ids)) == 4 and all(i in {f"q{j}" for j in range(1, 11)} for i in ids)
    # Ten items shared among four anchors: weights are counts over 10 summing to 1.
    weights = [a["weight"] for a in py["anchors"]]
    assert abs(sum(weights) - 1.0) < 1e-12
    assert all(abs(w * 10 - round(w * 10)) < 1e-9 and w >= 0.1 for w in weights)
    assert py["method"] == "information"
    with pytest.raises(coglab.InputError, match="10 calibrated items"):
        coglab.anchors(full, k=11)
