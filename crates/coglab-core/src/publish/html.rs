//! Static HTML boards, rendered at publish time (`boards/<benchmark>.html`): one fragment per
//! benchmark with the published rows (figure, 95% interval, coverage, settings) and the
//! papers' reported rows (with their source), so that a board is readable before the wasm
//! runs, without JavaScript, and by search engines. The app replaces it once it has loaded.

use std::fmt::Write;

use super::bundle::{Figures, Index, Mean};
use super::manifest::Benchmark;
use crate::reported::ReportedBundle;

/// Escapes text for HTML element content and double-quoted attributes.
///
/// # Examples
/// ```
/// use coglab_core::publish::html::escape;
/// assert_eq!(escape("<a href=\"x\">&'"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
/// ```
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// The Content-Security-Policy a board file carries in its first tag, for a visitor who opens
/// `boards/<benchmark>.html` by itself: no script, no frame, no form, no base URL, nothing from
/// another origin. (Inlined into the app's page, the board is under the page's own policy, and
/// `scripts/published.py` leaves this tag out.)
/// (`frame-ancestors` is left out: a browser ignores it in a `<meta>` policy, with a warning.)
pub const BOARD_CSP: &str =
    "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'";

/// A model's `source` as a link target, when it is an `http(s)` URL with no space or control
/// character; anything else (`javascript:`, `data:`, a relative path) is shown as text.
///
/// # Examples
/// ```
/// use coglab_core::publish::html::safe_href;
/// assert_eq!(safe_href("https://arxiv.org/abs/2502.00698"), Some("https://arxiv.org/abs/2502.00698"));
/// assert_eq!(safe_href(" HTTP://example.org/x "), Some("HTTP://example.org/x"));
/// assert_eq!(safe_href("javascript:alert(1)"), None);
/// assert_eq!(safe_href("JaVaScRiPt:alert(1)"), None);
/// assert_eq!(safe_href("data:text/html,<script>"), None);
/// assert_eq!(safe_href("https://x.org/\njavascript:"), None);
/// assert_eq!(safe_href("//evil.example"), None);
/// ```
pub fn safe_href(source: &str) -> Option<&str> {
    let s = source.trim();
    let lower = s.get(..8).unwrap_or(s).to_ascii_lowercase();
    let scheme = lower.starts_with("https://") || lower.starts_with("http://");
    let clean = !s.chars().any(|c| c.is_control() || c.is_whitespace());
    (scheme && clean && s.len() > "http://".len()).then_some(s)
}

/// A proportion as a percentage with 2 decimals.
fn pct(x: f64) -> String {
    format!("{:.2}", x * 100.0)
}

fn interval_pct(lo: f64, hi: f64) -> String {
    if lo.is_finite() && hi.is_finite() {
        format!("[{}, {}]", pct(lo), pct(hi))
    } else {
        String::new()
    }
}

fn mean_cells(m: Option<Mean>) -> (String, String) {
    m.map_or((String::new(), String::new()), |m| {
        (pct(m.mean), interval_pct(m.lo, m.hi))
    })
}

/// The board fragment of one benchmark: its policy ([`BOARD_CSP`]) as a `<meta>` tag, then a
/// `<section>` holding a table of published rows (`data-source="published"`) and reported rows
/// (`data-source="reported"`). A model's `source` is a link only when [`safe_href`] takes it.
///
/// # Examples
/// ```
/// use coglab_core::publish::{html::board, Benchmark};
/// use coglab_core::publish::bundle::Index;
/// let index = Index { format: 1, coglab: "0.1.0".into(), title: None,
///     manifest_sha256: String::new(), keys: vec![], mmiq_key_chunk: None, ranks: vec![],
///     models: vec![], audit: vec![] };
/// let html = board(&index, Benchmark::Kiva, &[]);
/// assert!(html.starts_with("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src &#39;none&#39;;"));
/// assert!(html.contains("\n<section class=\"published-board\" data-benchmark=\"kiva\""));
/// assert!(html.contains("No published rows"));
/// ```
pub fn board(index: &Index, benchmark: Benchmark, reported: &[ReportedBundle]) -> String {
    let (figure, unit) = match benchmark {
        Benchmark::Mmiq => ("Accuracy", "%"),
        Benchmark::Kiva | Benchmark::KivaAdults => ("Stage 1 (cross-domain)", "%"),
        Benchmark::MmoperaRia | Benchmark::MmoperaIca => ("SR", "%"),
        Benchmark::Gold => ("Weighted overall", ""),
    };
    let mut h = String::new();
    let _ = writeln!(
        h,
        "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">",
        escape(BOARD_CSP)
    );
    let _ = write!(
        h,
        "<section class=\"published-board\" data-benchmark=\"{}\" data-testid=\"static-board-{}\">\
         <h2>{} leaderboard</h2>",
        benchmark.key(),
        benchmark.key(),
        escape(benchmark.label())
    );
    if let Some(t) = &index.title {
        let _ = write!(h, "<p class=\"board-title\">{}</p>", escape(t));
    }
    let head_unit = if unit.is_empty() {
        String::new()
    } else {
        format!(" ({unit})")
    };
    let _ = write!(
        h,
        "<table class=\"board\"><thead><tr><th>Rank</th><th>Model</th><th>Row</th>\
         <th>{figure}{head_unit}</th><th>95% interval</th><th>Coverage</th><th>Source</th>\
         </tr></thead><tbody>"
    );
    let mut rows: Vec<BoardLine> = Vec::new();
    for m in &index.models {
        for run in m.runs.iter().filter(|r| r.benchmark == benchmark) {
            let (value, ci, point) = match &run.figures {
                Figures::Mmiq { overall, .. } => (
                    pct(overall.acc),
                    interval_pct(overall.lo, overall.hi),
                    Some((overall.acc, overall.lo, overall.hi)),
                ),
                Figures::Kiva { overall, .. } => {
                    let (v, ci) = mean_cells(overall.cross);
                    (v, ci, overall.cross.map(|m| (m.mean, m.lo, m.hi)))
                }
                Figures::Mmopera { sr, .. } => sr
                    .map_or((String::new(), String::new(), None), |v| {
                        (pct(v.v), interval_pct(v.lo, v.hi), Some((v.v, v.lo, v.hi)))
                    }),
                Figures::Gold {
                    overall,
                    rank_weighted,
                    n_models,
                    ..
                } => (
                    format!("{overall:.2}"),
                    format!("rank {rank_weighted} of {n_models}"),
                    Some((*overall, *overall, *overall)),
                ),
            };
            let coverage = match run.coverage.of {
                Some(of) => format!("{} of {of}", run.coverage.scored),
                None => run.coverage.scored.to_string(),
            };
            let settings: Vec<String> = run
                .settings
                .iter()
                .map(|(k, v)| format!("{k}: {v}"))
                .collect();
            let files: Vec<&str> = run.files.iter().map(|f| f.path.as_str()).collect();
            let source = match m.meta.source.as_deref() {
                None => escape(&format!("{} file(s)", files.len())),
                Some(s) => match safe_href(s) {
                    Some(url) => format!(
                        "<a href=\"{}\" rel=\"nofollow noopener noreferrer\">source</a>",
                        escape(url)
                    ),
                    None => escape(s),
                },
            };
            rows.push(BoardLine {
                model: m.name.clone(),
                kind: "published",
                value,
                ci,
                point,
                coverage,
                title: format!("{}; {}", files.join(", "), settings.join("; ")),
                source,
            });
        }
    }
    rows.extend(reported_rows(benchmark, reported));
    // Highest first, as the app's table; ranks by the app's rule ([`board_ranks`]: overlapping
    // intervals share a rank, none ranks above a higher value) over the rows that are not
    // baselines (issue 42, defect 11: paper order, no rank, the humans "reported").
    rows.sort_by(|a, b| {
        let v = |r: &BoardLine| r.point.map_or(f64::NEG_INFINITY, |p| p.0);
        v(b).total_cmp(&v(a))
    });
    let ranked: Vec<usize> = (0..rows.len())
        .filter(|&i| rows[i].kind != "baseline" && rows[i].point.is_some())
        .collect();
    let entries: Vec<(f64, f64, f64)> = ranked
        .iter()
        .filter_map(|&i| rows[i].point)
        .map(|(v, lo, hi)| {
            if lo.is_finite() && hi.is_finite() {
                (v, lo, hi)
            } else {
                (v, v, v)
            }
        })
        .collect();
    let mut rank: Vec<Option<usize>> = vec![None; rows.len()];
    for (&i, r) in ranked.iter().zip(crate::leaderboard::board_ranks(&entries)) {
        rank[i] = Some(r);
    }
    for (r, k) in rows.iter().zip(&rank) {
        let _ = write!(
            h,
            "<tr data-source=\"{kind}\" data-model=\"{m}\"><td>{}</td><td>{m}</td><td>{kind}</td>\
             <td>{}</td><td>{}</td><td>{}</td><td title=\"{}\">{}</td></tr>",
            k.map_or("–".to_string(), |k| k.to_string()),
            r.value,
            r.ci,
            r.coverage,
            escape(&r.title),
            r.source,
            kind = r.kind,
            m = escape(&r.model),
        );
    }
    let rows = rows.len();
    h.push_str("</tbody></table>");
    if rows == 0 {
        h.push_str("<p class=\"empty\">No published rows for this benchmark.</p>");
    }
    h.push_str("</section>\n");
    h
}

/// One row of a board as rendered: the cells' texts, and its figure with its interval as
/// fractions (for the order and the ranks).
struct BoardLine {
    model: String,
    /// `published`, `reported` or `baseline`.
    kind: &'static str,
    value: String,
    ci: String,
    point: Option<(f64, f64, f64)>,
    coverage: String,
    /// The source cell's title.
    title: String,
    /// The source cell, as HTML.
    source: String,
}

/// The reported rows of a board: label, figure, interval (MM-IQ: the Wilson interval taking
/// all 2,710 items as scored) and the paper's source.
fn reported_rows(benchmark: Benchmark, reported: &[ReportedBundle]) -> Vec<BoardLine> {
    let (id, col) = match benchmark {
        Benchmark::Mmiq => ("mmiq-table2", "Mean"),
        Benchmark::MmoperaRia => ("mmopera-table2-ria", "SR"),
        Benchmark::MmoperaIca => ("mmopera-table2-ica", "SR"),
        _ => return Vec::new(),
    };
    let Some((bundle, t)) = reported
        .iter()
        .flat_map(|b| b.tables.iter().map(move |t| (b, t)))
        .find(|(_, t)| t.id == id)
    else {
        return Vec::new();
    };
    let Some(ci) = t.columns.iter().position(|c| c == col) else {
        return Vec::new();
    };
    let paper = bundle
        .paper
        .as_ref()
        .map(|p| format!("{} ({}), ", p.title, p.venue_year()))
        .unwrap_or_default();
    t.rows
        .iter()
        .filter_map(|r| {
            let v = r.values.get(ci).copied().flatten()?;
            let wilson = (benchmark == Benchmark::Mmiq)
                .then(|| crate::leaderboard::metrics::reported_mmiq_interval(v))
                .flatten();
            let interval = wilson
                .as_ref()
                .map(|a| interval_pct(a.ci_low, a.ci_high))
                .unwrap_or_default();
            // The paper's human rows are a baseline, as in the app (its Human group).
            let kind = if r.group.as_deref() == Some("Human") {
                "baseline"
            } else {
                "reported"
            };
            let (lo, hi) = wilson.map_or((f64::NAN, f64::NAN), |a| (a.ci_low, a.ci_high));
            Some(BoardLine {
                model: r.label.clone(),
                kind,
                value: format!("{v:.2}"),
                ci: interval,
                point: Some((v / 100.0, lo, hi)),
                coverage: String::new(),
                title: String::new(),
                source: escape(&format!("{paper}{}", t.source)),
            })
        })
        .collect()
}
