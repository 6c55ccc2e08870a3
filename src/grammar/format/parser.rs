//! The rule-file parser (see [`super`] for the format): [`load`] and [`parse`], and their state
//! machine: top-level lines, rule sections, and every failure kept with its line and column.

use super::*;

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

pub(super) struct Parser {
    grammar: Grammar,
    name: Option<(String, Pos)>,
    diags: Vec<Diagnostic>,
    rule_names: HashMap<String, Pos>,
    /// Where each tag's `room` line is (`None`: `room default`).
    rooms: HashMap<Option<TagId>, Pos>,
    open: Option<Draft>,
}

impl Parser {
    pub(super) fn new(source: &str) -> Self {
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

    pub(super) fn line(&mut self, mut c: Cursor<'_>) {
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

    pub(super) fn finish(mut self, eof: Pos) -> Result<RuleFile, GrammarError> {
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
