//! Fuzz targets of the text formats: `.grammar` rule files (with `warren grammar check`'s rule
//! checks), demirogue `.lua` rule sets, GraphColoring level XML (evaluated, with includes) and
//! level lists, edge lists, `warren layout`'s positions files (`--positions`, `--start`,
//! `--pin`), profiles and `--set` values, and DMG tables.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use warren::dmg::tables::{KINDS as TABLE_KINDS, parse_table};
use warren::grammar::rule::GrammarError;
use warren::grammar::{format, lua};
use warren::layout::edgelist::{EdgeList, EdgeListError};
use warren::layout::formats::{PositionsError, VertexIds, VertexNames, parse_positions};
use warren::levelxml::{
    EvalOptions, FolderIncludes, XmlError, evaluate, parse_level, parse_level_list,
};
use warren::profile::{Profile, ProfileError};

use super::{expect_line_col, files_in, fuzz};
use crate::common::corpus;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn seeds_of(files: Vec<(String, Vec<u8>)>) -> Vec<Vec<u8>> {
    files.into_iter().map(|(_, bytes)| bytes).collect()
}

/// Every diagnostic of a rule-file error must name `file:line:col`.
fn grammar_error(what: &str, e: &GrammarError, file: &str) -> Result<(), String> {
    if e.diagnostics().is_empty() {
        return Err(format!("{what}: an error without diagnostics: {e}"));
    }
    for d in e.diagnostics() {
        expect_line_col(what, &d.to_string(), file)?;
    }
    Ok(())
}

const GRAMMAR_FILE: &str = "fuzz.grammar";

fn check_grammar(bytes: &[u8]) -> Result<(), String> {
    match format::parse(&text(bytes), GRAMMAR_FILE) {
        Err(e) => grammar_error("grammar", &e, GRAMMAR_FILE),
        // `warren grammar check`: its findings name the file; those about one rule name its line
        // (a missing start rule is about the whole file).
        Ok(rules) => {
            for d in rules.grammar.check() {
                let shown = d.to_string();
                if !shown.starts_with(GRAMMAR_FILE) {
                    return Err(format!("grammar check: finding without the file: {shown}"));
                }
                if d.rule.is_some() {
                    expect_line_col("grammar check", &shown, GRAMMAR_FILE)?;
                }
            }
            Ok(())
        }
    }
}

#[test]
fn fuzz_grammar_files() {
    let mut seeds = seeds_of(files_in(&root().join("data/grammars"), ".grammar"));
    seeds.extend(seeds_of(files_in(
        &root().join("data/demirogue"),
        ".grammar",
    )));
    let tokens = [
        "rule ",
        "grammar ",
        "->",
        "--",
        "=>",
        "{",
        "}",
        "(",
        ")",
        "[",
        "]",
        ":",
        ",",
        ";",
        "\"",
        "#",
        "\n",
        " ",
        "s",
        "@",
        "*",
        "-1",
        "0",
        "4294967296",
        "99999999999999999999",
        "1e309",
        "weight",
        "limit",
        "room",
        "tag",
        "keep",
        "\t",
        "\r\n",
        "é",
    ];
    fuzz("grammar", &seeds, &tokens, check_grammar);
}

const LUA_FILE: &str = "fuzz.lua";

/// A start rule and a growth rule (the seed when the demirogue corpus is absent).
const LUA_RULES: &str = r#"return {
  { leftGraph = { vertices = { { x = 0, y = 0, tags = { s = true } } }, edges = {} },
    rightGraph = { vertices = { { x = 0, y = 0, tag = "a" }, { x = 1, y = 0, tag = "a" } }, edges = { { 1, 2 } } },
    map = { 1 } },
  { leftGraph = { vertices = { { x = 0, y = 0, tags = { a = true } }, { x = 1, y = 0, tags = { a = true } } }, edges = { { 1, 2 } } },
    rightGraph = { vertices = { { x = 0, y = 0, tag = "a" }, { x = 1, y = 0, tag = "a" }, { x = 0.5, y = 1, tag = "b" } }, edges = { { 1, 3 }, { 3, 2 } } },
    map = { 1, 2 } },
}
"#;

fn check_lua(bytes: &[u8]) -> Result<(), String> {
    match lua::parse_lua(&text(bytes), LUA_FILE) {
        Err(e) => grammar_error("lua", &e, LUA_FILE),
        Ok(import) => {
            if let Err(e) = import.grammar.validate() {
                for d in e.diagnostics() {
                    let shown = d.to_string();
                    if !shown.starts_with(LUA_FILE) {
                        return Err(format!("lua validate: finding without the file: {shown}"));
                    }
                }
            }
            Ok(())
        }
    }
}

#[test]
fn fuzz_lua_rule_sets() {
    let corpus = root().join("../shared/corpus/demirogue-rulesets");
    let mut seeds = seeds_of(files_in(&corpus, ".lua"));
    seeds.push(LUA_RULES.as_bytes().to_vec());
    let tokens = [
        "return",
        "{",
        "}",
        "[",
        "]",
        "=",
        ",",
        ";",
        "\"",
        "'",
        "--",
        "--[[",
        "]]",
        "[[",
        "\\",
        "\n",
        "true",
        "false",
        "nil",
        "local",
        "function",
        "end",
        "-",
        "0x",
        "1e400",
        ".5",
        "4294967296",
        "leftGraph",
        "rightGraph",
        "vertices",
        "edges",
        "map",
        "tags",
        "tag",
        "x",
        "y",
        "cosmetic",
        "é",
        "\\u{7fffffff}",
        "\\999",
    ];
    fuzz("lua", &seeds, &tokens, check_lua);
}

const LEVEL_FILE: &str = "fuzz.xml";

/// A levels folder for `<include>`: `inc/v` defines values, `inc/loop` includes itself.
fn include_root() -> &'static PathBuf {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let root = std::env::temp_dir().join(format!("warren-fuzz-includes-{}", std::process::id()));
        std::fs::create_dir_all(root.join("inc")).unwrap();
        std::fs::write(
            root.join("inc/v.xml"),
            "<values>\n    <var id=\"bonus\" val=\"3\"/>\n    <var id=\"points\" val=\"bonus + 2\"/>\n</values>\n",
        )
        .unwrap();
        std::fs::write(
            root.join("inc/loop.xml"),
            "<values>\n    <include file=\"inc/loop\"/>\n</values>\n",
        )
        .unwrap();
        root
    })
}

fn check_level(bytes: &[u8]) -> Result<(), String> {
    let parsed = match parse_level(&text(bytes), LEVEL_FILE) {
        Ok(parsed) => parsed,
        Err(e @ XmlError::At { .. }) => {
            return expect_line_col("levelxml", &e.to_string(), LEVEL_FILE);
        }
        Err(e) => return Err(format!("levelxml: not an error at a place: {e}")),
    };
    let includes = FolderIncludes {
        root: include_root().clone(),
    };
    let opts = EvalOptions {
        map: Some(&parsed.map),
        includes: Some(&includes),
        path: None,
    };
    match evaluate(&parsed.doc, &opts) {
        // NOTE: errors about the whole level (no place) are printed after the file's name by
        // `warren levelxml eval`; those at a place must name it.
        Err(e) if e.at.is_some() => expect_line_col("levelxml eval", &e.to_string(), LEVEL_FILE)
            .or_else(|_| {
                // An error inside an included file names that file's place instead.
                let shown = e.to_string();
                if shown.contains("inc/") {
                    Ok(())
                } else {
                    Err(format!("levelxml eval: error without its place: {shown}"))
                }
            }),
        _ => Ok(()),
    }
}

fn level_seeds() -> Vec<Vec<u8>> {
    let mut seeds = Vec::new();
    if let Some(corpus) = corpus() {
        for entry in std::fs::read_dir(&corpus).unwrap().filter_map(Result::ok) {
            seeds.extend(seeds_of(files_in(&entry.path(), ".xml")));
        }
    }
    seeds.push(
        b"<level title=\"t\"/>\n<colors>\n    <color color=\"#FF0000\" name=\"red\"/>\n</colors>\n\
          <graph>\n    <vertex x=\"0\" y=\"0\"/>\n    <vertex x=\"100\" y=\"0\"/>\n    \
          <edge v1=\"0\" v2=\"1\"/>\n</graph>\n<values>\n    <include file=\"inc/v\"/>\n    \
          <var id=\"objective\" val=\"points * 2 / bonus\"/>\n</values>\n"
            .to_vec(),
    );
    seeds
}

#[test]
fn fuzz_level_xml() {
    let tokens = [
        "<",
        ">",
        "/>",
        "</",
        "=",
        "\"",
        "'",
        "<!--",
        "-->",
        "<![CDATA[",
        "]]>",
        "<?xml",
        "?>",
        "&amp;",
        "&#x10FFFF;",
        "&#99999999;",
        "&",
        "<include file=\"inc/v\"/>",
        "<include file=\"inc/loop\"/>",
        "<include file=\"../x\"/>",
        "<vertex x=\"1\" y=\"1\"/>",
        "<edge v1=\"0\" v2=\"0\"/>",
        "<var id=\"x\" val=\"x\"/>",
        "-9223372036854775808",
        "9223372036854775807",
        "/",
        "%",
        "*",
        "0x",
        "#",
        "min(",
        "max(",
        "\n",
        "é",
    ];
    fuzz("levelxml", &level_seeds(), &tokens, check_level);
}

const LIST_FILE: &str = "level-list.xml";

fn check_level_list(bytes: &[u8]) -> Result<(), String> {
    match parse_level_list(&text(bytes), LIST_FILE) {
        Err(e @ XmlError::At { .. }) => expect_line_col("level list", &e.to_string(), LIST_FILE),
        Err(e) => Err(format!("level list: not an error at a place: {e}")),
        Ok(_) => Ok(()),
    }
}

#[test]
fn fuzz_level_lists() {
    let mut seeds = Vec::new();
    if let Some(corpus) = corpus() {
        seeds.push(std::fs::read(corpus.join(LIST_FILE)).unwrap());
    }
    seeds.push(
        b"<category-listing version=\"1\">\n\t<category name=\"A\" id=\"a\" color=\"#AAAAAA\">\n\
          \t\t<level id=\"x\"/>\n\t</category>\n</category-listing>\n"
            .to_vec(),
    );
    let tokens = [
        "<",
        ">",
        "/>",
        "</",
        "=",
        "\"",
        "<category",
        "<level id=\"\"/>",
        "</category>",
        "color=\"#GG\"",
        "&",
        "\n",
        "<!--",
        "-->",
        "é",
    ];
    fuzz("level list", &seeds, &tokens, check_level_list);
}

const EDGE_FILE: &str = "fuzz.edges";

fn check_edge_list(bytes: &[u8]) -> Result<(), String> {
    match EdgeList::parse(bytes, Path::new(EDGE_FILE)) {
        Err(e @ EdgeListError::Syntax { .. }) => {
            expect_line_col("edge list", &e.to_string(), EDGE_FILE)
        }
        Err(e) => Err(format!("edge list: not an error at a place: {e}")),
        Ok(list) => {
            let graph = list.graph();
            std::hint::black_box(&graph);
            Ok(())
        }
    }
}

#[test]
fn fuzz_edge_lists() {
    let seeds = vec![
        b"# a cube\n100 200\n200 300\n300 400\n400 100\n5000 6000 1.5\n6000 7000\n\
          7000 18446744073709551615\n18446744073709551615 5000\n100 5000\n200 6000\n\
          300 7000\n400 18446744073709551615\n300 300\n"
            .to_vec(),
        b"\xEF\xBB\xBF0 1\r\n1 2\t{'weight': 3}\r\n2 0 # tail\r\n\r\n".to_vec(),
    ];
    let tokens = [
        " ",
        "\t",
        "\r",
        "\n",
        "#",
        "-",
        "+",
        "18446744073709551616",
        "007",
        "0",
        "\u{feff}",
        "1.5",
        "é",
    ];
    fuzz("edge list", &seeds, &tokens, check_edge_list);
}

const POSITIONS_FILE: &str = "fuzz.tsv";

/// A positions file against a graph with numeric ids and one with string ids, every vertex
/// required and not (`--start` and `--pin`).
fn check_positions(bytes: &[u8]) -> Result<(), String> {
    static IDS: OnceLock<[VertexIds; 2]> = OnceLock::new();
    let graphs = IDS.get_or_init(|| {
        [
            VertexIds::Numbers(vec![0, 7, 42, 18446744073709551615]),
            VertexIds::Names(["a", "b c", "é"].into_iter().collect::<VertexNames>()),
        ]
    });
    for ids in graphs {
        for every in [true, false] {
            match parse_positions(bytes, Path::new(POSITIONS_FILE), ids, every) {
                Ok((x, y)) => {
                    let free = x.iter().chain(&y).filter(|c| c.is_nan()).count();
                    if x.len() != ids.len() || (every && free > 0) {
                        return Err(format!("positions: {} rows, {free} NaN", x.len()));
                    }
                }
                Err(e @ PositionsError::Syntax { .. }) => {
                    expect_line_col("positions", &e.to_string(), POSITIONS_FILE)?;
                }
                Err(e @ PositionsError::Missing { .. }) if every => {
                    let message = e.to_string();
                    if !message.starts_with(POSITIONS_FILE) || message.contains('\n') {
                        return Err(format!("positions: {message}"));
                    }
                }
                Err(e) => return Err(format!("positions: unexpected error {e}")),
            }
        }
    }
    Ok(())
}

#[test]
fn fuzz_positions_files() {
    let seeds = vec![
        b"id\tx\ty\n0\t1.5\t-2\n7\t0\t0\n42\t1e3\t-0\n18446744073709551615\t3\t4\n".to_vec(),
        "a 1 2\r\nb c\t3\t4\textra\n# note\n\n\u{e9}\t5\t6\n"
            .as_bytes()
            .to_vec(),
    ];
    let tokens = [
        " ", "\t", "\r", "\n", "#", "-", "+", "e", ".", "inf", "NaN", "1e39", "id", "é",
    ];
    fuzz("positions", &seeds, &tokens, check_positions);
}

const PROFILE_FILE: &str = "fuzz.toml";

fn check_profile(bytes: &[u8]) -> Result<(), String> {
    match Profile::from_toml(&text(bytes), PROFILE_FILE) {
        Ok(_) => Ok(()),
        Err(e @ ProfileError::Parse { .. }) => {
            let shown = e.to_string();
            if shown.starts_with(PROFILE_FILE) {
                expect_line_col("profile", &shown, PROFILE_FILE)
            } else {
                Err(format!("profile: error without the file: {shown}"))
            }
        }
        // Rule files and table folders the profile names report their own files.
        Err(e @ (ProfileError::Rules(_) | ProfileError::Table(_))) => {
            let shown = e.to_string();
            if shown.starts_with(PROFILE_FILE) {
                expect_line_col("profile", &shown, PROFILE_FILE)
            } else {
                Err(format!("profile: error without the file: {shown}"))
            }
        }
        Err(e) => Err(format!("profile: error without the file and place: {e}")),
    }
}

#[test]
fn fuzz_profiles() {
    let seeds = seeds_of(files_in(&root().join("profiles"), ".toml"));
    let tokens = [
        "[",
        "]",
        "[[",
        "]]",
        "=",
        "\"",
        "'",
        "\"\"\"",
        "#",
        "\n",
        ".",
        ",",
        "{",
        "}",
        "true",
        "-1",
        "0",
        "nan",
        "inf",
        "1e309",
        "4294967296",
        "18446744073709551616",
        "kind = ",
        "[maze]",
        "[grammar]",
        "[dmg]",
        "\\u0000",
        "é",
        // `map.graph` as a list of graphs with weights.
        "graph = [\"edgar-fig1\", { graph = \"edgar-fig8-17\", weight = 3 }]",
        "weight = 0",
    ];
    fuzz("profile", &seeds, &tokens, check_profile);
}

/// The built-in profiles, one per kind.
fn builtin_profiles() -> &'static [Profile] {
    static PROFILES: OnceLock<Vec<Profile>> = OnceLock::new();
    PROFILES.get_or_init(|| {
        ["maze", "grammar", "dmg", "regions", "coloring", "map"]
            .iter()
            .map(|k| Profile::resolve(k).unwrap())
            .collect()
    })
}

fn check_set(bytes: &[u8]) -> Result<(), String> {
    let arg = text(bytes);
    let profiles = builtin_profiles();
    let mut profile = profiles[bytes.len() % profiles.len()].clone();
    match profile.set(&arg) {
        Ok(()) => Ok(()),
        Err(e @ ProfileError::Set { .. }) => {
            let shown = e.to_string();
            if shown.starts_with(&format!("--set {arg}: ")) {
                Ok(())
            } else {
                Err(format!("--set: error without its argument: {shown}"))
            }
        }
        Err(e) => Err(format!("--set {arg}: error without its argument: {e}")),
    }
}

#[test]
fn fuzz_set_values() {
    let seeds: Vec<Vec<u8>> = [
        "maze.width=64",
        "maze.holes=0.2",
        "maze.weighting=gradient",
        "grammar.rules=\"dungeon\"",
        "grammar.rooms=[0.2, 0.8]",
        "dmg.max_chambers=40",
        "regions.depth=3",
        "coloring.puzzle=\"chromatic\"",
        "maze.braid=true",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    let tokens = [
        "=",
        ".",
        "\"",
        "'",
        "[",
        "]",
        "{",
        "}",
        ",",
        "-1",
        "0",
        "nan",
        "inf",
        "1e309",
        "4294967296",
        "true",
        "kind",
        "\n",
        "#",
        "é",
    ];
    fuzz("--set", &seeds, &tokens, check_set);
}

const TABLE_FILE: &str = "fuzz-table.toml";

fn check_table(bytes: &[u8]) -> Result<(), String> {
    let text = text(bytes);
    for kind in TABLE_KINDS {
        if let Err(e) = parse_table(kind, &text, TABLE_FILE) {
            expect_line_col("dmg table", &e.to_string(), TABLE_FILE)?;
        }
    }
    Ok(())
}

#[test]
fn fuzz_dmg_tables() {
    let seeds = seeds_of(files_in(&root().join("data/dmg"), ".toml"));
    let tokens = [
        "[",
        "]",
        "[[",
        "]]",
        "=",
        "\"",
        "#",
        "\n",
        ",",
        "{",
        "}",
        "-",
        "0",
        "1",
        "20",
        "21",
        "-1",
        "4294967296",
        "faces",
        "outcome",
        "1-20",
        "20-1",
        "é",
    ];
    fuzz("dmg table", &seeds, &tokens, check_table);
}
