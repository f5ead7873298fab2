//! The server's one clock. Every time the server acts on (a game's clock
//! and deadlines, a tournament's minutes, the lobby's grace, rate-limit
//! windows, session expiry, the day of the daily puzzle) is read from the
//! [`Time`] it was given, never from the system directly.
//!
//! In production it is the wall clock. Tests give a manual clock that
//! stands still until the test moves it ([`Time::advance`]): a 60-minute
//! arena, a 5-round Swiss or a 14-day correspondence game then runs in
//! seconds, and a timer fires exactly when the test says the time has
//! come, not when the machine gets round to it.
//!
//! What stays on the machine's own time: how long a connection may idle
//! or take to send its header, how long a search or a pairing may use the
//! processor, and how long a query waits before it is tried again. Those
//! bound the machine's work, not the game's time.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use tokio::sync::watch;

/// The server's clock (cheap to clone: every clone reads the same time).
#[derive(Clone)]
pub struct Time(Arc<Kind>);

enum Kind {
    Wall,
    Manual(Manual),
}

/// A clock that moves only when told to.
struct Manual {
    /// The monotonic instant and the Unix time (ms) it started at.
    origin: Instant,
    origin_unix_ms: i64,
    /// How far it has been moved since; sleepers watch it.
    elapsed: Mutex<Duration>,
    moved: watch::Sender<Duration>,
}

impl std::fmt::Debug for Time {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &*self.0 {
            Kind::Wall => f.write_str("Time::Wall"),
            Kind::Manual(m) => write!(f, "Time::Manual(+{:?})", *m.elapsed.lock().unwrap()),
        }
    }
}

impl Default for Time {
    fn default() -> Time {
        Time::wall()
    }
}

impl Time {
    /// The machine's clock.
    pub fn wall() -> Time {
        Time(Arc::new(Kind::Wall))
    }

    /// A clock standing at Unix time `unix_ms` until [`Time::advance`]
    /// moves it.
    pub fn manual(unix_ms: i64) -> Time {
        Time(Arc::new(Kind::Manual(Manual {
            origin: Instant::now(),
            origin_unix_ms: unix_ms,
            elapsed: Mutex::new(Duration::ZERO),
            moved: watch::channel(Duration::ZERO).0,
        })))
    }

    /// Whether this is a manual clock.
    pub fn is_manual(&self) -> bool {
        matches!(&*self.0, Kind::Manual(_))
    }

    /// The monotonic time now, for durations and deadlines.
    pub fn now(&self) -> Instant {
        match &*self.0 {
            Kind::Wall => Instant::now(),
            Kind::Manual(m) => m.origin + *m.elapsed.lock().unwrap(),
        }
    }

    /// Milliseconds since the Unix epoch now, for what is stored.
    pub fn unix_ms(&self) -> i64 {
        match &*self.0 {
            Kind::Wall => SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map(|d| d.as_millis() as i64)
                .unwrap_or(0),
            Kind::Manual(m) => m.origin_unix_ms + m.elapsed.lock().unwrap().as_millis() as i64,
        }
    }

    /// The Unix time (ms) of a monotonic instant of this clock.
    pub fn unix_ms_at(&self, at: Instant) -> i64 {
        let now = self.now();
        let unix = self.unix_ms();
        if at >= now {
            unix + at.duration_since(now).as_millis() as i64
        } else {
            unix - now.duration_since(at).as_millis() as i64
        }
    }

    /// The machines' own Unix time (ms), for leases between nodes
    /// ([`crate::store::Lease`]): the system's clock whatever this clock
    /// is, since a lease bounds how long a node may hold work, and a clock
    /// standing still in a test must not hold it for ever.
    pub fn lease_ms(&self) -> i64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_millis() as i64)
            .unwrap_or(0)
    }

    /// The monotonic instant of a Unix time (ms) of this clock (now, for a
    /// time already past).
    pub fn instant_at(&self, unix_ms: i64) -> Instant {
        let ahead = (unix_ms - self.unix_ms()).max(0) as u64;
        self.now() + Duration::from_millis(ahead)
    }

    /// Waits until this clock reaches `deadline`.
    pub async fn sleep_until(&self, deadline: Instant) {
        match &*self.0 {
            Kind::Wall => tokio::time::sleep_until(deadline.into()).await,
            Kind::Manual(m) => {
                let mut moved = m.moved.subscribe();
                let wanted = deadline.saturating_duration_since(m.origin);
                // The sender lives as long as the clock, which this borrows.
                let _ = moved.wait_for(|elapsed| *elapsed >= wanted).await;
            }
        }
    }

    /// Waits for `d` of this clock's time.
    pub async fn sleep(&self, d: Duration) {
        self.sleep_until(self.now() + d).await
    }

    /// Moves a manual clock on by `d`, waking every sleeper whose time has
    /// come. Does nothing to the wall clock.
    pub fn advance(&self, d: Duration) {
        if let Kind::Manual(m) = &*self.0 {
            let mut elapsed = m.elapsed.lock().unwrap();
            *elapsed += d;
            m.moved.send_replace(*elapsed);
        }
    }
}

/// The system time of a Unix time (ms) of the server's clock (a mail's
/// `Date`).
pub fn system_time(unix_ms: i64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(unix_ms.max(0) as u64)
}

/// The rate limiters (the `governor` crate) count on this clock too.
impl governor::clock::Clock for Time {
    type Instant = Instant;

    fn now(&self) -> Instant {
        Time::now(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_manual_clock_wakes_its_sleepers_when_moved_and_not_before() {
        let time = Time::manual(1_000_000);
        let start = time.now();
        assert_eq!(time.unix_ms(), 1_000_000);
        let t = time.clone();
        let sleeper = tokio::spawn(async move {
            t.sleep(Duration::from_secs(60)).await;
            t.unix_ms()
        });
        tokio::task::yield_now().await;
        time.advance(Duration::from_secs(59));
        tokio::task::yield_now().await;
        assert!(!sleeper.is_finished(), "woke a second early");
        time.advance(Duration::from_secs(1));
        let woke_at = tokio::time::timeout(Duration::from_secs(5), sleeper)
            .await
            .expect("the sleeper wakes once the minute has passed")
            .unwrap();
        assert_eq!(woke_at, 1_060_000);
        assert_eq!(time.now() - start, Duration::from_secs(60));
        assert_eq!(time.unix_ms_at(start), 1_000_000);
        assert_eq!(time.instant_at(1_030_000), time.now());
        assert_eq!(
            time.instant_at(1_090_000),
            time.now() + Duration::from_secs(30)
        );
    }

    #[tokio::test]
    async fn a_deadline_already_past_returns_at_once() {
        let time = Time::manual(0);
        time.advance(Duration::from_secs(5));
        tokio::time::timeout(Duration::from_secs(5), time.sleep_until(time.now()))
            .await
            .expect("no wait for a deadline that has come");
    }
}
