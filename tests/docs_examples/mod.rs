//! Every shell and Python block of README.md and of the Markdown under `docs/` runs, so the
//! documentation's examples cannot rot.
//!
//! A block is a fence of three backticks at column 0; the first word of its info string is its
//! language. `sh`, `bash` and `shell` blocks run under `bash -euo pipefail`, `python` blocks
//! under `python3 -`; every other language (`text`, `toml`, `json`, ...) is shown, not run. A
//! block that cannot run here says so, and why, after its language:
//! `` ```sh not-run: needs a Slurm cluster ``. Such blocks are counted, and
//! `every_code_block_names_its_language_and_every_skip_says_why` holds every fence to a
//! language and every `not-run:` to a reason of three words or more.
//!
//! Each Markdown file runs in a fresh folder linking every top-level entry of the checkout but
//! `target` and `.git` (so `profiles/maze.toml` resolves as in a checkout); its blocks run there
//! in order (a later block reads what an earlier one wrote), with `HOME` its `home/` and this
//! build's `warren` first on the PATH. Every bash a block starts (the scripts it runs too) sees
//! a `cargo` function ([`sandbox::CARGO_SHIM`]): `cargo run --release -- ARGS` runs
//! `warren ARGS`, `cargo test` is passed over (it is the command running this test), and any
//! other subcommand fails, asking for a `not-run:` marker: the test builds nothing.
//!
//! `$WARREN_DOCS_SCALE` (default [`DEFAULT_SCALE`]) shrinks the work: in a block that runs,
//! every integer literal of four or more digits (`100000`, `10_000`) becomes
//! `max(n / scale, 10)` ([`scale_numbers`]); `WARREN_DOCS_SCALE=1` runs the blocks as written.
//! `$WARREN_DOCS_TIMEOUT` caps each block's seconds (default [`DEFAULT_TIMEOUT_SECS`]; then
//! every process the block started is killed). Python blocks need `warren`, `pyarrow` and
//! `numpy` importable by `python3` and are skipped, and said so, otherwise, as is a Python block
//! that stops on a missing module; with `$WARREN_DOCS_REQUIRE_PYTHON` set both are failures.
//!
//! A failure names the Markdown file and the line of the block's fence, then lists the block as
//! run (scaled), numbered from 1 as the `line N` of bash's and Python's own messages, and the
//! end of its output. One line sums up the run, on success too:
//! `docs: 14 files, 37 blocks run (29 shell, 8 python), 6 not-run, 0 skipped`.

mod links;
mod sandbox;

use std::fmt;
use std::path::Path;
use std::process::Command;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::common::TempDir;
use sandbox::{Outcome, Sandbox};

/// `$WARREN_DOCS_SCALE` when unset: a block's `--count 100000` runs as `--count 100`.
const DEFAULT_SCALE: u64 = 1000;

/// A scaled literal never drops below this.
const SMALLEST_SCALED: u64 = 10;

/// `$WARREN_DOCS_TIMEOUT` when unset, in seconds per block.
const DEFAULT_TIMEOUT_SECS: u64 = 600;

/// Markdown files run at the same time.
const WORKERS: usize = 2;

/// Lines of a failed block's output shown in the report.
const STDOUT_TAIL: usize = 30;
const STDERR_TAIL: usize = 40;

/// One fenced block of a Markdown file.
#[derive(Debug)]
struct Block {
    /// 1-based line of the opening fence.
    line: usize,
    /// The first word of the info string; empty when there is none.
    lang: String,
    /// The rest of the info string, trimmed.
    rest: String,
    /// The lines between the fences, each ending in a newline.
    code: String,
}

impl Block {
    /// The reason given after `not-run:`, when the block is marked so.
    fn not_run(&self) -> Option<&str> {
        self.rest.strip_prefix("not-run:").map(str::trim)
    }
}

/// The fenced blocks of `text`, or the line of an opening fence that is never closed. A fence
/// is three or more backticks at column 0; it closes at a line of as many or more backticks and
/// nothing else.
fn parse(text: &str) -> Result<Vec<Block>, usize> {
    let mut blocks = Vec::new();
    let mut open: Option<(usize, Block)> = None;
    for (i, line) in text.lines().enumerate() {
        let ticks = line.bytes().take_while(|&b| b == b'`').count();
        if let Some((fence, block)) = open.as_mut() {
            if ticks >= *fence && line[ticks..].trim().is_empty() {
                blocks.push(open.take().expect("a block is open").1);
            } else {
                block.code.push_str(line);
                block.code.push('\n');
            }
        } else if ticks >= 3 {
            let info = line[ticks..].trim();
            let (lang, rest) = info.split_once(char::is_whitespace).unwrap_or((info, ""));
            let block = Block {
                line: i + 1,
                lang: lang.to_owned(),
                rest: rest.trim().to_owned(),
                code: String::new(),
            };
            open = Some((ticks, block));
        }
    }
    match open {
        Some((_, block)) => Err(block.line),
        None => Ok(blocks),
    }
}

/// What runs a block.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Lang {
    Shell,
    Python,
}

impl Lang {
    /// The runner of a block's language, `None` for the languages that are only shown.
    fn of(lang: &str) -> Option<Self> {
        match lang {
            "sh" | "bash" | "shell" => Some(Self::Shell),
            "python" => Some(Self::Python),
            _ => None,
        }
    }
}

/// What is wrong with the fences of `text`, one `NAME:LINE: ...` line each.
fn fence_offences(text: &str, name: &str) -> Vec<String> {
    let blocks = match parse(text) {
        Ok(blocks) => blocks,
        Err(line) => return vec![format!("{name}:{line}: this fence is never closed")],
    };
    let mut offences = Vec::new();
    for block in &blocks {
        let at = format!("{name}:{}", block.line);
        if block.lang.is_empty() || block.lang.starts_with("not-run") {
            offences.push(format!(
                "{at}: the fence names no language (```text for output, ```sh for commands)"
            ));
            continue;
        }
        match block.not_run() {
            Some(reason) if reason.split_whitespace().count() < 3 => offences.push(format!(
                "{at}: `not-run:` needs a reason of three words or more, not {reason:?}"
            )),
            None if !block.rest.is_empty() => offences.push(format!(
                "{at}: only `not-run: <reason>` may follow the language, not {:?}",
                block.rest
            )),
            _ => {}
        }
    }
    offences
}

/// `code` with every integer literal of four or more digits (`100000`, `10_000`) replaced by
/// `max(n / scale, 10)`, written plainly. Digits of a decimal (`0.9999`, `1.5000`), glued to a
/// word (`seed000`, `x1000y`) or padded with zeros (`level-000042.xml`: a name, not a count)
/// stay; a scale of 1 leaves `code` as written.
fn scale_numbers(code: &str, scale: u64) -> String {
    if scale <= 1 {
        return code.to_owned();
    }
    let bytes = code.as_bytes();
    let is_digit = |k: usize| bytes.get(k).is_some_and(u8::is_ascii_digit);
    let is_word = |b: Option<&u8>| b.is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_');
    let mut out = String::with_capacity(code.len());
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        if !is_digit(i) {
            i += 1;
            continue;
        }
        // A literal: digits, with single underscores between digits.
        let start = i;
        while is_digit(i) || (bytes.get(i) == Some(&b'_') && is_digit(i - 1) && is_digit(i + 1)) {
            i += 1;
        }
        let before = start.checked_sub(1).and_then(|k| bytes.get(k));
        let after = bytes.get(i);
        let decimal = before == Some(&b'.') || (after == Some(&b'.') && is_digit(i + 1));
        let padded = bytes[start] == b'0';
        let digits: String = code[start..i].chars().filter(|&c| c != '_').collect();
        if decimal || padded || is_word(before) || is_word(after) || digits.len() < 4 {
            continue;
        }
        let Ok(n) = digits.parse::<u64>() else {
            continue;
        };
        out.push_str(&code[copied..start]);
        out.push_str(&(n / scale).max(SMALLEST_SCALED).to_string());
        copied = i;
    }
    out.push_str(&code[copied..]);
    out
}

/// How the blocks run.
struct Options {
    /// Integer literals of four or more digits are divided by this (1: as written).
    scale: u64,
    /// A block running longer is killed and fails.
    timeout: Duration,
    /// Why Python blocks cannot run here, when they cannot.
    python_missing: Option<String>,
    /// Python blocks that cannot run fail instead of being skipped.
    require_python: bool,
}

impl Options {
    /// The options of `$WARREN_DOCS_SCALE`, `$WARREN_DOCS_TIMEOUT` and
    /// `$WARREN_DOCS_REQUIRE_PYTHON`, with Python checked for `warren`, `pyarrow` and `numpy`.
    fn from_env() -> Self {
        Self {
            scale: env_number("WARREN_DOCS_SCALE", DEFAULT_SCALE),
            timeout: Duration::from_secs(env_number("WARREN_DOCS_TIMEOUT", DEFAULT_TIMEOUT_SECS)),
            python_missing: python_missing("import warren, pyarrow, numpy"),
            require_python: std::env::var_os("WARREN_DOCS_REQUIRE_PYTHON")
                .is_some_and(|v| !v.is_empty() && v != "0"),
        }
    }
}

/// A positive number from the environment, or `default`; anything else fails the test.
fn env_number(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Err(_) => default,
        Ok(v) => match v.trim().replace('_', "").parse() {
            Ok(n) if n > 0 => n,
            _ => panic!("${name} must be a positive integer, not {v:?}"),
        },
    }
}

/// Why `python3 -c probe` fails (its last line of stderr), `None` when it succeeds.
fn python_missing(probe: &str) -> Option<String> {
    match Command::new("python3").args(["-c", probe]).output() {
        Err(e) => Some(format!("python3 does not run ({e})")),
        Ok(o) if o.status.success() => None,
        Ok(o) => {
            let err = String::from_utf8_lossy(&o.stderr);
            let last = err.lines().rev().find(|l| !l.trim().is_empty());
            Some(last.unwrap_or("python3 failed").to_owned())
        }
    }
}

/// Blocks counted over one file or many.
#[derive(Debug, Default)]
struct Tally {
    files: usize,
    shell: usize,
    python: usize,
    not_run: usize,
    skipped: usize,
}

impl Tally {
    fn add(&mut self, other: &Self) {
        self.files += other.files;
        self.shell += other.shell;
        self.python += other.python;
        self.not_run += other.not_run;
        self.skipped += other.skipped;
    }
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "docs: {} files, {} blocks run ({} shell, {} python), {} not-run, {} skipped",
            self.files,
            self.shell + self.python,
            self.shell,
            self.python,
            self.not_run,
            self.skipped
        )
    }
}

/// A block that failed, or a fence never closed.
#[derive(Debug)]
struct Failure {
    /// The Markdown line of the block's opening fence.
    line: usize,
    /// `NAME:LINE: ...`, the block as run and the end of its output.
    report: String,
}

/// What running one Markdown file found.
#[derive(Debug, Default)]
struct FileRun {
    tally: Tally,
    failures: Vec<Failure>,
}

/// Runs the blocks of the Markdown file at `path`, in order, in a sandbox of their own; `name`
/// is how reports call the file.
fn run_markdown(path: &Path, name: &str, options: &Options) -> FileRun {
    let mut run = FileRun::default();
    run.tally.files = 1;
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{name}: cannot read {}: {e}", path.display()));
    let blocks = parse(&text).unwrap_or_else(|line| {
        let report = format!("{name}:{line}: this fence is never closed");
        run.failures.push(Failure { line, report });
        Vec::new()
    });
    let mut sandbox = None;
    for block in &blocks {
        let Some(lang) = Lang::of(&block.lang) else {
            continue;
        };
        let (line, label) = (block.line, format!("{name}:{}", block.line));
        let python = lang == Lang::Python;
        if block.not_run().is_some() {
            run.tally.not_run += 1;
            continue;
        }
        if python && let Some(why) = &options.python_missing {
            if options.require_python {
                let report = format!(
                    "{label}: python block not run: {why} (and $WARREN_DOCS_REQUIRE_PYTHON is set)"
                );
                run.failures.push(Failure { line, report });
            } else {
                run.tally.skipped += 1;
            }
            continue;
        }
        let script = scale_numbers(&block.code, options.scale);
        let sandbox = sandbox.get_or_insert_with(Sandbox::new);
        let outcome = sandbox.run(lang, &script, &label, options.timeout);
        let passed = outcome.status.is_some_and(|s| s.success());
        if !passed
            && python
            && !options.require_python
            && let Some(module) = missing_module(&outcome.stderr)
        {
            eprintln!("{label}: python block skipped: no module named {module}");
            run.tally.skipped += 1;
            continue;
        }
        match lang {
            Lang::Shell => run.tally.shell += 1,
            Lang::Python => run.tally.python += 1,
        }
        if !passed {
            let report = failure_report(&label, block, &script, &outcome, options.timeout);
            run.failures.push(Failure { line, report });
        }
    }
    run
}

/// The module a Python traceback in `stderr` says is missing.
fn missing_module(stderr: &str) -> Option<&str> {
    let missing = |l: &&str| l.contains("ModuleNotFoundError") || l.contains("No module named");
    let line = stderr.lines().rev().find(missing)?;
    let module = line.split_once("No module named").map_or(line, |(_, m)| m);
    Some(module.trim().trim_matches(['\'', '"']))
}

/// `LABEL: LANG block failed (STATUS)`, the block as run, numbered as bash and Python number
/// it, then the end of stdout and stderr.
fn failure_report(
    label: &str,
    block: &Block,
    script: &str,
    outcome: &Outcome,
    timeout: Duration,
) -> String {
    let status = match outcome.status {
        Some(status) => status.to_string(),
        None => format!("timed out after {} s, killed", timeout.as_secs()),
    };
    let mut report = format!("{label}: {} block failed ({status})\n", block.lang);
    for (i, line) in script.lines().enumerate() {
        report += &format!("{:>4} | {line}\n", i + 1);
    }
    report += &format!("stdout (last {STDOUT_TAIL} lines):\n");
    report += &tail(&outcome.stdout, STDOUT_TAIL);
    report += &format!("stderr (last {STDERR_TAIL} lines):\n");
    report + &tail(&outcome.stderr, STDERR_TAIL)
}

/// The last `n` lines of `text`, indented.
fn tail(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    if lines.is_empty() {
        return "    (nothing)\n".to_owned();
    }
    let from = lines.len().saturating_sub(n);
    let mut out = String::new();
    if from > 0 {
        out += &format!("    ({from} earlier lines)\n");
    }
    for line in &lines[from..] {
        out += &format!("    {line}\n");
    }
    out
}

/// README.md, then every `*.md` under `docs/` (recursively, sorted), relative to the checkout.
fn markdown_files() -> Vec<String> {
    let mut names = Vec::new();
    collect_markdown(Path::new("docs"), &mut names);
    names.sort();
    names.insert(0, "README.md".to_owned());
    names
}

/// Adds the `*.md` files under `dir` (relative to the checkout) to `names`.
fn collect_markdown(dir: &Path, names: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(dir)) else {
        return;
    };
    for entry in entries {
        let entry = entry.expect("list docs/");
        let path = dir.join(entry.file_name());
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            collect_markdown(&path, names);
        } else if path.extension().is_some_and(|e| e == "md") {
            names.push(path.to_string_lossy().into_owned());
        }
    }
}

/// Runs every file of `names` (relative to the checkout), [`WORKERS`] at a time; the runs come
/// back in the order of `names`.
fn run_all(names: &[String], options: &Options) -> Vec<FileRun> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let next = AtomicUsize::new(0);
    let runs: Mutex<Vec<Option<FileRun>>> = Mutex::new(names.iter().map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..WORKERS {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(name) = names.get(i) else {
                        break;
                    };
                    let run = run_markdown(&root.join(name), name, options);
                    runs.lock().expect("no worker panicked")[i] = Some(run);
                }
            });
        }
    });
    let runs = runs.into_inner().expect("no worker panicked");
    runs.into_iter().map(|r| r.expect("a file ran")).collect()
}

#[test]
fn every_code_block_names_its_language_and_every_skip_says_why() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let offences: Vec<String> = markdown_files()
        .iter()
        .flat_map(|name| {
            let text = std::fs::read_to_string(root.join(name))
                .unwrap_or_else(|e| panic!("read {name}: {e}"));
            fence_offences(&text, name)
        })
        .collect();
    let list = offences.join("\n");
    assert!(
        offences.is_empty(),
        "{} fence(s) to fix:\n{list}",
        offences.len()
    );
}

#[test]
fn every_runnable_block_in_the_readme_and_the_guide_runs() {
    let options = Options::from_env();
    if let Some(why) = &options.python_missing
        && !options.require_python
    {
        eprintln!("docs: Python blocks skipped: {why} (pip install ./python pyarrow numpy)");
    }
    let mut tally = Tally::default();
    let mut reports = Vec::new();
    for run in run_all(&markdown_files(), &options) {
        tally.add(&run.tally);
        reports.extend(run.failures.into_iter().map(|f| f.report));
    }
    eprintln!("{tally}");
    assert!(
        reports.is_empty(),
        "{} documentation block(s) failed ({tally}; scale {}):\n\n{}",
        reports.len(),
        options.scale,
        reports.join("\n")
    );
}

/// Options for the self-tests: the default scale, Python when `python3` runs at all.
fn self_test_options(timeout: Duration) -> Options {
    Options {
        scale: DEFAULT_SCALE,
        timeout,
        python_missing: python_missing("pass"),
        require_python: false,
    }
}

/// A Markdown file broken on purpose at lines 8 (sh), 13 (cargo build, in a bash of its own) and 17
/// (python).
const BROKEN: &str = r#"# Broken on purpose

```sh
test "$HOME" -ef home && test -f Cargo.toml && test ! -e target
cargo run --release -- --version > version.txt && cargo test 2> note.txt && grep -q 'not running' note.txt
```

```sh
test -s version.txt
false
```

```sh
bash -c 'cargo build'
```

```python
raise SystemExit(3)
```

```text
false
```

```sh not-run: it would fail here
false
```
"#;

#[test]
fn a_failing_block_names_its_file_and_line() {
    let dir = TempDir::new("docs-broken");
    let path = dir.join("broken.md");
    std::fs::write(&path, BROKEN).unwrap();
    let options = self_test_options(Duration::from_secs(120));
    let run = run_markdown(&path, "broken.md", &options);
    let want = [
        (
            8,
            "broken.md:8: sh block failed (exit status: 1)\n   1 | test -s version.txt\n   2 | false\n",
        ),
        (13, "broken.md:13: sh block failed (exit status: 1)"),
        (17, "broken.md:17: python block failed (exit status: 3)"),
    ];
    let with_python = options.python_missing.is_none();
    let want = &want[..if with_python { 3 } else { 2 }];
    let lines: Vec<usize> = run.failures.iter().map(|f| f.line).collect();
    let want_lines: Vec<usize> = want.iter().map(|w| w.0).collect();
    assert_eq!(lines, want_lines, "{:#?}", run.failures);
    for (failure, (_, start)) in run.failures.iter().zip(want) {
        assert!(failure.report.starts_with(start), "{}", failure.report);
    }
    assert!(run.failures[1].report.contains("not-run: <reason>"));
    let counts = (run.tally.shell, run.tally.python, run.tally.not_run);
    assert_eq!(counts, (3, usize::from(with_python), 1), "{:?}", run.tally);
}

#[test]
fn a_block_past_its_time_is_killed_with_its_children() {
    let dir = TempDir::new("docs-slow");
    let pid = dir.join("pid");
    // `timeout` puts its child in a process group of its own.
    let block = format!(
        "sleep 60 &\ntimeout 60 sleep 61 &\necho $! > {}\nsleep 60\n",
        pid.display()
    );
    std::fs::write(
        dir.join("slow.md"),
        format!("Slow:\n\n```bash\n{block}```\n"),
    )
    .unwrap();
    let options = Options {
        scale: 1,
        ..self_test_options(Duration::from_secs(1))
    };
    let started = Instant::now();
    let run = run_markdown(&dir.join("slow.md"), "slow.md", &options);
    assert!(started.elapsed() < Duration::from_secs(30), "not killed");
    let report = &run.failures[0].report;
    assert!(
        report.starts_with("slow.md:3: bash block failed (timed out after 1 s, killed)"),
        "{report}"
    );
    let pid = std::fs::read_to_string(pid).unwrap();
    let cmdline = std::fs::read(format!("/proc/{}/cmdline", pid.trim())).unwrap_or_default();
    assert!(cmdline.is_empty(), "`timeout` (pid {pid}) is still running");
}

#[test]
fn python_blocks_without_their_modules_are_skipped_unless_required() {
    let dir = TempDir::new("docs-python");
    let path = dir.join("modules.md");
    let text = "```python\nimport no_such_module_here\n```\n\n```python\npass\n```\n";
    std::fs::write(&path, text).unwrap();
    let options = self_test_options(Duration::from_secs(120));
    if options.python_missing.is_some() {
        eprintln!("skipped: python3 does not run");
        return;
    }
    let run = run_markdown(&path, "modules.md", &options);
    assert!(run.failures.is_empty(), "{:#?}", run.failures);
    assert_eq!((run.tally.python, run.tally.skipped), (1, 1));
    let required = Options {
        require_python: true,
        ..self_test_options(Duration::from_secs(120))
    };
    let run = run_markdown(&path, "modules.md", &required);
    let lines: Vec<usize> = run.failures.iter().map(|f| f.line).collect();
    assert_eq!(lines, [1], "{:#?}", run.failures);
    let missing = Options {
        python_missing: Some("no python here".to_owned()),
        ..required
    };
    let run = run_markdown(&path, "modules.md", &missing);
    assert_eq!(run.failures.len(), 2, "{:#?}", run.failures);
    assert!(
        run.failures[1]
            .report
            .starts_with("modules.md:5: python block not run: no python")
    );
}

#[test]
fn long_integer_literals_shrink_by_the_scale() {
    let cases = [
        ("--count 100000", "--count 100"),
        (
            "generate(\"maze\", 10_000, seed=7)",
            "generate(\"maze\", 10, seed=7)",
        ),
        ("1_000_000", "1000"),
        ("1000", "10"),
        ("999 100", "999 100"),
        ("0.9999 1.5000 2000.5", "0.9999 1.5000 2000.5"),
        (
            "seed000.arrow x1000y _1000 1000_",
            "seed000.arrow x1000y _1000 1000_",
        ),
        ("v2_0000 1__000 100,000", "v2_0000 1__000 100,000"),
        ("level-000000.xml 0100000", "level-000000.xml 0100000"),
        ("out/5000.arrow,-3000", "out/10.arrow,-10"),
        ("n=2500000\n", "n=2500\n"),
    ];
    for (code, want) in cases {
        assert_eq!(scale_numbers(code, 1000), want, "{code:?}");
    }
    assert_eq!(scale_numbers("--count 10_000", 1), "--count 10_000");
    assert_eq!(scale_numbers("--count 100000", 10), "--count 10000");
    let huge = "99999999999999999999999";
    assert_eq!(scale_numbers(huge, 1000), huge);
}

#[test]
fn fences_are_parsed_with_their_language_reason_and_line() {
    let text = "x\n```sh not-run: needs a cluster here\na\n```\n````text\n```\n````\n```python\n";
    assert_eq!(parse(text).unwrap_err(), 8, "the unclosed fence");
    let blocks = parse(&text[..text.len() - "```python\n".len()]).unwrap();
    let seen: Vec<_> = blocks
        .iter()
        .map(|b| (b.line, b.lang.as_str(), b.code.as_str(), b.not_run()))
        .collect();
    let want = [
        (2, "sh", "a\n", Some("needs a cluster here")),
        (5, "text", "```\n", None),
    ];
    assert_eq!(seen, want);

    let bad = "```\nx\n```\n```sh not-run: cluster\n```\n```sh not run: no\n```\n```toml\n```\n";
    assert_eq!(
        fence_offences(bad, "f.md")
            .iter()
            .map(|o| o.split(": ").next().unwrap())
            .collect::<Vec<_>>(),
        ["f.md:1", "f.md:4", "f.md:6"]
    );
    assert_eq!(
        fence_offences("a\n```sh\n", "f.md"),
        ["f.md:2: this fence is never closed"]
    );
}
