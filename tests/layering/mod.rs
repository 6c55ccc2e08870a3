//! The house's rules, checked from the source: the modules form layers whose arrows point down,
//! the files inside every module form no cycle, and no function or file grows past its limit.
//!
//! The import graph comes from `graph.rs` (every `use crate::...`, `super::...` and inline
//! `crate::x::` path, followed through re-exports; test code left out). The layers, bottom first:
//!
//! | layer | modules | what they are |
//! |---|---|---|
//! | 0 | `core` | graph, grid, geometry, seeds, shards, hash, the `Generator` trait, errors |
//! | 1 | `layout` | the force solver, Barnes-Hut, multilevel drawing, rooms, graph formats |
//! | 2 | `floorplan`, `levelxml` | libraries the kinds share: the map builder, GraphColoring's format |
//! | 3 | `maze`, `dmg`, `regions`, `grammar`, `coloring`, `map` | the generator kinds |
//! | 4 | `profile` | the kind registry and profiles |
//! | 5 | `archive`, `render` | the archive format, pictures |
//! | 6 | `batch` | the engine: workers, ordered writer, shards, filters, checks |
//! | 7 | `export`, `run` | other formats (numpy, JaxUED, Tiled, LDtk); stored runs, merge, split |
//! | 8 | `cli` | the command line (`src/main.rs` and the Python package call it) |
//!
//! A module may use only modules of lower layers; two modules of one layer never use each other
//! (so no kind reaches into another kind).

mod graph;

use std::collections::BTreeSet;
use std::path::Path;

use graph::{Graph, sources, top};

/// The layers, bottom first (see the module doc).
const LAYERS: &[&[&str]] = &[
    &["core"],
    &["layout"],
    &["floorplan", "levelxml"],
    &["maze", "dmg", "regions", "grammar", "coloring", "map"],
    &["task"],
    &["profile"],
    &["archive", "render"],
    &["batch"],
    &["export", "run"],
    &["cli"],
];

/// Module pairs `(from, to)` whose imports break the layers and that the restructuring of issue
/// 45 has not separated yet. The list may only shrink, like [`KNOWN_CYCLES`].
const KNOWN_LAYER_BREAKS: &[(&str, &str)] = &[];

/// Cycles between files that the restructuring of issue 45 has not removed yet, each named by
/// the files in it. The list may only shrink: a cycle not listed fails, and so does a listed one
/// that is gone (delete its line).
const KNOWN_CYCLES: &[&[&str]] = &[];

/// Functions over the limit that the restructuring of issue 45 has not split yet, as
/// `(file, function)`. The list may only shrink, like [`KNOWN_CYCLES`].
const KNOWN_LONG_FUNCTIONS: &[(&str, &str)] = &[];

/// No function longer than this many lines (from `fn` to its closing brace).
const MAX_FUNCTION_LINES: usize = 100;

/// No source file longer than this many lines.
const MAX_FILE_LINES: usize = 800;

/// The layer of the generator kinds.
const KINDS_LAYER: usize = 3;

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

/// Every edge that points up or sideways between top-level modules, and every top-level module
/// with no layer, as messages naming both files.
pub fn layering_errors(graph: &Graph, known: &[(&str, &str)]) -> Vec<String> {
    let mut errors = Vec::new();
    let mut unplaced = BTreeSet::new();
    let mut known_seen = BTreeSet::new();
    for (from, to) in &graph.edges {
        for (target, edge) in to {
            let (a, b) = (top(from), top(target));
            if a == b || a.is_empty() || b.is_empty() {
                continue;
            }
            let (Some(la), Some(lb)) = (layer_of(a), layer_of(b)) else {
                unplaced.extend([a, b].into_iter().filter(|m| layer_of(m).is_none()));
                continue;
            };
            if la <= lb && known.contains(&(a, b)) {
                known_seen.insert((a, b));
            } else if la <= lb {
                let how = if la == lb {
                    "beside it in"
                } else {
                    "above it, in"
                };
                errors.push(format!(
                    "{}:{} uses {}: `{a}` (layer {la}) may not use `{b}`, {how} layer {lb}",
                    graph.file(from),
                    edge.line,
                    graph.file(target),
                ));
            }
        }
    }
    for (a, b) in known.iter().filter(|pair| !known_seen.contains(*pair)) {
        errors.push(format!(
            "`{a}` -> `{b}` is listed in KNOWN_LAYER_BREAKS but gone (delete the line)"
        ));
    }
    for module in unplaced {
        errors.push(format!(
            "src/{module}: a top-level module with no layer: add it to LAYERS in tests/layering/mod.rs"
        ));
    }
    errors
}

/// Every cycle between files, as `a.rs:LINE -> b.rs:LINE -> a.rs`, with the set of its files.
pub fn cycle_errors(graph: &Graph) -> Vec<(BTreeSet<String>, String)> {
    graph
        .cycles()
        .into_iter()
        .map(|cycle| {
            let files: BTreeSet<String> = cycle.iter().map(|(m, _)| graph.file(m)).collect();
            let steps: Vec<String> = cycle
                .iter()
                .map(|(m, line)| match line {
                    0 => graph.file(m),
                    line => format!("{}:{line}", graph.file(m)),
                })
                .collect();
            (files, steps.join(" -> "))
        })
        .collect()
}

fn crate_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn modules_point_down_their_layers() {
    let graph = Graph::from_crate(crate_root());
    assert!(
        graph.files.len() > 100,
        "found only {} source files",
        graph.files.len()
    );
    let errors = layering_errors(&graph, KNOWN_LAYER_BREAKS);
    assert!(
        errors.is_empty(),
        "imports against the layers:\n{}",
        errors.join("\n")
    );
}

#[test]
fn every_registered_kind_sits_in_the_kinds_layer() {
    for kind in warren::profile::KINDS {
        // Tasks are views of the other kinds' levels: their own layer, right above them.
        let layer = if *kind == "task" {
            KINDS_LAYER + 1
        } else {
            KINDS_LAYER
        };
        assert_eq!(
            layer_of(kind),
            Some(layer),
            "kind `{kind}`: add it to layer {KINDS_LAYER} of LAYERS in tests/layering/mod.rs"
        );
    }
}

#[test]
fn no_files_import_each_other_in_a_cycle() {
    let graph = Graph::from_crate(crate_root());
    let known: Vec<BTreeSet<String>> = KNOWN_CYCLES
        .iter()
        .map(|files| files.iter().map(|f| f.to_string()).collect())
        .collect();
    let found = cycle_errors(&graph);
    let new: Vec<&String> = found
        .iter()
        .filter(|(files, _)| {
            !known
                .iter()
                .any(|k| k.is_subset(files) || files.is_subset(k))
        })
        .map(|(_, text)| text)
        .collect();
    let gone: Vec<String> = known
        .iter()
        .filter(|k| {
            !found
                .iter()
                .any(|(files, _)| k.is_subset(files) || files.is_subset(k))
        })
        .map(|k| k.iter().cloned().collect::<Vec<_>>().join(", "))
        .collect();
    assert!(
        new.is_empty(),
        "files that import each other in a cycle:\n{}",
        new.iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        gone.is_empty(),
        "listed in KNOWN_CYCLES but gone (delete the line):\n{}",
        gone.join("\n")
    );
}

#[test]
fn no_function_or_file_is_too_long() {
    let mut files = Vec::new();
    for dir in ["src", "benches", "python/src"] {
        sources(&crate_root().join(dir), &mut files);
    }
    let mut errors = Vec::new();
    let mut known_seen = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let rel = file
            .strip_prefix(crate_root())
            .unwrap()
            .display()
            .to_string();
        let lines = text.lines().count();
        if lines > MAX_FILE_LINES {
            errors.push(format!("{rel}: {lines} lines (at most {MAX_FILE_LINES})"));
        }
        let code = graph::blank_literals(&text);
        for (name, line, len) in graph::long_functions(&code, MAX_FUNCTION_LINES) {
            if KNOWN_LONG_FUNCTIONS.contains(&(rel.as_str(), name.as_str())) {
                known_seen.push((rel.clone(), name));
                continue;
            }
            errors.push(format!(
                "{rel}:{line}: fn {name} has {len} lines (at most {MAX_FUNCTION_LINES})"
            ));
        }
    }
    for (file, name) in KNOWN_LONG_FUNCTIONS {
        if !known_seen.iter().any(|(f, n)| f == file && n == name) {
            errors.push(format!("{file}: fn {name} is listed in KNOWN_LONG_FUNCTIONS but no longer too long (delete the line)"));
        }
    }
    assert!(errors.is_empty(), "too long:\n{}", errors.join("\n"));
}

#[test]
fn no_library_module_uses_the_command_line() {
    let graph = Graph::from_crate(crate_root());
    let mut offenders = Vec::new();
    for (from, to) in &graph.edges {
        if top(from) == "cli" || from.is_empty() {
            continue;
        }
        for (target, e) in to.iter().filter(|(target, _)| top(target) == "cli") {
            offenders.push(format!(
                "{}:{} uses {}",
                graph.file(from),
                e.line,
                graph.file(target)
            ));
        }
    }
    assert!(
        offenders.is_empty(),
        "library modules using the CLI:\n{}",
        offenders.join("\n")
    );
}

/// The fixtures: small crates whose sources plant what the checks must catch.
fn fixture(name: &str) -> Graph {
    Graph::from_crate(&crate_root().join("tests/layering/fixtures").join(name))
}

#[test]
fn a_planted_upward_import_is_named_with_both_files() {
    let errors = layering_errors(&fixture("upward"), &[]);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with("src/core/geom.rs:")
            && errors[0]
                .contains("uses src/layout/solve.rs: `core` (layer 0) may not use `layout`"),
        "{}",
        errors[0]
    );
}

#[test]
fn a_planted_sideways_import_between_kinds_is_named() {
    let errors = layering_errors(&fixture("sideways"), &[]);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with("src/coloring/planar.rs:")
            && errors[0].contains("uses src/maze/delaunay.rs: `coloring` (layer 3) may not use `maze`, beside it in layer 3"),
        "{}",
        errors[0]
    );
}

#[test]
fn a_planted_cycle_through_a_re_export_is_named_with_its_files() {
    let cycles = cycle_errors(&fixture("cycle"));
    assert_eq!(cycles.len(), 1, "{cycles:?}");
    let (files, text) = &cycles[0];
    let want: BTreeSet<String> = ["src/archive/reader.rs", "src/archive/writer.rs"]
        .map(String::from)
        .into();
    assert_eq!(files, &want, "{text}");
    assert!(text.contains("src/archive/reader.rs:"), "{text}");
    // The test module's use of the writer and the path in a comment are no edges.
    assert!(layering_errors(&fixture("cycle"), &[]).is_empty());
}

/// Where `docs/ARCHITECTURE.md` holds the generated map of the house.
const MAP_START: &str = "<!-- module-map:start (scripts/module_graph.sh writes this part) -->";
const MAP_END: &str = "<!-- module-map:end -->";

/// The first sentence of `text`'s `//!` overview, with intra-doc links reduced to their text.
fn overview(text: &str) -> String {
    let mut doc = String::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("//!") else {
            break;
        };
        let rest = rest.trim();
        if rest.is_empty() && !doc.is_empty() {
            break;
        }
        doc.push_str(rest);
        doc.push(' ');
    }
    let sentence = match doc.find(". ") {
        Some(i) => &doc[..=i],
        None => doc.trim_end(),
    };
    // `[`x`](path)` and `[`x`]` -> `x`.
    let mut out = String::new();
    let mut rest = sentence;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find(']').map(|c| open + c) else {
            break;
        };
        out.push_str(&rest[open + 1..close]);
        rest = &rest[close + 1..];
        if rest.starts_with('(')
            && let Some(end) = rest.find(')')
        {
            rest = &rest[end + 1..];
        }
    }
    out.push_str(rest);
    out.trim().to_string()
}

/// The generated part of `docs/ARCHITECTURE.md`: the layers as a Mermaid drawing of every
/// top-level module and the arrows between them, then one line per module.
fn module_map(graph: &Graph) -> String {
    let mut arrows = BTreeSet::new();
    for (from, to) in &graph.edges {
        for target in to.keys() {
            let (a, b) = (top(from), top(target));
            if a != b && !a.is_empty() && !b.is_empty() {
                arrows.insert((a.to_string(), b.to_string()));
            }
        }
    }
    let mut out = String::from("```mermaid\nflowchart BT\n");
    for (i, layer) in LAYERS.iter().enumerate() {
        out.push_str(&format!("  subgraph L{i}[\"layer {i}\"]\n"));
        for module in *layer {
            out.push_str(&format!("    {module}\n"));
        }
        out.push_str("  end\n");
    }
    for (a, b) in &arrows {
        out.push_str(&format!("  {a} --> {b}\n"));
    }
    out.push_str("```\n\n| layer | module | what it is |\n|---|---|---|\n");
    for (i, layer) in LAYERS.iter().enumerate() {
        for module in *layer {
            let text = std::fs::read_to_string(crate_root().join(format!("src/{module}/mod.rs")))
                .unwrap_or_default();
            out.push_str(&format!("| {i} | `{module}` | {} |\n", overview(&text)));
        }
    }
    out
}

/// `docs/ARCHITECTURE.md`'s map of the house is the code's: regenerated by
/// `scripts/module_graph.sh` (this test with `WARREN_WRITE_MODULE_MAP=1`), checked here.
#[test]
fn the_architecture_chapter_draws_the_modules_as_they_are() {
    let path = crate_root().join("docs/ARCHITECTURE.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let (Some(start), Some(end)) = (text.find(MAP_START), text.find(MAP_END)) else {
        panic!("docs/ARCHITECTURE.md has no {MAP_START} ... {MAP_END} part");
    };
    let body_start = start + MAP_START.len() + 1;
    let want = module_map(&Graph::from_crate(crate_root()));
    if std::env::var_os("WARREN_WRITE_MODULE_MAP").is_some() {
        let updated = format!("{}{want}{}", &text[..body_start], &text[end..]);
        std::fs::write(&path, updated).unwrap();
        return;
    }
    assert!(
        text[body_start..end] == want,
        "docs/ARCHITECTURE.md's module map is out of date: run scripts/module_graph.sh"
    );
}
