//! The SQLite side of tournaments: schema version 12, the writes and the
//! reads (`store/tournaments.rs`).

use rusqlite::{params, Connection, OptionalExtension};

use super::StoreError;
use crate::store::tournaments::{
    outcome_str, parse_outcome, tc_json, Entered, EntrantRow, EntrantState, PairingRow, RawRow,
    Tournament, TournamentOp, TournamentSummary,
};

/// Schema version 12: tournaments, their entrants and their pairings.
pub(super) const MIGRATION: &str = "
CREATE TABLE tournaments (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    creator TEXT,
    time_control TEXT NOT NULL,
    rated INTEGER NOT NULL,
    status TEXT NOT NULL,
    starts_at INTEGER NOT NULL,
    ends_at INTEGER,
    rounds INTEGER NOT NULL,
    round INTEGER NOT NULL,
    next_at INTEGER,
    version INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    schedule_key TEXT UNIQUE,
    claim INTEGER
);
CREATE INDEX tournaments_status ON tournaments(status, starts_at);
CREATE TABLE tournament_players (
    tournament_id TEXT NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    account_id TEXT NOT NULL,
    username TEXT NOT NULL,
    rating INTEGER NOT NULL,
    state TEXT NOT NULL,
    joined_at INTEGER NOT NULL,
    seen_at INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, idx),
    UNIQUE (tournament_id, account_id)
) WITHOUT ROWID;
CREATE INDEX tournament_players_account ON tournament_players(account_id);
CREATE TABLE tournament_games (
    tournament_id TEXT NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    game_id TEXT NOT NULL,
    round INTEGER NOT NULL,
    south INTEGER NOT NULL,
    north INTEGER,
    outcome TEXT,
    at INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, game_id)
) WITHOUT ROWID;
";

const COLUMNS: &str = "id, kind, name, creator, time_control, rated, status, starts_at, ends_at, \
                       rounds, round, next_at, version, created_at, schedule_key";

fn corrupt(id: &str, what: &str) -> StoreError {
    StoreError::Corrupt {
        id: id.to_string(),
        message: format!("tournament: {what}"),
    }
}

fn read_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<RawRow> {
    Ok(RawRow {
        id: r.get(0)?,
        kind: r.get(1)?,
        name: r.get(2)?,
        creator: r.get(3)?,
        time_control: r.get(4)?,
        rated: r.get(5)?,
        status: r.get(6)?,
        starts_at: r.get(7)?,
        ends_at: r.get(8)?,
        rounds: r.get(9)?,
        round: r.get(10)?,
        next_at: r.get(11)?,
        version: r.get(12)?,
        created_at: r.get(13)?,
        schedule_key: r.get(14)?,
    })
}

/// Applies one change.
pub(super) fn apply(conn: &Connection, op: &TournamentOp) -> Result<(), StoreError> {
    match op {
        TournamentOp::Create(t) => {
            conn.prepare_cached(&format!(
                "INSERT INTO tournaments ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, 0, ?13, ?14)
                 ON CONFLICT (schedule_key) DO NOTHING"
            ))?
            .execute(params![
                t.id,
                t.kind.as_str(),
                t.name,
                t.creator,
                tc_json(t),
                t.rated,
                t.status.as_str(),
                t.starts_at,
                t.ends_at,
                t.rounds,
                t.round,
                t.next_at,
                t.created_at,
                t.schedule_key
            ])?;
        }
        TournamentOp::Update { row, expected } => {
            let n = conn
                .prepare_cached(
                    "UPDATE tournaments SET status = ?3, ends_at = ?4, round = ?5, next_at = ?6,
                     version = version + 1 WHERE id = ?1 AND version = ?2",
                )?
                .execute(params![
                    row.id,
                    *expected as i64,
                    row.status.as_str(),
                    row.ends_at,
                    row.round,
                    row.next_at
                ])?;
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
            let (mine, all): (u32, u32) = conn
                .prepare_cached(
                    "SELECT coalesce(sum(creator = ?1), 0), count(*) FROM tournaments
                     WHERE status IN ('created', 'running') AND creator IS NOT NULL",
                )?
                .query_row([creator], |r| Ok((r.get(0)?, r.get(1)?)))?;
            crate::store::check_caps(mine, all, *per_creator, *open)?;
        }
        TournamentOp::Join {
            tournament_id,
            account_id,
            username,
            rating,
            at,
        } => {
            conn.prepare_cached(
                "INSERT INTO tournament_players
                 (tournament_id, idx, account_id, username, rating, state, joined_at, seen_at)
                 VALUES (?1, (SELECT coalesce(max(idx) + 1, 0) FROM tournament_players WHERE tournament_id = ?1),
                         ?2, ?3, ?4, 'active', ?5, ?5)
                 ON CONFLICT (tournament_id, account_id) DO UPDATE SET state = 'active', seen_at = excluded.seen_at",
            )?
            .execute(params![tournament_id, account_id, username, rating, at])?;
        }
        TournamentOp::State {
            tournament_id,
            account_id,
            state,
        } => {
            conn.prepare_cached(
                "UPDATE tournament_players SET state = ?3 WHERE tournament_id = ?1 AND account_id = ?2",
            )?
            .execute(params![tournament_id, account_id, state.as_str()])?;
        }
        TournamentOp::Seen {
            tournament_id,
            account_ids,
            at,
        } => {
            let mut stmt = conn.prepare_cached(
                "UPDATE tournament_players SET seen_at = max(seen_at, ?3)
                 WHERE tournament_id = ?1 AND account_id = ?2",
            )?;
            for a in account_ids {
                stmt.execute(params![tournament_id, a, at])?;
            }
        }
        TournamentOp::Pair {
            tournament_id,
            pairing: p,
        } => {
            conn.prepare_cached(
                "INSERT INTO tournament_games (tournament_id, game_id, round, south, north, outcome, at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?
            .execute(params![
                tournament_id,
                p.game_id,
                p.round,
                p.south,
                p.north,
                p.outcome.map(outcome_str),
                p.at
            ])?;
        }
        TournamentOp::Outcome {
            tournament_id,
            game_id,
            outcome,
        } => {
            conn.prepare_cached(
                "UPDATE tournament_games SET outcome = ?3 WHERE tournament_id = ?1 AND game_id = ?2",
            )?
            .execute(params![tournament_id, game_id, outcome_str(*outcome)])?;
        }
    }
    Ok(())
}

/// One tournament, whole.
pub(super) fn tournament(conn: &Connection, id: &str) -> Result<Option<Tournament>, StoreError> {
    let Some(raw) = conn
        .prepare_cached(&format!("SELECT {COLUMNS} FROM tournaments WHERE id = ?1"))?
        .query_row([id], read_row)
        .optional()?
    else {
        return Ok(None);
    };
    let row = raw.parse()?;
    let mut entrants = Vec::new();
    let mut stmt = conn.prepare_cached(
        "SELECT idx, account_id, username, rating, state, joined_at, seen_at
         FROM tournament_players WHERE tournament_id = ?1 ORDER BY idx",
    )?;
    let rows = stmt.query_map([id], |r| {
        Ok((
            r.get::<_, u32>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, i32>(3)?,
            r.get::<_, String>(4)?,
            r.get::<_, i64>(5)?,
            r.get::<_, i64>(6)?,
        ))
    })?;
    for r in rows {
        let (idx, account_id, username, rating, state, joined_at, seen_at) = r?;
        entrants.push(EntrantRow {
            idx,
            account_id,
            username,
            rating,
            state: EntrantState::parse(&state).ok_or_else(|| corrupt(id, "entrant state"))?,
            joined_at,
            seen_at,
        });
    }
    let mut pairings = Vec::new();
    let mut stmt = conn.prepare_cached(
        "SELECT game_id, round, south, north, outcome, at FROM tournament_games
         WHERE tournament_id = ?1 ORDER BY at, round, game_id",
    )?;
    let rows = stmt.query_map([id], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, u32>(1)?,
            r.get::<_, u32>(2)?,
            r.get::<_, Option<u32>>(3)?,
            r.get::<_, Option<String>>(4)?,
            r.get::<_, i64>(5)?,
        ))
    })?;
    for r in rows {
        let (game_id, round, south, north, outcome, at) = r?;
        let outcome = match outcome {
            None => None,
            Some(o) => Some(parse_outcome(&o).ok_or_else(|| corrupt(id, "outcome"))?),
        };
        pairings.push(PairingRow {
            game_id,
            round,
            south,
            north,
            outcome,
            at,
        });
    }
    Ok(Some(Tournament {
        row,
        entrants,
        pairings,
    }))
}

/// The open tournaments, then the latest `finished` others.
pub(super) fn tournaments(
    conn: &Connection,
    finished: u32,
) -> Result<Vec<TournamentSummary>, StoreError> {
    let sql = format!(
        "SELECT {COLUMNS}, (SELECT count(*) FROM tournament_players p WHERE p.tournament_id = t.id)
         FROM tournaments t WHERE status IN ('created', 'running')
         ORDER BY status = 'created', starts_at, id"
    );
    let mut out = Vec::new();
    for r in conn
        .prepare_cached(&sql)?
        .query_map([], |r| Ok((read_row(r)?, r.get::<_, u32>(15)?)))?
    {
        let (raw, entrants) = r?;
        out.push(TournamentSummary {
            row: raw.parse()?,
            entrants,
        });
    }
    let sql = format!(
        "SELECT {COLUMNS}, (SELECT count(*) FROM tournament_players p WHERE p.tournament_id = t.id)
         FROM tournaments t WHERE status IN ('finished', 'cancelled')
         ORDER BY coalesce(ends_at, starts_at) DESC, id LIMIT ?1"
    );
    for r in conn
        .prepare_cached(&sql)?
        .query_map([finished], |r| Ok((read_row(r)?, r.get::<_, u32>(15)?)))?
    {
        let (raw, entrants) = r?;
        out.push(TournamentSummary {
            row: raw.parse()?,
            entrants,
        });
    }
    Ok(out)
}

/// Claims the tournaments that need a look, fairly (see the trait); one
/// node: the lease only keeps a tournament from being looked at again
/// before the last look is done.
pub(super) fn claim(
    conn: &Connection,
    now: i64,
    lease: crate::store::Lease,
    limit: u32,
) -> Result<Vec<String>, StoreError> {
    let ids = conn
        .prepare_cached(
            "UPDATE tournaments SET claim = ?2 WHERE id IN (
                SELECT id FROM tournaments
                WHERE (status = 'running' OR (status = 'created' AND starts_at <= ?1))
                AND coalesce(claim, 0) <= ?4
                ORDER BY status = 'running', creator IS NOT NULL, coalesce(claim, 0), starts_at, id
                LIMIT ?3)
             RETURNING id",
        )?
        .query_map(params![now, lease.now + lease.ms, limit, lease.now], |r| {
            r.get(0)
        })?
        .collect::<Result<Vec<String>, _>>()?;
    Ok(ids)
}

/// Every tournament an account entered.
pub(super) fn entered(conn: &Connection, account_id: &str) -> Result<Vec<Entered>, StoreError> {
    let mut out = Vec::new();
    let mut stmt = conn.prepare_cached(
        "SELECT t.id, t.name, t.kind, t.status, t.starts_at, p.state
         FROM tournament_players p JOIN tournaments t ON t.id = p.tournament_id
         WHERE p.account_id = ?1 ORDER BY t.starts_at, t.id",
    )?;
    let rows = stmt.query_map([account_id], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, String>(3)?,
            r.get::<_, i64>(4)?,
            r.get::<_, String>(5)?,
        ))
    })?;
    for r in rows {
        let (id, name, kind, status, starts_at, state) = r?;
        out.push(Entered::parse(id, name, &kind, &status, starts_at, &state)?);
    }
    Ok(out)
}

/// The open tournaments an account is in.
pub(super) fn of(conn: &Connection, account_id: &str) -> Result<Vec<String>, StoreError> {
    let ids = conn
        .prepare_cached(
            "SELECT t.id FROM tournaments t JOIN tournament_players p ON p.tournament_id = t.id
             WHERE p.account_id = ?1 AND p.state != 'left' AND t.status IN ('created', 'running')
             ORDER BY t.starts_at",
        )?
        .query_map([account_id], |r| r.get(0))?
        .collect::<Result<Vec<String>, _>>()?;
    Ok(ids)
}

/// The blocks between entrants.
pub(super) fn blocks(conn: &Connection, id: &str) -> Result<Vec<(String, String)>, StoreError> {
    let pairs = conn
        .prepare_cached(
            "SELECT b.blocker, b.blocked FROM blocks b
             JOIN tournament_players p ON p.tournament_id = ?1 AND p.account_id = b.blocker
             JOIN tournament_players q ON q.tournament_id = ?1 AND q.account_id = b.blocked",
        )?
        .query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<Vec<(String, String)>, _>>()?;
    Ok(pairs)
}
