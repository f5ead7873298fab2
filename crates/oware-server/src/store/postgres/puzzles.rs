//! The PostgreSQL side of puzzle ratings (`store/puzzles.rs`): the same
//! tables as SQLite's schema version 7, and the same writes and reads.

use deadpool_postgres::{Client, Transaction};
use tokio_postgres::Row;

use super::StoreError;
use crate::ratings::{rate, Rating, Score};
use crate::store::puzzles::{start_rating, PuzzleAttempt, PuzzlePlayer};

/// The puzzle tables (a migration step).
pub(super) const MIGRATION: &str = "
CREATE TABLE puzzle_ratings (
    puzzle_id BIGINT PRIMARY KEY,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    attempts BIGINT NOT NULL
);
CREATE TABLE puzzle_players (
    account_id TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    attempts BIGINT NOT NULL
);
CREATE TABLE puzzle_attempts (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    puzzle_id BIGINT NOT NULL,
    solved BOOLEAN NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (account_id, puzzle_id)
);
";

fn rating_row(r: &Row) -> Rating {
    let games: i64 = r.get(3);
    Rating {
        rating: r.get(0),
        deviation: r.get(1),
        volatility: r.get(2),
        games: games.clamp(0, u32::MAX as i64) as u32,
    }
}

/// Applies an attempt: the first of an account at a puzzle rates both,
/// when it is to be rated.
/// The rows are locked before they are read, the account's first, so two
/// nodes rating attempts at once cannot lose an update.
pub(super) async fn attempt(tx: &Transaction<'_>, a: &PuzzleAttempt) -> Result<(), StoreError> {
    let puzzle = i64::from(a.puzzle);
    let new = tx
        .execute(
            "INSERT INTO puzzle_attempts (account_id, puzzle_id, solved, at)
             VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
            &[&a.account_id, &puzzle, &a.solved, &a.at],
        )
        .await?;
    if new == 0 || !a.rated {
        return Ok(());
    }
    let d = Rating::default();
    tx.execute(
        "INSERT INTO puzzle_players (account_id, rating, deviation, volatility, attempts)
         VALUES ($1, $2, $3, $4, 0) ON CONFLICT DO NOTHING",
        &[&a.account_id, &d.rating, &d.deviation, &d.volatility],
    )
    .await?;
    let s = start_rating(a.start);
    tx.execute(
        "INSERT INTO puzzle_ratings (puzzle_id, rating, deviation, volatility, attempts)
         VALUES ($1, $2, $3, $4, 0) ON CONFLICT DO NOTHING",
        &[&puzzle, &s.rating, &s.deviation, &s.volatility],
    )
    .await?;
    let player = rating_row(
        &tx.query_one(
            "SELECT rating, deviation, volatility, attempts FROM puzzle_players
             WHERE account_id = $1 FOR UPDATE",
            &[&a.account_id],
        )
        .await?,
    );
    let z = rating_row(
        &tx.query_one(
            "SELECT rating, deviation, volatility, attempts FROM puzzle_ratings
             WHERE puzzle_id = $1 FOR UPDATE",
            &[&puzzle],
        )
        .await?,
    );
    let score = if a.solved { Score::Win } else { Score::Loss };
    let (p, z) = rate(player, z, score);
    tx.execute(
        "UPDATE puzzle_players SET rating = $2, deviation = $3, volatility = $4, attempts = $5
         WHERE account_id = $1",
        &[
            &a.account_id,
            &p.rating,
            &p.deviation,
            &p.volatility,
            &i64::from(p.games),
        ],
    )
    .await?;
    tx.execute(
        "UPDATE puzzle_ratings SET rating = $2, deviation = $3, volatility = $4, attempts = $5
         WHERE puzzle_id = $1",
        &[
            &puzzle,
            &z.rating,
            &z.deviation,
            &z.volatility,
            &i64::from(z.games),
        ],
    )
    .await?;
    Ok(())
}

/// Every stored puzzle rating.
pub(super) async fn ratings(client: &Client) -> Result<Vec<(u32, Rating)>, StoreError> {
    let rows = client
        .query(
            "SELECT rating, deviation, volatility, attempts, puzzle_id FROM puzzle_ratings",
            &[],
        )
        .await?;
    Ok(rows
        .iter()
        .map(|r| {
            let id: i64 = r.get(4);
            (id.clamp(0, u32::MAX as i64) as u32, rating_row(r))
        })
        .collect())
}

/// An account's puzzle rating and the puzzles it tried.
pub(super) async fn player(client: &Client, account: &str) -> Result<PuzzlePlayer, StoreError> {
    let rating = client
        .query_opt(
            "SELECT rating, deviation, volatility, attempts FROM puzzle_players WHERE account_id = $1",
            &[&account],
        )
        .await?
        .map(|r| rating_row(&r))
        .unwrap_or_default();
    let rows = client
        .query(
            "SELECT puzzle_id, solved FROM puzzle_attempts WHERE account_id = $1",
            &[&account],
        )
        .await?;
    let mut out = PuzzlePlayer {
        rating,
        ..PuzzlePlayer::default()
    };
    for r in rows {
        let id: i64 = r.get(0);
        let solved: bool = r.get(1);
        out.tried.push(id.clamp(0, u32::MAX as i64) as u32);
        out.solved += u32::from(solved);
    }
    Ok(out)
}
