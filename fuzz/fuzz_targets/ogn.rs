//! OGN: reading never panics, and what reads writes back to a fixed point.
#![no_main]

use libfuzzer_sys::fuzz_target;
use oware_core::Record;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(rec) = Record::parse(text) {
            let written = rec.write();
            let back = Record::parse(&written).expect("canonical OGN reads back");
            assert_eq!(back, rec);
        }
        let _ = Record::parse_all(text);
    }
});
