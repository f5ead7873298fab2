//! Chat messages as stored: the row type, the codes of its room and seat,
//! and its SQL for both stores. (The chat's rules are in `hub/chat.rs`.)

use super::sql::{args, Db};
use super::{ChatPage, StoreError};

pub use crate::model::chat::{side_code, side_from_code, ChatMessage, Room};

/// Stores a message.
pub(crate) async fn insert(db: &impl Db, m: &ChatMessage) -> Result<(), StoreError> {
    db.execute(
        "INSERT INTO chat (game_id, room, side, name, text, at, account)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
        args![
            &m.game_id,
            m.room.as_str(),
            m.side.map(side_code),
            &m.name,
            &m.text,
            m.at,
            &m.account
        ],
    )
    .await?;
    Ok(())
}

/// A page of a game's messages, oldest first (with the spectators' room
/// when `spectators`).
pub(crate) async fn history(
    db: &impl Db,
    game_id: &str,
    spectators: bool,
    page: ChatPage,
) -> Result<Vec<ChatMessage>, StoreError> {
    let rows = db
        .query(
            "SELECT id, room, side, name, text, at, account FROM chat
             WHERE game_id = $1 AND (room = 'players' OR $2) AND id < $3
             ORDER BY id DESC LIMIT $4",
            args![
                game_id,
                spectators,
                page.before.unwrap_or(i64::MAX),
                page.limit
            ],
        )
        .await?;
    rows.iter()
        .rev()
        .map(|r| {
            Ok(ChatMessage {
                id: Some(r.get(0)?),
                game_id: game_id.to_string(),
                room: Room::from_stored(&r.get::<String>(1)?),
                side: side_from_code(r.get::<Option<String>>(2)?.as_deref()),
                name: r.get(3)?,
                text: r.get(4)?,
                at: r.get(5)?,
                account: r.get(6)?,
            })
        })
        .collect()
}

/// Messages kept for a game in `room`.
pub(crate) async fn count(db: &impl Db, game_id: &str, room: Room) -> Result<u64, StoreError> {
    db.query_one(
        "SELECT COUNT(*) FROM chat WHERE game_id = $1 AND room = $2",
        args![game_id, room.as_str()],
    )
    .await?
    .get(0)
}
