//! The engine coach (issue 21): one analysis answers the hint, the
//! verdicts and the analysis board, so they never disagree, and asking
//! twice answers the same.

mod common;
use common::Rng;

use std::sync::Arc;

use oware_core::{Game, Move, Position};
use oware_engine::{tablebase, Engine, EngineOptions, StopHandle};
use oware_session::{Analysis, Budget, Lang, ScoreKind, Session, Verdict};

fn engine() -> Engine {
    Engine::new(EngineOptions {
        hash_mb: 4,
        tablebase_dir: None,
    })
}

/// Positions of random playouts from the start (the first `n` reached).
fn positions(n: usize, seed: u64) -> Vec<Game> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut game = Game::new(Position::start());
        while !game.is_over() && out.len() < n {
            out.push(game.clone());
            let legal: Vec<Move> = game.legal_moves().into_iter().collect();
            game.play(legal[rng.below(legal.len())]).unwrap();
        }
    }
    out
}

#[test]
fn verdicts_never_contradict_the_values_and_the_hint_is_best() {
    let mut e = engine();
    let stop = StopHandle::default();
    let budget = Budget::depth(5);
    let mut counts = [0usize; 5];
    let games = positions(2000, 0x0ae1_0ae1_0ae1_0ae1);
    for game in &games {
        let a = Arc::new(Analysis::run(&mut e, game, budget, &stop).unwrap());
        let judged = a.judgements();
        assert_eq!(judged.len(), game.legal_moves().len());
        // The hint (the session's, from this analysis) is the best move.
        let mut session = Session::new(game.clone(), None);
        let hint = session.accept_analysis(a.clone()).unwrap().mv;
        assert_eq!(hint, a.best().mv);
        assert_eq!(session.judge(hint).unwrap().verdict, Verdict::Best);
        for j in &judged {
            counts[j.verdict as usize] += 1;
            // The verdict is the loss's, and the loss is the values'.
            assert!(j.loss >= 0.0);
            assert!((j.loss - (a.best().points() - j.value.points())).abs() < 1e-9);
        }
        // No move called best or good is valued below a move called a
        // mistake or a blunder: not on the coach's scale, and not by the
        // engine's own score.
        for good in judged.iter().filter(|j| j.verdict <= Verdict::Good) {
            for bad in judged.iter().filter(|j| j.verdict >= Verdict::Mistake) {
                assert!(
                    good.value.points() > bad.value.points() && good.value.score > bad.value.score,
                    "{} ({:?}) called {:?} below {} ({:?}) called {:?} at {}",
                    good.mv,
                    good.value.score,
                    good.verdict,
                    bad.mv,
                    bad.value.score,
                    bad.verdict,
                    game.position()
                );
            }
        }
    }
    // Random playouts make every kind of move.
    for (v, n) in counts.iter().enumerate() {
        assert!(*n > 50, "verdict {v}: only {n} moves in {counts:?}");
    }
}

#[test]
fn the_same_position_asked_twice_answers_the_same() {
    let stop = StopHandle::default();
    let budget = Budget::depth(7);
    let mut busy = engine();
    for (i, game) in positions(300, 0x5eed).iter().enumerate().step_by(3) {
        // A fresh engine, and one that has searched other positions since.
        let a = Analysis::run(&mut engine(), game, budget, &stop).unwrap();
        let b = Analysis::run(&mut busy, game, budget, &stop).unwrap();
        assert_eq!(a, b, "position {i}: {}", game.position());
        for m in game.legal_moves() {
            for lang in Lang::ALL {
                assert_eq!(
                    a.judge(m).unwrap().text(lang, None),
                    b.judge(m).unwrap().text(lang, None)
                );
            }
        }
        // Something else in between, to disturb the engine's state.
        let _ = busy.analyze(game, &oware_engine::Limits::depth(3 + (i % 5) as u32));
    }
}

/// Issue 36: a review says what the coach says. Each ply's judgement in
/// a game's review (`oware_session::review`, at the coach's budget, its
/// analyses kept in a cache as the server and the module keep them) is
/// the coach's judgement of the move played in the position before it,
/// asked of another engine that has reviewed nothing; two reviews answer
/// the same.
#[test]
fn a_review_says_what_the_coach_says_of_each_position() {
    use oware_session::review::review_game;
    use oware_session::AnalysisCache;
    let stop = StopHandle::default();
    // A game of an endgame of 14 seeds (depth 14 is quick there), lost
    // turns and all, to its end or 16 plies.
    let mut rng = Rng(0x36_36);
    let mut game = Game::new("0-2-0-1-3-0-1-0-2-0-3-2-17-17-S".parse().unwrap());
    while !game.is_over() && game.plies().len() < 16 {
        let legal: Vec<Move> = game.legal_moves().into_iter().collect();
        game.play(legal[rng.below(legal.len())]).unwrap();
    }
    let review = |e: &mut Engine| {
        let mut cache = AnalysisCache::new(64);
        review_game(&game, &mut |g| cache.analyse(e, g, Budget::COACH, &stop)).unwrap()
    };
    let mut busy = engine();
    let _ = busy.analyze(&game, &oware_engine::Limits::depth(9));
    let first = review(&mut busy);
    assert_eq!(first.len(), game.plies().len());
    let mut coach = Engine::new(EngineOptions {
        hash_mb: 1,
        tablebase_dir: None,
    });
    let mut before = Game::new(*game.start());
    let mut judged = 0;
    for (p, &ply) in first.iter().zip(game.plies()) {
        if let oware_core::Ply::Move(mv) = ply {
            let a = Analysis::run(&mut coach, &before, Budget::COACH, &stop).unwrap();
            assert_eq!(p.judgement, a.judge(mv), "ply {}", p.ply);
            assert_eq!(p.best(), Some(a.best().mv));
            judged += 1;
            before.play(mv).unwrap();
        } else {
            assert_eq!(p.judgement, None);
            before.pass().unwrap();
        }
    }
    assert!(judged >= 8, "{judged} moves judged");
    assert_eq!(review(&mut engine()), first);
}

#[test]
fn table_values_speak_of_won_drawn_and_lost() {
    let tables = Arc::new(tablebase::build_in_memory(8).unwrap());
    let mut e = engine();
    e.set_tablebase(Some(tables));
    let stop = StopHandle::default();
    let mut seen = [false; 3];
    // Random endgames of 8 seeds or fewer on the board.
    let mut rng = Rng(0x7ab1e5);
    let mut tries = 0;
    while seen.iter().any(|s| !s) {
        tries += 1;
        assert!(
            tries < 20_000,
            "no table draw, win and loss found: {seen:?}"
        );
        let mut game = Game::new(Position::start());
        while !game.is_over() && game.position().seeds_on_board() > 8 {
            let legal: Vec<Move> = game.legal_moves().into_iter().collect();
            game.play(legal[rng.below(legal.len())]).unwrap();
        }
        if game.is_over() {
            continue;
        }
        let a = Analysis::run(&mut e, &game, Budget::depth(4), &stop).unwrap();
        for m in &a.moves {
            let j = a.judge(m.mv).unwrap();
            let (en, fr) = (j.text(Lang::En, None), j.text(Lang::Fr, None));
            match m.kind {
                ScoreKind::TablebaseDraw => {
                    seen[0] = true;
                    assert!(en.contains("drawn (endgame tables)"), "{en}");
                    assert!(fr.contains("nulle (tables de finales)"), "{fr}");
                    assert_eq!(m.points(), 0.0);
                }
                ScoreKind::TablebaseWin => {
                    seen[1] = true;
                    assert!(en.contains("won (endgame tables)"), "{en}");
                    assert!(fr.contains("gagné (tables de finales)"), "{fr}");
                }
                ScoreKind::TablebaseLoss => {
                    seen[2] = true;
                    assert!(en.contains("lost (endgame tables)"), "{en}");
                    assert!(fr.contains("perdu (tables de finales)"), "{fr}");
                }
                _ => {}
            }
            // Throwing away a table win is warned about.
            if matches!(a.best().kind, ScoreKind::TablebaseWin)
                && !matches!(m.kind, ScoreKind::TablebaseWin | ScoreKind::Win { .. })
            {
                assert!(j.is_warning(), "{en}");
            }
        }
    }
}

/// The coach's deeper look (`Budget::close`): whenever two moves or more
/// lie within `Budget::CLOSE` seeds of the best, each of them is valued by
/// the deeper search, the moves stay best first, an analysis without a
/// close move is the plain one, and the best move so chosen agrees with a
/// full search of the deeper depth more often than the plain search does.
#[test]
fn the_coach_searches_its_closest_moves_deeper() {
    let mut e = engine();
    let stop = StopHandle::default();
    let (shallow, deep) = (3, 7);
    let coach = Budget::coach(shallow, deep);
    // Best or good by the full deeper search: the plain search's best
    // move, and the coach's.
    let (mut plain_agrees, mut coach_agrees, mut looked, mut judged) = (0, 0, 0, 0);
    for game in positions(600, 21).iter().step_by(5) {
        if game.legal_moves().len() < 2 {
            continue;
        }
        judged += 1;
        let a = Analysis::run(&mut e, game, coach, &stop).unwrap();
        let plain = Analysis::run(&mut e, game, Budget::depth(shallow), &stop).unwrap();
        let full = Analysis::run(&mut e, game, Budget::depth(deep), &stop).unwrap();
        assert!(
            a.moves.windows(2).all(|w| w[0].points() >= w[1].points()),
            "{:?}",
            a.moves
        );
        let best = a.best().points();
        let close: Vec<_> = a
            .moves
            .iter()
            .filter(|m| best - m.points() < Budget::CLOSE)
            .collect();
        if close.len() >= 2 {
            for m in &close {
                assert!(
                    m.kind.is_decided() || m.depth == deep,
                    "{}: {m:?}",
                    game.position()
                );
            }
        }
        if a.moves.iter().all(|m| m.depth == shallow) {
            assert_eq!(a.moves, plain.moves, "{}", game.position());
        } else {
            looked += 1;
        }
        let agrees = |mv: Move| {
            let value = full.value(mv).unwrap().kind;
            Verdict::of_values(full.best().kind, value) <= Verdict::Good
        };
        plain_agrees += usize::from(agrees(plain.best().mv));
        coach_agrees += usize::from(agrees(a.best().mv));
    }
    assert!(looked > judged / 4, "{looked} deeper looks of {judged}");
    assert!(
        coach_agrees > plain_agrees,
        "of {judged}: the coach {coach_agrees}, the plain search {plain_agrees}"
    );
}

/// The deeper look depends on the seeds on the board (`Budget::look`):
/// in endings (at most `Budget::ENDING` seeds) every move within 2.5 seeds
/// of the best is searched to the ending's depth; elsewhere the `moves`
/// best of those within the look's margin to its depth, the best move
/// always among them.
#[test]
fn the_deeper_look_depends_on_the_seeds_on_the_board() {
    use oware_session::Look;
    let middle = Look {
        depth: 5,
        moves: 2,
        within: 15,
    };
    let budget = Budget {
        depth: 3,
        ending: Some(Look::every(7)),
        middle: Some(middle),
        opening: Some(Look {
            within: 10,
            ..middle
        }),
    };
    let start = Position::start();
    assert_eq!(budget.look(&start), budget.opening);
    let ending: Position = "0-0-0-2-2-0-1-18-3-1-0-3-12-6-N".parse().unwrap();
    assert_eq!(budget.look(&ending), budget.ending);
    let game: Position = "5-0-1-1-12-2-12-0-7-0-1-0-4-3-N".parse().unwrap();
    assert_eq!(budget.look(&game), budget.middle);
    // A look no deeper than the first search is none.
    assert_eq!(Budget::coach(5, 5).look(&start), None);
    assert_eq!(Budget::depth(14).look(&ending), None);

    let mut e = engine();
    let stop = StopHandle::default();
    let (mut endings, mut others) = (0, 0);
    for game in positions(1500, 36).iter().step_by(7) {
        if game.legal_moves().len() < 2 {
            continue;
        }
        let a = Analysis::run(&mut e, game, budget, &stop).unwrap();
        let look = budget.look(game.position()).unwrap();
        let best = a.best().points();
        let close: Vec<_> = a
            .moves
            .iter()
            .filter(|m| best - m.points() < look.margin())
            .collect();
        let seeds = game.position().seeds_on_board();
        let open = |m: &&&oware_session::MoveValue| !m.kind.is_decided();
        // No move is searched beyond this position's look (a search
        // whose every move is proven stops sooner).
        assert!(
            a.moves.iter().all(|m| m.depth <= look.depth),
            "{}: {:?}",
            game.position(),
            a.moves
        );
        if close.len() < 2 {
            continue;
        } else if seeds <= Budget::ENDING {
            endings += 1;
            for m in close.iter().filter(open) {
                assert_eq!(m.depth, 7, "{}: {m:?}", game.position());
            }
        } else {
            others += 1;
            for m in close.iter().take(2).filter(open) {
                assert_eq!(m.depth, 5, "{}: {m:?}", game.position());
            }
        }
    }
    assert!(
        endings > 10 && others > 10,
        "{endings} endings, {others} others"
    );
}
