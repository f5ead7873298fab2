//! Files: round trip, resume, and refusal of corrupt or mismatched files.

use std::fs;
use std::sync::atomic::{AtomicU64, Ordering};

use oware_core::Position;
use oware_tablebase::{build_to_dir, file, index, Damage, LevelStatus, Tablebase, TbError};

const N: usize = 7;

fn build(dir: &std::path::Path) -> Vec<(usize, LevelStatus)> {
    let mut statuses = Vec::new();
    build_to_dir(dir, N, &|_| {}, &mut |n, s| statuses.push((n, s))).unwrap();
    statuses
}

#[test]
fn files_probe_like_the_in_memory_table() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path());
    let on_disk = Tablebase::open(dir.path()).unwrap();
    let in_memory = Tablebase::build_in_memory(N).unwrap();
    assert_eq!(on_disk.max_seeds(), Some(N));
    for n in 0..=N {
        for i in 0..index::count(n) {
            let pos = index::position_of(&index::unrank(n, i).unwrap());
            assert_eq!(on_disk.probe(&pos), in_memory.probe(&pos), "{pos}");
        }
        assert_eq!(
            fs::metadata(file::path_for(dir.path(), n)).unwrap().len(),
            file::HEADER_LEN as u64 + index::count(n),
            "a byte per position"
        );
    }
    assert!(on_disk.probe(&Position::start()).is_none());
}

#[test]
fn build_resumes_from_valid_files() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path());
    fs::remove_file(file::path_for(dir.path(), N)).unwrap();
    fs::remove_file(file::path_for(dir.path(), N - 1)).unwrap();
    let before = fs::metadata(file::path_for(dir.path(), 3))
        .unwrap()
        .modified()
        .unwrap();
    let statuses = build(dir.path());
    let built: Vec<usize> = statuses
        .iter()
        .filter(|s| s.1 == LevelStatus::Built)
        .map(|s| s.0)
        .collect();
    assert_eq!(built, vec![N - 1, N]);
    assert_eq!(
        fs::metadata(file::path_for(dir.path(), 3))
            .unwrap()
            .modified()
            .unwrap(),
        before
    );
    // No temporary file is left behind.
    assert!(fs::read_dir(dir.path())
        .unwrap()
        .all(|e| e.unwrap().path().extension().unwrap() == "otb"));
    // Progress reaches the total.
    let done = AtomicU64::new(0);
    fs::remove_file(file::path_for(dir.path(), N)).unwrap();
    build_to_dir(
        dir.path(),
        N,
        &|p| done.store(p.done * 1000 / p.total, Ordering::Relaxed),
        &mut |_, _| {},
    )
    .unwrap();
    assert_eq!(done.load(Ordering::Relaxed), 1000);
}

fn corrupt_reason(dir: &std::path::Path) -> String {
    match Tablebase::open(dir) {
        Err(e @ TbError::Corrupt { .. }) => e.to_string(),
        Err(e) => panic!("unexpected error {e}"),
        Ok(_) => panic!("a damaged file was accepted"),
    }
}

#[test]
fn a_flipped_byte_anywhere_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path());
    let path = file::path_for(dir.path(), 5);
    let good = fs::read(&path).unwrap();
    for offset in [
        0,
        9,
        13,
        20,
        25,
        33,
        40,
        64,
        65,
        file::HEADER_LEN,
        file::HEADER_LEN + 100,
        good.len() - 1,
    ] {
        let mut bad = good.clone();
        bad[offset] ^= 0x10;
        fs::write(&path, &bad).unwrap();
        let reason = corrupt_reason(dir.path());
        assert!(reason.contains("oware-tb-05.otb"), "{reason}");
    }
    fs::write(&path, &good).unwrap();
    Tablebase::open(dir.path()).unwrap();
}

#[test]
fn truncated_and_mismatched_files_are_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path());
    let p5 = file::path_for(dir.path(), 5);
    let p6 = file::path_for(dir.path(), 6);
    let good5 = fs::read(&p5).unwrap();
    fs::write(&p5, &good5[..good5.len() - 1]).unwrap();
    assert!(corrupt_reason(dir.path()).contains("truncated"));
    fs::write(&p5, &good5[..10]).unwrap();
    assert!(corrupt_reason(dir.path()).contains("too short"));
    // The 6-seed file under the 5-seed name.
    fs::copy(&p6, &p5).unwrap();
    assert!(corrupt_reason(dir.path()).contains("expected 5"));
    fs::write(&p5, b"not a table at all, just some text padding it out to be long enough........................................................................................................................................................................................................................................................................................................................................................................................................................................................................................................................................................................").unwrap();
    assert!(corrupt_reason(dir.path()).contains("magic"));
    let mut newer = good5.clone();
    newer[8] = 3;
    fs::write(&p5, &newer).unwrap();
    assert!(corrupt_reason(dir.path()).contains("version 3"));
    // Version 1 held looser bounds: refused too, not misread.
    let mut older = good5.clone();
    older[8] = 1;
    fs::write(&p5, &older).unwrap();
    assert!(corrupt_reason(dir.path()).contains("version 1"));
    // A corrupt file also stops a build that would keep it.
    fs::write(&p5, &newer).unwrap();
    let err = build_to_dir(dir.path(), N, &|_| {}, &mut |_, _| {}).unwrap_err();
    assert!(err.to_string().contains("version"), "{err}");
}

/// The file with its checksum field (offset 32) set for its new contents.
fn with_checksum(mut bytes: Vec<u8>) -> Vec<u8> {
    bytes[32..36].fill(0);
    let crc = crc32fast::hash(&bytes);
    bytes[32..36].copy_from_slice(&crc.to_le_bytes());
    bytes
}

#[test]
fn the_cycle_step_limit_is_recorded_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path());
    let p5 = file::path_for(dir.path(), 5);
    let good5 = fs::read(&p5).unwrap();
    let limit = u32::from_le_bytes(good5[28..32].try_into().unwrap());
    assert_eq!(limit as usize, oware_tablebase::REFINE_MAX_SEEDS);
    assert_eq!(with_checksum(good5.clone()), good5, "the checksum recipe");
    // Built with another limit: the values would differ from a rebuild.
    let mut other = good5.clone();
    other[28..32].copy_from_slice(&20u32.to_le_bytes());
    fs::write(&p5, with_checksum(other)).unwrap();
    let reason = corrupt_reason(dir.path());
    assert!(reason.contains("up to 20 seeds"), "{reason}");
    // Files from before the field hold 0 there and were built with 10.
    let mut legacy = good5.clone();
    legacy[28..32].fill(0);
    fs::write(&p5, with_checksum(legacy)).unwrap();
    Tablebase::open(dir.path()).unwrap();
}

#[test]
fn tables_load_up_to_the_first_gap() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path());
    fs::remove_file(file::path_for(dir.path(), 4)).unwrap();
    assert_eq!(Tablebase::open(dir.path()).unwrap().max_seeds(), Some(3));
    let empty = tempfile::tempdir().unwrap();
    assert_eq!(Tablebase::open(empty.path()).unwrap().max_seeds(), None);
}

#[test]
fn tables_from_bytes_probe_like_the_files_and_refuse_damage() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path());
    let read = || -> Vec<Vec<u8>> {
        (0..=N)
            .map(|n| fs::read(file::path_for(dir.path(), n)).unwrap())
            .collect()
    };
    let on_disk = Tablebase::open(dir.path()).unwrap();
    // The files in memory are the files on disk, byte for byte.
    assert_eq!(
        (0..=N)
            .map(|n| on_disk.file_bytes(n).unwrap())
            .collect::<Vec<_>>(),
        read()
    );
    assert_eq!(on_disk.file_bytes(N + 1), None);
    let from_bytes = Tablebase::from_bytes(read()).unwrap();
    assert_eq!(from_bytes.max_seeds(), Some(N));
    for n in 0..=N {
        for i in (0..index::count(n)).step_by(7) {
            let pos = index::position_of(&index::unrank(n, i).unwrap());
            assert_eq!(from_bytes.probe(&pos), on_disk.probe(&pos), "{pos}");
        }
    }
    // A flipped entry: the checksum refuses it, naming the file.
    let mut files = read();
    let last = files[6].len() - 1;
    files[6][last] ^= 1;
    match Tablebase::from_bytes(files) {
        Err(e @ TbError::Corrupt { .. }) => {
            let text = e.to_string();
            assert!(text.contains("oware-tb-06.otb"), "{text}");
            assert!(text.contains("checksum"), "{text}");
        }
        other => panic!("a damaged file was accepted: {other:?}"),
    }
    // Files out of order: the seed count in the header is checked.
    let mut files = read();
    files.swap(3, 4);
    assert!(matches!(
        Tablebase::from_bytes(files),
        Err(TbError::Corrupt { .. })
    ));
}

/// The kind of damage `Tablebase::open` finds in `dir`.
fn damage(dir: &std::path::Path) -> Damage {
    match Tablebase::open(dir) {
        Err(TbError::Corrupt { path, reason }) => {
            assert!(path.ends_with("oware-tb-05.otb"), "{}", path.display());
            reason
        }
        Err(e) => panic!("unexpected error {e}"),
        Ok(_) => panic!("a damaged file was accepted"),
    }
}

#[test]
fn every_kind_of_damage_is_found_in_a_damaged_file() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path());
    let p5 = file::path_for(dir.path(), 5);
    let good = fs::read(&p5).unwrap();
    let entries = index::count(5);
    let len = good.len() as u64;
    let plen = u32::from_le_bytes(good[24..28].try_into().unwrap()) as usize;
    assert!(plen < 255, "{plen}");
    let set = |at: usize, bytes: &[u8]| {
        let mut b = good.clone();
        b[at..at + bytes.len()].copy_from_slice(bytes);
        b
    };
    let stored = u32::from_le_bytes(good[32..36].try_into().unwrap());
    let mut flipped = good.clone();
    *flipped.last_mut().unwrap() ^= 1;
    let mut cut = good.clone();
    cut.pop();
    let mut padded = good.clone();
    padded.push(0);
    let mut bad_code = good.clone();
    *bad_code.last_mut().unwrap() = plen as u8;
    let cases: Vec<(Vec<u8>, Damage)> = vec![
        (good[..10].to_vec(), Damage::TooShort { len: 10 }),
        (Vec::new(), Damage::TooShort { len: 0 }),
        (vec![b'x'; 2000], Damage::NotATable),
        (set(8, &[3]), Damage::Version { found: 3 }),
        (set(8, &[1]), Damage::Version { found: 1 }),
        (
            with_checksum(set(28, &20u32.to_le_bytes())),
            Damage::CycleLimit { found: 20 },
        ),
        (
            fs::read(file::path_for(dir.path(), 6)).unwrap(),
            Damage::OtherSeeds {
                found: 6,
                expected: 5,
            },
        ),
        (
            set(16, &(entries + 1).to_le_bytes()),
            Damage::EntryCount {
                found: entries + 1,
                seeds: 5,
                expected: entries,
            },
        ),
        (
            cut,
            Damage::Size {
                len: len - 1,
                expected: len,
            },
        ),
        (
            padded,
            Damage::Size {
                len: len + 1,
                expected: len,
            },
        ),
        (
            set(24, &0u32.to_le_bytes()),
            Damage::PaletteLength { len: 0 },
        ),
        (
            set(24, &257u32.to_le_bytes()),
            Damage::PaletteLength { len: 257 },
        ),
        (
            flipped.clone(),
            Damage::Checksum {
                stored,
                computed: u32::from_le_bytes(with_checksum(flipped)[32..36].try_into().unwrap()),
            },
        ),
        (
            with_checksum(set(64, &[3, 2])),
            Damage::PaletteEntry {
                slot: 0,
                lower: 3,
                upper: 2,
                seeds: 5,
            },
        ),
        (
            with_checksum(set(64, &[0, 6])),
            Damage::PaletteEntry {
                slot: 0,
                lower: 0,
                upper: 6,
                seeds: 5,
            },
        ),
        (
            with_checksum(bad_code),
            Damage::UnknownSlot {
                slot: plen as u8,
                palette: plen,
            },
        ),
    ];
    for (bytes, expected) in cases {
        fs::write(&p5, &bytes).unwrap();
        let found = damage(dir.path());
        assert_eq!(found, expected);
        // The library's words name the file and the damage.
        let text = Tablebase::open(dir.path()).err().unwrap().to_string();
        assert!(text.starts_with(p5.to_str().unwrap()), "{text}");
        assert!(text.ends_with(&expected.to_string()), "{text}");
        // The same bytes given in memory are refused the same way.
        let mut files: Vec<Vec<u8>> = (0..5)
            .map(|n| fs::read(file::path_for(dir.path(), n)).unwrap())
            .collect();
        files.push(bytes);
        match Tablebase::from_bytes(files) {
            Err(TbError::Corrupt { reason, .. }) => assert_eq!(reason, expected),
            other => panic!("accepted: {:?}", other.map(|t| t.max_seeds())),
        }
    }
    fs::write(&p5, &good).unwrap();
    Tablebase::open(dir.path()).unwrap();
    // More tables than the game has seeds, in memory: refused before any
    // is read.
    match Tablebase::from_bytes(vec![Vec::new(); index::MAX_SEEDS + 2]) {
        Err(TbError::Corrupt { path, reason }) => {
            assert_eq!(reason, Damage::TooManySeeds { seeds: 49 });
            assert_eq!(path.to_str(), Some("oware-tb-49.otb"));
        }
        other => panic!("accepted: {:?}", other.map(|t| t.max_seeds())),
    }
}
