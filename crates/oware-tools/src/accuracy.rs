//! The perfect-play benchmark (`oware tune accuracy`): how often the engine,
//! searching without tables, chooses a move that keeps the value the
//! endgame tables give a position, and how many seeds it gives away when
//! it does not.
//!
//! The positions are a fixed, versioned set ([`SET`],
//! `data/accuracy-v1.txt`, and its successors [`SET_V2`] and [`SET_V3`],
//! each pinned by its checksum in `tests/accuracy.rs`): positions with 15
//! to 22 seeds (version 3: 24) on the board from
//! two kinds of games, self-play at a fixed depth with a little softmax
//! noise, and games between the engine's levels (weaker play, so the
//! positions are less tidy). Each line carries the tables' exact value of
//! the position and of every legal move, so measuring needs no tables; the
//! tests re-read those values from the tables.
//!
//! A position enters the set only when the tables know its value and every
//! legal move's value exactly (`lower == upper`; about 84 % of the boards
//! from 10 seeds up are exact, docs/TABLEBASE.md) and at least one legal
//! move loses seeds: where every move keeps the value there is nothing to
//! measure. The value is the number of the board's seeds the mover ends
//! up with under perfect play; a move keeps it when its own value (the
//! seeds it captures plus what the tables give the mover after the
//! opponent's best answer) is the same.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use oware_core::{Game, Move, Position, Side};
use oware_engine::levels::SplitMix;
use oware_engine::tablebase::Tablebase;
use oware_engine::{Engine, EngineOptions, Level, Limits};

use crate::arena::Opening;
use crate::selfplay;

/// The shipped position set, version 1.
pub const SET: &str = include_str!("../data/accuracy-v1.txt");

/// The shipped position set, version 2: only positions whose game result
/// is still open (some legal move changes the result that the best move
/// keeps), drawn with [`GenConfig::open_only`].
pub const SET_V2: &str = include_str!("../data/accuracy-v2.txt");

/// The shipped position set, version 3: drawn as version 2 (open results
/// only) over the whole range the benchmark aims at, 15 to 24 seeds
/// ([`SEEDS_V3`]), once the tables to 24 seeds could be built.
pub const SET_V3: &str = include_str!("../data/accuracy-v3.txt");

/// The first line of a version 1 file.
pub const HEADER: &str = "# oware accuracy set, version 1";

/// The first line of a version 2 file (same line format as version 1).
pub const HEADER_V2: &str = "# oware accuracy set, version 2";

/// The first line of a version 3 file (same line format as version 1).
pub const HEADER_V3: &str = "# oware accuracy set, version 3";

/// The newest set's version.
pub const LATEST: u32 = 3;

/// The shipped set of `version` (1 to [`LATEST`]).
pub fn shipped(version: u32) -> Option<&'static str> {
    match version {
        1 => Some(SET),
        2 => Some(SET_V2),
        3 => Some(SET_V3),
        _ => None,
    }
}

/// The seed counts of the set of `version` (1 to [`LATEST`]).
pub fn seeds_of(version: u32) -> std::ops::RangeInclusive<u8> {
    if version >= 3 {
        SEEDS_V3
    } else {
        SEEDS
    }
}

/// The first line of a file of `version` (1 to [`LATEST`]).
pub fn header(version: u32) -> &'static str {
    match version {
        1 => HEADER,
        2 => HEADER_V2,
        _ => HEADER_V3,
    }
}

/// The seed counts of the set. The aim is 15 to 24; version 1 stops at 22,
/// the largest count whose tables could be built on the shared machine in
/// the session that drew it (docs/ENGINE.md, "Perfect play").
pub const SEEDS: std::ops::RangeInclusive<u8> = 15..=22;

/// The seed counts of version 3: the benchmark's whole range, drawn with
/// the tables to 24 seeds (docs/TABLEBASE.md, "Going up a step").
pub const SEEDS_V3: std::ops::RangeInclusive<u8> = 15..=24;

/// Where a position comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// Self-play at a fixed depth with softmax noise.
    SelfPlay,
    /// A game between two of the engine's levels.
    Levels,
}

impl Source {
    fn name(self) -> &'static str {
        match self {
            Source::SelfPlay => "selfplay",
            Source::Levels => "levels",
        }
    }

    fn parse(text: &str) -> Option<Source> {
        match text {
            "selfplay" => Some(Source::SelfPlay),
            "levels" => Some(Source::Levels),
            _ => None,
        }
    }
}

/// The game phase of a position, by the ply of its game it was reached at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Phase {
    /// Before ply 60.
    Early,
    /// Plies 60 to 99.
    Middle,
    /// Ply 100 and later.
    Late,
}

impl Phase {
    /// The phase of a position reached at `ply`.
    pub fn of_ply(ply: u16) -> Phase {
        match ply {
            0..=59 => Phase::Early,
            60..=99 => Phase::Middle,
            _ => Phase::Late,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Phase::Early => "plies 0-59",
            Phase::Middle => "plies 60-99",
            Phase::Late => "plies 100+",
        }
    }
}

/// One position of the set with its exact values from the tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position (no history: searched as the start of a game).
    pub pos: Position,
    /// The kind of game it comes from.
    pub source: Source,
    /// The ply of that game it was reached at.
    pub ply: u16,
    /// Seeds of the board the mover ends up with under perfect play.
    pub value: u8,
    /// Every legal move with its value on the same scale, in move order.
    pub moves: Vec<(Move, u8)>,
}

impl Entry {
    /// The position's phase.
    pub fn phase(&self) -> Phase {
        Phase::of_ply(self.ply)
    }

    /// The game's result under perfect play for the mover, from the
    /// mover's store plus `value` seeds of the board: 1 win, 0 draw, -1 loss.
    pub fn result_of(&self, value: u8) -> i8 {
        let total = self.pos.store(self.pos.to_move()) as u32 + value as u32;
        match total {
            25.. => 1,
            24 => 0,
            _ => -1,
        }
    }

    /// True when `mv` keeps the game's result (win, draw or loss) that the
    /// tables give the position, even if it gives seeds away.
    pub fn keeps_result(&self, mv: Move) -> Option<bool> {
        let (_, v) = self.moves.iter().find(|(m, _)| *m == mv)?;
        Some(self.result_of(*v) == self.result_of(self.value))
    }

    /// True when the game's result is still open: at least one legal move
    /// changes the result (win, draw or loss) that the best move keeps.
    pub fn is_open(&self) -> bool {
        let best = self.result_of(self.value);
        self.moves.iter().any(|&(_, v)| self.result_of(v) != best)
    }

    /// Seeds `mv` gives away against perfect play (0: it keeps the value),
    /// or `None` when `mv` is not a legal move of the position.
    pub fn loss(&self, mv: Move) -> Option<u8> {
        let (_, v) = self.moves.iter().find(|(m, _)| *m == mv)?;
        Some(self.value - v)
    }
}

/// The exact values of `pos` and of its legal moves from `tables`, when
/// the tables cover it and every one of them is exact.
pub fn exact_values(tables: &Tablebase, pos: &Position) -> Option<(u8, Vec<(Move, u8)>)> {
    let v = tables.probe(pos)?;
    if !v.is_exact() {
        return None;
    }
    let moves = tables.move_values(pos)?;
    if moves.is_empty() || moves.iter().any(|m| m.lower != m.upper) {
        return None;
    }
    Some((v.lower(), moves.iter().map(|m| (m.mv, m.lower)).collect()))
}

/// A refused line of a set file.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SetError {
    /// The file does not start with [`HEADER`] or [`HEADER_V2`].
    #[error("not an accuracy set: the first line must be `{HEADER}` or `{HEADER_V2}`")]
    Header,
    /// A line is not `position source ply value moves`.
    #[error("line {line}: {reason}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        reason: String,
    },
}

/// The set as text: the header of `version` ([`HEADER`] for 1,
/// [`HEADER_V2`] otherwise), then one line per position: position, source,
/// ply, value, and every legal move as `letter:value`.
pub fn write(entries: &[Entry], version: u32) -> String {
    let header = header(version);
    let mut s = format!("{header}\n# position source ply value moves (move:value)\n");
    for e in entries {
        let moves: Vec<String> = e.moves.iter().map(|(m, v)| format!("{m}:{v}")).collect();
        let _ = writeln!(
            s,
            "{} {} {} {} {}",
            e.pos,
            e.source.name(),
            e.ply,
            e.value,
            moves.join(",")
        );
    }
    s
}

/// Reads a set written by [`write`]. Every position is parsed by the core
/// and every move letter checked against its legal moves.
pub fn read(text: &str) -> Result<Vec<Entry>, SetError> {
    let mut lines = text.lines().enumerate();
    if !matches!(
        lines.next().map(|(_, l)| l.trim()),
        Some(HEADER | HEADER_V2 | HEADER_V3)
    ) {
        return Err(SetError::Header);
    }
    let mut out = Vec::new();
    for (i, line) in lines {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |reason: String| SetError::Line {
            line: i + 1,
            reason,
        };
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [pos, source, ply, value, moves] = fields[..] else {
            return Err(bad(format!("{} fields, expected 5", fields.len())));
        };
        let pos: Position = pos
            .parse()
            .map_err(|e| bad(format!("position `{pos}`: {e}")))?;
        let source =
            Source::parse(source).ok_or_else(|| bad(format!("unknown source `{source}`")))?;
        let ply: u16 = ply
            .parse()
            .map_err(|_| bad(format!("ply `{ply}` is not a number")))?;
        let value: u8 = value
            .parse()
            .map_err(|_| bad(format!("value `{value}` is not a number")))?;
        let n = pos.seeds_on_board();
        if value > n {
            return Err(bad(format!(
                "value {value} above the {n} seeds on the board"
            )));
        }
        let legal = pos.legal_moves();
        let mut list = Vec::new();
        for item in moves.split(',') {
            let (m, v) = item
                .split_once(':')
                .ok_or_else(|| bad(format!("move `{item}` is not letter:value")))?;
            let m: Move = m.parse().map_err(|e| bad(format!("move `{m}`: {e}")))?;
            if !legal.contains(m) {
                return Err(bad(format!("{m} is not a legal move")));
            }
            let v: u8 = v
                .parse()
                .map_err(|_| bad(format!("value of {m} `{v}` is not a number")))?;
            if v > value {
                return Err(bad(format!("{m} is worth {v}, more than the position")));
            }
            list.push((m, v));
        }
        if list.len() != legal.len() {
            return Err(bad(format!(
                "{} moves given, the position has {} legal moves",
                list.len(),
                legal.len()
            )));
        }
        if !list.iter().any(|&(_, v)| v == value) {
            return Err(bad("no move keeps the value".to_string()));
        }
        out.push(Entry {
            pos,
            source,
            ply,
            value,
            moves: list,
        });
    }
    Ok(out)
}

/// How to draw a new set.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Positions wanted per seed count and source.
    pub per_count: usize,
    /// The seed counts drawn ([`SEEDS`] for the shipped set).
    pub seeds: std::ops::RangeInclusive<u8>,
    /// Depth of the self-play searches.
    pub depth: u32,
    /// Pairs of levels whose games are drawn from, in turn.
    pub level_pairs: Vec<(Level, Level)>,
    /// Random opening plies.
    pub plies: usize,
    /// Seed of everything random.
    pub seed: u64,
    /// Games of each kind at most.
    pub max_games: usize,
    /// Keep only positions whose result is still open ([`Entry::is_open`]),
    /// and draw each game's position of a seed count among those that
    /// qualify (in a random order) rather than drawing one and then
    /// testing it: set version 2. Version 1 was drawn without.
    pub open_only: bool,
}

impl Default for GenConfig {
    fn default() -> Self {
        let l = Level::new;
        GenConfig {
            per_count: 50,
            seeds: SEEDS,
            depth: 6,
            level_pairs: vec![(l(4), l(7)), (l(6), l(8)), (l(8), l(5)), (l(7), l(9))],
            plies: 6,
            seed: 1,
            max_games: 4000,
            open_only: false,
        }
    }
}

/// Games longer than this are stopped (a guard).
const MAX_PLIES: usize = 300;

fn level_game(engine: &mut Engine, opening: &Opening, levels: (Level, Level), seed: u64) -> Game {
    let mut game =
        Game::from_moves(opening.start, &opening.moves).expect("random openings are legal");
    engine.new_game();
    let mut rng = SplitMix::new(seed);
    while !game.is_over() && game.plies().len() < MAX_PLIES {
        let level = match game.position().to_move() {
            Side::South => levels.0,
            Side::North => levels.1,
        };
        let depth = oware_engine::levels::profile(level).depth.unwrap_or(12);
        let limits = Limits {
            depth: Some(depth),
            level: Some(level),
            seed: rng.next_u64(),
            ..Limits::default()
        };
        let r = engine.search(&game, &limits, &mut |_| {});
        let Some(mv) = r.best else { break };
        if game.play(mv).is_err() {
            break;
        }
    }
    game
}

/// Draws a new set: games of both kinds from random openings, and from
/// each game at most one position per seed count of `config.seeds`, chosen at
/// random among those of the game that qualify (see the module text),
/// until every seed count has `per_count` positions of each source or
/// `max_games` games of a kind were played. Positions are distinct.
/// `progress` gets the games played and positions kept so far.
pub fn generate(
    config: &GenConfig,
    tables: &Tablebase,
    progress: &mut dyn FnMut(usize, usize),
) -> Vec<Entry> {
    let seeds = config.seeds.clone();
    let counts = seeds.clone().count();
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        tablebase_dir: None,
    });
    let mut rng = SplitMix::new(config.seed ^ 0xACC0_0AC1);
    let openings = Opening::random(config.plies, config.max_games, config.seed);
    let mut out: Vec<Entry> = Vec::new();
    let mut played = 0;
    for source in [Source::SelfPlay, Source::Levels] {
        let mut have = vec![0usize; counts];
        for (g, opening) in openings.iter().enumerate() {
            if have.iter().all(|&h| h >= config.per_count) {
                break;
            }
            let game = match source {
                Source::SelfPlay => {
                    selfplay::play(&mut engine, opening, config.depth, &mut rng, &mut |_, _| {})
                }
                Source::Levels => {
                    let pair = config.level_pairs[g % config.level_pairs.len()];
                    level_game(&mut engine, opening, pair, rng.next_u64())
                }
            };
            played += 1;
            // Candidates by seed count: (ply, position) of positions where
            // the game is still on.
            let mut by_count: Vec<Vec<(usize, Position)>> = vec![Vec::new(); counts];
            let positions = game.positions();
            for (ply, pos) in positions.iter().enumerate() {
                let over = ply + 1 == positions.len() && game.is_over();
                let n = pos.seeds_on_board();
                if over || !seeds.contains(&n) || pos.legal_moves().is_empty() {
                    continue;
                }
                by_count[(n - seeds.start()) as usize].push((ply, *pos));
            }
            for (c, list) in by_count.iter_mut().enumerate() {
                if have[c] >= config.per_count || list.is_empty() {
                    continue;
                }
                let order: Vec<(usize, Position)> = if config.open_only {
                    // Every candidate, in a random order (Fisher-Yates).
                    for i in (1..list.len()).rev() {
                        list.swap(i, rng.below(i as u64 + 1) as usize);
                    }
                    list.clone()
                } else {
                    vec![list[rng.below(list.len() as u64) as usize]]
                };
                for (ply, pos) in order {
                    if out.iter().any(|e| e.pos == pos) {
                        continue;
                    }
                    let Some((value, moves)) = exact_values(tables, &pos) else {
                        continue;
                    };
                    if moves.iter().all(|&(_, v)| v == value) {
                        continue;
                    }
                    let entry = Entry {
                        pos,
                        source,
                        ply: ply as u16,
                        value,
                        moves,
                    };
                    if config.open_only && !entry.is_open() {
                        continue;
                    }
                    have[c] += 1;
                    out.push(entry);
                    break;
                }
            }
            progress(played, out.len());
        }
    }
    out.sort_by_key(|e| (e.pos.seeds_on_board(), e.source.name(), e.ply));
    out
}

/// A mismatch between the set and the tables.
#[derive(Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The position.
    pub pos: Position,
    /// What differs.
    pub reason: String,
}

/// Re-reads every value of the entries the tables cover from `tables`.
/// Returns how many entries were checked, or the first mismatch.
pub fn check(entries: &[Entry], tables: &Tablebase) -> Result<usize, Mismatch> {
    let mut checked = 0;
    for e in entries {
        if tables.probe(&e.pos).is_none() {
            continue;
        }
        let mismatch = |reason: String| Mismatch { pos: e.pos, reason };
        let Some((value, moves)) = exact_values(tables, &e.pos) else {
            return Err(mismatch("the tables do not give exact values".into()));
        };
        if value != e.value {
            return Err(mismatch(format!("value {value}, the set says {}", e.value)));
        }
        if moves != e.moves {
            return Err(mismatch(format!(
                "move values {moves:?}, the set says {:?}",
                e.moves
            )));
        }
        checked += 1;
    }
    Ok(checked)
}

/// One search of the benchmark.
#[derive(Clone, Copy, Debug)]
pub struct Pick {
    /// Seeds given away (0: the value kept).
    pub loss: u8,
    /// The move keeps the game's result (win, draw, loss).
    pub result_kept: bool,
    /// Nodes searched.
    pub nodes: u64,
    /// Depth reached.
    pub depth: u32,
    /// Time spent.
    pub time: Duration,
}

/// Lets a fresh engine (its table cleared, no tables, no book, the given
/// network) choose a move in every position within `limits`; `each` sees
/// every pick. The result is in the order of `entries`.
pub fn measure(
    entries: &[Entry],
    engine: &mut Engine,
    limits: &Limits,
    each: &mut dyn FnMut(usize, &Pick),
) -> Vec<Pick> {
    engine.set_tablebase(None);
    engine.set_book(None);
    let mut out = Vec::with_capacity(entries.len());
    for (i, e) in entries.iter().enumerate() {
        engine.new_game();
        let game = Game::new(e.pos);
        let started = Instant::now();
        let r = engine.search(&game, limits, &mut |_| {});
        let time = started.elapsed();
        let mv = r.best.expect("the set's positions have legal moves");
        let pick = Pick {
            loss: e.loss(mv).expect("the engine plays legal moves"),
            result_kept: e.keeps_result(mv).expect("a legal move"),
            nodes: r.nodes,
            depth: r.depth,
            time,
        };
        each(i, &pick);
        out.push(pick);
    }
    out
}

/// How the picks that miss the tables' value split (see [`report`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Misses {
    /// Picks that change the game's result (win, draw, loss).
    pub result: usize,
    /// Picks in won positions that keep the win with fewer seeds by the
    /// tables' count, which goes on past 25 captured (R10 left out).
    pub smaller_win: usize,
    /// Picks in drawn or lost positions that keep the result but not the
    /// value.
    pub other: usize,
}

/// Splits the picks that miss the value by what they miss. The tables'
/// value counts the seeds a player would end with if the game went on
/// after a store reached 25 (docs/TABLEBASE.md), so in a won position it
/// can prefer a move that wins later, and by less when the game stops at
/// 25, over one that wins at once: of the two, the rules reward the second.
pub fn misses(entries: &[Entry], picks: &[Pick]) -> Misses {
    let mut m = Misses::default();
    for (e, p) in entries.iter().zip(picks) {
        if p.loss == 0 {
            continue;
        }
        if !p.result_kept {
            m.result += 1;
        } else if e.result_of(e.value) == 1 {
            m.smaller_win += 1;
        } else {
            m.other += 1;
        }
    }
    m
}

/// Share of kept values and mean loss of one group, with standard errors.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Summary {
    /// Positions.
    pub n: usize,
    /// Share of positions where the chosen move keeps the value.
    pub kept: f64,
    /// Its standard error, sqrt(p(1-p)/n).
    pub kept_se: f64,
    /// Positions where it does not.
    pub missed: usize,
    /// Mean seeds given away over those.
    pub loss: f64,
    /// Its standard error (sample standard deviation / sqrt(missed)).
    pub loss_se: f64,
    /// Mean seeds given away over all positions.
    pub loss_all: f64,
}

/// Summarises `losses` (seeds given away, one per position).
pub fn summarise(losses: &[u8]) -> Summary {
    let n = losses.len();
    if n == 0 {
        return Summary::default();
    }
    let kept = losses.iter().filter(|&&l| l == 0).count();
    let p = kept as f64 / n as f64;
    let missed: Vec<f64> = losses
        .iter()
        .filter(|&&l| l > 0)
        .map(|&l| l as f64)
        .collect();
    let m = missed.len();
    let (loss, loss_se) = if m == 0 {
        (0.0, 0.0)
    } else {
        let mean = missed.iter().sum::<f64>() / m as f64;
        let se = if m > 1 {
            let var = missed.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (m - 1) as f64;
            (var / m as f64).sqrt()
        } else {
            0.0
        };
        (mean, se)
    };
    Summary {
        n,
        kept: p,
        kept_se: (p * (1.0 - p) / n as f64).sqrt(),
        missed: m,
        loss,
        loss_se,
        loss_all: losses.iter().map(|&l| l as f64).sum::<f64>() / n as f64,
    }
}

/// Share of `flags` that are true and its standard error, sqrt(p(1-p)/n).
pub fn share(flags: &[bool]) -> (f64, f64) {
    let n = flags.len();
    if n == 0 {
        return (0.0, 0.0);
    }
    let p = flags.iter().filter(|&&k| k).count() as f64 / n as f64;
    (p, (p * (1.0 - p) / n as f64).sqrt())
}

/// The report: totals, then by seed count, by phase and by source. Each
/// row gives the share of moves that keep the game's result (win, draw,
/// loss; the measure that decides games, and the primary one on set
/// version 2, whose results are all open) and the share that keep the
/// exact value, each with its standard error, and the seeds given away.
pub fn report(entries: &[Entry], picks: &[Pick]) -> String {
    let mut s = String::new();
    let row = |s: &mut String, label: &str, chosen: &[&Pick]| {
        let losses: Vec<u8> = chosen.iter().map(|p| p.loss).collect();
        let results: Vec<bool> = chosen.iter().map(|p| p.result_kept).collect();
        let x = summarise(&losses);
        let (r, r_se) = share(&results);
        let _ = writeln!(
            s,
            "{label:<14} {:>5} {:>6.1} % ± {:>4.1} {:>6.1} % ± {:>4.1}  {:>5}  {:>5.2} ± {:>4.2}  {:>5.3}",
            x.n,
            100.0 * r,
            100.0 * r_se,
            100.0 * x.kept,
            100.0 * x.kept_se,
            x.missed,
            x.loss,
            x.loss_se,
            x.loss_all
        );
    };
    let header = format!(
        "{:<14} {:>5} {:>16} {:>16}  {:>5}  {:>12}  {:>5}\n",
        "group", "n", "result ± se", "value ± se", "lost", "seeds ± se", "mean"
    );
    let chosen = |f: &dyn Fn(&Entry) -> bool| -> Vec<&Pick> {
        entries
            .iter()
            .zip(picks)
            .filter(|(e, _)| f(e))
            .map(|(_, p)| p)
            .collect()
    };
    let nodes: u64 = picks.iter().map(|p| p.nodes).sum();
    let time: Duration = picks.iter().map(|p| p.time).sum();
    let depth: u64 = picks.iter().map(|p| p.depth as u64).sum();
    let k = picks.len().max(1) as f64;
    let _ = writeln!(
        s,
        "{} positions, {} nodes ({:.0} a position), mean depth {:.1}, {:.1} s",
        picks.len(),
        nodes,
        nodes as f64 / k,
        depth as f64 / k,
        time.as_secs_f64()
    );
    s.push_str("result: the move keeps the game's result (win, draw, loss); value: it keeps\n");
    s.push_str("the tables' exact value; lost: positions where it does not keep the value,\n");
    s.push_str("seeds: mean seeds given away there; mean: seeds given away a position\n");
    let results: Vec<bool> = picks.iter().map(|p| p.result_kept).collect();
    let kept = results.iter().filter(|&&k| k).count();
    let (p, p_se) = share(&results);
    let decided = entries.iter().filter(|e| e.result_of(e.value) != 0).count();
    let open = entries.iter().filter(|e| e.is_open()).count();
    let _ = writeln!(
        s,
        "result (win, draw, loss) kept: {kept} of {} positions, {:.1} % ± {:.1}; \
         {decided} positions are won or lost under perfect play, {open} have a move \
         that changes the result",
        results.len(),
        100.0 * p,
        100.0 * p_se
    );
    let m = misses(entries, picks);
    let won = entries.iter().filter(|e| e.result_of(e.value) == 1).count();
    let n = picks.len();
    let kept_by_game = n - m.result - m.other;
    let _ = writeln!(
        s,
        "value missed in {} positions: {} change the result, {} keep a win with fewer seeds \
         by the tables' count (which goes on past 25 captured, R10 left out), {} keep a draw \
         or loss with fewer seeds; counting a kept win as kept ({won} positions are won), \
         the value is kept in {kept_by_game} of {n}, {:.1} %",
        m.result + m.smaller_win + m.other,
        m.result,
        m.smaller_win,
        m.other,
        100.0 * kept_by_game as f64 / n.max(1) as f64
    );
    s.push_str(&header);
    row(&mut s, "all", &chosen(&|_| true));
    let counts: std::collections::BTreeSet<u8> =
        entries.iter().map(|e| e.pos.seeds_on_board()).collect();
    for n in counts {
        row(
            &mut s,
            &format!("{n} seeds"),
            &chosen(&|e| e.pos.seeds_on_board() == n),
        );
    }
    for phase in [Phase::Early, Phase::Middle, Phase::Late] {
        row(&mut s, phase.name(), &chosen(&|e| e.phase() == phase));
    }
    for source in [Source::SelfPlay, Source::Levels] {
        row(&mut s, source.name(), &chosen(&|e| e.source == source));
    }
    s
}

/// The 64-bit FNV-1a hash of `bytes`: the set file's checksum, printed by
/// the benchmark and pinned by the tests.
pub fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_counts_and_errors() {
        let s = summarise(&[0, 0, 0, 2, 4]);
        assert_eq!(s.n, 5);
        assert!((s.kept - 0.6).abs() < 1e-12);
        assert!((s.kept_se - (0.6f64 * 0.4 / 5.0).sqrt()).abs() < 1e-12);
        assert_eq!(s.missed, 2);
        assert!((s.loss - 3.0).abs() < 1e-12);
        // sd of {2, 4} is sqrt(2), over sqrt(2): 1.
        assert!((s.loss_se - 1.0).abs() < 1e-12);
        assert!((s.loss_all - 1.2).abs() < 1e-12);
        assert_eq!(summarise(&[]), Summary::default());
    }

    #[test]
    fn misses_split_into_results_smaller_wins_and_the_rest() {
        // South holds 20 of the 48, 20 on the board: 5 more win, 4 draw.
        let won = "4-4-4-4-2-0-0-0-0-0-0-2-20-8-S selfplay 3 9 A:9,B:6,C:4,D:2,E:9";
        // The same board lost: 3 more make 23.
        let lost = "4-4-4-4-2-0-0-0-0-0-0-2-20-8-S selfplay 3 3 A:3,B:2,C:1,D:0,E:3";
        let set = read(&format!("{HEADER}\n{won}\n{lost}\n")).unwrap();
        assert_eq!(set[0].result_of(set[0].value), 1);
        assert_eq!(set[1].result_of(set[1].value), -1);
        let pick = |e: &Entry, mv: &str| {
            let mv: Move = mv.parse().unwrap();
            Pick {
                loss: e.loss(mv).unwrap(),
                result_kept: e.keeps_result(mv).unwrap(),
                nodes: 0,
                depth: 0,
                time: Duration::ZERO,
            }
        };
        // Won: A keeps the value, B a smaller win, C a draw, D a loss;
        // lost: B loses by one seed more.
        let entries = vec![
            set[0].clone(),
            set[0].clone(),
            set[0].clone(),
            set[0].clone(),
            set[1].clone(),
        ];
        let picks = [
            pick(&set[0], "A"),
            pick(&set[0], "B"),
            pick(&set[0], "C"),
            pick(&set[0], "D"),
            pick(&set[1], "B"),
        ];
        let m = misses(&entries, &picks);
        assert_eq!(
            m,
            Misses {
                result: 2,
                smaller_win: 1,
                other: 1
            }
        );
        let text = report(&entries, &picks);
        assert!(
            text.contains("value missed in 4 positions: 2 change the result, 1 keep a win"),
            "{text}"
        );
        assert!(
            text.contains("1 keep a draw or loss with fewer seeds"),
            "{text}"
        );
        assert!(
            text.contains("(4 positions are won), the value is kept in 2 of 5, 40.0 %"),
            "{text}"
        );
    }

    #[test]
    fn phases_by_ply() {
        assert_eq!(Phase::of_ply(0), Phase::Early);
        assert_eq!(Phase::of_ply(59), Phase::Early);
        assert_eq!(Phase::of_ply(60), Phase::Middle);
        assert_eq!(Phase::of_ply(100), Phase::Late);
    }

    #[test]
    fn bad_sets_are_refused_with_the_line() {
        assert_eq!(read("hello\n"), Err(SetError::Header));
        let pos = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S";
        let line = |rest: &str| format!("{HEADER}\n{pos} selfplay 3 {rest}\n");
        let err = |rest: &str| read(&line(rest)).unwrap_err().to_string();
        assert!(err("48").starts_with("line 2: 4 fields"), "{}", err("48"));
        assert!(err("49 A:1").contains("above the 48 seeds"));
        assert!(err("20 A:20").contains("1 moves given"));
        assert!(err("20 Z:20").contains("move `Z`"));
        assert!(err("20 A:21,B:1,C:1,D:1,E:1,F:1").contains("more than the position"));
        assert!(err("20 A:1,B:1,C:1,D:1,E:1,F:1").contains("no move keeps"));
        let ok = read(&line("20 A:20,B:1,C:1,D:1,E:1,F:1")).unwrap();
        assert_eq!(ok[0].loss("B".parse().unwrap()), Some(19));
        // No seeds in the stores: 20 of the 48 is a loss, as is 1.
        assert_eq!(ok[0].result_of(20), -1);
        assert_eq!(ok[0].keeps_result("B".parse().unwrap()), Some(true));
        assert_eq!(ok[0].result_of(24), 0);
        assert_eq!(ok[0].result_of(25), 1);
    }

    #[test]
    fn a_small_set_round_trips_and_checks_against_the_tables() {
        let tables = Tablebase::build_in_memory(10).unwrap();
        let config = GenConfig {
            per_count: 2,
            seeds: 9..=10,
            depth: 3,
            max_games: 30,
            level_pairs: vec![(Level::new(2), Level::new(4))],
            ..GenConfig::default()
        };
        let set = generate(&config, &tables, &mut |_, _| {});
        assert!(!set.is_empty());
        assert!(set
            .iter()
            .all(|e| (9..=10).contains(&e.pos.seeds_on_board())));
        let text = write(&set, 1);
        let back = read(&text).unwrap();
        assert_eq!(back, set);
        assert_eq!(check(&back, &tables), Ok(set.len()));
        // A wrong value is found.
        let mut bad = back.clone();
        bad[0].value -= 1;
        assert!(check(&bad, &tables).is_err());
        // Every position loses seeds with at least one move.
        assert!(set
            .iter()
            .all(|e| e.moves.iter().any(|&(_, v)| v < e.value)));
        let mut engine = Engine::new(EngineOptions::default());
        let picks = measure(&set, &mut engine, &Limits::depth(2), &mut |_, _| {});
        assert_eq!(picks.len(), set.len());
        let text = report(&set, &picks);
        assert!(text.contains("all"), "{text}");
    }

    #[test]
    fn open_only_draws_positions_whose_result_is_open() {
        let tables = Tablebase::build_in_memory(10).unwrap();
        let config = GenConfig {
            per_count: 2,
            seeds: 9..=10,
            depth: 3,
            max_games: 40,
            level_pairs: vec![(Level::new(2), Level::new(4))],
            open_only: true,
            ..GenConfig::default()
        };
        let set = generate(&config, &tables, &mut |_, _| {});
        assert!(!set.is_empty());
        assert!(set.iter().all(Entry::is_open));
        let text = write(&set, 2);
        assert!(text.starts_with(HEADER_V2));
        let back = read(&text).unwrap();
        assert_eq!(back, set);
        assert_eq!(check(&back, &tables), Ok(set.len()));
        let picks = measure(
            &set,
            &mut Engine::new(EngineOptions::default()),
            &Limits::depth(2),
            &mut |_, _| {},
        );
        assert_eq!(picks.len(), set.len());
        assert!(report(&set, &picks).contains("have a move that changes the result"));
    }

    #[test]
    fn open_means_a_move_changes_the_result() {
        let pos = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S";
        let line = |rest: &str| format!("{HEADER_V2}\n{pos} selfplay 3 {rest}\n");
        // 25 of the 48 is a win, 24 a draw: B changes the result.
        let open = read(&line("25 A:25,B:24,C:25,D:25,E:25,F:25")).unwrap();
        assert!(open[0].is_open());
        assert_eq!(open[0].keeps_result("B".parse().unwrap()), Some(false));
        // Every move loses seeds but keeps the loss: not open.
        let closed = read(&line("20 A:20,B:1,C:1,D:1,E:1,F:1")).unwrap();
        assert!(!closed[0].is_open());
    }
}
