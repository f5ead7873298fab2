//! Rules-core subcommands: `perft`, `divide`, `show`, `record`.

use std::time::Instant;

use anyhow::Result;
use clap::Args;
use oware_core::{diagram, parse_moves, Game, GameError, Position, Record, Side};
use oware_session::Lang;
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
        Some(t) => t.parse().map_err(|e| {
            let lang = super::args_lang();
            let why = oware_session::problems::position_error(&e, lang);
            super::said(
                lang,
                format!("bad position {t:?}: {why}"),
                format!("position «\u{a0}{t}\u{a0}» illisible\u{a0}: {why}"),
            )
        }),
    }
}

/// A move list as typed: refused in the command line's language.
pub fn parse_move_list(text: &str) -> Result<Vec<oware_core::Move>> {
    parse_moves(text).map_err(|e| {
        let lang = super::args_lang();
        let why = oware_session::problems::moves_error(&e, lang);
        super::said(
            lang,
            format!("bad move list {text:?}: {why}"),
            format!("liste de coups «\u{a0}{text}\u{a0}» illisible\u{a0}: {why}"),
        )
    })
}

/// Plays `moves` on `game`, refusing the first that cannot be played, in
/// the command line's language.
pub fn play_moves(game: &mut Game, moves: &[oware_core::Move]) -> Result<()> {
    let lang = super::args_lang();
    for (i, &mv) in moves.iter().enumerate() {
        let Err(e) = game.play(mv) else { continue };
        let n = i + 1;
        let legal = game.legal_moves().letters();
        return Err(match e {
            GameError::Over => {
                let why = oware_session::words::end_reason(game, None, lang);
                super::said(
                    lang,
                    format!("move {n} ({mv}): the game is already over ({why})"),
                    format!("coup {n} ({mv})\u{a0}: la partie est déjà finie ({why})"),
                )
            }
            GameError::Illegal { reason, .. } => {
                let refusal = oware_session::Refusal::Illegal(reason);
                super::said(
                    lang,
                    format!(
                        "move {n} ({mv}) is illegal in {}: {}; legal moves there: {}",
                        game.position(),
                        refusal.text(mv, Lang::En).trim_end_matches('.'),
                        if legal.is_empty() { "none".to_string() } else { legal.clone() }
                    ),
                    format!(
                        "coup {n} ({mv}) impossible dans {}\u{a0}: {}\u{a0}; coups possibles\u{a0}: {}",
                        game.position(),
                        refusal.text(mv, lang).trim_end_matches('.'),
                        if legal.is_empty() { "aucun".to_string() } else { legal }
                    ),
                )
            }
            other => super::said(
                lang,
                format!("move {n} ({mv}): {other}"),
                format!("coup {n} ({mv}) impossible"),
            ),
        });
    }
    Ok(())
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
    let (depth, made_rate, leaf_rate) = (
        args.depth,
        made as f64 / secs.max(1e-9) / 1e6,
        total as f64 / secs.max(1e-9) / 1e6,
    );
    match super::args_lang() {
        Lang::En => eprintln!(
            "perft {depth} of {pos}: {total} leaves in {secs:.3} s; {made} moves made, {made_rate:.1} million moves/s ({leaf_rate:.1} million leaves/s)"
        ),
        // French writes a decimal comma.
        Lang::Fr => eprintln!(
            "perft {depth} de {pos}\u{a0}: {total}\u{a0}feuilles en {}\u{a0}s\u{a0}; {made}\u{a0}coups joués, {}\u{a0}millions de coups par seconde ({}\u{a0}millions de feuilles par seconde)",
            format!("{secs:.3}").replace('.', ","),
            format!("{made_rate:.1}").replace('.', ","),
            format!("{leaf_rate:.1}").replace('.', ","),
        ),
    }
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

/// The board and where the game stands, in `lang`.
pub fn describe(game: &Game, lang: oware_session::Lang) -> String {
    use oware_session::player::side_name;
    let mut s = diagram(game.position());
    if lang == Lang::Fr {
        s = s
            .replace("North  captured", "Nord   pris")
            .replace("South  captured", "Sud    pris")
            .replace("<- to move", "<- à jouer");
    }
    s.push_str(&format!("position {}\n", game.position()));
    match (game.outcome(), lang) {
        (Some(_), lang) => {
            // "Game over: each player captured 24 seeds. Final totals: …"
            let lines = oware_session::words::outcome_lines(game, None, lang);
            s.push_str(&format!(
                "{}{}. {}\n",
                lang.pick("Game over: ", "Partie finie\u{a0}: "),
                oware_session::words::end_reason(game, None, lang),
                lines[1..].join(" ")
            ));
        }
        (None, Lang::En) => s.push_str(&format!(
            "{} to move; legal moves: {}\n",
            game.position().to_move(),
            game.legal_moves().letters()
        )),
        (None, Lang::Fr) => s.push_str(&format!(
            "Au tour de {}\u{a0}; coups possibles\u{a0}: {}\n",
            side_name(game.position().to_move(), lang),
            game.legal_moves().letters()
        )),
    }
    s
}

pub fn show(args: ShowArgs) -> Result<()> {
    let pos = parse_position(args.position.as_deref())?;
    let moves = match &args.moves {
        Some(m) => parse_move_list(m)?,
        None => Vec::new(),
    };
    let mut game = Game::new(pos);
    play_moves(&mut game, &moves)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&GameJson::of(&game))?);
    } else {
        print!("{}", describe(&game, super::args_lang()));
    }
    Ok(())
}

pub fn record(args: RecordArgs) -> Result<()> {
    use oware_session::problems;
    let lang = super::args_lang();
    let name = args.file.display().to_string();
    let text = std::fs::read(&args.file)
        .map_err(|e| {
            let why = problems::io_reason(&e, lang);
            super::said(
                lang,
                format!("cannot read {name}: {why}"),
                format!("impossible de lire {name}\u{a0}: {why}"),
            )
        })
        .and_then(|bytes| {
            String::from_utf8(bytes).map_err(|_| {
                let why = problems::io_reason(
                    &std::io::Error::from(std::io::ErrorKind::InvalidData),
                    lang,
                );
                super::said(
                    lang,
                    format!("cannot read {name}: {why}"),
                    format!("impossible de lire {name}\u{a0}: {why}"),
                )
            })
        })?;
    let rec = Record::parse(&text).map_err(|e| {
        let why = problems::ogn_error(&e, lang);
        super::said(
            lang,
            format!("{name}: {why}"),
            format!("{name}\u{a0}: {why}"),
        )
    })?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&GameJson::of(rec.game()))?
        );
    } else {
        print!("{}", describe(rec.game(), lang));
        match lang {
            Lang::En => println!("result {}", rec.result_str()),
            Lang::Fr => println!("résultat {}", rec.result_str()),
        }
    }
    Ok(())
}
