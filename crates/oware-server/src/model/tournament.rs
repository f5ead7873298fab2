//! Tournaments: where one stands, an entrant's state, and a tournament
//! as an account's export lists it. (Pairings and standings are
//! `oware_tournament`'s; how they are stored is `store/tournaments.rs`.)

use serde::{Deserialize, Serialize};

pub use crate::model::TournamentKind as Kind;
pub use oware_tournament::Outcome;

/// Where a tournament stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Taking entrants; starts at `starts_at`.
    Created,
    /// Being played.
    Running,
    /// Over: the standings are final.
    Finished,
    /// Called off (too few players at the start).
    Cancelled,
}

impl Status {
    /// As stored.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Created => "created",
            Status::Running => "running",
            Status::Finished => "finished",
            Status::Cancelled => "cancelled",
        }
    }

    /// From the stored text.
    pub fn parse(s: &str) -> Option<Status> {
        match s {
            "created" => Some(Status::Created),
            "running" => Some(Status::Running),
            "finished" => Some(Status::Finished),
            "cancelled" => Some(Status::Cancelled),
            _ => None,
        }
    }

    /// Still to be played (a node looks after it).
    pub fn is_open(self) -> bool {
        matches!(self, Status::Created | Status::Running)
    }
}

/// An entrant's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntrantState {
    /// Paired when their turn comes.
    Active,
    /// Arena: not paired until they come back.
    Paused,
    /// Gone for good (Swiss: withdrawn); keeps their results.
    Left,
}

impl EntrantState {
    /// As stored.
    pub fn as_str(self) -> &'static str {
        match self {
            EntrantState::Active => "active",
            EntrantState::Paused => "paused",
            EntrantState::Left => "left",
        }
    }

    /// From the stored text.
    pub fn parse(s: &str) -> Option<EntrantState> {
        match s {
            "active" => Some(EntrantState::Active),
            "paused" => Some(EntrantState::Paused),
            "left" => Some(EntrantState::Left),
            _ => None,
        }
    }
}

/// A tournament an account entered, as its data export lists it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Entered {
    /// The tournament's id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Arena or Swiss.
    pub kind: Kind,
    /// Where it stands.
    pub status: Status,
    /// When it starts, ms since the epoch.
    pub starts_at: i64,
    /// The account's state in it.
    pub state: EntrantState,
}
