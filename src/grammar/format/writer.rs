//! Writing a grammar as a rule file (see [`super`] for the format): names quoted where they must
//! be, vertices renamed where the names would not encode the map.

use super::*;

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
