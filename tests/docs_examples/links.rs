//! The guide hangs together: every chapter (a `*.md` directly under `docs/`) is linked from
//! README.md, and every relative link or image in README.md and the guide names a file that
//! exists and, for a `#section` of a Markdown file, a heading that file has.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

use super::markdown_files;

/// The GitHub anchor of a heading: lower case, spaces to `-`, punctuation but `-` and `_`
/// dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown text's headings (outside code blocks).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut inside = false;
    let mut out = BTreeSet::new();
    for line in text.lines() {
        if line.starts_with("```") {
            inside = !inside;
        } else if !inside && line.starts_with('#') {
            out.insert(anchor(line.trim_start_matches('#')));
        }
    }
    out
}

/// Every link target of a Markdown text outside code blocks, with its 1-based line: `](x)` and
/// `src="x"`.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut inside = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with("```") {
            inside = !inside;
            continue;
        }
        if inside {
            continue;
        }
        for (open, close) in [("](", ')'), ("src=\"", '"')] {
            let mut rest = line;
            while let Some(at) = rest.find(open) {
                rest = &rest[at + open.len()..];
                if let Some(end) = rest.find(close) {
                    out.push((i + 1, rest[..end].to_owned()));
                    rest = &rest[end..];
                }
            }
        }
    }
    out
}

/// `base/link` with `.` and `..` resolved, relative to the checkout.
fn resolve(base: &Path, link: &str) -> PathBuf {
    let mut out = PathBuf::new();
    for part in base.join(link).components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// Every broken link of the files `names` (relative to `root`), as `FILE:LINE: ...`.
fn broken_links(root: &Path, names: &[String]) -> Vec<String> {
    let mut offences = Vec::new();
    for name in names {
        let text = std::fs::read_to_string(root.join(name)).expect("read a Markdown file");
        let base = Path::new(name).parent().unwrap_or(Path::new(""));
        for (line, link) in links(&text) {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            let (path, fragment) = link.split_once('#').unwrap_or((&link, ""));
            let target = if path.is_empty() {
                PathBuf::from(name)
            } else {
                resolve(base, path)
            };
            let Ok(target_text) = std::fs::read(root.join(&target)) else {
                if !root.join(&target).is_dir() {
                    offences.push(format!(
                        "{name}:{line}: `{link}`: no file {}",
                        target.display()
                    ));
                }
                continue;
            };
            let markdown = target.extension().is_some_and(|e| e == "md");
            if !fragment.is_empty()
                && markdown
                && !anchors(&String::from_utf8_lossy(&target_text)).contains(fragment)
            {
                offences.push(format!(
                    "{name}:{line}: `{link}`: {} has no heading #{fragment}",
                    target.display()
                ));
            }
        }
    }
    offences
}

#[test]
fn every_chapter_is_linked_from_the_readme_and_every_link_resolves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let names = markdown_files();
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let linked: BTreeSet<PathBuf> = links(&readme)
        .into_iter()
        .map(|(_, link)| resolve(Path::new(""), link.split('#').next().unwrap_or("")))
        .collect();
    let mut offences: Vec<String> = names
        .iter()
        .filter(|n| Path::new(n).parent() == Some(Path::new("docs")))
        .filter(|n| !linked.contains(Path::new(n)))
        .map(|n| format!("README.md: the chapter {n} is not linked"))
        .collect();
    offences.extend(broken_links(root, &names));
    assert!(offences.is_empty(), "{}", offences.join("\n"));
}

#[test]
fn a_broken_link_or_anchor_is_named_with_its_line() {
    let dir = crate::common::TempDir::new("docs-links");
    std::fs::create_dir_all(dir.join("docs")).expect("mkdir");
    std::fs::write(dir.join("docs/a.md"), "# A\n\n## Some part, here\n").expect("write");
    std::fs::write(
        dir.join("README.md"),
        "[a](docs/a.md#some-part-here)\n\n[b](docs/b.md)\n[c](docs/a.md#nowhere)\n",
    )
    .expect("write");
    let offences = broken_links(&dir.join(""), &["README.md".to_owned()]);
    assert_eq!(offences.len(), 2, "{offences:?}");
    assert!(
        offences[0].starts_with("README.md:3: `docs/b.md`"),
        "{offences:?}"
    );
    assert!(
        offences[1].starts_with("README.md:4: `docs/a.md#nowhere`"),
        "{offences:?}"
    );
}
