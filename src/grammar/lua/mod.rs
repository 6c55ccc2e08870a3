//! Import of demirogue rulesets: seed 000's rule import.
//!
//! demirogue, the Lua/LÖVE level generator seed 000 comes from, saves its graph-grammar rules as
//! one Lua table literal, `return { rule, rule, ... }`. Each rule is a table with `leftGraph` (the
//! pattern), `rightGraph` (the substitute) and `map` (`map[p]` is the 1-based substitute vertex
//! that pattern vertex `p` becomes). A graph has `vertices` and `edges`; a vertex has `x` and `y`
//! (the oldest files only write them as the first two positional entries), a pattern vertex has
//! `tags = { ["a"] = true, ... }` and `lock`, a substitute vertex has `tag = "a"`; an edge is
//! `{ v1, v2, ["cosmetic"] = bool, ["subdivide"] = bool }` with 1-based vertex numbers. Editor
//! state (`side`, `mapped`) is ignored. A vertex's `cosmetic` is kept: catacomb.lua hangs such
//! vertices (drawing anchors, never rooms) off its substitutes by cosmetic edges only.
//!
//! The module reads the subset of Lua these files use without a Lua interpreter: tables with
//! positional, `["key"] =` and bare `key =` entries, `,` or `;` separators and trailing ones,
//! numbers (decimal, exponent, hexadecimal, negated), strings in either quote with Lua's escapes
//! and long brackets, `true`, `false`, `nil`, and `--` line and `--[[ ]]` block comments.
//!
//! Rules are named `rule N` after their place in the file and their vertices `1`, `2`, ... after
//! their place in their graph, so messages point at what a demirogue user sees; every rule,
//! vertex and edge keeps the line and column where its table starts. Placeholder rules (both
//! graphs without vertices, which demirogue's editor leaves behind) are skipped and counted.
//! Syntax errors are [`GrammarError::Syntax`]; a file that parses but does not have the shape of a
//! ruleset (a missing `leftGraph`, an edge naming vertex 9 of 3, a string where a coordinate
//! belongs, a map entry out of range) is [`GrammarError::Invalid`] naming the rule. What every
//! grammar is checked for (connectivity, a one-to-one map, start rules) is left to
//! [`Grammar::validate`], which the importer does not call.

use std::collections::HashSet;
use std::path::Path;

use super::rule::{
    EdgeKind, Grammar, GrammarError, PatternVertex, Pos, Rule, RuleEdge, RuleGraph,
    SubstituteVertex, TagId, TagSet, TagTable,
};

/// A demirogue ruleset read into a [`Grammar`].
#[derive(Clone, Debug, PartialEq)]
pub struct LuaImport {
    /// The rules, in file order, named `rule N` after their 1-based place in the file (skipped
    /// placeholders keep their numbers), with weight 1, no use limits and default room sizes.
    pub grammar: Grammar,
    /// Placeholder rules skipped: both graphs without vertices.
    pub skipped_empty: usize,
}

/// Reads a demirogue ruleset from `text`; `source` names it in messages (usually the path).
///
/// The grammar is not validated: call [`Grammar::validate`] for the checks every grammar gets.
///
/// # Errors
/// [`GrammarError::Syntax`] with the first syntax error (line, column and what was expected);
/// [`GrammarError::Invalid`] with the first malformed part of every rule that has one.
///
/// # Runtime
/// O(n) in the length of `text`, plus O(t) per tag mention to intern it (t: distinct tags so
/// far); allocates the parsed value tree, then the grammar.
pub fn parse_lua(text: &str, source: &str) -> Result<LuaImport, GrammarError> {
    let root = Parser::new(text)
        .and_then(|mut p| p.chunk())
        .map_err(|f| GrammarError::Syntax(vec![f.into_diagnostic(source, None)]))?;
    convert(&root, source)
}

/// Reads the demirogue ruleset at `path` (see [`parse_lua`]); messages name the path.
///
/// # Errors
/// [`GrammarError::Read`] when the file cannot be read (or is not UTF-8), else as [`parse_lua`].
pub fn load_lua(path: &Path) -> Result<LuaImport, GrammarError> {
    let name = path.display().to_string();
    let text = crate::core::files::read_to_string(path).map_err(|error| GrammarError::Read {
        path: name.clone(),
        error,
    })?;
    parse_lua(&text, &name)
}

// ---------------------------------------------------------------------------------------------
// Values

/// A parsed Lua value and where it starts.
#[derive(Debug)]
struct Value {
    at: Pos,
    kind: Kind,
}

#[derive(Debug)]
enum Kind {
    Nil,
    Bool(bool),
    Number(f64),
    Str(String),
    Table(Table),
}

/// A table: its positional entries in order, and its keyed entries in order (Lua's last one
/// wins on a repeated key).
#[derive(Debug, Default)]
struct Table {
    list: Vec<Value>,
    keyed: Vec<(String, Value)>,
}

impl Table {
    /// The value under `key`, if it is there and not `nil`.
    fn get(&self, key: &str) -> Option<&Value> {
        self.keyed
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
            .filter(|v| !matches!(v.kind, Kind::Nil))
    }

    /// Positional entry `i` (0-based), if it is there and not `nil`.
    fn nth(&self, i: usize) -> Option<&Value> {
        self.list.get(i).filter(|v| !matches!(v.kind, Kind::Nil))
    }
}

impl Value {
    /// What kind of value this is, for messages.
    fn describe(&self) -> &'static str {
        match self.kind {
            Kind::Nil => "`nil`",
            Kind::Bool(_) => "a boolean",
            Kind::Number(_) => "a number",
            Kind::Str(_) => "a string",
            Kind::Table(_) => "a table",
        }
    }
}

use fault::Fault;
use lexer::{KEYWORDS, Lexer, Token};

// ---------------------------------------------------------------------------------------------
// Parser

/// Tables nested deeper than this are refused (the real files nest 6 deep), so that hostile
/// input cannot exhaust the stack.
const MAX_DEPTH: usize = 100;

/// A recursive-descent parser over the lexer with one token of look-ahead.
struct Parser<'t> {
    lexer: Lexer<'t>,
    token: Token,
    at: Pos,
}

impl<'t> Parser<'t> {
    fn new(text: &'t str) -> Result<Self, Fault> {
        let mut lexer = Lexer::new(text);
        let (token, at) = lexer.next()?;
        Ok(Self { lexer, token, at })
    }

    /// Moves to the next token and returns the current one.
    fn advance(&mut self) -> Result<Token, Fault> {
        let (next, at) = self.lexer.next()?;
        self.at = at;
        Ok(std::mem::replace(&mut self.token, next))
    }

    fn expected(&self, what: &str) -> Fault {
        Fault::new(
            self.at,
            format!("expected {what}, found {}", self.token.describe()),
        )
    }

    /// The whole file: `return value [;]`.
    fn chunk(&mut self) -> Result<Value, Fault> {
        if self.token != Token::Name("return".into()) {
            return Err(self.expected("`return` and the table of rules"));
        }
        self.advance()?;
        let value = self.value(0)?;
        if self.token == Token::Semicolon {
            self.advance()?;
        }
        if self.token != Token::Eof {
            return Err(self.expected("the end of the file after the returned value"));
        }
        Ok(value)
    }

    fn value(&mut self, depth: usize) -> Result<Value, Fault> {
        let at = self.at;
        let kind = match &mut self.token {
            Token::LBrace => {
                if depth >= MAX_DEPTH {
                    return Err(Fault::new(
                        at,
                        format!("tables are nested more than {MAX_DEPTH} deep"),
                    ));
                }
                self.advance()?;
                Kind::Table(self.table(depth + 1)?)
            }
            Token::Minus => {
                self.advance()?;
                match self.token {
                    Token::Number(n) => {
                        self.advance()?;
                        Kind::Number(-n)
                    }
                    _ => return Err(self.expected("a number after `-`")),
                }
            }
            Token::Name(n) if n == "true" || n == "false" || n == "nil" => {
                let kind = match n.as_str() {
                    "true" => Kind::Bool(true),
                    "false" => Kind::Bool(false),
                    _ => Kind::Nil,
                };
                self.advance()?;
                kind
            }
            Token::Number(n) => {
                let n = *n;
                self.advance()?;
                Kind::Number(n)
            }
            Token::Str(s) => {
                let s = std::mem::take(s);
                self.advance()?;
                Kind::Str(s)
            }
            _ => {
                return Err(self
                    .expected("a value (a table, a string, a number, `true`, `false` or `nil`)"));
            }
        };
        Ok(Value { at, kind })
    }

    /// The entries of a table, after its `{`, through its `}`.
    fn table(&mut self, depth: usize) -> Result<Table, Fault> {
        let mut table = Table::default();
        loop {
            if self.token == Token::RBrace {
                self.advance()?;
                return Ok(table);
            }
            self.entry(&mut table, depth)?;
            match self.token {
                Token::Comma | Token::Semicolon => {
                    self.advance()?;
                }
                Token::RBrace => {}
                _ => return Err(self.expected("`,`, `;` or `}` after a table entry")),
            }
        }
    }

    /// One entry: `["key"] = value`, `key = value` or a positional `value`.
    fn entry(&mut self, table: &mut Table, depth: usize) -> Result<(), Fault> {
        let key = match &mut self.token {
            Token::LBracket => {
                self.advance()?;
                let Token::Str(key) = &mut self.token else {
                    return Err(self.expected("a string key after `[`"));
                };
                let key = std::mem::take(key);
                self.advance()?;
                if self.token != Token::RBracket {
                    return Err(self.expected("`]` after the key"));
                }
                self.advance()?;
                Some(key)
            }
            Token::Name(n) if !KEYWORDS.contains(&n.as_str()) => {
                let key = std::mem::take(n);
                self.advance()?;
                if self.token != Token::Assign {
                    return Err(self.expected(&format!("`=` after the key `{key}`")));
                }
                Some(key)
            }
            _ => None,
        };
        match key {
            Some(key) => {
                if self.token != Token::Assign {
                    return Err(self.expected(&format!("`=` after the key `[\"{key}\"]`")));
                }
                self.advance()?;
                let value = self.value(depth)?;
                table.keyed.push((key, value));
            }
            None => {
                let value = self.value(depth)?;
                table.list.push(value);
            }
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// Conversion

/// Turns the parsed file into a grammar, collecting the first fault of every rule.
fn convert(root: &Value, source: &str) -> Result<LuaImport, GrammarError> {
    let invalid = |f: Fault, rule: Option<String>| {
        GrammarError::Invalid(vec![f.into_diagnostic(source, rule)])
    };
    let rules = list(root, "the returned value").map_err(|f| invalid(f, None))?;
    let mut grammar = Grammar::new(source);
    let mut skipped_empty = 0;
    let mut errors = Vec::new();
    for (i, value) in rules.iter().enumerate() {
        let name = format!("rule {}", i + 1);
        match convert_rule(&mut grammar.tags, &name, value) {
            Ok(Some(rule)) => grammar.rules.push(rule),
            Ok(None) => skipped_empty += 1,
            Err(f) => errors.push(f.into_diagnostic(source, Some(name))),
        }
    }
    if errors.is_empty() {
        Ok(LuaImport {
            grammar,
            skipped_empty,
        })
    } else {
        Err(GrammarError::Invalid(errors))
    }
}

/// One rule, or `None` for a placeholder (both graphs without vertices).
fn convert_rule(tags: &mut TagTable, name: &str, value: &Value) -> Result<Option<Rule>, Fault> {
    let rule = table(value, "the rule")?;
    let left = field(rule, value.at, "leftGraph", "the rule")?;
    let right = field(rule, value.at, "rightGraph", "the rule")?;
    let map = field(rule, value.at, "map", "the rule")?;
    let pattern = graph(left, "`leftGraph`", |i, v, t| pattern_vertex(tags, i, v, t))?;
    let substitute = graph(right, "`rightGraph`", |i, v, t| {
        substitute_vertex(tags, i, v, t)
    })?;
    let map = list(map, "`map`")?
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let what = format!("`map` entry {}", i + 1);
            vertex_number(v, &what, substitute.vertices.len(), "`rightGraph`")
        })
        .collect::<Result<Vec<u32>, Fault>>()?;
    if pattern.vertices.is_empty() && substitute.vertices.is_empty() {
        return Ok(None);
    }
    Ok(Some(Rule {
        name: name.to_string(),
        weight: 1.0,
        max_uses: None,
        min_uses: 0,
        pattern,
        substitute,
        map,
        at: value.at,
    }))
}

/// A graph: its `vertices` (each read by `vertex` from its index, value and table) and its
/// `edges` (absent means none).
fn graph<V>(
    value: &Value,
    what: &str,
    mut vertex: impl FnMut(usize, &Value, &Table) -> Result<V, Fault>,
) -> Result<RuleGraph<V>, Fault> {
    let t = table(value, what)?;
    let vertex_values = list(field(t, value.at, "vertices", what)?, "`vertices`")?;
    let mut vertices = Vec::with_capacity(vertex_values.len());
    for (i, v) in vertex_values.iter().enumerate() {
        let vt = table(v, &format!("{what} vertex {}", i + 1))?;
        vertices.push(vertex(i, v, vt)?);
    }
    let edge_values = match t.get("edges") {
        Some(e) => list(e, "`edges`")?,
        None => &[],
    };
    let edges = edge_values
        .iter()
        .enumerate()
        .map(|(i, e)| edge(e, &format!("{what} edge {}", i + 1), vertices.len(), what))
        .collect::<Result<Vec<_>, Fault>>()?;
    Ok(RuleGraph { vertices, edges })
}

fn pattern_vertex(
    tags: &mut TagTable,
    i: usize,
    value: &Value,
    t: &Table,
) -> Result<PatternVertex, Fault> {
    let name = (i + 1).to_string();
    let in_vertex = |f: Fault| named(f, &name, "`leftGraph`");
    let (x, y) = coordinates(t, value.at).map_err(in_vertex)?;
    let tag_value = field(t, value.at, "tags", "the vertex").map_err(in_vertex)?;
    let tag_set = tag_set(tags, tag_value).map_err(in_vertex)?;
    let lock = flag(t, "lock").map_err(in_vertex)?;
    let cosmetic = flag(t, "cosmetic").map_err(in_vertex)?;
    Ok(PatternVertex {
        name: name.clone(),
        x,
        y,
        tags: tag_set,
        blocked: None,
        lock,
        cosmetic,
        at: value.at,
    })
}

fn substitute_vertex(
    tags: &mut TagTable,
    i: usize,
    value: &Value,
    t: &Table,
) -> Result<SubstituteVertex, Fault> {
    let name = (i + 1).to_string();
    let in_vertex = |f: Fault| named(f, &name, "`rightGraph`");
    let (x, y) = coordinates(t, value.at).map_err(in_vertex)?;
    let tag_value = field(t, value.at, "tag", "the vertex").map_err(in_vertex)?;
    let tag = match &tag_value.kind {
        Kind::Str(s) if s == "*" => None,
        Kind::Str(s) => Some(intern(tags, s, tag_value.at).map_err(in_vertex)?),
        _ => {
            return Err(in_vertex(Fault::new(
                tag_value.at,
                format!("`tag` is {}; expected a string", tag_value.describe()),
            )));
        }
    };
    let cosmetic = flag(t, "cosmetic").map_err(in_vertex)?;
    Ok(SubstituteVertex {
        name: name.clone(),
        x,
        y,
        tag,
        cosmetic,
        at: value.at,
    })
}

/// Attributes a fault to vertex `name` of graph `what`.
fn named(mut f: Fault, name: &str, what: &str) -> Fault {
    f.vertex = Some(name.to_string());
    f.message = format!("in {what}: {}", f.message);
    f
}

/// `x` and `y`, or the first two positional entries where those are absent (the older format).
fn coordinates(t: &Table, at: Pos) -> Result<(f32, f32), Fault> {
    let one = |key: &str, i: usize| {
        let v = t.get(key).or_else(|| t.nth(i)).ok_or_else(|| {
            Fault::new(
                at,
                format!(
                    "the vertex has no `{key}` (neither `{key} =` nor positional entry {})",
                    i + 1
                ),
            )
        })?;
        let n = number(v, &format!("`{key}`"))? as f32;
        if n.is_finite() {
            Ok(n)
        } else {
            Err(Fault::new(v.at, format!("`{key}` is too large")))
        }
    };
    Ok((one("x", 0)?, one("y", 1)?))
}

/// A pattern vertex's `tags`: `{ ["a"] = true, ... }`, several keys for `a|b`, `*` for any.
fn tag_set(tags: &mut TagTable, value: &Value) -> Result<TagSet, Fault> {
    let t = table(value, "`tags`")?;
    if let Some(v) = t.list.first() {
        return Err(Fault::new(
            v.at,
            format!(
                "`tags` has a positional entry ({}); write each tag as `[\"name\"] = true`",
                v.describe()
            ),
        ));
    }
    let mut any = false;
    let mut ids = Vec::new();
    // The last entry under a repeated key wins, as in Lua; tags are interned in file order.
    let mut seen = HashSet::new();
    let mut last: Vec<&(String, Value)> = t
        .keyed
        .iter()
        .rev()
        .filter(|(name, _)| seen.insert(name.as_str()))
        .collect();
    last.reverse();
    for (name, v) in last {
        match v.kind {
            Kind::Bool(true) => {}
            Kind::Bool(false) | Kind::Nil => continue,
            _ => {
                return Err(Fault::new(
                    v.at,
                    format!("tag `{name}` is set to {}; expected `true`", v.describe()),
                ));
            }
        }
        if name == "*" {
            any = true;
        } else {
            ids.push(intern(tags, name, v.at)?);
        }
    }
    if any {
        Ok(TagSet::Any)
    } else if ids.is_empty() {
        Err(Fault::new(
            value.at,
            "`tags` names no tag, so the vertex would match nothing",
        ))
    } else {
        Ok(TagSet::of(ids))
    }
}

/// Interns a tag name, refusing names warren's tag sets cannot show and the 65,537th tag.
fn intern(tags: &mut TagTable, name: &str, at: Pos) -> Result<TagId, Fault> {
    if name.is_empty()
        || name
            .chars()
            .any(|c| c.is_whitespace() || matches!(c, '|' | '!' | '*'))
    {
        return Err(Fault::new(
            at,
            format!(
                "`{}` is not a usable tag name (tags are non-empty, without spaces, `|`, `!` or `*`)",
                name.escape_debug()
            ),
        ));
    }
    if tags.id(name).is_none() && tags.len() > usize::from(TagId::MAX) {
        return Err(Fault::new(at, "more than 65,536 distinct tags"));
    }
    Ok(tags.intern(name))
}

/// An edge `{ v1, v2, ["cosmetic"] = bool, ["subdivide"] = bool }` of a graph of `n` vertices.
fn edge(value: &Value, what: &str, n: usize, graph: &str) -> Result<RuleEdge, Fault> {
    let t = table(value, what)?;
    let end = |i: usize| {
        let v = t.nth(i).ok_or_else(|| {
            Fault::new(
                value.at,
                format!("{what} needs two vertex numbers as its first entries"),
            )
        })?;
        vertex_number(v, &format!("{what}'s vertex {}", i + 1), n, graph)
    };
    let (a, b) = (end(0)?, end(1)?);
    let kind = if flag(t, "cosmetic")? {
        EdgeKind::Cosmetic
    } else if flag(t, "subdivide")? {
        EdgeKind::Subdivide
    } else {
        EdgeKind::Normal
    };
    Ok(RuleEdge {
        a,
        b,
        kind,
        length: None,
        at: value.at,
    })
}

/// A 1-based vertex number of a graph of `n` vertices, made 0-based.
fn vertex_number(v: &Value, what: &str, n: usize, graph: &str) -> Result<u32, Fault> {
    let x = number(v, what)?;
    if x.fract() == 0.0 && x >= 1.0 && x <= n as f64 {
        // In range of a vertex count, so the cast is exact.
        if let Ok(i) = u32::try_from(x as u64 - 1) {
            return Ok(i);
        }
    }
    let has = match n {
        0 => "no vertices".to_string(),
        1 => "1 vertex".to_string(),
        n => format!("{n} vertices"),
    };
    Err(Fault::new(
        v.at,
        format!("{what} is {x}, but {graph} has {has}"),
    ))
}

/// An optional boolean under `key` (absent: false).
fn flag(t: &Table, key: &str) -> Result<bool, Fault> {
    match t.get(key) {
        None => Ok(false),
        Some(Value {
            kind: Kind::Bool(b),
            ..
        }) => Ok(*b),
        Some(v) => Err(Fault::new(
            v.at,
            format!("`{key}` is {}; expected `true` or `false`", v.describe()),
        )),
    }
}

fn number(v: &Value, what: &str) -> Result<f64, Fault> {
    match v.kind {
        Kind::Number(n) => Ok(n),
        _ => Err(Fault::new(
            v.at,
            format!("{what} is {}; expected a number", v.describe()),
        )),
    }
}

fn table<'v>(v: &'v Value, what: &str) -> Result<&'v Table, Fault> {
    match &v.kind {
        Kind::Table(t) => Ok(t),
        _ => Err(Fault::new(
            v.at,
            format!("{what} is {}; expected a table", v.describe()),
        )),
    }
}

/// The positional entries of a table that must be a plain list.
fn list<'v>(v: &'v Value, what: &str) -> Result<&'v [Value], Fault> {
    let t = table(v, what)?;
    match t.keyed.first() {
        Some((key, kv)) => Err(Fault::new(
            kv.at,
            format!("{what} must be a list, but has the key `{key}`"),
        )),
        None => Ok(&t.list),
    }
}

/// The value under `key` of table `t` (at `at`), which must be there.
fn field<'v>(t: &'v Table, at: Pos, key: &str, what: &str) -> Result<&'v Value, Fault> {
    t.get(key)
        .ok_or_else(|| Fault::new(at, format!("{what} has no `{key}`")))
}

mod fault;
mod lexer;

#[cfg(test)]
mod tests;
