//! The parallel search (Lazy SMP): legal, stoppable, and without effect on
//! the deterministic single-threaded search.

use oware_core::{parse_moves, Game, Position};
use oware_engine::{Engine, EngineOptions, Limits, StopHandle};

fn engine() -> Engine {
    Engine::new(EngineOptions {
        hash_mb: 16,
        tablebase_dir: None,
    })
}

#[test]
fn one_thread_after_two_searches_as_before() {
    let game = Game::from_moves(Position::start(), &parse_moves("FfBe").unwrap()).unwrap();
    let mut e = engine();
    let before = e.search(&game, &Limits::depth(11), &mut |_| {});

    e.set_threads(2);
    assert_eq!(e.threads(), 2);
    e.new_game();
    let parallel = e.search(&game, &Limits::depth(11), &mut |_| {});
    assert!(game.legal_moves().contains(parallel.best.unwrap()));
    assert_eq!(parallel.depth, 11);

    e.set_threads(1);
    e.new_game();
    let after = e.search(&game, &Limits::depth(11), &mut |_| {});
    assert_eq!(
        (before.best, before.score, &before.pv, before.nodes),
        (after.best, after.score, &after.pv, after.nodes)
    );
}

#[test]
fn two_threads_find_the_win() {
    // South wins by sowing the 17 seeds of F (see the UCI tests).
    let game = Game::new("0-0-0-0-0-17-2-1-1-0-0-1-13-13-S".parse().unwrap());
    let mut e = engine();
    e.set_threads(2);
    let r = e.search(&game, &Limits::depth(12), &mut |_| {});
    assert_eq!(r.best.unwrap().to_string(), "F");
    assert!(r.score.is_proven() && r.score.is_win(), "{:?}", r.score);
}

#[test]
fn a_stop_ends_every_thread() {
    let game = Game::new(Position::start());
    let mut e = engine();
    e.set_threads(3);
    let stop = StopHandle::default();
    let remote = stop.clone();
    // The stop is sent once the search reports an iteration, so it comes
    // mid-search (a stop on a timer could come before the search starts
    // and clears the handle, and be lost).
    let (searching, first_iteration) = std::sync::mpsc::channel::<()>();
    let stopper = std::thread::spawn(move || {
        first_iteration
            .recv()
            .expect("the search reports an iteration");
        remote.stop();
    });
    let started = std::time::Instant::now();
    let r = e.search_with(&game, &Limits::default(), &stop, &mut |_| {
        let _ = searching.send(());
    });
    stopper.join().unwrap();
    assert!(r.best.is_some());
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}
