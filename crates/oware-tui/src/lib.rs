//! The terminal game (work in progress).
