//! Headers every response carries, and the same-origin check of WebSocket
//! upgrades.
//!
//! - `Content-Security-Policy`: scripts, styles, images and connections from
//!   this server only (inline `style` attributes are allowed: the board sets
//!   seed positions that way; inline scripts are not), and
//!   `frame-ancestors 'none'` with `X-Frame-Options: DENY`, so no other site
//!   can frame the game and trick a click on "Resign" or "Accept".
//!   `script-src` adds `'wasm-unsafe-eval'`, which lets the page and its
//!   worker compile WebAssembly (the engine in the browser, docs/WEB.md)
//!   and nothing else: Chromium refuses `WebAssembly.instantiate` under a
//!   `script-src` without it, and unlike `'unsafe-eval'` it still refuses
//!   `eval` and `new Function`.
//! - `Cross-Origin-Opener-Policy: same-origin` and
//!   `Cross-Origin-Embedder-Policy: require-corp`: the page is
//!   cross-origin isolated, so it may share a `SharedArrayBuffer` with the
//!   engine's worker, whose flag stops a running search within
//!   milliseconds. Everything the app loads is its own, so nothing is
//!   blocked by them.
//! - `X-Content-Type-Options: nosniff`, `Referrer-Policy: same-origin`.
//! - `Cache-Control: no-store` on the API: game states and tokens are never
//!   kept by a cache.

use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;

use crate::error::ApiError;

const CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; style-src 'self' 'unsafe-inline'; \
img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; \
form-action 'self'; object-src 'none'";

/// Middleware: adds the headers above to every response.
pub async fn headers(req: Request, next: Next) -> Response {
    let api = req.uri().path().starts_with("/api/");
    let mut resp = next.run(req).await;
    let h = resp.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        "cross-origin-opener-policy",
        HeaderValue::from_static("same-origin"),
    );
    h.insert(
        "cross-origin-embedder-policy",
        HeaderValue::from_static("require-corp"),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    if api {
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    resp
}

/// A WebSocket upgrade from a browser names the page's origin; it must be
/// this server (the `Host` the browser connected to), so a page on another
/// site cannot open a game socket with the visitor's stored seat token.
/// Clients that are not browsers send no `Origin` and are let through.
pub fn check_origin(headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin.to_str().unwrap_or("");
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let origin_host = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
        .unwrap_or("");
    if origin_host.is_empty() || !origin_host.eq_ignore_ascii_case(host) {
        return Err(ApiError::bad_origin(format!(
            "a WebSocket from the page at {origin} may not join games of {host}"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(origin: Option<&str>, host: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, host.parse().unwrap());
        if let Some(o) = origin {
            h.insert(header::ORIGIN, o.parse().unwrap());
        }
        h
    }

    #[test]
    fn only_this_servers_pages_may_open_sockets() {
        assert!(check_origin(&headers(None, "127.0.0.1:8080")).is_ok());
        assert!(check_origin(&headers(Some("http://127.0.0.1:8080"), "127.0.0.1:8080")).is_ok());
        assert!(check_origin(&headers(Some("https://Oware.example"), "oware.example")).is_ok());
        for bad in [
            "http://evil.example",
            "null",
            "http://127.0.0.1:9090",
            "file://x",
        ] {
            let e = check_origin(&headers(Some(bad), "127.0.0.1:8080")).unwrap_err();
            assert_eq!(e.code, crate::error::ErrorCode::BadOrigin, "{bad}");
        }
    }
}
