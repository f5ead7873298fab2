//! The SQLite side of accounts: the tables of schema version 3, the writes
//! of [`AccountOp`] and the reads behind [`super::Store`]'s account methods.

use rusqlite::{params, Connection, OptionalExtension, Row};

use super::StoreError;
use crate::ratings::{rate, Rating, RatingClass, Score};
use crate::store::account_rows::{
    AccountOp, AccountRow, HistoryPoint, RatedGame, RatingRow, SessionRow,
};

/// Schema version 3: accounts, sessions, ratings and their history, and the
/// games of each account.
pub(super) const MIGRATION: &str = "
CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    username TEXT NOT NULL,
    username_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE TABLE sessions (
    token_hash BLOB PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    csrf TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX sessions_account ON sessions(account_id);
CREATE TABLE ratings (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    class TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (account_id, class)
) WITHOUT ROWID;
CREATE INDEX ratings_board ON ratings(class, rating);
CREATE TABLE rating_history (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    class TEXT NOT NULL,
    game_id TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (account_id, game_id)
) WITHOUT ROWID;
CREATE TABLE account_games (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    game_id TEXT NOT NULL,
    PRIMARY KEY (account_id, game_id)
) WITHOUT ROWID;
";

pub(super) fn apply(conn: &Connection, op: &AccountOp) -> Result<(), rusqlite::Error> {
    match op {
        AccountOp::Create(a) => {
            conn.prepare_cached(
                "INSERT INTO accounts (id, username, username_key, password_hash, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![
                a.id,
                a.username,
                crate::store::account_rows::username_key(&a.username),
                a.password_hash,
                a.created_at
            ])?;
        }
        AccountOp::SetPassword { id, hash } => {
            conn.prepare_cached("UPDATE accounts SET password_hash = ?2 WHERE id = ?1")?
                .execute(params![id, hash])?;
        }
        AccountOp::Delete { id } => {
            for sql in [
                "DELETE FROM sessions WHERE account_id = ?1",
                "DELETE FROM ratings WHERE account_id = ?1",
                "DELETE FROM rating_history WHERE account_id = ?1",
                "DELETE FROM account_games WHERE account_id = ?1",
                "UPDATE tournament_players SET username = 'Deleted player', state = 'left'
                 WHERE account_id = ?1",
                "UPDATE reports SET reported_name = 'Deleted player' WHERE reported = ?1",
                "DELETE FROM accounts WHERE id = ?1",
            ] {
                conn.prepare_cached(sql)?.execute([id])?;
            }
        }
        AccountOp::CreateSession(s) => {
            conn.prepare_cached(
                "INSERT INTO sessions (token_hash, account_id, csrf, created_at, expires_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![
                s.token_hash,
                s.account_id,
                s.csrf,
                s.created_at,
                s.expires_at
            ])?;
        }
        AccountOp::EndSession { token_hash } => {
            conn.prepare_cached("DELETE FROM sessions WHERE token_hash = ?1")?
                .execute([token_hash])?;
        }
        AccountOp::EndOtherSessions { account_id, keep } => {
            conn.prepare_cached(
                "DELETE FROM sessions WHERE account_id = ?1 AND token_hash IS NOT ?2",
            )?
            .execute(params![account_id, keep])?;
        }
        AccountOp::LinkGame {
            account_id,
            game_id,
        } => {
            conn.prepare_cached(
                "INSERT OR IGNORE INTO account_games (account_id, game_id)
                 SELECT ?1, ?2 WHERE EXISTS (SELECT 1 FROM accounts WHERE id = ?1)",
            )?
            .execute(params![account_id, game_id])?;
        }
        AccountOp::Rate(game) => rate_game(conn, game)?,
        // Follows, blocks, reports and closures: `community.rs`.
        _ => {}
    }
    Ok(())
}

fn rating_of(
    conn: &Connection,
    account: &str,
    class: RatingClass,
) -> Result<Rating, rusqlite::Error> {
    Ok(conn
        .prepare_cached(
            "SELECT rating, deviation, volatility, games FROM ratings WHERE account_id = ?1 AND class = ?2",
        )?
        .query_row(params![account, class.as_str()], |r| {
            Ok(Rating {
                rating: r.get(0)?,
                deviation: r.get(1)?,
                volatility: r.get(2)?,
                games: r.get(3)?,
            })
        })
        .optional()?
        .unwrap_or_default())
}

/// Rates a finished game once: a game already in both players' history is
/// left alone (a write repeated after a crash changes nothing).
fn rate_game(conn: &Connection, g: &RatedGame) -> Result<(), rusqlite::Error> {
    let done: i64 = conn
        .prepare_cached("SELECT COUNT(*) FROM rating_history WHERE game_id = ?1")?
        .query_row([&g.game_id], |r| r.get(0))?;
    if done > 0 {
        return Ok(());
    }
    let [south, north] = &g.accounts;
    let before = [
        rating_of(conn, south, g.class)?,
        rating_of(conn, north, g.class)?,
    ];
    let score = Score::for_south(g.winner);
    let (s, n) = rate(before[0], before[1], score);
    for (account, r) in [(south, s), (north, n)] {
        conn.prepare_cached(
            "INSERT INTO ratings (account_id, class, rating, deviation, volatility, games)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT(account_id, class) DO UPDATE SET rating = excluded.rating,
             deviation = excluded.deviation, volatility = excluded.volatility, games = excluded.games",
        )?
        .execute(params![account, g.class.as_str(), r.rating, r.deviation, r.volatility, r.games])?;
        conn.prepare_cached(
            "INSERT INTO rating_history (account_id, class, game_id, rating, deviation, at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?
        .execute(params![
            account,
            g.class.as_str(),
            g.game_id,
            r.rating,
            r.deviation,
            g.at
        ])?;
    }
    Ok(())
}

fn account_row(r: &Row<'_>) -> rusqlite::Result<AccountRow> {
    Ok(AccountRow {
        id: r.get(0)?,
        username: r.get(1)?,
        password_hash: r.get(2)?,
        created_at: r.get(3)?,
    })
}

pub(super) fn account_by_name(
    conn: &Connection,
    name: &str,
) -> Result<Option<AccountRow>, StoreError> {
    Ok(conn
        .prepare_cached(
            "SELECT id, username, password_hash, created_at FROM accounts WHERE username_key = ?1",
        )?
        .query_row(
            [crate::store::account_rows::username_key(name)],
            account_row,
        )
        .optional()?)
}

pub(super) fn session(
    conn: &Connection,
    token_hash: &[u8],
) -> Result<Option<(SessionRow, AccountRow)>, StoreError> {
    Ok(conn
        .prepare_cached(
            "SELECT s.account_id, s.csrf, s.created_at, s.expires_at,
                    a.id, a.username, a.password_hash, a.created_at
             FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE s.token_hash = ?1",
        )?
        .query_row([token_hash], |r| {
            Ok((
                SessionRow {
                    token_hash: token_hash.to_vec(),
                    account_id: r.get(0)?,
                    csrf: r.get(1)?,
                    created_at: r.get(2)?,
                    expires_at: r.get(3)?,
                },
                AccountRow {
                    id: r.get(4)?,
                    username: r.get(5)?,
                    password_hash: r.get(6)?,
                    created_at: r.get(7)?,
                },
            ))
        })
        .optional()?)
}

pub(super) fn ratings(conn: &Connection, account: &str) -> Result<Vec<RatingRow>, StoreError> {
    let mut out = Vec::new();
    for class in RatingClass::ALL {
        let rating = rating_of(conn, account, class)?;
        out.push(RatingRow {
            account_id: account.to_string(),
            class,
            rating,
        });
    }
    Ok(out)
}

pub(super) fn history(conn: &Connection, account: &str) -> Result<Vec<HistoryPoint>, StoreError> {
    let mut stmt = conn.prepare_cached(
        "SELECT class, game_id, rating, deviation, at FROM rating_history
         WHERE account_id = ?1 ORDER BY at, game_id",
    )?;
    let rows = stmt.query_map([account], |r| {
        let class: String = r.get(0)?;
        Ok(HistoryPoint {
            class: RatingClass::parse(&class).unwrap_or(RatingClass::Slow),
            game_id: r.get(1)?,
            rating: r.get(2)?,
            deviation: r.get(3)?,
            at: r.get(4)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub(super) fn leaderboard(
    conn: &Connection,
    class: RatingClass,
    limit: u32,
    provisional: bool,
) -> Result<Vec<(String, Rating)>, StoreError> {
    // Established ratings first; provisional ones after them when asked.
    let mut stmt = conn.prepare_cached(
        "SELECT a.username, r.rating, r.deviation, r.volatility, r.games
         FROM ratings r JOIN accounts a ON a.id = r.account_id
         WHERE r.class = ?1 AND (r.deviation <= ?2 OR ?4)
         ORDER BY (r.deviation > ?2), r.rating DESC, a.username_key LIMIT ?3",
    )?;
    let rows = stmt.query_map(
        params![
            class.as_str(),
            Rating::PROVISIONAL_DEVIATION,
            limit,
            provisional
        ],
        |r| {
            Ok((
                r.get(0)?,
                Rating {
                    rating: r.get(1)?,
                    deviation: r.get(2)?,
                    volatility: r.get(3)?,
                    games: r.get(4)?,
                },
            ))
        },
    )?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The ids of an account's games: ongoing first, then the newest.
pub(super) fn game_ids(
    conn: &Connection,
    account: &str,
    limit: u32,
) -> Result<Vec<String>, StoreError> {
    let mut stmt = conn.prepare_cached(
        "SELECT g.id FROM account_games ag JOIN games g ON g.id = ag.game_id
         WHERE ag.account_id = ?1 AND g.status <> 'cancelled'
         ORDER BY (g.status = 'over'), g.updated_at DESC LIMIT ?2",
    )?;
    let rows = stmt.query_map(params![account, limit], |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}
