//! `inspect`'s variety lines: distinct levels up to symmetry (every kind with a
//! `canonical_hash`), and for `map` archives the mean distance between two layouts' rooms.

use std::collections::HashSet;

use anyhow::Result;
use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, UInt64Type};

use crate::archive::LevelSource;
use crate::map::variety::{VARIETY_SAMPLE, mean_pairwise_distance, mean_radius};

/// Prints `variety` (distinct canonical hashes) and, for maps, `room spread`.
pub(super) fn print_variety(source: &dyn LevelSource, generator: &str) -> Result<()> {
    let schema = source.schema().clone();
    let Ok(hash_col) = schema.index_of("canonical_hash") else {
        return Ok(());
    };
    let rooms: Option<Vec<usize>> = (generator == "map")
        .then(|| {
            ["room_x0", "room_y0", "room_x1", "room_y1"]
                .iter()
                .map(|c| schema.index_of(c).ok())
                .collect()
        })
        .flatten();
    let mut seen = HashSet::new();
    let mut rows = 0u64;
    let mut layouts: Vec<Vec<(f64, f64)>> = Vec::new();
    for b in 0..source.batch_count() {
        let batch = source.batch(b)?;
        let hashes = batch.column(hash_col).as_primitive::<UInt64Type>();
        rows += hashes.len() as u64;
        seen.extend(hashes.values().iter().copied());
        if let Some(cols) = &rooms {
            let lists: Vec<_> = cols
                .iter()
                .map(|&c| batch.column(c).as_list::<i32>())
                .collect();
            for i in 0..batch.num_rows() {
                if layouts.len() == VARIETY_SAMPLE {
                    break;
                }
                let v: Vec<Vec<i32>> = lists
                    .iter()
                    .map(|l| l.value(i).as_primitive::<Int32Type>().values().to_vec())
                    .collect();
                layouts.push(
                    (0..v[0].len())
                        .map(|r| {
                            (
                                f64::from(v[0][r] + v[2][r]) / 2.0,
                                f64::from(v[1][r] + v[3][r]) / 2.0,
                            )
                        })
                        .collect(),
                );
            }
        }
        source.release(b);
    }
    if rows == 0 {
        return Ok(());
    }
    println!(
        "variety      {} distinct of {} levels up to the 8 grid symmetries ({:.2}%; \
         canonical_hash)",
        super::thousands(seen.len() as u64),
        super::thousands(rows),
        100.0 * seen.len() as f64 / rows as f64
    );
    if let (Some(d), Some(r)) = (mean_pairwise_distance(&layouts), mean_radius(&layouts)) {
        println!(
            "room spread  {d:.2} tiles, {:.1}% of the mean room radius ({r:.2} tiles): a room's \
             mean distance between two layouts, centred, under the symmetry that brings them \
             closest (first {} levels, every pair)",
            100.0 * d / r,
            layouts.len()
        );
    }
    Ok(())
}
