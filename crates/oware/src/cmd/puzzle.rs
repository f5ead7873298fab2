//! `puzzle`: the puzzles. `oware puzzle` plays the shipped ones in the
//! terminal (`oware_tui::puzzle`); `oware puzzle build` makes the set
//! (`oware_tools::puzzles`); `oware puzzle check` re-verifies a set.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use oware_core::Record;
use oware_engine::{Engine, EngineOptions, Level};
use oware_session::puzzles::{self, PuzzleSet};

#[derive(Subcommand)]
pub enum Command {
    /// Puzzles: find the one move that wins or saves clearly more (in the
    /// terminal); build or check the set (docs/PUZZLES.md).
    #[command(args_conflicts_with_subcommands = true)]
    #[command(after_help = "Examples:
  oware puzzle
  oware puzzle --lang fr --id 12
  oware puzzle build --out crates/oware-session/data/puzzles.txt
  oware puzzle build --games 2 --limit 20 --out /tmp/p.txt
  oware puzzle check crates/oware-session/data/puzzles.txt")]
    Puzzle {
        #[command(subcommand)]
        action: Option<PuzzleAction>,
        #[command(flatten)]
        play: PlayArgs,
    },
}

#[derive(Args)]
pub struct PlayArgs {
    /// The language: en or fr (default: from the locale).
    #[arg(long)]
    lang: Option<String>,
    /// Start with this puzzle.
    #[arg(long)]
    id: Option<u32>,
}

#[derive(Subcommand)]
pub enum PuzzleAction {
    /// Find puzzles in games between the engine's levels (seeded: the same
    /// arguments write the same file).
    #[command(after_help = "Examples:
  RAYON_NUM_THREADS=1 oware puzzle build --games 24 --out crates/oware-session/data/puzzles.txt
  oware puzzle build --games 2 --pairs 3-5 --limit 30 --out /tmp/p.txt")]
    Build(BuildArgs),
    /// Re-verify every puzzle of a file at its check depth.
    #[command(after_help = "Examples:
  oware puzzle check crates/oware-session/data/puzzles.txt")]
    Check {
        /// The puzzle file.
        file: PathBuf,
    },
    /// Re-check every puzzle's claim: against the endgame tables where
    /// they cover its position (in seeds of the game), beyond them by a
    /// search with the tables, whose values must be decided or lead at two
    /// depths (docs/PUZZLES.md, "Independent re-check").
    #[command(after_help = "Examples:
  nice -n 10 oware puzzle recheck --tables tablebases
  oware puzzle recheck --tables tablebases my-puzzles.txt --write /tmp/p.txt")]
    Recheck {
        /// Directory of the tables (the server's: 20 seeds).
        #[arg(long)]
        tables: PathBuf,
        /// The puzzle file (default: the shipped set).
        file: Option<PathBuf>,
        /// Write the set with every puzzle's claim the one derived and its
        /// themes read again; a puzzle whose claim nothing proves is left
        /// out (ids kept).
        #[arg(long)]
        write: Option<PathBuf>,
        /// Check only the first N puzzles (to time a sample).
        #[arg(long)]
        limit: Option<usize>,
    },
    /// Re-make a file's table-proved lines as the tables' play after the
    /// solution and every puzzle's themes from its line, and drop the
    /// search-proved puzzles this build's engine no longer proves
    /// (docs/PUZZLES.md).
    #[command(after_help = "Examples:
  oware puzzle reline crates/oware-session/data/puzzles.txt --out /tmp/p.txt")]
    Reline {
        /// The puzzle file.
        file: PathBuf,
        /// Where to write the result.
        #[arg(long)]
        out: PathBuf,
    },
}

#[derive(Args)]
pub struct BuildArgs {
    /// Games per pair of levels.
    #[arg(long, default_value_t = 16)]
    games: usize,
    /// Pairs of levels, as `A-B,C-D` (default 1-3,2-4,3-5,4-6,5-7,6-8,2-7,3-8).
    #[arg(long)]
    pairs: Option<String>,
    /// Seed of the openings and the levels' choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The depth every margin must hold at (the shipped test's).
    #[arg(long, default_value_t = 10)]
    check_depth: u32,
    /// The deeper search that must agree.
    #[arg(long, default_value_t = 14)]
    deep_depth: u32,
    /// Endgame tables built in memory up to this many seeds.
    #[arg(long, default_value_t = 14)]
    tables: usize,
    /// Stop at this many puzzles.
    #[arg(long, default_value_t = 1200)]
    limit: usize,
    /// Puzzles wanted of each rare theme (feeding, starving, grand slam,
    /// repetition),
    /// from seeded positions shaped for it, examined first.
    #[arg(long, default_value_t = 40)]
    themed: usize,
    /// OGN files whose positions are examined first.
    #[arg(long, value_name = "FILE.ogn")]
    records: Vec<PathBuf>,
    /// Where to write the set.
    #[arg(long)]
    out: PathBuf,
}

pub fn run(c: Command) -> Result<()> {
    match c {
        Command::Puzzle { action, play: p } => match action {
            Some(PuzzleAction::Build(a)) => build(a),
            Some(PuzzleAction::Check { file }) => check(file),
            Some(PuzzleAction::Reline { file, out }) => reline(file, out),
            Some(PuzzleAction::Recheck {
                tables,
                file,
                write,
                limit,
            }) => recheck(tables, file, write, limit),
            None => play(p),
        },
    }
}

fn play(a: PlayArgs) -> Result<()> {
    use std::io::IsTerminal;
    let lang = super::parse_lang(a.lang.as_deref())?;
    let set = oware_session::puzzles::shipped();
    let first = match a.id {
        None => oware_tui::puzzle::First::Nearest,
        Some(id) if set.get(id).is_some() => oware_tui::puzzle::First::Id(id),
        Some(id) => {
            let n = set.puzzles.len();
            return Err(super::said(
                lang,
                format!("--id: there is no puzzle {id} (1 to {n})"),
                format!("--id\u{a0}: il n'y a pas de problème {id} (1 à {n})"),
            ));
        }
    };
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err(super::said(
            lang,
            "oware puzzle needs a terminal (run it in a terminal window, not through a pipe)".into(),
            "oware puzzle a besoin d'un terminal (lancez-le dans une fenêtre de terminal, sans tube)".into(),
        ));
    }
    let trainer = oware_tui::puzzle::Trainer::shipped(lang, first);
    oware_tui::puzzle::run(trainer).map_err(|e| {
        let reason = oware_session::problems::io_reason(&e, lang);
        super::said(
            lang,
            format!("the terminal stopped working: {reason}"),
            format!("le terminal ne répond plus\u{a0}: {reason}"),
        )
    })
}

fn parse_pairs(text: &str) -> Result<Vec<(Level, Level)>> {
    let mut out = Vec::new();
    for part in text.split(',') {
        let (a, b) = part
            .split_once('-')
            .with_context(|| format!("--pairs: expected LEVEL-LEVEL, not {part:?}"))?;
        let level = |s: &str| {
            s.trim()
                .parse::<u8>()
                .ok()
                .filter(|n| (1..=8).contains(n))
                .map(Level::new)
                .with_context(|| format!("--pairs: expected a level from 1 to 8, not {s:?}"))
        };
        out.push((level(a)?, level(b)?));
    }
    Ok(out)
}

fn build(a: BuildArgs) -> Result<()> {
    if !(1..=20).contains(&a.check_depth) || !(a.check_depth..=24).contains(&a.deep_depth) {
        bail!("--check-depth must be 1 to 20 and --deep-depth from it to 24");
    }
    if a.tables > 20 {
        bail!("--tables: at most 20 seeds in memory");
    }
    let mut records = Vec::new();
    for path in &a.records {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        records.extend(
            Record::parse_all(&text).with_context(|| format!("{} is not OGN", path.display()))?,
        );
    }
    let mut config = oware_tools::puzzles::Config {
        games: a.games,
        seed: a.seed,
        check_depth: a.check_depth,
        deep_depth: a.deep_depth,
        tables: a.tables,
        limit: a.limit,
        themed: a.themed,
        records,
        ..Default::default()
    };
    if let Some(p) = &a.pairs {
        config.pairs = parse_pairs(p)?;
    }
    let (set, report) = oware_tools::puzzles::build(&config, &mut |r| {
        eprintln!("{}", oware_tools::puzzles::format(r));
    });
    let pairs: Vec<String> = config
        .pairs
        .iter()
        .map(|(x, y)| format!("{}-{}", x.get(), y.get()))
        .collect();
    let comments = vec![
        format!(
            "built by: oware puzzle build --games {} --pairs {} --seed {} --check-depth {} --deep-depth {} --tables {} --limit {} --themed {}{}",
            a.games,
            pairs.join(","),
            a.seed,
            a.check_depth,
            a.deep_depth,
            a.tables,
            a.limit,
            a.themed,
            if a.records.is_empty() { "" } else { " --records …" }
        ),
        oware_tools::puzzles::format_counts(&report),
    ];
    std::fs::write(&a.out, set.to_text(&comments))
        .with_context(|| format!("cannot write {}", a.out.display()))?;
    println!("{}", oware_tools::puzzles::format(&report));
    println!("wrote {} puzzles to {}", set.puzzles.len(), a.out.display());
    Ok(())
}

fn recheck(
    tables: PathBuf,
    file: Option<PathBuf>,
    write: Option<PathBuf>,
    limit: Option<usize>,
) -> Result<()> {
    let (mut set, text) = match &file {
        Some(f) => {
            let text = std::fs::read_to_string(f)
                .with_context(|| format!("cannot read {}", f.display()))?;
            (PuzzleSet::parse(&text)?, text)
        }
        None => (
            oware_session::puzzles::shipped().clone(),
            oware_session::puzzles::SHIPPED_TEXT.to_string(),
        ),
    };
    if let Some(n) = limit {
        set.puzzles.truncate(n);
    }
    let tb = oware_engine::tablebase::open(&tables)?;
    let started = Instant::now();
    let total = set.puzzles.len();
    let r = oware_tools::puzzles::recheck(&set, &tb, &mut |done| {
        if done % 100 == 0 {
            eprintln!(
                "{done} of {total} puzzles, {:.0} s",
                started.elapsed().as_secs_f64()
            );
        }
    });
    for (id, why) in &r.failures {
        println!("puzzle {id} does not hold: {why}");
    }
    for (id, why) in &r.undecided {
        println!("puzzle {id} undecided: {why}");
    }
    let mut kinds: Vec<(String, usize)> = Vec::new();
    for (c, _) in r.derived.iter().flatten() {
        let code = c.code().to_string();
        match kinds.iter_mut().find(|(k, _)| *k == code) {
            Some((_, n)) => *n += 1,
            None => kinds.push((code, 1)),
        }
    }
    let kinds: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
    println!(
        "{} puzzles: {} within the tables up to {} seeds, {} beyond ({} checked by search); \
         {} hold ({} within the tables), {} do not, {} depend on repetitions; \
         claims derived again: {}, none for {}; {:.1} s",
        set.puzzles.len(),
        set.puzzles.len() - r.not_covered,
        tb.max_seeds().unwrap_or(0),
        r.not_covered,
        r.searched,
        r.holds,
        r.holds_tables,
        r.failures.len(),
        r.undecided.len(),
        kinds.join(", "),
        r.derived.iter().filter(|d| d.is_none()).count(),
        started.elapsed().as_secs_f64()
    );
    if let Some(out) = write {
        let (new, removed) = oware_tools::puzzles::with_derived_claims(&set, &r.derived);
        let mut comments: Vec<String> = text
            .lines()
            .filter_map(|l| l.strip_prefix('#'))
            .map(str::trim)
            .filter(|c| {
                !c.starts_with("check-depth ")
                    && !c.starts_with("tables ")
                    && !c.starts_with("id position")
                    && !c.starts_with("Oware puzzles:")
            })
            .map(str::to_string)
            .collect();
        let ids: Vec<String> = removed.iter().map(u32::to_string).collect();
        comments.push(format!(
            "claims derived by: oware puzzle recheck --tables ({}-seed tables) --write: \
             {} puzzles kept, removed (nothing proves their claim; ids kept): {}",
            tb.max_seeds().unwrap_or(0),
            new.puzzles.len(),
            ids.join(", ")
        ));
        std::fs::write(&out, new.to_text(&comments))
            .with_context(|| format!("cannot write {}", out.display()))?;
        println!(
            "wrote {} puzzles to {} ({} removed)",
            new.puzzles.len(),
            out.display(),
            removed.len()
        );
        return Ok(());
    }
    if !r.failures.is_empty() {
        anyhow::bail!("{} puzzles do not hold", r.failures.len());
    }
    Ok(())
}

fn reline(file: PathBuf, out: PathBuf) -> Result<()> {
    let text = std::fs::read_to_string(&file)
        .with_context(|| format!("cannot read {}", file.display()))?;
    let set = PuzzleSet::parse(&text)?;
    let started = Instant::now();
    let oware_tools::puzzles::Relined {
        set: relined,
        dropped_tables,
        dropped_search,
    } = oware_tools::puzzles::reline(&set);
    // The file's own comments (its command and counts) are kept.
    let mut comments: Vec<String> = text
        .lines()
        .filter_map(|l| l.strip_prefix('#'))
        .map(str::trim)
        .filter(|c| {
            !c.starts_with("check-depth ")
                && !c.starts_with("tables ")
                && !c.starts_with("id position")
                && !c.starts_with("Oware puzzles:")
        })
        .map(str::to_string)
        .collect();
    comments.push(format!(
        "relined by: oware puzzle reline ({dropped_tables} table puzzles dropped, \
         {dropped_search} search puzzles no longer proved by this build's engine dropped)"
    ));
    std::fs::write(&out, relined.to_text(&comments))
        .with_context(|| format!("cannot write {}", out.display()))?;
    println!(
        "relined {} puzzles ({} dropped: {dropped_tables} by the tables, {dropped_search} by the search) in {:.1} s: wrote {}",
        relined.puzzles.len(),
        dropped_tables + dropped_search,
        started.elapsed().as_secs_f64(),
        out.display()
    );
    Ok(())
}

fn check(file: PathBuf) -> Result<()> {
    let text = std::fs::read_to_string(&file)
        .with_context(|| format!("cannot read {}", file.display()))?;
    let set = PuzzleSet::parse(&text)?;
    let started = Instant::now();
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        tablebase_dir: None,
    });
    if set.tables > 0 {
        let tables = oware_engine::tablebase::build_in_memory(set.tables as usize)?;
        engine.set_tablebase(Some(Arc::new(tables)));
    }
    let mut failed = 0;
    for p in &set.puzzles {
        if let Err(e) = puzzles::verify(&mut engine, p, set.check_depth) {
            println!("{e}");
            failed += 1;
        }
    }
    println!(
        "{} puzzles checked at depth {} in {:.1} s: {} failed",
        set.puzzles.len(),
        set.check_depth,
        started.elapsed().as_secs_f64(),
        failed
    );
    if failed > 0 {
        bail!("{failed} puzzles do not hold");
    }
    Ok(())
}
