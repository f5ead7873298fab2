//! Replaying a move list: always through `Game::from_moves`, so every move
//! is checked with the full rules (R9–R11 included).

use oware_core::{
    parse_moves, Game, GameError, Move, ParseMoveError, ParsePositionError, Position,
};

/// Why a start position and move list do not make a game.
#[derive(Clone, PartialEq, Debug, thiserror::Error)]
pub enum ReplayError {
    /// The position string does not parse.
    #[error("position {text:?}: {error}")]
    Position {
        /// The text given.
        text: String,
        /// Why it does not parse.
        error: ParsePositionError,
    },
    /// The move list does not parse.
    #[error("moves {text:?}: {error}")]
    Moves {
        /// The text given.
        text: String,
        /// Why it does not parse.
        error: ParseMoveError,
    },
    /// A move of the list cannot be played.
    #[error("move {number} of the list ({mv}): {error}", number = index + 1)]
    Move {
        /// Its index in the list (0-based).
        index: usize,
        /// The move.
        mv: Move,
        /// Why it cannot be played.
        error: GameError,
    },
}

impl ReplayError {
    /// A stable identifier: `invalid_position`, `invalid_move` (does not
    /// parse), `illegal_move` or `game_over`.
    pub fn code(&self) -> &'static str {
        match self {
            ReplayError::Position { .. } => "invalid_position",
            ReplayError::Moves { .. } => "invalid_move",
            ReplayError::Move {
                error: GameError::Over,
                ..
            } => "game_over",
            ReplayError::Move { .. } => "illegal_move",
        }
    }
}

/// The game `moves` make from `start`.
///
/// ```
/// use oware_core::{parse_moves, Position};
/// let game = oware_session::replay(Position::start(), &parse_moves("FfB").unwrap()).unwrap();
/// assert_eq!(game.plies().len(), 3);
/// let err = oware_session::replay(Position::start(), &parse_moves("FF").unwrap()).unwrap_err();
/// assert_eq!(err.code(), "illegal_move");
/// ```
pub fn replay(start: Position, moves: &[Move]) -> Result<Game, ReplayError> {
    Game::from_moves(start, moves).map_err(|(index, error)| ReplayError::Move {
        index,
        mv: moves[index],
        error,
    })
}

/// The game of a position string (the standard start when `None`) and a
/// move list (`FfBe`, spaces allowed; none when `None`).
pub fn replay_text(position: Option<&str>, moves: Option<&str>) -> Result<Game, ReplayError> {
    let start = match position {
        None => Position::start(),
        Some(text) => text.parse().map_err(|error| ReplayError::Position {
            text: text.to_string(),
            error,
        })?,
    };
    let moves = match moves {
        None => Vec::new(),
        Some(text) => parse_moves(text).map_err(|error| ReplayError::Moves {
            text: text.to_string(),
            error,
        })?,
    };
    replay(start, &moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_say_which_move() {
        let e = replay_text(None, Some("FfF")).unwrap_err();
        assert_eq!(e.code(), "illegal_move");
        assert!(e.to_string().starts_with("move 3 of the list (F)"), "{e}");
        assert_eq!(
            replay_text(Some("4-4"), None).unwrap_err().code(),
            "invalid_position"
        );
        assert_eq!(
            replay_text(None, Some("Fz")).unwrap_err().code(),
            "invalid_move"
        );
        // E10 is over at once: any move is refused as game_over.
        let e = replay_text(Some("1-0-0-0-1-0-0-0-0-0-0-0-23-23-S"), Some("A")).unwrap_err();
        assert_eq!(e.code(), "game_over");
        assert_eq!(replay_text(None, None).unwrap().plies().len(), 0);
    }
}
