//! Shared foundations: the SoA graph in an arena, the tile grid and its cell codes, geometry,
//! the Delaunay triangulation, seeds and the PRNG, shards of a run, the content hash, the
//! [`Generator`](generator::Generator) trait and the errors every generator shares, and the
//! counting allocator of the allocation audits.
//!
//! [`canon`] gives labelled graphs an exact canonical form, so that a level renumbered is
//! recognised as the same level.

pub mod alloc;
pub mod canon;
pub mod csr;
pub mod delaunay;
pub mod error;
pub mod files;
pub mod folders;
pub mod generator;
pub mod geom;
pub mod graph;
pub mod grid;
pub mod hash;
pub mod identity;
pub mod kuratowski;
pub mod metrics;
pub mod output;
pub mod planar;
pub mod portable;
pub mod prefetch;
pub mod rng;
pub mod route;
pub mod sets;
pub mod shard;
pub mod sliver;
pub mod symmetry;
pub mod text;
pub mod workers;
