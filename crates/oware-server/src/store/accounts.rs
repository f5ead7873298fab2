//! Accounts in SQL, once for both stores: the writes of [`AccountOp`]
//! (with what a deleted account leaves, and the rating of a game) and the
//! reads behind [`super::AccountStore`] (`sql.rs` says how).

use super::account_rows::{
    username_key, AccountOp, AccountRow, HistoryPoint, RatedGame, RatingRow, Relations,
    ReportFilter, ReportRow, SessionRow, NAME_RESERVED_MS,
};
use super::sql::{args, Db, SqlRow, Value};
use super::StoreError;
use crate::model::ratings::{rate, Rating, RatingClass, Score};

/// What deleting an account removes or anonymises, in order, once its name
/// is reserved; its games stay (their seats are anonymised by the hub).
const DELETE: &[&str] = &[
    "DELETE FROM sessions WHERE account_id = $1",
    "DELETE FROM ratings WHERE account_id = $1",
    "DELETE FROM rating_history WHERE account_id = $1",
    "DELETE FROM account_games WHERE account_id = $1",
    "DELETE FROM puzzle_players WHERE account_id = $1",
    "DELETE FROM puzzle_attempts WHERE account_id = $1",
    "DELETE FROM follows WHERE follower = $1 OR followed = $1",
    "DELETE FROM notifications WHERE account_id = $1",
    "DELETE FROM challenges WHERE from_account = $1 OR to_account = $1",
    "DELETE FROM mail_addresses WHERE account_id = $1",
    "DELETE FROM mail_tokens WHERE account_id = $1",
    "DELETE FROM mail_outbox WHERE account_id = $1",
    "DELETE FROM blocks WHERE blocker = $1 OR blocked = $1",
    "UPDATE tournament_players SET username = 'Deleted player', state = 'left'
     WHERE account_id = $1",
    "UPDATE reports SET reported_name = 'Deleted player' WHERE reported = $1",
    "DELETE FROM accounts WHERE id = $1",
];

/// Applies a change to accounts.
pub(crate) async fn apply(db: &impl Db, op: &AccountOp) -> Result<(), StoreError> {
    let (sql, args): (&str, &[_]) = match op {
        AccountOp::Create(a) => {
            let key = username_key(&a.username);
            let released = db
                .query_opt(
                    "SELECT 1 FROM released_names WHERE username_key = $1 AND until > $2",
                    args![&key, a.created_at],
                )
                .await?;
            if released.is_some() {
                return Err(StoreError::NameReserved);
            }
            db.execute(
                "INSERT INTO accounts (id, username, username_key, password_hash, created_at)
                 VALUES ($1, $2, $3, $4, $5)",
                args![&a.id, &a.username, &key, &a.password_hash, a.created_at],
            )
            .await?;
            return Ok(());
        }
        AccountOp::SetPassword { id, hash } => (
            "UPDATE accounts SET password_hash = $2 WHERE id = $1",
            args![id, hash],
        ),
        AccountOp::Delete { id, at } => {
            db.execute(
                "INSERT INTO released_names (username_key, until)
                 SELECT username_key, $2 FROM accounts WHERE id = $1
                 ON CONFLICT (username_key) DO UPDATE SET until = excluded.until",
                args![id, at + NAME_RESERVED_MS],
            )
            .await?;
            for sql in DELETE {
                db.execute(sql, args![id]).await?;
            }
            return Ok(());
        }
        AccountOp::CreateSession(s) => (
            "INSERT INTO sessions (token_hash, account_id, csrf, created_at, expires_at)
             VALUES ($1, $2, $3, $4, $5)",
            args![
                &s.token_hash,
                &s.account_id,
                &s.csrf,
                s.created_at,
                s.expires_at
            ],
        ),
        AccountOp::EndSession { token_hash } => (
            "DELETE FROM sessions WHERE token_hash = $1",
            args![token_hash],
        ),
        AccountOp::EndOtherSessions { account_id, keep } => (
            "DELETE FROM sessions WHERE account_id = $1 AND token_hash IS DISTINCT FROM $2",
            args![account_id, keep],
        ),
        AccountOp::LinkGame {
            account_id,
            game_id,
        } => (
            "INSERT INTO account_games (account_id, game_id)
             SELECT $1, $2 WHERE EXISTS (SELECT 1 FROM accounts WHERE id = $1)
             ON CONFLICT DO NOTHING",
            args![account_id, game_id],
        ),
        AccountOp::Rate(game) => return rate_game(db, game).await,
        AccountOp::Follow {
            follower,
            followed,
            on: true,
            at,
        } => (
            "INSERT INTO follows (follower, followed, at) VALUES ($1, $2, $3)
             ON CONFLICT DO NOTHING",
            args![follower, followed, *at],
        ),
        AccountOp::Follow {
            follower, followed, ..
        } => (
            "DELETE FROM follows WHERE follower = $1 AND followed = $2",
            args![follower, followed],
        ),
        AccountOp::Block {
            blocker,
            blocked,
            on: true,
            at,
        } => (
            "INSERT INTO blocks (blocker, blocked, at) VALUES ($1, $2, $3)
             ON CONFLICT DO NOTHING",
            args![blocker, blocked, *at],
        ),
        AccountOp::Block {
            blocker, blocked, ..
        } => (
            "DELETE FROM blocks WHERE blocker = $1 AND blocked = $2",
            args![blocker, blocked],
        ),
        AccountOp::Report(r) => (
            "INSERT INTO reports
             (id, reporter, reported, reported_name, game_id, reason, details, at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            args![
                &r.id,
                &r.reporter,
                &r.reported,
                &r.reported_name,
                &r.game_id,
                &r.reason,
                &r.details,
                r.at
            ],
        ),
        AccountOp::CloseReport { id, resolution, at } => (
            "UPDATE reports SET closed_at = $3, resolution = $2
             WHERE id = $1 AND closed_at IS NULL",
            args![id, resolution, *at],
        ),
        AccountOp::Close { id, reason, at } => {
            db.execute(
                "INSERT INTO closed_accounts (account_id, reason, at) VALUES ($1, $2, $3)
                 ON CONFLICT DO NOTHING",
                args![id, reason, *at],
            )
            .await?;
            ("DELETE FROM sessions WHERE account_id = $1", args![id])
        }
    };
    db.execute(sql, args).await?;
    Ok(())
}

fn rating(r: &SqlRow, at: usize) -> Result<Rating, StoreError> {
    Ok(Rating {
        rating: r.get(at)?,
        deviation: r.get(at + 1)?,
        volatility: r.get(at + 2)?,
        games: r.get(at + 3)?,
    })
}

async fn rating_of(
    db: &impl Db,
    account: &str,
    class: RatingClass,
    lock: &str,
) -> Result<Rating, StoreError> {
    let sql = format!(
        "SELECT rating, deviation, volatility, games FROM ratings
         WHERE account_id = $1 AND class = $2{lock}"
    );
    match db.query_opt(&sql, args![account, class.as_str()]).await? {
        Some(r) => rating(&r, 0),
        None => Ok(Rating::default()),
    }
}

/// Rates a finished game once: a game already in the players' history is
/// left alone (a write repeated after a crash changes nothing). Several
/// nodes may end games of the same players at once, so both rating rows
/// are made if missing and locked (in account order, so that two
/// transactions cannot wait on each other) before they are read.
async fn rate_game(db: &impl Db, g: &RatedGame) -> Result<(), StoreError> {
    let [south, north] = &g.accounts;
    let mut order = [south, north];
    order.sort();
    let start = Rating::default();
    for account in order {
        db.execute(
            "INSERT INTO ratings (account_id, class, rating, deviation, volatility, games)
             VALUES ($1, $2, $3, $4, $5, 0) ON CONFLICT DO NOTHING",
            args![
                account,
                g.class.as_str(),
                start.rating,
                start.deviation,
                start.volatility
            ],
        )
        .await?;
        rating_of(db, account, g.class, db.dialect().for_update).await?;
    }
    let done: i64 = db
        .query_one(
            "SELECT COUNT(*) FROM rating_history WHERE game_id = $1",
            args![&g.game_id],
        )
        .await?
        .get(0)?;
    if done > 0 {
        return Ok(());
    }
    let (s, n) = rate(
        rating_of(db, south, g.class, "").await?,
        rating_of(db, north, g.class, "").await?,
        Score::for_south(g.winner),
    );
    for (account, r) in [(south, s), (north, n)] {
        db.execute(
            "UPDATE ratings SET rating = $3, deviation = $4, volatility = $5, games = $6
             WHERE account_id = $1 AND class = $2",
            args![
                account,
                g.class.as_str(),
                r.rating,
                r.deviation,
                r.volatility,
                r.games
            ],
        )
        .await?;
        db.execute(
            "INSERT INTO rating_history (account_id, class, game_id, rating, deviation, at)
             VALUES ($1, $2, $3, $4, $5, $6)",
            args![
                account,
                g.class.as_str(),
                &g.game_id,
                r.rating,
                r.deviation,
                g.at
            ],
        )
        .await?;
    }
    Ok(())
}

fn account_row(r: &SqlRow, at: usize) -> Result<AccountRow, StoreError> {
    Ok(AccountRow {
        id: r.get(at)?,
        username: r.get(at + 1)?,
        password_hash: r.get(at + 2)?,
        created_at: r.get(at + 3)?,
    })
}

pub(crate) async fn account_by_name(
    db: &impl Db,
    name: &str,
) -> Result<Option<AccountRow>, StoreError> {
    db.query_opt(
        "SELECT id, username, password_hash, created_at FROM accounts WHERE username_key = $1",
        args![&username_key(name)],
    )
    .await?
    .map(|r| account_row(&r, 0))
    .transpose()
}

pub(crate) async fn session(
    db: &impl Db,
    token_hash: &[u8],
) -> Result<Option<(SessionRow, AccountRow)>, StoreError> {
    let Some(r) = db
        .query_opt(
            "SELECT s.account_id, s.csrf, s.created_at, s.expires_at,
                    a.id, a.username, a.password_hash, a.created_at
             FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE s.token_hash = $1",
            args![token_hash],
        )
        .await?
    else {
        return Ok(None);
    };
    let session = SessionRow {
        token_hash: token_hash.to_vec(),
        account_id: r.get(0)?,
        csrf: r.get(1)?,
        created_at: r.get(2)?,
        expires_at: r.get(3)?,
    };
    Ok(Some((session, account_row(&r, 4)?)))
}

pub(crate) async fn ratings(db: &impl Db, account: &str) -> Result<Vec<RatingRow>, StoreError> {
    let mut out = Vec::new();
    for class in RatingClass::ALL {
        out.push(RatingRow {
            account_id: account.to_string(),
            class,
            rating: rating_of(db, account, class, "").await?,
        });
    }
    Ok(out)
}

pub(crate) async fn history(db: &impl Db, account: &str) -> Result<Vec<HistoryPoint>, StoreError> {
    db.query(
        "SELECT class, game_id, rating, deviation, at FROM rating_history
         WHERE account_id = $1 ORDER BY at, game_id",
        args![account],
    )
    .await?
    .iter()
    .map(|r| {
        Ok(HistoryPoint {
            class: RatingClass::parse(&r.get::<String>(0)?).unwrap_or(RatingClass::Slow),
            game_id: r.get(1)?,
            rating: r.get(2)?,
            deviation: r.get(3)?,
            at: r.get(4)?,
        })
    })
    .collect()
}

/// Established ratings first; provisional ones after them when asked.
pub(crate) async fn leaderboard(
    db: &impl Db,
    class: RatingClass,
    limit: u32,
    provisional: bool,
) -> Result<Vec<(String, Rating)>, StoreError> {
    db.query(
        "SELECT a.username, r.rating, r.deviation, r.volatility, r.games
         FROM ratings r JOIN accounts a ON a.id = r.account_id
         WHERE r.class = $1 AND (r.deviation <= $2 OR $4)
         ORDER BY (r.deviation > $2), r.rating DESC, a.username_key LIMIT $3",
        args![
            class.as_str(),
            Rating::PROVISIONAL_DEVIATION,
            limit,
            provisional
        ],
    )
    .await?
    .iter()
    .map(|r| Ok((r.get(0)?, rating(r, 1)?)))
    .collect()
}

/// The ids of an account's games: ongoing first, then the newest.
pub(crate) async fn game_ids(
    db: &impl Db,
    account: &str,
    limit: u32,
) -> Result<Vec<String>, StoreError> {
    db.column(
        "SELECT g.id FROM account_games ag JOIN games g ON g.id = ag.game_id
         WHERE ag.account_id = $1 AND g.status <> 'cancelled'
         ORDER BY (g.status = 'over'), g.updated_at DESC LIMIT $2",
        args![account, limit],
    )
    .await
}

pub(crate) async fn relations(db: &impl Db, account: &str) -> Result<Relations, StoreError> {
    Ok(Relations {
        following: db
            .column(
                "SELECT a.username FROM follows f JOIN accounts a ON a.id = f.followed
                 WHERE f.follower = $1 ORDER BY a.username_key",
                args![account],
            )
            .await?,
        blocked: db
            .column(
                "SELECT a.username FROM blocks b JOIN accounts a ON a.id = b.blocked
                 WHERE b.blocker = $1 ORDER BY a.username_key",
                args![account],
            )
            .await?,
    })
}

pub(crate) async fn blocked_between(db: &impl Db, a: &str, b: &str) -> Result<bool, StoreError> {
    Ok(db
        .query_opt(
            "SELECT 1 FROM blocks
             WHERE (blocker = $1 AND blocked = $2) OR (blocker = $2 AND blocked = $1)",
            args![a, b],
        )
        .await?
        .is_some())
}

pub(crate) async fn reports(
    db: &impl Db,
    filter: &ReportFilter,
) -> Result<Vec<ReportRow>, StoreError> {
    let (clause, args): (_, &[Value]) = match filter {
        ReportFilter::Open => ("WHERE r.closed_at IS NULL", &[]),
        ReportFilter::All => ("", &[]),
        ReportFilter::FiledBy(a) => ("WHERE r.reporter = $1", args![a]),
    };
    let sql = format!(
        "SELECT r.id, r.reporter, r.reported, r.reported_name, r.game_id, r.reason, r.details,
                r.at, r.closed_at, r.resolution, a.username, c.account_id IS NOT NULL
         FROM reports r LEFT JOIN accounts a ON a.id = r.reporter
         LEFT JOIN closed_accounts c ON c.account_id = r.reported
         {clause} ORDER BY r.at DESC, r.id"
    );
    db.query(&sql, args)
        .await?
        .iter()
        .map(|r| {
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
        })
        .collect()
}

pub(crate) async fn reports_by(
    db: &impl Db,
    reporter: &str,
    since: i64,
) -> Result<u32, StoreError> {
    db.query_one(
        "SELECT COUNT(*) FROM reports WHERE reporter = $1 AND at >= $2",
        args![reporter, since],
    )
    .await?
    .get(0)
}

pub(crate) async fn account_closed(db: &impl Db, account: &str) -> Result<bool, StoreError> {
    Ok(db
        .query_opt(
            "SELECT 1 FROM closed_accounts WHERE account_id = $1",
            args![account],
        )
        .await?
        .is_some())
}
