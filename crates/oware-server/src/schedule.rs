//! The tournaments the server runs by itself: `oware serve
//! --tournament-schedule "arena hourly 3+2 45"` (an arena every hour on
//! the hour, 45 minutes long, 3 minutes and 2 seconds a move) or `"swiss
//! daily@18 10+5 5"` (a 5-round Swiss every day at 18:00 UTC). Each one is
//! announced an hour before it starts. Its slot's key (`arena hourly 3+2
//! 45@<start ms>`) is unique in the store, so several nodes create it once.

use std::str::FromStr;

use crate::model::{TimeControl, TournamentKind};

/// How often a scheduled tournament comes back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Every {
    /// On every hour.
    Hourly,
    /// Every day at this hour (UTC).
    Daily {
        /// 0..=23.
        hour: u8,
    },
}

/// One line of the schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scheduled {
    /// The line as given (its key).
    pub spec: String,
    /// Arena or Swiss.
    pub kind: TournamentKind,
    /// When.
    pub every: Every,
    /// The games' clock.
    pub time_control: TimeControl,
    /// Arena: minutes; Swiss: rounds.
    pub length: u32,
}

/// A schedule line that does not parse.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ScheduleError {
    /// Not four words.
    #[error("expected four words, KIND EVERY CLOCK LENGTH, as in \"arena hourly 3+2 45\" or \"swiss daily@18 10+5 5\"")]
    Shape,
    /// The first word.
    #[error("{0:?} is not arena or swiss")]
    Kind(String),
    /// The second word.
    #[error("{0:?} is not hourly or daily@H (H from 0 to 23)")]
    Every(String),
    /// The third word.
    #[error("{0:?} is not a clock MINUTES+SECONDS from 1+0 to 60+60")]
    Clock(String),
    /// The fourth word.
    #[error(
        "{0:?} is not a length: minutes (1 to 720) for an arena, rounds (1 to 15) for a Swiss"
    )]
    Length(String),
}

impl FromStr for Scheduled {
    type Err = ScheduleError;

    fn from_str(s: &str) -> Result<Scheduled, ScheduleError> {
        let words: Vec<&str> = s.split_whitespace().collect();
        let [kind, every, clock, length] = words[..] else {
            return Err(ScheduleError::Shape);
        };
        let kind = TournamentKind::parse(kind).ok_or_else(|| ScheduleError::Kind(kind.into()))?;
        let every = match every {
            "hourly" => Every::Hourly,
            d => d
                .strip_prefix("daily@")
                .and_then(|h| h.parse::<u8>().ok())
                .filter(|h| *h < 24)
                .map(|hour| Every::Daily { hour })
                .ok_or_else(|| ScheduleError::Every(d.into()))?,
        };
        let time_control = clock
            .split_once('+')
            .and_then(|(m, s)| Some((m.parse::<u64>().ok()?, s.parse::<u64>().ok()?)))
            .filter(|(m, s)| (1..=60).contains(m) && *s <= 60)
            .map(|(m, s)| TimeControl::Clock {
                initial_ms: m * 60_000,
                increment_ms: s * 1000,
            })
            .ok_or_else(|| ScheduleError::Clock(clock.into()))?;
        let range = match kind {
            TournamentKind::Arena => 1..=720,
            TournamentKind::Swiss => 1..=15,
        };
        let length = length
            .parse::<u32>()
            .ok()
            .filter(|n| range.contains(n))
            .ok_or_else(|| ScheduleError::Length(length.into()))?;
        Ok(Scheduled {
            spec: words.join(" "),
            kind,
            every,
            time_control,
            length,
        })
    }
}

const HOUR_MS: i64 = 3_600_000;

impl Scheduled {
    /// The first start strictly after `now` (ms since the epoch).
    pub fn next_start(&self, now: i64) -> i64 {
        let next_hour = (now / HOUR_MS + 1) * HOUR_MS;
        match self.every {
            Every::Hourly => next_hour,
            Every::Daily { hour } => {
                let day = 24 * HOUR_MS;
                let today = now.div_euclid(day) * day + i64::from(hour) * HOUR_MS;
                if today > now {
                    today
                } else {
                    today + day
                }
            }
        }
    }

    /// The name the tournament gets ("Hourly arena 3+2").
    pub fn name(&self) -> String {
        let (m, s) = match self.time_control {
            TimeControl::Clock {
                initial_ms,
                increment_ms,
            } => (initial_ms / 60_000, increment_ms / 1000),
            _ => (0, 0),
        };
        let when = match self.every {
            Every::Hourly => "Hourly",
            Every::Daily { .. } => "Daily",
        };
        let kind = match self.kind {
            TournamentKind::Arena => "arena",
            TournamentKind::Swiss => "Swiss",
        };
        format!("{when} {kind} {m}+{s}")
    }

    /// The unique key of the slot starting at `start`.
    pub fn key(&self, start: i64) -> String {
        format!("{}@{start}", self.spec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_lines_parse_or_say_what_is_wrong() {
        let s: Scheduled = "arena  hourly 3+2 45".parse().unwrap();
        assert_eq!(s.kind, TournamentKind::Arena);
        assert_eq!(s.every, Every::Hourly);
        assert_eq!(
            s.time_control,
            TimeControl::Clock {
                initial_ms: 180_000,
                increment_ms: 2_000
            }
        );
        assert_eq!((s.length, s.spec.as_str()), (45, "arena hourly 3+2 45"));
        assert_eq!(s.name(), "Hourly arena 3+2");
        let d: Scheduled = "swiss daily@18 10+5 5".parse().unwrap();
        assert_eq!(d.every, Every::Daily { hour: 18 });
        assert_eq!(
            "swiss daily@24 10+5 5".parse::<Scheduled>(),
            Err(ScheduleError::Every("daily@24".into()))
        );
        assert_eq!(
            "swiss daily@1 10+5 16".parse::<Scheduled>(),
            Err(ScheduleError::Length("16".into()))
        );
        assert_eq!(
            "blitz hourly 3+2 45".parse::<Scheduled>(),
            Err(ScheduleError::Kind("blitz".into()))
        );
        assert_eq!(
            "arena hourly 3 45".parse::<Scheduled>(),
            Err(ScheduleError::Clock("3".into()))
        );
        assert_eq!("arena".parse::<Scheduled>(), Err(ScheduleError::Shape));
    }

    #[test]
    fn the_next_start_is_the_next_slot() {
        // 2025-12-02 05:20:00 UTC.
        let now = 1_764_633_600_000 + 5 * HOUR_MS + 20 * 60_000;
        let hourly: Scheduled = "arena hourly 3+2 45".parse().unwrap();
        assert_eq!(hourly.next_start(now), 1_764_633_600_000 + 6 * HOUR_MS);
        let daily: Scheduled = "swiss daily@18 10+5 5".parse().unwrap();
        assert_eq!(daily.next_start(now), 1_764_633_600_000 + 18 * HOUR_MS);
        let early: Scheduled = "swiss daily@3 10+5 5".parse().unwrap();
        assert_eq!(early.next_start(now), 1_764_633_600_000 + 27 * HOUR_MS);
        // Exactly on a slot: the next one.
        assert_eq!(
            hourly.next_start(1_764_633_600_000),
            1_764_633_600_000 + HOUR_MS
        );
    }
}
