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
//! - Reads: the [`super::Store`] trait's reads are blocking (the hub calls them on
//!   blocking threads), so they run the query on the runtime they were
//!   opened in and wait.
//! - Events between nodes: [`WriteOp::Notify`] is `pg_notify('oware', …)`
//!   inside the write's transaction, so a message goes out if and only if
//!   its change commits, in commit order. One connection per node
//!   `LISTEN`s ([`super::GameStore::subscribe`]); when it is lost it reconnects and
//!   says [`Notice::Resync`].
//! - Migrations: numbered steps in `oware_schema`, applied under an
//!   advisory lock so that nodes starting together do not race.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use deadpool_postgres::{Client, GenericClient, Manager, ManagerConfig, Pool, RecyclingMethod};
use futures_util::StreamExt;
use tokio::runtime::Handle;
use tokio::sync::{mpsc, oneshot};
use tokio_postgres::types::{ToSql, Type};
use tokio_postgres::{AsyncMessage, NoTls, Row};

mod schema;

use super::sql::{args, store_reads, Db, Dialect, Field, SqlRow, Value};
use super::{
    enqueue, games, Due, Job, Notice, StoreError, StoredPly, WriteOp, WriteStats, MAX_GROUP,
};
use crate::store::account_rows::AccountOp;
use schema::MIGRATIONS;

/// The channel every node listens on.
const CHANNEL: &str = "oware";

/// The step whose rows [`games::rehash_secrets`] rewrites.
const REHASH_STEP: usize = 3;

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
                games::rehash_secrets(&Pg(&tx)).await?;
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

    /// Runs a read on a pooled connection and waits for it (from a
    /// blocking thread).
    fn read<R>(
        &self,
        f: impl AsyncFnOnce(&Pg<'_, Client>) -> Result<R, StoreError>,
    ) -> Result<R, StoreError> {
        self.block(async {
            let client = self.pool.get().await?;
            f(&Pg(&client)).await
        })
    }
}

/// This store's SQL where it differs from SQLite's (`store/sql.rs`): row
/// locks, claims that skip the rows another node holds, a game's version
/// and deadlines in its row, arrays.
static DIALECT: Dialect = Dialect {
    for_update: " FOR UPDATE",
    skip_locked: " FOR UPDATE SKIP LOCKED",
    greatest: "greatest",
    caps_lock: Some("SELECT pg_advisory_xact_lock(hashtext('oware: tournament caps'))"),
    load: "SELECT meta, version, clock_due, due_at FROM games WHERE id = $1",
    version: "SELECT version FROM games WHERE id = $1",
    next_version: "UPDATE games SET version = version + 1, clock_due = $3, due_at = $4,
                   due_claim = NULL WHERE id = $1 AND version = $2",
    set_due: "UPDATE games SET clock_due = $2, due_at = $3, due_claim = NULL WHERE id = $1",
    claim_due: "UPDATE games SET due_claim = $2 WHERE id IN (
                    SELECT id FROM games WHERE due_at <= $1 AND coalesce(due_claim, 0) <= $4
                    ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED)
                RETURNING id",
    seen: "UPDATE games SET seen_at = $2 WHERE id = ANY($1) AND lobby",
    seen_entrants: "UPDATE tournament_players SET seen_at = greatest(seen_at, $3)
                    WHERE tournament_id = $1 AND account_id = ANY($2)",
};

/// A pooled connection or a transaction as a [`Db`].
struct Pg<'a, C>(&'a C);

impl<C: GenericClient> Db for Pg<'_, C> {
    fn dialect(&self) -> &'static Dialect {
        &DIALECT
    }

    async fn execute(&self, sql: &str, args: &[Value<'_>]) -> Result<u64, StoreError> {
        let stmt = self.0.prepare_cached(sql).await?;
        let values = typed(args, stmt.params());
        let refs: Vec<&(dyn ToSql + Sync)> = values.iter().map(|v| v.as_ref() as _).collect();
        Ok(self.0.execute(&stmt, &refs).await?)
    }

    async fn query(&self, sql: &str, args: &[Value<'_>]) -> Result<Vec<SqlRow>, StoreError> {
        let stmt = self.0.prepare_cached(sql).await?;
        let values = typed(args, stmt.params());
        let refs: Vec<&(dyn ToSql + Sync)> = values.iter().map(|v| v.as_ref() as _).collect();
        self.0.query(&stmt, &refs).await?.iter().map(row).collect()
    }

    async fn notify(&self, payload: &str) -> Result<(), StoreError> {
        let sql = "SELECT pg_notify($1, $2)";
        self.execute(sql, args![CHANNEL, payload]).await.map(drop)
    }
}

/// The parameters as the types the statement takes (an integer is an
/// `INTEGER` or a `BIGINT` as its column is; a `NULL` has its column's
/// type).
fn typed<'a>(args: &[Value<'a>], types: &[Type]) -> Vec<Box<dyn ToSql + Sync + Send + 'a>> {
    args.iter()
        .zip(types)
        .map(|(v, ty)| -> Box<dyn ToSql + Sync + Send + 'a> {
            match *v {
                Value::Int(i) if *ty == Type::INT4 => Box::new(i as i32),
                Value::Int(i) => Box::new(i),
                Value::Real(f) => Box::new(f),
                Value::Bool(b) => Box::new(b),
                Value::Text(t) => Box::new(t),
                Value::Bytes(b) => Box::new(b),
                Value::List(l) => Box::new(l),
                Value::Null if *ty == Type::INT4 => Box::new(None::<i32>),
                Value::Null if *ty == Type::INT8 => Box::new(None::<i64>),
                Value::Null if *ty == Type::FLOAT8 => Box::new(None::<f64>),
                Value::Null if *ty == Type::BOOL => Box::new(None::<bool>),
                Value::Null if *ty == Type::BYTEA => Box::new(None::<&[u8]>),
                Value::Null => Box::new(None::<&str>),
            }
        })
        .collect()
}

/// A row's fields, by their columns' types.
fn row(r: &Row) -> Result<SqlRow, StoreError> {
    let mut fields = Vec::with_capacity(r.len());
    for (i, column) in r.columns().iter().enumerate() {
        let ty = column.type_();
        let field = if *ty == Type::INT8 {
            r.try_get::<_, Option<i64>>(i)?.map(Field::Int)
        } else if *ty == Type::INT4 {
            r.try_get::<_, Option<i32>>(i)?
                .map(|v| Field::Int(v.into()))
        } else if *ty == Type::BOOL {
            r.try_get::<_, Option<bool>>(i)?
                .map(|v| Field::Int(v.into()))
        } else if *ty == Type::FLOAT8 {
            r.try_get::<_, Option<f64>>(i)?.map(Field::Real)
        } else if *ty == Type::BYTEA {
            r.try_get::<_, Option<Vec<u8>>>(i)?.map(Field::Bytes)
        } else {
            r.try_get::<_, Option<String>>(i)?.map(Field::Text)
        };
        fields.push(field.unwrap_or(Field::Null));
    }
    Ok(SqlRow(fields))
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
        let stmt = tx.prepare_cached("SELECT pg_notify($1, $2)").await?;
        let texts: Vec<[&(dyn ToSql + Sync); 2]> = notices
            .iter()
            .map(|(_, text)| [&CHANNEL as _, *text as _])
            .collect();
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
        results[i] = Some(match games::apply(&Pg(&tx), op).await {
            Ok(()) => Ok(()),
            // First in its write, and it changed nothing: the rest of the
            // write was skipped, the group goes on.
            Err(e @ StoreError::Stale { .. }) => Err(e),
            Err(e) => return Err(e),
        });
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
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    games::apply(&Pg(&tx), op).await?;
    tx.commit().await?;
    Ok(())
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

store_reads!(PgStore {
    fn write(&self, op: WriteOp) -> oneshot::Receiver<Result<(), StoreError>> {
        enqueue(&self.queue, op)
    }

    fn stats(&self) -> WriteStats {
        *self.stats.lock().unwrap_or_else(|e| e.into_inner())
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
});
