//! A stored run: what an archive's metadata says of the run that made it (its profile as TOML,
//! the files that profile names, its master seed), and its generator built again from those
//! alone, whatever the folder or the files on disk now. `warren verify`, the refill of
//! `warren merge` and the Python package's `verify` all rebuild a run's generator here.

use std::path::Path;

use crate::archive::{Archive, ArchiveError, LevelSource, RunMeta};
use crate::profile::{GeneratorTask, Profile, ProfileError};

/// Why a stored run could not be read.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The archive cannot be opened, or its `warren.*` metadata is missing or malformed.
    #[error(transparent)]
    Archive(#[from] ArchiveError),
    /// The stored profile does not parse.
    #[error(transparent)]
    Profile(#[from] ProfileError),
}

/// A run as an archive stores it: its metadata and its parsed profile.
///
/// ```no_run
/// # use warren::run::Run;
/// # use warren::profile::GeneratorTask;
/// # use warren::Generator;
/// struct Metrics;
/// impl GeneratorTask for Metrics {
///     type Output = usize;
///     fn run<G: Generator>(self, generator: &G) -> usize {
///         generator.columns().metrics.len()
///     }
/// }
/// let run = Run::from_archive("mazes.arrow".as_ref())?;
/// let metrics = run.with_generator(Metrics)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Run {
    meta: RunMeta,
    profile: Profile,
}

impl Run {
    /// The run stored in the archive at `path`.
    ///
    /// # Errors
    /// The archive cannot be opened or its metadata read (the message names the file); its
    /// stored profile does not parse (named `PATH (stored profile)`).
    ///
    /// # Runtime
    /// Opens the archive (its footer and schema) and parses the profile: well under a
    /// millisecond beside the I/O.
    pub fn from_archive(path: &Path) -> Result<Run, RunError> {
        Run::from_source(&Archive::open(path)?)
    }

    /// The run stored with the levels of `source` (an archive or a Parquet dataset).
    ///
    /// # Errors
    /// As [`from_archive`](Self::from_archive).
    pub fn from_source(source: &dyn LevelSource) -> Result<Run, RunError> {
        let meta = source.run_meta()?;
        Ok(Run::from_meta(meta, &source.path().display().to_string())?)
    }

    /// The run `meta` describes; messages call its source `label`, and its profile
    /// `LABEL (stored profile)`.
    ///
    /// # Errors
    /// The stored profile does not parse.
    pub fn from_meta(meta: RunMeta, label: &str) -> Result<Run, ProfileError> {
        Run::from_meta_as(meta, &format!("{label} (stored profile)"))
    }

    /// As [`from_meta`](Self::from_meta), the stored profile called `origin` in messages
    /// (the Python package's `the table's warren.profile`).
    ///
    /// # Errors
    /// The stored profile does not parse.
    pub fn from_meta_as(meta: RunMeta, origin: &str) -> Result<Run, ProfileError> {
        let profile = Profile::from_toml(&meta.profile, origin)?;
        Ok(Run { meta, profile })
    }

    /// What the archive's metadata says of the run.
    pub fn meta(&self) -> &RunMeta {
        &self.meta
    }

    /// The run's profile, as stored.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// Runs `f` with the profile's files as stored with the levels as the only files there are
    /// (see [`crate::core::files`]); with none stored, `f` reads the disk as usual.
    pub fn with_files<T>(&self, f: impl FnOnce() -> T) -> T {
        if self.meta.files.is_empty() {
            f()
        } else {
            crate::core::files::with_embedded(self.meta.files.clone(), f)
        }
    }

    /// Builds the run's generator again, from its stored profile and files alone, and runs
    /// `task` with it.
    ///
    /// # Errors
    /// The generator cannot be built (a stored rule or table file does not check out).
    ///
    /// # Runtime
    /// One generator construction (parsing any rule or table files it names).
    pub fn with_generator<T: GeneratorTask>(&self, task: T) -> Result<T::Output, ProfileError> {
        self.with_files(|| self.profile.with_generator(task))
    }

    /// As [`with_generator`](Self::with_generator), but for a run whose metadata records a
    /// mixture of the profile's variants (`warren pack`) builds that
    /// [`Mixture`](crate::profile::Mixture) instead. Kept apart from `with_generator` so that
    /// only the tasks that may meet a mixture (`verify`) are built for it.
    ///
    /// # Errors
    /// As [`with_generator`](Self::with_generator); a variant that does not apply.
    pub fn with_generator_or_mixture<T: GeneratorTask>(
        &self,
        task: T,
    ) -> Result<T::Output, ProfileError> {
        match &self.meta.mixture {
            Some(m) => self.with_files(|| self.profile.with_mixture(m, task)),
            None => self.with_generator(task),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Generator;
    use crate::run::tests::{temp_dir, write_run};

    struct Metrics;

    impl GeneratorTask for Metrics {
        type Output = Vec<&'static str>;

        fn run<G: Generator>(self, generator: &G) -> Self::Output {
            generator.columns().metrics.iter().map(|m| m.name).collect()
        }
    }

    #[test]
    fn an_archive_gives_back_its_profile_and_generator() {
        let dir = temp_dir("stored");
        let path = dir.join("m.arrow");
        write_run(&path, 40, 7, crate::batch::Shard::default(), false);
        let run = Run::from_archive(&path).unwrap();
        assert_eq!(run.meta().master_seed, 7);
        assert_eq!(run.profile().kind(), "maze");
        let metrics = run.with_generator(Metrics).unwrap();
        assert!(metrics.contains(&"dead_ends"), "{metrics:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_broken_stored_profile_is_named_after_its_source() {
        let dir = temp_dir("stored-broken");
        let path = dir.join("m.arrow");
        write_run(&path, 10, 1, crate::batch::Shard::default(), false);
        let mut meta = Run::from_archive(&path).unwrap().meta().clone();
        meta.profile = "kind = 3".into();
        let e = Run::from_meta(meta, "x.arrow").unwrap_err().to_string();
        assert!(e.starts_with("x.arrow (stored profile):"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
