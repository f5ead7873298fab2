//! Endgame tablebases for Oware Abapa (work in progress).
