//! The endgame tables for the browser's engine (docs/WEB.md, "The engine
//! in the browser"): `GET /api/v1/tables` says how far the server's tables
//! go, and `GET /tables/oware-tb-NN.otb` sends the file of NN seeds, as
//! `oware tablebase build` writes it (`Tablebase::file_bytes`), up to
//! [`BROWSER_MAX_SEEDS`]. With the same tables, the same depth and a
//! cleared table of the same size, the browser's coach answers exactly as
//! the server's.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;

use crate::hub::Hub;

/// The largest table sent to a browser: 0..=12 seeds are 2.7 MB in all
/// (the 12-seed file alone is 1.35 MB); each count above doubles it.
pub const BROWSER_MAX_SEEDS: usize = 12;

/// The routes of this module.
pub fn routes() -> Router<crate::state::AppState> {
    Router::new()
        .route("/api/v1/tables", get(index))
        .route("/tables/{name}", get(file))
}

/// `GET /api/v1/tables`.
#[derive(Serialize, Debug)]
pub struct TablesIndex {
    /// The server's tables go up to this many seeds (`null`: none ready).
    pub server_max_seeds: Option<usize>,
    /// The files a browser may fetch: 0..=this many seeds (`null`: none).
    pub browser_max_seeds: Option<usize>,
}

async fn index(State(hub): State<Arc<Hub>>) -> Json<TablesIndex> {
    let server = hub.engines().tablebase().and_then(|t| t.max_seeds());
    Json(TablesIndex {
        server_max_seeds: server,
        browser_max_seeds: server.map(|n| n.min(BROWSER_MAX_SEEDS)),
    })
}

/// The seed count of a file name `oware-tb-NN.otb`.
fn seeds_of(name: &str) -> Option<usize> {
    let nn = name.strip_prefix("oware-tb-")?.strip_suffix(".otb")?;
    (nn.len() == 2 && nn.bytes().all(|b| b.is_ascii_digit()))
        .then(|| nn.parse().ok())
        .flatten()
}

async fn file(State(hub): State<Arc<Hub>>, Path(name): Path<String>) -> Response {
    let not_found = |why: &str| {
        (
            StatusCode::NOT_FOUND,
            [(header::CACHE_CONTROL, "no-cache")],
            format!("{why}\n"),
        )
            .into_response()
    };
    let Some(seeds) = seeds_of(&name) else {
        return not_found("no such table file");
    };
    if seeds > BROWSER_MAX_SEEDS {
        return not_found("tables above 12 seeds are not sent to browsers");
    }
    let Some(tables) = hub.engines().tablebase() else {
        return not_found("the tables are not ready");
    };
    let Some(bytes) = tables.file_bytes(seeds) else {
        return not_found("the server's tables do not go that far");
    };
    let mut resp = (StatusCode::OK, bytes).into_response();
    let h = resp.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/octet-stream"),
    );
    // A table never changes for a given format version (the file says
    // which): the browser keeps it for a day, the service worker longer.
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=86400"),
    );
    resp
}

#[cfg(test)]
mod tests {
    use super::seeds_of;

    #[test]
    fn only_table_file_names_are_read() {
        assert_eq!(seeds_of("oware-tb-00.otb"), Some(0));
        assert_eq!(seeds_of("oware-tb-12.otb"), Some(12));
        for bad in [
            "oware-tb-1.otb",
            "oware-tb-123.otb",
            "oware-tb-+1.otb",
            "x.otb",
            "oware-tb-01.otb.tmp",
        ] {
            assert_eq!(seeds_of(bad), None, "{bad}");
        }
    }
}
