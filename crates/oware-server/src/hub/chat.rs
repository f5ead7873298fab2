//! In-game chat: the two players' room, which everyone watching reads, and
//! the spectators' own room, which the players do not see (so nobody can
//! whisper them moves). A message is checked, stored with the game, and
//! only then sent. Clients show it as text, never as HTML.

use crate::error::Reason;
use std::sync::Arc;

use oware_core::Side;

use super::{Hub, Slot};
use crate::error::ApiError;
use crate::protocol::ClientOut;
use crate::store::{ChatPage, WriteOp};

/// Longest message, in characters.
pub const MAX_CHARS: usize = 500;

/// Most messages kept in one room of one game; past it the room is full.
pub const MAX_KEPT: u64 = 1_000;

pub use crate::store::chat::{ChatMessage, Room};

/// Checks a message's text: 1 to [`MAX_CHARS`] characters after trimming,
/// no control characters but line breaks, nothing that hides or reverses
/// text.
pub fn check_text(text: &str) -> Result<String, ApiError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(
            ApiError::invalid_request("chat: the message is empty").with_reason(Reason::Empty)
        );
    }
    if text.chars().count() > MAX_CHARS {
        return Err(ApiError::too_large(format!(
            "chat: at most {MAX_CHARS} characters"
        )));
    }
    if text
        .chars()
        .any(|c| (c.is_control() && c != '\n') || crate::model::is_invisible(c))
    {
        return Err(ApiError::invalid_request(
            "chat: no control, direction or invisible characters",
        )
        .with_reason(Reason::Characters));
    }
    Ok(text.to_string())
}

impl Hub {
    /// Has either of two different accounts blocked the other
    /// (`accounts::community`)?
    pub(crate) async fn blocked_between(&self, a: String, b: String) -> Result<bool, ApiError> {
        if a == b {
            return Ok(false);
        }
        self.read(move |store| store.blocked_between(&a, &b)).await
    }

    /// Posts a message to game `slot` from the seat `side` (a player) or a
    /// spectator called `name` (signed in as `account`, or not); stored,
    /// then sent to its room.
    pub async fn chat(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        side: Option<Side>,
        spectator_name: &str,
        account: Option<&str>,
        text: &str,
    ) -> Result<(), ApiError> {
        let text = check_text(text)?;
        let (ply, name, accounts) = {
            let live = slot.state.lock().await;
            let name = match side {
                Some(s) => live.meta.seats[s.index()].name.clone(),
                None if live.spectators_room_open_to(account) => spectator_name.to_string(),
                None => {
                    return Err(ApiError::not_allowed(
                        "sign in to chat with the other spectators while the game is played",
                    )
                    .with_reason(Reason::SpectatorsSignIn))
                }
            };
            let accounts = live.meta.seats.clone().map(|s| s.account);
            (live.ply(), name, accounts)
        };
        let writer = match side {
            Some(s) => accounts[s.index()].clone(),
            None => account.map(str::to_string),
        };
        // A player who blocked the other (or was blocked) does not talk
        // to them in the players' room.
        if side.is_some() {
            if let [Some(a), Some(b)] = accounts {
                if self.blocked_between(a, b).await? {
                    return Err(ApiError::blocked());
                }
            }
        }
        let message = ChatMessage {
            id: None,
            game_id: slot.id.clone(),
            room: if side.is_some() {
                Room::Players
            } else {
                Room::Spectators
            },
            side,
            name,
            text,
            at: self.now_ms(),
            account: writer,
        };
        let event = ClientOut::Chat {
            ply,
            message: &message,
        }
        .to_text();
        let (game, room) = (slot.id.clone(), message.room);
        if self
            .read(move |store| store.chat_count(&game, room))
            .await?
            >= MAX_KEPT
        {
            return Err(ApiError::not_allowed(format!(
                "this game's chat is full ({MAX_KEPT} messages)"
            ))
            .with_reason(Reason::ChatFull));
        }
        let spectators = message.room == Room::Spectators;
        let op = if self.store.shared() {
            let notice = self.chat_notice(&slot.id, spectators, &event);
            WriteOp::All(vec![
                WriteOp::Chat(message.clone()),
                WriteOp::Notify(notice),
            ])
        } else {
            WriteOp::Chat(message.clone())
        };
        self.write(op).await?;
        match message.room {
            Room::Players => slot.send(event),
            Room::Spectators => {
                let _ = slot.spectator_events.send(event);
            }
        }
        Ok(())
    }

    /// The chat of game `id`: the players' room, and the spectators' room
    /// too for a spectator who may read it
    /// ([`super::Live::spectators_room_open_to`]).
    pub async fn chat_history(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        account: Option<&str>,
        page: ChatPage,
    ) -> Result<Vec<ChatMessage>, ApiError> {
        let slot = self.slot(id).await?;
        let spectator = {
            let live = slot.state.lock().await;
            match token.filter(|t| !t.is_empty()) {
                None => live.spectators_room_open_to(account),
                Some(_) => live.seat(token).map(|_| false)?,
            }
        };
        let id = id.to_string();
        let reader = account.map(str::to_string);
        self.read(move |store| {
            let mut page = store.chat(&id, spectator, page)?;
            // A message from an account blocked either way with the
            // reader never reaches the reader, in any room.
            if let Some(reader) = reader {
                let mut hidden: Vec<String> = Vec::new();
                let mut shown: Vec<String> = Vec::new();
                for m in &page {
                    let Some(w) = m.account.as_ref().filter(|w| **w != reader) else {
                        continue;
                    };
                    if hidden.contains(w) || shown.contains(w) {
                        continue;
                    }
                    if store.blocked_between(&reader, w)? {
                        hidden.push(w.clone());
                    } else {
                        shown.push(w.clone());
                    }
                }
                page.retain(|m| m.account.as_ref().is_none_or(|w| !hidden.contains(w)));
            }
            Ok(page)
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_checked() {
        assert_eq!(check_text("  hello \n").unwrap(), "hello");
        assert_eq!(check_text("<b>x</b>").unwrap(), "<b>x</b>", "kept as text");
        assert_eq!(check_text("   ").unwrap_err().reason, Some("empty"));
        assert_eq!(
            check_text(&"x".repeat(MAX_CHARS + 1))
                .unwrap_err()
                .code
                .as_str(),
            "too_large"
        );
        assert!(check_text("a\u{202E}b").is_err());
        assert!(check_text("a\u{7}b").is_err());
        assert!(check_text("two\nlines").is_ok());
    }
}
