//! Text formats: position strings (`4-4-4-4-4-4-4-4-4-4-4-4-0-0-S`), move
//! letters and move lists (`FfBe` or `F f B e`).

use core::fmt;
use core::str::FromStr;

use crate::game::Ply;
use crate::position::{Position, PositionError, Setup};
use crate::types::{Move, Side};

/// What is wrong with a position string. Columns count characters from 1.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ParsePositionError {
    /// Not 15 fields separated by `-`.
    FieldCount {
        /// Fields found.
        found: usize,
    },
    /// A house or store field is not a number from 0 to 48.
    BadCount {
        /// Which field (1-based; 1–12 houses, 13 South's store, 14 North's store).
        field: usize,
        /// Column of the field's first character.
        column: usize,
        /// The field's text.
        text: String,
    },
    /// The last field is not `S` or `N`.
    BadSide {
        /// Column of the field's first character.
        column: usize,
        /// The field's text.
        text: String,
    },
    /// The fields parse but do not make a valid position.
    Invalid(PositionError),
}

impl ParsePositionError {
    /// A stable machine-readable code (`field_count`, `bad_count`,
    /// `bad_side`, `wrong_total`), for clients that translate errors.
    pub const fn code(&self) -> &'static str {
        match self {
            ParsePositionError::FieldCount { .. } => "field_count",
            ParsePositionError::BadCount { .. } => "bad_count",
            ParsePositionError::BadSide { .. } => "bad_side",
            ParsePositionError::Invalid(e) => e.code(),
        }
    }
}

fn field_name(field: usize) -> String {
    match field {
        1..=12 => format!(
            "house {}",
            crate::types::House::new(field - 1)
                .map(|h| h.letter())
                .unwrap_or('?')
        ),
        13 => "South's store".to_string(),
        14 => "North's store".to_string(),
        _ => format!("field {field}"),
    }
}

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParsePositionError::FieldCount { found } => write!(
                f,
                "a position string has 15 fields separated by '-' (12 houses, 2 stores, side to move), found {found}"
            ),
            ParsePositionError::BadCount { field, column, text } => write!(
                f,
                "{} (field {field}) at column {column}: expected a seed count from 0 to 48, found {text:?}",
                field_name(*field)
            ),
            ParsePositionError::BadSide { column, text } => {
                write!(f, "side to move (field 15) at column {column}: expected 'S' or 'N', found {text:?}")
            }
            ParsePositionError::Invalid(e) => write!(f, "invalid position: {e}"),
        }
    }
}

impl std::error::Error for ParsePositionError {}

impl From<PositionError> for ParsePositionError {
    fn from(e: PositionError) -> Self {
        ParsePositionError::Invalid(e)
    }
}

impl Setup {
    /// Parses a position string without checking the seed total.
    pub fn parse(text: &str) -> Result<Setup, ParsePositionError> {
        let text = text.trim();
        let fields: Vec<&str> = text.split('-').collect();
        if fields.len() != 15 {
            return Err(ParsePositionError::FieldCount {
                found: fields.len(),
            });
        }
        let mut setup = Setup::start();
        let mut column = 1;
        for (i, field) in fields.iter().enumerate() {
            if i < 14 {
                let count = parse_count(field).ok_or_else(|| ParsePositionError::BadCount {
                    field: i + 1,
                    column,
                    text: field.to_string(),
                })?;
                if i < 12 {
                    setup.houses[i] = count;
                } else {
                    setup.stores[i - 12] = count;
                }
            } else {
                let mut chars = field.chars();
                setup.to_move = match (chars.next(), chars.next()) {
                    (Some(c), None) => Side::from_letter(c),
                    _ => None,
                }
                .ok_or_else(|| ParsePositionError::BadSide {
                    column,
                    text: field.to_string(),
                })?;
            }
            column += field.chars().count() + 1;
        }
        Ok(setup)
    }
}

fn parse_count(field: &str) -> Option<u8> {
    if field.is_empty() || field.len() > 2 || !field.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u8 = field.parse().ok()?;
    (n <= 48).then_some(n)
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for n in self.houses {
            write!(f, "{n}-")?;
        }
        write!(
            f,
            "{}-{}-{}",
            self.stores[0],
            self.stores[1],
            self.to_move.letter()
        )
    }
}

impl fmt::Display for Position {
    /// The position string, e.g. `4-4-4-4-4-4-4-4-4-4-4-4-0-0-S`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.setup().fmt(f)
    }
}

impl FromStr for Position {
    type Err = ParsePositionError;
    fn from_str(s: &str) -> Result<Position, ParsePositionError> {
        Ok(Position::from_setup(Setup::parse(s)?)?)
    }
}

impl FromStr for Setup {
    type Err = ParsePositionError;
    fn from_str(s: &str) -> Result<Setup, ParsePositionError> {
        Setup::parse(s)
    }
}

/// A character that is not a move letter, or an empty move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ParseMoveError {
    /// A character other than `A`–`F`, `a`–`f` or white space.
    BadLetter {
        /// The character.
        found: char,
        /// Column (1-based, in characters).
        column: usize,
    },
    /// An empty string where one move was expected.
    Empty,
    /// More than one letter where one move was expected.
    TooLong {
        /// The text.
        text: String,
    },
}

impl ParseMoveError {
    /// A stable machine-readable code (`bad_letter`, `empty`, `too_long`),
    /// for clients that translate errors.
    pub const fn code(&self) -> &'static str {
        match self {
            ParseMoveError::BadLetter { .. } => "bad_letter",
            ParseMoveError::Empty => "empty",
            ParseMoveError::TooLong { .. } => "too_long",
        }
    }
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseMoveError::BadLetter { found, column } => {
                write!(
                    f,
                    "expected a move letter A-F or a-f at column {column}, found {found:?}"
                )
            }
            ParseMoveError::Empty => {
                f.write_str("expected a move letter A-F or a-f, found nothing")
            }
            ParseMoveError::TooLong { text } => {
                write!(f, "expected one move letter A-F or a-f, found {text:?}")
            }
        }
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let t = s.trim();
        let mut chars = t.chars();
        match (chars.next(), chars.next()) {
            (None, _) => Err(ParseMoveError::Empty),
            (Some(c), None) => Move::from_letter(c).ok_or(ParseMoveError::BadLetter {
                found: c,
                column: 1,
            }),
            _ => Err(ParseMoveError::TooLong {
                text: t.to_string(),
            }),
        }
    }
}

/// Parses a move list: letters concatenated (`FfBe`) or separated by white
/// space (`F f B e`), or both. Does not check legality.
pub fn parse_moves(text: &str) -> Result<Vec<Move>, ParseMoveError> {
    let mut moves = Vec::new();
    for (i, c) in text.chars().enumerate() {
        if c.is_whitespace() {
            continue;
        }
        moves.push(Move::from_letter(c).ok_or(ParseMoveError::BadLetter {
            found: c,
            column: i + 1,
        })?);
    }
    Ok(moves)
}

/// Parses a ply list: move letters as in [`parse_moves`], and `-` for a
/// turn lost to the per-move time limit (R13), as in `"Ff-B"`.
pub fn parse_plies(text: &str) -> Result<Vec<Ply>, ParseMoveError> {
    let mut plies = Vec::new();
    for (i, c) in text.chars().enumerate() {
        if c.is_whitespace() {
            continue;
        }
        if c == '-' {
            plies.push(Ply::Pass);
            continue;
        }
        plies.push(Ply::Move(Move::from_letter(c).ok_or(
            ParseMoveError::BadLetter {
                found: c,
                column: i + 1,
            },
        )?));
    }
    Ok(plies)
}

/// Writes a move list in the concatenated form (`FfBe`).
pub fn format_moves(moves: &[Move]) -> String {
    moves.iter().map(|m| m.letter()).collect()
}

/// A text diagram of the position, South at the bottom, as in docs/RULES.md.
///
/// ```text
///            North  captured 0
///    f    e    d    c    b    a
///  [ 4] [ 4] [ 4] [ 4] [ 4] [ 4]
///  [ 4] [ 4] [ 4] [ 4] [ 4] [ 4]
///    A    B    C    D    E    F
///            South  captured 0
/// ```
pub fn diagram(pos: &Position) -> String {
    use crate::types::House;
    let mut s = String::new();
    let mark = |side: Side| {
        if pos.to_move() == side {
            "  <- to move"
        } else {
            ""
        }
    };
    s.push_str(&format!(
        "          North  captured {:>2}{}\n",
        pos.store(Side::North),
        mark(Side::North)
    ));
    s.push_str("   f    e    d    c    b    a\n");
    for rel in (0..6).rev() {
        s.push_str(&format!(
            " [{:>2}]",
            pos.seeds(House::of(Side::North, rel).unwrap())
        ));
    }
    s.push('\n');
    for rel in 0..6 {
        s.push_str(&format!(
            " [{:>2}]",
            pos.seeds(House::of(Side::South, rel).unwrap())
        ));
    }
    s.push('\n');
    s.push_str("   A    B    C    D    E    F\n");
    s.push_str(&format!(
        "          South  captured {:>2}{}\n",
        pos.store(Side::South),
        mark(Side::South)
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ply_lists_hold_lost_turns() {
        let plies = parse_plies("Ff - B").unwrap();
        assert_eq!(plies.len(), 4);
        assert_eq!(plies[2], Ply::Pass);
        assert_eq!(plies[3], Ply::Move("B".parse().unwrap()));
        assert_eq!(
            parse_plies("F+").unwrap_err(),
            ParseMoveError::BadLetter {
                found: '+',
                column: 2
            }
        );
        // R13: North loses its turn, so South moves again.
        let g = crate::Game::from_plies(Position::start(), &parse_plies("F-").unwrap()).unwrap();
        assert_eq!(g.position().to_move(), Side::South);
    }

    #[test]
    fn start_round_trip() {
        let p: Position = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S".parse().unwrap();
        assert_eq!(p, Position::start());
        assert_eq!(p.to_string(), "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S");
    }

    #[test]
    fn errors_name_the_problem() {
        let e = "4-4-4-4-4-4-4-4-4-4-4-4-0-0"
            .parse::<Position>()
            .unwrap_err();
        assert_eq!(e, ParsePositionError::FieldCount { found: 14 });
        let e = "4-4-4-4-4-4-x-4-4-4-4-4-0-0-S"
            .parse::<Position>()
            .unwrap_err();
        assert_eq!(
            e,
            ParsePositionError::BadCount {
                field: 7,
                column: 13,
                text: "x".into()
            }
        );
        assert!(e.to_string().contains("house a"), "{e}");
        let e = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-W"
            .parse::<Position>()
            .unwrap_err();
        assert_eq!(
            e,
            ParsePositionError::BadSide {
                column: 29,
                text: "W".into()
            }
        );
        let e = "4-4-4-4-4-4-4-4-4-4-4-5-0-0-S"
            .parse::<Position>()
            .unwrap_err();
        assert_eq!(
            e,
            ParsePositionError::Invalid(PositionError::WrongTotal { total: 49 })
        );
        let e = "4-4-4-4-4-4-4-4-4-4-4-49-0-0-S"
            .parse::<Position>()
            .unwrap_err();
        assert!(matches!(e, ParsePositionError::BadCount { field: 12, .. }));
        assert!("+4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"
            .parse::<Position>()
            .is_err());
    }

    #[test]
    fn move_lists() {
        let a = parse_moves("FfBe").unwrap();
        let b = parse_moves(" F f  B e ").unwrap();
        assert_eq!(a, b);
        assert_eq!(format_moves(&a), "FfBe");
        assert_eq!(
            parse_moves("Fg"),
            Err(ParseMoveError::BadLetter {
                found: 'g',
                column: 2
            })
        );
        assert_eq!("".parse::<Move>(), Err(ParseMoveError::Empty));
        assert!("AB".parse::<Move>().is_err());
    }
}
