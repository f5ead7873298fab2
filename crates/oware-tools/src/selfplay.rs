//! Self-play games for the training data of [`crate::tune`] and
//! [`crate::nn_data`]: one loop, so both draw their games the same way.

use oware_core::{Game, Position, Side};
use oware_engine::levels::{self, SplitMix};
use oware_engine::{Engine, Limits, MoveAnalysis};

use crate::arena::Opening;

/// Games longer than this are stopped by agreement (a guard: the rules'
/// repetition ends real games long before).
const MAX_PLIES: usize = 400;

/// The softmax temperature of the move choice, in centi-seeds: small, so
/// the games are strong but differ.
const TEMPERATURE: u32 = 15;

/// True when the mover has no capture: the static evaluation is meant to
/// be right there, with no exchange pending.
pub(crate) fn quiet(pos: &Position) -> bool {
    let me = pos.to_move();
    pos.legal_moves()
        .into_iter()
        .all(|mv| pos.play_unchecked(mv).store(me) == pos.store(me))
}

/// A finished game's result for the mover of `pos`: 1, 0.5 or 0.
pub(crate) fn result_for(winner: Option<Side>, pos: &Position) -> f64 {
    match winner {
        None => 0.5,
        Some(w) if w == pos.to_move() => 1.0,
        Some(_) => 0.0,
    }
}

/// Plays one game from `opening`: every move is drawn by
/// [`levels::pick`] among all legal moves valued by a search of `depth`
/// plies. `searched` sees each searched position with its move values
/// before the move is drawn. Returns the finished game.
pub(crate) fn play(
    engine: &mut Engine,
    opening: &Opening,
    depth: u32,
    rng: &mut SplitMix,
    searched: &mut dyn FnMut(&Position, &[MoveAnalysis]),
) -> Game {
    let mut game =
        Game::from_moves(opening.start, &opening.moves).expect("random openings are legal");
    engine.new_game();
    while !game.is_over() && game.plies().len() < MAX_PLIES {
        let stop = engine.stop_handle();
        let moves: Vec<MoveAnalysis> =
            engine.analyze_with(&game, &Limits::depth(depth), &stop, &mut |_| {});
        searched(game.position(), &moves);
        let i = levels::pick(&moves, TEMPERATURE, rng.next_u64(), &game);
        game.play(moves[i].mv)
            .expect("the engine plays legal moves");
    }
    if !game.is_over() {
        game.agree_to_stop().expect("running");
    }
    game
}
