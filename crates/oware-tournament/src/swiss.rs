//! Swiss tournaments: a fixed number of rounds, each paired from the
//! results so far by the FIDE Dutch system, with a bye when the number of
//! players is odd, and the standings with their tie-breaks.
//!
//! # Pairing
//!
//! [`pair_next_round`] follows the FIDE Dutch system (Handbook C.04.3):
//!
//! 1. Players are ranked by score, then by pairing number (the initial
//!    ranking: rating, then id).
//! 2. The absolute criteria hold for every pair: no rematch (C1), no second
//!    pairing-allocated bye (C2), no two players with the same absolute
//!    colour preference (C3: a colour difference beyond ±1, or the same
//!    colour in the last two games), and never a pair in `forbidden`.
//!    Unlike C.04.3, the topscorers of the last round are not exempt from
//!    C3, so nobody ever plays one colour three games running.
//! 3. With an odd number of players, the bye goes to a player of the lowest
//!    score group who has not had one, the one with the fewest unplayed
//!    rounds, then the lowest-ranked, provided the others can all be paired
//!    (as the 2025 rules' criteria C5 and C9 choose it).
//! 4. The largest score difference in a pair is the smallest with which
//!    everyone can be paired (this crate's reading of "minimise the score
//!    differences", applied to the round as a whole).
//! 5. Score brackets are paired from the top: the players moved down meet
//!    the residents in order, then the residents' S1 meets S2 through the
//!    transpositions and exchanges in the rules' order. The candidate kept
//!    is the first of the best on: completion of the rest (C4), fewest
//!    downfloaters (C5, C6), lowest scores floated down and smallest score
//!    differences (C7), fewest colour preferences missed (C10), fewest
//!    strong ones (C11), fewest floats repeated from the last round and
//!    from the round before (C12–C15). Completion is decided exactly by a
//!    maximum matching; the search of one bracket is bounded (2,000
//!    candidates), the best found then being kept.
//! 6. Colours by E1–E5: both preferences if they agree, else the stronger,
//!    else alternate from the last round in which the two had different
//!    colours, else the higher-ranked player's preference, else the
//!    higher-ranked player gets the initial colour, South, if their pairing
//!    number is odd. So in round 1 the top seed is South, and the top half
//!    meets the bottom half with colours alternating by board.
//!
//! A game forfeited is not a game here: the caller records the winner's
//! point as an [`Entry::Bye`] (as C2 treats a forfeit win) and the loser as
//! absent. Half-point byes are not modelled.
//!
//! # Standings
//!
//! Points: a win 1, a draw ½, the pairing-allocated bye 1, an absence 0.
//! Players are ranked by points, then Buchholz (the sum of the opponents'
//! points), then Sonneborn-Berger (the sum of the opponents' points, each
//! times the result against them), then the number of games won over the
//! board; players equal on all four share a rank.
//!
//! Unplayed rounds (the bye, an absence) follow the FIDE Tie-Break
//! Regulations (Handbook C.07, in force from 2023), article 16 on unplayed
//! rounds: the player is taken to have met a *dummy opponent* whose score
//! is the player's own final score, with the round's result (a bye a win,
//! an absence a loss). So a bye adds the player's own points to their
//! Buchholz and their own points times one to their Sonneborn-Berger, an
//! absence adds their own points to their Buchholz and nothing to their
//! Sonneborn-Berger. An opponent's points are counted as they stand,
//! byes included (C.07 2023 no longer counts an opponent's unplayed games
//! as draws, as the 2009 "virtual opponent" rule did).

use std::cmp::Reverse;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::{HalfPoints, Outcome, Pairing, PlayerId};

mod dutch;

/// An entrant. `rating` orders the initial ranking (ties by `id`);
/// a player who left (`active == false`) is not paired any more but keeps
/// their results.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub id: PlayerId,
    pub rating: i32,
    pub active: bool,
}

/// One line of a round as it was played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Entry {
    /// A game; `outcome` is `None` while it is being played.
    Game {
        south: PlayerId,
        north: PlayerId,
        outcome: Option<Outcome>,
    },
    /// The pairing-allocated bye (one point).
    Bye { player: PlayerId },
}

/// A round: its games and its bye. An active player in no entry was absent
/// (zero points for the round).
pub type Round = Vec<Entry>;

/// The next round's pairings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundPairing {
    pub games: Vec<Pairing>,
    pub bye: Option<PlayerId>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SwissError {
    #[error("round {round} still has a game in play")]
    RoundNotFinished { round: usize },
    #[error("player {0} is not an entrant")]
    UnknownPlayer(PlayerId),
    #[error("fewer than two active players")]
    TooFewPlayers,
    #[error("no pairing satisfies the absolute criteria")]
    NoPairing,
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub player: PlayerId,
    /// 1-based; players equal on points and every tie-break share a rank.
    pub rank: u32,
    pub points: HalfPoints,
    /// Sum of the opponents' points (see the module docs for byes).
    pub buchholz: HalfPoints,
    /// Sum over games of the opponent's points times the result, in
    /// quarter points (a win against 2½ adds 10, a draw adds 5).
    pub sonneborn_berger: u32,
    pub wins: u32,
}

/// Pairs the round after `played` (`played.len() + 1`), for a tournament
/// of `total_rounds` rounds. The pairs in `forbidden` (players who blocked
/// each other) are never paired, like players who already met (absolute
/// criterion C1). See the module docs for the rules applied; the number of
/// rounds does not change them (the last round's exceptions for topscorers
/// are not applied). Refuses a round with a game still in play, an entry
/// naming a stranger, fewer than two active players, and a round no
/// pairing can satisfy.
pub fn pair_next_round(
    players: &[Player],
    played: &[Round],
    total_rounds: u32,
    forbidden: &[(PlayerId, PlayerId)],
) -> Result<RoundPairing, SwissError> {
    // The topscorers' exemption from C3 in the last round is not applied
    // (see the module docs), so the number of rounds changes nothing yet.
    let _ = total_rounds;
    dutch::pair(players, played, forbidden)
}

/// A round paired by [`pair_round`], and whether the blocks had to be set
/// aside.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockedPairing {
    pub pairing: RoundPairing,
    /// No pairing could honour every block, so the round was paired as if
    /// nobody had blocked anyone.
    pub blocks_ignored: bool,
}

/// Pairs the next round honouring `blocks` (players who blocked each
/// other) when some pairing can, and otherwise as if there were none: a
/// block keeps two players apart, but no entrant can end a Swiss, or stall
/// it, by blocking the others (an entrant who blocks everyone would
/// otherwise make every round unpairable). The other refusals are
/// [`pair_next_round`]'s.
pub fn pair_round(
    players: &[Player],
    played: &[Round],
    total_rounds: u32,
    blocks: &[(PlayerId, PlayerId)],
) -> Result<BlockedPairing, SwissError> {
    if !blocks.is_empty() {
        match pair_next_round(players, played, total_rounds, blocks) {
            Ok(pairing) => {
                return Ok(BlockedPairing {
                    pairing,
                    blocks_ignored: false,
                })
            }
            Err(SwissError::NoPairing) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(BlockedPairing {
        pairing: pair_next_round(players, played, total_rounds, &[])?,
        blocks_ignored: !blocks.is_empty(),
    })
}

/// The standings after `played`, best first.
///
/// Points: a win 1, a draw ½, the bye 1, an absence 0. Games still in play
/// count for nothing yet (neither as played nor as unplayed rounds), and
/// entries naming a player who is not in `players` are ignored.
/// Order: points, Buchholz, Sonneborn-Berger, wins, then players equal on
/// all four share a rank (listed by initial ranking: rating, then id).
pub fn standings(players: &[Player], played: &[Round]) -> Vec<Standing> {
    let index: BTreeMap<PlayerId, usize> =
        players.iter().enumerate().map(|(i, p)| (p.id, i)).collect();
    let n = players.len();
    // Per player, per round: what happened (decided rounds only).
    let mut results: Vec<Vec<RoundResult>> = vec![Vec::new(); n];
    for round in played {
        let mut seen = vec![false; n];
        for entry in round {
            match *entry {
                Entry::Game {
                    south,
                    north,
                    outcome,
                } => {
                    let (Some(&s), Some(&o)) = (index.get(&south), index.get(&north)) else {
                        continue;
                    };
                    seen[s] = true;
                    seen[o] = true;
                    let Some(outcome) = outcome else { continue };
                    let (rs, rn) = match outcome {
                        Outcome::SouthWon => (2, 0),
                        Outcome::NorthWon => (0, 2),
                        Outcome::Draw => (1, 1),
                        Outcome::Void => (0, 0),
                    };
                    results[s].push(RoundResult::Game {
                        opponent: o,
                        result: rs,
                    });
                    results[o].push(RoundResult::Game {
                        opponent: s,
                        result: rn,
                    });
                }
                Entry::Bye { player } => {
                    if let Some(&p) = index.get(&player) {
                        seen[p] = true;
                        results[p].push(RoundResult::Unplayed { result: 2 });
                    }
                }
            }
        }
        for (p, seen) in seen.into_iter().enumerate() {
            if !seen {
                results[p].push(RoundResult::Unplayed { result: 0 });
            }
        }
    }
    let points: Vec<u32> = results
        .iter()
        .map(|r| r.iter().map(RoundResult::result).sum())
        .collect();
    let mut lines: Vec<Standing> = (0..n)
        .map(|p| {
            let mut buchholz = 0;
            let mut sonneborn_berger = 0;
            let mut wins = 0;
            for r in &results[p] {
                // The opponent's points; for an unplayed round the dummy
                // opponent, who has the player's own final points (C.07, 16).
                let opponent_points = match *r {
                    RoundResult::Game { opponent, .. } => points[opponent],
                    RoundResult::Unplayed { .. } => points[p],
                };
                buchholz += opponent_points;
                sonneborn_berger += opponent_points * r.result();
                if matches!(r, RoundResult::Game { result: 2, .. }) {
                    wins += 1;
                }
            }
            Standing {
                player: players[p].id,
                rank: 0,
                points: HalfPoints(points[p]),
                buchholz: HalfPoints(buchholz),
                sonneborn_berger,
                wins,
            }
        })
        .collect();
    let key = |s: &Standing| {
        (
            Reverse(s.points),
            Reverse(s.buchholz),
            Reverse(s.sonneborn_berger),
            Reverse(s.wins),
        )
    };
    let seed = |s: &Standing| {
        let p = &players[index[&s.player]];
        (Reverse(p.rating), p.id)
    };
    lines.sort_by(|a, b| key(a).cmp(&key(b)).then_with(|| seed(a).cmp(&seed(b))));
    for i in 0..lines.len() {
        lines[i].rank = if i > 0 && key(&lines[i]) == key(&lines[i - 1]) {
            lines[i - 1].rank
        } else {
            i as u32 + 1
        };
    }
    lines
}

/// One decided round of one player, in half points.
#[derive(Clone, Copy, Debug)]
enum RoundResult {
    Game {
        opponent: usize,
        result: u32,
    },
    /// A bye (2) or an absence (0).
    Unplayed {
        result: u32,
    },
}

impl RoundResult {
    fn result(&self) -> u32 {
        match *self {
            RoundResult::Game { result, .. } | RoundResult::Unplayed { result } => result,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(id: PlayerId, rating: i32) -> Player {
        Player {
            id,
            rating,
            active: true,
        }
    }

    fn game(south: PlayerId, north: PlayerId, outcome: Outcome) -> Entry {
        Entry::Game {
            south,
            north,
            outcome: Some(outcome),
        }
    }

    fn line(s: &[Standing], player: PlayerId) -> &Standing {
        s.iter().find(|l| l.player == player).unwrap()
    }

    /// Five players, two rounds, with a bye and an absence.
    /// Round 1: A–B 1–0, C–D ½–½, E has the bye.
    /// Round 2: A–C 0–1, B–E 1–0, D absent.
    #[test]
    fn five_players_with_a_bye_and_an_absence() {
        let (a, b, c, d, e) = (0, 1, 2, 3, 4);
        let players = [
            player(a, 2000),
            player(b, 1900),
            player(c, 1800),
            player(d, 1700),
            player(e, 1600),
        ];
        let played = vec![
            vec![
                game(a, b, Outcome::SouthWon),
                game(c, d, Outcome::Draw),
                Entry::Bye { player: e },
            ],
            vec![game(a, c, Outcome::NorthWon), game(b, e, Outcome::SouthWon)],
        ];
        let s = standings(&players, &played);
        // Points (half points): A 1+0 = 1 (2), B 0+1 = 1 (2), C ½+1 = 1½ (3),
        // D ½+0 (absent) = ½ (1), E 1 (bye)+0 = 1 (2).
        let points: Vec<_> = [a, b, c, d, e]
            .iter()
            .map(|&p| line(&s, p).points.0)
            .collect();
        assert_eq!(points, [2, 2, 3, 1, 2]);
        // Buchholz: A met B (2) and C (3): 5. B met A (2) and E (2): 4.
        // C met D (1) and A (2): 3. D met C (3), then was absent: the dummy
        // opponent has D's own 1: 4. E had the bye (dummy with E's own 2)
        // and met B (2): 4.
        let buchholz: Vec<_> = [a, b, c, d, e]
            .iter()
            .map(|&p| line(&s, p).buchholz.0)
            .collect();
        assert_eq!(buchholz, [5, 4, 3, 4, 4]);
        // Sonneborn-Berger in quarter points (opponent's half points times
        // the result in half points): A beat B 2×2 = 4, lost to C 0: 4.
        // B lost to A 0, beat E 2×2 = 4: 4. C drew D 1×1 = 1, beat A 2×2 = 4:
        // 5. D drew C 3×1 = 3, absent (a loss to the dummy) 0: 3. E's bye is
        // a win over the dummy with E's 2: 2×2 = 4, lost to B 0: 4.
        let sb: Vec<_> = [a, b, c, d, e]
            .iter()
            .map(|&p| line(&s, p).sonneborn_berger)
            .collect();
        assert_eq!(sb, [4, 4, 5, 3, 4]);
        // Wins over the board: A, B, C one each; the bye is not a game won.
        let wins: Vec<_> = [a, b, c, d, e].iter().map(|&p| line(&s, p).wins).collect();
        assert_eq!(wins, [1, 1, 1, 0, 0]);
        // Order: C (1½); then A, B, E on 1: A first on Buchholz (5 against
        // 4); B and E equal on Buchholz (4) and Sonneborn-Berger (4), B ahead
        // on wins (1 against 0); D last.
        let order: Vec<_> = s.iter().map(|l| (l.player, l.rank)).collect();
        assert_eq!(order, [(c, 1), (a, 2), (b, 3), (e, 4), (d, 5)]);
    }

    /// Equal on everything: both share first place, listed by rating.
    #[test]
    fn a_draw_between_two_shares_the_rank() {
        let players = [player(7, 1500), player(3, 1600)];
        let s = standings(&players, &[vec![game(7, 3, Outcome::Draw)]]);
        // Each: ½ point, Buchholz ½ (the other), SB ½×½ = 1 quarter, no win.
        assert_eq!(s[0].player, 3);
        assert_eq!(s[1].player, 7);
        for l in &s {
            assert_eq!(
                (l.rank, l.points.0, l.buchholz.0, l.sonneborn_berger, l.wins),
                (1, 1, 1, 1, 0)
            );
        }
    }

    /// A game in play counts for nothing yet, and is not an unplayed round.
    #[test]
    fn a_game_in_play_counts_for_nothing() {
        let players = [player(0, 1500), player(1, 1500), player(2, 1500)];
        let played = vec![vec![
            Entry::Game {
                south: 0,
                north: 1,
                outcome: None,
            },
            Entry::Bye { player: 2 },
        ]];
        let s = standings(&players, &played);
        // Player 2: the bye, 1 point; Buchholz is the dummy's 1 point (2
        // half points), SB 2×2 = 4. Players 0 and 1: nothing at all.
        assert_eq!(s[0].player, 2);
        assert_eq!(
            (s[0].points.0, s[0].buchholz.0, s[0].sonneborn_berger),
            (2, 2, 4)
        );
        for l in &s[1..] {
            assert_eq!((l.rank, l.points.0, l.buchholz.0), (2, 0, 0));
        }
        // Ties listed by rating, then id.
        assert_eq!(s[1].player, 0);
    }

    /// An entry naming a stranger is ignored rather than counted.
    #[test]
    fn strangers_are_ignored() {
        let players = [player(0, 1500), player(1, 1500)];
        let s = standings(
            &players,
            &[vec![
                game(0, 9, Outcome::SouthWon),
                game(1, 0, Outcome::Draw),
            ]],
        );
        assert_eq!(line(&s, 0).points.0, 1);
        assert_eq!(line(&s, 0).wins, 0);
    }
}
