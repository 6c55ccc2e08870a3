//! The scorers: one per task, each a pure function of an answer (untrusted text from a model)
//! and the item's ground truth (the JSON object its task wrote). Every answer gets a score in
//! [0, 1] in time linear in its length (answers over [`MAX_ANSWER_BYTES`] score 0 unread);
//! nothing here panics on any input.

use serde::Deserialize;

use crate::task::config::TaskName;
use crate::task::grid::{GridPuzzle, Move};
use crate::task::{graph_color, puzzle};

/// Answers longer than this score 0 without being read (1 MiB).
pub const MAX_ANSWER_BYTES: usize = 1 << 20;

/// The task a ground truth names (its `task` key), if it names one.
pub fn task_of(ground_truth: &str) -> Option<TaskName> {
    // Tasks write `{"task":"<name>",...}` first; anything else is parsed in full.
    if let Some(rest) = ground_truth.strip_prefix("{\"task\":\"")
        && let Some(end) = rest.find('"')
    {
        return TaskName::from_name(&rest[..end]);
    }
    #[derive(Deserialize)]
    struct Named<'a> {
        #[serde(borrow)]
        task: std::borrow::Cow<'a, str>,
    }
    let named: Named<'_> = serde_json::from_str(ground_truth).ok()?;
    TaskName::from_name(&named.task)
}

/// The score of `answer` for an item whose ground truth is `ground_truth`, the task read from
/// the ground truth; 0 when the ground truth is not one.
pub fn score(answer: &str, ground_truth: &str) -> f64 {
    match task_of(ground_truth) {
        Some(task) => score_task(task, answer, ground_truth),
        None => 0.0,
    }
}

/// The score of `answer` for a `task` item with `ground_truth`; 0 when the ground truth belongs
/// to another task or cannot be read.
pub fn score_task(task: TaskName, answer: &str, ground_truth: &str) -> f64 {
    if answer.len() > MAX_ANSWER_BYTES || task_of(ground_truth) != Some(task) {
        return 0.0;
    }
    let s = match task {
        TaskName::MazeSteps | TaskName::GridSteps => score_steps(answer, ground_truth),
        TaskName::MazePath => score_path(answer, ground_truth),
        TaskName::GraphColor => graph_color::score(answer, ground_truth),
        TaskName::ColoringPuzzle => puzzle::score(answer, ground_truth),
    };
    if s.is_finite() {
        s.clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// The answer with surrounding whitespace, one trailing full stop and surrounding quotes or
/// backticks taken off.
fn bare(answer: &str) -> &str {
    let a = answer.trim();
    let a = a.strip_suffix('.').unwrap_or(a).trim();
    a.trim_matches(|c| c == '"' || c == '\'' || c == '`').trim()
}

/// `maze-steps` and `grid-steps`: 1 when the answer is the step count as an integer, else 0.
fn score_steps(answer: &str, ground_truth: &str) -> f64 {
    #[derive(Deserialize)]
    struct Steps {
        steps: u64,
    }
    let Ok(truth) = serde_json::from_str::<Steps>(ground_truth) else {
        return 0.0;
    };
    let a = bare(answer);
    if a.is_empty() || a.len() > 20 || !a.bytes().all(|b| b.is_ascii_digit()) {
        return 0.0;
    }
    match a.parse::<u64>() {
        Ok(v) if v == truth.steps => 1.0,
        _ => 0.0,
    }
}

/// `maze-path`'s ground truth.
#[derive(Deserialize)]
struct PathTruth<'a> {
    rows: u32,
    cols: u32,
    start: [u32; 2],
    goal: [u32; 2],
    steps: Option<u32>,
    #[serde(borrow)]
    open: std::borrow::Cow<'a, str>,
}

/// `maze-path`, as reasoning-gym's `shortest_path` scores: 1 for any shortest path (or
/// `infeasible` when the goal cannot be reached), 0.5 for a longer path that reaches the goal
/// without crossing a wall, 0 otherwise.
fn score_path(answer: &str, ground_truth: &str) -> f64 {
    let Ok(t) = serde_json::from_str::<PathTruth<'_>>(ground_truth) else {
        return 0.0;
    };
    let cells = t.rows as usize * t.cols as usize;
    if cells == 0 || cells > 1 << 26 {
        return 0.0;
    }
    let mut p = GridPuzzle {
        rows: t.rows,
        cols: t.cols,
        start: (t.start[0], t.start[1]),
        goal: (t.goal[0], t.goal[1]),
        ..GridPuzzle::default()
    };
    if !GridPuzzle::read_open_hex(&t.open, cells, &mut p.open)
        || !p.is_open(i64::from(p.start.0), i64::from(p.start.1))
    {
        return 0.0;
    }
    let a = bare(answer);
    let Some(shortest) = t.steps else {
        return if a.eq_ignore_ascii_case("infeasible") {
            1.0
        } else {
            0.0
        };
    };
    let (mut r, mut c) = (i64::from(p.start.0), i64::from(p.start.1));
    let mut taken = 0u64;
    for word in a.split(|ch: char| ch.is_whitespace() || ch == ',' || ch == ';') {
        if word.is_empty() {
            continue;
        }
        let Some(m) =
            Move::from_word(word.trim_matches(|c| c == '"' || c == '\'' || c == '[' || c == ']'))
        else {
            return 0.0;
        };
        let (dr, dc) = m.delta();
        r += dr;
        c += dc;
        if !p.is_open(r, c) {
            return 0.0;
        }
        taken += 1;
    }
    if (r, c) != (i64::from(p.goal.0), i64::from(p.goal.1)) {
        return 0.0;
    }
    if taken == u64::from(shortest) {
        1.0
    } else {
        0.5
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PATH: &str = r#"{"task":"maze-path","rows":3,"cols":3,"start":[0,0],"goal":[2,2],"steps":4,"open":"fd8"}"#;

    #[test]
    fn steps_take_the_integer_and_nothing_else() {
        let t = r#"{"task":"maze-steps","steps":12}"#;
        assert_eq!(score("12", t), 1.0);
        assert_eq!(score(" 12.\n", t), 1.0);
        assert_eq!(score("13", t), 0.0);
        assert_eq!(score("-12", t), 0.0);
        assert_eq!(score("12 steps", t), 0.0);
        assert_eq!(score("99999999999999999999999", t), 0.0);
        assert_eq!(score_task(TaskName::MazePath, "12", t), 0.0);
    }

    #[test]
    fn paths_score_one_half_or_nothing() {
        // 111 / 110 / 111 in hex nibbles: 1111 1011 0111 -> "fb7"? Build it from the grid.
        let p = GridPuzzle {
            rows: 3,
            cols: 3,
            open: vec![true, true, true, true, false, true, true, true, true],
            start: (0, 0),
            goal: (2, 2),
        };
        let mut hex = String::new();
        p.open_hex(&mut hex);
        let t = PATH.replace("fd8", &hex);
        assert_eq!(score("right right down down", &t), 1.0);
        assert_eq!(score("down, down, right, right", &t), 1.0);
        assert_eq!(score("right right down down left right", &t), 0.5);
        assert_eq!(score("right down", &t), 0.0);
        assert_eq!(score("down right", &t), 0.0, "into the wall");
        assert_eq!(score("infeasible", &t), 0.0);
        let none = t.replace("\"steps\":4", "\"steps\":null");
        assert_eq!(score("Infeasible.", &none), 1.0);
        assert_eq!(score("right right down down", &none), 0.0);
    }

    #[test]
    fn hostile_input_scores_zero() {
        let t = r#"{"task":"maze-steps","steps":3}"#;
        for a in [
            "",
            "\u{0}",
            "[[[[",
            "{\"a\":1}",
            &"9".repeat(MAX_ANSWER_BYTES + 1),
        ] {
            assert_eq!(score(a, t), 0.0);
        }
        assert_eq!(score("3", "not json"), 0.0);
        assert_eq!(score("3", "{\"task\":\"maze-steps\"}"), 0.0);
        assert_eq!(
            score("up", &PATH.replace("\"rows\":3", "\"rows\":99999")),
            0.0
        );
    }
}
