//! Matches between two UCI engines (any programs speaking the dialect of
//! docs/INTEROP.md), judged move by move by the rules core.
//!
//! Each game starts from an opening (a position and moves), and each
//! opening is played twice with the colours swapped. Every answer is
//! checked with [`Game::play`]; an illegal or unreadable move, a crash (the
//! process exits or closes its output) or a timeout loses the game for the
//! engine at fault. Games end by the rules (R9, R10, R11); a game still
//! running after [`MAX_PLIES`] plies is stopped as R12 (each player takes
//! their own row).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use oware_core::{format_moves, parse_moves, Game, Move, Position, Side};

use crate::levels::SplitMix;

/// Plies after which a game is stopped by agreement (R12).
pub const MAX_PLIES: usize = 2000;

/// How to start one engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Program and arguments, split on whitespace. A program named `oware`
    /// means this very executable.
    pub command: String,
    /// `setoption` pairs sent after the handshake.
    pub options: Vec<(String, String)>,
}

impl EngineSpec {
    /// A short name for reports: the command and its options.
    pub fn label(&self) -> String {
        let mut s = self.command.clone();
        for (k, v) in &self.options {
            s.push_str(&format!(" {k}={v}"));
        }
        s
    }
}

/// How each move is limited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveLimit {
    /// `go movetime MS`.
    Movetime(u64),
    /// `go depth D`.
    Depth(u32),
    /// `go nodes N`: fair on a loaded machine, for engines that honour it.
    Nodes(u64),
}

/// A game's starting point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Start position.
    pub start: Position,
    /// Moves played from it before the engines take over.
    pub moves: Vec<Move>,
}

impl Opening {
    /// Parses one line of an openings file: a move list from the start
    /// (`FfBe`), or a position string, optionally followed by moves.
    pub fn parse(line: &str) -> Result<Opening, String> {
        let line = line.trim();
        let (start, rest) = match line.split_once(char::is_whitespace) {
            Some((first, rest)) if first.contains('-') => (first, rest),
            None if line.contains('-') => (line, ""),
            _ => ("", line),
        };
        let start: Position = if start.is_empty() {
            Position::start()
        } else {
            start
                .parse()
                .map_err(|e| format!("bad position '{start}': {e}"))?
        };
        let moves = parse_moves(rest).map_err(|e| format!("bad moves '{rest}': {e}"))?;
        let game = Game::from_moves(start, &moves)
            .map_err(|(i, e)| format!("move {} of '{rest}': {e}", i + 1))?;
        if game.is_over() {
            return Err(format!("the game is already over after '{line}'"));
        }
        Ok(Opening { start, moves })
    }

    /// `count` distinct openings of `plies` random legal moves from the
    /// start (fewer if there are not that many), seeded by `seed`.
    pub fn random(plies: usize, count: usize, seed: u64) -> Vec<Opening> {
        let mut rng = SplitMix::new(seed);
        let mut out: Vec<Opening> = Vec::new();
        let mut attempts = 0;
        while out.len() < count && attempts < count * 50 + 100 {
            attempts += 1;
            let mut game = Game::new(Position::start());
            for _ in 0..plies {
                let moves: Vec<Move> = game.legal_moves().into_iter().collect();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len() as u64) as usize];
                game.play(mv).expect("a legal move");
            }
            if game.is_over() {
                continue;
            }
            let o = Opening {
                start: Position::start(),
                moves: game.moves().collect(),
            };
            if !out.contains(&o) {
                out.push(o);
            }
        }
        out
    }
}

/// Match settings.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The first engine (results are given from its side).
    pub engine1: EngineSpec,
    /// The second engine.
    pub engine2: EngineSpec,
    /// Games to play.
    pub games: usize,
    /// Per-move limit.
    pub limit: MoveLimit,
    /// Engine 2's own limit, when it differs (time-odds matches).
    pub limit2: Option<MoveLimit>,
    /// Openings, used in turn, each twice with colours swapped.
    pub openings: Vec<Opening>,
    /// Games played at once.
    pub concurrency: usize,
}

/// How a game ended for engine 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameScore {
    /// Engine 1 won.
    Win,
    /// Draw.
    Draw,
    /// Engine 1 lost.
    Loss,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Game number, from 0.
    pub index: usize,
    /// True when engine 1 played South.
    pub engine1_south: bool,
    /// The game (opening moves included).
    pub game: Game,
    /// The result for engine 1.
    pub score: GameScore,
    /// How it ended: an [`EndReason`](oware_core::EndReason) id, or the
    /// fault of an engine ("illegal move …", "timeout", "crash …").
    pub reason: String,
}

/// Totals of a match, from engine 1's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Engine 1's wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Engine 1's losses.
    pub losses: u32,
}

impl Tally {
    /// Adds a game.
    pub fn add(&mut self, s: GameScore) {
        match s {
            GameScore::Win => self.wins += 1,
            GameScore::Draw => self.draws += 1,
            GameScore::Loss => self.losses += 1,
        }
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Engine 1's score fraction (win 1, draw ½).
    pub fn score(&self) -> f64 {
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games().max(1) as f64
    }

    /// Elo difference (engine 1 minus engine 2) and the half-width of its
    /// 95% confidence interval, from the per-game score variance (logistic
    /// model). Infinite when one side scored everything.
    pub fn elo(&self) -> (f64, f64) {
        let n = self.games() as f64;
        if n == 0.0 {
            return (0.0, f64::INFINITY);
        }
        let s = self.score();
        if s <= 0.0 || s >= 1.0 {
            return (
                if s <= 0.0 {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                },
                f64::INFINITY,
            );
        }
        let elo = |p: f64| -> f64 {
            if p <= 0.0 {
                f64::NEG_INFINITY
            } else if p >= 1.0 {
                f64::INFINITY
            } else {
                -400.0 * (1.0 / p - 1.0).log10()
            }
        };
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        let sd = (var / n).sqrt();
        // Keep the interval's ends off 0 and 1 (half a game from either).
        let edge = 0.5 / n;
        let lo = elo((s - 1.96 * sd).clamp(edge, 1.0 - edge));
        let hi = elo((s + 1.96 * sd).clamp(edge, 1.0 - edge));
        (elo(s), (hi - lo) / 2.0)
    }
}

/// A running UCI engine process.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

fn resolve(program: &str) -> std::path::PathBuf {
    if program == "oware" {
        if let Ok(me) = std::env::current_exe() {
            return me;
        }
    }
    program.into()
}

impl Process {
    fn start(spec: &EngineSpec) -> Result<Process, String> {
        let mut words = spec.command.split_whitespace();
        let program = words.next().ok_or("empty engine command")?;
        let mut child = Command::new(resolve(program))
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start '{}': {e}", spec.command))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut p = Process {
            child,
            stdin,
            lines: rx,
        };
        p.send("uci")?;
        p.expect("uciok", Duration::from_secs(10))?;
        for (k, v) in &spec.options {
            p.send(&format!("setoption name {k} value {v}"))?;
        }
        p.ready()?;
        Ok(p)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("crash: cannot write to the engine ({e})"))
    }

    /// Reads lines until one starts with `prefix`.
    fn expect(&mut self, prefix: &str, timeout: Duration) -> Result<String, String> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.starts_with(prefix) => return Ok(line),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("timeout waiting for '{prefix}'"))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err("crash: the engine closed its output".into())
                }
            }
        }
    }

    fn ready(&mut self) -> Result<(), String> {
        self.send("isready")?;
        self.expect("readyok", Duration::from_secs(30)).map(|_| ())
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Grace over the move time before an answer counts as a timeout: process
/// and pipe latency on a loaded machine.
pub fn grace(movetime_ms: u64) -> Duration {
    Duration::from_millis(1000 + movetime_ms / 2)
}

fn play_game(
    index: usize,
    config: &MatchConfig,
    engines: &mut [Option<Process>; 2],
    specs: [&EngineSpec; 2],
) -> GameRecord {
    let opening = &config.openings[(index / 2) % config.openings.len()];
    let engine1_south = index.is_multiple_of(2);
    let mut game = Game::from_moves(opening.start, &opening.moves).expect("openings are checked");
    let fault = |engine: usize, reason: String, game: Game| GameRecord {
        index,
        engine1_south,
        reason: format!(
            "engine {} ({}) at ply {}: {reason}",
            engine + 1,
            specs[engine].label(),
            game.plies().len()
        ),
        game,
        score: if engine == 0 {
            GameScore::Loss
        } else {
            GameScore::Win
        },
    };
    // Prepare both engines (restart any that failed in an earlier game).
    for e in 0..2 {
        if engines[e].is_none() {
            match Process::start(specs[e]) {
                Ok(p) => engines[e] = Some(p),
                Err(err) => return fault(e, err, game),
            }
        }
        let p = engines[e].as_mut().expect("started");
        if let Err(err) = p.send("ucinewgame").and_then(|_| p.ready()) {
            engines[e] = None;
            return fault(e, err, game);
        }
    }
    let go_of = |limit: MoveLimit| match limit {
        MoveLimit::Movetime(ms) => (
            format!("go movetime {ms}"),
            Duration::from_millis(ms) + grace(ms),
        ),
        MoveLimit::Depth(d) => (format!("go depth {d}"), Duration::from_secs(120)),
        MoveLimit::Nodes(n) => (format!("go nodes {n}"), Duration::from_secs(120)),
    };
    let gos = [
        go_of(config.limit),
        go_of(config.limit2.unwrap_or(config.limit)),
    ];
    let start_str = opening.start.to_string();
    while !game.is_over() {
        if game.plies().len() >= MAX_PLIES {
            game.agree_to_stop().expect("game running");
            break;
        }
        let side = game.position().to_move();
        let e = if (side == Side::South) == engine1_south {
            0
        } else {
            1
        };
        let p = engines[e].as_mut().expect("started");
        let moves: Vec<Move> = game.moves().collect();
        let cmd = if moves.is_empty() {
            format!("position fen {start_str}")
        } else {
            format!("position fen {start_str} moves {}", format_moves(&moves))
        };
        let (go, timeout) = &gos[e];
        let asked = Instant::now();
        let answer = p
            .send(&cmd)
            .and_then(|_| p.send(go))
            .and_then(|_| p.expect("bestmove", *timeout))
            .map_err(|e| format!("{e} ({} ms after '{go}')", asked.elapsed().as_millis()));
        let line = match answer {
            Ok(l) => l,
            Err(err) => {
                engines[e] = None;
                return fault(e, err, game);
            }
        };
        let word = line.split_whitespace().nth(1).unwrap_or("");
        let mv = match word.parse::<Move>() {
            Ok(m) => m,
            Err(_) => return fault(e, format!("unreadable move '{word}'"), game),
        };
        if let Err(err) = game.play(mv) {
            return fault(e, format!("illegal move {mv}: {err}"), game);
        }
    }
    let outcome = *game.outcome().expect("the game is over");
    let engine1_side = if engine1_south {
        Side::South
    } else {
        Side::North
    };
    let score = match outcome.winner {
        None => GameScore::Draw,
        Some(w) if w == engine1_side => GameScore::Win,
        Some(_) => GameScore::Loss,
    };
    GameRecord {
        index,
        engine1_south,
        game,
        score,
        reason: outcome.reason.as_str().to_string(),
    }
}

/// Plays the match; `each` is called after every game (from the worker
/// threads, one at a time). Returns the games in order.
pub fn run(config: &MatchConfig, each: &(dyn Fn(&GameRecord, &Tally) + Sync)) -> Vec<GameRecord> {
    assert!(
        !config.openings.is_empty(),
        "a match needs at least one opening"
    );
    let next = AtomicUsize::new(0);
    let results: Mutex<(Vec<GameRecord>, Tally)> = Mutex::new((Vec::new(), Tally::default()));
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.max(1).min(config.games.max(1)) {
            scope.spawn(|| {
                let mut engines: [Option<Process>; 2] = [None, None];
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= config.games {
                        break;
                    }
                    let rec =
                        play_game(i, config, &mut engines, [&config.engine1, &config.engine2]);
                    let mut r = results.lock().unwrap_or_else(|e| e.into_inner());
                    r.1.add(rec.score);
                    each(&rec, &r.1);
                    r.0.push(rec);
                }
            });
        }
    });
    let mut games = results.into_inner().unwrap_or_else(|e| e.into_inner()).0;
    games.sort_by_key(|g| g.index);
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_parse_and_reject() {
        assert_eq!(Opening::parse("FfBe").unwrap().moves.len(), 4);
        let o = Opening::parse("0-0-0-0-0-17-2-1-1-0-0-1-13-13-S").unwrap();
        assert!(o.moves.is_empty());
        assert_eq!(
            Opening::parse("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S F f")
                .unwrap()
                .moves
                .len(),
            2
        );
        assert!(Opening::parse("FF").unwrap_err().contains("move 2"));
        assert!(Opening::parse("1-0-0-0-1-0-0-0-0-0-0-0-23-23-S")
            .unwrap_err()
            .contains("over"));
        let r = Opening::random(4, 20, 1);
        assert_eq!(r.len(), 20);
        assert!(r.iter().all(|o| o.moves.len() == 4));
        assert_eq!(r, Opening::random(4, 20, 1));
    }

    #[test]
    fn elo_from_scores() {
        let even = Tally {
            wins: 10,
            draws: 0,
            losses: 10,
        };
        assert_eq!(even.elo().0, 0.0);
        let t = Tally {
            wins: 75,
            draws: 0,
            losses: 25,
        };
        let (elo, margin) = t.elo();
        assert!((elo - 190.8).abs() < 0.5, "{elo}");
        assert!(margin > 50.0 && margin < 120.0, "{margin}");
        assert!(Tally {
            wins: 3,
            draws: 0,
            losses: 0
        }
        .elo()
        .0
        .is_infinite());
    }
}
