//! The SQLite side of chat: schema version 4, and the messages' writes and reads.

use rusqlite::{params, Connection};

use super::StoreError;
use crate::store::chat::{side_code, side_from_code, ChatMessage, Room};
use crate::store::ChatPage;

/// Schema version 4: chat messages, kept with their game.
pub(super) const MIGRATION: &str = "
CREATE TABLE chat (
    id INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL,
    room TEXT NOT NULL,
    side TEXT,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    at INTEGER NOT NULL
);
CREATE INDEX chat_game ON chat(game_id, id);
";

pub(super) fn insert(conn: &Connection, m: &ChatMessage) -> Result<(), rusqlite::Error> {
    conn.prepare_cached(
        "INSERT INTO chat (game_id, room, side, name, text, at, account)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![
        m.game_id,
        m.room.as_str(),
        m.side.map(side_code),
        m.name,
        m.text,
        m.at,
        m.account
    ])?;
    Ok(())
}

/// A page of a game's messages, oldest first (with the spectators' room
/// when `spectators`).
pub(super) fn history(
    conn: &Connection,
    game_id: &str,
    spectators: bool,
    page: ChatPage,
) -> Result<Vec<ChatMessage>, StoreError> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, room, side, name, text, at, account FROM chat
         WHERE game_id = ?1 AND (room = 'players' OR ?2) AND id < ?3
         ORDER BY id DESC LIMIT ?4",
    )?;
    let before = page.before.unwrap_or(i64::MAX);
    let rows = stmt.query_map(params![game_id, spectators, before, page.limit], |r| {
        let room: String = r.get(1)?;
        let side: Option<String> = r.get(2)?;
        Ok(ChatMessage {
            id: Some(r.get(0)?),
            game_id: game_id.to_string(),
            room: Room::from_stored(&room),
            side: side_from_code(side.as_deref()),
            name: r.get(3)?,
            text: r.get(4)?,
            at: r.get(5)?,
            account: r.get(6)?,
        })
    })?;
    let mut out: Vec<ChatMessage> = rows.collect::<Result<_, _>>()?;
    out.reverse();
    Ok(out)
}

/// Messages kept for a game in `room`.
pub(super) fn count(conn: &Connection, game_id: &str, room: Room) -> Result<u64, StoreError> {
    let n: i64 = conn
        .prepare_cached("SELECT COUNT(*) FROM chat WHERE game_id = ?1 AND room = ?2")?
        .query_row(params![game_id, room.as_str()], |r| r.get(0))?;
    Ok(n as u64)
}
