//! A game's clock as a pure value: every method takes the time it acts at,
//! so it is tested without waiting and without a runtime.
//!
//! Three controls (docs/PROTOCOL.md): a chess clock with an increment,
//! where running out loses the game; a per-move limit (R13), where running
//! out loses the turn and each turn starts full again; and correspondence,
//! days for each move, where each turn starts full and running out loses
//! the game.

use std::time::{Duration, Instant};

use oware_core::Side;

use crate::model::TimeControl;
use crate::protocol::views::ClockView;

/// A day.
pub const DAY: Duration = Duration::from_secs(86_400);

/// Time left for each side, and whose time is running since when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    remaining: [u64; 2],
    running: Option<(Side, Instant)>,
}

impl Clock {
    /// A stopped clock. `stored` is the time left when the game was last
    /// stored (chess clocks); a per-move clock starts every turn full.
    pub fn new(control: TimeControl, stored: Option<[u64; 2]>) -> Clock {
        let mut clock = Clock {
            control,
            remaining: [0; 2],
            running: None,
        };
        clock.remaining = match control {
            TimeControl::Clock { initial_ms, .. } => stored.unwrap_or([initial_ms; 2]),
            _ => [clock.full_turn(); 2],
        };
        clock
    }

    /// The time of a turn that starts full (per-move and correspondence).
    fn full_turn(&self) -> u64 {
        match self.control {
            TimeControl::PerMove { per_move_ms } => per_move_ms,
            TimeControl::Correspondence { days_per_move } => {
                DAY.as_millis() as u64 * u64::from(days_per_move)
            }
            TimeControl::Clock { initial_ms, .. } => initial_ms,
        }
    }

    /// Starts `side`'s time at `now`, unless it is already running.
    pub fn start(&mut self, side: Side, now: Instant) {
        if self.running.map(|(s, _)| s) != Some(side) {
            self.stop(now);
            self.running = Some((side, now));
        }
    }

    /// Runs `side`'s time so that it runs out at `deadline` (a clock read
    /// back from the store, whose deadline was kept there).
    pub fn resume(&mut self, side: Side, deadline: Instant) {
        let left = Duration::from_millis(self.remaining[side.index()]);
        let since = deadline.checked_sub(left).unwrap_or(deadline);
        self.running = Some((side, since));
    }

    /// Stops the clock at `now`, charging the running side for the time
    /// it used (a per-move clock has nothing to charge: each turn is new).
    pub fn stop(&mut self, now: Instant) {
        if let Some((side, since)) = self.running.take() {
            if let TimeControl::Clock { .. } = self.control {
                let spent = now.saturating_duration_since(since).as_millis() as u64;
                let left = &mut self.remaining[side.index()];
                *left = left.saturating_sub(spent);
            }
        }
    }

    /// `side` has just played (or lost its turn, `passed`) at `now`: its
    /// time is charged, the increment added for a move, a per-move clock
    /// refilled. The clock is left stopped.
    pub fn after_ply(&mut self, side: Side, passed: bool, now: Instant) {
        self.stop(now);
        match self.control {
            TimeControl::Clock { increment_ms, .. } => {
                if !passed {
                    self.remaining[side.index()] += increment_ms;
                }
            }
            _ => self.remaining = [self.full_turn(); 2],
        }
    }

    /// `side`'s flag fell: no time left, clock stopped.
    pub fn flag(&mut self, side: Side) {
        self.running = None;
        self.remaining[side.index()] = 0;
    }

    /// When the running side's time runs out.
    pub fn deadline(&self) -> Option<Instant> {
        self.running
            .map(|(side, since)| since + Duration::from_millis(self.remaining[side.index()]))
    }

    /// The running side, if its time is up at `now`.
    pub fn expired(&self, now: Instant) -> Option<Side> {
        let (side, _) = self.running?;
        (now >= self.deadline()?).then_some(side)
    }

    /// Whose time is running.
    pub fn running(&self) -> Option<Side> {
        self.running.map(|(s, _)| s)
    }

    /// What clients see at `now`.
    pub fn view(&self, now: Instant) -> ClockView {
        let mut r = self.remaining;
        if let Some((side, since)) = self.running {
            let spent = now.saturating_duration_since(since).as_millis() as u64;
            r[side.index()] = r[side.index()].saturating_sub(spent);
        }
        ClockView {
            south_ms: r[0],
            north_ms: r[1],
            running: self.running(),
        }
    }

    /// The time left to store with a ply: chess clocks only (per-move and
    /// correspondence clocks start every turn full: nothing to keep).
    pub fn stored(&self) -> Option<[u64; 2]> {
        matches!(self.control, TimeControl::Clock { .. }).then_some(self.remaining)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: Side = Side::South;
    const N: Side = Side::North;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn chess_clock_charges_and_adds_the_increment() {
        let t0 = Instant::now();
        let mut c = Clock::new(
            TimeControl::Clock {
                initial_ms: 60_000,
                increment_ms: 2_000,
            },
            None,
        );
        c.start(S, t0);
        assert_eq!(c.view(t0 + ms(1_500)).south_ms, 58_500);
        assert_eq!(c.deadline(), Some(t0 + ms(60_000)));
        c.after_ply(S, false, t0 + ms(5_000));
        assert_eq!(c.running(), None);
        assert_eq!(c.stored(), Some([57_000, 60_000]));
        c.start(N, t0 + ms(5_000));
        // Starting the side already running changes nothing.
        c.start(N, t0 + ms(9_000));
        assert_eq!(c.view(t0 + ms(10_000)).north_ms, 55_000);
        assert_eq!(c.expired(t0 + ms(64_999)), None);
        assert_eq!(c.expired(t0 + ms(65_000)), Some(N));
    }

    #[test]
    fn a_lost_turn_earns_no_increment() {
        let t0 = Instant::now();
        let mut c = Clock::new(
            TimeControl::Clock {
                initial_ms: 10_000,
                increment_ms: 1_000,
            },
            Some([3_000, 4_000]),
        );
        c.start(S, t0);
        c.after_ply(S, true, t0 + ms(3_000));
        assert_eq!(c.stored(), Some([0, 4_000]));
    }

    #[test]
    fn per_move_clock_refills_every_turn() {
        let t0 = Instant::now();
        let mut c = Clock::new(TimeControl::PerMove { per_move_ms: 5_000 }, None);
        c.start(S, t0);
        assert_eq!(c.view(t0 + ms(4_000)).south_ms, 1_000);
        c.after_ply(S, false, t0 + ms(4_000));
        assert_eq!(c.view(t0 + ms(4_000)).south_ms, 5_000);
        assert_eq!(c.stored(), None);
        c.start(N, t0 + ms(4_000));
        assert_eq!(c.expired(t0 + ms(9_000)), Some(N));
    }

    #[test]
    fn correspondence_refills_every_turn_and_runs_for_days() {
        let t0 = Instant::now();
        let day = 86_400_000;
        let mut c = Clock::new(TimeControl::Correspondence { days_per_move: 3 }, None);
        c.start(S, t0);
        assert_eq!(c.deadline(), Some(t0 + ms(3 * day)));
        assert_eq!(c.view(t0 + ms(day)).south_ms, 2 * day);
        c.after_ply(S, false, t0 + ms(2 * day));
        assert_eq!(c.view(t0 + ms(2 * day)).south_ms, 3 * day);
        assert_eq!(c.stored(), None);
        c.start(N, t0 + ms(2 * day));
        assert_eq!(c.expired(t0 + ms(5 * day - 1)), None);
        assert_eq!(c.expired(t0 + ms(5 * day)), Some(N));
    }

    #[test]
    fn stop_charges_and_flag_empties() {
        let t0 = Instant::now();
        let mut c = Clock::new(
            TimeControl::Clock {
                initial_ms: 1_000,
                increment_ms: 0,
            },
            None,
        );
        c.start(N, t0);
        c.stop(t0 + ms(400));
        assert_eq!(c.view(t0 + ms(10_000)).north_ms, 600);
        assert_eq!(c.deadline(), None);
        c.start(N, t0 + ms(500));
        c.flag(N);
        assert_eq!(
            c.view(t0 + ms(600)),
            ClockView {
                south_ms: 1_000,
                north_ms: 0,
                running: None
            }
        );
    }
}
