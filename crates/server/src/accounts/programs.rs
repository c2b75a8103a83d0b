//! Programs: accounts marked as programs that play over the CSA server
//! protocol (docs/CSA.md). A program logs in with its CSA token, a secret
//! of its own apart from the web password, stored as its SHA-256 and shown
//! once when issued.

use super::{session_key, Accounts, Error, Name};
use crate::token;

/// A program that logged in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// `users.id`.
    pub id: i64,
    /// The account's name.
    pub name: String,
}

impl Accounts {
    /// Marks account `name` as a program and issues it a new CSA token
    /// (returned once; the old one stops working).
    ///
    /// # Errors
    /// A bad name, an unknown account ([`Error::NoSuch`]), the database failed.
    pub async fn issue_csa_token(&self, name: &str) -> Result<String, Error> {
        let name = Name::parse(name)?;
        let row = self
            .store()
            .user_by_key(name.key())
            .await?
            .ok_or(Error::NoSuch("account"))?;
        let token = token::new_token();
        if !self
            .store()
            .set_csa_token(row.id, &session_key(&token))
            .await?
        {
            return Err(Error::NoSuch("account"));
        }
        Ok(token)
    }

    /// The program `id` if `csa_token` is its CSA token (`None` for an
    /// unknown name, an account that is not a program or is disabled, a
    /// wrong token: all alike).
    ///
    /// # Errors
    /// The database failed.
    pub async fn program_login(&self, id: &str, csa_token: &str) -> Result<Option<Program>, Error> {
        let Ok(name) = Name::parse(id) else {
            return Ok(None);
        };
        let Some(row) = self.store().program_by_key(name.key()).await? else {
            return Ok(None);
        };
        let offered = session_key(csa_token);
        let matches = row
            .csa_token_hash
            .as_deref()
            .is_some_and(|stored| token::same(stored, &offered));
        Ok((matches && row.bot && !row.disabled).then_some(Program {
            id: row.id,
            name: row.name,
        }))
    }
}
