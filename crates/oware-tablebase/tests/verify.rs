//! The tables against two independent computations:
//!
//! - a naive solver of the same definition (thresholds, attractor sweeps,
//!   then the greatest safe set for R11's cycles) over a hash map, using
//!   only oware-core's forward move rules (no index, no predecessors, no
//!   counters), for every board of up to 8 seeds: the same bounds, exactly;
//! - exhaustive search with the full game rules (`oware_core::Game`,
//!   repetition R11 and R10 included) from every board of up to 3 seeds and
//!   a quarter of the boards of 4, for the pairs of stores that put the
//!   result on an edge of the bounds: the game's result must lie within what
//!   the bounds allow, and equal it where the bounds are exact. Repetition
//!   makes the game's tree grow fast (the history since the last capture is
//!   part of the state), so searches over a node budget are skipped and
//!   counted; about 40% complete (827 of 1928 when written).

use std::collections::HashMap;
use std::sync::OnceLock;

use oware_core::{Game, Position, Setup, Side};
use oware_tablebase::{index, Tablebase, TbResult};

fn table() -> &'static Tablebase {
    static TB: OnceLock<Tablebase> = OnceLock::new();
    TB.get_or_init(|| Tablebase::build_in_memory(8).unwrap())
}

/// Every board of `n` seeds (South's view), enumerated by brute force.
fn boards(n: u8) -> Vec<[u8; 12]> {
    fn rec(i: usize, left: u8, b: &mut [u8; 12], out: &mut Vec<[u8; 12]>) {
        if i == 11 {
            b[11] = left;
            out.push(*b);
            return;
        }
        for x in 0..=left {
            b[i] = x;
            rec(i + 1, left - x, b, out);
        }
    }
    let mut out = Vec::new();
    rec(0, n, &mut [0; 12], &mut out);
    out
}

fn with_stores(b: &[u8; 12], south: u8, to_move: Side) -> Position {
    let n: u8 = b.iter().sum();
    Position::from_setup(Setup {
        houses: *b,
        stores: [south, 48 - n - south],
        to_move,
    })
    .unwrap()
}

/// The board as its mover sees it, written independently of the index module.
fn mover_view(p: &Position) -> [u8; 12] {
    let s = p.setup();
    let mut b = [0u8; 12];
    for (i, x) in b.iter_mut().enumerate() {
        *x = if p.to_move() == Side::South {
            s.houses[i]
        } else {
            s.houses[(i + 6) % 12]
        };
    }
    b
}

/// The tables' definition computed the slow, obvious way, level by level:
/// for each threshold t (from n down), boards are won for a player X by
/// repeated sweeps until nothing changes: an attractor (an exit worth t,
/// or a move to a board won for X; for the opponent's boards, every move
/// and exit good for X), then the greatest set of open boards where X's
/// own row is worth t (or a row is empty) and X can keep the play for
/// ever, found by deleting boards until none breaks the rule. Boards are
/// keys of a hash map; moves come from oware-core's forward rules only.
fn reference(max: u8) -> HashMap<[u8; 12], (u8, u8)> {
    let mut values: HashMap<[u8; 12], (u8, u8)> = HashMap::new();
    for n in 0..=max {
        let level = boards(n);
        let at: HashMap<[u8; 12], usize> = level.iter().enumerate().map(|(i, b)| (*b, i)).collect();
        // Per board: best exit (lower, upper) or None, quiet children, own row.
        let mut exit: Vec<Option<(u8, u8)>> = Vec::new();
        let mut quiet: Vec<Vec<usize>> = Vec::new();
        let mut own: Vec<u8> = Vec::new();
        for b in &level {
            let pos = with_stores(b, (48 - n) / 2, Side::South);
            let row = pos.row_seeds(Side::South);
            own.push(row);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                exit.push(Some((row, row)));
                quiet.push(Vec::new());
                continue;
            }
            let (mut e, mut q) = (None::<(u8, u8)>, Vec::new());
            for mv in moves {
                let after = pos.play_unchecked(mv);
                let cap = after.store(Side::South) - pos.store(Side::South);
                let child = mover_view(&after);
                if cap == 0 {
                    q.push(at[&child]);
                } else {
                    let (cl, ch) = values[&child];
                    let rest = n - cap;
                    let v = (cap + rest - ch, cap + rest - cl);
                    e = Some(e.map_or(v, |(l, h)| (l.max(v.0), h.max(v.1))));
                }
            }
            exit.push(e);
            quiet.push(q);
        }
        let count = level.len();
        // won_a[b]: lower(b) >= t; won_b[b]: upper(b) <= n - t.
        let (mut won_a, mut won_b) = (vec![false; count], vec![false; count]);
        let (mut lo, mut hi) = (vec![0u8; count], vec![n; count]);
        for t in (1..=n).rev() {
            loop {
                let mut changed = true;
                while changed {
                    changed = false;
                    for b in 0..count {
                        if !won_a[b]
                            && (exit[b].is_some_and(|e| e.0 >= t)
                                || quiet[b].iter().any(|&c| won_b[c]))
                        {
                            won_a[b] = true;
                            changed = true;
                        }
                        if !won_b[b]
                            && exit[b].is_none_or(|e| e.1 <= n - t)
                            && quiet[b].iter().all(|&c| won_a[c])
                        {
                            won_b[b] = true;
                            changed = true;
                        }
                    }
                }
                let safe_a = |b: usize| own[b] == 0 || own[b] == n || own[b] >= t;
                let safe_b = |b: usize| own[b] == 0 || own[b] == n || n - own[b] >= t;
                let mut keep_a: Vec<bool> = (0..count).map(|b| !won_a[b] && safe_a(b)).collect();
                let mut keep_b: Vec<bool> = (0..count)
                    .map(|b| !won_b[b] && safe_b(b) && exit[b].is_none_or(|e| e.1 <= n - t))
                    .collect();
                let mut changed = true;
                while changed {
                    changed = false;
                    for b in 0..count {
                        if keep_a[b] && !quiet[b].iter().any(|&c| won_b[c] || keep_b[c]) {
                            keep_a[b] = false;
                            changed = true;
                        }
                        if keep_b[b] && !quiet[b].iter().all(|&c| won_a[c] || keep_a[c]) {
                            keep_b[b] = false;
                            changed = true;
                        }
                    }
                }
                if !keep_a.iter().chain(&keep_b).any(|&k| k) {
                    break;
                }
                for b in 0..count {
                    won_a[b] |= keep_a[b];
                    won_b[b] |= keep_b[b];
                }
            }
            for b in 0..count {
                if won_a[b] && lo[b] == 0 {
                    lo[b] = t;
                }
                if won_b[b] && hi[b] == n {
                    hi[b] = n - t;
                }
            }
        }
        values.extend(level.iter().enumerate().map(|(i, b)| (*b, (lo[i], hi[i]))));
    }
    values
}

#[test]
fn bounds_equal_a_naive_fixpoint_up_to_8_seeds() {
    let tb = table();
    let reference = reference(8);
    let mut inexact = 0;
    for (b, &(lo, hi)) in &reference {
        for side in Side::ALL {
            // The same board from either side's view.
            let mut abs = *b;
            if side == Side::North {
                abs.rotate_right(6);
            }
            let n: u8 = b.iter().sum();
            let pos = with_stores(&abs, (48 - n) / 2, side);
            let v = tb.probe(&pos).unwrap();
            assert_eq!((v.lower(), v.upper()), (lo, hi), "{pos}");
        }
        inexact += (lo != hi) as usize;
    }
    assert_eq!(reference.len() as u64, index::count_up_to(8));
    // The comparison covers repetition-dependent boards too.
    assert!(inexact > 0);
}

/// Nodes one exhaustive search may visit before it is abandoned.
const NODE_BUDGET: u64 = 1_000;

/// Exhaustive search with the full rules of `oware_core::Game`, memoised on
/// what decides the rest of the game: the position (stores included) and the
/// multiset of boards since the last capture (what R11 counts).
struct Solver {
    memo: HashMap<(u128, Vec<u128>), i8>,
    nodes: u64,
}

impl Solver {
    fn new() -> Solver {
        Solver {
            memo: HashMap::new(),
            nodes: 0,
        }
    }

    /// 1 win, 0 draw, -1 loss for the side to move; `None` over budget.
    fn result(&mut self, game: &mut Game) -> Option<i8> {
        self.nodes += 1;
        if self.nodes > NODE_BUDGET {
            return None;
        }
        let me = game.position().to_move();
        if let Some(o) = game.outcome() {
            return Some(match o.winner {
                None => 0,
                Some(w) if w == me => 1,
                Some(_) => -1,
            });
        }
        let mut history: Vec<u128> = game
            .since_last_capture()
            .iter()
            .map(|p| p.board_key())
            .collect();
        history.sort_unstable();
        let key = (game.position().key(), history);
        if let Some(&r) = self.memo.get(&key) {
            return Some(r);
        }
        let mut best = -1;
        for mv in game.legal_moves() {
            game.play(mv).unwrap();
            let r = self.result(game).map(|r| -r);
            game.undo().unwrap();
            best = best.max(r?);
            if best == 1 {
                break;
            }
        }
        self.memo.insert(key, best);
        Some(best)
    }
}

/// Checked, abandoned.
fn check_against_game(b: &[u8; 12], stats: &mut (u64, u64), solver: &mut Solver) {
    let tb = table();
    let n: u8 = b.iter().sum();
    for south in 0..=(48 - n) {
        let north = 48 - n - south;
        if south > 24 || north > 24 || (south == 24 && north == 24) {
            continue; // decided by R10 before any move
        }
        if south + n < 24 && north + n < 24 {
            continue;
        }
        // The splits where the table's bounds put the result on an edge.
        let v = table().probe(&with_stores(b, south, Side::South)).unwrap();
        let edge = |x: u8| (23..=25).contains(&(south + x));
        if !edge(v.lower()) && !edge(v.upper()) {
            continue;
        }
        let pos = with_stores(b, south, Side::South);
        let v = tb.probe(&pos).unwrap();
        // The memo is shared across searches (its keys hold the whole state);
        // the budget is per search.
        solver.nodes = 0;
        if solver.memo.len() > 2_000_000 {
            solver.memo.clear();
        }
        let Some(r) = solver.result(&mut Game::new(pos)) else {
            stats.1 += 1;
            continue;
        };
        stats.0 += 1;
        let allowed: &[i8] = match v.result(&pos) {
            TbResult::Win => &[1],
            TbResult::Draw => &[0],
            TbResult::Loss => &[-1],
            TbResult::WinOrDraw => &[1, 0],
            TbResult::DrawOrLoss => &[0, -1],
            TbResult::Unresolved => &[1, 0, -1],
        };
        assert!(
            allowed.contains(&r),
            "{pos}: the game gives {r}, the table {:?} ({}..={})",
            v.result(&pos),
            v.lower(),
            v.upper()
        );
    }
}

#[test]
fn results_agree_with_full_rule_search_up_to_4_seeds_sampled() {
    let mut stats = (0, 0);
    let mut solver = Solver::new();
    for n in 0..=4 {
        for (i, b) in boards(n).into_iter().enumerate() {
            if n < 4 || i % 4 == 0 {
                check_against_game(&b, &mut stats, &mut solver);
            }
        }
    }
    eprintln!("checked {}, abandoned {}", stats.0, stats.1);
    assert!(stats.0 >= 400, "{stats:?}");
}
