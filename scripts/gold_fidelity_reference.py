#!/usr/bin/env python3
"""Independent figures for the Gold fidelity switches (issue 23), printed as JSON.

Run: .tools/venv-gold/bin/python scripts/gold_fidelity_reference.py
(venv: python3 -m venv .tools/venv-gold && .tools/venv-gold/bin/pip install numpy==2.2.6
 plspm==0.5.7 "pandas<2.3"). crates/coglab-core/tests/sem_fidelity.rs holds the printed
figures, each test naming this command. Nothing here calls coglab.

- `htmt`: HTMT of Gold's Table 2 layers (public/data/gold.json, Overall left out), standard
  (Henseler 2015: mean |r| between over the geometric mean of both blocks' mean |r| within)
  and the paper's Eq. 1 (signed r between over block i's mean signed r within).
- `mode`: loadings of the Table 2 tasks in stage 1 of layers -> Overall without a human
  column, where every layer has no structural neighbour and so is its own inner proxy:
  Mode A converges to the block's first principal component (loading = sqrt(l1) v1), Mode B
  keeps its starting equal weights (w = R^-1 R w), loading_k = sum_j R_kj / sqrt(1'R1).
- `algorithm1`: the paper's Algorithm 1 as printed on tests/fixtures/sem/prune.csv
  (A = a1..a4, B = b1, b2, both -> arena): each pass fits plspm (path scheme) and removes
  every task with VIF > 5 and every task with |loading| < 0.75, no floor.
- `arena_top`: prune.csv with A = {a1, a2}, B = {b1, b2}, Overall = [A, B] and arena as an
  indicator of Overall (paper section 2.2): stage 1 blocks are isolated (first principal
  components), stage 2's Overall block [score A, score B, arena] is isolated too, so its
  loadings are sqrt(l1) v1 of that 3 x 3 correlation matrix.
"""

import json
import os

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def table2():
    with open(os.path.join(REPO, "public/data/gold.json"), encoding="utf-8") as f:
        bundle = json.load(f)
    t = next(t for t in bundle["tables"] if t["id"] == "gold-table2")
    cols = [c for c in t["columns"] if c != "Overall"]
    idx = [t["columns"].index(c) for c in cols]
    x = np.array([[r["values"][j] for j in idx] for r in t["rows"]], dtype=float)
    return cols, x


LAYERS = {
    "Perception": ["Color", "Count", "OCR"],
    "Memory": ["Artwork", "Landmark", "BMK"],
    "Reasoning": ["Biology", "CS", "Economics", "Electronics", "Math"],
}


def within(r, a, signed):
    vals = [r[i, j] if signed else abs(r[i, j]) for k, i in enumerate(a) for j in a[k + 1:]]
    return 1.0 if not vals else float(np.mean(vals))


def htmt(r, a, b, variant):
    signed = variant == "eq1"
    between = float(np.mean([r[i, j] if signed else abs(r[i, j]) for i in a for j in b]))
    if variant == "eq1":
        return between / within(r, a, True)
    return between / np.sqrt(within(r, a, False) * within(r, b, False))


def first_pc_loadings(r):
    vals, vecs = np.linalg.eigh(r)
    v = vecs[:, -1]
    if v.sum() < 0:
        v = -v
    return np.sqrt(vals[-1]) * v, v / np.sqrt(v @ r @ v)


def gold_figures():
    cols, x = table2()
    r = np.corrcoef(x, rowvar=False)
    pos = {c: i for i, c in enumerate(cols)}
    names = list(LAYERS)
    out = {"htmt": {}, "mode": {"A": {}, "B": {}}}
    for variant in ["standard", "eq1"]:
        vals = {}
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                ia = [pos[c] for c in LAYERS[a]]
                ib = [pos[c] for c in LAYERS[b]]
                vals[f"{a}|{b}"] = htmt(r, ia, ib, variant)
        out["htmt"][variant] = vals
        out["htmt"][variant + "_d_div"] = min(1.0, 1.0 / (2.0 * max(vals.values())))
    for name, items in LAYERS.items():
        ix = [pos[c] for c in items]
        rb = r[np.ix_(ix, ix)]
        la, _ = first_pc_loadings(rb)
        ones = np.ones(len(ix))
        lb = rb @ ones / np.sqrt(ones @ rb @ ones)
        for k, c in enumerate(items):
            out["mode"]["A"][c] = float(la[k])
            out["mode"]["B"][c] = float(lb[k])
    return out


def prune_csv():
    import pandas as pd

    return pd.read_csv(os.path.join(REPO, "crates/coglab-core/tests/fixtures/sem/prune.csv"), index_col=0)


def plspm_loadings(df, blocks):
    import plspm.config as c
    from plspm.mode import Mode
    from plspm.plspm import Plspm
    from plspm.scheme import Scheme

    cols = [i for items in blocks.values() for i in items] + ["arena"]
    sub = df[cols].astype(float)
    data = (sub - sub.mean()) / sub.std(ddof=0)
    structure = c.Structure()
    for lv in blocks:
        structure.add_path([lv], ["ARENA"])
    config = c.Config(structure.path(), scaled=False)
    for lv, items in blocks.items():
        config.add_lv(lv, Mode.A, *[c.MV(i) for i in items])
    config.add_lv("ARENA", Mode.A, c.MV("arena"))
    model = Plspm(data, config, Scheme.PATH, iterations=1000, tolerance=1e-18)
    return {k: float(v) for k, v in model.outer_model()["loading"].items()}


def vifs(df, blocks):
    out = {}
    for items in blocks.values():
        if len(items) == 1:
            out[items[0]] = 1.0
            continue
        r = np.corrcoef(df[items].to_numpy(dtype=float), rowvar=False)
        inv = np.linalg.inv(r)
        for k, i in enumerate(items):
            out[i] = float(inv[k, k])
    return out


def algorithm1():
    df = prune_csv()
    blocks = {"A": ["a1", "a2", "a3", "a4"], "B": ["b1", "b2"]}
    passes = []
    while True:
        v = vifs(df, blocks)
        lo = plspm_loadings(df, blocks)
        tasks = [i for items in blocks.values() for i in items]
        removed = [(t, "vif", v[t]) for t in tasks if v[t] > 5.0]
        removed += [(t, "loading", lo[t]) for t in tasks
                    if abs(lo[t]) < 0.75 and t not in [x[0] for x in removed]]
        if not removed:
            break
        passes.append({"vif": v, "loadings": {t: lo[t] for t in tasks}, "removed": removed})
        gone = {x[0] for x in removed}
        blocks = {k: [i for i in items if i not in gone] for k, items in blocks.items()}
        if any(not items for items in blocks.values()):
            passes.append({"emptied": [k for k, items in blocks.items() if not items]})
            break
    return {"passes": passes, "final": blocks}


def arena_top():
    df = prune_csv()
    z = (df - df.mean()) / df.std(ddof=1)
    scores = {}
    for lv, items in {"A": ["a1", "a2"], "B": ["b1", "b2"]}.items():
        r = np.corrcoef(z[items].to_numpy(), rowvar=False)
        _, w = first_pc_loadings(r)
        s = z[items].to_numpy() @ w
        scores[lv] = s / s.std(ddof=1)
    m = np.column_stack([scores["A"], scores["B"], z["arena"].to_numpy()])
    r2 = np.corrcoef(m, rowvar=False)
    lo, w = first_pc_loadings(r2)
    return {"loadings": dict(zip(["A", "B", "arena"], map(float, lo))),
            "weights": dict(zip(["A", "B", "arena"], map(float, w)))}


if __name__ == "__main__":
    out = gold_figures()
    try:
        out["algorithm1"] = algorithm1()
        out["arena_top"] = arena_top()
    except ImportError as e:  # pandas / plspm missing
        out["skipped"] = str(e)
    print(json.dumps(out, indent=1, default=float))
