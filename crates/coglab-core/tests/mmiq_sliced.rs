//! MM-IQ JSONL read in slices (`KeyReader`, `PredictionsReader`), as the browser's worker reads
//! a file while it arrives: every slicing gives the records a plain serde_json reading of the
//! same lines gives, on the real files of `../shared/data` and on lines made to be awkward
//! (escapes, surrogate pairs, CRLF, a byte-order mark, characters cut between slices).

use crate::common;

use coglab_core::mmiq::{KeyReader, PredContent, PredRecord, Predictions, PredictionsReader};
use serde_json::Value;

/// Feeds `bytes` to `push` in slices of `n` bytes.
fn sliced<E>(
    bytes: &[u8],
    n: usize,
    mut push: impl FnMut(&[u8]) -> Result<(), E>,
) -> Result<(), E> {
    bytes.chunks(n.max(1)).try_for_each(&mut push)
}

fn preds_in_slices(name: &str, bytes: &[u8], n: usize) -> Result<Predictions, String> {
    let mut r = PredictionsReader::new(name, bytes.len());
    sliced(bytes, n, |s| r.push(s)).map_err(|e| e.to_string())?;
    r.finish().map_err(|e| e.to_string())
}

/// The reference: each non-blank line read by serde_json into a `Value`, the fields taken as
/// MM-IQ defines them (`data_id` an integer or integer string, `parsed_pred` before
/// `response`), line numbers counted by hand.
fn reference_preds(text: &str) -> Vec<(usize, u64, Option<String>, PredContent)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    for (i, line) in text.split('\n').enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(line).unwrap();
        let id = match &v["data_id"] {
            Value::Number(n) => n
                .as_u64()
                .or_else(|| n.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as u64))
                .unwrap(),
            Value::String(s) => s.trim().parse().unwrap(),
            other => panic!("data_id {other}"),
        };
        let category = v["category"].as_str().map(str::to_string);
        let content = match (&v["parsed_pred"], &v["response"]) {
            (Value::String(p), _) => PredContent::Parsed(p.clone()),
            (_, Value::String(r)) => PredContent::Response(r.clone()),
            _ => panic!("no answer on line {}", i + 1),
        };
        out.push((i + 1, id, category, content));
    }
    out
}

fn summary(p: &Predictions) -> Vec<(usize, u64, Option<String>, PredContent)> {
    p.records
        .iter()
        .map(|r: &PredRecord| (r.line, r.data_id, r.category.clone(), r.content.clone()))
        .collect()
}

/// Lines a one-pass scanner could get wrong; serde_json reads them all.
const AWKWARD: &str = concat!(
    "\u{feff}{\"data_id\": 1, \"category\": \"Math\", \"response\": \"plain\"}\r\n",
    "\r\n",
    "  {\"data_id\": \"2\", \"response\": \"line\\nbreak \\\"quoted\\\" back\\\\slash \\/ \\t\\b\\f\\r\"}  \n",
    "{\"response\": \"\\u00e9\\u4e00 \\ud83d\\ude00 é 😀 end\", \"data_id\": 3}\n",
    "{\"data_id\":4,\"parsed_pred\":\"C\",\"response\":\"ignored \\u0041\"}\n",
    "{\"meta\": {\"response\": \"nested\", \"x\": [1, {\"y\": \"]\"}]}, \"data_id\": 5, \"response\": \"top\"}\n",
    "{\"d\\u0061ta_id\": 6, \"response\": \"escaped key\"}\n",
    "{\"data_id\": 7.0, \"response\": \"float id\", \"score\": -1.5e3, \"ok\": true, \"n\": null}\n",
    "{\"data_id\": 8, \"category\": null, \"response\": \"\"}\n",
    "\n",
    "{\"data_id\": 9, \"response\": \"no final newline ✓\"}",
);

#[test]
fn awkward_lines_read_as_serde_json_reads_them_in_any_slicing() {
    let want = reference_preds(AWKWARD);
    assert_eq!(want.len(), 9);
    for n in [1, 2, 3, 5, 7, 16, 61, 4096] {
        let p = preds_in_slices("awkward.jsonl", AWKWARD.as_bytes(), n).unwrap();
        assert_eq!(summary(&p), want, "slices of {n} bytes");
        assert_eq!(p.blank_lines, 2, "slices of {n} bytes");
        assert!(p.records[3].had_both);
    }
    // Lean reading keeps the letter and a preview, whatever the escapes.
    let mut r = PredictionsReader::new("big.jsonl", usize::MAX);
    r.push(b"{\"data_id\": 1, \"response\": \"I think\\nthe answer is \\u0042.\"}\n")
        .unwrap();
    let p = r.finish().unwrap();
    assert_eq!(p.records[0].content, PredContent::Parsed("B".into()));
    assert_eq!(
        p.records[0].response_preview.as_deref(),
        Some("I think\nthe answer is B.")
    );
}

#[test]
fn errors_name_the_same_line_in_any_slicing() {
    let cases: [(&[u8], &str); 7] = [
        // A bad line 1 and invalid UTF-8 on line 2: line 1's error, in any slicing (read
        // whole, the UTF-8 check of the whole text used to report line 2 first; found by the
        // mmiq_sliced fuzz target).
        (
            b"{\"data_id\": [1]}\n{\"data_id\": 2, \"response\": \"caf\xe9\"}\n",
            "p.jsonl line 1: field \"data_id\": expected a non-negative integer, found an array",
        ),
        (
            b"{\"data_id\": 1, \"response\": \"a\"}\n{\"data_id\": 1, \"response\": \"b\"}\n",
            "p.jsonl line 2: field \"data_id\": duplicate data_id 1 (first on line 1)",
        ),
        (
            b"\n{\"data_id\": 1, \"response\": \"bad \\x escape\"}\n",
            "p.jsonl line 2: invalid JSON: invalid escape (column 34)",
        ),
        (
            b"{\"data_id\": 1, \"response\": \"ctrl \x01\"}",
            "p.jsonl line 1: invalid JSON: control character (\\u0000-\\u001F) found while parsing a string (column 33)",
        ),
        (
            b"{\"data_id\": 1, \"response\": \"a\"}\n{\"data_id\": 2, \"response\": \"caf\xe9\"}\n",
            "p.jsonl line 2: not valid UTF-8 (byte 32 of the line cannot be decoded)",
        ),
        (
            b"{\"data_id\": 1, \"data_id\": 2, \"response\": \"a\"}\n",
            "p.jsonl line 1: invalid JSON: duplicate field `data_id` (column 24)",
        ),
        (
            b"{\"data_id\": -4, \"response\": \"a\"}\n",
            "p.jsonl line 1: field \"data_id\": expected a non-negative integer, found -4",
        ),
    ];
    for (bytes, msg) in cases {
        for n in [1, 3, 10, 4096] {
            assert_eq!(
                preds_in_slices("p.jsonl", bytes, n).unwrap_err(),
                msg,
                "slices of {n}"
            );
        }
    }
}

#[test]
fn the_real_key_and_predictions_read_alike_in_slices() {
    let (Some(key), Some(preds)) = (
        common::shared_bytes("mmiq/MMIQ_benchmark_answer_dict.jsonl"),
        common::shared_bytes("mmiq/example_output_parsed.jsonl"),
    ) else {
        return;
    };
    // The key: 2,710 items, checked against serde_json's reading of each line.
    let text = std::str::from_utf8(&key).unwrap();
    let want: Vec<(u64, String, char, Option<String>)> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (
                v["data_id"].as_u64().unwrap(),
                v["category"].as_str().unwrap().to_string(),
                v["answer"].as_str().unwrap().chars().next().unwrap(),
                v["MD5"].as_str().map(str::to_string),
            )
        })
        .collect();
    assert_eq!(want.len(), 2710);
    for n in [7, 1000, 65536, 1 << 22] {
        let mut r = KeyReader::new("key.jsonl");
        sliced(&key, n, |s| r.push(s)).unwrap();
        let k = r.finish().unwrap();
        assert_eq!(k.len(), want.len(), "slices of {n}");
        for (id, category, answer, md5) in &want {
            let item = k.get(*id).unwrap();
            assert_eq!(
                (&item.category, item.answer, &item.md5),
                (category, *answer, md5),
                "data_id {id}, slices of {n}"
            );
        }
    }
    let want = reference_preds(std::str::from_utf8(&preds).unwrap());
    assert_eq!(want.len(), 100);
    for n in [1, 13, 4096] {
        let p = preds_in_slices("example_output_parsed.jsonl", &preds, n).unwrap();
        assert_eq!(summary(&p), want, "slices of {n}");
    }
}

/// UTF-16 (LE/BE, with and without a byte-order mark) and UTF-32 given to the sliced readers,
/// as the browser's worker feeds a large MM-IQ file: each entry point (`KeyReader`,
/// `PredictionsReader`, `PredictionsReader::letters_only`) refuses it with the message the
/// whole-file readers give (`AnswerKey::parse_bytes`, `Predictions::parse`), naming the file
/// and the encoding, in any slicing (issue 27 defect 10 for the chunked path).
#[test]
fn utf16_and_utf32_are_named_by_the_sliced_readers() {
    let key_text = "{\"category\": \"Mathematical\", \"MD5\": \"x\", \"data_id\": 0, \"answer\": \"B\"}\n\
                    {\"category\": \"Mathematical\", \"MD5\": \"y\", \"data_id\": 1, \"answer\": \"C\"}\n";
    let preds_text = "{\"data_id\": 0, \"response\": \"The answer is B\"}\n\
                      {\"data_id\": 1, \"response\": \"The answer is C\"}\n";
    let le = |t: &str, bom: bool| -> Vec<u8> {
        let mut v: Vec<u8> = if bom { vec![0xFF, 0xFE] } else { Vec::new() };
        v.extend(t.encode_utf16().flat_map(u16::to_le_bytes));
        v
    };
    let be = |t: &str, bom: bool| -> Vec<u8> {
        let mut v: Vec<u8> = if bom { vec![0xFE, 0xFF] } else { Vec::new() };
        v.extend(t.encode_utf16().flat_map(u16::to_be_bytes));
        v
    };
    let utf32 = |t: &str| -> Vec<u8> {
        let mut v = vec![0xFF, 0xFE, 0, 0];
        v.extend(t.chars().flat_map(|c| u32::from(c).to_le_bytes()));
        v
    };
    let what = [
        "UTF-16 LE text (with a byte-order mark)",
        "UTF-16 LE text (without a byte-order mark)",
        "UTF-16 BE text (with a byte-order mark)",
        "UTF-16 BE text (without a byte-order mark)",
        "UTF-32 text",
    ];
    let encode = |t: &str| {
        [
            le(t, true),
            le(t, false),
            be(t, true),
            be(t, false),
            utf32(t),
        ]
    };
    for (bytes, what) in encode(key_text).iter().zip(what) {
        let msg = format!("key.jsonl: the file is {what}, not UTF-8: save it as UTF-8");
        // The whole-file reader's message, which the sliced one must repeat.
        assert_eq!(
            coglab_core::mmiq::AnswerKey::parse_bytes("key.jsonl", bytes)
                .unwrap_err()
                .to_string(),
            msg
        );
        for n in [1, 3, 64, 65_536] {
            let mut r = KeyReader::new("key.jsonl");
            let got = sliced(bytes, n, |s| r.push(s))
                .and_then(|()| r.finish().map(|_| ()))
                .unwrap_err()
                .to_string();
            assert_eq!(got, msg, "key, slices of {n}");
        }
    }
    for (bytes, what) in encode(preds_text).iter().zip(what) {
        let msg = format!("p.jsonl: the file is {what}, not UTF-8: save it as UTF-8");
        assert_eq!(
            Predictions::parse("p.jsonl", bytes)
                .unwrap_err()
                .to_string(),
            msg
        );
        for n in [1, 3, 64, 65_536] {
            assert_eq!(
                preds_in_slices("p.jsonl", bytes, n).unwrap_err(),
                msg,
                "slices of {n}"
            );
            let mut r = PredictionsReader::new("p.jsonl", bytes.len()).letters_only();
            let got = sliced(bytes, n, |s| r.push(s))
                .and_then(|()| r.finish().map(|_| ()))
                .unwrap_err()
                .to_string();
            assert_eq!(got, msg, "letters only, slices of {n}");
        }
    }
}
