//! Tools for developing the engine, kept out of the library crates:
//! matches between UCI engines ([`arena`]) and the statistics that judge
//! them ([`stats`]: Elo with error bars, likelihood of superiority, and the
//! sequential probability ratio test), and the fitting of the evaluation
//! weights on self-play data ([`tune`]) and the evaluation network's
//! training data ([`nn_data`]), and the perfect-play benchmark
//! ([`accuracy`]): the engine's moves judged by the endgame tables.

#![deny(missing_docs)]

pub mod accuracy;
pub mod arena;
pub mod coach;
pub mod nn_data;
pub mod puzzles;
mod selfplay;
pub mod stats;
pub mod tune;
