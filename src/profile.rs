//! Profiles: named batch configurations in TOML (DESIGN.md, "Command line"). A profile names its
//! generator `kind` and that kind's parameters; keys it leaves out take the built-in defaults
//! (the values of `profiles/<kind>.toml`). `--set section.key=value` overrides one value. Unknown
//! keys and bad values are errors that name the file, line and column, or the key.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::coloring::ColoringGenerator;
use crate::coloring::puzzle::ColoringConfig;
use crate::core::error::ConfigError;
use crate::core::generator::Generator;
use crate::core::text::Pos;
use crate::dmg::{DmgConfig, DmgGenerator, DmgSetupError};
use crate::grammar::{GrammarConfig, GrammarGenerator, GrammarSetupError};
use crate::map::{MapConfig, MapGenerator, MapSetupError};
use crate::maze::{MazeConfig, MazeGenerator};
use crate::regions::{RegionsConfig, RegionsGenerator};

/// The kind registry: one line per generator kind, `Variant, section, "name", Config,
/// Generator, "doc"`. The section (the profile's `[section]` and the `Profile` variant's field)
/// is the kind's name. From this table come the kinds list, the `Profile` enum, the file layout
/// with one optional section per kind, the built-in defaults, parsing (a profile takes only its
/// own kind's section), validation, TOML output and dispatch to the generator. A kind's config
/// type needs `Default`, serde, `Clone`, `PartialEq` and `validate() -> Result<(), ConfigError>`;
/// its generator `new(config) -> Result<Self, E>` with `ProfileError: From<E>`. Adding a kind is
/// its folder plus one line here.
macro_rules! kinds {
    ($($variant:ident, $section:ident, $name:literal, $config:ty, $generator:ty, $doc:literal;)*) => {
        /// The generator kinds this build knows.
        pub const KINDS: &[&str] = &[$($name),*];

        /// A complete, resolved profile.
        #[derive(Clone, Debug, PartialEq)]
        pub enum Profile {
            $(
                #[doc = $doc]
                $variant {
                    /// The kind's parameters.
                    $section: $config,
                },
            )*
        }

        /// The file layout of a profile. A plain struct (not a tagged enum) so that toml keeps
        /// the position of every error.
        #[derive(Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        struct ProfileDoc<K> {
            kind: K,
            $(
                #[serde(default, skip_serializing_if = "Option::is_none")]
                $section: Option<$config>,
            )*
        }

        impl<K> ProfileDoc<K> {
            /// The kinds whose section the document has.
            fn sections(&self) -> Vec<&'static str> {
                let mut out = Vec::new();
                $(
                    if self.$section.is_some() {
                        out.push($name);
                    }
                )*
                out
            }
        }

        impl Profile {
            /// The generator kind name.
            pub fn kind(&self) -> &'static str {
                match self {
                    $(Profile::$variant { .. } => $name,)*
                }
            }

            /// The built-in default profile of `kind`.
            pub fn builtin(kind: &str) -> Result<Self, ProfileError> {
                match kind {
                    $($name => Ok(Profile::$variant { $section: <$config>::default() }),)*
                    _ => Err(ProfileError::UnknownKind(kind.to_string())),
                }
            }

            /// The profile of `kind` from a parsed document (its section, or the defaults).
            fn from_doc<K>(kind: &str, doc: ProfileDoc<K>) -> Option<Self> {
                match kind {
                    $($name => Some(Profile::$variant {
                        $section: doc.$section.unwrap_or_default(),
                    }),)*
                    _ => None,
                }
            }

            /// Checks every value's range.
            pub fn validate(&self) -> Result<(), ProfileError> {
                match self {
                    $(Profile::$variant { $section } => Ok($section.validate()?),)*
                }
            }

            /// The full resolved profile as TOML (stored in archives as `warren.profile`).
            pub fn to_toml(&self) -> String {
                let mut doc = ProfileDoc {
                    kind: self.kind(),
                    $($section: None,)*
                };
                match self {
                    $(Profile::$variant { $section } => doc.$section = Some($section.clone()),)*
                }
                toml::to_string(&doc).expect("profiles always serialise")
            }

            /// Builds this profile's generator and hands it to `task`. The files the generator
            /// reads as it is built are recorded for the archive's metadata
            /// (`crate::core::files`).
            pub fn with_generator<T: GeneratorTask>(
                &self,
                task: T,
            ) -> Result<T::Output, ProfileError> {
                match self {
                    $(Profile::$variant { $section } => {
                        let (generator, files) = crate::core::files::record(|| {
                            <$generator>::new($section.clone())
                        });
                        crate::core::files::set_last_built(files);
                        Ok(task.run(&generator?))
                    })*
                }
            }
        }
    };
}

kinds! {
    Maze, maze, "maze", MazeConfig, MazeGenerator, "Seed 001 mazes.";
    Grammar, grammar, "grammar", GrammarConfig, GrammarGenerator, "Seed 000 graph-grammar levels.";
    Dmg, dmg, "dmg", DmgConfig, DmgGenerator, "Seed 003 DMG dungeons.";
    Regions, regions, "regions", RegionsConfig, RegionsGenerator, "Seed 004 recursive zoom regions.";
    Coloring, coloring, "coloring", ColoringConfig, ColoringGenerator, "Seed 002 GraphColoring puzzle levels.";
    Map, map, "map", MapConfig, MapGenerator, "Maps from a designer's level graph.";
}

/// A profile could not be loaded or changed.
#[derive(Debug, Error)]
pub enum ProfileError {
    /// The name is neither a known kind nor an existing file.
    #[error("unknown generator kind or profile file `{0}` (known kinds: {kinds})", kinds = KINDS.join(", "))]
    UnknownKind(String),
    /// The profile file could not be read.
    #[error("{path}: cannot read")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The profile text is not valid (syntax, unknown key, wrong type); the message carries the
    /// line and column.
    #[error("{origin}: {message}")]
    Parse {
        /// File name, or `built-in <kind>`.
        origin: String,
        /// toml's message, with position.
        message: String,
    },
    /// A `--set` argument is malformed or names an unknown key.
    #[error("--set {arg}: {message}")]
    Set {
        /// The argument as given.
        arg: String,
        /// What is wrong.
        message: String,
    },
    /// A value is out of its allowed range.
    #[error(transparent)]
    Invalid(#[from] ConfigError),
    /// The grammar's rules could not be read or are invalid.
    #[error(transparent)]
    Rules(#[from] crate::grammar::rule::GrammarError),
    /// A dungeon table file is unreadable or invalid.
    #[error(transparent)]
    Table(#[from] crate::dmg::tables::TableError),
    /// A level graph or template library is unreadable, invalid, or unusable together.
    #[error("{0}")]
    Map(String),
}

impl From<MapSetupError> for ProfileError {
    fn from(e: MapSetupError) -> Self {
        match e {
            MapSetupError::Config(c) => ProfileError::Invalid(c),
            other => ProfileError::Map(other.to_string()),
        }
    }
}

impl From<DmgSetupError> for ProfileError {
    fn from(e: DmgSetupError) -> Self {
        match e {
            DmgSetupError::Config(c) => ProfileError::Invalid(c),
            DmgSetupError::Table(t) => ProfileError::Table(t),
        }
    }
}

impl From<GrammarSetupError> for ProfileError {
    fn from(e: GrammarSetupError) -> Self {
        match e {
            GrammarSetupError::Config(c) => ProfileError::Invalid(c),
            GrammarSetupError::Rules(r) => ProfileError::Rules(r),
            GrammarSetupError::Map(m) => ProfileError::Map(m),
        }
    }
}

impl Profile {
    /// A kind name (built-in profile) or a path to a profile file.
    pub fn resolve(name: &str) -> Result<Self, ProfileError> {
        if KINDS.contains(&name) {
            return Self::builtin(name);
        }
        let path = Path::new(name);
        if path.extension().is_some_and(|e| e == "toml") || path.exists() {
            return Self::from_file(path);
        }
        Err(ProfileError::UnknownKind(name.to_string()))
    }

    /// Reads a profile file.
    pub fn from_file(path: &Path) -> Result<Self, ProfileError> {
        let text = std::fs::read_to_string(path).map_err(|source| ProfileError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Self::from_toml(&text, &path.display().to_string())
    }

    /// Parses profile text; `origin` names it in errors.
    pub fn from_toml(text: &str, origin: &str) -> Result<Self, ProfileError> {
        let at = |span: Option<std::ops::Range<usize>>, message: String| ProfileError::Parse {
            origin: match span {
                Some(span) => format!("{origin}:{}", Pos::of(text, span.start)),
                None => origin.to_string(),
            },
            message,
        };
        let doc: ProfileDoc<toml::Spanned<String>> =
            toml::from_str(text).map_err(|e| at(e.span(), one_line(e.message())))?;
        let kind_start = doc.kind.span().start;
        let kind_span = Some(doc.kind.span());
        // A profile takes only the section of its own kind.
        let kind = doc.kind.get_ref().clone();
        if KINDS.contains(&kind.as_str()) && doc.sections().iter().any(|&k| k != kind) {
            return Err(at(
                kind_span,
                format!("a `{kind}` profile takes only a [{kind}] section"),
            ));
        }
        let Some(profile) = Profile::from_doc(&kind, doc) else {
            let known = KINDS.join(", ");
            return Err(at(
                kind_span,
                format!("unknown generator kind `{kind}` (known kinds: {known})"),
            ));
        };
        // Range errors name their key: point at the key's line when the file sets it.
        profile.validate().map_err(|e| match e {
            ProfileError::Invalid(invalid) => match locate_key(text, invalid.key) {
                Some(at) => ProfileError::Parse {
                    origin: format!("{origin}:{at}"),
                    message: invalid.to_string(),
                },
                None if origin.is_empty() => ProfileError::Invalid(invalid),
                // NOTE: a key left at its default (a rule between two keys) is placed at its
                // section's header, or at the kind when the file has no such header.
                None => ProfileError::Parse {
                    origin: format!(
                        "{origin}:{}",
                        locate_section(text, invalid.key)
                            .unwrap_or_else(|| Pos::of(text, kind_start).to_string())
                    ),
                    message: invalid.to_string(),
                },
            },
            other => other,
        })?;
        Ok(profile)
    }

    /// Applies one `section.key=value` override. The value is read as TOML (`64`, `true`,
    /// `"x+y"`, `[0.2, 0.8]`); a bare word is taken as a string.
    pub fn set(&mut self, arg: &str) -> Result<(), ProfileError> {
        let err = |message: String| ProfileError::Set {
            arg: arg.to_string(),
            message,
        };
        let (key, raw) = arg
            .split_once('=')
            .ok_or_else(|| err("expected key=value".into()))?;
        let key = key.trim();
        let value = parse_value(raw.trim());
        let mut table: toml::Table = toml::from_str(&self.to_toml()).expect("own TOML parses");
        let path: Vec<&str> = key.split('.').collect();
        if path.iter().any(|p| p.is_empty()) {
            return Err(err(format!("`{key}` is not a dotted key")));
        }
        if path == ["kind"] {
            return Err(err("the kind is chosen by the profile, not by --set".into()));
        }
        let (last, parents) = path.split_last().expect("non-empty");
        let mut node = &mut table;
        for p in parents {
            node = match node.get_mut(*p) {
                Some(toml::Value::Table(t)) => t,
                _ => {
                    return Err(err(format!(
                        "unknown key `{key}`{}",
                        known_keys(&table_keys(self), key)
                    )));
                }
            };
        }
        match node.get_mut(*last) {
            Some(slot) if !slot.is_table() => *slot = value,
            _ => {
                return Err(err(format!(
                    "unknown key `{key}`{}",
                    known_keys(&table_keys(self), key)
                )));
            }
        }
        let text = toml::to_string(&table).expect("table serialises");
        let updated = Profile::from_toml(&text, "").map_err(|e| match e {
            ProfileError::Parse { message, .. } => {
                err(format!("bad value `{}`: {message}", raw.trim()))
            }
            other => other,
        })?;
        *self = updated;
        Ok(())
    }
}

/// Work that needs a concrete generator type (closures cannot be generic, so this trait is
/// how kind-agnostic code such as the batch engine or `verify` reaches each kind).
pub trait GeneratorTask {
    /// What the task returns.
    type Output;
    /// Runs with the profile's generator.
    fn run<G: Generator>(self, generator: &G) -> Self::Output;
}

/// Every settable key of the profile, dotted.
fn table_keys(profile: &Profile) -> Vec<String> {
    let table: toml::Table = toml::from_str(&profile.to_toml()).expect("own TOML parses");
    let mut keys = Vec::new();
    for (section, v) in &table {
        if let toml::Value::Table(t) = v {
            keys.extend(t.keys().map(|k| format!("{section}.{k}")));
        }
    }
    keys
}

fn known_keys(keys: &[String], key: &str) -> String {
    let section = key.split('.').next().unwrap_or("");
    let same: Vec<&str> = keys
        .iter()
        .filter(|k| k.starts_with(&format!("{section}.")))
        .map(String::as_str)
        .collect();
    let list = if same.is_empty() {
        keys.iter().map(String::as_str).collect()
    } else {
        same
    };
    format!(" (known: {})", list.join(", "))
}

fn parse_value(raw: &str) -> toml::Value {
    let doc = format!("v = {raw}");
    match toml::from_str::<toml::Table>(&doc) {
        Ok(mut t) => t.remove("v").expect("key v"),
        Err(_) => toml::Value::String(raw.to_string()),
    }
}

/// `line:column` of the value of dotted `key` (`section.name`) in TOML `text`, if it is set
/// there as `name = value` under `[section]`.
fn locate_key(text: &str, key: &str) -> Option<String> {
    let (section, name) = key.split_once('.')?;
    let mut in_section = false;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if let Some(header) = t.strip_prefix('[') {
            in_section = header.split(']').next().map(str::trim) == Some(section);
            continue;
        }
        if !in_section {
            continue;
        }
        if let Some(rest) = t.strip_prefix(name)
            && let Some(value) = rest.trim_start().strip_prefix('=')
        {
            let column = line.len() - value.trim_start().len() + 1;
            return Some(format!("{}:{column}", i + 1));
        }
    }
    None
}

/// `line:1` of the `[section]` header of dotted `key` in TOML `text`, if there is one.
fn locate_section(text: &str, key: &str) -> Option<String> {
    let (section, _) = key.split_once('.')?;
    text.lines()
        .position(|line| {
            line.trim_start()
                .strip_prefix('[')
                .and_then(|h| h.split(']').next())
                .map(str::trim)
                == Some(section)
        })
        .map(|i| format!("{}:1", i + 1))
}

/// toml's messages span several lines (a source excerpt); keep them on one line.
fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && *l != "|")
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_profile_equals_the_builtin_one() {
        let text = include_str!("../profiles/maze.toml");
        assert_eq!(
            Profile::from_toml(text, "maze.toml").unwrap(),
            Profile::builtin("maze").unwrap()
        );
    }

    #[test]
    fn the_shipped_grammar_profile_equals_the_builtin_one() {
        let text = include_str!("../profiles/grammar.toml");
        assert_eq!(
            Profile::from_toml(text, "grammar.toml").unwrap(),
            Profile::builtin("grammar").unwrap()
        );
    }

    #[test]
    fn the_shipped_dmg_profile_equals_the_builtin_one() {
        let text = include_str!("../profiles/dmg.toml");
        assert_eq!(
            Profile::from_toml(text, "dmg.toml").unwrap(),
            Profile::builtin("dmg").unwrap()
        );
    }

    #[test]
    fn the_shipped_regions_profile_equals_the_builtin_one() {
        let text = include_str!("../profiles/regions.toml");
        assert_eq!(
            Profile::from_toml(text, "regions.toml").unwrap(),
            Profile::builtin("regions").unwrap()
        );
    }

    #[test]
    fn a_regions_profile_names_its_bad_key_with_line_and_column() {
        let err = |text: &str| Profile::from_toml(text, "r.toml").unwrap_err().to_string();
        let e = err("kind = \"regions\"\n[regions]\nmax_zoom = 1\n");
        assert!(
            e.starts_with("r.toml:3:12: regions.max_zoom = 1 is out of range"),
            "{e}"
        );
        let e = err("kind = \"regions\"\n[regions]\ndepht = 2\n");
        assert!(e.starts_with("r.toml:3:1: unknown field `depht`"), "{e}");
        let e = err("kind = \"regions\"\n[maze]\nwidth = 9\n");
        assert!(
            e.contains("a `regions` profile takes only a [regions] section"),
            "{e}"
        );
    }

    #[test]
    fn the_shipped_coloring_profile_equals_the_builtin_one() {
        let text = include_str!("../profiles/coloring.toml");
        assert_eq!(
            Profile::from_toml(text, "coloring.toml").unwrap(),
            Profile::builtin("coloring").unwrap()
        );
    }

    #[test]
    fn the_coloring_profiles_ask_for_their_puzzles() {
        use crate::coloring::puzzle::PuzzleKind;
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/profiles/");
        for (file, puzzle, chromatic) in [
            ("coloring.toml", PuzzleKind::Vertex, false),
            ("coloring-chromatic.toml", PuzzleKind::Vertex, true),
            ("coloring-edge.toml", PuzzleKind::Edge, false),
            ("coloring-euler-cycle.toml", PuzzleKind::EulerCycle, false),
            ("coloring-euler-path.toml", PuzzleKind::EulerPath, false),
        ] {
            let p = Profile::from_file(Path::new(&format!("{dir}{file}"))).unwrap();
            let Profile::Coloring { coloring } = p else {
                panic!("{file}: not a coloring profile")
            };
            assert_eq!(
                (coloring.puzzle, coloring.chromatic),
                (puzzle, chromatic),
                "{file}"
            );
        }
    }

    #[test]
    fn a_coloring_profile_names_its_bad_key_with_line_and_column() {
        let err = |text: &str| Profile::from_toml(text, "c.toml").unwrap_err().to_string();
        let e = err("kind = \"coloring\"\n[coloring]\npuzzle = \"edge\"\ncolors = 2\n");
        assert!(
            e.starts_with("c.toml:4:10: coloring.colors = 2: edge puzzles need at least 3"),
            "{e}"
        );
        let e = err("kind = \"coloring\"\n[coloring]\npuzzle = \"face\"\n");
        assert!(e.starts_with("c.toml:3:10: unknown variant `face`"), "{e}");
        let mut p = Profile::builtin("coloring").unwrap();
        p.set("coloring.puzzle=euler_path").unwrap();
        assert!(p.to_toml().contains("puzzle = \"euler_path\""));
        let e = p.set("coloring.keep=0").unwrap_err().to_string();
        assert!(e.contains("coloring.keep = 0 is out of range"), "{e}");
    }

    #[test]
    fn every_shipped_profile_loads() {
        for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/profiles")).unwrap() {
            let path = entry.unwrap().path();
            Profile::from_file(&path).unwrap_or_else(|e| panic!("{e}"));
        }
    }

    #[test]
    fn set_changes_one_value() {
        let mut p = Profile::builtin("maze").unwrap();
        p.set("maze.width=64").unwrap();
        p.set("maze.topology=delaunay").unwrap();
        p.set("maze.gradient=x+y").unwrap();
        let Profile::Maze { maze } = &p else {
            panic!("a maze profile")
        };
        assert_eq!(maze.width, 64);
        assert_eq!(maze.topology, crate::maze::MazeTopology::Delaunay);
        assert_eq!(maze.gradient, crate::maze::Gradient::XPlusY);
    }

    #[test]
    fn set_rejects_unknown_keys_and_bad_values() {
        let mut p = Profile::builtin("maze").unwrap();
        let e = p.set("maze.wdth=3").unwrap_err().to_string();
        assert!(
            e.contains("unknown key `maze.wdth`") && e.contains("maze.width"),
            "{e}"
        );
        let e = p.set("maze.width=wide").unwrap_err().to_string();
        assert!(e.contains("bad value `wide`"), "{e}");
        let e = p.set("maze.width=0").unwrap_err().to_string();
        assert!(e.contains("out of range"), "{e}");
        assert!(p.set("nonsense").is_err());
        assert!(p.set("grammar.max_vertices=1").is_err());
    }

    #[test]
    fn file_errors_carry_line_and_column() {
        let err = |text: &str| Profile::from_toml(text, "p.toml").unwrap_err().to_string();
        let e = err("kind = \"maze\"\n[maze]\nwidht = 3\n");
        assert!(e.starts_with("p.toml:3:1: unknown field `widht`"), "{e}");
        let e = err("kind = \"gramar\"\n");
        assert!(
            e.starts_with("p.toml:1:8: unknown generator kind `gramar`"),
            "{e}"
        );
        let e = err("kind = \"maze\"\n[maze]\nwidth = \"x\"\n");
        assert!(e.starts_with("p.toml:3:9: "), "{e}");
        let e = err("kind = \"maze\"\n\n[maze]\nheight = 9\nwidth  =  0\n");
        assert!(
            e.starts_with("p.toml:5:11: maze.width = 0 is out of range"),
            "{e}"
        );
        let e = err("kind = \"maze\"\n[maze\n");
        assert!(e.starts_with("p.toml:2:"), "{e}");
    }

    /// Found by fuzzing: a range error about a key the file leaves at its default named the file
    /// but no place in it.
    #[test]
    fn range_error_on_a_default_key_names_its_section() {
        let text = "kind = \"grammar\"\n\n[grammar]\ntile_size = 5\n";
        let e = Profile::from_toml(text, "p.toml").unwrap_err().to_string();
        assert!(e.starts_with("p.toml:3:1: grammar.room_margin"), "{e}");
    }
}
