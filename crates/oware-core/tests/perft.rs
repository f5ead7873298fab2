//! Perft vectors from data files: the project's shared vectors and our own
//! positions (12+ seed houses, feeding, grand slams), cross-checked against
//! the naive reference implementation.

mod common;

use oware_core::{perft, Position};

/// Skip vectors above this many nodes in unoptimised builds.
const NODE_LIMIT: u64 = 50_000_000;

fn check_file(text: &str) -> usize {
    let mut checked = 0;
    for case in common::read_cases(text) {
        let pos: Position = case.get("pos").expect("pos").parse().expect("valid pos");
        let reference = common::Ref::from_core(&pos);
        for line in case.all("perft") {
            let (d, n) = line.split_once(' ').unwrap();
            let (d, n): (u32, u64) = (d.parse().unwrap(), n.parse().unwrap());
            if n > NODE_LIMIT {
                continue;
            }
            assert_eq!(perft(&pos, d), n, "{} perft {d}", case.id());
            if n < 200_000 {
                assert_eq!(reference.perft(d), n, "{} reference perft {d}", case.id());
            }
            checked += 1;
        }
    }
    checked
}

#[test]
fn perft_shared_vectors() {
    assert!(check_file(include_str!("data/perft.txt")) > 50);
}

#[test]
fn perft_own_vectors() {
    assert!(check_file(include_str!("data/own.perft")) > 20);
}

#[test]
fn perft_start_depth_9_and_10() {
    // Deeper counts from the start position, confirmed by the reference
    // implementation when they were first generated.
    assert_eq!(perft(&Position::start(), 9), 3_592_872);
    assert_eq!(perft(&Position::start(), 10), 18_137_964);
}
