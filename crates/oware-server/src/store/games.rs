//! Games in SQL, once for both stores: every [`WriteOp`] (each area's to
//! its module), a game's rows, listings, deadlines and seeks (`sql.rs`
//! says how).

use super::sql::{args, Db};
use super::{
    meta_json, parse_meta, Due, Lease, Listing, StoreError, StoredGame, StoredPly, WriteOp,
};
use crate::model::{GameMeta, GameStatus};

/// Applies a write; a [`WriteOp::All`] stops at its first failure.
pub(crate) async fn apply(db: &impl Db, op: &WriteOp) -> Result<(), StoreError> {
    match op {
        WriteOp::Create { meta, plies, due } => {
            upsert_meta(db, meta).await?;
            for (i, p) in plies.iter().enumerate() {
                insert_ply(db, &meta.id, i as u32, p).await?;
            }
            set_due(db, &meta.id, None, *due).await?;
        }
        WriteOp::Ply {
            id,
            meta,
            index,
            ply,
        } => {
            insert_ply(db, id, *index, ply).await?;
            if let Some(meta) = meta {
                upsert_meta(db, meta).await?;
            }
        }
        WriteOp::Truncate { meta, from } => {
            db.execute(
                "DELETE FROM plies WHERE game_id = $1 AND ply >= $2",
                args![&meta.id, *from],
            )
            .await?;
            upsert_meta(db, meta).await?;
        }
        WriteOp::Meta(meta) => upsert_meta(db, meta).await?,
        WriteOp::Version { id, expected, due } => set_due(db, id, *expected, *due).await?,
        WriteOp::Account(op) => super::accounts::apply(db, op).await?,
        WriteOp::Seen { ids, at } => {
            db.execute(db.dialect().seen, args![ids.as_slice(), *at])
                .await?;
        }
        WriteOp::Chat(m) => super::chat::insert(db, m).await?,
        WriteOp::PuzzleAttempt(a) => super::puzzles::attempt(db, a).await?,
        WriteOp::Tournament(t) => super::tournaments::apply(db, t).await?,
        WriteOp::Notification(n) => super::notifications::apply(db, n).await?,
        WriteOp::Challenge(c) => super::challenges::apply(db, c).await?,
        WriteOp::Mail(m) => super::mail::apply(db, m).await?,
        WriteOp::Notify(payload) => db.notify(payload).await?,
        WriteOp::All(ops) => {
            for op in ops {
                Box::pin(apply(db, op)).await?;
            }
        }
    }
    Ok(())
}

async fn upsert_meta(db: &impl Db, meta: &GameMeta) -> Result<(), StoreError> {
    let json = meta_json(meta)?;
    let status = meta.status();
    let lobby = meta.public && status == GameStatus::Waiting;
    db.execute(
        "INSERT INTO games (id, created_at, updated_at, status, lobby, public, meta, seen_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $2)
         ON CONFLICT (id) DO UPDATE SET updated_at = excluded.updated_at,
         status = excluded.status, lobby = excluded.lobby, public = excluded.public,
         meta = excluded.meta",
        args![
            &meta.id,
            meta.created_at,
            meta.updated_at,
            status.as_str(),
            lobby,
            meta.public,
            &json
        ],
    )
    .await?;
    Ok(())
}

async fn insert_ply(db: &impl Db, id: &str, index: u32, ply: &StoredPly) -> Result<(), StoreError> {
    db.execute(
        "INSERT INTO plies (game_id, ply, mv, clock_s, clock_n, at) VALUES ($1, $2, $3, $4, $5, $6)",
        args![
            id,
            index,
            &ply.text,
            ply.clock.map(|c| c[0] as i64),
            ply.clock.map(|c| c[1] as i64),
            ply.at
        ],
    )
    .await?;
    Ok(())
}

/// Sets a game's deadlines; with `expected`, also checks that the game is
/// at that version and moves it to the next one.
async fn set_due(
    db: &impl Db,
    id: &str,
    expected: Option<u64>,
    due: Due,
) -> Result<(), StoreError> {
    let d = db.dialect();
    match expected {
        Some(v) => {
            let changed = db
                .execute(d.next_version, args![id, v as i64, due.clock, due.at])
                .await?;
            if changed == 0 {
                return Err(StoreError::Stale {
                    id: id.to_string(),
                    expected: v,
                });
            }
        }
        None => {
            db.execute(d.set_due, args![id, due.clock, due.at]).await?;
        }
    }
    Ok(())
}

/// One game, with its plies.
pub(crate) async fn load(db: &impl Db, id: &str) -> Result<Option<StoredGame>, StoreError> {
    let Some(row) = db.query_opt(db.dialect().load, args![id]).await? else {
        return Ok(None);
    };
    let meta = parse_meta(id, &row.get::<String>(0)?)?;
    let mut plies = Vec::new();
    for r in db
        .query(
            "SELECT mv, clock_s, clock_n, at FROM plies WHERE game_id = $1 ORDER BY ply",
            args![id],
        )
        .await?
    {
        let (s, n): (Option<u64>, Option<u64>) = (r.get(1)?, r.get(2)?);
        plies.push(StoredPly {
            text: r.get(0)?,
            clock: s.zip(n).map(|(s, n)| [s, n]),
            at: r.get(3)?,
        });
    }
    Ok(Some(StoredGame {
        meta,
        plies,
        version: row.get(1)?,
        due: Due {
            clock: row.get(2)?,
            at: row.get(3)?,
        },
    }))
}

/// A game's version, if it exists.
pub(crate) async fn version(db: &impl Db, id: &str) -> Result<Option<u64>, StoreError> {
    match db.query_opt(db.dialect().version, args![id]).await? {
        Some(r) => Ok(Some(r.get(0)?)),
        None => Ok(None),
    }
}

/// A page of a listing, and the listing's length.
pub(crate) async fn list(
    db: &impl Db,
    which: Listing,
    limit: u32,
    offset: u32,
) -> Result<(Vec<StoredGame>, u64), StoreError> {
    let (total, ids): (u64, Vec<String>) = match which {
        Listing::Public | Listing::Lobby => {
            let filter = match which {
                Listing::Lobby => "lobby = true",
                _ => "public = true AND status = 'over'",
            };
            let count = format!("SELECT COUNT(*) FROM games WHERE {filter}");
            let list = format!(
                "SELECT id FROM games WHERE {filter} ORDER BY created_at DESC, id LIMIT $1 OFFSET $2"
            );
            (
                db.query_one(&count, &[]).await?.get(0)?,
                db.column(&list, args![limit, offset]).await?,
            )
        }
        Listing::Playing { since } => {
            // A plain move stores only its ply: a game's last change is the
            // newer of its row and its last ply.
            let last = format!(
                "{}(updated_at, coalesce((SELECT max(at) FROM plies p WHERE p.game_id = g.id), 0))",
                db.dialect().greatest
            );
            let playing = "FROM games g WHERE public = true AND status = 'playing'";
            let count = format!("SELECT COUNT(*) {playing} AND {last} >= $1");
            let list = format!(
                "SELECT id FROM (SELECT id, {last} AS last {playing}) t WHERE last >= $1
                 ORDER BY last DESC, id LIMIT $2 OFFSET $3"
            );
            (
                db.query_one(&count, args![since]).await?.get(0)?,
                db.column(&list, args![since, limit, offset]).await?,
            )
        }
    };
    let mut games = Vec::with_capacity(ids.len());
    for id in ids {
        games.extend(load(db, &id).await?);
    }
    Ok((games, total))
}

/// Claims due games no node holds.
pub(crate) async fn claim_due(
    db: &impl Db,
    now: i64,
    lease: Lease,
    limit: u32,
) -> Result<Vec<String>, StoreError> {
    db.column(
        db.dialect().claim_due,
        args![now, lease.now + lease.ms, limit, lease.now],
    )
    .await
}

/// Seeks whose creator was last seen before `seen_before` or made before
/// `created_before`.
pub(crate) async fn stale_seeks(
    db: &impl Db,
    seen_before: i64,
    created_before: i64,
    limit: u32,
) -> Result<Vec<String>, StoreError> {
    db.column(
        "SELECT id FROM games WHERE lobby = true
         AND (coalesce(seen_at, 0) < $1 OR created_at < $2) LIMIT $3",
        args![seen_before, created_before, limit],
    )
    .await
}

/// Rewrites the metadata that older versions stored with plain seat tokens
/// and invite codes (its fields `"invite"` and `"token"`) with their hashes
/// (a step of both stores' migrations).
pub(crate) async fn rehash_secrets(db: &impl Db) -> Result<(), StoreError> {
    let rows = db
        .query(
            "SELECT id, meta FROM games WHERE meta LIKE '%\"invite\":%'",
            &[],
        )
        .await?;
    for r in &rows {
        let id: String = r.get(0)?;
        let meta = parse_meta(&id, &r.get::<String>(1)?)?;
        db.execute(
            "UPDATE games SET meta = $1 WHERE id = $2",
            args![&meta_json(&meta)?, &id],
        )
        .await?;
    }
    if !rows.is_empty() {
        tracing::info!(
            "hashed the seat tokens and invite codes of {} games",
            rows.len()
        );
    }
    Ok(())
}
