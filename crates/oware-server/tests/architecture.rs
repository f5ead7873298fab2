//! The server's layering, checked on its source: the store is below the
//! hub, so no file under `src/store/` names the hub (its row types live in
//! the store); and the WebSocket never locks a game, but hands every
//! command to `Hub::apply`. ARCHITECTURE.md states the rules.

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

#[test]
fn no_store_module_imports_the_hub() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/store");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    assert!(files.len() >= 5, "found only {files:?}");
    let mut offenders = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if code.contains("crate::hub") || code.contains("super::super::hub") {
                offenders.push(format!("{}:{}: {}", f.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "the store imports the hub:\n{}",
        offenders.join("\n")
    );
}

/// The WebSocket only parses and limits: every command goes through the
/// hub's one entry (`Hub::apply`), and the socket never takes a game's
/// lock itself, so there is no second path that could skip a check.
#[test]
fn the_websocket_never_locks_a_game() {
    let ws = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ws.rs");
    let text = std::fs::read_to_string(ws).unwrap();
    for needle in [".state.lock", "_locked("] {
        assert!(!text.contains(needle), "ws.rs contains {needle:?}");
    }
    assert!(
        text.contains("hub.apply("),
        "ws.rs sends commands to Hub::apply"
    );
}
