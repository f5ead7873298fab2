//! The database schema is versioned: a database written before a migration
//! is brought up to date when it is opened, its games kept.

use std::sync::Arc;

use crate::old_schema::back_to_first_schema;

use oware_core::Side;
use oware_server::hub::NewGame;
use oware_server::model::Mode;
use oware_server::store::{GameStore, Listing, SqliteStore, StoreError};
use oware_server::{Config, Hub};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_older_database_is_migrated_and_keeps_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite3");
    let id = {
        let hub = Hub::new(
            Arc::new(SqliteStore::open(&path).unwrap()),
            Config::default(),
        );
        let seated = hub
            .create(
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
                },
                None,
            )
            .await
            .unwrap();
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
