//! The task scorers (`warren::task::score`) read a model's answers and, through verl and
//! reasoning-gym, ground truths that pass through users' files: both are mutated here from real
//! items of every task, and every score must come back in [0, 1], within the time limit.

use std::sync::OnceLock;

use warren::mix;
use warren::task::{TaskConfig, TaskGenerator, TaskName, score, score_task};

use super::fuzz;

/// One real item's (answer, ground truth) of `task`.
fn item(task: TaskName) -> (String, String) {
    let cfg = TaskConfig {
        task,
        infeasible_share: if task == TaskName::MazePath { 0.5 } else { 0.0 },
        ..TaskConfig::default()
    };
    let g = TaskGenerator::new(cfg).expect("default specs are valid");
    let mut s = warren::Generator::new_scratch(&g);
    g.item(1, mix(11, 1), &mut s).expect("the item generates");
    (s.item.answer.clone(), s.item.ground_truth.clone())
}

/// The items, made once.
fn items() -> &'static [(TaskName, String, String)] {
    static ITEMS: OnceLock<Vec<(TaskName, String, String)>> = OnceLock::new();
    ITEMS.get_or_init(|| {
        TaskName::ALL
            .iter()
            .map(|&t| {
                let (a, g) = item(t);
                (t, a, g)
            })
            .collect()
    })
}

fn in_range(what: &str, s: f64) -> Result<(), String> {
    if (0.0..=1.0).contains(&s) {
        Ok(())
    } else {
        Err(format!("{what}: score {s} outside [0, 1]"))
    }
}

/// A mutated answer against every task's real ground truth.
fn check_answer(bytes: &[u8]) -> Result<(), String> {
    let answer = String::from_utf8_lossy(bytes);
    for (task, _, truth) in items() {
        in_range(task.name(), score_task(*task, &answer, truth))?;
        in_range(task.name(), score(&answer, truth))?;
    }
    Ok(())
}

/// Every task's real answer against a mutated ground truth.
fn check_truth(bytes: &[u8]) -> Result<(), String> {
    let truth = String::from_utf8_lossy(bytes);
    for (task, answer, _) in items() {
        in_range(task.name(), score_task(*task, answer, &truth))?;
        in_range(task.name(), score(answer, &truth))?;
    }
    Ok(())
}

#[test]
fn fuzz_task_answers() {
    let seeds: Vec<Vec<u8>> = items()
        .iter()
        .map(|(_, a, _)| a.as_bytes().to_vec())
        .collect();
    let tokens = [
        "up ",
        "down ",
        "left ",
        "right ",
        "infeasible",
        "{\"0\": 1",
        "}",
        "[",
        "]",
        ",",
        ":",
        "\"",
        "-1",
        "1e309",
        "99999999999999999999",
        "\n",
        "é",
        "🦀",
        "\u{0}",
        "NaN",
        "null",
    ];
    fuzz("task answers", &seeds, &tokens, check_answer);
}

#[test]
fn fuzz_task_ground_truths() {
    let seeds: Vec<Vec<u8>> = items()
        .iter()
        .map(|(_, _, g)| g.as_bytes().to_vec())
        .collect();
    let tokens = [
        "{\"task\":\"maze-path\",",
        "\"steps\":",
        "null",
        "\"rows\":4294967295",
        "\"open\":\"",
        "[[0,1]]",
        "\"n\":",
        "\"k\":0",
        "-",
        "1e309",
        "\"",
        ",",
        "}",
        "]",
        "é",
    ];
    fuzz("task ground truths", &seeds, &tokens, check_truth);
}
