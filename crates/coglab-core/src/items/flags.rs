//! Suspect items: no one right, everyone right, negative or near-zero discrimination (a
//! possible key error: the most frequent wrong answer is the candidate key), poor IRT fit, and
//! the items (and categories) where two respondent groups differ most (KiVA: adults against
//! models).

use super::classical::ClassicalStats;
use super::irt::{IrtFit, IrtModel};
use super::matrix::ResponseMatrix;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// Why an item is flagged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Flag {
    /// Answered by someone, right by no one.
    NoneRight,
    /// Everyone who answered it was right.
    AllRight,
    /// Corrected point-biserial below 0: the stronger respondents fail it more often (possible
    /// key error).
    NegativeDiscrimination,
    /// Corrected point-biserial in [0, `FlagOptions::low_discrimination`).
    LowDiscrimination,
    /// 2PL discrimination `a` below 0.
    NegativeSlope,
    /// Infit or outfit mean square outside `FlagOptions::fit_range`.
    PoorFit,
    /// Among the `FlagOptions::gap_top` items with the largest gap between the two groups.
    GroupGap,
    /// S-X2 p-value below `FlagOptions::sx2_alpha` divided by the number of items tested
    /// (Bonferroni).
    Sx2Misfit,
}

/// Flag thresholds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FlagOptions {
    /// A point-biserial below this (and not negative) is low (default 0.1).
    pub low_discrimination: f64,
    /// Acceptable infit/outfit range (default 0.5 to 1.5, Linacre's "productive for
    /// measurement").
    pub fit_range: (f64, f64),
    /// How many items with the largest group gap to flag (default 10).
    pub gap_top: usize,
    /// The groups compared, first minus second (default: `human` minus `model` when both are
    /// present, else the first two groups in order of appearance).
    pub groups: Option<(String, String)>,
    /// Family-wise level of the S-X2 misfit flag: an item is flagged when its p-value is
    /// below this divided by the number of items tested (Bonferroni; default 0.05).
    #[serde(default = "default_sx2_alpha")]
    pub sx2_alpha: f64,
}

fn default_sx2_alpha() -> f64 {
    0.05
}

/// Adds [`Flag::Sx2Misfit`] to the items whose S-X2 p-value is below
/// `opts.sx2_alpha / tested` (Bonferroni over the items tested).
pub fn flag_sx2(flagged: &mut Flagged, fit: &super::sx2::Sx2Result, opts: &FlagOptions) {
    let tested = fit.items.iter().flatten().count();
    if tested == 0 {
        return;
    }
    let cut = opts.sx2_alpha / tested as f64;
    for (f, t) in flagged.items.iter_mut().zip(&fit.items) {
        if t.as_ref().is_some_and(|t| t.p < cut) {
            f.flags.push(Flag::Sx2Misfit);
            f.flags.sort();
            f.flags.dedup();
        }
    }
}

impl Default for FlagOptions {
    fn default() -> Self {
        Self {
            low_discrimination: 0.1,
            fit_range: (0.5, 1.5),
            gap_top: 10,
            groups: None,
            sx2_alpha: default_sx2_alpha(),
        }
    }
}

/// One item's flags.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemFlags {
    /// The flags, in [`Flag`] order.
    pub flags: Vec<Flag>,
    /// The most frequent wrong answer and its count (ties: the first in letter order), when
    /// answers are known.
    pub most_frequent_wrong: Option<(String, usize)>,
    /// How often each answer was given (empty when answers are not known).
    pub answers: BTreeMap<String, usize>,
}

/// The difference in proportion right between two groups on one item or category.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupGap {
    /// Item id, or category name in [`GroupGaps::categories`].
    pub id: String,
    /// The item's category (`None` for category rows).
    pub category: Option<String>,
    /// First group's answers.
    pub n_first: usize,
    /// First group's proportion right.
    pub p_first: f64,
    /// Second group's answers.
    pub n_second: usize,
    /// Second group's proportion right.
    pub p_second: f64,
    /// `p_first - p_second`.
    pub gap: f64,
}

/// Group gaps per item and per category, largest absolute gap first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupGaps {
    /// First group (e.g. `human`).
    pub first: String,
    /// Second group (e.g. `model`).
    pub second: String,
    /// Items answered by both groups.
    pub items: Vec<GroupGap>,
    /// Categories (all answers of each group in the category pooled).
    pub categories: Vec<GroupGap>,
}

/// Flags for every item, and the group gaps.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Flagged {
    /// Per item, in matrix order.
    pub items: Vec<ItemFlags>,
    /// Group gaps, when the matrix has two groups.
    pub gaps: Option<GroupGaps>,
}

fn pick_groups(m: &ResponseMatrix, opts: &FlagOptions) -> Option<(String, String)> {
    if let Some(g) = &opts.groups {
        return Some(g.clone());
    }
    let groups = m.groups();
    if groups.contains(&"human") && groups.contains(&"model") {
        return Some(("human".into(), "model".into()));
    }
    match groups.as_slice() {
        [a, b, ..] => Some(((*a).to_string(), (*b).to_string())),
        _ => None,
    }
}

fn sort_by_abs_gap(v: &mut [GroupGap]) {
    v.sort_by(|x, y| y.gap.abs().total_cmp(&x.gap.abs()).then(x.id.cmp(&y.id)));
}

/// Flags the items of `m` from its classical statistics and (optionally) an IRT fit.
pub fn flag_items(
    m: &ResponseMatrix,
    cls: &ClassicalStats,
    irt: Option<&IrtFit>,
    opts: &FlagOptions,
) -> Flagged {
    let (ni, nj) = (m.n_respondents(), m.n_items());
    let mut items: Vec<ItemFlags> = Vec::with_capacity(nj);
    for j in 0..nj {
        let c = &cls.items[j];
        let mut flags = Vec::new();
        if c.n > 0 && c.right == 0 {
            flags.push(Flag::NoneRight);
        }
        if c.n > 0 && c.right == c.n {
            flags.push(Flag::AllRight);
        }
        if let Some(r) = c.point_biserial {
            if r < 0.0 {
                flags.push(Flag::NegativeDiscrimination);
            } else if r < opts.low_discrimination {
                flags.push(Flag::LowDiscrimination);
            }
        }
        if let Some(fit) = irt {
            let it = &fit.items[j];
            if fit.model == IrtModel::TwoPl && it.a.is_some_and(|a| a < 0.0) {
                flags.push(Flag::NegativeSlope);
            }
            let (lo, hi) = opts.fit_range;
            let out = |v: Option<f64>| v.is_some_and(|v| v < lo || v > hi);
            if out(it.infit) || out(it.outfit) {
                flags.push(Flag::PoorFit);
            }
        }
        let mut answers: BTreeMap<String, usize> = BTreeMap::new();
        let mut wrong: BTreeMap<&str, usize> = BTreeMap::new();
        if m.has_answers() {
            for i in 0..ni {
                if let Some(a) = m.answer(i, j) {
                    *answers.entry(a.to_string()).or_default() += 1;
                    if m.get(i, j) == Some(false) {
                        *wrong.entry(a).or_default() += 1;
                    }
                }
            }
        }
        let mut best: Option<(&str, usize)> = None;
        for (k, v) in wrong {
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((k, v));
            }
        }
        let most_frequent_wrong = best.map(|(k, v)| (k.to_string(), v));
        items.push(ItemFlags {
            flags,
            most_frequent_wrong,
            answers,
        });
    }
    let gaps = pick_groups(m, opts).map(|(first, second)| {
        let gi: Vec<Option<usize>> = m
            .respondents
            .iter()
            .map(|r| match r.group.as_deref() {
                Some(g) if g == first => Some(0),
                Some(g) if g == second => Some(1),
                _ => None,
            })
            .collect();
        let mut per_item = Vec::new();
        let mut per_cat: HashMap<String, [usize; 4]> = HashMap::new();
        for j in 0..nj {
            let mut n = [0usize; 2];
            let mut r = [0usize; 2];
            for (i, g) in gi.iter().enumerate() {
                let (Some(g), Some(v)) = (g, m.get(i, j)) else {
                    continue;
                };
                n[*g] += 1;
                r[*g] += usize::from(v);
            }
            let cat = m.items[j].category.clone();
            if let Some(cname) = &cat {
                let e = per_cat.entry(cname.clone()).or_default();
                e[0] += n[0];
                e[1] += r[0];
                e[2] += n[1];
                e[3] += r[1];
            }
            if n[0] > 0 && n[1] > 0 {
                let (p0, p1) = (r[0] as f64 / n[0] as f64, r[1] as f64 / n[1] as f64);
                per_item.push((
                    j,
                    GroupGap {
                        id: m.items[j].id.clone(),
                        category: cat,
                        n_first: n[0],
                        p_first: p0,
                        n_second: n[1],
                        p_second: p1,
                        gap: p0 - p1,
                    },
                ));
            }
        }
        per_item
            .sort_by(|(_, x), (_, y)| y.gap.abs().total_cmp(&x.gap.abs()).then(x.id.cmp(&y.id)));
        for (j, _) in per_item.iter().take(opts.gap_top) {
            items[*j].flags.push(Flag::GroupGap);
        }
        let mut categories: Vec<GroupGap> = per_cat
            .into_iter()
            .filter(|(_, e)| e[0] > 0 && e[2] > 0)
            .map(|(cname, e)| {
                let (p0, p1) = (e[1] as f64 / e[0] as f64, e[3] as f64 / e[2] as f64);
                GroupGap {
                    id: cname,
                    category: None,
                    n_first: e[0],
                    p_first: p0,
                    n_second: e[2],
                    p_second: p1,
                    gap: p0 - p1,
                }
            })
            .collect();
        sort_by_abs_gap(&mut categories);
        GroupGaps {
            first,
            second,
            items: per_item.into_iter().map(|(_, g)| g).collect(),
            categories,
        }
    });
    Flagged { items, gaps }
}

#[cfg(test)]
mod tests {
    use super::super::classical::classical;
    use super::*;
    use crate::items::matrix::RespondentInfo;

    #[test]
    fn key_error_shows_most_frequent_wrong_answer() {
        // Item k is "keyed" B but the three strongest respondents answered A (marked wrong);
        // r1..r3 right on the other items, r4, r5 wrong: rest scores 1,1,1,0,0 against k =
        // 0,0,0,1,1: point-biserial -1.
        let csv = "id,x,y,k\nr1,1,1,0\nr2,1,1,0\nr3,1,1,0\nr4,0,0,1\nr5,0,0,1\n";
        let m = ResponseMatrix::parse_csv("m.csv", csv.as_bytes()).unwrap();
        let ans: Vec<Option<String>> = (0..5)
            .flat_map(|i| {
                let k = if i < 3 { "A" } else { "B" };
                [None, None, Some(k.to_string())]
            })
            .collect();
        let m = m.with_answers(ans).unwrap();
        let cls = classical(&m);
        let f = flag_items(&m, &cls, None, &FlagOptions::default());
        assert_eq!(f.items[2].flags, vec![Flag::NegativeDiscrimination]);
        assert_eq!(f.items[2].most_frequent_wrong, Some(("A".to_string(), 3)));
        assert!(f.gaps.is_none());
    }

    #[test]
    fn group_gap_is_first_minus_second() {
        let csv = "id,x,y\nh1,1,0\nh2,1,1\nm1,0,0\nm2,1,0\n";
        let mut m = ResponseMatrix::parse_csv("m.csv", csv.as_bytes()).unwrap();
        for r in &mut m.respondents {
            let g = if r.id.starts_with('h') {
                "human"
            } else {
                "model"
            };
            *r = RespondentInfo {
                id: r.id.clone(),
                group: Some(g.into()),
            };
        }
        let cls = classical(&m);
        let f = flag_items(&m, &cls, None, &FlagOptions::default());
        let g = f.gaps.unwrap();
        // x: humans 2/2, models 1/2: gap 0.5; y: humans 1/2, models 0/2: gap 0.5; ties by id.
        assert_eq!((g.first.as_str(), g.second.as_str()), ("human", "model"));
        assert_eq!(g.items[0].id, "x");
        approx::assert_abs_diff_eq!(g.items[0].gap, 0.5, epsilon = 1e-15);
        assert_eq!(g.items[1].n_second, 2);
    }
}
