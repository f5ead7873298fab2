//! Per-client rate limits ([`crate::config::RateLimits`]), with the GCRA
//! limiters of the `governor` crate: one keyed limiter per kind of costly
//! request, keyed by the client's address, and one limiter per WebSocket
//! for its messages.
//!
//! A client is an IPv4 address or an IPv6 /64 network (one household or
//! one machine usually holds a whole /64, so keying by full address would
//! let it rotate addresses). Behind a reverse proxy the address comes from
//! `X-Forwarded-For`, when the configuration trusts it.

use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::num::NonZeroU32;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::HeaderMap;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultDirectRateLimiter, DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::config::RateLimits;
use crate::error::ApiError;

/// What a limited request costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cost {
    /// Creates a game (new game, import, rematch).
    Game,
    /// Runs the engine (analysis, hint, review).
    Engine,
    /// A sign-in attempt.
    SignIn,
    /// A new account.
    SignUp,
}

/// The server's keyed limiters.
pub struct Limiter {
    games: Option<DefaultKeyedRateLimiter<IpAddr>>,
    engine: Option<DefaultKeyedRateLimiter<IpAddr>>,
    sign_in: Option<DefaultKeyedRateLimiter<IpAddr>>,
    sign_up: Option<DefaultKeyedRateLimiter<IpAddr>>,
    account: Option<DefaultKeyedRateLimiter<String>>,
    ws: Option<Quota>,
}

fn quota_per_minute(rate: u32, burst: u32) -> Option<Quota> {
    let rate = NonZeroU32::new(rate)?;
    let burst = NonZeroU32::new(burst.max(1))?;
    Some(Quota::per_minute(rate).allow_burst(burst))
}

impl Limiter {
    /// Limiters for `limits`; `None` limits nothing.
    pub fn new(limits: Option<RateLimits>) -> Limiter {
        let keyed = |q: Option<Quota>| q.map(RateLimiter::keyed);
        match limits {
            None => Limiter {
                games: None,
                engine: None,
                sign_in: None,
                sign_up: None,
                account: None,
                ws: None,
            },
            Some(l) => Limiter {
                games: keyed(quota_per_minute(l.games_per_minute, l.games_burst)),
                engine: keyed(quota_per_minute(l.engine_per_minute, l.engine_burst)),
                sign_in: keyed(quota_per_minute(l.sign_in_per_minute, l.sign_in_per_minute)),
                sign_up: NonZeroU32::new(l.sign_ups_per_hour)
                    .map(|n| RateLimiter::keyed(Quota::per_hour(n))),
                account: NonZeroU32::new(l.sign_in_per_account_per_hour).map(|n| {
                    RateLimiter::keyed(
                        Quota::per_hour(n).allow_burst(NonZeroU32::new(5).expect("5 > 0")),
                    )
                }),
                ws: NonZeroU32::new(l.ws_messages_per_second).map(|r| {
                    Quota::per_second(r).allow_burst(NonZeroU32::new(l.ws_burst.max(1)).unwrap())
                }),
            },
        }
    }

    /// Counts one request of `cost` from `client`; `rate_limited` (with
    /// the time to wait) when it is over its limit.
    pub fn check(&self, cost: Cost, client: ClientAddr) -> Result<(), ApiError> {
        let (limiter, what) = match cost {
            Cost::Game => (&self.games, "new games"),
            Cost::Engine => (&self.engine, "engine requests"),
            Cost::SignIn => (&self.sign_in, "sign-in attempts"),
            Cost::SignUp => (&self.sign_up, "new accounts"),
        };
        let Some(limiter) = limiter else {
            return Ok(());
        };
        limiter.check_key(&client.key()).map_err(|not_until| {
            ApiError::too_many(
                what,
                not_until.wait_time_from(DefaultClock::default().now()),
            )
        })
    }

    /// Counts one sign-in attempt on the account named `key` (whoever
    /// makes it): guessing one account's password from many addresses is
    /// throttled too.
    pub fn check_account(&self, key: &str) -> Result<(), ApiError> {
        let Some(limiter) = &self.account else {
            return Ok(());
        };
        limiter.check_key(&key.to_string()).map_err(|not_until| {
            ApiError::too_many(
                "sign-in attempts on this account",
                not_until.wait_time_from(DefaultClock::default().now()),
            )
        })
    }

    /// A limiter for one WebSocket's chat messages: one a second, after a
    /// burst of five (when limits are on).
    pub fn chat(&self) -> SocketLimiter {
        SocketLimiter(self.ws.map(|_| {
            RateLimiter::direct(
                Quota::per_second(NonZeroU32::MIN).allow_burst(NonZeroU32::new(5).expect("5 > 0")),
            )
        }))
    }

    /// A limiter for one WebSocket's messages.
    pub fn socket(&self) -> SocketLimiter {
        SocketLimiter(self.ws.map(RateLimiter::direct))
    }

    /// Forgets clients that have been quiet long enough to be back at a
    /// full burst (called every 30 s, so memory follows active clients).
    pub fn forget_idle(&self) {
        for l in [&self.games, &self.engine, &self.sign_in, &self.sign_up]
            .into_iter()
            .flatten()
        {
            l.retain_recent();
            l.shrink_to_fit();
        }
        if let Some(l) = &self.account {
            l.retain_recent();
            l.shrink_to_fit();
        }
    }
}

/// The message limiter of one WebSocket.
pub struct SocketLimiter(Option<DefaultDirectRateLimiter>);

impl SocketLimiter {
    /// Counts one message; `rate_limited` when the socket sends too fast.
    pub fn check(&self) -> Result<(), ApiError> {
        match &self.0 {
            None => Ok(()),
            Some(l) => l.check().map_err(|not_until| {
                ApiError::too_many(
                    "messages",
                    not_until.wait_time_from(DefaultClock::default().now()),
                )
            }),
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

    /// The rate-limit key: the IPv4 address, or the IPv6 /64 network.
    pub fn key(self) -> IpAddr {
        match self.0 {
            IpAddr::V4(v4) => IpAddr::V4(v4),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => IpAddr::V4(v4),
                None => {
                    let s = v6.segments();
                    IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
                }
            },
        }
    }
}

impl FromRequestParts<std::sync::Arc<crate::Hub>> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        hub: &std::sync::Arc<crate::Hub>,
    ) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<crate::listener::PeerAddr>>()
            .map(|c| c.0 .0);
        Ok(ClientAddr::from_parts(
            peer,
            &parts.headers,
            hub.config().trust_forwarded_for,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(s: &str) -> ClientAddr {
        ClientAddr(s.parse().unwrap())
    }

    #[test]
    fn a_burst_then_refusals_with_a_wait() {
        let limiter = Limiter::new(Some(RateLimits {
            games_per_minute: 6,
            games_burst: 3,
            ..RateLimits::default()
        }));
        let me = addr("192.0.2.1");
        for _ in 0..3 {
            limiter.check(Cost::Game, me).unwrap();
        }
        let e = limiter.check(Cost::Game, me).unwrap_err();
        assert_eq!(e.code, crate::error::ErrorCode::RateLimited);
        assert!(matches!(e.retry_after, Some(1..=10)), "{e:?}");
        // Another client, and another kind of request, are not affected.
        limiter.check(Cost::Game, addr("192.0.2.2")).unwrap();
        limiter.check(Cost::Engine, me).unwrap();
    }

    #[test]
    fn ipv6_clients_are_keyed_by_network() {
        let limiter = Limiter::new(Some(RateLimits {
            games_per_minute: 1,
            games_burst: 1,
            ..RateLimits::default()
        }));
        limiter.check(Cost::Game, addr("2001:db8:1:2::1")).unwrap();
        assert!(limiter.check(Cost::Game, addr("2001:db8:1:2::99")).is_err());
        limiter.check(Cost::Game, addr("2001:db8:1:3::1")).unwrap();
    }

    #[test]
    fn no_limits_limit_nothing() {
        let limiter = Limiter::new(None);
        for _ in 0..1000 {
            limiter.check(Cost::Game, addr("127.0.0.1")).unwrap();
        }
        let ws = limiter.socket();
        for _ in 0..1000 {
            ws.check().unwrap();
        }
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
