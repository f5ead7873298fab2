//! Property tests: seed conservation, move generation against the naive
//! reference, text round trips, and parsers that never panic.

mod common;

use oware_core::{parse_moves, Game, Move, Position, Record, Setup, Side};
use proptest::prelude::*;

/// Any valid position: `k` seeds scattered over the houses, the rest split
/// between the stores.
fn position() -> impl Strategy<Value = Position> {
    (
        0..=48usize,
        prop::collection::vec(0..12usize, 48),
        0..=100u32,
        any::<bool>(),
    )
        .prop_map(|(k, spots, split, north)| {
            let mut s = Setup {
                houses: [0; 12],
                stores: [0, 0],
                to_move: if north { Side::North } else { Side::South },
            };
            for &h in &spots[..k] {
                s.houses[h] += 1;
            }
            let rest = (48 - k) as u32;
            s.stores[0] = (rest * split / 100) as u8;
            s.stores[1] = (rest - rest * split / 100) as u8;
            Position::from_setup(s).unwrap()
        })
}

/// A position reached by random play from the start (more game-like).
fn played() -> impl Strategy<Value = Game> {
    prop::collection::vec(0..6usize, 0..120).prop_map(|choices| {
        let mut game = Game::new(Position::start());
        for c in choices {
            let legal: Vec<Move> = game.legal_moves().into_iter().collect();
            if legal.is_empty() {
                break;
            }
            game.play(legal[c % legal.len()]).unwrap();
        }
        game
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn moves_agree_with_reference_and_conserve_seeds(pos in position()) {
        let reference = common::Ref::from_core(&pos);
        let legal: Vec<usize> = pos.legal_moves().into_iter().map(|m| m.house().index()).collect();
        prop_assert_eq!(&legal, &reference.moves());
        for mv in pos.legal_moves() {
            let after = pos.try_play(mv).unwrap();
            prop_assert_eq!(after.to_string(), reference.sow(mv.house().index()).position_string());
            let total = after.seeds_on_board() as u32 + after.store(Side::South) as u32 + after.store(Side::North) as u32;
            prop_assert_eq!(total, 48);
            prop_assert_eq!(Position::from_setup(after.setup()), Ok(after));
            let trace = pos.trace(mv).unwrap();
            prop_assert_eq!(trace.after, after);
            prop_assert_eq!(trace.sown.len(), pos.seeds(mv.house()) as usize);
            prop_assert_eq!(trace.captured_seeds(), after.store(pos.to_move()) - pos.store(pos.to_move()));
            prop_assert_eq!(pos.preview(mv).map(|(_, k)| k), Some(trace.captured_seeds()));
        }
    }

    #[test]
    fn every_move_is_legal_or_refused_with_a_reason(pos in position(), i in 0..12usize) {
        let mv = Move::new(oware_core::House::new(i).unwrap());
        match pos.check(mv) {
            Ok(()) => prop_assert!(pos.legal_moves().contains(mv)),
            Err(_) => {
                prop_assert!(!pos.legal_moves().contains(mv));
                prop_assert!(pos.try_play(mv).is_err());
            }
        }
    }

    #[test]
    fn position_string_round_trip(pos in position()) {
        let text = pos.to_string();
        prop_assert_eq!(text.parse::<Position>().unwrap(), pos);
    }

    #[test]
    fn move_list_round_trip(game in played()) {
        let moves: Vec<Move> = game.moves().collect();
        let text = oware_core::format_moves(&moves);
        prop_assert_eq!(parse_moves(&text).unwrap(), moves.clone());
        let spaced: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        prop_assert_eq!(parse_moves(&spaced.join(" ")).unwrap(), moves);
    }

    #[test]
    fn ogn_round_trip(game in played(), comment_at in 0..200usize, text in "[a-zA-Z0-9 .,'!?()-]{0,30}") {
        let mut rec = Record::from_game(game, &[("Event", "Property \"test\""), ("South", "A\\B")]);
        if !rec.plies().is_empty() {
            let i = comment_at % rec.plies().len();
            if !text.trim().is_empty() {
                prop_assert!(rec.set_comment(i, Some(text.trim().to_string())));
            }
        }
        let written = rec.write();
        let back = Record::parse(&written).unwrap();
        prop_assert_eq!(&back, &rec);
        prop_assert_eq!(back.write(), written);
    }

    #[test]
    fn undo_restores_the_game(game in played()) {
        let mut g = game.clone();
        if let Some(last) = game.moves().last() {
            let before = g.clone();
            g.undo().unwrap();
            g.play(last).unwrap();
            prop_assert_eq!(g, before);
        }
    }

    #[test]
    fn parsers_never_panic(s in "\\PC{0,80}") {
        let _ = s.parse::<Position>();
        let _ = Setup::parse(&s);
        let _ = s.parse::<Move>();
        let _ = parse_moves(&s);
        let _ = Record::parse(&s);
        let _ = Record::parse_all(&s);
    }

    #[test]
    fn mangled_ogn_never_panics(game in played(), cut in 0..2000usize, flips in prop::collection::vec((0..2000usize, any::<u8>()), 0..4)) {
        let text = Record::from_game(game, &[]).write();
        let mut bytes = text.into_bytes();
        for (at, b) in flips {
            if !bytes.is_empty() {
                let n = bytes.len();
                bytes[at % n] = b;
            }
        }
        bytes.truncate(cut.min(bytes.len()));
        let s = String::from_utf8_lossy(&bytes);
        let _ = Record::parse(&s);
        let _ = Record::parse_all(&s);
    }
}
