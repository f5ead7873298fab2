//! The PostgreSQL store, which several `oware serve` nodes share
//! (`oware serve --db postgres://…`, docs/DEPLOY.md).
//!
//! - Writes: a writer task groups the writes waiting in its queue into one
//!   transaction (as the SQLite store does), on a pooled connection
//!   (`deadpool-postgres` over `tokio-postgres`). Grouping matters more
//!   here than it seems: a transaction that sends `NOTIFY` holds a
//!   database-wide lock through its commit, so notifying transactions
//!   commit (and flush) one at a time; one transaction per group makes
//!   that one flush per group. A write's future resolves after `COMMIT`
//!   (with `synchronous_commit = on`, after the WAL is flushed). Writes
//!   that may fail on their own (a username taken, a rating) and any group
//!   that fails run alone, each in its own transaction.
//! - Reads: the [`Store`] trait's reads are blocking (the hub calls them on
//!   blocking threads), so they run the query on the runtime they were
//!   opened in and wait.
//! - Events between nodes: [`WriteOp::Notify`] is `pg_notify('oware', …)`
//!   inside the write's transaction, so a message goes out if and only if
//!   its change commits, in commit order. One connection per node
//!   `LISTEN`s ([`Store::subscribe`]); when it is lost it reconnects and
//!   says [`Notice::Resync`].
//! - Migrations: numbered steps in `oware_schema`, applied under an
//!   advisory lock so that nodes starting together do not race.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Transaction};
use futures_util::StreamExt;
use tokio::runtime::Handle;
use tokio::sync::{mpsc, oneshot};
use tokio_postgres::{AsyncMessage, NoTls, Row};

mod accounts;
mod community;
mod puzzles;
mod tournaments;

use super::chat::{side_code, side_from_code, ChatMessage, Room};
use super::{
    enqueue, meta_json, parse_meta, AccountStore, ChatPage, ChatStore, Due, GameStore, Job, Lease,
    Listing, Notice, PuzzleStore, Store, StoreError, StoredGame, StoredPly, WriteOp, WriteStats,
    MAX_GROUP,
};
use crate::model::{GameMeta, GameStatus};
use crate::ratings::{Rating, RatingClass};
use crate::store::account_rows::AccountOp;
use crate::store::account_rows::{AccountRow, HistoryPoint, RatingRow, SessionRow};

/// The channel every node listens on.
const CHANNEL: &str = "oware";

/// The schema, one step per version; steps are only ever appended.
const MIGRATIONS: &[&str] = &[
    "
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    status TEXT NOT NULL,
    lobby BOOLEAN NOT NULL,
    public BOOLEAN NOT NULL,
    meta TEXT NOT NULL,
    version BIGINT NOT NULL DEFAULT 0,
    clock_due BIGINT,
    due_at BIGINT,
    due_claim BIGINT
);
CREATE INDEX games_updated ON games(updated_at);
CREATE INDEX games_lobby ON games(lobby, created_at);
CREATE INDEX games_public ON games(public, status, created_at);
CREATE INDEX games_due ON games(due_at) WHERE due_at IS NOT NULL;
CREATE TABLE plies (
    game_id TEXT NOT NULL,
    ply INTEGER NOT NULL,
    mv TEXT NOT NULL,
    clock_s BIGINT,
    clock_n BIGINT,
    at BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    username TEXT NOT NULL,
    username_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE TABLE sessions (
    token_hash BYTEA PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    csrf TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX sessions_account ON sessions(account_id);
CREATE TABLE ratings (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    class TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    PRIMARY KEY (account_id, class)
);
CREATE INDEX ratings_board ON ratings(class, rating);
CREATE TABLE rating_history (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    class TEXT NOT NULL,
    game_id TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (account_id, game_id)
);
CREATE TABLE account_games (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    game_id TEXT NOT NULL,
    PRIMARY KEY (account_id, game_id)
);
CREATE TABLE chat (
    id BIGSERIAL PRIMARY KEY,
    game_id TEXT NOT NULL,
    room TEXT NOT NULL,
    side TEXT,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    at BIGINT NOT NULL
);
CREATE INDEX chat_game ON chat(game_id, id);
",
    "
-- A deleted account's name stays reserved for 30 days, so nobody takes it
-- over with its old chat lines and games.
CREATE TABLE released_names (
    username_key TEXT PRIMARY KEY,
    until BIGINT NOT NULL
);
CREATE FUNCTION oware_release_name() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO released_names (username_key, until)
    VALUES (OLD.username_key, (extract(epoch FROM now()) * 1000)::bigint + 2592000000)
    ON CONFLICT (username_key) DO UPDATE SET until = excluded.until;
    RETURN OLD;
END $$;
CREATE TRIGGER accounts_release AFTER DELETE ON accounts
    FOR EACH ROW EXECUTE FUNCTION oware_release_name();
CREATE FUNCTION oware_reserved_name() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM released_names
               WHERE username_key = NEW.username_key AND until > NEW.created_at) THEN
        RAISE EXCEPTION 'this name belonged to a deleted account'
            USING ERRCODE = 'unique_violation';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER accounts_reserved BEFORE INSERT ON accounts
    FOR EACH ROW EXECUTE FUNCTION oware_reserved_name();
",
    // 3: seat tokens and invite codes hashed at rest; the rows are
    // rewritten in Rust (`rehash_secrets`).
    "SELECT 1",
    // 4: the rate limits every node shares.
    super::limits::PG_MIGRATION,
    // 5: puzzle ratings (accounts' and puzzles') and attempts.
    puzzles::MIGRATION,
    // 6: when a seek's creator was last seen connected.
    "
ALTER TABLE games ADD COLUMN seen_at BIGINT;
UPDATE games SET seen_at = updated_at WHERE lobby;
CREATE INDEX games_seen ON games(seen_at) WHERE lobby;
",
    // 7: follows, blocks, reports and accounts closed by an operator.
    community::MIGRATION,
    // 8: tournaments, their entrants and pairings.
    tournaments::MIGRATION,
    // 9: a chat message's writer's account, so a block hides it.
    "ALTER TABLE chat ADD COLUMN account TEXT;",
];

/// The step whose rows [`rehash_secrets`] rewrites.
const REHASH_STEP: usize = 3;

/// Rewrites the metadata that older versions stored with plain seat tokens
/// and invite codes (its fields `"invite"` and `"token"`) with their hashes.
async fn rehash_secrets(tx: &Transaction<'_>) -> Result<(), StoreError> {
    let rows = tx
        .query(
            "SELECT id, meta FROM games WHERE meta LIKE '%\"invite\":%'",
            &[],
        )
        .await?;
    for row in &rows {
        let id: String = row.get(0);
        let json: String = row.get(1);
        let meta = parse_meta(&id, &json)?;
        tx.execute(
            "UPDATE games SET meta = $1 WHERE id = $2",
            &[&meta_json(&meta)?, &id],
        )
        .await?;
    }
    if !rows.is_empty() {
        tracing::info!(
            "hashed the seat tokens and invite codes of {} games",
            rows.len()
        );
    }
    Ok(())
}

/// PostgreSQL storage shared by any number of nodes.
pub struct PgStore {
    pub(super) pool: Pool,
    config: tokio_postgres::Config,
    runtime: Handle,
    stats: Arc<Mutex<WriteStats>>,
    queue: mpsc::UnboundedSender<Job>,
}

impl PgStore {
    /// Connects to the database at `url` (`postgres://user@host:port/db`),
    /// with a pool of at most `pool_size` connections, and brings its schema
    /// up to date. Must be called inside the Tokio runtime the store will
    /// live in.
    pub async fn connect(url: &str, pool_size: usize) -> Result<PgStore, StoreError> {
        let config: tokio_postgres::Config = url
            .parse()
            .map_err(|e| StoreError::Open(format!("bad PostgreSQL URL: {e}")))?;
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(pool_size.max(2))
            .wait_timeout(Some(Duration::from_secs(10)))
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .build()
            .map_err(|e| StoreError::Open(format!("cannot build the connection pool: {e}")))?;
        let stats = Arc::new(Mutex::new(WriteStats::default()));
        let (queue, rx) = mpsc::unbounded_channel();
        let store = PgStore {
            pool: pool.clone(),
            config,
            runtime: Handle::current(),
            stats: stats.clone(),
            queue,
        };
        store.migrate().await?;
        tokio::spawn(writer(pool, rx, stats));
        Ok(store)
    }

    async fn migrate(&self) -> Result<(), StoreError> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        // One node migrates at a time; the others wait here, then find
        // nothing left to do.
        tx.batch_execute(
            "SELECT pg_advisory_xact_lock(7265706);
             CREATE TABLE IF NOT EXISTS oware_schema (version BIGINT NOT NULL);",
        )
        .await?;
        let found: i64 = tx
            .query_opt("SELECT version FROM oware_schema", &[])
            .await?
            .map(|r| r.get(0))
            .unwrap_or(0);
        let known = MIGRATIONS.len() as i64;
        if found > known {
            return Err(StoreError::TooNew { found, known });
        }
        for (i, step) in MIGRATIONS.iter().enumerate().skip(found as usize) {
            tx.batch_execute(step).await?;
            if i + 1 == REHASH_STEP {
                rehash_secrets(&tx).await?;
            }
            tracing::info!("postgresql schema now at version {}", i + 1);
        }
        tx.batch_execute("DELETE FROM oware_schema").await?;
        tx.execute("INSERT INTO oware_schema (version) VALUES ($1)", &[&known])
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Runs a read on the store's runtime and waits for it (from a
    /// blocking thread).
    pub(super) fn block<T>(
        &self,
        f: impl std::future::Future<Output = Result<T, StoreError>>,
    ) -> Result<T, StoreError> {
        self.runtime.block_on(f)
    }

    async fn load_async(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let client = self.pool.get().await?;
        load_with(&client, id).await
    }

    async fn load_many(&self, ids: Vec<String>) -> Result<Vec<StoredGame>, StoreError> {
        let client = self.pool.get().await?;
        let mut games = Vec::with_capacity(ids.len());
        for id in ids {
            games.extend(load_with(&client, &id).await?);
        }
        Ok(games)
    }
}

async fn load_with(
    client: &deadpool_postgres::Client,
    id: &str,
) -> Result<Option<StoredGame>, StoreError> {
    let row = client
        .query_opt(
            &client
                .prepare_cached("SELECT meta, version, clock_due, due_at FROM games WHERE id = $1")
                .await?,
            &[&id],
        )
        .await?;
    let Some(row) = row else { return Ok(None) };
    let meta = parse_meta(id, row.get(0))?;
    let version: i64 = row.get(1);
    let plies = client
        .query(
            &client
                .prepare_cached(
                    "SELECT mv, clock_s, clock_n, at FROM plies WHERE game_id = $1 ORDER BY ply",
                )
                .await?,
            &[&id],
        )
        .await?
        .iter()
        .map(|r| {
            let s: Option<i64> = r.get(1);
            let n: Option<i64> = r.get(2);
            StoredPly {
                text: r.get(0),
                clock: s.zip(n).map(|(s, n)| [s.max(0) as u64, n.max(0) as u64]),
                at: r.get(3),
            }
        })
        .collect();
    Ok(Some(StoredGame {
        meta,
        plies,
        version: version.max(0) as u64,
        due: Due {
            clock: row.get(2),
            at: row.get(3),
        },
    }))
}

/// Every leaf of a write, in order ([`WriteOp::All`] flattened).
fn leaves<'a>(op: &'a WriteOp, out: &mut Vec<&'a WriteOp>) {
    match op {
        WriteOp::All(ops) => ops.iter().for_each(|o| leaves(o, out)),
        other => out.push(other),
    }
}

/// Whether a write can share a transaction with others: nothing in it
/// fails but a stale version, which comes first and changes nothing.
fn groupable(op: &WriteOp) -> bool {
    let mut ops = Vec::new();
    leaves(op, &mut ops);
    ops.iter().enumerate().all(|(i, op)| match op {
        WriteOp::Version { .. } => i == 0,
        WriteOp::Create { .. }
        | WriteOp::Ply { .. }
        | WriteOp::Meta(_)
        | WriteOp::Truncate { .. }
        | WriteOp::Chat(_)
        | WriteOp::Seen { .. }
        | WriteOp::Notify(_)
        | WriteOp::Account(AccountOp::LinkGame { .. }) => true,
        _ => false,
    })
}

/// Groups the queued writes into transactions (see the module's notes).
async fn writer(pool: Pool, mut rx: mpsc::UnboundedReceiver<Job>, stats: Arc<Mutex<WriteStats>>) {
    let mut batch: Vec<Job> = Vec::new();
    while let Some(job) = rx.recv().await {
        batch.push(job);
        // Smaller groups than SQLite's: each statement is a round trip.
        while batch.len() < MAX_GROUP / 8 {
            match rx.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let (group, alone): (Vec<Job>, Vec<Job>) =
            batch.drain(..).partition(|(op, _)| groupable(op));
        for job in alone {
            tokio::spawn(commit_alone(pool.clone(), job, stats.clone()));
        }
        if group.is_empty() {
            continue;
        }
        let started = Instant::now();
        match commit_group(&pool, &group).await {
            Ok(results) => {
                stats
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .record(group.len(), started.elapsed().as_micros() as u64);
                for ((_, reply), r) in group.into_iter().zip(results) {
                    let _ = reply.send(r);
                }
            }
            Err(e) => {
                tracing::warn!(
                    "a group of {} writes failed ({e}); writing them one by one",
                    group.len()
                );
                for job in group {
                    tokio::spawn(commit_alone(pool.clone(), job, stats.clone()));
                }
            }
        }
    }
}

/// A plain move as one statement: the version check, the ply and the
/// notice (no row back: the game had moved on).
const PLY_SQL: &str = "
WITH v AS (
    UPDATE games SET version = version + 1, clock_due = $3, due_at = $4, due_claim = NULL
    WHERE id = $1 AND version = $2 RETURNING id),
p AS (
    INSERT INTO plies (game_id, ply, mv, clock_s, clock_n, at)
    SELECT id, $5, $6, $7, $8, $9 FROM v RETURNING game_id)
SELECT pg_notify('oware', $10) FROM p";

/// The parts of a plain move (`Version`, a `Ply` without metadata,
/// `Notify`), the most common write by far.
fn plain_move(op: &WriteOp) -> Option<(&str, u64, Due, u32, &StoredPly, &str)> {
    let WriteOp::All(ops) = op else { return None };
    match ops.as_slice() {
        [WriteOp::Version {
            id,
            expected: Some(expected),
            due,
        }, WriteOp::Ply {
            id: ply_id,
            meta: None,
            index,
            ply,
        }, WriteOp::Notify(notice)]
            if id == ply_id =>
        {
            Some((id, *expected, *due, *index, ply, notice))
        }
        _ => None,
    }
}

/// One transaction for the whole group; each write's outcome (only a stale
/// version can fail one write without failing the group). Plain moves are
/// one statement each, sent together (pipelined on the connection); the
/// other writes follow one statement at a time.
async fn commit_group(
    pool: &Pool,
    group: &[Job],
) -> Result<Vec<Result<(), StoreError>>, StoreError> {
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    let mut results: Vec<Option<Result<(), StoreError>>> = (0..group.len()).map(|_| None).collect();
    let moves: Vec<(usize, _)> = group
        .iter()
        .enumerate()
        .filter_map(|(i, (op, _))| plain_move(op).map(|m| (i, m)))
        .collect();
    if !moves.is_empty() {
        let stmt = tx.prepare_cached(PLY_SQL).await?;
        let params: Vec<_> = moves
            .iter()
            .map(|(_, (id, expected, due, index, ply, notice))| {
                (
                    *id,
                    *expected as i64,
                    due.clock,
                    due.at,
                    *index as i32,
                    ply.text.as_str(),
                    ply.clock.map(|c| c[0] as i64),
                    ply.clock.map(|c| c[1] as i64),
                    ply.at,
                    *notice,
                )
            })
            .collect();
        type Param<'a> = &'a (dyn tokio_postgres::types::ToSql + Sync);
        let refs: Vec<[Param<'_>; 10]> = params
            .iter()
            .map(|p| -> [Param<'_>; 10] {
                [&p.0, &p.1, &p.2, &p.3, &p.4, &p.5, &p.6, &p.7, &p.8, &p.9]
            })
            .collect();
        let queries = refs.iter().map(|r| tx.query(&stmt, r));
        let answers = futures_util::future::join_all(queries).await;
        for ((i, (id, expected, ..)), rows) in moves.iter().zip(answers) {
            results[*i] = Some(match rows?.len() {
                0 => Err(StoreError::Stale {
                    id: id.to_string(),
                    expected: *expected,
                }),
                _ => Ok(()),
            });
        }
    }
    // Notices on their own (presence): independent, sent together too.
    let notices: Vec<(usize, &String)> = group
        .iter()
        .enumerate()
        .filter_map(|(i, (op, _))| match op {
            WriteOp::Notify(text) => Some((i, text)),
            _ => None,
        })
        .collect();
    if !notices.is_empty() {
        let stmt = tx.prepare_cached("SELECT pg_notify('oware', $1)").await?;
        let texts: Vec<[&(dyn tokio_postgres::types::ToSql + Sync); 1]> =
            notices.iter().map(|(_, text)| [*text as _]).collect();
        let sent = futures_util::future::join_all(texts.iter().map(|t| tx.query(&stmt, t))).await;
        for ((i, _), r) in notices.iter().zip(sent) {
            r?;
            results[*i] = Some(Ok(()));
        }
    }
    for (i, (op, _)) in group.iter().enumerate() {
        if results[i].is_some() {
            continue;
        }
        let mut ops = Vec::new();
        leaves(op, &mut ops);
        let mut result = Ok(());
        for leaf in ops {
            match apply(&tx, leaf).await {
                Ok(()) => {}
                // First in its write, and it changed nothing: skip the rest.
                Err(e @ StoreError::Stale { .. }) => {
                    result = Err(e);
                    break;
                }
                Err(e) => return Err(e),
            }
        }
        results[i] = Some(result);
    }
    tx.commit().await?;
    Ok(results.into_iter().map(|r| r.unwrap_or(Ok(()))).collect())
}

async fn commit_alone(pool: Pool, (op, reply): Job, stats: Arc<Mutex<WriteStats>>) {
    let started = Instant::now();
    let result = commit(&pool, &op).await;
    if result.is_ok() {
        stats
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .record(1, started.elapsed().as_micros() as u64);
    }
    let _ = reply.send(result);
}

async fn commit(pool: &Pool, op: &WriteOp) -> Result<(), StoreError> {
    let mut ops = Vec::new();
    leaves(op, &mut ops);
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    for op in ops {
        apply(&tx, op).await?;
    }
    tx.commit().await?;
    Ok(())
}

async fn upsert_meta(tx: &Transaction<'_>, meta: &GameMeta) -> Result<(), StoreError> {
    let json = meta_json(meta)?;
    let status = meta.status();
    let lobby = meta.public && status == GameStatus::Waiting;
    let stmt = tx
        .prepare_cached(
            "INSERT INTO games (id, created_at, updated_at, status, lobby, public, meta, seen_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $2)
             ON CONFLICT (id) DO UPDATE SET updated_at = excluded.updated_at,
             status = excluded.status, lobby = excluded.lobby, public = excluded.public,
             meta = excluded.meta",
        )
        .await?;
    tx.execute(
        &stmt,
        &[
            &meta.id,
            &meta.created_at,
            &meta.updated_at,
            &status.as_str(),
            &lobby,
            &meta.public,
            &json,
        ],
    )
    .await?;
    Ok(())
}

async fn insert_ply(
    tx: &Transaction<'_>,
    id: &str,
    index: u32,
    ply: &StoredPly,
) -> Result<(), StoreError> {
    let stmt = tx
        .prepare_cached(
            "INSERT INTO plies (game_id, ply, mv, clock_s, clock_n, at) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .await?;
    tx.execute(
        &stmt,
        &[
            &id,
            &(index as i32),
            &ply.text,
            &ply.clock.map(|c| c[0] as i64),
            &ply.clock.map(|c| c[1] as i64),
            &ply.at,
        ],
    )
    .await?;
    Ok(())
}

async fn set_due(
    tx: &Transaction<'_>,
    id: &str,
    expected: Option<u64>,
    due: Due,
) -> Result<(), StoreError> {
    let changed = match expected {
        Some(v) => {
            let stmt = tx
                .prepare_cached(
                    "UPDATE games SET version = version + 1, clock_due = $3, due_at = $4,
                     due_claim = NULL WHERE id = $1 AND version = $2",
                )
                .await?;
            tx.execute(&stmt, &[&id, &(v as i64), &due.clock, &due.at])
                .await?
        }
        None => {
            let stmt = tx
                .prepare_cached(
                    "UPDATE games SET clock_due = $2, due_at = $3, due_claim = NULL WHERE id = $1",
                )
                .await?;
            tx.execute(&stmt, &[&id, &due.clock, &due.at]).await?
        }
    };
    match (changed, expected) {
        (0, Some(expected)) => Err(StoreError::Stale {
            id: id.to_string(),
            expected,
        }),
        _ => Ok(()),
    }
}

async fn apply(tx: &Transaction<'_>, op: &WriteOp) -> Result<(), StoreError> {
    match op {
        WriteOp::Create { meta, plies, due } => {
            upsert_meta(tx, meta).await?;
            for (i, p) in plies.iter().enumerate() {
                insert_ply(tx, &meta.id, i as u32, p).await?;
            }
            set_due(tx, &meta.id, None, *due).await?;
        }
        WriteOp::Ply {
            id,
            meta,
            index,
            ply,
        } => {
            insert_ply(tx, id, *index, ply).await?;
            if let Some(meta) = meta {
                upsert_meta(tx, meta).await?;
            }
        }
        WriteOp::Truncate { meta, from } => {
            let stmt = tx
                .prepare_cached("DELETE FROM plies WHERE game_id = $1 AND ply >= $2")
                .await?;
            tx.execute(&stmt, &[&meta.id, &(*from as i32)]).await?;
            upsert_meta(tx, meta).await?;
        }
        WriteOp::Meta(meta) => upsert_meta(tx, meta).await?,
        WriteOp::Version { id, expected, due } => set_due(tx, id, *expected, *due).await?,
        WriteOp::Account(op) => accounts::apply(tx, op).await?,
        WriteOp::PuzzleAttempt(a) => puzzles::attempt(tx, a).await?,
        WriteOp::Tournament(t) => tournaments::apply(tx, t).await?,
        WriteOp::Seen { ids, at } => {
            let stmt = tx
                .prepare_cached("UPDATE games SET seen_at = $2 WHERE id = ANY($1) AND lobby")
                .await?;
            tx.execute(&stmt, &[ids, at]).await?;
        }
        WriteOp::Chat(m) => {
            let stmt = tx
                .prepare_cached(
                    "INSERT INTO chat (game_id, room, side, name, text, at, account)
                     VALUES ($1, $2, $3, $4, $5, $6, $7)",
                )
                .await?;
            tx.execute(
                &stmt,
                &[
                    &m.game_id,
                    &m.room.as_str(),
                    &m.side.map(side_code),
                    &m.name,
                    &m.text,
                    &m.at,
                    &m.account,
                ],
            )
            .await?;
        }
        WriteOp::Notify(payload) => {
            let stmt = tx.prepare_cached("SELECT pg_notify($1, $2)").await?;
            tx.execute(&stmt, &[&CHANNEL, payload]).await?;
        }
        WriteOp::All(_) => unreachable!("flattened by leaves()"),
    }
    Ok(())
}

fn chat_row(game_id: &str, r: &Row) -> ChatMessage {
    let room: String = r.get(0);
    let side: Option<String> = r.get(1);
    ChatMessage {
        id: Some(r.get(5)),
        game_id: game_id.to_string(),
        room: Room::from_stored(&room),
        side: side_from_code(side.as_deref()),
        name: r.get(2),
        text: r.get(3),
        at: r.get(4),
        account: r.get(6),
    }
}

/// Keeps one connection listening on [`CHANNEL`], reconnecting when it is
/// lost, until `out` is dropped.
async fn listen(config: tokio_postgres::Config, out: mpsc::UnboundedSender<Notice>) {
    let mut first = true;
    while !out.is_closed() {
        match config.connect(NoTls).await {
            Ok((client, mut connection)) => {
                let (tx, mut rx) = mpsc::unbounded_channel();
                let driver = tokio::spawn(async move {
                    let mut messages =
                        futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
                    while let Some(m) = messages.next().await {
                        match m {
                            Ok(AsyncMessage::Notification(n)) => {
                                let _ = tx.send(n.payload().to_string());
                            }
                            Ok(_) => {}
                            Err(e) => {
                                tracing::warn!("postgresql listener: {e}");
                                break;
                            }
                        }
                    }
                });
                match client.batch_execute(&format!("LISTEN {CHANNEL}")).await {
                    Ok(()) => {
                        // Anything committed before LISTEN took hold was
                        // missed: whatever is in memory is read again.
                        if !first {
                            tracing::info!("postgresql listener back; reading games again");
                        }
                        first = false;
                        let _ = out.send(Notice::Resync);
                        while let Some(p) = rx.recv().await {
                            if out.send(Notice::Message(p)).is_err() {
                                break;
                            }
                        }
                    }
                    Err(e) => tracing::warn!("postgresql listener: LISTEN failed: {e}"),
                }
                driver.abort();
            }
            Err(e) => tracing::warn!("postgresql listener cannot connect: {e}"),
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

impl GameStore for PgStore {
    fn write(&self, op: WriteOp) -> oneshot::Receiver<Result<(), StoreError>> {
        enqueue(&self.queue, op)
    }

    fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        self.block(self.load_async(id))
    }

    fn version(&self, id: &str) -> Result<Option<u64>, StoreError> {
        self.block(async {
            let client = self.pool.get().await?;
            let stmt = client
                .prepare_cached("SELECT version FROM games WHERE id = $1")
                .await?;
            let v: Option<i64> = client.query_opt(&stmt, &[&id]).await?.map(|r| r.get(0));
            Ok(v.map(|v| v.max(0) as u64))
        })
    }

    fn list(
        &self,
        which: Listing,
        limit: u32,
        offset: u32,
    ) -> Result<(Vec<StoredGame>, u64), StoreError> {
        // Every listing takes the oldest change (only `Playing` uses it).
        let (count_sql, list_sql, since) = match which {
            Listing::Public => (
                "SELECT COUNT(*) FROM games WHERE public AND status = 'over' AND $1::bigint IS NOT NULL",
                "SELECT id FROM games WHERE public AND status = 'over' AND $3::bigint IS NOT NULL
                 ORDER BY created_at DESC, id LIMIT $1 OFFSET $2",
                0i64,
            ),
            Listing::Lobby => (
                "SELECT COUNT(*) FROM games WHERE lobby AND $1::bigint IS NOT NULL",
                "SELECT id FROM games WHERE lobby AND $3::bigint IS NOT NULL
                 ORDER BY created_at DESC, id LIMIT $1 OFFSET $2",
                0i64,
            ),
            Listing::Playing { since } => (
                // A plain move stores only its ply: the last change is
                // the newer of the game's row and its last ply.
                "SELECT COUNT(*) FROM games g WHERE public AND status = 'playing'
                 AND GREATEST(updated_at, coalesce((SELECT max(at) FROM plies p WHERE p.game_id = g.id), 0)) >= $1",
                "SELECT id FROM (SELECT id, GREATEST(updated_at, coalesce((SELECT max(at) FROM plies p WHERE p.game_id = g.id), 0)) AS last
                 FROM games g WHERE public AND status = 'playing') t WHERE last >= $3
                 ORDER BY last DESC, id LIMIT $1 OFFSET $2",
                since,
            ),
        };
        self.block(async {
            let client = self.pool.get().await?;
            let total: i64 = client.query_one(count_sql, &[&since]).await?.get(0);
            let ids: Vec<String> = client
                .query(list_sql, &[&(limit as i64), &(offset as i64), &since])
                .await?
                .iter()
                .map(|r| r.get(0))
                .collect();
            drop(client);
            Ok((self.load_many(ids).await?, total.max(0) as u64))
        })
    }

    fn stats(&self) -> WriteStats {
        *self.stats.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn claim_due(&self, now: i64, lease: Lease, limit: u32) -> Result<Vec<String>, StoreError> {
        self.block(async {
            let client = self.pool.get().await?;
            let rows = client
                .query(
                    "UPDATE games SET due_claim = $2 WHERE id IN (
                        SELECT id FROM games WHERE due_at <= $1 AND coalesce(due_claim, 0) <= $4
                        ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED)
                     RETURNING id",
                    &[&now, &(lease.now + lease.ms), &(limit as i64), &lease.now],
                )
                .await?;
            Ok(rows.iter().map(|r| r.get(0)).collect())
        })
    }

    fn stale_seeks(
        &self,
        seen_before: i64,
        created_before: i64,
        limit: u32,
    ) -> Result<Vec<String>, StoreError> {
        self.block(async {
            let client = self.pool.get().await?;
            let rows = client
                .query(
                    "SELECT id FROM games WHERE lobby
                     AND (coalesce(seen_at, 0) < $1 OR created_at < $2) LIMIT $3",
                    &[&seen_before, &created_before, &(limit as i64)],
                )
                .await?;
            Ok(rows.iter().map(|r| r.get(0)).collect())
        })
    }

    fn ping(&self) -> Result<(), StoreError> {
        self.block(async {
            let client = self.pool.get().await?;
            client.query_one("SELECT 1", &[]).await?;
            Ok(())
        })
    }

    fn shared(&self) -> bool {
        true
    }

    fn subscribe(&self) -> Option<mpsc::UnboundedReceiver<Notice>> {
        let (tx, rx) = mpsc::unbounded_channel();
        self.runtime.spawn(listen(self.config.clone(), tx));
        Some(rx)
    }

    fn shared_limits(&self) -> Option<&dyn super::limits::SharedLimits> {
        Some(self)
    }
}

impl AccountStore for PgStore {
    fn account_by_name(&self, name: &str) -> Result<Option<AccountRow>, StoreError> {
        self.block(async {
            let client = self.pool.get().await?;
            accounts::account_by_name(&client, name).await
        })
    }

    fn session(&self, token_hash: &[u8]) -> Result<Option<(SessionRow, AccountRow)>, StoreError> {
        self.block(async {
            let client = self.pool.get().await?;
            accounts::session(&client, token_hash).await
        })
    }

    fn ratings(&self, account_id: &str) -> Result<Vec<RatingRow>, StoreError> {
        self.block(async {
            let client = self.pool.get().await?;
            accounts::ratings(&client, account_id).await
        })
    }

    fn rating_history(&self, account_id: &str) -> Result<Vec<HistoryPoint>, StoreError> {
        self.block(async {
            let client = self.pool.get().await?;
            accounts::history(&client, account_id).await
        })
    }

    fn leaderboard(
        &self,
        class: RatingClass,
        limit: u32,
        provisional: bool,
    ) -> Result<Vec<(String, Rating)>, StoreError> {
        self.block(async {
            let client = self.pool.get().await?;
            accounts::leaderboard(&client, class, limit, provisional).await
        })
    }

    fn account_games(&self, account_id: &str, limit: u32) -> Result<Vec<StoredGame>, StoreError> {
        self.block(async {
            let ids = {
                let client = self.pool.get().await?;
                accounts::game_ids(&client, account_id, limit).await?
            };
            self.load_many(ids).await
        })
    }

    fn account_game_ids(&self, account_id: &str, limit: u32) -> Result<Vec<String>, StoreError> {
        self.block(async {
            let client = self.pool.get().await?;
            accounts::game_ids(&client, account_id, limit).await
        })
    }

    fn relations(
        &self,
        account_id: &str,
    ) -> Result<crate::store::account_rows::Relations, StoreError> {
        self.block(async {
            let client = self.pool.get().await?;
            community::relations(&client, account_id).await
        })
    }

    fn blocked_between(&self, a: &str, b: &str) -> Result<bool, StoreError> {
        self.block(async {
            let client = self.pool.get().await?;
            community::blocked_between(&client, a, b).await
        })
    }

    fn reports(
        &self,
        filter: crate::store::account_rows::ReportFilter,
    ) -> Result<Vec<crate::store::account_rows::ReportRow>, StoreError> {
        self.block(async {
            let client = self.pool.get().await?;
            community::reports(&client, &filter).await
        })
    }

    fn reports_by(&self, reporter: &str, since: i64) -> Result<u32, StoreError> {
        self.block(async {
            let client = self.pool.get().await?;
            community::reports_by(&client, reporter, since).await
        })
    }

    fn account_closed(&self, account_id: &str) -> Result<bool, StoreError> {
        self.block(async {
            let client = self.pool.get().await?;
            community::account_closed(&client, account_id).await
        })
    }
}

impl ChatStore for PgStore {
    fn chat(
        &self,
        game_id: &str,
        spectators: bool,
        page: ChatPage,
    ) -> Result<Vec<ChatMessage>, StoreError> {
        self.block(async {
            let client = self.pool.get().await?;
            let before = page.before.unwrap_or(i64::MAX);
            let limit = i64::from(page.limit);
            let rows = client
                .query(
                    "SELECT room, side, name, text, at, id, account FROM chat
                     WHERE game_id = $1 AND (room = 'players' OR $2) AND id < $3
                     ORDER BY id DESC LIMIT $4",
                    &[&game_id, &spectators, &before, &limit],
                )
                .await?;
            Ok(rows.iter().rev().map(|r| chat_row(game_id, r)).collect())
        })
    }

    fn chat_count(&self, game_id: &str, room: Room) -> Result<u64, StoreError> {
        self.block(async {
            let client = self.pool.get().await?;
            let row = client
                .query_one(
                    "SELECT COUNT(*) FROM chat WHERE game_id = $1 AND room = $2",
                    &[&game_id, &room.as_str()],
                )
                .await?;
            Ok(row.get::<_, i64>(0) as u64)
        })
    }
}

impl PuzzleStore for PgStore {
    fn puzzle_ratings(&self) -> Result<Vec<(u32, Rating)>, StoreError> {
        self.block(async {
            let client = self.pool.get().await?;
            puzzles::ratings(&client).await
        })
    }

    fn puzzle_player(
        &self,
        account_id: &str,
    ) -> Result<crate::store::puzzles::PuzzlePlayer, StoreError> {
        self.block(async {
            let client = self.pool.get().await?;
            puzzles::player(&client, account_id).await
        })
    }
}

impl crate::store::tournaments::TournamentStore for PgStore {
    fn tournament(
        &self,
        id: &str,
    ) -> Result<Option<crate::store::tournaments::Tournament>, StoreError> {
        self.block(async {
            let client = self.pool.get().await?;
            tournaments::tournament(&client, id).await
        })
    }

    fn tournaments(
        &self,
        finished: u32,
    ) -> Result<Vec<crate::store::tournaments::TournamentSummary>, StoreError> {
        self.block(async {
            let client = self.pool.get().await?;
            tournaments::tournaments(&client, finished).await
        })
    }

    fn claim_tournaments(
        &self,
        now: i64,
        lease: Lease,
        limit: u32,
    ) -> Result<Vec<String>, StoreError> {
        self.block(async {
            let client = self.pool.get().await?;
            tournaments::claim(&client, now, lease, limit).await
        })
    }

    fn tournaments_entered(
        &self,
        account_id: &str,
    ) -> Result<Vec<crate::store::tournaments::Entered>, StoreError> {
        self.block(async {
            let client = self.pool.get().await?;
            tournaments::entered(&client, account_id).await
        })
    }

    fn tournaments_of(&self, account_id: &str) -> Result<Vec<String>, StoreError> {
        self.block(async {
            let client = self.pool.get().await?;
            tournaments::of(&client, account_id).await
        })
    }

    fn tournament_blocks(&self, id: &str) -> Result<Vec<(String, String)>, StoreError> {
        self.block(async {
            let client = self.pool.get().await?;
            tournaments::blocks(&client, id).await
        })
    }
}

impl Store for PgStore {}
