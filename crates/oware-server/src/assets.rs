//! The web app's static files, embedded in the binary from `web/`, and
//! the lessons' data file, which lives with the session crate
//! (`oware_session::lessons::SOURCE`) so that the page, the server's tests
//! and the terminal game read one file.

use axum::http::{header, HeaderMap, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "web/"]
struct Web;

/// Where the page fetches the lessons (`web/js/learn-content.js`).
pub const LESSONS_PATH: &str = "data/lessons.json";

/// The service worker's file (`web/sw.js`), which keeps the app offline.
pub const SERVICE_WORKER: &str = "sw.js";

/// Every served file's path (for tests and diagnostics).
pub fn files() -> Vec<String> {
    Web::iter()
        .map(|p| p.to_string())
        .chain([LESSONS_PATH.to_string()])
        .collect()
}

/// How long a browser may use a file without asking again. The page
/// itself and the service worker are always revalidated, so a new
/// version reaches everyone at their next visit; other files for five
/// minutes, then revalidated by their `ETag` (the SHA-256 of their
/// contents), which answers 304 without the body when unchanged, which
/// matters for the WebAssembly module's 600 KB.
fn cache_control(path: &str) -> &'static str {
    match path {
        "index.html" | "sw.js" => "no-cache",
        _ => "public, max-age=300",
    }
}

fn file_response(path: &str, status: StatusCode, request: &HeaderMap) -> Option<Response> {
    let (data, hash): (Vec<u8>, [u8; 32]) = if path == LESSONS_PATH {
        use sha2::{Digest, Sha256};
        let bytes = oware_session::lessons::SOURCE.as_bytes();
        (bytes.to_vec(), Sha256::digest(bytes).into())
    } else {
        let file = Web::get(path)?;
        (file.data.into_owned(), file.metadata.sha256_hash())
    };
    let etag = format!(
        "\"{}\"",
        hash.iter()
            .take(16)
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    );
    let etag = HeaderValue::from_str(&etag).expect("hex digits are a valid header");
    let cache = cache_control(path);
    if status == StatusCode::OK
        && request
            .get(header::IF_NONE_MATCH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"))
    {
        let mut resp = StatusCode::NOT_MODIFIED.into_response();
        let headers = resp.headers_mut();
        headers.insert(header::ETAG, etag);
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
        return Some(resp);
    }
    let mime = mime_guess::from_path(path).first_or_octet_stream();
    let mut ct = if path.ends_with(".webmanifest") {
        "application/manifest+json".to_string()
    } else {
        mime.essence_str().to_string()
    };
    if ct.starts_with("text/")
        || ct == "application/javascript"
        || ct == "application/json"
        || ct == "application/manifest+json"
        || ct == "image/svg+xml"
    {
        ct.push_str("; charset=utf-8");
    }
    let mut resp = (status, data).into_response();
    let headers = resp.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_str(&ct).unwrap_or(HeaderValue::from_static("application/octet-stream")),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    headers.insert(header::ETAG, etag);
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if path == SERVICE_WORKER {
        // It sits at the root, so it may control every page of the app.
        headers.insert("service-worker-allowed", HeaderValue::from_static("/"));
    }
    Some(resp)
}

/// Whether a page of the app takes an id after its name.
#[derive(Clone, Copy)]
enum Id {
    No,
    Required,
    Optional,
}

/// The app's own pages (the routes of `web/js/app.js`) by the first segment
/// of their path.
const PAGES: [(&str, Id); 19] = [
    ("", Id::No),
    ("play", Id::No),
    ("lobby", Id::No),
    ("watch", Id::No),
    ("tournaments", Id::No),
    ("tournament", Id::Required),
    ("game", Id::Required),
    ("learn", Id::No),
    ("rules", Id::No),
    ("review", Id::Optional),
    ("study", Id::No),
    ("account", Id::No),
    ("player", Id::Required),
    ("ratings", Id::No),
    ("puzzles", Id::Optional),
    ("mistakes", Id::Required),
    ("reset-password", Id::No),
    ("verify-email", Id::No),
    ("unsubscribe", Id::No),
];

/// Whether `path` (without its leading `/`) is one of the app's pages, which
/// the browser-side router draws from `index.html`.
fn is_page(path: &str) -> bool {
    let path = path.strip_suffix('/').unwrap_or(path);
    let (first, rest) = match path.split_once('/') {
        Some((first, rest)) => (first, Some(rest)),
        None => (path, None),
    };
    let valid_id = |id: &str| {
        !id.is_empty()
            && id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    };
    PAGES.iter().any(|&(page, id)| {
        page == first
            && match (id, rest) {
                (Id::No, None) | (Id::Optional, None) => true,
                (Id::Required | Id::Optional, Some(r)) => valid_id(r),
                _ => false,
            }
    })
}

/// A static file at its path; `index.html` for the app's pages (such as
/// `/game/{id}`); a 404 for anything else, so a missing script or style
/// sheet is reported as missing rather than answered with a page. A
/// browser that opens a missing page (it asks for HTML) gets the 404 as
/// the app's page, which says so in the reader's language.
pub async fn static_or_index(uri: Uri, request: HeaderMap) -> Response {
    let path = uri.path().trim_start_matches('/');
    if !path.is_empty() && !path.ends_with('/') {
        if let Some(r) = file_response(path, StatusCode::OK, &request) {
            return r;
        }
    }
    let wants_page = request
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("text/html"));
    if !is_page(path) && wants_page {
        if let Some(r) = file_response("index.html", StatusCode::NOT_FOUND, &request) {
            return r;
        }
    }
    if !is_page(path) {
        return (
            StatusCode::NOT_FOUND,
            [
                (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            format!("no such file or page: /{path}\n"),
        )
            .into_response();
    }
    file_response("index.html", StatusCode::OK, &request).unwrap_or_else(|| {
        (
            StatusCode::NOT_FOUND,
            "the web app is missing from this build",
        )
            .into_response()
    })
}

#[cfg(test)]
mod tests {
    use super::is_page;

    #[test]
    fn pages_are_the_routers_and_nothing_else() {
        for p in [
            "",
            "play",
            "play/",
            "lobby",
            "watch",
            "tournaments",
            "tournament/t1X",
            "game/abc_D-9",
            "learn",
            "rules",
            "review",
            "review/x1",
            "study/",
            "account",
            "player/Ama_99",
            "ratings",
            "puzzles",
            "puzzles/daily",
            "puzzles/12",
            "mistakes/abc",
        ] {
            assert!(is_page(p), "{p} is a page");
        }
        for p in [
            "js/nonexistent.js",
            "css/missing.css",
            "favicon.ico",
            "game",
            "game/",
            "game/a/b",
            "play/x",
            "robots.txt",
            "game/a.js",
            "player",
            "player/",
            "account/x",
            "puzzles/1/2",
            "tournament",
            "tournaments/x",
        ] {
            assert!(!is_page(p), "{p} is not a page");
        }
    }
}
