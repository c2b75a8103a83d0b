//! Latin transliteration of Cyrillic names for rating reports.
//!
//! A name with one of the letters only Ukrainian has (`і ї є ґ`) is read as
//! Ukrainian and transliterated by the Ukrainian national system (Cabinet
//! of Ministers resolution no. 55 of 27 January 2010); any other Cyrillic
//! is read as Russian and transliterated as Russian passports do since
//! 2014 (ICAO Doc 9303). Letters keep their case (`Щербаков` →
//! `Shcherbakov`, `ЩЕРБАКОВ` → `SHCHERBAKOV`); Latin text and other
//! scripts (kana, kanji) pass through unchanged.
//!
//! ```
//! use shogi_tournament::translit::latin;
//!
//! assert_eq!(latin("Щербаков Юрий"), "Shcherbakov Iurii");
//! assert_eq!(latin("Щербаков Юрій"), "Shcherbakov Yurii");
//! assert_eq!(latin("羽生 善治"), "羽生 善治");
//! ```

/// Russian (ICAO 9303) for a lower-case Cyrillic letter.
fn russian(c: char) -> Option<&'static str> {
    Some(match c {
        'а' => "a",
        'б' => "b",
        'в' => "v",
        'г' => "g",
        'д' => "d",
        'е' | 'ё' | 'э' => "e",
        'ж' => "zh",
        'з' => "z",
        'и' | 'й' => "i",
        'к' => "k",
        'л' => "l",
        'м' => "m",
        'н' => "n",
        'о' => "o",
        'п' => "p",
        'р' => "r",
        'с' => "s",
        'т' => "t",
        'у' => "u",
        'ф' => "f",
        'х' => "kh",
        'ц' => "ts",
        'ч' => "ch",
        'ш' => "sh",
        'щ' => "shch",
        'ъ' => "ie",
        'ы' => "y",
        'ь' => "",
        'ю' => "iu",
        'я' => "ia",
        _ => return None,
    })
}

/// Ukrainian (KMU 2010) for a lower-case Cyrillic letter: the word-initial
/// form and the form elsewhere.
fn ukrainian(c: char) -> Option<(&'static str, &'static str)> {
    let both = |s| (s, s);
    Some(match c {
        'а' => both("a"),
        'б' => both("b"),
        'в' => both("v"),
        'г' => both("h"),
        'ґ' => both("g"),
        'д' => both("d"),
        'е' => both("e"),
        'є' => ("ye", "ie"),
        'ж' => both("zh"),
        'з' => both("z"),
        'и' => both("y"),
        'і' => both("i"),
        'ї' => ("yi", "i"),
        'й' => ("y", "i"),
        'к' => both("k"),
        'л' => both("l"),
        'м' => both("m"),
        'н' => both("n"),
        'о' => both("o"),
        'п' => both("p"),
        'р' => both("r"),
        'с' => both("s"),
        'т' => both("t"),
        'у' => both("u"),
        'ф' => both("f"),
        'х' => both("kh"),
        'ц' => both("ts"),
        'ч' => both("ch"),
        'ш' => both("sh"),
        'щ' => both("shch"),
        'ь' => both(""),
        'ю' => ("yu", "iu"),
        'я' => ("ya", "ia"),
        // Russian letters in a Ukrainian name: as in Russian.
        _ => return russian(c).map(both),
    })
}

/// The transliteration table to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Language {
    /// Russian, by ICAO Doc 9303 (Russian passports since 2014).
    Russian,
    /// Ukrainian, by the national system of 2010 (KMU resolution 55).
    Ukrainian,
}

impl Language {
    /// Ukrainian if `s` has a letter only Ukrainian has (`і ї є ґ`),
    /// else Russian.
    #[must_use]
    pub fn guess(s: &str) -> Language {
        if s.chars().any(|c| "іїєґІЇЄҐ".contains(c)) {
            Language::Ukrainian
        } else {
            Language::Russian
        }
    }
}

/// Apostrophes Ukrainian writes between a consonant and a iotated vowel
/// (`Знам'янка`); the national system drops them.
fn is_apostrophe(c: char) -> bool {
    matches!(c, '\'' | '’' | 'ʼ')
}

/// `s` in Latin letters, read as Ukrainian or Russian as
/// [`Language::guess`] decides; see the [module](self) documentation.
#[must_use]
pub fn latin(s: &str) -> String {
    latin_as(s, Language::guess(s))
}

/// `s` in Latin letters by the table of `language` (for a name known to be
/// Ukrainian without a letter only Ukrainian has, such as `Згорани`).
///
/// # Examples
/// ```
/// use shogi_tournament::translit::{latin_as, Language};
///
/// assert_eq!(latin_as("Згорани", Language::Ukrainian), "Zghorany");
/// assert_eq!(latin_as("Згорани", Language::Russian), "Zgorani");
/// ```
#[must_use]
pub fn latin_as(s: &str, language: Language) -> String {
    let uk = language == Language::Ukrainian;
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    for (i, &c) in chars.iter().enumerate() {
        let lower = c.to_lowercase().next().unwrap_or(c);
        let prev = i.checked_sub(1).map(|j| chars[j]);
        let latin = if uk {
            if is_apostrophe(c) && prev.is_some_and(is_cyrillic) {
                continue;
            }
            let initial = !prev.is_some_and(|p| p.is_alphabetic() || is_apostrophe(p));
            let after_z = prev.is_some_and(|p| matches!(p, 'з' | 'З'));
            match ukrainian(lower) {
                // зг is zgh, to tell it from ж (zh).
                Some(_) if lower == 'г' && after_z => "gh",
                Some((first, other)) => {
                    if initial {
                        first
                    } else {
                        other
                    }
                }
                None => {
                    out.push(c);
                    continue;
                }
            }
        } else if let Some(latin) = russian(lower) {
            latin
        } else {
            out.push(c);
            continue;
        };
        if c == lower {
            out.push_str(latin);
        } else if shouting(&chars, i) {
            out.push_str(&latin.to_uppercase());
        } else {
            let mut letters = latin.chars();
            if let Some(first) = letters.next() {
                out.extend(first.to_uppercase());
                out.push_str(letters.as_str());
            }
        }
    }
    out
}

/// Whether `c` is a Cyrillic letter.
fn is_cyrillic(c: char) -> bool {
    ('\u{400}'..='\u{4ff}').contains(&c)
}

/// Whether the capital at `i` stands in a word written in capitals: the
/// next letter is a capital too, or (at the word's end) the one before.
fn shouting(chars: &[char], i: usize) -> bool {
    let upper = |j: usize| chars.get(j).is_some_and(|c| c.is_uppercase());
    let letter = |j: usize| chars.get(j).is_some_and(|c| c.is_alphabetic());
    if letter(i + 1) {
        upper(i + 1)
    } else {
        i > 0 && upper(i - 1)
    }
}
