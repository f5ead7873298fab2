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
