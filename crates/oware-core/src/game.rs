//! A whole game: the history R11 needs, and how the game ended (R9–R13).

use core::fmt;

use crate::position::{IllegalMove, MoveTrace, Position};
use crate::types::{Move, MoveSet, Side};

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum EndReason {
    /// A player captured 25 or more (R10).
    Majority,
    /// Both players captured 24 (R10).
    EvenSplit,
    /// The player to move had no legal move, the opponent's row being empty
    /// and impossible to feed (R9); each player took the seeds of their row.
    NoMoves,
    /// The same position occurred a third time since the last capture (R11);
    /// each player took the seeds of their row.
    Repetition,
    /// The players agreed to stop (R12); each took the seeds of their row.
    Agreement,
    /// A player resigned.
    Resignation,
    /// A player ran out of time on the clock.
    Time,
}

impl EndReason {
    /// Stable identifier used in JSON and OGN `Termination` tags.
    pub const fn as_str(self) -> &'static str {
        match self {
            EndReason::Majority => "majority",
            EndReason::EvenSplit => "even-split",
            EndReason::NoMoves => "no-moves",
            EndReason::Repetition => "repetition",
            EndReason::Agreement => "agreement",
            EndReason::Resignation => "resignation",
            EndReason::Time => "time",
        }
    }

    /// Every end reason, in a fixed order.
    pub const ALL: [EndReason; 7] = [
        EndReason::Majority,
        EndReason::EvenSplit,
        EndReason::NoMoves,
        EndReason::Repetition,
        EndReason::Agreement,
        EndReason::Resignation,
        EndReason::Time,
    ];

    /// Parses [`as_str`](Self::as_str).
    pub fn from_str_id(s: &str) -> Option<EndReason> {
        EndReason::ALL.into_iter().find(|r| r.as_str() == s)
    }

    /// The rule id in docs/RULES.md, where there is one.
    pub const fn rule(self) -> Option<&'static str> {
        match self {
            EndReason::Majority | EndReason::EvenSplit => Some("R10"),
            EndReason::NoMoves => Some("R9"),
            EndReason::Repetition => Some("R11"),
            EndReason::Agreement => Some("R12"),
            EndReason::Time => Some("R13"),
            EndReason::Resignation => None,
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndReason::Majority => "a player captured 25 seeds or more",
            EndReason::EvenSplit => "both players captured 24 seeds",
            EndReason::NoMoves => "the player to move could not feed the opponent",
            EndReason::Repetition => "the same position occurred three times",
            EndReason::Agreement => "the players agreed to stop",
            EndReason::Resignation => "a player resigned",
            EndReason::Time => "a player ran out of time",
        })
    }
}

/// The end of a game: why, the final totals and the winner.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    /// Why the game ended.
    pub reason: EndReason,
    /// Final totals, indexed by [`Side::index`] (South first).
    pub totals: [u8; 2],
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
}

impl Outcome {
    fn by_totals(reason: EndReason, totals: [u8; 2]) -> Outcome {
        let winner = match totals[0].cmp(&totals[1]) {
            core::cmp::Ordering::Greater => Some(Side::South),
            core::cmp::Ordering::Less => Some(Side::North),
            core::cmp::Ordering::Equal => None,
        };
        Outcome {
            reason,
            totals,
            winner,
        }
    }

    /// `"S"`, `"N"` or `"draw"`.
    pub fn winner_str(&self) -> &'static str {
        match self.winner {
            Some(Side::South) => "S",
            Some(Side::North) => "N",
            None => "draw",
        }
    }
}

/// One ply of a game: a move, or a turn lost to the per-move time limit (R13).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Ply {
    /// A move.
    Move(Move),
    /// The player to move overran the per-move time limit and lost the turn (R13).
    Pass,
}

/// Why an action on a [`Game`] was refused.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GameError {
    /// The game has ended.
    Over,
    /// The move is illegal here.
    Illegal {
        /// The move.
        mv: Move,
        /// Why.
        reason: IllegalMove,
    },
    /// Nothing to undo.
    NothingToUndo,
}

impl GameError {
    /// A stable machine-readable code (`game_over`, `nothing_to_undo`, or
    /// the illegal move's [`IllegalMove::code`]), for clients that
    /// translate errors.
    pub const fn code(&self) -> &'static str {
        match self {
            GameError::Over => "game_over",
            GameError::Illegal { reason, .. } => reason.code(),
            GameError::NothingToUndo => "nothing_to_undo",
        }
    }
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Over => f.write_str("the game is over"),
            GameError::Illegal { mv, reason } => {
                write!(f, "illegal move {mv}: {reason} ({})", reason.rule())
            }
            GameError::NothingToUndo => f.write_str("there is no move to undo"),
        }
    }
}

impl std::error::Error for GameError {}

/// A game in progress or finished: the start position, every ply, every
/// position reached, and the outcome once it has ended.
///
/// ```
/// use oware_core::{Game, Position, parse_moves};
/// let mut game = Game::new(Position::start());
/// for mv in parse_moves("FfBe").unwrap() {
///     game.play(mv).unwrap();
/// }
/// assert_eq!(game.plies().len(), 4);
/// assert!(game.outcome().is_none());
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Game {
    // positions[i] is the position before ply i; positions.len() == plies.len() + 1.
    positions: Vec<Position>,
    plies: Vec<Ply>,
    // Index into `positions` of the first position after the last capture.
    since_capture: usize,
    outcome: Option<Outcome>,
}

impl Game {
    /// A new game from `start` (the game may already be over there).
    pub fn new(start: Position) -> Game {
        let mut game = Game {
            positions: vec![start],
            plies: Vec::new(),
            since_capture: 0,
            outcome: None,
        };
        game.outcome = game.natural_end();
        game
    }

    /// A game from `start` after playing `moves`; the error gives the index
    /// of the first move that could not be played.
    pub fn from_moves(start: Position, moves: &[Move]) -> Result<Game, (usize, GameError)> {
        let mut game = Game::new(start);
        for (i, &mv) in moves.iter().enumerate() {
            game.play(mv).map_err(|e| (i, e))?;
        }
        Ok(game)
    }

    /// A game from `start` after playing `plies` (moves and turns lost to
    /// the per-move limit); the error gives the index of the first ply that
    /// could not be played.
    pub fn from_plies(start: Position, plies: &[Ply]) -> Result<Game, (usize, GameError)> {
        let mut game = Game::new(start);
        for (i, &ply) in plies.iter().enumerate() {
            match ply {
                Ply::Move(mv) => game.play(mv).map(|_| ()),
                Ply::Pass => game.pass(),
            }
            .map_err(|e| (i, e))?;
        }
        Ok(game)
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game always has a position")
    }

    /// Every position reached, the start first and the current one last.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// Every ply played.
    pub fn plies(&self) -> &[Ply] {
        &self.plies
    }

    /// The moves played, skipping turns lost on time.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.plies.iter().filter_map(|p| match p {
            Ply::Move(m) => Some(*m),
            Ply::Pass => None,
        })
    }

    /// The positions since the last capture, the current one last: what R11
    /// compares, and the history an engine needs to see repetitions.
    pub fn since_last_capture(&self) -> &[Position] {
        &self.positions[self.since_capture..]
    }

    /// The outcome, once the game has ended.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// True once the game has ended.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The moves the player to move may play; empty once the game is over.
    pub fn legal_moves(&self) -> MoveSet {
        if self.is_over() {
            MoveSet::empty(self.position().to_move())
        } else {
            self.position().legal_moves()
        }
    }

    /// Seeds captured by ply `i` (0 for a pass).
    pub fn captured_by(&self, i: usize) -> u8 {
        let before = &self.positions[i];
        let after = &self.positions[i + 1];
        let side = before.to_move();
        after.store(side) - before.store(side)
    }

    /// Plays a move with the full rules, repetition included. Returns the
    /// seeds it captured.
    pub fn play(&mut self, mv: Move) -> Result<u8, GameError> {
        if self.is_over() {
            return Err(GameError::Over);
        }
        let before = *self.position();
        let after = before
            .try_play(mv)
            .map_err(|reason| GameError::Illegal { mv, reason })?;
        let captured = after.store(before.to_move()) - before.store(before.to_move());
        self.push(Ply::Move(mv), after, captured > 0);
        Ok(captured)
    }

    /// Plays a move and reports it seed by seed (for animation).
    pub fn play_traced(&mut self, mv: Move) -> Result<MoveTrace, GameError> {
        if self.is_over() {
            return Err(GameError::Over);
        }
        let trace = self
            .position()
            .trace(mv)
            .map_err(|reason| GameError::Illegal { mv, reason })?;
        self.push(Ply::Move(mv), trace.after, !trace.captured.is_empty());
        Ok(trace)
    }

    /// The player to move overran the per-move time limit and loses the turn
    /// (R13): the same board, the other player to move. If the opponent then
    /// has no legal move, the game ends as in R9.
    pub fn pass(&mut self) -> Result<(), GameError> {
        if self.is_over() {
            return Err(GameError::Over);
        }
        let pos = *self.position();
        self.push(
            Ply::Pass,
            pos.with_side_to_move(pos.to_move().opponent()),
            false,
        );
        Ok(())
    }

    fn push(&mut self, ply: Ply, after: Position, captured: bool) {
        self.plies.push(ply);
        self.positions.push(after);
        if captured {
            self.since_capture = self.positions.len() - 1;
        }
        self.outcome = self.natural_end();
    }

    /// The end the rules impose on the current position, if any (R9, R10, R11).
    fn natural_end(&self) -> Option<Outcome> {
        let pos = self.position();
        let stores = [pos.store(Side::South), pos.store(Side::North)];
        if pos.is_decided() {
            let reason = if stores == [24, 24] {
                EndReason::EvenSplit
            } else {
                EndReason::Majority
            };
            return Some(Outcome::by_totals(reason, stores));
        }
        if pos.legal_moves().is_empty() {
            return Some(Outcome::by_totals(
                EndReason::NoMoves,
                pos.totals_with_own_rows(),
            ));
        }
        if !pos.row_is_empty(Side::South) && !pos.row_is_empty(Side::North) {
            let key = pos.board_key();
            let count = self
                .since_last_capture()
                .iter()
                .filter(|p| p.board_key() == key)
                .count();
            if count >= 3 {
                return Some(Outcome::by_totals(
                    EndReason::Repetition,
                    pos.totals_with_own_rows(),
                ));
            }
        }
        None
    }

    /// The players agree to stop (R12): each takes the seeds of their row.
    pub fn agree_to_stop(&mut self) -> Result<Outcome, GameError> {
        self.end_with(Outcome::by_totals(
            EndReason::Agreement,
            self.position().totals_with_own_rows(),
        ))
    }

    /// `side` resigns: the opponent wins; the totals are the stores as they are.
    pub fn resign(&mut self, side: Side) -> Result<Outcome, GameError> {
        let pos = self.position();
        let totals = [pos.store(Side::South), pos.store(Side::North)];
        self.end_with(Outcome {
            reason: EndReason::Resignation,
            totals,
            winner: Some(side.opponent()),
        })
    }

    /// `side` ran out of time on the clock: the opponent wins; the totals are
    /// the stores as they are.
    pub fn lose_on_time(&mut self, side: Side) -> Result<Outcome, GameError> {
        let pos = self.position();
        let totals = [pos.store(Side::South), pos.store(Side::North)];
        self.end_with(Outcome {
            reason: EndReason::Time,
            totals,
            winner: Some(side.opponent()),
        })
    }

    /// Records an outcome decided outside the board (agreement, resignation,
    /// time), for reading game records. Refused once the game is over.
    pub fn set_outcome(&mut self, outcome: Outcome) -> Result<Outcome, GameError> {
        self.end_with(outcome)
    }

    fn end_with(&mut self, outcome: Outcome) -> Result<Outcome, GameError> {
        if self.is_over() {
            return Err(GameError::Over);
        }
        self.outcome = Some(outcome);
        Ok(outcome)
    }

    /// Takes back the last ply (also reopening a game that had ended).
    pub fn undo(&mut self) -> Result<Ply, GameError> {
        let ply = self.plies.pop().ok_or(GameError::NothingToUndo)?;
        self.positions.pop();
        if self.since_capture >= self.positions.len() {
            self.since_capture = (1..self.positions.len())
                .rev()
                .find(|&i| {
                    let side = self.positions[i - 1].to_move();
                    self.positions[i].store(side) > self.positions[i - 1].store(side)
                })
                .unwrap_or(0);
        }
        self.outcome = self.natural_end();
        Ok(ply)
    }

    /// Takes back an outcome that did not come from the board (an agreement,
    /// resignation or time loss), e.g. when a player takes back a resignation
    /// against the computer.
    pub fn reopen(&mut self) {
        self.outcome = self.natural_end();
    }
}
