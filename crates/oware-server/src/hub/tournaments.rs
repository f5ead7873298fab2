//! Tournaments: creating and joining them, and the director that runs
//! them. The pairings and standings are `oware_tournament`'s pure
//! functions over what is stored; this module only reads, decides and
//! writes.
//!
//! **The director.** Every [`TICK`], each node claims the open tournaments
//! no node has looked at within [`LEASE_MS`] (PostgreSQL skips the rows
//! another node holds) and, for each:
//!
//! - starts it at its time (a Swiss with fewer than two players is called
//!   off);
//! - arena: pairs the entrants who are waiting (active, their page open
//!   within [`PRESENT_MS`], not in a game) until its end, then finishes it
//!   once its last game is over;
//! - Swiss: once every game of the round is over, waits
//!   `Config::swiss_break` and pairs the next round, or finishes it after
//!   the last.
//!
//! Every such change is written with the tournament's version checked
//! (`TournamentOp::Update` first in the transaction, with the new games):
//! if another node changed the tournament meanwhile, nothing of it is
//! stored, so two nodes never pair a round or a player twice. A node that
//! dies mid-round loses nothing: its games are stored with their
//! deadlines, and the next node to claim the tournament goes on.
//!
//! **Results.** A tournament game's end is written in the transaction that
//! ends it (`Hub::commit` adds `TournamentOp::Outcome`), and a player who
//! never moved before their time ran out is paused (arena) or withdrawn
//! (Swiss) in the same transaction, so absent players are not paired again
//! until they come back.

use crate::error::Reason;
use crate::store::notifications::Kind as NoteKind;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use oware_core::{Position, Side};
use oware_tournament::{arena, swiss, HalfPoints, PlayerId};

use super::{Hub, Live};
use crate::accounts::ratings::RatingClass;
use crate::accounts::User;
use crate::error::ApiError;
use crate::model::{new_id, GameMeta, Mode, Seat};
use crate::protocol::incoming::NewTournament;
use crate::protocol::outgoing::{
    TournamentGameView, TournamentListView, TournamentStandingView, TournamentSummaryView,
    TournamentView, YouInTournament,
};
use crate::store::account_rows::AccountOp;
use crate::store::tournaments::{
    EntrantRow, EntrantState, Kind, Outcome, PairingRow, Status, Tournament, TournamentOp,
    TournamentRow,
};
use crate::store::{Cap, StoreError, StoredGame, WriteOp};
use futures_util::StreamExt;

/// How often each node looks at the open tournaments.
pub(crate) const TICK: Duration = Duration::from_secs(1);
/// How long a claim keeps other nodes off a tournament.
pub(crate) const LEASE_MS: i64 = 3_000;

/// A minute, in ms.
const MINUTE_MS: i64 = 60_000;
/// An arena entrant is paired only if their tournament page said they are
/// there within this time.
pub(crate) const PRESENT_MS: i64 = 15_000;
/// A page's "I am here" is written at most this often per entrant.
const SEEN_WRITE_MS: i64 = 4_000;
/// A tournament of the server's schedule is created this long before it
/// starts.
pub(crate) const ANNOUNCE_MS: i64 = 3_600_000;
/// The longest a Swiss round's pairing may take before the director
/// leaves it for its next look (a 200-player round with 60 players
/// blocking most others takes about 0.3 s).
const PAIRING_CAP: Duration = Duration::from_secs(5);
/// Open tournaments one account may have created.
pub(crate) const MAX_OPEN_PER_CREATOR: u32 = 3;
/// Tournaments one node looks at per tick at most, and at once.
const CLAIM_PER_TICK: u32 = 50;
/// How long before its start a tournament's entrants are reminded.
pub(crate) const REMIND_MS: i64 = 5 * MINUTE_MS;
const LOOKS_AT_ONCE: usize = 8;

/// The presence writes this node made lately, by (tournament, account).
/// The tournaments whose entrants this node has reminded.
#[derive(Default)]
pub(crate) struct Reminded(std::sync::Mutex<HashSet<String>>);

impl Reminded {
    /// Whether this is the first reminder of `id` here (and notes it).
    fn first(&self, id: &str) -> bool {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.to_string())
    }

    /// Forgets `id` (it started).
    fn forget(&self, id: &str) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).remove(id);
    }
}

#[derive(Default)]
pub(crate) struct Presence(std::sync::Mutex<HashMap<(String, String), i64>>);

impl Presence {
    /// Whether a presence write is due for this entrant (and notes it).
    fn due(&self, tournament: &str, account: &str, now: i64) -> bool {
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() > 10_000 {
            map.retain(|_, at| now - *at < SEEN_WRITE_MS);
        }
        let key = (tournament.to_string(), account.to_string());
        match map.get(&key) {
            Some(&at) if now - at < SEEN_WRITE_MS => false,
            _ => {
                map.insert(key, now);
                true
            }
        }
    }
}

/// How a finished game counts in its tournament: a game that ended
/// before each side moved counts for nobody (`Void`), except a time loss
/// by a player who never came, which the player who was there wins.
pub(crate) fn outcome_of(live: &Live, result: &oware_core::Outcome) -> Outcome {
    if !live.both_have_moved() && result.reason != oware_core::EndReason::Time {
        return Outcome::Void;
    }
    match result.winner {
        Some(Side::South) => Outcome::SouthWon,
        Some(Side::North) => Outcome::NorthWon,
        None => Outcome::Draw,
    }
}

/// What a tournament game's end adds to its transaction: the outcome, and
/// the pause of a player who was not there or would not play: who never
/// moved before their time ran out and, in an arena, who resigned before
/// each side had moved, or both players of a draw agreed before then (an
/// accomplice who resigns at once is not paired with the same player over
/// and over). A paused player comes back by joining again.
pub(crate) fn end_ops(live: &Live) -> Vec<WriteOp> {
    let (Some(result), Some(tid)) = (live.meta.result, live.meta.tournament.as_ref()) else {
        return Vec::new();
    };
    let tid = tid.clone();
    let outcome = outcome_of(live, &result);
    let mut ops = vec![WriteOp::Tournament(TournamentOp::Outcome {
        tournament_id: tid.clone(),
        game_id: live.meta.id.clone(),
        outcome,
    })];
    let loser = result.winner.map(Side::opponent);
    let paused: Vec<Side> = match result.reason {
        oware_core::EndReason::Time => loser.filter(|&s| !live.has_moved(s)).into_iter().collect(),
        _ if outcome == Outcome::Void && live.meta.tournament_kind == Some(Kind::Arena) => {
            match loser {
                Some(side) => vec![side],
                None => Side::ALL.to_vec(),
            }
        }
        _ => Vec::new(),
    };
    for side in paused {
        if let Some(account) = live.meta.seats[side.index()].account.clone() {
            ops.push(WriteOp::Tournament(TournamentOp::State {
                tournament_id: tid.clone(),
                account_id: account,
                state: EntrantState::Paused,
            }));
        }
    }
    ops
}

fn swiss_rounds(t: &Tournament) -> Vec<swiss::Round> {
    let mut rounds: Vec<swiss::Round> = vec![Vec::new(); t.row.round as usize];
    for p in &t.pairings {
        let Some(round) = (p.round as usize).checked_sub(1) else {
            continue;
        };
        if round >= rounds.len() {
            continue;
        }
        rounds[round].push(match p.north {
            Some(north) => swiss::Entry::Game {
                south: p.south,
                north,
                outcome: p.outcome,
            },
            None => swiss::Entry::Bye { player: p.south },
        });
    }
    rounds
}

fn arena_games(t: &Tournament) -> Vec<arena::Game> {
    t.pairings
        .iter()
        .filter_map(|p| {
            Some(arena::Game {
                south: p.south,
                north: p.north?,
                outcome: p.outcome,
            })
        })
        .collect()
}

fn in_play(t: &Tournament) -> impl Iterator<Item = &PairingRow> {
    t.pairings
        .iter()
        .filter(|p| p.north.is_some() && p.outcome.is_none())
}

fn half(points: HalfPoints) -> f64 {
    f64::from(points.0) / 2.0
}

/// The standings of a tournament as shown.
fn standings(t: &Tournament) -> Vec<TournamentStandingView> {
    let playing: HashMap<PlayerId, &str> = in_play(t)
        .flat_map(|p| {
            [
                (p.south, p.game_id.as_str()),
                (p.north.unwrap_or(p.south), p.game_id.as_str()),
            ]
        })
        .collect();
    let entrant = |id: PlayerId| t.entrants.get(id as usize);
    let view = |e: &EntrantRow, rank: u32| TournamentStandingView {
        rank,
        name: e.username.clone(),
        rating: e.rating,
        state: e.state,
        playing: playing.get(&e.idx).map(|g| g.to_string()),
        score: 0.0,
        games: 0,
        on_fire: false,
        sheet: Vec::new(),
        buchholz: None,
        sonneborn_berger: None,
    };
    match t.row.kind {
        Kind::Arena => {
            let ids: Vec<PlayerId> = t.entrants.iter().map(|e| e.idx).collect();
            arena::standings(&ids, &arena_games(t))
                .into_iter()
                .filter_map(|s| {
                    let e = entrant(s.player)?;
                    Some(TournamentStandingView {
                        score: f64::from(s.score),
                        games: s.games,
                        on_fire: s.on_fire,
                        sheet: s.sheet,
                        ..view(e, s.rank)
                    })
                })
                .collect()
        }
        Kind::Swiss => {
            let players = swiss_players(t);
            swiss::standings(&players, &swiss_rounds(t))
                .into_iter()
                .filter_map(|s| {
                    let e = entrant(s.player)?;
                    Some(TournamentStandingView {
                        score: half(s.points),
                        games: s.wins,
                        buchholz: Some(half(s.buchholz)),
                        sonneborn_berger: Some(f64::from(s.sonneborn_berger) / 4.0),
                        ..view(e, s.rank)
                    })
                })
                .collect()
        }
    }
}

fn swiss_players(t: &Tournament) -> Vec<swiss::Player> {
    t.entrants
        .iter()
        .map(|e| swiss::Player {
            id: e.idx,
            rating: e.rating,
            active: e.state == EntrantState::Active,
        })
        .collect()
}

fn summary(row: &TournamentRow, entrants: u32) -> TournamentSummaryView {
    TournamentSummaryView {
        id: row.id.clone(),
        kind: row.kind,
        name: row.name.clone(),
        status: row.status,
        time_control: row.time_control,
        rated: row.rated,
        starts_at: crate::model::rfc3339(row.starts_at),
        ends_at: row.ends_at.map(crate::model::rfc3339),
        rounds: row.rounds,
        round: row.round,
        entrants,
    }
}

/// The tournaments' service ([`Hub::tournaments`]): creating, entering
/// and showing tournaments, and the director that starts, pairs and ends
/// them.
pub struct Tournaments<'h>(&'h Arc<Hub>);

impl Hub {
    /// The tournaments' service.
    pub fn tournaments(self: &Arc<Self>) -> Tournaments<'_> {
        Tournaments(self)
    }
}

impl Tournaments<'_> {
    /// Starts the director (see the module's notes).
    pub(crate) fn start_director(&self) {
        let weak = Arc::downgrade(self.0);
        // The director's minutes are the server's: a manual clock runs a
        // round when it is moved (the tests of a 20-minute arena and a
        // Swiss run in virtual time).
        let time = self.0.time().clone();
        tokio::spawn(async move {
            // The schedule's slots this node has created (or seen created).
            let mut announced = std::collections::HashSet::new();
            let mut next = time.now() + TICK;
            loop {
                // A tick a second after the last one began: at once when the
                // clock moved on further meanwhile.
                time.sleep_until(next).await;
                next = time.now() + TICK;
                let Some(hub) = weak.upgrade() else { break };
                let now = hub.now_ms();
                let lease = crate::store::Lease {
                    now: hub.time().lease_ms(),
                    ms: LEASE_MS,
                };
                hub.tournaments()
                    .schedule_tournaments(now, &mut announced)
                    .await;
                let ids = match hub
                    .read(move |s| s.claim_tournaments(now, now + REMIND_MS, lease, CLAIM_PER_TICK))
                    .await
                {
                    Ok(ids) => ids,
                    Err(_) => {
                        hub.metrics().director_ticked(now);
                        continue;
                    }
                };
                // Several looks at once: one slow tournament (a large
                // Swiss being paired) holds up no other.
                let looks =
                    futures_util::stream::iter(ids).for_each_concurrent(LOOKS_AT_ONCE, |id| {
                        let hub = hub.clone();
                        async move {
                            if let Err(e) = hub.tournaments().direct(&id, now).await {
                                if e.code != crate::error::ErrorCode::StalePly {
                                    tracing::warn!("tournament {id}: {e}");
                                }
                            }
                            // The look is over: the next tick may look again
                            // (the lease only covers a node dying mid-look).
                            let key = id.clone();
                            let _ = hub.read(move |s| s.release_tournament(&key, lease)).await;
                        }
                    });
                looks.await;
                hub.metrics().director_ticked(now);
            }
        });
    }

    async fn tournament(&self, id: &str) -> Result<Tournament, ApiError> {
        if id.len() > 64 || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(ApiError::not_found(format!("no tournament {id:?}")));
        }
        let key = id.to_string();
        self.0
            .read(move |s| s.tournament(&key))
            .await?
            .ok_or_else(|| ApiError::not_found(format!("no tournament {id:?}")))
    }

    /// One look at a tournament as of `now`, its tick's time: start, pair
    /// or finish it when due. (Not the clock read again here: a look that
    /// began before the clock moved on decides as of its own tick, so the
    /// same ticks give the same tournament whatever the look's speed.)
    pub(crate) async fn direct(&self, id: &str, now: i64) -> Result<(), ApiError> {
        let t = self.tournament(id).await?;
        match (t.row.status, t.row.kind) {
            (Status::Created, _) if now >= t.row.starts_at => self.start_tournament(t, now).await,
            (Status::Created, _) => self.remind(&t).await,
            (Status::Running, Kind::Arena) => self.arena_step(t, now).await,
            (Status::Running, Kind::Swiss) => self.swiss_step(t, now).await,
            _ => Ok(()),
        }
    }

    /// Tells a tournament's entrants it starts in a few minutes: once per
    /// node (then the store keeps one such notification per account and
    /// tournament, whichever node tells).
    async fn remind(&self, t: &Tournament) -> Result<(), ApiError> {
        if self.0.reminded.first(&t.row.id) {
            self.tell_entrants(t, Some("soon")).await;
        }
        Ok(())
    }

    /// Tells each active entrant of `t` it starts (`detail`: `soon`, or
    /// `None`: now).
    async fn tell_entrants(&self, t: &Tournament, detail: Option<&str>) {
        for e in t
            .entrants
            .iter()
            .filter(|e| e.state == EntrantState::Active)
        {
            let mut n = self
                .0
                .notifications()
                .draft(&e.account_id, NoteKind::TournamentStarting);
            n.tournament = Some(t.row.id.clone());
            n.detail = detail.map(str::to_string);
            if let Err(err) = self.0.notifications().notify(n).await {
                tracing::warn!(
                    "tournament {}: a notification was not stored: {err:?}",
                    t.row.id
                );
            }
        }
    }

    async fn start_tournament(&self, t: Tournament, now: i64) -> Result<(), ApiError> {
        self.0.reminded.forget(&t.row.id);
        let mut row = t.row.clone();
        let active = t
            .entrants
            .iter()
            .filter(|e| e.state == EntrantState::Active)
            .count();
        if row.kind == Kind::Swiss && active < 2 {
            row.status = Status::Cancelled;
            row.ends_at = Some(now);
            tracing::info!("tournament {}: called off, {active} player(s)", row.id);
            return self.update(&t, row, Vec::new()).await;
        }
        row.status = Status::Running;
        if row.kind == Kind::Arena {
            // The arena's length runs from its real start.
            let length = row.ends_at.unwrap_or(row.starts_at) - row.starts_at;
            row.ends_at = Some(now + length.max(0));
        } else {
            row.next_at = Some(now);
        }
        tracing::info!("tournament {} started", row.id);
        self.update(&t, row, Vec::new()).await?;
        // Its entrants are told (once stored: a node that lost the race
        // to start it tells nobody).
        self.tell_entrants(&t, None).await;
        Ok(())
    }

    async fn arena_step(&self, t: Tournament, now: i64) -> Result<(), ApiError> {
        let ends = t.row.ends_at.unwrap_or(t.row.starts_at);
        if now >= ends {
            if in_play(&t).next().is_none() {
                let mut row = t.row.clone();
                row.status = Status::Finished;
                tracing::info!("tournament {} finished", row.id);
                return self.update(&t, row, Vec::new()).await;
            }
            return Ok(());
        }
        let busy: Vec<PlayerId> = in_play(&t)
            .flat_map(|p| [p.south, p.north.unwrap_or(p.south)])
            .collect();
        let waiting: Vec<PlayerId> = t
            .entrants
            .iter()
            .filter(|e| {
                e.state == EntrantState::Active
                    && now - e.seen_at <= PRESENT_MS
                    && !busy.contains(&e.idx)
            })
            .map(|e| e.idx)
            .collect();
        if waiting.len() < 2 {
            return Ok(());
        }
        let ratings: Vec<(PlayerId, i32)> = t.entrants.iter().map(|e| (e.idx, e.rating)).collect();
        let forbidden = self.forbidden(&t).await?;
        let pairs = arena::pair(&waiting, &ratings, &arena_games(&t), &forbidden);
        if pairs.is_empty() {
            return Ok(());
        }
        let games = pairs.iter().map(|p| (p.south, Some(p.north))).collect();
        self.pair_games(&t, t.row.clone(), 0, games, now).await
    }

    async fn swiss_step(&self, t: Tournament, now: i64) -> Result<(), ApiError> {
        if in_play(&t).next().is_some() {
            return Ok(());
        }
        let mut row = t.row.clone();
        if row.round >= row.rounds {
            row.status = Status::Finished;
            row.ends_at = Some(now);
            row.next_at = None;
            tracing::info!("tournament {} finished", row.id);
            return self.update(&t, row, Vec::new()).await;
        }
        let Some(next_at) = row.next_at else {
            row.next_at = Some(now + self.0.config.swiss_break.as_millis() as i64);
            return self.update(&t, row, Vec::new()).await;
        };
        if now < next_at {
            return Ok(());
        }
        let forbidden = self.forbidden(&t).await?;
        // Off the async threads, with a time cap: a slow pairing holds
        // neither the other tournaments nor the games.
        let (players, rounds, total) = (swiss_players(&t), swiss_rounds(&t), row.rounds);
        let job = tokio::task::spawn_blocking(move || {
            swiss::pair_round(&players, &rounds, total, &forbidden)
        });
        let paired = match tokio::time::timeout(PAIRING_CAP, job).await {
            Ok(Ok(paired)) => paired,
            Ok(Err(e)) => return Err(ApiError::internal(format!("pairing: {e}"))),
            Err(_) => {
                tracing::warn!(
                    "tournament {}: round {} not paired within {PAIRING_CAP:?}; tried again",
                    row.id,
                    row.round + 1
                );
                return Ok(());
            }
        };
        let pairing = match paired {
            Ok(p) => {
                if p.blocks_ignored {
                    tracing::info!(
                        "tournament {}: round {} paired without its blocks (none could be honoured)",
                        row.id,
                        row.round + 1
                    );
                }
                p.pairing
            }
            Err(e) => {
                // No legal pairing is left (everyone has met, or too few
                // remain): the tournament ends with the rounds played.
                // Blocks never cause this (`pair_round` sets them aside).
                tracing::info!("tournament {}: finished early: {e}", row.id);
                row.status = Status::Finished;
                row.ends_at = Some(now);
                row.next_at = None;
                return self.update(&t, row, Vec::new()).await;
            }
        };
        row.round += 1;
        row.next_at = None;
        let mut games: Vec<(PlayerId, Option<PlayerId>)> = pairing
            .games
            .iter()
            .map(|p| (p.south, Some(p.north)))
            .collect();
        if let Some(bye) = pairing.bye {
            games.push((bye, None));
        }
        let round = row.round;
        self.pair_games(&t, row, round, games, now).await
    }

    /// The entrant pairs that a block stands between.
    async fn forbidden(&self, t: &Tournament) -> Result<Vec<(PlayerId, PlayerId)>, ApiError> {
        let id = t.row.id.clone();
        let blocks = self.0.read(move |s| s.tournament_blocks(&id)).await?;
        let idx = |account: &str| {
            t.entrants
                .iter()
                .find(|e| e.account_id == account)
                .map(|e| e.idx)
        };
        Ok(blocks
            .iter()
            .filter_map(|(a, b)| Some((idx(a)?, idx(b)?)))
            .collect())
    }

    /// Writes `row` over the tournament if nobody changed it meanwhile,
    /// with `ops` in the same transaction.
    async fn update(
        &self,
        t: &Tournament,
        row: TournamentRow,
        ops: Vec<WriteOp>,
    ) -> Result<(), ApiError> {
        let mut all = vec![WriteOp::Tournament(TournamentOp::Update {
            row,
            expected: t.row.version,
        })];
        all.extend(ops);
        match self.0.write_raw(WriteOp::All(all)).await {
            Ok(()) => Ok(()),
            Err(e) if e.is_stale() => Err(ApiError::stale_ply(
                "the tournament changed meanwhile on another server",
            )),
            Err(e) => Err(super::store_err(e)),
        }
    }

    /// Creates the games of `pairs` (a `None` North is a bye), stores them
    /// with `row` (version checked), and puts them in play.
    async fn pair_games(
        &self,
        t: &Tournament,
        row: TournamentRow,
        round: u32,
        pairs: Vec<(PlayerId, Option<PlayerId>)>,
        now: i64,
    ) -> Result<(), ApiError> {
        let class = RatingClass::of(Some(t.row.time_control));
        let mut ops = Vec::new();
        let mut lives = Vec::new();
        for (south, north) in pairs {
            let Some(north) = north else {
                ops.push(WriteOp::Tournament(TournamentOp::Pair {
                    tournament_id: t.row.id.clone(),
                    pairing: PairingRow {
                        game_id: format!("bye{}r{round}", south),
                        round,
                        south,
                        north: None,
                        outcome: None,
                        at: now,
                    },
                }));
                continue;
            };
            let (Some(s), Some(n)) = (
                t.entrants.get(south as usize),
                t.entrants.get(north as usize),
            ) else {
                continue;
            };
            let mut seats = Vec::new();
            for e in [s, n] {
                let (mut seat, _token) = Seat::human(e.username.clone());
                seat.account = Some(e.account_id.clone());
                if t.row.rated {
                    seat.rating = Some(self.0.seat_rating(&e.account_id, class).await?);
                }
                seats.push(seat);
            }
            let seats: [Seat; 2] = [seats.remove(0), seats.remove(0)];
            let (mut meta, _invite) = GameMeta::new(
                Mode::Online,
                None,
                true,
                Position::start(),
                seats,
                Some(t.row.time_control),
                self.0.now_ms(),
            );
            meta.rated = t.row.rated;
            meta.tournament = Some(t.row.id.clone());
            meta.tournament_kind = Some(t.row.kind);
            let mut live = Live::from_stored(
                StoredGame {
                    meta,
                    plies: Vec::new(),
                    version: 0,
                    due: Default::default(),
                },
                &self.0.config,
            )
            .map_err(super::store_err)?;
            live.sync_meta();
            // The clock runs from the pairing: its deadline is stored with
            // the game, so a player who never comes loses on time even if
            // this node dies.
            super::run_clock(&mut live, self.0.time().now());
            let due = self.0.due(&live);
            live.due = due;
            ops.push(WriteOp::Create {
                meta: live.meta.clone(),
                plies: Vec::new(),
                due,
            });
            for e in [s, n] {
                ops.push(WriteOp::Account(AccountOp::LinkGame {
                    account_id: e.account_id.clone(),
                    game_id: live.meta.id.clone(),
                }));
            }
            ops.push(WriteOp::Tournament(TournamentOp::Pair {
                tournament_id: t.row.id.clone(),
                pairing: PairingRow {
                    game_id: live.meta.id.clone(),
                    round,
                    south,
                    north: Some(north),
                    outcome: None,
                    at: now,
                },
            }));
            lives.push(live);
        }
        self.update(t, row, ops).await?;
        for live in lives {
            let slot = self.0.insert(live);
            let mut live = slot.state.lock().await;
            self.0.after_change(&slot, &mut live, true);
            // A Swiss round comes after a break: its players are told where
            // their game is (an arena's, on its page, are sent at once).
            if t.row.kind == Kind::Swiss {
                let id = live.meta.id.clone();
                for side in oware_core::Side::ALL {
                    self.0.tell_seat(
                        &live,
                        side,
                        NoteKind::TournamentStarting,
                        &id,
                        Some("paired"),
                    );
                }
            }
        }
        Ok(())
    }

    /// `POST /api/v1/tournaments`: a new tournament, created by `user`.
    pub async fn create(
        &self,
        req: NewTournament,
        user: &User,
    ) -> Result<TournamentView, ApiError> {
        let now = self.0.now_ms();
        // (Tests shorten the tournament's minute, start included.)
        let starts_at = now + i64::from(req.starts_in_s) * 1_000;
        let row = TournamentRow {
            id: new_id(),
            kind: req.kind,
            name: req.name,
            creator: Some(user.id.clone()),
            time_control: req.time_control,
            rated: req.rated,
            status: Status::Created,
            starts_at,
            ends_at: (req.kind == Kind::Arena)
                .then(|| starts_at + i64::from(req.minutes) * MINUTE_MS),
            rounds: if req.kind == Kind::Swiss {
                req.rounds
            } else {
                0
            },
            round: 0,
            next_at: None,
            version: 0,
            created_at: now,
            schedule_key: None,
        };
        let id = row.id.clone();
        // The caps are checked in the creating transaction: twelve
        // concurrent creations by one account made twelve tournaments
        // when the count was read first.
        let caps = WriteOp::Tournament(TournamentOp::Caps {
            creator: user.id.clone(),
            per_creator: MAX_OPEN_PER_CREATOR,
            open: self.0.config.tournament_max_open,
        });
        let create = WriteOp::Tournament(TournamentOp::Create(row));
        match self.0.write_raw(WriteOp::All(vec![caps, create])).await {
            Ok(()) => {}
            Err(StoreError::Full {
                what: Cap::TournamentsOfCreator,
                cap,
            }) => {
                return Err(ApiError::not_allowed(format!(
                    "you already have {cap} tournaments to play; wait until one is over"
                ))
                .with_reason(Reason::TooManyTournaments))
            }
            Err(StoreError::Full {
                what: Cap::OpenTournaments,
                cap,
            }) => {
                return Err(ApiError::not_allowed(format!(
                    "players have {cap} tournaments open, as many as this server runs; \
                     join one, or wait until one is over"
                ))
                .with_reason(Reason::TournamentsFull))
            }
            Err(e) => return Err(super::store_err(e)),
        }
        tracing::info!("tournament {id} created by {}", user.username);
        self.join(&id, user).await
    }

    /// Creates the schedule's tournaments that start within
    /// [`ANNOUNCE_MS`] (once across nodes: a slot's key is unique in the
    /// store).
    async fn schedule_tournaments(&self, now: i64, announced: &mut HashSet<String>) {
        for s in &self.0.config.tournament_schedule {
            let starts_at = s.next_start(now);
            let key = s.key(starts_at);
            if starts_at - now > ANNOUNCE_MS || announced.contains(&key) {
                continue;
            }
            let row = TournamentRow {
                id: new_id(),
                kind: s.kind,
                name: s.name(),
                creator: None,
                time_control: s.time_control,
                rated: true,
                status: Status::Created,
                starts_at,
                ends_at: (s.kind == Kind::Arena)
                    .then(|| starts_at + i64::from(s.length) * MINUTE_MS),
                rounds: if s.kind == Kind::Swiss { s.length } else { 0 },
                round: 0,
                next_at: None,
                version: 0,
                created_at: now,
                schedule_key: Some(key.clone()),
            };
            match self
                .0
                .write_raw(WriteOp::Tournament(TournamentOp::Create(row)))
                .await
            {
                Ok(()) => {
                    announced.insert(key);
                }
                Err(e) => tracing::warn!("scheduled tournament {key}: {e}"),
            }
        }
    }

    /// `POST /api/v1/tournaments/{id}/join`: joins, or comes back after a
    /// pause.
    pub async fn join(&self, id: &str, user: &User) -> Result<TournamentView, ApiError> {
        let t = self.tournament(id).await?;
        if !t.row.status.is_open() {
            return Err(ApiError::not_allowed("this tournament is over")
                .with_reason(Reason::TournamentOver));
        }
        let me = t.entrants.iter().find(|e| e.account_id == user.id);
        if me.is_some_and(|e| e.state == EntrantState::Left) {
            return Err(ApiError::not_allowed(
                "you left this tournament; you cannot join it again",
            )
            .with_reason(Reason::TournamentLeft));
        }
        if me.is_none() && t.row.kind == Kind::Swiss && t.row.status == Status::Running {
            return Err(ApiError::not_allowed(
                "this Swiss tournament has started; it takes no new players",
            )
            .with_reason(Reason::TournamentStarted));
        }
        if me.is_none() && t.entrants.len() >= self.0.config.tournament_max_players {
            return Err(ApiError::not_allowed("this tournament is full")
                .with_reason(Reason::TournamentFull));
        }
        let class = RatingClass::of(Some(t.row.time_control));
        let rating = self.0.seat_rating(&user.id, class).await?.rating;
        self.0
            .write(WriteOp::Tournament(TournamentOp::Join {
                tournament_id: id.to_string(),
                account_id: user.id.clone(),
                username: user.username.clone(),
                rating,
                at: self.0.now_ms(),
            }))
            .await?;
        self.view(id, Some(user)).await
    }

    /// `POST /api/v1/tournaments/{id}/pause` (arena: not paired until
    /// coming back) and `…/leave` (for good; the results stay).
    pub async fn set_state(
        &self,
        id: &str,
        user: &User,
        state: EntrantState,
    ) -> Result<TournamentView, ApiError> {
        let t = self.tournament(id).await?;
        let Some(me) = t.entrants.iter().find(|e| e.account_id == user.id) else {
            return Err(ApiError::not_allowed("you have not joined this tournament")
                .with_reason(Reason::NotInTournament));
        };
        if !t.row.status.is_open() {
            return Err(ApiError::not_allowed("this tournament is over")
                .with_reason(Reason::TournamentOver));
        }
        if me.state == EntrantState::Left {
            return Err(ApiError::not_allowed("you left this tournament")
                .with_reason(Reason::TournamentLeft));
        }
        self.0
            .write(WriteOp::Tournament(TournamentOp::State {
                tournament_id: id.to_string(),
                account_id: user.id.clone(),
                state,
            }))
            .await?;
        self.view(id, Some(user)).await
    }

    /// `GET /api/v1/tournaments/{id}`: the tournament with its standings
    /// and games; an entrant who asks is noted as there (arena pairing).
    pub async fn view(&self, id: &str, user: Option<&User>) -> Result<TournamentView, ApiError> {
        let t = self.tournament(id).await?;
        let now = self.0.now_ms();
        let me = user.and_then(|u| t.entrants.iter().find(|e| e.account_id == u.id));
        if let Some(me) = me {
            if t.row.status.is_open()
                && me.state != EntrantState::Left
                && self.0.presence.due(id, &me.account_id, now)
            {
                let op = WriteOp::Tournament(TournamentOp::Seen {
                    tournament_id: id.to_string(),
                    account_ids: vec![me.account_id.clone()],
                    at: now,
                });
                if let Err(e) = self.0.write_raw(op).await {
                    tracing::warn!("tournament {id}: presence not stored: {e}");
                }
            }
        }
        let standings = standings(&t);
        let name = |i: u32| {
            t.entrants
                .get(i as usize)
                .map(|e| e.username.clone())
                .unwrap_or_default()
        };
        let mut games: Vec<TournamentGameView> = t
            .pairings
            .iter()
            .rev()
            .take(200)
            .map(|p| TournamentGameView {
                id: p.north.map(|_| p.game_id.clone()),
                round: p.round,
                south: name(p.south),
                north: p.north.map(name),
                outcome: p.outcome,
            })
            .collect();
        games.reverse();
        let you = me.map(|me| YouInTournament {
            state: me.state,
            game: in_play(&t)
                .find(|p| p.south == me.idx || p.north == Some(me.idx))
                .map(|p| p.game_id.clone()),
        });
        let creator = match &t.row.creator {
            Some(c) => t
                .entrants
                .iter()
                .find(|e| &e.account_id == c)
                .map(|e| e.username.clone()),
            None => None,
        };
        Ok(TournamentView {
            summary: summary(&t.row, t.entrants.len() as u32),
            creator,
            next_at: t.row.next_at.map(crate::model::rfc3339),
            standings,
            games,
            you,
        })
    }

    /// `GET /api/v1/tournaments`: the open tournaments, then the last 20
    /// finished.
    pub async fn list(&self) -> Result<TournamentListView, ApiError> {
        let list = self.0.read(|s| s.tournaments(20)).await?;
        Ok(TournamentListView {
            tournaments: list.iter().map(|t| summary(&t.row, t.entrants)).collect(),
        })
    }
}
