//! Writing a [`Scene`] as hand-written SVG 1.1 text: one element per item, numbers rounded to at
//! most two decimals, and runs of consecutive rects grouped under `shape-rendering="crispEdges"`
//! so grid cells meet without anti-aliased seams.

use std::fmt::Write as _;

use super::scene::{Item, Rgba, Scene};

/// Writes `scene` as a standalone SVG 1.1 document.
///
/// The background becomes a full-canvas rect unless it is transparent; invisible items and
/// items with non-positive size are left out. Lines have round caps.
///
/// # Runtime
/// O(items); one `String`, about 70 bytes per item.
pub fn to_svg(scene: &Scene) -> String {
    let mut out = String::with_capacity(256 + scene.items.len() * 72);
    let (w, h) = (num(scene.width.max(0.0)), num(scene.height.max(0.0)));
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w}" height="{h}" viewBox="0 0 {w} {h}" stroke-linecap="round">"#
    );
    let mut in_rect_group = false;
    if !scene.background.is_invisible() {
        out.push_str("<g shape-rendering=\"crispEdges\">\n");
        in_rect_group = true;
        let _ = writeln!(
            out,
            r#"<rect x="0" y="0" width="{w}" height="{h}"{}/>"#,
            Paint("fill", scene.background)
        );
    }
    for item in scene.items.iter().filter(|item| is_drawable(item)) {
        let is_rect = matches!(item, Item::Rect { .. });
        if is_rect != in_rect_group {
            out.push_str(if is_rect {
                "<g shape-rendering=\"crispEdges\">\n"
            } else {
                "</g>\n"
            });
            in_rect_group = is_rect;
        }
        write_item(&mut out, item);
    }
    if in_rect_group {
        out.push_str("</g>\n");
    }
    out.push_str("</svg>\n");
    out
}

/// Whether an item paints anything (renderers skip the rest).
fn is_drawable(item: &Item) -> bool {
    match *item {
        Item::Rect { w, h, fill, .. } => w > 0.0 && h > 0.0 && !fill.is_invisible(),
        Item::Line { width, stroke, .. } => width > 0.0 && !stroke.is_invisible(),
        Item::Circle { r, fill, .. } => r > 0.0 && !fill.is_invisible(),
    }
}

fn write_item(out: &mut String, item: &Item) {
    let _ = match *item {
        Item::Rect { x, y, w, h, fill } => writeln!(
            out,
            r#"<rect x="{}" y="{}" width="{}" height="{}"{}/>"#,
            num(x),
            num(y),
            num(w),
            num(h),
            Paint("fill", fill)
        ),
        Item::Line {
            x0,
            y0,
            x1,
            y1,
            width,
            stroke,
        } => writeln!(
            out,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke-width="{}"{}/>"#,
            num(x0),
            num(y0),
            num(x1),
            num(y1),
            num(width),
            Paint("stroke", stroke)
        ),
        Item::Circle { cx, cy, r, fill } => writeln!(
            out,
            r#"<circle cx="{}" cy="{}" r="{}"{}/>"#,
            num(cx),
            num(cy),
            num(r),
            Paint("fill", fill)
        ),
    };
}

/// A number rounded to two decimals without trailing zeros (`3`, `2.5`, `0.33`); non-finite
/// values and negative zero print as `0`.
struct Num(f64);

fn num(v: f32) -> Num {
    let rounded = (f64::from(v) * 100.0).round() / 100.0;
    Num(if rounded.is_finite() && rounded != 0.0 {
        rounded
    } else {
        0.0
    })
}

impl std::fmt::Display for Num {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // NOTE: `f64`'s Display prints the shortest text that reads back to the same value, so
        // a value rounded to hundredths never shows more than two decimals.
        write!(f, "{}", self.0)
    }
}

/// ` fill="#rrggbb"` (or `stroke`), with an `-opacity` attribute when not opaque.
struct Paint(&'static str, Rgba);

impl std::fmt::Display for Paint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Paint(attr, Rgba([r, g, b, a])) = *self;
        write!(f, r##" {attr}="#{r:02x}{g:02x}{b:02x}""##)?;
        if a < u8::MAX {
            write!(f, r#" {attr}-opacity="{}""#, num(f32::from(a) / 255.0))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_compact() {
        let cases = [(3.0, "3"), (2.5, "2.5"), (1.0 / 3.0, "0.33"), (-0.001, "0")];
        for (v, text) in cases {
            assert_eq!(num(v).to_string(), text);
        }
        assert_eq!(num(f32::NAN).to_string(), "0");
        assert_eq!(num(1234567.0).to_string(), "1234567");
    }

    #[test]
    fn rects_are_grouped_crisp_and_other_items_are_not() {
        let mut s = Scene::new(10.0, 5.5, Rgba::rgb(0x000000));
        s.push_rect(1.0, 1.0, 2.0, 2.0, Rgba::rgb(0xff8000));
        s.push_line(
            0.0,
            0.0,
            10.0,
            5.0,
            1.25,
            Rgba::rgb(0x00ff00).with_alpha(128),
        );
        s.push_rect(2.0, 2.0, 1.0, 1.0, Rgba::rgb(0x0000ff));
        s.push_circle(5.0, 2.0, 1.5, Rgba::rgb(0xffffff));
        let svg = to_svg(&s);
        assert!(svg.contains(r#"width="10" height="5.5" viewBox="0 0 10 5.5""#));
        assert_eq!(
            svg.matches(r#"<g shape-rendering="crispEdges">"#).count(),
            2
        );
        assert_eq!(svg.matches("<g").count(), svg.matches("</g>").count());
        assert_eq!(svg.matches("<rect").count(), 3);
        assert!(svg.contains(r##"<rect x="1" y="1" width="2" height="2" fill="#ff8000"/>"##));
        assert!(svg.contains(r##"stroke-width="1.25" stroke="#00ff00" stroke-opacity="0.5""##));
        assert!(svg.contains(r##"<circle cx="5" cy="2" r="1.5" fill="#ffffff"/>"##));
        assert!(svg.trim_end().ends_with("</svg>"));
    }

    #[test]
    fn transparent_background_is_omitted() {
        let svg = to_svg(&Scene::new(4.0, 4.0, Rgba::TRANSPARENT));
        assert!(!svg.contains("<rect"));
        assert!(!svg.contains("<g"));
    }
}
