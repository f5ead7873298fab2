//! What players do to games: create, join, play, take back, resign, agree,
//! rematch, import and watch. Each stored change goes through
//! [`Hub::commit`].

use crate::error::Reason;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use axum::extract::ws::Utf8Bytes;
use oware_core::{Game, GameError, Move, Outcome, Ply, Record, Side};
use tokio::sync::broadcast;

use super::new_game::check_name;
use super::{Announce, Commit, Hub, Live, Slot};
use crate::accounts::ratings::RatingClass;
use crate::accounts::User;
use crate::error::ApiError;
use crate::model::notification::Kind as NoteKind;
use crate::model::*;
use crate::protocol::views::{ply_text, GameView, Summary};
use crate::protocol::Seated;
use crate::store::account_rows::AccountOp;
use crate::store::{Listing, StoredPly, WriteOp};

/// What a seat does to a game in progress ([`Hub::apply`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// A move, with the number of plies already played.
    Move {
        /// The move.
        mv: Move,
        /// Plies played before it.
        ply: u32,
    },
    /// The computer's move, found by the engine of the player's browser
    /// (untimed computer games), with the number of plies already played.
    ComputerMove {
        /// The move.
        mv: Move,
        /// Plies played before it.
        ply: u32,
    },
    /// Which engine plays the computer's moves: the player's browser
    /// (true) or the server (false).
    Engine {
        /// The browser's.
        browser: bool,
    },
    /// Take back (computer and untimed hot-seat games).
    Undo,
    /// Resign.
    Resign,
    /// Offer, accept or decline an end by agreement.
    Agreement(OfferAction),
    /// Withdraw a seek nobody has taken yet.
    Cancel,
    /// Call off an online game before each side has moved.
    Abort,
    /// Ask to take one's last move back (online), or answer the
    /// opponent's request.
    Takeback(OfferAction),
    /// Prepare replies (correspondence, the opponent to move at `ply`):
    /// for each expected move of the opponent, the reply to play at once.
    /// None clears them.
    Conditional {
        /// Plies played (the opponent's move comes next).
        ply: u32,
        /// (the opponent's move, the reply).
        replies: Vec<(Move, Move)>,
    },
}

impl Hub {
    /// The game's view.
    pub async fn view(self: &Arc<Self>, id: &str) -> Result<GameView, ApiError> {
        let slot = self.slot(id).await?;
        let live = self.lock_fresh(&slot).await;
        Ok(live.view(slot.connected()))
    }

    /// The game's summary, as in lists.
    pub async fn summary(self: &Arc<Self>, id: &str) -> Result<Summary, ApiError> {
        let slot = self.slot(id).await?;
        let live = self.lock_fresh(&slot).await;
        Ok(crate::protocol::views::Summary::of(&live.meta))
    }

    /// Lists games.
    pub async fn list(
        &self,
        which: Listing,
        limit: u32,
        offset: u32,
    ) -> Result<(Vec<Summary>, u64), ApiError> {
        let (games, total) = self
            .read(move |store| store.list(which, limit, offset))
            .await?;
        let mut out = Vec::with_capacity(games.len());
        // A seek nobody took leaves the lobby after a while.
        let oldest = self.now_ms() - crate::limits::SEEK_TTL.as_millis() as i64;
        for g in games {
            if which == Listing::Lobby && g.meta.created_at < oldest {
                continue;
            }
            let id = g.meta.id.clone();
            match Live::from_stored(g, &self.config) {
                Ok(live) => out.push(crate::protocol::views::Summary::of(&live.meta)),
                Err(e) => tracing::error!("game {id} cannot be replayed: {e}"),
            }
        }
        Ok((out, total))
    }

    /// Takes the free seat of an online game.
    pub async fn join(
        self: &Arc<Self>,
        id: &str,
        invite: Option<&str>,
        name: Option<String>,
        user: Option<&User>,
    ) -> Result<Seated, ApiError> {
        if user.is_none() {
            self.refuse_impersonation(name.as_deref()).await?;
        }
        let slot = self.slot(id).await?;
        let mut live = self.lock_fresh(&slot).await;
        if live.meta.mode != Mode::Online {
            return Err(ApiError::not_allowed("only online games can be joined"));
        }
        if !live.meta.public && !live.meta.invite_is(invite) {
            return Err(ApiError::bad_token(
                "this game needs its invite code to join",
            ));
        }
        if live.meta.cancelled {
            return Err(super::seeks::cancelled());
        }
        if live.game.is_over() {
            return Err(ApiError::game_over("the game is over"));
        }
        if live.meta.accounts_only && user.is_none() {
            return Err(ApiError::not_signed_in(
                "this game is kept to signed-in players: sign in to join it",
            ));
        }
        let side = Side::ALL
            .into_iter()
            .find(|s| live.meta.seats[s.index()].token_hash.is_none())
            .ok_or_else(|| ApiError::seat_taken("both seats are taken"))?;
        // A block between the two accounts keeps them apart.
        if let Some(u) = user {
            let others: Vec<String> = live
                .meta
                .seats
                .iter()
                .filter_map(|s| s.account.clone())
                .collect();
            for o in others {
                if self.blocked_between(u.id.clone(), o).await? {
                    return Err(ApiError::blocked());
                }
            }
        }
        let name = check_name(name, "Guest")?;
        let (mut seat, token) = Seat::human(name);
        if live.meta.rated {
            let user =
                user.ok_or_else(|| ApiError::not_signed_in("sign in to play rated games"))?;
            if live
                .meta
                .seats
                .iter()
                .any(|s| s.account.as_deref() == Some(user.id.as_str()))
            {
                return Err(
                    ApiError::not_allowed("a rated game needs two different players")
                        .with_reason(Reason::SamePlayer),
                );
            }
            let class = RatingClass::of(live.meta.time_control);
            let rating = self.seat_rating(&user.id, class).await?;
            if let Some(range) = live.meta.rating_range {
                if !(range.min..=range.max).contains(&rating.rating) {
                    return Err(ApiError::not_allowed(format!(
                        "this game is for players rated {} to {}; you are rated {}",
                        range.min, range.max, rating.rating
                    ))
                    .with_reason(Reason::OutOfRange));
                }
            }
            seat.rating = Some(rating);
        }
        if let Some(u) = user {
            seat.account = Some(u.id.clone());
            seat.name = u.username.clone();
        }
        let link = seat.account.clone().map(|account_id| {
            WriteOp::Account(AccountOp::LinkGame {
                account_id,
                game_id: id.to_string(),
            })
        });
        self.commit(&slot, &mut live, |live| {
            live.meta.seats[side.index()] = seat;
            live.meta.updated_at = self.now_ms();
            let meta = WriteOp::Meta(live.meta.clone());
            Ok(Commit {
                op: match link {
                    Some(link) => WriteOp::All(vec![meta, link]),
                    None => meta,
                },
                announce: vec![Announce::Presence, Announce::Clock],
                new_position: false,
            })
        })
        .await?;
        Ok(Seated {
            id: id.to_string(),
            tokens: [(side, token.plain)].into(),
            you: side,
            invite_url: None,
            spectator_url: format!("/game/{id}"),
            game: live.view(slot.connected()),
        })
    }

    /// The one way a seat acts on a game, for HTTP and the WebSocket
    /// alike: the game is locked and brought up to date with the store
    /// ([`Hub::lock_fresh`]), the seat checked, the command done through
    /// [`Hub::commit`]. Resolves once the change is stored, with the game
    /// still locked (to build the answer from).
    pub async fn apply<'a>(
        self: &Arc<Self>,
        slot: &'a Arc<Slot>,
        token: Option<&str>,
        command: Command,
    ) -> Result<tokio::sync::MutexGuard<'a, Live>, ApiError> {
        let mut live = self.lock_fresh(slot).await;
        if live.meta.cancelled {
            return Err(super::seeks::cancelled());
        }
        match command {
            Command::Move { mv, ply } => self.play(slot, &mut live, token, mv, ply).await,
            Command::ComputerMove { mv, ply } => {
                self.computer_move(slot, &mut live, token, mv, ply).await
            }
            Command::Engine { browser } => {
                self.choose_engine(slot, &mut live, token, browser).await
            }
            Command::Undo => self.undo(slot, &mut live, token).await,
            Command::Resign => self.resign(slot, &mut live, token).await,
            Command::Agreement(action) => self.agreement(slot, &mut live, token, action).await,
            Command::Cancel => {
                live.seat(token)?;
                self.cancel_seek(slot, &mut live).await
            }
            Command::Abort => {
                live.seat(token)?;
                self.abort(slot, &mut live).await
            }
            Command::Takeback(action) => self.takeback(slot, &mut live, token, action).await,
            Command::Conditional { ply, replies } => {
                self.prepare(slot, &mut live, token, ply, replies).await
            }
        }?;
        Ok(live)
    }

    /// The replies the seat `token` holds has prepared in game `id`.
    pub async fn prepared(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
    ) -> Result<crate::protocol::views::Prepared, ApiError> {
        let slot = self.slot(id).await?;
        let live = self.lock_fresh(&slot).await;
        let side = live.seat(token)?;
        Ok(crate::protocol::views::Prepared::of(&live.meta, side))
    }

    /// [`Hub::apply`] on game `id`, answered with the game's view.
    pub async fn apply_to(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        command: Command,
    ) -> Result<GameView, ApiError> {
        let slot = self.slot(id).await?;
        let live = self.apply(&slot, token, command).await?;
        Ok(live.view(slot.connected()))
    }

    /// Plays a move for the seat `token` holds; `ply` must be the number of
    /// plies already played.
    async fn play(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        live: &mut Live,
        token: Option<&str>,
        mv: Move,
        ply: u32,
    ) -> Result<(), ApiError> {
        let side = live.seat(token)?;
        self.expire_if_due(slot, live).await;
        if live.game.is_over() {
            return Err(ApiError::game_over("the game is over"));
        }
        expect_ply(live, ply)?;
        if live.meta.status() == GameStatus::Waiting {
            return Err(ApiError::not_allowed(
                "the game has not started: a seat is still free",
            ));
        }
        if side != live.to_move() {
            return Err(ApiError::not_your_turn(format!(
                "it is {}'s turn",
                live.to_move()
            )));
        }
        if mv.side() != side {
            return Err(ApiError::illegal(mv, oware_core::IllegalMove::NotYourHouse));
        }
        // The opponent's reply to this move, if they prepared one.
        let prepared = live
            .meta
            .conditional
            .as_ref()
            .filter(|c| c.side != side && c.ply == ply)
            .and_then(|c| c.replies.iter().find(|(m, _)| *m == mv))
            .map(|&(_, reply)| reply);
        self.commit_ply(slot, live, Ply::Move(mv)).await?;
        if let Some(reply) = prepared {
            if !live.game.is_over() && live.to_move() != side {
                // Checked legal when prepared, against this very position.
                if let Err(e) = self.commit_ply(slot, live, Ply::Move(reply)).await {
                    tracing::warn!(
                        "game {}: prepared reply {reply} not played: {e}",
                        live.meta.id
                    );
                }
            }
        }
        Ok(())
    }

    /// Stores the replies the seat prepares for the opponent's next move
    /// (correspondence games; each checked against the rules in the
    /// position after that move), or clears them.
    async fn prepare(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        live: &mut Live,
        token: Option<&str>,
        ply: u32,
        replies: Vec<(Move, Move)>,
    ) -> Result<(), ApiError> {
        let side = live.seat(token)?;
        if !matches!(
            live.meta.time_control,
            Some(TimeControl::Correspondence { .. })
        ) {
            return Err(
                ApiError::not_allowed("replies are prepared in correspondence games")
                    .with_reason(Reason::NotCorrespondence),
            );
        }
        if live.game.is_over() {
            return Err(ApiError::game_over("the game is over"));
        }
        expect_ply(live, ply)?;
        if live.meta.status() != GameStatus::Playing || side == live.to_move() {
            return Err(ApiError::not_allowed(
                "replies are prepared while the opponent is to move",
            )
            .with_reason(Reason::YourTurn));
        }
        for &(expected, reply) in &replies {
            let mut after = live.game.clone();
            after.play(expected)?;
            if after.is_over() {
                return Err(ApiError::game_over(format!(
                    "the game is over after {expected}"
                )));
            }
            if reply.side() != side {
                return Err(ApiError::illegal(
                    reply,
                    oware_core::IllegalMove::NotYourHouse,
                ));
            }
            after
                .position()
                .check(reply)
                .map_err(|r| ApiError::illegal(reply, r))?;
        }
        let conditional = (!replies.is_empty()).then_some(Conditional { side, ply, replies });
        self.commit(slot, live, |live| {
            live.meta.conditional = conditional;
            Ok(Commit {
                op: WriteOp::Meta(live.meta.clone()),
                announce: Vec::new(),
                new_position: false,
            })
        })
        .await
    }

    /// The player's browser engine may play the computer's moves: an
    /// untimed computer game, asked by the seat holder.
    fn browser_may_play(live: &Live, token: Option<&str>) -> Result<(), ApiError> {
        live.seat(token)?;
        if live.meta.mode != Mode::Computer || live.meta.time_control.is_some() {
            return Err(ApiError::not_allowed(
                "only untimed computer games take the computer's moves from the browser",
            )
            .with_reason(Reason::Engine));
        }
        Ok(())
    }

    /// Plays the computer's move found by the player's browser engine, and
    /// leaves the computer's next moves to it (docs/WEB.md, "Which engine
    /// answers"): the server's engine, if it was searching, is stopped.
    async fn computer_move(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        live: &mut Live,
        token: Option<&str>,
        mv: Move,
        ply: u32,
    ) -> Result<(), ApiError> {
        Self::browser_may_play(live, token)?;
        if live.game.is_over() {
            return Err(ApiError::game_over("the game is over"));
        }
        expect_ply(live, ply)?;
        if !live.computer_to_move() {
            return Err(ApiError::not_your_turn("it is not the computer's turn"));
        }
        if mv.side() != live.to_move() {
            return Err(ApiError::illegal(mv, oware_core::IllegalMove::NotYourHouse));
        }
        self.commit_move(slot, live, Ply::Move(mv), true).await
    }

    /// Gives the computer's moves to the player's browser engine, or back
    /// to the server's (a browser whose engine failed). The choice is
    /// stored with the game's metadata; once stored, the server's search
    /// stops, or starts (`Hub::commit`'s `after_change`) if it is the
    /// computer's turn.
    async fn choose_engine(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        live: &mut Live,
        token: Option<&str>,
        browser: bool,
    ) -> Result<(), ApiError> {
        Self::browser_may_play(live, token)?;
        if live.meta.browser_engine != browser {
            self.commit(slot, live, |live| {
                live.meta.browser_engine = browser;
                Ok(Commit {
                    op: WriteOp::Meta(live.meta.clone()),
                    announce: Vec::new(),
                    new_position: false,
                })
            })
            .await?;
        }
        if browser && live.thinking() {
            live.stop_engine();
            slot.send(super::engine::thinking(live, live.to_move(), false));
        }
        Ok(())
    }

    /// Plays a ply (a move, or a turn lost to the per-move limit): the
    /// rules, the clock, the store, then the `move` (and `end`) events.
    pub(crate) async fn commit_ply(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        live: &mut Live,
        ply: Ply,
    ) -> Result<(), ApiError> {
        self.commit_move(slot, live, ply, false).await
    }

    /// Plays a ply; with `by_browser`, a computer's move found by the
    /// player's browser engine, which plays the computer's moves from
    /// then on (stored with the ply when that is new).
    async fn commit_move(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        live: &mut Live,
        ply: Ply,
        by_browser: bool,
    ) -> Result<(), ApiError> {
        self.commit(slot, live, |live| {
            let claimed = by_browser && !live.meta.browser_engine;
            live.meta.browser_engine |= by_browser;
            let side = live.to_move();
            match ply {
                Ply::Move(mv) => live.game.play(mv).map(|_| ())?,
                Ply::Pass => live.game.pass()?,
            }
            if let Some(clock) = live.clock_mut() {
                clock.after_ply(side, ply == Ply::Pass, self.time().now());
            }
            // A move answers any standing offer or take-back request, and
            // ends the prepared replies (played or not).
            let had_offer = live.meta.offer.take().is_some()
                | live.meta.takeback.take().is_some()
                | live.meta.conditional.take().is_some();
            live.sync_meta();
            live.push_clock();
            let index = live.ply() - 1;
            let over = live.game.is_over();
            // The games row changes only when the status or an offer does;
            // a plain ply is one small row (the listings replay the plies).
            let op = WriteOp::Ply {
                id: live.meta.id.clone(),
                meta: (had_offer || over || claimed).then(|| live.meta.clone()),
                index,
                ply: StoredPly {
                    text: ply_text(ply),
                    clock: live.last_clock(),
                    at: live.meta.updated_at,
                },
            };
            let mut announce = vec![Announce::Ply(index as usize)];
            if over {
                announce.push(Announce::End);
            }
            Ok(Commit {
                op,
                announce,
                new_position: true,
            })
        })
        .await
    }

    /// Takes back moves: in computer games the player's last move and the
    /// engine's answer; in hot-seat games one ply.
    async fn undo(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        live: &mut Live,
        token: Option<&str>,
    ) -> Result<(), ApiError> {
        let side = live.seat(token)?;
        match live.meta.mode {
            Mode::Online => {
                return Err(ApiError::not_allowed(
                    "moves cannot be taken back in online games",
                ))
            }
            _ if live.meta.time_control.is_some() => {
                return Err(ApiError::not_allowed(
                    "moves cannot be taken back in games with a time control",
                ))
            }
            _ => {}
        }
        // In a hot-seat game one ply; otherwise back to the player's turn
        // (their last move and the computer's answer). The rule is the
        // session layer's, shared with the terminal game.
        let whose = (live.meta.mode != Mode::Hotseat).then_some(side);
        self.commit(slot, live, |live| {
            let taken = oware_session::take_back(&mut live.game, whose)
                .map_err(|e| ApiError::not_allowed(e.to_string()).with_core_reason(e.code()))?;
            let from = live.ply();
            live.truncate_clock(from as usize);
            live.meta.offer = None;
            live.sync_meta();
            let op = match taken {
                oware_session::TakenBack::Reopened => WriteOp::Meta(live.meta.clone()),
                oware_session::TakenBack::Plies(_) => WriteOp::Truncate {
                    meta: live.meta.clone(),
                    from,
                },
            };
            Ok(Commit {
                op,
                announce: vec![Announce::State],
                new_position: true,
            })
        })
        .await
    }

    /// The seat `token` holds resigns.
    async fn resign(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        live: &mut Live,
        token: Option<&str>,
    ) -> Result<(), ApiError> {
        let side = live.seat(token)?;
        self.end_off_board(slot, live, |g| g.resign(side)).await
    }

    /// Ends the game other than by a move (resignation, agreement).
    pub(crate) async fn end_off_board(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        live: &mut Live,
        end: impl FnOnce(&mut Game) -> Result<Outcome, GameError>,
    ) -> Result<(), ApiError> {
        self.expire_if_due(slot, live).await;
        self.commit(slot, live, |live| {
            end(&mut live.game)?;
            Ok(Commit::ended(live))
        })
        .await
    }

    /// Offers, accepts or declines an end by agreement (R12).
    async fn agreement(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        live: &mut Live,
        token: Option<&str>,
        action: OfferAction,
    ) -> Result<(), ApiError> {
        let side = live.seat(token)?;
        if live.game.is_over() {
            return Err(ApiError::game_over("the game is over"));
        }
        let opponent_offered = live.meta.offer == Some(side.opponent());
        match action {
            // Offering when the opponent has offered is accepting.
            OfferAction::Accept | OfferAction::Offer if opponent_offered => {
                self.end_off_board(slot, live, |g| g.agree_to_stop()).await
            }
            OfferAction::Accept | OfferAction::Decline if !opponent_offered => Err(
                ApiError::not_allowed("there is no offer from the opponent to answer"),
            ),
            OfferAction::Offer if live.meta.offer == Some(side) => Ok(()),
            OfferAction::Offer if live.meta.mode == Mode::Computer => {
                self.computer_answers_offer(slot, live, side).await
            }
            _ => {
                let offer = (action == OfferAction::Offer).then_some(side);
                self.commit(slot, live, |live| {
                    live.meta.offer = offer;
                    live.meta.updated_at = self.now_ms();
                    Ok(Commit {
                        op: WriteOp::Meta(live.meta.clone()),
                        announce: vec![Announce::Offer(side, action)],
                        new_position: false,
                    })
                })
                .await
            }
        }
    }

    /// A take-back between people online: one side asks, the other
    /// accepts (the game goes back to the asker's turn, as the session's
    /// take-back rule says) or declines. Casual games only; a move by
    /// either side answers the request.
    async fn takeback(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        live: &mut Live,
        token: Option<&str>,
        action: OfferAction,
    ) -> Result<(), ApiError> {
        let side = live.seat(token)?;
        if live.meta.mode != Mode::Online {
            return Err(
                ApiError::not_allowed("take-back requests are for online games; use undo")
                    .with_reason(Reason::NotOnline),
            );
        }
        if live.meta.rated {
            return Err(
                ApiError::not_allowed("moves cannot be taken back in rated games")
                    .with_reason(Reason::Rated),
            );
        }
        if live.game.is_over() || live.meta.status() != GameStatus::Playing {
            return Err(ApiError::game_over("the game is not under way"));
        }
        let asked = live.meta.takeback;
        match action {
            // Asking when the opponent has asked is accepting.
            OfferAction::Accept | OfferAction::Offer if asked == Some(side.opponent()) => {
                let asker = side.opponent();
                self.commit(slot, live, |live| {
                    oware_session::take_back(&mut live.game, Some(asker)).map_err(|e| {
                        ApiError::not_allowed(e.to_string()).with_core_reason(e.code())
                    })?;
                    let from = live.ply();
                    live.truncate_clock(from as usize);
                    live.meta.takeback = None;
                    live.meta.offer = None;
                    live.sync_meta();
                    Ok(Commit {
                        op: WriteOp::Truncate {
                            meta: live.meta.clone(),
                            from,
                        },
                        announce: vec![Announce::State],
                        new_position: true,
                    })
                })
                .await
            }
            OfferAction::Accept | OfferAction::Decline if asked != Some(side.opponent()) => Err(
                ApiError::not_allowed("there is no take-back request from the opponent to answer")
                    .with_reason(Reason::NoRequest),
            ),
            OfferAction::Offer if asked == Some(side) => Ok(()),
            _ => {
                if action == OfferAction::Offer {
                    // Something of this side's to take back.
                    oware_session::plan_take_back(&live.game, Some(side)).map_err(|e| {
                        ApiError::not_allowed(e.to_string()).with_core_reason(e.code())
                    })?;
                }
                let request = (action == OfferAction::Offer).then_some(side);
                self.commit(slot, live, |live| {
                    live.meta.takeback = request;
                    live.meta.updated_at = self.now_ms();
                    Ok(Commit {
                        op: WriteOp::Meta(live.meta.clone()),
                        announce: vec![Announce::Takeback(side, action)],
                        new_position: false,
                    })
                })
                .await?;
                if request.is_some() {
                    // The opponent is told, in case they left the page.
                    let id = live.meta.id.clone();
                    self.tell_seat(live, side.opponent(), NoteKind::Takeback, &id, None);
                }
                Ok(())
            }
        }
    }

    /// The game as an OGN record.
    pub async fn ogn(self: &Arc<Self>, id: &str) -> Result<String, ApiError> {
        let slot = self.slot(id).await?;
        let live = slot.state.lock().await;
        let tags = [
            (
                "Event",
                format!("oware serve, {} game", live.meta.mode.as_str()),
            ),
            ("Site", "oware serve".to_string()),
            ("Date", ogn_date(live.meta.created_at)),
            ("South", live.meta.seats[0].name.clone()),
            ("North", live.meta.seats[1].name.clone()),
        ];
        let tags: Vec<(&str, &str)> = tags.iter().map(|(k, v)| (*k, v.as_str())).collect();
        Ok(Record::from_game(live.game.clone(), &tags).write())
    }

    /// Opens a watcher of game `id`: the seat (if the token holds one), the
    /// connect-time state and the event receiver. Counts the connection.
    pub async fn watch(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        account: Option<&str>,
    ) -> Result<Watcher, ApiError> {
        let slot = self.slot(id).await?;
        let live = self.lock_fresh(&slot).await;
        let side = match token.filter(|t| !t.is_empty()) {
            None => None,
            Some(_) => Some(live.seat(token)?),
        };
        let events = slot.events.subscribe();
        let spectator_events = (side.is_none() && live.spectators_room_open_to(account))
            .then(|| slot.spectator_events.subscribe());
        if let Some(s) = side {
            if slot.connected[s.index()].fetch_add(1, Ordering::Relaxed) == 0 {
                slot.send(live.presence_event(slot.connected()));
                self.publish_presence(std::slice::from_ref(&slot));
            }
            self.seat_back(&slot, &live, s);
        }
        let state = live.state_event(slot.connected(), Some(side));
        drop(live);
        Ok(Watcher {
            slot,
            side,
            state,
            events,
            spectator_events,
        })
    }

    /// A watcher left.
    pub async fn unwatch(self: &Arc<Self>, slot: &Arc<Slot>, side: Option<Side>) {
        if let Some(s) = side {
            if slot.connected[s.index()].fetch_sub(1, Ordering::Relaxed) == 1 {
                let live = slot.state.lock().await;
                // Its grace is counted from now, before anyone hears of it.
                self.seat_left(slot, &live, s);
                slot.send(live.presence_event(slot.connected()));
                self.publish_presence(std::slice::from_ref(slot));
            }
        }
    }
}

/// A connection watching a game.
pub struct Watcher {
    /// The game.
    pub slot: Arc<Slot>,
    /// The seat its token holds, if any.
    pub side: Option<Side>,
    /// The connect-time `state` event.
    pub state: Utf8Bytes,
    /// The game's events.
    pub events: broadcast::Receiver<Utf8Bytes>,
    /// The spectators' chat (spectators who may read it: see
    /// [`Live::spectators_room_open_to`]).
    pub spectator_events: Option<broadcast::Receiver<Utf8Bytes>>,
}

/// Refuses an action made for another ply than the game's (`stale_ply`).
fn expect_ply(live: &Live, ply: u32) -> Result<(), ApiError> {
    if ply != live.ply() {
        return Err(ApiError::stale_ply(format!(
            "ply {ply} given, but {} plies have been played",
            live.ply()
        )));
    }
    Ok(())
}
