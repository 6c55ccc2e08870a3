//! Repeat modes (Edgar's): how often one layout may use a template. The builder keeps them as it
//! places rooms (`build::forward::repeat_conflict`); this file holds what is decided without a
//! search:
//! - [`repeat_impossible`]: a proof, made up front, that no choice of templates keeps them: more
//!   rooms limited to `no_repeat` templates than such templates can serve (Hall's condition,
//!   checked by a maximum matching), or two connected rooms that can only take one and the same
//!   `no_immediate` template;
//! - [`repeat_broken`]: the check `verify` runs on the templates a stored layout took.

use crate::floorplan::spec::{LevelGraph, Library, Repeat};

/// The templates room `r` may take (its list, or every template of the library).
fn allowed(graph: &LevelGraph, library: &Library, r: usize) -> Vec<u32> {
    match &graph.rooms[r].templates {
        Some(ts) => ts.clone(),
        None => (0..library.templates.len() as u32).collect(),
    }
}

/// Why no choice of templates for the rooms of `graph` keeps the repeat modes `modes` (one per
/// template of `library`), if counting proves it, in one line naming the rooms and templates.
///
/// # Runtime
/// O(rooms x templates x matched) for the matching, linear for the rest.
pub(crate) fn repeat_impossible(
    graph: &LevelGraph,
    library: &Library,
    modes: &[Repeat],
) -> Option<String> {
    let n = graph.rooms.len();
    let mode = |t: u32| modes.get(t as usize).copied().unwrap_or_default();
    let room = |r: usize| format!("`{}`", graph.rooms[r].id);
    let template = |t: u32| format!("`{}`", library.templates[t as usize].name);
    for c in &graph.connections {
        let (a, b) = (
            allowed(graph, library, c.a as usize),
            allowed(graph, library, c.b as usize),
        );
        if let ([x], [y]) = (&a[..], &b[..])
            && x == y
            && mode(*x) == Repeat::NoImmediate
        {
            return Some(format!(
                "connected rooms {} and {} can only take template {}, whose repeat mode is \
                 no_immediate",
                room(c.a as usize),
                room(c.b as usize),
                template(*x)
            ));
        }
    }
    // The rooms that can only take `no_repeat` templates need one each (a matching).
    let limited: Vec<(usize, Vec<u32>)> = (0..n)
        .map(|r| (r, allowed(graph, library, r)))
        .filter(|(_, ts)| ts.iter().all(|&t| mode(t) == Repeat::NoRepeat))
        .collect();
    if limited.is_empty() {
        return None;
    }
    let (rooms, templates) = hall_violator(&limited, library.templates.len())?;
    let names = |v: Vec<String>| shortened(&v);
    Some(format!(
        "{} rooms ({}) can only take the {} template(s) {} between them, whose repeat mode is \
         no_repeat (at most one room each)",
        rooms.len(),
        names(rooms.iter().map(|&r| room(r)).collect()),
        templates.len(),
        names(templates.iter().map(|&t| template(t)).collect())
    ))
}

/// `a, b, c` with at most 8 items shown and how many more.
fn shortened(items: &[String]) -> String {
    const SHOWN: usize = 8;
    let mut out = items[..items.len().min(SHOWN)].join(", ");
    if items.len() > SHOWN {
        out += &format!(" and {} more", items.len() - SHOWN);
    }
    out
}

/// A set of rooms of `limited` (each with the templates it may take) whose templates are fewer
/// than they are, with those templates, if a matching of every room to a template of its own
/// does not exist. The rooms reached by alternating paths from a room left unmatched by a
/// maximum matching are such a set (Hall's theorem, König's proof).
fn hall_violator(
    limited: &[(usize, Vec<u32>)],
    templates: usize,
) -> Option<(Vec<usize>, Vec<u32>)> {
    let mut owner: Vec<Option<usize>> = vec![None; templates];
    let mut seen = vec![false; templates];
    for i in 0..limited.len() {
        seen.iter_mut().for_each(|s| *s = false);
        if augment(i, limited, &mut owner, &mut seen) {
            continue;
        }
        // `seen` now holds the templates reached from `i` by alternating paths, all matched.
        let mut rooms = vec![limited[i].0];
        let mut ts = Vec::new();
        for (t, &reached) in seen.iter().enumerate() {
            if reached {
                ts.push(t as u32);
                if let Some(k) = owner[t] {
                    rooms.push(limited[k].0);
                }
            }
        }
        rooms.sort_unstable();
        return Some((rooms, ts));
    }
    None
}

/// Kuhn's augmenting path from room `i` of `limited`.
fn augment(
    i: usize,
    limited: &[(usize, Vec<u32>)],
    owner: &mut [Option<usize>],
    seen: &mut [bool],
) -> bool {
    for &t in &limited[i].1 {
        let t = t as usize;
        if seen[t] {
            continue;
        }
        seen[t] = true;
        if owner[t].is_none_or(|k| augment(k, limited, owner, seen)) {
            owner[t] = Some(i);
            return true;
        }
    }
    false
}

/// Where the templates `taken` (one per room) break the repeat modes `modes`, if anywhere: two
/// rooms with one `no_repeat` template, or two connected rooms with one `no_immediate` template.
pub(crate) fn repeat_broken(
    graph: &LevelGraph,
    library: &Library,
    modes: &[Repeat],
    taken: &[u16],
) -> Option<String> {
    let mode = |t: u16| modes.get(t as usize).copied().unwrap_or_default();
    let name = |t: u16| {
        library
            .templates
            .get(t as usize)
            .map_or_else(|| t.to_string(), |x| x.name.clone())
    };
    let mut first: Vec<Option<usize>> = vec![None; library.templates.len()];
    for (r, &t) in taken.iter().enumerate() {
        if mode(t) != Repeat::NoRepeat {
            continue;
        }
        let slot = first.get_mut(t as usize)?;
        if let Some(q) = *slot {
            return Some(format!(
                "rooms `{}` and `{}` both take template `{}`, whose repeat mode is no_repeat",
                graph.rooms[q].id,
                graph.rooms[r].id,
                name(t)
            ));
        }
        *slot = Some(r);
    }
    graph.connections.iter().find_map(|c| {
        let (ta, tb) = (*taken.get(c.a as usize)?, *taken.get(c.b as usize)?);
        (ta == tb && mode(ta) == Repeat::NoImmediate).then(|| {
            format!(
                "connected rooms `{}` and `{}` both take template `{}`, whose repeat mode is \
                 no_immediate",
                graph.rooms[c.a as usize].id,
                graph.rooms[c.b as usize].id,
                name(ta)
            )
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::floorplan::input::{builtin_library, parse_graph};

    fn graph(text: &str, library: &Library) -> LevelGraph {
        parse_graph(text, "g.json", library).unwrap()
    }

    #[test]
    fn more_limited_rooms_than_no_repeat_templates_are_refused() {
        let library = builtin_library("edgar-paper").unwrap();
        let modes = vec![Repeat::NoRepeat; library.templates.len()];
        // Three rooms between two templates.
        let g = graph(
            r#"{"rooms": [{"id": "a", "templates": ["8x8", "12x12"]},
                          {"id": "b", "templates": ["8x8"]},
                          {"id": "c", "templates": ["12x12", "8x8"]},
                          {"id": "d"}],
                "connections": [["a", "b"], ["b", "c"], ["c", "d"]]}"#,
            &library,
        );
        let why = repeat_impossible(&g, &library, &modes).expect("refused");
        assert!(
            why.starts_with("3 rooms (`a`, `b`, `c`) can only take the 2 template(s)"),
            "{why}"
        );
        assert!(why.contains("`12x12`") && why.contains("`8x8`"), "{why}");
        // Two of them: a matching exists.
        let g = graph(
            r#"{"rooms": [{"id": "a", "templates": ["8x8", "12x12"]},
                          {"id": "b", "templates": ["8x8"]}, {"id": "d"}],
                "connections": [["a", "b"], ["b", "d"]]}"#,
            &library,
        );
        assert_eq!(repeat_impossible(&g, &library, &modes), None);
        // More rooms than templates, none limited to a list: every room may take any of the
        // six templates.
        let rooms: Vec<String> = (0..7).map(|i| format!("{{\"id\": \"r{i}\"}}")).collect();
        let conns: Vec<String> = (1..7).map(|i| format!("[\"r0\", \"r{i}\"]")).collect();
        let text = format!(
            "{{\"rooms\": [{}], \"connections\": [{}]}}",
            rooms.join(","),
            conns.join(",")
        );
        let why = repeat_impossible(&graph(&text, &library), &library, &modes).expect("refused");
        assert!(why.starts_with("7 rooms (`r0`, `r1`"), "{why}");
        // Under `allow` nothing is refused.
        let allow = vec![Repeat::Allow; library.templates.len()];
        assert_eq!(
            repeat_impossible(&graph(&text, &library), &library, &allow),
            None
        );
    }

    #[test]
    fn connected_rooms_held_to_one_no_immediate_template_are_refused() {
        let library = builtin_library("edgar-paper").unwrap();
        let modes = vec![Repeat::NoImmediate; library.templates.len()];
        let g = graph(
            r#"{"rooms": [{"id": "a", "templates": ["8x8"]}, {"id": "b", "templates": ["8x8"]},
                          {"id": "c", "templates": ["8x8"]}],
                "connections": [["a", "c"], ["c", "b"]]}"#,
            &library,
        );
        let why = repeat_impossible(&g, &library, &modes).expect("refused");
        assert_eq!(
            why,
            "connected rooms `a` and `c` can only take template `8x8`, whose repeat mode is \
             no_immediate"
        );
        // `a` and `b` are not connected: one template between them is fine.
        let g = graph(
            r#"{"rooms": [{"id": "a", "templates": ["8x8"]}, {"id": "b", "templates": ["8x8"]},
                          {"id": "c", "templates": ["12x12"]}],
                "connections": [["a", "c"], ["c", "b"]]}"#,
            &library,
        );
        assert_eq!(repeat_impossible(&g, &library, &modes), None);
    }

    #[test]
    fn broken_modes_are_found_in_a_layout() {
        let library = builtin_library("edgar-paper").unwrap();
        let g = graph(
            r#"{"rooms": [{"id": "a"}, {"id": "b"}, {"id": "c"}],
                "connections": [["a", "b"], ["b", "c"]]}"#,
            &library,
        );
        let mut modes = vec![Repeat::Allow; library.templates.len()];
        assert_eq!(repeat_broken(&g, &library, &modes, &[0, 0, 0]), None);
        modes[0] = Repeat::NoImmediate;
        assert_eq!(repeat_broken(&g, &library, &modes, &[0, 1, 0]), None);
        let why = repeat_broken(&g, &library, &modes, &[0, 0, 1]).expect("broken");
        assert!(
            why.starts_with("connected rooms `a` and `b` both take"),
            "{why}"
        );
        modes[0] = Repeat::NoRepeat;
        let why = repeat_broken(&g, &library, &modes, &[0, 1, 0]).expect("broken");
        assert!(
            why.starts_with("rooms `a` and `c` both take template"),
            "{why}"
        );
    }
}
