//! The published bundle's size at scale (issue 21 acceptance): 300 models x 2,710 MM-IQ items
//! (generated: the real key's category counts, answers and predictions from a fixed-seed
//! generator). The gzipped index must stay ≤ 100 KB (the leaderboard fetches it on load), and
//! opening one model's items (its chunk plus the shared MM-IQ key chunk) must fetch ≤ 50 KB.

use std::collections::BTreeMap;
use std::io::Write;

use coglab_core::publish::build;
use coglab_core::publish::bundle::InputFile;
use coglab_core::publish::Manifest;

/// xorshift64*: a fixed sequence, so the sizes are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

fn gz(bytes: &[u8]) -> usize {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap().len()
}

#[test]
fn index_and_chunks_of_300_models_by_2710_items_stay_small() {
    // The real key's categories and counts (public/data/mmiq.json notes).
    let cats = [
        ("Logical Operation", 393),
        ("Mathematical", 936),
        ("2D-Geometry", 365),
        ("3D-Geometry", 398),
        ("Visual Instruction", 47),
        ("Temporal Movement", 415),
        ("Spatial Relationship", 118),
        ("Concrete Object", 38),
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let letters = ['A', 'B', 'C', 'D'];
    let mut key = String::new();
    let mut answers = Vec::new();
    let mut id = 0;
    for (cat, n) in cats {
        for _ in 0..n {
            let a = letters[(rng.next() % 4) as usize];
            key.push_str(&format!(
                "{{\"category\": \"{cat}\", \"MD5\": \"{:032x}\", \"data_id\": {id}, \"answer\": \"{a}\"}}\n",
                rng.next() as u128 * 7
            ));
            answers.push((id, cat, a));
            id += 1;
        }
    }
    assert_eq!(answers.len(), 2710);
    let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    files.insert(
        "keys/MMIQ_benchmark_answer_dict.jsonl".into(),
        key.into_bytes(),
    );
    let mut manifest = String::from("[keys]\nmmiq = \"keys/MMIQ_benchmark_answer_dict.jsonl\"\n");
    for m in 0..300 {
        // Models from 25% to 60% right; 1 in 50 predictions without an answer.
        let p_right = 25 + (m % 36) as u64;
        let mut preds = String::new();
        for (id, cat, a) in &answers {
            let r = rng.next() % 100;
            let parsed = if r.is_multiple_of(50) {
                String::new()
            } else if r < p_right {
                a.to_string()
            } else {
                letters[(rng.next() % 4) as usize].to_string()
            };
            preds.push_str(&format!(
                "{{\"data_id\": {id}, \"category\": \"{cat}\", \"parsed_pred\": \"{parsed}\"}}\n"
            ));
        }
        let path = format!("runs/model-{m:03}/MMIQ_predictions_parsed.jsonl");
        files.insert(path.clone(), preds.into_bytes());
        manifest.push_str(&format!(
            "\n[[model]]\nname = \"Vision-Language-Model-{m:03}-Instruct\"\nfamily = \"Family{}\"\n\
             parameters = \"{}B\"\nrelease_date = \"2025-{:02}-01\"\n\
             source = \"https://huggingface.co/org/model-{m:03}\"\n[[model.run]]\n\
             benchmark = \"mmiq\"\nfiles = [\"{path}\"]\nextractor = \"regex v2\"\n",
            m % 12,
            7 + m % 70,
            1 + m % 12
        ));
    }
    let parsed = Manifest::parse("leaderboard.toml", &manifest).unwrap();
    let bundle = build(
        &parsed,
        &manifest,
        |p| {
            files
                .get(&p.path)
                .map(|b| {
                    vec![InputFile {
                        path: p.path.clone(),
                        bytes: b.clone(),
                    }]
                })
                .ok_or_else(|| "absent".to_string())
        },
        &[],
    )
    .unwrap();
    assert_eq!(bundle.index.models.len(), 300);
    let file = |name: &str| &bundle.files.iter().find(|(p, _)| p == name).unwrap().1;
    let index = gz(file("index.json"));
    let key_chunk = gz(file("items/mmiq-key.json"));
    let chunk = bundle
        .files
        .iter()
        .filter(|(p, _)| {
            p.starts_with("items/") && p != "items/mmiq-key.json" && !p.starts_with("items/ranks-")
        })
        .map(|(_, b)| gz(b))
        .max()
        .unwrap();
    eprintln!(
        "300 x 2710: index {} B ({index} B gzipped); largest model chunk {chunk} B gzipped; \
         key chunk {key_chunk} B gzipped",
        file("index.json").len()
    );
    assert!(index <= 100_000, "index {index} B gzipped");
    // The rank groups of the 300 rows: before the rank file, every model chunk and the key
    // chunk (301 requests); now the one rank file.
    let all_chunks: usize = bundle
        .files
        .iter()
        .filter(|(p, _)| p.starts_with("items/") && !p.starts_with("items/ranks-"))
        .map(|(_, b)| gz(b))
        .sum();
    let ranks = file("items/ranks-mmiq.json");
    eprintln!(
        "300 x 2710 rank groups: 301 chunks {all_chunks} B gzipped before; rank file {} B \
         ({} B gzipped) now",
        ranks.len(),
        gz(ranks)
    );
    // 300 x 2,710 verdicts of 1, 0 or - are about 102 KB as bits; gzip's Huffman coding
    // comes near that (entropy of the simulated verdicts: p(right) from 25% to 60%).
    assert!(gz(ranks) <= 150_000, "rank file {} B gzipped", gz(ranks));
    assert!(gz(ranks) < all_chunks / 2);
    assert!(
        chunk + key_chunk <= 50_000,
        "model {chunk} B + key {key_chunk} B gzipped"
    );
}
