//! Recognising a dropped file: its format ([`detect`]) and the model it belongs to
//! ([`guess_model`]), and the formats a user can choose instead ([`FileKind::CHOOSABLE`]).

use super::{gold, mmopera, FileKind};
use crate::harness::HarnessFormat;
use crate::mmiq::{self, MmiqFormat};

fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

/// Detects a file's kind from its path (with folders, as a folder picker gives it) and bytes.
/// UTF-16 and UTF-32 text is [`FileKind::Unknown`] (scoring it says which encoding it is).
/// [`detect_format`] gives the harness and MM-IQ formats found on the way too.
///
/// # Examples
/// ```
/// use coglab_core::leaderboard::{detect, FileKind};
/// let key = br#"{"category": "Mathematical", "MD5": "x", "data_id": 0, "answer": "B"}"#;
/// assert_eq!(detect("MMIQ_benchmark_answer_dict.jsonl", key), FileKind::MmiqKey);
/// let run = b"Variation,Regeneration,MCResponse#1,MCResponse#2,MCResponse#3\n";
/// assert_eq!(detect("gpt4/output_Colour/ColourRed.csv", run), FileKind::KivaRun);
/// assert_eq!(detect("notes.txt", b"hello"), FileKind::Unknown);
/// ```
pub fn detect(path: &str, bytes: &[u8]) -> FileKind {
    detect_format(path, bytes).kind
}

/// What [`detect_format`] found: the file's kind, and the harness and MM-IQ formats its
/// first 8 KiB read as (`None` when the kind was told before those were looked at: a KiVA
/// run or human file, MM-OPERA's metadata, a score matrix, text in another encoding).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Format {
    /// The kind, as [`detect`] gives it.
    pub kind: FileKind,
    /// [`crate::harness::detect`] of the start.
    pub harness: Option<HarnessFormat>,
    /// [`mmiq::detect`] of the start.
    pub mmiq: Option<MmiqFormat>,
}

/// [`detect`], with the harness and MM-IQ formats it found on the way, so that a reader that
/// needs them (the scoring worker's streaming readers) does not detect the file again.
///
/// # Examples
/// ```
/// use coglab_core::leaderboard::{detect_format, FileKind};
/// use coglab_core::mmiq::MmiqFormat;
/// let key = br#"{"category": "Mathematical", "MD5": "x", "data_id": 0, "answer": "B"}"#;
/// let f = detect_format("MMIQ_benchmark_answer_dict.jsonl", key);
/// assert_eq!((f.kind, f.harness, f.mmiq), (FileKind::MmiqKey, None, Some(MmiqFormat::AnswerKey)));
/// ```
pub fn detect_format(path: &str, bytes: &[u8]) -> Format {
    let told = |kind| Format {
        kind,
        harness: None,
        mmiq: None,
    };
    if super::not_text(bytes).is_some() {
        // UTF-16/UTF-32 text is no format's text: [`super::score_files`] refuses it naming
        // its encoding, rather than have whichever parser its name suggests misread it.
        return told(FileKind::Unknown);
    }
    #[cfg(feature = "parquet")]
    if crate::columnar::detect(bytes).is_some() {
        return columnar_format(path, bytes);
    }
    let head = strip_bom(&bytes[..bytes.len().min(8192)]);
    let lower = path.to_ascii_lowercase();
    if head.starts_with(b"ParticipantID") || head.starts_with(b"\"ParticipantID\"") {
        return told(FileKind::KivaHuman);
    }
    if lower.ends_with(".csv") {
        let first = head.split(|b| *b == b'\n').next().unwrap_or_default();
        let first = String::from_utf8_lossy(first);
        if first.contains("Variation") && first.contains("Regeneration") {
            return told(FileKind::KivaRun);
        }
        if mmopera::is_metadata_csv(head) {
            return told(FileKind::Mmopera);
        }
    }
    if gold::is_score_matrix(path, bytes) {
        return told(FileKind::ScoreMatrix);
    }
    let harness = crate::harness::detect(path, head);
    let mmiq = mmiq::detect(path, head);
    let kind = kind_of(path, bytes, &lower, harness, mmiq);
    Format {
        kind,
        harness,
        mmiq,
    }
}

/// [`detect_format`] of a whole Parquet or Arrow IPC file, from its columns' names
/// ([`detect_columns`]); [`FileKind::Unknown`] when it cannot be opened ([`unreadable`] then
/// names why).
#[cfg(feature = "parquet")]
fn columnar_format(path: &str, bytes: &[u8]) -> Format {
    match crate::columnar::Columnar::open(path, bytes) {
        Ok(file) => detect_columns(path, &file.columns()),
        Err(_) => Format {
            kind: FileKind::Unknown,
            harness: None,
            mmiq: None,
        },
    }
}

/// [`detect_format`] of an open Parquet file, from its columns' names alone (the footer's):
/// the browser worker tells a 100 MB file's format from its footer.
#[cfg(feature = "parquet")]
pub fn detect_parquet<R: parquet::file::reader::ChunkReader>(
    path: &str,
    file: &crate::columnar::ParquetFile<R>,
) -> Format {
    detect_columns(path, &file.columns())
}

/// The formats of a columnar file with these top-level columns: every format read from
/// Parquet or Arrow is told by its fields, so the first line of its rows is written with each
/// column `null` ([`crate::columnar::schema_jsonl`]) and told as a JSONL file's first line is.
#[cfg(feature = "parquet")]
fn detect_columns(path: &str, columns: &[String]) -> Format {
    let rows = crate::columnar::schema_jsonl(columns);
    // A KiVA run's columns (read as the CSV of its rows, crate::kiva::RunFile::parse).
    if columns.iter().any(|c| c == "Variation") && columns.iter().any(|c| c == "Regeneration") {
        return Format {
            kind: FileKind::KivaRun,
            harness: None,
            mmiq: None,
        };
    }
    let harness = crate::harness::detect(path, &rows);
    let mmiq = mmiq::detect(path, &rows);
    let lower = path.to_ascii_lowercase();
    Format {
        kind: kind_of(path, &rows, &lower, harness, mmiq),
        harness,
        mmiq,
    }
}

/// The kind of a text file that is no KiVA, MM-OPERA metadata or score-matrix file, from its
/// harness and MM-IQ formats.
fn kind_of(
    path: &str,
    bytes: &[u8],
    lower: &str,
    harness: Option<HarnessFormat>,
    mmiq: Option<MmiqFormat>,
) -> FileKind {
    match harness {
        // A JSON array of {"id", "answer"} is also MM-OPERA's answers shape: it is a KiVA
        // challenge result only when its name says KiVA (else MM-OPERA's reader has it).
        Some(HarnessFormat::KivaResults)
            if !lower.contains("kiva") && crate::mmopera::detect::detect(path, bytes).is_ok() => {}
        Some(_) => return FileKind::Harness,
        None => {}
    }
    match mmiq {
        Some(MmiqFormat::AnswerKey) => return FileKind::MmiqKey,
        Some(MmiqFormat::PredictionsJsonl) => return FileKind::MmiqPredictions,
        Some(MmiqFormat::VlmEvalKitAcc) => return FileKind::MmiqAcc,
        Some(MmiqFormat::VlmEvalKit(_)) if !lower.ends_with(".json") => return FileKind::MmiqTable,
        _ => {}
    }
    if lower.ends_with(".json")
        && (mmopera::is_named(path) || crate::mmopera::detect::detect(path, bytes).is_ok())
    {
        return FileKind::Mmopera;
    }
    if matches!(mmiq, Some(MmiqFormat::VlmEvalKit(_))) {
        return FileKind::MmiqTable;
    }
    FileKind::Unknown
}

/// Why a file is [`FileKind::Unknown`] to [`detect`] when it is text in another encoding
/// (UTF-16, UTF-32), or a Parquet or Arrow IPC file that cannot be opened (feature `parquet`;
/// give the whole file): the message scoring it gives, naming the file and the encoding or the located
/// problem, for the page to show when the file is dropped. `None` for any other file.
///
/// # Examples
/// ```
/// use coglab_core::leaderboard::unreadable;
/// assert_eq!(
///     unreadable("out.jsonl", b"\xFF\xFE{\0}\0").as_deref(),
///     Some("out.jsonl: the file is UTF-16 LE text (with a byte-order mark), not UTF-8: save it as UTF-8")
/// );
/// assert_eq!(unreadable("notes.txt", b"hello"), None);
/// ```
pub fn unreadable(path: &str, bytes: &[u8]) -> Option<String> {
    #[cfg(feature = "parquet")]
    if crate::columnar::detect(bytes).is_some() {
        // A whole file that cannot be opened: the located reason (a file cut short, a footer
        // over the limits).
        return crate::columnar::Columnar::open(path, bytes)
            .err()
            .map(|e| e.to_string());
    }
    super::not_text(bytes).map(|what| {
        crate::encoding::NotTextError {
            file: path.to_string(),
            what,
        }
        .to_string()
    })
}

/// The model name guessed from a path: for a KiVA run, the folder holding the `output_<Domain>`
/// folders; for an MM-OPERA file, the part before `_RIA` / `_ICA`; for a VLMEvalKit file
/// (`<model>_MMIQ.xlsx`, `<model>_MMIQ_acc.csv`, `<model>_MMIQ_<judge>_result.xlsx`), the part
/// before `_MMIQ`; otherwise the file stem without common suffixes (`_output`, `_parsed`,
/// `_results`, `_acc`, `_predictions`).
///
/// # Examples
/// ```
/// use coglab_core::leaderboard::guess_model;
/// assert_eq!(guess_model("KiVA/gpt4_multi_image/output_Colour/ColourRed.csv"), "gpt4_multi_image");
/// assert_eq!(guess_model("GPT4o_MMIQ.xlsx"), "GPT4o");
/// assert_eq!(guess_model("runs/gpt-4o_RIA_regular_scoring.json"), "gpt-4o");
/// assert_eq!(guess_model("example_output_parsed.jsonl"), "example");
/// ```
pub fn guess_model(path: &str) -> String {
    let parts: Vec<&str> = path.split(['/', '\\']).filter(|c| !c.is_empty()).collect();
    if let Some(i) = parts.iter().position(|c| c.starts_with("output_")) {
        if i > 0 {
            return parts[i - 1].to_string();
        }
        return "model".to_string();
    }
    let name = parts.last().copied().unwrap_or(path);
    // lmms-eval writes `<output_path>/<model>/<date>_samples_<task>.jsonl`: the folder is the
    // model; without one, what comes before `_samples_`.
    if let Some((before, _)) = name.split_once("_samples_") {
        if parts.len() > 1 {
            return parts[parts.len() - 2].to_string();
        }
        if !before.is_empty() {
            return before.to_string();
        }
    }
    let mut stem = name.rsplit_once('.').map_or(name, |(s, _)| s).to_string();
    // A benchmark tag after the model name: cut there (`_RIA`, `_ICA` for MM-OPERA, `_MMIQ`
    // for VLMEvalKit), when it is a whole `_`-separated part and something is left before it.
    let lower = stem.to_ascii_lowercase();
    for tag in ["_ria", "_ica", "_mmiq", "-mmiq"] {
        let cut = lower.match_indices(tag).map(|(i, _)| i).find(|&i| {
            i > 0
                && lower[i + tag.len()..]
                    .chars()
                    .next()
                    .is_none_or(|c| c == '_' || c == '-' || c == '.')
        });
        if let Some(i) = cut {
            stem.truncate(i);
            break;
        }
    }
    loop {
        let before = stem.len();
        for suffix in [
            "_acc",
            "_parsed",
            "_output",
            "_outputs",
            "_results",
            "_result",
            "_predictions",
            "_preds",
        ] {
            if let Some(s) = stem.strip_suffix(suffix) {
                if !s.is_empty() {
                    stem = s.to_string();
                }
            }
        }
        if stem.len() == before {
            break;
        }
    }
    stem
}

impl FileKind {
    /// The formats a user can choose for a staged file, in menu order (every kind the
    /// leaderboard scores).
    pub const CHOOSABLE: [FileKind; 9] = [
        FileKind::MmiqKey,
        FileKind::MmiqPredictions,
        FileKind::MmiqTable,
        FileKind::MmiqAcc,
        FileKind::KivaRun,
        FileKind::KivaHuman,
        FileKind::Mmopera,
        FileKind::ScoreMatrix,
        FileKind::Harness,
    ];

    /// A stable key (the serde name), e.g. for a `<select>` value or a stored record.
    pub fn key(self) -> &'static str {
        match self {
            FileKind::MmiqKey => "mmiq_key",
            FileKind::MmiqPredictions => "mmiq_predictions",
            FileKind::MmiqTable => "mmiq_table",
            FileKind::MmiqAcc => "mmiq_acc",
            FileKind::KivaRun => "kiva_run",
            FileKind::KivaHuman => "kiva_human",
            FileKind::Mmopera => "mmopera",
            FileKind::ScoreMatrix => "score_matrix",
            FileKind::Harness => "harness",
            FileKind::Unknown => "unknown",
        }
    }

    /// The kind of a [`FileKind::key`] (`None` for an unknown key).
    pub fn from_key(key: &str) -> Option<FileKind> {
        Self::CHOOSABLE
            .into_iter()
            .chain([FileKind::Unknown])
            .find(|k| k.key() == key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DATA: &str = "/work/shared/data";

    #[test]
    fn model_names_from_the_real_file_names() {
        // Every KiVA run folder in the shared data: the model is the folder above output_*.
        for variant in ["KiVA", "KiVA-adults"] {
            let dir = std::path::Path::new(DATA)
                .join("kiva/model_data")
                .join(variant);
            let Ok(models) = std::fs::read_dir(&dir) else {
                eprintln!("skipped: {DATA} absent");
                return;
            };
            for m in models.flatten() {
                let model = m.file_name().to_string_lossy().to_string();
                let file = format!("{variant}/{model}/output_Colour/ColourRed.csv");
                assert_eq!(guess_model(&file), model);
            }
        }
        for (file, model) in [
            ("mmiq/example_output_parsed.jsonl", "example"),
            ("gpt-4o_RIA_regular_scoring.json", "gpt-4o"),
            ("gpt-4o_ICA_reasoning_scoring.json", "gpt-4o"),
            ("Qwen2-VL-72B_ICA_results.json", "Qwen2-VL-72B"),
            ("GPT4o_MMIQ.xlsx", "GPT4o"),
            ("InternVL2-8B_MMIQ_acc.csv", "InternVL2-8B"),
            ("InternVL2-8B_MMIQ_gpt-4o-mini_result.xlsx", "InternVL2-8B"),
            ("llava_predictions.jsonl", "llava"),
            // lmms-eval: the model's folder, else the date before _samples_.
            (
                "logs/llava-ov-7b/20240601_samples_mmiq.jsonl",
                "llava-ov-7b",
            ),
            ("20240601_samples_mmiq.jsonl", "20240601"),
            // A tag inside a word is not cut.
            ("mod_icarus_parsed.jsonl", "mod_icarus"),
            ("ricardo_outputs.jsonl", "ricardo"),
        ] {
            assert_eq!(guess_model(file), model, "{file}");
        }
    }

    #[test]
    fn a_chosen_format_is_used() {
        let path =
            format!("{DATA}/kiva/model_data/KiVA/gpt4_multi_image/output_Colour/ColourRed.csv");
        let Ok(bytes) = std::fs::read(&path) else {
            eprintln!("skipped: {DATA} absent");
            return;
        };
        let as_csv = super::super::InputRef {
            path: "gpt4/output_Colour/ColourRed.csv",
            bytes: &bytes,
            model: None,
        };
        let as_txt = super::super::InputRef {
            path: "gpt4/output_Colour/ColourRed.txt",
            ..as_csv
        };
        // Renamed .txt, the run is not recognised; read as a KiVA run (chosen), it scores the
        // same as the .csv.
        assert_eq!(detect(as_txt.path, &bytes), FileKind::Unknown);
        let want = super::super::score_files(&[as_csv], |_, _, _| {});
        let got = super::super::score_files_as(&[as_txt], &[Some(FileKind::KivaRun)], |_, _, _| {});
        assert_eq!(
            got.files[0].status,
            super::super::FileState::Ok,
            "{:?}",
            got.files[0].message
        );
        assert_eq!(got.files[0].kind, FileKind::KivaRun);
        assert_eq!(got.kiva.len(), 1);
        assert_eq!(got.kiva[0].model, "gpt4");
        assert_eq!(got.kiva[0].report.overall, want.kiva[0].report.overall);
        assert_eq!(
            got.kiva[0].report.trials.len(),
            want.kiva[0].report.trials.len()
        );
        // Read as an MM-IQ key, it fails with a located error naming the file.
        let bad = super::super::score_files_as(&[as_csv], &[Some(FileKind::MmiqKey)], |_, _, _| {});
        let msg = bad.files[0].message.as_deref().unwrap_or_default();
        assert_eq!(bad.files[0].status, super::super::FileState::Error);
        assert!(
            msg.contains("ColourRed.csv") && msg.contains("detected as KiVA model run"),
            "{msg}"
        );
    }

    #[test]
    fn kind_keys_round_trip() {
        for k in FileKind::CHOOSABLE.into_iter().chain([FileKind::Unknown]) {
            assert_eq!(FileKind::from_key(k.key()), Some(k));
            let json = serde_json::to_string(&k).unwrap();
            assert_eq!(json, format!("\"{}\"", k.key()));
        }
        assert_eq!(FileKind::from_key("xlsx"), None);
    }
}
