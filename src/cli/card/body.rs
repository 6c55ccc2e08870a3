//! The Markdown body of `warren card`'s README.md, after the front matter: what the levels
//! are, the command that makes them again, the columns, the legend, the metrics, the sample
//! sheet and how to load them.

use std::fmt::Write as _;
use std::path::Path;

use arrow_schema::DataType;

use super::contents::Card;
use crate::archive::DATA_DIR;
use crate::archive::{Compression, DOC_KEY, RunMeta};
use crate::cli::thousands;
use crate::profile::{KindFacts, Profile};

/// The Markdown after the front matter; `sample` is how many levels `sample.png` holds,
/// `outside` the profile's files that could not be written beside it.
pub(super) fn body(card: &Card, sample: Option<usize>, outside: &[String]) -> String {
    let first = &card.splits[0];
    let run = &first.run;
    let levels: u64 = card.splits.iter().map(|s| s.levels).sum();
    let mut md = format!("\n# {}\n\n", card.pretty_name);
    let _ = writeln!(
        md,
        "{} procedurally generated game levels of warren's `{}` kind: {}. Made by warren \
         {} from {}, master seed {}.\n",
        thousands(levels),
        run.generator,
        kind_text(&run.generator),
        run.version,
        profile_text(run),
        run.master_seed
    );
    md += "| split | levels | failed seeds | files |\n|---|---|---|---|\n";
    for s in &card.splits {
        let files = match &card.archive {
            Some((file, _)) => format!("`{file}`"),
            None => format!("`{DATA_DIR}/{}-*.parquet`", s.name),
        };
        let _ = writeln!(
            md,
            "| {} | {} | {} | {files} |",
            s.name,
            thousands(s.levels),
            thousands(s.footer.failed())
        );
    }
    if let Some(selection) = &run.selection {
        let mut kept = Vec::new();
        if selection.unique {
            kept.push(format!(
                "the first level of each `{}`",
                crate::batch::unique_key(selection.canonical)
            ));
        }
        if let Some(filter) = &selection.filter {
            kept.push(format!("the levels where `{filter}`"));
        }
        if let Some(quota) = &selection.quota {
            kept.push(format!("levels in the shares of the quota `{quota}`"));
        }
        for cap in &selection.max_share {
            kept.push(format!("at most the share `{cap}` of any one value"));
        }
        let _ = writeln!(md, "\nThe run kept only {}.", kept.join(" and "));
    }
    md += &regenerate_section(card, outside);
    md += &columns_section(card);
    md += &legend_section(card);
    md += &metrics_section(card);
    if let Some(drawn) = sample {
        let _ = writeln!(
            md,
            "\n## Sample\n\n![The first {drawn} levels of split {}](sample.png)\n\n\
             The first {drawn} levels of split `{}`, in index order.",
            first.name, first.name
        );
    }
    md += &loading_section(card);
    let _ = writeln!(
        md,
        "\n## Licence\n\n`{}`, as chosen by whoever published these levels (`warren card \
         --license`).",
        card.license
    );
    md
}

/// What the card calls `kind`'s levels: the registry's card text.
fn kind_text(kind: &str) -> &'static str {
    KindFacts::of(kind).map_or("levels", |k| k.card)
}

/// Which profile made the levels: the built-in one, or the keys in which it differs from it.
fn profile_text(run: &RunMeta) -> String {
    let kind = &run.generator;
    let section = |text: &str| -> Option<toml::Table> {
        match toml::from_str::<toml::Table>(text).ok()?.remove(kind)? {
            toml::Value::Table(t) => Some(t),
            _ => None,
        }
    };
    let builtin = Profile::builtin(kind)
        .ok()
        .and_then(|p| section(&p.to_toml()));
    let (Some(ours), Some(builtin)) = (section(&run.profile), builtin) else {
        return "its stored profile (`profile.toml`)".to_string();
    };
    let changed: Vec<String> = ours
        .iter()
        .filter(|(key, value)| builtin.get(*key) != Some(value))
        .map(|(key, value)| format!("`{key} = {value}`"))
        .collect();
    if changed.is_empty() {
        format!("the built-in `{kind}` profile")
    } else {
        format!("the built-in `{kind}` profile with {}", changed.join(", "))
    }
}

/// The `warren generate` options after the profile that make `run`'s levels again; `None`
/// without a shard record (levels written from a start index, not a run).
fn generate_args(run: &RunMeta) -> Option<String> {
    let shard = run.shard.as_ref()?;
    let mut args = format!("--count {} --seed {}", shard.total, run.master_seed);
    if shard.shard.count > 1 {
        let _ = write!(args, " --shard {}", shard.shard);
    }
    if let Some(selection) = &run.selection {
        if selection.unique {
            args += if selection.canonical {
                " --unique=canonical"
            } else {
                " --unique"
            };
        }
        if let Some(filter) = &selection.filter {
            let _ = write!(args, " --where {}", shell_quote(filter));
        }
        if let Some(quota) = &selection.quota {
            let _ = write!(args, " --quota {}", shell_quote(quota));
        }
        for cap in &selection.max_share {
            let _ = write!(args, " --max-share {}", shell_quote(cap));
        }
        if selection.max_tries != shard.total.saturating_mul(10).max(10_000) {
            let _ = write!(args, " --max-tries {}", selection.max_tries);
        }
    }
    Some(args)
}

/// `s` as one shell word: as it is when nothing in it is special, else single-quoted.
fn shell_quote(s: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./=:,+@%".contains(c);
    if !s.is_empty() && s.chars().all(plain) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// How to make the levels again: the command, and what it gives.
fn regenerate_section(card: &Card, outside: &[String]) -> String {
    let run = &card.splits[0].run;
    let mut md = String::from("\n## Making the levels again\n\n");
    let Some(args) = generate_args(run) else {
        let _ = writeln!(
            md,
            "These levels carry no shard record (they were written from a start index, not by \
             a run), so no one command makes exactly them: their profile is `profile.toml`, \
             their master seed {}.",
            run.master_seed
        );
        return md;
    };
    let _ = writeln!(
        md,
        "Every level is a pure function of the profile, the master seed and its index. With \
         warren {} (another version may make other levels, or the same levels in other bytes), \
         in this folder:\n",
        run.version
    );
    if let Some(split) = &run.split {
        let shares: Vec<String> = split
            .fractions
            .iter()
            .map(|(name, share)| format!("--{name} {share}"))
            .collect();
        let _ = writeln!(
            md,
            "```sh\nwarren generate profile.toml {args} --out {source}\nwarren split {source} \
             {} --out splits/\n```\n\nmakes the archive these levels were split from, then \
             its splits; `splits/{}.arrow` holds these levels.",
            shares.join(" "),
            split.name,
            source = shell_quote(&split.source),
        );
    } else if let Some((file, compression)) = &card.archive {
        let name = Path::new(file)
            .file_name()
            .map_or_else(|| file.clone(), |n| n.to_string_lossy().into_owned());
        let compress = match compression {
            Compression::None => String::new(),
            other => format!(" --compression {}", other.name()),
        };
        let _ = writeln!(
            md,
            "```sh\nwarren generate profile.toml {args}{compress} --out {}\n```\n\nwrites this \
             archive again, byte for byte, and `warren generate profile.toml {args} --format \
             parquet --out DIR` the same levels as a Parquet dataset in the Hub's layout.",
            shell_quote(&name)
        );
    } else {
        let _ = writeln!(
            md,
            "```sh\nwarren generate profile.toml {args} --format parquet --out regenerated\n\
             ```\n\nwrites `regenerated/{DATA_DIR}/`, the same files as `{DATA_DIR}/`, byte for \
             byte."
        );
    }
    md += "\nAny `--threads` gives the same bytes; warren's default `--chunk-size` is assumed.\n";
    let inside: Vec<String> = run
        .files
        .keys()
        .filter(|p| !outside.contains(p))
        .map(|p| format!("`{p}`"))
        .collect();
    if !inside.is_empty() {
        let _ = writeln!(
            md,
            "The profile reads {}, written here beside it.",
            inside.join(", ")
        );
    }
    if !outside.is_empty() {
        let _ = writeln!(
            md,
            "The profile reads {}, outside this folder: put them there first (their contents \
             are in the data's `warren.files` metadata).",
            outside
                .iter()
                .map(|p| format!("`{p}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    md
}

/// What the columns that are not metrics hold.
fn column_doc(name: &str) -> &'static str {
    match name {
        "index" => "the level's index in the run (its seed is `mix(master_seed, index)`)",
        "seed" => "the level's own seed",
        "layout_hash" => "a hash of the level's content, metrics left out (one per layout)",
        "grid_width" => "tile map columns",
        "grid_height" => "tile map rows",
        "grid" => "the tile map, row-major cell codes (legend below)",
        "vertex_x" | "vertex_y" => "vertex positions",
        "vertex_tag" => "each vertex's tag (legend below)",
        "edge_src" | "edge_dst" => "each edge's two vertices",
        "edge_flags" => {
            "bit 0 cosmetic, bit 1 subdivide, bit 2 maze passage; higher bits the kind's"
        }
        "room_x0" | "room_y0" | "room_x1" | "room_y1" => "each room's rectangle on the tile map",
        "rule_uses" => "how often each grammar rule was applied, in the order of `warren.rules`",
        _ => "",
    }
}

/// Every column that is not a metric, with its type and what it holds.
fn columns_section(card: &Card) -> String {
    let mut md = String::from(
        "\n## Columns\n\nOne row per level. Besides the metrics below:\n\n| column | type | \
         holds |\n|---|---|---|\n",
    );
    let metrics = &card.splits[0].metrics;
    for field in card.splits[0].source.schema().fields() {
        if metrics.iter().any(|m| m.name == *field.name()) {
            continue;
        }
        let doc = match field.metadata().get(DOC_KEY) {
            Some(doc) => doc.as_str(),
            None => column_doc(field.name()),
        };
        let kind = match (field.name().as_str(), card.columns.grid_shape) {
            ("grid", Some((w, h))) => format!("uint8 [{h}, {w}]"),
            _ => match field.data_type() {
                DataType::List(item) => format!("list of {}", item.data_type()),
                other => other.to_string(),
            }
            .to_lowercase(),
        };
        let _ = writeln!(md, "| `{}` | {kind} | {} |", field.name(), cell(doc));
    }
    md
}

/// `text` fit for a Markdown table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// The cell codes of the grid and the vertex tags of the graph.
fn legend_section(card: &Card) -> String {
    let run = &card.splits[0].run;
    let mut md = String::new();
    if card.columns.grid && !run.cell_codes.is_empty() {
        md += "\n## Cell codes\n\n| code | cell |\n|---|---|\n";
        for (code, name) in &run.cell_codes {
            let _ = writeln!(md, "| {code} | {} |", cell(&name.replace('_', " ")));
        }
    }
    if card.columns.tags && !run.tags.is_empty() {
        md += "\n## Vertex tags\n\n| tag | name |\n|---|---|\n";
        for (tag, name) in run.tags.iter().enumerate() {
            let _ = writeln!(md, "| {tag} | {} |", cell(name));
        }
    }
    md
}

/// A number for the metric table: integers whole, others with three decimals.
fn number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        format!("{v:.3}")
    }
}

/// Minimum, median, mean and maximum of every metric, one table per split.
fn metrics_section(card: &Card) -> String {
    let mut md = String::from("\n## Metrics\n");
    for s in &card.splits {
        if card.splits.len() > 1 {
            let _ = writeln!(md, "\n### {}", s.name);
        }
        md += "\n| metric | min | median | mean | max | counts |\n|---|---|---|---|---|---|\n";
        for m in &s.metrics {
            let mut stat = m.stat.clone();
            let [min, mean, max, _, median, _] = stat.summary().unwrap_or([f64::NAN; 6]);
            let _ = writeln!(
                md,
                "| `{}` | {} | {} | {mean:.3} | {} | {} |",
                m.name,
                number(min),
                number(median),
                number(max),
                cell(&m.doc)
            );
        }
    }
    md
}

/// How to load the levels with `datasets`, polars and pyarrow.
fn loading_section(card: &Card) -> String {
    let split = &card.splits[0].name;
    let mut md = String::from("\n## Loading\n\n");
    if let Some((file, _)) = &card.archive {
        let file = file.replace('\\', "/");
        if card.data_files.is_some() {
            let _ = writeln!(
                md,
                "```python\nfrom datasets import load_dataset\n\nlevels = \
                 load_dataset(\"path/to/this/folder\", split=\"{split}\")  # or \"user/name\" \
                 on the Hub\n```\n"
            );
        } else if card.columns.grid_shape.is_some() {
            let _ = writeln!(
                md,
                "`datasets` and the Hub's viewer cannot read this archive's one-size grid column \
                 (an `arrow.fixed_shape_tensor`); they read the Parquet layout, which `warren \
                 export {} --parquet DIR` writes (then `warren card DIR` writes its card).\n",
                shell_quote(&file)
            );
        } else {
            md += "`datasets` reads this archive once it lies in this card's folder: copy it \
                   here and run `warren card` again.\n\n";
        }
        // A JSON string is a Python string literal.
        let quoted = serde_json::to_string(&file).expect("strings serialise");
        let _ = writeln!(
            md,
            "```python\nimport polars as pl\n\nlevels = pl.read_ipc({quoted})\n```\n\n\
             ```python\nimport pyarrow as pa\n\nwith pa.memory_map({quoted}) as source:\n    \
             levels = pa.ipc.open_file(source).read_all()\n```"
        );
        return md;
    }
    let grid = match card.columns.grid_shape {
        Some((w, h)) => format!("\nlevels[0][\"grid\"].shape  # ({h}, {w}) cell codes"),
        None => String::new(),
    };
    let _ = writeln!(
        md,
        "```python\nfrom datasets import load_dataset\n\nlevels = load_dataset(\"path/to/this/\
         folder\", split=\"{split}\").with_format(\"numpy\")  # or \"user/name\" on the Hub\
         {grid}\n```\n\n```python\nimport polars as pl\n\nlevels = \
         pl.read_parquet(\"{DATA_DIR}/{split}-*.parquet\")\n```\n\n```python\nimport glob\n\n\
         import pyarrow.parquet as pq\n\nlevels = \
         pq.ParquetDataset(sorted(glob.glob(\"{DATA_DIR}/{split}-*.parquet\"))).read()\n```"
    );
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_words_are_quoted_only_when_needed() {
        assert_eq!(shell_quote("profile.toml"), "profile.toml");
        assert_eq!(
            shell_quote("solution_length >= 10"),
            "'solution_length >= 10'"
        );
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
    }
}
