//! `POST /api/v1/account/offline-games`: a finished game played on the
//! player's device without the network (the web app's local games, kept in
//! IndexedDB: docs/WEB.md, "Offline and installable"), stored in the
//! signed-in player's account as an unrated game.
//!
//! - **Typed and replayed.** The request is parsed once into a typed
//!   [`OfflineGame`]; its moves are replayed through the rules core from
//!   its start position, and the ending off the board (agreement,
//!   resignation) applied by the core too. A game that is not over is
//!   refused (`not_finished`).
//! - **Idempotent.** The device gives each game a random id (`client_id`,
//!   24 hex digits); the stored game's id is made from it (`dev` + the
//!   digits), so sending the same game twice stores it once: the second
//!   answer names the same game with `"created": false`. An id already
//!   used by another account is refused (`not_yours`).
//! - **Rate-limited** as the creation of any game (`Cost::Game`), per
//!   address and per account, before any work (the body is parsed as
//!   JSON, within the API's body limit, but no move is replayed before the
//!   upload is counted).
//! - **Marked**: never rated, private (in no public list, on no
//!   profile), and shown as played offline and not verified (`offline`,
//!   `verified: false` in the game's view and summaries): the server
//!   replayed the moves but did not see them played, so it does not vouch
//!   for the result. The player's seat is the account's (both seats of a
//!   game between two people at one device, South's linked as for a
//!   hot-seat game created online).

use crate::error::Reason;
use crate::protocol::incoming::OfflineGameReq;
use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use oware_core::{Game, Position, Side};
use serde::Serialize;

use crate::accounts::User;
use crate::error::ApiError;
use crate::http::JsonBody;
use crate::hub::offline::OfflineGame;
use crate::hub::Hub;
use crate::limits::{ClientAddr, ClientKeys, Cost, Limiter};
use crate::model::Mode;

/// The routes of this module.
pub fn routes() -> Router<crate::state::AppState> {
    Router::new().route("/api/v1/account/offline-games", post(upload))
}

/// The most plies an uploaded game may have.
pub const MAX_PLIES: usize = 1_000;

fn refuse(reason: Reason, message: impl Into<String>) -> ApiError {
    ApiError::invalid_request(message).with_reason(reason)
}

fn side_of(s: &str) -> Result<Side, ApiError> {
    match s {
        "S" => Ok(Side::South),
        "N" => Ok(Side::North),
        _ => Err(refuse(Reason::BadSide, format!("side: S or N, not {s:?}"))),
    }
}

impl OfflineGameReq {
    /// Checks the request: the id, the mode and level, and the game
    /// replayed through the rules core to its end.
    pub fn parse(&self) -> Result<OfflineGame, ApiError> {
        let id = &self.client_id;
        if id.len() != 24 || !id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
            return Err(refuse(
                Reason::BadClientId,
                "client_id: 24 lowercase hex digits",
            ));
        }
        let (mode, level) = match (self.mode.as_str(), self.level) {
            ("computer", Some(l)) if (1..=10).contains(&l) => (Mode::Computer, Some(l)),
            ("computer", l) => {
                return Err(refuse(
                    Reason::BadLevel,
                    format!("level: 1 to 10 for a computer game, not {l:?}"),
                ))
            }
            ("hotseat", None) => (Mode::Hotseat, None),
            ("hotseat", Some(_)) => {
                return Err(refuse(Reason::BadLevel, "level: only for computer games"))
            }
            (m, _) => {
                return Err(refuse(
                    Reason::BadMode,
                    format!("mode: computer or hotseat, not {m:?}"),
                ))
            }
        };
        let side = match (mode, self.side.as_deref()) {
            (Mode::Computer, Some(s)) => side_of(s)?,
            (Mode::Computer, None) => return Err(refuse(Reason::BadSide, "side: S or N")),
            (_, _) => Side::South,
        };
        let start = match self.position.as_deref() {
            None | Some("start") => Position::start(),
            Some(p) => crate::protocol::incoming::parse_position(p)?,
        };
        let plies = oware_core::parse_plies(&self.moves)
            .map_err(|e| ApiError::moves("moves", &self.moves, &e))?;
        if plies.len() > MAX_PLIES {
            return Err(refuse(
                Reason::TooLong,
                format!("moves: at most {MAX_PLIES} plies"),
            ));
        }
        let mut game = Game::from_plies(start, &plies).map_err(|(i, e)| {
            let mut err = ApiError::from(e);
            err.message = format!("move {} of the list: {}", i + 1, err.message);
            err
        })?;
        if let Some(end) = self.end.as_deref() {
            let done = match end {
                "agree" => game.agree_to_stop().map(|_| ()),
                "resign S" => game.resign(Side::South).map(|_| ()),
                "resign N" => game.resign(Side::North).map(|_| ()),
                _ => {
                    return Err(refuse(
                        Reason::BadEnd,
                        format!("end: agree, resign S or resign N, not {end:?}"),
                    ))
                }
            };
            done.map_err(|e| refuse(Reason::BadEnd, format!("end {end:?}: {e}")))?;
        }
        if !game.is_over() {
            return Err(refuse(Reason::NotFinished, "only finished games are kept"));
        }
        Ok(OfflineGame {
            id: format!("dev{id}"),
            mode,
            level,
            side,
            game,
        })
    }
}

/// The answer.
#[derive(Serialize, Debug)]
pub struct OfflineGameResponse {
    /// The stored game's id.
    pub id: String,
    /// Stored now (false: it was already, from an earlier upload).
    pub created: bool,
}

async fn upload(
    State(hub): State<Arc<Hub>>,
    State(limits): State<Arc<Limiter>>,
    client: ClientAddr,
    user: User,
    JsonBody(req): JsonBody<OfflineGameReq>,
) -> Result<(StatusCode, Json<OfflineGameResponse>), ApiError> {
    // Counted first, per address and per account: a refused upload costs
    // no replay.
    limits
        .check_client(Cost::Game, &ClientKeys::of(client, Some(&user)))
        .await?;
    let game = req.parse()?;
    let (id, created) = hub.store_offline_game(game, &user).await?;
    let status = if created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(OfflineGameResponse { id, created })))
}
