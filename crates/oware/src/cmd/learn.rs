//! `learn`: the rule lessons in the terminal (`oware_tui::learn`), from the
//! same lesson file as the web app's.

use anyhow::Result;
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
    let lang = super::parse_lang(a.lang.as_deref())?;
    let lessons = oware_session::lessons::shipped();
    if let Some(rule) = a.lesson.as_deref() {
        if lessons.lesson(rule).is_none() {
            let n = lessons.lessons.len();
            return Err(super::said(
                lang,
                format!("--lesson: there is no lesson '{rule}' (R1 to R{n})"),
                format!("--lesson\u{a0}: il n'y a pas de leçon «\u{a0}{rule}\u{a0}» (R1 à R{n})"),
            ));
        }
    }
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err(super::said(
            lang,
            "oware learn needs a terminal (run it in a terminal window, not through a pipe)".into(),
            "oware learn a besoin d'un terminal (lancez-le dans une fenêtre de terminal, sans tube)".into(),
        ));
    }
    let tutor = oware_tui::learn::Tutor::new(lang, a.lesson.as_deref());
    oware_tui::learn::run(tutor).map_err(|e| {
        let reason = oware_session::problems::io_reason(&e, lang);
        super::said(
            lang,
            format!("the terminal stopped working: {reason}"),
            format!("le terminal ne répond plus\u{a0}: {reason}"),
        )
    })
}
