//! The game WebSocket (docs/PROTOCOL.md): one task per connection, reading
//! client messages and forwarding the game's events.

use std::sync::Arc;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use oware_core::Side;
use serde::Deserialize;
use tokio::sync::broadcast::error::RecvError;

use crate::error::ApiError;
use crate::hub::{Event, Hub, Slot};

/// Largest client message handled; larger ones get a `too_large` error.
pub const MESSAGE_LIMIT: usize = 4 * 1024;
/// Frames past this size close the connection (the socket layer refuses them).
const FRAME_LIMIT: usize = 64 * 1024;

#[derive(Deserialize)]
pub(crate) struct WsQuery {
    token: Option<String>,
}

/// A client message.
#[derive(Deserialize, Debug)]
#[serde(tag = "type", rename_all = "lowercase")]
enum ClientMsg {
    Hello {
        since: u32,
    },
    Move {
        #[serde(rename = "move")]
        mv: String,
        ply: Option<u32>,
    },
    Resign {},
    Agreement {
        action: String,
    },
    Ping {},
}

pub(crate) async fn upgrade(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    q: Result<Query<WsQuery>, axum::extract::rejection::QueryRejection>,
    headers: axum::http::HeaderMap,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    crate::security::check_origin(&headers)?;
    let Query(q) = q.map_err(|e| ApiError::invalid_request(format!("query: {e}")))?;
    // Check the game and the token before upgrading, so a wrong token is an HTTP error.
    let slot = hub.slot(&id).await?;
    let token = q.token.filter(|t| !t.is_empty());
    if let Some(t) = &token {
        let live = slot.state.lock().await;
        if live.meta.side_of(t).is_none() {
            return Err(ApiError::bad_token("this token holds no seat of this game"));
        }
    }
    let ws =
        ws.map_err(|e| ApiError::invalid_request(format!("expected a WebSocket upgrade: {e}")))?;
    // Small buffers: a game socket carries messages of a few hundred bytes,
    // and thousands of sockets are open at once.
    Ok(ws
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
        .max_write_buffer_size(FRAME_LIMIT * 4)
        .max_message_size(FRAME_LIMIT)
        .max_frame_size(FRAME_LIMIT)
        .on_upgrade(move |socket| connection(socket, hub, id, token)))
}

fn error_event(ply: u32, e: &ApiError) -> Utf8Bytes {
    Event::Error {
        ply,
        code: e.code,
        message: e.message.clone(),
        rule: e.rule,
    }
    .to_text()
}

async fn connection(socket: WebSocket, hub: Arc<Hub>, id: String, token: Option<String>) {
    let Ok((slot, side, state, mut events)) = hub.watch(&id, token.as_deref()).await else {
        return;
    };
    let (mut sink, mut stream) = socket.split();
    if sink.send(Message::Text(state)).await.is_ok() {
        loop {
            tokio::select! {
                incoming = stream.next() => {
                    let text = match incoming {
                        Some(Ok(Message::Text(t))) => t,
                        Some(Ok(Message::Binary(_))) => {
                            let ply = slot.state.lock().await.game.plies().len() as u32;
                            if sink.send(Message::Text(error_event(ply, &ApiError::malformed("binary messages are not understood; send JSON text")))).await.is_err() { break; }
                            continue;
                        }
                        Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                        Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                    };
                    let replies = handle(&hub, &slot, side, token.as_deref(), &text).await;
                    let mut failed = false;
                    for r in replies {
                        if sink.send(Message::Text(r)).await.is_err() { failed = true; break; }
                    }
                    if failed { break; }
                }
                event = events.recv() => {
                    let text = match event {
                        Ok(t) => t,
                        Err(RecvError::Lagged(_)) => {
                            // Missed events: send the whole state instead.
                            let live = slot.state.lock().await;
                            let view = live.view_for(&slot);
                            Event::State { ply: view.ply, game: &view, you: None }.to_text()
                        }
                        Err(RecvError::Closed) => break,
                    };
                    if sink.send(Message::Text(text)).await.is_err() { break; }
                }
            }
        }
    }
    hub.unwatch(&slot, side).await;
}

async fn handle(
    hub: &Arc<Hub>,
    slot: &Arc<Slot>,
    side: Option<Side>,
    token: Option<&str>,
    text: &str,
) -> Vec<Utf8Bytes> {
    if text.len() > MESSAGE_LIMIT {
        let ply = slot.state.lock().await.game.plies().len() as u32;
        return vec![error_event(
            ply,
            &ApiError::too_large(format!("messages are limited to {MESSAGE_LIMIT} bytes")),
        )];
    }
    let msg: ClientMsg = match serde_json::from_str(text) {
        Ok(m) => m,
        Err(e) => {
            let ply = slot.state.lock().await.game.plies().len() as u32;
            return vec![error_event(
                ply,
                &ApiError::malformed(format!("invalid message: {e}")),
            )];
        }
    };
    let mut live = slot.state.lock().await;
    let needs_seat = matches!(
        msg,
        ClientMsg::Move { .. } | ClientMsg::Resign {} | ClientMsg::Agreement { .. }
    );
    if needs_seat && side.is_none() {
        let ply = live.game.plies().len() as u32;
        return vec![error_event(
            ply,
            &ApiError::missing_token("spectators cannot play: connect with a seat token"),
        )];
    }
    let result = match msg {
        ClientMsg::Hello { since } => return live.catch_up(since, slot.connected()),
        ClientMsg::Ping {} => {
            return vec![Event::Pong {
                ply: live.game.plies().len() as u32,
            }
            .to_text()]
        }
        ClientMsg::Move { mv, ply } => hub.play_locked(slot, &mut live, token, &mv, ply).await,
        ClientMsg::Resign {} => hub.resign_locked(slot, &mut live, token).await,
        ClientMsg::Agreement { action } => {
            hub.agreement_locked(slot, &mut live, token, &action).await
        }
    };
    match result {
        Ok(()) => Vec::new(),
        Err(e) => vec![error_event(live.game.plies().len() as u32, &e)],
    }
}
