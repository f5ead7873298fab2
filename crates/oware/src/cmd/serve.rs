//! `serve` and `serve-bench`: the web app and its load generator.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Subcommand};

#[derive(Subcommand)]
pub enum Command {
    /// Start the web app: play, learn and study in the browser.
    #[command(after_help = "Examples:
  oware serve                            http://127.0.0.1:8080, games in the user's data folder
  oware serve --addr 0.0.0.0:8080 --db games.sqlite3
  oware serve --db postgres://oware:secret@db:5432/oware")]
    Serve(ServeArgs),
    /// Load generator: play many simultaneous online games against a server over WebSocket.
    #[command(after_help = "Examples:
  oware serve-bench --games 1000 --duration-s 30
  oware serve-bench --addr 127.0.0.1:8080 --games 5000 --server-pid 1234")]
    ServeBench(super::serve_bench::BenchArgs),
}

#[derive(Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Where games are kept: a SQLite file (default: games.sqlite3 in the
    /// user's data directory), or a PostgreSQL URL
    /// (`postgres://user:password@host:port/dbname`) that several nodes
    /// share (docs/DEPLOY.md).
    #[arg(long)]
    db: Option<String>,
    /// Most PostgreSQL connections this node opens.
    #[arg(long, default_value_t = 16)]
    db_pool: usize,
    /// Engine searches that may run at once (default: the number of cores).
    #[arg(long)]
    engine_threads: Option<usize>,
    /// Hints, analyses and reviews that may search at once, beside the
    /// games' own engine threads (default: half the cores, at least 1).
    #[arg(long)]
    engine_study_threads: Option<usize>,
    /// Turn off the per-client rate limits (for load benchmarks, which
    /// play thousands of games from one address).
    #[arg(long)]
    no_rate_limits: bool,
    /// Take each client's address from the last X-Forwarded-For entry
    /// (only behind a reverse proxy that sets it).
    #[arg(long)]
    trust_forwarded_for: bool,
    /// Mark session cookies Secure (when clients reach the server over TLS).
    #[arg(long)]
    secure_cookies: bool,
    /// Endgame tables up to this many seeds, opened or built in the
    /// background at start (20: about 70 s on two cores the first time);
    /// 0 for none.
    #[arg(long, default_value_t = 20)]
    tablebase_seeds: usize,
    /// Folder of the endgame tables (default: `tablebases` beside the
    /// database).
    #[arg(long)]
    tablebase_dir: Option<PathBuf>,
    /// Play without the opening book.
    #[arg(long)]
    no_book: bool,
    /// Seconds a lobby game (seek) stays listed after its creator's last
    /// connection closes (a page reload reconnects well within it).
    #[arg(long, default_value_t = 15, value_parser = clap::value_parser!(u64).range(1..=3600))]
    seek_grace: u64,
    /// A tournament the server runs by itself, announced an hour ahead:
    /// "arena hourly 3+2 45" (an arena on every hour, 45 minutes, 3 minutes
    /// and 2 seconds a move) or "swiss daily@18 10+5 5" (5 rounds every
    /// day at 18:00 UTC). Repeat the flag for several.
    #[arg(long, value_name = "KIND EVERY CLOCK LENGTH")]
    tournament_schedule: Vec<oware_server::schedule::Scheduled>,
    /// For tests of separate processes only: the server's clock stands
    /// still at this Unix time in milliseconds ("now": the time of the
    /// start) and moves only when a client on the loopback address asks
    /// (`POST /api/v1/clock`); several nodes given the same time agree.
    #[arg(long, hide = true, value_name = "UNIX_MS|now")]
    manual_clock: Option<String>,
    /// Send mail (address verification, password resets, "your move" in
    /// correspondence, tournaments starting) through this SMTP relay:
    /// smtp://host[:port], reached without TLS (a local MTA that relays
    /// on). Without it the site sends no mail.
    #[arg(long, value_name = "smtp://HOST[:PORT]", requires = "mail_from")]
    smtp: Option<String>,
    /// The address mails come from (with --smtp).
    #[arg(long, value_name = "ADDRESS", requires = "smtp")]
    mail_from: Option<String>,
    /// The site's address as players reach it, for the links in mails
    /// (default: http:// and --addr).
    #[arg(long, value_name = "URL")]
    public_url: Option<String>,
}

/// Logs to standard error: `info` and above by default, or what `RUST_LOG`
/// asks for (e.g. `RUST_LOG=oware_server=debug`). Colours only on a
/// terminal: a log redirected to a file or a journal gets plain text.
fn init_logging() {
    use std::io::IsTerminal;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none())
        .with_writer(std::io::stderr)
        .try_init();
}

pub fn run(command: Command) -> anyhow::Result<()> {
    init_logging();
    match command {
        Command::Serve(args) => {
            let mut options = oware_server::ServerOptions {
                addr: args.addr,
                pool_size: args.db_pool,
                ..Default::default()
            };
            match args.db {
                Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
                    options.postgres = Some(url)
                }
                Some(path) => options.db = Some(PathBuf::from(path)),
                None => {}
            }
            if let Some(n) = args.engine_threads {
                anyhow::ensure!(n >= 1, "--engine-threads must be at least 1");
                options.config.engine_threads = n;
            }
            if let Some(n) = args.engine_study_threads {
                anyhow::ensure!(n >= 1, "--engine-study-threads must be at least 1");
                options.config.engine_study_threads = n;
            }
            if args.no_rate_limits {
                options.config.rate_limits = None;
            }
            options.config.secure_cookies = args.secure_cookies;
            options.config.seek_grace = std::time::Duration::from_secs(args.seek_grace);
            options.config.tournament_schedule = args.tournament_schedule;
            if let Some(at) = &args.manual_clock {
                let wall = oware_server::time::Time::wall();
                let at = match at.as_str() {
                    "now" => wall.unix_ms(),
                    ms => ms.parse::<i64>().map_err(|_| {
                        anyhow::anyhow!("--manual-clock: {ms:?} is not a time in ms or \"now\"")
                    })?,
                };
                options.config.time = oware_server::time::Time::manual(at);
            }
            options.config.book = !args.no_book;
            if args.tablebase_seeds > 0 {
                anyhow::ensure!(
                    args.tablebase_seeds <= 28,
                    "--tablebase-seeds: at most 28 on one machine"
                );
                // Beside the SQLite file; with PostgreSQL, in the user's
                // data directory (each node keeps its own copy).
                let db = match &options.db {
                    Some(p) => p.clone(),
                    None => oware_server::default_db_path()?,
                };
                let dir = args.tablebase_dir.clone().unwrap_or_else(|| {
                    db.parent()
                        .unwrap_or(std::path::Path::new("."))
                        .join(oware_tablebase::DEFAULT_DIR)
                });
                options.config.tablebases = Some(oware_server::config::Tablebases {
                    dir: Some(dir),
                    max_seeds: args.tablebase_seeds,
                });
            }
            options.config.trust_forwarded_for = args.trust_forwarded_for;
            if let (Some(smtp), Some(from)) = (&args.smtp, &args.mail_from) {
                let public = args
                    .public_url
                    .clone()
                    .unwrap_or_else(|| format!("http://{}", args.addr));
                options.config.mail = Some(oware_server::mailer::MailConfig::parse(
                    smtp, from, &public,
                )?);
            }
            oware_server::serve_blocking(options, |server| {
                println!(
                    "Oware is ready: open http://{}/ in a browser",
                    server.addr()
                );
                println!("games are kept in {}", server.db());
                println!("press Ctrl-C to stop");
            })?;
            Ok(())
        }
        Command::ServeBench(args) => super::serve_bench::run_blocking(args),
    }
}
