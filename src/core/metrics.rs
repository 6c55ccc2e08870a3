//! Typed metrics: each kind declares its metric columns once, as a struct whose fields are the
//! columns ([`metrics!`](crate::metrics)). The macro derives the column list (name, Arrow type,
//! doc) in field order, the conversion to the `f64` row a [`Level`](crate::Level) carries, and
//! the conversion back that `verify` uses, so no kind fills or reads metrics by position.

use crate::core::generator::MetricKind;

/// The Rust type of one metric field: `u32` for counts and ids, `f32` for ratios and lengths.
pub trait MetricValue: Copy + Default {
    /// The column type this field is stored as.
    const KIND: MetricKind;
    /// The value as a level's metric row carries it (exact for both types).
    fn to_f64(self) -> f64;
    /// The value back from a metric row (the column's type: truncates to `u32`, rounds to `f32`).
    fn from_f64(value: f64) -> Self;
}

impl MetricValue for u32 {
    const KIND: MetricKind = MetricKind::U32;

    #[inline]
    fn to_f64(self) -> f64 {
        f64::from(self)
    }

    #[inline]
    fn from_f64(value: f64) -> Self {
        value as u32
    }
}

impl MetricValue for f32 {
    const KIND: MetricKind = MetricKind::F32;

    #[inline]
    fn to_f64(self) -> f64 {
        f64::from(self)
    }

    #[inline]
    fn from_f64(value: f64) -> Self {
        value as f32
    }
}

/// Declares a kind's metrics as a struct and its column list:
///
/// ```
/// warren::metrics! {
///     /// What one level measures.
///     pub struct Counts => COUNT_METRICS {
///         rooms: u32 = "rooms in the level",
///         floor_share: f32 = "floor cells over all cells",
///     }
/// }
/// let m = Counts { rooms: 3, floor_share: 0.5 };
/// assert_eq!(COUNT_METRICS[1].name, "floor_share");
/// assert_eq!(m.to_array(), [3.0, 0.5]);
/// assert_eq!(Counts::from_values(&m.to_array()), Some(m));
/// ```
///
/// The struct gets one public field per column (documented by the column's doc), `Default`,
/// `to_array` (the row in column order), `write_to` (the row into a reused `Vec`) and
/// `from_values` (a stored row back, `None` when its length is not the column count).
#[macro_export]
macro_rules! metrics {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident => $specs:ident {
            $($field:ident: $ty:ty = $doc:literal,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq)]
        $vis struct $name {
            $(#[doc = $doc] pub $field: $ty,)*
        }

        #[doc = concat!("The metric columns of [`", stringify!($name), "`], in field order.")]
        $vis const $specs: [$crate::MetricSpec; [$(stringify!($field)),*].len()] = [
            $($crate::MetricSpec {
                name: stringify!($field),
                kind: <$ty as $crate::core::metrics::MetricValue>::KIND,
                doc: $doc,
            },)*
        ];

        impl $name {
            /// The metric row, in column order.
            pub fn to_array(self) -> [f64; $specs.len()] {
                [$($crate::core::metrics::MetricValue::to_f64(self.$field)),*]
            }

            /// Replaces `out` with the metric row (keeping its allocation).
            pub fn write_to(&self, out: &mut Vec<f64>) {
                out.clear();
                out.extend(self.to_array());
            }

            /// The metrics of a stored row; `None` when it does not hold one value per column.
            pub fn from_values(values: &[f64]) -> Option<Self> {
                let [$($field),*] = <[f64; $specs.len()]>::try_from(values).ok()?;
                Some(Self {
                    $($field: $crate::core::metrics::MetricValue::from_f64($field),)*
                })
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::metrics! {
        /// Two metrics.
        struct Pair => PAIR {
            count: u32 = "a count",
            ratio: f32 = "a ratio",
        }
    }

    #[test]
    fn columns_follow_the_fields() {
        assert_eq!(PAIR.len(), 2);
        assert_eq!((PAIR[0].name, PAIR[0].kind), ("count", MetricKind::U32));
        assert_eq!((PAIR[1].name, PAIR[1].kind), ("ratio", MetricKind::F32));
        assert_eq!(PAIR[1].doc, "a ratio");
    }

    #[test]
    fn rows_round_trip_and_check_their_length() {
        let p = Pair {
            count: 7,
            ratio: 0.25,
        };
        let mut row = vec![9.0; 5];
        p.write_to(&mut row);
        assert_eq!(row, [7.0, 0.25]);
        assert_eq!(Pair::from_values(&row), Some(p));
        assert_eq!(Pair::from_values(&row[..1]), None);
    }
}
