//! The PostgreSQL schema, one step per version (the table `oware_schema`).

/// The schema, one step per version; steps are only ever appended.
pub(super) const MIGRATIONS: &[&str] = &[
    "
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    status TEXT NOT NULL,
    lobby BOOLEAN NOT NULL,
    public BOOLEAN NOT NULL,
    meta TEXT NOT NULL,
    version BIGINT NOT NULL DEFAULT 0,
    clock_due BIGINT,
    due_at BIGINT,
    due_claim BIGINT
);
CREATE INDEX games_updated ON games(updated_at);
CREATE INDEX games_lobby ON games(lobby, created_at);
CREATE INDEX games_public ON games(public, status, created_at);
CREATE INDEX games_due ON games(due_at) WHERE due_at IS NOT NULL;
CREATE TABLE plies (
    game_id TEXT NOT NULL,
    ply INTEGER NOT NULL,
    mv TEXT NOT NULL,
    clock_s BIGINT,
    clock_n BIGINT,
    at BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    username TEXT NOT NULL,
    username_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE TABLE sessions (
    token_hash BYTEA PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    csrf TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX sessions_account ON sessions(account_id);
CREATE TABLE ratings (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    class TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    PRIMARY KEY (account_id, class)
);
CREATE INDEX ratings_board ON ratings(class, rating);
CREATE TABLE rating_history (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    class TEXT NOT NULL,
    game_id TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (account_id, game_id)
);
CREATE TABLE account_games (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    game_id TEXT NOT NULL,
    PRIMARY KEY (account_id, game_id)
);
CREATE TABLE chat (
    id BIGSERIAL PRIMARY KEY,
    game_id TEXT NOT NULL,
    room TEXT NOT NULL,
    side TEXT,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    at BIGINT NOT NULL
);
CREATE INDEX chat_game ON chat(game_id, id);
",
    "
-- A deleted account's name stays reserved for 30 days, so nobody takes it
-- over with its old chat lines and games.
CREATE TABLE released_names (
    username_key TEXT PRIMARY KEY,
    until BIGINT NOT NULL
);
CREATE FUNCTION oware_release_name() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO released_names (username_key, until)
    VALUES (OLD.username_key, (extract(epoch FROM now()) * 1000)::bigint + 2592000000)
    ON CONFLICT (username_key) DO UPDATE SET until = excluded.until;
    RETURN OLD;
END $$;
CREATE TRIGGER accounts_release AFTER DELETE ON accounts
    FOR EACH ROW EXECUTE FUNCTION oware_release_name();
CREATE FUNCTION oware_reserved_name() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM released_names
               WHERE username_key = NEW.username_key AND until > NEW.created_at) THEN
        RAISE EXCEPTION 'this name belonged to a deleted account'
            USING ERRCODE = 'unique_violation';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER accounts_reserved BEFORE INSERT ON accounts
    FOR EACH ROW EXECUTE FUNCTION oware_reserved_name();
",
    // 3: seat tokens and invite codes hashed at rest; the rows are
    // rewritten in Rust (`rehash_secrets`).
    "SELECT 1",
    // 4: the rate limits every node shares.
    crate::store::limits::PG_MIGRATION,
    // 5: puzzle ratings (accounts' and puzzles') and attempts.
    "
CREATE TABLE puzzle_ratings (
    puzzle_id BIGINT PRIMARY KEY,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    attempts BIGINT NOT NULL
);
CREATE TABLE puzzle_players (
    account_id TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    attempts BIGINT NOT NULL
);
CREATE TABLE puzzle_attempts (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    puzzle_id BIGINT NOT NULL,
    solved BOOLEAN NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (account_id, puzzle_id)
);
",
    // 6: when a seek's creator was last seen connected.
    "
ALTER TABLE games ADD COLUMN seen_at BIGINT;
UPDATE games SET seen_at = updated_at WHERE lobby;
CREATE INDEX games_seen ON games(seen_at) WHERE lobby;
",
    // 7: follows, blocks, reports and accounts closed by an operator.
    "
CREATE TABLE follows (
    follower TEXT NOT NULL,
    followed TEXT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (follower, followed)
);
CREATE INDEX follows_followed ON follows(followed);
CREATE TABLE blocks (
    blocker TEXT NOT NULL,
    blocked TEXT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (blocker, blocked)
);
CREATE INDEX blocks_blocked ON blocks(blocked);
CREATE TABLE reports (
    id TEXT PRIMARY KEY,
    reporter TEXT NOT NULL,
    reported TEXT NOT NULL,
    reported_name TEXT NOT NULL,
    game_id TEXT,
    reason TEXT NOT NULL,
    details TEXT NOT NULL,
    at BIGINT NOT NULL,
    closed_at BIGINT,
    resolution TEXT
);
CREATE INDEX reports_open ON reports(closed_at, at);
CREATE INDEX reports_reporter ON reports(reporter, at);
CREATE TABLE closed_accounts (
    account_id TEXT PRIMARY KEY,
    reason TEXT NOT NULL,
    at BIGINT NOT NULL
);
",
    // 8: tournaments, their entrants and pairings.
    "
CREATE TABLE tournaments (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    creator TEXT,
    time_control TEXT NOT NULL,
    rated BOOLEAN NOT NULL,
    status TEXT NOT NULL,
    starts_at BIGINT NOT NULL,
    ends_at BIGINT,
    rounds BIGINT NOT NULL,
    round BIGINT NOT NULL,
    next_at BIGINT,
    version BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    schedule_key TEXT UNIQUE,
    claim BIGINT
);
CREATE INDEX tournaments_status ON tournaments(status, starts_at);
CREATE TABLE tournament_players (
    tournament_id TEXT NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    idx BIGINT NOT NULL,
    account_id TEXT NOT NULL,
    username TEXT NOT NULL,
    rating BIGINT NOT NULL,
    state TEXT NOT NULL,
    joined_at BIGINT NOT NULL,
    seen_at BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, idx),
    UNIQUE (tournament_id, account_id)
);
CREATE INDEX tournament_players_account ON tournament_players(account_id);
CREATE TABLE tournament_games (
    tournament_id TEXT NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    game_id TEXT NOT NULL,
    round BIGINT NOT NULL,
    south BIGINT NOT NULL,
    north BIGINT,
    outcome TEXT,
    at BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, game_id)
);
",
    // 9: a chat message's writer's account, so a block hides it.
    "ALTER TABLE chat ADD COLUMN account TEXT;",
    // 10: a deleted account's name is reserved by the store's shared code,
    // on the server's clock (`store/accounts.rs`), not by triggers.
    "
DROP TRIGGER accounts_release ON accounts;
DROP TRIGGER accounts_reserved ON accounts;
DROP FUNCTION oware_release_name();
DROP FUNCTION oware_reserved_name();
",
    // 11: an account's notifications and challenges
    // (`store/notifications.rs`, `store/challenges.rs`).
    "
CREATE TABLE notifications (
    seq BIGSERIAL PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    at BIGINT NOT NULL,
    is_read BOOLEAN NOT NULL,
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
    rated BOOLEAN NOT NULL,
    side TEXT,
    status TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    game_id TEXT
);
CREATE INDEX challenges_from ON challenges(from_account, status);
CREATE INDEX challenges_to ON challenges(to_account, status);
",
    // 12: e-mail: an account's address, the links' tokens (hashed),
    // the outbox (`store/mail.rs`).
    "
CREATE TABLE mail_addresses (
    account_id TEXT PRIMARY KEY,
    address TEXT NOT NULL,
    address_key TEXT NOT NULL,
    lang TEXT NOT NULL,
    verified BOOLEAN NOT NULL,
    subscribed BOOLEAN NOT NULL
);
CREATE INDEX mail_addresses_key ON mail_addresses(address_key);
CREATE TABLE mail_tokens (
    token_hash BYTEA PRIMARY KEY,
    kind TEXT NOT NULL,
    account_id TEXT NOT NULL,
    address_key TEXT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at BIGINT
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
    created_at BIGINT NOT NULL,
    due_at BIGINT NOT NULL,
    attempts BIGINT NOT NULL,
    status TEXT NOT NULL,
    claim BIGINT,
    done_at BIGINT
);
CREATE INDEX mail_outbox_due ON mail_outbox(status, due_at);
CREATE INDEX mail_outbox_account ON mail_outbox(account_id, kind);
CREATE INDEX mail_outbox_address ON mail_outbox(address_key, kind);
",
];
