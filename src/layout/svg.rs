//! SVG drawings of a layout (`warren layout --svg OUT.svg`): a quick look at what the solver
//! made of a graph, without a plotting tool.
//!
//! Edges are one `<path>` of `M x y L x y` segments in thin, translucent grey (dense regions
//! shade darker instead of turning into a black blot); vertices are small dots (`<circle>`s) up
//! to [`MAX_DOTS`] vertices, and above that only edges are drawn, as the dots would hide them
//! and swell the file. The view box fits the layout's bounding box plus a [`MARGIN`], scaled so
//! its long side is [`SIDE`] px; stroke width and dot radius follow the typical edge length
//! (`SIDE / sqrt(n)`). Coordinates are printed to a tenth of a pixel, about 25 bytes per edge,
//! and the same positions always give the same bytes. Vertices at non-finite positions, and
//! their edges, are left out.

use std::fmt::Write as _;

use super::LayoutGraph;

/// Length of the drawing's long side, in px (before the margin).
pub const SIDE: f32 = 1000.0;

/// Blank border around the layout, in px.
pub const MARGIN: f32 = 20.0;

/// The most vertices drawn as dots; larger graphs are drawn with edges only.
pub const MAX_DOTS: usize = 50_000;

/// Appends `v` rounded to a tenth, without a trailing `.0`.
fn push_tenths(out: &mut String, v: f32) {
    let mut tenths = (f64::from(v) * 10.0).round() as i64;
    if tenths < 0 {
        out.push('-');
        tenths = -tenths;
    }
    // Writing into a `String` cannot fail.
    let _ = match tenths % 10 {
        0 => write!(out, "{}", tenths / 10),
        d => write!(out, "{}.{d}", tenths / 10),
    };
}

/// `v` rounded to a tenth (see [`push_tenths`]).
fn tenths(v: f32) -> String {
    let mut s = String::new();
    push_tenths(&mut s, v);
    s
}

/// The bounding box `(min_x, min_y, max_x, max_y)` of the finite positions (all 0 for none).
fn bounds(x: &[f32], y: &[f32]) -> (f32, f32, f32, f32) {
    let finite = x
        .iter()
        .zip(y)
        .filter(|(a, b)| a.is_finite() && b.is_finite());
    let (mut lo_x, mut lo_y, mut hi_x, mut hi_y) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for (&a, &b) in finite {
        (lo_x, lo_y, hi_x, hi_y) = (lo_x.min(a), lo_y.min(b), hi_x.max(a), hi_y.max(b));
    }
    if lo_x > hi_x {
        (0.0, 0.0, 0.0, 0.0)
    } else {
        (lo_x, lo_y, hi_x, hi_y)
    }
}

/// The layout `x`, `y` of `graph` as an SVG document.
///
/// # Runtime
/// O(n + m); one `String` of about 25 bytes per edge and 40 per dot.
pub fn layout_svg(graph: &LayoutGraph<'_>, x: &[f32], y: &[f32]) -> String {
    let n = x.len().min(y.len());
    let (x, y) = (&x[..n], &y[..n]);
    let (lo_x, lo_y, hi_x, hi_y) = bounds(x, y);
    let span = (hi_x - lo_x).max(hi_y - lo_y);
    let scale = if span > 0.0 { SIDE / span } else { 1.0 };
    let width = (hi_x - lo_x) * scale + 2.0 * MARGIN;
    let height = (hi_y - lo_y) * scale + 2.0 * MARGIN;
    let edge_px = SIDE / (n.max(1) as f32).sqrt();
    let (stroke, radius) = (
        (edge_px / 20.0).clamp(0.3, 2.0),
        (edge_px / 8.0).clamp(0.5, 5.0),
    );
    let drawn = |v: usize| v < n && x[v].is_finite() && y[v].is_finite();
    let point = |out: &mut String, v: usize, between: &str| {
        push_tenths(out, (x[v] - lo_x) * scale + MARGIN);
        out.push_str(between);
        push_tenths(out, (y[v] - lo_y) * scale + MARGIN);
    };

    let dots = if n <= MAX_DOTS { n } else { 0 };
    let mut svg = String::with_capacity(400 + graph.src.len() * 26 + dots * 40);
    let (w, h) = (tenths(width), tenths(height));
    let _ = writeln!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\">\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>"
    );
    svg.push_str("<path d=\"");
    for (&a, &b) in graph.src.iter().zip(graph.dst) {
        let (a, b) = (a as usize, b as usize);
        if drawn(a) && drawn(b) {
            svg.push('M');
            point(&mut svg, a, " ");
            svg.push('L');
            point(&mut svg, b, " ");
        }
    }
    let _ = writeln!(
        svg,
        "\" fill=\"none\" stroke=\"#555\" stroke-opacity=\"0.6\" stroke-width=\"{}\" \
         stroke-linecap=\"round\"/>",
        tenths(stroke)
    );
    if dots > 0 {
        let r = tenths(radius);
        svg.push_str("<g fill=\"#c0392b\">\n");
        for v in (0..dots).filter(|&v| drawn(v)) {
            svg.push_str("<circle cx=\"");
            point(&mut svg, v, "\" cy=\"");
            let _ = writeln!(svg, "\" r=\"{r}\"/>");
        }
        svg.push_str("</g>\n");
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph<'a>(src: &'a [u32], dst: &'a [u32]) -> LayoutGraph<'a> {
        LayoutGraph {
            src,
            dst,
            length_factor: None,
        }
    }

    #[test]
    fn a_small_layout_is_fitted_to_the_view_box() {
        // A 2 x 1 rectangle: the long side becomes 1000 px, plus a 20 px margin all round.
        let (x, y) = ([0.0, 2.0, 2.0, 0.0], [0.0, 0.0, 1.0, 1.0]);
        let svg = layout_svg(&graph(&[0, 1, 2], &[1, 2, 3]), &x, &y);
        assert!(
            svg.starts_with(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1040\" \
             height=\"540\" viewBox=\"0 0 1040 540\">"
            ),
            "{svg}"
        );
        assert!(
            svg.contains("<path d=\"M20 20L1020 20M1020 20L1020 520M1020 520L20 520\""),
            "{svg}"
        );
        assert_eq!(svg.matches("<circle").count(), 4);
        assert!(
            svg.contains("<circle cx=\"1020\" cy=\"520\" r=\"5\"/>"),
            "{svg}"
        );
        assert!(svg.ends_with("</svg>\n"));
    }

    #[test]
    fn coordinates_are_printed_to_a_tenth() {
        let mut s = String::new();
        for v in [0.0, 12.34, 12.36, 7.0, -0.26, 999.95] {
            push_tenths(&mut s, v);
            s.push(' ');
        }
        assert_eq!(s, "0 12.3 12.4 7 -0.3 1000 ");
    }

    #[test]
    fn large_graphs_are_drawn_without_dots() {
        let n = MAX_DOTS + 1;
        let (x, y): (Vec<f32>, Vec<f32>) = (0..n).map(|i| (i as f32, (i % 7) as f32)).unzip();
        let svg = layout_svg(&graph(&[0], &[1]), &x, &y);
        assert!(!svg.contains("<circle"));
        assert_eq!(svg.matches("<path").count(), 1);
    }

    #[test]
    fn degenerate_layouts_give_valid_numbers() {
        let nan = f32::NAN;
        for (x, y) in [
            (vec![3.0, 3.0], vec![1.0, 1.0]),
            (vec![nan, 1.0], vec![0.0, f32::INFINITY]),
            (vec![], vec![]),
        ] {
            let svg = layout_svg(&graph(&[0], &[1]), &x, &y);
            assert!(!svg.contains("NaN") && !svg.contains("inf"), "{svg}");
            assert!(svg.contains("viewBox=\"0 0 40 40\""), "{svg}");
        }
    }

    #[test]
    fn the_same_layout_gives_the_same_bytes() {
        let (x, y) = ([0.1, 5.7, 3.3], [2.2, -1.0, 0.5]);
        let g = graph(&[0, 1], &[1, 2]);
        assert_eq!(layout_svg(&g, &x, &y), layout_svg(&g, &x, &y));
    }
}
