//! Making collections and who may add to them.

use crate::accounts::Account;
use crate::db::explorer::{Collection, Privacy};
use crate::db::Store;
use crate::error::Error;
use crate::time::unix_ms;

/// The longest collection name, in characters.
pub const MAX_NAME_CHARS: usize = 64;

/// The most collections one account may own.
pub const MAX_PER_ACCOUNT: usize = 50;

/// Why a collection name is refused.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadName {
    /// Empty, or longer than [`MAX_NAME_CHARS`].
    #[error("a collection name has 1 to {MAX_NAME_CHARS} characters")]
    Length,
    /// A character other than a letter, a digit, `-`, `_` or `.`.
    #[error("a collection name has letters, digits, '-', '_' and '.' only, not {0:?}")]
    Character(char),
}

/// Checks a new collection's name: letters and digits of any script,
/// `-`, `_`, `.` (it appears in addresses and on the command line).
///
/// ```
/// use shogi_server::explorer::collection::check_name;
/// assert!(check_name("spb-2026").is_ok());
/// assert!(check_name("клуб_Невский").is_ok());
/// assert!(check_name("a b").is_err() && check_name("").is_err() && check_name("a/b").is_err());
/// ```
///
/// # Errors
/// [`BadName`].
pub fn check_name(name: &str) -> Result<(), BadName> {
    let len = name.chars().count();
    if len == 0 || len > MAX_NAME_CHARS {
        return Err(BadName::Length);
    }
    match name
        .chars()
        .find(|&c| !(c.is_alphanumeric() || matches!(c, '-' | '_' | '.')))
    {
        Some(c) => Err(BadName::Character(c)),
        None => Ok(()),
    }
}

/// Makes collection `name` for `owner` (an account, or the command line's
/// `None`); a private one may name an event its owner organises, whose
/// organisers may then read it and add to it.
///
/// # Errors
/// [`Error::BadRequest`] for a bad name; [`Error::Conflict`] when it is
/// taken or the account has [`MAX_PER_ACCOUNT`] already;
/// [`Error::Forbidden`] for an event the account does not organise;
/// database errors.
pub async fn create(
    store: &Store,
    owner: Option<&Account>,
    name: &str,
    privacy: Privacy,
    tournament: Option<&str>,
) -> Result<Collection, Error> {
    check_name(name).map_err(|e| Error::BadRequest(e.to_string()))?;
    if let Some(a) = owner {
        if let Some(t) = tournament {
            if !a.is_admin() && !store.organises(a.id, t).await? {
                return Err(Error::Forbidden("you do not organise this event".into()));
            }
        }
        let owned = store
            .readable_collections(Some(a.id))
            .await?
            .into_iter()
            .filter(|c| c.owner_user == Some(a.id))
            .count();
        if owned >= MAX_PER_ACCOUNT {
            return Err(Error::Conflict(format!(
                "an account owns at most {MAX_PER_ACCOUNT} collections"
            )));
        }
    }
    let now = i64::try_from(unix_ms()).unwrap_or(i64::MAX);
    store
        .create_collection(name, owner.map(|a| a.id), tournament, privacy, now)
        .await?
        .ok_or_else(|| Error::Conflict(format!("the collection name {name:?} is taken")))?;
    store
        .collection(name)
        .await?
        .ok_or_else(|| Error::Internal("a new collection is gone".into()))
}

/// Whether `account` may add games to `c`: its owner, an organiser of its
/// event, or an administrator (never the `site` collection, which only
/// the games played here join).
///
/// # Errors
/// Database errors.
pub async fn may_add(store: &Store, account: &Account, c: &Collection) -> Result<bool, Error> {
    if c.id == crate::db::explorer::SITE {
        return Ok(false);
    }
    if account.is_admin() || c.owner_user == Some(account.id) {
        return Ok(true);
    }
    Ok(match &c.tournament {
        Some(t) => store.organises(account.id, t).await?,
        None => false,
    })
}
