#!/usr/bin/env python3
"""Independent reference figures for coglab's PLS-SEM engine, computed with Python `plspm`.

Run through scripts/plspm-reference.sh, which creates the virtual environment. For each case
below this fits plspm (https://pypi.org/project/plspm/) on the shared data and writes one JSON
file `<case>.json` to the output directory with:

- `spec`: the same model in coglab's spec format (what the Rust test feeds to the engine),
- `data`: the data file name inside ../shared/data/sem,
- `weights`, `loadings` (item -> value), `paths` ("From -> To" -> value), `r2` (construct -> value),
- `provenance`: plspm version and the exact call.

Transformations, so that plspm's figures are comparable with seminr's conventions:

- plspm 0.5.7 with `scaled=True` divides *every* column by one pooled standard deviation (not
  per column), so we standardize each column ourselves with the population SD (ddof = 0) and
  pass `scaled=False`. plspm scales composite scores to population variance 1; with
  population-standardized indicators its outer weights are then exactly the weights of
  seminr's convention (sample-standardized indicators, composites of sample variance 1),
  because both scalings differ by the same factor sqrt(n / (n - 1)).
- plspm stops on a different criterion (sum of squared changes of the unnormalized weights
  < tolerance); we ask for tolerance 1e-18 and up to 1000 iterations so that both engines sit
  on the same fixed point to far better than the 1e-6 the test demands.
- Loadings (correlations), path coefficients (OLS on scores) and R^2 are scale-free.
- plspm's Dillon-Goldstein rho uses principal-component loadings, not PLS loadings, so it is
  not exported.
"""

import argparse
import json
import os
from importlib.metadata import version

import numpy as np
import pandas as pd
import plspm.config as c
from plspm.mode import Mode
from plspm.plspm import Plspm
from plspm.scheme import Scheme

MOBI_BLOCKS = {
    "Image": ["IMAG1", "IMAG2", "IMAG3", "IMAG4", "IMAG5"],
    "Expectation": ["CUEX1", "CUEX2", "CUEX3"],
    "Value": ["PERV1", "PERV2"],
    "Satisfaction": ["CUSA1", "CUSA2", "CUSA3"],
}
MOBI_PATHS = [["Image", "Satisfaction"], ["Expectation", "Satisfaction"], ["Value", "Satisfaction"]]

SAT_BLOCKS = {
    "IMAG": ["imag1", "imag2", "imag3", "imag4", "imag5"],
    "EXPE": ["expe1", "expe2", "expe3", "expe4", "expe5"],
    "QUAL": ["qual1", "qual2", "qual3", "qual4", "qual5"],
    "VAL": ["val1", "val2", "val3", "val4"],
    "SAT": ["sat1", "sat2", "sat3", "sat4"],
    "LOY": ["loy1", "loy2", "loy3", "loy4"],
}
SAT_PATHS = [
    ["IMAG", "EXPE"], ["IMAG", "SAT"], ["IMAG", "LOY"], ["EXPE", "QUAL"], ["EXPE", "VAL"],
    ["EXPE", "SAT"], ["QUAL", "VAL"], ["QUAL", "SAT"], ["VAL", "SAT"], ["SAT", "LOY"],
]

SCHEMES = {"path": Scheme.PATH, "centroid": Scheme.CENTROID, "factorial": Scheme.FACTORIAL}


def load(data_dir, name):
    df = pd.read_csv(os.path.join(data_dir, name), index_col=0)
    return df


def standardize(df, columns):
    sub = df[columns].astype(float)
    return (sub - sub.mean()) / sub.std(ddof=0)


def fit_plain(data, blocks, paths, scheme, modes):
    """Fits plspm on already standardized `data`; returns the model and its path matrix."""
    structure = c.Structure()
    for src, dst in paths:
        structure.add_path([src], [dst])
    path = structure.path()  # TopoSort.order() may only be called once
    config = c.Config(path, scaled=False)
    for lv, items in blocks.items():
        mode = Mode.B if modes.get(lv) == "B" else Mode.A
        config.add_lv(lv, mode, *[c.MV(i) for i in items])
    model = Plspm(data, config, SCHEMES[scheme], iterations=1000, tolerance=1e-18)
    return model, path


def figures_of(model, path):
    outer = model.outer_model()
    pc = model.path_coefficients()
    inner = model.inner_summary()
    out = {
        "weights": {k: float(v) for k, v in outer["weight"].items()},
        "loadings": {k: float(v) for k, v in outer["loading"].items()},
        "paths": {},
        "r2": {k: float(v) for k, v in inner["r_squared"].items() if inner.loc[k, "type"] == "Endogenous"},
    }
    for dst in pc.index:
        for src in pc.columns:
            if path.loc[dst, src] == 1:
                out["paths"][f"{src} -> {dst}"] = float(pc.loc[dst, src])
    return out


def fit(df, blocks, paths, scheme, modes=None, second_order=None):
    """Fits plspm; `blocks` are first-order constructs, `second_order` maps HOC -> LOCs.

    plspm 0.5.7's own `Config.add_higher_order` fails in its second stage ("matrices are not
    aligned": the stage-2 outer design matrix drops the lower-order constructs' items while the
    data keeps them), so the two-stage approach is run here by hand exactly as plspm's
    `Estimator` would: stage 1 replaces each HOC in the paths by its LOCs (antecedent -> every
    LOC, every LOC -> outcome); stage 2 uses the LOC scores as the HOC's Mode-A indicators.
    """
    modes = modes or {}
    second_order = second_order or {}
    columns = [item for items in blocks.values() for item in items]
    data = standardize(df, columns)
    if not second_order:
        model, path = fit_plain(data, blocks, paths, scheme, modes)
        return figures_of(model, path)
    stage1_paths = []
    for src, dst in paths:
        srcs = second_order.get(src, [src])
        dsts = second_order.get(dst, [dst])
        stage1_paths += [[s, d] for s in srcs for d in dsts]
    model1, path1 = fit_plain(data, blocks, stage1_paths, scheme, modes)
    first = figures_of(model1, path1)
    scores = model1.scores()
    locs = {loc for locs in second_order.values() for loc in locs}
    blocks2 = {lv: items for lv, items in blocks.items() if lv not in locs}
    data2 = data[[i for items in blocks2.values() for i in items]].copy()
    for hoc, hoc_locs in second_order.items():
        for loc in hoc_locs:
            s = scores[loc]
            data2[loc] = (s - s.mean()) / s.std(ddof=0)
        blocks2[hoc] = list(hoc_locs)
    model2, path2 = fit_plain(data2, blocks2, paths, scheme, modes)
    second = figures_of(model2, path2)
    # Item weights/loadings of the LOCs come from stage 1; everything else from stage 2.
    out = {"weights": {}, "loadings": {}, "paths": second["paths"], "r2": second["r2"],
           "first_stage": first}
    for key in ("weights", "loadings"):
        for item, v in first[key].items():
            if any(item in blocks[loc] for loc in locs):
                out[key][item] = v
        out[key].update(second[key])
    return out


def spec_of(blocks, paths, scheme, modes=None, second_order=None):
    modes = modes or {}
    constructs = {}
    for lv, items in blocks.items():
        if modes.get(lv) == "B":
            constructs[lv] = {"indicators": items, "mode": "B"}
        else:
            constructs[lv] = items
    spec = {"constructs": constructs, "paths": paths, "scheme": scheme}
    if second_order:
        spec["second_order"] = second_order
    return spec


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True, help="folder holding mobi.csv and satisfaction.csv")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    mobi = load(args.data, "mobi.csv")
    sat = load(args.data, "satisfaction.csv")

    hoc_blocks = {k: v for k, v in MOBI_BLOCKS.items()}
    cases = []
    for scheme in ["path", "centroid", "factorial"]:
        cases.append((f"mobi_modeA_{scheme}", "mobi.csv", mobi, MOBI_BLOCKS, MOBI_PATHS, scheme, None, None))
        cases.append((f"mobi_modeB_image_{scheme}", "mobi.csv", mobi, MOBI_BLOCKS, MOBI_PATHS, scheme,
                      {"Image": "B"}, None))
        cases.append((f"satisfaction_{scheme}", "satisfaction.csv", sat, SAT_BLOCKS, SAT_PATHS, scheme, None, None))
    cases.append(("satisfaction_modeB_qual_val_path", "satisfaction.csv", sat, SAT_BLOCKS, SAT_PATHS, "path",
                  {"QUAL": "B", "VAL": "B"}, None))
    # Two-stage second-order construct: Brand = (Image, Expectation), Brand -> Satisfaction.
    cases.append(("mobi_second_order_path", "mobi.csv", mobi, hoc_blocks,
                  [["Brand", "Satisfaction"], ["Value", "Satisfaction"]], "path", None,
                  {"Brand": ["Image", "Expectation"]}))

    for name, data_name, df, blocks, paths, scheme, modes, hoc in cases:
        figures = fit(df, blocks, paths, scheme, modes, hoc)
        record = {
            "case": name,
            "data": data_name,
            "spec": spec_of(blocks, paths, scheme, modes, hoc),
            "provenance": {
                "package": "plspm",
                "plspm_version": version("plspm"),
                "pandas_version": version("pandas"),
                "numpy_version": version("numpy"),
                "call": (f"Plspm(data standardized per column with ddof=0, Config(path, scaled=False), "
                         f"Scheme.{scheme.upper()}, iterations=1000, tolerance=1e-18)"
                         + (" with config.add_higher_order(..., Mode.A, ...)" if hoc else "")),
            },
            **figures,
        }
        with open(os.path.join(args.out, f"{name}.json"), "w") as f:
            json.dump(record, f, indent=1, sort_keys=True)
        print(f"plspm-reference: wrote {name}.json")


if __name__ == "__main__":
    main()
