//! Sessions on the wire: the `oware_session` cookie (HttpOnly, SameSite=Lax,
//! Secure behind TLS), the middleware that finds the signed-in user and
//! checks the CSRF token of every state-changing request made with the
//! cookie, and the extractors handlers use.

use std::sync::Arc;

use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::User;
use crate::error::ApiError;
use crate::Hub;

/// The session cookie's name.
pub const COOKIE: &str = "oware_session";
/// The header that carries the CSRF token.
pub const CSRF_HEADER: &str = "x-csrf-token";
/// How long a session lasts, ms.
pub const SESSION_MS: i64 = 30 * 24 * 3600 * 1000;

/// The session token in a request's cookies, if any.
pub fn cookie_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE)
        .map(|(_, v)| v.to_string())
        .filter(|v| v.len() == 64 && v.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The `Set-Cookie` value that stores `token` (or clears the cookie).
pub fn set_cookie(token: Option<&str>, secure: bool) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    let text = match token {
        Some(t) => format!(
            "{COOKIE}={t}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{secure}",
            SESSION_MS / 1000
        ),
        None => format!("{COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0{secure}"),
    };
    HeaderValue::from_str(&text).expect("cookie text is ASCII")
}

fn safe(method: &Method) -> bool {
    matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// Finds the signed-in user from the session cookie and puts it in the
/// request's extensions; refuses (`bad_csrf`) a state-changing request
/// made with a valid session cookie but without its CSRF token. A cookie
/// that names no live session is ignored (the request is anonymous).
pub async fn middleware(State(hub): State<Arc<Hub>>, mut req: Request, next: Next) -> Response {
    if let Some(token) = cookie_token(req.headers()) {
        let hash = super::token_hash(&token);
        let session = match hub.accounts().session(hash).await {
            Ok(s) => s,
            Err(e) => return e.into_response(),
        };
        if let Some((session, account)) = session.filter(|(s, _)| s.expires_at > hub.now_ms()) {
            if !safe(req.method()) {
                let sent = req.headers().get(CSRF_HEADER).and_then(|v| v.to_str().ok());
                if sent != Some(session.csrf.as_str()) {
                    return ApiError::bad_csrf(
                        "this request needs the session's CSRF token (X-CSRF-Token)",
                    )
                    .into_response();
                }
            }
            req.extensions_mut().insert(User {
                id: account.id,
                username: account.username,
                csrf: session.csrf,
                token_hash: session.token_hash,
            });
        }
    }
    next.run(req).await
}

/// The signed-in user, if any.
#[derive(Clone, Debug)]
pub struct MaybeUser(pub Option<User>);

impl<S: Send + Sync> FromRequestParts<S> for MaybeUser {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(MaybeUser(parts.extensions.get::<User>().cloned()))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for User {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        parts
            .extensions
            .get::<User>()
            .cloned()
            .ok_or_else(|| ApiError::not_signed_in("sign in first"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies() {
        let token = "a".repeat(64);
        let mut h = HeaderMap::new();
        h.insert(
            header::COOKIE,
            format!("x=1; {COOKIE}={token}; y=2").parse().unwrap(),
        );
        assert_eq!(cookie_token(&h), Some(token.clone()));
        h.insert(header::COOKIE, format!("{COOKIE}=short").parse().unwrap());
        assert_eq!(cookie_token(&h), None);
        let set = set_cookie(Some(&token), true);
        let set = set.to_str().unwrap();
        for part in ["HttpOnly", "SameSite=Lax", "Secure", "Path=/"] {
            assert!(set.contains(part), "{set}");
        }
        assert!(!set_cookie(None, false).to_str().unwrap().contains("Secure"));
    }
}
