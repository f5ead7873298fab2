//! The game WebSocket (docs/PROTOCOL.md): one task per connection, reading
//! client messages and forwarding the game's events.

use std::sync::Arc;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use oware_core::Side;
use tokio::sync::broadcast::error::RecvError;

use crate::error::ApiError;
use crate::hub::{Hub, Slot, Watcher};
use crate::limits::SocketLimiter;
use crate::protocol::incoming::WsQuery;
use crate::protocol::{ClientIn, ClientOut};

/// Frames past this size close the connection (the socket layer refuses them).
const FRAME_LIMIT: usize = 64 * 1024;

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
    if token.is_some() {
        slot.state.lock().await.seat(token.as_deref())?;
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
    ClientOut::Error {
        ply,
        error: e.into(),
    }
    .to_text()
}

async fn connection(socket: WebSocket, hub: Arc<Hub>, id: String, token: Option<String>) {
    let Ok(watcher) = hub.watch(&id, token.as_deref()).await else {
        return;
    };
    let Watcher {
        slot,
        side,
        state,
        mut events,
    } = watcher;
    let limiter = hub.limiter().socket();
    let (mut sink, mut stream) = socket.split();
    if sink.send(Message::Text(state)).await.is_ok() {
        loop {
            tokio::select! {
                incoming = stream.next() => {
                    let replies = match incoming {
                        Some(Ok(Message::Text(t))) => handle(&hub, &slot, &limiter, side, token.as_deref(), &t).await,
                        Some(Ok(Message::Binary(_))) => {
                            let ply = slot.state.lock().await.ply();
                            vec![error_event(ply, &ApiError::malformed("binary messages are not understood; send JSON text"))]
                        }
                        Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                        Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                    };
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
                            slot.state.lock().await.state_event(slot.connected(), None)
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

/// One client message: parsed, limited, then done with the game's lock held.
async fn handle(
    hub: &Arc<Hub>,
    slot: &Arc<Slot>,
    limiter: &SocketLimiter,
    side: Option<Side>,
    token: Option<&str>,
    text: &str,
) -> Vec<Utf8Bytes> {
    let msg = limiter.check().and_then(|()| ClientIn::parse(text));
    let mut live = slot.state.lock().await;
    let msg = match msg {
        Ok(m) => m,
        Err(e) => return vec![error_event(live.ply(), &e)],
    };
    if msg.needs_seat() && side.is_none() {
        let e = ApiError::missing_token("spectators cannot play: connect with a seat token");
        return vec![error_event(live.ply(), &e)];
    }
    let result = match msg {
        ClientIn::Hello { since } => return live.catch_up(since, slot.connected()),
        ClientIn::Ping => return vec![ClientOut::Pong { ply: live.ply() }.to_text()],
        ClientIn::Move { mv, ply } => hub.play_locked(slot, &mut live, token, mv, ply).await,
        ClientIn::Resign => hub.resign_locked(slot, &mut live, token).await,
        ClientIn::Agreement(action) => hub.agreement_locked(slot, &mut live, token, action).await,
    };
    match result {
        Ok(()) => Vec::new(),
        Err(e) => vec![error_event(live.ply(), &e)],
    }
}
