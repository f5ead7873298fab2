//! Rules-core subcommands: `perft`, `divide`, `show`, `record`.

use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args;
use oware_core::{diagram, parse_moves, Game, GameError, Position, Record, Side};
use serde::Serialize;

#[derive(Args)]
pub struct PerftArgs {
    /// Number of plies.
    pub depth: u32,
    /// Start position (position string); the standard start by default.
    #[arg(long, short)]
    pub position: Option<String>,
}

#[derive(Args)]
pub struct ShowArgs {
    /// Start position (position string); the standard start by default.
    #[arg(long, short)]
    pub position: Option<String>,
    /// Moves to play from the position, concatenated (FfBe) or spaced ("F f B e").
    #[arg(long, short)]
    pub moves: Option<String>,
    /// Print a JSON object instead of a diagram.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct RecordArgs {
    /// The OGN file to check.
    pub file: std::path::PathBuf,
    /// Print a JSON object (as `oware show --json`) instead of a diagram.
    #[arg(long)]
    pub json: bool,
}

pub fn parse_position(text: Option<&str>) -> Result<Position> {
    match text {
        None => Ok(Position::start()),
        Some(t) => t.parse().with_context(|| format!("bad position {t:?}")),
    }
}

pub fn perft(args: PerftArgs, divide: bool) -> Result<()> {
    let pos = parse_position(args.position.as_deref())?;
    let started = Instant::now();
    let total = if divide {
        let mut total = 0;
        for (mv, n) in oware_core::divide(&pos, args.depth) {
            println!("{mv} {n}");
            total += n;
        }
        total
    } else {
        oware_core::perft(&pos, args.depth)
    };
    let secs = started.elapsed().as_secs_f64();
    // perft(d) makes one move per node at depths 1..=d, leaves included.
    let made: u64 = total
        + (1..args.depth)
            .map(|d| oware_core::perft(&pos, d))
            .sum::<u64>();
    eprintln!(
        "perft {} of {pos}: {total} leaves in {:.3} s; {made} moves made, {:.1} million moves/s ({:.1} million leaves/s)",
        args.depth,
        secs,
        made as f64 / secs.max(1e-9) / 1e6,
        total as f64 / secs.max(1e-9) / 1e6
    );
    println!("{total}");
    Ok(())
}

/// The JSON shape shared by `show --json` and `record --json`.
#[derive(Serialize)]
pub struct GameJson {
    pub position: Position,
    pub to_move: Side,
    pub legal: Vec<String>,
    pub status: &'static str,
    pub reason: Option<&'static str>,
    pub score: Score,
    pub winner: Option<&'static str>,
    pub moves: String,
}

#[derive(Serialize)]
pub struct Score {
    pub south: u8,
    pub north: u8,
}

impl GameJson {
    pub fn of(game: &Game) -> GameJson {
        let pos = game.position();
        let (status, reason, score, winner) = match game.outcome() {
            Some(o) => (
                "over",
                Some(o.reason.as_str()),
                o.totals,
                Some(o.winner_str()),
            ),
            None => (
                "ongoing",
                None,
                [pos.store(Side::South), pos.store(Side::North)],
                None,
            ),
        };
        GameJson {
            position: *pos,
            to_move: pos.to_move(),
            legal: game
                .legal_moves()
                .into_iter()
                .map(|m| m.to_string())
                .collect(),
            status,
            reason,
            score: Score {
                south: score[0],
                north: score[1],
            },
            winner,
            moves: game
                .plies()
                .iter()
                .map(|p| match p {
                    oware_core::Ply::Move(m) => m.to_string(),
                    oware_core::Ply::Pass => "-".to_string(),
                })
                .collect(),
        }
    }
}

pub fn describe(game: &Game) -> String {
    let mut s = diagram(game.position());
    s.push_str(&format!("position {}\n", game.position()));
    match game.outcome() {
        Some(o) => s.push_str(&format!(
            "game over: {}; final {}-{}, {}\n",
            o.reason,
            o.totals[0],
            o.totals[1],
            match o.winner {
                Some(side) => format!("{side} wins"),
                None => "draw".to_string(),
            }
        )),
        None => s.push_str(&format!(
            "{} to move; legal moves: {}\n",
            game.position().to_move(),
            game.legal_moves().letters()
        )),
    }
    s
}

pub fn show(args: ShowArgs) -> Result<()> {
    let pos = parse_position(args.position.as_deref())?;
    let moves = match &args.moves {
        Some(m) => parse_moves(m).with_context(|| format!("bad move list {m:?}"))?,
        None => Vec::new(),
    };
    let mut game = Game::new(pos);
    for (i, &mv) in moves.iter().enumerate() {
        if let Err(e) = game.play(mv) {
            let legal = game.legal_moves().letters();
            match e {
                GameError::Over => bail!(
                    "move {} ({mv}): the game is already over ({})",
                    i + 1,
                    game.outcome()
                        .map(|o| o.reason.to_string())
                        .unwrap_or_default()
                ),
                e => bail!(
                    "move {} ({mv}) is illegal in {}: {e}; legal moves there: {}",
                    i + 1,
                    game.position(),
                    if legal.is_empty() {
                        "none".to_string()
                    } else {
                        legal
                    }
                ),
            }
        }
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&GameJson::of(&game))?);
    } else {
        print!("{}", describe(&game));
    }
    Ok(())
}

pub fn record(args: RecordArgs) -> Result<()> {
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let rec = Record::parse(&text).with_context(|| format!("{}", args.file.display()))?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&GameJson::of(rec.game()))?
        );
    } else {
        print!("{}", describe(rec.game()));
        println!("result {}", rec.result_str());
    }
    Ok(())
}
