//! Small `Copy` vocabulary types: sides, houses and moves.

use core::fmt;

/// One of the two players. South sits at the bottom of the diagram and owns
/// houses `A`–`F` (indices 0–5); North owns `a`–`f` (indices 6–11).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Side {
    /// The player of houses `A`–`F`.
    South = 0,
    /// The player of houses `a`–`f`.
    North = 1,
}

impl Side {
    /// Both sides, South first.
    pub const ALL: [Side; 2] = [Side::South, Side::North];

    /// The other player.
    #[inline]
    pub const fn opponent(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// 0 for South, 1 for North.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `'S'` or `'N'`, as in position strings.
    pub const fn letter(self) -> char {
        match self {
            Side::South => 'S',
            Side::North => 'N',
        }
    }

    /// Parses `'S'` or `'N'`.
    pub const fn from_letter(c: char) -> Option<Side> {
        match c {
            'S' => Some(Side::South),
            'N' => Some(Side::North),
            _ => None,
        }
    }

    /// The six houses of this side, in sowing order (A..F or a..f).
    pub fn houses(self) -> impl Iterator<Item = House> + Clone {
        let base = 6 * self as u8;
        (base..base + 6).map(House)
    }

    /// English name, lower case: `"south"` or `"north"`.
    pub const fn name(self) -> &'static str {
        match self {
            Side::South => "south",
            Side::North => "north",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::South => "South",
            Side::North => "North",
        })
    }
}

/// One of the twelve houses, by its index in sowing order (0–11).
///
/// ```text
///    f    e    d    c    b    a
///  [11] [10]  [9]  [8]  [7]  [6]
///   [0]  [1]  [2]  [3]  [4]  [5]
///    A    B    C    D    E    F
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct House(u8);

impl House {
    /// All twelve houses in sowing order.
    pub const ALL: [House; 12] = {
        let mut all = [House(0); 12];
        let mut i = 0;
        while i < 12 {
            all[i] = House(i as u8);
            i += 1;
        }
        all
    };

    /// The house with sowing index `index`, if it is below 12.
    pub const fn new(index: usize) -> Option<House> {
        if index < 12 {
            Some(House(index as u8))
        } else {
            None
        }
    }

    /// The house `rel` (0 = A/a … 5 = F/f) of `side`'s row, if `rel` < 6.
    pub const fn of(side: Side, rel: usize) -> Option<House> {
        if rel < 6 {
            Some(House((6 * side as usize + rel) as u8))
        } else {
            None
        }
    }

    /// Sowing index, 0–11.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Position within its owner's row: 0 for A/a … 5 for F/f.
    #[inline]
    pub const fn rel(self) -> usize {
        self.0 as usize % 6
    }

    /// The player whose row this house is in.
    #[inline]
    pub const fn owner(self) -> Side {
        if self.0 < 6 {
            Side::South
        } else {
            Side::North
        }
    }

    /// `A`–`F` for South's houses, `a`–`f` for North's.
    pub const fn letter(self) -> char {
        if self.0 < 6 {
            (b'A' + self.0) as char
        } else {
            (b'a' + self.0 - 6) as char
        }
    }

    /// The house named by a letter `A`–`F` or `a`–`f`.
    pub const fn from_letter(c: char) -> Option<House> {
        match c {
            'A'..='F' => Some(House(c as u8 - b'A')),
            'a'..='f' => Some(House(c as u8 - b'a' + 6)),
            _ => None,
        }
    }

    /// The next house counter-clockwise.
    pub const fn next(self) -> House {
        House((self.0 + 1) % 12)
    }
}

impl fmt::Display for House {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A move: the house that is emptied and sown. Its letter (`A`–`F` or
/// `a`–`f`) also names the side that plays it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Move(House);

impl Move {
    /// The move that sows from `house`.
    #[inline]
    pub const fn new(house: House) -> Move {
        Move(house)
    }

    /// The move of `side` from its house `rel` (0 = A/a … 5 = F/f).
    pub const fn of(side: Side, rel: usize) -> Option<Move> {
        match House::of(side, rel) {
            Some(h) => Some(Move(h)),
            None => None,
        }
    }

    /// The emptied house.
    #[inline]
    pub const fn house(self) -> House {
        self.0
    }

    /// The side whose move this is.
    #[inline]
    pub const fn side(self) -> Side {
        self.0.owner()
    }

    /// The move's letter.
    pub const fn letter(self) -> char {
        self.0.letter()
    }

    /// The move named by a letter `A`–`F` or `a`–`f`.
    pub const fn from_letter(c: char) -> Option<Move> {
        match House::from_letter(c) {
            Some(h) => Some(Move(h)),
            None => None,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A set of moves of one side, as a 6-bit mask (bit `i` = house `i` of the row).
///
/// Iterating yields the moves in house order (A..F or a..f).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct MoveSet {
    side: Side,
    mask: u8,
}

impl MoveSet {
    /// An empty set for `side`.
    pub const fn empty(side: Side) -> MoveSet {
        MoveSet { side, mask: 0 }
    }

    pub(crate) const fn from_mask(side: Side, mask: u8) -> MoveSet {
        MoveSet { side, mask }
    }

    /// The side whose moves these are.
    pub const fn side(self) -> Side {
        self.side
    }

    /// The 6-bit mask: bit `i` set when house `i` of the row (0 = A/a) is in the set.
    pub const fn mask(self) -> u8 {
        self.mask
    }

    /// Number of moves.
    #[inline]
    pub const fn len(self) -> usize {
        self.mask.count_ones() as usize
    }

    /// True when there is no move.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.mask == 0
    }

    /// True when `mv` is in the set.
    pub const fn contains(self, mv: Move) -> bool {
        mv.side() as u8 == self.side as u8 && self.mask & (1 << mv.house().rel()) != 0
    }

    /// The moves' letters concatenated, e.g. `"ABF"`.
    pub fn letters(self) -> String {
        self.into_iter().map(Move::letter).collect()
    }
}

impl IntoIterator for MoveSet {
    type Item = Move;
    type IntoIter = MoveSetIter;
    fn into_iter(self) -> MoveSetIter {
        MoveSetIter {
            base: 6 * self.side as u8,
            mask: self.mask,
        }
    }
}

/// Iterator over a [`MoveSet`].
#[derive(Clone, Debug)]
pub struct MoveSetIter {
    base: u8,
    mask: u8,
}

impl Iterator for MoveSetIter {
    type Item = Move;
    #[inline]
    fn next(&mut self) -> Option<Move> {
        if self.mask == 0 {
            return None;
        }
        let i = self.mask.trailing_zeros() as u8;
        self.mask &= self.mask - 1;
        Some(Move(House(self.base + i)))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.mask.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for MoveSetIter {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip() {
        for h in House::ALL {
            assert_eq!(House::from_letter(h.letter()), Some(h));
            assert_eq!(Move::from_letter(h.letter()).unwrap().house(), h);
        }
        assert_eq!(House::from_letter('g'), None);
        assert_eq!(House::from_letter('G'), None);
        assert_eq!(House::new(0).unwrap().letter(), 'A');
        assert_eq!(House::new(6).unwrap().letter(), 'a');
        assert_eq!(House::new(11).unwrap().owner(), Side::North);
    }

    #[test]
    fn move_set_iterates_in_order() {
        let set = MoveSet::from_mask(Side::North, 0b100101);
        assert_eq!(set.letters(), "acf");
        assert_eq!(set.len(), 3);
        assert!(set.contains(Move::from_letter('c').unwrap()));
        assert!(!set.contains(Move::from_letter('C').unwrap()));
    }
}
