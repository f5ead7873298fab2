//! Per-client rate limits ([`crate::config::RateLimits`]), with the GCRA
//! limiters of the `governor` crate: one keyed limiter per kind of costly
//! request, keyed by the client (never by a socket): WebSocket messages
//! and open sockets by address, chat by address and account, whatever
//! socket they come on; costly reads of one's account (game lists,
//! exports) and offline uploads by address and account
//! ([`Limiter::check_client`]); and the wrong-password guard
//! ([`SignInGuard`]). Beside the limits, [`SeenSolutions`] remembers which
//! puzzle solutions each client has been shown, so that a later attempt is
//! not rated.
//!
//! When several nodes share a PostgreSQL store, the requests that cost
//! (games, engine requests, sign-ins, sign-ups, chat) and the wrong-password
//! counts are also counted in the store ([`crate::store::limits`]), so a
//! client gets one allowance whichever node it reaches; each node's own
//! limiter still answers first, without a round trip. WebSocket messages,
//! open sockets and lobby seeks stay counted per node: a socket lives on
//! one node, and a seek is made by a game creation, which is counted for
//! all (docs/SECURITY.md, "Limits across nodes").
//!
//! A client is an IPv4 address or an IPv6 /64 network (one household or
//! one machine usually holds a whole /64, so keying by full address would
//! let it rotate addresses). Behind a reverse proxy the address comes from
//! `X-Forwarded-For`, when the configuration trusts it.

use crate::error::Reason;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::http::HeaderMap;
use governor::middleware::NoOpMiddleware;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter};

use crate::config::RateLimits;
use crate::error::ApiError;
use crate::time::Time;

/// A keyed rate limiter on the server's clock.
type Keyed<K> = RateLimiter<K, DefaultKeyedStateStore<K>, Time, NoOpMiddleware<Instant>>;
use crate::store::limits::add_in_window;
use crate::store::Store;

/// The store's shared counters, when other nodes share it.
#[derive(Clone)]
struct Shared(Arc<dyn Store>);

impl Shared {
    /// Runs `f` on the store's shared counters off the async threads; a
    /// failing store is logged and counts as allowed (each node's own
    /// limiter still holds).
    async fn run<T: Send + 'static>(
        &self,
        what: &'static str,
        f: impl FnOnce(&dyn crate::store::limits::SharedLimits) -> Result<T, crate::store::StoreError>
            + Send
            + 'static,
    ) -> Option<T> {
        let store = self.0.clone();
        let done = tokio::task::spawn_blocking(move || match store.shared_limits() {
            Some(l) => f(l).map(Some),
            None => Ok(None),
        })
        .await;
        let failed = match done {
            Ok(Ok(v)) => return v,
            Ok(Err(e)) => e.to_string(),
            Err(e) => e.to_string(),
        };
        tracing::warn!("shared rate limit ({what}) not checked: {failed}");
        None
    }
}

/// What a limited request costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cost {
    /// Creates a game (new game, import, rematch, offline upload).
    Game,
    /// Runs the engine (analysis, hint, review).
    Engine,
    /// A sign-in attempt.
    SignIn,
    /// A new account.
    SignUp,
    /// Reads many of one's rows (`/account/games`, `/account/relations`).
    Read,
    /// Reads everything about one's account (`/account/export`).
    Export,
    /// Sends a mail (an address added, a password reset).
    Mail,
}

/// The keys a client's limits count under: its address (an IPv4 address
/// or an IPv6 /64), and its account when signed in. A request is refused
/// if any key has its allowance spent, so neither changing address nor
/// signing out buys more.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClientKeys(pub Vec<String>);

impl ClientKeys {
    /// The keys of a client at `addr`, signed in as `account` or not.
    pub fn new(addr: ClientAddr, account: Option<&str>) -> ClientKeys {
        let mut keys = vec![format!("ip:{}", addr.key())];
        if let Some(a) = account {
            keys.push(format!("account:{a}"));
        }
        ClientKeys(keys)
    }

    /// The keys of a client at `addr`, signed in as `user` or not.
    pub fn of(addr: ClientAddr, user: Option<&crate::accounts::User>) -> ClientKeys {
        ClientKeys::new(addr, user.map(|u| u.id.as_str()))
    }
}

/// The server's keyed limiters.
pub struct Limiter {
    /// The costly requests, by client key (`ip:…`, `account:…`).
    games: Option<Keyed<String>>,
    engine: Option<Keyed<String>>,
    sign_in: Option<Keyed<String>>,
    sign_up: Option<Keyed<String>>,
    reads: Option<Keyed<String>>,
    exports: Option<Keyed<String>>,
    mails: Option<Keyed<String>>,
    sign_in_failures: Option<SignInGuard>,
    /// WebSocket messages, by client address, whatever the socket.
    ws: Option<Keyed<IpAddr>>,
    /// Chat messages, by client key (address and account).
    chat: Option<Keyed<String>>,
    /// Open game sockets, by client address.
    sockets: Option<Arc<SocketCount>>,
    /// Games waiting in the lobby, by client key.
    seeks: Option<OpenSeeks>,
    /// The quotas, for the counters shared with other nodes.
    rates: Option<RateLimits>,
    /// The store's counters, when other nodes share it.
    shared: Option<Shared>,
    /// The puzzles whose solution each client has been shown.
    seen: SeenSolutions,
    /// The server's clock.
    time: Time,
}

/// The lobby games (seeks) each client key has open, so that one client
/// cannot fill the lobby: at most `per_account` waiting at once per
/// account, and `per_address` per address (more, since a household or a
/// school shares one). A seek counts until it is taken, ends, or leaves
/// the lobby at [`SEEK_TTL`].
pub struct OpenSeeks {
    per_account: usize,
    per_address: usize,
    by_key: Mutex<HashMap<String, Vec<(String, Instant)>>>,
    time: Time,
}

/// How long a seek stays listed in the lobby without being taken.
pub const SEEK_TTL: Duration = Duration::from_secs(30 * 60);

/// A lobby place held for a seek being created; given back if dropped
/// before [`SeekPlace::confirm`].
pub struct SeekPlace<'a> {
    seeks: &'a OpenSeeks,
    keys: Vec<String>,
    placeholder: String,
}

impl SeekPlace<'_> {
    /// The seek was created as game `id`.
    pub fn confirm(mut self, id: &str) {
        let mut map = self.seeks.lock();
        for k in &self.keys {
            if let Some(list) = map.get_mut(k) {
                for e in list.iter_mut().filter(|e| e.0 == self.placeholder) {
                    e.0 = id.to_string();
                }
            }
        }
        self.placeholder.clear();
    }
}

impl Drop for SeekPlace<'_> {
    fn drop(&mut self) {
        if self.placeholder.is_empty() {
            return;
        }
        let mut map = self.seeks.lock();
        for k in &self.keys {
            if let Some(list) = map.get_mut(k) {
                list.retain(|e| e.0 != self.placeholder);
            }
        }
    }
}

impl OpenSeeks {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Vec<(String, Instant)>>> {
        self.by_key.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The seeks recorded under `client` and still young enough to be
    /// listed: the caller asks the store which of them still wait.
    pub fn recent(&self, client: &ClientKeys) -> Vec<String> {
        let now = self.time.now();
        let map = self.lock();
        let mut ids: Vec<String> = client
            .0
            .iter()
            .filter_map(|k| map.get(k))
            .flatten()
            .filter(|(id, at)| !id.starts_with('~') && now.duration_since(*at) < SEEK_TTL)
            .map(|(id, _)| id.clone())
            .collect();
        ids.sort();
        ids.dedup();
        ids
    }

    /// Holds a lobby place for a new seek of `client`, forgetting first the
    /// seeks in `gone` (no longer waiting); `rate_limited` when one of its
    /// keys has `max` seeks open.
    pub fn reserve(&self, client: &ClientKeys, gone: &[String]) -> Result<SeekPlace<'_>, ApiError> {
        let now = self.time.now();
        let mut map = self.lock();
        for k in &client.0 {
            if let Some(list) = map.get_mut(k) {
                list.retain(|(id, at)| now.duration_since(*at) < SEEK_TTL && !gone.contains(id));
            }
        }
        for k in &client.0 {
            let (max, whose) = if k.starts_with("account:") {
                (self.per_account, "your account has")
            } else {
                (self.per_address, "your address has")
            };
            if map.get(k).map_or(0, Vec::len) >= max {
                return Err(ApiError::rate_limited(format!(
                    "{whose} {max} games waiting in the lobby already; wait for a player or let one lapse"
                ))
                .with_reason(if k.starts_with("account:") {
                    Reason::SeeksAccount
                } else {
                    Reason::SeeksAddress
                }));
            }
        }
        let placeholder = format!("~{}", rand::random::<u64>());
        for k in &client.0 {
            map.entry(k.clone())
                .or_default()
                .push((placeholder.clone(), now));
        }
        Ok(SeekPlace {
            seeks: self,
            keys: client.0.clone(),
            placeholder,
        })
    }

    /// Forgets keys with nothing recent.
    fn forget_old(&self) {
        let now = self.time.now();
        let mut map = self.lock();
        map.retain(|_, list| {
            list.retain(|(_, at)| now.duration_since(*at) < SEEK_TTL);
            !list.is_empty()
        });
    }
}

/// Open game sockets by client address, and the most one may hold.
pub struct SocketCount {
    max: usize,
    open: Mutex<HashMap<IpAddr, usize>>,
}

/// One open game socket, counted until dropped.
pub struct SocketPlace {
    count: Option<(Arc<SocketCount>, IpAddr)>,
}

impl Drop for SocketPlace {
    fn drop(&mut self) {
        if let Some((count, key)) = self.count.take() {
            let mut open = count.open.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(n) = open.get_mut(&key) {
                *n -= 1;
                if *n == 0 {
                    open.remove(&key);
                }
            }
        }
    }
}

fn quota_per_minute(rate: u32, burst: u32) -> Option<Quota> {
    let rate = NonZeroU32::new(rate)?;
    let burst = NonZeroU32::new(burst.max(1))?;
    Some(Quota::per_minute(rate).allow_burst(burst))
}

impl Limiter {
    /// Limiters for `limits`; `None` limits nothing. With a `store` that
    /// other nodes share, the costly requests and wrong passwords are also
    /// counted there.
    pub fn new(limits: Option<RateLimits>, store: &Arc<dyn Store>, time: Time) -> Limiter {
        let sharing = store
            .shared_limits()
            .is_some()
            .then(|| Shared(store.clone()));
        let shared = sharing.clone().filter(|_| limits.is_some());
        let mut limiter = Limiter::local(limits, shared.clone(), &time);
        limiter.rates = limits;
        limiter.shared = shared;
        // What a client has seen is remembered with the limits off too:
        // it is a rule of the ratings, not a limit.
        limiter.seen = SeenSolutions::new(sharing, time);
        limiter
    }

    fn local(limits: Option<RateLimits>, shared: Option<Shared>, time: &Time) -> Limiter {
        let limiter = |q: Quota| RateLimiter::dashmap_with_clock(q, time.clone());
        let keyed = |q: Option<Quota>| q.map(limiter);
        match limits {
            None => Limiter {
                games: None,
                engine: None,
                sign_in: None,
                sign_up: None,
                reads: None,
                exports: None,
                mails: None,
                sign_in_failures: None,
                ws: None,
                chat: None,
                sockets: None,
                seeks: None,
                rates: None,
                shared: None,
                seen: SeenSolutions::new(None, time.clone()),
                time: time.clone(),
            },
            Some(l) => Limiter {
                games: keyed(quota_per_minute(l.games_per_minute, l.games_burst)),
                engine: keyed(quota_per_minute(l.engine_per_minute, l.engine_burst)),
                sign_in: keyed(quota_per_minute(l.sign_in_per_minute, l.sign_in_per_minute)),
                sign_up: NonZeroU32::new(l.sign_ups_per_hour).map(|n| limiter(Quota::per_hour(n))),
                reads: keyed(quota_per_minute(l.reads_per_minute, l.reads_burst)),
                exports: NonZeroU32::new(l.exports_per_hour).map(|n| {
                    limiter(
                        Quota::with_period(Duration::from_secs(3_600) / n.get())
                            .expect("a period of at most an hour")
                            .allow_burst(
                                NonZeroU32::new(l.exports_burst.max(1)).expect("at least 1"),
                            ),
                    )
                }),
                mails: NonZeroU32::new(l.mails_per_hour).map(|n| {
                    limiter(
                        Quota::with_period(Duration::from_secs(3_600) / n.get())
                            .expect("a period of at most an hour")
                            .allow_burst(
                                NonZeroU32::new(l.mails_burst.max(1)).expect("at least 1"),
                            ),
                    )
                }),
                sign_in_failures: Some(SignInGuard::new(
                    l.sign_in_failures_per_account,
                    shared,
                    time.clone(),
                )),
                ws: NonZeroU32::new(l.ws_messages_per_second).map(|r| {
                    RateLimiter::dashmap_with_clock(
                        Quota::per_second(r)
                            .allow_burst(NonZeroU32::new(l.ws_burst.max(1)).expect("at least 1")),
                        time.clone(),
                    )
                }),
                chat: NonZeroU32::new(l.chat_burst)
                    .map(|burst| limiter(Quota::per_second(NonZeroU32::MIN).allow_burst(burst))),
                seeks: (l.seeks_per_account > 0).then(|| OpenSeeks {
                    per_account: l.seeks_per_account,
                    per_address: l.seeks_per_address.max(l.seeks_per_account),
                    by_key: Mutex::new(HashMap::new()),
                    time: time.clone(),
                }),
                sockets: (l.sockets_per_client > 0).then(|| {
                    Arc::new(SocketCount {
                        max: l.sockets_per_client,
                        open: Mutex::new(HashMap::new()),
                    })
                }),
                rates: None,
                shared: None,
                seen: SeenSolutions::new(None, time.clone()),
                time: time.clone(),
            },
        }
    }

    /// The shared quota of `cost`: (milliseconds between requests, burst).
    fn shared_quota(&self, cost: Cost) -> Option<(i64, u32)> {
        let l = self.rates?;
        let per = |period_ms: i64, rate: u32, burst: u32| {
            (rate > 0).then(|| (period_ms / i64::from(rate), burst.max(1)))
        };
        match cost {
            Cost::Game => per(60_000, l.games_per_minute, l.games_burst),
            Cost::Engine => per(60_000, l.engine_per_minute, l.engine_burst),
            Cost::SignIn => per(60_000, l.sign_in_per_minute, l.sign_in_per_minute),
            Cost::SignUp => per(3_600_000, l.sign_ups_per_hour, l.sign_ups_per_hour),
            Cost::Read => per(60_000, l.reads_per_minute, l.reads_burst),
            Cost::Export => per(3_600_000, l.exports_per_hour, l.exports_burst),
            Cost::Mail => per(3_600_000, l.mails_per_hour, l.mails_burst),
        }
    }

    /// One request against the shared rate `key`; `rate_limited` when all
    /// nodes together have spent it.
    async fn take_shared(
        &self,
        key: String,
        (interval_ms, burst): (i64, u32),
        what: &'static str,
    ) -> Result<(), Duration> {
        let Some(shared) = &self.shared else {
            return Ok(());
        };
        let now = self.time.unix_ms();
        let wait = shared
            .run(what, move |l| l.take(&key, now, interval_ms, burst))
            .await
            .flatten();
        match wait {
            Some(ms) => Err(Duration::from_millis(ms)),
            None => Ok(()),
        }
    }

    /// Counts one request of `cost` from `client` (its address), on this
    /// node and (with a shared store) on all; `rate_limited` (with the
    /// time to wait) when it is over its limit.
    pub async fn check(&self, cost: Cost, client: ClientAddr) -> Result<(), ApiError> {
        self.check_client(cost, &ClientKeys::new(client, None))
            .await
    }

    /// Counts one request of `cost` from `client` under each of its keys
    /// (its address, and its account when signed in), on this node and
    /// (with a shared store) on all: refused when any key has spent its
    /// allowance, so neither more addresses nor signing out buys more.
    pub async fn check_client(&self, cost: Cost, client: &ClientKeys) -> Result<(), ApiError> {
        let limiter = match cost {
            Cost::Game => &self.games,
            Cost::Engine => &self.engine,
            Cost::SignIn => &self.sign_in,
            Cost::SignUp => &self.sign_up,
            Cost::Read => &self.reads,
            Cost::Export => &self.exports,
            Cost::Mail => &self.mails,
        };
        let Some(limiter) = limiter else {
            return Ok(());
        };
        for key in &client.0 {
            limiter.check_key(key).map_err(|not_until| {
                Self::refusal(cost, key, not_until.wait_time_from(self.time.now()))
            })?;
        }
        if let Some(quota) = self.shared_quota(cost) {
            for key in &client.0 {
                self.take_shared(format!("{cost:?}:{key}"), quota, Self::what(cost, key))
                    .await
                    .map_err(|wait| Self::refusal(cost, key, wait))?;
            }
        }
        Ok(())
    }

    /// The refusal of a request of `cost` counted under `key`.
    fn refusal(cost: Cost, key: &str, wait: Duration) -> ApiError {
        let e = ApiError::too_many(Self::what(cost, key), wait);
        match cost {
            Cost::Read => e.with_reason(Reason::Reads),
            Cost::Export => e.with_reason(Reason::Exports),
            Cost::Mail => e.with_reason(Reason::Mails),
            _ => e,
        }
    }

    fn what(cost: Cost, key: &str) -> &'static str {
        let account = key.starts_with("account:");
        match (cost, account) {
            (Cost::Game, false) => "new games from your address",
            (Cost::Game, true) => "new games from your account",
            (Cost::Engine, false) => "engine requests from your address",
            (Cost::Engine, true) => "engine requests from your account",
            (Cost::SignIn, _) => "sign-in attempts from your address",
            (Cost::SignUp, _) => "new accounts from your address",
            (Cost::Read, false) => "reads of game lists from your address",
            (Cost::Read, true) => "reads of your account's game lists",
            (Cost::Export, false) => "exports from your address",
            (Cost::Export, true) => "exports of your account",
            (Cost::Mail, false) => "mails asked for from your address",
            (Cost::Mail, true) => "mails asked for by your account",
        }
    }

    /// The puzzles each client has seen the solution of (kept whether the
    /// limits are on or off).
    pub fn seen_solutions(&self) -> &SeenSolutions {
        &self.seen
    }

    /// The wrong-password throttle (see [`SignInGuard`]); `None` when
    /// limits are off.
    pub fn sign_in_guard(&self) -> Option<&SignInGuard> {
        self.sign_in_failures.as_ref()
    }

    /// Counts one chat message from `client` (all its sockets together, on
    /// every node): one a second after a burst.
    pub async fn check_chat(&self, client: &ClientKeys) -> Result<(), ApiError> {
        let Some(limiter) = &self.chat else {
            return Ok(());
        };
        for key in &client.0 {
            limiter.check_key(key).map_err(|not_until| {
                ApiError::too_many(
                    "chat messages from you",
                    not_until.wait_time_from(self.time.now()),
                )
            })?;
        }
        if let Some(l) = self.rates.filter(|l| l.chat_burst > 0) {
            for key in &client.0 {
                self.take_shared(
                    format!("chat:{key}"),
                    (1_000, l.chat_burst),
                    "chat messages from you",
                )
                .await
                .map_err(|wait| ApiError::too_many("chat messages from you", wait))?;
            }
        }
        Ok(())
    }

    /// The lobby's per-client count of open seeks; `None` when limits are
    /// off.
    pub fn seeks(&self) -> Option<&OpenSeeks> {
        self.seeks.as_ref()
    }

    /// Counts one WebSocket message from `client` (all its sockets
    /// together).
    pub fn check_message(&self, client: ClientAddr) -> Result<(), ApiError> {
        let Some(limiter) = &self.ws else {
            return Ok(());
        };
        limiter.check_key(&client.key()).map_err(|not_until| {
            ApiError::too_many(
                "messages from your address",
                not_until.wait_time_from(self.time.now()),
            )
        })
    }

    /// A place for one more game socket from `client`, or `rate_limited`
    /// when it holds its most already.
    pub fn open_socket(&self, client: ClientAddr) -> Result<SocketPlace, ApiError> {
        let Some(count) = &self.sockets else {
            return Ok(SocketPlace { count: None });
        };
        let key = client.key();
        let mut open = count.open.lock().unwrap_or_else(|e| e.into_inner());
        let n = open.entry(key).or_insert(0);
        if *n >= count.max {
            return Err(ApiError::rate_limited(format!(
                "too many open game connections from your address (at most {}); close some tabs",
                count.max
            ))
            .with_reason(Reason::Sockets));
        }
        *n += 1;
        drop(open);
        Ok(SocketPlace {
            count: Some((count.clone(), key)),
        })
    }

    /// Forgets clients that have been quiet long enough to be back at a
    /// full burst (called every 30 s, so memory follows active clients).
    pub fn forget_idle(&self) {
        for l in [
            &self.games,
            &self.engine,
            &self.sign_in,
            &self.sign_up,
            &self.reads,
            &self.exports,
            &self.chat,
        ]
        .into_iter()
        .flatten()
        {
            l.retain_recent();
            l.shrink_to_fit();
        }
        if let Some(l) = &self.ws {
            l.retain_recent();
            l.shrink_to_fit();
        }
        self.seen.counts.forget_old();
        if let Some(s) = &self.seeks {
            s.forget_old();
        }
        if let Some(g) = &self.sign_in_failures {
            g.forget_old();
        }
        // The store's counts (the solutions seen are kept there with the
        // limits off too).
        let shared = match &self.seen.counts.place {
            Place::Shared(s) => Some(s.clone()),
            Place::Local(_) => self.shared.clone(),
        };
        if let Some(shared) = shared {
            let now = self.time.unix_ms();
            tokio::spawn(async move {
                shared.run("forgetting", move |l| l.forget_old(now)).await;
            });
        }
    }
}

/// Wrong passwords, counted so that guessing is slowed and the owner is
/// never locked out (docs/SECURITY.md, "Signing in").
///
/// - Each (account, address) pair may get [`SignInGuard::PAIR_FAILURES`]
///   wrong passwords in [`SignInGuard::WINDOW`]; then that address may not
///   try that account until the window has passed.
/// - Past `account_ceiling` wrong passwords on one account in the window,
///   from all addresses together, the account is under attack: an address
///   that has guessed wrong on it may not try again, and a new address
///   gets one try. A right password from an address that has not been
///   guessing still signs in.
/// - A right password clears its address's count for the account.
///
/// Confirmations of the password by a signed-in player (changing it,
/// deleting the account) are counted apart, per account
/// ([`SignInGuard::CONFIRM_FAILURES`] in the window), so a stranger's
/// guesses never refuse the owner's own page.
pub struct SignInGuard {
    account_ceiling: u32,
    counts: Counts,
}

/// Counts in windows of the server's clock.
struct Counts {
    time: Time,
    place: Place,
}

/// Where counts are kept: in this node's memory, or in the store that all
/// nodes share.
enum Place {
    /// Count and the end of its window (milliseconds), by key.
    Local(Mutex<HashMap<String, (u32, i64)>>),
    Shared(Shared),
}

impl Counts {
    fn new(shared: Option<Shared>, time: Time) -> Counts {
        Counts {
            time,
            place: match shared {
                Some(s) => Place::Shared(s),
                None => Place::Local(Mutex::new(HashMap::new())),
            },
        }
    }

    /// The time left until `until` (milliseconds since the epoch).
    fn wait_until(&self, until: i64) -> Duration {
        Duration::from_millis((until - self.time.unix_ms()).max(0) as u64)
    }

    /// Adds `n` (0 to read) to `key`'s count in its window of `window`:
    /// the count and the window's end.
    async fn count_in(&self, key: String, n: u32, window: Duration) -> (u32, i64) {
        let now = self.time.unix_ms();
        let window = window.as_millis() as i64;
        match &self.place {
            Place::Local(map) => {
                let mut map = map.lock().unwrap_or_else(|e| e.into_inner());
                let live = map.get(&key).copied().filter(|&(_, until)| until > now);
                let counted = add_in_window(live, n, now, window);
                if n > 0 {
                    map.insert(key, counted);
                }
                counted
            }
            Place::Shared(shared) => shared
                .run("wrong passwords", move |l| l.count(&key, n, now, window))
                .await
                .unwrap_or((0, now)),
        }
    }

    /// [`Counts::count_in`] the sign-in guard's window.
    async fn count(&self, key: String, n: u32) -> (u32, i64) {
        self.count_in(key, n, SignInGuard::WINDOW).await
    }

    /// Forgets this node's counts whose window has passed (the store's
    /// are forgotten by [`Limiter::forget_idle`]).
    fn forget_old(&self) {
        if let Place::Local(map) = &self.place {
            let now = self.time.unix_ms();
            map.lock()
                .unwrap_or_else(|e| e.into_inner())
                .retain(|_, &mut (_, until)| until > now);
        }
    }

    async fn clear(&self, key: String) {
        match &self.place {
            Place::Local(map) => {
                map.lock().unwrap_or_else(|e| e.into_inner()).remove(&key);
            }
            Place::Shared(shared) => {
                shared.run("wrong passwords", move |l| l.clear(&key)).await;
            }
        }
    }
}

impl SignInGuard {
    /// How long wrong passwords are remembered.
    pub const WINDOW: Duration = Duration::from_secs(15 * 60);
    /// Wrong passwords one address may give for one account in the window.
    pub const PAIR_FAILURES: u32 = 5;
    /// Wrong confirmations a signed-in player may give in the window.
    pub const CONFIRM_FAILURES: u32 = 10;

    /// A guard whose account-wide ceiling is `account_ceiling` wrong
    /// passwords in the window, counting in the store when `shared`.
    fn new(account_ceiling: u32, shared: Option<Shared>, time: Time) -> SignInGuard {
        SignInGuard {
            account_ceiling: account_ceiling.max(Self::PAIR_FAILURES),
            counts: Counts::new(shared, time),
        }
    }

    fn pair_key(key: &str, client: ClientAddr) -> String {
        format!("sign-in:pair:{key}:{}", client.key())
    }

    fn account_key(key: &str) -> String {
        format!("sign-in:account:{key}")
    }

    fn confirm_key(id: &str) -> String {
        format!("sign-in:confirm:{id}")
    }

    /// May `client` try a password for the account `key` now?
    pub async fn check(&self, key: &str, client: ClientAddr) -> Result<(), ApiError> {
        let (mine, until) = self.counts.count(Self::pair_key(key, client), 0).await;
        if mine >= Self::PAIR_FAILURES {
            return Err(ApiError::too_many(
                "wrong passwords for this account from your address",
                self.counts.wait_until(until),
            )
            .with_reason(Reason::SignInPair));
        }
        let (all, _) = self.counts.count(Self::account_key(key), 0).await;
        if all >= self.account_ceiling && mine > 0 {
            return Err(ApiError::too_many(
                "wrong passwords for this account, and some came from your address",
                self.counts.wait_until(until),
            )
            .with_reason(Reason::SignInAccount));
        }
        Ok(())
    }

    /// A wrong password for the account `key` from `client`.
    pub async fn failed(&self, key: &str, client: ClientAddr) {
        let (all, _) = self.counts.count(Self::account_key(key), 0).await;
        // Under attack, a new address gets one try.
        let n = if all >= self.account_ceiling {
            Self::PAIR_FAILURES
        } else {
            1
        };
        self.counts.count(Self::pair_key(key, client), n).await;
        self.counts.count(Self::account_key(key), 1).await;
    }

    /// The right password for the account `key` from `client`.
    pub async fn succeeded(&self, key: &str, client: ClientAddr) {
        self.counts.clear(Self::pair_key(key, client)).await;
    }

    /// May the signed-in account `id` confirm its password now?
    pub async fn check_confirm(&self, id: &str) -> Result<(), ApiError> {
        let (n, until) = self.counts.count(Self::confirm_key(id), 0).await;
        if n >= Self::CONFIRM_FAILURES {
            return Err(ApiError::too_many(
                "wrong passwords given on your account page",
                self.counts.wait_until(until),
            )
            .with_reason(Reason::Confirm));
        }
        Ok(())
    }

    /// A wrong confirmation by the signed-in account `id`.
    pub async fn confirm_failed(&self, id: &str) {
        self.counts.count(Self::confirm_key(id), 1).await;
    }

    /// Forgets the counts whose window has passed (this node's; the
    /// store's are forgotten by [`Limiter::forget_idle`]).
    pub fn forget_old(&self) {
        self.counts.forget_old();
    }
}

/// The puzzles whose solution a client has been shown (an attempt's answer
/// names the solution), by client key: its address, and its account when
/// signed in. Remembered for [`SeenSolutions::MEMORY`], in the store when
/// other nodes share it, so a solution seen on one node is seen on all.
/// `puzzle_routes.rs` does not rate an attempt at a puzzle whose solution
/// the client has seen: a visitor's attempt shows the solution, and the
/// same client signed in must not score it (issue 33, finding 10).
pub struct SeenSolutions {
    counts: Counts,
}

impl SeenSolutions {
    /// How long a shown solution is remembered for a client.
    pub const MEMORY: Duration = Duration::from_secs(7 * 86_400);

    fn new(shared: Option<Shared>, time: Time) -> SeenSolutions {
        SeenSolutions {
            counts: Counts::new(shared, time),
        }
    }

    fn key(puzzle: u32, key: &str) -> String {
        format!("puzzle-seen:{puzzle}:{key}")
    }

    /// Has `client` (any of its keys) been shown the solution of `puzzle`?
    pub async fn seen(&self, client: &ClientKeys, puzzle: u32) -> bool {
        for key in &client.0 {
            let (n, _) = self
                .counts
                .count_in(Self::key(puzzle, key), 0, Self::MEMORY)
                .await;
            if n > 0 {
                return true;
            }
        }
        false
    }

    /// `client` is shown the solution of `puzzle`.
    pub async fn show(&self, client: &ClientKeys, puzzle: u32) {
        for key in &client.0 {
            self.counts
                .count_in(Self::key(puzzle, key), 1, Self::MEMORY)
                .await;
        }
    }
}

/// The address of the client that sent a request (see the module text).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientAddr(pub IpAddr);

impl ClientAddr {
    /// The client's address from the connection and, when trusted, the
    /// last `X-Forwarded-For` entry (the one the proxy added).
    pub fn from_parts(
        peer: Option<SocketAddr>,
        headers: &HeaderMap,
        trust_forwarded: bool,
    ) -> Self {
        let forwarded = trust_forwarded
            .then(|| {
                headers
                    .get_all("x-forwarded-for")
                    .iter()
                    .filter_map(|v| v.to_str().ok())
                    .flat_map(|v| v.split(','))
                    .next_back()
                    .and_then(|s| s.trim().parse::<IpAddr>().ok())
            })
            .flatten();
        ClientAddr(
            forwarded
                .or(peer.map(|p| p.ip()))
                .unwrap_or(IpAddr::from([0, 0, 0, 0])),
        )
    }

    /// The rate-limit key: the IPv4 address, or the IPv6 /64 network
    /// (the listener counts connections under the same key).
    pub fn key(self) -> IpAddr {
        crate::listener::client_key(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(s: &str) -> ClientAddr {
        ClientAddr(s.parse().unwrap())
    }

    #[tokio::test]
    async fn a_burst_then_refusals_with_a_wait() {
        let time = Time::manual(0);
        let limiter = Limiter::local(
            Some(RateLimits {
                games_per_minute: 6,
                games_burst: 3,
                ..RateLimits::default()
            }),
            None,
            &time,
        );
        let me = addr("192.0.2.1");
        for _ in 0..3 {
            limiter.check(Cost::Game, me).await.unwrap();
        }
        let e = limiter.check(Cost::Game, me).await.unwrap_err();
        assert_eq!(e.code, crate::error::ErrorCode::RateLimited);
        assert_eq!(e.retry_after, Some(10), "{e:?}");
        // Another client, and another kind of request, are not affected.
        limiter.check(Cost::Game, addr("192.0.2.2")).await.unwrap();
        limiter.check(Cost::Engine, me).await.unwrap();
        // The server's clock refills the burst, one game every 10 s.
        time.advance(Duration::from_millis(9_900));
        assert!(limiter.check(Cost::Game, me).await.is_err());
        time.advance(Duration::from_millis(100));
        limiter.check(Cost::Game, me).await.unwrap();
        assert!(limiter.check(Cost::Game, me).await.is_err());
    }

    #[tokio::test]
    async fn ipv6_clients_are_keyed_by_network() {
        let limiter = Limiter::local(
            Some(RateLimits {
                games_per_minute: 1,
                games_burst: 1,
                ..RateLimits::default()
            }),
            None,
            &Time::manual(0),
        );
        limiter
            .check(Cost::Game, addr("2001:db8:1:2::1"))
            .await
            .unwrap();
        assert!(limiter
            .check(Cost::Game, addr("2001:db8:1:2::99"))
            .await
            .is_err());
        limiter
            .check(Cost::Game, addr("2001:db8:1:3::1"))
            .await
            .unwrap();
    }

    #[tokio::test]
    async fn no_limits_limit_nothing() {
        let limiter = Limiter::local(None, None, &Time::manual(0));
        for _ in 0..1000 {
            limiter.check(Cost::Game, addr("127.0.0.1")).await.unwrap();
        }
        for _ in 0..1000 {
            limiter.check_message(addr("127.0.0.1")).unwrap();
            limiter
                .check_chat(&ClientKeys::new(addr("127.0.0.1"), None))
                .await
                .unwrap();
        }
        let _places: Vec<_> = (0..1000)
            .map(|_| limiter.open_socket(addr("127.0.0.1")).unwrap())
            .collect();
    }

    #[test]
    fn forwarded_for_only_when_trusted() {
        let mut h = HeaderMap::new();
        h.insert(
            "x-forwarded-for",
            "203.0.113.9, 198.51.100.7".parse().unwrap(),
        );
        let peer = Some("127.0.0.1:5000".parse().unwrap());
        assert_eq!(ClientAddr::from_parts(peer, &h, false), addr("127.0.0.1"));
        assert_eq!(ClientAddr::from_parts(peer, &h, true), addr("198.51.100.7"));
    }
}
