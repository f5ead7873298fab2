//! `serve` and `serve-bench`: the web app and its load generator.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Subcommand};

#[derive(Subcommand)]
pub enum Command {
    /// Start the web app: play, learn and study in the browser.
    Serve(ServeArgs),
    /// Load generator: play many simultaneous online games against a server over WebSocket.
    ServeBench(oware_server::bench::BenchArgs),
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
}

pub fn run(command: Command) -> anyhow::Result<()> {
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
        Command::ServeBench(args) => oware_server::bench::run_blocking(args),
    }
}
