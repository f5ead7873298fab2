//! Playing levels: each level's default budget and how fallible it is.
//!
//! Level 10 is the full-strength search. Below it, a level searches to a
//! fixed shallow depth, values every legal move exactly at that depth, and
//! draws its move from a softmax over those values: a move worse by
//! `temperature` centi-seeds is `e` times less likely than the best one. So
//! weak levels still prefer good moves (and never play a move that their
//! search sees lose by force while another does not), but they miss deep
//! tactics and sometimes play a plausible second-best move. The draw is
//! seeded by [`Limits::seed`](crate::Limits) and the position, so games can
//! be replayed.

use std::time::Duration;

use oware_core::Game;

use crate::{Level, Limits, MoveAnalysis};

/// What a level does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    /// Deepest iteration (none: unlimited).
    pub depth: Option<u32>,
    /// Default time per move, used when the caller gives no limit.
    pub movetime: Duration,
    /// Softmax temperature in centi-seeds; 0 plays the best move.
    pub temperature: u32,
}

/// The profile of `level`.
pub fn profile(level: Level) -> Profile {
    let ms = Duration::from_millis;
    let (depth, movetime, temperature) = match level.get() {
        1 => (Some(1), ms(2000), 300),
        2 => (Some(2), ms(2000), 200),
        3 => (Some(3), ms(2000), 140),
        4 => (Some(4), ms(2000), 100),
        5 => (Some(5), ms(2000), 70),
        6 => (Some(6), ms(2000), 45),
        7 => (Some(8), ms(2000), 25),
        8 => (Some(10), ms(2000), 12),
        9 => (Some(14), ms(300), 0),
        _ => (None, ms(1000), 0),
    };
    Profile {
        depth,
        movetime,
        temperature,
    }
}

impl Profile {
    /// The limits a search at this level runs with: the caller's limits if
    /// it gave any (capped at the level's depth), else the level's budget.
    pub fn limits(&self, given: &Limits) -> Limits {
        let mut l = given.clone();
        let unlimited =
            l.depth.is_none() && l.nodes.is_none() && l.movetime.is_none() && l.clock.is_none();
        if unlimited {
            l.movetime = Some(self.movetime);
        }
        if let Some(d) = self.depth {
            l.depth = Some(l.depth.map_or(d, |x| x.min(d)));
        }
        l
    }
}

/// A small seeded generator (SplitMix64): reproducible draws without a
/// dependency.
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator from a seed.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in [0, 1).
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A uniform number in 0..n (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
}

/// Picks the index of a move from `moves` (valued for the mover) by a
/// softmax at `temperature`, seeded by `seed` and the game's position.
pub fn pick(moves: &[MoveAnalysis], temperature: u32, seed: u64, game: &Game) -> usize {
    if moves.len() <= 1 || temperature == 0 {
        return 0;
    }
    let best = moves
        .iter()
        .map(|m| m.score.centiseeds())
        .max()
        .unwrap_or(0);
    let t = temperature as f64;
    let weights: Vec<f64> = moves
        .iter()
        .map(|m| ((m.score.centiseeds() - best) as f64 / t).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    let key = game.position().key();
    let mut rng = SplitMix::new(
        seed ^ (key as u64)
            ^ ((key >> 64) as u64).rotate_left(17)
            ^ (game.plies().len() as u64).wrapping_mul(0x2545_F491_4F6C_DD1D),
    );
    let mut x = rng.next_f64() * total;
    for (i, w) in weights.iter().enumerate() {
        if x < *w {
            return i;
        }
        x -= w;
    }
    moves.len() - 1
}

/// The 1-ply greedy player: the move that captures the most seeds at once,
/// ties broken by a draw seeded by `seed` and the position. A yardstick for
/// the full engine, not a level.
pub fn greedy_move(game: &Game, seed: u64) -> Option<oware_core::Move> {
    let pos = game.position();
    let me = pos.to_move();
    let moves: Vec<(u8, oware_core::Move)> = game
        .legal_moves()
        .into_iter()
        .map(|mv| (pos.play_unchecked(mv).store(me) - pos.store(me), mv))
        .collect();
    let best = moves.iter().map(|m| m.0).max()?;
    let ties: Vec<oware_core::Move> = moves.iter().filter(|m| m.0 == best).map(|m| m.1).collect();
    let key = pos.key();
    let mut rng = SplitMix::new(seed ^ key as u64 ^ (key >> 64) as u64 ^ game.plies().len() as u64);
    Some(ties[rng.below(ties.len() as u64) as usize])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Score;
    use oware_core::{Move, Position};

    fn analysis(values: &[i32]) -> Vec<MoveAnalysis> {
        values
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                let mv = Move::of(oware_core::Side::South, i).unwrap();
                MoveAnalysis {
                    mv,
                    score: Score(v),
                    pv: vec![mv],
                }
            })
            .collect()
    }

    #[test]
    fn softmax_prefers_better_moves_and_is_reproducible() {
        let moves = analysis(&[300, 250, -400, -2000]);
        let mut counts = [0; 4];
        for seed in 0..2000u64 {
            let game = Game::new(Position::start());
            counts[pick(&moves, 100, seed, &game)] += 1;
        }
        assert!(counts[0] > counts[1], "{counts:?}");
        assert!(counts[1] > counts[2], "{counts:?}");
        assert_eq!(counts[3], 0, "{counts:?}");
        let game = Game::new(Position::start());
        assert_eq!(pick(&moves, 100, 7, &game), pick(&moves, 100, 7, &game));
        assert_eq!(pick(&moves, 0, 7, &game), 0);
    }

    #[test]
    fn greedy_takes_the_biggest_capture() {
        // E4: D captures 3 then 2.
        let game = Game::new("0-0-0-5-0-0-3-1-2-0-0-3-17-17-S".parse().unwrap());
        for seed in 0..5 {
            assert_eq!(greedy_move(&game, seed).unwrap().letter(), 'D');
        }
        let over = Game::new("1-0-0-0-1-0-0-0-0-0-0-0-23-23-S".parse().unwrap());
        assert_eq!(greedy_move(&over, 0), None);
    }

    #[test]
    fn profiles_get_stronger() {
        for n in 1..10 {
            let a = profile(Level::new(n));
            let b = profile(Level::new(n + 1));
            assert!(a.temperature >= b.temperature);
            assert!(a.depth.unwrap_or(99) <= b.depth.unwrap_or(99));
        }
        let l = profile(Level::new(3)).limits(&Limits::depth(10));
        assert_eq!(l.depth, Some(3));
        let l = profile(Level::new(10)).limits(&Limits::default());
        assert_eq!(l.movetime, Some(Duration::from_secs(1)));
    }
}
