//! The Oware Abapa terminal game behind `oware play`: a full-screen game
//! (ratatui + crossterm) and a line-by-line `--plain` mode.
//!
//! - [`app`]: the state machine (screens, keys, turns, animation, undo,
//!   learning aids); testable without a terminal.
//! - [`ui`]: draws an [`app::App`] with ratatui.
//! - [`term`]: the terminal runtime and the engine's worker thread.
//! - [`plain`]: the line mode.
//! - [`puzzle`]: `oware puzzle`, the shipped puzzles in the terminal.
//! - [`learn`]: `oware learn`, the rule lessons in the terminal.
//! - [`store`]: OGN files and the autosave; [`text`]: languages and rules.
//!
//! All rules come from `oware-core`, all moves of the computer from
//! `oware-engine`.

#![deny(missing_docs)]

pub mod app;
pub mod learn;
pub mod plain;
pub mod puzzle;
pub mod store;
pub mod term;
pub mod text;
pub mod ui;

use std::io::IsTerminal;
use std::path::PathBuf;

use app::{App, Settings, Start};

/// Why the game could not run.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The game to resume could not be read.
    #[error(transparent)]
    Load(#[from] store::StoreError),
    /// The terminal failed (or the line mode's input or output).
    #[error("{}", terminal_text(.0, text::Lang::En))]
    Terminal(#[from] std::io::Error),
    /// The unfinished game could not be saved on quitting.
    #[error("The unfinished game was not saved. {0}")]
    NotSaved(store::StoreError),
}

impl PlayError {
    /// The error as a sentence in `lang`.
    pub fn text(&self, lang: text::Lang) -> String {
        match self {
            PlayError::Load(e) => e.text(lang),
            PlayError::Terminal(e) => terminal_text(e, lang),
            PlayError::NotSaved(e) => format!(
                "{} {}",
                lang.pick(
                    "The unfinished game was not saved.",
                    "La partie inachevée n'a pas été enregistrée."
                ),
                e.text(lang)
            ),
        }
    }
}

fn terminal_text(e: &std::io::Error, lang: text::Lang) -> String {
    let why = oware_session::problems::io_reason(e, lang);
    match lang {
        text::Lang::En => format!("The terminal stopped working: {why}."),
        text::Lang::Fr => format!("Le terminal a cessé de fonctionner\u{a0}: {why}."),
    }
}

/// Everything `oware play` accepts.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Game settings (opponent, who starts, aids, language).
    pub settings: Settings,
    /// Force the line mode.
    pub plain: bool,
    /// A game to resume.
    pub load: Option<PathBuf>,
    /// The directory of the autosave (else `$OWARE_DATA_DIR` or the user's
    /// data directory).
    pub data_dir: Option<PathBuf>,
    /// Never save or offer an autosave.
    pub no_autosave: bool,
}

/// Runs the game: full screen on a terminal, the line mode otherwise (and
/// when `TERM=dumb`).
pub fn run(mut options: Options) -> Result<(), PlayError> {
    if !options.no_autosave {
        options.settings.autosave =
            store::data_dir(options.data_dir.as_deref()).map(|d| store::autosave_path(&d));
    }
    let load = match &options.load {
        Some(path) => Some(store::load(path)?),
        None => None,
    };
    let dumb = std::env::var("TERM").is_ok_and(|t| t == "dumb");
    let interactive = std::io::stdin().is_terminal() && std::io::stdout().is_terminal() && !dumb;
    if options.plain || !interactive {
        if load.is_none() {
            if let Some(path) = options.settings.autosave.as_ref().filter(|p| p.exists()) {
                match options.settings.lang {
                    text::Lang::En => println!(
                        "Note: an unfinished game was saved at {}; resume it with: oware play --load {}",
                        path.display(),
                        path.display()
                    ),
                    text::Lang::Fr => println!(
                        "Note\u{a0}: une partie inachevée est enregistrée dans {}\u{a0}; pour la reprendre\u{a0}: oware play --load {}",
                        path.display(),
                        path.display()
                    ),
                }
            }
        }
        let stdin = std::io::stdin();
        let mut stdout = std::io::stdout();
        return match plain::run(&options.settings, load, stdin.lock(), &mut stdout) {
            // A reader that stops reading (e.g. `| head`) is not an error.
            Err(PlayError::Terminal(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            r => r,
        };
    }
    let mut damaged = None;
    let start = match load {
        Some(record) => Start::Load(Box::new(record)),
        None => match options
            .settings
            .autosave
            .as_ref()
            .filter(|p| p.exists())
            .map(|p| (p, store::load(p)))
        {
            Some((_, Ok(record))) if !record.game().is_over() => {
                Start::OfferResume(Box::new(record))
            }
            Some((path, Err(e))) => {
                damaged = Some(set_aside(path, e));
                Start::Setup
            }
            _ => Start::Setup,
        },
    };
    let mut app = App::new(options.settings, start);
    if let Some(message) = damaged {
        app.notify(message);
    }
    let result = term::run(&mut app);
    // Said after the screen is closed, so it stays in the terminal.
    if let Some(message) = &app.farewell {
        eprintln!("{}", message.text(app.lang()));
    }
    result.map_err(PlayError::Terminal)?;
    // A game that could not be kept is an error, for scripts too.
    match app.unsaved.take() {
        Some(e) => Err(PlayError::NotSaved(e)),
        None => Ok(()),
    }
}

/// Moves an autosave that cannot be read out of the way (so it is not
/// offered again and again) and says so.
fn set_aside(path: &std::path::Path, err: store::StoreError) -> app::Said {
    let aside = path.with_extension("damaged.ogn");
    let moved = std::fs::rename(path, &aside).is_ok();
    app::Said::new(app::Tone::Warn, |l| {
        let kept = match (moved, l) {
            (true, text::Lang::En) => format!(" The file was kept as {}.", aside.display()),
            (true, text::Lang::Fr) => {
                format!(" Le fichier a été gardé sous le nom {}.", aside.display())
            }
            (false, _) => String::new(),
        };
        match l {
            text::Lang::En => format!(
                "The game saved when you last quit could not be resumed: {}{kept}",
                err.text(l)
            ),
            text::Lang::Fr => format!(
                "La partie enregistrée à votre départ ne peut pas être reprise\u{a0}: {}{kept}",
                err.text(l)
            ),
        }
    })
}
