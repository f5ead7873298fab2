//! The SQLite schema, one step per version (SQLite's `user_version`).

/// The schema, one step per version: a database at version `v` (SQLite's
/// `user_version`) gets steps `v..` applied in one transaction each. Steps
/// are only ever appended.
pub(super) const MIGRATIONS: &[&str] = &[
    // 1: games and their plies.
    "
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    status TEXT NOT NULL,
    lobby INTEGER NOT NULL,
    meta TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_updated ON games(updated_at);
CREATE INDEX IF NOT EXISTS games_lobby ON games(lobby, created_at);
CREATE TABLE IF NOT EXISTS plies (
    game_id TEXT NOT NULL,
    ply INTEGER NOT NULL,
    mv TEXT NOT NULL,
    clock_s INTEGER,
    clock_n INTEGER,
    at INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
",
    // 2: whether a game may be listed publicly, as a column.
    "
ALTER TABLE games ADD COLUMN public INTEGER NOT NULL DEFAULT 0;
UPDATE games SET public = coalesce(json_extract(meta, '$.public'), 0);
CREATE INDEX games_public ON games(public, status, created_at);
",
    // 3: accounts, sessions, ratings.
    "
CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    username TEXT NOT NULL,
    username_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE TABLE sessions (
    token_hash BLOB PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    csrf TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX sessions_account ON sessions(account_id);
CREATE TABLE ratings (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    class TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (account_id, class)
) WITHOUT ROWID;
CREATE INDEX ratings_board ON ratings(class, rating);
CREATE TABLE rating_history (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    class TEXT NOT NULL,
    game_id TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (account_id, game_id)
) WITHOUT ROWID;
CREATE TABLE account_games (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    game_id TEXT NOT NULL,
    PRIMARY KEY (account_id, game_id)
) WITHOUT ROWID;
",
    // 4: chat messages, kept with their game.
    "
CREATE TABLE chat (
    id INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL,
    room TEXT NOT NULL,
    side TEXT,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    at INTEGER NOT NULL
);
CREATE INDEX chat_game ON chat(game_id, id);
",
    // 5: each game's version (changes stored) and deadlines.
    "
ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN clock_due INTEGER;
ALTER TABLE games ADD COLUMN due_at INTEGER;
ALTER TABLE games ADD COLUMN due_claim INTEGER;
CREATE INDEX games_due ON games(due_at) WHERE due_at IS NOT NULL;
",
    // 6: a deleted account's name stays reserved for 30 days, so nobody
    // takes it over with its old chat lines and games.
    "
CREATE TABLE released_names (
    username_key TEXT PRIMARY KEY,
    until INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TRIGGER accounts_release AFTER DELETE ON accounts BEGIN
    INSERT INTO released_names (username_key, until)
    VALUES (OLD.username_key, CAST(strftime('%s', 'now') AS INTEGER) * 1000 + 2592000000)
    ON CONFLICT (username_key) DO UPDATE SET until = excluded.until;
END;
CREATE TRIGGER accounts_reserved BEFORE INSERT ON accounts
WHEN EXISTS (SELECT 1 FROM released_names
             WHERE username_key = NEW.username_key AND until > NEW.created_at)
BEGIN
    SELECT RAISE(ABORT, 'this name belonged to a deleted account');
END;
",
    // 7: seat tokens and invite codes hashed at rest; the rows are
    // rewritten in Rust (`rehash_secrets`).
    "-- no schema change",
    // 8: a game's version and deadlines in a small row of their own: every
    // move changes them, and rewriting the games row (its metadata spans
    // several 512-byte pages) with each move doubled the commit's pages.
    "
CREATE TABLE game_state (
    id TEXT PRIMARY KEY,
    version INTEGER NOT NULL DEFAULT 0,
    clock_due INTEGER,
    due_at INTEGER,
    due_claim INTEGER
) WITHOUT ROWID;
INSERT INTO game_state (id, version, clock_due, due_at, due_claim)
    SELECT id, version, clock_due, due_at, due_claim FROM games;
CREATE INDEX game_state_due ON game_state(due_at) WHERE due_at IS NOT NULL;
DROP INDEX games_due;
ALTER TABLE games DROP COLUMN version;
ALTER TABLE games DROP COLUMN clock_due;
ALTER TABLE games DROP COLUMN due_at;
ALTER TABLE games DROP COLUMN due_claim;
",
    // 9: puzzle ratings (accounts' and puzzles') and attempts.
    "
CREATE TABLE puzzle_ratings (
    puzzle_id INTEGER PRIMARY KEY,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    attempts INTEGER NOT NULL
);
CREATE TABLE puzzle_players (
    account_id TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    attempts INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE puzzle_attempts (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    puzzle_id INTEGER NOT NULL,
    solved INTEGER NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (account_id, puzzle_id)
) WITHOUT ROWID;
CREATE TRIGGER accounts_puzzles AFTER DELETE ON accounts BEGIN
    DELETE FROM puzzle_players WHERE account_id = OLD.id;
    DELETE FROM puzzle_attempts WHERE account_id = OLD.id;
END;
",
    // 10: when a seek's creator was last seen connected.
    "
ALTER TABLE games ADD COLUMN seen_at INTEGER;
UPDATE games SET seen_at = updated_at WHERE lobby = 1;
CREATE INDEX games_seen ON games(seen_at) WHERE lobby = 1;
",
    // 11: follows, blocks, reports and accounts closed by an operator.
    "
CREATE TABLE follows (
    follower TEXT NOT NULL,
    followed TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (follower, followed)
) WITHOUT ROWID;
CREATE INDEX follows_followed ON follows(followed);
CREATE TABLE blocks (
    blocker TEXT NOT NULL,
    blocked TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (blocker, blocked)
) WITHOUT ROWID;
CREATE INDEX blocks_blocked ON blocks(blocked);
CREATE TABLE reports (
    id TEXT PRIMARY KEY,
    reporter TEXT NOT NULL,
    reported TEXT NOT NULL,
    reported_name TEXT NOT NULL,
    game_id TEXT,
    reason TEXT NOT NULL,
    details TEXT NOT NULL,
    at INTEGER NOT NULL,
    closed_at INTEGER,
    resolution TEXT
);
CREATE INDEX reports_open ON reports(closed_at, at);
CREATE INDEX reports_reporter ON reports(reporter, at);
CREATE TABLE closed_accounts (
    account_id TEXT PRIMARY KEY,
    reason TEXT NOT NULL,
    at INTEGER NOT NULL
);
",
    // 12: tournaments, their entrants and pairings.
    "
CREATE TABLE tournaments (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    creator TEXT,
    time_control TEXT NOT NULL,
    rated INTEGER NOT NULL,
    status TEXT NOT NULL,
    starts_at INTEGER NOT NULL,
    ends_at INTEGER,
    rounds INTEGER NOT NULL,
    round INTEGER NOT NULL,
    next_at INTEGER,
    version INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    schedule_key TEXT UNIQUE,
    claim INTEGER
);
CREATE INDEX tournaments_status ON tournaments(status, starts_at);
CREATE TABLE tournament_players (
    tournament_id TEXT NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    account_id TEXT NOT NULL,
    username TEXT NOT NULL,
    rating INTEGER NOT NULL,
    state TEXT NOT NULL,
    joined_at INTEGER NOT NULL,
    seen_at INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, idx),
    UNIQUE (tournament_id, account_id)
) WITHOUT ROWID;
CREATE INDEX tournament_players_account ON tournament_players(account_id);
CREATE TABLE tournament_games (
    tournament_id TEXT NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    game_id TEXT NOT NULL,
    round INTEGER NOT NULL,
    south INTEGER NOT NULL,
    north INTEGER,
    outcome TEXT,
    at INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, game_id)
) WITHOUT ROWID;
",
    // 13: a chat message's writer's account, so a block hides it.
    "ALTER TABLE chat ADD COLUMN account TEXT;",
    // 14: what a deleted account leaves, and its name's reservation on the
    // server's clock, are the shared code's (`store/accounts.rs`), not
    // triggers'.
    "
DROP TRIGGER accounts_release;
DROP TRIGGER accounts_reserved;
DROP TRIGGER accounts_puzzles;
",
    // 15: an account's notifications and challenges
    // (`store/notifications.rs`, `store/challenges.rs`).
    "
CREATE TABLE notifications (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    at INTEGER NOT NULL,
    is_read INTEGER NOT NULL,
    game_id TEXT,
    from_name TEXT,
    from_account TEXT,
    tournament_id TEXT,
    detail TEXT,
    challenge_id TEXT
);
CREATE INDEX notifications_account ON notifications(account_id, seq);
CREATE TABLE challenges (
    id TEXT PRIMARY KEY,
    from_account TEXT NOT NULL,
    from_name TEXT NOT NULL,
    to_account TEXT NOT NULL,
    to_name TEXT NOT NULL,
    time_control TEXT,
    rated INTEGER NOT NULL,
    side TEXT,
    status TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    game_id TEXT
);
CREATE INDEX challenges_from ON challenges(from_account, status);
CREATE INDEX challenges_to ON challenges(to_account, status);
",
    // 16: e-mail: an account's address, the links' tokens (hashed),
    // the outbox (`store/mail.rs`).
    "
CREATE TABLE mail_addresses (
    account_id TEXT PRIMARY KEY,
    address TEXT NOT NULL,
    address_key TEXT NOT NULL,
    lang TEXT NOT NULL,
    verified INTEGER NOT NULL,
    subscribed INTEGER NOT NULL
);
CREATE INDEX mail_addresses_key ON mail_addresses(address_key);
CREATE TABLE mail_tokens (
    token_hash BLOB PRIMARY KEY,
    kind TEXT NOT NULL,
    account_id TEXT NOT NULL,
    address_key TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at INTEGER
);
CREATE INDEX mail_tokens_account ON mail_tokens(account_id);
CREATE TABLE mail_outbox (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    address TEXT NOT NULL,
    address_key TEXT NOT NULL,
    kind TEXT NOT NULL,
    lang TEXT NOT NULL,
    game_id TEXT,
    tournament_id TEXT,
    detail TEXT,
    created_at INTEGER NOT NULL,
    due_at INTEGER NOT NULL,
    attempts INTEGER NOT NULL,
    status TEXT NOT NULL,
    claim INTEGER,
    done_at INTEGER
);
CREATE INDEX mail_outbox_due ON mail_outbox(status, due_at);
CREATE INDEX mail_outbox_account ON mail_outbox(account_id, kind);
CREATE INDEX mail_outbox_address ON mail_outbox(address_key, kind);
",
];
