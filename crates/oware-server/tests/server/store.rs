//! The database schema is versioned: a database written before a migration
//! is brought up to date when it is opened, its games kept. The WAL is
//! copied back beside the writer and does not grow without end.

use std::sync::Arc;

use crate::old_schema::back_to_first_schema;

use oware_core::Side;
use oware_server::hub::NewGame;
use oware_server::model::Mode;
use oware_server::store::{Checkpoints, GameStore, Listing, SqliteStore, StoreError};
use oware_server::{Config, Hub};

/// An untimed public online game, its creator South.
fn online_game() -> NewGame {
    NewGame {
        mode: Mode::Online,
        level: None,
        browser_engine: false,
        side: Some(Side::South),
        name: None,
        time_control: None,
        position: None,
        public: true,
        rated: false,
        rating_range: None,
        accounts_only: false,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_older_database_is_migrated_and_keeps_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite3");
    let id = {
        let hub = Hub::new(
            Arc::new(SqliteStore::open(&path).unwrap()),
            Config::default(),
        );
        let seated = hub.create(online_game(), None).await.unwrap();
        hub.apply_to(
            &seated.id,
            Some(&seated.tokens[&Side::South]),
            oware_server::hub::Command::Resign,
        )
        .await
        .unwrap();
        seated.id
    };
    // Back to the first version's schema: no `public` column, no accounts,
    // version 1.
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        back_to_first_schema(&conn);
    }
    let store = SqliteStore::open(&path).unwrap();
    let (games, total) = store.list(Listing::Public, 10, 0).unwrap();
    assert_eq!(total, 1);
    assert_eq!(games[0].meta.id, id);
    drop(store);
    // A database from a newer program is refused, not damaged.
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch("PRAGMA user_version = 99;").unwrap();
    }
    match SqliteStore::open(&path) {
        Err(StoreError::TooNew { found: 99, .. }) => {}
        other => panic!("expected TooNew, got {:?}", other.err()),
    }
}

/// Games made one at a time, each its own commit, on a store whose plan
/// of checkpoints is `plan`: the WAL file's size after them.
async fn wal_after_games(plan: Checkpoints, games: usize) -> u64 {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite3");
    let store = Arc::new(SqliteStore::open_with(&path, plan).unwrap());
    let hub = Hub::new(store.clone(), Config::default());
    for _ in 0..games {
        hub.create(online_game(), None).await.unwrap();
    }
    std::fs::metadata(dir.path().join("games.sqlite3-wal"))
        .unwrap()
        .len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_wal_is_checkpointed_beside_the_writer_and_restarts() {
    // With the writer's own checkpoint every 32 commits, the log starts
    // again and its file stays small; without it (passive checkpoints
    // beside the writer only, which a writer that does not pause outruns),
    // the file holds every game.
    let bounded = Checkpoints {
        every: 4,
        restart_every: 32,
    };
    let unbounded = Checkpoints {
        every: 4,
        restart_every: u32::MAX,
    };
    let small = wal_after_games(bounded, 600).await;
    let large = wal_after_games(unbounded, 600).await;
    assert!(
        small < 1024 * 1024 && large > 3 * small,
        "WAL {small} bytes restarting, {large} bytes never restarting"
    );
}
