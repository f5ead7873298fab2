use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use oware_core::{perft, Position};

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    for (name, pos, depth) in [
        ("start-d9", Position::start(), 9),
        ("midgame-d8", "5-0-7-1-6-4-3-7-0-2-5-2-3-3-S".parse::<Position>().unwrap(), 8),
    ] {
        let nodes = perft(&pos, depth);
        group.throughput(Throughput::Elements(nodes));
        group.sample_size(10);
        group.bench_function(name, |b| b.iter(|| perft(black_box(&pos), depth)));
    }
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
