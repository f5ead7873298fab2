//! Server settings: the engine's share of the machine, the caps on what
//! one request may cost, connection limits and per-client rate limits.

use std::time::Duration;

/// Server settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// Searches that may run at once.
    pub engine_threads: usize,
    /// Study searches (hints, analyses, reviews) that may run at once,
    /// apart from the games' own `engine_threads`.
    pub engine_study_threads: usize,
    /// Study requests that may be running or waiting at once before
    /// requests get `busy`.
    pub engine_queue: usize,
    /// Hash table per engine, MiB.
    pub engine_hash_mb: usize,
    /// Longest time the engine thinks for one move in a computer game.
    pub engine_move_cap: Duration,
    /// Longest time one engine request (analysis, hint) may search,
    /// whatever depth it asked for.
    pub engine_request_cap: Duration,
    /// Longest time the review of one game may take in all.
    pub review_cap: Duration,
    /// Connections open at once (HTTP and WebSocket); fewer if the
    /// process's file-descriptor limit cannot be raised that far.
    pub max_connections: usize,
    /// A connection that sends nothing for this long is closed.
    pub idle_timeout: Duration,
    /// A request's header must have arrived in full this long after its
    /// first byte, or the connection is closed: a client sending its
    /// header a line at a time (slow-loris) cannot hold a connection.
    pub header_read_timeout: Duration,
    /// Requests one client may make; `None` turns the limits off (load
    /// benchmarks, which play thousands of games from one address).
    pub rate_limits: Option<RateLimits>,
    /// Take the client's address from the last `X-Forwarded-For` entry
    /// (set this only behind a reverse proxy that writes that header).
    pub trust_forwarded_for: bool,
    /// Mark session cookies `Secure` (set this when clients reach the
    /// server over TLS, e.g. behind a proxy that terminates it).
    pub secure_cookies: bool,
    /// The engine plays its opening book (computer games and hints).
    pub book: bool,
    /// Endgame tables: opened from, or built in the background into, a
    /// folder (in memory without one), and used as soon as they are ready.
    /// `None`: no tables.
    pub tablebases: Option<Tablebases>,
    /// A seek whose creator has had no connection open for this long is
    /// cancelled (a reload reconnects well within it).
    pub seek_grace: Duration,
    /// The pause between a Swiss round's last game and the next round's
    /// pairing, for the players to read the standings (tests wait it out
    /// on a manual clock).
    pub swiss_break: Duration,
    /// The most entrants a tournament takes.
    pub tournament_max_players: usize,
    /// Open tournaments created by players, all together (the site's own
    /// schedule is not counted): with each account capped at three, a crowd
    /// of accounts could otherwise open thousands.
    pub tournament_max_open: u32,
    /// The tournaments the server runs by itself (`oware serve
    /// --tournament-schedule`).
    pub tournament_schedule: Vec<crate::schedule::Scheduled>,
    /// The server's one clock: the wall clock, or a manual one in tests
    /// (`time.rs`).
    pub time: crate::time::Time,
    /// Where mail goes (`oware serve --smtp`); `None`: no mail, and the
    /// account page says e-mail is not available.
    pub mail: Option<crate::mailer::MailConfig>,
}

/// Where the server's endgame tables come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tablebases {
    /// Folder of the table files (kept between runs); `None` builds them in
    /// memory at every start.
    pub dir: Option<std::path::PathBuf>,
    /// Positions up to this many seeds (20: about 70 s to build on two
    /// cores the first time, 226 MB of files).
    pub max_seeds: usize,
}

impl Default for Config {
    fn default() -> Config {
        let cores = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2);
        Config {
            engine_threads: cores.max(1),
            engine_study_threads: (cores / 2).max(1),
            engine_queue: 64,
            engine_hash_mb: 16,
            engine_move_cap: Duration::from_secs(3),
            engine_request_cap: Duration::from_secs(10),
            review_cap: Duration::from_secs(30),
            max_connections: 20_000,
            idle_timeout: Duration::from_secs(180),
            header_read_timeout: Duration::from_secs(10),
            rate_limits: Some(RateLimits::default()),
            trust_forwarded_for: false,
            secure_cookies: false,
            book: true,
            tablebases: None,
            seek_grace: Duration::from_secs(15),
            swiss_break: Duration::from_secs(20),
            tournament_max_players: 200,
            tournament_max_open: 100,
            tournament_schedule: Vec::new(),
            time: crate::time::Time::wall(),
            mail: None,
        }
    }
}

/// How often one client (one IPv4 address, or one IPv6 /64 network) may
/// ask for costly things. Each is a rate with a burst: the burst may be
/// spent at once, then it refills at the rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateLimits {
    /// Games created (new games, imports, rematches) per minute.
    pub games_per_minute: u32,
    /// Games that may be created at once.
    pub games_burst: u32,
    /// Engine requests (analysis, hints, reviews) per minute.
    pub engine_per_minute: u32,
    /// Engine requests at once.
    pub engine_burst: u32,
    /// WebSocket messages per second from one client, all its sockets
    /// together.
    pub ws_messages_per_second: u32,
    /// WebSocket messages at once from one client.
    pub ws_burst: u32,
    /// Chat messages one client (address, and account when signed in) may
    /// send at once, on all its sockets together; then one a second.
    pub chat_burst: u32,
    /// Game WebSockets one client address may hold open (0: no limit).
    pub sockets_per_client: usize,
    /// Connections (HTTP and WebSocket together) one address may hold
    /// open; past it a new connection is answered `rate_limited`
    /// (`connections`) and closed (0: no limit). Counted on the
    /// connection's own address, so not applied behind a trusted proxy
    /// (`trust_forwarded_for`), whose connections all come from one address.
    pub connections_per_address: usize,
    /// Games one account may have waiting in the lobby at once (0: no
    /// limit, for accounts and addresses both).
    pub seeks_per_account: usize,
    /// Games one address may have waiting in the lobby at once (a
    /// household or a school shares one address).
    pub seeks_per_address: usize,
    /// Sign-in attempts per minute from one address.
    pub sign_in_per_minute: u32,
    /// Wrong passwords on one account, from all addresses together, in
    /// 15 minutes, past which only addresses that have not been guessing
    /// may try it (`limits::SignInGuard`).
    pub sign_in_failures_per_account: u32,
    /// Accounts created per hour from one address.
    pub sign_ups_per_hour: u32,
    /// Costly reads of one's account (`/account/games`,
    /// `/account/relations`) per minute, per address and per account.
    pub reads_per_minute: u32,
    /// Costly reads at once.
    pub reads_burst: u32,
    /// Exports of one's account (`/account/export`) per hour, per address
    /// and per account.
    pub exports_per_hour: u32,
    /// Exports at once.
    pub exports_burst: u32,
    /// Requests that send a mail (an address added, a password reset) per
    /// hour, per address and per account.
    pub mails_per_hour: u32,
    /// Such requests at once.
    pub mails_burst: u32,
}

impl Default for RateLimits {
    fn default() -> RateLimits {
        // A person creates a game every few minutes and asks for a hint or
        // an analysis every few seconds at most; a study page asks again at
        // every edit. These leave room for that and stop floods.
        RateLimits {
            games_per_minute: 20,
            games_burst: 20,
            engine_per_minute: 120,
            engine_burst: 30,
            ws_messages_per_second: 20,
            ws_burst: 60,
            chat_burst: 5,
            sockets_per_client: 50,
            // The game sockets of one address, and room for its pages.
            connections_per_address: 64,
            seeks_per_account: 3,
            seeks_per_address: 10,
            sign_in_per_minute: 10,
            sign_in_failures_per_account: 20,
            sign_ups_per_hour: 5,
            reads_per_minute: 60,
            reads_burst: 20,
            exports_per_hour: 6,
            exports_burst: 3,
            mails_per_hour: 10,
            mails_burst: 5,
        }
    }
}
