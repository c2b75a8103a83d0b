//! Programs in the lobby: a program waiting over the CSA protocol is
//! listed as a seek, and a person who accepts it is offered to the program
//! through its [`ProgramDoor`]; the game starts once the program agrees.

use std::time::Duration;

use tokio::sync::{mpsc, oneshot};

use crate::error::{Error, Problem};
use crate::games::create::Created;
use crate::games::players::Identity;

/// How long a person who accepted a program's seek waits for its `AGREE`.
pub const PROGRAM_ANSWER: Duration = Duration::from_secs(20);

/// A person who accepted a program's seek, offered to the program.
#[derive(Debug)]
pub struct Offer {
    /// Who accepted.
    pub acceptor: Identity,
    /// The program's answer: the person's seat in the game it agreed to,
    /// or why there is none.
    pub reply: oneshot::Sender<Result<Created, Error>>,
}

/// Where a waiting program hears of people accepting its seek (the CSA
/// connection holds the other end).
#[derive(Clone, Debug)]
pub struct ProgramDoor {
    /// The program's name, for the answer when it does not agree.
    pub name: String,
    /// The connection's inbox of offers.
    pub offers: mpsc::Sender<Offer>,
}

impl ProgramDoor {
    /// Offers the game to the program and waits (at most `within`) for its
    /// answer: the acceptor's seat in the game it agreed to.
    ///
    /// # Errors
    /// [`Problem::ProgramDeclined`] when it rejected, left or did not answer
    /// in time; the program's own error otherwise.
    pub async fn offer(&self, acceptor: Identity, within: Duration) -> Result<Created, Error> {
        let declined = || -> Error {
            Problem::ProgramDeclined {
                name: self.name.clone(),
            }
            .into()
        };
        let (reply, answer) = oneshot::channel();
        self.offers
            .send(Offer { acceptor, reply })
            .await
            .map_err(|_| declined())?;
        match tokio::time::timeout(within, answer).await {
            Ok(Ok(result)) => result,
            // The connection dropped the offer, or the time ran out.
            Ok(Err(_)) | Err(_) => Err(declined()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Seat;

    fn new_door() -> (ProgramDoor, mpsc::Receiver<Offer>) {
        let (offers, rx) = mpsc::channel(1);
        (
            ProgramDoor {
                name: "bot".into(),
                offers,
            },
            rx,
        )
    }

    fn person() -> Identity {
        Identity::Guest {
            name: Some("Anna".into()),
        }
    }

    #[tokio::test]
    async fn an_agreeing_program_gives_the_acceptor_a_seat() {
        let (door, mut rx) = new_door();
        let program = tokio::spawn(async move {
            let offer = rx.recv().await.unwrap();
            assert_eq!(offer.acceptor, person());
            let _ = offer.reply.send(Ok(Created {
                id: "0123456789abcdef".into(),
                token: "t".into(),
                side: Seat::Gote,
                invite: None,
            }));
        });
        let seat = door.offer(person(), PROGRAM_ANSWER).await.unwrap();
        assert_eq!(seat.id, "0123456789abcdef");
        program.await.unwrap();
    }

    #[tokio::test]
    async fn a_program_that_left_or_dropped_the_offer_declined() {
        let (door, rx) = new_door();
        drop(rx);
        let e = door.offer(person(), PROGRAM_ANSWER).await.unwrap_err();
        assert!(matches!(e, Error::Problem(Problem::ProgramDeclined { .. })));
        let (door, mut rx) = new_door();
        tokio::spawn(async move { drop(rx.recv().await) });
        let e = door.offer(person(), PROGRAM_ANSWER).await.unwrap_err();
        assert!(matches!(e, Error::Problem(Problem::ProgramDeclined { .. })));
    }

    #[tokio::test]
    async fn a_silent_program_declined_when_the_time_is_up() {
        // The offer is received and never answered: whatever the wait, it
        // ends in a refusal.
        let (door, _rx) = new_door();
        let e = door
            .offer(person(), Duration::from_millis(10))
            .await
            .unwrap_err();
        assert!(matches!(e, Error::Problem(Problem::ProgramDeclined { .. })));
    }
}
