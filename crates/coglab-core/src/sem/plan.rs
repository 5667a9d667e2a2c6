//! A PLS model compiled against a score table's columns ([`Plan`]) and its two-stage fit
//! ([`Estimates`]): which columns are indicators of which construct in each stage, the paths,
//! and the figures every later step reads (reported indicators, item VIFs, HTMT, Gold's
//! diagnostics).
//!
//! The whole analysis ([`super::analysis`]) builds a plan, fits it, prunes with it and hands it
//! to the bootstrap ([`super::bootstrap`]), which refits it on every resample; both sit above
//! it.

use super::engine::{fit, regress, Block, EngineError, Fit, Mode, Structure};
use super::quality::{self, Diagnostics, HtmtVariant};
use super::spec::ModelSpec;
use super::SemError;
use crate::linalg::Matrix;
use std::collections::{BTreeMap, BTreeSet};

/// Stage-2 indicator: a stage-1 item (position in `Plan::items`) or a stage-1 construct score.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Ind2 {
    Item(usize),
    Score(usize),
}

#[derive(Debug, Clone)]
pub(crate) struct Stage2 {
    pub inds: Vec<Ind2>,
    pub names: Vec<String>,
    pub st: Structure,
    pub paths: Vec<(usize, usize)>,
    pub order: Vec<u8>,
}

/// A model compiled against the table's columns.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    /// Positions (in the table) of the active stage-1 indicators.
    pub items: Vec<usize>,
    pub item_names: Vec<String>,
    pub st1: Structure,
    pub paths1: Vec<(usize, usize)>,
    /// Per stage-1 block: is it the human anchor?
    pub human1: Vec<bool>,
    /// Per stage-1 block: is it a lower-order construct?
    pub loc1: Vec<bool>,
    pub stage2: Option<Stage2>,
    pub max_iterations: usize,
    pub tolerance: f64,
    /// The HTMT formula.
    pub htmt: HtmtVariant,
    /// The human column is an indicator of the second-order construct (paper §2.2).
    pub arena_top: bool,
}

/// Fitted stages.
#[derive(Debug, Clone)]
pub(crate) struct Estimates {
    pub fit1: Fit,
    pub stage2: Option<(Matrix, Fit)>,
    /// Final-stage path coefficients per endogenous construct (aligned with preds).
    pub betas: Vec<Vec<f64>>,
    pub r2: Vec<Option<f64>>,
}

/// One reported indicator: which stage/block it comes from.
#[derive(Debug, Clone)]
pub(crate) struct Measured {
    pub name: String,
    pub construct: String,
    pub weight: f64,
    pub loading: f64,
    /// A task indicator (not the human anchor, not a lower-order construct score).
    pub task: bool,
    /// Stage-1 block (for task items).
    pub block1: Option<usize>,
}

impl Plan {
    /// Compiles `spec` against the table's columns `table_names`, leaving out the indicators in
    /// `excluded` (pruned); `human_on_top` asks for the human column as an indicator of the
    /// top construct (`ArenaPlacement::TopIndicator`), which needs one second-order construct.
    pub fn build(
        spec: &ModelSpec,
        table_names: &[String],
        excluded: &BTreeSet<String>,
        max_iterations: usize,
        htmt: HtmtVariant,
        human_on_top: bool,
    ) -> Plan {
        let anchor = spec.human_anchor().map(str::to_string);
        let arena_top = human_on_top && anchor.is_some() && spec.second_order.len() == 1;
        let pos = |n: &str| table_names.iter().position(|t| t == n).unwrap_or(0);
        let mut items = Vec::new();
        let mut item_names = Vec::new();
        let mut blocks = Vec::new();
        let mut human1 = Vec::new();
        let mut loc1 = Vec::new();
        for c in &spec.constructs {
            let mut idx = Vec::new();
            for ind in c.indicators.iter().filter(|i| !excluded.contains(*i)) {
                idx.push(items.len());
                items.push(pos(ind));
                item_names.push(ind.clone());
            }
            blocks.push(Block {
                name: c.name.clone(),
                items: idx,
                mode: c.mode,
            });
            human1.push(false);
            loc1.push(spec.is_lower_order(&c.name));
        }
        if let Some(h) = &anchor {
            blocks.push(Block {
                name: h.clone(),
                items: vec![items.len()],
                mode: Mode::A,
            });
            items.push(pos(h));
            item_names.push(h.clone());
            human1.push(true);
            loc1.push(false);
        }
        // Structural paths by name (spec order), plus automatic anchor paths.
        let mut named: Vec<(String, String)> = spec.paths.clone();
        if let Some(h) = anchor.as_ref().filter(|_| !arena_top) {
            if !spec.paths.iter().any(|(f, t)| f == h || t == h) {
                let tops: Vec<String> = if !spec.second_order.is_empty() {
                    spec.second_order.iter().map(|s| s.name.clone()).collect()
                } else {
                    spec.constructs
                        .iter()
                        .filter(|c| !spec.paths.iter().any(|(f, _)| *f == c.name))
                        .map(|c| c.name.clone())
                        .collect()
                };
                named.extend(tops.into_iter().map(|t| (t, h.clone())));
            }
        }
        let idx1 = |n: &str| blocks.iter().position(|b: &Block| b.name == n);
        let expand = |n: &str| -> Vec<usize> {
            match spec.second_order.iter().find(|s| s.name == n) {
                Some(s) => s.constructs.iter().filter_map(|c| idx1(c)).collect(),
                None => idx1(n).into_iter().collect(),
            }
        };
        let mut paths1 = Vec::new();
        for (f, t) in &named {
            for a in expand(f) {
                for b in expand(t) {
                    if !paths1.contains(&(a, b)) {
                        paths1.push((a, b));
                    }
                }
            }
        }
        let st1 = Structure::new(blocks.clone(), &paths1, spec.scheme);
        let stage2 = (!spec.second_order.is_empty()).then(|| {
            let mut inds = Vec::new();
            let mut names = Vec::new();
            let mut blocks2 = Vec::new();
            let mut order = Vec::new();
            for (i, b) in blocks.iter().enumerate() {
                if loc1[i] || (arena_top && human1[i]) {
                    continue;
                }
                let mut idx = Vec::new();
                for &k in &b.items {
                    idx.push(inds.len());
                    inds.push(Ind2::Item(k));
                    names.push(item_names[k].clone());
                }
                blocks2.push(Block {
                    name: b.name.clone(),
                    items: idx,
                    mode: b.mode,
                });
                order.push(1);
            }
            for h in &spec.second_order {
                let mut idx = Vec::new();
                for c in &h.constructs {
                    if let Some(i) = idx1(c) {
                        idx.push(inds.len());
                        inds.push(Ind2::Score(i));
                        names.push(c.clone());
                    }
                }
                // Paper §2.2: the human column as one more indicator of the top construct.
                if arena_top {
                    if let Some(hb) = human1.iter().position(|&x| x) {
                        let k = blocks[hb].items[0];
                        idx.push(inds.len());
                        inds.push(Ind2::Item(k));
                        names.push(item_names[k].clone());
                    }
                }
                blocks2.push(Block {
                    name: h.name.clone(),
                    items: idx,
                    mode: h.mode,
                });
                order.push(2);
            }
            let idx2 = |n: &str| blocks2.iter().position(|b: &Block| b.name == n);
            let paths: Vec<(usize, usize)> = named
                .iter()
                .filter_map(|(f, t)| Some((idx2(f)?, idx2(t)?)))
                .collect();
            Stage2 {
                st: Structure::new(blocks2.clone(), &paths, spec.scheme),
                inds,
                names,
                paths,
                order,
            }
        });
        Plan {
            items,
            item_names,
            st1,
            paths1,
            human1,
            loc1,
            stage2,
            max_iterations,
            tolerance: spec.tolerance,
            htmt,
            arena_top,
        }
    }

    /// The final structure (stage 2 if any) and its paths.
    pub fn final_structure(&self) -> (&Structure, &[(usize, usize)]) {
        match &self.stage2 {
            Some(s) => (&s.st, &s.paths),
            None => (&self.st1, &self.paths1),
        }
    }

    fn engine_error(&self, e: EngineError, stage2: bool) -> SemError {
        let (st, names): (&Structure, &[String]) = match (&self.stage2, stage2) {
            (Some(s), true) => (&s.st, &s.names),
            _ => (&self.st1, &self.item_names),
        };
        let list = |v: &[String]| {
            v.iter()
                .map(|s| format!("\"{s}\""))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match e {
            EngineError::SingularBlock { block, pivot } => {
                let b = &st.blocks[block];
                let inames: Vec<String> = b.items.iter().map(|&k| names[k].clone()).collect();
                SemError::Collinear {
                    construct: b.name.clone(),
                    purpose: "Mode B weights".into(),
                    indicator: inames[pivot].clone(),
                    others: list(&inames[..pivot]),
                }
            }
            EngineError::ZeroComposite { block } => SemError::ZeroComposite {
                construct: st.blocks[block].name.clone(),
            },
            EngineError::SingularInner { construct, pivot } => {
                let preds: Vec<String> = st.preds[construct]
                    .iter()
                    .map(|&i| st.blocks[i].name.clone())
                    .collect();
                SemError::SingularPaths {
                    construct: st.blocks[construct].name.clone(),
                    predecessor: preds.get(pivot).cloned().unwrap_or_default(),
                    others: list(&preds[..pivot.min(preds.len())]),
                }
            }
            EngineError::NotConverged { iterations, change } => SemError::NotConverged {
                stage: if stage2 {
                    "stage 2".into()
                } else if self.stage2.is_some() {
                    "stage 1".into()
                } else {
                    "PLS fit".into()
                },
                iterations,
                change,
                tolerance: self.tolerance,
            },
        }
    }

    /// Stage-2 correlation matrix from the stage-1 one and fit.
    fn r2_matrix(&self, s2: &Stage2, r1: &Matrix, f1: &Fit) -> Matrix {
        let q = s2.inds.len();
        let mut r = Matrix::identity(q);
        for a in 0..q {
            for b in a + 1..q {
                let v = match (s2.inds[a], s2.inds[b]) {
                    (Ind2::Item(k), Ind2::Item(l)) => r1[(k, l)],
                    (Ind2::Item(k), Ind2::Score(i)) | (Ind2::Score(i), Ind2::Item(k)) => f1.t[i][k],
                    (Ind2::Score(i), Ind2::Score(j)) => f1.c[(i, j)],
                };
                r[(a, b)] = v;
                r[(b, a)] = v;
            }
        }
        r
    }

    /// Fits both stages on the stage-1 correlation matrix `r1`.
    pub fn estimate(&self, r1: &Matrix) -> Result<Estimates, SemError> {
        let fit1 = fit(r1, &self.st1, self.max_iterations, self.tolerance)
            .map_err(|e| self.engine_error(e, false))?;
        let stage2 = match &self.stage2 {
            Some(s2) => {
                let r2 = self.r2_matrix(s2, r1, &fit1);
                let f2 = fit(&r2, &s2.st, self.max_iterations, self.tolerance)
                    .map_err(|e| self.engine_error(e, true))?;
                Some((r2, f2))
            }
            None => None,
        };
        let (st, _) = self.final_structure();
        let c = match &stage2 {
            Some((_, f2)) => &f2.c,
            None => &fit1.c,
        };
        let mut betas = Vec::new();
        let mut r2 = Vec::new();
        for j in 0..st.blocks.len() {
            if st.preds[j].is_empty() {
                betas.push(Vec::new());
                r2.push(None);
                continue;
            }
            let b =
                regress(c, &st.preds[j], j).map_err(|e| self.engine_error(e, stage2.is_some()))?;
            let rsq: f64 = st.preds[j]
                .iter()
                .zip(&b)
                .map(|(&i, bi)| bi * c[(i, j)])
                .sum();
            betas.push(b);
            r2.push(Some(rsq));
        }
        Ok(Estimates {
            fit1,
            stage2,
            betas,
            r2,
        })
    }

    /// The reported indicators: LOC items from stage 1, everything else from the final stage.
    pub fn measured(&self, est: &Estimates) -> Vec<Measured> {
        let mut out = Vec::new();
        let stage2 = match (&self.stage2, &est.stage2) {
            (Some(s2), Some((_, f2))) => Some((s2, f2)),
            _ => None,
        };
        for (i, b) in self.st1.blocks.iter().enumerate() {
            // Re-estimated in stage 2 unless it is a lower-order construct.
            let in_stage2 = stage2.filter(|_| !self.loc1[i]).and_then(|(s2, f2)| {
                let j = s2.st.blocks.iter().position(|bb| bb.name == b.name)?;
                Some((s2, f2, j))
            });
            for (a, &k) in b.items.iter().enumerate() {
                let (weight, loading) = match in_stage2 {
                    Some((s2, f2, j)) => {
                        let items2 = &s2.st.blocks[j].items;
                        let pos = items2
                            .iter()
                            .position(|&q| s2.inds[q] == Ind2::Item(k))
                            .unwrap_or(a);
                        (f2.weights[j][pos], f2.t[j][items2[pos]])
                    }
                    None => (est.fit1.weights[i][a], est.fit1.t[i][k]),
                };
                out.push(Measured {
                    name: self.item_names[k].clone(),
                    construct: b.name.clone(),
                    weight,
                    loading,
                    task: !self.human1[i],
                    block1: Some(i),
                });
            }
        }
        if let Some((s2, f2)) = stage2 {
            for (j, b) in s2.st.blocks.iter().enumerate() {
                if s2.order[j] != 2 {
                    continue;
                }
                for (a, &q) in b.items.iter().enumerate() {
                    out.push(Measured {
                        name: s2.names[q].clone(),
                        construct: b.name.clone(),
                        weight: f2.weights[j][a],
                        loading: f2.t[j][q],
                        task: false,
                        block1: None,
                    });
                }
            }
        }
        out
    }

    /// Item VIFs of the stage-1 task blocks, keyed by item.
    pub fn task_vifs(&self, r1: &Matrix) -> Result<BTreeMap<String, f64>, SemError> {
        let mut out = BTreeMap::new();
        for (i, b) in self.st1.blocks.iter().enumerate() {
            if self.human1[i] {
                continue;
            }
            let v = quality::item_vifs(r1, &b.items).map_err(|pivot| {
                let names: Vec<String> = b
                    .items
                    .iter()
                    .map(|&k| self.item_names[k].clone())
                    .collect();
                SemError::Collinear {
                    construct: b.name.clone(),
                    purpose: "item VIF".into(),
                    indicator: names[pivot].clone(),
                    others: names[..pivot]
                        .iter()
                        .map(|s| format!("\"{s}\""))
                        .collect::<Vec<_>>()
                        .join(", "),
                }
            })?;
            for (&k, vif) in b.items.iter().zip(v) {
                out.insert(self.item_names[k].clone(), vif);
            }
        }
        Ok(out)
    }

    /// HTMT between stage-1 task constructs (spec order), keyed "A|B".
    pub fn task_htmt(&self, r1: &Matrix) -> Vec<(String, f64)> {
        let mut out = Vec::new();
        let blocks = &self.st1.blocks;
        for a in 0..blocks.len() {
            for b in a + 1..blocks.len() {
                if self.human1[a] || self.human1[b] {
                    continue;
                }
                if let Some(h) = quality::htmt(r1, &blocks[a].items, &blocks[b].items, self.htmt) {
                    out.push((format!("{}|{}", blocks[a].name, blocks[b].name), h));
                }
            }
        }
        out
    }

    pub fn diagnostics(&self, r1: &Matrix, est: &Estimates) -> Result<DiagnosedFit, SemError> {
        let vifs = self.task_vifs(r1)?;
        let measured = self.measured(est);
        let loadings: Vec<f64> = measured
            .iter()
            .filter(|m| m.task)
            .map(|m| m.loading)
            .collect();
        let htmts: Vec<f64> = self.task_htmt(r1).into_iter().map(|(_, h)| h).collect();
        let v: Vec<f64> = vifs.values().copied().collect();
        Ok((quality::diagnostics(&htmts, &loadings, &v), vifs, measured))
    }
}

/// Diagnostics, item VIFs and reported indicators of one fit.
pub(crate) type DiagnosedFit = (Diagnostics, BTreeMap<String, f64>, Vec<Measured>);
