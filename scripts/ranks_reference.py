#!/usr/bin/env python3
"""Independent reference figures for coglab's leaderboard ranks (issue 20, `coglab_core::ranks`).

Run through scripts/ranks-reference.sh, which creates the virtual environment (pinned numpy,
scipy, statsmodels, pandas, krippendorff). Writes JSON files to the output directory, which
crates/coglab-core/tests/ranks.rs compares with:

- binary.json   (fixture tests/fixtures/ranks/binary.json, MM-IQ-like 0/1 items): per pair, in
  board order, the discordant counts, statsmodels `mcnemar(table, exact=True).pvalue`, the
  mid-p `scipy.stats.binomtest(k, n).pvalue - binom.pmf(k, n, .5)`, statsmodels
  `multipletests(p, method="holm")` and `"fdr_bh"`, the rank ranges the Holm decisions allow,
  Connor's minimum detectable difference solved with `scipy.optimize.brentq`, and the paired
  bootstrap intervals and bootstrap rank intervals from a Python port of coglab's `Rng`
  (tests/fixtures/mmiq/bootstrap_reference.py) drawing the same index stream, percentiles by
  `numpy.percentile`. Both "missing counted wrong" and "answered only".
- scores.json   (fixture scores.json, MM-OPERA-ICA-like 0-4 scores with 4 rotations):
  `scipy.stats.wilcoxon(d)` per pair on the item means (exact without ties and n <= 50, else
  method="approx"; zero_method="wilcox", correction=False), Holm, and per model the naive and
  cluster-robust SE of statsmodels `OLS(y, ones)` with `cov_type="cluster"` grouped by item.
- kiva.json     (the real KiVA runs in ../shared/data/kiva/model_data/KiVA): stage-1 answers
  read straight from the CSVs (`MCResponse#1` of 1 or 1.0 right, anything else wrong), trials =
  (subdomain, variation); per model the OLS naive and cluster-by-trial SEs; per pair of models
  scipy `wilcoxon` (approx) on the trial means and Holm; and the strict reading of the stage-1
  answers (a regeneration stays right only when the first two non-empty lines of `Full#1` name
  exactly one option token, regex `\(([0-9A-Z])\)`): each model's strict score and flips;
  and per stage 1-3 the lenient reading (`kiva_lenient` below, Python's `re`): each model's
  lenient score (undetermined readings wrong), the score with them right, the number
  undetermined and the regenerations whose verdict differs between the three rules.
- judges.json   (fixture judges/): per model and judge the score rate, `krippendorff.alpha(...,
  level_of_measurement="ordinal")` over (model, item) units with invalid verdicts missing, and
  `scipy.stats.kendalltau` (tau-b) between judges' model score rates.
"""

import argparse
import glob
import json
import os
import sys
from importlib.metadata import version

import krippendorff
import numpy as np
import statsmodels.api as sm
from scipy.optimize import brentq
from scipy.stats import binom, binomtest, kendalltau, norm, wilcoxon
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "..", "crates", "coglab-core", "tests", "fixtures", "ranks")
sys.path.insert(0, os.path.join(HERE, "..", "crates", "coglab-core", "tests", "fixtures", "mmiq"))
from bootstrap_reference import Rng  # noqa: E402  (the Python port of stats::rng::Rng)

RESAMPLES = 200
SEED = 7


def versions():
    return {p: version(p) for p in ["numpy", "scipy", "statsmodels", "krippendorff"]}


def board_order(names, scores):
    return sorted(names, key=lambda m: (-scores[m], m))


def holm_ranges(order, scores, sig):
    k = len(order)
    out = {}
    for m in order:
        above = sum(1 for o in order if o != m and sig.get(frozenset((m, o))) and scores[o] > scores[m])
        below = sum(1 for o in order if o != m and sig.get(frozenset((m, o))) and scores[o] < scores[m])
        out[m] = [1 + above, k - below]
    return out


def connor_mdd(n, psi, alpha=0.05, power=0.8):
    za, zb = norm.ppf(1 - alpha / 2), norm.ppf(power)
    f = lambda d: za * np.sqrt(psi) + zb * np.sqrt(max(psi - d * d, 0.0)) - d * np.sqrt(n)
    return brentq(f, 1e-12, psi, xtol=1e-15)


def binary(out):
    fx = json.load(open(os.path.join(FIX, "binary.json")))
    items = fx["items"]
    n_items = len(items)
    result = {"provenance": versions(), "resamples": RESAMPLES, "seed": SEED}
    for mode in ["wrong", "answered_only"]:
        vals = {}
        for m, row in fx["models"].items():
            if mode == "wrong":
                vals[m] = [0 if v is None else v for v in row]
            else:
                vals[m] = row
        scores = {}
        for m, row in vals.items():
            got = [v for v in row if v is not None]
            scores[m] = sum(got) / (n_items if mode == "wrong" else len(got))
        order = board_order(list(vals), scores)
        pairs = []
        for i, a in enumerate(order):
            for b in order[i + 1:]:
                idx = [k for k in range(n_items) if vals[a][k] is not None and vals[b][k] is not None]
                x = [vals[a][k] for k in idx]
                y = [vals[b][k] for k in idx]
                b_only = sum(1 for u, v in zip(x, y) if u == 1 and v == 0)
                c_only = sum(1 for u, v in zip(x, y) if u == 0 and v == 1)
                both = sum(1 for u, v in zip(x, y) if u == 1 and v == 1)
                neither = len(idx) - b_only - c_only - both
                p = mcnemar([[both, b_only], [c_only, neither]], exact=True).pvalue
                nd = b_only + c_only
                k = min(b_only, c_only)
                midp = 1.0 if nd == 0 or b_only == c_only else binomtest(k, nd).pvalue - binom.pmf(k, nd, 0.5)
                pairs.append({"a": a, "b": b, "n": len(idx), "a_only": b_only, "b_only": c_only,
                              "p": float(p), "midp": float(midp), "diff": (sum(x) - sum(y)) / len(idx),
                              "idx": idx})
        ps = [q["p"] for q in pairs]
        holm = multipletests(ps, method="holm")[1]
        bh = multipletests(ps, method="fdr_bh")[1]
        sig = {}
        for q, h, f in zip(pairs, holm, bh):
            q["holm"] = float(h)
            q["bh"] = float(f)
            sig[frozenset((q["a"], q["b"]))] = h < 0.05
        ranges = holm_ranges(order, scores, sig)
        ns = [q["n"] for q in pairs]
        psis = [(q["a_only"] + q["b_only"]) / q["n"] for q in pairs]
        mdd = connor_mdd(int(round(float(np.median(ns)))), float(np.median(psis)))
        # Bootstrap: one index stream over the 80 items, every model on the same draws.
        rng = Rng(SEED)
        order_idx = {m: i for i, m in enumerate(order)}
        sums = {m: [] for m in order}
        weights = {m: [] for m in order}
        for _ in range(RESAMPLES):
            draws = [rng.below(n_items) for _ in range(n_items)]
            for m in order:
                s = sum(vals[m][k] for k in draws if vals[m][k] is not None)
                w = sum(1 for k in draws if vals[m][k] is not None)
                sums[m].append(s)
                weights[m].append(w)
        means = {m: [s / w if w else float("nan") for s, w in zip(sums[m], weights[m])] for m in order}
        for q in pairs:
            if q["n"] == n_items:
                d = [(sa - sb) / n_items for sa, sb in zip(sums[q["a"]], sums[q["b"]])]
            else:
                # Own resampling on the shared items (coglab's paired_bootstrap_mean_diff).
                rr = Rng(SEED)
                dd = [vals[q["a"]][k] - vals[q["b"]][k] for k in q["idx"]]
                n = len(dd)
                d = [sum(dd[rr.below(n)] for _ in range(n)) / n for _ in range(RESAMPLES)]
            lo, hi = np.percentile(d, [2.5, 97.5])
            q["diff_low"], q["diff_high"] = float(lo), float(hi)
            del q["idx"]
        boot_ranks = {}
        for m in order:
            # A model tied with others in a resample spans their ranks: its best rank (1 + the
            # models above it) for the low quantile, its worst (1 + above + tied) for the high
            # one (issue 40, docs/coverage.md).
            best = sorted(1 + sum(1 for o in order if o != m and means[o][r] > means[m][r]) for r in range(RESAMPLES))
            worst = sorted(1 + sum(1 for o in order if o != m and means[o][r] >= means[m][r]) for r in range(RESAMPLES))
            boot_ranks[m] = [best[int(np.floor(0.025 * (RESAMPLES - 1)))], worst[int(np.ceil(0.975 * (RESAMPLES - 1)))]]
        result[mode] = {"order": order, "scores": scores, "pairs": pairs, "holm_ranges": ranges,
                        "boot_ranks": boot_ranks, "mdd": mdd, "mdd_n": float(np.median(ns)),
                        "mdd_psi": float(np.median(psis))}
        del order_idx
    json.dump(result, open(os.path.join(out, "binary.json"), "w"), indent=1)


def signed_rank_p(d):
    d = np.round(np.asarray(d, dtype=float), 12)
    nz = d[d != 0]
    if len(nz) == 0:
        return 1.0, "none"
    ties = len(np.unique(np.abs(nz))) < len(nz)
    method = "exact" if len(nz) <= 50 and not ties else "approx"
    return float(wilcoxon(nz, zero_method="wilcox", correction=False, method=method).pvalue), method


def cluster_se(groups):
    y = np.concatenate([np.asarray(g, dtype=float) for g in groups])
    gid = np.concatenate([np.full(len(g), i) for i, g in enumerate(groups)])
    x = np.ones((len(y), 1))
    naive = sm.OLS(y, x).fit()
    clus = sm.OLS(y, x).fit(cov_type="cluster", cov_kwds={"groups": gid})
    return {"mean": float(naive.params[0]), "naive": float(naive.bse[0]), "clustered": float(clus.bse[0])}


def scores_board(out):
    fx = json.load(open(os.path.join(FIX, "scores.json")))
    n_items = len(fx["items"])
    means = {m: [None if r is None else sum(r) / len(r) / 4 for r in rows] for m, rows in fx["models"].items()}
    vals = {m: [0 if v is None else v for v in row] for m, row in means.items()}
    scores = {m: sum(v) / n_items for m, v in vals.items()}
    order = board_order(list(vals), scores)
    pairs = []
    for i, a in enumerate(order):
        for b in order[i + 1:]:
            d = [u - v for u, v in zip(vals[a], vals[b])]
            p, method = signed_rank_p(d)
            pairs.append({"a": a, "b": b, "p": p, "method": method, "sd": float(np.std(d, ddof=1))})
    holm = multipletests([q["p"] for q in pairs], method="holm")[1]
    for q, h in zip(pairs, holm):
        q["holm"] = float(h)
    za, zb = norm.ppf(0.975), norm.ppf(0.8)
    mdd = (za + zb) * float(np.median([q["sd"] for q in pairs])) / np.sqrt(n_items)
    se = {}
    for m, rows in fx["models"].items():
        groups = [[s / 4 for s in r] for r in rows if r is not None]
        se[m] = cluster_se(groups)
    json.dump({"provenance": versions(), "order": order, "scores": scores, "pairs": pairs,
               "mdd": mdd, "se": se}, open(os.path.join(out, "scores.json"), "w"), indent=1)


# The lenient reading of KiVA stage answers (coglab_core::ranks::extraction::kiva_lenient),
# written again with Python's `re`: the earliest standalone option label of the stage or option
# text (any case, the longest at one position); its verdict from the text, from the released
# verdict when it is the repository's earliest "(X)" token, from a text the answer ties the
# label to ("(2) Objects turn Red"), wrong when the released verdict is right, wrong for stage
# 3's D; else undetermined.
KIVA_STAGE1 = ["Orientation of objects", "Number of objects", "Color of objects",
               "Size of objects", "No change between pictures", "Doesn't apply"]
KIVA_FAMILY = {
    "Colour": ["Objects turn " + c for c in ["Red", "Green", "Blue", "Yellow", "Grey"]],
    "2DRotation": [f"Objects {w} {a} degrees" for a in [45, 90, 135, 180]
                   for w in ("rotate by", "turn")],
    "Counting": [f"Things go up by {k}" for k in (1, 2)] + [f"Things go down by {k}" for k in (1, 2)]
                + [f"Things multiply by {k}" for k in (2, 3)] + [f"Things divide by {k}" for k in (2, 3)],
    "Reflect": ["Objects flip upside down", "Objects flip sideways",
                "Objects flip sideways and upside down"],
    "Resize": ["Objects become bigger", "Objects become smaller", "Objects become wider only",
               "Objects become taller only", "Objects become thinner only",
               "Objects become shorter only"],
}
KIVA_DOMAIN_TEXT = {"Colour": "Color of objects", "Resize": "Size of objects",
                    "Counting": "Number of objects", "2DRotation": "Orientation of objects",
                    "Reflect": "Orientation of objects"}


def kiva_right_rule(sub):
    dom = next(d for d in KIVA_FAMILY if sub.startswith(d))
    v = sub[len(dom):]
    if dom == "Colour":
        return {"Objects turn " + v}
    if dom == "2DRotation":
        a = abs(int(v))
        return {f"Objects rotate by {a} degrees", f"Objects turn {a} degrees"}
    if dom == "Counting":
        return {("Things go up by " if v[0] == "+" else "Things go down by ") + v[1:]}
    if dom == "Reflect":
        return {{"X": "Objects flip upside down", "Y": "Objects flip sideways"}[v]}
    return {{"2XY": "Objects become bigger", "0.5XY": "Objects become smaller"}[v]}


def kiva_lenient(answer, sub, stage, official_right):
    import re
    dom = next(d for d in KIVA_FAMILY if sub.startswith(d))
    if stage == 1:
        texts = {t: t == KIVA_DOMAIN_TEXT[dom] for t in KIVA_STAGE1}
    elif stage == 2:
        right = kiva_right_rule(sub)
        texts = {t: t in right for t in KIVA_FAMILY[dom]}
        texts.update({"No change between pictures": False, "Doesn't apply": False})
    else:
        texts = {}
    labels = {1: "1-6", 2: "1-4", 3: "A-D"}[stage]
    label_re = re.compile(r"(?<![A-Za-z0-9_.\u0080-\U0010ffff])([" + labels + r"])(?![A-Za-z0-9_\u0080-\U0010ffff]|\.[0-9])")
    low = answer.lower()
    refs = [(m.start(), 0, "L", m.group(1)) for m in label_re.finditer(answer)]
    for t in texts:
        i = low.find(t.lower())
        if i >= 0:
            refs.append((i, -len(t), "T", t))
    if not refs:
        return 0.0
    _, _, kind, what = min(refs)
    if kind == "T":
        return 1.0 if texts[what] else 0.0
    tokens = [(answer.find(f"({l})"), l) for l in re.findall(".", {1: "123456", 2: "1234", 3: "ABCD"}[stage])
              if f"({l})" in answer]
    official_label = min(tokens)[1] if tokens else None
    if what == official_label:
        return official_right
    for m in label_re.finditer(answer):
        if m.group(1) != what:
            continue
        rest = re.match(r"[) :\-*\"'\t]*", answer[m.end():])
        at = low[m.end() + rest.end():]
        tied = [t for t in texts if at.startswith(t.lower())]
        if tied:
            return 1.0 if texts[max(tied, key=len)] else 0.0
    if official_right == 1.0:
        return 0.0
    if stage == 3 and what == "D":
        return 0.0
    return None


def kiva_lenient_run(folder, stage):
    import csv
    import re
    token = re.compile(r"\(([0-9A-Z])\)")
    trials = {}
    undetermined = 0
    flips = 0
    for path in sorted(glob.glob(os.path.join(folder, "output_*", "*.csv"))):
        sub = os.path.splitext(os.path.basename(path))[0]
        with open(path, newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                v = (row.get(f"MCResponse#{stage}") or "").strip()
                off = 1.0 if v in ("1", "1.0") else 0.0
                full = row.get(f"Full#{stage}")
                if full is None or (stage == 2 and v == ""):
                    strict, low, high, und = off, off, off, False
                else:
                    head = [l.strip() for l in full.splitlines() if l.strip()][:2]
                    strict = off if len(set(token.findall("\n".join(head)))) == 1 else 0.0
                    r = kiva_lenient(full, sub, stage, off)
                    und = r is None
                    low, high = (0.0, 1.0) if und else (r, r)
                undetermined += int(und)
                flips += int(strict != off or low != off or und)
                key = f"{sub}#{int(row['Variation'])}"
                trials.setdefault(key, []).append((low, high))
    n = len(trials)
    return {"score": sum(sum(x[0] for x in t) / len(t) for t in trials.values()) / n,
            "high": sum(sum(x[1] for x in t) / len(t) for t in trials.values()) / n,
            "undetermined": undetermined, "flips": flips}


def kiva(out, data):
    root = os.path.join(data, "kiva", "model_data", "KiVA")
    if not os.path.isdir(root):
        print(f"SKIP kiva.json: {root} not found", file=sys.stderr)
        return
    import csv
    import re
    token = re.compile(r"\(([0-9A-Z])\)")

    def states_one_option(text):
        head = [l.strip() for l in text.splitlines() if l.strip()][:2]
        return len(set(token.findall("\n".join(head)))) == 1
    trials = {}
    strict = {}
    flips = {}
    for model in sorted(os.listdir(root)):
        t = {}
        st = {}
        flips[model] = 0
        for path in sorted(glob.glob(os.path.join(root, model, "output_*", "*.csv"))):
            sub = os.path.splitext(os.path.basename(path))[0]
            with open(path, newline="", encoding="utf-8") as f:
                for row in csv.DictReader(f):
                    v = (row.get("MCResponse#1") or "").strip()
                    right = 1.0 if v in ("1", "1.0") else 0.0
                    key = f"{sub}#{int(row['Variation'])}"
                    t.setdefault(key, []).append(right)
                    full = row.get("Full#1")
                    ok = right if full is None or states_one_option(full) else 0.0
                    flips[model] += int(ok != right)
                    st.setdefault(key, []).append(ok)
        trials[model] = t
        strict[model] = sum(sum(v) / len(v) for v in st.values()) / len(st)
    se = {m: cluster_se([t[k] for k in sorted(t)]) for m, t in trials.items()}
    tm = {m: {k: sum(v) / len(v) for k, v in t.items()} for m, t in trials.items()}
    universe = sorted(set().union(*[set(t) for t in tm.values()]))
    vals = {m: [tm[m].get(k, 0.0) for k in universe] for m in tm}
    scores = {m: sum(v) / len(universe) for m, v in vals.items()}
    order = board_order(list(vals), scores)
    pairs = []
    for i, a in enumerate(order):
        for b in order[i + 1:]:
            d = [u - v for u, v in zip(vals[a], vals[b])]
            p, method = signed_rank_p(d)
            pairs.append({"a": a, "b": b, "p": p, "method": method})
    holm = multipletests([q["p"] for q in pairs], method="holm")[1]
    for q, h in zip(pairs, holm):
        q["holm"] = float(h)
    lenient = {m: {str(st): kiva_lenient_run(os.path.join(root, m), st) for st in (1, 2, 3)}
               for m in sorted(os.listdir(root))}
    json.dump({"provenance": versions(), "trials": len(universe), "order": order, "scores": scores,
               "pairs": pairs, "se": se, "strict_scores": strict, "strict_flips": flips,
               "lenient": lenient},
              open(os.path.join(out, "kiva.json"), "w"), indent=1)


def judges(out):
    jdir = os.path.join(FIX, "judges")
    files = sorted(glob.glob(os.path.join(jdir, "*_RIA_regular_scoring_*.json")))
    scores = {}
    for path in files:
        name = os.path.basename(path)[: -len(".json")]
        model, judge = name.split("_RIA_regular_scoring_")
        scores[(model, judge)] = json.load(open(path))
    models = sorted({m for m, _ in scores})
    judge_names = sorted({j for _, j in scores})

    def valid(v):
        try:
            s = int(v["score_judge"])
            return s if 0 <= s <= 4 else None
        except ValueError:
            return None

    sr = {}
    for (m, j), entries in scores.items():
        counted = [valid(v) or 0 for v in entries.values()]
        sr[f"{m}|{j}"] = sum(counted) / (4 * len(counted))
    units = sorted({(m, i) for (m, _), e in scores.items() for i in e})
    data = np.full((len(judge_names), len(units)), np.nan)
    for u, (m, i) in enumerate(units):
        for r, j in enumerate(judge_names):
            v = scores.get((m, j), {}).get(i)
            if v is not None and valid(v) is not None:
                data[r, u] = valid(v)
    alpha = krippendorff.alpha(reliability_data=data, level_of_measurement="ordinal")
    taus = []
    for a in range(len(judge_names)):
        for b in range(a + 1, len(judge_names)):
            x = [sr[f"{m}|{judge_names[a]}"] for m in models]
            y = [sr[f"{m}|{judge_names[b]}"] for m in models]
            taus.append({"a": judge_names[a], "b": judge_names[b], "tau_b": float(kendalltau(x, y).statistic)})
    json.dump({"provenance": versions(), "judges": judge_names, "models": models, "sr": sr,
               "alpha": float(alpha), "tau": taus}, open(os.path.join(out, "judges.json"), "w"), indent=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--data", required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    binary(args.out)
    scores_board(args.out)
    kiva(args.out, args.data)
    judges(args.out)
    print(f"ranks reference figures written to {args.out}")


if __name__ == "__main__":
    main()
