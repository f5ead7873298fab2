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
    /// Percent chance that the player notices a given legal move at all
    /// (a move not noticed is not considered: a capture not noticed is a
    /// capture missed). 100 at the upper levels.
    pub notice: u8,
    /// Percent chance that the player reads a noticed move to the level's
    /// depth; otherwise it judges the move by the position right after it
    /// (it sees its own capture, not the reply). 100 at the upper levels.
    pub read: u8,
    /// Softmax temperature for choosing among the opening book's moves
    /// (see [`crate::book`]); 0 plays the book's best move.
    pub book_temperature: u32,
}

/// The profile of `level`.
pub fn profile(level: Level) -> Profile {
    let ms = Duration::from_millis;
    // depth, time, temperature, notice %, read %, book temperature
    let (depth, movetime, temperature, notice, read, book_temperature) = match level.get() {
        1 => (Some(2), ms(2000), 60, 55, 25, 300),
        2 => (Some(3), ms(2000), 50, 65, 40, 200),
        3 => (Some(4), ms(2000), 40, 75, 55, 140),
        4 => (Some(5), ms(2000), 35, 85, 70, 100),
        5 => (Some(6), ms(2000), 30, 92, 82, 70),
        6 => (Some(7), ms(2000), 25, 97, 92, 45),
        7 => (Some(8), ms(2000), 25, 100, 100, 25),
        8 => (Some(10), ms(2000), 12, 100, 100, 12),
        9 => (Some(14), ms(300), 0, 100, 100, 0),
        _ => (None, ms(1000), 0, 100, 100, 0),
    };
    Profile {
        depth,
        movetime,
        temperature,
        notice,
        read,
        book_temperature,
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

/// The move a level plays among `moves` (every legal move valued at the
/// level's depth, for the mover): the index into `moves`.
///
/// A person at a low level does not see everything. Each move is noticed
/// with probability [`Profile::notice`] (at least one always is); a noticed
/// move is read to the level's depth with probability [`Profile::read`],
/// else judged by the position right after it, with `weights` (so its own
/// capture counts but the reply does not). The move is then drawn by a
/// softmax at [`Profile::temperature`] over what was seen. The draws are
/// seeded by `seed`, the position and the ply number: a game replays.
pub fn choose(
    moves: &[MoveAnalysis],
    profile: &Profile,
    seed: u64,
    game: &Game,
    weights: &crate::eval::Weights,
) -> usize {
    if moves.len() <= 1 {
        return 0;
    }
    if profile.notice >= 100 && profile.read >= 100 {
        return pick(moves, profile.temperature, seed, game);
    }
    let key = game.position().key();
    let mut rng = SplitMix::new(
        seed.rotate_left(29)
            ^ (key as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ ((key >> 64) as u64)
            ^ (game.plies().len() as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93),
    );
    let pos = game.position();
    let mut seen: Vec<(usize, MoveAnalysis)> = Vec::new();
    for (i, m) in moves.iter().enumerate() {
        let noticed = rng.below(100) < profile.notice as u64;
        let read = rng.below(100) < profile.read as u64;
        if !noticed {
            continue;
        }
        let child = pos.play_unchecked(m.mv);
        let score = if read || child.legal_moves().is_empty() || child.is_decided() {
            m.score
        } else {
            crate::Score(-crate::eval::evaluate(&child, weights))
        };
        seen.push((i, MoveAnalysis { score, ..m.clone() }));
    }
    if seen.is_empty() {
        // Nothing caught the eye: one move, drawn.
        return rng.below(moves.len() as u64) as usize;
    }
    seen.sort_by_key(|(_, m)| std::cmp::Reverse(m.score));
    let candidates: Vec<MoveAnalysis> = seen.iter().map(|(_, m)| m.clone()).collect();
    let j = pick(&candidates, profile.temperature, seed, game);
    seen[j].0
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
            assert!(a.notice <= b.notice && a.read <= b.read);
            assert!(a.book_temperature >= b.book_temperature);
            assert!(a.depth.unwrap_or(99) <= b.depth.unwrap_or(99));
        }
        let l = profile(Level::new(3)).limits(&Limits::depth(10));
        assert_eq!(l.depth, Some(4));
        let l = profile(Level::new(10)).limits(&Limits::default());
        assert_eq!(l.movetime, Some(Duration::from_secs(1)));
    }

    // The first position of a seeded random game where the mover has at
    // least four moves, exactly one of them captures, and the capture is
    // the best move by a depth-4 analysis (so a level that sees it takes it).
    fn capture_chance() -> (Game, Vec<MoveAnalysis>, Move) {
        let mut rng = SplitMix::new(3);
        let mut game = Game::new(Position::start());
        let mut engine = crate::Engine::new(crate::EngineOptions {
            hash_mb: 1,
            tablebase_dir: None,
        });
        loop {
            let pos = *game.position();
            let me = pos.to_move();
            let legal: Vec<Move> = game.legal_moves().into_iter().collect();
            let captures: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|&m| pos.play_unchecked(m).store(me) > pos.store(me))
                .collect();
            if legal.len() >= 4 && captures.len() == 1 {
                let moves = engine.analyze(&game, &Limits::depth(4));
                if moves[0].mv == captures[0] {
                    return (game, moves, captures[0]);
                }
            }
            game.play(legal[rng.below(legal.len() as u64) as usize])
                .unwrap();
        }
    }

    #[test]
    fn low_levels_miss_captures_sometimes_and_replay() {
        let (game, moves, capture) = capture_chance();
        let weights = crate::eval::Weights::TUNED;
        let takes = |level: u8| {
            let p = profile(Level::new(level));
            (0..400u64)
                .filter(|&seed| moves[choose(&moves, &p, seed, &game, &weights)].mv == capture)
                .count()
        };
        let (one, three, seven) = (takes(1), takes(3), takes(7));
        // Level 1 notices the capture about 55 % of the time, level 3 about
        // 75 %, level 7 always (it sees every move).
        assert!(
            (150..300).contains(&one),
            "level 1 took it {one} times of 400"
        );
        assert!(three > one, "level 3 {three}, level 1 {one}");
        assert!(seven > three, "level 7 {seven}, level 3 {three}");
        let p = profile(Level::new(1));
        for seed in 0..20 {
            assert_eq!(
                choose(&moves, &p, seed, &game, &weights),
                choose(&moves, &p, seed, &game, &weights)
            );
        }
    }
}
