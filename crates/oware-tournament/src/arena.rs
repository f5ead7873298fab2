//! Arena tournaments (as lichess runs them): for a fixed time, a player
//! who finishes a game waits to be paired again at once with a near-ranked
//! waiting player. A win scores 2, a draw 1, a loss 0; after two wins in a
//! row each game scores double until one is not won.

use std::cmp::Reverse;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::{Outcome, Pairing, PlayerId};

/// An arena game, in the order the games started.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    pub south: PlayerId,
    pub north: PlayerId,
    /// `None` while it is being played.
    pub outcome: Option<Outcome>,
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub player: PlayerId,
    /// 1-based, by score then by fewer games (see [`standings`]); equal
    /// players share a rank.
    pub rank: u32,
    pub score: u32,
    pub games: u32,
    /// On a streak: the next win scores double.
    pub on_fire: bool,
    /// Each finished game's points in order ("2", "4", "0", …), for the table.
    pub sheet: Vec<u32>,
}

/// The standings of `players` after `games` (finished games only count).
///
/// Each finished game scores, for each player, by the lichess arena rules:
/// a win 2, a draw 1, a loss 0, doubled (4, 2, 0) while the player is on
/// fire, that is after two wins in a row; any game not won ends the
/// streak. Ranked by score, then by points per game (fewer games for the
/// same score ranks higher: no ratings are needed, and the result is the
/// same whoever asks); players equal on both share a rank and are listed
/// in the order of `players`. Games of players not in `players` are
/// ignored.
pub fn standings(players: &[PlayerId], games: &[Game]) -> Vec<Standing> {
    let mut lines: Vec<Standing> = Vec::with_capacity(players.len());
    let mut index: BTreeMap<PlayerId, usize> = BTreeMap::new();
    for &p in players {
        if index.contains_key(&p) {
            continue;
        }
        index.insert(p, lines.len());
        lines.push(Standing {
            player: p,
            rank: 0,
            score: 0,
            games: 0,
            on_fire: false,
            sheet: Vec::new(),
        });
    }
    let mut streak = vec![0u32; lines.len()];
    for game in games {
        let Some(outcome) = game.outcome else {
            continue;
        };
        let (south_result, north_result) = match outcome {
            Outcome::SouthWon => (2, 0),
            Outcome::NorthWon => (0, 2),
            Outcome::Draw => (1, 1),
            // Ended before each side moved: not a game.
            Outcome::Void => continue,
        };
        for (player, result) in [(game.south, south_result), (game.north, north_result)] {
            let Some(&i) = index.get(&player) else {
                continue;
            };
            let line = &mut lines[i];
            let points = if line.on_fire { result * 2 } else { result };
            line.score += points;
            line.games += 1;
            line.sheet.push(points);
            streak[i] = if result == 2 { streak[i] + 1 } else { 0 };
            line.on_fire = streak[i] >= 2;
        }
    }
    // Stable sort: ties keep the order of `players`.
    lines.sort_by_key(rank_key);
    for i in 0..lines.len() {
        lines[i].rank = if i > 0 && rank_key(&lines[i]) == rank_key(&lines[i - 1]) {
            lines[i - 1].rank
        } else {
            i as u32 + 1
        };
    }
    lines
}

/// Score first; for the same score, fewer games is better.
fn rank_key(s: &Standing) -> (Reverse<u32>, u32) {
    (Reverse(s.score), s.games)
}

/// Pairs the players in `waiting` (those not in a game and not paused),
/// given every game so far: near ranks together, no immediate rematch when
/// another pairing exists, and none at all while some game is still in
/// play (its players are about to wait too), South to whoever has had
/// South less. The pairs
/// in `forbidden` (players who blocked each other) are never paired. A
/// player left over keeps waiting. `ratings` breaks ties in rank (and
/// ranks players with no game yet).
///
/// The waiting players are sorted by rank (score, then fewer games, then
/// rating, a missing rating counting as lowest, then id). Among the
/// pairings that never pair a forbidden pair, the chosen one has, in this
/// order of priority: the most games; the fewest players meeting the
/// opponent of their last game; the smallest sum of rank distances
/// between partners; the lowest-ranked players left over. Within
/// [`PAIRING_WINDOW`] places of rank this choice is exact (a dynamic
/// programme over the rank order); partners further apart are not
/// considered. In each game South goes to the player who has had South
/// fewer times, then to the one who was North in their last game, then to
/// the higher-ranked.
pub fn pair(
    waiting: &[PlayerId],
    ratings: &[(PlayerId, i32)],
    games: &[Game],
    forbidden: &[(PlayerId, PlayerId)],
) -> Vec<Pairing> {
    let mut players: Vec<PlayerId> = Vec::with_capacity(waiting.len());
    for &p in waiting {
        if !players.contains(&p) {
            players.push(p);
        }
    }
    let table = standings(&players, games);
    let rating: BTreeMap<PlayerId, i32> = ratings.iter().copied().collect();
    let mut order: Vec<&Standing> = table.iter().collect();
    order.sort_by_key(|s| {
        (
            rank_key(s),
            Reverse(rating.get(&s.player).copied()),
            s.player,
        )
    });
    let order: Vec<PlayerId> = order.iter().map(|s| s.player).collect();

    // Each player's last opponent, South count and side in their last game
    // (games in play count: they started).
    let mut last: BTreeMap<PlayerId, (PlayerId, bool)> = BTreeMap::new();
    let mut souths: BTreeMap<PlayerId, u32> = BTreeMap::new();
    for g in games {
        last.insert(g.south, (g.north, true));
        last.insert(g.north, (g.south, false));
        *souths.entry(g.south).or_default() += 1;
    }
    let blocked = |a: PlayerId, b: PlayerId| {
        forbidden
            .iter()
            .any(|&(x, y)| (x, y) == (a, b) || (x, y) == (b, a))
    };
    let rematch = |a: PlayerId, b: PlayerId| {
        last.get(&a).is_some_and(|&(o, _)| o == b) || last.get(&b).is_some_and(|&(o, _)| o == a)
    };

    // While a game is in play, its players will soon be waiting too: two
    // players who have just met wait for them rather than meet again (with
    // four players, two quick finishers were paired with each other over
    // and over while the others played).
    let others_playing = games.iter().any(|g| g.outcome.is_none());
    let pairs = best_matching(order.len(), PAIRING_WINDOW, |i, j| {
        let (a, b) = (order[i], order[j]);
        if a == b || blocked(a, b) || (others_playing && rematch(a, b)) {
            None
        } else {
            Some(u64::from(rematch(a, b)))
        }
    });
    pairs
        .into_iter()
        .map(|(i, j)| {
            // i is the higher-ranked.
            let (a, b) = (order[i], order[j]);
            let key = |p: PlayerId| {
                let was_north_last = last.get(&p).is_some_and(|&(_, south)| !south);
                (souths.get(&p).copied().unwrap_or(0), !was_north_last)
            };
            if key(b) < key(a) {
                Pairing { south: b, north: a }
            } else {
                Pairing { south: a, north: b }
            }
        })
        .collect()
}

/// How many places of rank apart two arena partners may be: the pairing
/// is exact within it, and its cost grows as 2 to this power.
pub const PAIRING_WINDOW: usize = 10;

/// The cost of a partial matching, compared lexicographically: players
/// left over, rematches, rank distance, then how high the players left
/// over rank (`n - i` for place `i`, so leaving the lowest is cheapest).
type Cost = (u64, u64, u64, u64);

fn add(a: Cost, b: Cost) -> Cost {
    (a.0 + b.0, a.1 + b.1, a.2 + b.2, a.3 + b.3)
}

/// The best set of pairs over places `0..n` in rank order, each pair at
/// most `window` places apart, `edge(i, j)` giving a pair's penalty (the
/// second component of [`Cost`]) or `None` when it may not be made.
/// Returns the pairs `(i, j)` with `i < j`, in order of `i`.
fn best_matching(
    n: usize,
    window: usize,
    edge: impl Fn(usize, usize) -> Option<u64>,
) -> Vec<(usize, usize)> {
    let w = window.min(n.saturating_sub(1)).max(1);
    let states = 1usize << w;
    // The pairs within the window, asked once each.
    let edges: Vec<Vec<Option<u64>>> = (0..n)
        .map(|i| {
            (1..=w)
                .map(|k| if i + k < n { edge(i, i + k) } else { None })
                .collect()
        })
        .collect();
    // best[i][mask]: the cost of places i.. when bit k of mask says place
    // i + k + 1 is already taken (place i itself is free). Filled backwards.
    let mut best: Vec<Vec<Cost>> = vec![vec![(0, 0, 0, 0); states]; n + 1];
    let mut choice: Vec<Vec<Option<usize>>> = vec![vec![None; states]; n + 1];
    // Moves from place i (free) with `mask`: to the next free place.
    let advance = |i: usize, mask: usize| -> (usize, usize) {
        let (mut i, mut mask) = (i + 1, mask);
        while i < n && mask & 1 == 1 {
            i += 1;
            mask >>= 1;
        }
        (i, if i < n { mask >> 1 } else { 0 })
    };
    for i in (0..n).rev() {
        for mask in 0..states {
            // Leave place i over.
            let (ni, nm) = advance(i, mask);
            let mut here = add((1, 0, 0, (n - i) as u64), best[ni][nm]);
            let mut pick = None;
            for k in 1..=w {
                let j = i + k;
                if j >= n || mask >> (k - 1) & 1 == 1 {
                    continue;
                }
                let Some(penalty) = edges[i][k - 1] else {
                    continue;
                };
                let (ni, nm) = advance(i, mask | 1 << (k - 1));
                let cost = add((0, penalty, k as u64, 0), best[ni][nm]);
                if cost < here || (cost == here && pick.is_none()) {
                    here = cost;
                    pick = Some(j);
                }
            }
            best[i][mask] = here;
            choice[i][mask] = pick;
        }
    }
    let mut pairs = Vec::new();
    let (mut i, mut mask) = (0, 0);
    while i < n {
        let next = match choice[i][mask] {
            Some(j) => {
                pairs.push((i, j));
                mask | 1 << (j - i - 1)
            }
            None => mask,
        };
        (i, mask) = advance(i, next);
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn done(south: PlayerId, north: PlayerId, outcome: Outcome) -> Game {
        Game {
            south,
            north,
            outcome: Some(outcome),
        }
    }

    /// Player 0's games against 1 in the order of `results` ('W', 'D', 'L'
    /// from player 0's side), alternating South and North.
    fn series(results: &str) -> Vec<Game> {
        results
            .chars()
            .enumerate()
            .map(|(i, r)| {
                let (south, north) = if i % 2 == 0 { (0, 1) } else { (1, 0) };
                let outcome = match (r, south == 0) {
                    ('D', _) => Outcome::Draw,
                    ('W', true) | ('L', false) => Outcome::SouthWon,
                    _ => Outcome::NorthWon,
                };
                done(south, north, outcome)
            })
            .collect()
    }

    fn line(s: &[Standing], p: PlayerId) -> &Standing {
        s.iter().find(|l| l.player == p).unwrap()
    }

    #[test]
    fn two_wins_in_a_row_set_the_player_on_fire() {
        let s = standings(&[0, 1], &series("WWWDWLWWW"));
        let zero = line(&s, 0);
        // W 2, W 2 (now on fire), W 4, D 2 (doubled, and the streak ends),
        // W 2, L 0, W 2, W 2 (on fire again), W 4.
        assert_eq!(zero.sheet, [2, 2, 4, 2, 2, 0, 2, 2, 4]);
        assert_eq!(zero.score, 20);
        assert_eq!(zero.games, 9);
        assert!(zero.on_fire);
        // Player 1: L D W L W L L L: never two wins in a row; the draw 1.
        let one = line(&s, 1);
        assert_eq!(one.sheet, [0, 0, 0, 1, 0, 2, 0, 0, 0]);
        assert!(!one.on_fire);
        assert_eq!((zero.rank, one.rank), (1, 2));
    }

    #[test]
    fn a_loss_on_fire_scores_nothing_and_ends_the_streak() {
        let s = standings(&[0, 1], &series("WWLW"));
        assert_eq!(line(&s, 0).sheet, [2, 2, 0, 2]);
        assert!(!line(&s, 0).on_fire);
        // Player 1 won once after two losses: 2, not on fire.
        assert_eq!(line(&s, 1).sheet, [0, 0, 2, 0]);
    }

    #[test]
    fn games_in_play_and_strangers_do_not_count() {
        let games = [
            done(0, 1, Outcome::SouthWon),
            Game {
                south: 2,
                north: 0,
                outcome: None,
            },
            done(1, 9, Outcome::SouthWon),
        ];
        let s = standings(&[0, 1, 2], &games);
        assert_eq!((line(&s, 0).score, line(&s, 0).games), (2, 1));
        assert_eq!((line(&s, 1).score, line(&s, 1).games), (2, 2));
        assert_eq!((line(&s, 2).score, line(&s, 2).games), (0, 0));
    }

    #[test]
    fn rank_by_score_then_fewer_games_and_ties_share() {
        // 0 beats 1 (0: 2 in one game); 2 and 3 draw twice (2 each in two
        // games); 4 has not played.
        let games = [
            done(0, 1, Outcome::SouthWon),
            done(2, 3, Outcome::Draw),
            done(3, 2, Outcome::Draw),
        ];
        let s = standings(&[4, 3, 2, 1, 0], &games);
        let table: Vec<_> = s.iter().map(|l| (l.player, l.rank, l.score)).collect();
        // 0 first (2 in one game), then 3 and 2 share second (2 in two
        // games, in the order given), then 4 and 1 share fourth (0 points,
        // 4 with no game ahead of 1 with one).
        assert_eq!(
            table,
            [(0, 1, 2), (3, 2, 2), (2, 2, 2), (4, 4, 0), (1, 5, 0)]
        );
    }

    /// Scores 6, 4, 2, 0 for players 0–3 (wins against outsiders 10–13).
    fn ladder() -> Vec<Game> {
        let mut games = Vec::new();
        for (p, wins) in [(0, 3), (1, 2), (2, 1)] {
            for _ in 0..wins {
                games.push(done(p, 10 + p, Outcome::SouthWon));
                games.push(done(10 + p, p, Outcome::SouthWon));
                // A win then a loss: 2 points per pair, no streak.
            }
        }
        games.push(done(3, 13, Outcome::NorthWon));
        games
    }

    #[test]
    fn near_ranks_play_each_other() {
        let games = ladder();
        let pairs = pair(&[3, 1, 2, 0], &[], &games, &[]);
        let set: Vec<_> = pairs
            .iter()
            .map(|p| (p.south.min(p.north), p.south.max(p.north)))
            .collect();
        assert_eq!(set, [(0, 1), (2, 3)]);
    }

    #[test]
    fn no_immediate_rematch_when_another_pairing_exists() {
        let mut games = ladder();
        games.push(done(0, 1, Outcome::Draw));
        games.push(done(2, 3, Outcome::Draw));
        let pairs = pair(&[0, 1, 2, 3], &[], &games, &[]);
        for p in &pairs {
            let (a, b) = (p.south.min(p.north), p.south.max(p.north));
            assert!((a, b) != (0, 1) && (a, b) != (2, 3), "{pairs:?}");
        }
        assert_eq!(pairs.len(), 2);
        // Two players alone who just met are paired again: a game is better
        // than waiting.
        let pairs = pair(&[0, 1], &[], &games, &[]);
        assert_eq!(pairs.len(), 1);
    }

    /// Issue 33, finding 4: two quick finishers are not paired with each
    /// other again while the other players' game goes on.
    #[test]
    fn no_rematch_while_others_are_still_playing() {
        let mut games = ladder();
        games.push(done(0, 1, Outcome::SouthWon));
        games.push(Game {
            south: 2,
            north: 3,
            outcome: None,
        });
        assert!(pair(&[0, 1], &[], &games, &[]).is_empty());
        // Once that game is over, everyone waits and the pairs cross.
        games.last_mut().unwrap().outcome = Some(Outcome::Draw);
        let pairs = pair(&[0, 1, 2, 3], &[], &games, &[]);
        assert_eq!(pairs.len(), 2);
        for p in &pairs {
            let (a, b) = (p.south.min(p.north), p.south.max(p.north));
            assert!((a, b) != (0, 1) && (a, b) != (2, 3), "{pairs:?}");
        }
    }

    /// Issue 33, finding 4: a game that ended before each side moved scores
    /// nothing and is not counted as a game; it neither starts nor ends a
    /// streak.
    #[test]
    fn a_void_game_scores_nothing_and_leaves_the_streak() {
        let games = [
            done(0, 1, Outcome::SouthWon),
            done(0, 1, Outcome::SouthWon),
            done(1, 0, Outcome::Void),
            done(0, 1, Outcome::Void),
            done(0, 1, Outcome::SouthWon),
        ];
        let s = standings(&[0, 1], &games);
        assert_eq!(line(&s, 0).sheet, [2, 2, 4]);
        assert_eq!((line(&s, 1).score, line(&s, 1).games), (0, 3));
    }

    #[test]
    fn forbidden_pairs_never_meet_and_the_lowest_waits() {
        let games = ladder();
        // Without the block 0 and 1 would meet.
        let pairs = pair(&[0, 1, 2, 3], &[], &games, &[(1, 0)]);
        for p in &pairs {
            assert!(!(p.south.min(p.north) == 0 && p.south.max(p.north) == 1));
        }
        assert_eq!(pairs.len(), 2);
        // Only blocked pairs: nobody is paired.
        assert!(pair(&[0, 1], &[], &games, &[(0, 1)]).is_empty());
        // Three waiting: the lowest-ranked (3) is left over.
        let pairs = pair(&[3, 2, 1], &[], &games, &[]);
        assert_eq!(pairs.len(), 1);
        assert_eq!(
            (
                pairs[0].south.min(pairs[0].north),
                pairs[0].south.max(pairs[0].north)
            ),
            (1, 2)
        );
    }

    #[test]
    fn ratings_order_players_without_games() {
        // No games: 5 (2000) and 7 (1900) meet, then 6 (1500) and 8 (no
        // rating, lowest).
        let pairs = pair(&[8, 6, 7, 5], &[(5, 2000), (6, 1500), (7, 1900)], &[], &[]);
        let set: Vec<_> = pairs
            .iter()
            .map(|p| (p.south.min(p.north), p.south.max(p.north)))
            .collect();
        assert_eq!(set, [(5, 7), (6, 8)]);
        // No history at all: the higher-ranked gets South.
        assert_eq!(pairs[0], Pairing { south: 5, north: 7 });
    }

    #[test]
    fn south_to_who_had_it_less_then_to_who_was_north_last() {
        // 0 was South twice, 1 never: 1 gets South.
        let games = [done(0, 5, Outcome::Draw), done(0, 6, Outcome::Draw)];
        assert_eq!(
            pair(&[0, 1], &[], &games, &[]),
            [Pairing { south: 1, north: 0 }]
        );
        // Both South once; 1 was North in their last game: 1 gets South.
        let games = [
            done(0, 5, Outcome::Draw),
            done(1, 6, Outcome::Draw),
            done(7, 1, Outcome::Draw),
        ];
        assert_eq!(
            pair(&[0, 1], &[], &games, &[]),
            [Pairing { south: 1, north: 0 }]
        );
        // Both South once and North last: the higher-ranked (0, on 2 points
        // against 1's 1) gets South.
        let games = [
            done(0, 5, Outcome::Draw),
            done(1, 6, Outcome::Draw),
            done(7, 1, Outcome::Draw),
            done(8, 0, Outcome::Draw),
        ];
        assert_eq!(
            pair(&[0, 1], &[], &games, &[]),
            [Pairing { south: 0, north: 1 }]
        );
    }

    /// A small seeded generator (splitmix64), so the test needs no crate.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// Every matching of `players` avoiding `blocked`: (games, rematches).
    fn all_matchings(
        players: &[PlayerId],
        ok: &dyn Fn(PlayerId, PlayerId) -> Option<u64>,
    ) -> Vec<(usize, u64)> {
        let Some((&first, rest)) = players.split_first() else {
            return vec![(0, 0)];
        };
        // `first` waits.
        let mut out = all_matchings(rest, ok);
        for (k, &other) in rest.iter().enumerate() {
            let Some(penalty) = ok(first, other) else {
                continue;
            };
            let remaining: Vec<PlayerId> = rest
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != k)
                .map(|(_, &p)| p)
                .collect();
            for (g, r) in all_matchings(&remaining, ok) {
                out.push((g + 1, r + penalty));
            }
        }
        out
    }

    #[test]
    fn random_histories_give_sound_pairings() {
        let mut rng = Rng(23);
        for _ in 0..2000 {
            let n = 2 + rng.below(11) as u32; // 2..=12 entrants
            let mut games = Vec::new();
            for _ in 0..rng.below(40) {
                let a = rng.below(u64::from(n)) as u32;
                let b = rng.below(u64::from(n)) as u32;
                if a == b {
                    continue;
                }
                let outcome =
                    [Outcome::SouthWon, Outcome::NorthWon, Outcome::Draw][rng.below(3) as usize];
                games.push(done(a, b, outcome));
            }
            let waiting: Vec<PlayerId> = (0..n).filter(|_| rng.below(4) != 0).collect();
            let mut forbidden = Vec::new();
            for _ in 0..rng.below(3) {
                forbidden.push((
                    rng.below(u64::from(n)) as u32,
                    rng.below(u64::from(n)) as u32,
                ));
            }
            let ratings: Vec<_> = (0..n).map(|p| (p, 1500 + rng.below(400) as i32)).collect();
            let pairs = pair(&waiting, &ratings, &games, &forbidden);

            let mut seen = Vec::new();
            for p in &pairs {
                assert_ne!(p.south, p.north);
                assert!(waiting.contains(&p.south) && waiting.contains(&p.north));
                assert!(
                    !seen.contains(&p.south) && !seen.contains(&p.north),
                    "paired twice: {pairs:?}"
                );
                seen.extend([p.south, p.north]);
                assert!(
                    !forbidden.contains(&(p.south, p.north))
                        && !forbidden.contains(&(p.north, p.south))
                );
            }
            // As many games as any pairing gives, and among those, no more
            // immediate rematches than the fewest possible.
            let last_opponent = |p: PlayerId| {
                games
                    .iter()
                    .rev()
                    .find(|g| g.south == p || g.north == p)
                    .map(|g| g.south + g.north - p)
            };
            let ok = |a: PlayerId, b: PlayerId| {
                if forbidden.contains(&(a, b)) || forbidden.contains(&(b, a)) {
                    None
                } else {
                    Some(u64::from(
                        last_opponent(a) == Some(b) || last_opponent(b) == Some(a),
                    ))
                }
            };
            let best = all_matchings(&waiting, &ok)
                .into_iter()
                .map(|(g, r)| (Reverse(g), r))
                .min()
                .unwrap();
            let rematches: u64 = pairs.iter().map(|p| ok(p.south, p.north).unwrap()).sum();
            assert_eq!(
                (Reverse(pairs.len()), rematches),
                best,
                "{waiting:?} {games:?} {forbidden:?} {pairs:?}"
            );
        }
    }
}
