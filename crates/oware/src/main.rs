//! `oware`: one command for the rules core, the engine, the terminal game
//! and the web app. Each subcommand is a thin layer over a library crate.

mod cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "oware",
    version,
    about = "Oware Abapa: play, study and analyse",
    propagate_version = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count legal move sequences of a given length (the move generator's test and benchmark).
    Perft(cmd::core::PerftArgs),
    /// Perft split by first move.
    Divide(cmd::core::PerftArgs),
    /// Show a position, optionally after a list of moves played with the full rules.
    Show(cmd::core::ShowArgs),
    /// Check an OGN game record and print its final position and result.
    Record(cmd::core::RecordArgs),
    #[command(flatten)]
    Engine(cmd::engine::Command),
    #[command(flatten)]
    Tablebase(cmd::tablebase::Command),
    #[command(flatten)]
    Book(cmd::book::Command),
    #[command(flatten)]
    Play(cmd::play::Command),
    #[command(flatten)]
    Serve(cmd::serve::Command),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => cmd::core::perft(args, false),
        Command::Divide(args) => cmd::core::perft(args, true),
        Command::Show(args) => cmd::core::show(args),
        Command::Record(args) => cmd::core::record(args),
        Command::Engine(c) => cmd::engine::run(c),
        Command::Tablebase(c) => cmd::tablebase::run(c),
        Command::Book(c) => cmd::book::run(c),
        Command::Play(c) => cmd::play::run(c),
        Command::Serve(c) => cmd::serve::run(c),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
