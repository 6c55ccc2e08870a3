//! GraphColoring levels (seed 002) through the command line: `warren levelxml eval` on every
//! corpus level (text and JSON agree with the library), a walk scored with `--path`,
//! `warren levelxml check` over the corpus `level-list.xml`, and bad files reported as one line
//! `error: file:line:col: ...` with a non-zero exit and never a panic.

use std::path::PathBuf;

use warren::levelxml::{EvalOptions, evaluate, read_level, read_level_list};

use crate::common::{TempDir, assert_one_line_error, corpus, exit_code, stderr, stdout, warren};

fn corpus_levels() -> Option<Vec<PathBuf>> {
    let root = corpus()?;
    let list = read_level_list(&root.join("level-list.xml")).unwrap();
    Some(
        list.categories
            .iter()
            .flat_map(|c| {
                let root = &root;
                c.levels
                    .iter()
                    .map(move |l| root.join(&c.id).join(format!("{l}.xml")))
            })
            .collect(),
    )
}

#[test]
fn eval_runs_on_every_corpus_level_and_agrees_with_the_library() {
    let Some(levels) = corpus_levels() else {
        return;
    };
    assert_eq!(levels.len(), 24);
    for level in &levels {
        let lib = evaluate(&read_level(level).unwrap().doc, &EvalOptions::default()).unwrap();
        let out = warren([
            "levelxml".as_ref(),
            "eval".as_ref(),
            level.as_os_str(),
            "--json".as_ref(),
        ]);
        assert_eq!(exit_code(&out), 0, "{}: {}", level.display(), stderr(&out));
        let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        let ev = &json["evaluation"];
        assert_eq!(ev["total"], lib.total, "{}", level.display());
        assert_eq!(ev["objective"], lib.objective);
        assert_eq!(ev["valid"], lib.valid);
        assert_eq!(ev["complete"], false, "no corpus level starts solved");
        assert_eq!(ev["rules"].as_array().unwrap().len(), lib.rules.len());
        let text = warren(["levelxml".as_ref(), "eval".as_ref(), level.as_os_str()]);
        assert_eq!(exit_code(&text), 0);
        let text = stdout(&text);
        assert!(
            text.contains(&format!("\ntotal: {}\n", lib.total)),
            "{text}"
        );
        assert!(
            text.contains(&format!("\nobjective: {}\n", lib.objective)),
            "{text}"
        );
        assert!(text.ends_with("complete: no\n"), "{text}");
    }
}

#[test]
fn a_walk_given_with_path_is_scored() {
    let Some(corpus) = corpus() else {
        return;
    };
    let cycles = corpus.join("eulerian/cycles.xml");
    let out = warren([
        "levelxml".as_ref(),
        "eval".as_ref(),
        cycles.as_os_str(),
        "--path".as_ref(),
        "0,7,2,1,4,5,8,6,9,3".as_ref(),
    ]);
    assert_eq!(exit_code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("\npath: 10\n") && text.ends_with("complete: yes\n"),
        "{text}"
    );
    let out = warren([
        "levelxml".as_ref(),
        "eval".as_ref(),
        cycles.as_os_str(),
        "--path".as_ref(),
        "0,7,2,9".as_ref(),
    ]);
    assert_eq!(exit_code(&out), 2);
    assert_one_line_error(&out, "broken walk");
    assert!(stderr(&out).contains("path edge `9` does not touch the end of the walk"));
}

#[test]
fn check_reads_the_level_list_and_every_level_it_names() {
    let Some(corpus) = corpus() else {
        return;
    };
    let list = corpus.join("level-list.xml");
    let out = warren(["levelxml".as_ref(), "check".as_ref(), list.as_os_str()]);
    assert_eq!(exit_code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(
        text.lines().filter(|l| l.contains(": ok, ")).count(),
        25,
        "{text}"
    );
    assert!(
        text.contains("level-list.xml: ok, 6 categories, 24 levels"),
        "{text}"
    );
}

/// Writes `text` as `name` in `dir`; returns the path.
fn file(dir: &TempDir, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&path, text).unwrap();
    path
}

const HEAD: &str =
    "<level title=\"t\"/>\n<colors>\n    <color color=\"#FF0000\" name=\"red\"/>\n</colors>\n";

/// A folder with a level list and two level files that include each other.
fn bad_files_folder() -> TempDir {
    let dir = TempDir::new("levelxml-bad");
    std::fs::write(
        dir.join("level-list.xml"),
        "<category-listing version=\"1\"/>",
    )
    .unwrap();
    file(
        &dir,
        "inc/a.xml",
        "<values>\n<include file=\"inc/b\"/>\n</values>\n",
    );
    file(
        &dir,
        "inc/b.xml",
        "<values>\n<include file=\"inc/a\"/>\n</values>\n",
    );
    dir
}

/// Bad level files: name, text, and the place and message their error must give.
fn bad_cases() -> Vec<(&'static str, String, &'static str)> {
    let values =
        |v: &str| format!("{HEAD}<values>\n{v}\n<var id=\"objective\" val=\"1\"/>\n</values>\n");
    vec![
        (
            "unknown.xml",
            format!("{HEAD}<graf/>\n"),
            ":5:1: unknown element <graf>",
        ),
        (
            "hex.xml",
            "<colors>\n  <color color=\"red\" name=\"red\"/>\n</colors>\n".into(),
            ":2:10: bad color `red`",
        ),
        (
            "missing.xml",
            format!("{HEAD}<graph>\n<vertex id=\"a\"/>\n<edge v1=\"a\"/>\n</graph>\n"),
            ":7:1: <edge> is missing the required attribute `v2`",
        ),
        (
            "vertex.xml",
            format!("{HEAD}<graph>\n<vertex id=\"a\"/>\n<edge v1=\"a\" v2=\"z\"/>\n</graph>\n"),
            ":7:14: edge to unknown vertex `z`",
        ),
        (
            "duplicate.xml",
            format!("{HEAD}<graph>\n<vertex id=\"a\"/>\n<vertex id=\"a\"/>\n</graph>\n"),
            ":7:9: duplicate vertex id `a`",
        ),
        (
            "color.xml",
            format!("{HEAD}<graph>\n<vertex color=\"blue\"/>\n</graph>\n"),
            ":6:9: unknown color `blue`",
        ),
        (
            "divide.xml",
            values("<op id=\"points\" op=\"/\" val1=\"1\" val2=\"0\"/>"),
            ":6:1: division by zero (`/`) computing `points`",
        ),
        (
            "undefined.xml",
            values("<var id=\"points\" val=\"score\"/>"),
            ":6:1: undefined name `score`",
        ),
        (
            "self.xml",
            values("<op id=\"points\" op=\"+\" val1=\"points\" val2=\"1\"/>"),
            ":6:1: self-referencing value: points -> points",
        ),
        (
            "list.xml",
            values("<op id=\"points\" op=\"+\" val1=\"edges\" val2=\"1\"/>"),
            ":6:1: `edges` is a list where a number is expected",
        ),
        (
            "cycle.xml",
            values("<include file=\"inc/a\"/>"),
            "b.xml:2:1: include cycle:",
        ),
        (
            "syntax.xml",
            format!("{HEAD}<rules>\n<connected/>\n"),
            ":5:1: XML syntax",
        ),
    ]
}

#[test]
fn bad_files_give_one_line_with_their_place() {
    let dir = bad_files_folder();
    let cases = bad_cases();
    for (name, text, want) in &cases {
        let path = file(&dir, name, text);
        let out = warren(["levelxml".as_ref(), "eval".as_ref(), path.as_os_str()]);
        assert_eq!(exit_code(&out), 2, "{name}: {}", stderr(&out));
        assert_one_line_error(&out, name);
        let err = stderr(&out);
        assert!(err.contains(want), "{name}: want `{want}` in {err}");
        if !want.starts_with("b.xml") {
            assert!(
                err.contains(&format!("{}{want}", path.display())),
                "{name}: {err}"
            );
        }
    }
}

/// `check` reports every bad file with its place and carries on.
#[test]
fn check_reports_every_bad_file_and_carries_on() {
    let dir = bad_files_folder();
    let cases = bad_cases();
    let values =
        |v: &str| format!("{HEAD}<values>\n{v}\n<var id=\"objective\" val=\"1\"/>\n</values>\n");
    for (name, text, _) in &cases {
        file(&dir, name, text);
    }
    let good = file(&dir, "good.xml", &values("<var id=\"points\" val=\"1\"/>"));
    let mut args: Vec<PathBuf> = vec!["levelxml".into(), "check".into(), good.clone()];
    args.extend(cases.iter().map(|(name, _, _)| dir.join(name)));
    let out = warren(&args);
    assert_eq!(exit_code(&out), 1);
    let err = stderr(&out);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err.lines().count(), cases.len() + 1, "{err}");
    assert!(
        err.ends_with(&format!("{} file(s) with errors\n", cases.len())),
        "{err}"
    );
    assert!(stdout(&out).starts_with(&format!("{}: ok", good.display())));
}

#[test]
fn a_missing_level_file_is_one_line() {
    let out = warren(["levelxml", "eval", "/nonexistent/level.xml"]);
    assert_eq!(exit_code(&out), 2);
    assert_one_line_error(&out, "missing file");
    assert!(stderr(&out).contains("/nonexistent/level.xml: cannot read"));
}
