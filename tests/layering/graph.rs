//! The import graph of a crate, computed from its source text: which file uses which.
//!
//! Every file under `src/` is a node named by its module path (`src/archive/reader.rs` is
//! `archive::reader`, `src/archive/mod.rs` is `archive`). An edge `a -> b` is a `use crate::...`,
//! `use super::...` or `use self::...` item in `a`, or a `crate::`/`super::`/`$crate::` path
//! written inline in `a`'s code, that names an item defined in `b`. Paths are followed through
//! re-exports (`pub use`), so `use crate::archive::Archive` is an edge to the file that defines
//! `Archive`, not to `archive/mod.rs`.
//!
//! Left out, on purpose:
//! - test code: `*_tests.rs` and `tests.rs` files and every item under `#[cfg(test)]` (a test
//!   may build a maze to test the archive with; the build does not depend on it);
//! - a facade's re-exports: `pub use` in a `mod.rs` or `lib.rs` declares the module's API, it is
//!   not a dependency of the facade (a `pub use` in any other file is one);
//! - `mod` declarations.
//!
//! Comments and string and character literals are blanked before anything is read, so a path
//! in a doc comment is not an edge.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// One use of another file: where it is written.
#[derive(Clone, Debug)]
pub struct Edge {
    /// The line (1-based) of the first use.
    pub line: usize,
}

/// The files of a crate and the edges between them.
#[derive(Debug, Default)]
pub struct Graph {
    /// Module path (`archive::reader`; the crate root is ``) -> file, relative to the crate.
    pub files: BTreeMap<String, PathBuf>,
    /// `from -> to -> where`: module paths, both in `files`, never equal.
    pub edges: BTreeMap<String, BTreeMap<String, Edge>>,
}

/// What one module binds by name: its own items and its `use` bindings.
#[derive(Default)]
struct Names {
    defined: BTreeSet<String>,
    /// `name -> path` for `use path as name` (and `use path::name`).
    bound: HashMap<String, Vec<String>>,
    /// `use path::*`: each path.
    globs: Vec<Vec<String>>,
}

/// A `use` item or an inline path, already made absolute (`crate` dropped).
struct Reference {
    path: Vec<String>,
    line: usize,
    /// A `pub use` in a facade: a re-export, not a dependency.
    reexport: bool,
}

impl Graph {
    /// Reads every `.rs` file under `root/src`.
    pub fn from_crate(root: &Path) -> Graph {
        let src = root.join("src");
        let mut paths = Vec::new();
        sources(&src, &mut paths);
        paths.sort();
        let mut modules = Vec::new();
        for path in paths {
            let rel = path.strip_prefix(&src).unwrap().to_path_buf();
            if is_test_file(&rel) {
                continue;
            }
            let module = module_of(&rel);
            let text = std::fs::read_to_string(&path).unwrap();
            let code = without_test_items(&blank_literals(&text));
            modules.push((module, Path::new("src").join(rel), code));
        }
        Graph::from_modules(modules)
    }

    /// The graph of `(module path, file, code)` triples (the code with its literals and test items
    /// blanked).
    fn from_modules(modules: Vec<(String, PathBuf, String)>) -> Graph {
        let mut graph = Graph::default();
        let mut names: HashMap<String, Names> = HashMap::new();
        let mut references: Vec<(String, Vec<Reference>)> = Vec::new();
        for (module, file, code) in &modules {
            let facade = is_facade(file);
            let (refs, bound, globs) = references_in(module, code, facade);
            let entry = names.entry(module.clone()).or_default();
            entry.defined = definitions(code);
            entry.bound = bound;
            entry.globs = globs;
            graph.files.insert(module.clone(), file.clone());
            references.push((module.clone(), refs));
        }
        for (module, refs) in references {
            for r in refs.into_iter().filter(|r| !r.reexport) {
                let Some(target) = resolve(&graph.files, &names, &r.path, 0) else {
                    continue;
                };
                if target != module {
                    let to = graph.edges.entry(module.clone()).or_default();
                    to.entry(target).or_insert(Edge { line: r.line });
                }
            }
        }
        graph
    }

    /// The file of a module, as written in messages.
    pub fn file(&self, module: &str) -> String {
        self.files[module].display().to_string()
    }

    /// The cycles: each strongly connected set of two or more files, as one cycle through it
    /// (`a -> b -> ... -> a`), with the line of each step.
    pub fn cycles(&self) -> Vec<Vec<(String, usize)>> {
        let mut out = Vec::new();
        for component in self.strongly_connected() {
            let set: BTreeSet<&String> = component.iter().collect();
            // Walk from the first file, always to the smallest neighbour inside the set not yet
            // seen, until a file repeats: that loop is a cycle inside the component.
            let mut walk = vec![component[0].clone()];
            loop {
                let here = walk.last().unwrap();
                let next = self.edges[here]
                    .keys()
                    .find(|to| set.contains(to))
                    .expect("a strongly connected file has a neighbour inside")
                    .clone();
                if let Some(start) = walk.iter().position(|m| *m == next) {
                    let mut cycle: Vec<(String, usize)> = Vec::new();
                    let looped: Vec<String> = walk[start..].iter().cloned().chain([next]).collect();
                    for pair in looped.windows(2) {
                        cycle.push((pair[0].clone(), self.edges[&pair[0]][&pair[1]].line));
                    }
                    cycle.push((looped.last().unwrap().clone(), 0));
                    out.push(cycle);
                    break;
                }
                walk.push(next);
            }
        }
        out
    }

    /// Tarjan's strongly connected components of two or more files, each sorted.
    fn strongly_connected(&self) -> Vec<Vec<String>> {
        struct State<'g> {
            graph: &'g Graph,
            index: HashMap<&'g str, usize>,
            low: HashMap<&'g str, usize>,
            stack: Vec<&'g str>,
            on_stack: BTreeSet<&'g str>,
            out: Vec<Vec<String>>,
        }
        fn visit<'g>(s: &mut State<'g>, v: &'g str) {
            let n = s.index.len();
            s.index.insert(v, n);
            s.low.insert(v, n);
            s.stack.push(v);
            s.on_stack.insert(v);
            if let Some(to) = s.graph.edges.get(v) {
                for w in to.keys() {
                    if !s.index.contains_key(w.as_str()) {
                        visit(s, w);
                        let low = s.low[v].min(s.low[w.as_str()]);
                        s.low.insert(v, low);
                    } else if s.on_stack.contains(w.as_str()) {
                        let low = s.low[v].min(s.index[w.as_str()]);
                        s.low.insert(v, low);
                    }
                }
            }
            if s.low[v] == s.index[v] {
                let mut component = Vec::new();
                loop {
                    let w = s.stack.pop().unwrap();
                    s.on_stack.remove(w);
                    component.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    s.out.push(component);
                }
            }
        }
        let mut state = State {
            graph: self,
            index: HashMap::new(),
            low: HashMap::new(),
            stack: Vec::new(),
            on_stack: BTreeSet::new(),
            out: Vec::new(),
        };
        for module in self.files.keys() {
            if !state.index.contains_key(module.as_str()) {
                visit(&mut state, module);
            }
        }
        state.out
    }
}

/// The top-level module a module path lies in (`archive::reader` -> `archive`; the root -> ``).
pub fn top(module: &str) -> &str {
    module.split("::").next().unwrap_or("")
}

/// Every `.rs` file under `dir`.
pub fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn is_test_file(rel: &Path) -> bool {
    let name = rel.file_stem().unwrap().to_str().unwrap();
    name == "tests" || name.ends_with("_tests")
}

fn is_facade(file: &Path) -> bool {
    let name = file.file_name().unwrap();
    name == "mod.rs" || name == "lib.rs" || name == "main.rs"
}

/// `archive/reader.rs` -> `archive::reader`, `archive/mod.rs` -> `archive`, `lib.rs` -> ``.
fn module_of(rel: &Path) -> String {
    let mut parts: Vec<String> = rel
        .with_extension("")
        .iter()
        .map(|p| p.to_str().unwrap().to_string())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    if parts == ["lib"] || parts == ["main"] {
        parts.clear();
    }
    parts.join("::")
}

/// The text with comments, string literals and character literals replaced by spaces (line
/// breaks kept, so lines still count).
pub fn blank_literals(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if let Some(hashes) = raw_string_start(&chars, i) {
            // r"..." or r#"..."# (b and c prefixes too): no escapes, ends at `"` and the hashes.
            let open = chars[i..].iter().position(|&c| c == '"').unwrap() + 1;
            for _ in 0..open {
                out.push(' ');
            }
            i += open;
            while i < chars.len() {
                if chars[i] == '"' && (0..hashes).all(|k| chars.get(i + 1 + k) == Some(&'#')) {
                    for _ in 0..=hashes {
                        out.push(' ');
                    }
                    i += 1 + hashes;
                    break;
                }
                out.push(blank(chars[i]));
                i += 1;
            }
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < chars.len() {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' && is_char_literal(&chars, i) {
            out.push(' ');
            i += 1;
            while i < chars.len() && chars[i] != '\'' {
                if chars[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                out.push(' ');
                i += 1;
            }
            out.push(' ');
            i += 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// At `i`, a raw string literal's start (`r"`, `r#"`, `br"`, ...): the number of hashes.
fn raw_string_start(chars: &[char], i: usize) -> Option<usize> {
    let before = i.checked_sub(1).map(|j| chars[j]);
    if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let mut j = i;
    if matches!(chars[j], 'b' | 'c') {
        j += 1;
    }
    if chars.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let mut hashes = 0;
    while chars.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    (chars.get(j) == Some(&'"')).then_some(hashes)
}

/// At `i` (a `'`), a character literal rather than a lifetime or label.
fn is_char_literal(chars: &[char], i: usize) -> bool {
    match chars.get(i + 1) {
        Some('\\') => true,
        Some(_) => chars.get(i + 2) == Some(&'\''),
        None => false,
    }
}

/// The code with every item under `#[cfg(test)]` blanked: a `mod x;` line, or a block up to
/// its closing brace.
pub fn without_test_items(code: &str) -> String {
    let mut out: Vec<char> = code.chars().collect();
    let marker: Vec<char> = "#[cfg(test)]".chars().collect();
    let mut i = 0;
    while i + marker.len() <= out.len() {
        if out[i..i + marker.len()] != marker[..] {
            i += 1;
            continue;
        }
        // The item runs to its first `;` outside braces, or to the brace closing its first `{`;
        // a field or struct-literal member (`#[cfg(test)] name: T,`) to its `,` outside any
        // bracket, or to the brace closing what holds it (left in place).
        let mut j = i + marker.len();
        let mut depth = 0usize;
        let mut nested = 0usize;
        while j < out.len() {
            match out[j] {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    j -= 1;
                    break;
                }
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                '(' | '[' => nested += 1,
                ')' | ']' => nested = nested.saturating_sub(1),
                ';' if depth == 0 => break,
                ',' if depth == 0 && nested == 0 => break,
                _ => {}
            }
            j += 1;
        }
        let end = (j + 1).min(out.len());
        for c in &mut out[i..end] {
            if *c != '\n' {
                *c = ' ';
            }
        }
        i = j + 1;
    }
    out.into_iter().collect()
}

/// The names a module defines as items of its own.
fn definitions(code: &str) -> BTreeSet<String> {
    let words = words(code);
    let mut out = BTreeSet::new();
    for pair in words.windows(2) {
        let (keyword, name) = (pair[0].1.as_str(), pair[1].1.as_str());
        if matches!(
            keyword,
            "fn" | "struct" | "enum" | "trait" | "type" | "const" | "static" | "union" | "mod"
        ) || keyword == "macro_rules!"
        {
            out.insert(name.trim_start_matches("r#").to_string());
        }
    }
    out
}

/// The words of the code (identifiers and keywords, `macro_rules!` as one), each with the line
/// it is on.
fn words(code: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut line = 1;
    let mut word = String::new();
    for c in code.chars().chain(['\n']) {
        if c.is_alphanumeric() || c == '_' || (c == '!' && word == "macro_rules") {
            word.push(c);
        } else {
            if !word.is_empty() {
                out.push((line, std::mem::take(&mut word)));
            }
            if c == '\n' {
                line += 1;
            }
        }
    }
    out
}

/// The references a module's code makes, the names its `use` items bind and its glob imports.
#[allow(clippy::type_complexity)]
fn references_in(
    module: &str,
    code: &str,
    facade: bool,
) -> (
    Vec<Reference>,
    HashMap<String, Vec<String>>,
    Vec<Vec<String>>,
) {
    let here: Vec<String> = module
        .split("::")
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect();
    let mut refs = Vec::new();
    let mut bound = HashMap::new();
    let mut globs = Vec::new();
    let chars: Vec<char> = code.chars().collect();
    let mut line = 1;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
            continue;
        }
        let starts_word = i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        if starts_word && word_at(&chars, i, "use") {
            // A `use` item: up to its `;`.
            let end = i + chars[i..]
                .iter()
                .position(|&c| c == ';')
                .unwrap_or(chars.len() - i);
            let body: String = chars[i + 3..end].iter().collect();
            let public = is_pub_before(&chars, i);
            for (path, alias) in expand_use(&body) {
                // `use child::X` names a child module (`child` is checked to be one when the
                // path is resolved); `use std::...` or an external crate is no edge.
                let Some(abs) = absolute(&here, &path).or_else(|| {
                    let mut child = here.clone();
                    child.extend(path.iter().cloned());
                    Some(child)
                }) else {
                    continue;
                };
                if abs.last().is_some_and(|s| s == "*") {
                    globs.push(abs[..abs.len() - 1].to_vec());
                } else if let Some(name) = alias.or_else(|| abs.last().cloned()) {
                    bound.insert(name, abs.clone());
                }
                refs.push(Reference {
                    path: abs,
                    line,
                    reexport: public && facade,
                });
            }
            line += chars[i..end].iter().filter(|&&c| c == '\n').count();
            i = end;
            continue;
        }
        // A path written inline: `crate::x::y`, `super::x`, `self::x`, `$crate::x`, or
        // `child::x` (a child module is in scope without a `use`; a path whose first segment
        // is no child of this module resolves to the module itself and makes no edge).
        let after_colons = i >= 2 && chars[i - 1] == ':' && chars[i - 2] == ':';
        if (starts_word || chars[i - 1] == '$') && !after_colons && is_ident_start(c) {
            let mut j = i;
            while j < chars.len()
                && (chars[j].is_alphanumeric() || chars[j] == '_' || chars[j] == ':')
            {
                j += 1;
            }
            let text: String = chars[i..j].iter().collect();
            if text.contains("::") {
                let path = segments(&text);
                let abs = absolute(&here, &path).or_else(|| {
                    let mut child = here.clone();
                    child.extend(path.iter().cloned());
                    Some(child)
                });
                if let Some(abs) = abs {
                    refs.push(Reference {
                        path: abs,
                        line,
                        reexport: false,
                    });
                }
            }
            i = j;
            continue;
        }
        i += 1;
    }
    (refs, bound, globs)
}

fn is_ident_start(c: char) -> bool {
    c.is_alphabetic() || c == '_'
}

fn word_at(chars: &[char], i: usize, word: &str) -> bool {
    let w: Vec<char> = word.chars().collect();
    chars.get(i..i + w.len()) == Some(&w[..])
        && !chars
            .get(i + w.len())
            .is_some_and(|c| c.is_alphanumeric() || *c == '_')
}

/// Whether the `use` at `i` is `pub`, `pub(crate)`, `pub(super)` or `pub(in ...)`.
fn is_pub_before(chars: &[char], i: usize) -> bool {
    let before: String = chars[i.saturating_sub(40)..i].iter().collect();
    let before = before.trim_end();
    let before = match before.strip_suffix(')') {
        Some(b) => b.rsplit_once('(').map_or(b, |(head, _)| head).trim_end(),
        None => before,
    };
    before.ends_with("pub")
        && !before[..before.len() - 3]
            .chars()
            .last()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
}

/// `crate::a::{b, c::d as e}` -> `[(crate::a::b, None), (crate::a::c::d, Some(e))]`.
fn expand_use(body: &str) -> Vec<(Vec<String>, Option<String>)> {
    fn go(prefix: &[String], text: &str, out: &mut Vec<(Vec<String>, Option<String>)>) {
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        if let Some(open) = text.find('{') {
            let close = text.rfind('}').unwrap_or(text.len());
            let mut head = prefix.to_vec();
            head.extend(segments(&text[..open]));
            let inner = &text[open + 1..close];
            let mut depth = 0;
            let mut start = 0;
            for (k, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        go(&head, &inner[start..k], out);
                        start = k + 1;
                    }
                    _ => {}
                }
            }
            go(&head, &inner[start..], out);
            return;
        }
        let (path, alias) = match text.split_once(" as ") {
            Some((p, a)) => (p, Some(a.trim().to_string())),
            None => (text, None),
        };
        let mut full = prefix.to_vec();
        full.extend(segments(path));
        if full.last().is_some_and(|s| s == "self") {
            full.pop();
        }
        out.push((full, alias));
    }
    let mut out = Vec::new();
    go(&[], body, &mut out);
    out
}

fn segments(path: &str) -> Vec<String> {
    path.split("::")
        .map(|s| s.split_whitespace().collect::<String>())
        .filter(|s| !s.is_empty())
        .collect()
}

/// A path as written in module `here`, made absolute (without `crate`); `None` for a path into
/// another crate.
fn absolute(here: &[String], path: &[String]) -> Option<Vec<String>> {
    let first = path.first()?.trim_start_matches('$');
    let mut out = match first {
        "crate" => Vec::new(),
        "self" | "super" => here.to_vec(),
        _ => return None,
    };
    let mut rest = &path[1..];
    if first == "super" {
        out.pop()?;
    }
    while let Some(s) = rest.first() {
        if s != "super" {
            break;
        }
        out.pop()?;
        rest = &rest[1..];
    }
    out.extend(rest.iter().cloned());
    Some(out)
}

/// The module whose file defines what `path` names, following `use` bindings and globs.
fn resolve(
    files: &BTreeMap<String, PathBuf>,
    names: &HashMap<String, Names>,
    path: &[String],
    depth: usize,
) -> Option<String> {
    // The longest prefix of the path that is a file.
    let (module, rest) = (0..=path.len()).rev().find_map(|n| {
        let m = path[..n].join("::");
        files.contains_key(&m).then(|| (m, &path[n..]))
    })?;
    let Some(name) = rest.first() else {
        return Some(module);
    };
    if depth > 16 || name == "*" {
        return Some(module);
    }
    let names_here = &names[&module];
    if names_here.defined.contains(name) {
        return Some(module);
    }
    if let Some(target) = names_here.bound.get(name) {
        let mut next = target.clone();
        next.extend(rest[1..].iter().cloned());
        return resolve(files, names, &next, depth + 1).or(Some(module));
    }
    for glob in &names_here.globs {
        let mut next = glob.clone();
        next.extend(rest.iter().cloned());
        if let Some(found) = resolve(files, names, &next, depth + 1)
            && found != module
            && names[&found].defined.contains(next.last().unwrap())
        {
            return Some(found);
        }
    }
    Some(module)
}

/// Every function of the code longer than `limit` lines: `(name, first line, lines)`. The code
/// must have its literals blanked ([`blank_literals`]).
pub fn long_functions(code: &str, limit: usize) -> Vec<(String, usize, usize)> {
    let chars: Vec<char> = code.chars().collect();
    let words = words(code);
    let mut out = Vec::new();
    // Char offsets of each line's start, to find a word's offset from its line.
    let mut line_starts = vec![0];
    for (i, &c) in chars.iter().enumerate() {
        if c == '\n' {
            line_starts.push(i + 1);
        }
    }
    for pair in words.windows(2) {
        if pair[0].1 != "fn" {
            continue;
        }
        let (line, name) = (pair[1].0, &pair[1].1);
        // The body: the first `{` after the name, unless a `;` ends the item first.
        let from = line_starts[line - 1];
        // Outside parentheses and brackets (`[u8; 4]` in a signature is no end).
        let mut nesting = 0i32;
        let Some(open) = (from..chars.len()).find(|&i| {
            match chars[i] {
                '(' | '[' => nesting += 1,
                ')' | ']' => nesting -= 1,
                _ => {}
            }
            nesting == 0 && matches!(chars[i], '{' | ';')
        }) else {
            continue;
        };
        if chars[open] == ';' {
            continue;
        }
        let mut depth = 0;
        let mut end_line = line;
        let mut l = line + chars[from..open].iter().filter(|&&c| c == '\n').count();
        for &c in &chars[open..] {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end_line = l;
                        break;
                    }
                }
                '\n' => l += 1,
                _ => {}
            }
        }
        let lines = end_line - line + 1;
        if lines > limit {
            out.push((name.clone(), line, lines));
        }
    }
    out
}

#[cfg(test)]
mod unit {
    use super::*;

    #[test]
    fn literals_and_comments_are_blanked_and_lines_kept() {
        let text = "let a = \"crate::x\"; // crate::y\nlet b = r#\"crate::z\"#; let c = '\"';\n";
        let out = blank_literals(text);
        assert_eq!(out.lines().count(), 2);
        assert!(!out.contains("crate::"), "{out}");
        assert!(out.contains("let c ="));
    }

    #[test]
    fn use_groups_expand() {
        let got = expand_use(" crate::a::{b, c::{d as e, self}}");
        let want = vec![
            (segments("crate::a::b"), None),
            (segments("crate::a::c::d"), Some("e".to_string())),
            (segments("crate::a::c"), None),
        ];
        assert_eq!(got, want);
    }
}
