//! Move lists played from the start with the full rules: never a panic,
//! illegal moves are refused.
#![no_main]

use libfuzzer_sys::fuzz_target;
use oware_core::{parse_moves, Game, Position};

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(moves) = parse_moves(text) {
            let mut game = Game::new(Position::start());
            for mv in moves {
                if game.play(mv).is_err() {
                    break;
                }
            }
        }
    }
});
