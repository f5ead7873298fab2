//! Serde support (feature `serde`): positions as position strings, moves and
//! houses as letters, sides as "S"/"N"; bad values are errors.
#![cfg(feature = "serde")]

use oware_core::{House, Move, Position, Side};

#[test]
fn vocabulary_types_as_strings() {
    let pos = Position::start();
    assert_eq!(
        serde_json::to_string(&pos).unwrap(),
        "\"4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\""
    );
    assert_eq!(
        serde_json::from_str::<Position>("\"4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\"").unwrap(),
        pos
    );
    assert_eq!(
        serde_json::to_string(&"f".parse::<Move>().unwrap()).unwrap(),
        "\"f\""
    );
    assert_eq!(
        serde_json::from_str::<Move>("\"C\"").unwrap(),
        "C".parse().unwrap()
    );
    assert_eq!(serde_json::to_string(&Side::North).unwrap(), "\"N\"");
    assert_eq!(
        serde_json::from_str::<House>("\"a\"").unwrap(),
        House::new(6).unwrap()
    );
}

#[test]
fn bad_values_are_errors() {
    let err = serde_json::from_str::<Position>("\"4-4-4-4-4-4-4-4-4-4-4-5-0-0-S\"").unwrap_err();
    assert!(err.to_string().contains("49 seeds"), "{err}");
    assert!(serde_json::from_str::<Move>("\"g\"").is_err());
    assert!(serde_json::from_str::<Side>("\"W\"").is_err());
    assert!(serde_json::from_str::<House>("\"ab\"").is_err());
}
