//! Engine subcommands: `analyze`, `bench`, `uci`, `match`, `tune`.

use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use oware_core::{format_moves, Game};
use oware_engine::{bench, Engine, EngineOptions, Limits};
use serde::Serialize;

use super::core::parse_position;

#[derive(Subcommand)]
pub enum Command {
    /// Value and principal variation of every legal move of a position.
    #[command(after_help = "Examples:
  oware analyze --moves FfBe
  oware analyze --position 0-0-0-5-0-0-3-1-2-0-0-3-17-17-S --depth 12 --json")]
    Analyze(AnalyzeArgs),
    /// Search fixed positions to a fixed depth: prints the node-count signature and nodes/second.
    #[command(after_help = "Examples:
  oware bench
  oware bench --depth 10 --verbose")]
    Bench(BenchArgs),
    /// Speak the UCI engine protocol (Aalina's dialect) on stdin/stdout.
    #[command(after_help = "Examples:
  oware uci
  printf 'setoption name Level value beginner\\nposition startpos moves F\\ngo\\n' | oware uci")]
    Uci(UciArgs),
    /// Play a match between two UCI engines, judged by the rules core.
    #[command(after_help = "Examples:
  oware match --engine1 \"oware uci\" --engine2 \"oware uci\" --option2 Level=club --games 20 --movetime 100
  oware match --engine1 \"oware uci\" --engine2 \"./other uci\" --depth 8 --sprt --elo0 0 --elo1 20")]
    Match(MatchArgs),
    /// Elo difference, 95 % interval and LOS of match counts, summed over
    /// one or more runs (e.g. to total several `oware match` runs).
    #[command(after_help = "Examples:
  oware elo --pairs 0,2,31,30,77 --pairs 0,0,18,18,24
  oware elo --wdl 27,8,5")]
    Elo(EloArgs),
    /// How often the coach warns in games between two levels, and how a
    /// level that follows a coach scores (docs/ENGINE.md, "The coach").
    #[command(after_help = "Examples:
  oware coach-rate --level club --against club --games 40
  oware coach-rate --level beginner --against learner --follow engine")]
    CoachRate(CoachRateArgs),
    /// Fit the evaluation weights on self-play data (see docs/ENGINE.md).
    #[command(after_help = "Examples:
  oware tune gen --games 2000 --out selfplay.txt
  oware tune fit selfplay.txt
  oware tune nn-gen --games 500 --out nn-data.txt")]
    Tune {
        #[command(subcommand)]
        action: TuneAction,
    },
}

#[derive(Subcommand)]
pub enum TuneAction {
    /// Play self-play games and write their quiet positions with the results.
    #[command(after_help = "Examples:
  oware tune gen --games 2000 --depth 6 --out selfplay.txt")]
    Gen {
        /// Games to play.
        #[arg(long, default_value_t = 200)]
        games: usize,
        /// Search depth per move.
        #[arg(long, default_value_t = 6)]
        depth: u32,
        /// Random opening plies.
        #[arg(long, default_value_t = 6)]
        plies: usize,
        /// Seed of the openings and the move noise.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Output file.
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Play self-play games and write their quiet positions labelled by
    /// the game's result, the search's value and the endgame tables, for
    /// the evaluation network's trainer (scripts/train-nn.sh).
    #[command(after_help = "Examples:
  oware tune nn-gen --games 500 --depth 8 --out nn-data.txt")]
    NnGen {
        /// Games to play.
        #[arg(long, default_value_t = 200)]
        games: usize,
        /// Search depth per move (every legal move is searched).
        #[arg(long, default_value_t = 8)]
        depth: u32,
        /// Random opening plies.
        #[arg(long, default_value_t = 6)]
        plies: usize,
        /// Seed of the openings and the move noise.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Endgame tables built in memory up to this many seeds (0: none),
        /// used by the search and as exact labels.
        #[arg(long, default_value_t = 16)]
        tablebase_seeds: usize,
        /// Open the endgame tables of this directory (memory-mapped, e.g.
        /// up to 22 seeds) instead of building them in memory; they serve
        /// the search and the exact labels.
        #[arg(long, conflicts_with = "tablebase_seeds")]
        tablebase_dir: Option<std::path::PathBuf>,
        /// Play and label with this evaluation network file (a second
        /// round on a network's own games); default: the linear
        /// evaluation, so the shipped network's data repeat.
        #[arg(long)]
        network: Option<std::path::PathBuf>,
        /// Output file.
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// The perfect-play benchmark: the engine, without tables, chooses a
    /// move in every position of the accuracy set (15 to 24 seeds); the
    /// report gives the share of moves that keep the tables' value and the
    /// seeds lost where they do not, by seed count, phase and source, with
    /// standard errors (docs/ENGINE.md, "Perfect play").
    #[command(after_help = "Examples:
  oware tune accuracy --movetime 100
  oware tune accuracy --nodes 20000 --linear
  oware tune accuracy --depth 8 --set my-set.txt
  oware tune accuracy --set-version 3 --nodes 20000")]
    Accuracy {
        /// Fixed time a move, in milliseconds.
        #[arg(long, conflicts_with_all = ["nodes", "depth"])]
        movetime: Option<u64>,
        /// Fixed node budget a move (reproducible on a loaded machine).
        #[arg(long, conflicts_with = "depth")]
        nodes: Option<u64>,
        /// Fixed depth a move (reproducible).
        #[arg(long)]
        depth: Option<u32>,
        /// Position set (default: the shipped set of --set-version).
        #[arg(long)]
        set: Option<std::path::PathBuf>,
        /// The shipped set's version: 1 (15 to 22 seeds, all positions
        /// with a move that gives seeds away), 2 (15 to 22 seeds, only
        /// positions whose result is open) or 3 (as 2, 15 to 24 seeds).
        #[arg(long, default_value_t = 1, conflicts_with = "set")]
        set_version: u32,
        /// Only the first N positions.
        #[arg(long)]
        limit: Option<usize>,
        /// Search with the linear evaluation instead of the network.
        #[arg(long)]
        linear: bool,
        /// Evaluation network file instead of the built-in one.
        #[arg(long, conflicts_with = "linear")]
        network: Option<std::path::PathBuf>,
    },
    /// Draw a new accuracy set from self-play and games between levels,
    /// valued by the endgame tables in `--tables` (up to 22 seeds, 24 for
    /// version 3).
    AccuracyGen {
        /// Directory of the tables (`oware tablebase build --max-seeds 24`).
        #[arg(long)]
        tables: std::path::PathBuf,
        /// Positions per seed count and source.
        #[arg(long, default_value_t = 50)]
        per_count: usize,
        /// Seed of the openings and the move noise.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The kind of set drawn: 1 (15 to 22 seeds, any position where a
        /// move gives seeds away), 2 (15 to 22 seeds, only positions whose
        /// game result is still open: a legal move changes it) or 3 (as 2,
        /// 15 to 24 seeds).
        #[arg(long, default_value_t = oware_tools::accuracy::LATEST,
              value_parser = clap::value_parser!(u32).range(1..=oware_tools::accuracy::LATEST as i64))]
        set_version: u32,
        /// Output file.
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// The coach judged by the endgame tables: positions of the accuracy
    /// sets from games between levels, each analysed by the coach with the
    /// tables in `--tables`; how often its best move keeps the tables'
    /// result, how often it warns, and its verdicts against the tables'
    /// (docs/ENGINE.md, "The coach against the tables"). With
    /// `--reference-depth`, positions of every seed count drawn from games
    /// between levels 3 to 8, judged by a deeper search with the tables
    /// in `--reference-tables` instead ("The coach against a depth-20
    /// search").
    #[command(after_help = "Examples:
  oware tune coach-check --tables tablebases
  oware tune coach-check --tables tb12 --depth 14 --positions 500
  oware tune coach-check --tables tb12 --tables tb20 --reference-depth 20 \\
      --reference-tables tb20 --reference ref20.txt --threads 2")]
    CoachCheck {
        /// Directory of the coach's tables (the server's, or the 12 seeds
        /// the browser holds); several give one report each.
        #[arg(long, required = true)]
        tables: Vec<std::path::PathBuf>,
        /// The coach's depth.
        #[arg(long, default_value_t = oware_session::Budget::COACH.depth,
              value_parser = clap::value_parser!(u32).range(1..=30))]
        depth: u32,
        /// The depth the coach searches every close move to, in every
        /// position alike (0: none, a plain search to --depth; without
        /// it, the coach's own deeper look, which depends on the seeds on
        /// the board).
        #[arg(long, value_parser = clap::value_parser!(u32).range(0..=30))]
        close: Option<u32>,
        /// Replace one of the coach's deeper looks: `BAND=DEPTH:MOVES:WITHIN`,
        /// BAND one of `ending`, `middle`, `opening`, MOVES 0 for every
        /// close move, WITHIN in tenths of a seed (`middle=20:2:15`: the
        /// two best within 1.5 seeds to depth 20); `BAND=none` removes it.
        #[arg(long = "look", value_parser = parse_look, conflicts_with = "close")]
        looks: Vec<(LookBand, Option<oware_session::Look>)>,
        /// Positions (the sets hold 600 from games between levels).
        #[arg(long, default_value_t = 500)]
        positions: usize,
        /// Judge by a search of this depth (with `--reference-tables`)
        /// on positions of games between levels, instead of by the
        /// accuracy sets' exact values.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=30))]
        reference_depth: Option<u32>,
        /// The reference search's tables.
        #[arg(long, requires = "reference_depth")]
        reference_tables: Option<std::path::PathBuf>,
        /// A file that keeps the reference's analyses (read, and added to).
        #[arg(long, requires = "reference_depth")]
        reference: Option<std::path::PathBuf>,
        /// Engines searching the reference at once.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Seed of the games the positions are drawn from.
        #[arg(long, default_value_t = 36)]
        seed: u64,
        /// The coach's evaluation network file instead of the built-in one
        /// (the reference keeps the built-in one).
        #[arg(long)]
        network: Option<std::path::PathBuf>,
    },
    /// Re-read every value of an accuracy set from the tables in `--tables`.
    AccuracyCheck {
        /// Directory of the tables.
        #[arg(long)]
        tables: std::path::PathBuf,
        /// Position set (default: the shipped set of --set-version).
        #[arg(long)]
        set: Option<std::path::PathBuf>,
        /// The shipped set's version (1 to 3).
        #[arg(long, default_value_t = 1, conflicts_with = "set")]
        set_version: u32,
    },
    /// Fit the weights on files written by `tune gen` and print them.
    #[command(after_help = "Examples:
  oware tune fit selfplay-1.txt selfplay-2.txt")]
    Fit {
        /// Data files.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
    },
    /// Compare models beyond the linear evaluation on held-out data
    /// (log-loss of the game result; docs/ENGINE.md, "Beyond linear").
    #[command(after_help = "Examples:
  oware tune compare selfplay-1.txt selfplay-2.txt")]
    Compare {
        /// Data files written by `tune gen`.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
    },
}

#[derive(Args)]
pub struct CoachRateArgs {
    /// The level measured (and, with --follow, the follower): 1 to 10 or
    /// its name (beginner … master).
    #[arg(long, default_value = "5", value_name = "LEVEL", value_parser = super::parse_level)]
    pub level: oware_engine::Level,
    /// Its opponent's level: 1 to 10 or its name.
    #[arg(long, default_value = "5", value_name = "LEVEL", value_parser = super::parse_level)]
    pub against: oware_engine::Level,
    /// Games (colours alternate).
    #[arg(long, default_value_t = 20)]
    pub games: usize,
    /// The coach's search depth.
    #[arg(long, default_value_t = oware_session::Budget::COACH.depth)]
    pub depth: u32,
    /// The depth the coach searches every close move to, in every
    /// position alike (0: none; without it, the coach's own deeper look).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=30))]
    pub close: Option<u32>,
    /// Seed of the levels' choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Whether --level follows a coach: `none`, `engine` (the engine
    /// coach's best when it warns) or `capture` (the old 1-ply capture
    /// warnings).
    #[arg(long, default_value = "none")]
    pub follow: String,
}

#[derive(Args)]
#[command(group(clap::ArgGroup::new("counts").required(true).args(["pairs", "wdl"])))]
pub struct EloArgs {
    /// Game-pair counts of one run as N0,N1,N2,N3,N4 (pairs in which
    /// engine 1 scored 0 … 4 half-points: the line "pairs by engine1's
    /// half-points" of `oware match`); repeat to sum runs.
    #[arg(long, value_name = "N0,N1,N2,N3,N4", value_parser = parse_counts::<5>)]
    pub pairs: Vec<[u64; 5]>,
    /// Single-game counts of one run as W,D,L (engine 1's view), for runs
    /// whose games are not paired; repeat to sum runs.
    #[arg(long, value_name = "W,D,L", value_parser = parse_counts::<3>, conflicts_with = "pairs")]
    pub wdl: Vec<[u64; 3]>,
}

/// Parses N comma-separated counts.
fn parse_counts<const N: usize>(text: &str) -> Result<[u64; N], String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    if parts.len() != N {
        return Err(format!(
            "expected {N} comma-separated counts, got {}",
            parts.len()
        ));
    }
    let mut out = [0u64; N];
    for (slot, part) in out.iter_mut().zip(parts) {
        *slot = part
            .parse()
            .map_err(|_| format!("'{part}' is not a count (a whole number from 0)"))?;
    }
    Ok(out)
}

#[derive(Args)]
pub struct MatchArgs {
    /// First engine's command line (`oware` means this program), e.g. "oware uci".
    #[arg(long)]
    pub engine1: String,
    /// Second engine's command line.
    #[arg(long)]
    pub engine2: String,
    /// Option for engine 1 as NAME=VALUE (repeatable), e.g. Level=3.
    #[arg(long = "option1", value_name = "NAME=VALUE")]
    pub option1: Vec<String>,
    /// Option for engine 2 as NAME=VALUE (repeatable), e.g. Greedy=true.
    #[arg(long = "option2", value_name = "NAME=VALUE")]
    pub option2: Vec<String>,
    /// Number of games (each opening is played twice, colours swapped); with
    /// --sprt, the most games to play (default 10, with --sprt 20000).
    #[arg(long)]
    pub games: Option<usize>,
    /// Run a sequential probability ratio test (GSPRT, on game pairs) of
    /// Elo = --elo0 against Elo = --elo1, stopping as soon as one is accepted.
    #[arg(long, requires_all = ["elo0", "elo1"])]
    pub sprt: bool,
    /// SPRT: the Elo of the null hypothesis (engine 1 minus engine 2).
    #[arg(long, requires = "sprt", allow_hyphen_values = true)]
    pub elo0: Option<f64>,
    /// SPRT: the Elo of the alternative hypothesis (above --elo0).
    #[arg(long, requires = "sprt", allow_hyphen_values = true)]
    pub elo1: Option<f64>,
    /// SPRT: the probability of accepting --elo1 when --elo0 holds.
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    pub alpha: f64,
    /// SPRT: the probability of accepting --elo0 when --elo1 holds.
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    pub beta: f64,
    /// Time per move in milliseconds.
    #[arg(long, conflicts_with_all = ["depth", "nodes"], required_unless_present_any = ["depth", "nodes"])]
    pub movetime: Option<u64>,
    /// Depth per move in plies.
    #[arg(long, conflicts_with = "nodes")]
    pub depth: Option<u32>,
    /// Nodes per move (fair comparisons on a loaded machine).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Engine 2's time per move, for time-odds matches (default: --movetime).
    #[arg(long, requires = "movetime")]
    pub movetime2: Option<u64>,
    /// Openings file: one opening a line, a move list from the start or a
    /// position string followed by optional moves; '#' starts a comment.
    #[arg(long, conflicts_with = "random_plies")]
    pub openings: Option<std::path::PathBuf>,
    /// Random openings of this many plies (the default, with 4 plies).
    #[arg(long)]
    pub random_plies: Option<usize>,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Print every game's moves.
    #[arg(long, short)]
    pub verbose: bool,
}

#[derive(Args)]
pub struct UciArgs {
    /// Transposition table size in MiB (also `setoption name Hash`).
    #[arg(long, default_value_t = 64,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=16384))]
    pub hash: usize,
    #[command(flatten)]
    pub tables: TableArgs,
}

/// Which endgame tables the engine uses.
#[derive(Args)]
pub struct TableArgs {
    /// Endgame tablebase directory (also `setoption name TablebaseDir`). By
    /// default `./tablebases` if it exists, else a small table built in memory.
    #[arg(long)]
    pub tablebases: Option<std::path::PathBuf>,
    /// Use no endgame tables at all.
    #[arg(long, conflicts_with = "tablebases")]
    pub no_tablebases: bool,
}

impl TableArgs {
    /// The directory to open, or the seed count to build in memory.
    fn choose(&self) -> (Option<std::path::PathBuf>, Option<usize>) {
        if self.no_tablebases {
            return (None, None);
        }
        if let Some(d) = &self.tablebases {
            return (Some(d.clone()), None);
        }
        let default = std::path::Path::new(DEFAULT_TABLE_DIR);
        if default.is_dir() && oware_engine::tablebase::open(default).is_ok() {
            return (Some(default.to_path_buf()), None);
        }
        (None, Some(oware_tablebase::DEFAULT_SEEDS))
    }
}

/// Where `oware tablebase build` puts tables by default.
const DEFAULT_TABLE_DIR: &str = oware_tablebase::DEFAULT_DIR;

#[derive(Args)]
pub struct AnalyzeArgs {
    /// Start position (position string); the standard start by default.
    #[arg(long, short)]
    pub position: Option<String>,
    /// Moves to play from the position first, concatenated (FfBe) or spaced ("F f B e").
    #[arg(long, short)]
    pub moves: Option<String>,
    /// Think for this many milliseconds, 1 to 3600000 (the default is 1000).
    #[arg(long, conflicts_with = "depth", allow_hyphen_values = true,
          value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub movetime: Option<u64>,
    /// Search to this depth in plies instead of a time, 1 to 64.
    #[arg(long, allow_hyphen_values = true,
          value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// The coach's analysis instead (its budget: every move to depth 14,
    /// then the moves it cannot tell apart deeper, to 18 or 20 by the
    /// seeds on the board), as the server's coach, the hint and the
    /// browser's module give it (docs/ENGINE.md, "The coach").
    #[arg(long, conflicts_with_all = ["depth", "movetime"])]
    pub coach: bool,
    #[command(flatten)]
    pub tables: TableArgs,
    /// Evaluate with the linear evaluation instead of the neural network
    /// (docs/ENGINE.md, "The network").
    #[arg(long)]
    pub linear_eval: bool,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct BenchArgs {
    /// Search depth for every position.
    #[arg(long, default_value_t = 14)]
    pub depth: u32,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Print each position's node count.
    #[arg(long, short)]
    pub verbose: bool,
}

pub fn run(command: Command) -> Result<()> {
    match command {
        Command::Analyze(a) => analyze(a),
        Command::Bench(b) => run_bench(b),
        Command::Match(m) => run_match(m),
        Command::Elo(e) => elo(e),
        Command::CoachRate(a) => coach_rate(a),
        Command::Tune { action } => tune(action),
        Command::Uci(u) => {
            let out: oware_engine::uci::Output =
                std::sync::Arc::new(std::sync::Mutex::new(std::io::stdout()));
            let (dir, build) = u.tables.choose();
            // Tables asked for on the command line that cannot be opened
            // stop the start, said in words, as `analyze` does (a GUI's
            // `setoption name TablebaseDir` is answered in the protocol).
            if let Some(d) = &u.tables.tablebases {
                oware_engine::tablebase::open(d)?;
            }
            let options = EngineOptions {
                hash_mb: u.hash,
                tablebase_dir: dir,
            };
            oware_engine::uci::run_with_tables(std::io::stdin().lock(), out, options, build);
            Ok(())
        }
    }
}

/// The game the user asked for: a position, then moves played with the full rules.
fn game_from(position: Option<&str>, moves: Option<&str>) -> Result<Game> {
    let start = parse_position(position)?;
    let mut game = Game::new(start);
    if let Some(text) = moves {
        let moves = super::core::parse_move_list(text)?;
        super::core::play_moves(&mut game, &moves)?;
    }
    Ok(game)
}

#[derive(Serialize)]
struct MoveJson {
    #[serde(rename = "move")]
    mv: String,
    /// Centi-seeds for the mover; proven results are ±(10000 - plies).
    score_cp: i32,
    /// Plies to the end for a proven result (negative: a loss).
    proven_in: Option<i32>,
    score: String,
    pv: String,
}

#[derive(Serialize)]
struct AnalysisJson {
    position: String,
    to_move: String,
    depth: u32,
    // Not counted by the coach's analysis (`--coach`).
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<u64>,
    elapsed_ms: u128,
    moves: Vec<MoveJson>,
}

fn analyze(args: AnalyzeArgs) -> Result<()> {
    let game = game_from(args.position.as_deref(), args.moves.as_deref())?;
    let lang = super::args_lang();
    if let Some(o) = game.outcome() {
        let why = oware_session::words::end_reason(&game, None, lang);
        return Err(super::said(
            lang,
            format!(
                "the game is over ({why}, {}-{}): nothing to analyse",
                o.totals[0], o.totals[1]
            ),
            format!(
                "la partie est finie ({why}, {}-{})\u{a0}: il n'y a rien à analyser",
                o.totals[0], o.totals[1]
            ),
        ));
    }
    // An analysis searches in a table of its own (ANALYSIS_HASH_MB, cleared),
    // so the engine's table size does not change the answer: the server,
    // the browser and Python give the same one with the same tables.
    let mut engine = Engine::new(EngineOptions {
        hash_mb: oware_engine::ANALYSIS_HASH_MB,
        tablebase_dir: None,
    });
    match args.tables.choose() {
        (Some(dir), _) => {
            engine.set_tablebase_dir(Some(dir))?;
        }
        (None, Some(n)) => {
            let tb = oware_engine::tablebase::Tablebase::build_in_memory(n)?;
            engine.set_tablebase(Some(std::sync::Arc::new(tb)));
        }
        (None, None) => {}
    }
    if args.linear_eval {
        engine.set_network(None);
    }
    let limits = match args.depth {
        Some(d) => Limits::depth(d),
        None => Limits::movetime(Duration::from_millis(args.movetime.unwrap_or(1000))),
    };
    let stop = engine.stop_handle();
    let started = std::time::Instant::now();
    let mut last = (0, None);
    let moves = if args.coach {
        // The coach's one analysis (`oware_session::Analysis`), in its
        // order: best first on the coach's scale.
        let budget = oware_session::Budget::COACH;
        let a = oware_session::Analysis::run(&mut engine, &game, budget, &stop)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        last.0 = a.depth;
        a.moves
            .iter()
            .map(|m| oware_engine::MoveAnalysis {
                mv: m.mv,
                score: m.score,
                pv: m.line.clone(),
            })
            .collect()
    } else {
        engine.analyze_with(&game, &limits, &stop, &mut |i| {
            last = (i.depth, Some(i.nodes))
        })
    };
    let report = AnalysisJson {
        position: game.position().to_string(),
        to_move: game.position().to_move().letter().to_string(),
        depth: last.0,
        nodes: last.1,
        elapsed_ms: started.elapsed().as_millis(),
        moves: moves
            .iter()
            .map(|m| MoveJson {
                mv: m.mv.to_string(),
                score_cp: m.score.centiseeds(),
                proven_in: m.score.plies_to_end(),
                score: m.score.to_string(),
                pv: format_moves(&m.pv),
            })
            .collect(),
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else if lang == oware_session::Lang::Fr {
        let nodes = match report.nodes {
            Some(n) => format!(", {n}\u{a0}{}", if n <= 1 { "nœud" } else { "nœuds" }),
            None => " (le coach)".to_string(),
        };
        println!(
            "{} (au tour de {}), profondeur {}{nodes}, {}\u{a0}ms",
            report.position,
            oware_session::player::side_name(game.position().to_move(), lang),
            report.depth,
            report.elapsed_ms
        );
        // The values in the session's words, as the web shows them.
        let width = moves
            .iter()
            .map(|m| {
                oware_session::ScoreKind::of(m.score)
                    .short(lang)
                    .chars()
                    .count()
            })
            .max()
            .unwrap_or(0);
        for (m, r) in moves.iter().zip(&report.moves) {
            let value = oware_session::ScoreKind::of(m.score).short(lang);
            let pad = " ".repeat(width - value.chars().count());
            println!("{:>2}  {pad}{value}  {}", r.mv, r.pv);
        }
    } else {
        let nodes = match report.nodes {
            Some(n) => format!(", {n} nodes"),
            None => " (the coach)".to_string(),
        };
        println!(
            "{} ({} to move), depth {}{nodes}, {} ms",
            report.position,
            game.position().to_move(),
            report.depth,
            report.elapsed_ms
        );
        for m in &report.moves {
            println!("{:>2}  {:>12}  {}", m.mv, m.score, m.pv);
        }
    }
    Ok(())
}

/// A band of seeds on the board whose deeper look `--look` replaces.
#[derive(Clone, Copy, Debug)]
pub enum LookBand {
    Ending,
    Middle,
    Opening,
}

/// Parses `--look`'s `BAND=DEPTH:MOVES:WITHIN` or `BAND=none`.
fn parse_look(text: &str) -> Result<(LookBand, Option<oware_session::Look>), String> {
    let (band, look) = text
        .split_once('=')
        .ok_or_else(|| format!("expected BAND=DEPTH:MOVES:WITHIN, got {text:?}"))?;
    let band = match band {
        "ending" => LookBand::Ending,
        "middle" => LookBand::Middle,
        "opening" => LookBand::Opening,
        other => return Err(format!("unknown band {other:?}: ending, middle or opening")),
    };
    if look == "none" {
        return Ok((band, None));
    }
    let parts: Vec<&str> = look.split(':').collect();
    let [depth, moves, within] = parts[..] else {
        return Err(format!("expected DEPTH:MOVES:WITHIN, got {look:?}"));
    };
    let depth: u32 = depth
        .parse()
        .ok()
        .filter(|d| (1..=30).contains(d))
        .ok_or_else(|| format!("depth {depth:?} is not 1 to 30"))?;
    let moves: usize = moves
        .parse()
        .map_err(|_| format!("moves {moves:?} is not a count"))?;
    let within: u8 = within
        .parse()
        .ok()
        .filter(|w| (1..=120).contains(w))
        .ok_or_else(|| format!("within {within:?} is not 1 to 120 tenths of a seed"))?;
    Ok((
        band,
        Some(oware_session::Look {
            depth,
            moves,
            within,
        }),
    ))
}

/// The coach's budget of `--depth` and `--close` (0: no deeper look;
/// none: the coach's own deeper look, `Budget::COACH`).
fn coach_budget(depth: u32, close: Option<u32>) -> oware_session::Budget {
    match close {
        None => oware_session::Budget {
            depth: depth.clamp(1, 30),
            ..oware_session::Budget::COACH
        },
        Some(0) => oware_session::Budget::depth(depth),
        Some(c) => oware_session::Budget::coach(depth, c),
    }
}

fn run_bench(args: BenchArgs) -> Result<()> {
    let verbose = args.verbose;
    let report = bench::run(args.depth, args.hash, &mut |pos, nodes| {
        if verbose {
            println!("{pos} {nodes}");
        }
    });
    println!(
        "bench depth {}: {} positions, {} nodes, {:.3} s, {} nodes/s",
        args.depth,
        report.positions,
        report.nodes,
        report.elapsed.as_secs_f64(),
        report.nps()
    );
    println!("signature {}", report.nodes);
    Ok(())
}

fn parse_options(list: &[String], which: &str) -> Result<Vec<(String, String)>> {
    list.iter()
        .map(|o| match o.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() => {
                Ok((k.trim().to_string(), v.trim().to_string()))
            }
            _ => Err(super::said(
                super::args_lang(),
                format!("--{which} {o:?}: expected NAME=VALUE"),
                format!("--{which}\u{a0}: «\u{a0}{o}\u{a0}» n'a pas la forme NOM=VALEUR"),
            )),
        })
        .collect()
}

fn run_match(args: MatchArgs) -> Result<()> {
    use oware_tools::arena::{self, EngineSpec, MatchConfig, MoveLimit, Opening};
    use oware_tools::stats::{Sample, Sprt, SprtVerdict};
    let sprt = match (args.sprt, args.elo0, args.elo1) {
        (true, Some(e0), Some(e1)) => Some(
            Sprt::new(e0, e1, args.alpha, args.beta).map_err(|e| {
                super::said(
                    super::args_lang(),
                    format!("--sprt: {e}"),
                    format!(
                        "--sprt\u{a0}: il faut elo0 < elo1 et alpha, beta entre 0 et 1 (donnés\u{a0}: elo0 {e0}, elo1 {e1}, alpha {}, beta {})",
                        args.alpha, args.beta
                    ),
                )
            })?,
        ),
        _ => None,
    };
    let lang = super::args_lang();
    let fr = lang == oware_session::Lang::Fr;
    let games = args
        .games
        .unwrap_or(if sprt.is_some() { 20_000 } else { 10 });
    if games == 0 {
        return Err(super::said(
            lang,
            "--games must be at least 1".into(),
            "--games\u{a0}: au moins 1".into(),
        ));
    }
    let openings = match &args.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| {
                let why = oware_session::problems::io_reason(&e, lang);
                super::said(
                    lang,
                    format!("cannot read {}: {why}", path.display()),
                    format!("impossible de lire {}\u{a0}: {why}", path.display()),
                )
            })?;
            let mut list = Vec::new();
            for (i, line) in text.lines().enumerate() {
                let line = line.split('#').next().unwrap_or("").trim();
                if line.is_empty() {
                    continue;
                }
                list.push(Opening::parse(line).map_err(|e| {
                    let why = super::problems::opening(&e, lang);
                    super::said(
                        lang,
                        format!("{}:{}: {why}", path.display(), i + 1),
                        format!("{}, ligne {}\u{a0}: {why}", path.display(), i + 1),
                    )
                })?);
            }
            if list.is_empty() {
                return Err(super::said(
                    lang,
                    format!("{}: no openings", path.display()),
                    format!("{}\u{a0}: aucune ouverture", path.display()),
                ));
            }
            list
        }
        None => Opening::random(args.random_plies.unwrap_or(4), games.div_ceil(2), args.seed),
    };
    let limit = match (args.movetime, args.depth, args.nodes) {
        (Some(ms), _, _) => MoveLimit::Movetime(ms),
        (None, Some(d), _) => MoveLimit::Depth(d),
        (None, None, Some(n)) => MoveLimit::Nodes(n),
        (None, None, None) => {
            return Err(super::said(
                lang,
                "give --movetime, --depth or --nodes".into(),
                "donnez --movetime, --depth ou --nodes".into(),
            ))
        }
    };
    let config = MatchConfig {
        engine1: EngineSpec {
            command: args.engine1.clone(),
            options: parse_options(&args.option1, "option1")?,
        },
        engine2: EngineSpec {
            command: args.engine2.clone(),
            options: parse_options(&args.option2, "option2")?,
        },
        games,
        limit,
        limit2: args.movetime2.map(MoveLimit::Movetime),
        openings,
        concurrency: args.concurrency,
    };
    for (n, spec) in [(1, &config.engine1), (2, &config.engine2)] {
        if let Err(f) = arena::check_engine(spec) {
            let why = super::problems::fault(&f, lang);
            let label = match spec.label() {
                l if l.trim().is_empty() => String::new(),
                l => format!(" ({l})"),
            };
            return Err(super::said(
                lang,
                format!("engine {n}{label} cannot play a match: {why}"),
                format!("le moteur {n}{label} ne peut pas jouer de match\u{a0}: {why}"),
            ));
        }
    }
    let limit_text = |l: MoveLimit| match (l, fr) {
        (MoveLimit::Movetime(ms), true) => format!("{ms} ms par coup"),
        (MoveLimit::Depth(d), true) => format!("profondeur {d} par coup"),
        (MoveLimit::Nodes(n), true) => format!("{n} nœuds par coup"),
        (l, false) => l.to_string(),
    };
    if fr {
        eprintln!(
            "match\u{a0}: {} contre {}, {}{} {}, {} (moteur 2\u{a0}: {})",
            config.engine1.label(),
            config.engine2.label(),
            if sprt.is_some() { "au plus " } else { "" },
            config.games,
            if config.games < 2 {
                "partie"
            } else {
                "parties"
            },
            limit_text(limit),
            limit_text(config.limit2.unwrap_or(limit))
        );
    } else {
        eprintln!(
            "match: {} vs {}, {} games{}, {} (engine 2: {})",
            config.engine1.label(),
            config.engine2.label(),
            config.games,
            if sprt.is_some() { " at most" } else { "" },
            limit,
            config.limit2.unwrap_or(limit)
        );
    }
    let verbose = args.verbose;
    let (label1, label2) = (config.engine1.label(), config.engine2.label());
    let labels = [label1.as_str(), label2.as_str()];
    let games = arena::run(&config, &|g, done| {
        let (s, n) = (
            g.game.position().store(oware_core::Side::South),
            g.game.position().store(oware_core::Side::North),
        );
        let totals = g
            .game
            .outcome()
            .map_or((s, n), |o| (o.totals[0], o.totals[1]));
        let t = tally(done);
        if fr {
            let side = if g.engine1_south { "Sud" } else { "Nord" };
            let score = match g.score {
                arena::GameScore::Win => "gagne",
                arena::GameScore::Draw => "fait nulle",
                arena::GameScore::Loss => "perd",
            };
            let how = super::problems::ending(g, labels, lang);
            // French puts 0 and 1 in the singular.
            let plies = g.game.plies().len();
            let word = if plies < 2 { "demi-coup" } else { "demi-coups" };
            eprintln!(
                "partie {:>3}\u{a0}: moteur 1 ({side}) {score} ({how}, {}-{}, {plies} {word})  cumul +{} ={} \u{2212}{}",
                g.index + 1,
                totals.0,
                totals.1,
                t.wins,
                t.draws,
                t.losses
            );
        } else {
            eprintln!(
                "game {:>3}: engine1 ({}) {} ({}, {}-{}, {} plies)  running +{} ={} -{}",
                g.index + 1,
                if g.engine1_south { "South" } else { "North" },
                g.score,
                super::problems::ending(g, labels, lang),
                totals.0,
                totals.1,
                g.game.plies().len(),
                t.wins,
                t.draws,
                t.losses
            );
        }
        if verbose {
            eprintln!(
                "  {} {}",
                g.game.start(),
                format_moves(&g.game.moves().collect::<Vec<_>>())
            );
        }
        let Some(test) = &sprt else {
            return true;
        };
        let pairs = Sample::pentanomial(arena::pair_counts(done));
        let (lower, upper) = test.bounds();
        let llr = test.llr(&pairs);
        if fr {
            eprintln!(
                "  sprt\u{a0}: LLR {llr:.2} (bornes {lower:.2}, {upper:.2}) après {} paires",
                pairs.units()
            );
        } else {
            eprintln!(
                "  sprt: LLR {llr:.2} (bounds {lower:.2}, {upper:.2}) after {} pairs",
                pairs.units()
            );
        }
        test.verdict(&pairs) == SprtVerdict::Continue
    });
    let tally = tally(&games);
    let faults = games.iter().filter(|g| g.game.outcome().is_none()).count();
    let pair_counts = arena::pair_counts(&games);
    let pairs = Sample::pentanomial(pair_counts);
    // Game pairs when every game has its partner, else single games.
    let (sample, model) = if pairs.units() > 0 && 2 * pairs.units() == games.len() as u64 {
        let model = match lang {
            oware_session::Lang::En => format!("{} game pairs", pairs.units()),
            oware_session::Lang::Fr => format!("{} paires de parties", pairs.units()),
        };
        (pairs.clone(), model)
    } else {
        let model = match lang {
            oware_session::Lang::En => format!("{} games, unpaired", games.len()),
            oware_session::Lang::Fr => format!(
                "{} {}, sans paires",
                games.len(),
                if games.len() < 2 { "partie" } else { "parties" }
            ),
        };
        (tally.sample(), model)
    };
    if fr {
        println!("moteur 1\u{a0}: {}", config.engine1.label());
        println!("moteur 2\u{a0}: {}", config.engine2.label());
        println!(
            "parties {}  gagnées {}  nulles {}  perdues {}  (vues du moteur 1\u{a0}; {} perdue{} par une faute de moteur)",
            tally.games(),
            tally.wins,
            tally.draws,
            tally.losses,
            faults,
            if faults > 1 { "s" } else { "" }
        );
        println!(
            "paires par demi-points du moteur 1 (0 1 2 3 4)\u{a0}: {} {} {} {} {}",
            pair_counts[0], pair_counts[1], pair_counts[2], pair_counts[3], pair_counts[4]
        );
    } else {
        println!("engine1: {}", config.engine1.label());
        println!("engine2: {}", config.engine2.label());
        println!(
            "games {}  W {}  D {}  L {}  (engine1's view; {} lost by an engine fault)",
            tally.games(),
            tally.wins,
            tally.draws,
            tally.losses,
            faults
        );
        println!(
            "pairs by engine1's half-points (0 1 2 3 4): {} {} {} {} {}",
            pair_counts[0], pair_counts[1], pair_counts[2], pair_counts[3], pair_counts[4]
        );
    }
    print_estimate(
        &sample,
        &model,
        tally.wins.into(),
        tally.losses.into(),
        lang,
    );
    if let Some(test) = &sprt {
        let (lower, upper) = test.bounds();
        let llr = test.llr(&pairs);
        if fr {
            let verdict = match test.verdict(&pairs) {
                SprtVerdict::H1 => format!("H1 acceptée (Elo ≥ {})", test.elo1),
                SprtVerdict::H0 => format!("H0 acceptée (Elo ≤ {})", test.elo0),
                SprtVerdict::Continue => {
                    "pas encore de décision (nombre maximal de parties atteint)".to_string()
                }
            };
            println!(
                "sprt elo0 {} elo1 {} alpha {} beta {}\u{a0}: LLR {llr:.2} (bornes {lower:.2}, {upper:.2}) après {} paires\u{a0}: {verdict}",
                test.elo0,
                test.elo1,
                test.alpha,
                test.beta,
                pairs.units()
            );
        } else {
            let verdict = match test.verdict(&pairs) {
                SprtVerdict::H1 => format!("H1 accepted (Elo >= {})", test.elo1),
                SprtVerdict::H0 => format!("H0 accepted (Elo <= {})", test.elo0),
                SprtVerdict::Continue => "no decision yet (game limit reached)".to_string(),
            };
            println!(
                "sprt elo0 {} elo1 {} alpha {} beta {}: LLR {llr:.2} (bounds {lower:.2}, {upper:.2}) after {} pairs: {verdict}",
                test.elo0,
                test.elo1,
                test.alpha,
                test.beta,
                pairs.units()
            );
        }
    }
    for g in games.iter().filter(|g| g.game.outcome().is_none()) {
        match lang {
            oware_session::Lang::En => println!(
                "fault in game {}: {}",
                g.index + 1,
                super::problems::ending(g, labels, lang)
            ),
            oware_session::Lang::Fr => println!(
                "partie {}\u{a0}: {}",
                g.index + 1,
                super::problems::ending(g, labels, lang)
            ),
        }
    }
    if faults == games.len() {
        return Err(super::said(
            lang,
            "no game of the match was played to its end: every game ended by an engine fault (listed above)".into(),
            "aucune partie du match n'a été jouée jusqu'au bout\u{a0}: chacune s'est arrêtée sur une faute de moteur (voir ci-dessus)".into(),
        ));
    }
    Ok(())
}

/// Prints the score, the Elo difference with its 95 % interval and the
/// LOS of `sample` (`model` names its units); `wins` and `losses` give the
/// sign when the interval cannot be computed (no loss or no win at all).
fn print_estimate(
    sample: &oware_tools::stats::Sample,
    model: &str,
    wins: u64,
    losses: u64,
    lang: oware_session::Lang,
) {
    let fr = lang == oware_session::Lang::Fr;
    match sample.estimate() {
        Ok(e) if fr => println!(
            "score {}\u{202f}%  écart Elo {} ± {} (95\u{202f}%\u{a0}: de {} à {}\u{a0}; {model})  LOS {}\u{202f}%",
            french_number(e.score * 100.0, false),
            french_number(e.elo, true),
            french_number(e.margin(), false),
            french_number(e.elo_low, true),
            french_number(e.elo_high, true),
            french_number(e.los * 100.0, false)
        ),
        Ok(e) => println!(
            "score {:.1}%  Elo difference {:+.1} +/- {:.1} (95%: {:+.1} to {:+.1}; {model})  LOS {:.1}%",
            e.score * 100.0,
            e.elo,
            e.margin(),
            e.elo_low,
            e.elo_high,
            e.los * 100.0
        ),
        Err(_) if fr => println!(
            "score {}\u{202f}%  écart Elo {} (pas d'intervalle\u{a0}: {})",
            french_number(sample.mean() * 100.0, false),
            if wins > losses {
                "+∞"
            } else if wins < losses {
                "\u{2212}∞"
            } else {
                "0"
            },
            if wins == 0 && losses == 0 {
                "aucune partie gagnée ni perdue"
            } else if losses == 0 {
                "aucune partie perdue"
            } else if wins == 0 {
                "aucune partie gagnée"
            } else {
                "trop peu de résultats différents"
            }
        ),
        Err(why) => println!(
            "score {:.1}%  Elo difference {} ({why})",
            sample.mean() * 100.0,
            if wins > losses {
                "+inf"
            } else if wins < losses {
                "-inf"
            } else {
                "0"
            }
        ),
    }
}

/// `x` with one decimal written the French way ("1,5", "\u{2212}3,2"),
/// with its sign when `signed` ("+1,5").
fn french_number(x: f64, signed: bool) -> String {
    let text = if signed {
        format!("{x:+.1}")
    } else {
        format!("{x:.1}")
    };
    text.replace('.', ",").replace('-', "\u{2212}")
}

/// The counts of several runs, added slot by slot.
fn sum_runs<const N: usize>(runs: &[[u64; N]]) -> [u64; N] {
    let mut total = [0u64; N];
    for run in runs {
        for (t, n) in total.iter_mut().zip(run) {
            *t += n;
        }
    }
    total
}

fn elo(args: EloArgs) -> Result<()> {
    use oware_tools::stats::Sample;
    if !args.pairs.is_empty() {
        let total = sum_runs(&args.pairs);
        let units: u64 = total.iter().sum();
        if units == 0 {
            bail!("no game pairs counted");
        }
        println!(
            "pairs by engine1's half-points (0 1 2 3 4): {} {} {} {} {}",
            total[0], total[1], total[2], total[3], total[4]
        );
        // (A pair of 2 half-points is two draws or a win and a loss, so
        // pair counts do not give W/D/L; only the pairs are printed.)
        let sample = Sample::pentanomial(total);
        print_estimate(
            &sample,
            &format!("{units} game pairs"),
            total[3] + total[4],
            total[0] + total[1],
            oware_session::Lang::En,
        );
    } else {
        let t = sum_runs(&args.wdl);
        let games: u64 = t.iter().sum();
        if games == 0 {
            bail!("no games counted");
        }
        println!("games {games}  W {}  D {}  L {}", t[0], t[1], t[2]);
        let sample = Sample::trinomial(t[0], t[1], t[2]);
        print_estimate(
            &sample,
            &format!("{games} games, unpaired"),
            t[0],
            t[2],
            oware_session::Lang::En,
        );
    }
    Ok(())
}

/// W/D/L of `games` from engine 1's side.
fn tally(games: &[oware_tools::arena::GameRecord]) -> oware_tools::arena::Tally {
    let mut t = oware_tools::arena::Tally::default();
    for g in games {
        t.add(g.score);
    }
    t
}

fn tune(action: TuneAction) -> Result<()> {
    use oware_engine::eval;
    use oware_tools::tune;
    match action {
        TuneAction::Gen {
            games,
            depth,
            plies,
            seed,
            out,
        } => {
            let started = std::time::Instant::now();
            let samples = tune::generate(games, depth, plies, seed, &mut |g| {
                if g % 10 == 0 {
                    eprintln!(
                        "{g}/{games} games, {:.0} s",
                        started.elapsed().as_secs_f64()
                    );
                }
            });
            std::fs::write(&out, tune::write(&samples))
                .with_context(|| format!("cannot write {}", out.display()))?;
            println!(
                "{} positions from {games} games written to {}",
                samples.len(),
                out.display()
            );
        }
        TuneAction::NnGen {
            games,
            depth,
            plies,
            seed,
            tablebase_seeds,
            tablebase_dir,
            network,
            out,
        } => {
            let started = std::time::Instant::now();
            let network = match &network {
                Some(path) => Some(std::sync::Arc::new(
                    oware_engine::nn::Network::load(path)
                        .with_context(|| format!("reading the network {}", path.display()))?,
                )),
                None => None,
            };
            let tables = if let Some(dir) = &tablebase_dir {
                let t = open_tables(dir, 1)?;
                eprintln!(
                    "tables up to {} seeds opened from {}",
                    t.max_seeds().unwrap_or(0),
                    dir.display()
                );
                Some(t)
            } else if tablebase_seeds > 0 {
                let t = oware_engine::tablebase::Tablebase::build_in_memory(tablebase_seeds)
                    .context("building the endgame tables")?;
                eprintln!(
                    "tables up to {tablebase_seeds} seeds built in {:.0} s",
                    started.elapsed().as_secs_f64()
                );
                Some(std::sync::Arc::new(t))
            } else {
                None
            };
            let samples = oware_tools::nn_data::generate(
                games,
                depth,
                plies,
                seed,
                tables,
                network,
                &mut |g| {
                    if g % 20 == 0 {
                        eprintln!(
                            "{g}/{games} games, {:.0} s",
                            started.elapsed().as_secs_f64()
                        );
                    }
                },
            );
            std::fs::write(&out, oware_tools::nn_data::write(&samples))
                .with_context(|| format!("cannot write {}", out.display()))?;
            println!(
                "{} positions from {games} games written to {}",
                samples.len(),
                out.display()
            );
        }
        TuneAction::Accuracy {
            movetime,
            nodes,
            depth,
            set,
            set_version,
            limit,
            linear,
            network,
        } => accuracy(AccuracyArgs {
            movetime,
            nodes,
            depth,
            set,
            set_version,
            limit,
            linear,
            network,
        })?,
        TuneAction::AccuracyGen {
            tables,
            per_count,
            seed,
            set_version,
            out,
        } => {
            use oware_tools::accuracy;
            let seeds = accuracy::seeds_of(set_version);
            let t = open_tables(&tables, *seeds.end() as usize)?;
            let config = accuracy::GenConfig {
                per_count,
                seed,
                seeds,
                open_only: set_version >= 2,
                ..accuracy::GenConfig::default()
            };
            let started = std::time::Instant::now();
            let set = accuracy::generate(&config, &t, &mut |games, kept| {
                if games % 20 == 0 {
                    eprintln!(
                        "{games} games, {kept} positions, {:.0} s",
                        started.elapsed().as_secs_f64()
                    );
                }
            });
            let text = accuracy::write(&set, set_version);
            std::fs::write(&out, &text)
                .with_context(|| format!("cannot write {}", out.display()))?;
            println!(
                "{} positions written to {} (checksum {:016x})",
                set.len(),
                out.display(),
                accuracy::checksum(text.as_bytes())
            );
        }
        TuneAction::CoachCheck {
            tables,
            depth,
            close,
            looks,
            positions,
            reference_depth,
            reference_tables,
            reference,
            threads,
            seed,
            network,
        } => {
            use oware_tools::coach;
            let mut budget = coach_budget(depth, close);
            for (band, look) in looks {
                match band {
                    LookBand::Ending => budget.ending = look,
                    LookBand::Middle => budget.middle = look,
                    LookBand::Opening => budget.opening = look,
                }
            }
            let network = match &network {
                Some(path) => Some(std::sync::Arc::new(
                    oware_engine::nn::Network::load(path)
                        .with_context(|| format!("reading the network {}", path.display()))?,
                )),
                None => None,
            };
            let refs = match reference_depth {
                None => None,
                Some(d) => {
                    let started = std::time::Instant::now();
                    let sample = coach::level_game_sample(positions, seed);
                    eprintln!(
                        "{} positions drawn from games between levels in {:.0} s",
                        sample.len(),
                        started.elapsed().as_secs_f64()
                    );
                    let shared = match &reference_tables {
                        Some(dir) => Some(std::sync::Arc::new(
                            oware_tablebase::Tablebase::open(dir)
                                .with_context(|| format!("opening {}", dir.display()))?,
                        )),
                        None => None,
                    };
                    let ref_seeds = shared.as_ref().and_then(|t| t.max_seeds()).unwrap_or(0);
                    let open = || {
                        let mut e = Engine::new(EngineOptions {
                            hash_mb: oware_engine::ANALYSIS_HASH_MB,
                            tablebase_dir: None,
                        });
                        e.set_tablebase(shared.clone());
                        e
                    };
                    let total = sample.len();
                    let r = coach::references(
                        &sample,
                        oware_session::Budget::depth(d),
                        reference.as_deref(),
                        threads,
                        &open,
                        &|n| {
                            if n % 25 == 0 {
                                eprintln!(
                                    "reference: {n} new of at most {total}, {:.0} s",
                                    started.elapsed().as_secs_f64()
                                );
                            }
                        },
                    )
                    .context("writing the reference file")?;
                    eprintln!(
                        "reference ready: {} positions, {:.0} s",
                        r.len(),
                        started.elapsed().as_secs_f64()
                    );
                    Some((r, format!("depth {d} with tables of {ref_seeds} seeds")))
                }
            };
            for dir in tables {
                let mut engine = Engine::new(EngineOptions {
                    hash_mb: oware_engine::ANALYSIS_HASH_MB,
                    tablebase_dir: None,
                });
                let seeds = engine.set_tablebase_dir(Some(dir))?;
                if let Some(net) = &network {
                    engine.set_network(Some(net.clone()));
                }
                if let Some((refs, name)) = &refs {
                    let report = coach::check_against_reference(refs, &mut engine, budget);
                    print!(
                        "{}",
                        coach::format_reference_check(&report, seeds, budget, name)
                    );
                    continue;
                }
                let entries = coach::level_game_positions(positions);
                let report = coach::check_against_tables(&entries, &mut engine, budget, &mut |c| {
                    if c.positions % 50 == 0 {
                        eprintln!(
                            "{} positions, best keeps the result {}, {:.0} s",
                            c.positions,
                            c.best_keeps_result,
                            c.elapsed.as_secs_f64()
                        );
                    }
                });
                print!("{}", coach::format_table_check(&report, seeds, budget));
            }
        }
        TuneAction::AccuracyCheck {
            tables,
            set,
            set_version,
        } => {
            use oware_tools::accuracy;
            let (text, name) = read_set(set.as_deref(), set_version)?;
            let entries = accuracy::read(&text).with_context(|| format!("reading {name}"))?;
            let t = open_tables(&tables, 0)?;
            let checked = accuracy::check(&entries, &t)
                .map_err(|m| anyhow::anyhow!("{name}: {}: {}", m.pos, m.reason))?;
            println!(
                "{checked} of {} positions of {name} agree with the tables up to {} seeds",
                entries.len(),
                t.max_seeds().unwrap_or(0)
            );
        }
        TuneAction::Compare { files } => {
            let samples = read_samples(&files)?;
            println!("samples {} (every fifth held out)", samples.len());
            for m in tune::compare(&samples) {
                println!(
                    "{:<30} params {:>3}  log-loss train {:.5}  held out {:.5}",
                    m.name, m.params, m.train, m.test
                );
            }
        }
        TuneAction::Fit { files } => {
            let mut samples = Vec::new();
            for f in &files {
                let text = std::fs::read_to_string(f)
                    .with_context(|| format!("cannot read {}", f.display()))?;
                samples.extend(
                    tune::read(&text).map_err(|e| anyhow::anyhow!("{}: {e}", f.display()))?,
                );
            }
            if samples.is_empty() {
                bail!("no samples");
            }
            let fit = tune::fit(&samples, &eval::Weights::TUNED);
            println!("samples {}", samples.len());
            println!("features {}", eval::FEATURE_NAMES.join(","));
            println!("weights {}", fit.weights);
            println!(
                "log-loss {:.5} (current weights, best scale: {:.5})",
                fit.loss, fit.baseline_loss
            );
        }
    }
    Ok(())
}

struct AccuracyArgs {
    movetime: Option<u64>,
    nodes: Option<u64>,
    depth: Option<u32>,
    set: Option<std::path::PathBuf>,
    set_version: u32,
    limit: Option<usize>,
    linear: bool,
    network: Option<std::path::PathBuf>,
}

/// The set's text and a name for messages: a file, or the shipped set of
/// `version`.
fn read_set(path: Option<&std::path::Path>, version: u32) -> Result<(String, String)> {
    match path {
        Some(p) => Ok((
            std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))?,
            p.display().to_string(),
        )),
        None => match oware_tools::accuracy::shipped(version) {
            Some(text) => Ok((
                text.to_string(),
                format!("the shipped accuracy set, version {version}"),
            )),
            None => bail!(
                "no shipped accuracy set of version {version}: versions 1 to {} exist",
                oware_tools::accuracy::LATEST
            ),
        },
    }
}

/// The tables of `dir`, which must cover at least `min_seeds` seeds.
fn open_tables(
    dir: &std::path::Path,
    min_seeds: usize,
) -> Result<std::sync::Arc<oware_engine::tablebase::Tablebase>> {
    let t = oware_engine::tablebase::open(dir)
        .with_context(|| format!("opening the tables in {}", dir.display()))?;
    let max = t.max_seeds();
    if max.is_none_or(|m| m < min_seeds) {
        bail!(
            "the tables in {} cover {} seeds, {min_seeds} are needed (oware tablebase build --max-seeds {min_seeds} --dir {})",
            dir.display(),
            max.map_or("no".to_string(), |m| format!("up to {m}")),
            dir.display()
        );
    }
    Ok(t)
}

fn accuracy(a: AccuracyArgs) -> Result<()> {
    use oware_tools::accuracy;
    let (text, name) = read_set(a.set.as_deref(), a.set_version)?;
    let mut entries = accuracy::read(&text).with_context(|| format!("reading {name}"))?;
    if let Some(n) = a.limit {
        entries.truncate(n);
    }
    if entries.is_empty() {
        bail!("{name} holds no positions");
    }
    let (limits, budget) = match (a.movetime, a.nodes, a.depth) {
        (_, Some(n), _) => (
            Limits {
                nodes: Some(n),
                ..Limits::default()
            },
            format!("{n} nodes"),
        ),
        (_, _, Some(d)) => (Limits::depth(d), format!("depth {d}")),
        (Some(ms), _, _) => (
            Limits::movetime(Duration::from_millis(ms)),
            format!("{ms} ms"),
        ),
        (None, None, None) => (
            Limits::movetime(Duration::from_millis(100)),
            "100 ms".to_string(),
        ),
    };
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        tablebase_dir: None,
    });
    let evaluation = if a.linear {
        engine.set_network(None);
        "linear evaluation".to_string()
    } else if let Some(path) = &a.network {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        let net = oware_engine::nn::Network::from_bytes(&bytes)
            .with_context(|| format!("reading the network {}", path.display()))?;
        engine.set_network(Some(std::sync::Arc::new(net)));
        format!("network {}", path.display())
    } else {
        "built-in network".to_string()
    };
    println!(
        "{name} (checksum {:016x}), {} positions, {budget} a move, {evaluation}, 16 MiB hash, 1 thread",
        accuracy::checksum(text.as_bytes()),
        entries.len()
    );
    let total = entries.len();
    let picks = accuracy::measure(&entries, &mut engine, &limits, &mut |i, _| {
        if (i + 1) % 100 == 0 {
            eprintln!("{}/{total}", i + 1);
        }
    });
    print!("{}", accuracy::report(&entries, &picks));
    Ok(())
}

fn read_samples(files: &[std::path::PathBuf]) -> Result<Vec<oware_tools::tune::Sample>> {
    let mut samples = Vec::new();
    for f in files {
        let text =
            std::fs::read_to_string(f).with_context(|| format!("cannot read {}", f.display()))?;
        samples.extend(
            oware_tools::tune::read(&text).map_err(|e| anyhow::anyhow!("{}: {e}", f.display()))?,
        );
    }
    if samples.is_empty() {
        bail!("no samples");
    }
    Ok(samples)
}

fn coach_rate(a: CoachRateArgs) -> Result<()> {
    use oware_tools::coach::{self, Follow};
    let follow = match a.follow.as_str() {
        "none" => Follow::Nobody,
        "engine" => Follow::Engine,
        "capture" => Follow::Capture,
        other => bail!("--follow: expected none, engine or capture, not '{other}'"),
    };
    if !(1..=30).contains(&a.depth) {
        bail!("--depth: expected 1..30, not {}", a.depth);
    }
    let config = coach::Config {
        first: a.level,
        second: a.against,
        games: a.games,
        budget: coach_budget(a.depth, a.close),
        seed: a.seed,
        follow,
    };
    let report = coach::measure(&config, &mut |r| {
        eprintln!(
            "game {}: {:.1} points; warned {}/{} and {}/{}",
            r.games,
            r.points,
            r.first.warnings(),
            r.first.moves,
            r.second.warnings(),
            r.second.moves
        )
    });
    print!("{}", coach::format(&config, &report));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{parse_look, LookBand};

    #[test]
    fn look_arguments_parse_or_name_what_is_wrong() {
        let (band, look) = parse_look("middle=20:2:15").unwrap();
        assert!(matches!(band, LookBand::Middle));
        let look = look.unwrap();
        assert_eq!((look.depth, look.moves, look.within), (20, 2, 15));
        assert!(matches!(
            parse_look("opening=none").unwrap(),
            (LookBand::Opening, None)
        ));
        assert!(parse_look("ending=22:0:25").unwrap().1.is_some());
        for (bad, says) in [
            ("middle", "BAND=DEPTH"),
            ("late=20:2:15", "unknown band"),
            ("middle=20:2", "DEPTH:MOVES:WITHIN"),
            ("middle=31:2:15", "depth"),
            ("middle=0:2:15", "depth"),
            ("middle=20:x:15", "moves"),
            ("middle=20:2:0", "within"),
            ("middle=20:2:300", "within"),
        ] {
            let err = parse_look(bad).unwrap_err();
            assert!(err.contains(says), "{bad}: {err}");
        }
    }
}
