//! `warren export ARCHIVE --npy grids.npy | --jaxued levels.npz | --index I --tiled level.tmj | --ldtk level.ldtk | --parquet DIR`:
//! an archive's levels in the formats numpy, JAX training code and the Tiled editor load
//! directly (see [`crate::export`]), or as a Parquet dataset folder in the Hugging Face Hub's
//! layout (`DIR/data/train-0000K-of-0000N.parquet`, as `generate --format parquet` writes it).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Result, bail};

use crate::archive::{Archive, FOOTER_BATCH_CRC32, ParquetWriter};

/// Arguments of `export`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The archive to export.
    archive: PathBuf,
    /// Write every grid as one NumPy array (N, H, W) of uint8 cell codes (levels of one size).
    #[arg(long, value_name = "OUT.npy")]
    npy: Option<PathBuf>,
    /// Write maze (lattice), dmg, regions, grammar or map levels as JaxUED maze levels:
    /// wall_map (padded with walls to the largest grid), goal_pos, agent_pos (the levels'
    /// start and goal metrics), agent_dir, width, height.
    #[arg(long, value_name = "OUT.npz")]
    jaxued: Option<PathBuf>,
    /// Write level `--index` as a Tiled map (its tileset image goes beside it, `.tiles.png`;
    /// for `map` levels also the owner layer's tileset image, `.owners.png`).
    #[arg(long, value_name = "OUT.tmj")]
    tiled: Option<PathBuf>,
    /// Write level `--index` as an LDtk project with one IntGrid layer (and an `Owner` IntGrid
    /// layer for `map` levels).
    #[arg(long, value_name = "OUT.ldtk")]
    ldtk: Option<PathBuf>,
    /// Write every level as the `train` split of a Parquet dataset folder in the Hugging Face
    /// Hub's layout (`DIR/data/train-00000-of-0000N.parquet`, zstd), with the archive's
    /// metadata; `warren verify DIR` checks it.
    #[arg(long, value_name = "DIR")]
    parquet: Option<PathBuf>,
    /// The level to write as a map or project (its `index`).
    #[arg(long, default_value_t = 0)]
    index: u64,
    /// No summary line.
    #[arg(long, short)]
    quiet: bool,
}

/// Runs `export`.
pub fn run(args: Args) -> Result<ExitCode> {
    let outputs = [
        &args.npy,
        &args.jaxued,
        &args.tiled,
        &args.ldtk,
        &args.parquet,
    ];
    if outputs.iter().all(|o| o.is_none()) {
        bail!(
            "nothing to export: give --npy OUT.npy, --jaxued OUT.npz, --tiled OUT.tmj, \
             --ldtk OUT.ldtk or --parquet DIR"
        );
    }
    for out in outputs.into_iter().flatten() {
        super::check_output_folder(out)?;
    }
    let archive = Archive::open(&args.archive)?;
    let report = |what: &str, out: &PathBuf, (n, h, w): (u64, u16, u16)| {
        if !args.quiet {
            eprintln!(
                "warren: {} levels of {w}x{h} written to {} ({what})",
                super::thousands(n),
                out.display()
            );
        }
    };
    if let Some(out) = &args.npy {
        report(
            "uint8 cell codes, shape (N, H, W)",
            out,
            crate::export::write_npy(&archive, out)?,
        );
    }
    if let Some(out) = &args.jaxued {
        report(
            "JaxUED maze levels",
            out,
            crate::export::write_jaxued(&archive, out)?,
        );
    }
    if let Some(out) = &args.tiled {
        let images = crate::export::write_tiled(&archive, args.index, out)?;
        if !args.quiet {
            let images: Vec<String> = images.iter().map(|p| p.display().to_string()).collect();
            let noun = if images.len() == 1 { "image" } else { "images" };
            eprintln!(
                "warren: level {} written to {} (Tiled map; tileset {noun} {})",
                args.index,
                out.display(),
                images.join(", ")
            );
        }
    }
    if let Some(out) = &args.ldtk {
        crate::export::write_ldtk(&archive, args.index, out)?;
        if !args.quiet {
            eprintln!(
                "warren: level {} written to {} (LDtk project)",
                args.index,
                out.display()
            );
        }
    }
    if let Some(dir) = &args.parquet {
        let (levels, bytes, files) = write_parquet(&archive, dir)?;
        if !args.quiet {
            let noun = if files.len() == 1 { "file" } else { "files" };
            eprintln!(
                "warren: {} levels written to {} (Parquet dataset, {} {noun}, {:.1} MB, split \
                 `train`)",
                super::thousands(levels),
                dir.display(),
                files.len(),
                bytes as f64 / 1e6
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes every batch of `archive` as the `train` split of the Parquet dataset folder `dir`,
/// with the archive's footer minus its IPC batch checksums (which describe the IPC bytes);
/// returns the levels, the bytes and the files written.
fn write_parquet(archive: &Archive, dir: &Path) -> Result<(u64, u64, Vec<PathBuf>)> {
    let mut writer = ParquetWriter::create(dir, "train", archive.schema())?;
    let mut levels = 0u64;
    for b in 0..archive.batch_count() {
        let batch = archive.batch(b)?;
        levels += batch.num_rows() as u64;
        writer.write(&batch)?;
        drop(batch);
        archive.release(b);
    }
    let mut footer: Vec<(String, String)> = archive
        .footer_metadata()
        .iter()
        .filter(|(k, _)| k.as_str() != FOOTER_BATCH_CRC32)
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    // Sorted: the same archive always gives the same bytes.
    footer.sort();
    let (bytes, files) = writer.finish(&footer)?;
    Ok((levels, bytes, files))
}
