//! The kind registry: one line per generator kind naming its section, its configuration and
//! generator types, and the facts that every kind-agnostic part of warren reads from here rather
//! than from a list of its own: the kinds list, whether levels are grids with a start and a goal
//! (JaxUED and MiniGrid exports), what a dataset card calls them, and how many heap allocations a
//! level may make once a worker is warm (the allocation audit). Adding a kind is its folder under
//! `src/` plus one line here; `docs/ARCHITECTURE.md` lists what then fails until it is complete.

use serde::{Deserialize, Serialize};

use super::error::ProfileError;
use super::mixture::{Mixture, MixtureSpec};
use super::task::GeneratorTask;
use crate::coloring::ColoringGenerator;
use crate::coloring::puzzle::ColoringConfig;
use crate::dmg::{DmgConfig, DmgGenerator};
use crate::grammar::{GrammarConfig, GrammarGenerator};
use crate::map::{MapConfig, MapGenerator};
use crate::maze::{MazeConfig, MazeGenerator};
use crate::regions::{RegionsConfig, RegionsGenerator};
use crate::task::{TaskConfig, TaskGenerator};

/// What the registry says of one kind, beside its types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KindFacts {
    /// The kind's name: its profile's `kind`, its `[section]`, its folder under `src/`.
    pub name: &'static str,
    /// One line: what its levels are.
    pub doc: &'static str,
    /// What a dataset card (`warren card`) says its levels are.
    pub card: &'static str,
    /// Whether its levels are tile grids with a start and a goal: `export --jaxued` and
    /// `warren.minigrid` take these kinds and refuse the others.
    pub grid: bool,
    /// Heap allocations a level of the default profile may make once a worker's scratch is
    /// warm, beside those `core::alloc::listed` marks (`tests/allocations.rs` holds every kind
    /// to it).
    pub allocations: u64,
}

impl KindFacts {
    /// The facts of kind `name`, if this build knows it.
    pub fn of(name: &str) -> Option<&'static KindFacts> {
        KIND_FACTS.iter().find(|k| k.name == name)
    }
}

/// The kind registry's expansion: from one line per generator kind, `Variant, section, "name",
/// Config, Generator, { facts }`. The section (the profile's `[section]` and the `Profile` variant's field)
/// is the kind's name. From this table come the kinds list, the `Profile` enum, the file layout
/// with one optional section per kind, the built-in defaults, parsing (a profile takes only its
/// own kind's section), validation, TOML output and dispatch to the generator. A kind's config
/// type needs `Default`, serde, `Clone`, `PartialEq` and `validate() -> Result<(), ConfigError>`;
/// its generator `new(config) -> Result<Self, E>` with `ProfileError: From<E>`. The facts become
/// the kind's [`KindFacts`]. Adding a kind is its folder plus one line in the table below.
macro_rules! kinds {
    ($($variant:ident, $section:ident, $name:literal, $config:ty, $generator:ty, {
        doc: $doc:literal,
        card: $card:literal,
        grid: $grid:literal,
        allocations: $allocations:literal $(,)?
    };)*) => {
        /// The generator kinds this build knows.
        pub const KINDS: &[&str] = &[$($name),*];

        /// What the registry says of every kind, in the order of [`KINDS`].
        pub const KIND_FACTS: &[KindFacts] = &[$(KindFacts {
            name: $name,
            doc: $doc,
            card: $card,
            grid: $grid,
            allocations: $allocations,
        }),*];

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
        pub(super) struct ProfileDoc<K> {
            pub(super) kind: K,
            $(
                #[serde(default, skip_serializing_if = "Option::is_none")]
                $section: Option<$config>,
            )*
        }

        impl<K> ProfileDoc<K> {
            /// The kinds whose section the document has.
            pub(super) fn sections(&self) -> Vec<&'static str> {
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
                    _ => Err(ProfileError::UnknownKind {
                        name: kind.to_string(),
                        known: KINDS.join(", "),
                    }),
                }
            }

            /// The profile of `kind` from a parsed document (its section, or the defaults).
            pub(super) fn from_doc<K>(kind: &str, doc: ProfileDoc<K>) -> Option<Self> {
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

            /// Builds one generator per variant of `spec` (this profile with that variant's
            /// `--set` overrides) and hands their [`Mixture`] to `task` (`warren pack`,
            /// and `warren verify` of an archive whose metadata records a mixture). The files
            /// every part reads are recorded together.
            ///
            /// # Errors
            /// An override that does not apply, a part that cannot be built, parts that do not
            /// form a mixture ([`MixtureError`]).
            pub fn with_mixture<T: GeneratorTask>(
                &self,
                spec: &MixtureSpec,
                task: T,
            ) -> Result<T::Output, ProfileError> {
                let profiles = spec
                    .variants
                    .iter()
                    .map(|sets| {
                        let mut p = self.clone();
                        p.set_all(sets)?;
                        Ok(p)
                    })
                    .collect::<Result<Vec<Profile>, ProfileError>>()?;
                match self {
                    $(Profile::$variant { .. } => {
                        let (parts, files) = crate::core::files::record(|| {
                            profiles
                                .iter()
                                .map(|p| match p {
                                    Profile::$variant { $section } => {
                                        Ok(<$generator>::new($section.clone())?)
                                    }
                                    _ => unreachable!("a variant keeps its profile's kind"),
                                })
                                .collect::<Result<Vec<$generator>, ProfileError>>()
                        });
                        crate::core::files::set_last_built(files);
                        let mixture = Mixture::new(parts?, &spec.weights)?
                            .with_binary_grid(spec.binary_grid);
                        Ok(task.run(&mixture))
                    })*
                }
            }
        }
    };
}

// The registry. `allocations` is an upper bound measured with tests/allocations.rs
// (`every_kind_keeps_its_allocation_promise` prints each kind's count).
kinds! {
    Maze, maze, "maze", MazeConfig, MazeGenerator, {
        doc: "Seed 001 mazes.",
        card: "mazes, a spanning tree over a lattice or a Delaunay graph of rooms with its dead \
               ends merged and optionally braided (warren's seed 001)",
        grid: true,
        allocations: 0,
    };
    Grammar, grammar, "grammar", GrammarConfig, GrammarGenerator, {
        doc: "Seed 000 graph-grammar levels.",
        card: "dungeons grown by graph-grammar rewriting, laid out by a force solver and drawn as \
               tile maps of rooms and corridors (seed 000)",
        grid: true,
        allocations: 0,
    };
    Dmg, dmg, "dmg", DmgConfig, DmgGenerator, {
        doc: "Seed 003 DMG dungeons.",
        card: "dungeons in the manner of the Dungeon Master's Guide's random dungeons: passages, \
               doors, chambers and stairs explored from a start area (seed 003)",
        grid: true,
        allocations: 0,
    };
    Regions, regions, "regions", RegionsConfig, RegionsGenerator, {
        doc: "Seed 004 recursive zoom regions.",
        card: "maps built by carving, splitting and zooming regions again and again (seed 004)",
        grid: true,
        allocations: 0,
    };
    Coloring, coloring, "coloring", ColoringConfig, ColoringGenerator, {
        doc: "Seed 002 GraphColoring puzzle levels.",
        card: "GraphColoring puzzle levels, each proven solvable (seed 002)",
        grid: false,
        allocations: 1150,
    };
    Map, map, "map", MapConfig, MapGenerator, {
        doc: "Maps from a designer's level graph.",
        card: "tile maps laid out from a designer's level graph with room templates, as Edgar does",
        grid: true,
        allocations: 40,
    };
    Task, task, "task", TaskConfig, TaskGenerator, {
        doc: "Reasoning tasks (question, exact answer, scorer) as views of levels.",
        card: "reasoning tasks for language models, each a question with an exact answer and a \
               ground truth its scorer checks, made from warren's levels",
        grid: false,
        allocations: 0,
    };
}
