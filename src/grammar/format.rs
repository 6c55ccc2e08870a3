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

/// Reads and parses the rule file at `path`; the grammar's source is the path as given.
///
/// # Errors
/// [`GrammarError::Read`] when the file cannot be read (or is not UTF-8), and
/// [`GrammarError::Syntax`] as for [`parse()`].
pub fn load(path: &Path) -> Result<RuleFile, GrammarError> {
    let source = path.display().to_string();
    match crate::core::files::read_to_string(path) {
        Ok(text) => parse(&text, &source),
        Err(error) => Err(GrammarError::Read {
            path: source,
            error,
        }),
    }
}

/// Parses rule-file `text`; `source` names it in messages and becomes [`Grammar::source`].
///
/// Semantic checks are not made here: call [`Grammar::check`] or [`Grammar::validate`] on the
/// result.
///
/// # Errors
/// [`GrammarError::Syntax`] with every syntax error found, in file order.
///
/// # Runtime
/// Linear in the text times the number of distinct tags (each tag lookup scans the
/// [`TagTable`]); a handful of small allocations per line.
pub fn parse(text: &str, source: &str) -> Result<RuleFile, GrammarError> {
    let mut parser = Parser::new(source);
    for (i, raw) in text.split('\n').enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        parser.line(Cursor::new(line, to_u32(i + 1)));
    }
    parser.finish(eof_pos(text))
}

/// Writes `grammar` (and its display `name`) in the rule-file format.
///
/// [`parse()`] gives back the same rules, tags (with the same ids, through a `tags` line), room
/// sizes, weights, uses, positions, edges and map; only the recorded [`Pos`] values differ (and
/// trailing `None`s of [`Grammar::rooms`], which carry nothing). Tag ids survive when the tag
/// table starts with `s`, as [`Grammar::new`] makes it.
/// Floats are written with `{}`, which round-trips `f32` exactly. Names that are not bare
/// identifiers or digits are quoted. When a rule's vertex names do not already encode its map
/// (a pattern vertex and its image named alike, names unique within each graph), substitute
/// vertices are renamed after their pattern vertex and clashing names get a `_2`, `_3`, ...
/// suffix, so the map survives. What the format cannot express is written so that the parser
/// rejects it: a map that is not injective or points outside the substitute, vertex indices
/// or tag ids out of range, non-finite numbers, duplicate rule names.
///
/// # Runtime
/// Linear in the size of the grammar, one allocation per written name.
pub fn write(grammar: &Grammar, name: Option<&str>) -> String {
    let mut out = String::new();
    if let Some(name) = name {
        emit(&mut out, format_args!("grammar {}\n", quote(name)));
    }
    if !grammar.tags.is_empty() {
        out.push_str("tags");
        for tag in grammar.tags.names() {
            out.push(' ');
            out.push_str(&name_token(tag));
        }
        out.push('\n');
    }
    let d = grammar.default_room;
    emit(&mut out, format_args!("room default {} {}\n", d.w, d.h));
    for (id, room) in grammar.rooms.iter().enumerate() {
        if let Some(r) = room {
            let tag = match grammar.tags.names().get(id) {
                Some(n) if n == "default" => quote(n),
                Some(n) => name_token(n),
                None => format!("<unknown tag {id}>"),
            };
            emit(&mut out, format_args!("room {tag} {} {}\n", r.w, r.h));
        }
    }
    for rule in &grammar.rules {
        out.push('\n');
        write_rule(&mut out, &grammar.tags, rule);
    }
    out
}

fn write_rule(out: &mut String, tags: &TagTable, rule: &Rule) {
    let (pattern_names, substitute_names) = vertex_names(rule);
    emit(
        out,
        format_args!("rule {} weight {}", name_token(&rule.name), rule.weight),
    );
    if let Some(max) = rule.max_uses {
        emit(out, format_args!(" max {max}"));
    }
    if rule.min_uses != 0 {
        emit(out, format_args!(" min {}", rule.min_uses));
    }
    out.push_str("\npattern\n");
    for (v, name) in rule.pattern.vertices.iter().zip(&pattern_names) {
        let set = tag_set_token(tags, &v.tags);
        emit(
            out,
            format_args!("  {}: {set} @ {}, {}", name_token(name), v.x, v.y),
        );
        if v.lock {
            out.push_str(" lock");
        }
        if let Some(blocked) = &v.blocked {
            emit(out, format_args!(" !{}", tag_set_token(tags, blocked)));
        }
        if v.cosmetic {
            out.push_str(" cosmetic");
        }
        out.push('\n');
    }
    write_edges(out, &rule.pattern.edges, &pattern_names);
    out.push_str("substitute\n");
    for (v, name) in rule.substitute.vertices.iter().zip(&substitute_names) {
        let tag = v
            .tag
            .map_or_else(|| "*".to_string(), |t| tag_token(tags, t));
        emit(
            out,
            format_args!("  {}: {tag} @ {}, {}", name_token(name), v.x, v.y),
        );
        out.push_str(if v.cosmetic { " cosmetic\n" } else { "\n" });
    }
    write_edges(out, &rule.substitute.edges, &substitute_names);
    out.push_str("end\n");
}

fn write_edges(out: &mut String, edges: &[RuleEdge], names: &[String]) {
    let end = |i: u32| {
        names
            .get(i as usize)
            .map_or_else(|| format!("<unknown vertex {i}>"), |n| name_token(n))
    };
    for e in edges {
        emit(out, format_args!("  {} - {}", end(e.a), end(e.b)));
        match e.kind {
            EdgeKind::Normal => {}
            EdgeKind::Cosmetic => out.push_str(" cosmetic"),
            EdgeKind::Subdivide => out.push_str(" subdivide"),
        }
        if let Some(f) = e.length {
            emit(out, format_args!(" length {f}"));
        }
        out.push('\n');
    }
}

/// The names to write for a rule's pattern and substitute vertices: their own when they
/// encode the map, otherwise names that do (see [`write()`]).
fn vertex_names(rule: &Rule) -> (Vec<String>, Vec<String>) {
    let (p, s) = (&rule.pattern.vertices, &rule.substitute.vertices);
    let own_p: Vec<String> = p.iter().map(|v| v.name.clone()).collect();
    let own_s: Vec<String> = s.iter().map(|v| v.name.clone()).collect();
    let encoded = rule.map.len() == p.len()
        && all_unique(&own_p)
        && all_unique(&own_s)
        && rule
            .map
            .iter()
            .zip(p)
            .all(|(&si, v)| s.get(si as usize).is_some_and(|sv| sv.name == v.name));
    if encoded {
        return (own_p, own_s);
    }
    let mut used = HashSet::new();
    let names_p: Vec<String> = own_p.into_iter().map(|n| unique(n, &mut used)).collect();
    let mut images: Vec<Option<String>> = vec![None; own_s.len()];
    for (pi, &si) in rule.map.iter().enumerate() {
        if let (Some(slot), Some(name)) = (images.get_mut(si as usize), names_p.get(pi))
            && slot.is_none()
        {
            *slot = Some(name.clone());
        }
    }
    let names_s = images
        .into_iter()
        .zip(own_s)
        .map(|(image, own)| image.unwrap_or_else(|| unique(own, &mut used)))
        .collect();
    (names_p, names_s)
}

fn all_unique(names: &[String]) -> bool {
    let mut seen = HashSet::new();
    names.iter().all(|n| seen.insert(n.as_str()))
}

/// `name`, or `name_2`, `name_3`, ... whichever is not yet in `used` (and records it).
fn unique(name: String, used: &mut HashSet<String>) -> String {
    if used.insert(name.clone()) {
        return name;
    }
    let mut k = 2u64;
    loop {
        let candidate = format!("{name}_{k}");
        if used.insert(candidate.clone()) {
            return candidate;
        }
        k += 1;
    }
}

fn tag_token(tags: &TagTable, id: TagId) -> String {
    tags.names()
        .get(id as usize)
        .map_or_else(|| format!("<unknown tag {id}>"), |n| name_token(n))
}

fn tag_set_token(tags: &TagTable, set: &TagSet) -> String {
    match set {
        TagSet::Any => "*".to_string(),
        TagSet::Of(ids) => ids
            .iter()
            .map(|&id| tag_token(tags, id))
            .collect::<Vec<_>>()
            .join("|"),
    }
}

/// `name` as written: bare when it is an identifier or digits, quoted otherwise.
fn name_token(name: &str) -> String {
    if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && is_bare_name(name) {
        name.to_string()
    } else {
        quote(name)
    }
}

fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn emit(out: &mut String, args: fmt::Arguments<'_>) {
    // NOTE: formatting into a `String` cannot fail; the `Result` is only `fmt::Write`'s shape.
    let _ = out.write_fmt(args);
}

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
        match token.parse::<f32>() {
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
        token.parse::<u32>().map_err(|_| {
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Section {
    /// After `rule`, before `pattern`.
    Header,
    Pattern,
    Substitute,
}

/// The rule being read.
struct Draft {
    rule: Rule,
    section: Section,
    pattern_names: HashMap<String, u32>,
    substitute_names: HashMap<String, u32>,
    pattern_edges: Vec<EdgeDraft>,
    substitute_edges: Vec<EdgeDraft>,
}

struct Parser {
    grammar: Grammar,
    name: Option<(String, Pos)>,
    diags: Vec<Diagnostic>,
    rule_names: HashMap<String, Pos>,
    /// Where each tag's `room` line is (`None`: `room default`).
    rooms: HashMap<Option<TagId>, Pos>,
    open: Option<Draft>,
}

impl Parser {
    fn new(source: &str) -> Self {
        Self {
            grammar: Grammar::new(source),
            name: None,
            diags: Vec::new(),
            rule_names: HashMap::new(),
            rooms: HashMap::new(),
            open: None,
        }
    }

    fn diag(&mut self, rule: Option<String>, fail: Fail) {
        self.diags.push(Diagnostic {
            severity: Severity::Error,
            source: self.grammar.source.clone(),
            rule,
            vertex: fail.vertex,
            at: fail.at,
            message: fail.msg,
        });
    }

    /// Records `fail` against the open rule, if any.
    fn report(&mut self, fail: Fail) {
        let rule = self.open.as_ref().map(|d| d.rule.name.clone());
        self.diag(rule, fail);
    }

    fn line(&mut self, mut c: Cursor<'_>) {
        if c.at_end() {
            return;
        }
        let result = match self.open.as_ref().map(|d| d.section) {
            None => self.top_line(&mut c),
            Some(Section::Header) => self.header_line(&mut c),
            Some(_) => self.graph_line(&mut c),
        };
        if let Err(fail) = result {
            self.report(fail);
        }
    }

    fn finish(mut self, eof: Pos) -> Result<RuleFile, GrammarError> {
        if let Some(d) = &self.open {
            let msg = format!(
                "expected `end` to close rule `{}` (opened at {}) before the end of the file",
                d.rule.name,
                at(d.rule.at)
            );
            let complete = d.section == Section::Substitute;
            self.report(Fail::at(eof, msg));
            self.close_rule(complete);
        }
        if self.diags.is_empty() {
            Ok(RuleFile {
                grammar: self.grammar,
                name: self.name.map(|(n, _)| n),
            })
        } else {
            self.diags.sort_by_key(|d| (d.at.line, d.at.col));
            Err(GrammarError::Syntax(self.diags))
        }
    }

    fn top_line(&mut self, c: &mut Cursor<'_>) -> Result<(), Fail> {
        let start = c.pos();
        let Some(word) = c.word() else {
            return Err(c.expected("`grammar`, `tags`, `room` or `rule`"));
        };
        match word {
            "grammar" => self.grammar_line(c, start),
            "tags" => self.tags_line(c),
            "room" => self.room_line(c),
            "rule" => self.rule_line(c, start),
            "pattern" | "substitute" | "end" => Err(Fail::at(
                start,
                format!("`{word}` outside a rule (expected `rule NAME` before it)"),
            )),
            _ => Err(Fail::at(
                start,
                format!("unknown keyword `{word}` (expected `grammar`, `tags`, `room` or `rule`)"),
            )),
        }
    }

    fn grammar_line(&mut self, c: &mut Cursor<'_>, start: Pos) -> Result<(), Fail> {
        if let Some((_, first)) = &self.name {
            return Err(Fail::at(
                start,
                format!(
                    "a second `grammar` line (the grammar is already named at {}; at most one is allowed)",
                    at(*first)
                ),
            ));
        }
        if c.peek() != Some('"') {
            return Err(c.expected("the grammar's display name in double quotes"));
        }
        let name = c.string()?;
        self.name = Some((name, start));
        c.end("the end of the line after the grammar's name")
    }

    fn tags_line(&mut self, c: &mut Cursor<'_>) -> Result<(), Fail> {
        if c.at_end() {
            return Err(c.expected("at least one tag name after `tags`"));
        }
        while !c.at_end() {
            let name = c.name("a tag name")?;
            intern(&mut self.grammar.tags, &name)?;
        }
        Ok(())
    }

    fn room_line(&mut self, c: &mut Cursor<'_>) -> Result<(), Fail> {
        let name = c.name("a tag name or `default`")?;
        let tag = if !name.quoted && name.text == "default" {
            None
        } else {
            Some(intern(&mut self.grammar.tags, &name)?)
        };
        let mut size = [0.0f32; 2];
        for (slot, what) in size.iter_mut().zip(["the room width", "the room height"]) {
            let (pos, v) = c.number(what)?;
            if v <= 0.0 {
                return Err(Fail::at(
                    pos,
                    format!("{what} must be positive (found {v})"),
                ));
            }
            *slot = v;
        }
        c.end("the end of the line after the room's width and height")?;
        if let Some(first) = self.rooms.insert(tag, name.at) {
            return Err(Fail::at(
                name.at,
                format!(
                    "a second room size for `{}` (the first is at {})",
                    name.text,
                    at(first)
                ),
            ));
        }
        let room = RoomSize {
            w: size[0],
            h: size[1],
        };
        match tag {
            None => self.grammar.default_room = room,
            Some(t) => self.grammar.set_room(t, room),
        }
        Ok(())
    }

    fn rule_line(&mut self, c: &mut Cursor<'_>, start: Pos) -> Result<(), Fail> {
        let name = match c.name("the rule's name") {
            Ok(name) => name,
            Err(fail) => {
                // Open a nameless rule anyway, so that its lines are not reported one by one.
                self.open_rule("?".to_string(), start);
                return Err(fail);
            }
        };
        self.open_rule(name.text.clone(), start);
        if let Some(first) = self.rule_names.get(&name.text).copied() {
            self.report(Fail::at(
                name.at,
                format!(
                    "duplicate rule name `{}` (the first is at {})",
                    name.text,
                    at(first)
                ),
            ));
        } else {
            self.rule_names.insert(name.text, name.at);
        }
        let (mut weight, mut max, mut min) = (None, None, None);
        while !c.at_end() {
            let found = c.found();
            let pos = c.pos();
            let word = c.word();
            let given = match word {
                Some("weight") => weight.is_some(),
                Some("max") => max.is_some(),
                Some("min") => min.is_some(),
                _ => {
                    return Err(Fail::at(
                        pos,
                        format!(
                            "unknown rule option {found} (expected `weight`, `max`, `min` or the end of the line)"
                        ),
                    ));
                }
            };
            if given {
                return Err(Fail::at(pos, format!("{found} given twice")));
            }
            match word {
                Some("weight") => weight = Some(c.number("the weight")?.1),
                Some("max") => max = Some(c.integer("`max`")?),
                _ => min = Some(c.integer("`min`")?),
            }
        }
        if let Some(d) = &mut self.open {
            d.rule.weight = weight.unwrap_or(1.0);
            d.rule.max_uses = max;
            d.rule.min_uses = min.unwrap_or(0);
        }
        Ok(())
    }

    fn open_rule(&mut self, name: String, at: Pos) {
        self.open = Some(Draft {
            rule: Rule {
                name,
                weight: 1.0,
                max_uses: None,
                min_uses: 0,
                pattern: RuleGraph::default(),
                substitute: RuleGraph::default(),
                map: Vec::new(),
                at,
            },
            section: Section::Header,
            pattern_names: HashMap::new(),
            substitute_names: HashMap::new(),
            pattern_edges: Vec::new(),
            substitute_edges: Vec::new(),
        });
    }

    /// Resolves the open rule's edges and map and adds it to the grammar. Without `complete`
    /// (the rule was cut short) pattern vertices without an image are not reported again.
    fn close_rule(&mut self, complete: bool) {
        let Some(mut d) = self.open.take() else {
            return;
        };
        let mut fails = Vec::new();
        if d.section == Section::Pattern {
            let drafts = std::mem::take(&mut d.pattern_edges);
            let out = &mut d.rule.pattern.edges;
            resolve_edges(drafts, &d.pattern_names, "pattern", out, &mut fails);
        }
        let drafts = std::mem::take(&mut d.substitute_edges);
        let out = &mut d.rule.substitute.edges;
        resolve_edges(drafts, &d.substitute_names, "substitute", out, &mut fails);
        if complete {
            for v in &d.rule.pattern.vertices {
                match d.substitute_names.get(&v.name) {
                    Some(&s) => d.rule.map.push(s),
                    None => fails.push(
                        Fail::at(
                            v.at,
                            format!(
                                "pattern vertex `{}` has no substitute vertex of the same name (every pattern vertex must map to one)",
                                v.name
                            ),
                        )
                        .on_vertex(&v.name),
                    ),
                }
            }
        }
        for fail in fails {
            self.diag(Some(d.rule.name.clone()), fail);
        }
        self.grammar.rules.push(d.rule);
    }

    /// The line after `rule`: `pattern`, or (reported, then read as a pattern line) anything
    /// else.
    fn header_line(&mut self, c: &mut Cursor<'_>) -> Result<(), Fail> {
        let start = c.i;
        if c.word() == Some("pattern") && !matches!(c.peek(), Some(':' | '-')) {
            self.set_section(Section::Pattern);
            return c.end("the end of the line after `pattern`");
        }
        c.i = start;
        let fail = c.expected("`pattern` after the `rule` line");
        self.report(fail);
        self.set_section(Section::Pattern);
        self.graph_line(c)
    }

    fn set_section(&mut self, section: Section) {
        if let Some(d) = &mut self.open {
            d.section = section;
        }
    }

    /// A vertex, an edge, or a keyword inside `pattern` or `substitute`.
    fn graph_line(&mut self, c: &mut Cursor<'_>) -> Result<(), Fail> {
        c.skip_ws();
        let start = c.i;
        let first =
            c.name("a vertex `NAME: TAGS @ X, Y`, an edge `NAME - NAME`, `substitute` or `end`")?;
        match c.peek() {
            Some(':') => {
                c.bump();
                self.vertex_line(c, first)
            }
            Some('-') => {
                c.bump();
                let draft = edge(c, first)?;
                if let Some(d) = &mut self.open {
                    match d.section {
                        Section::Substitute => d.substitute_edges.push(draft),
                        _ => d.pattern_edges.push(draft),
                    }
                }
                Ok(())
            }
            _ if !first.quoted => self.keyword_line(c, first, start),
            _ => Err(c.expected(format_args!(
                "`:` (a vertex) or `-` (an edge) after `{}`",
                first.text
            ))),
        }
    }

    /// `start` is where `word` begins, for reading a top-level line again.
    fn keyword_line(&mut self, c: &mut Cursor<'_>, word: Name, start: usize) -> Result<(), Fail> {
        let Some(section) = self.open.as_ref().map(|d| d.section) else {
            return Ok(());
        };
        let kw = word.text.as_str();
        if matches!(kw, "rule" | "room" | "tags" | "grammar") {
            // A top-level line: the rule was not closed. Close it and read the line again.
            let name = self.open.as_ref().map_or("", |d| d.rule.name.as_str());
            let msg =
                format!("expected `end` before the next `{kw}` line (rule `{name}` is not closed)");
            self.report(Fail::at(word.at, msg));
            self.close_rule(section == Section::Substitute);
            c.i = start;
            return self.top_line(c);
        }
        if !matches!(kw, "pattern" | "substitute" | "end") {
            if c.at_end() {
                return Err(Fail::at(
                    word.at,
                    format!(
                        "unknown keyword `{kw}` (expected a vertex `NAME: TAGS @ X, Y`, an edge `NAME - NAME`, `substitute` or `end`)"
                    ),
                ));
            }
            return Err(c.expected(format_args!("`:` (a vertex) or `-` (an edge) after `{kw}`")));
        }
        if let Err(fail) = c.end(format_args!("the end of the line after `{kw}`")) {
            self.report(fail);
        }
        match (kw, section) {
            ("substitute", Section::Pattern) => {
                if let Some(d) = &mut self.open {
                    let drafts = std::mem::take(&mut d.pattern_edges);
                    let mut fails = Vec::new();
                    let out = &mut d.rule.pattern.edges;
                    resolve_edges(drafts, &d.pattern_names, "pattern", out, &mut fails);
                    d.section = Section::Substitute;
                    for fail in fails {
                        self.report(fail);
                    }
                }
                Ok(())
            }
            ("end", Section::Substitute) => {
                self.close_rule(true);
                Ok(())
            }
            ("end", _) => {
                self.report(Fail::at(
                    word.at,
                    "expected `substitute` and the substitute's lines before `end`",
                ));
                self.close_rule(false);
                Ok(())
            }
            _ => Err(Fail::at(word.at, format!("a second `{kw}` in this rule"))),
        }
    }

    fn vertex_line(&mut self, c: &mut Cursor<'_>, name: Name) -> Result<(), Fail> {
        let Some(d) = &mut self.open else {
            return Ok(());
        };
        let tags = &mut self.grammar.tags;
        let substitute = d.section == Section::Substitute;
        let (names, graph) = if substitute {
            (&mut d.substitute_names, "substitute")
        } else {
            (&mut d.pattern_names, "pattern")
        };
        if let Some(&i) = names.get(&name.text) {
            let first = if substitute {
                d.rule.substitute.vertices.get(i as usize).map(|v| v.at)
            } else {
                d.rule.pattern.vertices.get(i as usize).map(|v| v.at)
            };
            let first = first.map_or_else(String::new, |p| format!(" (the first is at {})", at(p)));
            let msg = format!(
                "duplicate vertex name `{}` in the {graph}{first}",
                name.text
            );
            return Err(Fail::at(name.at, msg).on_vertex(&name.text));
        }
        // NOTE: a vertex is registered even when the rest of its line is wrong, so that its
        // edges and its image are not reported as missing too.
        let result = if substitute {
            names.insert(name.text.clone(), to_u32(d.rule.substitute.vertices.len()));
            let (v, result) =
                or_placeholder(substitute_vertex(c, tags, &name), || SubstituteVertex {
                    name: name.text.clone(),
                    x: 0.0,
                    y: 0.0,
                    tag: None,
                    cosmetic: false,
                    at: name.at,
                });
            d.rule.substitute.vertices.push(v);
            result
        } else {
            names.insert(name.text.clone(), to_u32(d.rule.pattern.vertices.len()));
            let (v, result) = or_placeholder(pattern_vertex(c, tags, &name), || PatternVertex {
                name: name.text.clone(),
                x: 0.0,
                y: 0.0,
                tags: TagSet::Any,
                blocked: None,
                lock: false,
                cosmetic: false,
                at: name.at,
            });
            d.rule.pattern.vertices.push(v);
            result
        };
        result.map_err(|fail| fail.on_vertex(&name.text))
    }
}

/// The parsed vertex, or a stand-in and the failure.
fn or_placeholder<V>(
    parsed: Result<V, Fail>,
    stand_in: impl FnOnce() -> V,
) -> (V, Result<(), Fail>) {
    match parsed {
        Ok(v) => (v, Ok(())),
        Err(fail) => (stand_in(), Err(fail)),
    }
}

#[cfg(test)]
#[path = "format_tests.rs"]
mod tests;
