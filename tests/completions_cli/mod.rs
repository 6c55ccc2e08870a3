//! `warren completions` and `warren man` come from the parser's own definitions: bash loads
//! the script and knows `warren`; every shell gets a script naming the subcommands; the man
//! pages carry every command; `--version` names the commit and the CPU features.

use std::process::Command;

use crate::common::{TempDir, file_names, stdout, warren};

#[test]
fn the_bash_completion_loads_and_completes_subcommands() {
    let out = warren(["completions", "bash"]);
    assert!(out.status.success());
    let dir = TempDir::new("completions");
    let script = dir.join("warren.bash");
    std::fs::write(&script, &out.stdout).unwrap();
    // Source it, show the registration, then ask it to complete `warren gen`.
    let probe = format!(
        "source {}; complete -p warren; COMP_WORDS=(warren gen); COMP_CWORD=1; \
         COMP_LINE='warren gen'; COMP_POINT=10; _warren warren gen warren; \
         printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display()
    );
    let bash = Command::new("bash").args(["-c", &probe]).output().unwrap();
    let text = stdout(&bash);
    assert!(
        bash.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&bash.stderr)
    );
    assert!(text.contains("-F _warren warren"), "{text}");
    assert!(text.lines().any(|l| l == "generate"), "{text}");
}

#[test]
fn every_shell_gets_a_script_naming_the_subcommands() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = warren(["completions", shell]);
        let text = stdout(&out);
        assert!(out.status.success(), "{shell}");
        for sub in ["generate", "verify", "export", "completions"] {
            assert!(text.contains(sub), "{shell}: {sub} missing");
        }
    }
    let out = warren(["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("tcsh"));
}

#[test]
fn man_pages_cover_every_command_and_the_version_names_the_build() {
    let page = stdout(&warren(["man"]));
    assert!(
        page.contains(".TH warren 1") && page.contains(".SH NAME"),
        "{page}"
    );
    assert!(page.contains("generate") && page.contains("completions"));
    let dir = TempDir::new("man");
    let out = warren(["man", "--out", dir.path().to_str().unwrap()]);
    assert!(out.status.success());
    let pages = file_names(dir.path());
    for want in [
        "warren.1",
        "warren-generate.1",
        "warren-verify.1",
        "warren-man.1",
    ] {
        assert!(pages.iter().any(|p| p == want), "{want} not in {pages:?}");
    }
    let generate = std::fs::read_to_string(dir.path().join("warren-generate.1")).unwrap();
    assert!(
        generate.contains("\\-\\-count"),
        "the generate page lists --count"
    );
    let missing = warren(["man", "--out", "/no/such/folder"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("/no/such/folder"));

    let version = stdout(&warren(["--version"]));
    let re = regex_lite_match(&version);
    assert!(re, "{version}");
    // In a git checkout the commit is HEAD's (the tests run on the build they test).
    if let Ok(head) = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        && head.status.success()
    {
        let head = String::from_utf8_lossy(&head.stdout).trim().to_owned();
        assert!(
            version.contains(&format!("commit {head},")),
            "{version} vs HEAD {head}"
        );
    }
}

/// `warren X.Y.Z (commit <12 hex or unknown>, <arch> <features>)`.
fn regex_lite_match(line: &str) -> bool {
    let Some(rest) = line.trim().strip_prefix("warren ") else {
        return false;
    };
    let Some((version, build)) = rest.split_once(" (commit ") else {
        return false;
    };
    let Some((commit, target)) = build.split_once(", ") else {
        return false;
    };
    version.split('.').count() == 3
        && (commit == "unknown"
            || commit.len() == 12 && commit.bytes().all(|b| b.is_ascii_hexdigit()))
        && target.ends_with(')')
        && target.split(' ').count() >= 2
}
