//! `oware serve`: the web app's server. Static pages embedded in the binary,
//! a JSON HTTP API and one WebSocket per game (docs/PROTOCOL.md), games kept
//! in SQLite behind the [`store::Store`] trait, the engine on blocking
//! threads. Every rule is a call into `oware-core`.
//!
//! ```no_run
//! # async fn run() -> std::io::Result<()> {
//! use oware_server::{Server, ServerOptions};
//! let server = Server::start(ServerOptions { db: Some("games.db".into()), ..ServerOptions::default() }).await?;
//! println!("http://{}", server.addr());
//! server.wait().await;
//! # Ok(()) }
//! ```

#![deny(missing_docs)]

pub mod accounts;
pub mod admin;
pub mod assets;
pub mod challenge_routes;
pub mod coach_routes;
pub mod config;
pub mod engines;
pub mod error;
pub mod http;
pub mod hub;
pub mod lesson_routes;
pub mod limits;
pub mod listener;
pub mod mail_routes;
pub mod mailer;
pub mod metrics;
pub mod mistakes_routes;
pub mod model;
pub mod notification_routes;
pub mod offline_routes;
pub mod protocol;
pub use model::ratings;
pub mod puzzle_routes;
pub mod schedule;
pub mod security;
pub mod state;
pub mod store;
pub mod table_routes;
pub mod time;
pub mod tournament_routes;
mod ws;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::Router;
use tokio::task::JoinHandle;

pub use config::{Config, RateLimits};
pub use hub::Hub;

/// How to start a server.
#[derive(Clone, Debug)]
pub struct ServerOptions {
    /// Address to listen on (port 0 for any free port).
    pub addr: SocketAddr,
    /// Database file; the user's data directory when `None`.
    pub db: Option<PathBuf>,
    /// A PostgreSQL URL (`postgres://user@host:port/db`): games are kept
    /// there instead of in `db`, and any number of nodes may share it.
    pub postgres: Option<String>,
    /// Most connections to PostgreSQL from this node.
    pub pool_size: usize,
    /// Engine and limits.
    pub config: Config,
}

impl Default for ServerOptions {
    fn default() -> ServerOptions {
        ServerOptions {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            db: None,
            postgres: None,
            pool_size: 16,
            config: Config::default(),
        }
    }
}

/// The default database path: `<data dir>/oware/games.sqlite3`.
pub fn default_db_path() -> std::io::Result<PathBuf> {
    let dir = dirs::data_dir()
        .or_else(|| dirs::home_dir().map(|h| h.join(".local/share")))
        .ok_or_else(|| std::io::Error::other("no data directory found; give --db PATH"))?;
    Ok(dir.join("oware").join("games.sqlite3"))
}

/// The whole application as a router (API, WebSocket, static files).
pub fn app(state: state::AppState) -> Router {
    let hub = state.hub.clone();
    http::routes()
        .merge(accounts::routes::routes())
        .merge(accounts::community::routes())
        .merge(coach_routes::routes())
        .merge(lesson_routes::routes())
        .merge(puzzle_routes::routes())
        .merge(mistakes_routes::routes())
        .merge(offline_routes::routes())
        .merge(table_routes::routes())
        .merge(tournament_routes::routes())
        .merge(notification_routes::routes())
        .merge(challenge_routes::routes())
        .merge(mail_routes::routes())
        .layer(axum::middleware::from_fn_with_state(
            hub.clone(),
            accounts::session::middleware,
        ))
        .fallback(assets::static_or_index)
        // One body limit for every route (the OGN import sets its own).
        .layer(axum::extract::DefaultBodyLimit::max(http::BODY_LIMIT))
        .layer(axum::middleware::from_fn(security::headers))
        .with_state(state)
}

/// A running server.
pub struct Server {
    addr: SocketAddr,
    db: String,
    hub: Arc<Hub>,
    task: JoinHandle<std::io::Result<()>>,
}

impl Server {
    /// Opens the database and starts listening.
    pub async fn start(options: ServerOptions) -> std::io::Result<Server> {
        let (store, db): (Arc<dyn store::Store>, String) = match &options.postgres {
            Some(url) => {
                let store = store::PgStore::connect(url, options.pool_size)
                    .await
                    .map_err(|e| {
                        std::io::Error::other(format!("cannot open the PostgreSQL database: {e}"))
                    })?;
                (Arc::new(store), redact(url))
            }
            None => {
                let db = Self::sqlite_path(options.db)?;
                let store = store::SqliteStore::open(&db).map_err(|e| {
                    std::io::Error::other(format!("cannot open the database {}: {e}", db.display()))
                })?;
                (Arc::new(store), db.display().to_string())
            }
        };
        let max_connections = options.config.max_connections;
        let idle_timeout = options.config.idle_timeout;
        let limits = Arc::new(limits::Limiter::new(
            options.config.rate_limits,
            &store,
            options.config.time.clone(),
        ));
        let hub = Hub::new(store, options.config);
        let listener = listener::bind(options.addr).map_err(|e| {
            std::io::Error::new(e.kind(), format!("cannot listen on {}: {e}", options.addr))
        })?;
        let addr = listener.local_addr()?;
        let forget = Arc::downgrade(&limits);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(std::time::Duration::from_secs(30)).await;
                match forget.upgrade() {
                    Some(l) => l.forget_idle(),
                    None => break,
                }
            }
        });
        let router = app(state::AppState {
            hub: hub.clone(),
            limits,
            config: Arc::new(hub.config().clone()),
        });
        let max = listener::connection_limit(max_connections);
        tracing::info!("at most {max} connections open at once");
        // Behind a trusted proxy every connection comes from the proxy:
        // there the proxy limits each client's connections.
        let per_address = match (&hub.config().rate_limits, hub.config().trust_forwarded_for) {
            (Some(l), false) => l.connections_per_address,
            _ => 0,
        };
        let listener = listener::Limited::new(listener, max, idle_timeout).per_address(per_address);
        let header_timeout = hub.config().header_read_timeout;
        let task = tokio::spawn(listener::serve(listener, router, header_timeout));
        Ok(Server {
            addr,
            db,
            hub,
            task,
        })
    }

    /// The SQLite file, its folder created.
    fn sqlite_path(db: Option<PathBuf>) -> std::io::Result<PathBuf> {
        let db = match db {
            Some(p) => p,
            None => default_db_path()?,
        };
        if let Some(dir) = db.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| {
                std::io::Error::new(
                    e.kind(),
                    format!(
                        "cannot create the folder {} for the database {}: {e}",
                        dir.display(),
                        db.display()
                    ),
                )
            })?;
        }
        Ok(db)
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Where games are kept: the SQLite file, or the PostgreSQL URL
    /// without its password.
    pub fn db(&self) -> &str {
        &self.db
    }

    /// The hub (for tests and the benchmark).
    pub fn hub(&self) -> &Arc<Hub> {
        &self.hub
    }

    /// Runs until the listener fails.
    pub async fn wait(self) -> std::io::Result<()> {
        self.task.await.map_err(std::io::Error::other)?
    }

    /// Stops as if the process had died: no more connections are taken
    /// (open ones are dropped with the runtime), and the hub writes nothing
    /// more ([`Hub::halt`]), so the tasks left running in this process
    /// cannot touch a database that the next server opens.
    pub fn abort(&self) {
        self.task.abort();
        self.hub.halt();
    }
}

/// Builds a multi-threaded runtime and serves until Ctrl-C, calling
/// `ready` with the server once it listens. For the `oware serve` command.
pub fn serve_blocking(options: ServerOptions, ready: impl FnOnce(&Server)) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let server = Server::start(options).await?;
        ready(&server);
        let hub = server.hub.clone();
        tokio::select! {
            r = server.task => r.map_err(std::io::Error::other)?,
            _ = stop_signal() => {
                // Not ready any more, sockets told to reconnect elsewhere;
                // writes under way finish before their clients hear of them.
                tracing::info!("stopping: closing game sockets");
                hub.stop_gracefully();
                tokio::time::sleep(std::time::Duration::from_millis(500)).await;
                Ok(())
            }
        }
    })
}

/// Ctrl-C, or SIGTERM (what systemd and orchestrators send).
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// A database URL fit for a log: its password replaced.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let userinfo = &url[scheme + 3..at];
            match userinfo.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..scheme + 3], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}
