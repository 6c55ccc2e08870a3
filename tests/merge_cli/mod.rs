//! One run across machines: `--shard auto` under a Slurm array's or a Kubernetes Indexed Job's
//! environment, `warren merge` joining the shard archives into exactly the single run's levels,
//! and the merge's refusals (a missing shard, a shard of another seed, a truncated shard, a
//! shard given twice), each a one-line error that leaves no output file. The recipes in
//! `scripts/` run as written, with the job array's variables set by hand, one task of each
//! killed midway and started again (a requeued Slurm task, a replaced Kubernetes pod).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use arrow_array::RecordBatch;
use warren::archive::Archive;

mod resume;

use crate::common::{TempDir, assert_fails_naming, assert_verifies, stderr, warren, warren_bin};

/// Every row of an archive as one batch (with the archive's schema and metadata).
fn all_rows(path: &Path) -> RecordBatch {
    let archive = Archive::open(path).expect("a valid archive");
    let batches: Vec<RecordBatch> = (0..archive.batch_count())
        .map(|i| archive.batch(i).expect("a valid batch"))
        .collect();
    arrow_select::concat::concat_batches(archive.schema(), &batches).expect("one schema")
}

pub(super) fn succeeded(output: &Output, what: &str) {
    assert!(output.status.success(), "{what}: {}", stderr(output));
}

/// `warren generate maze` for the run of `count` levels of `seed`, as shard `index` of the
/// Slurm array of `tasks`.
fn slurm_shard(out: &Path, count: u64, seed: u64, index: u64, tasks: u64) {
    let output = Command::new(warren_bin())
        .args(["generate", "maze", "--quiet", "--shard", "auto"])
        .args(["--count", &count.to_string(), "--seed", &seed.to_string()])
        .arg("--out")
        .arg(out)
        .env("SLURM_ARRAY_TASK_ID", index.to_string())
        .env("SLURM_ARRAY_TASK_COUNT", tasks.to_string())
        .env_remove("JOB_COMPLETION_INDEX")
        .output()
        .expect("warren runs");
    succeeded(&output, &format!("Slurm task {index}"));
}

fn single_run(out: &Path, count: u64, seed: u64) {
    let output = warren([
        "generate",
        "maze",
        "--quiet",
        "--count",
        &count.to_string(),
        "--seed",
        &seed.to_string(),
        "--out",
        out.to_str().unwrap(),
    ]);
    succeeded(&output, "the single run");
}

/// Runs `command` in a process group of its own until the progress record of its output `out`
/// holds a chunk, then kills the whole group (`SIGKILL`): a preempted node. `FILE.tmp` stays.
/// On a loaded machine the task can finish between the look at its progress and the kill; then
/// its output is removed and it runs again, up to 10 times.
fn preempted(command: impl Fn() -> Command, out: &Path) {
    use std::os::unix::process::CommandExt;
    let tmp = warren::archive::temp_path(out);
    let progress = warren::archive::progress_path(&tmp);
    for _ in 0..10 {
        let mut child = command()
            .process_group(0)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the task starts");
        let mut finished = false;
        while std::fs::read_to_string(&progress).map_or(0, |t| t.lines().count()) < 2 {
            if child.try_wait().unwrap().is_some() {
                finished = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        if !finished {
            let group = format!("-{}", child.id());
            let killed = Command::new("kill").args(["-KILL", "--", &group]).status();
            assert!(killed.is_ok_and(|s| s.success()), "kill {group}");
        }
        child.wait().unwrap();
        if !finished && tmp.exists() && !out.exists() {
            return;
        }
        for file in [out, tmp.as_path(), progress.as_path()] {
            let _ = std::fs::remove_file(file);
        }
    }
    panic!("the task finished before it could be preempted, 10 times out of 10");
}

pub(super) fn merge(out: &Path, shards: &[PathBuf]) -> Output {
    let mut args = vec!["merge".as_ref(), out.as_os_str()];
    args.extend(shards.iter().map(|s| s.as_os_str()));
    warren(args)
}

#[test]
fn four_slurm_shards_merged_equal_the_single_run() {
    let dir = TempDir::new("merge-slurm");
    let shards: Vec<PathBuf> = (0..4).map(|i| dir.join(&format!("s{i}.arrow"))).collect();
    for (i, s) in shards.iter().enumerate() {
        slurm_shard(s, 3000, 7, i as u64, 4);
    }
    let (single, merged) = (dir.join("single.arrow"), dir.join("merged.arrow"));
    single_run(&single, 3000, 7);
    // In any order.
    let order = [&shards[2], &shards[0], &shards[3], &shards[1]].map(|p| p.to_path_buf());
    succeeded(&merge(&merged, &order), "merge");
    // Every column of every level, and the schema's metadata (the shard record included).
    let (a, b) = (all_rows(&merged), all_rows(&single));
    assert_eq!(a.num_rows(), 3000);
    assert_eq!(a, b);
    let archive = Archive::open(&merged).unwrap();
    assert_eq!(
        archive.meta(warren::archive::META_SHARD),
        Some(r#"{"index":0,"count":1,"total":3000,"start":0,"end":3000}"#)
    );
    let footer = warren::archive::RunFooter::from_archive(&archive).unwrap();
    assert_eq!((footer.levels, footer.failed()), (3000, 0));
    assert_verifies(&merged);
}

#[test]
fn a_missing_foreign_truncated_or_repeated_shard_is_refused_and_nothing_is_written() {
    let dir = TempDir::new("merge-refuse");
    let shards: Vec<PathBuf> = (0..4).map(|i| dir.join(&format!("s{i}.arrow"))).collect();
    for (i, s) in shards.iter().enumerate() {
        slurm_shard(s, 800, 3, i as u64, 4);
    }
    let foreign = dir.join("other-seed.arrow");
    slurm_shard(&foreign, 800, 4, 2, 4);
    let truncated = dir.join("truncated.arrow");
    let bytes = std::fs::read(&shards[1]).unwrap();
    std::fs::write(&truncated, &bytes[..bytes.len() * 2 / 3]).unwrap();
    let out = dir.join("merged.arrow");
    let [s0, s1, s2, s3] = shards.clone().try_into().unwrap();
    let cases: [(Vec<PathBuf>, &str); 4] = [
        (
            vec![s0.clone(), s1.clone(), s3.clone()],
            "shard 2/4 of the run is missing",
        ),
        (
            vec![s0.clone(), s1.clone(), foreign.clone(), s3.clone()],
            "master seed 4, but",
        ),
        (
            vec![s0.clone(), truncated.clone(), s2.clone(), s3.clone()],
            "truncated.arrow",
        ),
        (vec![s0.clone(), s1, s2, s3, s0], "are both shard 0/4"),
    ];
    for (given, want) in cases {
        let what = format!("merge {given:?}");
        assert_fails_naming(&merge(&out, &given), &what, &[want]);
        assert!(!out.exists(), "{what} wrote {}", out.display());
        assert!(
            !warren::archive::temp_path(&out).exists(),
            "{what} left a temp file"
        );
    }
}

/// The Slurm recipe run as task `task` of 3 for 9,000 mazes into `runs`.
fn slurm_task(script: &Path, runs: &Path, task: u64) -> Command {
    let mut command = Command::new("bash");
    command
        .arg(script)
        .args(["maze", "9000"])
        .arg(runs)
        .arg("5")
        .env("WARREN", warren_bin())
        .env("SLURM_ARRAY_TASK_ID", task.to_string())
        .env("SLURM_ARRAY_TASK_COUNT", "3")
        .env("SLURM_CPUS_PER_TASK", "1");
    command
}

/// As written, with task 1 preempted once and requeued (the script runs again, `--resume` goes
/// on from its killed run) and task 2 run twice (the second time finds its shard done).
#[test]
fn the_slurm_recipe_runs_as_written() {
    let dir = TempDir::new("merge-slurm-script");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/slurm-array.sh");
    let runs = dir.join("runs");
    std::fs::create_dir_all(&runs).unwrap();
    preempted(
        || slurm_task(&script, &runs, 1),
        &runs.join("shard-00001.arrow"),
    );
    for task in [0, 1, 2, 2] {
        let output = slurm_task(&script, &runs, task)
            .output()
            .expect("bash runs");
        succeeded(&output, &format!("slurm-array.sh as task {task}"));
    }
    let shards: Vec<PathBuf> = (0..3)
        .map(|i| runs.join(format!("shard-{i:05}.arrow")))
        .collect();
    let (single, merged) = (dir.join("single.arrow"), dir.join("merged.arrow"));
    succeeded(&merge(&merged, &shards), "merge");
    single_run(&single, 9000, 5);
    assert_eq!(all_rows(&merged), all_rows(&single));
}

#[test]
fn the_kubernetes_recipe_runs_as_an_indexed_job() {
    let yaml = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/k8s-indexed-job.yaml"),
    )
    .unwrap();
    let completions: u64 = yaml
        .lines()
        .find_map(|l| l.trim().strip_prefix("completions:"))
        .expect("a completions line")
        .trim()
        .parse()
        .unwrap();
    let command = yaml
        .lines()
        .skip_while(|l| l.trim() != "args:")
        .nth(1)
        .and_then(|l| l.trim().strip_prefix("- "))
        .expect("the container's command after `args:`");
    assert!(
        command.contains(&format!("--shard auto/{completions}")),
        "the shard count must be the Job's completions: {command}"
    );
    // The recipe's own command, on a local folder, a local binary and fewer levels.
    let dir = TempDir::new("merge-k8s");
    let data = dir.join("data");
    let local = command
        .replace("/data", data.to_str().unwrap())
        .replace("warren generate", &format!("{} generate", warren_bin()))
        .replace("--count 1000000", "--count 12000");
    let pod = |index: u64| {
        let mut command = Command::new("sh");
        command
            .args(["-c", &local])
            .env("JOB_COMPLETION_INDEX", index.to_string())
            .env_remove("SLURM_ARRAY_TASK_ID");
        command
    };
    // Pod 0 is evicted once; the Job starts another with the same index, which resumes.
    std::fs::create_dir_all(data.join("maze")).unwrap();
    preempted(|| pod(0), &data.join("maze/shard-00000.arrow"));
    for index in 0..completions {
        let output = pod(index).output().expect("sh runs");
        succeeded(&output, &format!("the Job's pod {index}"));
    }
    let shards: Vec<PathBuf> = (0..completions)
        .map(|i| data.join(format!("maze/shard-{i:05}.arrow")))
        .collect();
    let (single, merged) = (dir.join("single.arrow"), dir.join("merged.arrow"));
    succeeded(&merge(&merged, &shards), "merge");
    single_run(&single, 12000, 0);
    assert_eq!(all_rows(&merged), all_rows(&single));
}
