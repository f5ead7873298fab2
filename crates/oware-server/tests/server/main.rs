//! The server's integration tests in one binary, each file a module, so the
//! server is linked once for all of them (a binary per file took most of
//! the test run's build time). `trust.rs` stays apart: its flood test
//! measures reply times and must not share the machine with these.

mod common;

mod abuse;
mod accounts;
mod api;
mod challenges;
mod chat;
mod coach;
mod commit;
mod community;
mod correspondence;
mod differential;
mod game_search;
mod lesson_routes;
mod limits;
mod lobby;
mod mail;
mod mistakes;
mod notifications;
mod offline_games;
mod old_schema;
mod play_together;
mod puzzles;
mod pwa;
mod requests;
mod store;
mod store_contract;
mod tablebases;
mod tournaments;
mod vocabulary;
mod wasm;
mod watch;
mod web_levels;
