//! `coglab publish` and `coglab verify` run as a binary (issue 21): the tiny self-contained
//! leaderboard of `coglab-core/tests/fixtures/publish/tiny` (figures worked by hand below), a
//! tampered input or bundle file, refused manifests (missing file, wrong benchmark, duplicate
//! model names) with their location and `OUT` left as it was, and the sample leaderboard over
//! the real files in ../shared/data (skipped with a notice when absent, a failure when
//! `CI=true`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use coglab_core::publish::bundle::{
    mmiq_item_results, Figures, Index, MmiqKeyChunk, ModelChunk, RunItems,
};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../coglab-core/tests/fixtures")
}

fn coglab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_coglab"))
        .args(args)
        .output()
        .unwrap()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("coglab-publish-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn read_index(out: &Path) -> Index {
    serde_json::from_slice(&std::fs::read(out.join("index.json")).unwrap()).unwrap()
}

fn run<'a>(index: &'a Index, model: &str) -> &'a coglab_core::publish::bundle::RunIndex {
    &index
        .models
        .iter()
        .find(|m| m.name == model)
        .unwrap_or_else(|| panic!("no model {model}"))
        .runs[0]
}

fn close(a: f64, b: f64) {
    assert!((a - b).abs() <= 1e-6, "{a} vs {b}");
}

#[test]
fn tiny_board_is_published_with_hand_worked_figures_and_verifies() {
    let out = temp("tiny").join("published");
    let o = coglab(&[
        "publish",
        &s(&fixtures().join("publish/tiny")),
        "--out",
        &s(&out),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("4 models, 4 runs"), "{stdout}");
    let index = read_index(&out);
    assert_eq!(index.models.len(), 4);
    assert_eq!(index.title.as_deref(), Some("coglab test board"));

    // alpha (runs/alpha.jsonl vs keys/key.jsonl, by hand): items 0-6 answered A B A D A C C
    // against A B C D A B C: right 0, 1, 3, 4, 6 → 5 of 7 (item 7 has no prediction);
    // Mathematical (0-3) 3/4, 2D-Geometry (4-6) 2/3. Wilson 95% (z = 1.959964):
    // centre (p + z²/2n)/(1 + z²/n), half-width z·sqrt(p(1−p)/n + z²/4n²)/(1 + z²/n):
    // 5/7 → [0.358934, 0.917781]; 3/4 → [0.300642, 0.954413]; 2/3 → [0.207660, 0.938508].
    let a = run(&index, "alpha");
    let Figures::Mmiq {
        overall,
        by_category,
    } = &a.figures
    else {
        panic!("{:?}", a.figures)
    };
    assert_eq!((overall.k, overall.n), (5, 7));
    close(overall.acc, 0.714286);
    close(overall.lo, 0.358934);
    close(overall.hi, 0.917781);
    let math = by_category["Mathematical"];
    assert_eq!((math.k, math.n), (3, 4));
    close(math.lo, 0.300642);
    close(math.hi, 0.954413);
    let geo = by_category["2D-Geometry"];
    assert_eq!((geo.k, geo.n), (2, 3));
    close(geo.lo, 0.207660);
    assert_eq!((a.coverage.scored, a.coverage.of), (7, Some(8)));
    assert_eq!(a.settings["extractor"], "parsed_pred as given");
    // SHA-256 of the input: 64 hex digits, the one `sha256sum` gives for the bytes.
    assert_eq!(a.files[0].path, "runs/alpha.jsonl");
    assert_eq!(a.files[0].sha256.len(), 64);
    // beta: B B C "" A B D D vs A B C D A B C D: right 1, 2, 4, 5, 7 → 5 of 8 (item 3 has no
    // answer: wrong); Wilson 5/8 → [0.305742, 0.863156].
    let Figures::Mmiq { overall, .. } = &run(&index, "beta").figures else {
        panic!()
    };
    assert_eq!((overall.k, overall.n), (5, 8));
    close(overall.lo, 0.305742);
    close(overall.hi, 0.863156);

    // Model X, RIA (hand-worked in coglab-core/tests/mmopera.rs): SR 17/28, HR-4 2/7, HR-3 4/7,
    // ΔHR 2/7, mean S_r 0.91106.
    let x = run(&index, "Model X");
    let Figures::Mmopera {
        sr,
        hr4,
        hr3,
        dhr,
        sr_proc,
    } = &x.figures
    else {
        panic!("{:?}", x.figures)
    };
    close(sr.unwrap().v, 0.607143);
    close(hr4.unwrap().v, 0.285714);
    close(hr3.unwrap().v, 0.571429);
    close(dhr.unwrap().v, 0.285714);
    close(sr_proc.unwrap().v, 0.91106);
    assert_eq!(x.coverage.scored, 7);
    assert_eq!(x.settings["judge"], "hand-made judge files");

    // GPT-4o's Gold row: `coglab sem --spec gold-spec.json gold-table2.csv --json` gives the
    // weighted overall 79.48504056761112 (coglab-core/tests/leaderboard_gold.rs); plain mean
    // 874.9 / 11 = 79.536364; rank 3 of 10 by the weighted overall.
    let Figures::Gold {
        overall,
        plain_mean,
        rank_weighted,
        n_models,
        ..
    } = &run(&index, "GPT-4o").figures
    else {
        panic!()
    };
    close(*overall, 79.485041);
    close(*plain_mean, 79.536364);
    assert_eq!((*rank_weighted, *n_models), (3, 10));

    // Item chunks: alpha's verdict bits in key order 1,1,0,1,1,0,1,0 = 0xda; scored
    // 1,1,1,1,1,1,1,0 = 0xfe.
    let chunk: ModelChunk =
        serde_json::from_slice(&std::fs::read(out.join("items/alpha.json")).unwrap()).unwrap();
    let RunItems::Mmiq(items) = &chunk.runs[0].items else {
        panic!()
    };
    assert_eq!(
        (items.correct.as_str(), items.scored.as_str()),
        ("da", "fe")
    );
    assert_eq!(items.parsed, "ABADACC-");
    let key: MmiqKeyChunk =
        serde_json::from_slice(&std::fs::read(out.join("items/mmiq-key.json")).unwrap()).unwrap();
    let results = mmiq_item_results(&key, items);
    let right: Vec<u64> = results
        .iter()
        .filter(|r| r.correct)
        .map(|r| r.data_id)
        .collect();
    assert_eq!(right, [0, 1, 3, 4, 6]);
    assert_eq!(results[5].category, "2D-Geometry");
    assert_eq!((results[5].parsed.as_ref(), results[5].key), ("C", 'B'));

    // The static boards: published rows labelled, the paper's rows with their source, highest
    // first and ranked; the paper's humans a baseline, not ranked (issue 42, defect 11).
    let html = std::fs::read_to_string(out.join("boards/mmiq.html")).unwrap();
    assert!(html.contains(
        "<tbody><tr data-source=\"published\" data-model=\"alpha\"><td>1</td><td>alpha</td>\
         <td>published</td><td>71.43</td><td>[35.89, 91.78]</td><td>7 of 8</td>"
    ));
    assert!(
        html.contains("<tr data-source=\"baseline\" data-model=\"Human Performance\"><td>–</td><td>Human Performance</td><td>baseline</td><td>51.27</td>"),
        "{html}"
    );
    // MM-IQ Table 2, GPT-4o 26.87: 728 of 2,710 right, Wilson (formula above, python)
    // [0.252283, 0.285642].
    assert!(
        html.contains("<td>GPT-4o</td><td>reported</td><td>26.87</td><td>[25.23, 28.56]</td>"),
        "{html}"
    );
    let gold = std::fs::read_to_string(out.join("boards/gold.html")).unwrap();
    assert!(
        gold.contains("<td>79.49</td><td>rank 3 of 10</td>"),
        "{gold}"
    );

    // Verify: the unchanged bundle passes.
    let v = coglab(&["verify", &s(&out)]);
    assert!(v.status.success(), "{}", stderr(&v));
}

/// Copies the MM-IQ part of the tiny board into a fresh folder (so that it can be changed);
/// beta's run is given as a folder (`runs_beta`).
fn mmiq_board(name: &str) -> PathBuf {
    let dir = temp(name).join("board");
    let tiny = fixtures().join("publish/tiny");
    for (from, to) in [
        ("keys/key.jsonl", "keys/key.jsonl"),
        ("runs/alpha.jsonl", "runs/alpha.jsonl"),
        ("runs/beta.jsonl", "runs_beta/beta.jsonl"),
    ] {
        std::fs::create_dir_all(dir.join(to).parent().unwrap()).unwrap();
        std::fs::copy(tiny.join(from), dir.join(to)).unwrap();
    }
    std::fs::write(
        dir.join("leaderboard.toml"),
        "[keys]\nmmiq = \"keys/key.jsonl\"\n\n[[model]]\nname = \"alpha\"\n[[model.run]]\n\
         benchmark = \"mmiq\"\nfiles = [\"runs/alpha.jsonl\"]\n\n[[model]]\nname = \"beta\"\n\
         [[model.run]]\nbenchmark = \"mmiq\"\nfiles = [\"runs_beta\"]\n",
    )
    .unwrap();
    dir
}

#[test]
fn a_tampered_input_or_bundle_file_fails_verify_naming_it() {
    let board = mmiq_board("tamper");
    let out = board.parent().unwrap().join("out");
    let o = coglab(&["publish", &s(&board), "--out", &s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(coglab(&["verify", &s(&out)]).status.success());
    // One prediction changed in beta's file (a folder entry): verify names the file.
    let f = board.join("runs_beta/beta.jsonl");
    let text = std::fs::read_to_string(&f).unwrap();
    std::fs::write(
        &f,
        text.replace(
            "\"data_id\": 6, \"category\": \"2D-Geometry\", \"parsed_pred\": \"D\"",
            "\"data_id\": 6, \"category\": \"2D-Geometry\", \"parsed_pred\": \"C\"",
        ),
    )
    .unwrap();
    let v = coglab(&["verify", &s(&out)]);
    assert_eq!(v.status.code(), Some(1));
    let e = stderr(&v);
    assert!(
        e.contains("runs_beta/beta.jsonl: SHA-256 ")
            && e.contains("the file changed since it was published"),
        "{e}"
    );
    // Restored, it verifies again; a changed figure in the bundle fails naming the bundle file.
    std::fs::write(&f, &text).unwrap();
    assert!(coglab(&["verify", &s(&out)]).status.success());
    let idx = out.join("items/alpha.json");
    let chunk = std::fs::read_to_string(&idx).unwrap();
    std::fs::write(
        &idx,
        chunk.replace("\"correct\":\"da\"", "\"correct\":\"db\""),
    )
    .unwrap();
    let v = coglab(&["verify", &s(&out)]);
    assert_eq!(v.status.code(), Some(1));
    assert!(
        stderr(&v).contains("items/alpha.json: differs from the recomputed file"),
        "{}",
        stderr(&v)
    );
}

#[test]
fn bad_manifests_are_refused_with_their_location_and_out_is_kept() {
    let board = mmiq_board("bad");
    let out = board.parent().unwrap().join("out");
    // A previous bundle at OUT, which every refused publish must leave as it is.
    let o = coglab(&["publish", &s(&board), "--out", &s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let previous = std::fs::read_to_string(out.join("index.json")).unwrap();
    let manifest = board.join("leaderboard.toml");
    let good = std::fs::read_to_string(&manifest).unwrap();
    let refuse = |text: &str, want: &[&str]| {
        std::fs::write(&manifest, text).unwrap();
        let o = coglab(&["publish", &s(&board), "--out", &s(&out)]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let e = stderr(&o);
        for w in want {
            assert!(e.contains(w), "{w:?} not in {e}");
        }
        // Nothing half-written: OUT as it was, no temporary folder left beside it.
        assert_eq!(
            std::fs::read_to_string(out.join("index.json")).unwrap(),
            previous
        );
        let left: Vec<String> = std::fs::read_dir(out.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with('.'))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    };
    // A missing file: line 8 of the manifest (alpha's files), model and file named.
    refuse(
        &good.replace("runs/alpha.jsonl", "runs/alpha_missing.jsonl"),
        &[
            "leaderboard.toml: line 8, model \"alpha\", run 1: runs/alpha_missing.jsonl: cannot read",
        ],
    );
    // A wrong benchmark name (line 7).
    refuse(
        &good.replacen("benchmark = \"mmiq\"", "benchmark = \"mm-iq\"", 1),
        &["leaderboard.toml: line 7, model \"alpha\", run 1: benchmark \"mm-iq\" is not known"],
    );
    // Duplicate model names: the second "alpha" on line 11.
    refuse(
        &good.replace("name = \"beta\"", "name = \"alpha\""),
        &["leaderboard.toml: line 11, model \"alpha\": model name \"alpha\" is already used at line 5"],
    );
    // A file that is not the benchmark's: the KiVA-looking CSV in an MM-IQ run.
    std::fs::write(
        board.join("runs/ColourRed.csv"),
        "Variation,Regeneration,MCResponse#1,MCResponse#2,MCResponse#3\n0,0,1,1,1\n",
    )
    .unwrap();
    refuse(
        &good.replace("runs/alpha.jsonl", "runs/ColourRed.csv"),
        &["leaderboard.toml: line 7, model \"alpha\", run 1: the files make 0 MM-IQ row(s), 1 KiVA row(s)"],
    );
}

/// The sample leaderboard over ../shared/data: a temporary folder named `name` with the
/// committed manifest and links to the data and the hand-made fixtures. Each test gives its own
/// name: two tests sharing one folder ran in parallel, and one's clean-up removed the other's
/// links while it published (a "cannot read: No such file or directory" seen in 2 of 6 runs).
/// Copies the file or folder `from` to `to` (folders whole, links followed).
fn copy_tree(from: &Path, to: &Path) {
    if from.is_dir() {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            copy_tree(&e.path(), &to.join(e.file_name()));
        }
    } else {
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(from, to).unwrap();
    }
}

#[cfg(unix)]
fn sample_board(name: &str) -> Option<PathBuf> {
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data");
    if !data.join("kiva/model_data/KiVA").exists() {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("CI=true but {} is missing", data.display());
        }
        eprintln!(
            "SKIP: {} not found; this test needs ../shared/data",
            data.display()
        );
        return None;
    }
    let dir = temp(name).join("board");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        fixtures().join("publish/sample/leaderboard.toml"),
        dir.join("leaderboard.toml"),
    )
    .unwrap();
    // Copies, not links: a manifest's files must be inside its folder, links resolved
    // (issue 37), so a link out to ../shared/data is refused.
    for (from, to) in [
        (data.join("mmiq"), "data/mmiq"),
        (
            data.join("kiva/model_data/KiVA/gpt4_multi_image"),
            "data/kiva/model_data/KiVA/gpt4_multi_image",
        ),
        (
            data.join("kiva/model_data/KiVA/gpt4_single_image"),
            "data/kiva/model_data/KiVA/gpt4_single_image",
        ),
        (
            data.join("kiva/model_data/KiVA/mantis_multi_image"),
            "data/kiva/model_data/KiVA/mantis_multi_image",
        ),
        (fixtures().join("mmopera"), "mmopera"),
        (
            fixtures().join("publish/tiny/gold-table2.csv"),
            "gold/gold-table2.csv",
        ),
    ] {
        copy_tree(&from, &dir.join(to));
    }
    Some(dir)
}

#[cfg(unix)]
#[test]
fn sample_board_of_the_real_files_has_the_clis_numbers() {
    let Some(board) = sample_board("sample") else {
        return;
    };
    let out = board.parent().unwrap().join("published");
    let o = coglab(&["publish", &s(&board), "--out", &s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let index = read_index(&out);
    assert_eq!(index.models.len(), 6);
    // KiVA stage 1 (cross-domain) means over 700 trials, from coglab-core/tests/kiva_real.rs
    // (the repository's aggregation, checked there): .8857, .9471, .8314. And each equal to
    // `coglab score kiva FOLDER --json` on the same folder.
    for (model, folder, cross) in [
        ("GPT-4V (multi-image)", "gpt4_multi_image", 0.8857),
        ("GPT-4V (single-image)", "gpt4_single_image", 0.9471),
        ("MANTIS (multi-image)", "mantis_multi_image", 0.8314),
    ] {
        let r = run(&index, model);
        let Figures::Kiva { overall, .. } = &r.figures else {
            panic!()
        };
        let c = overall.cross.unwrap();
        assert_eq!(c.n, 700, "{model}");
        assert!((c.mean - cross).abs() < 5e-5, "{model}: {}", c.mean);
        assert_eq!(
            r.files.len(),
            14,
            "{model}: the folder's 14 subdomain files"
        );
        let cli = coglab(&[
            "score",
            "kiva",
            &s(&board.join("data/kiva/model_data/KiVA").join(folder)),
            "--json",
            "--trials",
        ]);
        assert!(cli.status.success(), "{}", stderr(&cli));
        let v: serde_json::Value = serde_json::from_slice(&cli.stdout).unwrap();
        for stage in [
            "cross",
            "within_conditional",
            "within_joint",
            "extrapolation",
        ] {
            let want = v["overall"][stage]["mean"].as_f64().unwrap();
            let got = match stage {
                "cross" => overall.cross,
                "within_conditional" => overall.within_conditional,
                "within_joint" => overall.within_joint,
                _ => overall.extrapolation,
            }
            .unwrap()
            .mean;
            assert!(
                (got - want).abs() <= 5e-7,
                "{model} {stage}: {got} vs {want}"
            );
        }
    }
    // MM-IQ example predictions: 33 of 100 right; Wilson (statsmodels) (0.2456312, 0.4269466)
    // (coglab-core/tests/mmiq_real.rs); 100 of 2,710 key items scored.
    let r = run(&index, "MM-IQ example");
    let Figures::Mmiq {
        overall,
        by_category,
    } = &r.figures
    else {
        panic!()
    };
    assert_eq!((overall.k, overall.n), (33, 100));
    close(overall.lo, 0.245631);
    close(overall.hi, 0.426947);
    assert_eq!(
        (by_category["Mathematical"].k, by_category["Mathematical"].n),
        (11, 37)
    );
    assert_eq!((r.coverage.scored, r.coverage.of), (100, Some(2710)));
    // Its chunk: 2,710 verdict bits (339 bytes, 678 hex digits), 33 of them set.
    let chunk: ModelChunk =
        serde_json::from_slice(&std::fs::read(out.join(&index.models[3].chunk)).unwrap()).unwrap();
    let RunItems::Mmiq(items) = &chunk.runs[0].items else {
        panic!()
    };
    assert_eq!(items.correct.len(), 678);
    let ones: u32 = (0..339)
        .map(|i| {
            u8::from_str_radix(&items.correct[2 * i..2 * i + 2], 16)
                .unwrap()
                .count_ones()
        })
        .sum();
    assert_eq!(ones, 33);
    // The audit against MM-IQ Table 2's GPT-4o row (the manifest's reported_as): the Mean and
    // the 7 paradigms the example has; Wilson 95% by the formula of the tiny test (python):
    // Mean 33/100 [24.563, 42.695] holds 26.87; Logical Operation 8/16 [28.000, 72.000] does not
    // hold 25.52 ± 0.005: the one flag; Concrete Object 0/1 [0, 79.345] holds 50.00.
    let audit: Vec<_> = index
        .audit
        .iter()
        .filter(|a| a.model == "MM-IQ example")
        .collect();
    assert_eq!(audit.len(), 8);
    let flagged: Vec<&str> = audit
        .iter()
        .filter(|a| a.flagged)
        .map(|a| a.column.as_str())
        .collect();
    assert_eq!(flagged, ["Logical Operation"]);
    let lo = audit
        .iter()
        .find(|a| a.column == "Logical Operation")
        .unwrap();
    assert!((lo.interval.0 - 28.000).abs() < 1e-3 && (lo.interval.1 - 72.000).abs() < 1e-3);
    assert!((lo.gap - (50.0 - 25.52)).abs() < 1e-9);
    assert!(
        lo.explain
            .iter()
            .any(|e| e == "coverage: 100 of 2710 items"),
        "{:?}",
        lo.explain
    );
    assert!(lo
        .explain
        .iter()
        .any(|e| e == "extractor: parsed_pred as given"));
    // MM-OPERA ICA (coglab-core/tests/mmopera.rs, ica_holistic): SR 34/60.
    let ica = &index
        .models
        .iter()
        .find(|m| m.name == "Model X")
        .unwrap()
        .runs[1];
    let Figures::Mmopera { sr, .. } = &ica.figures else {
        panic!()
    };
    close(sr.unwrap().v, 0.566667);
    // The KiVA board renders all three runs, published.
    let html = std::fs::read_to_string(out.join("boards/kiva.html")).unwrap();
    assert_eq!(html.matches("data-source=\"published\"").count(), 3);
    assert!(html.contains("<td>88.57</td>"), "{html}");
    // And the bundle verifies against its inputs.
    let v = coglab(&["verify", &s(&out)]);
    assert!(v.status.success(), "{}", stderr(&v));
}

#[test]
fn published_rows_drill_down_and_compare_from_the_chunks() {
    use coglab_core::leaderboard::detail::{compare_mmiq, mmiq_items, ItemsQuery};
    use coglab_core::leaderboard::Detail;
    use coglab_core::publish::site::{board_rows, details};
    let out = temp("site").join("published");
    let o = coglab(&[
        "publish",
        &s(&fixtures().join("publish/tiny")),
        "--out",
        &s(&out),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let index = read_index(&out);
    let (rows, sources) = board_rows(&index);
    // The two MM-IQ rows, Model X's MM-OPERA row and GPT-4o's Gold row.
    assert_eq!(rows.mmiq.len(), 2);
    assert_eq!(sources.len(), 4);
    // Model X, RIA, as hand-worked in the first test: 7 verdicts (one per item) scoring 17 of
    // 7 x 4 = 28 points, SR 17/28; mean S_r 0.91106
    // (the row as the scorer made it, breakdowns included); no ICA run in this manifest.
    let x = &rows.mmopera[0];
    assert_eq!(x.model, "Model X");
    let ria = x.ria.as_ref().unwrap();
    let h = ria.holistic.as_ref().unwrap();
    assert_eq!((h.n, h.items), (7, 7));
    close(h.score_rate, 17.0 / 28.0);
    close(ria.reasoning.as_ref().unwrap().mean_score, 0.91106);
    assert!(!h.by.l3.is_empty());
    assert!(ria.items.is_empty() && x.ica.is_none());
    // GPT-4o's Gold row: weighted overall 79.485041, plain mean 79.536364, rank 3 of 10.
    let g = rows.gold[0].result.as_ref().unwrap();
    assert_eq!(rows.gold[0].matrix.models, ["GPT-4o"]);
    close(g.rows[0].overall, 79.485041);
    close(g.rows[0].plain_mean, 79.536364);
    assert_eq!((g.rows[0].rank_weighted, g.n_models), (3, 10));
    assert_eq!(rows.mmiq[0].model, "alpha");
    assert_eq!(
        (
            rows.mmiq[0].report.overall.correct,
            rows.mmiq[0].report.overall.n
        ),
        (5, 7)
    );
    let key: MmiqKeyChunk =
        serde_json::from_slice(&std::fs::read(out.join("items/mmiq-key.json")).unwrap()).unwrap();
    let full = |i: usize| {
        let m = &index.models[sources[i].model];
        let chunk: ModelChunk =
            serde_json::from_slice(&std::fs::read(out.join(&m.chunk)).unwrap()).unwrap();
        let summary = Detail::Mmiq(rows.mmiq[i].report.clone());
        match details(&summary, sources[i].benchmark, &chunk, Some(&key)).unwrap() {
            Detail::Mmiq(r) => r,
            d => panic!("{d:?}"),
        }
    };
    let (alpha, beta) = (full(0), full(1));
    // Drill-down: alpha's wrong items are 2 (answered A, key C) and 5 (C, key B).
    let wrong = mmiq_items(
        &alpha,
        &ItemsQuery {
            wrong_only: true,
            ..Default::default()
        },
    );
    let ids: Vec<u64> = wrong.items.iter().map(|i| i.data_id).collect();
    assert_eq!(ids, [2, 5]);
    assert_eq!(wrong.overall.correct, 5);
    // Comparison on the 7 items both scored (0-6), by hand: alpha right 0 1 3 4 6, beta right
    // 1 2 4 5: both right {1, 4}, alpha only {0, 3, 6}, beta only {2, 5}, both wrong none.
    let c = compare_mmiq(&alpha, &beta, 200, 1).unwrap();
    let t = &c.comparison.table;
    assert_eq!(
        (t.both_correct, t.first_only, t.second_only, t.both_wrong),
        (2, 3, 2, 0)
    );
    assert_eq!(c.cells.first_only, ["0", "3", "6"]);
}

#[test]
fn a_submission_is_checked_against_the_published_row() {
    use coglab_core::leaderboard::{score_files, Detail, InputRef};
    use coglab_core::publish::site::{board_rows, details, reproduce};
    let out = temp("submit").join("published");
    let tiny = fixtures().join("publish/tiny");
    let o = coglab(&["publish", &s(&tiny), "--out", &s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let index = read_index(&out);
    let (rows, sources) = board_rows(&index);
    let key: MmiqKeyChunk =
        serde_json::from_slice(&std::fs::read(out.join("items/mmiq-key.json")).unwrap()).unwrap();
    let chunk: ModelChunk =
        serde_json::from_slice(&std::fs::read(out.join("items/alpha.json")).unwrap()).unwrap();
    let published = details(
        &Detail::Mmiq(rows.mmiq[0].report.clone()),
        sources[0].benchmark,
        &chunk,
        Some(&key),
    )
    .unwrap();
    // The other published row (alpha's own is what a submission replaces).
    let board = [rows.mmiq[1].report.overall.accuracy];
    let submit = |preds: &[u8]| {
        let k = std::fs::read(tiny.join("keys/key.jsonl")).unwrap();
        let s = score_files(
            &[
                InputRef {
                    path: "key.jsonl",
                    bytes: &k,
                    model: None,
                },
                InputRef {
                    path: "alpha.jsonl",
                    bytes: preds,
                    model: Some("alpha"),
                },
            ],
            |_, _, _| {},
        );
        Detail::Mmiq(s.mmiq[0].report.clone())
    };
    // alpha's own file reproduces its row: 7 items, same verdicts; 5/7 ranks first of
    // {5/7, 5/8}.
    let same = reproduce(
        &published,
        &submit(&std::fs::read(tiny.join("runs/alpha.jsonl")).unwrap()),
        &board,
    )
    .unwrap();
    assert!(same.reproduces);
    assert_eq!(
        (same.compared, same.n_differing, same.rank, same.of),
        (7, 0, 1, 2)
    );
    // Item 2 answered C (right) instead of A, and item 7 added (D, right): 7/8 = 0.875, rank 1;
    // item 2's verdict differs, item 7 is only in the submission.
    let text = std::fs::read_to_string(tiny.join("runs/alpha.jsonl"))
        .unwrap()
        .replace(
            "\"data_id\": 2, \"category\": \"Mathematical\", \"parsed_pred\": \"A\"",
            "\"data_id\": 2, \"category\": \"Mathematical\", \"parsed_pred\": \"C\"",
        )
        + "{\"data_id\": 7, \"category\": \"2D-Geometry\", \"parsed_pred\": \"D\"}\n";
    let diff = reproduce(&published, &submit(text.as_bytes()), &board).unwrap();
    assert!(!diff.reproduces);
    assert_eq!(diff.differing, ["2"]);
    assert_eq!((diff.only_published, diff.only_submitted), (0, 1));
    assert!((diff.figure - 0.875).abs() < 1e-12);
    assert_eq!(diff.rank, 1);
}

/// The verdicts of `coglab score mmiq --answers KEY PREDS --json` in the key's order (`1`
/// right, `0` wrong, `-` no prediction), as the rank file should hold them.
fn cli_verdicts(key: &Path, preds: &Path, ids: &[u64]) -> String {
    let o = coglab(&[
        "score",
        "mmiq",
        "--answers",
        &s(key),
        &s(preds),
        "--json",
        "--items",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let by_id: std::collections::BTreeMap<u64, bool> = v["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["data_id"].as_u64().unwrap(),
                i["correct"].as_bool().unwrap(),
            )
        })
        .collect();
    ids.iter()
        .map(|id| match by_id.get(id) {
            Some(true) => '1',
            Some(false) => '0',
            None => '-',
        })
        .collect()
}

fn read_ranks(out: &Path, benchmark: &str) -> coglab_core::publish::ranks::RanksFile {
    let index = read_index(out);
    let r = index
        .ranks
        .iter()
        .find(|r| r.benchmark.key() == benchmark)
        .unwrap_or_else(|| panic!("no {benchmark} rank file in the index"));
    let bytes = std::fs::read(out.join(&r.path)).unwrap();
    assert_eq!(r.sha256, coglab_core::publish::bundle::sha256_hex(&bytes));
    serde_json::from_slice(&bytes).unwrap()
}

#[test]
fn the_rank_file_has_the_clis_verdicts_and_a_changed_one_fails_verify() {
    use coglab_core::publish::ranks::RankItems;
    let tiny = fixtures().join("publish/tiny");
    let out = temp("ranks").join("published");
    let o = coglab(&["publish", &s(&tiny), "--out", &s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let ranks = read_ranks(&out, "mmiq");
    assert_eq!(ranks.ids, (0..8).collect::<Vec<u64>>());
    let key = tiny.join("keys/key.jsonl");
    // By hand (key A B C D A B C D): alpha A B A D A C C, none for 7; beta B B C "" A B D D.
    let want = [("alpha", "1101101-"), ("beta", "01101101")];
    for ((row, (name, hand)), file) in ranks
        .rows
        .iter()
        .zip(want)
        .zip(["runs/alpha.jsonl", "runs/beta.jsonl"])
    {
        let RankItems::Mmiq(v) = &row.items else {
            panic!("{:?}", row.items)
        };
        assert_eq!((row.name.as_str(), v.as_str()), (name, hand));
        assert_eq!(*v, cli_verdicts(&key, &tiny.join(file), &ranks.ids));
    }
    // Model X's RIA items in the MM-OPERA RIA rank file; no Gold rank file.
    let ria = read_ranks(&out, "mmopera-ria");
    assert_eq!(ria.rows.len(), 1);
    assert!(matches!(&ria.rows[0].items, RankItems::Mmopera(i) if !i.is_empty()));
    assert!(!read_index(&out)
        .ranks
        .iter()
        .any(|r| r.benchmark.key() == "gold"));
    // A changed rank file fails verify, naming it.
    let p = out.join("items/ranks-mmiq.json");
    let text = std::fs::read_to_string(&p).unwrap();
    std::fs::write(&p, text.replace("1101101-", "1101100-")).unwrap();
    let v = coglab(&["verify", &s(&out)]);
    assert!(!v.status.success());
    assert!(
        stderr(&v).contains("items/ranks-mmiq.json: SHA-256 "),
        "{}",
        stderr(&v)
    );
}

#[cfg(unix)]
#[test]
fn the_sample_boards_rank_files_have_the_clis_verdicts_and_trials() {
    use coglab_core::publish::ranks::RankItems;
    let Some(board) = sample_board("sample-ranks") else {
        return;
    };
    let out = board.parent().unwrap().join("published-ranks");
    let o = coglab(&["publish", &s(&board), "--out", &s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    // MM-IQ: the example predictions' 100 verdicts against the real key of 2,710 items.
    let ranks = read_ranks(&out, "mmiq");
    assert_eq!(ranks.ids.len(), 2710);
    let RankItems::Mmiq(v) = &ranks.rows[0].items else {
        panic!()
    };
    let data = board.join("data/mmiq");
    assert_eq!(
        *v,
        cli_verdicts(
            &data.join("MMIQ_benchmark_answer_dict.jsonl"),
            &data.join("example_output_parsed.jsonl"),
            &ranks.ids
        )
    );
    assert_eq!(v.chars().filter(|c| *c != '-').count(), 100);
    // KiVA: each run's trials with the CLI's stage scores and regeneration counts.
    let kiva = read_ranks(&out, "kiva");
    assert_eq!(kiva.rows.len(), 3);
    for (row, folder) in kiva.rows.iter().zip([
        "gpt4_multi_image",
        "gpt4_single_image",
        "mantis_multi_image",
    ]) {
        let o = coglab(&[
            "score",
            "kiva",
            &s(&board.join("data/kiva/model_data/KiVA").join(folder)),
            "--json",
            "--trials",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let cli: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let RankItems::Kiva(trials) = &row.items else {
            panic!()
        };
        let want = cli["trials"].as_array().unwrap();
        assert_eq!(trials.len(), want.len(), "{folder}");
        for ((sub, var, rows, c, wc, wj, e), w) in trials.iter().zip(want) {
            assert_eq!(sub, w["subdomain"].as_str().unwrap());
            assert_eq!(*var, w["variation"].as_u64().unwrap());
            assert_eq!(*rows as u64, w["rows"].as_u64().unwrap());
            for (x, k) in [
                (c, "cross"),
                (wc, "within_conditional"),
                (wj, "within_joint"),
                (e, "extrapolation"),
            ] {
                assert_eq!(*x, w[k].as_f64(), "{folder} {sub} {var} {k}");
            }
        }
    }
}

#[test]
fn an_mmopera_submission_is_checked_against_the_published_row() {
    use coglab_core::leaderboard::{score_files, Detail, InputRef};
    use coglab_core::publish::site::{board_rows, details, reproduce};
    let out = temp("submit-opera").join("published");
    let tiny = fixtures().join("publish/tiny");
    let o = coglab(&["publish", &s(&tiny), "--out", &s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let index = read_index(&out);
    let (rows, sources) = board_rows(&index);
    // Model X's row comes after the two MM-IQ rows.
    let m = &index.models[sources[2].model];
    assert_eq!(m.name, "Model X");
    let chunk: ModelChunk =
        serde_json::from_slice(&std::fs::read(out.join(&m.chunk)).unwrap()).unwrap();
    let published = details(
        &Detail::Mmopera(Box::new(rows.mmopera[0].clone())),
        sources[2].benchmark,
        &chunk,
        None,
    )
    .unwrap();
    let ria = fixtures().join("mmopera/ria");
    let submit = |regular: &[u8]| {
        let files: Vec<(&str, Vec<u8>)> = vec![
            (
                "metadata.csv",
                std::fs::read(ria.join("metadata.csv")).unwrap(),
            ),
            (
                "modelx_RIA_results.json",
                std::fs::read(ria.join("modelx_RIA_results.json")).unwrap(),
            ),
            ("modelx_RIA_regular_scoring.json", regular.to_vec()),
            (
                "modelx_RIA_reasoning_scoring.json",
                std::fs::read(ria.join("modelx_RIA_reasoning_scoring.json")).unwrap(),
            ),
        ];
        let inputs: Vec<InputRef<'_>> = files
            .iter()
            .map(|(path, bytes)| InputRef {
                path,
                bytes,
                model: Some("Model X"),
            })
            .collect();
        let s = score_files(&inputs, |_, _, _| {});
        assert_eq!(s.mmopera.len(), 1, "{:?}", s.files);
        Detail::Mmopera(Box::new(s.mmopera[0].clone()))
    };
    let regular = std::fs::read_to_string(ria.join("modelx_RIA_regular_scoring.json")).unwrap();
    // The published judge files reproduce the row: its 7 judged RIA items, SR 17/28, rank 1 of
    // the one published row (no other published row).
    let same = reproduce(&published, &submit(regular.as_bytes()), &[]).unwrap();
    assert!(same.reproduces, "{same:?}");
    assert_eq!((same.compared, same.rank, same.of), (7, 1, 1));
    close(same.figure, 17.0 / 28.0);
    // A model published with both tasks (the site shows its RIA and ICA runs as one row) is
    // reproduced by RIA files alone: the task the submission lacks is not compared.
    let Detail::Mmopera(mut both) = published.clone() else {
        panic!("an MM-OPERA detail")
    };
    let mut ica = both.ria.clone().unwrap();
    ica.task = coglab_core::mmopera::Task::Ica;
    both.ica = Some(ica);
    let ria_only = reproduce(&Detail::Mmopera(both), &submit(regular.as_bytes()), &[]).unwrap();
    assert!(ria_only.reproduces, "{ria_only:?}");
    assert_eq!((ria_only.compared, ria_only.only_published), (7, 0));
    // r2 judged 1 instead of 3: 2 points fewer, SR 15/28, below the published 17/28, and still
    // rank 1 of 1 in its place (issue 42, defect 10: "would rank 2 of 1 published rows").
    let changed = regular.replace(
        "\"r2\": {\"score_judge\": \"3\"",
        "\"r2\": {\"score_judge\": \"1\"",
    );
    assert_ne!(changed, regular);
    let r = reproduce(&published, &submit(changed.as_bytes()), &[]).unwrap();
    assert!(!r.reproduces);
    assert_eq!(r.differing, ["RIA r2"]);
    assert_eq!((r.compared, r.only_published, r.only_submitted), (7, 0, 0));
    close(r.figure, 15.0 / 28.0);
    close(r.published_figure, 17.0 / 28.0);
    assert_eq!((r.rank, r.of), (1, 1));
}
