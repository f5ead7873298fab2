//! The PostgreSQL side of the community tables (schema version 7):
//! follows, blocks, reports and accounts closed by an operator.

use tokio_postgres::{Client, Transaction};

use super::StoreError;
use crate::store::account_rows::{AccountOp, Relations, ReportFilter, ReportRow};

/// Schema version 7.
pub(super) const MIGRATION: &str = "
CREATE TABLE follows (
    follower TEXT NOT NULL,
    followed TEXT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (follower, followed)
);
CREATE INDEX follows_followed ON follows(followed);
CREATE TABLE blocks (
    blocker TEXT NOT NULL,
    blocked TEXT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (blocker, blocked)
);
CREATE INDEX blocks_blocked ON blocks(blocked);
CREATE TABLE reports (
    id TEXT PRIMARY KEY,
    reporter TEXT NOT NULL,
    reported TEXT NOT NULL,
    reported_name TEXT NOT NULL,
    game_id TEXT,
    reason TEXT NOT NULL,
    details TEXT NOT NULL,
    at BIGINT NOT NULL,
    closed_at BIGINT,
    resolution TEXT
);
CREATE INDEX reports_open ON reports(closed_at, at);
CREATE INDEX reports_reporter ON reports(reporter, at);
CREATE TABLE closed_accounts (
    account_id TEXT PRIMARY KEY,
    reason TEXT NOT NULL,
    at BIGINT NOT NULL
);
";

/// Applies a follow, block, report or closure (other changes are
/// `accounts.rs`'s).
pub(super) async fn apply(tx: &Transaction<'_>, op: &AccountOp) -> Result<(), StoreError> {
    match op {
        AccountOp::Follow {
            follower,
            followed,
            on,
            at,
        } => {
            if *on {
                tx.execute(
                    "INSERT INTO follows (follower, followed, at) VALUES ($1, $2, $3)
                     ON CONFLICT DO NOTHING",
                    &[follower, followed, at],
                )
                .await?;
            } else {
                tx.execute(
                    "DELETE FROM follows WHERE follower = $1 AND followed = $2",
                    &[follower, followed],
                )
                .await?;
            }
        }
        AccountOp::Block {
            blocker,
            blocked,
            on,
            at,
        } => {
            if *on {
                tx.execute(
                    "INSERT INTO blocks (blocker, blocked, at) VALUES ($1, $2, $3)
                     ON CONFLICT DO NOTHING",
                    &[blocker, blocked, at],
                )
                .await?;
            } else {
                tx.execute(
                    "DELETE FROM blocks WHERE blocker = $1 AND blocked = $2",
                    &[blocker, blocked],
                )
                .await?;
            }
        }
        AccountOp::Report(r) => {
            tx.execute(
                "INSERT INTO reports (id, reporter, reported, reported_name, game_id, reason, details, at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                &[
                    &r.id,
                    &r.reporter,
                    &r.reported,
                    &r.reported_name,
                    &r.game_id,
                    &r.reason,
                    &r.details,
                    &r.at,
                ],
            )
            .await?;
        }
        AccountOp::CloseReport { id, resolution, at } => {
            tx.execute(
                "UPDATE reports SET closed_at = $3, resolution = $2 WHERE id = $1 AND closed_at IS NULL",
                &[id, resolution, at],
            )
            .await?;
        }
        AccountOp::Close { id, reason, at } => {
            tx.execute(
                "INSERT INTO closed_accounts (account_id, reason, at) VALUES ($1, $2, $3)
                 ON CONFLICT DO NOTHING",
                &[id, reason, at],
            )
            .await?;
            tx.execute("DELETE FROM sessions WHERE account_id = $1", &[id])
                .await?;
        }
        _ => {}
    }
    Ok(())
}

pub(super) async fn relations(client: &Client, account: &str) -> Result<Relations, StoreError> {
    let names = |rows: Vec<tokio_postgres::Row>| rows.iter().map(|r| r.get(0)).collect();
    Ok(Relations {
        following: names(
            client
                .query(
                    "SELECT a.username FROM follows f JOIN accounts a ON a.id = f.followed
                     WHERE f.follower = $1 ORDER BY a.username_key",
                    &[&account],
                )
                .await?,
        ),
        blocked: names(
            client
                .query(
                    "SELECT a.username FROM blocks b JOIN accounts a ON a.id = b.blocked
                     WHERE b.blocker = $1 ORDER BY a.username_key",
                    &[&account],
                )
                .await?,
        ),
    })
}

pub(super) async fn blocked_between(client: &Client, a: &str, b: &str) -> Result<bool, StoreError> {
    Ok(client
        .query_opt(
            "SELECT 1 FROM blocks WHERE (blocker = $1 AND blocked = $2) OR (blocker = $2 AND blocked = $1)",
            &[&a, &b],
        )
        .await?
        .is_some())
}

pub(super) async fn reports(
    client: &Client,
    filter: &ReportFilter,
) -> Result<Vec<ReportRow>, StoreError> {
    let (clause, param) = match filter {
        ReportFilter::Open => ("WHERE r.closed_at IS NULL", None),
        ReportFilter::All => ("", None),
        ReportFilter::FiledBy(a) => ("WHERE r.reporter = $1", Some(a)),
    };
    let sql = format!(
        "SELECT r.id, r.reporter, r.reported, r.reported_name, r.game_id, r.reason, r.details, r.at, r.closed_at, r.resolution,
                a.username, c.account_id IS NOT NULL
         FROM reports r LEFT JOIN accounts a ON a.id = r.reporter
         LEFT JOIN closed_accounts c ON c.account_id = r.reported
         {clause} ORDER BY r.at DESC, r.id"
    );
    let params: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> = match &param {
        Some(a) => vec![a],
        None => Vec::new(),
    };
    Ok(client
        .query(&sql, &params)
        .await?
        .iter()
        .map(|r| ReportRow {
            id: r.get(0),
            reporter: r.get(1),
            reported: r.get(2),
            reported_name: r.get(3),
            game_id: r.get(4),
            reason: r.get(5),
            details: r.get(6),
            at: r.get(7),
            closed_at: r.get(8),
            resolution: r.get(9),
            reporter_name: r.get(10),
            reported_closed: r.get(11),
        })
        .collect())
}

pub(super) async fn reports_by(
    client: &Client,
    reporter: &str,
    since: i64,
) -> Result<u32, StoreError> {
    let n: i64 = client
        .query_one(
            "SELECT COUNT(*) FROM reports WHERE reporter = $1 AND at >= $2",
            &[&reporter, &since],
        )
        .await?
        .get(0);
    Ok(n.max(0) as u32)
}

pub(super) async fn account_closed(client: &Client, account: &str) -> Result<bool, StoreError> {
    Ok(client
        .query_opt(
            "SELECT 1 FROM closed_accounts WHERE account_id = $1",
            &[&account],
        )
        .await?
        .is_some())
}
