//! The bench: a fixed search over fixed positions whose total node count is
//! the engine's signature (it changes exactly when search behaviour does),
//! and a speed measurement.

use std::time::Duration;

use oware_core::{parse_moves, Game, Position};

use crate::clock::Instant;
use crate::{Engine, EngineOptions, Limits};

/// The bench positions: the start, then games after fixed openings (move
/// lists from the start), then a few set positions with laps and endgames.
pub const OPENINGS: [&str; 12] = [
    "",
    "F",
    "Cf",
    "FfBe",
    "AdEcFb",
    "DaFfEeCd",
    "BcDeFaCfEb",
    "FeDfBcAdCb",
    "EbFdCeBfAa",
    "DcEdFeAfBaCb",
    "FaEbDcCdBeAf",
    "CfDeEdFcAbBa",
];

/// Set positions added to the openings.
pub const POSITIONS: [&str; 4] = [
    "0-0-0-0-0-17-2-1-1-0-0-1-13-13-S",
    "5-1-0-13-2-0-3-0-6-1-1-2-7-7-N",
    "2-2-3-0-1-4-0-1-1-2-0-0-16-16-S",
    "1-0-9-0-2-3-2-0-1-5-4-1-10-10-N",
];

/// The games the bench searches.
pub fn games() -> Vec<Game> {
    let mut out = Vec::new();
    for line in OPENINGS {
        let moves = parse_moves(line).expect("bench openings are valid move lists");
        out.push(Game::from_moves(Position::start(), &moves).expect("bench openings are legal"));
    }
    for p in POSITIONS {
        out.push(Game::new(p.parse().expect("bench positions are valid")));
    }
    out
}

/// What the bench measured.
#[derive(Clone, Debug)]
pub struct BenchReport {
    /// Total nodes: the signature.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// Positions searched.
    pub positions: usize,
}

impl BenchReport {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)) as u64
    }
}

/// Searches every bench position to `depth` with a fresh `hash_mb` table,
/// no tablebases; `each` is called with each position and its node count.
pub fn run(depth: u32, hash_mb: usize, each: &mut dyn FnMut(&Position, u64)) -> BenchReport {
    let mut engine = Engine::new(EngineOptions {
        hash_mb,
        tablebase_dir: None,
    });
    let started = Instant::now();
    let mut nodes = 0;
    let games = games();
    for game in &games {
        engine.new_game();
        let r = engine.search(game, &Limits::depth(depth), &mut |_| {});
        nodes += r.nodes;
        each(game.position(), r.nodes);
    }
    BenchReport {
        nodes,
        elapsed: started.elapsed(),
        positions: games.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_is_deterministic() {
        let a = run(5, 1, &mut |_, _| {});
        let b = run(5, 1, &mut |_, _| {});
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.positions, 16);
        assert!(a.nodes > 1000);
    }
}
