//! The e-mail routes (docs/PROTOCOL.md, "E-mail"): the signed-in player's
//! address (add, verify, remove, notification mails on or off), the links
//! that work without a session (verify, unsubscribe, reset a password),
//! and asking for a reset. The hub's `mail.rs` does the work; this file
//! parses, limits and answers.

use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Form, Json, Router};

use crate::accounts::{check_password, hash_password, User};
use crate::error::ApiError;
use crate::http::JsonBody;
use crate::limits::{ClientAddr, ClientKeys, Cost, Limiter};
use crate::protocol::incoming::{
    EmailSet, LinkToken, MailSubscription, OneClick, ResetAsk, ResetConfirm,
};
use crate::protocol::outgoing::EmailView;
use crate::Hub;

/// The routes.
pub fn routes() -> Router<crate::state::AppState> {
    Router::new()
        .route("/api/v1/account/email", get(show).post(set))
        .route("/api/v1/account/email/remove", post(remove))
        .route("/api/v1/account/email/subscription", post(subscription))
        .route("/api/v1/email/verify", post(verify))
        .route("/api/v1/email/unsubscribe", post(unsubscribe))
        // The mails' List-Unsubscribe link: the page to a person, a
        // one-click unsubscribe to a mail program that posts to it.
        .route(
            "/unsubscribe",
            post(one_click).get(crate::assets::static_or_index),
        )
        .route("/api/v1/account/password-reset", post(ask_reset))
        .route("/api/v1/account/password-reset/confirm", post(reset))
}

async fn cpu<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f).await.map_err(|e| {
        tracing::error!("a worker thread failed: {e}");
        ApiError::internal("the server could not finish this request")
    })
}

async fn show(State(hub): State<Arc<Hub>>, user: User) -> Result<Json<EmailView>, ApiError> {
    Ok(Json(hub.mail().email(&user.id).await?))
}

async fn set(
    State(hub): State<Arc<Hub>>,
    State(limits): State<Arc<Limiter>>,
    user: User,
    client: ClientAddr,
    JsonBody(req): JsonBody<EmailSet>,
) -> Result<(StatusCode, Json<EmailView>), ApiError> {
    let (email, password, lang) = req.parse()?;
    hub.mail().require_on()?;
    // An address can reset the password: only the password's holder may
    // set it.
    crate::accounts::routes::confirm_password(&hub, &limits, &user, password).await?;
    limits
        .check_client(Cost::Mail, &ClientKeys::of(client, Some(&user)))
        .await?;
    let view = hub.mail().set_email(&user, &email, lang).await?;
    Ok((StatusCode::ACCEPTED, Json(view)))
}

async fn remove(State(hub): State<Arc<Hub>>, user: User) -> Result<StatusCode, ApiError> {
    hub.mail().remove_email(&user.id).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn subscription(
    State(hub): State<Arc<Hub>>,
    user: User,
    JsonBody(req): JsonBody<MailSubscription>,
) -> Result<Json<EmailView>, ApiError> {
    let on = req
        .subscribed
        .ok_or_else(|| ApiError::invalid_request("subscribed: required (true or false)"))?;
    hub.mail().set_subscribed(&user.id, on).await?;
    Ok(Json(hub.mail().email(&user.id).await?))
}

async fn verify(
    State(hub): State<Arc<Hub>>,
    JsonBody(req): JsonBody<LinkToken>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let token = req.parse()?;
    let view = hub.mail().verify_email(&token).await?;
    Ok(Json(
        serde_json::json!({ "verified": view.verified, "email": view.email }),
    ))
}

async fn unsubscribe(
    State(hub): State<Arc<Hub>>,
    JsonBody(req): JsonBody<LinkToken>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let token = req.parse()?;
    hub.mail().unsubscribe(&token).await?;
    Ok(Json(serde_json::json!({ "subscribed": false })))
}

/// RFC 8058: a mail program unsubscribes by posting
/// `List-Unsubscribe=One-Click` to the header's link, `/unsubscribe?token=`.
async fn one_click(
    State(hub): State<Arc<Hub>>,
    Query(link): Query<LinkToken>,
    Form(body): Form<OneClick>,
) -> Result<Json<serde_json::Value>, ApiError> {
    body.parse()?;
    let token = link.parse()?;
    hub.mail().unsubscribe(&token).await?;
    Ok(Json(serde_json::json!({ "subscribed": false })))
}

/// Answers `202 {"sent": true}` whether or not an account has the address,
/// so the answer tells a stranger nothing.
async fn ask_reset(
    State(hub): State<Arc<Hub>>,
    State(limits): State<Arc<Limiter>>,
    client: ClientAddr,
    JsonBody(req): JsonBody<ResetAsk>,
) -> Result<(StatusCode, Json<serde_json::Value>), ApiError> {
    let email = req.parse()?;
    // Said before any look-up: it tells nothing about the address.
    hub.mail().require_on()?;
    limits.check(Cost::Mail, client).await?;
    hub.ask_password_reset(&email)?;
    Ok((
        StatusCode::ACCEPTED,
        Json(serde_json::json!({ "sent": true })),
    ))
}

async fn reset(
    State(hub): State<Arc<Hub>>,
    State(limits): State<Arc<Limiter>>,
    client: ClientAddr,
    JsonBody(req): JsonBody<ResetConfirm>,
) -> Result<StatusCode, ApiError> {
    // Counted as sign-in attempts: a token is not to be guessed either.
    limits.check(Cost::SignIn, client).await?;
    let (token, password) = req.parse()?;
    let (_, username) = hub.mail().reset_link_account(&token).await?;
    check_password(&password, &username)?;
    let hash = cpu(move || hash_password(&password)).await??;
    hub.mail().reset_password(&token, hash).await?;
    Ok(StatusCode::NO_CONTENT)
}
