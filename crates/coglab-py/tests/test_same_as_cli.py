"""The Python results equal the `coglab` command's `--json` output, field for field (floats to
1e-12), on the repository's fixtures and on the real files in ../shared/data.

Besides the equality with the CLI (both serialize the same `coglab-run` value, so this checks
the conversion to Python and the argument mapping), a few figures are checked against an
independent computation or a hand-worked value, so the tests fail if both sides are wrong.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import coglab
from conftest import ROOT, assert_same, cli_json, fixture, shared

MMIQ = "mmiq"


# ---------------------------------------------------------------- MM-IQ


@pytest.mark.parametrize("pred", ["preds_small.jsonl", "preds_small.tsv", "preds_small.xlsx"])
@pytest.mark.parametrize("items", [False, True])
def test_mmiq_fixtures(pred: str, items: bool) -> None:
    key, p = fixture("mmiq/key_small.jsonl"), fixture(f"mmiq/{pred}")
    flags = ["--items"] if items else []
    py = coglab.score_mmiq(key, p, items=items)
    assert_same(py, cli_json("score", "mmiq", "--answers", key, p, *flags), pred)
    assert ("items" in py and len(py["items"]) > 0) == items or not items


def test_mmiq_precomputed_summary() -> None:
    key, acc = fixture("mmiq/key_small.jsonl"), fixture("mmiq/small_MMIQ_acc.csv")
    py = coglab.score_mmiq(key, acc)
    assert py["precomputed"] is True and py["benchmark"] == "mmiq"
    assert_same(py, cli_json("score", "mmiq", "--answers", key, acc))


def test_mmiq_real_example_predictions() -> None:
    key = shared("mmiq/MMIQ_benchmark_answer_dict.jsonl")
    pred = shared("mmiq/example_output_parsed.jsonl")
    py = coglab.score_mmiq(key, Path(pred), items=True)
    assert_same(py, cli_json("score", "mmiq", "--answers", str(key), str(pred), "--items"))
    # Independent count: parsed_pred equal to the key's answer, over the 100 predictions.
    answers = {}
    for line in key.read_text().splitlines():
        if line.strip():
            r = json.loads(line)
            answers[r["data_id"]] = r["answer"]
    preds = [json.loads(l) for l in pred.read_text().splitlines() if l.strip()]
    correct = sum(1 for r in preds if r["parsed_pred"] == answers[r["data_id"]])
    assert py["overall"]["n"] == len(preds) == 100
    assert py["overall"]["correct"] == correct
    assert py["overall"]["accuracy"] == pytest.approx(correct / 100, abs=1e-15)
    assert py["overall"]["items_in_benchmark"] == 2710


def test_mmiq_bytes_and_named_bytes() -> None:
    key, pred = Path(fixture("mmiq/key_small.jsonl")), Path(fixture("mmiq/preds_small.jsonl"))
    want = cli_json("score", "mmiq", "--answers", str(key), str(pred))
    named = coglab.score_mmiq((key.name, key.read_bytes()), (pred.name, pred.read_bytes()))
    assert_same(named, want)
    anonymous = coglab.score_mmiq(bytearray(key.read_bytes()), memoryview(pred.read_bytes()))
    assert anonymous["file"] == "<bytes>"
    anonymous["file"], anonymous["key_file"] = want["file"], want["key_file"]
    assert_same(anonymous, want)


# ---------------------------------------------------------------- KiVA


def test_kiva_fixture_run() -> None:
    run = fixture("kiva/run_small")
    py = coglab.score_kiva(run, trials=True)
    assert_same(py, cli_json("score", "kiva", run, "--trials"))
    # Worked out in crates/coglab-cli/tests/kiva_cli.rs: overall cross mean 2/3,
    # SE sqrt(1/6)/2.
    assert py["overall"]["cross"]["mean"] == pytest.approx(2 / 3, abs=1e-15)
    assert py["overall"]["cross"]["se"] == pytest.approx((1 / 6) ** 0.5 / 2, abs=1e-15)


def test_kiva_fixture_as_named_bytes() -> None:
    run = Path(fixture("kiva/run_small"))
    files = sorted(run.rglob("*.csv"))
    py = coglab.score_kiva([(str(f), f.read_bytes()) for f in files])
    assert_same(py, cli_json("score", "kiva", *map(str, files)))


@pytest.mark.parametrize("variant", ["KiVA", "KiVA-adults"])
@pytest.mark.parametrize("model", ["gpt4_multi_image", "gpt4_single_image", "mantis_multi_image"])
def test_kiva_real_runs(variant: str, model: str) -> None:
    run = shared(f"kiva/model_data/{variant}/{model}")
    py = coglab.score_kiva(run)
    assert_same(py, cli_json("score", "kiva", str(run)), f"{variant}/{model}")
    assert py["rows"]["rows"] > 0


def test_kiva_real_run_with_adults_and_trials() -> None:
    run = shared("kiva/model_data/KiVA-adults/gpt4_multi_image")
    human = shared("kiva/human_adults_KiVA.csv")
    py = coglab.score_kiva([run], human=human, trials=True)
    assert_same(py, cli_json("score", "kiva", str(run), "--human", str(human), "--trials"))
    assert py["rt_correlation"] is not None


def test_kiva_null_missing() -> None:
    # Issue 23: the Null switch, as `--null missing` (the ColourYellow run has 4 Null answers).
    run = shared("kiva/model_data/KiVA-adults/gpt4_multi_image")
    py = coglab.score_kiva(run, null="missing")
    assert_same(py, cli_json("score", "kiva", str(run), "--null", "missing"))
    assert py["null"] == "missing"
    assert py["overall"]["within_conditional"] != coglab.score_kiva(run)["overall"]["within_conditional"]


def test_kiva_real_adults_alone() -> None:
    human = shared("kiva/human_adults_KiVA.csv")
    assert_same(coglab.score_kiva(human), cli_json("score", "kiva", str(human)))


# ---------------------------------------------------------------- MM-OPERA


def test_mmopera_ria_fixture() -> None:
    d = Path(fixture("mmopera/ria"))
    meta = d / "metadata.json"
    regular = [d / "modelx_RIA_regular_scoring.json", d / "modelx_RIA_regular_scoring_deepseek.json"]
    reasoning = [d / "modelx_RIA_reasoning_scoring.json"]
    answers = d / "modelx_RIA_results.json"
    py = coglab.score_mmopera(task="ria", metadata=meta, regular=regular, reasoning=reasoning,
                              answers=answers, items=True)
    want = cli_json("score", "mmopera", "--task", "ria", "--metadata", str(meta),
                    "--regular", ",".join(map(str, regular)),
                    "--reasoning", ",".join(map(str, reasoning)),
                    "--answers", str(answers), "--items")
    assert_same(py, want)
    assert py["holistic"]["coverage"] is not None


def test_mmopera_ica_fixture_options() -> None:
    d = Path(fixture("mmopera/ica"))
    meta, reg, rea = d / "metadata.csv", d / "modelx_ICA_regular_scoring.json", d / "modelx_ICA_reasoning_scoring.json"
    py = coglab.score_mmopera("ica", meta, reg, rea, alpha=0.5, gamma=0.8, paper_decay=True,
                              exclude_invalid=True, per_label=True)
    want = cli_json("score", "mmopera", "--task", "ica", "--metadata", str(meta), "--regular",
                    str(reg), "--reasoning", str(rea), "--alpha", "0.5", "--gamma", "0.8",
                    "--paper-decay", "--exclude-invalid", "--per-label")
    assert_same(py, want)


def test_mmopera_decay_and_ica_average() -> None:
    # Issue 23: `decay="paper"` is `--decay paper`; `ica_average="paths"` is `--ica-average paths`.
    d = Path(fixture("mmopera/ica"))
    meta, rea = d / "metadata.csv", d / "modelx_ICA_reasoning_scoring.json"
    py = coglab.score_mmopera("ica", meta, reasoning=rea, decay="paper", ica_average="paths")
    want = cli_json("score", "mmopera", "--task", "ica", "--metadata", str(meta), "--reasoning",
                    str(rea), "--decay", "paper", "--ica-average", "paths")
    assert_same(py, want)
    assert py["reasoning"]["ica_average"] == "paths"
    assert py["reasoning"]["decay_exponent"] == "from_one"


def test_mmopera_reasoning_only() -> None:
    d = Path(fixture("mmopera/ria"))
    py = coglab.score_mmopera("ria", d / "metadata.json", reasoning=d / "modelx_RIA_reasoning_scoring.json")
    want = cli_json("score", "mmopera", "--task", "ria", "--metadata", str(d / "metadata.json"),
                    "--reasoning", str(d / "modelx_RIA_reasoning_scoring.json"))
    assert_same(py, want)
    assert py.get("holistic") is None


# ---------------------------------------------------------------- SEM / Gold

MOBI_SPEC = {
    "constructs": {"Image": ["IMAG1", "IMAG2", "IMAG3", "IMAG4", "IMAG5"],
                   "Expectation": ["CUEX1", "CUEX2", "CUEX3"], "Value": ["PERV1", "PERV2"],
                   "Satisfaction": ["CUSA1", "CUSA2", "CUSA3"]},
    "paths": [["Image", "Satisfaction"], ["Expectation", "Satisfaction"], ["Value", "Satisfaction"]],
}

OPENVLM_SPEC = {
    "constructs": {"Perception": ["MMBench_V11", "MMStar", "AI2D", "OCRBench", "HallusionBench"],
                   "Reasoning": ["MMMU_VAL", "MathVista", "MMVet"]},
    "second_order": {"Overall": ["Perception", "Reasoning"]},
    "thresholds": {"vif_max": 5.0, "loading_min": 0.75, "min_indicators": 2},
}


def test_sem_prune_fixture(tmp_path: Path) -> None:
    spec = tmp_path / "prune.json"
    spec.write_text(json.dumps({"constructs": {"A": ["a1", "a2", "a3", "a4"], "B": ["b1", "b2"]},
                                "human_column": "arena"}))
    data = fixture("sem/prune.csv")
    py = coglab.sem(spec, data, prune=True)
    assert_same(py, cli_json("sem", "--spec", str(spec), data, "--prune"))
    # Worked out in coglab-core/tests/sem_gold.rs: a3 then a4 removed, the first for its VIF.
    assert [s["removed"] for s in py["pruning"]] == ["a3", "a4"]
    assert py["pruning"][0]["reason"] == "vif"


def test_sem_listwise_warning(tmp_path: Path) -> None:
    # As crates/coglab-cli/tests/hostile_cli.rs: a1 missing for models 0-19, b2 for 20-21, so
    # listwise deletion drops 22 of 30 models (above the 50% warning share) and 8 remain.
    rows = ["model,a1,a2,b1,b2"]
    for i in range(30):
        x, y = float(i * 7 % 11), float(i * 5 % 13)
        a1 = "NA" if i < 20 else f"{x + 1.0}"
        b2 = "NA" if 20 <= i < 22 else f"{y - x / 2.0}"
        rows.append(f"m{i},{a1},{x * 2.0 - y / 3.0},{y},{b2}")
    data = tmp_path / "sparse.csv"
    data.write_text("\n".join(rows) + "\n")
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"constructs": {"A": ["a1", "a2"], "B": ["b1", "b2"]},
                                "paths": [["A", "B"]]}))
    py = coglab.sem(spec, data)
    assert_same(py, cli_json("sem", "--spec", str(spec), str(data)))
    w = py["listwise_warning"]
    assert (w["dropped"], w["total"], w["used"]) == (22, 30, 8)
    assert w["missing_by_column"] == [{"column": "a1", "missing": 20},
                                      {"column": "b2", "missing": 2}]


def test_describe_fixture() -> None:
    data = fixture("sem/prune.csv")
    py = coglab.describe(data)
    assert_same(py, cli_json("describe", data))
    # a1: 44.0 40.9 39.3 52.9 56.5 50.2 38.0 42.3 57.3 64.8 47.5 35.7 -> sum 569.4, mean 47.45.
    assert py["a1"]["mean"] == pytest.approx(47.45, abs=1e-12)


def test_sem_mobi_bootstrap(tmp_path: Path) -> None:
    mobi = shared("sem/mobi.csv")
    spec = tmp_path / "mobi.json"
    spec.write_text(json.dumps(MOBI_SPEC))
    py = coglab.sem(spec, mobi, bootstrap=200, seed=7)
    assert_same(py, cli_json("sem", "--spec", str(spec), str(mobi), "--bootstrap", "200",
                             "--seed", "7"))
    # seminr's path coefficient Image -> Satisfaction on mobi (mobi_modeA_path oracle).
    assert py["n_models"] == 250


def test_sem_openvlm_two_stage(tmp_path: Path) -> None:
    data = shared("openvlm/models.json")
    spec = tmp_path / "openvlm.json"
    spec.write_text(json.dumps(OPENVLM_SPEC))
    py = coglab.sem(spec, data, prune=True, missing="mean")
    assert_same(py, cli_json("sem", "--spec", str(spec), str(data), "--prune", "--missing", "mean"))
    assert py["n_models"] == 284


def test_describe_real() -> None:
    for rel in ("sem/satisfaction.csv", "openvlm/models.json"):
        p = shared(rel)
        assert_same(coglab.describe(p), cli_json("describe", str(p)), rel)


# ---------------------------------------------------------------- rank


def test_rank_mmiq_fixture_named_entries() -> None:
    key = fixture("ranks/extraction_key.jsonl")
    m1, m2 = fixture("ranks/extraction_model1.jsonl"), fixture("ranks/extraction_model2.jsonl")
    py = coglab.rank("mmiq", [f"one={m1}", f"two={m2}"], answers=key, resamples=500, seed=3)
    want = cli_json("rank", "mmiq", "--answers", key, f"one={m1}", f"two={m2}",
                    "--resamples", "500", "--seed", "3")
    assert_same(py, want)
    # The mapping form names the models the same way.
    assert_same(coglab.rank("mmiq", {"one": m1, "two": m2}, answers=key, resamples=500, seed=3), want)
    assert {m["name"] for m in py["models"]} == {"one", "two"}


def test_rank_mmopera_judges_fixture() -> None:
    d = Path(fixture("ranks/judges"))
    files = sorted(str(p) for p in d.glob("m*_RIA_regular_scoring_*.json"))
    meta = str(d / "metadata.json")
    py = coglab.rank("mmopera", files, metadata=meta, adjust="bh", test="wilcoxon")
    want = cli_json("rank", "mmopera", "--metadata", meta, *files, "--adjust", "bh",
                    "--test", "wilcoxon")
    assert_same(py, want)
    assert py["judges"] is not None


def test_rank_kiva_real() -> None:
    runs = [shared(f"kiva/model_data/KiVA/{m}") for m in
            ("gpt4_multi_image", "gpt4_single_image", "mantis_multi_image")]
    py = coglab.rank("kiva", runs, stage="within_joint", bootstrap_ranks=True, resamples=300)
    want = cli_json("rank", "kiva", *map(str, runs), "--stage", "within_joint",
                    "--bootstrap-ranks", "--resamples", "300")
    assert_same(py, want)
    assert len(py["models"]) == 3


def test_rank_mmiq_real_example() -> None:
    key = shared("mmiq/MMIQ_benchmark_answer_dict.jsonl")
    pred = shared("mmiq/example_output_parsed.jsonl")
    m1 = fixture("ranks/extraction_model1.jsonl")
    py = coglab.rank("mmiq", [f"example={pred}", f"other={m1}"], answers=key, answered_only=True)
    want = cli_json("rank", "mmiq", "--answers", str(key), f"example={pred}", f"other={m1}",
                    "--answered-only")
    assert_same(py, want)


# ---------------------------------------------------------------- items


@pytest.mark.parametrize("name,opts,flags", [
    ("small_6x4.csv", {"model": "rasch", "subset": "none"}, ["--model", "rasch", "--subset", "none"]),
    ("rasch_300x12.csv", {"model": "rasch", "curves": True}, ["--model", "rasch", "--curves"]),
    ("twopl_missing_400x15.csv", {"subset": "discrimination", "tau": 0.9},
     ["--subset", "discrimination", "--tau", "0.9"]),
])
def test_items_fixture_matrices(name: str, opts: dict, flags: list) -> None:
    p = fixture(f"items/{name}")
    py = coglab.items(p, **opts)
    assert_same(py, cli_json("items", p, *flags), name)


def test_items_report() -> None:
    p = fixture("items/small_6x4.csv")
    py = coglab.items(p, report=True)
    assert_same(py, cli_json("items", p, "--report"))
    # Item a: m1, m2, m3, m5 right, m4, m6 wrong: p = 4/6. The 61-point grid runs from -4 to 4,
    # so its middle point is 0.
    assert py["items"][0]["p"] == pytest.approx(4 / 6, abs=1e-12)
    assert len(py["respondents"]) == 6
    assert len(py["theta"]) == 61 and py["theta"][30] == pytest.approx(0.0, abs=1e-12)


def test_items_mmiq_predictions() -> None:
    key = fixture("ranks/extraction_key.jsonl")
    preds = [fixture("ranks/extraction_model1.jsonl"), fixture("ranks/extraction_model2.jsonl"),
             fixture("mmiq/preds_small.jsonl")]
    cli_out = None
    try:
        py = coglab.items(preds, answers=key, model="rasch")
    except coglab.InputError as e:
        cli_res = __import__("conftest").cli("items", "--answers", key, *preds, "--model", "rasch", "--json")
        assert cli_res.error == str(e)
        return
    cli_out = cli_json("items", "--answers", key, *preds, "--model", "rasch")
    assert_same(py, cli_out)


def test_items_kiva_real_with_adults() -> None:
    runs = [shared(f"kiva/model_data/KiVA/{m}") for m in
            ("gpt4_multi_image", "gpt4_single_image", "mantis_multi_image")]
    human = shared("kiva/human_adults_KiVA.csv")
    py = coglab.items([*runs, human], stage="cross", per_subdomain=True, model="rasch")
    want = cli_json("items", *map(str, runs), str(human), "--stage", "cross", "--per-subdomain",
                    "--model", "rasch")
    assert_same(py, want)
    assert len(py["respondents"]) > 3


def test_the_comparison_sees_differences() -> None:
    # The comparison used above is not vacuous: a last-digit change, a missing key, a type
    # change and a reordered list are all differences.
    from conftest import diff
    a = {"x": 0.1 + 0.2, "y": [1, 2], "z": True}
    assert diff(a, {"x": 0.30000000000000004, "y": [1, 2], "z": True}) == []
    assert diff(a, {"x": 0.3000001, "y": [1, 2], "z": True})
    assert diff(a, {"x": 0.1 + 0.2, "y": [2, 1], "z": True})
    assert diff(a, {"x": 0.1 + 0.2, "y": [1, 2]})
    assert diff(a, {"x": 0.1 + 0.2, "y": [1, 2], "z": 1})


# ---------------------------------------------------------------- KiVA self-test (issue 41)


@pytest.mark.parametrize("form,trials", [("adaptive", 10), ("fixed", 14)])
def test_selftest_simulate_equals_the_cli(form: str, trials: int) -> None:
    py = coglab.selftest_simulate(form=form, trials=trials, takers=200, seed=41)
    cli = cli_json(
        "selftest", "simulate", "--form", form, "--trials", str(trials),
        "--takers", "200", "--seed", "41",
    )
    assert_same(py, cli, form)
    assert sorted(py) == ["coverage", "form", "mean_se", "rmse", "takers", "trials"]
    assert (py["form"], py["trials"], py["takers"]) == (form, trials, 200)


def test_selftest_bank_is_the_shipped_file() -> None:
    shipped = json.loads((ROOT / "public" / "data" / "kiva-bank.json").read_text())
    bank = coglab.selftest_bank()
    assert_same(bank, shipped, "kiva-bank.json")
    assert len(bank["items"]) == 42 and bank["items"][0]["id"] == "2DRotation+90/cross"
    # The same file given as bytes gives the same simulation as the built-in bank.
    raw = (ROOT / "public" / "data" / "kiva-bank.json").read_bytes()
    assert coglab.selftest_simulate(takers=30, bank=("bank.json", raw)) == coglab.selftest_simulate(takers=30)


def test_selftest_bad_options_raise_usage_and_input_errors() -> None:
    with pytest.raises(coglab.UsageError):
        coglab.selftest_simulate(form="random")
    with pytest.raises(coglab.UsageError):
        coglab.selftest_simulate(trials=0)
    with pytest.raises(coglab.InputError) as e:
        coglab.selftest_bank(("short.json", b'{"items": []}'))
    assert e.value.file == "short.json"
