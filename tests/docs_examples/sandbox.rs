//! Where and how a block runs: a folder linking the checkout, this build's `warren` first on the
//! PATH, the `cargo` shim, and a time limit that kills everything the block started.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::Lang;
use crate::common::{TempDir, warren_bin};

/// Set to a value of its own for each block, in every process it starts: those that leave its
/// process group (`timeout` makes one of its own) are found by it and killed too.
const MARK: &str = "WARREN_DOCS_BLOCK";

/// Top-level entries of the checkout the blocks do not see.
const NOT_LINKED: [&str; 2] = ["target", ".git"];

/// The `cargo` of the blocks: every bash they start sources it through `BASH_ENV` (so a block's
/// line numbers stay its own, and `scripts/*.sh` build nothing either).
const CARGO_SHIM: &str = r#"# The documentation test's `cargo` (tests/docs_examples/sandbox.rs).
cargo() {
    if [ "${1-}" = test ]; then
        echo 'docs test: not running "cargo test" (it is the command running this test)' >&2
        return 0
    fi
    local args="$*" ours=1
    if [ "${1-}" = run ]; then
        shift
        while [ $# -gt 0 ] && [ "$1" != -- ]; do
            case "$1" in
            --release | -r | -q | --quiet | --locked | --offline | --frozen | --bin=warren) shift ;;
            --bin) if [ "${2-}" = warren ]; then shift 2; else ours=0; break; fi ;;
            *) ours=0; break ;;
            esac
        done
        if [ "$ours" = 1 ]; then
            if [ $# -gt 0 ]; then shift; fi
            warren "$@"
            return
        fi
    fi
    echo "docs test: \"cargo $args\" does not run in the documentation test;" \
        "mark the block \`not-run: <reason>\` after its language" >&2
    return 1
}
"#;

/// The folder one Markdown file's blocks run in: links to the checkout's top-level entries, a
/// `home/`, and (beside it, out of the blocks' sight) the shell blocks' `cargo` shim.
pub struct Sandbox {
    dir: TempDir,
    /// The blocks' working directory.
    work: PathBuf,
    /// `$PATH` with this build's `warren` first.
    path: OsString,
}

impl Sandbox {
    pub fn new() -> Self {
        let dir = TempDir::new("docs");
        let work = dir.join("work");
        std::fs::create_dir_all(work.join("home")).expect("create the sandbox");
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        for entry in std::fs::read_dir(root).expect("list the checkout") {
            let name = entry.expect("list the checkout").file_name();
            if !NOT_LINKED.iter().any(|n| name == *n) {
                std::os::unix::fs::symlink(root.join(&name), work.join(&name))
                    .unwrap_or_else(|e| panic!("link {}: {e}", name.to_string_lossy()));
            }
        }
        std::fs::write(dir.join("cargo-shim.bash"), CARGO_SHIM).expect("write the cargo shim");
        let bin_dir = Path::new(warren_bin())
            .parent()
            .expect("warren has a folder");
        let inherited = std::env::var_os("PATH").unwrap_or_default();
        let path = std::env::join_paths(
            std::iter::once(bin_dir.to_path_buf()).chain(std::env::split_paths(&inherited)),
        )
        .expect("PATH joins");
        Self { dir, work, path }
    }

    /// Runs one block; `label` is bash's `$0` (the name in its messages).
    pub fn run(&self, lang: Lang, script: &str, label: &str, timeout: Duration) -> Outcome {
        let shell = lang == Lang::Shell;
        let mut command = Command::new(if shell { "bash" } else { "python3" });
        if shell {
            command.args(["-euo", "pipefail", "-c", script, label]);
        } else {
            command.arg("-");
        }
        let mark = format!("{}:{label}", self.dir.path().display());
        command
            .current_dir(&self.work)
            .env("BASH_ENV", self.dir.join("cargo-shim.bash"))
            .env("HOME", self.work.join("home"))
            .env("PATH", &self.path)
            .env("WARREN_BIN", warren_bin())
            .env(MARK, &mark);
        run_with_timeout(command, (!shell).then_some(script), timeout, &mark)
    }
}

/// How a block ended.
pub struct Outcome {
    /// `None` when it ran out of time and was killed.
    pub status: Option<ExitStatus>,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `command` in a process group of its own with `stdin` (or nothing) as its input; past
/// `timeout` the group, and every process marked `mark`, is killed.
fn run_with_timeout(
    mut command: Command,
    stdin: Option<&str>,
    timeout: Duration,
    mark: &str,
) -> Outcome {
    command
        .stdin(stdin.map_or_else(Stdio::null, |_| Stdio::piped()))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let mut child = command
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {command:?}: {e}"));
    let stdout = drain(child.stdout.take().expect("stdout is piped"));
    let stderr = drain(child.stderr.take().expect("stderr is piped"));
    if let Some(text) = stdin {
        let mut pipe = child.stdin.take().expect("stdin is piped");
        // A block that exits before reading all of itself fails on its own account.
        let _ = pipe.write_all(text.as_bytes());
    }
    let started = Instant::now();
    let mut pause = Duration::from_millis(1);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for the block") {
            break Some(status);
        }
        if started.elapsed() >= timeout {
            kill_block(child.id(), mark);
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(50));
    };
    // What the block left running in the background would hold its output open.
    kill_block(child.id(), mark);
    Outcome {
        status,
        stdout: stdout.join().expect("stdout reader"),
        stderr: stderr.join().expect("stderr reader"),
    }
}

/// Reads `pipe` to its end on a thread of its own.
fn drain(mut pipe: impl Read + Send + 'static) -> JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// Kills the process group `pgid` and every process whose environment holds `MARK=mark` (read
/// from /proc, on Linux), quietly: there may be none left.
fn kill_block(pgid: u32, mark: &str) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{pgid}")])
        .output();
    let wanted = format!("{MARK}={mark}");
    let marked = |pid: &String| {
        let environ = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
        environ.split(|&b| b == 0).any(|v| v == wanted.as_bytes())
    };
    for _ in 0..10 {
        let procs = std::fs::read_dir("/proc").into_iter().flatten().flatten();
        let pids = procs.map(|e| e.file_name().to_string_lossy().into_owned());
        let pids: Vec<String> = pids.filter(marked).collect();
        if pids.is_empty() {
            return;
        }
        let _ = Command::new("kill").arg("-KILL").args(&pids).output();
    }
}
