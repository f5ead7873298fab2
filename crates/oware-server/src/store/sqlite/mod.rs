//! The SQLite store: one file, for one node.
//!
//! Writes go through one writer thread that groups every write waiting in
//! its queue into one transaction, committed with `synchronous=FULL` in WAL
//! mode (one fsync per group). A write's future resolves only after its
//! group is committed, so a move acknowledged to a client is on disk.
//! Reads use a small pool of other connections ([`READERS`]; WAL lets them
//! run beside the writer and each other), so one client's long read (an
//! export) does not make everyone else's wait (issue 33, finding 6).

use std::future::Future;
use std::path::Path;
use std::pin::pin;
use std::sync::{Condvar, Mutex};
use std::task::{Context, Poll, Waker};
use std::time::Instant;

use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{CachedStatement, Connection};
use tokio::sync::{mpsc, oneshot};

mod schema;

use super::sql::{store_reads, Db, Dialect, Field, SqlRow, Value};
use super::{enqueue, games, Job, StoreError, WriteOp, WriteStats, MAX_GROUP};
use schema::MIGRATIONS;

/// SQLite storage: one file, WAL mode, group commits.
pub struct SqliteStore {
    queue: mpsc::UnboundedSender<Job>,
    readers: Readers,
    stats: std::sync::Arc<Mutex<WriteStats>>,
}

/// The step whose rows [`games::rehash_secrets`] rewrites.
const REHASH_STEP: usize = 7;

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
            now(games::rehash_secrets(&Lite(&tx)))?;
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
    // No connection copies the WAL back into the database as part of a
    // commit (SQLite's default, every 1,000 pages, stalls that commit and
    // every move waiting on it): the checkpointer thread does it beside
    // the writer ([`checkpointer`]).
    conn.pragma_update(None, "wal_autocheckpoint", 0)?;
    Ok(conn)
}

/// When the WAL is copied back into the database. The checkpointer
/// thread, beside the writer, runs a passive checkpoint every `every`
/// group commits (at about 7 writes of one or two 512-byte pages each, 64
/// commits are some 1,000 pages of WAL, SQLite's own default between
/// checkpoints): it copies what it can without the write lock, so commits
/// go on meanwhile, where SQLite's automatic checkpoint does it inside a
/// commit and stalls every move waiting on it. But a writer that does not
/// pause keeps adding to the log while such a checkpoint runs, and the log
/// starts again from its beginning only when a write finds it all copied:
/// so every `restart_every` commits the writer itself, between two
/// commits, checkpoints what is left (the few frames since the
/// checkpointer's last run, and a sync of the database), and its next
/// commit starts the log again: its file stops growing.
#[derive(Clone, Copy, Debug)]
pub struct Checkpoints {
    /// Group commits between two runs of the checkpointer.
    pub every: u32,
    /// Group commits between two of the writer's own checkpoints.
    pub restart_every: u32,
}

impl Default for Checkpoints {
    fn default() -> Checkpoints {
        Checkpoints {
            every: 64,
            restart_every: 1024,
        }
    }
}

/// A passive checkpoint on `conn`: whether it copied the whole log (it
/// does not when another checkpoint runs, or a reader still reads an
/// older state). Failures are logged, and tried again at the next turn.
fn checkpoint(conn: &Connection) -> bool {
    match conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, i64>(1)?,
            r.get::<_, i64>(2)?,
        ))
    }) {
        Ok((busy, log, copied)) => busy == 0 && copied == log,
        Err(e) => {
            tracing::warn!("checkpoint: {e}");
            false
        }
    }
}

/// The checkpointer, on a connection of its own: a passive checkpoint on
/// each signal from the writer ([`Checkpoints`]).
fn checkpointer(conn: Connection, signals: std::sync::mpsc::Receiver<()>) {
    while signals.recv().is_ok() {
        checkpoint(&conn);
    }
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `path` and starts its writer thread.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        SqliteStore::open_with(path, Checkpoints::default())
    }

    /// Opens it with its own plan of checkpoints (the tests').
    pub fn open_with(path: &Path, plan: Checkpoints) -> Result<SqliteStore, StoreError> {
        let mut writer = open(path)?;
        migrate(&mut writer)?;
        // Everything so far (a new database's schema, or what a server
        // stopped by force left in the log) into the database, and the log
        // emptied: the server starts with a WAL of nothing.
        writer.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        let readers = Readers::open(path)?;
        let (queue, rx) = mpsc::unbounded_channel();
        let stats = std::sync::Arc::new(Mutex::new(WriteStats::default()));
        let s2 = stats.clone();
        let checkpoints = open(path)?;
        let (signal, signals) = std::sync::mpsc::sync_channel(1);
        std::thread::Builder::new()
            .name("oware-db-checkpointer".into())
            .spawn(move || checkpointer(checkpoints, signals))
            .map_err(|e| StoreError::Open(format!("cannot start the checkpointer: {e}")))?;
        std::thread::Builder::new()
            .name("oware-db-writer".into())
            .spawn(move || writer_loop(writer, rx, s2, signal, plan))
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
    checkpointer: std::sync::mpsc::SyncSender<()>,
    plan: Checkpoints,
) {
    let mut batch: Vec<Job> = Vec::with_capacity(MAX_GROUP);
    let (mut commits, mut since_restart) = (0u32, 0u32);
    while let Some(job) = rx.blocking_recv() {
        commits += 1;
        if commits >= plan.every {
            commits = 0;
            // One signal waits at most: a run still going covers it.
            let _ = checkpointer.try_send(());
        }
        since_restart += 1;
        if since_restart >= plan.restart_every {
            // Not copied whole (the checkpointer was running, or a reader
            // holds an older state): again `every` commits later, not at
            // each commit meanwhile.
            since_restart = if checkpoint(&conn) {
                0
            } else {
                plan.restart_every.saturating_sub(plan.every)
            };
        }
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
        let r = now(games::apply(&Lite(&tx), op));
        match r {
            Ok(()) => tx.execute_batch("RELEASE w")?,
            Err(_) => tx.execute_batch("ROLLBACK TO w; RELEASE w")?,
        }
        results.push(r);
    }
    tx.commit()?;
    Ok(results)
}

/// This store's SQL where it differs from PostgreSQL's (`store/sql.rs`):
/// a game's version and deadlines are in a small row of their own
/// (`game_state`, schema version 8), and lists are JSON arrays.
static DIALECT: Dialect = Dialect {
    for_update: "",
    skip_locked: "",
    greatest: "max",
    caps_lock: None,
    load: "SELECT g.meta, coalesce(s.version, 0), s.clock_due, s.due_at
           FROM games g LEFT JOIN game_state s ON s.id = g.id WHERE g.id = $1",
    version: "SELECT version FROM game_state WHERE id = $1",
    next_version: "UPDATE game_state SET version = version + 1, clock_due = $3, due_at = $4,
                   due_claim = NULL WHERE id = $1 AND version = $2",
    set_due: "INSERT INTO game_state (id, clock_due, due_at) VALUES ($1, $2, $3)
              ON CONFLICT (id) DO UPDATE SET clock_due = excluded.clock_due,
              due_at = excluded.due_at, due_claim = NULL",
    // One node: no other claims to skip, but the lease keeps a game from
    // being taken up again before its timer has acted.
    claim_due: "UPDATE game_state SET due_claim = $2 WHERE id IN (
                    SELECT id FROM game_state WHERE due_at <= $1 AND coalesce(due_claim, 0) <= $4
                    ORDER BY due_at LIMIT $3)
                RETURNING id",
    seen: "UPDATE games SET seen_at = $2
           WHERE lobby = 1 AND id IN (SELECT value FROM json_each($1))",
    seen_entrants: "UPDATE tournament_players SET seen_at = max(seen_at, $3)
                    WHERE tournament_id = $1 AND account_id IN (SELECT value FROM json_each($2))",
};

/// A connection (or transaction) as a [`Db`]. Its futures never wait:
/// [`now`] runs them.
struct Lite<'a>(&'a Connection);

impl Lite<'_> {
    /// The statement, prepared once per connection, with `args[i]` bound
    /// to the parameter named `$i+1`.
    fn bind(&self, sql: &str, args: &[Value<'_>]) -> rusqlite::Result<CachedStatement<'_>> {
        let mut stmt = self.0.prepare_cached(sql)?;
        for (i, v) in args.iter().enumerate() {
            if let Some(at) = stmt.parameter_index(&format!("${}", i + 1))? {
                stmt.raw_bind_parameter(at, v)?;
            }
        }
        Ok(stmt)
    }
}

impl Db for Lite<'_> {
    fn dialect(&self) -> &'static Dialect {
        &DIALECT
    }

    async fn execute(&self, sql: &str, args: &[Value<'_>]) -> Result<u64, StoreError> {
        Ok(self.bind(sql, args)?.raw_execute()? as u64)
    }

    async fn query(&self, sql: &str, args: &[Value<'_>]) -> Result<Vec<SqlRow>, StoreError> {
        let mut stmt = self.bind(sql, args)?;
        let n = stmt.column_count();
        let mut rows = stmt.raw_query();
        let mut out = Vec::new();
        while let Some(r) = rows.next()? {
            let fields = (0..n).map(|i| r.get_ref(i).map(field));
            out.push(SqlRow(fields.collect::<Result<_, _>>()?));
        }
        Ok(out)
    }

    // Nobody else shares this file.
    async fn notify(&self, _payload: &str) -> Result<(), StoreError> {
        Ok(())
    }
}

fn field(v: ValueRef<'_>) -> Field {
    match v {
        ValueRef::Null => Field::Null,
        ValueRef::Integer(i) => Field::Int(i),
        ValueRef::Real(f) => Field::Real(f),
        ValueRef::Text(t) => Field::Text(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Blob(b) => Field::Bytes(b.to_vec()),
    }
}

impl rusqlite::ToSql for Value<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match *self {
            Value::Null => ToSqlOutput::Owned(rusqlite::types::Value::Null),
            Value::Int(v) => v.into(),
            Value::Real(v) => v.into(),
            Value::Bool(v) => i64::from(v).into(),
            Value::Text(v) => v.into(),
            Value::Bytes(v) => v.into(),
            Value::List(v) => {
                ToSqlOutput::Owned(serde_json::to_string(v).unwrap_or_default().into())
            }
        })
    }
}

/// Runs a future of [`Lite`]'s, which is ready at once (rusqlite's calls
/// block instead).
fn now<T>(f: impl Future<Output = T>) -> T {
    match pin!(f).poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(t) => t,
        Poll::Pending => unreachable!("SQLite statements never wait"),
    }
}

store_reads!(SqliteStore {
    fn write(&self, op: WriteOp) -> oneshot::Receiver<Result<(), StoreError>> {
        enqueue(&self.queue, op)
    }

    fn stats(&self) -> WriteStats {
        *self.stats.lock().unwrap_or_else(|e| e.into_inner())
    }
});

impl SqliteStore {
    /// Runs a read on a read connection.
    fn read<R>(
        &self,
        f: impl AsyncFnOnce(&Lite<'_>) -> Result<R, StoreError>,
    ) -> Result<R, StoreError> {
        let conn = self.readers.get();
        now(f(&Lite(&conn)))
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
