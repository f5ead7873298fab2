//! Chat messages as stored: the row type, the codes of its room and seat,
//! and its SQL for both stores. (The chat's rules are in `hub/chat.rs`.)

use oware_core::Side;
use serde::{Deserialize, Serialize};

use super::sql::{args, Db};
use super::{ChatPage, StoreError};

/// Who reads a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Room {
    /// Written by the players; read by everyone watching.
    Players,
    /// Written and read by spectators only.
    Spectators,
}

impl Room {
    /// The room as stored.
    pub const fn as_str(self) -> &'static str {
        match self {
            Room::Players => "players",
            Room::Spectators => "spectators",
        }
    }

    /// A stored room (anything but `players` reads as the spectators').
    pub fn from_stored(text: &str) -> Room {
        if text == "players" {
            Room::Players
        } else {
            Room::Spectators
        }
    }
}

/// A writer's seat as stored: `S` or `N`.
pub fn side_code(side: Side) -> &'static str {
    match side {
        Side::South => "S",
        Side::North => "N",
    }
}

/// A stored seat code, read back.
pub fn side_from_code(code: Option<&str>) -> Option<Side> {
    match code {
        Some("S") => Some(Side::South),
        Some("N") => Some(Side::North),
        _ => None,
    }
}

/// A chat message as stored and sent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChatMessage {
    /// Its number, once stored (sent with the history, for paging back).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<i64>,
    /// The game.
    #[serde(skip)]
    pub game_id: String,
    /// Its room.
    pub room: Room,
    /// The writer's seat (players' room).
    pub side: Option<Side>,
    /// The writer's name.
    pub name: String,
    /// The writer's account, when signed in (never sent: a block between
    /// the writer and a reader hides the message from that reader).
    #[serde(skip)]
    pub account: Option<String>,
    /// The text, as written (clients show it as text).
    pub text: String,
    /// When, ms since the epoch (sent as an RFC 3339 date).
    #[serde(serialize_with = "date")]
    pub at: i64,
}

fn date<S: serde::Serializer>(ms: &i64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&crate::model::rfc3339(*ms))
}

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
