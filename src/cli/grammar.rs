//! `warren grammar`: check a rule file, list the built-in rule sets, print one, or convert a
//! demirogue ruleset to warren's rule-file format (seed 000).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::{Args as ClapArgs, Subcommand};

use crate::grammar::library::{self, BUILTINS};
use crate::grammar::rule::{GrammarError, Severity};
use crate::grammar::{format, lua};

/// Arguments of `warren grammar`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Validate rules (a file, or a built-in name); print every error and warning with its
    /// line and column. Exit status 1 when there are errors.
    Check {
        /// A `.grammar` file, a demirogue `.lua` ruleset, or a built-in name.
        rules: String,
    },
    /// List the built-in rule sets.
    List,
    /// Print a built-in rule set's file.
    Show {
        /// A built-in name (`warren grammar list`).
        name: String,
    },
    /// Convert a demirogue `.lua` ruleset to warren's rule-file format.
    Import {
        /// The `.lua` file.
        file: PathBuf,
        /// Write here (atomically) instead of standard output.
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

/// Runs `grammar`.
pub fn run(args: Args) -> Result<ExitCode> {
    match args.command {
        Command::Check { rules } => check(&rules),
        Command::List => {
            let width = BUILTINS.iter().map(|b| b.name.len()).max().unwrap_or(0);
            for b in BUILTINS {
                println!("{:width$}  {}", b.name, b.about);
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Show { name } => {
            let Some(b) = BUILTINS.iter().find(|b| b.name == name) else {
                bail!("no built-in rule set `{name}` (see `warren grammar list`)");
            };
            print!("{}", b.text());
            Ok(ExitCode::SUCCESS)
        }
        Command::Import { file, out } => {
            let import = lua::load_lua(&file).map_err(one_error)?;
            let name = file
                .file_stem()
                .map(|s| format!("demirogue {}", s.to_string_lossy()));
            let text = format::write(&import.grammar, name.as_deref());
            match out {
                Some(path) => super::write_atomic(&path, text.as_bytes())?,
                None => print!("{text}"),
            }
            if import.skipped_empty > 0 {
                eprintln!(
                    "warren: skipped {} empty placeholder rule(s)",
                    import.skipped_empty
                );
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// A read error as one line; other errors keep their list.
fn one_error(e: GrammarError) -> anyhow::Error {
    anyhow::anyhow!("{e}")
}

fn check(rules: &str) -> Result<ExitCode> {
    let grammar = match library::load(rules) {
        Ok(g) => g,
        Err(e @ (GrammarError::Read { .. } | GrammarError::Unknown { .. })) => {
            return Err(one_error(e));
        }
        Err(e) => {
            for d in e.diagnostics() {
                eprintln!("{d}");
            }
            eprintln!("{rules}: {} syntax error(s)", e.diagnostics().len().max(1));
            return Ok(ExitCode::from(1));
        }
    };
    let findings = grammar.check();
    for d in &findings {
        eprintln!("{d}");
    }
    let errors = findings
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = findings.len() - errors;
    println!(
        "{rules}: {} rules, {} tags, {errors} error(s), {warnings} warning(s)",
        grammar.rules.len(),
        grammar.tags.len()
    );
    Ok(if errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
