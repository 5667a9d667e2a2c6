//! `csv_out::CsvWriter` against the `csv` crate's default writer (the reference): the same text
//! for awkward fields and for random records, and the text reads back with the `csv` reader.

use coglab_core::csv_out::CsvWriter;

fn reference(records: &[Vec<String>]) -> String {
    let mut w = csv::WriterBuilder::new()
        .flexible(true)
        .from_writer(Vec::new());
    for r in records {
        w.write_record(r).unwrap();
    }
    String::from_utf8(w.into_inner().unwrap()).unwrap()
}

fn ours(records: &[Vec<String>]) -> String {
    let mut w = CsvWriter::new();
    for r in records {
        w.record(r);
    }
    w.finish()
}

#[test]
fn awkward_fields_as_the_csv_crate() {
    let rec = |f: &[&str]| f.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let records = vec![
        rec(&["model", "score"]),
        rec(&["GPT-4o, May", "0.5"]),
        rec(&["say \"hi\"", "line\nbreak", "cr\rhere", "crlf\r\n"]),
        rec(&[""]),
        rec(&[]),
        rec(&["", ""]),
        rec(&[
            "#hash",
            " spaced ",
            "tab\there",
            "ünïcödé 数学",
            "'single'",
            "semi;colon",
        ]),
        rec(&["\"", "\"\"", ",", "\n"]),
        rec(&["NA", "1e-3", "-0", "inf"]),
    ];
    assert_eq!(ours(&records), reference(&records));
    // By hand, for the lines that matter.
    let text = ours(&records);
    assert!(
        text.starts_with("model,score\n\"GPT-4o, May\",0.5\n\"say \"\"hi\"\"\",\"line\nbreak\",")
    );
    assert!(text.contains("\n\"\"\n\"\"\n,\n"));
}

#[test]
fn random_records_as_the_csv_crate_and_read_back() {
    let alphabet = [
        'a', 'Z', '0', ',', '"', '\n', '\r', ' ', '\t', 'é', ';', '#', '\'',
    ];
    let mut state = 99u64;
    let mut next = move |n: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % n
    };
    for _ in 0..2_000 {
        let records: Vec<Vec<String>> = (0..1 + next(5))
            .map(|_| {
                (0..next(5))
                    .map(|_| {
                        (0..next(6))
                            .map(|_| alphabet[next(alphabet.len() as u64) as usize])
                            .collect()
                    })
                    .collect()
            })
            .collect();
        let text = ours(&records);
        assert_eq!(text, reference(&records), "{records:?}");
        // Every record with a field reads back as written.
        let back: Vec<Vec<String>> = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(text.as_bytes())
            .records()
            .map(|r| r.unwrap().iter().map(String::from).collect())
            .collect();
        let written: Vec<Vec<String>> = records
            .iter()
            .map(|r| {
                if r.is_empty() {
                    vec![String::new()]
                } else {
                    r.clone()
                }
            })
            .collect();
        assert_eq!(back, written, "{text:?}");
    }
}
