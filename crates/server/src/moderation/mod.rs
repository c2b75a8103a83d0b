//! The moderators' tools (docs/PROTOCOL.md, "Moderation"): finding an
//! account, disabling and re-enabling it, setting roles (administrators),
//! hiding a chat message, annulling a game's rating effect, and the players'
//! reports. Every action names its reason and is written to the log in the
//! same transaction as its change. No HTTP here: `api::admin` turns
//! requests into these calls.
//!
//! Disabling an account deletes its sessions (its game and lobby sockets on
//! this instance close at once), withdraws its seeks and refuses its
//! logins; its games and ratings stay. Annulling a game deletes its rating
//! history points and rates every game of its time class again without it
//! ([`crate::ratings::replay`]), so that both players, and everyone who
//! played them since, have the ratings they would have had.

use serde::Serialize;

use crate::accounts::{name_key, Account, Accounts, Role};
use crate::db::moderation::{AccountRow, LogEntry, LogRow, NewReport, ReportRow};
use crate::db::Store;
use crate::error::{Error, Problem};
use crate::games::rooms::Rooms;
use crate::lobby::Lobby;
use crate::ratings::replay::replay;
use crate::time::unix_ms;

/// The longest reason, in characters (a moderator's or a reporter's).
pub const MAX_REASON_CHARS: usize = 500;
/// Accounts a search lists.
pub const FOUND_LISTED: u32 = 20;
/// Reports and log lines the admin page lists.
pub const LISTED: u32 = 200;

/// An account as the admin page lists it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct AccountView {
    /// The name.
    pub name: String,
    /// `player`, `moderator` or `admin`.
    pub role: &'static str,
    /// Whether it is disabled.
    pub disabled: bool,
    /// When it was disabled (Unix milliseconds).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disabled_at_ms: Option<u64>,
    /// When it was created.
    pub created_at_ms: u64,
}

impl From<&AccountRow> for AccountView {
    fn from(a: &AccountRow) -> AccountView {
        AccountView {
            name: a.name.clone(),
            role: a.role.name(),
            disabled: a.disabled_at_ms.is_some(),
            disabled_at_ms: a.disabled_at_ms,
            created_at_ms: a.created_at_ms,
        }
    }
}

/// A report as the admin page lists it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ReportView {
    /// Its number.
    pub id: i64,
    /// Who reported.
    pub reporter: String,
    /// The game.
    pub game: String,
    /// The chat message, if the report is about one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chat: Option<ChatView>,
    /// Why.
    pub reason: String,
    /// When.
    pub at_ms: u64,
    /// Whether a moderator closed it.
    pub closed: bool,
    /// Who closed it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closed_by: Option<String>,
}

/// A reported chat message, as copied when it was reported.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ChatView {
    /// Its number in the game.
    pub n: u32,
    /// Who wrote it.
    pub from: String,
    /// What was written.
    pub text: String,
}

impl From<&ReportRow> for ReportView {
    fn from(r: &ReportRow) -> ReportView {
        ReportView {
            id: r.id,
            reporter: r.reporter_name.clone(),
            game: r.game_id.clone(),
            chat: r.chat.as_ref().map(|(n, from, text)| ChatView {
                n: *n,
                from: from.clone(),
                text: text.clone(),
            }),
            reason: r.reason.clone(),
            at_ms: r.at_ms,
            closed: r.closed.is_some(),
            closed_by: r.closed.as_ref().map(|c| c.1.clone()),
        }
    }
}

/// A line of the log as the admin page lists it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct LogView {
    /// Who.
    pub moderator: String,
    /// What: `disable`, `enable`, `role`, `annul`, `hide_chat`, `close_report`.
    pub action: String,
    /// On what.
    pub target: String,
    /// Why.
    pub reason: String,
    /// When.
    pub at_ms: u64,
}

impl From<&LogRow> for LogView {
    fn from(l: &LogRow) -> LogView {
        LogView {
            moderator: l.moderator_name.clone(),
            action: l.action.clone(),
            target: l.target.clone(),
            reason: l.reason.clone(),
            at_ms: l.at_ms,
        }
    }
}

/// The reason typed: trimmed, 1 to [`MAX_REASON_CHARS`] characters.
///
/// # Errors
/// [`Problem::BadLength`] otherwise.
fn reason(text: &str) -> Result<&str, Error> {
    let text = text.trim();
    let len = text.chars().count();
    if len == 0 || len > MAX_REASON_CHARS {
        return Err(Problem::BadLength {
            what: "reason",
            min: 1,
            max: MAX_REASON_CHARS,
            len,
        }
        .into());
    }
    Ok(text)
}

fn moderator(actor: &Account) -> Result<(), Error> {
    if actor.role.moderates() {
        Ok(())
    } else {
        Err(Problem::ModeratorsOnly.into())
    }
}

/// The moderators' service (cheap to clone).
#[derive(Clone)]
pub struct Moderation {
    store: Store,
    accounts: Accounts,
    lobby: Lobby,
    rooms: Rooms,
}

impl Moderation {
    /// The tools over `store`, ending sessions through `accounts`,
    /// withdrawing seeks from `lobby` and reaching chat through `rooms`.
    #[must_use]
    pub fn new(store: Store, accounts: Accounts, lobby: Lobby, rooms: Rooms) -> Moderation {
        Moderation {
            store,
            accounts,
            lobby,
            rooms,
        }
    }

    fn entry<'a>(
        actor: &'a Account,
        action: &'a str,
        target: &'a str,
        why: &'a str,
    ) -> LogEntry<'a> {
        LogEntry {
            moderator: Some(actor.id),
            moderator_name: &actor.name,
            action,
            target,
            reason: why,
            at_ms: unix_ms(),
        }
    }

    async fn account(&self, name: &str) -> Result<AccountRow, Error> {
        self.store
            .account_by_key(&name_key(name))
            .await?
            .ok_or(Error::NoSuch("account"))
    }

    /// The accounts whose names begin with `query` (any case), at most
    /// [`FOUND_LISTED`].
    ///
    /// # Errors
    /// [`Problem::ModeratorsOnly`]; the database failed.
    pub async fn find(&self, actor: &Account, query: &str) -> Result<Vec<AccountView>, Error> {
        moderator(actor)?;
        let key = name_key(query.trim());
        let rows = self.store.find_accounts(&key, FOUND_LISTED).await?;
        Ok(rows.iter().map(AccountView::from).collect())
    }

    /// Disables account `name` (`disable`) or enables it again. Disabling
    /// ends its sessions (its sockets close) and withdraws its seeks. A
    /// moderator cannot disable themself, and only an administrator
    /// disables a moderator or an administrator.
    ///
    /// # Errors
    /// [`Problem::ModeratorsOnly`], [`Problem::AdminsOnly`],
    /// [`Error::NoSuch`], [`Error::Conflict`] (oneself),
    /// [`Problem::BadLength`] for the reason; the database failed.
    pub async fn set_disabled(
        &self,
        actor: &Account,
        name: &str,
        disable: bool,
        why: &str,
    ) -> Result<AccountView, Error> {
        moderator(actor)?;
        let why = reason(why)?;
        let mut account = self.account(name).await?;
        if account.id == actor.id {
            return Err(Error::Conflict(
                "a moderator does not disable themself".into(),
            ));
        }
        if account.role.moderates() && !actor.is_admin() {
            return Err(Problem::AdminsOnly.into());
        }
        let action = if disable { "disable" } else { "enable" };
        let entry = Self::entry(actor, action, &account.name, why);
        let at = disable.then_some(entry.at_ms);
        self.store.set_disabled(account.id, at, &entry).await?;
        if disable {
            self.accounts.sessions_ended(account.id);
            self.lobby.withdraw_all_of(account.id);
        }
        account.disabled_at_ms = at;
        Ok(AccountView::from(&account))
    }

    /// Sets account `name`'s role (administrators only; not their own).
    ///
    /// # Errors
    /// [`Problem::AdminsOnly`], [`Error::NoSuch`], [`Error::Conflict`]
    /// (oneself); the database failed.
    pub async fn set_role(
        &self,
        actor: &Account,
        name: &str,
        role: Role,
        why: &str,
    ) -> Result<AccountView, Error> {
        if !actor.is_admin() {
            return Err(Problem::AdminsOnly.into());
        }
        let why = reason(why)?;
        let mut account = self.account(name).await?;
        if account.id == actor.id {
            return Err(Error::Conflict(
                "an administrator keeps their own role".into(),
            ));
        }
        let target = format!("{}: {}", account.name, role.name());
        let entry = Self::entry(actor, "role", &target, why);
        self.store.set_role(account.id, role, &entry).await?;
        account.role = role;
        Ok(AccountView::from(&account))
    }

    /// Annuls game `id`'s rating effect: its history points go and the
    /// ratings of its time class are recomputed without it. Returns the
    /// names of the accounts whose rating changed.
    ///
    /// # Errors
    /// [`Problem::ModeratorsOnly`], [`Problem::NotRated`] for a game that
    /// changed no rating (or was annulled already); the database failed.
    pub async fn annul(&self, actor: &Account, id: &str, why: &str) -> Result<Vec<String>, Error> {
        moderator(actor)?;
        let why = reason(why)?;
        let Some(class) = self.store.rated_class(id).await? else {
            return Err(Problem::NotRated.into());
        };
        let entry = Self::entry(actor, "annul", id, why);
        let changed = self
            .store
            .annul_rating(id, class, &entry, |games| replay(games, Some(id)))
            .await?;
        let mut names = Vec::with_capacity(changed.len());
        for user in changed {
            if let Some(row) = self.store.user_by_id(user).await? {
                names.push(row.name);
            }
        }
        Ok(names)
    }

    /// Hides chat message `n` of game `game` (which must be live on this
    /// instance: chat is kept only by a game's room).
    ///
    /// # Errors
    /// [`Problem::ModeratorsOnly`], [`Error::NoSuch`] for a message the
    /// room no longer keeps; [`Error::Conflict`] for a game on another
    /// instance; the database failed.
    pub async fn hide_chat(
        &self,
        actor: &Account,
        game: &str,
        n: u32,
        why: &str,
    ) -> Result<(), Error> {
        moderator(actor)?;
        let why = reason(why)?;
        let room = self.rooms.room(game).await?;
        if !room.hide_chat(n).await {
            return Err(Error::NoSuch("message"));
        }
        let target = format!("{game} #{n}");
        self.store
            .log_moderation(&Self::entry(actor, "hide_chat", &target, why))
            .await?;
        Ok(())
    }

    /// A player's report of game `game`, or of chat message `chat` in it
    /// (which the reporter must have seen: they play the game, and the
    /// room still keeps the message, whose text the report copies).
    /// Returns the report's number.
    ///
    /// # Errors
    /// [`Error::NotFound`] for an unknown game, [`Error::NoSuch`] for a
    /// message not kept, [`Problem::NotASeat`] for chat of a game the
    /// reporter does not play; the database failed.
    pub async fn report(
        &self,
        reporter: &Account,
        game: &str,
        chat: Option<u32>,
        why: &str,
    ) -> Result<i64, Error> {
        let why = reason(why)?;
        let room = self.rooms.room(game).await?;
        let message = match chat {
            Some(n) => {
                if room.authorize_user(reporter.id).await.is_none() {
                    return Err(Problem::NotASeat.into());
                }
                let (from, text) = room.chat_message(n).await.ok_or(Error::NoSuch("message"))?;
                Some((n, from, text))
            }
            None => None,
        };
        let report = NewReport {
            reporter: reporter.id,
            reporter_name: &reporter.name,
            game_id: game,
            chat: message
                .as_ref()
                .map(|(n, from, text)| (*n, from.as_str(), text.as_str())),
            reason: why,
            at_ms: unix_ms(),
        };
        Ok(self.store.insert_report(&report).await?)
    }

    /// The last [`LISTED`] reports, the newest first (only the open ones if `open`).
    ///
    /// # Errors
    /// [`Problem::ModeratorsOnly`]; the database failed.
    pub async fn reports(&self, actor: &Account, open: bool) -> Result<Vec<ReportView>, Error> {
        moderator(actor)?;
        let rows = self.store.reports(open, LISTED).await?;
        Ok(rows.iter().map(ReportView::from).collect())
    }

    /// Closes report `id`.
    ///
    /// # Errors
    /// [`Problem::ModeratorsOnly`], [`Error::NoSuch`] for a report that is
    /// not open; the database failed.
    pub async fn close_report(&self, actor: &Account, id: i64, why: &str) -> Result<(), Error> {
        moderator(actor)?;
        let why = reason(why)?;
        let target = id.to_string();
        if !self
            .store
            .close_report(id, &Self::entry(actor, "close_report", &target, why))
            .await?
        {
            return Err(Error::NoSuch("report"));
        }
        Ok(())
    }

    /// The last [`LISTED`] lines of the log, the newest first.
    ///
    /// # Errors
    /// [`Problem::ModeratorsOnly`]; the database failed.
    pub async fn log(&self, actor: &Account) -> Result<Vec<LogView>, Error> {
        moderator(actor)?;
        let rows = self.store.moderation_log(LISTED).await?;
        Ok(rows.iter().map(LogView::from).collect())
    }
}
