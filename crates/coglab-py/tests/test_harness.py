"""Other harnesses' files through the Python package (issue 24 in the package, issue 25).

`score_mmiq` on lmms-eval samples JSONL and results.json, an Inspect log (.json, and .eval with
zstd and deflate members), a VLMEvalKit circular judge table and Every Eval Ever instance and
aggregate records; `score_kiva` on jsPsych exports (CSV, JSON), KiVA's Every Eval Ever records
(read back into the report of the set they were written from) and a KiVA challenge result with
its annotations; `export_eee` against `coglab export eee`. Each result equals the CLI's --json
for the same file, and its headline figures are counted again here from the fixture itself
(`crates/coglab-core/tests/fixtures/harness`; the core's `tests/harness.rs` works them out by
hand).
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

import coglab
from conftest import FIXTURES, assert_same, cli, cli_json

H = FIXTURES / "harness"
KEY = str(H / "key.jsonl")
STAMP = 1717243200


def key_answers() -> Tuple[Dict[int, str], Dict[str, str]]:
    """The key's answers by data_id and by MD5 (lower case)."""
    by_id, by_md5 = {}, {}
    for line in (H / "key.jsonl").read_text().splitlines():
        if line.strip():
            k = json.loads(line)
            by_id[k["data_id"]] = k["answer"]
            by_md5[k["MD5"].lower()] = k["answer"]
    return by_id, by_md5


def letter(text: str) -> str:
    """The option letter of a short answer in these fixtures ("B", "Answer: B", "The answer is B.",
    "Option (A) fits best"); "" when it names none."""
    text = text.strip()
    if re.fullmatch(r"[A-D]", text):
        return text
    m = re.search(r"(?:answer is|answer:)\s*\(?([A-D])\b|\(([A-D])\)", text, re.IGNORECASE)
    return (m.group(1) or m.group(2)) if m else ""


def lmms_counts(name: str) -> Tuple[int, int]:
    """(correct, n) of an lmms-eval samples file: each sample found in the key (by doc.data_id,
    data_id, or doc_hash as an MD5), its first response's letter against the key's answer."""
    by_id, by_md5 = key_answers()
    correct = n = 0
    for line in (H / name).read_text().splitlines():
        if not line.strip():
            continue
        s = json.loads(line)
        data_id = s.get("doc", {}).get("data_id", s.get("data_id"))
        answer = by_id.get(data_id) if data_id is not None else by_md5.get(
            str(s.get("doc_hash", "")).lower())
        if answer is None:
            continue
        resp = s["resps"][0]
        resp = resp[0] if isinstance(resp, list) else resp
        n += 1
        correct += letter(resp) == answer
    return correct, n


def mmiq(path: str, *flags: str) -> dict:
    """`score_mmiq` on a file, checked equal to the CLI's --json; the Python result."""
    items = "--items" in flags
    py = coglab.score_mmiq(KEY, path, items=items)
    assert_same(py, cli_json("score", "mmiq", "--answers", KEY, path, *flags), Path(path).name)
    return py


# ---------------------------------------------------------------- MM-IQ from other harnesses


@pytest.mark.parametrize("name", ["20240601_120000_samples_mmiq.jsonl",
                                  "20231105_samples_mmiq_test.jsonl",
                                  "20240110_samples_mm_iq.jsonl"])
@pytest.mark.parametrize("items", [False, True])
def test_lmms_eval_samples(name: str, items: bool) -> None:
    py = mmiq(str(H / name), *(["--items"] if items else []))
    assert py["harness"]["harness_label"] == "lmms-eval"
    assert (py["overall"]["correct"], py["overall"]["n"]) == lmms_counts(name)
    if items:
        assert len(py["items"]) == lmms_counts(name)[1]


def test_lmms_eval_results_summary() -> None:
    py = mmiq(str(H / "20240601_120000_results.json"))
    assert py["precomputed"] is True and py["harness"] == "lmms-eval"
    # The summary's figures as the file gives them.
    results = json.loads((H / "20240601_120000_results.json").read_text())["results"]
    values = sorted(v for task in results.values() for k, v in task.items()
                    if isinstance(v, float) and "stderr" not in k)
    assert sorted(r["value"] for r in py["summary"]) == values


@pytest.mark.parametrize("name", ["inspect_log.json", "inspect_log_zstd.eval",
                                  "inspect_log_deflate.eval"])
def test_inspect_logs(name: str) -> None:
    py = mmiq(str(H / name), "--items")
    assert py["harness"]["harness_label"] == "Inspect"
    # The log's own scorer: accuracy 0.75 over its 4 samples, 3 right.
    log = json.loads((H / "inspect_log.json").read_text())
    n = log["results"]["total_samples"]
    acc = log["results"]["scores"][0]["metrics"]["accuracy"]["value"]
    assert (py["overall"]["correct"], py["overall"]["n"]) == (round(acc * n), n)
    assert py["harness"]["format"] == ("inspect_eval" if name.endswith(".eval") else "inspect_json")


def test_vlmevalkit_circular_judge_table() -> None:
    name = "GPT4o_MMIQ_CIRC_gpt-4o-mini_result.tsv"
    py = mmiq(str(H / name))
    assert py["harness"]["harness_label"] == "VLMEvalKit"
    rows = list(csv.DictReader((H / name).open(newline=""), delimiter="\t"))
    # The headline figure is rotation 0's (index < 1,000,000): each prediction's letter against
    # the key (not the judge's `hit`, which says 1 for item 2's wrong "B").
    by_id, _ = key_answers()
    first = [r for r in rows if int(r["index"]) < 1_000_000]
    correct = sum(letter(r["prediction"]) == by_id[int(r["index"])] for r in first)
    assert (py["overall"]["correct"], py["overall"]["n"]) == (correct, len(first)) == (2, 3)
    # Circular evaluation, over the items with rotations: an item (index mod 1,000,000) counts
    # only when every rotation's prediction names that rotation's answer.
    rotated = {int(r["index"]) % 1_000_000 for r in rows if int(r["index"]) >= 1_000_000}
    right = {i: all(letter(r["prediction"]) == r["answer"] for r in rows
                    if int(r["index"]) % 1_000_000 == i) for i in rotated}
    circ = py["harness"]["circular"]
    assert (circ["items"], circ["all_correct"]) == (len(right), sum(right.values())) == (2, 1)


def test_named_bytes_are_told_by_their_name() -> None:
    name = "20231105_samples_mmiq_test.jsonl"
    data = (H / name).read_bytes()
    assert_same(coglab.score_mmiq(KEY, (name, data)), mmiq(str(H / name)))


# ---------------------------------------------------------------- Every Eval Ever


def tree(d: Path) -> Dict[str, bytes]:
    return {str(p.relative_to(d)): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


def cli_export(out: Path, *args: str) -> str:
    r = cli("export", "eee", *args, "--out", str(out), "--timestamp", str(STAMP))
    assert r.code == 0, r.stderr
    return r.stdout


def test_export_eee_mmiq_equals_the_cli(tmp_path: Path) -> None:
    inputs = [str(H / "inspect_log.json"), str(H / "20240601_120000_samples_mmiq.jsonl")]
    cli_export(tmp_path / "cli", "--answers", KEY, *inputs)
    sets = coglab.export_eee(inputs, answers=KEY, out=tmp_path / "py", timestamp=STAMP)
    files = tree(tmp_path / "cli")
    # The Inspect log names its model; the lmms-eval file's is guessed from its path (its
    # folder, as the leaderboard guesses it).
    assert [s["model"] for s in sets] == ["openai/gpt-4o", "harness"]
    assert sorted(files) == ["harness/MM-IQ_1717243200.json", "harness/MM-IQ_1717243200.jsonl",
                             "openai_gpt-4o/MM-IQ_1717243200.json",
                             "openai_gpt-4o/MM-IQ_1717243200.jsonl"]
    assert tree(tmp_path / "py") == files
    for s in sets:
        # The records returned are the files' records.
        p = s["paths"]
        assert s["aggregate"] == json.loads(Path(p["aggregate"]).read_text())
        lines = Path(p["instances"]).read_text().splitlines()
        assert s["instances"] == [json.loads(x) for x in lines]
        assert s["benchmark"] == "mmiq" and s["count"] == len(lines)
        assert s["evaluation_id"] == f"MM-IQ/{s['model']}/{STAMP}"
    # Counted from the inputs: the Inspect log's 3 of 4, the lmms-eval samples' right answers.
    inspect, lmms = sets
    assert sum(r["evaluation"]["is_correct"] for r in inspect["instances"]) == 3
    assert len(inspect["instances"]) == 4
    assert (sum(r["evaluation"]["is_correct"] for r in lmms["instances"]),
            len(lmms["instances"])) == lmms_counts("20240601_120000_samples_mmiq.jsonl")


def test_export_eee_without_out_writes_nothing(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (s,) = coglab.export_eee(str(H / "inspect_log.json"), answers=KEY, model="m",
                             timestamp=STAMP)
    assert s["paths"] is None and s["model"] == "m" and list(tmp_path.iterdir()) == []
    cli_export(tmp_path / "cli", "--answers", KEY, str(H / "inspect_log.json"), "--model", "m")
    assert s["aggregate"] == json.loads((tmp_path / "cli/m/MM-IQ_1717243200.json").read_text())


def test_export_eee_kiva_equals_the_cli(tmp_path: Path) -> None:
    run = str(H / "kiva_run_jspsych.csv")
    out = cli_export(tmp_path / "cli", "--kiva", run, "--model", "p07 (jsPsych)")
    (s,) = coglab.export_eee(run, kiva=True, model="p07 (jsPsych)", out=str(tmp_path / "py"),
                             timestamp=STAMP)
    files = tree(tmp_path / "cli")
    assert sorted(files) == ["p07__jsPsych_/KiVA_1717243200.json",
                             "p07__jsPsych_/KiVA_1717243200.jsonl"]
    assert tree(tmp_path / "py") == files
    assert s["benchmark"] == "kiva" and f"({s['count']} trials)" in out
    assert s["instances"][0]["sample_id"] == "p07/ColourRed#3"
    # Stage 1 from the export's own `correct` column: ColourRed right, Counting+1 wrong (the
    # Shear trial has no response): 0.5.
    rows = [r for r in csv.DictReader(open(run, newline="")) if r["kiva_stage"] == "cross"
            and r["response"]]
    cross = sum(r["correct"] == "true" for r in rows) / len(rows)
    assert s["aggregate"]["evaluation_results"][0]["evaluation_name"] == "KiVA: What (cross-domain)"
    assert s["aggregate"]["evaluation_results"][0]["score_details"]["score"] == cross == 0.5


@pytest.mark.parametrize("items", [False, True])
def test_eee_records_score_as_the_cli(tmp_path: Path, items: bool) -> None:
    (s,) = coglab.export_eee(str(H / "inspect_log.json"), answers=KEY, out=tmp_path,
                             timestamp=STAMP)
    inst = mmiq(s["paths"]["instances"], *(["--items"] if items else []))
    assert inst["harness"]["harness_label"] == "Every Eval Ever"
    assert (inst["overall"]["correct"], inst["overall"]["n"]) == (3, 4)
    agg = mmiq(s["paths"]["aggregate"])
    assert agg["precomputed"] is True
    # 3 of 4: 0.75, standard error sqrt(0.75 * 0.25 / 4).
    assert agg["summary"][0]["value"] == 0.75
    assert agg["summary"][0]["stderr"] == pytest.approx((0.75 * 0.25 / 4) ** 0.5, abs=1e-15)


def test_export_eee_refusals(tmp_path: Path) -> None:
    with pytest.raises(coglab.UsageError):
        coglab.export_eee(str(H / "inspect_log.json"))
    with pytest.raises(coglab.UsageError):
        coglab.export_eee(str(H / "kiva_run_jspsych.csv"), answers=KEY, kiva=True)
    with pytest.raises(coglab.UsageError, match="--model names one scored set"):
        coglab.export_eee([str(H / "inspect_log.json")] * 2, answers=KEY, model="m")
    summary = str(H / "20240601_120000_results.json")
    with pytest.raises(coglab.InputError, match="a summary without items") as e:
        coglab.export_eee(summary, answers=KEY, out=tmp_path)
    assert e.value.file == summary
    r = cli("export", "eee", "--answers", KEY, summary, "--out", str(tmp_path / "cli"))
    assert r.error == str(e.value)


# ---------------------------------------------------------------- KiVA from other harnesses


def kiva(*paths: str, trials: bool = False) -> dict:
    py = coglab.score_kiva(list(paths), trials=trials)
    flags = ["--trials"] if trials else []
    assert_same(py, cli_json("score", "kiva", *paths, *flags), " ".join(map(str, paths)))
    return py


def stage_means(rows: List[dict], stage_key: str, names: Dict[str, str]) -> Dict[str, float]:
    """Mean of each stage's right answers over the trials with a response."""
    out: Dict[str, List[bool]] = {}
    for r in rows:
        if r.get(stage_key) in names and r.get("response") not in (None, ""):
            ok = str(r["response"]) == str(r["correct_response"])
            out.setdefault(names[r[stage_key]], []).append(ok)
    return {k: sum(v) / len(v) for k, v in out.items()}


def test_jspsych_csv_run() -> None:
    py = kiva(str(H / "kiva_run_jspsych.csv"), trials=True)
    assert py["harness"]["harness_label"] == "jsPsych"
    assert len(py["harness"]["unmapped"]) == 1  # the Shear trial: no response
    rows = list(csv.DictReader((H / "kiva_run_jspsych.csv").open(newline="")))
    want = stage_means(rows, "kiva_stage", {"cross": "cross", "extrapolation": "extrapolation"})
    assert want == {"cross": 0.5, "extrapolation": 0.5}
    for stage, mean in want.items():
        assert py["overall"][stage]["mean"] == mean


def test_jspsych_json_run() -> None:
    py = kiva(str(H / "kiva_run_jspsych.json"))
    assert py["harness"]["harness_label"] == "jsPsych" and py["source"] == "human"
    rows = json.loads((H / "kiva_run_jspsych.json").read_text())
    want = stage_means(rows, "stage", {"Cross Domain": "cross", "Within Domain": "within_joint",
                                       "Extrapolation": "extrapolation"})
    assert want == {"cross": 1.0, "within_joint": 0.0, "extrapolation": 1.0}
    for stage, mean in want.items():
        assert py["overall"][stage]["mean"] == mean


RUN_SMALL = FIXTURES / "kiva" / "run_small"
#: What Every Eval Ever records do not carry (`score_kiva` of a run has them): the files read,
#: the counts of the original answers, warnings about them, reaction times, and the harness
#: information the read-back adds.
NOT_IN_RECORDS = ("files", "warnings", "reaction_time", "harness")


def scored_part(report: dict) -> dict:
    out = {k: v for k, v in report.items() if k not in NOT_IN_RECORDS}
    out["rows"] = {k: report["rows"][k] for k in ("rows", "trials")}
    return out


@pytest.mark.parametrize("scored,model", [(RUN_SMALL, "gpt4"), (H / "kiva_run_jspsych.csv", "p07")])
def test_kiva_eee_records_read_back(tmp_path: Path, scored: Path, model: str) -> None:
    (s,) = coglab.export_eee(str(scored), kiva=True, model=model, out=tmp_path, timestamp=STAMP)
    back = kiva(s["paths"]["instances"], trials=True)
    original = coglab.score_kiva(str(scored), trials=True)
    assert scored_part(back) == scored_part(original)
    assert back["files"] == [s["paths"]["instances"]]
    h = back["harness"]
    assert (h["harness_label"], h["model"], h["unmapped"]) == ("Every Eval Ever", model, [])
    assert h["records"] == len(s["instances"])
    # The same records as named bytes.
    data = Path(s["paths"]["instances"]).read_bytes()
    named = coglab.score_kiva([("KiVA.jsonl", data)], trials=True)
    assert scored_part(named) == scored_part(original)


def test_kiva_eee_stage_one_from_the_run_csvs(tmp_path: Path) -> None:
    # Stage 1 counted again from MCResponse#1 (1 right; 0, Null and empty wrong), each
    # variation's share of its regenerations, then the mean and the population SD / sqrt(n)
    # over the trials: (2/3, 1, 0, 1) -> 2/3 and sqrt(1/6) / 2.
    trials = []
    for f in sorted(RUN_SMALL.rglob("*.csv")):
        by_var: Dict[str, List[float]] = {}
        for r in csv.DictReader(f.open(newline="")):
            by_var.setdefault(r["Variation"], []).append(r["MCResponse#1"] == "1")
        trials += [sum(v) / len(v) for v in by_var.values()]
    mean = sum(trials) / len(trials)
    se = (sum((t - mean) ** 2 for t in trials) / len(trials)) ** 0.5 / len(trials) ** 0.5
    (s,) = coglab.export_eee(str(RUN_SMALL), kiva=True, model="gpt4", out=tmp_path,
                             timestamp=STAMP)
    back = kiva(s["paths"]["instances"])
    cross = back["overall"]["cross"]
    assert cross["n"] == len(trials) == 4
    assert cross["mean"] == pytest.approx(mean, abs=1e-15) and mean == pytest.approx(2 / 3)
    assert cross["se"] == pytest.approx(se, abs=1e-15)


def test_malformed_kiva_eee_record(tmp_path: Path) -> None:
    (s,) = coglab.export_eee(str(RUN_SMALL), kiva=True, model="gpt4", timestamp=STAMP)
    records = s["instances"]
    records[2]["evaluation"]["score"] = 1.5
    bad = tmp_path / "bad_kiva.jsonl"
    bad.write_text("".join(json.dumps(r) + "\n" for r in records))
    with pytest.raises(coglab.InputError) as e:
        coglab.score_kiva(str(bad))
    err = e.value
    assert (err.file, err.line, err.field) == (str(bad), 3, "evaluation.score")
    assert (err.expected, err.found) == ("a number from 0 to 1 (the share of regenerations right)",
                                         "1.5")
    assert cli("score", "kiva", str(bad)).error == str(err)
    # A record of MM-IQ among KiVA's.
    records[2] = {"evaluation_name": "MM-IQ", "sample_id": "0", "evaluation": {"score": 1.0}}
    bad.write_text("".join(json.dumps(r) + "\n" for r in records))
    with pytest.raises(coglab.InputError) as e:
        coglab.score_kiva(str(bad))
    assert (e.value.line, e.value.field, e.value.found) == (3, "evaluation_name", '"MM-IQ"')
    # With run CSVs: a usage error.
    with pytest.raises(coglab.UsageError, match="a scored set of its own"):
        coglab.score_kiva([str(bad), str(RUN_SMALL)])


def challenge_counts(results: List[Tuple[str, str]]) -> Tuple[int, int, int]:
    """(correct, n, not answered) of challenge results against the annotations: the first
    result of each annotated trial, its option letter against the annotation's."""
    ann = json.loads((H / "kiva_challenge_annotations.json").read_text())
    seen: Dict[str, bool] = {}
    for tid, answer in results:
        if tid in ann and tid not in seen:
            seen[tid] = letter(answer) == letter(ann[tid]["correct"])
    return sum(seen.values()), len(seen), len(ann) - len(seen)


@pytest.mark.parametrize("trials", [False, True])
def test_kiva_challenge_json(trials: bool) -> None:
    ann, res = str(H / "kiva_challenge_annotations.json"), str(H / "kiva_challenge_results.json")
    py = kiva(res, ann, trials=trials)
    assert py["benchmark"] == "kiva_challenge"
    results = [(r["id"], r["answer"]) for r in json.loads(Path(res).read_text())]
    correct, n, missing = challenge_counts(results)
    assert (py["overall"]["correct"], py["overall"]["n"], py["not_answered"]) == (correct, n, missing)
    assert (correct, n) == (3, 4)
    assert ("items" in py) == trials


def test_kiva_challenge_csv_as_named_bytes() -> None:
    ann, res = H / "kiva_challenge_annotations.json", H / "kiva_challenge_results.csv"
    # Named by their paths, as the CLI names them in the report.
    py = coglab.score_kiva([(str(ann), ann.read_bytes()), (str(res), res.read_bytes())],
                           trials=True)
    assert_same(py, kiva(str(ann), str(res), trials=True))
    results = [(r["id"], r["answer"]) for r in csv.DictReader(res.open(newline=""))]
    assert (py["overall"]["correct"], py["overall"]["n"], py["not_answered"]) == \
        challenge_counts(results) == (2, 3, 2)
    assert len(py["items"]) == 3


def test_kiva_challenge_without_annotations_is_a_usage_error() -> None:
    res = str(H / "kiva_challenge_results.csv")
    with pytest.raises(coglab.UsageError) as e:
        coglab.score_kiva(res)
    r = cli("score", "kiva", res)
    assert r.code == 2 and str(e.value) in r.stderr
    assert "found 0 annotation, 1 result and 0 other files" in str(e.value)


# ---------------------------------------------------------------- located errors


def test_malformed_lmms_samples_line(tmp_path: Path) -> None:
    lines = (H / "20231105_samples_mmiq_test.jsonl").read_text().splitlines()
    lines[2] = lines[2][:30]  # line 3 cut short
    bad = tmp_path / "20231105_samples_mmiq_test.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    with pytest.raises(coglab.InputError) as e:
        coglab.score_mmiq(KEY, str(bad))
    err = e.value
    assert (err.file, err.line, err.expected) == (bad.name, 3, "valid JSON")
    assert str(err).startswith(f"{bad.name} line 3: invalid JSON")
    assert cli("score", "mmiq", "--answers", KEY, str(bad)).error == str(err)


def test_malformed_eee_record_field(tmp_path: Path) -> None:
    (s,) = coglab.export_eee(str(H / "inspect_log.json"), answers=KEY, out=tmp_path,
                             timestamp=STAMP)
    records = s["instances"]
    records[1]["evaluation"]["is_correct"] = "yes"
    bad = tmp_path / "bad_eee.jsonl"
    bad.write_text("".join(json.dumps(r) + "\n" for r in records))
    with pytest.raises(coglab.InputError) as e:
        coglab.score_mmiq(KEY, bad)
    err = e.value
    assert (err.file, err.line, err.field) == ("bad_eee.jsonl", 2, "evaluation.is_correct")
    assert (err.expected, err.found) == ("true or false", '"yes"')
    assert cli("score", "mmiq", "--answers", KEY, str(bad)).error == str(err)


def test_malformed_challenge_annotation(tmp_path: Path) -> None:
    ann = json.loads((H / "kiva_challenge_annotations.json").read_text())
    del ann["trial_002"]["correct"]
    bad = tmp_path / "annotations.json"
    bad.write_text(json.dumps(ann))
    res = str(H / "kiva_challenge_results.json")
    with pytest.raises(coglab.InputError) as e:
        coglab.score_kiva([str(bad), res])
    err = e.value
    assert (err.file, err.field, err.expected) == (str(bad), "trial_002.correct", "a string")
    assert cli("score", "kiva", str(bad), res).error == str(err)
