//! The random tables of seed 003's dungeon, as data (`data/dmg/*.toml`, in warren's own words,
//! after the structure of the DMG's Appendix A): what starts the dungeon, what follows a stretch
//! of passage, how wide passages are, what lies beyond a door, chamber sizes and shapes, how many
//! exits a chamber has and where, door kinds and stairs.
//!
//! A table file names its die and lists rolls:
//!
//! ```toml
//! die = 20
//! [[roll]]
//! range = [1, 2]          # inclusive; a single face is [7, 7]
//! outcome = "straight"
//! length_ft = 30          # parameters, where the outcome takes them
//! ```
//!
//! Tables are validated when loaded: the ranges must cover `1..=die` exactly (no gap, no
//! overlap), every outcome must be one the table's kind knows, and the parameters an outcome
//! needs must be there. Errors name the file, line and column. The built-in tables are compiled
//! in; a user's folder can replace any of them by holding a file of the same name.

use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use crate::core::text::Pos;

/// Which table a file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableKind {
    /// How the dungeon begins (d10 in the DMG).
    Start,
    /// What follows a stretch of passage (d20).
    Passage,
    /// Passage widths (d20).
    PassageWidth,
    /// What lies beyond a door (d20).
    BeyondDoor,
    /// Chamber shapes and sizes (d20).
    Chamber,
    /// How many exits a chamber has (d20).
    ChamberExits,
    /// Which wall an exit is in (d20).
    ExitLocation,
    /// Whether an exit is a door or an open passage (d20).
    ExitKind,
    /// Door kinds (d20).
    Door,
    /// Stairs (d20).
    Stairs,
}

/// A parameter an outcome takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param {
    /// `length_ft`.
    Length,
    /// `width_ft`.
    Width,
    /// `count`.
    Count,
    /// `chance` (percent).
    Chance,
}

impl Param {
    fn key(self) -> &'static str {
        match self {
            Param::Length => "length_ft",
            Param::Width => "width_ft",
            Param::Count => "count",
            Param::Chance => "chance",
        }
    }
}

/// Every table kind, in file order.
pub const KINDS: [TableKind; 10] = [
    TableKind::Start,
    TableKind::Passage,
    TableKind::PassageWidth,
    TableKind::BeyondDoor,
    TableKind::Chamber,
    TableKind::ChamberExits,
    TableKind::ExitLocation,
    TableKind::ExitKind,
    TableKind::Door,
    TableKind::Stairs,
];

impl TableKind {
    /// The file name (without `.toml`).
    pub fn name(self) -> &'static str {
        match self {
            TableKind::Start => "start",
            TableKind::Passage => "passage",
            TableKind::PassageWidth => "passage_width",
            TableKind::BeyondDoor => "beyond_door",
            TableKind::Chamber => "chamber",
            TableKind::ChamberExits => "chamber_exits",
            TableKind::ExitLocation => "exit_location",
            TableKind::ExitKind => "exit_kind",
            TableKind::Door => "door",
            TableKind::Stairs => "stairs",
        }
    }

    /// The outcomes this table may name, each with the parameters it needs.
    pub fn outcomes(self) -> &'static [(&'static str, &'static [Param])] {
        use Param::{Chance, Count, Length, Width};
        match self {
            TableKind::Start => &[("passage", &[Length]), ("chamber", &[Width, Length])],
            TableKind::Passage => &[
                ("straight", &[Length]),
                ("door_left", &[]),
                ("door_right", &[]),
                ("door_ahead", &[]),
                ("branch_left", &[]),
                ("branch_right", &[]),
                ("turn_left", &[Length]),
                ("turn_right", &[Length]),
                ("dead_end", &[Chance]),
                ("chamber", &[]),
                ("stairs", &[]),
            ],
            TableKind::PassageWidth => &[("width", &[Width])],
            TableKind::BeyondDoor => &[
                ("passage_ahead", &[Length]),
                ("passage_left_right", &[Length]),
                ("chamber", &[]),
                ("false_door", &[]),
            ],
            TableKind::Chamber => &[
                ("rectangle", &[Width, Length]),
                ("circle", &[Width]),
                ("octagon", &[Width]),
                ("cross", &[Width, Length]),
            ],
            TableKind::ChamberExits => &[("exits", &[Count])],
            TableKind::ExitLocation => &[
                ("opposite", &[]),
                ("left", &[]),
                ("right", &[]),
                ("same", &[]),
            ],
            TableKind::ExitKind => &[("door", &[]), ("passage", &[])],
            TableKind::Door => &[
                ("wooden", &[]),
                ("stone", &[]),
                ("locked", &[]),
                ("secret", &[]),
                ("portcullis", &[]),
                ("barred", &[]),
            ],
            TableKind::Stairs => &[("down", &[]), ("up", &[]), ("down_two", &[])],
        }
    }

    /// The built-in file text.
    pub fn builtin_text(self) -> &'static str {
        match self {
            TableKind::Start => include_str!("../../data/dmg/start.toml"),
            TableKind::Passage => include_str!("../../data/dmg/passage.toml"),
            TableKind::PassageWidth => include_str!("../../data/dmg/passage_width.toml"),
            TableKind::BeyondDoor => include_str!("../../data/dmg/beyond_door.toml"),
            TableKind::Chamber => include_str!("../../data/dmg/chamber.toml"),
            TableKind::ChamberExits => include_str!("../../data/dmg/chamber_exits.toml"),
            TableKind::ExitLocation => include_str!("../../data/dmg/exit_location.toml"),
            TableKind::ExitKind => include_str!("../../data/dmg/exit_kind.toml"),
            TableKind::Door => include_str!("../../data/dmg/door.toml"),
            TableKind::Stairs => include_str!("../../data/dmg/stairs.toml"),
        }
    }
}

/// One roll's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Lowest face.
    pub lo: u32,
    /// Highest face.
    pub hi: u32,
    /// The outcome (one of the kind's names).
    pub outcome: &'static str,
    /// `length_ft` (0 when absent).
    pub length_ft: u32,
    /// `width_ft` (0 when absent).
    pub width_ft: u32,
    /// `count` (0 when absent).
    pub count: u32,
    /// `chance` in percent (0 when absent).
    pub chance: u32,
}

/// A validated table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// Which table.
    pub kind: TableKind,
    /// Faces of the die.
    pub die: u32,
    /// Entries in face order.
    pub entries: Vec<Entry>,
    /// `by_face[f - 1]`: the entry index for face `f`.
    by_face: Vec<u8>,
}

impl Table {
    /// The entry for face `face` (`1..=die`).
    #[inline]
    pub fn entry(&self, face: u32) -> &Entry {
        &self.entries[self.by_face[face as usize - 1] as usize]
    }

    /// Rolls the die and returns the entry.
    pub fn roll(&self, rng: &mut crate::core::rng::WarrenRng) -> &Entry {
        self.entry(1 + rng.below(self.die))
    }
}

/// A table file that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{at}: {message}")]
pub struct TableError {
    /// The file (or `built-in NAME`).
    pub file: String,
    /// The place in the file (0:0 when the error is not in one place).
    pub at: Pos,
    /// What is wrong.
    pub message: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Doc {
    die: Spanned<u32>,
    roll: Vec<Spanned<RollDoc>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RollDoc {
    range: Spanned<[u32; 2]>,
    outcome: Spanned<String>,
    length_ft: Option<u32>,
    width_ft: Option<u32>,
    count: Option<u32>,
    chance: Option<u32>,
}

/// A table file's text and name, for errors that point into it.
struct Source<'a> {
    text: &'a str,
    file: &'a str,
}

impl Source<'_> {
    /// An error at byte `offset` of the text.
    fn error(&self, offset: usize, message: String) -> TableError {
        TableError {
            file: self.file.to_string(),
            at: Pos::of(self.text, offset),
            message,
        }
    }

    /// The text read as a table document; TOML errors keep their position, their message on
    /// one line.
    fn document(&self) -> Result<Doc, TableError> {
        toml::from_str(self.text).map_err(|e| {
            let at = e.span().map_or(0, |s| s.start);
            let message = e
                .message()
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect::<Vec<_>>()
                .join(" ");
            self.error(at, message)
        })
    }
}

/// Parses and validates a table of `kind` from `text`; `file` names it in errors.
///
/// # Errors
/// Syntax errors and unknown keys (from the TOML reader, with their position); a die of 0 or
/// more than 100 faces; a range outside `1..=die`, reversed, overlapping another or leaving a
/// face uncovered; an outcome the kind does not know; a missing parameter.
pub fn parse_table(kind: TableKind, text: &str, file: &str) -> Result<Table, TableError> {
    let src = Source { text, file };
    let doc = src.document()?;
    let die = *doc.die.get_ref();
    if !(1..=100).contains(&die) {
        return Err(src.error(
            doc.die.span().start,
            format!("die = {die}: a table's die has 1 to 100 faces"),
        ));
    }
    // The roll owning each face, `owner[f - 1]` for face `f`.
    let mut owner: Vec<Option<usize>> = vec![None; die as usize];
    let mut entries = Vec::with_capacity(doc.roll.len());
    for (i, roll) in doc.roll.iter().enumerate() {
        let [lo, hi] = claim_faces(&src, roll.get_ref(), i, &mut owner)?;
        entries.push(parse_roll(&src, kind, roll, lo, hi)?);
    }
    if let Some(face) = owner.iter().position(Option::is_none) {
        return Err(src.error(
            doc.die.span().start,
            format!(
                "face {} of the d{die} has no roll (ranges must cover 1..={die})",
                face + 1
            ),
        ));
    }
    let by_face = owner
        .iter()
        .map(|o| o.expect("every face covered") as u8)
        .collect();
    Ok(Table {
        kind,
        die,
        entries,
        by_face,
    })
}

/// Marks the faces of roll `i`'s range as its own in `owner` (one slot per face of the die);
/// returns the range. Fails on a range outside the die, reversed, or overlapping an earlier
/// roll's.
fn claim_faces(
    src: &Source<'_>,
    r: &RollDoc,
    i: usize,
    owner: &mut [Option<usize>],
) -> Result<[u32; 2], TableError> {
    let die = owner.len() as u32;
    let [lo, hi] = *r.range.get_ref();
    let at = r.range.span().start;
    if lo == 0 || hi > die || lo > hi {
        return Err(src.error(
            at,
            format!("range [{lo}, {hi}] must lie within 1..={die} with the low face first"),
        ));
    }
    for face in lo..=hi {
        if let Some(other) = owner[face as usize - 1] {
            return Err(src.error(
                at,
                format!(
                    "range [{lo}, {hi}] overlaps roll {} at face {face}",
                    other + 1
                ),
            ));
        }
        owner[face as usize - 1] = Some(i);
    }
    Ok([lo, hi])
}

/// The entry of one roll covering faces `lo..=hi`: its outcome one the kind knows, with every
/// parameter that outcome needs, and a chance (if any) a percentage.
fn parse_roll(
    src: &Source<'_>,
    kind: TableKind,
    roll: &Spanned<RollDoc>,
    lo: u32,
    hi: u32,
) -> Result<Entry, TableError> {
    let r = roll.get_ref();
    let name = r.outcome.get_ref().as_str();
    let Some(&(outcome, needs)) = kind.outcomes().iter().find(|(n, _)| *n == name) else {
        let known: Vec<&str> = kind.outcomes().iter().map(|(n, _)| *n).collect();
        return Err(src.error(
            r.outcome.span().start,
            format!(
                "unknown outcome `{name}` for the {} table (known: {})",
                kind.name(),
                known.join(", ")
            ),
        ));
    };
    if let Some(p) = needs.iter().find(|&&p| r.param(p).is_none()) {
        return Err(src.error(
            roll.span().start,
            format!("outcome `{name}` needs `{}`", p.key()),
        ));
    }
    if r.chance.is_some_and(|c| c > 100) {
        return Err(src.error(roll.span().start, "chance is a percentage, 0 to 100".into()));
    }
    Ok(Entry {
        lo,
        hi,
        outcome,
        length_ft: r.length_ft.unwrap_or(0),
        width_ft: r.width_ft.unwrap_or(0),
        count: r.count.unwrap_or(0),
        chance: r.chance.unwrap_or(0),
    })
}

impl RollDoc {
    /// The value given for parameter `p`, if any.
    fn param(&self, p: Param) -> Option<u32> {
        match p {
            Param::Length => self.length_ft,
            Param::Width => self.width_ft,
            Param::Count => self.count,
            Param::Chance => self.chance,
        }
    }
}

/// All ten tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tables {
    tables: Vec<Table>,
}

impl Tables {
    /// The built-in tables.
    ///
    /// # Panics
    /// If a built-in table is invalid (a build defect, caught by the tests).
    pub fn builtin() -> Self {
        let tables = KINDS
            .iter()
            .map(|&k| {
                parse_table(k, k.builtin_text(), &format!("built-in {}", k.name()))
                    .unwrap_or_else(|e| panic!("{e}"))
            })
            .collect();
        Self { tables }
    }

    /// The built-in tables, each replaced by `dir/<name>.toml` where that file exists.
    ///
    /// # Errors
    /// An unreadable or invalid file, with its position.
    pub fn with_overrides(dir: &Path) -> Result<Self, TableError> {
        let mut t = Self::builtin();
        for (i, &k) in KINDS.iter().enumerate() {
            let path = dir.join(format!("{}.toml", k.name()));
            if crate::core::files::exists(&path) {
                let file = path.display().to_string();
                let text = crate::core::files::read_to_string(&path).map_err(|e| TableError {
                    file: file.clone(),
                    at: Pos::default(),
                    message: format!("cannot read: {e}"),
                })?;
                t.tables[i] = parse_table(k, &text, &file)?;
            }
        }
        Ok(t)
    }

    /// These tables with `table` in place of the one of its kind (tests pin single rolls).
    #[cfg(test)]
    pub(crate) fn with_table(mut self, table: Table) -> Self {
        let i = KINDS
            .iter()
            .position(|&k| k == table.kind)
            .expect("every kind");
        self.tables[i] = table;
        self
    }

    /// The table of `kind`.
    pub fn get(&self, kind: TableKind) -> &Table {
        &self.tables[KINDS.iter().position(|&k| k == kind).expect("every kind")]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_table_is_valid() {
        let t = Tables::builtin();
        for k in KINDS {
            let table = t.get(k);
            assert_eq!(table.kind, k);
            for face in 1..=table.die {
                let e = table.entry(face);
                assert!(e.lo <= face && face <= e.hi);
            }
        }
        assert_eq!(t.get(TableKind::Start).die, 10);
    }

    fn error(text: &str) -> String {
        parse_table(TableKind::Door, text, "door.toml")
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn a_gap_names_the_missing_face() {
        let e = error(
            "die = 4\n[[roll]]\nrange = [1, 2]\noutcome = \"wooden\"\n[[roll]]\nrange = [4, 4]\noutcome = \"secret\"\n",
        );
        assert_eq!(
            e,
            "door.toml:1:7: face 3 of the d4 has no roll (ranges must cover 1..=4)"
        );
    }

    #[test]
    fn an_overlap_names_the_line_and_the_other_roll() {
        let e = error(
            "die = 4\n[[roll]]\nrange = [1, 3]\noutcome = \"wooden\"\n[[roll]]\nrange = [3, 4]\noutcome = \"secret\"\n",
        );
        assert_eq!(e, "door.toml:6:9: range [3, 4] overlaps roll 1 at face 3");
    }

    #[test]
    fn an_unknown_outcome_names_the_line_and_the_known_ones() {
        let e = error("die = 2\n[[roll]]\nrange = [1, 2]\noutcome = \"glass\"\n");
        assert!(
            e.starts_with(
                "door.toml:4:11: unknown outcome `glass` for the door table (known: wooden, stone"
            ),
            "{e}"
        );
    }

    #[test]
    fn ranges_outside_the_die_and_missing_parameters_are_errors() {
        let e = error("die = 2\n[[roll]]\nrange = [1, 3]\noutcome = \"wooden\"\n");
        assert!(
            e.starts_with("door.toml:3:9: range [1, 3] must lie within 1..=2"),
            "{e}"
        );
        let e = parse_table(
            TableKind::PassageWidth,
            "die = 1\n[[roll]]\nrange = [1, 1]\noutcome = \"width\"\n",
            "w.toml",
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.starts_with("w.toml:2:1: outcome `width` needs `width_ft`"),
            "{e}"
        );
    }

    #[test]
    fn syntax_errors_and_unknown_keys_carry_their_position() {
        let e = error("die = 2\n[[roll]]\nrange = [1, 2]\noutcom = \"wooden\"\n");
        assert!(
            e.starts_with("door.toml:4:1: unknown field `outcom`"),
            "{e}"
        );
        let e = error("die = \n");
        assert!(e.starts_with("door.toml:1:"), "{e}");
    }

    #[test]
    fn a_users_folder_replaces_single_tables() {
        let dir = std::env::temp_dir().join(format!("warren-dmg-tables-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("door.toml"),
            "die = 1\n[[roll]]\nrange = [1, 1]\noutcome = \"portcullis\"\n",
        )
        .unwrap();
        let t = Tables::with_overrides(&dir).unwrap();
        assert_eq!(t.get(TableKind::Door).entry(1).outcome, "portcullis");
        assert_eq!(
            t.get(TableKind::Passage),
            Tables::builtin().get(TableKind::Passage)
        );
        std::fs::write(
            dir.join("stairs.toml"),
            "die = 2\n[[roll]]\nrange = [1, 1]\noutcome = \"up\"\n",
        )
        .unwrap();
        let e = Tables::with_overrides(&dir).unwrap_err().to_string();
        assert!(
            e.contains("stairs.toml:1:7: face 2 of the d2 has no roll"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
