//! Training data for the evaluation network (`oware tune nn-gen`; the
//! trainer is `scripts/train-nn.py`, the network `oware_engine::nn`).
//!
//! Self-play games from random openings, every move chosen among all legal
//! moves valued by a search of fixed depth (a softmax of small temperature,
//! so games differ), with the endgame tables in the search when given.
//! Every quiet position (the mover has no capture: where the static
//! evaluation stands in for a search) is written with three labels for its
//! mover: the game's result, the best move's search value (so a label from
//! a search of `depth` plies and its quiescence, not only from the noisy end
//! of the game), and, when the tables hold the position and know its result
//! exactly, that result and the game's final margin by the tables. The
//! network's active inputs are written too, so the trainer never
//! re-implements them.

use std::fmt::Write as _;
use std::sync::Arc;

use oware_core::Position;
use oware_engine::levels::SplitMix;
use oware_engine::nn::{active_inputs, Network};
use oware_engine::tablebase::Tablebase;
use oware_engine::{Engine, EngineOptions};
use oware_tablebase::TbResult;

use crate::arena::Opening;
use crate::selfplay::{self, quiet, result_for};

/// One labelled position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Labelled {
    /// The position.
    pub pos: Position,
    /// The game's result for the mover: 1, 0.5 or 0.
    pub result: f64,
    /// The best move's value by the search, centi-seeds (or the engine's
    /// proven-score units), for the mover.
    pub score: i32,
    /// The tables' exact result for the mover (1, 0.5, 0), if known.
    pub exact: Option<f64>,
    /// The mover's final store minus the opponent's with best play, when
    /// the tables know the value exactly (not only the result).
    pub margin: Option<i32>,
}

fn exact_result(tables: &Tablebase, pos: &Position) -> Option<f64> {
    match tables.probe(pos)?.result(pos) {
        TbResult::Win => Some(1.0),
        TbResult::Draw => Some(0.5),
        TbResult::Loss => Some(0.0),
        _ => None,
    }
}

fn exact_margin(tables: &Tablebase, pos: &Position) -> Option<i32> {
    let value = tables.probe(pos)?;
    if !value.is_exact() {
        return None;
    }
    let me = pos.to_move();
    let (mine, theirs) = (pos.store(me) as i32, pos.store(me.opponent()) as i32);
    let (got, board) = (value.lower() as i32, value.seeds() as i32);
    Some(mine + got - theirs - (board - got))
}

/// Plays `games` self-play games at `depth` from random openings of
/// `plies` plies (seeded by `seed`) and returns their labelled quiet
/// positions. The games are played with `network` when given (a second
/// round on a network's own games), else with the linear evaluation.
/// `each` is called after every game.
pub fn generate(
    games: usize,
    depth: u32,
    plies: usize,
    seed: u64,
    tables: Option<Arc<Tablebase>>,
    network: Option<Arc<Network>>,
    each: &mut dyn FnMut(usize),
) -> Vec<Labelled> {
    let openings = Opening::random(plies, games, seed);
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        tablebase_dir: None,
    });
    engine.set_tablebase(tables.clone());
    // Without a network given, the linear evaluation, whatever the
    // engine's default, so the data of a first round repeat.
    engine.set_network(network);
    let mut rng = SplitMix::new(seed ^ 0x5EED);
    let mut out = Vec::new();
    for (g, opening) in openings.iter().enumerate() {
        let mut scored: Vec<(Position, i32)> = Vec::new();
        let game = selfplay::play(&mut engine, opening, depth, &mut rng, &mut |pos, moves| {
            if quiet(pos) {
                let best = moves.iter().map(|m| m.score.raw()).max().unwrap_or(0);
                scored.push((*pos, best));
            }
        });
        let winner = game.outcome().expect("over").winner;
        for (pos, score) in scored {
            let result = result_for(winner, &pos);
            let exact = tables.as_deref().and_then(|t| exact_result(t, &pos));
            let margin = tables.as_deref().and_then(|t| exact_margin(t, &pos));
            out.push(Labelled {
                pos,
                result,
                score,
                exact,
                margin,
            });
        }
        each(g + 1);
    }
    out
}

/// One line per position: position, result, search value, exact result or
/// `-`, the network's active inputs (comma-separated), and the exact final
/// margin or `-`.
pub fn write(samples: &[Labelled]) -> String {
    let mut s = String::new();
    for x in samples {
        let exact = x.exact.map_or("-".to_string(), |e| e.to_string());
        let margin = x.margin.map_or("-".to_string(), |m| m.to_string());
        let inputs: Vec<String> = active_inputs(&x.pos)
            .iter()
            .map(|i| i.to_string())
            .collect();
        let _ = writeln!(
            s,
            "{} {} {} {} {} {}",
            x.pos,
            x.result,
            x.score,
            exact,
            inputs.join(","),
            margin
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_quiet_positions_with_search_and_tables() {
        let tables = Arc::new(Tablebase::build_in_memory(8).unwrap());
        let s = generate(2, 2, 2, 5, Some(tables.clone()), None, &mut |_| {});
        assert!(s.len() > 10);
        assert!(s.iter().all(|x| quiet(&x.pos)));
        // Positions with few seeds are labelled by the tables.
        assert!(s
            .iter()
            .all(|x| x.exact.is_none() || x.pos.seeds_on_board() <= 8));
        let text = write(&s[..2]);
        assert_eq!(text.lines().count(), 2);
        assert_eq!(text.lines().next().unwrap().split(' ').count(), 6);
        // The margin agrees with the result wherever both are known.
        let known: Vec<_> = s.iter().filter(|x| x.margin.is_some()).collect();
        assert!(!known.is_empty());
        for x in known {
            let m = x.margin.unwrap();
            let r = x.exact.expect("an exact value has a result");
            assert_eq!(
                r,
                if m > 0 {
                    1.0
                } else if m < 0 {
                    0.0
                } else {
                    0.5
                },
                "{}",
                x.pos
            );
        }
        // With a network the games differ from the linear evaluation's,
        // and repeat with the same seed.
        let net = Some(Network::builtin());
        let a = generate(2, 2, 2, 5, Some(tables.clone()), net.clone(), &mut |_| {});
        let b = generate(2, 2, 2, 5, Some(tables), net, &mut |_| {});
        assert_eq!(a, b);
        assert_ne!(a, s);
    }
}
