//! Subcommands, one module per area; each owns its `Command` enum, which
//! `main` flattens into the top-level command list.

pub mod admin;
pub mod book;
pub mod core;
pub mod engine;
pub mod learn;
pub mod play;
pub mod puzzle;
pub mod serve;
pub mod serve_bench;
pub mod tablebase;
#[cfg(feature = "mpi")]
pub mod tablebase_mpi;

/// An error already worded for people, in their language: `main` prints it
/// as it is ("error: …" or "erreur : …") and exits with status 2.
#[derive(Debug)]
pub struct Said {
    /// The language of the text.
    pub lang: oware_session::Lang,
    /// The sentence.
    pub text: String,
}

impl Said {
    pub fn new(lang: oware_session::Lang, text: String) -> Said {
        Said { lang, text }
    }
}

impl std::fmt::Display for Said {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

impl std::error::Error for Said {}
