//! The words the web server and the browser's module share: the refusal
//! codes, and the rules' view of a game (docs/PROTOCOL.md, "One
//! vocabulary"). The server's answers and the WebAssembly module's answers
//! are made from these definitions, so a page reads a game, a position's
//! previews or a refusal the same way whichever of the two answered it.
//!
//! ```
//! use oware_core::{Game, Move, Position};
//! use oware_session::wire::{self, Code};
//!
//! let mut game = Game::new(Position::start());
//! game.play(Move::from_letter('F').unwrap()).unwrap();
//! let state = wire::state(&game);
//! assert_eq!(state.play.ply, 1);
//! assert_eq!(state.play.captures, vec![0]);
//! assert_eq!(serde_json::to_value(&state).unwrap()["plies"], serde_json::json!(["F"]));
//! assert_eq!(Code::InvalidPosition.as_str(), "invalid_position");
//! ```

use oware_core::{Game, House, Move, MoveTrace, Outcome, Ply, Position, Side};
use serde::{Deserialize, Serialize};

use crate::coach;
use crate::Lang;

macro_rules! codes {
    ($($variant:ident => $code:literal,)*) => {
        /// The kind of a refusal: stable, machine-readable, translated by
        /// clients (with the detail `reason`, as `err.<code>.<reason>`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
        #[serde(rename_all = "snake_case")]
        pub enum Code {
            $(
                #[doc = concat!("`", $code, "`")]
                $variant,
            )*
        }

        impl Code {
            /// Every code, in the order of docs/PROTOCOL.md.
            pub const ALL: &'static [Code] = &[$(Code::$variant),*];

            /// The code as sent.
            pub const fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $code,)* }
            }
        }
    };
}

codes! {
    Malformed => "malformed",
    InvalidRequest => "invalid_request",
    InvalidPosition => "invalid_position",
    InvalidMove => "invalid_move",
    IllegalMove => "illegal_move",
    NotYourTurn => "not_your_turn",
    StalePly => "stale_ply",
    GameOver => "game_over",
    SeatTaken => "seat_taken",
    NotAllowed => "not_allowed",
    MissingToken => "missing_token",
    NotSignedIn => "not_signed_in",
    BadCredentials => "bad_credentials",
    UsernameTaken => "username_taken",
    BadCsrf => "bad_csrf",
    BadToken => "bad_token",
    BadOrigin => "bad_origin",
    NotFound => "not_found",
    TooLarge => "too_large",
    RateLimited => "rate_limited",
    Busy => "busy",
    Internal => "internal",
    Stopped => "stopped",
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A refusal as sent (the server's `{"error": …}` object, the module's
/// `{"ok": false, …}` answer): its kind, words for people, and the rules'
/// detail when the rules refused.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Refusal {
    /// The kind of refusal.
    pub code: Code,
    /// For people (English; clients translate by `code` and `reason`).
    pub message: String,
    /// The rule (docs/RULES.md id) that forbids it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<&'static str>,
    /// The detail: the core's code (`empty_house`, `bad_count`, …), the
    /// session's or the server's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
    /// The line of the client's text where the error is (from 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// Its column (from 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
}

impl Refusal {
    /// A refusal of kind `code`.
    pub fn new(code: Code, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
            rule: None,
            reason: None,
            line: None,
            column: None,
        }
    }

    /// The same refusal with a detail code.
    pub fn with_reason(mut self, reason: &'static str) -> Refusal {
        self.reason = Some(reason);
        self
    }

    /// Text that is not a position.
    pub fn position(text: &str, e: &oware_core::ParsePositionError) -> Refusal {
        Refusal::new(Code::InvalidPosition, format!("position {text:?}: {e}")).with_reason(e.code())
    }

    /// Text that is not a move or a move list (`what` names the field).
    pub fn moves(what: &str, text: &str, e: &oware_core::ParseMoveError) -> Refusal {
        Refusal::new(Code::InvalidMove, format!("{what} {text:?}: {e}")).with_reason(e.code())
    }

    /// An illegal move, naming the rule that forbids it.
    pub fn illegal(mv: Move, reason: oware_core::IllegalMove) -> Refusal {
        let mut r = Refusal::new(
            Code::IllegalMove,
            format!("illegal move {mv}: {reason} ({})", reason.rule()),
        )
        .with_reason(reason.code());
        r.rule = Some(reason.rule());
        r
    }

    /// An OGN record that cannot be read, with where and why.
    pub fn record(e: &oware_core::OgnError) -> Refusal {
        let mut r =
            Refusal::new(Code::InvalidRequest, format!("OGN: {e}")).with_reason(e.kind.code());
        r.line = Some(e.line);
        r.column = Some(e.column);
        if let oware_core::OgnErrorKind::Move(oware_core::GameError::Illegal { reason, .. }) =
            e.kind
        {
            r.rule = Some(reason.rule());
        }
        r
    }
}

impl From<oware_core::GameError> for Refusal {
    fn from(e: oware_core::GameError) -> Refusal {
        use oware_core::{GameError, IllegalMove};
        match e {
            GameError::Over => {
                Refusal::new(Code::GameOver, "the game is over").with_reason(e.code())
            }
            GameError::Illegal {
                mv,
                reason: IllegalMove::GameOver,
            } => Refusal::new(Code::GameOver, format!("move {mv}: the game is over"))
                .with_reason(e.code()),
            GameError::Illegal { mv, reason } => Refusal::illegal(mv, reason),
            GameError::NothingToUndo => {
                Refusal::new(Code::NotAllowed, "there is no move to undo").with_reason(e.code())
            }
        }
    }
}

impl From<crate::takeback::TakeBackError> for Refusal {
    fn from(e: crate::takeback::TakeBackError) -> Refusal {
        Refusal::new(Code::NotAllowed, e.to_string()).with_reason(e.code())
    }
}

impl From<crate::puzzles::AttemptError> for Refusal {
    fn from(e: crate::puzzles::AttemptError) -> Refusal {
        match e {
            crate::puzzles::AttemptError::NoMove => {
                Refusal::new(Code::InvalidRequest, "moves: no move was given")
            }
            crate::puzzles::AttemptError::Illegal { mv, reason } => Refusal::illegal(mv, reason),
        }
    }
}

/// A position field: `start` (the usual start) or a position string.
pub fn position(text: &str) -> Result<Position, Refusal> {
    if text == "start" {
        return Ok(Position::start());
    }
    text.parse().map_err(|e| Refusal::position(text, &e))
}

/// A language field: absent is English; `en` or `fr`, or the refusal.
pub fn lang(text: Option<&str>) -> Result<Lang, Refusal> {
    match text {
        None => Ok(Lang::En),
        Some(l) => Lang::parse(l).ok_or_else(|| {
            Refusal::new(
                Code::InvalidRequest,
                format!("lang: expected en or fr, not {l:?}"),
            )
        }),
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

/// Both stores of a position, South first.
pub fn stores(pos: &Position) -> [u8; 2] {
    [pos.store(Side::South), pos.store(Side::North)]
}

/// A game's result.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ResultView {
    /// Reason id (`captured_majority`, `resigned`, …: the core's).
    pub reason: String,
    /// Rule id, when a rule ended the game.
    pub rule: Option<String>,
    /// `S`, `N` or `draw`.
    pub winner: String,
    /// Final totals.
    pub totals: Totals,
    /// The reason in words (English; clients translate by `reason`).
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

/// The core's trace of ply `i` of `game`, if it was a move.
fn core_trace(game: &Game, i: usize) -> Option<MoveTrace> {
    match game.plies().get(i)? {
        Ply::Move(mv) => game.positions().get(i)?.trace(*mv).ok(),
        Ply::Pass => None,
    }
}

/// The trace of ply `i` of `game`, if it was a move.
pub fn trace_of(game: &Game, i: usize) -> Option<TraceView> {
    core_trace(game, i).map(|t| TraceView::from(&t))
}

/// A ply as sent: its move letter, or `-` for a turn lost to the per-move
/// limit (R13).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PlyText(pub Ply);

impl std::fmt::Display for PlyText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Ply::Move(m) => write!(f, "{m}"),
            Ply::Pass => f.write_str("-"),
        }
    }
}

impl Serialize for PlyText {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for PlyText {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<PlyText, D::Error> {
        let text = String::deserialize(d)?;
        parse_ply(&text)
            .map(PlyText)
            .ok_or_else(|| serde::de::Error::custom(format!("{text:?} is not a ply")))
    }
}

/// A ply's text back to a ply (`-` or `--` is a lost turn).
pub fn parse_ply(text: &str) -> Option<Ply> {
    if text == "-" || text == "--" {
        Some(Ply::Pass)
    } else {
        text.parse().ok().map(Ply::Move)
    }
}

/// The rules' view of a game: where it started, every ply, where it stands,
/// who moves and how, the last move's trace and the result. The server's
/// game view carries these fields (flattened), and so do the rules state
/// below and the browser module's `state` answer.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Play {
    /// Start position.
    pub start: Position,
    /// Every ply.
    pub plies: Vec<PlyText>,
    /// Number of plies.
    pub ply: u32,
    /// Seeds taken by each ply (0 for a lost turn), for move lists.
    pub captures: Vec<u8>,
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
}

/// The rules' view of `game`.
pub fn play(game: &Game) -> Play {
    let pos = game.position();
    let n = game.plies().len();
    let positions = game.positions();
    let captures = game
        .plies()
        .iter()
        .enumerate()
        .map(|(i, _)| {
            let (before, after) = (&positions[i], &positions[i + 1]);
            let mover = before.to_move();
            after.store(mover).saturating_sub(before.store(mover))
        })
        .collect();
    Play {
        start: *game.start(),
        plies: game.plies().iter().map(|&p| PlyText(p)).collect(),
        ply: n as u32,
        captures,
        position: *pos,
        to_move: pos.to_move(),
        legal: if game.is_over() {
            Vec::new()
        } else {
            game.legal_moves().into_iter().collect()
        },
        score: Totals::from(stores(pos)),
        last: n.checked_sub(1).and_then(|i| trace_of(game, i)),
        result: game.outcome().map(ResultView::from),
    }
}

/// Why a move is refused.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct MoveRefusal {
    /// The core's code (`empty_house`, `not_your_house`, `must_feed`,
    /// `game_over`), which clients translate.
    pub code: &'static str,
    /// In words (English).
    pub reason: String,
    /// Rule id.
    pub rule: &'static str,
}

/// What one house of the side to move would do.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct HousePreview {
    /// The move.
    #[serde(rename = "move")]
    pub mv: Move,
    /// Legal here.
    pub legal: bool,
    /// Why not, when illegal.
    pub refusal: Option<MoveRefusal>,
    /// Where the last seed lands (legal moves).
    pub last_house: Option<House>,
    /// Seeds it captures.
    pub captures: u8,
}

/// A text in English and French.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Texts {
    /// English.
    pub en: String,
    /// French.
    pub fr: String,
}

/// `playing` or `over`.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum PlayStatus {
    /// Moves can be played.
    Playing,
    /// The game has ended.
    Over,
}

/// The rules state of a game: [`Play`], with what the last move did in
/// words and a preview of every house of the side to move. The server's
/// `POST /api/v1/rules/state` and the browser module's `state` request
/// both answer it.
#[derive(Clone, Debug, Serialize)]
pub struct RulesState {
    /// The game as played.
    #[serde(flatten)]
    pub play: Play,
    /// `playing` or `over`.
    pub status: PlayStatus,
    /// The moves played, concatenated (lost turns left out).
    pub moves: String,
    /// What the last move did and why, from its trace ("F: the last seed
    /// lands in d and makes 5 there; only two or three are taken.").
    pub explained: Option<Texts>,
    /// One entry per house of the side to move.
    pub previews: Vec<HousePreview>,
}

/// What each house of the side to move would do (facts from the core's
/// trace, not advice: the advice is the coach's).
pub fn previews(game: &Game) -> Vec<HousePreview> {
    let pos = *game.position();
    pos.to_move()
        .houses()
        .map(|h| {
            let mv = Move::new(h);
            match coach::check(game, mv) {
                Err(r) => HousePreview {
                    mv,
                    legal: false,
                    refusal: Some(MoveRefusal {
                        code: r.code(),
                        reason: r.reason(Lang::En).to_string(),
                        rule: r.rule(),
                    }),
                    last_house: None,
                    captures: 0,
                },
                Ok(()) => {
                    let trace = pos.trace(mv).expect("checked legal");
                    let mover = pos.to_move();
                    HousePreview {
                        mv,
                        legal: true,
                        refusal: None,
                        last_house: Some(trace.last),
                        captures: trace.after.store(mover) - pos.store(mover),
                    }
                }
            }
        })
        .collect()
}

/// The rules state of `game`.
pub fn state(game: &Game) -> RulesState {
    let n = game.plies().len();
    RulesState {
        play: play(game),
        status: if game.is_over() {
            PlayStatus::Over
        } else {
            PlayStatus::Playing
        },
        moves: oware_core::format_moves(&game.moves().collect::<Vec<Move>>()),
        explained: n
            .checked_sub(1)
            .and_then(|i| core_trace(game, i))
            .map(|t| Texts {
                en: crate::lessons::explain(&t, Lang::En),
                fr: crate::lessons::explain(&t, Lang::Fr),
            }),
        previews: previews(game),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(start: &str, moves: &str) -> Game {
        let start = if start == "start" {
            Position::start()
        } else {
            start.parse().unwrap()
        };
        let mut g = Game::new(start);
        for c in moves.chars() {
            let p = parse_ply(&c.to_string()).unwrap();
            match p {
                Ply::Move(m) => {
                    g.play(m).unwrap();
                }
                Ply::Pass => g.pass().unwrap(),
            }
        }
        g
    }

    #[test]
    fn start_position_previews() {
        let s = state(&game("start", ""));
        assert_eq!(s.play.legal.len(), 6);
        assert_eq!(s.previews.len(), 6);
        assert_eq!(s.status, PlayStatus::Playing);
        // F from the start sows a..d: last seed in d, nothing taken.
        let f = &s.previews[5];
        assert_eq!(f.last_house.unwrap().to_string(), "d");
        assert_eq!(f.captures, 0);
        assert!(s.explained.is_none());
    }

    #[test]
    fn e2_capture_is_previewed_and_counted_per_ply() {
        // docs/RULES.md E2: F captures 2+2.
        let start = "0-0-0-0-0-2-1-1-0-0-4-0-20-20-S";
        let s = state(&game(start, ""));
        let f = s.previews.iter().find(|p| p.mv.letter() == 'F').unwrap();
        assert_eq!(f.captures, 4);
        let a = s.previews.iter().find(|p| p.mv.letter() == 'A').unwrap();
        assert!(!a.legal);
        let refusal = a.refusal.as_ref().unwrap();
        assert_eq!((refusal.rule, refusal.code), ("R3", "empty_house"));
        let after = play(&game(start, "F"));
        assert_eq!(after.captures, vec![4]);
        assert_eq!(after.last.unwrap().captured.len(), 2);
    }

    #[test]
    fn e9_must_feed() {
        let s = state(&game("3-0-0-0-0-1-0-0-0-0-0-0-22-22-S", ""));
        let legal: String = s.play.legal.iter().map(|m| m.to_string()).collect();
        assert_eq!(legal, "F");
        let refusal = s.previews[0].refusal.as_ref().unwrap();
        assert_eq!((refusal.rule, refusal.code), ("R8", "must_feed"));
    }

    #[test]
    fn the_last_move_is_explained_in_both_languages() {
        let e = state(&game("0-0-0-5-0-0-3-1-2-0-0-3-17-17-S", "D"))
            .explained
            .unwrap();
        assert_eq!(
            e.en,
            "D: the last seed lands in c and makes 3 there, so it is taken: c 3 + b 2, 5 seeds in all."
        );
        assert!(
            e.fr.starts_with("D\u{a0}: la dernière graine tombe en c"),
            "{}",
            e.fr
        );
    }

    #[test]
    fn a_lost_turn_takes_nothing_and_is_a_dash() {
        let p = play(&game("start", "F-"));
        assert_eq!(p.captures, vec![0, 0]);
        let json = serde_json::to_value(&p).unwrap();
        assert_eq!(json["plies"], serde_json::json!(["F", "-"]));
        assert!(p.last.is_none());
    }

    #[test]
    fn every_code_is_distinct_snake_case() {
        let mut seen = std::collections::BTreeSet::new();
        for c in Code::ALL {
            assert!(seen.insert(c.as_str()), "{c} twice");
            assert_eq!(serde_json::to_value(c).unwrap(), c.as_str());
        }
    }
}
