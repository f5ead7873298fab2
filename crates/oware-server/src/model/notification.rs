//! A notification: what an account is told, and when.

use serde::{Deserialize, Serialize};

/// What a notification is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A game waits for the account's move.
    YourTurn,
    /// A challenge was received, accepted or declined (`detail` says which).
    Challenge,
    /// A tournament the account entered starts soon (`detail`: `soon`),
    /// is starting, or paired it for a Swiss round (`paired`, with the
    /// game).
    TournamentStarting,
    /// A followed player started a game.
    FollowedPlaying,
    /// The opponent of a finished game offers a rematch (`game`: the new
    /// game).
    Rematch,
    /// The opponent asks to take back a move (`game`).
    Takeback,
}

impl Kind {
    /// The kind as stored.
    pub const fn as_str(self) -> &'static str {
        match self {
            Kind::YourTurn => "your_turn",
            Kind::Challenge => "challenge",
            Kind::TournamentStarting => "tournament_starting",
            Kind::FollowedPlaying => "followed_playing",
            Kind::Rematch => "rematch",
            Kind::Takeback => "takeback",
        }
    }

    /// A stored kind, read back (`None` for one this program does not know).
    pub fn from_stored(text: &str) -> Option<Kind> {
        Some(match text {
            "your_turn" => Kind::YourTurn,
            "challenge" => Kind::Challenge,
            "tournament_starting" => Kind::TournamentStarting,
            "followed_playing" => Kind::FollowedPlaying,
            "rematch" => Kind::Rematch,
            "takeback" => Kind::Takeback,
            _ => return None,
        })
    }
}

/// One notification.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Notification {
    /// Its id.
    pub id: String,
    /// The account told (never sent).
    #[serde(skip)]
    pub account: String,
    /// What about.
    pub kind: Kind,
    /// When, ms since the epoch (sent as an RFC 3339 date).
    #[serde(serialize_with = "date")]
    pub at: i64,
    /// Seen.
    pub read: bool,
    /// The game, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// The player whose action it tells of, by name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// That player's account (never sent: a block between the two keeps
    /// the notification from being stored).
    #[serde(skip)]
    pub from_account: Option<String>,
    /// The tournament, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tournament: Option<String>,
    /// The challenge, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub challenge: Option<String>,
    /// A word more for its kind (a challenge's `received`, `accepted`,
    /// `declined`; its id).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

fn date<S: serde::Serializer>(ms: &i64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&crate::model::rfc3339(*ms))
}
