//! Engine subcommands: `analyze`, `bench`, `uci`, `match`, `tune`.

use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use oware_core::{format_moves, parse_moves, Game, GameError};
use oware_engine::{bench, Engine, EngineOptions, Limits};
use serde::Serialize;

use super::core::parse_position;

#[derive(Subcommand)]
pub enum Command {
    /// Value and principal variation of every legal move of a position.
    Analyze(AnalyzeArgs),
    /// Search fixed positions to a fixed depth: prints the node-count signature and nodes/second.
    Bench(BenchArgs),
    /// Speak the UCI engine protocol (Aalina's dialect) on stdin/stdout.
    Uci(UciArgs),
}

#[derive(Args)]
pub struct UciArgs {
    /// Transposition table size in MiB (also `setoption name Hash`).
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Endgame tablebase directory (also `setoption name TablebaseDir`).
    #[arg(long)]
    pub tablebases: Option<std::path::PathBuf>,
}

#[derive(Args)]
pub struct AnalyzeArgs {
    /// Start position (position string); the standard start by default.
    #[arg(long, short)]
    pub position: Option<String>,
    /// Moves to play from the position first, concatenated (FfBe) or spaced ("F f B e").
    #[arg(long, short)]
    pub moves: Option<String>,
    /// Think for this many milliseconds (the default is 1000).
    #[arg(long, conflicts_with = "depth")]
    pub movetime: Option<u64>,
    /// Search to this depth in plies instead of a time.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Endgame tablebase directory.
    #[arg(long)]
    pub tablebases: Option<std::path::PathBuf>,
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
        Command::Uci(u) => {
            let out: oware_engine::uci::Output = std::sync::Arc::new(std::sync::Mutex::new(std::io::stdout()));
            oware_engine::uci::run(std::io::stdin().lock(), out, EngineOptions { hash_mb: u.hash, tablebase_dir: u.tablebases });
            Ok(())
        }
    }
}

/// The game the user asked for: a position, then moves played with the full rules.
fn game_from(position: Option<&str>, moves: Option<&str>) -> Result<Game> {
    let start = parse_position(position)?;
    let mut game = Game::new(start);
    if let Some(text) = moves {
        let moves = parse_moves(text).with_context(|| format!("bad move list {text:?}"))?;
        for (i, mv) in moves.into_iter().enumerate() {
            if let Err(e) = game.play(mv) {
                match e {
                    GameError::Over => bail!("move {} ({mv}): the game is already over", i + 1),
                    e => bail!("move {} ({mv}) is illegal in {}: {e}", i + 1, game.position()),
                }
            }
        }
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
    nodes: u64,
    elapsed_ms: u128,
    moves: Vec<MoveJson>,
}

fn analyze(args: AnalyzeArgs) -> Result<()> {
    let game = game_from(args.position.as_deref(), args.moves.as_deref())?;
    if game.is_over() {
        let o = game.outcome().expect("over");
        bail!("the game is over ({}), {}-{}: nothing to analyse", o.reason.as_str(), o.totals[0], o.totals[1]);
    }
    let mut engine = Engine::new(EngineOptions { hash_mb: args.hash, tablebase_dir: None });
    if let Some(dir) = args.tablebases {
        engine.set_tablebase_dir(Some(dir)).map_err(anyhow::Error::msg)?;
    }
    let limits = match args.depth {
        Some(d) => Limits::depth(d),
        None => Limits::movetime(Duration::from_millis(args.movetime.unwrap_or(1000))),
    };
    let stop = engine.stop_handle();
    let started = std::time::Instant::now();
    let mut last = (0, 0);
    let moves = engine.analyze_with(&game, &limits, &stop, &mut |i| last = (i.depth, i.nodes));
    let report = AnalysisJson {
        position: game.position().to_string(),
        to_move: game.position().to_move().to_string(),
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
    } else {
        println!("{} ({} to move), depth {}, {} nodes, {} ms", report.position, report.to_move, report.depth, report.nodes, report.elapsed_ms);
        for m in &report.moves {
            println!("{:>2}  {:>12}  {}", m.mv, m.score, m.pv);
        }
    }
    Ok(())
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
