//! Tournaments as stored: the row types, the writes ([`TournamentOp`]) and
//! their SQL for both stores. The pairings and standings are
//! `oware_tournament`'s; what runs a tournament is `hub/tournaments.rs`.
//!
//! Three tables: `tournaments` (one row each, with a version checked by
//! every change that pairs, starts or ends it, and a claim like a game's
//! deadline), `tournament_players` (the entrants, numbered from 0 in the
//! order they joined) and `tournament_games` (each pairing: a game of the
//! `games` table, or a bye, with its outcome once known).

use super::sql::{args, Db, SqlRow};
use super::{Lease, StoreError};
use crate::model::TimeControl;
pub use oware_tournament::Outcome;

pub use crate::model::TournamentKind as Kind;

pub use crate::model::tournament::{EntrantState, Status};

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

pub use crate::model::tournament::Entered;

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
    /// or due to start by `soon`: at `now`, or soon enough for its
    /// entrants to be reminded) that no node claimed in the last `lease_ms`, each
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
        soon: i64,
        lease: super::Lease,
        limit: u32,
    ) -> Result<Vec<String>, super::StoreError>;
    /// Gives back a tournament claimed with `lease` (its look is over), so
    /// the next tick of any node may look again, the claim keeping when
    /// that look began (claims go to the look longest ago first); a claim
    /// since taken by another node is left alone.
    fn release_tournament(&self, id: &str, lease: super::Lease) -> Result<(), super::StoreError>;
    /// Every tournament an account has entered, and its state in each
    /// (its data export).
    fn tournaments_entered(&self, account_id: &str) -> Result<Vec<Entered>, super::StoreError>;
    /// The open tournaments an account has joined and not left.
    fn tournaments_of(&self, account_id: &str) -> Result<Vec<String>, super::StoreError>;
    /// The blocks between two entrants of a tournament: (blocker,
    /// blocked) account ids. Such players are never paired together.
    fn tournament_blocks(&self, id: &str) -> Result<Vec<(String, String)>, super::StoreError>;
}

/// The stored text of an outcome.
fn outcome_str(o: Outcome) -> &'static str {
    match o {
        Outcome::SouthWon => "south_won",
        Outcome::NorthWon => "north_won",
        Outcome::Draw => "draw",
        Outcome::Void => "void",
    }
}

/// An outcome from its stored text.
fn parse_outcome(s: &str) -> Option<Outcome> {
    match s {
        "south_won" => Some(Outcome::SouthWon),
        "north_won" => Some(Outcome::NorthWon),
        "draw" => Some(Outcome::Draw),
        "void" => Some(Outcome::Void),
        _ => None,
    }
}

fn corrupt(id: &str, what: &str) -> super::StoreError {
    super::StoreError::Corrupt {
        id: id.to_string(),
        message: format!("tournament: {what}"),
    }
}

const COLUMNS: &str = "id, kind, name, creator, time_control, rated, status, starts_at, ends_at, \
                       rounds, round, next_at, version, created_at, schedule_key";

fn tournament_row(r: &SqlRow) -> Result<TournamentRow, StoreError> {
    let id: String = r.get(0)?;
    Ok(TournamentRow {
        kind: Kind::parse(&r.get::<String>(1)?).ok_or_else(|| corrupt(&id, "kind"))?,
        name: r.get(2)?,
        creator: r.get(3)?,
        time_control: serde_json::from_str(&r.get::<String>(4)?)
            .map_err(|_| corrupt(&id, "time control"))?,
        rated: r.get(5)?,
        status: Status::parse(&r.get::<String>(6)?).ok_or_else(|| corrupt(&id, "status"))?,
        starts_at: r.get(7)?,
        ends_at: r.get(8)?,
        rounds: r.get(9)?,
        round: r.get(10)?,
        next_at: r.get(11)?,
        version: r.get(12)?,
        created_at: r.get(13)?,
        schedule_key: r.get(14)?,
        id,
    })
}

/// Applies one change.
pub(crate) async fn apply(db: &impl Db, op: &TournamentOp) -> Result<(), StoreError> {
    match op {
        TournamentOp::Create(t) => {
            let tc = serde_json::to_string(&t.time_control).unwrap_or_default();
            db.execute(
                &format!(
                    "INSERT INTO tournaments ({COLUMNS})
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 0, $13, $14)
                     ON CONFLICT (schedule_key) DO NOTHING"
                ),
                args![
                    &t.id,
                    t.kind.as_str(),
                    &t.name,
                    &t.creator,
                    &tc,
                    t.rated,
                    t.status.as_str(),
                    t.starts_at,
                    t.ends_at,
                    t.rounds,
                    t.round,
                    t.next_at,
                    t.created_at,
                    &t.schedule_key
                ],
            )
            .await?;
        }
        TournamentOp::Update { row, expected } => {
            let n = db
                .execute(
                    "UPDATE tournaments SET status = $3, ends_at = $4, round = $5, next_at = $6,
                     version = version + 1 WHERE id = $1 AND version = $2",
                    args![
                        &row.id,
                        *expected as i64,
                        row.status.as_str(),
                        row.ends_at,
                        row.round,
                        row.next_at
                    ],
                )
                .await?;
            if n == 0 {
                return Err(StoreError::Stale {
                    id: row.id.clone(),
                    expected: *expected,
                });
            }
        }
        TournamentOp::Caps {
            creator,
            per_creator,
            open,
        } => {
            // One creation at a time across nodes, so the count below
            // stays true until this transaction commits.
            if let Some(lock) = db.dialect().caps_lock {
                db.execute(lock, &[]).await?;
            }
            let row = db
                .query_one(
                    "SELECT count(*) FILTER (WHERE creator = $1), count(*) FROM tournaments
                     WHERE status IN ('created', 'running') AND creator IS NOT NULL",
                    args![creator],
                )
                .await?;
            check_caps(row.get(0)?, row.get(1)?, *per_creator, *open)?;
        }
        TournamentOp::Join {
            tournament_id,
            account_id,
            username,
            rating,
            at,
        } => {
            // The tournament's row is locked first, so two nodes adding
            // entrants at once number them one after the other.
            let lock = db.dialect().for_update;
            db.query(
                &format!("SELECT 1 FROM tournaments WHERE id = $1{lock}"),
                args![tournament_id],
            )
            .await?;
            db.execute(
                "INSERT INTO tournament_players
                 (tournament_id, idx, account_id, username, rating, state, joined_at, seen_at)
                 VALUES ($1, (SELECT coalesce(max(idx) + 1, 0) FROM tournament_players
                              WHERE tournament_id = $1), $2, $3, $4, 'active', $5, $5)
                 ON CONFLICT (tournament_id, account_id)
                 DO UPDATE SET state = 'active', seen_at = excluded.seen_at",
                args![tournament_id, account_id, username, *rating, *at],
            )
            .await?;
        }
        TournamentOp::State {
            tournament_id,
            account_id,
            state,
        } => {
            db.execute(
                "UPDATE tournament_players SET state = $3
                 WHERE tournament_id = $1 AND account_id = $2",
                args![tournament_id, account_id, state.as_str()],
            )
            .await?;
        }
        TournamentOp::Seen {
            tournament_id,
            account_ids,
            at,
        } => {
            db.execute(
                db.dialect().seen_entrants,
                args![tournament_id, account_ids.as_slice(), *at],
            )
            .await?;
        }
        TournamentOp::Pair {
            tournament_id,
            pairing: p,
        } => {
            db.execute(
                "INSERT INTO tournament_games
                 (tournament_id, game_id, round, south, north, outcome, at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
                args![
                    tournament_id,
                    &p.game_id,
                    p.round,
                    p.south,
                    p.north,
                    p.outcome.map(outcome_str),
                    p.at
                ],
            )
            .await?;
        }
        TournamentOp::Outcome {
            tournament_id,
            game_id,
            outcome,
        } => {
            db.execute(
                "UPDATE tournament_games SET outcome = $3
                 WHERE tournament_id = $1 AND game_id = $2",
                args![tournament_id, game_id, outcome_str(*outcome)],
            )
            .await?;
        }
    }
    Ok(())
}

/// The caps of [`TournamentOp::Caps`], from the counts read in its
/// transaction.
fn check_caps(mine: u32, all: u32, per_creator: u32, open: u32) -> Result<(), StoreError> {
    if mine >= per_creator {
        return Err(StoreError::Full {
            what: super::Cap::TournamentsOfCreator,
            cap: per_creator,
        });
    }
    if all >= open {
        return Err(StoreError::Full {
            what: super::Cap::OpenTournaments,
            cap: open,
        });
    }
    Ok(())
}

/// One tournament, whole.
pub(crate) async fn tournament(db: &impl Db, id: &str) -> Result<Option<Tournament>, StoreError> {
    let sql = format!("SELECT {COLUMNS} FROM tournaments WHERE id = $1");
    let Some(row) = db.query_opt(&sql, args![id]).await? else {
        return Ok(None);
    };
    let mut entrants = Vec::new();
    for r in db
        .query(
            "SELECT idx, account_id, username, rating, state, joined_at, seen_at
             FROM tournament_players WHERE tournament_id = $1 ORDER BY idx",
            args![id],
        )
        .await?
    {
        let state = r.get::<String>(4)?;
        entrants.push(EntrantRow {
            idx: r.get(0)?,
            account_id: r.get(1)?,
            username: r.get(2)?,
            rating: r.get(3)?,
            state: EntrantState::parse(&state).ok_or_else(|| corrupt(id, "entrant state"))?,
            joined_at: r.get(5)?,
            seen_at: r.get(6)?,
        });
    }
    let mut pairings = Vec::new();
    for r in db
        .query(
            "SELECT game_id, round, south, north, outcome, at FROM tournament_games
             WHERE tournament_id = $1 ORDER BY at, round, game_id",
            args![id],
        )
        .await?
    {
        let outcome = match r.get::<Option<String>>(4)? {
            None => None,
            Some(o) => Some(parse_outcome(&o).ok_or_else(|| corrupt(id, "outcome"))?),
        };
        pairings.push(PairingRow {
            game_id: r.get(0)?,
            round: r.get(1)?,
            south: r.get(2)?,
            north: r.get(3)?,
            outcome,
            at: r.get(5)?,
        });
    }
    Ok(Some(Tournament {
        row: tournament_row(&row)?,
        entrants,
        pairings,
    }))
}

/// The open tournaments (running first, then by start), then the latest
/// `finished` others.
pub(crate) async fn tournaments(
    db: &impl Db,
    finished: u32,
) -> Result<Vec<TournamentSummary>, StoreError> {
    let select = format!(
        "SELECT {COLUMNS}, (SELECT count(*) FROM tournament_players p WHERE p.tournament_id = t.id)
         FROM tournaments t"
    );
    let open = db
        .query(
            &format!(
                "{select} WHERE status IN ('created', 'running')
                 ORDER BY status = 'created', starts_at, id"
            ),
            &[],
        )
        .await?;
    let done = db
        .query(
            &format!(
                "{select} WHERE status IN ('finished', 'cancelled')
                 ORDER BY coalesce(ends_at, starts_at) DESC, id LIMIT $1"
            ),
            args![finished],
        )
        .await?;
    open.iter()
        .chain(&done)
        .map(|r| {
            Ok(TournamentSummary {
                row: tournament_row(r)?,
                entrants: r.get(15)?,
            })
        })
        .collect()
}

/// Claims the tournaments that need a look, fairly (see
/// [`TournamentStore::claim_tournaments`]), skipping those another node
/// holds.
pub(crate) async fn claim(
    db: &impl Db,
    now: i64,
    soon: i64,
    lease: Lease,
    limit: u32,
) -> Result<Vec<String>, StoreError> {
    // Those due to start or running before those only to be reminded.
    let sql = format!(
        "UPDATE tournaments SET claim = $2 WHERE id IN (
            SELECT id FROM tournaments
            WHERE (status = 'running' OR (status = 'created' AND starts_at <= $5))
            AND coalesce(claim, 0) <= $4
            ORDER BY status = 'created' AND starts_at > $1, status = 'running',
                creator IS NOT NULL, coalesce(claim, 0), starts_at, id
            LIMIT $3{})
         RETURNING id",
        db.dialect().skip_locked
    );
    db.column(
        &sql,
        args![now, lease.now + lease.ms, limit, lease.now, soon.max(now)],
    )
    .await
}

/// See [`TournamentStore::release_tournament`].
pub(crate) async fn release(db: &impl Db, id: &str, lease: Lease) -> Result<(), StoreError> {
    // The claim goes back to when the look began: claimable again at
    // once, and still ordering the claims by the look longest ago.
    db.execute(
        "UPDATE tournaments SET claim = $3 WHERE id = $1 AND claim = $2",
        args![id, lease.now + lease.ms, lease.now],
    )
    .await?;
    Ok(())
}

/// Every tournament an account entered.
pub(crate) async fn entered(db: &impl Db, account_id: &str) -> Result<Vec<Entered>, StoreError> {
    db.query(
        "SELECT t.id, t.name, t.kind, t.status, t.starts_at, p.state
         FROM tournament_players p JOIN tournaments t ON t.id = p.tournament_id
         WHERE p.account_id = $1 ORDER BY t.starts_at, t.id",
        args![account_id],
    )
    .await?
    .iter()
    .map(|r| {
        let (kind, status, state): (String, String, String) = (r.get(2)?, r.get(3)?, r.get(5)?);
        Entered::parse(r.get(0)?, r.get(1)?, &kind, &status, r.get(4)?, &state)
    })
    .collect()
}

/// The open tournaments an account is in.
pub(crate) async fn of(db: &impl Db, account_id: &str) -> Result<Vec<String>, StoreError> {
    db.column(
        "SELECT t.id FROM tournaments t JOIN tournament_players p ON p.tournament_id = t.id
         WHERE p.account_id = $1 AND p.state != 'left' AND t.status IN ('created', 'running')
         ORDER BY t.starts_at",
        args![account_id],
    )
    .await
}

/// The blocks between entrants.
pub(crate) async fn blocks(db: &impl Db, id: &str) -> Result<Vec<(String, String)>, StoreError> {
    db.query(
        "SELECT b.blocker, b.blocked FROM blocks b
         JOIN tournament_players p ON p.tournament_id = $1 AND p.account_id = b.blocker
         JOIN tournament_players q ON q.tournament_id = $1 AND q.account_id = b.blocked",
        args![id],
    )
    .await?
    .iter()
    .map(|r| Ok((r.get(0)?, r.get(1)?)))
    .collect()
}
