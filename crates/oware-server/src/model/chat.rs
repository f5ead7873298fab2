//! A game's chat: its rooms and messages.

use oware_core::Side;
use serde::{Deserialize, Serialize};

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

/// Which messages of a game's chat to read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChatPage {
    /// Only messages older than this one (its `id`).
    pub before: Option<i64>,
    /// At most this many, the latest ones.
    pub limit: u32,
}
