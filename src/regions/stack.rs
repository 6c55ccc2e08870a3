//! [`RegionStack`] (seed 004, "Region stack"): the chain of ancestor regions above a position,
//! kept resident so that zooming out is immediate and escaping to the parent lands on a real
//! cell. Generation walks the region tree depth first on the same stack: zooming in pushes a
//! child made from the top region, zooming out pops it and returns its buffer to the
//! [`RegionCache`].

use crate::regions::cache::RegionCache;
use crate::regions::region::{Point, Region};

/// One region on the stack and the children of it still to visit (indices into the generator's
/// pending list).
#[derive(Debug)]
pub struct Frame {
    /// The region.
    pub region: Region,
    /// First pending child of this region.
    pub first_child: u32,
    /// One past its last pending child.
    pub end_child: u32,
    /// The next child to visit.
    pub next_child: u32,
    /// The child on the raster's path (the largest), or `u32::MAX` when this region is not on
    /// it or has no children.
    pub path_child: u32,
}

/// The ancestors of the current region, root first.
#[derive(Debug, Default)]
pub struct RegionStack {
    frames: Vec<Frame>,
}

impl RegionStack {
    /// Regions on the stack (the current one's depth + 1 while generating).
    pub fn len(&self) -> usize {
        self.frames.len()
    }

    /// Whether the stack is empty.
    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    /// The current (deepest) frame.
    pub fn top(&self) -> Option<&Frame> {
        self.frames.last()
    }

    /// The current frame, mutably.
    pub fn top_mut(&mut self) -> Option<&mut Frame> {
        self.frames.last_mut()
    }

    /// Every frame, root first.
    pub fn frames(&self) -> &[Frame] {
        &self.frames
    }

    /// Zooms in: `frame` (a child of the current region) becomes current.
    pub fn zoom_in(&mut self, frame: Frame) {
        self.frames.push(frame);
    }

    /// Zooms out: the current region is dropped from the stack and returned (the caller gives
    /// its buffer back to the cache).
    pub fn zoom_out(&mut self) -> Option<Frame> {
        self.frames.pop()
    }

    /// Where position `p` of the region at stack level `level` lies in its parent: the parent
    /// cell whose subcells hold it. `None` for the root.
    pub fn to_parent(&self, level: usize, p: Point) -> Option<Point> {
        if level == 0 {
            return None;
        }
        let r = &self.frames.get(level)?.region;
        Some(Point {
            x: r.bbox.x0 + p.x / r.zoom,
            y: r.bbox.y0 + p.y / r.zoom,
        })
    }

    /// Escapes the current region through its exit: pops it, gives its buffer back to `cache`,
    /// and returns the parent cell the exit opens onto (the carved cell beyond the exit), or
    /// `None` at the root.
    pub fn escape(&mut self, cache: &mut RegionCache) -> Option<Point> {
        if self.frames.len() < 2 {
            return None;
        }
        let level = self.frames.len() - 1;
        let r = &self.frames[level].region;
        let (exit, z) = (r.exit, r.zoom);
        let cell = self.to_parent(level, exit)?;
        // The exit lies on the side of its parent cell that faces the passage.
        let (lx, ly) = (exit.x % z, exit.y % z);
        let parent = &self.frames[level - 1].region;
        let step = |c: Point, dx: i64, dy: i64| -> Option<Point> {
            let (x, y) = (c.x as i64 + dx, c.y as i64 + dy);
            let inside =
                x >= 0 && y >= 0 && x < parent.width() as i64 && y < parent.height() as i64;
            (inside && parent.carved(parent.index(x as u32, y as u32))).then_some(Point {
                x: x as u32,
                y: y as u32,
            })
        };
        let mut beyond = None;
        for (edge, dx, dy) in [
            (lx == 0, -1, 0),
            (lx == z - 1, 1, 0),
            (ly == 0, 0, -1),
            (ly == z - 1, 0, 1),
        ] {
            if edge && beyond.is_none() {
                beyond = step(cell, dx, dy);
            }
        }
        let frame = self.zoom_out()?;
        cache.give(frame.region);
        beyond.or(Some(cell))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::regions::region::region_from_picture;
    use crate::regions::split::{Children, SplitParams, SplitStats, SplitWork, split, zoom_piece};

    #[test]
    fn zoom_in_then_escape_lands_on_the_parents_passage() {
        let mut cache = RegionCache::new(16);
        let mut parent = region_from_picture(&["####", "####", "####", "####"]);
        for i in [4, 5, 6, 7] {
            parent.carve(i);
        }
        let mut specs = Children::default();
        let params = SplitParams {
            max_width: 8,
            max_height: 8,
            min_zoom: 2,
            max_zoom: 2,
            fill_chance: 0.0,
        };
        let mut rng = crate::core::rng::WarrenRng::new(7);
        split(
            &mut parent,
            &mut rng,
            &params,
            false,
            &mut SplitWork::default(),
            &mut specs,
            &mut SplitStats::default(),
        );
        let mut stack = RegionStack::default();
        stack.zoom_in(Frame {
            region: parent,
            first_child: 0,
            end_child: specs.specs.len() as u32,
            next_child: 0,
            path_child: u32::MAX,
        });
        for spec in &specs.specs {
            let mut child = cache.take();
            zoom_piece(
                &stack.top().unwrap().region,
                spec,
                specs.ports_of(spec),
                &mut child,
            );
            stack.zoom_in(Frame {
                region: child,
                first_child: 0,
                end_child: 0,
                next_child: 0,
                path_child: u32::MAX,
            });
            assert_eq!(stack.len(), 2);
            let exit = stack.top().unwrap().region.exit;
            let up = stack.to_parent(1, exit).unwrap();
            assert!(up.y == 0 || up.y == 2, "{up:?}");
            let landed = stack.escape(&mut cache).expect("a parent");
            // The escape lands on the carved row between the two sub-regions.
            assert_eq!(landed.y, 1, "{landed:?}");
            assert_eq!(stack.len(), 1);
        }
        assert_eq!(cache.pooled(), 1);
        assert!(stack.escape(&mut cache).is_none());
    }
}
