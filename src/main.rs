//! The `warren` command line: parses arguments and hands them to `warren::cli`.

use std::process::ExitCode;

fn main() -> ExitCode {
    warren::cli::main()
}
