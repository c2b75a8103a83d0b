//! How KIF and KI2 say the end of a game, both ways: the terminal word on the
//! move line after the last move (`  7 投了`) and the `まで…` summary line
//! (`まで6手で後手の勝ち`), in the forms Kifu for Windows writes and other
//! readers (cshogi, tsshogi) recognise.
//!
//! A terminal word speaks of the side to move after the last move (`投了`:
//! it resigned; `反則勝ち`: it wins by the last move's foul); a summary line
//! names the winner, so it also tells a resignation out of turn (a player
//! resigning while the opponent thinks) from one on the player's own turn.
//!
//! | ending | terminal word | summary line (after `まで6手で`) |
//! |---|---|---|
//! | resignation | 投了 | `{winner}の勝ち` |
//! | checkmate, no legal moves | 詰み | 詰み |
//! | timeout | 切れ負け | `時間切れにより{winner}の勝ち` |
//! | foul by the side to move | 反則負け | `{side to move}の反則負け` |
//! | foul by the side that moved | 反則勝ち | `{side to move}の反則勝ち` |
//! | impasse declaration (a win) | 入玉勝ち | `{winner}の入玉勝ち` |
//! | impasse, a draw | 持将棋 | 持将棋 |
//! | try rule | トライ (as tsshogi writes it) | `{winner}のトライ勝ち` |
//! | repetition / perpetual check | 千日手 / 連続王手の千日手 | the same |
//! | max moves, draw agreed, abort | 最大手数, 引き分け, 中断 | the same |
//! | no mate, sealed, matta, error | 不詰, 封じ手, 待った, エラー | the same |
//!
//! Read also: 時間切れ, 宣言勝ち, 勝ち宣言, 詰; `まで6手でトライ` (tsshogi's
//! summary of a try).

use shogi_core::{Color, Ending as GameEnding, Foul};

use super::side_name;
use crate::notation::japanese::digit_value;
use crate::record::Ending;

/// Terminal words in the order they are tried (a longer word before its prefix).
const TERMINAL_WORDS: [&str; 21] = [
    "投了",
    "詰み",
    "連続王手の千日手",
    "千日手",
    "持将棋",
    "反則勝ち",
    "反則負け",
    "切れ負け",
    "時間切れ",
    "中断",
    "入玉勝ち",
    "宣言勝ち",
    "勝ち宣言",
    "トライ",
    "不詰",
    "封じ手",
    "最大手数",
    "引き分け",
    "待った",
    "エラー",
    "詰",
];

/// A foul a record names without the rule.
fn foul(loser: Color) -> Ending {
    Ending::Game(GameEnding::Foul {
        loser,
        foul: Foul::Unspecified,
    })
}

/// Whether `s` starts as a move text usually does, with a digit `1`-`9` or
/// `１`-`９` or with `同`, so that it is no terminal word: judged on the
/// bytes, without decoding or trimming, as this is asked of every move of
/// a KI2 record ([`terminal`] tells the other starts).
#[inline]
pub(crate) fn starts_as_a_move(s: &str) -> bool {
    matches!(
        s.as_bytes(),
        [b'1'..=b'9', ..] | [0xEF, 0xBC, 0x91..=0x99, ..] | [0xE5, 0x90, 0x8C, ..]
    )
}

/// The ending a terminal word at the start of `s` means, `stm` to move after the last move.
pub(crate) fn terminal(s: &str, stm: Color) -> Option<Ending> {
    if starts_as_a_move(s) {
        return None;
    }
    let s = s.trim_start_matches([' ', '　']);
    // Most texts asked about are moves; no terminal word starts as a move
    // does (with a digit of a square or 同), so those are answered at once.
    match s.chars().next() {
        Some(c) if c == '同' || c == '仝' || digit_value(c).is_some() => return None,
        _ => {}
    }
    let word = TERMINAL_WORDS.iter().find(|w| s.starts_with(*w))?;
    let game = |e: GameEnding| Some(Ending::Game(e));
    match *word {
        "投了" => game(GameEnding::Resignation { loser: stm }),
        "詰み" | "詰" => game(GameEnding::Checkmate { loser: stm }),
        "連続王手の千日手" => game(GameEnding::PerpetualCheck {
            loser: stm.opponent(),
        }),
        "千日手" => game(GameEnding::Repetition),
        "持将棋" => game(GameEnding::Impasse { winner: None }),
        "反則勝ち" => Some(foul(stm.opponent())),
        "反則負け" => Some(foul(stm)),
        "切れ負け" | "時間切れ" => game(GameEnding::Timeout { loser: stm }),
        "中断" => game(GameEnding::Abort),
        "入玉勝ち" | "宣言勝ち" | "勝ち宣言" => {
            game(GameEnding::Impasse { winner: Some(stm) })
        }
        "トライ" => game(GameEnding::Try {
            winner: stm.opponent(),
        }),
        "最大手数" => game(GameEnding::MaxMoves),
        "引き分け" => game(GameEnding::DrawAgreement),
        "不詰" => Some(Ending::NoMate),
        "封じ手" => Some(Ending::Sealed),
        "待った" => Some(Ending::Matta),
        // エラー, the last word left.
        _ => Some(Ending::Error),
    }
}

/// The terminal word for `ending`, `stm` to move after the last move.
pub(crate) fn terminal_word(ending: Ending, stm: Color) -> Option<&'static str> {
    let game = match ending {
        Ending::None => return None,
        Ending::NoMate => return Some("不詰"),
        Ending::Sealed => return Some("封じ手"),
        Ending::Matta => return Some("待った"),
        Ending::Error => return Some("エラー"),
        Ending::Game(g) => g,
    };
    Some(match game {
        GameEnding::Resignation { .. } => "投了",
        GameEnding::Checkmate { .. } | GameEnding::NoLegalMoves { .. } => "詰み",
        GameEnding::Timeout { .. } => "切れ負け",
        GameEnding::Foul { loser, .. } if loser == stm => "反則負け",
        GameEnding::Foul { .. } => "反則勝ち",
        GameEnding::PerpetualCheck { .. } => "連続王手の千日手",
        GameEnding::Repetition => "千日手",
        GameEnding::Impasse { winner: None } => "持将棋",
        GameEnding::Impasse { winner: Some(_) } => "入玉勝ち",
        GameEnding::Try { .. } => "トライ",
        GameEnding::MaxMoves => "最大手数",
        GameEnding::DrawAgreement => "引き分け",
        GameEnding::Abort => "中断",
    })
}

/// The `まで…` line for `ending` after `n` moves, `stm` to move after them.
pub(crate) fn summary(ending: Ending, n: usize, stm: Color, handicapped: bool) -> Option<String> {
    let side = |c: Color| side_name(c, handicapped);
    let tail = match ending.game() {
        Some(GameEnding::Resignation { loser }) => format!("{}の勝ち", side(loser.opponent())),
        Some(GameEnding::Timeout { loser }) => {
            format!("時間切れにより{}の勝ち", side(loser.opponent()))
        }
        Some(GameEnding::Foul { loser, .. }) if loser == stm => {
            format!("{}の反則負け", side(stm))
        }
        Some(GameEnding::Foul { .. }) => format!("{}の反則勝ち", side(stm)),
        Some(GameEnding::Impasse {
            winner: Some(winner),
        }) => format!("{}の入玉勝ち", side(winner)),
        Some(GameEnding::Try { winner }) => format!("{}のトライ勝ち", side(winner)),
        _ => terminal_word(ending, stm)?.to_string(),
    };
    Some(format!("まで{n}手で{tail}"))
}

/// The side a summary line names (`先手の…`, `下手の…`), if any.
fn named_side(s: &str) -> Option<Color> {
    if s.contains("先手の") || s.contains("下手の") {
        Some(Color::Sente)
    } else if s.contains("後手の") || s.contains("上手の") {
        Some(Color::Gote)
    } else {
        None
    }
}

/// The ending a `まで…` summary line says, `stm` to move after the main line.
pub(crate) fn summary_ending(s: &str, stm: Color) -> Option<Ending> {
    if let Some(e) = plain_resignation(s) {
        return Some(e);
    }
    let named = named_side(s);
    let game = |e: GameEnding| Some(Ending::Game(e));
    if s.contains("連続王手") {
        return game(GameEnding::PerpetualCheck {
            loser: stm.opponent(),
        });
    }
    if s.contains("トライ") {
        return game(GameEnding::Try {
            winner: named.unwrap_or(stm.opponent()),
        });
    }
    if s.contains("入玉勝ち") || s.contains("宣言勝ち") {
        return game(GameEnding::Impasse {
            winner: Some(named.unwrap_or(stm)),
        });
    }
    for (word, e) in [
        ("不詰", Ending::NoMate),
        ("封じ手", Ending::Sealed),
        ("最大手数", Ending::Game(GameEnding::MaxMoves)),
        ("引き分け", Ending::Game(GameEnding::DrawAgreement)),
        ("待った", Ending::Matta),
        ("エラー", Ending::Error),
        ("中断", Ending::Game(GameEnding::Abort)),
        ("千日手", Ending::Game(GameEnding::Repetition)),
        ("持将棋", Ending::Game(GameEnding::Impasse { winner: None })),
        ("詰み", Ending::Game(GameEnding::Checkmate { loser: stm })),
    ] {
        if s.contains(word) {
            return Some(e);
        }
    }
    if s.contains("切れ") {
        // `時間切れにより後手の勝ち` names the winner.
        return game(GameEnding::Timeout {
            loser: named.map_or(stm, Color::opponent),
        });
    }
    let named = named?;
    if s.contains("の反則勝ち") {
        return Some(foul(named.opponent()));
    }
    if s.contains("の反則負け") {
        return Some(foul(named));
    }
    if !s.contains("の勝ち") {
        return None;
    }
    if s.contains("反則") {
        return Some(foul(named.opponent()));
    }
    game(GameEnding::Resignation {
        loser: named.opponent(),
    })
}

/// The resignation a summary line of the usual form says,
/// `まで{n}手で{side}の勝ち` with `n` in ASCII digits: [`summary_ending`]'s
/// answer, found without searching the line for the words of every other
/// ending (such a line holds none of them).
fn plain_resignation(s: &str) -> Option<Ending> {
    let rest = s.strip_prefix("まで")?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let winner = match rest[digits..].strip_prefix("手で")? {
        "先手の勝ち" | "下手の勝ち" => Color::Sente,
        "後手の勝ち" | "上手の勝ち" => Color::Gote,
        _ => return None,
    };
    Some(Ending::Game(GameEnding::Resignation {
        loser: winner.opponent(),
    }))
}

/// The ending of a record whose terminal word said `terminal` and whose summary line says
/// `summary`: the summary's when both name the same kind of ending and it can only be more
/// precise (it names the side; a terminal word only implies it from the side to move), as for a
/// resignation out of turn; otherwise the terminal word's.
pub(crate) fn refine(terminal: Ending, summary: Ending) -> Ending {
    match (terminal, summary) {
        (Ending::Game(t), Ending::Game(s))
            if std::mem::discriminant(&t) == std::mem::discriminant(&s)
                && t.winner().is_some() == s.winner().is_some() =>
        {
            summary
        }
        _ => terminal,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn no_terminal_word_starts_as_a_move_does() {
        for w in super::TERMINAL_WORDS {
            let c = w.chars().next().expect("a word");
            assert!(
                c != '同' && c != '仝' && super::digit_value(c).is_none(),
                "{w}"
            );
        }
    }

    /// The byte test agrees with the character test it short-cuts.
    #[test]
    fn moves_are_told_from_terminal_words_by_their_bytes() {
        use shogi_core::Color;
        for s in [
            "７六歩",
            "1 投了",
            "同　歩",
            "同歩",
            "９九香成",
            "投了",
            "　投了",
            "詰み",
            "五五",
        ] {
            let first = s.chars().next().expect("text");
            let by_char = first == '同' || super::digit_value(first).is_some();
            let ending = super::terminal(s, Color::Sente);
            if by_char {
                assert_eq!(ending, None, "{s}");
            }
        }
        assert!(super::terminal("　投了", Color::Sente).is_some());
    }

    /// A KI2 reader reads a terminal word from the rest of its line: the
    /// tokens after it change nothing.
    #[test]
    fn terminal_words_read_alike_before_other_tokens() {
        use shogi_core::Color;
        for w in super::TERMINAL_WORDS.iter().chain(&["投", "同　歩", "x"]) {
            for next in ["▲７六歩", "  △投了", "▽", "☗詰み"] {
                let line = format!("{w}{next}");
                for stm in Color::ALL {
                    assert_eq!(
                        super::terminal(&line, stm),
                        super::terminal(w, stm),
                        "{line}"
                    );
                }
            }
        }
    }

    /// The usual summary of a resignation reads as the general search reads it.
    #[test]
    fn plain_resignations_read_as_the_general_search_reads_them() {
        use shogi_core::Color;
        for side in ["先手", "後手", "下手", "上手"] {
            for n in ["", "0", "114", "９"] {
                let s = format!("まで{n}手で{side}の勝ち");
                for stm in Color::ALL {
                    let fast = super::plain_resignation(&s);
                    assert_eq!(fast.is_some(), n != "９", "{s}");
                    if let Some(e) = fast {
                        assert_eq!(Some(e), general(&s, stm), "{s}");
                    }
                }
            }
        }
    }

    /// `summary_ending` by its word search alone: a full-width space after
    /// the line keeps `plain_resignation` from taking it and no word the
    /// search looks for has one.
    fn general(s: &str, stm: shogi_core::Color) -> Option<super::Ending> {
        super::summary_ending(&format!("{s}\u{3000}"), stm)
    }
}
