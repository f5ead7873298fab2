//! The coach and the endgame tables (issue 36): where the tables reach,
//! the coach's verdicts follow them. A move the tables win is never a
//! mistake, a move the tables lose is never "good" while another move
//! does not lose, and the issue's three positions, which the coach of
//! depth 14 with the browser's 12-seed tables got wrong, are judged right
//! with tables of 16 seeds (the server holds 20).

mod common;
use common::Rng;

use std::sync::Arc;

use oware_core::{Game, Move, Position};
use oware_engine::{tablebase::Tablebase, Engine, EngineOptions, StopHandle};
use oware_session::{Analysis, Budget, ScoreKind, Verdict};

fn engine(tables: &Arc<Tablebase>) -> Engine {
    let mut e = Engine::new(EngineOptions {
        hash_mb: 16,
        tablebase_dir: None,
    });
    e.set_tablebase(Some(tables.clone()));
    e
}

fn proven_loss(kind: ScoreKind) -> bool {
    matches!(kind, ScoreKind::Loss { .. } | ScoreKind::TablebaseLoss)
}

fn verdicts(a: &Analysis) -> Vec<(char, Verdict, ScoreKind)> {
    a.judgements()
        .iter()
        .map(|j| (j.mv.letter(), j.verdict, j.value.kind))
        .collect()
}

#[test]
fn a_table_win_is_never_a_mistake_and_a_table_loss_never_good() {
    let tables = Arc::new(Tablebase::build_in_memory(12).unwrap());
    let mut e = engine(&tables);
    let stop = StopHandle::default();
    let mut rng = Rng(0x36_0036_0036);
    let (mut judged, mut losses) = (0, 0);
    let mut wrong = Vec::new();
    // Random playouts, judged from the moment 20 seeds or fewer are left,
    // where the 12-seed tables answer after a capture or two.
    while judged < 3000 {
        let mut game = Game::new(Position::start());
        while !game.is_over() {
            let legal: Vec<Move> = game.legal_moves().into_iter().collect();
            if game.position().seeds_on_board() <= 20 && legal.len() > 1 {
                let a = Analysis::run(&mut e, &game, Budget::depth(6), &stop).unwrap();
                let best = a.best().kind;
                for (mv, verdict, kind) in verdicts(&a) {
                    judged += 1;
                    let bad = match kind {
                        ScoreKind::TablebaseWin => verdict != Verdict::Best,
                        k if proven_loss(k) && !proven_loss(best) => {
                            losses += 1;
                            !verdict.is_warning()
                        }
                        _ => false,
                    };
                    if bad {
                        wrong.push(format!("{} {mv}: {verdict:?} ({kind:?})", game.position()));
                    }
                }
            }
            game.play(legal[rng.below(legal.len())]).unwrap();
        }
    }
    assert!(losses > 100, "too few proven losses to judge: {losses}");
    assert!(
        wrong.is_empty(),
        "{} of {judged}:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// The issue's three positions at the coach's depth with 16-seed tables.
/// With the browser's 12 the first still reads e as the best move (at
/// depths 14, 18 and 20 alike: e is lost only by tables of 16 seeds or
/// more), so these verdicts need the server's tables (docs/ENGINE.md, "The
/// coach").
#[test]
fn the_issue_coach_positions() {
    let tables = Arc::new(Tablebase::build_in_memory(16).unwrap());
    let mut e = engine(&tables);
    let stop = StopHandle::default();
    let judge = |e: &mut Engine, pos: &str| {
        let game = Game::new(pos.parse().unwrap());
        verdicts(&Analysis::run(e, &game, Budget::COACH, &stop).unwrap())
    };
    let find = |v: &[(char, Verdict, ScoreKind)], m: char| *v.iter().find(|x| x.0 == m).unwrap();

    // e, the old best, is a proven loss; f, called a mistake, the only
    // move not lost.
    let v = judge(&mut e, "1-1-2-2-0-2-2-11-0-0-2-1-13-11-N");
    assert_eq!(v[0].0, 'f', "{v:?}");
    let (_, verdict, kind) = find(&v, 'e');
    assert!(
        verdict.is_warning() && kind == ScoreKind::TablebaseLoss,
        "{v:?}"
    );

    // d was called a mistake, but a and d both win by the tables.
    let v = judge(&mut e, "0-0-0-2-2-0-1-18-3-1-0-3-12-6-N");
    for m in ['a', 'd'] {
        let (_, verdict, kind) = find(&v, m);
        assert!(
            verdict == Verdict::Best && kind == ScoreKind::TablebaseWin,
            "{v:?}"
        );
    }

    // d was called good: it is not.
    let v = judge(&mut e, "2-4-0-3-1-4-2-0-3-3-3-4-13-6-N");
    assert!(find(&v, 'd').1 > Verdict::Good, "{v:?}");
}
