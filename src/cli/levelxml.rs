//! `warren levelxml`: evaluate a GraphColoring level (seed 002) as the game scores it, check
//! level files and `level-list.xml` for errors, or export a `coloring` archive as a levels
//! folder (`levelxml_export`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Result, anyhow};
use clap::{Args as ClapArgs, Subcommand};

use crate::levelxml::{
    EvalOptions, Evaluation, FolderIncludes, evaluate, read_level, read_level_list,
};

/// Arguments of `warren levelxml`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print each rule's result, the points, the objective and whether the level is complete.
    Eval {
        /// The level file.
        level: PathBuf,
        /// A walk to score: edge ids or 0-based edge indices, comma-separated.
        #[arg(long, value_delimiter = ',', num_args = 0..)]
        path: Option<Vec<String>>,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// The levels folder `<include file>` is relative to (default: the nearest folder
        /// above the level holding a `level-list.xml`, else the level's folder).
        #[arg(long)]
        root: Option<PathBuf>,
    },
    /// Read level files (and `level-list.xml` files, whose listed levels are checked too) and
    /// evaluate them; print every error with its line and column. Exit status 1 on errors.
    Check {
        /// Level files or `level-list.xml` files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Write a `coloring` archive's levels as a levels folder the game loads:
    /// OUT/<category>/level-<index>.xml and OUT/level-list.xml (an existing list keeps its
    /// other categories).
    Export {
        /// The archive (`warren generate coloring ...`).
        archive: PathBuf,
        /// The levels folder (created when missing).
        #[arg(long)]
        out: PathBuf,
        /// The first level index to export (default: the first stored).
        #[arg(long)]
        index: Option<u64>,
        /// At most this many levels (default: every level from --index on).
        #[arg(long)]
        count: Option<u64>,
        /// The category id, which is also its folder (default: warren-<puzzle kind>).
        #[arg(long)]
        category: Option<String>,
    },
}

/// Runs `levelxml`.
pub fn run(args: Args) -> Result<ExitCode> {
    match args.command {
        Command::Eval {
            level,
            path,
            json,
            root,
        } => eval(&level, path.as_deref(), json, root),
        Command::Check { files } => check(&files),
        Command::Export {
            archive,
            out,
            index,
            count,
            category,
        } => super::levelxml_export::run(super::levelxml_export::ExportArgs {
            archive: &archive,
            out: &out,
            index,
            count,
            category,
        }),
    }
}

/// The folder `<include>` paths start from.
fn levels_root(level: &Path) -> PathBuf {
    let folder = level.parent().unwrap_or(Path::new("."));
    folder
        .ancestors()
        .find(|d| d.join("level-list.xml").is_file())
        .unwrap_or(folder)
        .to_path_buf()
}

fn eval_file(
    level: &Path,
    path: Option<&[String]>,
    root: Option<PathBuf>,
) -> Result<(Option<String>, Evaluation)> {
    let parsed = read_level(level).map_err(|e| anyhow!("{e}"))?;
    let includes = FolderIncludes {
        root: root.unwrap_or_else(|| levels_root(level)),
    };
    let opts = EvalOptions {
        map: Some(&parsed.map),
        includes: Some(&includes),
        path,
    };
    let ev = evaluate(&parsed.doc, &opts).map_err(|e| match e.at {
        Some(_) => anyhow!("{e}"),
        None => anyhow!("{}: {e}", level.display()),
    })?;
    Ok((parsed.doc.title, ev))
}

fn eval(
    level: &Path,
    path: Option<&[String]>,
    json: bool,
    root: Option<PathBuf>,
) -> Result<ExitCode> {
    let (title, ev) = eval_file(level, path, root)?;
    if json {
        let out = serde_json::json!({
            "file": level.display().to_string(),
            "title": title,
            "evaluation": ev,
        });
        println!("{out}");
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{}: {}",
        level.display(),
        title.as_deref().unwrap_or("(no title)")
    );
    if ev.rules.is_empty() {
        println!("  (no rules)");
    }
    for r in &ev.rules {
        let mark = if r.ok { "ok  " } else { "FAIL" };
        println!("  {mark} {}  {}", r.rule, r.detail);
    }
    let yes = |b: bool| if b { "yes" } else { "no" };
    println!("valid: {}", yes(ev.valid));
    println!("points: {}", ev.points);
    println!("vertex-points: {}", ev.vertex_points);
    println!("edge-points: {}", ev.edge_points);
    match ev.path_score {
        Some(s) => println!("path: {s}"),
        None => println!("path: none"),
    }
    println!("total: {}", ev.total);
    println!("objective: {}", ev.objective);
    println!("complete: {}", yes(ev.complete));
    Ok(ExitCode::SUCCESS)
}

fn check(files: &[PathBuf]) -> Result<ExitCode> {
    let mut errors = 0usize;
    let mut report = |file: &Path, result: Result<String>| match result {
        Ok(summary) => println!("{}: ok, {summary}", file.display()),
        Err(e) => {
            errors += 1;
            eprintln!("{}", format!("{e:#}").replace('\n', " "));
        }
    };
    for file in files {
        if file.file_name().is_some_and(|n| n == "level-list.xml") {
            let list = match read_level_list(file) {
                Ok(list) => list,
                Err(e) => {
                    report(file, Err(anyhow!("{e}")));
                    continue;
                }
            };
            let folder = file.parent().unwrap_or(Path::new("."));
            let mut count = 0;
            for cat in &list.categories {
                for id in &cat.levels {
                    let level = folder.join(&cat.id).join(format!("{id}.xml"));
                    count += 1;
                    report(&level, check_level(&level));
                }
            }
            report(
                file,
                Ok(format!(
                    "{} categories, {count} levels",
                    list.categories.len()
                )),
            );
        } else {
            report(file, check_level(file));
        }
    }
    Ok(if errors > 0 {
        eprintln!("{errors} file(s) with errors");
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn check_level(level: &Path) -> Result<String> {
    let (_, ev) = eval_file(level, None, None)?;
    Ok(format!(
        "{} rules, total {} of objective {}",
        ev.rules.len(),
        ev.total,
        ev.objective
    ))
}
