//! Subcommands, one module per area.

pub mod core;
