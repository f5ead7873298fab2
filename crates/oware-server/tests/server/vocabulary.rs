//! One refusal vocabulary: every reason code the server gives a refusal
//! (`ApiError::with_reason`) and every reason the rules core gives an
//! illegal move has words in the web client, in English and in French, so
//! no client is left with the server's English (docs/PROTOCOL.md,
//! "Errors").

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The English and French tables of `web/js/i18n.js`.
fn tables() -> (String, String) {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("web/js/i18n.js"))
            .unwrap();
    let en = text.find("\n  en: {").expect("the English table");
    let fr = text.find("\n  fr: {").expect("the French table");
    assert!(en < fr);
    let end = text[fr..].find("\n};").expect("the end of the tables") + fr;
    (text[en..fr].to_string(), text[fr..end].to_string())
}

#[test]
fn every_refusal_reason_has_words_in_both_languages() {
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    let mut reasons = std::collections::BTreeSet::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for part in text.split("with_reason(\"").skip(1) {
            let reason = part.split('"').next().unwrap();
            assert!(
                !reason.is_empty() && reason.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{}: a reason is a snake_case word: {reason:?}",
                f.display()
            );
            reasons.insert(reason.to_string());
        }
    }
    assert!(reasons.len() >= 40, "found only {reasons:?}");
    let (en, fr) = tables();
    let mut missing = Vec::new();
    for r in &reasons {
        for (lang, table) in [("en", &en), ("fr", &fr)] {
            if !table.contains(&format!(".{r}': ")) {
                missing.push(format!("{lang}: err.<code>.{r}"));
            }
        }
    }
    assert!(missing.is_empty(), "refusals without words: {missing:#?}");
}

#[test]
fn the_cores_illegal_move_reasons_are_the_web_clients() {
    use oware_core::IllegalMove;
    let (en, fr) = tables();
    let web = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("web/js/i18n.js"))
        .unwrap();
    let list = web
        .split("const ILLEGAL = [")
        .nth(1)
        .and_then(|s| s.split(']').next())
        .expect("the web's list of illegal-move reasons");
    for e in [
        IllegalMove::GameOver,
        IllegalMove::NotYourHouse,
        IllegalMove::EmptyHouse,
        IllegalMove::MustFeed,
    ] {
        let code = e.code();
        assert!(list.contains(&format!("'{code}'")), "{code} not in {list}");
        for table in [&en, &fr] {
            assert!(
                table.contains(&format!("'illegal.{code}': ")),
                "illegal.{code}"
            );
        }
    }
}
