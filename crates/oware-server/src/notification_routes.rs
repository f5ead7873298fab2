//! The notification routes (docs/PROTOCOL.md, "Notifications"): the
//! signed-in player's notifications, marking them read, and the account
//! socket that brings new ones live (and counts the player online). The
//! hub's `notifications.rs` does the work; this file parses and limits.

use std::sync::Arc;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::broadcast::error::RecvError;

use crate::accounts::User;
use crate::error::ApiError;
use crate::http::JsonBody;
use crate::limits::{ClientAddr, Limiter};
use crate::protocol::incoming::{AccountIn, MarkRead, NotificationsQuery};
use crate::protocol::outgoing::{AccountOut, NotificationsPage};
use crate::Hub;

/// Frames past this size close the connection.
const FRAME_LIMIT: usize = 16 * 1024;

/// The routes.
pub fn routes() -> Router<crate::state::AppState> {
    Router::new()
        .route("/api/v1/account/notifications", get(list))
        .route("/api/v1/account/notifications/read", post(read))
        // The first paths, kept for clients made before.
        .route("/api/v1/notifications", get(list))
        .route("/api/v1/notifications/read", post(read))
        .route("/api/v1/account/ws", get(upgrade))
}

async fn list(
    State(hub): State<Arc<Hub>>,
    user: User,
    q: Result<Query<NotificationsQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<NotificationsPage>, ApiError> {
    let Query(q) = q.map_err(|e| ApiError::invalid_request(format!("query: {e}")))?;
    let limit = q.limit()?;
    let items = hub.notifications().list(&user.id, q.before, limit).await?;
    let unread = hub.notifications().unread(&user.id).await?;
    Ok(Json(NotificationsPage { items, unread }))
}

async fn read(
    State(hub): State<Arc<Hub>>,
    user: User,
    JsonBody(req): JsonBody<MarkRead>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let which = req.which(crate::hub::READ_IDS)?;
    let unread = hub.notifications().mark_read(&user.id, which).await?;
    Ok(Json(serde_json::json!({ "unread": unread })))
}

async fn upgrade(
    State(hub): State<Arc<Hub>>,
    State(limits): State<Arc<Limiter>>,
    headers: axum::http::HeaderMap,
    user: User,
    client: ClientAddr,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    crate::security::check_origin(&headers)?;
    // Counted with the client's game sockets, from before the upgrade to
    // the socket's end.
    let place = limits.open_socket(client)?;
    let ws =
        ws.map_err(|e| ApiError::invalid_request(format!("expected a WebSocket upgrade: {e}")))?;
    Ok(ws
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
        .max_write_buffer_size(FRAME_LIMIT * 4)
        .max_message_size(FRAME_LIMIT)
        .max_frame_size(FRAME_LIMIT)
        .on_upgrade(move |socket| async move {
            let _place = place;
            connection(socket, hub, limits, user, client).await
        }))
}

async fn connection(
    socket: WebSocket,
    hub: Arc<Hub>,
    limits: Arc<Limiter>,
    user: User,
    client: ClientAddr,
) {
    let mut link = hub.link_account(&user.id);
    let (mut sink, mut stream) = socket.split();
    let mut stopping = hub.stopping();
    let stopped = stopping.changed();
    tokio::pin!(stopped);
    // The count first, so a page opened after a notification shows it.
    let unread = hub.notifications().unread(&user.id).await.unwrap_or(0);
    if sink
        .send(Message::Text(AccountOut::Unread { unread }.to_text()))
        .await
        .is_err()
    {
        return;
    }
    loop {
        tokio::select! {
            _ = &mut stopped => {
                let _ = sink.send(Message::Close(Some(axum::extract::ws::CloseFrame {
                    code: 1012,
                    reason: axum::extract::ws::Utf8Bytes::from_static("server restarting"),
                }))).await;
                break;
            }
            incoming = stream.next() => {
                let reply = match incoming {
                    Some(Ok(Message::Text(t))) => {
                        match limits.check_message(client).and_then(|()| AccountIn::parse(&t)) {
                            Ok(AccountIn::Ping) => AccountOut::Pong.to_text(),
                            Err(e) => AccountOut::Error { error: (&e).into() }.to_text(),
                        }
                    }
                    Some(Ok(Message::Binary(_))) => {
                        let e = ApiError::malformed("binary messages are not understood; send JSON text");
                        AccountOut::Error { error: (&e).into() }.to_text()
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                };
                if sink.send(Message::Text(reply)).await.is_err() { break; }
            }
            event = link.events.recv() => {
                let text = match event {
                    Ok(t) => t,
                    // Missed events: the count as it is now.
                    Err(RecvError::Lagged(_)) => {
                        let unread = hub.notifications().unread(&user.id).await.unwrap_or(0);
                        AccountOut::Unread { unread }.to_text()
                    }
                    Err(RecvError::Closed) => break,
                };
                if sink.send(Message::Text(text)).await.is_err() { break; }
            }
        }
    }
}
