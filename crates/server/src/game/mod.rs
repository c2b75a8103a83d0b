//! The model of one game, apart from the wire, the database and HTTP: its
//! sides and seats ([`side`]), what it is played under ([`settings`]), its
//! clocks ([`clock`]), the words for how it ended and for a refused move
//! ([`ending`], [`refusal`]) and a player's tally ([`results`]). Plain
//! values on the rules core that every layer may use; this module uses
//! nothing else of the crate. The serde derives give the JSON names
//! `docs/PROTOCOL.md` documents, with the text form of core values read and
//! written by the helpers of `text`.

pub mod clock;
pub mod ending;
pub mod refusal;
pub mod results;
pub mod settings;
pub mod side;
pub(crate) mod text;

pub use ending::{reason_word, rule_code};
pub use refusal::Refusal;
pub use results::Results;
pub use settings::{AiSeat, EventPlace, IllegalPolicy, Mode, RulesView, Settings, StartChoice};
pub use side::{Seat, Side, SideChoice};
