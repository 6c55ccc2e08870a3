//! `warren tasks`: verl's Parquet rows and JSON Lines, splits, refused specs, resume.

use std::fs::File;

use arrow_array::cast::AsArray;
use arrow_array::{Array, RecordBatch};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use crate::common::warren;

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("warren-task-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn read_parquet(path: &std::path::Path) -> Vec<RecordBatch> {
    let f = File::open(path).unwrap();
    ParquetRecordBatchReaderBuilder::try_new(f)
        .unwrap()
        .build()
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[test]
fn verl_rows_carry_prompt_reward_and_extra_info_and_score_one() {
    let out = tmp("steps.parquet");
    let run = warren([
        "tasks",
        "maze-path",
        "--count",
        "500",
        "--seed",
        "3",
        "--out",
        out.to_str().unwrap(),
        "--set",
        "task.infeasible_share=0.1",
        "-q",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        !tmp("steps.parquet.items.arrow").exists(),
        "the item archive is removed"
    );
    let batches = read_parquet(&out);
    let rows: usize = batches.iter().map(RecordBatch::num_rows).sum();
    assert_eq!(rows, 500);
    let schema = batches[0].schema();
    let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
    assert_eq!(
        names,
        [
            "data_source",
            "prompt",
            "ability",
            "reward_model",
            "extra_info"
        ]
    );
    let mut infeasible = 0;
    for b in &batches {
        let source = b.column(0).as_string::<i32>();
        let reward = b.column(3).as_struct();
        let truth = reward
            .column_by_name("ground_truth")
            .unwrap()
            .as_string::<i32>();
        let extra = b.column(4).as_struct();
        let answer = extra.column_by_name("answer").unwrap().as_string::<i32>();
        let split = extra.column_by_name("split").unwrap().as_string::<i32>();
        let prompt = b.column(1).as_list::<i32>();
        for i in 0..b.num_rows() {
            assert_eq!(source.value(i), "warren/maze-path");
            assert_eq!(split.value(i), "train");
            let message = prompt.value(i);
            let message = message.as_struct();
            assert_eq!(message.len(), 1);
            let role = message.column_by_name("role").unwrap().as_string::<i32>();
            assert_eq!(role.value(0), "user");
            assert_eq!(warren::task::score(answer.value(i), truth.value(i)), 1.0);
            infeasible += usize::from(answer.value(i) == "infeasible");
        }
    }
    assert_eq!(infeasible, 50, "exactly a tenth");
}

#[test]
fn jsonl_rows_are_verls_fields_and_splits_differ() {
    let mut seen = Vec::new();
    for split in ["train", "validation", "test"] {
        let out = tmp(&format!("{split}.jsonl"));
        let run = warren([
            "tasks",
            "maze-steps",
            "--count",
            "300",
            "--format",
            "jsonl",
            "--split",
            split,
            "--out",
            out.to_str().unwrap(),
            "-q",
        ]);
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let text = std::fs::read_to_string(&out).unwrap();
        let rows: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(rows.len(), 300);
        for r in &rows {
            assert_eq!(r["extra_info"]["split"], split);
            assert_eq!(r["reward_model"]["style"], "rule");
            let q = r["prompt"][0]["content"].as_str().unwrap().to_string();
            seen.push((split, q));
        }
    }
    let (train, rest): (Vec<_>, Vec<_>) = seen.iter().partition(|(s, _)| *s == "train");
    let train: std::collections::HashSet<&String> = train.iter().map(|(_, q)| q).collect();
    assert!(rest.iter().all(|(_, q)| !train.contains(q)));
}

#[test]
fn specs_that_cannot_be_met_are_refused_in_one_line_naming_the_field() {
    let out = tmp("refused.parquet");
    let cases: [(&[&str], &str); 6] = [
        (
            &["--set", "task.min_rows=21", "--set", "task.max_rows=21"],
            "task.square = true needs a side in both",
        ),
        (
            &["--set", "task.min_dist=12"],
            "task.min_dist = 12 is above task.max_dist = 10",
        ),
        (
            &["--set", "task.min_dist=31", "--set", "task.max_dist=40"],
            "task.min_dist = 31 cannot be held",
        ),
        (&["--set", "task.max_rows=2"], "task.max_rows"),
        (&["--set", "task.nope=1"], "unknown key `task.nope`"),
        (&["--set", "task.renderings=[]"], "task.renderings"),
    ];
    for (sets, expect) in cases {
        let mut args = vec![
            "tasks",
            "maze-steps",
            "--count",
            "5",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(sets);
        let run = warren(&args);
        assert_eq!(run.status.code(), Some(2), "{sets:?}");
        let err = String::from_utf8_lossy(&run.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(expect), "{sets:?}: {err}");
        assert!(!out.exists());
    }
    let run = warren([
        "tasks",
        "graph-color",
        "--count",
        "5",
        "--out",
        out.to_str().unwrap(),
        "--set",
        "task.colors=12",
    ]);
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("task.colors = 12"), "{err}");
    let run = warren([
        "tasks",
        "no-such-task",
        "--count",
        "5",
        "--out",
        out.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("neither a task") && err.contains("maze-steps"),
        "{err}"
    );
}

#[test]
fn a_finished_run_resumed_does_nothing_and_arrow_output_verifies() {
    let out = tmp("resume.parquet");
    let args = [
        "tasks",
        "maze-steps",
        "--count",
        "100",
        "--out",
        out.to_str().unwrap(),
        "-q",
        "--resume",
    ];
    assert!(warren(args).status.success());
    let before = std::fs::read(&out).unwrap();
    let again = warren(args);
    assert!(again.status.success());
    assert_eq!(std::fs::read(&out).unwrap(), before);
    let arrow = tmp("items.arrow");
    let run = warren([
        "tasks",
        "maze-path",
        "--count",
        "200",
        "--format",
        "arrow",
        "--out",
        arrow.to_str().unwrap(),
        "-q",
    ]);
    assert!(run.status.success());
    let verify = warren(["verify", arrow.to_str().unwrap()]);
    assert!(
        verify.status.success(),
        "{}",
        String::from_utf8_lossy(&verify.stdout)
    );
}
