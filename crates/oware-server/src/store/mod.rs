//! Persistence behind the [`Store`] trait, and its SQLite implementation.
//!
//! Writes go through one writer thread that groups every write waiting in
//! its queue into one transaction, committed with `synchronous=FULL` in WAL
//! mode (one fsync per group). A write's future resolves only after its
//! group is committed, so a move acknowledged to a client is on disk.
//! Reads use a second connection (WAL lets them run beside the writer).

use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

use rusqlite::{params, Connection, OptionalExtension};
use tokio::sync::{mpsc, oneshot};

mod accounts;
mod chat;

use crate::accounts::ratings::{Rating, RatingClass};
use crate::accounts::{AccountOp, AccountRow, HistoryPoint, RatingRow, SessionRow};
use crate::hub::chat::ChatMessage;
use crate::model::{GameMeta, GameStatus};

/// A storage failure (logged; clients see `internal`).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused or failed.
    #[error("database: {0}")]
    Db(#[from] rusqlite::Error),
    /// Stored metadata did not parse.
    #[error("stored game {id}: {message}")]
    Corrupt {
        /// Game id.
        id: String,
        /// What was wrong.
        message: String,
    },
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
}

impl StoreError {
    /// A uniqueness constraint refused the write (a username taken).
    pub fn is_conflict(&self) -> bool {
        matches!(self, StoreError::Db(rusqlite::Error::SqliteFailure(e, _))
            if e.code == rusqlite::ErrorCode::ConstraintViolation)
    }
}

/// One stored ply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredPly {
    /// A move letter, or `-` for a turn lost on time.
    pub text: String,
    /// Both clocks' time left after the ply (South, North), when the game has a clock.
    pub clock: Option<[u64; 2]>,
    /// When it was played, ms since the epoch.
    pub at: i64,
}

/// A game as stored: metadata and plies.
#[derive(Clone, Debug)]
pub struct StoredGame {
    /// Everything but the plies.
    pub meta: GameMeta,
    /// The plies in order.
    pub plies: Vec<StoredPly>,
}

/// One durable change.
#[derive(Clone, Debug)]
pub enum WriteOp {
    /// A new game, possibly with plies (imports).
    Create {
        /// Metadata.
        meta: GameMeta,
        /// Plies already played.
        plies: Vec<StoredPly>,
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
    /// A change to accounts.
    Account(AccountOp),
    /// A chat message.
    Chat(ChatMessage),
    /// Several writes that stand or fall together (a game's end and its
    /// rating, a new game and its link to an account).
    All(Vec<WriteOp>),
}

/// Which games a listing wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listing {
    /// Finished public games, most recently created first.
    Public,
    /// Public online games waiting for an opponent, newest first.
    Lobby,
}

/// Where games are kept. Reads are blocking (call them off the async
/// threads); writes are queued and their future resolves once durable.
pub trait Store: Send + Sync + 'static {
    /// Queues a write; the receiver answers once it is durable.
    fn write(&self, op: WriteOp) -> oneshot::Receiver<Result<(), StoreError>>;
    /// Loads one game.
    fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError>;
    /// Lists games with their plies, and the total count of the listing.
    fn list(
        &self,
        which: Listing,
        limit: u32,
        offset: u32,
    ) -> Result<(Vec<StoredGame>, u64), StoreError>;
    /// Writes committed and groups (transactions) so far.
    fn stats(&self) -> WriteStats;
    /// The account with this username (case-insensitive).
    fn account_by_name(&self, name: &str) -> Result<Option<AccountRow>, StoreError>;
    /// The session with this token hash, and its account.
    fn session(&self, token_hash: &[u8]) -> Result<Option<(SessionRow, AccountRow)>, StoreError>;
    /// An account's rating in every class (the starting rating where it has
    /// played no rated game).
    fn ratings(&self, account_id: &str) -> Result<Vec<RatingRow>, StoreError>;
    /// An account's rating history, oldest first.
    fn rating_history(&self, account_id: &str) -> Result<Vec<HistoryPoint>, StoreError>;
    /// The best established ratings of a class: (username, rating).
    fn leaderboard(
        &self,
        class: RatingClass,
        limit: u32,
    ) -> Result<Vec<(String, Rating)>, StoreError>;
    /// An account's games, ongoing first, then the most recent.
    fn account_games(&self, account_id: &str, limit: u32) -> Result<Vec<StoredGame>, StoreError>;
    /// A game's chat, oldest first: the players' room, and the spectators'
    /// room too when `spectators`.
    fn chat(&self, game_id: &str, spectators: bool) -> Result<Vec<ChatMessage>, StoreError>;
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

type Job = (WriteOp, oneshot::Sender<Result<(), StoreError>>);

/// SQLite storage: one file, WAL mode, group commits.
pub struct SqliteStore {
    queue: mpsc::UnboundedSender<Job>,
    reader: Mutex<Connection>,
    stats: std::sync::Arc<Mutex<WriteStats>>,
}

/// The schema, one step per version: a database at version `v` (SQLite's
/// `user_version`) gets steps `v..` applied in one transaction each. Steps
/// are only ever appended.
const MIGRATIONS: &[&str] = &[
    // 1: games and their plies.
    "
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    status TEXT NOT NULL,
    lobby INTEGER NOT NULL,
    meta TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_updated ON games(updated_at);
CREATE INDEX IF NOT EXISTS games_lobby ON games(lobby, created_at);
CREATE TABLE IF NOT EXISTS plies (
    game_id TEXT NOT NULL,
    ply INTEGER NOT NULL,
    mv TEXT NOT NULL,
    clock_s INTEGER,
    clock_n INTEGER,
    at INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
",
    // 2: whether a game may be listed publicly, as a column.
    "
ALTER TABLE games ADD COLUMN public INTEGER NOT NULL DEFAULT 0;
UPDATE games SET public = coalesce(json_extract(meta, '$.public'), 0);
CREATE INDEX games_public ON games(public, status, created_at);
",
    // 3: accounts, sessions, ratings.
    accounts::MIGRATION,
    // 4: chat messages, kept with their game.
    chat::MIGRATION,
];

/// Brings the database's schema up to the newest version.
fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let known = MIGRATIONS.len() as i64;
    let found: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if found > known {
        return Err(StoreError::TooNew { found, known });
    }
    for (i, step) in MIGRATIONS.iter().enumerate().skip(found as usize) {
        let tx = conn.transaction()?;
        tx.execute_batch(step)?;
        tx.pragma_update(None, "user_version", i as i64 + 1)?;
        tx.commit()?;
        tracing::info!("database schema now at version {}", i + 1);
    }
    Ok(())
}

fn open(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(std::time::Duration::from_secs(10))?;
    // Small pages for a new database: each move dirties one page of the
    // plies index somewhere in the file, and every dirty page is written to
    // the WAL and fsynced, so the page size is the bytes written per move.
    // 512 bytes (the least SQLite allows) instead of 4 KiB cuts the fsynced
    // volume about eight times; see docs/SERVER.md for the measurements.
    // (Ignored for an existing database.)
    conn.pragma_update(None, "page_size", 512)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    // FULL: each commit fsyncs the WAL, so a committed move survives a power cut.
    conn.pragma_update(None, "synchronous", "FULL")?;
    Ok(conn)
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `path` and starts its writer thread.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let mut writer = open(path)?;
        migrate(&mut writer)?;
        let reader = open(path)?;
        let (queue, rx) = mpsc::unbounded_channel();
        let stats = std::sync::Arc::new(Mutex::new(WriteStats::default()));
        let s2 = stats.clone();
        std::thread::Builder::new()
            .name("oware-db-writer".into())
            .spawn(move || writer_loop(writer, rx, s2))
            .map_err(|e| StoreError::Corrupt {
                id: String::new(),
                message: format!("cannot start writer: {e}"),
            })?;
        Ok(SqliteStore {
            queue,
            reader: Mutex::new(reader),
            stats,
        })
    }
}

// Largest number of writes in one transaction.
const MAX_GROUP: usize = 4096;

fn writer_loop(
    mut conn: Connection,
    mut rx: mpsc::UnboundedReceiver<Job>,
    stats: std::sync::Arc<Mutex<WriteStats>>,
) {
    let mut batch: Vec<Job> = Vec::with_capacity(MAX_GROUP);
    while let Some(job) = rx.blocking_recv() {
        batch.push(job);
        while batch.len() < MAX_GROUP {
            match rx.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let started = Instant::now();
        let outcome = commit_group(&mut conn, &batch);
        let n = batch.len();
        match outcome {
            Ok(results) => {
                {
                    let mut s = stats.lock().unwrap_or_else(|e| e.into_inner());
                    let us = started.elapsed().as_micros() as u64;
                    s.ops += n as u64;
                    s.commits += 1;
                    s.commit_us += us;
                    s.max_commit_us = s.max_commit_us.max(us);
                    s.max_group = s.max_group.max(n as u64);
                }
                for ((_, reply), r) in batch.drain(..).zip(results) {
                    let _ = reply.send(r);
                }
            }
            Err(e) => {
                tracing::error!("commit of {n} writes failed: {e}");
                for (_, reply) in batch.drain(..) {
                    let _ = reply.send(Err(StoreError::Commit(e.to_string())));
                }
            }
        }
        tracing::trace!(
            writes = n,
            elapsed_us = started.elapsed().as_micros() as u64,
            "group committed"
        );
    }
}

fn commit_group(
    conn: &mut Connection,
    batch: &[Job],
) -> Result<Vec<Result<(), StoreError>>, rusqlite::Error> {
    let tx = conn.transaction()?;
    let mut results = Vec::with_capacity(batch.len());
    for (op, _) in batch {
        // Each write in its own savepoint: one failing write does not undo the others.
        let r = (|| -> Result<(), rusqlite::Error> {
            tx.execute_batch("SAVEPOINT w")?;
            match apply(&tx, op) {
                Ok(()) => tx.execute_batch("RELEASE w"),
                Err(e) => {
                    tx.execute_batch("ROLLBACK TO w; RELEASE w")?;
                    Err(e)
                }
            }
        })();
        results.push(r.map_err(StoreError::Db));
    }
    tx.commit()?;
    Ok(results)
}

fn upsert_meta(conn: &Connection, meta: &GameMeta) -> Result<(), rusqlite::Error> {
    let json = serde_json::to_string(meta)
        .map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?;
    let status = meta.status();
    let lobby = meta.public && status == GameStatus::Waiting;
    conn.prepare_cached(
        "INSERT INTO games (id, created_at, updated_at, status, lobby, public, meta) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT(id) DO UPDATE SET updated_at = excluded.updated_at, status = excluded.status,
         lobby = excluded.lobby, public = excluded.public, meta = excluded.meta",
    )?
    .execute(params![meta.id, meta.created_at, meta.updated_at, status.as_str(), lobby, meta.public, json])?;
    Ok(())
}

fn insert_ply(
    conn: &Connection,
    id: &str,
    index: u32,
    ply: &StoredPly,
) -> Result<(), rusqlite::Error> {
    conn.prepare_cached("INSERT INTO plies (game_id, ply, mv, clock_s, clock_n, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")?
        .execute(params![
            id,
            index,
            ply.text,
            ply.clock.map(|c| c[0] as i64),
            ply.clock.map(|c| c[1] as i64),
            ply.at
        ])?;
    Ok(())
}

fn apply(conn: &Connection, op: &WriteOp) -> Result<(), rusqlite::Error> {
    match op {
        WriteOp::Create { meta, plies } => {
            upsert_meta(conn, meta)?;
            for (i, p) in plies.iter().enumerate() {
                insert_ply(conn, &meta.id, i as u32, p)?;
            }
        }
        WriteOp::Ply {
            id,
            meta,
            index,
            ply,
        } => {
            insert_ply(conn, id, *index, ply)?;
            if let Some(meta) = meta {
                upsert_meta(conn, meta)?;
            }
        }
        WriteOp::Truncate { meta, from } => {
            conn.prepare_cached("DELETE FROM plies WHERE game_id = ?1 AND ply >= ?2")?
                .execute(params![meta.id, from])?;
            upsert_meta(conn, meta)?;
        }
        WriteOp::Meta(meta) => upsert_meta(conn, meta)?,
        WriteOp::Account(op) => accounts::apply(conn, op)?,
        WriteOp::Chat(m) => chat::insert(conn, m)?,
        WriteOp::All(ops) => {
            for op in ops {
                apply(conn, op)?;
            }
        }
    }
    Ok(())
}

fn parse_meta(id: &str, json: &str) -> Result<GameMeta, StoreError> {
    serde_json::from_str(json).map_err(|e| StoreError::Corrupt {
        id: id.to_string(),
        message: e.to_string(),
    })
}

impl Store for SqliteStore {
    fn write(&self, op: WriteOp) -> oneshot::Receiver<Result<(), StoreError>> {
        let (tx, rx) = oneshot::channel();
        if let Err(mpsc::error::SendError((_, reply))) = self.queue.send((op, tx)) {
            let _ = reply.send(Err(StoreError::Closed));
        }
        rx
    }

    fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        load_with(&conn, id)
    }

    fn list(
        &self,
        which: Listing,
        limit: u32,
        offset: u32,
    ) -> Result<(Vec<StoredGame>, u64), StoreError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        let (count_sql, list_sql) = match which {
            Listing::Public => (
                "SELECT COUNT(*) FROM games WHERE public = 1 AND status = 'over'",
                "SELECT id FROM games WHERE public = 1 AND status = 'over' ORDER BY created_at DESC, id LIMIT ?1 OFFSET ?2",
            ),
            Listing::Lobby => (
                "SELECT COUNT(*) FROM games WHERE lobby = 1",
                "SELECT id FROM games WHERE lobby = 1 ORDER BY created_at DESC, id LIMIT ?1 OFFSET ?2",
            ),
        };
        let total: i64 = conn
            .prepare_cached(count_sql)?
            .query_row([], |r| r.get(0))?;
        let ids = conn
            .prepare_cached(list_sql)?
            .query_map(params![limit, offset], |r| r.get::<_, String>(0))?
            .collect::<Result<Vec<_>, _>>()?;
        let mut games = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(g) = load_with(&conn, &id)? {
                games.push(g);
            }
        }
        Ok((games, total.max(0) as u64))
    }

    fn stats(&self) -> WriteStats {
        *self.stats.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn account_by_name(&self, name: &str) -> Result<Option<AccountRow>, StoreError> {
        accounts::account_by_name(&self.reader(), name)
    }

    fn session(&self, token_hash: &[u8]) -> Result<Option<(SessionRow, AccountRow)>, StoreError> {
        accounts::session(&self.reader(), token_hash)
    }

    fn ratings(&self, account_id: &str) -> Result<Vec<RatingRow>, StoreError> {
        accounts::ratings(&self.reader(), account_id)
    }

    fn rating_history(&self, account_id: &str) -> Result<Vec<HistoryPoint>, StoreError> {
        accounts::history(&self.reader(), account_id)
    }

    fn leaderboard(
        &self,
        class: RatingClass,
        limit: u32,
    ) -> Result<Vec<(String, Rating)>, StoreError> {
        accounts::leaderboard(&self.reader(), class, limit)
    }

    fn chat(&self, game_id: &str, spectators: bool) -> Result<Vec<ChatMessage>, StoreError> {
        chat::history(&self.reader(), game_id, spectators)
    }

    fn account_games(&self, account_id: &str, limit: u32) -> Result<Vec<StoredGame>, StoreError> {
        let conn = self.reader();
        let mut games = Vec::new();
        for id in accounts::game_ids(&conn, account_id, limit)? {
            games.extend(load_with(&conn, &id)?);
        }
        Ok(games)
    }
}

impl SqliteStore {
    fn reader(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.reader.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn load_with(conn: &Connection, id: &str) -> Result<Option<StoredGame>, StoreError> {
    {
        let json: Option<String> = conn
            .prepare_cached("SELECT meta FROM games WHERE id = ?1")?
            .query_row([id], |r| r.get(0))
            .optional()?;
        let Some(json) = json else { return Ok(None) };
        let meta = parse_meta(id, &json)?;
        let mut stmt = conn.prepare_cached(
            "SELECT mv, clock_s, clock_n, at FROM plies WHERE game_id = ?1 ORDER BY ply",
        )?;
        let plies = stmt
            .query_map([id], |r| {
                let s: Option<i64> = r.get(1)?;
                let n: Option<i64> = r.get(2)?;
                Ok(StoredPly {
                    text: r.get(0)?,
                    clock: s.zip(n).map(|(s, n)| [s.max(0) as u64, n.max(0) as u64]),
                    at: r.get(3)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Some(StoredGame { meta, plies }))
    }
}
