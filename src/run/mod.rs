//! Whole runs after they are written: what an archive says of the run that made it, and the two
//! operations that make new archives of old ones without touching a level.
//!
//! - [`Run`]: a stored run, read back from an archive's metadata (its profile as TOML, the
//!   files that profile names, its master seed), whose generator can be built again from those
//!   alone. Every level is a pure function of (profile, master seed, index), so this is all
//!   `warren verify` needs to generate each level again and compare.
//! - [`merge`]: the shard archives of one run (`--shard I/N`, a job array) joined into the
//!   archive the unsharded run writes, level for level: every shard checked first, batches
//!   copied unchanged and CRC-checked, the output written atomically, a killed merge resumable;
//!   shards made with `--unique` or `--where` are merged in index order and the run made up to
//!   its full count with its stored profile.
//! - [`split`]: an archive split into train, val and test by `layout_hash`, so that no layout
//!   sits in two splits (the leak-free splits of DESIGN.md, "Tasks and identity").
//!
//! The command line's `warren merge` and `warren split` and the Python package's
//! `warren.merge` and `warren.split` are thin wrappers of these.

mod copy;
mod disjoint;
mod error;
mod merge;
mod options;
mod refill;
mod shards;
mod split;
mod stored;

pub use disjoint::{
    BUCKETS, DisjointError, DisjointReport, Identity as DisjointIdentity, Overlap, disjoint,
};
pub use error::{MergeError, SplitError};
pub use merge::{merge, merge_with};
pub use options::{MergeOptions, MergeSummary, Resumed};
pub use split::{SPLITS, SplitFormat, SplitOptions, SplitPart, SplitSummary, split, split_of};
pub use stored::{Run, RunError};

#[cfg(test)]
mod merge_tests;

#[cfg(test)]
pub(crate) mod tests {
    //! Runs written as `warren generate` writes them, for the tests of this module.

    use std::path::{Path, PathBuf};
    use std::sync::Arc;

    use crate::Generator;
    use crate::archive::{ArchiveWriter, RunMeta, level_schema};
    use crate::batch::{self, BatchOptions, Selection, Shard, ShardMeta};
    use crate::profile::{GeneratorTask, Profile};

    /// A fresh folder for one test.
    pub(crate) fn temp_dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("warren-run-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    struct Write<'a> {
        profile: &'a Profile,
        path: &'a Path,
        count: u64,
        seed: u64,
        shard: Shard,
        unique: bool,
    }

    impl GeneratorTask for Write<'_> {
        type Output = ();

        fn run<G: Generator>(self, generator: &G) {
            let selection = self.unique.then(|| Selection {
                unique: true,
                canonical: false,
                filter: None,
                max_tries: 10_000,
                earlier: None,
                ..Selection::default()
            });
            let metadata = RunMeta::new(generator, &self.profile.to_toml(), self.seed)
                .with_shard(ShardMeta::new(self.shard, self.count))
                .with_files(crate::core::files::last_built())
                .with_selection(selection.as_ref().map(Selection::to_meta))
                .to_metadata();
            let schema = Arc::new(level_schema(&generator.columns(), metadata));
            let opts = BatchOptions {
                count: self.count,
                seed: self.seed,
                threads: 2,
                shard: self.shard,
                start: 0,
                chunk_size: 64,
                progress: false,
                selection,
                resume: None,
                kept: Vec::new(),
            };
            let writer = ArchiveWriter::create(self.path, &schema).unwrap();
            batch::run(generator, schema, &opts, writer, Vec::new()).unwrap();
        }
    }

    /// Writes shard `shard` of a run of `count` small mazes from `seed` to `path` (keeping
    /// only unique layouts with `unique`), as `warren generate maze` does.
    pub(crate) fn write_run(path: &Path, count: u64, seed: u64, shard: Shard, unique: bool) {
        let mut profile = Profile::builtin("maze").unwrap();
        let side = if unique { 3 } else { 6 };
        profile.set(&format!("maze.width={side}")).unwrap();
        profile.set(&format!("maze.height={side}")).unwrap();
        let task = Write {
            profile: &profile,
            path,
            count,
            seed,
            shard,
            unique,
        };
        profile.with_generator(task).unwrap();
    }
}
