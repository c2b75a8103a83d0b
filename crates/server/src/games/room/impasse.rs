//! Impasse (both kings in the enemy camps): the declaration under the 27-
//! and 24-point rules, and the count under count24, proposed by one player
//! and accepted or declined by the other (the computer accepts at once).
//! The verdicts are functions of the position.

use shogi_core::impasse::{self, declaration};
use shogi_core::{ByColor, Color, Ending, Foul, ImpasseRule, ImpasseVerdict, Position};

use super::{Answer, Room, RoomError};
use crate::game::Seat;

/// The verdict of an impasse declaration by `us` in `pos` under `rule`
/// (`None`: the rule has no declaration). A declaration whose conditions are
/// not met is a foul; under the 24-point rule a declaration with the
/// conditions met is won, drawn or lost by the points.
pub(super) fn declaration_ending(pos: &Position, us: Color, rule: ImpasseRule) -> Option<Ending> {
    let d = declaration(pos, us, 0);
    let false_declaration = Ending::Foul {
        loser: us,
        foul: Foul::FalseDeclaration,
    };
    Some(match rule {
        ImpasseRule::Csa27 => {
            let need = if us == Color::Sente { 28 } else { 27 };
            if d.conditions_met() && d.points >= need {
                Ending::Impasse { winner: Some(us) }
            } else {
                false_declaration
            }
        }
        ImpasseRule::Jsa24 => match d.points {
            _ if !d.conditions_met() => false_declaration,
            31.. => Ending::Impasse { winner: Some(us) },
            24..=30 => Ending::Impasse { winner: None },
            _ => Ending::Impasse {
                winner: Some(us.opponent()),
            },
        },
        _ => return None,
    })
}

/// The count24 verdict in `pos` (`None`: the count is not possible, the
/// kings are not both in the enemy camps).
pub(super) fn count_ending(pos: &Position) -> Option<Ending> {
    let to_move = pos.side_to_move();
    let winner = match impasse::judge(pos, ImpasseRule::Count24, ByColor::default())? {
        ImpasseVerdict::Win => Some(to_move),
        ImpasseVerdict::Loss => Some(to_move.opponent()),
        ImpasseVerdict::Draw => None,
    };
    Some(Ending::Impasse { winner })
}

impl Room {
    pub(super) fn impasse_rule(&self) -> ImpasseRule {
        self.settings.rules.impasse
    }

    /// A declaration by `acting`, who must be to move.
    pub(super) async fn declare(&mut self, acting: Color) -> Result<(), RoomError> {
        let to_move = self.game.position().side_to_move();
        if acting != to_move {
            return Err(RoomError::NotYourDeclaration);
        }
        let rule = self.impasse_rule();
        let ending = declaration_ending(self.game.position(), to_move, rule)
            .ok_or(RoomError::NoDeclaration(rule))?;
        self.end(ending).await
    }

    /// A count proposed by `acting` (count24).
    pub(super) async fn propose_count(&mut self, acting: Color) -> Result<(), RoomError> {
        if self.impasse_rule() != ImpasseRule::Count24 {
            return Err(RoomError::NoCount(self.impasse_rule()));
        }
        if !self.count_possible() {
            return Err(RoomError::CountNotPossible);
        }
        if self.count_proposed_by.is_some() {
            return Err(RoomError::CountAlreadyProposed);
        }
        if self.computer_side() == Some(acting.opponent()) {
            // The computer accepts at once: the count is the rules' verdict.
            return self.count().await;
        }
        self.count_proposed_by = Some(acting);
        self.publish();
        Ok(())
    }

    /// The answer to the standing count proposal (at one device either
    /// side's token answers).
    pub(super) async fn answer_count(
        &mut self,
        seat: Seat,
        acting: Color,
        answer: Answer,
    ) -> Result<(), RoomError> {
        let Some(proposer) = self.count_proposed_by else {
            return Err(RoomError::NoCountProposed);
        };
        if seat != Seat::Both && acting == proposer {
            return Err(RoomError::OwnProposal);
        }
        if answer == Answer::Decline {
            self.count_proposed_by = None;
            self.publish();
            return Ok(());
        }
        self.count().await
    }

    /// Ends the game by the count24 verdict.
    async fn count(&mut self) -> Result<(), RoomError> {
        let ending = count_ending(self.game.position()).ok_or(RoomError::CountNotPossible)?;
        self.end(ending).await
    }

    pub(super) fn count_possible(&self) -> bool {
        impasse::judge(
            self.game.position(),
            ImpasseRule::Count24,
            ByColor::default(),
        )
        .is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sente's king and 17 pieces in the enemy camp, two rooks and bishops in hand.
    const DECLARABLE: &str = "4K4/GGGG1SSSS/PPPPPPPPP/9/9/9/9/9/4k4 b 2R2B 1";

    fn pos(sfen: &str) -> Position {
        shogi_core::sfen::parse_position(sfen).unwrap()
    }

    #[test]
    fn a_declaration_with_the_conditions_met_wins_under_27() {
        let e = declaration_ending(&pos(DECLARABLE), Color::Sente, ImpasseRule::Csa27);
        assert_eq!(
            e,
            Some(Ending::Impasse {
                winner: Some(Color::Sente)
            })
        );
    }

    #[test]
    fn a_declaration_without_the_conditions_is_a_foul_by_the_declarer() {
        let start = Position::startpos();
        for rule in [ImpasseRule::Csa27, ImpasseRule::Jsa24] {
            let e = declaration_ending(&start, Color::Sente, rule).unwrap();
            assert_eq!(
                e,
                Ending::Foul {
                    loser: Color::Sente,
                    foul: Foul::FalseDeclaration
                },
                "{rule}"
            );
            assert_eq!(e.winner(), Some(Color::Gote));
        }
    }

    #[test]
    fn under_24_points_between_24_and_30_draw() {
        let e = declaration_ending(
            &pos("4K4/GGGG1SSSS/PPPPPPPPP/9/9/9/9/9/4k4 b 2R 1"),
            Color::Sente,
            ImpasseRule::Jsa24,
        );
        assert_eq!(e, Some(Ending::Impasse { winner: None }));
    }

    #[test]
    fn rules_without_a_declaration_have_none() {
        for rule in [ImpasseRule::Count24, ImpasseRule::Try, ImpasseRule::None] {
            assert_eq!(
                declaration_ending(&pos(DECLARABLE), Color::Sente, rule),
                None
            );
        }
    }

    #[test]
    fn the_count_needs_both_kings_entered_and_goes_by_the_points() {
        assert_eq!(count_ending(&Position::startpos()), None);
        // Both kings stand in the enemy camps; Sente has far more points.
        assert_eq!(
            count_ending(&pos(DECLARABLE)),
            Some(Ending::Impasse {
                winner: Some(Color::Sente)
            })
        );
    }
}
