//! Paper-fidelity panels of the leaderboard (issue 23): MM-IQ response length beside the
//! paper's Table 3, and the key's answer letters. Every figure comes from the core's report
//! (`coglab_core::mmiq::MmiqReport::response_length`, `letters`); this file only formats.

use coglab_core::leaderboard::MmiqRow;
use coglab_core::mmiq::PAPER_TOKEN_LENGTHS;
use leptos::prelude::*;

/// Response length per computed MM-IQ row (characters and whitespace tokens, mean and median),
/// beside the paper's Table 3 token lengths, and the key's answer-letter distribution.
#[component]
pub fn MmiqLengths(
    /// The computed MM-IQ rows.
    rows: RwSignal<Vec<MmiqRow>>,
) -> impl IntoView {
    let body = move || {
        rows.read()
            .iter()
            .map(|r| {
                let cells = match &r.report.response_length {
                    Some(l) => view! {
                        <td>{l.n}</td>
                        <td>{format!("{:.1}", l.chars_mean)}</td>
                        <td>{format!("{:.1}", l.chars_median)}</td>
                        <td>{format!("{:.1}", l.tokens_mean)}</td>
                        <td>{format!("{:.1}", l.tokens_median)}</td>
                    }
                    .into_any(),
                    None => view! {
                        <td colspan="5">"no free-form responses (parsed letters only)"</td>
                    }
                    .into_any(),
                };
                view! {
                    <tr data-testid="mmiq-length-row" data-model=r.model.clone()>
                        <th scope="row">{r.model.clone()}</th>
                        {cells}
                    </tr>
                }
            })
            .collect_view()
    };
    let letters = move || {
        let rows = rows.read();
        let l = &rows.first()?.report.letters;
        (l.key.n > 0).then(|| {
            let counts = l
                .key
                .counts
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ");
            view! {
                <p data-testid="mmiq-key-letters">
                    {format!(
                        "Answer key letters ({} items): {counts}. Always answering {} scores {:.2}% (the 25% chance row assumes even letters); each paradigm's own most common letter would score {:.2}%.",
                        l.key.n,
                        l.key.majority,
                        l.key.majority_share * 100.0,
                        l.per_category_majority * 100.0
                    )}
                </p>
            }
        })
    };
    view! {
        <details class="lb-files-box" data-testid="mmiq-lengths">
            <summary>"Response length and the key's answer letters"</summary>
            {letters}
            <table class="lb-table">
                <caption>"Response length per model (scored rows with a free-form response): characters and whitespace-separated tokens"</caption>
                <thead><tr>
                    <th scope="col">"Model"</th><th scope="col">"Responses"</th>
                    <th scope="col">"Characters, mean"</th><th scope="col">"Characters, median"</th>
                    <th scope="col">"Tokens, mean"</th><th scope="col">"Tokens, median"</th>
                </tr></thead>
                <tbody>
                    {body}
                    {PAPER_TOKEN_LENGTHS.iter().map(|p| view! {
                        <tr data-testid="mmiq-length-paper">
                            <th scope="row">{format!("{} — MM-IQ paper, Table 3", p.model)}</th>
                            <td>"–"</td><td>"–"</td><td>"–"</td>
                            <td title="average token length as printed; the paper does not name its tokenizer, so whitespace tokens compare only roughly">{format!("{}", p.tokens)}</td>
                            <td>"–"</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        </details>
    }
}
