//! The hint and the coach agree: over thousands of positions from random
//! playouts, the engine's recommended move is never one the coach warns
//! about (issue 10, item 3), while other moves that give a capture are.

mod common;
use common::Rng;

use oware_core::{Game, Position};
use oware_engine::{Engine, EngineOptions, Limits};
use oware_session::{coach, Session};

#[test]
fn the_hints_move_is_never_warned_about() {
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 4,
        tablebase_dir: None,
    });
    let mut rng = Rng(0x0ae1_0ae1_0ae1_0ae1);
    let (mut positions, mut sacrifices, mut warnings) = (0, 0, 0);
    while positions < 2500 {
        let mut game = Game::new(Position::start());
        while !game.is_over() && positions < 2500 {
            let mut session = Session::new(game.clone(), None);
            let result = engine.search(&game, &Limits::depth(3), &mut |_| {});
            let hint = session.accept_hint(&result).expect("a legal hint").mv;
            positions += 1;
            match session.advice(hint) {
                Some(a) if a.is_warning() => panic!(
                    "the coach warns about the hint {hint} at {}: {a:?}",
                    game.position()
                ),
                Some(_) => sacrifices += 1,
                None => {}
            }
            // The hint's agreement is not bought by silencing the coach:
            // every other move that gives a capture is still warned about.
            for mv in game.legal_moves() {
                if mv == hint {
                    assert_eq!(
                        session.advice(mv).is_some(),
                        coach::threat(&game, mv).is_some()
                    );
                    continue;
                }
                let warned = session.advice(mv).is_some_and(|a| a.is_warning());
                assert_eq!(
                    warned,
                    coach::threat(&game, mv).is_some(),
                    "{mv} at {}",
                    game.position()
                );
                warnings += usize::from(warned);
            }
            let legal: Vec<_> = game.legal_moves().into_iter().collect();
            let mv = legal[rng.below(legal.len())];
            game.play(mv).unwrap();
        }
    }
    // The test exercises both paths.
    assert!(
        sacrifices > 50,
        "only {sacrifices} sacrifices in {positions} positions"
    );
    assert!(
        warnings > 500,
        "only {warnings} warnings in {positions} positions"
    );
}
