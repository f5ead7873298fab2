//! An analysis starts from nothing (issue 36): with a depth limit, its
//! values and move order depend on the position, the history since the
//! last capture, the depth and the tables, not on the engine's table size,
//! its threads or what it searched before.

use oware_core::{parse_moves, Game, Position};
use oware_engine::{Engine, EngineOptions, Limits};

fn answer(engine: &mut Engine, game: &Game, depth: u32) -> Vec<(char, i32)> {
    engine
        .analyze(game, &Limits::depth(depth))
        .iter()
        .map(|m| (m.mv.letter(), m.score.raw()))
        .collect()
}

#[test]
fn analyses_ignore_the_table_size_the_threads_and_earlier_searches() {
    let games: Vec<Game> = ["FfBe", "CfEaDbAcFe", "AdFfCeFcAdEcBbEeDcCdFeBc"]
        .iter()
        .map(|m| Game::from_moves(Position::start(), &parse_moves(m).unwrap()).unwrap())
        .collect();
    let fresh = |hash_mb| {
        Engine::new(EngineOptions {
            hash_mb,
            tablebase_dir: None,
        })
    };
    let mut reference = fresh(oware_engine::ANALYSIS_HASH_MB);
    let mut others = [fresh(1), fresh(16), fresh(64)];
    others[2].set_threads(2);
    for e in &mut others {
        e.search(
            &Game::new(Position::start()),
            &Limits::depth(10),
            &mut |_| {},
        );
    }
    for game in &games {
        let want = answer(&mut reference, game, 10);
        for e in &mut others {
            assert_eq!(answer(e, game, 10), want, "{}", game.position());
            // Other work between two questions changes nothing either.
            e.search(game, &Limits::depth(9), &mut |_| {});
        }
        // The same engine asked twice.
        assert_eq!(answer(&mut reference, game, 10), want);
    }
}

/// An analysis of some root moves alone (the coach's deeper look at its
/// closest moves) values exactly those moves, the same way on any engine;
/// naming none is the full analysis.
#[test]
fn an_analysis_of_some_moves_values_those_alone() {
    let game = Game::from_moves(Position::start(), &parse_moves("CfEaDbAcFe").unwrap()).unwrap();
    let legal: Vec<_> = game.legal_moves().into_iter().collect();
    assert!(legal.len() >= 3);
    let stop = oware_engine::StopHandle::default();
    let mut a = Engine::new(EngineOptions {
        hash_mb: oware_engine::ANALYSIS_HASH_MB,
        tablebase_dir: None,
    });
    let mut b = Engine::new(EngineOptions {
        hash_mb: 1,
        tablebase_dir: None,
    });
    b.search(&game, &Limits::depth(9), &mut |_| {});
    let some = [legal[2], legal[0]];
    let (found, depth) =
        a.analyze_moves_to_depth(&game, &some, &Limits::depth(9), &stop, &mut |_| {});
    assert_eq!(depth, 9);
    let mut moves: Vec<_> = found.iter().map(|m| m.mv).collect();
    moves.sort_by_key(|m| m.letter());
    let mut want = some.to_vec();
    want.sort_by_key(|m| m.letter());
    assert_eq!(moves, want);
    let (again, _) = b.analyze_moves_to_depth(&game, &some, &Limits::depth(9), &stop, &mut |_| {});
    let values = |v: &[oware_engine::MoveAnalysis]| -> Vec<(char, i32)> {
        v.iter().map(|m| (m.mv.letter(), m.score.raw())).collect()
    };
    assert_eq!(values(&again), values(&found));
    // No move named: every legal move, the full analysis.
    let (all, _) = a.analyze_moves_to_depth(&game, &[], &Limits::depth(9), &stop, &mut |_| {});
    assert_eq!(values(&all), answer(&mut b, &game, 9));
}
