//! The search's tunable constants: pruning margins, the late move limits,
//! the reduction table and the aspiration window.
//!
//! Each constant is a named [`Tunable`] with a default, a range and the
//! step SPSA perturbs it by ([`crate::spsa`]). The engine offers each as a
//! USI spin option of the same name, so a match runner can set them
//! (`shogi match --option1 FutilityBase=90`), and [`SearchParams`] carries
//! their values into the search. Fractions are kept as integers in tenths
//! or hundredths, as the names say, so that every option is a spin.
//!
//! ```
//! use shogi_engine::search_params::{SearchParams, TUNABLES};
//! let mut p = SearchParams::default();
//! assert_eq!(p.futility_base, 100);
//! p.set("futilitybase", 90)?; // names are case-insensitive, as in USI
//! assert_eq!(p.futility_base, 90);
//! assert!(p.set("FutilityBase", 100_000).is_err()); // out of range
//! assert_eq!(p.values().len(), TUNABLES.len());
//! # Ok::<_, shogi_engine::search_params::ParamError>(())
//! ```

/// One tunable constant: its USI option name, default, range and SPSA step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tunable {
    /// The USI option name.
    pub name: &'static str,
    /// The value the engine plays with.
    pub default: i32,
    /// The least value accepted.
    pub min: i32,
    /// The greatest value accepted.
    pub max: i32,
    /// How far SPSA moves the value either way when it measures the
    /// gradient (its `c`; about what a self-play match can tell apart).
    pub step: i32,
}

impl Tunable {
    /// The `option` line `usi` lists for it.
    #[must_use]
    pub fn option_line(&self) -> String {
        format!(
            "option name {} type spin default {} min {} max {}",
            self.name, self.default, self.min, self.max
        )
    }
}

/// Why a value was not taken.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    /// No tunable of that name.
    #[error("no search parameter named {0:?}")]
    Unknown(String),
    /// A value outside the tunable's range.
    #[error("{name} takes {min} to {max}, not {value}")]
    OutOfRange {
        /// The tunable.
        name: &'static str,
        /// The value given.
        value: i64,
        /// The least value.
        min: i32,
        /// The greatest value.
        max: i32,
    },
}

macro_rules! tunables {
    ($(
        $(#[doc = $doc:literal])*
        $field:ident: $name:literal = $default:literal, $min:literal..=$max:literal, step $step:literal;
    )*) => {
        /// The values of the [`TUNABLES`] a search uses.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $($(#[doc = $doc])* pub $field: i32,)*
        }

        impl Default for SearchParams {
            fn default() -> Self {
                SearchParams { $($field: $default,)* }
            }
        }

        /// Every tunable, in the order of [`SearchParams::values`].
        pub const TUNABLES: &[Tunable] = &[
            $(Tunable { name: $name, default: $default, min: $min, max: $max, step: $step },)*
        ];

        impl SearchParams {
            /// The values in [`TUNABLES`] order.
            #[must_use]
            pub fn values(&self) -> Vec<i32> {
                vec![$(self.$field),*]
            }

            fn slots(&mut self) -> Vec<&mut i32> {
                vec![$(&mut self.$field),*]
            }
        }
    };
}

tunables! {
    /// Reverse futility pruning: the static evaluation this far above beta
    /// per ply of depth returns it.
    reverse_futility_margin: "ReverseFutilityMargin" = 150, 30..=400, step 15;
    /// Futility pruning of quiet moves: the static evaluation plus this
    /// plus [`SearchParams::futility_per_ply`] a ply still below alpha.
    futility_base: "FutilityBase" = 100, 0..=400, step 15;
    /// Futility margin added per ply of depth.
    futility_per_ply: "FutilityPerPly" = 120, 30..=300, step 15;
    /// A losing capture at depth 1-3 is pruned when its SEE is below
    /// −this × depth.
    bad_capture_margin: "BadCaptureMargin" = 120, 0..=400, step 15;
    /// Late move pruning: at depth 1-3 the quiet moves after the
    /// (this + [`SearchParams::late_move_factor`] × depth²) / 10 first
    /// are not searched (half as many when not improving).
    late_move_base: "LateMoveBase" = 40, 10..=160, step 5;
    /// Late move pruning: tenths of a move per depth².
    late_move_factor: "LateMoveFactor" = 40, 10..=160, step 5;
    /// The reduction of a late quiet move is this / 100 + ln(depth) ×
    /// ln(move number) / ([`SearchParams::reduction_divisor`] / 100).
    reduction_base: "ReductionBase" = 50, 0..=200, step 10;
    /// The divisor of the reduction table, in hundredths.
    reduction_divisor: "ReductionDivisor" = 220, 100..=500, step 20;
    /// A quiet move whose history exceeds this is reduced a ply less.
    reduction_history: "ReductionHistory" = 4000, 0..=16384, step 600;
    /// The first aspiration window's half width around the last score.
    aspiration_delta: "AspirationDelta" = 40, 5..=200, step 6;
}

impl SearchParams {
    /// Sets the tunable named `name` (case-insensitive).
    ///
    /// # Errors
    /// [`ParamError::Unknown`] for a name not in [`TUNABLES`],
    /// [`ParamError::OutOfRange`] for a value outside its range.
    pub fn set(&mut self, name: &str, value: i64) -> Result<(), ParamError> {
        let i = index_of(name).ok_or_else(|| ParamError::Unknown(name.to_string()))?;
        let t = TUNABLES[i];
        if value < i64::from(t.min) || value > i64::from(t.max) {
            return Err(ParamError::OutOfRange {
                name: t.name,
                value,
                min: t.min,
                max: t.max,
            });
        }
        *self.slots().swap_remove(i) = value as i32;
        Ok(())
    }

    /// The parameters with `values` in [`TUNABLES`] order, each clamped
    /// to its range (extra values are ignored, missing ones left at the
    /// default).
    #[must_use]
    pub fn from_values(values: &[i32]) -> SearchParams {
        let mut p = SearchParams::default();
        for ((slot, &v), t) in p.slots().into_iter().zip(values).zip(TUNABLES) {
            *slot = v.clamp(t.min, t.max);
        }
        p
    }

    /// The reduction of a late quiet move at `depth` as the `count`-th move
    /// (before the adjustments for PV, improving and history).
    #[must_use]
    pub fn reduction(&self, depth: usize, count: usize) -> i32 {
        if depth == 0 || count == 0 {
            return 0;
        }
        self.reduction_of_logs((depth as f64).ln(), (count as f64).ln())
    }

    /// The reduction formula on the logarithms of the depth and the count.
    fn reduction_of_logs(&self, ln_depth: f64, ln_count: f64) -> i32 {
        let base = f64::from(self.reduction_base) / 100.0;
        let divisor = f64::from(self.reduction_divisor) / 100.0;
        (base + ln_depth * ln_count / divisor) as i32
    }

    /// Every [`reduction`](Self::reduction) for depths below `DEPTHS` and
    /// counts below `COUNTS`, each logarithm taken once (the same values:
    /// the same operations in the same order). A search builds it per call,
    /// so at a few hundred nodes a move the logarithms were most of the
    /// time.
    ///
    /// ```
    /// use shogi_engine::search_params::SearchParams;
    /// let p = SearchParams::default();
    /// let table = p.reductions::<16, 32>();
    /// assert_eq!(table[10][20], p.reduction(10, 20));
    /// ```
    #[must_use]
    pub fn reductions<const DEPTHS: usize, const COUNTS: usize>(&self) -> Vec<[i32; COUNTS]> {
        let ln: Vec<f64> = (0..DEPTHS.max(COUNTS)).map(|i| (i as f64).ln()).collect();
        (0..DEPTHS)
            .map(|d| {
                std::array::from_fn(|c| {
                    if d == 0 || c == 0 {
                        0
                    } else {
                        self.reduction_of_logs(ln[d], ln[c])
                    }
                })
            })
            .collect()
    }
}

/// The index in [`TUNABLES`] of the tunable named `name` (case-insensitive).
#[must_use]
pub fn index_of(name: &str) -> Option<usize> {
    TUNABLES
        .iter()
        .position(|t| t.name.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_in_their_ranges_and_names_are_distinct() {
        let d = SearchParams::default().values();
        for (t, v) in TUNABLES.iter().zip(&d) {
            assert_eq!(t.default, *v, "{}", t.name);
            assert!(t.min <= t.default && t.default <= t.max, "{}", t.name);
            assert!(t.step > 0 && t.step < t.max - t.min, "{}", t.name);
        }
        for (i, t) in TUNABLES.iter().enumerate() {
            assert_eq!(index_of(&t.name.to_ascii_uppercase()), Some(i));
        }
    }

    #[test]
    fn each_name_sets_its_own_field() {
        for (i, t) in TUNABLES.iter().enumerate() {
            let mut p = SearchParams::default();
            p.set(t.name, i64::from(t.min)).unwrap();
            let v = p.values();
            for (j, u) in TUNABLES.iter().enumerate() {
                let want = if i == j { u.min } else { u.default };
                assert_eq!(v[j], want, "setting {} changed {}", t.name, u.name);
            }
        }
        let mut p = SearchParams::default();
        assert_eq!(
            p.set("Nonsense", 1),
            Err(ParamError::Unknown("Nonsense".into()))
        );
        assert!(p.set("AspirationDelta", 4).is_err());
        assert_eq!(p, SearchParams::default());
    }

    #[test]
    fn from_values_round_trips_and_clamps() {
        let p = SearchParams::default();
        assert_eq!(SearchParams::from_values(&p.values()), p);
        let q = SearchParams::from_values(&[-5, 100_000]);
        assert_eq!(q.reverse_futility_margin, TUNABLES[0].min);
        assert_eq!(q.futility_base, TUNABLES[1].max);
        assert_eq!(q.aspiration_delta, 40);
    }

    #[test]
    fn the_default_reduction_table_is_the_one_measured_before() {
        // 0.5 + ln d ln m / 2.2, the table the search used as constants
        // when the reductions were measured (docs/TUNING.md).
        let p = SearchParams::default();
        for d in 1..128 {
            for m in 1..64 {
                let want = (0.5 + (d as f64).ln() * (m as f64).ln() / 2.2) as i32;
                assert_eq!(p.reduction(d, m), want, "depth {d} move {m}");
            }
        }
        assert_eq!(p.reduction(10, 20), 3); // 0.5 + 2.303 × 2.996 / 2.2 = 3.64
        let table = p.reductions::<128, 64>();
        for (d, row) in table.iter().enumerate() {
            for (m, &r) in row.iter().enumerate() {
                assert_eq!(r, p.reduction(d, m), "table at depth {d} move {m}");
            }
        }
    }
}
