//! The leaderboard manifest, `leaderboard.toml`: the answer keys, and per model its metadata
//! and runs (benchmark, result files or folders, settings), paths relative to the manifest.
//!
//! Read with the `toml` crate; every entry keeps its place in the text, so a bad entry is
//! refused naming its line and model ([`ManifestError`]).
//!
//! ```toml
//! [keys]
//! mmiq = "keys/MMIQ_benchmark_answer_dict.jsonl"
//! [[model]]
//! name = "GPT-4V"
//! family = "GPT"
//! [[model.run]]
//! benchmark = "kiva"
//! files = ["runs/gpt4v/KiVA"]
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;

use serde::{Deserialize, Serialize};
use toml::Spanned;

/// A benchmark a run is scored as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Benchmark {
    /// MM-IQ (predictions scored against `[keys] mmiq`).
    #[serde(rename = "mmiq")]
    Mmiq,
    /// KiVA (14 subdomains).
    #[serde(rename = "kiva")]
    Kiva,
    /// KiVA-adults (29 subdomains).
    #[serde(rename = "kiva-adults")]
    KivaAdults,
    /// MM-OPERA RIA (holistic and process judge files).
    #[serde(rename = "mmopera-ria")]
    MmoperaRia,
    /// MM-OPERA ICA.
    #[serde(rename = "mmopera-ica")]
    MmoperaIca,
    /// Gold's loading-weighted score, the model's row of a models x tasks score matrix.
    #[serde(rename = "gold")]
    Gold,
}

impl Benchmark {
    /// Every benchmark, in board order.
    pub const ALL: [Benchmark; 6] = [
        Benchmark::Mmiq,
        Benchmark::Kiva,
        Benchmark::KivaAdults,
        Benchmark::MmoperaRia,
        Benchmark::MmoperaIca,
        Benchmark::Gold,
    ];

    /// The manifest's name (`mmiq`, `kiva`, `kiva-adults`, `mmopera-ria`, `mmopera-ica`,
    /// `gold`), also the board file's name.
    pub fn key(self) -> &'static str {
        match self {
            Benchmark::Mmiq => "mmiq",
            Benchmark::Kiva => "kiva",
            Benchmark::KivaAdults => "kiva-adults",
            Benchmark::MmoperaRia => "mmopera-ria",
            Benchmark::MmoperaIca => "mmopera-ica",
            Benchmark::Gold => "gold",
        }
    }

    /// The display name.
    pub fn label(self) -> &'static str {
        match self {
            Benchmark::Mmiq => "MM-IQ",
            Benchmark::Kiva => "KiVA",
            Benchmark::KivaAdults => "KiVA-adults",
            Benchmark::MmoperaRia => "MM-OPERA RIA",
            Benchmark::MmoperaIca => "MM-OPERA ICA",
            Benchmark::Gold => "Gold",
        }
    }

    /// The benchmark of a manifest name.
    ///
    /// # Examples
    /// ```
    /// use coglab_core::publish::Benchmark;
    /// assert_eq!(Benchmark::from_key("kiva-adults"), Some(Benchmark::KivaAdults));
    /// assert_eq!(Benchmark::from_key("KiVA"), None);
    /// ```
    pub fn from_key(key: &str) -> Option<Benchmark> {
        Self::ALL.into_iter().find(|b| b.key() == key)
    }
}

impl fmt::Display for Benchmark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// Where in the manifest an entry is: its 1-based line, and the model and run it belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Entry {
    /// 1-based line of the entry's value in the manifest.
    pub line: usize,
    /// The model's name (empty for `[keys]`).
    pub model: String,
    /// The run's 1-based number within the model (0 for the model itself or `[keys]`).
    pub run: usize,
}

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}", self.line)?;
        if !self.model.is_empty() {
            write!(f, ", model \"{}\"", self.model)?;
        }
        if self.run > 0 {
            write!(f, ", run {}", self.run)?;
        }
        Ok(())
    }
}

/// Why a manifest is refused. Every variant names the manifest file and the entry's line.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ManifestError {
    /// The manifest is not UTF-8 text (issue 37: a UTF-16 or Latin-1 manifest said only
    /// "stream did not contain valid UTF-8").
    #[error("{file}: the manifest must be UTF-8 text: {what}")]
    Encoding {
        /// Manifest file.
        file: String,
        /// What it is instead, and where (`UTF-16 LE text ...`, `byte 0xE8 at line 2, ...`).
        what: String,
    },
    /// Not TOML, or not the manifest's shape (an unknown key, a wrong type).
    #[error("{file}: line {line}, column {column}: {message}")]
    Toml {
        /// Manifest file.
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The `toml` crate's message.
        message: String,
    },
    /// A run's benchmark is not one of the known names.
    #[error("{file}: {entry}: benchmark \"{found}\" is not known; expected one of mmiq, kiva, kiva-adults, mmopera-ria, mmopera-ica, gold")]
    Benchmark {
        /// Manifest file.
        file: String,
        /// The run.
        entry: Entry,
        /// The name given.
        found: String,
    },
    /// Two models have the same name.
    #[error("{file}: {entry}: model name \"{name}\" is already used at line {first_line}; each model is listed once, with all its runs")]
    DuplicateModel {
        /// Manifest file.
        file: String,
        /// The second model.
        entry: Entry,
        /// The name.
        name: String,
        /// Line of the first model of that name.
        first_line: usize,
    },
    /// A model has two runs of one benchmark.
    #[error("{file}: {entry}: a second {benchmark} run for this model (the first is run {first}); merge their files into one run")]
    DuplicateRun {
        /// Manifest file.
        file: String,
        /// The second run.
        entry: Entry,
        /// The benchmark.
        benchmark: Benchmark,
        /// 1-based number of the first run of that benchmark.
        first: usize,
    },
    /// An empty or otherwise unusable value.
    #[error("{file}: {entry}: {field}: expected {expected}, found {found}")]
    Value {
        /// Manifest file.
        file: String,
        /// The entry.
        entry: Entry,
        /// The field (`name`, `files`, ...).
        field: &'static str,
        /// What is expected.
        expected: &'static str,
        /// What was found.
        found: String,
    },
    /// An MM-IQ run without `[keys] mmiq`.
    #[error("{file}: {entry}: an mmiq run needs the answer key: add `[keys]` `mmiq = \"path/to/MMIQ_benchmark_answer_dict.jsonl\"`")]
    NoKey {
        /// Manifest file.
        file: String,
        /// The run.
        entry: Entry,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawManifest {
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    keys: RawKeys,
    #[serde(default)]
    model: Vec<RawModel>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawKeys {
    #[serde(default)]
    mmiq: Option<Spanned<String>>,
    #[serde(default)]
    mmopera_metadata: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawModel {
    name: Spanned<String>,
    #[serde(default)]
    family: Option<String>,
    #[serde(default)]
    parameters: Option<String>,
    #[serde(default)]
    release_date: Option<String>,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    reported_as: Option<String>,
    #[serde(default)]
    run: Vec<RawRun>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRun {
    benchmark: Spanned<String>,
    files: Spanned<Vec<Spanned<String>>>,
    #[serde(default)]
    judge: Option<String>,
    #[serde(default)]
    extractor: Option<String>,
    #[serde(default)]
    matrix_name: Option<String>,
    #[serde(default)]
    settings: BTreeMap<String, String>,
}

/// What a manifest path must be ([`super::check_relative`]).
const INSIDE: &str = "a path inside the leaderboard folder (relative, without `..`)";

/// A path in the manifest with its line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathEntry {
    /// The path as written (relative to the manifest's folder).
    pub path: String,
    /// Where it is written.
    pub entry: Entry,
}

/// The answer keys and shared files.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Keys {
    /// The MM-IQ answer key.
    pub mmiq: Option<PathEntry>,
    /// An MM-OPERA metadata file, added to every MM-OPERA run (breakdowns by hop, culture...).
    pub mmopera_metadata: Option<PathEntry>,
}

/// A model's metadata as the maintainer states it (all optional).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ModelMeta {
    /// Model family (`GPT`, `Qwen`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<String>,
    /// Parameter count, e.g. `7B`, or `proprietary`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<String>,
    /// Release date as written (e.g. `2024-05-13`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub release_date: Option<String>,
    /// Link to the model's or the run's source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The model's row label in the papers' tables, when it differs from the name (for the
    /// reproducibility audit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reported_as: Option<String>,
}

/// One run of a model on one benchmark.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Run {
    /// The benchmark.
    pub benchmark: Benchmark,
    /// Where the run is in the manifest.
    pub entry: Entry,
    /// Result files or folders (a folder stands for every file under it).
    pub files: Vec<PathEntry>,
    /// The settings shown with the row: `judge` and `extractor` when given, and any
    /// `settings` table entries.
    pub settings: BTreeMap<String, String>,
    /// Gold: the model's name in the score matrix (default: the model's name).
    pub matrix_name: Option<String>,
}

/// One model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Model {
    /// Its name (unique in the manifest).
    pub name: String,
    /// Where its `name` is.
    pub entry: Entry,
    /// Metadata.
    pub meta: ModelMeta,
    /// Its runs, at most one per benchmark.
    pub runs: Vec<Run>,
}

/// A checked manifest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// The manifest's file name, as errors name it.
    pub file: String,
    /// An optional title for the boards.
    pub title: Option<String>,
    /// Answer keys and shared files.
    pub keys: Keys,
    /// The models, in manifest order.
    pub models: Vec<Model>,
}

/// The byte offsets where the manifest's lines start, for [`Lines::line_col`]: every entry
/// of a manifest is located, and counting the newlines before each from the start made a
/// manifest of 10,000 models quadratic (issue 37: past 30 s).
struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        let starts = std::iter::once(0)
            .chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1))
            .collect();
        Self { text, starts }
    }

    /// 1-based line and column (in characters) of a byte offset.
    fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        // The number of line starts at or before the offset is its line.
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let start = self.starts[line - 1];
        let col = self
            .text
            .get(start..offset)
            .map_or(0, |l| l.chars().count())
            + 1;
        (line, col)
    }
}

impl Manifest {
    /// A manifest's bytes as text (a UTF-8 byte-order mark dropped), or what the file is
    /// instead: UTF-16 or UTF-32 ([`crate::encoding::sniff`]), or the first byte that is not
    /// UTF-8 with its line, column and Latin-1 reading ([`crate::encoding::BadUtf8`]).
    ///
    /// # Errors
    /// [`ManifestError::Encoding`].
    ///
    /// # Examples
    /// ```
    /// use coglab_core::publish::Manifest;
    /// let e = Manifest::text("lb.toml", b"[[model]]\nname = \"Mod\xe8le\"\n").unwrap_err();
    /// assert_eq!(e.to_string(), "lb.toml: the manifest must be UTF-8 text: byte 0xE8 at line \
    ///     2, column 12 is not UTF-8 (in Latin-1 or Windows-1252 it is \"è\": the file looks \
    ///     saved in one of them; save it as UTF-8)");
    /// let utf16: Vec<u8> = "\u{feff}title = \"x\"\n".encode_utf16().flat_map(u16::to_le_bytes).collect();
    /// let e = Manifest::text("lb.toml", &utf16).unwrap_err();
    /// assert_eq!(e.to_string(), "lb.toml: the manifest must be UTF-8 text: it is UTF-16 LE \
    ///     text (with a byte-order mark), not UTF-8: save it as UTF-8");
    /// assert_eq!(Manifest::text("lb.toml", b"\xEF\xBB\xBFtitle = \"x\"").unwrap(), "title = \"x\"");
    /// ```
    pub fn text<'a>(file: &str, bytes: &'a [u8]) -> Result<&'a str, ManifestError> {
        let err = |what: String| ManifestError::Encoding {
            file: file.to_string(),
            what,
        };
        if let Some(what) = crate::encoding::sniff(bytes) {
            return Err(err(format!("it is {what}")));
        }
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        match crate::encoding::BadUtf8::find(bytes) {
            Some(bad) => Err(err(bad.to_string())),
            None => Ok(std::str::from_utf8(bytes).unwrap_or_default()),
        }
    }

    /// Reads and checks a manifest's text. `file` names it in errors.
    ///
    /// # Errors
    /// A [`ManifestError`] naming the line (and model and run) of the first bad entry: TOML
    /// syntax, an unknown key, an unknown benchmark, a duplicate model name or run, an empty
    /// name or file list, an MM-IQ run without `[keys] mmiq`.
    ///
    /// # Examples
    /// ```
    /// use coglab_core::publish::{Benchmark, Manifest};
    /// let m = Manifest::parse("leaderboard.toml", r#"
    /// [[model]]
    /// name = "GPT-4V"
    /// [[model.run]]
    /// benchmark = "kiva"
    /// files = ["runs/gpt4v/KiVA"]
    /// "#).unwrap();
    /// assert_eq!(m.models[0].runs[0].benchmark, Benchmark::Kiva);
    /// let e = Manifest::parse("lb.toml", "[[model]]\nname = \"A\"\n[[model.run]]\nbenchmark = \"kiwa\"\nfiles = [\"x\"]\n")
    ///     .unwrap_err().to_string();
    /// assert!(e.starts_with("lb.toml: line 4, model \"A\", run 1: benchmark \"kiwa\" is not known"), "{e}");
    /// ```
    pub fn parse(file: &str, text: &str) -> Result<Manifest, ManifestError> {
        let lines = Lines::new(text);
        let raw: RawManifest = toml::from_str(text).map_err(|e| {
            let (line, column) = lines.line_col(e.span().map_or(0, |s| s.start));
            ManifestError::Toml {
                file: file.to_string(),
                line,
                column,
                message: e.message().trim().to_string(),
            }
        })?;
        let at = |span: Range<usize>, model: &str, run: usize| Entry {
            line: lines.line_col(span.start).0,
            model: model.to_string(),
            run,
        };
        let value_err = |entry: Entry, field: &'static str, expected: &'static str, found: &str| {
            ManifestError::Value {
                file: file.to_string(),
                entry,
                field,
                expected,
                found: found.to_string(),
            }
        };
        let key_path = |k: Option<Spanned<String>>, field: &'static str| {
            k.map(|p| {
                let entry = at(p.span(), "", 0);
                let path = p.into_inner();
                if path.trim().is_empty() {
                    Err(value_err(entry, field, "a file path", "an empty string"))
                } else if let Err(why) = super::check_relative(&path) {
                    Err(value_err(
                        entry,
                        field,
                        INSIDE,
                        &format!("{path:?} ({why})"),
                    ))
                } else {
                    Ok(PathEntry { path, entry })
                }
            })
            .transpose()
        };
        let keys = Keys {
            mmiq: key_path(raw.keys.mmiq, "keys.mmiq")?,
            mmopera_metadata: key_path(raw.keys.mmopera_metadata, "keys.mmopera_metadata")?,
        };
        let mut models: Vec<Model> = Vec::new();
        // Each name's line, to refuse a second use in O(1).
        let mut lines_of_names: std::collections::HashMap<String, usize> =
            std::collections::HashMap::new();
        for m in raw.model {
            let entry = at(m.name.span(), m.name.get_ref(), 0);
            let name = m.name.into_inner();
            if name.trim().is_empty() || name.trim() != name {
                return Err(value_err(
                    entry,
                    "name",
                    "a non-empty model name without leading or trailing spaces",
                    &format!("\"{name}\""),
                ));
            }
            if let Some(&first_line) = lines_of_names.get(&name) {
                return Err(ManifestError::DuplicateModel {
                    file: file.to_string(),
                    entry,
                    name,
                    first_line,
                });
            }
            lines_of_names.insert(name.clone(), entry.line);
            let mut runs: Vec<Run> = Vec::new();
            for (r, run) in m.run.into_iter().enumerate() {
                let entry = at(run.benchmark.span(), &name, r + 1);
                let Some(benchmark) = Benchmark::from_key(run.benchmark.get_ref()) else {
                    return Err(ManifestError::Benchmark {
                        file: file.to_string(),
                        entry,
                        found: run.benchmark.into_inner(),
                    });
                };
                if let Some(first) = runs.iter().position(|o| o.benchmark == benchmark) {
                    return Err(ManifestError::DuplicateRun {
                        file: file.to_string(),
                        entry,
                        benchmark,
                        first: first + 1,
                    });
                }
                if benchmark == Benchmark::Mmiq && keys.mmiq.is_none() {
                    return Err(ManifestError::NoKey {
                        file: file.to_string(),
                        entry,
                    });
                }
                let files_entry = at(run.files.span(), &name, r + 1);
                let list = run.files.into_inner();
                if list.is_empty() {
                    return Err(value_err(
                        files_entry,
                        "files",
                        "at least one file or folder",
                        "an empty list",
                    ));
                }
                let mut files = Vec::new();
                for f in list {
                    let entry = at(f.span(), &name, r + 1);
                    let path = f.into_inner();
                    if path.trim().is_empty() {
                        return Err(value_err(entry, "files", "a path", "an empty string"));
                    }
                    if let Err(why) = super::check_relative(&path) {
                        let found = format!("{path:?} ({why})");
                        return Err(value_err(entry, "files", INSIDE, &found));
                    }
                    files.push(PathEntry { path, entry });
                }
                let mut settings = run.settings;
                if let Some(j) = run.judge {
                    settings.insert("judge".into(), j);
                }
                if let Some(x) = run.extractor {
                    settings.insert("extractor".into(), x);
                }
                runs.push(Run {
                    benchmark,
                    entry,
                    files,
                    settings,
                    matrix_name: run.matrix_name,
                });
            }
            models.push(Model {
                name,
                entry,
                meta: ModelMeta {
                    family: m.family,
                    parameters: m.parameters,
                    release_date: m.release_date,
                    source: m.source,
                    reported_as: m.reported_as,
                },
                runs,
            });
        }
        Ok(Manifest {
            file: file.to_string(),
            title: raw.title,
            keys,
            models,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"[keys]
mmiq = "keys/MMIQ_benchmark_answer_dict.jsonl"

[[model]]
name = "GPT-4V"
family = "GPT"
[[model.run]]
benchmark = "kiva"
files = ["runs/gpt4v/KiVA"]
judge = "none"

[[model]]
name = "example"
[[model.run]]
benchmark = "mmiq"
files = ["runs/example_output_parsed.jsonl"]
"#;

    #[test]
    fn a_good_manifest_keeps_lines() {
        let m = Manifest::parse("lb.toml", GOOD).unwrap();
        assert_eq!(m.keys.mmiq.as_ref().unwrap().entry.line, 2);
        assert_eq!(m.models.len(), 2);
        assert_eq!(m.models[0].entry.line, 5);
        assert_eq!(m.models[0].meta.family.as_deref(), Some("GPT"));
        assert_eq!(m.models[0].runs[0].entry.line, 8);
        assert_eq!(m.models[0].runs[0].files[0].entry.line, 9);
        assert_eq!(m.models[0].runs[0].settings["judge"], "none");
        assert_eq!(m.models[1].runs[0].benchmark, Benchmark::Mmiq);
    }

    #[test]
    fn bad_entries_are_refused_with_their_line() {
        // Duplicate model names: the second "GPT-4V" is on line 12 (the first on line 5).
        let dup = GOOD.replace("name = \"example\"", "name = \"GPT-4V\"");
        assert_eq!(
            Manifest::parse("lb.toml", &dup).unwrap_err().to_string(),
            "lb.toml: line 13, model \"GPT-4V\": model name \"GPT-4V\" is already used at \
             line 5; each model is listed once, with all its runs"
        );
        // Wrong benchmark name, line 8.
        let bench = GOOD.replace("\"kiva\"", "\"kiva-children\"");
        let e = Manifest::parse("lb.toml", &bench).unwrap_err().to_string();
        assert!(
            e.starts_with(
                "lb.toml: line 8, model \"GPT-4V\", run 1: benchmark \"kiva-children\" is not known"
            ),
            "{e}"
        );
        // An unknown key: the toml crate's message, located.
        let typo = GOOD.replace("files = [\"runs/gpt4v", "file = [\"runs/gpt4v");
        let e = Manifest::parse("lb.toml", &typo).unwrap_err();
        assert!(
            matches!(&e, ManifestError::Toml { line: 9, .. }),
            "{e}: {e:?}"
        );
        // An MM-IQ run without a key.
        let nokey = GOOD.replace(
            "[keys]\nmmiq = \"keys/MMIQ_benchmark_answer_dict.jsonl\"",
            "",
        );
        let e = Manifest::parse("lb.toml", &nokey).unwrap_err().to_string();
        // (The key's two lines are gone: the run's benchmark moves from line 15 to 14.)
        assert!(
            e.starts_with(
                "lb.toml: line 14, model \"example\", run 1: an mmiq run needs the answer key"
            ),
            "{e}"
        );
        // Empty file list.
        let empty = GOOD.replace("[\"runs/gpt4v/KiVA\"]", "[]");
        let e = Manifest::parse("lb.toml", &empty).unwrap_err().to_string();
        assert_eq!(
            e,
            "lb.toml: line 9, model \"GPT-4V\", run 1: files: expected at least one file or \
             folder, found an empty list"
        );
        // Two runs of one benchmark.
        let two = format!("{GOOD}[[model.run]]\nbenchmark = \"mmiq\"\nfiles = [\"b.jsonl\"]\n");
        let e = Manifest::parse("lb.toml", &two).unwrap_err().to_string();
        assert!(
            e.starts_with("lb.toml: line 18, model \"example\", run 2: a second mmiq run"),
            "{e}"
        );
    }

    #[test]
    fn issue_37_a_manifest_of_20000_models_keeps_every_line() {
        // Each entry's line was counted from the start of the text (quadratic: 20,000 models
        // did not finish here); the line index keeps the same lines.
        let mut text = String::from("[keys]\nmmiq = \"k.jsonl\"\n");
        for i in 0..20_000 {
            text.push_str(&format!(
                "[[model]]\nname = \"m {i}\"\n[[model.run]]\nbenchmark = \"mmiq\"\nfiles = [\"r.jsonl\"]\n"
            ));
        }
        let m = Manifest::parse("lb.toml", &text).unwrap();
        assert_eq!(m.models.len(), 20_000);
        // Model i's name is on line 3 + 5i + 1, its benchmark two lines below.
        assert_eq!(m.models[19_999].entry.line, 3 + 5 * 19_999 + 1);
        assert_eq!(m.models[19_999].runs[0].entry.line, 3 + 5 * 19_999 + 3);
        // A second "m 7" at the end is refused naming both lines.
        text.push_str("[[model]]\nname = \"m 7\"\n");
        let e = Manifest::parse("lb.toml", &text).unwrap_err().to_string();
        assert!(
            e.starts_with("lb.toml: line 100004, model \"m 7\": model name \"m 7\" is already used at line 39;"),
            "{e}"
        );
    }
}
