//! Ratings: Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013),
//! computed by the `skillratings` crate, one rating per time-control class.
//! Each rated game is its own rating period, so a rating moves after every
//! game, as on the sites people already play on.

use serde::{Deserialize, Serialize};
use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

use crate::model::TimeControl;

/// The time-control classes rated apart: a player's strength at five
/// minutes a game says little about their strength at an hour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RatingClass {
    /// Clocks whose expected game (the initial time plus 40 increments)
    /// lasts under 10 minutes a player.
    Fast,
    /// Longer clocks, and games without a clock.
    Slow,
    /// A limit per move (R13).
    PerMove,
    /// Correspondence: days a move.
    Correspondence,
}

impl RatingClass {
    /// Every class.
    pub const ALL: [RatingClass; 4] = [
        RatingClass::Fast,
        RatingClass::Slow,
        RatingClass::PerMove,
        RatingClass::Correspondence,
    ];

    /// The class of a time control.
    pub fn of(tc: Option<TimeControl>) -> RatingClass {
        match tc {
            None => RatingClass::Slow,
            Some(TimeControl::PerMove { .. }) => RatingClass::PerMove,
            Some(TimeControl::Correspondence { .. }) => RatingClass::Correspondence,
            Some(TimeControl::Clock {
                initial_ms,
                increment_ms,
            }) => {
                if initial_ms + 40 * increment_ms < 600_000 {
                    RatingClass::Fast
                } else {
                    RatingClass::Slow
                }
            }
        }
    }

    /// The class as stored and sent.
    pub const fn as_str(self) -> &'static str {
        match self {
            RatingClass::Fast => "fast",
            RatingClass::Slow => "slow",
            RatingClass::PerMove => "per_move",
            RatingClass::Correspondence => "correspondence",
        }
    }

    /// The class named `s`.
    pub fn parse(s: &str) -> Option<RatingClass> {
        RatingClass::ALL.into_iter().find(|c| c.as_str() == s)
    }
}

/// A Glicko-2 rating.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rating {
    /// The rating (1500 to start).
    pub rating: f64,
    /// The rating deviation (350 to start): how uncertain it is.
    pub deviation: f64,
    /// The volatility (0.06 to start): how erratic the player is.
    pub volatility: f64,
    /// Rated games played in this class.
    pub games: u32,
}

impl Default for Rating {
    fn default() -> Rating {
        Rating {
            rating: 1500.0,
            deviation: 350.0,
            volatility: 0.06,
            games: 0,
        }
    }
}

impl Rating {
    /// Above this deviation a rating is shown as provisional (with a `?`).
    pub const PROVISIONAL_DEVIATION: f64 = 110.0;

    /// Still uncertain: too few games, or too long ago.
    pub fn provisional(&self) -> bool {
        self.deviation > Self::PROVISIONAL_DEVIATION
    }

    fn glicko(&self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn with(self, g: Glicko2Rating) -> Rating {
        Rating {
            rating: g.rating,
            deviation: g.deviation,
            volatility: g.volatility,
            games: self.games + 1,
        }
    }
}

/// The result of a rated game for its first player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// The first player won.
    Win,
    /// A draw.
    Draw,
    /// The first player lost.
    Loss,
}

impl Score {
    /// The score of South (the first player of a rated game) for the
    /// game's winner, `None` for a draw.
    pub fn for_south(winner: Option<oware_core::Side>) -> Score {
        match winner {
            None => Score::Draw,
            Some(oware_core::Side::South) => Score::Win,
            Some(oware_core::Side::North) => Score::Loss,
        }
    }
}

/// The two players' ratings after a game between them.
pub fn rate(a: Rating, b: Rating, score: Score) -> (Rating, Rating) {
    let outcome = match score {
        Score::Win => Outcomes::WIN,
        Score::Draw => Outcomes::DRAW,
        Score::Loss => Outcomes::LOSS,
    };
    let (na, nb) = glicko2(&a.glicko(), &b.glicko(), &outcome, &Glicko2Config::new());
    (a.with(na), b.with(nb))
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2_rating_period;

    #[test]
    fn glickmans_worked_example() {
        // Glickman's paper, section "Example calculation": a player rated
        // 1500 (RD 200, volatility 0.06) beats a 1400 (RD 30), loses to a
        // 1550 (RD 100) and to a 1700 (RD 300) in one period, with tau 0.5.
        let player = Glicko2Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opp = |rating, deviation| Glicko2Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let after = glicko2_rating_period(
            &player,
            &[
                (opp(1400.0, 30.0), Outcomes::WIN),
                (opp(1550.0, 100.0), Outcomes::LOSS),
                (opp(1700.0, 300.0), Outcomes::LOSS),
            ],
            &Glicko2Config {
                tau: 0.5,
                ..Glicko2Config::new()
            },
        );
        assert!((after.rating - 1464.06).abs() < 0.01, "{}", after.rating);
        assert!(
            (after.deviation - 151.52).abs() < 0.01,
            "{}",
            after.deviation
        );
        assert!(
            (after.volatility - 0.05999).abs() < 0.00001,
            "{}",
            after.volatility
        );
    }

    #[test]
    fn a_game_moves_both_ratings_the_right_way() {
        let (a, b) = rate(Rating::default(), Rating::default(), Score::Win);
        assert!(a.rating > 1500.0 && b.rating < 1500.0);
        assert!((a.rating - 1500.0 - (1500.0 - b.rating)).abs() < 1e-9);
        assert_eq!((a.games, b.games), (1, 1));
        assert!(a.deviation < 350.0 && a.provisional());
        let (c, d) = rate(a, b, Score::Draw);
        assert!(c.rating < a.rating && d.rating > b.rating);
    }

    #[test]
    fn classes() {
        let clock = |i, inc| {
            Some(TimeControl::Clock {
                initial_ms: i,
                increment_ms: inc,
            })
        };
        assert_eq!(RatingClass::of(clock(300_000, 2_000)), RatingClass::Fast);
        assert_eq!(RatingClass::of(clock(300_000, 10_000)), RatingClass::Slow);
        assert_eq!(RatingClass::of(None), RatingClass::Slow);
        assert_eq!(
            RatingClass::of(Some(TimeControl::PerMove {
                per_move_ms: 30_000
            })),
            RatingClass::PerMove
        );
        assert_eq!(
            RatingClass::of(Some(TimeControl::Correspondence { days_per_move: 3 })),
            RatingClass::Correspondence
        );
        for c in RatingClass::ALL {
            assert_eq!(RatingClass::parse(c.as_str()), Some(c));
        }
    }
}
