//! Every shipped puzzle re-verified: its position and line are legal (the
//! parser replays them), and `puzzles::verify` finds the same move leading
//! every other by the margin at the file's check depth, with the endgame
//! tables the file names, proved the same way, with the trace's themes.
//! And a wrong puzzle is refused.

use std::sync::Arc;
use std::time::Instant;

use oware_core::Move;
use oware_engine::{Engine, EngineOptions};
use oware_session::puzzles::{self, Claim, Proof, Theme, VerifyError};
use oware_session::Lang;

fn engine(tables: Option<Arc<oware_engine::tablebase::Tablebase>>) -> Engine {
    let mut e = Engine::new(EngineOptions {
        hash_mb: 8,
        tablebase_dir: None,
    });
    e.set_tablebase(tables);
    e
}

fn tables() -> Arc<oware_engine::tablebase::Tablebase> {
    let set = puzzles::shipped();
    Arc::new(oware_engine::tablebase::build_in_memory(set.tables as usize).unwrap())
}

#[test]
fn every_shipped_puzzle_holds() {
    let set = puzzles::shipped();
    assert!(set.puzzles.len() >= 800, "{} puzzles", set.puzzles.len());
    let started = Instant::now();
    let tables = tables();
    let built = started.elapsed();
    // Two threads, each an engine with the shared tables.
    let halves: Vec<Vec<puzzles::Puzzle>> = vec![
        set.puzzles.iter().step_by(2).cloned().collect(),
        set.puzzles.iter().skip(1).step_by(2).cloned().collect(),
    ];
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = halves
            .iter()
            .map(|half| {
                let tables = tables.clone();
                s.spawn(move || {
                    let mut e = engine(Some(tables));
                    half.iter()
                        .filter_map(|p| puzzles::verify(&mut e, p, set.check_depth).err())
                        .map(|e| e.to_string())
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    eprintln!(
        "{} puzzles verified at depth {} with {}-seed tables: tables {:.1} s, total {:.1} s",
        set.puzzles.len(),
        set.check_depth,
        set.tables,
        built.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_set_covers_the_themes_and_both_proofs() {
    let set = puzzles::shipped();
    let count = |t: Theme| set.puzzles.iter().filter(|p| p.themes.contains(&t)).count();
    // Every theme but `repetition`: since issue 36 a theme names what
    // happens in the solution's first plies, and no solution of the set
    // ends the game by R11 within them (the repetitions came at the end
    // of table lines 20 to 40 plies long).
    for t in Theme::ALL.into_iter().filter(|&t| t != Theme::Repetition) {
        assert!(count(t) > 0, "no puzzle of theme {}", t.code());
    }
    // Every puzzle's text says what its claim proves, in seeds of the
    // game (`oware puzzle recheck` derives and re-checks the claims).
    for p in &set.puzzles {
        assert_ne!(p.claim, Claim::Legacy, "puzzle {}", p.id);
        let en = p.explain(Lang::En);
        assert!(!en.contains("worth at least"), "puzzle {}: {en}", p.id);
        if p.claim == Claim::TablesSeeds {
            assert!(p.margin >= 2.0, "puzzle {}", p.id);
            assert!(
                en.contains(&format!("at least {} seeds more", p.margin)),
                "puzzle {}: {en}",
                p.id
            );
        }
    }
    assert!(set.puzzles.iter().any(|p| p.proof.by_tables()));
    assert!(set
        .puzzles
        .iter()
        .any(|p| matches!(p.proof, Proof::Search { .. })));
    // Ids are unique and rising: the server keeps ratings and attempts by
    // them, so a puzzle taken out leaves a gap and every other keeps its
    // number (issue 36 removed six).
    assert!(
        set.puzzles.windows(2).all(|w| w[0].id < w[1].id),
        "ids not rising"
    );
    assert_eq!(set.puzzles.first().map(|p| p.id), Some(1));
}

/// A table-proved puzzle's line is the tables' play after the solution
/// (`puzzles::table_line`, re-made by `verify`); where it ends the game,
/// the end is the one the proof promises: the solver wins a `tw` puzzle
/// and draws a `td` one. And the set holds the themes read from the
/// lines' ends.
#[test]
fn table_lines_end_as_proved() {
    let set = puzzles::shipped();
    let mut ended = 0;
    for p in set.puzzles.iter().filter(|p| p.proof.by_tables()) {
        assert!(p.line.len() <= puzzles::TABLE_LINE_PLIES, "puzzle {}", p.id);
        let game = oware_core::Game::from_moves(p.position, &p.line).unwrap();
        // A line that does not end stops at the cap, or where the tables
        // do not cover the board (a table proof may rest on captures
        // further on).
        let Some(o) = game.outcome() else {
            assert!(
                p.line.len() == puzzles::TABLE_LINE_PLIES
                    || game.position().seeds_on_board() > set.tables,
                "puzzle {}",
                p.id
            );
            continue;
        };
        ended += 1;
        let want = match p.proof {
            Proof::TablesWin => Some(p.to_move()),
            _ => None,
        };
        assert_eq!(o.winner, want, "puzzle {}: {:?}", p.id, o.reason);
    }
    assert!(ended > 0);
    // `starving` and `repetition` name an end within the solution's
    // first plies, never the end of a long line.
    for p in &set.puzzles {
        let mut g = oware_core::Game::new(p.position);
        for &mv in p.line.iter().take(puzzles::THEME_PLIES) {
            if g.play(mv).is_err() || g.is_over() {
                break;
            }
        }
        let end = g.outcome().map(|o| o.reason);
        assert_eq!(
            p.themes.contains(&Theme::Starving),
            end == Some(oware_core::EndReason::NoMoves),
            "puzzle {}",
            p.id
        );
        assert_eq!(
            p.themes.contains(&Theme::Repetition),
            end == Some(oware_core::EndReason::Repetition),
            "puzzle {}",
            p.id
        );
    }
    let count = |t: Theme| set.puzzles.iter().filter(|p| p.themes.contains(&t)).count();
    assert!(count(Theme::Starving) >= 10, "{}", count(Theme::Starving));
}

#[test]
fn a_wrong_puzzle_is_refused() {
    let set = puzzles::shipped();
    let tables = tables();
    let mut e = engine(Some(tables));
    let p = set
        .puzzles
        .iter()
        .find(|p| matches!(p.proof, Proof::Search { .. }))
        .unwrap();
    puzzles::verify(&mut e, p, set.check_depth).unwrap();

    // Another legal move as the solution.
    let other: Move = p
        .position
        .legal_moves()
        .into_iter()
        .find(|&m| m != p.solution)
        .unwrap();
    let mut wrong = p.clone();
    wrong.solution = other;
    wrong.line = vec![other];
    assert!(matches!(
        puzzles::verify(&mut e, &wrong, set.check_depth),
        Err(VerifyError::OtherMove { .. })
    ));

    // A search puzzle claimed as proved by the tables.
    let mut wrong = p.clone();
    wrong.proof = Proof::TablesWin;
    assert!(matches!(
        puzzles::verify(&mut e, &wrong, set.check_depth),
        Err(VerifyError::OtherProof { .. })
    ));

    // A theme the trace does not show.
    let mut wrong = p.clone();
    wrong.themes = vec![Theme::Repetition];
    assert!(matches!(
        puzzles::verify(&mut e, &wrong, set.check_depth),
        Err(VerifyError::OtherThemes { .. })
    ));

    // A table-proved puzzle with a line cut short of the tables' play.
    let t = set
        .puzzles
        .iter()
        .find(|p| p.proof.by_tables() && p.line.len() > 1)
        .unwrap();
    let mut wrong = t.clone();
    wrong.line.pop();
    assert!(matches!(
        puzzles::verify(&mut e, &wrong, set.check_depth),
        Err(VerifyError::OtherLine { .. })
    ));

    // Without the tables, a puzzle the tables prove is not proved by them.
    let t = set.puzzles.iter().find(|p| p.proof.by_tables()).unwrap();
    let mut plain = engine(None);
    assert!(puzzles::verify(&mut plain, t, set.check_depth).is_err());

    // A position where no move stands out: the start.
    let start = oware_core::Position::start();
    assert_eq!(puzzles::examine(&mut plain, start, 6).unwrap(), None);
}
