//! Measuring the coach (`oware coach-rate`): how often it warns in games
//! between playing levels, and whether a player who follows it does better.
//!
//! Every game is played by two levels of the engine from the start
//! position, each colour in turn; the level's seed varies the games. Every
//! move a level plays is judged by the coach (`oware_session::analysis`)
//! with the given budget, and the verdicts are counted per level.
//!
//! A *follower* plays as its level would, except that when the coach warns
//! about the move its level chose, it asks the coach: the engine coach
//! ("after") answers with its best move; the old capture coach ("before",
//! the 1-ply `gives_capture`/`misses_capture` warnings the web app showed)
//! with the first legal move it does not warn about, if there is one.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use oware_core::{Game, Move, Position, Side};
use oware_engine::{Engine, EngineOptions, Level, Limits, StopHandle};
use oware_session::{coach, AnalysisCache, Budget, Verdict};

/// Which coach a follower follows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Follow {
    /// Nobody follows: both sides play their level.
    Nobody,
    /// The engine coach: a warned move is replaced by its best move.
    Engine,
    /// The old 1-ply capture coach: a warned move is replaced by the first
    /// legal move it does not warn about.
    Capture,
}

/// What to measure.
#[derive(Clone, Debug)]
pub struct Config {
    /// The level of South in even games (colours alternate).
    pub first: Level,
    /// The other level.
    pub second: Level,
    /// Games to play.
    pub games: usize,
    /// The coach's budget.
    pub budget: Budget,
    /// Seed of the levels' choices.
    pub seed: u64,
    /// Whether `first` follows a coach.
    pub follow: Follow,
}

/// Verdict counts for one level's moves.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Moves judged, by verdict.
    pub verdicts: BTreeMap<Verdict, usize>,
    /// Moves judged.
    pub moves: usize,
    /// Moves the follower changed on the coach's word.
    pub changed: usize,
}

impl Tally {
    /// Moves warned about (mistake and blunder).
    pub fn warnings(&self) -> usize {
        self.verdicts
            .iter()
            .filter(|(v, _)| v.is_warning())
            .map(|(_, n)| n)
            .sum()
    }
}

/// The measurement's result.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// `first`'s moves.
    pub first: Tally,
    /// `second`'s moves.
    pub second: Tally,
    /// `first`'s points (1 a win, ½ a draw) and games.
    pub points: f64,
    /// Games played.
    pub games: usize,
    /// Analyses run (cache misses) and their total time.
    pub analyses: usize,
    /// Time spent analysing.
    pub analysis_time: Duration,
}

/// Games longer than this are stopped by agreement.
const MAX_PLIES: usize = 400;

/// The first legal move the old capture coach does not warn about.
fn capture_coach_choice(game: &Game, chosen: Move) -> Move {
    let warned = |mv: Move| {
        let gives = coach::threat(game, mv).is_some();
        let mut g = game.clone();
        let took = g.play(mv).unwrap_or(0);
        gives || coach::best_capture(game) > took
    };
    if !warned(chosen) {
        return chosen;
    }
    game.legal_moves()
        .into_iter()
        .find(|&m| !warned(m))
        .unwrap_or(chosen)
}

/// Plays the games and counts the coach's verdicts; `progress` is called
/// after each game with the report so far.
pub fn measure(config: &Config, progress: &mut dyn FnMut(&Report)) -> Report {
    let options = EngineOptions {
        hash_mb: 16,
        tablebase_dir: None,
    };
    let mut players = [Engine::new(options.clone()), Engine::new(options.clone())];
    let mut coach_engine = Engine::new(options);
    let mut cache = AnalysisCache::new(4096);
    let stop = StopHandle::default();
    let mut report = Report::default();
    for g in 0..config.games {
        // Even games: `first` is South.
        let first_side = if g % 2 == 0 { Side::South } else { Side::North };
        let mut game = Game::new(Position::start());
        for p in &mut players {
            p.new_game();
        }
        while !game.is_over() && game.plies().len() < MAX_PLIES {
            let side = game.position().to_move();
            let is_first = side == first_side;
            let level = if is_first {
                config.first
            } else {
                config.second
            };
            let limits = Limits {
                seed: config
                    .seed
                    .wrapping_mul(1_000_003)
                    .wrapping_add((g * 1000 + game.plies().len()) as u64),
                ..Limits::level(level)
            };
            let engine = &mut players[usize::from(!is_first)];
            let r = engine.search(&game, &limits, &mut |_| {});
            let Some(mut mv) = r.best.filter(|&m| game.legal_moves().contains(m)) else {
                break;
            };
            let started = Instant::now();
            let before = cache.len();
            let analysis = cache
                .analyse(&mut coach_engine, &game, config.budget, &stop)
                .expect("the game is running and nothing stops the analysis");
            if cache.len() != before {
                report.analyses += 1;
                report.analysis_time += started.elapsed();
            }
            let tally = if is_first {
                &mut report.first
            } else {
                &mut report.second
            };
            if is_first {
                let chosen = mv;
                match config.follow {
                    Follow::Nobody => {}
                    Follow::Engine => {
                        if analysis.judge(mv).is_some_and(|j| j.is_warning()) {
                            mv = analysis.best().mv;
                        }
                    }
                    Follow::Capture => mv = capture_coach_choice(&game, mv),
                }
                tally.changed += usize::from(mv != chosen);
            }
            let j = analysis.judge(mv).expect("a legal move");
            *tally.verdicts.entry(j.verdict).or_default() += 1;
            tally.moves += 1;
            game.play(mv).expect("legal");
        }
        if !game.is_over() {
            let _ = game.agree_to_stop();
        }
        let winner = game.outcome().and_then(|o| o.winner);
        report.points += match winner {
            None => 0.5,
            Some(w) if w == first_side => 1.0,
            Some(_) => 0.0,
        };
        report.games += 1;
        progress(&report);
    }
    report
}

/// A budget in words: "depth 14", "depth 14, close moves to 18", or, when
/// the deeper look depends on the seeds on the board, each look: "depth
/// 14; up to 30 seeds the moves within 2.5 of the best to 20; ...".
pub fn depth_words(budget: Budget) -> String {
    let look = |l: Option<oware_session::Look>| match l.filter(|l| l.depth > budget.depth) {
        None => "no deeper look".to_string(),
        Some(l) if l.moves > 0 => format!(
            "the {} best within {} of the best to {}",
            l.moves,
            l.margin(),
            l.depth
        ),
        Some(l) => format!("the moves within {} of the best to {}", l.margin(), l.depth),
    };
    let looks = [budget.ending, budget.middle, budget.opening];
    if looks
        .iter()
        .all(|l| l.filter(|l| l.depth > budget.depth).is_none())
    {
        format!("depth {}", budget.depth)
    } else if looks.iter().all(|l| *l == looks[0]) {
        format!("depth {}, {}", budget.depth, look(looks[0]))
    } else {
        format!(
            "depth {}; up to {} seeds {}; {} to {} seeds {}; from {} seeds {}",
            budget.depth,
            Budget::ENDING,
            look(budget.ending),
            Budget::ENDING + 1,
            Budget::OPENING - 1,
            look(budget.middle),
            Budget::OPENING,
            look(budget.opening)
        )
    }
}

/// The report as lines of text.
pub fn format(config: &Config, report: &Report) -> String {
    let mut out = String::new();
    let line = |name: String, t: &Tally| {
        let pct = |n: usize| 100.0 * n as f64 / t.moves.max(1) as f64;
        let counts: Vec<String> = t
            .verdicts
            .iter()
            .map(|(v, n)| format!("{} {n} ({:.1} %)", v.code(), pct(*n)))
            .collect();
        format!(
            "{name}: {} moves, warned {} ({:.1} %, one in {:.1}); {}{}\n",
            t.moves,
            t.warnings(),
            pct(t.warnings()),
            t.moves as f64 / t.warnings().max(1) as f64,
            counts.join(", "),
            if t.changed > 0 {
                format!("; {} moves changed on the coach's word", t.changed)
            } else {
                String::new()
            }
        )
    };
    let follow = match config.follow {
        Follow::Nobody => "",
        Follow::Engine => " following the engine coach",
        Follow::Capture => " following the capture coach",
    };
    out.push_str(&line(
        format!("level {}{follow}", config.first.get()),
        &report.first,
    ));
    out.push_str(&line(
        format!("level {}", config.second.get()),
        &report.second,
    ));
    out.push_str(&format!(
        "games {}: level {}{follow} scored {:.1} points ({:.1} %)\n",
        report.games,
        config.first.get(),
        report.points,
        100.0 * report.points / report.games.max(1) as f64
    ));
    out.push_str(&format!(
        "coach: {}, {} analyses, {:.0} ms each on average\n",
        depth_words(config.budget),
        report.analyses,
        report.analysis_time.as_secs_f64() * 1000.0 / report.analyses.max(1) as f64
    ));
    out
}

/// The coach judged by the endgame tables' exact values (`oware tune
/// coach-check`, issue 36): positions of the accuracy sets drawn from
/// games between the engine's levels, each analysed by the coach as the
/// start of a game, every verdict compared with what the move does to the
/// game's result under perfect play.
#[derive(Clone, Debug, Default)]
pub struct TableCheck {
    /// Positions judged.
    pub positions: usize,
    /// Positions where the coach's best move keeps the tables' result
    /// (best or good by the tables: on the coach's decided scale a move
    /// that keeps a win, a draw or a loss loses nothing).
    pub best_keeps_result: usize,
    /// Positions where the coach's best move keeps the tables' exact value
    /// (every seed).
    pub best_keeps_value: usize,
    /// Legal moves judged.
    pub moves: usize,
    /// Moves the coach warns about (mistake or blunder).
    pub warned: usize,
    /// Moves that change the game's result (a win to a draw or a loss, a
    /// draw to a loss), by the tables.
    pub throws: usize,
    /// Of those, the moves the coach warns about.
    pub throws_warned: usize,
    /// Moves the tables win, called a mistake or a blunder.
    pub win_called_mistake: Vec<String>,
    /// Moves the tables lose, where another move does not lose, called
    /// best or good.
    pub loss_called_good: Vec<String>,
    /// Positions where the coach's best move changes the result.
    pub misses: Vec<String>,
    /// Time spent.
    pub elapsed: Duration,
}

/// Analyses each of `entries` with `engine` (its tables are the coach's)
/// at `budget` and compares the coach's verdicts with the entries' exact
/// values; `progress` is called after each position.
pub fn check_against_tables(
    entries: &[crate::accuracy::Entry],
    engine: &mut Engine,
    budget: Budget,
    progress: &mut dyn FnMut(&TableCheck),
) -> TableCheck {
    let started = Instant::now();
    let stop = StopHandle::default();
    let mut out = TableCheck::default();
    for entry in entries {
        let game = Game::new(entry.pos);
        let Ok(a) = oware_session::Analysis::run(engine, &game, budget, &stop) else {
            continue;
        };
        out.positions += 1;
        let best = a.best().mv;
        let result = entry.result_of(entry.value);
        if entry.keeps_result(best) == Some(true) {
            out.best_keeps_result += 1;
        } else {
            out.misses.push(format!("{} {}", entry.pos, best.letter()));
        }
        if entry.loss(best) == Some(0) {
            out.best_keeps_value += 1;
        }
        for j in a.judgements() {
            let Some(&(_, v)) = entry.moves.iter().find(|(m, _)| *m == j.mv) else {
                continue;
            };
            out.moves += 1;
            let warned = j.verdict.is_warning();
            out.warned += usize::from(warned);
            let r = entry.result_of(v);
            if r != result {
                out.throws += 1;
                out.throws_warned += usize::from(warned);
            }
            let said = || format!("{} {}: {}", entry.pos, j.mv.letter(), j.verdict.code());
            if r == 1 && warned {
                out.win_called_mistake.push(said());
            }
            if r == -1 && result > -1 && j.verdict <= Verdict::Good {
                out.loss_called_good.push(said());
            }
        }
        out.elapsed = started.elapsed();
        progress(&out);
    }
    out
}

/// The report of [`check_against_tables`] in words.
pub fn format_table_check(c: &TableCheck, tables: u8, budget: Budget) -> String {
    let pct = |n: usize, of: usize| 100.0 * n as f64 / of.max(1) as f64;
    let mut s = format!(
        "coach at {}, tables of {tables} seeds, {} positions, {:.1} s\n",
        depth_words(budget),
        c.positions,
        c.elapsed.as_secs_f64()
    );
    s += &format!(
        "best move keeps the tables' result (best or good): {} ({:.1} %)\n",
        c.best_keeps_result,
        pct(c.best_keeps_result, c.positions)
    );
    s += &format!(
        "best move keeps the exact value: {} ({:.1} %)\n",
        c.best_keeps_value,
        pct(c.best_keeps_value, c.positions)
    );
    s += &format!(
        "moves judged {}, warned {} ({:.1} %, one in {:.1})\n",
        c.moves,
        c.warned,
        pct(c.warned, c.moves),
        c.moves as f64 / c.warned.max(1) as f64
    );
    s += &format!(
        "moves that change the result {}, warned {} ({:.1} %)\n",
        c.throws,
        c.throws_warned,
        pct(c.throws_warned, c.throws)
    );
    s += &format!(
        "table wins called a mistake: {}; table losses called good: {}\n",
        c.win_called_mistake.len(),
        c.loss_called_good.len()
    );
    for line in c.win_called_mistake.iter().chain(&c.loss_called_good) {
        s += &format!("  {line}\n");
    }
    s += &format!("best moves that change the result: {}\n", c.misses.len());
    for line in &c.misses {
        s += &format!("  {line}\n");
    }
    s
}

/// Positions of the shipped accuracy sets that come from games between
/// the engine's levels, newest set first, each position once, at most `n`.
pub fn level_game_positions(n: usize) -> Vec<crate::accuracy::Entry> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for version in (1..=crate::accuracy::LATEST).rev() {
        let Some(text) = crate::accuracy::shipped(version) else {
            continue;
        };
        let Ok(entries) = crate::accuracy::read(text) else {
            continue;
        };
        for e in entries {
            if out.len() < n
                && e.source == crate::accuracy::Source::Levels
                && seen.insert(e.pos.to_string())
            {
                out.push(e);
            }
        }
    }
    out
}

/// Positions drawn from games between the engine's levels, of every seed
/// count from the opening to the endgame (`oware tune coach-check
/// --reference-depth`): games between levels 3 to 8 (pairs in turn,
/// seeded), one position every [`STRIDE`] plies from an offset that
/// moves with the game, each position once, at most `n`.
pub fn level_game_sample(n: usize, seed: u64) -> Vec<Position> {
    const PAIRS: [(u8, u8); 6] = [(5, 5), (3, 4), (6, 8), (4, 6), (7, 7), (8, 5)];
    let options = EngineOptions {
        hash_mb: 16,
        tablebase_dir: None,
    };
    let mut players = [Engine::new(options.clone()), Engine::new(options)];
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut g = 0usize;
    // A bound on the games, in case few positions are new.
    while out.len() < n && g < 50 * n.max(1) {
        let (a, b) = PAIRS[g % PAIRS.len()];
        let mut game = Game::new(Position::start());
        for p in &mut players {
            p.new_game();
        }
        while !game.is_over() && game.plies().len() < MAX_PLIES && out.len() < n {
            let ply = game.plies().len();
            if ply % STRIDE == g % STRIDE
                && !game.legal_moves().is_empty()
                && seen.insert(game.position().to_string())
            {
                out.push(*game.position());
            }
            let south = game.position().to_move() == Side::South;
            let level = Level::new(if south { a } else { b });
            let limits = Limits {
                seed: seed
                    .wrapping_mul(1_000_003)
                    .wrapping_add((g * 1000 + ply) as u64),
                ..Limits::level(level)
            };
            let r = players[usize::from(!south)].search(&game, &limits, &mut |_| {});
            let Some(mv) = r.best.filter(|&m| game.legal_moves().contains(m)) else {
                break;
            };
            game.play(mv).expect("legal");
        }
        g += 1;
    }
    out
}

/// Plies between two positions drawn from one game.
const STRIDE: usize = 7;

/// A reference analysis: every legal move's value by a deep search with
/// tables (what the coach is measured against), kept as text so a long
/// run is done once (`--reference FILE`).
#[derive(Clone, Debug, PartialEq)]
pub struct Reference {
    /// The position, analysed as the start of a game.
    pub position: Position,
    /// Every legal move's value, best first.
    pub moves: Vec<(Move, oware_session::ScoreKind)>,
}

impl Reference {
    /// The reference analysis of `position` by `engine` (its tables are
    /// the reference's) at `budget`; `None` if the game is over there.
    pub fn run(engine: &mut Engine, position: Position, budget: Budget) -> Option<Reference> {
        let a = oware_session::Analysis::run(
            engine,
            &Game::new(position),
            budget,
            &StopHandle::default(),
        )
        .ok()?;
        Some(Reference {
            position,
            moves: a.moves.iter().map(|m| (m.mv, m.kind)).collect(),
        })
    }

    /// The reference's verdict on `mv` (the coach's rule,
    /// [`Verdict::of_values`], on the reference's values).
    pub fn verdict(&self, mv: Move) -> Option<Verdict> {
        let best = self.moves.first()?.1;
        let value = self.moves.iter().find(|(m, _)| *m == mv)?.1;
        Some(Verdict::of_values(best, value))
    }

    /// One line of text: the position, then `move:kind` for each move
    /// (`v1.25` an estimate in seeds, `w7`/`l7` a result proven in 7
    /// plies, `tw`/`tl`/`td` the tables' result, `d` a drawn end).
    pub fn to_line(&self) -> String {
        use oware_session::ScoreKind as K;
        let mut s = self.position.to_string();
        for (mv, kind) in &self.moves {
            let k = match *kind {
                K::Value { seeds } => format!("v{seeds}"),
                K::Win { plies } => format!("w{plies}"),
                K::Loss { plies } => format!("l{plies}"),
                K::TablebaseWin => "tw".into(),
                K::TablebaseLoss => "tl".into(),
                K::TablebaseDraw => "td".into(),
                K::Draw => "d".into(),
            };
            s += &format!(" {}:{k}", mv.letter());
        }
        s
    }

    /// Reads a line of [`to_line`](Self::to_line); `None` if it is not one.
    pub fn from_line(line: &str) -> Option<Reference> {
        use oware_session::ScoreKind as K;
        let mut words = line.split_whitespace();
        let position: Position = words.next()?.parse().ok()?;
        let mut moves = Vec::new();
        for w in words {
            let (m, k) = w.split_once(':')?;
            let mv = Move::from_letter(m.chars().next()?)?;
            let kind = match k {
                "tw" => K::TablebaseWin,
                "tl" => K::TablebaseLoss,
                "td" => K::TablebaseDraw,
                "d" => K::Draw,
                _ => match k.split_at(1) {
                    ("v", n) => K::Value {
                        seeds: n.parse().ok()?,
                    },
                    ("w", n) => K::Win {
                        plies: n.parse().ok()?,
                    },
                    ("l", n) => K::Loss {
                        plies: n.parse().ok()?,
                    },
                    _ => return None,
                },
            };
            moves.push((mv, kind));
        }
        (!moves.is_empty()).then_some(Reference { position, moves })
    }
}

/// The reference analyses of `positions`, read from `file` where it holds
/// them and searched (on `threads` engines opened by `engine`) and added
/// to it where it does not; in the order of `positions`. `progress` is
/// called with the count done after each new one.
pub fn references(
    positions: &[Position],
    budget: Budget,
    file: Option<&std::path::Path>,
    threads: usize,
    engine: &(dyn Fn() -> Engine + Sync),
    progress: &(dyn Fn(usize) + Sync),
) -> std::io::Result<Vec<Reference>> {
    use std::io::Write;
    use std::sync::Mutex;
    let mut known: std::collections::HashMap<String, Reference> = Default::default();
    if let Some(path) = file {
        if let Ok(text) = std::fs::read_to_string(path) {
            for r in text.lines().filter_map(Reference::from_line) {
                known.insert(r.position.to_string(), r);
            }
        }
    }
    let todo: Vec<Position> = positions
        .iter()
        .filter(|p| !known.contains_key(&p.to_string()))
        .copied()
        .collect();
    let out = match file {
        Some(path) => Some(Mutex::new(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)?,
        )),
        None => None,
    };
    let next = std::sync::atomic::AtomicUsize::new(0);
    let found = Mutex::new(Vec::new());
    let failed = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                let mut e = None;
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(&p) = todo.get(i) else { break };
                    let e = e.get_or_insert_with(engine);
                    let Some(r) = Reference::run(e, p, budget) else {
                        continue;
                    };
                    if let Some(out) = &out {
                        let mut f = out.lock().unwrap_or_else(|e| e.into_inner());
                        if let Err(e) = writeln!(f, "{}", r.to_line()) {
                            *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                        }
                    }
                    let mut found = found.lock().unwrap_or_else(|e| e.into_inner());
                    found.push(r);
                    progress(found.len());
                }
            });
        }
    });
    if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    for r in found.into_inner().unwrap_or_else(|e| e.into_inner()) {
        known.insert(r.position.to_string(), r);
    }
    Ok(positions
        .iter()
        .filter_map(|p| known.get(&p.to_string()).cloned())
        .collect())
}

/// The coach against a deeper search (issue 36): for each position, is
/// the coach's best move best or good by the reference, and what does the
/// coach call the moves the reference's tables win or lose.
#[derive(Clone, Debug, Default)]
pub struct ReferenceCheck {
    /// Positions judged.
    pub positions: usize,
    /// Positions where the coach's best move is best or good by the
    /// reference.
    pub best_good: usize,
    /// Positions where it is the reference's best (or as good).
    pub best_best: usize,
    /// By seeds on the board (up to 12, 13-20, 21-30, 31-48): positions
    /// and best-or-good.
    pub bands: [(usize, usize); 4],
    /// Legal moves judged, and warned about by the coach.
    pub moves: usize,
    /// Moves the coach warns about.
    pub warned: usize,
    /// Moves the reference warns about, and of those the coach too.
    pub ref_warned: usize,
    /// Moves both warn about.
    pub both_warned: usize,
    /// Table wins (by the reference's tables) the coach calls a mistake
    /// or a blunder where its own tables decide the move.
    pub win_called_mistake_decided: Vec<String>,
    /// The same where the coach's tables do not reach the move.
    pub win_called_mistake_open: Vec<String>,
    /// Table losses (another move not lost) called best or good where the
    /// coach's tables decide the move.
    pub loss_called_good_decided: Vec<String>,
    /// The same where they do not reach it.
    pub loss_called_good_open: Vec<String>,
    /// Positions whose coach's best move is worse than good by the
    /// reference: the position, the coach's move, the reference's verdict
    /// and best move.
    pub misses: Vec<String>,
    /// Time spent by the coach.
    pub elapsed: Duration,
}

/// The band of [`ReferenceCheck::bands`] of a position.
fn band(p: &Position) -> usize {
    match p.seeds_on_board() {
        0..=12 => 0,
        13..=20 => 1,
        21..=30 => 2,
        _ => 3,
    }
}

/// Analyses each reference's position with `engine` (the coach's tables)
/// at `budget`, as the start of a game, and judges its verdicts by the
/// reference.
pub fn check_against_reference(
    refs: &[Reference],
    engine: &mut Engine,
    budget: Budget,
) -> ReferenceCheck {
    let started = Instant::now();
    let stop = StopHandle::default();
    let mut out = ReferenceCheck::default();
    for r in refs {
        let Ok(a) = oware_session::Analysis::run(engine, &Game::new(r.position), budget, &stop)
        else {
            continue;
        };
        out.positions += 1;
        let b = band(&r.position);
        out.bands[b].0 += 1;
        let best = a.best().mv;
        let verdict = r.verdict(best).unwrap_or(Verdict::Blunder);
        if verdict <= Verdict::Good {
            out.best_good += 1;
            out.bands[b].1 += 1;
        } else {
            out.misses.push(format!(
                "{} {}: {} (reference: {})",
                r.position,
                best.letter(),
                verdict.code(),
                r.moves[0].0.letter()
            ));
        }
        out.best_best += usize::from(verdict == Verdict::Best);
        let ref_best = r.moves[0].1;
        for j in a.judgements() {
            let Some(&(_, kind)) = r.moves.iter().find(|(m, _)| *m == j.mv) else {
                continue;
            };
            out.moves += 1;
            let warned = j.is_warning();
            let ref_warned = Verdict::of_values(ref_best, kind).is_warning();
            out.warned += usize::from(warned);
            out.ref_warned += usize::from(ref_warned);
            out.both_warned += usize::from(warned && ref_warned);
            let decided = matches!(
                j.value.kind,
                oware_session::ScoreKind::TablebaseWin
                    | oware_session::ScoreKind::TablebaseLoss
                    | oware_session::ScoreKind::TablebaseDraw
            );
            let said = || format!("{} {}: {}", r.position, j.mv.letter(), j.verdict.code());
            if kind == oware_session::ScoreKind::TablebaseWin && warned {
                if decided {
                    out.win_called_mistake_decided.push(said());
                } else {
                    out.win_called_mistake_open.push(said());
                }
            }
            if kind == oware_session::ScoreKind::TablebaseLoss
                && !ref_best.is_proven_loss()
                && j.verdict <= Verdict::Good
            {
                if decided {
                    out.loss_called_good_decided.push(said());
                } else {
                    out.loss_called_good_open.push(said());
                }
            }
        }
    }
    out.elapsed = started.elapsed();
    out
}

/// The report of [`check_against_reference`] in words.
pub fn format_reference_check(
    c: &ReferenceCheck,
    tables: u8,
    budget: Budget,
    reference: &str,
) -> String {
    let pct = |n: usize, of: usize| 100.0 * n as f64 / of.max(1) as f64;
    let mut s = format!(
        "coach at {}, tables of {tables} seeds, against {reference}: {} positions, {:.1} s ({:.0} ms a position)\n",
        depth_words(budget),
        c.positions,
        c.elapsed.as_secs_f64(),
        c.elapsed.as_secs_f64() * 1000.0 / c.positions.max(1) as f64
    );
    s += &format!(
        "best move best or good by the reference: {} ({:.1} %); the reference's best: {} ({:.1} %)\n",
        c.best_good,
        pct(c.best_good, c.positions),
        c.best_best,
        pct(c.best_best, c.positions)
    );
    for (name, (n, ok)) in [
        "up to 12 seeds",
        "13-20 seeds",
        "21-30 seeds",
        "31-48 seeds",
    ]
    .iter()
    .zip(c.bands)
    {
        s += &format!("  {name}: {ok} of {n} ({:.1} %)\n", pct(ok, n));
    }
    s += &format!(
        "moves judged {}, warned {} ({:.1} %); the reference warns {}, of them the coach {} ({:.1} %)\n",
        c.moves,
        c.warned,
        pct(c.warned, c.moves),
        c.ref_warned,
        c.both_warned,
        pct(c.both_warned, c.ref_warned)
    );
    s += &format!(
        "table wins called a mistake: {} where the coach's tables decide the move, {} where they do not reach it\n",
        c.win_called_mistake_decided.len(),
        c.win_called_mistake_open.len()
    );
    s += &format!(
        "table losses called good: {} where the coach's tables decide the move, {} where they do not reach it\n",
        c.loss_called_good_decided.len(),
        c.loss_called_good_open.len()
    );
    for line in c
        .win_called_mistake_decided
        .iter()
        .chain(&c.loss_called_good_decided)
        .chain(&c.loss_called_good_open)
    {
        s += &format!("  {line}\n");
    }
    s += &format!(
        "best moves worse than good by the reference: {}\n",
        c.misses.len()
    );
    for line in &c.misses {
        s += &format!("  {line}\n");
    }
    s
}
