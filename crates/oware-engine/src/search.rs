//! The search: iterative deepening principal-variation search (negamax with
//! null windows and re-searches) and aspiration windows, a transposition
//! table, move ordering by table move, captures, killers and history, a
//! capture-only quiescence search, and the game's end rules applied exactly
//! at every node:
//!
//! - R10: a store of 25 or more (or 24–24) ends the game at once;
//! - R9: a player without a legal move ends the game, each player taking the
//!   seeds of their own row;
//! - R11: the third occurrence of a board (houses and side to move) since
//!   the last capture ends the game the same way, counting the game's
//!   history and the search path, and not while either row is empty.
//!
//! End values are proven wins and losses ([`Score::win_in`]), the side with
//! the larger final total winning; equal totals are a draw (0).

use std::sync::Arc;
use std::time::Duration;

use oware_core::{Game, House, Move, MoveSet, Position, Side};

use crate::clock::Instant;
use crate::eval::{evaluate, Weights};
use crate::nn::Network;
use crate::time::TimePlan;
use crate::tt::{self, Bound, Busy, Table};
use crate::{Limits, MoveAnalysis, SearchResult, StopHandle};

/// A position's value for the side to move: centi-seeds of expected final
/// margin, or a proven win/loss in a number of plies, or a win/loss proven by
/// the tablebases without a distance.
///
/// The value is private: read it with [`plies_to_end`](Self::plies_to_end),
/// [`is_tablebase`](Self::is_tablebase), [`centiseeds`](Self::centiseeds) or,
/// for wording, `oware-session`'s `ScoreKind`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Score(pub(crate) i32);

impl Score {
    /// The value of a won game, less the plies to the win.
    pub const WIN: i32 = 30_000;
    /// Values beyond this (in absolute terms) are proven results.
    pub const PROVEN: i32 = 29_000;
    /// Results proven by the tablebases, without a distance to the end, lie
    /// between [`PROVEN`](Self::PROVEN) and this (in absolute terms); wins
    /// with a known distance lie above.
    pub const TB_MAX: i32 = Self::WIN - MAX_PLY as i32;

    /// True for a result proven by the tablebases (no known distance).
    pub fn is_tablebase(self) -> bool {
        self.is_proven() && self.0.abs() < Self::TB_MAX
    }

    /// An even position (also a proven draw: the search scores a draw 0).
    pub const ZERO: Score = Score(0);

    /// A heuristic value of `centiseeds` for the side to move, kept below
    /// the proven range.
    pub fn heuristic(centiseeds: i32) -> Score {
        Score(centiseeds.clamp(-Self::PROVEN + 1, Self::PROVEN - 1))
    }

    /// A win (`true`) or loss proven by the tablebases, without a distance.
    pub fn tablebase(win: bool) -> Score {
        if win {
            Score(TB_WIN)
        } else {
            Score(-TB_WIN)
        }
    }

    /// The search's own value: centi-seeds for heuristic values, near
    /// ±[`WIN`](Self::WIN) for proven results. For tools that store or
    /// compare raw values; people read [`Display`](std::fmt::Display) or
    /// `oware-session`'s `ScoreKind`.
    pub fn raw(self) -> i32 {
        self.0
    }

    /// True for a proven win (tablebase wins included).
    pub fn is_win(self) -> bool {
        self.0 >= Self::PROVEN
    }

    /// True for a proven loss (tablebase losses included).
    pub fn is_loss(self) -> bool {
        self.0 <= -Self::PROVEN
    }

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

    /// Plies to the end of a proven result (positive for a win, negative for
    /// a loss), `None` for a heuristic value.
    pub fn plies_to_end(self) -> Option<i32> {
        if self.is_tablebase() {
            None
        } else if self.0 >= Self::PROVEN {
            Some(Self::WIN - self.0)
        } else if self.0 <= -Self::PROVEN {
            Some(-(Self::WIN + self.0))
        } else {
            None
        }
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

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_tablebase() {
            return f.write_str(if self.0 > 0 {
                "tablebase win"
            } else {
                "tablebase loss"
            });
        }
        match self.plies_to_end() {
            Some(p) if p >= 0 => write!(f, "win in {p}"),
            Some(p) => write!(f, "loss in {}", -p),
            None => write!(f, "{:+.2}", self.0 as f64 / 100.0),
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
    /// Deepest ply reached (quiescence included).
    pub seldepth: u32,
    /// Transposition table use by this search, in permille.
    pub hashfull: u32,
    /// Tablebase probes that found a value.
    pub tb_hits: u64,
}

/// Something that knows the value of some positions: the endgame
/// tablebases (see [`crate::tablebase`]).
pub trait Oracle: Send + Sync {
    /// Bounds on the game's result for the side to move, if `pos` is
    /// covered; valid while no board since the last capture has occurred
    /// twice (the search probes only then).
    fn probe(&self, pos: &Position) -> Option<OracleValue>;
    /// The largest number of seeds on the board the oracle covers.
    fn max_seeds(&self) -> u8;
}

/// What an [`Oracle`] knows of a position: the result for the side to move
/// lies between `lower` and `upper` (-1 loss, 0 draw, 1 win).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OracleValue {
    /// Lowest result.
    pub lower: i8,
    /// Highest result.
    pub upper: i8,
    /// The mover's store (wins with more captured are scored higher, so
    /// that the search makes progress towards the end).
    pub store: u8,
    /// The opponent's store.
    pub opp_store: u8,
}

/// Deepest ply (main search plus quiescence).
pub const MAX_PLY: usize = 128;
/// Deepest nominal iteration.
pub const MAX_DEPTH: u32 = 100;
const INF: i32 = 31_000;
/// Proven tablebase results score below true wins so that a known win in
/// `n` plies is preferred, but above every heuristic value.
const TB_WIN: i32 = Score::PROVEN + 500;
const NO_MOVE: u8 = 255;
/// The shallowest remaining depth at which the threads of a parallel search
/// split a node's moves (`Busy`); below it a move costs less than the
/// bookkeeping.
const SPLIT_DEPTH: i32 = 3;

#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    child: Position,
    score: i32,
    /// True when `score` is exact (not a bound) at the last depth.
    exact: bool,
    pv: Vec<Move>,
}

/// Search state kept between searches: the transposition table, the
/// evaluation weights and the tablebases.
pub struct Searcher {
    // Shared with the helper threads of a parallel search.
    tt: Arc<Table>,
    // A helper thread of a parallel search: it does not age the table, and
    // searches odd helpers' iterations one ply deeper for diversity.
    helper: bool,
    depth_offset: u32,
    // The moves being searched by the threads of a parallel search (shared
    // like `tt`), consulted while `parallel` is set.
    busy: Arc<Busy>,
    parallel: bool,
    weights: Weights,
    // The evaluation network, used instead of the weights when set.
    net: Option<Arc<Network>>,
    oracle: Option<Box<dyn Oracle>>,
    // Per-search state.
    nodes: u64,
    node_limit: u64,
    stopped: bool,
    control: StopHandle,
    plan: TimePlan,
    origin: Instant,
    was_pondering: bool,
    may_stop: bool,
    // Board keys since the last capture (game history, then the search path),
    // each with the seeds on the board, which only decrease.
    rep: Vec<(u128, u8)>,
    // Parallel to `rep`: whether that entry's board occurred earlier in it.
    rep_again: Vec<bool>,
    // Number of `true` entries in `rep_again`.
    repeats: usize,
    killers: [[u8; 2]; MAX_PLY],
    history: [i32; 12],
    pv: Box<[[u8; MAX_PLY]; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    seldepth: usize,
    tb_hits: u64,
    // The root moves an analysis is restricted to (every legal move when
    // empty): `analyze_moves`.
    root_only: Vec<Move>,
}

#[inline]
fn end_score(totals: [u8; 2], me: Side, ply: usize) -> i32 {
    let diff = totals[me.index()] as i32 - totals[me.opponent().index()] as i32;
    match diff.cmp(&0) {
        std::cmp::Ordering::Greater => Score::WIN - ply as i32,
        std::cmp::Ordering::Less => -Score::WIN + ply as i32,
        std::cmp::Ordering::Equal => 0,
    }
}

/// The value of a position without legal moves: decided by R10, or ended by
/// R9 with each player taking their own row.
#[inline]
fn no_moves_score(pos: &Position, ply: usize) -> i32 {
    let totals = if pos.is_decided() {
        [pos.store(Side::South), pos.store(Side::North)]
    } else {
        pos.totals_with_own_rows()
    };
    end_score(totals, pos.to_move(), ply)
}

#[inline]
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= Score::PROVEN {
        score + ply as i32
    } else if score <= -Score::PROVEN {
        score - ply as i32
    } else {
        score
    }
}

#[inline]
fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= Score::PROVEN {
        score - ply as i32
    } else if score <= -Score::PROVEN {
        score + ply as i32
    } else {
        score
    }
}

#[inline]
fn move_of(side: Side, rel: u8) -> Move {
    Move::new(House::of(side, rel as usize).expect("house index below 6"))
}

impl Searcher {
    /// The principal variation at `ply` becomes `rel` followed by the one
    /// just found at `ply + 1`.
    #[inline(always)]
    fn extend_pv(&mut self, ply: usize, rel: u8) {
        self.pv[ply][ply] = rel;
        let child_len = self.pv_len[ply + 1];
        for k in 0..child_len {
            self.pv[ply][ply + 1 + k] = self.pv[ply + 1][ply + 1 + k];
        }
        self.pv_len[ply] = child_len + 1;
    }

    /// A searcher with a table of about `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            tt: Arc::new(Table::new(hash_mb)),
            helper: false,
            depth_offset: 0,
            busy: Arc::new(Busy::new()),
            parallel: false,
            weights: Weights::default(),
            net: None,
            oracle: None,
            nodes: 0,
            node_limit: u64::MAX,
            stopped: false,
            control: StopHandle::default(),
            plan: TimePlan::default(),
            origin: Instant::now(),
            was_pondering: false,
            may_stop: true,
            rep: Vec::with_capacity(512),
            rep_again: Vec::with_capacity(512),
            repeats: 0,
            killers: [[NO_MOVE; 2]; MAX_PLY],
            history: [0; 12],
            pv: Box::new([[0; MAX_PLY]; MAX_PLY]),
            pv_len: [0; MAX_PLY],
            seldepth: 0,
            tb_hits: 0,
            root_only: Vec::new(),
        }
    }

    /// A helper for a parallel search (Lazy SMP): it shares this searcher's
    /// transposition table and weights, but has its own move-ordering
    /// statistics and no oracle until one is installed. Helper `index` (from
    /// 1) searches each iteration one ply deeper when it is odd.
    pub fn helper(&self, index: usize) -> Searcher {
        let mut h = Searcher::new(1);
        h.tt = Arc::clone(&self.tt);
        h.weights = self.weights;
        h.net = self.net.clone();
        h.helper = true;
        h.depth_offset = (index % 2) as u32;
        h.busy = Arc::clone(&self.busy);
        h.parallel = true;
        h
    }

    /// Whether helpers search beside this searcher: its searches then
    /// leave the moves a helper is searching for later (see [`Busy`]).
    pub fn set_parallel(&mut self, on: bool) {
        self.parallel = on || self.helper;
    }

    /// Clears the transposition table and the move-ordering statistics.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history = [0; 12];
        self.killers = [[NO_MOVE; 2]; MAX_PLY];
    }

    /// The evaluation weights in use.
    pub fn weights(&self) -> Weights {
        self.weights
    }

    /// Replaces the evaluation weights.
    pub fn set_weights(&mut self, weights: Weights) {
        self.weights = weights;
    }

    /// The evaluation network in use, if any.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.net.as_ref()
    }

    /// Evaluates with `net` instead of the weights (or, with `None`, with
    /// the weights again).
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        self.net = net;
    }

    /// Installs (or removes) the exact-value oracle probed in the tree.
    pub fn set_oracle(&mut self, oracle: Option<Box<dyn Oracle>>) {
        self.oracle = oracle;
    }

    /// The largest seed count the installed oracle covers (0 without one).
    pub fn oracle_seeds(&self) -> u8 {
        self.oracle.as_ref().map_or(0, |o| o.max_seeds())
    }

    // Counts a node and decides whether the search must stop.
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        // The first iteration always completes (a few hundred nodes at most),
        // so every search returns a move with a real value.
        if !self.may_stop {
            return false;
        }
        if self.nodes >= self.node_limit {
            self.stopped = true;
        }
        if self.nodes & 1023 == 0 {
            self.poll();
        }
        self.stopped
    }

    fn poll(&mut self) {
        if self.control.is_stopped() {
            self.stopped = true;
            return;
        }
        if self.control.is_pondering() {
            self.was_pondering = true;
            return;
        }
        if self.was_pondering {
            // ponderhit: the clock starts now.
            self.was_pondering = false;
            self.origin = Instant::now();
        }
        if let Some(hard) = self.plan.hard {
            if self.origin.elapsed() >= hard {
                self.stopped = true;
            }
        }
    }

    /// Pushes a board onto the repetition history; `again` tells whether it
    /// already occurs there (its [`occurrences`](Self::occurrences) > 0).
    fn push_rep(&mut self, key: u128, on_board: u8, again: bool) {
        self.rep.push((key, on_board));
        self.rep_again.push(again);
        self.repeats += again as usize;
    }

    fn pop_rep(&mut self) {
        self.rep.pop();
        if self.rep_again.pop() == Some(true) {
            self.repeats -= 1;
        }
    }

    /// True when some board with `on_board` seeds (so since the last
    /// capture) occurs twice in the history and the search path.
    fn repeat_since_capture(&self, on_board: u8) -> bool {
        self.repeats > 0
            && self
                .rep
                .iter()
                .zip(&self.rep_again)
                .rev()
                .take_while(|&(&(_, s), _)| s <= on_board)
                .any(|(&(_, s), &again)| s == on_board && again)
    }

    /// Occurrences of `key` among the ancestors since the last capture.
    #[inline]
    fn occurrences(&self, key: u128, on_board: u8) -> usize {
        let mut n = 0;
        for &(k, s) in self.rep.iter().rev() {
            if s != on_board {
                // Seeds on the board only decrease: nothing earlier can match.
                if s > on_board {
                    break;
                }
                continue;
            }
            if k == key {
                n += 1;
            }
        }
        n
    }

    /// The oracle's value of `pos` as a score, or a bound that cuts off.
    #[inline]
    fn probe_oracle(&mut self, pos: &Position, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
        let oracle = self.oracle.as_ref()?;
        if pos.seeds_on_board() > oracle.max_seeds() {
            return None;
        }
        let v = oracle.probe(pos)?;
        self.tb_hits += 1;
        let score = |r: i8| match r {
            1 => TB_WIN + 2 * v.store as i32 - ply as i32,
            -1 => -TB_WIN - 2 * v.opp_store as i32 + ply as i32,
            _ => 0,
        };
        let (lo, hi) = (score(v.lower), score(v.upper));
        if v.lower == v.upper || lo >= beta {
            Some(lo)
        } else if hi <= alpha {
            Some(hi)
        } else {
            None
        }
    }

    fn order(
        &self,
        pos: &Position,
        ply: usize,
        tt_move: Option<u8>,
        list: &mut [(i32, u8, Position, u8)],
    ) {
        let me = pos.to_move();
        let before = pos.store(me);
        for e in list.iter_mut() {
            let rel = e.1;
            let cap = e.2.store(me) - before;
            e.3 = cap;
            let h = 6 * me.index() + rel as usize;
            e.0 = if Some(rel) == tt_move {
                1 << 30
            } else if cap > 0 {
                (1 << 28) + cap as i32 * 64
            } else if self.killers[ply][0] == rel {
                1 << 27
            } else if self.killers[ply][1] == rel {
                (1 << 27) - 1
            } else {
                self.history[h]
            };
        }
        // Insertion sort, best first (at most six moves).
        for i in 1..list.len() {
            let mut j = i;
            while j > 0 && list[j - 1].0 < list[j].0 {
                list.swap(j - 1, j);
                j -= 1;
            }
        }
    }

    fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        pv_node: bool,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if self.tick() {
            return 0;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return no_moves_score(pos, ply);
        }
        let on_board = pos.seeds_on_board();
        let board_key = pos.board_key();
        let seen = self.occurrences(board_key, on_board);
        if !pos.row_is_empty(Side::South) && !pos.row_is_empty(Side::North) && seen >= 2 {
            return end_score(pos.totals_with_own_rows(), pos.to_move(), ply);
        }
        // The tables' values hold while no board since the last capture has
        // occurred twice (see oware-tablebase: their strategies visit a board
        // that is bad for them at most once, so it can never be the third
        // occurrence); otherwise R11 may end the game sooner.
        if seen == 0 && !self.repeat_since_capture(on_board) {
            if let Some(v) = self.probe_oracle(pos, ply, alpha, beta) {
                return v;
            }
        }
        if depth <= 0 || ply >= MAX_PLY - 8 {
            return self.quiesce_moves(pos, moves, ply, alpha, beta);
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }

        let h = tt::hash(pos.key());
        let mut tt_move = None;
        if let Some(hit) = self.tt.probe(h) {
            tt_move = hit.best;
            if !pv_node && hit.depth as i32 >= depth {
                let s = from_tt(hit.score, ply);
                match hit.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }

        let me = pos.to_move();
        let mut list = [(0i32, 0u8, *pos, 0u8); 6];
        let mut n = 0;
        for mv in moves {
            list[n] = (0, mv.house().rel() as u8, pos.play_unchecked(mv), 0);
            n += 1;
        }
        let list = &mut list[..n];
        self.order(pos, ply, tt_move, list);

        self.push_rep(board_key, on_board, seen > 0);
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_rel = NO_MOVE;
        // The moves in their order, then the ones left for later because
        // another thread was searching them (`Busy`).
        let split = self.parallel && depth >= SPLIT_DEPTH;
        let mut order = [0u8; 12];
        for (k, o) in order.iter_mut().enumerate().take(n) {
            *o = k as u8;
        }
        let mut len = n;
        let mut k = 0;
        while k < len {
            let i = order[k] as usize;
            let first_pass = k < n;
            k += 1;
            let (_, rel, child, cap) = list[i];
            let key = Busy::key(h, rel);
            if split && first_pass && i > 0 && self.busy.is_busy(key) {
                order[len] = i as u8;
                len += 1;
                continue;
            }
            if split {
                self.busy.enter(key);
            }
            let new_depth = depth - 1;
            let v = if i == 0 {
                -self.negamax(&child, new_depth, ply + 1, -beta, -alpha, pv_node)
            } else {
                // Late quiet moves are searched one ply shallower first.
                let r = if depth >= 3 && i >= 3 && cap == 0 && !pv_node {
                    1
                } else {
                    0
                };
                let mut v =
                    -self.negamax(&child, new_depth - r, ply + 1, -alpha - 1, -alpha, false);
                if v > alpha && r > 0 && !self.stopped {
                    v = -self.negamax(&child, new_depth, ply + 1, -alpha - 1, -alpha, false);
                }
                if v > alpha && v < beta && pv_node && !self.stopped {
                    v = -self.negamax(&child, new_depth, ply + 1, -beta, -alpha, true);
                }
                v
            };
            if split {
                self.busy.leave(key);
            }
            if self.stopped {
                self.pop_rep();
                return 0;
            }
            if v > best {
                best = v;
                best_rel = rel;
                if v > alpha {
                    alpha = v;
                    self.extend_pv(ply, rel);
                    if v >= beta {
                        if cap == 0 {
                            if self.killers[ply][0] != rel {
                                self.killers[ply][1] = self.killers[ply][0];
                                self.killers[ply][0] = rel;
                            }
                            let hidx = 6 * me.index() + rel as usize;
                            self.history[hidx] += depth * depth;
                            if self.history[hidx] > 1 << 20 {
                                self.history.iter_mut().for_each(|x| *x /= 2);
                            }
                        }
                        break;
                    }
                }
            }
        }
        self.pop_rep();

        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            h,
            to_tt(best, ply),
            depth as u32,
            bound,
            (best_rel != NO_MOVE).then_some(best_rel),
        );
        best
    }

    fn quiesce(&mut self, pos: &Position, ply: usize, alpha: i32, beta: i32) -> i32 {
        self.pv_len[ply] = 0;
        if self.tick() {
            return 0;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return no_moves_score(pos, ply);
        }
        // Captures are irreversible, so no repetition can arise below the
        // main search; the oracle still applies.
        if let Some(v) = self.probe_oracle(pos, ply, alpha, beta) {
            return v;
        }
        self.quiesce_moves(pos, moves, ply, alpha, beta)
    }

    // Quiescence once the node is counted and known not to be an end.
    fn quiesce_moves(
        &mut self,
        pos: &Position,
        moves: MoveSet,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        let stand = match &self.net {
            Some(net) => net.evaluate(pos),
            None => evaluate(pos, &self.weights),
        };
        if stand >= beta || ply >= MAX_PLY - 1 {
            return stand;
        }
        alpha = alpha.max(stand);
        let me = pos.to_move();
        let before = pos.store(me);
        let mut caps = [(0u8, 0u8, *pos); 6];
        let mut n = 0;
        for mv in moves {
            let child = pos.play_unchecked(mv);
            let c = child.store(me) - before;
            if c > 0 {
                caps[n] = (c, mv.house().rel() as u8, child);
                n += 1;
            }
        }
        let caps = &mut caps[..n];
        caps.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut best = stand;
        for &(_, rel, child) in caps.iter() {
            let v = -self.quiesce(&child, ply + 1, -beta, -alpha);
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    self.extend_pv(ply, rel);
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    fn child_pv(&self, first: Move, child: &Position) -> Vec<Move> {
        let mut pv = vec![first];
        let mut side = child.to_move();
        for k in 0..self.pv_len[1] {
            pv.push(move_of(side, self.pv[1][1 + k]));
            side = side.opponent();
        }
        pv
    }

    fn setup(&mut self, game: &Game, limits: &Limits, control: &StopHandle) {
        self.nodes = 0;
        self.stopped = false;
        self.may_stop = false;
        self.seldepth = 0;
        self.tb_hits = 0;
        self.control = control.clone();
        self.origin = Instant::now();
        self.was_pondering = control.is_pondering();
        self.node_limit = limits.nodes.unwrap_or(u64::MAX).max(1);
        self.plan = TimePlan::new(limits);
        self.rep.clear();
        self.rep_again.clear();
        self.repeats = 0;
        for p in game.since_last_capture() {
            let (key, on_board) = (p.board_key(), p.seeds_on_board());
            let again = self.occurrences(key, on_board) > 0;
            self.push_rep(key, on_board, again);
        }
        self.killers = [[NO_MOVE; 2]; MAX_PLY];
        self.history.iter_mut().for_each(|x| *x /= 8);
        if !self.helper {
            self.tt.new_search();
        }
    }

    fn root_moves(&self, game: &Game) -> Vec<RootMove> {
        let pos = game.position();
        let me = pos.to_move();
        let mut rms: Vec<RootMove> = game
            .legal_moves()
            .into_iter()
            .filter(|mv| self.root_only.is_empty() || self.root_only.contains(mv))
            .map(|mv| {
                let child = pos.play_unchecked(mv);
                RootMove {
                    mv,
                    child,
                    score: -INF,
                    exact: false,
                    pv: vec![mv],
                }
            })
            .collect();
        // First iteration order: table move, then bigger captures.
        let tt_move = self.tt.probe(tt::hash(pos.key())).and_then(|h| h.best);
        rms.sort_by_key(|r| {
            let cap = r.child.store(me) as i32 - pos.store(me) as i32;
            let is_tt = Some(r.mv.house().rel() as u8) == tt_move;
            (!is_tt, -cap)
        });
        rms
    }

    /// One iteration over the root moves, reordering them best first.
    /// Returns the best score (meaningless when the search was stopped).
    fn root_iteration(
        &mut self,
        rms: &mut [RootMove],
        depth: u32,
        mut alpha: i32,
        beta: i32,
        exact_all: bool,
    ) -> i32 {
        let mut best = -INF;
        for rm in rms.iter_mut() {
            rm.exact = false;
            rm.score = -INF;
        }
        for i in 0..rms.len() {
            let child = rms[i].child;
            let d = depth as i32 - 1;
            let v = if exact_all {
                -self.negamax(&child, d, 1, -INF, INF, true)
            } else if i == 0 {
                -self.negamax(&child, d, 1, -beta, -alpha, true)
            } else {
                let mut v = -self.negamax(&child, d, 1, -alpha - 1, -alpha, false);
                if v > alpha && v < beta && !self.stopped {
                    v = -self.negamax(&child, d, 1, -beta, -alpha, true);
                }
                v
            };
            if self.stopped {
                break;
            }
            let mv = rms[i].mv;
            if exact_all || (v > alpha && v < beta) {
                rms[i].score = v;
                rms[i].exact = true;
                rms[i].pv = self.child_pv(mv, &child);
            } else if v >= beta {
                rms[i].score = v;
                rms[i].pv = self.child_pv(mv, &child);
            } else {
                // Failed low: only an upper bound. Keep it below the others.
                rms[i].score = -INF + 1;
            }
            if v > best {
                best = v;
                if v > alpha && !exact_all {
                    alpha = v;
                }
                if v >= beta && !exact_all {
                    // Move the new best to the front for the next iteration.
                    rms[..=i].rotate_right(1);
                    return best;
                }
                if i > 0 {
                    rms[..=i].rotate_right(1);
                }
            }
        }
        best
    }

    /// Runs iterative deepening; returns the root moves ordered best first
    /// with their values at the last completed depth, and that depth.
    fn deepen(
        &mut self,
        game: &Game,
        limits: &Limits,
        max_depth: u32,
        exact_all: bool,
        started: Instant,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> (Vec<RootMove>, u32) {
        let mut rms = self.root_moves(game);
        let mut done: Vec<RootMove> = rms.clone();
        let mut done_depth = 0;
        if rms.is_empty() {
            return (rms, 0);
        }
        // A single legal move under a time limit needs no thought.
        let single = rms.len() == 1 && (limits.movetime.is_some() || limits.clock.is_some());
        let mut prev: i32 = 0;
        for depth in 1..=max_depth.min(MAX_DEPTH) {
            let mut window = 35;
            let (mut alpha, mut beta) = if depth >= 4 && !exact_all && prev.abs() < Score::PROVEN {
                (prev - window, prev + window)
            } else {
                (-INF, INF)
            };
            let score = loop {
                let v = self.root_iteration(
                    &mut rms,
                    depth + self.depth_offset,
                    alpha,
                    beta,
                    exact_all,
                );
                if self.stopped {
                    break v;
                }
                if v <= alpha && alpha > -INF {
                    alpha = (alpha - window).max(-INF);
                    window *= 3;
                } else if v >= beta && beta < INF {
                    beta = (beta + window).min(INF);
                    window *= 3;
                } else {
                    break v;
                }
            };
            if self.stopped {
                // A partial iteration is used when its best move has a real
                // value: the first move completed inside the window, or a
                // later one beat it.
                if !exact_all && rms[0].score > -INF + 1 && depth > 1 {
                    if rms[0].mv != done[0].mv || rms[0].score >= done[0].score {
                        done = rms.clone();
                    }
                } else if done_depth == 0 {
                    done = rms.clone();
                }
                break;
            }
            if exact_all {
                rms.sort_by_key(|r| std::cmp::Reverse(r.score));
            }
            prev = score;
            done = rms.clone();
            done_depth = depth;
            self.may_stop = true;
            if self.nodes >= self.node_limit || self.control.is_stopped() {
                self.stopped = true;
            }
            let si = SearchInfo {
                depth,
                score: Score(rms[0].score),
                pv: rms[0].pv.clone(),
                nodes: self.nodes,
                elapsed: started.elapsed(),
                seldepth: self.seldepth as u32,
                hashfull: self.tt.hashfull(),
                tb_hits: self.tb_hits,
            };
            info(&si);
            if single {
                break;
            }
            // Every move proven: deeper search changes nothing.
            if Score(score).is_proven() && !exact_all && depth as i32 > Score::WIN - score.abs() {
                break;
            }
            if exact_all && rms.iter().all(|r| Score(r.score).is_proven()) {
                break;
            }
            if !self.control.is_pondering() {
                if let Some(soft) = self.plan.soft {
                    if self.origin.elapsed() >= soft {
                        break;
                    }
                }
            }
        }
        (done, done_depth)
    }

    /// Searches the current position of `game` within `limits`, stopping when
    /// `control` is stopped; `info` is called after each completed iteration.
    /// `limits.level` is ignored here (see [`crate::Engine::search`]).
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &StopHandle,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let started = Instant::now();
        self.setup(game, limits, control);
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH);
        let (rms, depth) = self.deepen(game, limits, max_depth, false, started, info);
        let best = rms.first();
        SearchResult {
            best: best.map(|r| r.mv),
            score: Score(best.map_or(0, |r| if r.score <= -INF + 1 { 0 } else { r.score })),
            pv: best.map_or_else(Vec::new, |r| r.pv.clone()),
            depth,
            nodes: self.nodes,
            elapsed: started.elapsed(),
        }
    }

    /// The value and principal variation of every legal move, best first,
    /// each value exact at the depth reached.
    pub fn analyze(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &StopHandle,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> (Vec<MoveAnalysis>, u32) {
        let started = Instant::now();
        self.setup(game, limits, control);
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH);
        let (rms, depth) = self.deepen(game, limits, max_depth, true, started, info);
        let out = rms
            .into_iter()
            .map(|r| MoveAnalysis {
                mv: r.mv,
                score: Score(r.score.max(-Score::WIN)),
                pv: r.pv,
            })
            .collect();
        (out, depth)
    }

    /// As [`analyze`](Self::analyze), over the legal moves of `only` alone
    /// (every legal move when it is empty): each valued by a search of the
    /// same depth as in the full analysis, without the others' cost.
    pub fn analyze_moves(
        &mut self,
        game: &Game,
        only: &[Move],
        limits: &Limits,
        control: &StopHandle,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> (Vec<MoveAnalysis>, u32) {
        self.root_only = only.to_vec();
        let out = self.analyze(game, limits, control, info);
        self.root_only.clear();
        out
    }

    /// Nodes searched by the last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oware_core::parse_moves;

    fn search(pos: &str, depth: u32) -> SearchResult {
        let game = Game::new(pos.parse().unwrap());
        let mut s = Searcher::new(4);
        s.search(
            &game,
            &Limits::depth(depth),
            &StopHandle::default(),
            &mut |_| {},
        )
    }

    #[test]
    fn e6_finds_the_winning_double_lap_capture() {
        let r = search("0-0-0-0-0-17-2-1-1-0-0-1-13-13-S", 3);
        assert_eq!(r.best.unwrap().letter(), 'F');
        assert_eq!(r.score, Score::win_in(1));
    }

    #[test]
    fn e8_north_captures_and_wins() {
        let r = search("1-2-0-1-0-0-0-0-0-0-0-2-21-21-N", 4);
        assert_eq!(r.best.unwrap().letter(), 'f');
        assert_eq!(r.score, Score::win_in(1));
    }

    #[test]
    fn e10_no_moves_is_a_finished_game() {
        let r = search("1-0-0-0-1-0-0-0-0-0-0-0-23-23-S", 5);
        assert!(r.best.is_none());
    }

    #[test]
    fn e12_grand_slam_that_empties_own_row_loses() {
        // F is South's only move besides A; F loses at once (R7 then R9).
        let r = search("0-0-0-0-0-2-1-1-0-0-0-0-22-22-S", 6);
        let game = Game::new("0-0-0-0-0-2-1-1-0-0-0-0-22-22-S".parse().unwrap());
        assert!(game.legal_moves().contains(r.best.unwrap()));
    }

    #[test]
    fn repetition_ends_the_game_inside_the_search() {
        // E11: the cycle fAaBbCcDdEeF; after 24 plies the side to move would
        // repeat. Both players hold one seed; every line is a draw 24-24.
        let start: Position = "0-0-0-0-0-0-1-0-0-0-0-1-23-23-N".parse().unwrap();
        let mut game = Game::new(start);
        for mv in parse_moves("fAaBbCcDdEeFfAaBbCcDdEeF").unwrap() {
            game.play(mv).unwrap();
        }
        let mut s = Searcher::new(1);
        let r = s.search(
            &game,
            &Limits::depth(12),
            &StopHandle::default(),
            &mut |_| {},
        );
        assert_eq!(r.score, Score(0));
        assert!(r.best.is_some());
    }

    #[test]
    fn same_depth_same_nodes() {
        let a = search("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", 7);
        let b = search("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", 7);
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.best, b.best);
        assert_eq!(a.pv, b.pv);
    }

    #[test]
    fn pv_is_legal() {
        let r = search("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", 8);
        let mut p = Position::start();
        assert!(!r.pv.is_empty());
        for mv in r.pv {
            p = p.try_play(mv).unwrap();
        }
    }

    #[test]
    fn tiny_limits_still_complete_the_first_iteration() {
        let game = Game::new("0-0-0-5-0-0-3-1-2-0-0-3-17-17-S".parse().unwrap());
        let mut s = Searcher::new(1);
        let limits = Limits {
            nodes: Some(1),
            ..Limits::default()
        };
        let r = s.search(&game, &limits, &StopHandle::default(), &mut |_| {});
        assert_eq!((r.depth, r.best.unwrap().letter()), (1, 'D'));
        let stopped = StopHandle::default();
        stopped.stop();
        let start = Game::new(Position::start());
        let (moves, depth) = s.analyze(&start, &Limits::default(), &stopped, &mut |_| {});
        assert_eq!(depth, 1);
        assert_eq!(moves.len(), 6);
        assert!(moves.iter().all(|m| !m.score.is_proven()), "{moves:?}");
    }

    #[test]
    fn node_limit_is_respected() {
        let game = Game::new(Position::start());
        let mut s = Searcher::new(1);
        let limits = Limits {
            nodes: Some(5000),
            ..Limits::default()
        };
        let r = s.search(&game, &limits, &StopHandle::default(), &mut |_| {});
        assert!(r.nodes <= 5000, "{} nodes", r.nodes);
        assert!(game.legal_moves().contains(r.best.unwrap()));
    }
}

#[cfg(test)]
mod repetition_bookkeeping {
    use super::*;

    #[test]
    fn a_board_seen_twice_since_the_last_capture_blocks_table_probes() {
        let mut s = Searcher::new(1);
        let (a, b) = (1u128, 2u128);
        let push = |s: &mut Searcher, key, on_board| {
            let again = s.occurrences(key, on_board) > 0;
            s.push_rep(key, on_board, again);
        };
        push(&mut s, a, 10);
        push(&mut s, b, 10);
        assert!(!s.repeat_since_capture(10));
        push(&mut s, a, 10);
        assert!(s.repeat_since_capture(10));
        // After a capture (fewer seeds) the earlier repeat no longer counts.
        push(&mut s, b, 8);
        assert!(!s.repeat_since_capture(8));
        s.pop_rep();
        s.pop_rep();
        assert!(!s.repeat_since_capture(10));
        assert_eq!(s.repeats, 0);
    }
}
