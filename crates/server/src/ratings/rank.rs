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

/// A text that is not a rank, with the text as it came.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RankError {
    /// Neither a number and `kyu`/`dan` in a known script, nor empty.
    #[error("{input:?} is not a rank (15k to 1k, 1d to 8d)")]
    Unreadable {
        /// The text as typed.
        input: String,
    },
    /// A kyu rank outside 15 to 1.
    #[error("{input:?}: kyu ranks go from 15 kyu to 1 kyu")]
    KyuOutOfRange {
        /// The text as typed.
        input: String,
    },
    /// A dan rank outside 1 to 8.
    #[error("{input:?}: dan ranks go from 1 dan to 8 dan")]
    DanOutOfRange {
        /// The text as typed.
        input: String,
    },
}

impl RankError {
    /// The text that was refused.
    #[must_use]
    pub fn input(&self) -> &str {
        match self {
            RankError::Unreadable { input }
            | RankError::KyuOutOfRange { input }
            | RankError::DanOutOfRange { input } => input,
        }
    }
}

/// The words for "kyu" and "dan" the parser knows: Latin, Russian and
/// Ukrainian (`кю`, `дан`), Japanese (`級`, `段`).
const KYU_WORDS: [&str; 5] = ["kyu", "kyū", "k", "кю", "級"];
const DAN_WORDS: [&str; 4] = ["dan", "d", "дан", "段"];

/// A number written in ASCII or full-width digits (`12`, `１２`) or in
/// kanji up to 19 (`五`, `十二`, `初` for one).
fn number(s: &str) -> Option<u32> {
    if s.is_empty() {
        return None;
    }
    if s.chars()
        .all(|c| c.is_ascii_digit() || ('０'..='９').contains(&c))
    {
        if s.chars().count() > 2 {
            return None;
        }
        return s.chars().try_fold(0, |n, c| {
            let d = c
                .to_digit(10)
                .unwrap_or_else(|| u32::from(c) - u32::from('０'));
            Some(n * 10 + d)
        });
    }
    let digit = |c: char| {
        "一二三四五六七八九"
            .chars()
            .position(|k| k == c)
            .and_then(|i| u32::try_from(i + 1).ok())
    };
    let chars: Vec<char> = s.chars().collect();
    match chars.as_slice() {
        ['初'] => Some(1),
        ['十'] => Some(10),
        ['十', d] => digit(*d).map(|d| 10 + d),
        [d] => digit(*d),
        _ => None,
    }
}

impl std::str::FromStr for Rank {
    type Err = RankError;

    /// Reads a rank as players write it in any of the app's languages: a
    /// number then `k`/`kyu`/`кю`/`級` or `d`/`dan`/`дан`/`段`, in any case
    /// and with or without a blank or hyphen between (`5k`, `5 kyu`,
    /// `2дан`, `5 кю`, `初段`, `二段`, `五級`, `1段`); 15 kyu to 1 kyu,
    /// 1 dan to 8 dan.
    ///
    /// ```
    /// use shogi_server::ratings::Rank;
    /// assert_eq!("3k".parse::<Rank>(), Ok(Rank::Kyu(3)));
    /// assert_eq!("1 dan".parse::<Rank>(), Ok(Rank::Dan(1)));
    /// assert_eq!("2-Kyu".parse::<Rank>(), Ok(Rank::Kyu(2)));
    /// assert_eq!("2дан".parse::<Rank>(), Ok(Rank::Dan(2)));
    /// assert_eq!("5 КЮ".parse::<Rank>(), Ok(Rank::Kyu(5)));
    /// assert_eq!("初段".parse::<Rank>(), Ok(Rank::Dan(1)));
    /// assert_eq!("十五級".parse::<Rank>(), Ok(Rank::Kyu(15)));
    /// assert!("9d".parse::<Rank>().is_err());
    /// ```
    ///
    /// # Errors
    /// [`RankError`] naming the text: unreadable, or a number outside the
    /// kind's range.
    fn from_str(s: &str) -> Result<Rank, RankError> {
        let input = || s.trim().to_owned();
        let t: String = s
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| !c.is_whitespace() && !matches!(c, '-' | '.' | '\u{2010}'..='\u{2015}'))
            .collect();
        let split = |words: &[&str]| {
            words
                .iter()
                .find_map(|w| t.strip_suffix(w))
                .and_then(number)
        };
        if let Some(n) = split(&KYU_WORDS) {
            return match u8::try_from(n) {
                Ok(n) if (1..=15).contains(&n) => Ok(Rank::Kyu(n)),
                _ => Err(RankError::KyuOutOfRange { input: input() }),
            };
        }
        if let Some(n) = split(&DAN_WORDS) {
            return match u8::try_from(n) {
                Ok(n) if (1..=8).contains(&n) => Ok(Rank::Dan(n)),
                _ => Err(RankError::DanOutOfRange { input: input() }),
            };
        }
        Err(RankError::Unreadable { input: input() })
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

    fn every_rank() -> impl Iterator<Item = Rank> {
        (1..=15).map(Rank::Kyu).chain((1..=8).map(Rank::Dan))
    }

    #[test]
    fn ranks_are_read_in_latin_cyrillic_and_japanese() {
        for (text, rank) in [
            ("1d", Rank::Dan(1)),
            ("5k", Rank::Kyu(5)),
            ("1 dan", Rank::Dan(1)),
            ("5 kyu", Rank::Kyu(5)),
            ("5 Kyū", Rank::Kyu(5)),
            (" 3-DAN ", Rank::Dan(3)),
            ("1 дан", Rank::Dan(1)),
            ("2дан", Rank::Dan(2)),
            ("5 кю", Rank::Kyu(5)),
            ("5\u{a0}КЮ", Rank::Kyu(5)),
            ("初段", Rank::Dan(1)),
            ("二段", Rank::Dan(2)),
            ("1段", Rank::Dan(1)),
            ("5級", Rank::Kyu(5)),
            ("五級", Rank::Kyu(5)),
            ("十級", Rank::Kyu(10)),
            ("十五級", Rank::Kyu(15)),
            ("１５級", Rank::Kyu(15)),
        ] {
            assert_eq!(text.parse::<Rank>(), Ok(rank), "{text:?}");
        }
    }

    #[test]
    fn a_bad_rank_names_the_text_and_why() {
        let bad = |s: &str| s.parse::<Rank>().unwrap_err();
        assert_eq!(bad("9d"), RankError::DanOutOfRange { input: "9d".into() });
        assert_eq!(
            bad(" 16 кю"),
            RankError::KyuOutOfRange {
                input: "16 кю".into()
            }
        );
        assert_eq!(bad("0k"), RankError::KyuOutOfRange { input: "0k".into() });
        for text in [
            "", "дан", "5", "5x", "1 dan 2", "五", "百段", "123k", "k5", "1d1",
        ] {
            assert_eq!(
                bad(text),
                RankError::Unreadable {
                    input: text.trim().into()
                },
                "{text:?}"
            );
        }
        assert!(bad("2 дана").to_string().contains("\"2 дана\""));
    }

    /// The forms the web client shows (web/src/i18n: `rankDan` with
    /// `danNumerals`, `rankKyu`) in each language read back as the rank.
    #[test]
    fn every_rank_as_each_language_shows_it_reads_back() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/src/i18n");
        for lang in ["en", "ru", "uk", "ja"] {
            let text = std::fs::read_to_string(format!("{dir}/{lang}.ts")).unwrap();
            let entry = |key: &str| {
                let line = text
                    .lines()
                    .find(|l| l.trim_start().starts_with(&format!("{key}: ")))
                    .unwrap_or_else(|| panic!("{lang}: no {key}"));
                line.split('\'').nth(1).unwrap().to_owned()
            };
            let (dan, kyu) = (entry("rankDan"), entry("rankKyu"));
            let numerals = entry("danNumerals");
            let numerals: Vec<&str> = numerals.split(' ').collect();
            for rank in every_rank() {
                let shown = match rank {
                    Rank::Dan(n) => dan.replace("{n}", numerals[usize::from(n) - 1]),
                    Rank::Kyu(n) => kyu.replace("{n}", &n.to_string()),
                };
                assert_eq!(shown.parse::<Rank>(), Ok(rank), "{lang}: {shown:?}");
                assert_eq!(rank.short().parse::<Rank>(), Ok(rank));
                assert_eq!(rank.to_string().parse::<Rank>(), Ok(rank));
            }
        }
    }
}
