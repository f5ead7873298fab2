//! Tournaments as stored: the row types both stores read and write, and
//! the writes ([`TournamentOp`]). The pairings and standings are
//! `oware_tournament`'s; what runs a tournament is `hub/tournaments.rs`.
//!
//! Three tables: `tournaments` (one row each, with a version checked by
//! every change that pairs, starts or ends it, and a claim like a game's
//! deadline), `tournament_players` (the entrants, numbered from 0 in the
//! order they joined) and `tournament_games` (each pairing: a game of the
//! `games` table, or a bye, with its outcome once known).

use serde::{Deserialize, Serialize};

use crate::model::TimeControl;
pub use oware_tournament::Outcome;

pub use crate::model::TournamentKind as Kind;

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

/// One tournament's row.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentRow {
    /// Its id (as game ids are made).
    pub id: String,
    /// Arena or Swiss.
    pub kind: Kind,
    /// Its name, as its creator wrote it (or the schedule's).
    pub name: String,
    /// The account that created it; `None` when the server's schedule did.
    pub creator: Option<String>,
    /// Every game's clock.
    pub time_control: TimeControl,
    /// Whether its games are rated.
    pub rated: bool,
    /// Where it stands.
    pub status: Status,
    /// When it starts, ms since the epoch.
    pub starts_at: i64,
    /// Arena: when it ends (no pairing after); Swiss: when it ended.
    pub ends_at: Option<i64>,
    /// Swiss: the number of rounds (0 for an arena).
    pub rounds: u32,
    /// Swiss: the round being played, or last played (0 before the first).
    pub round: u32,
    /// Swiss: when the next round is to be paired, once this one is over.
    pub next_at: Option<i64>,
    /// Changes stored so far (0 when created): a change made from an older
    /// copy is refused, so two nodes never pair the same round twice.
    pub version: u64,
    /// When it was created, ms since the epoch.
    pub created_at: i64,
    /// For a tournament of the server's schedule: the slot it fills (e.g.
    /// `hourly-arena@2026-12-02T05:00`), unique, so that two nodes
    /// creating the same slot make one tournament.
    pub schedule_key: Option<String>,
}

/// An entrant.
#[derive(Clone, Debug, PartialEq)]
pub struct EntrantRow {
    /// Their number in this tournament, from 0, in the order they joined.
    pub idx: u32,
    /// Their account.
    pub account_id: String,
    /// Their username (when they joined).
    pub username: String,
    /// Their rating in the tournament's class when they joined.
    pub rating: i32,
    /// Active, paused or left.
    pub state: EntrantState,
    /// When they joined, ms since the epoch.
    pub joined_at: i64,
    /// When their tournament page last said they are there (arena pairs
    /// only players who are), ms since the epoch.
    pub seen_at: i64,
}

/// A pairing: a game, or a bye (`north` is `None`).
#[derive(Clone, Debug, PartialEq)]
pub struct PairingRow {
    /// The game's id (in `games`); a bye's id is made up, `bye-…`.
    pub game_id: String,
    /// Swiss: the round (from 1); arena: 0.
    pub round: u32,
    /// The entrant playing South (or given the bye).
    pub south: u32,
    /// The entrant playing North; `None` for a bye.
    pub north: Option<u32>,
    /// How it ended, once it did (a bye has none).
    pub outcome: Option<Outcome>,
    /// When it was paired, ms since the epoch.
    pub at: i64,
}

/// A tournament with its entrants and pairings.
#[derive(Clone, Debug, PartialEq)]
pub struct Tournament {
    /// Its row.
    pub row: TournamentRow,
    /// The entrants, by number.
    pub entrants: Vec<EntrantRow>,
    /// The pairings, in the order they were made.
    pub pairings: Vec<PairingRow>,
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

impl Entered {
    /// From the stored text columns (both stores).
    pub(crate) fn parse(
        id: String,
        name: String,
        kind: &str,
        status: &str,
        starts_at: i64,
        state: &str,
    ) -> Result<Entered, super::StoreError> {
        Ok(Entered {
            kind: Kind::parse(kind).ok_or_else(|| corrupt(&id, "kind"))?,
            status: Status::parse(status).ok_or_else(|| corrupt(&id, "status"))?,
            state: EntrantState::parse(state).ok_or_else(|| corrupt(&id, "entrant state"))?,
            id,
            name,
            starts_at,
        })
    }
}

/// A tournament in a list: its row and how many joined.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentSummary {
    /// Its row.
    pub row: TournamentRow,
    /// Entrants (any state).
    pub entrants: u32,
}

/// A change to tournaments (inside [`super::WriteOp::Tournament`]).
#[derive(Clone, Debug)]
pub enum TournamentOp {
    /// A new tournament, at version 0. With a `schedule_key` already used,
    /// nothing is written (the other node's tournament stands).
    Create(TournamentRow),
    /// The tournament is at version `expected`: its row becomes `row` (at
    /// `expected + 1`). Refused with `StoreError::Stale` otherwise. Put
    /// first in a `WriteOp::All` with the pairings it guards.
    Update {
        /// The new row (its `version` field is ignored).
        row: TournamentRow,
        /// The version the change was made from.
        expected: u64,
    },
    /// Checks, inside the transaction that creates a player's tournament,
    /// that `creator` has fewer than `per_creator` open tournaments and
    /// that players have fewer than `open` open tournaments in all;
    /// refused with `StoreError::Full` otherwise. Put before the `Create`
    /// in one `WriteOp::All`: the check and the creation are one step
    /// (PostgreSQL takes a transaction lock for it), so concurrent
    /// creations cannot all pass it.
    Caps {
        /// The creating account.
        creator: String,
        /// Open tournaments one account may have created.
        per_creator: u32,
        /// Open tournaments players may have created, all together.
        open: u32,
    },
    /// An account joins (or, having left or paused, comes back as
    /// active); a new entrant takes the next number.
    Join {
        /// The tournament.
        tournament_id: String,
        /// Who.
        account_id: String,
        /// Their username.
        username: String,
        /// Their rating in the tournament's class.
        rating: i32,
        /// When, ms since the epoch.
        at: i64,
    },
    /// An entrant pauses, comes back or leaves.
    State {
        /// The tournament.
        tournament_id: String,
        /// Who.
        account_id: String,
        /// Their new state.
        state: EntrantState,
    },
    /// These entrants have the tournament's page open, at `at`.
    Seen {
        /// The tournament.
        tournament_id: String,
        /// Who.
        account_ids: Vec<String>,
        /// When, ms since the epoch.
        at: i64,
    },
    /// A pairing made.
    Pair {
        /// The tournament.
        tournament_id: String,
        /// The pairing.
        pairing: PairingRow,
    },
    /// A pairing's game ended.
    Outcome {
        /// The tournament.
        tournament_id: String,
        /// The game.
        game_id: String,
        /// How.
        outcome: Outcome,
    },
}

/// What withdraws an account from the open tournaments `ids` (its
/// account is being deleted or closed): it is paired no more and keeps
/// its results; a game it has in play is resigned (deletion) or lost on
/// time. Written before the account goes, in one transaction, so no round
/// is ever paired with an account that no longer exists.
pub fn withdrawals(ids: Vec<String>, account_id: &str) -> Vec<super::WriteOp> {
    ids.into_iter()
        .map(|tournament_id| {
            super::WriteOp::Tournament(TournamentOp::State {
                tournament_id,
                account_id: account_id.to_string(),
                state: EntrantState::Left,
            })
        })
        .collect()
}

/// Tournaments (blocking reads).
pub trait TournamentStore: Send + Sync + 'static {
    /// One tournament, whole.
    fn tournament(&self, id: &str) -> Result<Option<Tournament>, super::StoreError>;
    /// The tournaments to show: those still open (running first, then by
    /// start), then the `finished` latest finished or cancelled ones.
    fn tournaments(&self, finished: u32) -> Result<Vec<TournamentSummary>, super::StoreError>;
    /// Claims up to `limit` of the tournaments that need a look (running,
    /// or due to start) that no node claimed in the last `lease_ms`, each
    /// for `lease_ms` (PostgreSQL: `FOR UPDATE SKIP LOCKED`, so two nodes
    /// never claim the same one at once). Fair: tournaments due to start
    /// first, then the site's own, then the one looked at longest ago, so
    /// no number of open tournaments keeps any of them waiting for more
    /// than a few ticks (issue 33, finding 2: ordered by start time, the
    /// same 20 long arenas were claimed again every lease while a later
    /// one never started).
    fn claim_tournaments(
        &self,
        now: i64,
        lease: super::Lease,
        limit: u32,
    ) -> Result<Vec<String>, super::StoreError>;
    /// Every tournament an account has entered, and its state in each
    /// (its data export).
    fn tournaments_entered(&self, account_id: &str) -> Result<Vec<Entered>, super::StoreError>;
    /// The open tournaments an account has joined and not left.
    fn tournaments_of(&self, account_id: &str) -> Result<Vec<String>, super::StoreError>;
    /// The blocks between two entrants of a tournament: (blocker,
    /// blocked) account ids. Such players are never paired together.
    fn tournament_blocks(&self, id: &str) -> Result<Vec<(String, String)>, super::StoreError>;
}

/// A row as read, before its text columns are parsed (both stores).
pub(crate) struct RawRow {
    pub id: String,
    pub kind: String,
    pub name: String,
    pub creator: Option<String>,
    pub time_control: String,
    pub rated: bool,
    pub status: String,
    pub starts_at: i64,
    pub ends_at: Option<i64>,
    pub rounds: i64,
    pub round: i64,
    pub next_at: Option<i64>,
    pub version: i64,
    pub created_at: i64,
    pub schedule_key: Option<String>,
}

impl RawRow {
    pub(crate) fn parse(self) -> Result<TournamentRow, super::StoreError> {
        let id = self.id;
        Ok(TournamentRow {
            kind: Kind::parse(&self.kind).ok_or_else(|| corrupt(&id, "kind"))?,
            status: Status::parse(&self.status).ok_or_else(|| corrupt(&id, "status"))?,
            time_control: serde_json::from_str(&self.time_control)
                .map_err(|_| corrupt(&id, "time control"))?,
            name: self.name,
            creator: self.creator,
            rated: self.rated,
            starts_at: self.starts_at,
            ends_at: self.ends_at,
            rounds: self.rounds.max(0) as u32,
            round: self.round.max(0) as u32,
            next_at: self.next_at,
            version: self.version.max(0) as u64,
            created_at: self.created_at,
            schedule_key: self.schedule_key,
            id,
        })
    }
}

/// The stored text of an outcome.
pub(crate) fn outcome_str(o: Outcome) -> &'static str {
    match o {
        Outcome::SouthWon => "south_won",
        Outcome::NorthWon => "north_won",
        Outcome::Draw => "draw",
        Outcome::Void => "void",
    }
}

/// An outcome from its stored text.
pub(crate) fn parse_outcome(s: &str) -> Option<Outcome> {
    match s {
        "south_won" => Some(Outcome::SouthWon),
        "north_won" => Some(Outcome::NorthWon),
        "draw" => Some(Outcome::Draw),
        "void" => Some(Outcome::Void),
        _ => None,
    }
}

pub(crate) fn tc_json(row: &TournamentRow) -> String {
    serde_json::to_string(&row.time_control).unwrap_or_default()
}

fn corrupt(id: &str, what: &str) -> super::StoreError {
    super::StoreError::Corrupt {
        id: id.to_string(),
        message: format!("tournament: {what}"),
    }
}
