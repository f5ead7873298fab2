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
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use oware_core::{format_moves, parse_moves, Game, Move, Position, Side};

use oware_engine::levels::SplitMix;

use crate::stats::Sample;

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

/// Why a line of an openings file is not an opening.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum OpeningError {
    /// The position string does not parse.
    #[error("bad position '{text}': {error}")]
    Position {
        /// The text.
        text: String,
        /// Why.
        error: oware_core::ParsePositionError,
    },
    /// The move list does not parse.
    #[error("bad moves '{text}': {error}")]
    Moves {
        /// The text.
        text: String,
        /// Why.
        error: oware_core::ParseMoveError,
    },
    /// A move cannot be played.
    #[error("move {number} of '{text}': {error}", number = index + 1)]
    Illegal {
        /// The move list.
        text: String,
        /// The index of the move (0-based).
        index: usize,
        /// Why.
        error: oware_core::GameError,
    },
    /// The game is over after the opening.
    #[error("the game is already over after '{0}'")]
    Over(String),
}

/// What an engine did wrong, or what went wrong with its process: the
/// reason a game was lost by a fault, or an engine could not start. Front
/// ends word it in their language; `Display` is the English.
#[derive(Clone, Debug, thiserror::Error)]
pub enum Fault {
    /// The engine's command is empty.
    #[error("empty engine command")]
    EmptyCommand,
    /// The program could not be started.
    #[error("cannot start '{command}': {source}")]
    Spawn {
        /// The command.
        command: String,
        /// The system's reason.
        source: Arc<std::io::Error>,
    },
    /// The process was started without one of its pipes.
    #[error("no {0}")]
    NoPipe(&'static str),
    /// A line could not be written to the engine (it has gone).
    #[error("crash: cannot write to the engine ({0})")]
    Write(Arc<std::io::Error>),
    /// The engine did not answer in time.
    #[error("timeout waiting for '{waiting_for}' ({waited_ms} ms)")]
    Timeout {
        /// The answer awaited: `uciok`, `readyok` or `bestmove`.
        waiting_for: &'static str,
        /// How long it was awaited.
        waited_ms: u64,
    },
    /// The process ended.
    #[error("crash: the engine exited{}", match .code { Some(c) => format!(" with status {c}"), None => " (killed by a signal)".to_string() })]
    Exited {
        /// Its exit status, `None` when a signal ended it.
        code: Option<i32>,
    },
    /// The engine closed its output but is still running.
    #[error("crash: the engine closed its output")]
    Closed,
    /// A `bestmove` whose move is not a move letter (or is missing).
    #[error("unreadable move '{0}'")]
    Unreadable(String),
    /// An option to set that the engine does not offer (not among the
    /// `option name …` lines of its answer to `uci`).
    #[error("the engine has no option '{name}' (it offers: {offered})")]
    NoSuchOption {
        /// The option asked for.
        name: String,
        /// The options it offers, comma-separated.
        offered: String,
    },
    /// A move the rules refuse.
    #[error("{error}")]
    Illegal {
        /// The move.
        mv: Move,
        /// Why the rules refuse it.
        error: oware_core::GameError,
    },
}

/// How a game of a match ended.
#[derive(Clone, Debug)]
pub enum Ending {
    /// By the rules (or stopped after [`MAX_PLIES`] plies, as agreement).
    Rules(oware_core::EndReason),
    /// By an engine's fault: that engine loses.
    Fault {
        /// The engine at fault: 0 for engine 1, 1 for engine 2.
        engine: usize,
        /// Plies played when it happened.
        ply: usize,
        /// What happened.
        fault: Fault,
    },
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
    pub fn parse(line: &str) -> Result<Opening, OpeningError> {
        let line = line.trim();
        let (start, rest) = match line.split_once(char::is_whitespace) {
            Some((first, rest)) if first.contains('-') => (first, rest),
            None if line.contains('-') => (line, ""),
            _ => ("", line),
        };
        let start: Position = if start.is_empty() {
            Position::start()
        } else {
            start.parse().map_err(|error| OpeningError::Position {
                text: start.to_string(),
                error,
            })?
        };
        let moves = parse_moves(rest).map_err(|error| OpeningError::Moves {
            text: rest.to_string(),
            error,
        })?;
        let game =
            Game::from_moves(start, &moves).map_err(|(index, error)| OpeningError::Illegal {
                text: rest.to_string(),
                index,
                error,
            })?;
        if game.is_over() {
            return Err(OpeningError::Over(line.to_string()));
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

impl std::fmt::Display for GameScore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            GameScore::Win => "won",
            GameScore::Draw => "drew",
            GameScore::Loss => "lost",
        })
    }
}

impl std::fmt::Display for MoveLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveLimit::Movetime(ms) => write!(f, "{ms} ms a move"),
            MoveLimit::Depth(d) => write!(f, "depth {d} a move"),
            MoveLimit::Nodes(n) => write!(f, "{n} nodes a move"),
        }
    }
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
    /// How it ended: by the rules, or by an engine's fault.
    pub ending: Ending,
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

    /// The trinomial sample of these games (see [`crate::stats`]).
    pub fn sample(&self) -> Sample {
        Sample::trinomial(self.wins as u64, self.draws as u64, self.losses as u64)
    }
}

impl GameScore {
    /// Engine 1's half-points for the game: 2 for a win, 1 for a draw.
    pub fn half_points(self) -> usize {
        match self {
            GameScore::Win => 2,
            GameScore::Draw => 1,
            GameScore::Loss => 0,
        }
    }
}

/// The pentanomial counts of the finished pairs among `games`: games 2i and
/// 2i+1 share an opening with the colours swapped; `counts[k]` is the
/// number of pairs in which engine 1 scored k half-points (0 to 4). A pair
/// with a game still missing is left out.
pub fn pair_counts(games: &[GameRecord]) -> [u64; 5] {
    let mut halves: std::collections::HashMap<usize, Vec<usize>> = Default::default();
    for g in games {
        halves
            .entry(g.index / 2)
            .or_default()
            .push(g.score.half_points());
    }
    let mut counts = [0u64; 5];
    for h in halves.values().filter(|h| h.len() == 2) {
        counts[h[0] + h[1]] += 1;
    }
    counts
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
    fn start(spec: &EngineSpec) -> Result<Process, Fault> {
        let mut words = spec.command.split_whitespace();
        let program = words.next().ok_or(Fault::EmptyCommand)?;
        let mut child = Command::new(resolve(program))
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|source| Fault::Spawn {
                command: spec.command.clone(),
                source: Arc::new(source),
            })?;
        let stdin = child.stdin.take().ok_or(Fault::NoPipe("stdin"))?;
        let stdout = child.stdout.take().ok_or(Fault::NoPipe("stdout"))?;
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
        let mut offered: Vec<String> = Vec::new();
        p.expect_with("uciok", Duration::from_secs(10), |line| {
            // "option name Hash type spin …": the name may hold spaces.
            if let Some(rest) = line.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or(rest).trim();
                offered.push(name.to_string());
            }
        })?;
        for (k, _) in &spec.options {
            if !offered.iter().any(|o| o.eq_ignore_ascii_case(k)) {
                return Err(Fault::NoSuchOption {
                    name: k.clone(),
                    offered: offered.join(", "),
                });
            }
        }
        for (k, v) in &spec.options {
            p.send(&format!("setoption name {k} value {v}"))?;
        }
        p.ready()?;
        Ok(p)
    }

    /// Writes a line; when the engine no longer reads, says it exited if
    /// it did (its exit and the closed pipe race: which one is seen first
    /// depends on the machine's load), else that it stopped reading.
    fn send(&mut self, line: &str) -> Result<(), Fault> {
        let written = writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush());
        match written {
            Ok(()) => Ok(()),
            Err(e) => match self.gone() {
                exited @ Fault::Exited { .. } => Err(exited),
                _ => Err(Fault::Write(Arc::new(e))),
            },
        }
    }

    /// Reads lines until one starts with `prefix`.
    fn expect(&mut self, prefix: &'static str, timeout: Duration) -> Result<String, Fault> {
        self.expect_with(prefix, timeout, |_| {})
    }

    /// Reads lines until one starts with `prefix`, showing `other` every
    /// line before it.
    fn expect_with(
        &mut self,
        prefix: &'static str,
        timeout: Duration,
        mut other: impl FnMut(&str),
    ) -> Result<String, Fault> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.starts_with(prefix) => return Ok(line),
                Ok(line) => other(&line),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(Fault::Timeout {
                        waiting_for: prefix,
                        waited_ms: timeout.as_millis() as u64,
                    })
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.gone()),
            }
        }
    }

    /// Why the engine's output closed: it exited (waited for a moment),
    /// or it only closed its output.
    fn gone(&mut self) -> Fault {
        let deadline = Instant::now() + Duration::from_millis(500);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    return Fault::Exited {
                        code: status.code(),
                    }
                }
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                _ => return Fault::Closed,
            }
        }
    }

    fn ready(&mut self) -> Result<(), Fault> {
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

/// Starts the engine of `spec`, completes the UCI handshake with its
/// options and stops it again: a match checks its engines this way before
/// its first game, so a wrong command fails at once instead of losing every
/// game.
pub fn check_engine(spec: &EngineSpec) -> Result<(), Fault> {
    Process::start(spec).map(drop)
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
    let engine1_south = index & 1 == 0;
    let mut game = Game::from_moves(opening.start, &opening.moves).expect("openings are checked");
    let fault = |engine: usize, fault: Fault, game: Game| GameRecord {
        index,
        engine1_south,
        ending: Ending::Fault {
            engine,
            ply: game.plies().len(),
            fault,
        },
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
        let answer = p
            .send(&cmd)
            .and_then(|_| p.send(go))
            .and_then(|_| p.expect("bestmove", *timeout));
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
            Err(_) => return fault(e, Fault::Unreadable(word.to_string()), game),
        };
        if let Err(err) = game.play(mv) {
            return fault(e, Fault::Illegal { mv, error: err }, game);
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
        ending: Ending::Rules(outcome.reason),
    }
}

/// Plays the match. `each` is called after every game (from the worker
/// threads, one at a time) with that game and all games finished so far, in
/// the order they finished; when it returns false no further game starts
/// (those under way finish). Returns the games played, in order.
pub fn run(
    config: &MatchConfig,
    each: &(dyn Fn(&GameRecord, &[GameRecord]) -> bool + Sync),
) -> Vec<GameRecord> {
    assert!(
        !config.openings.is_empty(),
        "a match needs at least one opening"
    );
    let next = AtomicUsize::new(0);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let results: Mutex<Vec<GameRecord>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.max(1).min(config.games.max(1)) {
            scope.spawn(|| {
                let mut engines: [Option<Process>; 2] = [None, None];
                loop {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= config.games {
                        break;
                    }
                    let rec =
                        play_game(i, config, &mut engines, [&config.engine1, &config.engine2]);
                    let mut done = results.lock().unwrap_or_else(|e| e.into_inner());
                    done.push(rec);
                    let last = done.last().expect("just pushed");
                    if !each(last, &done) {
                        stop.store(true, Ordering::SeqCst);
                    }
                }
            });
        }
    });
    let mut games = results.into_inner().unwrap_or_else(|e| e.into_inner());
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
        assert!(Opening::parse("FF")
            .unwrap_err()
            .to_string()
            .contains("move 2"));
        assert!(Opening::parse("1-0-0-0-1-0-0-0-0-0-0-0-23-23-S")
            .unwrap_err()
            .to_string()
            .contains("over"));
        let r = Opening::random(4, 20, 1);
        assert_eq!(r.len(), 20);
        assert!(r.iter().all(|o| o.moves.len() == 4));
        assert_eq!(r, Opening::random(4, 20, 1));
    }

    #[test]
    fn pairs_are_counted_by_opening() {
        let rec = |index: usize, score: GameScore| GameRecord {
            index,
            engine1_south: index & 1 == 0,
            game: Game::new(Position::start()),
            score,
            ending: Ending::Rules(oware_core::EndReason::Agreement),
        };
        let games = [
            rec(0, GameScore::Win),
            rec(3, GameScore::Draw),
            rec(1, GameScore::Draw),
            rec(2, GameScore::Loss),
            rec(4, GameScore::Win),
            rec(6, GameScore::Loss),
            rec(7, GameScore::Loss),
        ];
        // Pairs: (0,1) 3 half-points, (2,3) 1, (6,7) 0; game 4 alone.
        assert_eq!(pair_counts(&games), [1, 1, 0, 1, 0]);
        let mut t = Tally::default();
        games.iter().for_each(|g| t.add(g.score));
        assert_eq!((t.wins, t.draws, t.losses), (2, 2, 3));
        assert_eq!(t.sample(), Sample::trinomial(2, 2, 3));
    }
}
