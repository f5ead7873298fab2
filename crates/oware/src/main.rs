//! `oware`: one command for the rules core, the engine, the terminal game
//! and the web app. Each subcommand is a thin layer over a library crate.

mod cmd;
mod help;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "oware",
    version,
    about = "Oware Abapa: play, study and analyse",
    propagate_version = true,
    after_help = "Examples:
  oware play                  the terminal game (--lang fr for French)
  oware learn                 the rules, one lesson at a time
  oware puzzle                puzzles in the terminal
  oware serve                 the web app on http://127.0.0.1:8080
  oware analyze --moves FfBe  every move of a position, valued
Each command has its own examples: oware play --help, oware serve --help, …"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count legal move sequences of a given length (the move generator's test and benchmark).
    #[command(after_help = "Examples:
  oware perft 8
  oware perft 3 --position 0-0-0-0-0-17-1-1-1-0-0-1-14-13-S")]
    Perft(cmd::core::PerftArgs),
    /// Perft split by first move.
    #[command(after_help = "Examples:
  oware divide 4")]
    Divide(cmd::core::PerftArgs),
    /// Show a position, optionally after a list of moves played with the full rules.
    #[command(after_help = "Examples:
  oware show
  oware show --moves FfBe
  oware show --position 1-0-0-0-1-0-0-0-0-0-0-0-23-23-S --json")]
    Show(cmd::core::ShowArgs),
    /// Check an OGN game record and print its final position and result.
    #[command(after_help = "Examples:
  oware record game.ogn
  oware record game.ogn --json")]
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
    #[command(flatten)]
    Puzzle(cmd::puzzle::Command),
    #[command(flatten)]
    Learn(cmd::learn::Command),
    #[command(flatten)]
    Admin(cmd::admin::Command),
}

fn main() -> ExitCode {
    let command = help::localized(Cli::command(), cmd::args_lang());
    let parsed = command
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
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
        Command::Puzzle(c) => cmd::puzzle::run(c),
        Command::Learn(c) => cmd::learn::run(c),
        Command::Admin(c) => cmd::admin::run(c),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{}", error_text(&e));
            ExitCode::from(2)
        }
    }
}

/// A command line clap refused (or `--help`, `--version`): clap's own
/// text in English; in French (`--lang fr`, else the locale) the mistake
/// in French, with where to find the help.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    use oware_session::Lang;
    let lang = cmd::args_lang();
    let shown = matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    );
    if lang == Lang::En {
        let _ = e.print();
        return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
    }
    if shown {
        // Clap's words ("Usage:", "[default: …]") in French too.
        let text = help::clap_words(&e.render().to_string());
        if e.use_stderr() {
            eprint!("{text}");
        } else {
            print!("{text}");
        }
        return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
    }
    let get = |kind: ContextKind| match e.get(kind) {
        Some(ContextValue::String(s)) => s.clone(),
        Some(ContextValue::Strings(v)) => v.join(", "),
        Some(ContextValue::StyledStr(s)) => s.to_string(),
        Some(ContextValue::StyledStrs(v)) => v
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(", "),
        Some(ContextValue::Number(n)) => n.to_string(),
        _ => String::new(),
    };
    // Value names in French, and the French aliases of `--first`'s values.
    let french = |text: String| {
        [
            ("<FILE.ogn>", "FICHIER.ogn"),
            ("<FILE>", "FICHIER"),
            ("<DIR>", "DOSSIER"),
            ("<LEVEL>", "NIVEAU"),
            ("me, computer, lot", "moi, ordinateur, sort"),
        ]
        .iter()
        .fold(text, |t, (en, fr)| t.replace(en, fr))
        .replace(['<', '>'], "")
    };
    let get = |kind: ContextKind| french(get(kind));
    let did_you_mean = |like: String| {
        if like.is_empty() {
            like
        } else {
            format!(" Vouliez-vous dire «\u{a0}{like}\u{a0}»\u{202f}?")
        }
    };
    // "--level <LEVEL>" → "--level".
    let arg = get(ContextKind::InvalidArg)
        .split(' ')
        .next()
        .unwrap_or_default()
        .to_string();
    let value = get(ContextKind::InvalidValue);
    let text = match e.kind() {
        ErrorKind::ValueValidation => {
            let why = std::error::Error::source(&e)
                .map(|s| value_refusal(s, &value))
                .unwrap_or_default();
            if why.is_empty() {
                format!("{arg}\u{a0}: «\u{a0}{value}\u{a0}» n'est pas une valeur possible.")
            } else {
                format!("{arg}\u{a0}: {why}")
            }
        }
        ErrorKind::InvalidValue if value.is_empty() => {
            format!("{arg}\u{a0}: il manque la valeur.")
        }
        ErrorKind::InvalidValue => format!(
            "{arg}\u{a0}: «\u{a0}{value}\u{a0}» n'est pas une valeur possible (valeurs possibles\u{a0}: {}).",
            get(ContextKind::ValidValue)
        ),
        ErrorKind::UnknownArgument => {
            let what = get(ContextKind::InvalidArg);
            if what.parse::<f64>().is_ok() {
                // "-1": clap reads a negative number as an option.
                format!("«\u{a0}{what}\u{a0}»\u{a0}: un nombre négatif n'est pas possible ici.")
            } else if !what.starts_with('-') {
                format!("«\u{a0}{what}\u{a0}» est de trop ici.")
            } else {
                format!(
                    "l'option «\u{a0}{what}\u{a0}» n'existe pas ici.{}",
                    did_you_mean(get(ContextKind::SuggestedArg))
                )
            }
        }
        ErrorKind::InvalidSubcommand => format!(
            "la commande «\u{a0}{}\u{a0}» n'existe pas.{}",
            get(ContextKind::InvalidSubcommand),
            did_you_mean(get(ContextKind::SuggestedSubcommand))
        ),
        ErrorKind::MissingRequiredArgument => format!(
            "il manque {}.",
            get(ContextKind::InvalidArg)
        ),
        ErrorKind::MissingSubcommand => "il manque la commande.".to_string(),
        ErrorKind::ArgumentConflict => format!(
            "{} ne peut pas aller avec {}.",
            get(ContextKind::InvalidArg),
            get(ContextKind::PriorArg)
        ),
        ErrorKind::TooManyValues => format!(
            "{} est donné trop de fois.",
            get(ContextKind::InvalidArg)
        ),
        _ => "la ligne de commande n'est pas comprise.".to_string(),
    };
    eprintln!("erreur\u{a0}: {text}");
    eprintln!("L'aide\u{a0}: oware --help, ou oware COMMANDE --help.");
    ExitCode::from(2)
}

/// Why clap's value parser refused `value`, in French: a number that is
/// not one, or out of its range; a refusal already in French (a level's
/// name) as it is.
fn value_refusal(why: &(dyn std::error::Error + 'static), value: &str) -> String {
    if let Some(e) = why.downcast_ref::<std::num::ParseIntError>() {
        use std::num::IntErrorKind;
        return match e.kind() {
            IntErrorKind::PosOverflow => format!("{value} est trop grand"),
            IntErrorKind::NegOverflow => format!("{value} est trop petit"),
            _ => format!("«\u{a0}{value}\u{a0}» n'est pas un nombre entier"),
        };
    }
    if why.downcast_ref::<std::num::ParseFloatError>().is_some() {
        return format!("«\u{a0}{value}\u{a0}» n'est pas un nombre");
    }
    let text = why.to_string();
    // Clap's range check: "0 is not in 1..=3600000".
    if let Some((v, range)) = text.split_once(" is not in ") {
        if let Some((low, high)) = range.split_once("..=") {
            return format!("{v} n'est pas entre {low} et {high}");
        }
        if let Some(low) = range.strip_suffix("..") {
            return format!("{v} est inférieur à {low}");
        }
    }
    text
}

/// An error as one line for people: what failed, then why. The system's
/// raw messages ("No such file or directory (os error 2)") are replaced by
/// words, and a message already worded in the user's language is printed
/// as it is.
fn error_text(e: &anyhow::Error) -> String {
    use oware_session::Lang;
    if let Some(said) = e.downcast_ref::<cmd::Said>() {
        return match said.lang {
            Lang::En => format!("error: {}", said.text),
            Lang::Fr => format!("erreur\u{a0}: {}", said.text),
        };
    }
    let lang = cmd::args_lang();
    let mut parts: Vec<String> = Vec::new();
    for cause in e.chain() {
        // A library's typed error is worded here, with its own causes.
        let typed =
            if let Some(tb) = cause.downcast_ref::<oware_engine::tablebase::TablebaseError>() {
                Some(cmd::problems::tablebase_error(tb, lang))
            } else if let Some(tb) = cause.downcast_ref::<oware_tablebase::TbError>() {
                Some(cmd::problems::tb_error(tb, lang))
            } else if let Some(f) = cause.downcast_ref::<oware_tools::arena::Fault>() {
                Some(cmd::problems::fault(f, lang))
            } else {
                cause
                    .downcast_ref::<oware_tools::arena::OpeningError>()
                    .map(|o| cmd::problems::opening(o, lang))
            };
        let last = typed.is_some();
        let text = match (typed, cause.downcast_ref::<std::io::Error>()) {
            (Some(text), _) => system_words(&text, lang),
            // The system's own error; an error made with a message of its
            // own keeps the message.
            (None, Some(io)) if io.get_ref().is_none() => {
                oware_session::problems::io_reason(io, lang)
            }
            _ => system_words(&cause.to_string(), lang),
        };
        let text = match lang {
            Lang::En => text,
            Lang::Fr => CONTEXTS_FR
                .iter()
                .fold(text, |t, (en, fr)| t.replacen(en, fr, 1)),
        };
        // A cause whose text its context already quotes adds nothing, nor
        // does a path it repeats ("building tables in D: D: …").
        let text = match text.split_once(": ") {
            // (French puts a no-break space before the colon.)
            Some((head, rest))
                if parts
                    .iter()
                    .any(|p| p.contains(head.trim_end_matches('\u{a0}'))) =>
            {
                rest.to_string()
            }
            _ => text,
        };
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        if last {
            break;
        }
    }
    match lang {
        Lang::En => format!("error: {}", parts.join(": ")),
        Lang::Fr => format!("erreur\u{a0}: {}", parts.join("\u{a0}: ")),
    }
}

/// The binary's own contexts of an error ("building tables in D"), in
/// French; what a library says inside stays its own (docs/TUI.md).
const CONTEXTS_FR: &[(&str, &str)] = &[
    ("building tables in ", "construction des tables dans "),
    ("opening tables in ", "ouverture des tables de "),
    (
        "building the in-memory table",
        "construction de la table en mémoire",
    ),
    ("cannot read ", "impossible de lire "),
    ("cannot write ", "impossible d'écrire "),
];

/// `text` with the system's raw messages that libraries quote inside their
/// own ("…: Permission denied (os error 13)") put in words.
fn system_words(text: &str, lang: oware_session::Lang) -> String {
    use oware_session::problems::io_reason;
    let mut out = text.replace(
        "stream did not contain valid UTF-8",
        &io_reason(&std::io::Error::from(std::io::ErrorKind::InvalidData), lang),
    );
    while let Some(at) = out.find(" (os error ") {
        let rest = &out[at + " (os error ".len()..];
        let Some(end) = rest.find(')') else { break };
        let Ok(code) = rest[..end].parse::<i32>() else {
            break;
        };
        let io = std::io::Error::from_raw_os_error(code);
        let raw = io.to_string();
        let words = io_reason(&io, lang);
        out = if out.contains(&raw) {
            out.replacen(&raw, &words, 1)
        } else {
            out.replacen(&format!(" (os error {code})"), "", 1)
        };
    }
    out
}
