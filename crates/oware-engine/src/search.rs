//! Iterative-deepening alpha-beta search with a transposition table.

use std::time::{Duration, Instant};

use oware_core::{Game, Move, Position, Side};

use crate::{Limits, MoveAnalysis, SearchResult, StopHandle};

/// A position's value for the side to move: centi-seeds of expected final
/// margin, or a proven win/loss in a number of plies.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Score(pub i32);

impl Score {
    /// The value of a won game, less the plies to the win.
    pub const WIN: i32 = 30_000;
    /// Values beyond this (in absolute terms) are proven results.
    pub const PROVEN: i32 = 29_000;

    /// A win in `plies` plies.
    pub fn win_in(plies: u32) -> Score {
        Score(Self::WIN - plies as i32)
    }

    /// A loss in `plies` plies.
    pub fn loss_in(plies: u32) -> Score {
        Score(-Self::WIN + plies as i32)
    }

    /// True for a proven win or loss.
    pub fn is_proven(self) -> bool {
        self.0.abs() >= Self::PROVEN
    }

    /// Centi-seeds, with proven results mapped to ±10000 less the distance,
    /// as UCI front ends expect a `cp` value.
    pub fn centiseeds(self) -> i32 {
        if self.0 >= Self::PROVEN {
            10_000 - (Self::WIN - self.0)
        } else if self.0 <= -Self::PROVEN {
            -10_000 + (Self::WIN + self.0)
        } else {
            self.0
        }
    }
}

impl std::ops::Neg for Score {
    type Output = Score;
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

/// Progress of a running search, reported after each completed iteration.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// Depth completed.
    pub depth: u32,
    /// Value for the side to move.
    pub score: Score,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// Nodes so far.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u128,
    depth: u8,
    bound: u8, // 0 empty, 1 exact, 2 lower, 3 upper
    best: u8,  // house index + 1, 0 none
    score: i32,
}

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;

/// Search state kept between searches.
pub struct Searcher {
    table: Vec<Entry>,
    nodes: u64,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    stopped: bool,
    path: Vec<u128>,
    history: Vec<u128>,
}

fn eval(pos: &Position) -> i32 {
    let me = pos.to_move();
    (pos.store(me) as i32 - pos.store(me.opponent()) as i32) * 100
}

impl Searcher {
    /// A searcher with a table of about `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Searcher {
        let n = (hash_mb.max(1) * 1024 * 1024 / std::mem::size_of::<Entry>()).next_power_of_two() / 2;
        Searcher {
            table: vec![Entry::default(); n.max(1024)],
            nodes: 0,
            deadline: None,
            node_limit: None,
            stopped: false,
            path: Vec::new(),
            history: Vec::new(),
        }
    }

    /// Clears the transposition table.
    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|e| *e = Entry::default());
    }

    fn slot(&self, key: u128) -> usize {
        let h = (key as u64) ^ ((key >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h.wrapping_mul(0xBF58_476D_1CE4_E5B9) >> 20) as usize & (self.table.len() - 1)
    }

    fn time_up(&mut self, stop: &StopHandle) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes & 1023 == 0 {
            if stop.is_stopped() || self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.stopped = true;
            }
        }
        if self.node_limit.is_some_and(|n| self.nodes >= n) {
            self.stopped = true;
        }
        self.stopped
    }

    fn terminal(&self, pos: &Position, ply: u32) -> Option<i32> {
        let me = pos.to_move();
        let totals = if pos.is_decided() {
            [pos.store(Side::South), pos.store(Side::North)]
        } else if pos.legal_moves().is_empty() {
            pos.totals_with_own_rows()
        } else {
            return None;
        };
        let diff = totals[me.index()] as i32 - totals[me.opponent().index()] as i32;
        Some(match diff.cmp(&0) {
            std::cmp::Ordering::Greater => Score::win_in(ply).0,
            std::cmp::Ordering::Less => Score::loss_in(ply).0,
            std::cmp::Ordering::Equal => 0,
        })
    }

    fn repeated(&self, pos: &Position) -> bool {
        if pos.row_is_empty(Side::South) || pos.row_is_empty(Side::North) {
            return false;
        }
        let key = pos.board_key();
        let count = self.history.iter().chain(self.path.iter()).filter(|&&k| k == key).count();
        count >= 2
    }

    fn negamax(&mut self, pos: &Position, depth: u32, ply: u32, mut alpha: i32, beta: i32, stop: &StopHandle) -> i32 {
        self.nodes += 1;
        if let Some(v) = self.terminal(pos, ply) {
            return v;
        }
        if ply > 0 && self.repeated(pos) {
            let t = pos.totals_with_own_rows();
            let me = pos.to_move().index();
            let diff = t[me] as i32 - t[1 - me] as i32;
            return match diff.cmp(&0) {
                std::cmp::Ordering::Greater => Score::win_in(ply).0,
                std::cmp::Ordering::Less => Score::loss_in(ply).0,
                std::cmp::Ordering::Equal => 0,
            };
        }
        if depth == 0 {
            return eval(pos);
        }
        if self.time_up(stop) {
            return 0;
        }
        let key = pos.key();
        let slot = self.slot(key);
        let entry = self.table[slot];
        let mut tt_move = None;
        if entry.key == key && entry.bound != 0 {
            tt_move = (entry.best != 0).then(|| Move::new(oware_core::House::new(entry.best as usize - 1).unwrap()));
            if entry.depth as u32 >= depth && ply > 0 {
                let s = entry.score;
                match entry.bound {
                    EXACT => return s,
                    LOWER if s >= beta => return s,
                    UPPER if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let alpha0 = alpha;
        let mut moves: Vec<Move> = pos.legal_moves().into_iter().collect();
        if let Some(t) = tt_move {
            if let Some(i) = moves.iter().position(|&m| m == t) {
                moves.swap(0, i);
            }
        }
        let mut best = i32::MIN + 1;
        let mut best_move = moves[0];
        self.path.push(pos.board_key());
        for mv in moves {
            let child = pos.play_unchecked(mv);
            let v = -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha, stop);
            if v > best {
                best = v;
                best_move = mv;
            }
            alpha = alpha.max(v);
            if alpha >= beta || self.stopped {
                break;
            }
        }
        self.path.pop();
        if !self.stopped {
            let bound = if best <= alpha0 {
                UPPER
            } else if best >= beta {
                LOWER
            } else {
                EXACT
            };
            self.table[slot] =
                Entry { key, depth: depth.min(255) as u8, bound, best: best_move.house().index() as u8 + 1, score: best };
        }
        best
    }

    fn pv(&self, pos: &Position, max: usize) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut p = *pos;
        while pv.len() < max {
            let e = self.table[self.slot(p.key())];
            if e.key != p.key() || e.best == 0 {
                break;
            }
            let mv = Move::new(oware_core::House::new(e.best as usize - 1).unwrap());
            if !p.is_legal(mv) {
                break;
            }
            pv.push(mv);
            p = p.play_unchecked(mv);
        }
        pv
    }

    fn setup(&mut self, game: &Game, limits: &Limits) {
        self.nodes = 0;
        self.stopped = false;
        self.path.clear();
        let hist = game.since_last_capture();
        self.history = hist[..hist.len() - 1].iter().map(|p| p.board_key()).collect();
        let budget = limits.movetime.or_else(|| {
            limits.clock.map(|c| {
                let moves = c.moves_to_go.unwrap_or(30).max(1);
                (c.remaining / moves + c.increment * 3 / 4).min(c.remaining / 3)
            })
        });
        self.deadline = budget.map(|b| Instant::now() + b);
        self.node_limit = limits.nodes;
    }

    /// Searches the current position of `game`.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &StopHandle,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let started = Instant::now();
        self.setup(game, limits);
        let pos = *game.position();
        let legal = game.legal_moves();
        let level_depth = limits.level.map(|l| 1 + 2 * (l.get() as u32 - 1));
        let max_depth = limits.depth.or(level_depth).unwrap_or(if self.deadline.is_none() && limits.nodes.is_none() { 64 } else { 128 });
        let mut result = SearchResult {
            best: legal.into_iter().next(),
            score: Score(0),
            pv: legal.into_iter().next().into_iter().collect(),
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
        };
        if legal.is_empty() {
            return result;
        }
        for depth in 1..=max_depth {
            let v = self.negamax(&pos, depth, 0, -Score::WIN - 1, Score::WIN + 1, stop);
            if self.stopped && depth > 1 {
                break;
            }
            let pv = self.pv(&pos, depth as usize);
            if let Some(&first) = pv.first() {
                result.best = Some(first);
            }
            result.score = Score(v);
            result.pv = pv;
            result.depth = depth;
            let si = SearchInfo {
                depth,
                score: result.score,
                pv: result.pv.clone(),
                nodes: self.nodes,
                elapsed: started.elapsed(),
            };
            info(&si);
            if self.stopped || Score(v).is_proven() {
                break;
            }
        }
        result.nodes = self.nodes;
        result.elapsed = started.elapsed();
        result
    }

    /// Values of every legal move.
    pub fn analyze(&mut self, game: &Game, limits: &Limits, stop: &StopHandle) -> Vec<MoveAnalysis> {
        let mut out = Vec::new();
        for mv in game.legal_moves() {
            let mut g = game.clone();
            if g.play(mv).is_err() {
                continue;
            }
            let r = if g.is_over() {
                let o = g.outcome().unwrap();
                let me = game.position().to_move();
                let s = match o.winner {
                    Some(w) if w == me => Score::win_in(1),
                    Some(_) => Score::loss_in(1),
                    None => Score(0),
                };
                MoveAnalysis { mv, score: s, pv: vec![mv] }
            } else {
                let mut l = limits.clone();
                l.depth = limits.depth.map(|d| d.saturating_sub(1).max(1));
                let res = self.search(&g, &l, stop, &mut |_| {});
                let mut pv = vec![mv];
                pv.extend(res.pv);
                MoveAnalysis { mv, score: -res.score, pv }
            };
            out.push(r);
        }
        out.sort_by(|a, b| b.score.cmp(&a.score));
        out
    }
}
