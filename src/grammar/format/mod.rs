//! warren's rule-file format (`.grammar`): a small line-based language for seed 000's graph
//! grammars, with a parser that points at the line and column of every mistake and a writer
//! whose output parses back to the same grammar.
//!
//! # Why a language of its own
//! A rule is a small drawn graph: a pattern and a substitute, each a handful of named,
//! positioned vertices and the edges between them. Naming the vertices makes the
//! pattern-to-substitute map implicit: a pattern vertex maps to the substitute vertex of the
//! same name. Names are unique within a graph, so the map is injective by construction, and the
//! parser reports every pattern vertex without a namesake, so a parsed map is always total;
//! nobody counts indices. TOML would need arrays of inline tables, edges given as indices into
//! them, and a separate index map, all easy to get wrong by hand and hard to read back. A
//! line-based language also gives exact `line:column` errors, one per broken line, and keeps a
//! rule looking like the picture it describes.
//!
//! # Syntax
//! ```text
//! # comment to end of line (anywhere outside a quoted name)
//! grammar "Branching dungeon"          # optional, at most once: a display name
//! tags s a b c                         # optional: interns tags in this order (fixes their ids)
//! room default 30 30                   # room size (width height, layout units) for tags without their own
//! room a 40 30                         # room size for tag `a`
//!
//! rule start weight 1 max 1 min 0      # name, then options in any order, each optional
//! pattern
//!   S: s @ 0, 0
//! substitute
//!   S: a @ 0, 0
//!   B: b @ 100, 0
//!   S - B
//! end
//!
//! rule grow weight 2.5
//! pattern
//!   A: a|b @ 0, 0 lock !c|d            # tag set with `|`; `*` = any; flags: `lock`, `!TAGSET`
//!   B: * @ 100, 0
//!   A - B
//!   A - B cosmetic                     # parallel edges are allowed
//! substitute
//!   A: a @ 0, 0
//!   B: * @ 100, 0                      # `*` in a substitute: keep the host's tag
//!   C: c @ 50, 80
//!   A - C subdivide
//!   C - B length 0.5                   # explicit length factor
//! end
//! ```
//!
//! ## Lexical rules
//! - The file is read line by line (`\n` or `\r\n`); blank lines are ignored, and `#` starts a
//!   comment that runs to the end of the line. Spaces and tabs separate tokens and may be
//!   added freely around `:`, `@`, `,`, `-`, `|` and `!`.
//! - A **name** (rule, vertex or tag) is an identifier `[A-Za-z_][A-Za-z0-9_]*` or a run of
//!   digits (`1`, `42`: imported rulesets number their vertices). Any other name is written in
//!   double quotes, with the escapes `\"`, `\\`, `\n`, `\t` and `\r`: `"rule 3"`, `"dead-end"`.
//!   Keywords are not reserved: a vertex may be called `end` (`end: a @ 0, 0`).
//! - A **number** is a decimal float with optional sign and exponent (`12`, `-0.5`, `.5`,
//!   `1e3`, `2.5E-2`); `inf` and `nan` are not numbers. An **integer** is a run of digits.
//!
//! ## Top-level lines
//! - `grammar "NAME"`: the grammar's display name (a quoted string), at most once.
//! - `tags NAME...`: interns the tags in the order given. Tags are otherwise interned in order
//!   of first mention (in `room`, pattern and substitute lines); `s`, the start tag, is always
//!   id 0. [`write()`] lists every tag here so that ids survive a round trip.
//! - `room TAG W H`: the room size of rooms made from vertices tagged `TAG`; `room default W H`
//!   sets the size for all other tags (write `room "default" W H` for a tag named `default`).
//!   Both sizes must be positive, and each tag (and `default`) gets at most one `room` line.
//! - `rule NAME [weight F] [max N] [min N]`: opens a rule. Options come in any order, each at
//!   most once: `weight` is its relative chance among the matching rules (default 1), `max` the
//!   most times it may be applied in one level (default: no limit), `min` the number of uses
//!   before which it is preferred (default 0). Rule names are unique within a file.
//!
//! ## A rule
//! After its `rule` line a rule has a `pattern` line, the pattern's vertex and edge lines, a
//! `substitute` line, the substitute's vertex and edge lines, and an `end` line.
//! - **Pattern vertex**: `NAME: TAGS @ X, Y [lock] [!TAGS] [cosmetic]`. `TAGS` is `*` (any
//!   tag) or one or more tags joined by `|`. `lock` requires the host vertex to have exactly
//!   this vertex's pattern valence; `!TAGS` rejects a match when the host vertex has a neighbour
//!   outside the match with one of those tags; `cosmetic` matches only cosmetic host vertices.
//!   Flags come in any order, each at most once.
//! - **Substitute vertex**: `NAME: TAG @ X, Y [cosmetic]`, with exactly one tag, or `*` to keep
//!   the host vertex's tag (only for vertices that a pattern vertex maps to). A `cosmetic`
//!   vertex is laid out but never becomes a room; it needs no corridor to the rest.
//! - **Edge**: `NAME - NAME [cosmetic | subdivide] [length F]` between two vertices of the same
//!   graph, which may be declared before or after the edge. `cosmetic` edges shape the drawing
//!   only; `subdivide` corridors take their length from the drawing; `length F` sets an
//!   explicit length factor (meaningful in substitutes) and may combine with either.
//! - **The map**: each pattern vertex becomes the substitute vertex of the same name, so every
//!   pattern vertex needs one; substitute vertices with names of their own are *fresh*.
//!
//! Vertex names are unique within a graph. `X, Y` are editor positions: the orientation test
//! and the placement of fresh vertices use them. The position ([`Pos`]) recorded for a rule,
//! vertex or edge is the line and column where its line's first token starts.
//!
//! ## Errors
//! Every mistake becomes a [`Diagnostic`] with the file, line, column, the rule it is in and
//! what was expected; the parser carries on with the next line and returns them all at once as
//! [`GrammarError::Syntax`]. The semantic limits that [`Grammar::check`] enforces (a start
//! rule, connected graphs, where `s` may appear, knots, positive weights) are left to it.

use std::collections::{HashMap, HashSet};
use std::fmt::{self, Write as _};
use std::path::Path;

use crate::grammar::rule::{
    Diagnostic, EdgeKind, Grammar, GrammarError, PatternVertex, Pos, RoomSize, Rule, RuleEdge,
    RuleGraph, Severity, SubstituteVertex, TagId, TagSet, TagTable,
};

/// A parsed rule file: the grammar and its optional display name (`grammar "NAME"`).
#[derive(Clone, Debug, PartialEq)]
pub struct RuleFile {
    /// The rules, tags and room sizes.
    pub grammar: Grammar,
    /// The `grammar "NAME"` line's name, if the file has one.
    pub name: Option<String>,
}

pub use parser::{load, parse};
pub use writer::write;

/// Whether a run of `[A-Za-z0-9_]` is a valid bare name: an identifier or only digits.
fn is_bare_name(word: &str) -> bool {
    match word.chars().next() {
        None => false,
        Some(c) if c.is_ascii_digit() => word.chars().all(|c| c.is_ascii_digit()),
        Some(_) => true,
    }
}

/// Whether `s` is a decimal float: optional sign, digits with an optional point (at least one
/// digit), optional exponent.
fn is_decimal(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    let mut n = digits(&mut i);
    if b.get(i) == Some(&b'.') {
        i += 1;
        n += digits(&mut i);
    }
    if n == 0 {
        return false;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Where the text ends (for "missing `end`").
fn eof_pos(text: &str) -> Pos {
    let last = text.rsplit('\n').next().unwrap_or("");
    Pos {
        line: to_u32(text.matches('\n').count() + 1),
        col: to_u32(last.chars().count() + 1),
    }
}

/// `line:col`, for "the first is at ..." notes.
fn at(pos: Pos) -> String {
    format!("{}:{}", pos.line, pos.col)
}

/// A syntax error before it knows its rule.
struct Fail {
    at: Pos,
    vertex: Option<String>,
    msg: String,
}

impl Fail {
    fn at(at: Pos, msg: impl Into<String>) -> Self {
        Self {
            at,
            vertex: None,
            msg: msg.into(),
        }
    }

    fn on_vertex(mut self, name: &str) -> Self {
        self.vertex.get_or_insert_with(|| name.to_string());
        self
    }
}

/// A name as read, with where it starts and whether it was quoted (a quoted name is never a
/// keyword).
struct Name {
    text: String,
    at: Pos,
    quoted: bool,
}

/// A reading position in one line.
struct Cursor<'a> {
    text: &'a str,
    i: usize,
    line: u32,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str, line: u32) -> Self {
        Self { text, i: 0, line }
    }

    fn rest(&self) -> &'a str {
        self.text.get(self.i..).unwrap_or("")
    }

    fn skip_ws(&mut self) {
        let rest = self.rest();
        self.i += rest.len() - rest.trim_start().len();
    }

    /// The position of the next unread character (call after skipping whitespace).
    fn pos(&self) -> Pos {
        let col = self.text.get(..self.i).map_or(0, |s| s.chars().count());
        Pos {
            line: self.line,
            col: to_u32(col + 1),
        }
    }

    /// The next character after whitespace, `None` at the end of the line or a comment.
    fn peek(&mut self) -> Option<char> {
        self.skip_ws();
        self.rest().chars().next().filter(|&c| c != '#')
    }

    fn at_end(&mut self) -> bool {
        self.peek().is_none()
    }

    fn bump(&mut self) {
        if let Some(c) = self.rest().chars().next() {
            self.i += c.len_utf8();
        }
    }

    fn eat(&mut self, c: char) -> bool {
        let hit = self.peek() == Some(c);
        if hit {
            self.bump();
        }
        hit
    }

    /// A run of `[A-Za-z0-9_]`, if one comes next.
    fn word(&mut self) -> Option<&'a str> {
        self.skip_ws();
        let rest = self.rest();
        let n = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let (word, _) = rest.split_at(n);
        self.i += n;
        (n > 0).then_some(word)
    }

    /// Consumes the word `w` if it comes next (as a whole word).
    fn word_if(&mut self, w: &str) -> bool {
        let save = self.i;
        if self.word() == Some(w) {
            true
        } else {
            self.i = save;
            false
        }
    }

    /// Everything up to whitespace, `,` or `#` (a number's extent).
    fn token(&mut self) -> &'a str {
        self.skip_ws();
        let rest = self.rest();
        let n = rest
            .find(|c: char| c.is_whitespace() || c == ',' || c == '#')
            .unwrap_or(rest.len());
        self.i += n;
        rest.split_at(n).0
    }

    /// What comes next, for messages.
    fn found(&mut self) -> String {
        if self.at_end() {
            return "the end of the line".to_string();
        }
        let token: String = self
            .rest()
            .chars()
            .take_while(|c| !c.is_whitespace())
            .take(24)
            .collect();
        format!("`{token}`")
    }

    fn expected(&mut self, what: impl fmt::Display) -> Fail {
        let found = self.found();
        Fail::at(self.pos(), format!("expected {what}, found {found}"))
    }

    fn end(&mut self, what: impl fmt::Display) -> Result<(), Fail> {
        if self.at_end() {
            Ok(())
        } else {
            Err(self.expected(what))
        }
    }

    /// A bare or quoted name.
    fn name(&mut self, what: &str) -> Result<Name, Fail> {
        self.skip_ws();
        let at = self.pos();
        if self.rest().starts_with('"') {
            let text = self.string()?;
            return Ok(Name {
                text,
                at,
                quoted: true,
            });
        }
        match self.word() {
            None => Err(self.expected(what)),
            Some(w) if is_bare_name(w) => Ok(Name {
                text: w.to_string(),
                at,
                quoted: false,
            }),
            Some(w) => Err(Fail::at(
                at,
                format!(
                    "bad name `{w}` (a name is a letter or `_` followed by letters, digits and `_`, or only digits; quote any other name)"
                ),
            )),
        }
    }

    /// A double-quoted string (the cursor is at its opening quote).
    fn string(&mut self) -> Result<String, Fail> {
        let open = self.pos();
        self.bump();
        let rest = self.rest();
        let mut out = String::new();
        let mut chars = rest.char_indices();
        while let Some((k, c)) = chars.next() {
            match c {
                '"' => {
                    self.i += k + 1;
                    return Ok(out);
                }
                '\\' => match chars.next() {
                    Some((_, '"')) => out.push('"'),
                    Some((_, '\\')) => out.push('\\'),
                    Some((_, 'n')) => out.push('\n'),
                    Some((_, 't')) => out.push('\t'),
                    Some((_, 'r')) => out.push('\r'),
                    Some((_, other)) => {
                        self.i += k;
                        return Err(Fail::at(
                            self.pos(),
                            format!(
                                "unknown escape `\\{other}` (expected `\\\"`, `\\\\`, `\\n`, `\\t` or `\\r`)"
                            ),
                        ));
                    }
                    None => break,
                },
                c => out.push(c),
            }
        }
        self.i = self.text.len();
        Err(Fail::at(
            open,
            "unterminated string (expected a closing `\"` on the same line)",
        ))
    }

    /// A finite decimal `f32`, and where it starts.
    fn number(&mut self, what: &str) -> Result<(Pos, f32), Fail> {
        if matches!(self.peek(), None | Some(',')) {
            return Err(self.expected(format_args!("{what} (a number)")));
        }
        let at = self.pos();
        let token = self.token();
        if !is_decimal(token) {
            return Err(Fail::at(
                at,
                format!(
                    "bad number `{token}` for {what} (expected a decimal number such as `12`, `-0.5` or `1e3`)"
                ),
            ));
        }
        match str::parse::<f32>(token) {
            Ok(v) if v.is_finite() => Ok((at, v)),
            _ => Err(Fail::at(
                at,
                format!("bad number `{token}` for {what} (out of range for a 32-bit float)"),
            )),
        }
    }

    /// A non-negative `u32`.
    fn integer(&mut self, what: &str) -> Result<u32, Fail> {
        if matches!(self.peek(), None | Some(',')) {
            return Err(self.expected(format_args!("{what} (a non-negative integer)")));
        }
        let at = self.pos();
        let token = self.token();
        if token.is_empty() || !token.bytes().all(|b| b.is_ascii_digit()) {
            return Err(Fail::at(
                at,
                format!("bad number `{token}` for {what} (expected a non-negative integer)"),
            ));
        }
        str::parse::<u32>(token).map_err(|_| {
            Fail::at(
                at,
                format!("bad number `{token}` for {what} (at most {})", u32::MAX),
            )
        })
    }
}

/// The id of tag `name`, interning it; an error (not `TagTable::intern`'s panic) past 65,536.
fn intern(tags: &mut TagTable, name: &Name) -> Result<TagId, Fail> {
    if let Some(id) = tags.id(&name.text) {
        return Ok(id);
    }
    if tags.len() > usize::from(TagId::MAX) {
        return Err(Fail::at(
            name.at,
            format!(
                "too many distinct tags (at most {})",
                usize::from(TagId::MAX) + 1
            ),
        ));
    }
    Ok(tags.intern(&name.text))
}

/// `*` or `a|b|...`.
fn tag_set(c: &mut Cursor<'_>, tags: &mut TagTable) -> Result<TagSet, Fail> {
    if c.eat('*') {
        if c.peek() == Some('|') {
            return Err(Fail::at(
                c.pos(),
                "`*` already accepts any tag; it cannot be joined with `|`",
            ));
        }
        return Ok(TagSet::Any);
    }
    let mut ids = vec![intern(tags, &c.name("a tag, a set `a|b` or `*`")?)?];
    while c.eat('|') {
        ids.push(intern(tags, &c.name("a tag after `|`")?)?);
    }
    Ok(TagSet::of(ids))
}

/// `@ X, Y`.
fn position(c: &mut Cursor<'_>) -> Result<(f32, f32), Fail> {
    if !c.eat('@') {
        return Err(c.expected("`@` and the position `X, Y` after the tags"));
    }
    let (_, x) = c.number("the x coordinate")?;
    if !c.eat(',') {
        return Err(c.expected("`,` between the x and y coordinates"));
    }
    let (_, y) = c.number("the y coordinate")?;
    Ok((x, y))
}

/// The rest of a pattern vertex line, after `NAME:`.
fn pattern_vertex(
    c: &mut Cursor<'_>,
    tags: &mut TagTable,
    name: &Name,
) -> Result<PatternVertex, Fail> {
    let set = tag_set(c, tags)?;
    let (x, y) = position(c)?;
    let (mut blocked, mut lock, mut cosmetic) = (None, false, false);
    while !c.at_end() {
        let found = c.found();
        let at = c.pos();
        if c.eat('!') {
            if blocked.is_some() {
                return Err(Fail::at(at, "`!TAGS` given twice (join the tags with `|`)"));
            }
            blocked = Some(tag_set(c, tags)?);
            continue;
        }
        match c.word() {
            Some("lock") if lock => return Err(Fail::at(at, "`lock` given twice")),
            Some("lock") => lock = true,
            Some("cosmetic") if cosmetic => {
                return Err(Fail::at(at, "`cosmetic` given twice"));
            }
            Some("cosmetic") => cosmetic = true,
            _ => {
                return Err(Fail::at(
                    at,
                    format!(
                        "unknown vertex flag {found} (expected `lock`, `!TAGS`, `cosmetic` or the end of the line)"
                    ),
                ));
            }
        }
    }
    Ok(PatternVertex {
        name: name.text.clone(),
        x,
        y,
        tags: set,
        blocked,
        lock,
        cosmetic,
        at: name.at,
    })
}

/// The rest of a substitute vertex line, after `NAME:`.
fn substitute_vertex(
    c: &mut Cursor<'_>,
    tags: &mut TagTable,
    name: &Name,
) -> Result<SubstituteVertex, Fail> {
    let tag = if c.eat('*') {
        None
    } else {
        Some(intern(tags, &c.name("a tag or `*`")?)?)
    };
    if c.peek() == Some('|') {
        return Err(Fail::at(
            c.pos(),
            "a substitute vertex takes exactly one tag or `*`, not a set with `|`",
        ));
    }
    let (x, y) = position(c)?;
    let cosmetic = c.word_if("cosmetic");
    if !c.at_end() {
        let found = c.found();
        let at = c.pos();
        let msg = if c.eat('!') {
            "`!TAGS` (blocked neighbours) is for pattern vertices only; substitute vertices take no flags".to_string()
        } else if c.word() == Some("lock") {
            "`lock` is for pattern vertices only; substitute vertices take no flags".to_string()
        } else {
            format!(
                "expected the end of the line, found {found} (substitute vertices take only `cosmetic`)"
            )
        };
        return Err(Fail::at(at, msg));
    }
    Ok(SubstituteVertex {
        name: name.text.clone(),
        x,
        y,
        tag,
        cosmetic,
        at: name.at,
    })
}

/// The rest of an edge line, after `NAME -`.
fn edge(c: &mut Cursor<'_>, a: Name) -> Result<EdgeDraft, Fail> {
    let b = c.name("the name of the edge's other vertex")?;
    let (mut kind, mut length) = (None, None);
    while !c.at_end() {
        let found = c.found();
        let at = c.pos();
        match c.word() {
            Some(word @ ("cosmetic" | "subdivide")) => {
                let this = if word == "cosmetic" {
                    EdgeKind::Cosmetic
                } else {
                    EdgeKind::Subdivide
                };
                match kind {
                    Some(k) if k == this => {
                        return Err(Fail::at(at, format!("`{word}` given twice")));
                    }
                    Some(_) => {
                        return Err(Fail::at(
                            at,
                            "an edge is either `cosmetic` or `subdivide`, not both",
                        ));
                    }
                    None => kind = Some(this),
                }
            }
            Some("length") if length.is_some() => {
                return Err(Fail::at(at, "`length` given twice"));
            }
            Some("length") => length = Some(c.number("the length factor")?.1),
            _ => {
                return Err(Fail::at(
                    at,
                    format!(
                        "unknown edge option {found} (expected `cosmetic`, `subdivide`, `length F` or the end of the line)"
                    ),
                ));
            }
        }
    }
    let edge = RuleEdge {
        a: 0,
        b: 0,
        kind: kind.unwrap_or_default(),
        length,
        at: a.at,
    };
    Ok(EdgeDraft { a, b, edge })
}

/// An edge whose ends are still names (vertices may be declared after their edges).
struct EdgeDraft {
    a: Name,
    b: Name,
    edge: RuleEdge,
}

/// Resolves `drafts` against `names` into `out`, with a failure per unknown name.
fn resolve_edges(
    drafts: Vec<EdgeDraft>,
    names: &HashMap<String, u32>,
    graph: &str,
    out: &mut Vec<RuleEdge>,
    fails: &mut Vec<Fail>,
) {
    for mut d in drafts {
        let mut ok = true;
        for end in [&d.a, &d.b] {
            if !names.contains_key(&end.text) {
                fails.push(Fail::at(
                    end.at,
                    format!(
                        "edge `{} - {}` names `{}`, which is not a vertex of the {graph}",
                        d.a.text, d.b.text, end.text
                    ),
                ));
                ok = false;
            }
        }
        if let (true, Some(&a), Some(&b)) = (ok, names.get(&d.a.text), names.get(&d.b.text)) {
            d.edge.a = a;
            d.edge.b = b;
            out.push(d.edge);
        }
    }
}

mod parser;
mod writer;

#[cfg(test)]
mod tests;
