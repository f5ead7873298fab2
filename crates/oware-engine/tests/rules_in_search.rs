//! The search's game ends agree with the rules core's `Game`: for every move
//! that ends the game (R9, R10, R11 with the game's history), the value the
//! search gives it is the game's result.

use oware_core::{Game, Position, Setup, Side};
use oware_engine::levels::SplitMix;
use oware_engine::{Engine, EngineOptions, Limits, Score};

fn sparse_position(rng: &mut SplitMix) -> Position {
    let mut houses = [0u8; 12];
    let on_board = 2 + rng.below(5) as u8;
    for _ in 0..on_board {
        houses[rng.below(12) as usize] += 1;
    }
    let south = rng.below((48 - on_board as u64) + 1) as u8;
    let south = south.min(24);
    let north = 48 - on_board - south;
    if north > 24 {
        // Keep the game undecided: move the excess to South.
        let setup = Setup {
            houses,
            stores: [south + north - 24, 24],
            to_move: Side::South,
        };
        return Position::from_setup(setup).unwrap();
    }
    let to_move = if rng.below(2) == 0 {
        Side::South
    } else {
        Side::North
    };
    Position::from_setup(Setup {
        houses,
        stores: [south, north],
        to_move,
    })
    .unwrap()
}

#[test]
fn every_game_ending_move_gets_the_games_result() {
    let mut rng = SplitMix::new(17);
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 1,
        tablebase_dir: None,
    });
    let mut by_reason = std::collections::HashMap::new();
    for _ in 0..300 {
        let mut game = Game::new(sparse_position(&mut rng));
        for _ in 0..60 {
            if game.is_over() {
                break;
            }
            let analysis = engine.analyze(&game, &Limits::depth(2));
            assert_eq!(analysis.len(), game.legal_moves().len());
            for a in &analysis {
                let mut after = game.clone();
                after.play(a.mv).unwrap();
                let Some(o) = after.outcome() else { continue };
                let me = game.position().to_move();
                let expected = match o.winner {
                    None => Score::ZERO,
                    Some(w) if w == me => Score::win_in(1),
                    Some(_) => Score::loss_in(1),
                };
                assert_eq!(
                    a.score,
                    expected,
                    "{} then {}: {:?}",
                    game.position(),
                    a.mv,
                    o.reason
                );
                *by_reason.entry(o.reason.as_str()).or_insert(0) += 1;
            }
            let moves: Vec<_> = game.legal_moves().into_iter().collect();
            game.play(moves[rng.below(moves.len() as u64) as usize])
                .unwrap();
        }
    }
    // The sample must exercise the repetition rule, not only captures.
    assert!(
        by_reason.get("repetition").copied().unwrap_or(0) >= 5,
        "{by_reason:?}"
    );
    assert!(
        by_reason.get("no-moves").copied().unwrap_or(0) >= 5,
        "{by_reason:?}"
    );
}

#[test]
fn searches_return_legal_moves_under_any_limit() {
    let mut rng = SplitMix::new(99);
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 1,
        tablebase_dir: None,
    });
    for i in 0..200 {
        let mut game = Game::new(Position::start());
        let plies = rng.below(40);
        for _ in 0..plies {
            let moves: Vec<_> = game.legal_moves().into_iter().collect();
            if moves.is_empty() {
                break;
            }
            game.play(moves[rng.below(moves.len() as u64) as usize])
                .unwrap();
        }
        let limits = Limits {
            nodes: Some(1 + rng.below(3000)),
            seed: i,
            ..Limits::default()
        };
        let limits = if i % 3 == 0 {
            Limits {
                level: Some(oware_engine::Level::new(1 + (i % 10) as u8)),
                ..limits
            }
        } else {
            limits
        };
        let r = engine.search(&game, &limits, &mut |_| {});
        match r.best {
            Some(mv) => assert!(game.legal_moves().contains(mv), "{} {mv}", game.position()),
            None => assert!(game.is_over()),
        }
    }
}

#[test]
fn stop_from_another_thread_ends_an_unlimited_search() {
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 4,
        tablebase_dir: None,
    });
    let stop = engine.stop_handle();
    let started = std::time::Instant::now();
    // The stop is sent once the search reports its first iteration, so it
    // arrives mid-search (search() resets the handle when it starts: a
    // stop sent on a timer could come before that and be lost).
    let (searching, first_iteration) = std::sync::mpsc::channel::<()>();
    let stopper = std::thread::spawn(move || {
        first_iteration
            .recv()
            .expect("the search reports an iteration");
        stop.stop();
    });
    let r = engine.search(
        &Game::new(Position::start()),
        &Limits::default(),
        &mut |_| {
            let _ = searching.send(());
        },
    );
    stopper.join().unwrap();
    assert!(r.best.is_some());
    assert!(
        started.elapsed() < std::time::Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
}
