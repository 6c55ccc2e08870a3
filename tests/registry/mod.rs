//! Every kind in the registry (`warren::profile::KIND_FACTS`) is complete: a folder in the kind
//! shape, a shipped profile equal to its defaults, a bench, a layer, a README row and a guide
//! chapter. Adding a kind is its folder plus one registry line; these tests (with the
//! conformance goldens, the allocation audit in `tests/allocations.rs`, the layering test and
//! the Python package's) name every other place until it is done (docs/ARCHITECTURE.md).

use std::path::Path;

use warren::profile::{KIND_FACTS, KINDS, Profile};

use crate::common::warren;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn the_facts_follow_the_kinds_list() {
    let names: Vec<&str> = KIND_FACTS.iter().map(|k| k.name).collect();
    assert_eq!(names, KINDS);
    for k in KIND_FACTS {
        assert!(
            !k.doc.is_empty() && !k.card.is_empty(),
            "{}: empty text",
            k.name
        );
    }
}

#[test]
fn every_kind_ships_a_profile_equal_to_its_defaults() {
    for kind in KINDS {
        let rel = format!("profiles/{kind}.toml");
        let file = Profile::from_toml(&read(&rel), &rel).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            file,
            Profile::builtin(kind).unwrap(),
            "{rel} differs from {kind}'s defaults"
        );
    }
}

/// The kind shape (docs/ARCHITECTURE.md): `mod.rs` declares and re-exports, `config.rs`,
/// `metrics.rs`, `generate.rs` and `verify.rs` hold what their names say.
#[test]
fn every_kind_folder_has_the_kind_shape() {
    for kind in KINDS {
        for file in [
            "mod.rs",
            "config.rs",
            "metrics.rs",
            "generate.rs",
            "verify.rs",
        ] {
            let rel = format!("src/{kind}/{file}");
            assert!(root().join(&rel).is_file(), "{rel} is missing");
        }
        let facade = read(&format!("src/{kind}/mod.rs"));
        for line in facade.lines().map(str::trim_start) {
            assert!(
                !(line.starts_with("fn ")
                    || line.starts_with("pub fn ")
                    || line.starts_with("impl ")),
                "src/{kind}/mod.rs holds code (`{line}`): it only declares and re-exports"
            );
        }
    }
}

#[test]
fn every_kind_has_a_criterion_bench() {
    let manifest = read("Cargo.toml");
    for kind in KINDS {
        let rel = format!("benches/{kind}.rs");
        assert!(root().join(&rel).is_file(), "{rel} is missing");
        assert!(
            manifest.contains(&format!("[[bench]]\nname = \"{kind}\"\nharness = false")),
            "Cargo.toml has no [[bench]] `{kind}` (harness = false)"
        );
    }
}

#[test]
fn every_kind_has_a_readme_row_and_a_guide_chapter() {
    let readme = read("README.md");
    for kind in KINDS {
        assert!(
            readme.contains(&format!("| `{kind}` |")),
            "README.md has no row for `{kind}` in its kinds table"
        );
        // The task kind's chapter is about many tasks: docs/tasks.md.
        let chapter = if *kind == "task" {
            "docs/tasks.md".to_string()
        } else {
            format!("docs/{kind}.md")
        };
        assert!(root().join(&chapter).is_file(), "{chapter} is missing");
        assert!(
            readme.contains(&format!("({chapter})")),
            "README.md does not link {chapter}"
        );
    }
}

#[test]
fn the_command_line_lists_the_registry() {
    let out = warren(["kinds", "--names"]);
    assert!(out.status.success());
    let names: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(names, KINDS);
    let table = warren(["kinds"]);
    let table = String::from_utf8(table.stdout).unwrap();
    for k in KIND_FACTS {
        assert!(table.contains(k.name) && table.contains(k.doc), "{table}");
    }
}
