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

use crate::accounts::session::MaybeUser;
use crate::error::ApiError;
use crate::hub::{Command, Hub, Slot, Watcher};
use crate::limits::{ClientAddr, ClientKeys};
use crate::protocol::incoming::WsQuery;
use crate::protocol::{ClientIn, ClientOut};

/// Frames past this size close the connection (the socket layer refuses them).
const FRAME_LIMIT: usize = 64 * 1024;

// An axum handler: each argument is one extractor.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn upgrade(
    State(hub): State<Arc<Hub>>,
    State(limits): State<Arc<crate::limits::Limiter>>,
    Path(id): Path<String>,
    q: Result<Query<WsQuery>, axum::extract::rejection::QueryRejection>,
    headers: axum::http::HeaderMap,
    MaybeUser(user): MaybeUser,
    client: ClientAddr,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    crate::security::check_origin(&headers)?;
    // Counted from before the upgrade to the socket's end.
    let place = limits.open_socket(client)?;
    let Query(q) = q.map_err(|e| ApiError::invalid_request(format!("query: {e}")))?;
    // Check the game and the token before upgrading, so a wrong token is an HTTP error.
    let slot = hub.slot(&id).await?;
    let token = q.token.filter(|t| !t.is_empty());
    if token.is_some() {
        slot.seat_of(token.as_deref()).await?;
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
        .on_upgrade(move |socket| {
            // A spectator's name in the spectators' chat: their username
            // when signed in.
            let (name, account) = match user {
                Some(u) => (u.username, Some(u.id)),
                None => ("Spectator".to_string(), None),
            };
            async move {
                let _place = place;
                connection(socket, hub, limits, id, token, name, account, client).await
            }
        }))
}

fn error_event(ply: u32, e: &ApiError) -> Utf8Bytes {
    ClientOut::Error {
        ply,
        error: e.into(),
    }
    .to_text()
}

/// A spectator's channel, or one that never yields for players.
async fn spectator_event(
    rx: &mut Option<tokio::sync::broadcast::Receiver<Utf8Bytes>>,
) -> Result<Utf8Bytes, RecvError> {
    match rx {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}

#[allow(clippy::too_many_arguments)]
async fn connection(
    socket: WebSocket,
    hub: Arc<Hub>,
    limits: Arc<crate::limits::Limiter>,
    id: String,
    token: Option<String>,
    spectator_name: String,
    account: Option<String>,
    client: ClientAddr,
) {
    let Ok(watcher) = hub.watch(&id, token.as_deref(), account.as_deref()).await else {
        return;
    };
    let Watcher {
        slot,
        side,
        state,
        mut events,
        mut spectator_events,
    } = watcher;
    let me = Client {
        side,
        token: token.as_deref(),
        name: &spectator_name,
        account: account.as_deref(),
        addr: client,
        limits: &limits,
        keys: ClientKeys::new(client, account.as_deref()),
    };
    let (mut sink, mut stream) = socket.split();
    hub.metrics().socket(1);
    let mut stopping = hub.stopping();
    // Made once, not at each turn of the loop (each would register with the
    // channel and deregister again: a lock a message).
    let stopped = stopping.changed();
    tokio::pin!(stopped);
    if sink.send(Message::Text(state)).await.is_ok() {
        loop {
            tokio::select! {
                // The node is being stopped: "service restart", so that the
                // client reconnects (to another node behind the proxy).
                _ = &mut stopped => {
                    let _ = sink.send(Message::Close(Some(axum::extract::ws::CloseFrame {
                        code: 1012,
                        reason: Utf8Bytes::from_static("server restarting"),
                    }))).await;
                    break;
                }
                incoming = stream.next() => {
                    let replies = match incoming {
                        Some(Ok(Message::Text(t))) => handle(&hub, &slot, &me, &t).await,
                        Some(Ok(Message::Binary(_))) => {
                            vec![error_event(slot.ply().await, &ApiError::malformed("binary messages are not understood; send JSON text"))]
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
                chat = spectator_event(&mut spectator_events) => {
                    match chat {
                        Ok(text) => if sink.send(Message::Text(text)).await.is_err() { break; },
                        // Missed spectators' messages are in the history.
                        Err(RecvError::Lagged(_)) => {}
                        Err(RecvError::Closed) => spectator_events = None,
                    }
                }
                event = events.recv() => {
                    let text = match event {
                        Ok(t) => t,
                        Err(RecvError::Lagged(_)) => {
                            // Missed events: send the whole state instead.
                            slot.state_event().await
                        }
                        Err(RecvError::Closed) => break,
                    };
                    if sink.send(Message::Text(text)).await.is_err() { break; }
                }
            }
        }
    }
    hub.metrics().socket(-1);
    hub.unwatch(&slot, side).await;
}

/// Who is on the other end of a socket.
struct Client<'a> {
    side: Option<Side>,
    token: Option<&'a str>,
    name: &'a str,
    account: Option<&'a str>,
    /// The client's address (its messages are counted together).
    addr: ClientAddr,
    /// Its address and account (its chat is counted under both).
    keys: ClientKeys,
    /// The limits it is counted against.
    limits: &'a crate::limits::Limiter,
}

/// One client message: limited, parsed, then done by the hub: a command
/// goes through [`Hub::apply`], the one way a seat acts on a game.
async fn handle(hub: &Arc<Hub>, slot: &Arc<Slot>, me: &Client<'_>, text: &str) -> Vec<Utf8Bytes> {
    let msg = me
        .limits
        .check_message(me.addr)
        .and_then(|()| ClientIn::parse(text));
    let command = match msg {
        Err(e) => return vec![error_event(slot.ply().await, &e)],
        Ok(ClientIn::Chat(text)) => {
            let posted = match me.limits.check_chat(&me.keys).await {
                Ok(()) => hub.chat(slot, me.side, me.name, me.account, &text).await,
                Err(e) => Err(e),
            };
            return match posted {
                Ok(()) => Vec::new(),
                Err(e) => vec![error_event(slot.ply().await, &e)],
            };
        }
        Ok(ClientIn::Hello { since }) => return slot.catch_up(since).await,
        Ok(ClientIn::Ping) => {
            return vec![ClientOut::Pong {
                ply: slot.ply().await,
            }
            .to_text()]
        }
        Ok(ClientIn::Move { mv, ply }) => Command::Move { mv, ply },
        Ok(ClientIn::Resign) => Command::Resign,
        Ok(ClientIn::Cancel) => Command::Cancel,
        Ok(ClientIn::Abort) => Command::Abort,
        Ok(ClientIn::Takeback(action)) => Command::Takeback(action),
        Ok(ClientIn::Agreement(action)) => Command::Agreement(action),
    };
    if me.side.is_none() {
        let e = ApiError::missing_token("spectators cannot play: connect with a seat token");
        return vec![error_event(slot.ply().await, &e)];
    }
    match hub.apply(slot, me.token, command).await {
        Ok(_) => Vec::new(),
        Err(e) => vec![error_event(slot.ply().await, &e)],
    }
}
