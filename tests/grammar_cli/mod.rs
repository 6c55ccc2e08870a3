//! Graph-grammar levels (seed 000) end to end: `warren grammar check` accepts every built-in rule
//! set and names the rule, vertex, line and column of each broken validation rule; demirogue
//! rulesets import to rule files that check; `generate grammar` writes archives that verify,
//! whose rooms never overlap, and that depend on neither threads nor shards; and `verify`
//! rejects grammar levels with overlapping rooms, split corridors or too many corridors at a
//! vertex.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use arrow_array::types::{Float32Type, Int32Type, UInt16Type, UInt32Type};
use warren::archive::{
    Archive, ArchiveColumns, ArchiveWriter, BatchView, ChunkBuilder, FOOTER_BATCH_CRC32, RunMeta,
};
use warren::core::graph::edge_flag;
use warren::grammar::library::{self, BUILTINS};
use warren::grammar::{GrammarConfig, GrammarGenerator};
use warren::{Generator, GraphView, GridView, Level, LevelRecord, RoomsView};

use crate::common::{
    TempDir, assert_one_line_error, assert_same_rows, assert_verifies, batches, column_u32,
    column_u64, exit_code, generate_kind, list_column, rows_of, stderr, stdout, warren, warren_bin,
    warren_fails,
};

// ---------------------------------------------------------------------------------------------
// Helpers

/// A valid start rule (lines 1-8). Every test rule file begins with it, so that only the rule
/// under test is wrong.
const START: &str = "rule start
pattern
  S: s @ 0, 0
substitute
  S: a @ 0, 0
  T: b @ 100, 0
  S - T
end

";

/// A small demirogue ruleset in its Lua format (a start rule, a growth rule and an empty
/// placeholder), so that the importer is exercised without demirogue's own files.
const LUA_RULES: &str = r#"return {
  { leftGraph = { vertices = { { x = 0, y = 0, tags = { s = true } } }, edges = {} },
    rightGraph = { vertices = { { x = 0, y = 0, tag = "a" }, { x = 100, y = 0, tag = "a" } }, edges = { { 1, 2 } } },
    map = { 1 } },
  { leftGraph = { vertices = { { x = 0, y = 0, tags = { a = true } }, { x = 100, y = 0, tags = { a = true } } }, edges = { { 1, 2 } } },
    rightGraph = { vertices = { { x = 0, y = 0, tag = "a" }, { x = 100, y = 0, tag = "a" }, { x = 50, y = 80, tag = "b" } }, edges = { { 1, 3 }, { 3, 2 } } },
    map = { 1, 2 } },
  { leftGraph = { vertices = {}, edges = {} }, rightGraph = { vertices = {}, edges = {} }, map = {} },
}
"#;

/// The folder of demirogue's original rule files, beside the repository (not part of it), or
/// `None` (with a note) when it is absent, as when the repository is checked out alone: the
/// caller then skips.
fn demirogue_originals() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/demirogue-rulesets");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipped: {} not present", dir.display());
        None
    }
}

/// Writes `text` as `name` in `dir`; returns the path as the CLI will print it.
fn rule_file(dir: &TempDir, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// Runs `warren grammar check rules`.
fn check(rules: &str) -> Output {
    warren(["grammar", "check", rules])
}

/// `line:col` (1-based) of the first non-blank character of the first line of `text` that
/// contains `needle`.
fn place_of(text: &str, needle: &str) -> String {
    let (i, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains(needle))
        .unwrap_or_else(|| panic!("`{needle}` is not in the rule file"));
    let col = line.len() - line.trim_start().len() + 1;
    format!("{}:{col}", i + 1)
}

/// The stderr line of `out` that contains every string of `mentions`.
fn line_with<'a>(err: &'a str, mentions: &[&str]) -> &'a str {
    err.lines()
        .find(|l| mentions.iter().all(|m| l.contains(m)))
        .unwrap_or_else(|| panic!("no stderr line mentions all of {mentions:?}: {err}"))
}

/// One broken rule `bad` (after [`START`]) and what `grammar check` must say about it.
struct Broken<'a> {
    /// File name in the temp dir.
    file: &'a str,
    /// The rule's text.
    rule: &'a str,
    /// The vertex the error must name, if it is about one.
    vertex: Option<&'a str>,
    /// A piece of the line the error must point at (its first non-blank column).
    at: &'a str,
    /// Words the error message must contain.
    mentions: &'a [&'a str],
}

/// Asserts `grammar check` exits 1 without panicking and prints `file:line:col: error: rule
/// `bad`, vertex `V`: ...` with the expected place, vertex and words. Returns stderr.
fn assert_rejected(b: &Broken<'_>) -> String {
    let dir = TempDir::new("gram-broken");
    let text = format!("{START}{}", b.rule);
    let path = rule_file(&dir, b.file, &text);
    let output = check(&path);
    let err = stderr(&output);
    assert!(!err.contains("panicked"), "{}: panicked: {err}", b.file);
    assert_eq!(exit_code(&output), 1, "{}: {err}", b.file);
    let mut mentions = vec!["error:", "rule `bad`"];
    let vertex = b.vertex.map(|v| format!("vertex `{v}`"));
    mentions.extend(vertex.as_deref());
    mentions.extend(b.mentions);
    let line = line_with(&err, &mentions);
    let place = format!("{path}:{}: error:", place_of(&text, b.at));
    assert!(
        line.starts_with(&place),
        "{}: error does not start with `{place}`: {line}",
        b.file
    );
    err
}

/// Runs `warren generate grammar` plus `args` (with `--out` in `dir`) and expects exit 2, one
/// line `error: ...` naming every string of `mentions`, and no output file.
fn generate_fails(dir: &TempDir, args: &[&str], mentions: &[&str]) -> String {
    let out = dir.join("out.arrow");
    let mut all = vec!["generate", "grammar", "--count", "5", "--quiet"];
    all.extend(args);
    all.extend(["--out", out.to_str().unwrap()]);
    let err = warren_fails(&all, mentions);
    assert!(!out.exists(), "warren {all:?}: wrote {}", out.display());
    let tmp = dir.join("out.arrow.tmp");
    assert!(!tmp.exists(), "warren {all:?}: left {}", tmp.display());
    err
}

/// The profile file `name` of this crate.
fn profile(name: &str) -> String {
    format!("{}/profiles/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Whether the half-open rectangles `[x0, x1) x [y0, y1)` of rooms `a` and `b` overlap (an
/// empty rectangle overlaps nothing).
fn rooms_overlap(r: &[Vec<i32>; 4], a: usize, b: usize) -> bool {
    let [x0, y0, x1, y1] = r;
    let empty = |v: usize| x0[v] == x1[v] || y0[v] == y1[v];
    !empty(a) && !empty(b) && x0[a] < x1[b] && x0[b] < x1[a] && y0[a] < y1[b] && y0[b] < y1[a]
}

// ---------------------------------------------------------------------------------------------
// 1. `grammar check` on good files, syntax errors and unreadable paths

#[test]
fn check_accepts_every_builtin_rule_set() {
    let listed = stdout(&warren(["grammar", "list"]));
    for b in BUILTINS {
        assert!(
            listed
                .lines()
                .any(|l| l.split_whitespace().next() == Some(b.name)),
            "`grammar list` does not list {}: {listed}",
            b.name
        );
        let output = check(b.name);
        let (out, err) = (stdout(&output), stderr(&output));
        assert_eq!(exit_code(&output), 0, "check {}: {out}{err}", b.name);
        let grammar = library::load(b.name).unwrap();
        let summary = format!(
            "{}: {} rules, {} tags, 0 error(s)",
            b.name,
            grammar.rules.len(),
            grammar.tags.len()
        );
        assert!(
            out.contains(&summary),
            "check {}: no `{summary}` in {out}",
            b.name
        );
    }
}

#[test]
fn check_points_at_a_syntax_error() {
    let dir = TempDir::new("gram-syntax");
    // Line 5 lacks the comma between x and y: the parser finds `0` at column 12.
    let text = START.replacen("  S: a @ 0, 0", "  S: a @ 0 0", 1);
    let path = rule_file(&dir, "syntax.grammar", &text);
    let output = check(&path);
    let err = stderr(&output);
    assert!(!err.contains("panicked"), "panicked: {err}");
    assert_eq!(exit_code(&output), 1, "{err}");
    let line = line_with(&err, &[&format!("{path}:5:12: error:")]);
    assert!(
        line.contains("rule `start`") && line.contains("`,`"),
        "the error does not say what was expected where: {line}"
    );
}

#[test]
fn check_of_an_unreadable_path_is_a_one_line_error() {
    let dir = TempDir::new("gram-unreadable");
    let missing = dir.join("missing.grammar");
    let folder = dir.join("folder.grammar");
    std::fs::create_dir(&folder).unwrap();
    for path in [missing, folder] {
        let path = path.to_str().unwrap();
        let output = check(path);
        let what = format!("grammar check {path}");
        assert_eq!(exit_code(&output), 2, "{what}: {}", stderr(&output));
        assert_one_line_error(&output, &what);
        assert!(
            stderr(&output).contains(path),
            "{what}: {}",
            stderr(&output)
        );
    }
}

/// Regression guard: printing with `println!` into a pipe whose reader has gone (`warren grammar
/// list | head -0`) panicked with "failed printing to stdout: Broken pipe" and exit 101.
#[test]
fn grammar_output_into_a_closed_pipe_does_not_panic() {
    let dir = TempDir::new("gram-pipe");
    let lua = rule_file(&dir, "rules.lua", LUA_RULES);
    let commands: [&[&str]; 3] = [
        &["grammar", "list"],
        &["grammar", "show", "dungeon"],
        &["grammar", "import", &lua],
    ];
    for args in commands {
        // The reading end is closed before the child starts: every write fails with EPIPE.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let output = Command::new(warren_bin())
            .args(args)
            .stdout(Stdio::from(writer))
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let err = stderr(&output);
        assert!(
            !err.contains("panicked") && output.status.code() != Some(101),
            "warren {args:?} into a closed pipe panicked ({:?}): {err}",
            output.status
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 2. Each validation rule, broken once

#[test]
fn check_rejects_a_one_vertex_pattern_not_tagged_s() {
    assert_rejected(&Broken {
        file: "one_vertex.grammar",
        rule: "rule bad\npattern\n  A: a @ 0, 0\nsubstitute\n  A: b @ 0, 0\nend\n",
        vertex: Some("A"),
        at: "  A: a @ 0, 0",
        mentions: &["one-vertex", "`s`"],
    });
}

#[test]
fn check_rejects_s_in_a_substitute() {
    assert_rejected(&Broken {
        file: "s_in_substitute.grammar",
        rule: "rule bad\npattern\n  A: a @ 0, 0\n  B: b @ 100, 0\n  A - B\n\
               substitute\n  A: * @ 0, 0\n  B: * @ 100, 0\n  C: s @ 50, 50\n  A - B\n  B - C\nend\n",
        vertex: Some("C"),
        at: "  C: s @ 50, 50",
        mentions: &["`s`"],
    });
}

#[test]
fn check_rejects_s_in_a_multi_vertex_pattern() {
    assert_rejected(&Broken {
        file: "s_in_pattern.grammar",
        rule: "rule bad\npattern\n  A: s @ 0, 0\n  B: b @ 100, 0\n  A - B\n\
               substitute\n  A: a @ 0, 0\n  B: * @ 100, 0\n  A - B\nend\n",
        vertex: Some("A"),
        at: "  A: s @ 0, 0",
        mentions: &["`s`", "start rule"],
    });
}

#[test]
fn check_rejects_a_pattern_that_is_not_connected() {
    assert_rejected(&Broken {
        file: "disconnected.grammar",
        rule: "rule bad\npattern\n  A: a @ 0, 0\n  B: b @ 100, 0\n\
               substitute\n  A: * @ 0, 0\n  B: * @ 100, 0\n  A - B\nend\n",
        vertex: None,
        at: "rule bad",
        mentions: &["pattern", "not connected"],
    });
}

#[test]
fn check_rejects_a_substitute_that_would_split_the_corridors() {
    // `A - B` is a corridor in the pattern; the substitute keeps them joined only by a
    // cosmetic edge, so a rewrite could cut the level in two.
    assert_rejected(&Broken {
        file: "split.grammar",
        rule: "rule bad\npattern\n  A: a @ 0, 0\n  B: b @ 100, 0\n  A - B\n\
               substitute\n  A: * @ 0, 0\n  B: * @ 100, 0\n  A - B cosmetic\nend\n",
        vertex: None,
        at: "rule bad",
        mentions: &["`A`", "`B`", "split"],
    });
}

#[test]
fn check_rejects_a_pattern_vertex_without_a_namesake() {
    // The map is implicit (same names): a pattern vertex `B` with no substitute `B` is a
    // syntax-level error of the format, reported at the pattern vertex.
    let err = assert_rejected(&Broken {
        file: "not_total.grammar",
        rule: "rule bad\npattern\n  A: a @ 0, 0\n  B: b @ 100, 0\n  A - B\n\
               substitute\n  A: * @ 0, 0\n  C: b @ 100, 0\n  A - C\nend\n",
        vertex: Some("B"),
        at: "  B: b @ 100, 0",
        mentions: &["same name"],
    });
    assert!(
        err.contains("syntax error"),
        "no syntax-error summary: {err}"
    );
}

#[test]
fn check_rejects_a_file_without_a_start_rule() {
    let dir = TempDir::new("gram-nostart");
    let text = "rule grow\npattern\n  A: a @ 0, 0\n  B: b @ 100, 0\n  A - B\n\
                substitute\n  A: * @ 0, 0\n  B: * @ 100, 0\n  C: a @ 50, 50\n  A - B\n  B - C\nend\n";
    let path = rule_file(&dir, "no_start.grammar", text);
    let output = check(&path);
    let err = stderr(&output);
    assert!(!err.contains("panicked"), "panicked: {err}");
    assert_eq!(exit_code(&output), 1, "{err}");
    line_with(&err, &[&path, "error:", "no start rule"]);
    assert!(
        stdout(&output).contains("1 error(s)"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn check_rejects_star_on_a_fresh_substitute_vertex() {
    assert_rejected(&Broken {
        file: "star_fresh.grammar",
        rule: "rule bad\npattern\n  A: a @ 0, 0\n  B: b @ 100, 0\n  A - B\n\
               substitute\n  A: * @ 0, 0\n  B: * @ 100, 0\n  C: * @ 50, 50\n  A - B\n  B - C\nend\n",
        vertex: Some("C"),
        at: "  C: * @ 50, 50",
        mentions: &["`*`"],
    });
}

#[test]
fn check_warns_about_a_knot_but_passes() {
    let dir = TempDir::new("gram-knot");
    // A - C joins two mapped vertices whose pattern vertices are not adjacent.
    let text = format!(
        "{START}rule knot\npattern\n  A: a @ 0, 0\n  B: b @ 100, 0\n  C: b @ 200, 0\n  A - B\n  B - C\n\
         substitute\n  A: * @ 0, 0\n  B: * @ 100, 0\n  C: * @ 200, 0\n  A - B\n  B - C\n  A - C\nend\n"
    );
    let path = rule_file(&dir, "knot.grammar", &text);
    let output = check(&path);
    let err = stderr(&output);
    assert_eq!(exit_code(&output), 0, "a knot is only a warning: {err}");
    let line = line_with(&err, &["warning:", "rule `knot`", "knot"]);
    let place = format!("{path}:{}: warning:", place_of(&text, "  A - C"));
    assert!(line.starts_with(&place), "no `{place}` in {line}");
    assert!(!err.contains("error:"), "{err}");
    assert!(
        stdout(&output).contains("0 error(s), 1 warning(s)"),
        "{}",
        stdout(&output)
    );
}

// ---------------------------------------------------------------------------------------------
// 3. `grammar import`

#[test]
fn imported_demirogue_ruleset_checks_and_writes_atomically() {
    let dir = TempDir::new("gram-import");
    let lua = rule_file(&dir, "rules.lua", LUA_RULES);
    let printed = warren(["grammar", "import", &lua]);
    assert_eq!(exit_code(&printed), 0, "{}", stderr(&printed));
    let text = stdout(&printed);
    assert!(
        text.starts_with("grammar \"demirogue rules\"\ntags s a b\n"),
        "not named after the file, or other tags: {text}"
    );
    assert!(
        text.contains("\nrule \"rule 1\" ") && text.contains("\nrule \"rule 2\" "),
        "rules not named after their place: {text}"
    );
    assert!(
        stderr(&printed).contains("skipped 1 empty placeholder rule"),
        "{}",
        stderr(&printed)
    );
    let saved = rule_file(&dir, "rules.grammar", &text);

    // The saved file checks clean, with the ruleset's two rules and three tags.
    let output = check(&saved);
    assert_eq!(exit_code(&output), 0, "{}", stderr(&output));
    let counts = "2 rules, 3 tags, 0 error(s), 0 warning(s)";
    assert!(
        stdout(&output).contains(counts),
        "expected `{counts}`: {}",
        stdout(&output)
    );

    // `--out` writes the same text through a temp file that does not survive.
    let out = dir.join("out.grammar");
    let written = warren(["grammar", "import", &lua, "--out", out.to_str().unwrap()]);
    assert_eq!(exit_code(&written), 0, "{}", stderr(&written));
    assert!(stdout(&written).is_empty(), "--out also printed the rules");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    let leftovers: Vec<PathBuf> = std::fs::read_dir(dir.join(""))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "left behind: {leftovers:?}");

    // A folder that does not exist: one-line error, nothing written.
    let nowhere = dir.join("no/such/folder/x.grammar");
    let failed = warren([
        "grammar",
        "import",
        &lua,
        "--out",
        nowhere.to_str().unwrap(),
    ]);
    assert_eq!(exit_code(&failed), 2, "{}", stderr(&failed));
    assert_one_line_error(&failed, "grammar import --out into a missing folder");
}

/// The shipped `data/demirogue/*.grammar` files are exactly what `warren grammar import` makes of
/// demirogue's originals, so the translations cannot drift from the files they translate (nor
/// the importer from the translations). Skipped when the originals are absent.
#[test]
fn shipped_demirogue_translations_are_what_import_makes() {
    let Some(originals) = demirogue_originals() else {
        return;
    };
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/demirogue");
    let mut names: Vec<String> = std::fs::read_dir(&originals)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "lua"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "catacomb", "default", "quads", "silly", "spiral", "test", "tree"
        ]
    );
    for name in &names {
        let lua = originals.join(format!("{name}.lua"));
        let imported = warren(["grammar".as_ref(), "import".as_ref(), lua.as_os_str()]);
        assert_eq!(exit_code(&imported), 0, "{name}: {}", stderr(&imported));
        let translation = shipped.join(format!("{name}.grammar"));
        let text = std::fs::read_to_string(&translation)
            .unwrap_or_else(|e| panic!("{}: {e}", translation.display()));
        assert!(
            stdout(&imported) == text,
            "{} is not `warren grammar import {}`; re-import it",
            translation.display(),
            lua.display()
        );
        // The built-in of that name is the shipped file.
        let builtin = BUILTINS
            .iter()
            .find(|b| b.name == format!("demirogue/{name}"))
            .unwrap_or_else(|| panic!("no built-in demirogue/{name}"));
        assert_eq!(builtin.text(), text, "built-in demirogue/{name}");
    }
}

// ---------------------------------------------------------------------------------------------
// 4. `generate grammar`: columns, metadata, rooms, rule uses

#[test]
fn generated_grammar_levels_verify_and_rooms_never_overlap() {
    let dir = TempDir::new("gram-gen");
    let path = dir.join("levels.arrow");
    generate_kind("grammar", &path, &["--count", "120", "--seed", "5"]);
    assert_verifies(&path);

    let archive = Archive::open(&path).unwrap();
    for name in [
        "vertex_tag",
        "room_x0",
        "room_y0",
        "room_x1",
        "room_y1",
        "rule_uses",
    ] {
        assert!(
            archive.schema().field_with_name(name).is_ok(),
            "no column `{name}`"
        );
    }
    let cyclic = library::load("cyclic").unwrap();
    let rule_names: Vec<String> = cyclic.rules.iter().map(|r| r.name.clone()).collect();
    let run = RunMeta::from_archive(&archive).unwrap();
    assert_eq!(run.tags, cyclic.tags.names());
    assert_eq!(run.rules, rule_names);

    // The oracle itself: a room overlaps a copy of itself, not its neighbour across an edge.
    let probe = [vec![0, 0, 4], vec![0, 0, 0], vec![4, 4, 6], vec![4, 4, 4]];
    assert!(rooms_overlap(&probe, 0, 1) && !rooms_overlap(&probe, 1, 2));

    let index = column_u64(&path, "index");
    // A seed may fail (below min_vertices); nearly all must not.
    assert!(index.len() >= 100, "only {} of 120 levels", index.len());
    let vertex_x = list_column::<Float32Type>(&path, "vertex_x");
    let tags = list_column::<UInt16Type>(&path, "vertex_tag");
    let [x0, y0, x1, y1] =
        ["room_x0", "room_y0", "room_x1", "room_y1"].map(|c| list_column::<Int32Type>(&path, c));
    let uses = list_column::<UInt32Type>(&path, "rule_uses");
    let rewrites = column_u32(&path, "rewrites");
    let cycle_rank = column_u32(&path, "cycle_rank");
    // The default rules make loops: the start-goal cycle at least.
    assert!(
        cycle_rank.iter().all(|&c| c >= 1),
        "a default level without a loop: {cycle_rank:?}"
    );
    for (l, &i) in index.iter().enumerate() {
        let n = vertex_x[l].len();
        let rooms = [&x0[l], &y0[l], &x1[l], &y1[l]].map(|c| c.clone());
        assert!(
            rooms.iter().all(|c| c.len() == n) && tags[l].len() == n,
            "level {i}: rooms or tags are not one per vertex"
        );
        assert!(
            tags[l].iter().all(|&t| (t as usize) < cyclic.tags.len()),
            "level {i}: tag out of range"
        );
        let real = (0..n)
            .filter(|&v| rooms[0][v] < rooms[2][v] && rooms[1][v] < rooms[3][v])
            .count();
        assert!(real >= 2, "level {i}: {real} rooms, nothing to overlap");
        for a in 0..n {
            for b in a + 1..n {
                assert!(
                    !rooms_overlap(&rooms, a, b),
                    "level {i}: rooms {a} and {b} overlap: {:?} {:?}",
                    rooms.iter().map(|c| c[a]).collect::<Vec<_>>(),
                    rooms.iter().map(|c| c[b]).collect::<Vec<_>>()
                );
            }
        }
        assert_eq!(uses[l].len(), rule_names.len(), "level {i}: rule_uses");
        let sum: u32 = uses[l].iter().sum();
        assert_eq!(
            sum, rewrites[l],
            "level {i}: rule uses do not add up to rewrites"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 5. Determinism

/// Small runs with many chunks, so scheduling has room to reorder work. An odd count so the
/// shards differ in size.
const DETERMINISM: [&str; 6] = ["--count", "31", "--seed", "11", "--chunk-size", "3"];

#[test]
fn grammar_levels_are_the_same_with_one_and_two_threads() {
    let dir = TempDir::new("gram-threads");
    let (one, two) = (dir.join("t1.arrow"), dir.join("t2.arrow"));
    generate_kind(
        "grammar",
        &one,
        &[&DETERMINISM[..], &["--threads", "1"]].concat(),
    );
    generate_kind(
        "grammar",
        &two,
        &[&DETERMINISM[..], &["--threads", "2"]].concat(),
    );
    let (h1, h2) = (
        column_u64(&one, "layout_hash"),
        column_u64(&two, "layout_hash"),
    );
    assert!(h1.len() >= 25, "only {} levels", h1.len());
    assert_eq!(h1, h2, "layout hashes differ between --threads 1 and 2");
    let expected = rows_of(&[&one]);
    assert!(expected.0.iter().any(|n| n == "rule_uses"));
    assert_same_rows(&rows_of(&[&two]), &expected);
    assert!(
        std::fs::read(&one).unwrap() == std::fs::read(&two).unwrap(),
        "--threads 1 and --threads 2 wrote different bytes"
    );
}

#[test]
fn grammar_shards_concatenate_to_the_unsharded_run() {
    let dir = TempDir::new("gram-shards");
    let (whole, s0, s1) = (
        dir.join("whole.arrow"),
        dir.join("s0.arrow"),
        dir.join("s1.arrow"),
    );
    generate_kind("grammar", &whole, &DETERMINISM);
    generate_kind(
        "grammar",
        &s0,
        &[&DETERMINISM[..], &["--shard", "0/2"]].concat(),
    );
    generate_kind(
        "grammar",
        &s1,
        &[&DETERMINISM[..], &["--shard", "1/2"]].concat(),
    );
    let (i0, i1) = (column_u64(&s0, "index"), column_u64(&s1, "index"));
    assert!(!i0.is_empty() && !i1.is_empty(), "a shard is empty");
    assert!(
        i0.last() < i1.first(),
        "shard 0 does not come before shard 1"
    );
    assert_eq!([i0, i1].concat(), column_u64(&whole, "index"));
    assert_same_rows(&rows_of(&[&s0, &s1]), &rows_of(&[&whole]));
    for shard in [&s0, &s1] {
        assert_verifies(shard);
    }
}

// ---------------------------------------------------------------------------------------------
// 6. Profiles and `--set`

#[test]
fn demirogue_profile_with_the_catacomb_ruleset_verifies() {
    let dir = TempDir::new("gram-demirogue");
    let path = dir.join("catacomb.arrow");
    generate_kind(
        profile("grammar-demirogue.toml"),
        &path,
        &[
            "--set",
            "grammar.rules=demirogue/catacomb",
            "--count",
            "100",
        ],
    );
    assert_verifies(&path);
    let catacomb = library::load("demirogue/catacomb").unwrap();
    let expected: Vec<String> = catacomb.rules.iter().map(|r| r.name.clone()).collect();
    let archive = Archive::open(&path).unwrap();
    let rules = RunMeta::from_archive(&archive).unwrap().rules;
    assert_eq!(rules, expected, "the catacomb rules were not used");
    let uses = list_column::<UInt32Type>(&path, "rule_uses");
    assert!(!uses.is_empty());
    assert!(uses.iter().all(|u| u.len() == expected.len()));
    // The profile's own limits still hold (max_vertices = 20).
    let vertices = column_u32(&path, "vertices");
    assert!(
        vertices.iter().all(|&v| (2..=20).contains(&v)),
        "{vertices:?}"
    );
}

/// demirogue's `silly` (a triangle on an edge, again and again, up to valence 8) is the densest
/// of seed 000's rulesets. Regression: 15% of its seeds failed (rewrites that put a new room on
/// an old one, then maps too large or corridors that did not fit); at least 99% now become
/// levels, every one crossing-free, and the maps whose corridors did not fit at first were
/// drawn again spread out.
#[test]
fn demirogue_silly_levels_nearly_all_succeed_and_never_cross() {
    let dir = TempDir::new("gram-silly");
    let path = dir.join("silly.arrow");
    let count = 400;
    generate_kind(
        profile("grammar-demirogue.toml"),
        &path,
        &[
            "--set",
            "grammar.rules=demirogue/silly",
            "--count",
            &count.to_string(),
        ],
    );
    assert_verifies(&path);
    let levels = column_u32(&path, "vertices").len();
    assert!(
        levels * 100 >= count * 99,
        "{levels} of {count} seeds became levels"
    );
    assert!(
        column_u32(&path, "self_intersecting")
            .iter()
            .all(|&c| c == 0)
    );
    assert!(
        column_u32(&path, "map_spreads").iter().any(|&s| s > 0),
        "no map was drawn spread out"
    );
}

#[test]
fn unknown_rule_set_is_a_one_line_error_naming_it() {
    let dir = TempDir::new("gram-nope");
    generate_fails(&dir, &["--set", "grammar.rules=nope"], &["nope"]);
}

/// Regression guard: the OS error of an unreadable rule file was printed twice
/// (`...: cannot read: No such file or directory (os error 2): No such file or directory (os
/// error 2)`), once from `GrammarError::Read`'s message and once from its `source`.
#[test]
fn unknown_rule_set_error_gives_its_cause_once() {
    let dir = TempDir::new("gram-nope-once");
    let err = generate_fails(&dir, &["--set", "grammar.rules=nope"], &["nope"]);
    assert_eq!(
        err.matches("os error").count(),
        1,
        "the cause is repeated: {err}"
    );
}

#[test]
fn room_margin_below_one_is_rejected_naming_the_key() {
    let dir = TempDir::new("gram-margin");
    generate_fails(
        &dir,
        &["--set", "grammar.room_margin=0.5"],
        &["grammar.room_margin", "0.5"],
    );
}

#[test]
fn bad_tile_map_settings_are_one_line_errors_naming_the_key() {
    let dir = TempDir::new("gram-map-settings");
    // A bound smaller than the largest room of the rules with its wall and border.
    generate_fails(
        &dir,
        &["--set", "grammar.max_grid=[12, 300]"],
        &["grammar.max_grid", "too small", "at least"],
    );
    generate_fails(
        &dir,
        &["--set", "grammar.max_grid=[0, 10]"],
        &["grammar.max_grid"],
    );
    generate_fails(
        &dir,
        &["--set", "grammar.corridor_width=0"],
        &["grammar.corridor_width", "0"],
    );
    generate_fails(
        &dir,
        &["--set", "grammar.upscale=4.5"],
        &["grammar.upscale", "4.5", "1..=4"],
    );
    generate_fails(
        &dir,
        &["--set", "grammar.tile_size=2"],
        &["grammar.room_margin", "grammar.tile_size"],
    );
}

/// A bound a level's map does not fit fails those seeds by reason; nothing half-made is written.
#[test]
fn levels_whose_map_is_over_the_bound_fail_their_seed_by_reason() {
    let dir = TempDir::new("gram-map-bound");
    let out = dir.join("small.arrow");
    let output = warren([
        "generate",
        "grammar",
        "--count",
        "6",
        "--set",
        "grammar.max_grid=[40, 40]",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(exit_code(&output), 0, "{}", stderr(&output));
    assert!(
        stderr(&output).contains("map over max_grid"),
        "{}",
        stderr(&output)
    );
}

// ---------------------------------------------------------------------------------------------
// 7. `verify` catches broken grammar levels

/// A grammar level copied out of an archive, to be damaged and written back.
#[derive(Clone, Debug)]
struct OwnedLevel {
    index: u64,
    seed: u64,
    x: Vec<f32>,
    y: Vec<f32>,
    tag: Vec<u16>,
    src: Vec<u32>,
    dst: Vec<u32>,
    flags: Vec<u8>,
    /// `x0, y0, x1, y1`.
    rooms: [Vec<i32>; 4],
    rule_uses: Vec<u32>,
    metrics: Vec<f64>,
    /// The tile map: width, height, cells.
    grid: (u32, u32, Vec<u8>),
}

impl OwnedLevel {
    fn from_record(r: &LevelRecord<'_>) -> Self {
        let g = r.level.graph.expect("a graph");
        let rooms = r.level.rooms.expect("rooms");
        Self {
            index: r.index,
            seed: r.seed,
            x: g.x.to_vec(),
            y: g.y.to_vec(),
            tag: g.tag.to_vec(),
            src: g.src.to_vec(),
            dst: g.dst.to_vec(),
            flags: g.flags.to_vec(),
            rooms: [rooms.x0, rooms.y0, rooms.x1, rooms.y1].map(<[i32]>::to_vec),
            rule_uses: r.level.rule_uses.to_vec(),
            metrics: r.level.metrics.to_vec(),
            grid: r
                .level
                .grid
                .map(|g| (g.width, g.height, g.cells.to_vec()))
                .expect("a tile map"),
        }
    }

    fn record(&self) -> LevelRecord<'_> {
        let [x0, y0, x1, y1] = &self.rooms;
        LevelRecord {
            index: self.index,
            seed: self.seed,
            level: Level {
                graph: Some(GraphView {
                    x: &self.x,
                    y: &self.y,
                    tag: &self.tag,
                    src: &self.src,
                    dst: &self.dst,
                    flags: &self.flags,
                }),
                rooms: Some(RoomsView { x0, y0, x1, y1 }),
                grid: Some(GridView {
                    width: self.grid.0,
                    height: self.grid.1,
                    cells: &self.grid.2,
                }),
                rule_uses: &self.rule_uses,
                metrics: &self.metrics,
                ..Level::default()
            },
        }
    }

    /// Vertices with a non-empty room.
    fn rooms(&self) -> Vec<usize> {
        let [x0, y0, x1, y1] = &self.rooms;
        (0..self.x.len())
            .filter(|&v| x0[v] < x1[v] && y0[v] < y1[v])
            .collect()
    }

    /// A room with exactly one corridor, if there is one.
    fn dead_end(&self) -> Option<usize> {
        self.rooms().into_iter().find(|&v| {
            (0..self.src.len())
                .filter(|&e| self.flags[e] & edge_flag::COSMETIC == 0)
                .filter(|&e| self.src[e] as usize == v || self.dst[e] as usize == v)
                .count()
                == 1
        })
    }

    /// Moves room `b` exactly onto room `a`.
    fn stack_rooms(&mut self, a: usize, b: usize) {
        for side in &mut self.rooms {
            side[b] = side[a];
        }
    }

    /// Turns every corridor at `v` into a cosmetic edge: `v`'s room is cut off from the rest.
    fn cut_off(&mut self, v: usize) {
        for e in 0..self.src.len() {
            if self.src[e] as usize == v || self.dst[e] as usize == v {
                self.flags[e] |= edge_flag::COSMETIC;
            }
        }
    }

    /// Adds corridors from `v` to the other rooms, round robin, until `v` has `valence` edges.
    fn raise_valence(&mut self, v: usize, valence: usize) {
        let others: Vec<usize> = self.rooms().into_iter().filter(|&w| w != v).collect();
        let degree = |l: &Self| {
            l.src
                .iter()
                .zip(&l.dst)
                .filter(|&(&a, &b)| a as usize == v || b as usize == v)
                .count()
        };
        for &w in others
            .iter()
            .cycle()
            .take(valence.saturating_sub(degree(self)))
        {
            self.src.push(v as u32);
            self.dst.push(w as u32);
            self.flags.push(0);
        }
        assert_eq!(degree(self), valence);
    }
}

/// Every level of the archive at `path`, read with `generator`'s columns.
fn owned_levels(path: &Path, generator: &GrammarGenerator) -> Vec<OwnedLevel> {
    let columns = ArchiveColumns::from(generator.columns());
    let mut metrics = Vec::new();
    let mut out = Vec::new();
    for batch in batches(path) {
        let view = BatchView::new(&batch, &columns).unwrap();
        for row in 0..view.rows() {
            out.push(OwnedLevel::from_record(&view.record(
                row,
                &mut metrics,
                &mut Vec::new(),
            )));
        }
    }
    out
}

/// Writes `levels` as an archive at `to` with the schema metadata and footer of `from` (fresh
/// batch checksums, so that only the levels themselves are wrong).
fn write_levels(from: &Path, to: &Path, generator: &GrammarGenerator, levels: &[OwnedLevel]) {
    let source = Archive::open(from).unwrap();
    let schema = source.schema().clone();
    let mut chunk = ChunkBuilder::new(schema.clone(), generator.columns(), levels.len());
    for l in levels {
        chunk.push(l.index, l.seed, &l.record().level);
    }
    let mut writer = ArchiveWriter::create(to, &schema).unwrap();
    writer.write(&chunk.finish().unwrap()).unwrap();
    let footer: Vec<(String, String)> = source
        .footer_metadata()
        .iter()
        .filter(|(k, _)| k.as_str() != FOOTER_BATCH_CRC32)
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    writer.finish(&footer).unwrap();
}

/// Asserts `generator.verify` rejects `level` with a message containing every `mentions`.
fn assert_violation(generator: &GrammarGenerator, level: &OwnedLevel, mentions: &[&str]) {
    let violation = generator
        .verify(&level.record())
        .expect_err("verify accepted a broken level")
        .to_string();
    for m in mentions {
        assert!(
            violation.contains(m),
            "no `{m}` in the violation: {violation}"
        );
    }
}

#[test]
fn verify_catches_overlapping_rooms_split_corridors_excess_valence_and_open_walls() {
    let dir = TempDir::new("gram-broken-levels");
    let (good, bad) = (dir.join("good.arrow"), dir.join("bad.arrow"));
    // The default profile, so the library's default configuration verifies it.
    generate_kind("grammar", &good, &["--count", "8", "--seed", "3"]);
    let generator = GrammarGenerator::new(GrammarConfig::default()).unwrap();
    let mut levels = owned_levels(&good, &generator);
    assert!(levels.len() >= 4, "only {} levels", levels.len());
    for l in &levels {
        let ok = generator.verify(&l.record());
        assert!(ok.is_ok(), "level {} fails as written: {ok:?}", l.index);
    }

    // Level 0: one room moved onto another.
    let rooms = levels[0].rooms();
    let (a, b) = (rooms[0], rooms[rooms.len() - 1]);
    levels[0].stack_rooms(a, b);
    let pair = format!("rooms {} and {} overlap", a.min(b), a.max(b));
    assert_violation(&generator, &levels[0], &[&pair]);

    // Level 1: a room's corridors all made cosmetic, so the corridor graph falls apart (in
    // two when the room is a dead end).
    let v = levels[1].dead_end().unwrap_or(levels[1].rooms()[0]);
    levels[1].cut_off(v);
    assert_violation(&generator, &levels[1], &["disconnected parts"]);

    // Level 2: one vertex gets one corridor more than max_valence allows.
    let max = generator.config().max_valence as usize;
    let v = levels[2].rooms()[0];
    levels[2].raise_valence(v, max + 1);
    let valence = format!("vertex {v} has valence {}", max + 1);
    assert_violation(&generator, &levels[2], &[&valence, "max_valence"]);

    // Level 3: a hole knocked in a room's wall (the tile left of its top-left floor tile).
    let v = levels[3].rooms()[0];
    let (x, y) = (levels[3].rooms[0][v] - 1, levels[3].rooms[1][v]);
    let width = levels[3].grid.0 as i32;
    levels[3].grid.2[(y * width + x) as usize] = 1;
    let hole = format!("room {v}'s wall is open at ({x}, {y})");
    assert_violation(&generator, &levels[3], &[&hole]);

    // The same damage through the command line: exactly these three levels are reported.
    write_levels(&good, &bad, &generator, &levels);
    let output = warren([Path::new("verify"), &bad]);
    let report = stdout(&output);
    assert_eq!(exit_code(&output), 1, "{report}{}", stderr(&output));
    for (l, words) in levels.iter().zip([
        pair.as_str(),
        "disconnected parts",
        valence.as_str(),
        hole.as_str(),
    ]) {
        let prefix = format!("level {}: ", l.index);
        assert!(
            report
                .lines()
                .any(|line| line.starts_with(&prefix) && line.contains(words)),
            "verify does not report `{words}` for level {}: {report}",
            l.index
        );
    }
    assert!(report.contains(" 4 violations"), "{report}");
}

/// An archive carries the rule file its profile names: it verifies from another folder after
/// the file is deleted, and after the file is edited, because `verify` builds the generator
/// from the stored copy alone.
#[test]
fn an_archive_with_a_custom_rule_file_verifies_anywhere_after_the_file_is_gone() {
    let dir = crate::common::TempDir::new("grammar-files");
    let rules_dir = dir.join("g");
    std::fs::create_dir_all(&rules_dir).unwrap();
    let shown = crate::common::warren(["grammar", "show", "cyclic"]);
    assert!(shown.status.success());
    std::fs::write(rules_dir.join("my.grammar"), &shown.stdout).unwrap();
    let out = dir.join("g.arrow");
    let made = std::process::Command::new(crate::common::warren_bin())
        .current_dir(dir.path())
        .args(["generate", "grammar", "--quiet", "--count", "12"])
        .args(["--set", "grammar.rules=g/my.grammar", "--out", "g.arrow"])
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", crate::common::stderr(&made));
    // Edited, then deleted: neither matters.
    std::fs::write(rules_dir.join("my.grammar"), "grammar \"broken\"\n").unwrap();
    let elsewhere = dir.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    for step in ["edited", "deleted"] {
        if step == "deleted" {
            std::fs::remove_file(rules_dir.join("my.grammar")).unwrap();
        }
        let checked = std::process::Command::new(crate::common::warren_bin())
            .current_dir(&elsewhere)
            .arg("verify")
            .arg(&out)
            .output()
            .unwrap();
        let report = crate::common::stdout(&checked);
        assert!(
            checked.status.success() && report.contains(" 0 violations"),
            "{step}: {report}{}",
            crate::common::stderr(&checked)
        );
    }
    let inspected = crate::common::warren([std::path::Path::new("inspect"), &out]);
    assert!(
        crate::common::stdout(&inspected).contains("files        g/my.grammar ("),
        "{}",
        crate::common::stdout(&inspected)
    );
}
