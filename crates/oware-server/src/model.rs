//! What the server keeps about a game besides its moves (persisted as JSON
//! in the store), and the small values both the store and the wire use.

pub mod account;
pub mod challenge;
pub mod chat;
pub mod game;
pub mod notification;
pub mod ratings;
pub mod tournament;

use oware_core::{Move, Outcome, Position, Side};

use serde::{Deserialize, Serialize};

/// How a game is played.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// One person against the engine.
    Computer,
    /// Two people on one device.
    Hotseat,
    /// Two people, each with a seat token, over the network.
    Online,
}

impl Mode {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Computer => "computer",
            Mode::Hotseat => "hotseat",
            Mode::Online => "online",
        }
    }
}

/// Where a game stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameStatus {
    /// An online game with a free seat.
    Waiting,
    /// Both seats taken, not over.
    Playing,
    /// Ended.
    Over,
    /// A seek withdrawn before anyone took it: cancelled by its creator,
    /// left by them, or not taken in time. Listed nowhere.
    Cancelled,
}

impl GameStatus {
    /// The status as sent and stored.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameStatus::Waiting => "waiting",
            GameStatus::Playing => "playing",
            GameStatus::Over => "over",
            GameStatus::Cancelled => "cancelled",
        }
    }
}

/// What a player does about ending the game by agreement (R12).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OfferAction {
    /// Offers to stop and share the seeds on the board.
    Offer,
    /// Accepts the opponent's offer.
    Accept,
    /// Declines it.
    Decline,
}

impl std::str::FromStr for OfferAction {
    type Err = ();

    fn from_str(s: &str) -> Result<OfferAction, ()> {
        match s {
            "offer" => Ok(OfferAction::Offer),
            "accept" => Ok(OfferAction::Accept),
            "decline" => Ok(OfferAction::Decline),
            _ => Err(()),
        }
    }
}

pub use oware_session::wire::{parse_ply, PlyText};

fn random_string(len: usize, alphabet: &[u8]) -> String {
    use rand::Rng;
    let mut rng = rand::rng();
    (0..len)
        .map(|_| alphabet[rng.random_range(0..alphabet.len())] as char)
        .collect()
}

/// A new game id: 10 characters, no look-alikes.
pub fn new_id() -> String {
    random_string(10, b"abcdefghijkmnopqrstuvwxyz23456789")
}

/// A new seat token or invite code: 128 random bits in hex.
pub fn new_token() -> String {
    random_string(32, b"0123456789abcdef")
}

/// A secret handed out once: a seat token or an invite code. Its holder
/// gets `plain`; the store keeps only `hash`, so a copy of the database
/// plays no move and joins no game (`tests/trust.rs`:
/// `finding_6_secrets_are_hashed_at_rest`).
#[derive(Clone, Debug)]
pub struct Secret {
    /// What the holder is given, once.
    pub plain: String,
    /// What is stored: [`secret_hash`] of `plain`.
    pub hash: String,
}

impl Secret {
    /// A fresh secret.
    pub fn new() -> Secret {
        let plain = new_token();
        Secret {
            hash: secret_hash(&plain),
            plain,
        }
    }
}

impl Default for Secret {
    fn default() -> Secret {
        Secret::new()
    }
}

/// The stored form of a seat token or invite code: SHA-256 in hex (64
/// characters; the plain secrets are 32).
pub fn secret_hash(plain: &str) -> String {
    use sha2::{Digest, Sha256};
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let digest = Sha256::digest(plain.as_bytes());
    let mut out = String::with_capacity(2 * digest.len());
    for b in digest {
        out.push(HEX[usize::from(b >> 4)] as char);
        out.push(HEX[usize::from(b & 15)] as char);
    }
    out
}

/// A stored secret as it is now: hashed. Versions before 0.6 kept seat
/// tokens and invite codes in plain text (32 hex digits); those are hashed
/// as they are read, and rewritten by the store's migration.
fn upgrade_secret(stored: &mut String) -> bool {
    if stored.len() == 32 {
        *stored = secret_hash(stored);
        true
    } else {
        false
    }
}

/// A time control (R13).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TimeControl {
    /// Each move within a fixed time, or the turn is lost (R13).
    PerMove {
        /// The limit for one move.
        per_move_ms: u64,
    },
    /// A clock with an increment: running out of time loses the game.
    Clock {
        /// Time on each clock at the start.
        initial_ms: u64,
        /// Time added after each move.
        increment_ms: u64,
    },
    /// Correspondence: days for each move, the time refilled after every
    /// move; running out loses the game.
    Correspondence {
        /// Days for one move: 1, 3, 7 or 14.
        days_per_move: u32,
    },
}

impl TimeControl {
    /// The days per move a correspondence game may have.
    pub const CORRESPONDENCE_DAYS: [u32; 4] = [1, 3, 7, 14];
}

/// Who sits in a seat.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeatKind {
    /// A person.
    Human,
    /// The engine.
    Computer,
}

/// One seat of a game, with its secret token once taken.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Seat {
    /// Human or computer.
    pub kind: SeatKind,
    /// Display name.
    pub name: String,
    /// The hash of the seat's token ([`secret_hash`]); `None` while the
    /// seat is free.
    #[serde(rename = "token_hash", alias = "token")]
    pub token_hash: Option<String>,
    /// Hashes of further tokens for the same seat, minted for its account
    /// on other devices (`POST /games/{id}/seat`), oldest first, at most
    /// [`Seat::DEVICES`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub devices: Vec<String>,
    /// The account of the player who took it signed in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account: Option<String>,
    /// Their rating in the game's class when they sat down (rated games).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<SeatRating>,
}

impl Seat {
    /// The most device tokens a seat keeps besides its first.
    pub const DEVICES: usize = 4;

    /// A person's seat with a fresh token (returned for its holder).
    pub fn human(name: String) -> (Seat, Secret) {
        let token = Secret::new();
        let seat = Seat {
            kind: SeatKind::Human,
            name,
            token_hash: Some(token.hash.clone()),
            devices: Vec::new(),
            account: None,
            rating: None,
        };
        (seat, token)
    }

    /// Mints one more token for this taken seat (another device of its
    /// account); the oldest device token goes when there are too many.
    pub fn add_device(&mut self) -> Secret {
        let token = Secret::new();
        if self.devices.len() >= Seat::DEVICES {
            self.devices.remove(0);
        }
        self.devices.push(token.hash.clone());
        token
    }
}

/// The ratings a seek accepts, inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingRange {
    /// Lowest rating (0 when not given: no lower bound).
    #[serde(default)]
    pub min: i32,
    /// Highest rating (4000 when not given: no upper bound).
    #[serde(default = "RatingRange::top")]
    pub max: i32,
}

impl RatingRange {
    /// The top of the scale.
    pub const fn top() -> i32 {
        4000
    }
}

/// A rating as shown beside a name.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatRating {
    /// Rounded rating.
    pub rating: i32,
    /// Still uncertain (shown with a `?`).
    pub provisional: bool,
}

/// Everything about a game except its plies: the `meta` JSON column.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameMeta {
    /// Game id.
    pub id: String,
    /// How it is played.
    pub mode: Mode,
    /// Engine level in computer games.
    pub level: Option<u8>,
    /// Listed in the lobby while waiting for an opponent.
    pub public: bool,
    /// Rated: an online game between two accounts whose result moves
    /// their ratings.
    #[serde(default)]
    pub rated: bool,
    /// A rated game that ended before each side had made a move: aborted,
    /// so it counts for no rating (`rated` is then false).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub aborted: bool,
    /// A seek withdrawn before anyone took it ([`GameStatus::Cancelled`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cancelled: bool,
    /// Only players rated within this range may join (a seek's range).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating_range: Option<RatingRange>,
    /// Kept to signed-in accounts: only an account joins it, and only
    /// accounts write in (and read) its spectators' room, so a player's
    /// blocks cannot be got round by signing out.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub accounts_only: bool,
    /// Creation time, ms since the Unix epoch.
    pub created_at: i64,
    /// Last change, ms since the Unix epoch.
    pub updated_at: i64,
    /// The start position.
    pub start: Position,
    /// South's and North's seats.
    pub seats: [Seat; 2],
    /// The hash of the invite code that lets a second player join a
    /// private online game ([`secret_hash`]).
    #[serde(rename = "invite_hash", alias = "invite")]
    pub invite_hash: String,
    /// Time control, if any.
    pub time_control: Option<TimeControl>,
    /// The outcome once the game is over (also when it came from the board).
    #[serde(default, with = "outcome_serde")]
    pub result: Option<Outcome>,
    /// The side that offered to stop by agreement, if an offer stands.
    pub offer: Option<Side>,
    /// The side that asked to take its last move back (online), if the
    /// request stands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub takeback: Option<Side>,
    /// Id of the rematch game, once created.
    pub rematch: Option<String>,
    /// The tournament this game was paired in, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<String>,
    /// That tournament's kind (games paired before it was kept: `None`,
    /// taken as a Swiss).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament_kind: Option<TournamentKind>,
    /// The player's browser plays the computer's moves (an untimed
    /// computer game; docs/WEB.md, "Which engine answers"): the server
    /// starts no search for them. Stored with the game, so the choice
    /// outlives a restart (and other nodes read it); older rows, without
    /// it, read as the server's engine.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub browser_engine: bool,
    /// Played offline on a device and uploaded (`offline_routes.rs`): the
    /// server replayed its moves but saw none of them played, so it is
    /// shown as played offline and not verified, and kept private.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub offline: bool,
    /// Replies a correspondence player prepared while the opponent is to
    /// move (conditional moves): never sent to anyone but that player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conditional: Option<Conditional>,
    /// Number of plies (kept here for listings).
    pub ply: u32,
    /// Stores (kept here for listings).
    pub score: [u8; 2],
}

mod outcome_serde {
    use oware_core::{EndReason, Outcome, Side};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    struct Wire {
        reason: String,
        totals: [u8; 2],
        winner: Option<Side>,
    }

    pub fn serialize<S: Serializer>(o: &Option<Outcome>, s: S) -> Result<S::Ok, S::Error> {
        o.map(|o| Wire {
            reason: o.reason.as_str().to_string(),
            totals: o.totals,
            winner: o.winner,
        })
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Outcome>, D::Error> {
        let w: Option<Wire> = Option::deserialize(d)?;
        match w {
            None => Ok(None),
            Some(w) => {
                let reason = EndReason::from_str_id(&w.reason).ok_or_else(|| {
                    serde::de::Error::custom(format!("unknown end reason {:?}", w.reason))
                })?;
                Ok(Some(Outcome {
                    reason,
                    totals: w.totals,
                    winner: w.winner,
                }))
            }
        }
    }
}

/// Conditional moves: for each move the opponent may play at ply `ply`,
/// the reply `side` has prepared, played the moment that move comes.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Conditional {
    /// Who prepared them.
    pub side: Side,
    /// The ply the opponent's move is expected at.
    pub ply: u32,
    /// (the opponent's move, the reply).
    pub replies: Vec<(Move, Move)>,
}

impl GameMeta {
    /// A new game's metadata: a fresh id and invite code (its plain text
    /// returned beside it, for the creator), created at `now` (ms since the
    /// Unix epoch), no moves, no result.
    pub fn new(
        mode: Mode,
        level: Option<u8>,
        public: bool,
        start: Position,
        seats: [Seat; 2],
        time_control: Option<TimeControl>,
        now: i64,
    ) -> (GameMeta, Secret) {
        let invite = Secret::new();
        let meta = GameMeta {
            id: new_id(),
            mode,
            level,
            public,
            rated: false,
            aborted: false,
            cancelled: false,
            rating_range: None,
            accounts_only: false,
            created_at: now,
            updated_at: now,
            start,
            seats,
            invite_hash: invite.hash.clone(),
            time_control,
            result: None,
            offer: None,
            takeback: None,
            rematch: None,
            tournament: None,
            tournament_kind: None,
            browser_engine: false,
            offline: false,
            conditional: None,
            ply: 0,
            score: stores(&start),
        };
        (meta, invite)
    }

    /// Hashes the secrets an older version stored in plain text; true if
    /// any was.
    pub fn upgrade_secrets(&mut self) -> bool {
        let mut changed = upgrade_secret(&mut self.invite_hash);
        for seat in &mut self.seats {
            if let Some(t) = seat.token_hash.as_mut() {
                changed |= upgrade_secret(t);
            }
        }
        changed
    }

    /// Whether `invite` is this game's invite code.
    pub fn invite_is(&self, invite: Option<&str>) -> bool {
        invite.is_some_and(|i| secret_hash(i) == self.invite_hash)
    }

    /// Waiting for a second player, playing, or over.
    pub fn status(&self) -> GameStatus {
        if self.result.is_some() {
            GameStatus::Over
        } else if self.cancelled {
            GameStatus::Cancelled
        } else if self
            .seats
            .iter()
            .any(|s| s.token_hash.is_none() && s.kind == SeatKind::Human)
        {
            GameStatus::Waiting
        } else {
            GameStatus::Playing
        }
    }

    /// The seat a token holds, if any.
    pub fn side_of(&self, token: &str) -> Option<Side> {
        let hash = secret_hash(token);
        Side::ALL.into_iter().find(|s| {
            let seat = &self.seats[s.index()];
            seat.token_hash.as_ref() == Some(&hash) || seat.devices.contains(&hash)
        })
    }
}

pub use oware_session::wire::stores;

/// Milliseconds since the epoch as an RFC 3339 UTC string.
pub fn rfc3339(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// The date part, `YYYY.MM.DD`, as OGN wants it.
pub fn ogn_date(ms: i64) -> String {
    let (y, m, d) = civil_from_days(ms.div_euclid(1000).div_euclid(86_400));
    format!("{y:04}.{m:02}.{d:02}")
}

// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printable_text_has_no_control_characters() {
        assert_eq!(printable("Ama played f"), "Ama played f");
        assert_eq!(
            printable("a\x1b[2K\r\nb\u{9b}\u{7f}\u{202e}\\\t\x07"),
            "a\\u{1b}[2K\\r\\nb\\u{9b}\\u{7f}\\u{202e}\\\\\\t\\u{7}"
        );
        assert_eq!(printable("é ✓ 日本"), "é ✓ 日本");
    }

    #[test]
    fn dates() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(1_795_000_000_000), "2026-11-18T11:06:40Z");
        assert_eq!(ogn_date(951_782_400_000), "2000.02.29");
    }
}

/// Characters that change how the text around them is shown without being
/// seen themselves: direction overrides and isolates (which can make a
/// name read backwards), zero-width and other invisible format characters.
pub fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}'
        | '\u{FFA0}' | '\u{FFF0}'..='\u{FFFB}' | '\u{E0000}'..='\u{E0FFF}')
}

/// Text someone else wrote, made safe to print on a terminal or in a log
/// line: every control character (C0, DEL and C1: escape sequences, carriage
/// returns, line feeds, bells…) and every invisible or direction-changing
/// character ([`is_invisible`]) is written as a Rust escape (`\u{1b}`,
/// `\n`, `\t`, `\r`), and a backslash as `\\`, so nothing in it can move
/// the cursor, retitle the terminal or start a line that looks like the
/// program's own. The one function for this: `oware admin` prints user text
/// through it, and the server's logs too.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    let escape = |c: char| c == '\\' || c.is_control() || is_invisible(c);
    if !text.chars().any(escape) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if escape(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Arena or Swiss.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TournamentKind {
    /// For a fixed time, paired again as soon as a game ends.
    Arena,
    /// A fixed number of rounds, each paired by the Dutch system.
    Swiss,
}

impl TournamentKind {
    /// As stored.
    pub fn as_str(self) -> &'static str {
        match self {
            TournamentKind::Arena => "arena",
            TournamentKind::Swiss => "swiss",
        }
    }

    /// From the stored text.
    pub fn parse(s: &str) -> Option<TournamentKind> {
        match s {
            "arena" => Some(TournamentKind::Arena),
            "swiss" => Some(TournamentKind::Swiss),
            _ => None,
        }
    }
}
