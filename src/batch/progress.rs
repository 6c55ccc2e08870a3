//! The progress bar of long runs: levels, levels/s and ETA on stderr, drawn only when stderr is
//! a terminal and `--quiet` is not given (indicatif hides itself otherwise).

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

/// A progress bar, or nothing.
pub struct Progress {
    bar: Option<ProgressBar>,
    /// Levels done before this process started (a resumed run).
    start: u64,
}

impl Progress {
    /// A bar over `total` levels, `done` of them done already, when `enabled` and stderr is a
    /// terminal.
    pub fn new(total: u64, done: u64, enabled: bool) -> Self {
        let bar = (enabled && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::new(total);
            bar.set_style(
                ProgressStyle::with_template(
                    "{elapsed_precise} [{bar:40}] {human_pos}/{human_len} levels  {msg}  ETA {eta}",
                )
                .expect("valid template")
                .progress_chars("=> "),
            );
            bar.set_position(done);
            bar
        });
        Self { bar, start: done }
    }

    /// Records `n` more levels done.
    pub fn advance(&self, n: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(n);
            let made = bar.position() - self.start;
            let rate = made as f64 / bar.elapsed().as_secs_f64().max(1e-3);
            bar.set_message(format!(
                "{} levels/s",
                crate::core::text::thousands(rate as u64)
            ));
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
