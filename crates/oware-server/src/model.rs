//! What the server keeps about a game besides its moves (persisted as JSON),
//! and the JSON views sent to clients (docs/PROTOCOL.md).

use oware_core::{Game, House, Move, MoveTrace, Outcome, Ply, Position, Side};
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
    /// The seat token; `None` while the seat is free.
    pub token: Option<String>,
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
    /// Creation time, ms since the Unix epoch.
    pub created_at: i64,
    /// Last change, ms since the Unix epoch.
    pub updated_at: i64,
    /// The start position.
    pub start: Position,
    /// South's and North's seats.
    pub seats: [Seat; 2],
    /// Secret that lets a second player join an online game.
    pub invite: String,
    /// Time control, if any.
    pub time_control: Option<TimeControl>,
    /// The outcome once the game is over (also when it came from the board).
    #[serde(default, with = "outcome_serde")]
    pub result: Option<Outcome>,
    /// The side that offered to stop by agreement, if an offer stands.
    pub offer: Option<Side>,
    /// Id of the rematch game, once created.
    pub rematch: Option<String>,
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

impl GameMeta {
    /// `waiting`, `playing` or `over`.
    pub fn status(&self) -> &'static str {
        if self.result.is_some() {
            "over"
        } else if self
            .seats
            .iter()
            .any(|s| s.token.is_none() && s.kind == SeatKind::Human)
        {
            "waiting"
        } else {
            "playing"
        }
    }

    /// The seat a token holds, if any.
    pub fn side_of(&self, token: &str) -> Option<Side> {
        Side::ALL
            .into_iter()
            .find(|s| self.seats[s.index()].token.as_deref() == Some(token))
    }

    /// The summary sent in lists.
    pub fn summary(&self) -> Summary {
        Summary {
            id: self.id.clone(),
            mode: self.mode,
            level: self.level,
            status: self.status(),
            public: self.public,
            created_at: rfc3339(self.created_at),
            updated_at: rfc3339(self.updated_at),
            seats: seats_view(&self.seats, [false, false]),
            ply: self.ply,
            score: Totals::from(self.score),
            result: self.result.as_ref().map(ResultView::from),
            time_control: self.time_control,
        }
    }
}

/// `{"south": n, "north": n}`.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Totals {
    /// South's figure.
    pub south: u8,
    /// North's figure.
    pub north: u8,
}

impl From<[u8; 2]> for Totals {
    fn from(t: [u8; 2]) -> Totals {
        Totals {
            south: t[0],
            north: t[1],
        }
    }
}

/// The stores of a position.
pub fn stores(pos: &Position) -> [u8; 2] {
    [pos.store(Side::South), pos.store(Side::North)]
}

/// A game's result on the wire.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ResultView {
    /// Reason id.
    pub reason: String,
    /// Rule id, when a rule ended the game.
    pub rule: Option<String>,
    /// `S`, `N` or `draw`.
    pub winner: String,
    /// Final totals.
    pub totals: Totals,
    /// The reason in words.
    pub text: String,
}

impl From<&Outcome> for ResultView {
    fn from(o: &Outcome) -> ResultView {
        ResultView {
            reason: o.reason.as_str().to_string(),
            rule: o.reason.rule().map(str::to_string),
            winner: o.winner_str().to_string(),
            totals: Totals::from(o.totals),
            text: o.reason.to_string(),
        }
    }
}

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
        taken: seats[i].token.is_some() || seats[i].kind == SeatKind::Computer,
        connected: connected[i] || seats[i].kind == SeatKind::Computer,
    };
    SeatsView {
        south: one(0),
        north: one(1),
    }
}

/// What a move did, for animation.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct TraceView {
    /// The move.
    #[serde(rename = "move")]
    pub mv: Move,
    /// Houses that received a seed, in order.
    pub sown: Vec<House>,
    /// Where the last seed fell.
    pub last: House,
    /// Houses captured from, last house first, with their seeds.
    pub captured: Vec<(House, u8)>,
    /// The capture was cancelled because it would take every seed (R7).
    pub grand_slam: bool,
}

impl From<&MoveTrace> for TraceView {
    fn from(t: &MoveTrace) -> TraceView {
        TraceView {
            mv: t.mv,
            sown: t.sown.clone(),
            last: t.last,
            captured: t.captured.clone(),
            grand_slam: t.grand_slam,
        }
    }
}

/// The trace of ply `i` of `game`, if it was a move.
pub fn trace_of(game: &Game, i: usize) -> Option<TraceView> {
    match game.plies().get(i)? {
        Ply::Move(mv) => game.positions()[i]
            .trace(*mv)
            .ok()
            .map(|t| TraceView::from(&t)),
        Ply::Pass => None,
    }
}

/// A ply as text: the move letter, or `-` for a turn lost on time.
pub fn ply_text(p: Ply) -> String {
    match p {
        Ply::Move(m) => m.to_string(),
        Ply::Pass => "-".to_string(),
    }
}

/// An engine score on the wire.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ScoreView {
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
        let (win_in, loss_in) = if s.raw() >= oware_engine::Score::PROVEN {
            (Some((oware_engine::Score::WIN - s.raw()) as u32), None)
        } else if s.raw() <= -oware_engine::Score::PROVEN {
            (None, Some((oware_engine::Score::WIN + s.raw()) as u32))
        } else {
            (None, None)
        };
        ScoreView {
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
    /// `waiting`, `playing` or `over`.
    pub status: String,
    /// Listed in the lobby.
    pub public: bool,
    /// Creation time.
    pub created_at: String,
    /// Last change.
    pub updated_at: String,
    /// Seats.
    pub seats: SeatsView,
    /// Start position.
    pub start: Position,
    /// Every ply.
    pub plies: Vec<String>,
    /// Number of plies.
    pub ply: u32,
    /// Current position.
    pub position: Position,
    /// Side to move.
    pub to_move: Side,
    /// Legal moves (empty once over).
    pub legal: Vec<Move>,
    /// Stores.
    pub score: Totals,
    /// Trace of the last ply, if it was a move.
    pub last: Option<TraceView>,
    /// The result once over.
    pub result: Option<ResultView>,
    /// Time control.
    pub time_control: Option<TimeControl>,
    /// Clock state.
    pub clock: Option<ClockView>,
    /// Standing agreement offer.
    pub offer: Option<Side>,
    /// The engine is thinking.
    pub thinking: bool,
    /// Rematch game id.
    pub rematch: Option<String>,
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
    pub status: &'static str,
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
}

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

/// Now, in ms since the Unix epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(1_795_000_000_000), "2026-11-18T11:06:40Z");
        assert_eq!(ogn_date(951_782_400_000), "2000.02.29");
    }
}
