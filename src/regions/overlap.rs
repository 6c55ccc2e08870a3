//! Sibling bounding-box overlap (seed 004, "Sub-region bounding box overlap", the seed's open
//! question): each sub-region is processed as its whole zoomed box, so where sibling boxes
//! overlap, the same parent cells are expanded and processed more than once. For one family,
//! `processed` counts the subcells of every sibling's zoomed box and `redundant` those whose
//! parent cell an earlier sibling's box already covered; the ratio `redundant / processed` is the
//! share of processing spent on cells processed more than once.
//!
//! [`sibling_overlap`] counts with a coverage array (O(box areas)); [`sibling_overlap_brute`]
//! tests every cell against every earlier box, as the oracle.

use crate::regions::region::RegionBox;

/// Subcells processed by a family of siblings, and how many of them more than once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Overlap {
    /// Subcells of all sibling boxes, zoomed.
    pub processed: u64,
    /// Of those, subcells whose parent cell an earlier sibling's box covers.
    pub redundant: u64,
}

impl Overlap {
    /// `redundant / processed` (0 for nothing processed).
    pub fn ratio(&self) -> f64 {
        if self.processed == 0 {
            0.0
        } else {
            self.redundant as f64 / self.processed as f64
        }
    }

    /// Adds another family's counts.
    pub fn add(&mut self, other: Overlap) {
        self.processed += other.processed;
        self.redundant += other.redundant;
    }
}

/// The overlap of sibling boxes `(box, zoom)` inside a `width x height` parent; `cover` is a
/// reused buffer.
///
/// # Runtime
/// O(width x height + sum of box areas); no allocation once `cover` has grown.
pub fn sibling_overlap(
    width: u32,
    height: u32,
    siblings: impl Iterator<Item = (RegionBox, u32)>,
    cover: &mut Vec<u8>,
) -> Overlap {
    cover.clear();
    cover.resize((width * height) as usize, 0);
    let mut o = Overlap::default();
    for (b, z) in siblings {
        let zz = u64::from(z * z);
        o.processed += u64::from(b.area()) * zz;
        for y in b.y0..b.y1 {
            for x in b.x0..b.x1 {
                let c = &mut cover[(y * width + x) as usize];
                if *c > 0 {
                    o.redundant += zz;
                }
                *c = c.saturating_add(1);
            }
        }
    }
    o
}

/// The same as [`sibling_overlap`], by testing each cell against every earlier box.
pub fn sibling_overlap_brute(siblings: &[(RegionBox, u32)]) -> Overlap {
    let mut o = Overlap::default();
    for (i, (b, z)) in siblings.iter().enumerate() {
        let zz = u64::from(z * z);
        o.processed += u64::from(b.area()) * zz;
        for y in b.y0..b.y1 {
            for x in b.x0..b.x1 {
                let earlier = siblings[..i]
                    .iter()
                    .any(|(e, _)| x >= e.x0 && x < e.x1 && y >= e.y0 && y < e.y1);
                if earlier {
                    o.redundant += zz;
                }
            }
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::{WarrenRng, mix};
    use crate::regions::region::region_from_picture;
    use crate::regions::split::{ChildSpec, Children, SplitParams, SplitStats, SplitWork, split};

    /// The seed's suspected worst case (13 x 5, carved as drawn), split with one zoom for all.
    pub(crate) fn seed_worst_case() -> (Vec<ChildSpec>, Overlap) {
        let mut r = region_from_picture(&[
            "#·#·#####·###",
            "··#·····#···#",
            "#·#####·#·#·#",
            "#·········#··",
            "#####·#####·#",
        ]);
        // The picture's dots are carved passages: make them inside cells, carved.
        let mut whole = region_from_picture(&["#############"; 5]);
        for i in 0..r.cells().len() {
            if r.cells()[i] == crate::regions::cell::Cell::Empty {
                whole.carve(i);
            }
        }
        r = whole;
        let params = SplitParams {
            max_width: 26,
            max_height: 10,
            min_zoom: 2,
            max_zoom: 2,
            fill_chance: 0.0,
        };
        let mut out = Children::default();
        let mut rng = WarrenRng::new(mix(4, 0));
        split(
            &mut r,
            &mut rng,
            &params,
            false,
            &mut SplitWork::default(),
            &mut out,
            &mut SplitStats::default(),
        );
        let o = sibling_overlap(
            13,
            5,
            out.specs.iter().map(|c| (c.bbox, c.zoom)),
            &mut Vec::new(),
        );
        (out.specs, o)
    }

    #[test]
    fn the_seeds_worst_case_overlaps_by_its_shared_cells() {
        let (children, o) = seed_worst_case();
        // The seed's five interlocking sub-regions, three rows tall, beside two single cells.
        let tall = children.iter().filter(|c| c.bbox.height() == 3).count();
        assert_eq!((tall, children.len()), (5, 7), "{children:?}");
        let pairs: Vec<(RegionBox, u32)> = children.iter().map(|c| (c.bbox, c.zoom)).collect();
        assert_eq!(o, sibling_overlap_brute(&pairs));
        assert!(o.redundant > 0);
        eprintln!(
            "seed worst case: {} sub-regions, overlap ratio {:.3} ({} of {} subcells)",
            children.len(),
            o.ratio(),
            o.redundant,
            o.processed
        );
    }

    #[test]
    fn coverage_counting_matches_the_brute_force_oracle() {
        let mut rng = WarrenRng::new(mix(4, 1));
        let mut cover = Vec::new();
        for _ in 0..300 {
            let n = rng.below(7) as usize;
            let boxes: Vec<(RegionBox, u32)> = (0..n)
                .map(|_| {
                    let (x0, y0) = (rng.below(10), rng.below(8));
                    let b = RegionBox {
                        x0,
                        y0,
                        x1: x0 + 1 + rng.below(12 - x0),
                        y1: y0 + 1 + rng.below(9 - y0),
                    };
                    (b, 2 + rng.below(3))
                })
                .collect();
            let fast = sibling_overlap(12, 9, boxes.iter().copied(), &mut cover);
            assert_eq!(fast, sibling_overlap_brute(&boxes), "{boxes:?}");
        }
    }
}
