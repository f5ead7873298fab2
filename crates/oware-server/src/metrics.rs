//! The node's counters, rendered in the Prometheus text format (version
//! 0.0.4) for `/metrics` (served by `http.rs`, with `/healthz` and `/readyz`
//! for load balancers and orchestrators: docs/DEPLOY.md).

use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering::Relaxed};
use std::time::Duration;

/// Upper bounds of the commit-latency histogram, seconds.
const BUCKETS: [f64; 10] = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0];

/// Counters kept by the hub and the WebSocket handler.
#[derive(Default)]
pub struct Metrics {
    moves: AtomicU64,
    sockets: AtomicI64,
    commits: AtomicU64,
    commit_us: AtomicU64,
    commit_buckets: [AtomicU64; BUCKETS.len()],
    notices: AtomicU64,
    notice_lag_ms: AtomicU64,
    notice_lag_max_ms: AtomicI64,
    taken_over: AtomicU64,
    director_ticks: AtomicU64,
    director_done_at: AtomicI64,
    lobby_done_at: AtomicI64,
    draining: AtomicBool,
}

impl Metrics {
    /// A ply was stored.
    pub(crate) fn moved(&self) {
        self.moves.fetch_add(1, Relaxed);
    }

    /// A store write finished after `elapsed` (queue and commit).
    pub(crate) fn commit_latency(&self, elapsed: Duration) {
        self.commits.fetch_add(1, Relaxed);
        self.commit_us
            .fetch_add(elapsed.as_micros() as u64, Relaxed);
        let s = elapsed.as_secs_f64();
        for (i, bound) in BUCKETS.iter().enumerate() {
            if s <= *bound {
                self.commit_buckets[i].fetch_add(1, Relaxed);
            }
        }
    }

    /// Another node's notice arrived `lag_ms` after it was sent.
    pub(crate) fn notice_lag(&self, lag_ms: i64) {
        self.notices.fetch_add(1, Relaxed);
        self.notice_lag_ms.fetch_add(lag_ms.max(0) as u64, Relaxed);
        self.notice_lag_max_ms.fetch_max(lag_ms, Relaxed);
    }

    /// The tournaments' director finished the tick it began at `at` (the
    /// server's Unix ms): its looks are done.
    pub(crate) fn director_ticked(&self, at: i64) {
        self.director_ticks.fetch_add(1, Relaxed);
        self.director_done_at.fetch_max(at, Relaxed);
    }

    /// When (the server's Unix ms) the last finished tick of the
    /// tournaments' director began: a test on a manual clock moves the
    /// clock to T, then waits until this reaches T.
    pub fn director_done_at(&self) -> i64 {
        self.director_done_at.load(Relaxed)
    }

    /// The lobby's round begun at `at` (the server's Unix ms) is done: the
    /// seeks seen here marked, the stale ones cancelled.
    pub(crate) fn lobby_swept(&self, at: i64) {
        self.lobby_done_at.fetch_max(at, Relaxed);
    }

    /// When (the server's Unix ms) the last finished round of the lobby
    /// began (as [`Metrics::director_done_at`]).
    pub fn lobby_done_at(&self) -> i64 {
        self.lobby_done_at.load(Relaxed)
    }

    /// An overdue game was claimed and acted on.
    pub(crate) fn taken_over(&self) {
        self.taken_over.fetch_add(1, Relaxed);
    }

    /// A WebSocket opened (`+1`) or closed (`-1`).
    pub(crate) fn socket(&self, delta: i64) {
        self.sockets.fetch_add(delta, Relaxed);
    }

    /// Game WebSockets open now.
    pub fn sockets(&self) -> i64 {
        self.sockets.load(Relaxed)
    }

    /// Plies stored by this node.
    pub fn moves(&self) -> u64 {
        self.moves.load(Relaxed)
    }

    /// Stops answering ready (the node is being stopped).
    pub fn drain(&self) {
        self.draining.store(true, Relaxed);
    }

    /// Whether the node is being stopped.
    pub fn draining(&self) -> bool {
        self.draining.load(Relaxed)
    }
}

impl Metrics {
    /// The counters in the Prometheus text format (version 0.0.4), with
    /// the number of games the node holds in memory.
    pub fn render(&self, games_in_memory: usize) -> String {
        let m = self;
        let mut out = String::new();
        let mut metric = |name: &str, kind: &str, help: &str, value: String| {
            let _ = writeln!(
                out,
                "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}"
            );
        };
        metric(
            "oware_games_in_memory",
            "gauge",
            "Games held in this node's memory.",
            games_in_memory.to_string(),
        );
        metric(
            "oware_sockets",
            "gauge",
            "Game WebSockets open on this node.",
            m.sockets().to_string(),
        );
        metric(
            "oware_moves_total",
            "counter",
            "Plies stored by this node (rate() gives moves per second).",
            m.moves().to_string(),
        );
        metric(
            "oware_notices_total",
            "counter",
            "Changes of other nodes received over the pub/sub.",
            m.notices.load(Relaxed).to_string(),
        );
        metric(
            "oware_pubsub_lag_seconds_sum",
            "counter",
            "Total time from another node's commit to its notice here.",
            format!("{:.3}", m.notice_lag_ms.load(Relaxed) as f64 / 1000.0),
        );
        metric(
            "oware_pubsub_lag_seconds_max",
            "gauge",
            "Longest pub/sub lag seen.",
            format!(
                "{:.3}",
                m.notice_lag_max_ms.load(Relaxed).max(0) as f64 / 1000.0
            ),
        );
        metric(
            "oware_overdue_taken_total",
            "counter",
            "Overdue games (clocks, computer replies) this node claimed.",
            m.taken_over.load(Relaxed).to_string(),
        );
        metric(
            "oware_director_ticks_total",
            "counter",
            "Ticks of the tournaments' director this node finished (a second of the server's clock each).",
            m.director_ticks.load(Relaxed).to_string(),
        );
        metric(
            "oware_director_last_tick_seconds",
            "gauge",
            "When (the server's clock, Unix seconds) the last finished tick of the tournaments' director began; 0 before the first.",
            format!("{:.3}", m.director_done_at.load(Relaxed).max(0) as f64 / 1000.0),
        );
        metric(
            "oware_lobby_last_round_seconds",
            "gauge",
            "When (the server's clock, Unix seconds) the last finished round of the lobby (seeks seen, stale ones cancelled) began; 0 before the first.",
            format!("{:.3}", m.lobby_done_at.load(Relaxed).max(0) as f64 / 1000.0),
        );
        let _ = writeln!(
            out,
            "# HELP oware_commit_seconds Time from a write's queueing to its commit.\n# TYPE oware_commit_seconds histogram"
        );
        for (i, bound) in BUCKETS.iter().enumerate() {
            let _ = writeln!(
                out,
                "oware_commit_seconds_bucket{{le=\"{bound}\"}} {}",
                m.commit_buckets[i].load(Relaxed)
            );
        }
        let count = m.commits.load(Relaxed);
        let _ = writeln!(out, "oware_commit_seconds_bucket{{le=\"+Inf\"}} {count}");
        let _ = writeln!(
            out,
            "oware_commit_seconds_sum {:.6}\noware_commit_seconds_count {count}",
            m.commit_us.load(Relaxed) as f64 / 1e6
        );
        out
    }
}
