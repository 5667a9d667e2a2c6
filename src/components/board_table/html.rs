//! A board as static HTML: the table a visitor sees before the app has loaded (and without
//! JavaScript), rendered from the same [`Board`] and [`arrange`] as the app's table, so its
//! order, ranks, row kinds, sources and figures are the app's (issue 42, defects 3 and 11).
//! The site's build inlines these fragments into the leaderboard's page
//! (`public/boards/*.html`, written by `cargo run --bin coglab-boards`; scripts/post-build.sh).

use super::*;
use coglab_core::publish::html::{escape, safe_href};

/// `board` as shown with no sort, filter or hidden column, as a `<section>`: a heading, the
/// rank rule, and a table of Rank, Model (its badge and source) and every metric column; the
/// cells are [`cell_text`] with the interval beside the value (as the compact view shows it).
/// `key` names the tab (`data-benchmark`, `static-board-{key}`).
///
/// The page carries six such boards, read before the app on a slow link (issue 42), so the
/// markup is lean: the numeric cells are aligned by `.static-table td` (style/main.css) rather
/// than a class on each, and a header's definition leaves out what the caption already says
/// ([`beyond_caption`]).
pub fn board_html(board: &Board, key: &str, heading: &str) -> String {
    let view = ViewState::default();
    let a = arrange(board, &view);
    let mut h = String::new();
    h.push_str(&format!(
        "<section class=\"static-board\" data-benchmark=\"{k}\" data-testid=\"static-board-{k}\">\
         <h2>{}</h2><p class=\"static-rule\">{}</p><div class=\"table-scroll\">\
         <table class=\"lb-table static-table\"><caption>{}</caption><thead><tr>\
         <th scope=\"col\">Rank</th><th scope=\"col\" data-col=\"model\">Model</th>",
        escape(heading),
        escape(RANK_RULE),
        escape(&board.caption),
        k = escape(key),
    ));
    for &c in &a.columns {
        let col = &board.columns[c];
        h.push_str(&format!(
            "<th scope=\"col\" class=\"num\" title=\"{}\">{}</th>",
            escape(&beyond_caption(&col.definition, &board.caption)),
            escape(&col.title)
        ));
    }
    h.push_str("</tr></thead><tbody>");
    for &(i, rank) in &a.rows {
        let r = &board.rows[i];
        let badge = r.badge();
        h.push_str(&format!(
            "<tr data-source=\"{badge}\" data-model=\"{m}\" class=\"kind-{badge}\">\
             <td>{}</td><th scope=\"row\">{m} <span class=\"badge {badge}\">{badge}</span>",
            // A baseline is a reference row ("ref", as the table with paired ranks says).
            if r.kind == RowKind::Baseline {
                "ref".to_string()
            } else {
                rank.map_or("–".to_string(), |k| k.to_string())
            },
            m = escape(&r.model),
        ));
        match &r.cite {
            Some((text, url)) => match safe_href(url) {
                // (Without the source's long title the app's link carries: the page is read
                // on slow links before the app, and the citation names the table.)
                Some(u) => h.push_str(&format!(
                    "<a class=\"row-source\" href=\"{}\" rel=\"noopener\">{}</a>",
                    escape(u),
                    escape(text)
                )),
                None => h.push_str(&format!(
                    "<span class=\"row-source\">{}</span>",
                    escape(text)
                )),
            },
            None if !r.source.is_empty() => h.push_str(&format!(
                "<span class=\"row-source\">{}</span>",
                escape(&r.source)
            )),
            None => {}
        }
        h.push_str("</th>");
        for &c in &a.columns {
            let cell = r.cells.get(c).and_then(Option::as_ref);
            h.push_str(&format!(
                "<td>{}</td>",
                escape(&cell_text(board, c, cell, true))
            ));
        }
        h.push_str("</tr>");
    }
    h.push_str("</tbody></table></div></section>\n");
    h
}

/// `definition` without its sentences (ending in ". ") that `caption` already holds: KiVA's
/// Null-answer rule closed every one of its 18 header definitions, as well as the caption.
fn beyond_caption(definition: &str, caption: &str) -> String {
    definition
        .split_inclusive(". ")
        .filter(|s| !caption.contains(s.trim_end().trim_end_matches('.')))
        .collect::<String>()
        .trim_end()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::beyond_caption;

    #[test]
    fn a_definition_drops_what_the_caption_says() {
        let caption = "KiVA accuracy (%) by stage, mean over trials; Null answers count as wrong: \
                       the repository's rule (default).";
        assert_eq!(
            beyond_caption(
                "Stage 1 (what): which change. Mean ± SE over trials, 95% interval mean ± \
                 1.96 SE. Null answers count as wrong: the repository's rule (default).",
                caption
            ),
            "Stage 1 (what): which change. Mean ± SE over trials, 95% interval mean ± 1.96 SE."
        );
        // Nothing in the caption: unchanged; a definition the caption holds whole: empty.
        assert_eq!(beyond_caption("Accuracy (%).", caption), "Accuracy (%).");
        assert_eq!(beyond_caption("mean over trials", caption), "");
    }
}
