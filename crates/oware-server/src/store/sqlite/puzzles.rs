//! The SQLite side of puzzle ratings: schema version 9, the writes of an
//! attempt and the reads (`store/puzzles.rs`).

use rusqlite::{params, Connection, OptionalExtension};

use super::StoreError;
use crate::ratings::{rate, Rating, Score};
use crate::store::puzzles::{start_rating, PuzzleAttempt, PuzzlePlayer};

/// Schema version 9: each puzzle's rating, each account's puzzle rating
/// and the attempts that moved them (one per account and puzzle).
pub(super) const MIGRATION: &str = "
CREATE TABLE puzzle_ratings (
    puzzle_id INTEGER PRIMARY KEY,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    attempts INTEGER NOT NULL
);
CREATE TABLE puzzle_players (
    account_id TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    attempts INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE puzzle_attempts (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    puzzle_id INTEGER NOT NULL,
    solved INTEGER NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (account_id, puzzle_id)
) WITHOUT ROWID;
CREATE TRIGGER accounts_puzzles AFTER DELETE ON accounts BEGIN
    DELETE FROM puzzle_players WHERE account_id = OLD.id;
    DELETE FROM puzzle_attempts WHERE account_id = OLD.id;
END;
";

fn row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Rating> {
    Ok(Rating {
        rating: r.get(0)?,
        deviation: r.get(1)?,
        volatility: r.get(2)?,
        games: r.get(3)?,
    })
}

/// Applies an attempt: the first of an account at a puzzle rates both,
/// when it is to be rated.
pub(super) fn attempt(conn: &Connection, a: &PuzzleAttempt) -> Result<(), rusqlite::Error> {
    let new = conn
        .prepare_cached(
            "INSERT OR IGNORE INTO puzzle_attempts (account_id, puzzle_id, solved, at)
             VALUES (?1, ?2, ?3, ?4)",
        )?
        .execute(params![a.account_id, a.puzzle, a.solved, a.at])?;
    if new == 0 || !a.rated {
        return Ok(());
    }
    let puzzle = conn
        .prepare_cached(
            "SELECT rating, deviation, volatility, attempts FROM puzzle_ratings WHERE puzzle_id = ?1",
        )?
        .query_row([a.puzzle], row)
        .optional()?
        .unwrap_or_else(|| start_rating(a.start));
    let player = conn
        .prepare_cached(
            "SELECT rating, deviation, volatility, attempts FROM puzzle_players WHERE account_id = ?1",
        )?
        .query_row([&a.account_id], row)
        .optional()?
        .unwrap_or_default();
    let score = if a.solved { Score::Win } else { Score::Loss };
    let (p, z) = rate(player, puzzle, score);
    conn.prepare_cached(
        "INSERT INTO puzzle_players (account_id, rating, deviation, volatility, attempts)
         VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT(account_id) DO UPDATE SET rating = excluded.rating,
         deviation = excluded.deviation, volatility = excluded.volatility, attempts = excluded.attempts",
    )?
    .execute(params![a.account_id, p.rating, p.deviation, p.volatility, p.games])?;
    conn.prepare_cached(
        "INSERT INTO puzzle_ratings (puzzle_id, rating, deviation, volatility, attempts)
         VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT(puzzle_id) DO UPDATE SET rating = excluded.rating,
         deviation = excluded.deviation, volatility = excluded.volatility, attempts = excluded.attempts",
    )?
    .execute(params![a.puzzle, z.rating, z.deviation, z.volatility, z.games])?;
    Ok(())
}

/// Every stored puzzle rating.
pub(super) fn ratings(conn: &Connection) -> Result<Vec<(u32, Rating)>, StoreError> {
    let mut stmt = conn.prepare_cached(
        "SELECT rating, deviation, volatility, attempts, puzzle_id FROM puzzle_ratings",
    )?;
    let rows = stmt.query_map([], |r| Ok((r.get::<_, u32>(4)?, row(r)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// An account's puzzle rating and the puzzles it tried.
pub(super) fn player(conn: &Connection, account: &str) -> Result<PuzzlePlayer, StoreError> {
    let rating = conn
        .prepare_cached(
            "SELECT rating, deviation, volatility, attempts FROM puzzle_players WHERE account_id = ?1",
        )?
        .query_row([account], row)
        .optional()?
        .unwrap_or_default();
    let mut stmt =
        conn.prepare_cached("SELECT puzzle_id, solved FROM puzzle_attempts WHERE account_id = ?1")?;
    let rows = stmt.query_map([account], |r| {
        Ok((r.get::<_, u32>(0)?, r.get::<_, bool>(1)?))
    })?;
    let mut out = PuzzlePlayer {
        rating,
        ..PuzzlePlayer::default()
    };
    for r in rows {
        let (id, solved) = r?;
        out.tried.push(id);
        out.solved += u32::from(solved);
    }
    Ok(out)
}
