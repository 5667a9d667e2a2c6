"""Independent reference figures for the item analysis (issue 22).

For each response matrix CSV in the fixtures folder (first column the respondent id, cells 1, 0
or empty), writes <out>/<name>.json with:
- classical statistics computed with pandas/numpy: proportion right per item, the corrected
  point-biserial (Pearson between the item and the proportion right on the *other* answered
  items, over respondents who answered the item and at least one other), Cronbach's alpha and
  alpha-if-item-deleted on the complete cases;
- girth 0.8.0's Rasch (`rasch_mml`, a = 1) and 2PL (`twopl_mml`) estimates with its defaults
  except no lookup table (`use_LUT: False`) and up to 200 cycles, plus girth's EAP abilities.

Run by scripts/items-reference.sh; crates/coglab-core/tests/items_reference.rs compares.
"""
import argparse
import json
import pathlib

import girth
import numpy as np
import pandas as pd


def classical(df):
    x = df.to_numpy(dtype=float)  # NaN = missing
    answered = ~np.isnan(x)
    n_ans = answered.sum(axis=1)
    n_right = np.nansum(x, axis=1)
    p, rpb = [], []
    for j in range(x.shape[1]):
        col = x[:, j]
        ok = answered[:, j] & (n_ans >= 2)
        p.append(float(np.nanmean(col)) if answered[:, j].any() else None)
        xi = col[ok]
        rest = (n_right[ok] - xi) / (n_ans[ok] - 1)
        if ok.sum() < 2 or xi.std() == 0 or rest.std() == 0:
            rpb.append(None)
        else:
            rpb.append(float(pd.Series(xi).corr(pd.Series(rest))))
    complete = df.dropna()

    def alpha(d):
        k = d.shape[1]
        if len(d) < 2 or k < 2:
            return None
        tv = d.sum(axis=1).var(ddof=1)
        if tv <= 0:
            return None
        return float(k / (k - 1) * (1 - d.var(ddof=1).sum() / tv))

    return {
        "p": p,
        "point_biserial": rpb,
        "alpha": alpha(complete),
        "alpha_n": int(len(complete)),
        "alpha_if_deleted": [alpha(complete.drop(columns=c)) for c in df.columns],
    }


def girth_fits(df):
    x = df.to_numpy(dtype=float).T  # items x participants
    data = np.where(np.isnan(x), girth.INVALID_RESPONSE, x).astype(int)
    if np.isnan(x).any():
        data = girth.tag_missing_data(data, [0, 1])
    opts = {"use_LUT": False, "max_iteration": 200}
    rasch = girth.rasch_mml(data, discrimination=1, options=opts)
    twopl = girth.twopl_mml(data, options=opts)
    rasch_theta = girth.ability_eap(data, rasch["Difficulty"], np.ones(x.shape[0]))
    return {
        "rasch": {
            "difficulty": [float(v) for v in rasch["Difficulty"]],
            "ability": [float(v) for v in rasch_theta],
        },
        "twopl": {
            "discrimination": [float(v) for v in twopl["Discrimination"]],
            "difficulty": [float(v) for v in twopl["Difficulty"]],
            "ability": [float(v) for v in twopl["Ability"]],
        },
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for path in sorted(pathlib.Path(args.fixtures).glob("*.csv")):
        df = pd.read_csv(path, index_col=0, dtype={0: str}).astype(float)
        res = {"file": path.name, "items": list(df.columns), "classical": classical(df)}
        if len(df) >= 50:
            res.update(girth_fits(df))
        (out / f"{path.stem}.json").write_text(json.dumps(res, indent=1))
        print(f"items-reference: {path.name} -> {out / (path.stem + '.json')}")


if __name__ == "__main__":
    main()
