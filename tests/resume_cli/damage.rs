//! A killed run's leftovers damaged on purpose: bytes past the last recorded chunk, a recorded
//! chunk whose bytes changed, a torn progress line, a lost progress record. Each is detected,
//! the damaged part made again, and the finished archive is the uninterrupted run's.

use std::path::Path;

use super::{SMALL_RUN, generate_args, killed_run, same_bytes, spawn_resume, tmp_of};
use crate::common::{TempDir, assert_succeeded, exit_code, warren};

/// The chunk lines of the progress record of `out` (after its header line), as JSON.
fn chunk_lines(out: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(warren::archive::progress_path(&tmp_of(out))).unwrap();
    text.lines()
        .skip(1)
        .map(|l| serde_json::from_str(l.rsplit_once('\t').unwrap().0).unwrap())
        .collect()
}

/// Resumes `out` to the end; returns what the resume said.
fn resume_to_end(out: &Path) -> String {
    let output = spawn_resume(&SMALL_RUN, out).wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(exit_code(&output), 0, "{err}");
    err
}

/// The first line of `err` that starts with `prefix`.
fn line<'a>(err: &'a str, prefix: &str) -> &'a str {
    err.lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no `{prefix}` line in: {err}"))
}

#[test]
fn a_torn_or_damaged_tail_is_detected_and_made_again() {
    let dir = TempDir::new("resume-damage");
    let plain = dir.join("plain.arrow");
    assert_succeeded(&warren(generate_args(&SMALL_RUN, &plain)), "plain run");

    // Bytes after the last recorded chunk (a chunk torn mid-write): cut off.
    let out = dir.join("torn.arrow");
    killed_run(&SMALL_RUN, &out, 8 << 20);
    let tmp = tmp_of(&out);
    let recorded = chunk_lines(&out).last().unwrap()["end"].as_u64().unwrap();
    let mut bytes = std::fs::read(&tmp).unwrap();
    bytes.truncate(recorded as usize);
    bytes.extend(std::iter::repeat_n(0xA5, 100_000));
    std::fs::write(&tmp, &bytes).unwrap();
    let err = resume_to_end(&out);
    let said = line(&err, "warren: resuming");
    assert!(said.contains("0.1 MB after them dropped"), "{said}");
    assert!(same_bytes(&out, &plain), "torn tail: the archive differs");

    // A recorded chunk whose bytes changed (not yet synced, so checked): dropped with
    // everything after it.
    let out = dir.join("damaged.arrow");
    killed_run(&SMALL_RUN, &out, 8 << 20);
    let lines = chunk_lines(&out);
    assert!(lines.len() >= 3, "only {} chunks recorded", lines.len());
    let victim = &lines[lines.len() - 3];
    let block = &victim["blocks"][0];
    let (offset, meta, body) = (
        block[0].as_u64().unwrap(),
        block[1].as_u64().unwrap(),
        block[2].as_u64().unwrap(),
    );
    assert_eq!(victim["synced"].as_u64(), Some(0), "the file was synced");
    let tmp = tmp_of(&out);
    let mut bytes = std::fs::read(&tmp).unwrap();
    bytes[(offset + meta + body / 2) as usize] ^= 0x10;
    std::fs::write(&tmp, &bytes).unwrap();
    let kept_before = lines[lines.len() - 4]["state"]["kept"].as_u64().unwrap();
    let err = resume_to_end(&out);
    let said = line(&err, "warren: resuming");
    assert!(
        said.contains("3 recorded chunks dropped")
            && said.contains(&format!(
                "{} levels kept",
                warren::core::text::thousands(kept_before)
            )),
        "{said}"
    );
    assert!(
        same_bytes(&out, &plain),
        "damaged chunk: the archive differs"
    );

    // A torn last line of the record: that chunk is made again.
    let out = dir.join("torn-line.arrow");
    killed_run(&SMALL_RUN, &out, 8 << 20);
    let progress = warren::archive::progress_path(&tmp_of(&out));
    let text = std::fs::read(&progress).unwrap();
    std::fs::write(&progress, &text[..text.len() - 7]).unwrap();
    resume_to_end(&out);
    assert!(same_bytes(&out, &plain), "torn record: the archive differs");

    // No progress record at all: the run starts over, and says so.
    let out = dir.join("no-record.arrow");
    killed_run(&SMALL_RUN, &out, 8 << 20);
    std::fs::remove_file(warren::archive::progress_path(&tmp_of(&out))).unwrap();
    let err = resume_to_end(&out);
    assert!(err.contains("no readable progress record"), "{err}");
    assert!(same_bytes(&out, &plain), "no record: the archive differs");
}
