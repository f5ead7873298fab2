//! Subcommands, one module per area; each owns its `Command` enum, which
//! `main` flattens into the top-level command list.

pub mod book;
pub mod core;
pub mod engine;
pub mod play;
pub mod serve;
pub mod serve_bench;
pub mod tablebase;
#[cfg(feature = "mpi")]
pub mod tablebase_mpi;
