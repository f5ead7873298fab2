//! The PostgreSQL side of accounts: the writes of [`AccountOp`] and the
//! reads behind [`super::Store`]'s account methods.

use deadpool_postgres::{Client, GenericClient, Transaction};
use tokio_postgres::Row;

use super::StoreError;
use crate::ratings::{rate, Rating, RatingClass, Score};
use crate::store::account_rows::{
    AccountOp, AccountRow, HistoryPoint, RatedGame, RatingRow, SessionRow,
};

pub(super) async fn apply(tx: &Transaction<'_>, op: &AccountOp) -> Result<(), StoreError> {
    match op {
        AccountOp::Create(a) => {
            tx.execute(
                "INSERT INTO accounts (id, username, username_key, password_hash, created_at)
                 VALUES ($1, $2, $3, $4, $5)",
                &[
                    &a.id,
                    &a.username,
                    &crate::store::account_rows::username_key(&a.username),
                    &a.password_hash,
                    &a.created_at,
                ],
            )
            .await?;
        }
        AccountOp::SetPassword { id, hash } => {
            tx.execute(
                "UPDATE accounts SET password_hash = $2 WHERE id = $1",
                &[id, hash],
            )
            .await?;
        }
        AccountOp::Delete { id } => {
            for sql in [
                "DELETE FROM sessions WHERE account_id = $1",
                "DELETE FROM ratings WHERE account_id = $1",
                "DELETE FROM rating_history WHERE account_id = $1",
                "DELETE FROM account_games WHERE account_id = $1",
                "DELETE FROM follows WHERE follower = $1 OR followed = $1",
                "DELETE FROM blocks WHERE blocker = $1 OR blocked = $1",
                "UPDATE tournament_players SET username = 'Deleted player', state = 'left'
                 WHERE account_id = $1",
                "UPDATE reports SET reported_name = 'Deleted player' WHERE reported = $1",
                "DELETE FROM accounts WHERE id = $1",
            ] {
                tx.execute(sql, &[id]).await?;
            }
        }
        AccountOp::CreateSession(s) => {
            let stmt = tx
                .prepare_cached(
                    "INSERT INTO sessions (token_hash, account_id, csrf, created_at, expires_at)
                     VALUES ($1, $2, $3, $4, $5)",
                )
                .await?;
            tx.execute(
                &stmt,
                &[
                    &s.token_hash,
                    &s.account_id,
                    &s.csrf,
                    &s.created_at,
                    &s.expires_at,
                ],
            )
            .await?;
        }
        AccountOp::EndSession { token_hash } => {
            tx.execute("DELETE FROM sessions WHERE token_hash = $1", &[token_hash])
                .await?;
        }
        AccountOp::EndOtherSessions { account_id, keep } => {
            tx.execute(
                "DELETE FROM sessions WHERE account_id = $1 AND token_hash IS DISTINCT FROM $2",
                &[account_id, keep],
            )
            .await?;
        }
        AccountOp::LinkGame {
            account_id,
            game_id,
        } => {
            let stmt = tx
                .prepare_cached(
                    "INSERT INTO account_games (account_id, game_id)
                     SELECT $1, $2 WHERE EXISTS (SELECT 1 FROM accounts WHERE id = $1)
                     ON CONFLICT DO NOTHING",
                )
                .await?;
            tx.execute(&stmt, &[account_id, game_id]).await?;
        }
        AccountOp::Rate(game) => rate_game(tx, game).await?,
        other => super::community::apply(tx, other).await?,
    }
    Ok(())
}

fn rating_row(r: &Row) -> Rating {
    let games: i64 = r.get(3);
    Rating {
        rating: r.get(0),
        deviation: r.get(1),
        volatility: r.get(2),
        games: games.clamp(0, u32::MAX as i64) as u32,
    }
}

async fn rating_of(
    client: &impl GenericClient,
    account: &str,
    class: RatingClass,
    lock: bool,
) -> Result<Rating, StoreError> {
    let sql = if lock {
        "SELECT rating, deviation, volatility, games FROM ratings
         WHERE account_id = $1 AND class = $2 FOR UPDATE"
    } else {
        "SELECT rating, deviation, volatility, games FROM ratings
         WHERE account_id = $1 AND class = $2"
    };
    Ok(client
        .query_opt(sql, &[&account, &class.as_str()])
        .await?
        .map(|r| rating_row(&r))
        .unwrap_or_default())
}

/// Rates a finished game once. Several nodes may end games of the same
/// players at once, so both rating rows are created if missing and locked
/// (in account order, so that two transactions cannot wait on each other)
/// before they are read.
async fn rate_game(tx: &Transaction<'_>, g: &RatedGame) -> Result<(), StoreError> {
    let [south, north] = &g.accounts;
    let mut order = [south, north];
    order.sort();
    for account in order {
        let default = Rating::default();
        tx.execute(
            "INSERT INTO ratings (account_id, class, rating, deviation, volatility, games)
             VALUES ($1, $2, $3, $4, $5, 0) ON CONFLICT DO NOTHING",
            &[
                account,
                &g.class.as_str(),
                &default.rating,
                &default.deviation,
                &default.volatility,
            ],
        )
        .await?;
        rating_of(tx, account, g.class, true).await?;
    }
    let done: i64 = tx
        .query_one(
            "SELECT COUNT(*) FROM rating_history WHERE game_id = $1",
            &[&g.game_id],
        )
        .await?
        .get(0);
    if done > 0 {
        return Ok(());
    }
    let before = [
        rating_of(tx, south, g.class, false).await?,
        rating_of(tx, north, g.class, false).await?,
    ];
    let score = Score::for_south(g.winner);
    let (s, n) = rate(before[0], before[1], score);
    for (account, r) in [(south, s), (north, n)] {
        tx.execute(
            "UPDATE ratings SET rating = $3, deviation = $4, volatility = $5, games = $6
             WHERE account_id = $1 AND class = $2",
            &[
                account,
                &g.class.as_str(),
                &r.rating,
                &r.deviation,
                &r.volatility,
                &(r.games as i64),
            ],
        )
        .await?;
        tx.execute(
            "INSERT INTO rating_history (account_id, class, game_id, rating, deviation, at)
             VALUES ($1, $2, $3, $4, $5, $6)",
            &[
                account,
                &g.class.as_str(),
                &g.game_id,
                &r.rating,
                &r.deviation,
                &g.at,
            ],
        )
        .await?;
    }
    Ok(())
}

fn account_row(r: &Row, at: usize) -> AccountRow {
    AccountRow {
        id: r.get(at),
        username: r.get(at + 1),
        password_hash: r.get(at + 2),
        created_at: r.get(at + 3),
    }
}

pub(super) async fn account_by_name(
    client: &Client,
    name: &str,
) -> Result<Option<AccountRow>, StoreError> {
    Ok(client
        .query_opt(
            "SELECT id, username, password_hash, created_at FROM accounts WHERE username_key = $1",
            &[&crate::store::account_rows::username_key(name)],
        )
        .await?
        .map(|r| account_row(&r, 0)))
}

pub(super) async fn session(
    client: &Client,
    token_hash: &[u8],
) -> Result<Option<(SessionRow, AccountRow)>, StoreError> {
    let stmt = client
        .prepare_cached(
            "SELECT s.account_id, s.csrf, s.created_at, s.expires_at,
                    a.id, a.username, a.password_hash, a.created_at
             FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE s.token_hash = $1",
        )
        .await?;
    Ok(client.query_opt(&stmt, &[&token_hash]).await?.map(|r| {
        (
            SessionRow {
                token_hash: token_hash.to_vec(),
                account_id: r.get(0),
                csrf: r.get(1),
                created_at: r.get(2),
                expires_at: r.get(3),
            },
            account_row(&r, 4),
        )
    }))
}

pub(super) async fn ratings(client: &Client, account: &str) -> Result<Vec<RatingRow>, StoreError> {
    let mut out = Vec::new();
    for class in RatingClass::ALL {
        out.push(RatingRow {
            account_id: account.to_string(),
            class,
            rating: rating_of(client, account, class, false).await?,
        });
    }
    Ok(out)
}

pub(super) async fn history(
    client: &Client,
    account: &str,
) -> Result<Vec<HistoryPoint>, StoreError> {
    let rows = client
        .query(
            "SELECT class, game_id, rating, deviation, at FROM rating_history
             WHERE account_id = $1 ORDER BY at, game_id",
            &[&account],
        )
        .await?;
    Ok(rows
        .iter()
        .map(|r| {
            let class: String = r.get(0);
            HistoryPoint {
                class: RatingClass::parse(&class).unwrap_or(RatingClass::Slow),
                game_id: r.get(1),
                rating: r.get(2),
                deviation: r.get(3),
                at: r.get(4),
            }
        })
        .collect())
}

pub(super) async fn leaderboard(
    client: &Client,
    class: RatingClass,
    limit: u32,
    provisional: bool,
) -> Result<Vec<(String, Rating)>, StoreError> {
    // Established ratings first; provisional ones after them when asked.
    let rows = client
        .query(
            "SELECT a.username, r.rating, r.deviation, r.volatility, r.games
             FROM ratings r JOIN accounts a ON a.id = r.account_id
             WHERE r.class = $1 AND (r.deviation <= $2 OR $4)
             ORDER BY (r.deviation > $2), r.rating DESC, a.username_key LIMIT $3",
            &[
                &class.as_str(),
                &Rating::PROVISIONAL_DEVIATION,
                &(limit as i64),
                &provisional,
            ],
        )
        .await?;
    Ok(rows
        .iter()
        .map(|r| {
            let games: i64 = r.get(4);
            (
                r.get(0),
                Rating {
                    rating: r.get(1),
                    deviation: r.get(2),
                    volatility: r.get(3),
                    games: games.clamp(0, u32::MAX as i64) as u32,
                },
            )
        })
        .collect())
}

/// The ids of an account's games: ongoing first, then the newest.
pub(super) async fn game_ids(
    client: &Client,
    account: &str,
    limit: u32,
) -> Result<Vec<String>, StoreError> {
    let rows = client
        .query(
            "SELECT g.id FROM account_games ag JOIN games g ON g.id = ag.game_id
             WHERE ag.account_id = $1 AND g.status <> 'cancelled'
             ORDER BY (g.status = 'over'), g.updated_at DESC LIMIT $2",
            &[&account, &(limit as i64)],
        )
        .await?;
    Ok(rows.iter().map(|r| r.get(0)).collect())
}
