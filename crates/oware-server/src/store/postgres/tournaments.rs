//! The PostgreSQL side of tournaments (`store/tournaments.rs`): the same
//! tables as SQLite's schema version 12, the same writes and reads, and
//! claims that skip the rows another node holds.

use deadpool_postgres::{Client, Transaction};
use tokio_postgres::Row;

use super::StoreError;
use crate::store::tournaments::{
    outcome_str, parse_outcome, tc_json, Entered, EntrantRow, EntrantState, PairingRow, RawRow,
    Tournament, TournamentOp, TournamentSummary,
};

/// The tournament tables (a migration step).
pub(super) const MIGRATION: &str = "
CREATE TABLE tournaments (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    creator TEXT,
    time_control TEXT NOT NULL,
    rated BOOLEAN NOT NULL,
    status TEXT NOT NULL,
    starts_at BIGINT NOT NULL,
    ends_at BIGINT,
    rounds BIGINT NOT NULL,
    round BIGINT NOT NULL,
    next_at BIGINT,
    version BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    schedule_key TEXT UNIQUE,
    claim BIGINT
);
CREATE INDEX tournaments_status ON tournaments(status, starts_at);
CREATE TABLE tournament_players (
    tournament_id TEXT NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    idx BIGINT NOT NULL,
    account_id TEXT NOT NULL,
    username TEXT NOT NULL,
    rating BIGINT NOT NULL,
    state TEXT NOT NULL,
    joined_at BIGINT NOT NULL,
    seen_at BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, idx),
    UNIQUE (tournament_id, account_id)
);
CREATE INDEX tournament_players_account ON tournament_players(account_id);
CREATE TABLE tournament_games (
    tournament_id TEXT NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    game_id TEXT NOT NULL,
    round BIGINT NOT NULL,
    south BIGINT NOT NULL,
    north BIGINT,
    outcome TEXT,
    at BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, game_id)
);
";

const COLUMNS: &str = "id, kind, name, creator, time_control, rated, status, starts_at, ends_at, \
                       rounds, round, next_at, version, created_at, schedule_key";

fn raw(r: &Row) -> RawRow {
    RawRow {
        id: r.get(0),
        kind: r.get(1),
        name: r.get(2),
        creator: r.get(3),
        time_control: r.get(4),
        rated: r.get(5),
        status: r.get(6),
        starts_at: r.get(7),
        ends_at: r.get(8),
        rounds: r.get(9),
        round: r.get(10),
        next_at: r.get(11),
        version: r.get(12),
        created_at: r.get(13),
        schedule_key: r.get(14),
    }
}

fn corrupt(id: &str, what: &str) -> StoreError {
    StoreError::Corrupt {
        id: id.to_string(),
        message: format!("tournament: {what}"),
    }
}

/// Applies one change.
pub(super) async fn apply(tx: &Transaction<'_>, op: &TournamentOp) -> Result<(), StoreError> {
    match op {
        TournamentOp::Create(t) => {
            let stmt = tx
                .prepare_cached(&format!(
                    "INSERT INTO tournaments ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 0, $13, $14)
                     ON CONFLICT (schedule_key) DO NOTHING"
                ))
                .await?;
            tx.execute(
                &stmt,
                &[
                    &t.id,
                    &t.kind.as_str(),
                    &t.name,
                    &t.creator,
                    &tc_json(t),
                    &t.rated,
                    &t.status.as_str(),
                    &t.starts_at,
                    &t.ends_at,
                    &i64::from(t.rounds),
                    &i64::from(t.round),
                    &t.next_at,
                    &t.created_at,
                    &t.schedule_key,
                ],
            )
            .await?;
        }
        TournamentOp::Update { row, expected } => {
            let stmt = tx
                .prepare_cached(
                    "UPDATE tournaments SET status = $3, ends_at = $4, round = $5, next_at = $6,
                     version = version + 1 WHERE id = $1 AND version = $2",
                )
                .await?;
            let n = tx
                .execute(
                    &stmt,
                    &[
                        &row.id,
                        &(*expected as i64),
                        &row.status.as_str(),
                        &row.ends_at,
                        &i64::from(row.round),
                        &row.next_at,
                    ],
                )
                .await?;
            if n == 0 {
                return Err(StoreError::Stale {
                    id: row.id.clone(),
                    expected: *expected,
                });
            }
        }
        TournamentOp::Caps {
            creator,
            per_creator,
            open,
        } => {
            // One creation at a time across nodes, so the count below
            // stays true until this transaction commits.
            tx.execute(
                "SELECT pg_advisory_xact_lock(hashtext('oware: tournament caps'))",
                &[],
            )
            .await?;
            let row = tx
                .query_one(
                    "SELECT count(*) FILTER (WHERE creator = $1), count(*) FROM tournaments
                     WHERE status IN ('created', 'running') AND creator IS NOT NULL",
                    &[creator],
                )
                .await?;
            let (mine, all): (i64, i64) = (row.get(0), row.get(1));
            crate::store::check_caps(mine as u32, all as u32, *per_creator, *open)?;
        }
        TournamentOp::Join {
            tournament_id,
            account_id,
            username,
            rating,
            at,
        } => {
            // The tournament's row is locked first, so two nodes adding
            // entrants at once number them one after the other.
            tx.execute(
                "SELECT 1 FROM tournaments WHERE id = $1 FOR UPDATE",
                &[tournament_id],
            )
            .await?;
            tx.execute(
                "INSERT INTO tournament_players
                 (tournament_id, idx, account_id, username, rating, state, joined_at, seen_at)
                 VALUES ($1, (SELECT coalesce(max(idx) + 1, 0) FROM tournament_players WHERE tournament_id = $1),
                         $2, $3, $4, 'active', $5, $5)
                 ON CONFLICT (tournament_id, account_id) DO UPDATE SET state = 'active', seen_at = excluded.seen_at",
                &[tournament_id, account_id, username, &i64::from(*rating), at],
            )
            .await?;
        }
        TournamentOp::State {
            tournament_id,
            account_id,
            state,
        } => {
            tx.execute(
                "UPDATE tournament_players SET state = $3 WHERE tournament_id = $1 AND account_id = $2",
                &[tournament_id, account_id, &state.as_str()],
            )
            .await?;
        }
        TournamentOp::Seen {
            tournament_id,
            account_ids,
            at,
        } => {
            tx.execute(
                "UPDATE tournament_players SET seen_at = greatest(seen_at, $3)
                 WHERE tournament_id = $1 AND account_id = ANY($2)",
                &[tournament_id, account_ids, at],
            )
            .await?;
        }
        TournamentOp::Pair {
            tournament_id,
            pairing: p,
        } => {
            tx.execute(
                "INSERT INTO tournament_games (tournament_id, game_id, round, south, north, outcome, at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
                &[
                    tournament_id,
                    &p.game_id,
                    &i64::from(p.round),
                    &i64::from(p.south),
                    &p.north.map(i64::from),
                    &p.outcome.map(outcome_str),
                    &p.at,
                ],
            )
            .await?;
        }
        TournamentOp::Outcome {
            tournament_id,
            game_id,
            outcome,
        } => {
            tx.execute(
                "UPDATE tournament_games SET outcome = $3 WHERE tournament_id = $1 AND game_id = $2",
                &[tournament_id, game_id, &outcome_str(*outcome)],
            )
            .await?;
        }
    }
    Ok(())
}

/// One tournament, whole.
pub(super) async fn tournament(
    client: &Client,
    id: &str,
) -> Result<Option<Tournament>, StoreError> {
    let Some(r) = client
        .query_opt(
            &format!("SELECT {COLUMNS} FROM tournaments WHERE id = $1"),
            &[&id],
        )
        .await?
    else {
        return Ok(None);
    };
    let row = raw(&r).parse()?;
    let mut entrants = Vec::new();
    for r in client
        .query(
            "SELECT idx, account_id, username, rating, state, joined_at, seen_at
             FROM tournament_players WHERE tournament_id = $1 ORDER BY idx",
            &[&id],
        )
        .await?
    {
        let state: String = r.get(4);
        entrants.push(EntrantRow {
            idx: r.get::<_, i64>(0).max(0) as u32,
            account_id: r.get(1),
            username: r.get(2),
            rating: r.get::<_, i64>(3) as i32,
            state: EntrantState::parse(&state).ok_or_else(|| corrupt(id, "entrant state"))?,
            joined_at: r.get(5),
            seen_at: r.get(6),
        });
    }
    let mut pairings = Vec::new();
    for r in client
        .query(
            "SELECT game_id, round, south, north, outcome, at FROM tournament_games
             WHERE tournament_id = $1 ORDER BY at, round, game_id",
            &[&id],
        )
        .await?
    {
        let outcome: Option<String> = r.get(4);
        let outcome = match outcome {
            None => None,
            Some(o) => Some(parse_outcome(&o).ok_or_else(|| corrupt(id, "outcome"))?),
        };
        pairings.push(PairingRow {
            game_id: r.get(0),
            round: r.get::<_, i64>(1).max(0) as u32,
            south: r.get::<_, i64>(2).max(0) as u32,
            north: r.get::<_, Option<i64>>(3).map(|n| n.max(0) as u32),
            outcome,
            at: r.get(5),
        });
    }
    Ok(Some(Tournament {
        row,
        entrants,
        pairings,
    }))
}

/// The open tournaments, then the latest `finished` others.
pub(super) async fn tournaments(
    client: &Client,
    finished: u32,
) -> Result<Vec<TournamentSummary>, StoreError> {
    let count = "(SELECT count(*) FROM tournament_players p WHERE p.tournament_id = t.id)";
    let open = client
        .query(
            &format!(
                "SELECT {COLUMNS}, {count} FROM tournaments t WHERE status IN ('created', 'running')
                 ORDER BY status = 'created', starts_at, id"
            ),
            &[],
        )
        .await?;
    let done = client
        .query(
            &format!(
                "SELECT {COLUMNS}, {count} FROM tournaments t WHERE status IN ('finished', 'cancelled')
                 ORDER BY coalesce(ends_at, starts_at) DESC, id LIMIT $1"
            ),
            &[&i64::from(finished)],
        )
        .await?;
    let mut out = Vec::new();
    for r in open.iter().chain(done.iter()) {
        out.push(TournamentSummary {
            row: raw(r).parse()?,
            entrants: r.get::<_, i64>(15).max(0) as u32,
        });
    }
    Ok(out)
}

/// Claims open tournaments no other node holds.
pub(super) async fn claim(
    client: &Client,
    now: i64,
    lease: crate::store::Lease,
    limit: u32,
) -> Result<Vec<String>, StoreError> {
    let rows = client
        .query(
            "UPDATE tournaments SET claim = $2 WHERE id IN (
                SELECT id FROM tournaments
                WHERE (status = 'running' OR (status = 'created' AND starts_at <= $1))
                AND coalesce(claim, 0) <= $4
                ORDER BY status = 'running', creator IS NOT NULL, coalesce(claim, 0), starts_at, id
                LIMIT $3 FOR UPDATE SKIP LOCKED)
             RETURNING id",
            &[&now, &(lease.now + lease.ms), &i64::from(limit), &lease.now],
        )
        .await?;
    Ok(rows.iter().map(|r| r.get(0)).collect())
}

/// Every tournament an account entered.
pub(super) async fn entered(client: &Client, account_id: &str) -> Result<Vec<Entered>, StoreError> {
    let rows = client
        .query(
            "SELECT t.id, t.name, t.kind, t.status, t.starts_at, p.state
             FROM tournament_players p JOIN tournaments t ON t.id = p.tournament_id
             WHERE p.account_id = $1 ORDER BY t.starts_at, t.id",
            &[&account_id],
        )
        .await?;
    rows.iter()
        .map(|r| {
            let (kind, status, state): (String, String, String) = (r.get(2), r.get(3), r.get(5));
            Entered::parse(r.get(0), r.get(1), &kind, &status, r.get(4), &state)
        })
        .collect()
}

/// The open tournaments an account is in.
pub(super) async fn of(client: &Client, account_id: &str) -> Result<Vec<String>, StoreError> {
    let rows = client
        .query(
            "SELECT t.id FROM tournaments t JOIN tournament_players p ON p.tournament_id = t.id
             WHERE p.account_id = $1 AND p.state != 'left' AND t.status IN ('created', 'running')
             ORDER BY t.starts_at",
            &[&account_id],
        )
        .await?;
    Ok(rows.iter().map(|r| r.get(0)).collect())
}

/// The blocks between entrants.
pub(super) async fn blocks(client: &Client, id: &str) -> Result<Vec<(String, String)>, StoreError> {
    let rows = client
        .query(
            "SELECT b.blocker, b.blocked FROM blocks b
             JOIN tournament_players p ON p.tournament_id = $1 AND p.account_id = b.blocker
             JOIN tournament_players q ON q.tournament_id = $1 AND q.account_id = b.blocked",
            &[&id],
        )
        .await?;
    Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
}
