//! Issue 37 ("Nothing lost, nothing escapes"), findings 1-3, run as the binary: `publish`
//! never removes what it did not write and keeps `OUT` present while it replaces it
//! (concurrent runs included); no manifest or index path reads outside the leaderboard folder;
//! a model's `source` is a link only for http(s), every board carries its own CSP; a line
//! break in the data cannot print a forged table row. Each test failed on the main of
//! 7f4ff2f (publish removed `--out DIR`, verify read `../../etc/passwd`, ...).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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
    let dir = std::env::temp_dir().join(format!("coglab-p37-{}-{name}", std::process::id()));
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

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A small MM-IQ leaderboard at `root/board` (the tiny fixture's key and two runs).
fn board(root: &Path) -> PathBuf {
    let dir = root.join("board");
    let tiny = fixtures().join("publish/tiny");
    for f in ["keys/key.jsonl", "runs/alpha.jsonl", "runs/beta.jsonl"] {
        std::fs::create_dir_all(dir.join(f).parent().unwrap()).unwrap();
        std::fs::copy(tiny.join(f), dir.join(f)).unwrap();
    }
    write_manifest(&dir, "runs/alpha.jsonl", "https://example.org/alpha");
    dir
}

fn write_manifest(dir: &Path, alpha_file: &str, alpha_source: &str) {
    std::fs::write(
        dir.join("leaderboard.toml"),
        format!(
            "[keys]\nmmiq = \"keys/key.jsonl\"\n\n[[model]]\nname = \"alpha\"\nsource = {alpha_source:?}\n\
             [[model.run]]\nbenchmark = \"mmiq\"\nfiles = [{alpha_file:?}]\n\n[[model]]\nname = \"beta\"\n\
             [[model.run]]\nbenchmark = \"mmiq\"\nfiles = [\"runs/beta.jsonl\"]\n"
        ),
    )
    .unwrap();
}

/// Every file under `dir` (links not followed) with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let t = e.file_type().unwrap();
            if t.is_dir() {
                stack.push(e.path());
            } else if t.is_file() {
                out.insert(e.path(), std::fs::read(e.path()).unwrap());
            }
        }
    }
    out
}

/// `--out` equal to the leaderboard folder, a run folder inside it, its parent, a foreign
/// non-empty folder, a regular file: each refused (exit 2, the reason named) with every file
/// under the test's folder as it was. On 7f4ff2f the first four were removed whole.
#[test]
fn publish_refuses_an_out_it_would_destroy_and_keeps_every_file() {
    let root = temp("out");
    let dir = board(&root);
    let foreign = root.join("notes");
    std::fs::create_dir_all(&foreign).unwrap();
    std::fs::write(foreign.join("todo.txt"), "mine").unwrap();
    std::fs::write(root.join("report.pdf"), "a file").unwrap();
    let before = snapshot(&root);
    for (out, want) in [
        (dir.clone(), "this is the leaderboard folder itself"),
        (dir.join("runs"), "inside the leaderboard folder"),
        (dir.join("new/published"), "inside the leaderboard folder"),
        (root.clone(), "is inside it; give a folder beside it"),
        (
            foreign.clone(),
            "not a coglab bundle (no .coglab-bundle; it holds todo.txt)",
        ),
        (root.join("report.pdf"), "a file, not a folder"),
    ] {
        let o = coglab(&["publish", &s(&dir), "--out", &s(&out)]);
        assert_eq!(
            o.status.code(),
            Some(2),
            "{}: {}",
            out.display(),
            stderr(&o)
        );
        assert!(stderr(&o).contains(want), "{want:?} not in {}", stderr(&o));
        assert_eq!(snapshot(&root), before, "--out {}", out.display());
    }
    // `--out DIR/..`-style names are refused before anything is resolved.
    let o = coglab(&["publish", &s(&dir), "--out", &format!("{}/..", s(&dir))]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(snapshot(&root), before);
}

/// A bundle is replaced only while it holds nothing but what its marker lists; the replaced
/// bundle's files are removed one by one and a foreign file stops the publish.
#[test]
fn republish_replaces_only_what_it_wrote() {
    let root = temp("again");
    let dir = board(&root);
    let out = root.join("site/published");
    // An empty folder is taken.
    std::fs::create_dir_all(&out).unwrap();
    let o = coglab(&["publish", &s(&dir), "--out", &s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let marker = std::fs::read_to_string(out.join(".coglab-bundle")).unwrap();
    let listed: Vec<&str> = marker.lines().skip(1).collect();
    assert!(listed.contains(&"index.json") && listed.contains(&"source.txt"));
    assert!(listed.contains(&"boards/mmiq.html") && listed.contains(&".coglab-bundle"));
    // Exactly the files on disk.
    let on_disk: Vec<String> = snapshot(&out)
        .keys()
        .map(|p| s(p.strip_prefix(&out).unwrap()))
        .collect();
    let mut sorted = listed.clone();
    sorted.sort_unstable();
    assert_eq!(on_disk, sorted);
    // Published again over itself: fine, and a sibling of OUT is untouched.
    std::fs::write(root.join("site/index.html"), "the site").unwrap();
    let o = coglab(&["publish", &s(&dir), "--out", &s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(root.join("site/index.html")).unwrap(),
        "the site"
    );
    // A file the maintainer put into the bundle is not removed: the publish is refused.
    std::fs::write(out.join("items/my-notes.txt"), "keep").unwrap();
    let before = snapshot(&root);
    let o = coglab(&["publish", &s(&dir), "--out", &s(&out)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("items/my-notes.txt is not a file the earlier publish wrote"),
        "{}",
        stderr(&o)
    );
    assert_eq!(snapshot(&root), before);
    // No temporary or aside folder is left beside OUT.
    let left: Vec<String> = std::fs::read_dir(root.join("site"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Eight publishes to one OUT at once: every one succeeds (they are serialised by the lock on
/// OUT's parent), and a reader polling `OUT/index.json` meanwhile finds it at every moment
/// (the exchange keeps OUT present). On 7f4ff2f about one run in a hundred failed and OUT was
/// briefly absent.
#[cfg(unix)]
#[test]
fn concurrent_publishes_to_one_out_are_serialised_and_out_never_vanishes() {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::Arc;
    let root = temp("concurrent");
    let dir = board(&root);
    let out = root.join("published");
    let o = coglab(&["publish", &s(&dir), "--out", &s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let done = Arc::new(AtomicBool::new(false));
    let (missing, reads) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let watcher = {
        let (done, missing, reads) = (done.clone(), missing.clone(), reads.clone());
        let index = out.join("index.json");
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                if std::fs::metadata(&index).is_err() {
                    missing.fetch_add(1, Ordering::Relaxed);
                }
                reads.fetch_add(1, Ordering::Relaxed);
            }
        })
    };
    let children: Vec<_> = (0..8)
        .map(|_| {
            Command::new(env!("CARGO_BIN_EXE_coglab"))
                .args(["publish", &s(&dir), "--out", &s(&out)])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let results: Vec<Output> = children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect();
    done.store(true, Ordering::Relaxed);
    watcher.join().unwrap();
    for o in &results {
        assert!(o.status.success(), "{}", stderr(o));
    }
    assert!(reads.load(Ordering::Relaxed) > 100);
    assert_eq!(missing.load(Ordering::Relaxed), 0, "OUT was absent");
    assert!(coglab(&["verify", &s(&out)]).status.success());
    let left: Vec<String> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Manifest paths that leave the folder (`../`, absolute, a link out, a link back into a
/// parent) and a FIFO are refused with the manifest line, and nothing of the outside file is
/// read or published. On 7f4ff2f the outside file's path and SHA-256 landed in the index.
#[cfg(unix)]
#[test]
fn manifest_paths_outside_the_folder_are_refused_with_their_line() {
    let root = temp("paths");
    let dir = board(&root);
    std::fs::write(
        root.join("secret.jsonl"),
        "{\"data_id\": 0, \"parsed_pred\": \"A\"}\n",
    )
    .unwrap();
    std::os::unix::fs::symlink(root.join("secret.jsonl"), dir.join("runs/link.jsonl")).unwrap();
    std::fs::create_dir_all(dir.join("loop")).unwrap();
    std::os::unix::fs::symlink(&root, dir.join("loop/up")).unwrap();
    let fifo = dir.join("runs/fifo.jsonl");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let out = root.join("published");
    for (file, want) in [
        ("../secret.jsonl", "line 9, model \"alpha\", run 1: files: expected a path inside the leaderboard folder (relative, without `..`), found \"../secret.jsonl\" (a `..` component leaves the folder)"),
        ("runs/../../secret.jsonl", "(a `..` component leaves the folder)"),
        (&s(&root.join("secret.jsonl")), "(an absolute path)"),
        ("runs/link.jsonl", "runs/link.jsonl: refused: it resolves to"),
        ("loop", "loop/up: refused: a symbolic link to"),
        ("runs/fifo.jsonl", "runs/fifo.jsonl: not a regular file"),
    ] {
        write_manifest(&dir, file, "https://example.org/alpha");
        let o = coglab(&["publish", &s(&dir), "--out", &s(&out)]);
        assert_eq!(o.status.code(), Some(1), "{file}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{want:?} not in {}", stderr(&o));
        assert!(!out.exists(), "{file}: a bundle was written");
    }
}

/// `verify` on an index naming `../../etc/passwd`, an absolute path or a link out: refused
/// naming the index field, nothing read; a link inside the bundle (to a system folder) is
/// refused, not walked. On 7f4ff2f verify printed /etc/passwd's SHA-256 and walked the link.
#[cfg(unix)]
#[test]
fn verify_reads_only_what_it_published() {
    let root = temp("verify");
    let dir = board(&root);
    let out = root.join("published");
    let o = coglab(&["publish", &s(&dir), "--out", &s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(coglab(&["verify", &s(&out)]).status.success());
    let index_path = out.join("index.json");
    let good = std::fs::read_to_string(&index_path).unwrap();
    for (path, want) in [
        ("../../etc/passwd", "index.json: keys[0].path: \"../../etc/passwd\" is refused: a `..` component leaves the folder"),
        ("/etc/passwd", "index.json: keys[0].path: \"/etc/passwd\" is refused: an absolute path"),
    ] {
        std::fs::write(&index_path, good.replace("\"keys/key.jsonl\"", &format!("{path:?}"))).unwrap();
        let o = coglab(&["verify", &s(&out)]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert!(stderr(&o).contains(want), "{want:?} not in {}", stderr(&o));
        assert!(!stderr(&o).contains("SHA-256"), "{}", stderr(&o));
    }
    // A link inside the leaderboard folder that points out of it.
    std::os::unix::fs::symlink("/etc/passwd", dir.join("keys/passwd")).unwrap();
    std::fs::write(
        &index_path,
        good.replace("\"keys/key.jsonl\"", "\"keys/passwd\""),
    )
    .unwrap();
    let o = coglab(&["verify", &s(&out)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "keys/passwd: cannot read the published input: refused: it resolves to /etc/passwd"
        ),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("SHA-256"), "{}", stderr(&o));
    // A link in the bundle to a system folder: refused at once, not walked.
    std::fs::write(&index_path, &good).unwrap();
    std::os::unix::fs::symlink("/usr", out.join("items/usr")).unwrap();
    let o = coglab(&["verify", &s(&out)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("/items/usr: a symbolic link; a bundle coglab publish wrote has none"),
        "{}",
        stderr(&o)
    );
}

/// A `javascript:` or `data:` source is shown as text, an https one is a link; every board
/// file starts with its own Content-Security-Policy. On 7f4ff2f the board read
/// `<a href="javascript:alert(1)">` and had no policy.
#[test]
fn static_boards_link_only_http_sources_and_carry_a_csp() {
    let root = temp("links");
    let dir = board(&root);
    for (source, link) in [
        ("javascript:alert(document.domain)", false),
        ("JAVASCRIPT:alert(1)", false),
        ("data:text/html,<script>alert(1)</script>", false),
        (" javascript:alert(1)", false),
        ("https://example.org/alpha?a=1&b=2", true),
    ] {
        write_manifest(&dir, "runs/alpha.jsonl", source);
        let out = root.join("published");
        let o = coglab(&["publish", &s(&dir), "--out", &s(&out)]);
        assert!(o.status.success(), "{}", stderr(&o));
        let html = std::fs::read_to_string(out.join("boards/mmiq.html")).unwrap();
        assert!(
            html.starts_with("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src &#39;none&#39;; style-src &#39;self&#39;;"),
            "{}",
            &html[..200]
        );
        let row = html
            .split("<tr ")
            .find(|r| r.contains("data-model=\"alpha\""))
            .unwrap();
        if link {
            assert!(
                row.contains("<a href=\"https://example.org/alpha?a=1&amp;b=2\" rel=\"nofollow noopener noreferrer\">source</a>"),
                "{row}"
            );
        } else {
            assert!(!row.contains("<a "), "{source}: {row}");
            assert!(!html.to_lowercase().contains("href=\"javascript"), "{html}");
            assert!(!html.contains("<script>"), "{html}");
        }
    }
}

/// A line break in a model name, an MM-IQ category or a column name is printed as `\u{a}`:
/// no line of the table output starts with the forged text. On 7f4ff2f `score mmiq`,
/// `describe` and the publish summary printed the forged row.
#[test]
fn a_line_break_in_the_data_cannot_forge_a_table_row() {
    let root = temp("newline");
    let forged = "FORGED gpt-5 100.00%";
    let key = root.join("key.jsonl");
    std::fs::write(
        &key,
        "{\"category\": \"Math\\nFORGED gpt-5 100.00%\", \"data_id\": 0, \"answer\": \"A\"}\n\
         {\"category\": \"Math\\r\\nFORGED gpt-5 100.00%\", \"data_id\": 1, \"answer\": \"B\"}\n",
    )
    .unwrap();
    let preds = root.join("preds.jsonl");
    std::fs::write(
        &preds,
        "{\"data_id\": 0, \"parsed_pred\": \"A\"}\n{\"data_id\": 1, \"parsed_pred\": \"A\"}\n",
    )
    .unwrap();
    let scores = root.join("scores.csv");
    std::fs::write(
        &scores,
        "model,\"a\nFORGED gpt-5 100.00%\",b\nm1,1,2\nm2,2,1\nm3,3,5\n",
    )
    .unwrap();
    let dir = board(&root);
    let manifest = std::fs::read_to_string(dir.join("leaderboard.toml")).unwrap();
    std::fs::write(
        dir.join("leaderboard.toml"),
        manifest.replace("name = \"beta\"", "name = \"beta\\nFORGED gpt-5 100.00%\""),
    )
    .unwrap();
    let out = root.join("published");
    let (key, preds, scores, dir, out) = (s(&key), s(&preds), s(&scores), s(&dir), s(&out));
    for args in [
        vec!["score", "mmiq", "--answers", &key, &preds],
        vec!["describe", &scores],
        vec!["publish", &dir, "--out", &out],
    ] {
        let o = coglab(&args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let text = stdout(&o);
        assert!(
            !text.lines().any(|l| l.trim_start().starts_with(forged)),
            "{args:?}: forged row printed:\n{text}"
        );
        assert!(text.contains("\\u{a}FORGED"), "{args:?}: {text}");
    }
}
