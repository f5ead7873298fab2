//! `serve` and `serve-bench`: the web app and its load generator.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Subcommand};

#[derive(Subcommand)]
pub enum Command {
    /// Start the web app: play, learn and study in the browser.
    Serve(ServeArgs),
    /// Load generator: play many simultaneous online games against a server over WebSocket.
    ServeBench(super::serve_bench::BenchArgs),
}

#[derive(Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// SQLite database file (default: games.sqlite3 in the user's data directory).
    #[arg(long)]
    db: Option<PathBuf>,
    /// Engine searches that may run at once (default: the number of cores).
    #[arg(long)]
    engine_threads: Option<usize>,
    /// Turn off the per-client rate limits (for load benchmarks, which
    /// play thousands of games from one address).
    #[arg(long)]
    no_rate_limits: bool,
    /// Take each client's address from the last X-Forwarded-For entry
    /// (only behind a reverse proxy that sets it).
    #[arg(long)]
    trust_forwarded_for: bool,
}

/// Logs to standard error: `info` and above by default, or what `RUST_LOG`
/// asks for (e.g. `RUST_LOG=oware_server=debug`).
fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

pub fn run(command: Command) -> anyhow::Result<()> {
    init_logging();
    match command {
        Command::Serve(args) => {
            let mut options = oware_server::ServerOptions {
                addr: args.addr,
                db: args.db,
                ..Default::default()
            };
            if let Some(n) = args.engine_threads {
                anyhow::ensure!(n >= 1, "--engine-threads must be at least 1");
                options.config.engine_threads = n;
            }
            if args.no_rate_limits {
                options.config.rate_limits = None;
            }
            options.config.trust_forwarded_for = args.trust_forwarded_for;
            oware_server::serve_blocking(options, |server| {
                println!(
                    "Oware is ready: open http://{}/ in a browser",
                    server.addr()
                );
                println!("games are kept in {}", server.db().display());
                println!("press Ctrl-C to stop");
            })?;
            Ok(())
        }
        Command::ServeBench(args) => super::serve_bench::run_blocking(args),
    }
}
