//! The SQLite side of the community tables (schema version 11): follows,
//! blocks, reports and accounts closed by an operator.

use rusqlite::{params, Connection, OptionalExtension};

use super::StoreError;
use crate::store::account_rows::{AccountOp, Relations, ReportFilter, ReportRow};

/// Schema version 11.
pub(super) const MIGRATION: &str = "
CREATE TABLE follows (
    follower TEXT NOT NULL,
    followed TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (follower, followed)
) WITHOUT ROWID;
CREATE INDEX follows_followed ON follows(followed);
CREATE TABLE blocks (
    blocker TEXT NOT NULL,
    blocked TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (blocker, blocked)
) WITHOUT ROWID;
CREATE INDEX blocks_blocked ON blocks(blocked);
CREATE TABLE reports (
    id TEXT PRIMARY KEY,
    reporter TEXT NOT NULL,
    reported TEXT NOT NULL,
    reported_name TEXT NOT NULL,
    game_id TEXT,
    reason TEXT NOT NULL,
    details TEXT NOT NULL,
    at INTEGER NOT NULL,
    closed_at INTEGER,
    resolution TEXT
);
CREATE INDEX reports_open ON reports(closed_at, at);
CREATE INDEX reports_reporter ON reports(reporter, at);
CREATE TABLE closed_accounts (
    account_id TEXT PRIMARY KEY,
    reason TEXT NOT NULL,
    at INTEGER NOT NULL
);
";

/// Applies a community change; false if `op` is not one.
pub(super) fn apply(conn: &Connection, op: &AccountOp) -> Result<bool, rusqlite::Error> {
    match op {
        AccountOp::Follow {
            follower,
            followed,
            on,
            at,
        } => {
            if *on {
                conn.prepare_cached(
                    "INSERT OR IGNORE INTO follows (follower, followed, at) VALUES (?1, ?2, ?3)",
                )?
                .execute(params![follower, followed, at])?;
            } else {
                conn.prepare_cached("DELETE FROM follows WHERE follower = ?1 AND followed = ?2")?
                    .execute(params![follower, followed])?;
            }
        }
        AccountOp::Block {
            blocker,
            blocked,
            on,
            at,
        } => {
            if *on {
                conn.prepare_cached(
                    "INSERT OR IGNORE INTO blocks (blocker, blocked, at) VALUES (?1, ?2, ?3)",
                )?
                .execute(params![blocker, blocked, at])?;
            } else {
                conn.prepare_cached("DELETE FROM blocks WHERE blocker = ?1 AND blocked = ?2")?
                    .execute(params![blocker, blocked])?;
            }
        }
        AccountOp::Report(r) => {
            conn.prepare_cached(
                "INSERT INTO reports (id, reporter, reported, reported_name, game_id, reason, details, at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )?
            .execute(params![
                r.id,
                r.reporter,
                r.reported,
                r.reported_name,
                r.game_id,
                r.reason,
                r.details,
                r.at
            ])?;
        }
        AccountOp::CloseReport { id, resolution, at } => {
            conn.prepare_cached(
                "UPDATE reports SET closed_at = ?3, resolution = ?2 WHERE id = ?1 AND closed_at IS NULL",
            )?
            .execute(params![id, resolution, at])?;
        }
        AccountOp::Close { id, reason, at } => {
            conn.prepare_cached(
                "INSERT OR IGNORE INTO closed_accounts (account_id, reason, at) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![id, reason, at])?;
            conn.prepare_cached("DELETE FROM sessions WHERE account_id = ?1")?
                .execute([id])?;
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// What a deleted account leaves: nothing of its follows and blocks.
pub(super) fn forget(conn: &Connection, id: &str) -> Result<(), rusqlite::Error> {
    for sql in [
        "DELETE FROM follows WHERE follower = ?1 OR followed = ?1",
        "DELETE FROM blocks WHERE blocker = ?1 OR blocked = ?1",
    ] {
        conn.prepare_cached(sql)?.execute([id])?;
    }
    Ok(())
}

pub(super) fn relations(conn: &Connection, account: &str) -> Result<Relations, StoreError> {
    let names = |sql: &str| -> Result<Vec<String>, StoreError> {
        Ok(conn
            .prepare_cached(sql)?
            .query_map([account], |r| r.get(0))?
            .collect::<Result<_, _>>()?)
    };
    Ok(Relations {
        following: names(
            "SELECT a.username FROM follows f JOIN accounts a ON a.id = f.followed
             WHERE f.follower = ?1 ORDER BY a.username_key",
        )?,
        blocked: names(
            "SELECT a.username FROM blocks b JOIN accounts a ON a.id = b.blocked
             WHERE b.blocker = ?1 ORDER BY a.username_key",
        )?,
    })
}

pub(super) fn blocked_between(conn: &Connection, a: &str, b: &str) -> Result<bool, StoreError> {
    Ok(conn
        .prepare_cached(
            "SELECT 1 FROM blocks WHERE (blocker = ?1 AND blocked = ?2) OR (blocker = ?2 AND blocked = ?1)",
        )?
        .query_row([a, b], |_| Ok(()))
        .optional()?
        .is_some())
}

pub(super) fn reports(
    conn: &Connection,
    filter: &ReportFilter,
) -> Result<Vec<ReportRow>, StoreError> {
    let (clause, param) = match filter {
        ReportFilter::Open => ("WHERE r.closed_at IS NULL", None),
        ReportFilter::All => ("", None),
        ReportFilter::FiledBy(a) => ("WHERE r.reporter = ?1", Some(a)),
    };
    let sql = format!(
        "SELECT r.id, r.reporter, r.reported, r.reported_name, r.game_id, r.reason, r.details, r.at, r.closed_at, r.resolution,
                a.username, c.account_id IS NOT NULL
         FROM reports r LEFT JOIN accounts a ON a.id = r.reporter
         LEFT JOIN closed_accounts c ON c.account_id = r.reported
         {clause} ORDER BY r.at DESC, r.id"
    );
    Ok(conn
        .prepare_cached(&sql)?
        .query_map(rusqlite::params_from_iter(param), |r| {
            Ok(ReportRow {
                id: r.get(0)?,
                reporter: r.get(1)?,
                reported: r.get(2)?,
                reported_name: r.get(3)?,
                game_id: r.get(4)?,
                reason: r.get(5)?,
                details: r.get(6)?,
                at: r.get(7)?,
                closed_at: r.get(8)?,
                resolution: r.get(9)?,
                reporter_name: r.get(10)?,
                reported_closed: r.get(11)?,
            })
        })?
        .collect::<Result<_, _>>()?)
}

pub(super) fn reports_by(conn: &Connection, reporter: &str, since: i64) -> Result<u32, StoreError> {
    let n: i64 = conn
        .prepare_cached("SELECT COUNT(*) FROM reports WHERE reporter = ?1 AND at >= ?2")?
        .query_row(params![reporter, since], |r| r.get(0))?;
    Ok(n.max(0) as u32)
}

pub(super) fn account_closed(conn: &Connection, account: &str) -> Result<bool, StoreError> {
    Ok(conn
        .prepare_cached("SELECT 1 FROM closed_accounts WHERE account_id = ?1")?
        .query_row([account], |_| Ok(()))
        .optional()?
        .is_some())
}
