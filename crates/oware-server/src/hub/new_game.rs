//! New games: created from a request, imported from an OGN record, or a
//! rematch of a finished game; and the names players give themselves.

use std::sync::Arc;

use oware_core::{Position, Record, Side};
use rand::Rng;

use super::{Announce, Commit, Hub, Live};
use crate::accounts::ratings::RatingClass;
use crate::accounts::{AccountOp, User};
use crate::error::ApiError;
use crate::model::*;
use crate::protocol::views::ply_text;
use crate::protocol::Seated;
use crate::store::{StoredGame, StoredPly, WriteOp};

/// What a new game asks for (`POST /api/v1/games`), parsed.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// Mode.
    pub mode: Mode,
    /// Level 1..=10 (computer games; 3 when absent).
    pub level: Option<u8>,
    /// `Some(side)` or `None` for drawing lots.
    pub side: Option<Side>,
    /// Display name.
    pub name: Option<String>,
    /// Time control.
    pub time_control: Option<TimeControl>,
    /// Start position.
    pub position: Option<Position>,
    /// Listed in the lobby.
    pub public: bool,
    /// Rated (online games between two signed-in players).
    pub rated: bool,
    /// The ratings the game accepts from the player who joins.
    pub rating_range: Option<RatingRange>,
}

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

/// Characters that change how the text around them is shown without being
/// seen themselves: direction overrides and isolates (which can make a
/// name read backwards), zero-width and other invisible format characters.
pub(super) fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}'
        | '\u{FFA0}' | '\u{FFF0}'..='\u{FFFB}' | '\u{E0000}'..='\u{E0FFF}')
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

pub(super) fn human(name: String) -> Seat {
    Seat {
        kind: SeatKind::Human,
        name,
        token: Some(new_token()),
        account: None,
        rating: None,
    }
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
            .with_reason("name_reserved")
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
        // A rated game always has a deadline, so a player who leaves loses
        // on time instead of holding the result off for ever.
        if req.rated && req.time_control.is_none() {
            return Err(ApiError::invalid_request(
                "rated: a rated game needs a time control (a clock or a limit per move)",
            )
            .with_reason("rated_needs_clock"));
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
            if mode == Mode::Computer {
                return Err(ApiError::invalid_request(
                    "time_control: only online and hot-seat games have one",
                ));
            }
            let ok = |ms: u64| (1_000..=86_400_000).contains(&ms);
            let valid = match tc {
                TimeControl::PerMove { per_move_ms } => ok(per_move_ms),
                TimeControl::Clock {
                    initial_ms,
                    increment_ms,
                } => ok(initial_ms) && increment_ms <= 3_600_000,
            };
            if !valid {
                return Err(ApiError::invalid_request(
                    "time_control: times must be between 1 s and 24 h",
                ));
            }
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
        let seats: [Seat; 2] = match mode {
            // Both seats are the creator's; the game is theirs (South).
            Mode::Hotseat => {
                let mut south = human("South".into());
                south.account = user.map(|u| u.id.clone());
                [south, human("North".into())]
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
                    token: None,
                    account: None,
                    rating: None,
                };
                let mut mine = human(name);
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
        let mut meta = GameMeta::new(mode, level, req.public, start, seats, req.time_control);
        meta.rated = req.rated;
        meta.rating_range = req.rating_range;
        let you = if mode == Mode::Hotseat {
            Side::South
        } else {
            side
        };
        self.create_from(meta, Vec::new(), you).await
    }

    async fn create_from(
        self: &Arc<Self>,
        meta: GameMeta,
        plies: Vec<StoredPly>,
        you: Side,
    ) -> Result<Seated, ApiError> {
        let mut live = Live::from_stored(StoredGame {
            meta,
            plies: plies.clone(),
            version: 0,
            due: Default::default(),
        })
        .map_err(|e| ApiError::invalid_request(format!("the game cannot be played: {e}")))?;
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
        let tokens = live.tokens_for(you);
        let id = live.meta.id.clone();
        let invite_url = (live.meta.mode == Mode::Online)
            .then(|| format!("/game/{id}?invite={}", live.meta.invite));
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
        let new_side = side.opponent();
        if let Some(rid) = live.meta.rematch.clone() {
            drop(live);
            let rslot = self.slot(&rid).await?;
            let rlive = rslot.state.lock().await;
            return Ok(Seated {
                id: rid.clone(),
                tokens: rlive.tokens_for(new_side),
                you: new_side,
                invite_url: None,
                spectator_url: format!("/game/{rid}"),
                game: rlive.view(rslot.connected()),
            });
        }
        let old = &live.meta;
        let mut seats = [old.seats[1].clone(), old.seats[0].clone()];
        for s in &mut seats {
            if s.kind == SeatKind::Human {
                s.token = Some(new_token());
            }
        }
        let meta = GameMeta::new(
            old.mode,
            old.level,
            false,
            Position::start(),
            seats,
            old.time_control,
        );
        let rid = meta.id.clone();
        let you = if meta.mode == Mode::Hotseat {
            Side::South
        } else {
            new_side
        };
        let seated = self.create_from(meta, Vec::new(), you).await?;
        self.commit(&slot, &mut live, |live| {
            live.meta.rematch = Some(rid.clone());
            live.meta.updated_at = now_ms();
            Ok(Commit {
                op: WriteOp::Meta(live.meta.clone()),
                announce: vec![Announce::Rematch(rid)],
                new_position: false,
            })
        })
        .await?;
        Ok(seated)
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
        let seats = [human(name("South", "South")), human(name("North", "North"))];
        let game = record.game();
        let mut meta = GameMeta::new(Mode::Hotseat, None, false, *game.start(), seats, None);
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
        self.create_from(meta, plies, Side::South).await
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
            let opponent_seated = live.meta.seats[side.opponent().index()].token.is_some();
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
