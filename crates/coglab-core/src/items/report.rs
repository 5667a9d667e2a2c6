//! A page-sized summary of an item analysis ([`ItemsReport`]), what the web app's worker sends
//! to the item-analysis page: the item table, the respondents, the test information on a
//! 61-point ability grid, item characteristic curves only for the items asked for (or the
//! flagged ones, capped), the reduced subset's tau curve thinned to at most
//! [`ReportOptions::max_tau_points`] points, and the convergence facts.
//!
//! [`super::ItemAnalysis`] keeps everything (every item's curve on request, the tau curve at
//! every subset size, letter counts per respondent); for 2,710 items x 300 respondents that is
//! several megabytes of JSON, which this trims to under a megabyte (see the size test).

use super::flags::{Flag, GroupGap};
use super::irt::{IrtItem, IrtModel};
use super::subset::{SubsetCriterion, TauPoint};
use super::sx2::ItemSx2;
use super::{analyse, AnalysisOptions, ItemAnalysis, ItemsError, RespondentRow, ResponseMatrix};
use serde::{Deserialize, Serialize};

/// What goes into an [`ItemsReport`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReportOptions {
    /// Items whose characteristic curves are wanted (ids). Empty: the flagged items (those
    /// with a flag other than none/everyone right, which have no curve), in table order.
    pub curves_for: Vec<String>,
    /// Most item curves (default 24).
    pub max_curves: usize,
    /// Ability grid of the curves: from, to, points (default -4, 4, 61).
    pub grid: (f64, f64, usize),
    /// Most points of the subset's tau curve (default 200).
    pub max_tau_points: usize,
    /// Most item gaps between the groups (default 20; every category is kept).
    pub max_gap_items: usize,
}

impl Default for ReportOptions {
    fn default() -> Self {
        Self {
            curves_for: Vec::new(),
            max_curves: 24,
            grid: (-4.0, 4.0, 61),
            max_tau_points: 200,
            max_gap_items: 20,
        }
    }
}

/// One row of the item table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReportItem {
    /// Item id.
    pub id: String,
    /// Category, if known.
    pub category: Option<String>,
    /// Answer key letter, if known.
    pub key: Option<String>,
    /// Respondents who answered it.
    pub n: usize,
    /// Proportion right.
    pub p: Option<f64>,
    /// Corrected point-biserial.
    pub point_biserial: Option<f64>,
    /// Cronbach's alpha without this item.
    pub alpha_if_deleted: Option<f64>,
    /// IRT discrimination.
    pub a: Option<f64>,
    /// IRT difficulty.
    pub b: Option<f64>,
    /// Infit mean square.
    pub infit: Option<f64>,
    /// Outfit mean square.
    pub outfit: Option<f64>,
    /// S-X2 item fit.
    pub sx2: Option<ItemSx2>,
    /// Flags.
    pub flags: Vec<Flag>,
    /// The most frequent wrong answer and its count.
    pub most_frequent_wrong: Option<(String, usize)>,
}

/// One item's characteristic and information curves on the report's grid.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReportCurve {
    /// Item id.
    pub id: String,
    /// `P(right | theta)` at each grid point.
    pub p: Vec<f64>,
    /// Item information at each grid point.
    pub information: Vec<f64>,
}

/// The reduced subset, thinned.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReportSubset {
    /// Criterion used.
    pub criterion: SubsetCriterion,
    /// Target tau.
    pub target_tau: f64,
    /// Respondents ranked.
    pub ranked: usize,
    /// Smallest size keeping the target (`None`: never).
    pub size: Option<usize>,
    /// The chosen items.
    pub items: Vec<String>,
    /// Items in all.
    pub total: usize,
    /// Tau at (at most [`ReportOptions::max_tau_points`]) subset sizes, always including the
    /// first, the last and the chosen size.
    pub curve: Vec<TauPoint>,
}

/// Group gaps, trimmed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReportGaps {
    /// First group (`human`).
    pub first: String,
    /// Second group (`model`).
    pub second: String,
    /// The items with the largest absolute gaps, largest first.
    pub items: Vec<GroupGap>,
    /// Every category, largest absolute gap first.
    pub categories: Vec<GroupGap>,
}

/// The page-sized item analysis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemsReport {
    /// Where the matrix came from.
    pub source: String,
    /// The IRT model.
    pub model: IrtModel,
    /// The item table, in matrix order.
    pub items: Vec<ReportItem>,
    /// The respondents, in matrix order.
    pub respondents: Vec<RespondentRow>,
    /// Cronbach's alpha and the complete respondents it used.
    pub alpha: Option<f64>,
    /// Complete respondents behind `alpha`.
    pub alpha_n: usize,
    /// Answer-key letters: letter, count (empty without keys).
    pub key_letters: Vec<(String, usize)>,
    /// The ability grid.
    pub theta: Vec<f64>,
    /// Test information on the grid.
    pub test_information: Vec<f64>,
    /// Standard error of measurement on the grid (`None` where the information is 0).
    pub test_se: Vec<Option<f64>>,
    /// Item curves for the items asked for (or the flagged ones), capped.
    pub curves: Vec<ReportCurve>,
    /// Whether the curves were capped.
    pub curves_capped: bool,
    /// Whether EM converged.
    pub converged: bool,
    /// EM cycles.
    pub iterations: usize,
    /// Marginal log-likelihood.
    pub log_likelihood: f64,
    /// Largest parameter change in the last cycle.
    pub max_change: f64,
    /// The reduced subset.
    pub subset: Option<ReportSubset>,
    /// Group gaps.
    pub gaps: Option<ReportGaps>,
    /// Notes.
    pub notes: Vec<String>,
}

/// Indices of at most `max` points out of `len`, evenly spread, always with the first, the
/// last and `keep`.
fn thin(len: usize, max: usize, keep: Option<usize>) -> Vec<usize> {
    if len <= max {
        return (0..len).collect();
    }
    if max < 3 {
        // Room for the ends only.
        return [0, len - 1].into_iter().take(max).collect();
    }
    let slots = max - 1 - usize::from(keep.is_some());
    let mut out: Vec<usize> = (0..=slots)
        .map(|k| ((k as f64 * (len - 1) as f64 / slots as f64).round() as usize).min(len - 1))
        .collect();
    if let Some(k) = keep.filter(|&k| k < len) {
        out.push(k);
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Item characteristic and information curves on the report's grid for the items `ids` (in
/// that order; unknown or unfitted ids are skipped), or, when `ids` is empty, for the flagged
/// items (a flag other than none/everyone right) in table order; at most
/// [`ReportOptions::max_curves`]. The flag says whether the cap cut some off.
pub fn item_curves(
    a: &ItemAnalysis,
    ids: &[String],
    opts: &ReportOptions,
) -> (Vec<ReportCurve>, bool) {
    let theta = grid(opts);
    let wanted: Vec<usize> = if ids.is_empty() {
        a.items
            .iter()
            .enumerate()
            .filter(|(_, r)| {
                r.flags
                    .iter()
                    .any(|f| !matches!(f, Flag::NoneRight | Flag::AllRight))
            })
            .map(|(j, _)| j)
            .collect()
    } else {
        ids.iter()
            .filter_map(|id| a.items.iter().position(|r| &r.id == id))
            .collect()
    };
    let fitted: Vec<usize> = wanted
        .into_iter()
        .filter(|&j| a.irt.items[j].a.is_some())
        .collect();
    let curves = fitted
        .iter()
        .take(opts.max_curves)
        .map(|&j| {
            let it = &a.irt.items[j];
            ReportCurve {
                id: it.id.clone(),
                p: theta.iter().filter_map(|&t| it.probability(t)).collect(),
                information: theta.iter().filter_map(|&t| it.information(t)).collect(),
            }
        })
        .collect();
    (curves, fitted.len() > opts.max_curves)
}

fn grid(opts: &ReportOptions) -> Vec<f64> {
    let (lo, hi, n) = opts.grid;
    let n = n.max(2);
    (0..n)
        .map(|k| lo + (hi - lo) * k as f64 / (n - 1) as f64)
        .collect()
}

/// Summarises an analysis for the page (see the module documentation).
pub fn report(a: &ItemAnalysis, opts: &ReportOptions) -> ItemsReport {
    let theta = grid(opts);
    let fitted: Vec<&IrtItem> = a.irt.items.iter().filter(|i| i.a.is_some()).collect();
    let test_information: Vec<f64> = theta
        .iter()
        .map(|&t| fitted.iter().filter_map(|i| i.information(t)).sum())
        .collect();
    let test_se = test_information
        .iter()
        .map(|&i| (i > 0.0).then(|| 1.0 / i.sqrt()))
        .collect();
    let (curves, curves_capped) = item_curves(a, &opts.curves_for, opts);
    let items = a
        .items
        .iter()
        .map(|r| ReportItem {
            id: r.id.clone(),
            category: r.category.clone(),
            key: r.key.clone(),
            n: r.n,
            p: r.p,
            point_biserial: r.point_biserial,
            alpha_if_deleted: r.alpha_if_deleted,
            a: r.a,
            b: r.b,
            infit: r.infit,
            outfit: r.outfit,
            sx2: r.sx2.clone(),
            flags: r.flags.clone(),
            most_frequent_wrong: r.most_frequent_wrong.clone(),
        })
        .collect();
    let respondents = a.respondents.clone();
    let subset = a.subset.as_ref().map(|s| {
        let keep = s.size.map(|k| k.saturating_sub(1));
        let idx = thin(s.curve.len(), opts.max_tau_points, keep);
        ReportSubset {
            criterion: s.criterion,
            target_tau: s.target_tau,
            ranked: s.ranked.len(),
            size: s.size,
            items: s.items.clone(),
            total: s.order.len(),
            curve: idx.iter().map(|&k| s.curve[k]).collect(),
        }
    });
    let gaps = a.gaps.as_ref().map(|g| ReportGaps {
        first: g.first.clone(),
        second: g.second.clone(),
        items: g.items.iter().take(opts.max_gap_items).cloned().collect(),
        categories: g.categories.clone(),
    });
    ItemsReport {
        source: a.source.clone(),
        model: a.model,
        items,
        respondents,
        alpha: a.classical.alpha,
        alpha_n: a.classical.alpha_n,
        key_letters: a
            .classical
            .key_letters
            .counts
            .iter()
            .map(|(k, v)| (k.clone(), *v))
            .collect(),
        theta,
        test_information,
        test_se,
        curves,
        curves_capped,
        converged: a.converged,
        iterations: a.iterations,
        log_likelihood: a.irt.log_likelihood,
        max_change: a.irt.max_change,
        subset,
        gaps,
        notes: a.notes.clone(),
    }
}

fn cell(v: Option<f64>) -> String {
    v.map_or_else(String::new, |x| x.to_string())
}

fn flag_name(f: Flag) -> String {
    serde_json::to_value(f)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

impl ItemsReport {
    /// The item table as CSV (one row per item; flags joined by `;`, empty cells for missing
    /// values).
    ///
    /// # Examples
    /// ```
    /// use coglab_core::items::{analyse_report, AnalysisOptions, ReportOptions, ResponseMatrix};
    /// let m = ResponseMatrix::parse_csv("m.csv", b"id,i1,i2\nr1,1,0\nr2,0,0\nr3,1,1\n").unwrap();
    /// let r = analyse_report(&m, &AnalysisOptions::default(), &ReportOptions::default()).unwrap();
    /// let csv = r.items_csv();
    /// assert!(csv.starts_with("id,category,key,n,p,"));
    /// assert_eq!(csv.lines().count(), 3);
    /// ```
    pub fn items_csv(&self) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        let _ = w.write_record([
            "id",
            "category",
            "key",
            "n",
            "p",
            "point_biserial",
            "alpha_if_deleted",
            "a",
            "b",
            "infit",
            "outfit",
            "sx2",
            "sx2_df",
            "sx2_p",
            "flags",
            "most_frequent_wrong",
            "most_frequent_wrong_count",
        ]);
        for i in &self.items {
            let wrong = i.most_frequent_wrong.as_ref();
            let _ = w.write_record([
                i.id.clone(),
                i.category.clone().unwrap_or_default(),
                i.key.clone().unwrap_or_default(),
                i.n.to_string(),
                cell(i.p),
                cell(i.point_biserial),
                cell(i.alpha_if_deleted),
                cell(i.a),
                cell(i.b),
                cell(i.infit),
                cell(i.outfit),
                cell(i.sx2.as_ref().map(|t| t.chi2)),
                i.sx2.as_ref().map_or(String::new(), |t| t.df.to_string()),
                cell(i.sx2.as_ref().map(|t| t.p)),
                i.flags
                    .iter()
                    .map(|f| flag_name(*f))
                    .collect::<Vec<_>>()
                    .join(";"),
                wrong.map_or(String::new(), |(k, _)| k.clone()),
                wrong.map_or(String::new(), |(_, n)| n.to_string()),
            ]);
        }
        String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
    }

    /// The respondent table as CSV, with the 95% interval `theta -+ 1.96 se`.
    pub fn respondents_csv(&self) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        let _ = w.write_record([
            "id",
            "kind",
            "n",
            "score",
            "theta",
            "se",
            "theta_lo95",
            "theta_hi95",
        ]);
        for r in &self.respondents {
            let (lo, hi) = r
                .interval()
                .map_or((None, None), |(l, h)| (Some(l), Some(h)));
            let _ = w.write_record([
                r.id.clone(),
                r.group.clone().unwrap_or_default(),
                r.n.to_string(),
                cell(r.score),
                cell(r.theta),
                cell(r.se),
                cell(lo),
                cell(hi),
            ]);
        }
        String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
    }
}

/// Runs [`analyse`] without per-item curves and summarises it with [`report`].
///
/// # Errors
/// As [`analyse`].
pub fn analyse_report(
    m: &ResponseMatrix,
    aopts: &AnalysisOptions,
    ropts: &ReportOptions,
) -> Result<ItemsReport, ItemsError> {
    let mut aopts = aopts.clone();
    aopts.irt.item_curves = false;
    let a = analyse(m, &aopts)?;
    Ok(report(&a, ropts))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thinning_keeps_ends_and_the_chosen_size() {
        // 2,710 sizes into at most 200 points, keeping index 1,234: slots = 198, so the even
        // points are round(k * 2709 / 198), k = 0..=198 (199 points), plus 1,234.
        let t = thin(2710, 200, Some(1234));
        assert!(t.len() <= 200, "{}", t.len());
        assert_eq!((t[0], *t.last().unwrap()), (0, 2709));
        assert!(t.contains(&1234));
        // round(1 * 2709 / 198) = round(13.68) = 14.
        assert_eq!(t[1], 14);
        // Short curves are kept whole.
        assert_eq!(thin(5, 200, Some(2)), vec![0, 1, 2, 3, 4]);
    }
}
