//! How long pairing takes: seeded random Swiss tournaments of 40, 100 and
//! 200 players over 9 rounds, and arena pairings of 100 and 500 waiting
//! players, each timed beside the standings of the same history (the
//! baseline, alternating with it). Run with
//! `cargo run -p oware-tournament --release --example pairing_times`.

use std::time::{Duration, Instant};

use oware_tournament::{arena, swiss, Outcome};

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

fn outcome(rng: &mut Rng) -> Outcome {
    [Outcome::SouthWon, Outcome::NorthWon, Outcome::Draw][rng.below(3) as usize]
}

fn main() {
    let mut rng = Rng(7);
    for n in [40u32, 100, 200] {
        let players: Vec<swiss::Player> = (0..n)
            .map(|id| swiss::Player {
                id,
                rating: 1200 + rng.below(1000) as i32,
                active: true,
            })
            .collect();
        let mut played: Vec<swiss::Round> = Vec::new();
        let (mut pairing, mut baseline, mut worst) =
            (Duration::ZERO, Duration::ZERO, Duration::ZERO);
        for _ in 0..9 {
            let t = Instant::now();
            let r = swiss::pair_next_round(&players, &played, 9, &[]).expect("pairs");
            let d = t.elapsed();
            pairing += d;
            worst = worst.max(d);
            let t = Instant::now();
            std::hint::black_box(swiss::standings(&players, &played));
            baseline += t.elapsed();
            let mut round: swiss::Round = r
                .games
                .iter()
                .map(|g| swiss::Entry::Game {
                    south: g.south,
                    north: g.north,
                    outcome: Some(outcome(&mut rng)),
                })
                .collect();
            round.extend(r.bye.map(|player| swiss::Entry::Bye { player }));
            played.push(round);
        }
        println!(
            "swiss {n} players, 9 rounds: pairing {:.2} ms per round (worst {:.2} ms); standings {:.3} ms per round",
            pairing.as_secs_f64() * 1e3 / 9.0,
            worst.as_secs_f64() * 1e3,
            baseline.as_secs_f64() * 1e3 / 9.0
        );
    }
    for n in [100u32, 500] {
        let ratings: Vec<(u32, i32)> = (0..n).map(|p| (p, 1200 + rng.below(1000) as i32)).collect();
        let mut games = Vec::new();
        for _ in 0..n * 5 {
            let (a, b) = (
                rng.below(u64::from(n)) as u32,
                rng.below(u64::from(n)) as u32,
            );
            if a != b {
                games.push(arena::Game {
                    south: a,
                    north: b,
                    outcome: Some(outcome(&mut rng)),
                });
            }
        }
        let waiting: Vec<u32> = (0..n).collect();
        let (mut pairing, mut baseline) = (Duration::ZERO, Duration::ZERO);
        for _ in 0..10 {
            let t = Instant::now();
            std::hint::black_box(arena::pair(&waiting, &ratings, &games, &[]));
            pairing += t.elapsed();
            let t = Instant::now();
            std::hint::black_box(arena::standings(&waiting, &games));
            baseline += t.elapsed();
        }
        println!(
            "arena {n} waiting, {} games: pairing {:.2} ms; standings {:.3} ms",
            games.len(),
            pairing.as_secs_f64() * 1e3 / 10.0,
            baseline.as_secs_f64() * 1e3 / 10.0
        );
    }
}
