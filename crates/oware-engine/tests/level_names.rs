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
