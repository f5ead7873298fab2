//! A game as people play it: a person against the computer or two people
//! at one board, with take-back and replay, hints and the coach.

use std::sync::Arc;
use std::time::Duration;

use oware_core::{Game, Move, MoveTrace, Outcome, Position, Side};
use oware_engine::{Level, Limits, SearchResult};

use crate::analysis::{Analysis, Judgement};
use crate::coach::{self, Advice, Preview, Refusal};
use crate::player::Player;
use crate::takeback::{self, TakeBackError, TakenBack};
use crate::{Lang, ScoreKind};

/// Why a session action was refused.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum SessionError {
    /// The move cannot be played.
    #[error("{mv} cannot be played: {refusal}")]
    Refused {
        /// The move.
        mv: Move,
        /// Why.
        refusal: Refusal,
    },
    /// It is the computer's turn.
    #[error("it is the computer's turn")]
    NotYourTurn,
    /// Nothing can be taken back.
    #[error(transparent)]
    TakeBack(#[from] TakeBackError),
    /// No take-back to replay.
    #[error("there is nothing to replay")]
    NothingToRedo,
    /// Stopping by agreement (R12) is for two people at one board.
    #[error("stopping by agreement is for two people at one board")]
    AgreementNeedsTwoPeople,
    /// The game is over.
    #[error("the game is over")]
    GameOver,
}

impl SessionError {
    /// A stable identifier (the refusal's code for a refused move).
    pub fn code(self) -> &'static str {
        match self {
            SessionError::Refused { refusal, .. } => refusal.code(),
            SessionError::NotYourTurn => "not_your_turn",
            SessionError::TakeBack(e) => e.code(),
            SessionError::NothingToRedo => "nothing_to_redo",
            SessionError::AgreementNeedsTwoPeople => "agreement_needs_two_people",
            SessionError::GameOver => "game_over",
        }
    }

    /// The refusal as a sentence.
    pub fn text(self, lang: Lang) -> String {
        match self {
            SessionError::Refused { mv, refusal } => refusal.text(mv, lang),
            SessionError::NotYourTurn => lang
                .pick(
                    "The computer is thinking: wait for its move.",
                    "L'ordinateur réfléchit\u{a0}: attendez son coup.",
                )
                .to_string(),
            SessionError::TakeBack(e) => e.text(lang).to_string(),
            SessionError::NothingToRedo => lang
                .pick("There is nothing to replay.", "Il n'y a rien à rejouer.")
                .to_string(),
            SessionError::AgreementNeedsTwoPeople => lang
                .pick(
                    "Stopping by agreement is for two people at one board.",
                    "L'arrêt d'un commun accord se joue à deux sur le même plateau.",
                )
                .to_string(),
            SessionError::GameOver => lang
                .pick("The game is over.", "La partie est finie.")
                .to_string(),
        }
    }
}

/// The engine's suggestion for the position it was asked about.
#[derive(Clone, PartialEq, Debug)]
pub struct Hint {
    /// The move.
    pub mv: Move,
    /// Its value for the player to move.
    pub score: ScoreKind,
    /// The depth searched.
    pub depth: u32,
    ply: usize,
    position: Position,
}

impl Hint {
    /// "Hint: play B (you stand 1.5 seeds better, depth 12)."
    pub fn text(&self, lang: Lang) -> String {
        crate::words::hint(self.mv, self.score, self.depth, lang)
    }
}

/// A game between a person and the computer, or two people at one board.
#[derive(Clone, Debug)]
pub struct Session {
    game: Game,
    computer: Option<(Side, Level)>,
    redo: Vec<Vec<Move>>,
    hint: Option<Hint>,
    analysis: Option<Arc<Analysis>>,
}

impl Session {
    /// A session on `game`; `computer` is the computer's side and level, or
    /// `None` between two people.
    pub fn new(game: Game, computer: Option<(Side, Level)>) -> Session {
        Session {
            game,
            computer,
            redo: Vec::new(),
            hint: None,
            analysis: None,
        }
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The computer's side and level, if it plays.
    pub fn computer(&self) -> Option<(Side, Level)> {
        self.computer
    }

    /// The computer's side, if it plays.
    pub fn computer_side(&self) -> Option<Side> {
        self.computer.map(|(s, _)| s)
    }

    /// The side of the person at the keyboard (drawn at the bottom): the
    /// computer's opponent, South between two people.
    pub fn person_side(&self) -> Side {
        self.computer_side().map_or(Side::South, Side::opponent)
    }

    /// How messages name the player of `side`.
    pub fn player(&self, side: Side) -> Player {
        Player::of(side, self.computer_side())
    }

    /// The side to move.
    pub fn to_move(&self) -> Side {
        self.game.position().to_move()
    }

    /// True when a person chooses the next move.
    pub fn person_to_move(&self) -> bool {
        !self.game.is_over() && self.computer_side() != Some(self.to_move())
    }

    /// The computer's level when it is its turn.
    pub fn computer_to_move(&self) -> Option<Level> {
        match self.computer {
            Some((side, level)) if !self.game.is_over() && side == self.to_move() => Some(level),
            _ => None,
        }
    }

    /// The limits of the computer's search at its level; `seed` varies the
    /// weaker levels' choices.
    pub fn computer_limits(&self, seed: u64) -> Option<Limits> {
        let level = self.computer_to_move()?;
        Some(Limits {
            seed,
            ..Limits::level(level)
        })
    }

    /// The move the computer plays from its search: the best move, or the
    /// first legal one if the search found none.
    pub fn computer_move(&self, result: &SearchResult) -> Option<Move> {
        result
            .best
            .filter(|&m| self.game.legal_moves().contains(m))
            .or_else(|| self.game.legal_moves().into_iter().next())
    }

    /// Plays `mv` (a person's or the computer's move) with the full rules.
    /// Forgets the hint and what take-back had undone.
    pub fn play(&mut self, mv: Move) -> Result<MoveTrace, SessionError> {
        coach::check(&self.game, mv).map_err(|refusal| SessionError::Refused { mv, refusal })?;
        let trace = self
            .game
            .play_traced(mv)
            .map_err(|_| SessionError::GameOver)?;
        self.redo.clear();
        self.hint = None;
        Ok(trace)
    }

    /// Takes back to the person's turn: against the computer, the person's
    /// last move and the computer's replies to it; between two people, one
    /// ply. An ending off the board (agreement, resignation) is reopened.
    /// [`redo`](Self::redo) replays what was taken back.
    pub fn take_back(&mut self) -> Result<TakenBack, SessionError> {
        let side = self.computer_side().map(Side::opponent);
        let done = takeback::take_back(&mut self.game, side)?;
        let moves = done.moves();
        if !moves.is_empty() {
            self.redo.push(moves);
        }
        self.hint = None;
        Ok(done)
    }

    /// Replays the moves the last take-back undid.
    pub fn redo(&mut self) -> Result<Vec<Move>, SessionError> {
        let moves = self.redo.pop().ok_or(SessionError::NothingToRedo)?;
        let mut played = Vec::new();
        for &mv in &moves {
            if self.game.play(mv).is_err() {
                break;
            }
            played.push(mv);
        }
        self.hint = None;
        Ok(played)
    }

    /// True when a take-back can be replayed.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// The person resigns (between two people, the player to move).
    pub fn resign(&mut self) -> Result<Outcome, SessionError> {
        let side = match self.computer_side() {
            Some(c) => c.opponent(),
            None => self.to_move(),
        };
        self.hint = None;
        self.game.resign(side).map_err(|_| SessionError::GameOver)
    }

    /// The two people agree to stop (R12).
    pub fn agree(&mut self) -> Result<Outcome, SessionError> {
        if self.computer.is_some() {
            return Err(SessionError::AgreementNeedsTwoPeople);
        }
        self.hint = None;
        self.game
            .agree_to_stop()
            .map_err(|_| SessionError::GameOver)
    }

    /// The limits of a hint's search.
    pub fn hint_limits(movetime: Duration) -> Limits {
        Limits {
            movetime: Some(movetime),
            depth: Some(30),
            ..Limits::default()
        }
    }

    /// Takes the engine's answer to a hint request for the current
    /// position; `None` (and nothing kept) when it has no move, the
    /// position has changed since, or it is not a person's turn.
    pub fn accept_hint(&mut self, result: &SearchResult) -> Option<&Hint> {
        let mv = result.best?;
        if !self.person_to_move() || !self.game.legal_moves().contains(mv) {
            return None;
        }
        self.hint = Some(Hint {
            mv,
            score: ScoreKind::of(result.score),
            depth: result.depth,
            ply: self.game.plies().len(),
            position: *self.game.position(),
        });
        self.hint.as_ref()
    }

    /// The hint for the current position, if one was given for it.
    pub fn hint(&self) -> Option<&Hint> {
        self.hint
            .as_ref()
            .filter(|h| h.ply == self.game.plies().len() && h.position == *self.game.position())
    }

    /// Keeps `analysis` if it is of the current position (with its history
    /// since the last capture): from then on the hint is its best move and
    /// the coach's verdicts are its judgements, so they agree. Returns the
    /// hint, `None` (and nothing kept) for another position.
    pub fn accept_analysis(&mut self, analysis: Arc<Analysis>) -> Option<&Hint> {
        if !analysis.is_for(&self.game) || self.game.is_over() {
            return None;
        }
        let best = analysis.best();
        self.hint = Some(Hint {
            mv: best.mv,
            score: best.kind,
            depth: analysis.depth,
            ply: self.game.plies().len(),
            position: *self.game.position(),
        });
        self.analysis = Some(analysis);
        self.hint.as_ref()
    }

    /// The analysis of the current position, if one was accepted for it.
    pub fn analysis(&self) -> Option<&Arc<Analysis>> {
        self.analysis
            .as_ref()
            .filter(|a| a.is_for(&self.game) && !self.game.is_over())
    }

    /// The coach's judgement of `mv` from the current position's analysis
    /// (`None` until one is accepted, or for an illegal move).
    pub fn judge(&self, mv: Move) -> Option<Judgement> {
        self.analysis()?.judge(mv)
    }

    /// What `mv` would do.
    pub fn preview(&self, mv: Move) -> Result<Preview, Refusal> {
        coach::preview(&self.game, mv)
    }

    /// The capture coach's advice on `mv` (what the opponent can take in
    /// reply), in agreement with the hint: the hint's move is never warned
    /// about. The engine coach's verdict is [`judge`](Self::judge).
    pub fn advice(&self, mv: Move) -> Option<Advice> {
        coach::advice(&self.game, mv, self.hint().map(|h| h.mv))
    }

    /// The game, for a new session or saving; ends this one.
    pub fn into_game(self) -> Game {
        self.game
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oware_core::parse_moves;
    use oware_engine::Score;

    fn m(c: char) -> Move {
        Move::from_letter(c).unwrap()
    }

    fn result(best: Move, score: Score) -> SearchResult {
        SearchResult {
            best: Some(best),
            score,
            pv: vec![best],
            depth: 7,
            nodes: 1,
            elapsed: Duration::ZERO,
        }
    }

    #[test]
    fn take_back_and_redo_against_the_computer() {
        let mut s = Session::new(
            Game::new(Position::start()),
            Some((Side::North, Level::new(3))),
        );
        assert!(s.person_to_move());
        s.play(m('F')).unwrap();
        assert_eq!(s.computer_to_move(), Some(Level::new(3)));
        s.play(m('a')).unwrap();
        let t = s.take_back().unwrap();
        assert_eq!(t.moves(), parse_moves("Fa").unwrap());
        assert!(s.game().plies().is_empty());
        assert_eq!(s.redo().unwrap(), parse_moves("Fa").unwrap());
        assert_eq!(s.game().plies().len(), 2);
        assert_eq!(s.redo(), Err(SessionError::NothingToRedo));
        assert_eq!(s.agree(), Err(SessionError::AgreementNeedsTwoPeople));
        let e = s.play(m('a')).unwrap_err();
        assert_eq!(e.code(), "not_your_house");
        assert!(e.text(Lang::En).ends_with("belongs to the opponent."));
    }

    #[test]
    fn the_computer_started_and_nothing_of_yours_is_played() {
        let mut s = Session::new(
            Game::new(Position::start()),
            Some((Side::South, Level::new(3))),
        );
        assert_eq!(s.person_side(), Side::North);
        s.play(m('C')).unwrap();
        let e = s.take_back().unwrap_err();
        assert_eq!(e, SessionError::TakeBack(TakeBackError::NoMoveOfYours));
        assert_eq!(s.game().plies().len(), 1);
    }

    #[test]
    fn a_hint_holds_for_its_position_only() {
        // After D, North's f captures: D is warned about, until the engine
        // recommends it.
        let g = Game::new("1-2-0-1-0-0-0-0-0-0-0-2-21-21-S".parse().unwrap());
        let mut s = Session::new(g, None);
        assert!(s.advice(m('D')).unwrap().is_warning());
        let h = s
            .accept_hint(&result(m('D'), Score::heuristic(120)))
            .unwrap();
        assert_eq!(
            h.text(Lang::En),
            "Hint: play D (you stand 1.2 seeds better, depth 7)."
        );
        assert_eq!(
            h.text(Lang::Fr),
            "Conseil\u{a0}: jouez D (vous avez 1,2 graine d'avance, profondeur 7)."
        );
        assert_eq!(s.advice(m('D')).unwrap().code(), "sacrifice");
        // Another move is still warned about if it gives a capture; playing
        // forgets the hint.
        s.play(m('B')).unwrap();
        assert!(s.hint().is_none());
        // A hint for a move that is not legal, or on the other player's turn
        // against the computer, is not kept.
        let mut s = Session::new(
            Game::new(Position::start()),
            Some((Side::South, Level::new(1))),
        );
        assert!(s.accept_hint(&result(m('F'), Score::ZERO)).is_none());
    }
}
