//! [`RegionCache`] (seed 004, "RegionCache"): a per-worker pool of [`Region`] buffers. Regions
//! taken for the region stack come from it and go back to it, so once a worker has made as many
//! buffers as its deepest stack needs, no region is ever allocated again. "Just a simple wrapper
//! around a vector", as the seed says.
//!
//! Hits and misses are counted two ways: over the worker's life (depends on which levels the
//! worker happened to make, so never written to archives), and per level as a cold worker would
//! see them (misses = the peak number of buffers in use during the level, hits = the rest of the
//! takes), which depends only on the level and is stored as its `cache_*` metrics.

use crate::regions::region::Region;

/// A pool of region buffers, each able to hold `capacity` cells.
#[derive(Debug, Default)]
pub struct RegionCache {
    free: Vec<Region>,
    capacity: usize,
    hits: u64,
    misses: u64,
    in_use: u32,
    level_takes: u32,
    level_peak: u32,
}

impl RegionCache {
    /// An empty pool whose buffers hold `capacity` cells (Wmax x Hmax).
    pub fn new(capacity: usize) -> Self {
        Self {
            capacity,
            ..Self::default()
        }
    }

    /// A region buffer: a pooled one (a hit) or a new one (a miss).
    ///
    /// # Runtime
    /// O(1); allocates only on a miss.
    pub fn take(&mut self) -> Region {
        self.in_use += 1;
        self.level_takes += 1;
        self.level_peak = self.level_peak.max(self.in_use);
        match self.free.pop() {
            Some(r) => {
                self.hits += 1;
                r
            }
            None => {
                self.misses += 1;
                Region::with_capacity(self.capacity)
            }
        }
    }

    /// Returns a buffer to the pool.
    pub fn give(&mut self, region: Region) {
        debug_assert!(self.in_use > 0, "more regions given back than taken");
        self.in_use -= 1;
        // PERF: the pool's own vector grows to the peak once and keeps its capacity.
        self.free.push(region);
    }

    /// Starts counting a new level's takes and peak.
    pub fn begin_level(&mut self) {
        self.level_takes = 0;
        self.level_peak = self.in_use;
    }

    /// This level as a cold worker would see it: `(hits, misses)`.
    pub fn level_counts(&self) -> (u32, u32) {
        (self.level_takes - self.level_peak, self.level_peak)
    }

    /// Over the worker's life: `(hits, misses)`.
    pub fn lifetime_counts(&self) -> (u64, u64) {
        (self.hits, self.misses)
    }

    /// Buffers waiting in the pool.
    pub fn pooled(&self) -> usize {
        self.free.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_are_reused_after_the_first_level() {
        let mut cache = RegionCache::new(16);
        for level in 0..3 {
            cache.begin_level();
            let a = cache.take();
            let b = cache.take();
            cache.give(b);
            let c = cache.take();
            cache.give(c);
            cache.give(a);
            // Three takes, two at once: a cold worker misses twice.
            assert_eq!(cache.level_counts(), (1, 2), "level {level}");
        }
        assert_eq!(cache.lifetime_counts(), (7, 2));
        assert_eq!(cache.pooled(), 2);
    }
}
