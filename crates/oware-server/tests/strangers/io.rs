//! Findings 5, 6, 7, 10 and 11: slow clients, heavy reads, the operator's
//! terminal, puzzle ratings and offline-game uploads.
