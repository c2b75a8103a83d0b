//! Names of families, openings, lines and castles in Japanese, English,
//! Russian and Ukrainian, and their stable ids, in one table per type.
//!
//! Ids are `snake_case` English (`bishop_exchange`, `silver_crown`) and never
//! change once published; names may be improved. `FromStr` accepts an id or
//! any of the four names, so a search box can take `角換わり` or
//! `Какугавари` as well as `bishop_exchange`.
//!
//! Russian and Ukrainian follow what the Russian-speaking shogi sites write
//! (see `docs/STRATEGY.md` for the sources): the two broad families are
//! described in words (статичная / смещённая ладья, as the Russian
//! Wikipedia glosses ибися and фурибися; the Ukrainian rook is тура, as in
//! this crate's notation), and every named opening, line and castle is the
//! Japanese name transliterated (Polivanov for Russian: Ягура, Какугавари,
//! Ёкофудори, Сикэнбися; Kovalenko with ґ for Ukrainian, as the Ukrainian
//! Wikipedia writes Сьоґі: Яґура, Какуґаварі, Йокофудорі, Сікенбіся).
//!
//! ```
//! use shogi_record::strategy::{Castle, Lang, Line};
//! assert_eq!(Castle::StaticAnaguma.name(Lang::Ru), "Анагума статичной ладьи");
//! assert_eq!(Castle::StaticAnaguma.name(Lang::Uk), "Анаґума статичної тури");
//! assert_eq!("角換わり".parse::<Line>(), Ok(Line::Kakugawari));
//! assert_eq!("Ёкофудори".parse::<Line>(), Ok(Line::Yokofudori));
//! assert_eq!(Line::Kakugawari.to_string(), "bishop_exchange");
//! ```

use std::fmt;
use std::str::FromStr;

use super::castle::Castle;
use super::family::{Family, Opening};
use super::line::Line;

/// A language names are given in.
///
/// ```
/// use shogi_record::strategy::Lang;
/// assert_eq!("uk".parse::<Lang>(), Ok(Lang::Uk));
/// assert_eq!(Lang::Ru.code(), "ru");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    /// Japanese.
    Ja,
    /// English.
    En,
    /// Russian.
    Ru,
    /// Ukrainian.
    Uk,
}

impl Lang {
    /// Every language, in the order of the name tables.
    pub const ALL: [Lang; 4] = [Lang::Ja, Lang::En, Lang::Ru, Lang::Uk];

    /// The ISO 639-1 code: `ja`, `en`, `ru`, `uk`.
    #[must_use]
    pub const fn code(self) -> &'static str {
        match self {
            Lang::Ja => "ja",
            Lang::En => "en",
            Lang::Ru => "ru",
            Lang::Uk => "uk",
        }
    }

    const fn column(self) -> usize {
        match self {
            Lang::Ja => 1,
            Lang::En => 2,
            Lang::Ru => 3,
            Lang::Uk => 4,
        }
    }
}

impl FromStr for Lang {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Lang, UnknownName> {
        Lang::ALL
            .into_iter()
            .find(|l| l.code() == s)
            .ok_or_else(|| UnknownName {
                what: "language",
                text: s.to_string(),
                expected: "ja, en, ru, uk".to_string(),
            })
    }
}

/// Text that is no id or name of the type it was parsed as.
///
/// ```
/// use shogi_record::strategy::Castle;
/// let err = "fortress".parse::<Castle>().unwrap_err();
/// assert!(err.to_string().starts_with("unknown castle \"fortress\": expected one of mino, "));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} {text:?}: expected one of {expected}")]
pub struct UnknownName {
    /// What was being parsed (`"castle"`, `"line"`, ...).
    pub what: &'static str,
    /// The text given.
    pub text: String,
    /// The ids that would have been accepted.
    pub expected: String,
}

/// `id()`, `name(lang)`, `Display` (the id) and `FromStr` (an id or a name)
/// for an enum with `ALL` and a `row` table `[id, ja, en, ru, uk]`.
macro_rules! named {
    ($ty:ident, $what:literal) => {
        impl $ty {
            /// The stable `snake_case` id, which `FromStr` reads back.
            ///
            #[doc = concat!("```\nuse shogi_record::strategy::", stringify!($ty), ";\n",
                "for x in ", stringify!($ty), "::ALL {\n",
                "    assert_eq!(x.id().parse::<", stringify!($ty), ">(), Ok(x));\n}\n```")]
            #[must_use]
            pub fn id(self) -> &'static str {
                self.row()[0]
            }

            /// The name in `lang`.
            ///
            #[doc = concat!("```\nuse shogi_record::strategy::{", stringify!($ty), ", Lang};\n",
                "let x = ", stringify!($ty), "::ALL[0];\n",
                "assert_eq!(x.name(Lang::Ru).parse::<", stringify!($ty), ">(), Ok(x));\n```")]
            #[must_use]
            pub fn name(self, lang: Lang) -> &'static str {
                self.row()[lang.column()]
            }
        }

        impl fmt::Display for $ty {
            /// The id.
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.id())
            }
        }

        impl FromStr for $ty {
            type Err = UnknownName;
            /// An id, or a name in any of the four languages.
            fn from_str(s: &str) -> Result<$ty, UnknownName> {
                $ty::ALL
                    .into_iter()
                    .find(|x| x.row().contains(&s))
                    .ok_or_else(|| UnknownName {
                        what: $what,
                        text: s.to_string(),
                        expected: $ty::ALL.map(|x| x.id()).join(", "),
                    })
            }
        }
    };
}

named!(Family, "family");
named!(Opening, "opening");
named!(Line, "line");
named!(Castle, "castle");

impl Family {
    const fn row(self) -> [&'static str; 5] {
        match self {
            Family::StaticRook => [
                "static_rook",
                "居飛車",
                "Static Rook",
                "Статичная ладья",
                "Статична тура",
            ],
            Family::RangingRook => [
                "ranging_rook",
                "振り飛車",
                "Ranging Rook",
                "Смещённая ладья",
                "Зміщена тура",
            ],
        }
    }
}

impl Opening {
    const fn row(self) -> [&'static str; 5] {
        match self {
            Opening::StaticRook => [
                "static_rook",
                "居飛車",
                "Static Rook",
                "Статичная ладья",
                "Статична тура",
            ],
            Opening::SleeveRook => [
                "sleeve_rook",
                "袖飛車",
                "Sleeve Rook",
                "Содэбися",
                "Содебіся",
            ],
            Opening::RightFourthFileRook => [
                "right_fourth_file_rook",
                "右四間飛車",
                "Right Fourth-file Rook",
                "Миги-сикэнбися",
                "Міґі-сікенбіся",
            ],
            Opening::CentralRook => [
                "central_rook",
                "中飛車",
                "Central Rook",
                "Накабися",
                "Накабіся",
            ],
            Opening::FourthFileRook => [
                "fourth_file_rook",
                "四間飛車",
                "Fourth-file Rook",
                "Сикэнбися",
                "Сікенбіся",
            ],
            Opening::ThirdFileRook => [
                "third_file_rook",
                "三間飛車",
                "Third-file Rook",
                "Санкэнбися",
                "Санкенбіся",
            ],
            Opening::OpposingRook => [
                "opposing_rook",
                "向かい飛車",
                "Opposing Rook",
                "Мукайбися",
                "Мукайбіся",
            ],
        }
    }
}

impl Line {
    const fn row(self) -> [&'static str; 5] {
        match self {
            Line::DoubleStaticRook => [
                "double_static_rook",
                "相居飛車",
                "Double Static Rook",
                "Обоюдная статичная ладья",
                "Обопільна статична тура",
            ],
            Line::Yagura => ["yagura", "矢倉", "Yagura", "Ягура", "Яґура"],
            Line::Kakugawari => [
                "bishop_exchange",
                "角換わり",
                "Bishop Exchange",
                "Какугавари",
                "Какуґаварі",
            ],
            Line::Aigakari => [
                "double_wing_attack",
                "相掛かり",
                "Double Wing Attack",
                "Айгакари",
                "Айґакарі",
            ],
            Line::Yokofudori => [
                "side_pawn_capture",
                "横歩取り",
                "Side Pawn Capture",
                "Ёкофудори",
                "Йокофудорі",
            ],
            Line::Gangi => ["gangi", "雁木", "Gangi", "Ганги", "Ґанґі"],
            Line::DoubleRangingRook => [
                "double_ranging_rook",
                "相振り飛車",
                "Double Ranging Rook",
                "Обоюдная смещённая ладья",
                "Обопільна зміщена тура",
            ],
            Line::StaticVsRanging => [
                "static_vs_ranging",
                "対抗形",
                "Static Rook vs Ranging Rook",
                "Статичная против смещённой",
                "Статична проти зміщеної",
            ],
        }
    }
}

impl Castle {
    const fn row(self) -> [&'static str; 5] {
        match self {
            Castle::Mino => ["mino", "美濃囲い", "Mino", "Мино", "Міно"],
            Castle::KataMino => [
                "half_mino",
                "片美濃囲い",
                "Half Mino",
                "Ката-мино",
                "Ката-міно",
            ],
            Castle::Takamino => [
                "high_mino",
                "高美濃囲い",
                "High Mino",
                "Така-мино",
                "Така-міно",
            ],
            Castle::Ginkanmuri => [
                "silver_crown",
                "銀冠",
                "Silver Crown",
                "Гин-канмури",
                "Ґін-канмурі",
            ],
            Castle::KimuraMino => [
                "kimura_mino",
                "木村美濃",
                "Kimura Mino",
                "Кимура-мино",
                "Кімура-міно",
            ],
            Castle::KinMuso => [
                "peerless_golds",
                "金無双",
                "Peerless Golds",
                "Кин-мусо",
                "Кін-мусо",
            ],
            Castle::StaticAnaguma => [
                "static_rook_anaguma",
                "居飛車穴熊",
                "Static Rook Anaguma",
                "Анагума статичной ладьи",
                "Анаґума статичної тури",
            ],
            Castle::RangingAnaguma => [
                "ranging_rook_anaguma",
                "振り飛車穴熊",
                "Ranging Rook Anaguma",
                "Анагума смещённой ладьи",
                "Анаґума зміщеної тури",
            ],
            Castle::Yagura => [
                "gold_yagura",
                "金矢倉",
                "Gold Yagura",
                "Кин-ягура",
                "Кін-яґура",
            ],
            Castle::GinYagura => [
                "silver_yagura",
                "銀矢倉",
                "Silver Yagura",
                "Гин-ягура",
                "Ґін-яґура",
            ],
            Castle::KataYagura => [
                "half_yagura",
                "片矢倉",
                "Half Yagura",
                "Ката-ягура",
                "Ката-яґура",
            ],
            Castle::QuickYagura => [
                "quick_yagura",
                "矢倉早囲い",
                "Quick Yagura",
                "Ягура хаягакои",
                "Яґура хаяґакой",
            ],
            Castle::Gangi => ["gangi", "雁木囲い", "Gangi", "Ганги", "Ґанґі"],
            Castle::Elmo => ["elmo", "エルモ囲い", "Elmo", "Эльмо", "Ельмо"],
            Castle::Funagakoi => ["boat", "舟囲い", "Boat", "Фунагакои", "Фунаґакой"],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row of `all`: ids `snake_case` and unique, names non-empty and unique per language.
    fn check_table<T: Copy + fmt::Debug + PartialEq + FromStr>(
        all: &[T],
        row: fn(T) -> [&'static str; 5],
    ) where
        <T as FromStr>::Err: fmt::Debug,
    {
        for col in 0..5 {
            let mut seen: Vec<&str> = all.iter().map(|&x| row(x)[col]).collect();
            assert!(seen.iter().all(|s| !s.is_empty()));
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), all.len(), "column {col} repeats a name");
        }
        for &x in all {
            let id = row(x)[0];
            assert!(
                id.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{id}"
            );
            for name in row(x) {
                assert_eq!(name.parse::<T>().expect("own name parses"), x);
            }
        }
    }

    #[test]
    fn every_table_has_unique_ids_and_names_that_parse_back() {
        check_table(&Family::ALL, Family::row);
        check_table(&Opening::ALL, Opening::row);
        check_table(&Line::ALL, Line::row);
        check_table(&Castle::ALL, Castle::row);
    }

    #[test]
    fn unknown_name_says_what_was_expected() {
        let err = "fortress".parse::<Castle>().unwrap_err();
        assert_eq!(err.what, "castle");
        assert!(err.to_string().contains("gold_yagura"));
    }

    #[test]
    fn static_rook_is_both_a_family_and_an_opening() {
        assert_eq!(Opening::StaticRook.row(), Family::StaticRook.row());
    }
}
