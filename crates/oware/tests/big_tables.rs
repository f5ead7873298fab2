//! Tables up to 24 seeds, as `oware serve --tablebase-seeds 24` and
//! `oware play --tablebases D` open them: memory-mapped from the files of
//! `oware tablebase build --max-seeds 24 --dir D` (1.25 GB, docs/TABLEBASE.md).
//!
//! CI builds only small tables, so this test runs only when
//! `OWARE_TB_DIR` names a folder with tables up to at least 24 seeds, and
//! otherwise passes saying it was skipped and why.

use std::path::PathBuf;
use std::time::Duration;

use assert_cmd::Command;
use oware_core::{Game, Position};
use oware_engine::{Engine, EngineOptions, Limits, Score};
use oware_tablebase::background::{load_or_build, Event};
use predicates::prelude::*;

/// A 24-seed position: South to move, 12 seeds in each store.
const POS24: &str = "3-2-1-0-4-2-1-3-0-2-5-1-12-12-S";

fn big_tables() -> Option<PathBuf> {
    let Some(dir) = std::env::var_os("OWARE_TB_DIR").map(PathBuf::from) else {
        eprintln!(
            "skipped: set OWARE_TB_DIR to a folder of tables up to 24 seeds \
             (oware tablebase build --max-seeds 24 --dir D) to run this test"
        );
        return None;
    };
    if !dir.join("oware-tb-24.otb").exists() {
        eprintln!(
            "skipped: {} holds no oware-tb-24.otb (oware tablebase build --max-seeds 24 --dir {})",
            dir.display(),
            dir.display()
        );
        return None;
    }
    Some(dir)
}

#[test]
fn tables_up_to_24_seeds_open_memory_mapped_for_play_and_serve() {
    let Some(dir) = big_tables() else { return };
    let pos: Position = POS24.parse().unwrap();
    assert_eq!(pos.seeds_on_board(), 24);

    // `oware play --tablebases D`: the engine opens the folder.
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        tablebase_dir: Some(dir.clone()),
    });
    assert!(
        engine.tablebase_error().is_none(),
        "{:?}",
        engine.tablebase_error()
    );
    assert!(
        engine.tablebase_seeds() >= 24,
        "{}",
        engine.tablebase_seeds()
    );
    let tables = engine.tablebase().expect("tables").clone();
    assert!(tables.probe(&pos).is_some(), "24 seeds are covered");
    assert!(!tables.best_moves(&pos).expect("covered").is_empty());
    // The search's value agrees with the tables' result where it is exact.
    let game = Game::new(pos);
    let r = engine.search(&game, &Limits::depth(6), &mut |_| {});
    // A proven value: from the tables, or a win or loss in so many plies.
    let proven = r.score.is_proven();
    match engine.table_result(&game) {
        Some(1) => assert!(proven && r.score > Score::ZERO, "{:?}", r.score),
        Some(-1) => assert!(proven && r.score < Score::ZERO, "{:?}", r.score),
        Some(_) => assert_eq!(r.score, Score::ZERO),
        None => eprintln!("{POS24}: the tables' result depends on repetition"),
    }

    // `oware serve --tablebase-seeds 24 --tablebase-dir D`: opened, not built.
    let events = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = events.clone();
    let loading = load_or_build(Some(dir.clone()), 24, move |e| seen.lock().unwrap().push(e));
    let t = loading.wait(Duration::from_secs(120)).expect("opened");
    assert!(t.max_seeds() >= Some(24));
    let events = events.lock().unwrap();
    assert!(
        matches!(events.first(), Some(Event::Opened { max_seeds }) if *max_seeds >= 24),
        "{events:?}"
    );
    assert!(!events.iter().any(|e| matches!(e, Event::Building { .. })));

    // And from the command line.
    Command::cargo_bin("oware")
        .unwrap()
        .args(["tablebase", "probe", "--dir", dir.to_str().unwrap(), POS24])
        .assert()
        .success()
        .stdout(predicate::str::contains("best"));
}
