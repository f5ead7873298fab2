//! Perft benchmark: moves made per second by oware-core's move generator,
//! beside the naive plain-array reference implementation from the tests as
//! a baseline measured in the same run (the machines are shared and noisy).
//!
//! `cargo bench -p oware-core --bench perft`

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use oware_core::{perft, Position};

/// Moves made by perft(depth): one per node at depths 1..=depth.
fn moves_made(pos: &Position, depth: u32) -> u64 {
    (1..=depth).map(|d| perft(pos, d)).sum()
}

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (name, pos, depth) in [
        ("start-d9", Position::start(), 9),
        (
            "midgame-d8",
            "5-0-7-1-6-4-3-7-0-2-5-2-3-3-S".parse::<Position>().unwrap(),
            8,
        ),
    ] {
        group.throughput(Throughput::Elements(moves_made(&pos, depth)));
        group.bench_function(format!("oware-core/{name}"), |b| {
            b.iter(|| perft(black_box(&pos), depth))
        });
        let reference = common::Ref::from_core(&pos);
        group.bench_function(format!("plain-array-baseline/{name}"), |b| {
            b.iter(|| black_box(&reference).perft(depth))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
