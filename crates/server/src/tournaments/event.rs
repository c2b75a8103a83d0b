//! An event as loaded: its stored rows read into typed values, and the
//! [`shogi_tournament::Event`] the pairing and the standings read.

use shogi_core::{Color, Handicap};
use shogi_tournament::{
    Board, Bye, ByeKind, ColourChoice, Event, Format, GameResult, Grade, Player, Round, Toss,
};

use super::settings::{BoardPlay, FormatName, Settings};
use crate::db::tournaments::{BoardGameRow, BoardRow, EntrantRow, EventRows};
use crate::error::Error;
use crate::ratings::Rank;

/// An event as loaded.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The stored rows.
    pub rows: EventRows,
    /// The settings.
    pub settings: Settings,
}

/// A result's word in the API.
#[must_use]
pub fn result_name(r: GameResult) -> &'static str {
    match r {
        GameResult::SenteWin => "sente",
        GameResult::GoteWin => "gote",
        GameResult::Draw => "draw",
        GameResult::SenteForfeit => "sente_forfeit",
        GameResult::GoteForfeit => "gote_forfeit",
        GameResult::DoubleForfeit => "double_forfeit",
    }
}

/// The result of a word.
#[must_use]
pub fn result_of_name(s: &str) -> Option<GameResult> {
    Some(match s {
        "sente" => GameResult::SenteWin,
        "gote" => GameResult::GoteWin,
        "draw" => GameResult::Draw,
        "sente_forfeit" => GameResult::SenteForfeit,
        "gote_forfeit" => GameResult::GoteForfeit,
        "double_forfeit" => GameResult::DoubleForfeit,
        _ => return None,
    })
}

/// A bye kind's word in the API.
#[must_use]
pub fn bye_name(k: ByeKind) -> &'static str {
    match k {
        ByeKind::Pairing => "pairing",
        ByeKind::Zero => "zero",
        ByeKind::Half => "half",
        ByeKind::Full => "full",
    }
}

fn bye_of_name(s: &str) -> ByeKind {
    match s {
        "zero" => ByeKind::Zero,
        "half" => ByeKind::Half,
        "full" => ByeKind::Full,
        _ => ByeKind::Pairing,
    }
}

/// A colour choice's word in the API.
#[must_use]
pub fn colours_name(c: ColourChoice) -> &'static str {
    match c {
        ColourChoice::Table => "table",
        ColourChoice::Furigoma(_) => "furigoma",
        ColourChoice::Balance => "balance",
        ColourChoice::Forced => "forced",
    }
}

/// Whether the `index`-th game of a board (0 first) is played with the
/// board's colours reversed: every sennichite replay swaps them.
#[must_use]
pub fn reversed(index: usize) -> bool {
    index % 2 == 1
}

/// What a finished in-app game gives the board: `None` while it runs or
/// when it was aborted; a repetition is a draw (its replay, if any, comes
/// after it). A board's first game lost on time by a player who had not
/// made a move in it is that player's forfeit: they never came (`first` is
/// the side that moves first, Gote in a handicap game). A replay is never
/// a forfeit: both players came to the first game.
#[must_use]
pub fn game_result(g: &BoardGameRow, index: usize, first: Color) -> Option<GameResult> {
    if !g.over || g.reason.as_deref() == Some("abort") {
        return None;
    }
    if index == 0 && g.reason.as_deref() == Some("timeout") {
        let loser = match g.winner.as_deref() {
            Some("sente") => Some(Color::Gote),
            Some("gote") => Some(Color::Sente),
            _ => None,
        };
        if let Some(loser) = loser {
            let loser_moves = if loser == first {
                g.moves.div_ceil(2)
            } else {
                g.moves / 2
            };
            if loser_moves == 0 {
                return Some(match loser {
                    Color::Sente => GameResult::SenteForfeit,
                    Color::Gote => GameResult::GoteForfeit,
                });
            }
        }
    }
    let swap = reversed(index);
    Some(match (g.winner.as_deref(), swap) {
        (Some("sente"), false) | (Some("gote"), true) => GameResult::SenteWin,
        (Some("gote"), false) | (Some("sente"), true) => GameResult::GoteWin,
        _ => GameResult::Draw,
    })
}

/// The side that moves first on board `b`: Sente, or Gote (the giver) in
/// a handicap game.
#[must_use]
pub fn first_mover(b: &BoardRow) -> Color {
    match b.handicap.parse::<Handicap>() {
        Ok(h) if h != Handicap::Even => Color::Gote,
        _ => Color::Sente,
    }
}

/// A board's result: the one entered, else its last game's.
#[must_use]
pub fn board_result(b: &BoardRow) -> Option<GameResult> {
    if let Some(r) = b.result.as_deref() {
        return result_of_name(r);
    }
    if BoardPlay::of_name(&b.play) != BoardPlay::Online {
        return None;
    }
    let last = b.games.len().checked_sub(1)?;
    game_result(&b.games[last], last, first_mover(b))
}

/// The rounds an event plans with `players` entered: as set, else a round
/// robin's full cycle (once or twice).
#[must_use]
pub fn planned_rounds(settings: &Settings, players: u32) -> u32 {
    if let Some(r) = settings.rounds {
        return r;
    }
    let cycle = if players.is_multiple_of(2) {
        players.saturating_sub(1)
    } else {
        players
    };
    if settings.double {
        cycle * 2
    } else {
        cycle
    }
}

/// A player's grade: the rank given, else the rating's rank.
#[must_use]
pub fn grade(p: &EntrantRow) -> Option<Grade> {
    p.rank
        .as_deref()
        .and_then(|r| r.parse::<Rank>().ok())
        .or_else(|| p.rating.map(|r| Rank::of(f64::from(r))))
        .map(Rank::steps)
}

impl Loaded {
    /// Reads the stored settings.
    ///
    /// # Errors
    /// [`Error::Internal`] for settings that do not read back.
    pub fn new(rows: EventRows) -> Result<Loaded, Error> {
        let settings: Settings = serde_json::from_str(&rows.event.settings)
            .map_err(|e| Error::Internal(format!("tournament {}: settings: {e}", rows.event.id)))?;
        Ok(Loaded { rows, settings })
    }

    /// The event's id.
    #[must_use]
    pub fn id(&self) -> &str {
        &self.rows.event.id
    }

    /// Rounds paired so far.
    #[must_use]
    pub fn paired(&self) -> u32 {
        self.rows.rounds.len() as u32
    }

    /// The rounds planned ([`planned_rounds`] for the players entered).
    #[must_use]
    pub fn planned(&self) -> u32 {
        planned_rounds(&self.settings, self.rows.players.len() as u32)
    }

    /// `registration`, `running` or `finished`.
    #[must_use]
    pub fn status(&self) -> &'static str {
        if self.rows.rounds.is_empty() {
            "registration"
        } else if self.paired() >= self.planned()
            && self
                .rows
                .rounds
                .iter()
                .flat_map(|r| &r.boards)
                .all(|b| board_result(b).is_some())
        {
            "finished"
        } else {
            "running"
        }
    }

    /// Whether `user` organises the event.
    #[must_use]
    pub fn is_organiser(&self, user: i64) -> bool {
        self.rows.organisers.iter().any(|(id, _)| *id == user)
    }

    /// The entrant of `user`, if they play.
    #[must_use]
    pub fn entrant_of(&self, user: i64) -> Option<&EntrantRow> {
        self.rows.players.iter().find(|p| p.user == Some(user))
    }

    /// The entrant numbered `n`.
    #[must_use]
    pub fn entrant(&self, n: u32) -> Option<&EntrantRow> {
        self.rows.players.iter().find(|p| p.number == n)
    }

    /// The board `b` of round `r`.
    #[must_use]
    pub fn board(&self, r: u32, b: u32) -> Option<&BoardRow> {
        self.rows
            .rounds
            .iter()
            .find(|x| x.round == r)?
            .boards
            .iter()
            .find(|x| x.board == b)
    }

    /// The state the pairing and the standings read.
    #[must_use]
    pub fn event(&self) -> Event {
        let format = match self.settings.format {
            FormatName::RoundRobin => Format::RoundRobin {
                double: self.settings.double,
            },
            FormatName::Swiss => Format::Swiss,
            FormatName::Mcmahon => {
                let bars = self.settings.mcmahon.unwrap_or(super::settings::Bars {
                    bar: Rank::Dan(1),
                    floor: Rank::Kyu(10),
                });
                Format::McMahon {
                    bar: bars.bar.steps(),
                    floor: bars.floor.steps(),
                }
            }
        };
        let players = self
            .rows
            .players
            .iter()
            .map(|p| Player {
                rating: p.rating,
                grade: grade(p),
                club: p.club.clone().filter(|c| !c.trim().is_empty()),
                from_round: p.from_round.max(1),
                withdrawn_from: p.withdrawn_from,
            })
            .collect();
        let idx = |n: u32| (n as usize).saturating_sub(1);
        let played = self
            .rows
            .rounds
            .iter()
            .map(|r| Round {
                boards: r
                    .boards
                    .iter()
                    .map(|b| Board {
                        sente: idx(b.sente),
                        gote: idx(b.gote),
                        colours: match (b.colours.as_str(), b.toss) {
                            ("furigoma", Some((tosser, fu))) => ColourChoice::Furigoma(Toss {
                                tosser: idx(tosser),
                                fu_up: fu,
                            }),
                            ("table", _) => ColourChoice::Table,
                            ("forced", _) => ColourChoice::Forced,
                            _ => ColourChoice::Balance,
                        },
                        result: board_result(b),
                    })
                    .collect(),
                byes: r
                    .byes
                    .iter()
                    .map(|(p, k)| Bye {
                        player: idx(*p),
                        kind: bye_of_name(k),
                    })
                    .collect(),
            })
            .collect();
        Event {
            format,
            rounds: self.planned(),
            seed: self.rows.event.seed,
            players,
            played,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(winner: Option<&str>, reason: &str) -> BoardGameRow {
        BoardGameRow {
            id: "0".repeat(16),
            over: true,
            winner: winner.map(str::to_string),
            reason: Some(reason.to_string()),
            moves: 40,
        }
    }

    #[test]
    fn a_replay_reverses_the_colours_of_its_result() {
        let mut b = BoardRow {
            play: "online".into(),
            games: vec![game(None, "repetition")],
            ..BoardRow::default()
        };
        assert_eq!(board_result(&b), Some(GameResult::Draw));
        // The replay's Sente is the board's Gote player.
        b.games.push(game(Some("sente"), "resign"));
        assert_eq!(board_result(&b), Some(GameResult::GoteWin));
        b.games[1] = game(Some("gote"), "checkmate");
        assert_eq!(board_result(&b), Some(GameResult::SenteWin));
        // An entered result wins over the games'.
        b.result = Some("draw".into());
        assert_eq!(board_result(&b), Some(GameResult::Draw));
    }

    #[test]
    fn a_first_game_lost_on_time_without_a_move_is_a_forfeit() {
        let mut g = game(Some("gote"), "timeout");
        g.moves = 0;
        let mut b = BoardRow {
            play: "online".into(),
            handicap: "even".into(),
            games: vec![g],
            ..BoardRow::default()
        };
        assert_eq!(board_result(&b), Some(GameResult::SenteForfeit));
        // Sente moved, Gote never did.
        b.games[0].winner = Some("sente".into());
        b.games[0].moves = 1;
        assert_eq!(board_result(&b), Some(GameResult::GoteForfeit));
        // Both moved: a loss on time.
        b.games[0].moves = 2;
        assert_eq!(board_result(&b), Some(GameResult::SenteWin));
        // A handicap game: the giver, Gote, moves first.
        b.handicap = "rook".into();
        b.games[0].moves = 1;
        assert_eq!(board_result(&b), Some(GameResult::SenteWin));
        b.games[0].moves = 0;
        b.games[0].winner = Some("sente".into());
        assert_eq!(board_result(&b), Some(GameResult::GoteForfeit));
        // A replay is never a forfeit.
        b.handicap = "even".into();
        b.games.insert(0, game(None, "repetition"));
        assert_eq!(board_result(&b), Some(GameResult::GoteWin));
    }

    #[test]
    fn an_aborted_or_running_game_gives_no_result() {
        let mut b = BoardRow {
            play: "online".into(),
            games: vec![game(None, "abort")],
            ..BoardRow::default()
        };
        assert_eq!(board_result(&b), None);
        b.games[0].over = false;
        assert_eq!(board_result(&b), None);
    }

    #[test]
    fn a_grade_comes_from_the_rank_else_the_rating() {
        let mut p = EntrantRow {
            rating: Some(1700),
            ..EntrantRow::default()
        };
        assert_eq!(grade(&p), Some(1));
        p.rank = Some("3k".into());
        assert_eq!(grade(&p), Some(-2));
        p.rank = None;
        p.rating = None;
        assert_eq!(grade(&p), None);
    }
}
