//! A small element tree read with quick-xml, keeping byte offsets for error positions.
//!
//! GraphColoring level files are not well-formed XML: they hold several top-level elements and
//! no root (see the corpus notes). quick-xml is a pull reader that does not insist on a single
//! root, so the files are read as they are, with no wrapping trick that would shift positions.
//! It was chosen over roxmltree for that reason, and because it builds quickly with no default
//! features (its one dependency, memchr, is already in the build). End tags must match their
//! start tags; the XML declaration, comments and processing instructions are skipped.

use quick_xml::Reader;
use quick_xml::XmlVersion;
use quick_xml::events::{BytesStart, Event};

/// One element: name, attributes with their places, children and text.
#[derive(Debug)]
pub(crate) struct Element {
    /// The tag name.
    pub name: String,
    /// Byte offset of its `<`.
    pub start: usize,
    /// The attributes in order.
    pub attrs: Vec<Attr>,
    /// Child elements in order.
    pub children: Vec<Element>,
    /// The text directly inside it (entities resolved), and the offset of its first non-blank
    /// character.
    pub text: String,
    /// Byte offset of the first non-blank text character (`start` when there is none).
    pub text_start: usize,
}

/// One attribute: its name, its value (entities resolved) and the byte offset of its name.
#[derive(Debug)]
pub(crate) struct Attr {
    /// The attribute's name.
    pub key: String,
    /// The value, normalised as XML 1.0 does.
    pub value: String,
    /// Byte offset of the name in the file.
    pub offset: usize,
}

impl Element {
    /// The attribute `key`, if present.
    pub(crate) fn attr(&self, key: &str) -> Option<&Attr> {
        self.attrs.iter().find(|a| a.key == key)
    }
}

/// A syntax error: byte offset and message.
pub(crate) type SyntaxError = (usize, String);

/// Non-blank text outside every element: byte offset and its start.
pub(crate) type Stray = Option<(usize, String)>;

/// Byte offset of `part` inside `whole` when `part` borrows from it.
fn offset_in(whole: &str, part: &[u8]) -> Option<usize> {
    let base = whole.as_ptr() as usize;
    let p = part.as_ptr() as usize;
    (p >= base && p + part.len() <= base + whole.len()).then(|| p - base)
}

fn element(text: &str, start: usize, e: &BytesStart<'_>) -> Result<Element, SyntaxError> {
    let name = e.name().as_ref().to_string();
    let mut attrs = Vec::new();
    for a in e.attributes() {
        let a = a.map_err(|err| (start, format!("in <{name}>: {err}")))?;
        let key = a.key.as_ref().to_string();
        let offset = offset_in(text, a.key.as_ref().as_bytes()).unwrap_or(start);
        let value = a
            .normalized_value(XmlVersion::Implicit1_0)
            .map_err(|err| (offset, format!("attribute `{key}`: {err}")))?
            .into_owned();
        attrs.push(Attr { key, value, offset });
    }
    Ok(Element {
        name,
        start,
        attrs,
        children: Vec::new(),
        text: String::new(),
        text_start: start,
    })
}

/// Appends text to the open element, or checks that top-level text is blank.
fn add_text(stack: &mut [Element], at: usize, s: &str, stray: &mut Option<(usize, String)>) {
    match stack.last_mut() {
        Some(e) => {
            // NOTE: `text_start` moves off `start` with the first non-blank text (text always
            // follows its start tag), so this tests "no text yet" without scanning `e.text`,
            // which for `<graph>` grows by a line break per child: a scan per child made a
            // level of n vertices cost O(n^2).
            if e.text_start == e.start && !s.trim().is_empty() {
                e.text_start = at + (s.len() - s.trim_start().len());
            }
            e.text.push_str(s);
        }
        None if !s.trim().is_empty() && stray.is_none() => {
            let lead = s.len() - s.trim_start().len();
            *stray = Some((at + lead, s.trim().chars().take(20).collect()));
        }
        None => {}
    }
}

/// Deepest element nesting read (a level nests three deep: `<graph><vertices><vertex>`).
const MAX_DEPTH: usize = 64;

/// Reads every top-level element of `text`. Top-level text other than blanks comes back as
/// `stray` (offset and start of the text) for the caller to report.
pub(crate) fn read(text: &str) -> Result<(Vec<Element>, Stray), SyntaxError> {
    let mut reader = Reader::from_str(text);
    reader.config_mut().check_end_names = true;
    let mut top = Vec::new();
    let mut stack: Vec<Element> = Vec::new();
    let mut stray = None;
    loop {
        let at = reader.buffer_position() as usize;
        let event = reader
            .read_event()
            .map_err(|e| (reader.error_position() as usize, e.to_string()))?;
        match event {
            Event::Start(e) => {
                // The format nests three deep; a file nested deeper than this is not a level,
                // and would cost a deep tree (and a deep recursion to drop it).
                if stack.len() >= MAX_DEPTH {
                    return Err((at, format!("elements nested more than {MAX_DEPTH} deep")));
                }
                stack.push(element(text, at, &e)?)
            }
            Event::Empty(e) => {
                let el = element(text, at, &e)?;
                match stack.last_mut() {
                    Some(parent) => parent.children.push(el),
                    None => top.push(el),
                }
            }
            Event::End(_) => {
                let el = stack.pop().ok_or((at, "unmatched end tag".to_string()))?;
                match stack.last_mut() {
                    Some(parent) => parent.children.push(el),
                    None => top.push(el),
                }
            }
            Event::Text(t) => add_text(&mut stack, at, &t.xml10_content(), &mut stray),
            Event::CData(t) => add_text(&mut stack, at, &t.xml10_content(), &mut stray),
            Event::GeneralRef(r) => {
                let resolved = match r.resolve_char_ref() {
                    Ok(Some(c)) => c.to_string(),
                    Ok(None) => quick_xml::escape::resolve_predefined_entity(&r)
                        .ok_or_else(|| (at, format!("unknown entity `&{};`", &*r)))?
                        .to_string(),
                    Err(e) => return Err((at, e.to_string())),
                };
                add_text(&mut stack, at, &resolved, &mut stray);
            }
            Event::Comment(_) | Event::Decl(_) | Event::PI(_) | Event::DocType(_) => {}
            Event::Eof => break,
        }
    }
    if let Some(open) = stack.last() {
        return Err((open.start, format!("<{}> is never closed", open.name)));
    }
    Ok((top, stray))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_several_top_level_elements_with_offsets() {
        let text = "<?xml version=\"1.0\"?>\n<a x=\"1\"/>\n<b>\n  <c y=\"&amp;2\"/>\n</b>\n";
        let (top, stray) = read(text).unwrap();
        assert!(stray.is_none());
        assert_eq!(top.len(), 2);
        assert_eq!(top[0].name, "a");
        assert_eq!(&text[top[0].start..top[0].start + 2], "<a");
        assert_eq!(&text[top[0].attrs[0].offset..][..1], "x");
        let c = &top[1].children[0];
        assert_eq!(c.attr("y").unwrap().value, "&2");
        assert_eq!(&text[c.attrs[0].offset..][..1], "y");
    }

    #[test]
    fn mismatched_and_unclosed_tags_are_errors() {
        assert!(read("<a></b>").is_err());
        let (at, msg) = read("<a>\n<b/>").unwrap_err();
        assert_eq!(at, 0, "{msg}");
        assert!(read("<a x=\"1></a>").is_err());
    }

    #[test]
    fn text_is_kept_inside_and_reported_outside() {
        let (top, stray) = read("<c>hi &lt;there&gt;</c> junk").unwrap();
        assert_eq!(top[0].text, "hi <there>");
        assert_eq!(stray, Some((24, "junk".to_string())));
    }
}
