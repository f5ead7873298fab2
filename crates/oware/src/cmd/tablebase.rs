//! `tablebase` subcommands: `oware tablebase build|probe|verify`.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use oware_core::Position;
use oware_session::Lang;
use oware_tablebase::{file, index, LevelStatus, Tablebase, TbResult};

/// Where tables live unless `--dir` says otherwise (the same default as
/// `analyze` and `uci`).
const DEFAULT_DIR: &str = oware_tablebase::DEFAULT_DIR;

#[derive(Subcommand)]
pub enum Command {
    /// Endgame tablebases: build the files, probe a position, verify files.
    #[command(
        subcommand,
        after_help = "Examples:
  oware tablebase build --max-seeds 16
  oware tablebase probe 1-0-0-0-1-0-0-0-0-0-0-0-23-23-S"
    )]
    Tablebase(TbCommand),
}

#[derive(Subcommand)]
pub enum TbCommand {
    /// Build the tables for every board with at most N seeds (resumable:
    /// seed counts whose file is already there and valid are kept).
    #[command(after_help = "Examples:
  oware tablebase build --max-seeds 16
  oware tablebase build --dir /data/tables --max-seeds 24 --memory-budget-mb 8000")]
    Build(BuildArgs),
    /// Print the table's value of a position, its result and the best moves.
    #[command(after_help = "Examples:
  oware tablebase probe 1-0-0-0-1-0-0-0-0-0-0-0-23-23-S
  oware tablebase probe --dir tablebases 0-0-0-5-0-0-3-1-2-0-0-3-17-17-S")]
    Probe(ProbeArgs),
    /// Check every file in a directory (header, size, checksum) and, on a
    /// sample of positions, that each value agrees with its moves' values.
    #[command(after_help = "Examples:
  oware tablebase verify --dir tablebases --sample 10000")]
    Verify(VerifyArgs),
    /// Measure probe speed: random positions of the largest seed count
    /// (deterministic sequence), probed from the files.
    #[command(after_help = "Examples:
  oware tablebase bench --dir tablebases --probes 1000000")]
    Bench(BenchArgs),
}

#[derive(Args)]
pub struct BenchArgs {
    /// Directory of the table files.
    #[arg(long, default_value = DEFAULT_DIR)]
    pub dir: PathBuf,
    /// Number of probes.
    #[arg(long, default_value_t = 10_000_000)]
    pub probes: u64,
}

#[derive(Args)]
pub struct BuildArgs {
    /// Largest number of seeds on the board.
    #[arg(long)]
    pub max_seeds: usize,
    /// Directory of the table files.
    #[arg(long, default_value = DEFAULT_DIR)]
    pub dir: PathBuf,
    /// Memory for a seed count's working arrays (5 bytes a board; per rank
    /// under mpirun), in MB (10^6 bytes): above it they are kept in
    /// memory-mapped files in --dir instead of RAM, and the finished counts
    /// are mapped from their files rather than copied into RAM. Slower
    /// where the page cache cannot hold them (docs/SOLVING.md).
    #[arg(long, value_name = "MB")]
    pub memory_budget_mb: Option<u64>,
}

#[derive(Args)]
pub struct ProbeArgs {
    /// Directory of the table files. Without it, `./tablebases` if it holds
    /// table files (as for `analyze` and `uci`), else a table of
    /// `--max-seeds` seeds built in memory.
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Seeds of the in-memory table when no table files are used.
    #[arg(long, default_value_t = oware_tablebase::DEFAULT_SEEDS)]
    pub max_seeds: usize,
    /// The position (position string, e.g. 1-0-0-0-1-0-0-0-0-0-0-0-23-23-S).
    pub position: String,
}

#[derive(Args)]
pub struct VerifyArgs {
    /// Directory of the table files.
    #[arg(long, default_value = DEFAULT_DIR)]
    pub dir: PathBuf,
    /// Positions to check per seed count.
    #[arg(long, default_value_t = 100_000)]
    pub sample: u64,
}

pub fn run(command: Command) -> Result<()> {
    match command {
        Command::Tablebase(TbCommand::Build(a)) => build(a),
        Command::Tablebase(TbCommand::Probe(a)) => probe(a),
        Command::Tablebase(TbCommand::Verify(a)) => verify(a),
        Command::Tablebase(TbCommand::Bench(a)) => bench(a),
    }
}

fn build(args: BuildArgs) -> Result<()> {
    #[cfg(feature = "mpi")]
    if super::tablebase_mpi::launched() {
        return super::tablebase_mpi::build(args);
    }
    let lang = super::args_lang();
    if args.max_seeds > oware_tablebase::MAX_BUILD_SEEDS {
        return Err(super::said(
            lang,
            format!(
                "--max-seeds {}: at most {} is supported",
                args.max_seeds,
                oware_tablebase::MAX_BUILD_SEEDS
            ),
            format!(
                "--max-seeds {}\u{a0}: au plus {}",
                args.max_seeds,
                oware_tablebase::MAX_BUILD_SEEDS
            ),
        ));
    }
    not_a_file(&args.dir)?;
    // Work units of the seed counts still to build (three per position).
    let todo: u64 = (0..=args.max_seeds)
        .filter(|&n| !file::path_for(&args.dir, n).exists())
        .map(|n| 3 * index::count(n))
        .sum();
    let bar = ProgressBar::new(todo.max(1));
    bar.set_style(
        ProgressStyle::with_template(
            match lang {
                Lang::En => "{msg:>10} [{elapsed_precise}] [{wide_bar}] {percent:>3}% {human_pos}/{human_len} units {per_sec} ETA {eta}",
                Lang::Fr => "{msg:>10} [{elapsed_precise}] [{wide_bar}] {percent:>3}\u{202f}% {human_pos}/{human_len} unités, reste {eta}",
            },
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    bar.enable_steady_tick(Duration::from_millis(250));
    let base = AtomicU64::new(0);
    let started = Instant::now();
    let progress = |p: oware_tablebase::BuildProgress| {
        bar.set_message(match lang {
            Lang::En => format!("{} seeds", p.seeds),
            Lang::Fr => format!("{} graines", p.seeds),
        });
        bar.set_position(base.load(Ordering::Relaxed) + p.done);
    };
    let mut level_started = Instant::now();
    let mut on_level = |n: usize, status: LevelStatus| {
        match status {
            LevelStatus::Kept => say(
                &bar,
                match lang {
                    Lang::En => format!("{n:>2} seeds: valid file kept"),
                    Lang::Fr => format!("{}\u{a0}: fichier valide gardé", seeds_fr(n)),
                },
            ),
            LevelStatus::Built => {
                base.fetch_add(3 * index::count(n), Ordering::Relaxed);
                say(
                    &bar,
                    match lang {
                        Lang::En => format!(
                            "{n:>2} seeds: {} positions built in {:.1} s",
                            index::count(n),
                            level_started.elapsed().as_secs_f64()
                        ),
                        Lang::Fr => format!(
                            "{}\u{a0}: {} en {}\u{a0}s",
                            seeds_fr(n),
                            plural_fr(
                                index::count(n),
                                "position construite",
                                "positions construites"
                            ),
                            format!("{:.1}", level_started.elapsed().as_secs_f64())
                                .replace('.', ",")
                        ),
                    },
                );
            }
        }
        level_started = Instant::now();
    };
    let result = match args.memory_budget_mb {
        None => oware_tablebase::build_to_dir(&args.dir, args.max_seeds, &progress, &mut on_level),
        // The distributed builder on one rank: the same files, with the
        // working arrays spilled past the budget.
        #[cfg(unix)]
        Some(mb) => oware_tablebase::dist::build_to_dir_distributed(
            &args.dir,
            args.max_seeds,
            &oware_tablebase::dist::Solo,
            oware_tablebase::dist::DistOptions {
                memory_budget: Some(mb.saturating_mul(1_000_000)),
            },
            &progress,
            &mut |r| {
                if r.spilled {
                    say(
                        &bar,
                        match lang {
                            Lang::En => format!(
                                "{:>2} seeds: working arrays spilled to {}",
                                r.seeds,
                                args.dir.display()
                            ),
                            Lang::Fr => format!(
                                "{}\u{a0}: tableaux de travail déchargés sur le disque dans {}",
                                seeds_fr(r.seeds),
                                args.dir.display()
                            ),
                        },
                    );
                }
                on_level(r.seeds, r.status)
            },
        )
        .map(|summary| {
            if let Some(b) = summary.peak_private_bytes {
                say(
                    &bar,
                    match lang {
                        Lang::En => format!("peak private memory {:.1} MB", b as f64 / 1e6),
                        Lang::Fr => format!(
                            "mémoire privée au plus haut\u{a0}: {}\u{a0}Mo",
                            format!("{:.1}", b as f64 / 1e6).replace('.', ",")
                        ),
                    },
                );
            }
        }),
        #[cfg(not(unix))]
        Some(_) => anyhow::bail!("--memory-budget-mb needs a Unix system"),
    };
    bar.finish_and_clear();
    result.with_context(|| format!("building tables in {}", args.dir.display()))?;
    match super::args_lang() {
        Lang::En => println!(
            "tables for 0..={} seeds ({} positions) in {} after {:.1} s",
            args.max_seeds,
            index::count_up_to(args.max_seeds),
            args.dir.display(),
            started.elapsed().as_secs_f64()
        ),
        Lang::Fr => println!(
            "tables de 0 à {} graines ({}\u{a0}positions) dans {} en {}\u{a0}s",
            args.max_seeds,
            index::count_up_to(args.max_seeds),
            args.dir.display(),
            format!("{:.1}", started.elapsed().as_secs_f64()).replace('.', ",")
        ),
    }
    Ok(())
}

/// A line above the progress bar, or on stderr when the bar is hidden
/// (output not a terminal).
fn say(bar: &ProgressBar, line: String) {
    if bar.is_hidden() {
        eprintln!("{line}");
    } else {
        bar.println(line);
    }
}

/// "12 graines" right-aligned as a column, "1 graine" (French counts 0
/// and 1 in the singular).
fn seeds_fr(n: usize) -> String {
    let word = if n <= 1 { "graine" } else { "graines" };
    format!("{n:>2}\u{a0}{word}")
}

/// `n` and its noun phrase, singular for 0 and 1 as French has it.
fn plural_fr(n: u64, one: &str, many: &str) -> String {
    format!("{n}\u{a0}{}", if n <= 1 { one } else { many })
}

/// Refuses `dir` when it names a file: tables are a folder.
fn not_a_file(dir: &std::path::Path) -> Result<()> {
    if dir.is_file() {
        let d = dir.display();
        return Err(super::said(
            super::args_lang(),
            format!("{d} is a file: give the folder of the tables"),
            format!("{d} est un fichier\u{a0}: donnez le dossier des tables"),
        ));
    }
    Ok(())
}

fn open(dir: &std::path::Path) -> Result<Tablebase> {
    not_a_file(dir)?;
    let tb =
        Tablebase::open(dir).with_context(|| format!("opening tables in {}", dir.display()))?;
    if tb.max_seeds().is_none() {
        let d = dir.display();
        return Err(super::said(
            super::args_lang(),
            format!("no table files in {d} (build them with `oware tablebase build --dir {d}`)"),
            format!("aucun fichier de tables dans {d} (construisez-les avec «\u{a0}oware tablebase build --dir {d}\u{a0}»)"),
        ));
    }
    Ok(tb)
}

fn result_text(r: TbResult, lang: Lang) -> &'static str {
    match r {
        TbResult::Win => lang.pick("win for the side to move", "victoire pour le camp qui joue"),
        TbResult::Draw => lang.pick("draw", "nulle"),
        TbResult::Loss => lang.pick("loss for the side to move", "défaite pour le camp qui joue"),
        TbResult::WinOrDraw => lang.pick(
            "win or draw for the side to move (depends on repetition)",
            "victoire ou nulle pour le camp qui joue (selon les répétitions)",
        ),
        TbResult::DrawOrLoss => lang.pick(
            "draw or loss for the side to move (depends on repetition)",
            "nulle ou défaite pour le camp qui joue (selon les répétitions)",
        ),
        TbResult::Unresolved => lang.pick("depends on repetition", "selon les répétitions"),
    }
}

fn probe(args: ProbeArgs) -> Result<()> {
    let lang = super::args_lang();
    let fr = lang == Lang::Fr;
    let pos: Position = super::core::parse_position(Some(&args.position))?;
    let default = std::path::Path::new(DEFAULT_DIR);
    let (tb, source) = match &args.dir {
        Some(dir) => (open(dir)?, dir.display().to_string()),
        None => {
            // The default folder is used when it holds files; a damaged
            // file there is an error, not a reason to fall back silently.
            let found = if default.is_dir() {
                Some(
                    Tablebase::open(default)
                        .with_context(|| format!("opening tables in {}", default.display()))?,
                )
            } else {
                None
            };
            match found.filter(|tb| tb.max_seeds().is_some()) {
                Some(tb) => (tb, default.display().to_string()),
                None => (
                    Tablebase::build_in_memory(args.max_seeds)
                        .context("building the in-memory table")?,
                    lang.pick("built in memory", "construites en mémoire")
                        .to_string(),
                ),
            }
        }
    };
    let Some(v) = tb.probe(&pos) else {
        let most = tb.max_seeds().map_or("none".to_string(), |n| n.to_string());
        return Err(super::said(
            lang,
            format!(
                "{} seeds on the board; the tables cover at most {most}",
                pos.seeds_on_board()
            ),
            format!(
                "{} graines sur le plateau\u{a0}; les tables en couvrent au plus {}",
                pos.seeds_on_board(),
                tb.max_seeds()
                    .map_or("aucune".to_string(), |n| n.to_string())
            ),
        ));
    };
    if fr {
        return probe_fr(&tb, &pos, &source, v);
    }
    let me = pos.to_move();
    println!(
        "tables     {source} (0..={} seeds)",
        tb.max_seeds().unwrap_or(0)
    );
    println!("position   {pos}");
    println!(
        "to move    {me} (captured {}, opponent captured {})",
        pos.store(me),
        pos.store(me.opponent())
    );
    if v.is_exact() {
        println!(
            "value      {} of the {} seeds on the board (exact)",
            v.lower(),
            v.seeds()
        );
    } else {
        println!(
            "value      {}..={} of the {} seeds on the board (depends on repetition; own-row estimate {})",
            v.lower(),
            v.upper(),
            v.seeds(),
            v.estimate()
        );
    }
    let (lo, hi) = (pos.store(me) + v.lower(), pos.store(me) + v.upper());
    if lo == hi {
        println!("final      {lo}-{} for {me}", 48 - lo);
    } else {
        println!("final      {lo}..={hi} for {me}");
    }
    println!("result     {}", result_text(v.result(&pos), lang));
    let values = tb.move_values(&pos).expect("covered");
    let best = tb.best_moves(&pos).expect("covered");
    if values.is_empty() {
        println!("best       none: the game is over");
    } else {
        println!(
            "best       {}",
            best.iter().map(|m| m.letter()).collect::<String>()
        );
        for m in values {
            let range = if m.lower == m.upper {
                m.lower.to_string()
            } else {
                format!("{}..={}", m.lower, m.upper)
            };
            let cap = if m.captured > 0 {
                format!(" (captures {})", m.captured)
            } else {
                String::new()
            };
            println!("  {} {range}{cap}", m.mv);
        }
    }
    Ok(())
}

/// `probe`'s report in French.
fn probe_fr(
    tb: &Tablebase,
    pos: &Position,
    source: &str,
    v: oware_tablebase::TbValue,
) -> Result<()> {
    let lang = Lang::Fr;
    let me = pos.to_move();
    let name = oware_session::player::side_name(me, lang);
    println!(
        "tables     {source} (0 à {} graines)",
        tb.max_seeds().unwrap_or(0)
    );
    println!("position   {pos}");
    println!(
        "au tour de {name} (a pris {}, l'adversaire {})",
        pos.store(me),
        pos.store(me.opponent())
    );
    if v.is_exact() {
        println!(
            "valeur     {} des {} graines du plateau (exacte)",
            v.lower(),
            v.seeds()
        );
    } else {
        println!(
            "valeur     {} à {} des {} graines du plateau (selon les répétitions\u{a0}; estimation par les rangées {})",
            v.lower(),
            v.upper(),
            v.seeds(),
            v.estimate()
        );
    }
    let (lo, hi) = (pos.store(me) + v.lower(), pos.store(me) + v.upper());
    if lo == hi {
        println!("final      {lo}-{} pour {name}", 48 - lo);
    } else {
        println!("final      {lo} à {hi} pour {name}");
    }
    println!("résultat   {}", result_text(v.result(pos), lang));
    let values = tb.move_values(pos).expect("covered");
    let best = tb.best_moves(pos).expect("covered");
    if values.is_empty() {
        println!("meilleur   aucun\u{a0}: la partie est finie");
    } else {
        println!(
            "meilleurs  {}",
            best.iter().map(|m| m.letter()).collect::<String>()
        );
        for m in values {
            let range = if m.lower == m.upper {
                m.lower.to_string()
            } else {
                format!("{} à {}", m.lower, m.upper)
            };
            let cap = if m.captured > 0 {
                format!(" (prend {})", m.captured)
            } else {
                String::new()
            };
            println!("  {} {range}{cap}", m.mv);
        }
    }
    Ok(())
}

fn verify(args: VerifyArgs) -> Result<()> {
    let fr = super::args_lang() == Lang::Fr;
    let started = Instant::now();
    let tb = open(&args.dir)?;
    let max = tb.max_seeds().expect("not empty");
    if fr {
        println!(
            "fichiers de 0 à {max} graines\u{a0}: en-têtes, tailles et sommes de contrôle valides ({} s)",
            format!("{:.1}", started.elapsed().as_secs_f64()).replace('.', ",")
        );
    } else {
        println!(
            "files for 0..={max} seeds: headers, sizes and checksums valid ({:.1} s)",
            started.elapsed().as_secs_f64()
        );
    }
    for n in 0..=max {
        let (checked, exact, decided) = oware_tablebase::check_consistency(&tb, n, args.sample)
            .map_err(|e| consistency_error(n, &e))?;
        let pct = |k: u64| 100.0 * k as f64 / checked.max(1) as f64;
        if fr {
            let pct = |k: u64| format!("{:.1}", pct(k)).replace('.', ",");
            println!(
                "{}\u{a0}: {} avec les valeurs de {} coups\u{a0}; {}\u{202f}% exactes\u{a0}; résultat décidé pour {}\u{202f}% à greniers égaux",
                seeds_fr(n),
                plural_fr(checked, "position s'accorde", "positions s'accordent"),
                if checked <= 1 { "ses" } else { "leurs" },
                pct(exact),
                pct(decided)
            );
        } else {
            println!(
                "{n:>2} seeds: {checked} positions agree with their moves' values; {:.1}% exact; result decided for {:.1}% with even stores",
                pct(exact),
                pct(decided)
            );
        }
    }
    Ok(())
}

fn bench(args: BenchArgs) -> Result<()> {
    let started = Instant::now();
    let tb = open(&args.dir)?;
    let n = tb.max_seeds().expect("not empty");
    println!(
        "opened and checked 0..={n} seeds in {:.2} s",
        started.elapsed().as_secs_f64()
    );
    let count = index::count(n);
    // A fixed pseudo-random sequence (64-bit LCG), so runs are comparable.
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let positions: Vec<Position> = (0..args.probes.min(1_000_000))
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            index::position_of(&index::unrank(n, (x >> 11) % count).expect("in range"))
        })
        .collect();
    let started = Instant::now();
    let mut sum = 0u64;
    for i in 0..args.probes {
        let v = tb
            .probe(&positions[(i % positions.len() as u64) as usize])
            .expect("covered");
        sum += v.lower() as u64;
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{} probes of random {n}-seed positions in {secs:.2} s: {:.0} probes/s ({:.0} ns each; checksum {sum})",
        args.probes,
        args.probes as f64 / secs,
        secs * 1e9 / args.probes as f64
    );
    Ok(())
}

/// A table that disagrees with its moves, in the command line's language.
fn consistency_error(n: usize, e: &oware_tablebase::ConsistencyError) -> anyhow::Error {
    use oware_tablebase::ConsistencyError;
    let lang = super::args_lang();
    let fr = match e {
        ConsistencyError::NoTable(n) => format!("il n'y a pas de table de {n}\u{a0}graines"),
        ConsistencyError::Mismatch {
            position,
            stored,
            moves,
        } => format!(
            "{position}\u{a0}: la table donne {} à {} graines, mais ses coups donnent {} à {}\u{a0}; la table est fausse, reconstruisez-la avec «\u{a0}oware tablebase build\u{a0}»",
            stored.0, stored.1, moves.0, moves.1
        ),
    };
    super::said(
        lang,
        format!("{n} seeds: {e}"),
        format!("{}\u{a0}: {fr}", seeds_fr(n).trim_start()),
    )
}
