//! Blocks between entrants (issue 33): a Swiss honours them when it can
//! and never lets them end or stall the event.

use std::time::{Duration, Instant};

use oware_tournament::swiss::{pair_round, Entry, Player, Round};
use oware_tournament::{Outcome, PlayerId};

struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) % n
    }
}

fn field(n: u32, rng: &mut Rng) -> Vec<Player> {
    (0..n)
        .map(|id| Player {
            id,
            rating: 1200 + rng.below(1000) as i32,
            active: true,
        })
        .collect()
}

/// Plays `rounds` rounds of random results through `pair_round`, checking
/// each: everyone active is paired once (or has the bye), and when the
/// blocks were honoured no blocked pair meets. Returns the slowest
/// pairing and how many rounds had to ignore the blocks.
fn play(
    players: &[Player],
    rounds: u32,
    blocks: &[(PlayerId, PlayerId)],
    rng: &mut Rng,
) -> (Duration, u32) {
    let mut played: Vec<Round> = Vec::new();
    let (mut worst, mut ignored) = (Duration::ZERO, 0);
    for r in 0..rounds {
        let t = Instant::now();
        let p = pair_round(players, &played, rounds, blocks)
            .unwrap_or_else(|e| panic!("round {}: {e}", r + 1));
        worst = worst.max(t.elapsed());
        let mut seen: Vec<PlayerId> = p
            .pairing
            .games
            .iter()
            .flat_map(|g| [g.south, g.north])
            .chain(p.pairing.bye)
            .collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), players.len(), "round {}: everyone", r + 1);
        if p.blocks_ignored {
            ignored += 1;
        } else {
            for g in &p.pairing.games {
                assert!(
                    !blocks
                        .iter()
                        .any(|&b| b == (g.south, g.north) || b == (g.north, g.south)),
                    "round {}: a blocked pair met though the blocks were honoured",
                    r + 1
                );
            }
        }
        let mut round: Round = p
            .pairing
            .games
            .iter()
            .map(|g| Entry::Game {
                south: g.south,
                north: g.north,
                outcome: Some(
                    [Outcome::SouthWon, Outcome::NorthWon, Outcome::Draw][rng.below(3) as usize],
                ),
            })
            .collect();
        round.extend(p.pairing.bye.map(|player| Entry::Bye { player }));
        played.push(round);
    }
    (worst, ignored)
}

/// Finding 3: an entrant who blocks everyone else cannot end a Swiss: the
/// rounds it announced are all played, the blocks set aside when no
/// pairing can honour them.
#[test]
fn finding_3_one_entrants_blocks_never_end_a_swiss() {
    let mut rng = Rng(3);
    let players = field(4, &mut rng);
    let blocks: Vec<(PlayerId, PlayerId)> = (1..4).map(|other| (0, other)).collect();
    let (_, ignored) = play(&players, 3, &blocks, &mut rng);
    assert_eq!(ignored, 3, "every round had to set the blocks aside");
    // A block that can be honoured is.
    let (_, ignored) = play(&players, 3, &[(0, 1)], &mut rng);
    assert!(ignored <= 1, "round 1 honours a single block");
}

/// Finding 13: 200 entrants, 60 of whom block all but a few of the
/// others: every round pairs quickly (it took 17 s, and 96 s with 100
/// such blockers).
#[test]
fn finding_13_a_swiss_of_200_with_many_blocks_pairs_quickly() {
    let mut rng = Rng(13);
    let players = field(200, &mut rng);
    let mut blocks = Vec::new();
    for blocker in 0..60u32 {
        let keep: Vec<u32> = (0..5).map(|_| rng.below(200) as u32).collect();
        for other in 0..200u32 {
            if other != blocker && !keep.contains(&other) {
                blocks.push((blocker, other));
            }
        }
    }
    let (worst, ignored) = play(&players, 5, &blocks, &mut rng);
    eprintln!("slowest round: {worst:?}; rounds with the blocks set aside: {ignored}");
    assert!(
        worst < Duration::from_secs(3),
        "a round took {worst:?} (the cap is a second; 3 s allows for a loaded machine)"
    );
}
