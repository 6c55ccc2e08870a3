//! Integration tests: one binary (ripgrep's layout) that drives the `warren` executable and
//! reads its archives back with the library.
//!
//! NOTE: the topic modules live in `tests/<topic>/mod.rs`, not `tests/<topic>.rs`: Cargo builds
//! every `tests/*.rs` as a test binary of its own, which would compile each topic twice and
//! without `common`.

mod archive_integrity;
mod bad_input;
mod bench_cli;
mod card_cli;
mod coloring_cli;
mod common;
mod completions_cli;
mod compression_cli;
mod conformance;
mod determinism;
mod dmg_cli;
mod docs_examples;
mod export_cli;
mod fuzz;
mod grammar_cli;
mod layering;
mod layout_cli;
mod levelxml_cli;
mod map_cli;
mod merge_cli;
mod pack_cli;
mod parquet_cli;
mod python_package;
mod python_reader;
mod quota_cli;
mod regions_cli;
mod registry;
mod reliability;
mod render_cli;
mod report_cli;
mod resume_cli;
mod select_cli;
mod split_cli;
mod task_cli;
mod task_oracle;
