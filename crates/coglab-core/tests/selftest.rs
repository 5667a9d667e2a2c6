//! The KiVA self-test generator, procedure, export round trip and bundled baselines.

use coglab_core::kiva::{score_human, score_model, HumanData, Stage, Variant};
use coglab_core::selftest::baselines::{model_label, Baselines, GroupBaseline, VariantBaselines};
use coglab_core::selftest::{
    generate, score_session, to_human_csv, Response, Rule, SessionKind, TestOption, Trial,
    TrialResponses, DOESNT_APPLY, NO_CHANGE,
};
use std::path::{Path, PathBuf};

fn check_trial(t: &Trial, variant: Variant) {
    let rule = Rule::of(&t.subdomain).expect("known subdomain");
    // The given transformation is the rule applied; the correct option too.
    assert_eq!(
        rule.apply(&t.train_input).as_ref(),
        Some(&t.train_output),
        "{}",
        t.subdomain
    );
    let correct = &t.test_options[t.test_correct()];
    assert_eq!(
        rule.apply(&t.test_input).as_ref(),
        Some(correct),
        "{}",
        t.subdomain
    );
    assert_ne!(
        t.train_input, t.train_output,
        "{}: the given pair changes",
        t.subdomain
    );
    assert_ne!(
        t.train_input.object, t.test_input.object,
        "a different object at test"
    );
    // Three options: correct, wrong (same domain, different picture) and no change.
    let mut kinds = t.test_kinds.clone();
    kinds.sort_by_key(|k| *k as u8);
    assert_eq!(
        kinds,
        [TestOption::Correct, TestOption::Wrong, TestOption::NoChange]
    );
    let wrong = &t.test_options[t
        .test_kinds
        .iter()
        .position(|k| *k == TestOption::Wrong)
        .unwrap()];
    let nochange = &t.test_options[t
        .test_kinds
        .iter()
        .position(|k| *k == TestOption::NoChange)
        .unwrap()];
    assert_ne!(
        wrong, correct,
        "{}: wrong option equals the correct one",
        t.subdomain
    );
    assert_ne!(wrong, nochange, "{}", t.subdomain);
    assert_ne!(correct, nochange, "{}", t.subdomain);
    assert_eq!(nochange, &t.test_input);
    assert_eq!(
        coglab_core::kiva::domain_of(&t.test_wrong_subdomain),
        Some(t.domain.as_str())
    );
    assert_ne!(t.test_wrong_subdomain, t.subdomain);
    for p in [
        &t.train_input,
        &t.train_output,
        &t.test_input,
        correct,
        wrong,
    ] {
        assert!(
            (1..=7).contains(&p.count),
            "{}: count {}",
            t.subdomain,
            p.count
        );
    }
    // Stage 1: 5 distinct options, 3 domains then the two fixed ones.
    assert_eq!(t.cross_options.len(), 5);
    assert_eq!(&t.cross_options[3..], [NO_CHANGE, DOESNT_APPLY]);
    assert_eq!(
        t.cross_options[t.cross_correct],
        coglab_core::selftest::domain_text(&t.domain)
    );
    assert!(t.cross_correct < 3);
    let mut c = t.cross_options.clone();
    c.dedup();
    c.sort();
    c.dedup();
    assert_eq!(c.len(), 5);
    // Stage 2: right and wrong rule with different wording, then the two fixed ones.
    assert_eq!(t.within_options.len(), 4);
    assert_eq!(t.within_options[t.within_correct], rule.text(variant));
    assert_ne!(t.within_options[0], t.within_options[1]);
    assert_eq!(&t.within_options[2..], [NO_CHANGE, DOESNT_APPLY]);
    if variant == Variant::KivaAdults && t.domain != "Reflect" {
        // KiVA-adults: the test input value differs from the given one.
        let (a, b) = (&t.train_input, &t.test_input);
        let differs = a.colour != b.colour
            || a.scale_x != b.scale_x
            || a.rotation != b.rotation
            || a.count != b.count;
        assert!(differs, "{}: same input value", t.subdomain);
    }
}

#[test]
fn every_subdomain_gives_a_valid_trial() {
    for seed in 0..40u64 {
        let s = generate(&SessionKind::Kiva, seed);
        assert_eq!(s.trials.len(), 14);
        let mut subs: Vec<&str> = s.trials.iter().map(|t| t.subdomain.as_str()).collect();
        subs.sort_unstable();
        assert_eq!(subs, coglab_core::kiva::KIVA_SUBDOMAINS);
        for t in &s.trials {
            check_trial(t, Variant::Kiva);
        }
        let a = generate(&SessionKind::KivaAdults, seed);
        assert_eq!(a.trials.len(), 19);
        for t in &a.trials {
            check_trial(t, Variant::KivaAdults);
            assert!(coglab_core::kiva::KIVA_ADULTS_SUBDOMAINS.contains(&t.subdomain.as_str()));
        }
    }
    // Every one of the 29 KiVA-adults subdomains is reached over the seeds.
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..40u64 {
        for t in generate(&SessionKind::KivaAdults, seed).trials {
            seen.insert(t.subdomain);
        }
    }
    assert_eq!(seen.len(), 29);
}

#[test]
fn counting_trials_avoid_ambiguous_givens() {
    // KiVA-adults: 2 → 4 could be +2 or ×2; the given counts must fit one rule only.
    for seed in 0..60u64 {
        for t in generate(&SessionKind::KivaAdults, seed).trials {
            if t.domain != "Counting" {
                continue;
            }
            let fits = coglab_core::kiva::KIVA_ADULTS_SUBDOMAINS
                .iter()
                .filter(|s| s.starts_with("Counting"))
                .filter(|s| {
                    Rule::of(s).unwrap().apply(&t.train_input).map(|p| p.count)
                        == Some(t.train_output.count)
                })
                .count();
            assert_eq!(
                fits, 1,
                "{} {} -> {}",
                t.subdomain, t.train_input.count, t.train_output.count
            );
        }
    }
}

#[test]
fn sessions_short_and_domain() {
    let s = generate(&SessionKind::Short, 5);
    assert_eq!(s.trials.len(), 10);
    for d in coglab_core::kiva::DOMAINS {
        assert_eq!(s.trials.iter().filter(|t| t.domain == d).count(), 2, "{d}");
    }
    let c = generate(&SessionKind::parse("domain:Colour").unwrap(), 5);
    assert_eq!(c.trials.len(), 6);
    assert!(c.trials.iter().all(|t| t.domain == "Colour"));
    assert!(SessionKind::parse("domain:Shape").is_err());
}

#[test]
fn same_seed_same_session_other_seed_other_session() {
    for kind in [
        SessionKind::Kiva,
        SessionKind::KivaAdults,
        SessionKind::Short,
    ] {
        assert_eq!(generate(&kind, 123), generate(&kind, 123));
        assert_ne!(generate(&kind, 123), generate(&kind, 124));
    }
    // Round trip through JSON (as saved in the browser).
    let s = generate(&SessionKind::KivaAdults, 9);
    let back: coglab_core::selftest::Session =
        serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
    assert_eq!(back, s);
}

#[test]
fn procedure_skips_stage_two_after_a_wrong_stage_one() {
    let s = generate(&SessionKind::Kiva, 1);
    let mut r: Vec<TrialResponses> = Vec::new();
    assert_eq!(s.next_step(&r), Some((0, Stage::Cross)));
    let wrong = (s.trials[0].cross_correct + 1) % 5;
    s.answer(
        &mut r,
        0,
        Stage::Cross,
        Response {
            choice: wrong,
            rt_ms: 900.0,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(s.next_step(&r), Some((0, Stage::Extrapolation)));
    assert!(s
        .answer(
            &mut r,
            0,
            Stage::Within,
            Response {
                choice: 0,
                rt_ms: 1.0,
                ..Default::default()
            }
        )
        .is_err());
    s.answer(
        &mut r,
        0,
        Stage::Extrapolation,
        Response {
            choice: 3,
            rt_ms: 1200.0,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(s.next_step(&r), Some((1, Stage::Cross)));
    let right = s.trials[1].cross_correct;
    s.answer(
        &mut r,
        1,
        Stage::Cross,
        Response {
            choice: right,
            rt_ms: 800.0,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(s.next_step(&r), Some((1, Stage::Within)));
}

/// Answers every stage: right in trials where `right(i)`, wrong otherwise.
fn answer_all(
    s: &coglab_core::selftest::Session,
    right: impl Fn(usize) -> bool,
) -> Vec<TrialResponses> {
    let mut r = Vec::new();
    let mut k = 0.0;
    while let Some((i, stage)) = s.next_step(&r) {
        let t = &s.trials[i];
        let n = t.options(stage).len();
        let choice = if right(i) {
            t.correct(stage)
        } else {
            (t.correct(stage) + 1) % n
        };
        k += 1.0;
        s.answer(
            &mut r,
            i,
            stage,
            Response {
                choice,
                rt_ms: 1000.0 + 100.0 * k + 0.4,
                ..Default::default()
            },
        )
        .unwrap();
    }
    r
}

#[test]
fn export_round_trips_through_the_human_data_reader() {
    let s = generate(&SessionKind::Kiva, 77);
    // Right on the first 10 trials, wrong on the last 4 (whose stage 2 is then skipped).
    let r = answer_all(&s, |i| i < 10);
    let csv = to_human_csv(&s, "me", &r);
    // 10 trials x 3 rows + 4 trials x 2 rows.
    assert_eq!(csv.lines().count(), 1 + 30 + 8);
    let data = HumanData::parse("self.csv", csv.as_bytes()).unwrap();
    assert_eq!(data.rows.len(), 38);
    for row in &data.rows {
        assert_eq!(row.participant, "me");
        let i = (row.variation - 1) as usize;
        assert_eq!(s.trials[i].subdomain, row.subdomain);
        assert_eq!(row.score, if i < 10 { 1.0 } else { 0.0 });
    }
    // The first answer took 1100.4 ms -> written rounded to 1100.
    assert_eq!(data.rows[0].rt_ms, 1100.0);
    let (report, _) = score_session(&s, "me", &r).unwrap();
    // Hand count: cross 10 of 14 right; extrapolation 10 of 14; within asked on the 10 right
    // trials, all right (conditional 1.0, n 10); joint counts the 4 skipped as 0: 10/14.
    let o = report.overall;
    assert!((o.cross.unwrap().mean - 10.0 / 14.0).abs() < 1e-12);
    assert_eq!(o.within_conditional.unwrap().n, 10);
    assert_eq!(o.within_conditional.unwrap().mean, 1.0);
    assert!((o.within_joint.unwrap().mean - 10.0 / 14.0).abs() < 1e-12);
    assert!((o.extrapolation.unwrap().mean - 10.0 / 14.0).abs() < 1e-12);
    // SE of 10 ones and 4 zeros: p = 5/7, population SD sqrt(p(1-p)) = sqrt(10/49), / sqrt(14).
    let se = (10.0f64 / 49.0).sqrt() / 14f64.sqrt();
    assert!((o.cross.unwrap().se - se).abs() < 1e-12);
    assert_eq!(report.variant, Variant::Kiva);
}

fn same(a: &serde_json::Value, b: &serde_json::Value, at: &str) {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            assert!(
                (x - y).abs() <= 1e-12 * x.abs().max(1.0),
                "{at}: {x} vs {y}"
            );
        }
        (Value::Array(x), Value::Array(y)) => {
            assert_eq!(x.len(), y.len(), "{at}");
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                same(p, q, &format!("{at}[{i}]"));
            }
        }
        (Value::Object(x), Value::Object(y)) => {
            assert_eq!(
                x.keys().collect::<Vec<_>>(),
                y.keys().collect::<Vec<_>>(),
                "{at}"
            );
            for (k, p) in x {
                same(p, &y[k], &format!("{at}.{k}"));
            }
        }
        _ => assert_eq!(a, b, "{at}"),
    }
}

fn kiva_dir() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/kiva");
    if p.join("human_adults_KiVA.csv").exists() {
        Some(p)
    } else {
        eprintln!("skipped: {} is absent", p.display());
        None
    }
}

fn csv_files(kiva: &Path, rel: &str) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![kiva.join(rel)];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "csv") {
                let rel = path
                    .strip_prefix(kiva)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                out.push((rel, std::fs::read(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// The baselines computed from the real files.
fn build_baselines(kiva: &Path) -> Baselines {
    let human_bytes = std::fs::read(kiva.join("human_adults_KiVA.csv")).unwrap();
    let human = HumanData::parse("human_adults_KiVA.csv", &human_bytes).unwrap();
    let adults = GroupBaseline::of("Adults", &score_human(&human).unwrap(), Some(&human));
    let mut variants = Vec::new();
    for variant in [Variant::Kiva, Variant::KivaAdults] {
        let mut runs: Vec<String> = std::fs::read_dir(kiva.join("model_data").join(variant.name()))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        runs.sort();
        let models = runs
            .iter()
            .map(|run| {
                let files = csv_files(kiva, &format!("model_data/{}/{run}", variant.name()));
                let report =
                    score_model(files.iter().map(|(p, b)| (p.as_str(), b.as_slice()))).unwrap();
                GroupBaseline::of(&model_label(run), &report, None)
            })
            .collect();
        variants.push((
            variant,
            VariantBaselines {
                adults: (variant == Variant::Kiva).then(|| adults.clone()),
                models,
            },
        ));
    }
    Baselines::build(
        "Computed by coglab-core (kiva::score_human, kiva::score_model, selftest::baselines) from \
         the KiVA repository (ey242/KiVA, Apache-2.0): human_adults_KiVA.csv and \
         model_data/<variant>/<run>/output_<Domain>/<Subdomain>.csv. Mean and SE = population \
         SD / sqrt(n trials) per domain and stage; reaction times in ms over all stages. \
         Regenerate with scripts/kiva-baselines.sh.",
        variants,
    )
}

#[test]
fn bundled_baselines_equal_the_core_on_the_real_files() {
    let Some(kiva) = kiva_dir() else { return };
    let ours = build_baselines(&kiva);
    // One file per variant, each holding that variant only.
    let mut bundled = Vec::new();
    for variant in [Variant::Kiva, Variant::KivaAdults] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../public/data")
            .join(Baselines::file_name(variant));
        let part = ours.only(variant);
        if std::env::var_os("COGLAB_WRITE_BASELINES").is_some() {
            std::fs::write(&path, serde_json::to_string_pretty(&part).unwrap() + "\n").unwrap();
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let file: Baselines = serde_json::from_str(&text).unwrap();
        assert_eq!(
            file.variants.keys().collect::<Vec<_>>(),
            vec![variant.name()],
            "{}",
            path.display()
        );
        // Equal figure by figure (JSON text keeps ~17 significant digits; 1e-12 relative).
        same(
            &serde_json::from_str(&text).unwrap(),
            &serde_json::to_value(&part).unwrap(),
            "baselines",
        );
        bundled.push(file);
    }
    // Spot figures from the independent pandas reference of tests/kiva_real.rs: GPT-4V
    // multi-image on KiVA, overall cross .8857 over 700 trials; the adults only on KiVA.
    let gpt = &bundled[0].variant(Variant::Kiva).unwrap().models[0];
    assert_eq!(gpt.label, "GPT-4V (multi-image)");
    assert_eq!(gpt.trials, 700);
    assert!((gpt.overall.cross.unwrap().mean - 0.8857).abs() < 5e-5);
    assert_eq!(
        bundled[0]
            .variant(Variant::Kiva)
            .unwrap()
            .adults
            .as_ref()
            .unwrap()
            .trials,
        3576
    );
    assert!(bundled[1]
        .variant(Variant::KivaAdults)
        .unwrap()
        .adults
        .is_none());
}

/// The refresh rate from animation-frame timestamps: 1000 over the median gap. A 60 Hz display
/// (16.67 ms frames) with one dropped frame (33.3 ms) and one late frame still reads 60 Hz;
/// a 120 Hz one 120 Hz; too few frames, none.
#[test]
fn refresh_rate_is_the_median_frame_interval() {
    use coglab_core::selftest::Environment;
    let mut t = vec![0.0];
    for gap in [16.7, 16.6, 33.4, 16.7, 20.0, 16.6, 16.7] {
        t.push(t.last().unwrap() + gap);
    }
    // Gaps sorted: 16.6 16.6 16.7 16.7 16.7 20.0 33.4 -> median 16.7.
    let hz = Environment::refresh_rate(&t).unwrap();
    assert!((hz - 1000.0 / 16.7).abs() < 1e-9, "{hz}");
    let fast: Vec<f64> = (0..61).map(|i| f64::from(i) * 8.333).collect();
    assert!((Environment::refresh_rate(&fast).unwrap() - 120.0).abs() < 0.01);
    assert_eq!(Environment::refresh_rate(&[5.0]), None);
    assert_eq!(Environment::refresh_rate(&[5.0, 5.0]), None);
}

/// A pointer event's type names the input; a click with no pointer (Enter or Space on a
/// focused option) is a key; the record reads back, and an answer saved before these fields
/// existed reads with "unknown" and no interruptions.
#[test]
fn answers_record_their_input_and_old_answers_still_read() {
    use coglab_core::selftest::{Input, Response};
    assert_eq!(Input::of_pointer("mouse"), Input::Mouse);
    assert_eq!(Input::of_pointer("touch"), Input::Touch);
    assert_eq!(Input::of_pointer("pen"), Input::Pen);
    assert_eq!(Input::of_pointer(""), Input::Key);
    assert_eq!(Input::of_pointer("gamepad"), Input::Unknown);
    let r = Response {
        choice: 2,
        rt_ms: 812.5,
        input: Input::Touch,
        interruptions: 1,
        away_ms: 240.0,
    };
    let json = serde_json::to_string(&r).unwrap();
    assert_eq!(
        json,
        r#"{"choice":2,"rt_ms":812.5,"input":"touch","interruptions":1,"away_ms":240.0}"#
    );
    let old: Response = serde_json::from_str(r#"{"choice":1,"rt_ms":900.0}"#).unwrap();
    assert_eq!(
        (old.input, old.interruptions, old.away_ms),
        (Input::Unknown, 0, 0.0)
    );
}

/// Issue 41, item 4, each branch of the resume policy: nothing answered starts fresh; an
/// unfinished session within a day continues; one older than a day, or of unknown age, offers
/// the choice (with its age); a finished one shows its results, however old.
#[test]
fn resume_policy_branches() {
    use coglab_core::selftest::{Resume, MAX_RESUME_AGE_MS};
    let day = 86_400_000.0;
    assert_eq!(MAX_RESUME_AGE_MS, day);
    let now = 1_800_000_000_000.0;
    assert_eq!(
        Resume::of(false, 0, 14, Some(now - 3.0 * day), now, day),
        Resume::Fresh
    );
    assert_eq!(
        Resume::of(true, 0, 14, Some(now - 1000.0), now, day),
        Resume::Continue
    );
    assert_eq!(
        Resume::of(true, 5, 14, Some(now - day), now, day),
        Resume::Continue
    );
    assert_eq!(
        Resume::of(true, 5, 14, Some(now - day - 1.0), now, day),
        Resume::Offer {
            age_ms: Some(day + 1.0)
        }
    );
    assert_eq!(
        Resume::of(true, 5, 14, None, now, day),
        Resume::Offer { age_ms: None }
    );
    assert_eq!(
        Resume::of(true, 14, 14, Some(now - 30.0 * day), now, day),
        Resume::Finished
    );
    assert_eq!(
        Resume::of(true, 14, 14, Some(now), now, day),
        Resume::Finished
    );
}
