//! Writing where there is no room or no right to write: a full file system, a read-only one, a
//! missing output folder, an output that is not a regular file. Each is a one-line error naming
//! the path, exit status 2, and no file under the output name (an archive already there stays).
//! A run that fills the disk after some of its chunks were recorded keeps `FILE.tmp` and its
//! progress record, says so, and `--resume` finishes it once there is room, byte for byte.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{
    SMALL, TempDir, assert_fails_naming, assert_succeeded, file_names, generate, stderr, warren,
    warren_fails,
};

/// A small tmpfs mounted on a folder, unmounted on drop.
struct SmallTmpfs {
    dir: PathBuf,
}

impl SmallTmpfs {
    /// Mounts a 1 MiB one on `dir` ([`SmallTmpfs::mount_sized`]).
    fn mount(dir: &Path) -> Option<Self> {
        Self::mount_sized(dir, "1m")
    }

    /// Mounts one of `size` (`mount`'s notation: `8m`) on `dir`, or `None` where this process
    /// may not mount (not root, no `CAP_SYS_ADMIN`, no `mount`).
    fn mount_sized(dir: &Path, size: &str) -> Option<Self> {
        std::fs::create_dir_all(dir).unwrap();
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .output()
            .is_ok_and(|o| o.status.success());
        mounted.then(|| Self {
            dir: dir.to_path_buf(),
        })
    }

    /// Remounts it read-only.
    fn make_read_only(&self) {
        let out = Command::new("mount")
            .args(["-o", "remount,ro"])
            .arg(&self.dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "remount ro: {}", stderr(&out));
    }
}

impl Drop for SmallTmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.dir).output();
    }
}

/// `warren generate maze --count COUNT --out OUT`, expected to fail with one line naming
/// `named` and containing `reason`.
fn generate_fails(out: &Path, count: &str, named: &Path, reason: &str) {
    let args = ["generate", "maze", "--quiet", "--count", count, "--out"];
    let args = args.iter().map(OsStr::new).chain([out.as_os_str()]);
    warren_fails(args, &[&named.to_string_lossy(), reason]);
}

#[test]
fn a_full_or_read_only_disk_is_one_line_and_leaves_no_file() {
    let dir = TempDir::new("small-fs");
    let Some(fs) = SmallTmpfs::mount(&dir.join("small")) else {
        println!("skipped: cannot mount a small tmpfs here");
        return;
    };
    let out = fs.dir.join("levels.arrow");
    // A small archive fits; a run of 3,000 levels of 32 x 32 (about 13 MB) does not.
    let mut args = vec!["--count", "5"];
    args.extend(SMALL);
    generate(&out, &args);
    let before = std::fs::read(&out).unwrap();
    generate_fails(&out, "3000", &out, "No space left on device");
    assert_eq!(file_names(&fs.dir), ["levels.arrow"]);
    assert!(
        std::fs::read(&out).unwrap() == before,
        "the old archive changed"
    );

    std::fs::remove_file(&out).unwrap();
    generate_fails(&out, "3000", &out, "No space left on device");
    assert!(
        file_names(&fs.dir).is_empty(),
        "left {:?}",
        file_names(&fs.dir)
    );

    fs.make_read_only();
    generate_fails(&out, "3", &out, "Read-only file system");
    assert!(
        file_names(&fs.dir).is_empty(),
        "left {:?}",
        file_names(&fs.dir)
    );
}

/// The number in `text` after `before` and up to `after` (thousands separators dropped).
fn number_between(text: &str, before: &str, after: &str) -> u64 {
    let (_, rest) = text
        .split_once(before)
        .unwrap_or_else(|| panic!("no `{before}` in {text}"));
    let (n, _) = rest
        .split_once(after)
        .unwrap_or_else(|| panic!("no `{after}` in {text}"));
    n.replace(',', "").parse().unwrap()
}

#[test]
fn a_run_stopped_by_a_full_disk_resumes_into_the_same_bytes() {
    let dir = TempDir::new("full-resume");
    let Some(fs) = SmallTmpfs::mount_sized(&dir.join("small"), "8m") else {
        println!("skipped: cannot mount a small tmpfs here");
        return;
    };
    // 6,000 mazes of 16 x 16 in chunks of 256 are about 7 MB: they fill the 4 MiB left beside
    // the filler after a few chunks, and fit once it is gone.
    let run = [
        "generate",
        "maze",
        "--count",
        "6000",
        "--chunk-size",
        "256",
        "--seed",
        "47",
        "--set",
        "maze.width=16",
        "--set",
        "maze.height=16",
        "--threads",
        "2",
        "--out",
    ];
    let with_out = |out: &Path, more: &[&str]| {
        let mut args: Vec<&OsStr> = run.iter().map(OsStr::new).collect();
        args.push(out.as_os_str());
        args.extend(more.iter().map(OsStr::new));
        warren(&args)
    };
    let whole = dir.join("whole.arrow");
    assert_succeeded(&with_out(&whole, &["--quiet"]), "the uninterrupted run");

    let filler = fs.dir.join("filler");
    std::fs::write(&filler, vec![7u8; 4 << 20]).unwrap();
    let out = fs.dir.join("levels.arrow");
    let tmp = warren::archive::temp_path(&out);
    let failed = with_out(&out, &["--quiet"]);
    let err = assert_fails_naming(
        &failed,
        "the run on a full disk",
        &[
            &tmp.to_string_lossy(),
            "No space left on device",
            "levels written so far are kept: free space and run the same command with --resume",
        ],
    );
    let kept = number_between(&err, "; the ", " levels written so far");
    assert!(kept > 0 && kept < 6000, "{err}");
    assert_eq!(
        file_names(&fs.dir),
        ["filler", "levels.arrow.tmp", "levels.arrow.tmp.progress"]
    );

    std::fs::remove_file(&filler).unwrap();
    let resumed = with_out(&out, &["--resume"]);
    assert_succeeded(&resumed, "the resumed run");
    let said = stderr(&resumed);
    assert_eq!(
        number_between(&said, "levels.arrow.tmp: ", " levels kept ("),
        kept,
        "the resume kept other levels than the error said: {said}"
    );
    assert_eq!(file_names(&fs.dir), ["levels.arrow"]);
    assert!(
        std::fs::read(&out).unwrap() == std::fs::read(&whole).unwrap(),
        "the resumed archive differs from the uninterrupted one"
    );
}

#[test]
fn an_unusable_output_path_is_one_line_and_writes_nothing() {
    let dir = TempDir::new("bad-out");
    let missing = dir.join("missing");
    generate_fails(&missing.join("x.arrow"), "3", &missing, "does not exist");

    let file = dir.join("file.txt");
    std::fs::write(&file, "not a folder").unwrap();
    generate_fails(&file.join("x.arrow"), "3", &file, "does not exist");

    let folder = dir.join("folder.arrow");
    std::fs::create_dir(&folder).unwrap();
    generate_fails(&folder, "3", &folder, "not a regular file");
    assert!(folder.is_dir());

    let fifo = dir.join("pipe.arrow");
    if Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        generate_fails(&fifo, "3", &fifo, "not a regular file");
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    } else {
        println!("skipped: no mkfifo here");
    }
    let left = file_names(dir.path());
    assert!(left.iter().all(|n| !n.ends_with(".tmp")), "left {left:?}");
    assert!(
        file_names(&folder).is_empty(),
        "wrote into {}",
        folder.display()
    );
}
