//! The file format: one file per seed count, `oware-tb-NN.otb`.
//!
//! ```text
//! offset  size  field
//!      0     8  magic "OWARETB" followed by 0x1A
//!      8     4  format version (little-endian u32), currently 2 (version 1
//!               held the looser bounds that scored every cycle as the
//!               worst case; it is refused)
//!     12     4  seed count n
//!     16     8  entry count, C(n + 11, 11)
//!     24     4  palette length P (1..=256)
//!     28     4  cycle-step limit: the largest seed count whose
//!               never-capturing cycles were scored by R11
//!               ([`crate::REFINE_MAX_SEEDS`]); 0 in files written before
//!               this field, which were built with the limit 10
//!     32     4  CRC-32 (IEEE) of the whole file with this field zeroed
//!     36    28  zero
//!     64   512  palette: 256 pairs (lower, upper), the first P used
//!    576     N  one byte per board, in index order ([`crate::index`]):
//!               the palette slot of its (lower, upper) pair
//! ```
//!
//! Opening checks every field against the expected seed count, the file
//! size, the palette (pairs within `0..=n`, lower ≤ upper, codes within P)
//! and the checksum, and refuses the file with the reason otherwise.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::{index, Bytes, Damage, Level, TbError};

/// The magic bytes that start every table file.
pub const MAGIC: [u8; 8] = *b"OWARETB\x1a";
/// The format version this crate writes and reads.
pub const VERSION: u32 = 2;
/// Size of the header, palette included: the offset of the first entry.
pub const HEADER_LEN: usize = 576;

/// The file name of the table of `seeds` seeds.
pub fn file_name(seeds: usize) -> String {
    format!("oware-tb-{seeds:02}.otb")
}

/// The path of the table of `seeds` seeds in `dir`.
pub fn path_for(dir: &Path, seeds: usize) -> PathBuf {
    dir.join(file_name(seeds))
}

fn header(level: &Level) -> [u8; HEADER_LEN] {
    header_bytes(level.seeds, &level.palette)
}

/// The header and palette of the table of `seeds` seeds, checksum zero.
pub(crate) fn header_bytes(seeds: usize, palette: &[(u8, u8)]) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[0..8].copy_from_slice(&MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&(seeds as u32).to_le_bytes());
    h[16..24].copy_from_slice(&index::count(seeds).to_le_bytes());
    h[24..28].copy_from_slice(&(palette.len() as u32).to_le_bytes());
    h[28..32].copy_from_slice(&(crate::REFINE_MAX_SEEDS as u32).to_le_bytes());
    for (i, &(l, u)) in palette.iter().enumerate() {
        h[64 + 2 * i] = l;
        h[65 + 2 * i] = u;
    }
    h
}

fn checksum(header: &[u8], codes: &[u8]) -> u32 {
    let mut zeroed = [0u8; HEADER_LEN];
    zeroed.copy_from_slice(&header[..HEADER_LEN]);
    zeroed[32..36].fill(0);
    let mut c = crc32fast::Hasher::new();
    c.update(&zeroed);
    c.update(codes);
    c.finalize()
}

/// A level's file, as [`write_level`] writes it, in memory.
pub(crate) fn level_bytes(level: &Level) -> Vec<u8> {
    let mut h = header(level);
    let crc = checksum(&h, level.codes());
    h[32..36].copy_from_slice(&crc.to_le_bytes());
    let mut out = Vec::with_capacity(HEADER_LEN + level.codes().len());
    out.extend_from_slice(&h);
    out.extend_from_slice(level.codes());
    out
}

/// Writes a level to `path` atomically: to `path` + `.tmp`, synced, then
/// renamed over `path`.
pub(crate) fn write_level(path: &Path, level: &Level) -> Result<(), TbError> {
    let io = |source| TbError::Io {
        path: path.to_owned(),
        source,
    };
    let mut h = header(level);
    let crc = checksum(&h, level.codes());
    h[32..36].copy_from_slice(&crc.to_le_bytes());
    let tmp = path.with_extension("otb.tmp");
    let mut f = File::create(&tmp).map_err(io)?;
    f.write_all(&h).map_err(io)?;
    f.write_all(level.codes()).map_err(io)?;
    f.sync_all().map_err(io)?;
    drop(f);
    std::fs::rename(&tmp, path).map_err(io)?;
    Ok(())
}

/// Maps and checks the file of `seeds` seeds.
pub(crate) fn open_level(path: &Path, seeds: usize) -> Result<Level, TbError> {
    let f = File::open(path).map_err(|source| TbError::Io {
        path: path.to_owned(),
        source,
    })?;
    // SAFETY: the map is read-only; the builder replaces files by rename,
    // never in place. A file truncated or rewritten by another program while
    // mapped is outside what this crate can defend against.
    let map = unsafe { memmap2::Mmap::map(&f) }.map_err(|source| TbError::Io {
        path: path.to_owned(),
        source,
    })?;
    let palette = check(path, &map, seeds)?;
    Ok(Level {
        seeds,
        bytes: Bytes::Mapped(map),
        offset: HEADER_LEN,
        palette,
    })
}

/// Checks the bytes of a table file of `seeds` seeds already in memory
/// (read by the caller, as a browser does); `name` names it in errors.
pub(crate) fn level_from_bytes(name: &Path, data: Vec<u8>, seeds: usize) -> Result<Level, TbError> {
    let palette = check(name, &data, seeds)?;
    Ok(Level {
        seeds,
        bytes: Bytes::Owned(data),
        offset: HEADER_LEN,
        palette,
    })
}

/// Checks a table file's bytes (header, size, checksum, palette) and
/// returns its palette.
fn check(path: &Path, map: &[u8], seeds: usize) -> Result<Vec<(u8, u8)>, TbError> {
    let corrupt = |reason: Damage| TbError::Corrupt {
        path: path.to_owned(),
        reason,
    };
    if map.len() < HEADER_LEN {
        return Err(corrupt(Damage::TooShort {
            len: map.len() as u64,
        }));
    }
    if map[0..8] != MAGIC {
        return Err(corrupt(Damage::NotATable));
    }
    let u32_at = |o: usize| u32::from_le_bytes(map[o..o + 4].try_into().unwrap());
    let version = u32_at(8);
    if version != VERSION {
        return Err(corrupt(Damage::Version { found: version }));
    }
    let cycle_limit = match u32_at(28) {
        0 => 10,
        v => v as usize,
    };
    if cycle_limit != crate::REFINE_MAX_SEEDS {
        return Err(corrupt(Damage::CycleLimit { found: cycle_limit }));
    }
    let file_seeds = u32_at(12) as usize;
    if file_seeds != seeds {
        return Err(corrupt(Damage::OtherSeeds {
            found: file_seeds,
            expected: seeds,
        }));
    }
    let entries = u64::from_le_bytes(map[16..24].try_into().unwrap());
    if entries != index::count(seeds) {
        return Err(corrupt(Damage::EntryCount {
            found: entries,
            seeds,
            expected: index::count(seeds),
        }));
    }
    let expected_len = HEADER_LEN as u64 + entries;
    if map.len() as u64 != expected_len {
        return Err(corrupt(Damage::Size {
            len: map.len() as u64,
            expected: expected_len,
        }));
    }
    let plen = u32_at(24) as usize;
    if plen == 0 || plen > 256 {
        return Err(corrupt(Damage::PaletteLength { len: plen }));
    }
    let stored = u32_at(32);
    let actual = checksum(&map[..HEADER_LEN], &map[HEADER_LEN..]);
    if stored != actual {
        return Err(corrupt(Damage::Checksum {
            stored,
            computed: actual,
        }));
    }
    let mut palette = Vec::with_capacity(plen);
    for i in 0..plen {
        let (l, u) = (map[64 + 2 * i], map[65 + 2 * i]);
        if l > u || u as usize > seeds {
            return Err(corrupt(Damage::PaletteEntry {
                slot: i,
                lower: l,
                upper: u,
                seeds,
            }));
        }
        palette.push((l, u));
    }
    if plen < 256 {
        let bad = crate::build::max_code(&map[HEADER_LEN..]);
        if bad as usize >= plen {
            return Err(corrupt(Damage::UnknownSlot {
                slot: bad,
                palette: plen,
            }));
        }
    }
    Ok(palette)
}
