//! New games: created from a request, imported from an OGN record, or a
//! rematch of a finished game; and the names players give themselves.

use crate::error::Reason;
use std::collections::HashMap;
use std::sync::Arc;

use oware_core::{Position, Record, Side};
use rand::Rng;

use super::{Announce, Commit, Hub, Live};
use crate::accounts::ratings::RatingClass;
use crate::accounts::User;
use crate::error::ApiError;
use crate::model::*;
use crate::protocol::views::ply_text;
use crate::protocol::Seated;
use crate::store::account_rows::AccountOp;
use crate::store::{StoredGame, StoredPly, WriteOp};

pub use crate::protocol::incoming::NewGame;

pub(super) fn check_name(name: Option<String>, default: &str) -> Result<String, ApiError> {
    let name = name
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| default.to_string());
    if name.chars().count() > 40 || name.chars().any(|c| c.is_control() || is_invisible(c)) {
        return Err(ApiError::invalid_request(
            "name: at most 40 characters, no control, direction or invisible characters",
        ));
    }
    Ok(name)
}

/// Is `name` one the site or the computer goes by? ("Computer (level
/// 10)", "Deleted player", "Spectator", "Admin"…, whatever the case and
/// spacing.)
pub fn is_site_name(name: &str) -> bool {
    let key: String = name
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    const SITE: &[&str] = &[
        "admin",
        "administrator",
        "deleted player",
        "moderator",
        "oware",
        "open seat",
        "root",
        "spectator",
        "staff",
        "support",
        "system",
    ];
    SITE.contains(&key.as_str()) || key.starts_with("computer") || key.starts_with("engine")
}

/// Refuses a time control out of range, or correspondence for a game
/// not played online.
pub(super) fn check_time_control(tc: TimeControl, mode: Mode) -> Result<(), ApiError> {
    let ok = |ms: u64| (1_000..=86_400_000).contains(&ms);
    let valid = match tc {
        TimeControl::PerMove { per_move_ms } => ok(per_move_ms),
        TimeControl::Clock {
            initial_ms,
            increment_ms,
        } => ok(initial_ms) && increment_ms <= 3_600_000,
        TimeControl::Correspondence { days_per_move } => {
            if mode != Mode::Online {
                return Err(ApiError::invalid_request(
                    "time_control: correspondence is for online games",
                )
                .with_reason(Reason::CorrespondenceOnlineOnly));
            }
            if !TimeControl::CORRESPONDENCE_DAYS.contains(&days_per_move) {
                return Err(ApiError::invalid_request(
                    "time_control: days_per_move must be 1, 3, 7 or 14",
                )
                .with_reason(Reason::CorrespondenceDays));
            }
            true
        }
    };
    if !valid {
        return Err(ApiError::invalid_request(
            "time_control: times must be between 1 s and 24 h",
        ));
    }
    Ok(())
}

impl Hub {
    /// Refuses a display name (of a player not signed in) that passes for
    /// the site, the computer, or an account.
    pub(super) async fn refuse_impersonation(&self, name: Option<&str>) -> Result<(), ApiError> {
        let Some(name) = name.map(str::trim).filter(|n| !n.is_empty()) else {
            return Ok(());
        };
        let taken = || {
            ApiError::invalid_request(format!(
                "name: {name:?} belongs to the site or to an account; choose another, or sign in"
            ))
            .with_reason(Reason::NameReserved)
        };
        if is_site_name(name) {
            return Err(taken());
        }
        let key = name.to_string();
        if self
            .read(move |store| store.account_by_name(&key))
            .await?
            .is_some()
        {
            return Err(taken());
        }
        Ok(())
    }

    /// Creates a game.
    pub async fn create(
        self: &Arc<Self>,
        req: NewGame,
        user: Option<&User>,
    ) -> Result<Seated, ApiError> {
        let mode = req.mode;
        if req.rated && mode != Mode::Online {
            return Err(ApiError::invalid_request(
                "rated: only online games are rated",
            ));
        }
        if req.rated && user.is_none() {
            return Err(ApiError::not_signed_in("sign in to play rated games"));
        }
        if req.accounts_only && (mode != Mode::Online || user.is_none()) {
            return Err(ApiError::invalid_request(
                "accounts_only: an online game created by a signed-in player",
            )
            .with_reason(Reason::AccountsOnly));
        }
        // A rated game always has a deadline, so a player who leaves loses
        // on time instead of holding the result off for ever.
        if req.rated && req.time_control.is_none() {
            return Err(ApiError::invalid_request(
                "rated: a rated game needs a time control (a clock or a limit per move)",
            )
            .with_reason(Reason::RatedNeedsClock));
        }
        let level = match mode {
            Mode::Computer => Some(req.level.unwrap_or(3)),
            _ => None,
        };
        if let Some(l) = level.filter(|l| !(1..=10).contains(l)) {
            return Err(ApiError::invalid_request(format!(
                "level: {l} is not in 1..10"
            )));
        }
        if let Some(tc) = req.time_control {
            check_time_control(tc, mode)?;
        }
        if req.public && mode != Mode::Online {
            return Err(ApiError::invalid_request(
                "public: only online games are listed in the lobby",
            ));
        }
        let side = req.side.unwrap_or_else(|| {
            if rand::rng().random_bool(0.5) {
                Side::South
            } else {
                Side::North
            }
        });
        if user.is_none() {
            self.refuse_impersonation(req.name.as_deref()).await?;
        }
        let name = check_name(req.name, "Player")?;
        let mut tokens = HashMap::new();
        let seats: [Seat; 2] = match mode {
            // Both seats are the creator's; the game is theirs (South).
            Mode::Hotseat => {
                let (mut south, s) = Seat::human("South".into());
                let (north, n) = Seat::human("North".into());
                south.account = user.map(|u| u.id.clone());
                tokens.insert(Side::South, s.plain);
                tokens.insert(Side::North, n.plain);
                [south, north]
            }
            Mode::Computer | Mode::Online => {
                let other = Seat {
                    kind: if mode == Mode::Computer {
                        SeatKind::Computer
                    } else {
                        SeatKind::Human
                    },
                    name: match level {
                        Some(l) => format!("Computer (level {l})"),
                        None => "Open seat".into(),
                    },
                    token_hash: None,
                    devices: Vec::new(),
                    account: None,
                    rating: None,
                };
                let (mut mine, token) = Seat::human(name);
                tokens.insert(side, token.plain);
                if let Some(u) = user {
                    mine.account = Some(u.id.clone());
                    mine.name = u.username.clone();
                }
                match side {
                    Side::South => [mine, other],
                    Side::North => [other, mine],
                }
            }
        };
        let start = req.position.unwrap_or_else(Position::start);
        let (mut meta, invite) = GameMeta::new(
            mode,
            level,
            req.public,
            start,
            seats,
            req.time_control,
            self.now_ms(),
        );
        meta.rated = req.rated;
        meta.rating_range = req.rating_range;
        meta.accounts_only = req.accounts_only;
        let you = if mode == Mode::Hotseat {
            Side::South
        } else {
            side
        };
        self.create_from(meta, Vec::new(), you, tokens, invite, req.browser_engine)
            .await
    }

    /// Stores a new game and seats its creator: `tokens` are the plain seat
    /// tokens they get (the store keeps only their hashes), `invite` the
    /// game's invite code (given in the link of an online game).
    pub(super) async fn create_from(
        self: &Arc<Self>,
        meta: GameMeta,
        plies: Vec<StoredPly>,
        you: Side,
        tokens: HashMap<Side, String>,
        invite: Secret,
        browser_engine: bool,
    ) -> Result<Seated, ApiError> {
        let mut live = Live::from_stored(
            StoredGame {
                meta,
                plies: plies.clone(),
                version: 0,
                due: Default::default(),
            },
            &self.config,
        )
        .map_err(|e| ApiError::invalid_request(format!("the game cannot be played: {e}")))?;
        live.meta.browser_engine = browser_engine;
        live.sync_meta();
        let class = RatingClass::of(live.meta.time_control);
        let mut ops = Vec::new();
        for seat in live.meta.seats.iter_mut() {
            if let Some(account) = seat.account.clone() {
                if live.meta.rated {
                    seat.rating = Some(self.seat_rating(&account, class).await?);
                }
                ops.push(WriteOp::Account(AccountOp::LinkGame {
                    account_id: account,
                    game_id: live.meta.id.clone(),
                }));
            }
        }
        ops.insert(
            0,
            WriteOp::Create {
                meta: live.meta.clone(),
                plies,
                due: self.due(&live),
            },
        );
        self.write(WriteOp::All(ops)).await?;
        let id = live.meta.id.clone();
        let invite_url =
            (live.meta.mode == Mode::Online).then(|| format!("/game/{id}?invite={}", invite.plain));
        live.due = self.due(&live);
        let slot = self.insert(live);
        let mut live = slot.state.lock().await;
        self.after_change(&slot, &mut live, true);
        Ok(Seated {
            spectator_url: format!("/game/{id}"),
            id,
            tokens,
            you,
            invite_url,
            game: live.view(slot.connected()),
        })
    }

    /// A new game with the sides swapped, once the game is over; the first
    /// call creates it, the opponent's call returns their seat in it.
    pub async fn rematch(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
    ) -> Result<Seated, ApiError> {
        let slot = self.slot(id).await?;
        let mut live = self.lock_fresh(&slot).await;
        let side = live.seat(token)?;
        if !live.game.is_over() {
            return Err(ApiError::not_allowed(
                "a rematch can be offered once the game is over",
            ));
        }
        if live.meta.tournament.is_some() {
            return Err(ApiError::not_allowed(
                "a tournament game has no rematch: the tournament pairs you again",
            )
            .with_reason(Reason::TournamentGame));
        }
        let new_side = side.opponent();
        if let [Some(a), Some(b)] = live.meta.seats.clone().map(|s| s.account) {
            if self.blocked_between(a, b).await? {
                return Err(ApiError::blocked());
            }
        }
        if let Some(rid) = live.meta.rematch.clone() {
            // The store keeps no plain token: the caller gets a token of
            // its own for its seat in the new game (its other tokens,
            // if it asked before, still hold).
            drop(live);
            let rslot = self.slot(&rid).await?;
            let mut rlive = self.lock_fresh(&rslot).await;
            let seats: Vec<Side> = if rlive.meta.mode == Mode::Hotseat {
                Side::ALL.to_vec()
            } else {
                vec![new_side]
            };
            let tokens = self.add_devices(&rslot, &mut rlive, &seats).await?;
            return Ok(Seated {
                id: rid.clone(),
                tokens,
                you: new_side,
                invite_url: None,
                spectator_url: format!("/game/{rid}"),
                game: rlive.view(rslot.connected()),
            });
        }
        let old = &live.meta;
        let mut seats = [old.seats[1].clone(), old.seats[0].clone()];
        let mut tokens = HashMap::new();
        for (s, side) in seats.iter_mut().zip(Side::ALL) {
            s.devices.clear();
            if s.kind == SeatKind::Human {
                let token = Secret::new();
                s.token_hash = Some(token.hash);
                tokens.insert(side, token.plain);
            }
        }
        let (meta, invite) = GameMeta::new(
            old.mode,
            old.level,
            false,
            Position::start(),
            seats,
            old.time_control,
            self.now_ms(),
        );
        let rid = meta.id.clone();
        let you = if meta.mode == Mode::Hotseat {
            Side::South
        } else {
            new_side
        };
        // The opponent's token is not handed out: their own call mints one.
        tokens.retain(|s, _| meta.mode == Mode::Hotseat || *s == you);
        let seated = self
            .create_from(meta, Vec::new(), you, tokens, invite, false)
            .await?;
        let new_game = rid.clone();
        self.commit(&slot, &mut live, |live| {
            live.meta.rematch = Some(rid.clone());
            live.meta.updated_at = self.now_ms();
            Ok(Commit {
                op: WriteOp::Meta(live.meta.clone()),
                announce: vec![Announce::Rematch(rid)],
                new_position: false,
            })
        })
        .await?;
        // The opponent is told, in case they left the page.
        self.tell_seat(
            &live,
            side.opponent(),
            crate::model::notification::Kind::Rematch,
            &new_game,
            None,
        );
        Ok(seated)
    }

    /// Mints a token of its own for each of `sides` (taken seats) and
    /// stores their hashes: the plain tokens go to the caller only.
    async fn add_devices(
        self: &Arc<Self>,
        slot: &Arc<super::Slot>,
        live: &mut Live,
        sides: &[Side],
    ) -> Result<HashMap<Side, String>, ApiError> {
        let mut tokens = HashMap::new();
        self.commit(slot, live, |live| {
            for &side in sides {
                let seat = &mut live.meta.seats[side.index()];
                if seat.token_hash.is_some() {
                    tokens.insert(side, seat.add_device().plain);
                }
            }
            Ok(Commit {
                op: WriteOp::Meta(live.meta.clone()),
                announce: Vec::new(),
                new_position: false,
            })
        })
        .await?;
        Ok(tokens)
    }

    /// `POST /games/{id}/seat`: a signed-in player's seats in one of their
    /// games, with a fresh token for this device (both seats of their
    /// hot-seat games). The store keeps only hashes, so a game started on
    /// one device is resumed on another this way.
    pub async fn claim_seats(self: &Arc<Self>, id: &str, user: &User) -> Result<Seated, ApiError> {
        let slot = self.slot(id).await?;
        let mut live = self.lock_fresh(&slot).await;
        let mine =
            |s: &Side| live.meta.seats[s.index()].account.as_deref() == Some(user.id.as_str());
        let mut sides: Vec<Side> = Side::ALL.into_iter().filter(mine).collect();
        let Some(&you) = sides.first() else {
            return Err(
                ApiError::not_allowed("your account holds no seat in this game")
                    .with_reason(Reason::NotYourGame),
            );
        };
        if live.meta.mode == Mode::Hotseat {
            sides = Side::ALL.to_vec();
        }
        let tokens = self.add_devices(&slot, &mut live, &sides).await?;
        Ok(Seated {
            id: id.to_string(),
            tokens,
            you,
            invite_url: None,
            spectator_url: format!("/game/{id}"),
            game: live.view(slot.connected()),
        })
    }

    /// Imports an OGN record as a hot-seat game.
    pub async fn import(self: &Arc<Self>, record: Record) -> Result<Seated, ApiError> {
        let name = |tag: &str, default: &str| {
            record
                .tag(tag)
                .filter(|n| n != "?" && !n.trim().is_empty())
                .map(|n| {
                    n.chars()
                        .filter(|c| !c.is_control() && !is_invisible(*c))
                        .take(40)
                        .collect()
                })
                .unwrap_or_else(|| default.to_string())
        };
        let (south, s) = Seat::human(name("South", "South"));
        let (north, n) = Seat::human(name("North", "North"));
        let tokens = HashMap::from([(Side::South, s.plain), (Side::North, n.plain)]);
        let game = record.game();
        let (mut meta, invite) = GameMeta::new(
            Mode::Hotseat,
            None,
            false,
            *game.start(),
            [south, north],
            None,
            self.now_ms(),
        );
        meta.result = game.outcome().copied();
        let plies = game
            .plies()
            .iter()
            .map(|&p| StoredPly {
                text: ply_text(p),
                clock: None,
                at: meta.created_at,
            })
            .collect();
        self.create_from(meta, plies, Side::South, tokens, invite, false)
            .await
    }

    /// A player's rating in `class`, as shown beside their name.
    pub(super) async fn seat_rating(
        &self,
        account: &str,
        class: RatingClass,
    ) -> Result<SeatRating, ApiError> {
        let id = account.to_string();
        let rows = self.read(move |store| store.ratings(&id)).await?;
        let r = rows
            .into_iter()
            .find(|r| r.class == class)
            .map(|r| r.rating)
            .unwrap_or_default();
        Ok(SeatRating {
            rating: r.rating.round() as i32,
            provisional: r.provisional(),
        })
    }

    /// Game `id` without account `account`: its seats become anonymous
    /// (when the account is deleted; the game itself stays).
    pub async fn anonymise(self: &Arc<Self>, id: &str, account: &str) -> Result<(), ApiError> {
        let slot = self.slot(id).await?;
        let mut live = self.lock_fresh(&slot).await;
        // A game under way against someone is resigned for the leaving
        // player first: a rated game keeps a result, and rates the
        // opponent, instead of turning unrated.
        let leaving = Side::ALL
            .into_iter()
            .find(|s| live.meta.seats[s.index()].account.as_deref() == Some(account));
        if let Some(side) = leaving {
            let opponent_seated = live.meta.seats[side.opponent().index()]
                .token_hash
                .is_some();
            if live.meta.mode == Mode::Online && opponent_seated && !live.game.is_over() {
                self.end_off_board(&slot, &mut live, |g| g.resign(side))
                    .await?;
            }
        }
        self.commit(&slot, &mut live, |live| {
            for seat in live.meta.seats.iter_mut() {
                if seat.account.as_deref() == Some(account) {
                    seat.account = None;
                    seat.rating = None;
                    seat.name = "Deleted player".into();
                }
            }
            Ok(Commit {
                op: WriteOp::Meta(live.meta.clone()),
                announce: vec![Announce::Presence],
                new_position: false,
            })
        })
        .await
    }
}
