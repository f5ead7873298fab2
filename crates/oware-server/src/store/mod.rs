//! Persistence behind the [`Store`] trait, with two implementations:
//!
//! - [`SqliteStore`] (`sqlite/`): one file, the embedded default for one
//!   node;
//! - [`PgStore`] (`postgres/`): PostgreSQL, which several `oware serve`
//!   nodes share (docs/DEPLOY.md).
//!
//! Both group the writes waiting in their queue into one transaction, and a
//! write's future resolves only once its transaction is committed, so a
//! move acknowledged to a client is durable. Both run the same contract
//! tests (`tests/server/store_contract.rs`).
//!
//! Every write and read is written once, for both: `games.rs`,
//! `accounts.rs` (with the rating of a game and what a deleted account
//! leaves), `chat.rs`, `puzzles.rs` (the first attempt rates both) and
//! `tournaments.rs` (caps, entrants, claims) hold `async` functions over
//! `sql::Db`, a connection that can execute a statement, query rows and
//! notify other nodes. A rusqlite connection implements it (its futures
//! are ready at once and polled once) and so does a tokio-postgres client
//! or transaction. Statements are one text with `$n` placeholders, which
//! SQLite binds by name; rows come back as driver-free fields, mapped to
//! the row types once; the few statements the two databases write
//! differently (row locks, `SKIP LOCKED` claims, a game's version row,
//! lists) are each store's `sql::Dialect`. The dialect folders keep
//! what only they can: schemas, connections, writers and the listener.
//! Why this and not sqlx or an ORM: no new dependency or build step, and
//! the trait is small enough to read in one sitting.
//!
//! Every change of a game carries the game's version as its writer saw it
//! ([`WriteOp::Version`]): a write made from an out-of-date copy is refused
//! ([`StoreError::Stale`]), so two nodes can never store different moves at
//! the same ply.

use tokio::sync::{mpsc, oneshot};

pub mod postgres;
pub mod sqlite;

pub use postgres::PgStore;
pub use sqlite::{Checkpoints, SqliteStore};

use crate::model::ratings::{Rating, RatingClass};
use account_rows::{AccountOp, AccountRow, HistoryPoint, RatingRow, SessionRow};
pub mod account_rows;
mod accounts;
mod games;
pub(crate) mod sql;

/// A node's hold on a row it works on, so that no other node takes it up
/// meanwhile: taken at `now` for `ms`, on the machines' own clocks
/// ([`crate::time::Time::lease_ms`]), not the server's game time: a test's
/// clock that stands still must not hold a lease for ever.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lease {
    /// When the lease is taken (ms since the Unix epoch, the machine's).
    pub now: i64,
    /// How long it holds.
    pub ms: i64,
}
pub mod challenges;
pub mod chat;
pub mod limits;
pub mod mail;
pub mod notifications;
pub mod puzzles;
pub mod tournaments;

use crate::model::GameMeta;
use chat::{ChatMessage, Room};

pub use crate::model::chat::ChatPage;

/// A storage failure (logged; clients see `internal`, or `stale` for
/// [`StoreError::Stale`]).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite refused or failed.
    #[error("database: {0}")]
    Db(#[from] rusqlite::Error),
    /// PostgreSQL refused or failed.
    #[error("postgresql: {0}")]
    Pg(#[from] tokio_postgres::Error),
    /// No PostgreSQL connection could be had from the pool.
    #[error("postgresql pool: {0}")]
    Pool(#[from] deadpool_postgres::PoolError),
    /// Stored metadata did not parse.
    #[error("stored game {id}: {message}")]
    Corrupt {
        /// Game id.
        id: String,
        /// What was wrong.
        message: String,
    },
    /// The game changed since the writer read it (another node, or another
    /// request, stored a change first).
    #[error("game {id} changed since version {expected}")]
    Stale {
        /// Game id.
        id: String,
        /// The version the writer had.
        expected: u64,
    },
    /// A stored column did not read as the type expected (a schema the
    /// program does not match).
    #[error("column {column}: expected {expected}")]
    Column {
        /// The column's place in its query, from 0.
        column: usize,
        /// What it should have held.
        expected: &'static str,
    },
    /// The name belonged to an account deleted less than
    /// [`account_rows::NAME_RESERVED_MS`] ago (a conflict, as a name taken).
    #[error("this name belonged to a deleted account")]
    NameReserved,
    /// The row a write was to change is no longer as it expected (a
    /// challenge answered, withdrawn or expired meanwhile); nothing was
    /// written.
    #[error("{0} is no longer open")]
    Gone(String),
    /// The writer has stopped.
    #[error("the database writer has stopped")]
    Closed,
    /// The transaction holding this write failed to commit.
    #[error("commit failed: {0}")]
    Commit(String),
    /// The database was written by a newer version of this program.
    #[error("the database has schema version {found}; this program knows up to {known}")]
    TooNew {
        /// The database's version.
        found: i64,
        /// The newest version this program knows.
        known: i64,
    },
    /// The store could not be opened (bad URL, unreachable server, no
    /// thread).
    #[error("{0}")]
    Open(String),
    /// A cap checked inside the write's transaction was reached (so two
    /// concurrent writes cannot both pass it); nothing was written.
    #[error("{what}: at most {cap}")]
    Full {
        /// What is capped.
        what: Cap,
        /// The cap.
        cap: u32,
    },
}

/// What a [`StoreError::Full`] refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Cap {
    /// Open tournaments created by one account.
    #[error("open tournaments of one creator")]
    TournamentsOfCreator,
    /// Open tournaments created by players, all together.
    #[error("open tournaments created by players")]
    OpenTournaments,
    /// Open challenges made by one account.
    #[error("open challenges of one challenger")]
    OpenChallenges,
}

impl StoreError {
    /// A uniqueness constraint refused the write (a username taken).
    pub fn is_conflict(&self) -> bool {
        match self {
            StoreError::Db(rusqlite::Error::SqliteFailure(e, _)) => {
                e.code == rusqlite::ErrorCode::ConstraintViolation
            }
            StoreError::Pg(e) => {
                e.code() == Some(&tokio_postgres::error::SqlState::UNIQUE_VIOLATION)
            }
            StoreError::NameReserved => true,
            _ => false,
        }
    }

    /// The write was made from an out-of-date copy of its game.
    pub fn is_stale(&self) -> bool {
        matches!(self, StoreError::Stale { .. })
    }
}

pub use crate::model::game::{Due, StoredGame, StoredPly};

/// Opens the database a server would: a PostgreSQL URL, a SQLite file, or
/// the default SQLite file of `oware serve` (the operator's tools and the
/// tests' look at a server's database).
pub async fn open(db: Option<&str>) -> Result<std::sync::Arc<dyn Store>, StoreError> {
    Ok(match db {
        Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
            std::sync::Arc::new(PgStore::connect(url, 2).await?)
        }
        Some(path) => std::sync::Arc::new(SqliteStore::open(std::path::Path::new(path))?),
        None => {
            let path = crate::default_db_path()
                .map_err(|e| StoreError::Open(format!("no default database: {e}")))?;
            std::sync::Arc::new(SqliteStore::open(&path)?)
        }
    })
}

/// One durable change.
#[derive(Clone, Debug)]
pub enum WriteOp {
    /// A new game, possibly with plies (imports), at version 0.
    Create {
        /// Metadata.
        meta: GameMeta,
        /// Plies already played.
        plies: Vec<StoredPly>,
        /// Its deadlines.
        due: Due,
    },
    /// Ply number `index` (0-based) was played. Only the ply is written
    /// (one small row) unless the metadata changed too (an offer lapsed, the
    /// game ended).
    Ply {
        /// Game id.
        id: String,
        /// Metadata after the ply, when it changed.
        meta: Option<GameMeta>,
        /// 0-based index of the ply.
        index: u32,
        /// The ply.
        ply: StoredPly,
    },
    /// Plies from `from` on were taken back; the metadata after it.
    Truncate {
        /// Metadata after the undo.
        meta: GameMeta,
        /// First ply index removed.
        from: u32,
    },
    /// The metadata changed (seat taken, offer, result, rematch...).
    Meta(GameMeta),
    /// The game is at version `expected`: its version becomes
    /// `expected + 1` and its deadlines `due`. Refused with
    /// [`StoreError::Stale`] otherwise. Put first in a [`WriteOp::All`]
    /// with the change it guards. Without `expected` (a store no other
    /// node writes), only the deadlines are set.
    Version {
        /// Game id.
        id: String,
        /// The version the change was made from, checked when other nodes
        /// share the store.
        expected: Option<u64>,
        /// The deadlines after the change.
        due: Due,
    },
    /// A change to accounts.
    Account(AccountOp),
    /// The creators of these seeks are still connected, at `at` (ms since
    /// the epoch); a seek not seen for a while is cancelled
    /// ([`GameStore::stale_seeks`]).
    Seen {
        /// Game ids.
        ids: Vec<String>,
        /// When.
        at: i64,
    },
    /// A chat message.
    Chat(ChatMessage),
    /// An account's attempt at a puzzle (rated once per account and
    /// puzzle; `store/puzzles.rs`).
    PuzzleAttempt(puzzles::PuzzleAttempt),
    /// A change to tournaments (`store/tournaments.rs`).
    Tournament(tournaments::TournamentOp),
    /// A change to notifications (`store/notifications.rs`).
    Notification(notifications::NotificationOp),
    /// A change to challenges (`store/challenges.rs`).
    Challenge(challenges::ChallengeOp),
    /// A change to e-mail data (`store/mail.rs`).
    Mail(mail::MailOp),
    /// A message to every node sharing the store, sent when (and only if)
    /// the transaction holding it commits (PostgreSQL `NOTIFY`; nothing
    /// for a store no other node shares).
    Notify(String),
    /// Several writes that stand or fall together (a game's end and its
    /// rating, a new game and its link to an account).
    All(Vec<WriteOp>),
}

pub use crate::model::game::Listing;

/// What the store's subscription delivers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// A [`WriteOp::Notify`] payload, from any node (this one included),
    /// in commit order.
    Message(String),
    /// The subscription was lost and is back: messages may have been
    /// missed, so every game held in memory must be read again.
    Resync,
}

/// Games: their moves and metadata, listings, deadlines, and what nodes
/// sharing the store need. Reads are blocking (call them off the async
/// threads); writes (of every kind: [`WriteOp`]) are queued and their
/// future resolves once durable.
pub trait GameStore: Send + Sync + 'static {
    /// Queues a write; the receiver answers once it is durable.
    fn write(&self, op: WriteOp) -> oneshot::Receiver<Result<(), StoreError>>;
    /// Loads one game.
    fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError>;
    /// A game's version (changes stored), if it exists.
    fn version(&self, id: &str) -> Result<Option<u64>, StoreError>;
    /// Lists games with their plies, and the total count of the listing.
    fn list(
        &self,
        which: Listing,
        limit: u32,
        offset: u32,
    ) -> Result<(Vec<StoredGame>, u64), StoreError>;
    /// Writes committed and groups (transactions) so far.
    fn stats(&self) -> WriteStats;
    /// Claims up to `limit` games whose deadline (`Due::at`) is at or
    /// before `now` (the server's clock) and that no node holds a
    /// [`Lease`] on; each is leased (PostgreSQL: `FOR UPDATE SKIP LOCKED`,
    /// so two nodes never claim the same game at once).
    fn claim_due(&self, now: i64, lease: Lease, limit: u32) -> Result<Vec<String>, StoreError>;
    /// Seeks (public games waiting in the lobby) whose creator was last
    /// seen before `seen_before` or that were made before
    /// `created_before`: up to `limit` ids, to be cancelled.
    fn stale_seeks(
        &self,
        seen_before: i64,
        created_before: i64,
        limit: u32,
    ) -> Result<Vec<String>, StoreError>;
    /// Answers if the database does (for `/readyz`).
    fn ping(&self) -> Result<(), StoreError>;
    /// Whether other nodes may share this store (then the hub publishes
    /// its changes and listens for theirs).
    fn shared(&self) -> bool {
        false
    }
    /// The messages of [`WriteOp::Notify`] from every node, once
    /// subscribed; `None` for a store nobody else shares.
    fn subscribe(&self) -> Option<mpsc::UnboundedReceiver<Notice>> {
        None
    }
    /// The rate-limit counters every node shares; `None` for a store nobody
    /// else shares.
    fn shared_limits(&self) -> Option<&dyn limits::SharedLimits> {
        None
    }
}

/// Accounts: their rows, sessions, ratings and games (blocking reads).
pub trait AccountStore: Send + Sync + 'static {
    /// The account with this username (case-insensitive).
    fn account_by_name(&self, name: &str) -> Result<Option<AccountRow>, StoreError>;
    /// The session with this token hash, and its account.
    fn session(&self, token_hash: &[u8]) -> Result<Option<(SessionRow, AccountRow)>, StoreError>;
    /// An account's rating in every class (the starting rating where it has
    /// played no rated game).
    fn ratings(&self, account_id: &str) -> Result<Vec<RatingRow>, StoreError>;
    /// An account's rating history, oldest first.
    fn rating_history(&self, account_id: &str) -> Result<Vec<HistoryPoint>, StoreError>;
    /// The best ratings of a class: (username, rating); the established
    /// ones, then the provisional ones too when `provisional`.
    fn leaderboard(
        &self,
        class: RatingClass,
        limit: u32,
        provisional: bool,
    ) -> Result<Vec<(String, Rating)>, StoreError>;
    /// An account's games, ongoing first, then the most recent.
    fn account_games(&self, account_id: &str, limit: u32) -> Result<Vec<StoredGame>, StoreError>;
    /// The ids of [`AccountStore::account_games`], in the same order, without
    /// reading the games (for reading them a page at a time).
    fn account_game_ids(&self, account_id: &str, limit: u32) -> Result<Vec<String>, StoreError> {
        Ok(self
            .account_games(account_id, limit)?
            .into_iter()
            .map(|g| g.meta.id)
            .collect())
    }
    /// Whom an account follows and has blocked.
    fn relations(&self, account_id: &str) -> Result<account_rows::Relations, StoreError>;
    /// Has either account blocked the other?
    fn blocked_between(&self, a: &str, b: &str) -> Result<bool, StoreError>;
    /// The reports, newest first.
    fn reports(
        &self,
        filter: account_rows::ReportFilter,
    ) -> Result<Vec<account_rows::ReportRow>, StoreError>;
    /// Reports an account made since `since` (ms since the epoch).
    fn reports_by(&self, reporter: &str, since: i64) -> Result<u32, StoreError>;
    /// Was the account closed by an operator?
    fn account_closed(&self, account_id: &str) -> Result<bool, StoreError>;
}

/// The in-game chat (blocking reads).
pub trait ChatStore: Send + Sync + 'static {
    /// A page of a game's chat, oldest first: the players' room, and the
    /// spectators' room too when `spectators`; the `limit` latest messages
    /// before the message `before` (or the latest of all).
    fn chat(
        &self,
        game_id: &str,
        spectators: bool,
        page: ChatPage,
    ) -> Result<Vec<ChatMessage>, StoreError>;
    /// Messages kept for a game in `room`.
    fn chat_count(&self, game_id: &str, room: Room) -> Result<u64, StoreError>;
}

/// Puzzle ratings (blocking reads; `store/puzzles.rs`).
pub trait PuzzleStore: Send + Sync + 'static {
    /// Every puzzle's stored rating (puzzles not listed have their
    /// starting rating).
    fn puzzle_ratings(&self) -> Result<Vec<(u32, Rating)>, StoreError>;
    /// An account's puzzle rating and the puzzles it tried.
    fn puzzle_player(&self, account_id: &str) -> Result<puzzles::PuzzlePlayer, StoreError>;
}

/// Where games, accounts, chat, puzzle ratings and tournaments are kept: the stores in
/// one database, so a game's end and its ratings commit together.
pub trait Store:
    GameStore
    + AccountStore
    + ChatStore
    + PuzzleStore
    + tournaments::TournamentStore
    + notifications::NotificationStore
    + challenges::ChallengeStore
    + mail::MailStore
{
}

/// Counters of the writer.
#[derive(Clone, Copy, Debug, Default)]
pub struct WriteStats {
    /// Write operations committed.
    pub ops: u64,
    /// Transactions committed.
    pub commits: u64,
    /// Time spent committing (including the fsync), microseconds.
    pub commit_us: u64,
    /// Longest commit, microseconds.
    pub max_commit_us: u64,
    /// Largest group.
    pub max_group: u64,
}

impl WriteStats {
    /// Counts one committed group of `n` writes that took `us` µs.
    pub(crate) fn record(&mut self, n: usize, us: u64) {
        self.ops += n as u64;
        self.commits += 1;
        self.commit_us += us;
        self.max_commit_us = self.max_commit_us.max(us);
        self.max_group = self.max_group.max(n as u64);
    }
}

/// Largest number of writes in one transaction.
pub(crate) const MAX_GROUP: usize = 4096;

/// A queued write and where its outcome goes.
pub(crate) type Job = (WriteOp, oneshot::Sender<Result<(), StoreError>>);

/// Sends `op` to a writer's queue; a stopped writer answers `Closed`.
pub(crate) fn enqueue(
    queue: &mpsc::UnboundedSender<Job>,
    op: WriteOp,
) -> oneshot::Receiver<Result<(), StoreError>> {
    let (tx, rx) = oneshot::channel();
    if let Err(mpsc::error::SendError((_, reply))) = queue.send((op, tx)) {
        let _ = reply.send(Err(StoreError::Closed));
    }
    rx
}

/// The metadata of a stored game, parsed.
pub(crate) fn parse_meta(id: &str, json: &str) -> Result<GameMeta, StoreError> {
    let mut meta: GameMeta = serde_json::from_str(json).map_err(|e| StoreError::Corrupt {
        id: id.to_string(),
        message: e.to_string(),
    })?;
    meta.upgrade_secrets();
    Ok(meta)
}

/// The metadata as stored.
pub(crate) fn meta_json(meta: &GameMeta) -> Result<String, StoreError> {
    serde_json::to_string(meta).map_err(|e| StoreError::Corrupt {
        id: meta.id.clone(),
        message: e.to_string(),
    })
}
