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
        "coach: depth {}, {} analyses, {:.0} ms each on average\n",
        config.budget.depth,
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
        "coach at depth {}, tables of {tables} seeds, {} positions, {:.1} s\n",
        budget.depth,
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
