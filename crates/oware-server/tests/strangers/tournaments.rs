//! Findings 1–4, 9, 12 and 13: tournaments, blocks and deletion.
