//! The command line (DESIGN.md, "Command line"): one file per subcommand. Errors print as one
//! line, `error: ...`, and exit with status 2; `verify` exits 1 when levels break invariants.

mod bench;
mod card;
mod completions;
mod export;
mod flamegraph;
mod generate;
mod grammar;
mod inspect;
mod inspect_variety;
mod kinds;
mod layout;
mod layout_positions;
mod layout_values;
mod levelxml;
mod levelxml_export;
mod merge;
mod pack;
mod pack_axis;
mod pack_manifest;
mod render;
mod render_marks;
mod report;
mod split;
mod tasks;
mod verify;

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

/// Procedural game levels by the million, into Arrow archives.
#[derive(Parser, Debug)]
#[command(name = "warren", version = crate::VERSION_LINE, about, long_about = None, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Generate levels into an archive.
    Generate(generate::Args),
    /// Show an archive's schema, metadata, level count and metric summaries.
    Inspect(inspect::Args),
    /// Re-check every level's invariants and the file's integrity.
    Verify(verify::Args),
    /// Join the shard archives of one run into one archive.
    Merge(merge::Args),
    /// Write train, id_test and ood_test Parquet splits that differ along one axis (size,
    /// algorithm, loops, a profile key or a metric range), with a manifest proving them disjoint.
    Pack(pack::Args),
    /// Split an archive into train/val/test archives by content (no layout in two splits).
    Split(split::Args),
    /// Write an archive's levels for numpy (`--npy`) or JaxUED (`--jaxued`).
    Export(export::Args),
    /// Draw levels as SVG or PNG.
    Render(render::Args),
    /// Write one self-contained HTML page about an archive: metadata, failures, a histogram of
    /// every metric, a scatter of two, a sample sheet.
    Report(report::Args),
    /// Write a Hugging Face dataset card (README.md, sample.png, profile.toml) for a Parquet
    /// dataset folder or an archive.
    Card(card::Args),
    /// Lay out any edge list with the force solver; print time and quality, write positions.
    Layout(layout::Args),
    /// Check, list, show or import graph-grammar rule sets.
    Grammar(grammar::Args),
    /// Time every generator here: levels/s per core, µs per level, scaling, MB/s, memory.
    Bench(bench::Args),
    /// Evaluate, check or export GraphColoring level files.
    Levelxml(levelxml::Args),
    /// List the generator kinds this build knows (names, grids, what their levels are).
    Kinds(kinds::Args),
    /// Make reasoning-task items (question, exact answer, ground truth for a scorer) as verl's
    /// Parquet rows, JSON Lines or an archive.
    Tasks(tasks::Args),
    /// Print the shell completion script for bash, zsh, fish, elvish or PowerShell.
    Completions(completions::CompletionArgs),
    /// Print the man page (roff), or write one per command into a folder.
    Man(completions::ManArgs),
}

/// Runs the command line; returns the process exit code.
pub fn main() -> ExitCode {
    run(std::env::args_os())
}

/// Runs the command line on `args` (the program's name first), as `main` does on the process's
/// own; the Python package's `warren` command comes in here. A usage error, `--help` and
/// `--version` print as clap prints them and return their status instead of exiting the
/// process (which, in Python, is the interpreter).
pub fn run<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    let result = match cli.command {
        Command::Generate(args) => generate::run(args),
        Command::Inspect(args) => inspect::run(args),
        Command::Report(args) => report::run(args),
        Command::Card(args) => card::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Pack(args) => pack::run(args),
        Command::Split(args) => split::run(args),
        Command::Export(args) => export::run(args),
        Command::Render(args) => render::run(args),
        Command::Layout(args) => layout::run(args),
        Command::Grammar(args) => grammar::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Levelxml(args) => levelxml::run(args),
        Command::Kinds(args) => kinds::run(args),
        Command::Tasks(args) => tasks::run(args),
        Command::Completions(args) => completions::completions(args, Cli::command()),
        Command::Man(args) => completions::man(args, Cli::command()),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", format!("{e:#}").replace('\n', " "));
            ExitCode::from(2)
        }
    }
}

pub use crate::core::folders::{check_folder, check_output_folder};
pub use crate::core::output::write_atomic;
pub use crate::core::text::thousands;
