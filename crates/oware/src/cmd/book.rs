//! `book` subcommands: `oware book build|probe` (the opening book of
//! `oware-engine`, docs/ENGINE.md).

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use oware_core::{Game, Move, Position};
use oware_engine::book::{self, Book, BuildParams};
use oware_engine::StopHandle;

/// Where `build` writes unless `--out` says otherwise: the file the engine
/// embeds when run from the repository's root.
const DEFAULT_OUT: &str = "crates/oware-engine/book/oware.book";

#[derive(Subcommand)]
pub enum Command {
    /// The opening book: build it by our own search, or look a position up.
    #[command(
        subcommand,
        after_help = "Examples:
  oware book probe --moves FfB
  oware book build --out my.book"
    )]
    Book(BookCommand),
}

#[derive(Subcommand)]
pub enum BookCommand {
    /// Build a book: every position of the first plies reached by any move
    /// (then by plausible moves), each valued by a fixed-depth search of all
    /// its moves, values backed up through the book.
    #[command(after_help = "Examples:
  oware book build --out my.book --plies 6 --depth 10")]
    Build(BuildArgs),
    /// Print the book's moves of a position (the shipped book by default).
    #[command(after_help = "Examples:
  oware book probe
  oware book probe --moves FfB")]
    Probe(ProbeArgs),
}

#[derive(Args)]
pub struct BuildArgs {
    /// The book file to write.
    #[arg(long, default_value = DEFAULT_OUT)]
    pub out: PathBuf,
    /// Positions up to this many plies from the start.
    #[arg(long, default_value_t = BuildParams::default().plies)]
    pub plies: u8,
    /// Follow every legal move in the first N plies.
    #[arg(long, default_value_t = BuildParams::default().full_plies)]
    pub full_plies: u8,
    /// Search depth that values each position's moves.
    #[arg(long, default_value_t = BuildParams::default().depth, value_parser = clap::value_parser!(u8).range(1..=40))]
    pub depth: u8,
    /// After the full plies, follow at most this many moves per position.
    #[arg(long, default_value_t = BuildParams::default().width, value_parser = clap::value_parser!(u8).range(1..=6))]
    pub width: u8,
    /// After the full plies, follow moves within this many centi-seeds of the best.
    #[arg(long, default_value_t = BuildParams::default().margin)]
    pub margin: u16,
    /// Search threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
}

#[derive(Args)]
pub struct ProbeArgs {
    /// A book file instead of the shipped book.
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// Moves from the start, concatenated (FfBe) or spaced.
    #[arg(long, short, default_value = "")]
    pub moves: String,
}

pub fn run(command: Command) -> Result<()> {
    match command {
        Command::Book(BookCommand::Build(a)) => build(a),
        Command::Book(BookCommand::Probe(a)) => probe(a),
    }
}

fn build(args: BuildArgs) -> Result<()> {
    if args.full_plies > args.plies {
        bail!(
            "--full-plies {} is more than --plies {}",
            args.full_plies,
            args.plies
        );
    }
    let params = BuildParams {
        plies: args.plies,
        full_plies: args.full_plies,
        depth: args.depth,
        width: args.width,
        margin: args.margin,
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let bar = ProgressBar::new(1);
    bar.set_style(
        ProgressStyle::with_template(
            "ply {msg:>2} [{elapsed_precise}] [{wide_bar}] {pos}/{len} positions {per_sec} ETA {eta}",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    bar.enable_steady_tick(Duration::from_millis(250));
    let last_ply = AtomicUsize::new(usize::MAX);
    let started = Instant::now();
    let progress = |p: book::BuildProgress| {
        if last_ply.swap(p.ply as usize, Ordering::Relaxed) != p.ply as usize && bar.is_hidden() {
            eprintln!(
                "ply {}: {} positions to search ({:.0} s so far)",
                p.ply,
                p.known - p.done + 1,
                started.elapsed().as_secs_f64()
            );
        }
        bar.set_length(p.known as u64);
        bar.set_position(p.done as u64);
        bar.set_message(p.ply.to_string());
    };
    let book = book::build(&params, threads, &StopHandle::default(), &progress);
    bar.finish_and_clear();
    if let Some(dir) = args.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    book.save(&args.out)?;
    let size = std::fs::metadata(&args.out).map_or(0, |m| m.len());
    println!(
        "book of {} positions ({} plies, every move in the first {}, then {} within {} centi-seeds; depth {}) in {} ({} bytes) after {:.1} s on {} threads",
        book.len(),
        params.plies,
        params.full_plies,
        params.width,
        params.margin,
        params.depth,
        args.out.display(),
        size,
        started.elapsed().as_secs_f64(),
        threads
    );
    Ok(())
}

fn probe(args: ProbeArgs) -> Result<()> {
    use oware_session::Lang;
    let lang = super::args_lang();
    let book = match &args.book {
        Some(path) => {
            // Read here, so a failed read is said in words, not as the
            // system's raw text.
            let bytes = std::fs::read(path).map_err(|e| {
                let why = oware_session::problems::io_reason(&e, lang);
                super::said(
                    lang,
                    format!("cannot read the opening book {}: {why}", path.display()),
                    format!(
                        "impossible de lire le livre d'ouvertures {}\u{a0}: {why}",
                        path.display()
                    ),
                )
            })?;
            let book = Book::from_bytes(&bytes).map_err(|e| {
                super::said(
                    lang,
                    format!("{}: {e}", path.display()),
                    format!(
                        "{} n'est pas un livre d'ouvertures que ce programme peut lire\u{a0}: {}",
                        path.display(),
                        super::problems::book_error_fr(&e)
                    ),
                )
            })?;
            std::sync::Arc::new(book)
        }
        None => Book::builtin(),
    };
    let moves: Vec<Move> = super::core::parse_move_list(&args.moves)?;
    let mut game = Game::new(Position::start());
    super::core::play_moves(&mut game, &moves)?;
    let p = book.params();
    match lang {
        Lang::En => println!(
            "book: {} positions, {} plies, depth {}",
            book.len(),
            p.plies,
            p.depth
        ),
        Lang::Fr => println!(
            "livre\u{a0}: {}\u{a0}positions, {}\u{a0}demi-coups, profondeur {}",
            book.len(),
            p.plies,
            p.depth
        ),
    }
    match book.moves(game.position()) {
        None => match lang {
            Lang::En => println!("{}: not in the book", game.position()),
            Lang::Fr => println!("{}\u{a0}: absente du livre", game.position()),
        },
        Some(ms) => {
            for m in ms {
                match lang {
                    Lang::En => println!(" {}  {}", m.mv, m.score),
                    // The value in the session's words, as `analyze` says it.
                    Lang::Fr => println!(
                        " {}  {}",
                        m.mv,
                        oware_session::ScoreKind::of(m.score).short(lang)
                    ),
                }
            }
        }
    }
    Ok(())
}
