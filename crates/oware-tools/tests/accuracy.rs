//! The shipped accuracy sets (`data/accuracy-v1.txt` to
//! `data/accuracy-v3.txt`): their checksums are pinned, so figures
//! measured on them compare across versions, and every value in them is
//! re-read from the endgame tables. Versions 2 and 3 hold only positions
//! whose game result is open (a legal move changes it).
//!
//! Versions 1 and 2 hold positions of 15 to 22 seeds, version 3 of 15 to
//! 24. CI builds only small tables, so without table files this test
//! builds the tables up to 15 seeds in memory and re-reads the 15-seed
//! positions; with `OWARE_TB_DIR` naming a folder of tables up to 24
//! seeds (`oware tablebase build --max-seeds 24 --dir D`) it re-reads
//! every position, and says which it did.

use oware_engine::tablebase::Tablebase;
use oware_tools::accuracy::{self, checksum, SEEDS, SEEDS_V3, SET, SET_V2, SET_V3};

/// The checksum of version 1 of the set (64-bit FNV-1a of the file). A
/// change to the file is a new version: write it to a new file, keep this
/// one, and pin the new one beside it.
const SET_V1_CHECKSUM: u64 = 0xf4f6_864c_81e2_e6f1;

/// The checksum of version 2 (positions whose result is open).
const SET_V2_CHECKSUM: u64 = 0xd46f_8b8f_1347_555d;

/// Positions of each seed count in version 2.
const V2_PER_COUNT: usize = 40;

/// The checksum of version 3 (open results, 15 to 24 seeds).
const SET_V3_CHECKSUM: u64 = 0x7df7_be82_9c8a_676e;

/// Positions of each seed count in version 3.
const V3_PER_COUNT: usize = 40;

#[test]
fn the_set_is_version_1_byte_for_byte() {
    assert_eq!(
        checksum(SET.as_bytes()),
        SET_V1_CHECKSUM,
        "data/accuracy-v1.txt changed: a new set is a new file"
    );
}

#[test]
fn the_set_reads_and_covers_every_seed_count() {
    let set = accuracy::read(SET).expect("the shipped set reads");
    assert_eq!(set.len(), 480);
    for n in SEEDS {
        let k = set.iter().filter(|e| e.pos.seeds_on_board() == n).count();
        assert_eq!(k, 60, "positions of {n} seeds");
    }
    let mut seen = std::collections::HashSet::new();
    for e in &set {
        assert!(seen.insert(e.pos), "{} twice", e.pos);
        assert!(
            e.moves.iter().any(|&(_, v)| v < e.value),
            "{}: no move loses seeds",
            e.pos
        );
    }
}

#[test]
fn the_set_v2_is_pinned_and_every_result_is_open() {
    assert_eq!(
        checksum(SET_V2.as_bytes()),
        SET_V2_CHECKSUM,
        "data/accuracy-v2.txt changed: a new set is a new file"
    );
    assert!(SET_V2.starts_with(accuracy::HEADER_V2));
    every_result_is_open(SET_V2, SEEDS, V2_PER_COUNT);
}

#[test]
fn the_set_v3_is_pinned_covers_15_to_24_seeds_and_every_result_is_open() {
    assert_eq!(
        checksum(SET_V3.as_bytes()),
        SET_V3_CHECKSUM,
        "data/accuracy-v3.txt changed: a new set is a new file"
    );
    assert!(SET_V3.starts_with(accuracy::HEADER_V3));
    assert_eq!(SEEDS_V3, 15..=24);
    assert_eq!(accuracy::shipped(accuracy::LATEST), Some(SET_V3));
    every_result_is_open(SET_V3, SEEDS_V3, V3_PER_COUNT);
}

/// The set holds `per_count` distinct positions of each seed count of
/// `seeds`, each with a move that changes the game's result, from both
/// sources and every phase of the game.
fn every_result_is_open(text: &str, seeds: std::ops::RangeInclusive<u8>, per_count: usize) {
    let set = accuracy::read(text).expect("the shipped set reads");
    assert_eq!(set.len(), per_count * seeds.clone().count());
    for n in seeds {
        let k = set.iter().filter(|e| e.pos.seeds_on_board() == n).count();
        assert_eq!(k, per_count, "positions of {n} seeds");
    }
    let mut seen = std::collections::HashSet::new();
    for e in &set {
        assert!(seen.insert(e.pos), "{} twice", e.pos);
        assert!(e.is_open(), "{}: no move changes the result", e.pos);
    }
    // Both sources and every phase are represented.
    for source in [accuracy::Source::SelfPlay, accuracy::Source::Levels] {
        assert!(set.iter().any(|e| e.source == source), "{source:?}");
    }
    for phase in [
        accuracy::Phase::Early,
        accuracy::Phase::Middle,
        accuracy::Phase::Late,
    ] {
        assert!(set.iter().any(|e| e.phase() == phase), "{phase:?}");
    }
}

#[test]
fn every_value_agrees_with_the_tables() {
    agrees_with_the_tables(SET, "version 1");
}

#[test]
fn every_value_of_v2_agrees_with_the_tables() {
    agrees_with_the_tables(SET_V2, "version 2");
}

#[test]
fn every_value_of_v3_agrees_with_the_tables() {
    agrees_with_the_tables(SET_V3, "version 3");
}

/// The tables up to the sets' smallest seed count, built in memory once
/// for both sets' tests.
fn small_tables() -> &'static Tablebase {
    static TABLES: std::sync::OnceLock<Tablebase> = std::sync::OnceLock::new();
    TABLES
        .get_or_init(|| Tablebase::build_in_memory(*SEEDS.start() as usize).expect("small tables"))
}

fn agrees_with_the_tables(text: &str, version: &str) {
    let set = accuracy::read(text).expect("the shipped set reads");
    match std::env::var_os("OWARE_TB_DIR") {
        Some(dir) => {
            let tables = oware_engine::tablebase::open(std::path::Path::new(&dir))
                .expect("OWARE_TB_DIR holds valid tables");
            let max = tables.max_seeds().unwrap_or(0);
            let checked = accuracy::check(&set, &tables)
                .unwrap_or_else(|m| panic!("{}: {}", m.pos, m.reason));
            let covered = set
                .iter()
                .filter(|e| e.pos.seeds_on_board() as usize <= max)
                .count();
            assert_eq!(checked, covered);
            eprintln!(
                "{version}: re-read {checked} of {} positions from the tables up to {max} seeds in {}",
                set.len(),
                std::path::Path::new(&dir).display()
            );
        }
        None => {
            let checked = accuracy::check(&set, small_tables())
                .unwrap_or_else(|m| panic!("{}: {}", m.pos, m.reason));
            let smallest = set
                .iter()
                .filter(|e| e.pos.seeds_on_board() == *SEEDS.start())
                .count();
            assert_eq!(checked, smallest);
            assert!(checked > 0);
            eprintln!(
                "{version}: re-read the {checked} positions of {} seeds from tables built in memory; \
                 set OWARE_TB_DIR to a folder of tables up to 24 seeds to re-read all {}",
                SEEDS.start(),
                set.len()
            );
        }
    }
}

/// The benchmark at a node budget, whose figures are the same in every
/// build (the engine is deterministic at a node limit): run it with
/// `cargo test -p oware-tools --profile ci --test accuracy -- --ignored
/// --nocapture` to print the report; `oware tune accuracy --nodes 20000`
/// prints the same.
#[test]
#[ignore = "a measurement (about a minute), not a check"]
fn report_at_20000_nodes() {
    report_at(SET, 20_000);
}

/// The same on version 2 (`oware tune accuracy --set-version 2 --nodes
/// 20000` prints the same).
#[test]
#[ignore = "a measurement (about a minute), not a check"]
fn report_v2_at_20000_nodes() {
    report_at(SET_V2, 20_000);
}

/// The same on version 3 (`oware tune accuracy --set-version 3 --nodes
/// 20000` prints the same).
#[test]
#[ignore = "a measurement (about a minute), not a check"]
fn report_v3_at_20000_nodes() {
    report_at(SET_V3, 20_000);
}

fn report_at(text: &str, nodes: u64) {
    let set = accuracy::read(text).expect("the shipped set reads");
    let mut engine = oware_engine::Engine::new(oware_engine::EngineOptions {
        hash_mb: 16,
        tablebase_dir: None,
    });
    let limits = oware_engine::Limits {
        nodes: Some(nodes),
        ..oware_engine::Limits::default()
    };
    let picks = accuracy::measure(&set, &mut engine, &limits, &mut |_, _| {});
    eprintln!("{}", accuracy::report(&set, &picks));
}
