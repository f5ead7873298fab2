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

#[test]
fn levels_have_french_names_both_ways() {
    assert_eq!(Level::MIN.name_fr(), "débutant");
    assert_eq!(Level::MAX.name_fr(), "maître");
    for n in 1..=10 {
        let l = Level::new(n);
        assert_eq!(Level::from_name(&l.name_fr().to_uppercase()), Some(l));
    }
    assert_eq!(Level::from_name("MAÎTRE"), Some(Level::MAX));
    // Names are distinct within each language.
    let mut en: Vec<_> = (1..=10).map(|n| Level::new(n).name()).collect();
    let mut fr: Vec<_> = (1..=10).map(|n| Level::new(n).name_fr()).collect();
    en.sort();
    fr.sort();
    en.dedup();
    fr.dedup();
    assert_eq!((en.len(), fr.len()), (10, 10));
}

#[test]
fn levels_parse_from_numbers_and_names() {
    assert_eq!(Level::parse("beginner"), Some(Level::MIN));
    assert_eq!(Level::parse(" Master "), Some(Level::MAX));
    assert_eq!(Level::parse("apprenti"), Some(Level::new(3)));
    assert_eq!(Level::parse("7"), Some(Level::new(7)));
    assert_eq!(Level::parse("10"), Some(Level::MAX));
    for bad in ["0", "11", "-1", "", "grandmaster", "3.5"] {
        assert_eq!(Level::parse(bad), None, "{bad:?}");
    }
    assert_eq!(Level::all().count(), 10);
}
