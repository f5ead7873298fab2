//! Working arrays of a build in RAM or, past a memory budget, in
//! memory-mapped files of the build folder (spilling).
//!
//! A spilled array lives in a file mapped shared and read-write; the file
//! is unlinked as soon as it is mapped, so a build that dies leaves none
//! behind and the pages reach the disk only when the kernel needs the
//! memory. The builder's visits are random, so a spilled array that does
//! not fit in the page cache costs a page fault a visit: a fallback for
//! machines short of RAM, not a speed-up (docs/SOLVING.md has the figures).

use std::fs::OpenOptions;
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};
use std::path::Path;

use crate::TbError;

/// Element types of a spillable array: every bit pattern, all-zero
/// included, is a valid value, and the alignment divides a page's.
pub(crate) trait Plain: Copy + Default + Send + Sync + 'static {}
impl Plain for u8 {}
impl Plain for u32 {}

/// A zero-initialised array, in RAM or in a mapped file.
pub(crate) enum Buf<T: Plain> {
    Ram(Vec<T>),
    File {
        map: memmap2::MmapMut,
        len: usize,
        _t: PhantomData<T>,
    },
}

impl<T: Plain> Buf<T> {
    /// `len` zeros: in RAM without `spill`, else in a file at `spill`.
    pub(crate) fn zeroed(len: usize, spill: Option<&Path>) -> Result<Buf<T>, TbError> {
        let path = match spill {
            Some(p) if len > 0 => p,
            _ => return Ok(Buf::Ram(vec![T::default(); len])),
        };
        let io = |source| TbError::Io {
            path: path.to_owned(),
            source,
        };
        let f = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)
            .map_err(io)?;
        // A new file reads as zeros, which is every type's zero.
        f.set_len((len * std::mem::size_of::<T>()) as u64)
            .map_err(io)?;
        // SAFETY: the file was just created by this process under a name of
        // the build folder and is unlinked below, so no other program maps
        // or truncates it while the map lives.
        let map = unsafe { memmap2::MmapMut::map_mut(&f) }.map_err(io)?;
        std::fs::remove_file(path).map_err(io)?;
        Ok(Buf::File {
            map,
            len,
            _t: PhantomData,
        })
    }

    /// The vector, if the array is in RAM.
    pub(crate) fn into_vec(self) -> Option<Vec<T>> {
        match self {
            Buf::Ram(v) => Some(v),
            Buf::File { .. } => None,
        }
    }

    pub(crate) fn is_spilled(&self) -> bool {
        matches!(self, Buf::File { .. })
    }
}

impl<T: Plain> Deref for Buf<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match self {
            Buf::Ram(v) => v,
            // SAFETY: the map is page-aligned (so aligned for T, see
            // `Plain`), holds `len` values of T, and any bit pattern is a T.
            Buf::File { map, len, .. } => unsafe {
                std::slice::from_raw_parts(map.as_ptr() as *const T, *len)
            },
        }
    }
}

impl<T: Plain> DerefMut for Buf<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        match self {
            Buf::Ram(v) => v,
            // SAFETY: as for `deref`, and `&mut self` makes the access
            // exclusive.
            Buf::File { map, len, .. } => unsafe {
                std::slice::from_raw_parts_mut(map.as_mut_ptr() as *mut T, *len)
            },
        }
    }
}
