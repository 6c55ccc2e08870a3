//! Graph-grammar levels (seed 000): a tagged graph grown by context-sensitive rewriting rules,
//! drawn by the force solver after every rewrite, and given rooms that never overlap.

pub mod host;
pub mod matcher;
pub mod rule;
pub mod build;
