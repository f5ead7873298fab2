//! `serve` subcommands (work in progress: none yet).

use clap::Subcommand;

#[derive(Subcommand)]
pub enum Command {}

pub fn run(command: Command) -> anyhow::Result<()> {
    match command {}
}
