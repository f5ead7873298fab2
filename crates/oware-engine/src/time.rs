//! The time manager: how long a search may think.
//!
//! A search has a *soft* limit, checked between iterations (no new iteration
//! starts after it), and a *hard* limit, checked every 1024 nodes, after
//! which the search stops at once. Both keep a safety margin for the
//! process and pipe overhead, so that a clock is never overrun: the hard
//! limit never exceeds the time left minus the margin.

use std::time::Duration;

use crate::Limits;

/// Soft and hard time limits of a search, from its start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimePlan {
    /// No new iteration starts after this.
    pub soft: Option<Duration>,
    /// The search stops at once after this.
    pub hard: Option<Duration>,
}

/// Time kept back from a fixed move time for answering and process overhead.
fn movetime_margin(t: Duration) -> Duration {
    (t / 20).clamp(Duration::from_millis(1), Duration::from_millis(25))
}

impl TimePlan {
    /// The plan for `limits`: the tighter of the move time and the clock.
    pub fn new(limits: &Limits) -> TimePlan {
        let mut plan = TimePlan::default();
        if let Some(t) = limits.movetime {
            let hard = t.saturating_sub(movetime_margin(t));
            plan.hard = Some(hard);
            plan.soft = Some(hard);
        }
        if let Some(c) = limits.clock {
            // Margin: 30 ms plus 5% of the time left, never less than what
            // the pipe to a GUI and a slow, shared machine may cost.
            let margin = Duration::from_millis(30) + c.remaining / 20;
            let avail = c.remaining.saturating_sub(margin);
            let mtg = c.moves_to_go.unwrap_or(30).clamp(1, 60);
            let target = avail / mtg + c.increment * 3 / 4;
            let cap = if mtg == 1 { avail } else { avail * 2 / 5 };
            let hard = (target * 3).min(cap);
            let soft = (target / 2).min(hard);
            plan.hard = Some(plan.hard.map_or(hard, |h| h.min(hard)));
            plan.soft = Some(plan.soft.map_or(soft, |s| s.min(soft)));
        }
        plan
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Clock;

    fn clock(ms: u64, inc: u64, mtg: Option<u32>) -> Limits {
        Limits {
            clock: Some(Clock {
                remaining: Duration::from_millis(ms),
                increment: Duration::from_millis(inc),
                moves_to_go: mtg,
            }),
            ..Limits::default()
        }
    }

    #[test]
    fn never_plans_beyond_the_clock() {
        for ms in [0, 1, 10, 35, 100, 1000, 60_000, 3_600_000] {
            for inc in [0, 100, 5000] {
                for mtg in [None, Some(1), Some(5)] {
                    let p = TimePlan::new(&clock(ms, inc, mtg));
                    let hard = p.hard.unwrap();
                    assert!(
                        hard <= Duration::from_millis(ms).saturating_sub(Duration::from_millis(30)),
                        "{ms} {inc} {mtg:?}"
                    );
                    assert!(p.soft.unwrap() <= hard);
                }
            }
        }
    }

    #[test]
    fn movetime_keeps_a_margin() {
        let p = TimePlan::new(&Limits::movetime(Duration::from_millis(100)));
        assert_eq!(p.hard, Some(Duration::from_millis(95)));
        assert_eq!(TimePlan::new(&Limits::depth(3)), TimePlan::default());
    }
}
