//! `warren kinds [--names | --json]`: the generator kinds this build knows, from the kind
//! registry (`profile::KIND_FACTS`), so scripts and other languages list them without a copy
//! of their own.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;

use crate::profile::KIND_FACTS;

/// Arguments of `kinds`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print the names only, one a line.
    #[arg(long)]
    names: bool,
    /// Print one JSON object a line: name, doc, card, grid, allocations.
    #[arg(long, conflicts_with = "names")]
    json: bool,
}

/// Runs `kinds`.
pub fn run(args: Args) -> Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    for kind in KIND_FACTS {
        if args.names {
            writeln!(out, "{}", kind.name)?;
        } else if args.json {
            let line = serde_json::json!({
                "name": kind.name,
                "doc": kind.doc,
                "card": kind.card,
                "grid": kind.grid,
                "allocations": kind.allocations,
            });
            writeln!(out, "{line}")?;
        } else {
            let grid = if kind.grid { "grid" } else { "graph" };
            writeln!(out, "{:<10} {grid:<6} {}", kind.name, kind.doc)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
