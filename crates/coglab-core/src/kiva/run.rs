//! One KiVA model-run CSV: `output_<Domain>/<Subdomain>.csv` as written by the repository's
//! chat systems.

use super::{domain_of, int_field, Csv, KivaError, Outcome, Stage, Variant};
use crate::location::{snippet, Location};
use serde::{Deserialize, Serialize};

/// The text the repository writes in `Full#2` when stage 2 was skipped.
const SKIPPED_PREFIX: &str = "[Skipped";

/// One row of a run file: one regeneration of one variation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunRow {
    /// 1-based line of the record in the CSV.
    pub line: usize,
    /// The variation (trial) number.
    pub variation: u64,
    /// The regeneration number (0-2 in the repository's runs).
    pub regeneration: u64,
    /// Outcome of stage 1, 2 and 3.
    pub outcomes: [Outcome; 3],
}

/// A parsed model-run CSV for one subdomain.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunFile {
    /// The path as given.
    pub file: String,
    /// Domain, from the `output_<Domain>` folder or the subdomain's prefix.
    pub domain: String,
    /// Subdomain, from the file name (`ColourRed.csv` → `ColourRed`).
    pub subdomain: String,
    /// The variant named by a `KiVA` or `KiVA-adults` folder in the path, if any.
    pub variant_in_path: Option<Variant>,
    /// The rows, in file order.
    pub rows: Vec<RunRow>,
    /// For each stage, whether it was scored from the raw answer (`Full#k` + `Options#k`)
    /// because the file has no `MCResponse#k` column.
    pub scored_from_raw: [bool; 3],
}

/// One regeneration of a trial as the model answered it (the KiVA model page).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RegenerationAnswers {
    /// 1-based line of the record in the CSV.
    pub line: usize,
    /// The regeneration number.
    pub regeneration: u64,
    /// Outcome of stage 1, 2 and 3, as scored.
    pub outcomes: [Outcome; 3],
    /// The model's whole answer to stage 1, 2 and 3 (`Full#k`; `None` when the file has no
    /// such column, e.g. a file of scores only).
    pub answers: [Option<String>; 3],
}

/// The regenerations of variation `variation` in one run CSV, with their outcomes (as
/// [`RunFile::parse`] scores them) and the model's answers, in one reading of the file. Read on
/// demand for one trial, so the scoring path keeps no answer text.
///
/// # Errors
/// As [`RunFile::parse`].
///
/// # Examples
/// ```
/// use coglab_core::kiva::{trial_answers, Outcome};
/// let csv = "Variation,Regeneration,Full#1,Full#2,Full#3,MCResponse#1,MCResponse#2,MCResponse#3\n\
///            0,0,(3) Orientation,(2) 180 degrees,(D) none,1,1,0\n1,0,(1) Colour,,(A),0,,1\n";
/// let r = trial_answers("output_2DRotation/2DRotation+90.csv", csv.as_bytes(), 0).unwrap();
/// assert_eq!(r.len(), 1);
/// assert_eq!(r[0].outcomes, [Outcome::Correct, Outcome::Correct, Outcome::Wrong]);
/// assert_eq!(r[0].answers[2].as_deref(), Some("(D) none"));
/// ```
pub fn trial_answers(
    path: &str,
    bytes: &[u8],
    variation: u64,
) -> Result<Vec<RegenerationAnswers>, KivaError> {
    let (file, csv) = RunFile::parse_with_records(path, bytes)?;
    let full = [1, 2, 3].map(|k| csv.column(&format!("Full#{k}")));
    // One row per CSV record, in order.
    Ok(file
        .rows
        .iter()
        .zip(&csv.rows)
        .filter(|(row, _)| row.variation == variation)
        .map(|(row, (_, rec))| RegenerationAnswers {
            line: row.line,
            regeneration: row.regeneration,
            outcomes: row.outcomes,
            answers: full.map(|c| c.and_then(|c| rec.get(c)).map(str::to_string)),
        })
        .collect())
}

/// The answer texts of one run-file row, stages 1-3 (`None` where the file has no `Full#k`).
pub type StageAnswers = [Option<String>; 3];

/// A run file with every row's answer texts (`Full#1`..`Full#3`; `None` where the file has no
/// such column), rows in file order: for re-reading the answers under another rule (the
/// leaderboard's extraction robustness, issue 20).
///
/// # Errors
/// As [`RunFile::parse`].
///
/// # Examples
/// ```
/// use coglab_core::kiva::run_with_answers;
/// let csv = "Variation,Regeneration,Full#1,MCResponse#1,MCResponse#2,MCResponse#3\n0,0,(2) Colour,1,1,1\n";
/// let (file, answers) = run_with_answers("output_Colour/ColourRed.csv", csv.as_bytes()).unwrap();
/// assert_eq!(file.rows.len(), 1);
/// assert_eq!(answers[0][0].as_deref(), Some("(2) Colour"));
/// assert_eq!(answers[0][1], None);
/// ```
pub fn run_with_answers(
    path: &str,
    bytes: &[u8],
) -> Result<(RunFile, Vec<StageAnswers>), KivaError> {
    let (file, csv) = RunFile::parse_with_records(path, bytes)?;
    let full = [1, 2, 3].map(|k| csv.column(&format!("Full#{k}")));
    let answers = csv
        .rows
        .iter()
        .map(|(_, rec)| full.map(|c| c.and_then(|c| rec.get(c)).map(str::to_string)))
        .collect();
    Ok((file, answers))
}

/// How one stage of a file is scored.
enum StageSource {
    /// From the repository's `MCResponse#k` column.
    Score(usize),
    /// From the raw answer `Full#k`, the option order `Options#k` and the correct option
    /// (`Answer#k`, or for stage 1 the domain's option text).
    Raw {
        full: usize,
        options: usize,
        answer: Option<usize>,
    },
}

impl RunFile {
    /// Parses one run CSV. The path gives the subdomain (file stem) and the domain (an
    /// `output_<Domain>` folder, else the subdomain's prefix); a `KiVA` / `KiVA-adults` folder
    /// gives the variant.
    ///
    /// Columns: `Variation` and `Regeneration` (integers) and, per stage k = 1, 2, 3, either
    /// `MCResponse#k` (`1`, `0`, `1.0`, `0.0`, `Null` or empty) or the raw answer `Full#k` with
    /// the option order `Options#k` (option texts in the order shown, separated by `|`) and the
    /// correct option `Answer#k` (its label such as `(2)`/`B` or its text; for stage 1 it may be
    /// left out and is then the domain's option, e.g. `Color of objects`). Raw answers are scored
    /// by the repository's rule ([`score_response`]).
    ///
    /// # Errors
    /// [`KivaError::NotUtf8`], [`KivaError::Empty`], [`KivaError::Csv`],
    /// [`KivaError::MissingColumns`], [`KivaError::BadValue`] (naming line and column), and
    /// [`KivaError::UnknownDomain`].
    ///
    /// # Examples
    /// ```
    /// use coglab_core::kiva::{Outcome, RunFile};
    /// let csv = "Variation,Regeneration,MCResponse#1,MCResponse#2,MCResponse#3\n\
    ///            0,0,1,1.0,0\n0,1,0,,Null\n";
    /// let f = RunFile::parse("run/output_Colour/ColourRed.csv", csv.as_bytes()).unwrap();
    /// assert_eq!((f.domain.as_str(), f.subdomain.as_str()), ("Colour", "ColourRed"));
    /// assert_eq!(f.rows[1].outcomes, [Outcome::Wrong, Outcome::Empty, Outcome::Null]);
    /// ```
    pub fn parse(path: &str, bytes: &[u8]) -> Result<Self, KivaError> {
        Self::parse_with_records(path, bytes).map(|(file, _)| file)
    }

    /// [`RunFile::parse`], also returning the CSV's records (one per row, in order). A
    /// Parquet file's rows are read as the CSV of its columns ([`parse_columnar`]).
    fn parse_with_records(path: &str, bytes: &[u8]) -> Result<(Self, Csv), KivaError> {
        if let Some(kind) = crate::columnar::detect(bytes) {
            return parse_columnar(path, bytes, kind);
        }
        Self::parse_csv(path, bytes)
    }

    /// [`RunFile::parse_with_records`] of CSV text.
    fn parse_csv(path: &str, bytes: &[u8]) -> Result<(Self, Csv), KivaError> {
        let components: Vec<&str> = path.split(['/', '\\']).filter(|c| !c.is_empty()).collect();
        let name = components.last().copied().unwrap_or(path);
        let stem = [".csv", ".CSV", ".parquet", ".PARQUET"]
            .iter()
            .find_map(|ext| name.strip_suffix(ext))
            .unwrap_or(name);
        let subdomain = stem.strip_prefix("output_").unwrap_or(stem).to_string();
        let folder_domain = components
            .iter()
            .rev()
            .skip(1)
            .find_map(|c| c.strip_prefix("output_"))
            .filter(|d| !d.is_empty());
        let domain = match folder_domain.or_else(|| domain_of(&subdomain)) {
            Some(d) => d.to_string(),
            None => {
                return Err(KivaError::UnknownDomain {
                    file: path.to_string(),
                    subdomain,
                })
            }
        };
        let variant_in_path = components.iter().rev().skip(1).find_map(|c| match *c {
            "KiVA-adults" => Some(Variant::KivaAdults),
            "KiVA" => Some(Variant::Kiva),
            _ => None,
        });

        let csv = Csv::parse(
            path,
            bytes,
            "a header and one row per variation and regeneration",
        )?;
        let base = csv.require(path, &["Variation", "Regeneration"])?;
        let mut sources = Vec::with_capacity(3);
        for k in 1..=3 {
            let score_col = format!("MCResponse#{k}");
            if let Some(c) = csv.column(&score_col) {
                sources.push(StageSource::Score(c));
                continue;
            }
            let (full, options) = (format!("Full#{k}"), format!("Options#{k}"));
            match (csv.column(&full), csv.column(&options)) {
                (Some(full), Some(options)) => {
                    let answer = csv.column(&format!("Answer#{k}"));
                    if answer.is_none() && k != 1 {
                        csv.require(path, &[&format!("Answer#{k}")])?;
                    }
                    sources.push(StageSource::Raw {
                        full,
                        options,
                        answer,
                    });
                }
                _ => {
                    csv.require(path, &[&score_col])?;
                }
            }
        }
        let mut rows = Vec::with_capacity(csv.rows.len());
        for (line, rec) in &csv.rows {
            let loc = Location::file(path).at_line(*line);
            let variation = int_field(&loc, "Variation", &rec[base[0]])?;
            let regeneration = int_field(&loc, "Regeneration", &rec[base[1]])?;
            let mut outcomes = [Outcome::Empty; 3];
            for (i, (stage, source)) in Stage::ALL.iter().zip(&sources).enumerate() {
                outcomes[i] = match source {
                    StageSource::Score(c) => parse_score(&loc, &csv.columns[*c], &rec[*c])?,
                    StageSource::Raw {
                        full,
                        options,
                        answer,
                    } => raw_outcome(
                        &loc,
                        *stage,
                        &domain,
                        &rec[*full],
                        (&csv.columns[*options], &rec[*options]),
                        answer.map(|a| (csv.columns[a].as_str(), &rec[a])),
                    )?,
                };
            }
            rows.push(RunRow {
                line: *line,
                variation,
                regeneration,
                outcomes,
            });
        }
        let file = Self {
            file: path.to_string(),
            domain,
            subdomain,
            variant_in_path,
            rows,
            scored_from_raw: [0, 1, 2].map(|i| matches!(sources[i], StageSource::Raw { .. })),
        };
        Ok((file, csv))
    }
}

/// A run stored as Parquet (its columns those of a run CSV, any types): its rows written as
/// CSV ([`crate::columnar::ParquetFile::write_csv`]) and read as a run CSV is, so it scores
/// as the CSV of the same rows does. The subdomain comes from the file name as for a CSV
/// (`ColourRed.parquet`); a row's `line` is its line in that CSV (line 1 the header). Errors
/// name the row group and the row within it instead of a line.
fn parse_columnar(
    path: &str,
    bytes: &[u8],
    kind: crate::columnar::ColumnarKind,
) -> Result<(RunFile, Csv), KivaError> {
    #[cfg(feature = "parquet")]
    if kind == crate::columnar::ColumnarKind::Parquet {
        use crate::columnar::{ParquetFile, Projection};
        let file = ParquetFile::from_slice(path, bytes)?;
        let mut csv = Vec::new();
        file.write_csv(Projection::All, |b| {
            csv.extend_from_slice(b);
            Ok::<(), KivaError>(())
        })?;
        return RunFile::parse_csv(path, &csv).map_err(|mut e| {
            if let Some(loc) = e.location_mut() {
                if let Some(row) = loc
                    .line
                    .map(|l| crate::location::csv_record_of_line(&csv, l))
                {
                    file.relocate_row(loc, row as u64);
                }
            }
            e
        });
    }
    let _ = bytes;
    Err(crate::columnar::ColumnarError::unsupported(path, kind).into())
}

/// Reads an `MCResponse#k` value.
fn parse_score(loc: &Location, column: &str, text: &str) -> Result<Outcome, KivaError> {
    match text.trim() {
        "1" | "1.0" => Ok(Outcome::Correct),
        "0" | "0.0" => Ok(Outcome::Wrong),
        "" => Ok(Outcome::Empty),
        t if t.eq_ignore_ascii_case("null") => Ok(Outcome::Null),
        _ => Err(KivaError::BadValue {
            location: loc.clone().in_field(column),
            expected: "1, 0, 1.0, 0.0, Null or empty".into(),
            found: snippet(text),
        }),
    }
}

/// The option labels the repository uses: `(1)`, `(2)`, ... for stages 1-2 and `(A)`, `(B)`, ...
/// for stage 3.
fn labels(stage: Stage, n: usize) -> Vec<String> {
    (0..n)
        .map(|i| match stage {
            Stage::Extrapolation => format!("({})", char::from(b'A' + (i as u8).min(25))),
            _ => format!("({})", i + 1),
        })
        .collect()
}

/// The stage-1 option text that is correct for a domain (the repository's `correct_cross_domain`).
fn cross_domain_answer(domain: &str) -> Option<&'static str> {
    match domain {
        "2DRotation" | "Reflect" => Some("Orientation of objects"),
        "Counting" => Some("Number of objects"),
        "Colour" => Some("Color of objects"),
        "Resize" => Some("Size of objects"),
        _ => None,
    }
}

/// Scores a raw answer from its option order and correct option.
fn raw_outcome(
    loc: &Location,
    stage: Stage,
    domain: &str,
    response: &str,
    (options_col, options_text): (&str, &str),
    answer: Option<(&str, &str)>,
) -> Result<Outcome, KivaError> {
    let trimmed = response.trim();
    if trimmed.is_empty() || (stage == Stage::Within && trimmed.starts_with(SKIPPED_PREFIX)) {
        return Ok(Outcome::Empty);
    }
    let options: Vec<&str> = options_text.split('|').map(str::trim).collect();
    if options.len() < 2 || options.iter().any(|o| o.is_empty()) {
        return Err(KivaError::BadValue {
            location: loc.clone().in_field(options_col),
            expected: "the option texts in the order shown, separated by |".into(),
            found: snippet(options_text),
        });
    }
    let labels = labels(stage, options.len());
    let (answer_col, answer_text) = match answer {
        Some(a) => a,
        None => ("Answer#1", cross_domain_answer(domain).unwrap_or("")),
    };
    let a = answer_text.trim();
    let correct = labels
        .iter()
        .position(|l| l == a || l[1..l.len() - 1] == *a)
        .or_else(|| options.iter().position(|o| o.eq_ignore_ascii_case(a)))
        .ok_or_else(|| KivaError::BadValue {
            location: loc.clone().in_field(answer_col),
            expected: format!(
                "one of the labels {} or one of the option texts",
                labels.join(" ")
            ),
            found: snippet(answer_text),
        })?;
    let tokens: Vec<&str> = labels.iter().map(String::as_str).collect();
    Ok(score_response(response, tokens[correct], &tokens))
}

/// The repository's scoring rule (`eval_response`): the option token (e.g. `(2)`, `(B)`) that
/// occurs earliest in the response is the answer; [`Outcome::Correct`] if it is `correct`,
/// [`Outcome::Wrong`] if it is another option, [`Outcome::Null`] if no token occurs.
///
/// # Examples
/// ```
/// use coglab_core::kiva::{score_response, Outcome};
/// let opts = ["(1)", "(2)", "(3)", "(4)"];
/// assert_eq!(score_response("(2) Objects turn Red, not (1)", "(2)", &opts), Outcome::Correct);
/// assert_eq!(score_response("Rule (1) fits better than (2)", "(2)", &opts), Outcome::Wrong);
/// assert_eq!(score_response("Objects turn Red", "(2)", &opts), Outcome::Null);
/// ```
pub fn score_response(response: &str, correct: &str, options: &[&str]) -> Outcome {
    let earliest = options
        .iter()
        .filter_map(|o| response.find(o).map(|i| (i, *o)))
        .min_by_key(|(i, _)| *i);
    match earliest {
        None => Outcome::Null,
        Some((_, o)) if o == correct => Outcome::Correct,
        Some(_) => Outcome::Wrong,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_give_subdomain_domain_and_variant() {
        let csv = b"Variation,Regeneration,MCResponse#1,MCResponse#2,MCResponse#3\n0,0,1,1,1\n";
        let f = RunFile::parse("m/KiVA-adults/gpt4/output_Counting/Countingx2.csv", csv).unwrap();
        assert_eq!(f.domain, "Counting");
        assert_eq!(f.subdomain, "Countingx2");
        assert_eq!(f.variant_in_path, Some(Variant::KivaAdults));
        let f = RunFile::parse("Resize2XY.csv", csv).unwrap();
        assert_eq!(f.domain, "Resize");
        assert_eq!(f.variant_in_path, None);
        let err = RunFile::parse("x/Shear.csv", csv).unwrap_err();
        assert!(matches!(err, KivaError::UnknownDomain { .. }), "{err}");
    }

    #[test]
    fn bad_values_name_line_and_column() {
        let csv = b"Variation,Regeneration,MCResponse#1,MCResponse#2,MCResponse#3\n0,0,1,1,1\n0,1,yes,,0\n";
        let err = RunFile::parse("output_Colour/ColourRed.csv", csv).unwrap_err();
        assert_eq!(
            err.to_string(),
            "output_Colour/ColourRed.csv line 3: field \"MCResponse#1\": expected 1, 0, 1.0, 0.0, Null or empty, found \"yes\""
        );
        let csv = b"Variation,Regeneration,MCResponse#1,MCResponse#2,MCResponse#3\nfive,0,1,1,1\n";
        let err = RunFile::parse("ColourRed.csv", csv).unwrap_err();
        assert_eq!(
            err.to_string(),
            "ColourRed.csv line 2: field \"Variation\": expected a non-negative integer, found \"five\""
        );
        let csv = b"Variation,Regeneration,MCResponse#1,MCResponse#3\n0,0,1,1\n";
        let err = RunFile::parse("ColourRed.csv", csv).unwrap_err();
        assert_eq!(
            err.to_string(),
            "ColourRed.csv: missing column(s) MCResponse#2; the header has Variation, Regeneration, MCResponse#1, MCResponse#3"
        );
        let err = RunFile::parse("ColourRed.csv", b"").unwrap_err();
        assert!(matches!(err, KivaError::Empty { .. }));
        let err = RunFile::parse("ColourRed.csv", b"Variation,Regeneration\n\xff,0\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "ColourRed.csv line 2: not valid UTF-8 (byte 1 of the line cannot be decoded)"
        );
    }

    #[test]
    fn raw_answers_scored_by_the_repository_rule() {
        // Stage 1 options in shown order: (1) Size, (2) Color, (3) Number, (4) No change,
        // (5) Doesn't apply. The domain is Colour, so the correct option is (2) "Color of objects".
        // Row 1: "(2) Color ..." -> earliest token (2) -> correct.
        //        Stage 2: "(1) Objects turn Red" with Answer#2 = "Objects turn Red" = (1) -> correct.
        //        Stage 3: "I pick (C), not (A)" -> earliest (C); Answer#3 = B -> wrong.
        // Row 2: stage 1 "(3) Number of objects" -> wrong; stage 2 skipped -> not asked;
        //        stage 3 "none of them" -> no token -> Null.
        let csv = "Variation,Regeneration,Full#1,Full#2,Full#3,Options#1,Options#2,Answer#2,Options#3,Answer#3\n\
            0,0,\"(2) Color of objects, not (1)\",(1) Objects turn Red,\"I pick (C), not (A)\",Size of objects|Color of objects|Number of objects|No change between pictures|Doesn't apply,Objects turn Red|Objects turn Green|No change between pictures|Doesn't apply,Objects turn Red,A|B|C|D,B\n\
            0,1,(3) Number of objects,\"[Skipped mcq#2, incorrect previous response]\",none of them,Size of objects|Color of objects|Number of objects|No change between pictures|Doesn't apply,Objects turn Red|Objects turn Green|No change between pictures|Doesn't apply,Objects turn Red,A|B|C|D,(B)\n";
        let f = RunFile::parse("output_Colour/ColourRed.csv", csv.as_bytes()).unwrap();
        assert_eq!(f.scored_from_raw, [true, true, true]);
        assert_eq!(
            f.rows[0].outcomes,
            [Outcome::Correct, Outcome::Correct, Outcome::Wrong]
        );
        assert_eq!(
            f.rows[1].outcomes,
            [Outcome::Wrong, Outcome::Empty, Outcome::Null]
        );
    }

    #[test]
    fn raw_answer_errors() {
        let csv = "Variation,Regeneration,Full#1,Options#1,MCResponse#2,MCResponse#3\n0,0,(1),Size of objects,1,1\n";
        let err = RunFile::parse("output_Colour/ColourRed.csv", csv.as_bytes()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "output_Colour/ColourRed.csv line 2: field \"Options#1\": expected the option texts in the order shown, separated by |, found \"Size of objects\""
        );
        let csv = "Variation,Regeneration,Full#1,Options#1,MCResponse#2,MCResponse#3\n0,0,(1),Size of objects|Number of objects,1,1\n";
        let err = RunFile::parse("output_Colour/ColourRed.csv", csv.as_bytes()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "output_Colour/ColourRed.csv line 2: field \"Answer#1\": expected one of the labels (1) (2) or one of the option texts, found \"Color of objects\""
        );
        let csv =
            "Variation,Regeneration,MCResponse#1,Full#2,Options#2,MCResponse#3\n0,0,1,(1),a|b,1\n";
        let err = RunFile::parse("ColourRed.csv", csv.as_bytes()).unwrap_err();
        assert!(
            err.to_string().contains("missing column(s) Answer#2"),
            "{err}"
        );
    }

    #[test]
    fn earliest_token_wins() {
        let opts = ["(A)", "(B)", "(C)", "(D)"];
        // "(D)" at 0 is earlier than "(A)" at 10.
        assert_eq!(
            score_response("(D) since (A) differs", "(A)", &opts),
            Outcome::Wrong
        );
        assert_eq!(
            score_response("Answer: (A)", "(A)", &opts),
            Outcome::Correct
        );
        // Tokens need the parentheses.
        assert_eq!(score_response("A", "(A)", &opts), Outcome::Null);
    }
}
