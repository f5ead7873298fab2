//! Positions, moves, traces, games, outcomes, OGN records and perft: thin
//! wrappers of `oware-core`, which alone applies the rules.

use std::str::FromStr;

use oware_core::{
    EndReason, Game, House, Move, MoveSet, MoveTrace, Outcome, Ply, Position, Record, Setup, Side,
};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::errors;

/// `"S"` or `"N"`.
pub fn side_str(side: Side) -> &'static str {
    match side {
        Side::South => "S",
        Side::North => "N",
    }
}

/// A side from `"S"`/`"N"` (also `"south"`/`"north"`, any case) or 0/1.
pub fn side_arg(obj: &Bound<'_, PyAny>) -> PyResult<Side> {
    if let Ok(s) = obj.extract::<String>() {
        return match s.to_ascii_lowercase().as_str() {
            "s" | "south" => Ok(Side::South),
            "n" | "north" => Ok(Side::North),
            _ => Err(errors::bad_argument(
                "bad_side",
                format!("expected a side 'S' or 'N', found {s:?}"),
            )),
        };
    }
    match obj.extract::<i64>() {
        Ok(0) => Ok(Side::South),
        Ok(1) => Ok(Side::North),
        Ok(n) => Err(errors::bad_argument(
            "bad_side",
            format!("expected a side 0 (South) or 1 (North), found {n}"),
        )),
        Err(_) => Err(PyTypeError::new_err(
            "a side is 'S', 'N', 0 or 1".to_string(),
        )),
    }
}

/// A move from its letter (`"A"`–`"F"`, `"a"`–`"f"`) or its house's sowing
/// index 0–11.
pub fn move_arg(obj: &Bound<'_, PyAny>) -> PyResult<Move> {
    if let Ok(s) = obj.extract::<String>() {
        return Move::from_str(&s).map_err(|e| errors::move_parse(&e));
    }
    match obj.extract::<i64>() {
        Ok(i) => House::new(usize::try_from(i).unwrap_or(usize::MAX))
            .map(Move::new)
            .ok_or_else(|| {
                errors::bad_argument(
                    "bad_house",
                    format!("expected a house index 0-11, found {i}"),
                )
            }),
        Err(_) => Err(PyTypeError::new_err(
            "a move is a letter 'A'-'F' / 'a'-'f' or a house index 0-11".to_string(),
        )),
    }
}

/// The move of the side to move from its house `action` (0 = A/a … 5 = F/f).
pub fn action_move(side: Side, action: i64) -> PyResult<Move> {
    usize::try_from(action)
        .ok()
        .and_then(|a| Move::of(side, a))
        .ok_or_else(|| {
            errors::bad_argument(
                "bad_action",
                format!("expected an action 0-5 (a house of the side to move), found {action}"),
            )
        })
}

/// The letters of a move set.
pub fn letters(set: MoveSet) -> Vec<String> {
    set.into_iter().map(|m| m.letter().to_string()).collect()
}

/// Actions (0–5) of a move set.
pub fn actions(set: MoveSet) -> Vec<u32> {
    set.into_iter().map(|m| m.house().rel() as u32).collect()
}

/// A position from a `Position`, a position string, or `None` (the start).
pub fn position_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Position> {
    let Some(obj) = obj else {
        return Ok(Position::start());
    };
    if obj.is_none() {
        return Ok(Position::start());
    }
    if let Ok(p) = obj.cast::<PyPosition>() {
        return Ok(p.get().pos);
    }
    if let Ok(s) = obj.extract::<String>() {
        return Position::from_str(&s).map_err(|e| errors::position_parse(&e));
    }
    Err(PyTypeError::new_err(
        "expected a Position, a position string or None".to_string(),
    ))
}

/// A game from a `Game` (its history is kept), a `Position`, a position
/// string or `None` (the start).
pub fn game_arg(obj: &Bound<'_, PyAny>) -> PyResult<Game> {
    if let Ok(g) = obj.cast::<PyGame>() {
        return Ok(g.borrow().game.clone());
    }
    Ok(Game::new(position_arg(Some(obj))?))
}

/// A position of Oware Abapa: twelve houses, two stores and the side to
/// move. Immutable; `play` returns a new position.
#[pyclass(name = "Position", module = "oware", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyPosition {
    pub pos: Position,
}

#[pymethods]
impl PyPosition {
    /// A position from its string (`4-4-4-4-4-4-4-4-4-4-4-4-0-0-S`); the
    /// start position without one.
    #[new]
    #[pyo3(signature = (text=None))]
    fn new(text: Option<&str>) -> PyResult<Self> {
        match text {
            None => Ok(PyPosition {
                pos: Position::start(),
            }),
            Some(t) => Position::from_str(t)
                .map(|pos| PyPosition { pos })
                .map_err(|e| errors::position_parse(&e)),
        }
    }

    /// The start position.
    #[staticmethod]
    fn start() -> Self {
        PyPosition {
            pos: Position::start(),
        }
    }

    /// A position from its houses (12 counts in sowing order A–F then a–f),
    /// stores (South, North) and side to move.
    #[staticmethod]
    #[pyo3(signature = (houses, stores=(0, 0), to_move=None))]
    fn from_houses(
        houses: Vec<u8>,
        stores: (u8, u8),
        to_move: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let houses: [u8; 12] = houses.try_into().map_err(|v: Vec<u8>| {
            errors::bad_argument(
                "bad_houses",
                format!("expected 12 house counts, found {}", v.len()),
            )
        })?;
        let to_move = match to_move {
            Some(s) => side_arg(s)?,
            None => Side::South,
        };
        let setup = Setup {
            houses,
            stores: [stores.0, stores.1],
            to_move,
        };
        Position::from_setup(setup)
            .map(|pos| PyPosition { pos })
            .map_err(|e| errors::position(&e))
    }

    fn __str__(&self) -> String {
        self.pos.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Position('{}')", self.pos)
    }

    fn __copy__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __deepcopy__<'py>(slf: PyRef<'py, Self>, _memo: &Bound<'py, PyAny>) -> PyRef<'py, Self> {
        slf
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let cls = py.get_type::<PyPosition>();
        (cls, (slf.get().pos.to_string(),)).into_pyobject(py)
    }

    /// Seeds in each house, in sowing order (A–F, then a–f).
    #[getter]
    fn houses<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.pos.setup().houses.map(u32::from))
    }

    /// Captured seeds: (South, North).
    #[getter]
    fn stores(&self) -> (u8, u8) {
        (self.pos.store(Side::South), self.pos.store(Side::North))
    }

    /// The side to move: `"S"` or `"N"`.
    #[getter]
    // The Python attribute's name, not a conversion.
    #[allow(clippy::wrong_self_convention)]
    fn to_move(&self) -> &'static str {
        side_str(self.pos.to_move())
    }

    /// Seeds in one house, named by letter or sowing index.
    fn seeds(&self, house: &Bound<'_, PyAny>) -> PyResult<u8> {
        Ok(self.pos.seeds(move_arg(house)?.house()))
    }

    /// Captured seeds of one side.
    fn store(&self, side: &Bound<'_, PyAny>) -> PyResult<u8> {
        Ok(self.pos.store(side_arg(side)?))
    }

    /// Seeds on the board (not captured).
    #[getter]
    fn seeds_on_board(&self) -> u8 {
        self.pos.seeds_on_board()
    }

    /// True when the stores decide the game (25 or more, or 24-24, R10).
    #[getter]
    fn is_decided(&self) -> bool {
        self.pos.is_decided()
    }

    /// The legal moves' letters, in house order (R3, R8). Empty when the
    /// position is decided or the mover cannot feed (R9).
    fn legal_moves(&self) -> Vec<String> {
        letters(self.pos.legal_moves())
    }

    /// The legal moves as actions 0–5 (house of the mover's row, 0 = A/a).
    fn legal_actions(&self) -> Vec<u32> {
        actions(self.pos.legal_moves())
    }

    /// The legal moves as a 6-bit mask (bit i: action i is legal).
    #[getter]
    fn legal_mask(&self) -> u8 {
        self.pos.legal_moves().mask()
    }

    /// True when the move (letter or house index) is legal here.
    fn is_legal(&self, mv: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.pos.is_legal(move_arg(mv)?))
    }

    /// The position after a move (letter or house index); raises
    /// `IllegalMoveError` for a move the rules forbid.
    fn play(&self, mv: &Bound<'_, PyAny>) -> PyResult<Self> {
        let mv = move_arg(mv)?;
        self.pos
            .try_play(mv)
            .map(|pos| PyPosition { pos })
            .map_err(|e| errors::illegal(e, mv.letter()))
    }

    /// The position after action 0–5 of the side to move.
    fn play_action(&self, action: i64) -> PyResult<Self> {
        let mv = action_move(self.pos.to_move(), action)?;
        self.pos
            .try_play(mv)
            .map(|pos| PyPosition { pos })
            .map_err(|e| errors::illegal(e, mv.letter()))
    }

    /// The move seed by seed: houses sown, captures, the cancelled grand slam.
    fn trace(&self, mv: &Bound<'_, PyAny>) -> PyResult<PyTrace> {
        let mv = move_arg(mv)?;
        self.pos
            .trace(mv)
            .map(PyTrace::from)
            .map_err(|e| errors::illegal(e, mv.letter()))
    }

    /// The same board with `side` to move.
    fn with_to_move(&self, side: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyPosition {
            pos: self.pos.with_side_to_move(side_arg(side)?),
        })
    }

    /// A text diagram of the board.
    fn diagram(&self) -> String {
        oware_core::diagram(&self.pos)
    }

    /// Move-path counts to `depth` plies from here (the GIL is released).
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let pos = self.pos;
        py.detach(move || oware_core::perft(&pos, depth))
    }
}

/// A move seed by seed, from `Position.trace` or `Game.play_traced`.
#[pyclass(name = "Trace", module = "oware", frozen, get_all)]
pub struct PyTrace {
    /// The move's letter.
    #[pyo3(name = "move")]
    pub mv: String,
    /// The houses that received a seed, in order (one letter per seed).
    pub sown: Vec<String>,
    /// The house of the last seed.
    pub last: String,
    /// Houses captured and the seeds taken from each, from the last house back.
    pub captured: Vec<(String, u8)>,
    /// True when a capture of the whole row was cancelled (R7).
    pub grand_slam: bool,
    /// The position after the move.
    pub after: PyPosition,
    /// Seeds captured by the move.
    pub captured_seeds: u8,
}

impl From<MoveTrace> for PyTrace {
    fn from(t: MoveTrace) -> Self {
        PyTrace {
            mv: t.mv.letter().to_string(),
            sown: t.sown.iter().map(|h| h.letter().to_string()).collect(),
            last: t.last.letter().to_string(),
            captured_seeds: t.captured_seeds(),
            captured: t
                .captured
                .iter()
                .map(|&(h, n)| (h.letter().to_string(), n))
                .collect(),
            grand_slam: t.grand_slam,
            after: PyPosition { pos: t.after },
        }
    }
}

#[pymethods]
impl PyTrace {
    fn __repr__(&self) -> String {
        format!(
            "Trace(move='{}', sown={}, last='{}', captured={:?}, grand_slam={})",
            self.mv,
            self.sown.concat(),
            self.last,
            self.captured,
            if self.grand_slam { "True" } else { "False" }
        )
    }
}

/// How a game ended: `reason` (`"majority"`, `"even-split"`, `"no-moves"`,
/// `"repetition"`, `"agreement"`, `"resignation"`, `"time"`), its `rule`,
/// final `totals` (South, North) and `winner` (`"S"`, `"N"` or `None`).
#[pyclass(name = "Outcome", module = "oware", frozen, get_all, eq)]
#[derive(Clone, PartialEq)]
pub struct PyOutcome {
    pub reason: &'static str,
    pub rule: Option<&'static str>,
    pub totals: (u8, u8),
    pub winner: Option<&'static str>,
}

impl From<&Outcome> for PyOutcome {
    fn from(o: &Outcome) -> Self {
        PyOutcome {
            reason: o.reason.as_str(),
            rule: o.reason.rule(),
            totals: (o.totals[0], o.totals[1]),
            winner: o.winner.map(side_str),
        }
    }
}

#[pymethods]
impl PyOutcome {
    /// +1 if South won, -1 if North won, 0 for a draw.
    #[getter]
    fn value(&self) -> i8 {
        match self.winner {
            Some("S") => 1,
            Some(_) => -1,
            None => 0,
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "Outcome(reason='{}', totals={:?}, winner={})",
            self.reason,
            self.totals,
            self.winner.map_or("None".to_string(), |w| format!("'{w}'"))
        )
    }
}

/// A game: its start, every ply and position, and how it ended under the
/// full rules (R9 no moves, R10 25 seeds or 24-24, R11 third occurrence of
/// a position since the last capture).
#[pyclass(name = "Game", module = "oware")]
#[derive(Clone)]
pub struct PyGame {
    pub game: Game,
}

fn ply_str(p: &Ply) -> String {
    match p {
        Ply::Move(m) => m.letter().to_string(),
        Ply::Pass => "--".to_string(),
    }
}

#[pymethods]
impl PyGame {
    /// A game from `start` (a Position, a position string, or the start
    /// position), after playing `moves` (a move list such as `"FfBe"`, or a
    /// sequence of letters / house indices).
    #[new]
    #[pyo3(signature = (start=None, moves=None))]
    fn new(start: Option<&Bound<'_, PyAny>>, moves: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let mut game = Game::new(position_arg(start)?);
        if let Some(moves) = moves {
            let list: Vec<Move> = if let Ok(s) = moves.extract::<String>() {
                oware_core::parse_moves(&s).map_err(|e| errors::move_parse(&e))?
            } else {
                let mut v = Vec::new();
                for item in moves.try_iter()? {
                    v.push(move_arg(&item?)?);
                }
                v
            };
            for mv in list {
                game.play(mv).map_err(|e| errors::game(&e))?;
            }
        }
        Ok(PyGame { game })
    }

    fn __repr__(&self) -> String {
        let moves: Vec<Move> = self.game.moves().collect();
        format!(
            "Game(start='{}', moves='{}')",
            self.game.start(),
            oware_core::format_moves(&moves)
        )
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// A copy of the game.
    fn copy(&self) -> Self {
        self.clone()
    }

    /// The game an OGN record makes (every move checked by the rules).
    #[staticmethod]
    fn from_ogn(text: &str) -> PyResult<Self> {
        Record::parse(text)
            .map(|r| PyGame {
                game: r.into_game(),
            })
            .map_err(|e| errors::ogn(&e))
    }

    /// Pickles as its OGN record, which keeps every ply and the outcome.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let from_ogn = py.get_type::<PyGame>().getattr("from_ogn")?;
        let text = Record::from_game(slf.borrow().game.clone(), &[]).write();
        (from_ogn, (text,)).into_pyobject(py)
    }

    fn __len__(&self) -> usize {
        self.game.plies().len()
    }

    /// The start position.
    #[getter]
    fn start(&self) -> PyPosition {
        PyPosition {
            pos: *self.game.start(),
        }
    }

    /// The current position.
    #[getter]
    fn position(&self) -> PyPosition {
        PyPosition {
            pos: *self.game.position(),
        }
    }

    /// Every position reached, the start first and the current one last.
    #[getter]
    fn positions(&self) -> Vec<PyPosition> {
        self.game
            .positions()
            .iter()
            .map(|&pos| PyPosition { pos })
            .collect()
    }

    /// The positions since the last capture (what R11 compares).
    #[getter]
    fn since_last_capture(&self) -> Vec<PyPosition> {
        self.game
            .since_last_capture()
            .iter()
            .map(|&pos| PyPosition { pos })
            .collect()
    }

    /// Every ply: a move letter, or `"--"` for a turn lost on time (R13).
    #[getter]
    fn plies(&self) -> Vec<String> {
        self.game.plies().iter().map(ply_str).collect()
    }

    /// The moves played as a move list (`"FfBe"`).
    #[getter]
    fn moves(&self) -> String {
        let moves: Vec<Move> = self.game.moves().collect();
        oware_core::format_moves(&moves)
    }

    /// The side to move: `"S"` or `"N"`.
    #[getter]
    fn to_move(&self) -> &'static str {
        side_str(self.game.position().to_move())
    }

    /// Legal moves' letters; empty once the game is over.
    fn legal_moves(&self) -> Vec<String> {
        letters(self.game.legal_moves())
    }

    /// Legal moves as actions 0–5 of the side to move.
    fn legal_actions(&self) -> Vec<u32> {
        actions(self.game.legal_moves())
    }

    /// Legal moves as a 6-bit mask.
    #[getter]
    fn legal_mask(&self) -> u8 {
        self.game.legal_moves().mask()
    }

    /// True once the game has ended.
    #[getter]
    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The outcome, once the game has ended.
    #[getter]
    fn outcome(&self) -> Option<PyOutcome> {
        self.game.outcome().map(PyOutcome::from)
    }

    /// Seeds captured by ply `i`.
    fn captured_by(&self, i: usize) -> PyResult<u8> {
        if i >= self.game.plies().len() {
            return Err(pyo3::exceptions::PyIndexError::new_err(format!(
                "ply {i} out of range: the game has {} plies",
                self.game.plies().len()
            )));
        }
        Ok(self.game.captured_by(i))
    }

    /// Plays a move (letter or house index) with the full rules; returns the
    /// seeds it captured.
    fn play(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<u8> {
        let mv = move_arg(mv)?;
        self.game.play(mv).map_err(|e| errors::game(&e))
    }

    /// Plays action 0–5 of the side to move; returns the seeds captured.
    fn play_action(&mut self, action: i64) -> PyResult<u8> {
        let mv = action_move(self.game.position().to_move(), action)?;
        self.game.play(mv).map_err(|e| errors::game(&e))
    }

    /// Plays a move and returns it seed by seed.
    fn play_traced(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<PyTrace> {
        let mv = move_arg(mv)?;
        self.game
            .play_traced(mv)
            .map(PyTrace::from)
            .map_err(|e| errors::game(&e))
    }

    /// The player to move overran the per-move time limit: the turn passes (R13).
    fn pass_turn(&mut self) -> PyResult<()> {
        self.game.pass().map_err(|e| errors::game(&e))
    }

    /// Takes back the last ply (reopening an ended game); returns it.
    fn undo(&mut self) -> PyResult<String> {
        self.game
            .undo()
            .map(|p| ply_str(&p))
            .map_err(|e| errors::game(&e))
    }

    /// The players agree to stop (R12).
    fn agree_to_stop(&mut self) -> PyResult<PyOutcome> {
        self.game
            .agree_to_stop()
            .map(|o| PyOutcome::from(&o))
            .map_err(|e| errors::game(&e))
    }

    /// `side` resigns.
    fn resign(&mut self, side: &Bound<'_, PyAny>) -> PyResult<PyOutcome> {
        let side = side_arg(side)?;
        self.game
            .resign(side)
            .map(|o| PyOutcome::from(&o))
            .map_err(|e| errors::game(&e))
    }

    /// `side` ran out of time on the clock.
    fn lose_on_time(&mut self, side: &Bound<'_, PyAny>) -> PyResult<PyOutcome> {
        let side = side_arg(side)?;
        self.game
            .lose_on_time(side)
            .map(|o| PyOutcome::from(&o))
            .map_err(|e| errors::game(&e))
    }

    /// The game as an OGN record, with optional tags (`South`, `Event`...).
    #[pyo3(signature = (tags=None))]
    fn to_ogn(&self, tags: Option<Vec<(String, String)>>) -> String {
        let tags = tags.unwrap_or_default();
        let refs: Vec<(&str, &str)> = tags.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
        Record::from_game(self.game.clone(), &refs).write()
    }
}

/// An OGN game record: tags, the annotated plies and the game they make.
#[pyclass(name = "Record", module = "oware")]
#[derive(Clone)]
pub struct PyRecord {
    pub record: Record,
}

#[pymethods]
impl PyRecord {
    /// Reads one game from OGN text (every move checked by the rules).
    #[staticmethod]
    fn parse(text: &str) -> PyResult<Self> {
        Record::parse(text)
            .map(|record| PyRecord { record })
            .map_err(|e| errors::ogn(&e))
    }

    /// A record of `game` with optional tags.
    #[staticmethod]
    #[pyo3(signature = (game, tags=None))]
    fn from_game(game: &PyGame, tags: Option<Vec<(String, String)>>) -> Self {
        let tags = tags.unwrap_or_default();
        let refs: Vec<(&str, &str)> = tags.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
        PyRecord {
            record: Record::from_game(game.game.clone(), &refs),
        }
    }

    /// The OGN text.
    fn write(&self) -> String {
        self.record.write()
    }

    fn __str__(&self) -> String {
        self.record.write()
    }

    fn __repr__(&self) -> String {
        format!(
            "Record(tags={:?}, plies={}, result='{}')",
            self.record.tags(),
            self.record.plies().len(),
            self.record.result_str()
        )
    }

    /// The tags other than Result, FEN, Termination and Winner, in order.
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in self.record.tags() {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// One tag's value (also Result, FEN, Termination, Winner).
    fn tag(&self, name: &str) -> Option<String> {
        self.record.tag(name)
    }

    /// Sets a tag.
    fn set_tag(&mut self, name: &str, value: &str) {
        self.record.set_tag(name, value)
    }

    /// The result as written in OGN (`"25-23"` or `"*"`).
    #[getter]
    fn result(&self) -> String {
        self.record.result_str()
    }

    /// The comments after each ply (`None` where there is none).
    #[getter]
    fn comments(&self) -> Vec<Option<String>> {
        self.record
            .plies()
            .iter()
            .map(|p| p.comment.clone())
            .collect()
    }

    /// The comment before the first move.
    #[getter]
    fn intro(&self) -> Option<String> {
        self.record.intro().map(str::to_string)
    }

    /// The game the record's plies make.
    #[getter]
    fn game(&self) -> PyGame {
        PyGame {
            game: self.record.game().clone(),
        }
    }
}

/// Reads one OGN game.
#[pyfunction]
pub fn read_ogn(text: &str) -> PyResult<PyRecord> {
    PyRecord::parse(text)
}

/// Reads every game of an OGN text.
#[pyfunction]
pub fn read_ogn_all(text: &str) -> PyResult<Vec<PyRecord>> {
    Record::parse_all(text)
        .map(|v| v.into_iter().map(|record| PyRecord { record }).collect())
        .map_err(|e| errors::ogn(&e))
}

/// Parses a move list (`"FfBe"` or `"F f B e"`) into letters, without
/// checking legality.
#[pyfunction]
pub fn parse_moves(text: &str) -> PyResult<Vec<String>> {
    oware_core::parse_moves(text)
        .map(|v| v.iter().map(|m| m.letter().to_string()).collect())
        .map_err(|e| errors::move_parse(&e))
}

/// Move-path counts to `depth` plies (the GIL is released).
#[pyfunction]
#[pyo3(signature = (depth, position=None))]
pub fn perft(py: Python<'_>, depth: u32, position: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
    let pos = position_arg(position)?;
    Ok(py.detach(move || oware_core::perft(&pos, depth)))
}

/// Perft per first move: a dict from move letter to count.
#[pyfunction]
#[pyo3(signature = (depth, position=None))]
pub fn divide<'py>(
    py: Python<'py>,
    depth: u32,
    position: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let pos = position_arg(position)?;
    let v = py.detach(move || oware_core::divide(&pos, depth));
    let d = PyDict::new(py);
    for (m, n) in v {
        d.set_item(m.letter().to_string(), n)?;
    }
    Ok(d)
}

/// The stable names of end reasons, in the order of their numeric codes
/// in the batch API.
pub const REASONS: [EndReason; 7] = EndReason::ALL;
