//! A direct challenge from one player to another.

use serde::Serialize;

use crate::model::TimeControl;

/// Where a challenge stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeStatus {
    /// Waiting for an answer (until it expires).
    Open,
    /// Accepted: the game is created.
    Accepted,
    /// Declined by the player challenged.
    Declined,
    /// Withdrawn by the challenger.
    Cancelled,
    /// Not answered in time (never stored: an open one past its time).
    Expired,
}

impl ChallengeStatus {
    /// As stored.
    pub const fn as_str(self) -> &'static str {
        match self {
            ChallengeStatus::Open => "open",
            ChallengeStatus::Accepted => "accepted",
            ChallengeStatus::Declined => "declined",
            ChallengeStatus::Cancelled => "cancelled",
            ChallengeStatus::Expired => "expired",
        }
    }

    pub(crate) fn from_stored(text: &str) -> ChallengeStatus {
        match text {
            "accepted" => ChallengeStatus::Accepted,
            "declined" => ChallengeStatus::Declined,
            "cancelled" => ChallengeStatus::Cancelled,
            "expired" => ChallengeStatus::Expired,
            _ => ChallengeStatus::Open,
        }
    }
}

/// A challenge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Challenge {
    /// Its id.
    pub id: String,
    /// The challenger's account (never sent).
    #[serde(skip)]
    pub from_account: String,
    /// The challenger's name.
    pub from: String,
    /// The challenged player's account (never sent).
    #[serde(skip)]
    pub to_account: String,
    /// The challenged player's name.
    pub to: String,
    /// The game's time control (`None`: untimed).
    pub time_control: Option<TimeControl>,
    /// Rated.
    pub rated: bool,
    /// The challenger's side (`None`: drawn by lot on accepting).
    #[serde(serialize_with = "side_code")]
    pub side: Option<oware_core::Side>,
    /// Where it stands (an open one past `expires_at` reads as expired).
    pub status: ChallengeStatus,
    /// When it was made, ms since the epoch.
    #[serde(skip)]
    pub created_at: i64,
    /// When it lapses unanswered, ms since the epoch (sent as RFC 3339).
    #[serde(serialize_with = "date")]
    pub expires_at: i64,
    /// The game, once accepted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
}

fn date<S: serde::Serializer>(ms: &i64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&crate::model::rfc3339(*ms))
}

fn side_code<S: serde::Serializer>(
    side: &Option<oware_core::Side>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match side {
        Some(side) => s.serialize_str(super::chat::side_code(*side)),
        None => s.serialize_none(),
    }
}
