//! Amateur ranks (kyu and dan) of ratings on the Glicko scale, in the
//! bands docs/RATINGS.md gives.

/// An amateur rank: 15 kyu up to 1 kyu, then 1 dan up to 8 dan.
///
/// The bands are the starting table lishogi proposed for its players
/// (issue "Rating ranks", WandererXII/lishogi#954): 80 points a kyu from
/// 15 kyu at 400 to 2 kyu at 1440, 1 kyu from 1530, 1 dan from 1650, then
/// 120 points a dan up to 8 dan from 2490. docs/RATINGS.md gives the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rank {
    /// `n` kyu (15 = weakest, 1 = strongest kyu).
    Kyu(u8),
    /// `n` dan (1 to 8).
    Dan(u8),
}

impl Rank {
    /// The lowest rating of each rank, weakest first.
    const BANDS: [(f64, Rank); 23] = [
        (400.0, Rank::Kyu(15)),
        (480.0, Rank::Kyu(14)),
        (560.0, Rank::Kyu(13)),
        (640.0, Rank::Kyu(12)),
        (720.0, Rank::Kyu(11)),
        (800.0, Rank::Kyu(10)),
        (880.0, Rank::Kyu(9)),
        (960.0, Rank::Kyu(8)),
        (1040.0, Rank::Kyu(7)),
        (1120.0, Rank::Kyu(6)),
        (1200.0, Rank::Kyu(5)),
        (1280.0, Rank::Kyu(4)),
        (1360.0, Rank::Kyu(3)),
        (1440.0, Rank::Kyu(2)),
        (1530.0, Rank::Kyu(1)),
        (1650.0, Rank::Dan(1)),
        (1770.0, Rank::Dan(2)),
        (1890.0, Rank::Dan(3)),
        (2010.0, Rank::Dan(4)),
        (2130.0, Rank::Dan(5)),
        (2250.0, Rank::Dan(6)),
        (2370.0, Rank::Dan(7)),
        (2490.0, Rank::Dan(8)),
    ];

    /// The rank of a rating (below 400 is still 15 kyu).
    ///
    /// ```
    /// use shogi_server::ratings::Rank;
    /// assert_eq!(Rank::of(1500.0), Rank::Kyu(2));
    /// assert_eq!(Rank::of(1700.0), Rank::Dan(1));
    /// ```
    #[must_use]
    pub fn of(rating: f64) -> Rank {
        Rank::BANDS
            .iter()
            .rev()
            .find(|(low, _)| rating >= *low)
            .map_or(Rank::Kyu(15), |&(_, rank)| rank)
    }
}

impl Rank {
    /// Steps above 1 kyu: 15 kyu is -14, 1 kyu 0, 1 dan 1 (a tournament's
    /// grade).
    ///
    /// ```
    /// use shogi_server::ratings::Rank;
    /// assert_eq!(Rank::Kyu(3).steps(), -2);
    /// assert_eq!(Rank::Dan(2).steps(), 2);
    /// ```
    #[must_use]
    pub fn steps(self) -> i32 {
        match self {
            Rank::Kyu(n) => 1 - i32::from(n),
            Rank::Dan(n) => i32::from(n),
        }
    }
}

impl Ord for Rank {
    /// Weaker ranks first: 15 kyu < 1 kyu < 1 dan < 8 dan.
    fn cmp(&self, other: &Rank) -> std::cmp::Ordering {
        self.steps().cmp(&other.steps())
    }
}

impl PartialOrd for Rank {
    fn partial_cmp(&self, other: &Rank) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Rank {
    /// The short form players write: `3k`, `1d`.
    ///
    /// ```
    /// use shogi_server::ratings::Rank;
    /// assert_eq!(Rank::Kyu(3).short(), "3k");
    /// assert_eq!(Rank::Dan(1).short(), "1d");
    /// ```
    #[must_use]
    pub fn short(self) -> String {
        match self {
            Rank::Kyu(n) => format!("{n}k"),
            Rank::Dan(n) => format!("{n}d"),
        }
    }
}

impl std::str::FromStr for Rank {
    type Err = String;

    /// Reads the short form: `15k` to `1k`, `1d` to `8d` (also `3 kyu`,
    /// `1-dan`, any case).
    ///
    /// ```
    /// use shogi_server::ratings::Rank;
    /// assert_eq!("3k".parse::<Rank>(), Ok(Rank::Kyu(3)));
    /// assert_eq!("1 dan".parse::<Rank>(), Ok(Rank::Dan(1)));
    /// assert_eq!("2-Kyu".parse::<Rank>(), Ok(Rank::Kyu(2)));
    /// assert!("9d".parse::<Rank>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Rank, String> {
        let t = s.trim().to_ascii_lowercase().replace([' ', '-'], "");
        let bad = || format!("{s:?} is not a rank (15k to 1k, 1d to 8d)");
        let (digits, kind) = t.split_at(t.find(|c: char| !c.is_ascii_digit()).ok_or_else(bad)?);
        let n: u8 = digits.parse().map_err(|_| bad())?;
        match kind {
            "k" | "kyu" if (1..=15).contains(&n) => Ok(Rank::Kyu(n)),
            "d" | "dan" if (1..=8).contains(&n) => Ok(Rank::Dan(n)),
            _ => Err(bad()),
        }
    }
}

impl std::fmt::Display for Rank {
    /// `3 kyu`, `1 dan`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Rank::Kyu(n) => write!(f, "{n} kyu"),
            Rank::Dan(n) => write!(f, "{n} dan"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_follow_the_bands_at_their_edges() {
        assert_eq!(Rank::of(0.0), Rank::Kyu(15));
        assert_eq!(Rank::of(479.9), Rank::Kyu(15));
        assert_eq!(Rank::of(480.0), Rank::Kyu(14));
        assert_eq!(Rank::of(1529.0), Rank::Kyu(2));
        assert_eq!(Rank::of(1530.0), Rank::Kyu(1));
        assert_eq!(Rank::of(1650.0), Rank::Dan(1));
        assert_eq!(Rank::of(2489.0), Rank::Dan(7));
        assert_eq!(Rank::of(3000.0), Rank::Dan(8));
        // Every band is one rank stronger than the one below it.
        for pair in Rank::BANDS.windows(2) {
            assert!(pair[0].0 < pair[1].0 && pair[0].1 < pair[1].1, "{pair:?}");
        }
        assert_eq!(Rank::Dan(1).to_string(), "1 dan");
    }
}
