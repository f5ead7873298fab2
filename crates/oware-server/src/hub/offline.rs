//! Games played offline on a device, stored in an account
//! (`offline_routes.rs`): once, whatever the number of uploads.

use crate::error::Reason;
use std::collections::HashMap;
use std::sync::Arc;

use oware_core::{Game, Side};

use super::Hub;
use crate::accounts::User;
use crate::error::{ApiError, ErrorCode};
use crate::model::{GameMeta, Mode, Seat, SeatKind};
use crate::protocol::views::ply_text;
use crate::store::StoredPly;

/// An uploaded game, checked: the game replayed and over.
#[derive(Debug)]
pub struct OfflineGame {
    /// The stored game's id (`dev` + the device's id).
    pub id: String,
    /// Computer or hot-seat.
    pub mode: Mode,
    /// The computer's level.
    pub level: Option<u8>,
    /// The player's side against the computer; South between two people.
    pub side: Side,
    /// The game, over.
    pub game: Game,
}

/// The seats of an uploaded game: the account's, and the computer's.
pub fn seats(g: &OfflineGame, user: &User) -> ([Seat; 2], HashMap<Side, String>) {
    let mut tokens = HashMap::new();
    let (mut mine, token) = Seat::human(user.username.clone());
    mine.account = Some(user.id.clone());
    tokens.insert(g.side, token.plain);
    let other = match g.mode {
        Mode::Computer => Seat {
            kind: SeatKind::Computer,
            name: format!("Computer (level {})", g.level.unwrap_or(3)),
            token_hash: None,
            devices: Vec::new(),
            account: None,
            rating: None,
        },
        _ => {
            let (north, n) = Seat::human("North".into());
            tokens.insert(g.side.opponent(), n.plain);
            mine.name = "South".into();
            north
        }
    };
    let seats = match g.side {
        Side::South => [mine, other],
        Side::North => [other, mine],
    };
    (seats, tokens)
}

impl Hub {
    /// Stores a finished offline game in `user`'s account, unless it is
    /// there already: answers its id and whether it was stored now.
    pub async fn store_offline_game(
        self: &Arc<Self>,
        g: OfflineGame,
        user: &User,
    ) -> Result<(String, bool), ApiError> {
        let id = g.id.clone();
        if self.offline_game_kept(&id, user).await? {
            return Ok((id, false));
        }
        let (seats, tokens) = seats(&g, user);
        let (mut meta, invite) = GameMeta::new(
            g.mode,
            g.level,
            false,
            *g.game.start(),
            seats,
            None,
            self.now_ms(),
        );
        meta.id = id.clone();
        meta.result = g.game.outcome().copied();
        // Shown as played offline, unverified, and private: never in a
        // public list or on a profile (`public` stays false).
        meta.offline = true;
        let plies = g
            .game
            .plies()
            .iter()
            .map(|&p| StoredPly {
                text: ply_text(p),
                clock: None,
                at: meta.created_at,
            })
            .collect();
        match self
            .create_from(meta, plies, g.side, tokens, invite, false)
            .await
        {
            Ok(_) => Ok((id, true)),
            // Two uploads of the same game at once: the other one stored it.
            Err(e) => match self.offline_game_kept(&id, user).await {
                Ok(true) => Ok((id, false)),
                _ => Err(e),
            },
        }
    }

    /// The game `id` is stored and is `user`'s; an id another account
    /// holds is refused.
    async fn offline_game_kept(self: &Arc<Self>, id: &str, user: &User) -> Result<bool, ApiError> {
        match self.slot(id).await {
            Ok(slot) => {
                let live = slot.state.lock().await;
                if live
                    .meta
                    .seats
                    .iter()
                    .any(|s| s.account.as_deref() == Some(user.id.as_str()))
                {
                    Ok(true)
                } else {
                    Err(
                        ApiError::not_allowed("this game id belongs to another account")
                            .with_reason(Reason::NotYours),
                    )
                }
            }
            Err(e) if e.code == ErrorCode::NotFound => Ok(false),
            Err(e) => Err(e),
        }
    }
}
