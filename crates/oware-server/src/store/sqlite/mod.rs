//! The SQLite store: one file, for one node.
//!
//! Writes go through one writer thread that groups every write waiting in
//! its queue into one transaction, committed with `synchronous=FULL` in WAL
//! mode (one fsync per group). A write's future resolves only after its
//! group is committed, so a move acknowledged to a client is on disk.
//! Reads use a small pool of other connections ([`READERS`]; WAL lets them
//! run beside the writer and each other), so one client's long read (an
//! export) does not make everyone else's wait (issue 33, finding 6).

use std::path::Path;
use std::sync::{Condvar, Mutex};
use std::time::Instant;

use rusqlite::{params, Connection, OptionalExtension};
use tokio::sync::{mpsc, oneshot};

mod accounts;
mod chat;
mod community;
mod puzzles;
mod tournaments;

use super::chat::{ChatMessage, Room};
use super::{
    enqueue, meta_json, parse_meta, AccountStore, ChatPage, ChatStore, Due, GameStore, Job, Lease,
    Listing, PuzzleStore, Store, StoreError, StoredGame, StoredPly, WriteOp, WriteStats, MAX_GROUP,
};
use crate::model::{GameMeta, GameStatus};
use crate::ratings::{Rating, RatingClass};
use crate::store::account_rows::{AccountRow, HistoryPoint, RatingRow, SessionRow};

/// SQLite storage: one file, WAL mode, group commits.
pub struct SqliteStore {
    queue: mpsc::UnboundedSender<Job>,
    readers: Readers,
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
    // 5: each game's version (changes stored) and deadlines.
    "
ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN clock_due INTEGER;
ALTER TABLE games ADD COLUMN due_at INTEGER;
ALTER TABLE games ADD COLUMN due_claim INTEGER;
CREATE INDEX games_due ON games(due_at) WHERE due_at IS NOT NULL;
",
    // 6: a deleted account's name stays reserved for 30 days, so nobody
    // takes it over with its old chat lines and games.
    "
CREATE TABLE released_names (
    username_key TEXT PRIMARY KEY,
    until INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TRIGGER accounts_release AFTER DELETE ON accounts BEGIN
    INSERT INTO released_names (username_key, until)
    VALUES (OLD.username_key, CAST(strftime('%s', 'now') AS INTEGER) * 1000 + 2592000000)
    ON CONFLICT (username_key) DO UPDATE SET until = excluded.until;
END;
CREATE TRIGGER accounts_reserved BEFORE INSERT ON accounts
WHEN EXISTS (SELECT 1 FROM released_names
             WHERE username_key = NEW.username_key AND until > NEW.created_at)
BEGIN
    SELECT RAISE(ABORT, 'this name belonged to a deleted account');
END;
",
    // 7: seat tokens and invite codes hashed at rest; the rows are
    // rewritten in Rust (`rehash_secrets`).
    "-- no schema change",
    // 8: a game's version and deadlines in a small row of their own: every
    // move changes them, and rewriting the games row (its metadata spans
    // several 512-byte pages) with each move doubled the commit's pages.
    "
CREATE TABLE game_state (
    id TEXT PRIMARY KEY,
    version INTEGER NOT NULL DEFAULT 0,
    clock_due INTEGER,
    due_at INTEGER,
    due_claim INTEGER
) WITHOUT ROWID;
INSERT INTO game_state (id, version, clock_due, due_at, due_claim)
    SELECT id, version, clock_due, due_at, due_claim FROM games;
CREATE INDEX game_state_due ON game_state(due_at) WHERE due_at IS NOT NULL;
DROP INDEX games_due;
ALTER TABLE games DROP COLUMN version;
ALTER TABLE games DROP COLUMN clock_due;
ALTER TABLE games DROP COLUMN due_at;
ALTER TABLE games DROP COLUMN due_claim;
",
    // 9: puzzle ratings (accounts' and puzzles') and attempts.
    puzzles::MIGRATION,
    // 10: when a seek's creator was last seen connected.
    "
ALTER TABLE games ADD COLUMN seen_at INTEGER;
UPDATE games SET seen_at = updated_at WHERE lobby = 1;
CREATE INDEX games_seen ON games(seen_at) WHERE lobby = 1;
",
    // 11: follows, blocks, reports and accounts closed by an operator.
    community::MIGRATION,
    // 12: tournaments, their entrants and pairings.
    tournaments::MIGRATION,
    // 13: a chat message's writer's account, so a block hides it.
    "ALTER TABLE chat ADD COLUMN account TEXT;",
];

/// The step whose rows [`rehash_secrets`] rewrites.
const REHASH_STEP: usize = 7;

/// Rewrites the metadata that older versions stored with plain seat tokens
/// and invite codes (its fields `"invite"` and `"token"`) with their hashes.
fn rehash_secrets(tx: &rusqlite::Transaction) -> Result<(), StoreError> {
    let rows: Vec<(String, String)> = tx
        .prepare("SELECT id, meta FROM games WHERE meta LIKE '%\"invite\":%'")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    for (id, json) in &rows {
        let meta = parse_meta(id, json)?;
        tx.execute(
            "UPDATE games SET meta = ?1 WHERE id = ?2",
            params![meta_json(&meta)?, id],
        )?;
    }
    if !rows.is_empty() {
        tracing::info!(
            "hashed the seat tokens and invite codes of {} games",
            rows.len()
        );
    }
    Ok(())
}

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
        if i + 1 == REHASH_STEP {
            rehash_secrets(&tx)?;
        }
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
        let readers = Readers::open(path)?;
        let (queue, rx) = mpsc::unbounded_channel();
        let stats = std::sync::Arc::new(Mutex::new(WriteStats::default()));
        let s2 = stats.clone();
        std::thread::Builder::new()
            .name("oware-db-writer".into())
            .spawn(move || writer_loop(writer, rx, s2))
            .map_err(|e| StoreError::Open(format!("cannot start the writer thread: {e}")))?;
        Ok(SqliteStore {
            queue,
            readers,
            stats,
        })
    }
}

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
                stats
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .record(n, started.elapsed().as_micros() as u64);
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
    // IMMEDIATE: the write lock is taken at the start, waiting (the busy
    // timeout) for a claim another connection is writing. A deferred
    // transaction whose first statement reads (the tournament caps) could
    // not upgrade once such a claim had committed, and failed at once with
    // "database is locked" (seen in tests/strangers, finding 2).
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let mut results = Vec::with_capacity(batch.len());
    for (op, _) in batch {
        // Each write in its own savepoint: one failing write does not undo the others.
        tx.execute_batch("SAVEPOINT w")?;
        let r = apply(&tx, op);
        match r {
            Ok(()) => tx.execute_batch("RELEASE w")?,
            Err(_) => tx.execute_batch("ROLLBACK TO w; RELEASE w")?,
        }
        results.push(r);
    }
    tx.commit()?;
    Ok(results)
}

fn upsert_meta(conn: &Connection, meta: &GameMeta) -> Result<(), StoreError> {
    let json = meta_json(meta)?;
    let status = meta.status();
    let lobby = meta.public && status == GameStatus::Waiting;
    conn.prepare_cached(
        "INSERT INTO games (id, created_at, updated_at, status, lobby, public, meta, seen_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?2)
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

fn apply(conn: &Connection, op: &WriteOp) -> Result<(), StoreError> {
    match op {
        WriteOp::Create { meta, plies, due } => {
            upsert_meta(conn, meta)?;
            for (i, p) in plies.iter().enumerate() {
                insert_ply(conn, &meta.id, i as u32, p)?;
            }
            set_due(conn, &meta.id, None, *due)?;
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
        WriteOp::Version { id, expected, due } => set_due(conn, id, *expected, *due)?,
        WriteOp::Account(op) => {
            if !community::apply(conn, op)? {
                if let crate::store::account_rows::AccountOp::Delete { id } = op {
                    community::forget(conn, id)?;
                }
                accounts::apply(conn, op)?;
            }
        }
        // Nobody else shares this file.
        WriteOp::Notify(_) => {}
        WriteOp::Seen { ids, at } => {
            let mut stmt =
                conn.prepare_cached("UPDATE games SET seen_at = ?2 WHERE id = ?1 AND lobby = 1")?;
            for id in ids {
                stmt.execute(params![id, at])?;
            }
        }
        WriteOp::Chat(m) => chat::insert(conn, m)?,
        WriteOp::PuzzleAttempt(a) => puzzles::attempt(conn, a)?,
        WriteOp::Tournament(t) => tournaments::apply(conn, t)?,
        WriteOp::All(ops) => {
            for op in ops {
                apply(conn, op)?;
            }
        }
    }
    Ok(())
}

/// Sets a game's deadlines; with `expected`, also checks that the game is
/// at that version and moves it to the next one.
fn set_due(conn: &Connection, id: &str, expected: Option<u64>, due: Due) -> Result<(), StoreError> {
    let changed = match expected {
        Some(v) => conn
            .prepare_cached(
                "UPDATE game_state SET version = version + 1, clock_due = ?3, due_at = ?4, due_claim = NULL
                 WHERE id = ?1 AND version = ?2",
            )?
            .execute(params![id, v as i64, due.clock, due.at])?,
        None => conn
            .prepare_cached(
                "INSERT INTO game_state (id, clock_due, due_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (id) DO UPDATE SET clock_due = excluded.clock_due,
                 due_at = excluded.due_at, due_claim = NULL",
            )?
            .execute(params![id, due.clock, due.at])?,
    };
    match (changed, expected) {
        (0, Some(expected)) => Err(StoreError::Stale {
            id: id.to_string(),
            expected,
        }),
        _ => Ok(()),
    }
}

impl GameStore for SqliteStore {
    fn write(&self, op: WriteOp) -> oneshot::Receiver<Result<(), StoreError>> {
        enqueue(&self.queue, op)
    }

    fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let conn = self.reader();
        load_with(&conn, id)
    }

    fn stale_seeks(
        &self,
        seen_before: i64,
        created_before: i64,
        limit: u32,
    ) -> Result<Vec<String>, StoreError> {
        let conn = self.reader();
        let mut stmt = conn.prepare_cached(
            "SELECT id FROM games WHERE lobby = 1
             AND (coalesce(seen_at, 0) < ?1 OR created_at < ?2) LIMIT ?3",
        )?;
        let ids = stmt
            .query_map(params![seen_before, created_before, limit], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        Ok(ids)
    }

    fn version(&self, id: &str) -> Result<Option<u64>, StoreError> {
        let v: Option<i64> = self
            .reader()
            .prepare_cached("SELECT version FROM game_state WHERE id = ?1")?
            .query_row([id], |r| r.get(0))
            .optional()?;
        Ok(v.map(|v| v.max(0) as u64))
    }

    fn list(
        &self,
        which: Listing,
        limit: u32,
        offset: u32,
    ) -> Result<(Vec<StoredGame>, u64), StoreError> {
        let conn = self.reader();
        // Every listing takes `?3`, the oldest change (only `Playing` uses it).
        let (count_sql, list_sql, since) = match which {
            Listing::Public => (
                "SELECT COUNT(*) FROM games WHERE public = 1 AND status = 'over' AND ?1 IS NOT NULL",
                "SELECT id FROM games WHERE public = 1 AND status = 'over' AND ?3 IS NOT NULL ORDER BY created_at DESC, id LIMIT ?1 OFFSET ?2",
                0,
            ),
            Listing::Lobby => (
                "SELECT COUNT(*) FROM games WHERE lobby = 1 AND ?1 IS NOT NULL",
                "SELECT id FROM games WHERE lobby = 1 AND ?3 IS NOT NULL ORDER BY created_at DESC, id LIMIT ?1 OFFSET ?2",
                0,
            ),
            Listing::Playing { since } => (
                // A plain move stores only its ply: the last change is
                // the newer of the game's row and its last ply.
                "SELECT COUNT(*) FROM games g WHERE public = 1 AND status = 'playing'
                 AND max(updated_at, coalesce((SELECT max(at) FROM plies p WHERE p.game_id = g.id), 0)) >= ?1",
                "SELECT id FROM (SELECT id, max(updated_at, coalesce((SELECT max(at) FROM plies p WHERE p.game_id = g.id), 0)) AS last
                 FROM games g WHERE public = 1 AND status = 'playing') WHERE last >= ?3 ORDER BY last DESC, id LIMIT ?1 OFFSET ?2",
                since,
            ),
        };
        let total: i64 = conn
            .prepare_cached(count_sql)?
            .query_row([since], |r| r.get(0))?;
        let ids = conn
            .prepare_cached(list_sql)?
            .query_map(params![limit, offset, since], |r| r.get::<_, String>(0))?
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

    fn claim_due(&self, now: i64, lease: Lease, limit: u32) -> Result<Vec<String>, StoreError> {
        // One node: no other claims to skip, but the lease keeps a game
        // from being taken up again before its timer has acted.
        let conn = self.reader();
        let ids = conn
            .prepare_cached(
                "UPDATE game_state SET due_claim = ?2 WHERE id IN (
                    SELECT id FROM game_state WHERE due_at <= ?1 AND coalesce(due_claim, 0) <= ?4
                    ORDER BY due_at LIMIT ?3)
                 RETURNING id",
            )?
            .query_map(params![now, lease.now + lease.ms, limit, lease.now], |r| {
                r.get(0)
            })?
            .collect::<Result<Vec<String>, _>>()?;
        Ok(ids)
    }

    fn ping(&self) -> Result<(), StoreError> {
        self.reader().query_row("SELECT 1", [], |_| Ok(()))?;
        Ok(())
    }
}

impl AccountStore for SqliteStore {
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
        provisional: bool,
    ) -> Result<Vec<(String, Rating)>, StoreError> {
        accounts::leaderboard(&self.reader(), class, limit, provisional)
    }

    fn account_games(&self, account_id: &str, limit: u32) -> Result<Vec<StoredGame>, StoreError> {
        let conn = self.reader();
        let mut games = Vec::new();
        for id in accounts::game_ids(&conn, account_id, limit)? {
            games.extend(load_with(&conn, &id)?);
        }
        Ok(games)
    }

    fn account_game_ids(&self, account_id: &str, limit: u32) -> Result<Vec<String>, StoreError> {
        accounts::game_ids(&self.reader(), account_id, limit)
    }

    fn relations(
        &self,
        account_id: &str,
    ) -> Result<crate::store::account_rows::Relations, StoreError> {
        community::relations(&self.reader(), account_id)
    }

    fn blocked_between(&self, a: &str, b: &str) -> Result<bool, StoreError> {
        community::blocked_between(&self.reader(), a, b)
    }

    fn reports(
        &self,
        filter: crate::store::account_rows::ReportFilter,
    ) -> Result<Vec<crate::store::account_rows::ReportRow>, StoreError> {
        community::reports(&self.reader(), &filter)
    }

    fn reports_by(&self, reporter: &str, since: i64) -> Result<u32, StoreError> {
        community::reports_by(&self.reader(), reporter, since)
    }

    fn account_closed(&self, account_id: &str) -> Result<bool, StoreError> {
        community::account_closed(&self.reader(), account_id)
    }
}

impl ChatStore for SqliteStore {
    fn chat(
        &self,
        game_id: &str,
        spectators: bool,
        page: ChatPage,
    ) -> Result<Vec<ChatMessage>, StoreError> {
        chat::history(&self.reader(), game_id, spectators, page)
    }

    fn chat_count(&self, game_id: &str, room: Room) -> Result<u64, StoreError> {
        chat::count(&self.reader(), game_id, room)
    }
}

impl PuzzleStore for SqliteStore {
    fn puzzle_ratings(&self) -> Result<Vec<(u32, Rating)>, StoreError> {
        puzzles::ratings(&self.reader())
    }

    fn puzzle_player(
        &self,
        account_id: &str,
    ) -> Result<crate::store::puzzles::PuzzlePlayer, StoreError> {
        puzzles::player(&self.reader(), account_id)
    }
}

impl crate::store::tournaments::TournamentStore for SqliteStore {
    fn tournament(
        &self,
        id: &str,
    ) -> Result<Option<crate::store::tournaments::Tournament>, StoreError> {
        tournaments::tournament(&self.reader(), id)
    }

    fn tournaments(
        &self,
        finished: u32,
    ) -> Result<Vec<crate::store::tournaments::TournamentSummary>, StoreError> {
        tournaments::tournaments(&self.reader(), finished)
    }

    fn claim_tournaments(
        &self,
        now: i64,
        lease: Lease,
        limit: u32,
    ) -> Result<Vec<String>, StoreError> {
        tournaments::claim(&self.reader(), now, lease, limit)
    }

    fn tournaments_entered(
        &self,
        account_id: &str,
    ) -> Result<Vec<crate::store::tournaments::Entered>, StoreError> {
        tournaments::entered(&self.reader(), account_id)
    }

    fn tournaments_of(&self, account_id: &str) -> Result<Vec<String>, StoreError> {
        tournaments::of(&self.reader(), account_id)
    }

    fn tournament_blocks(&self, id: &str) -> Result<Vec<(String, String)>, StoreError> {
        tournaments::blocks(&self.reader(), id)
    }
}

impl Store for SqliteStore {}

impl SqliteStore {
    /// A read connection, kept until the guard is dropped.
    fn reader(&self) -> Reader<'_> {
        self.readers.get()
    }
}

/// Read connections open at once.
pub const READERS: usize = 4;

/// The read connections: each read takes a free one, or waits for one.
struct Readers {
    idle: Mutex<Vec<Connection>>,
    freed: Condvar,
}

/// A read connection taken from [`Readers`], given back when dropped.
struct Reader<'a> {
    conn: Option<Connection>,
    pool: &'a Readers,
}

impl Readers {
    fn open(path: &Path) -> Result<Readers, StoreError> {
        let conns = (0..READERS)
            .map(|_| open(path))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Readers {
            idle: Mutex::new(conns),
            freed: Condvar::new(),
        })
    }

    fn get(&self) -> Reader<'_> {
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(conn) = idle.pop() {
                return Reader {
                    conn: Some(conn),
                    pool: self,
                };
            }
            idle = self.freed.wait(idle).unwrap_or_else(|e| e.into_inner());
        }
    }
}

impl std::ops::Deref for Reader<'_> {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        self.conn.as_ref().expect("held until dropped")
    }
}

impl Drop for Reader<'_> {
    fn drop(&mut self) {
        if let Some(conn) = self.conn.take() {
            self.pool
                .idle
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(conn);
            self.pool.freed.notify_one();
        }
    }
}

fn load_with(conn: &Connection, id: &str) -> Result<Option<StoredGame>, StoreError> {
    {
        let row: Option<(String, i64, Option<i64>, Option<i64>)> = conn
            .prepare_cached(
                "SELECT g.meta, coalesce(s.version, 0), s.clock_due, s.due_at
                 FROM games g LEFT JOIN game_state s ON s.id = g.id WHERE g.id = ?1",
            )?
            .query_row([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .optional()?;
        let Some((json, version, clock, at)) = row else {
            return Ok(None);
        };
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
        Ok(Some(StoredGame {
            meta,
            plies,
            version: version.max(0) as u64,
            due: Due { clock, at },
        }))
    }
}
