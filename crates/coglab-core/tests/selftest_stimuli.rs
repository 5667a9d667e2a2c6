//! Self-test sessions built from KiVA's own images: the real `stimuli/KiVA` folder listing and
//! `trial_tracker/KiVA` files from ../shared/data (skipped without them). The expected wrong
//! stage-2 rule of each trial comes from an independent source: the `Test_wrong1` column of the
//! repository's model runs for the same subdomain and variation.

use crate::common;

use coglab_core::kiva::{domain_of, KIVA_SUBDOMAINS};
use coglab_core::selftest::stimuli::{session_from_folder, ROLES};
use coglab_core::selftest::{SessionKind, TestOption};
use common::shared_data;
use std::path::Path;

fn listing(root: &Path, rel: &Path, out: &mut Vec<String>) {
    let mut entries: Vec<_> = std::fs::read_dir(root.join(rel))
        .unwrap()
        .map(|e| e.unwrap())
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let r = rel.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            listing(root, &r, out);
        } else {
            out.push(r.to_string_lossy().replace('\\', "/"));
        }
    }
}

/// Trial files as (path, text).
type Texts = Vec<(String, String)>;

/// The picked folder as a browser lists it: `KiVA/<Domain>/<file>` plus the trial files.
fn real_folder() -> Option<(Vec<String>, Texts)> {
    let stimuli = shared_data("kiva/stimuli")?;
    let tracker = shared_data("kiva/trial_tracker/KiVA")?;
    let mut paths = Vec::new();
    listing(&stimuli, Path::new(""), &mut paths);
    let mut texts = Vec::new();
    for e in std::fs::read_dir(&tracker).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        texts.push((
            format!("trial_tracker/KiVA/{name}"),
            std::fs::read_to_string(&p).unwrap(),
        ));
    }
    Some((paths, texts))
}

/// `Test_wrong1` of variation `v` in the first model run of the subdomain.
fn repository_wrong(sub: &str, v: u64) -> Option<String> {
    let d = domain_of(sub).unwrap();
    let path = shared_data(&format!(
        "kiva/model_data/KiVA/gpt4_multi_image/output_{d}/{sub}.csv"
    ))?;
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = header.iter().position(|h| *h == "Test_wrong1").unwrap();
    // The first columns (Variation .. Test_wrong2) hold no commas or quotes.
    lines
        .map(|l| l.split(',').collect::<Vec<_>>())
        .find(|f| f.len() > col && f[0] == v.to_string())
        .map(|f| f[col].to_string())
}

#[test]
fn sessions_from_the_real_stimuli_folder() {
    let Some((paths, texts)) = real_folder() else {
        return;
    };
    assert_eq!(paths.len(), 700, "14 subdomains x 10 variations x 5 images");
    for seed in [1, 42, 2026] {
        let s = session_from_folder(&paths, &texts, seed).unwrap();
        assert_eq!(s.kind, SessionKind::Stimuli);
        let mut subs: Vec<&str> = s.trials.iter().map(|t| t.subdomain.as_str()).collect();
        subs.sort_unstable();
        let mut all = KIVA_SUBDOMAINS.to_vec();
        all.sort_unstable();
        assert_eq!(subs, all, "one trial per KiVA subdomain");
        for t in &s.trials {
            let imgs = t.images.as_ref().unwrap();
            let d = domain_of(&t.subdomain).unwrap();
            let stem = format!("KiVA/{d}/{}_{}_", t.subdomain, t.variation);
            assert!(t.variation <= 9);
            assert_eq!(imgs.train_input, format!("{stem}{}.png", ROLES[0]));
            assert_eq!(imgs.train_output, format!("{stem}{}.png", ROLES[1]));
            assert_eq!(imgs.test_input, format!("{stem}{}.png", ROLES[2]));
            for (k, p) in t.test_kinds.iter().zip(&imgs.test_options) {
                let role = match k {
                    TestOption::Correct => "test_mc_0_input",
                    TestOption::Wrong => "test_mc_1_input",
                    TestOption::NoChange => "test_0_input",
                };
                assert_eq!(*p, format!("{stem}{role}.png"));
            }
            // Stage 2's wrong rule is the repository's Test_wrong1 of this variation.
            if let Some(mut w) = repository_wrong(&t.subdomain, t.variation) {
                // The runs write a positive count or angle without its sign ("1" for +1).
                if (d == "Counting" || (d == "2DRotation" && w != "180"))
                    && !w.starts_with(['+', '-'])
                {
                    w.insert(0, '+');
                }
                assert_eq!(t.test_wrong_subdomain, format!("{d}{w}"), "{}", t.subdomain);
            }
            assert_eq!(t.within_options.len(), 4);
            assert_eq!(
                t.cross_options[t.cross_correct],
                coglab_core::selftest::domain_text(d)
            );
        }
        assert_eq!(s, session_from_folder(&paths, &texts, seed).unwrap());
    }
    // ColourRed variation 0 (tracker: mc Green): the repository asked "(1) Objects turn
    // Green" / "(2) Objects turn Red" (model run, Full#2).
    let s = session_from_folder(&paths, &texts, 42).unwrap();
    let t = s
        .trials
        .iter()
        .find(|t| t.subdomain == "ColourRed")
        .unwrap();
    let mut two = t.within_options[..2].to_vec();
    two.sort();
    let want_wrong = if t.variation == 0 {
        "Objects turn Green".to_string()
    } else {
        format!(
            "Objects turn {}",
            repository_wrong("ColourRed", t.variation).unwrap()
        )
    };
    assert!(
        two.contains(&"Objects turn Red".to_string()) && two.contains(&want_wrong),
        "{two:?}"
    );
}

#[test]
fn located_errors_on_the_real_folder() {
    let Some((paths, texts)) = real_folder() else {
        return;
    };
    // Every variation of ReflectX without its wrong option.
    let cut: Vec<&String> = paths
        .iter()
        .filter(|p| !(p.contains("ReflectX_") && p.ends_with("test_mc_1_input.png")))
        .collect();
    let e = session_from_folder(&cut, &texts, 1).unwrap_err();
    assert_eq!(
        e.to_string(),
        "no complete variation (all five images train_0_input, train_0_output, test_0_input, \
         test_mc_0_input, test_mc_1_input) of ReflectX; e.g. ReflectX variation 0 lacks test_mc_1_input"
    );
    // The folder above: KiVA/<Domain> lies one level deeper; still read.
    let deeper: Vec<String> = paths.iter().map(|p| format!("stimuli/{p}")).collect();
    assert!(session_from_folder(&deeper, &texts, 1).is_ok());
    // Only the model runs folder picked: no image at all.
    let e = session_from_folder(
        &["model_data/KiVA/gpt4_multi_image/output_Colour/ColourRed.csv"],
        &[],
        1,
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("none of the 1 picked files is a KiVA stimulus image"),
        "{e}"
    );
    // Images without the trial files.
    let e = session_from_folder(&paths, &[], 1).unwrap_err();
    assert!(e.to_string().contains("pick its trial file output_"), "{e}");
}
