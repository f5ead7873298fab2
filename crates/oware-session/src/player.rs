//! How messages name the players.

use oware_core::Side;

use crate::Lang;

/// A player as messages name them: "You" and "Computer" in a game against
/// the computer, the sides between two people.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Player {
    /// The person, against the computer.
    You,
    /// The computer.
    Computer,
    /// South, between two people.
    South,
    /// North, between two people.
    North,
}

impl Player {
    /// The player of `side` when the computer plays `computer` (`None`
    /// between two people).
    pub fn of(side: Side, computer: Option<Side>) -> Player {
        match computer {
            Some(c) if c == side => Player::Computer,
            Some(_) => Player::You,
            None => match side {
                Side::South => Player::South,
                Side::North => Player::North,
            },
        }
    }

    /// The name that starts a sentence: "You", "Computer", "South", "North";
    /// "Vous", "L'ordinateur", "Sud", "Nord".
    pub fn name(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (Player::You, Lang::En) => "You",
            (Player::Computer, Lang::En) => "Computer",
            (Player::South, Lang::En) => "South",
            (Player::North, Lang::En) => "North",
            (Player::You, Lang::Fr) => "Vous",
            (Player::Computer, Lang::Fr) => "L'ordinateur",
            (Player::South, Lang::Fr) => "Sud",
            (Player::North, Lang::Fr) => "Nord",
        }
    }

    /// The name inside a sentence ("vous", "l'ordinateur" in French).
    pub fn inner(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (Player::You, Lang::Fr) => "vous",
            (Player::Computer, Lang::Fr) => "l'ordinateur",
            _ => self.name(lang),
        }
    }

    /// True for the person addressed ("you"), whose French verbs take the
    /// second person plural.
    pub fn is_you(self) -> bool {
        self == Player::You
    }

    /// A French verb for this player: `vous` (second person plural) or
    /// `other` (third person singular).
    pub(crate) fn fr<'a>(self, vous: &'a str, other: &'a str) -> &'a str {
        if self.is_you() {
            vous
        } else {
            other
        }
    }
}

/// The name of a side: "South"/"North", "Sud"/"Nord".
pub fn side_name(side: Side, lang: Lang) -> &'static str {
    match (side, lang) {
        (Side::South, Lang::En) => "South",
        (Side::North, Lang::En) => "North",
        (Side::South, Lang::Fr) => "Sud",
        (Side::North, Lang::Fr) => "Nord",
    }
}
