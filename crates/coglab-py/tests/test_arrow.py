"""Arrow in and out (issue 39, item 4): results as typed ``pyarrow.Table``s (``to_arrow``), and
``pyarrow.Table`` / ``RecordBatchReader`` / pandas DataFrame inputs where a file is taken.

The figures are checked against hand-worked values or a count made here from the raw file,
not only against the file path's result.
"""

from __future__ import annotations

import json
import math
import pickle
from pathlib import Path

import pytest

import coglab
from conftest import assert_same, fixture, shared

pa = pytest.importorskip("pyarrow")
pd = pytest.importorskip("pandas")
import pyarrow.csv as pacsv  # noqa: E402
import pyarrow.json as pajson  # noqa: E402

Z95 = 1.959963984540054  # the 97.5% point of the standard normal


def wilson(k: int, n: int) -> tuple:
    """The Wilson score interval at 95% (Wilson 1927), written out here."""
    p = k / n
    centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 / (1 + Z95**2 / n) * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n))
    return centre - half, centre + half


def jsonl_rows(path) -> list:
    return [json.loads(l) for l in Path(path).read_text().splitlines() if l.strip()]


# ---------------------------------------------------------------- inputs: MM-IQ


def _mmiq_inputs(key: str, pred: str) -> dict:
    """The same answer key and predictions as files, pyarrow Tables, a RecordBatchReader and
    DataFrames."""
    kt, pt = pajson.read_json(key), pajson.read_json(pred)
    return {
        "file": (key, pred),
        "table": (kt, pt),
        "reader": (kt, pa.RecordBatchReader.from_batches(pt.schema, pt.to_batches(2))),
        "dataframe": (pd.DataFrame(jsonl_rows(key)), pd.DataFrame(jsonl_rows(pred))),
        "named": (("key.jsonl", kt.to_pandas()), ("preds.jsonl", pt)),
    }


@pytest.mark.parametrize("kind", ["file", "table", "reader", "dataframe", "named"])
def test_mmiq_fixture_from_tables(kind: str) -> None:
    key, pred = fixture("mmiq/key_small.jsonl"), fixture("mmiq/preds_small.jsonl")
    answers, predictions = _mmiq_inputs(key, pred)[kind]
    r = coglab.score_mmiq(answers, predictions, items=True)
    # Hand-worked (make_small.py): items 0, 2, 4 and 5 right, 1 (chose D, key C) and 3 (no
    # answer) wrong: 4 of 6; Mathematical 2 of 3, 2D-Geometry 1 of 2, Concrete Object 1 of 1.
    assert r["overall"]["correct"] == 4 and r["overall"]["n"] == 6
    assert r["overall"]["accuracy"] == pytest.approx(4 / 6, abs=1e-15)
    low, high = wilson(4, 6)
    assert r["overall"]["ci_low"] == pytest.approx(low, abs=1e-12)
    assert r["overall"]["ci_high"] == pytest.approx(high, abs=1e-12)
    by = r["by_category"]
    assert (by["Mathematical"]["correct"], by["Mathematical"]["n"]) == (2, 3)
    assert (by["2D-Geometry"]["correct"], by["2D-Geometry"]["n"]) == (1, 2)
    assert (by["Concrete Object"]["correct"], by["Concrete Object"]["n"]) == (1, 1)
    # And the whole report equals the file's, but for the inputs' names.
    want = coglab.score_mmiq(key, pred, items=True)
    for k in ("file", "key_file"):
        r[k] = want[k]
    assert_same(r, want, kind)


def test_mmiq_table_names_the_input() -> None:
    key, pred = fixture("mmiq/key_small.jsonl"), fixture("mmiq/preds_small.jsonl")
    r = coglab.score_mmiq(pajson.read_json(key), pd.DataFrame(jsonl_rows(pred)))
    assert r["key_file"] == "<pyarrow.Table: answers>"
    assert r["file"] == "<pandas.DataFrame: predictions>"


@pytest.mark.parametrize("kind", ["table", "dataframe"])
def test_mmiq_real_example_from_tables(kind: str) -> None:
    key = shared("mmiq/MMIQ_benchmark_answer_dict.jsonl")
    pred = shared("mmiq/example_output_parsed.jsonl")
    answers, predictions = _mmiq_inputs(str(key), str(pred))[kind]
    r = coglab.score_mmiq(answers, predictions)
    # Independent count from the raw lines: parsed_pred equal to the key's answer.
    truth = {row["data_id"]: row["answer"] for row in jsonl_rows(key)}
    preds = jsonl_rows(pred)
    correct = sum(1 for p in preds if p["parsed_pred"] == truth[p["data_id"]])
    assert r["overall"]["n"] == len(preds) == 100
    assert r["overall"]["correct"] == correct
    assert r["overall"]["accuracy"] == pytest.approx(correct / 100, abs=1e-15)
    assert r["overall"]["items_in_benchmark"] == 2710
    for cat, row in r["by_category"].items():
        mine = [p for p in preds if p["category"] == cat]
        assert row["n"] == len(mine)
        assert row["correct"] == sum(1 for p in mine if p["parsed_pred"] == truth[p["data_id"]])
    want = coglab.score_mmiq(key, pred)
    for k in ("file", "key_file"):
        r[k] = want[k]
    assert_same(r, want)


# ---------------------------------------------------------------- inputs: KiVA, items, MM-OPERA


def test_kiva_fixture_from_named_dataframes() -> None:
    run = Path(fixture("kiva/run_small"))
    files = sorted(run.rglob("*.csv"))
    tables = [(str(f.relative_to(run)), pd.read_csv(f)) for f in files]
    r = coglab.score_kiva(tables, trials=True)
    # Worked out in crates/coglab-cli/tests/kiva_cli.rs: overall cross mean 2/3, SE sqrt(1/6)/2.
    assert r["overall"]["cross"]["mean"] == pytest.approx(2 / 3, abs=1e-15)
    assert r["overall"]["cross"]["se"] == pytest.approx((1 / 6) ** 0.5 / 2, abs=1e-15)
    want = coglab.score_kiva(str(run), trials=True)
    assert_same(r["overall"], want["overall"])
    assert_same(r["by_subdomain"], want["by_subdomain"])


def test_kiva_real_run_from_pyarrow_tables() -> None:
    run = shared("kiva/model_data/KiVA-adults/gpt4_multi_image")
    files = sorted(run.rglob("*.csv"))
    r = coglab.score_kiva([(str(f.relative_to(run)), pacsv.read_csv(f)) for f in files])
    want = coglab.score_kiva(run)
    assert_same(r["overall"], want["overall"])
    assert_same(r["by_subdomain"], want["by_subdomain"])
    human = shared("kiva/human_adults_KiVA.csv")
    assert_same(coglab.score_kiva(pd.read_csv(human))["overall"],
                coglab.score_kiva(human)["overall"])


def test_items_matrix_from_dataframe() -> None:
    p = fixture("items/small_6x4.csv")
    df = pd.read_csv(p)
    r = coglab.items(df, report=True)
    # Item a: m1, m2, m3, m5 right, m4, m6 wrong: p = 4/6 (as test_items_report).
    assert r["items"][0]["p"] == pytest.approx(4 / 6, abs=1e-12)
    assert_same(r["items"], coglab.items(p, report=True)["items"])
    # A named index is the first column, as the file's respondent column; booleans are 1 / 0.
    indexed = df.set_index("respondent").astype("boolean")
    assert_same(coglab.items(indexed, report=True)["items"], r["items"])


def test_mmopera_ria_from_tables() -> None:
    d = Path(fixture("mmopera/ria"))
    meta = json.loads((d / "metadata.json").read_text())
    judge = json.loads((d / "modelx_RIA_regular_scoring.json").read_text())
    table = pa.Table.from_pylist([{"id": k, **v} for k, v in judge.items()])
    r = coglab.score_mmopera("ria", pa.Table.from_pylist(meta), [table])
    want = coglab.score_mmopera("ria", d / "metadata.json", [d / "modelx_RIA_regular_scoring.json"])
    r["holistic"]["files"] = want["holistic"]["files"]
    for w, x in zip(r["holistic"]["warnings"], want["holistic"]["warnings"]):
        w["file"] = x["file"]
    assert_same(r, want)


def test_describe_from_pyarrow_table() -> None:
    p = fixture("sem/prune.csv")
    r = coglab.describe(pacsv.read_csv(p))
    assert_same(r, coglab.describe(p))
    # Column a1 of prune.csv, its mean worked out from the file.
    col = [float(line.split(",")[1]) for line in Path(p).read_text().splitlines()[1:] if line]
    assert r["a1"]["mean"] == pytest.approx(sum(col) / len(col), abs=1e-12)


# ---------------------------------------------------------------- inputs: errors


def test_table_missing_a_column_is_named() -> None:
    key = pajson.read_json(fixture("mmiq/key_small.jsonl"))
    pred = pajson.read_json(fixture("mmiq/preds_small.jsonl")).drop_columns(["response"])
    with pytest.raises(coglab.InputError) as e:
        coglab.score_mmiq(key, pred)
    err = e.value
    assert err.file == "<pyarrow.Table: predictions>"
    assert err.field == "response"
    # The core's check of a Parquet file's columns, said of the table.
    assert err.expected == "column(s) response (or parsed_pred)"
    assert str(err) == ("<pyarrow.Table: predictions>: no column(s) response (or parsed_pred); "
                        "the table's columns: data_id, category")
    assert err.row is None
    # The key, too.
    with pytest.raises(coglab.InputError) as e:
        coglab.score_mmiq(key.drop_columns(["answer"]), fixture("mmiq/preds_small.jsonl"))
    assert e.value.field == "answer" and e.value.file == "<pyarrow.Table: answers>"
    assert "no column(s) answer; the table's columns: " in str(e.value)
    # Named .jsonl, a table is handed over as JSON lines: the reader's own words.
    with pytest.raises(coglab.InputError) as e:
        coglab.score_mmiq(key, ("preds.jsonl", pred))
    assert e.value.field == "response" and e.value.expected == 'a "response" or "parsed_pred" string'
    assert 'no column "response"' in str(e.value) and "data_id, category" in str(e.value)


def test_bad_cell_names_the_row_and_field() -> None:
    df = pd.DataFrame(jsonl_rows(fixture("mmiq/preds_small.jsonl")))
    df["data_id"] = df["data_id"].astype(object)
    df.loc[2, "data_id"] = "x"
    df["data_id"] = df["data_id"].astype(str)
    with pytest.raises(coglab.InputError) as e:
        coglab.score_mmiq(fixture("mmiq/key_small.jsonl"), df)
    err = e.value
    assert (err.file, err.row, err.field, err.line) == ("<pandas.DataFrame: predictions>", 2,
                                                         "data_id", None)
    assert str(err).startswith("<pandas.DataFrame: predictions> row 2: ")
    # The row survives pickling (Dask, multiprocessing).
    again = pickle.loads(pickle.dumps(err))
    assert (again.row, again.field, str(again)) == (2, "data_id", str(err))
    # A stream of record batches: each batch is a row group of the Parquet file the core
    # reads ("row group 3, row 1"), named here by the table's row.
    t = pa.Table.from_pandas(df, preserve_index=False)
    reader = pa.RecordBatchReader.from_batches(t.schema, t.to_batches(max_chunksize=1))
    t = pa.Table.from_batches(t.to_batches(max_chunksize=1))
    for stream in (reader, t):
        with pytest.raises(coglab.InputError) as e:
            coglab.score_mmiq(fixture("mmiq/key_small.jsonl"), stream)
        assert (e.value.row, e.value.field, e.value.line) == (2, "data_id", None)
        assert str(e.value).startswith(f"<pyarrow.{type(stream).__name__}: predictions> row 2: ")
    # CSV: the row of a response matrix.
    m = pd.read_csv(fixture("items/small_6x4.csv")).astype(str)
    m.loc[3, "b"] = "7"
    with pytest.raises(coglab.InputError) as e:
        coglab.items(m)
    assert (e.value.row, e.value.field) == (3, "b")
    assert "row 3" in str(e.value) and "found \"7\"" in str(e.value)


def test_mixed_column_and_missing_id_are_located() -> None:
    m = pd.read_csv(fixture("items/small_6x4.csv"))
    m["b"] = m["b"].astype(object)
    m.loc[3, "b"] = "7"
    with pytest.raises(coglab.InputError) as e:
        coglab.items(m)
    assert e.value.field == "b" and e.value.file == "<pandas.DataFrame: inputs>"
    d = Path(fixture("mmopera/ria"))
    with pytest.raises(coglab.InputError) as e:
        coglab.score_mmopera("ria", d / "metadata.json", [pa.table({"score_judge": ["3"]})])
    assert e.value.field == "id" and 'no column "id"' in str(e.value)


# ---------------------------------------------------------------- outputs: to_arrow


def test_to_arrow_mmiq_schema_and_values() -> None:
    r = coglab.score_mmiq(fixture("mmiq/key_small.jsonl"), fixture("mmiq/preds_small.jsonl"),
                          items=True)
    assert isinstance(r, coglab.Result) and isinstance(r, dict)
    t = r.to_arrow()
    assert t.schema.names == ["category", "accuracy", "ci_high", "ci_low", "correct", "n"]
    assert t.schema.field("category").type == pa.string()
    for f in ("accuracy", "ci_high", "ci_low"):
        assert t.schema.field(f).type == pa.float64() and t.schema.field(f).nullable
    for f in ("correct", "n"):
        assert t.schema.field(f).type == pa.int64()
    assert t.schema.metadata[b"coglab.table"] == b"by_category"
    rows = {row["category"]: row for row in t.to_pylist()}
    assert rows["Mathematical"]["accuracy"] == pytest.approx(2 / 3, abs=1e-15)
    low, high = wilson(1, 2)
    assert rows["2D-Geometry"]["ci_low"] == pytest.approx(low, abs=1e-12)
    assert rows["2D-Geometry"]["ci_high"] == pytest.approx(high, abs=1e-12)
    items = r.to_arrow("items")
    assert items.schema.field("correct").type == pa.bool_()
    assert items.schema.field("data_id").type == pa.int64()
    assert items.num_rows == 6 and sum(items.column("correct").to_pylist()) == 4
    assert coglab.to_arrow(r, "items").equals(items)


def test_to_arrow_nulls_and_empty_columns() -> None:
    # A figure that could not be computed is a null, typed float64; an empty text field string.
    r = coglab.items(fixture("items/small_6x4.csv"), report=True)
    t = r.to_arrow("items")
    assert t.schema.field("category").type == pa.string()
    assert t.column("category").null_count == t.num_rows
    assert t.schema.field("p").type == pa.float64()
    assert t.schema.field("n").type == pa.int64()
    d = coglab.describe(("d.csv", b"a,b\n1,2\n3,4\n"))
    # Two values: no Cramer-von Mises statistic (None in the dict), a null in Arrow.
    dt = d.to_arrow()
    assert dt.schema.field("cvm_p").type == pa.float64()
    assert dt.column("cvm_p").to_pylist() == [None, None]
    assert dt.column("mean").to_pylist() == [2.0, 3.0]
    assert dt.column("column").to_pylist() == ["a", "b"]
    assert d.to_frame().loc["b", "mean"] == 3.0


def test_to_arrow_rank_and_frame_agree() -> None:
    key = fixture("ranks/extraction_key.jsonl")
    r = coglab.rank("mmiq", {"one": fixture("ranks/extraction_model1.jsonl"),
                             "two": fixture("ranks/extraction_model2.jsonl")}, answers=key)
    t = r.to_arrow()
    assert t.schema.field("name").type == pa.string()
    assert t.schema.field("score").type == pa.float64()
    assert t.schema.field("rank_low").type == pa.int64()
    assert t.column("name").to_pylist() == [m["name"] for m in r["models"]]
    df = r.to_frame()
    assert list(df["score"]) == [m["score"] for m in r["models"]]
    # to_frame is to_arrow().to_pandas() (with the key as index for a mapping).
    m = coglab.score_mmiq(fixture("mmiq/key_small.jsonl"), fixture("mmiq/preds_small.jsonl"))
    f = m.to_frame()
    assert set(f.index) == set(m["by_category"]) and f.index.name is None
    assert f.loc["Mathematical", "correct"] == 2


def test_result_pickles_and_dumps() -> None:
    r = coglab.score_mmiq(fixture("mmiq/key_small.jsonl"), fixture("mmiq/preds_small.jsonl"))
    again = pickle.loads(pickle.dumps(r))
    assert type(again) is coglab.Result and again == r
    assert json.loads(json.dumps(r)) == dict(r)


def test_to_arrow_unknown_table() -> None:
    r = coglab.items(fixture("items/small_6x4.csv"))
    with pytest.raises(coglab.UsageError) as e:
        r.to_arrow("nope")
    assert e.value.field == "nope"
    with pytest.raises(coglab.UsageError) as e:
        r.to_arrow("classical")
    assert "not a table" in str(e.value)


# ---------------------------------------------------------------- estimate, anchors, plan (issue 40)

Z80 = 0.8416212335729143  # the 80% point of the standard normal


def _matrix_rows(path: str) -> dict:
    """A response matrix's rows by respondent, read here from the CSV text ("" unanswered)."""
    lines = Path(path).read_text().splitlines()
    return {cells[0]: cells[1:] for cells in (line.split(",") for line in lines[1:] if line)}


def test_estimate_from_dataframes_and_to_arrow() -> None:
    full, part = fixture("items/estimate_full.csv"), fixture("items/estimate_partial.csv")
    r = coglab.estimate(pd.read_csv(part), calibration=pacsv.read_csv(full))
    assert isinstance(r, coglab.Result)
    assert r["calibration"] == {"items": 10, "respondents": 120, "model": "2pl+guess(0.25)"}
    want = coglab.estimate(part, calibration=full)
    assert_same(r, want)
    t = r.to_arrow()
    assert t.schema.metadata[b"coglab.table"] == b"estimates"
    # The fields in the order of the result's dict (sorted by name, as the CLI's JSON).
    assert t.schema.names == ["answered", "ci_high", "ci_low", "estimate", "id", "observed"]
    assert t.schema.field("id").type == pa.string()
    assert t.schema.field("answered").type == pa.int64()
    for f in ("observed", "estimate", "ci_low", "ci_high"):
        assert t.schema.field(f).type == pa.float64()
    rows = {row["id"]: row for row in t.to_pylist()}
    # Answered and observed counted here from the partial CSV (pandas read its empty cells as
    # NaN, written back as empty cells: still unanswered).
    for rid, cells in _matrix_rows(part).items():
        answered = [c for c in cells if c != ""]
        assert rows[rid]["answered"] == len(answered)
        if answered:
            assert rows[rid]["observed"] == pytest.approx(
                sum(int(c) for c in answered) / len(answered), abs=1e-15)
        else:
            assert rows[rid]["observed"] is None  # a null, not NaN
    # most: 5 of q1-q9 right, q10 unanswered: 5/10 if q10 is wrong, 6/10 if right.
    assert (rows["most"]["ci_low"], rows["most"]["ci_high"]) == (0.5, 0.6)
    assert 0.5 < rows["most"]["estimate"] < 0.6
    assert t.column("observed").null_count == 1
    assert list(r.to_frame()["answered"]) == [3, 3, 0, 9]


def test_anchors_from_dataframe_and_to_arrow() -> None:
    full = fixture("items/estimate_full.csv")
    r = coglab.anchors(pd.read_csv(full), k=4)
    assert_same(r, coglab.anchors(full, k=4))
    t = r.to_arrow()
    assert t.schema.metadata[b"coglab.table"] == b"anchors"
    assert t.schema.field("id").type == pa.string()
    assert t.schema.field("index").type == pa.int64()
    for f in ("weight", "a", "b"):
        assert t.schema.field(f).type == pa.float64()
    header = Path(full).read_text().splitlines()[0].split(",")[1:]
    for row in t.to_pylist():
        # The index is the item's column among the CSV's items (0-based), read off its header.
        assert header[row["index"]] == row["id"]
    # Ten items shared among four anchors: each weight a count of items over 10.
    weights = t.column("weight").to_pylist()
    assert sum(round(w * 10) for w in weights) == 10
    assert all(abs(w * 10 - round(w * 10)) < 1e-9 for w in weights)


def test_plan_from_tables_and_to_arrow() -> None:
    key = fixture("ranks/extraction_key.jsonl")
    files = {"one": pajson.read_json(fixture("ranks/extraction_model1.jsonl")),
             "two": pd.DataFrame(jsonl_rows(fixture("ranks/extraction_model2.jsonl")))}
    r = coglab.plan("mmiq", files, mde=0.03, answers=pajson.read_json(key))
    # The same plan as the files named on the command line.
    want = coglab.plan("mmiq", ["one=" + fixture("ranks/extraction_model1.jsonl"),
                                "two=" + fixture("ranks/extraction_model2.jsonl")],
                       mde=0.03, answers=key)
    assert_same(r, want)
    t = r.to_arrow()
    assert t.schema.metadata[b"coglab.table"] == b"pairs"
    assert t.schema.field("a").type == pa.string() and t.schema.field("b").type == pa.string()
    assert t.schema.field("n").type == pa.int64()
    assert t.schema.field("items").type == pa.int64()
    assert t.schema.field("items_exact").type == pa.float64()
    (pair,) = t.to_pylist()
    assert {pair["a"], pair["b"]} == {"one", "two"}
    # Key A B C D E A; the two models disagree on 1 of 6 items: psi = 1/6. Connor, 3 points at
    # 80% power: [1.959964 sqrt(1/6) + 0.841621 sqrt(1/6 - 0.0009)]^2 / 0.0009 = 1451.136.
    psi = 1 / 6
    connor = (Z95 * math.sqrt(psi) + Z80 * math.sqrt(psi - 0.0009)) ** 2 / 0.0009
    assert pair["n"] == 6 and pair["spread"] == pytest.approx(psi, abs=1e-15)
    assert pair["items_exact"] == pytest.approx(connor, abs=1e-9)
    assert pair["items"] == 1452


def test_plan_table_missing_a_column_is_named() -> None:
    key = pajson.read_json(fixture("ranks/extraction_key.jsonl"))
    one = pajson.read_json(fixture("ranks/extraction_model1.jsonl"))
    with pytest.raises(coglab.InputError) as e:
        coglab.plan("mmiq", {"one": one, "two": one.drop_columns(["response"])}, mde=0.03,
                    answers=key)
    assert e.value.file == "<pyarrow.Table: files['two']>" and e.value.field == "response"
    assert "no column(s) response (or parsed_pred)" in str(e.value)


# ---------------------------------------------------------------- Parquet files (issue 39, item 3)


def test_parquet_file_result_to_arrow(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    key, pred = fixture("mmiq/key_small.jsonl"), fixture("mmiq/preds_small.jsonl")
    p = tmp_path / "preds_small.parquet"
    pq.write_table(pajson.read_json(pred), p)
    r = coglab.score_mmiq(key, p, items=True)
    assert isinstance(r, coglab.Result) and r["file"].endswith("preds_small.parquet")
    t = r.to_arrow()
    rows = {row["category"]: row for row in t.to_pylist()}
    # Hand-worked (make_small.py): Mathematical 2 of 3, 2D-Geometry 1 of 2, Concrete Object 1 of 1.
    assert {c: (row["correct"], row["n"]) for c, row in rows.items()} == {
        "Mathematical": (2, 3), "2D-Geometry": (1, 2), "Concrete Object": (1, 1)}
    low, high = wilson(1, 2)
    assert rows["2D-Geometry"]["ci_low"] == pytest.approx(low, abs=1e-12)
    assert rows["2D-Geometry"]["ci_high"] == pytest.approx(high, abs=1e-12)
    items = r.to_arrow("items")
    assert items.schema.field("correct").type == pa.bool_()
    assert sum(items.column("correct").to_pylist()) == 4
    assert items.equals(coglab.score_mmiq(key, pred, items=True).to_arrow("items"))
