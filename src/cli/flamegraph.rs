//! `--flamegraph OUT.svg` on `bench` and `generate`: samples every thread of the process with
//! pprof (about 1,000 times a second) while the run goes, then writes the samples as a
//! flamegraph SVG (atomically). Release builds keep line tables, so frames name warren's
//! functions. Needs the `flamegraph` feature (on by default) on a Unix system.

use std::path::{Path, PathBuf};

use anyhow::Result;

/// A running sampler; [`Flamegraph::finish`] writes the picture.
pub struct Flamegraph {
    out: PathBuf,
    #[cfg(all(unix, feature = "flamegraph"))]
    guard: pprof::ProfilerGuard<'static>,
}

/// Samples per second: a prime, so sampling does not beat in step with periodic work.
#[cfg(all(unix, feature = "flamegraph"))]
const FREQUENCY: i32 = 997;

impl Flamegraph {
    /// Starts sampling for a flamegraph to be written to `out` (checked writable first, so a bad
    /// path fails before the run, not after it).
    pub fn start(out: &Path) -> Result<Self> {
        if out.extension().is_none_or(|e| e != "svg") {
            anyhow::bail!("{}: a flamegraph is an SVG picture (`.svg`)", out.display());
        }
        super::check_output_folder(out)?;
        Self::start_sampling(out)
    }

    #[cfg(all(unix, feature = "flamegraph"))]
    fn start_sampling(out: &Path) -> Result<Self> {
        let guard = pprof::ProfilerGuardBuilder::default()
            .frequency(FREQUENCY)
            // Unwinding through these from a signal handler can deadlock (pprof's advice).
            .blocklist(&["libc", "libgcc", "pthread", "vdso"])
            .build()
            .map_err(|e| anyhow::anyhow!("cannot start the sampling profiler: {e}"))?;
        Ok(Self {
            out: out.to_path_buf(),
            guard,
        })
    }

    #[cfg(not(all(unix, feature = "flamegraph")))]
    fn start_sampling(_out: &Path) -> Result<Self> {
        anyhow::bail!(
            "this warren was built without flamegraphs (build with the `flamegraph` feature, \
             on a Unix system)"
        )
    }

    /// Stops sampling and writes the flamegraph; returns how many samples it holds.
    #[cfg(all(unix, feature = "flamegraph"))]
    pub fn finish(self) -> Result<u64> {
        let report = self
            .guard
            .report()
            .build()
            .map_err(|e| anyhow::anyhow!("cannot resolve the samples: {e}"))?;
        let samples = report.data.values().map(|&n| n as u64).sum();
        let mut svg = Vec::new();
        report
            .flamegraph(&mut svg)
            .map_err(|e| anyhow::anyhow!("cannot draw the flamegraph: {e}"))?;
        drop(self.guard);
        super::write_atomic(&self.out, &svg)?;
        Ok(samples)
    }

    /// Stops sampling and writes the flamegraph; returns how many samples it holds.
    #[cfg(not(all(unix, feature = "flamegraph")))]
    pub fn finish(self) -> Result<u64> {
        let _ = self.out;
        unreachable!("a Flamegraph cannot be started without the flamegraph feature")
    }

    /// Where the picture goes.
    pub fn out(&self) -> &Path {
        &self.out
    }
}
