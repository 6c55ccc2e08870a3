//! Profiles from TOML text and files, and `--set` overrides: every error names the file, line
//! and column, or the key.

use std::path::Path;

use super::error::ProfileError;
use super::kinds::{KINDS, Profile, ProfileDoc};
use crate::core::text::Pos;

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
        Err(ProfileError::UnknownKind {
            name: name.to_string(),
            known: KINDS.join(", "),
        })
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
        Self::parse_toml(text, origin, true)
    }

    /// Parses profile text, checking value ranges only when `validate` is set (overrides are
    /// checked once they all apply, so their order does not matter).
    fn parse_toml(text: &str, origin: &str, validate: bool) -> Result<Self, ProfileError> {
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
        if !validate {
            return Ok(profile);
        }
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
        self.set_one(arg, true)
    }

    /// Applies every override in order, then checks the value ranges once: `--set
    /// task.min_rows=50 --set task.max_rows=100` works in either order.
    pub fn set_all<S: AsRef<str>>(&mut self, args: &[S]) -> Result<(), ProfileError> {
        for arg in args {
            self.set_one(arg.as_ref(), false)?;
        }
        if !args.is_empty() {
            self.validate()?;
        }
        Ok(())
    }

    /// [`set`](Self::set), checking ranges only when `validate` is set. A key the profile's
    /// TOML leaves out (an optional value, an optional sub-section) is added, and the kind's
    /// parser decides whether it exists.
    fn set_one(&mut self, arg: &str, validate: bool) -> Result<(), ProfileError> {
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
        let unknown = || {
            err(format!(
                "unknown key `{key}`{}",
                known_keys(&table_keys(self), key)
            ))
        };
        if !table.contains_key(path[0]) {
            return Err(unknown());
        }
        let mut node = &mut table;
        let mut added = false;
        for p in parents {
            if !node.contains_key(*p) {
                node.insert((*p).to_string(), toml::Value::Table(toml::Table::new()));
                added = true;
            }
            node = match node.get_mut(*p) {
                Some(toml::Value::Table(t)) => t,
                _ => return Err(unknown()),
            };
        }
        match node.get_mut(*last) {
            Some(slot) if !slot.is_table() => *slot = value,
            Some(_) => return Err(unknown()),
            None => {
                node.insert((*last).to_string(), value);
                added = true;
            }
        }
        let text = toml::to_string(&table).expect("table serialises");
        let updated = Profile::parse_toml(&text, "", validate).map_err(|e| match e {
            ProfileError::Parse { message, .. } if added && message.contains("unknown field") => {
                unknown()
            }
            ProfileError::Parse { message, .. } => {
                err(format!("bad value `{}`: {message}", raw.trim()))
            }
            other => other,
        })?;
        *self = updated;
        Ok(())
    }
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
