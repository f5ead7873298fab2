//! Building the puzzle set (`oware puzzle build`): positions from games
//! between the engine's levels (and any OGN records given), each examined
//! by `oware_session::puzzles::examine` at the check depth and again at a
//! deeper search, with the endgame tables. A position is kept when one
//! move leads every other by the margin at both depths, by the same move
//! and the same kind of proof. Everything is seeded: the same
//! configuration writes the same file.
//!
//! **Difficulty.** A puzzle's starting rating comes from the shallowest
//! search (no tables) whose best move is the solution: depth `d` in 1..=8
//! gives `700 + 150·d`, not found by depth 8 gives 2050; a solution that
//! captures nothing adds 100, and another move that captures more at once
//! (the greedy move is wrong) adds 200. The server's Glicko-2 ratings
//! start there.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use oware_core::{Game, Position, Record, Setup, Side};
use oware_engine::levels::SplitMix;
use oware_engine::{Engine, EngineOptions, Level, Limits, StopHandle};
use oware_session::analysis::{Analysis, Budget};
use oware_session::puzzles::{self, Claim, Proof, Puzzle, PuzzleSet, Theme, CLAIM_DEPTHS};
use oware_session::ScoreKind;

use crate::arena::Opening;

/// What to build.
#[derive(Clone, Debug)]
pub struct Config {
    /// Games per pair of levels.
    pub games: usize,
    /// The pairs of levels that play (each game alternates colours).
    pub pairs: Vec<(Level, Level)>,
    /// Random opening plies before the levels play.
    pub opening_plies: usize,
    /// Seed of the openings and the levels' choices.
    pub seed: u64,
    /// The depth every puzzle's margin must hold at (the test's).
    pub check_depth: u32,
    /// The deeper search that must agree.
    pub deep_depth: u32,
    /// Endgame tables built in memory up to this many seeds.
    pub tables: usize,
    /// Stop once this many puzzles are found.
    pub limit: usize,
    /// Game records to take positions from too.
    pub records: Vec<Record>,
    /// Puzzles wanted of each rare theme (feeding, starving, grand slam,
    /// repetition),
    /// from seeded positions built for it ([`themed_position`]), examined
    /// before the records and the games.
    pub themed: usize,
    /// Positions examined at most for each rare theme (of at most 20
    /// times as many draws).
    pub themed_tries: usize,
}

impl Default for Config {
    fn default() -> Self {
        let l = Level::new;
        Config {
            games: 16,
            pairs: vec![
                (l(1), l(3)),
                (l(2), l(4)),
                (l(3), l(5)),
                (l(4), l(6)),
                (l(5), l(7)),
                (l(6), l(8)),
                (l(2), l(7)),
                (l(3), l(8)),
            ],
            opening_plies: 4,
            seed: 1,
            check_depth: 10,
            deep_depth: 14,
            tables: 14,
            limit: 1200,
            records: Vec::new(),
            themed: 40,
            themed_tries: 3000,
        }
    }
}

/// What the build did.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Rare themes whose seeded positions were examined.
    pub themed: usize,
    /// Games played.
    pub games: usize,
    /// Distinct positions examined.
    pub positions: usize,
    /// Positions that passed the check depth.
    pub candidates: usize,
    /// Candidates the deep search confirmed.
    pub puzzles: usize,
    /// Of those, proved by the tables.
    pub by_tables: usize,
    /// Time spent building the tables.
    pub tables_time: Duration,
    /// Total time.
    pub time: Duration,
}

/// Games longer than this are stopped (a guard).
const MAX_PLIES: usize = 300;

/// The positions of one game between `south` and `north` from `opening`.
fn play_game(
    players: &mut [Engine; 2],
    opening: &Opening,
    levels: (Level, Level),
    seed: u64,
) -> Vec<Position> {
    let Ok(mut game) = Game::from_moves(opening.start, &opening.moves) else {
        return Vec::new();
    };
    for p in players.iter_mut() {
        p.new_game();
    }
    let mut rng = SplitMix::new(seed);
    while !game.is_over() && game.plies().len() < MAX_PLIES {
        let side = game.position().to_move();
        let (level, engine) = match side {
            Side::South => (levels.0, &mut players[0]),
            Side::North => (levels.1, &mut players[1]),
        };
        let depth = oware_engine::levels::profile(level).depth.unwrap_or(10);
        let limits = Limits {
            depth: Some(depth),
            level: Some(level),
            seed: rng.next_u64(),
            ..Limits::default()
        };
        let r = engine.search(&game, &limits, &mut |_| {});
        let Some(mv) = r.best.filter(|&m| game.legal_moves().contains(m)) else {
            break;
        };
        if game.play(mv).is_err() {
            break;
        }
    }
    game.positions().to_vec()
}

/// The rare themes the builder seeds positions for.
pub const RARE_THEMES: [Theme; 4] = [
    Theme::Feeding,
    Theme::Starving,
    Theme::GrandSlam,
    Theme::Repetition,
];

/// A random position shaped for `theme` (deterministic in `rng`), or None
/// when the draw is not a legal position with a choice of moves:
///
/// - feeding: the opponent's row is empty, the mover holds 2 to 14 seeds;
/// - starving: the opponent holds 1 to 4 seeds in their first 3 houses,
///   the mover 4 to 17 (a table-proved puzzle's line is the tables' play
///   to the end, `puzzles::table_line`; a searched one its principal
///   variation);
/// - grand slam: the opponent's houses hold 0 to 2 seeds each, the mover
///   4 to 14 seeds with one big house, kept only when a legal move would
///   take the whole row;
/// - repetition: each row holds 1 to 3 seeds in its houses (a few seeds
///   that chase each other round the board, as in the rules' example
///   E11), so the tables cover it and their line, played with the
///   history, can end by a third repetition (R11).
///
/// The stores share the other seeds about evenly (a difference of at most
/// 6), South or North to move.
pub fn themed_position(theme: Theme, rng: &mut SplitMix) -> Option<Position> {
    let me = if rng.below(2) == 0 {
        Side::South
    } else {
        Side::North
    };
    let mut houses = [0u8; 12];
    let (mine, theirs) = match me {
        Side::South => (0..6, 6..12),
        Side::North => (6..12, 0..6),
    };
    let sow =
        |houses: &mut [u8; 12], range: std::ops::Range<usize>, seeds: u64, rng: &mut SplitMix| {
            let n = range.len() as u64;
            for _ in 0..seeds {
                houses[range.start + rng.below(n) as usize] += 1;
            }
        };
    match theme {
        Theme::Feeding => {
            let n = 2 + rng.below(13);
            sow(&mut houses, mine, n, rng);
        }
        Theme::Starving => {
            let n = 4 + rng.below(14);
            sow(&mut houses, mine, n, rng);
            let k = 1 + rng.below(4);
            sow(&mut houses, theirs.start..theirs.start + 3, k, rng);
        }
        Theme::GrandSlam => {
            for h in theirs {
                houses[h] = rng.below(3) as u8;
            }
            let big = mine.start + rng.below(6) as usize;
            houses[big] = 8 + rng.below(14) as u8;
            let n = rng.below(6);
            sow(&mut houses, mine, n, rng);
        }
        Theme::Repetition => {
            let n = 1 + rng.below(3);
            sow(&mut houses, mine, n, rng);
            let k = 1 + rng.below(3);
            sow(&mut houses, theirs, k, rng);
        }
        _ => return None,
    }
    let board: u32 = houses.iter().map(|&h| u32::from(h)).sum();
    if board > 48 {
        return None;
    }
    let rest = 48 - board;
    let skew = rng.below(7) as i64 - 3;
    let south = (i64::from(rest as u8 / 2) + skew).clamp(0, i64::from(rest as u8)) as u8;
    let setup = Setup {
        houses,
        stores: [south, rest as u8 - south],
        to_move: me,
    };
    let position = Position::from_setup(setup).ok()?;
    if position.legal_moves().len() < 2 {
        return None;
    }
    if theme == Theme::GrandSlam
        && !position
            .legal_moves()
            .into_iter()
            .any(|m| position.trace(m).is_ok_and(|t| t.grand_slam))
    {
        return None;
    }
    Some(position)
}

/// The starting rating of a puzzle (module documentation).
fn seed_rating(plain: &mut Engine, position: Position, solution: oware_core::Move) -> u16 {
    let game = Game::new(position);
    let stop = StopHandle::default();
    let found = (1..=8).find(|&d| {
        Analysis::run(plain, &game, Budget::depth(d), &stop).is_ok_and(|a| a.best().mv == solution)
    });
    let base = found.map_or(2050, |d| 700 + 150 * d as u16);
    let took = |m: oware_core::Move| position.trace(m).map_or(0, |t| t.captured_seeds());
    let quiet = took(solution) == 0;
    // Another move takes more at once: the greedy move is the wrong one.
    let trap = position
        .legal_moves()
        .into_iter()
        .any(|m| m != solution && took(m) > took(solution));
    base + if quiet { 100 } else { 0 } + if trap { 200 } else { 0 }
}

/// Builds the set; `progress` is called now and then with the report so
/// far.
pub fn build(config: &Config, progress: &mut dyn FnMut(&Report)) -> (PuzzleSet, Report) {
    let started = Instant::now();
    let mut report = Report::default();
    let options = EngineOptions {
        hash_mb: 16,
        tablebase_dir: None,
    };
    let t0 = Instant::now();
    let mut judge = Engine::new(options.clone());
    if config.tables > 0 {
        let tables = oware_engine::tablebase::build_in_memory(config.tables)
            .expect("tables of at most 30 seeds can be built");
        judge.set_tablebase(Some(Arc::new(tables)));
    }
    report.tables_time = t0.elapsed();
    let mut plain = Engine::new(options.clone());
    let mut players = [Engine::new(options.clone()), Engine::new(options)];

    // The positions, in a fixed order: records first, then each pair's
    // games.
    let mut seen: HashSet<Position> = HashSet::new();
    let mut puzzles: Vec<Puzzle> = Vec::new();
    // Examines a position once; with `want`, keeps it only when its
    // themes include that one. Returns whether it was kept.
    let mut consider = |position: Position,
                        want: Option<Theme>,
                        report: &mut Report,
                        judge: &mut Engine,
                        plain: &mut Engine,
                        puzzles: &mut Vec<Puzzle>|
     -> bool {
        if puzzles.len() >= config.limit
            || position.legal_moves().len() < 2
            || !seen.insert(position)
        {
            return false;
        }
        report.positions += 1;
        let Ok(Some(check)) = puzzles::examine(judge, position, config.check_depth) else {
            return false;
        };
        report.candidates += 1;
        let Ok(Some(deep)) = puzzles::examine(judge, position, config.deep_depth) else {
            return false;
        };
        let same_proof = match (check.proof, deep.proof) {
            (Proof::Search { .. }, Proof::Search { .. }) => true,
            (a, b) => a == b,
        };
        if deep.solution != check.solution || !same_proof {
            return false;
        }
        let line = deep.line.clone();
        // A table line that the history (R11) turns against the proof is
        // no proof to show.
        if !puzzles::line_keeps_proof(position, &line, deep.proof) {
            return false;
        }
        let themes = puzzles::themes(position, &line, puzzles::covers(judge, position));
        if want.is_some_and(|t| !themes.contains(&t)) {
            return false;
        }
        let rating = seed_rating(plain, position, deep.solution);
        report.puzzles += 1;
        report.by_tables += usize::from(deep.proof.by_tables());
        puzzles.push(Puzzle {
            id: puzzles.len() as u32 + 1,
            position,
            solution: deep.solution,
            line,
            proof: deep.proof,
            // The builder's margin is the coach's; `oware puzzle recheck
            // --write` derives the claim in seeds of the game.
            claim: puzzles::Claim::Legacy,
            margin: (deep.margin * 10.0).floor() / 10.0,
            themes,
            rating,
        });
        true
    };
    // The rare themes first, each from its own seeded positions.
    for (k, &theme) in RARE_THEMES.iter().enumerate() {
        let mut rng = SplitMix::new(
            config
                .seed
                .wrapping_mul(0xD1B5_4A32_D192_ED03)
                .wrapping_add(k as u64),
        );
        let mut found = puzzles.iter().filter(|p| p.themes.contains(&theme)).count();
        let mut tried = 0;
        for _ in 0..config.themed_tries * 20 {
            if found >= config.themed || tried >= config.themed_tries {
                break;
            }
            if let Some(p) = themed_position(theme, &mut rng) {
                tried += 1;
                if consider(
                    p,
                    Some(theme),
                    &mut report,
                    &mut judge,
                    &mut plain,
                    &mut puzzles,
                ) {
                    found += 1;
                }
            }
        }
        report.themed += 1;
        report.time = started.elapsed();
        progress(&report);
    }
    for record in &config.records {
        for &p in record.game().positions() {
            consider(p, None, &mut report, &mut judge, &mut plain, &mut puzzles);
        }
    }
    'pairs: for (k, &pair) in config.pairs.iter().enumerate() {
        let seed = config.seed.wrapping_mul(0x9E37_79B9).wrapping_add(k as u64);
        let openings = Opening::random(config.opening_plies, config.games, seed);
        for (g, opening) in openings.iter().enumerate() {
            if puzzles.len() >= config.limit {
                break 'pairs;
            }
            // Colours alternate.
            let levels = if g % 2 == 0 { pair } else { (pair.1, pair.0) };
            let positions = play_game(
                &mut players,
                opening,
                levels,
                seed.wrapping_mul(1_000_003).wrapping_add(g as u64),
            );
            report.games += 1;
            for p in positions {
                consider(p, None, &mut report, &mut judge, &mut plain, &mut puzzles);
            }
            report.time = started.elapsed();
            progress(&report);
        }
    }
    report.time = started.elapsed();
    let set = PuzzleSet {
        check_depth: config.check_depth,
        tables: config.tables as u8,
        puzzles,
    };
    (set, report)
}

/// What [`reline`] made of a set.
#[derive(Debug)]
pub struct Relined {
    /// The set kept, ids kept (a dropped puzzle leaves a gap).
    pub set: PuzzleSet,
    /// Table-proved puzzles dropped: their tables' line ends the game
    /// against their proof.
    pub dropped_tables: usize,
    /// Search-proved puzzles dropped: the engine of this build no longer
    /// finds their move leading every other by the margin at the set's
    /// check depth (a new evaluation network changes the searches).
    pub dropped_search: usize,
}

/// Re-makes the lines of the table-proved puzzles of `set` with
/// `puzzles::table_line` (tables of `set.tables` seeds, built in memory)
/// and reads every puzzle's themes again from its line; a table puzzle
/// whose line ends the game against its proof is dropped. Every
/// search-proved puzzle is verified again at the set's check depth by
/// this build's engine, as the shipped set's test does, and dropped when
/// it no longer holds; those kept keep their lines. The ids are kept (the
/// server keeps ratings and attempts by them). For a file built before table lines were the
/// tables' play, or searched by an earlier network (`oware puzzle
/// reline`).
pub fn reline(set: &PuzzleSet) -> Relined {
    // The engine of the shipped set's test (`tests/puzzles.rs`).
    let mut judge = Engine::new(EngineOptions {
        hash_mb: 8,
        tablebase_dir: None,
    });
    if set.tables > 0 {
        let tables = oware_engine::tablebase::build_in_memory(usize::from(set.tables))
            .expect("tables of at most 30 seeds can be built");
        judge.set_tablebase(Some(Arc::new(tables)));
    }
    let mut out = Vec::new();
    let (mut dropped_tables, mut dropped_search) = (0, 0);
    for p in &set.puzzles {
        let mut q = p.clone();
        if q.proof.by_tables() {
            q.line = puzzles::table_line(&judge, q.position, q.solution);
            if !puzzles::line_keeps_proof(q.position, &q.line, q.proof) {
                dropped_tables += 1;
                continue;
            }
        } else if puzzles::verify(&mut judge, &q, set.check_depth).is_err() {
            dropped_search += 1;
            continue;
        }
        q.themes = puzzles::themes(q.position, &q.line, puzzles::covers(&judge, q.position));
        out.push(q);
    }
    Relined {
        set: PuzzleSet {
            check_depth: set.check_depth,
            tables: set.tables,
            puzzles: out,
        },
        dropped_tables,
        dropped_search,
    }
}

/// The report's counts in one line, without times (the file's header:
/// the same arguments write the same file).
pub fn format_counts(report: &Report) -> String {
    format!(
        "{} games, {} positions, {} candidates at the check depth, {} puzzles ({} by the tables)",
        report.games, report.positions, report.candidates, report.puzzles, report.by_tables,
    )
}

/// The report in one line.
pub fn format(report: &Report) -> String {
    format!(
        "{} games, {} positions, {} candidates at the check depth, {} puzzles ({} by the tables); tables {:.1} s, total {:.1} s",
        report.games,
        report.positions,
        report.candidates,
        report.puzzles,
        report.by_tables,
        report.tables_time.as_secs_f64(),
        report.time.as_secs_f64()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shaped positions have their shape, and the same seed draws the
    /// same positions.
    #[test]
    fn themed_positions_have_their_shape() {
        for theme in RARE_THEMES {
            let draw = |seed| {
                let mut rng = SplitMix::new(seed);
                (0..4000)
                    .filter_map(|_| themed_position(theme, &mut rng))
                    .collect::<Vec<_>>()
            };
            let drawn = draw(7);
            assert!(drawn.len() >= 5, "{theme:?}: {} positions", drawn.len());
            assert_eq!(drawn, draw(7));
            for p in drawn {
                assert!(p.legal_moves().len() >= 2);
                let me = p.to_move();
                match theme {
                    Theme::Feeding => assert!(p.row_is_empty(me.opponent())),
                    Theme::GrandSlam => assert!(p
                        .legal_moves()
                        .into_iter()
                        .any(|m| p.trace(m).is_ok_and(|t| t.grand_slam))),
                    Theme::Starving => {
                        assert!(p.row_seeds(me.opponent()) <= 4);
                        assert!(p.row_seeds(me) >= 4);
                    }
                    Theme::Repetition => {
                        assert!((1..=3).contains(&p.row_seeds(me.opponent())));
                        assert!((1..=3).contains(&p.row_seeds(me)));
                    }
                    _ => unreachable!(),
                }
            }
        }
        assert!(themed_position(Theme::Quiet, &mut SplitMix::new(1)).is_none());
    }

    /// A small build finds feeding and grand-slam puzzles from the shaped
    /// positions, each kept with its theme, and the same seed writes the
    /// same set. Since issue 36 a grand slam must be the solution or in
    /// the line's first plies ([`puzzles::SLAM_PLIES`]), which few shaped
    /// positions give: 3,000 are examined for it (the builder's default).
    #[test]
    fn small_build_finds_rare_themes() {
        let config = Config {
            games: 0,
            check_depth: 4,
            deep_depth: 6,
            tables: 0,
            themed: 2,
            themed_tries: 200,
            ..Config::default()
        };
        let (set, report) = build(&config, &mut |_| {});
        assert_eq!(report.themed, 4);
        let count = |set: &PuzzleSet, theme: Theme| {
            set.puzzles
                .iter()
                .filter(|p| p.themes.contains(&theme))
                .count()
        };
        assert!(count(&set, Theme::Feeding) >= 2);
        let (again, _) = build(&config, &mut |_| {});
        assert_eq!(set.to_text(&[]), again.to_text(&[]));
        let (slams, _) = build(
            &Config {
                themed_tries: 3000,
                ..config
            },
            &mut |_| {},
        );
        assert!(count(&slams, Theme::GrandSlam) >= 2);
        for p in slams
            .puzzles
            .iter()
            .filter(|p| p.themes.contains(&Theme::GrandSlam))
        {
            let mut g = Game::new(p.position);
            let slam = p.line.iter().take(puzzles::SLAM_PLIES).any(|&m| {
                let s = g.position().trace(m).is_ok_and(|t| t.grand_slam);
                let _ = g.play(m);
                s
            });
            assert!(slam, "{}", p.to_line());
        }
    }
}

/// What [`recheck`] found.
#[derive(Clone, Debug, Default)]
pub struct Recheck {
    /// Puzzles whose claim holds.
    pub holds: usize,
    /// Of those, within the tables.
    pub holds_tables: usize,
    /// Puzzles the tables cover whose claim their bounds neither prove nor
    /// contradict (a value that depends on repetitions): id and why.
    pub undecided: Vec<(u32, String)>,
    /// Puzzles beyond the tables (more seeds on the board).
    pub not_covered: usize,
    /// Puzzles beyond the tables whose claim was checked by search (none
    /// for a legacy file: its claims are checked against the tables only).
    pub searched: usize,
    /// The puzzles whose claim does not hold: id and why.
    pub failures: Vec<(u32, String)>,
    /// Every puzzle's claim derived again (`None`: nothing holds), in the
    /// set's order.
    pub derived: Vec<Option<(Claim, f64)>>,
}

/// The least lead, in the solver's final seeds, that a [`Claim::TablesSeeds`]
/// puzzle must prove: a lead of 1 seed is no clear choice.
pub const MIN_SEEDS: u8 = 2;

/// The strongest claim that holds for puzzle `p` (issue 36), or `None`:
///
/// - within `tables`, from every move's final seeds under perfect play,
///   for every value within the tables' bounds: `tw` the solution wins and
///   no other move does, `td` it draws and every other loses, `ts` it ends
///   with at least [`MIN_SEEDS`] more seeds than any other move; the
///   margin is the least lead in the solver's final seeds;
/// - beyond them, from `engine`'s analysis (which must hold the same
///   tables) at the deeper of [`CLAIM_DEPTHS`]: `sw` when its values are
///   decided, the solution a proven win and every other move a proven
///   loss; `sl` when every other move is a proven loss and the solution
///   is not; else `e` when the solution leads every other move by the
///   coach's margin at both depths.
pub fn derive_claim(
    p: &Puzzle,
    tables: &oware_engine::tablebase::Tablebase,
    engine: &mut Engine,
) -> Result<(Claim, f64), String> {
    let pos = p.position;
    if let Some(moves) = oware_engine::tablebase::move_values(tables, &pos) {
        let me = pos.to_move();
        let mine = i32::from(pos.store(me));
        let result = |v: u8| (mine + i32::from(v) - 24).signum();
        let sol = moves
            .iter()
            .find(|m| m.mv == p.solution)
            .ok_or("the solution is not a legal move")?;
        let others: Vec<_> = moves.iter().filter(|m| m.mv != p.solution).collect();
        let high = others.iter().map(|m| i32::from(m.upper)).max().unwrap_or(0);
        let lead = f64::from(i32::from(sol.lower) - high);
        if result(sol.lower) == 1 && others.iter().all(|m| result(m.upper) < 1) {
            return Ok((Claim::TablesWin, lead.max(1.0)));
        }
        if result(sol.lower) == 0
            && result(sol.upper) == 0
            && others.iter().all(|m| result(m.upper) < 0)
        {
            return Ok((Claim::TablesDraw, lead.max(1.0)));
        }
        if lead >= f64::from(MIN_SEEDS) {
            return Ok((Claim::TablesSeeds, lead));
        }
        return Err(format!("the tables give a lead of {lead} seeds at most"));
    }
    let game = Game::new(pos);
    let stop = StopHandle::default();
    let [d1, d2] = CLAIM_DEPTHS;
    let deep = Analysis::run(engine, &game, Budget::depth(d2), &stop).map_err(|e| e.to_string())?;
    let kind = |m: oware_core::Move| deep.moves.iter().find(|v| v.mv == m).map(|v| v.kind);
    let sol = kind(p.solution).ok_or("the solution is not a legal move")?;
    let lost = |k: ScoreKind| k.is_proven_loss();
    let others_lost = deep
        .moves
        .iter()
        .filter(|v| v.mv != p.solution)
        .all(|v| lost(v.kind));
    if others_lost && matches!(sol, ScoreKind::Win { .. } | ScoreKind::TablebaseWin) {
        return Ok((Claim::SearchWin, 2.0));
    }
    if others_lost && !lost(sol) {
        return Ok((Claim::OthersLose, 0.0));
    }
    let lead = |a: &Analysis| {
        let best = a.best();
        let second = a.moves.iter().find(|v| v.mv != best.mv);
        if best.mv == p.solution {
            second.map_or(f64::INFINITY, |s| best.points() - s.points())
        } else {
            f64::NEG_INFINITY
        }
    };
    let shallow =
        Analysis::run(engine, &game, Budget::depth(d1), &stop).map_err(|e| e.to_string())?;
    let (l1, l2) = (lead(&shallow), lead(&deep));
    if l1 >= puzzles::MIN_MARGIN && l2 >= puzzles::MIN_MARGIN {
        return Ok((Claim::Engine, 0.0));
    }
    let best = |a: &Analysis| a.best().mv.letter();
    Err(format!(
        "the engine's best is {} at depth {d1} (lead {l1:.1}) and {} at depth {d2} (lead {l2:.1})",
        best(&shallow),
        best(&deep)
    ))
}

/// Re-checks every puzzle of `set`, independently of the build (issue
/// 36). A puzzle with a claim ([`Claim`]) holds when [`derive_claim`],
/// with `tables` (and an engine holding them, searching beyond them),
/// derives the same kind of claim with at least its margin. A legacy
/// file's puzzles (margins on the coach's scale) are checked against the
/// tables alone, as their texts read ([`recheck_legacy`]). `progress` is
/// called after each puzzle with the count done.
pub fn recheck(
    set: &PuzzleSet,
    tables: &Arc<oware_engine::tablebase::Tablebase>,
    progress: &mut dyn FnMut(usize),
) -> Recheck {
    let mut out = Recheck::default();
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        tablebase_dir: None,
    });
    engine.set_tablebase(Some(tables.clone()));
    for (i, p) in set.puzzles.iter().enumerate() {
        let covered = oware_engine::tablebase::move_values(tables, &p.position).is_some();
        out.derived.push(derive_claim(p, tables, &mut engine).ok());
        if !covered {
            out.not_covered += 1;
        }
        if p.claim == Claim::Legacy {
            match recheck_legacy(p, tables) {
                None => {}
                Some(Ok(())) => {
                    out.holds += 1;
                    out.holds_tables += 1;
                }
                Some(Err((true, why))) => out.failures.push((p.id, why)),
                Some(Err((false, why))) => out.undecided.push((p.id, why)),
            }
        } else {
            if !covered {
                out.searched += 1;
            }
            match out.derived[i] {
                Some((c, m)) if c == p.claim && m + 1e-9 >= p.margin => {
                    out.holds += 1;
                    out.holds_tables += usize::from(covered);
                }
                Some((c, m)) => out.failures.push((
                    p.id,
                    format!(
                        "{}: claims {}, derived {}",
                        p.position,
                        p.claim.field(p.margin),
                        c.field(m)
                    ),
                )),
                None => {
                    let why = derive_claim(p, tables, &mut engine)
                        .err()
                        .unwrap_or_default();
                    out.failures.push((
                        p.id,
                        format!("{}: claims {}, {why}", p.position, p.claim.field(p.margin)),
                    ));
                }
            }
        }
        progress(i + 1);
    }
    out
}

/// `set` with every puzzle's claim the one derived ([`Recheck::derived`])
/// and its themes read again, the puzzles whose claim nothing proves left
/// out (ids kept: a removed puzzle leaves a gap). Returns the set and the
/// ids removed.
pub fn with_derived_claims(
    set: &PuzzleSet,
    derived: &[Option<(Claim, f64)>],
) -> (PuzzleSet, Vec<u32>) {
    let covered = |p: &Puzzle| set.tables > 0 && p.position.seeds_on_board() <= set.tables;
    let mut removed = Vec::new();
    let mut puzzles = Vec::new();
    for (p, d) in set.puzzles.iter().zip(derived) {
        let Some((claim, margin)) = *d else {
            removed.push(p.id);
            continue;
        };
        let mut q = p.clone();
        q.claim = claim;
        q.margin = margin;
        q.themes = puzzles::themes(q.position, &q.line, covered(&q));
        puzzles.push(q);
    }
    (
        PuzzleSet {
            check_depth: set.check_depth,
            tables: set.tables,
            puzzles,
        },
        removed,
    )
}

/// A legacy puzzle (its margin on the coach's scale) re-checked against
/// `tables` alone, as its text reads: `None` beyond the tables; `Ok` when
/// the tables' bounds prove it; `Err((refuted, why))` otherwise, `refuted`
/// when no value within the bounds allows it.
///
/// - `tw` ("the only move that wins"): the solution wins and every other
///   move draws or loses;
/// - `td` ("the only move that saves the game"): the solution draws and
///   every other move loses;
/// - a search proof with a margin of 12 or more ("every other throws the
///   game away"): every other move ends in a worse result;
/// - a search proof with a smaller margin ("worth at least m seeds more
///   than any other move"): the solution's final total is at least `m`
///   seeds above every other move's.
pub fn recheck_legacy(
    p: &Puzzle,
    tables: &oware_engine::tablebase::Tablebase,
) -> Option<Result<(), (bool, String)>> {
    let moves = oware_engine::tablebase::move_values(tables, &p.position)?;
    let pos = p.position;
    let me = pos.to_move();
    let board = i32::from(pos.seeds_on_board());
    let (mine, theirs) = (
        i32::from(pos.store(me)),
        i32::from(pos.store(me.opponent())),
    );
    let result = |v: u8| (mine + i32::from(v) - 24).signum();
    let Some(sol) = moves.iter().find(|m| m.mv == p.solution) else {
        return Some(Err((
            true,
            format!("{pos}: the solution is not a legal move"),
        )));
    };
    let others: Vec<_> = moves.iter().filter(|m| m.mv != p.solution).collect();
    let (proved, refuted) = match p.proof {
        Proof::TablesWin => (
            result(sol.lower) == 1 && others.iter().all(|m| result(m.upper) < 1),
            result(sol.upper) < 1 || others.iter().any(|m| result(m.lower) == 1),
        ),
        Proof::TablesDraw => (
            result(sol.lower) == 0
                && result(sol.upper) == 0
                && others.iter().all(|m| result(m.upper) < 0),
            result(sol.upper) < 0 || others.iter().any(|m| result(m.lower) >= 0),
        ),
        Proof::Search { .. } if p.margin >= 12.0 => (
            others.iter().all(|m| result(m.upper) < result(sol.lower)),
            others.iter().any(|m| result(m.lower) >= result(sol.upper)),
        ),
        Proof::Search { .. } => {
            let high = others.iter().map(|m| m.upper).max().unwrap_or(0);
            let low = others.iter().map(|m| m.lower).max().unwrap_or(0);
            (
                f64::from(sol.lower) - f64::from(high) >= p.margin - 1e-9,
                f64::from(sol.upper) - f64::from(low) < p.margin - 1e-9,
            )
        }
    };
    if proved {
        return Some(Ok(()));
    }
    let total = |v: u8| mine + i32::from(v);
    let finals: Vec<String> = moves
        .iter()
        .map(|m| {
            let (lo, hi) = (total(m.lower), total(m.upper));
            let opp = |t: i32| theirs + board - (t - mine);
            if lo == hi {
                format!("{} {lo}-{}", m.mv.letter(), opp(lo))
            } else {
                format!("{} {lo}-{} to {hi}-{}", m.mv.letter(), opp(lo), opp(hi))
            }
        })
        .collect();
    let claim = match p.proof {
        Proof::TablesWin => "tw".to_string(),
        Proof::TablesDraw => "td".to_string(),
        Proof::Search { depth } => format!("d{depth} {:.1}", p.margin),
    };
    let why = format!(
        "{pos} {} ({claim}): {}",
        p.solution.letter(),
        finals.join(", ")
    );
    Some(Err((refuted, why)))
}
