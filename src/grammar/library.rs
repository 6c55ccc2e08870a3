//! Where a grammar's rules come from: the built-in rule sets (warren's own `.grammar` files and
//! seed 000's seven demirogue rulesets, translated to warren's format by `warren grammar import`
//! and kept in `data/demirogue/`, all compiled into the binary so that `warren generate grammar`
//! needs no files) or a rule file named by path (warren's format, or a demirogue `.lua` ruleset).

use std::path::Path;

use crate::grammar::rule::{Grammar, GrammarError};
use crate::grammar::{format, lua};

/// A rule set shipped inside the binary.
pub struct Builtin {
    /// The name a profile uses (`rules = "dungeon"`).
    pub name: &'static str,
    /// One line on what it makes.
    pub about: &'static str,
    /// The file text.
    text: &'static str,
}

macro_rules! builtin {
    ($name:literal, $file:literal, $about:literal) => {
        Builtin {
            name: $name,
            about: $about,
            text: include_str!(concat!("../../data/", $file)),
        }
    };
}

/// Every built-in rule set.
pub const BUILTINS: &[Builtin] = &[
    builtin!(
        "cyclic",
        "grammars/cyclic.grammar",
        "cyclic dungeon: a start-goal cycle, shortcuts, loops, lock and key on a cycle"
    ),
    builtin!(
        "dungeon",
        "grammars/dungeon.grammar",
        "branching dungeon: halls, treasure, one boss"
    ),
    builtin!(
        "catacomb",
        "grammars/catacomb.grammar",
        "loop-heavy catacomb of triangles and squares"
    ),
    builtin!(
        "keylock",
        "grammars/keylock.grammar",
        "key-and-lock mission: the key always before its door"
    ),
    builtin!(
        "ring",
        "grammars/ring.grammar",
        "ring road around a central hall"
    ),
    builtin!(
        "demirogue/catacomb",
        "demirogue/catacomb.grammar",
        "seed 000's catacomb ruleset"
    ),
    builtin!(
        "demirogue/default",
        "demirogue/default.grammar",
        "seed 000's default ruleset"
    ),
    builtin!(
        "demirogue/quads",
        "demirogue/quads.grammar",
        "seed 000's quads ruleset"
    ),
    builtin!(
        "demirogue/silly",
        "demirogue/silly.grammar",
        "seed 000's silly ruleset"
    ),
    builtin!(
        "demirogue/spiral",
        "demirogue/spiral.grammar",
        "seed 000's spiral ruleset"
    ),
    builtin!(
        "demirogue/test",
        "demirogue/test.grammar",
        "seed 000's test ruleset (from its older file format)"
    ),
    builtin!(
        "demirogue/tree",
        "demirogue/tree.grammar",
        "seed 000's tree ruleset"
    ),
];

impl Builtin {
    /// Parses the rule set (not yet validated).
    pub fn parse(&self) -> Result<Grammar, GrammarError> {
        let source = format!("built-in {}", self.name);
        format::parse(self.text, &source).map(|f| f.grammar)
    }

    /// The file text.
    pub fn text(&self) -> &'static str {
        self.text
    }
}

/// The rules named by `rules`: a built-in name, or a path to a `.lua` (demirogue) or any other
/// (warren format) rule file. Not yet validated.
///
/// # Errors
/// An unreadable file, or syntax errors with line and column.
pub fn load(rules: &str) -> Result<Grammar, GrammarError> {
    if let Some(b) = BUILTINS.iter().find(|b| b.name == rules) {
        return b.parse();
    }
    let path = Path::new(rules);
    let loaded = if path.extension().is_some_and(|e| e == "lua") {
        lua::load_lua(path).map(|i| i.grammar)
    } else {
        format::load(path).map(|f| f.grammar)
    };
    // A bare name that is no file was most likely meant as a built-in.
    match loaded {
        Err(GrammarError::Read { error, .. })
            if error.kind() == std::io::ErrorKind::NotFound
                && path.extension().is_none()
                && path.components().count() == 1 =>
        {
            Err(GrammarError::Unknown {
                name: rules.to_string(),
                error,
            })
        }
        other => other,
    }
}
