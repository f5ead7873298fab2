//! The JSON views of games sent to clients (docs/PROTOCOL.md): never a
//! seat token, always what the rules core says about the position.

use oware_core::{Ply, Side};
use oware_session::ScoreKind;
use serde::{Deserialize, Serialize};

use crate::model::{
    rfc3339, GameMeta, GameStatus, Mode, PlyText, RatingRange, Seat, SeatKind, SeatRating,
    TimeControl,
};

pub use crate::model::stores;
/// The rules' part of the views: one definition with the browser's module
/// (`oware_session::wire`).
pub use oware_session::wire::{trace_of, Play, ResultView, Totals, TraceView};

/// One seat on the wire (never the token).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SeatView {
    /// `human` or `computer`.
    pub kind: SeatKind,
    /// Display name.
    pub name: String,
    /// Someone holds the seat.
    pub taken: bool,
    /// A WebSocket for this seat is open (always true for the computer).
    pub connected: bool,
    /// Taken by a signed-in player (the name is their username).
    pub account: bool,
    /// Their rating when they sat down (rated games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<SeatRating>,
}

/// Both seats, keyed `S` and `N`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SeatsView {
    /// South's seat.
    #[serde(rename = "S")]
    pub south: SeatView,
    /// North's seat.
    #[serde(rename = "N")]
    pub north: SeatView,
}

/// The seats' public view.
pub fn seats_view(seats: &[Seat; 2], connected: [bool; 2]) -> SeatsView {
    let one = |i: usize| SeatView {
        kind: seats[i].kind,
        name: seats[i].name.clone(),
        taken: seats[i].token_hash.is_some() || seats[i].kind == SeatKind::Computer,
        connected: connected[i] || seats[i].kind == SeatKind::Computer,
        account: seats[i].account.is_some(),
        rating: seats[i].rating,
    };
    SeatsView {
        south: one(0),
        north: one(1),
    }
}

/// A ply as text: the move letter, or `-` for a turn lost on time.
pub fn ply_text(p: Ply) -> String {
    PlyText(p).to_string()
}

/// An engine score on the wire.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct ScoreView {
    /// What kind of value it is (`value`, `win`, `loss`, `tablebase_win`,
    /// `tablebase_loss`, `draw`: the session layer's `ScoreKind`).
    pub kind: &'static str,
    /// Centi-seeds for the side to move (proven results map to ±10000 less the distance).
    pub cp: i32,
    /// Plies to a proven win.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub win_in: Option<u32>,
    /// Plies to a proven loss.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loss_in: Option<u32>,
}

impl From<oware_engine::Score> for ScoreView {
    fn from(s: oware_engine::Score) -> ScoreView {
        let kind = ScoreKind::of(s);
        let (win_in, loss_in) = match kind {
            ScoreKind::Win { plies } => (Some(plies), None),
            ScoreKind::Loss { plies } => (None, Some(plies)),
            _ => (None, None),
        };
        ScoreView {
            kind: kind.code(),
            cp: s.centiseeds(),
            win_in,
            loss_in,
        }
    }
}

/// The clock as sent to clients.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ClockView {
    /// South's time left.
    pub south_ms: u64,
    /// North's time left.
    pub north_ms: u64,
    /// Whose time is running.
    pub running: Option<Side>,
}

/// A game on the wire.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameView {
    /// Id.
    pub id: String,
    /// Mode.
    pub mode: Mode,
    /// Engine level.
    pub level: Option<u8>,
    /// The level's name (`beginner` … `master`), for clients without their own list.
    pub level_name: Option<&'static str>,
    /// `waiting`, `playing` or `over`.
    pub status: GameStatus,
    /// Listed in the lobby.
    pub public: bool,
    /// Creation time.
    pub created_at: String,
    /// Last change.
    pub updated_at: String,
    /// Seats.
    pub seats: SeatsView,
    /// The game as the rules see it (start, plies, captures, position,
    /// side to move, legal moves, stores, last trace, result), flattened.
    #[serde(flatten)]
    pub play: Play,
    /// Time control.
    pub time_control: Option<TimeControl>,
    /// Rated.
    pub rated: bool,
    /// A rated game aborted before each side had moved (not rated).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub aborted: bool,
    /// Played offline on a device and uploaded (only then present).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub offline: bool,
    /// False for an uploaded game: the server did not see it played (only
    /// then present).
    #[serde(skip_serializing_if = "is_true")]
    pub verified: bool,
    /// The ratings a seek accepts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating_range: Option<RatingRange>,
    /// Kept to signed-in accounts (joining, the spectators' room).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub accounts_only: bool,
    /// Clock state.
    pub clock: Option<ClockView>,
    /// Standing agreement offer.
    pub offer: Option<Side>,
    /// Standing request to take a move back (online games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub takeback: Option<Side>,
    /// The engine is thinking.
    pub thinking: bool,
    /// Computer games: which engine plays the computer's moves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<EngineSide>,
    /// Rematch game id.
    pub rematch: Option<String>,
    /// The tournament that paired this game, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tournament: Option<String>,
}

/// Which engine plays the computer's moves (docs/WEB.md, "Which engine
/// answers").
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum EngineSide {
    /// The player's browser (the WebAssembly engine).
    Browser,
    /// The server's engine pool.
    Server,
}

/// A game in lists.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Summary {
    /// Id.
    pub id: String,
    /// Mode.
    pub mode: Mode,
    /// Engine level.
    pub level: Option<u8>,
    /// Status.
    pub status: GameStatus,
    /// Listed in the lobby.
    pub public: bool,
    /// Creation time.
    pub created_at: String,
    /// Last change.
    pub updated_at: String,
    /// Seats.
    pub seats: SeatsView,
    /// Plies played.
    pub ply: u32,
    /// Stores.
    pub score: Totals,
    /// Result.
    pub result: Option<ResultView>,
    /// Time control.
    pub time_control: Option<TimeControl>,
    /// Rated.
    pub rated: bool,
    /// A rated game aborted before each side had moved (not rated).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub aborted: bool,
    /// Played offline on a device and uploaded (only then present).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub offline: bool,
    /// False for an uploaded game: the server did not see it played (only
    /// then present).
    #[serde(skip_serializing_if = "is_true")]
    pub verified: bool,
    /// The ratings a seek accepts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating_range: Option<RatingRange>,
    /// Kept to signed-in accounts (joining, the spectators' room).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub accounts_only: bool,
    /// The side to move while the game is played (each ply, a move or a
    /// lost turn, passes the turn), so lists can say "your turn".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_move: Option<oware_core::Side>,
}

fn is_true(b: &bool) -> bool {
    *b
}

impl Summary {
    /// The summary of a game sent in lists.
    pub fn of(meta: &GameMeta) -> Summary {
        Summary {
            id: meta.id.clone(),
            mode: meta.mode,
            level: meta.level,
            status: meta.status(),
            public: meta.public,
            created_at: rfc3339(meta.created_at),
            updated_at: rfc3339(meta.updated_at),
            seats: seats_view(&meta.seats, [false, false]),
            ply: meta.ply,
            score: Totals::from(meta.score),
            result: meta.result.as_ref().map(ResultView::from),
            time_control: meta.time_control,
            rated: meta.rated,
            aborted: meta.aborted,
            offline: meta.offline,
            verified: !meta.offline,
            rating_range: meta.rating_range,
            accounts_only: meta.accounts_only,
            to_move: (meta.status() == GameStatus::Playing).then(|| {
                let first = meta.start.to_move();
                if meta.ply.is_multiple_of(2) {
                    first
                } else {
                    first.opponent()
                }
            }),
        }
    }
}

/// A seat's prepared replies (`/games/{id}/conditional`): sent to that seat
/// only.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Prepared {
    /// The ply the opponent's move is expected at (none prepared: null).
    pub ply: Option<u32>,
    /// The opponent's move → the reply.
    pub replies: std::collections::BTreeMap<String, String>,
}

impl Prepared {
    /// What `side` prepared in the game of `meta`.
    pub fn of(meta: &crate::model::GameMeta, side: Side) -> Prepared {
        match meta.conditional.as_ref().filter(|c| c.side == side) {
            Some(c) => Prepared {
                ply: Some(c.ply),
                replies: c
                    .replies
                    .iter()
                    .map(|(m, r)| (m.to_string(), r.to_string()))
                    .collect(),
            },
            None => Prepared {
                ply: None,
                replies: Default::default(),
            },
        }
    }
}
