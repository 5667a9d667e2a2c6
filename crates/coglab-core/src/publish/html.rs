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
        "<table class=\"board\"><thead><tr><th>Model</th><th>Row</th><th>{figure}{head_unit}</th>\
         <th>95% interval</th><th>Coverage</th><th>Source</th></tr></thead><tbody>"
    );
    let mut rows = 0;
    for m in &index.models {
        for run in m.runs.iter().filter(|r| r.benchmark == benchmark) {
            let (value, ci) = match &run.figures {
                Figures::Mmiq { overall, .. } => {
                    (pct(overall.acc), interval_pct(overall.lo, overall.hi))
                }
                Figures::Kiva { overall, .. } => mean_cells(overall.cross),
                Figures::Mmopera { sr, .. } => sr.map_or((String::new(), String::new()), |v| {
                    (pct(v.v), interval_pct(v.lo, v.hi))
                }),
                Figures::Gold {
                    overall,
                    rank_weighted,
                    n_models,
                    ..
                } => (
                    format!("{overall:.2}"),
                    format!("rank {rank_weighted} of {n_models}"),
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
            let _ = write!(
                h,
                "<tr data-source=\"published\" data-model=\"{}\"><td>{}</td><td>published</td>\
                 <td>{}</td><td>{}</td><td>{}</td><td title=\"{}\">{}</td></tr>",
                escape(&m.name),
                escape(&m.name),
                value,
                ci,
                coverage,
                escape(&format!("{}; {}", files.join(", "), settings.join("; "))),
                source
            );
            rows += 1;
        }
    }
    for (label, value, ci, source) in reported_rows(benchmark, reported) {
        let _ = write!(
            h,
            "<tr data-source=\"reported\" data-model=\"{}\"><td>{}</td><td>reported</td>\
             <td>{}</td><td>{}</td><td></td><td>{}</td></tr>",
            escape(&label),
            escape(&label),
            value,
            ci,
            escape(&source)
        );
        rows += 1;
    }
    h.push_str("</tbody></table>");
    if rows == 0 {
        h.push_str("<p class=\"empty\">No published rows for this benchmark.</p>");
    }
    h.push_str("</section>\n");
    h
}

/// The reported rows of a board: label, figure, interval (MM-IQ: the Wilson interval taking
/// all 2,710 items as scored) and the paper's source.
fn reported_rows(
    benchmark: Benchmark,
    reported: &[ReportedBundle],
) -> Vec<(String, String, String, String)> {
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
            let interval = if benchmark == Benchmark::Mmiq {
                crate::leaderboard::metrics::reported_mmiq_interval(v)
                    .map(|a| interval_pct(a.ci_low, a.ci_high))
                    .unwrap_or_default()
            } else {
                String::new()
            };
            Some((
                r.label.clone(),
                format!("{v:.2}"),
                interval,
                format!("{paper}{}", t.source),
            ))
        })
        .collect()
}
