//! What the server sends: the game events of the WebSocket ([`ClientOut`])
//! and the bodies of HTTP responses. Every one is a typed struct; the JSON
//! shapes are those of docs/PROTOCOL.md.

use std::collections::HashMap;

use axum::extract::ws::Utf8Bytes;
use oware_core::{Move, Position, Side};
use serde::{Serialize, Serializer};

use super::views::*;
use crate::error::ErrorBody;
use crate::model::{GameStatus, OfferAction, PlyText};

/// A move list as one string of letters (`eCfF`).
fn moves_text<S: Serializer>(moves: &[Move], s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&oware_core::format_moves(moves))
}

/// An event sent to the connections of a game.
#[derive(Serialize, Debug)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientOut<'a> {
    /// The whole game.
    State {
        /// Plies played.
        ply: u32,
        /// The game.
        game: &'a GameView,
        /// The receiver's seat (connect-time state only).
        #[serde(skip_serializing_if = "Option::is_none")]
        you: Option<Option<Side>>,
    },
    /// A ply.
    Move {
        /// Plies played after it.
        ply: u32,
        /// Who played it.
        side: Side,
        /// The move letter or `-`.
        #[serde(rename = "move")]
        mv: PlyText,
        /// What it did.
        trace: Option<TraceView>,
        /// Position after it.
        position: Position,
        /// Side to move after it.
        to_move: Side,
        /// Legal moves after it.
        legal: Vec<Move>,
        /// Stores after it.
        score: Totals,
        /// Clock after it.
        clock: Option<ClockView>,
    },
    /// The clock.
    Clock {
        /// Plies played.
        ply: u32,
        /// The clock.
        clock: ClockView,
    },
    /// An agreement offer or its refusal.
    Offer {
        /// Plies played.
        ply: u32,
        /// Who offered or declined.
        side: Side,
        /// `offer` or `decline`.
        action: OfferAction,
    },
    /// A request to take a move back, or its refusal (an accepted one is
    /// a `state` event).
    Takeback {
        /// Plies played.
        ply: u32,
        /// Who asked or declined.
        side: Side,
        /// `offer` or `decline`.
        action: OfferAction,
    },
    /// The game ended.
    End {
        /// Plies played.
        ply: u32,
        /// How.
        result: ResultView,
    },
    /// Seats changed (taken, connected).
    Presence {
        /// Plies played.
        ply: u32,
        /// Status after the change.
        status: GameStatus,
        /// The seats.
        seats: SeatsView,
    },
    /// The engine started or stopped thinking.
    Thinking {
        /// Plies played.
        ply: u32,
        /// The engine's side.
        side: Side,
        /// Thinking or not.
        thinking: bool,
    },
    /// A rematch was created.
    Rematch {
        /// Plies played.
        ply: u32,
        /// The new game.
        id: String,
    },
    /// A chat message.
    Chat {
        /// Plies played.
        ply: u32,
        /// The message.
        #[serde(flatten)]
        message: &'a crate::model::chat::ChatMessage,
    },
    /// Answer to ping.
    Pong {
        /// Plies played.
        ply: u32,
    },
    /// A refused client message (nothing changed).
    Error {
        /// Plies played.
        ply: u32,
        /// What was refused, and why.
        #[serde(flatten)]
        error: ErrorBody<'a>,
    },
}

impl ClientOut<'_> {
    /// As a WebSocket text payload.
    pub fn to_text(&self) -> Utf8Bytes {
        Utf8Bytes::from(serde_json::to_string(self).expect("events serialize"))
    }
}

/// A seat given to a client (creating, joining, importing, rematch).
#[derive(Clone, Debug, Serialize)]
pub struct Seated {
    /// Game id.
    pub id: String,
    /// Seat tokens held, by side.
    pub tokens: HashMap<Side, String>,
    /// The caller's side (South in hot-seat games).
    pub you: Side,
    /// Invite link (online games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite_url: Option<String>,
    /// Spectator link.
    pub spectator_url: String,
    /// The game.
    pub game: GameView,
}

/// `POST /games/{id}/join`.
#[derive(Debug, Serialize)]
pub struct JoinResponse {
    /// Game id.
    pub id: String,
    /// The seat's token.
    pub token: Option<String>,
    /// The seat.
    pub you: Side,
    /// The game.
    pub game: GameView,
}

/// Responses that carry the game after an action.
#[derive(Debug, Serialize)]
pub struct GameResponse {
    /// The game.
    pub game: GameView,
}

/// `POST /games/{id}/moves`.
#[derive(Debug, Serialize)]
pub struct MoveResponse {
    /// Plies played.
    pub ply: u32,
    /// The game.
    pub game: GameView,
}

/// `GET /games`.
#[derive(Debug, Serialize)]
pub struct ListResponse {
    /// One page of games.
    pub games: Vec<Summary>,
    /// Games in the listing in all.
    pub total: u64,
}

/// `GET /lobby`.
#[derive(Debug, Serialize)]
pub struct LobbyResponse {
    /// Games waiting for an opponent.
    pub games: Vec<Summary>,
    /// Players with the site open (an account socket), on every node.
    pub online: usize,
}

/// `GET /watch`.
#[derive(Debug, Serialize)]
pub struct WatchResponse {
    /// Public online games being played now, the most recently moved first.
    pub games: Vec<Summary>,
    /// The game shown large (TV): the best-rated of them.
    pub featured: Option<String>,
}

/// `POST /games/{id}/hint`.
#[derive(Debug, Serialize)]
pub struct HintResponse {
    /// The suggested move.
    #[serde(rename = "move")]
    pub mv: Option<Move>,
    /// Its value.
    pub score: ScoreView,
    /// The expected line.
    #[serde(serialize_with = "moves_text")]
    pub pv: Vec<Move>,
    /// Depth reached.
    pub depth: u32,
}

/// `GET /games/{id}/review`.
#[derive(Debug, Serialize)]
pub struct ReviewResponse {
    /// Game id.
    pub id: String,
    /// The depth of the coach's analyses that judged the moves.
    pub depth: u32,
    /// One entry per ply (shared with the review cache).
    pub plies: std::sync::Arc<Vec<ReviewPly>>,
}

/// One ply of a review (value fields absent for lost turns).
#[derive(Debug, Serialize)]
pub struct ReviewPly {
    /// 1-based ply number.
    pub ply: u32,
    /// Who played it.
    pub side: Side,
    /// The move or `-`.
    #[serde(rename = "move")]
    pub mv: PlyText,
    /// The engine's choice.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best: Option<Move>,
    /// Value of the move played, for its player.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<ScoreView>,
    /// Value of the best move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_score: Option<ScoreView>,
    /// What the move played lost against the best, centiseeds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loss_cp: Option<i32>,
    /// The coach's verdict on the move played (`best`, `good`,
    /// `inaccuracy`, `mistake`, `blunder`): what `POST /api/v1/coach`
    /// says of it in the same position.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<&'static str>,
    /// Seeds lost against the best move on the coach's scale (one
    /// decimal), as the coach's `loss`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loss: Option<f64>,
    /// The best line.
    #[serde(serialize_with = "moves_text", skip_serializing_if = "Vec::is_empty")]
    pub pv: Vec<Move>,
    /// Value of the move played for South, centiseeds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub eval_south_cp: Option<i32>,
}

/// `POST /analyze`.
#[derive(Debug, Serialize)]
pub struct AnalyzeResponse {
    /// The position analysed.
    pub position: Position,
    /// Its side to move.
    pub to_move: Side,
    /// The depth every value is exact at (the last iteration completed:
    /// below the asked depth only when the request cap cut it).
    pub depth: u32,
    /// The seeds the server's endgame tables covered (0 without tables):
    /// `oware analyze --depth D --tablebases DIR` with tables of as many
    /// seeds gives the same values in the same order.
    pub tables: u8,
    /// Every legal move, best first.
    pub moves: Vec<MoveValue>,
}

/// One move's value in an analysis.
#[derive(Debug, Serialize)]
pub struct MoveValue {
    /// The move.
    #[serde(rename = "move")]
    pub mv: Move,
    /// Its value for the side to move.
    pub score: ScoreView,
    /// The line after it.
    #[serde(serialize_with = "moves_text")]
    pub pv: Vec<Move>,
}

/// `GET /health`.
#[derive(Debug, Serialize)]
pub struct Health {
    /// Always true (an answer means the server runs).
    pub ok: bool,
    /// Games held in memory.
    pub games_in_memory: usize,
    /// Writes committed.
    pub writes: u64,
    /// Transactions committed.
    pub commits: u64,
    /// Time spent committing, µs.
    pub commit_us: u64,
    /// Longest commit, µs.
    pub max_commit_us: u64,
    /// Largest group commit.
    pub max_group: u64,
    /// The endgame tables in use: up to this many seeds (absent while
    /// building, or without tables).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tablebase_seeds: Option<usize>,
}

/// A tournament in a list.
#[derive(Serialize, Debug, Clone)]
pub struct TournamentSummaryView {
    /// Its id.
    pub id: String,
    /// `arena` or `swiss`.
    pub kind: crate::model::tournament::Kind,
    /// Its name.
    pub name: String,
    /// `created`, `running`, `finished` or `cancelled`.
    pub status: crate::model::tournament::Status,
    /// Every game's clock.
    pub time_control: crate::model::TimeControl,
    /// Rated games.
    pub rated: bool,
    /// When it starts (RFC 3339).
    pub starts_at: String,
    /// Arena: when it ends; Swiss: when it ended.
    pub ends_at: Option<String>,
    /// Swiss: rounds (0 for an arena).
    pub rounds: u32,
    /// Swiss: the round being played.
    pub round: u32,
    /// Entrants.
    pub entrants: u32,
}

/// `GET /tournaments`.
#[derive(Serialize, Debug)]
pub struct TournamentListView {
    /// The open ones (running first), then the last finished.
    pub tournaments: Vec<TournamentSummaryView>,
}

/// One line of a tournament's standings.
#[derive(Serialize, Debug, Clone)]
pub struct TournamentStandingView {
    /// Rank (shared when equal).
    pub rank: u32,
    /// Username.
    pub name: String,
    /// Rating when they joined.
    pub rating: i32,
    /// `active`, `paused` or `left`.
    pub state: crate::model::tournament::EntrantState,
    /// The game they are playing now, if any.
    pub playing: Option<String>,
    /// Arena: points (with streak doubles); Swiss: points (a win 1, a draw ½).
    pub score: f64,
    /// Arena: games finished; Swiss: wins.
    pub games: u32,
    /// Arena: on a streak (the next win counts double).
    pub on_fire: bool,
    /// Arena: each game's points in order.
    pub sheet: Vec<u32>,
    /// Swiss: Buchholz.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buchholz: Option<f64>,
    /// Swiss: Sonneborn-Berger.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sonneborn_berger: Option<f64>,
}

/// One pairing of a tournament.
#[derive(Serialize, Debug, Clone)]
pub struct TournamentGameView {
    /// The game's id (`None` for a bye).
    pub id: Option<String>,
    /// Swiss: its round; arena: 0.
    pub round: u32,
    /// South's player (or the bye's).
    pub south: String,
    /// North's player; `None` for a bye.
    pub north: Option<String>,
    /// How it ended, once it did.
    pub outcome: Option<crate::model::tournament::Outcome>,
}

/// The caller's place in a tournament.
#[derive(Serialize, Debug, Clone)]
pub struct YouInTournament {
    /// `active`, `paused` or `left`.
    pub state: crate::model::tournament::EntrantState,
    /// The game they are to play now, if any.
    pub game: Option<String>,
}

/// `GET /tournaments/{id}`.
#[derive(Serialize, Debug)]
pub struct TournamentView {
    /// The summary fields.
    #[serde(flatten)]
    pub summary: TournamentSummaryView,
    /// Who created it (`None`: the server's schedule).
    pub creator: Option<String>,
    /// Swiss: when the next round is paired, once known.
    pub next_at: Option<String>,
    /// The standings, best first.
    pub standings: Vec<TournamentStandingView>,
    /// The pairings, oldest first (the last 200).
    pub games: Vec<TournamentGameView>,
    /// The caller, when signed in and an entrant.
    pub you: Option<YouInTournament>,
}

/// An event on an account's socket (`GET /account/ws`).
#[derive(Serialize, Debug)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AccountOut<'a> {
    /// A new notification, and the unread count with it.
    Notification {
        /// The notification.
        notification: &'a crate::model::notification::Notification,
        /// Unread notifications now.
        unread: u32,
    },
    /// The unread count changed (notifications read elsewhere).
    Unread {
        /// Unread notifications now.
        unread: u32,
    },
    /// A challenge made, received or answered (its `status` says which).
    Challenge {
        /// The challenge.
        challenge: &'a crate::model::challenge::Challenge,
    },
    /// The answer to a ping.
    Pong,
    /// A message refused.
    Error {
        /// Why.
        error: ErrorBody<'a>,
    },
}

impl AccountOut<'_> {
    /// As a WebSocket text payload.
    pub fn to_text(&self) -> Utf8Bytes {
        Utf8Bytes::from(serde_json::to_string(self).expect("events serialize"))
    }
}

/// `GET /notifications`.
#[derive(Serialize, Debug)]
pub struct NotificationsPage {
    /// Newest first.
    pub items: Vec<crate::model::notification::Notification>,
    /// Unread notifications.
    pub unread: u32,
}

/// `GET /account/email`: the account's address, if mail is available.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct EmailView {
    /// The server sends mail (`oware serve --smtp`).
    pub available: bool,
    /// The address, if one was added.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// The account proved it reads it.
    pub verified: bool,
    /// It takes mails about games and tournaments.
    pub subscribed: bool,
    /// The mails' language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
}
