//! The layout library's choices as command-line values (`warren layout --spring`,
//! `--repulsion`): [`clap::ValueEnum`] for [`Spring`] and [`Repulsion`], written here so the
//! library does not depend on clap.
//!
//! Each value's name is its serde name (kebab-case) and its help the first sentence of the
//! variant's doc, without the full stop, as clap's derive writes them.

use clap::ValueEnum;
use clap::builder::PossibleValue;

use crate::layout::{Repulsion, Spring};

// NOTE: the help texts repeat the variants' docs in `layout::params`; change both together
// (`warren layout --help` shows these).
impl ValueEnum for Spring {
    fn value_variants<'a>() -> &'a [Self] {
        &[Self::Log, Self::Sigmoid, Self::Linear]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            Self::Log => PossibleValue::new("log").help(
                "Seed 000's law, `k ln(d / L)`: a strong push when short, a gentle pull when long",
            ),
            Self::Sigmoid => PossibleValue::new("sigmoid").help(
                "The seed's proposed alternative, `k tanh(2 (d / L - 1))`: bounded both ways",
            ),
            Self::Linear => PossibleValue::new("linear").help("Hooke's law, `k (d / L - 1)`"),
        })
    }
}

impl ValueEnum for Repulsion {
    fn value_variants<'a>() -> &'a [Self] {
        &[Self::Auto, Self::Scalar, Self::Simd, Self::BarnesHut]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            Self::Auto => PossibleValue::new("auto").help(
                "Exact SIMD for small graphs, Barnes-Hut from 700 vertices (`BARNES_HUT_FROM`)",
            ),
            Self::Scalar => PossibleValue::new("scalar")
                .help("Exact all-pairs, scalar (the reference the others are tested against)"),
            Self::Simd => PossibleValue::new("simd").help("Exact all-pairs on 8-lane SIMD"),
            Self::BarnesHut => PossibleValue::new("barnes-hut")
                .help("Barnes-Hut quadtree approximation (opening angle: theta)"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_parses_back_and_matches_its_serde_name() {
        fn check<T: ValueEnum + serde::Serialize + PartialEq + std::fmt::Debug>() {
            for v in T::value_variants() {
                let name = v.to_possible_value().expect("no hidden values");
                let serde_name = serde_json::to_value(v).unwrap();
                assert_eq!(serde_name.as_str(), Some(name.get_name()), "{v:?}");
                assert_eq!(&T::from_str(name.get_name(), false).unwrap(), v);
            }
        }
        check::<Spring>();
        check::<Repulsion>();
    }
}
