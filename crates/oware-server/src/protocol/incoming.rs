//! What clients send, parsed once into typed values: the WebSocket's
//! [`ClientIn`] messages and the HTTP request bodies and queries. Anything
//! that does not parse is refused here with its code; past this module the
//! server sees only moves, sides, actions and limits, never raw text.

use crate::error::Reason;
use std::time::Duration;

use oware_core::{Game, Move, Position, Side};
use oware_engine::Limits;
use oware_session::Lang;
use serde::Deserialize;

use crate::error::ApiError;
use crate::model::{Mode, OfferAction, RatingRange, TimeControl};

/// Largest WebSocket message handled; larger ones get a `too_large` error.
pub const MESSAGE_LIMIT: usize = 4 * 1024;

/// A message on a game's WebSocket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientIn {
    /// The client has seen `since` plies: send what it missed.
    Hello {
        /// Plies seen.
        since: u32,
    },
    /// Play `mv` when `ply` plies have been played.
    Move {
        /// The move.
        mv: Move,
        /// Plies already played.
        ply: u32,
    },
    /// Resign.
    Resign,
    /// Withdraw a seek nobody has taken yet.
    Cancel,
    /// Call off a game before each side has moved.
    Abort,
    /// Ask to take one's last move back, or answer the request.
    Takeback(OfferAction),
    /// Offer, accept or decline an end by agreement.
    Agreement(OfferAction),
    /// A chat message (checked by [`crate::hub::chat::check_text`]).
    Chat(String),
    /// Keep-alive.
    Ping,
}

/// The JSON shape of a client message, before its fields are checked.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum RawIn {
    Hello {
        since: u32,
    },
    Move {
        #[serde(rename = "move")]
        mv: Option<String>,
        ply: Option<u32>,
    },
    Resign {},
    Cancel {},
    Abort {},
    Takeback {
        action: Option<String>,
    },
    Agreement {
        action: Option<String>,
    },
    Chat {
        text: String,
    },
    Ping {},
}

impl ClientIn {
    /// Parses one text message.
    pub fn parse(text: &str) -> Result<ClientIn, ApiError> {
        if text.len() > MESSAGE_LIMIT {
            return Err(ApiError::too_large(format!(
                "messages are limited to {MESSAGE_LIMIT} bytes"
            )));
        }
        let raw: RawIn = serde_json::from_str(text)
            .map_err(|e| ApiError::malformed(format!("invalid message: {e}")))?;
        Ok(match raw {
            RawIn::Hello { since } => ClientIn::Hello { since },
            RawIn::Move { mv, ply } => ClientIn::Move {
                mv: parse_move(mv.as_deref())?,
                ply: require_ply(ply)?,
            },
            RawIn::Resign {} => ClientIn::Resign,
            RawIn::Cancel {} => ClientIn::Cancel,
            RawIn::Abort {} => ClientIn::Abort,
            RawIn::Takeback { action } => ClientIn::Takeback(parse_action(action.as_deref())?),
            RawIn::Agreement { action } => ClientIn::Agreement(parse_action(action.as_deref())?),
            RawIn::Chat { text } => ClientIn::Chat(text),
            RawIn::Ping {} => ClientIn::Ping,
        })
    }

    /// Whether only a seated player may send it.
    pub fn needs_seat(&self) -> bool {
        matches!(
            self,
            ClientIn::Move { .. } | ClientIn::Resign | ClientIn::Cancel | ClientIn::Agreement(_)
        )
    }
}

fn parse_move(text: Option<&str>) -> Result<Move, ApiError> {
    let text = text.ok_or_else(|| {
        ApiError::invalid_move("move: required (a letter A-F or a-f)").with_reason(Reason::Empty)
    })?;
    text.parse().map_err(|e| ApiError::moves("move", text, &e))
}

fn require_ply(ply: Option<u32>) -> Result<u32, ApiError> {
    ply.ok_or_else(|| {
        ApiError::invalid_request("ply: the number of plies already played is required")
    })
}

fn parse_action(text: Option<&str>) -> Result<OfferAction, ApiError> {
    let text = text
        .ok_or_else(|| ApiError::invalid_request("action: required (offer, accept or decline)"))?;
    text.parse().map_err(|()| {
        ApiError::invalid_request(format!("action: {text:?} is not offer, accept or decline"))
    })
}

pub(crate) fn parse_position(text: &str) -> Result<Position, ApiError> {
    Ok(oware_session::wire::position(text)?)
}

/// `POST /api/v1/clock` (a manual clock only): `{"advance_ms": n}`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct MoveClockReq {
    /// How far to move the clock on, in ms.
    pub advance_ms: u64,
}

/// The query of the WebSocket upgrade.
#[derive(Deserialize, Debug)]
pub struct WsQuery {
    /// Seat token (spectators have none).
    pub token: Option<String>,
}

/// `GET /games/{id}/chat`.
#[derive(Deserialize, Debug)]
pub struct ChatQuery {
    /// Seat token (spectators have none).
    pub token: Option<String>,
    /// Only messages older than this one (a message's `id`).
    pub before: Option<i64>,
    /// At most this many (1..=100, 50 by default), the latest ones.
    pub limit: Option<u32>,
}

impl ChatQuery {
    /// The page asked for.
    pub fn page(&self) -> Result<crate::model::chat::ChatPage, ApiError> {
        let limit = self.limit.unwrap_or(50);
        if !(1..=100).contains(&limit) {
            return Err(ApiError::invalid_request(format!(
                "limit: {limit} is not in 1..100"
            )));
        }
        Ok(crate::model::chat::ChatPage {
            before: self.before,
            limit,
        })
    }
}

/// `POST /games`.
#[derive(Deserialize, Debug)]
pub struct CreateReq {
    mode: Option<String>,
    level: Option<i64>,
    side: Option<String>,
    name: Option<String>,
    time_control: Option<serde_json::Value>,
    position: Option<String>,
    #[serde(default)]
    public: bool,
    #[serde(default)]
    rated: bool,
    rating_range: Option<RatingRange>,
    #[serde(default)]
    accounts_only: bool,
    engine: Option<String>,
}

impl CreateReq {
    /// The game asked for.
    pub fn parse(self) -> Result<NewGame, ApiError> {
        let mode = match self.mode.as_deref() {
            Some("computer") => Mode::Computer,
            Some("hotseat") => Mode::Hotseat,
            Some("online") => Mode::Online,
            Some(other) => {
                return Err(ApiError::invalid_request(format!(
                    "mode: {other:?} is not computer, hotseat or online"
                )))
            }
            None => {
                return Err(ApiError::invalid_request(
                    "mode: required (computer, hotseat or online)",
                ))
            }
        };
        let level = match self.level {
            None => None,
            Some(l) if (1..=10).contains(&l) => Some(l as u8),
            Some(l) => {
                return Err(ApiError::invalid_request(format!(
                    "level: {l} is not in 1..10"
                )))
            }
        };
        let side = match self.side.as_deref() {
            None | Some("random" | "R") => None,
            Some("S" | "s" | "south") => Some(Side::South),
            Some("N" | "n" | "north") => Some(Side::North),
            Some(other) => {
                return Err(ApiError::invalid_request(format!(
                    "side: {other:?} is not S, N or random"
                )))
            }
        };
        let time_control = match self.time_control {
            None | Some(serde_json::Value::Null) => None,
            Some(serde_json::Value::String(s)) if s == "none" => None,
            Some(v) => Some(serde_json::from_value::<TimeControl>(v).map_err(|_| {
                ApiError::invalid_request(
                    "time_control: expected \"none\", {\"per_move_ms\"} or {\"initial_ms\", \"increment_ms\"}",
                )
            })?),
        };
        let browser_engine = parse_engine(self.engine.as_deref())?;
        if browser_engine && (mode != Mode::Computer || time_control.is_some()) {
            return Err(ApiError::invalid_request(
                "engine: the browser plays the computer's moves only in untimed computer games",
            )
            .with_reason(Reason::Engine));
        }
        Ok(NewGame {
            mode,
            level,
            browser_engine,
            side,
            name: self.name,
            time_control,
            position: self.position.as_deref().map(parse_position).transpose()?,
            public: self.public,
            rated: self.rated,
            accounts_only: self.accounts_only,
            rating_range: match self.rating_range {
                None => None,
                Some(_) if !self.rated => {
                    return Err(ApiError::invalid_request(
                        "rating_range: only rated games have one",
                    )
                    .with_reason(Reason::RatingRange));
                }
                Some(r) if r.min <= r.max && (0..=4000).contains(&r.min) && r.max <= 4000 => {
                    Some(r)
                }
                Some(_) => {
                    return Err(ApiError::invalid_request(
                        "rating_range: min <= max, both in 0..4000",
                    )
                    .with_reason(Reason::RatingRange))
                }
            },
        })
    }
}

/// `GET /games?limit&offset` or `GET /games?ids=a,b,c`.
#[derive(Deserialize, Debug)]
pub struct ListQuery {
    /// Page size (1..=100, 20 by default).
    pub limit: Option<u32>,
    /// Games to skip.
    pub offset: Option<u32>,
    /// Particular games, by id (the ones a client holds seats in).
    pub ids: Option<String>,
}

/// Most games one `?ids=` request may name.
pub const MAX_IDS: usize = 50;

impl ListQuery {
    /// The ids asked for, if any (at most [`MAX_IDS`]).
    pub fn ids(&self) -> Result<Option<Vec<String>>, ApiError> {
        let Some(ids) = &self.ids else {
            return Ok(None);
        };
        let ids: Vec<String> = ids
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        if ids.len() > MAX_IDS {
            return Err(ApiError::invalid_request(format!(
                "ids: at most {MAX_IDS} games at once"
            )));
        }
        Ok(Some(ids))
    }
}

/// `POST /games/{id}/join`.
#[derive(Deserialize, Debug)]
pub struct JoinReq {
    /// The invite code (private games).
    pub invite: Option<String>,
    /// Display name.
    pub name: Option<String>,
}

/// `POST /games/{id}/moves`.
#[derive(Deserialize, Debug)]
pub struct MoveReq {
    token: Option<String>,
    #[serde(rename = "move")]
    mv: Option<String>,
    ply: Option<u32>,
    /// The move is the computer's, found by the player's browser engine.
    #[serde(default)]
    computer: bool,
}

/// A move request, parsed.
#[derive(Debug)]
pub struct MoveBody {
    /// The seat token.
    pub token: Option<String>,
    /// The move.
    pub mv: Move,
    /// The plies already played.
    pub ply: u32,
    /// The computer's move, played by the seat holder's browser engine.
    pub computer: bool,
}

impl MoveReq {
    /// The seat token, the move, the plies already played and whose move it is.
    pub fn parse(self) -> Result<MoveBody, ApiError> {
        Ok(MoveBody {
            token: self.token,
            mv: parse_move(self.mv.as_deref())?,
            ply: require_ply(self.ply)?,
            computer: self.computer,
        })
    }
}

/// `POST /games/{id}/engine`: which engine plays the computer's moves.
#[derive(Deserialize, Debug)]
pub struct EngineReq {
    token: Option<String>,
    engine: Option<String>,
}

impl EngineReq {
    /// The seat token, and true for the browser's engine.
    pub fn parse(self) -> Result<(Option<String>, bool), ApiError> {
        match self.engine.as_deref() {
            None => Err(
                ApiError::invalid_request("engine: required (browser or server)")
                    .with_reason(Reason::Engine),
            ),
            e => Ok((self.token, parse_engine(e)?)),
        }
    }
}

/// `"browser"` (true) or `"server"` (false, the default).
fn parse_engine(text: Option<&str>) -> Result<bool, ApiError> {
    match text {
        None | Some("server") => Ok(false),
        Some("browser") => Ok(true),
        Some(other) => Err(ApiError::invalid_request(format!(
            "engine: {other:?} is not browser or server"
        ))
        .with_reason(Reason::Engine)),
    }
}

/// Requests that carry only a seat token (undo, resign, rematch).
#[derive(Deserialize, Debug)]
pub struct TokenReq {
    /// Seat token.
    pub token: Option<String>,
}

/// `POST /games/{id}/agreement`.
#[derive(Deserialize, Debug)]
pub struct AgreementReq {
    token: Option<String>,
    action: Option<String>,
}

impl AgreementReq {
    /// The seat token and the action.
    pub fn parse(self) -> Result<(Option<String>, OfferAction), ApiError> {
        Ok((self.token, parse_action(self.action.as_deref())?))
    }
}

/// `POST /games/{id}/conditional`: replies prepared in a correspondence
/// game while the opponent is to move, `{"token", "ply", "replies":
/// {"f": "A", "e": "B"}}` (the opponent's move → the reply); empty clears.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ConditionalReq {
    token: Option<String>,
    ply: u32,
    #[serde(default)]
    replies: std::collections::BTreeMap<String, String>,
}

impl ConditionalReq {
    /// The seat token, the ply and the (expected move, reply) pairs.
    #[allow(clippy::type_complexity)]
    pub fn parse(self) -> Result<(Option<String>, u32, Vec<(Move, Move)>), ApiError> {
        // One reply for each of the opponent's six houses at most.
        if self.replies.len() > 6 {
            return Err(ApiError::invalid_request("replies: at most six"));
        }
        let mut replies = Vec::new();
        for (expected, reply) in &self.replies {
            replies.push((
                parse_letter(expected, "replies")?,
                parse_letter(reply, "replies")?,
            ));
        }
        Ok((self.token, self.ply, replies))
    }
}

/// `GET /games/{id}/conditional?token=`.
#[derive(Deserialize, Debug)]
pub struct SeatQuery {
    /// Seat token.
    pub token: Option<String>,
}

/// `POST /games/{id}/hint`.
#[derive(Deserialize, Debug)]
pub struct HintReq {
    /// Seat token.
    pub token: Option<String>,
    /// Thinking time, 10..=5000 ms (500 by default).
    pub movetime_ms: Option<u64>,
}

/// `GET /games/{id}/review?movetime_ms`.
#[derive(Deserialize, Debug)]
pub struct ReviewQuery {
    /// Time per move, 10..=2000 ms (100 by default).
    pub movetime_ms: Option<u64>,
    /// A seat token (needed for a computer or hot-seat game not over yet).
    pub token: Option<String>,
}

/// `POST /games/import` with a JSON body.
#[derive(Deserialize, Debug)]
pub struct ImportReq {
    /// The OGN text.
    pub ogn: String,
}

/// A position and a move list played from it (`/rules/state`, `/analyze`).
#[derive(Deserialize, Debug)]
pub struct GameReq {
    position: Option<String>,
    moves: Option<String>,
}

impl GameReq {
    /// The game: the start position (the standard start when absent) and
    /// the moves played from it with the full rules.
    pub fn parse(&self) -> Result<Game, ApiError> {
        let start = match self.position.as_deref() {
            None => Position::start(),
            Some(p) => parse_position(p)?,
        };
        // Moves, and `-` for a turn lost to the per-move limit (R13).
        let plies = match self.moves.as_deref() {
            None => Vec::new(),
            Some(m) => oware_core::parse_plies(m).map_err(|e| ApiError::moves("moves", m, &e))?,
        };
        Game::from_plies(start, &plies).map_err(|(i, e)| {
            let mut err = ApiError::from(e);
            err.message = format!("move {} of the list: {}", i + 1, err.message);
            err
        })
    }
}

/// `POST /analyze`.
#[derive(Deserialize, Debug)]
pub struct AnalyzeReq {
    #[serde(flatten)]
    game: GameReq,
    movetime_ms: Option<u64>,
    depth: Option<u32>,
}

impl AnalyzeReq {
    /// The game and the search limits.
    pub fn parse(self) -> Result<(Game, Limits), ApiError> {
        let game = self.game.parse()?;
        let limits = match (self.depth, self.movetime_ms) {
            (Some(_), Some(_)) => {
                return Err(ApiError::invalid_request(
                    "give depth or movetime_ms, not both",
                ))
            }
            (Some(d), None) if (1..=40).contains(&d) => Limits::depth(d),
            (Some(d), None) => {
                return Err(ApiError::invalid_request(format!(
                    "depth: {d} is not in 1..40"
                )))
            }
            (None, ms) => {
                let ms = ms.unwrap_or(1000);
                if !(10..=10_000).contains(&ms) {
                    return Err(ApiError::invalid_request(format!(
                        "movetime_ms: {ms} is not in 10..10000"
                    )));
                }
                // The whole analysis (every legal move's value) within `ms`.
                Limits::movetime(Duration::from_millis(ms))
            }
        };
        Ok((game, limits))
    }
}

/// `POST /tournaments`.
#[derive(Deserialize, Debug)]
pub struct CreateTournamentReq {
    kind: Option<String>,
    name: Option<String>,
    time_control: Option<serde_json::Value>,
    #[serde(default = "yes")]
    rated: bool,
    starts_in_s: Option<u32>,
    minutes: Option<u32>,
    rounds: Option<u32>,
}

fn yes() -> bool {
    true
}

/// A new tournament, parsed (`POST /api/v1/tournaments`).
#[derive(Clone, Debug)]
pub struct NewTournament {
    /// Arena or Swiss.
    pub kind: crate::model::tournament::Kind,
    /// Its name.
    pub name: String,
    /// Every game's clock.
    pub time_control: TimeControl,
    /// Rated games.
    pub rated: bool,
    /// Seconds until it starts (0..=7 days).
    pub starts_in_s: u32,
    /// Arena: its length in minutes (1..=720).
    pub minutes: u32,
    /// Swiss: its rounds (1..=15).
    pub rounds: u32,
}

impl CreateTournamentReq {
    /// The tournament asked for.
    pub fn parse(self) -> Result<NewTournament, ApiError> {
        use crate::model::tournament::Kind;
        let bad = |m: String, reason: Reason| ApiError::invalid_request(m).with_reason(reason);
        let kind = match self.kind.as_deref() {
            Some("arena") => Kind::Arena,
            Some("swiss") => Kind::Swiss,
            Some(other) => {
                return Err(bad(
                    format!("kind: {other:?} is not arena or swiss"),
                    Reason::TournamentKind,
                ))
            }
            None => {
                return Err(bad(
                    "kind: required (arena or swiss)".into(),
                    Reason::TournamentKind,
                ))
            }
        };
        let name = self.name.map(|n| n.trim().to_string()).unwrap_or_default();
        if name.is_empty()
            || name.chars().count() > 40
            || name
                .chars()
                .any(|c| c.is_control() || crate::model::is_invisible(c))
        {
            return Err(bad(
                "name: 1 to 40 characters, no control or invisible characters".into(),
                Reason::TournamentName,
            ));
        }
        let time_control = match self.time_control {
            Some(v) => serde_json::from_value::<TimeControl>(v).ok(),
            None => None,
        }
        .filter(|tc| {
            matches!(*tc, TimeControl::Clock { initial_ms, increment_ms }
                if (30_000..=3_600_000).contains(&initial_ms) && increment_ms <= 60_000)
        })
        .ok_or_else(|| {
            bad(
                "time_control: a clock, {\"initial_ms\", \"increment_ms\"}, from 30 s to 60 min with at most 60 s added per move".into(),
                Reason::TournamentClock,
            )
        })?;
        let starts_in_s = self.starts_in_s.unwrap_or(60);
        if starts_in_s > 7 * 86_400 {
            return Err(bad(
                format!("starts_in_s: {starts_in_s} is more than 7 days"),
                Reason::TournamentStart,
            ));
        }
        let (minutes, rounds) = match kind {
            Kind::Arena => {
                let m = self.minutes.unwrap_or(30);
                if !(1..=720).contains(&m) {
                    return Err(bad(
                        format!("minutes: {m} is not in 1..720"),
                        Reason::TournamentLength,
                    ));
                }
                (m, 0)
            }
            Kind::Swiss => {
                let r = self.rounds.unwrap_or(5);
                if !(1..=15).contains(&r) {
                    return Err(bad(
                        format!("rounds: {r} is not in 1..15"),
                        Reason::TournamentRounds,
                    ));
                }
                (0, r)
            }
        };
        Ok(NewTournament {
            kind,
            name,
            time_control,
            rated: self.rated,
            starts_in_s,
            minutes,
            rounds,
        })
    }
}

/// `GET /account/games`'s search (every field optional).
#[derive(Deserialize, Debug, Default)]
pub struct MyGamesQuery {
    opponent: Option<String>,
    result: Option<String>,
    mode: Option<String>,
    from: Option<String>,
    to: Option<String>,
}

/// How a game ended for the player who searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultFilter {
    /// They won.
    Won,
    /// They lost.
    Lost,
    /// A draw.
    Drawn,
    /// Not over yet (waiting or being played).
    Ongoing,
}

/// A search of one's own games, parsed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameFilter {
    /// Part of the opponent's name, lower case.
    pub opponent: Option<String>,
    /// How it ended for the searcher.
    pub result: Option<ResultFilter>,
    /// Online, computer or hot-seat.
    pub mode: Option<Mode>,
    /// Last played on or after this day (ms since the epoch, 00:00 UTC).
    pub from: Option<i64>,
    /// Last played on or before this day (ms since the epoch, the end of
    /// the day UTC).
    pub to: Option<i64>,
}

impl GameFilter {
    /// Whether any field is set.
    pub fn is_empty(&self) -> bool {
        *self == GameFilter::default()
    }
}

/// `YYYY-MM-DD` as ms since the epoch at 00:00 UTC.
fn parse_day(field: &str, text: &str) -> Result<i64, ApiError> {
    let bad = || {
        ApiError::invalid_request(format!("{field}: {text:?} is not a date YYYY-MM-DD"))
            .with_reason(Reason::BadDate)
    };
    let mut parts = text.split('-');
    let (Some(y), Some(m), Some(d), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(bad());
    };
    let (Ok(y), Ok(m), Ok(d)) = (y.parse::<i64>(), m.parse::<u32>(), d.parse::<u32>()) else {
        return Err(bad());
    };
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days_in = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if !(1970..=9999).contains(&y)
        || !(1..=12).contains(&m)
        || d == 0
        || d > days_in[m as usize - 1]
    {
        return Err(bad());
    }
    // Days since 1970-01-01 (civil-from-days, Howard Hinnant's algorithm).
    let (y2, m2) = if m <= 2 { (y - 1, m + 9) } else { (y, m - 3) };
    let era = y2.div_euclid(400);
    let yoe = y2 - era * 400;
    let doy = (153 * i64::from(m2) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Ok((era * 146_097 + doe - 719_468) * 86_400_000)
}

impl MyGamesQuery {
    /// The search asked for.
    pub fn parse(self) -> Result<GameFilter, ApiError> {
        let opponent = self
            .opponent
            .map(|o| o.trim().to_lowercase())
            .filter(|o| !o.is_empty());
        if opponent.as_ref().is_some_and(|o| o.chars().count() > 40) {
            return Err(ApiError::invalid_request("opponent: at most 40 characters"));
        }
        let result = match self.result.as_deref().filter(|r| !r.is_empty()) {
            None => None,
            Some("won") => Some(ResultFilter::Won),
            Some("lost") => Some(ResultFilter::Lost),
            Some("drawn") => Some(ResultFilter::Drawn),
            Some("ongoing") => Some(ResultFilter::Ongoing),
            Some(other) => {
                return Err(ApiError::invalid_request(format!(
                    "result: {other:?} is not won, lost, drawn or ongoing"
                )))
            }
        };
        let mode = match self.mode.as_deref().filter(|m| !m.is_empty()) {
            None => None,
            Some("online") => Some(Mode::Online),
            Some("computer") => Some(Mode::Computer),
            Some("hotseat") => Some(Mode::Hotseat),
            Some(other) => {
                return Err(ApiError::invalid_request(format!(
                    "mode: {other:?} is not online, computer or hotseat"
                )))
            }
        };
        let day = |field: &str, v: Option<String>| -> Result<Option<i64>, ApiError> {
            v.filter(|t| !t.is_empty())
                .map(|t| parse_day(field, &t))
                .transpose()
        };
        let from = day("from", self.from)?;
        let to = day("to", self.to)?.map(|d| d + 86_400_000 - 1);
        if let (Some(f), Some(t)) = (from, to) {
            if f > t {
                return Err(
                    ApiError::invalid_request("from: after to").with_reason(Reason::BadDate)
                );
            }
        }
        Ok(GameFilter {
            opponent,
            result,
            mode,
            from,
            to,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;

    #[test]
    fn game_searches_parse_or_say_what_is_wrong() {
        let q = |o: &str, r: &str, m: &str, f: &str, t: &str| MyGamesQuery {
            opponent: Some(o.into()),
            result: Some(r.into()),
            mode: Some(m.into()),
            from: Some(f.into()),
            to: Some(t.into()),
        };
        assert!(q("", "", "", "", "").parse().unwrap().is_empty());
        let f = q(" Kofi ", "won", "online", "2026-12-01", "2026-12-02")
            .parse()
            .unwrap();
        assert_eq!(f.opponent.as_deref(), Some("kofi"));
        assert_eq!(f.result, Some(ResultFilter::Won));
        assert_eq!(f.mode, Some(Mode::Online));
        // 2026-12-01 00:00 UTC and the last ms of 2026-12-02.
        assert_eq!(f.from, Some(1_796_083_200_000));
        assert_eq!(f.to, Some(1_796_083_200_000 + 2 * 86_400_000 - 1));
        assert_eq!(parse_day("from", "1970-01-01").unwrap(), 0);
        assert_eq!(parse_day("from", "2024-02-29").unwrap(), 1_709_164_800_000);
        for bad in [
            "2025-02-29",
            "2026-13-01",
            "26-1-1x",
            "yesterday",
            "2026-12-01-01",
        ] {
            let e = q("", "", "", bad, "").parse().unwrap_err();
            assert_eq!(e.reason, Some("bad_date"), "{bad}");
        }
        assert!(q("", "maybe", "", "", "").parse().is_err());
        assert!(q("", "", "chess", "", "").parse().is_err());
        assert!(q("", "", "", "2026-12-02", "2026-12-01").parse().is_err());
    }

    #[test]
    fn client_messages_parse_into_typed_values() {
        assert_eq!(
            ClientIn::parse(r#"{"type":"move","move":"F","ply":0}"#).unwrap(),
            ClientIn::Move {
                mv: "F".parse().unwrap(),
                ply: 0
            }
        );
        assert_eq!(
            ClientIn::parse(r#"{"type":"agreement","action":"decline"}"#).unwrap(),
            ClientIn::Agreement(OfferAction::Decline)
        );
        assert_eq!(
            ClientIn::parse(r#"{"type":"hello","since":3}"#).unwrap(),
            ClientIn::Hello { since: 3 }
        );
    }

    #[test]
    fn refusals_carry_codes_and_reasons() {
        let e = ClientIn::parse(r#"{"type":"move","move":"Z","ply":0}"#).unwrap_err();
        assert_eq!(
            (e.code, e.reason),
            (ErrorCode::InvalidMove, Some("bad_letter"))
        );
        let e = ClientIn::parse(r#"{"type":"move","move":"F"}"#).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidRequest);
        let e = ClientIn::parse(r#"{"type":"agreement","action":"maybe"}"#).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidRequest);
        assert_eq!(ClientIn::parse("{").unwrap_err().code, ErrorCode::Malformed);
        let big = format!(r#"{{"type":"ping","pad":"{}"}}"#, "x".repeat(MESSAGE_LIMIT));
        assert_eq!(ClientIn::parse(&big).unwrap_err().code, ErrorCode::TooLarge);
        let e = GameReq {
            position: Some("4-4".into()),
            moves: None,
        }
        .parse()
        .unwrap_err();
        assert_eq!(
            (e.code, e.reason),
            (ErrorCode::InvalidPosition, Some("field_count"))
        );
        let e = GameReq {
            position: None,
            moves: Some("FF".into()),
        }
        .parse()
        .unwrap_err();
        assert_eq!(
            (e.code, e.reason),
            (ErrorCode::IllegalMove, Some("not_your_house"))
        );
    }
}

/// What a new game asks for (`POST /api/v1/games`), parsed.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// Mode.
    pub mode: Mode,
    /// Level 1..=10 (computer games; 3 when absent).
    pub level: Option<u8>,
    /// The creator's browser plays the computer's moves (untimed computer
    /// games): the server's engine stays idle.
    pub browser_engine: bool,
    /// `Some(side)` or `None` for drawing lots.
    pub side: Option<Side>,
    /// Display name.
    pub name: Option<String>,
    /// Time control.
    pub time_control: Option<TimeControl>,
    /// Start position.
    pub position: Option<Position>,
    /// Listed in the lobby.
    pub public: bool,
    /// Rated (online games between two signed-in players).
    pub rated: bool,
    /// The ratings the game accepts from the player who joins.
    pub rating_range: Option<RatingRange>,
    /// Kept to signed-in accounts (joining, the spectators' room).
    pub accounts_only: bool,
}

// The bodies and queries of the HTTP routes outside the game API, each
// read by its route's extractor (`JsonBody`, `Query`), then parsed here
// into typed values (a language, a side, moves) before the handler runs.

/// A language field: absent is English (`oware_session::wire::lang`, the
/// browser module's too).
pub fn parse_lang(lang: Option<&str>) -> Result<Lang, ApiError> {
    Ok(oware_session::wire::lang(lang)?)
}

/// A side field (`what` names it): `S`/`s`/`south` or `N`/`n`/`north`.
pub fn parse_side(s: &str, what: &str) -> Result<Side, ApiError> {
    match s {
        "S" | "s" | "south" => Ok(Side::South),
        "N" | "n" | "north" => Ok(Side::North),
        _ => Err(ApiError::invalid_request(format!(
            "{what}: expected N or S, not {s:?}"
        ))),
    }
}

/// One house letter (`what` names the field).
fn parse_letter(m: &str, what: &str) -> Result<Move, ApiError> {
    m.parse().map_err(|e| ApiError::moves(what, m, &e))
}

/// `POST /api/v1/mistakes`: the moves of one side judged
/// (`mistakes_routes.rs`).
#[derive(Deserialize, Debug)]
pub struct MistakesReq {
    /// The game: a start position and its moves.
    #[serde(flatten)]
    pub game: GameReq,
    /// `S` or `N`: whose moves.
    pub side: String,
    /// `en` (default) or `fr`.
    pub lang: Option<String>,
    /// The computer's side (`N` or `S`), so texts say "you" and "the
    /// computer"; absent between two people.
    pub computer: Option<String>,
}

/// [`MistakesReq`], parsed.
pub struct Mistakes {
    /// The game.
    pub game: Game,
    /// Whose moves.
    pub side: Side,
    /// The language of the texts.
    pub lang: Lang,
    /// The computer's side, if one played.
    pub computer: Option<Side>,
}

impl MistakesReq {
    /// The typed request, or the refusal of its first bad field.
    pub fn parse(self) -> Result<Mistakes, ApiError> {
        Ok(Mistakes {
            game: self.game.parse()?,
            side: parse_side(&self.side, "side")?,
            lang: parse_lang(self.lang.as_deref())?,
            computer: self
                .computer
                .as_deref()
                .map(|c| parse_side(c, "computer"))
                .transpose()?,
        })
    }
}

/// `POST /api/v1/coach`: a move judged (`coach_routes.rs`).
#[derive(Deserialize, Debug)]
pub struct CoachReq {
    /// The game: a start position and its moves.
    #[serde(flatten)]
    pub game: GameReq,
    /// The move to judge (all moves are judged in `moves` anyway).
    #[serde(rename = "move")]
    pub mv: Option<String>,
    /// `en` (default) or `fr`.
    pub lang: Option<String>,
    /// The computer's side (`N` or `S`), so texts say "you" and "the
    /// computer"; absent between two people.
    pub computer: Option<String>,
}

/// [`CoachReq`], parsed: the move, when given, is legal in the game.
pub struct Coach {
    /// The game.
    pub game: Game,
    /// The move to judge.
    pub mv: Option<Move>,
    /// The language of the texts.
    pub lang: Lang,
    /// The computer's side, if one plays.
    pub computer: Option<Side>,
}

impl CoachReq {
    /// The typed request, or the refusal of its first bad field.
    pub fn parse(self) -> Result<Coach, ApiError> {
        let game = self.game.parse()?;
        let lang = parse_lang(self.lang.as_deref())?;
        let computer = self
            .computer
            .as_deref()
            .map(|c| parse_side(c, "computer"))
            .transpose()?;
        let mv = match self.mv.as_deref() {
            None => None,
            Some(m) => {
                let mv = parse_letter(m, "move")?;
                if game.is_over() {
                    return Err(ApiError::game_over("the game is over"));
                }
                if let Err(reason) = game.position().check(mv) {
                    return Err(ApiError::illegal(mv, reason));
                }
                Some(mv)
            }
        };
        Ok(Coach {
            game,
            mv,
            lang,
            computer,
        })
    }
}

/// `GET /api/v1/puzzles/next`'s query (`puzzle_routes.rs`).
#[derive(Deserialize, Debug)]
pub struct NextQuery {
    /// The solver's puzzle rating, for a guest (an account's is stored).
    pub rating: Option<f64>,
    /// Puzzles not to give again, by number, comma-separated (the one on
    /// the screen, those just seen).
    pub skip: Option<String>,
    /// `en` (default) or `fr`.
    pub lang: Option<String>,
}

impl NextQuery {
    /// The language and the puzzles to skip (at most `max_skip`).
    pub fn parse(&self, max_skip: usize) -> Result<(Lang, Vec<u32>), ApiError> {
        let lang = parse_lang(self.lang.as_deref())?;
        let mut skip: Vec<u32> = Vec::new();
        if let Some(s) = self.skip.as_deref().filter(|s| !s.is_empty()) {
            for part in s.split(',') {
                skip.push(part.trim().parse().map_err(|_| {
                    ApiError::invalid_request(format!(
                        "skip: expected puzzle numbers, not {part:?}"
                    ))
                })?);
            }
            if skip.len() > max_skip {
                return Err(ApiError::invalid_request(format!(
                    "skip: at most {max_skip} puzzles"
                )));
            }
        }
        Ok((lang, skip))
    }
}

/// The daily puzzle's and one puzzle's query (`puzzle_routes.rs`).
#[derive(Deserialize, Debug)]
pub struct LangQuery {
    /// `en` (default) or `fr`.
    pub lang: Option<String>,
}

/// A puzzle attempt (`puzzle_routes.rs`).
#[derive(Deserialize, Debug)]
pub struct AttemptReq {
    /// The moves played, as letters; the first is judged.
    pub moves: Vec<String>,
    /// `en` (default) or `fr`.
    pub lang: Option<String>,
}

impl LangQuery {
    /// The language.
    pub fn lang(&self) -> Result<Lang, ApiError> {
        parse_lang(self.lang.as_deref())
    }
}

impl AttemptReq {
    /// The moves (house letters) and the language.
    pub fn parse(&self) -> Result<(Vec<Move>, Lang), ApiError> {
        let lang = parse_lang(self.lang.as_deref())?;
        let moves = self
            .moves
            .iter()
            .map(|m| parse_letter(m, "moves"))
            .collect::<Result<Vec<Move>, ApiError>>()?;
        Ok((moves, lang))
    }
}

/// Signing up or in: `{"username", "password"}` (`accounts/routes.rs`).
#[derive(Deserialize)]
pub struct Credentials {
    /// The account's name.
    pub username: Option<String>,
    /// Its password, in the clear over the connection, hashed at once.
    pub password: Option<String>,
}

/// A new password (`accounts/routes.rs`).
#[derive(Deserialize)]
pub struct PasswordChange {
    /// The password now, to prove it is the owner.
    pub old_password: Option<String>,
    /// The password wanted.
    pub new_password: Option<String>,
}

/// An account's deletion (`accounts/routes.rs`).
#[derive(Deserialize)]
pub struct Deletion {
    /// The password, to prove it is the owner.
    pub password: Option<String>,
}

/// A leaderboard's query (`accounts/routes.rs`).
#[derive(Deserialize)]
pub struct BoardQuery {
    /// How many players (capped by the route).
    pub limit: Option<u32>,
    /// Also list provisional ratings, after the established ones.
    #[serde(default)]
    pub provisional: bool,
}

/// Following or blocking, or undoing it: `{"on": true|false}` (default
/// true) (`accounts/community.rs`).
#[derive(Deserialize)]
pub struct Switch {
    /// On (follow, block) or off (unfollow, unblock).
    #[serde(default = "yes")]
    pub on: bool,
}

/// A report: `{"reason": "cheating"|"abuse"|"other", "details": "...",
/// "game": id?}` (`accounts/community.rs`).
#[derive(Deserialize)]
pub struct ReportRequest {
    /// `cheating`, `abuse` or `other`.
    pub reason: Option<String>,
    /// The reporter's words (capped by the route).
    #[serde(default)]
    pub details: String,
    /// The game it is about, if one.
    pub game: Option<String>,
}

/// A game played offline, sent when the network returns, as sent
/// (`offline_routes.rs`).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct OfflineGameReq {
    /// The device's id of the game: 24 hex digits.
    pub client_id: String,
    /// `computer` or `hotseat`.
    pub mode: String,
    /// The computer's level (1–10), computer games only.
    #[serde(default)]
    pub level: Option<u8>,
    /// The player's side against the computer (`S` or `N`).
    #[serde(default)]
    pub side: Option<String>,
    /// The start position (the usual start when absent).
    #[serde(default)]
    pub position: Option<String>,
    /// The plies played (`"FfA"`).
    #[serde(default)]
    pub moves: String,
    /// How it ended off the board, if it did: `agree`, `resign S`, `resign N`.
    #[serde(default)]
    pub end: Option<String>,
}

/// `GET /notifications`: a page, newest first.
#[derive(Deserialize, Debug, Default)]
pub struct NotificationsQuery {
    /// Only notifications older than this one (its `id`).
    pub before: Option<String>,
    /// At most this many (1..=100, 20 by default).
    pub limit: Option<u32>,
}

impl NotificationsQuery {
    /// The page's size.
    pub fn limit(&self) -> Result<u32, ApiError> {
        let limit = self.limit.unwrap_or(20);
        if !(1..=100).contains(&limit) {
            return Err(ApiError::invalid_request(format!(
                "limit: {limit} is not in 1..100"
            )));
        }
        Ok(limit)
    }
}

/// `POST /notifications/read`: `{"ids": [...]}`, `{"all": true}` or
/// `{"game": id}`.
#[derive(Deserialize, Debug, Default)]
pub struct MarkRead {
    /// The notifications seen.
    pub ids: Option<Vec<String>>,
    /// All of them.
    #[serde(default)]
    pub all: bool,
    /// The "your turn" of a game (its page was seen).
    pub game: Option<String>,
}

/// Which notifications a [`MarkRead`] marks read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadWhich {
    /// These.
    Ids(Vec<String>),
    /// All of them.
    All,
    /// The unread "your turn" of this game.
    Game(String),
}

impl MarkRead {
    /// Which to mark read (at most `most` ids).
    pub fn which(self, most: usize) -> Result<ReadWhich, ApiError> {
        match (self.ids, self.all, self.game) {
            (None, true, None) => Ok(ReadWhich::All),
            (None, false, Some(g)) if !g.is_empty() && g.len() <= 64 => Ok(ReadWhich::Game(g)),
            (Some(ids), false, None) if !ids.is_empty() && ids.len() <= most => {
                Ok(ReadWhich::Ids(ids))
            }
            (Some(ids), false, None) if ids.len() > most => {
                Err(ApiError::too_large(format!("ids: at most {most} at once")))
            }
            _ => Err(ApiError::invalid_request(
                "give one of ids (a non-empty list), \"all\": true or a game",
            )),
        }
    }
}

/// A message on an account's socket (`GET /account/ws`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AccountIn {
    /// Keep-alive.
    Ping,
}

/// The JSON shape of an account socket's message.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum RawAccountIn {
    Ping {},
}

impl AccountIn {
    /// Reads a message; too long or unknown ones are refused.
    pub fn parse(text: &str) -> Result<AccountIn, ApiError> {
        if text.len() > MESSAGE_LIMIT {
            return Err(ApiError::too_large(format!(
                "messages are limited to {MESSAGE_LIMIT} bytes"
            )));
        }
        let raw: RawAccountIn = serde_json::from_str(text)
            .map_err(|e| ApiError::malformed(format!("invalid message: {e}")))?;
        Ok(match raw {
            RawAccountIn::Ping {} => AccountIn::Ping,
        })
    }
}

/// `POST /players/{name}/challenge`.
#[derive(Deserialize, Debug)]
pub struct ChallengeReq {
    time_control: Option<serde_json::Value>,
    #[serde(default)]
    rated: bool,
    side: Option<String>,
}

/// A challenge as asked for, parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewChallenge {
    /// The game's time control (`None`: untimed).
    pub time_control: Option<TimeControl>,
    /// Rated.
    pub rated: bool,
    /// The challenger's side (`None`: drawn by lot).
    pub side: Option<Side>,
}

impl ChallengeReq {
    /// The challenge asked for (the time control's ranges are the hub's).
    pub fn parse(self) -> Result<NewChallenge, ApiError> {
        // The new game's own parsing, so both read the same.
        let game = CreateReq {
            mode: Some("online".into()),
            level: None,
            side: self.side,
            name: None,
            time_control: self.time_control,
            position: None,
            public: true,
            rated: self.rated,
            rating_range: None,
            accounts_only: false,
            engine: None,
        }
        .parse()?;
        Ok(NewChallenge {
            time_control: game.time_control,
            rated: game.rated,
            side: game.side,
        })
    }
}

/// An e-mail address for one's account: `{"email", "password", "lang"?}`
/// (`mail_routes.rs`).
#[derive(Deserialize)]
pub struct EmailSet {
    /// The address.
    pub email: Option<String>,
    /// The account's password: an address can reset it.
    pub password: Option<String>,
    /// The mails' language, `en` or `fr`.
    pub lang: Option<String>,
}

/// An address given: checked (`bad_email` otherwise).
fn email(text: Option<String>) -> Result<crate::mailer::Email, ApiError> {
    let text = text.ok_or_else(|| ApiError::invalid_request("email: required"))?;
    crate::mailer::Email::parse(&text)
        .map_err(|e| ApiError::invalid_request(format!("email: {e}")).with_reason(Reason::BadEmail))
}

/// A language given: `en` unless `fr`.
fn mail_lang(text: Option<&str>) -> Lang {
    text.and_then(Lang::parse).unwrap_or_default()
}

impl EmailSet {
    /// The address, the password and the language.
    pub fn parse(self) -> Result<(crate::mailer::Email, String, Lang), ApiError> {
        let lang = mail_lang(self.lang.as_deref());
        let password = self
            .password
            .filter(|p| p.len() <= 1024)
            .ok_or_else(|| ApiError::invalid_request("password: required"))?;
        Ok((email(self.email)?, password, lang))
    }
}

/// A link's token: `{"token"}` (`mail_routes.rs`).
#[derive(Deserialize)]
pub struct LinkToken {
    /// The token the link carried.
    pub token: Option<String>,
}

/// A link's token as it must be: 64 hexadecimal digits (`bad_token`,
/// `link_unknown` otherwise).
pub fn link_token(text: Option<&str>) -> Result<String, ApiError> {
    match text.map(str::trim) {
        Some(t) if t.len() == 64 && t.bytes().all(|b| b.is_ascii_hexdigit()) => {
            Ok(t.to_ascii_lowercase())
        }
        Some(_) => {
            Err(ApiError::bad_token("this link is not one of ours")
                .with_reason(Reason::LinkUnknown))
        }
        None => Err(ApiError::invalid_request("token: required")),
    }
}

impl LinkToken {
    /// The token.
    pub fn parse(self) -> Result<String, ApiError> {
        link_token(self.token.as_deref())
    }
}

/// A mail program's one-click unsubscribe (RFC 8058): the form body
/// `List-Unsubscribe=One-Click` (`mail_routes.rs`; the token is in the
/// link's query).
#[derive(Deserialize)]
pub struct OneClick {
    /// Must be `One-Click`.
    #[serde(rename = "List-Unsubscribe")]
    pub list_unsubscribe: Option<String>,
}

impl OneClick {
    /// Checks the body says what RFC 8058 has it say.
    pub fn parse(self) -> Result<(), ApiError> {
        match self.list_unsubscribe.as_deref() {
            Some("One-Click") => Ok(()),
            _ => Err(ApiError::invalid_request(
                "List-Unsubscribe=One-Click: required as the form's body",
            )),
        }
    }
}

/// A password reset asked for: `{"email", "lang"?}` (`mail_routes.rs`).
#[derive(Deserialize)]
pub struct ResetAsk {
    /// The account's verified address.
    pub email: Option<String>,
}

impl ResetAsk {
    /// The address.
    pub fn parse(self) -> Result<crate::mailer::Email, ApiError> {
        email(self.email)
    }
}

/// A new password by a reset link: `{"token", "new_password"}`
/// (`mail_routes.rs`).
#[derive(Deserialize)]
pub struct ResetConfirm {
    /// The link's token.
    pub token: Option<String>,
    /// The password wanted.
    pub new_password: Option<String>,
}

impl ResetConfirm {
    /// The token and the new password (its rules are checked with the
    /// account's name).
    pub fn parse(self) -> Result<(String, String), ApiError> {
        let token = link_token(self.token.as_deref())?;
        let password = self
            .new_password
            .ok_or_else(|| ApiError::invalid_request("new_password: required"))?;
        if password.len() > 1024 {
            return Err(ApiError::too_large("new_password: at most 128 characters"));
        }
        Ok((token, password))
    }
}

/// Notification mails on or off: `{"subscribed": bool}` (`mail_routes.rs`).
#[derive(Deserialize)]
pub struct MailSubscription {
    /// On.
    pub subscribed: Option<bool>,
}
