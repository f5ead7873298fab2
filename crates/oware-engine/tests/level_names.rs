//! The levels' names for people.

use oware_engine::Level;

#[test]
fn levels_have_names_both_ways() {
    assert_eq!(Level::MIN.name(), "beginner");
    assert_eq!(Level::MAX.name(), "master");
    for n in 1..=10 {
        let l = Level::new(n);
        assert_eq!(Level::from_name(&l.name().to_uppercase()), Some(l));
    }
    assert_eq!(Level::from_name("grandmaster"), None);
}
