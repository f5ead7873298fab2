//! The web app names the engine's levels (`js/i18n.js`, `level.1` …
//! `level.10`) with the engine's own names (`Level::name`, beginner …
//! master); this test keeps the two lists the same.

use std::path::Path;

use oware_engine::Level;

#[test]
fn the_level_picker_uses_the_engines_names() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("web/js/i18n.js");
    let text = std::fs::read_to_string(path).expect("web/js/i18n.js is readable");
    // The English strings come first in the file.
    let english = &text[..text.find("\n  fr: {").expect("a French block")];
    for n in 1..=10u8 {
        let key = format!("'level.{n}': '");
        let start = english.find(&key).unwrap_or_else(|| panic!("no {key}")) + key.len();
        let name = &english[start..start + english[start..].find('\'').expect("a closing quote")];
        assert_eq!(
            name.to_lowercase(),
            Level::new(n).name(),
            "level {n}: the web says {name:?}"
        );
    }
}
