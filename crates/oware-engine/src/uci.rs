//! The engine side of Aalina's UCI dialect (docs/INTEROP.md): commands are
//! parsed into [`UciCommand`] in one place ([`parse`]), and [`run`] drives an
//! [`Engine`] from any line reader to any writer, searching on a worker
//! thread so that `stop`, `ponderhit`, `isready` and `quit` are read while
//! it thinks. Bad input never ends the loop: it is answered with
//! `info string error: …`.
//!
//! What GUIs need of it (Aualé 2.2 in particular, see docs/ENGINE.md): every
//! reply is one non-empty line of the dialect's grammar (a blank line ends
//! Aualé's reader); `bestmove 0000` when the game is over; `uci`,
//! `isready`, `stop` and `quit` are answered at once (Aualé gives up after
//! 8 s), so default tables being built arrive in the background and are
//! used from the next search after they are ready.

use std::fmt;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex, Weak};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::tablebase::TablebaseError;
use oware_core::{format_moves, parse_moves, Game, Move, Position, Side};

use crate::{
    levels, Clock, Engine, EngineOptions, Level, Limits, SearchInfo, SearchResult, StopHandle,
};

/// The parameters of `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// `depth N`
    pub depth: Option<u32>,
    /// `nodes N`
    pub nodes: Option<u64>,
    /// `movetime MS`
    pub movetime: Option<u64>,
    /// `wtime MS`: South's clock.
    pub wtime: Option<u64>,
    /// `btime MS`: North's clock.
    pub btime: Option<u64>,
    /// `winc MS`
    pub winc: Option<u64>,
    /// `binc MS`
    pub binc: Option<u64>,
    /// `movestogo N`
    pub movestogo: Option<u32>,
    /// `infinite`
    pub infinite: bool,
    /// `ponder`
    pub ponder: bool,
}

/// One command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciCommand {
    /// `uci`
    Uci,
    /// `isready`
    IsReady,
    /// `ucinewgame`
    NewGame,
    /// `setoption name NAME [value V]`
    SetOption {
        /// Option name (case is ignored when matching).
        name: String,
        /// Value, if any.
        value: Option<String>,
    },
    /// `position startpos|fen POS [moves M]`
    Position {
        /// The start position.
        start: Position,
        /// Moves played from it (checked when the game is built).
        moves: Vec<Move>,
    },
    /// `go …`
    Go(GoParams),
    /// `stop`
    Stop,
    /// `ponderhit`
    PonderHit,
    /// `quit`
    Quit,
    /// `debug on|off` (accepted and ignored).
    Debug,
}

/// Why a line is not a valid command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciError {
    /// The first word is no command.
    Unknown(String),
    /// A command with bad arguments.
    Malformed {
        /// The command.
        command: &'static str,
        /// What is wrong.
        problem: String,
    },
}

impl fmt::Display for UciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciError::Unknown(w) => write!(f, "unknown command '{w}'"),
            UciError::Malformed { command, problem } => write!(f, "{command}: {problem}"),
        }
    }
}

impl std::error::Error for UciError {}

fn malformed(command: &'static str, problem: impl Into<String>) -> UciError {
    UciError::Malformed {
        command,
        problem: problem.into(),
    }
}

fn number<T: std::str::FromStr>(
    command: &'static str,
    key: &str,
    v: Option<&str>,
) -> Result<T, UciError> {
    let v = v.ok_or_else(|| malformed(command, format!("'{key}' needs a value")))?;
    v.parse().map_err(|_| {
        malformed(
            command,
            format!("'{key}' expects a non-negative number, got '{v}'"),
        )
    })
}

/// Parses one line; `Ok(None)` for a blank line.
pub fn parse(line: &str) -> Result<Option<UciCommand>, UciError> {
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return Ok(None);
    };
    let rest: Vec<&str> = words.collect();
    let cmd = match first {
        "uci" => UciCommand::Uci,
        "isready" => UciCommand::IsReady,
        "ucinewgame" => UciCommand::NewGame,
        "stop" => UciCommand::Stop,
        "ponderhit" => UciCommand::PonderHit,
        "quit" => UciCommand::Quit,
        "debug" => UciCommand::Debug,
        "setoption" => parse_setoption(&rest)?,
        "position" => parse_position(&rest)?,
        "go" => UciCommand::Go(parse_go(&rest)?),
        other => return Err(UciError::Unknown(other.to_string())),
    };
    Ok(Some(cmd))
}

fn parse_setoption(rest: &[&str]) -> Result<UciCommand, UciError> {
    if rest.first() != Some(&"name") {
        return Err(malformed(
            "setoption",
            "expected 'setoption name NAME [value V]'",
        ));
    }
    let vpos = rest.iter().position(|w| *w == "value");
    let name_words = &rest[1..vpos.unwrap_or(rest.len())];
    if name_words.is_empty() {
        return Err(malformed("setoption", "missing option name"));
    }
    let value = vpos.map(|i| rest[i + 1..].join(" "));
    Ok(UciCommand::SetOption {
        name: name_words.join(" "),
        value,
    })
}

fn parse_position(rest: &[&str]) -> Result<UciCommand, UciError> {
    let (start, after) = match rest.first() {
        Some(&"startpos") => (Position::start(), &rest[1..]),
        Some(&"fen") => {
            let text = rest
                .get(1)
                .ok_or_else(|| malformed("position", "'fen' needs a position string"))?;
            let pos = text
                .parse::<Position>()
                .map_err(|e| malformed("position", format!("bad position '{text}': {e}")))?;
            (pos, &rest[2..])
        }
        Some(w) => {
            return Err(malformed(
                "position",
                format!("expected 'startpos' or 'fen', got '{w}'"),
            ))
        }
        None => return Err(malformed("position", "expected 'startpos' or 'fen'")),
    };
    let moves = match after.first() {
        None => Vec::new(),
        Some(&"moves") => {
            let text = after[1..].join(" ");
            parse_moves(&text)
                .map_err(|e| malformed("position", format!("bad move list '{text}': {e}")))?
        }
        Some(w) => {
            return Err(malformed(
                "position",
                format!("expected 'moves', got '{w}'"),
            ))
        }
    };
    Ok(UciCommand::Position { start, moves })
}

fn parse_go(rest: &[&str]) -> Result<GoParams, UciError> {
    let mut g = GoParams::default();
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i];
        let val = rest.get(i + 1).copied();
        match key {
            "infinite" => g.infinite = true,
            "ponder" => g.ponder = true,
            "depth" => g.depth = Some(number("go", key, val)?),
            "nodes" => g.nodes = Some(number("go", key, val)?),
            "movetime" => g.movetime = Some(number("go", key, val)?),
            "wtime" => g.wtime = Some(number::<i64>("go", key, val)?.max(0) as u64),
            "btime" => g.btime = Some(number::<i64>("go", key, val)?.max(0) as u64),
            "winc" => g.winc = Some(number("go", key, val)?),
            "binc" => g.binc = Some(number("go", key, val)?),
            "movestogo" => g.movestogo = Some(number("go", key, val)?),
            other => return Err(malformed("go", format!("unknown parameter '{other}'"))),
        }
        i += if matches!(key, "infinite" | "ponder") {
            1
        } else {
            2
        };
    }
    if g.depth == Some(0) {
        return Err(malformed("go", "depth must be at least 1"));
    }
    Ok(g)
}

impl GoParams {
    /// The search limits for `side` to move (clock fields are per side).
    pub fn limits(&self, side: Side) -> Limits {
        let mut l = Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime.map(Duration::from_millis),
            ..Limits::default()
        };
        let (time, inc) = match side {
            Side::South => (self.wtime, self.winc),
            Side::North => (self.btime, self.binc),
        };
        if let Some(t) = time {
            l.clock = Some(Clock {
                remaining: Duration::from_millis(t),
                increment: Duration::from_millis(inc.unwrap_or(0)),
                moves_to_go: self.movestogo,
            });
        }
        l
    }
}

/// The most search threads the `Threads` option accepts.
pub const MAX_THREADS: usize = 64;

/// Where the loop writes: shared by the reader and the search thread.
pub type Output = Arc<Mutex<dyn Write + Send>>;

fn send(out: &Output, line: &str) {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    // A closed output (the GUI went away) is not our error to report.
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

/// Settings changed with `setoption`.
#[derive(Clone, Debug)]
struct Settings {
    level: Level,
    greedy: bool,
    seed: u64,
}

struct Running {
    stop: StopHandle,
    thread: JoinHandle<Engine>,
    // An infinite or pondering search only ends when told to.
    endless: bool,
}

/// The UCI loop state.
struct Session {
    out: Output,
    engine: Option<Engine>,
    running: Option<Running>,
    game: Game,
    settings: Settings,
    // Default tables being built in the background: the builder fills the
    // slot, and the next `go` installs them. Dropping the slot (the GUI chose
    // a directory) discards them.
    incoming_tables: Option<TableSlot>,
}

/// Where tables built in the background are left for the session.
type TableSlot = Arc<Mutex<Option<Result<Arc<crate::tablebase::Tablebase>, TablebaseError>>>>;

/// Builds tables for a session in the background (see [`run_with_builder`]).
pub type TableBuilder =
    Box<dyn FnOnce() -> Result<crate::tablebase::Tablebase, TablebaseError> + Send + 'static>;

/// The info line of one iteration.
pub fn info_line(i: &SearchInfo) -> String {
    let ms = i.elapsed.as_millis();
    let nps = (i.nodes as f64 / i.elapsed.as_secs_f64().max(1e-6)) as u64;
    format!(
        "info depth {} seldepth {} score cp {} nodes {} nps {} time {} hashfull {} tbhits {} pv {}",
        i.depth,
        i.seldepth,
        i.score.centiseeds(),
        i.nodes,
        nps,
        ms,
        i.hashfull,
        i.tb_hits,
        format_moves(&i.pv)
    )
}

/// The answer to `go`: `bestmove M [ponder P]`, or `bestmove 0000` (the
/// dialect's null move) when there is no move to play.
pub fn bestmove_line(r: &SearchResult) -> String {
    match r.best {
        None => "bestmove 0000".to_string(),
        Some(m) => match r.pv.get(1) {
            Some(p) => format!("bestmove {m} ponder {p}"),
            None => format!("bestmove {m}"),
        },
    }
}

/// A `setoption` value as an error message shows it: quoted, or "no value".
/// `text` without the "(os error N)" codes the system appends to its
/// messages: a GUI shows the words ("No such file or directory") only.
fn without_os_codes(text: &str) -> String {
    let mut out = text.to_string();
    while let Some(at) = out.find(" (os error ") {
        match out[at..].find(')') {
            Some(end) => out.replace_range(at..at + end + 1, ""),
            None => break,
        }
    }
    out
}

fn shown(value: Option<&str>) -> String {
    match value.map(str::trim) {
        Some(v) if !v.is_empty() => format!("'{v}'"),
        _ => "no value".to_string(),
    }
}

impl Session {
    fn new(out: Output, options: EngineOptions) -> Session {
        Session {
            out,
            engine: Some(Engine::new(options)),
            running: None,
            game: Game::new(Position::start()),
            settings: Settings {
                level: Level::MAX,
                greedy: false,
                seed: 0,
            },
            incoming_tables: None,
        }
    }

    /// Starts building tables on a background thread; they are used from
    /// the first search that starts after they are ready.
    fn build_tables_in_background(&mut self, build: TableBuilder) {
        let slot: TableSlot = Arc::new(Mutex::new(None));
        let weak: Weak<_> = Arc::downgrade(&slot);
        let out = self.out.clone();
        self.incoming_tables = Some(slot);
        std::thread::spawn(move || {
            let result = build().map(Arc::new);
            // The session may have dropped them meanwhile (a directory was
            // chosen, or it ended): then say nothing.
            let Some(slot) = weak.upgrade() else {
                return;
            };
            let line = match &result {
                Ok(tb) => format!(
                    "info string tablebases built in memory up to {} seeds; used from the next search",
                    tb.max_seeds().unwrap_or(0)
                ),
                Err(e) => format!("info string error: building the default tablebases: {e}"),
            };
            *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
            send(&out, &line);
        });
    }

    /// Installs tables built in the background if they are ready (never
    /// waits). Called only while no search runs.
    fn install_arrived_tables(&mut self) {
        let arrived = match &self.incoming_tables {
            Some(slot) => slot.lock().unwrap_or_else(|e| e.into_inner()).take(),
            None => return,
        };
        let Some(result) = arrived else {
            return;
        };
        self.incoming_tables = None;
        // A failure was reported by the builder; the engine goes on without.
        if let Ok(tb) = result {
            self.engine().set_tablebase(Some(tb));
        }
    }

    fn say(&self, line: &str) {
        send(&self.out, line);
    }

    fn error(&self, msg: impl fmt::Display) {
        self.say(&format!(
            "info string error: {}",
            without_os_codes(&msg.to_string())
        ));
    }

    /// Ends a running search (it prints its bestmove) and takes the engine back.
    fn finish(&mut self) {
        self.join(true);
    }

    /// Takes the engine back from a running search, stopping it first if
    /// `stop` or if it would never end by itself.
    fn join(&mut self, stop: bool) {
        if let Some(r) = self.running.take() {
            if stop || r.endless {
                r.stop.stop();
            }
            match r.thread.join() {
                Ok(engine) => self.engine = Some(engine),
                Err(_) => {
                    self.error("the search thread failed; starting a fresh engine");
                    self.engine = Some(Engine::new(EngineOptions::default()));
                }
            }
        }
    }

    fn engine(&mut self) -> &mut Engine {
        self.finish();
        self.engine
            .as_mut()
            .expect("the engine is home when no search runs")
    }

    fn handle(&mut self, cmd: UciCommand) -> bool {
        match cmd {
            UciCommand::Uci => {
                self.say(&format!("id name Oware {}", env!("CARGO_PKG_VERSION")));
                self.say("id author the oware project");
                self.say("option name Hash type spin default 64 min 1 max 16384");
                self.say(&format!(
                    "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
                ));
                self.say("option name TablebaseDir type string default <empty>");
                // A combo of the levels' names (numbers 1-10 are accepted too).
                let names: String = Level::all().map(|l| format!(" var {}", l.name())).collect();
                self.say(&format!(
                    "option name Level type combo default {}{names}",
                    Level::MAX.name()
                ));
                self.say("option name Greedy type check default false");
                self.say("option name OwnBook type check default false");
                self.say("option name EvalNet type check default true");
                self.say("option name EvalFile type string default <empty>");
                self.say("option name Seed type spin default 0 min 0 max 2147483647");
                self.say("option name Ponder type check default false");
                self.say(&format!(
                    "option name EvalWeights type string default {}",
                    crate::eval::Weights::TUNED
                ));
                self.say("uciok");
            }
            // Nothing is pending that `readyok` must wait for: tables being
            // built arrive on their own.
            UciCommand::IsReady => self.say("readyok"),
            UciCommand::Debug => {}
            UciCommand::NewGame => {
                self.engine().new_game();
                self.game = Game::new(Position::start());
            }
            UciCommand::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            UciCommand::Position { start, moves } => match Game::from_moves(start, &moves) {
                Ok(game) => self.game = game,
                Err((i, e)) => self.error(format!(
                    "position: move {} ({}) cannot be played: {e}; position unchanged",
                    i + 1,
                    moves[i]
                )),
            },
            UciCommand::Go(params) => self.go(params),
            UciCommand::Stop => self.finish(),
            UciCommand::PonderHit => {
                if let Some(r) = &self.running {
                    r.stop.ponderhit();
                }
            }
            UciCommand::Quit => {
                self.finish();
                return false;
            }
        }
        true
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        fn need(v: Option<&str>) -> Option<&str> {
            v.map(str::trim).filter(|v| !v.is_empty())
        }
        let key = name.to_ascii_lowercase().replace(' ', "");
        match key.as_str() {
            "hash" => match need(value).and_then(|v| v.parse::<usize>().ok()) {
                Some(mb) if (1..=16384).contains(&mb) => self.engine().set_hash_mb(mb),
                _ => self.error(format!(
                    "setoption Hash: expected a size in MiB from 1 to 16384, got {}",
                    shown(value)
                )),
            },
            "threads" => match need(value).and_then(|v| v.parse::<usize>().ok()) {
                Some(n) if (1..=MAX_THREADS).contains(&n) => self.engine().set_threads(n),
                _ => self.error(format!(
                    "setoption Threads: expected 1 to {MAX_THREADS}, got {}",
                    value.unwrap_or("nothing")
                )),
            },
            "tablebasedir" | "tablebasepath" | "syzygypath" => {
                // A directory given by the GUI replaces the default tables.
                self.incoming_tables = None;
                let dir = need(value)
                    .filter(|v| *v != "<empty>")
                    .map(std::path::PathBuf::from);
                match self.engine().set_tablebase_dir(dir) {
                    Ok(0) => {}
                    Ok(n) => self.say(&format!("info string tablebases loaded up to {n} seeds")),
                    Err(e) => self.error(format!("setoption TablebaseDir: {e}")),
                }
            }
            "level" => match need(value).and_then(Level::parse) {
                Some(level) => self.settings.level = level,
                None => self.error(format!(
                    "setoption Level: expected a level from 1 to 10 or its name ({} … {}), got {}",
                    Level::MIN.name(),
                    Level::MAX.name(),
                    shown(value)
                )),
            },
            "greedy" => match need(value) {
                Some("true") => self.settings.greedy = true,
                Some("false") => self.settings.greedy = false,
                _ => self.error(format!(
                    "setoption Greedy: expected true or false, got {}",
                    shown(value)
                )),
            },
            "seed" => match need(value).and_then(|v| v.parse::<u64>().ok()) {
                Some(s) => self.settings.seed = s,
                None => self.error(format!(
                    "setoption Seed: expected a number, got {}",
                    shown(value)
                )),
            },
            "evalweights" => match crate::eval::Weights::parse(value.unwrap_or("")) {
                Ok(w) => self.engine().set_weights(w),
                Err(e) => self.error(format!("setoption EvalWeights: {e}")),
            },
            "evalnet" => match need(value) {
                Some("true") => self
                    .engine()
                    .set_network(Some(crate::nn::Network::builtin())),
                Some("false") => self.engine().set_network(None),
                _ => self.error(format!(
                    "setoption EvalNet: expected true or false, got {}",
                    shown(value)
                )),
            },
            // A network file instead of the built-in one (for matches
            // between networks); empty or `<empty>`: the built-in one.
            "evalfile" => match need(value).filter(|v| *v != "<empty>") {
                None => self
                    .engine()
                    .set_network(Some(crate::nn::Network::builtin())),
                Some(path) => match crate::nn::Network::load(std::path::Path::new(path)) {
                    Ok(net) => self.engine().set_network(Some(std::sync::Arc::new(net))),
                    Err(e) => self.error(format!(
                        "setoption EvalFile: {e}; the evaluation is unchanged"
                    )),
                },
            },
            "ownbook" => match need(value) {
                Some("true") => self.engine().set_book(Some(crate::book::Book::builtin())),
                Some("false") => self.engine().set_book(None),
                _ => self.error(format!(
                    "setoption OwnBook: expected true or false, got {}",
                    shown(value)
                )),
            },
            // Accepted so that GUIs may send them.
            "ponder" | "uci_analysemode" | "multipv" => {}
            _ => self.error(format!("setoption: unknown option '{name}'")),
        }
    }

    fn go(&mut self, params: GoParams) {
        self.finish();
        self.install_arrived_tables();
        let wait_for_stop = params.infinite || params.ponder;
        if let (Some(o), false) = (self.game.outcome(), wait_for_stop) {
            // Not an error: GUIs may ask. An endless search of such a
            // position answers the same way, but only when stopped.
            self.say(&format!(
                "info string the game is over: {}; no move to play",
                o.reason
            ));
            self.say("bestmove 0000");
            return;
        }
        let side = self.game.position().to_move();
        let mut limits = params.limits(side);
        limits.seed = self.settings.seed;
        if self.settings.level < Level::MAX {
            limits.level = Some(self.settings.level);
        }
        if self.settings.greedy {
            let mv = levels::greedy_move(&self.game, self.settings.seed);
            let r = SearchResult {
                best: mv,
                score: crate::Score(0),
                pv: mv.into_iter().collect(),
                depth: 1,
                nodes: 1,
                elapsed: Duration::ZERO,
            };
            self.say(&bestmove_line(&r));
            return;
        }
        let mut engine = self
            .engine
            .take()
            .expect("the engine is home when no search runs");
        let stop = StopHandle::default();
        stop.set_pondering(params.ponder);
        let control = stop.clone();
        let out = self.out.clone();
        let game = self.game.clone();
        let thread = std::thread::spawn(move || {
            let r =
                engine.search_with(&game, &limits, &control, &mut |i| send(&out, &info_line(i)));
            // An infinite or pondering search answers only when told to.
            while !control.is_stopped()
                && ((wait_for_stop && params.infinite) || control.is_pondering())
            {
                std::thread::sleep(Duration::from_millis(1));
            }
            send(&out, &bestmove_line(&r));
            engine
        });
        self.running = Some(Running {
            stop,
            thread,
            endless: wait_for_stop,
        });
    }
}

/// Runs the UCI loop until `quit` or the end of `input` (where a search
/// with limits finishes and answers first, and an endless one is stopped).
pub fn run<R: BufRead>(input: R, out: Output, options: EngineOptions) {
    run_with_tables(input, out, options, None);
}

/// As [`run`], also building tablebases of up to `build_seeds` seeds in
/// memory on a background thread, unless `options.tablebase_dir` is set.
/// Nothing waits for them: they are used from the first search that starts
/// after they are ready, which an `info string tablebases built …` line
/// announces.
pub fn run_with_tables<R: BufRead>(
    input: R,
    out: Output,
    options: EngineOptions,
    build_seeds: Option<usize>,
) {
    let build =
        build_seeds.map(|n| Box::new(move || crate::tablebase::build_in_memory(n)) as TableBuilder);
    run_with_builder(input, out, options, build);
}

/// As [`run_with_tables`], with tables made by `build` on a background
/// thread (unless `options.tablebase_dir` is set).
pub fn run_with_builder<R: BufRead>(
    input: R,
    out: Output,
    options: EngineOptions,
    build: Option<TableBuilder>,
) {
    let has_dir = options.tablebase_dir.is_some();
    let mut session = Session::new(out, options);
    if let Some(e) = session.engine.as_ref().and_then(|e| e.tablebase_error()) {
        let e = e.to_string();
        session.error(e);
    }
    if let (Some(build), false) = (build, has_dir) {
        session.build_tables_in_background(build);
    }
    for line in input.lines() {
        let Ok(line) = line else {
            session.error("input is not valid UTF-8; line ignored");
            continue;
        };
        match parse(&line) {
            Ok(None) => {}
            Ok(Some(cmd)) => {
                if !session.handle(cmd) {
                    return;
                }
            }
            Err(e) => session.error(e),
        }
        // Reap a search that has finished on its own.
        if session
            .running
            .as_ref()
            .is_some_and(|r| r.thread.is_finished())
        {
            session.finish();
        }
    }
    // End of input: a bounded search still gets to answer.
    session.join(false);
}

#[cfg(test)]
mod tests {

    #[test]
    fn os_error_codes_are_left_out() {
        assert_eq!(
            super::without_os_codes("cannot open x: No such file or directory (os error 2)"),
            "cannot open x: No such file or directory"
        );
        assert_eq!(super::without_os_codes("plain (text)"), "plain (text)");
    }

    use super::*;

    #[test]
    fn parses_commands() {
        assert_eq!(parse("  uci ").unwrap(), Some(UciCommand::Uci));
        assert_eq!(parse("").unwrap(), None);
        assert_eq!(
            parse("setoption name Hash value 32").unwrap(),
            Some(UciCommand::SetOption {
                name: "Hash".into(),
                value: Some("32".into())
            })
        );
        match parse("position fen 4-4-4-4-4-0-5-5-5-5-4-4-0-0-N moves f A").unwrap() {
            Some(UciCommand::Position { start, moves }) => {
                assert_eq!(start.to_string(), "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N");
                assert_eq!(format_moves(&moves), "fA");
            }
            other => panic!("{other:?}"),
        }
        let go = parse("go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5").unwrap();
        let Some(UciCommand::Go(g)) = go else {
            panic!()
        };
        assert_eq!(
            (g.wtime, g.btime, g.winc, g.binc, g.movestogo),
            (Some(1000), Some(2000), Some(10), Some(20), Some(5))
        );
        assert_eq!(
            g.limits(Side::North).clock.unwrap().remaining,
            Duration::from_millis(2000)
        );
    }

    #[test]
    fn rejects_bad_input_with_reasons() {
        for (line, expect) in [
            ("xyzzy", "unknown command 'xyzzy'"),
            ("go depth", "'depth' needs a value"),
            ("go depth -3", "non-negative number"),
            ("go fast", "unknown parameter 'fast'"),
            ("position", "expected 'startpos' or 'fen'"),
            ("position fen 1-2-3", "bad position"),
            ("position startpos moves FZ", "bad move list"),
            ("position startpos F", "expected 'moves'"),
            ("setoption Hash 3", "expected 'setoption name"),
        ] {
            let e = parse(line).unwrap_err().to_string();
            assert!(e.contains(expect), "{line}: {e}");
        }
    }
}
