//! Puzzle ratings as stored: the row types the stores read and write.
//! (The puzzles themselves are `oware_session::puzzles`; the routes are
//! `puzzle_routes.rs`.)
//!
//! Each puzzle and each signed-in account has a Glicko-2 rating
//! (`ratings.rs`); an account's first attempt at a puzzle is a
//! rated game between them (solved: the account wins) when the routes
//! say it is ([`PuzzleAttempt::rated`], decided above the stores by
//! `puzzle_routes::unrated_because`), applied by the store's writer in one
//! transaction, so an attempt is rated once. A puzzle without a stored
//! rating has its starting rating from the file.

use super::sql::{args, Db, SqlRow, Value};
use super::StoreError;
use crate::model::ratings::{rate, Rating, Score};

/// An attempt to apply.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleAttempt {
    /// The puzzle.
    pub puzzle: u32,
    /// The account that tried it.
    pub account_id: String,
    /// Whether the first move was the solution.
    pub solved: bool,
    /// Whether it may move the ratings (if it is the account's first
    /// attempt at the puzzle): false when the client had seen the
    /// solution. An unrated attempt still counts as tried.
    pub rated: bool,
    /// The puzzle's starting rating, used when none is stored yet.
    pub start: f64,
    /// When, ms since the epoch.
    pub at: i64,
}

/// The puzzle's starting Glicko-2 rating: its file rating, with the
/// deviation of a new player.
pub fn start_rating(rating: f64) -> Rating {
    Rating {
        rating,
        ..Rating::default()
    }
}

/// An account's puzzle standing.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct PuzzlePlayer {
    /// Its puzzle rating (the starting rating before any attempt).
    pub rating: Rating,
    /// The puzzles it has tried.
    pub tried: Vec<u32>,
    /// Of those, solved.
    pub solved: u32,
}

fn rating(r: &SqlRow) -> Result<Rating, StoreError> {
    Ok(Rating {
        rating: r.get(0)?,
        deviation: r.get(1)?,
        volatility: r.get(2)?,
        games: r.get(3)?,
    })
}

/// Applies an attempt: the first of an account at a puzzle rates both,
/// when it is to be rated. The rows are made if missing and locked before
/// they are read, the account's first, so two nodes rating attempts at
/// once cannot lose an update.
pub(crate) async fn attempt(db: &impl Db, a: &PuzzleAttempt) -> Result<(), StoreError> {
    let new = db
        .execute(
            "INSERT INTO puzzle_attempts (account_id, puzzle_id, solved, at)
             VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
            args![&a.account_id, a.puzzle, a.solved, a.at],
        )
        .await?;
    if new == 0 || !a.rated {
        return Ok(());
    }
    let player = [Value::from(&a.account_id)];
    let puzzle = [Value::from(a.puzzle)];
    let rows = [
        ("puzzle_players", "account_id", &player, Rating::default()),
        (
            "puzzle_ratings",
            "puzzle_id",
            &puzzle,
            start_rating(a.start),
        ),
    ];
    let mut before = [Rating::default(); 2];
    for ((table, key, id, start), before) in rows.iter().zip(&mut before) {
        db.execute(
            &format!(
                "INSERT INTO {table} ({key}, rating, deviation, volatility, attempts)
                 VALUES ($1, $2, $3, $4, 0) ON CONFLICT DO NOTHING"
            ),
            args![id[0], start.rating, start.deviation, start.volatility],
        )
        .await?;
        let sql = format!(
            "SELECT rating, deviation, volatility, attempts FROM {table} WHERE {key} = $1{}",
            db.dialect().for_update
        );
        *before = rating(&db.query_one(&sql, *id).await?)?;
    }
    let score = if a.solved { Score::Win } else { Score::Loss };
    let (p, z) = rate(before[0], before[1], score);
    for ((table, key, id, _), r) in rows.iter().zip([p, z]) {
        db.execute(
            &format!(
                "UPDATE {table} SET rating = $2, deviation = $3, volatility = $4, attempts = $5
                 WHERE {key} = $1"
            ),
            args![id[0], r.rating, r.deviation, r.volatility, r.games],
        )
        .await?;
    }
    Ok(())
}

/// Every stored puzzle rating.
pub(crate) async fn ratings(db: &impl Db) -> Result<Vec<(u32, Rating)>, StoreError> {
    db.query(
        "SELECT rating, deviation, volatility, attempts, puzzle_id FROM puzzle_ratings",
        &[],
    )
    .await?
    .iter()
    .map(|r| Ok((r.get(4)?, rating(r)?)))
    .collect()
}

/// An account's puzzle rating and the puzzles it tried.
pub(crate) async fn player(db: &impl Db, account: &str) -> Result<PuzzlePlayer, StoreError> {
    let rating = match db
        .query_opt(
            "SELECT rating, deviation, volatility, attempts FROM puzzle_players
             WHERE account_id = $1",
            args![account],
        )
        .await?
    {
        Some(r) => rating(&r)?,
        None => Rating::default(),
    };
    let mut out = PuzzlePlayer {
        rating,
        ..PuzzlePlayer::default()
    };
    for r in db
        .query(
            "SELECT puzzle_id, solved FROM puzzle_attempts WHERE account_id = $1",
            args![account],
        )
        .await?
    {
        out.tried.push(r.get(0)?);
        out.solved += u32::from(r.get::<bool>(1)?);
    }
    Ok(out)
}
