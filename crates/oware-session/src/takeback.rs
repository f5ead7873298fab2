//! Taking moves back: how far, and when it is refused.

use oware_core::{EndReason, Game, Move, Ply, Side};

use crate::Lang;

/// Why nothing can be taken back.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum TakeBackError {
    /// No ply has been played.
    #[error("there is no move to take back")]
    NothingToTakeBack,
    /// The player has not moved yet (e.g. the computer started and has
    /// played only its first move).
    #[error("there is no move of yours to take back")]
    NoMoveOfYours,
}

impl TakeBackError {
    /// A stable identifier: `nothing_to_take_back`, `no_move_of_yours`.
    pub fn code(self) -> &'static str {
        match self {
            TakeBackError::NothingToTakeBack => "nothing_to_take_back",
            TakeBackError::NoMoveOfYours => "no_move_of_yours",
        }
    }

    /// The refusal as a sentence.
    pub fn text(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (TakeBackError::NothingToTakeBack, Lang::En) => "There is no move to take back.",
            (TakeBackError::NothingToTakeBack, Lang::Fr) => "Il n'y a aucun coup à reprendre.",
            (TakeBackError::NoMoveOfYours, Lang::En) => "There is no move of yours to take back.",
            (TakeBackError::NoMoveOfYours, Lang::Fr) => "Vous n'avez encore joué aucun coup.",
        }
    }
}

/// What a take-back does to a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TakeBackPlan {
    /// The game ended off the board (agreement, resignation, time): reopen
    /// it, keeping every ply.
    Reopen,
    /// Undo this many plies (at least one).
    Plies(usize),
}

/// How to take back to `side`'s turn: the fewest plies (at least one) to
/// undo so that `side` is to move again, having taken back `side`'s own last
/// move. With `side` `None` (two people at one board) one ply. A game that
/// ended by agreement, resignation or on time is reopened instead.
///
/// ```
/// use oware_core::{parse_moves, Game, Position, Side};
/// use oware_session::{plan_take_back, TakeBackPlan};
/// let game = Game::from_moves(Position::start(), &parse_moves("FfB").unwrap()).unwrap();
/// // South played F and B, North f: back to South's turn is one ply, to North's two.
/// assert_eq!(plan_take_back(&game, Some(Side::South)), Ok(TakeBackPlan::Plies(1)));
/// assert_eq!(plan_take_back(&game, Some(Side::North)), Ok(TakeBackPlan::Plies(2)));
/// assert_eq!(plan_take_back(&game, None), Ok(TakeBackPlan::Plies(1)));
/// ```
pub fn plan_take_back(game: &Game, side: Option<Side>) -> Result<TakeBackPlan, TakeBackError> {
    if let Some(o) = game.outcome() {
        if matches!(
            o.reason,
            EndReason::Resignation | EndReason::Agreement | EndReason::Time
        ) {
            return Ok(TakeBackPlan::Reopen);
        }
    }
    let n = game.plies().len();
    if n == 0 {
        return Err(TakeBackError::NothingToTakeBack);
    }
    let Some(side) = side else {
        return Ok(TakeBackPlan::Plies(1));
    };
    let positions = game.positions();
    (1..=n)
        .find(|&k| positions[n - k].to_move() == side)
        .map(TakeBackPlan::Plies)
        .ok_or(TakeBackError::NoMoveOfYours)
}

/// What a take-back did.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum TakenBack {
    /// An ending off the board was taken back; the game goes on.
    Reopened,
    /// These plies were undone, in the order they had been played.
    Plies(Vec<Ply>),
}

impl TakenBack {
    /// The moves undone, in the order they had been played (turns lost on
    /// time left out).
    pub fn moves(&self) -> Vec<Move> {
        match self {
            TakenBack::Reopened => Vec::new(),
            TakenBack::Plies(p) => p
                .iter()
                .filter_map(|p| match p {
                    Ply::Move(m) => Some(*m),
                    Ply::Pass => None,
                })
                .collect(),
        }
    }

    /// "Took back B and a." / "Coups repris : B et a."
    pub fn text(&self, lang: Lang) -> String {
        match self {
            TakenBack::Reopened => lang
                .pick(
                    "Taken back: play on.",
                    "Fin annulée\u{a0}: la partie continue.",
                )
                .to_string(),
            TakenBack::Plies(_) => {
                let moves = self.moves();
                match lang {
                    Lang::En => format!("Took back {}.", crate::words::move_list(&moves, lang)),
                    Lang::Fr if moves.len() == 1 => {
                        format!(
                            "Coup repris\u{a0}: {}.",
                            crate::words::move_list(&moves, lang)
                        )
                    }
                    Lang::Fr => {
                        format!(
                            "Coups repris\u{a0}: {}.",
                            crate::words::move_list(&moves, lang)
                        )
                    }
                }
            }
        }
    }
}

/// [`plan_take_back`], then does it.
pub fn take_back(game: &mut Game, side: Option<Side>) -> Result<TakenBack, TakeBackError> {
    match plan_take_back(game, side)? {
        TakeBackPlan::Reopen => {
            game.reopen();
            Ok(TakenBack::Reopened)
        }
        TakeBackPlan::Plies(k) => {
            let mut plies = Vec::with_capacity(k);
            for _ in 0..k {
                match game.undo() {
                    Ok(p) => plies.push(p),
                    Err(_) => break,
                }
            }
            plies.reverse();
            Ok(TakenBack::Plies(plies))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oware_core::{parse_moves, Position};

    fn game(moves: &str) -> Game {
        Game::from_moves(Position::start(), &parse_moves(moves).unwrap()).unwrap()
    }

    #[test]
    fn back_to_the_persons_turn() {
        // The person plays South against the computer: F, f (reply).
        let mut g = game("Ff");
        let t = take_back(&mut g, Some(Side::South)).unwrap();
        assert_eq!(t.moves(), parse_moves("Ff").unwrap());
        assert!(g.plies().is_empty());
        assert_eq!(t.text(Lang::En), "Took back F and f.");
        assert_eq!(t.text(Lang::Fr), "Coups repris\u{a0}: F et f.");
        // The computer (South) started: a, then the person's f... back to
        // North's turn takes back f only.
        let mut g = game("Ff");
        let t = take_back(&mut g, Some(Side::North)).unwrap();
        assert_eq!(t.moves(), parse_moves("f").unwrap());
        assert_eq!(t.text(Lang::En), "Took back f.");
    }

    #[test]
    fn refusals() {
        assert_eq!(
            plan_take_back(&Game::new(Position::start()), None),
            Err(TakeBackError::NothingToTakeBack)
        );
        // Only the computer's first move: nothing of North's to take back.
        let g = game("F");
        assert_eq!(
            plan_take_back(&g, Some(Side::North)),
            Err(TakeBackError::NoMoveOfYours)
        );
        assert_eq!(TakeBackError::NoMoveOfYours.code(), "no_move_of_yours");
    }

    #[test]
    fn an_ending_off_the_board_is_reopened() {
        let mut g = game("FfB");
        g.resign(Side::South).unwrap();
        assert_eq!(
            plan_take_back(&g, Some(Side::South)),
            Ok(TakeBackPlan::Reopen)
        );
        assert_eq!(
            take_back(&mut g, Some(Side::South)),
            Ok(TakenBack::Reopened)
        );
        assert!(!g.is_over());
        assert_eq!(g.plies().len(), 3);
    }

    #[test]
    fn an_ending_on_the_board_is_undone() {
        // E8: North's f captures 5 and wins (R10); taking it back reopens.
        let start: Position = "1-2-0-1-0-0-0-0-0-0-0-2-21-21-N".parse().unwrap();
        let mut g = Game::from_moves(start, &parse_moves("f").unwrap()).unwrap();
        assert!(g.is_over());
        assert_eq!(
            plan_take_back(&g, Some(Side::North)),
            Ok(TakeBackPlan::Plies(1))
        );
        take_back(&mut g, Some(Side::North)).unwrap();
        assert!(!g.is_over());
    }
}
