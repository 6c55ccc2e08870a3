//! Writing where there is no room or no right to write: a full file system, a read-only one, a
//! missing output folder, an output that is not a regular file. Each is a one-line error naming
//! the path, exit status 2, and no file under the output name (an archive already there stays).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{SMALL, TempDir, file_names, generate, stderr, warren_fails};

/// A 1 MiB tmpfs mounted on a folder, unmounted on drop.
struct SmallTmpfs {
    dir: PathBuf,
}

impl SmallTmpfs {
    /// Mounts one on `dir`, or `None` where this process may not mount (not root, no
    /// `CAP_SYS_ADMIN`, no `mount`).
    fn mount(dir: &Path) -> Option<Self> {
        std::fs::create_dir_all(dir).unwrap();
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=1m", "tmpfs"])
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
