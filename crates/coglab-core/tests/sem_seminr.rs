//! The PLS engine against seminr's own output on mobi (../shared/data/sem/mobi_modeA_path):
//! four Mode-A composites (Image = IMAG1-5, Expectation = CUEX1-3, Value = PERV1-2,
//! Satisfaction = CUSA1-3), paths Image, Expectation, Value -> Satisfaction, path weighting,
//! start weights 1, stop at Σ|Δw| < 1e-7 (max 300). The reference files were computed by the
//! R package seminr (and reproduced to 1e-15 by an independent implementation, per the data
//! README); every figure must match to 1e-6.

use crate::common;

use coglab_core::sem::{analyze, SemOptions, SemReport};
use std::collections::HashMap;

const SPEC: &str = r#"{
  "constructs": {
    "Image": ["IMAG1", "IMAG2", "IMAG3", "IMAG4", "IMAG5"],
    "Expectation": ["CUEX1", "CUEX2", "CUEX3"],
    "Value": ["PERV1", "PERV2"],
    "Satisfaction": ["CUSA1", "CUSA2", "CUSA3"]
  },
  "paths": [["Image", "Satisfaction"], ["Expectation", "Satisfaction"], ["Value", "Satisfaction"]],
  "scheme": "path"
}"#;

const TOL: f64 = 1e-6;

/// A reference CSV as rows of cells (quotes stripped), header first.
fn rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            l.split(',')
                .map(|c| c.trim().trim_matches('"').to_string())
                .collect()
        })
        .collect()
}

fn num(s: &str) -> f64 {
    s.parse()
        .unwrap_or_else(|_| panic!("reference cell {s:?} is not a number"))
}

fn close(what: &str, got: f64, want: f64) {
    assert!(
        (got - want).abs() < TOL,
        "{what}: got {got}, seminr {want} (diff {:e})",
        (got - want).abs()
    );
}

fn fit() -> Option<SemReport> {
    let data = common::shared_bytes("sem/mobi.csv")?;
    Some(
        analyze(
            SPEC,
            "mobi_spec.json",
            &data,
            "mobi.csv",
            &SemOptions::default(),
        )
        .expect("mobi model fits"),
    )
}

#[test]
fn outer_weights_and_loadings() {
    let (Some(r), Some(text)) = (
        fit(),
        common::shared_text("sem/mobi_modeA_path/outer_model_path.csv"),
    ) else {
        return;
    };
    assert_eq!(r.n_models, 250);
    let table = rows(&text);
    assert_eq!(
        table[0][1..3],
        ["weight".to_string(), "loading".to_string()]
    );
    for row in &table[1..] {
        let e = &r.outer[&row[0]];
        close(&format!("{} weight", row[0]), e.weight, num(&row[1]));
        close(&format!("{} loading", row[0]), e.loading, num(&row[2]));
    }
    assert_eq!(r.outer.len(), table.len() - 1);
}

#[test]
fn paths_r2_and_ave() {
    let Some(r) = fit() else { return };
    let (Some(pc), Some(inner)) = (
        common::shared_text("sem/mobi_modeA_path/path_coefficients_path.csv"),
        common::shared_text("sem/mobi_modeA_path/inner_summary_path.csv"),
    ) else {
        return;
    };
    let pc = rows(&pc);
    let header = &pc[0];
    for row in &pc[1..] {
        for (j, cell) in row.iter().enumerate().skip(1) {
            let v = num(cell);
            // This export has targets as rows and sources as columns (the Satisfaction row
            // holds the three coefficients; the other rows are zero).
            let key = format!("{} -> {}", header[j], row[0]);
            match r.paths.get(&key) {
                Some(got) => close(&key, *got, v),
                None => assert_eq!(v, 0.0, "{key} is zero in seminr"),
            }
        }
    }
    assert_eq!(r.paths.len(), 3);
    let inner = rows(&inner);
    for row in &inner[1..] {
        let (name, r2, r2_adj, ave) = (&row[0], num(&row[2]), num(&row[3]), num(&row[6]));
        if row[1] == "Endogenous" {
            close(&format!("R² {name}"), r.r2[name], r2);
            close(&format!("adj R² {name}"), r.r2_adj[name], r2_adj);
        } else {
            assert!(!r.r2.contains_key(name));
        }
        close(&format!("AVE {name}"), r.reliability[name].ave, ave);
    }
}

#[test]
fn reliability_alpha_rho_c_rho_a() {
    let Some(r) = fit() else { return };
    let Some(text) = common::shared_text("sem/mobi_modeA_path/reliability_alpha_rhoC_AVE_rhoA.csv")
    else {
        return;
    };
    let table = rows(&text);
    assert_eq!(
        table[0][1..],
        ["alpha", "rhoC", "AVE", "rhoA"].map(String::from)
    );
    for row in &table[1..] {
        let rel = &r.reliability[&row[0]];
        close(&format!("alpha {}", row[0]), rel.alpha, num(&row[1]));
        close(&format!("rhoC {}", row[0]), rel.rho_c, num(&row[2]));
        close(&format!("AVE {}", row[0]), rel.ave, num(&row[3]));
        close(&format!("rhoA {}", row[0]), rel.rho_a, num(&row[4]));
    }
}

#[test]
fn htmt_and_item_vifs() {
    let Some(r) = fit() else { return };
    let (Some(h), Some(v)) = (
        common::shared_text("sem/mobi_modeA_path/htmt.csv"),
        common::shared_text("sem/mobi_modeA_path/vif_items.csv"),
    ) else {
        return;
    };
    let h = rows(&h);
    let names = &h[0];
    let mut seen = 0;
    for row in &h[1..] {
        for (j, cell) in row.iter().enumerate().skip(1) {
            if cell.is_empty() {
                continue;
            }
            let key = format!("{}|{}", row[0], names[j]);
            close(&format!("HTMT {key}"), r.htmt[&key], num(cell));
            seen += 1;
        }
    }
    assert_eq!(seen, 6);
    let v = rows(&v);
    let mut by_item = HashMap::new();
    for row in &v[1..] {
        by_item.insert(row[1].clone(), num(&row[2]));
        close(&format!("VIF {}", row[1]), r.vif[&row[1]], num(&row[2]));
        assert_eq!(r.outer[&row[1]].construct, row[0]);
    }
    assert_eq!(by_item.len(), 13);
}

#[test]
fn gold_diagnostics_from_the_seminr_figures() {
    // D_div, TC and D_valid recomputed here from seminr's own HTMT, loadings and VIFs:
    // max HTMT = 0.910100923783 (Image|Satisfaction) -> D_div = 1 / 1.820201847566 = 0.549389;
    // TC = mean |loading| over the 13 items = 9.838... / 13; D_valid = exp(-mean ln VIF).
    let Some(r) = fit() else { return };
    let (Some(o), Some(v)) = (
        common::shared_text("sem/mobi_modeA_path/outer_model_path.csv"),
        common::shared_text("sem/mobi_modeA_path/vif_items.csv"),
    ) else {
        return;
    };
    let loadings: Vec<f64> = rows(&o)[1..].iter().map(|row| num(&row[2]).abs()).collect();
    let vifs: Vec<f64> = rows(&v)[1..].iter().map(|row| num(&row[2])).collect();
    close(
        "D_div",
        r.diagnostics.d_div.unwrap(),
        1.0 / (2.0 * 0.910_100_923_783),
    );
    close("TC", r.diagnostics.tc, loadings.iter().sum::<f64>() / 13.0);
    close(
        "D_valid",
        r.diagnostics.d_valid,
        (-vifs.iter().map(|x| x.ln()).sum::<f64>() / 13.0).exp(),
    );
}
