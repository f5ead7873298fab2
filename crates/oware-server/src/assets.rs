//! The web app's static files, embedded in the binary from `web/`.

use axum::http::{header, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "web/"]
struct Web;

/// Every embedded file's path (for tests and diagnostics).
pub fn files() -> Vec<String> {
    Web::iter().map(|p| p.to_string()).collect()
}

fn file_response(path: &str, status: StatusCode) -> Option<Response> {
    let file = Web::get(path)?;
    let mime = mime_guess::from_path(path).first_or_octet_stream();
    let mut ct = mime.essence_str().to_string();
    if ct.starts_with("text/")
        || ct == "application/javascript"
        || ct == "application/json"
        || ct == "image/svg+xml"
    {
        ct.push_str("; charset=utf-8");
    }
    let cache = if path == "index.html" {
        "no-cache"
    } else {
        "public, max-age=300"
    };
    let mut resp = (status, file.data.into_owned()).into_response();
    let headers = resp.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_str(&ct).unwrap_or(HeaderValue::from_static("application/octet-stream")),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    Some(resp)
}

/// A static file at its path, or `index.html` for any other path (the app's
/// own routes such as `/game/{id}`).
pub async fn static_or_index(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    if !path.is_empty() && !path.ends_with('/') {
        if let Some(r) = file_response(path, StatusCode::OK) {
            return r;
        }
    }
    if !path.is_empty() && !path.ends_with('/') {
        if let Some(r) = file_response(&format!("{path}/index.html"), StatusCode::OK) {
            return r;
        }
    }
    file_response("index.html", StatusCode::OK).unwrap_or_else(|| {
        (
            StatusCode::NOT_FOUND,
            "the web app is missing from this build",
        )
            .into_response()
    })
}
