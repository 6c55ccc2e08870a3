//! Compressed archives (`generate --compression zstd|lz4`): they hold the uncompressed run's
//! levels, every command reads them, `merge` and `split` keep the compression, pyarrow and
//! polars read them, and a damaged compressed batch is one line from `verify`, never a panic.

use std::path::Path;

use warren::archive::{Archive, Compression};

use crate::common::{
    TempDir, assert_same_rows, assert_verifies, exit_code, generate, rows_of, stderr, stdout,
    warren, warren_ok,
};
use crate::python_reader::{python, python_has, python_ready};

/// The run every test compresses: default 32 x 32 mazes, three batches.
const RUN: [&str; 6] = ["--count", "300", "--seed", "3", "--chunk-size", "100"];

fn compression_of(path: &Path) -> Compression {
    Archive::open(path)
        .and_then(|a| a.compression())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn compressed_archives_hold_the_run_and_every_command_reads_them() {
    let dir = TempDir::new("compression");
    let plain = dir.join("plain.arrow");
    generate(&plain, &RUN);
    assert_eq!(compression_of(&plain), Compression::None);
    let plain_rows = rows_of(&[&plain]);
    let plain_npy = dir.join("plain.npy");
    warren_ok([
        "export".as_ref(),
        plain.as_os_str(),
        "--npy".as_ref(),
        plain_npy.as_os_str(),
    ]);
    for compression in [Compression::Zstd, Compression::Lz4] {
        let name = compression.name();
        let path = dir.join(&format!("{name}.arrow"));
        generate(&path, &[&RUN[..], &["--compression", name]].concat());
        assert_eq!(compression_of(&path), compression);
        assert_same_rows(&plain_rows, &rows_of(&[&path]));
        let (small, big) = (
            std::fs::metadata(&path).unwrap().len(),
            std::fs::metadata(&plain).unwrap().len(),
        );
        assert!(
            small * 2 < big,
            "{name}: {small} bytes against {big} uncompressed"
        );

        assert_verifies(&path);
        assert!(warren_ok(["inspect".as_ref(), path.as_os_str()]).contains("dead_ends"));
        let png = dir.join(&format!("{name}.png"));
        warren_ok([
            "render".as_ref(),
            path.as_os_str(),
            "--index".as_ref(),
            "2".as_ref(),
            "--out".as_ref(),
            png.as_os_str(),
        ]);
        let npy = dir.join(&format!("{name}.npy"));
        warren_ok([
            "export".as_ref(),
            path.as_os_str(),
            "--npy".as_ref(),
            npy.as_os_str(),
        ]);
        assert!(
            std::fs::read(&npy).unwrap() == std::fs::read(&plain_npy).unwrap(),
            "{name}: npy differs"
        );

        let splits = dir.join(&format!("{name}-splits"));
        std::fs::create_dir_all(&splits).unwrap();
        warren_ok([
            "split".as_ref(),
            path.as_os_str(),
            "--train".as_ref(),
            "0.5".as_ref(),
            "--val".as_ref(),
            "0.5".as_ref(),
            "--test".as_ref(),
            "0".as_ref(),
            "--out".as_ref(),
            splits.as_os_str(),
        ]);
        for split in ["train", "val"] {
            let part = splits.join(format!("{split}.arrow"));
            assert_eq!(compression_of(&part), compression, "{name}: {split}");
            warren_ok(["verify".as_ref(), part.as_os_str()]);
        }

        let shards: Vec<_> = (0..2)
            .map(|i| dir.join(&format!("{name}-{i}.arrow")))
            .collect();
        for (i, shard) in shards.iter().enumerate() {
            generate(
                shard,
                &[
                    &RUN[..],
                    &["--compression", name, "--shard", &format!("{i}/2")],
                ]
                .concat(),
            );
        }
        let merged = dir.join(&format!("{name}-merged.arrow"));
        warren_ok([
            "merge".as_ref(),
            merged.as_os_str(),
            shards[1].as_os_str(),
            shards[0].as_os_str(),
        ]);
        assert_eq!(compression_of(&merged), compression);
        assert_same_rows(&plain_rows, &rows_of(&[&merged]));
    }
}

#[test]
fn a_damaged_compressed_batch_is_one_line_from_verify() {
    let dir = TempDir::new("compression-damage");
    for name in ["zstd", "lz4"] {
        let path = dir.join(&format!("{name}.arrow"));
        generate(&path, &[&RUN[..], &["--compression", name]].concat());
        let mut bytes = std::fs::read(&path).unwrap();
        // The middle of the file lies in the second batch's body (three equal batches).
        let at = bytes.len() / 2;
        bytes[at] ^= 0x5a;
        std::fs::write(&path, &bytes).unwrap();
        let output = warren([Path::new("verify"), &path]);
        let (out, err) = (stdout(&output), stderr(&output));
        assert_ne!(exit_code(&output), 0, "{name}: damage passed verify: {out}");
        assert!(!err.contains("panicked"), "{name}: {err}");
        let text = format!("{out}{err}");
        assert!(
            text.contains("record batch 1"),
            "{name}: the damaged batch is not named: {text}"
        );
        let lines: Vec<_> = err.lines().filter(|l| !l.is_empty()).collect();
        assert!(
            lines.len() <= 1,
            "{name}: more than one line on stderr: {err}"
        );
    }
}

#[test]
fn pyarrow_and_polars_read_compressed_archives() {
    if !python_ready() || !python_has("polars") {
        return;
    }
    let dir = TempDir::new("compression-py");
    let plain = dir.join("plain.arrow");
    generate(&plain, &RUN);
    for name in ["zstd", "lz4"] {
        let path = dir.join(&format!("{name}.arrow"));
        generate(&path, &[&RUN[..], &["--compression", name]].concat());
        let script = r#"
import sys, pyarrow as pa, polars as pl
a = pa.ipc.open_file(sys.argv[1]).read_all()
b = pa.ipc.open_file(sys.argv[2]).read_all()
assert a.equals(b), "pyarrow reads other rows"
assert pl.read_ipc(sys.argv[2]).equals(pl.read_ipc(sys.argv[1]))
print(b.num_rows, pl.scan_ipc(sys.argv[2]).filter(pl.col("dead_ends") > 0).select(pl.len()).collect().item())
"#;
        let out = python(script, &[plain.to_str().unwrap(), path.to_str().unwrap()]);
        assert_eq!(out.trim(), "300 300", "{name}");
    }
}
