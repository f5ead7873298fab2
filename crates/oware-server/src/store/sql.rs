//! What the two stores share to run SQL: the [`Db`] trait (execute a
//! statement, query rows, notify other nodes), parameters ([`Value`]) and
//! rows ([`SqlRow`]) free of either driver, and the [`Dialect`]: the few
//! statements SQLite and PostgreSQL cannot write alike.
//!
//! Statements are written once, with PostgreSQL's `$1, $2, …` placeholders:
//! SQLite reads `$1` as a parameter named `$1`, and the SQLite side binds
//! each value by that name. The writes and reads themselves (`games.rs`,
//! `accounts.rs`, `chat.rs`, `puzzles.rs`, `tournaments.rs`) are `async`
//! functions generic over [`Db`]: PostgreSQL awaits them, SQLite polls them
//! once (its calls never wait).

use super::StoreError;

/// A statement's parameter.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Value<'a> {
    /// SQL `NULL`.
    Null,
    /// An integer (PostgreSQL: `INTEGER` or `BIGINT`, as the column is).
    Int(i64),
    /// A float.
    Real(f64),
    /// A boolean (SQLite: 0 or 1).
    Bool(bool),
    /// Text.
    Text(&'a str),
    /// Bytes.
    Bytes(&'a [u8]),
    /// A list of texts (PostgreSQL: `TEXT[]`; SQLite: a JSON array, read
    /// with `json_each`).
    List(&'a [String]),
}

impl From<i64> for Value<'_> {
    fn from(v: i64) -> Self {
        Value::Int(v)
    }
}
impl From<i32> for Value<'_> {
    fn from(v: i32) -> Self {
        Value::Int(v.into())
    }
}
impl From<u32> for Value<'_> {
    fn from(v: u32) -> Self {
        Value::Int(v.into())
    }
}
impl From<f64> for Value<'_> {
    fn from(v: f64) -> Self {
        Value::Real(v)
    }
}
impl From<bool> for Value<'_> {
    fn from(v: bool) -> Self {
        Value::Bool(v)
    }
}
impl<'a> From<&'a str> for Value<'a> {
    fn from(v: &'a str) -> Self {
        Value::Text(v)
    }
}
impl<'a> From<&'a String> for Value<'a> {
    fn from(v: &'a String) -> Self {
        Value::Text(v)
    }
}
impl<'a> From<&'a [u8]> for Value<'a> {
    fn from(v: &'a [u8]) -> Self {
        Value::Bytes(v)
    }
}
impl<'a> From<&'a Vec<u8>> for Value<'a> {
    fn from(v: &'a Vec<u8>) -> Self {
        Value::Bytes(v)
    }
}
impl<'a> From<&'a [String]> for Value<'a> {
    fn from(v: &'a [String]) -> Self {
        Value::List(v)
    }
}
impl<'a, T: Into<Value<'a>>> From<Option<T>> for Value<'a> {
    fn from(v: Option<T>) -> Self {
        v.map_or(Value::Null, Into::into)
    }
}
impl<'a> From<&'a Option<String>> for Value<'a> {
    fn from(v: &'a Option<String>) -> Self {
        v.as_deref().into()
    }
}
impl<'a> From<&'a Option<Vec<u8>>> for Value<'a> {
    fn from(v: &'a Option<Vec<u8>>) -> Self {
        v.as_deref().into()
    }
}

/// The parameters of a statement: `args![a, b]` is `&[Value::from(a), …]`.
macro_rules! args {
    ($($v:expr),* $(,)?) => { &[$($crate::store::sql::Value::from($v)),*] };
}
pub(crate) use args;

/// A value read from a row.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Field {
    /// SQL `NULL`.
    Null,
    /// An integer or a boolean (1 or 0).
    Int(i64),
    /// A float.
    Real(f64),
    /// Text.
    Text(String),
    /// Bytes.
    Bytes(Vec<u8>),
}

/// A row as read: its fields in the order of the `SELECT`.
#[derive(Clone, Debug, Default)]
pub(crate) struct SqlRow(pub(crate) Vec<Field>);

impl SqlRow {
    /// Field `i`, as a `T`; [`StoreError::Column`] if it is not one.
    pub(crate) fn get<T: FromField>(&self, i: usize) -> Result<T, StoreError> {
        let field = self.0.get(i).unwrap_or(&Field::Null);
        T::from_field(field).ok_or(StoreError::Column {
            column: i,
            expected: T::NAME,
        })
    }
}

/// A Rust type a field reads as.
pub(crate) trait FromField: Sized {
    /// What it is, for [`StoreError::Column`].
    const NAME: &'static str;
    /// The field as `Self`, if it is one.
    fn from_field(f: &Field) -> Option<Self>;
}

impl FromField for i64 {
    const NAME: &'static str = "an integer";
    fn from_field(f: &Field) -> Option<Self> {
        match f {
            Field::Int(v) => Some(*v),
            _ => None,
        }
    }
}
impl FromField for u64 {
    const NAME: &'static str = "an integer";
    fn from_field(f: &Field) -> Option<Self> {
        i64::from_field(f).map(|v| v.max(0) as u64)
    }
}
impl FromField for u32 {
    const NAME: &'static str = "an integer";
    fn from_field(f: &Field) -> Option<Self> {
        i64::from_field(f).map(|v| v.clamp(0, u32::MAX.into()) as u32)
    }
}
impl FromField for i32 {
    const NAME: &'static str = "an integer";
    fn from_field(f: &Field) -> Option<Self> {
        i64::from_field(f).map(|v| v.clamp(i32::MIN.into(), i32::MAX.into()) as i32)
    }
}
impl FromField for bool {
    const NAME: &'static str = "a boolean";
    fn from_field(f: &Field) -> Option<Self> {
        i64::from_field(f).map(|v| v != 0)
    }
}
impl FromField for f64 {
    const NAME: &'static str = "a number";
    fn from_field(f: &Field) -> Option<Self> {
        match f {
            Field::Real(v) => Some(*v),
            Field::Int(v) => Some(*v as f64),
            _ => None,
        }
    }
}
impl FromField for String {
    const NAME: &'static str = "text";
    fn from_field(f: &Field) -> Option<Self> {
        match f {
            Field::Text(v) => Some(v.clone()),
            _ => None,
        }
    }
}
impl<T: FromField> FromField for Option<T> {
    const NAME: &'static str = T::NAME;
    fn from_field(f: &Field) -> Option<Self> {
        match f {
            Field::Null => Some(None),
            f => T::from_field(f).map(Some),
        }
    }
}

/// A connection or transaction of either database.
pub(crate) trait Db {
    /// The statements written differently for this database.
    fn dialect(&self) -> &'static Dialect;
    /// Runs a statement that returns no rows: the rows it changed.
    async fn execute(&self, sql: &str, args: &[Value<'_>]) -> Result<u64, StoreError>;
    /// Runs a query: its rows.
    async fn query(&self, sql: &str, args: &[Value<'_>]) -> Result<Vec<SqlRow>, StoreError>;
    /// Sends `payload` to every node sharing the store when (and only if)
    /// the transaction commits; nothing where no other node shares it.
    async fn notify(&self, payload: &str) -> Result<(), StoreError>;

    /// The first row of a query, if any.
    async fn query_opt(&self, sql: &str, args: &[Value<'_>]) -> Result<Option<SqlRow>, StoreError> {
        Ok(self.query(sql, args).await?.into_iter().next())
    }

    /// The first row of a query that always returns one (a count).
    async fn query_one(&self, sql: &str, args: &[Value<'_>]) -> Result<SqlRow, StoreError> {
        Ok(self.query_opt(sql, args).await?.unwrap_or_default())
    }

    /// The first column of every row.
    async fn column<T: FromField>(
        &self,
        sql: &str,
        args: &[Value<'_>],
    ) -> Result<Vec<T>, StoreError> {
        self.query(sql, args)
            .await?
            .iter()
            .map(|r| r.get(0))
            .collect()
    }
}

/// What SQLite and PostgreSQL write differently. Everything else is one
/// statement for both.
pub(crate) struct Dialect {
    /// Row locks for a read-modify-write (`" FOR UPDATE"`; SQLite has one
    /// writer and needs none).
    pub for_update: &'static str,
    /// Claims: rows another node holds are skipped (`FOR UPDATE SKIP
    /// LOCKED`; nothing for SQLite).
    pub skip_locked: &'static str,
    /// The larger of two values (`greatest` or SQLite's `max`).
    pub greatest: &'static str,
    /// Serialises the tournament caps' check across nodes (an advisory
    /// lock), when other nodes share the store.
    pub caps_lock: Option<&'static str>,
    /// A game's metadata, version and deadlines (`$1`: the id).
    pub load: &'static str,
    /// A game's version (`$1`: the id).
    pub version: &'static str,
    /// Checks and moves a game's version on, setting its deadlines (`$1`
    /// id, `$2` version, `$3` clock's deadline, `$4` deadline).
    pub next_version: &'static str,
    /// Sets a game's deadlines (`$1` id, `$2`, `$3` as above).
    pub set_due: &'static str,
    /// Claims due games (`$1` now, `$2` lease's end, `$3` limit, `$4`
    /// lease's start), returning their ids.
    pub claim_due: &'static str,
    /// Marks seeks seen (`$1` ids, `$2` when).
    pub seen: &'static str,
    /// Marks entrants seen (`$1` tournament, `$2` accounts, `$3` when).
    pub seen_entrants: &'static str,
}

/// The reads of [`super::Store`] for a store with a method
/// `read(&self, f: impl AsyncFnOnce(&impl Db) -> Result<R, StoreError>)`,
/// and the `GameStore` items given (its writes, which each store queues
/// its own way).
macro_rules! store_reads {
    ($store:ty { $($game_items:item)* }) => {
        const _: () = {
            use $crate::model::ratings::{Rating, RatingClass};
            use $crate::store::account_rows::{
                AccountRow, HistoryPoint, RatingRow, Relations, ReportFilter, ReportRow, SessionRow,
            };
            use $crate::store::chat::{ChatMessage, Room};
            use $crate::store::challenges::{self, Challenge, ChallengeStore};
            use $crate::store::mail::{self, MailStore};
            use $crate::store::notifications::{self, Notification, NotificationStore};
            use $crate::store::puzzles::PuzzlePlayer;
            use $crate::store::sql::Db;
            use $crate::store::tournaments::{
                Entered, Tournament, TournamentStore, TournamentSummary,
            };
            use $crate::store::{
                accounts, chat, games, puzzles, tournaments, AccountStore, ChatPage, ChatStore,
                GameStore, Lease, Listing, PuzzleStore, Store, StoreError, StoredGame,
            };

            impl GameStore for $store {
                $($game_items)*

                fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
                    self.read(async |db| games::load(db, id).await)
                }

                fn version(&self, id: &str) -> Result<Option<u64>, StoreError> {
                    self.read(async |db| games::version(db, id).await)
                }

                fn list(
                    &self,
                    which: Listing,
                    limit: u32,
                    offset: u32,
                ) -> Result<(Vec<StoredGame>, u64), StoreError> {
                    self.read(async |db| games::list(db, which, limit, offset).await)
                }

                fn claim_due(
                    &self,
                    now: i64,
                    lease: Lease,
                    limit: u32,
                ) -> Result<Vec<String>, StoreError> {
                    self.read(async |db| games::claim_due(db, now, lease, limit).await)
                }

                fn stale_seeks(
                    &self,
                    seen_before: i64,
                    created_before: i64,
                    limit: u32,
                ) -> Result<Vec<String>, StoreError> {
                    self.read(async |db| {
                        games::stale_seeks(db, seen_before, created_before, limit).await
                    })
                }

                fn ping(&self) -> Result<(), StoreError> {
                    self.read(async |db| Db::query(db, "SELECT 1", &[]).await.map(drop))
                }
            }

            impl AccountStore for $store {
                fn account_by_name(&self, name: &str) -> Result<Option<AccountRow>, StoreError> {
                    self.read(async |db| accounts::account_by_name(db, name).await)
                }

                fn session(
                    &self,
                    token_hash: &[u8],
                ) -> Result<Option<(SessionRow, AccountRow)>, StoreError> {
                    self.read(async |db| accounts::session(db, token_hash).await)
                }

                fn ratings(&self, account_id: &str) -> Result<Vec<RatingRow>, StoreError> {
                    self.read(async |db| accounts::ratings(db, account_id).await)
                }

                fn rating_history(
                    &self,
                    account_id: &str,
                ) -> Result<Vec<HistoryPoint>, StoreError> {
                    self.read(async |db| accounts::history(db, account_id).await)
                }

                fn leaderboard(
                    &self,
                    class: RatingClass,
                    limit: u32,
                    provisional: bool,
                ) -> Result<Vec<(String, Rating)>, StoreError> {
                    self.read(async |db| accounts::leaderboard(db, class, limit, provisional).await)
                }

                fn account_games(
                    &self,
                    account_id: &str,
                    limit: u32,
                ) -> Result<Vec<StoredGame>, StoreError> {
                    self.read(async |db| {
                        let mut out = Vec::new();
                        for id in accounts::game_ids(db, account_id, limit).await? {
                            out.extend(games::load(db, &id).await?);
                        }
                        Ok(out)
                    })
                }

                fn account_game_ids(
                    &self,
                    account_id: &str,
                    limit: u32,
                ) -> Result<Vec<String>, StoreError> {
                    self.read(async |db| accounts::game_ids(db, account_id, limit).await)
                }

                fn relations(&self, account_id: &str) -> Result<Relations, StoreError> {
                    self.read(async |db| accounts::relations(db, account_id).await)
                }

                fn blocked_between(&self, a: &str, b: &str) -> Result<bool, StoreError> {
                    self.read(async |db| accounts::blocked_between(db, a, b).await)
                }

                fn reports(&self, filter: ReportFilter) -> Result<Vec<ReportRow>, StoreError> {
                    self.read(async |db| accounts::reports(db, &filter).await)
                }

                fn reports_by(&self, reporter: &str, since: i64) -> Result<u32, StoreError> {
                    self.read(async |db| accounts::reports_by(db, reporter, since).await)
                }

                fn account_closed(&self, account_id: &str) -> Result<bool, StoreError> {
                    self.read(async |db| accounts::account_closed(db, account_id).await)
                }
            }

            impl ChatStore for $store {
                fn chat(
                    &self,
                    game_id: &str,
                    spectators: bool,
                    page: ChatPage,
                ) -> Result<Vec<ChatMessage>, StoreError> {
                    self.read(async |db| chat::history(db, game_id, spectators, page).await)
                }

                fn chat_count(&self, game_id: &str, room: Room) -> Result<u64, StoreError> {
                    self.read(async |db| chat::count(db, game_id, room).await)
                }
            }

            impl PuzzleStore for $store {
                fn puzzle_ratings(&self) -> Result<Vec<(u32, Rating)>, StoreError> {
                    self.read(async |db| puzzles::ratings(db).await)
                }

                fn puzzle_player(&self, account_id: &str) -> Result<PuzzlePlayer, StoreError> {
                    self.read(async |db| puzzles::player(db, account_id).await)
                }
            }

            impl TournamentStore for $store {
                fn tournament(&self, id: &str) -> Result<Option<Tournament>, StoreError> {
                    self.read(async |db| tournaments::tournament(db, id).await)
                }

                fn tournaments(&self, finished: u32) -> Result<Vec<TournamentSummary>, StoreError> {
                    self.read(async |db| tournaments::tournaments(db, finished).await)
                }

                fn claim_tournaments(
                    &self,
                    now: i64,
                    soon: i64,
                    lease: Lease,
                    limit: u32,
                ) -> Result<Vec<String>, StoreError> {
                    self.read(async |db| tournaments::claim(db, now, soon, lease, limit).await)
                }

                fn release_tournament(&self, id: &str, lease: Lease) -> Result<(), StoreError> {
                    self.read(async |db| tournaments::release(db, id, lease).await)
                }

                fn tournaments_entered(
                    &self,
                    account_id: &str,
                ) -> Result<Vec<Entered>, StoreError> {
                    self.read(async |db| tournaments::entered(db, account_id).await)
                }

                fn tournaments_of(&self, account_id: &str) -> Result<Vec<String>, StoreError> {
                    self.read(async |db| tournaments::of(db, account_id).await)
                }

                fn tournament_blocks(&self, id: &str) -> Result<Vec<(String, String)>, StoreError> {
                    self.read(async |db| tournaments::blocks(db, id).await)
                }
            }

            impl NotificationStore for $store {
                fn notifications(
                    &self,
                    account: &str,
                    before: Option<&str>,
                    limit: u32,
                ) -> Result<Vec<Notification>, StoreError> {
                    self.read(async |db| notifications::page(db, account, before, limit).await)
                }

                fn notification(&self, id: &str) -> Result<Option<Notification>, StoreError> {
                    self.read(async |db| notifications::one(db, id).await)
                }

                fn unread_notifications(&self, account: &str) -> Result<u32, StoreError> {
                    self.read(async |db| notifications::unread(db, account).await)
                }
            }

            impl ChallengeStore for $store {
                fn challenge(&self, id: &str, now: i64) -> Result<Option<Challenge>, StoreError> {
                    self.read(async |db| challenges::one(db, id, now).await)
                }

                fn open_challenges(
                    &self,
                    account: &str,
                    now: i64,
                ) -> Result<Vec<Challenge>, StoreError> {
                    self.read(async |db| challenges::open_of(db, account, now).await)
                }
            }

            impl MailStore for $store {
                fn mail_address(&self, account: &str) -> Result<Option<mail::Address>, StoreError> {
                    self.read(async |db| mail::address(db, account).await)
                }

                fn mail_verified(
                    &self,
                    key: &str,
                ) -> Result<Vec<(mail::Address, String)>, StoreError> {
                    self.read(async |db| mail::verified(db, key).await)
                }

                fn mail_token(&self, hash: &[u8]) -> Result<Option<mail::Token>, StoreError> {
                    self.read(async |db| mail::token(db, hash).await)
                }

                fn claim_mail(
                    &self,
                    now: i64,
                    lease: Lease,
                    limit: u32,
                ) -> Result<Vec<mail::Outgoing>, StoreError> {
                    self.read(async |db| mail::claim(db, now, lease, limit).await)
                }

                fn next_mail_due(&self) -> Result<Option<i64>, StoreError> {
                    self.read(async |db| mail::next_due(db).await)
                }

                fn outbox_counts(&self) -> Result<mail::OutboxCounts, StoreError> {
                    self.read(async |db| mail::counts(db).await)
                }
            }

            impl Store for $store {}
        };
    };
}
pub(crate) use store_reads;
