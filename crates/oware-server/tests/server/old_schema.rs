//! An old database, made from a new one (SQLite).

/// Takes a SQLite database back to the first version's schema (no
/// `public` column, no accounts, chat, deadlines, puzzles; version 1), as an
/// old program left it: its games stay. Each new migration adds its undoing
/// here.
pub fn back_to_first_schema(conn: &rusqlite::Connection) {
    conn.execute_batch(
        "DROP TABLE mail_outbox; DROP TABLE mail_tokens; DROP TABLE mail_addresses;
         DROP TABLE challenges; DROP TABLE notifications;
         DROP TABLE tournament_games; DROP TABLE tournament_players; DROP TABLE tournaments;
         DROP TABLE follows; DROP TABLE blocks; DROP TABLE reports; DROP TABLE closed_accounts;
         DROP INDEX games_seen; ALTER TABLE games DROP COLUMN seen_at;
         DROP TABLE puzzle_attempts; DROP TABLE puzzle_players; DROP TABLE puzzle_ratings;
         DROP TABLE released_names;
         DROP TABLE game_state;
         DROP INDEX games_public; ALTER TABLE games DROP COLUMN public;
         DROP TABLE account_games; DROP TABLE rating_history; DROP TABLE ratings;
         DROP TABLE sessions; DROP TABLE accounts; DROP TABLE chat;
         PRAGMA user_version = 1;",
    )
    .unwrap();
}
