//! `learn`: the rule lessons in the terminal (`oware_tui::learn`), from the
//! same lesson file as the web app's.

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};

#[derive(Subcommand)]
pub enum Command {
    /// Learn the rules: thirteen lessons, one per rule, each with a board
    /// that answers every move (in the terminal).
    #[command(after_help = "Examples:
  oware learn
  oware learn --lang fr --lesson R5")]
    Learn(LearnArgs),
}

#[derive(Args)]
pub struct LearnArgs {
    /// The language: en or fr (default: from the locale).
    #[arg(long)]
    lang: Option<String>,
    /// Open this lesson (R1 to R13) instead of the contents.
    #[arg(long)]
    lesson: Option<String>,
}

pub fn run(c: Command) -> Result<()> {
    let Command::Learn(a) = c;
    let lang = match a.lang.as_deref() {
        None => oware_session::Lang::from_env(),
        Some(l) => oware_session::Lang::parse(l)
            .with_context(|| format!("--lang: expected en or fr, not {l:?}"))?,
    };
    let lessons = oware_session::lessons::shipped();
    if let Some(rule) = a.lesson.as_deref() {
        if lessons.lesson(rule).is_none() {
            bail!(
                "--lesson: there is no lesson {rule:?} (R1 to R{})",
                lessons.lessons.len()
            );
        }
    }
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        bail!("oware learn needs a terminal");
    }
    let tutor = oware_tui::learn::Tutor::new(lang, a.lesson.as_deref());
    oware_tui::learn::run(tutor).context("the terminal stopped working")?;
    Ok(())
}
