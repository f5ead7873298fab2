//! Position strings: parsing never panics, and what parses prints back the same.
#![no_main]

use libfuzzer_sys::fuzz_target;
use oware_core::Position;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(pos) = text.parse::<Position>() {
            let printed = pos.to_string();
            assert_eq!(printed.parse::<Position>().unwrap(), pos);
            for mv in pos.legal_moves() {
                let _ = pos.trace(mv).unwrap();
            }
        }
    }
});
