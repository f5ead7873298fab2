//! Networks trained with output buckets (format version 2), as
//! `scripts/train-nn.py --buckets` writes them: the candidate of
//! docs/ENGINE.md ("Output buckets and the seed margin") reads back, and
//! the integer inference agrees with the trainer's float model on its
//! reference positions, so the trainer and `oware_engine::nn` cut the game
//! into the same buckets and compute the same function.

use oware_core::Position;
use oware_engine::nn::{bucket, NetError, Network};

const CANDIDATE: &[u8] = include_bytes!("networks/e-buckets8-margin1.nn");
const REFERENCE: &str = include_str!("networks/e-buckets8-margin1.reference.txt");

#[test]
fn the_bucketed_candidate_reads_and_agrees_with_its_float_model() {
    let net = Network::from_bytes(CANDIDATE).expect("a valid version-2 network");
    assert_eq!(net.buckets(), 8);
    assert_eq!(net.to_bytes(), CANDIDATE);
    let mut seen = [0usize; 8];
    let mut n = 0;
    for line in REFERENCE.lines().filter(|l| !l.starts_with('#')) {
        let (p, v) = line.split_once(' ').unwrap();
        let pos: Position = p.parse().unwrap();
        let float: f64 = v.trim().parse().unwrap();
        let int = net.evaluate(&pos) as f64;
        assert!((int - net.evaluate_f64(&pos)).abs() <= 0.5 + 1e-9, "{pos}");
        // The bound of the shipped network's reference test.
        assert!(
            (int - float).abs() <= 6.0 + 0.02 * float.abs(),
            "{pos}: {int} vs {float}"
        );
        seen[bucket(8, pos.seeds_on_board() as u32)] += 1;
        n += 1;
    }
    assert!(n >= 100, "{n} reference positions");
    // The reference positions reach most of the buckets, so a bucket read
    // in the wrong place would show.
    assert!(seen.iter().filter(|&&c| c > 0).count() >= 6, "{seen:?}");
}

#[test]
fn a_damaged_bucketed_network_is_refused() {
    let mut v = CANDIDATE.to_vec();
    let last = v.len() - 10;
    v[last] ^= 1;
    assert!(matches!(
        Network::from_bytes(&v),
        Err(NetError::Checksum { .. })
    ));
    assert!(matches!(
        Network::from_bytes(&CANDIDATE[..CANDIDATE.len() - 4 * 8]),
        Err(NetError::Length { .. })
    ));
}
