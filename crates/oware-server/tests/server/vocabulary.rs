//! One refusal vocabulary: every reason the server gives a refusal
//! (`oware_server::error::Reason`) and every reason the rules core gives an
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
    // The reasons are a type (`oware_server::error::Reason`): a refusal
    // cannot carry a reason that is not in this list.
    let (en, fr) = tables();
    let mut missing = Vec::new();
    for r in oware_server::error::Reason::ALL {
        let r = r.as_str();
        assert!(
            !r.is_empty() && r.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
            "a reason is a snake_case word: {r:?}"
        );
        for (lang, table) in [("en", &en), ("fr", &fr)] {
            if !table.contains(&format!(".{r}': ")) {
                missing.push(format!("{lang}: err.<code>.{r}"));
            }
        }
    }
    assert!(missing.is_empty(), "refusals without words: {missing:#?}");
}

/// No refusal names its reason as a bare string: `with_reason` takes a
/// [`oware_server::error::Reason`], and only the error module passes the
/// rules core's own codes on.
#[test]
fn refusal_reasons_are_typed() {
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    let mut stray = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let name = f.file_name().unwrap().to_string_lossy();
        for (i, line) in text.lines().enumerate() {
            if line.contains("with_core_reason(") && name != "error.rs" && name != "commands.rs" {
                stray.push(format!("{}:{}: {line}", f.display(), i + 1));
            }
        }
    }
    assert!(
        stray.is_empty(),
        "the core's codes are passed on only by error.rs and commands.rs (the session's errors): {stray:#?}"
    );
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
