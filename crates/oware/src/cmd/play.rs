//! `play`: the terminal game (crate `oware-tui`).

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Subcommand, ValueEnum};
use oware_engine::Level;
use oware_tablebase::background::{open_or_build_in_memory, Loading};
use oware_tui::app::{Opponent, Settings, Starter};
use oware_tui::text::Lang;
use oware_tui::Options;

#[derive(Subcommand)]
pub enum Command {
    /// Play Oware in the terminal, against the computer or another person.
    #[command(after_help = "Examples:
  oware play                          the new-game screen (choose the level there)
  oware play --level beginner         against the weakest level
  oware play --level 7 --first computer
  oware play --lang fr --two-players  two people at one keyboard, in French
  oware play --load game.ogn          resume a saved game
  oware play --plain --level club     line by line (scripts, screen readers)")]
    Play(PlayArgs),
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Who {
    /// You start.
    #[value(alias = "moi")]
    Me,
    /// The computer starts.
    #[value(alias = "ordinateur")]
    Computer,
    /// Drawn by lot.
    #[value(alias = "sort")]
    Lot,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum LangArg {
    En,
    Fr,
}

#[derive(Args)]
pub struct PlayArgs {
    /// Two people at one keyboard instead of the computer.
    #[arg(long)]
    two_players: bool,
    /// The computer's level: 1 to 10, or its name: beginner, novice,
    /// learner, casual, club, intermediate, advanced, strong, expert,
    /// master (French names too: débutant … maître).
    #[arg(long, default_value = "3", value_name = "LEVEL", value_parser = super::parse_level,
          conflicts_with = "two_players")]
    level: Level,
    /// Who moves first against the computer (French too: moi,
    /// ordinateur, sort).
    #[arg(long, value_enum, default_value_t = Who::Me, conflicts_with = "two_players")]
    first: Who,
    /// Resume the game in this OGN file.
    #[arg(long, value_name = "FILE.ogn")]
    load: Option<PathBuf>,
    /// Line-by-line mode (also used when stdin or stdout is not a terminal).
    #[arg(long)]
    plain: bool,
    /// Show moves at once instead of sowing seed by seed.
    #[arg(long)]
    no_animation: bool,
    /// Do not mark where the last seed lands and what it captures.
    #[arg(long)]
    no_marks: bool,
    /// Do not warn when a move lets the opponent capture next turn.
    #[arg(long)]
    no_warnings: bool,
    /// Language of every screen and message (default: from LC_ALL,
    /// LC_MESSAGES or LANG); `g` on the rules screen switches it.
    #[arg(long, value_enum)]
    lang: Option<LangArg>,
    /// Where the unfinished game is saved on quit (default: $OWARE_DATA_DIR,
    /// else the user's data directory).
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
    /// Neither save an unfinished game on quit nor offer one.
    #[arg(long)]
    no_autosave: bool,
    /// Milliseconds the engine thinks about a hint.
    #[arg(long, default_value_t = 1500, value_name = "MS")]
    hint_ms: u64,
    /// Endgame tables to open (default: `./tablebases` if it holds table
    /// files, else tables of up to 14 seeds built in memory in the
    /// background while you play).
    #[arg(long, value_name = "DIR", conflicts_with = "no_tablebases")]
    tablebases: Option<PathBuf>,
    /// Play without endgame tables.
    #[arg(long)]
    no_tablebases: bool,
    /// The computer plays without its opening book.
    #[arg(long)]
    no_book: bool,
    /// The computer evaluates with the linear evaluation instead of the
    /// neural network (docs/ENGINE.md, "The network").
    #[arg(long)]
    linear_eval: bool,
}

/// Seeds of the tables built in memory when no table files are found: a
/// few CPU-seconds, in the background (docs/TUI.md).
const PLAY_TABLE_SEEDS: usize = 14;

/// The tables the computer will use: by default found or built in the
/// background, so the game starts at once. A directory given explicitly is
/// opened first, so that a mistake in it is an error, not tables silently
/// lost.
fn tables(a: &PlayArgs, lang: Lang) -> anyhow::Result<Option<Loading>> {
    if a.no_tablebases {
        return Ok(None);
    }
    Ok(Some(match &a.tablebases {
        Some(dir) => Loading::done(oware_engine::tablebase::open(dir).map_err(|e| {
            use oware_engine::tablebase::TablebaseError;
            let d = dir.display();
            match e {
                TablebaseError::Empty { .. } => super::said(
                    lang,
                    format!("there are no endgame table files (oware-tb-NN.otb) in {d}: give the folder that holds them, or leave out --tablebases"),
                    format!("il n'y a pas de fichiers de tables de finales (oware-tb-NN.otb) dans {d}\u{a0}: donnez le dossier qui les contient, ou retirez --tablebases"),
                ),
                // What is wrong, file by file, and what to do.
                other => super::Said::new(lang, super::problems::tablebase_error(&other, lang))
                    .into(),
            }
        })?),
        None => open_or_build_in_memory(
            PathBuf::from(oware_tablebase::DEFAULT_DIR),
            PLAY_TABLE_SEEDS,
            |_| {},
        ),
    }))
}

pub fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Play(a) => {
            let lang = match a.lang {
                Some(LangArg::En) => Lang::En,
                Some(LangArg::Fr) => Lang::Fr,
                None => Lang::from_env(),
            };
            let settings = Settings {
                opponent: if a.two_players {
                    Opponent::TwoPlayers
                } else {
                    Opponent::Computer(a.level)
                },
                first: match a.first {
                    Who::Me => Starter::Me,
                    Who::Computer => Starter::Computer,
                    Who::Lot => Starter::Lot,
                },
                animation: !a.no_animation,
                marks: !a.no_marks,
                warnings: !a.no_warnings,
                lang,
                autosave: None,
                hint_time: Duration::from_millis(a.hint_ms),
                book: (!a.no_book).then(oware_engine::book::Book::builtin),
                network: (!a.linear_eval).then(oware_engine::nn::Network::builtin),
                tables: tables(&a, lang)?,
            };
            let options = Options {
                settings,
                plain: a.plain,
                load: a.load,
                data_dir: a.data_dir,
                no_autosave: a.no_autosave,
            };
            oware_tui::run(options).map_err(|e| super::Said::new(lang, e.text(lang)).into())
        }
    }
}
