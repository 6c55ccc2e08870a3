//! `warren completions SHELL` and `warren man`: both generated from the same clap definitions
//! as the parser itself (clap_complete, clap_mangen), so they cannot drift from the options.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap_complete::Shell;

/// `warren completions`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Load it in the running bash: source <(warren completions bash)\n\
    Install it for bash: warren completions bash > ~/.local/share/bash-completion/completions/warren\n\
    zsh: warren completions zsh > ~/.zfunc/_warren (with ~/.zfunc on fpath)\n\
    fish: warren completions fish > ~/.config/fish/completions/warren.fish"
)]
pub struct CompletionArgs {
    /// The shell.
    #[arg(value_enum)]
    shell: Shell,
}

/// `warren man`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Read it: warren man | man -l -\n\
    Install: warren man --out ~/.local/share/man/man1 (then man warren, man warren-generate)")]
pub struct ManArgs {
    /// Write warren.1 and warren-COMMAND.1 for every command into this folder instead of
    /// printing warren.1.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// Prints the completion script of `cmd` (the whole command line, `Cli::command()`).
pub fn completions(args: CompletionArgs, mut cmd: clap::Command) -> anyhow::Result<ExitCode> {
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "warren", &mut out);
    std::io::stdout().write_all(&out)?;
    Ok(ExitCode::SUCCESS)
}

/// Prints the top-level man page of `cmd` (`Cli::command()`), or writes every command's into
/// `--out`.
pub fn man(args: ManArgs, cmd: clap::Command) -> anyhow::Result<ExitCode> {
    let Some(dir) = args.out else {
        let mut out = Vec::new();
        clap_mangen::Man::new(cmd).render(&mut out)?;
        std::io::stdout().write_all(&out)?;
        return Ok(ExitCode::SUCCESS);
    };
    super::check_folder(&dir)?;
    let mut pages = vec![("warren.1".to_owned(), cmd.clone())];
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        // clap names are `&'static str` (its `string` feature is off): a dozen short names,
        // leaked once by a process that ends right after.
        let name: &'static str = Box::leak(format!("warren-{}", sub.get_name()).into_boxed_str());
        pages.push((format!("{name}.1"), sub.clone().name(name)));
    }
    for (file, page) in &pages {
        let mut out = Vec::new();
        clap_mangen::Man::new(page.clone()).render(&mut out)?;
        crate::core::output::write_atomic(&dir.join(file), &out)?;
    }
    eprintln!(
        "warren: wrote {} man pages into {}",
        pages.len(),
        dir.display()
    );
    Ok(ExitCode::SUCCESS)
}
