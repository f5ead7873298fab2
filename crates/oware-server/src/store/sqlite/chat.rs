//! The SQLite side of chat: schema version 4, and the messages' writes and reads.

use rusqlite::{params, Connection};

use super::StoreError;
use crate::hub::chat::{side_code, side_from_code, ChatMessage, Room};

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
        "INSERT INTO chat (game_id, room, side, name, text, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        m.game_id,
        m.room.as_str(),
        m.side.map(side_code),
        m.name,
        m.text,
        m.at
    ])?;
    Ok(())
}

/// A game's messages, oldest first (the spectators' room when `spectators`).
pub(super) fn history(
    conn: &Connection,
    game_id: &str,
    spectators: bool,
) -> Result<Vec<ChatMessage>, StoreError> {
    let mut stmt = conn.prepare_cached(
        "SELECT room, side, name, text, at FROM chat
         WHERE game_id = ?1 AND (room = 'players' OR ?2) ORDER BY id",
    )?;
    let rows = stmt.query_map(params![game_id, spectators], |r| {
        let room: String = r.get(0)?;
        let side: Option<String> = r.get(1)?;
        Ok(ChatMessage {
            game_id: game_id.to_string(),
            room: Room::from_stored(&room),
            side: side_from_code(side.as_deref()),
            name: r.get(2)?,
            text: r.get(3)?,
            at: r.get(4)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}
