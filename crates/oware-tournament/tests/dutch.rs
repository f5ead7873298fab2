//! The Swiss pairings (FIDE Dutch system) against published expected
//! pairings, and properties over random tournaments.

use oware_tournament::swiss::{
    pair_next_round, standings, Entry, Player, Round, RoundPairing, SwissError,
};
use oware_tournament::{Outcome, Pairing, PlayerId};

fn players(ratings: &[i32]) -> Vec<Player> {
    // Ids 1, 2, … in the order given, as in the TRF files below.
    ratings
        .iter()
        .enumerate()
        .map(|(i, &rating)| Player {
            id: i as PlayerId + 1,
            rating,
            active: true,
        })
        .collect()
}

fn game(south: PlayerId, north: PlayerId, outcome: Outcome) -> Entry {
    Entry::Game {
        south,
        north,
        outcome: Some(outcome),
    }
}

fn pairs(list: &[(PlayerId, PlayerId)]) -> Vec<Pairing> {
    list.iter()
        .map(|&(south, north)| Pairing { south, north })
        .collect()
}

/// Round 1 (FIDE Handbook C.04.3, Dutch system, 2017 rules, the pairing of
/// a homogeneous bracket: S1 = the top half against S2 = the bottom half,
/// 1–5, 2–6, 3–7, 4–8; colour rule E.5: with no colour history the
/// higher-ranked player gets the initial colour when their pairing number is
/// odd, the other colour when it is even). Our initial colour is South.
#[test]
fn round_one_pairs_the_top_half_against_the_bottom_half() {
    let p = players(&[2000, 1900, 1800, 1700, 1600, 1500, 1400, 1300]);
    let r = pair_next_round(&p, &[], 5, &[]).unwrap();
    assert_eq!(r.games, pairs(&[(1, 5), (6, 2), (3, 7), (8, 4)]));
    assert_eq!(r.bye, None);
    // Odd: the lowest-ranked has the bye, the rest as above.
    let r = pair_next_round(&p[..7], &[], 5, &[]).unwrap();
    assert_eq!(r.games, pairs(&[(1, 4), (5, 2), (3, 6)]));
    assert_eq!(r.bye, Some(7));
}

/// bbpPairings (BieremaBoyzProgramming/bbpPairings, a FIDE-endorsed
/// pairing program), test/tests/dutch_2025_C5.input and
/// dutch_2025_C5.output.expected: the test of criterion C5 of the 2025
/// Dutch rules (the bye to the lowest score). Six players, round 3 of 3;
/// player 4 does not play round 3. Expected: 1–5, 3–2 (first-named is
/// White, our South), bye to 6.
#[test]
fn bbp_pairings_dutch_2025_c5() {
    let mut p = players(&[2720, 2701, 2697, 2689, 2673, 2664]);
    p[3].active = false;
    let played: Vec<Round> = vec![
        // 1 w 4: 1–0; 5 w 2: 0–1; 3 w 6: 1–0.
        vec![
            game(1, 4, Outcome::SouthWon),
            game(5, 2, Outcome::NorthWon),
            game(3, 6, Outcome::SouthWon),
        ],
        // 2 w 1: 0–1; 4 w 3: 0–1; 6 w 5: 0–1.
        vec![
            game(2, 1, Outcome::NorthWon),
            game(4, 3, Outcome::NorthWon),
            game(6, 5, Outcome::NorthWon),
        ],
    ];
    let r = pair_next_round(&p, &played, 3, &[]).unwrap();
    assert_eq!(
        r,
        RoundPairing {
            games: pairs(&[(1, 5), (3, 2)]),
            bye: Some(6)
        }
    );
}

/// bbpPairings, test/tests/dutch_2025_C9.input and
/// dutch_2025_C9.output.expected: the test of criterion C9 of the 2025
/// Dutch rules (the bye not to a player who already had an unplayed
/// round). Five players, round 2 of 3; player 5 did not play round 1.
/// Expected: 2–1, 3–5, bye to 4.
#[test]
fn bbp_pairings_dutch_2025_c9() {
    let p = players(&[2720, 2701, 2697, 2689, 2673]);
    // 1 w 3: 1–0; 4 w 2: 0–1; 5 absent.
    let played: Vec<Round> = vec![vec![
        game(1, 3, Outcome::SouthWon),
        game(4, 2, Outcome::NorthWon),
    ]];
    let r = pair_next_round(&p, &played, 3, &[]).unwrap();
    assert_eq!(
        r,
        RoundPairing {
            games: pairs(&[(2, 1), (3, 5)]),
            bye: Some(4)
        }
    );
}

#[test]
fn bad_input_is_refused() {
    let p = players(&[1500, 1400, 1300]);
    let in_play = vec![vec![
        Entry::Game {
            south: 1,
            north: 2,
            outcome: None,
        },
        Entry::Bye { player: 3 },
    ]];
    assert_eq!(
        pair_next_round(&p, &in_play, 3, &[]),
        Err(SwissError::RoundNotFinished { round: 1 })
    );
    let stranger = vec![vec![game(1, 9, Outcome::Draw)]];
    assert_eq!(
        pair_next_round(&p, &stranger, 3, &[]),
        Err(SwissError::UnknownPlayer(9))
    );
    assert_eq!(
        pair_next_round(&p[..1], &[], 3, &[]),
        Err(SwissError::TooFewPlayers)
    );
    // Two players who met cannot meet again.
    let met = vec![vec![game(1, 2, Outcome::Draw)]];
    assert_eq!(
        pair_next_round(&p[..2], &met, 3, &[]),
        Err(SwissError::NoPairing)
    );
    // Nor two who block each other.
    assert_eq!(
        pair_next_round(&p[..2], &[], 3, &[(2, 1)]),
        Err(SwissError::NoPairing)
    );
}

/// The five-player, three-round Swiss of the browser test: everyone plays
/// every round but one, which is their bye, and nobody meets twice.
#[test]
fn five_players_three_rounds_with_byes() {
    let p = players(&[1600, 1550, 1500, 1450, 1400]);
    let mut played: Vec<Round> = Vec::new();
    let mut byes = Vec::new();
    for round in 0..3 {
        let r = pair_next_round(&p, &played, 3, &[]).unwrap();
        assert_eq!(r.games.len(), 2);
        let bye = r.bye.unwrap();
        assert!(!byes.contains(&bye));
        byes.push(bye);
        if round == 0 {
            // Round 1: bye to the lowest-ranked, 1–3 and 4–2.
            assert_eq!(
                r,
                RoundPairing {
                    games: pairs(&[(1, 3), (4, 2)]),
                    bye: Some(5)
                }
            );
        }
        // The higher-rated (lower id) wins.
        let mut entries: Round = r
            .games
            .iter()
            .map(|g| {
                game(
                    g.south,
                    g.north,
                    if g.south < g.north {
                        Outcome::SouthWon
                    } else {
                        Outcome::NorthWon
                    },
                )
            })
            .collect();
        entries.push(Entry::Bye { player: bye });
        played.push(entries);
    }
    check_history(&p, &played);
    let s = standings(&p, &played);
    assert_eq!(s.len(), 5);
    assert_eq!(s[0].player, 1);
}

/// Checks the absolute criteria over a whole history: nobody meets twice,
/// nobody has two byes, nobody has the same colour three games running or
/// two more games of one colour than of the other.
fn check_history(players: &[Player], played: &[Round]) {
    let mut met = std::collections::BTreeSet::new();
    let mut byes = std::collections::BTreeSet::new();
    let mut colours: std::collections::BTreeMap<PlayerId, Vec<bool>> = Default::default();
    for round in played {
        for e in round {
            match *e {
                Entry::Game { south, north, .. } => {
                    assert!(
                        met.insert((south.min(north), south.max(north))),
                        "rematch {south}–{north}"
                    );
                    colours.entry(south).or_default().push(true);
                    colours.entry(north).or_default().push(false);
                }
                Entry::Bye { player } => assert!(byes.insert(player), "second bye for {player}"),
            }
        }
    }
    for p in players {
        let c = colours.get(&p.id).cloned().unwrap_or_default();
        for w in c.windows(3) {
            assert!(
                !(w[0] == w[1] && w[1] == w[2]),
                "three times the same colour for {}: {c:?}",
                p.id
            );
        }
        let souths = c.iter().filter(|&&s| s).count() as i64;
        assert!(
            (2 * souths - c.len() as i64).abs() <= 2,
            "colour difference for {}: {c:?}",
            p.id
        );
    }
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

/// The scores (half points) after `played`, and who met whom.
fn scores(players: &[Player], played: &[Round]) -> std::collections::BTreeMap<PlayerId, u32> {
    standings(players, played)
        .into_iter()
        .map(|s| (s.player, s.points.0))
        .collect()
}

/// The smallest possible largest score difference over all pairings of
/// `rest` in which `ok` holds for every pair (None if there is none).
fn best_largest_difference(
    rest: &[PlayerId],
    ok: &dyn Fn(PlayerId, PlayerId) -> bool,
    score: &dyn Fn(PlayerId) -> u32,
) -> Option<u32> {
    let Some((&a, others)) = rest.split_first() else {
        return Some(0);
    };
    let mut best: Option<u32> = None;
    for (k, &b) in others.iter().enumerate() {
        if !ok(a, b) {
            continue;
        }
        let remaining: Vec<PlayerId> = others
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != k)
            .map(|(_, &p)| p)
            .collect();
        if let Some(d) = best_largest_difference(&remaining, ok, score) {
            let d = d.max(score(a).abs_diff(score(b)));
            best = Some(best.map_or(d, |x| x.min(d)));
        }
    }
    best
}

#[test]
fn random_tournaments_keep_the_absolute_criteria() {
    let mut rng = Rng(2026);
    let mut rounds_paired = 0;
    let mut no_pairing = 0;
    for t in 0..2000 {
        // Mostly small fields (where the brute-force checks below run),
        // some up to 40 players.
        let n = if t % 10 == 0 {
            11 + rng.below(30) as u32
        } else {
            4 + rng.below(7) as u32
        };
        let total = 1 + rng.below(9) as u32;
        let mut p: Vec<Player> = (1..=n)
            .map(|id| Player {
                id,
                rating: 1200 + rng.below(1000) as i32,
                active: true,
            })
            .collect();
        let forbidden: Vec<(PlayerId, PlayerId)> = if rng.below(4) == 0 {
            vec![(
                1 + rng.below(u64::from(n)) as u32,
                1 + rng.below(u64::from(n)) as u32,
            )]
        } else {
            vec![]
        };
        let mut played: Vec<Round> = Vec::new();
        for _ in 0..total {
            // Now and then a player leaves.
            if rng.below(20) == 0 {
                let i = rng.below(u64::from(n)) as usize;
                p[i].active = false;
            }
            let active: Vec<PlayerId> = p.iter().filter(|x| x.active).map(|x| x.id).collect();
            let r = match pair_next_round(&p, &played, total, &forbidden) {
                Ok(r) => r,
                Err(SwissError::NoPairing) => {
                    // Only when no pairing exists, whoever has the bye.
                    if active.len() <= 10 {
                        let ok = legal(&played, &forbidden);
                        let had_bye = |x: PlayerId| {
                            played
                                .iter()
                                .flatten()
                                .any(|e| *e == Entry::Bye { player: x })
                        };
                        let byes: Vec<Option<PlayerId>> = if active.len() % 2 == 1 {
                            active
                                .iter()
                                .copied()
                                .filter(|&x| !had_bye(x))
                                .map(Some)
                                .collect()
                        } else {
                            vec![None]
                        };
                        for bye in byes {
                            let rest: Vec<PlayerId> =
                                active.iter().copied().filter(|&x| Some(x) != bye).collect();
                            assert!(
                                best_largest_difference(&rest, &ok, &|_| 0).is_none(),
                                "{p:?} {played:?}"
                            );
                        }
                    }
                    no_pairing += 1;
                    // With eleven players or more, these tournaments always pair.
                    assert!(
                        active.len() <= 10,
                        "no pairing for {} players",
                        active.len()
                    );
                    break;
                }
                Err(SwissError::TooFewPlayers) => break,
                Err(e) => panic!("{e}"),
            };
            rounds_paired += 1;
            // Everyone active exactly once, nobody else.
            let mut seen: Vec<PlayerId> = r
                .games
                .iter()
                .flat_map(|g| [g.south, g.north])
                .chain(r.bye)
                .collect();
            seen.sort_unstable();
            assert_eq!(seen, active);
            assert_eq!(r.bye.is_some(), active.len() % 2 == 1);
            for g in &r.games {
                assert!(
                    !forbidden.contains(&(g.south, g.north))
                        && !forbidden.contains(&(g.north, g.south))
                );
            }
            // The largest score difference is the smallest any pairing of
            // the same players (after the same bye) allows.
            if active.len() <= 10 {
                let score = scores(&p, &played);
                let ok = legal(&played, &forbidden);
                let rest: Vec<PlayerId> = active
                    .iter()
                    .copied()
                    .filter(|&x| Some(x) != r.bye)
                    .collect();
                let ours = r
                    .games
                    .iter()
                    .map(|g| score[&g.south].abs_diff(score[&g.north]))
                    .max()
                    .unwrap_or(0);
                let best = best_largest_difference(&rest, &ok, &|x| score[&x])
                    .expect("a pairing was found");
                assert_eq!(
                    ours,
                    best,
                    "round {} of {p:?}\n{played:?}\n{r:?}",
                    played.len() + 1
                );
            }
            let mut entries: Round = r
                .games
                .iter()
                .map(|g| {
                    game(
                        g.south,
                        g.north,
                        [Outcome::SouthWon, Outcome::NorthWon, Outcome::Draw]
                            [rng.below(3) as usize],
                    )
                })
                .collect();
            entries.extend(r.bye.map(|player| Entry::Bye { player }));
            played.push(entries);
            check_history(&p, &played);
        }
    }
    println!(
        "{rounds_paired} rounds paired, {no_pairing} tournaments stopped with no pairing possible"
    );
    assert!(rounds_paired > 5000);
}

/// The example tournament of Mario Held's tutorial on the Dutch system
/// ("The Dutch System – a tutorial", printed in the FIDE Arbiters' Manual
/// (FIDE Arbiters' Commission, 2014 edition), chapter "Swiss System"),
/// as transcribed with its expected pairings for rounds 2–5 in the tests of
/// rmoritz/swissdutch (tests/test_dutch.py). Fourteen players, pairing
/// numbers 1–14 (equal ratings in pairing-number order). Player 12 misses
/// round 2, where 14 gets the bye; in round 3 the game 11–6 was forfeited
/// (6 scores the point unplayed, 11 nothing), which this crate's rounds
/// express as an unplayed point for 6 and an absence for 11.
fn held_tutorial() -> (Vec<Player>, Vec<Round>, Vec<RoundPairing>) {
    use Outcome::{Draw, NorthWon, SouthWon};
    let p = players(&[
        2500, 2500, 2400, 2400, 2350, 2300, 2250, 2250, 2150, 2150, 2100, 2100, 2050, 2000,
    ]);
    let rounds: Vec<Round> = vec![
        vec![
            game(1, 8, SouthWon),
            game(3, 10, SouthWon),
            game(5, 12, SouthWon),
            game(7, 14, SouthWon),
            game(9, 2, NorthWon),
            game(11, 4, Draw),
            game(13, 6, NorthWon),
        ],
        vec![
            game(2, 7, SouthWon),
            game(4, 9, SouthWon),
            game(5, 1, SouthWon),
            game(6, 3, Draw),
            game(8, 11, NorthWon),
            game(10, 13, SouthWon),
            Entry::Bye { player: 14 },
        ],
        vec![
            game(2, 5, Draw),
            game(3, 4, Draw),
            game(7, 10, SouthWon),
            game(9, 13, SouthWon),
            game(12, 8, Draw),
            game(14, 1, NorthWon),
            Entry::Bye { player: 6 },
        ],
        vec![
            game(1, 3, SouthWon),
            game(4, 5, Draw),
            game(6, 2, NorthWon),
            game(8, 9, Draw),
            game(10, 14, Draw),
            game(11, 7, SouthWon),
            game(13, 12, SouthWon),
        ],
    ];
    let expected = vec![
        RoundPairing {
            games: pairs(&[(1, 8), (9, 2), (3, 10), (11, 4), (5, 12), (13, 6), (7, 14)]),
            bye: None,
        },
        RoundPairing {
            games: pairs(&[(2, 7), (4, 9), (5, 1), (6, 3), (8, 11), (10, 13)]),
            bye: Some(14),
        },
        RoundPairing {
            games: pairs(&[(2, 5), (3, 4), (7, 10), (9, 13), (11, 6), (12, 8), (14, 1)]),
            bye: None,
        },
        RoundPairing {
            games: pairs(&[(1, 3), (4, 5), (6, 2), (8, 9), (10, 14), (11, 7), (13, 12)]),
            bye: None,
        },
        RoundPairing {
            games: pairs(&[(2, 1), (3, 7), (4, 6), (5, 11), (9, 10), (13, 8), (14, 12)]),
            bye: None,
        },
    ];
    (p, rounds, expected)
}

fn sorted(mut r: RoundPairing) -> RoundPairing {
    r.games.sort_by_key(|g| g.south.min(g.north));
    r
}

#[test]
fn held_tutorial_rounds() {
    let (mut p, rounds, expected) = held_tutorial();
    for (k, want) in expected.into_iter().enumerate() {
        // Player 12 is away in round 2.
        p[11].active = k != 1;
        let got = pair_next_round(&p, &rounds[..k], 5, &[]).unwrap();
        assert_eq!(sorted(got), sorted(want), "round {}", k + 1);
    }
}

/// Reads a FIDE Tournament Report File (TRF-16) as bbpPairings's tests
/// use it: the players' lines (`001`) and their rounds. Returns the
/// players (id = pairing number) and the rounds played; a round block
/// after the last one played, marked `-` or `Z`, makes the player absent
/// from the round to pair. A forfeit win (`+`) or an unplayed full point
/// (`U`, `F`) is an unplayed point (an `Entry::Bye`: like the
/// pairing-allocated bye, it bars a second bye under C2, has no colour and
/// no opponent); a forfeit loss (`-`) or `Z` is an absence.
fn read_trf(text: &str) -> (Vec<Player>, Vec<Round>) {
    let mut players = Vec::new();
    let mut blocks: Vec<Vec<(u32, char, char)>> = Vec::new();
    for line in text.lines().filter(|l| l.starts_with("001")) {
        let id: PlayerId = line[4..8].trim().parse().unwrap();
        let rating: i32 = line
            .get(48..52)
            .map_or(0, |r| r.trim().parse().unwrap_or(0));
        players.push(Player {
            id,
            rating,
            active: true,
        });
        let mut mine = Vec::new();
        let mut at = 91;
        while let Some(block) = line.get(at..(at + 8).min(line.len())) {
            if block.len() < 8 {
                break;
            }
            let opponent: u32 = block[0..4].trim().parse().unwrap_or(0);
            let chars: Vec<char> = block.chars().collect();
            mine.push((opponent, chars[5], chars[7]));
            at += 10;
        }
        blocks.push(mine);
    }
    let played = blocks.iter().map(Vec::len).min().unwrap_or(0);
    let mut rounds: Vec<Round> = vec![Vec::new(); played];
    for (p, mine) in players.iter_mut().zip(&blocks) {
        for (r, &(opponent, colour, result)) in mine.iter().enumerate() {
            if r == played {
                p.active = !matches!(result, '-' | 'Z');
                continue;
            }
            match result {
                '+' | 'U' | 'F' => rounds[r].push(Entry::Bye { player: p.id }),
                '-' | 'Z' => {}
                _ if colour == 'w' => {
                    let outcome = match result {
                        '1' | 'W' => Outcome::SouthWon,
                        '0' | 'L' => Outcome::NorthWon,
                        _ => Outcome::Draw,
                    };
                    rounds[r].push(game(p.id, opponent, outcome));
                }
                _ => {}
            }
        }
    }
    (players, rounds)
}

/// bbpPairings's expected output: the number of pairs, then "white black"
/// lines, "player 0" for the bye.
fn read_expected(text: &str) -> RoundPairing {
    let mut games = Vec::new();
    let mut bye = None;
    for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let mut it = line
            .split_whitespace()
            .map(|x| x.parse::<PlayerId>().unwrap());
        let (south, north) = (it.next().unwrap(), it.next().unwrap());
        if north == 0 {
            bye = Some(south);
        } else {
            games.push(Pairing { south, north });
        }
    }
    RoundPairing { games, bye }
}

/// bbpPairings's tests (BieremaBoyzProgramming/bbpPairings, test/tests/,
/// copied into tests/data/bbp_*): each TRF file with the pairing the
/// program (FIDE-endorsed for the Dutch system) is expected to give. The
/// same two cases are transcribed by hand above; this reads the files as
/// published. (Its third case, issue_7, the last round of a 60-player,
/// 15-round event, is not reproduced: see the crate docs.)
#[test]
fn bbp_pairings_test_files() {
    for name in ["dutch_2025_C5", "dutch_2025_C9"] {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");
        let trf = std::fs::read_to_string(format!("{dir}bbp_{name}.trf")).unwrap();
        let expected = std::fs::read_to_string(format!("{dir}bbp_{name}.expected")).unwrap();
        let (players, rounds) = read_trf(&trf);
        let got = pair_next_round(&players, &rounds, rounds.len() as u32 + 1, &[]).unwrap();
        assert_eq!(sorted(got), sorted(read_expected(&expected)), "{name}");
    }
}

/// Whether two players may meet under the absolute criteria (C1: not met
/// before; C3: not the same absolute colour preference) and the forbidden
/// pairs, worked out here independently of the crate.
fn legal<'a>(
    played: &'a [Round],
    forbidden: &'a [(PlayerId, PlayerId)],
) -> impl Fn(PlayerId, PlayerId) -> bool + 'a {
    let met: Vec<(PlayerId, PlayerId)> = played
        .iter()
        .flatten()
        .filter_map(|e| match *e {
            Entry::Game { south, north, .. } => Some((south, north)),
            Entry::Bye { .. } => None,
        })
        .collect();
    let colours = move |x: PlayerId| -> Vec<bool> {
        played
            .iter()
            .flatten()
            .filter_map(|e| match *e {
                Entry::Game { south, .. } if south == x => Some(true),
                Entry::Game { north, .. } if north == x => Some(false),
                _ => None,
            })
            .collect()
    };
    // Some(true): must be South; Some(false): must be North.
    let absolute = move |x: PlayerId| -> Option<bool> {
        let c = colours(x);
        let souths = c.iter().filter(|&&s| s).count() as i64;
        let d = 2 * souths - c.len() as i64;
        let twice = c.len() >= 2 && c[c.len() - 1] == c[c.len() - 2];
        if d > 1 || (twice && c[c.len() - 1]) {
            Some(false)
        } else if d < -1 || (twice && !c[c.len() - 1]) {
            Some(true)
        } else {
            None
        }
    };
    move |a: PlayerId, b: PlayerId| {
        !met.contains(&(a, b))
            && !met.contains(&(b, a))
            && !forbidden.contains(&(a, b))
            && !forbidden.contains(&(b, a))
            && !matches!((absolute(a), absolute(b)), (Some(x), Some(y)) if x == y)
    }
}
