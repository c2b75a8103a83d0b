//! What an account may do beyond playing: [`Role`].

use std::fmt;
use std::str::FromStr;

/// An account's role. Each role may do what the ones before it may.
///
/// ```
/// use shogi_server::accounts::Role;
/// let r: Role = "moderator".parse().unwrap();
/// assert!(r.moderates() && !r.is_admin());
/// assert!(Role::Admin.moderates());
/// assert!(!Role::Player.moderates());
/// assert_eq!(Role::Admin.to_string(), "admin");
/// assert!("root".parse::<Role>().is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// Plays, organises events, reports.
    #[default]
    Player,
    /// Also: the /admin page (disables and re-enables accounts, hides chat
    /// messages, annuls games' rating effect, reads and closes reports).
    Moderator,
    /// Also: sets roles, organises any event.
    Admin,
}

impl Role {
    /// Every role, in order.
    pub const ALL: [Role; 3] = [Role::Player, Role::Moderator, Role::Admin];

    /// The name stored and sent: `player`, `moderator`, `admin`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Role::Player => "player",
            Role::Moderator => "moderator",
            Role::Admin => "admin",
        }
    }

    /// Whether it may use the moderator's tools.
    #[must_use]
    pub fn moderates(self) -> bool {
        self >= Role::Moderator
    }

    /// Whether it administers the server.
    #[must_use]
    pub fn is_admin(self) -> bool {
        self == Role::Admin
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A role name that is none of [`Role::ALL`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown role {0:?}: player, moderator or admin")]
pub struct UnknownRole(pub String);

impl FromStr for Role {
    type Err = UnknownRole;

    fn from_str(s: &str) -> Result<Role, UnknownRole> {
        Role::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| UnknownRole(s.to_string()))
    }
}
